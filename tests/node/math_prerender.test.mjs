// The formulas rendered at build time (web/math-prerender.mjs, web/src/math.js's buildTemplate): every
// formula the page shows at load has a template, and the DOM built from a template, for that formula
// and for the same formula with other digits (a live number), is exactly what KaTeX's render makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { templates, template, renderTree, recordNodes, shapeOf } from '../../web/math-prerender.mjs';
import { buildTemplate } from '../../web/src/math.js';

const formulas = JSON.parse(fs.readFileSync(new URL('../../web/math-formulas.json', import.meta.url), 'utf8'));
const built = (t, key) => recordNodes(() => buildTemplate(t, key));

test('every formula in web/math-formulas.json gets a template', () => {
  assert.ok(formulas.length >= 20, `${formulas.length} formulas`);
  const { shapes, missing } = templates(formulas);
  assert.deepEqual(missing, []);
  for (const key of formulas) assert.ok(shapes[shapeOf(key)], key);
});

test('a template builds what KaTeX renders, for its formula and for other digits', () => {
  let seed = 2025;   // a fixed LCG: the same digits every run
  const digit = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return String(seed % 10); };
  let patched = 0;
  for (const key of formulas) {
    const t = template(key);
    assert.deepEqual(built(t, key), renderTree(key), key);
    if (!/[0-9]/.test(key)) continue;
    for (let v = 0; v < 3; v++) {
      const other = key.replace(/[0-9]/g, digit);
      assert.deepEqual(built(t, other), renderTree(other), `${key} as ${other}`);
      patched++;
    }
  }
  assert.ok(patched >= 30, `${patched} formulas with other digits`);
});

test('a formula whose digits change its layout gets no template (KaTeX renders it at run time)', () => {
  assert.equal(template('I\\kern{2em}x'), null);
  assert.equal(template('I\\rule{1em}{2em}'), null);
  assert.notEqual(template('I\\sqrt{2}'), null);
});
