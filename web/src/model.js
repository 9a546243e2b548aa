// The learner's inputs (words, vectors, seed, d_out) and their validation. No arithmetic here: the
// engine computes, the sections arrange.

export const BOOK_WORDS = ['Your', 'journey', 'starts', 'with', 'one', 'step'];
export const BOOK_D_OUT = 2;
export const TOKENS = 6, D_IN = 3;
export const LIMITS = { value: 1000, word: 20, seedMax: 2147483647, dOutMax: 16 };

// What the learner's seed means, said once on the page: empty keeps the book's seeds; a number
// replaces the seed of every torch.manual_seed(...) in the chapter's code, and the code shows it.
export const SEED_RULE = 'Leave the seed empty for the book’s seeds (123, and 789 for Listing 3.2). A number replaces the seed of every torch.manual_seed(…) on this page, and the code shows it written in.';

// The seed a torch.manual_seed(book) line uses with this state.
export const seedFor = (state, book) => (state.seed === null ? book : state.seed);

// The book's state; the inputs are the engine's own copy of the chapter's, with their shortest texts.
export function bookState(inputsResult) {
  return { words: BOOK_WORDS.slice(), inputs: inputsResult.values.slice(), seed: null, d_out: BOOK_D_OUT };
}

// The learner's inputs as rows for the engine's request.
export function inputRows(state) {
  return Array.from({ length: TOKENS }, (_, i) => state.inputs.slice(i * D_IN, (i + 1) * D_IN));
}

// Each parser returns {value} or {error: a sentence saying what to enter}.
export function parseValue(text) {
  const t = text.trim();
  if (t === '') return { error: 'Enter a number, e.g. 0.43.' };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return { error: `“${t.slice(0, 12)}” is not a number; enter one like 0.43.` };
  const v = Number(t);
  if (!Number.isFinite(v) || Math.abs(v) > LIMITS.value) return { error: `Enter a number from -${LIMITS.value} to ${LIMITS.value}.` };
  return { value: v === 0 ? 0 : v };   // -0 is 0: the tensor would print "-0." otherwise
}
export function parseWord(text) {
  const t = text.trim();
  if (t === '') return { error: 'Enter a word for this token.' };
  if (t.length > LIMITS.word) return { error: `Use at most ${LIMITS.word} characters.` };
  return { value: t };
}
function parseInteger(text, lo, hi, example) {
  const t = text.trim();
  if (t === '' || !/^[+-]?\d+$/.test(t)) return { error: `Enter a whole number from ${lo} to ${hi}, e.g. ${example}.` };
  const v = Number(t);
  if (v < lo || v > hi) return { error: `${t.length > 12 ? 'That number' : t} is out of range; enter a whole number from ${lo} to ${hi}.` };
  return { value: v === 0 ? 0 : v };
}
export const parseSeed = (t) => (t.trim() === '' ? { value: null } : parseInteger(t, 0, LIMITS.seedMax, 123));
export const parseDOut = (t) => parseInteger(t, 1, LIMITS.dOutMax, BOOK_D_OUT);
