// Each drawing's export menu (issue 46): PNG at 2× and SVG of what is drawn (its colours, labels, shape
// badge, values in cells and legend, in the theme shown), CSV of its numbers, "Copy as PyTorch", the
// whole section as one HTML file, and a link to this state. The images are read from the drawing as it
// is laid out (exportImage), so they show what the learner sees; the numbers come from the data the
// drawing was given (the engine's). It computes nothing.
import { el, uid } from './nodes.js';
import { csvText, torchLiteral, svgFromScene, rgbStops } from './export-format.js';
import { say, sayNow } from './words.js';

// The section as an HTML file and a link to its state need the page's folder and integrity map, which
// views do not import (web/src/export-state.js): the element gives them with useExportState, as it gives
// the views its scheduler. A view used alone offers neither.
let pageState = null;
export function useExportState(state) { pageState = state; }

// Every user-visible string of the menu, read in the page's language when asked (words.js's
// views.export.* keys: say() reads the catalogue the element gave the views). exportWords(speak): the
// same words through another say, e.g. one held to the language of the click (sayNow) for an action's
// status, said after awaits.
const exportWords = (say) => ({
  button: (name) => say('views.export.button', { name }),
  get buttonText() { return say('views.export.buttonText'); },
  get png() { return say('views.export.png'); },
  get svg() { return say('views.export.svg'); },
  get csv() { return say('views.export.csv'); },
  get torch() { return say('views.export.torch'); },
  get html() { return say('views.export.html'); },
  get link() { return say('views.export.link'); },
  saved: (file) => say('views.export.saved', { file }),
  savedFramed: (file) => say('views.export.savedFramed', { file }),
  copied: (what) => say('views.export.copied', { what }),
  copyByHand: (what) => say('views.export.copyByHand', { what }),
  failed: (what, why) => say('views.export.failed', { what, why }),
  get notDrawn() { return say('views.export.notDrawn'); },
  get pending() { return say('views.export.pending'); },
  get noHtml() { return say('views.export.noHtml'); },
  get linkWhat() { return say('views.export.linkWhat'); },
  get torchWhat() { return say('views.export.torchWhat'); },
  get csvWhat() { return say('views.export.csvWhat'); },
  // what an action makes, in "Could not make the …"
  made: (action) => ({ png: () => say('views.export.madePng'), svg: () => say('views.export.madeSvg'), csv: () => say('views.export.madeCsv'),
    torch: () => say('views.export.madeTorch'), html: () => say('views.export.madeHtml'), link: () => say('views.export.madeLink') })[action](),
  get noSvgImage() { return say('views.export.noSvgImage'); },
  get noPng() { return say('views.export.noPng'); },
  // the names of the plots' CSV heads and of the q–k plane
  get qkName() { return say('views.export.qkName'); },
  get qkTitle() { return say('views.export.qkTitle'); },
  heads: {
    get series() { return say('views.export.headSeries'); },
    get axis() { return say('views.export.headAxis'); },
    get point() { return say('views.export.headPoint'); },
    get vector() { return say('views.export.headVector'); },
    get dimension() { return say('views.export.headDimension'); },
  },
});
export const EXPORT_TEXT = exportWords(say);

const inFrame = () => { try { return window.self !== window.top; } catch { return true; } };

// Saves a Blob as a file: an <a download> clicked (no popup, no navigation). In a frame sandboxed
// without allow-downloads the browser drops it silently: the status says so.
// The last file's URL is revoked when the next is made (not at once: a download may still be reading it).
let lastSaved = null;
function save(blob, file, words) {
  if (lastSaved) URL.revokeObjectURL(lastSaved);
  const url = URL.createObjectURL(blob);
  lastSaved = url;
  const a = el('a', { href: url, download: file, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  return inFrame() ? words.savedFramed(file) : words.saved(file);
}

// The drawing's page background: the first painted background from the drawing up (through the
// element's shadow root to the host page), else white.
function backgroundOf(node) {
  for (let n = node; n; n = n.parentElement || (n.getRootNode && n.getRootNode().host) || null) {
    const bg = getComputedStyle(n).backgroundColor;
    if (bg && !/^rgba\(.*,\s*0\)$|^transparent$/.test(bg)) return bg;
  }
  return 'rgb(255, 255, 255)';
}

// A text node's box and the font it is drawn in, as a scene text (x at its left, y at its baseline).
function textItem(node, origin) {
  const text = node.textContent;
  if (!text || !text.trim()) return null;
  const range = document.createRange();
  range.selectNodeContents(node);
  const b = range.getBoundingClientRect();
  if (!b.width) return null;
  const s = getComputedStyle(node.nodeType === 1 ? node : node.parentElement);
  const size = parseFloat(s.fontSize);
  // baseline: the line box's middle plus about a third of the font size (the alphabetic baseline of most faces)
  return { type: 'text', x: b.left - origin.left, y: b.top - origin.top + b.height / 2 + size * 0.35, text: text.trim(),
    fill: s.color, size, weight: s.fontWeight, family: s.fontFamily, style: s.fontStyle };
}

// A matrix view as a scene: what is drawn, in px from its figure's corner, each part in its computed colour.
export function matrixScene(root, title) {
  const origin = root.getBoundingClientRect();
  const items = [];
  const add = (item) => { if (item) items.push(item); };
  const name = root.querySelector('.mv-name'), badge = root.querySelector('.mv-shape');
  if (name) {
    const item = textItem(name, origin);
    if (item) add({ ...item, text: title || item.text });   // a KaTeX title is written as its plain name
  }
  if (badge) add(textItem(badge, origin));
  for (const th of root.querySelectorAll('.mv-grid th')) add(textItem(th, origin));
  for (const td of root.querySelectorAll('.mv-grid td.mv-cell')) {
    const b = td.getBoundingClientRect(), s = getComputedStyle(td);
    add({ type: 'rect', x: b.left - origin.left, y: b.top - origin.top, w: b.width, h: b.height, fill: s.backgroundColor,
      radius: parseFloat(s.borderTopLeftRadius) || 0, row: Number(td.dataset.row), col: Number(td.dataset.col) });
    const v = td.querySelector('.mv-v');
    if (v && v.textContent) add(textItem(v, origin));
  }
  const ramp = root.querySelector('.mv-ramp');
  let bottom = root.querySelector('.mv-body').getBoundingClientRect().bottom;
  if (ramp) {
    const b = ramp.getBoundingClientRect();
    add({ type: 'ramp', x: b.left - origin.left, y: b.top - origin.top, w: b.width, h: b.height, stops: rgbStops(ramp.style.background) });
    for (const tick of root.querySelectorAll('.mv-ticks > span')) add(textItem(tick, origin));
    bottom = root.querySelector('.mv-legend').getBoundingClientRect().bottom;
  }
  const right = Math.max(...items.map((i) => (i.type === 'text' ? i.x + i.text.length * i.size * 0.62 : i.x + i.w)), 1);
  return { width: Math.ceil(Math.max(right, root.querySelector('.mv-body').getBoundingClientRect().right - origin.left) + 2),
    height: Math.ceil(bottom - origin.top + 4), background: backgroundOf(root), items };
}

// An SVG drawing (a plot, the q–k plane) as standalone SVG text: a copy with every part's computed
// paint written in, over the page's background, under its title.
const PAINT = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity', 'fill-opacity', 'opacity', 'font-size',
  'font-family', 'font-weight', 'font-style', 'text-anchor', 'visibility', 'display', 'dominant-baseline'];
export function svgDrawingText(svgEl, title) {
  const b = svgEl.getBoundingClientRect();
  const copy = svgEl.cloneNode(true);
  const from = [svgEl, ...svgEl.querySelectorAll('*')], to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((node, k) => {
    const s = getComputedStyle(node);
    to[k].setAttribute('style', PAINT.map((p) => `${p}:${s.getPropertyValue(p)}`).join(';'));
    for (const a of ['tabindex', 'role', 'aria-labelledby', 'aria-describedby', 'aria-label', 'class']) to[k].removeAttribute(a);
  });
  const titleSize = 14, head = title ? titleSize + 10 : 0;
  copy.setAttribute('x', '0'); copy.setAttribute('y', String(head));
  copy.setAttribute('width', String(b.width)); copy.setAttribute('height', String(b.height));
  const color = getComputedStyle(svgEl).color, family = getComputedStyle(svgEl).fontFamily;
  const esc = (t) => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
  const w = Math.ceil(b.width), h = Math.ceil(b.height + head);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`
    + `<rect width="100%" height="100%" fill="${backgroundOf(svgEl)}"/>`
    + (title ? `<text x="4" y="${titleSize + 2}" fill="${color}" font-family="${esc(family)}" font-size="${titleSize}" font-weight="700">${esc(title)}</text>` : '')
    + new XMLSerializer().serializeToString(copy) + '</svg>';
}

// A scene drawn on a 2D canvas at `scale` device pixels per px (the PNG's path: no image decoding, so
// no canvas tainting in any engine).
function sceneCanvas(scene, scale) {
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(scene.width * scale); canvas.height = Math.round(scene.height * scale);
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  g.fillStyle = scene.background; g.fillRect(0, 0, scene.width, scene.height);
  for (const item of scene.items) {
    if (item.type === 'rect') {
      g.fillStyle = item.fill; g.beginPath();
      if (g.roundRect) g.roundRect(item.x, item.y, item.w, item.h, item.radius); else g.rect(item.x, item.y, item.w, item.h);
      g.fill();
    } else if (item.type === 'ramp') {
      const grad = g.createLinearGradient(item.x, 0, item.x + item.w, 0);
      for (const [color, at] of item.stops) grad.addColorStop(at, color);
      g.fillStyle = grad; g.fillRect(item.x, item.y, item.w, item.h);
    } else {
      g.fillStyle = item.fill; g.font = `${item.style} ${item.weight} ${item.size}px ${item.family}`;
      g.textBaseline = 'alphabetic'; g.textAlign = 'left';
      g.fillText(item.text, item.x, item.y);
    }
  }
  return canvas;
}
// SVG text drawn on a canvas through an image (the plots' PNG).
function svgCanvas(text, scale, words) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(image.width * scale); canvas.height = Math.round(image.height * scale);
      canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
      resolve(canvas);
    };
    image.onerror = () => reject(new Error(words.noSvgImage));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  });
}
const pngOf = (canvas, words) => new Promise((resolve, reject) => {
  try { canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(words.noPng))), 'image/png'); } catch (e) { reject(e); }
});

// Copies text; where the clipboard is refused (a sandboxed frame, an old browser), shows it selected.
async function copy(text, what, status, words) {
  // (a frame whose permissions policy refuses the clipboard is not asked: Chromium logs an error)
  const policy = document.permissionsPolicy || document.featurePolicy;
  try {
    if (!navigator.clipboard || (policy && !policy.allowsFeature('clipboard-write'))) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    return words.copied(what);
  } catch {
    const area = el('textarea', { class: 'export-copy', readonly: '', rows: '4', 'aria-label': what });
    area.value = text;
    status.after(area);
    area.focus(); area.select();
    return words.copyByHand(what);
  }
}

// exportMenu(figure, {name, stem, image(): {scene} | {svg}, numbers(): {csv, torch} | null})
//   -> the button and its menu, for the caller to place (in the drawing's head). Each action also
//   dispatches 'attention-lab-export' (bubbling, composed) with {action, name, file, type, text?, blob?},
//   so a host page (and the tests) can see what was made.
export function exportMenu(figure, { name, stem, image, numbers }) {
  const menuId = uid('export');
  const button = el('button', { type: 'button', class: 'export-btn', 'aria-haspopup': 'menu', 'aria-expanded': 'false',
    'aria-controls': menuId, 'aria-label': EXPORT_TEXT.button(name), 'data-testid': 'export-button', title: EXPORT_TEXT.button(name) },
  el('span', { 'aria-hidden': 'true', text: '⤓' }));
  const item = (action, text) => el('button', { type: 'button', role: 'menuitem', tabindex: '-1', class: 'export-item', 'data-action': action, text });
  const items = [item('png', EXPORT_TEXT.png), item('svg', EXPORT_TEXT.svg), ...(numbers ? [item('csv', EXPORT_TEXT.csv), item('torch', EXPORT_TEXT.torch)] : []),
    ...(pageState ? [item('html', EXPORT_TEXT.html), item('link', EXPORT_TEXT.link)] : [])];
  const menu = el('div', { class: 'export-menu', role: 'menu', id: menuId, 'aria-label': EXPORT_TEXT.button(name), hidden: true }, ...items);
  const status = el('span', { class: 'export-status', role: 'status', 'data-testid': 'export-status' });
  const wrap = el('span', { class: 'export' }, button, menu, status);

  const open = () => { menu.hidden = false; button.setAttribute('aria-expanded', 'true'); items[0].focus(); };
  const close = (refocus) => { menu.hidden = true; button.setAttribute('aria-expanded', 'false'); if (refocus) button.focus(); };
  button.addEventListener('click', () => (menu.hidden ? open() : close(false)));
  button.addEventListener('keydown', (e) => { if (e.key === 'ArrowDown' || e.key === 'ArrowUp') { e.preventDefault(); open(); if (e.key === 'ArrowUp') items[items.length - 1].focus(); } });
  menu.addEventListener('keydown', (e) => {
    const at = items.indexOf(e.target);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
    if (to !== undefined) { e.preventDefault(); e.stopPropagation(); items[(to + items.length) % items.length].focus(); return; }
    // chosen on the key's press, not on the click it would make: that click, after the focus went back to
    // the button, opened the menu again in Firefox
    if ((e.key === 'Enter' || e.key === ' ') && at >= 0) { e.preventDefault(); e.stopPropagation(); choose(items[at]); return; }
    if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); close(true); }
    if (e.key === 'Tab') close(false);
  });
  wrap.addEventListener('focusout', (e) => { if (!menu.hidden && !wrap.contains(e.relatedTarget)) close(false); });

  const tell = (detail) => figure.dispatchEvent(new CustomEvent('attention-lab-export', { bubbles: true, composed: true, detail: { name, ...detail } }));
  async function run(action) {
    for (const old of wrap.querySelectorAll('textarea.export-copy')) old.remove();
    const words = exportWords(sayNow());   // in the language of the click, after the awaits too
    const what = words.made(action);
    try {
      let said;
      // what is not on screen (held back by a question, or not yet stepped to) is not exported either
      if (action !== 'html' && action !== 'link') {
        if (!figure.isConnected || !figure.getClientRects().length) throw new Error(words.notDrawn);
        if (figure.querySelector('[data-pending]')) throw new Error(words.pending);
      }
      if (action === 'png' || action === 'svg') {
        const drawn = image();
        const file = `${stem}.${action}`;
        const svgText = drawn.svg || svgFromScene(drawn.scene);
        const blob = action === 'svg' ? new Blob([svgText], { type: 'image/svg+xml' })
          : await pngOf(drawn.scene ? sceneCanvas(drawn.scene, 2) : await svgCanvas(svgText, 2, words), words);
        tell({ action, file, type: blob.type, blob, ...(action === 'svg' ? { text: svgText } : { scene: drawn.scene || null, svg: drawn.svg || null }) });
        said = save(blob, file, words);
      } else if (action === 'csv' || action === 'torch') {
        const n = numbers();
        if (!n) throw new Error(words.notDrawn);
        if (action === 'csv') {
          const text = csvText(n), file = `${stem}.csv`;
          tell({ action, file, type: 'text/csv', text });
          said = save(new Blob([text], { type: 'text/csv' }), file, words);
          // in a frame, which may not let it download: the text too, to copy
          if (inFrame()) said = `${said} ${await copy(text, words.csvWhat, status, words)}`;
        } else {
          const text = torchLiteral(n);
          tell({ action, type: 'text/x-python', text });
          said = await copy(text, words.torchWhat, status, words);
        }
      } else if (action === 'html') {
        const { text, file } = await pageState.sectionHtml(figure, words.noHtml);
        tell({ action, file, type: 'text/html', text });
        said = save(new Blob([text], { type: 'text/html' }), file, words);
      } else {
        const text = pageState.permalink(figure);
        tell({ action, type: 'text/uri-list', text });
        said = await copy(text, words.linkWhat, status, words);
      }
      status.textContent = said;
    } catch (e) {
      status.textContent = words.failed(what, e && e.message ? e.message : String(e));
      tell({ action, error: status.textContent });
    }
  }
  const choose = (it) => { close(true); run(it.dataset.action); };
  for (const it of items) it.addEventListener('click', () => choose(it));
  return { el: wrap, run };
}

// A file name from a drawing's name: letters, digits, - and _ ("W_q" stays, "q⁽²⁾ and keys" -> "q-and-keys").
export const fileStem = (name) => String(name).normalize('NFKD').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'drawing';
