// Issue 42: the exercises agree with the author's published solutions and are honest questions.
// Exercise 3.1 as the solution notebook sets it (sa_v2 built after torch.manual_seed(123): the notebook's
// and PyTorch 1.13's print, and the native CLI's), PyTorch's own error for the learner's shapes, a hint
// before the solution; 3.3 takes the page's own "2,360,064" and says what its timing table shows; the
// batched toy holds its worked rows back until answered and tells each wrong shape its own mistake.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SCREENSHOTS, CELLS, launch, startServer, newPage, waitForLab, nativeEval, rowsOf } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

const BOOK = rowsOf(CELLS.get('inputs'));
// What the author's solution notebook (LLMs-from-scratch, ch03 exercise-solutions.ipynb) prints for
// sa_v1(inputs) and sa_v2(inputs), both built after torch.manual_seed(123); PyTorch 1.13 prints the same.
const NOTEBOOK_PRINT = `tensor([[-0.5337, -0.1051],
        [-0.5323, -0.1080],
        [-0.5323, -0.1079],
        [-0.5297, -0.1076],
        [-0.5311, -0.1066],
        [-0.5299, -0.1081]], grad_fn=<MmBackward0>)`;

async function open(query = '?section=classes', viewport = { width: 1280, height: 900 }) {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize(viewport);
  await page.goto(`${server.url}${query}`);
  await waitForLab(page);
  await page.locator('[data-testid=progress-reset]').click();   // this browser's answers from an earlier test
  return { page, problems };
}
async function authorPage(attrs, section) {
  const { page, problems } = await newPage(browser.context);
  await page.route('**/ex-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><meta charset="utf-8"><title>ex</title><link rel="icon" href="data:,"><attention-lab section="${section}" ${attrs}></attention-lab><script src="attention-lab.js"></script>` }));
  await page.goto(`${server.url}ex-test.html`);
  await waitForLab(page);
  return { page, problems };
}
const choose = async (ex, picks) => { for (const [slot, v] of Object.entries(picks)) await ex.locator(`[data-slot=${slot}]`).selectOption(v); };
const ALL = (c) => ({ W_query: `W_query.${c}`, W_key: `W_key.${c}`, W_value: `W_value.${c}` });

test('exercise 3.1: a wrong first run gets PyTorch’s error and a hint, not the solution; the second shows the notebook’s seed-123 solution and why it differs from §3.4.2', async () => {
  const { page, problems } = await open();
  const ex = page.locator('[data-testid="exercise-3.1"]');
  const feedback = ex.locator('[data-testid=exercise-feedback]');
  const solution = page.locator('[data-cell="ex3.1/notebook"]');
  assert.match(await ex.textContent(), /torch\.manual_seed\(123\)\s*sa_v1 = SelfAttention_v1\(d_in, d_out\)\s*torch\.manual_seed\(123\)\s*sa_v2 = SelfAttention_v2\(d_in, d_out\)/);
  assert.equal(await solution.isVisible(), false);
  await choose(ex, { ...ALL('weight.T'), W_query: 'W_query.weight' });
  await ex.locator('[data-testid=exercise-check]').click();
  assert.equal(await feedback.getAttribute('data-correct'), 'false');
  // PyTorch 1.13's words for x (6 × 3) @ W_query.weight (2 × 3), as the traceback's last line
  assert.match(await ex.locator('[data-testid=exercise-output]').textContent(), /\nRuntimeError: mat1 and mat2 shapes cannot be multiplied \(6x3 and 2x3\)$/);
  const hint = await feedback.textContent();
  assert.match(hint, /PyTorch stops at x @ W_query: inputs is 6 × 3, and the weight you gave W_query is 2 × 3\. Hint: /);
  assert.doesNotMatch(hint, /weight\.T|solution is below/, 'the first try gets a hint, not the solution');
  assert.equal(await solution.isVisible(), false, 'no solution after one wrong run');
  // a second wrong run: the solution, as the notebook writes it, with the notebook's numbers
  await choose(ex, { ...ALL('weight.T'), W_key: 'W_value.weight.T', W_value: 'W_key.weight.T' });
  await ex.locator('[data-testid=exercise-check]').click();
  assert.match(await feedback.textContent(), /^Not the same: row \d, column \d is .* The solution is below\.$/);
  assert.equal(await solution.isVisible(), true);
  const v2 = nativeEval({ op: 'self_attention_v2', seed: 123, x: BOOK, d_out: 2 });
  assert.equal(v2.print_with_grad_fn, NOTEBOOK_PRINT, 'the native CLI prints the notebook’s sa_v2');
  assert.equal(await solution.textContent(), `${NOTEBOOK_PRINT}\n${NOTEBOOK_PRINT}`);
  assert.match(await page.locator('[data-testid=ex31-same]').textContent(), /^Identical to sa_v2’s output/);
  const note = await page.locator('[data-testid=ex31-seed-note]').textContent();
  assert.ok(note.includes(`(${CELLS.get('3.4.2/sa_v2').print.split('\n')[0].replace(/^tensor\(/, '').replace(/,$/, '')}, ...)`), note);
  assert.match(note, /the book builds that one after torch\.manual_seed\(789\), the author’s solution notebook builds both after torch\.manual_seed\(123\).*\(\[\[-0\.5337, -0\.1051\], \.\.\.\)/);
  // progress counts the first run: wrong
  assert.match(await page.locator('[data-testid=progress-count]').textContent(), /^0 of \d+ questions right on the first try/);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.locator('[data-section=classes] .gated[data-gated-by="ex3.1"]').screenshot({ path: path.join(SCREENSHOTS, 'exercise-3.1-solution-1280.png') });
  assert.deepEqual(problems, []);
});

test('exercise 3.1: right on the first run counts; "Just show me" shows the solution; another size gets PyTorch’s error for its shapes', async () => {
  const { page, problems } = await open();
  const ex = page.locator('[data-testid="exercise-3.1"]');
  await choose(ex, ALL('weight.T'));
  await ex.locator('[data-testid=exercise-check]').click();
  assert.equal(await ex.locator('[data-testid=exercise-feedback]').getAttribute('data-correct'), 'true');
  assert.equal((await ex.locator('[data-testid=exercise-output]').textContent()).split('\n').slice(1).join('\n'), NOTEBOOK_PRINT);
  assert.match(await page.locator('[data-testid=progress-count]').textContent(), /^1 of \d+ questions right on the first try/);
  await page.locator('[data-testid=progress-reset]').click();
  assert.equal(await page.locator('[data-cell="ex3.1/notebook"]').isVisible(), false);
  await ex.locator('[data-testid=exercise-skip]').click();
  assert.equal(await page.locator('[data-cell="ex3.1/notebook"]').isVisible(), true);
  assert.deepEqual(problems, []);

  // 16 tokens of 4 values, d_out 3, seed 5: PyTorch 1.13 says (16x4 and 3x4); the solution is seed 5's sa_v2
  const inputs = Array.from({ length: 16 }, (_, i) => [0.1 * (i % 4), 0.5, -0.2 * (i % 3), 0.3]);
  const other = await authorPage(`words='${JSON.stringify(Array.from({ length: 16 }, (_, i) => `t${i}`))}' inputs='${JSON.stringify(inputs)}' d-out="3" seed="5"`, 'classes');
  const ex2 = other.page.locator('[data-testid="exercise-3.1"]');
  await choose(ex2, ALL('weight'));
  await ex2.locator('[data-testid=exercise-check]').click();
  assert.match(await ex2.locator('[data-testid=exercise-output]').textContent(), /\nRuntimeError: mat1 and mat2 shapes cannot be multiplied \(16x4 and 3x4\)$/);
  assert.match(await ex2.locator('[data-testid=exercise-feedback]').textContent(), /PyTorch stops at x @ W_key/);
  await ex2.locator('[data-testid=exercise-skip]').click();
  const v2 = nativeEval({ op: 'self_attention_v2', seed: 5, x: inputs, d_out: 3 }).print_with_grad_fn;
  assert.equal(await other.page.locator('[data-cell="ex3.1/notebook"]').textContent(), `${v2}\n${v2}`);
  assert.match(await other.page.locator('[data-testid=ex31-seed-note]').textContent(), /^With your seed \(5\)/);
  assert.deepEqual(other.problems, []);
});

test('exercise 3.3 takes "2,360,064", the form the page writes; its timing sentence gives its own table’s ratios', async () => {
  const { page, problems } = await open('?section=multi-head');
  const ex = page.locator('[data-exercise="ex3.3"]');
  await ex.locator('input').fill('2,360,064');
  await ex.locator('[data-testid=predict-check]').click();
  const f = ex.locator('[data-testid=predict-feedback]');
  await f.waitFor({ state: 'visible' });
  assert.equal(await f.getAttribute('data-correct'), 'true', await f.textContent());
  assert.doesNotMatch(await page.locator('[data-section=multi-head]').textContent(), /quadruple/);
  await page.locator('[data-testid=mha-run-all]').click();
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelectorAll('[data-testid=mha-times] tbody tr').length === 4, null, { timeout: 120000 });
  const ratios = await page.locator('[data-testid=mha-times] tbody tr td:last-child').allTextContents();
  const said = await page.locator('[data-testid=mha-scaling]').textContent();
  const pairs = [[128, 256], [256, 512], [512, 1024]];
  pairs.forEach(([a, b], k) => assert.ok(said.includes(`${ratios[k + 1].replace(' ', '')} (T = ${a} → ${b})`), `${ratios[k + 1]} for ${a} → ${b} in: ${said}`));
  assert.match(said, /The work grows ×2\.15, ×2\.29 and ×2\.50, not ×4/);
  await page.locator('[data-testid=mha-times]').screenshot({ path: path.join(SCREENSHOTS, 'exercise-3.3-timing-1280.png') });
  assert.deepEqual(problems, []);
});

test('the batched toy: its worked rows wait for the shape answer, and 3 × 3 and 2 × 3 are each told their own mistake', async () => {
  const { page, problems } = await open('?section=batched');
  const section = page.locator('[data-section=batched]');
  const visibleText = () => section.evaluate((s) => {
    let t = '';
    const w = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
    while (w.nextNode()) if (w.currentNode.parentElement.closest('[hidden]') === null && w.currentNode.parentElement.checkVisibility()) t += w.currentNode.data;
    return t;
  });
  // the toy on screen: a part off screen is not laid out (content-visibility), so not "visible" either way
  await page.locator('[data-exercise=predict-toy-shape]').scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const before = await visibleText();
  assert.ok(!before.includes('giving [3, 4]') && !before.includes('3.5'), 'the toy’s answers are held back');
  assert.equal(await page.locator('[data-gated-by=predict-toy-shape]').isVisible(), false);
  assert.ok(before.includes('row two of attn_weights is [0, 1, 0] and row three is [0.25, 0.25, 0.5]'), 'the rows to work out are given');
  const q = page.locator('[data-exercise=predict-toy-shape]');
  await q.locator('[data-choice="3×3"]').click();
  const f = q.locator('[data-testid=predict-feedback]');
  await f.waitFor({ state: 'visible' });
  const square = await f.textContent();
  assert.match(square, /3 × 3 is attn_weights’ own shape/);
  // a wrong first try: a hint, the rows still held back; the second try shows them
  assert.ok(!(await visibleText()).includes('giving [3, 4]'), 'a wrong first try shows no answer');
  await q.locator('[data-choice="3×2"]').click();
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-exercise=predict-toy-shape]').dataset.revealed === 'true');
  assert.ok((await visibleText()).includes('giving [3, 4]'), 'answered: the worked rows show');
  // row three's blend, [3.5, 4.5], is KaTeX (its digits in spans of their own): the formula is shown now
  const blend = page.locator('[data-gated-by=predict-toy-shape] .math.display');
  assert.equal(await blend.isVisible(), true);
  assert.match(await blend.textContent(), /3\.5.*4\.5/);
  await page.locator('[data-testid=progress-reset]').click();
  await q.locator('[data-choice="2×3"]').click();
  await f.waitFor({ state: 'visible' });
  const transposed = await f.textContent();
  assert.match(transposed, /2 × 3 is the transpose/);
  assert.notEqual(square, transposed);
  assert.deepEqual(problems, []);
});
