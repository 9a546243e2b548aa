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
