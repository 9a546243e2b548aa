// The learner's inputs (words, vectors, seed, d_out), their validation, and one pass that asks the
// engine for every tensor the sections show. No arithmetic here: the engine computes, we arrange.

const BOOK_WORDS = ['Your', 'journey', 'starts', 'with', 'one', 'step'];
const BOOK_SEED = 123;        // torch.manual_seed(123) in 3.4.1, Listing 3.1, 3.5.3, 3.6
const BOOK_SEED_V2 = 789;     // torch.manual_seed(789) in Listing 3.2
const BOOK_D_OUT = 2;
const LIMITS = { value: 1000, word: 20, seedMax: 2147483647, dOutMax: 16 };

// The book's state; inputs come from the engine's own copy of the chapter's inputs.
function bookState(cells) {
  return { words: BOOK_WORDS.slice(), inputs: Float32Array.from(cells.get('inputs').values), seed: BOOK_SEED, d_out: BOOK_D_OUT };
}

// Each parser returns {value} or {error: a sentence saying what to enter}.
function parseValue(text) {
  const t = text.trim();
  if (t === '') return { error: 'Enter a number, e.g. 0.43.' };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return { error: `“${t.slice(0, 12)}” is not a number; enter one like 0.43.` };
  const v = Number(t);
  if (!Number.isFinite(v) || Math.abs(v) > LIMITS.value) return { error: `Enter a number from -${LIMITS.value} to ${LIMITS.value}.` };
  return { value: v === 0 ? 0 : v };   // -0 is 0: the tensor would print "-0." otherwise
}
function parseWord(text) {
  const t = text.trim();
  if (t === '') return { error: 'Enter a word for this token.' };
  if (t.length > LIMITS.word) return { error: `Use at most ${LIMITS.word} characters.` };
  return { value: t };
}
function parseInteger(text, lo, hi, example) {
  const t = text.trim();
  if (t === '') return { error: `Enter a whole number from ${lo} to ${hi}, e.g. ${example}.` };
  if (!/^[+-]?\d+$/.test(t)) return { error: `Enter a whole number from ${lo} to ${hi}, e.g. ${example}.` };
  const v = Number(t);
  if (v < lo || v > hi) return { error: `${t.length > 12 ? 'That number' : t} is out of range; enter a whole number from ${lo} to ${hi}.` };
  return { value: v === 0 ? 0 : v };
}
const parseSeed = (t) => parseInteger(t, 0, LIMITS.seedMax, BOOK_SEED);
const parseDOut = (t) => parseInteger(t, 1, LIMITS.dOutMax, BOOK_D_OUT);

const TOKENS = 6, D_IN = 3;

// Everything the sections show for one state, each part computed when a section first reads it, so
// a recompute can be spread over several tasks, one section each. `run` keeps the v1 tensors for
// the slider's setTemperature.
function computeAll(engine, state, run, simpleRun) {
  const R = { state: { ...state, words: state.words.slice(), inputs: state.inputs.slice() }, tokens: TOKENS, d_in: D_IN };
  const x = R.state.inputs;
  // A run's tensors, computed on first read: (simplified for "batched", v1 for the rest).
  const runTensors = (name, variant, theRun) => {
    let value = null;
    Object.defineProperty(R, name, { enumerable: true, get: () => (value ??= (() => {
      const err = theRun.compute(variant, x, TOKENS, D_IN, R.state.seed, R.state.d_out);
      if (err) throw new Error(err);
      const out = {};
      for (const n of theRun.names()) out[n] = captureRun(engine, theRun, n);
      return out;
    })()) });
  };
  runTensors('simple', 'simplified', simpleRun);
  runTensors('v1', 'self_attention_v1', run);

  // The whole chapter replayed by the engine on these inputs: §3.5's mask and dropout steps and
  // exercise 3.1 chain several modules, as only the chapter's own pass does.
  let chapter = null;
  Object.defineProperty(R, 'chapter', { enumerable: true, get: () => (chapter ??= (() => {
    const text = engine.bookCellsFor(x, TOKENS, D_IN, R.state.d_out);
    if (text.startsWith('error: ')) return { error: text.slice(7) };
    return new Map(JSON.parse(text).map((cell) => [cell.id, cell]));
  })()) });

  const rows = nested(x, [TOKENS, D_IN]);
  const batch = [rows, rows];   // torch.stack((inputs, inputs), dim=0)
  // Each live module: the engine's answer, or its sentence when these sizes do not fit the module.
  // Printed as print(module(x)) shows it, grad_fn included (the engine names it as PyTorch does).
  const live = (name, request) => {
    let value = null;
    Object.defineProperty(R, name, { enumerable: true, get: () => (value ??= (() => {
      try {
        const answer = evalJson(engine, request);
        return { ...answerTensor(answer), print: answer.print_with_grad_fn ?? answer.print };
      } catch (e) {
        return { error: e.message };
      }
    })()) });
  };
  live('sa_v1', { op: 'self_attention_v1', seed: state.seed, x: rows, d_out: state.d_out });
  live('sa_v2', { op: 'self_attention_v2', seed: BOOK_SEED_V2, x: rows, d_out: state.d_out });
  const causal = { seed: state.seed, x: batch, context_length: TOKENS, dropout: 0.0 };
  live('ca', { op: 'causal_attention', ...causal, d_out: state.d_out });
  live('mha_wrapper', { op: 'mha_wrapper', ...causal, d_out: state.d_out, num_heads: 2 });
  live('mha_wrapper_ex32', { op: 'mha_wrapper', ...causal, d_out: 1, num_heads: 2 });
  live('mha', { op: 'mha', ...causal, d_out: state.d_out, num_heads: 2 });
  return R;
}
