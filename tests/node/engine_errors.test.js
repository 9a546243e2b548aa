// Bad input to either wasm engine throws an Error whose message says what to change — the same sentence
// the CLI gives for requests — and the engine keeps working: a correct call follows every bad one.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, BOOK_INPUTS, engine, cliEval, fixture, refusal } = require("./engine_helpers.js");

const good = fixture("reference_cases.json").cases.find((c) => c.name === "mha book");
const goodRequest = JSON.stringify(good.request);
const goodAnswer = cliEval(goodRequest);
const book = new Float32Array(BOOK_INPUTS.flat());

const badRequests = {
  "malformed JSON": '{"op": "softmax", "x": [1, 2',
  "not an object": "[1, 2, 3]",
  "huge rand shape": JSON.stringify({ op: "rand", seed: 1, shape: [100000, 100000] }),
  "ragged x": JSON.stringify({ op: "softmax", x: [[1, 2], [3]] }),
  "d_out not divisible by num_heads": JSON.stringify({ op: "mha", seed: 1, x: [[[1, 2], [3, 4]]], d_out: 5,
                                                       num_heads: 2, context_length: 4, dropout: 0 }),
  "too many tokens for the limits": JSON.stringify({ op: "mha", seed: 1, x: [Array.from({ length: 2049 }, () => [1])],
                                                     d_out: 2, num_heads: 1, context_length: 2048, dropout: 0 }),
  "temperature 0": JSON.stringify({ op: "softmax", x: [1, 2], temperature: 0 }),
  "nesting too deep": "[".repeat(40) + "]".repeat(40),
  "unknown op": JSON.stringify({ op: "transformer" }),
  "train target of the wrong shape": JSON.stringify({ op: "train", seed: 1, module: "self_attention_v2", d_out: 2,
                                                      x: [[1, 2], [3, 4]], target: [[1, 2, 3], [4, 5, 6]],
                                                      optimizer: "adam", lr: 0.01, steps: 10 }),
  "train over 10,000 steps": JSON.stringify({ op: "train", seed: 1, module: "self_attention_v1", d_out: 2,
                                              x: [[1, 2]], target: [[1, 2]], optimizer: "sgd", lr: 0.1, steps: 10001 }),
};

for (const kind of KINDS) {
  test(`${kind}: bad requests get the CLI's error, and the next request works`, async () => {
    const e = await engine(kind);
    for (const [what, request] of Object.entries(badRequests)) {
      const cli = JSON.parse(cliEval(request));
      assert.ok(cli.error, what);
      refusal(() => e.evalRequest(request), cli.error, what);
      assert.equal(e.evalRequest(goodRequest), goodAnswer, `after ${what}`);
    }
  });

  test(`${kind}: a request over 4 MiB and a non-string request are refused`, async () => {
    const e = await engine(kind);
    // refused from its length alone: the engine's memory does not grow to hold it
    const heapBefore = e.HEAP8.length;
    const huge = JSON.stringify({ op: "softmax", x: [1], pad: "x".repeat(33 << 20) });
    refusal(() => e.evalRequest(huge), /larger than 4 MiB/);
    assert.equal(e.HEAP8.length, heapBefore);
    // within 4 Mi UTF-16 units but more in UTF-8 bytes: refused by the engine's own count
    const wide = JSON.stringify({ op: "softmax", x: [1], pad: "\u00e9".repeat(3 << 20) });
    refusal(() => e.evalRequest(wide), /larger than 4 MiB/);
    assert.equal(e.evalRequest(goodRequest), goodAnswer);
    refusal(() => e.evalRequest({ op: "softmax" }), /evalRequest takes the request as a JSON string/);
    assert.equal(e.evalRequest(goodRequest), goodAnswer);
  });

  test(`${kind}: bad AttentionRun arguments throw sentences, and the run stays usable`, async () => {
    const e = await engine(kind);
    const run = new e.AttentionRun();
    const ok = () => {
      assert.equal(run.compute("self_attention_v1", book, 6, 3, 123, 2), undefined);
      assert.equal(run.print("W_query"), "tensor([[0.2961, 0.5166],\n        [0.2517, 0.6886],\n        [0.0740, 0.8665]])");
    };
    const bad = [
      [() => run.compute("self_attention_v1", new Float32Array(17), 6, 3, 123, 2), /17 numbers but its shape \(6 × 3\) needs 18/],
      [() => run.compute("self_attention_v1", Array.from(book), 6, 3, 123, 2), /Float32Array/],
      [() => run.compute("attention_v9", book, 6, 3, 123, 2), /unknown variant "attention_v9"/],
      [() => run.compute("causal", book, 0, 3, 123, 2), /tokens must be a whole number from 1 to 2048, got 0/],
      [() => run.compute("causal", book, 1e9, 3, 123, 2), /tokens must be a whole number from 1 to 2048/],
      [() => run.compute("causal", book, 6, NaN, 123, 2), /d_in must be a whole number/],
      [() => run.compute("causal", book, 6, 3, 1.5, 2), /seed must be a whole number/],
      [() => run.compute("self_attention_v2", book, 6, 3, 123, 4096), /d_out must be a whole number from 1 to 2048/],
      [() => run.setTemperature(0), /finite number greater than 0/],
      [() => run.setTemperature(NaN), /finite number greater than 0/],
      [() => run.setTemperature(Infinity), /finite number greater than 0/],
      [() => run.setTemperature(-1), /finite number greater than 0/],
      [() => run.print("W_nothing"), /no tensor "W_nothing"; it has inputs, W_query/],
      [() => run.shape("W_nothing"), /no tensor "W_nothing"; it has inputs, W_query/],
      [() => run.tensor(42), /no tensor ""/],
    ];
    ok();
    for (const [call, message] of bad) {
      refusal(call, message);
      ok();
    }
    // a failed compute leaves the run empty rather than half-updated
    refusal(() => run.compute("causal", new Float32Array(2), 6, 3, 123, 2), /needs 18/);
    assert.deepEqual(run.names(), []);
    refusal(() => run.tensor("queries"), /no tensor "queries"; call compute first/);
    refusal(() => run.shape("queries"), /no tensor "queries"; call compute first/);
    refusal(() => run.print("queries"), /no tensor "queries"; call compute first/);
    ok();
    run.delete();
  });

  test(`${kind}: bad mhaForward, formatTensor, bookCellsFor, sectionData and bench arguments throw sentences`, async () => {
    const e = await engine(kind);
    const x = new Float32Array(2 * 4 * 8).fill(0.5);
    const mha = (...args) => () => e.mhaForward(...args);
    const bad = [
      [mha(x, 2, 4, 8, 5, 2, 4, 0, 1), /d_out \(5\) must be divisible by num_heads \(2\)/],
      [mha(new Float32Array(10), 2, 4, 8, 8, 2, 4, 0, 1), /x has 10 numbers but its shape \(2 × 4 × 8\) needs 64/],
      [mha(x, 64, 2048, 2048, 2048, 8, 2048, 0, 1), /would need .* numbers, more than the limit/],
      [mha(x, 2, 4, 8, 8, 2, 3, 0, 1), /4 tokens but context_length is 3/],
      [mha(x, 2, 4, 8, 8, 2, 4, 1, 1), /dropout must be at least 0 and less than 1/],
      [mha(x, 2, 4, 8, 8, 0, 4, 0, 1), /num_heads must be a whole number from 1 to 256/],
      [mha([1, 2], 1, 1, 2, 2, 1, 1, 0, 1), /Float32Array/],
    ];
    for (const [call, message] of bad) {
      refusal(call, message);
      const fine = e.mhaForward(x, 2, 4, 8, 8, 2, 4, 0, 1);
      assert.deepEqual(Object.keys(fine).sort(), ["ms", "print", "shape", "values"]);
      assert.deepEqual(fine.shape, [2, 4, 8]);
    }
    refusal(() => e.formatTensor(new Float32Array(3), [2, 2]), /^values has 3 numbers but its shape \(2 × 2\) needs 4/);
    refusal(() => e.formatTensor(new Float32Array(1), [1, 1, 1, 1, 1]), /^the shape has 5 sizes; give at most 4$/);
    refusal(() => e.formatTensor(new Float32Array(1), [-1]), /^shape\[0\] must be a whole number/);
    refusal(() => e.formatTensor(new Float32Array(1), "1"), /^shape must be an array/);
    refusal(() => e.formatTensor([1], [1]), /^values must be a Float32Array$/);
    assert.equal(e.formatTensor(new Float32Array([1, 2]), [2]), "tensor([1., 2.])");
    refusal(() => e.bookCellsFor(book, 1, 18, 2), /tokens must be a whole number from 2 to 64/);
    refusal(() => e.bookCellsFor(Array.from(book), 6, 3, 2), /^inputs must be a Float32Array/);
    assert.ok(JSON.parse(e.bookCellsFor(book, 6, 3, 2)).length > 0);
    refusal(() => e.sectionData(JSON.stringify({ section: "nope", d_out: 2 })), /^unknown section "nope"; use one of/);
    refusal(() => e.sectionData(42), /^sectionData takes the request as a JSON string/);
    assert.ok(JSON.parse(e.sectionData(JSON.stringify({ section: "causal", d_out: 2 }))).results);
    refusal(() => e.benchSgemm(0, 1), /^n must be a whole number from 1 to 2048/);
    refusal(() => e.benchMha(5000, 1), /^tokens must be a whole number from 1 to 2048/);
    refusal(() => e.benchMha(8, 0), /^runs must be a whole number from 1 to 1000/);
    assert.equal(typeof e.benchSgemm(16, 3), "number");
    assert.equal(typeof e.benchMha(8, 1), "number");
  });
}
