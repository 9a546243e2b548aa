// The learner's inputs: six words with their vectors, the seed and d_out. A bad field is marked at
// that field (aria-invalid + a message) and keeps its last good value, so nothing else breaks. Beside
// the fields, the attention weights these inputs give (§3.4.1's, from the engine), so an edit shows its
// effect where the learner is typing, not only in the sections below.
import { h, tex, para, uid } from './dom.js';
import { SEED_RULE, parseValue, parseWord, parseSeed, parseDOut } from './model.js';
import { matrixView } from './views/index.js';

export function editorPanel(ctx) {
  const fields = [];   // {input, parse, apply(value), bookText(), msg}
  // The example's size (the book's 6 tokens × 3, or the author's inputs attribute): fixed while shown.
  const { tokens: TOKENS, d_in: D_IN } = ctx.start;
  const cols = Array.from({ length: D_IN }, (_, j) => j);
  const table = h('table', { class: 'editor-grid' }, h('caption', { text: `The input tokens: a word and its ${D_IN}-dimensional embedding x(i)` }),
    h('thead', null, h('tr', null, h('th', { scope: 'col', text: 'token' }), h('th', { scope: 'col', text: 'word' }),
      cols.map((j) => h('th', { scope: 'col', text: `x${j + 1}` })))));
  const tbody = h('tbody');
  const messages = h('div', { class: 'messages' });

  // A field and its message; the message is placed right below the field's row (`where`).
  function field(input, label, parse, apply, bookText, where = messages) {
    const msg = h('p', { class: 'field-error', id: uid('err'), hidden: true });
    input.setAttribute('aria-label', label);
    const f = { input, msg, parse, apply, bookText, label };
    input.addEventListener('input', () => { if (check(f)) ctx.recompute(); });
    fields.push(f);
    where.append(msg);
    return input;
  }
  // Marks or clears the field at once (the recompute follows in the next frame); true when valid.
  function check(f) {
    const r = f.parse(f.input.value);
    if (r.error) {
      f.input.setAttribute('aria-invalid', 'true');
      f.input.setAttribute('aria-describedby', f.msg.id);
      f.msg.textContent = `${f.label}: ${r.error}`;
      f.msg.hidden = false;
      return false;
    }
    if (!f.msg.hidden) {
      f.input.removeAttribute('aria-invalid');
      f.input.removeAttribute('aria-describedby');
      f.msg.hidden = true;
      f.msg.textContent = '';
    }
    f.apply(r.value);
    return true;
  }

  const book = ctx.start;   // Reset brings back the starting example
  for (let i = 0; i < TOKENS; i++) {
    const rowMessages = h('td', { colspan: String(D_IN + 2) });
    const word = field(h('input', { type: 'text', class: 'word-input', autocomplete: 'off', spellcheck: 'false', 'data-testid': `word-${i + 1}` }),
      `Word of token ${i + 1}`, parseWord, (v) => { ctx.state.words[i] = v; }, () => book.words[i], rowMessages);
    const cells = cols.map((j) => h('td', null, field(h('input', { type: 'text', inputmode: 'decimal', class: 'num-input', autocomplete: 'off', 'data-testid': `x-${i + 1}-${j + 1}` }),
      `Token ${i + 1}, value ${j + 1}`, parseValue, (v) => { ctx.state.inputs[i * D_IN + j] = v; }, () => String(book.inputs[i * D_IN + j]), rowMessages)));
    tbody.append(h('tr', null, h('th', { scope: 'row' }, tex(`x^{(${i + 1})}`)), h('td', null, word), cells),
      h('tr', { class: 'err-row' }, rowMessages));
  }
  table.append(tbody);

  const seedHelp = h('p', { class: 'hint', id: uid('seed-help'), 'data-testid': 'seed-rule', text: SEED_RULE });
  const seedInput = field(h('input', { type: 'text', inputmode: 'numeric', class: 'num-input seed-input', autocomplete: 'off', placeholder: 'book’s', 'data-testid': 'seed' }),
    'Seed', parseSeed, (v) => { ctx.state.seed = v; }, () => (book.seed === null ? '' : String(book.seed)));
  const dOutInput = field(h('input', { type: 'text', inputmode: 'numeric', class: 'num-input', autocomplete: 'off', 'data-testid': 'd_out' }),
    'd_out', parseDOut, (v) => { ctx.state.d_out = v; }, () => String(book.d_out));
  const reset = h('button', { type: 'button', 'data-testid': 'reset', text: book.custom ? 'Reset to the starting values' : 'Reset to the book’s values' });
  reset.addEventListener('click', () => { fill(); ctx.recompute(); });

  // Puts the book's values in every field and clears every mark.
  function fill() {
    for (const f of fields) { f.input.value = f.bookText(); check(f); }
  }
  fill();

  const preview = matrixView({ values: [0], shape: [1, 1] }, { name: 'attn_weights', title: 'α = softmax(ω / √d_k) for these inputs (§3.4.1)',
    testid: 'editor-weights', rowName: 'query', colName: 'key', scale: 'rows' });

  // collapsed at first: the first screen shows the attention itself, not a form
  const el = h('details', { class: 'editor' },
    h('summary', { text: 'Edit the inputs: words, vectors, seed, d_out' }),
    para(`Change any value and every tensor below is recomputed by the engine at once. ${book.custom ? 'The starting values' : 'The book’s values'} come back with Reset.`),
    h('div', { class: 'editor-body' }, h('div', { class: 'scroll' }, table), preview.el),
    h('div', { class: 'controls' }, h('label', null, 'torch.manual_seed(', seedInput, ')'), h('label', null, 'd_out = ', dOutInput), reset),
    seedHelp, messages);

  // An edit: the preview redrawn from §3.4's engine answer (the same call the section makes), when it changed.
  let shown = null;
  function update() {
    const answer = ctx.data('step-by-step');
    const key = `${answer.text}\u0000${ctx.state.words.join('\u0000')}`;
    if (key === shown) return;
    shown = key;
    const w = answer.get('attn_weights');
    preview.update({ values: w.values, texts: w.values.map(String), shape: w.shape, rowLabels: ctx.state.words, colLabels: ctx.state.words });
  }
  return { el, update };
}
