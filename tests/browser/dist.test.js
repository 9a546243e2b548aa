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

let browser, tmp;
before(async () => {
  // ./scripts/test builds dist/ first; a run of this file alone builds it when it is missing or older
  // than the page's bundle.
  const bundle = path.join(ROOT, 'build/web/attention-lab.js');
  const stale = (f) => !fs.existsSync(f) || (fs.existsSync(bundle) && fs.statSync(f).mtimeMs < fs.statSync(bundle).mtimeMs);
  if (stale(ZIP) || stale(TGZ)) execFileSync(path.join(ROOT, 'scripts/build'), ['dist'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  browser = await launch();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-dist-'));
});
after(async () => { await browser.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

test('the zip holds the static folder with README, LICENSE and CHANGELOG.md, and it works served', async () => {
  const dir = path.join(tmp, 'unzipped');
  fs.mkdirSync(dir);
  execFileSync('unzip', ['-q', ZIP, '-d', dir]);
  const site = path.join(dir, NAME);
  for (const f of ['index.html', 'embed.html', 'attention-lab.js', 'katex-lib.js', 'engine/loader.js',
    'engine/attention-lab-simd.js', 'engine/attention-lab-scalar.js', 'README.md', 'LICENSE', 'CHANGELOG.md']) {
    assert.ok(fs.existsSync(path.join(site, f)), `${f} is in the zip`);
  }
  assert.ok(!fs.existsSync(path.join(site, 'bench.html')), 'the benchmark page stays out of the release');
  assert.match(fs.readFileSync(path.join(site, 'CHANGELOG.md'), 'utf8'), new RegExp(`## ${VERSION.replace(/\./g, '\\.')}`));
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

test('SRI.txt lists each script with the SHA-384 of the file that ships', () => {
  const sri = fs.readFileSync(path.join(ROOT, 'dist/SRI.txt'), 'utf8');
  const line = sri.split('\n').find((l) => l.trim().startsWith('attention-lab.js '));
  assert.ok(line, 'attention-lab.js has a hash');
  const hash = require('node:crypto').createHash('sha384').update(fs.readFileSync(path.join(ROOT, 'dist/web/attention-lab.js'))).digest('base64');
  assert.equal(line.trim().split(/\s+/)[1], `sha384-${hash}`);
});

test('npm install of the tarball + esbuild: import registers the element, engine-base / configure find the moved engine', async () => {
  const project = path.join(tmp, 'consumer');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', TGZ], { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] });
  const pkg = path.join(project, 'node_modules/attention-lab');
  assert.equal(JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version, VERSION);

  // The consumer's site: its bundle in site/, the package's files copied to site/vendor/lab/ (so
  // nothing sits beside the bundle), as a bundler setup with a copy step would leave them.
  const site = path.join(project, 'site');
  fs.mkdirSync(path.join(site, 'vendor'), { recursive: true });
  fs.cpSync(path.join(pkg, 'dist/web'), path.join(site, 'vendor/lab'), { recursive: true });
  fs.writeFileSync(path.join(project, 'configure.js'), "import 'attention-lab';\nAttentionLab.configure({ base: './vendor/lab/' });\n");
  fs.writeFileSync(path.join(project, 'attribute.js'), "import 'attention-lab';\n");
  const esbuild = require(path.join(ROOT, 'node_modules/esbuild'));
  for (const entry of ['configure', 'attribute']) {
    await esbuild.build({ entryPoints: [path.join(project, `${entry}.js`)], outfile: path.join(site, `${entry}.bundle.js`), bundle: true, absWorkingDir: project, logLevel: 'error' });
  }
  fs.writeFileSync(path.join(site, 'configure.html'), `<!doctype html><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,">
<attention-lab section="step-by-step"></attention-lab><script src="configure.bundle.js"></script>`);
  fs.writeFileSync(path.join(site, 'attribute.html'), `<!doctype html><meta charset="utf-8"><title>consumer</title><link rel="icon" href="data:,">
<attention-lab section="classes" engine-base="vendor/lab/"></attention-lab><script src="attribute.bundle.js"></script>`);
  assert.ok(!fs.existsSync(path.join(site, 'engine')), 'no engine beside the bundles');

  const server = await startServer(site);
  try {
    for (const [file, cell] of [['configure.html', '3.4.1/attn_weights_2'], ['attribute.html', '3.4.2/sa_v2']]) {
      const { page, problems } = await newPage(browser.context);
      const requested = [];
      page.on('request', (r) => requested.push(new URL(r.url()).pathname));
      await page.goto(server.url + file);
      await waitForLab(page);
      assert.equal(await page.locator('attention-lab [data-testid=lab-error]').count(), 0, `${file}: no error`);
      const shown = await shownCells(page);
      assert.equal(shown[cell], cellLine(cell), `${file}: ${cell} as the book prints it`);
      assert.ok(requested.includes('/vendor/lab/engine/loader.js'), `${file}: the engine came from vendor/lab/`);
      assert.ok(!requested.some((p) => p.startsWith('/engine/')), `${file}: nothing asked beside the bundle`);
      assert.deepEqual(problems, [], file);
    }
  } finally {
    await server.close();
  }
});
