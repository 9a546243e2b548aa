// Both wasm engines against the native CLI and the golden fixtures: every chapter cell and every
// PyTorch reference case must come out exactly as `attention-lab book` / `eval` print them.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, cliBook, fixture, num, assertClose } = require("./engine_helpers.js");

const book = cliBook();
const chapter = fixture("chapter3.json").cells;
const cases = fixture("reference_cases.json").cases;

// Requests that reach the kernel table, whose rounding is each back end's own: MultiHeadAttention's
// fused kernel for long sequences without dropout (kFusedMinTokens in engine/src/rules/checks.h)
// and products of more than kExactProductWork multiply-adds (engine/src/core/tensor.h).
const kExactProductWork = 1 << 16;
const shapeOf = (x) => (Array.isArray(x) ? [x.length, ...shapeOf(x[0])] : []);
const kernelPath = (r) => {
  if (r.op === "mha") return !r.dropout && r.x[0].length >= 128;
  if (r.op !== "matmul") return false;
  const a = shapeOf(r.a), b = shapeOf(r.b);
  return a.reduce((p, d) => p * d, 1) * b[b.length - 1] > kExactProductWork;
};

for (const kind of KINDS) {
  test(`${kind}: bookText() is exactly \`attention-lab book\``, async () => {
    const e = await engine(kind);
    assert.equal(e.bookText(), book);
  });

  test(`${kind}: bookCells() holds every golden cell, printed as PyTorch prints it`, async () => {
    const cells = JSON.parse((await engine(kind)).bookCells());
    assert.deepEqual(cells.map((c) => c.id), chapter.map((c) => c.id));
    for (const [i, want] of chapter.entries()) {
      const got = cells[i];
      assert.equal(got.print, want.print, want.id);
      assert.equal(got.label, want.label, want.id);
      assert.deepEqual(got.shape, want.shape, want.id);
      assert.equal(got.values.length, want.values.length, want.id);
    }
  });

  test(`${kind}: evalRequest answers every reference case exactly as the CLI does`, async () => {
    const e = await engine(kind);
    for (const c of cases) {
      const request = JSON.stringify(c.request);
      const got = e.evalRequest(request);
      // train has no print: its losses, as float32 (PyTorch's are written in full, ours shortest)
      const print = (a) => a.print ?? a.weight?.print ?? a.loss?.print ?? JSON.stringify(a.losses.map(Math.fround));
      assert.equal(print(JSON.parse(got)), print(c.answer), c.name);
      if (!kernelPath(c.request)) {
        assert.equal(got, cliEval(request), c.name);
      } else if (kind === "scalar") {
        // the scalar engine's kernels are the native scalar back end, bit for bit
        assert.equal(got, cliEval(request, "scalar"), c.name);
      } else {
        // wasm_simd's kernels are checked within tolerance by tests/cpp/test_kernels.cpp
        const want = JSON.parse(cliEval(request)), answer = JSON.parse(got);
        assert.deepEqual(answer.shape, want.shape, c.name);
        assertClose(answer.values.map(num), want.values.map(num), c.name);
      }
    }
  });
}
