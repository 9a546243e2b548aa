// The bug hunt's planted mistakes (the engine's replay/bug_hunt.h kBugNames): each bug's program and
// line (bug-programs.json: the lines the page shows, which scripts/make_bug_hunt_cases.py runs in
// PyTorch), its name, what it shows in the numbers (said as a hint after a wrong first try, so never
// naming the line) and the misconception behind it (said with the answer). Every number a sentence
// states is read from the engine's tensors (evidence()); this catalogue holds only words.
import SPEC from './bug-programs.json';
import { t } from '../i18n/index.js';
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
const scaled = (e) => `${e.sameZeros ? t('bugs.sameCellsAreBook') : ''}${e.ratioMin === e.ratioMax ? t('bugs.everyOtherWeightTimes', { p1: e.ratioMin.toFixed(4) }) : t('bugs.otherWeightsAreTimes', { p1: e.ratioMin.toFixed(4), p2: e.ratioMax.toFixed(4) })}`;
const worst = (e) => t('bugs.rowDiffersFromBook', { p1: e.worstRow + 1, p2: f4(e.worstDiff) });

export const BUGS = [
  { key: 'mask_after_softmax', get label() { return t('bugs.maskedAfterSoftmaxWithout'); },
    symptom: (e) => t('bugs.futureButRowWeights', { p1: e.lowRow + 1, p2: f4(e.lowSumBuggy), p3: f4(e.lowSumCorrect) }),
    get misconception() { return t('bugs.maskBelongsInsideNormalisation'); } },
  { key: 'mask_with_zero', get label() { return t('bugs.maskedWithInsteadBefore'); },
    symptom: (e) => t('bugs.tokenGivesFutureTokens', { p1: f4(e.futureRow1) }),
    get misconception() { return t('bugs.scoreNotNoAttention'); } },
  { key: 'divide_by_dk', get label() { return t('bugs.scoresDividedInstead'); },
    symptom: (e) => t('bugs.futureSameCellsAre', { p1: e.peakRow + 1, p2: f4(e.peakBuggy), p3: f4(e.peakCorrect) }),
    get misconception() { return t('bugs.scaleDotProductComponents'); } },
  { key: 'softmax_dim0', get label() { return t('bugs.softmaxOverDimInstead'); },
    symptom: (e) => t('bugs.lastTokenWeightItself', { p1: f4(e.lastBuggy), p2: f4(e.lastCorrect), p3: f4(e.firstBuggy), p4: f4(e.firstCorrect) }),
    get misconception() { return t('bugs.dimNormalisesEachQuery'); } },
  { key: 'inverted_mask', get label() { return t('bugs.maskTrueReadAttend'); },
    symptom: (e) => t('bugs.tokenGivesWeightItself', { p1: f4(e.futureRow1), p2: e.nanRows ? t('bugs.nanRows', { n: e.nanRows }) : '' }),
    get misconception() { return t('bugs.invertedMaskMisconception'); } },
  { key: 'weight_without_T', get label() { return t('bugs.weightWithoutTLabel'); },
    symptom: (e) => (e.raised ? t('bugs.pytorchRefusedRun', { raised: e.raised }) : t('bugs.everyScoreChanged', { p1: worst(e) })),
    get misconception() { return t('bugs.weightWithoutTMisconception'); } },
  { key: 'dropout_inverse_p', get label() { return t('bugs.dropoutSurvivorsScaledInstead'); },
    symptom: (e) => scaled(e),
    get misconception() { return t('bugs.chanceDroppingSurvivorsAre'); } },
  { key: 'dropout_unscaled', get label() { return t('bugs.dropoutWithoutScalingSurvivors'); },
    symptom: (e) => scaled(e),
    get misconception() { return t('bugs.dropoutDividesKeptWeights'); } },
  { key: 'dropout_on_scores', get label() { return t('bugs.dropoutAppliedScoresInstead'); },
    symptom: (e) => `${e.droppedCorrect ? t('bugs.weightsBelowDiagonalThat', { droppedCorrect: e.droppedCorrect, droppedNonzero: e.droppedNonzero }) : t('bugs.noWeightBelowDiagonal')}${e.rowsSumToOne ? t('bugs.everyRowSumsRow', { rows: e.rows, p2: f4(e.lastRowSum) }) : ''}`,
    get misconception() { return t('bugs.dropoutZeroesAttentionWeights'); } },
  { key: 'view_without_transpose', get label() { return t('bugs.headsSplitWithView'); },
    symptom: (e) => (e.firstRowDiff > 0 ? t('bugs.firstTokenOutputDiffers', { p1: f4(e.firstRowDiff) }) : worst(e)),
    get misconception() { return t('bugs.viewOnlyReReads'); } },
  { key: 'scale_by_d_out', get label() { return t('bugs.scoresDividedOutInstead'); },
    symptom: (e) => `${e.firstRowDiff === 0 ? t('bugs.rowFirstTokenWhich') : ''}${worst(e)}`,
    get misconception() { return t('bugs.scoresOverDOutMisconception'); } },
  { key: 'merge_without_transpose', get label() { return t('bugs.headsMergedWithView'); },
    symptom: (e) => (e.firstRowDiff > 0 ? t('bugs.firstTokenOutputDiffers2', { p1: f4(e.firstRowDiff) }) : worst(e)),
    get misconception() { return t('bugs.attnWeightsValuesHeads'); } },
  { key: 'missing_contiguous', get label() { return t('bugs.viewAfterTransposeWithout'); },
    symptom: (e) => t('bugs.pytorchRefusedRun2', { raised: e.raised }),
    get misconception() { return t('bugs.transposeChangesStridesNot'); } },
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
