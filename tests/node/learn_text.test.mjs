// Issue 42: the page's sentences about numbers say what the numbers show. Without a browser: the
// typed-answer parser (thousands separators), exercise 3.1's PyTorch error, exercise 3.3's timing
// sentence against its own table, the toy's per-option shape feedback, and "Train it"'s verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAnswerNumber } from '../../web/src/learn/number.js';

const parseAnswer = (text) => parseAnswerNumber(text).value ?? NaN;   // the number read, NaN when refused
import { scalingText, mhaWork } from '../../web/src/learn/scaling.js';
import { pytorchError } from '../../web/src/learn/exercises.js';
import { toyShapeWhy } from '../../web/src/learn/prompts.js';
import { previousTokenVerdict, verdictText } from '../../web/src/sections/train-verdict.js';

test('a typed answer: the page’s own 2,360,064 is a number; a comma is only a thousands separator', () => {
  for (const [text, value] of [['2,360,064', 2360064], ['2360064', 2360064], ['2 360 064', 2360064], ['+1.8524', 1.8524], ['-1,000.5', -1000.5], ['1,234', 1234], ['0.5', 0.5]]) {
    assert.equal(parseAnswer(text), value, text);
  }
  for (const text of ['1,5', '2,36,0064', ',123', '1,2345', '', 'one', '12,']) assert.ok(Number.isNaN(parseAnswer(text)), text);
});

test('exercise 3.1: PyTorch 1.13’s own error for the learner’s shapes, at the first product forward() runs', () => {
  const all = (c) => ({ W_query: `W_query.${c}`, W_key: `W_key.${c}`, W_value: `W_value.${c}` });
  // PyTorch 1.13 printed these (book inputs 6 × 3, d_out 2; 16 × 4 with d_out 3), for x @ W with W (d_out, d_in)
  assert.equal(pytorchError([6, 3], { ...all('weight.T'), W_query: 'W_query.weight' }, 2).text, 'RuntimeError: mat1 and mat2 shapes cannot be multiplied (6x3 and 2x3)');
  assert.equal(pytorchError([16, 4], all('weight'), 3).text, 'RuntimeError: mat1 and mat2 shapes cannot be multiplied (16x4 and 3x4)');
  // forward() computes keys first: that is where PyTorch stops
  assert.equal(pytorchError([6, 3], all('weight'), 2).slot, 'W_key');
  assert.equal(pytorchError([6, 3], all('weight.T'), 2), null);
  // d_in = d_out: every product fits, no error (the numbers differ instead)
  assert.equal(pytorchError([6, 3], all('weight'), 3), null);
});

test('exercise 3.3: the sentence gives the table’s own ratios, and the work’s, never "quadruples"', () => {
  const times = new Map([[128, 10.0], [256, 21.0], [512, 67.2], [1024, 127.7]]);
  const text = scalingText(times);
  // the table's column "vs T/2" writes (ms / half).toFixed(1)
  for (const t of [256, 512, 1024]) assert.ok(text.includes(`×${(times.get(t) / times.get(t / 2)).toFixed(1)} (T = ${t / 2} → ${t})`), text);
  assert.match(text, /×2\.1 \(T = 128 → 256\), ×3\.2 \(T = 256 → 512\) and ×1\.9 \(T = 512 → 1024\)/);
  for (const t of [256, 512, 1024]) assert.ok(text.includes(`×${(mhaWork(t, 768) / mhaWork(t / 2, 768)).toFixed(2)}`), text);
  assert.match(text, /grows ×2\.15, ×2\.29 and ×2\.50, not ×4/);
  assert.match(text, /until T = 1536/);
  assert.match(text, /most at T = 256 → 512: ×3\.2 against ×2\.29/);
  assert.doesNotMatch(text, /quadruple/);
  assert.match(scalingText(new Map([[256, 20]])), /^Run two sizes/);
  // the work: 4·T·d² for the projections, 2·T²·d for the scores and the weighted sum
  assert.equal(mhaWork(1024, 768), 4 * 1024 * 768 * 768 + 2 * 1024 * 1024 * 768);
});

test('the toy’s shape question: each wrong option is told its own confusion, from the shapes', () => {
  const w = [3, 3], x = [3, 2];
  assert.match(toyShapeWhy('3×3', w, x), /^3 × 3 is attn_weights’ own shape/);
  assert.match(toyShapeWhy('2×3', w, x), /^2 × 3 is the transpose/);
  assert.match(toyShapeWhy('2×2', w, x), /^2 × 2 is the shape of inputs\.T @ inputs/);
  const texts = ['3×3', '2×3', '2×2'].map((k) => toyShapeWhy(k, w, x));
  assert.equal(new Set(texts).size, 3, 'three options, three different sentences');
  for (const t of texts) assert.match(t, /\(3 × 3\) @ \(3 × 2\) consumes the shared 3/);
});

// weights: orders × T × T; row t of an order puts `share` on t − 1 and the rest on t (itself)
function weightsWith(T, orders, failing) {
  const w = [];
  for (let o = 0; o < orders; o++) for (let t = 0; t < T; t++) {
    const row = Array(T).fill(0);
    if (t === 0) row[0] = 1;
    else if (failing.some((f) => f.o === o && f.t === t)) { row[t - 1] = 0.3; row[t] = 0.7; } else { row[t - 1] = 0.9; row[t] = 0.1; }
    w.push(...row);
  }
  return w;
}
const WORDS = ['Your', 'journey', 'starts', 'with', 'one', 'step'];

test('"Train it": the verdict’s counts add up, split into the map and the other orders, and say why a fallen loss is not learning', () => {
  const failing = [{ o: 0, t: 2 }, { o: 0, t: 4 }, { o: 1, t: 1 }, { o: 2, t: 3 }, { o: 3, t: 5 }];
  const v = previousTokenVerdict(weightsWith(6, 4, failing), 6, 4);
  assert.equal(v.failing.length, 5);
  const text = verdictText(v, WORDS, { first: 0.9, now: 0.05 });
  assert.match(text, /^Not learned: 5 of the 20 queries from token 2 on put 0\.5 or less of their weight on the token before them: 2 of the 5 in the map \(rows 3 “starts” \(0\.3000 on “journey”, most on “starts”\) and 5 “one” \(0\.3000 on “with”, most on “one”\)\) and 3 of the 15 in the other three orders\./);
  // the parts add up to the whole, as the sentence says
  const [, all, total, inMap, perOrder, rest, others] = text.match(/^Not learned: (\d+) of the (\d+) .*?: (\d+) of the (\d+) in the map.* and (\d+) of the (\d+) in the other three orders\./);
  assert.equal(Number(inMap) + Number(rest), Number(all));
  assert.equal(Number(perOrder) + Number(others), Number(total));
  assert.match(text, /The loss fell from 0\.9000 to 0\.0500 all the same: it measures how close each output is to the previous token’s vector/);
  // no loss said when it did not fall, or before training
  assert.doesNotMatch(verdictText(v, WORDS, { first: 0.9, now: 1.2 }), /loss/);
  assert.doesNotMatch(verdictText(v, WORDS), /loss/);
  // none in the map
  const elsewhere = verdictText(previousTokenVerdict(weightsWith(6, 4, [{ o: 1, t: 1 }]), 6, 4), WORDS);
  assert.match(elsewhere, /: none of the 5 in the map and 1 of the 15 in the other three orders\.$/);
  assert.equal(verdictText(previousTokenVerdict(weightsWith(6, 4, []), 6, 4), WORDS),
    'Learned: in all four orders, every query from token 2 on puts more than 0.5 of its weight on the token before it (20 of 20).');
});
