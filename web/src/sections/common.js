// Building blocks the sections share: the section frame, matrices with hover/focus precision, Python
// literals of the learner's inputs, and outputs as the engine printed them.
import { h, uid, pythonCode, morph, renderMath } from '../dom.js';

export function sectionFrame(id, heading, intro) {
  const headingId = uid(id);
  const body = h('div', { class: 'section-body' });
  const el = h('section', { class: 'section', id: `al-${id}`, tabindex: '-1', 'aria-labelledby': headingId, 'data-section': id },
    h('h2', { id: headingId, text: heading }), intro || null, body);
  return { el, body };
}

// A matrix as a table. decimals: what is drawn (the book's figure uses 1); such cells are focusable
// and show the engine's full float32 (its shortest text) on hover and focus.
export function matrixTable(t, { name, decimals = 4, rowLabels, colLabel = (j) => String(j + 1), highlightRow = -1 }) {
  const [rows, cols] = t.shape.length === 2 ? t.shape : [1, t.shape[0]];
  const head = h('tr', null, h('th', { scope: 'col', class: 'corner', text: '' }),
    Array.from({ length: cols }, (_, j) => h('th', { scope: 'col', text: colLabel(j) })));
  const body = Array.from({ length: rows }, (_, i) => h('tr', { class: i === highlightRow ? 'hl' : null },
    h('th', { scope: 'row', text: rowLabels ? rowLabels[i] : String(i + 1) }),
    Array.from({ length: cols }, (_, j) => {
      const v = t.values[i * cols + j];
      const full = String(v);
      const precise = decimals < 4;
      return h('td', { tabindex: precise ? '0' : null, 'data-full': precise ? full : null, title: precise ? full : null,
        'data-row': i, 'data-col': j, 'data-value': full,
        'aria-label': precise ? `${name} row ${i + 1}, column ${j + 1}: ${full}` : null, text: Number(v).toFixed(decimals) });
    })));
  return h('div', { class: 'scroll' }, h('table', { class: 'matrix', 'data-matrix': name },
    h('caption', { text: name }), h('thead', null, head), h('tbody', null, body)));
}

// Python text for the learner's inputs (the engine's shortest texts), the words as comments, as the book writes them.
export function inputsPython(inputs, words) {
  const [tokens, d_in] = inputs.shape;
  const rows = Array.from({ length: tokens }, (_, i) => {
    const vals = inputs.values.slice(i * d_in, (i + 1) * d_in).map(String);
    const open = i === 0 ? '[[' : ' [';
    const close = i === tokens - 1 ? ']]' : '],';
    return `${open}${vals.join(', ')}${close} # ${words[i].replace(/[\r\n]/g, ' ')}  (x^${i + 1})`;
  });
  return `inputs = torch.tensor(\n${rows.join('\n')}\n)`;
}

// A Python list literal, e.g. [[1., 2.], [3., 4.]] (PyTorch-style floats), from an engine result.
export function pyList(values, shape) {
  const num = (v) => (Number.isInteger(v) ? `${v}.` : String(v));
  if (shape.length === 1) return `[${values.map(num).join(', ')}]`;
  const inner = shape.slice(1).reduce((a, b) => a * b, 1);
  return `[${Array.from({ length: shape[0] }, (_, i) => pyList(values.slice(i * inner, (i + 1) * inner), shape.slice(1))).join(', ')}]`;
}

// The output <pre> of a result as print shows it, with one line of it highlighted.
export function outWithRow(text, row, extra = {}) {
  const pre = h('pre', { class: 'out', 'data-cell': extra.cell, 'data-testid': extra.testid });
  text.split('\n').forEach((line, i, all) => {
    const t = line + (i < all.length - 1 ? '\n' : '');
    pre.append(i === row ? h('mark', { text: t }) : document.createTextNode(t));
  });
  return pre;
}

export function errorNote(message) {
  return h('p', { class: 'note error', role: 'status', text: message });
}

// A result's output as print shows it (or its sentence), under its code: the page's usual cell.
export function resultCell(python, r, cell, { row = -1, extra = null } = {}) {
  return h('div', { class: 'cell' }, pythonCode(python),
    r.error ? errorNote(r.error) : outWithRow(r.line, row, { cell }), extra);
}

export function listing(title, code) {
  return h('details', { class: 'listing' }, h('summary', { text: title }), pythonCode(code));
}

// Puts a section's new content in place: patched into what is shown, then its new math rendered.
export function show(body, ...children) {
  morph(body, h('div', null, ...children));
  renderMath(body);
}
