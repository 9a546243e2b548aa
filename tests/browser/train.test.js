// The "Train it" section: nothing trains until the learner asks; Step, Play, Pause, Reset and the
// scrubber show the run's steps; the optimizer and learning rate start a new run; an edit of the inputs
// resets it; a bad learning rate gets a sentence. Every number equals the native engine's and PyTorch's
// (tests/fixtures/train_page_cases.json, from /usr/bin/python3 scripts/make_reference_cases.py train).
// The task is the engine's (replay/train_task.h): the native runs here are its task requests, as the page's.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, launch, startServer, newPage, waitForLab, openEditor, settle, nativeEval } = require('./helpers');

const FIXTURE = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/train_page_cases.json'), 'utf8')).cases;
const [ADAM, SGD] = FIXTURE;   // the page's default run and SGD with momentum 0.9, lr 0.5
const T = 6;
const NAN_LR = 10;   // SGD with momentum at this learning rate: the loss overflows (inf at step 20)

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

// The same run, every step recorded, from the native CLI: the page's numbers must be these exactly.
const nativeRun = (request) => nativeEval({ ...request, record_every: 1 });
const nativeAdam = nativeRun(ADAM.task);

async function open(section = 'train') {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=${section}`);
  await waitForLab(page);
  return { page, problems };
}
const byId = (page, id) => page.locator(`[data-testid=${id}]`);
const text = (page, id) => byId(page, id).textContent();
// The heatmap's cells, row by row: data-value, the engine's shortest text of each weight.
const heatValues = (page) => byId(page, 'train-heatmap').locator('td.mv-cell').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
const firstOrder = (r) => r.values.slice(0, T * T);
// W_q as drawn: W_query.weight transposed (d_in × d_out), as the engine answers the task's weights
const drawnWq = (page) => byId(page, 'train-W_query').locator('td.mv-cell').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
const waitStep = (page, k, timeout = 60000) => page.waitForFunction((k) => {
  const root = document.querySelector('attention-lab').shadowRoot;
  return root.querySelector('[data-testid=train-step]').textContent === String(k);
}, k, { timeout });

// Step k on screen equals the native run's step k, and PyTorch's to the printed digit (and within 1e-4).
async function assertStep(page, k, native, pytorch) {
  await waitStep(page, k, 10000);   // a run is computed over a few tasks before its first step shows
  assert.equal(await text(page, 'train-step'), String(k));
  assert.equal(await text(page, 'train-loss'), native.losses[k].toFixed(4), `loss at step ${k}`);
  if (pytorch) assert.equal(await text(page, 'train-loss'), pytorch.answer.losses[k].toFixed(4), `PyTorch's loss at step ${k}`);
  assert.deepEqual(await heatValues(page), firstOrder(native.weights[k]), `weights at step ${k}`);
  assert.deepEqual(await drawnWq(page), native.parameter_history[k]['W_query.weight.T'].values, `W_q at step ${k}`);
  if (pytorch && k % pytorch.request.record_every === 0) {
    const want = firstOrder(pytorch.answer.weights[k / pytorch.request.record_every]);
    (await heatValues(page)).forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 1e-4, `weight ${i} at step ${k}: ${v} vs PyTorch ${want[i]}`));
  }
}

test('nothing trains before the learner asks; Step takes one optimizer step at a time, as PyTorch does', async () => {
  const { page, problems } = await open();
  assert.equal(await text(page, 'train-step'), '0');
  assert.equal(await text(page, 'train-loss'), '0.5854');
  await assertStep(page, 0, nativeAdam, ADAM);
  assert.ok(await byId(page, 'train-scrubber').isDisabled(), 'no run yet: nothing to replay');
  assert.match(await text(page, 'train-print'), /Press Play or Step/);
  // near-uniform at step 0: each query's visible keys share its row
  const w0 = await heatValues(page);
  assert.ok(Math.abs(w0[T * 5 + 0] - 1 / 6) < 0.1, `step 0 is near uniform: ${w0.slice(30)}`);
  for (let k = 1; k <= 3; k++) {
    await byId(page, 'train-step-button').click();
    await assertStep(page, k, nativeAdam, ADAM);
  }
  // the program's output, once the run exists, is exactly what PyTorch printed
  assert.equal(await text(page, 'train-print'), ADAM.output);
  assert.deepEqual(problems, []);
});

test('Play runs to step 300 and the weights learn the previous token; Pause stops; the scrubber replays', async () => {
  const { page, problems } = await open();
  await byId(page, 'train-play').click();
  assert.equal(await text(page, 'train-play'), 'Pause');
  await byId(page, 'train-play').click();   // pause at once
  const paused = Number(await text(page, 'train-step'));
  assert.ok(paused < 300, `paused before the end (at ${paused})`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 100)))));
  assert.equal(Number(await text(page, 'train-step')), paused, 'nothing moves while paused');
  assert.equal(await text(page, 'train-play'), 'Play');
  await assertStep(page, paused, nativeAdam, ADAM);

  await byId(page, 'train-play').click();
  await waitStep(page, 300);
  assert.equal(await text(page, 'train-play'), 'Play');
  await assertStep(page, 300, nativeAdam, ADAM);
  // learned: every query from token 2 on puts more than 0.9 of its weight on the token before it
  const w = await heatValues(page);
  for (let i = 1; i < T; i++) assert.ok(w[i * T + i - 1] > 0.9, `query ${i + 1} looks one back: ${w.slice(i * T, i * T + T)}`);
  assert.deepEqual(await drawnWq(page), nativeAdam.parameter_history[300]['W_query.weight.T'].values);
  const plotted = await byId(page, 'train-loss-plot').locator('path.plot-line').count();
  assert.equal(plotted, 1, 'the loss curve is drawn');

  // the scrubber: back to step 100, then to 0
  await byId(page, 'train-scrubber').evaluate((el) => { el.value = '100'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await assertStep(page, 100, nativeAdam, ADAM);
  await byId(page, 'train-scrubber').focus();
  await page.keyboard.press('Home');
  await assertStep(page, 0, nativeAdam, ADAM);
  // Reset: back to the untrained module, nothing to replay
  await byId(page, 'train-reset').click();
  await assertStep(page, 0, nativeAdam, ADAM);
  assert.ok(await byId(page, 'train-scrubber').isDisabled());
  assert.deepEqual(problems, []);
});

// Issue 27 item 1: the page drives the engine's task and defines none of it. Its train requests (the
// untrained state and the run) hold the task's name, the learner's inputs and settings: no batch, no
// stride, no momentum. The weights it draws and the lines it prints come from the engine's answers.
test('the page\'s train requests carry the learner\'s inputs and settings, no task constant', async () => {
  const { page, problems } = await open();
  await page.evaluate(() => {
    const engine = document.querySelector('attention-lab').labCtx.engine;
    const asked = window.trainRequests = [];
    const { evalRequest } = engine, start = engine.TrainRun.prototype.start;
    engine.evalRequest = (json) => { if (JSON.parse(json).op === 'train') asked.push(JSON.parse(json)); return evalRequest(json); };
    engine.TrainRun.prototype.start = function (json) { asked.push(JSON.parse(json)); return start.call(this, json); };
  });
  await byId(page, 'train-optimizer').selectOption('sgd');
  await byId(page, 'train-reset').click();   // the untrained state again: a one-step run
  await byId(page, 'train-step-button').click();   // the whole run
  await waitStep(page, 1);
  const requests = await page.evaluate(() => window.trainRequests);
  assert.equal(requests.length, 2, JSON.stringify(requests.map((r) => r.steps)));
  const settings = { op: 'train', task: 'previous_token', inputs: SGD.task.inputs, optimizer: 'sgd', lr: 0.5, record_parameters: true, prints: false };
  assert.deepEqual(requests[0], { ...settings, steps: 1 });
  assert.deepEqual(requests[1], settings);
  assert.deepEqual(problems, []);
});

test('the optimizer and the learning rate start a new run; a bad learning rate gets a sentence', async () => {
  const { page, problems } = await open();
  await byId(page, 'train-step-button').click();
  await byId(page, 'train-optimizer').selectOption('sgd');
  assert.equal(await byId(page, 'train-lr').inputValue(), '0.5', 'SGD takes its own default');
  assert.equal(await text(page, 'train-step'), '0');
  for (let k = 1; k <= 2; k++) await byId(page, 'train-step-button').click();
  await assertStep(page, 2, nativeRun(SGD.task), SGD);
  // the program is the engine's for these settings, word for word
  const program = nativeEval({ ...SGD.task, op: 'train_task', words: WORDS }).program;
  assert.equal(await page.locator('attention-lab [data-testid=train-code] code').textContent(), program);

  for (const bad of ['abc', '0', '-1', '20', '']) {
    await byId(page, 'train-lr').fill(bad);
    assert.match(await text(page, 'train-error'), /The learning rate must be a number above 0 and at most 10, e\.g\. 0\.02; .* Training keeps lr = 0\.5\./, `lr "${bad}"`);
    assert.equal(await byId(page, 'train-lr').getAttribute('aria-invalid'), 'true');
  }
  assert.equal(await text(page, 'train-step'), '2', 'a bad entry starts no new run');
  await byId(page, 'train-step-button').click();   // refused while the field is invalid
  assert.equal(await text(page, 'train-step'), '2');
  assert.match(await text(page, 'train-error'), /Correct it first/);
  await byId(page, 'train-lr').fill('0.1');
  assert.equal(await text(page, 'train-error'), '');
  assert.equal(await text(page, 'train-step'), '0');
  await byId(page, 'train-step-button').click();
  const sgd01 = nativeRun({ ...SGD.task, lr: 0.1 });
  await assertStep(page, 1, sgd01);
  // a learning rate far too large: the loss overflows, and the page says so instead of failing
  await byId(page, 'train-optimizer').selectOption('adam');
  await byId(page, 'train-lr').fill('10');
  await byId(page, 'train-play').click();
  await waitStep(page, 300);
  assert.deepEqual(problems, []);
});

test('an edit of the inputs resets training; the new task\'s numbers are the engine\'s', async () => {
  const { page, problems } = await open('all');
  const lab = page.locator('attention-lab');
  await lab.locator('[data-testid=train-step-button]').click();
  await lab.locator('[data-testid=train-step-button]').click();
  await waitStep(page, 2, 10000);
  await openEditor(page);
  await lab.locator('[data-testid=x-1-1]').fill('0.9');
  await settle(page);
  assert.equal(await lab.locator('[data-testid=train-step]').textContent(), '0');
  assert.ok(await lab.locator('[data-testid=train-scrubber]').isDisabled());
  const inputs = ADAM.task.inputs.map((row, i) => (i === 0 ? [0.9, ...row.slice(1)] : row));   // token 1, "Your"
  const native = nativeRun({ ...ADAM.task, inputs });
  assert.notEqual(native.losses[0].toFixed(4), ADAM.answer.losses[0].toFixed(4));
  await lab.locator('[data-testid=train-step-button]').click();
  await waitStep(page, 1, 10000);
  assert.equal(await lab.locator('[data-testid=train-loss]').textContent(), native.losses[1].toFixed(4));
  assert.deepEqual(await lab.locator('[data-testid=train-heatmap] td.mv-cell').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value))), firstOrder(native.weights[1]));
  // the code shows the learner's value
  assert.match(await lab.locator('[data-testid=train-code] code').textContent(), /\[\[0\.9, 0\.15, 0\.89\], # Your/);
  assert.deepEqual(problems, []);
});

// The editor's largest inputs: 16 tokens of 16 values. The run is computed a slice per task (the note
// counts the steps computed meanwhile); two Steps pressed while it is computed are two updates (every
// 6th step is recorded at this size, so two Steps reach step 12), and Play then reaches the CLI's loss.
test('at 16 tokens × 16 values the run is computed over several tasks; Steps pressed meanwhile all count', async () => {
  const { page, problems } = await open();
  const BIG = 16;
  const words = Array.from({ length: BIG }, (_, i) => `w${i + 1}`);
  const inputs = Array.from({ length: BIG }, (_, i) => Array.from({ length: BIG }, (_, j) => Number(Math.sin(i * 7 + j).toFixed(2))));
  await page.evaluate(({ words, inputs }) => {
    const lab = document.querySelector('attention-lab');
    lab.setAttribute('words', JSON.stringify(words));
    lab.setAttribute('inputs', JSON.stringify(inputs));
  }, { words, inputs });
  await waitForLab(page);
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=train-heatmap] td.mv-cell[data-row="15"]'));
  const notes = await page.evaluate(() => new Promise((resolve) => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const note = root.querySelector('[data-testid=train-note]'), seen = [];
    new MutationObserver(() => seen.push(note.textContent)).observe(note, { childList: true, characterData: true, subtree: true });
    const step = root.querySelector('[data-testid=train-step-button]');
    step.click();
    step.click();   // in the same task: the run is not computed yet
    const giveUp = Date.now() + 30000;   // not a timing check: a page stuck at step 6 fails below
    const check = () => (root.querySelector('[data-testid=train-step]').textContent === '12' || Date.now() > giveUp ? resolve(seen) : setTimeout(check, 20));
    check();
  }));
  assert.equal(await text(page, 'train-step'), '12', 'both Steps count');
  assert.ok(notes.some((t) => /^Training: \d+ of 300 steps computed…$/.test(t)), `progress shown while computing: ${notes.slice(0, 3)}`);

  // the same task from the native CLI
  const native = nativeRun({ ...ADAM.task, inputs, record_parameters: false });
  assert.equal(await text(page, 'train-loss'), native.losses[12].toFixed(4));
  assert.deepEqual(await byId(page, 'train-heatmap').locator('td.mv-cell').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value))),
    native.weights[12].values.slice(0, BIG * BIG));
  await byId(page, 'train-play').click();
  await waitStep(page, 300);
  assert.equal(await text(page, 'train-loss'), native.losses[300].toFixed(4));
  assert.deepEqual(problems, []);
});

// Issue 22 item 9: the verdict follows the weights. Every query from token 2 on, in all four orders,
// must put more than 0.5 of its weight on the token before it; the failing ones of the map are named.
function failingQueries(weights) {
  const failing = [];
  for (let o = 0; o < 4; o++) for (let t = 1; t < T; t++) if (!(weights[(o * T + t) * T + t - 1] > 0.5)) failing.push({ o, t });
  return failing;
}
const WORDS = ['Your', 'journey', 'starts', 'with', 'one', 'step'];

test('the verdict: Adam learns (data-learned="true"); SGD at lr 5 does not, and the rows that did not are named', async () => {
  const { page, problems } = await open();
  const verdict = byId(page, 'train-verdict');
  assert.equal(await verdict.getAttribute('data-learned'), 'false', 'untrained');
  assert.match(await verdict.textContent(), /^At step 0: Not learned: /);
  await byId(page, 'train-play').click();
  await waitStep(page, 300);
  assert.deepEqual(failingQueries(nativeAdam.weights[300].values), [], 'the native run learned');
  assert.equal(await verdict.getAttribute('data-learned'), 'true');
  assert.equal(await verdict.textContent(), 'At step 300: Learned: in all four orders, every query from token 2 on puts more than 0.5 of its weight on the token before it (20 of 20).');
  assert.match(await text(page, 'train-note'), /Every query from token 2 on now looks at the token before it\./);

  await byId(page, 'train-optimizer').selectOption('sgd');
  await byId(page, 'train-lr').fill('5');
  await byId(page, 'train-play').click();
  await waitStep(page, 300);
  const native = nativeRun({ ...SGD.task, lr: 5 });
  const failing = failingQueries(native.weights[300].values);
  const inMap = failing.filter((f) => f.o === 0);
  assert.ok(inMap.length >= 1, `the native SGD lr 5 run fails some rows of the map: ${JSON.stringify(failing)}`);
  assert.equal(await verdict.getAttribute('data-learned'), 'false');
  const said = await verdict.textContent();
  const elsewhere = failing.length - inMap.length;
  assert.match(said, new RegExp(`^At step 300: Not learned: ${failing.length} of the 20 queries from token 2 on put 0\\.5 or less of their weight on the token before them: ${inMap.length} of the 5 in the map \\(rows? `));
  assert.ok(said.includes(` and ${elsewhere ? `${elsewhere} of the 15` : 'none of the 15'} in the other three orders.`), said);
  // the loss fell while the verdict fails: the sentence says both, from the run's own losses, and why
  if (Number(native.losses[300]) < Number(native.losses[0])) {
    assert.ok(said.includes(`The loss fell from ${Number(native.losses[0]).toFixed(4)} to ${Number(native.losses[300]).toFixed(4)} all the same`), said);
  }
  for (const { t } of inMap) assert.ok(said.includes(`${t + 1} “${WORDS[t]}” (`), `row ${t + 1} named: ${said}`);
  for (let t = 1; t < T; t++) if (!inMap.some((f) => f.t === t)) assert.ok(!said.includes(`${t + 1} “${WORDS[t]}” (`), `row ${t + 1} learned, not named: ${said}`);
  assert.doesNotMatch(await text(page, 'train-note'), /now looks at the token before it/);
  assert.match(await text(page, 'train-note'), new RegExp(`${failing.length} of 20 queries did not learn`));
  assert.deepEqual(problems, []);
});

test('a run whose loss becomes NaN or Inf stops at that step and says so', async () => {
  const { page, problems } = await open();
  const request = { ...SGD.task, lr: NAN_LR };
  const native = nativeRun(request);
  const broken = native.losses.findIndex((v) => !Number.isFinite(Number(v)));
  assert.ok(broken > 0 && broken < 300, `the native run's loss stays finite at lr ${NAN_LR}`);
  await byId(page, 'train-optimizer').selectOption('sgd');
  await byId(page, 'train-lr').fill(String(NAN_LR));
  await byId(page, 'train-play').click();
  await waitStep(page, broken);
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=train-play]').textContent === 'Play');
  assert.equal(await text(page, 'train-step'), String(broken), 'playback stops at the step');
  assert.equal(await byId(page, 'train-scrubber').getAttribute('max'), String(broken));
  assert.match(await text(page, 'train-note'), new RegExp(`^The loss became (nan|inf|-inf) at step ${broken}, so training stopped there`));
  assert.equal(await byId(page, 'train-verdict').getAttribute('data-learned'), 'false');
  assert.match(await text(page, 'train-print'), new RegExp(`the page stopped the run there`));
  // Step at the end does not go past it
  await byId(page, 'train-step-button').click();
  assert.equal(await text(page, 'train-step'), String(broken));
  assert.deepEqual(problems, []);
});

test('on a phone "Optimizer" and "Learning rate" stay on the line of their controls', async () => {
  const { page, problems } = await open();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  for (const [label, control] of [['Optimizer', 'train-optimizer'], ['Learning rate', 'train-lr']]) {
    const l = await page.locator('attention-lab .train-controls label', { hasText: label }).boundingBox();
    const c = await byId(page, control).boundingBox();
    const middle = l.y + l.height / 2;
    assert.ok(middle > c.y && middle < c.y + c.height, `"${label}" is on its control's line (label ${JSON.stringify(l)}, control ${JSON.stringify(c)})`);
    assert.ok(l.x + l.width <= c.x + 1 && c.x - (l.x + l.width) < 20, `"${label}" is just left of its control`);
  }
  assert.deepEqual(problems, []);
});
