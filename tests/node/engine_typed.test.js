// The typed API (AttentionRun, setTemperature, mhaForward, formatTensor) of both wasm engines
// against the golden chapter cells and the native CLI's numbers.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, fixture, num, assertClose, refusal } = require("./engine_helpers.js");

const cells = Object.fromEntries(fixture("chapter3.json").cells.map((c) => [c.id, c]));
const book = new Float32Array(cells.inputs.values);

// Row r of a (rows, n) Float32Array, as plain numbers (float32s widen to doubles exactly).
const row = (a, n, r) => Array.from(a.slice(r * n, (r + 1) * n));
const values = (id) => cells[id].values.map(num);
// An answer's value (shortest decimal text of a float32) as the float32 itself.
const f32 = (v) => Math.fround(num(v));
// The golden print without PyTorch's grad_fn / requires_grad suffix, as run.print() shows tensors.
const bare = (id) => cells[id].print.replace(/,\s+(grad_fn=<\w+>|requires_grad=True)\)$/, ")");

for (const kind of KINDS) {
  test(`${kind}: self_attention_v1 with seed 123 is section 3.4.1 step by step`, async () => {
    const e = await engine(kind);
    const run = new e.AttentionRun();
    assert.equal(run.compute("self_attention_v1", book, 6, 3, 123, 2), undefined);
    assert.deepEqual(run.names(), ["inputs", "W_query", "W_key", "W_value", "queries", "keys", "values",
                                   "attn_scores", "scaled_scores", "attn_weights", "context_vec", "temperature_weights"]);
    for (const w of ["W_query", "W_key", "W_value"]) assert.equal(run.print(w), bare(`3.4.1/${w}`));
    assert.deepEqual(run.shape("queries"), [6, 2]);
    assert.deepEqual(row(run.tensor("queries"), 2, 1), values("3.4.1/query_2"));
    assert.deepEqual(row(run.tensor("attn_scores"), 6, 1), values("3.4.1/attn_scores_2"));
    assert.deepEqual(row(run.tensor("attn_weights"), 6, 1), values("3.4.1/attn_weights_2"));
    assert.deepEqual(row(run.tensor("context_vec"), 2, 1), values("3.4.1/context_vec_2"));
    assert.equal(run.print("context_vec"), bare("3.4.2/sa_v1"));
    // the slider: softmax(attn_scores / T), recomputed without a new compute
    for (const [name, t] of [["0.1", 0.1], ["0.5", 0.5], ["1", 1], ["1.41421", Math.SQRT2], ["2", 2], ["5", 5], ["10", 10], ["100", 100]]) {
      assert.equal(run.setTemperature(t), undefined);
      assert.deepEqual(row(run.tensor("temperature_weights"), 6, 1), values(`slider/T=${name}`), `T=${name}`);
    }
    // the temperature is kept for the next compute
    assert.equal(run.compute("self_attention_v1", book, 6, 3, 123, 2), undefined);
    assert.deepEqual(row(run.tensor("temperature_weights"), 6, 1), values("slider/T=100"));
    run.delete();
  });

  test(`${kind}: simplified, self_attention_v2 and causal runs are sections 3.3.2, 3.4.2 and 3.5.1`, async () => {
    const e = await engine(kind);
    const run = new e.AttentionRun();
    assert.equal(run.compute("simplified", book, 6, 3, 0, 1), undefined);
    assert.deepEqual(run.names(), ["inputs", "attn_scores", "attn_weights", "context_vec", "temperature_weights"]);
    assert.equal(run.print("attn_scores"), bare("3.3.2/attn_scores"));
    assert.equal(run.print("attn_weights"), bare("3.3.2/attn_weights"));
    assert.equal(run.print("context_vec"), bare("3.3.2/all_context_vecs"));

    assert.equal(run.compute("self_attention_v2", book, 6, 3, 789, 2), undefined);
    assert.equal(run.print("W_query"), bare("3.4.2/sa_v2.W_query.weight"));
    assert.deepEqual(run.shape("W_query"), [2, 3]);
    assert.equal(run.print("context_vec"), bare("3.4.2/sa_v2"));
    assert.equal(run.print("attn_weights"), bare("3.5.1/attn_weights"));

    assert.equal(run.compute("causal", book, 6, 3, 789, 2), undefined);
    assert.equal(run.print("attn_scores"), bare("3.5.1/masked"));
    assert.equal(run.print("attn_weights"), bare("3.5.1/attn_weights_causal"));
    assert.deepEqual(run.shape("attn_weights"), [6, 6]);
    run.delete();
  });

  test(`${kind}: mhaForward equals the CLI's mha, on the book's batch and on a long (fused) sequence`, async () => {
    const e = await engine(kind);
    const batch = new Float32Array([...book, ...book]);
    const r = e.mhaForward(batch, 2, 6, 3, 2, 2, 6, 0, 123);
    assert.deepEqual(r.shape, [2, 6, 2]);
    assert.deepEqual(Array.from(r.values), values("3.6.2/context_vecs"));
    assert.ok(r.ms >= 0);
    // print(mha(batch)) as PyTorch prints it, grad_fn included (exercise 3.3's cell shows this text)
    assert.equal(r.print, cells["3.6.2/context_vecs"].print);

    const [B, T, d_in, d_out, heads] = [1, 160, 24, 16, 4];
    const x = new Float32Array(B * T * d_in).map((_, i) => Math.fround(Math.sin(i * 0.37)));
    const nested = [Array.from({ length: T }, (_, t) => Array.from(x.slice(t * d_in, (t + 1) * d_in)))];
    // T ≥ 128 without dropout takes the fused kernel: bit for bit the native scalar one in the scalar
    // engine, within float rounding in the SIMD engine (see engine_golden.test.js)
    const request = JSON.stringify({ op: "mha", seed: 7, x: nested, d_out, num_heads: heads, context_length: T, dropout: 0 });
    const cli = JSON.parse(cliEval(request, kind === "scalar" ? "scalar" : undefined));
    const long = e.mhaForward(x, B, T, d_in, d_out, heads, T, 0, 7);
    assert.deepEqual(long.shape, cli.shape);
    if (kind === "scalar") assert.deepEqual(Array.from(long.values), cli.values.map(f32));
    else assertClose(Array.from(long.values), cli.values.map(num), "mha T=160");
    // and mhaForward is the same computation as evalRequest's mha, in the same engine
    assert.deepEqual(Array.from(long.values), JSON.parse(e.evalRequest(request)).values.map(f32));
  });

  test(`${kind}: formatTensor prints every format case as PyTorch does`, async () => {
    const e = await engine(kind);
    const plain = fixture("format_cases.json").cases.filter((c) => !c.requires_grad && !c.grad_fn);
    assert.ok(plain.length > 10);
    for (const c of plain) {
      assert.equal(e.formatTensor(new Float32Array(c.values.map(num)), c.shape), c.print, c.name);
    }
  });
}

for (const kind of KINDS) {
  test(`${kind}: bookCellsFor replays the chapter on other inputs, and refuses bad ones with a sentence`, async () => {
    const e = await engine(kind);
    // on the book's inputs the replay is the book, less exercise 3.3's input-free GPT-2-sized module
    const bookMinusEx33 = JSON.parse(e.bookCells()).filter((c) => c.id !== "ex3.3/num_params");
    assert.deepEqual(JSON.parse(e.bookCellsFor(book, 6, 3, 2)), bookMinusEx33);
    const edited = book.slice();
    edited[3] = 0.75;  // x^(2)_1, as a learner might type it
    const replay = Object.fromEntries(JSON.parse(e.bookCellsFor(edited, 6, 3, 2)).map((c) => [c.id, c]));
    assert.notEqual(replay["3.5.1/attn_weights_causal"].print, cells["3.5.1/attn_weights_causal"].print);
    // the replay's Listing 3.2 output is eval's self_attention_v2 on the same inputs (checked against PyTorch there)
    const rows = Array.from({ length: 6 }, (_, i) => Array.from(edited.slice(i * 3, i * 3 + 3)));
    const answer = JSON.parse(cliEval(JSON.stringify({ op: "self_attention_v2", seed: 789, d_out: 2, x: rows })));
    assert.equal(replay["3.4.2/sa_v2"].print, answer.print_with_grad_fn);
    for (const [args, pattern] of [[[book, 1, 3, 2], /tokens/], [[book.slice(0, 5), 6, 3, 2], /inputs/],
                                   [[[1, 2, 3], 1, 3, 2], /Float32Array/], [[book, 6, 3, 0], /d_out/]]) {
      refusal(() => e.bookCellsFor(...args), pattern);
      assert.deepEqual(JSON.parse(e.bookCellsFor(book, 6, 3, 2)), bookMinusEx33);  // still usable after each bad call
    }
  });
}
