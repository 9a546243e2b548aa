// TrainRun of both wasm engines: a train request run a few steps per call (the page trains between
// frames) gives the native CLI's one-shot answer, bit for bit; bad calls throw sentences.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { KINDS, engine, cliEval, fixture } = require("./engine_helpers.js");

const request = { ...fixture("train_page_cases.json").cases[0].request, steps: 41, record_every: 3, prints: false };

for (const kind of KINDS) {
  test(`${kind}: TrainRun in chunks of 1, 5 and 16 steps is the CLI's one-shot train answer`, async () => {
    const e = await engine(kind);
    const whole = JSON.parse(cliEval(JSON.stringify(request)));
    for (const chunk of [1, 5, 16]) {
      const run = new e.TrainRun();
      try {
        assert.equal(run.start(JSON.stringify(request)), undefined);
        const got = { losses: [], weights: [], parameter_history: [] };
        let last = null;
        while (run.stepsLeft() > 0) {
          last = JSON.parse(run.advance(chunk));
          for (const key of Object.keys(got)) got[key].push(...last[key]);
        }
        for (const key of Object.keys(got)) assert.deepEqual(got[key], whole[key], `${key}, chunks of ${chunk}`);
        assert.deepEqual(last.parameters, whole.parameters);
      } finally {
        run.delete();
      }
    }
  });

  test(`${kind}: TrainRun refuses a bad request, a bad step count and an early advance with sentences`, async () => {
    const e = await engine(kind);
    const run = new e.TrainRun();
    try {
      assert.throws(() => run.advance(1), /start it with a train request/);
      assert.throws(() => run.start({ op: "train" }), /JSON string/);
      assert.throws(() => run.start(JSON.stringify({ op: "softmax", x: [1] })), /this one's op is "softmax"/);
      assert.throws(() => run.start(JSON.stringify({ ...request, optimizer: "rmsprop" })), /"optimizer" must be "sgd" or "adam"/);
      assert.equal(run.start(JSON.stringify(request)), undefined);
      for (const bad of [-1, 1.5, NaN, "three", undefined, 1e9]) assert.throws(() => run.advance(bad), /whole number of steps from 0 to 10000/);
      assert.equal(run.stepsLeft(), 41);   // refused calls leave the run where it was
    } finally {
      run.delete();
    }
  });
}

// Issue 27 item 1: the train task has one definition, the engine's (engine/src/replay/train_task.h).
// The reference generator's cases are the engine's task spelled out (the train_task op), PyTorch's
// run of its program printed what the engine's run says it prints, and no other file defines it again.
const pageCases = fixture("train_page_cases.json").cases;
test("the train page cases are the engine's task: its request, and its program's output in PyTorch", () => {
  for (const c of pageCases) {
    const spelled = JSON.parse(cliEval(JSON.stringify({ ...c.task, op: "train_task" })));
    assert.deepEqual(spelled.request, c.request, `${c.name}: the request the engine makes of the task`);
    assert.equal(JSON.parse(cliEval(JSON.stringify(c.task))).printed, c.output, `${c.name}: what the program prints`);
  }
  assert.deepEqual(Object.keys(pageCases[0].task).sort(),
    ["inputs", "lr", "op", "optimizer", "record_every", "record_parameters", "seed", "steps", "task"]);
});

test("no file outside the engine builds the train task again (orders, previous-token target, momentum)", () => {
  const fs = require("node:fs"), path = require("node:path");
  const ROOT = path.resolve(__dirname, "../..");
  // the shapes the task had where it was written out: the four orders, the target t - 1, SGD's momentum
  const signs = [/\bevens\b|\bodds\b/, /max\(\s*t\s*-\s*1\s*,\s*0\s*\)/, /momentum:\s*0\.9|momentum["']\]\s*=\s*0\.9/, /torch\.eye\(T\)/];
  for (const file of ["web/src/sections/train.js", "web/src/engine.js", "scripts/make_reference_cases.py",
    "scripts/bench_train.mjs", "tests/browser/train.test.js", "tests/browser/replay.test.js"]) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    for (const sign of signs) assert.doesNotMatch(text, sign, `${file} defines part of the train task again; ask the engine (train_task)`);
  }
});

for (const kind of KINDS) {
  test(`${kind}: the train task's run answers as the CLI's, its weights as the page draws them, and prints its program's output`, async () => {
    const e = await engine(kind);
    const task = { ...pageCases[1].task, record_every: 50, prints: false };   // SGD with the task's momentum
    assert.equal(e.evalRequest(JSON.stringify(task)), cliEval(JSON.stringify(task)));
    const run = new e.TrainRun();
    try {
      run.start(JSON.stringify(task));
      const parts = [];
      while (run.stepsLeft() > 0) parts.push(JSON.parse(run.advance(100)));
      assert.equal(run.printed(), pageCases[1].output);
      const plain = JSON.parse(cliEval(JSON.stringify({ ...pageCases[1].request, record_every: 50, prints: false })));
      // W_query.weight.T: W_query.weight (d_out × d_in) transposed
      const drawn = parts[0].parameter_history[1]["W_query.weight.T"], weight = plain.parameter_history[1]["W_query.weight"];
      const [rows, cols] = weight.shape;
      assert.deepEqual(drawn.shape, [cols, rows]);
      assert.deepEqual(drawn.values, Array.from({ length: rows * cols }, (_, i) => weight.values[(i % rows) * cols + Math.floor(i / rows)]));
      assert.deepEqual(parts.flatMap((p) => p.losses), plain.losses);
    } finally {
      run.delete();
    }
    const other = new e.TrainRun();
    try {
      other.start(JSON.stringify(request));
      assert.throws(() => other.printed(), /train task only/);
    } finally {
      other.delete();
    }
  });
}
