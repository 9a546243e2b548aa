// Security pass 3 (issue 21) in both wasm engines: train's work and answer bounds, TrainRun's slices
// added up, short quotes of bad values, 1e999 and duplicate keys refuse with the CLI's sentences;
// a request over 4 MiB in UTF-8 bytes (within 4 Mi UTF-16 units) is refused before it is copied
// into the engine's memory; the page's largest train run is still answered.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, refusal } = require("./engine_helpers.js");

const rows = (n, cols, v) => Array.from({ length: n }, () => new Array(cols).fill(v));
// a train request on x of (B,) T × d_in
function train(module, B, T, d_in, d_out, steps, optimizer = "sgd", extra = {}) {
  const batched = module === "causal_attention" || module === "mha";
  return { op: "train", seed: 1, module, d_out, optimizer, lr: 0.01, steps, prints: false,
           x: batched ? Array.from({ length: B }, () => rows(T, d_in, 0.5)) : rows(T, d_in, 0.5),
           target: batched ? Array.from({ length: B }, () => rows(T, d_out, 0.25)) : rows(T, d_out, 0.25),
           ...(batched ? { dropout: 0 } : {}), ...extra };
}
const longName = "a".repeat(1 << 20);

const refused = {
  // 30 s of CPU under the old bound: the T×T work was not counted
  "CausalAttention, T = 1024, 1000 steps": [JSON.stringify(train("causal_attention", 1, 1024, 1, 1, 1000, "sgd", { record_every: 1000 })), /multiply-adds and computed numbers to train/],
  "Adam over 2 million parameters, 1000 steps": [JSON.stringify(train("self_attention_v2", 1, 1, 1024, 640, 1000, "adam", { record_every: 1000 })), /computed numbers to train/],
  "a 400 MB answer": [JSON.stringify(train("mha", 1, 2, 2040, 2048, 1, "sgd", { num_heads: 1, record_parameters: true })), /numbers in the answer, more than the limit of 2097152/],
  "parameter history and final parameters together": [JSON.stringify(train("self_attention_v1", 1, 2, 128, 171, 31, "sgd", { record_parameters: true })), /numbers in the answer/],
  "1e999": ['{"op":"softmax","x":[1e999]}', /a number too large for a double \(1e999\)/],
  "a duplicate key": ['{"op":"softmax","x":[1],"x":[2]}', /the key "x" twice in one object/],
  "a 1 MB op name": [JSON.stringify({ op: longName }), /^unknown op "a{80}…"; use one of/],
  "a 1 MB field name": [JSON.stringify({ op: "softmax", x: [1], [longName]: 1 }), /^unknown field "a{80}…" for op "softmax"/],
  "a 1 MB module name": [JSON.stringify(train(longName, 1, 2, 2, 2, 1)), /^unknown module "a{80}…"/],
};

for (const kind of KINDS) {
  test(`${kind}: train's bounds, short quotes, 1e999 and duplicate keys: the CLI's sentences`, async () => {
    const e = await engine(kind);
    for (const [what, [request, pattern]] of Object.entries(refused)) {
      const cli = JSON.parse(cliEval(request)).error;
      assert.match(cli, pattern, `CLI: ${what}`);
      assert.ok(cli.length < 400, `${what}: ${cli.length} characters`);
      refusal(() => e.evalRequest(request), cli, what);
    }
  });

  test(`${kind}: the page's largest train run is answered as the CLI answers it; TrainRun's slices add up within the answer limit`, async () => {
    const e = await engine(kind);
    const page = JSON.stringify(train("causal_attention", 4, 16, 32, 16, 301, "adam", { lr: 0.02, record_every: 6, record_parameters: true }));
    assert.equal(e.evalRequest(page), cliEval(page));
    const run = new e.TrainRun();
    try {
      // 196,608 parameters: each slice repeats them, so ten one-step slices fit and the eleventh does not
      assert.equal(run.start(JSON.stringify(train("self_attention_v1", 1, 2, 256, 256, 20))), undefined);
      for (let i = 0; i < 10; i++) JSON.parse(run.advance(1));
      assert.throws(() => run.advance(1), /answers would hold more than 2097152 numbers in all .*advance more steps per call/);
      assert.equal(run.stepsLeft(), 10);
    } finally {
      run.delete();
    }
  });

  test(`${kind}: over 4 MiB of UTF-8 within 4 Mi UTF-16 units is refused before the engine's memory grows`, async () => {
    const e = await engine(kind);
    const wide = JSON.stringify({ op: "softmax", x: [1], pad: "\u20ac".repeat((4 << 20) - 100) });   // 12 MiB of UTF-8
    assert.ok(wide.length <= 1 << 22, "within 4 Mi UTF-16 units");
    e.evalRequest('{"op":"softmax","x":[1]}');
    const heapBefore = e.HEAP8.length;
    refusal(() => e.evalRequest(wide), /larger than 4 MiB/);
    refusal(() => e.sectionData(wide), /larger than 4 MiB/);
    const run = new e.TrainRun();
    try {
      refusal(() => run.start(wide), /larger than 4 MiB/);
    } finally {
      run.delete();
    }
    assert.equal(e.HEAP8.length, heapBefore, "the engine's memory grew");
    // just within: 4 MiB of UTF-8 exactly is read (and refused for its unknown field)
    const pad = (1 << 22) - JSON.stringify({ op: "softmax", x: [1], pad: "" }).length;
    const exact = JSON.stringify({ op: "softmax", x: [1], pad: "\u20ac".repeat(Math.floor(pad / 3)) + "x".repeat(pad % 3) });
    assert.equal(Buffer.byteLength(exact), 1 << 22);
    refusal(() => e.evalRequest(exact), /unknown field "pad"/);
  });
}
