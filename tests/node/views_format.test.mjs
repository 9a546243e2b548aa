// The views' number texts and colours, without a browser: the fallback float text is the shortest
// that reads back as the same float32, and every cell colour keeps its text at 4.5:1 contrast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortestFloat32, fixed, pythonFixed } from '../../web/src/views/format.js';
import fs from 'node:fs';
import { scaleFor, sequentialRgb, divergingRgb, textOn } from '../../web/src/views/color.js';

// significant digits of a decimal text: without sign, point, exponent, leading and trailing zeros
const digits = (text) => text.replace(/e.*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;

test('shortestFloat32 reads back as the same float32, and no shorter text does', () => {
  const values = [0.2961, 0.4306, 1 / 3, 0.1, 1e-7, 123456.789, 3.4e38, 1.5e-45, -0.8210, 16777217, 0.30610000000000004];
  let seed = 12345;   // a fixed LCG: the same floats every run
  for (let i = 0; i < 3000; i++) { seed = (seed * 1103515245 + 12345) % 2 ** 31; values.push((seed / 2 ** 31 - 0.5) * 10 ** ((seed % 17) - 8)); }
  for (const v of values) {
    const f = Math.fround(v);
    const text = shortestFloat32(v);
    assert.equal(Math.fround(Number(text)), f, `${text} for ${f}`);
    const n = digits(text);
    if (n > 1) assert.notEqual(Math.fround(Number(f.toPrecision(n - 1))), f, `${text} for ${f} is not the shortest`);
  }
  assert.equal(shortestFloat32(Math.fround(0.2961)), '0.2961');   // not 0.296100012...: the double of the float
  assert.equal(shortestFloat32(NaN), 'nan');
  assert.equal(shortestFloat32(-Infinity), '-inf');
  assert.equal(shortestFloat32(-0), '-0');
});

test('fixed writes the book’s decimals with a true minus sign and no −0', () => {
  assert.equal(fixed(0.30610001, 4), '0.3061');
  assert.equal(fixed(-0.00001, 4), '0.0000');
  assert.equal(fixed(-1.24, 1), '−1.2');
  assert.equal(fixed(0.2961, 1), '0.3');
});

test('pythonFixed (dom.js\'s fixed4) prints 4 decimals as Python\'s %.4f does: from the float32, ties to even', () => {
  // Python's '%.4f' % float32(v) for each v (struct.pack('f')), including the cases issue 26 found
  const python = [[94207.44, '94207.4375'], [118926.4609, '118926.4609'], [0.03125, '0.0312'], [-0.03125, '-0.0312'],
    [0.09375, '0.0938'], [0.00015, '0.0002'], [2.5, '2.5000'], [1e30, '1000000015047466219876688855040.0000'], [-0, '-0.0000'],
    [-0.00001, '-0.0000'], [NaN, 'nan'], [Infinity, 'inf'], [-Infinity, '-inf'], [0.3061, '0.3061'], [1.5e-45, '0.0000']];
  for (const [v, text] of python) {
    assert.equal(pythonFixed(v, 4), text, `${v}`);
  }
  assert.equal(pythonFixed(0.5, 0), '0');
  assert.equal(pythonFixed(1.5, 0), '2');
  // every number PyTorch printed with 4 decimals in the fixtures (unsummarised prints in fixed notation)
  let checked = 0;
  for (const file of ['chapter3.json', 'reference_cases.json']) {
    const json = JSON.parse(fs.readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8'));
    const prints = [];
    const walk = (o) => { if (o && typeof o === 'object') { if (typeof o.print === 'string' && Array.isArray(o.values)) prints.push(o); Object.values(o).forEach(walk); } };
    walk(json);
    for (const { print, values } of prints) {
      if (/e[+-]|\.\.\./.test(print)) continue;   // scientific notation or summarised: not %.4f
      const texts = print.replace(/grad_fn=<\w+>|requires_grad=True/g, '').match(/-?(\d+\.\d+|inf|nan)/g) || [];
      if (texts.length !== values.length || !texts.every((t) => /\.\d{4}$|^-?(inf|nan)$/.test(t))) continue;
      values.forEach((v, i) => assert.equal(pythonFixed(typeof v === 'string' ? Number(v.replace('inf', 'Infinity').replace('nan', 'NaN')) : v, 4), texts[i], print));
      checked += values.length;
    }
  }
  assert.ok(checked > 1000, `${checked} printed numbers compared`);
});

test('every colour of both scales keeps its cell text at 4.5:1 or more', () => {
  const lum = ([r, g, b]) => [r, g, b].map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; })
    .reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
  const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  for (let t = 0; t <= 1.0001; t += 0.01) {
    for (const rgb of [sequentialRgb(t), divergingRgb(2 * t - 1)]) {
      const [a, b] = [lum(rgb), lum(hex(textOn(rgb)))].sort((x, y) => y - x);
      assert.ok((a + 0.05) / (b + 0.05) >= 4.5, `rgb(${rgb}) with ${textOn(rgb)}`);
    }
  }
});

test('the scale fits the values: [0, 1] sequential, signed diverging around 0', () => {
  assert.equal(scaleFor([0.1, 0.9]).kind, 'sequential');
  assert.deepEqual(scaleFor([0.1, 0.9]).domain, [0, 1]);
  assert.deepEqual(scaleFor([0.5, 1.8524]).domain, [0, 1.8524]);
  const d = scaleFor([-0.3, 0.5]);
  assert.equal(d.kind, 'diverging');
  assert.deepEqual(d.domain, [-0.5, 0.5]);
  assert.deepEqual(d.rgb(0), [247, 247, 247]);                 // white at 0
  assert.ok(d.rgb(-0.5)[2] > d.rgb(-0.5)[0]);                  // blue below
  assert.ok(d.rgb(0.5)[0] > d.rgb(0.5)[2]);                    // red above
  assert.notDeepEqual(sequentialRgb(0.2), sequentialRgb(0.8));
});
