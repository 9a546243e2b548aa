// One drawn tensor: coloured cells with their values, row and column labels and a shape badge; the
// full value on hover and focus. Every cell carries data-row, data-col (from 0) and data-value (the
// engine's shortest round-trip text). update() changes text and attributes in place, so focus survives.
// It draws what it is given: no engine calls, no number it did not receive.
import { el, setAttr, setText, uid } from './nodes.js';
import { sched } from './schedule.js';
import { scaleFor, cssRgb, textOn, themedStops } from './color.js';
import { shortestFloat32, fixed } from './format.js';
import { say } from './words.js';
import { exportMenu, matrixScene, fileStem } from './export.js';

const CELL_MAX_EM = 4.4;           // cells never grow wider than this (views.css): a 2-column matrix stays compact
const MONO_CHAR_EM = 0.62;         // width of one monospace digit, in ems of the cell's font

// A text's width in px in a CSS font, measured by a canvas (no layout), remembered per font and text.
// No canvas (a DOM without one): an estimate, 0.58 em a character.
const textWidths = new Map();
let textCanvas;
function textWidth(text, font, fontPx) {
  const key = `${font}\u0000${text}`;
  let width = textWidths.get(key);
  if (width === undefined) {
    if (textCanvas === undefined) textCanvas = document.createElement('canvas').getContext('2d');
    if (textCanvas) { textCanvas.font = font; width = textCanvas.measureText(text).width; } else width = text.length * 0.58 * fontPx;
    if (textWidths.size > 4000) textWidths.clear();   // a learner typing words: prefixes on prefixes
    textWidths.set(key, width);
  }
  return width;
}

function forgetWidths(font) {
  for (const key of textWidths.keys()) if (key.startsWith(`${font}\u0000`)) textWidths.delete(key);
}

// Whether a family of a CSS font-family list is a web font still to load. (Not document.fonts.check:
// it asks the system for every family of the list, the default stack's four absent ones each a question
// to the font service, about 7 ms in the first views' frame throttled 4×.)
const unquote = (name) => name.trim().replace(/^(["'])(.*)\1$/, '$2').toLowerCase();
function loadingFace(fontFamily) {
  if (typeof document === 'undefined' || !document.fonts) return false;
  const families = new Set(fontFamily.split(',').map(unquote));
  for (const face of document.fonts) if (face.status !== 'loaded' && face.status !== 'error' && families.has(unquote(face.family))) return true;
  return false;
}

// Text that fits in px pixels in the heads' font: the label itself when it does, else its first
// characters (at least one) and an ellipsis. 1 px to spare: the canvas and the layout may round apart.
function abbreviate(label, px, font, fontPx) {
  if (textWidth(label, font, fontPx) <= px - 1) return label;
  let n = label.length - 1;
  while (n > 1 && textWidth(`${label.slice(0, n)}…`, font, fontPx) > px - 1) n--;
  return `${label.slice(0, n)}…`;
}

// (rows, cols) of a 1-D or 2-D shape: a vector is drawn as one row.
function gridShape(shape) {
  if (shape.length === 1) return [1, shape[0]];
  if (shape.length === 2) return shape;
  throw new Error(`a matrix view draws 1-D or 2-D tensors; this one has shape [${shape.join(', ')}]: draw one slice at a time`);
}

const cellEvent = (type, detail) => new CustomEvent(type, { bubbles: true, detail });
// a masked cell's word in its label: the future (masked) or a weight dropout zeroed (dropped)
const maskWord = (kind) => (kind === 'dropped' ? say('views.matrix.dropped') : say('views.matrix.masked'));

// The box of node or its nearest ancestor that clips what node paints to its edges (content-visibility:
// auto: the page gives it to each section and most parts of one), or null. Read when a tooltip shows.
function clipBoxOf(node) {
  for (let n = node; n; n = n.parentElement) if (getComputedStyle(n).contentVisibility === 'auto') return n.getBoundingClientRect();
  return null;
}

// matrixView(data, options) -> {el, update(data), drawLive(data), highlight(spec, {linked}?), clearHighlight(),
//   reveal(spec), cell(r, c), focusCell(r, c)}
//   data:    null (a view whose numbers come later: nothing drawn until its first update, where a
//            placeholder's cell would be drawn, off screen, in an idle slice before them) or {values, shape: [rows, cols] or [n], texts?: shortest texts from the engine, mask?: truthy =
//            masked, 'dropped' = dropped by dropout (drawn differently), rowLabels?, colLabels?, print?: PyTorch's print, shown under the drawing}
//   options: {name (accessible name, e.g. "W_q"), title? (a node or text for the heading, e.g. KaTeX),
//            testid?, decimals = 4, scale = 'auto'|'sequential'|'diverging'|'rows' (per row, color.js), domain?, rowName = 'row',
//            colName = 'column', legend = true}
// Events on el (they bubble): 'cellhover' and 'cellfocus' with {row, col, value, text, name};
// 'cellleave' with {name} when neither pointer nor focus is on a cell any more.
// drawLive(data) (a control's step, one per frame): the same cells' new values painted without touching the
// cells; the caller's update(data) once the control rests writes them (see "live drawing" below).
// reveal(spec) (a stepper building a result up): only the cells in spec ({rows, cols, cells} as for
// highlight) show their value; the others are drawn empty with data-pending="true". null shows all.
export function matrixView(data, options = {}) {
  const { name = 'matrix', decimals = 4, rowName = say('views.matrix.row'), colName = say('views.matrix.column'), legend = true } = options;
  const root = el('figure', { class: 'mv', 'data-matrix': name, 'data-testid': options.testid });
  const shapeBadge = el('span', { class: 'mv-shape' });
  const head = el('figcaption', { class: 'mv-head' },
    el('span', { class: 'mv-name' }, options.title ?? name), shapeBadge);
  const tipId = uid('tip');
  const tip = el('div', { class: 'mv-tip', id: tipId, role: 'tooltip', hidden: true });
  const tipText = document.createTextNode('');
  tip.append(tipText);
  const table = el('table', { class: 'mv-grid', role: 'grid' });
  const body = el('div', { class: 'mv-body' }, table, tip);
  const legendEl = el('div', { class: 'mv-legend', 'aria-hidden': 'true' });
  // PyTorch's print may scroll sideways: a Tab stop (and a region name) so the keyboard can scroll it
  const printEl = el('pre', { class: 'out mv-print', hidden: true, tabindex: '0', role: 'region', 'aria-label': say('views.matrix.print', { name }) });
  root.append(head, body, ...(legend ? [legendEl] : []), printEl);   // append(null) would add the text "null"
  // the drawing's export menu (export.js): its image as drawn, its numbers as the engine gave them
  if (options.exportable !== false) {
    // (a name in another script, "你的输出", gives no file name of its own: the drawing's testid does)
    head.append(exportMenu(root, { name, stem: fileStem(/[A-Za-z0-9]/.test(name) || !options.testid ? name : options.testid), image: () => ({ scene: matrixScene(root, typeof options.title === 'string' ? options.title : name) }),
      numbers: () => latest && { shape: latest.shape, texts: Array.from(latest.values, (v, k) => (latest.texts && latest.texts[k] != null ? String(latest.texts[k]) : shortestFloat32(Number(v)))),
        rowLabels: rowLabels.slice(), colLabels: colLabels.slice(), rowName, colName } }).el);
  }

  let rows = 0, cols = 0;
  let cells = [];          // cells[r][c] = {td, text (Text node), value, paint (its colour), and what was last written: valueText, shown, label, masked, bg; where and said: what its label was built from}
  let rowHeads = [], colHeads = [];
  let rowLabels = [], colLabels = [];
  let labelsKey = '', labelsVersion = 0;   // a new version when the labels change: the cells' names follow
  let active = { row: 0, col: 0 };   // the cell in the Tab order (roving tabindex)
  let hovered = null, focused = null;
  let labelEm = 3;
  let lastWidth = 0;
  let lastFitKey = '';
  let needsFit = false;   // the labels or widths changed since the last fit

  // The grid's rows, head cells and cells, grown or shrunk in place to r × c: a new shape keeps the
  // cells it shares with the old one (their text, colour and focus), so a change of d_out stays cheap.
  // The corner names both axes for screen readers ("token \ dimension"); on screen it stays empty.
  const cornerText = document.createTextNode('');
  const headRow = el('tr', { role: 'row' }, el('th', { scope: 'col', role: 'columnheader', class: 'mv-corner' }, el('span', { class: 'vh' }, cornerText)));
  const tbody = el('tbody');
  table.append(el('thead', null, headRow), tbody);
  const rowLines = [];
  const cellTemplate = el('td', { role: 'gridcell', class: 'mv-cell', tabindex: '-1' }, el('span', { class: 'mv-v', 'aria-hidden': 'true' }));
  function newCell(i, j) {
    const td = cellTemplate.cloneNode(true);
    td.dataset.row = i; td.dataset.col = j;
    const text = document.createTextNode('');
    td.firstChild.append(text);
    return { td, text, value: NaN, valueText: '', shown: '', full: '', label: '', masked: false, pending: false, bg: '', paint: null,
      where: '', whereVersion: -1, said: null };
  }
  function resize(r, c) {
    while (colHeads.length < c) {
      const th = el('th', { scope: 'col', role: 'columnheader', class: 'mv-col', 'data-col': colHeads.length });
      headRow.append(th);
      colHeads.push(th);
    }
    while (colHeads.length > c) colHeads.pop().remove();
    while (rowLines.length > r) { rowLines.pop().remove(); rowHeads.pop(); cells.pop(); }
    for (let i = 0; i < r; i++) {
      if (i === rowLines.length) {
        const th = el('th', { scope: 'row', role: 'rowheader', class: 'mv-row', 'data-row': i });
        const tr = el('tr', { role: 'row' }, th);
        tbody.append(tr);
        rowLines.push(tr); rowHeads.push(th); cells.push([]);
      }
      const line = cells[i];
      while (line.length > c) line.pop().td.remove();
      while (line.length < c) { const cell = newCell(i, line.length); rowLines[i].append(cell.td); line.push(cell); }
    }
    rows = r; cols = c;
    liveGeometry = null;
    revealedKeys = revealedSet();
    active = { row: Math.min(active.row, rows - 1), col: Math.min(active.col, cols - 1) };
    cells[active.row][active.col].td.tabIndex = 0;
    lastWidth = 0;
  }

  function labelFor(list, i, fallback) { return list && list[i] != null ? String(list[i]) : fallback(i); }

  let repaintQueued = false, latest = null;
  // Checks the data at once (a bad shape throws to the caller), then draws it: now when the view is on
  // screen, else in a later task or when it comes on screen (drawWhenSeen).
  function update(next) {
    // The author's heat colours are read from the page (CSS custom properties): a view drawn before it
    // is in the page draws its latest data again in the next frame, when it can read them.
    latest = next;
    if (!root.isConnected && !repaintQueued) {
      repaintQueued = true;
      sched.frame(() => { repaintQueued = false; if (root.isConnected) update(latest); });
    }
    const [r, c] = checkedShape(next);
    sched.drawWhenSeen(root, () => draw(next, r, c));
  }
  // (rows, cols) of the data, which must hold that many values (else it throws to the caller)
  function checkedShape(next) {
    const [r, c] = gridShape(next.shape);
    if (next.values.length !== r * c) throw new Error(`${name} has ${next.values.length} values but its shape [${next.shape.join(', ')}] needs ${r * c}`);
    return [r, c];
  }
  // the colour scale of these values (the theme's stops once the view is in the page)
  const scaleOf = (values, masks) => scaleFor(Array.from(values, Number), { kind: options.scale, domain: options.domain,
    stops: root.isConnected ? themedStops(root) : {}, cols, skip: masks });
  function draw(next, r, c) {
    const values = next.values;
    if (live) endLive();   // the cells take over from the live canvas (drawLive)
    let refocus = null;
    if (r !== rows || c !== cols) {
      if (focused) refocus = { row: Math.min(focused.row, r - 1), col: Math.min(focused.col, c - 1) };
      resize(r, c);
      if (marking) highlight(marking);   // the outline of the new shape's rows and columns
    }
    rowLabels = Array.from({ length: rows }, (_, i) => labelFor(next.rowLabels, i, (k) => String(k + 1)));
    colLabels = Array.from({ length: cols }, (_, j) => labelFor(next.colLabels, j, (k) => String(k + 1)));
    const key = `${rowLabels.join('\u0000')}\u0001${colLabels.join('\u0000')}`;
    if (key !== labelsKey) { labelsKey = key; labelsVersion++; }
    setText(shapeBadge, next.shape.join('×'));
    setText(cornerText, `${rowName} \\ ${colName}`);
    setAttr(table, 'aria-label', next.shape.length === 1 ? say('views.matrix.tableVector', { name, n: next.shape[0] }) : say('views.matrix.table', { name, shape: next.shape.join(say('views.matrix.by')) }));

    // labels: as wide as the longest (at most 7 ems), abbreviated when the view is narrow (layout())
    labelEm = Math.min(7, Math.max(1.6, Math.max(...rowLabels.map((s) => s.length)) * 0.5 + 0.8));   // 0.8em text
    for (let i = 0; i < rows; i++) setAttr(rowHeads[i], 'title', rowLabels[i]);
    for (let j = 0; j < cols; j++) setAttr(colHeads[j], 'title', colLabels[j]);

    const masks = next.mask;
    const scale = scaleOf(values, masks);
    let widest = 1;
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const k = i * cols + j;
        const cell = cells[i][j];
        // mask[k]: truthy = masked (the future: no value drawn), 'dropped' = zeroed by dropout (its 0 drawn)
        const masked = Boolean(masks && masks[k]);
        const dropped = masked && masks[k] === 'dropped';
        const v = masked ? 0 : Number(values[k]);
        const valueText = masked ? '0' : (next.texts && next.texts[k] != null ? String(next.texts[k]) : shortestFloat32(v));
        cell.full = dropped ? '0' : masked ? '' : fixed(v, decimals);
        const finite = masked || Number.isFinite(v);   // nan and ±inf are drawn as what they are, uncoloured
        widest = Math.max(widest, cell.full.length);
        cell.value = v;
        // the DOM is written only where something changed (the last written values live on the cell)
        if (valueText !== cell.valueText) { cell.valueText = valueText; cell.td.setAttribute('data-value', valueText); }
        const maskKind = dropped ? 'dropped' : masked ? 'masked' : false;
        if (maskKind !== cell.masked) {
          cell.masked = maskKind;
          cell.td.classList.toggle('mv-masked', maskKind === 'masked');
          cell.td.classList.toggle('mv-dropped', maskKind === 'dropped');
        }
        if (!finite !== Boolean(cell.nonFinite)) { cell.nonFinite = !finite; cell.td.classList.toggle('mv-nonfinite', !finite); }
        cell.paint = masked || !finite ? null : scale.rgb(v, i);
        paintCell(cell, i, j);
      }
    }
    root.style.setProperty('--mv-cols', String(cols));
    root.style.setProperty('--mv-label', `${labelEm}em`);
    root.style.setProperty('--mv-chars', String(widest));
    drawLegend(scale);
    hasPrint = next.print != null;
    if (hasPrint) setText(printEl, next.print);
    syncPrint();
    // re-fit only when what decides the fit changed: an edit of values alone reads no layout
    const fitKey = `${rows}×${cols}|${widest}|${rowLabels.join('\u0000')}|${colLabels.join('\u0000')}`;
    if (root.isConnected) watchRoom();
    if (fitKey !== lastFitKey) { lastFitKey = fitKey; needsFit = true; layout(); }
    if (hovered || focused) showTip(focused || hovered);
    if (refocus) focusCell(refocus.row, refocus.col);
  }

  // --- live drawing: a moving control's steps painted under the grid ---
  // While a control moves (a slider, a step per frame) the same cells' new colours and values are painted
  // into a canvas under the grid, not written into the cells: 36 new texts are laid out again at every
  // step (about 1 ms of a step's 4 at full speed on a laptop; 4 ms throttled like a phone), a canvas's
  // paint is not. The cells go transparent meanwhile (views.css, .mv[data-live]) and their outlines
  // still draw over the canvas. update(), which the caller makes once the control rests, writes the
  // cells (texts, colours, names) and ends it. Whatever the canvas cannot draw as the cells would (a new
  // shape, masks, pending cells, a value that is not finite, a tooltip or focus on a cell, forced
  // colours) is drawn by update() at once instead.
  let live = false, liveCanvas = null, liveGeometry = null;
  function drawLive(next) {
    const [r, c] = checkedShape(next);
    const values = next.values;
    const plain = r === rows && c === cols && !next.mask && !revealing && !hovered && !focused && Array.prototype.every.call(values, (v) => Number.isFinite(Number(v)));
    const geometry = plain && root.isConnected && lastWidth ? liveGeometry || (liveGeometry = measureLive()) : null;
    if (!geometry) { update(next); return; }
    latest = next;
    const g = geometry.context;
    const scale = scaleOf(values, null);
    g.clearRect(0, 0, geometry.width, geometry.height);
    // the cells' colours, then their texts by ink (one fill style for each of the two inks)
    const inks = new Map();
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const v = Number(values[i * cols + j]);
        const rgb = scale.rgb(v, i);
        const [x, y, w, h, centre, baseline] = geometry.cells[i][j];
        g.fillStyle = cssRgb(rgb);
        g.beginPath();
        if (g.roundRect) g.roundRect(x, y, w, h, geometry.radius); else g.rect(x, y, w, h);
        g.fill();
        if (!geometry.text) continue;
        const ink = textOn(rgb);
        if (!inks.has(ink)) inks.set(ink, []);
        inks.get(ink).push([fixed(v, decimals), centre, baseline, marked.get(cells[i][j].td) === 'cell']);
      }
    }
    for (const [ink, texts] of inks) {
      g.fillStyle = ink;
      for (const [text, centre, baseline, bold] of texts) {
        const font = bold ? geometry.boldFont : geometry.font;   // views.css: an outlined cell is bold
        if (font !== g.font) g.font = font;
        g.fillText(text, centre, baseline);
      }
    }
    drawLegend(scale);
    if (!live) {
      live = true;
      liveCanvas.hidden = false;
      root.setAttribute('data-live', '');
    }
  }
  // Where the cells and their text are, in px from the grid's box (read once a move starts, when only
  // the control has changed since the last frame), and the canvas sized to the grid; null without a 2-D
  // canvas. Edges are rounded to device pixels as the page rounds the cells' backgrounds, and the text
  // sits on the baseline the page gave the first cell's text, so that the canvas and the cells it hands
  // over to look the same. (Measured in Chromium: the colours match exactly; a row's text may land a
  // pixel higher in the page than on the canvas, depending on where the view sits, so the hand-over at
  // rest can move some rows' digits by a pixel.)
  function measureLive() {
    if (!liveCanvas) {
      liveCanvas = el('canvas', { class: 'mv-live', 'aria-hidden': 'true', hidden: true });
      body.append(liveCanvas);
    }
    const g = liveCanvas.getContext('2d');
    const first = cells[0][0];
    // forced colours (a high-contrast theme) replace the cells' colours, which a canvas would not
    if (!g || !first.text.data || window.matchMedia?.('(forced-colors: active)').matches) return null;
    const ratio = window.devicePixelRatio || 1;
    const box = body.getBoundingClientRect();
    // rounded where the page rounds: in the document
    const snap = (v, origin) => (Math.round((origin + v) * ratio) - Math.round(origin * ratio)) / ratio;
    const left = box.left + window.scrollX, top = box.top + window.scrollY;
    const local = (b) => {
      const x = snap(b.left - box.left, left), y = snap(b.top - box.top, top);
      return [x, y, snap(b.right - box.left, left) - x, snap(b.bottom - box.top, top) - y];
    };
    // (a new size reallocates the canvas: only when it changed)
    const [width, height] = [Math.round(box.width * ratio), Math.round(box.height * ratio)];
    if (liveCanvas.width !== width) liveCanvas.width = width;
    if (liveCanvas.height !== height) liveCanvas.height = height;
    if (liveCanvas.style.width !== `${box.width}px`) liveCanvas.style.width = `${box.width}px`;
    if (liveCanvas.style.height !== `${box.height}px`) liveCanvas.style.height = `${box.height}px`;
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    const style = getComputedStyle(first.td);
    g.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const font = g.font;   // as the canvas writes it back, so that a draw can tell when it changes
    g.font = `${style.fontStyle} 700 ${style.fontSize} ${style.fontFamily}`;
    const boldFont = g.font;
    g.font = font;
    if ('letterSpacing' in g) g.letterSpacing = style.letterSpacing === 'normal' ? '0px' : style.letterSpacing;
    g.textAlign = 'center';
    g.textBaseline = 'alphabetic';
    // the first value's text: its box's top is its baseline less the font's ascent
    const range = document.createRange();
    range.selectNodeContents(first.text);
    const textBox = range.getBoundingClientRect(), cellBox = first.td.getBoundingClientRect(), valueBox = first.td.firstChild.getBoundingClientRect();
    const ascent = Math.round(g.measureText('0').fontBoundingBoxAscent ?? 0.8 * parseFloat(style.fontSize));
    const text = valueBox.width > 0 && textBox.height > 0 ? { x: textBox.left + textBox.width / 2 - cellBox.left, baseline: textBox.top - cellBox.top + ascent } : null;
    // each cell: [x, y, width, height, its text's centre and baseline]; the centre is not snapped (the
    // page places text at fractions of a pixel sideways), the canvas's origin is
    const origin = box.left + Math.round(left * ratio) / ratio - left;
    const cellsAt = cells.map((line) => line.map(({ td }) => {
      const b = td.getBoundingClientRect();
      return [...local(b), text ? b.left + text.x - origin : 0, text ? snap(b.top - box.top + text.baseline, top) : 0];
    }));
    return { context: g, width: box.width, height: box.height, text, font, boldFont, radius: parseFloat(style.borderTopLeftRadius) || 0, cells: cellsAt };
  }
  function endLive() {
    live = false;
    liveGeometry = null;   // measured again when the next move starts: the view may have moved in the page
    liveCanvas.hidden = true;
    root.removeAttribute('data-live');
  }

  // --- pending cells (reveal) ---
  let revealing = null;          // the spec of the cells shown; null: all
  let revealedKeys = null;       // "i,j" of the cells shown, for the current shape
  function revealedSet() {
    if (!revealing) return null;
    const keys = new Set();
    for (const i of revealing.rows || []) for (let j = 0; j < cols; j++) keys.add(`${i},${j}`);
    for (const j of revealing.cols || []) for (let i = 0; i < rows; i++) keys.add(`${i},${j}`);
    for (const [i, j] of revealing.cells || []) keys.add(`${i},${j}`);
    return keys;
  }
  // A cell's text, pending mark and accessible name; the name starts with the text shown in the cell
  // (WCAG 2.5.3, label in name), then says where it is.
  function paintCell(cell, i, j) {
    const pending = Boolean(revealedKeys && !revealedKeys.has(`${i},${j}`));
    const shown = pending ? '' : cell.full;
    if (shown !== cell.shown) { cell.shown = shown; cell.text.data = shown; }
    if (pending !== cell.pending) { cell.pending = pending; if (pending) cell.td.setAttribute('data-pending', 'true'); else cell.td.removeAttribute('data-pending'); }
    // its spoken name, built only when something in it changed (an edit paints every cell of a view, and
    // a step every cell it reveals: the strings were most of that script)
    if (cell.whereVersion !== labelsVersion) {
      cell.whereVersion = labelsVersion;
      cell.where = `${name} ${rowName} ${rowLabels[i] ?? i + 1}, ${colName} ${colLabels[j] ?? j + 1}`;
    }
    const said = cell.said;
    if (!said || said.pending !== pending || said.shown !== shown || said.masked !== cell.masked || said.valueText !== cell.valueText || said.where !== cell.where) {
      cell.said = { pending, shown, masked: cell.masked, valueText: cell.valueText, where: cell.where };
      const label = pending ? say('views.matrix.pendingCell', { where: cell.where }) : `${shown ? `${shown}, ` : ''}${cell.where}: ${cell.masked ? `${maskWord(cell.masked)}, 0` : cell.valueText}`;
      if (label !== cell.label) { cell.label = label; cell.td.setAttribute('aria-label', label); }
    }
    // its colour once it shows: a pending cell is drawn grey over it (views.css), and a colour written
    // under that restyled the cell for nothing (most of an edit's style work while the stepper holds
    // its views' cells back)
    if (pending) return;
    const rgb = cell.paint, bg = rgb ? cssRgb(rgb) : '';
    if (bg !== cell.bg) {
      cell.bg = bg;
      cell.td.style.background = bg;
      cell.td.style.color = rgb ? textOn(rgb) : '';
    }
  }
  // PyTorch's print shows every value: hidden while one is still pending
  let hasPrint = false;
  function syncPrint() {
    const hidden = !hasPrint || cells.some((line) => line.some((c) => c.pending));
    if (printEl.hidden !== hidden) printEl.hidden = hidden;
  }
  function reveal(spec) {
    revealing = spec || null;
    revealedKeys = revealedSet();
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) paintCell(cells[i][j], i, j);
    syncPrint();
    if (hovered || focused) showTip(focused || hovered);
  }

  // The room the view may take: its container's width, kept by a ResizeObserver, so that drawing an
  // edit reads no layout and the cells are fitted before the browser lays them out, once. (A read
  // after the writes would lay the view out, and the fit's writes would lay it out again.) A view that
  // grows with its container (a flex item with flex-grow) or sits in a grid (whose area is not its
  // parent) watches its own width, which then does not depend on its cells (the fit changes no width).
  // The fit waits for the observer's first report, which comes after a frame has laid the view out, so
  // that a view's draw reads neither style nor layout (in the task that built a section, a read laid
  // the whole section out: 60-170 ms throttled 4× for each slice of the load's draws). Which width is
  // the room is decided at that report too, when reading styles costs nothing. Without a
  // ResizeObserver a view measures itself (sched.measureThenWrite). A container whose width follows
  // its views is still right a frame later.
  let room = 0, fontPx = 16, roomOf = null, roomParent = null, roomWatch = null;
  // The heads' font, read once they are styled: the labels are measured in it, in bold (a highlighted
  // head is bold, views.css), so that a label that fits stays whole when its row or column is outlined.
  let headFont = null, headPx = 12.8, lastWholePx = 0;
  function readHeadFont() {
    const th = colHeads[0] || rowHeads[0];
    const style = th && th.isConnected ? getComputedStyle(th) : null;
    if (!style || !style.fontFamily) return;
    headPx = parseFloat(style.fontSize) || 12.8;
    headFont = `${style.fontStyle} 700 ${style.fontSize} ${style.fontFamily}`;
    // a host's web font still loading is measured as its fallback: measured again once it is in
    const font = headFont;
    if (loadingFace(style.fontFamily)) {
      document.fonts.load(font).then(() => { forgetWidths(font); needsFit = true; layout(); }, () => {});
    }
  }
  function watchRoom() {
    const parent = root.parentElement;
    if (!parent || parent === roomParent || typeof ResizeObserver === 'undefined') return;
    roomParent = parent;
    room = 0;
    roomWatch?.disconnect();
    roomOf = null;
    // The observer only notes the widths; the rest waits for the next frame: a style read or a fit inside
    // the observer's delivery can change the layout there (a part of the page that content-visibility
    // starts to lay out), which WebKit reports as "ResizeObserver loop completed with undelivered
    // notifications" (see onResize in nodes.js).
    let queued = false;
    const widths = new Map();   // parent and root -> their latest reported width
    const watch = roomWatch = new ResizeObserver((entries) => {
      for (const e of entries) widths.set(e.target, e.contentRect.width);
      if (queued) return;
      queued = true;
      // (the reads batch with those of the other views fitted in this frame, and the fits write after
      // all of them: a read after another view's fit restyled what that fit had changed, once per view)
      sched.frame(() => sched.measureThenWrite(() => {
        queued = false;
        if (roomWatch !== watch) return null;   // moved to another container since
        if (!roomOf) {
          roomOf = getComputedStyle(parent).display.includes('grid') || parseFloat(getComputedStyle(root).flexGrow) > 0 ? root : parent;
          watch.unobserve(roomOf === root ? parent : root);
        }
        const width = widths.get(roomOf) || 0;
        widths.clear();
        if (!width || width === room) return null;
        if (!headFont) readHeadFont();
        return { width, fontPx: parseFloat(getComputedStyle(root).fontSize) || 16 };
      }, (seen) => {
        if (!seen || roomWatch !== watch) return;
        room = seen.width;
        fontPx = seen.fontPx;
        layout();
      }));   // (no node: the observer reported the view laid out, so nothing waits for its section)
    });
    roomWatch.observe(parent);
    roomWatch.observe(root);
    // (the first report comes after the next frame's layout and fits in the frame after it: the page's
    // updateComplete waits for the views' frames, sched.frame, and this one spans both)
    sched.frame(() => sched.frame(() => {}));
  }
  // The width the cells get: the room, or less when they need less (.mv-body's width in views.css).
  const cellsWidth = () => Math.min(room, labelEm * fontPx + cols * CELL_MAX_EM * fontPx + (cols + 2) * 2);

  // Fits the width it has: cells shrink, then their text gets smaller, then only the colour and the
  // tooltip remain; labels abbreviate. Run after an update and when the room changes.
  function layout() {
    // a view not yet in the page is fitted when it is: its room's first report comes after that layout
    if (!root.isConnected) return;
    if (roomWatch && root.parentElement === roomParent) {
      if (!room) return;   // fitted at the room's first report
      if (!headFont) readHeadFont();
      fit(cellsWidth(), fontPx);
      return;
    }
    sched.measureThenWrite(() => { if (!headFont) readHeadFont(); return { width: root.clientWidth, fontPx: parseFloat(getComputedStyle(root).fontSize) || 16 }; },
      ({ width, fontPx }) => fit(width, fontPx), root);
  }
  function fit(width, fontPx) {
    const font = headFont || `700 ${0.8 * fontPx}px sans-serif`;
    if (!width || (!needsFit && width === lastWidth)) return;
    lastWidth = width;
    needsFit = false;
    liveGeometry = null;   // the cells move or change font: measured again at the next live draw
    const chars = Number(root.style.getPropertyValue('--mv-chars')) || 6;
    const labelPx = Math.min(labelEm * fontPx, width * 0.3);
    const cellPx = (width - labelPx) / cols;
    const need = (px) => chars * MONO_CHAR_EM * px + 6;
    // no digits under 11 px at the element's 16 px (views.css; em: they follow it): a cell too narrow for
    // them shows its colour (the value: its tip, the print)
    const em = fontPx / 16;
    const fit = cellPx >= need(12.5 * em) ? 'normal' : cellPx >= need(11 * em) ? 'small' : 'none';
    setAttr(root, 'data-fit', fit);
    // row labels: the label column as views.css draws it (--mv-label), less the head's right padding (0.5em of its 0.8em)
    const rowRoomPx = labelEm * fontPx - 0.5 * headPx;
    for (let i = 0; i < rows; i++) setText(rowHeads[i], abbreviate(rowLabels[i], rowRoomPx, font, headPx));
    // column labels: abbreviated to the cell; when even short labels (d1..d16) do not fit, every
    // stride-th one (the others keep their full label in title and in each cell's accessible name)
    const cellRoomPx = Math.min(cellPx, CELL_MAX_EM * fontPx);
    const longest = Math.max(...colLabels.map((s) => Math.min(s.length, 4)));   // longer ones abbreviate
    const stride = Math.max(1, Math.ceil((longest * 0.5 * 0.8 * fontPx + 4) / cellRoomPx));
    // a head's room, as the fixed table layout shares the grid's width (its cells, the label column, 2 px
    // between columns); with a stride, the empty heads after it too, less its left padding (0.1875em of its 0.8em)
    const gridPx = Math.min(width, labelEm * fontPx + cols * CELL_MAX_EM * fontPx + (cols + 2) * 2);
    const headRoomPx = Math.max(0, (gridPx - labelEm * fontPx - (cols + 2) * 2) / cols);
    const colRoomPx = stride > 1 ? headRoomPx * stride + (stride - 1) * 2 - 0.1875 * headPx : headRoomPx;
    if (stride > 1) setAttr(root, 'data-label-stride', stride);
    else root.removeAttribute('data-label-stride');
    for (let j = 0; j < cols; j++) setText(colHeads[j], j % stride === 0 ? abbreviate(colLabels[j], colRoomPx, font, headPx) : '');
    // --mv-whole: the width at which every column label is whole (at most the cells' widest), for a
    // container that gives a view that room when it can (element.css: side by side only then)
    const widestLabel = Math.max(...colLabels.map((label) => textWidth(label, font, headPx)));
    const wholePx = Math.ceil(labelEm * fontPx + cols * Math.min(CELL_MAX_EM * fontPx, widestLabel + 1) + (cols + 2) * 2);
    if (wholePx !== lastWholePx) { lastWholePx = wholePx; root.style.setProperty('--mv-whole', `${wholePx}px`); }
  }

  function drawLegend(scale) {
    if (!legend) return;
    const [lo, hi] = scale.domain;
    const stops = Array.from({ length: 11 }, (_, i) => `${cssRgb(scale.at(i / 10))} ${i * 10}%`).join(', ');
    const label = (v) => fixed(v, Math.abs(hi - lo) >= 10 ? 0 : Math.abs(hi - lo) >= 2 ? 1 : 2);
    const parts = scale.kind === 'rows' ? [say('views.legend.rowMin'), say('views.legend.rowMax')] : scale.kind === 'diverging' ? [label(lo), '0', label(hi)] : [label(lo), label(hi)];
    if (legendEl.dataset.key === stops + parts.join()) return;
    legendEl.dataset.key = stops + parts.join();
    legendEl.replaceChildren(
      el('span', { class: 'mv-ramp', style: `background: linear-gradient(to right, ${stops})` }),
      el('span', { class: 'mv-ticks' }, parts.map((p) => el('span', { text: p }))));
  }

  // --- tooltip, focus and pointer ---
  function showTip({ row, col }) {
    const cell = cells[row] && cells[row][col];
    if (!cell) return;
    const where = `${name}[${rowLabels[row]}, ${colLabels[col]}]`;
    setText(tipText, cell.pending ? say('views.matrix.pendingCell', { where }) : `${where} = ${cell.masked ? `0 (${maskWord(cell.masked)})` : cell.valueText}`);
    tip.hidden = false;
    const bounds = clipBoxOf(root) || { left: 0, right: innerWidth, top: 0 };
    const minLeft = Math.max(0, bounds.left) + 2, maxRight = Math.min(innerWidth, bounds.right) - 2;
    tip.style.maxWidth = `${Math.max(120, maxRight - minLeft)}px`;   // wraps rather than being cut
    // centred over the cell, then moved so that all of it is on screen and inside the box that clips
    // it; below the cell when above it would be off screen, clipped or under a sticky head
    const x = cell.td.offsetLeft + cell.td.offsetWidth / 2;
    const w = tip.offsetWidth, h = tip.offsetHeight;
    const bodyBox = body.getBoundingClientRect(), cellBox = cell.td.getBoundingClientRect();
    const left = Math.max(minLeft, Math.min(maxRight - w, bodyBox.left + x - w / 2));
    tip.style.left = `${left - bodyBox.left}px`;
    const sticky = root.closest('.stepper')?.querySelector('.stepper-head');
    const ceiling = Math.max(0, bounds.top, sticky && !sticky.contains(root) ? sticky.getBoundingClientRect().bottom : 0);
    const above = cellBox.top - h - 4 >= ceiling;
    tip.style.top = `${above ? cell.td.offsetTop - h - 4 : cell.td.offsetTop + cell.td.offsetHeight + 4}px`;
  }
  function hideTipUnlessHeld() {
    if (focused) showTip(focused);
    else if (hovered) showTip(hovered);
    else { tip.hidden = true; root.dispatchEvent(cellEvent('cellleave', { name })); }
  }
  const detailOf = ({ row, col }) => ({ row, col, value: cells[row][col].value, text: cells[row][col].valueText, name });
  const cellOf = (target) => {
    const td = target && target.closest && target.closest('td.mv-cell');
    return td && table.contains(td) ? { row: Number(td.dataset.row), col: Number(td.dataset.col) } : null;
  };

  function setActive(row, col) {
    cells[active.row][active.col].td.tabIndex = -1;
    active = { row, col };
    cells[row][col].td.tabIndex = 0;
  }
  function focusCell(row, col) {
    if (!cells[row] || !cells[row][col]) return;
    setActive(row, col);
    cells[row][col].td.focus();
  }

  table.addEventListener('focusin', (e) => {
    const at = cellOf(e.target);
    if (!at) return;
    setActive(at.row, at.col);
    focused = at;
    showTip(at);
    root.dispatchEvent(cellEvent('cellfocus', detailOf(at)));
  });
  table.addEventListener('focusout', (e) => {
    if (cellOf(e.relatedTarget)) return;   // moving to another cell: its focusin follows
    focused = null;
    hideTipUnlessHeld();
  });
  table.addEventListener('pointerover', (e) => {
    const at = cellOf(e.target);
    if (!at || (hovered && hovered.row === at.row && hovered.col === at.col)) return;
    hovered = at;
    showTip(at);
    root.dispatchEvent(cellEvent('cellhover', detailOf(at)));
  });
  table.addEventListener('pointerleave', () => { hovered = null; hideTipUnlessHeld(); });
  table.addEventListener('keydown', (e) => {
    const at = cellOf(e.target);
    if (!at || e.altKey || e.metaKey) return;
    const moves = {
      ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0],
      Home: e.ctrlKey ? [-rows, -cols] : [0, -cols], End: e.ctrlKey ? [rows, cols] : [0, cols],
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();   // handled: a stepper around this view leaves the key alone
    focusCell(Math.max(0, Math.min(rows - 1, at.row + move[0])), Math.max(0, Math.min(cols - 1, at.col + move[1])));
  });

  // --- highlight: an outline (not colour alone) on rows, columns and single cells ---
  // Outlines change only where they differ from the last ones, so a step or an edit that outlines the
  // same cells again touches no node.
  let marked = new Map(), marking = null;   // outlined node -> its kind ('line' or 'cell'); the spec
  function outline(next) {
    for (const [node, kind] of marked) if (next.get(node) !== kind) node.removeAttribute('data-hl');
    for (const [node, kind] of next) if (marked.get(node) !== kind) node.setAttribute('data-hl', kind);
    marked = next;
    if (next.size) setAttr(root, 'data-highlighted', '');
    else root.removeAttribute('data-highlighted');
  }
  function clearHighlight() {
    marking = null;
    root.removeAttribute('data-hl-linked');
    outline(new Map());
  }
  // spec: {rows?: [i...], cols?: [j...], cells?: [[i, j]...]}; null clears. Replaces the previous one.
  // {linked: true}: a highlight that follows the pointer or focus in another view, drawn differently
  // from a stepper's own outlines (views.css, .mv[data-hl-linked]).
  function highlight(spec, { linked = false } = {}) {
    if (!spec) { clearHighlight(); return; }
    marking = spec;
    if (linked) setAttr(root, 'data-hl-linked', ''); else root.removeAttribute('data-hl-linked');
    const next = new Map();
    const mark = (node, kind) => { if (node && next.get(node) !== 'cell') next.set(node, kind); };
    for (const i of spec.rows || []) {
      if (!cells[i]) continue;
      mark(rowHeads[i], 'line');
      for (const cell of cells[i]) mark(cell.td, 'line');
    }
    for (const j of spec.cols || []) {
      if (!colHeads[j]) continue;
      mark(colHeads[j], 'line');
      for (const line of cells) mark(line[j].td, 'line');
    }
    for (const [i, j] of spec.cells || []) if (cells[i] && cells[i][j]) next.set(cells[i][j].td, 'cell');
    outline(next);
  }

  if (data) update(data);
  return {
    el: root,
    update,
    drawLive,
    highlight,
    clearHighlight,
    reveal,
    cell: (row, col) => (cells[row] && cells[row][col] ? cells[row][col].td : null),
    focusCell,
    get shape() { return [rows, cols]; },
  };
}
