// Math for the element: tex() makes a box naming its TeX, renderMath/drainMath render the boxes with
// KaTeX (loaded by loadKatex from the element's approved folder), deferMath queues an element's first build.
import { nextTask } from './tasks.js';
import { loadScript } from './trusted.js';
import { defaultBase, bundled, BUNDLED_FILES } from './base-url.js';
import { el as h } from './views/nodes.js';

// Math. tex() returns an empty box naming its TeX; renderMath(root) renders the boxes that are not
// yet rendered (or whose TeX changed), from a cache of the last TEX_CACHE_SIZE formulas used (a
// formula's nodes are many, and every new seed or value makes new ones). While mathDeferred > 0 (an
// element's first build) boxes are queued and rendered by drainMath a few ms per task, in page order,
// so no task grows long.
const TEX_CACHE_SIZE = 64;
const texCache = new Map();   // in order of last use, oldest first
const texQueue = [];
let mathDeferred = 0;
export function deferMath(delta) { mathDeferred += delta; }

export function tex(source, display = false) {
  return h(display ? 'div' : 'span', { class: display ? 'math display' : 'math', 'data-tex': (display ? 'D' : 'I') + source });
}

function renderBox(el) {
  const key = el.dataset.tex;
  if (!key || el.dataset.rendered === key) return;
  const cached = texCache.get(key);
  if (cached) {
    texCache.delete(key);   // now the most recently used
    texCache.set(key, cached);
    el.replaceChildren(...cached.cloneNode(true).childNodes);
  } else if (!katexModule) {
    el.textContent = key.slice(1);   // KaTeX would not load: the TeX, readable
  } else {
    el.replaceChildren();
    katexModule.render(key.slice(1), el, { displayMode: key[0] === 'D', throwOnError: false, output: 'htmlAndMathml' });
    if (texCache.size >= TEX_CACHE_SIZE) texCache.delete(texCache.keys().next().value);
    texCache.set(key, el.cloneNode(true));
  }
  el.dataset.rendered = key;
}

export function renderMath(root) {
  const boxes = root.querySelectorAll('[data-tex]');
  for (const el of root.dataset?.tex ? [root, ...boxes] : boxes) {
    if (el.dataset.rendered === el.dataset.tex) continue;
    if (mathDeferred > 0 || !katexModule) texQueue.push(el);
    else renderBox(el);
  }
}

// Renders the queued boxes, about 8 ms of them per task; resolves when none are left.
export async function drainMath() {
  await loadKatex();
  while (texQueue.length) {
    await nextTask();
    const start = performance.now();
    while (texQueue.length && performance.now() - start < 8) renderBox(texQueue.shift());
  }
}

// KaTeX lives in katex-lib.js in the folder of the first element's files (base: that element's approved
// folder), loaded by a <script> as soon as an element connects (in parallel with the engine): the
// browser compiles it off the main thread and runs its setup in a task of its own. Resolves once it
// ran, or failed (formulas then show their TeX source).
let katexModule = null;
let katexLoading = null;
export function loadKatex(base = defaultBase()) {
  if (!katexLoading) {
    katexLoading = self.AttentionLabKatex ? Promise.resolve()
      : (bundled(base) ? BUNDLED_FILES.katex().then((m) => { self.AttentionLabKatex = m.default; }) : loadScript(base, 'katex-lib.js'))
        .catch((e) => console.warn(`attention-lab shows formulas as TeX: ${e.message}`));
    katexLoading = katexLoading.then(() => { katexModule = self.AttentionLabKatex || null; });
  }
  return katexLoading;
}
