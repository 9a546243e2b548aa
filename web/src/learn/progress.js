// The learner's answers, kept in this browser's localStorage per page (and per section= view): never
// sent anywhere. Where storage is refused (a sandboxed frame, private mode quotas) the answers live
// for the visit only, unless the host page keeps them (el.progress, an LMS package); the learn hub
// tells the learner once.
import { t } from '../i18n/index.js';
export const STORE_VERSION = 1;

// The browser opens the origin's storage at its first use, on the main thread (1-2 ms in a fresh tab at
// full speed, on the way to the first number when the build reads it): the element calls this while the
// engine downloads, so that progressStore's read finds it open.
export function openStorage() {
  try { void localStorage.length; } catch { /* refused: progressStore says so */ }
}

// What a stored entry may hold (issue 43: storage is another script's to write, so a null answer broke a
// section on every load and a 4 MB one was drawn in full). One entry within ENTRY_CHARS of JSON; the
// fields the page writes with their types, and any other field a small primitive (so a later entry
// shape, e.g. attempts or firstCorrect, passes); ids short; at most MAX_ENTRIES of them.
// Each question gives two tries; only the first counts (prompt.js, the bug hunt, exercise 3.1).
export const MAX_TRIES = 2;

const ENTRY_CHARS = 2000, MAX_ENTRIES = 200, ID_CHARS = 100, TEXT_CHARS = 200;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const smallText = (v) => typeof v === 'string' && v.length <= TEXT_CHARS;
const count = (v) => Number.isInteger(v) && v >= 0 && v <= 1e6;
const primitive = (v) => typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || smallText(v) || v === null;
const flag = (v) => typeof v === 'boolean';
const tryCount = (v) => Number.isInteger(v) && v >= 0 && v <= MAX_TRIES;
const FIELDS = {
  // a number typed, a choice's key, or an exercise's choice per slot; null: shown without an answer
  // (only with skipped: true, checked in validEntry)
  answer: (v) => v === null || (typeof v === 'number' && Number.isFinite(v)) || smallText(v) ||
    (isObject(v) && Object.keys(v).length <= 16 && Object.values(v).every(smallText)),
  correct: flag, skipped: flag,
  attempts: tryCount, firstCorrect: flag,   // a question's two tries (prompt.js)
  last: flag, shown: flag,                  // exercise 3.1: its latest run's verdict, the solution seen
  rounds: count, found: count, index: count,   // the bug hunt's score and place
  order: (v) => Array.isArray(v) && v.length <= 32 && v.every(smallText),
  tries: (v) => Array.isArray(v) && v.length <= MAX_TRIES && v.every(count),   // the bug hunt's lines clicked this round
  scored: smallText,   // kept by the bug hunt before its lines (a stored round of that hunt still reads)
};

// An entry as the page may use it, or null when it does not fit (then it is dropped).
export function validEntry(entry) {
  if (!isObject(entry)) return null;
  let text;
  try { text = JSON.stringify(entry); } catch { return null; }
  if (text.length > ENTRY_CHARS) return null;
  for (const [field, value] of Object.entries(entry)) {
    const fits = Object.prototype.hasOwnProperty.call(FIELDS, field) ? FIELDS[field] : primitive;
    if (value !== undefined && !fits(value)) return null;
  }
  if (entry.answer === null && entry.skipped !== true) return null;   // a null answer only as a skip's
  return entry;
}

// The stored entries that fit (localStorage's, or what a host hands back to el.progress, perhaps
// through an LMS's suspend_data: neither is trusted), and how many did not (never throws).
function readEntries(saved) {
  const entries = {};
  let dropped = 0;
  if (!saved || saved.version !== STORE_VERSION || !isObject(saved.entries)) return { entries, dropped: saved ? 1 : 0 };
  for (const [id, entry] of Object.entries(saved.entries)) {
    if (id.length <= ID_CHARS && Object.keys(entries).length < MAX_ENTRIES && validEntry(entry)) entries[id] = entry;
    else dropped++;
  }
  return { entries, dropped };
}

// The sentence for entries dropped on reading, or '' when none were.
export const droppedSentence = (n) => (n ? t('learn.dropped', { n }) : '');

// The host's value for el.progress checked: {version: 1, entries: {...}}, as el.progress reads. Throws
// the sentence for anything else.
export function checkedProgress(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !value.entries || typeof value.entries !== 'object' || Array.isArray(value.entries)) {
    throw new TypeError('attention-lab: el.progress takes what el.progress (or the attention-lab-progress event\'s detail.progress) gave: an object {version: 1, entries: {...}}.');
  }
  if (value.version !== STORE_VERSION) throw new TypeError(`attention-lab: this progress is of version ${String(value.version).slice(0, 20)}; this attention-lab reads version ${STORE_VERSION} only.`);
  return readEntries(value).entries;
}

// key: one page's slot, e.g. "attention-lab/progress/v1:/index.html#all". held: entries the host gave
// (el.progress), which win over what localStorage holds.
export function progressStore(key, held = null) {
  let entries = {};
  let persistent = true, dropped = 0;
  try {
    const text = localStorage.getItem(key);
    let saved = null;
    try { saved = text ? JSON.parse(text) : null; } catch { saved = { version: -1 }; }   // not JSON: dropped
    ({ entries, dropped } = readEntries(saved));
    if (dropped) {   // keep only what fits, so the next visit starts clean
      if (Object.keys(entries).length) localStorage.setItem(key, JSON.stringify({ version: STORE_VERSION, entries }));
      else localStorage.removeItem(key);
    }
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
    // entry (a question): {answer: number | string | null (null: shown without an answer), correct: bool
    // (the latest try's verdict, as given then), skipped: bool, attempts: 0-2, firstCorrect: bool}: small,
    // primitive, one shape. The expected value is not kept: it follows the inputs.
    record(id, entry) { entries[id] = entry; save('learner'); },
    reset() { entries = {}; save('learner'); },
    // the host's progress (checkedProgress's entries) in place of the learner's
    replace(next) { entries = { ...next }; save('host'); },
    // a copy as plain data: what el.progress reads and the progress event carries
    snapshot: () => JSON.parse(JSON.stringify({ version: STORE_VERSION, entries })),
    ids: () => Object.keys(entries),
    persistent: () => persistent,
    dropped: () => dropped,   // entries left out on reading (droppedSentence says so)
    onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
  };
}

export const progressKey = (section) => `attention-lab/progress/v${STORE_VERSION}:${location.pathname}#${section}`;
