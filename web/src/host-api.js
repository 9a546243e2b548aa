// What a host page's script sees of <attention-lab> (docs/embedding.md, "For host pages"): properties that mirror
// the attributes, el.state / el.results as plain arrays, the attention-lab-change event's detail, and
// the rule that keeps the learner's edits when the host changes one attribute.
import { inputRows } from './inputs.js';

// property -> attribute. Strings stay strings; numbers and arrays are written as their text/JSON.
const STRING_PROPERTIES = { section: 'section', theme: 'theme', engine: 'engine' };
const NUMBER_PROPERTIES = { seed: 'seed', dOut: 'd-out', temperature: 'temperature' };

// The attribute's text read back as the property's type: null when absent or not readable as that type
// (the element shows the sentence for a bad value; the property does not repeat it).
function readNumber(text) {
  if (text === null || text.trim() === '') return null;
  const v = Number(text);
  return Number.isFinite(v) ? v : null;
}
function readJSON(text) {
  if (text === null) return null;
  try { return JSON.parse(text); } catch { return null; }
}
function readWords(text) {
  if (text === null) return null;
  if (text.trim().startsWith('[')) { const w = readJSON(text); return Array.isArray(w) ? w : null; }
  return text.trim().split(/\s+/).filter(Boolean);
}
// null or undefined removes the attribute (the default comes back).
function write(el, attribute, text) {
  if (text === null || text === undefined) el.removeAttribute(attribute);
  else el.setAttribute(attribute, String(text));
}

// Defines the properties on the element's prototype (Lit's and Shoelace's reflecting properties).
export function defineHostProperties(proto) {
  for (const [prop, attr] of Object.entries(STRING_PROPERTIES)) {
    Object.defineProperty(proto, prop, {
      configurable: true, enumerable: true,
      get() { return this.getAttribute(attr) ?? (attr === 'section' ? 'all' : 'auto'); },
      set(v) { write(this, attr, v); },
    });
  }
  for (const [prop, attr] of Object.entries(NUMBER_PROPERTIES)) {
    Object.defineProperty(proto, prop, {
      configurable: true, enumerable: true,
      get() { return readNumber(this.getAttribute(attr)); },
      set(v) { write(this, attr, v); },
    });
  }
  Object.defineProperty(proto, 'words', {
    configurable: true, enumerable: true,
    get() { return readWords(this.getAttribute('words')); },
    // an array as JSON (words may hold spaces), a string as written
    set(v) { write(this, 'words', Array.isArray(v) ? JSON.stringify(v) : v); },
  });
  Object.defineProperty(proto, 'inputs', {
    configurable: true, enumerable: true,
    get() { const rows = readJSON(this.getAttribute('inputs')); return Array.isArray(rows) ? rows : null; },
    set(v) { write(this, 'inputs', Array.isArray(v) ? JSON.stringify(v) : v); },
  });
  // a module's state_dict as lists ({name: rows}); an object is written as JSON, a string as given
  Object.defineProperty(proto, 'weights', {
    configurable: true, enumerable: true,
    get() { const w = readJSON(this.getAttribute('weights')); return w && typeof w === 'object' && !Array.isArray(w) ? w : null; },
    set(v) { write(this, 'weights', v !== null && typeof v === 'object' ? JSON.stringify(v) : v); },
  });
}

// A property set on the element before its class was defined (a framework rendering first) is an own
// property shadowing the setter: it is taken off and set again through the setter.
export function upgradeHostProperties(el) {
  for (const prop of [...Object.keys(STRING_PROPERTIES), ...Object.keys(NUMBER_PROPERTIES), 'words', 'inputs', 'progress', 'weights']) {
    if (Object.prototype.hasOwnProperty.call(el, prop)) {
      const value = el[prop];
      delete el[prop];
      el[prop] = value;
    }
  }
}

// el.state: a copy of the learner's current values. temperature is the slider's T, null while it
// follows √d_k; seed is null for the book's seeds.
export function stateSnapshot(state) {
  return { words: state.words.slice(), inputs: inputRows(state), seed: state.seed, dOut: state.d_out, temperature: state.temperature ?? null };
}

// el.results: SelfAttention_v1's attention weights (T × T) and context vectors (T × d_out) for the
// learner's values, §3.4's (scaled by √d_k), as the engine computed them.
export function resultsOf(answer) {
  const rows = (r) => Array.from({ length: r.shape[0] }, (_, i) => r.values.slice(i * r.shape[1], (i + 1) * r.shape[1]));
  return { attnWeights: rows(answer.get('attn_weights')), contextVecs: rows(answer.get('context_vec')) };
}

// The state a rebuild starts from: the learner's live state, except the values whose attributes the host
// changed, which come from the new start. New inputs of another size bring the start's words too.
export function keepLearnerEdits(live, start, changed) {
  if (!live) return { ...start, words: start.words.slice(), inputs: start.inputs.slice() };
  const sameShape = live.tokens === start.tokens && live.d_in === start.d_in;
  const state = { ...start };
  state.inputs = (changed.has('inputs') || !sameShape ? start : live).inputs.slice();
  state.words = (changed.has('words') || live.tokens !== start.tokens ? start : live).words.slice();
  state.seed = changed.has('seed') ? start.seed : live.seed;
  state.d_out = changed.has('d-out') || changed.has('weights') ? start.d_out : live.d_out;
  state.temperature = changed.has('temperature') ? start.temperature : live.temperature;
  return state;
}
