// The folder of attention-lab.js: engine/, katex/ and engine-worker.js live beside it, so the element
// works when embedded from another origin. Read while the script first runs (only then is
// document.currentScript set; the bundle evaluates this module at that moment).
export const BASE_URL = new URL('.', (document.currentScript && document.currentScript.src) || location.href).href;
export const LOADER_URL = new URL('engine/loader.js', BASE_URL).href;
