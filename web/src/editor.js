// The learner's inputs: the words with their vectors (2 to 16 tokens of 1 to 16 numbers, rows and
// columns added or removed here), the seed and d_out. A bad field is marked at that field
// (aria-invalid + a message) and the page computes with the value it held before the learner began
// typing in it, never a prefix typed on the way. Beside the fields, the attention weights these
// inputs give (§3.4.1's, from the engine), so an edit shows its effect where the learner is typing.
import { h, para, uid } from './dom.js';
import { seedRule, LIMITS, parseValue, parseWord, parseSeed, parseDOut, resizeState } from './inputs.js';
import { matrixView } from './views/index.js';
import { t } from './i18n/index.js';

const sup = (n) => String(n).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d]);

// Collapsed at first: the first screen shows the attention itself, not a form. Its body (about 240
// elements: the fields and the preview) is built when the learner first opens it, for the inputs of
// that moment, and follows every edit after. Built at load (a task of the first pass), it was a tenth of
// the load's main-thread time throttled 4×, and Chromium's autofill then laid the closed body out to
// ask whether each of its 26 fields could take focus (docs/performance.md, eighth session).
export function editorPanel(ctx) {
  const el = h('details', { class: 'editor' }, h('summary', { text: t('editor.summary') }));
  let body = null;
  // (an engine error is the page's status line's, which §3.4's update of the same answer shows)
  el.addEventListener('toggle', () => {
    if (!el.open || body) return;
    body = editorBody(ctx);
    el.append(...body.nodes);
    try { body.update(); } catch { /* reported by the section */ }
  });
  return { el, update: () => body?.update() };
}

// The editor's fields, size buttons and preview, and its update.
function editorBody(ctx) {
  const state = ctx.state;
  const book = ctx.start;   // Reset brings back the starting example
  const table = h('table', { class: 'editor-grid' });
  const messages = h('div', { class: 'messages' });
  let gridFields = [];

  // A field and its message (placed in `where`). current: the value the page computes with;
  // before: the value it held when the learner began typing (taken at focus and at each commit).
  function field(input, label, parse, apply, value, where, said = String) {
    const msg = h('p', { class: 'field-error', id: uid('err'), hidden: true });
    input.setAttribute('aria-label', label);
    const f = { input, msg, parse, apply, label, said, current: value, before: value };
    input.value = value === null ? '' : String(value);
    input.addEventListener('focus', () => { f.before = f.current; });
    input.addEventListener('change', () => { if (!f.parse(f.input.value).error) f.before = f.current; });
    input.addEventListener('input', () => { if (check(f)) ctx.recompute(); });
    where.append(msg);
    return f;
  }
  // Marks or clears the field at once (the recompute follows in the next frame); true when the value
  // the page computes with changed or may have.
  function check(f) {
    const r = f.parse(f.input.value);
    if (r.error) {
      f.input.setAttribute('aria-invalid', 'true');
      f.input.setAttribute('aria-describedby', f.msg.id);
      f.msg.textContent = t('editor.fieldError', { label: f.label, error: r.error, before: f.said(f.before) });
      f.msg.hidden = false;
      if (Object.is(f.current, f.before)) return false;
      f.current = f.before;   // not a prefix typed on the way: the value from before the typing
      f.apply(f.current);
      return true;
    }
    if (!f.msg.hidden) {
      f.input.removeAttribute('aria-invalid');
      f.input.removeAttribute('aria-describedby');
      f.msg.hidden = true;
      f.msg.textContent = '';
    }
    f.current = r.value;
    f.apply(r.value);
    return true;
  }

  // The grid for the state's current size: one row per token (its word, its d_in numbers), each row's
  // messages right below it. Rebuilt when the size changes; every field shows the value in use.
  function buildGrid() {
    const { tokens: T, d_in: D } = state;
    const cols = Array.from({ length: D }, (_, j) => j);
    const tbody = h('tbody');
    gridFields = [];
    for (let i = 0; i < T; i++) {
      const rowMessages = h('td', { colspan: String(D + 2) });
      const word = field(h('input', { type: 'text', class: 'word-input', autocomplete: 'off', spellcheck: 'false', 'data-testid': `word-${i + 1}` }),
        t('editor.wordLabel', { i: i + 1 }), parseWord, (v) => { state.words[i] = v; }, state.words[i], rowMessages, (v) => t('editor.quotedWord', { word: v }));
      const cells = cols.map((j) => field(h('input', { type: 'text', inputmode: 'decimal', class: 'num-input', autocomplete: 'off', 'data-testid': `x-${i + 1}-${j + 1}` }),
        t('editor.valueLabel', { i: i + 1, j: j + 1 }), parseValue, (v) => { state.inputs[i * D + j] = v; }, state.inputs[i * D + j], rowMessages));
      gridFields.push(word, ...cells);
      // the header as text (x⁽¹⁾), which every reader and checker takes for the header's name
      tbody.append(h('tr', null, h('th', { scope: 'row', class: 'token-head' }, h('i', { text: 'x' }), `⁽${sup(i + 1)}⁾`), h('td', null, word.input), cells.map((c) => h('td', null, c.input))),
        h('tr', { class: 'err-row' }, rowMessages));
    }
    table.replaceChildren(h('caption', { text: t('editor.caption', { d: D }) }),
      h('thead', null, h('tr', null, h('th', { scope: 'col', text: t('editor.colToken') }), h('th', { scope: 'col', text: t('editor.colWord') }),
        cols.map((j) => h('th', { scope: 'col', text: `x${j + 1}` })))), tbody);
    sizeText.textContent = t('editor.size', { tokens: T, dims: D });
    addToken.disabled = T >= LIMITS.tokensMax; removeToken.disabled = T <= LIMITS.tokensMin;
    addDim.disabled = D >= LIMITS.dInMax; removeDim.disabled = D <= 1;
  }

  // The size: rows and columns added (0s, words token7, ...) or removed, always the last one; every
  // section follows.
  const sizeButton = (testid, text, title) => h('button', { type: 'button', 'data-testid': testid, text, title });
  const addToken = sizeButton('add-token', t('editor.addToken'), t('editor.addTokenTitle')), removeToken = sizeButton('remove-token', t('editor.removeToken'), t('editor.removeTokenTitle'));
  const addDim = sizeButton('add-dim', t('editor.addDim'), t('editor.addDimTitle')), removeDim = sizeButton('remove-dim', t('editor.removeDim'), t('editor.removeDimTitle'));
  const sizeText = h('span', { class: 'size', 'data-testid': 'editor-size', 'aria-live': 'polite' });
  function resize(tokens, d_in) {
    Object.assign(state, resizeState(state, tokens, d_in));
    buildGrid();
    ctx.recompute();
  }
  addToken.addEventListener('click', () => resize(state.tokens + 1, state.d_in));
  removeToken.addEventListener('click', () => resize(state.tokens - 1, state.d_in));
  addDim.addEventListener('click', () => resize(state.tokens, state.d_in + 1));
  removeDim.addEventListener('click', () => resize(state.tokens, state.d_in - 1));

  const seedHelp = h('p', { class: 'hint', id: uid('seed-help'), 'data-testid': 'seed-rule', text: seedRule() });
  const seed = field(h('input', { type: 'text', inputmode: 'numeric', class: 'num-input seed-input', autocomplete: 'off', placeholder: t('editor.seedPlaceholder'), 'data-testid': 'seed' }),
    t('editor.seedLabel'), parseSeed, (v) => { state.seed = v; }, state.seed, messages, (v) => (v === null ? t('editor.bookSeeds') : t('editor.seedValue', { seed: v })));
  const dOut = field(h('input', { type: 'text', inputmode: 'numeric', class: 'num-input', autocomplete: 'off', 'data-testid': 'd_out' }),
    'd_out', parseDOut, (v) => { state.d_out = v; }, state.d_out, messages, (v) => `d_out = ${v}`);
  const reset = h('button', { type: 'button', 'data-testid': 'reset', text: book.custom ? t('editor.resetStart') : t('editor.resetBook') });
  reset.addEventListener('click', () => {
    for (const [f, v] of [[seed, book.seed], [dOut, book.d_out]]) { f.input.value = v === null ? '' : String(v); check(f); f.before = f.current; }
    Object.assign(state, { words: book.words.slice(), inputs: book.inputs.slice(), tokens: book.tokens, d_in: book.d_in });
    buildGrid();
    ctx.recompute();
  });
  buildGrid();

  const preview = matrixView(null, { name: 'attn_weights', title: t('editor.previewTitle'),
    testid: 'editor-weights', rowName: t('word.query'), colName: t('word.key'), scale: 'rows' });

  const nodes = [
    para(book.custom ? t('editor.introStart') : t('editor.introBook')),
    h('div', { class: 'editor-body' }, h('div', { class: 'scroll' }, table), preview.el),
    h('div', { class: 'controls size-controls' }, sizeText,
      h('span', { class: 'size-group' }, addToken, removeToken), h('span', { class: 'size-group' }, addDim, removeDim)),
    h('div', { class: 'controls' }, h('label', null, 'torch.manual_seed(', seed.input, ')'), h('label', null, 'd_out = ', dOut.input), reset),
    seedHelp, messages];

  // An edit: the preview redrawn from §3.4's engine answer (the same call the section makes), when it changed.
  let shown = null;
  function update() {
    const answer = ctx.data('step-by-step');
    const key = `${answer.text}\u0000${state.words.join('\u0000')}`;
    if (key === shown) return;
    shown = key;
    const w = answer.get('attn_weights');
    preview.update({ values: w.values, texts: w.values.map(String), shape: w.shape, rowLabels: state.words, colLabels: state.words });
  }
  return { nodes, update };
}
