// The bug hunt in both wasm engines: every planted bug and its correct line (the bug_hunt op, and the
// bug-hunt section the page draws) as PyTorch computed them (tests/fixtures/bug_hunt_cases.json) and
// exactly as the native CLI answers; softmax over dim 0 runs std::exp under musl here, glibc natively.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, fixture, num } = require("./engine_helpers.js");

const cases = fixture("bug_hunt_cases.json").cases;

for (const kind of KINDS) {
  test(`${kind}: every planted bug and its correct line are PyTorch's, and the CLI's answer`, async () => {
    const e = await engine(kind);
    assert.ok(cases.length >= 24);
    for (const c of cases) {
      const text = JSON.stringify(c.request);
      const got = JSON.parse(e.evalRequest(text));
      assert.equal(e.evalRequest(text), cliEval(text), `${c.request.bug}: the same answer as the CLI`);
      for (const part of ["correct", "buggy"]) {
        assert.equal(got[part].print, c[part].print, `${c.request.bug} ${part}: PyTorch's print`);
        assert.deepEqual(got[part].values.map((v) => Math.fround(num(v))), c[part].values.map((v) => Math.fround(num(v))), `${c.request.bug} ${part}: PyTorch's float32 values`);
      }
    }
  });

  test(`${kind}: the bug-hunt section holds the op's pair and their difference`, async () => {
    const e = await engine(kind);
    for (const c of cases.filter((k) => k.request.x.length === 6 && k.request.d_out === 2)) {
      const answer = JSON.parse(e.sectionData(JSON.stringify({ section: "bug-hunt", inputs: c.request.x, d_out: 2, bug: c.request.bug }))).results;
      assert.equal(answer["bug/correct"].print, c.correct.print);
      assert.equal(answer["bug/buggy"].print, c.buggy.print);
      assert.equal(answer["bug/tensor"].print, c.tensor);
      answer["bug/diff"].values.forEach((v, i) => assert.equal(Math.fround(num(v)), Math.fround(Math.fround(num(c.buggy.values[i])) - Math.fround(num(c.correct.values[i])))));
    }
  });
}
