// The drawing views' one DOM helper: elements from tag, attributes and children, built with DOM APIs
// only (never innerHTML), so a learner's words can never become markup. SVG elements get the SVG namespace.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'class') el.setAttribute('class', value);
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

// Sets a text node's or element's text only when it changes.
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// A fresh id for aria links, unique per document even with several views and elements on a page.
let idCounter = 0;
export const uid = (stem) => `al-view-${stem}-${++idCounter}`;

// A ResizeObserver whose callback runs in the next animation frame, once however many sizes changed:
// a callback that changes layout inside the observer's delivery makes browsers report "ResizeObserver
// loop completed with undelivered notifications" as a page error (WebKit does). Returns the observer
// (to observe more nodes), or null where there is none.
export function onResize(node, fn) {
  if (typeof ResizeObserver === 'undefined') return null;
  let entries = null;
  const observer = new ResizeObserver((latest) => {
    if (entries) { entries = latest; return; }
    entries = latest;
    requestAnimationFrame(() => { const e = entries; entries = null; fn(e); });
  });
  observer.observe(node);
  return observer;
}
