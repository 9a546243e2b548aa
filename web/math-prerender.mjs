// Build-time math (issue 25): KaTeX renders the page's formulas here, in Node, into templates the
// bundle carries, so the page shows its math without loading KaTeX. web/build.mjs and the node test
// (tests/node/math_prerender.test.mjs) use it; web/src/math.js builds the DOM from a template.
//
// A template is what katex.render(tex, el) would append to el, recorded through a stand-in document
// (the same calls KaTeX makes in a browser: className, style properties, setAttribute, text nodes), as
// nested arrays: [tag, className or 0, style or 0, attributes or 0, ...children], a child a string for a
// text node; tag 'm:…' is MathML, 's:…' SVG, anything else HTML. Templates are keyed by the formula's
// shape, its TeX with every digit made 0: a formula with other digits (a live number) is the same
// template with its digits patched in. `digits` says where each of the TeX's digits lands in the
// template's text nodes (texts, in document order: [text index, offset, digit index], flat), found by
// rendering the formula once per digit with that digit changed; a formula whose digits change more
// than their own characters (a width, a height) gets no template, and KaTeX renders it at run time.
import { createRequire } from 'node:module';

// The same file katex-lib.js wraps (web/build.mjs), so a template is what the page's KaTeX would make.
const katex = createRequire(import.meta.url)('../node_modules/katex/dist/katex.min.js');

const NS = { 'http://www.w3.org/2000/svg': 's:', 'http://www.w3.org/1998/Math/MathML': 'm:' };

// The stand-in document: just what KaTeX's toNode() calls.
class FakeNode {
  constructor(tag) { this.tag = tag; this.cls = undefined; this.style = {}; this.attrs = {}; this.children = []; }
  set className(v) { this.cls = v; }
  get className() { return this.cls ?? ''; }
  setAttribute(name, value) { this.attrs[name] = String(value); }
  appendChild(child) {
    if (child.fragment) this.children.push(...child.children);
    else this.children.push(child);
    return child;
  }
  set textContent(v) { this.children = v ? [{ text: String(v) }] : []; }
}
const fakeDocument = {
  createElement: (tag) => new FakeNode(tag),
  createElementNS: (ns, tag) => {
    if (!NS[ns]) throw new Error(`math-prerender: an element in namespace ${ns}`);
    return new FakeNode(NS[ns] + tag);
  },
  createTextNode: (text) => ({ text: String(text) }),
  createDocumentFragment: () => Object.assign(new FakeNode('#fragment'), { fragment: true }),
};

// The options the page renders with (web/src/math.js): the box's first letter, D or I, is displayMode.
export const katexOptions = (key) => ({ displayMode: key[0] === 'D', throwOnError: false, output: 'htmlAndMathml' });

function serialize(node) {
  if ('text' in node) return node.text;
  const style = Object.fromEntries(Object.entries(node.style).filter(([, v]) => v !== undefined && v !== ''));
  for (const k of Object.keys(node)) {
    if (!['tag', 'cls', 'style', 'attrs', 'children'].includes(k)) throw new Error(`math-prerender: KaTeX set ${k} on <${node.tag}>`);
  }
  return [node.tag, node.cls ?? 0, Object.keys(style).length ? style : 0, Object.keys(node.attrs).length ? node.attrs : 0,
    ...node.children.map(serialize)];
}

// make(document) -> nodes, with the stand-in document as the global one (KaTeX's toNode() uses the
// global), as template children.
export function recordNodes(make) {
  const saved = globalThis.document;
  globalThis.document = fakeDocument;
  try {
    return make(fakeDocument).map(serialize);
  } finally {
    if (saved === undefined) delete globalThis.document;
    else globalThis.document = saved;
  }
}

// The nodes katex.render(key's TeX, el) appends to el, as template children.
export function renderTree(key) {
  return recordNodes((doc) => {
    const box = doc.createElement('box');
    katex.render(key.slice(1), box, katexOptions(key));
    return box.children;
  });
}

// The text nodes in document order, and the tree with each replaced by null (its outline).
function textsOf(children) {
  const texts = [];
  const walk = (n) => {
    if (typeof n === 'string') { texts.push(n); return null; }
    return [...n.slice(0, 4), ...n.slice(4).map(walk)];
  };
  const outline = JSON.stringify(children.map(walk));
  return { texts, outline };
}

export const shapeOf = (key) => key.replace(/[0-9]/g, '0');

// key ('D' or 'I', then TeX) -> {tree, digits} or null (a digit that changes more than its characters).
export function template(key) {
  const tree = renderTree(key);
  const base = textsOf(tree);
  const digits = [];
  const positions = [...key.matchAll(/[0-9]/g)].map((m) => m.index);
  for (let k = 0; k < positions.length; k++) {
    const at = positions[k];
    const was = key[at], now = String((Number(was) + 5) % 10);
    const other = textsOf(renderTree(key.slice(0, at) + now + key.slice(at + 1)));
    if (other.outline !== base.outline || other.texts.length !== base.texts.length) return null;
    for (let t = 0; t < base.texts.length; t++) {
      const a = base.texts[t], b = other.texts[t];
      if (a === b) continue;
      if (a.length !== b.length) return null;
      for (let i = 0; i < a.length; i++) {
        if (a[i] === b[i]) continue;
        if (a[i] !== was || b[i] !== now) return null;
        digits.push(t, i, k);
      }
    }
  }
  return { tree, digits };
}

// Templates for a list of keys, by shape; `missing`: the keys that got none.
export function templates(keys) {
  const shapes = {};
  const missing = [];
  for (const key of keys) {
    const shape = shapeOf(key);
    if (shapes[shape]) continue;
    const t = template(key);
    if (t) shapes[shape] = t;
    else missing.push(key);
  }
  return { shapes, missing };
}

// The characters the page's formulas can contain, for the KaTeX font subsets (web/build.mjs): every
// character of the templates' texts, printable ASCII (digits, and the letters and signs a formula's TeX
// can make at run time) and U+2212, KaTeX's minus sign (a negative number).
export function mathCharacters(shapes) {
  const chars = new Set('\u2212');
  for (let c = 0x20; c < 0x7f; c++) chars.add(String.fromCharCode(c));
  const walk = (n) => {
    if (typeof n === 'string') for (const c of n) chars.add(c);
    else n.slice(4).forEach(walk);
  };
  for (const t of Object.values(shapes)) t.tree.forEach(walk);
  return [...chars].join('');
}
