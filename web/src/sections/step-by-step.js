// Section "step-by-step" (§3.4.1, the first source document): scaled dot-product attention built up by a
// stepper for token 2, then for every token. x, W_query, W_key, W_value (at 1 decimal, as the book's
// figure), the queries, keys and values, the scores, row 2's way through softmax, the weights, z(2)'s
// running sums and the context vectors are drawn as matrix views, each filled in by the step that
// computes it. Every number is the engine's; the views are built once and updated in place, so focus
// and the step survive an edit.
import { h, para, codeCell, fixed4, place } from '../dom.js';
import { tex } from '../math.js';
import { BOOK_D_OUT, seedFor } from '../inputs.js';
import { frame, scrollIntoViewSettled } from '../scheduler.js';
import { sectionFrame, inputsPython, show } from './common.js';
import { placeNote } from './order.js';
import { matrixView, stepper, stepFocus, fixed } from '../views/index.js';
import { stepByStepPrompts } from '../learn/prompts.js';
import { hasWeights, plainParameters } from './weights-code.js';
import { qkPlane } from '../views/qk-plane.js';
import { t } from '../i18n/index.js';
import { t as tr } from '../i18n/index.js';

export default {
  id: 'step-by-step',
  get title() { return t('stepByStep.title'); },
  rung: { get name() { return t('stepByStep.rung.name'); }, get note() { return t('stepByStep.rung.note'); }, current: true },
  build,
};

const SUB = '₀₁₂₃₄₅₆₇₈₉', SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const sub = (n) => String(n).replace(/\d/g, (d) => SUB[d]);
const sup = (n) => String(n).replace(/\d/g, (d) => SUP[d]);
const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]);
const colOf = (t, j) => Array.from({ length: t.shape[0] }, (_, i) => t.values[i * t.shape[1] + j]);
const transpose = (t) => range(t.shape[1]).flatMap((j) => colOf(t, j));
const f4 = (v) => fixed(v, 4);   // 4 decimals with a true minus sign
const vec = (vals) => `[${vals.map(f4).join(', ')}]`;
// A factor in a written product: a negative one in parentheses, "0.5500·(−0.2000)", never "+ -0.2".
const factor = (v) => (v < 0 ? `(${f4(v)})` : f4(v));
const texFactor = (v) => (v < 0 ? `(${fixed4(v)})` : fixed4(v));
// A long sum as lines of KaTeX's aligned environment, two terms a line, so that it fits a phone:
// "&= t1 + t2 \\ &\quad + t3 + t4 …" in TeX (the caller writes what comes before and after).
const sumLines = (terms) => terms.map((t, j) => (j % 2 ? ` + ${t}` : `${j ? ' \\\\ &\\quad + ' : '&= '}${t}`)).join('');
const range = (n) => Array.from({ length: n }, (_, i) => i);
const dims = (n, stem) => range(n).map((j) => `${stem}${j + 1}`);
const entries = (n) => tr('stepByStep.entries', { n });
// A view's data from an engine result: its values, their shortest texts and PyTorch's print.
const drawn = (r, rowLabels, colLabels) => ({ values: r.values, texts: r.values.map(String), shape: r.shape, print: r.line ?? r.print, rowLabels, colLabels });
// One tensor of a step's compact drawing (views/step-focus.js); a big one is drawn as its name and shape.
const FOCUS_MAX_CELLS = 48;
const part = (role, label, values, shape, extra = {}) => ({ role, label, values, shape, texts: values.map(String), ...extra, compact: values.length > FOCUS_MAX_CELLS });

// The ids of the steps that show a question's answer (a 'stepgate' listener holds the stepper before
// each until its question is answered: views/stepper.js): ω₂₂, row 2's weights α₂, z⁽²⁾'s first term.
export const OMEGA22_STEP = 'omega-22';
export const ALPHA2_STEP = 'alpha-2';
export const Z2_STEP = 'z2-sum';

// The steps of §3.4.1 for token 2, then the same for every token (§3.4.2's matrix form), each caption
// written from the engine's numbers at 4 decimals. A sum whose operands are rounded is written with
// ≈: the engine's result, not the sum of the rounded terms. Each step says what it computes
// (reveals: drawn empty until then), what it outlines, and draws its operands and result (focus).
//   R: the engine's tensors; partial: z⁽²⁾'s running sums, row j = α₂₁v⁽¹⁾ + … + α₂ⱼ₊₁v⁽ʲ⁺¹⁾ (engine)
export function projectionSteps(R, words, partial) {
  const n = R.inputs.shape[0], dIn = R.inputs.shape[1], dOut = R.queries.shape[1];
  const x2 = rowOf(R.inputs, 1), q2 = rowOf(R.queries, 1), s2 = rowOf(R.attn_scores, 1);
  const scaled2 = R.scaled_scores_2.values, exps2 = R.exps_2.values, sum2 = R.exps_2_sum.values[0];
  const a2 = rowOf(R.attn_weights, 1), z2 = rowOf(R.context_vec, 1);
  const all = range(n), dotText = (a, b) => a.map((v, i) => `${factor(v)}·${factor(b[i])}`).join(' + ');
  const sqrtText = f4(Math.sqrt(dOut));
  const x2Part = part('operand', `x⁽²⁾ “${words[1]}”`, x2, [1, dIn]);
  const steps = [];
  for (let j = 0; j < dOut; j++) {
    steps.push({ caption: tr('stepByStep.column', { p1: sub(j + 1), p2: words[1], p3: j + 1, p4: dotText(x2, colOf(R.W_query, j)), p5: f4(q2[j]) }),
      highlights: { x: { rows: [1] }, Wq: { cols: [j] }, q: { cells: [[1, j]] } },
      reveals: { q: { cells: [[1, j]] } },
      focus: () => stepFocus([x2Part, '·', part('operand', tr('stepByStep.wqColumn', { j: j + 1 }), colOf(R.W_query, j), [dIn, 1]), '=', part('result', `q⁽²⁾${sub(j + 1)}`, [q2[j]], [1, 1])]) });
  }
  for (const [key, W, name, letter] of [['k', R.W_key, 'keys', 'k'], ['v', R.W_value, 'values', 'v']]) {
    const t = R[name], Wkey = key === 'k' ? 'Wk' : 'Wv', Wname = key === 'k' ? 'W_k' : 'W_v';
    steps.push({ caption: tr('stepByStep.sameWayEveryToken', { name, Wname, n, letter, p5: vec(rowOf(t, 1)) }),
      highlights: { x: { rows: all }, [Wkey]: { rows: range(W.shape[0]) }, [key]: { rows: all } },
      reveals: { [key]: { rows: all } },
      focus: () => stepFocus([part('operand', 'x', R.inputs.values, R.inputs.shape), '·', part('operand', Wname, W.values, W.shape), '=', part('result', name, t.values, t.shape)]) });
  }
  for (let j = 0; j < n; j++) {
    steps.push({ id: j === 1 ? OMEGA22_STEP : undefined,
      caption: `ω₂${sub(j + 1)} = q⁽²⁾ · k⁽${sup(j + 1)}⁾ = ${dotText(q2, rowOf(R.keys, j))} ≈ ${f4(s2[j])}`,
      highlights: { q: { rows: [1] }, k: { rows: [j] }, scores: { cells: [[1, j]] } },
      reveals: { scores: { cells: [[1, j]] } },
      focus: () => stepFocus([part('operand', 'q⁽²⁾', q2, [1, dOut]), '·', part('operand', `k⁽${sup(j + 1)}⁾ᵀ`, rowOf(R.keys, j), [dOut, 1]), '=', part('result', `ω₂${sub(j + 1)}`, [s2[j]], [1, 1])]) });
  }
  steps.push({ caption: tr('stepByStep.divideRow', { dOut, sqrtText, p3: vec(scaled2) }),
    highlights: { scores: { rows: [1] }, scaled: { rows: [0] } },
    reveals: { scaled: { rows: [0] } },
    focus: () => stepFocus([part('operand', 'ω₂', s2, [1, n]), `÷ ${sqrtText} =`, part('result', 'ω₂ / √d_k', scaled2, [1, n])]) });
  steps.push({ caption: tr('stepByStep.softmaxFirstEachExp', { p1: vec(exps2) }),
    highlights: { scaled: { rows: [0] }, exps: { rows: [0] } },
    reveals: { exps: { rows: [0] } },
    focus: () => stepFocus([part('operand', 'ω₂ / √d_k', scaled2, [1, n]), 'exp →', part('result', 'exp(ω₂ / √d_k)', exps2, [1, n])]) });
  steps.push({ caption: tr('stepByStep.theirSum', { p1: exps2.map(f4).join(' + '), p2: f4(sum2) }),
    highlights: { exps: { rows: [0] }, sum: { cells: [[0, 0]] } },
    reveals: { sum: { cells: [[0, 0]] } },
    focus: () => stepFocus([part('operand', 'exp(ω₂ / √d_k)', exps2, [1, n]), 'Σ =', part('result', tr('stepByStep.theirSum2'), [sum2], [1, 1])]) });
  steps.push({ id: ALPHA2_STEP, caption: tr('stepByStep.eachExpDividedSum', { p1: vec(a2), p2: a2.map(f4).join(' + ') }),
    highlights: { exps: { rows: [0] }, sum: { cells: [[0, 0]] }, weights: { rows: [1] } },
    reveals: { weights: { rows: [1] } },
    focus: () => stepFocus([part('operand', 'exp(ω₂ / √d_k)', exps2, [1, n]), '÷', part('operand', tr('stepByStep.sum'), [sum2], [1, 1]), '=', part('result', 'α₂', a2, [1, n])]) });
  for (let j = 0; j < n; j++) {
    const vj = rowOf(R.values, j), last = j === n - 1;
    const soFar = partial.values.slice(j * dOut, (j + 1) * dOut), before = j ? partial.values.slice((j - 1) * dOut, j * dOut) : null;
    steps.push({ id: j === 0 ? Z2_STEP : undefined, caption: `z⁽²⁾ ${j ? '+' : ''}= α₂${sub(j + 1)} · v⁽${sup(j + 1)}⁾ = ${f4(a2[j])} · ${vec(vj)}${last ? ` → z⁽²⁾ = ${vec(z2)}` : tr('stepByStep.soFar', { p1: vec(soFar) })}`,
      highlights: { weights: { cells: [[1, j]] }, v: { rows: [j] }, partial: { rows: [j] }, z: last ? { rows: [1] } : null },
      reveals: { partial: { rows: [j] }, ...(last ? { z: { rows: [1] } } : {}) },
      focus: () => stepFocus([part('operand', `α₂${sub(j + 1)}`, [a2[j]], [1, 1]), '·', part('operand', `v⁽${sup(j + 1)}⁾`, vj, [1, dOut]),
        ...(before ? ['+', part('operand', tr('stepByStep.afterTerms', { n: j }), before, [1, dOut])] : []),
        '=', part('result', last ? 'z⁽²⁾' : tr('stepByStep.afterTerms', { n: j + 1 }), soFar, [1, dOut])]) });
  }
  // every token at once: the matrix form, softmax(QKᵀ / √d_k) · V
  steps.push({ caption: tr('stepByStep.everyTokenQuerySame', { n, dOut }),
    highlights: { x: { rows: all }, Wq: { rows: range(dIn) }, q: { rows: all } },
    reveals: { q: { rows: all } },
    focus: () => stepFocus([part('operand', 'x', R.inputs.values, R.inputs.shape), '·', part('operand', 'W_q', R.W_query.values, R.W_query.shape), '=', part('result', 'Q', R.queries.values, R.queries.shape)]) });
  steps.push({ caption: tr('stepByStep.everyQueryAgainstEvery', { n, n2: n, n3: n, p4: dOut + 3, p5: dOut + 2 + n }),
    highlights: { q: { rows: all }, k: { rows: all }, scores: { rows: all } },
    reveals: { scores: { rows: all } },
    focus: () => stepFocus([part('operand', 'Q', R.queries.values, R.queries.shape), '·', part('operand', 'Kᵀ', transpose(R.keys), [dOut, n]), '=', part('result', 'ω', R.attn_scores.values, R.attn_scores.shape)]) });
  steps.push({ caption: tr('stepByStep.everyRowScaledPut', { sqrtText }),
    highlights: { scores: { rows: all }, weights: { rows: all } },
    reveals: { weights: { rows: all } },
    focus: () => stepFocus([part('operand', 'ω', R.attn_scores.values, R.attn_scores.shape), `softmax(· ÷ ${sqrtText}) →`, part('result', 'α', R.attn_weights.values, R.attn_weights.shape)]) });
  steps.push({ caption: tr('stepByStep.everyContextVectorOnce', { n, dOut, p3: vec(z2) }),
    highlights: { weights: { rows: all }, v: { rows: all }, z: { rows: all } },
    reveals: { z: { rows: all } },
    focus: () => stepFocus([part('operand', 'α', R.attn_weights.values, R.attn_weights.shape), '·', part('operand', 'V', R.values.values, R.values.shape), '=', part('result', 'Z', R.context_vec.values, R.context_vec.shape)]) });
  return steps;
}

// z⁽²⁾'s running sums, computed by the engine: row j = α₂[:j+1] · values[:j+1], as one product of the
// lower-triangular matrix of α₂'s prefixes with the values (the zeros add nothing).
function partialSums(engine, a2, values) {
  const n = a2.length;
  const a = range(n).map((j) => a2.map((w, i) => (i <= j ? w : 0)));
  const b = range(n).map((j) => rowOf(values, j));
  const answer = JSON.parse(engine.evalRequest(JSON.stringify({ op: 'matmul', a, b })));
  const number = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : Number(v));
  return { shape: answer.shape, values: answer.values.map(number) };
}

function build(ctx) {
  const { el, body } = sectionFrame('step-by-step', t('stepByStep.title'));
  const view = (name, title, options = {}) => matrixView(null, { name, title, rowName: t('word.token'), colName: t('word.dimension'), ...options });
  const views = {
    x: view('inputs', tr('stepByStep.xInputs')),
    Wq: view('W_query', 'W_q', { decimals: 1, rowName: t('word.input'), colName: t('word.output') }),
    Wk: view('W_key', 'W_k', { decimals: 1, rowName: t('word.input'), colName: t('word.output') }),
    Wv: view('W_value', 'W_v', { decimals: 1, rowName: t('word.input'), colName: t('word.output') }),
    q: view('queries', tr('stepByStep.queriesTitle')),
    k: view('keys', tr('stepByStep.keysTitle')),
    v: view('values', tr('stepByStep.valuesTitle')),
    scores: view('attn_scores', 'ω = Q Kᵀ', { rowName: t('word.query'), colName: t('word.key') }),
    scaled: view('scaled_scores_2', 'ω₂ / √d_k', { rowName: t('word.query'), colName: t('word.key') }),
    exps: view('exps_2', 'exp(ω₂ / √d_k)', { rowName: t('word.query'), colName: t('word.key'), legend: false }),
    sum: view('exps_2_sum', tr('stepByStep.theirSum3'), { rowName: tr('stepByStep.sum'), colName: tr('stepByStep.of'), legend: false }),
    weights: view('attn_weights', 'α = softmax(ω / √d_k)', { testid: 'weights-heatmap', rowName: t('word.query'), colName: t('word.key'), scale: 'rows' }),
    partial: view('z2_partial_sums', tr('stepByStep.summedUpToken'), { rowName: tr('stepByStep.summedUp'), colName: t('word.dimension') }),
    z: view('context_vec', 'Z = α V', { rowName: t('word.token'), colName: t('word.dimension') }),
  };
  const ask = stepByStepPrompts(ctx);   // predict, then reveal: ω₂₂, the top weight of row 2, where z⁽²⁾ lands
  const plane = qkPlane();   // q(2) and the keys in the plane, beside the scores
  const walk = stepper({ steps: [{ caption: '' }], views, label: tr('stepByStep.stepThroughToken'), testid: 'projection-stepper' });
  // Predict, then see: the stepper holds before a step that shows a question's answer until the
  // question is answered (right, or twice) or skipped.
  // [step id, its question, why it waits], in the steps' order
  const held = [
    [OMEGA22_STEP, ask.omega22, tr('stepByStep.nextStepComputesType')],
    [ALPHA2_STEP, ask.topWeight, tr('stepByStep.nextStepShowsRow')],
    [Z2_STEP, ask.z2Lands, tr('stepByStep.nextStepsBuildSay')],
  ];
  walk.el.addEventListener('stepgate', (e) => {
    const upTo = held.findIndex(([id]) => id === e.detail.id);
    if (upTo < 0) return;
    // the first question not yet answered up to this step (a later one is not on screen before it)
    const waiting = held.slice(0, upTo + 1).find(([, prompt]) => !prompt.revealed());
    if (!waiting) return;
    e.preventDefault();
    waiting[1].hold(waiting[2]);
  });
  walk.stage.append(
    h('div', { class: 'stage-row' }, views.x.el, views.Wq.el, views.Wk.el, views.Wv.el),
    h('div', { class: 'stage-row' }, views.q.el, views.k.el, views.v.el),
    h('div', { class: 'stage-row' }, views.scores.el, h('div', { class: 'stage-stack' }, views.scaled.el, views.exps.el, views.sum.el)),
    h('div', { class: 'stage-row' }, views.weights.el, views.partial.el, views.z.el));

  // After a step the learner took (not after an edit): the step's own drawing (in the sticky head)
  // wholly on screen, and the step's result in the stage below brought into sight under it. On a phone
  // only the bar sticks (views.css: the head's box gives way, display: contents): the caption and the
  // drawing are brought just under the bar instead, and the stage is left where it is.
  const showResult = () => frame(() => {
    const head = walk.el.querySelector('.stepper-head');
    if (getComputedStyle(head).display === 'contents') {
      const bar = walk.el.querySelector('.stepper-bar').getBoundingClientRect();
      const top = walk.el.querySelector('[data-testid=step-caption]').getBoundingClientRect().top;
      const focusEl = walk.el.querySelector('[data-testid=step-focus]');
      const bottom = (focusEl.hidden ? walk.el.querySelector('[data-testid=step-caption]') : focusEl).getBoundingClientRect().bottom;
      const under = bar.height + 8;   // where the caption goes: under the bar, once the bar sticks to the top
      if (top < bar.bottom + 4 || bottom > innerHeight) {
        // the caption under the bar; when caption and drawing are taller than that room, the drawing's result
        const result = focusEl.querySelector('[data-step-role=result]');
        const fits = bottom - top <= innerHeight - under - 8;
        scrollBy(0, fits || !result ? top - under : result.getBoundingClientRect().top - under);
      }
      return;
    }
    let box = head.getBoundingClientRect();
    if (box.bottom > innerHeight || box.top < 0) { scrollBy(0, box.bottom > innerHeight ? box.bottom - innerHeight + 8 : box.top - 8); box = head.getBoundingClientRect(); }
    const marked = walk.stage.querySelectorAll('td[data-hl]');
    const target = marked[marked.length - 1];
    if (!target) return;
    const r = target.getBoundingClientRect(), view = target.closest('.mv').getBoundingClientRect();
    // the whole view with its title when it fits under the head, else the cell; only while the head
    // stays in sight (it sticks to the top of the screen within the stepper)
    const anchor = view.height + 12 <= innerHeight - box.bottom ? view : r;
    if (r.top < box.bottom || r.bottom > innerHeight) {
      const by = anchor.top - box.bottom - 12, room = walk.el.getBoundingClientRect().bottom - by - box.height;
      if (room > 0) scrollBy(0, by);
    }
  });
  walk.el.addEventListener('click', (e) => { if (e.target.closest('.stepper-btn')) showResult(); });
  walk.el.addEventListener('keydown', (e) => { if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key) && e.defaultPrevented && !e.target.closest('.mv')) showResult(); });

  // Linked highlighting: a score or weight (i, j) comes from q(i) and k(j), and weighs v(j) in z(i).
  // Drawn as linked (dashed, blue), unlike the step's own outlines.
  const link = (e) => {
    const { row, col } = e.detail, linked = { linked: true };
    views.q.highlight({ rows: [row] }, linked); views.k.highlight({ rows: [col] }, linked); views.v.highlight({ rows: [col] }, linked);
    views.z.highlight({ rows: [row] }, linked);
    (e.currentTarget === views.scores.el ? views.weights : views.scores).highlight({ cells: [[row, col]] }, linked);
  };
  for (const v of [views.scores, views.weights]) {
    v.el.addEventListener('cellhover', link);
    v.el.addEventListener('cellfocus', link);
    v.el.addEventListener('cellleave', () => walk.refresh());
  }
  // The pipeline's stages link to their drawings (a fragment link cannot reach into a shadow root).
  el.addEventListener('click', (e) => {
    const link = e.target.closest('a[data-drawing]');
    if (!link) return;
    e.preventDefault();
    const target = views[link.dataset.drawing];
    scrollIntoViewSettled(target.el, 'center');
    target.focusCell(0, 0);
  });

  let updates = 0;   // how many updates have asked for the drawings (drawViews)
  // Every drawing of the section, from the engine's answer R.
  function drawViews(R, words) {
    const { keys, values } = R, d_in = R.inputs.shape[1], dk = keys.shape[1];
    const dOut = dims(dk, 'd'), inDims = dims(d_in, 'x'), n = R.inputs.shape[0];
    views.x.update(drawn(R.inputs, words, inDims));
    for (const [key, name] of [['Wq', 'W_query'], ['Wk', 'W_key'], ['Wv', 'W_value']]) views[key].update(drawn(R[name], inDims, dOut));
    views.q.update(drawn(R.queries, words, dOut));
    views.k.update(drawn(keys, words, dOut));
    views.v.update(drawn(values, words, dOut));
    views.scores.update(drawn(R.attn_scores, words, words));
    views.weights.update(drawn(R.attn_weights, words, words));
    views.z.update(drawn(R.context_vec, words, dOut));
    plane.update({ queries: R.queries, keys, scores: R.attn_scores, words });
    const row2 = [words[1]];
    // (their prints are in the code cells below)
    views.scaled.update({ ...drawn({ ...R.scaled_scores_2, shape: [1, n] }, row2, words), print: null });
    views.exps.update({ ...drawn({ ...R.exps_2, shape: [1, n] }, row2, words), print: null });
    views.sum.update({ ...drawn({ ...R.exps_2_sum, shape: [1, 1] }, ['Σ'], [tr('stepByStep.row2')]), print: null });
    const partial = partialSums(ctx.engine, rowOf(R.attn_weights, 1), values);
    views.partial.update({ values: partial.values, texts: partial.values.map(String), shape: partial.shape, rowLabels: words, colLabels: dOut });
    walk.setSteps(projectionSteps(R, words, partial));
  }

  function update() {
    const st = ctx.state, words = st.words;
    const D = ctx.changedData('step-by-step');
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const q2 = r('3.4.1/query_2'), keys = r('keys'), values = r('values');
    const d_in = r('inputs').shape[1], dk = keys.shape[1];
    const k2 = keys.values.slice(dk, 2 * dk);
    const omega22 = r('3.4.1/attn_score_22'), weights2 = r('3.4.1/attn_weights_2'), z2 = r('3.4.1/context_vec_2');
    const dot = q2.values.map((q, j) => `${texFactor(q)}\\cdot ${texFactor(k2[j])}`);
    const dOutText = d_in !== 3 ? tr('stepByStep.theseInputsHaveWith', { d_in, d_out: st.d_out }) : st.d_out === BOOK_D_OUT ? tr('stepByStep.bookPicksOut', { d_in, BOOK_D_OUT }) : tr('stepByStep.bookPicksOutYou', { d_in, BOOK_D_OUT, d_out: st.d_out });

    const R = { inputs: r('inputs'), W_query: r('3.4.1/W_query'), W_key: r('3.4.1/W_key'), W_value: r('3.4.1/W_value'),
      queries: r('queries'), keys, values, attn_scores: r('attn_scores'), attn_weights: r('attn_weights'), context_vec: r('context_vec'),
      scaled_scores_2: r('scaled_scores_2'), exps_2: r('exps_2'), exps_2_sum: r('exps_2_sum') };
    // the drawings, after the text in the load's first pass (ctx.afterText): they are most of this
    // update, and the text holds the page's first numbers. Only the latest update's draw runs.
    const mine = ++updates;
    ctx.afterText(() => { if (mine === updates) drawViews(R, words); });
    const shape = (t) => t.shape.join('×');
    const stage = (drawing, text) => h('a', { href: '#step-by-step', 'data-drawing': drawing, class: 'pipeline-stage' }, text);
    ask.update(D, words);

    show(body,
      para(tr('stepByStep.simplifiedMechanismHadNothing', { p1: placeNote(ctx, 'step-by-step', 'batched', tr('place.rung1')) }), tr('stepByStep.thisRungAddsThree'), ['$', 'W_q'], ', ', ['$', 'W_k'], ', ', ['$', 'W_v'], tr('stepByStep.thatProjectEachEmbedded'), ['$', 'x^{(i)}'], tr('stepByStep.intoQueryKeyValue')),
      tex('q^{(i)} = x^{(i)} W_q \\quad k^{(i)} = x^{(i)} W_k \\quad v^{(i)} = x^{(i)} W_v', true),
      h('p', null, tr('stepByStep.putTogetherThis'), h('strong', { text: tr('stepByStep.scaledDotProductAttention') }), tr('stepByStep.softmaxQkWithYour')),
      h('p', { class: 'pipeline', 'data-testid': 'sdpa-pipeline' },
        stage('x', `x (${shape(R.inputs)})`), ' → ', stage('q', 'Q'), ', ', stage('k', 'K'), ', ', stage('v', `V (${shape(R.queries)})`),
        ' → ', stage('scores', `QKᵀ (${shape(R.attn_scores)})`), ' → ', stage('scaled', '÷ √d_k'), ' → ', stage('weights', `softmax (${shape(R.attn_weights)})`),
        ' → ', stage('z', `· V (${shape(R.context_vec)})`)),
      para(tr('stepByStep.stepThroughTokenWith')),
      ask.omega22.placed(),
      place(walk.el),
      para(`${dOutText}. `, d_in !== dk
        ? tr('stepByStep.bookMakesOutPurpose', { p1: entries(d_in), p2: entries(dk) })
        : tr('stepByStep.withOutShapesNo', { dk })),
      para(tr('stepByStep.twoKindsWeightsMeet'), ['$', 'W_q, W_k, W_v'], tr('stepByStep.areWeightParametersLearned'), hasWeights(D) ? tr('stepByStep.hereYoursFromWeights') : tr('stepByStep.hereStillRandom'), tr('stepByStep.sameEveryInputAttention'), ['$', '\\alpha'], tr('stepByStep.areComputedSoftmaxMakes')),
      para(tr('stepByStep.weightMatricesAreDrawn')),
      codeCell(`import torch\n${inputsPython(r('inputs'), words)}\n\nx_2 = inputs[1]\nd_in = inputs.shape[1]\nd_out = ${st.d_out}\n\n${hasWeights(D) ? `# your weights (SelfAttention_v1's layout, d_in × d_out)\n${plainParameters(D)}` : `torch.manual_seed(${seedFor(st, 123)})\nW_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_key   = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)`}\n\nquery_2 = x_2 @ W_query\nkey_2   = x_2 @ W_key\nvalue_2 = x_2 @ W_value\nprint(query_2)`,
        q2.line, { cell: '3.4.1/query_2' }),
      para(tr('stepByStep.althoughOnly'), ['$', 'z^{(2)}'], tr('stepByStep.wantedQueryMatchedAgainst', { p1: words[1] })),
      codeCell('keys = inputs @ W_key\nvalues = inputs @ W_value\nprint("keys.shape:", keys.shape)', r('3.4.1/keys.shape').line, { cell: '3.4.1/keys.shape' }),
      h('h3', { text: tr('stepByStep.fromScoresScaledWeights') }),
      tex('\\omega_{2j} = q^{(2)} \\cdot k^{(j)} \\qquad \\alpha_{2j} = \\mathrm{softmax}\\!\\left(\\frac{\\omega_{2j}}{\\sqrt{d_k}}\\right)', true),
      para(tr('stepByStep.workedExampleQueryToken')),
      // ω₂₂'s value, and all that follows from it, waits for the learner's prediction; inside it, row 2's
      // weights wait for the top-weight question, and z⁽²⁾ for the last one
      ask.omega22.gate(
        h('div', { 'data-testid': 'omega22' }, tex(`\\begin{aligned}\\omega_{22} &= q^{(2)}\\cdot k^{(2)} \\\\ ${sumLines(dot)} \\\\ &\\approx ${fixed4(omega22.values[0])}\\end{aligned}`, true)),
        codeCell('keys_2 = keys[1]\nattn_score_22 = query_2.dot(keys_2)\nprint(attn_score_22)', omega22.line, { cell: '3.4.1/attn_score_22' }),
        codeCell('attn_scores_2 = query_2 @ keys.T   # all scores for this query\nprint(attn_scores_2)', r('3.4.1/attn_scores_2').line, { cell: '3.4.1/attn_scores_2' }),
        place(plane.el),
        para(tr('stepByStep.dividing'), ['$', `\\sqrt{d_k} = \\sqrt{${dk}}`], tr('stepByStep.keepsScoresRangeWhere')),
        codeCell('d_k = keys.shape[-1]\nprint(attn_scores_2 / d_k**0.5)', r('scaled_scores_2').line),
        ask.topWeight.placed(),
        ask.topWeight.gate(
          para(tr('stepByStep.softmaxTurnsScaledScores')),
          codeCell('attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)\nprint(attn_weights_2)', weights2.line, { cell: '3.4.1/attn_weights_2' }),
          h('h3', { text: tr('stepByStep.contextVectorNowBuilt') }),
          tex('z^{(2)} = \\sum_{j=1}^{T} \\alpha_{2j}\\, v^{(j)} = \\alpha_2 \\cdot \\text{values}', true),
          ask.z2Lands.placed(),
          ask.z2Lands.gate(
            h('div', { 'data-testid': 'z2' }, tex(`\\begin{aligned}z^{(2)} ${sumLines(weights2.values.map((a, j) => `${fixed4(a)}{\\cdot}v^{(${j + 1})}`))} \\\\ &= [${z2.values.map(fixed4).join(', ')}]\\end{aligned}`, true)),
            para(tr('stepByStep.noteHasNowOut', { p1: entries(z2.shape[0]), d_out: st.d_out, p3: z2.shape[0] === d_in ? tr('stepByStep.manyInputs', { d_in }) : tr('stepByStep.notLikeInputs', { d_in }) })),
            codeCell('context_vec_2 = attn_weights_2 @ values\nprint(context_vec_2)', z2.line, { cell: '3.4.1/context_vec_2' })))),
    );
  }
  return { el, update };
}
