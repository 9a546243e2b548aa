// The page's catalogues (web/src/i18n, docs/translations.md), without a browser: every shipped language
// has exactly English's keys, each message uses the same placeholders as English's and parses; every
// key the code asks for with t('…') or say('…') is in English's; the message format's plural and select.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { format, placeholders } from '../../web/src/i18n/message-format.js';
import { VIEW_WORDS } from '../../web/src/views/words.js';

const dir = new URL('../../web/src/i18n/', import.meta.url);
const read = (name) => JSON.parse(fs.readFileSync(new URL(name, dir), 'utf8'));
const english = { ...read('en.json'), ...VIEW_WORDS };
const SHIPPED = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'en.json').map((f) => f.replace(/\.json$/, ''));

test('two languages besides English ship', () => {
  assert.deepEqual(SHIPPED.sort(), ['de', 'zh-CN']);
});

for (const lang of SHIPPED) {
  test(`${lang}: the same keys as English, none missing, none extra`, () => {
    const messages = read(`${lang}.json`);
    const missing = Object.keys(english).filter((k) => !(k in messages));
    const extra = Object.keys(messages).filter((k) => !(k in english));
    assert.deepEqual(missing, [], `${lang} lacks ${missing.length} keys`);
    assert.deepEqual(extra, [], `${lang} has keys English has not`);
  });
  test(`${lang}: every message uses English's placeholders and parses`, () => {
    const messages = read(`${lang}.json`);
    for (const [key, text] of Object.entries(messages)) {
      assert.equal(typeof text, 'string', key);
      if (!(key in english)) continue;
      assert.deepEqual(placeholders(text), placeholders(english[key]), `${lang} ${key}: “${text}”`);
      assert.ok(text.trim() !== '', `${lang} ${key} is empty`);
    }
  });
}

test('every key the code asks for is in the English catalogue', () => {
  const root = new URL('../../web/src/', import.meta.url).pathname;
  const files = [];
  const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith('.js')) files.push(p); } };
  walk(root);
  const asked = new Set();
  for (const f of files) for (const m of fs.readFileSync(f, 'utf8').matchAll(/\b(?:t|tm|tr|say)\('([A-Za-z0-9_.]+)'/g)) asked.add(m[1]);
  assert.ok(asked.size > 50, `only ${asked.size} keys found`);
  const unknown = [...asked].filter((k) => !(k in english));
  assert.deepEqual(unknown, []);
});

test('the format: placeholders, plural by Intl.PluralRules, select, literal braces, numbers as written', () => {
  assert.equal(format('Step {n} of {total}', { n: 2, total: 9 }), 'Step 2 of 9');
  const tokens = '{n, plural, one {# token} other {# tokens}}';
  assert.equal(format(tokens, { n: 1 }, 'en'), '1 token');
  assert.equal(format(tokens, { n: 3 }, 'en'), '3 tokens');
  assert.equal(format('{n, plural, =0 {none} one {# Zeile} other {# Zeilen}}', { n: 0 }, 'de'), 'none');
  assert.equal(format('{n, plural, one {# Zeile} other {# Zeilen}}', { n: 1 }, 'de'), '1 Zeile');
  assert.equal(format('{n, plural, other {# 行}}', { n: 1 }, 'zh-CN'), '1 行');
  assert.equal(format('{k, select, simd {SIMD} other {scalar}}', { k: 'simd' }), 'SIMD');
  assert.equal(format('{k, select, simd {SIMD} other {scalar}}', { k: 'x' }), 'scalar');
  // not a placeholder: kept as written (code and JSON in messages)
  assert.equal(format('weights=\'{"W_query.weight": [[...]]}\' {a}', { a: 1 }), 'weights=\'{"W_query.weight": [[...]]}\' 1');
  // the page's numbers keep PyTorch's digits and decimal point in every language
  assert.equal(format('{v}', { v: 1234.5 }, 'de'), '1234.5');
  assert.deepEqual(placeholders('{a} {n, plural, one {# {b}} other {{c}}}'), ['a', 'b', 'c', 'n']);
  assert.throws(() => format('{n, plural, one {x}}', { n: 1 }), /other/);
});
