// The drawing views' one DOM helper: elements from tag, attributes and children, built with DOM APIs
// only (never innerHTML), so a learner's words can never become markup. SVG elements get the SVG namespace.

import { sched } from './schedule.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'class') el.setAttribute('class', value);
    // through the CSSOM, never a style attribute: a host's CSP may refuse those (style-src without 'unsafe-inline')
    else if (key === 'style') el.style.cssText = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

// el('p', {class: 'x', text: 'hi'}, child, ...): an HTML element; strings become text nodes.
export function el(tag, props, ...children) {
  return build(document.createElement(tag), props, children);
}

// svg('circle', {cx: 1, ...}): the same for SVG.
export function svg(tag, props, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

// Sets an attribute only when it changes (an update touches nothing that stays the same).
export function setAttr(node, name, value) {
  const text = String(value);
  if (node.getAttribute(name) !== text) node.setAttribute(name, text);
}

// Sets a text node's or element's text only when it changes (no mutation, no live-region announcement otherwise).
// An element holding one text node keeps it and changes its data: one text change for the layout to
// redo, not a node removed and another inserted.
export function setText(node, text) {
  if (node.textContent === text) return;
  const only = node.firstChild;
  if (only && only === node.lastChild && only.nodeType === 3 && text) only.data = text;
  else node.textContent = text;
}

// A fresh id for aria links, unique per document even with several views and elements on a page (the
// page's and the views' ids come from one counter).
let idCounter = 0;
export const uid = (stem) => `al-${stem}-${++idCounter}`;

// A ResizeObserver whose callback runs in the next animation frame (the scheduler's), once however many sizes changed:
// a callback that changes layout inside the observer's delivery makes browsers report "ResizeObserver
// loop completed with undelivered notifications" as a page error (WebKit does). Returns the observer
// (to observe more nodes), or null where there is none.
export function onResize(node, fn) {
  if (typeof ResizeObserver === 'undefined') return null;
  let entries = null;
  const observer = new ResizeObserver((latest) => {
    if (entries) { entries = latest; return; }
    entries = latest;
    sched.frame(() => { const e = entries; entries = null; fn(e); });
  });
  observer.observe(node);
  return observer;
}
