// Where <attention-lab> loads its files from and what it checks (issues 21 and 24): each element's own
// approved folder (KaTeX, the engine and the timing's worker), the integrity map checked for every
// script (a tampered engine refused with a sentence), the loader's Trusted Types policy refusing
// another origin's engine, and the sentence for a CSP without 'wasm-unsafe-eval'. Chromium; the
// cross-origin engine-base and the strict CSP run in every engine (engines.test.js).
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { WEB, launch, startServer, newPage, waitForLab } = require('./helpers');

let browser, server, tmp;
before(async () => {
  browser = await launch();
  // build/web, plus a second copy of it in copy/ (another folder on the same origin) and a tampered
  // copy in tampered/ (its engines changed after the build)
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-loading-'));
  fs.cpSync(WEB, tmp, { recursive: true, filter: (src) => !src.includes(`${path.sep}vendor`) });
  for (const dir of ['copy', 'tampered', 'tampered-worker']) {
    for (const f of ['attention-lab.js', 'katex-lib.js', 'engine-worker.js', 'engine', 'katex']) fs.cpSync(path.join(WEB, f), path.join(tmp, dir, f), { recursive: true });
  }
  for (const kind of ['simd', 'scalar']) fs.appendFileSync(path.join(tmp, 'tampered/engine', `attention-lab-${kind}.js`), '\n;self.tampered = true;\n');
  fs.appendFileSync(path.join(tmp, 'tampered-worker/engine-worker.js'), '\n;self.tampered = true;\n');
  server = await startServer(tmp);
});
after(async () => { await browser.close(); await server.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

// A host page at `name` on the test's server, with an optional CSP header; body is its markup.
async function hostPage(name, { csp, body }) {
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}${name}`, (route) => route.fulfill({
    status: 200, contentType: 'text/html; charset=utf-8', headers: csp ? { 'Content-Security-Policy': csp } : {},
    body: `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">${body}`,
  }));
  const requested = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(`${server.url}${name}`);
  return { page, problems, requested };
}

const sha384 = (file) => `sha384-${crypto.createHash('sha384').update(fs.readFileSync(file)).digest('base64')}`;

test('integrity.json holds the SHA-384 of every script, and each script the element adds carries its hash', async () => {
  const map = JSON.parse(fs.readFileSync(path.join(WEB, 'integrity.json'), 'utf8'));
  for (const f of ['attention-lab.js', 'katex-lib.js', 'engine/loader.js', 'engine/attention-lab-simd.js', 'engine/attention-lab-scalar.js', 'engine-worker.js']) {
    assert.equal(map[f], sha384(path.join(WEB, f)), f);
  }
  // d_out = 4: formulas of a shape the build did not render, so KaTeX loads too
  const { page, problems } = await hostPage('sri.html', { body: '<attention-lab section="step-by-step" d-out="4"></attention-lab><script src="attention-lab.js"></script>' });
  await waitForLab(page);
  await page.waitForFunction(() => self.AttentionLabKatex);
  const scripts = await page.evaluate(() => [...document.scripts].filter((s) => s.integrity).map((s) => [new URL(s.src).pathname.slice(1), s.integrity]));
  // (the loader is part of attention-lab.js; the Worker's copy, engine/loader.js, is checked by the Worker)
  assert.deepEqual(Object.fromEntries(scripts), { 'katex-lib.js': map['katex-lib.js'], 'engine/attention-lab-simd.js': map['engine/attention-lab-simd.js'] });
  assert.deepEqual(problems, []);
});

test('a tampered engine file is not run: the element says which file differs from the build', async () => {
  const { page, problems } = await hostPage('tampered/host.html', { body: '<attention-lab section="temperature"></attention-lab><script src="attention-lab.js"></script>' });
  const message = page.locator('attention-lab [data-testid=lab-error]');
  await message.waitFor();
  assert.equal(await message.textContent(), `attention-lab could not start its engine: ${server.url}tampered/engine/attention-lab-simd.js is not the file this build of attention-lab.js recorded (its SHA-384 differs from the integrity map), so it was not run. Copy the files of one release together.`);
  assert.equal(await page.evaluate(() => self.tampered), undefined, 'the changed file never ran');
  // the browser's own report of the refused digest is the only problem
  assert.ok(problems.length > 0 && problems.every((p) => /integrity|digest/i.test(p)), JSON.stringify(problems));
});

test('a tampered worker file is not started: the timing says which file differs from the build', async () => {
  const { page, problems, requested } = await hostPage('tampered-worker/host.html', { body: '<attention-lab section="multi-head"></attention-lab><script src="attention-lab.js"></script>' });
  await waitForLab(page);
  await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=mha-run]').click());
  await page.waitForFunction(() => /recorded/.test(document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=mha-status]').textContent));
  assert.equal(await page.locator('attention-lab [data-testid=mha-status]').textContent(),
    `The worker failed: ${server.url}tampered-worker/engine-worker.js is not the file this build of attention-lab.js recorded (its SHA-384 differs from the integrity map), so it was not run. Copy the files of one release together.`);
  assert.ok(requested.filter((u) => u.endsWith('engine-worker.js')).length >= 1, 'its bytes were fetched to be checked');
  assert.ok(problems.every((p) => /integrity|digest/i.test(p)), JSON.stringify(problems));
});

// The timing's text once it settled on a time or a failure.
async function runTiming(page) {
  await waitForLab(page);
  await page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    root.querySelector('[data-section=multi-head] select').value = '128';
    root.querySelector('[data-testid=mha-run]').click();
  });
  const status = 'attention-lab [data-testid=mha-status]';
  await page.waitForFunction((s) => /ms for the forward pass|failed|T = 128: /.test(document.querySelector('attention-lab').shadowRoot.querySelector(s.split(' ')[1]).textContent), status);
  return page.locator(status).textContent();
}

test('the timing\'s worker runs the bytes that were checked: a server that answers a second request differently is never run', async () => {
  // race/: each of the worker's three files is the build's until it has been fetched for checking, and a
  // changed file on every later request (a check, then a second download, would run the changed one)
  const served = new Map(), checked = new Set();
  const { page, problems } = await newPage(browser.context);
  await page.route(/\/race\/(engine-worker\.js|engine\/loader\.js|engine\/attention-lab-(simd|scalar)\.js)$/, async (route) => {
    const file = new URL(route.request().url()).pathname.replace('/race/', '');
    served.set(file, (served.get(file) || 0) + 1);
    const changedNow = checked.has(file);
    if (route.request().resourceType() === 'fetch') checked.add(file);
    const genuine = fs.readFileSync(path.join(WEB, file), 'utf8');
    const changed = 'self.onmessage = (e) => self.postMessage({ tokens: e.data.tokens, error: "the changed file ran" });';
    await route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'Access-Control-Allow-Origin': '*' }, body: changedNow ? changed + genuine : genuine });
  });
  for (const f of ['attention-lab.js', 'katex-lib.js', 'engine-worker.js', 'engine', 'katex']) fs.cpSync(path.join(WEB, f), path.join(tmp, 'race', f), { recursive: true });
  await page.route(`${server.url}race/host.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8',
    body: '<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"><attention-lab section="multi-head"></attention-lab><script src="attention-lab.js"></script>' }));
  await page.goto(`${server.url}race/host.html`);
  assert.match(await runTiming(page), /^T = 128: [\d.]+ ms for the forward pass\.$/);
  assert.equal(served.get('engine-worker.js'), 1, 'the worker\'s file was downloaded once');
  assert.equal(served.get('engine/loader.js'), 1, 'the loader was downloaded once (for the worker)');
  assert.deepEqual([...checked].sort(), ['engine-worker.js', 'engine/attention-lab-simd.js', 'engine/loader.js'], 'each was fetched to be checked');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the documented strict CSP sent with every response (a server-wide header): the page and the timing\'s worker work, with no violation', async () => {
  const { documentedCsp } = require('./engines/server');
  const csp = documentedCsp();
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}favicon.svg`, (route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', headers: { 'Content-Security-Policy': csp }, body: '<svg xmlns="http://www.w3.org/2000/svg"/>' }));
  await page.route((url) => url.href.startsWith(server.url) && !/\/(everywhere\.html|favicon\.svg)$/.test(url.pathname), async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
  });
  await page.route(`${server.url}everywhere.html`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'Content-Security-Policy': csp },
    body: '<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="favicon.svg"><attention-lab section="multi-head"></attention-lab><script src="attention-lab.js"></script>' }));
  await page.goto(`${server.url}everywhere.html`);
  assert.match(await runTiming(page), /^T = 128: [\d.]+ ms for the forward pass\.$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('engine-base is per element: each element\'s engine and timing worker come from its own folder', async () => {
  const { page, problems, requested } = await hostPage('per-element.html', {
    body: '<attention-lab id="a" section="multi-head" engine-base="copy/" engine="scalar"></attention-lab><attention-lab id="b" section="multi-head"></attention-lab><script src="attention-lab.js"></script>',
  });
  await waitForLab(page);
  const paths = () => requested.map((u) => new URL(u).pathname);
  assert.ok(paths().includes('/copy/engine/attention-lab-scalar.js'), 'element a\'s engine from copy/');
  for (const [id, worker] of [['b', '/engine-worker.js'], ['a', '/copy/engine-worker.js']]) {
    const before = requested.length;
    await page.evaluate((id) => {
      const root = document.getElementById(id).shadowRoot;
      root.querySelector('[data-section=multi-head] select').value = '128';
      root.querySelector('[data-testid=mha-run]').click();
    }, id);
    await page.waitForFunction((id) => document.getElementById(id).shadowRoot.querySelector('[data-testid=mha-ms-128]'), id, { timeout: 60000 });
    const asked = paths().slice(before).filter((p) => p.endsWith('engine-worker.js'));
    assert.deepEqual([...new Set(asked)], [worker], `element ${id}'s worker`);
  }
  assert.deepEqual(problems, []);
});

test('a refused engine-base loads once the page\'s script allows its folder with configure({allowBases})', async () => {
  const other = server.url.replace('127.0.0.1', 'localhost');
  // a file the server serves (Chromium lets only a page from the loopback address space ask loopback
  // hosts, and a page fulfilled by page.route counts as public)
  fs.writeFileSync(path.join(tmp, 'allow-later.html'), `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">
<attention-lab section="temperature" engine-base="${other}copy/"></attention-lab><script src="attention-lab.js"></script>`);
  const { page, problems } = await newPage(browser.context);
  const requested = [];
  page.on('request', (r) => requested.push(r.url()));
  await page.goto(`${server.url}allow-later.html`);
  const message = page.locator('attention-lab [data-testid=lab-error]');
  await message.waitFor();
  assert.match(await message.textContent(), /is on another origin/);
  assert.deepEqual(requested.filter((u) => u.startsWith(other)), []);
  await page.evaluate((folder) => AttentionLab.configure({ allowBases: [folder] }), `${other}copy/`);
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=engine-footer]'), null, { timeout: 30000 })
    .catch(async () => { throw new Error(`no footer: ${await message.textContent().catch(() => '')}`); });
  await waitForLab(page);
  assert.equal(await message.count(), 0);
  assert.ok(requested.some((u) => u === `${other}copy/engine/attention-lab-simd.js`), 'the engine came from the allowed folder');
  assert.deepEqual(problems, []);
});

test('the loader\'s Trusted Types policy refuses another origin\'s engine file, and asks nothing of it', async () => {
  const other = server.url.replace('127.0.0.1', 'localhost');
  const { page, problems, requested } = await hostPage('tt-loader.html', {
    csp: "require-trusted-types-for 'script'; trusted-types attention-lab",
    body: '<script src="engine/loader.js"></script>',
  });
  const outcome = await page.evaluate((base) => AttentionLabEngine.load({ kind: 'scalar', base }).then(() => 'loaded', (e) => e.message), `${other}engine/`);
  assert.equal(outcome, `attention-lab's loader loads only its engine files from its own origin (${server.url.slice(0, -1)}), not ${other}engine/attention-lab-scalar.js`);
  assert.deepEqual(requested.filter((u) => u.startsWith(other)), []);
  // its own folder still works under the same policy
  assert.equal(await page.evaluate(() => AttentionLabEngine.load({ kind: 'scalar' }).then((r) => r.kind)), 'scalar');
  assert.deepEqual(problems, []);
});

test('a CSP without \'wasm-unsafe-eval\' gets one sentence that names it', async () => {
  const { page } = await hostPage('no-wasm.html', {
    csp: "script-src 'self'",
    body: '<attention-lab section="temperature"></attention-lab><script src="attention-lab.js"></script>',
  });
  const message = page.locator('attention-lab [data-testid=lab-error]');
  await message.waitFor({ timeout: 30000 });
  assert.equal(await message.textContent(), 'attention-lab could not start its engine: the page\'s Content Security Policy does not allow WebAssembly: add \'wasm-unsafe-eval\' to its script-src.');
});
