// Section "batched" (the second source document): the simplified attention of §3.3 applied to all
// tokens in one product, its shapes, the three-token toy, and the row-by-row debugging check.

function batchedSection(ctx) {
  const { el, body } = sectionFrame('batched', 'Rung 1 — simplified attention, all tokens in one product');
  let corruption = { kind: 'none', row: 1 };   // the debugging exercise's state

  function update(R) {
    const { engine, cells } = ctx;
    const s = R.simple;
    const words = R.state.words;
    const [n, n2] = s.attn_weights.shape, d = s.inputs.shape[1];
    body.replaceChildren(
      para('Earlier in the chapter a context vector was built for one input token at a time. The attention weights you already have can be applied to all the inputs in one operation: a single matrix product replaces the loop over tokens. Read the tensor it produces first, then reason backward to the operation that made it.'),
      h('p', null, 'The six tokens: ', h('span', { class: 'words' }, words.map((w, i) => h('span', { class: 'word' }, h('b', { text: w }), tex(`x^{(${i + 1})}`))))),
      codeCell(`${inputsPython(R.state)}\nattn_scores = inputs @ inputs.T\nattn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)`, s.attn_weights.print, { cell: '3.3.2/attn_weights' }),
      codeCell('all_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)', s.context_vec.print, { cell: '3.3.2/all_context_vecs', testid: 'all-context-vecs' }),
      para('Each row of the output is one context vector: row one belongs to the first token (“', words[0], '”), row two to the second (“', words[1], '”), and so on, because row i of attn_weights says how much token i attends to every input token.'),
      h('h3', { text: 'Shapes first' }),
      para('attn_weights has one row and one column per token, ', ['$', `${n}\\times ${n2}`], '; inputs has one row per token with ', ['$', `d=${d}`], ' values, ', ['$', `${s.inputs.shape[0]}\\times ${d}`], '. The product consumes the shared dimension ', ['$', `n=${n2}`], ', leaving one row per token and ', ['$', `${d}`], ' columns:'),
      tex(`\\underbrace{(n\\times n)}_{${n}\\times ${n2}}\\cdot\\underbrace{(n\\times d)}_{${s.inputs.shape[0]}\\times ${d}} = \\underbrace{(n\\times d)}_{${s.context_vec.shape[0]}\\times ${s.context_vec.shape[1]}}`, true),
      toyExample(cells),
      compareRows(R),
      h('h3', { text: 'Next: trainable weights' }),
      para('What you just ran is simplified attention: its weights come straight from the inputs, so there is nothing to learn. The next rung adds trainable weights — scaled dot-product attention, the self-attention of the original transformer and of GPT models. The batched product stays the same single matrix multiplication; what changes is where the weights come from: they are learned, adjusted during training.'),
    );
  }

  function toyExample(cells) {
    const x = cells.get('toy/inputs'), w = cells.get('toy/attn_weights'), out = cells.get('toy/all_context_vecs');
    const row = (t, i) => Array.from(t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]), fullFloat);
    const list = (vals) => `[${vals.join(', ')}]`;
    const mix = row(w, 2).map((a, j) => `${a} \\cdot ${list(row(x, j))}`).join(' + ');
    return h('div', null,
      h('h3', { text: 'A toy you can check by hand' }),
      para('Three tokens with two values each; each row of the weights sums to one, so each output row is a weighted mix of the input rows.'),
      codeCell(`inputs = torch.tensor(${pyList(Float32Array.from(x.values), x.shape)})\nattn_weights = torch.tensor(${pyList(Float32Array.from(w.values), w.shape)})\nall_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)`,
        cellLine(out), { cell: 'toy/all_context_vecs' }),
      para('Row two of attn_weights is ', list(row(w, 1)), ', so it selects the second input token alone, giving ', list(row(out, 1)), '. Row three is ', list(row(w, 2)), ', so it blends all three inputs:'),
      tex(`${mix} = ${list(row(out, 2))}`, true));
  }

  // The batched rows next to the same vectors computed one token at a time; the learner can corrupt
  // one row of the weights (one row disagrees) or the shared inputs (every row disagrees).
  function compareRows(R) {
    const { engine } = ctx;
    const s = R.simple, words = R.state.words;
    const [n, d] = s.context_vec.shape;
    const wrap = h('div', { class: 'debug' }, h('h3', { text: 'Check the batched result against one token at a time' }),
      para('If a single row disagrees, inspect that row of attn_weights; if every row disagrees, suspect the shared inputs or how the weights were built. Try both:'));
    const rowSelect = h('select', { 'aria-label': 'Row of attn_weights to corrupt' },
      words.map((w, i) => h('option', { value: String(i + 1), selected: corruption.row === i + 1, text: `row ${i + 1} (${w})` })));
    const set = (kind) => () => { corruption = { kind, row: Number(rowSelect.value) }; update(ctx.results()); };
    wrap.append(h('div', { class: 'controls' },
      rowSelect, h('button', { type: 'button', onclick: set('row'), text: 'Corrupt this row of attn_weights' }),
      h('button', { type: 'button', onclick: set('inputs'), text: 'Corrupt the shared inputs' }),
      h('button', { type: 'button', onclick: set('none'), text: 'Undo' })));

    let perToken, batched, note;
    try {
      // one token at a time: row i of the weights times the inputs, one engine product per token
      perToken = Array.from({ length: n }, (_, i) => engineMatmul(engine, s.attn_weights.values.slice(i * n, (i + 1) * n), [1, n], s.inputs.values, [n, d]));
      if (corruption.kind === 'row') {
        const w = s.attn_weights.values.slice();
        const r = corruption.row - 1;
        w.subarray(r * n, (r + 1) * n).reverse();   // the bug: row r's weights in the wrong order
        batched = engineMatmul(engine, w, [n, n], s.inputs.values, [n, d]);
        note = `attn_weights row ${corruption.row} has its entries in reverse order.`;
      } else if (corruption.kind === 'inputs') {
        // the bug: the batched path reads the inputs with two columns swapped
        const x = s.inputs.values.slice();
        for (let i = 0; i < n; i++) [x[i * d], x[i * d + 1]] = [x[i * d + 1], x[i * d]];
        batched = engineMatmul(engine, s.attn_weights.values, [n, n], x, [n, d]);
        note = 'the batched product read the inputs with columns 1 and 2 swapped.';
      } else {
        batched = s.context_vec;
      }
    } catch (e) {
      wrap.append(errorNote(`The row-by-row check could not be computed: ${e.message}`));
      return wrap;
    }
    const table = h('table', { class: 'compare' }, h('caption', { text: 'Row by row: batched vs one token at a time (to 4 decimals)' }),
      h('thead', null, h('tr', null, ['token', 'batched row', 'one token at a time', 'agree?'].map((t) => h('th', { scope: 'col', text: t })))));
    let disagree = 0;
    const tbody = h('tbody');
    for (let i = 0; i < n; i++) {
      const a = rowOf(engine, batched, i).print, b = engine.formatTensor(perToken[i].values, [d]);
      const same = a === b;
      if (!same) disagree++;
      tbody.append(h('tr', { class: same ? null : 'bad' }, h('th', { scope: 'row', text: `${i + 1} ${words[i]}` }),
        h('td', null, h('code', { text: a })), h('td', null, h('code', { text: b })), h('td', { text: same ? '✓ yes' : '✗ no' })));
    }
    table.append(tbody);
    const verdict = disagree === 0 ? 'Every row agrees: the batched product and the loop compute the same context vectors.'
      : disagree === 1 ? `Exactly one row disagrees, so look at that row of attn_weights: ${note}`
        : `${disagree} of ${n} rows disagree, so look at what they share: ${note}`;
    wrap.append(h('div', { class: 'scroll' }, table), h('p', { class: 'verdict', role: 'status', 'data-testid': 'debug-verdict', text: verdict }));
    return wrap;
  }

  return { el, update };
}
