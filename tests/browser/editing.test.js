// Editing: a change recomputes everything at once; a bad value is marked at its field (aria-invalid,
// a message linked by aria-describedby) while the rest keeps working; Reset brings the book back.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { cellLine, launch, startServer, newPage, waitForLab, openEditor, settle, shownCells, nativeEval } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

const BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]];

async function expectMarked(page, testid, pattern) {
  const field = page.locator(`[data-testid="${testid}"]`);
  assert.equal(await field.getAttribute('aria-invalid'), 'true', `${testid} is not marked`);
  const described = await field.getAttribute('aria-describedby');
  const msg = await page.evaluate((id) => document.querySelector('attention-lab').shadowRoot.getElementById(id), described);
  assert.ok(msg !== null);
  const text = await page.evaluate((id) => { const el = document.querySelector('attention-lab').shadowRoot.getElementById(id); return el.hidden ? null : el.textContent; }, described);
  assert.match(text, pattern);
}

test('edit, bad input, recover, reset', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  await openEditor(page);

  // a new value for x(2)[0]: every tensor is recomputed, equal to the native engine's
  await page.locator('[data-testid="x-2-1"]').fill('0.9');
  const x = BOOK.map((r) => r.slice()); x[1][0] = 0.9;
  let shown = await shownCells(page);
  const v1 = nativeEval({ op: 'self_attention_v1', seed: 123, x, d_out: 2 });
  assert.equal(shown['3.4.2/sa_v1'], v1.print.replace(/\)$/, ', grad_fn=<MmBackward0>)'));
  const mha = nativeEval({ op: 'mha', seed: 123, x: [x, x], d_out: 2, context_length: 6, dropout: 0, num_heads: 2 });
  assert.equal(shown['3.6.2/context_vecs'], mha.print.replace(/\)$/, ', grad_fn=<ViewBackward0>)'));
  assert.notEqual(shown['3.4.1/query_2'], cellLine('3.4.1/query_2'));
  // §3.5's steps and exercise 3.1 follow the edit too (the engine replays the chapter on these inputs)
  assert.notEqual(shown['3.5.1/attn_weights_causal'], cellLine('3.5.1/attn_weights_causal'));
  assert.notEqual(shown['3.5.2/dropout_attn_weights'], cellLine('3.5.2/dropout_attn_weights'));
  // exercise 3.1's solution, as the author's notebook builds it (sa_v2 after seed 123): sa_v1's print, then sa_v2's
  const notebookV2 = nativeEval({ op: 'self_attention_v2', seed: 123, x, d_out: 2 }).print_with_grad_fn;
  assert.equal(shown['ex3.1/notebook'], `${notebookV2}\n${notebookV2}`);

  // bad values: each is marked at its field with a sentence; the page keeps the last good value
  const before = await shownCells(page);
  for (const [value, pattern] of [['', /Enter a number/], ['abc', /not a number/], ['1e308', /from -1000 to 1000/], ['NaN', /not a number/]]) {
    await page.locator('[data-testid="x-3-2"]').fill(value);
    await expectMarked(page, 'x-3-2', pattern);
    assert.deepEqual(await shownCells(page), before, `the bad value ${JSON.stringify(value)} changed the outputs`);
  }
  await page.locator('[data-testid="seed"]').fill('12.5');
  await expectMarked(page, 'seed', /whole number/);
  await page.locator('[data-testid="d_out"]').fill('0');
  await expectMarked(page, 'd_out', /from 1 to 16/);
  await page.locator('[data-testid="word-2"]').fill('   ');
  await expectMarked(page, 'word-2', /Enter a word/);

  // the rest still works: another field recomputes while the bad ones stay marked
  await page.locator('[data-testid="x-1-1"]').fill('-0');
  x[0][0] = 0;
  shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], nativeEval({ op: 'self_attention_v1', seed: 123, x, d_out: 2 }).print.replace(/\)$/, ', grad_fn=<MmBackward0>)'));
  assert.equal(await page.locator('[data-testid="x-1-1"]').getAttribute('aria-invalid'), null);
  assert.equal(await page.locator('[data-testid="x-3-2"]').getAttribute('aria-invalid'), 'true');

  // words are text, never markup
  await page.locator('[data-testid="word-1"]').fill('<img src=x>');
  await settle(page);
  assert.equal(await page.locator('attention-lab img').count(), 0);
  assert.match(await page.locator('[data-section=batched] .words').textContent(), /<img src=x>/);

  // d_out = 3: MultiHeadAttention with 2 heads refuses it with the engine's sentence, the rest goes on
  await page.locator('[data-testid="d_out"]').fill('3');
  await settle(page);
  assert.match(await page.locator('[data-section=multi-head]').textContent(), /d_out \(3\) must be divisible by num_heads \(2\)/);
  assert.equal((await page.locator('[data-testid=temperature-weights]').textContent()).split(' ').length, 6);

  // Reset: the book's values, no marks
  await page.locator('[data-testid=reset]').click();
  shown = await shownCells(page);
  for (const id of ['3.4.1/query_2', '3.4.2/sa_v1', '3.6.2/context_vecs', '3.3.2/all_context_vecs']) assert.equal(shown[id], cellLine(id));
  assert.equal(await page.locator('attention-lab [aria-invalid=true]').count(), 0);
  assert.equal(await page.locator('[data-testid="word-1"]').inputValue(), 'Your');
  assert.deepEqual(problems, []);
});

test('seed and d_out recompute the step-by-step view', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=step-by-step`);
  await waitForLab(page);
  await page.locator('attention-lab summary').click();   // one section: the editor starts folded
  await page.locator('[data-testid="seed"]').fill('7');
  await page.locator('[data-testid="d_out"]').fill('4');
  const v1 = nativeEval({ op: 'self_attention_v1', seed: 7, x: BOOK, d_out: 4 });
  const shown = await shownCells(page);
  const row2 = v1.values.slice(4, 8).map((v) => v.toFixed(4));
  assert.equal(shown['3.4.1/context_vec_2'], `tensor([${row2.join(', ')}])`);
  assert.equal(shown['3.4.1/keys.shape'], 'keys.shape: torch.Size([6, 4])');
  assert.deepEqual(problems, []);
});

