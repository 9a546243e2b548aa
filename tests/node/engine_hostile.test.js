// Hostile arguments against both wasm engines: objects that run page code when read (a lying
// length getter, a Proxy, a fake Float32Array) must not throw into JS, must not leak engine memory
// (the scalar engine once grew from 16 MiB to 2 GiB), and must leave the engine working.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine } = require("./engine_helpers.js");

// A Float32Array whose length getter throws from its second read on: the read inside the engine
// used to throw across its C++ frames.
function lyingArray(n) {
  let reads = 0;
  class Lying extends Float32Array {
    get length() {
      if (++reads > 1) throw new RangeError("the length getter throws on its second read");
      return super.length;
    }
  }
  return new Lying(n);
}

const throwingProxy = (target) => new Proxy(target, {
  get() { throw new TypeError("a Proxy trap throws"); },
  getPrototypeOf() { throw new TypeError("a Proxy trap throws"); },
});

// Every way in: each call gets each hostile value in place of its array argument.
function hostileCalls(e) {
  const hostile = [
    () => lyingArray(4),
    () => throwingProxy(new Float32Array(4)),
    () => Object.create(Float32Array.prototype),
    () => { const a = new Float32Array(4); Object.defineProperty(a, "length", { get() { throw new Error("own getter"); } }); return a; },
  ];
  const calls = [];
  for (const make of hostile) {
    calls.push(["formatTensor(values)", () => e.formatTensor(make(), [2, 2])]);
    calls.push(["bookCellsFor(inputs)", () => e.bookCellsFor(make(), 2, 2, 2)]);
    calls.push(["mhaForward(x)", () => e.mhaForward(make(), 1, 2, 2, 2, 1, 2, 0, 1)]);
    calls.push(["run.compute(inputs)", () => { const run = new e.AttentionRun(); try { return run.compute("self_attention_v1", make(), 2, 2, 1, 2); } finally { run.delete(); } }]);
  }
  calls.push(["formatTensor(shape: Proxy)", () => e.formatTensor(new Float32Array(4), throwingProxy([2, 2]))]);
  calls.push(["formatTensor(shape with a getter)", () => e.formatTensor(new Float32Array(4), [2, { valueOf() { throw new Error("valueOf"); } }])]);
  calls.push(["evalRequest(object)", () => e.evalRequest({ toString() { throw new Error("toString"); } })]);
  calls.push(["benchSgemm(strings)", () => e.benchSgemm("64", "x")]);
  calls.push(["mhaForward(undefined sizes)", () => e.mhaForward(new Float32Array(4))]);
  return calls;
}

for (const kind of KINDS) {
  test(`${kind}: hostile arguments get error values, never an exception`, async () => {
    const e = await engine(kind);
    for (const [what, call] of hostileCalls(e)) {
      let answer;
      assert.doesNotThrow(() => { answer = call(); }, what);
      // a print, "" (done) or a sentence: a value either way
      assert.ok(typeof answer === "string" || (typeof answer === "object" && answer !== null), what);
    }
    // a fake Float32Array is refused with the usual sentence; a genuine one of a subclass is copied
    assert.equal(e.formatTensor(Object.create(Float32Array.prototype), [2]), "error: values must be a Float32Array");
    assert.equal(e.formatTensor(throwingProxy(new Float32Array(2)), [2]), "error: values must be a Float32Array");
    assert.equal(e.formatTensor(lyingArray(2), [2]), "tensor([0., 0.])");
    assert.match(e.formatTensor(new Float32Array(4), throwingProxy([2, 2])), /^error: shape must be an array/);
    assert.match(JSON.parse(e.evalRequest({})).error, /JSON string/);
  });

  test(`${kind}: 600 rounds of hostile calls leave the engine's memory and answers as they were`, async () => {
    const e = await engine(kind);
    const calls = hostileCalls(e);
    for (const [, call] of calls) call();  // first use may grow memory once
    const heapBefore = e.HEAP8.length;
    for (let i = 0; i < 600; i++) for (const [, call] of calls) call();
    assert.ok(e.HEAP8.length <= heapBefore + (16 << 20), `memory grew from ${heapBefore} to ${e.HEAP8.length} bytes`);
    // a 1024 x 1024 tensor still fits and prints
    const big = new Float32Array(1024 * 1024).fill(0.5);
    assert.match(e.formatTensor(big, [1024, 1024]), /^tensor\(\[\[0\.5000, 0\.5000, 0\.5000,/);
    const r = e.mhaForward(new Float32Array(1024 * 64).fill(0.25), 1, 1024, 64, 64, 4, 1024, 0, 123);
    assert.equal(r.error, "");
    assert.deepEqual(Array.from(r.shape), [1, 1024, 64]);
  });
}
