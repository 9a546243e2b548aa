// Issue 22's batched product, bug hunt, q-k plane and honest colour in Firefox ESR and WebKit (and
// Chromium when named), through the cross-engine drivers of engines.test.js. batched.test.js checks
// the same in Chromium in more detail. ATTN_ENGINES=firefox,webkit,chromium picks the engines.
'use strict';
const { describe } = require('node:test');
const assert = require('node:assert/strict');
const { drawnCellsInPage, CELLS, nativeEval, rowsOf } = require('./helpers');
const { chosenEngines, engineChecks } = require('./engines/suite');

const f32 = (v) => Math.fround(Number(v));
const grid = (cells) => { const rows = []; for (const c of cells) (rows[c.i] ||= [])[c.j] = c; return rows; };
const cellsIn = (driver, selector) => driver.evaluate(drawnCellsInPage, selector);

for (const name of chosenEngines(['firefox', 'webkit'])) {
  describe(name, () => {
    let driver, server;
    const check = engineChecks(name, (started) => ({ driver, server } = started));
    const open = async (query) => {
      const url = `${server.url}${query}`;
      if (driver.url === url) return;
      await driver.open(url);
      await driver.waitForLab();
    };

    check('the batched product: an output row links its row of weights and every input row, faded by weight', async () => {
      await open('?section=batched');
      const product = '[data-testid=batched-product]';
      const out = await cellsIn(driver, `${product} [data-matrix=all_context_vecs]`);
      assert.deepEqual(out.map((c) => f32(c.value)), CELLS.get('3.3.2/all_context_vecs').values.map(f32));
      await driver.hover(`${product} [data-matrix=all_context_vecs] td[data-row="1"][data-col="0"]`);
      await driver.waitFor((sel) => document.querySelector('attention-lab').shadowRoot.querySelector(`${sel} [data-matrix=inputs] td[data-linked]`), [product], { what: 'the linked input rows' });
      const a = await cellsIn(driver, `${product} [data-matrix=attn_weights]`), b = await cellsIn(driver, `${product} [data-matrix=inputs]`);
      assert.deepEqual(a.filter((c) => c.linked === 'true').map((c) => c.i), [1, 1, 1, 1, 1, 1]);
      assert.equal(b.filter((c) => c.linked === 'true').length, 18);
      const w = CELLS.get('3.3.2/attn_weights').values.slice(6, 12);
      const opacity = (j) => Number(b.find((c) => c.i === j).opacity);
      for (let j = 0; j < 6; j++) for (let k = 0; k < 6; k++) if (w[j] > w[k] + 1e-4) assert.ok(opacity(j) > opacity(k), `input row ${j + 1} is drawn as strongly as its weight`);
    });

    check('the bug hunt: the corrupted row found by comparing the drawn weights; wrong and right guesses; Undo', async () => {
      await open('?section=batched');
      const book = CELLS.get('3.3.2/attn_weights').values;
      await driver.click('corrupt-random');
      await driver.settle();
      const weights = grid(await cellsIn(driver, '[data-testid=debug-product] [data-matrix=attn_weights]'));
      const changed = weights.map((row, i) => (row.some((c) => f32(c.value) !== f32(book[i * 6 + c.j])) ? i : -1)).filter((i) => i >= 0);
      assert.equal(changed.length, 1);
      const row = changed[0];
      const want = nativeEval({ op: 'matmul', a: weights.map((r) => r.map((c) => Number(c.value))), b: rowsOf(CELLS.get('inputs')) });
      assert.deepEqual((await cellsIn(driver, '[data-testid=debug-product-out]')).map((c) => f32(c.value)), want.values.map(f32));
      const guess = async (r) => {
        await driver.focus(`[data-testid=guess-row][data-row="${r}"]`);
        await driver.pressKey('Enter');
        await driver.settle();
        return { correct: await driver.attribute('guess-feedback', 'data-correct'), text: await driver.text('guess-feedback') };
      };
      const wrong = await guess((row + 3) % 6);
      assert.equal(wrong.correct, 'false');
      assert.doesNotMatch(wrong.text, /reverse/);
      const right = await guess(row);
      assert.equal(right.correct, 'true');
      assert.match(right.text, new RegExp(`^Yes: row ${row + 1} .*reverse order`));
      await driver.click('corrupt-undo');
      await driver.settle();
      assert.match(await driver.text('debug-verdict'), /Every row agrees/);
    });

    check('q(2) and the keys in the plane carry the engine\'s values', async () => {
      await open('?section=step-by-step');
      const got = await driver.evaluate(() => {
        const plane = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=qk-plane]');
        const q = plane.querySelector('.qk-query');
        return { drawn: plane.dataset.drawn, q: [q.dataset.x, q.dataset.y], keys: [...plane.querySelectorAll('.qk-key')].map((k) => [k.dataset.x, k.dataset.y]) };
      });
      const x = rowsOf(CELLS.get('inputs'));
      const keys = rowsOf(nativeEval({ op: 'matmul', a: x, b: rowsOf(CELLS.get('3.4.1/W_key')) }));
      const q = nativeEval({ op: 'matmul', a: [x[1]], b: rowsOf(CELLS.get('3.4.1/W_query')) }).values;
      assert.equal(got.drawn, 'true');
      assert.deepEqual(got.q.map(f32), q.map(f32));
      assert.deepEqual(got.keys.map((k) => k.map(f32)), keys.map((k) => k.map(f32)));
    });

    check('honest colour: α rows spanning ≥ 0.05 span ≥ 0.25 in luminance; dropped ≠ masked; −inf drawn as −inf', async () => {
      await open('?section=causal');
      for (const id of ['causal-before', 'causal-heatmap', 'dropout-heatmap']) {
        await driver.evaluate((sel) => { document.querySelector('attention-lab').shadowRoot.querySelector(sel).scrollIntoView(); return true; }, `[data-testid=${id}]`);
        await driver.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
        for (const row of grid(await cellsIn(driver, `[data-testid=${id}]`))) {
          const live = row.filter((c) => !/mv-masked|mv-dropped/.test(c.cls));
          const v = live.map((c) => Number(c.value));
          if (live.length < 2 || Math.max(...v) - Math.min(...v) < 0.05) continue;
          const lo = live[v.indexOf(Math.min(...v))], hi = live[v.indexOf(Math.max(...v))];
          assert.ok(lo.lum - hi.lum >= 0.25, `${id} row ${lo.i + 1}: luminance ${lo.lum} vs ${hi.lum}`);
        }
      }
      const drop = await cellsIn(driver, '[data-testid=dropout-heatmap]');
      const masked = drop.find((c) => c.cls.includes('mv-masked')), dropped = drop.find((c) => c.cls.includes('mv-dropped'));
      assert.ok(masked && dropped);
      assert.notEqual(masked.look, dropped.look);
      const inf = (await cellsIn(driver, '[data-testid=masked-scores]')).filter((c) => c.j > c.i);
      assert.equal(inf.length, 15);
      assert.ok(inf.every((c) => c.value === '-inf' && c.text === '−inf' && c.cls.includes('mv-nonfinite')));
    });
  });
}
