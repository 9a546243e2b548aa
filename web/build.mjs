// Assembles build/web/ (except build/web/engine/, which the wasm build writes): the <attention-lab>
// bundle, the pages, the worker and KaTeX. node web/build.mjs [--dev]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import * as esbuild from 'esbuild';
import { engineTable, limitsPlugin } from './engine-limits.mjs';
import subsetFont from 'subset-font';
import { templates as mathTemplates, mathCharacters } from './math-prerender.mjs';

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
// with the FontFace API, as URLs of woff2 files (relative to attention-lab.js; the browser only fetches
// the faces the math on screen uses): subsets of the files above, in katex/fonts/subset/ (made below,
// with the formulas). Only the list goes into the bundle, not the font data.
const katexCss = read(path.join(katexDir, 'katex.min.css'));
// Every face is cut (below); the list names the cut files.
const fonts = [];
for (const m of katexCss.matchAll(/@font-face\{([^}]*)\}/g)) {
  const rule = m[1];
  const family = /font-family:([^;]+)/.exec(rule)[1];
  const style = /font-style:([^;]+)/.exec(rule)[1];
  const weight = /font-weight:([^;]+)/.exec(rule)[1];
  const file = /url\(fonts\/([^)]+\.woff2)\)/.exec(rule)[1];
  fonts.push({ family, style, weight, file: `subset/${file}` });
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
      contents: `export const KATEX_CSS = ${JSON.stringify(katexCssOfTemplates())};\nexport const KATEX_FONTS = ${JSON.stringify(fonts)};`,
      loader: 'js',
    }));
  },
};
// KaTeX for the element, beside attention-lab.js, which loads it with a <script> while the engine loads
// (so Chromium compiles it off the main thread and its setup runs in a task of its own). A module object
// keeps the UMD from defining window.katex; the one global is AttentionLabKatex (like AttentionLabEngine).
const katexLib = [
  '/* katex-lib.js: KaTeX (MIT, https://katex.org) for <attention-lab>; built by web/build.mjs. */',
  '(() => { const module = { exports: {} }; const exports = module.exports; const define = undefined;',
  read(path.join(katexDir, 'katex.min.js')),
  `;self.AttentionLabKatex = module.exports; self.AttentionLabKatexCss = ${JSON.stringify(katexCssNoFonts)}; })();`,
  '',
].join('\n');
fs.writeFileSync(path.join(out, 'katex-lib.js'), katexLib);

// engine/loader.js, minified (bindings/loader.js is commented for readers: 14 KB, 4.9 KB gzip; the page
// loads it before its engine). It stays a plain script: esbuild renames locals and drops comments only.
if (fs.existsSync(path.join(out, 'engine'))) {
  const { code } = await esbuild.transform(read(path.join(root, 'bindings/loader.js')), { minify: true, target: 'es2015', charset: 'utf8' });
  fs.writeFileSync(path.join(out, 'engine/loader.js'), `/* attention-lab's engine loader: bindings/loader.js (MIT), minified by web/build.mjs. */\n${code}`);
}

// The integrity map: the SHA-384 of every script the element loads (katex-lib.js above, the engine
// files the wasm build put in build/web/engine/, engine-worker.js as web/ has it), as <script integrity>
// and fetch() take it. It goes into the bundle as the virtual module "attention-lab-integrity" (the
// element checks each file against it, in place of web/src/integrity-map.js) and into
// build/web/integrity.json, with attention-lab.js's own.
const sha384 = (file) => `sha384-${crypto.createHash('sha384').update(fs.readFileSync(file)).digest('base64')}`;
const integrityMap = {};
for (const [name, file] of [['katex-lib.js', path.join(out, 'katex-lib.js')], ['engine/loader.js', path.join(out, 'engine/loader.js')],
  ['engine/attention-lab-simd.js', path.join(out, 'engine/attention-lab-simd.js')], ['engine/attention-lab-scalar.js', path.join(out, 'engine/attention-lab-scalar.js')],
  ['engine-worker.js', path.join(root, 'web/engine-worker.js')]]) {
  if (fs.existsSync(file)) integrityMap[name] = sha384(file);
  else console.warn(`web/build.mjs: ${path.relative(root, file)} is missing (./scripts/build wasm makes it): the bundle has no hash for ${name}`);
}
const integrityModule = {
  name: 'attention-lab-integrity',
  setup(b) {
    b.onResolve({ filter: /^\.\/integrity-map\.js$/ }, () => ({ path: 'attention-lab-integrity', namespace: 'attention-lab-integrity' }));
    b.onLoad({ filter: /.*/, namespace: 'attention-lab-integrity' }, () => ({ contents: `export const INTEGRITY = ${JSON.stringify(integrityMap)};`, loader: 'js' }));
  },
};

// The page's formulas (web/math-formulas.json, scripts/math_formulas.mjs lists them) rendered by KaTeX
// here, as templates by shape (web/math-prerender.mjs), in place of web/src/math-templates.js: the page
// shows them without loading katex-lib.js.
const formulas = JSON.parse(read(path.join(root, 'web/math-formulas.json')));
const math = mathTemplates(formulas);
for (const key of math.missing) console.warn(`web/build.mjs: ${JSON.stringify(key)} gets no template (a digit changes its layout): KaTeX renders it at run time`);
// The element's KaTeX faces keep only the characters the page's formulas can contain
// (math-prerender.mjs's mathCharacters: the templates' and printable ASCII): Main-Regular, the face
// every formula uses, from 25.7 to 11.6 KB; Math-Italic from 16.1 to 13.0 KB. Plus FreeType's
// auto-hinter's reference letters for lowercase Greek (its blue zones, afblue.dat): Chromium and Firefox
// on Linux hint with it, measuring each script's heights on those letters, so a face cut to α and ω
// alone hinted them differently (the math italic faces drew a few pixels apart). With them, every cut
// face draws exactly as the whole one (tests/browser/fonts.test.js). Latin's are in printable ASCII.
const AUTOHINTER_GREEK = 'αβγδεζηθιλμξοπρστφχψω';
fs.mkdirSync(path.join(out, 'katex/fonts/subset'), { recursive: true });
const fontCharacters = mathCharacters(math.shapes) + AUTOHINTER_GREEK;
await Promise.all(woff2.map(async (f) => fs.writeFileSync(path.join(out, 'katex/fonts/subset', f),
  await subsetFont(fs.readFileSync(path.join(katexDir, 'fonts', f)), fontCharacters, { targetFormat: 'woff2' }))));
// KaTeX's CSS in two parts. The bundle carries only the rules whose selectors name classes the
// build-time templates use (2.8 of 18.7 KB, 1 of 3 KB gzip); the whole sheet rides with katex-lib.js
// (self.AttentionLabKatexCss; katex-lib.mjs's css), and math.js hands it to the element when a formula
// needs KaTeX at run time. (katex.min.css is flat rules, no @media or nesting: checked here.)
function katexCssOfTemplates() {
  if (/@(?!font-face)/.test(katexCssNoFonts)) throw new Error('web/build.mjs: katex.min.css has an at-rule: katexCssOfTemplates keeps flat rules only');
  const classes = new Set();
  const visit = (node) => {
    if (!Array.isArray(node)) return;
    if (typeof node[1] === 'string') for (const c of node[1].split(/\s+/)) if (c) classes.add(c);
    node.slice(4).forEach(visit);
  };
  for (const shape of Object.values(math.shapes)) shape.tree.forEach(visit);   // (a tree: the nodes KaTeX appends)
  const rules = [];
  for (const [, selectors, body] of katexCssNoFonts.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    // (a class inside :not() does not have to be used: the rule applies without it)
    const kept = selectors.split(',').filter((sel) => [...sel.replace(/:not\([^)]*\)/g, '').matchAll(/\.([\w-]+)/g)].every(([, c]) => classes.has(c)));
    if (kept.length) rules.push(`${kept.join(',')}{${body}}`);
  }
  return rules.join('');
}
const mathModule = {
  name: 'attention-lab-math',
  setup(b) {
    b.onResolve({ filter: /^\.\/math-templates\.js$/ }, () => ({ path: 'attention-lab-math', namespace: 'attention-lab-math' }));
    b.onLoad({ filter: /.*/, namespace: 'attention-lab-math' }, () => ({ contents: `export const MATH_TEMPLATES = JSON.parse(${JSON.stringify(JSON.stringify(math.shapes))});`, loader: 'js' }));
  },
};

// web/src/bundled-files.js (null) in the classic script; in the ES module build, in its place, the files as imports the
// host's bundler follows (kept as written, relative to attention-lab.mjs): the engines and
// KaTeX as dynamic imports of the .mjs copies written below, the fonts as imports of the .woff2 files
// (Vite makes them asset URLs; esbuild with its file loader, README's one line), and the worker as
// new Worker(new URL(…, import.meta.url)), which Vite bundles.
const FILES_ESM = [
  ...fonts.map((f, i) => `import font${i} from './katex/fonts/${f.file}';`),
  'export const BUNDLED_FILES = {',
  "  engines: { simd: () => import('./engine/attention-lab-simd.mjs'), scalar: () => import('./engine/attention-lab-scalar.mjs') },",
  "  katex: () => import('./katex-lib.mjs'),",
  `  fonts: { ${fonts.map((f, i) => `${JSON.stringify(f.file)}: font${i}`).join(', ')} },`,
  "  worker: () => new Worker(new URL('./engine-worker.mjs', import.meta.url), { type: 'module' }),",
  '};',
].join('\n');
function filesModule(esm) {
  return {
    name: 'attention-lab-files',
    setup(b) {
      b.onResolve({ filter: /^\.\/bundled-files\.js$/ }, () => ({ path: 'attention-lab-files', namespace: 'attention-lab-files' }));
      b.onResolve({ filter: /^\.\//, namespace: 'attention-lab-files' }, (args) => ({ path: args.path, external: true }));
      b.onLoad({ filter: /.*/, namespace: 'attention-lab-files' }, () => ({ contents: esm ? FILES_ESM : 'export const BUNDLED_FILES = null;', loader: 'js' }));
    },
  };
}

// A UMD script as an ES module: it declares module, exports, define and require as its own (undefined)
// names, so a bundler sees no CommonJS in its tail and never tries to resolve Node's require("path").
const CJS_NAMES = 'const module = undefined, exports = undefined, define = undefined, require = undefined;';

// bindings/loader.js, the engine's loader, as a module of both bundles (web/src/engine.js imports it):
// its default export is the API it defines as self.AttentionLabEngine.
const loaderModule = {
  name: 'attention-lab-loader',
  setup(b) {
    b.onLoad({ filter: /bindings[\\/]loader\.js$/ }, (args) => ({
      contents: `${CJS_NAMES}\n${read(args.path)}\nexport default globalThis.AttentionLabEngine;\n`, loader: 'js' }));
  },
};

// The element's own style sheets (element.css, views.css, learn.css) come in as text, minified unless
// --dev: their comments are for readers (about 3 KB gzip of the bundle). Whitespace and comments only:
// esbuild's full minify rewrites rgba(110,110,110,0.35) as #6e6e6e59, an alpha of 0.349, which draws
// the cells' shades a step apart.
const minifiedCss = {
  name: 'minified-css',
  setup(b) {
    b.onLoad({ filter: /\.css$/ }, async (args) => ({
      contents: dev ? read(args.path) : (await esbuild.transform(read(args.path), { loader: 'css', minifyWhitespace: true, charset: 'utf8' })).code,
      loader: 'text',
    }));
  },
};

// The editor's limits, from the engine's one table (web/engine-limits.mjs): inputs.js's LIMITS.
const limitsModule = limitsPlugin(await engineTable(path.join(out, 'engine')));

const result = await esbuild.build({
  entryPoints: [path.join(root, 'web/src/element.js')],
  outfile: path.join(out, 'attention-lab.js'),
  bundle: true,
  format: 'iife',
  target: ['es2020'],
  minify: !dev,
  sourcemap: dev ? false : 'linked',
  loader: { '.css': 'text', '.py': 'text' },
  plugins: [katexAssets, integrityModule, limitsModule, mathModule, minifiedCss, loaderModule, filesModule(false)],
  banner: { js: '/* attention-lab.js: defines <attention-lab>, an interactive chapter 3 of "Build a Large Language Model (From Scratch)". Built by web/build.mjs from web/src/ (esbuild); KaTeX (MIT) comes from katex-lib.js beside it. */' },
  metafile: true,
  logLevel: 'warning',
});
const bundleBytes = fs.statSync(path.join(out, 'attention-lab.js')).size;

// The ES module entry for bundlers (package.json's "module" and "import"): the same sources, with
// "attention-lab-files" as imports, plus ES module copies of the scripts it imports (each with CJS_NAMES,
// so a bundler never tries to resolve the engine's require("fs"), Node's branch, never taken there).
await esbuild.build({
  entryPoints: [path.join(root, 'web/src/element.js')],
  outfile: path.join(out, 'attention-lab.mjs'),
  bundle: true, format: 'esm', target: ['es2020'], minify: !dev,
  loader: { '.css': 'text', '.py': 'text' },
  plugins: [katexAssets, integrityModule, limitsModule, mathModule, minifiedCss, loaderModule, filesModule(true)],
  banner: { js: '/* attention-lab.mjs: <attention-lab> as an ES module for bundlers (Vite, esbuild, webpack); the engines, KaTeX and its fonts are imports beside it. Built by web/build.mjs. */' },
  logLevel: 'warning',
});
const withoutBom = (text) => text.replace(/^\uFEFF/, '');
fs.writeFileSync(path.join(out, 'katex-lib.mjs'), [
  '/* katex-lib.mjs: KaTeX (MIT, https://katex.org) for attention-lab.mjs; built by web/build.mjs. */',
  'const module = { exports: {} }; const exports = module.exports; const define = undefined;',
  read(path.join(katexDir, 'katex.min.js')),
  `export const css = ${JSON.stringify(katexCssNoFonts)};`,
  'export default module.exports;', ''].join('\n'));
for (const [from, to, name] of [['engine/loader.js', 'engine/loader.mjs', 'globalThis.AttentionLabEngine'],
  ['engine/attention-lab-simd.js', 'engine/attention-lab-simd.mjs', 'createAttentionLab'], ['engine/attention-lab-scalar.js', 'engine/attention-lab-scalar.mjs', 'createAttentionLab']]) {
  if (!fs.existsSync(path.join(out, from))) continue;   // (warned above)
  fs.writeFileSync(path.join(out, to), `\uFEFF${CJS_NAMES}\n${withoutBom(read(path.join(out, from)))}\nexport default ${name};\n`);
}
fs.writeFileSync(path.join(out, 'engine-worker.mjs'), [
  "// engine-worker.mjs: engine-worker.js as a module Worker, its engines imported (attention-lab.mjs starts it).",
  "import loader from './engine/loader.mjs';",
  "import simd from './engine/attention-lab-simd.mjs';",
  "import scalar from './engine/attention-lab-scalar.mjs';",
  'self.attentionLabBundled = { load: (options) => loader.load({ ...options, factories: { simd: () => simd, scalar: () => scalar } }) };',
  read(path.join(root, 'web/engine-worker.js')), ''].join('\n'));
const sources = Object.keys(result.metafile.inputs).filter((f) => f.startsWith('web/src/'));


// The pages and their scripts as they are (index, embed, workers, and any other page kept in web/).
const TOOLS = new Set(['build.mjs', 'serve.mjs']);
for (const f of fs.readdirSync(path.join(root, 'web'))) {
  if (!TOOLS.has(f) && /\.(html|js|css)$/.test(f)) fs.copyFileSync(path.join(root, 'web', f), path.join(out, f));
}
// The host's types (web/types/*.d.ts) and the Custom Elements Manifest, for the package.
fs.mkdirSync(path.join(out, 'types'), { recursive: true });
for (const f of fs.readdirSync(path.join(root, 'web/types'))) fs.copyFileSync(path.join(root, 'web/types', f), path.join(out, 'types', f));
fs.copyFileSync(path.join(root, 'web/custom-elements.json'), path.join(out, 'custom-elements.json'));
// attention-lab/react: the React wrapper, beside the ES module it imports
fs.copyFileSync(path.join(root, 'web/react.mjs'), path.join(out, 'react.mjs'));
// author.json: the version and attention-lab.js's SRI hash, for author.html's snippets (version pin).
const version = JSON.parse(read(path.join(root, 'package.json'))).version;
const integrity = sha384(path.join(out, 'attention-lab.js'));
fs.writeFileSync(path.join(out, 'author.json'), JSON.stringify({ version, integrity }) + '\n');
fs.writeFileSync(path.join(out, 'integrity.json'), JSON.stringify({ 'attention-lab.js': integrity, ...integrityMap }, null, 2) + '\n');
// lms-files.json: the files an LMS package carries beside its launch page and manifest (web/lms-package.js):
// the element and every file it loads (the integrity map's scripts, KaTeX's cut fonts), the page's
// style and the package's SCORM runtime, lms.js.
const lmsFiles = ['attention-lab.js', ...Object.keys(integrityMap), ...fonts.map((f) => `katex/fonts/${f.file}`), 'page.css', 'lms.js'];
fs.writeFileSync(path.join(out, 'lms-files.json'), JSON.stringify(lmsFiles, null, 1) + '\n');

console.log(`build/web: attention-lab.js (${(bundleBytes / 1024).toFixed(0)} KiB${dev ? ', --dev' : ', minified'}), ${sources.length} modules, ${woff2.length} fonts, ${Object.keys(math.shapes).length} formula templates`);
