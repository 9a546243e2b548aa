// Loads the wasm engine (from beside this script, or the folder the author named) and is the page's
// one route to it: sectionData, one call per section and update, returning every value, shape and
// print the section shows.
import { BASE_URL, LOADER_URL } from './base-url.js';
import { scriptURL, ownBlobURL } from './trusted.js';

// engine/loader.js of each folder, loaded once (the loader takes the engine files' folder as an option,
// so any loaded copy serves every folder).
const loaderScripts = new Map();
function loadLoaderScript(loaderUrl) {
  if (self.AttentionLabEngine) return Promise.resolve();
  if (!loaderScripts.has(loaderUrl)) {
    loaderScripts.set(loaderUrl, new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = scriptURL(loaderUrl);
      s.onload = () => resolve();
      s.onerror = () => { loaderScripts.delete(loaderUrl); reject(new Error(`could not load the engine from ${loaderUrl}`)); };
      document.head.append(s);
    }));
  }
  return loaderScripts.get(loaderUrl);
}

// One engine per folder and kind ("auto", "simd", "scalar") per page, shared by all <attention-lab>
// elements. base: the folder of attention-lab's files (base-url.js), the page-wide one by default.
const engines = new Map();
export function loadEngine(kind, base = BASE_URL) {
  const key = `${kind} ${base}`;
  if (!engines.has(key)) {
    const engineBase = new URL('engine/', base).href;
    // "auto" asks for the best engine explicitly: the loader would otherwise read ?engine= from the
    // URL of whatever page embeds us (our own pages pass it as the engine attribute instead).
    engines.set(key, loadLoaderScript(new URL('engine/loader.js', base).href).then(() => {
      const api = self.AttentionLabEngine;
      return api.load({ kind: kind === 'auto' ? api.best() || undefined : kind, base: engineBase });
    }));
    engines.get(key).catch(() => engines.delete(key));   // a later element may retry
  }
  return engines.get(key);
}

const toNumber = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : v);

// The engine's answer for one section: a Map from result name to {shape, values (numbers, each the
// engine's shortest float text read back), print, grad_fn?, print_with_grad_fn?, label?, line} or
// {error}. Throws the engine's Error (its sentence) when the request itself is refused. `previous` (an earlier
// answer for the same section) is returned as it is when the engine's answer is the same text, so a
// section can see at once that nothing it shows has changed.
export function sectionData(engine, request, previous = null) {
  const text = engine.sectionData(JSON.stringify(request));
  if (previous && previous.text === text) return previous;
  const answer = JSON.parse(text);
  const results = new Map();
  for (const [name, r] of Object.entries(answer.results)) {
    if (r.values) r.values = r.values.map(toNumber);
    results.set(name, r);
  }
  results.text = text;
  return results;
}

// eval's `train` op (docs/cli.md, "Requests"): the losses as numbers, every R's values as numbers (the
// engine's shortest texts read back). Throws the engine's sentence for a refused request.
export function trainRun(engine, request) {
  return trainAnswer(engine.evalRequest(JSON.stringify(request)));
}
// A train answer's text, its numbers as JS numbers.
function trainAnswer(text) {
  const answer = JSON.parse(text);
  const numbers = (r) => { r.values = r.values.map(toNumber); return r; };
  answer.losses = answer.losses.map(toNumber);
  answer.weights.forEach(numbers);
  for (const params of [answer.parameters, ...(answer.parameter_history || [])]) Object.values(params).forEach(numbers);
  return answer;
}

// The same request run a few steps per call (the engine's TrainRun, bindings/API.md), so a long run
// can be computed between frames: {advance(steps) -> the answer for those steps, stepsLeft(), close()}.
// Throws the engine's sentence for a bad request.
export function startTrainRun(engine, request) {
  const run = new engine.TrainRun();
  try {
    run.start(JSON.stringify(request));
  } catch (e) {
    run.delete();
    throw e;
  }
  return { advance: (steps) => trainAnswer(run.advance(steps)), stepsLeft: () => run.stepsLeft(), close: () => run.delete() };
}

// A Worker running engine-worker.js, started only when the learner asks for exercise 3.3's timing
// (never at load: a host page's CSP may forbid workers). Same origin: the file itself; embedded from
// another origin: a same-origin blob that imports it (Worker URLs must be same-origin). Browsers
// start no workers from file:// pages: that throws, and the caller explains.
export function startEngineWorker() {
  const url = new URL('engine-worker.js', BASE_URL);
  if (location.protocol === 'file:' || url.protocol === 'file:') throw new Error('Browsers do not start Web Workers from file:// pages; serve the folder (./scripts/run) for this.');
  return url.origin === location.origin ? new Worker(scriptURL(url.href))
    : new Worker(scriptURL(ownBlobURL(`importScripts(${JSON.stringify(url.href)});`)));
}
export { LOADER_URL };
