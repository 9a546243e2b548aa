// Assembles build/web/ (except build/web/engine/, which the wasm build writes): the <attention-lab>
// bundle, the pages, the worker and KaTeX. Plain concatenation, no bundler: node web/build.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build/web');
const katexDir = path.join(root, 'node_modules/katex/dist');
const read = (p) => fs.readFileSync(p, 'utf8');

fs.mkdirSync(path.join(out, 'katex/fonts'), { recursive: true });

// KaTeX as the npm package ships it (for anyone who wants the stock files) ...
for (const f of ['katex.min.js', 'katex.min.css']) fs.copyFileSync(path.join(katexDir, f), path.join(out, 'katex', f));
const woff2 = fs.readdirSync(path.join(katexDir, 'fonts')).filter((f) => f.endsWith('.woff2'));
for (const f of woff2) fs.copyFileSync(path.join(katexDir, 'fonts', f), path.join(out, 'katex/fonts', f));

// ... and for the bundle: @font-face is ignored in shadow roots, so the element registers the faces itself
// with the FontFace API, as URLs of the woff2 files above (relative to attention-lab.js; the browser only
// fetches the faces the math on screen uses). Only the list goes into the bundle, not the font data.
const katexCss = read(path.join(katexDir, 'katex.min.css'));
const fonts = [];
for (const m of katexCss.matchAll(/@font-face\{([^}]*)\}/g)) {
  const rule = m[1];
  const family = /font-family:([^;]+)/.exec(rule)[1];
  const style = /font-style:([^;]+)/.exec(rule)[1];
  const weight = /font-weight:([^;]+)/.exec(rule)[1];
  const file = /url\(fonts\/([^)]+\.woff2)\)/.exec(rule)[1];
  fonts.push({ family, style, weight, file });
}
const katexCssNoFonts = katexCss.replace(/@font-face\{[^}]*\}/g, '');

const srcDir = path.join(root, 'web/src');
const sources = fs.readdirSync(srcDir).filter((f) => f.endsWith('.js')).sort();
const bundle = [
  '/* attention-lab.js: defines <attention-lab>, an interactive chapter 3 of "Build a Large Language Model',
  ' * (From Scratch)". Built by web/build.mjs from web/src/; KaTeX (MIT) comes from katex-lib.js beside it. */',
  '(() => {',
  "'use strict';",
  `const ELEMENT_CSS = ${JSON.stringify(read(path.join(srcDir, 'element.css')))};`,
  `const KATEX_CSS = ${JSON.stringify(katexCssNoFonts)};`,
  `const KATEX_FONTS = ${JSON.stringify(fonts)};`,
  ...sources.map((f) => `// ---- web/src/${f}\n${read(path.join(srcDir, f))}`),
  '})();',
  '',
].join('\n');
fs.writeFileSync(path.join(out, 'attention-lab.js'), bundle);

// KaTeX for the element, beside attention-lab.js, which loads it with a <script> while the engine loads
// (so Chromium compiles it off the main thread and its setup runs in a task of its own). A module object
// keeps the UMD from defining window.katex; the one global is AttentionLabKatex (like AttentionLabEngine).
const katexLib = [
  '/* katex-lib.js: KaTeX (MIT, https://katex.org) for <attention-lab>; built by web/build.mjs. */',
  '(() => { const module = { exports: {} }; const exports = module.exports; const define = undefined;',
  read(path.join(katexDir, 'katex.min.js')),
  ';self.AttentionLabKatex = module.exports; })();',
  '',
].join('\n');
fs.writeFileSync(path.join(out, 'katex-lib.js'), katexLib);

// The pages and their scripts as they are (index, embed, workers, and any other page kept in web/).
const TOOLS = new Set(['build.mjs', 'serve.mjs']);
for (const f of fs.readdirSync(path.join(root, 'web'))) {
  if (!TOOLS.has(f) && /\.(html|js|css)$/.test(f)) fs.copyFileSync(path.join(root, 'web', f), path.join(out, f));
}
console.log(`build/web: attention-lab.js (${(bundle.length / 1024).toFixed(0)} KiB), ${sources.length} sources, ${woff2.length} fonts`);
