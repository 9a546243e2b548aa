// For course authors: <attention-lab> configured by its attributes (words, inputs, seed, d-out,
// temperature) shows PyTorch's prints for inputs of other sizes (tests/fixtures/author_cases.json,
// made by scripts/make_reference_cases.py author); changes apply live; a bad value is a sentence
// naming the attribute and nothing else; embed.html takes the same values as URL parameters. author.html
// offers every section, an accent and a font, takes only an http(s) folder URL (Chromium and Firefox
// ESR), warns when an iframe's parameter is over embed.html's limit, and writes heights that fit.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, cellLine, launch, startServer, newPage, waitForLab, shownCells, layOutEverySection } = require('./helpers');

const CASES = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/author_cases.json'), 'utf8')).cases;
const esc = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const attrs = (c) => `words="${esc(JSON.stringify(c.words))}" inputs="${esc(JSON.stringify(c.inputs))}" d-out="${c.d_out}"${c.seed === null ? '' : ` seed="${c.seed}"`}`;

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

async function pageWith(html) {
  const { page, problems } = await newPage(browser.context);
  await page.route('**/author-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">${html}<script src="attention-lab.js"></script>` }));
  await page.goto(`${server.url}author-test.html`);
  await waitForLab(page);
  return { page, problems };
}

for (const c of CASES) {
  test(`attributes: ${c.name} → PyTorch's prints`, async () => {
    const { page, problems } = await pageWith(`<attention-lab ${attrs(c)}></attention-lab>`);
    assert.equal(await page.locator('attention-lab [data-testid=lab-error]').count(), 0);
    const shown = await shownCells(page);
    // every cell the page prints equals PyTorch's print (W_query is drawn as a matrix, not printed)
    for (const id of ['3.4.1/query_2', '3.4.1/attn_weights_2', '3.4.1/context_vec_2', '3.4.2/sa_v1', '3.4.2/sa_v2', '3.5.3/context_vecs']) assert.ok(id in shown, `${id} is shown`);
    for (const [id, print] of Object.entries(c.cells)) if (id in shown) assert.equal(shown[id], print, id);
    // the words are the author's; no text quotes the book's numbers
    // (the train section's drawn weights left out: its module, trained on the author's inputs, has
    // random weights of its own, and with 135 of them one may equal a book value to 4 decimals by
    // chance: W_q with seed 7 holds 0.3061; the engine's numbers there are checked in train.test.js)
    const text = await page.evaluate(() => {
      const walker = document.createTreeWalker(document.querySelector('attention-lab').shadowRoot, NodeFilter.SHOW_TEXT);
      let all = '';
      while (walker.nextNode()) if (!walker.currentNode.parentElement.closest('[data-section=train] .mv-cell')) all += walker.currentNode.data;
      return all;
    });
    assert.ok(text.includes(c.words[1]), 'the author\'s words are shown');
    for (const book of ['1.8524', '0.3061', '0.8210', 'journey']) assert.ok(!text.includes(book), `no book value ${book} in the text`);
    assert.deepEqual(problems, []);
  });
}

test('attribute changes apply live; removing them brings the book back', async () => {
  const c = CASES[0];
  const { page, problems } = await pageWith('<attention-lab section="classes"></attention-lab>');
  assert.equal((await shownCells(page))['3.4.2/sa_v2'], cellLine('3.4.2/sa_v2'));
  await page.evaluate(({ words, inputs, d_out, seed }) => {
    const lab = document.querySelector('attention-lab');
    lab.setAttribute('words', JSON.stringify(words));
    lab.setAttribute('inputs', JSON.stringify(inputs));
    lab.setAttribute('d-out', String(d_out));
    lab.setAttribute('seed', String(seed));
  }, c);
  await waitForLab(page);
  await page.waitForFunction(() => !!document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=engine-footer]'));
  await waitForLab(page);
  assert.equal((await shownCells(page))['3.4.2/sa_v2'], c.cells['3.4.2/sa_v2']);
  await page.evaluate(() => { const lab = document.querySelector('attention-lab'); for (const a of ['words', 'inputs', 'd-out', 'seed']) lab.removeAttribute(a); });
  await waitForLab(page);
  assert.equal((await shownCells(page))['3.4.2/sa_v2'], cellLine('3.4.2/sa_v2'));
  assert.deepEqual(problems, []);
});

test('a bad value: a sentence naming the attribute and what to change, nothing else rendered', async () => {
  const bad = [
    ['inputs="[[1, 2], [3]]"', /inputs=.*row 2.*give every row 2/],
    ['inputs="[[1, 2]]"', /inputs=.*has 1 row\..*2 to 16 rows/],
    ['inputs="not json"', /inputs=.*not a JSON array/],
    ['words="a b c"', /words="a b c" has 3 words but the inputs have 6 rows/],
    ['seed="-1"', /seed="-1" is not a seed/],
    ['d-out="17"', /d-out="17" is not a d_out.*1 to 16/],
    ['temperature="0"', /temperature="0" is not a temperature.*0\.01 to 100/],
  ];
  const { page, problems } = await pageWith(bad.map(([a]) => `<attention-lab section="classes" ${a}></attention-lab>`).join('\n'));
  const labs = page.locator('attention-lab');
  for (let i = 0; i < bad.length; i++) {
    const lab = labs.nth(i);
    assert.match(await lab.locator('[data-testid=lab-error]').textContent(), bad[i][1]);
    assert.equal(await lab.evaluate((el) => el.shadowRoot.querySelectorAll('[data-cell], input, section').length), 0);
  }
  assert.deepEqual(problems, []);
});

test('embed.html takes the attributes as URL parameters, and temperature starts the slider', async () => {
  const c = CASES[1];
  const { page, problems } = await newPage(browser.context);
  const q = new URLSearchParams({ section: 'classes', words: c.words.join(' '), inputs: JSON.stringify(c.inputs), d_out: String(c.d_out) });
  await page.goto(`${server.url}embed.html?${q}`);
  await waitForLab(page);
  const shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], c.cells['3.4.2/sa_v1']);
  assert.equal(shown['3.4.2/sa_v2'], c.cells['3.4.2/sa_v2']);
  await page.goto(`${server.url}embed.html?section=temperature&temperature=10`);
  await waitForLab(page);
  assert.match(await page.locator('attention-lab .tvalue').textContent(), /^10\.0/);
  assert.deepEqual(problems, []);
});

test('author.html: live preview, and both snippets work pasted into another site\'s page', async () => {
  const c = CASES[0];
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}author.html`);
  await page.locator('#snippet-element').waitFor();
  await page.selectOption('#section', 'classes');
  await page.fill('#words', JSON.stringify(c.words));
  await page.fill('#inputs', JSON.stringify(c.inputs));
  await page.fill('#seed', String(c.seed));
  await page.fill('#d-out', String(c.d_out));
  await page.fill('#base', server.url);
  await page.waitForFunction((want) => document.querySelector('#preview attention-lab').getAttribute('d-out') === want, String(c.d_out), { timeout: 60000 });
  // the form applies its fields after a 250 ms pause: wait for the last one (the host) to reach the snippets
  await page.waitForFunction((base) => document.querySelector('#snippet-element').value.includes(`${base}attention-lab.js`)
    && document.querySelector('#snippet-iframe').value.includes(`${base}embed.html`), server.url, { timeout: 60000 });
  await waitForLab(page, 60000);
  assert.equal((await shownCells(page))['3.4.2/sa_v2'], c.cells['3.4.2/sa_v2'], 'the preview shows the example');
  const elementSnippet = await page.inputValue('#snippet-element');
  const iframeSnippet = await page.inputValue('#snippet-iframe');
  const { integrity, version } = JSON.parse(fs.readFileSync(path.join(require('./helpers').WEB, 'author.json'), 'utf8'));
  assert.equal(version, JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  assert.ok(elementSnippet.includes(`integrity="${integrity}"`), 'the script is pinned by its SRI hash');
  assert.deepEqual(problems, []);

  // Pasted into pages of another origin ("localhost", not 127.0.0.1).
  const hostDir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'attn-author-'));
  fs.writeFileSync(path.join(hostDir, 'element.html'), `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">\n${elementSnippet}\n`);
  fs.writeFileSync(path.join(hostDir, 'iframe.html'), `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">\n${iframeSnippet}\n`);
  const host = await startServer(hostDir);
  try {
    const hostUrl = host.url.replace('127.0.0.1', 'localhost');
    const p1 = await newPage(browser.context);
    await p1.page.goto(`${hostUrl}element.html`);
    await waitForLab(p1.page, 60000);
    const shown = await shownCells(p1.page);
    assert.equal(shown['3.4.2/sa_v1'], c.cells['3.4.2/sa_v1']);
    assert.equal(shown['3.4.2/sa_v2'], c.cells['3.4.2/sa_v2']);
    assert.deepEqual(p1.problems, []);

    const p2 = await newPage(browser.context);
    await p2.page.goto(`${hostUrl}iframe.html`);
    const frame = p2.page.frameLocator('iframe');
    await frame.locator('[data-cell="3.4.2/sa_v2"]').waitFor({ timeout: 60000 });
    assert.equal(await frame.locator('[data-cell="3.4.2/sa_v2"]').textContent(), c.cells['3.4.2/sa_v2']);
    // the listener fits the frame to the height embed.html posts (the snippet's own is the section's measured height)
    const written = /height: (\d+px)/.exec(iframeSnippet)[1];
    await p2.page.waitForFunction((h) => document.querySelector('iframe').style.height !== h, written, { timeout: 60000 });
    assert.deepEqual(p2.problems, []);
  } finally {
    await host.close();
    fs.rmSync(hostDir, { recursive: true, force: true });
  }
});

test('the temperature section draws one bar per token of the author\'s inputs, in one row', async () => {
  const c = CASES[1];   // 8 tokens
  const { page, problems } = await pageWith(`<attention-lab section="temperature" ${attrs(c)} temperature="2"></attention-lab>`);
  const tops = await page.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('.bar-col')].map((b) => b.offsetTop));
  assert.equal(tops.length, c.inputs.length);
  assert.equal(new Set(tops).size, 1, 'one row');
  assert.equal((await page.locator('attention-lab [data-testid=temperature-weights]').textContent()).trim().split(/\s+/).length, c.inputs.length);
  assert.match(await page.locator('attention-lab .tvalue').textContent(), /^2\.000/);
  assert.deepEqual(problems, []);
});

// author.html's form, driven through page.evaluate only, so Chromium (playwright) and Firefox ESR
// (puppeteer over WebDriver BiDi) run the same steps: a field's value, then the snippets and the note.
async function builderAfter(page, values) {
  return page.evaluate(async (vals) => {
    for (const [id, v] of Object.entries(vals)) {
      const el = document.getElementById(id);
      if (el.type === 'checkbox') el.checked = v; else el.value = v;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
    return { element: document.getElementById('snippet-element').value, iframe: document.getElementById('snippet-iframe').value,
      note: document.getElementById('base-note').textContent, invalid: document.getElementById('base').getAttribute('aria-invalid') !== null,
      copyDisabled: document.getElementById('copy-element').disabled, warning: document.getElementById('iframe-warning').textContent,
      lookError: document.getElementById('look-error').textContent };
  }, values);
}

const HOSTILE_BASES = ['x:"></script><img src=x onerror=alert(1)>/', 'javascript:alert(1)//', '//other.example/lab/', 'data:text/html,<script>alert(1)</script>', 'ftp://files.example/lab/', '/static/lab/'];

async function checkFilesField(page) {
  for (const bad of HOSTILE_BASES) {
    const r = await builderAfter(page, { base: bad });
    assert.match(r.note, /Files hosted at: .* is not an http or https URL; write the folder's address/, bad);
    assert.equal(r.invalid, true);
    assert.equal(r.element, '', `no snippet for ${bad}`);
    assert.equal(r.iframe, '');
    assert.equal(r.copyDisabled, true);
  }
  // a query and a hash are dropped (the snippets add file names to the folder), and said so
  let r = await builderAfter(page, { base: 'https://cdn.example/lab/v1?token=abc#top' });
  assert.equal(r.invalid, false);
  assert.ok(r.element.startsWith('<script src="https://cdn.example/lab/v1/attention-lab.js"'), r.element);
  assert.ok(r.iframe.startsWith('<iframe src="https://cdn.example/lab/v1/embed.html'), r.iframe);
  assert.ok(!/token|#top/.test(r.element + r.iframe));
  assert.match(r.note, /without “\?token=abc#top”/);
  // what is written into the snippets is escaped: quotes and angle brackets in a path and in words
  r = await builderAfter(page, { base: 'https://cdn.example/a"b<c>\'d/', words: 'a"b <i>x</i> c\'d e&f g h' });
  assert.ok(!r.element.includes('<i>') && !r.iframe.includes('<i>'), r.element);
  assert.ok(r.element.includes('words="a&quot;b &lt;i&gt;x&lt;/i&gt; c&#39;d e&amp;f g h"'), r.element);
  const src = /<script src="([^"]*)"/.exec(r.element)[1];
  assert.ok(src.startsWith('https://cdn.example/a%22b%3Cc%3E') && src.endsWith('d/attention-lab.js') && !/[<>"']/.test(src), src);
  // the listener knows its frame by event.source, not by origin (a sandboxed frame's is "null")
  assert.match(r.iframe, /f\.contentWindow === e\.source/);
  assert.doesNotMatch(r.iframe, /e\.origin/);
  await builderAfter(page, { base: '', words: '' });
}

test('author.html takes only an http(s) folder URL, drops its query and hash, escapes the snippets (Chromium)', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}author.html`);
  await page.waitForFunction(() => document.getElementById('base').value !== '');
  await checkFilesField(page);
  assert.deepEqual(problems, []);
});

test('author.html: the same checks in Firefox ESR', async () => {
  const puppeteer = require('puppeteer-core');
  const firefox = await puppeteer.launch({ browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true, defaultViewport: { width: 1280, height: 900 } });
  try {
    const page = await firefox.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message || e}`));
    await page.goto(`${server.url}author.html`);
    await page.waitForFunction(() => document.getElementById('base').value !== '');
    await checkFilesField(page);
    assert.deepEqual(problems, []);
  } finally {
    await firefox.close();
  }
});

test('author.html offers every section the element has, and an accent and font that reach the preview and both snippets', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}author.html`);
  await page.waitForFunction(() => document.getElementById('base').value !== '');
  // the element's own list of sections, from its message for an unknown one
  await page.evaluate(() => document.querySelector('#preview attention-lab').setAttribute('section', 'none-such'));
  const message = await page.locator('#preview attention-lab [data-testid=lab-error]').textContent();
  const sections = /Use one of: (.*)\./.exec(message)[1].split(', ');
  const offered = await page.locator('#section option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(offered.slice().sort(), sections.slice().sort());
  assert.ok(offered.includes('why-sqrt-dk'));
  const r = await builderAfter(page, { section: 'why-sqrt-dk', 'use-accent': true, accent: '#6a1b6e', font: 'Georgia, serif', theme: 'dark' });
  assert.ok(r.element.includes('<style>attention-lab { --attention-lab-accent: #6a1b6e; --attention-lab-font: Georgia, serif; }</style>'), r.element);
  assert.ok(r.element.includes('section="why-sqrt-dk" theme="dark"'), r.element);
  assert.ok(r.iframe.includes('section=why-sqrt-dk&amp;theme=dark&amp;accent=%236a1b6e&amp;font=Georgia%2C+serif'), r.iframe);
  assert.ok(!/integrity/.test(r.iframe), 'the iframe snippet claims no SRI');
  const preview = await page.evaluate(() => { const s = getComputedStyle(document.querySelector('#preview attention-lab')); return { accent: s.getPropertyValue('--attention-lab-accent').trim(), font: s.fontFamily }; });
  assert.deepEqual(preview, { accent: '#6a1b6e', font: 'Georgia, serif' });
  // a font that is not a font list: a sentence, no snippets
  const bad = await builderAfter(page, { font: 'x; } body { color: red' });
  assert.match(bad.lookError, /Font: .* is not a CSS font family list/);
  assert.equal(bad.element, '');
  // a parameter over embed.html's limit: the iframe snippet is marked as not working
  const limit = await page.evaluate(() => self.AttentionLabEmbedParams.limit);
  const long = await builderAfter(page, { font: '', section: 'classes', words: Array.from({ length: 6 }, () => 'w'.repeat(limit)).join(' ') });
  assert.match(long.warning, new RegExp(`embed\\.html reads at most ${limit.toLocaleString('en')} characters per parameter, and words \\(`));
  assert.equal(await page.locator('#copy-iframe').isDisabled(), true);
  assert.deepEqual(problems.filter((p) => !/words=/.test(p)), []);
});

test('the iframe snippet\'s height for each section fits embed.html\'s content at 800 px wide', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize({ width: 800, height: 900 });
  await page.goto(`${server.url}author.html`);
  await page.waitForFunction(() => document.getElementById('base').value !== '');
  const sections = await page.locator('#section option').evaluateAll((os) => os.map((o) => o.value));
  const written = {};
  for (const section of sections) {
    const r = await builderAfter(page, { section });
    written[section] = Number(/height: (\d+)px/.exec(r.iframe)[1]);
  }
  // The Canvas advice in docs/embedding.md ("Per platform") gives the same numbers
  const manual = fs.readFileSync(path.join(ROOT, 'docs/embedding.md'), 'utf8');
  const advised = Object.fromEntries([...manual.matchAll(/`([a-z-]+)`\s+(\d+)px/g)].map((m) => [m[1], Number(m[2])]));
  for (const section of sections) assert.equal(advised[section], written[section], `docs/embedding.md's height for ${section}`);
  const measured = {};
  for (const section of sections) {
    await page.goto(`${server.url}embed.html?section=${section}&theme=light`);
    await waitForLab(page, 60000);
    // the math and fonts in, and every section and every part of one laid out (content-visibility: a
    // part not yet near the screen has a placeholder's height, the stepper's rows 40rem each)
    await page.evaluate(() => document.fonts.ready);
    await layOutEverySection(page);
    measured[section] = await page.evaluate(() => Math.ceil(document.querySelector('attention-lab').getBoundingClientRect().bottom + window.scrollY));
  }
  for (const section of sections) {
    // the bug hunt's round is drawn at random: its rounds measure 1,583–2,296 px, so its slack is that range's
    const slack = section === 'bug-hunt' ? 900 : Math.max(600, measured[section] / 10);
    assert.ok(measured[section] <= written[section] && written[section] - measured[section] < slack, `${section}: the snippet says ${written[section]} px, the content is ${measured[section]} px (measured: ${JSON.stringify(measured)})`);
  }
  assert.deepEqual(problems, []);
});
