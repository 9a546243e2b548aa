// The page's one scheduler: frame, task and idle work, the time budget of work spread over tasks,
// what is on screen, and the read and write phases of layout. The element, the sections and the math
// use it; the drawing views receive it (views/index.js's useScheduler) and import nothing from here.

// How long one task's share of work spread over tasks may run before it yields to the browser (ms).
// Under 50 ms with room to spare, throttled 4× too: a slice checks the clock between pieces of work.
export const BUDGET_MS = { draws: 4, math: 8, compute: 10 };

// ---- tasks and frames

// A new task (so the browser can paint and handle input between two pieces of work).
export function nextTask() {
  return new Promise((resolve) => { const ch = new MessageChannel(); ch.port1.onmessage = () => resolve(); ch.port2.postMessage(0); });
}

const framesRun = () => typeof requestAnimationFrame === 'function' && document.visibilityState !== 'hidden';

// requestAnimationFrame, except in a hidden tab, which runs no frames: there a task does.
export function nextFrame() {
  if (!framesRun()) return nextTask();
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

// fn in the next animation frame (a task in a hidden tab); returns a function that cancels it.
export function frame(fn) {
  let live = true;
  nextFrame().then(() => { if (live) fn(); });
  return () => { live = false; };
}

// A task when the browser is idle (requestIdleCallback, at most timeoutMs away), else the next task:
// work nobody waits for.
export function idle(timeoutMs = 200) {
  if (typeof requestIdleCallback !== 'function') return nextTask();
  return new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: timeoutMs }));
}

// Work spread over tasks: step() runs a piece and returns whether pieces are left; each task runs
// pieces until its share of the budget (BUDGET_MS[kind]) is spent. Resolves when none are left.
export async function sliced(kind, step) {
  const budget = BUDGET_MS[kind];
  for (let more = true; more;) {
    await nextTask();
    const start = performance.now();
    do more = step(); while (more && performance.now() - start < budget);
  }
}

// ---- read and write phases

// Layout reads batched after an update's writes. A size read between writes makes the browser lay the
// page out again, once per view; every job queued in one synchronous pass (an update of every section)
// instead reads in a row, one layout for the lot, and then writes. Runs before the pass's promise
// settles for anyone awaiting it. node: what the job measures (the latest job per node counts).
// (The matrix views read no layout where a ResizeObserver tells their width, every browser the suite
// runs: views/matrix-view.js. This is their fallback.)
// whenShown: inside a region off screen, the read waits until the browser shows the region (as
// measureAfterFrame's do) rather than for a task of its own, which lays out that region for it: for a
// read only a learner looking at it needs (a plot's label widths: 30-50 ms at load, throttled 4×).
let pending = null;
export function measureThenWrite(read, write, node, { whenShown = false } = {}) {
  const region = node && skippedRegionOf(node);
  if (region) { later(region, node, { read, write, untilShown: whenShown }); return; }
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
// waits. The regions are the page's sections (skipWhileOffScreen).
const skipped = new Set();
const sections = new WeakSet();
const deferred = new Map();   // region -> Map(node -> latest job)
let draining = null;
const hasStateEvents = typeof ContentVisibilityAutoStateChangeEvent === 'function';
export function skipWhileOffScreen(region) {
  sections.add(region);
  // until the browser first renders it, whether it skips it is not known: its reads wait for that
  // first event (it comes for a region shown as for one skipped)
  if (hasStateEvents) skipped.add(region);
  region.addEventListener('contentvisibilityautostatechange', (e) => {
    if (e.target !== region) { partState(e.target, e.skipped); return; }   // a part's (element.css: see skippedPartOf)
    if (e.skipped) { skipped.add(region); return; }
    skipped.delete(region);
    const jobs = deferred.get(region);
    deferred.delete(region);
    if (jobs) for (const [node, job] of jobs) measureThenWrite(job.read, job.write, node);
    const shown = untilShown.get(region);
    untilShown.delete(region);
    if (shown) for (const [node, job] of shown) readAfterFrame(node, job);
  });
}
function skippedRegionOf(node) {
  if (!skipped.size) return null;
  for (let n = node; n; n = n.parentNode) if (skipped.has(n)) return n;
  for (const region of skipped) if (!region.isConnected) skipped.delete(region);   // a rebuilt element's old sections
  return null;
}
// A section's parts have content-visibility: auto too (element.css), so in a section on screen the
// browser lays out only the parts near the screen, and a section's first layout is not one long task.
// A read inside another part would lay that part out (a stepper with 16-column views: 35-40 ms, at full
// speed): it waits, as a section's do, until the browser renders the part (scrolled near), whose frame
// lays it out anyway. A part never scrolled to is never laid out. Which parts the browser skips is
// known from their events (which bubble to the section), so finding one reads no style: after an
// edit's writes, a computed-style read restyled the page (10-25 ms).
const skippedParts = new WeakSet();
function partState(part, isSkipped) {
  if (isSkipped) { skippedParts.add(part); return; }
  skippedParts.delete(part);
  const jobs = untilShown.get(part);
  untilShown.delete(part);
  if (jobs) for (const [node, job] of jobs) readAfterFrame(node, job);
}
// The part of node's section that the browser skips now, or null.
function skippedPartOf(node) {
  for (let n = node; n && !sections.has(n); n = n.parentNode) if (skippedParts.has(n)) return n;
  return null;
}
// The same, for a read about to run: the events lag the browser by a frame (one whose state changed in
// the frame just drawn has not been dispatched yet: at load, a part shown in one frame is pushed off
// screen in the next as the sections above fill), so the node itself says whether a region or a part
// around it is skipped now: inside a skipped subtree, checkVisibility answers without styling it, and
// outside one, the style it brings up to date is what the read after it needs anyway. The element
// returned, a section or a part, is skipped: its next event is the one that shows it.
function skippedNowOf(node) {
  const known = skippedPartOf(node);
  if (known || !hasStateEvents || !node.isConnected) return known;
  const shown = (el) => el.checkVisibility({ contentVisibilityAuto: true });
  if (shown(node)) return null;
  let n = node.parentNode;   // the nearest ancestor shown is the one that skips its contents
  while (n?.nodeType === Node.ELEMENT_NODE && !shown(n)) n = n.parentNode;
  // that is, if it has content-visibility: auto and no child of it is shown (a closed <details> shows
  // its summary: its contents are hidden, which no scrolling changes)
  if (n?.nodeType !== Node.ELEMENT_NODE || getComputedStyle(n).contentVisibility !== 'auto') return null;
  return [...n.children].some(shown) ? null : n;
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
      if (!region.isConnected) { skipped.delete(region); continue; }
      const now = [];
      for (const [node, job] of jobs) {
        if (job.untilShown && parkUntilShown(node, job)) continue;
        const skipping = job.untilShown ? skippedNowOf(node) : null;
        if (skipping) parkUnder(skipping, node, job);
        else now.push(job);
      }
      run(now);
    }
    draining = null;
  })();
}
// A read that can wait for the frame to be drawn (whether a box scrolls sideways, say): it runs in a
// task after it, when the layout is already done and reading it costs nothing.
// Inside a region off screen, it waits until the region is shown (reading it would lay out what the
// browser skipped, a whole section: 50 ms throttled 4×); a region shown later is laid out by its frame.
const untilShown = new Map();   // skipped region or part -> Map(node -> latest job)
// (queued when the next frame has come, not now: a part added since the last frame has had no
// contentvisibilityautostatechange yet, so whether the browser skips it is not known before then)
const forNextFrame = [];
let frameWait = null;
export function measureAfterFrame(read, write, node) {
  forNextFrame.push([node, { read, write, untilShown: true }]);
  frameWait ||= nextFrame().then(() => {
    frameWait = null;
    for (const [node, job] of forNextFrame.splice(0)) if (!parkUntilShown(node, job)) readAfterFrame(node, job);
  });
}
// (every such read of a page in one task: the frame laid them all out, so together they cost one layout
// at most, where a task each would lay the page out again after each one's writes)
const readAfterFrame = (node, job) => later(node.getRootNode(), node, job);
function parkUntilShown(node, job) {
  const region = skippedRegionOf(node);
  if (!region) return false;
  for (const r of untilShown.keys()) if (!r.isConnected) untilShown.delete(r);   // a rebuilt element's old sections
  parkUnder(region, node, job);
  return true;
}
// A read under a section or part the browser skips: run after the frame that shows it (the section's
// event in skipWhileOffScreen, a part's in partState).
function parkUnder(skipping, node, job) {
  if (!untilShown.has(skipping)) untilShown.set(skipping, new Map());
  untilShown.get(skipping).set(node, job);
}
// How many reads wait for their region or part to be shown (tests).
export function readsWaitingUntilShown() {
  let n = 0;
  for (const [region, jobs] of untilShown) if (region.isConnected) n += jobs.size;
  return n;
}

// Once per frame: the same computed-style read, shared by every view drawn until the next frame (a
// custom property read after writes recalculates the page's style, and a page has dozens of views,
// drawn over several tasks).
let perFrame = null;
export function oncePerFrame(key, read) {
  if (!perFrame) {
    perFrame = new Map();
    const reset = () => { perFrame = null; };
    if (framesRun()) requestAnimationFrame(reset);
    else queueMicrotask(reset);
  }
  if (!perFrame.has(key)) perFrame.set(key, read());
  return perFrame.get(key);
}

// ---- what is on screen

// Drawing that waits while it is off screen. An edit redraws every view and paragraph of a section;
// the ones on screen draw at once, in the edit's frame, and the others in the tasks after it, a few ms
// of them per task (BUDGET_MS.draws), or as soon as one comes on screen (an IntersectionObserver).
// Only a node's latest draw runs. A node that is not in the document, not yet seen by the observer, or
// holding the keyboard focus (just scrolled to, before the observer's next report) draws at once, except
// a drawing view's while an element's first pass runs (holdUnseenDraws): then a view not in the document
// yet (a section being built: its first update draws it again anyway) or not yet reported on waits, those
// on screen for the observer's first report, the others a few ms per task, so that no task at load draws
// a whole section's views (they were most of the load's long tasks). Text (dom.js's patches) is cheap
// and draws as before, so the first numbers come with their section's first update.
// How many elements run their first pass (element.js); while any does, the views' draws wait as above.
let heldUnseen = 0;
export function holdUnseenDraws(hold) { heldUnseen += hold ? 1 : -1; }
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
// Paper has no "off screen": while the page prints (beforeprint, or print media emulated) every draw
// waiting for the screen runs at once, and so does every new one.
let onPaper = false;   // (kept by the events: a draw asks often, and needs no media query evaluated)
function printing(on) {
  onPaper = on;
  if (on) for (const [node, draw] of [...waiting]) { waiting.delete(node); drawReportingErrors(draw); }
}
if (typeof matchMedia === 'function' && typeof addEventListener === 'function') {
  matchMedia('print').addEventListener('change', (e) => printing(e.matches));
  addEventListener('beforeprint', () => printing(true));
  addEventListener('afterprint', () => printing(false));
}
export function drawWhenSeen(node, draw) { drawWhen(node, draw, false); }
function drawViewWhenSeen(node, draw) { drawWhen(node, draw, heldUnseen > 0); }
// The observer reports on node from now on (its state unknown until the first report).
function watchNode(watch, node) {
  if (!onScreen.has(node)) { onScreen.set(node, undefined); watch.observe(node); }
}
function drawWhen(node, draw, held) {
  const watch = watchScreen();
  if (!watch || (!node.isConnected && !held) || onPaper) { waiting.delete(node); draw(); return; }
  watchNode(watch, node);
  if (held && (!node.isConnected || (onScreen.get(node) === undefined && !holdsFocus(node)))) {
    waiting.set(node, draw);
    drawing ||= drawWaiting();
    return;
  }
  if (onScreen.get(node) !== false || holdsFocus(node)) { waiting.delete(node); draw(); return; }
  waiting.set(node, draw);
  drawing ||= drawWaiting();
}
// Whether node is off screen, as the observer last reported (false while not known); watches it from
// now on. For work that may wait longer than a draw while off screen (the temperature map while the
// slider moves).
export function offScreen(node) {
  const watch = watchScreen();
  if (!watch || !node.isConnected) return false;
  watchNode(watch, node);
  return onScreen.get(node) === false;
}
// (in a first pass, after the next frame: the section's own update comes first, and the frame lays the
// page out and lets the observer say what is on screen before any view's draw reads the layout)
async function drawWaiting() {
  if (heldUnseen) await nextFrame();
  return sliced('draws', () => {
    const next = waiting.entries().next();
    if (next.done) return false;
    waiting.delete(next.value[0]);
    drawReportingErrors(next.value[1]);
    return waiting.size > 0;
  }).then(() => { drawing = waiting.size ? drawWaiting() : null; });   // a draw queued as the last slice ended
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

// node.scrollIntoView({ block }), kept in place while what is above it is laid out for the first time:
// a part of a section with content-visibility: auto (element.css) has an estimated height until it has
// been near the screen once, so the scroll that brings it near can move the target (the browser lays a
// part out a frame or two after the one that brought it near). Scrolled again in the frames after,
// until the target holds still for six frames (at most 60 frames), or the learner scrolls, types or
// touches.
export function scrollIntoViewSettled(node, block = 'start') {
  node.scrollIntoView({ block });
  if (!framesRun()) return;
  let stop = false, still = 0, frames = 0, top = node.getBoundingClientRect().top;
  const learner = () => { stop = true; };
  const INPUTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'];
  for (const type of INPUTS) addEventListener(type, learner, { capture: true, passive: true, once: true });
  // (scrolled again only when it moved: a scroll drops the browser's scroll anchor, which otherwise
  // holds the target in place as the parts above it are laid out, and one made in the frame that lays
  // them out let the target jump by their change for a frame)
  const check = () => {
    if (!stop && node.isConnected && frames++ < 60) {
      const now = node.getBoundingClientRect().top;
      if (Math.abs(now - top) < 1) still++;
      else { still = 0; node.scrollIntoView({ block }); top = node.getBoundingClientRect().top; }
      if (still < 6) { requestAnimationFrame(check); return; }
    }
    for (const type of INPUTS) removeEventListener(type, learner, { capture: true });
  };
  requestAnimationFrame(check);
}

// Which nodes are on the screen or within one screen of it: onNear(node) when a watched node comes
// near, onFar(node) when it leaves. Returns {watch(node), stop()}, or null where browsers cannot tell
// (everything is then near).
export function watchNear(onNear, onFar) {
  if (typeof IntersectionObserver !== 'function') return null;
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) (e.isIntersecting ? onNear : onFar)(e.target);
  }, { rootMargin: '100% 0px' });
  return { watch: (node) => observer.observe(node), stop: () => observer.disconnect() };
}

// A drawing view's work in the next frame (a view drawn before it was in the page, the fit after its
// room's first report), which drawingSettled waits for. Every view's work for a frame runs in one
// callback, so that the layout reads they queue (measureThenWrite) run in one batch after all of them:
// with a callback each (and its microtasks after it), a frame that fitted n views restyled the page n
// times, each view's reads after the previous view's writes.
const viewFrames = new Set();
let frameBatch = null;   // the work queued for the next frame
function viewFrame(fn) {
  let live = true;
  if (!frameBatch) {
    const batch = frameBatch = [];
    const done = nextFrame().then(() => {
      frameBatch = null;   // (work queued by this work is the next frame's)
      for (const work of batch) drawReportingErrors(work);
    }).finally(() => viewFrames.delete(done));
    viewFrames.add(done);
  }
  frameBatch.push(() => { if (live) fn(); });
  return () => { live = false; };
}

// Resolves when no draw and no read waits any more (the page's updateComplete includes it).
export async function drawingSettled() {
  while (drawing || draining || frameWait || viewFrames.size) { await drawing; await frameWait; await draining; await Promise.all(viewFrames); }
}

// What the drawing views are given (views/index.js's useScheduler).
export const viewScheduler = Object.freeze({ frame: viewFrame, drawWhenSeen: drawViewWhenSeen, measureThenWrite, oncePerFrame });
