// The one way the element loads a script: by file name from an approved folder (base-url.js), through
// its one Trusted Types policy ("attention-lab"), with the SHA-384 the build recorded for that file
// (the integrity map, web/build.mjs). The policy passes exactly <approved folder><file it ships>, so
// neither markup nor a second element can point it at another origin's or folder's scripts.
import { APPROVED_BASES } from './base-url.js';
import { INTEGRITY } from './integrity-map.js';

// Every script attention-lab loads, relative to its folder.
export const SCRIPT_FILES = ['katex-lib.js', 'engine/loader.js', 'engine/attention-lab-simd.js', 'engine/attention-lab-scalar.js', 'engine-worker.js'];
export const POLICY_NAME = 'attention-lab';

// blob: URLs made by verifiedScriptURL from bytes checked against the integrity map
const verifiedBlobs = new Set();

function checkedURL(url) {
  const text = String(url);
  if (verifiedBlobs.has(text)) return text;
  for (const base of APPROVED_BASES) {
    if (text.startsWith(base) && SCRIPT_FILES.includes(text.slice(base.length))) return text;
  }
  throw new TypeError(`attention-lab loads only its own files from its approved folders, not ${text.slice(0, 200)}`);
}

let policy;   // undefined: not yet made; null: no Trusted Types here (or the host allows no such policy)
function getPolicy() {
  if (policy === undefined) {
    policy = null;
    if (self.trustedTypes && self.trustedTypes.createPolicy) {
      try {
        policy = self.trustedTypes.createPolicy(POLICY_NAME, { createScriptURL: checkedURL });
      } catch {
        policy = null;   // the host's trusted-types directive does not list "attention-lab"
      }
    }
  }
  return policy;
}

// The URL as the browser accepts it for script.src or new Worker(...); throws for any other URL, with
// or without Trusted Types.
export function scriptURL(url) {
  const checked = checkedURL(url);
  const p = getPolicy();
  return p ? p.createScriptURL(checked) : checked;
}

// A blob: URL of the given script texts, joined in order (each checked by the caller against the
// integrity map), and the same URL as the policy passes it: {url, trusted}. The policy passes no other
// blob: URL, so the worker runs exactly the bytes that were checked.
export function verifiedScriptURL(texts) {
  const url = URL.createObjectURL(new Blob([texts.join('\n;\n')], { type: 'text/javascript' }));
  verifiedBlobs.add(url);
  return { url, trusted: scriptURL(url) };
}

// The build's SHA-384 of a file (a path of SCRIPT_FILES), or '' where it cannot be checked: a file://
// page (its scripts load without CORS, and SRI refuses every such response) or a build without the file.
export function integrityOf(file, base) {
  if (new URL(base).protocol === 'file:') return '';
  return INTEGRITY[file] || '';
}

// The sentence for a script that did not load: with an integrity hash, a file that is there but differs
// from the build's is told apart from a missing one, and both from a server that answers without CORS
// (the integrity check needs it), which a sandboxed frame's opaque origin ("null") meets even on its own
// server (a fetch or two, only after the failure).
export async function loadFailure(url, integrity) {
  if (integrity) {
    try {
      const response = await fetch(url, { cache: 'no-store', mode: 'cors', credentials: 'omit' });
      if (response.ok) return new Error(`${url} is not the file this build of attention-lab.js recorded (its SHA-384 differs from the integrity map), so it was not run. Copy the files of one release together.`);
    } catch {
      // refused with CORS: answered at all without it?
      try {
        await fetch(url, { cache: 'no-store', mode: 'no-cors', credentials: 'omit' });
        if (self.origin === 'null') {
          return new Error(`could not load ${url}: this page runs in a sandboxed frame without allow-same-origin, so its origin is opaque ("null") and its own server's files count as another origin's, and that server answered without Access-Control-Allow-Origin (CORS), which the integrity check needs. Serve the files with "Access-Control-Allow-Origin: *", or add allow-same-origin to the frame's sandbox.`);
        }
        return new Error(`could not load ${url}: its server answered without Access-Control-Allow-Origin for this page's origin, ${self.origin} (CORS), which the integrity check needs. Serve attention-lab's files with that header (docs/embedding.md).`);
      } catch { /* not reachable either: the sentence below */ }
    }
  }
  return new Error(`could not load ${url}: check that the file is there and served.`);
}

// <script src=base+file> in the document's head, with its integrity hash; resolves once it ran,
// rejects with the sentence of loadFailure.
export function loadScript(base, file) {
  const url = new URL(file, base).href;
  const integrity = integrityOf(file, base);
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = scriptURL(url);
    if (integrity) { s.integrity = integrity; s.crossOrigin = 'anonymous'; }
    s.onload = () => resolve();
    s.onerror = () => { loadFailure(url, integrity).then(reject); };
    document.head.append(s);
  });
}
