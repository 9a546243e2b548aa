// Exercise 3.3's GPT-2-small MultiHeadAttention for T up to 1024, off the main thread so the page
// never freezes. Started only when the learner runs the timing (never at page load).
// In: {loaderUrl, engine, op: "mha", tokens}; out: {tokens, ms, shape, print (grad_fn included)}, or {error}.
'use strict';
let ready = null;
self.onmessage = async (event) => {
  const { loaderUrl, engine: kind, op, tokens } = event.data || {};
  try {
    if (typeof loaderUrl !== 'string') throw new Error('expected {loaderUrl, engine, op}');
    if (!ready) {
      importScripts(loaderUrl);
      const base = new URL('.', loaderUrl).href;
      ready = self.AttentionLabEngine.load(kind === 'scalar' || kind === 'simd' ? { kind, base } : { base });
    }
    const { engine } = await ready;
    if (op !== 'mha' || !Number.isInteger(tokens) || tokens < 1 || tokens > 1024) throw new Error('expected op "mha" with tokens from 1 to 1024');
    // GPT-2 small: d_in = d_out = 768, 12 heads, context_length 1024, dropout 0, inputs torch.rand.
    const d = 768;
    // One small untimed pass first: the first forward pays for growing wasm memory and warming up.
    if (!self.warmedUp) { engine.mhaForward(new Float32Array(32 * d), 1, 32, d, d, 12, 1024, 0.0, 123); self.warmedUp = true; }
    // a refused call throws the engine's sentence (bindings/API.md), posted below
    const x = JSON.parse(engine.evalRequest(JSON.stringify({ op: 'rand', seed: 123, shape: [1, tokens, d] })));
    const out = engine.mhaForward(new Float32Array(x.values), 1, tokens, d, d, 12, 1024, 0.0, 123);
    self.postMessage({ tokens, ms: out.ms, shape: Array.from(out.shape), print: out.print });
  } catch (e) {
    self.postMessage({ tokens, error: String((e && e.message) || e) });
  }
};
