// Finds and loads the wasm engine next to this script (so the element works when embedded from
// another origin), and wraps the calls the sections make. Every number on the page comes from here.

// This script's folder; engine/ and engine-worker.js live beside it. Captured now: currentScript is only
// set while the script first runs.
const BASE_URL = new URL('.', (document.currentScript && document.currentScript.src) || location.href).href;
const LOADER_URL = new URL('engine/loader.js', BASE_URL).href;

let loaderScript = null;
function loadLoaderScript() {
  if (self.AttentionLabEngine) return Promise.resolve();
  if (!loaderScript) {
    loaderScript = new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = LOADER_URL;
      s.onload = () => resolve();
      s.onerror = () => reject(new Error(`could not load the engine from ${LOADER_URL}`));
      document.head.append(s);
    });
  }
  return loaderScript;
}

// One engine per kind ("auto", "simd", "scalar") per page, shared by all <attention-lab> elements.
const engines = new Map();
function loadEngine(kind) {
  if (!engines.has(kind)) {
    const base = new URL('engine/', BASE_URL).href;
    // "auto" asks for the best engine explicitly: the loader would otherwise read ?engine= from the
    // URL of whatever page embeds us (our own pages pass it as the engine attribute instead).
    engines.set(kind, loadLoaderScript().then(() => {
      const api = self.AttentionLabEngine;
      return api.load({ kind: kind === 'auto' ? api.best() || undefined : kind, base });
    }));
    engines.get(kind).catch(() => engines.delete(kind));   // a later element may retry
  }
  return engines.get(kind);
}

// A tensor copied out of the engine: {shape, values (Float32Array), print}; the print is made by the
// engine from the copy when first read (most intermediates are never printed).
function captureRun(engine, run, name) {
  const t = { shape: Array.from(run.shape(name)), values: run.tensor(name).slice() };
  let print = null;
  Object.defineProperty(t, 'print', { get: () => (print ??= engine.formatTensor(t.values, t.shape)) });
  return t;
}

// Lets the browser paint and handle input between two pieces of work (a new task, unclamped).
function nextTask() {
  return new Promise((resolve) => { const ch = new MessageChannel(); ch.port1.onmessage = () => resolve(); ch.port2.postMessage(0); });
}

// engine.evalRequest with a JS object; returns the parsed answer or throws the engine's sentence.
function evalJson(engine, request) {
  const answer = JSON.parse(engine.evalRequest(JSON.stringify(request)));
  if (answer.error) throw new Error(answer.error);
  return answer;
}

// Row i of a (rows, cols) tensor as its own tensor, printed by the engine.
function rowOf(engine, t, i) {
  const cols = t.shape[t.shape.length - 1];
  const values = t.values.slice(i * cols, (i + 1) * cols);
  return { shape: [cols], values, print: engine.formatTensor(values, [cols]) };
}

// values as nested rows for a JSON request.
function nested(values, shape) {
  if (shape.length === 1) return Array.from(values);
  const inner = shape.slice(1).reduce((a, b) => a * b, 1);
  return Array.from({ length: shape[0] }, (_, i) => nested(values.subarray(i * inner, (i + 1) * inner), shape.slice(1)));
}

// The answer of a request whose values may be "inf"/"-inf"/"nan" strings, as a tensor.
function answerTensor(answer) {
  const toNum = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v);
  return { shape: answer.shape, values: Float32Array.from(answer.values, toNum), print: answer.print };
}

// A Worker running web/engine-worker.js. Same origin: the file itself; embedded from another origin:
// a same-origin blob that imports it (Worker URLs must be same-origin; importScripts may cross).
// Browsers start no workers from file:// pages: that throws, and callers fall back or explain.
function startEngineWorker() {
  const url = new URL('engine-worker.js', BASE_URL);
  if (location.protocol === 'file:' || url.protocol === 'file:') throw new Error('Browsers do not start Web Workers from file:// pages; serve the folder (./scripts/run) for this.');
  return url.origin === location.origin ? new Worker(url)
    : new Worker(URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(url.href)});`], { type: 'text/javascript' })));
}

// The chapter's cells as JSON, computed in a worker (about 80 ms of engine time that would otherwise
// block the page); on the main thread only when no worker can run.
const cellsJson = new Map();   // kind -> Promise of the JSON, once per page
function bookCellsJson(engine, kind) {
  if (!cellsJson.has(kind)) cellsJson.set(kind, bookCellsOffThread(engine, kind));
  return cellsJson.get(kind);
}
function bookCellsOffThread(engine, kind) {
  return new Promise((resolve) => {
    let worker, done = false;
    const fallback = () => { if (!done) { done = true; if (worker) worker.terminate(); resolve(engine.bookCells()); } };
    try { worker = startEngineWorker(); } catch { fallback(); return; }
    const timer = setTimeout(fallback, 15000);
    worker.onmessage = (e) => {
      if (done) return;
      clearTimeout(timer);
      if (typeof (e.data && e.data.cells) !== 'string') { fallback(); return; }
      done = true; worker.terminate(); resolve(e.data.cells);
    };
    worker.onerror = (e) => { e.preventDefault(); clearTimeout(timer); fallback(); };
    worker.postMessage({ loaderUrl: LOADER_URL, engine: kind, op: 'bookCells' });
  });
}
