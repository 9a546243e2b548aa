// Section "batched" (the second source document): the simplified attention of §3.3 applied to all
// tokens in one product, its shapes, the three-token toy, and the row-by-row debugging check.
import { h, para, tex, codeCell, place } from '../dom.js';
import { sectionFrame, inputsPython, pyList, errorNote, show } from './common.js';
import { batchedPrompts } from '../learn/prompts.js';

export default {
  id: 'batched',
  title: 'Rung 1 — simplified attention, all tokens in one product',
  rung: { name: 'Simplified self-attention', note: '§3.3: weights straight from dot products, nothing to learn' },
  build,
};

function build(ctx) {
  const { el, body } = sectionFrame('batched', 'Rung 1 — simplified attention, all tokens in one product');
  const ask = batchedPrompts(ctx);   // predict, then reveal: the toy product's shape
  let corruption = { kind: 'none', row: 1 };   // the debugging exercise's state
  // The controls are built once and kept across updates, with their listeners and focus.
  const rowSelect = (h('select', { 'aria-label': 'Row of attn_weights to corrupt' }));
  const set = (kind) => () => { corruption = { kind, row: Number(rowSelect.value) }; update(); };
  const controls = (h('div', { class: 'controls' },
    rowSelect, h('button', { type: 'button', onclick: set('row'), text: 'Corrupt this row of attn_weights' }),
    h('button', { type: 'button', onclick: set('inputs'), text: 'Corrupt the shared inputs' }),
    h('button', { type: 'button', onclick: set('none'), text: 'Undo' })));

  function update() {
    const words = ctx.state.words;
    const D = ctx.changedData('batched', { corrupt: corruption.kind, corrupt_row: corruption.row });
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const weights = r('3.3.2/attn_weights'), inputs = r('inputs'), out = r('3.3.2/all_context_vecs');
    const [n, n2] = weights.shape, d = inputs.shape[1];
    ask.update(r);
    show(body,
      para('Earlier in the chapter a context vector was built for one input token at a time. The attention weights you already have can be applied to all the inputs in one operation: a single matrix product replaces the loop over tokens. Read the tensor it produces first, then reason backward to the operation that made it.'),
      h('p', null, `The ${words.length === 6 ? 'six' : words.length} tokens: `, h('span', { class: 'words' }, words.map((w, i) => h('span', { class: 'word' }, h('b', { text: w }), tex(`x^{(${i + 1})}`))))),
      codeCell(`${inputsPython(inputs, words)}\nattn_scores = inputs @ inputs.T\nattn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)`, weights.line, { cell: '3.3.2/attn_weights' }),
      codeCell('all_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)', out.line, { cell: '3.3.2/all_context_vecs', testid: 'all-context-vecs' }),
      para('Each row of the output is one context vector: row one belongs to the first token (“', words[0], '”), row two to the second (“', words[1], '”), and so on, because row i of attn_weights says how much token i attends to every input token.'),
      h('h3', { text: 'Shapes first' }),
      para('attn_weights has one row and one column per token, ', ['$', `${n}\\times ${n2}`], '; inputs has one row per token with ', ['$', `d=${d}`], ' values, ', ['$', `${inputs.shape[0]}\\times ${d}`], '. The product consumes the shared dimension ', ['$', `n=${n2}`], ', leaving one row per token and ', ['$', `${d}`], ' columns:'),
      tex(`\\underbrace{(n\\times n)}_{${n}\\times ${n2}}\\cdot\\underbrace{(n\\times d)}_{${inputs.shape[0]}\\times ${d}} = \\underbrace{(n\\times d)}_{${out.shape[0]}\\times ${out.shape[1]}}`, true),
      toyExample(r),
      compareRows(r, words, n),
      h('h3', { text: 'Next: trainable weights' }),
      para('What you just ran is simplified attention: its weights come straight from the inputs, so there is nothing to learn. The next rung adds trainable weights — scaled dot-product attention, the self-attention of the original transformer and of GPT models. The batched product stays the same single matrix multiplication; what changes is where the weights come from: they are learned, adjusted during training.'),
    );
  }

  function toyExample(r) {
    const x = r('toy/inputs'), w = r('toy/attn_weights'), out = r('toy/all_context_vecs');
    const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]).map(String);
    const list = (vals) => `[${vals.join(', ')}]`;
    const mix = rowOf(w, 2).map((a, j) => `${a} \\cdot ${list(rowOf(x, j))}`).join(' + ');
    return h('div', null,
      h('h3', { text: 'A toy you can check by hand' }),
      para('Three tokens with two values each; each row of the weights sums to one, so each output row is a weighted mix of the input rows.'),
      ask.shape.placed(),
      ask.shape.gate(codeCell(`inputs = torch.tensor(${pyList(x.values, x.shape)})\nattn_weights = torch.tensor(${pyList(w.values, w.shape)})\nall_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)`,
        out.line, { cell: 'toy/all_context_vecs' })),
      para('Row two of attn_weights is ', list(rowOf(w, 1)), ', so it selects the second input token alone, giving ', list(rowOf(out, 1)), '. Row three is ', list(rowOf(w, 2)), ', so it blends all three inputs:'),
      tex(`\\begin{aligned}&${mix} \\\\ &= ${list(rowOf(out, 2))}\\end{aligned}`, true));   // two lines: a phone's width
  }

  // The batched rows next to the same vectors computed one token at a time; the learner can corrupt
  // one row of the weights (one row disagrees) or the shared inputs (every row disagrees).
  function compareRows(r, words, n) {
    words.forEach((w, i) => {   // the options follow the words, in place (the select keeps focus and choice)
      const text = `row ${i + 1} (${w})`;
      const option = rowSelect.options[i] || rowSelect.appendChild(h('option', { value: String(i + 1) }));
      if (option.textContent !== text) option.textContent = text;
    });
    const wrap = h('div', { class: 'debug' }, h('h3', { text: 'Check the batched result against one token at a time' }),
      para('If a single row disagrees, inspect that row of attn_weights; if every row disagrees, suspect the shared inputs or how the weights were built. Try both:'),
      place(controls));
    const note = corruption.kind === 'row' ? `attn_weights row ${corruption.row} has its entries in reverse order.`
      : 'the batched product read the inputs with columns 1 and 2 swapped.';
    const rows = Array.from({ length: n }, (_, i) => [r(`debug/batched/${i + 1}`), r(`debug/one_token/${i + 1}`)]);
    const failed = rows.find(([a, b]) => a.error || b.error);
    if (failed) {
      wrap.append(errorNote(`The row-by-row check could not be computed: ${(failed[0].error || failed[1].error)}`));
      return wrap;
    }
    let disagree = 0;
    const tbody = h('tbody', null, rows.map(([a, b], i) => {
      const same = a.print === b.print;
      if (!same) disagree++;
      // data-label: each cell's column, written before it when a phone stacks the rows (element.css);
      // the explicit roles keep the table a table for assistive technology once it is display: block
      return h('tr', { class: same ? null : 'bad', role: 'row' }, h('th', { scope: 'row', role: 'rowheader', text: `${i + 1} ${words[i]}` }),
        h('td', { role: 'cell', 'data-label': 'batched row' }, h('code', { text: a.print })), h('td', { role: 'cell', 'data-label': 'one token at a time' }, h('code', { text: b.print })),
        h('td', { role: 'cell', 'data-label': 'agree?', text: same ? '✓ yes' : '✗ no' }));
    }));
    tbody.setAttribute('role', 'rowgroup');
    const table = h('table', { class: 'compare', role: 'table' }, h('caption', { text: 'Row by row: batched vs one token at a time (to 4 decimals)' }),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, ['token', 'batched row', 'one token at a time', 'agree?'].map((t) => h('th', { scope: 'col', role: 'columnheader', text: t })))), tbody);
    const verdict = disagree === 0 ? 'Every row agrees: the batched product and the loop compute the same context vectors.'
      : disagree === 1 ? `Exactly one row disagrees, so look at that row of attn_weights: ${note}`
        : `${disagree} of ${n} rows disagree, so look at what they share: ${note}`;
    wrap.append(h('div', { class: 'scroll' }, table), h('p', { class: 'verdict', role: 'status', 'data-testid': 'debug-verdict', text: verdict }));
    return wrap;
  }

  return { el, update };
}
