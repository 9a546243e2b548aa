// Section "batched" (the second source document): the simplified attention of §3.3 applied to all
// tokens in one product, drawn (attn_weights · inputs = all_context_vecs), its shapes, the three-token
// toy, and a bug hunt: one row of attn_weights corrupted at random, found by comparing rows.
import { h, para, codeCell, place } from '../dom.js';
import { tex } from '../math.js';
import { sectionFrame, inputsPython, pyList, errorNote, show } from './common.js';
import { batchedPrompts } from '../learn/prompts.js';
import { placeNote } from './order.js';
import { productView, mixText } from '../views/product-view.js';
import { fixed } from '../views/format.js';
import { t } from '../i18n/index.js';

export default {
  id: 'batched',
  get title() { return t('batched.title'); },
  rung: { get name() { return t('batched.rung.name'); }, get note() { return t('batched.rung.note'); } },
  build,
};

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const sup = (n) => String(n).replace(/\d/g, (d) => SUP[d]);
const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]);
const vec4 = (vals) => `[${vals.map((v) => fixed(v, 4)).join(', ')}]`;
const dims = (n) => Array.from({ length: n }, (_, j) => `d${j + 1}`);
// A view's data from an engine result (values, their shortest texts, optionally PyTorch's print).
const drawn = (r, rowLabels, colLabels, print) => ({ values: r.values, texts: r.values.map(String), shape: r.shape, rowLabels, colLabels, print });

// The three views of a product whose left operand is attention weights (coloured per row: color.js).
function weightsProduct(testid, label, describe, { prints = false } = {}) {
  const opts = (name, title, more) => ({ name, title, legend: true, ...more });
  return productView({
    testid, label, describe,
    hint: 'Hover or focus a row of all_context_vecs to see the row of weights and the input rows it comes from. inputs and all_context_vecs share one colour scale (the legend under all_context_vecs).',
    a: opts('attn_weights', 'attn_weights', { rowName: 'query', colName: 'key', scale: 'rows' }),
    b: opts('inputs', 'inputs', { rowName: 'token', colName: 'dimension' }),
    c: opts('all_context_vecs', 'all_context_vecs', { rowName: 'token', colName: 'dimension', testid: prints ? `${testid}-out` : undefined }),
  });
}

function build(ctx) {
  const { el, body } = sectionFrame('batched', t('batched.title'));
  const ask = batchedPrompts(ctx);   // predict, then reveal: the toy product's shape
  // the sentence under a product for its linked row: row i of C as the weighted mix of B's rows
  const describeWith = (get, stem) => (i, weights) => {
    const { c, words } = get();
    return `Row ${i + 1}${words ? ` (“${words[i]}”)` : ''} of all_context_vecs = ${mixText(weights, stem)} = ${vec4(rowOf(c, i))}. Each input row is drawn as strongly as its weight.`;
  };
  let shown = null, toyShown = null, debugShown = null;   // what each product draws now (for its sentence)
  const product = weightsProduct('batched-product', 'attn_weights times inputs equals all_context_vecs', describeWith(() => shown, (j) => `x⁽${sup(j + 1)}⁾`));
  const toy = weightsProduct('toy-product', 'the toy: attn_weights times inputs', describeWith(() => toyShown, (j) => `row ${j + 1} of inputs`));
  const debugProduct = weightsProduct('debug-product', 'the weights the batched path used, times inputs', describeWith(() => debugShown, (j) => `x⁽${sup(j + 1)}⁾`), { prints: true });

  // The bug hunt's state: which row the page corrupted (the learner is not told), the learner's guesses.
  let corruption = { kind: 'none', row: 0 };
  let hunt = { wrong: [], solved: false, revealed: false };
  let lastWeights = null;   // the uncorrupted weights the page shows: the rows a reversal changes
  const newHunt = () => { hunt = { wrong: [], solved: false, revealed: false }; };
  const corruptRandom = () => {
    // a row that reversing changes (a palindromic row would hide the bug), never the one just used
    const n = lastWeights.shape[0];
    const rows = Array.from({ length: n }, (_, i) => i).filter((i) => {
      const w = rowOf(lastWeights, i);
      return w.some((v, j) => v !== w[n - 1 - j]);
    });
    const pool = rows.length > 1 ? rows.filter((i) => !(corruption.kind === 'row' && i === corruption.row)) : rows;
    if (!pool.length) { corruption = { kind: 'none', row: 0, impossible: true }; newHunt(); update(); return; }
    corruption = { kind: 'row', row: pool[Math.floor(Math.random() * pool.length)] };
    newHunt();
    update();
  };
  const controls = h('div', { class: 'controls' },
    h('button', { type: 'button', 'data-testid': 'corrupt-random', onclick: corruptRandom, text: 'Corrupt a random row of attn_weights' }),
    h('button', { type: 'button', 'data-testid': 'corrupt-inputs', onclick: () => { corruption = { kind: 'inputs', row: 0 }; newHunt(); update(); }, text: 'Corrupt the shared inputs' }),
    h('button', { type: 'button', 'data-testid': 'corrupt-undo', onclick: () => { corruption = { kind: 'none', row: 0 }; newHunt(); update(); }, text: 'Undo' }));
  // One button per row (data-row from 0, as the drawn cells'), kept across updates with their focus.
  const guessButtons = h('div', { class: 'controls guesses', role: 'group', 'aria-label': 'Which row of attn_weights was corrupted?' });
  const showMe = h('button', { type: 'button', 'data-testid': 'guess-show', text: 'Show me', onclick: () => { hunt.revealed = true; update(true); } });
  const guessBox = h('div', { class: 'guess', hidden: true }, h('p', { text: 'Which row of attn_weights was corrupted?' }), guessButtons, h('div', { class: 'controls' }, showMe));
  const guess = (i) => () => {
    if (i === corruption.row) hunt.solved = true;
    else if (!hunt.wrong.includes(i)) hunt.wrong.push(i);
    hunt.last = i;
    update(true);
  };
  function syncGuessButtons(words) {
    while (guessButtons.children.length > words.length) guessButtons.lastChild.remove();
    words.forEach((w, i) => {
      const b = guessButtons.children[i] || guessButtons.appendChild(h('button', { type: 'button', 'data-testid': 'guess-row', 'data-row': String(i), onclick: guess(i) }));
      const text = `Row ${i + 1} (${w})`;
      if (b.textContent !== text) b.textContent = text;
    });
  }

  // answered: the learner's guess changed what is said, not what the engine computes (draw it anyway)
  function update(answered = false) {
    const words = ctx.state.words;
    if (corruption.kind === 'row' && corruption.row >= words.length) { corruption = { kind: 'none', row: 0 }; newHunt(); }   // fewer tokens now
    const extra = { corrupt: corruption.kind, corrupt_row: corruption.row + 1 };
    const D = ctx.changedData('batched', extra) || (answered === true ? ctx.data('batched', extra) : null);
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const weights = r('3.3.2/attn_weights'), inputs = r('inputs'), out = r('3.3.2/all_context_vecs');
    lastWeights = weights;
    const [n, n2] = weights.shape, d = inputs.shape[1];
    ask.update(r);
    shown = { c: out, words };
    product.update({ a: drawn(weights, words, words), b: drawn(inputs, words, dims(d)), c: drawn(out, words, dims(d)) });
    show(body,
      para('§3.3.1 of the book builds a context vector for one input token at a time: each weight of that token’s row times an input, summed. The attention weights can be applied to all the inputs in one operation instead: a single matrix product replaces the loop over tokens. Read the tensor it produces first, then reason backward to the operation that made it.'),
      h('p', null, `The ${words.length === 6 ? 'six' : words.length} tokens: `, h('span', { class: 'words' }, words.map((w, i) => h('span', { class: 'word' }, h('b', { text: w }), tex(`x^{(${i + 1})}`))))),
      // the tensor first, then the code that made it: "read the tensor it produces first, then reason backward"
      para('Each row of the output is one context vector: row one belongs to the first token (“', words[0], '”), row two to the second (“', words[1], '”), and so on, because row i of attn_weights says how much token i attends to every input token. Reason backward from a row of the output: the operands flow into the product, and the result lands in one tensor.'),
      place(product.el),
      para('The weights are coloured per row (lightest: the row’s smallest weight; darkest: its largest), so you can see which token each query attends to most; the cells give the values.'),
      para('The code that computes it, as §3.3.2 writes it:'),
      codeCell(`import torch\n${inputsPython(inputs, words)}\nattn_scores = inputs @ inputs.T\nattn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)`, weights.line, { cell: '3.3.2/attn_weights' }),
      codeCell('all_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)', out.line, { cell: '3.3.2/all_context_vecs', testid: 'all-context-vecs' }),
      h('h3', { text: 'Shapes first' }),
      para('attn_weights has one row and one column per token, ', ['$', `${n}\\times ${n2}`], '; inputs has one row per token with ', ['$', `d=${d}`], ' values, ', ['$', `${inputs.shape[0]}\\times ${d}`], '. The product consumes the shared dimension ', ['$', `n=${n2}`], ', leaving one row per token and ', ['$', `${d}`], ' columns:'),
      tex(`\\underbrace{(n\\times n)}_{${n}\\times ${n2}}\\cdot\\underbrace{(n\\times d)}_{${inputs.shape[0]}\\times ${d}} = \\underbrace{(n\\times d)}_{${out.shape[0]}\\times ${out.shape[1]}}`, true),
      toyExample(r),
      debugging(r, words, n),
      h('h3', { text: 'With trainable weights' }),
      para(`What ran here is simplified attention: its weights come straight from the inputs, so there is nothing to learn. Self-attention with trainable weights (scaled dot-product attention, §3.4${placeNote(ctx, 'batched', 'step-by-step')}) keeps this same single matrix product; what changes is where the weights come from: they are computed from learned projections that training adjusts, and they multiply the values instead of the raw inputs.`),
    );
  }

  function toyExample(r) {
    const x = r('toy/inputs'), w = r('toy/attn_weights'), out = r('toy/all_context_vecs');
    const list = (vals) => `[${vals.map(String).join(', ')}]`;
    const mix = rowOf(w, 2).map((a, j) => `${a} \\cdot ${list(rowOf(x, j))}`).join(' + ');
    toyShown = { c: out, words: null };
    const labels = (k) => Array.from({ length: k }, (_, i) => String(i + 1));
    toy.update({ a: drawn(w, labels(w.shape[0]), labels(w.shape[1])), b: drawn(x, labels(x.shape[0]), dims(x.shape[1])), c: drawn(out, labels(out.shape[0]), dims(out.shape[1])) });
    return h('div', null,
      h('h3', { text: 'A toy you can check by hand' }),
      para(`${x.shape[0] === 3 ? 'Three' : x.shape[0]} tokens with ${x.shape[1] === 2 ? 'two' : x.shape[1]} values each; each row of the weights sums to one, so each output row is a weighted mix of the input rows. You can check two rows by hand: row two of attn_weights is ${list(rowOf(w, 1))} and row three is ${list(rowOf(w, 2))}.`),
      ask.shape.placed(),
      // the code's print, the drawing and the rows worked out give the shape and the values away:
      // shown once the learner has answered (one gate: a prompt holds one box)
      ask.shape.gate(codeCell(`inputs = torch.tensor(${pyList(x.values, x.shape)})\nattn_weights = torch.tensor(${pyList(w.values, w.shape)})\nall_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)`,
        out.line, { cell: 'toy/all_context_vecs' }), place(toy.el),
      para('Row two of attn_weights is ', list(rowOf(w, 1)), ', so it selects the second input token alone, giving ', list(rowOf(out, 1)), '. Row three is ', list(rowOf(w, 2)), ', so it blends all three inputs:'),
      tex(`\\begin{aligned}&${mix} \\\\ &= ${list(rowOf(out, 2))}\\end{aligned}`, true)));   // two lines: a phone's width
  }

  // The bug hunt: the batched product with the weights as corrupted (drawn and printed), next to the same
  // vectors one token at a time. A row corruption is not named until the learner finds it or asks.
  function debugging(r, words, n) {
    syncGuessButtons(words);
    const wrap = h('div', { class: 'debug' }, h('h3', { text: 'Find the bug: check the batched result against one token at a time' }),
      para('Compare each row of a batched result with the same context vector computed one token at a time. If a single row disagrees, the bug lies in that row of attn_weights; if every row disagrees, suspect what they share: the inputs, or how the weights were built. Let the page plant a bug, then find it:'),
      place(controls));
    const used = r('debug/attn_weights'), result = r('debug/all_context_vecs');
    const rows = Array.from({ length: n }, (_, i) => [r(`debug/batched/${i + 1}`), r(`debug/one_token/${i + 1}`)]);
    const failed = [used, result, ...rows.flat()].find((x) => x.error);
    if (failed) {
      wrap.append(errorNote(`The row-by-row check could not be computed: ${failed.error}`));
      guessBox.hidden = true;
      return wrap;
    }
    const hunting = corruption.kind === 'row' && !hunt.solved && !hunt.revealed;
    const inputsKind = corruption.kind === 'inputs';
    debugShown = { c: result, words };
    const d = r('inputs').shape[1];
    debugProduct.update({ a: drawn(used, words, words, used.line), b: drawn(r('inputs'), words, dims(d)), c: drawn(result, words, dims(d), result.line) });
    const code = corruption.kind === 'row' ? `attn_weights = plant_bug(attn_weights)   # one row changed: which?\nall_context_vecs = attn_weights @ inputs\nprint(attn_weights)\nprint(all_context_vecs)`
      : 'all_context_vecs = attn_weights @ inputs[:, [1, 0, *range(2, d_in)]]   # the inputs read wrongly\nprint(all_context_vecs)';
    // the code and the drawing appear with a bug: without one they would repeat the cell and the product above
    if (corruption.kind !== 'none') wrap.append(h('pre', { class: 'code' }, h('code', { class: 'language-python', text: code })), place(debugProduct.el));

    let disagree = 0;
    const tbody = h('tbody', null, rows.map(([a, b], i) => {
      const same = a.print === b.print;
      if (!same) disagree++;
      const mark = hunting ? '?' : same ? '✓ yes' : '✗ no';
      // data-label: each cell's column, written before it when a phone stacks the rows (element.css);
      // the explicit roles keep the table a table for assistive technology once it is display: block
      return h('tr', { class: same || hunting ? null : 'bad', role: 'row' }, h('th', { scope: 'row', role: 'rowheader', text: `${i + 1} ${words[i]}` }),
        h('td', { role: 'cell', 'data-label': 'batched row' }, h('code', { text: a.print })), h('td', { role: 'cell', 'data-label': 'one token at a time' }, h('code', { text: b.print })),
        h('td', { role: 'cell', 'data-label': 'agree?', text: mark }));
    }));
    tbody.setAttribute('role', 'rowgroup');
    const table = h('table', { class: 'compare', role: 'table' }, h('caption', { text: 'Row by row: batched vs one token at a time (to 4 decimals)' }),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, ['token', 'batched row', 'one token at a time', 'agree?'].map((t) => h('th', { scope: 'col', role: 'columnheader', text: t })))), tbody);
    const inputsNote = 'the batched product read the inputs with columns 1 and 2 swapped.';
    const verdict = corruption.impossible ? 'Every row of these weights reads the same reversed, so a reversed row would change nothing: there is no bug to plant.'
      : hunting ? `One row of attn_weights has been changed. Compare the prints above with the book’s attn_weights further up, or each batched row with its one-token-at-a-time vector, and name the row.`
        : disagree === 0 ? 'Every row agrees: the batched product and the loop compute the same context vectors.'
          : disagree === 1 && corruption.kind === 'row' ? `Exactly one row disagrees, so look at that row of attn_weights: row ${corruption.row + 1} (“${words[corruption.row]}”).`
            : `${disagree} of ${n} rows disagree, so look at what they share${inputsKind ? `: ${inputsNote}` : '.'}`;
    guessBox.hidden = corruption.kind !== 'row';
    wrap.append(h('div', { class: 'scroll' }, table), h('p', { class: 'verdict', role: 'status', 'data-testid': 'debug-verdict', text: verdict }), place(guessBox),
      ...(corruption.kind === 'row' ? [feedback(r, words)] : []));
    return wrap;
  }

  // The answer to the learner's guess. It names the corrupted row, and how, only once found or asked for.
  function feedback(r, words) {
    const k = corruption.row;
    if (!hunt.solved && !hunt.revealed && hunt.last === undefined) return h('p', { class: 'guess-feedback', 'data-testid': 'guess-feedback', role: 'status', hidden: true });
    const attrs = { class: 'guess-feedback', 'data-testid': 'guess-feedback', role: 'status' };
    if (hunt.solved || hunt.revealed) {
      const before = rowOf(r('3.3.2/attn_weights'), k), after = rowOf(r('debug/attn_weights'), k);
      const found = hunt.solved ? `Yes: row ${k + 1} (“${words[k]}”).` : `It was row ${k + 1} (“${words[k]}”).`;
      const same = r(`debug/batched/${k + 1}`).print === r(`debug/one_token/${k + 1}`).print;
      return h('p', { ...attrs, 'data-correct': hunt.solved ? 'true' : 'false', 'data-revealed': String(!hunt.solved),
        text: `${found} Its weights were put in reverse order: ${vec4(before)} became ${vec4(after)}, so row ${k + 1} of all_context_vecs ${same ? 'happens to print the same to 4 decimals, but was mixed' : 'was mixed'} with the wrong weights. Press Undo to restore them.` });
    }
    const i = hunt.last;
    const same = r(`debug/batched/${i + 1}`).print === r(`debug/one_token/${i + 1}`).print;
    return h('p', { ...attrs, 'data-correct': 'false',
      text: `Not row ${i + 1} (“${words[i]}”): ${same ? `its batched row ${r(`debug/batched/${i + 1}`).print} is exactly the one-token-at-a-time vector` : 'its weights were not changed'}. Try another row.` });
  }

  return { el, update };
}
