// Security pass 3 (issue 21), the page's part: words refuse control characters (attribute, URL
// parameter, editor field); an attribute's error sentence quotes at most about 80 characters of a
// huge value; the KaTeX formula cache keeps only the last 64 formulas; host CSS reaches inside only
// through properties set on the attention-lab element itself, as README says.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const { ROOT, launch, startServer, newPage, waitForLab, openEditor, shownCells, settle } = require('./helpers');

const OUT = path.join(ROOT, 'build/tex-cache-fixture');
let browser, server, fixtureServer;
before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'fixtures/tex-cache-entry.js')],
    outfile: path.join(OUT, 'tex-cache.js'),
    bundle: true, format: 'iife', target: 'es2020', loader: { '.css': 'text' }, logLevel: 'error',
  });
  fs.writeFileSync(path.join(OUT, 'index.html'), '<!doctype html><meta charset="utf-8"><title>tex cache</title><link rel="icon" href="data:,"><script src="tex-cache.js"></script>');
  browser = await launch();
  server = await startServer();
  fixtureServer = await startServer(OUT);
});
after(async () => { await browser.close(); await server.close(); await fixtureServer.close(); });

async function pageWith(html) {
  const { page, problems } = await newPage(browser.context);
  await page.route('**/security-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">${html}<script src="attention-lab.js"></script>` }));
  await page.goto(`${server.url}security-test.html`);
  await waitForLab(page);
  return { page, problems };
}

const errorOf = (lab) => lab.locator('[data-testid=lab-error]').textContent();
const CONTROL = /cannot hold control characters/;

test('words with control characters are refused with a sentence: attribute, URL parameter, editor field', async () => {
  const words = (w) => JSON.stringify(['Your', w, 'starts', 'with', 'one', 'step']).replace(/&/g, '&amp;').replace(/'/g, '&#39;');
  const bad = ['jour\\u0000ney', 'a\\nimport os', 'a\\u0085b', 'a\\u2028b', 'tab\\there'];
  const { page, problems } = await pageWith(bad.map((w) => `<attention-lab section="classes" words='${words(JSON.parse(`"${w}"`))}'></attention-lab>`).join('\n')
    + '<attention-lab section="classes" words="Your jour&#1;ney starts with one step"></attention-lab>');
  const labs = page.locator('attention-lab');
  for (let i = 0; i <= bad.length; i++) {
    const text = await errorOf(labs.nth(i));
    assert.match(text, /^attention-lab: words="[^]*" word 2: A word cannot hold control characters/, `lab ${i}`);
    assert.equal(await labs.nth(i).evaluate((el) => el.shadowRoot.querySelectorAll('[data-cell], input, section').length), 0);
  }
  assert.deepEqual(problems, []);

  // embed.html's ?words= becomes the attribute
  const embed = await newPage(browser.context);
  const q = new URLSearchParams({ section: 'classes', words: 'Your journey starts with one st\u0000ep' });
  await embed.page.goto(`${server.url}embed.html?${q}`);
  await waitForLab(embed.page);
  assert.match(await errorOf(embed.page.locator('attention-lab')), CONTROL);
  assert.deepEqual(embed.problems, []);
});

test('the editor\'s word field refuses control characters and keeps the outputs', async () => {
  const { page, problems } = await pageWith('<attention-lab section="classes"></attention-lab>');
  await openEditor(page);
  const before = await shownCells(page);
  const field = page.locator('[data-testid="word-2"]');
  for (const value of ['jour\u0007ney', 'a\u0085b', 'a\u2029b']) {
    await field.fill(value);
    assert.equal(await field.getAttribute('aria-invalid'), 'true', JSON.stringify(value));
    const message = await page.evaluate((id) => document.querySelector('attention-lab').shadowRoot.getElementById(id).textContent, await field.getAttribute('aria-describedby'));
    assert.match(message, CONTROL);
    await settle(page);
    assert.deepEqual(await shownCells(page), before);
  }
  await field.fill('voyage');
  assert.equal(await field.getAttribute('aria-invalid'), null);
  assert.deepEqual(problems, []);
});

test('an attribute\'s error sentence quotes at most about 80 characters of the value', async () => {
  const { page, problems } = await pageWith('<attention-lab section="classes"></attention-lab><attention-lab section="classes"></attention-lab><attention-lab section="classes"></attention-lab>');
  const texts = await page.evaluate(async () => {
    const labs = [...document.querySelectorAll('attention-lab')];
    const deep = '['.repeat(10000) + ']'.repeat(10000);
    labs[0].setAttribute('inputs', `[[1, 2], [3, "${'x'.repeat(1 << 20)}"]]`);   // a 1 MB bad number
    labs[1].setAttribute('inputs', `[[1, 2], [3, ${deep}]]`);                     // 10,000-deep nesting
    labs[2].setAttribute('words', `["${'w'.repeat(1 << 20)}", "b", "c", "d", "e", "f"]`);
    const error = (lab) => lab.shadowRoot.querySelector('[data-testid=lab-error]')?.textContent;
    while (!labs.every(error)) await new Promise((r) => requestAnimationFrame(r));
    return labs.map(error);
  });
  assert.match(texts[0], /^attention-lab: inputs="\[\[1, 2\], \[3, "x+…" has "x+… in row 2, column 2; every value must be a number/);
  assert.match(texts[1], /has \[\[\[\[.*… in row 2, column 2/);
  assert.match(texts[2], /^attention-lab: words="\["w+…" word 1: Use at most 20 characters/);
  for (const t of texts) assert.ok(t.length < 400, `${t.length} characters: ${t.slice(0, 120)}`);
  assert.deepEqual(problems, []);
});

test('the formula cache keeps the last 64 formulas: an older one is rendered again, a recent one is not', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(fixtureServer.url);
  const result = await page.evaluate(async () => {
    await window.texCacheDemo.ready;
    const many = Array.from({ length: 100 }, (_, i) => `x_{${i}}`);
    const first = window.texCacheDemo.show(many);
    return { first: first.length, again: window.texCacheDemo.show(['x_{99}', 'x_{36}', 'x_{0}', 'x_{35}']), repeat: window.texCacheDemo.show(['x_{0}']) };
  });
  assert.equal(result.first, 100);
  // x_{36}..x_{99} are the last 64; x_{0} and x_{35} were dropped, and x_{0} is kept again once rendered
  assert.deepEqual(result.again, ['x_{0}', 'x_{35}']);
  assert.deepEqual(result.repeat, []);
  assert.deepEqual(problems, []);
});

test('host CSS: a property set on the attention-lab element reaches inside, the page\'s body rules do not, and the README\'s undo works', async () => {
  const spacing = (page) => page.evaluate(() => getComputedStyle(document.querySelector('attention-lab').shadowRoot.querySelector('p')).wordSpacing);
  const { page, problems } = await pageWith('<style>body { word-spacing: 20px; text-transform: uppercase }</style><attention-lab section="classes"></attention-lab>');
  assert.equal(await spacing(page), '0px');
  await page.addStyleTag({ content: 'attention-lab { word-spacing: 20px }' });
  assert.equal(await spacing(page), '20px');
  await page.addStyleTag({ content: 'attention-lab { word-spacing: normal; text-transform: none }' });
  assert.equal(await spacing(page), '0px');
  assert.deepEqual(problems, []);
});
