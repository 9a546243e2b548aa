// The host page's API (docs/embedding.md, "For host pages"): properties that mirror the attributes, el.state and
// el.results (checked against PyTorch's prints), the attention-lab-change event, a host's change that
// keeps the learner's edits, el.reset(), the Custom Elements Manifest, and web/types checked by tsc.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT, WEB, CELLS, launch, startServer, newPage, waitForLab, openEditor, settle } = require('./helpers');

const CASES = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/author_cases.json'), 'utf8')).cases;
// the numbers of a PyTorch print (tensor([[1.1343, 1.8214], ...])) as 4-decimal texts
const printed = (text) => text.replace(/grad_fn=<\w+>/, '').match(/-?\d+\.\d+/g);

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

async function pageWith(html) {
  const { page, problems } = await newPage(browser.context);
  await page.route('**/api-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,">${html}<script src="attention-lab.js"></script>` }));
  await page.goto(`${server.url}api-test.html`);
  await waitForLab(page);
  // every attention-lab-change heard on the document: it must bubble out of the shadow root
  await page.evaluate(() => {
    window.changes = [];
    document.addEventListener('attention-lab-change', (e) => window.changes.push({ detail: e.detail, composed: e.composed, bubbles: e.bubbles, target: e.target.id }));
  });
  return { page, problems };
}

// Types into a field of the editor (shadow root) as a learner does.
async function learnerTypes(page, testid, text) {
  await openEditor(page);   // collapsed at first, and again after a rebuild
  const field = page.locator(`attention-lab [data-testid="${testid}"]`).first();
  await field.fill(text);
}
const changesHeard = (page, n) => page.waitForFunction((k) => window.changes.length >= k, n, { timeout: 30000 });

test('properties mirror the attributes, both ways; null removes one', async () => {
  const { page, problems } = await pageWith('<attention-lab id="lab" section="classes" seed="7"></attention-lab>');
  const seen = await page.evaluate(() => {
    const lab = document.getElementById('lab');
    const out = { read: { section: lab.section, seed: lab.seed, dOut: lab.dOut, words: lab.words, inputs: lab.inputs, temperature: lab.temperature, theme: lab.theme, engine: lab.engine } };
    lab.dOut = 3;
    lab.words = ['New York', 'is', 'a', 'city'];
    lab.inputs = [[1, 2], [3, 4], [5, 6], [7, 8]];
    lab.temperature = 2.5;
    lab.theme = 'dark';
    lab.engine = 'scalar';
    lab.seed = null;
    out.attrs = Object.fromEntries(['d-out', 'words', 'inputs', 'temperature', 'theme', 'engine', 'seed'].map((a) => [a, lab.getAttribute(a)]));
    lab.setAttribute('words', 'a b c d');
    out.wordsProp = lab.words;
    out.back = { dOut: lab.dOut, inputs: lab.inputs, temperature: lab.temperature };
    return out;
  });
  assert.deepEqual(seen.read, { section: 'classes', seed: 7, dOut: null, words: null, inputs: null, temperature: null, theme: 'auto', engine: 'auto' });
  assert.deepEqual(seen.attrs, { 'd-out': '3', words: '["New York","is","a","city"]', inputs: '[[1,2],[3,4],[5,6],[7,8]]', temperature: '2.5', theme: 'dark', engine: 'scalar', seed: null });
  assert.deepEqual(seen.wordsProp, ['a', 'b', 'c', 'd']);
  assert.deepEqual(seen.back, { dOut: 3, inputs: [[1, 2], [3, 4], [5, 6], [7, 8]], temperature: 2.5 });
  // the element rebuilt from the properties, with the engine named by one
  await page.waitForFunction(() => document.getElementById('lab').shadowRoot.querySelector('[data-testid=engine-footer]')?.textContent === 'Engine: WebAssembly scalar', null, { timeout: 30000 });
  await settle(page);
  assert.deepEqual(await page.evaluate(() => document.getElementById('lab').state), { words: ['a', 'b', 'c', 'd'], inputs: [[1, 2], [3, 4], [5, 6], [7, 8]], seed: null, dOut: 3, temperature: 2.5 });
  assert.deepEqual(problems, []);
});

test('a property set before the element is defined reaches it', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.route('**/early.html', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"><attention-lab id="lab" section="classes"></attention-lab><script src="early.js"></script><script src="attention-lab.js"></script>' }));
  await page.route('**/early.js', (route) => route.fulfill({ contentType: 'text/javascript', body: 'document.getElementById("lab").seed = 9;' }));
  await page.goto(`${server.url}early.html`);
  await waitForLab(page);
  assert.equal(await page.evaluate(() => document.getElementById('lab').getAttribute('seed')), '9');
  assert.equal(await page.evaluate(() => document.getElementById('lab').state.seed), 9);
  assert.deepEqual(problems, []);
});

test('el.state and el.results: the learner\'s values and §3.4\'s numbers, equal to PyTorch\'s', async () => {
  const c = CASES[0];
  const { page, problems } = await pageWith(`<attention-lab id="book" section="step-by-step"></attention-lab><attention-lab id="author" section="classes" words='${JSON.stringify(c.words)}' inputs="${JSON.stringify(c.inputs)}" seed="${c.seed}" d-out="${c.d_out}"></attention-lab>`);
  const { book, author } = await page.evaluate(() => ({ book: { state: document.getElementById('book').state, results: document.getElementById('book').results }, author: { state: document.getElementById('author').state, results: document.getElementById('author').results } }));
  // the book: 3.4.1's attn_weights_2 and context_vec_2, the same float32 numbers PyTorch printed
  const f32 = (xs) => xs.map(Math.fround);
  assert.deepEqual(f32(book.results.attnWeights[1]), f32(CELLS.get('3.4.1/attn_weights_2').values));
  assert.deepEqual(f32(book.results.contextVecs[1]), f32(CELLS.get('3.4.1/context_vec_2').values));
  assert.equal(book.results.attnWeights.length, 6);
  assert.deepEqual(book.state.words, ['Your', 'journey', 'starts', 'with', 'one', 'step']);
  assert.deepEqual(f32(book.state.inputs.flat()), f32(CELLS.get('inputs').values));
  assert.deepEqual({ seed: book.state.seed, dOut: book.state.dOut, temperature: book.state.temperature }, { seed: null, dOut: 2, temperature: null });
  // the author's example: sa_v1(inputs) is the context vectors, attn_weights_2 row 2 of the weights
  assert.deepEqual(author.state, { words: c.words, inputs: c.inputs, seed: c.seed, dOut: c.d_out, temperature: null });
  assert.deepEqual(author.results.contextVecs.flat().map((v) => v.toFixed(4)), printed(c.cells['3.4.2/sa_v1']));
  assert.deepEqual(author.results.attnWeights[1].map((v) => v.toFixed(4)), printed(c.cells['3.4.1/attn_weights_2']));
  assert.deepEqual(problems, []);
});

test('attention-lab-change: after each learner edit, composed and bubbling, with the state and results', async () => {
  const { page, problems } = await pageWith('<attention-lab id="lab" section="step-by-step"></attention-lab>');
  await openEditor(page);
  const before = await page.evaluate(() => document.getElementById('lab').results);
  await learnerTypes(page, 'x-2-1', '0.6');
  await changesHeard(page, 1);
  const first = await page.evaluate(() => ({ change: window.changes[0], results: document.getElementById('lab').results, state: document.getElementById('lab').state }));
  assert.equal(first.change.composed, true);
  assert.equal(first.change.bubbles, true);
  assert.equal(first.change.target, 'lab');
  assert.equal(first.change.detail.state.inputs[1][0], 0.6);
  assert.deepEqual(first.change.detail.state, first.state);
  assert.deepEqual(first.change.detail.results, first.results, 'the detail holds the numbers the element now shows');
  assert.notDeepEqual(first.results.attnWeights, before.attnWeights, 'the weights follow the edit');
  // what the section prints is what the event carried
  const shown = await page.locator('attention-lab [data-cell="3.4.1/attn_weights_2"]').textContent();
  assert.deepEqual(printed(shown), first.results.attnWeights[1].map((v) => v.toFixed(4)));
  // a bad value is marked at its field: no computation, no event
  await learnerTypes(page, 'seed', 'abc');
  await learnerTypes(page, 'seed', '5');
  await changesHeard(page, 2);
  await settle(page);
  const changes = await page.evaluate(() => window.changes.map((c) => c.detail.state.seed));
  assert.deepEqual(changes, [null, 5]);
  assert.deepEqual(problems, []);
});

test('the learner\'s edit survives a property set, and an attribute set; el.reset() brings the author\'s example back', async () => {
  const { page, problems } = await pageWith('<attention-lab id="lab" section="step-by-step" d-out="2"></attention-lab>');
  await openEditor(page);
  await learnerTypes(page, 'x-1-1', '0.5');
  await learnerTypes(page, 'word-3', 'begins');
  await changesHeard(page, 2);
  await settle(page);
  // the host changes d_out by its property, then the seed by its attribute
  await page.evaluate(async () => { const lab = document.getElementById('lab'); lab.dOut = 3; await lab.updateComplete; });
  let state = await page.evaluate(() => document.getElementById('lab').state);
  assert.equal(state.dOut, 3);
  assert.equal(state.inputs[0][0], 0.5, 'the learner\'s edit survives a property set');
  assert.equal(state.words[2], 'begins');
  await page.evaluate(async () => { const lab = document.getElementById('lab'); lab.setAttribute('seed', '8'); await lab.updateComplete; });
  state = await page.evaluate(() => document.getElementById('lab').state);
  assert.deepEqual({ seed: state.seed, dOut: state.dOut, x11: state.inputs[0][0], word3: state.words[2] }, { seed: 8, dOut: 3, x11: 0.5, word3: 'begins' });
  // the fields show the kept values, and the numbers are computed from them
  await openEditor(page);
  assert.equal(await page.locator('attention-lab [data-testid="x-1-1"]').inputValue(), '0.5');
  assert.equal(await page.locator('attention-lab [data-testid="word-3"]').inputValue(), 'begins');
  assert.equal(await page.locator('attention-lab [data-testid="d_out"]').inputValue(), '3');
  const results = await page.evaluate(() => document.getElementById('lab').results);
  assert.equal(results.contextVecs[0].length, 3);
  assert.deepEqual(printed(await page.locator('attention-lab [data-cell="3.4.1/attn_weights_2"]').textContent()), results.attnWeights[1].map((v) => v.toFixed(4)));
  // new inputs of another size replace the words (one per row), and keep seed and d_out
  await page.evaluate(async () => { const lab = document.getElementById('lab'); lab.inputs = [[1, 0], [0, 1], [1, 1]]; await lab.updateComplete; });
  state = await page.evaluate(() => document.getElementById('lab').state);
  assert.deepEqual(state, { words: ['token1', 'token2', 'token3'], inputs: [[1, 0], [0, 1], [1, 1]], seed: 8, dOut: 3, temperature: null });
  // the host's changes are not learner edits: no event for them
  assert.equal(await page.evaluate(() => window.changes.length), 2);
  // reset: the attributes' example, the learner's edits gone
  await page.evaluate(async () => { const lab = document.getElementById('lab'); lab.removeAttribute('inputs'); await lab.updateComplete; });
  await learnerTypes(page, 'x-1-1', '0.25');
  await changesHeard(page, 3);
  await page.evaluate(() => document.getElementById('lab').reset());
  state = await page.evaluate(() => document.getElementById('lab').state);
  assert.deepEqual({ seed: state.seed, dOut: state.dOut, x11: state.inputs[0][0], word3: state.words[2] }, { seed: 8, dOut: 3, x11: 0.43, word3: 'starts' });
  assert.deepEqual(problems, []);
});

test('the temperature slider is part of the state: moving it fires attention-lab-change with its T', async () => {
  const { page, problems } = await pageWith('<attention-lab id="lab" section="temperature"></attention-lab>');
  assert.equal(await page.evaluate(() => document.getElementById('lab').state.temperature), null);
  await page.locator('attention-lab [data-testid=temperature-slider]').focus();
  await page.keyboard.press('End');
  await changesHeard(page, 1);
  const change = await page.evaluate(() => window.changes.at(-1).detail);
  assert.equal(change.state.temperature, 100);
  assert.equal(await page.evaluate(() => document.getElementById('lab').state.temperature), 100);
  // the host's change of d_out keeps the learner's T
  await page.evaluate(async () => { const lab = document.getElementById('lab'); lab.dOut = 3; await lab.updateComplete; });
  assert.match(await page.locator('attention-lab .tvalue').textContent(), /^100\.0/);
  assert.deepEqual(problems, []);
});

test('custom-elements.json names the element\'s attributes, properties, methods and events', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(WEB, 'custom-elements.json'), 'utf8'));
  const decl = manifest.modules[0].declarations.find((d) => d.tagName === 'attention-lab');
  const { page, problems } = await pageWith('<attention-lab id="lab" section="batched"></attention-lab>');
  const element = await page.evaluate(() => ({ observed: customElements.get('attention-lab').observedAttributes }));
  assert.deepEqual(decl.attributes.map((a) => a.name).sort(), element.observed.slice().sort());
  const members = decl.members.map((m) => m.name);
  const missing = await page.evaluate((names) => names.filter((n) => !(n in document.getElementById('lab'))), members);
  assert.deepEqual(missing, [], 'every member in the manifest is on the element');
  for (const a of decl.attributes.filter((x) => x.fieldName)) assert.ok(members.includes(a.fieldName), `${a.name}'s property ${a.fieldName} is a member`);
  assert.deepEqual(decl.events.map((e) => e.name).sort(), ['attention-lab-answer', 'attention-lab-change', 'attention-lab-export', 'attention-lab-progress', 'attention-lab-summary']);
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.customElements, 'dist/web/custom-elements.json');
  assert.ok(fs.existsSync(path.join(WEB, 'types/attention-lab.d.ts')), 'the build copies the types');
  assert.deepEqual(problems, []);
});

test('web/types: tsc --strict accepts a TypeScript + React consumer (and its @ts-expect-error lines are errors)', () => {
  const tsc = path.join(ROOT, 'node_modules/.bin/tsc');
  try {
    execFileSync(tsc, ['-p', path.join(ROOT, 'tests/types/tsconfig.json')], { cwd: ROOT, stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc --strict failed:\n${e.stdout}${e.stderr}`);
  }
});

test('el.progress and el.summary: the progress and summary events, the answers set back by the host before and after the build, a bad value a sentence', async () => {
  const { page, problems } = await pageWith('<attention-lab id="lab" section="temperature"></attention-lab>');
  // from no answers: an earlier test of this file moved the slider on this page, which shows both questions
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitForLab(page);
  await page.evaluate(() => {
    window.heard = [];
    for (const t of ['attention-lab-progress', 'attention-lab-summary']) document.addEventListener(t, (e) => window.heard.push({ type: t, detail: e.detail, composed: e.composed }));
  });
  const total = await page.evaluate(() => document.querySelectorAll('attention-lab')[0].shadowRoot.querySelectorAll('[data-answer-kind]').length);
  assert.ok(total >= 2);
  assert.deepEqual(await page.evaluate(() => document.getElementById('lab').summary), { answered: 0, firstTryRight: 0, total });
  // the learner answers: one progress and one summary event, composed, out of the shadow root
  const id = await page.evaluate(() => {
    const q = document.getElementById('lab').shadowRoot.querySelector('[data-answer-kind=choice]');
    q.querySelector('[data-testid=predict-choice]').click();
    return q.dataset.exercise;
  });
  const correct = (await page.locator(`attention-lab [data-exercise="${id}"] [data-testid=predict-feedback]`).getAttribute('data-correct')) === 'true';
  const heard = await page.evaluate(() => window.heard);
  assert.deepEqual(heard.map((h) => [h.type, h.composed]), [['attention-lab-progress', true], ['attention-lab-summary', true]]);
  const summary = { answered: 1, firstTryRight: correct ? 1 : 0, total };
  assert.deepEqual(heard[0].detail.summary, summary);
  assert.deepEqual(heard[1].detail, summary);
  const kept = heard[0].detail.progress;
  assert.deepEqual(await page.evaluate(() => document.getElementById('lab').progress), kept);
  assert.equal(kept.version, 1);
  assert.deepEqual(Object.keys(kept.entries), [id]);

  // a reset by the learner, then the host sets the answers back: they show, and only a summary event fires
  await page.locator('attention-lab [data-testid=progress-reset]').click();
  await page.evaluate(() => { window.heard = []; });
  await page.evaluate((p) => { document.getElementById('lab').progress = p; }, kept);
  assert.equal(await page.locator(`attention-lab [data-exercise="${id}"] [data-testid=predict-feedback]`).getAttribute('data-correct'), String(correct));
  assert.deepEqual(await page.evaluate(() => window.heard.map((h) => h.type)), ['attention-lab-summary']);
  assert.deepEqual(await page.evaluate(() => document.getElementById('lab').summary), summary);
  // a value it did not give: the sentence, and the answers stay
  const refused = await page.evaluate(() => { try { document.getElementById('lab').progress = { answers: [] }; return null; } catch (e) { return `${e.name}: ${e.message}`; } });
  assert.match(refused, /^TypeError: attention-lab: el\.progress takes what el\.progress .* gave: an object \{version: 1, entries: \{\.\.\.\}\}\.$/);
  assert.deepEqual(await page.evaluate(() => document.getElementById('lab').summary), summary);

  // set before the element is built (an LMS restoring suspend_data), and kept over a rebuild
  await page.evaluate((p) => {
    const late = document.createElement('attention-lab');
    late.id = 'late'; late.setAttribute('section', 'temperature');
    late.progress = p;
    document.body.append(late);
  }, kept);
  await waitForLab(page);
  assert.deepEqual(await page.evaluate(() => document.getElementById('late').summary), summary);
  await page.evaluate(async () => { const late = document.getElementById('late'); late.seed = 8; await late.updateComplete; });
  assert.deepEqual(await page.evaluate(() => document.getElementById('late').summary), summary);
  assert.equal(await page.locator(`#late [data-exercise="${id}"] [data-testid=predict-feedback]`).getAttribute('data-correct'), String(correct));
  assert.deepEqual(problems, []);
});
