// A stepper step's own compact drawing: its operands and its result side by side, with the digits its
// caption computes with (4 decimals, even where the big drawing rounds to 1, as W_q does), so that
// the whole step fits in one window beside the caption. Every number is given by the caller (the
// engine's); each operand and result carries data-step-role, each cell data-value (the full text).
import { el } from './nodes.js';
import { fixed, shortestFloat32 } from './format.js';

// stepFocus(parts) -> a Node for a step's `focus`
//   parts: operator texts ('·', '=', '÷ 1.4142', …) and tensors
//          {role: 'operand'|'result', label, values, shape: [rows, cols], texts?, decimals = 4,
//           compact?} (compact: only its name and shape, for a tensor too big to draw here)
export function stepFocus(parts) {
  // hidden from screen readers: the stepper's caption (aria-live) says the same, in words
  return el('div', { class: 'sf', 'aria-hidden': 'true' }, parts.map((part) => (typeof part === 'string'
    ? el('span', { class: 'sf-op', text: part })
    : tensor(part))));
}

function tensor({ role, label, values, shape, texts, decimals = 4, name, compact = false }) {
  const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape;
  // too big to draw beside a caption: its name and shape (the stage below draws its values)
  if (compact) return el('figure', { class: 'sf-item sf-compact', 'data-step-role': role, 'data-name': name || label }, el('span', { class: 'sf-label', text: `${label} (${rows}×${cols})` }));
  if (values.length !== rows * cols) throw new Error(`${label}: ${values.length} values for shape [${shape.join(', ')}]`);
  const lines = [];
  for (let i = 0; i < rows; i++) {
    const cells = [];
    for (let j = 0; j < cols; j++) {
      const k = i * cols + j;
      const text = texts && texts[k] != null ? String(texts[k]) : shortestFloat32(values[k]);
      cells.push(el('td', { 'data-row': i, 'data-col': j, 'data-value': text, text: fixed(values[k], decimals) }));
    }
    lines.push(el('tr', null, cells));
  }
  // a row of more than 6 wraps; a matrix of more than 6 columns is its name and shape on a phone (views.css)
  return el('figure', { class: 'sf-item', 'data-step-role': role, 'data-name': name || label, 'data-wrap': rows === 1 && cols > 6 ? '' : null, 'data-wide': rows > 1 && cols > 6 ? '' : null },
    el('figcaption', { class: 'sf-label', text: `${label} (${rows}×${cols})` }),
    el('table', { class: 'sf-grid' }, el('tbody', null, lines)));
}
