// The drawing views' one DOM helper: elements from tag, attributes and children, built with DOM APIs
// only (never innerHTML), so a learner's words can never become markup. SVG elements get the SVG namespace.

import { nextTask } from '../tasks.js';

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
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// A fresh id for aria links, unique per document even with several views and elements on a page (the
// page's and the views' ids come from one counter).
let idCounter = 0;
export const uid = (stem) => `al-${stem}-${++idCounter}`;

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

// Layout reads batched after an update's writes. A size read between writes makes the browser lay the
// page out again, once per view; every job queued in one synchronous pass (an update of every section)
// instead reads in a row, one layout for the lot, and then writes. Runs before the pass's promise
// settles for anyone awaiting it. node: what the job measures (the latest job per node counts).
let pending = null;
export function measureThenWrite(read, write, node) {
  const region = node && skippedRegionOf(node);
  if (region) { later(region, node, { read, write }); return; }
  if (!pending) { pending = []; queueMicrotask(() => { const jobs = pending; pending = null; run(jobs); }); }
  pending.push({ read, write });
}
function run(jobs) {
  const seen = jobs.map((job) => job.read());
  jobs.forEach((job, i) => job.write(seen[i]));
}

// A region with content-visibility: auto that is off screen is neither styled nor laid out; a size
// read inside it lays it out. So its reads wait: for the browser to render it again (its
// contentvisibilityautostatechange event), or for a task of their own after the frame, one region per
// task, so an edit's frame lays out only what is on screen. In a browser without the event, nothing
// waits.
const skipped = new Set();
const deferred = new Map();   // region -> Map(node -> latest job)
let draining = null;
export function skipWhileOffScreen(region) {
  region.addEventListener('contentvisibilityautostatechange', (e) => {
    if (e.skipped) { skipped.add(region); return; }
    skipped.delete(region);
    const jobs = deferred.get(region);
    deferred.delete(region);
    if (jobs) for (const [node, job] of jobs) measureThenWrite(job.read, job.write, node);
  });
}
function skippedRegionOf(node) {
  if (!skipped.size) return null;
  for (let n = node; n; n = n.parentNode) if (skipped.has(n)) return n;
  for (const region of skipped) if (!region.isConnected) skipped.delete(region);   // a rebuilt element's old sections
  return null;
}
function later(region, node, job) {
  if (!deferred.has(region)) deferred.set(region, new Map());
  deferred.get(region).set(node, job);
  draining ||= (async () => {
    while (deferred.size) {
      await nextTask();
      if (drawing) { await drawing; continue; }   // what waits to be drawn is measured once it is
      const next = deferred.entries().next();
      if (next.done) break;
      const [region, jobs] = next.value;
      deferred.delete(region);
      if (region.isConnected) run([...jobs.values()]);
      else skipped.delete(region);
    }
    draining = null;
  })();
}
// A read that can wait for the frame to be drawn (whether a box scrolls sideways, say): it runs in a
// task after it, when the layout is already done and reading it costs nothing.
export function measureAfterFrame(read, write, node) {
  later(node, node, { read, write });
}

// Drawing that waits while it is off screen. An edit redraws every view and paragraph of a section;
// the ones on screen draw at once, in the edit's frame, and the others in the tasks after it, a few ms
// of them per task, or as soon as one comes on screen (an IntersectionObserver). Only a node's latest
// draw runs. A node that is not in the document, not yet seen by the observer, or holding the keyboard
// focus (just scrolled to, before the observer's next report) draws at once.
const onScreen = new WeakMap();   // node -> on screen, as the observer last reported (absent: not known)
const waiting = new Map();    // node -> its latest draw, in the order they were first queued
let screenWatch = null, drawing = null;
function watchScreen() {
  if (screenWatch === null) {
    screenWatch = typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => {
      for (const e of entries) {
        onScreen.set(e.target, e.isIntersecting);
        const draw = e.isIntersecting && waiting.get(e.target);
        if (draw) { waiting.delete(e.target); drawReportingErrors(draw); }
      }
    }) : false;
  }
  return screenWatch;
}
export function drawWhenSeen(node, draw) {
  const watch = watchScreen();
  if (!watch || !node.isConnected) { waiting.delete(node); draw(); return; }
  if (!onScreen.has(node)) { onScreen.set(node, undefined); watch.observe(node); }
  if (onScreen.get(node) !== false || holdsFocus(node)) { waiting.delete(node); draw(); return; }
  waiting.set(node, draw);
  drawing ||= (async () => {
    while (waiting.size) {
      await nextTask();
      const start = performance.now();
      for (const [n, d] of waiting) {
        waiting.delete(n);
        drawReportingErrors(d);
        if (performance.now() - start > 4) break;
      }
    }
    drawing = null;
  })();
}
function holdsFocus(node) {
  const focused = node.getRootNode().activeElement;
  return Boolean(focused && node.contains(focused));
}
// A draw that throws is a bug (a view checks its data before it waits): reported, the others still run.
function drawReportingErrors(draw) {
  try { draw(); } catch (e) { console.error(e); }
}
// The draws waiting inside container are dropped (it was just redrawn whole).
export function dropDraws(container) {
  for (const n of waiting.keys()) if (container.contains(n)) waiting.delete(n);
}

// Resolves when no draw and no read waits any more (the page's updateComplete includes it).
export async function drawingSettled() {
  while (drawing || draining) { await drawing; await draining; }
}

// Once per frame: the same computed-style read, shared by every view drawn until the next frame (a
// custom property read after writes recalculates the page's style, and a page has dozens of views,
// drawn over several tasks).
let perFrame = null;
export function oncePerFrame(key, read) {
  if (!perFrame) {
    perFrame = new Map();
    const reset = () => { perFrame = null; };
    if (typeof requestAnimationFrame === 'function' && document.visibilityState !== 'hidden') requestAnimationFrame(reset);
    else queueMicrotask(reset);
  }
  if (!perFrame.has(key)) perFrame.set(key, read());
  return perFrame.get(key);
}
