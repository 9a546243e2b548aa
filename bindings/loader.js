// AttentionLabEngine.load(): picks the engine this JS engine can run, loads it from next to this
// file and starts it (bindings/API.md). Plain ES5-style script: works as a classic <script>, in a
// Worker through importScripts, and through require() in Node. It fetch()es only in a Worker, to
// check an engine file against its integrity hash, then importScripts runs those very bytes.
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
  // A value that does not decode (?engine=%) is kept as written, so load() rejects it as unknown.
  function kindFromUrl() {
    if (isNode || typeof location === "undefined" || !location.search) return "";
    var m = /[?&]engine=([^&#]*)/.exec(location.search);
    if (!m) return "";
    try { return decodeURIComponent(m[1]); } catch (e) { return m[1]; }
  }

  // Under a Trusted Types CSP (require-trusted-types-for 'script') a script URL must come from a
  // policy. An element passes its own (options.scriptURL: the one policy name, "attention-lab"); alone,
  // the loader makes that policy itself, made once, when first needed. It passes an engine file only on
  // this script's own origin, in the folder being loaded from: never another origin's script.
  var ENGINE_FILE = /^attention-lab-(simd|scalar)\.js$/;
  var scriptUrlPolicy = null;
  function originOf(url) {
    var m = /^([a-z][a-z0-9+.-]*:\/\/[^\/?#]*)/i.exec(url);
    return m ? m[1].toLowerCase() : "";
  }
  var verifiedBlobs = {};  // blob: URLs of engine bytes checked against their hash (loadFactory, in a Worker)
  function checkedEngineUrl(u, folder) {
    if (verifiedBlobs[u] === true) return u;
    var file = u.slice(folder.length);
    if (u.indexOf(folder) !== 0 || !ENGINE_FILE.test(file) || !baseUrl || originOf(u) !== originOf(baseUrl)) {
      throw new TypeError("attention-lab's loader loads only its engine files from its own origin (" + originOf(baseUrl || "") + "), not " + u);
    }
    return u;
  }
  function trustedScriptUrl(url, folder, given) {
    if (typeof given === "function") return given(url);
    checkedEngineUrl(url, folder);
    var tt = root.trustedTypes;
    if (!tt || typeof tt.createPolicy !== "function") return url;
    if (!scriptUrlPolicy) {
      scriptUrlPolicy = tt.createPolicy("attention-lab", {
        createScriptURL: function (u) { return checkedEngineUrl(u, folder); }
      });
    }
    return scriptUrlPolicy.createScriptURL(url);
  }

  // --- arguments are copied and checked here, before any call into C++ ---
  // Embind would otherwise read a typed array's length, elements and a shape's entries from inside
  // the engine: a getter or Proxy trap that throws there unwinds C++ frames without their
  // destructors in the scalar engine (which emulates exceptions in JS), leaking memory. So every
  // argument that is not a primitive becomes a fresh value no page code can observe: a genuine
  // Float32Array is copied through the intrinsic methods, an array or a plain object is copied
  // entry by entry, and every other object becomes NaN, which each call refuses with its own error,
  // as it refuses any wrong type.
  var TypedArrayProto = Object.getPrototypeOf(Float32Array.prototype);
  var typedArrayTag = Object.getOwnPropertyDescriptor(TypedArrayProto, Symbol.toStringTag).get;
  var typedArrayLength = Object.getOwnPropertyDescriptor(TypedArrayProto, "length").get;
  var typedArraySet = TypedArrayProto.set;
  var isArray = Array.isArray;
  var MAX_LIST = 1 << 20;  // entries of a plain array or object argument

  function copyFloat32Array(x) {
    // the internal slots only: a subclass's or an own property's getters are never called
    var copy = new Float32Array(typedArrayLength.call(x));
    typedArraySet.call(copy, x);
    return copy;
  }

  // depth: how deep arrays and plain objects may nest (data, never cycles)
  function copyArgument(x, depth) {
    var type = typeof x;
    if (x === null || (type !== "object" && type !== "function")) return type === "symbol" || type === "bigint" ? NaN : x;
    depth = depth || 0;
    try {
      if (typedArrayTag.call(x) === "Float32Array") return copyFloat32Array(x);
      if (depth >= 4 || type === "function") return NaN;
      var out, i;
      if (isArray(x)) {
        var n = x.length;
        if (typeof n !== "number" || !(n >= 0 && n <= MAX_LIST)) return NaN;
        out = [];
        for (i = 0; i < n; i++) {
          var v = x[i];
          out.push(typeof v === "number" ? v : copyArgument(v, depth + 1));
        }
        return out;
      }
      var proto = Object.getPrototypeOf(x);
      if (proto === Object.prototype || proto === null) {  // a plain object of options: its own data only
        out = {};
        var keys = Object.keys(x);
        for (i = 0; i < keys.length && i < MAX_LIST; i++) out[keys[i]] = copyArgument(x[keys[i]], depth + 1);
        return out;
      }
    } catch (e) {
      // a throwing getter, a Proxy trap or a detached buffer: not an argument the engine can take
    }
    return NaN;
  }

  // count: the parameters Embind expects (it throws on any other number); missing ones are NaN
  function copyArguments(args, count) {
    var out = [];
    if (typeof count !== "number") count = args.length;
    for (var i = 0; i < count; i++) out.push(i < args.length ? copyArgument(args[i]) : NaN);
    return out;
  }

  // Embind throws a TypeError, before the engine runs, when a number parameter gets a string or
  // undefined: called again with those as NaN, the call answers with its own error instead.
  function callSafely(fn, self, args) {
    try {
      return fn.apply(self, args);
    } catch (e) {
      if (!(e instanceof TypeError)) throw e;
      var retry = [];
      for (var i = 0; i < args.length; i++) {
        var t = typeof args[i];
        retry.push(t === "number" || t === "boolean" || t === "object" && args[i] !== null ? args[i] : NaN);
      }
      return fn.apply(self, retry);
    }
  }

  // The one error convention (bindings/API.md): a call the engine refuses answers an Error holding
  // its sentence, made in C++ after every C++ frame has returned; thrown here, so every call either
  // returns its result or throws that Error.
  function guarded(fn) {
    var wrapper = function () {
      var result = callSafely(fn, this, copyArguments(arguments, fn.argCount));
      if (result instanceof Error) throw result;
      return result;
    };
    wrapper.argCount = fn.argCount;
    return wrapper;
  }

  // Every Embind function of the engine (they carry argCount), every method of its Embind classes
  // (on the prototype, also with argCount) and the classes' constructors, whatever their names.
  function guardEngine(engine) {
    Object.keys(engine).forEach(function (name) {
      var value = engine[name];
      if (typeof value !== "function") return;
      var proto = value.prototype;
      if (proto && typeof proto.isAliasOf === "function" && typeof proto["delete"] === "function") {
        Object.getOwnPropertyNames(proto).forEach(function (method) {
          var m = Object.getOwnPropertyDescriptor(proto, method).value;
          if (method !== "constructor" && typeof m === "function" && typeof m.argCount === "number") proto[method] = guarded(m);
        });
        engine[name] = new Proxy(value, {
          construct: function (target, args, newTarget) { return Reflect.construct(target, copyArguments(args), newTarget); }
        });
      } else if (typeof value.argCount === "number") {
        engine[name] = guarded(value);
      }
    });
    return engine;
  }

  var factories = {};  // kind -> Promise of the createAttentionLab factory, each file loaded once

  // An Error for an engine file that did not load; engineUrl lets the caller find out why.
  function notLoaded(url) {
    var e = new Error("could not load the engine from " + url);
    e.engineUrl = url;
    return e;
  }

  // options.integrity[file]: the file's SHA-384 ("sha384-..."): a <script integrity>, or in a Worker
  // (importScripts takes none) a fetch with it, whose bytes are imported from a blob: URL.
  function loadFactory(kind, base, options) {
    var file = "attention-lab-" + kind + ".js";
    // an ES module build brought the engines in with its imports (engine/*.mjs, web/build.mjs)
    if (options.factories && typeof options.factories[kind] === "function") {
      return Promise.resolve(options.factories[kind]()).then(function (m) { return m && m["default"] || m; });
    }
    if (isNode) return Promise.resolve(require(require("path").join(__dirname, file)));
    var url = base + file;
    var integrity = options.integrity && options.integrity[file];
    if (isWorker && integrity) {
      // checked and run the same bytes: fetched once with the hash, then imported from a blob: of them
      // (a fetch, then importScripts(url), would check one download and run another)
      return fetch(url, { integrity: integrity }).then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.blob();
      }).then(null, function () { throw notLoaded(url); }).then(function (blob) {
        var checkedUrl = URL.createObjectURL(blob);
        verifiedBlobs[checkedUrl] = true;
        try {
          importScripts(trustedScriptUrl(checkedUrl, base, options.scriptURL));
        } finally {
          URL.revokeObjectURL(checkedUrl);
        }
        return self.createAttentionLab;
      });
    }
    if (isWorker) {
      return Promise.resolve().then(function () {
        importScripts(trustedScriptUrl(url, base, options.scriptURL));  // synchronous; throws (rejecting) when the file is missing
        return self.createAttentionLab;
      });
    }
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = trustedScriptUrl(url, base, options.scriptURL);
      if (integrity) { script.integrity = integrity; script.crossOrigin = "anonymous"; }
      script.async = true;
      // Both engine files define createAttentionLab: take it the moment this one has run.
      script.onload = function () { resolve(root.createAttentionLab); };
      script.onerror = function () { reject(notLoaded(url)); };
      (document.head || document.documentElement).appendChild(script);
    });
  }

  // The engine's start failed: Emscripten's abort wraps the reason as "Aborted(...). Build with ...";
  // the reason alone is the sentence (bindings/pre.js words it, e.g. for a CSP that refuses wasm).
  function startFailure(e) {
    var text = String(e && e.message || e);
    var m = /^Aborted\(([\s\S]*)\)(\. Build with[\s\S]*)?$/.exec(text);
    return m ? new Error(m[1]) : e;
  }

  // options.kind: "simd" | "scalar" forces one (else ?engine=, else the best this engine runs);
  // options.base: the folder URL of the engine files, when they are not next to this script (on its
  // origin, unless options.scriptURL, the caller's Trusted Types check, vouches for it);
  // options.scriptURL(url): that check; options.integrity: {file name: "sha384-..."};
  // options.factories: {simd, scalar}, each a function that imports its engine (the ES module build:
  // the host's bundler brought the files in; no script is added). Never throws: every problem rejects the promise.
  function load(options) {
    try {
      return start(options || {});
    } catch (e) {
      return Promise.reject(e);
    }
  }

  function start(options) {
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
      factories[kind] = loadFactory(kind, base, options);
      factories[kind].catch(function () { delete factories[kind]; });  // a later call may retry
    }
    return factories[kind].then(function (factory) {
      if (typeof factory !== "function") throw new Error("the engine file " + base + "attention-lab-" + kind + ".js did not define createAttentionLab");
      return factory({}).then(null, function (e) { throw startFailure(e); });
    }).then(function (engine) {
      return { engine: guardEngine(engine), kind: kind };
    });
  }

  var api = { load: load, best: best, kinds: KINDS.slice() };
  if (isNode) module.exports = api;
  root.AttentionLabEngine = api;
})(typeof self !== "undefined" ? self : typeof globalThis !== "undefined" ? globalThis : this);
