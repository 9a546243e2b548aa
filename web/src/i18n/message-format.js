// The message format: a small subset of ICU MessageFormat, enough for the page's sentences, read with the
// browser's Intl (Intl.PluralRules) and no dependency (docs/translations.md says why).
//   {name}                                   the parameter's value, as text (never localised: see below)
//   {n, plural, one {# token} other {# tokens}}   Intl.PluralRules picks the arm (=0, =1 … match exactly);
//                                            # is n as text
//   {kind, select, simd {…} other {…}}       the arm named by the value, else other
// Any other brace is literal text. Numbers are inserted with String(): the page's numbers are PyTorch's
// prints and the learner's answers, which keep PyTorch's digits and decimal point in every language.
// Node-safe: no DOM (tests/node reads it).

// The parsed message: an array of parts, each a string or {name, kind?, arms?}. Cached by text.
const parsed = new Map();

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

function parse(text, start = 0, inArm = false) {
  const parts = [];
  let literal = '', i = start;
  const flush = () => { if (literal) parts.push(literal); literal = ''; };
  while (i < text.length) {
    const c = text[i];
    if (c === '}' && inArm) { flush(); return { parts, end: i + 1 }; }
    if (c === '#' && inArm) { flush(); parts.push({ hash: true }); i++; continue; }
    if (c === '{') {
      const m = NAME.exec(text.slice(i + 1));
      const after = m ? i + 1 + m[0].length : -1;
      if (m && text[after] === '}') { flush(); parts.push({ name: m[0] }); i = after + 1; continue; }
      const kind = m && /^,\s*(plural|select)\s*,/.exec(text.slice(after));
      if (kind) {
        flush();
        const arms = {};
        let j = after + kind[0].length;
        for (;;) {
          while (text[j] === ' ' || text[j] === '\n') j++;
          if (text[j] === '}') { j++; break; }
          const key = /^(=\d+|[A-Za-z_][A-Za-z0-9_-]*)\s*\{/.exec(text.slice(j));
          if (!key) throw new Error(`message format: a bad ${kind[1]} arm at ${j} in “${text.slice(0, 60)}”`);
          const arm = parse(text, j + key[0].length, true);
          arms[key[1]] = arm.parts;
          j = arm.end;
        }
        if (!('other' in arms)) throw new Error(`message format: {${m[0]}, ${kind[1]}} needs an other {…} arm in “${text.slice(0, 60)}”`);
        parts.push({ name: m[0], kind: kind[1], arms });
        i = j;
        continue;
      }
    }
    literal += c;
    i++;
  }
  if (inArm) throw new Error(`message format: an arm is not closed in “${text.slice(0, 60)}”`);
  flush();
  return { parts, end: i };
}

function partsOf(text) {
  let p = parsed.get(text);
  if (!p) { p = parse(text).parts; parsed.set(text, p); }
  return p;
}

const pluralRules = new Map();
function pluralCategory(lang, n) {
  let rules = pluralRules.get(lang);
  if (!rules) {
    try { rules = new Intl.PluralRules(lang); } catch { rules = new Intl.PluralRules('en'); }
    pluralRules.set(lang, rules);
  }
  return rules.select(n);
}

function render(parts, params, lang, count) {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if (p.hash) out += String(count);
    else if (!p.kind) out += p.name in params ? String(params[p.name]) : `{${p.name}}`;
    else {
      const v = params[p.name];
      let arm;
      if (p.kind === 'plural') arm = p.arms[`=${v}`] || p.arms[pluralCategory(lang, Number(v))] || p.arms.other;
      else arm = p.arms[String(v)] || p.arms.other;
      out += render(arm, params, lang, v);
    }
  }
  return out;
}

// format('Step {n} of {total}', {n: 2, total: 9}, 'en') -> 'Step 2 of 9'
export function format(text, params = {}, lang = 'en') {
  return render(partsOf(text), params, lang, '');
}

// The parameter names a message uses, sorted (a translation must use the same: tests/node/i18n_catalogues).
export function placeholders(text) {
  const names = new Set();
  const walk = (parts) => {
    for (const p of parts) {
      if (typeof p === 'string' || p.hash) continue;
      names.add(p.name);
      if (p.arms) for (const arm of Object.values(p.arms)) walk(arm);
    }
  };
  walk(partsOf(text));
  return [...names].sort();
}
