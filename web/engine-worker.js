// Exercise 3.3's GPT-2-small MultiHeadAttention for T up to 1024, off the main thread so the page
// never freezes. Started only when the learner runs the timing (never at page load).
// The engine comes from engine/ beside this file (the folder the element approved and started it
// from), never from a URL in a message; each file is checked against the integrity map the element
// sends (importScripts takes no integrity, so a fetch with it checks the file first).
// In: {engine, op: "mha", tokens, seed, integrity}; out: {tokens, seed, ms, shape, print (grad_fn included)}, or {error}.
'use strict';
let ready = null;
self.onmessage = async (event) => {
  const { engine: kind, op, tokens, seed = 123, integrity = {} } = event.data || {};
  try {
    if (!ready) {
      const options = kind === 'scalar' || kind === 'simd' ? { kind } : {};
      const base = new URL('engine/', self.location.href).href;
      // engine-worker.mjs (the ES module build, web/build.mjs) imported the engines: self.attentionLabBundled
      ready = self.attentionLabBundled ? self.attentionLabBundled.load(options) : (async () => {
        if (integrity['loader.js']) await checked(base + 'loader.js', integrity['loader.js']);
        importScripts(base + 'loader.js');
        return self.AttentionLabEngine.load({ ...options, base, integrity });
      })();
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

// Resolves when url's bytes have the SHA-384 the build recorded; rejects with a sentence otherwise.
async function checked(url, integrity) {
  try {
    await fetch(url, { integrity });
  } catch {
    throw new Error(`${url} did not load, or is not the file this build of attention-lab.js recorded (its SHA-384 differs from the integrity map), so it was not run.`);
  }
}
