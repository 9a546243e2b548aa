// `attention-lab eval` with endless and oversized stdin: refused with the size sentence and exit 2
// after reading at most the limit plus one byte, within a small address space (so it cannot have
// read everything first). No timing is asserted; the test's timeout only keeps a hang from hanging.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");

const CLI = path.resolve(__dirname, "../../build/native/attention-lab");

// The CLI under a 256 MiB address-space limit, stdin from the given file.
function evalFrom(file) {
  const fd = fs.openSync(file, "r");
  try {
    return spawnSync("bash", ["-c", 'ulimit -v 262144 && exec "$0" eval', CLI], { stdio: [fd, "pipe", "pipe"], encoding: "utf8", timeout: 60000 });
  } finally {
    fs.closeSync(fd);
  }
}

test("endless stdin (/dev/zero) is refused as too large, exit 2", { timeout: 90000 }, () => {
  const r = evalFrom("/dev/zero");
  assert.equal(r.status, 2, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { error: "the request is larger than 4 MiB; send a smaller one" });
});

test("40 MiB of stdin is refused as too large, exit 2", { timeout: 90000 }, () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "attn-stdin-")), "big.json");
  try {
    // a valid request padded with 40 MiB of spaces: only its size is wrong
    fs.writeFileSync(file, '{"op":"softmax","x":[1,2]}' + " ".repeat(40 << 20));
    const r = evalFrom(file);
    assert.equal(r.status, 2, r.stderr);
    assert.match(JSON.parse(r.stdout).error, /larger than 4 MiB/);
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});

test("a request of exactly the limit is still read and answered", { timeout: 90000 }, () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "attn-stdin-")), "limit.json");
  try {
    const request = '{"op":"softmax","x":[1,2]}';
    fs.writeFileSync(file, request + " ".repeat((4 << 20) - request.length));
    const r = evalFrom(file);
    assert.equal(r.status, 0, r.stdout);
    assert.equal(JSON.parse(r.stdout).print, "tensor([0.2689, 0.7311])");
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});
