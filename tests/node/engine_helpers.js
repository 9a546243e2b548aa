// Shared by tests/node/engine*.test.js: loads both wasm engines through the real loader
// (build/web/engine, from ./scripts/build wasm) and runs the native CLI (build/native) to compare.
"use strict";
const fs = require("fs");
const path = require("path");
const { execFileSync, spawnSync } = require("child_process");

const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "build/native/attention-lab");
const LOADER = path.join(ROOT, "build/web/engine/loader.js");
const KINDS = ["simd", "scalar"];

for (const [file, how] of [[CLI, "./scripts/build native"], [LOADER, "./scripts/build wasm"]]) {
  if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run ${how} first`);
}

const engines = {};
// The engine of one kind, started once per test file.
async function engine(kind) {
  if (!engines[kind]) engines[kind] = require(LOADER).load({ kind });
  const loaded = await engines[kind];
  if (loaded.kind !== kind) throw new Error(`asked for the ${kind} engine, got ${loaded.kind}`);
  return loaded.engine;
}

// `attention-lab eval` on one request: its stdout without the newline (exit status 2 = an error answer).
// kernels forces a native back end (ATTN_KERNELS), e.g. "scalar" to compare with the scalar wasm engine.
// command "section": `attention-lab section`, the page's sectionData request.
function cliEval(requestText, kernels, command = "eval") {
  const env = kernels ? { ...process.env, ATTN_KERNELS: kernels } : process.env;
  const r = spawnSync(CLI, [command], { input: requestText, encoding: "utf8", maxBuffer: 1 << 30, env });
  if (r.status !== 0 && r.status !== 2) throw new Error(`attention-lab ${command} exited ${r.status}: ${r.stderr}`);
  return r.stdout.replace(/\n$/, "");
}

function cliBook() {
  return execFileSync(CLI, ["book"], { encoding: "utf8", maxBuffer: 1 << 28 });
}

function fixture(name) {
  return JSON.parse(fs.readFileSync(path.join(ROOT, "tests/fixtures", name), "utf8"));
}

// A fixture or answer value: a number, or "inf" / "-inf" / "nan".
function num(v) {
  return v === "inf" ? Infinity : v === "-inf" ? -Infinity : v === "nan" ? NaN : v;
}

// Equal to float rounding (for the fused attention path, whose summation order is each back end's own).
function assertClose(got, want, what) {
  if (got.length !== want.length) throw new Error(`${what}: ${got.length} values, want ${want.length}`);
  got.forEach((v, i) => {
    if (!(Math.abs(v - want[i]) <= 1e-6 + 1e-5 * Math.abs(want[i]))) throw new Error(`${what}[${i}]: ${v}, want ${want[i]}`);
  });
}

// The error convention (bindings/API.md): a refused call throws an Error whose message is the engine's
// sentence. Returns that message; fails unless `call` throws such an Error matching `pattern`.
function refusal(call, pattern, what = String(pattern)) {
  let thrown = null;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  if (!(thrown instanceof Error)) throw new Error(`${what}: expected an Error, got ${thrown === null ? "a result" : String(thrown)}`);
  if (pattern instanceof RegExp ? !pattern.test(thrown.message) : thrown.message !== pattern) {
    throw new Error(`${what}: the message ${JSON.stringify(thrown.message)} does not match ${pattern}`);
  }
  return thrown.message;
}

// The book's six inputs ("Your journey starts with one step"), rows of 3.
const BOOK_INPUTS = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.1], [0.05, 0.8, 0.55]];

// A rows × cols weight matrix of 4-decimal values, different for each k and none of the seeded ones.
function weightMatrix(rows, cols, k) {
  return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => Math.round(Math.sin(k + i * cols + j) * 1e4) / 1e4));
}

module.exports = { ROOT, KINDS, BOOK_INPUTS, engine, cliEval, cliBook, fixture, num, assertClose, refusal, weightMatrix };
