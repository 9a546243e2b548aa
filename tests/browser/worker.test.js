// Exercise 3.3 live: GPT-2 small's MultiHeadAttention runs in a Web Worker for T up to 1024, its time
// is shown, the main thread never has a task of 50 ms or more meanwhile, and before a run the block
// shows no empty table or print.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { launch, startServer, newPage, waitForLab } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

// In the page: the boxes of exercise 3.3's block that take room and show nothing (an empty <pre>, a
// table with no rows), each as "tag.class height".
function emptyBands() {
  const timing = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=mha-times]').closest('.timing');
  const shown = (el) => el.getClientRects().length > 0 && el.getBoundingClientRect().height > 0;
  return [...timing.querySelectorAll('*')]
    .filter((el) => shown(el) && (el.matches('table') ? el.tBodies[0].rows.length === 0 : !el.textContent.trim() && !el.closest('input, select, button, svg')))
    .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().height)} px`);
}

test('before exercise 3.3 is run its block shows no empty band, at 1280 and 390 px', async () => {
  for (const width of [1280, 390]) {
    const { page, problems } = await newPage(browser.context);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${server.url}?section=multi-head`);
    await waitForLab(page);
    assert.deepEqual(await page.evaluate(emptyBands), [], `at ${width} px`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('T = 128 … 1024 in a worker, times shown, the forward never on the main thread', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=multi-head`);
  await waitForLab(page);
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); }).observe({ type: 'longtask' });
  });
  await page.locator('[data-testid=mha-run-all]').click();
  await page.locator('[data-testid=mha-ms-1024]').waitFor({ timeout: 120000 });
  const ms = {};
  for (const t of [128, 256, 512, 1024]) ms[t] = Number(await page.locator(`[data-testid=mha-ms-${t}]`).textContent());
  assert.ok(Object.values(ms).every((v) => v > 0), JSON.stringify(ms));
  assert.ok(ms[1024] > ms[128], `cost grows with T: ${JSON.stringify(ms)}`);
  // a code cell a learner can run: seeded, and its print carries the grad_fn PyTorch prints
  const cell = page.locator('.cell:has([data-testid=mha-output])');
  assert.match(await cell.locator('code.language-python').textContent(), /^torch\.manual_seed\(123\)\nx = torch\.rand\(1, 1024, 768\)\n/);
  assert.match(await page.locator('[data-testid=mha-output]').textContent(), /^tensor\(\[\[\[[^]*,\s+grad_fn=<ViewBackward0>\)$/);
  assert.ok(await page.locator('[data-testid=mha-times]').isVisible() && await page.locator('[data-testid=mha-output]').isVisible(), 'the table and the print appear with the times');
  assert.deepEqual(await page.evaluate(emptyBands), []);
  // Structural, not a speed test (scripts/bench measures long tasks): had the forward run on the
  // main thread, one task would have lasted as long as the T = 1024 run itself.
  const longest = Math.max(0, ...await page.evaluate(() => window.longTasks));
  assert.ok(longest < ms[1024], `a main-thread task of ${longest} ms while the worker ran T = 1024 in ${ms[1024]} ms`);
  assert.deepEqual(problems, []);
});
