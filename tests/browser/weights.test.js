// The weights attribute and property (issue 45): a reader's module's state_dict drawn instead of the
// seed's. The page shows what the native CLI's `attention-lab section` answers for the same request, its
// code loads those weights, d_out follows from them, and a wrong layout gets the one sentence naming it.
// (tests/browser/replay.test.js replays the code cells with weights through PyTorch.)
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT, launch, startServer, newPage, waitForLab, settle } = require('./helpers');

const INPUTS = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.1], [0.05, 0.8, 0.55]];
// nn.Linear's layout, d_out = 4 (the attribute gives no d-out: it follows from the weights)
const LINEAR = {
  'W_query.weight': [[0.3, -0.2, 0.5], [0.1, 0.4, -0.3], [-0.5, 0.2, 0.1], [0.25, 0.25, -0.1]],
  'W_key.weight': [[0.2, 0.1, -0.4], [0.3, -0.3, 0.2], [0.05, 0.5, 0.1], [-0.2, 0.1, 0.3]],
  'W_value.weight': [[0.1, 0.2, 0.3], [-0.1, 0.4, 0.2], [0.3, -0.2, 0.1], [0.2, 0.2, 0.2]],
};
// SelfAttention_v1's layout, d_out = 2
const V1 = { W_query: [[0.2, 0.4], [0.6, 0.1], [0.3, 0.9]], W_key: [[0.5, 0.1], [0.2, 0.7], [0.8, 0.3]], W_value: [[0.4, 0.6], [0.9, 0.2], [0.1, 0.5]] };

const section = (request) => JSON.parse(execFileSync(path.join(ROOT, 'build/native/attention-lab'), ['section'], { input: JSON.stringify(request) }).toString());
const esc = (s) => s.replace(/&/g, '&amp;').replace(/'/g, '&#39;');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

async function pageWith(body) {
  const { page, problems } = await newPage(browser.context);
  await page.route('**/weights-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>weights</title><link rel="icon" href="data:,">${body}<script src="attention-lab.js"></script>` }));
  await page.goto(`${server.url}weights-test.html`);
  await waitForLab(page);
  return { page, problems };
}

const shown = (page, cell) => page.evaluate((c) => document.querySelector('attention-lab').shadowRoot.querySelector(`pre.out[data-cell="${c}"]`).textContent, cell);

test('the weights attribute: the modules print what the CLI answers for those weights, and the code loads them', async () => {
  const { page, problems } = await pageWith(`<attention-lab section="classes" exercises="off" inputs='${JSON.stringify(INPUTS)}' weights='${esc(JSON.stringify(LINEAR))}'></attention-lab>`);
  const want = section({ section: 'classes', inputs: INPUTS, weights: LINEAR }).results;
  assert.equal(await shown(page, '3.4.2/sa_v2'), want['3.4.2/sa_v2'].line);
  assert.equal(await shown(page, '3.4.2/sa_v1'), want['3.4.2/sa_v1'].line);
  assert.deepEqual(want['3.4.2/sa_v2'].shape, [6, 4], 'd_out = 4, from the weights');
  const seeded = section({ section: 'classes', inputs: INPUTS, d_out: 4 }).results;
  assert.notEqual(want['3.4.2/sa_v2'].line, seeded['3.4.2/sa_v2'].line, 'not the seed\'s module');
  const code = await page.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('code.language-python')].map((c) => c.textContent).join('\n'));
  assert.match(code, /sa_v2\.load_state_dict\(\{ {3}# your weights\n {4}"W_query\.weight": torch\.tensor\(\[\[0\.3, -0\.2, 0\.5\], /);
  assert.deepEqual(await page.evaluate(() => document.querySelector('attention-lab').weights), LINEAR, 'el.weights reads the attribute back');
  assert.deepEqual(problems, []);
});

test('the weights property: set on the element, §3.4\'s results are the CLI\'s for them; null gives the seed back', async () => {
  const { page, problems } = await pageWith(`<attention-lab section="step-by-step" exercises="off" inputs='${JSON.stringify(INPUTS)}'></attention-lab>`);
  const results = (weights) => page.evaluate(async (w) => {
    const el = document.querySelector('attention-lab');
    el.weights = w;
    await el.updateComplete;
    return { results: el.results, attribute: el.getAttribute('weights'), dOut: el.state.dOut };
  }, weights);
  const rows = (r) => Array.from({ length: r.shape[0] }, (_, i) => r.values.slice(i * r.shape[1], (i + 1) * r.shape[1]).map(Number));
  const mine = await results(V1);
  const want = section({ section: 'step-by-step', inputs: INPUTS, weights: V1 }).results;
  assert.deepEqual(mine.results.contextVecs, rows(want.context_vec));
  assert.deepEqual(mine.results.attnWeights, rows(want.attn_weights));
  assert.deepEqual(JSON.parse(mine.attribute), V1, 'the property is written to the attribute as JSON');
  const back = await results(null);
  assert.equal(back.attribute, null);
  assert.deepEqual(back.results.contextVecs, rows(section({ section: 'step-by-step', inputs: INPUTS, d_out: 2 }).results.context_vec));
  await settle(page);
  assert.deepEqual(problems, []);
});

test('a weight in the other layout, or a d-out the weights contradict, gets one sentence naming it', async () => {
  const swapped = { 'W_query.weight': V1.W_query, 'W_key.weight': V1.W_key, 'W_value.weight': V1.W_value };
  const cases = [
    [`weights='${esc(JSON.stringify(swapped))}'`, 'attention-lab: weights: W_query.weight is nn.Linear\'s weight, d_out × d_in = 2 × 3; you gave 3 × 2 — that is nn.Parameter\'s layout, name it W_query'],
    [`weights='${esc(JSON.stringify(V1))}' d-out="3"`, /^attention-lab: d-out="3" is not the d_out of the weights, which give 2/],
    ['weights="[[1, 2]]"', /^attention-lab: weights="\[\[1, 2\]\]" is not a JSON object of a module's weights/],
  ];
  for (const [attrs, message] of cases) {
    const { page } = await pageWith(`<attention-lab section="classes" ${attrs}></attention-lab>`);
    const text = await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=lab-error]').textContent);
    if (typeof message === 'string') assert.equal(text, message); else assert.match(text, message);
  }
});
