// A hostile or strict host page: section names that are Object.prototype keys, inherited text styles,
// a CSP that forbids workers, and Trusted Types. The element must show a sentence or work, never
// throw, leak the host's styles or trip the host's policy at load. Also: every code cell is Python.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { launch, startServer, newPage, waitForLab, unparsablePython } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

// A host page at the server's origin (beside attention-lab.js), served with the given CSP header.
async function hostPage(name, { csp, head = '', body }) {
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}${name}`, (route) => route.fulfill({
    status: 200, contentType: 'text/html; charset=utf-8', headers: csp ? { 'Content-Security-Policy': csp } : {},
    body: `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">${head}${body}<script src="attention-lab.js"></script>`,
  }));
  return { page, problems };
}

test('section names that are Object.prototype keys get the usual sentence, no uncaught error', async () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    const { page, problems } = await newPage(browser.context);
    await page.goto(`${server.url}?section=${name}`);
    const message = page.locator('[data-testid=lab-error]');
    await message.waitFor();
    assert.match(await message.textContent(), new RegExp(`section="${name}" is not a section\\. Use one of: all, batched, step-by-step, temperature, why-sqrt-dk, classes`));
    assert.deepEqual(problems, [], name);
  }
});

test('the host page\'s inherited text styles do not reach the widget', async () => {
  const { page, problems } = await hostPage('host-css.html', {
    head: '<style>body{text-transform:uppercase;letter-spacing:30px;word-spacing:40px;font-style:italic;text-align:right}</style>',
    body: '<attention-lab section="step-by-step"></attention-lab>',
  });
  await page.goto(`${server.url}host-css.html`);
  await waitForLab(page);
  const out = page.locator('[data-cell="3.4.1/query_2"]');
  // innerText applies text-transform; it is empty while content-visibility: auto skips the code's part,
  // so the part is brought on screen first and laid out in the frames after
  await out.scrollIntoViewIfNeeded();
  await out.evaluate((el) => new Promise((resolve) => { const check = () => (el.innerText ? resolve() : requestAnimationFrame(check)); check(); }));
  assert.match(await out.evaluate((el) => el.innerText), /^tensor\(\[/);
  const style = await out.evaluate((el) => { const s = getComputedStyle(el); return [s.textTransform, s.letterSpacing, s.wordSpacing, s.fontStyle]; });
  assert.deepEqual(style, ['none', 'normal', '0px', 'normal']);
  const heading = page.locator('attention-lab h2');
  assert.equal(await heading.evaluate((el) => getComputedStyle(el).textAlign), 'start');
  assert.deepEqual(problems, []);
});

test('a host CSP that forbids workers sees no violation at load; the element creates no worker', async () => {
  const { page, problems } = await hostPage('host-csp.html', {
    csp: "script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'",
    body: '<attention-lab></attention-lab>',
  });
  await page.addInitScript(() => {
    window.workersMade = 0;
    const Real = window.Worker;
    window.Worker = class extends Real { constructor(...a) { window.workersMade++; super(...a); } };
  });
  await page.goto(`${server.url}host-csp.html`);
  await waitForLab(page);
  assert.match(await page.locator('[data-testid=engine-footer]').textContent(), /^Engine: WebAssembly/);
  assert.equal(await page.evaluate(() => window.workersMade), 0);
  assert.deepEqual(problems, []);
});

test('under Trusted Types the element\'s own script loads (KaTeX, the engine loader) pass its policy', async () => {
  const { page } = await hostPage('host-tt.html', {
    csp: "script-src 'self' 'wasm-unsafe-eval'; require-trusted-types-for 'script'",
    body: '<attention-lab section="step-by-step" d-out="4"></attention-lab>',   // d_out = 4: formulas KaTeX renders at run time
  });
  await page.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(e.sourceFile));
  });
  await page.goto(`${server.url}host-tt.html`);
  await page.waitForFunction(() => self.AttentionLabKatex && self.AttentionLabEngine, null, { timeout: 30000 });
  // (engine/loader.js's own script load is its file's business, not the element's)
  const ours = (await page.evaluate(() => window.violations)).filter((file) => /attention-lab\.js/.test(file || ''));
  assert.deepEqual(ours, []);
});

test('every code cell is Python that parses', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  const cells = await page.locator('attention-lab code.language-python').evaluateAll((els) => els.map((el) => el.textContent));
  assert.ok(cells.length >= 30, `only ${cells.length} code cells`);
  assert.equal(await page.locator('attention-lab pre.code code:not(.language-python)').count(), 0);
  assert.deepEqual(unparsablePython(cells), []);
  assert.deepEqual(problems, []);
});
