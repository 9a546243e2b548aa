// The page's limits, read from the engine's one table (engine.limits(), engine/src/core/limits.h) at
// build time: web/build.mjs bundles them in place of web/src/engine-limits.js (the page needs them
// before the engine loads), and tests/node/page_limits.test.mjs checks the bundled LIMITS against the engine.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

// The engine's table, {page, replay, sections}, from the engines the wasm build put in engineDir.
export async function engineTable(engineDir) {
  const loader = path.join(engineDir, 'loader.js');
  if (!fs.existsSync(loader)) {
    throw new Error(`${loader} is missing (./scripts/build wasm makes it): the page's limits come from the engine`);
  }
  const { engine } = await createRequire(import.meta.url)(loader).load({ kind: 'scalar' });
  return JSON.parse(engine.limits());
}

// An esbuild plugin: ./engine-limits.js becomes the engine's page limits and its sections.
export function limitsPlugin(table) {
  return {
    name: 'attention-lab-limits',
    setup(b) {
      b.onResolve({ filter: /^\.\/engine-limits\.js$/ }, () => ({ path: 'attention-lab-limits', namespace: 'attention-lab-limits' }));
      b.onLoad({ filter: /.*/, namespace: 'attention-lab-limits' }, () => ({
        contents: `export const LIMITS = Object.freeze(${JSON.stringify(table.page)});\n`
          + `export const ENGINE_SECTIONS = Object.freeze(${JSON.stringify(table.sections)});`, loader: 'js',
      }));
    },
  };
}
