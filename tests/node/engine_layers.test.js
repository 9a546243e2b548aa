// engine/src's layers (docs/architecture.md, "The engine's layers"): every file sits in one layer's
// folder, includes only files of its own layer or lower ones, and no two files (a .h and its .cpp
// counted as one) include each other round a cycle. Read from the #include lines, no build needed.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "../..");
const SRC = path.join(ROOT, "engine/src");
// Lowest first: a layer may include its own files and those of the layers before it.
const LAYERS = ["core", "rules", "chapter", "replay", "requests", "page"];

// Every file under engine/src, as {"core/tensor.cpp": text, ...}.
function engineFiles() {
  const files = {};
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(SRC, full).split(path.sep).join("/")] = fs.readFileSync(full, "utf8");
    }
  };
  walk(SRC);
  return files;
}

// The quoted includes of one file, resolved to engine/src-relative paths: "layer/x.h" from the
// include directory (engine/src), anything else relative to the including file.
function includes(file, text) {
  const out = [];
  for (const [, name] of text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)) {
    const fromRoot = LAYERS.includes(name.split("/")[0]);
    out.push(fromRoot ? name : path.posix.normalize(path.posix.join(path.posix.dirname(file), name)));
  }
  return out;
}

const layerOf = (file) => file.split("/")[0];
const unitOf = (file) => file.replace(/\.(h|cpp|inl)$/, "");

// Sentences for every rule the files break: a file outside the layers, an include of a file that
// is not there, an include that runs up a layer, and a cycle of units.
function layerViolations(files) {
  const problems = [];
  const edges = new Map();  // unit -> units it includes
  for (const [file, text] of Object.entries(files)) {
    const layer = LAYERS.indexOf(layerOf(file));
    if (layer < 0 || !file.includes("/")) {
      problems.push(`${file} is in no layer's folder (${LAYERS.join(", ")})`);
      continue;
    }
    for (const target of includes(file, text)) {
      if (!(target in files)) {
        problems.push(`${file} includes ${target}, which is not in engine/src`);
        continue;
      }
      if (LAYERS.indexOf(layerOf(target)) > layer) {
        problems.push(`${file} includes ${target}: up from ${layerOf(file)} to ${layerOf(target)}`);
      }
      const from = unitOf(file), to = unitOf(target);
      if (from !== to) {
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from).add(to);
      }
    }
  }
  // A depth-first walk; a unit met again while still on the path closes a cycle.
  const state = new Map();  // unit -> "open" | "done"
  const trail = [];
  const visit = (unit) => {
    state.set(unit, "open");
    trail.push(unit);
    for (const next of edges.get(unit) || []) {
      if (state.get(next) === "open") {
        problems.push(`includes run round a cycle: ${[...trail.slice(trail.indexOf(next)), next].join(" → ")}`);
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    trail.pop();
    state.set(unit, "done");
  };
  for (const unit of [...edges.keys()].sort()) if (!state.has(unit)) visit(unit);
  return problems;
}

test("engine/src: every include runs down a layer or stays in its own, with no cycle", () => {
  const files = engineFiles();
  assert.ok(Object.keys(files).length > 30, "the engine's files were found");
  assert.deepEqual(layerViolations(files), []);
});

test("the layer check catches an upward include, a cycle and a file outside the layers", () => {
  assert.deepEqual(layerViolations({
    "core/a.h": "",
    "core/a.cpp": '#include "core/a.h"\n#include "page/b.h"\n',
    "page/b.h": "",
  }), ["core/a.cpp includes page/b.h: up from core to page"]);
  assert.deepEqual(layerViolations({
    "requests/x.cpp": '#include "requests/y.h"\n',
    "requests/y.cpp": '#include "requests/x.h"\n',
    "requests/x.h": "",
    "requests/y.h": "",
  }), ["includes run round a cycle: requests/x → requests/y → requests/x"]);
  assert.deepEqual(layerViolations({ "loose.cpp": "" }), [`loose.cpp is in no layer's folder (${LAYERS.join(", ")})`]);
  assert.deepEqual(layerViolations({ "core/k/z.cpp": '#include "../gone.inl"\n' }),
    ["core/k/z.cpp includes core/gone.inl, which is not in engine/src"]);
});

test("docs/architecture.md names every layer, in order", () => {
  const doc = fs.readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const at = LAYERS.map((layer) => doc.indexOf(`engine/src/${layer}/`));
  for (const [i, layer] of LAYERS.entries()) assert.ok(at[i] >= 0, `docs/architecture.md names engine/src/${layer}/`);
  assert.deepEqual([...at].sort((a, b) => a - b), at, "the layers appear lowest first");
});
