// Script URLs under Trusted Types: a host page whose CSP says require-trusted-types-for 'script'
// refuses a plain string as a <script src> or a Worker URL. The element's one policy passes only the
// files that ship beside attention-lab.js (katex-lib.js, engine/loader.js, engine-worker.js), or in
// the folder the author named with engine-base / AttentionLab.configure({base}).
import { BASE_URL, KNOWN_BASES } from './base-url.js';

const ownBlobs = new Set();   // blob: URLs this script made (the cross-origin worker's importScripts stub)
let policy;   // undefined: not yet made; null: no Trusted Types here (or the host allows no new policy)
function getPolicy() {
  if (policy === undefined) {
    policy = null;
    if (self.trustedTypes && self.trustedTypes.createPolicy) {
      try {
        policy = self.trustedTypes.createPolicy('attention-lab', {
          createScriptURL: (url) => {
            if (![...KNOWN_BASES].some((b) => url.startsWith(b)) && !ownBlobs.has(url)) throw new TypeError(`attention-lab loads scripts only from beside itself (${BASE_URL}), not ${url}`);
            return url;
          },
        });
      } catch {
        policy = null;   // the host's trusted-types directive does not list "attention-lab"
      }
    }
  }
  return policy;
}

// The URL as the browser accepts it for script.src or new Worker(...).
export function scriptURL(url) {
  const p = getPolicy();
  return p ? p.createScriptURL(url) : url;
}

// A blob: URL of script text this element wrote itself, accepted by the policy.
export function ownBlobURL(text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  ownBlobs.add(url);
  return url;
}
