// q⁽²⁾ and every key k⁽ʲ⁾ as arrows in the plane (d_out = 2 only), with each key's shadow on q's line:
// ω₂ⱼ = q⁽²⁾ · k⁽ʲ⁾ = |q⁽²⁾| × (the length of that shadow), so the score reads as alignment times
// length. Every point carries data-x and data-y, the engine's texts; the scores listed are the engine's.
// For another d_out a sentence says why there is no drawing. Computes nothing but screen positions.
import { el, svg, setText } from './nodes.js';
import { fixed } from './format.js';
import { sched } from './schedule.js';
import { say } from './words.js';
import { exportMenu, svgDrawingText, fileStem, EXPORT_TEXT } from './export.js';

const SIZE = 320, PAD = 34;   // the square drawing, in SVG units
const sub = (n) => String(n).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[c]);
const sup = (n) => String(n).replace(/\d/g, (c) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[c]);

// qkPlane({testid}) -> {el, update({queries, keys, scores, words, row = 1})}
//   queries, keys, scores (ω, n×n): the engine's results ({values, shape}); row: the query drawn (from 0).
export function qkPlane({ testid = 'qk-plane' } = {}) {
  const title = el('p', { class: 'qk-title' });
  const note = el('p', { class: 'note', 'data-testid': `${testid}-note` });
  const LABELS = 110;   // right of the square plot, a column of labels
  const drawing = svg('svg', { viewBox: `0 0 ${SIZE + LABELS} ${SIZE}`, role: 'img' });
  const scoreList = el('ul', { class: 'qk-scores' });
  const root = el('figure', { class: 'qk-plane', 'data-testid': testid }, title, drawing, scoreList, note);
  // the export menu (export.js): the plane as drawn; q and the keys as rows of [d1, d2] (the engine's texts)
  let shown = null;
  const exporter = exportMenu(root, { name: EXPORT_TEXT.qkName, stem: fileStem(testid),
    image: () => ({ svg: svgDrawingText(drawing, EXPORT_TEXT.qkTitle) }),
    numbers: () => shown && { shape: [shown.rows.length, 2], texts: shown.rows.flatMap((r) => r.texts), rowLabels: shown.rows.map((r) => r.label), colLabels: ['d1', 'd2'], rowName: EXPORT_TEXT.heads.vector, colName: EXPORT_TEXT.heads.dimension } });
  root.prepend(el('div', { class: 'qk-head' }, exporter.el));

  // The texts and the drawing's box at once; the arrows (sixty-odd SVG nodes, a third of §3.4.1's first
  // update, which brings the page's first numbers) when on screen or in a slice of a later task. The
  // figure's height is set by the texts and the box, so the arrows coming in move nothing on the page.
  function update({ queries, keys, scores, words, row = 1 }) {
    const d = keys.shape[1], query = row + 1;
    if (d !== 2) {
      root.dataset.drawn = 'false';
      shown = null;
      drawing.replaceChildren();
      drawing.style.display = 'none';
      scoreList.replaceChildren();
      setText(title, '');
      setText(note, d === 1 ? say('views.qk.notTwoOne', { q: sup(query) }) : say('views.qk.notTwo', { d, q: sup(query) }));
      sched.drawWhenSeen(root, () => {});   // (an arrows' draw still waiting is moot)
      return;
    }
    root.dataset.drawn = 'true';
    const keyText = (j, c) => (keys.texts ? String(keys.texts[2 * j + c]) : String(keys.values[2 * j + c]));
    const qText = (c) => (queries.texts ? String(queries.texts[2 * row + c]) : String(queries.values[2 * row + c]));
    shown = { rows: [{ label: `q${query} ${words[row]}`, texts: [qText(0), qText(1)] },
      ...Array.from({ length: keys.shape[0] }, (_, j) => ({ label: `k${j + 1} ${words[j]}`, texts: [keyText(j, 0), keyText(j, 1)] }))] };
    drawing.style.display = '';
    setText(note, '');
    const n = keys.shape[0];
    setText(title, say('views.qk.title', { q: sup(query), i: sub(query) }));
    drawing.setAttribute('aria-label', say('views.qk.label', { q: sup(query), n }));
    const omega = scores.values.slice(row * scores.shape[1], (row + 1) * scores.shape[1]);
    const items = [];
    for (let j = 0; j < n; j++) items.push(el('li', { 'data-key': j, text: `k⁽${sup(j + 1)}⁾ ${words[j]}: ω${sub(query)}${sub(j + 1)} = ${fixed(Number(omega[j]), 4)}` }));
    scoreList.replaceChildren(...items);
    sched.drawWhenSeen(root, () => drawArrows({ queries, keys, words, row }));
  }

  function drawArrows({ queries, keys, words, row }) {
    const d = 2, query = row + 1;
    const vals = queries.values.slice(row * d, (row + 1) * d);
    const q = { values: vals, texts: vals.map(String) };
    keys = { ...keys, texts: keys.values.map(String) };
    const n = keys.shape[0];
    const kx = (j) => Number(keys.values[2 * j]), ky = (j) => Number(keys.values[2 * j + 1]);
    const [qx, qy] = q.values.map(Number);
    // the box holding the origin, q and every key, one scale on both axes (angles and lengths stay true);
    // the right part of the drawing is kept for the keys' labels
    const xs = [0, qx], ys = [0, qy];
    for (let j = 0; j < n; j++) { xs.push(kx(j)); ys.push(ky(j)); }
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const span = Math.max(x1 - x0, y1 - y0) * 1.1 || 1;
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    const PLOT = SIZE - 2 * PAD;   // the square plot (LABELS right of it)
    const px = (x) => PAD + ((x - cx) / span + 0.5) * PLOT, py = (y) => PAD + (0.5 - (y - cy) / span) * PLOT;
    const qLen2 = qx * qx + qy * qy;
    const arrowTo = (x, y, head) => svg('line', { x1: px(0), y1: py(0), x2: px(x), y2: py(y), 'marker-end': `url(#${head})` });
    const marker = (id, fill) => svg('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto' },
      svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill }));
    const lo = { x: cx - span / 2, y: cy - span / 2 }, hi = { x: cx + span / 2, y: cy + span / 2 };
    const parts = [
      svg('defs', null, marker(`${testid}-k`, '#b35900'), marker(`${testid}-q`, '#0b5cad')),
      svg('line', { class: 'qk-axis', x1: px(lo.x), y1: py(0), x2: px(hi.x), y2: py(0) }),
      svg('line', { class: 'qk-axis', x1: px(0), y1: py(lo.y), x2: px(0), y2: py(hi.y) }),
      svg('text', { x: px(hi.x), y: py(0) - 4, 'text-anchor': 'end', class: 'qk-axis-label', text: 'd1' }),
      svg('text', { x: px(0) + 4, y: py(hi.y) + 10, class: 'qk-axis-label', text: 'd2' }),
    ];
    if (qLen2 > 0) {   // q's line through the origin, as far as the plot's square reaches
      const axes = [[qx, lo.x, hi.x], [qy, lo.y, hi.y]];
      const ahead = Math.min(...axes.map(([v, a, b]) => (v > 0 ? b / v : v < 0 ? a / v : Infinity)));
      const behind = Math.min(...axes.map(([v, a, b]) => (v > 0 ? -a / v : v < 0 ? -b / v : Infinity)));
      parts.push(svg('line', { class: 'qk-line', x1: px(-qx * behind), y1: py(-qy * behind), x2: px(qx * ahead), y2: py(qy * ahead) }));
    }
    // labels in a column right of the plot, in the order of their tips' heights, at least 14 units apart,
    // each joined to its tip by a thin leader
    const order = Array.from({ length: n }, (_, j) => j).sort((a, b) => py(ky(a)) - py(ky(b)));
    const labelY = new Array(n);
    let y = -Infinity;
    for (const j of order) { y = Math.max(py(ky(j)), y + 14); labelY[j] = y; }
    const overflow = Math.max(0, y - (SIZE - 6));
    for (const j of order) labelY[j] -= overflow;
    const labelX = SIZE - PAD + 14;
    for (let j = 0; j < n; j++) {
      const x = kx(j), yk = ky(j);
      const g = svg('g', { class: 'qk-key', 'data-key': j, 'data-x': keys.texts[2 * j], 'data-y': keys.texts[2 * j + 1] },
        svg('title', { text: `k⁽${sup(j + 1)}⁾ (${words[j]}) = [${keys.texts[2 * j]}, ${keys.texts[2 * j + 1]}]` }), arrowTo(x, yk, `${testid}-k`),
        svg('line', { class: 'qk-leader', x1: px(x) + 3, y1: py(yk), x2: labelX - 3, y2: labelY[j] - 4 }),
        svg('text', { x: labelX, y: labelY[j], text: `k⁽${sup(j + 1)}⁾ ${words[j]}` }));
      if (qLen2 > 0) {   // the key's shadow on q's line: the foot of the perpendicular from its tip
        const s = (x * qx + yk * qy) / qLen2;
        g.prepend(svg('line', { class: 'qk-drop', x1: px(x), y1: py(yk), x2: px(s * qx), y2: py(s * qy) }),
          svg('circle', { class: 'qk-foot', cx: px(s * qx), cy: py(s * qy), r: 2.5 }));
      }
      parts.push(g);
    }
    parts.push(svg('g', { class: 'qk-query', 'data-x': q.texts[0], 'data-y': q.texts[1] },
      svg('title', { text: `q⁽${sup(query)}⁾ = [${q.texts[0]}, ${q.texts[1]}]` }), arrowTo(qx, qy, `${testid}-q`),
      svg('text', { x: px(qx) - 6, y: py(qy) - 6, 'text-anchor': 'end', text: `q⁽${sup(query)}⁾` })));
    drawing.replaceChildren(...parts);
  }
  return { el: root, update };
}
