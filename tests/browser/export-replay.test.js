// Issue 46's numbers and state out of the page, in Chromium: every drawn tensor that shows PyTorch's print
// is exported as "Copy as PyTorch" and as CSV, and both are replayed through PyTorch 1.13
// (/usr/bin/python3): the literal printed, and a tensor of the CSV's numbers printed, give the page's
// print (its values, digits and layout; the print's grad_fn or requires_grad is the module's); a state
// permalink (index.html and embed.html) reopens the same example, section and step, stops at a question
// not yet answered, and a bad or tampered one is one sentence with nothing computed.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { launch, startServer, newPage, waitForLab } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser?.close(); await server?.close(); });

// In the page: every drawn tensor with its print on screen, its literal and CSV from its menu.
async function everyExport() {
  const root = document.querySelector('attention-lab').shadowRoot;
  const made = [];
  document.addEventListener('attention-lab-export', (e) => made.push(e.detail));
  const out = [];
  for (const figure of root.querySelectorAll('figure.mv')) {
    const print = figure.querySelector('pre.mv-print');
    if (!print || print.hidden || !figure.getClientRects().length || figure.closest('[hidden]')) continue;
    const item = {};
    for (const action of ['torch', 'csv']) {
      const before = made.length;
      figure.querySelector('[data-testid=export-button]').click();
      figure.querySelector(`.export-item[data-action=${action}]`).click();
      await new Promise((resolve) => { const wait = () => (made.length > before ? resolve() : requestAnimationFrame(wait)); wait(); });
      const d = made[made.length - 1];
      if (d.error) throw new Error(`${figure.dataset.matrix}: ${d.error}`);
      item[action] = d.text;
    }
    // the engine's text of each cell drawn with a value (a masked cell is drawn as 0, not as its value)
    const cells = [...figure.querySelectorAll('td.mv-cell')].map((td) => (td.classList.contains('mv-masked') ? null : td.dataset.value));
    out.push({ name: figure.dataset.matrix, print: print.textContent, cells, ...item });
  }
  return out;
}

// Runs each literal and each CSV through PyTorch: [{name, literal: its print, csv: its tensor's print, want}]
const REPLAY = String.raw`
import csv, io, json, re, sys, torch
out = []
for item in json.load(sys.stdin):
    want = item["print"]
    want = re.sub(r"^Parameter containing:\n", "", want)
    want = re.sub(r",\s*(grad_fn=<\w+>|requires_grad=True)\)$", ")", want)
    literal = str(eval(item["torch"], {"torch": torch}))
    rows = list(csv.reader(io.StringIO(item["csv"])))[1:]
    values = [[float(v) for v in row[1:]] for row in rows]
    t = torch.tensor(values)
    if not want.startswith("tensor([["):
        t = t.reshape(-1)
    # bit for bit the engine's float32 values (the cells' data-value), not only their printed digits
    exact = all(c is None or torch.tensor(float(c)).item() == v for c, v in zip(item["cells"], eval(item["torch"], {"torch": torch}).reshape(-1).tolist()))
    out.append({"name": item["name"], "want": want, "literal": literal, "csv": str(t), "exact": exact})
json.dump(out, sys.stdout)
`;

test('Copy as PyTorch and the CSV of every drawn tensor print, in PyTorch, what the page prints', async (t) => {
  for (const query of ['?section=all&exercises=off&step=99', '?section=all&exercises=off&words=a+b+c&inputs=[[1,-2.5],[0.001,300],[7,8]]&seed=7&d-out=3&step=99']) {
    const { page, problems } = await newPage(browser.context);
    await page.goto(`${server.url}index.html${query}`);
    await waitForLab(page);
    await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('.stepper[data-step]')?.dataset.step > 5);
    const items = await page.evaluate(everyExport);
    assert.ok(items.length >= 8, `${items.length} tensors with their prints (${query})`);
    t.diagnostic(`${query}: ${items.map((i) => i.name).join(', ')}`);
    const replayed = JSON.parse(execFileSync('/usr/bin/python3', ['-c', REPLAY], { input: JSON.stringify(items), encoding: 'utf8', maxBuffer: 1 << 26 }));
    for (const r of replayed) {
      assert.equal(r.literal, r.want, `${r.name}: torch.tensor literal (${query})`);
      assert.equal(r.csv, r.want, `${r.name}: the CSV's numbers (${query})`);
      assert.ok(r.exact, `${r.name}: the literal holds the engine's float32 values (${query})`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});

// In the page: the lab's state, section, step and the first drawn keys' cells.
function shown() {
  const lab = document.querySelector('attention-lab');
  const root = lab.shadowRoot;
  const stepper = root.querySelector('.stepper[data-step]');
  return { state: lab.state, section: lab.getAttribute('section'), step: stepper ? Number(stepper.dataset.step) + 1 : null,
    keys: [...root.querySelectorAll('[data-matrix=keys] td.mv-cell')].slice(0, 12).map((td) => td.dataset.value) };
}
// In the page: a drawing's "Copy link to this state".
async function copyLink(selector) {
  const figure = document.querySelector('attention-lab').shadowRoot.querySelector(selector);
  const link = new Promise((resolve) => document.addEventListener('attention-lab-export', (e) => resolve(e.detail), { once: true }));
  figure.querySelector('[data-testid=export-button]').click();
  figure.querySelector('.export-item[data-action=link]').click();
  return (await link).text;
}

test('a permalink reopens the same example, section and step, in index.html and embed.html', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}index.html?section=step-by-step&exercises=off`);
  await waitForLab(page);
  // the learner's example (the host's properties) and four steps on
  await page.evaluate(() => { const lab = document.querySelector('attention-lab'); lab.words = ['the', 'cat', 'sat', 'down']; lab.inputs = [[0.1, 0.2], [0.3, -0.4], [1.5, 0.25], [-2, 0.125]]; lab.seed = 42; lab.dOut = 3; return lab.updateComplete; });
  for (let i = 0; i < 4; i++) await page.locator('attention-lab [data-testid=step-next]').click();
  const before = await page.evaluate(shown);
  assert.equal(before.step, 5);
  const link = await page.evaluate(copyLink, '[data-matrix=keys]');
  assert.match(link, /index\.html\?section=step-by-step&words=the\+cat\+sat\+down&inputs=.*&seed=42&d-out=3&exercises=off&step=5$/);
  for (const url of [link, link.replace('index.html', 'embed.html')]) {
    const other = await newPage(browser.context);
    await other.page.goto(url);
    await waitForLab(other.page);
    await other.page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('.stepper[data-step="4"]'));
    assert.deepEqual(await other.page.evaluate(shown), before, url);
    assert.deepEqual(other.problems, []);
    await other.page.close();
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('a permalink does not answer the questions: its step waits at the first one the reader has not answered', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}index.html?section=step-by-step&step=12`);
  await waitForLab(page);
  // the walk stops where ω₂₂'s question holds it, and the question says why (learn/prompt.js's hold)
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.textContent.includes('The next step computes ω₂₂: type your prediction first'));
  const held = await page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const stepper = root.querySelector('[data-testid=projection-stepper]');
    return { step: Number(stepper.dataset.step) + 1, omega22: root.querySelector('[data-section=step-by-step] [data-matrix=attn_scores] td[data-row="1"][data-col="1"]')?.dataset.pending ?? null };
  });
  assert.ok(held.step > 1 && held.step < 12, `walked on, and held before step 12 (at ${held.step}) until ω₂₂ is predicted`);
  assert.equal(held.omega22, 'true', 'ω₂₂ is not shown');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bad or tampered permalink is one sentence, and nothing is computed', async () => {
  const cases = [
    ['index.html?section=step-by-step&inputs=[[1,2],[3,1e9]]', 'lab-error', /inputs=.* every value must be a number from -/],
    ['index.html?section=step-by-step&step=two', 'page-error', /step="two" is not a step/],
    ['embed.html?section=step-by-step&step=-1', 'embed-error', /step="-1" is not a step/],
    ['embed.html?section=causal&d-out=99', 'lab-error', /d-out="99" is not a d_out/],
    ['index.html?section=nowhere', 'lab-error', /section="nowhere" is not a section/],
    ['embed.html?words=a+b&inputs=[[1],[2],[3]]', 'lab-error', /words="a b" has 2 words but the inputs have 3 rows/],
  ];
  for (const [query, testid, sentence] of cases) {
    const { page, problems } = await newPage(browser.context);
    await page.goto(`${server.url}${query}`);
    const text = await page.locator(`[data-testid=${testid}]`).first().textContent();
    assert.match(text, sentence, query);
    assert.equal(await page.evaluate(() => Boolean(document.querySelector('attention-lab')?.shadowRoot?.querySelector('td.mv-cell'))), false, `${query}: nothing drawn`);
    assert.deepEqual(problems, [], query);
    await page.close();
  }
});

test('the section as one HTML file opens from disk, offline, in the same state', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}index.html?section=causal&words=x+y+z&inputs=[[0.5,-1],[2,0.25],[1,1]]&seed=3&d-out=2`);
  await waitForLab(page);
  const made = await page.evaluate(async () => {
    const figure = document.querySelector('attention-lab').shadowRoot.querySelector('figure.mv');
    const done = new Promise((resolve) => document.addEventListener('attention-lab-export', (e) => resolve(e.detail), { once: true }));
    figure.querySelector('[data-testid=export-button]').click();
    figure.querySelector('.export-item[data-action=html]').click();
    const d = await done;
    return { file: d.file, text: d.text, error: d.error || null, state: document.querySelector('attention-lab').state,
      cells: [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('td.mv-cell')].slice(0, 40).map((td) => td.dataset.value) };
  });
  assert.equal(made.error, null);
  assert.equal(made.file, 'attention-lab-causal.html');
  assert.doesNotMatch(made.text, /<script src=|<link /, 'nothing loaded from elsewhere');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-export-'));
  const file = path.join(dir, made.file);
  fs.writeFileSync(file, made.text);
  // offline: every request that is not the file itself (or a data: or blob: URL) is refused
  const other = await newPage(browser.context);
  const asked = [];
  await other.page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    asked.push(url);
    return route.abort();
  });
  await other.page.goto(pathToFileURL(file).href);
  await waitForLab(other.page);
  const reopened = await other.page.evaluate(() => ({ state: document.querySelector('attention-lab').state,
    cells: [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('td.mv-cell')].slice(0, 40).map((td) => td.dataset.value) }));
  assert.deepEqual(reopened, { state: made.state, cells: made.cells });
  assert.deepEqual(asked, [], 'no network request');
  assert.deepEqual(other.problems, []);
  assert.deepEqual(problems, []);
  await other.page.close(); await page.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('in a frame sandboxed with allow-scripts alone: the download is said to depend on the frame, and the text is there to copy', async () => {
  const { page, problems } = await newPage(browser.context);
  const host = `${server.url}sandboxed-host-46.html`;
  await page.route(host, (route) => route.fulfill({ contentType: 'text/html',
    body: '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><iframe sandbox="allow-scripts" src="embed.html?section=batched" style="width: 1000px; height: 900px"></iframe>' }));
  await page.goto(host);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => document.querySelector('attention-lab')?.shadowRoot?.querySelector('[data-testid=engine-footer]'));
  await frame.evaluate(() => document.querySelector('attention-lab').updateComplete);
  const said = await frame.evaluate(async () => {
    const figure = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=batched-product] [data-matrix=attn_weights]');
    const out = {};
    for (const action of ['csv', 'torch']) {
      const done = new Promise((resolve) => document.addEventListener('attention-lab-export', (e) => resolve(e.detail), { once: true }));
      figure.querySelector('[data-testid=export-button]').click();
      figure.querySelector(`.export-item[data-action=${action}]`).click();
      const d = await done;
      // the status is written once the copy has been tried
      await new Promise((resolve) => { const wait = () => (figure.querySelector('[data-testid=export-status]').textContent ? resolve() : requestAnimationFrame(wait)); wait(); });
      out[action] = { text: d.text, status: figure.querySelector('[data-testid=export-status]').textContent, area: figure.querySelector('textarea.export-copy')?.value ?? null };
      figure.querySelector('[data-testid=export-status]').textContent = '';
    }
    return out;
  });
  assert.match(said.csv.status, /^Saved attn_weights\.csv\. If your browser shows no download, the page around this one does not let it download files/);
  assert.equal(said.csv.area, said.csv.text.replace(/\r\n/g, '\n'), 'the CSV to copy by hand (a text field keeps its lines as LF)');
  assert.match(said.torch.status, /copy it with Ctrl\+C/);
  assert.equal(said.torch.area, said.torch.text);
  assert.match(said.torch.text, /^torch\.tensor\(\[\[0\.20983477, /);
  assert.deepEqual(problems, []);
  await page.close();
});
