// The engine's sentences a learner can meet on the page (a paste Check my code cannot read, weights with
// biases for SelfAttention_v1) carry a key and parameters (core/tensor.h's Error), which the page words in
// the reader's language: the catalogues' "engine.<key>" (web/src/i18n/index.js's engineSentence). For
// each such sentence, in both wasm engines: the thrown Error's key and parameters, the CLI's answer with
// the same, English's message giving the engine's sentence exactly, and German's and Chinese's their
// own sentence with the same texts in it. Every key the engine's sources give is one of these cases, and
// every "engine.*" message of the catalogues is one.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { ROOT, KINDS, BOOK_INPUTS, engine, cliEval, fixture, weightMatrix: m } = require("./engine_helpers.js");

const catalogue = (lang) => JSON.parse(fs.readFileSync(path.join(ROOT, "web/src/i18n", `${lang}.json`), "utf8"));
const CATALOGUES = Object.fromEntries(["en", "de", "zh-CN"].map((lang) => [lang, catalogue(lang)]));
const checkBase = (module) => fixture("check_cases.json").cases.find((c) => c.request.module === module && c.mistake === "book" && c.example === "book").request;
const biased = { "W_query.weight": m(2, 3, 1), "W_key.weight": m(2, 3, 2), "W_value.weight": m(2, 3, 3),
  "W_query.bias": m(1, 2, 4)[0], "W_key.bias": m(1, 2, 5)[0], "W_value.bias": m(1, 2, 6)[0] };

// [key, the request, its parameters] (check requests unless op says otherwise)
const paste = (output, module = "SelfAttention_v2") => ({ ...checkBase(module), output });
const CASES = [
  ["pasteTooDeep", paste("tensor([[[[[0.1]]]]])"), {}],
  ["pasteUnclosed", paste("tensor([[0.1, 0.2]"), {}],
  ["pasteSummarised", paste("tensor([[0.1, ..., 0.2]])"), {}],
  ["pasteRagged", paste("tensor([[0.1, 0.2], [0.3]])"), {}],
  ["pasteMixed", paste("tensor([[0.1, 0.2], 0.3])"), {}],
  ["pasteNotNumber", paste("tensor([[0.1, abc]])"), { text: "abc" }],
  ["pasteEmpty", paste("tensor([])"), {}],
  ["pasteNotPrint", paste("print(sa(inputs))"), {}],
  ["pasteStartsWith", paste("out = tensor([[0.1]])"), { text: "out = tensor(" }],
  ["checkShape", paste("tensor([[0.1, 0.2, 0.3]])"), { yours: "1 × 3", module: "SelfAttention_v2", book: "6 × 2", tokens: "6", batch: "no" }],
  ["checkShape", paste("tensor([[0.1, 0.2, 0.3]])", "CausalAttention"), { yours: "1 × 3", module: "CausalAttention", book: "6 × 2", tokens: "6", batch: "yes" }],
  ["v1HasNoBias", { op: "check", module: "SelfAttention_v1", x: BOOK_INPUTS, weights: biased, output: "tensor([[0.1]])" }, {}],
];

// the message's texts that the sentence shows as they are (a select's value picks words instead)
const shownParams = (message, params) => Object.entries(params).filter(([name]) => new RegExp(`\\{${name}\\}`).test(message)).map(([, v]) => v);

test("every keyed sentence of the engine's sources is a case here, and every engine.* message is one", () => {
  const sources = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(cpp|h)$/.test(entry.name)) sources.push(fs.readFileSync(p, "utf8"));
    }
  };
  walk(path.join(ROOT, "engine/src"));
  const text = sources.join("\n");
  const keys = new Set([...text.matchAll(/fail_keyed\("(\w+)"/g)].map((x) => x[1]));
  keys.add("v1HasNoBias");   // chapter/modules.h's Refusal
  assert.ok(keys.size >= 10, `only ${keys.size} keys found in engine/src`);
  const cased = new Set(CASES.map(([key]) => key));
  assert.deepEqual([...keys].filter((k) => !cased.has(k)), [], "keys of the engine with no case here");
  const messages = Object.keys(CATALOGUES.en).filter((k) => k.startsWith("engine.")).map((k) => k.slice(7));
  assert.deepEqual(messages.sort(), [...cased].sort(), "engine.* messages of en.json and the cases");
});

for (const kind of KINDS) {
  test(`${kind}: a learner's refused paste or weights carry the key and parameters each catalogue words`, async () => {
    const { format } = await import("../../web/src/i18n/message-format.js");
    const e = await engine(kind);
    for (const [key, request, params] of CASES) {
      const text = JSON.stringify(request);
      let thrown = null;
      try { e.evalRequest(text); } catch (err) { thrown = err; }
      assert.ok(thrown instanceof Error, `${key}: refused`);
      assert.equal(thrown.key, key, `${key}: ${thrown.message}`);
      assert.deepEqual({ ...thrown.params }, params, `${key}: its parameters`);
      const cli = JSON.parse(cliEval(text));
      assert.deepEqual(cli, { error: thrown.message, error_key: key, error_params: params }, `${key}: the CLI's answer`);
      assert.equal(format(CATALOGUES.en[`engine.${key}`], params, "en"), thrown.message, `${key}: English's message is the engine's sentence`);
      for (const lang of ["de", "zh-CN"]) {
        const message = CATALOGUES[lang][`engine.${key}`];
        const said = format(message, params, lang);
        assert.notEqual(said, thrown.message, `${lang} ${key}: its own words`);
        for (const shown of shownParams(message, params)) assert.ok(said.includes(shown), `${lang} ${key}: shows ${shown}`);
      }
    }
  });

  test(`${kind}: a section's and a cell's v1HasNoBias carry its key too`, async () => {
    const e = await engine(kind);
    const ask = (section) => JSON.stringify({ section, inputs: BOOK_INPUTS, weights: biased });
    let thrown = null;
    try { e.sectionData(ask("step-by-step")); } catch (err) { thrown = err; }
    assert.equal(thrown?.key, "v1HasNoBias", String(thrown));
    const cell = JSON.parse(e.sectionData(ask("classes"))).results["3.4.2/sa_v1"];
    assert.equal(cell.error_key, "v1HasNoBias");
    assert.equal(cell.error, thrown.message);
    assert.deepEqual(cell.error_params, {});
  });
}
