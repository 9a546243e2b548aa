// Packs one engine into a single script that loads as a classic <script>, in a Worker
// (importScripts) or through require(): the Emscripten glue, built without SINGLE_FILE, plus the
// wasm bytes as a Latin-1 string, which gzips like the binary (SINGLE_FILE's base64 costs ~35% more).
// Usage: node bindings/pack.js <glue.js> <module.wasm> <out.js> <kind>
"use strict";
const fs = require("fs");

const [gluePath, wasmPath, outPath, kind] = process.argv.slice(2);
const glue = fs.readFileSync(gluePath, "utf8");
const wasm = fs.readFileSync(wasmPath);

// One char per byte; only what a double-quoted JS string cannot hold literally is escaped
// (NUL too, so no tool along the way mistakes the file for binary).
const ESCAPES = { 0x00: "\\x00", 0x0a: "\\n", 0x0d: "\\r", 0x22: '\\"', 0x5c: "\\\\" };
let text = "";
const parts = [];
for (let i = 0; i < wasm.length; i++) {
  const b = wasm[i];
  text += ESCAPES[b] || String.fromCharCode(b);
  if (text.length > 65536) { parts.push(text); text = ""; }
}
parts.push(text);

// The BOM makes browsers decode the file as UTF-8 whatever the embedding page's charset is.
const out = "\uFEFF// attention-lab engine (" + kind + "): the createAttentionLab factory of bindings/API.md, its wasm inside.\n" +
  "var createAttentionLab = (function () {\n" +
  'var attentionLabWasm = "' + parts.join("") + '";\n' +
  glue + "\nreturn createAttentionLab;\n})();\n" +
  'if (typeof module === "object" && module.exports) module.exports = createAttentionLab;\n';
fs.writeFileSync(outPath, out, "utf8");
