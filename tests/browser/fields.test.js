// Issue 22, items 8 and 10: a field never computes with what the learner did not type (an invalid
// entry brings back the value from before the typing: no prefix typed on the way, no clamp) in the
// editor, the √d_k experiment and the train section; and the editor adds and removes tokens (2–16) and
// dimensions (1–16), every section following with the native CLI's numbers.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { cellLine, launch, startServer, newPage, waitForLab, openEditor, settle, shownCells, nativeEval } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

const BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]];
const field = (page, testid) => page.locator(`attention-lab [data-testid="${testid}"]`);

// Types text into the field key by key, as a learner does, replacing what it held.
async function typeInto(page, testid, text) {
  await field(page, testid).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
  await settle(page);
}
const sa1 = (x, seed = 123, d_out = 2) => nativeEval({ op: 'self_attention_v1', seed, x, d_out }).print_with_grad_fn;
const mha = (x) => nativeEval({ op: 'mha', seed: 123, x: [x, x], d_out: 2, context_length: x.length, dropout: 0, num_heads: 2 }).print.replace(/\)$/, ', grad_fn=<ViewBackward0>)');

test('the editor computes with the value from before the typing: d_out 17, 1e30 and a 20-digit seed run none of their prefixes', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  await openEditor(page);

  await typeInto(page, 'd_out', '17');   // "1" on the way is valid; "17" is not: back to 2, not 1
  assert.equal(await field(page, 'd_out').getAttribute('aria-invalid'), 'true');
  let shown = await shownCells(page);
  assert.equal(shown['3.4.1/keys.shape'], 'keys.shape: torch.Size([6, 2])');
  assert.equal(shown['3.4.2/sa_v1'], cellLine('3.4.2/sa_v1'));
  assert.match(await page.locator('attention-lab .messages').textContent(), /d_out: 17 is out of range; enter a whole number from 1 to 16\. Until then the page uses d_out = 2\./);

  await typeInto(page, 'x-2-1', '1e30');   // "1e3" = 1000 on the way, a clamp would be 1000 too
  assert.equal(await field(page, 'x-2-1').getAttribute('aria-invalid'), 'true');
  shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], cellLine('3.4.2/sa_v1'), 'x(2) keeps 0.55');

  await typeInto(page, 'seed', '99999999999999999999');   // 999999999 on the way
  assert.equal(await field(page, 'seed').getAttribute('aria-invalid'), 'true');
  shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], cellLine('3.4.2/sa_v1'), 'the book\'s seeds');

  // a value committed (Tab) is the new "before": d_out 4, then 17 typed again keeps 4
  await typeInto(page, 'd_out', '4');
  await page.keyboard.press('Tab');
  await typeInto(page, 'd_out', '17');
  shown = await shownCells(page);
  assert.equal(shown['3.4.1/keys.shape'], 'keys.shape: torch.Size([6, 4])');
  assert.equal(shown['3.4.2/sa_v1'], sa1(BOOK, 123, 4));
  // and a valid entry clears the mark
  await typeInto(page, 'd_out', '3');
  assert.equal(await field(page, 'd_out').getAttribute('aria-invalid'), null);
  assert.equal((await shownCells(page))['3.4.1/keys.shape'], 'keys.shape: torch.Size([6, 3])');
  assert.deepEqual(problems, []);
});

test('d_k 2000 keeps the plots at the d_k from before the typing, not 200', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=why-sqrt-dk`);
  await waitForLab(page);
  const readout = field(page, 'dk-readout');
  assert.match(await readout.textContent(), /^d_k = 64:/);
  await typeInto(page, 'dk-input', '2000');
  assert.equal(await field(page, 'dk-input').getAttribute('aria-invalid'), 'true');
  assert.match(await readout.textContent(), /^d_k = 64:/);
  assert.match(await page.locator('attention-lab .dk-experiment .error').textContent(), /the plots keep d_k = 64\./);
  await typeInto(page, 'dk-input', '256');
  assert.match(await readout.textContent(), /^d_k = 256:/);
  assert.equal(await field(page, 'dk-input').getAttribute('aria-invalid'), null);
  assert.deepEqual(problems, []);
});

test('learning rate 1000 trains with nothing typed on the way; Play and Step refuse while it is invalid', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=train`);
  await waitForLab(page);
  await typeInto(page, 'train-lr', '1000');   // "10" on the way is valid
  assert.equal(await field(page, 'train-lr').getAttribute('aria-invalid'), 'true');
  assert.match(await field(page, 'train-error').textContent(), /Training keeps lr = 0\.02\./);
  assert.match(await page.locator('attention-lab [data-testid=train-code] code').textContent(), /torch\.optim\.Adam\(ca\.parameters\(\), lr=0\.02\)/);
  for (const button of ['train-play', 'train-step-button']) {
    await field(page, button).click();
    assert.match(await field(page, 'train-error').textContent(), /Correct it first: nothing trains until the learning rate is one\./);
    assert.equal(await field(page, 'train-play').textContent(), 'Play');
    assert.equal(await field(page, 'train-step').textContent(), '0');
    assert.ok(await field(page, 'train-scrubber').isDisabled(), 'no run was computed');
  }
  await typeInto(page, 'train-lr', '0.05');
  await field(page, 'train-step-button').click();
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=train-step]').textContent === '1');
  assert.equal(await field(page, 'train-error').textContent(), '');
  assert.deepEqual(problems, []);
});

// The page's tensors at this size against the native CLI (§3.4.2's SelfAttention_v1, §3.6.2's MHA), and
// the sections that draw one row or column per token follow.
async function assertFollows(page, x, words) {
  const shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], sa1(x), `sa_v1 at ${x.length} × ${x[0].length}`);
  assert.equal(shown['3.6.2/context_vecs'], mha(x), `MHA at ${x.length} × ${x[0].length}`);
  const T = x.length;
  assert.equal((await field(page, 'temperature-weights').textContent()).split(' ').length, T);
  assert.equal(await page.locator('attention-lab [data-testid=weights-heatmap] td.mv-cell').count(), T * T);
  assert.equal(await page.locator('attention-lab [data-testid=train-heatmap] td.mv-cell').count(), T * T);
  assert.equal(await page.locator('attention-lab .editor-grid tbody input.num-input').count(), T * x[0].length);
  assert.equal(await field(page, 'editor-size').textContent(), `${T} token${T === 1 ? '' : 's'} × ${x[0].length} dimension${x[0].length === 1 ? '' : 's'}`);
  assert.equal(await field(page, `word-${T}`).inputValue(), words[T - 1]);
}

test('add and remove tokens (2–16) and dimensions (1–16): every section follows, as the native CLI computes', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  await openEditor(page);
  let x = BOOK.map((r) => r.slice());
  const words = ['Your', 'journey', 'starts', 'with', 'one', 'step'];
  const click = async (id) => { await field(page, id).click(); await settle(page); };

  await click('add-token');
  x.push([0, 0, 0]); words.push('token7');
  await assertFollows(page, x, words);
  // the new token is edited like any other
  await typeInto(page, 'x-7-2', '0.7');
  x[6][1] = 0.7;
  await click('add-dim');
  x = x.map((r) => [...r, 0]);
  await assertFollows(page, x, words);
  for (let k = 0; k < 5; k++) await click('remove-token');
  x = x.slice(0, 2);
  await assertFollows(page, x, words);
  assert.ok(await field(page, 'remove-token').isDisabled(), 'two tokens at least');
  for (let k = 0; k < 3; k++) await click('remove-dim');
  x = x.map((r) => r.slice(0, 1));
  await assertFollows(page, x, words);
  assert.ok(await field(page, 'remove-dim').isDisabled(), 'one dimension at least');
  for (let k = 0; k < 14; k++) await click('add-token');
  for (let t = 2; t < 16; t++) { x.push([0]); words[t] = `token${t + 1}`; }
  assert.ok(await field(page, 'add-token').isDisabled(), '16 tokens at most');
  await assertFollows(page, x, words);

  // Reset: the book's six tokens of three
  await click('reset');
  assert.equal(await field(page, 'editor-size').textContent(), '6 tokens × 3 dimensions');
  const shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], cellLine('3.4.2/sa_v1'));
  assert.equal(shown['3.6.2/context_vecs'], cellLine('3.6.2/context_vecs'));
  assert.deepEqual(problems, []);
});
