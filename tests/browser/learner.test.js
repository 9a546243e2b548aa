// Issue 12 item 9, what a learner found, each checked as the learner met it: §3.5's text follows its
// numbers when the routes differ, the text quotes the book and the learner's own d_out apart, the
// temperature section reads as a whole on its own, and the slider's accessible name is a phrase.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { launch, startServer, newPage, waitForLab, openEditor, settle, shownCells } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

test('§3.5: with token 2\'s first value at 1000 route 1 prints nan and the text no longer says the routes agree', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=causal`);
  await waitForLab(page);
  const verdict = page.locator('[data-testid=routes-verdict]');
  const headings = () => page.locator('[data-section=causal] h3').allTextContents();
  assert.match(await verdict.textContent(), /^Both routes print the same weights/);
  assert.ok((await headings()).includes('Route 2: −∞ before softmax (one step, same result)'));
  await openEditor(page);
  await page.locator('[data-testid="x-2-1"]').fill('1000');
  const shown = await shownCells(page);
  assert.match(shown['3.5.1/masked_simple_norm'], /nan/);
  assert.doesNotMatch(shown['3.5.1/attn_weights_causal'], /nan/);
  assert.match(await verdict.textContent(), /^Here the two routes print different weights/);
  assert.ok(!(await headings()).some((t) => /same/.test(t)), `a heading still says "same": ${await headings()}`);
  assert.deepEqual(problems, []);
});

test('after d_out is changed the text says what the book picks and what the learner chose', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  const text = () => page.locator('[data-section=step-by-step]').textContent();
  assert.match(await text(), /The book picks d_in = 3 and d_out = 2\./);
  await openEditor(page);
  await page.locator('[data-testid=d_out]').fill('4');
  await settle(page);
  assert.match(await text(), /The book picks d_in = 3 and d_out = 2; you chose d_out = 4/);
  assert.doesNotMatch(await text(), /The book picks d_in = 3 and d_out = 4/);
  assert.deepEqual(problems, []);
});

test('section="temperature" alone: starts with its heading, shows the scores it divides, a discreet engine line', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=temperature`);
  await waitForLab(page);
  const r = await page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const host = document.querySelector('attention-lab').getBoundingClientRect();
    const section = root.querySelector('[data-section=temperature]');
    const heading = section.querySelector('h2');
    const footer = root.querySelector('[data-testid=engine-footer]');
    const ruled = (el) => { const style = getComputedStyle(el); return style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) > 0; };
    return {
      gap: heading.getBoundingClientRect().top - host.top + parseFloat(getComputedStyle(heading).paddingTop),
      rule: ruled(section) || ruled(heading),
      footerSize: parseFloat(getComputedStyle(footer).fontSize), bodySize: parseFloat(getComputedStyle(section.querySelector('p')).fontSize),
    };
  });
  assert.ok(r.gap < 12, `the heading's text starts ${r.gap} px below the element's top`);
  assert.equal(r.rule, false, 'no rule above a section that stands alone');
  assert.ok(r.footerSize < r.bodySize, `the engine line (${r.footerSize} px) is smaller than the text (${r.bodySize} px)`);
  assert.match(await page.locator('[data-testid=temperature-scores]').textContent(), /^\[1\.2705, 1\.8524/);
  assert.deepEqual(problems, []);
});

test('the slider\'s accessible name is a phrase with no dangling "="', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=temperature`);
  await waitForLab(page);
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const slider = nodes.find((n) => n.role && n.role.value === 'slider');
  const name = slider.name.value;
  assert.equal(name, 'Temperature T');
  assert.match(await page.locator('[data-testid=temperature-slider]').getAttribute('aria-valuetext'), /^T = 1\.414 \(√d_k\); weights 0\.1500/);
  assert.deepEqual(problems, []);
});
