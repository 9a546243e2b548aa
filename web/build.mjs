// Assembles build/web/ (except build/web/engine/, which the wasm build writes): the <attention-lab>
// bundle, the pages, the worker and KaTeX. node web/build.mjs [--dev]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

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

// The element: ES modules from web/src (entry element.js), bundled by esbuild into one classic script
// (an IIFE: it runs from file:// pages and from a <script> on another origin). element.css and the
// book's listings (book/listings/*.py, the files scripts/golden_chapter3.py runs) come in as text;
// KaTeX's CSS and font list as the virtual module "katex-assets". Minified with a source map, unless
// --dev is given.
const dev = process.argv.includes('--dev');
const katexAssets = {
  name: 'katex-assets',
  setup(b) {
    b.onResolve({ filter: /^katex-assets$/ }, () => ({ path: 'katex-assets', namespace: 'katex-assets' }));
    b.onLoad({ filter: /.*/, namespace: 'katex-assets' }, () => ({
      contents: `export const KATEX_CSS = ${JSON.stringify(katexCssNoFonts)};\nexport const KATEX_FONTS = ${JSON.stringify(fonts)};`,
      loader: 'js',
    }));
  },
};
const result = await esbuild.build({
  entryPoints: [path.join(root, 'web/src/element.js')],
  outfile: path.join(out, 'attention-lab.js'),
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  minify: !dev,
  sourcemap: dev ? false : 'linked',
  loader: { '.css': 'text', '.py': 'text' },
  plugins: [katexAssets],
  banner: { js: '/* attention-lab.js: defines <attention-lab>, an interactive chapter 3 of "Build a Large Language Model (From Scratch)". Built by web/build.mjs from web/src/ (esbuild); KaTeX (MIT) comes from katex-lib.js beside it. */' },
  metafile: true,
  logLevel: 'warning',
});
const bundleBytes = fs.statSync(path.join(out, 'attention-lab.js')).size;
const sources = Object.keys(result.metafile.inputs).filter((f) => f.startsWith('web/src/'));

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
// The host's types (web/types/*.d.ts) and the Custom Elements Manifest, for the package.
fs.mkdirSync(path.join(out, 'types'), { recursive: true });
for (const f of fs.readdirSync(path.join(root, 'web/types'))) fs.copyFileSync(path.join(root, 'web/types', f), path.join(out, 'types', f));
fs.copyFileSync(path.join(root, 'web/custom-elements.json'), path.join(out, 'custom-elements.json'));
// author.json: the version and attention-lab.js's SRI hash, for author.html's snippets (version pin).
const version = JSON.parse(read(path.join(root, 'package.json'))).version;
const integrity = `sha384-${(await import('node:crypto')).createHash('sha384').update(fs.readFileSync(path.join(out, 'attention-lab.js'))).digest('base64')}`;
fs.writeFileSync(path.join(out, 'author.json'), JSON.stringify({ version, integrity }) + '\n');

console.log(`build/web: attention-lab.js (${(bundleBytes / 1024).toFixed(0)} KiB${dev ? ', --dev' : ', minified'}), ${sources.length} modules, ${woff2.length} fonts`);
