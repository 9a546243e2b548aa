// Linked into each engine with --pre-js: runs inside the createAttentionLab factory. The wasm bytes
// are in the same file (bindings/pack.js puts them in attentionLabWasm, one char per byte, renumbered:
// attentionLabWasmBytes[char code] is the byte), so
// nothing is fetched — no data: or file: URL, which CSPs and file:// pages would refuse.
if (!Module["instantiateWasm"]) {
  Module["instantiateWasm"] = function (imports, receiveInstance) {
    var text = attentionLabWasm, bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = attentionLabWasmBytes[text.charCodeAt(i)];
    WebAssembly.instantiate(bytes, imports).then(
      function (output) { receiveInstance(output["instance"], output["module"]); },
      function (reason) {
        try { abort("this browser cannot run the engine: " + reason); } catch (e) { /* abort rejected the factory's promise */ }
      });
    return {};  // the exports arrive through receiveInstance
  };
}
