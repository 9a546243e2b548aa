// The folder of attention-lab's files (engine/, katex-lib.js, katex/fonts/, engine-worker.js). By
// default the folder of attention-lab.js, read while the script first runs (only then is
// document.currentScript set; the bundle evaluates this module at that moment). A bundler that moved
// the script (npm + esbuild/webpack/vite) leaves the files elsewhere: AttentionLab.configure({base})
// or an element's engine-base attribute names their folder instead. Live bindings: importers see
// the current value.
export const SCRIPT_BASE = new URL('.', (document.currentScript && document.currentScript.src) || location.href).href;
export let BASE_URL = SCRIPT_BASE;
export let LOADER_URL = new URL('engine/loader.js', BASE_URL).href;

// Every folder the element was told to load from (the Trusted Types policy passes scripts from these).
export const KNOWN_BASES = new Set([SCRIPT_BASE]);

// A folder URL (with its trailing slash) from what an author wrote, relative to the page.
export function folderURL(text) {
  const url = new URL(String(text).trim(), location.href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:') {
    throw new TypeError(`"${String(text).slice(0, 80)}" is not an http(s) or file URL`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = ''; url.hash = '';
  return url.href;
}

// Makes `base` (a folder URL from folderURL) the page-wide folder of the files.
export function setBase(base) {
  KNOWN_BASES.add(base);
  BASE_URL = base;
  LOADER_URL = new URL('engine/loader.js', base).href;
}
