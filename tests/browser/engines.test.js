// The page in three engines: Chromium (playwright-core), Firefox ESR (puppeteer-core over WebDriver
// BiDi) and WebKit (WebKitWebDriver + selenium-webdriver), all from Debian's packages. In each: the
// golden prints are exact, the temperature slider goes from a step function to uniform, the scalar
// fallback works, and nothing is reported as an error. An engine that cannot start fails loudly.
// ATTN_ENGINES=firefox,webkit runs only those.
'use strict';
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SCREENSHOTS, CELLS, MUST_SHOW, cellLine, nativeEval } = require('./helpers');
const { startSuiteServer } = require('./engines/server');

const ENGINES = {
  chromium: () => require('./engines/chromium'),
  firefox: () => require('./engines/firefox'),
  webkit: () => require('./engines/webkit'),
};
const chosen = process.env.ATTN_ENGINES ? process.env.ATTN_ENGINES.split(',').map((s) => s.trim()) : Object.keys(ENGINES);
for (const name of chosen) {
  if (!ENGINES[name]) throw new Error(`ATTN_ENGINES names "${name}": use some of ${Object.keys(ENGINES).join(', ')}.`);
}

// The temperature section's row of weights (query 2) at temperature T, as the page writes it.
const weightsOf = (values) => Array.from(values, (v) => v.toFixed(4)).join(' ');
const goldenWeights = (T) => weightsOf(CELLS.get(`slider/T=${T}`).values);
const scores2 = CELLS.get('3.4.1/attn_scores_2').values;
const nativeWeights = (T) => weightsOf(nativeEval({ op: 'softmax', x: scores2, temperature: T }).values);
// The train section's default run, as PyTorch computed it (scripts/make_reference_cases.py train).
const TRAIN = JSON.parse(fs.readFileSync(path.join(__dirname, '../fixtures/train_page_cases.json'), 'utf8')).cases[0];
// An element by data-testid through the shadow roots, as a function text for driver.evaluate.
const BY_TEST_ID_IN_PAGE = `(id) => { const find = (root) => root.querySelector('[data-testid="' + id + '"]') || [...root.querySelectorAll('*')].map((el) => el.shadowRoot && find(el.shadowRoot)).find(Boolean) || null; return find(document); }`;

// Every golden cell the page shows is PyTorch's print, character for character, and MUST_SHOW is shown.
function assertGoldenCells(shown, where) {
  for (const id of MUST_SHOW) assert.ok(id in shown, `${where}: the page does not show cell ${id}`);
  const golden = Object.keys(shown).filter((id) => CELLS.has(id));
  for (const id of golden) assert.equal(shown[id], cellLine(id), `${where}: cell ${id} differs from PyTorch's print`);
  return golden.length;
}

for (const name of chosen) {
  describe(name, () => {
    let driver, server, startError;
    let seen = 0;   // problems() already accounted for (the control page's)

    before(async () => {
      try {
        driver = await ENGINES[name]().launch();
      } catch (e) {
        startError = e;
      }
      server = await startSuiteServer({ recorder: driver ? driver.recordsInPage : false });
    });
    after(async () => {
      if (driver) await driver.close();
      if (server) await server.close();
    });

    // Each check below is skipped when the browser did not start; this test then fails and says why.
    test(`${name} starts`, (t) => {
      if (startError) throw new Error(`${name} did not start, so its checks are skipped: ${startError.message}`);
      t.diagnostic(driver.version);
    });
    const check = (title, fn) => test(`${name}: ${title}`, async (t) => {
      if (!driver) { t.skip(`${name} did not start (see "${name} starts")`); return; }
      seen = (await driver.problems()).length;
      await fn(t);
      assert.deepEqual((await driver.problems()).slice(seen), [], `${name} reported problems`);
    });

    check('the problem listeners hear a console error, an uncaught exception, an unhandled rejection and a CSP violation', async () => {
      await driver.open(server.controlUrl);
      const kinds = [/control: console\.error was called/, /control: an uncaught exception/, /control: nobody handled this rejection/, /CSP|Content.Security.Policy/i];
      let heard = [];
      await driver.waitFor(() => document.readyState === 'complete', [], { what: 'the control page to load' });
      for (let i = 0; i < 100 && !kinds.every((k) => heard.some((p) => k.test(p))); i++) {
        await new Promise((r) => setTimeout(r, 50));
        heard = (await driver.problems()).slice(seen);
      }
      for (const k of kinds) assert.ok(heard.some((p) => k.test(p)), `${name} did not hear ${k} on the control page; heard ${JSON.stringify(heard)}`);
      seen = (await driver.problems()).length;   // expected here, so not a failure of this check
    });

    // Chromium 156, Firefox ESR 153 and WebKitGTK 2.50 all have wasm SIMD128, so auto must pick it.
    check('every golden print the page shows is exact; the footer names the SIMD engine', async (t) => {
      await driver.open(server.url);
      await driver.waitForLab();
      assert.equal(await driver.text('engine-footer'), 'Engine: WebAssembly SIMD128');
      const count = assertGoldenCells(await driver.cells(), name);
      t.diagnostic(`${name}: ${count} golden cells shown, all exact`);
      fs.mkdirSync(path.join(SCREENSHOTS, 'engines'), { recursive: true });
      await driver.screenshot(path.join(SCREENSHOTS, 'engines', `${name}-top.png`));
    });

    check('the temperature slider goes from a step function (T = 0.01) to uniform (T = 100)', async () => {
      await driver.open(`${server.url}?section=temperature`);
      await driver.waitForLab();
      assert.equal(await driver.text('temperature-weights'), goldenWeights(1.41421), 'the default is √d_k, the book\'s attn_weights_2');

      await driver.press('temperature-slider', 'Home');
      await driver.waitForText('temperature-weights', nativeWeights(0.01));
      const low = (await driver.text('temperature-weights')).split(' ').map(Number);
      assert.ok(Math.max(...low) >= 0.98, `one weight takes (almost) everything at T = 0.01: ${low}`);
      assert.match(await driver.text('temperature-regime'), /Step function/);

      await driver.press('temperature-slider', 'End');
      await driver.waitForText('temperature-weights', goldenWeights(100));
      const high = (await driver.text('temperature-weights')).split(' ').map(Number);
      for (const w of high) assert.ok(Math.abs(w - 1 / 6) < 0.002, `every weight is about 1/6 at T = 100: ${high}`);
      assert.match(await driver.text('temperature-regime'), /uniform/);

      // an edit as a script makes it, then a pointer click in the middle of the track: both land on T = 1
      await driver.setValue('temperature-slider', -200);
      await driver.waitForText('temperature-weights', nativeWeights(0.01));
      await driver.click('temperature-slider');
      await driver.waitForText('temperature-weights', goldenWeights(1));
    });

    check('the scalar fallback: ?engine=scalar names the scalar engine and prints the same numbers', async () => {
      await driver.open(`${server.url}?engine=scalar`);
      await driver.waitForLab();
      assert.equal(await driver.text('engine-footer'), 'Engine: WebAssembly scalar');
      assertGoldenCells(await driver.cells(), `${name}, scalar engine`);
      assert.equal(await driver.text('temperature-weights'), goldenWeights(1.41421));
    });

    // "Train it": Step takes one optimizer step, Play runs to the end; the losses are PyTorch's.
    check('the train section steps and plays to PyTorch\'s losses; the weights learn the previous token', async () => {
      await driver.open(`${server.url}?section=train`);
      await driver.waitForLab();
      assert.equal(await driver.text('train-step'), '0');
      assert.equal(await driver.text('train-loss'), TRAIN.answer.losses[0].toFixed(4));
      await driver.click('train-step-button');
      await driver.waitForText('train-step', '1');
      assert.equal(await driver.text('train-loss'), TRAIN.answer.losses[1].toFixed(4));
      await driver.click('train-play');
      await driver.waitForText('train-step', '300', { timeout: 60000 });
      assert.equal(await driver.text('train-loss'), TRAIN.answer.losses[300].toFixed(4));
      const heat = await driver.evaluate(`() => [...(${BY_TEST_ID_IN_PAGE})('train-heatmap').querySelectorAll('td.mv-cell')].map((td) => Number(td.dataset.value))`);
      const want = TRAIN.answer.weights[TRAIN.answer.weights.length - 1].values.slice(0, 36);
      heat.forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 1e-4, `weight ${i}: ${v}, PyTorch ${want[i]}`));
      for (let i = 1; i < 6; i++) assert.ok(heat[i * 6 + i - 1] > 0.9, `query ${i + 1} looks at the token before it`);
      assert.equal(await driver.text('train-print'), TRAIN.output);
    });
  });
}
