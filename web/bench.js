// bench.html's main thread: reads the URL parameters, runs one Worker per engine in turn, shows the
// timings and correctness checks as tables, and publishes window.benchResults / benchChecks / benchDone
// for scripts/bench_browser.mjs. No timing happens here: the workers time, this thread only renders.
'use strict';
(() => {
  const ENGINES = ['simd', 'scalar', 'tfjs-wasm'];
  const CHECK_N = 67;      // odd, so every kernel's tail paths are hit
  const CHECK_T = 16;      // tokens of the MHA checks
  const TOL_SGEMM = 1e-5;  // float32 sums of 67 products: |error| stays well below 67·2⁻²⁴ of Σ|a||b|
  const TOL_MHA = 1e-4;    // softmax's exp differs between kernels (and from float64) by a few ulps

  // ---- parameters: ?quick=1, ?runs=R, ?n=256,512, ?T=1024, ?engines=simd,tfjs-wasm

  function intList(name, text, lo, hi) {
    const parts = text.split(',');
    return parts.map((p) => {
      if (!/^\d+$/.test(p.trim()) || +p < lo || +p > hi) {
        throw new Error(`${name} must be a comma-separated list of whole numbers from ${lo} to ${hi}, e.g. ${name}=${lo === 1 ? '64' : lo}; got "${text}"`);
      }
      return +p;
    });
  }

  function parsePlan(search) {
    const params = new URLSearchParams(search);
    const known = ['quick', 'runs', 'n', 'T', 'engines'];
    for (const key of params.keys()) {
      if (!known.includes(key)) throw new Error(`unknown parameter "${key}": use ${known.join(', ')}`);
    }
    const quickText = params.get('quick') ?? '0';
    if (quickText !== '0' && quickText !== '1') throw new Error(`quick must be 0 or 1; got "${quickText}"`);
    const quick = quickText === '1';
    const runs = params.has('runs') ? intList('runs', params.get('runs'), 1, 100) : null;
    if (runs && runs.length !== 1) throw new Error('runs takes one number, e.g. runs=5');
    const sizes = params.has('n') ? intList('n', params.get('n'), 1, 2048) : quick ? [64] : [256, 512, 1024];
    const tokens = params.has('T') ? intList('T', params.get('T'), 1, 1024) : quick ? [64] : [1024];
    let engines = ENGINES;
    if (params.has('engines')) {
      engines = params.get('engines').split(',');
      const bad = engines.filter((e) => !ENGINES.includes(e));
      if (bad.length || !engines.length) throw new Error(`engines must be a comma-separated list of ${ENGINES.join(', ')}; got "${params.get('engines')}"`);
    }
    // Default runs: 9 for sgemm, 5 for the MHA; the scalar engine's big sizes take seconds, so 3.
    const runsFor = (engine, bench, size) => {
      if (runs) return runs[0];
      if (quick) return 1;
      if (engine === 'scalar' && (bench === 'mha' || size >= 512)) return 3;
      return bench === 'mha' ? 5 : 9;
    };
    return engines.map((engine) => ({
      engine,
      sgemm: sizes.map((n) => ({ n, runs: runsFor(engine, 'sgemm', n) })),
      mha: tokens.map((T) => ({ T, runs: runsFor(engine, 'mha', T) })),
    }));
  }

  // ---- rendering (textContent only)

  const $ = (id) => document.getElementById(id);
  function addRow(tbody, cells) {
    const tr = document.createElement('tr');
    for (const { text, num, fail } of cells) {
      const td = document.createElement('td');
      td.textContent = text;
      if (num) td.className = 'num';
      if (fail) td.classList.add('fail');
      tr.append(td);
    }
    tbody.append(tr);
  }
  const fmt = (x, digits) => x.toFixed(digits);

  // ---- one worker per engine

  function runWorker(job, onMessage) {
    return new Promise((resolve, reject) => {
      const worker = new Worker('bench-worker.js');
      const finish = (f) => (arg) => { worker.terminate(); f(arg); };
      const ok = finish(resolve), fail = finish(reject);
      worker.onerror = (e) => fail(new Error(`${job.engine}: ${e.message || 'the worker failed to start'}`));
      worker.onmessage = (event) => {
        const msg = event.data;
        if (msg.type === 'done') ok();
        else if (msg.type === 'error') fail(new Error(`${job.engine}: ${msg.message}`));
        else onMessage(msg);
      };
      worker.postMessage(job);
    });
  }

  // max over (i, j) of |c - ref| / Σ_k |a_ik| |b_kj|, ref in float64: the error relative to what
  // float32 rounding can reach, so it does not blow up where the sum cancels.
  function sgemmError(a, b, c, n) {
    let worst = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      let ref = 0, mag = 0;
      for (let k = 0; k < n; k++) { ref += a[i * n + k] * b[k * n + j]; mag += Math.abs(a[i * n + k] * b[k * n + j]); }
      worst = Math.max(worst, Math.abs(c[i * n + j] - ref) / (mag || 1));
    }
    return worst;
  }

  function relDiff(x, y) {
    let err = 0, scale = 0;
    for (let i = 0; i < x.length; i++) { err = Math.max(err, Math.abs(x[i] - y[i])); scale = Math.max(scale, Math.abs(y[i])); }
    return err / (scale || 1);
  }

  async function main() {
    const results = [], checks = [];
    window.benchResults = results;
    window.benchChecks = checks;
    window.benchEngines = {};
    const addCheck = (check, error, tolerance) => {
      const ok = Number.isFinite(error) && error <= tolerance;
      checks.push({ check, error, tolerance, ok });
      addRow($('checks').querySelector('tbody'), [{ text: check }, { text: error.toExponential(2), num: true },
        { text: tolerance.toExponential(0), num: true }, { text: ok ? 'pass' : 'FAIL', fail: !ok }]);
    };

    const plan = parsePlan(location.search);
    const sgemmChecks = {}, mhaOuts = {};
    let ourW = null;  // W_query from our first engine, so TF.js multiplies the same operands
    for (const job of plan) {
      $('status').textContent = `Running ${job.engine}…`;
      await runWorker({ ...job, baseUrl: new URL('.', location.href).href, check: { n: CHECK_N, w: ourW }, mhaCheckT: CHECK_T }, (msg) => {
        if (msg.type === 'ready') {
          window.benchEngines[job.engine] = msg.detail;
          $('engines').textContent = `Engines: ${Object.values(window.benchEngines).join('; ')}.`;
        } else if (msg.type === 'check' && msg.check === 'sgemm') {
          sgemmChecks[job.engine] = msg;
          if (job.engine !== 'tfjs-wasm' && !ourW) ourW = msg.w;
          addCheck(`sgemm n=${msg.n}, ${job.engine} vs float64`, sgemmError(msg.a, msg.w, msg.c, msg.n), TOL_SGEMM);
        } else if (msg.type === 'check' && msg.check === 'mha') {
          mhaOuts[job.engine] = msg.out;
        } else if (msg.type === 'check' && msg.check === 'mha_graph') {
          addCheck(`MHA T=${msg.T} d=${msg.d} ${msg.heads} heads, TF.js op graph vs float64`, msg.relError, TOL_MHA);
        } else if (msg.type === 'result') {
          const r = msg.row;
          results.push(r);
          const size = r.bench === 'sgemm' ? `n=${r.n}` : `T=${r.T}`;
          addRow($('results').querySelector('tbody'), [{ text: r.bench }, { text: size }, { text: r.engine },
            { text: fmt(r.ms, 2), num: true }, { text: fmt(r.gflops, 1), num: true }, { text: r.timing }]);
        }
      });
    }
    // Cross-engine checks: same operands, so the products must agree.
    const s = sgemmChecks.simd, c = sgemmChecks.scalar, t = sgemmChecks['tfjs-wasm'];
    if (s && c) addCheck(`sgemm n=${CHECK_N}, simd vs scalar`, relDiff(s.c, c.c), TOL_SGEMM);
    if (s && t && s.w === ourW) addCheck(`sgemm n=${CHECK_N}, simd vs TF.js`, relDiff(s.c, t.c), TOL_SGEMM);
    if (mhaOuts.simd && mhaOuts.scalar) addCheck(`MHA T=${CHECK_T} GPT-2 small, simd vs scalar`, relDiff(mhaOuts.simd, mhaOuts.scalar), TOL_MHA);
    const failed = checks.filter((x) => !x.ok).length;
    $('status').textContent = `Done: ${results.length} timings, ${checks.length - failed} of ${checks.length} checks pass.`;
  }

  main().catch((e) => {
    window.benchError = String((e && e.message) || e);
    $('error').textContent = `Error: ${window.benchError}`;
    $('status').textContent = 'Stopped.';
  }).finally(() => { window.benchDone = true; });
})();
