// Section "step-by-step" (§3.4.1, the first source document): W_query, W_key, W_value as the book's
// figure draws them, q(2), keys and values, ω22 with its dot product, the scores, scaling, z(2).
// The engine's answer also holds every query, key and value, the score matrices and row 2's softmax
// written out (exps and their sum), for views that step through them.
import { h, para, tex, codeCell, fixed4 } from '../dom.js';
import { BOOK_D_OUT, seedFor } from '../model.js';
import { sectionFrame, matrixTable, inputsPython, show } from './common.js';

export default {
  id: 'step-by-step',
  title: 'Rung 2 — self-attention with trainable weights, step by step (§3.4.1)',
  rung: { name: 'Self-attention with trainable weights', note: '§3.4: W_q, W_k, W_v and scaling by √d_k — this page', current: true },
  build,
};

function build(ctx) {
  const { el, body } = sectionFrame('step-by-step', 'Rung 2 — self-attention with trainable weights, step by step (§3.4.1)');

  function update() {
    const st = ctx.state, words = st.words;
    const D = ctx.changedData('step-by-step');
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const q2 = r('3.4.1/query_2'), keys = r('keys'), values = r('values');
    const d_in = r('inputs').shape[1], dk = keys.shape[1];
    const k2 = keys.values.slice(dk, 2 * dk);
    const omega22 = r('3.4.1/attn_score_22'), weights2 = r('3.4.1/attn_weights_2'), z2 = r('3.4.1/context_vec_2');
    const dot = q2.values.map((q, j) => `${fixed4(q)}\\cdot ${fixed4(k2[j])}`).join(' + ');
    const dOutText = d_in !== 3 ? `These inputs have d_in = ${d_in}, with d_out = ${st.d_out}` : st.d_out === BOOK_D_OUT ? `The book picks d_in = ${d_in} and d_out = ${BOOK_D_OUT}` : `The book picks d_in = ${d_in} and d_out = ${BOOK_D_OUT}; you chose d_out = ${st.d_out}`;
    show(body,
      para('The simplified mechanism had nothing to learn. This rung adds three trainable weight matrices, ', ['$', 'W_q'], ', ', ['$', 'W_k'], ', ', ['$', 'W_v'], ', that project each embedded token ', ['$', 'x^{(i)}'], ' into a query, a key and a value:'),
      tex('q^{(i)} = x^{(i)} W_q \\qquad k^{(i)} = x^{(i)} W_k \\qquad v^{(i)} = x^{(i)} W_v', true),
      para(`${dOutText}, so you can follow which matrix produced which vector. The matrices below are drawn as the book’s figure draws them, rounded to 1 decimal; hover or focus a cell for the engine’s full value.`),
      h('div', { class: 'matrices' },
        ['W_query', 'W_key', 'W_value'].map((name) => matrixTable(r(`3.4.1/${name}`), { name, decimals: 1, rowLabels: Array.from({ length: d_in }, (_, i) => `row ${i + 1}`) }))),
      codeCell(`import torch\n${inputsPython(r('inputs'), words)}\n\nx_2 = inputs[1]\nd_in = inputs.shape[1]\nd_out = ${st.d_out}\n\ntorch.manual_seed(${seedFor(st, 123)})\nW_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_key   = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\n\nquery_2 = x_2 @ W_query\nkey_2   = x_2 @ W_key\nvalue_2 = x_2 @ W_value\nprint(query_2)`,
        q2.line, { cell: '3.4.1/query_2' }),
      para('Although only ', ['$', 'z^{(2)}'], ` (for “${words[1]}”) is wanted, the query is matched against every token and retrieves from every token, so all keys and values are computed at once:`),
      codeCell('keys = inputs @ W_key\nvalues = inputs @ W_value\nprint("keys.shape:", keys.shape)', r('3.4.1/keys.shape').line, { cell: '3.4.1/keys.shape' }),
      h('div', { class: 'matrices' },
        matrixTable(keys, { name: 'keys', rowLabels: words, highlightRow: 1 }), matrixTable(values, { name: 'values', rowLabels: words })),
      h('h3', { text: 'From scores to scaled weights' }),
      tex('\\omega_{2j} = q^{(2)} \\cdot k^{(j)} \\qquad\\qquad \\alpha_{2j} = \\mathrm{softmax}\\!\\left(\\frac{\\omega_{2j}}{\\sqrt{d_k}}\\right)', true),
      para('Worked example, the query of token 2 against its own key:'),
      h('div', { 'data-testid': 'omega22' }, tex(`\\omega_{22} = q^{(2)}\\cdot k^{(2)} = ${dot} = ${fixed4(omega22.values[0])}`, true)),
      codeCell('keys_2 = keys[1]\nattn_score_22 = query_2.dot(keys_2)\nprint(attn_score_22)', omega22.line, { cell: '3.4.1/attn_score_22' }),
      codeCell('attn_scores_2 = query_2 @ keys.T   # all scores for this query\nprint(attn_scores_2)', r('3.4.1/attn_scores_2').line, { cell: '3.4.1/attn_scores_2' }),
      para('Dividing by ', ['$', `\\sqrt{d_k} = \\sqrt{${dk}}`], ' keeps the scores in the range where softmax still has useful gradients:'),
      codeCell('d_k = keys.shape[-1]\nprint(attn_scores_2 / d_k**0.5)', r('scaled_scores_2').line),
      para('and softmax turns the scaled scores into weights that sum to 1:'),
      codeCell('attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)\nprint(attn_weights_2)', weights2.line, { cell: '3.4.1/attn_weights_2' }),
      h('h3', { text: 'The context vector, now built from values' }),
      tex('z^{(2)} = \\sum_{j=1}^{T} \\alpha_{2j}\\, v^{(j)} = \\alpha_2 \\cdot \\text{values}', true),
      h('div', { 'data-testid': 'z2' }, tex(`z^{(2)} = ${weights2.values.map((a, j) => `${fixed4(a)}{\\cdot}v^{(${j + 1})}`).join(' + ')} = [${z2.values.map(fixed4).join(', ')}]`, true)),
      para(`Note z(2) has ${z2.shape[0]} entries now (d_out = ${st.d_out}), not ${d_in} like the inputs.`),
      codeCell('context_vec_2 = attn_weights_2 @ values\nprint(context_vec_2)', z2.line, { cell: '3.4.1/context_vec_2' }),
    );
  }
  return { el, update };
}
