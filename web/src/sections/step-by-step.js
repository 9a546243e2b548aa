// Section "step-by-step" (§3.4.1, the first source document): x, W_query, W_key, W_value (at 1 decimal,
// as the book's figure), the queries, keys and values, the scores, weights and context vectors, drawn as
// matrix views with PyTorch's print under each, and a stepper that writes out every product of §3.4.1
// for token 2. Every number is the engine's (one sectionData call); the views are built once and
// updated in place, so focus and the step survive an edit.
import { h, para, tex, codeCell, fixed4, place } from '../dom.js';
import { BOOK_D_OUT, seedFor } from '../model.js';
import { sectionFrame, inputsPython, show } from './common.js';
import { placeNote } from './order.js';
import { matrixView, stepper } from '../views/index.js';
import { qkPlane } from '../views/qk-plane.js';

export default {
  id: 'step-by-step',
  title: 'Rung 2 — self-attention with trainable weights, step by step (§3.4.1)',
  rung: { name: 'Self-attention with trainable weights', note: '§3.4: W_q, W_k, W_v and scaling by √d_k — this page', current: true },
  build,
};

const SUB = '₀₁₂₃₄₅₆₇₈₉', SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const sub = (n) => String(n).replace(/\d/g, (d) => SUB[d]);
const sup = (n) => String(n).replace(/\d/g, (d) => SUP[d]);
const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]);
const colOf = (t, j) => Array.from({ length: t.shape[0] }, (_, i) => t.values[i * t.shape[1] + j]);
const vec = (vals) => `[${vals.map(fixed4).join(', ')}]`;
// A long sum as lines of KaTeX's aligned environment, two terms a line, so that it fits a phone:
// "&= t1 + t2 \\ &\quad + t3 + t4 …" in TeX (the caller writes what comes before and after).
const sumLines = (terms) => terms.map((t, j) => (j % 2 ? ` + ${t}` : `${j ? ' \\\\ &\\quad + ' : '&= '}${t}`)).join('');
const range = (n) => Array.from({ length: n }, (_, i) => i);
const dims = (n, stem) => range(n).map((j) => `${stem}${j + 1}`);
// A view's data from an engine result: its values, their shortest texts and PyTorch's print.
const drawn = (r, rowLabels, colLabels) => ({ values: r.values, texts: r.values.map(String), shape: r.shape, print: r.line ?? r.print, rowLabels, colLabels });

// The steps of §3.4.1 for token 2, each caption written from the engine's numbers at 4 decimals. A sum
// whose operands are rounded is written with ≈: the engine's result, not the sum of the rounded terms.
export function projectionSteps(R, words) {
  const n = R.inputs.shape[0], dOut = R.queries.shape[1];
  const x2 = rowOf(R.inputs, 1), q2 = rowOf(R.queries, 1), s2 = rowOf(R.attn_scores, 1);
  const scaled2 = R.scaled_scores_2.values, exps2 = R.exps_2.values, sum2 = R.exps_2_sum.values[0];
  const a2 = rowOf(R.attn_weights, 1), z2 = rowOf(R.context_vec, 1);
  const all = range(n), dotText = (a, b) => a.map((v, i) => `${fixed4(v)}·${fixed4(b[i])}`).join(' + ');
  const steps = [];
  for (let j = 0; j < dOut; j++) {
    steps.push({ caption: `q⁽²⁾${sub(j + 1)} = x⁽²⁾ (“${words[1]}”) · column ${j + 1} of W_q = ${dotText(x2, colOf(R.W_query, j))} ≈ ${fixed4(q2[j])}`,
      highlights: { x: { rows: [1] }, Wq: { cols: [j] }, q: { cells: [[1, j]] } } });
  }
  steps.push({ caption: `The keys the same way, every token’s x⁽ʲ⁾ times W_k: k⁽²⁾ = ${vec(rowOf(R.keys, 1))}.`,
    highlights: { x: { rows: all }, Wk: { rows: range(R.W_key.shape[0]) }, k: { rows: all } } });
  steps.push({ caption: `And the values, x⁽ʲ⁾ times W_v: v⁽²⁾ = ${vec(rowOf(R.values, 1))}.`,
    highlights: { x: { rows: all }, Wv: { rows: range(R.W_value.shape[0]) }, v: { rows: all } } });
  for (let j = 0; j < n; j++) {
    steps.push({ caption: `ω₂${sub(j + 1)} = q⁽²⁾ · k⁽${sup(j + 1)}⁾ = ${dotText(q2, rowOf(R.keys, j))} ≈ ${fixed4(s2[j])}`,
      highlights: { q: { rows: [1] }, k: { rows: [j] }, scores: { cells: [[1, j]] } } });
  }
  steps.push({ caption: `Divide row 2 by √d_k = √${dOut} ≈ ${fixed4(Math.sqrt(dOut))}: ω₂ / √d_k = ${vec(scaled2)}`,
    highlights: { scores: { rows: [1] } } });
  steps.push({ caption: `Softmax, first each exp: exp(ω₂ⱼ / √d_k) = ${vec(exps2)}`, highlights: { scores: { rows: [1] } } });
  steps.push({ caption: `Their sum: ${exps2.map(fixed4).join(' + ')} ≈ ${fixed4(sum2)}`, highlights: { scores: { rows: [1] } } });
  steps.push({ caption: `Each exp divided by the sum: α₂ = ${vec(a2)}, and ${a2.map(fixed4).join(' + ')} ≈ 1.`,
    highlights: { scores: { rows: [1] }, weights: { rows: [1] } } });
  const running = new Array(dOut).fill(0);
  for (let j = 0; j < n; j++) {
    const vj = rowOf(R.values, j);
    vj.forEach((v, d) => { running[d] += a2[j] * v; });
    const last = j === n - 1;
    steps.push({ caption: `z⁽²⁾ ${j ? '+' : ''}= α₂${sub(j + 1)} · v⁽${sup(j + 1)}⁾ = ${fixed4(a2[j])} · ${vec(vj)}${last ? ` → z⁽²⁾ = ${vec(z2)}` : `; so far ≈ ${vec(running)}`}`,
      highlights: { weights: { cells: [[1, j]] }, v: { rows: [j] }, z: last ? { rows: [1] } : null } });
  }
  return steps;
}

function build(ctx) {
  const { el, body } = sectionFrame('step-by-step', 'Rung 2 — self-attention with trainable weights, step by step (§3.4.1)');
  const empty = { values: [0], shape: [1, 1] };
  const view = (name, title, options = {}) => matrixView(empty, { name, title, rowName: 'token', colName: 'dimension', ...options });
  const views = {
    x: view('inputs', 'x (inputs)'),
    Wq: view('W_query', 'W_q', { decimals: 1, rowName: 'input', colName: 'output' }),
    Wk: view('W_key', 'W_k', { decimals: 1, rowName: 'input', colName: 'output' }),
    Wv: view('W_value', 'W_v', { decimals: 1, rowName: 'input', colName: 'output' }),
    q: view('queries', 'queries = x W_q'),
    k: view('keys', 'keys = x W_k'),
    v: view('values', 'values = x W_v'),
    scores: view('attn_scores', 'ω = queries · keysᵀ', { rowName: 'query', colName: 'key' }),
    weights: view('attn_weights', 'α = softmax(ω / √d_k)', { testid: 'weights-heatmap', rowName: 'query', colName: 'key', scale: 'rows' }),
    z: view('context_vec', 'z = α · values'),
  };
  const plane = qkPlane();   // q(2) and the keys in the plane, beside the scores
  const walk = stepper({ steps: [{ caption: '' }], views, label: 'Step through §3.4.1 for token 2', testid: 'projection-stepper' });
  walk.stage.append(
    h('div', { class: 'stage-row' }, views.x.el, views.Wq.el, views.Wk.el, views.Wv.el),
    h('div', { class: 'stage-row' }, views.q.el, views.k.el, views.v.el),
    h('div', { class: 'stage-row' }, views.scores.el, views.weights.el, views.z.el));

  // After a step the learner took (not after an edit), the step's result, its last outlined cell, is
  // brought into sight below the sticky caption if it is off screen.
  const showResult = () => requestAnimationFrame(() => {
    const marked = walk.stage.querySelectorAll('td[data-hl]');
    const target = marked[marked.length - 1];
    if (!target) return;
    const r = target.getBoundingClientRect(), head = walk.el.querySelector('.stepper-head').getBoundingClientRect();
    if (r.top < head.bottom || r.bottom > innerHeight) target.scrollIntoView({ block: 'center' });
  });
  walk.el.addEventListener('click', (e) => { if (e.target.closest('.stepper-btn')) showResult(); });
  walk.el.addEventListener('keydown', (e) => { if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key) && e.defaultPrevented && !e.target.closest('.mv')) showResult(); });

  // Linked highlighting: a score or weight (i, j) comes from q(i) and k(j), and weighs v(j) in z(i).
  const link = (e) => {
    const { row, col } = e.detail;
    views.q.highlight({ rows: [row] }); views.k.highlight({ rows: [col] }); views.v.highlight({ rows: [col] });
    views.z.highlight({ rows: [row] });
    (e.currentTarget === views.scores.el ? views.weights : views.scores).highlight({ cells: [[row, col]] });
  };
  for (const v of [views.scores, views.weights]) {
    v.el.addEventListener('cellhover', link);
    v.el.addEventListener('cellfocus', link);
    v.el.addEventListener('cellleave', () => walk.refresh());
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
    const dot = q2.values.map((q, j) => `${fixed4(q)}\\cdot ${fixed4(k2[j])}`);
    const dOutText = d_in !== 3 ? `These inputs have d_in = ${d_in}, with d_out = ${st.d_out}` : st.d_out === BOOK_D_OUT ? `The book picks d_in = ${d_in} and d_out = ${BOOK_D_OUT}` : `The book picks d_in = ${d_in} and d_out = ${BOOK_D_OUT}; you chose d_out = ${st.d_out}`;

    const R = { inputs: r('inputs'), W_query: r('3.4.1/W_query'), W_key: r('3.4.1/W_key'), W_value: r('3.4.1/W_value'),
      queries: r('queries'), keys, values, attn_scores: r('attn_scores'), attn_weights: r('attn_weights'), context_vec: r('context_vec'),
      scaled_scores_2: r('scaled_scores_2'), exps_2: r('exps_2'), exps_2_sum: r('exps_2_sum') };
    const dOut = dims(dk, 'd'), inDims = dims(d_in, 'x');
    views.x.update(drawn(R.inputs, words, inDims));
    for (const [key, name] of [['Wq', 'W_query'], ['Wk', 'W_key'], ['Wv', 'W_value']]) views[key].update(drawn(R[name], inDims, dOut));
    views.q.update(drawn(R.queries, words, dOut));
    views.k.update(drawn(keys, words, dOut));
    views.v.update(drawn(values, words, dOut));
    views.scores.update(drawn(R.attn_scores, words, words));
    views.weights.update(drawn(R.attn_weights, words, words));
    views.z.update(drawn(R.context_vec, words, dOut));
    plane.update({ queries: R.queries, keys, scores: R.attn_scores, words });
    walk.setSteps(projectionSteps(R, words));

    show(body,
      para(`The simplified mechanism of §3.3${placeNote(ctx, 'step-by-step', 'batched', 'rung 1')} had nothing to learn.`, ' This rung adds three trainable weight matrices, ', ['$', 'W_q'], ', ', ['$', 'W_k'], ', ', ['$', 'W_v'], ', that project each embedded token ', ['$', 'x^{(i)}'], ' into a query, a key and a value:'),
      tex('q^{(i)} = x^{(i)} W_q \\quad k^{(i)} = x^{(i)} W_k \\quad v^{(i)} = x^{(i)} W_v', true),
      para(`${dOutText}. Step through the computation of z(2) with Next and Back (or ← →): each step writes out its arithmetic and outlines its operands.`),
      place(walk.el),
      para('The weight matrices are drawn as the book’s figure draws them, rounded to 1 decimal, and PyTorch’s print is under each drawing; hover or focus any cell for the engine’s full value, and hover a score or weight to see the query, key and value it links and its row of z.'),
      codeCell(`import torch\n${inputsPython(r('inputs'), words)}\n\nx_2 = inputs[1]\nd_in = inputs.shape[1]\nd_out = ${st.d_out}\n\ntorch.manual_seed(${seedFor(st, 123)})\nW_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_key   = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\n\nquery_2 = x_2 @ W_query\nkey_2   = x_2 @ W_key\nvalue_2 = x_2 @ W_value\nprint(query_2)`,
        q2.line, { cell: '3.4.1/query_2' }),
      para('Although only ', ['$', 'z^{(2)}'], ` (for “${words[1]}”) is wanted, the query is matched against every token and retrieves from every token, so all keys and values are computed at once:`),
      codeCell('keys = inputs @ W_key\nvalues = inputs @ W_value\nprint("keys.shape:", keys.shape)', r('3.4.1/keys.shape').line, { cell: '3.4.1/keys.shape' }),
      h('h3', { text: 'From scores to scaled weights' }),
      tex('\\omega_{2j} = q^{(2)} \\cdot k^{(j)} \\qquad \\alpha_{2j} = \\mathrm{softmax}\\!\\left(\\frac{\\omega_{2j}}{\\sqrt{d_k}}\\right)', true),
      para('Worked example, the query of token 2 against its own key (the operands rounded to 4 decimals, so the engine’s result is written with ≈):'),
      h('div', { 'data-testid': 'omega22' }, tex(`\\begin{aligned}\\omega_{22} &= q^{(2)}\\cdot k^{(2)} \\\\ ${sumLines(dot)} \\\\ &\\approx ${fixed4(omega22.values[0])}\\end{aligned}`, true)),
      codeCell('keys_2 = keys[1]\nattn_score_22 = query_2.dot(keys_2)\nprint(attn_score_22)', omega22.line, { cell: '3.4.1/attn_score_22' }),
      codeCell('attn_scores_2 = query_2 @ keys.T   # all scores for this query\nprint(attn_scores_2)', r('3.4.1/attn_scores_2').line, { cell: '3.4.1/attn_scores_2' }),
      place(plane.el),
      para('Dividing by ', ['$', `\\sqrt{d_k} = \\sqrt{${dk}}`], ' keeps the scores in the range where softmax still has useful gradients:'),
      codeCell('d_k = keys.shape[-1]\nprint(attn_scores_2 / d_k**0.5)', r('scaled_scores_2').line),
      para('and softmax turns the scaled scores into weights that sum to 1:'),
      codeCell('attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)\nprint(attn_weights_2)', weights2.line, { cell: '3.4.1/attn_weights_2' }),
      h('h3', { text: 'The context vector, now built from values' }),
      tex('z^{(2)} = \\sum_{j=1}^{T} \\alpha_{2j}\\, v^{(j)} = \\alpha_2 \\cdot \\text{values}', true),
      h('div', { 'data-testid': 'z2' }, tex(`\\begin{aligned}z^{(2)} ${sumLines(weights2.values.map((a, j) => `${fixed4(a)}{\\cdot}v^{(${j + 1})}`))} \\\\ &= [${z2.values.map(fixed4).join(', ')}]\\end{aligned}`, true)),
      para(`Note z(2) has ${z2.shape[0]} entries now (d_out = ${st.d_out}), not ${d_in} like the inputs.`),
      codeCell('context_vec_2 = attn_weights_2 @ values\nprint(context_vec_2)', z2.line, { cell: '3.4.1/context_vec_2' }),
    );
  }
  return { el, update };
}
