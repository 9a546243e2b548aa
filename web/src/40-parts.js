// Building blocks the sections share: the section frame, matrices with hover/focus precision,
// Python literals of the learner's inputs, and the engine's batched-vs-one-token check.

const SECTIONS = ['batched', 'step-by-step', 'temperature', 'classes', 'causal', 'multi-head'];

function sectionFrame(id, heading, intro) {
  const headingId = uid(id);
  const body = h('div', { class: 'section-body' });
  const el = h('section', { class: 'section', id: `al-${id}`, tabindex: '-1', 'aria-labelledby': headingId, 'data-section': id },
    h('h2', { id: headingId, text: heading }), intro || null, body);
  return { el, body };
}

// A matrix as a table. decimals: what is drawn (the book's figure uses 1); every cell is focusable
// and shows the engine's full float32 on hover and focus.
function matrixTable(t, { name, decimals = 4, rowLabels, colLabel = (j) => String(j + 1), highlightRow = -1 }) {
  const [rows, cols] = t.shape.length === 2 ? t.shape : [1, t.shape[0]];
  const head = h('tr', null, h('th', { scope: 'col', class: 'corner', text: '' }),
    Array.from({ length: cols }, (_, j) => h('th', { scope: 'col', text: colLabel(j) })));
  const body = Array.from({ length: rows }, (_, i) => h('tr', { class: i === highlightRow ? 'hl' : null },
    h('th', { scope: 'row', text: rowLabels ? rowLabels[i] : String(i + 1) }),
    Array.from({ length: cols }, (_, j) => {
      const v = t.values[i * cols + j];
      const full = fullFloat(v);
      return h('td', { tabindex: decimals < 4 ? '0' : null, 'data-full': decimals < 4 ? full : null, title: decimals < 4 ? full : null,
        'aria-label': decimals < 4 ? `${name} row ${i + 1}, column ${j + 1}: ${full}` : null, text: Number(v).toFixed(decimals) });
    })));
  return h('div', { class: 'scroll' }, h('table', { class: 'matrix', 'data-matrix': name },
    h('caption', { text: name }), h('thead', null, head), h('tbody', null, body)));
}

// Python text for the learner's inputs, with the words as comments, as the book writes them.
function inputsPython(state) {
  const rows = Array.from({ length: TOKENS }, (_, i) => {
    const vals = Array.from(state.inputs.subarray(i * D_IN, (i + 1) * D_IN), (v) => fullFloat(v));
    const open = i === 0 ? '[[' : ' [';
    const close = i === TOKENS - 1 ? ']]' : '],';
    return `${open}${vals.join(', ')}${close} # ${state.words[i].replace(/[\r\n]/g, ' ')}  (x^${i + 1})`;
  });
  return `inputs = torch.tensor(\n${rows.join('\n')}\n)`;
}

// A Python list literal from values, e.g. [[1., 2.], [3., 4.]] (PyTorch-style floats).
function pyList(values, shape) {
  const num = (v) => (Number.isInteger(v) ? `${v}.` : fullFloat(v));
  if (shape.length === 1) return `[${Array.from(values, num).join(', ')}]`;
  const inner = shape.slice(1).reduce((a, b) => a * b, 1);
  return `[${Array.from({ length: shape[0] }, (_, i) => pyList(values.subarray(i * inner, (i + 1) * inner), shape.slice(1))).join(', ')}]`;
}

// (rows, n) @ (n, cols) by the engine's matmul request; throws its sentence if it cannot.
function engineMatmul(engine, a, aShape, b, bShape) {
  return answerTensor(evalJson(engine, { op: 'matmul', a: nested(a, aShape), b: nested(b, bShape) }));
}

// The golden cell's line as Python prints it: print(label, value) or print(value).
function cellLine(cell) {
  return cell.label ? `${cell.label} ${cell.print}` : cell.print;
}

// The output <pre>, with one line of it highlighted (the row a paragraph talks about).
function outWithRow(print, row, extra = {}) {
  const pre = h('pre', { class: 'out', 'data-cell': extra.cell, 'data-testid': extra.testid });
  print.split('\n').forEach((line, i, all) => {
    const text = line + (i < all.length - 1 ? '\n' : '');
    pre.append(i === row ? h('mark', { text }) : document.createTextNode(text));
  });
  return pre;
}

function errorNote(message) {
  return h('p', { class: 'note error', role: 'status', text: message });
}
