// The learner's answers, kept in this browser's localStorage per page (and per section= view): never
// sent anywhere. Where storage is refused (a sandboxed frame, private mode quotas) the answers live
// for the visit only, unless the host page keeps them (el.progress, an LMS package); the learn hub
// tells the learner once.
export const STORE_VERSION = 1;

// The browser opens the origin's storage at its first use, on the main thread (1-2 ms in a fresh tab at
// full speed, on the way to the first number when the build reads it): the element calls this while the
// engine downloads, so that progressStore's read finds it open.
export function openStorage() {
  try { void localStorage.length; } catch { /* refused: progressStore says so */ }
}

// Only plain objects survive as entries: what a host hands back is its own copy of el.progress,
// possibly through an LMS's suspend_data, so anything else in it is dropped, not trusted.
const plainEntries = (entries) => {
  const out = {};
  for (const [id, e] of Object.entries(entries || {})) if (e && typeof e === 'object' && !Array.isArray(e)) out[id] = e;
  return out;
};

// The host's value for el.progress checked: {version: 1, entries: {...}}, as el.progress reads. Throws
// the sentence for anything else.
export function checkedProgress(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !value.entries || typeof value.entries !== 'object' || Array.isArray(value.entries)) {
    throw new TypeError('attention-lab: el.progress takes what el.progress (or the attention-lab-progress event\'s detail.progress) gave: an object {version: 1, entries: {...}}.');
  }
  if (value.version !== STORE_VERSION) throw new TypeError(`attention-lab: this progress is of version ${String(value.version).slice(0, 20)}; this attention-lab reads version ${STORE_VERSION} only.`);
  return plainEntries(value.entries);
}

// key: one page's slot, e.g. "attention-lab/progress/v1:/index.html#all". held: entries the host gave
// (el.progress), which win over what localStorage holds.
export function progressStore(key, held = null) {
  let entries = {};
  let persistent = true;
  try {
    const text = localStorage.getItem(key);
    const saved = text ? JSON.parse(text) : null;
    if (saved && saved.version === STORE_VERSION && saved.entries && typeof saved.entries === 'object') entries = plainEntries(saved.entries);
  } catch { persistent = false; }
  if (held) entries = { ...held };
  const listeners = new Set();
  // source: 'learner' (an answer, a reset, a bug hunt round) or 'host' (el.progress was set)
  const save = (source) => {
    try {
      if (Object.keys(entries).length) localStorage.setItem(key, JSON.stringify({ version: STORE_VERSION, entries }));
      else localStorage.removeItem(key);
    } catch { persistent = false; }
    for (const fn of listeners) fn(source);
  };
  return {
    get: (id) => (Object.prototype.hasOwnProperty.call(entries, id) ? entries[id] : null),
    // entry: {answer, correct, skipped?} (the expected value is not kept: it follows the inputs)
    record(id, entry) { entries[id] = entry; save('learner'); },
    reset() { entries = {}; save('learner'); },
    // the host's progress (checkedProgress's entries) in place of the learner's
    replace(next) { entries = { ...next }; save('host'); },
    // a copy as plain data: what el.progress reads and the progress event carries
    snapshot: () => JSON.parse(JSON.stringify({ version: STORE_VERSION, entries })),
    ids: () => Object.keys(entries),
    persistent: () => persistent,
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}

export const progressKey = (section) => `attention-lab/progress/v${STORE_VERSION}:${location.pathname}#${section}`;
