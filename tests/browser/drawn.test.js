// §3.4's drawn tensors and the stepper through §3.4.1 on the full page: every drawn cell is the engine's
// value (checked against PyTorch's golden chapter), the stepper writes out 1.8524 and [0.3061, 0.8210]
// and steps back to exactly the previous state, and hovering a weight links its q, k, v rows.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { drawnCellsInPage, CELLS, launch, startServer, newPage, waitForLab, settle, letStepperThrough } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

const drawnCells = (page, selector) => page.evaluate(drawnCellsInPage, selector);

test('§3.4 draws x, W_q/W_k/W_v, q, k, v, scores, weights and z with the engine\'s values', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  // the stepper fills z in at its last steps: to its end (End), so that every value is shown
  await letStepperThrough(page);
  await page.locator('[data-testid=projection-stepper] [data-testid=step-next]').press('End');
  await settle(page);
  const golden = (id) => CELLS.get(id);
  for (const [matrix, id, decimals] of [['W_query', '3.4.1/W_query', 1], ['W_key', '3.4.1/W_key', 1], ['W_value', '3.4.1/W_value', 1], ['context_vec', '3.4.2/sa_v1', 4]]) {
    const cells = await drawnCells(page, `[data-section=step-by-step] [data-matrix=${matrix}]`);
    const g = golden(id);
    assert.equal(cells.length, g.values.length, `${matrix} draws every value`);
    const cols = g.shape[1];
    for (const c of cells) {
      const want = g.values[c.i * cols + c.j];
      assert.equal(Math.fround(Number(c.value)), Math.fround(want), `${matrix}[${c.i}, ${c.j}]`);
      assert.equal(c.text, Number(want).toFixed(decimals), `${matrix}[${c.i}, ${c.j}] is drawn to ${decimals} decimals`);
    }
  }
  // the 6×6 weights of SelfAttention_v1 with the book's seed: row 2 is 3.4.1's attn_weights_2, rows sum to 1
  const heat = await drawnCells(page, '[data-testid=weights-heatmap]');
  assert.equal(heat.length, 36);
  const row2 = heat.filter((c) => c.i === 1).sort((a, b) => a.j - b.j).map((c) => Math.fround(Number(c.value)));
  assert.deepEqual(row2, golden('3.4.1/attn_weights_2').values.map(Math.fround));
  for (let i = 0; i < 6; i++) {
    const sum = heat.filter((c) => c.i === i).reduce((s, c) => s + Number(c.value), 0);
    assert.ok(Math.abs(sum - 1) < 1e-6, `row ${i + 1} of the weights sums to ${sum}`);
  }
  assert.deepEqual(problems, []);
});

test('the projection stepper writes out 1.8524 and [0.3061, 0.8210], and steps back', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  await letStepperThrough(page);
  const stepper = page.locator('[data-testid=projection-stepper]');
  const caption = stepper.locator('[data-testid=step-caption]');
  assert.equal(await caption.getAttribute('aria-live'), 'polite');
  const highlighted = () => stepper.evaluate((s) => [...s.querySelectorAll('[data-hl]')].map((n) => `${n.closest('[data-matrix]').dataset.matrix}:${n.dataset.row ?? ''},${n.dataset.col ?? ''}:${n.dataset.hl}`).sort().join(' '));
  const captions = [await caption.textContent()];
  const states = [await highlighted()];
  assert.match(captions[0], /q⁽²⁾₁ = .* ≈ 0\.4306$/);
  const next = stepper.locator('[data-testid=step-next]');
  while ((await next.getAttribute('aria-disabled')) !== 'true') {
    await next.click();
    captions.push(await caption.textContent());
    states.push(await highlighted());
  }
  assert.ok(captions.length >= 8, `${captions.length} steps`);
  assert.ok(captions.some((c) => /^ω₂₂ = q⁽²⁾ · k⁽²⁾ = 0\.4306·0\.4433 \+ 1\.4551·1\.1419 ≈ 1\.8524$/.test(c)), 'a step writes out ω22');
  assert.ok(captions.some((c) => /≈ 1\.$/.test(c) && /α₂ = \[0\.1500, 0\.2264, 0\.2199, 0\.1311, 0\.0906, 0\.1820\]/.test(c)), 'a step shows the weights summing to 1');
  assert.match(captions.at(-1), /z⁽²⁾ = \[0\.3061, 0\.8210\]$/);
  // written sums with = add up at the digits shown; the others say ≈
  for (const c of captions) assert.ok(!/\d·\d[^=]*= \d+\.\d+$/.test(c.replace(/.*≈.*/, '')), `a rounded sum written with "=": ${c}`);
  // back, with the button and with ←, restores every previous state
  await stepper.locator('[data-testid=step-prev]').click();
  assert.equal(await caption.textContent(), captions.at(-2));
  assert.equal(await highlighted(), states.at(-2));
  await stepper.locator('[data-testid=step-prev]').focus();
  for (let i = captions.length - 3; i >= 0; i--) {
    await page.keyboard.press('ArrowLeft');
    assert.equal(await caption.textContent(), captions[i]);
    assert.equal(await highlighted(), states[i]);
  }
  await page.keyboard.press('ArrowRight');
  assert.equal(await caption.textContent(), captions[1]);
  assert.deepEqual(problems, []);
});

test('hovering a weight outlines the query, key and value rows it comes from and its row of z', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  // (hovered again until the pointer is on that cell: a part above it laid out after the scroll that
  // brought it near can move it between Playwright's measuring and its move, under load)
  const cell = page.locator('[data-testid=weights-heatmap] td[data-row="1"][data-col="4"]');
  for (let i = 0; i < 10; i++) {
    await cell.hover();
    if (await cell.evaluate((td) => td.matches(':hover'))) break;
  }
  assert.ok(await cell.evaluate((td) => td.matches(':hover')), 'the pointer rests on weight (2, 5)');
  const rows = await page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot.querySelector('[data-section=step-by-step]');
    const of = (name) => [...new Set([...root.querySelectorAll(`[data-matrix=${name}] td[data-hl]`)].map((td) => td.dataset.row))].join();
    return { q: of('queries'), k: of('keys'), v: of('values'), z: of('context_vec') };
  });
  assert.deepEqual(rows, { q: '1', k: '4', v: '4', z: '1' });
  assert.deepEqual(problems, []);
});

test('§3.5 and §3.6 drawn: the causal map greys the future (data-value 0), dropout marks its zeros and ×2, heads side by side, no stray "null"', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  const causal = await drawnCells(page, '[data-testid=causal-heatmap]');
  assert.equal(causal.length, 36);
  const golden = CELLS.get('3.5.1/attn_weights_causal').values;
  for (const c of causal) {
    if (c.j > c.i) assert.equal(c.value, '0', `future cell ${c.i},${c.j} is masked`);
    else assert.equal(Math.fround(Number(c.value)), Math.fround(golden[c.i * 6 + c.j]), `causal α[${c.i}, ${c.j}]`);
  }
  const maskedCount = await page.locator('[data-testid=causal-heatmap] td.mv-masked').count();
  assert.equal(maskedCount, 15);
  // dropout: each dropped cell hatched, each survivor of torch.ones shows 2
  const ones = await drawnCells(page, '[data-testid=dropout-ones]');
  const onesGolden = CELLS.get('3.5.2/dropout_ones').values;
  assert.deepEqual(ones.map((c) => Number(c.value)), onesGolden);
  assert.ok(ones.filter((c) => c.value === '2').every((c) => c.text === '2'), 'the survivors read 2');
  assert.equal(await page.locator('[data-testid=dropout-ones] td.mv-dropped').count(), onesGolden.filter((v) => v === 0).length);   // dropped, not masked
  const dropped = await drawnCells(page, '[data-testid=dropout-heatmap]');
  assert.deepEqual(dropped.map((c) => Math.fround(Number(c.value))), CELLS.get('3.5.2/dropout_attn_weights').values.map(Math.fround));
  // two heads, each a causal 6×6 map of its own
  const h1 = await drawnCells(page, '[data-testid=head-1-heatmap]'), h2 = await drawnCells(page, '[data-testid=head-2-heatmap]');
  assert.equal(h1.length, 36);
  assert.equal(h2.length, 36);
  assert.notDeepEqual(h1.map((c) => c.value), h2.map((c) => c.value));
  assert.ok(h1.every((c) => c.j <= c.i || c.value === '0'));
  // small multiples: at 1280 px the two heads sit side by side, on one row
  const [b1, b2] = await page.evaluate(() => [1, 2].map((k) => {
    const r = document.querySelector('attention-lab').shadowRoot.querySelector(`[data-testid=head-${k}-heatmap]`).getBoundingClientRect();
    return { top: Math.round(r.top), left: r.left, right: r.right };
  }));
  assert.equal(b2.top, b1.top, 'the heads are on one row');
  assert.ok(b2.left >= b1.right, 'head 2 is beside head 1');
  // nothing the page draws is the text of a missing value ("null", "undefined", "NaN" alone)
  const stray = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector('attention-lab').shadowRoot, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (/^\s*(null|undefined|NaN)\s*$/.test(n.data)) out.push(`${n.parentNode.nodeName}.${n.parentNode.className}: ${n.data}`);
    return out;
  });
  assert.deepEqual(stray, []);
  assert.deepEqual(problems, []);
});
