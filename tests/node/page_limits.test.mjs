// One table of limits and one list of section ids, both the engine's: the page's LIMITS, as web/build.mjs
// bundles inputs.js, equal engine.limits().page in both wasm engines; the ids sectionData serves are the
// page's (web/src/sections/order.js) but train, in page order; README and docs/embedding.md list those ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { engineTable, limitsPlugin } from '../../web/engine-limits.mjs';
import { PAGE_ORDER } from '../../web/src/sections/order.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINE_DIR = path.join(ROOT, 'build/web/engine');
const require = createRequire(import.meta.url);

// inputs.js's LIMITS (or what = 'ENGINE_SECTIONS', engine-limits.js's list the element reads) as a
// bundle made with these plugins sees it.
async function bundledLimits(plugins, what = 'LIMITS') {
  const from = what === 'LIMITS' ? './inputs.js' : './engine-limits.js';
  const built = await esbuild.build({
    stdin: { contents: `import { ${what} } from '${from}'; globalThis.limits = ${what};`, resolveDir: path.join(ROOT, 'web/src'), loader: 'js' },
    bundle: true, format: 'iife', write: false, logLevel: 'error', plugins,
  });
  const context = {};
  vm.runInNewContext(built.outputFiles[0].text, context);
  return context.limits;
}

test('the page\'s LIMITS are the engine\'s table, the same in both engines', async () => {
  const table = await engineTable(ENGINE_DIR);
  for (const kind of ['simd', 'scalar']) {
    const { engine } = await require(path.join(ENGINE_DIR, 'loader.js')).load({ kind });
    assert.deepEqual(JSON.parse(engine.limits()), table, `${kind}'s limits()`);
  }
  assert.deepEqual(Object.keys(table.page).sort(),
    ['dInMax', 'dOutMax', 'seedMax', 'temperatureMax', 'temperatureMin', 'tokensMax', 'tokensMin', 'value', 'word']);
  assert.deepEqual({ ...(await bundledLimits([limitsPlugin(table)])) }, table.page);
  // the page's sizes are ones sectionData takes
  assert.ok(table.page.tokensMin >= table.replay.tokensMin && table.page.tokensMax <= table.replay.tokensMax);
  assert.ok(table.page.dInMax <= table.replay.dimMax && table.page.dOutMax <= table.replay.dimMax);
  // web/src keeps no copy: without the engine's table the bundle has none
  assert.equal(await bundledLimits([]), null);
});

test('section ids: the engine serves the page\'s sections but train and check (eval ops), in page order; README and embedding.md list the page\'s', async () => {
  const table = await engineTable(ENGINE_DIR);
  assert.deepEqual(table.sections, PAGE_ORDER.filter((id) => id !== 'train' && id !== 'check'));
  // the element's list of them (its first pass asks for each one's answer a task ahead) is the engine's
  assert.deepEqual([...(await bundledLimits([limitsPlugin(table)], 'ENGINE_SECTIONS'))], table.sections);
  assert.equal(await bundledLimits([], 'ENGINE_SECTIONS'), null);
  // the attribute table: docs/embedding.md's always, README's while it keeps one
  for (const [doc, required] of [['docs/embedding.md', true], ['README.md', false]]) {
    const row = fs.readFileSync(path.join(ROOT, doc), 'utf8').split('\n').find((line) => line.startsWith('| `section` |'));
    if (!row && !required) continue;
    assert.ok(row, `${doc} has the section attribute's row`);
    const ids = [...row.split('|')[2].matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
    assert.deepEqual(ids, ['all', ...PAGE_ORDER], `${doc}'s section ids`);
  }
});
