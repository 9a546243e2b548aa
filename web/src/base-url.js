// Where attention-lab's files (engine/, katex-lib.js, katex/fonts/, engine-worker.js) may load from, per
// element (issue 21): the folder of attention-lab.js itself, a folder the host page's own script names
// with AttentionLab.configure({base}), or an element's engine-base on the page's (or the script's) origin.
// Another origin's folder only when the host's script allows it: AttentionLab.configure({allowBases}).
// Markup alone (an attribute a sanitizer let through) can never widen where scripts come from.

// The folder of attention-lab.js, read while the script first runs (only then is document.currentScript
// set; the bundle evaluates this module at that moment). Null when imported where there is no document
// (Node, server rendering): nothing loads there.
const hasDocument = typeof document !== 'undefined' && typeof location !== 'undefined';
const scriptSrc = hasDocument && document.currentScript ? document.currentScript.src : '';
export const SCRIPT_BASE = hasDocument ? new URL('.', scriptSrc || location.href).href : null;

// The ES module build (attention-lab.mjs, web/build.mjs): the files the host's bundler followed from
// its imports (engines, KaTeX, fonts, worker); null in the classic script. They stand for the script's
// own folder; configure({base}) or an engine-base still loads that folder's files instead.
import { BUNDLED_FILES } from './bundled-files.js';
import { nextTask } from './scheduler.js';
export const bundled = (base) => BUNDLED_FILES !== null && base === SCRIPT_BASE;
// A page that carries everything inline (the Python helper's notebook output, python/attention_lab.py):
// its scripts set self.AttentionLabInline = {engines: {simd, scalar}} (each a function giving the engine's
// factory) before this bundle runs, so no engine file, font or worker is fetched.
export const INLINE = (typeof self !== 'undefined' && self.AttentionLabInline && self.AttentionLabInline.engines) || null;
export { BUNDLED_FILES };

// The classic script run with document.currentScript null (Jupyter Notebook's outputs evaluate a script's
// text; so does any loader that fetches and evaluates it): its folder is unknown, and SCRIPT_BASE is only
// the page's folder. No other guess (a <script src> in the document, say) is safe: markup alone must never
// choose where scripts load from. So the host is told, once in the console and in the load error, to name
// the folder. (The ES module build needs no folder: its bundler gave it every file.)
export const SCRIPT_BASE_GUESSED = hasDocument && !scriptSrc && BUNDLED_FILES === null;
export const isGuessedFolder = (base) => SCRIPT_BASE_GUESSED && base === SCRIPT_BASE;
export const guessedFolderSentence = (base) => `attention-lab.js could not tell its own folder (document.currentScript was null, as in Jupyter Notebook's outputs), so it looked for its files in the page's folder, ${base}. Name the folder that holds engine/ with engine-base="…" on the element, or AttentionLab.configure({base: "…"}) in the page's script.`;
// Warns once per page when an element loads from the guess: after the task that connected it, so that
// a configure({base}) in the next script of the same output (Jupyter runs them in one go) counts.
// folderNow: the element's folder at that time.
let warnedGuess = false;
export function warnIfGuessed(folderNow) {
  if (!SCRIPT_BASE_GUESSED || warnedGuess) return;
  nextTask().then(() => {
    if (warnedGuess || !isGuessedFolder(folderNow())) return;
    warnedGuess = true;
    console.warn(`attention-lab: ${guessedFolderSentence(SCRIPT_BASE)}`);
  });
}

// The URL of one of KaTeX's fonts (a file name of katex/fonts/) for the element loading from base.
export function fontURL(base, file) {
  return bundled(base) ? new URL(BUNDLED_FILES.fonts[file], location.href).href : new URL(`katex/fonts/${file}`, base).href;
}

let configuredBase = null;     // AttentionLab.configure({base}): the default folder of every element
const allowedBases = [];       // AttentionLab.configure({allowBases}): other origins' folders the host allows
// Every folder a check below accepted: the Trusted Types policy (trusted.js) passes scripts from these only.
export const APPROVED_BASES = new Set(SCRIPT_BASE ? [SCRIPT_BASE] : []);

// The folder an element without engine-base loads from.
export function defaultBase() {
  return configuredBase || SCRIPT_BASE;
}

// A folder URL (with its trailing slash) from what an author wrote, relative to the page. Query and
// hash are dropped; a protocol-relative "//host/" is resolved (and so counts as that host's origin).
export function folderURL(text) {
  const url = new URL(String(text).trim(), location.href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') {
    throw new TypeError(`"${String(text).slice(0, 80)}" is not an http(s) or file URL`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = ''; url.hash = '';
  return url.href;
}

// The origins an engine-base may name without the host's say-so: the page's and attention-lab.js's own
// (file: pages have the opaque origin "null": file: folders count as theirs).
function ownOrigin(url) {
  const u = new URL(url);
  if (u.protocol === 'file:') return location.protocol === 'file:';
  return u.origin === location.origin || (SCRIPT_BASE !== null && u.origin === new URL(SCRIPT_BASE).origin);
}

// The folder an element's engine-base names, once it passed the rules above; throws the element's one
// sentence when it does not. attr: the attribute's value (not empty).
export function engineBaseFolder(attr) {
  let base;
  try { base = folderURL(attr); } catch (e) {
    throw new Error(`attention-lab: engine-base="${attr.slice(0, 80)}" is not a folder URL (${e.message}). Give the URL of the folder that holds engine/loader.js, e.g. engine-base="/static/attention-lab/".`);
  }
  if (!ownOrigin(base) && !allowedBases.some((allowed) => base.startsWith(allowed))) {
    throw new Error(`attention-lab: engine-base="${attr.slice(0, 80)}" is on another origin (${new URL(base).origin}), so attention-lab will not load scripts from it unless the page's own script allows that folder with AttentionLab.configure({allowBases: ["${base}"]}).`);
  }
  APPROVED_BASES.add(base);
  return base;
}

// AttentionLab.configure's part: {base} (null: back to the script's folder) and {allowBases: [folders]}.
// Both come from the host's own script, so they are trusted as given. Throws a sentence for a bad URL.
export function configureBases({ base, allowBases } = {}) {
  if (allowBases !== undefined) {
    if (!Array.isArray(allowBases)) throw new TypeError('attention-lab: configure({allowBases}) takes an array of folder URLs.');
    for (const folder of allowBases) {
      const url = folderURL(folder);
      if (!allowedBases.includes(url)) allowedBases.push(url);
    }
  }
  if (base !== undefined) {
    configuredBase = base === null ? null : folderURL(base);
    if (configuredBase) APPROVED_BASES.add(configuredBase);
  }
}
