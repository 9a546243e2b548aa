// Packs one engine into a single script that loads as a classic <script>, in a Worker
// (importScripts) or through require(): the Emscripten glue, built without SINGLE_FILE, plus the
// wasm bytes as a string of one char per byte, byte values renumbered (below), which gzips nearly
// like the binary (SINGLE_FILE's base64 costs ~35% more).
// Usage: node bindings/pack.js <glue.js> <module.wasm> <out.js> <kind>
"use strict";
const fs = require("fs");

const [gluePath, wasmPath, outPath, kind] = process.argv.slice(2);
const glue = fs.readFileSync(gluePath, "utf8");
const wasm = fs.readFileSync(wasmPath);

// One char per byte; only what a double-quoted JS string cannot hold literally is escaped
// (NUL too, so no tool along the way mistakes the file for binary).
const ESCAPES = { 0x00: "\\x00", 0x0a: "\\n", 0x0d: "\\r", 0x22: '\\"', 0x5c: "\\\\" };

// The file is UTF-8, where a char from 0x80 up takes two bytes: the byte values are renumbered by
// how often they occur, so the commonest 123 are the one-byte chars that need no escape and only
// the rarest take two bytes or an escape (10 KB less after gzip than the bytes as they are).
// attentionLabWasmBytes[char code] is the byte again (bindings/pre.js).
const counts = new Array(256).fill(0);
for (const b of wasm) counts[b]++;
const byFrequency = [...counts.keys()].sort((a, b) => counts[b] - counts[a] || a - b);
const codes = [];
for (let c = 0; c < 128; c++) if (!(c in ESCAPES)) codes.push(c);
for (let c = 128; c < 256; c++) codes.push(c);
for (const c of Object.keys(ESCAPES)) codes.push(Number(c));
const codeOf = new Array(256), byteOf = new Array(256);
byFrequency.forEach((b, i) => { codeOf[b] = codes[i]; byteOf[codes[i]] = b; });

let text = "";
const parts = [];
for (let i = 0; i < wasm.length; i++) {
  const c = codeOf[wasm[i]];
  text += ESCAPES[c] || String.fromCharCode(c);
  if (text.length > 65536) { parts.push(text); text = ""; }
}
parts.push(text);

// The BOM makes browsers decode the file as UTF-8 whatever the embedding page's charset is.
const out = "\uFEFF// attention-lab engine (" + kind + "): the createAttentionLab factory of bindings/API.md, its wasm inside.\n" +
  "var createAttentionLab = (function () {\n" +
  'var attentionLabWasm = "' + parts.join("") + '";\n' +
  "var attentionLabWasmBytes = [" + byteOf.join(",") + "];\n" +
  glue + "\nreturn createAttentionLab;\n})();\n" +
  'if (typeof module === "object" && module.exports) module.exports = createAttentionLab;\n';
fs.writeFileSync(outPath, out, "utf8");
