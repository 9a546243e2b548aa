// The √d_k experiment on the page: its first input sets d_k (2 to 1024), the prints and plots are the
// engine's numbers (equal to PyTorch's in tests/fixtures/dk_cases.json), a d_k out of range is refused
// with a sentence, and the conclusion follows the data.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, launch, startServer, newPage, waitForLab } = require('./helpers');

const CASES = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/dk_cases.json'), 'utf8')).cases.filter((c) => c.seed === 123);
const caseAt = (dk) => CASES.find((c) => c.d_k === dk);

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

test('the d_k control redraws the experiment with PyTorch\'s numbers; the conclusion follows the data', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=why-sqrt-dk`);
  await waitForLab(page);
  const experiment = page.locator('[data-testid=dk-experiment]');
  const control = experiment.locator('input').first();
  assert.equal(await control.getAttribute('min'), '2');
  assert.equal(await control.getAttribute('max'), '1024');
  // it says how the engine draws q and k
  assert.match(await page.locator('[data-section=why-sqrt-dk]').textContent(), /draws 8 random queries and 8 random keys of .* numbers each, every number uniform on \[−√3, √3\) \(mean 0, variance 1\), with torch\.rand after torch\.manual_seed\(123\)/);
  const print = page.locator('[data-testid=dk-print]');
  const expectPrint = (c) => [`tensor(${c.spread.toFixed(4)})`, c.weights_unscaled.print, c.weights_scaled.print].join('\n');
  assert.equal(await print.textContent(), expectPrint(caseAt(64)));
  await control.fill('256');
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=dk-print]').textContent.includes('tensor(16.'));
  assert.equal(await print.textContent(), expectPrint(caseAt(256)));
  // one number per thing: d_k, then the count of scores said as 8 × 8 (at d_k = 64, "the 64 scores" read as d_k)
  const readoutText = await page.locator('[data-testid=dk-readout]').textContent();
  assert.match(readoutText, new RegExp(`^d_k = 256: the standard deviation of all 8 × 8 scores q·k is ${caseAt(256).spread.toFixed(2)} \\(√d_k = 16\\.00\\)`));
  await control.fill('64');
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=dk-readout]').textContent.startsWith('d_k = 64:'));
  assert.equal((await page.locator('[data-testid=dk-readout]').textContent()).match(/(?<![\d.])64(?![\d.])/g).length, 1, 'd_k = 64 is the readout\'s only 64');
  await control.fill('256');
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=dk-print]').textContent.includes('tensor(16.'));
  // the conclusion: the spread's growth and the saturation, from the sweep's own numbers
  const first = caseAt(2), last = caseAt(1024);
  const conclusion = await page.locator('[data-testid=dk-conclusion]').textContent();
  assert.match(conclusion, new RegExp(`grew ${(last.spread / first.spread).toFixed(1)} times \\(√d_k grew 22\\.6 times\\)`));
  assert.match(conclusion, new RegExp(last.max_unscaled.toFixed(4)));
  assert.match(conclusion, new RegExp(Math.max(...CASES.filter((c) => c.d_k >= 2 && (c.d_k & (c.d_k - 1)) === 0).map((c) => c.max_scaled)).toFixed(4)));
  // two plots, each with the sweep's 10 points and the learner's d_k
  assert.equal(await experiment.locator('[data-testid=dk-spread] svg').count(), 1);
  assert.equal(await experiment.locator('[data-testid=dk-saturation] svg').count(), 1);
  // out of range: refused with a sentence, the plots keep the d_k from before the typing (256, committed
  // when the field lost focus)
  await control.blur();
  await control.fill('4096');
  assert.equal(await control.getAttribute('aria-invalid'), 'true');
  assert.match(await experiment.textContent(), /d_k must be a whole number from 2 to 1024; the plots keep d_k = 256/);
  assert.equal(await print.textContent(), expectPrint(caseAt(256)));
  assert.deepEqual(problems, []);
});

// Issue 22 item 11: "your d_k" is marked on both curves of each plot, at the engine's numbers.
test('your d_k is ringed on both curves of both plots', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=why-sqrt-dk`);
  await waitForLab(page);
  // A plot is drawn again when its width changes (a late font, a scrollbar): each read takes the rings and
  // the dots they must sit on from one drawing, in one evaluation.
  const rings = (testid, index = -1) => page.locator(`attention-lab [data-testid=${testid}]`).evaluate((plot, i) => ({
    rings: [...plot.querySelectorAll('circle.plot-ring')].map((c) => ({ x: Number(c.dataset.x), y: Number(c.dataset.y), cx: c.getAttribute('cx'), cy: c.getAttribute('cy') })),
    dots: [0, 1].map((series) => { const c = plot.querySelector(`circle.plot-dot[data-series="${series}"][data-index="${i}"]`); return c && { cx: c.getAttribute('cx'), cy: c.getAttribute('cy') }; }),
  }), index);
  const at = (r) => ({ cx: r.cx, cy: r.cy });
  const c64 = caseAt(64);
  const i64 = 5;   // d_k = 2, 4, 8, 16, 32, 64: the sixth point of the sweep
  const spreadPlot = await rings('dk-spread', i64);
  let spread = spreadPlot.rings;
  assert.deepEqual(spread.map((r) => r.x), [64, 64]);
  assert.ok(Math.abs(spread[0].y - c64.spread) < 1e-5, `on the std curve: ${spread[0].y} vs ${c64.spread}`);
  assert.equal(spread[1].y, 8, 'on the √d_k curve');
  assert.deepEqual(at(spread[0]), spreadPlot.dots[0], 'the ring sits on the std curve\'s dot');
  const maxPlot = await rings('dk-saturation', i64);
  assert.deepEqual(at(maxPlot.rings[0]), maxPlot.dots[0], 'on the unscaled curve');
  assert.deepEqual(at(maxPlot.rings[1]), maxPlot.dots[1], 'on the scaled curve');
  assert.match(await page.locator('attention-lab [data-testid=dk-saturation] .plot-legend').textContent(), /your d_k = 64/);
  // a d_k between the sweep's points: still two rings per plot, at it
  await page.locator('attention-lab [data-testid=dk-input]').fill('100');
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=dk-readout]').textContent.startsWith('d_k = 100:'));
  spread = (await rings('dk-spread')).rings;
  assert.deepEqual(spread.map((r) => r.x), [100, 100]);
  assert.equal(spread[1].y, 10);
  assert.deepEqual((await rings('dk-saturation')).rings.map((r) => r.x), [100, 100]);
  assert.deepEqual(problems, []);
});
