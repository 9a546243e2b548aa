// The sections' "weights" field (requests/request_weights.h): a reader's module's weights, in either
// layout, with biases and out_proj. Both wasm engines answer every section that draws a module exactly as
// the native CLI's `attention-lab section` does, and a bad shape gets the same sentence naming the layout.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, BOOK_INPUTS, engine, cliEval, weightMatrix: m } = require("./engine_helpers.js");

const inputs = [[0.9, 0.15, 0.89], ...BOOK_INPUTS.slice(1)];   // the book's, x(1) changed: no answer is a printed one
const v = (n, k) => m(1, n, k)[0];
const linear = { "W_query.weight": m(4, 3, 1), "W_key.weight": m(4, 3, 2), "W_value.weight": m(4, 3, 3) };
const WEIGHTS = {
  "SelfAttention_v1's layout": { W_query: m(3, 2, 1), W_key: m(3, 2, 2), W_value: m(3, 2, 3) },
  "nn.Linear's layout": linear,
  "nn.Linear's with biases and out_proj": { ...linear, "W_query.bias": v(4, 4), "W_key.bias": v(4, 5), "W_value.bias": v(4, 6),
    "out_proj.weight": m(4, 4, 7), "out_proj.bias": v(4, 8) },
};
const SECTIONS = ["step-by-step", "temperature", "classes", "causal", "multi-head"];

for (const kind of KINDS) {
  test(`${kind}: sections with a reader's weights answer as the native CLI does`, async () => {
    const e = await engine(kind);
    for (const [name, weights] of Object.entries(WEIGHTS)) {
      for (const section of SECTIONS) {
        const request = JSON.stringify({ section, inputs, weights });
        const want = cliEval(request, kind === "scalar" ? "scalar" : undefined, "section");
        const answer = JSON.parse(want);
        try {
          assert.equal(e.sectionData(request), want, `${name}, ${section}`);
        } catch (err) {
          if (err instanceof assert.AssertionError) throw err;
          assert.equal(err.message, answer.error, `${name}, ${section}: the same sentence`);
        }
        if (name.includes("biases") && (section === "step-by-step" || section === "temperature")) {
          assert.match(answer.error, /^SelfAttention_v1 has no bias/);   // v1 has none: its sections say so
          continue;
        }
        assert.ok(answer.results, `${name}, ${section}: ${want.slice(0, 200)}`);
        assert.deepEqual(answer.results["weights/W_query.weight"].shape, name.includes("v1") ? [2, 3] : [4, 3], "d_out follows from the weights");
      }
    }
  });

  test(`${kind}: a weight of the other layout gets the sentence that names it`, async () => {
    const e = await engine(kind);
    const request = JSON.stringify({ section: "classes", inputs, weights: { "W_query.weight": m(3, 2, 1), "W_key.weight": m(3, 2, 2), "W_value.weight": m(3, 2, 3) } });
    assert.throws(() => e.sectionData(request), { message: "W_query.weight is nn.Linear's weight, d_out × d_in = 2 × 3; you gave 3 × 2 — that is nn.Parameter's layout, name it W_query" });
    assert.equal(JSON.parse(cliEval(request, undefined, "section")).error, "W_query.weight is nn.Linear's weight, d_out × d_in = 2 × 3; you gave 3 × 2 — that is nn.Parameter's layout, name it W_query");
    assert.ok(JSON.parse(e.sectionData(JSON.stringify({ section: "classes", inputs, d_out: 2 }))).results, "the engine goes on");
  });
}
