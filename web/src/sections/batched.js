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
import { t, engineSentence } from '../i18n/index.js';

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
    hint: t('batched.hoverFocusRowAll'),
    a: opts('attn_weights', 'attn_weights', { rowName: t('word.query'), colName: t('word.key'), scale: 'rows' }),
    b: opts('inputs', 'inputs', { rowName: t('word.token'), colName: t('word.dimension') }),
    c: opts('all_context_vecs', 'all_context_vecs', { rowName: t('word.token'), colName: t('word.dimension'), testid: prints ? `${testid}-out` : undefined }),
  });
}

function build(ctx) {
  const { el, body } = sectionFrame('batched', t('batched.title'));
  const ask = batchedPrompts(ctx);   // predict, then reveal: the toy product's shape
  // the sentence under a product for its linked row: row i of C as the weighted mix of B's rows
  const describeWith = (get, stem) => (i, weights) => {
    const { c, words } = get();
    return t('batched.rowAllContextVecs', { p1: i + 1, p2: words ? ` (“${words[i]}”)` : '', p3: mixText(weights, stem), p4: vec4(rowOf(c, i)) });
  };
  let shown = null, toyShown = null, debugShown = null;   // what each product draws now (for its sentence)
  const product = weightsProduct('batched-product', t('batched.attnWeightsTimesInputs'), describeWith(() => shown, (j) => `x⁽${sup(j + 1)}⁾`));
  const toy = weightsProduct('toy-product', t('batched.toyAttnWeightsTimes'), describeWith(() => toyShown, (j) => t('batched.rowInputs', { p1: j + 1 })));
  const debugProduct = weightsProduct('debug-product', t('batched.weightsBatchedPathUsed'), describeWith(() => debugShown, (j) => `x⁽${sup(j + 1)}⁾`), { prints: true });

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
    h('button', { type: 'button', 'data-testid': 'corrupt-random', onclick: corruptRandom, text: t('batched.corruptRandomRowAttn') }),
    h('button', { type: 'button', 'data-testid': 'corrupt-inputs', onclick: () => { corruption = { kind: 'inputs', row: 0 }; newHunt(); update(); }, text: t('batched.corruptSharedInputs') }),
    h('button', { type: 'button', 'data-testid': 'corrupt-undo', onclick: () => { corruption = { kind: 'none', row: 0 }; newHunt(); update(); }, text: t('batched.undo') }));
  // One button per row (data-row from 0, as the drawn cells'), kept across updates with their focus.
  const guessButtons = h('div', { class: 'controls guesses', role: 'group', 'aria-label': t('batched.whichRowAttnWeights') });
  const showMe = h('button', { type: 'button', 'data-testid': 'guess-show', text: t('batched.showMe'), onclick: () => { hunt.revealed = true; update(true); } });
  const guessBox = h('div', { class: 'guess', hidden: true }, h('p', { text: t('batched.whichRowAttnWeights2') }), guessButtons, h('div', { class: 'controls' }, showMe));
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
      para(t('batched.bookBuildsContextVector')),
      h('p', null, t('batched.tokens', { n: words.length }), h('span', { class: 'words' }, words.map((w, i) => h('span', { class: 'word' }, h('b', { text: w }), tex(`x^{(${i + 1})}`))))),
      // the tensor first, then the code that made it: "read the tensor it produces first, then reason backward"
      para(t('batched.eachRowOutputOne'), words[0], t('batched.rowTwoSecond'), words[1], t('batched.soBecauseRowAttn')),
      place(product.el),
      para(t('batched.weightsAreColouredPer')),
      para(t('batched.codeThatComputesWrites')),
      codeCell(`import torch\n${inputsPython(inputs, words)}\nattn_scores = inputs @ inputs.T\nattn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)`, weights.line, { cell: '3.3.2/attn_weights' }),
      codeCell('all_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)', out.line, { cell: '3.3.2/all_context_vecs', testid: 'all-context-vecs' }),
      h('h3', { text: t('batched.shapesFirst') }),
      para(t('batched.attnWeightsHasOne'), ['$', `${n}\\times ${n2}`], t('batched.inputsHasOneRow'), ['$', `d=${d}`], t('batched.valuesComma'), ['$', `${inputs.shape[0]}\\times ${d}`], t('batched.productConsumesSharedDimension'), ['$', `n=${n2}`], t('batched.leavingOneRowPer'), ['$', `${d}`], t('batched.columnsColon')),
      tex(`\\underbrace{(n\\times n)}_{${n}\\times ${n2}}\\cdot\\underbrace{(n\\times d)}_{${inputs.shape[0]}\\times ${d}} = \\underbrace{(n\\times d)}_{${out.shape[0]}\\times ${out.shape[1]}}`, true),
      toyExample(r),
      debugging(r, words, n),
      h('h3', { text: t('batched.withTrainableWeights') }),
      para(t('batched.whatRanHereSimplified', { p1: placeNote(ctx, 'batched', 'step-by-step') })),
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
      h('h3', { text: t('batched.toyYouCanCheck') }),
      para(t('batched.tokensWithValuesEach', { p1: x.shape[0], p2: x.shape[1], p3: list(rowOf(w, 1)), p4: list(rowOf(w, 2)) })),
      ask.shape.placed(),
      // the code's print, the drawing and the rows worked out give the shape and the values away:
      // shown once the learner has answered (one gate: a prompt holds one box)
      ask.shape.gate(codeCell(`inputs = torch.tensor(${pyList(x.values, x.shape)})\nattn_weights = torch.tensor(${pyList(w.values, w.shape)})\nall_context_vecs = attn_weights @ inputs\nprint(all_context_vecs)`,
        out.line, { cell: 'toy/all_context_vecs' }), place(toy.el),
      para(t('batched.rowTwoAttnWeights'), list(rowOf(w, 1)), t('batched.soSelectsSecondInput'), list(rowOf(out, 1)), t('batched.rowThree'), list(rowOf(w, 2)), t('batched.soBlendsAllThree')),
      tex(`\\begin{aligned}&${mix} \\\\ &= ${list(rowOf(out, 2))}\\end{aligned}`, true)));   // two lines: a phone's width
  }

  // The bug hunt: the batched product with the weights as corrupted (drawn and printed), next to the same
  // vectors one token at a time. A row corruption is not named until the learner finds it or asks.
  function debugging(r, words, n) {
    syncGuessButtons(words);
    const wrap = h('div', { class: 'debug' }, h('h3', { text: t('batched.findBugCheckBatched') }),
      para(t('batched.compareEachRowBatched')),
      place(controls));
    const used = r('debug/attn_weights'), result = r('debug/all_context_vecs');
    const rows = Array.from({ length: n }, (_, i) => [r(`debug/batched/${i + 1}`), r(`debug/one_token/${i + 1}`)]);
    const failed = [used, result, ...rows.flat()].find((x) => x.error);
    if (failed) {
      wrap.append(errorNote(t('batched.rowRowCheckCould', { error: engineSentence(failed) })));
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
      const mark = hunting ? '?' : same ? t('batched.yes') : t('batched.no');
      // data-label: each cell's column, written before it when a phone stacks the rows (element.css);
      // the explicit roles keep the table a table for assistive technology once it is display: block
      return h('tr', { class: same || hunting ? null : 'bad', role: 'row' }, h('th', { scope: 'row', role: 'rowheader', text: `${i + 1} ${words[i]}` }),
        h('td', { role: 'cell', 'data-label': t('batched.batchedRow') }, h('code', { text: a.print })), h('td', { role: 'cell', 'data-label': t('batched.oneTokenTime') }, h('code', { text: b.print })),
        h('td', { role: 'cell', 'data-label': 'agree?', text: mark }));
    }));
    tbody.setAttribute('role', 'rowgroup');
    const table = h('table', { class: 'compare', role: 'table' }, h('caption', { text: t('batched.rowRowBatchedVs') }),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, [t('word.token'), t('batched.batchedRow2'), t('batched.oneTokenTime2'), t('batched.agree')].map((text) => h('th', { scope: 'col', role: 'columnheader', text })))), tbody);
    const inputsNote = t('batched.batchedProductReadInputs');
    const verdict = corruption.impossible ? t('batched.everyRowTheseWeights')
      : hunting ? t('batched.oneRowAttnWeights')
        : disagree === 0 ? t('batched.everyRowAgreesBatched')
          : disagree === 1 && corruption.kind === 'row' ? t('batched.exactlyOneRowDisagrees', { p1: corruption.row + 1, p2: words[corruption.row] })
            : t('batched.rowsDisagreeSoLook', { disagree, n, p3: inputsKind ? `: ${inputsNote}` : '.' });
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
      const found = hunt.solved ? t('batched.yesRow', { p1: k + 1, p2: words[k] }) : t('batched.wasRow', { p1: k + 1, p2: words[k] });
      const same = r(`debug/batched/${k + 1}`).print === r(`debug/one_token/${k + 1}`).print;
      return h('p', { ...attrs, 'data-correct': hunt.solved ? 'true' : 'false', 'data-revealed': String(!hunt.solved),
        text: t('batched.weightsWerePutReverse', { found, p2: vec4(before), p3: vec4(after), p4: k + 1, p5: same ? t('batched.happensPrintSameDecimals') : t('batched.wasMixed') }) });
    }
    const i = hunt.last;
    const same = r(`debug/batched/${i + 1}`).print === r(`debug/one_token/${i + 1}`).print;
    return h('p', { ...attrs, 'data-correct': 'false',
      text: t('batched.notRowTryAnother', { p1: i + 1, p2: words[i], p3: same ? t('batched.batchedRowExactlyOne', { print: r(`debug/batched/${i + 1}`).print }) : t('batched.weightsWereNotChanged') }) });
  }

  return { el, update };
}
