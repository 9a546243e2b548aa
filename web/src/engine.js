// Loads the wasm engine (from the element's approved folder, base-url.js) and is the page's one route
// to it: sectionData, one call per section and update, returning every value, shape and print the
// section shows.
import { scriptURL, verifiedScriptURL, integrityOf, loadFailure } from './trusted.js';
import { bundled, BUNDLED_FILES, INLINE } from './base-url.js';
// The engine's loader (bindings/loader.js, its one source; engine/loader.js is the Worker's copy) is
// part of this bundle, so the engine file's download starts when the element first renders: fetched
// as a script of its own, it cost a round trip before the engine's (15-25 ms from a local server).
// (web/build.mjs makes the script a module whose default export is the API it defines)
import loader from '../../bindings/loader.js';

// What the loader needs to load an engine file as the element does: the element's Trusted Types policy
// (its one policy name) and the build's hash of each engine file.
function engineFileOptions(base) {
  const engineBase = new URL('engine/', base).href;
  const integrity = {};   // by file name in engine/
  for (const kind of ['simd', 'scalar']) {
    const hash = integrityOf(`engine/attention-lab-${kind}.js`, base);
    if (hash) integrity[`attention-lab-${kind}.js`] = hash;
  }
  return { base: engineBase, scriptURL, integrity };
}

// One engine per folder and kind ("auto", "simd", "scalar") per page, shared by all <attention-lab>
// elements. base: the element's folder of attention-lab's files, approved by base-url.js.
const engines = new Map();
export function loadEngine(kind, base) {
  const key = `${kind} ${base}`;
  if (engines.has(key)) return engines.get(key);
  const chosen = kind === 'auto' ? loader.best() || undefined : kind;   // (else the loader reads ?engine= of the host's URL)
  let started;
  if (INLINE) {
    // the engines came with the page (the notebook helper's output): whichever it carries
    started = loader.load({ kind: INLINE[chosen] ? chosen : Object.keys(INLINE)[0], factories: INLINE });
  } else if (bundled(base)) {
    // the ES module build: the engines come in as the host's bundler emitted them
    started = loader.load({ kind: chosen, factories: BUNDLED_FILES.engines });
  } else {
    const options = engineFileOptions(base);
    started = loader.load({ ...options, kind: chosen }).catch(async (e) => {
      // an engine file that did not load: tell a changed file from a missing one
      if (e && e.engineUrl) throw await loadFailure(e.engineUrl, options.integrity[e.engineUrl.slice(options.base.length)]);
      throw e;
    });
  }
  engines.set(key, started);
  started.catch(() => engines.delete(key));   // a later element may retry
  return started;
}

// Chromium compiles WebAssembly lazily, each function at its first call, on the main thread: the
// page's first request compiled the engine's JSON reader, its computation and its prints in one call
// (30-50 ms throttled 4×, a long task by itself). A request the engine refuses at once compiles the
// first part; made in a task before the first real one, it halves that call (15-20 ms each).
export function compileRequestReader(engine) {
  try { engine.sectionData('{}'); } catch { /* refused, as meant: no section named */ }
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

// The page's train task as the engine defines it (replay/train_task.h, the train_task op in docs/cli.md):
// its steps, record stride, orders, input labels, optimizers and the program for these settings.
export function trainTaskOf(engine, settings) {
  return JSON.parse(engine.evalRequest(JSON.stringify({ op: 'train_task', task: 'previous_token', ...settings })));
}

// The same request run a few steps per call (the engine's TrainRun, bindings/API.md), so a long run
// can be computed between frames: {advance(steps) -> the answer for those steps, stepsLeft(), close(), printed()}.
// Throws the engine's sentence for a bad request.
export function startTrainRun(engine, request) {
  const run = new engine.TrainRun();
  try {
    run.start(JSON.stringify(request));
  } catch (e) {
    run.delete();
    throw e;
  }
  return { advance: (steps) => trainAnswer(run.advance(steps)), stepsLeft: () => run.stepsLeft(), close: () => run.delete(),
    printed: () => run.printed() };   // the train task's run: what its program prints so far
}

// A Worker running engine-worker.js with the loader and the engine of `kind` ("simd" or "scalar", the
// page's), started only when the learner asks for exercise 3.3's timing (never at load: a host page's
// CSP may forbid workers). A Worker takes no integrity attribute, and a check before `new Worker(url)`
// would check one download and run another; so the three files are fetched once each, with their
// integrity, and the worker runs those very bytes, joined into one blob: URL (worker-src blob:) that the
// element's Trusted Types policy passes. Inside, nothing more is imported, so the worker needs no
// policy of its own, whatever CSP its files are served with. Returns a stand-in with the Worker's
// postMessage/onmessage/onerror that starts the real one once the files are checked. Throws a sentence
// where the timing cannot run: a notebook's inline output, another origin, or file://.
export function startEngineWorker(base, kind) {
  if (INLINE) throw new Error('The timing runs the engine in a Web Worker, which a notebook\'s output cannot start from inline scripts; open the page from a server (./scripts/run) for it.');
  if (bundled(base)) {
    // the ES module build: the worker the host's bundler emitted (Vite does; esbuild does not)
    return workerStand(Promise.resolve(), () => BUNDLED_FILES.worker(), (m) => m,
      'the timing\'s Web Worker (engine-worker.mjs) did not start: this bundle has no copy of it (esbuild emits none; Vite does). Copy engine-worker.mjs and engine/ beside the bundle, or name the package\'s folder with AttentionLab.configure({base}).');
  }
  const url = new URL('engine-worker.js', base);
  if (location.protocol === 'file:' || url.protocol === 'file:') throw new Error('Browsers do not start Web Workers from file:// pages; serve the folder (./scripts/run) for this.');
  if (url.origin !== location.origin) throw new Error(`Browsers start a Web Worker only from the page's own origin, and attention-lab's files are on ${url.origin}: host them on this origin for the timing.`);
  // in the order the worker runs them: the loader, then the engine (it defines createAttentionLab), then the worker's own code
  const files = ['engine/loader.js', `engine/attention-lab-${kind}.js`, 'engine-worker.js'];
  let blobUrl = null;
  const checked = Promise.all(files.map((file) => checkedText(base, file))).then((texts) => {
    blobUrl = verifiedScriptURL(texts);
  });
  const start = () => {
    const worker = new Worker(blobUrl.trusted);
    URL.revokeObjectURL(blobUrl.url);   // the worker has its script; the blob is not needed again
    return worker;
  };
  return workerStand(checked, start, (m) => ({ ...m, engine: kind }), 'could not start');
}

// A file of attention-lab's folder as text, fetched once and checked against the integrity map (the
// browser refuses the body when its SHA-384 differs); rejects with loadFailure's sentence.
async function checkedText(base, file) {
  const url = new URL(file, base).href;
  const integrity = integrityOf(file, base);
  scriptURL(url);   // only the files the policy passes (throws for any other)
  try {
    const response = await fetch(url, integrity ? { integrity, credentials: 'same-origin' } : { credentials: 'same-origin' });
    if (!response.ok) throw new Error(String(response.status));
    return await response.text();
  } catch {
    throw await loadFailure(url, integrity);
  }
}

// The stand-in: start() once ready settles; messages wait until then; a failure (ready's sentence, a
// worker that throws on creation or cannot start) reaches onerror as {message} with `failed` as its words.
function workerStand(ready, start, message, failed) {
  const stand = { onmessage: null, onerror: null };
  let worker = null, queue = [];
  const fail = (text) => { if (stand.onerror) stand.onerror({ message: text, preventDefault() {} }); };
  stand.postMessage = (m) => (worker ? worker.postMessage(message(m)) : queue.push(m));
  ready.then(() => {
    try { worker = start(); } catch { fail(failed); return; }
    worker.onmessage = (e) => stand.onmessage && stand.onmessage(e);
    worker.onerror = (e) => { e.preventDefault(); fail(e.message || failed); };
    for (const m of queue) worker.postMessage(message(m));
    queue = [];
  }, (e) => fail(e.message));
  return stand;
}
