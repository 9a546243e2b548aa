// "Check my code" in both wasm engines (eval's check op, replay/check.h) against PyTorch: the book's four
// modules run as written and with each planted mistake written into their code, on the book's inputs
// and an author example (tests/fixtures/check_cases.json, from scripts/make_check_cases.py). Each
// print PyTorch wrote, and each tensor at full precision, is diagnosed as the code that made it: the
// book's, the mistake by its name, or the first number that differs; the same answer as the native CLI.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, fixture, num, refusal } = require("./engine_helpers.js");
const SPEC = require("../../web/src/learn/bug-programs.json");

const cases = fixture("check_cases.json").cases;
const rowsOf = (c) => {
  const cols = c.shape[c.shape.length - 1];
  return Array.from({ length: c.full.length / cols }, (_, i) => c.full.slice(i * cols, (i + 1) * cols));
};

test("the fixture writes every planted mistake of the bug hunt into a module, and one mistake it does not plant", () => {
  for (const bug of Object.keys(SPEC.bugs)) {
    assert.ok(cases.some((c) => c.bug === bug && !c.same_as_book), `${bug} is written into a module and shows in its output`);
  }
  assert.ok(cases.some((c) => c.bug === "missing_contiguous" && c.raised), "missing .contiguous(): PyTorch's error");
  assert.ok(cases.some((c) => c.bug === "weight_without_T" && c.raised) && cases.some((c) => c.bug === "weight_without_T" && c.print));
  assert.ok(cases.some((c) => c.bug === null && c.mistake !== "book" && c.first_difference));
  for (const example of ["book", "author"]) assert.ok(cases.some((c) => c.example === example));
});

for (const kind of KINDS) {
  test(`${kind}: each print and tensor PyTorch made is diagnosed as the code that made it, as the CLI answers`, async () => {
    const e = await engine(kind);
    for (const c of cases) {
      const what = `${c.example} ${c.request.module} ${c.mistake}`;
      const requests = [c.request];
      if (c.full) requests.push({ ...c.request, output: rowsOf(c) });
      for (const request of requests) {
        const text = JSON.stringify(request);
        const answer = e.evalRequest(text);
        assert.equal(answer, cliEval(text), `${what}: the same answer as the CLI`);
        const got = JSON.parse(answer);
        if (c.mistake === "book" || c.same_as_book) {
          assert.equal(got.verdict, "book", what);
          assert.deepEqual(got.matches, []);
        } else if (c.bug === null) {
          assert.equal(got.verdict, "differs", what);
          assert.deepEqual(got.first_difference, c.first_difference, `${what}: where PyTorch's prints first differ`);
        } else {
          assert.equal(got.verdict, "mistake", what);
          assert.ok(got.matches.includes(c.bug), `${what}: ${got.matches}`);
          assert.equal(got.raised, c.raised, `${what}: PyTorch's error line, or none`);
          if (c.first_difference) assert.deepEqual(got.first_difference, c.first_difference, what);
        }
        if (c.mistake === "book") {
          // the book's module with the reader's weights: PyTorch's float32 numbers
          assert.deepEqual(got.book.values.map((v) => Math.fround(num(v))), c.full.map((v) => Math.fround(num(v))), what);
        }
      }
    }
  });

  test(`${kind}: bad input gets one sentence, never a crash`, async () => {
    const e = await engine(kind);
    const base = cases.find((c) => c.request.module === "SelfAttention_v2" && c.mistake === "book").request;
    const ask = (patch) => () => e.evalRequest(JSON.stringify({ ...base, ...patch }));
    refusal(ask({ output: "tensor([[0.1, 0.2, 0.3]])" }), /^your output is 1 × 3, but SelfAttention_v2 with these weights gives 6 × 2/);
    refusal(ask({ output: "print(sa(inputs))" }), /neither a tensor as PyTorch prints it/);
    refusal(ask({ output: "tensor([[0.1, 0.2], [0.3]])" }), /rows have different lengths/);
    refusal(ask({ module: "Transformer" }), /"module" must be one of/);
    refusal(ask({ x: [[1, 2]] }), /weights|W_query/);
    assert.equal(JSON.parse(ask({ output: "KeyError: 'W_query'" })()).verdict, "unknown_error");
  });
}
