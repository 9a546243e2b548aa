// Linked into each engine with --pre-js: runs inside the createAttentionLab factory. The wasm bytes
// are in the same file (bindings/pack.js puts them in attentionLabWasm, one char per byte, renumbered:
// attentionLabWasmBytes[char code] is the byte), so
// nothing is fetched — no data: or file: URL, which CSPs and file:// pages would refuse. A host page
// whose CSP lacks 'wasm-unsafe-eval' refuses the compilation itself: that gets its own sentence.
if (!Module["instantiateWasm"]) {
  Module["instantiateWasm"] = function (imports, receiveInstance) {
    var text = attentionLabWasm, bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = attentionLabWasmBytes[text.charCodeAt(i)];
    var refused = function (reason) {
      // Chromium: "Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an
      // allowed source of script…"; Firefox: "…blocked by CSP"; WebKit: "…Content Security Policy…"
      var text = String(reason);
      var byCsp = /Content.Security.Policy|\bCSP\b|unsafe-eval/i.test(text);
      try {
        abort(byCsp ? "the page's Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src."
          : "this browser cannot run the engine: " + text);
      } catch (e) { /* abort rejected the factory's promise */ }
    };
    try {
      WebAssembly.instantiate(bytes, imports).then(
        function (output) { receiveInstance(output["instance"], output["module"]); }, refused);
    } catch (e) {
      refused(e);   // an engine that refuses at once instead of rejecting
    }
    return {};  // the exports arrive through receiveInstance
  };
}
