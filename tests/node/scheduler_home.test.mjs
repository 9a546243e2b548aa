// One home per rule, checked by reading the source (issue 27): the drawing views import nothing from
// outside web/src/views/ (they are given the page's scheduler), the page schedules frames, tasks, idle
// work and visibility only in web/src/scheduler.js, and no two files share a name or a helper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/src');
const VIEWS = path.join(SRC, 'views');
const jsFiles = (dir) => fs.readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.js')).map((f) => path.join(dir, f));
const rel = (file) => path.relative(SRC, file);

// every module specifier a file names: import ... from, export ... from, import '...', import('...')
function specifiers(text) {
  const found = [];
  for (const re of [/\b(?:import|export)\s[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]/g]) {
    for (const m of text.matchAll(re)) found.push(m[1]);
  }
  return found;
}

test('the specifier reader finds every kind of import (so the check below can fail)', () => {
  assert.deepEqual(specifiers("import { a } from '../x.js';\nexport { b } from './y.js';\nimport './z.css';\nconst m = import('../w.js');").sort(),
    ['../w.js', '../x.js', './y.js', './z.css']);
});

test('no import in web/src/views/ leaves that folder', () => {
  const leaving = [];
  for (const file of jsFiles(VIEWS)) {
    for (const spec of specifiers(fs.readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec);
      if (!spec.startsWith('.') || !target.startsWith(VIEWS + path.sep)) leaving.push(`${rel(file)} imports ${spec}`);
    }
  }
  assert.deepEqual(leaving, []);
});

test('frames, tasks, idle work and visibility are scheduled in web/src/scheduler.js only', () => {
  // views/schedule.js holds the views' stand-in for when no scheduler was given (a view used alone)
  const homes = new Set(['scheduler.js', path.join('views', 'schedule.js')]);
  const outside = [];
  for (const file of jsFiles(SRC)) {
    if (homes.has(rel(file))) continue;
    const text = fs.readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '');   // code, not comments
    for (const api of ['requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'IntersectionObserver(', 'MessageChannel', 'setTimeout(']) {
      if (text.includes(api)) outside.push(`${rel(file)} uses ${api}`);
    }
  }
  assert.deepEqual(outside, []);
});

test('no two files in web/src share a name, and setText and uid have one home', () => {
  const byName = new Map();
  for (const file of jsFiles(SRC)) {
    const name = path.basename(file);
    byName.set(name, [...(byName.get(name) || []), rel(file)]);
  }
  // index.js is each folder's entry by convention
  const twice = [...byName].filter(([name, files]) => files.length > 1 && name !== 'index.js');
  assert.deepEqual(twice, []);
  for (const helper of [/export function setText\b/, /export const uid\b/]) {
    const homes = jsFiles(SRC).filter((f) => helper.test(fs.readFileSync(f, 'utf8'))).map(rel);
    assert.deepEqual(homes, [path.join('views', 'nodes.js')], String(helper));
  }
});
