// sectionData, the page's one route to the engine: in both wasm engines every golden cell a section
// returns prints as PyTorch did, module outputs equal the native CLI's eval on the learner's inputs
// and seed, and a bad request gets a sentence with the engine still usable.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, BOOK_INPUTS, engine, cliEval, fixture, refusal } = require("./engine_helpers.js");

const SECTIONS = ["batched", "step-by-step", "temperature", "why-sqrt-dk", "classes", "causal", "multi-head"];
const golden = new Map(fixture("chapter3.json").cells.map((c) => [c.id, c]));
const line = (c) => (c.label === null ? c.print : `${c.label} ${c.print}`);
const rows = [[0.9, 0.15, 0.89], ...BOOK_INPUTS.slice(1)];   // the book's, x(1) changed: no answer is a printed one
const data = (e, request) => JSON.parse(e.sectionData(JSON.stringify(request)));

for (const kind of KINDS) {
  test(`${kind}: every section's golden cells print as PyTorch printed them`, async () => {
    const e = await engine(kind);
    const checked = new Set();
    for (const section of SECTIONS) {
      const { results } = data(e, { section, d_out: 2 });
      for (const [name, r] of Object.entries(results)) {
        if (!golden.has(name)) continue;
        assert.equal(r.line, line(golden.get(name)), `${section}: ${name}`);
        checked.add(name);
      }
    }
    // at least every golden cell the page shows (tests/browser/page.test.js's list)
    for (const id of ["3.3.2/attn_weights", "3.4.1/query_2", "3.4.1/keys.shape", "3.4.2/sa_v2", "ex3.1/sa_v1_with_v2_weights",
      "3.5.1/masked", "3.5.2/dropout_attn_weights", "3.5.3/batch.shape", "3.6.2/a_at_aT", "3.6.2/context_vecs", "ex3.3/num_params"]) {
      assert.ok(checked.has(id), id);
    }
  });

  test(`${kind}: the learner's inputs, seed and d_out reach every module as eval computes them`, async () => {
    const e = await engine(kind);
    const cls = data(e, { section: "classes", inputs: rows, d_out: 4, seed: 7 }).results;
    const v1 = JSON.parse(cliEval(JSON.stringify({ op: "self_attention_v1", seed: 7, x: rows, d_out: 4 })));
    const v2 = JSON.parse(cliEval(JSON.stringify({ op: "self_attention_v2", seed: 7, x: rows, d_out: 4 })));
    assert.equal(cls["3.4.2/sa_v1"].print_with_grad_fn, v1.print_with_grad_fn);
    assert.equal(cls["3.4.2/sa_v2"].print_with_grad_fn, v2.print_with_grad_fn);   // the seed replaces 789 too
    const mh = data(e, { section: "multi-head", inputs: rows, d_out: 4 }).results;
    const mha = JSON.parse(cliEval(JSON.stringify({ op: "mha", seed: 123, x: [rows, rows], d_out: 4, context_length: 6, dropout: 0, num_heads: 2 })));
    assert.equal(mh["3.6.2/context_vecs"].print_with_grad_fn, mha.print_with_grad_fn);
    const t = data(e, { section: "temperature", inputs: rows, d_out: 2, temperature: 0.01 }).results;
    const soft = JSON.parse(cliEval(JSON.stringify({ op: "softmax", x: t.attn_scores_2.values, temperature: 0.01 })));
    assert.equal(t.temperature_weights_2.print, soft.print);
  });

  test(`${kind}: a bad request throws a sentence, and the engine goes on`, async () => {
    const e = await engine(kind);
    const bad = [
      ["not json", /^the request is not valid JSON/],
      ["[1]", /^the request must be a JSON object like/],
      [JSON.stringify({ section: "__proto__", d_out: 2 }), /unknown section "__proto__"/],
      [JSON.stringify({ section: "causal", d_out: 2, "seed,d_out": 1 }), /unknown field "seed,d_out"/],
      [JSON.stringify({ section: "causal", inputs: [[1, 2], [3]], d_out: 2 }), /^"inputs" is ragged: every row at depth 2 must have 2 entries/],
      [JSON.stringify({ section: "causal", d_out: 65 }), /"d_out" must be a whole number from 1 to 64/],
    ];
    for (const [request, pattern] of bad) {
      refusal(() => e.sectionData(request), pattern);
      assert.equal(data(e, { section: "step-by-step", d_out: 2 }).results["3.4.1/attn_score_22"].print, "tensor(1.8524)");
    }
    refusal(() => e.sectionData(42), /JSON string/);
  });
}
