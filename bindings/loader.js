// AttentionLabEngine.load(): picks the engine this JS engine can run, loads it from next to this
// file and starts it (bindings/API.md). Plain ES5-style script: works as a classic <script>, in a
// Worker through importScripts, and through require() in Node. It never fetch()es anything.
(function (root) {
  "use strict";

  var KINDS = ["simd", "scalar"];

  // Tiny modules that only validate where the feature exists: a v128 function (SIMD128), and a
  // try/catch with a tag (wasm exception handling, which the SIMD build uses).
  var SIMD_PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
  var EH_PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 13, 3, 1, 0, 0, 10, 9, 1, 7, 0, 6, 64, 7, 0, 11, 11];

  var isNode = typeof process === "object" && process.versions && process.versions.node &&
    typeof module === "object" && module.exports && typeof require === "function";
  var isWorker = !isNode && typeof importScripts === "function";

  // The folder this script was loaded from, found now: document.currentScript is gone once the
  // script has run, and a Worker has none, so there the script's URL is read from a stack trace
  // (every engine prints it), falling back to the Worker's own URL.
  var baseUrl = (function () {
    if (isNode) return null;
    var url = "";
    if (typeof document !== "undefined" && document.currentScript && document.currentScript.src) {
      url = document.currentScript.src;
    } else {
      try { throw new Error(); } catch (e) {
        var m = String(e.stack || "").match(/(?:https?|file|blob):\/\/[^\s)]*?(?=:\d+:\d+)/);
        if (m) url = m[0];
      }
      if (!url && typeof self !== "undefined" && self.location) url = String(self.location.href);
    }
    return url.slice(0, url.lastIndexOf("/") + 1);
  })();

  function validates(bytes) {
    try { return WebAssembly.validate(new Uint8Array(bytes)); } catch (e) { return false; }
  }

  // What this JS engine can run: "simd", "scalar", or "" when it has no WebAssembly at all.
  function best() {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.validate !== "function") return "";
    return validates(SIMD_PROBE) && validates(EH_PROBE) ? "simd" : "scalar";
  }

  // ?engine=simd|scalar in the page's (or Worker's) URL forces an engine, for testing the fallback.
  function kindFromUrl() {
    if (isNode || typeof location === "undefined" || !location.search) return "";
    var m = /[?&]engine=([^&#]*)/.exec(location.search);
    return m ? decodeURIComponent(m[1]) : "";
  }

  var factories = {};  // kind -> Promise of the createAttentionLab factory, each file loaded once

  function loadFactory(kind, base) {
    var file = "attention-lab-" + kind + ".js";
    if (isNode) return Promise.resolve(require(require("path").join(__dirname, file)));
    var url = base + file;
    if (isWorker) {
      return new Promise(function (resolve) {
        importScripts(url);  // synchronous; throws (rejecting this promise) when the file is missing
        resolve(self.createAttentionLab);
      });
    }
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = url;
      script.async = true;
      // Both engine files define createAttentionLab: take it the moment this one has run.
      script.onload = function () { resolve(root.createAttentionLab); };
      script.onerror = function () { reject(new Error("could not load the engine from " + url)); };
      (document.head || document.documentElement).appendChild(script);
    });
  }

  // options.kind: "simd" | "scalar" forces one (else ?engine=, else the best this engine runs);
  // options.base: the folder URL of the engine files, when they are not next to this script.
  function load(options) {
    options = options || {};
    var can = best();
    var kind = options.kind || kindFromUrl() || can;
    if (!can) {
      return Promise.reject(new Error("this browser cannot run WebAssembly, which attention-lab needs"));
    }
    if (KINDS.indexOf(kind) < 0) {
      return Promise.reject(new Error('unknown engine "' + kind + '": use "simd" or "scalar"'));
    }
    if (kind === "simd" && can !== "simd") {
      return Promise.reject(new Error("this browser lacks WebAssembly SIMD or exception handling, " +
        "which the simd engine needs; use the scalar engine"));
    }
    var base = options.base || baseUrl;
    if (!factories[kind]) {
      factories[kind] = loadFactory(kind, base);
      factories[kind].catch(function () { delete factories[kind]; });  // a later call may retry
    }
    return factories[kind].then(function (factory) {
      if (typeof factory !== "function") throw new Error("the engine file " + base + "attention-lab-" + kind + ".js did not define createAttentionLab");
      return factory({});
    }).then(function (engine) {
      return { engine: engine, kind: kind };
    });
  }

  var api = { load: load, best: best, kinds: KINDS.slice() };
  if (isNode) module.exports = api;
  root.AttentionLabEngine = api;
})(typeof self !== "undefined" ? self : typeof globalThis !== "undefined" ? globalThis : this);
