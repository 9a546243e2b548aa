// The bug hunt in both wasm engines: every planted bug of both programs and its correct line (the bug_hunt
// op, and the bug-hunt section the page draws) as PyTorch ran the lines the page shows
// (tests/fixtures/bug_hunt_cases.json, from web/src/learn/bug-programs.json) and exactly as the native CLI
// answers, PyTorch's error line included; softmax over dim 0 runs std::exp under musl here, glibc natively.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, fixture, num } = require("./engine_helpers.js");
const SPEC = require("../../web/src/learn/bug-programs.json");

const cases = fixture("bug_hunt_cases.json").cases;
const f32 = (values) => values.map((v) => Math.fround(num(v)));

test("the fixture holds every bug of bug-programs.json, on the book's inputs and an author example, some raising PyTorch's errors", () => {
  const bugs = Object.keys(SPEC.bugs);
  assert.ok(bugs.length >= 8);
  for (const bug of bugs) assert.ok(cases.filter((c) => c.request.bug === bug).length >= 4, `${bug} has its cases`);
  assert.ok(cases.some((c) => c.raised && c.raised.startsWith("RuntimeError: mat1 and mat2 shapes cannot be multiplied")));
  assert.ok(cases.some((c) => c.raised && c.raised.startsWith("RuntimeError: view size is not compatible")));
  assert.ok(cases.some((c) => c.buggy && c.buggy.print.includes("nan")), "the inverted mask leaves a row with nothing to see");
});

for (const kind of KINDS) {
  test(`${kind}: every planted bug and its correct line are PyTorch's, and the CLI's answer`, async () => {
    const e = await engine(kind);
    for (const c of cases) {
      const text = JSON.stringify(c.request);
      const got = JSON.parse(e.evalRequest(text));
      assert.equal(e.evalRequest(text), cliEval(text), `${c.request.bug}: the same answer as the CLI`);
      assert.equal(got.program, c.program);
      assert.equal(got.raised, c.raised, `${c.request.bug}: PyTorch's error, or none`);
      for (const part of ["correct", "buggy"]) {
        if (!c[part]) { assert.equal(got[part], undefined); continue; }
        assert.equal(got[part].print, c[part].print, `${c.request.bug} ${part}: PyTorch's print`);
        assert.deepEqual(f32(got[part].values), f32(c[part].values), `${c.request.bug} ${part}: PyTorch's float32 values`);
      }
    }
  });

  test(`${kind}: the bug-hunt section holds the op's pair and their difference, with the program's book seed`, async () => {
    const e = await engine(kind);
    for (const c of cases.filter((k) => k.request.seed === SPEC.programs[k.program].seed)) {
      const answer = JSON.parse(e.sectionData(JSON.stringify({ section: "bug-hunt", inputs: c.request.x, d_out: c.request.d_out, bug: c.request.bug }))).results;
      assert.equal(answer["bug/correct"].print, c.correct.print);
      assert.equal(answer["bug/tensor"].print, c.tensor);
      assert.equal(answer["bug/program"].print, c.program);
      if (c.raised) {
        assert.equal(answer["bug/raised"].print, c.raised);
        assert.equal(answer["bug/buggy"], undefined);
        continue;
      }
      assert.equal(answer["bug/buggy"].print, c.buggy.print);
      answer["bug/diff"].values.forEach((v, i) => assert.ok(Math.fround(num(v)) === Math.fround(Math.fround(num(c.buggy.values[i])) - Math.fround(num(c.correct.values[i])))
        || (Number.isNaN(num(v)) && Number.isNaN(num(c.buggy.values[i]))), `${c.request.bug} diff ${i}`));
    }
  });
}
