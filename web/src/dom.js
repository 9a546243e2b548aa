// DOM helpers for the element: nodes are built with DOM APIs only (no innerHTML), so a learner's
// words can never become markup. Updates patch the tree in place (morph), so unchanged text,
// rendered math and keyboard focus survive a recompute.
import { tex, renderMath } from './math.js';
import { drawWhenSeen, dropDraws } from './scheduler.js';
import { pythonFixed } from './views/format.js';

// h('p', {class: 'x', text: 'hi'}, child, ...): an element; strings become text nodes. The views' el(),
// so the page and its drawings build nodes one way; setText and uid have their one home there too.
export { el as h, setText, uid } from './views/nodes.js';
import { el as h } from './views/nodes.js';

// A control built once by its section, with its listeners and state: place(node) stands for it in a
// tree built for morph, which then leaves the node where it is (or moves it there), never rebuilding or
// detaching it, so it keeps focus and state.
export function place(node) {
  const stand = document.createComment('kept');
  stand.keptNode = node;
  node.isKept = true;   // never patched into another node's shape
  return stand;
}

// Makes target's children look like source's: same-tag elements are patched (attributes, then their
// children), text nodes get new data only when it differs, placed nodes stay themselves, and a math box
// whose TeX is unchanged keeps its rendering. Source is consumed.
export function morph(target, source) {
  const next = [...source.childNodes];
  for (let i = 0; i < next.length; i++) {
    const t = target.childNodes[i] || null;
    const s = next[i].keptNode || next[i];
    if (t === s) continue;
    if (next[i].keptNode) target.insertBefore(s, t);
    else if (!t) target.append(resolvePlaces(s));
    else if (samePlace(t, s)) patch(t, s);
    else target.replaceChild(resolvePlaces(s), t);
  }
  while (target.childNodes.length > next.length) target.lastChild.remove();
}

// morph, with the patching of each child left to drawWhenSeen: when target's children already have
// source's outline (the same tags in the same order, the same placed nodes), each child is patched, and
// its math rendered, when it is on screen, so an edit's frame touches only what the learner sees. A new
// outline is morphed whole, at once.
export function morphWhenSeen(target, source) {
  const next = [...source.childNodes];
  const now = target.childNodes;
  const sameOutline = next.length === now.length
    && next.every((s, i) => (s.keptNode ? s.keptNode === now[i] : samePlace(now[i], s)));
  if (!sameOutline) {
    dropDraws(target);
    morph(target, source);
    renderMath(target);
    return;
  }
  next.forEach((s, i) => {
    const t = now[i];
    if (s.keptNode) return;
    if (t.nodeType !== Node.ELEMENT_NODE) patch(t, s);
    else drawWhenSeen(t, () => { patch(t, s); renderMath(t); });
  });
}

// A new subtree going in whole: its stand-ins become the nodes they stand for.
function resolvePlaces(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return node;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_COMMENT);
  const stands = [];
  while (walker.nextNode()) if (walker.currentNode.keptNode) stands.push(walker.currentNode);
  for (const stand of stands) stand.replaceWith(stand.keptNode);
  return node;
}

function samePlace(t, s) {
  if (t.nodeType !== s.nodeType) return false;
  if (t.nodeType === Node.TEXT_NODE) return true;
  return t.nodeType === Node.ELEMENT_NODE && t.tagName === s.tagName && !t.isKept && !s.isKept;
}

function patch(t, s) {
  if (t.nodeType === Node.TEXT_NODE) {
    if (t.data !== s.data) t.data = s.data;
    return;
  }
  if ('tex' in t.dataset && t.dataset.tex === s.dataset.tex) return;   // the same formula: keep its rendering
  for (const { name } of [...t.attributes]) if (!s.hasAttribute(name) && !learnerOwns(t, name)) t.removeAttribute(name);
  for (const { name, value } of s.attributes) {
    if (t.getAttribute(name) === value || learnerOwns(t, name)) continue;
    if (name === 'style') t.style.cssText = value;   // the CSSOM (views/nodes.js's el): no style attribute for a CSP to refuse
    else t.setAttribute(name, value);
  }
  morph(t, s);
}

// State the learner sets by hand, which an update leaves as it is: a listing opened stays open.
const learnerOwns = (el, name) => name === 'open' && el.tagName === 'DETAILS';


// A paragraph from mixed parts: strings stay text, ['$', tex] parts become math.
export function para(...parts) {
  return h('p', null, parts.map((p) => (Array.isArray(p) ? tex(p[1]) : p)));
}

// 4 decimals, as the book writes numbers and Python's '%.4f' prints them (views/format.js's pythonFixed:
// from the float32's exact value, ties to even; nan, inf, -inf).
export const fixed4 = (v) => pythonFixed(v, 4);

// Python code, marked as highlighters expect it.
export function pythonCode(python) {
  return h('pre', { class: 'code' }, h('code', { class: 'language-python', text: python }));
}

// A code cell: the book's Python, then what print shows, computed by the engine.
export function codeCell(python, output, extra = {}) {
  return h('figure', { class: 'cell' }, pythonCode(python),
    h('pre', { class: 'out', 'data-testid': extra.testid, 'data-cell': extra.cell, text: output }));
}
