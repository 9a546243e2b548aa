// Math for the element: tex() makes a box naming its TeX, renderMath/drainMath render the boxes, from
// the templates the build rendered with KaTeX (math-templates.js; a live number's digits patched in),
// or with KaTeX itself, which loadKatex loads from the element's approved folder only when a formula
// has no template. deferMath queues an element's first build.
import { sliced } from './scheduler.js';
import { loadScript } from './trusted.js';
import { defaultBase, bundled, BUNDLED_FILES } from './base-url.js';
import { el as h } from './views/nodes.js';
import { MATH_TEMPLATES } from './math-templates.js';

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
  } else {
    const built = fromTemplate(key);
    if (built) el.replaceChildren(...built);
    else if (!katexModule) {
      el.textContent = key.slice(1);   // KaTeX would not load: the TeX, readable
      el.dataset.rendered = key;
      return;
    } else {
      el.replaceChildren();
      katexModule.render(key.slice(1), el, { displayMode: key[0] === 'D', throwOnError: false, output: 'htmlAndMathml' });
    }
    if (texCache.size >= TEX_CACHE_SIZE) texCache.delete(texCache.keys().next().value);
    texCache.set(key, el.cloneNode(true));
  }
  el.dataset.rendered = key;
}

// A box KaTeX must render: no template has its shape (its TeX with every digit 0).
const shapeOf = (key) => key.replace(/[0-9]/g, '0');
const needsKatex = (el) => !MATH_TEMPLATES[shapeOf(el.dataset.tex)];

// The nodes katex.render would make for key, from its shape's template with key's digits in place of
// the template's (web/math-prerender.mjs: the same element calls KaTeX makes, so the same DOM), or
// null when there is none.
const NAMESPACES = { 'm:': 'http://www.w3.org/1998/Math/MathML', 's:': 'http://www.w3.org/2000/svg' };
function fromTemplate(key) {
  const t = MATH_TEMPLATES[shapeOf(key)];
  return t ? buildTemplate(t, key) : null;
}
export function buildTemplate(t, key) {
  const digits = key.match(/[0-9]/g) || [];
  const patches = new Map();   // text index -> [offset, digit index, ...]
  for (let i = 0; i < t.digits.length; i += 3) {
    if (!patches.has(t.digits[i])) patches.set(t.digits[i], []);
    patches.get(t.digits[i]).push(t.digits[i + 1], t.digits[i + 2]);
  }
  let textIndex = 0;
  const build = (n) => {
    if (typeof n === 'string') {
      const at = patches.get(textIndex++);
      if (!at) return document.createTextNode(n);
      const chars = [...n];
      for (let i = 0; i < at.length; i += 2) chars[at[i]] = digits[at[i + 1]];
      return document.createTextNode(chars.join(''));
    }
    const [tag, cls, style, attrs] = n;
    const ns = NAMESPACES[tag.slice(0, 2)];
    const node = ns ? document.createElementNS(ns, tag.slice(2)) : document.createElement(tag);
    if (cls !== 0) node.className = cls;
    if (style) Object.assign(node.style, style);   // the CSSOM, as KaTeX sets it: no style attribute for a CSP to refuse
    if (attrs) for (const name in attrs) node.setAttribute(name, attrs[name]);
    for (let i = 4; i < n.length; i++) node.appendChild(build(n[i]));
    return node;
  };
  return t.tree.map(build);
}

export function renderMath(root) {
  const boxes = root.querySelectorAll('[data-tex]');
  for (const el of root.dataset?.tex ? [root, ...boxes] : boxes) {
    if (el.dataset.rendered === el.dataset.tex) continue;
    if (mathDeferred > 0 || (!katexSettled && needsKatex(el))) texQueue.push(el);
    else renderBox(el);
  }
  if (mathDeferred === 0 && texQueue.length) drainMath();   // a formula waiting for KaTeX, after the first build
}

// Renders the queued boxes, the scheduler's math budget of them per task (loading KaTeX first if one
// needs it); resolves when none are left. The queue is the page's: another element's drain may empty it.
let draining = null;
export function drainMath() {
  if (!draining && texQueue.length) {
    draining = (async () => {
      try {
        while (texQueue.length) {   // (not empty: the first await comes before the finally)
          if (!katexSettled && texQueue.some(needsKatex)) await loadKatex();
          await sliced('math', () => {
            if (!texQueue.length || (!katexSettled && needsKatex(texQueue[0]))) return false;   // KaTeX first
            renderBox(texQueue.shift());
            return texQueue.length > 0;
          });
        }
      } finally {
        draining = null;   // at once, so a box queued next starts a new drain
      }
    })();
  }
  return draining || Promise.resolve();
}

// KaTeX lives in katex-lib.js in the folder of the first element's files (katexFrom(base): that
// element's approved folder), loaded by a <script> the first time a formula has no template (the
// browser compiles it off the main thread and runs its setup in a task of its own). Resolves once it
// ran, or failed (formulas without a template then show their TeX source).
let katexModule = null;
let katexLoading = null;
let katexSettled = false;   // loaded, or failed
let katexBase = null;
export function katexFrom(base) { katexBase ??= base; }
// KaTeX's whole style sheet comes with katex-lib (the bundle has only the rules the build-time templates
// use): the element's sheet takes it in (onKatexCss) before any formula is rendered at run time.
let katexCss = null;
const katexCssListeners = [];
export function onKatexCss(listener) { if (katexCss) listener(katexCss); else katexCssListeners.push(listener); }
export function loadKatex(base = katexBase || defaultBase()) {
  if (!katexLoading) {
    katexLoading = self.AttentionLabKatex ? Promise.resolve()
      : (bundled(base) ? BUNDLED_FILES.katex().then((m) => { self.AttentionLabKatex = m.default; self.AttentionLabKatexCss = m.css; }) : loadScript(base, 'katex-lib.js'))
        .catch((e) => console.warn(`attention-lab shows formulas as TeX: ${e.message}`));
    katexLoading = katexLoading.then(() => {
      katexModule = self.AttentionLabKatex || null;
      if (katexModule && self.AttentionLabKatexCss) { katexCss = self.AttentionLabKatexCss; for (const f of katexCssListeners) f(katexCss); }
      katexSettled = true;
    });
  }
  return katexLoading;
}
