// Section "step-by-step" (§3.4.1, the first source document): W_query, W_key, W_value as the book's
// figure draws them, q(2), keys and values, ω22 with its dot product, the scores, scaling, z(2).

function stepsSection(ctx) {
  const { el, body } = sectionFrame('step-by-step', 'Rung 2 — self-attention with trainable weights, step by step (§3.4.1)');

  function update(R) {
    const { engine } = ctx;
    const v = R.v1, st = R.state, words = st.words;
    const q2 = rowOf(engine, v.queries, 1), k2 = rowOf(engine, v.keys, 1);
    const scores2 = rowOf(engine, v.attn_scores, 1), weights2 = rowOf(engine, v.attn_weights, 1), z2 = rowOf(engine, v.context_vec, 1);
    const omega22 = v.attn_scores.values[1 * R.tokens + 1];
    const dk = v.keys.shape[1];
    const d4 = (vals) => Array.from(vals, fixed4);
    const dot = Array.from(q2.values, (q, j) => `${fixed4(q)}\\cdot ${fixed4(k2.values[j])}`).join(' + ');
    const sizeText = (t) => `torch.Size([${t.shape.join(', ')}])`;
    const wLabel = (i) => `x${i + 1}`;
    body.replaceChildren(
      para('The simplified mechanism had nothing to learn. This rung adds three trainable weight matrices, ', ['$', 'W_q'], ', ', ['$', 'W_k'], ', ', ['$', 'W_v'], ', that project each embedded token ', ['$', 'x^{(i)}'], ' into a query, a key and a value:'),
      tex('q^{(i)} = x^{(i)} W_q \\qquad k^{(i)} = x^{(i)} W_k \\qquad v^{(i)} = x^{(i)} W_v', true),
      para(`The book picks d_in = ${R.d_in} and d_out = ${st.d_out} so you can follow which matrix produced which vector. The matrices below are drawn as the book’s figure draws them, rounded to 1 decimal; hover or focus a cell for the engine’s full value.`),
      h('div', { class: 'matrices' },
        ['W_query', 'W_key', 'W_value'].map((name) => matrixTable(v[name], { name, decimals: 1, rowLabels: Array.from({ length: R.d_in }, (_, i) => `row ${i + 1}`) }))),
      codeCell(`import torch\n${inputsPython(st)}\n\nx_2 = inputs[1]\nd_in = inputs.shape[1]\nd_out = ${st.d_out}\n\ntorch.manual_seed(${st.seed})\nW_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_key   = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\nW_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)\n\nquery_2 = x_2 @ W_query\nkey_2   = x_2 @ W_key\nvalue_2 = x_2 @ W_value\nprint(query_2)`,
        q2.print, { cell: '3.4.1/query_2' }),
      para('Although only ', ['$', 'z^{(2)}'], ` (for “${words[1]}”) is wanted, the query is matched against every token and retrieves from every token, so all keys and values are computed at once:`),
      codeCell('keys = inputs @ W_key\nvalues = inputs @ W_value\nprint("keys.shape:", keys.shape)', `keys.shape: ${sizeText(v.keys)}`, { cell: '3.4.1/keys.shape' }),
      h('div', { class: 'matrices' },
        matrixTable(v.keys, { name: 'keys', rowLabels: words, highlightRow: 1 }), matrixTable(v.values, { name: 'values', rowLabels: words })),
      h('h3', { text: 'From scores to scaled weights' }),
      tex('\\omega_{2j} = q^{(2)} \\cdot k^{(j)} \\qquad\\qquad \\alpha_{2j} = \\mathrm{softmax}\\!\\left(\\frac{\\omega_{2j}}{\\sqrt{d_k}}\\right)', true),
      para('Worked example, the query of token 2 against its own key:'),
      h('div', { 'data-testid': 'omega22' }, tex(`\\omega_{22} = q^{(2)}\\cdot k^{(2)} = ${dot} = ${fixed4(omega22)}`, true)),
      codeCell('keys_2 = keys[1]\nattn_score_22 = query_2.dot(keys_2)\nprint(attn_score_22)', engine.formatTensor(Float32Array.of(omega22), []), { cell: '3.4.1/attn_score_22' }),
      codeCell('attn_scores_2 = query_2 @ keys.T   # all scores for this query\nprint(attn_scores_2)', scores2.print, { cell: '3.4.1/attn_scores_2' }),
      para('Dividing by ', ['$', `\\sqrt{d_k} = \\sqrt{${dk}}`], ' keeps the scores in the range where softmax still has useful gradients:'),
      codeCell('d_k = keys.shape[-1]\nprint(attn_scores_2 / d_k**0.5)', rowOf(engine, v.scaled_scores, 1).print),
      para('and softmax turns the scaled scores into weights that sum to 1:'),
      codeCell('attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)\nprint(attn_weights_2)', weights2.print, { cell: '3.4.1/attn_weights_2' }),
      h('h3', { text: 'The context vector, now built from values' }),
      tex('z^{(2)} = \\sum_{j=1}^{T} \\alpha_{2j}\\, v^{(j)} = \\alpha_2 \\cdot \\text{values}', true),
      h('div', { 'data-testid': 'z2' }, tex(`z^{(2)} = ${d4(weights2.values).map((a, j) => `${a}{\\cdot}v^{(${j + 1})}`).join(' + ')} = [${d4(z2.values).join(', ')}]`, true)),
      para(`Note z(2) has ${z2.shape[0]} entries now (d_out = ${st.d_out}), not ${R.d_in} like the inputs.`),
      codeCell('context_vec_2 = attn_weights_2 @ values\nprint(context_vec_2)', z2.print, { cell: '3.4.1/context_vec_2' }),
    );
  }
  return { el, update };
}
