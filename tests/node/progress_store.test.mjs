// web/src/learn/progress.js reading what another script may have written into localStorage (issue 43):
// entries that do not fit the page's shapes and sizes are dropped, with a sentence, and only what
// fits is kept; an entry with extra small fields (a later shape) still fits.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';

const store = new Map();
globalThis.localStorage = {
  getItem: (k) => (store.has(k) ? store.get(k) : null),
  setItem: (k, v) => store.set(k, String(v)),
  removeItem: (k) => store.delete(k),
  get length() { return store.size; },
};
const { progressStore, validEntry, droppedSentence } = await import('../../web/src/learn/progress.js');

beforeEach(() => store.clear());
const KEY = 'attention-lab/progress/v1:/index.html#all';
const saved = (entries) => store.set(KEY, JSON.stringify({ version: 1, entries }));

test('a null or string answer, a 4 MB answer and a non-object entry are dropped, and the sentence says how many', () => {
  saved({
    'ex3.1': { answer: null, correct: false },           // replaced the classes section with an engine error
    omega22: { answer: 'x'.repeat(4 << 20), correct: false },
    topWeight: 'right',
    z2Lands: { answer: 0.5, correct: true },
    'ex3.2': { answer: { W_query: 'W_query.weight' }, correct: true },
    'bug-hunt': { rounds: 3, found: 2, order: ['mask_with_zero', 'divide_by_dk'], index: 1, scored: '1:mask_with_zero,divide_by_dk' },
  });
  const p = progressStore(KEY);
  assert.deepEqual(p.ids().sort(), ['bug-hunt', 'ex3.2', 'z2Lands']);
  assert.equal(p.dropped(), 3);
  assert.equal(droppedSentence(p.dropped()), '3 saved answers were not in the form this page keeps, so they were left out');
  assert.deepEqual(Object.keys(JSON.parse(store.get(KEY)).entries).sort(), ['bug-hunt', 'ex3.2', 'z2Lands'], 'storage keeps only what fits');
  assert.equal(progressStore(KEY).dropped(), 0, 'the next visit starts clean');
});

test('text that is not JSON, or another version, is dropped with the sentence; nothing stored says nothing', () => {
  store.set(KEY, '{not json');
  assert.equal(progressStore(KEY).dropped(), 1);
  assert.equal(store.has(KEY), false);
  store.set(KEY, JSON.stringify({ version: 1, entries: [] }));
  assert.deepEqual(progressStore(KEY).ids(), []);
  assert.equal(progressStore('attention-lab/progress/v1:/empty#all').dropped(), 0);
  assert.equal(droppedSentence(0), '');
  assert.equal(droppedSentence(1), 'One saved answer was not in the form this page keeps, so it was left out');
});

test('validEntry: the page\'s fields with their types, extra small primitives allowed, nothing large', () => {
  assert.ok(validEntry({ answer: 3, correct: true, skipped: false, attempts: 2, firstCorrect: false }));
  assert.ok(validEntry({ skipped: true, answer: undefined, correct: undefined }));
  assert.equal(validEntry(null), null);
  assert.equal(validEntry([1]), null);
  assert.equal(validEntry({ answer: Infinity }), null);
  assert.equal(validEntry({ correct: 'yes' }), null);
  assert.equal(validEntry({ answer: 1, extra: { nested: true } }), null);
  assert.equal(validEntry({ answer: 1, note: 'n'.repeat(5000) }), null);
  assert.equal(validEntry({ order: Array(100).fill('a') }), null);
});

// The entries the page itself writes must read back on the next visit: a skip before any try (answer
// null), a question after its two tries, exercise 3.1's run, and the bug hunt's round with its lines tried.
test('every entry shape the page writes survives a reload, none dropped', () => {
  const p = progressStore(KEY);
  const written = {
    'predict-omega22': { answer: null, correct: false, skipped: true, attempts: 0, firstCorrect: false },
    'predict-mask': { answer: 'below', correct: true, skipped: false, attempts: 2, firstCorrect: false },
    'ex3.1': { answer: { W_query: 'W_query.weight.T', W_key: 'W_key.weight', W_value: 'W_value.weight.T' }, correct: false, last: true, attempts: 2, skipped: false, shown: true },
    'bug-hunt': { rounds: 1, found: 0, order: ['mask_with_zero', 'divide_by_dk'], index: 0, tries: [3, 5], answer: 6, skipped: false, correct: false },
  };
  for (const [id, entry] of Object.entries(written)) p.record(id, entry);
  const again = progressStore(KEY);
  assert.equal(again.dropped(), 0);
  for (const [id, entry] of Object.entries(written)) assert.deepEqual(again.get(id), entry, id);
  assert.equal(validEntry({ answer: null, correct: false }), null, 'a null answer only as a skip');
  assert.equal(validEntry({ tries: [1, 2, 3] }), null, 'two tries at most');
});
