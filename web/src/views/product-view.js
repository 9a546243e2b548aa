// A matrix product drawn as its three tensors, A · B = C, each a matrixView with its shape badge.
// Hovering or focusing a row of C marks (data-linked="true") the row of A and every row of B it
// comes from, and fades each row of B by its weight in that row of A: the row is a weighted mix.
// It draws what it is given (the engine's tensors); it computes nothing but opacities.
import { el, setAttr, setText } from './nodes.js';
import { sched } from './schedule.js';
import { matrixView } from './matrix-view.js';
import { fixed } from './format.js';

const MIN_OPACITY = 0.12;   // a row of B with weight 0 stays faintly visible: it is there, it adds nothing

// productView({testid, a: {name, title, ...matrixView options}, b: {...}, c: {...}, describe?(row, weights)})
//   -> {el, update({a, b, c}), link(row), unlink()}; a, b, c: matrixView data (values, texts, shape, labels, print).
//   describe: the sentence under the drawing for a linked row (the caller words it from the engine's numbers).
//   B and C are drawn on one colour scale (C's legend is theirs): a row of C is a mix of B's rows.
export function productView(options) {
  const bOptions = { ...options.b, legend: false }, cOptions = { ...options.c };
  const a = matrixView(null, options.a);
  const [b, c] = [bOptions, cOptions].map((o) => matrixView(null, o));
  const note = el('p', { class: 'product-note', 'aria-live': 'polite', 'data-testid': options.testid && `${options.testid}-note` });
  const op = (text) => el('span', { class: 'product-op', 'aria-hidden': 'true', text });
  const root = el('div', { class: 'product', 'data-testid': options.testid, role: 'group', 'aria-label': options.label },
    // each operator travels with the operand after it when the line wraps
    el('div', { class: 'product-row' }, a.el, el('div', { class: 'product-term' }, op('·'), b.el), el('div', { class: 'product-term' }, op('='), c.el)), note);
  const hint = options.hint || '';
  setText(note, hint);
  let data = null, linked = -1;
  const marked = new Set();   // the cells carrying data-linked (and an opacity) now

  function unlink() {
    for (const td of marked) { td.removeAttribute('data-linked'); td.removeAttribute('data-weight'); td.style.opacity = ''; }
    marked.clear();
    linked = -1;
    a.clearHighlight(); c.clearHighlight();
    setText(note, hint);
  }
  const mark = (td, weightText, opacity) => {
    if (!td) return;
    td.setAttribute('data-linked', 'true');
    if (weightText != null) { td.setAttribute('data-weight', weightText); td.style.opacity = String(opacity); }
    marked.add(td);
  };
  // Row i of C: row i of A (its weights) and every row of B, each faded by its weight relative to the
  // row's largest (the largest at full strength).
  function link(i) {
    if (!data || i < 0 || i >= data.c.shape[0]) return;
    unlink();
    linked = i;
    const [, n] = data.a.shape, d = data.b.shape[1], cols = data.c.shape[1];
    const weights = data.a.values.slice(i * n, (i + 1) * n).map(Number);
    const texts = (data.a.texts || weights.map(String)).slice(i * n, (i + 1) * n);
    const top = Math.max(...weights.filter(Number.isFinite).map(Math.abs), 0);
    for (let j = 0; j < n; j++) {
      mark(a.cell(i, j));
      const opacity = top > 0 && Number.isFinite(weights[j]) ? MIN_OPACITY + (1 - MIN_OPACITY) * (Math.abs(weights[j]) / top) : 1;
      for (let k = 0; k < d; k++) mark(b.cell(j, k), texts[j], opacity.toFixed(3));
    }
    for (let k = 0; k < cols; k++) mark(c.cell(i, k));
    a.highlight({ rows: [i] });
    c.highlight({ rows: [i] });
    setText(note, options.describe ? options.describe(i, weights, texts) : '');
  }
  const follow = (e) => link(e.detail.row);
  c.el.addEventListener('cellhover', follow);
  c.el.addEventListener('cellfocus', follow);
  c.el.addEventListener('cellleave', unlink);

  // B's and C's one scale: sequential from 0 (to 1, or their largest value), or diverging when any is negative
  function shareScale(next) {
    let lo = Infinity, hi = -Infinity;
    for (const v of [...next.b.values, ...next.c.values]) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (lo === Infinity) { lo = 0; hi = 1; }
    const scale = lo < 0 ? 'diverging' : 'sequential';
    const domain = lo < 0 ? [-Math.max(-lo, hi), Math.max(-lo, hi)] : [0, hi <= 1 ? 1 : hi];
    for (const o of [bOptions, cOptions]) { o.scale = scale; o.domain = domain; }
  }

  function update(next) {
    data = next;
    shareScale(next);
    a.update(next.a); b.update(next.b); c.update(next.c);
    setAttr(root, 'data-rows', next.c.shape[0]);
    // a linked row follows an edit (its weights may have changed); one that no longer exists is let go
    if (linked >= 0) sched.frame(() => { if (linked >= 0 && linked < next.c.shape[0]) link(linked); else unlink(); });
  }
  return { el: root, update, link, unlink, views: { a, b, c } };
}

// "0.1500·x⁽¹⁾ + 0.2264·x⁽²⁾ + …": a row's mix in words, at 4 decimals (the caller's engine numbers).
export const mixText = (weights, stem) => weights.map((w, j) => `${fixed(w, 4)}·${stem(j)}`).join(' + ');
