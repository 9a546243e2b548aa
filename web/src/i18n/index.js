// The page's words in the reader's language: the shipped catalogues (en, de, zh-CN: JSON files beside
// this one, key -> message in message-format.js's format), the ones a host registers
// (AttentionLab.registerTranslation), the choice of language for an element, and t(), which every module
// that shows words calls. English is the fallback for a key a catalogue lacks. docs/translations.md.
import en from './en.json' with { type: 'json' };
import de from './de.json' with { type: 'json' };
import zhCN from './zh-CN.json' with { type: 'json' };
import { format } from './message-format.js';
import { VIEW_WORDS, useTranslator } from '../views/words.js';

const ENGLISH = Object.freeze({ ...en, ...VIEW_WORDS });
export const SHIPPED = Object.freeze(['en', 'de', 'zh-CN']);

// canonical tag -> messages. A Map: a tag from outside is never looked up among Object.prototype's keys.
const catalogues = new Map([['en', ENGLISH], ['de', de], ['zh-CN', zhCN]]);

// The canonical form of a BCP 47 tag, or null when it is not one ('zh-cn' -> 'zh-CN', 'en_US' -> null).
export function canonicalTag(tag) {
  if (typeof tag !== 'string' || tag.trim() === '') return null;
  try { return Intl.getCanonicalLocales(tag.trim())[0]; } catch { return null; }
}

// AttentionLab.registerTranslation('fr', {key: message, ...}): a host's catalogue for a language (its own
// or one that replaces a shipped one's messages, key by key). Refused with one sentence: a tag that is not
// a language tag, messages that are not an object of strings, or a message the format cannot read.
export function registerTranslation(lang, messages) {
  const tag = canonicalTag(lang);
  if (!tag) throw new TypeError(`AttentionLab.registerTranslation: “${String(lang).slice(0, 40)}” is not a language tag; write one like "fr", "pt-BR" or "zh-CN".`);
  if (!messages || typeof messages !== 'object' || Array.isArray(messages)) throw new TypeError('AttentionLab.registerTranslation: the messages must be an object of key → message strings, as in the English catalogue (docs/translations.md).');
  const own = {};
  for (const [key, text] of Object.entries(messages)) {
    if (typeof text !== 'string') throw new TypeError(`AttentionLab.registerTranslation: the message for “${key.slice(0, 60)}” is not a string.`);
    try { format(text, {}, tag); } catch (e) { throw new TypeError(`AttentionLab.registerTranslation: the message for “${key.slice(0, 60)}” cannot be read: ${e.message}.`); }
    own[key] = text;
  }
  catalogues.set(tag, Object.freeze({ ...(catalogues.get(tag) || {}), ...own }));
  for (const listener of registered) listener(tag);
  return tag;
}
const registered = new Set();
// The element re-renders when a catalogue for its language arrives after it was shown.
export function onRegistered(listener) { registered.add(listener); }

// The catalogue that serves a tag: the exact one, else its language's with the same script, else the
// language's (de-AT -> de; zh, zh-Hans, zh-SG -> zh-CN), else English. Returns {lang, dir}.
export function resolveLanguage(tag) {
  const canonical = canonicalTag(tag) || 'en';
  let lang = 'en';
  if (catalogues.has(canonical)) lang = canonical;
  else {
    let locale;
    try { locale = new Intl.Locale(canonical); } catch { locale = null; }
    const base = locale ? locale.language : canonical.split('-')[0];
    const script = locale?.maximize?.().script;
    const candidates = [...catalogues.keys()].filter((k) => k.split('-')[0] === base);
    const sameScript = candidates.find((k) => { try { return new Intl.Locale(k).maximize().script === script; } catch { return false; } });
    lang = sameScript || candidates[0] || 'en';
  }
  return { lang, dir: directionOf(canonical) };
}

// Right to left for the languages written so (Intl.Locale's textInfo is not in every engine yet).
const RTL_SCRIPTS = new Set(['Arab', 'Hebr', 'Thaa', 'Syrc', 'Nkoo', 'Adlm', 'Rohg']);
export function directionOf(tag) {
  try {
    const locale = new Intl.Locale(tag);
    const info = locale.textInfo || locale.getTextInfo?.();
    if (info?.direction) return info.direction;
    return RTL_SCRIPTS.has(locale.maximize().script) ? 'rtl' : 'ltr';
  } catch { return 'ltr'; }
}

// The active language: the element whose words are being built sets it (element.js's useLanguageOf) before
// it builds, updates or handles an event, so t() needs no argument in the many modules that call it.
let active = 'en';
let activeMessages = ENGLISH;
export function useLanguage(lang) {
  if (lang === active) return;
  active = catalogues.has(lang) ? lang : 'en';
  activeMessages = catalogues.get(active);
}
export const currentLanguage = () => active;

// t('editor.summary', {n: 3}): the active language's message, else English's, formatted. An unknown key is
// a bug in the page: it is shown as the key, so a test finds it.
export function t(key, params) {
  const text = activeMessages[key] ?? ENGLISH[key];
  if (text === undefined) return key;
  try { return format(text, params, active); } catch { return format(ENGLISH[key], params, 'en'); }
}
useTranslator(t, () => translator(active).t);

// What the engine refused, in the reader's language: a thrown Error (e.message, e.key, e.params:
// bindings/embind.cpp) or an answer's or cell's {error, error_key, error_params}. A sentence a learner
// can meet (a paste Check my code cannot read, weights with biases for SelfAttention_v1) has a key, its
// message "engine.<key>"; any other is the engine's English sentence, for a request's author.
export function engineSentence(refused) {
  const key = refused?.key ?? refused?.error_key, params = refused?.params ?? refused?.error_params;
  const english = refused?.message ?? refused?.error ?? refused;
  return typeof key === 'string' && ENGLISH[`engine.${key}`] !== undefined ? t(`engine.${key}`, params) : String(english);
}

// AttentionLab.translator(tag): the page's words for a host page's own sentences about the element
// (embed.html's parameter errors): {lang, dir, t(key, params)}, in the catalogue that serves tag, as
// the element would speak it (English for a tag that is none).
export function translator(tag) {
  const { lang, dir } = resolveLanguage(tag);
  return Object.freeze({ lang, dir, t: (key, params) => {
    const was = active;
    useLanguage(lang);
    try { return t(key, params); } finally { useLanguage(was); }
  } });
}

// A message's text around parts that are not text (a button, a number's span, a formula): words(marks)
// formats it with each such part's name as a mark, and the text is split there, so a translation may put
// each part wherever its language wants it. A string value is plain text.
// textWith((m) => t('train.status', m), {step: span, total: '300'}) -> ['Step ', span, ' of 300, …']
export function textWith(words, parts) {
  const marks = {};
  for (const [name, part] of Object.entries(parts)) marks[name] = typeof part === 'string' ? part : `\u0001${name}\u0001`;
  return words(marks).split(/\u0001(\w+)\u0001/).map((piece, i) => (i % 2 ? parts[piece] : piece)).filter((piece) => piece !== '');
}

// t() for a sentence with formulas in it, as para() takes its parts: each TeX string of math goes where its
// {placeholder} is, as a ['$', tex] part.
// tm('temperature.intro', {}, { T: 'T' }) -> ['… by a temperature ', ['$', 'T'], ' before softmax; …']
export function tm(key, params = {}, math = {}) {
  const formulas = Object.fromEntries(Object.entries(math).map(([name, tex]) => [name, ['$', tex]]));
  return textWith((marks) => t(key, { ...params, ...marks }), formulas);
}

// A list in the active language's way ('a, b and c'; 'a, b und c'; 'a、b和c'): Intl.ListFormat, except
// English, which keeps the page's own style (no serial comma).
export function list(items) {
  if (active === 'en' || items.length <= 1) return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
  try { return new Intl.ListFormat(active, { style: 'long', type: 'conjunction' }).format(items); } catch { return items.join(', '); }
}
