// Hostile arguments against both wasm engines: objects that run page code when read (a lying
// length getter, a Proxy, a fake Float32Array) must never run while the engine does: no page code's
// exception escapes a call (only the engine's own Error, bindings/API.md), no engine memory leaks
// (the scalar engine once grew from 16 MiB to 2 GiB), and the engine keeps working.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, refusal } = require("./engine_helpers.js");

// What the hostile values throw when read: none of these may come out of a call.
const PAGE_CODE = /second read|Proxy trap|own getter|valueOf|toString/;

// The call's result, or the engine's Error (the convention's refusal), caught.
function outcome(call) {
  try {
    return call();
  } catch (e) {
    return e;
  }
}

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
  test(`${kind}: hostile arguments get the engine's answer or its Error, never page code's exception`, async () => {
    const e = await engine(kind);
    for (const [what, call] of hostileCalls(e)) {
      const answer = outcome(call);
      if (answer instanceof Error) {
        assert.doesNotMatch(answer.message, PAGE_CODE, what);
        assert.ok(answer.message.length > 10, `${what}: ${answer.message}`);
      } else {
        // a print or a result (undefined: compute done)
        assert.ok(answer === undefined || typeof answer === "string" || typeof answer === "object", what);
      }
    }
    // a fake Float32Array is refused with the usual sentence; a genuine one of a subclass is copied
    refusal(() => e.formatTensor(Object.create(Float32Array.prototype), [2]), "values must be a Float32Array");
    refusal(() => e.formatTensor(throwingProxy(new Float32Array(2)), [2]), "values must be a Float32Array");
    assert.equal(e.formatTensor(lyingArray(2), [2]), "tensor([0., 0.])");
    refusal(() => e.formatTensor(new Float32Array(4), throwingProxy([2, 2])), /^shape must be an array/);
    refusal(() => e.evalRequest({}), /JSON string/);
  });

  test(`${kind}: 600 rounds of hostile calls leave the engine's memory and answers as they were`, async () => {
    const e = await engine(kind);
    const calls = hostileCalls(e);
    for (const [, call] of calls) outcome(call);  // first use may grow memory once
    const heapBefore = e.HEAP8.length;
    for (let i = 0; i < 600; i++) for (const [, call] of calls) outcome(call);
    assert.ok(e.HEAP8.length <= heapBefore + (16 << 20), `memory grew from ${heapBefore} to ${e.HEAP8.length} bytes`);
    // a 1024 x 1024 tensor still fits and prints
    const big = new Float32Array(1024 * 1024).fill(0.5);
    assert.match(e.formatTensor(big, [1024, 1024]), /^tensor\(\[\[0\.5000, 0\.5000, 0\.5000,/);
    const r = e.mhaForward(new Float32Array(1024 * 64).fill(0.25), 1, 1024, 64, 64, 4, 1024, 0, 123);
    assert.deepEqual(Array.from(r.shape), [1, 1024, 64]);
  });
}
