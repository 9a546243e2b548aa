// The learner's inputs (words, vectors, seed, d_out) and their validation. No arithmetic here: the
// engine computes, the sections arrange.
import { LIMITS } from './engine-limits.js';
import { t as tr } from './i18n/index.js';

export const BOOK_WORDS = ['Your', 'journey', 'starts', 'with', 'one', 'step'];
export const BOOK_D_OUT = 2;
export const TOKENS = 6, D_IN = 3;   // the book's
// The editor's limits: the engine's table (core/limits.h), bundled from the engine by web/build.mjs.
export { LIMITS };

// What the learner's seed means, said once on the page: empty keeps the book's seeds; a number
// replaces the seed of every torch.manual_seed(...) in the chapter's code, and the code shows it.
export const seedRule = () => tr('inputs.seedRule');

// The seed a torch.manual_seed(book) line uses with this state.
export const seedFor = (state, book) => (state.seed === null ? book : state.seed);

// The book's state; the inputs are the engine's own copy of the chapter's, with their shortest texts.
export function bookState(inputsResult) {
  return { words: BOOK_WORDS.slice(), inputs: inputsResult.values.slice(), tokens: TOKENS, d_in: D_IN, seed: null, d_out: BOOK_D_OUT, temperature: null };
}

// The learner's inputs as rows for the engine's request.
export function inputRows(state) {
  return Array.from({ length: state.tokens }, (_, i) => state.inputs.slice(i * state.d_in, (i + 1) * state.d_in));
}

// The author's example from the element's attributes (words, inputs, seed, d-out, temperature), on
// top of the book's state. Throws an Error whose message names the attribute and says what to write.
export function stateFromAttributes(get, book) {
  const state = { ...book, words: book.words.slice(), inputs: book.inputs.slice() };
  state.custom = ['words', 'inputs', 'seed', 'd-out', 'temperature', 'weights'].some((name) => get(name) !== null);
  const bad = (name, value, what) => new Error(tr('inputs.bad', { name, value: excerpt(String(value)), what }));
  const inputsText = get('inputs');
  if (inputsText !== null) {
    let rows;
    try { rows = JSON.parse(inputsText); } catch { rows = null; }
    const { tokensMin: tMin, tokensMax: tMax, dInMax } = LIMITS;
    const shapeRule = tr('inputs.shapeRule', { min: tMin, max: tMax, dmax: dInMax });
    if (!Array.isArray(rows) || !rows.every(Array.isArray)) throw bad('inputs', inputsText, tr('inputs.notRows', { rule: shapeRule }));
    if (rows.length < tMin || rows.length > tMax) throw bad('inputs', inputsText, tr('inputs.rowCount', { n: rows.length, rule: shapeRule }));
    const d_in = rows[0].length;
    if (d_in < 1 || d_in > dInMax) throw bad('inputs', inputsText, tr('inputs.rowLength', { n: d_in, rule: shapeRule }));
    rows.forEach((row, i) => {
      if (row.length !== d_in) throw bad('inputs', inputsText, tr('inputs.ragged', { n: row.length, row: i + 1, d: d_in }));
      row.forEach((v, j) => {
        if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > LIMITS.value) throw bad('inputs', inputsText, tr('inputs.badValue', { value: excerpt(JSON.stringify(v) ?? String(v)), row: i + 1, col: j + 1, max: LIMITS.value }));
      });
    });
    state.tokens = rows.length;
    state.d_in = d_in;
    state.inputs = rows.flat().map((v) => (v === 0 ? 0 : v));
    if (state.tokens !== TOKENS) state.words = Array.from({ length: state.tokens }, (_, i) => `token${i + 1}`);
  }
  const wordsText = get('words');
  if (wordsText !== null) {
    let words;
    if (wordsText.trim().startsWith('[')) {
      try { words = JSON.parse(wordsText); } catch { words = null; }
      if (!Array.isArray(words) || !words.every((w) => typeof w === 'string')) throw bad('words', wordsText, tr('inputs.wordsNotStrings'));
    } else {
      words = wordsText.trim().split(/\s+/).filter(Boolean);
    }
    if (words.length !== state.tokens) throw bad('words', wordsText, tr('inputs.wordCount', { n: words.length, rows: state.tokens }));
    words.forEach((w, i) => {
      const r = parseWord(w);
      if (r.error) throw bad('words', wordsText, tr('inputs.wordError', { i: i + 1, error: r.error }));
      words[i] = r.value;
    });
    state.words = words;
  }
  const seedText = get('seed');
  if (seedText !== null) {
    const r = parseSeed(seedText);
    if (r.error) throw bad('seed', seedText, tr('inputs.badSeed', { error: r.error }));
    state.seed = r.value;
  }
  const dOutText = get('d-out');
  if (dOutText !== null) {
    const r = parseDOut(dOutText);
    if (r.error) throw bad('d-out', dOutText, tr('inputs.badDOut', { error: r.error }));
    state.d_out = r.value;
  }
  const weightsText = get('weights');
  if (weightsText !== null) {
    state.weights = parseWeights(weightsText, bad);
    const dOut = weightsDOut(state.weights);
    if (dOutText !== null && dOut !== null && dOut !== state.d_out) throw bad('d-out', dOutText, tr('inputs.dOutWeights', { d: dOut }));
    if (dOut !== null) state.d_out = dOut;
  }
  const tText = get('temperature');
  if (tText !== null) {
    const t = tText.trim();
    const v = Number(t);
    const { temperatureMin: lo, temperatureMax: hi } = LIMITS;
    if (t === '' || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) || !(v >= lo && v <= hi)) {
      throw bad('temperature', tText, tr('inputs.badTemperature', { lo, hi }));
    }
    state.temperature = v;
  }
  return state;
}

// The weights attribute: a JSON object of a module's state_dict as lists ({k: v.tolist() for k, v in
// module.state_dict().items()}). Names, layouts and shapes are the engine's to check (its sentence names
// the layout: requests/request_weights.cpp); here only that it is such an object.
function parseWeights(text, bad) {
  let w;
  try { w = JSON.parse(text); } catch { w = null; }
  if (w === null || typeof w !== 'object' || Array.isArray(w) || !Object.values(w).every(Array.isArray)) {
    throw bad('weights', text, tr('inputs.badWeights'));
  }
  return w;
}
// d_out as the weights give it: the rows of W_query.weight, the columns of W_query (null: the engine says what is wrong).
export function weightsDOut(w) {
  const m = w['W_query.weight'] ?? w.W_query;
  if (!Array.isArray(m) || !m.length) return null;
  const n = 'W_query.weight' in w ? m.length : (Array.isArray(m[0]) ? m[0].length : null);
  return n >= 1 && n <= LIMITS.dOutMax ? n : null;
}

// At most about 80 characters of a bad value, for the sentence that quotes it (a value may be
// megabytes), not cutting a surrogate pair.
export function excerpt(text, max = 80) {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return `${text.slice(0, end)}…`;
}

// Characters a word may not hold: C0 and C1 controls (NUL, tab, line breaks, ...) and the line and
// paragraph separators. The printed programs would not run, and the field would not show them.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Each parser returns {value} or {error: a sentence saying what to enter}.
export function parseValue(text) {
  const t = text.trim();
  if (t === '') return { error: tr('inputs.enterNumber') };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return { error: tr('inputs.notNumber', { text: t.slice(0, 12) }) };
  const v = Number(t);
  if (!Number.isFinite(v) || Math.abs(v) > LIMITS.value) return { error: tr('inputs.numberRange', { max: LIMITS.value }) };
  return { value: v === 0 ? 0 : v };   // -0 is 0: the tensor would print "-0." otherwise
}
export function parseWord(text) {
  const t = text.trim();
  if (t === '') return { error: tr('inputs.enterWord') };
  if (t.length > LIMITS.word) return { error: tr('inputs.wordLength', { max: LIMITS.word }) };
  if (CONTROL.test(t)) return { error: tr('inputs.wordControl') };
  return { value: t };
}
function parseInteger(text, lo, hi, example) {
  const t = text.trim();
  if (t === '' || !/^[+-]?\d+$/.test(t)) return { error: tr('inputs.enterInteger', { lo, hi, example }) };
  const v = Number(t);
  if (v < lo || v > hi) return { error: t.length > 12 ? tr('inputs.integerRangeLong', { lo, hi }) : tr('inputs.integerRange', { text: t, lo, hi }) };
  return { value: v === 0 ? 0 : v };
}
export const parseSeed = (t) => (t.trim() === '' ? { value: null } : parseInteger(t, 0, LIMITS.seedMax, 123));
export const parseDOut = (t) => parseInteger(t, 1, LIMITS.dOutMax, BOOK_D_OUT);

// The state with tokens × d_in inputs: rows or columns added at the end hold 0 (new words are
// "token7", ...), removed ones are dropped from the end. The learner's editor calls it; the sizes
// stay within LIMITS (the caller's buttons check).
export function resizeState(state, tokens, d_in) {
  const inputs = [];
  for (let i = 0; i < tokens; i++) {
    for (let j = 0; j < d_in; j++) inputs.push(i < state.tokens && j < state.d_in ? state.inputs[i * state.d_in + j] : 0);
  }
  const words = Array.from({ length: tokens }, (_, i) => (i < state.tokens ? state.words[i] : `token${i + 1}`));
  return { ...state, tokens, d_in, inputs, words };
}
