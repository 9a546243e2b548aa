// The learner's answers, kept in this browser's localStorage per page (and per section= view): never
// sent anywhere. Where storage is refused (a sandboxed frame, private mode quotas) the answers live
// for the visit only, and the bar says so.
const STORE_VERSION = 1;

// The browser opens the origin's storage at its first use, on the main thread (1-2 ms in a fresh tab at
// full speed, on the way to the first number when the build reads it): the element calls this while the
// engine downloads, so that progressStore's read finds it open.
export function openStorage() {
  try { void localStorage.length; } catch { /* refused: progressStore says so */ }
}

// key: one page's slot, e.g. "attention-lab/progress/v1:/index.html#all".
export function progressStore(key) {
  let entries = {};
  let persistent = true;
  try {
    const text = localStorage.getItem(key);
    const saved = text ? JSON.parse(text) : null;
    if (saved && saved.version === STORE_VERSION && saved.entries && typeof saved.entries === 'object') entries = saved.entries;
  } catch { persistent = false; }
  const listeners = new Set();
  const save = () => {
    try {
      if (Object.keys(entries).length) localStorage.setItem(key, JSON.stringify({ version: STORE_VERSION, entries }));
      else localStorage.removeItem(key);
    } catch { persistent = false; }
    for (const fn of listeners) fn();
  };
  return {
    get: (id) => (Object.prototype.hasOwnProperty.call(entries, id) ? entries[id] : null),
    // entry (a question): {answer: number | string | null (null: shown without an answer), correct: bool
    // (the latest try's verdict, as given then), skipped: bool, attempts: 0-2, firstCorrect: bool}: small,
    // primitive, one shape. The expected value is not kept: it follows the inputs.
    record(id, entry) { entries[id] = entry; save(); },
    reset() { entries = {}; save(); },
    ids: () => Object.keys(entries),
    persistent: () => persistent,
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}

export const progressKey = (section) => `attention-lab/progress/v${STORE_VERSION}:${location.pathname}#${section}`;
