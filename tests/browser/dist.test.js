// The release (./scripts/build dist): the zip unzipped into an empty folder and served works, and the
// npm tarball installed offline into a fresh project, bundled by esbuild with the engine files copied
// elsewhere, finds them through AttentionLab.configure({base}) or the engine-base attribute.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT, cellLine, launch, startServer, newPage, waitForLab, shownCells } = require('./helpers');

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const NAME = `attention-lab-${VERSION}`;
const ZIP = path.join(ROOT, 'dist', `${NAME}.zip`);
const TGZ = path.join(ROOT, 'dist', `${NAME}.tgz`);
const SCORM = { '1.2': path.join(ROOT, 'dist', `${NAME}-scorm12.zip`), '2004 4th Edition': path.join(ROOT, 'dist', `${NAME}-scorm2004.zip`) };

let browser, tmp;
before(async () => {
  // ./scripts/test builds dist/ first; a run of this file alone builds it when it is missing or older
  // than the page's bundle.
  const bundle = path.join(ROOT, 'build/web/attention-lab.js');
  const stale = (f) => !fs.existsSync(f) || (fs.existsSync(bundle) && fs.statSync(f).mtimeMs < fs.statSync(bundle).mtimeMs);
  if ([ZIP, TGZ, ...Object.values(SCORM)].some(stale)) execFileSync(path.join(ROOT, 'scripts/build'), ['dist'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  browser = await launch();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-dist-'));
});
after(async () => { await browser.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

test('the zip holds the static folder as web/ (no Markdown in it), with README, LICENSE, CHANGELOG.md and serve.mjs beside it, and it works served', async () => {
  const dir = path.join(tmp, 'unzipped');
  fs.mkdirSync(dir);
  execFileSync('unzip', ['-q', ZIP, '-d', dir]);
  const top = path.join(dir, NAME), site = path.join(top, 'web');
  for (const f of ['index.html', 'embed.html', 'embed-params.js', 'author.html', 'attention-lab.js', 'katex-lib.js', 'engine/loader.js',
    'engine/attention-lab-simd.js', 'engine/attention-lab-scalar.js']) {
    assert.ok(fs.existsSync(path.join(site, f)), `web/${f} is in the zip`);
  }
  for (const f of ['README.md', 'LICENSE', 'CHANGELOG.md', 'serve.mjs']) assert.ok(fs.existsSync(path.join(top, f)), `${f} is in the zip`);
  // a site generator (MkDocs) renders any Markdown file of a copied folder as a page: README.md over index.html
  const markdown = execFileSync('find', [site, '-name', '*.md']).toString().trim();
  assert.equal(markdown, '', 'no Markdown file in the served folder');
  assert.ok(!fs.existsSync(path.join(site, 'bench.html')), 'the benchmark page stays out of the release');
  assert.match(fs.readFileSync(path.join(top, 'CHANGELOG.md'), 'utf8'), new RegExp(`## ${VERSION.replace(/\./g, '\\.')}`));
  // the manual's server, as the zip has it: `node serve.mjs` serves web/ beside it
  const child = require('node:child_process').spawn(process.execPath, ['serve.mjs', '', '0'], { cwd: top });
  try {
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (d) => { const m = /http:\/\/localhost:(\d+)\//.exec(String(d)); if (m) resolve(`http://127.0.0.1:${m[1]}/`); });
      child.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    });
    const index = await fetch(`${url}index.html`);
    assert.equal(index.status, 200);
    assert.match(await index.text(), /attention-lab\.js/);
  } finally {
    child.kill();
  }
  const server = await startServer(site);
  try {
    const { page, problems } = await newPage(browser.context);
    await page.goto(server.url);
    await waitForLab(page);
    const shown = await shownCells(page);
    for (const id of ['3.4.1/attn_weights_2', '3.4.2/sa_v1', '3.4.2/sa_v2', '3.5.3/context_vecs']) {
      assert.equal(shown[id], cellLine(id), `${id} as the book prints it`);
    }
    assert.equal(await page.evaluate(() => window.AttentionLab.version), VERSION);
    assert.deepEqual(problems, []);
  } finally {
    await server.close();
  }
});

test('the SCORM 1.2 and 2004 packages: a well-formed imsmanifest.xml at the root whose SCO lists every file of the zip, and the files the launch page loads', async () => {
  const { page, problems } = await newPage(browser.context);
  for (const [schemaversion, zip] of Object.entries(SCORM)) {
    const files = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    assert.equal(files[0], 'imsmanifest.xml', 'the manifest first, at the root');
    const text = execFileSync('unzip', ['-p', zip, 'imsmanifest.xml']).toString();
    // read as an LMS reads it: an XML parser (the browser's), namespaces and all
    const m = await page.evaluate((xml) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
      const all = (name) => [...doc.getElementsByTagName('*')].filter((e) => e.localName === name);
      const orgs = all('organizations')[0];
      const org = all('organization').find((o) => o.getAttribute('identifier') === orgs.getAttribute('default'));
      const item = org && [...org.getElementsByTagName('*')].find((e) => e.localName === 'item');
      const resource = item && all('resource').find((r) => r.getAttribute('identifier') === item.getAttribute('identifierref'));
      return { ns: doc.documentElement.namespaceURI, schema: all('schema')[0]?.textContent, schemaversion: all('schemaversion')[0]?.textContent,
        org: Boolean(org), href: resource?.getAttribute('href'), scormType: resource && (resource.getAttribute('adlcp:scormtype') || resource.getAttribute('adlcp:scormType')),
        files: resource ? [...resource.getElementsByTagName('*')].filter((e) => e.localName === 'file').map((f) => f.getAttribute('href')) : [],
        mastery: (all('masteryscore')[0] || all('minNormalizedMeasure')[0])?.textContent };
    }, text);
    assert.equal(m.error, undefined, `${zip}: ${m.error}`);
    assert.deepEqual([m.schema, m.schemaversion, m.org, m.href, m.scormType], ['ADL SCORM', schemaversion, true, 'index.html', 'sco']);
    assert.equal(m.ns, schemaversion === '1.2' ? 'http://www.imsproject.org/xsd/imscp_rootv1p1p2' : 'http://www.imsglobal.org/xsd/imscp_v1p1');
    assert.equal(m.mastery, schemaversion === '1.2' ? '80' : '0.8');
    assert.deepEqual(m.files.slice().sort(), files.filter((f) => f !== 'imsmanifest.xml').sort(), 'the SCO lists every file of the zip, and only those');
    // what the launch page and the element load is in the zip
    const launch = execFileSync('unzip', ['-p', zip, 'index.html']).toString();
    for (const src of [...launch.matchAll(/(?:src|href)="([^":]+)"/g)].map((x) => x[1])) assert.ok(files.includes(src), `${src} is in ${path.basename(zip)}`);
    for (const f of ['engine/loader.js', 'engine/attention-lab-simd.js', 'engine/attention-lab-scalar.js', 'katex-lib.js', 'engine-worker.js', 'lms.js']) assert.ok(files.includes(f), `${f} is in ${path.basename(zip)}`);
    assert.match(launch, new RegExp(`<attention-lab section="all" data-scorm="${schemaversion === '1.2' ? '1.2' : '2004'}" data-mastery-score="0.8">`));
    execFileSync('unzip', ['-tq', zip]);
  }
  assert.deepEqual(problems, []);
});

test('MkDocs: the zip\'s web/ folder in a site\'s docs/, loaded as docs/notebooks.md says, passes --strict and shows the numbers', async () => {
  const dir = path.join(tmp, 'mkdocs');
  fs.mkdirSync(path.join(dir, 'docs'), { recursive: true });
  execFileSync('unzip', ['-q', ZIP, '-d', path.join(dir, 'zip')]);
  fs.cpSync(path.join(dir, 'zip', NAME, 'web'), path.join(dir, 'docs/attention-lab'), { recursive: true });
  // (the theme's highlight.js comes from a CDN: off, as the tests make no network requests)
  fs.writeFileSync(path.join(dir, 'mkdocs.yml'), 'site_name: Course\ntheme:\n  name: mkdocs\n  highlightjs: false\nextra_javascript:\n  - attention-lab/attention-lab.js\n');
  fs.mkdirSync(path.join(dir, 'docs/lessons'));
  fs.writeFileSync(path.join(dir, 'docs/index.md'), '# Course\n\n[Lesson](lessons/attention.md)\n');
  fs.writeFileSync(path.join(dir, 'docs/lessons/attention.md'), '# Attention\n\n<attention-lab section="classes"></attention-lab>\n');
  try {
    execFileSync('mkdocs', ['build', '--strict'], { cwd: dir, stdio: 'pipe' });
  } catch (e) {
    assert.fail(`mkdocs build --strict failed:\n${e.stdout}${e.stderr}`);
  }
  // the lesson is a page one folder down (lessons/attention/): the script's URL is relative to it
  const { page } = await showsTheBook(path.join(dir, 'site'), 'lessons/attention/', '3.4.2/sa_v2');
  await page.close();
});

test('SRI.txt lists each script with the SHA-384 of the file that ships', () => {
  const sri = fs.readFileSync(path.join(ROOT, 'dist/SRI.txt'), 'utf8');
  const line = sri.split('\n').find((l) => l.trim().startsWith('attention-lab.js '));
  assert.ok(line, 'attention-lab.js has a hash');
  const hash = require('node:crypto').createHash('sha384').update(fs.readFileSync(path.join(ROOT, 'dist/web/attention-lab.js'))).digest('base64');
  assert.equal(line.trim().split(/\s+/)[1], `sha384-${hash}`);
});

// The tarball installed offline into a fresh project (node_modules/attention-lab), once for the tests below.
let project;
function consumerProject() {
  if (project) return project;
  project = path.join(tmp, 'consumer');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', TGZ], { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] });
  assert.equal(JSON.parse(fs.readFileSync(path.join(project, 'node_modules/attention-lab/package.json'), 'utf8')).version, VERSION);
  return project;
}

// Opens file on a server of site and checks that the element shows the book's numbers for cell, that
// nothing failed to load, and returns the paths it asked for. more(page): further checks on the page;
// expected404: the failed requests it expects (as regular expressions of their URLs).
async function showsTheBook(site, file, cell, more = async () => {}, expected404 = []) {
  const server = await startServer(site);
  try {
    const { page, problems } = await newPage(browser.context);
    const requested = [], failed = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
    await page.goto(server.url + file);
    await waitForLab(page);
    assert.equal(await page.locator('attention-lab [data-testid=lab-error]').count(), 0, `${file}: no error`);
    const shown = await shownCells(page);
    assert.equal(shown[cell], cellLine(cell), `${file}: ${cell} as the book prints it`);
    // Every formula rendered: from the build's templates, and where a page has formulas without one (an
    // element with d-out="4"), by KaTeX, which came in (its module or script); its fonts are the bundler's files
    await page.waitForFunction(() => [...document.querySelectorAll('attention-lab')].every((lab) => [...lab.shadowRoot.querySelectorAll('.math')].every((b) => b.querySelector('.katex'))));
    if (await page.locator('attention-lab[d-out="4"]').count()) {
      assert.ok(await page.evaluate(() => Boolean(self.AttentionLabKatex && self.AttentionLabKatex.render)), `${file}: KaTeX loaded`);
    }
    await page.evaluate(() => document.fonts.ready);
    await more(page);
    assert.deepEqual(failed.filter((f) => !expected404.some((re) => re.test(f))), [], `${file}: every request answered`);
    assert.deepEqual(problems.filter((p) => !(expected404.length && /404/.test(p))), [], file);
    return { page, requested };
  } finally {
    await server.close();
  }
}

test('the npm package lists only what a user needs: both entries, the engines, KaTeX and its fonts, no test pages or source maps', () => {
  const files = execFileSync('tar', ['-tzf', TGZ]).toString().trim().split('\n').map((f) => f.replace(/^package\//, ''));
  for (const f of ['package.json', 'README.md', 'LICENSE', 'dist/web/attention-lab.js', 'dist/web/attention-lab.mjs', 'dist/web/katex-lib.js', 'dist/web/katex-lib.mjs',
    'dist/web/engine/loader.js', 'dist/web/engine/loader.mjs', 'dist/web/engine/attention-lab-simd.js', 'dist/web/engine/attention-lab-simd.mjs',
    'dist/web/engine/attention-lab-scalar.js', 'dist/web/engine/attention-lab-scalar.mjs', 'dist/web/engine-worker.js', 'dist/web/engine-worker.mjs',
    'dist/web/integrity.json', 'dist/web/embed.html', 'dist/web/embed.js', 'dist/web/embed-params.js', 'dist/web/page.css',
    'dist/web/katex/fonts/KaTeX_Main-Regular.woff2']) {
    assert.ok(files.includes(f), `${f} is in the package`);
  }
  assert.deepEqual(files.filter((f) => f.endsWith('.map') || (f.endsWith('.html') && f !== 'dist/web/embed.html')), [], 'no source map, no page but embed.html');
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  for (const field of ['main', 'module', 'types', 'repository', 'homepage', 'bugs']) assert.ok(pkg[field], `package.json has ${field}`);
  assert.equal(pkg.exports['.'].import, `./${pkg.module}`);
  assert.equal(pkg.exports['.'].require, `./${pkg.main}`);
});

test('embed.html from the installed package (author.html\'s default CDN folder) shows the book\'s numbers', async () => {
  const site = path.join(consumerProject(), 'node_modules/attention-lab/dist/web');
  const { page } = await showsTheBook(site, 'embed.html?section=classes', '3.4.2/sa_v2');
  await page.close();
});

test('Node imports and requires the package without a DOM, and defines nothing', () => {
  const dir = consumerProject();
  const out = execFileSync('node', ['--input-type=module', '-e',
    "await import('attention-lab'); const { createRequire } = await import('node:module'); createRequire(import.meta.url)('attention-lab'); console.log(typeof globalThis.AttentionLab, typeof globalThis.document);"],
  { cwd: dir }).toString().trim();
  assert.equal(out, 'undefined undefined');
});

test('esbuild: import \'attention-lab\' with README\'s one line (the .woff2 file loader) shows the book\'s numbers, nothing copied by hand', async () => {
  const dir = consumerProject();
  const site = path.join(dir, 'esbuild-site');
  fs.mkdirSync(site, { recursive: true });
  fs.writeFileSync(path.join(dir, 'app.js'), "import 'attention-lab';\n");
  const esbuild = require(path.join(ROOT, 'node_modules/esbuild'));
  await esbuild.build({ entryPoints: [path.join(dir, 'app.js')], outfile: path.join(site, 'app.js'), bundle: true, absWorkingDir: dir, logLevel: 'error',
    loader: { '.woff2': 'file' } });   // README's one line for esbuild
  fs.writeFileSync(path.join(site, 'index.html'), `<!doctype html><meta charset="utf-8"><title>esbuild consumer</title><link rel="icon" href="data:,">
<attention-lab section="step-by-step" d-out="4"></attention-lab><attention-lab section="step-by-step"></attention-lab><attention-lab id="mh" section="multi-head"></attention-lab><script src="app.js"></script>`);
  assert.deepEqual(fs.readdirSync(site).filter((f) => f.endsWith('.js')), ['app.js'], 'one script: the engines and KaTeX are inside it');
  const { requested } = await showsTheBook(site, 'index.html', '3.4.1/attn_weights_2', async (page) => {
    // esbuild emits no worker: the timing says so in a sentence (the 404 of its file is expected)
    await page.evaluate(() => document.getElementById('mh').shadowRoot.querySelector('[data-testid=mha-run]').click());
    const status = page.locator('#mh [data-testid=mha-status]');
    await page.waitForFunction(() => /did not start/.test(document.getElementById('mh').shadowRoot.querySelector('[data-testid=mha-status]').textContent));
    assert.match(await status.textContent(), /^The worker failed: the timing's Web Worker \(engine-worker\.mjs\) did not start: this bundle has no copy of it \(esbuild emits none; Vite does\)\./);
  }, [/engine-worker\.mjs/]);
  assert.ok(requested.some((p) => /^\/KaTeX_[\w-]+\.woff2$/.test(p)), `a KaTeX font came from esbuild's file: ${requested}`);
});

test('Vite 7: import \'attention-lab\' with no configuration shows the book\'s numbers, and the timing\'s worker runs', async () => {
  const dir = consumerProject();
  const app = path.join(dir, 'vite-app');
  fs.mkdirSync(app, { recursive: true });
  fs.writeFileSync(path.join(app, 'main.js'), "import 'attention-lab';\n");
  fs.writeFileSync(path.join(app, 'index.html'), `<!doctype html><meta charset="utf-8"><title>Vite consumer</title><link rel="icon" href="data:,">
<attention-lab section="multi-head"></attention-lab><attention-lab section="step-by-step" d-out="4"></attention-lab><script type="module" src="./main.js"></script>`);
  const vite = await import(require.resolve('vite', { paths: [ROOT] }));
  await vite.build({ root: app, logLevel: 'error', configFile: false, build: { outDir: path.join(app, 'dist') } });
  await showsTheBook(path.join(app, 'dist'), 'index.html', '3.6.1/context_vecs', async (page) => {
    await page.evaluate(() => {
      const root = document.querySelector('attention-lab').shadowRoot;
      root.querySelector('[data-section=multi-head] select').value = '128';
      root.querySelector('[data-testid=mha-run]').click();
    });
    await page.locator('attention-lab [data-testid=mha-ms-128]').waitFor({ timeout: 60000 });
    assert.ok(Number(await page.locator('attention-lab [data-testid=mha-ms-128]').textContent()) > 0);
  });
});

test('npm install of the tarball + esbuild: configure({base}) or engine-base load the package\'s classic files from another folder', async () => {
  const dir = consumerProject();
  const pkg = path.join(dir, 'node_modules/attention-lab');
  // The consumer's site: its bundle in site/, the package's files copied to site/vendor/lab/ (so
  // nothing sits beside the bundle), as a bundler setup with a copy step would leave them.
  const site = path.join(dir, 'site');
  fs.mkdirSync(path.join(site, 'vendor'), { recursive: true });
  fs.cpSync(path.join(pkg, 'dist/web'), path.join(site, 'vendor/lab'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'configure.js'), "import 'attention-lab';\nAttentionLab.configure({ base: './vendor/lab/' });\n");
  fs.writeFileSync(path.join(dir, 'attribute.js'), "import 'attention-lab';\n");
  const esbuild = require(path.join(ROOT, 'node_modules/esbuild'));
  for (const entry of ['configure', 'attribute']) {
    await esbuild.build({ entryPoints: [path.join(dir, `${entry}.js`)], outfile: path.join(site, `${entry}.bundle.js`), bundle: true, absWorkingDir: dir, logLevel: 'error', loader: { '.woff2': 'file' } });
  }
  fs.writeFileSync(path.join(site, 'configure.html'), `<!doctype html><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,">
<attention-lab section="step-by-step" d-out="4"></attention-lab><attention-lab section="step-by-step"></attention-lab><script src="configure.bundle.js"></script>`);
  fs.writeFileSync(path.join(site, 'attribute.html'), `<!doctype html><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,">
<attention-lab section="classes" engine-base="vendor/lab/"></attention-lab><script src="attribute.bundle.js"></script>`);
  assert.ok(!fs.existsSync(path.join(site, 'engine')), 'no engine beside the bundles');
  for (const [file, cell] of [['configure.html', '3.4.1/attn_weights_2'], ['attribute.html', '3.4.2/sa_v2']]) {
    const { requested } = await showsTheBook(site, file, cell);
    assert.ok(requested.includes('/vendor/lab/engine/attention-lab-simd.js'), `${file}: the engine came from vendor/lab/`);
    assert.ok(!requested.some((p) => p.startsWith('/engine/')), `${file}: nothing asked beside the bundle`);
  }
});
