// Small SVG plots in the Observable Plot manner: labelled axes with units, no chart junk, and the
// point under the pointer (or chosen with the arrow keys) named in words. linePlot draws lines and
// dots (the √d_k experiment, a loss curve); pointPlot draws 2-D points with one moving marker
// (z(2) among the value vectors). They draw what they are given and compute no data.
import { el, svg, setAttr, setText, uid, onResize } from './nodes.js';
import { fixed } from './format.js';
import { sched } from './schedule.js';
import { say } from './words.js';
import { exportMenu, svgDrawingText, fileStem, EXPORT_TEXT } from './export.js';

const MARGIN = { top: 24, right: 14, bottom: 42, left: 54 };
const FALLBACK_WIDTH = 560;
const SERIES_COLORS = ['#0b5cad', '#b2182b', '#2a7f3f', '#6b3fa0'];   // 4.5:1 or more on white

// --- scales and ticks ---
function linearScale([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}
function logScale([d0, d1], range) {
  const lin = linearScale([Math.log(d0), Math.log(d1)], range);
  return (v) => lin(Math.log(v));
}
// 1, 2 or 5 times a power of ten, about `count` of them, covering [lo, hi].
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return ticks;
}
// Powers of the base within [lo, hi], every n-th so that about `count` remain.
export function logTicks(lo, hi, base = 10, count = 6) {
  const all = [];
  for (let e = Math.floor(Math.log(lo) / Math.log(base) - 1e-9); base ** e <= hi * (1 + 1e-9); e++) if (base ** e >= lo * (1 - 1e-9)) all.push(base ** e);
  const every = Math.max(1, Math.ceil(all.length / count));
  return all.filter((_, i) => i % every === 0);
}
const tickText = (v) => (Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(0) : String(Number(v.toPrecision(6))));
const axisTitle = (axis) => (axis.unit ? `${axis.label} (${axis.unit})` : axis.label);

// Width of the figure: its container's, measured by a ResizeObserver (so text stays at its px size).
function observeWidth(node, onWidth) {
  let last = 0;
  onResize(node, (entries) => {
    const w = Math.floor(entries[entries.length - 1].contentRect.width);
    if (w > 0 && w !== last) { last = w; onWidth(w); }
  });
}

// The parts both plots share: figure, svg, axes group, readout line, pointer and key handling.
function plotFrame({ title, summary, testid, kind }) {
  const titleId = uid('plot-title');
  const readout = el('p', { class: 'plot-readout', 'aria-live': 'polite' });
  const plotSvg = svg('svg', { class: 'plot-svg', role: 'img', tabindex: '0', 'aria-labelledby': titleId, 'aria-describedby': uid('') });
  const desc = el('p', { class: 'plot-summary vh', id: plotSvg.getAttribute('aria-describedby') });
  const axes = svg('g', { class: 'plot-axes' });
  const marks = svg('g', { class: 'plot-marks' });
  const focusRing = svg('circle', { class: 'plot-focus', r: '6', visibility: 'hidden' });
  plotSvg.append(axes, marks, focusRing);
  const root = el('figure', { class: `plot plot--${kind}`, 'data-testid': testid },
    el('figcaption', { class: 'plot-title', id: titleId, text: title || '' }), plotSvg, desc, readout);
  setText(desc, summary || '');
  // the export menu (export.js): the SVG as drawn; its points as numbers, rows of [x, y] (numbersOf, set by the plot)
  const frame = { root, svg: plotSvg, axes, marks, focusRing, readout, desc, numbersOf: () => null };
  root.insertBefore(exportMenu(root, { name: title || testid || 'plot', stem: fileStem(testid || title || 'plot'),
    image: () => ({ svg: svgDrawingText(plotSvg, title || '') }), numbers: () => frame.numbersOf() }).el, plotSvg);
  return frame;
}

function drawAxis(group, { x, y, xTicks, yTicks, xAxis, yAxis, width, height }) {
  const bottom = height - MARGIN.bottom;
  const parts = [];
  parts.push(svg('line', { class: 'plot-domain', x1: MARGIN.left, x2: width - MARGIN.right, y1: bottom, y2: bottom }));
  for (const t of xTicks) {
    const px = x(t);
    parts.push(svg('line', { class: 'plot-tick', x1: px, x2: px, y1: bottom, y2: bottom + 5 }),
      svg('text', { class: 'plot-tick-label', x: px, y: bottom + 17, 'text-anchor': 'middle', text: tickText(t) }));
  }
  for (const t of yTicks) {
    const py = y(t);
    parts.push(svg('line', { class: 'plot-grid', x1: MARGIN.left, x2: width - MARGIN.right, y1: py, y2: py }),
      svg('text', { class: 'plot-tick-label', x: MARGIN.left - 7, y: py + 4, 'text-anchor': 'end', text: tickText(t) }));
  }
  parts.push(svg('text', { class: 'plot-axis-label', x: width - MARGIN.right, y: height - 6, 'text-anchor': 'end', text: `${axisTitle(xAxis)} →` }),
    svg('text', { class: 'plot-axis-label', x: 4, y: 12, 'text-anchor': 'start', text: `↑ ${axisTitle(yAxis)}` }));
  group.replaceChildren(...parts);
}

// linePlot(options) -> {el, update(series), select(seriesIndex, pointIndex)}
//   options: {title, summary (one sentence for screen readers), testid, height = 230,
//             x: {label, unit?, log?: base, domain?, ticks?}, y: {...},
//             series: [{name, points: [{x, y}], mark: 'line' | 'dot' | 'line+dot' | 'ring', dash?: true}]
//             ('ring': a ring in the text colour around a point of another series, e.g. "your d_k"),
//             describe(point, series): the words for the point under the pointer}
export function linePlot(options) {
  const frame = plotFrame({ ...options, kind: 'line' });
  // every point of every series, a row each: [x, y], labelled by its series
  frame.numbersOf = () => {
    const rows = series.flatMap((s) => s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).map((p) => [s.name, p]));
    return rows.length ? { shape: [rows.length, 2], texts: rows.flatMap(([, p]) => [String(p.x), String(p.y)]), rowLabels: rows.map(([n]) => n),
      colLabels: [options.x.label, options.y.label], rowName: EXPORT_TEXT.heads.series, colName: EXPORT_TEXT.heads.axis } : null;
  };
  const legend = el('div', { class: 'plot-legend', 'aria-hidden': 'true' });
  frame.root.insertBefore(legend, frame.svg);
  let series = [];
  let width = FALLBACK_WIDTH;
  const height = options.height || 230;
  let x = null, y = null;
  let flat = [];        // every point, for the pointer: {s, i, px, py}
  let current = -1;     // index into flat of the named point

  const domainOf = (axis, key) => {
    if (axis.domain) return axis.domain;
    let lo = Infinity, hi = -Infinity;
    for (const s of series) for (const p of s.points) if (Number.isFinite(p[key]) && (!axis.log || p[key] > 0)) { lo = Math.min(lo, p[key]); hi = Math.max(hi, p[key]); }
    if (lo === Infinity) return axis.log ? [1, axis.log] : [0, 1];   // no points yet: a log axis cannot start at 0
    if (axis.log) return [lo, hi];
    return [Math.min(0, lo), hi === lo ? hi + 1 : hi];
  };

  function draw() {
    setAttr(frame.svg, 'viewBox', `0 0 ${width} ${height}`);
    setAttr(frame.svg, 'width', width);
    setAttr(frame.svg, 'height', height);
    const xd = domainOf(options.x, 'x'), yd = domainOf(options.y, 'y');
    const xr = [MARGIN.left + 6, width - MARGIN.right - 6], yr = [height - MARGIN.bottom, MARGIN.top + 6];
    x = options.x.log ? logScale(xd, xr) : linearScale(xd, xr);
    y = options.y.log ? logScale(yd, yr) : linearScale(yd, yr);
    const fewer = width < 420 ? 4 : 6;
    const xTicks = options.x.ticks || (options.x.log ? logTicks(xd[0], xd[1], options.x.log, fewer) : niceTicks(xd[0], xd[1], fewer));
    const yTicks = options.y.ticks || (options.y.log ? logTicks(yd[0], yd[1], options.y.log, 5) : niceTicks(yd[0], yd[1], 4));
    drawAxis(frame.axes, { x, y, xTicks, yTicks, xAxis: options.x, yAxis: options.y, width, height });
    flat = [];
    const marks = [];
    series.forEach((s, si) => {
      const color = s.color || SERIES_COLORS[si % SERIES_COLORS.length];
      const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
      const mark = s.mark || 'line+dot';
      if (mark.includes('line') && pts.length > 1) {
        marks.push(svg('path', { class: 'plot-line', d: pts.map((p, i) => `${i ? 'L' : 'M'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(''),
          stroke: color, 'stroke-dasharray': s.dash ? '5 4' : null }));
      }
      // a ring's x is also marked across the plot, so it reads against every curve at that x
      if (mark === 'ring') {
        for (const gx of new Set(pts.map((p) => p.x))) {
          marks.push(svg('line', { class: 'plot-guide', x1: x(gx).toFixed(1), x2: x(gx).toFixed(1), y1: MARGIN.top, y2: height - MARGIN.bottom }));
        }
      }
      pts.forEach((p, i) => {
        flat.push({ s: si, i, px: x(p.x), py: y(p.y) });
        if (mark === 'ring') marks.push(svg('circle', { class: 'plot-ring', cx: x(p.x).toFixed(1), cy: y(p.y).toFixed(1), r: '6.5', 'data-series': si, 'data-index': i, 'data-x': String(p.x), 'data-y': String(p.y) }));
        else if (mark.includes('dot')) marks.push(svg('circle', { class: 'plot-dot', cx: x(p.x).toFixed(1), cy: y(p.y).toFixed(1), r: '3.2', fill: color, 'data-series': si, 'data-index': i }));
      });
    });
    frame.marks.replaceChildren(...marks);
    legend.replaceChildren(...series.map((s, si) => el('span', { class: 'plot-key' },
      s.mark === 'ring' ? el('span', { class: 'plot-swatch ring' })
        : el('span', { class: `plot-swatch${s.dash ? ' dash' : ''}`, style: `border-color: ${s.color || SERIES_COLORS[si % SERIES_COLORS.length]}` }), s.name)));
    if (current >= flat.length) current = -1;
    name(current);
  }

  // Names point flat[k] in words, under the plot, and rings it.
  function name(k) {
    current = k;
    if (k < 0) { setAttr(frame.focusRing, 'visibility', 'hidden'); return; }
    const f = flat[k];
    const s = series[f.s], p = s.points[f.i];
    setAttr(frame.focusRing, 'cx', f.px.toFixed(1));
    setAttr(frame.focusRing, 'cy', f.py.toFixed(1));
    setAttr(frame.focusRing, 'visibility', 'visible');
    setText(frame.readout, options.describe ? options.describe(p, s) : `${s.name}: ${options.x.label} = ${tickText(p.x)}, ${options.y.label} = ${fixed(p.y, 4)}`);
  }

  frame.svg.addEventListener('pointermove', (e) => {
    if (!flat.length) return;
    const box = frame.svg.getBoundingClientRect();
    const px = ((e.clientX - box.left) / box.width) * width, py = ((e.clientY - box.top) / box.height) * height;
    let best = -1, bestD = Infinity;
    flat.forEach((f, k) => { const d = (f.px - px) ** 2 + (f.py - py) ** 2; if (d < bestD) { bestD = d; best = k; } });
    if (best !== current) name(best);
  });
  // ← → walk along a series (Home, End: its ends), ↑ ↓ move to the same point of the next series
  frame.svg.addEventListener('keydown', (e) => {
    if (!flat.length || !['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(e.key)) return;
    e.preventDefault();
    if (current < 0) { name(0); return; }
    const { s, i } = flat[current];
    const count = (si) => flat.filter((f) => f.s === si).length;
    let to = { s, i };
    if (e.key === 'ArrowRight') to.i = Math.min(count(s) - 1, i + 1);
    else if (e.key === 'ArrowLeft') to.i = Math.max(0, i - 1);
    else if (e.key === 'Home') to.i = 0;
    else if (e.key === 'End') to.i = count(s) - 1;
    else {
      const withPoints = [...new Set(flat.map((f) => f.s))];
      to.s = withPoints[(withPoints.indexOf(s) + (e.key === 'ArrowDown' ? 1 : withPoints.length - 1)) % withPoints.length];
      to.i = Math.min(count(to.s) - 1, i);
    }
    name(flat.findIndex((f) => f.s === to.s && f.i === to.i));
  });

  function update(next) {
    series = next;
    draw();
  }
  observeWidth(frame.root, (w) => { width = w; draw(); });
  update(options.series || []);
  return {
    el: frame.root,
    update,
    select(si, i) { const k = flat.findIndex((f) => f.s === si && f.i === i); if (k >= 0) name(k); },
    setSummary(text) { setText(frame.desc, text); },
  };
}

// A label's box at (x, y) with its anchor: its measured width (else 6.6 px a character), the 11.5 px
// font's ascent above the baseline and descent below it.
function labelBox([x, y, anchor], text, measured) {
  const w = measured || text.length * 6.6;
  return { x0: anchor === 'end' ? x - w : x, x1: anchor === 'end' ? x : x + w, y0: y - 12, y1: y + 4 };
}
const apart = (a, b) => a.x1 < b.x0 || a.x0 > b.x1 || a.y1 < b.y0 || a.y0 > b.y1;

// Where each point's label goes: below right, else above right, left or further down, whichever first
// overlaps no label placed before it and no obstacle (the marker and its label; greedy, top to bottom).
function labelSpots(items, obstacles = []) {
  const placed = [];
  const spots = new Array(items.length);
  const order = items.map((_, i) => i).sort((a, b) => items[a].py - items[b].py);
  for (const i of order) {
    const { px, py, text, w } = items[i];
    const tries = [[px + 7, py + 14, 'start'], [px + 7, py - 7, 'start'], [px - 7, py + 4, 'end'], [px + 7, py + 27, 'start'], [px - 7, py - 9, 'end'],
      [px - 7, py + 18, 'end'], [px + 7, py + 40, 'start'], [px - 7, py - 22, 'end'], [px + 7, py - 20, 'start']];
    const box = (t) => labelBox(t, text, w);
    const free = (b, strict) => placed.every((o) => apart(b, o)) && obstacles.every((o) => apart(b, o)) &&
      (!strict || items.every((o, k) => k === i || o.px < b.x0 - 4 || o.px > b.x1 + 4 || o.py < b.y0 - 4 || o.py > b.y1 + 4));
    // clear of every point if it can be; clear of the labels and the marker always, when any spot is
    const pick = tries.find((t) => free(box(t), true)) || tries.find((t) => free(box(t), false)) || tries[0];
    placed.push(box(pick));
    spots[i] = { x: pick[0], y: pick[1], anchor: pick[2] };
  }
  return spots;
}

// pointPlot(options) -> {el, update({points, marker, weights}, {glide = true}?)}
//   options: {title, summary, testid, x: {label, unit?}, y: {label, unit?}, maxHeight = 320}
//   points:  [{x, y, label}] (e.g. the value vectors v(j), labelled with their words)
//   marker:  {x, y, label} drawn as a distinct diamond that glides to its new place (z(2))
//   weights: optional [w_j]: a spoke from the marker to each point, as thick as its share
export function pointPlot(options) {
  const frame = plotFrame({ ...options, kind: 'points' });
  // each point, then the marker: [x, y], labelled
  frame.numbersOf = () => {
    const rows = [...data.points, ...(data.marker ? [data.marker] : [])];
    return rows.length ? { shape: [rows.length, 2], texts: rows.flatMap((p) => [String(p.x), String(p.y)]), rowLabels: rows.map((p, j) => p.label || String(j + 1)),
      colLabels: [options.x.label, options.y.label], rowName: EXPORT_TEXT.heads.point, colName: EXPORT_TEXT.heads.axis } : null;
  };
  let data = { points: [], marker: null, weights: null };
  let width = FALLBACK_WIDTH;
  let height = 300;
  let x = null, y = null;
  let current = -1;     // the named point: 0..n-1, or n for the marker
  let widths = [];      // each point label's width in px
  let drewPoints = false;   // a draw with points has measured their labels
  let markerWidth = null;   // {text, w}: the marker label's width in px, for its text
  const spokes = svg('g', { class: 'plot-spokes' });
  const dots = svg('g', { class: 'plot-points' });
  const markerG = svg('g', { class: 'plot-marker' },
    svg('path', { d: 'M0,-8L8,0L0,8L-8,0Z', class: 'plot-marker-shape' }));
  const markerLabel = svg('text', { class: 'plot-marker-label', x: '11', y: '-9' });
  markerG.append(markerLabel);
  frame.marks.append(spokes, dots, markerG);

  // One scale for both axes (equal aspect), from the points alone: the marker, a weighted mean of
  // them, stays inside their hull, so the frame does not jump as it moves.
  function scales() {
    const xs = data.points.map((p) => p.x), ys = data.points.map((p) => p.y);
    let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    if (!xs.length) [x0, x1, y0, y1] = [0, 1, 0, 1];
    const span = Math.max(x1 - x0, y1 - y0, 1e-6) * 1.2;
    const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    height = Math.min(options.maxHeight || 320, Math.max(240, width * 0.72));
    const innerW = width - MARGIN.left - MARGIN.right, innerH = height - MARGIN.top - MARGIN.bottom;
    const unit = Math.min(innerW, innerH) / span;
    const midX = MARGIN.left + innerW / 2, midY = MARGIN.top + innerH / 2;
    x = (v) => midX + (v - cx) * unit;
    y = (v) => midY - (v - cy) * unit;
    return { xd: [cx - innerW / unit / 2, cx + innerW / unit / 2], yd: [cy - innerH / unit / 2, cy + innerH / unit / 2] };
  }

  function draw() {
    const { xd, yd } = scales();
    setAttr(frame.svg, 'viewBox', `0 0 ${width} ${height}`);
    setAttr(frame.svg, 'width', width);
    setAttr(frame.svg, 'height', height);
    const fewer = width < 420 ? 4 : 6;
    drawAxis(frame.axes, { x, y, xTicks: niceTicks(xd[0], xd[1], fewer), yTicks: niceTicks(yd[0], yd[1], 4), xAxis: options.x, yAxis: options.y, width, height });
    dots.replaceChildren(...data.points.map((p, j) => svg('g', { class: 'plot-point', 'data-index': j },
      svg('circle', { cx: x(p.x).toFixed(1), cy: y(p.y).toFixed(1), r: '4.5' }),
      svg('text', { text: p.label || '' }))));
    // the labels placed at once with estimated widths, then at their widths as drawn (0 while hidden:
    // then estimated), measured once per drawing. The measure waits for the scheduler's read phase: in a
    // section the browser skips (a plot drawn off screen at load) until it is shown, whose frame lays it
    // out anyway (whenShown); a width read in the draw's task laid out every section built before it (70
    // ms at load, throttled 4×), and one in a task of its own the plot's section (30-50 ms).
    widths = [];
    if (data.points.length) drewPoints = true;
    markerWidth = null;
    placeMarker(true);
    const labels = [...dots.childNodes].map((g) => g.lastChild);
    sched.measureThenWrite(() => ({ points: labels.map((t) => t.getComputedTextLength()), marker: markerLabel.getComputedTextLength() }),
      (measured) => {
        if (dots.firstChild?.lastChild !== labels[0]) return;   // drawn again since
        widths = measured.points;
        markerWidth = { text: markerLabel.textContent, w: measured.marker };
        placeMarker(true);
      }, frame.root, { whenShown: true });
  }

  // The labels: the marker's beside its diamond where no point is, then the points' clear of both, so
  // the diamond never covers a value's label as it moves.
  function placeLabels() {
    const items = data.points.map((p, j) => ({ px: x(p.x), py: y(p.y), text: p.label || '', w: widths[j] }));
    const obstacles = [];
    const m = data.marker;
    if (m) {
      const mx = x(m.x), my = y(m.y), text = m.label || '';
      // measured once per drawing and label (draw), not per move: a width read after the move's writes
      // would lay the page out again in the slider's frame; a new label is estimated until then
      const mw = markerWidth?.text === text ? markerWidth.w : 0;
      const spot = [[11, -9, 'start'], [11, 17, 'start'], [-11, -9, 'end'], [-11, 17, 'end']].find(([dx, dy, a]) => {
        const b = labelBox([mx + dx, my + dy, a], text, mw);
        return items.every((o) => o.px < b.x0 - 5 || o.px > b.x1 + 5 || o.py < b.y0 - 5 || o.py > b.y1 + 5);
      }) || [11, -9, 'start'];
      setAttr(markerLabel, 'x', String(spot[0])); setAttr(markerLabel, 'y', String(spot[1])); setAttr(markerLabel, 'text-anchor', spot[2]);
      obstacles.push({ x0: mx - 10, x1: mx + 10, y0: my - 10, y1: my + 10 }, labelBox([mx + spot[0], my + spot[1], spot[2]], text, mw));
    }
    const spots = labelSpots(items, obstacles);
    [...dots.childNodes].forEach((g, j) => {
      const t = g.lastChild;
      setAttr(t, 'x', spots[j].x.toFixed(1)); setAttr(t, 'y', spots[j].y.toFixed(1)); setAttr(t, 'text-anchor', spots[j].anchor);
    });
  }

  function placeMarker(relayout = false) {
    const m = data.marker;
    markerG.style.visibility = m ? 'visible' : 'hidden';
    if (!m) { spokes.replaceChildren(); placeLabels(); return; }
    const mx = x(m.x), my = y(m.y);
    // the first placement (and a re-layout) jumps; only a new marker position glides
    const glide = markerG.style.transform !== '' && !relayout;
    markerG.style.transition = glide ? '' : 'none';
    markerG.style.transform = `translate(${mx.toFixed(1)}px, ${my.toFixed(1)}px)`;
    setText(markerLabel, m.label || '');
    placeLabels();
    const w = data.weights;
    if (!w) { spokes.replaceChildren(); return; }
    // spokes are updated in place: same count, new ends and widths
    if (spokes.childNodes.length !== data.points.length) spokes.replaceChildren(...data.points.map(() => svg('line', { class: 'plot-spoke' })));
    data.points.forEach((p, j) => {
      const line = spokes.childNodes[j];
      setAttr(line, 'x1', mx.toFixed(1)); setAttr(line, 'y1', my.toFixed(1));
      setAttr(line, 'x2', x(p.x).toFixed(1)); setAttr(line, 'y2', y(p.y).toFixed(1));
      setAttr(line, 'stroke-width', (0.6 + 7 * Math.max(0, w[j] || 0)).toFixed(2));
      setAttr(line, 'data-weight', String(w[j]));
    });
    if (current >= 0) name(current);
  }

  function name(k) {
    current = k;
    const n = data.points.length;
    const m = data.marker;
    const ring = frame.focusRing;
    if (k < 0 || (k === n && !m)) { setAttr(ring, 'visibility', 'hidden'); return; }
    const p = k === n ? m : data.points[k];
    setAttr(ring, 'cx', x(p.x).toFixed(1));
    setAttr(ring, 'cy', y(p.y).toFixed(1));
    setAttr(ring, 'r', k === n ? '11' : '7');
    setAttr(ring, 'visibility', 'visible');
    const share = k < n && data.weights ? say('views.plot.share', { weight: fixed(data.weights[k], 4), marker: m && m.label ? m.label : say('views.plot.marker') }) : '';
    setText(frame.readout, `${p.label || say('views.plot.point', { k: k + 1 })} = [${fixed(p.x, 4)}, ${fixed(p.y, 4)}]${share}`);
  }

  frame.svg.addEventListener('pointermove', (e) => {
    const box = frame.svg.getBoundingClientRect();
    const px = ((e.clientX - box.left) / box.width) * width, py = ((e.clientY - box.top) / box.height) * height;
    const all = [...data.points, ...(data.marker ? [data.marker] : [])];
    let best = -1, bestD = Infinity;
    all.forEach((p, k) => { const d = (x(p.x) - px) ** 2 + (y(p.y) - py) ** 2; if (d < bestD) { bestD = d; best = k; } });
    if (best !== current) name(best);
  });
  frame.svg.addEventListener('keydown', (e) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    const count = data.points.length + (data.marker ? 1 : 0);
    if (!step || !count) return;
    e.preventDefault();
    name(current < 0 ? 0 : (current + step + count) % count);
  });

  // New data: the points are redrawn only when they moved; the marker glides (a CSS transition), unless
  // {glide: false}: a control's steps, one a frame, where a glide would restart at every step, trail
  // behind its spokes and cost every frame a style pass.
  function update(next, { glide = true } = {}) {
    const samePoints = next.points.length === data.points.length &&
      next.points.every((p, j) => p.x === data.points[j].x && p.y === data.points[j].y && p.label === data.points[j].label);
    data = { points: next.points, marker: next.marker || null, weights: next.weights || null };
    if (samePoints && x) placeMarker(!glide);
    // the first with points: their label widths lay the page out (a task of its own at load). An empty
    // draw before it (held, then drawn in a slice) measures nothing, and must not make it come at once.
    else if (!drewPoints) sched.drawWhenSeen(frame.root, draw);
    else draw();
  }
  observeWidth(frame.root, (w) => { width = w; draw(); });
  update({ points: options.points || [], marker: options.marker, weights: options.weights });
  return { el: frame.root, update, setSummary(text) { setText(frame.desc, text); } };
}
