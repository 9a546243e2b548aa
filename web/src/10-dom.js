// DOM helpers for the element: nodes are built with DOM APIs only (no innerHTML), so a learner's
// words can never become markup. Math goes through KaTeX's render.

// h('p', {class: 'x', text: 'hi'}, child, ...): an element; strings become text nodes.
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'class') el.className = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

// Inline (or display) TeX. The TeX strings are the page's own; numbers in them come from the engine.
// Rendered once per distinct source and cloned after that: a recompute re-renders most formulas.
// While texDeferred > 0 (an element's first build and pass) a new formula is an empty placeholder,
// queued and rendered by drainTex a few milliseconds per task, in page order, so no task grows long.
const texCache = new Map();
const texQueue = [];
let texDeferred = 0;
function texBox(display) {
  return h(display ? 'div' : 'span', { class: display ? 'math display' : 'math' });
}
function renderTexInto(el, key, source, display) {
  const cached = texCache.get(key);
  if (cached) { el.replaceChildren(...cached.cloneNode(true).childNodes); return; }
  if (!katexModule) { el.textContent = source; return; }   // KaTeX would not load: the TeX, readable
  katexModule.render(source, el, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' });
  if (texCache.size > 2000) texCache.clear();
  texCache.set(key, el.cloneNode(true));
}
function tex(source, display = false) {
  const key = (display ? 'D' : 'I') + source;
  const cached = texCache.get(key);
  if (cached) return cached.cloneNode(true);
  const el = texBox(display);
  if (texDeferred > 0) texQueue.push({ el, key, source, display });
  else renderTexInto(el, key, source, display);
  return el;
}

// Renders the queued formulas, about 8 ms of them per task; resolves when none are left.
async function drainTex() {
  await loadKatex();
  while (texQueue.length) {
    await nextTask();
    const start = performance.now();
    while (texQueue.length && performance.now() - start < 8) {
      const { el, key, source, display } = texQueue.shift();
      renderTexInto(el, key, source, display);
    }
  }
}

// KaTeX lives in katex-lib.js beside this script, loaded by a <script> as soon as an element connects
// (in parallel with the engine): the browser compiles it off the main thread and runs its setup in a
// task of its own. Resolves once it ran, or failed (formulas then show their TeX source).
let katexModule = null;
let katexLoading = null;
function loadKatex() {
  if (!katexLoading) {
    katexLoading = new Promise((resolve) => {
      if (self.AttentionLabKatex) { katexModule = self.AttentionLabKatex; resolve(); return; }
      const s = document.createElement('script');
      s.src = new URL('katex-lib.js', BASE_URL).href;
      s.onload = () => { katexModule = self.AttentionLabKatex || null; resolve(); };
      s.onerror = () => resolve();
      document.head.append(s);
    });
  }
  return katexLoading;
}

// A paragraph from mixed parts: strings stay text, ['$', tex] parts become math.
function para(...parts) {
  return h('p', null, parts.map((p) => (Array.isArray(p) ? tex(p[1]) : p)));
}

// 4 decimals, as the book writes numbers in running text.
const fixed4 = (v) => Number(v).toFixed(4);

// The float32 the engine holds, in full: the shortest decimal that reads back as that float32.
function fullFloat(v) {
  for (let digits = 1; digits <= 9; digits++) {
    const text = Number(v).toPrecision(digits);
    if (Math.fround(Number(text)) === Math.fround(v)) return String(Number(text));
  }
  return String(v);
}

// A code cell: the book's Python, then what print shows, computed by the engine.
function codeCell(python, output, extra = {}) {
  return h('figure', { class: 'cell' },
    h('pre', { class: 'code' }, h('code', { text: python })),
    h('pre', { class: 'out', 'data-testid': extra.testid, 'data-cell': extra.cell, text: output }));
}

// A fresh id for aria links; unique per document even with several elements on one page.
let idCounter = 0;
const uid = (stem) => `al-${stem}-${++idCounter}`;
