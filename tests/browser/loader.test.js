// bindings/loader.js on hostile hosts: a page whose CSP requires Trusted Types for scripts, and a
// page URL with ?engine=% (which does not decode). The host pages are served by the test itself
// (page.route), on the engine's own server, so only the loader is under test.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { launch, startServer, newPage } = require('./helpers');

let browser, server;
before(async () => {
  browser = await launch();
  server = await startServer();
});
after(async () => { await browser.close(); await server.close(); });

// A host page at `path` on the engine's server, sent with the given CSP, that loads only loader.js.
async function hostPage(path, csp) {
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}host.html*`, (route) => route.fulfill({
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', ...(csp ? { 'Content-Security-Policy': csp } : {}) },
    body: '<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">' +
      '<script src="engine/loader.js"></script>',
  }));
  await page.goto(server.url + path);
  return { page, problems };
}

test('under require-trusted-types-for \'script\' the loader starts both engines through its policy', async () => {
  const { page, problems } = await hostPage('host.html', "require-trusted-types-for 'script'");
  for (const kind of ['simd', 'scalar']) {
    const got = await page.evaluate(async (k) => {
      const { engine, kind } = await AttentionLabEngine.load({ kind: k });
      return { kind, print: engine.formatTensor(new Float32Array([1, 2]), [2]) };
    }, kind);
    assert.deepEqual(got, { kind, print: 'tensor([1., 2.])' });
  }
  assert.deepEqual(problems, []);  // no Trusted Types violation while loading
  // Trusted Types are enforced here: a plain string is refused as a script URL
  const refused = await page.evaluate(() => {
    const s = document.createElement('script');
    try { s.src = 'https://example.com/evil.js'; return 'assigned'; } catch (e) { return e.name; }
  });
  assert.equal(refused, 'TypeError');
  await page.close();
});

test('?engine=% makes load() reject its promise, not throw', async () => {
  const { page, problems } = await hostPage('host.html?engine=%');
  const outcome = await page.evaluate(() => {
    let promise;
    try { promise = AttentionLabEngine.load(); } catch (e) { return `threw ${e.name}`; }
    return promise.then(() => 'resolved', (e) => `rejected: ${e.message}`);
  });
  assert.equal(outcome, 'rejected: unknown engine "%": use "simd" or "scalar"');
  assert.deepEqual(problems, []);
  await page.close();
});
