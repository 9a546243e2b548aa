// bench.html's worker: loads one engine (our "simd" or "scalar" wasm build, or TF.js's wasm backend on
// one thread), checks its sgemm and MHA against a float64 reference, then times sgemm and the GPT-2-small
// MultiHeadAttention. One worker per engine, so engines never share a heap or a thread; no DOM here.
'use strict';

// Shapes: T = tokens, d = d_in = d_out, H = heads, D = d / H (head_dim).
const GPT2 = { d: 768, heads: 12 };

function median(values) {
  const s = values.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

// Nominal FLOPs, the same for every engine: 2n³ for sgemm; for the MHA the four projections (8·T·d²)
// plus QKᵀ and weights·V counted dense (4·T²·d), although a causal kernel may skip the masked half.
const sgemmFlops = (n) => 2 * n * n * n;
const mhaFlops = (T, d) => 8 * T * d * d + 4 * T * T * d;

// A small deterministic generator (LCG), so the reference inputs do not depend on Math.random.
function lcgValues(count, seed, lo, hi) {
  const out = new Float32Array(count);
  let s = seed >>> 0;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = lo + (hi - lo) * (s / 4294967296);
  }
  return out;
}

// The left operand of the sgemm check, the same in every worker.
const checkOperand = (n) => lcgValues(n * n, 1, -1, 1);

// ---- our engines: AttentionLabEngine from build/web/engine/loader.js

async function loadOurs(kind, baseUrl) {
  const loaderUrl = new URL('engine/loader.js', baseUrl).href;
  importScripts(loaderUrl);
  const { engine, kind: loaded } = await self.AttentionLabEngine.load({ kind, base: new URL('engine/', baseUrl).href });
  if (loaded !== kind) throw new Error(`asked the loader for the ${kind} engine but got ${loaded}`);
  return engine;
}

// c (n, n) = a (n, n) · W_query (n, n) through the engine's matmul kernel: self_attention_v1's queries
// are inputs @ W_query, with W_query = torch.rand(d_in, d_out) after torch.manual_seed(seed).
function oursSgemmCheck(engine, a, n) {
  const run = new engine.AttentionRun();
  try {
    run.compute('self_attention_v1', a, n, n, 123, n);  // throws the engine's sentence
    return { w: run.tensor('W_query').slice(), c: run.tensor('queries').slice() };
  } finally {
    run.delete();
  }
}

function oursMhaCheck(engine, T) {
  const x = lcgValues(T * GPT2.d, 7, 0, 1);
  return engine.mhaForward(x, 1, T, GPT2.d, GPT2.d, GPT2.heads, 1024, 0, 123).values;
}

// Browsers coarsen performance.now() to 0.1 ms outside cross-origin isolation (workers too), so a
// figure under RESOLVED_MS (10 ticks) is mostly quantisation. Such sizes are timed over batches of
// k runs instead, k doubled until a batch lasts BATCH_MS.
const RESOLVED_MS = 1;
const BATCH_MS = 20;

function checkedMs(value, what) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${what}: ${value}`);
  return value;
}

// bench(runs) is the engine's benchSgemm/benchMha: its median after one warm-up. When that is too short
// to resolve, time bench(1) and bench(1 + k) from here: the difference is k runs, with the operands'
// set-up and the warm-up cancelling out. Returns {ms, timing}.
function oursMs(bench, runs, what) {
  const ms = checkedMs(bench(runs), what);
  if (ms >= RESOLVED_MS) return { ms, timing: `median of ${runs}` };
  for (let k = 8; ; k *= 2) {
    const per = [];
    let longest = 0;
    for (let rep = 0; rep < 5; rep++) {
      const t0 = performance.now();
      checkedMs(bench(1), what);
      const t1 = performance.now();
      checkedMs(bench(1 + k), what);
      const t2 = performance.now();
      per.push(((t2 - t1) - (t1 - t0)) / k);
      longest = Math.max(longest, t2 - t1);
    }
    // the engine takes at most 1000 runs a call: k stops at 512
    if ((longest >= BATCH_MS && median(per) > 0) || k >= 512) return { ms: median(per), timing: `median of 5 batches of ${k}` };
  }
}

// ---- TF.js: tfjs-core + tfjs-backend-wasm UMD bundles from vendor/tfjs/, one thread

async function loadTfjs(baseUrl) {
  const dir = new URL('vendor/tfjs/', baseUrl).href;
  importScripts(dir + 'tf-core.min.js', dir + 'tf-backend-wasm.min.js');
  const tf = self.tf;
  // No SharedArrayBuffer threads: the peer runs on one thread, like our engines.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tf.wasm.setWasmPaths(dir);
  if (!(await tf.setBackend('wasm'))) throw new Error('TF.js could not start its wasm backend');
  await tf.ready();
  return tf;
}

// TF.js's timings include reading the result back (await data()): the wasm backend runs kernels
// synchronously, so this is what makes the timing real; the copy is < 1% of every timed figure.
// Runs shorter than RESOLVED_MS are timed in batches of k (see oursMs). Returns {ms, timing}.
async function tfTimeMs(tf, runs, f) {
  const once = async () => { const out = f(); await out.data(); out.dispose(); };
  const timeBatch = async (k) => {
    const start = performance.now();
    for (let i = 0; i < k; i++) await once();
    return performance.now() - start;
  };
  await once();  // warm-up (also builds TF.js's cached XNNPACK operators)
  let k = 1;
  if ((await timeBatch(1)) < RESOLVED_MS) while (k < 1 << 20 && (await timeBatch(k)) < BATCH_MS) k *= 2;
  const times = [];
  for (let i = 0; i < runs; i++) times.push((await timeBatch(k)) / k);
  if (tf.memory().numTensors > 64) throw new Error(`TF.js leaked tensors (${tf.memory().numTensors})`);
  return { ms: median(times), timing: k > 1 ? `median of ${runs} batch${runs > 1 ? 'es' : ''} of ${k}` : `median of ${runs}` };
}

// The chapter's MultiHeadAttention (Listing 3.5) as TF.js ops, in the formulation TF.js's wasm backend
// runs fastest. Its BatchMatMul uses XNNPACK only for one batch without transposes (tfjs-backend-wasm
// src/cc/batch_mat_mul_impl.cc); a batched or transposeB matMul falls back to a naive loop 10-15x slower
// here. So: weights pre-transposed once to (d_in, d_out), as tf.layers.dense stores them; heads as 2-D
// slices; Kᵀ made by a transpose. Weights arrive as nn.Linear stores them: (d_out, d_in); qkv_bias =
// false, out_proj has a bias.
function makeTfMha(tf, T, d, H, weights) {
  const D = d / H;
  const [Wq, Wk, Wv, Wo] = ['Wq', 'Wk', 'Wv', 'Wo'].map((k) => tf.tidy(() => tf.transpose(tf.tensor2d(weights[k], [d, d]))));
  const bo = tf.tensor1d(weights.bo);
  // The registered causal mask: -inf above the diagonal (masked_fill_(mask, -inf) as an add).
  const maskValues = new Float32Array(T * T);
  for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) maskValues[i * T + j] = -Infinity;
  const mask = tf.tensor2d(maskValues, [T, T]);
  const scale = tf.scalar(Math.sqrt(D));
  // (T, d) -> H tensors (T, D), or (D, T) with keysT
  const heads = (t, keysT) => tf.unstack(tf.transpose(tf.reshape(t, [T, H, D]), keysT ? [1, 2, 0] : [1, 0, 2]));
  const forward = (x) => tf.tidy(() => {
    const x2 = tf.reshape(x, [T, d]);
    const keysT = heads(tf.matMul(x2, Wk), true);
    const queries = heads(tf.matMul(x2, Wq));
    const values = heads(tf.matMul(x2, Wv));
    const contextHeads = queries.map((q, h) => {
      const attnScores = tf.add(tf.matMul(q, keysT[h]), mask);  // (T, T)
      const attnWeights = tf.softmax(tf.div(attnScores, scale), -1);
      return tf.matMul(attnWeights, values[h]);  // (T, D)
    });
    // concatenating the heads along the feature axis = transpose back + reshape to (T, d)
    const context = tf.concat(contextHeads, 1);
    return tf.reshape(tf.add(tf.matMul(context, Wo), bo), [1, T, d]);
  });
  const dispose = () => tf.dispose([Wq, Wk, Wv, Wo, bo, mask, scale]);
  return { forward, dispose };
}

function randomMhaWeights(d, seed) {
  const bound = 1 / Math.sqrt(d);  // nn.Linear's init range
  return {
    Wq: lcgValues(d * d, seed, -bound, bound), Wk: lcgValues(d * d, seed + 1, -bound, bound),
    Wv: lcgValues(d * d, seed + 2, -bound, bound), Wo: lcgValues(d * d, seed + 3, -bound, bound),
    bo: lcgValues(d, seed + 4, -bound, bound),
  };
}

// Float64 MultiHeadAttention on plain arrays: the reference the TF.js graph is checked against.
function referenceMha(x, T, d, H, w) {
  const D = d / H;
  const proj = (W, b) => {  // x (T, d) @ Wᵀ (+ b)
    const out = new Float64Array(T * d);
    for (let t = 0; t < T; t++) for (let o = 0; o < d; o++) {
      let s = b ? b[o] : 0;
      for (let i = 0; i < d; i++) s += x[t * d + i] * W[o * d + i];
      out[t * d + o] = s;
    }
    return out;
  };
  const q = proj(w.Wq), k = proj(w.Wk), v = proj(w.Wv);
  const context = new Float64Array(T * d);
  for (let h = 0; h < H; h++) for (let t = 0; t < T; t++) {
    // pass 1: scaled scores of the visible keys (0..t) and their max
    const scores = new Float64Array(t + 1);
    let max = -Infinity;
    for (let j = 0; j <= t; j++) {
      let s = 0;
      for (let e = 0; e < D; e++) s += q[t * d + h * D + e] * k[j * d + h * D + e];
      scores[j] = s / Math.sqrt(D);
      max = Math.max(max, scores[j]);
    }
    // pass 2: softmax (max subtracted only for stability) and the weighted sum of values
    let sum = 0;
    for (let j = 0; j <= t; j++) { scores[j] = Math.exp(scores[j] - max); sum += scores[j]; }
    for (let j = 0; j <= t; j++) {
      for (let e = 0; e < D; e++) context[t * d + h * D + e] += (scores[j] / sum) * v[j * d + h * D + e];
    }
  }
  const out = new Float64Array(T * d);
  for (let t = 0; t < T; t++) for (let o = 0; o < d; o++) {
    let s = w.bo[o];
    for (let i = 0; i < d; i++) s += context[t * d + i] * w.Wo[o * d + i];
    out[t * d + o] = s;
  }
  return out;
}

// max |got - want| / max |want|
function relError(got, want) {
  let err = 0, scale = 0;
  for (let i = 0; i < want.length; i++) {
    err = Math.max(err, Math.abs(got[i] - want[i]));
    scale = Math.max(scale, Math.abs(want[i]));
  }
  return err / (scale || 1);
}

// ---- the job: message in {engine, baseUrl, check: {n, w?}, mhaCheckT, sgemm: [{n, runs}], mha: [{T, runs}]}

const post = (msg) => self.postMessage(msg);

async function runOurs(job) {
  const engine = await loadOurs(job.engine, job.baseUrl);
  post({ type: 'ready', detail: `${job.engine} wasm engine` });
  const { n } = job.check;
  const a = checkOperand(n);
  const { w, c } = oursSgemmCheck(engine, a, n);
  post({ type: 'check', check: 'sgemm', n, a, w, c });
  post({ type: 'check', check: 'mha', T: job.mhaCheckT, out: oursMhaCheck(engine, job.mhaCheckT) });
  for (const { n: size, runs } of job.sgemm) {
    const { ms, timing } = oursMs((r) => engine.benchSgemm(size, r), runs, `benchSgemm(${size})`);
    post({ type: 'result', row: { bench: 'sgemm', engine: job.engine, n: size, ms, gflops: sgemmFlops(size) / ms / 1e6, runs, timing } });
  }
  for (const { T, runs } of job.mha) {
    const { ms, timing } = oursMs((r) => engine.benchMha(T, r), runs, `benchMha(${T})`);
    post({ type: 'result', row: { bench: 'mha_gpt2_small', engine: job.engine, T, ms, gflops: mhaFlops(T, GPT2.d) / ms / 1e6, runs, timing } });
  }
}

async function runTfjs(job) {
  const tf = await loadTfjs(job.baseUrl);
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
  const threads = tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT');
  post({ type: 'ready', detail: `TF.js ${tf.version_core} wasm backend (${simd ? 'SIMD' : 'no SIMD'}, ${threads ? 'threads' : '1 thread'})` });
  if (threads) throw new Error('TF.js would use threads; the comparison is single-thread');

  // sgemm check on the caller's operands (W_query from our engine when it ran first)
  const { n } = job.check;
  const a = checkOperand(n);
  const w = job.check.w || lcgValues(n * n, 3, 0, 1);
  const c = tf.tidy(() => tf.matMul(tf.tensor2d(a, [n, n]), tf.tensor2d(w, [n, n])));
  post({ type: 'check', check: 'sgemm', n, a, w, c: await c.data() });
  c.dispose();

  // MHA graph check against the float64 reference, at a small size with several heads
  {
    const T = job.mhaCheckT, d = 48, H = 4;
    const weights = randomMhaWeights(d, 11);
    const x = lcgValues(T * d, 5, 0, 1);
    const mha = makeTfMha(tf, T, d, H, weights);
    const xt = tf.tensor3d(x, [1, T, d]);
    const out = mha.forward(xt);
    const got = await out.data();
    tf.dispose([xt, out]);
    mha.dispose();
    post({ type: 'check', check: 'mha_graph', T, d, heads: H, relError: relError(got, referenceMha(x, T, d, H, weights)) });
  }

  for (const { n: size, runs } of job.sgemm) {
    const [ta, tb] = [tf.randomUniform([size, size], -1, 1, 'float32', 1), tf.randomUniform([size, size], -1, 1, 'float32', 2)];
    const { ms, timing } = await tfTimeMs(tf, runs, () => tf.matMul(ta, tb));
    tf.dispose([ta, tb]);
    post({ type: 'result', row: { bench: 'sgemm', engine: 'tfjs-wasm', n: size, ms, gflops: sgemmFlops(size) / ms / 1e6, runs, timing } });
  }
  for (const { T, runs } of job.mha) {
    const mha = makeTfMha(tf, T, GPT2.d, GPT2.heads, randomMhaWeights(GPT2.d, 21));
    const x = tf.randomUniform([1, T, GPT2.d], 0, 1, 'float32', 3);
    const { ms, timing } = await tfTimeMs(tf, runs, () => mha.forward(x));
    x.dispose();
    mha.dispose();
    post({ type: 'result', row: { bench: 'mha_gpt2_small', engine: 'tfjs-wasm', T, ms, gflops: mhaFlops(T, GPT2.d) / ms / 1e6, runs, timing } });
  }
}

self.onmessage = async (event) => {
  const job = event.data;
  try {
    if (job.engine === 'simd' || job.engine === 'scalar') await runOurs(job);
    else if (job.engine === 'tfjs-wasm') await runTfjs(job);
    else throw new Error(`unknown engine ${job.engine}`);
    post({ type: 'done' });
  } catch (e) {
    post({ type: 'error', message: String((e && e.message) || e) });
  }
};
