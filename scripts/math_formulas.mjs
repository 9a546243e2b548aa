// Writes web/math-formulas.json: every formula index.html shows at load (each box's data-tex, 'D' or
// 'I' then its TeX), which web/build.mjs renders at build time (web/math-prerender.mjs) so the page
// needs no KaTeX at load; a formula whose numbers change uses the same template, its digits patched.
// Run after changing a formula: node scripts/math_formulas.mjs (after ./scripts/build web);
// tests/browser/katex.test.js fails while a formula shown at load has no template.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ROOT, launch, startServer, newPage, waitForLab } = require('../tests/browser/helpers.js');

const browser = await launch();
const server = await startServer();
try {
  const { page } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  const keys = await page.evaluate(() => [...new Set([...document.querySelector('attention-lab').shadowRoot.querySelectorAll('[data-tex]')]
    .map((el) => el.dataset.tex))].sort());
  const file = path.join(ROOT, 'web/math-formulas.json');
  fs.writeFileSync(file, `${JSON.stringify(keys, null, 1)}\n`);
  console.log(`${path.relative(ROOT, file)}: ${keys.length} formulas`);
} finally {
  await browser.close();
  await server.close();
}
