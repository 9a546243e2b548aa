// Exercise 3.3's GPT-2-small MultiHeadAttention for T up to 1024, off the main thread so the page
// never freezes. Started only when the learner runs the timing (never at page load).
// The element runs this file in one blob: with the loader and the engine before it, each checked against
// the integrity map (web/src/engine.js, startEngineWorker): so it imports nothing, and runs only bytes
// that were checked. engine-worker.mjs (the ES module build, web/build.mjs) imported the engines:
// self.attentionLabBundled.
// In: {engine: "simd" | "scalar", op: "mha", tokens, seed}; out: {tokens, seed, ms, shape, print (grad_fn included)}, or {error}.
'use strict';
let ready = null;
self.onmessage = async (event) => {
  const { engine: kind, op, tokens, seed = 123 } = event.data || {};
  try {
    if (!ready) {
      const options = kind === 'scalar' || kind === 'simd' ? { kind } : {};
      if (self.attentionLabBundled) ready = self.attentionLabBundled.load(options);
      else if (self.AttentionLabEngine && typeof self.createAttentionLab === 'function') {
        const engineFile = () => self.createAttentionLab;   // the one engine the blob carries
        ready = self.AttentionLabEngine.load({ ...options, factories: { simd: engineFile, scalar: engineFile } });
      } else ready = Promise.reject(new Error('this worker was started without its engine: the element starts it with the loader and the engine before it (startEngineWorker)'));
      ready.catch(() => { ready = null; });
    }
    const { engine } = await ready;
    if (op !== 'mha' || !Number.isInteger(tokens) || tokens < 1 || tokens > 1024) throw new Error('expected op "mha" with tokens from 1 to 1024');
    if (!Number.isInteger(seed) || seed < 0 || seed > 2147483647) throw new Error('expected a seed from 0 to 2147483647');
    // GPT-2 small: d_in = d_out = 768, 12 heads, context_length 1024, dropout 0, inputs torch.rand.
    const d = 768;
    // One small untimed pass first: the first forward pays for growing wasm memory and warming up.
    if (!self.warmedUp) { engine.mhaForward(new Float32Array(32 * d), 1, 32, d, d, 12, 1024, 0.0, 123); self.warmedUp = true; }
    // a refused call throws the engine's sentence (bindings/API.md), posted below
    const x = JSON.parse(engine.evalRequest(JSON.stringify({ op: 'rand', seed, shape: [1, tokens, d] })));
    const out = engine.mhaForward(new Float32Array(x.values), 1, tokens, d, d, 12, 1024, 0.0, seed);
    self.postMessage({ tokens, seed, ms: out.ms, shape: Array.from(out.shape), print: out.print });
  } catch (e) {
    self.postMessage({ tokens, error: String((e && e.message) || e) });
  }
};
