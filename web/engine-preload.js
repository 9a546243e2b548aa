// index.html's and embed.html's first script (async, a few hundred bytes): asks for the engine at once,
// in parallel with attention-lab.js, whose loader would ask for it only once that bundle had been
// parsed and run (a first visit's longest wait: issue 47, docs/performance.md). The SIMD engine, which
// every current browser runs; integrity and crossorigin are the loader's, so its <script> takes this
// response. Over http(s) only: from file:// the loader fetches without CORS, which a preload cannot.
(function () {
  if (!/^https?:$/.test(location.protocol)) return;
  if (new URLSearchParams(location.search).get('engine') === 'scalar') return;   // the page asked for the other one
  var link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'script';
  link.href = 'engine/attention-lab-simd.js';
  link.integrity = 'ENGINE_INTEGRITY';   // web/build.mjs writes the engine's SHA-384 here
  link.crossOrigin = 'anonymous';
  document.head.appendChild(link);
})();
