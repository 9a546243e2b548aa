// The bug hunt's planted mistakes (the engine's replay/bug_hunt.h kBugNames): what each option says,
// the wrong line beside the right one, and what it does to the numbers. Every sentence that states a
// number reads it from the engine's answer (evidence()); the catalogue itself holds only words and code.
import { fixed4 } from '../dom.js';   // the float's digits, rounded as Python rounds (one home)

export const BUGS = [
  { key: 'mask_after_softmax', label: 'Masked after softmax, without renormalising',
    wrong: 'attn_weights = torch.softmax(attn_scores / d_k**0.5, dim=-1) * torch.tril(torch.ones(T, T))',
    right: 'attn_weights = torch.softmax(attn_scores.masked_fill(mask.bool(), -torch.inf) / d_k**0.5, dim=-1)',
    signature: 'the future zeroed but rows that sum to less than 1',
    symptom: (e) => `row ${e.lowRow + 1} of the result sums to ${fixed4(e.lowSum)}, not 1, while the future is zeroed` },
  { key: 'mask_with_zero', label: 'Masked with 0 instead of −∞ before softmax',
    wrong: 'masked = attn_scores.masked_fill(mask.bool(), 0)',
    right: 'masked = attn_scores.masked_fill(mask.bool(), -torch.inf)',
    signature: 'weight on future tokens, above the diagonal',
    symptom: (e) => `token 1 gives its future tokens a total weight of ${fixed4(e.futureRow1)}, though it may only see itself` },
  { key: 'divide_by_dk', label: 'Scores divided by d_k instead of √d_k',
    wrong: 'attn_weights = torch.softmax(masked / d_k, dim=-1)',
    right: 'attn_weights = torch.softmax(masked / d_k**0.5, dim=-1)',
    signature: 'rows that still sum to 1 with the future zeroed, only flatter than they should be',
    symptom: (e) => `every row still sums to 1, but row ${e.peakRow + 1}’s largest weight is ${fixed4(e.peakBuggy)} instead of ${fixed4(e.peakCorrect)}: flatter` },
  { key: 'softmax_dim0', label: 'Softmax over dim=0 instead of dim=-1',
    wrong: 'attn_weights = torch.softmax(masked / d_k**0.5, dim=0)',
    right: 'attn_weights = torch.softmax(masked / d_k**0.5, dim=-1)',
    signature: 'columns that sum to 1 instead of rows',
    symptom: (e) => `column 1 sums to ${fixed4(e.col1Sum)} while row 1 sums to ${fixed4(e.row1Sum)}: the columns were normalised` },
  { key: 'dropout_inverse_p', label: 'Dropout survivors scaled by 1/p instead of 1/(1 − p)',
    wrong: 'dropped = attn_weights * keep / p            # keep = bernoulli(1 - p)',
    right: 'dropped = attn_weights * keep / (1 - p)',
    signature: 'the same dropped cells, with the survivors far too large',
    symptom: (e) => `the same ${e.dropped} cells are dropped, but each survivor is ${e.ratio.toFixed(2)} times the right one` },
  { key: 'view_without_transpose', label: 'Heads split with view, without transpose',
    wrong: 'keys = keys.view(b, num_heads, num_tokens, head_dim)',
    right: 'keys = keys.view(b, num_tokens, num_heads, head_dim).transpose(1, 2)',
    signature: 'context vectors out of MultiHeadAttention that mix tokens and heads',
    symptom: (e) => `the output is MultiHeadAttention’s context vectors, and row ${e.worstRow + 1} is off by up to ${fixed4(e.worstDiff)}` },
];
export const bugByKey = new Map(BUGS.map((b) => [b.key, b]));

// The numbers the sentences quote, from the engine's correct and buggy tensors (2-D).
export function evidence(correct, buggy) {
  const [rows, cols] = buggy.shape;
  const at = (t, i, j) => t.values[i * cols + j];
  const rowSum = (t, i) => t.values.slice(i * cols, (i + 1) * cols).reduce((a, b) => a + b, 0);
  const e = { lowRow: 0, lowSum: Infinity, futureRow1: 0, peakRow: 0, peakBuggy: 0, peakCorrect: 0, col1Sum: 0, row1Sum: rowSum(buggy, 0),
    dropped: 0, ratio: 0, worstRow: 0, worstDiff: 0 };
  let peakGap = -1;
  for (let i = 0; i < rows; i++) {
    const s = rowSum(buggy, i);
    if (s < e.lowSum) { e.lowSum = s; e.lowRow = i; }
    const pb = Math.max(...buggy.values.slice(i * cols, (i + 1) * cols)), pc = Math.max(...correct.values.slice(i * cols, (i + 1) * cols));
    if (Math.abs(pb - pc) > peakGap) { peakGap = Math.abs(pb - pc); e.peakRow = i; e.peakBuggy = pb; e.peakCorrect = pc; }
    e.col1Sum += at(buggy, i, 0);
    for (let j = 0; j < cols; j++) {
      const d = Math.abs(at(buggy, i, j) - at(correct, i, j));
      if (d > e.worstDiff) { e.worstDiff = d; e.worstRow = i; }
      if (at(buggy, i, j) === 0 && j <= i) e.dropped++;
      if (at(correct, i, j) !== 0 && at(buggy, i, j) !== 0 && !e.ratio) e.ratio = at(buggy, i, j) / at(correct, i, j);
    }
  }
  for (let j = 1; j < cols; j++) e.futureRow1 += at(buggy, 0, j);
  return e;
}
