// The bug hunt's planted mistakes (the engine's replay/bug_hunt.h kBugNames): each bug's program and
// line (bug-programs.json: the lines the page shows, which scripts/make_bug_hunt_cases.py runs in
// PyTorch), its name, what it shows in the numbers (said as a hint after a wrong first try, so never
// naming the line) and the misconception behind it (said with the answer). Every number a sentence
// states is read from the engine's tensors (evidence()); this catalogue holds only words.
import SPEC from './bug-programs.json';
import { fixed4 } from '../dom.js';   // the float's digits, rounded as Python rounds (one home)

export const PROGRAMS = SPEC.programs;

// The program's lines with the learner's seed, d_out and T, and with the bug's line in place (bug
// null: as the book writes it). Returns {lines, wrong (the buggy line's index, or -1), right (the
// index of the line it replaces in the book's program)}.
export function programLines(program, { seed, d_out: dOut, T }, bug = null) {
  const fill = (line) => line.replace('{seed}', String(seed)).replace('{d_out}', String(dOut)).replace('{T}', String(T));
  const lines = PROGRAMS[program].lines.map(fill);
  const b = bug && SPEC.bugs[bug];
  if (!b) return { lines, wrong: -1, right: -1 };
  const out = lines.slice();
  if (b.moveTo !== undefined) { out.splice(b.line, 1); out.splice(b.moveTo, 0, fill(b.text)); }
  else out[b.line] = fill(b.text);
  return { lines: out, wrong: b.moveTo ?? b.line, right: b.line };
}

const f4 = fixed4;
const scaled = (e) => `${e.sameZeros ? 'the same cells are 0 as in the book’s output, but ' : ''}${e.ratioMin === e.ratioMax ? `every other weight is ${e.ratioMin.toFixed(4)} times the book’s` : `the other weights are ${e.ratioMin.toFixed(4)} to ${e.ratioMax.toFixed(4)} times the book’s`}`;
const worst = (e) => `row ${e.worstRow + 1} differs from the book’s output by up to ${f4(e.worstDiff)}`;

export const BUGS = [
  { key: 'mask_after_softmax', label: 'Masked after softmax, without renormalising',
    symptom: (e) => `the future is 0, but row ${e.lowRow + 1}’s weights are each smaller than the book’s: they sum to ${f4(e.lowSumBuggy)} where the book’s sum to ${f4(e.lowSumCorrect)}`,
    misconception: 'The mask belongs inside the normalisation: softmax must see −∞ for the future, or each row’s weights are shares of a total that still counted the future, and zeroing those shares afterwards leaves rows that sum to less than 1.' },
  { key: 'mask_with_zero', label: 'Masked with 0 instead of −∞ before softmax',
    symptom: (e) => `token 1 gives its future tokens a total weight of ${f4(e.futureRow1)}, though it may only see itself`,
    misconception: 'A score of 0 is not “no attention”: softmax turns it into exp(0) = 1 before normalising, a share like any other. Only −∞ becomes a weight of 0.' },
  { key: 'divide_by_dk', label: 'Scores divided by d_k instead of √d_k',
    symptom: (e) => `the future is 0 and the same cells are dropped, but row ${e.peakRow + 1}’s largest weight is ${f4(e.peakBuggy)} instead of the book’s ${f4(e.peakCorrect)}: every row is flatter`,
    misconception: 'The scale is √d_k: a dot product of d_k components of variance 1 has a standard deviation of √d_k, so dividing by √d_k brings the scores back to about 1. Dividing by d_k shrinks them further and flattens softmax.' },
  { key: 'softmax_dim0', label: 'Softmax over dim=0 instead of dim=-1',
    symptom: (e) => `the last token’s weight on itself is ${f4(e.lastBuggy)} (the book’s ${f4(e.lastCorrect)}), and row 1 is ${f4(e.firstBuggy)} where the book’s is ${f4(e.firstCorrect)}: the rows no longer add up as attention weights do`,
    misconception: 'dim=-1 normalises each query’s row over the keys it attends to; dim=0 normalises each key’s column over the queries, so the last column, seen by one query only, gets a weight of 1.' },
  { key: 'inverted_mask', label: 'The mask’s True read as “attend” (F.scaled_dot_product_attention’s convention)',
    symptom: (e) => `token 1 gives weight 0 to itself and ${f4(e.futureRow1)} to the tokens after it${e.nanRows ? `, and ${e.nanRows === 1 ? 'the last row is' : `${e.nanRows} rows are`} nan` : ''}`,
    misconception: 'A boolean mask has two conventions. masked_fill (and nn.MultiheadAttention’s attn_mask) hide where the mask is True; F.scaled_dot_product_attention attends where it is True (rasbt/LLMs-from-scratch #1061). torch.tril(ones) is the “attend” mask of SDPA: given to masked_fill it hides each token and its past, and the last token, left nothing to see, gets softmax of all −∞: nan.' },
  { key: 'weight_without_T', label: 'nn.Linear’s weight used without .T',
    symptom: (e) => (e.raised ? `PyTorch refused to run it: ${e.raised}` : `every score changed: ${worst(e)}`),
    misconception: 'nn.Linear stores its weight as (d_out, d_in), the transpose of the (d_in, d_out) matrix of Listing 3.1: W(x) computes x @ W.weight.T. Without .T the product needs d_in = d_out, and then it multiplies by the wrong matrix.' },
  { key: 'dropout_inverse_p', label: 'Dropout survivors scaled by 1/p instead of 1/(1 − p)',
    symptom: (e) => scaled(e),
    misconception: 'p is the chance of dropping. The survivors are divided by 1 − p, the chance of keeping, so that each weight keeps its expected value. At the book’s p = 0.5 the two are both 2, so only another p shows the mistake.' },
  { key: 'dropout_unscaled', label: 'Dropout without scaling the survivors',
    symptom: (e) => scaled(e),
    misconception: 'Dropout divides the kept weights by 1 − p, so that their expected value is the same in training and in inference (where nothing is dropped). Without it the model trains on weights about 1 − p times too small.' },
  { key: 'dropout_on_scores', label: 'Dropout applied to the scores instead of the weights',
    symptom: (e) => `${e.droppedCorrect ? `of the ${e.droppedCorrect} weights below the diagonal that are 0 in the book’s output, ${e.droppedNonzero} are not 0 here` : 'no weight below the diagonal is 0'}${e.rowsSumToOne ? `, and every row sums to 1 (row ${e.rows}: ${f4(e.lastRowSum)}), as softmax leaves it` : ''}`,
    misconception: 'Dropout zeroes attention weights, after softmax. A score of 0 is not a dropped token: softmax still gives it exp(0)’s share, and the scaled survivors only sharpen the row, which still sums to 1.' },
  { key: 'view_without_transpose', label: 'Heads split with view, without transpose',
    symptom: (e) => (e.firstRowDiff > 0 ? `the first token’s output differs from the book’s by up to ${f4(e.firstRowDiff)}, though the first token sees only itself: other tokens leaked into it` : worst(e)),
    misconception: 'view only re-reads the same memory in a new shape. (b, T, d_out) read as (b, heads, T, head_dim) cuts each head out of several tokens’ rows. Split as (b, T, heads, head_dim), then transpose(1, 2).' },
  { key: 'scale_by_d_out', label: 'Scores divided by √d_out instead of √head_dim',
    symptom: (e) => `${e.firstRowDiff === 0 ? 'row 1 (the first token, which sees only itself) is the book’s, but ' : ''}${worst(e)}`,
    misconception: 'Each head’s scores are dot products of head_dim components, so the scale is √head_dim (keys.shape[-1] after the split), not √d_out: every head’s weights come out flatter.' },
  { key: 'merge_without_transpose', label: 'Heads merged with view, without transposing back',
    symptom: (e) => (e.firstRowDiff > 0 ? `the first token’s output differs from the book’s by up to ${f4(e.firstRowDiff)}, though the first token sees only itself: other tokens leaked into it` : worst(e)),
    misconception: 'attn_weights @ values is (b, heads, T, head_dim). Viewed straight as (b, T, d_out), a token’s row is cut from one head’s rows of several tokens; transpose(1, 2) first puts each token’s heads side by side.' },
  { key: 'missing_contiguous', label: 'view after transpose, without .contiguous()',
    symptom: (e) => `PyTorch refused to run it: ${e.raised}`,
    misconception: 'transpose changes the strides, not the memory. view needs the memory in its order: .contiguous() copies it into that order first (or .reshape does whatever it needs). With head_dim = 1 the view happens to work, which hides the mistake.' },
];
export const bugByKey = new Map(BUGS.map((b) => [b.key, b]));
const PROGRAM_ORDER = Object.keys(SPEC.bugs);
if (PROGRAM_ORDER.join() !== BUGS.map((b) => b.key).join()) throw new Error('bugs.js and bug-programs.json list different bugs');
export const programOf = (key) => SPEC.bugs[key].program;

// The bugs that show on these sizes: the heads split d_out in two; √1 = 1 (d_k); with head_dim 1
// view needs no contiguous memory.
export const applicable = (dOut) => BUGS.filter((b) => {
  if (programOf(b.key) === 'heads' && dOut % 2) return false;
  if (b.key === 'missing_contiguous' && dOut === 2) return false;
  return !(b.key === 'divide_by_dk' && dOut === 1);
});

// The numbers the sentences quote, from the engine's correct and buggy tensors (2-D; buggy null when
// PyTorch raised) and the causal program's keep mask.
export function evidence(correct, buggy, { keep = null, raised = null } = {}) {
  const e = { raised, worstRow: 0, worstDiff: 0, lowRow: 0, lowSumBuggy: 0, lowSumCorrect: 0, futureRow1: 0, peakRow: 0, peakBuggy: 0, peakCorrect: 0,
    lastBuggy: 0, lastCorrect: 0, firstBuggy: 0, firstCorrect: 0, nanRows: 0, droppedCorrect: 0, rows: 0, lastRowSum: 0, firstRowDiff: 0,
    droppedNonzero: 0, rowsSumToOne: true, sameZeros: true, ratioMin: Infinity, ratioMax: -Infinity };
  if (!buggy) return e;
  const [rows, cols] = buggy.shape;
  e.rows = rows;
  const at = (t, i, j) => t.values[i * cols + j];
  const rowOf = (t, i) => t.values.slice(i * cols, (i + 1) * cols);
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  let gap = -1, peakGap = -1;
  for (let i = 0; i < rows; i++) {
    const b = rowOf(buggy, i), c = rowOf(correct, i);
    if (b.some(Number.isNaN)) { e.nanRows++; continue; }
    if (Math.abs(sum(b) - 1) > 1e-5) e.rowsSumToOne = false;
    const d = Math.abs(sum(b) - sum(c));
    if (i > 0 && d > gap) { gap = d; e.lowRow = i; e.lowSumBuggy = sum(b); e.lowSumCorrect = sum(c); }
    const pb = Math.max(...b), pc = Math.max(...c);
    if (Math.abs(pb - pc) > peakGap) { peakGap = Math.abs(pb - pc); e.peakRow = i; e.peakBuggy = pb; e.peakCorrect = pc; }
    for (let j = 0; j < cols; j++) {
      const diff = Math.abs(at(buggy, i, j) - at(correct, i, j));
      if (diff > e.worstDiff) { e.worstDiff = diff; e.worstRow = i; }
      if (i === 0) e.firstRowDiff = Math.max(e.firstRowDiff, diff);
      if (at(correct, i, j) !== 0 && at(buggy, i, j) !== 0) {
        const r = Math.round(at(buggy, i, j) / at(correct, i, j) * 1e4) / 1e4;   // the ratio as the sentence writes it
        e.ratioMin = Math.min(e.ratioMin, r); e.ratioMax = Math.max(e.ratioMax, r);
      }
      if ((at(correct, i, j) === 0) !== (at(buggy, i, j) === 0)) e.sameZeros = false;
      if (keep && j <= i && keep.values[i * cols + j] === 0) { e.droppedCorrect++; if (at(buggy, i, j) !== 0) e.droppedNonzero++; }
    }
  }
  for (let j = 1; j < cols; j++) e.futureRow1 += at(buggy, 0, j);
  e.lastBuggy = at(buggy, rows - 1, cols - 1); e.lastCorrect = at(correct, rows - 1, cols - 1);
  e.firstBuggy = at(buggy, 0, 0); e.firstCorrect = at(correct, 0, 0);
  e.lastRowSum = sum(rowOf(buggy, rows - 1));
  return e;
}
