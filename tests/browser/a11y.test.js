// Accessibility: axe-core (WCAG 2 A/AA rules: labels, names, contrast, ARIA) finds nothing on the
// whole page, and the Tab order walks the page top to bottom.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, launch, startServer, newPage, waitForLab, openEditor, layOutEverySection } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

test('axe-core finds no WCAG A/AA violations, in the shadow root too', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  await openEditor(page);
  await layOutEverySection(page);
  // evaluated through the devtools protocol, which the page's CSP does not govern
  await page.evaluate(fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
});

test('Tab order follows the page: ladder, editor, then the sections in order, then the progress', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  // open without clicking, so Tab starts from the top of the page
  await page.evaluate(() => { document.querySelector('attention-lab').shadowRoot.querySelector('details.editor').open = true; });
  const order = [];
  for (let i = 0; i < 160; i++) {   // §3.3.2 first (issue 42): its controls come before §3.4's
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => {
      const el = document.querySelector('attention-lab').shadowRoot.activeElement;
      if (!el) return null;
      const sec = el.closest('[data-section]');
      return sec ? sec.dataset.section : el.closest('.ladder-nav') ? 'ladder' : el.closest('.progress-bar') ? 'progress' : el.closest('.editor') ? 'editor' : 'other';
    }));
  }
  let firsts = order.filter((v, i) => v && v !== order[i - 1]);
  firsts = firsts.slice(0, firsts.indexOf('ladder', 1) > 0 ? firsts.indexOf('ladder', 1) : undefined);   // one lap
  const rank = ['ladder', 'editor', 'batched', 'step-by-step', 'temperature', 'why-sqrt-dk', 'classes', 'causal', 'multi-head', 'bug-hunt', 'check', 'train', 'progress'];
  assert.deepEqual(firsts.slice(0, 2), ['ladder', 'editor']);
  assert.ok(['batched', 'step-by-step', 'temperature'].every((id) => firsts.includes(id)), firsts.join(' → '));
  assert.ok(firsts.every((v, i) => i === 0 || rank.indexOf(v) > rank.indexOf(firsts[i - 1])), `not in page order: ${firsts.join(' → ')}`);
  assert.deepEqual(problems, []);
});

test('axe-core, every rule: no serious or critical violation, no empty table header, at 1280 px or at 390 px, editor open and after Play (scroll regions reachable)', async () => {
  for (const width of [1280, 390]) {
    const { page, problems } = await newPage(browser.context);
    await page.setViewportSize({ width, height: 900 });
    await page.goto(server.url);
    await waitForLab(page);
    await openEditor(page);
    await layOutEverySection(page);
    // after Play: the trained weights (W_q's p1… rows) in their colours
    await page.locator('attention-lab [data-testid=train-play]').click();
    await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=train-step]').textContent === '300', null, { timeout: 60000 });
    await layOutEverySection(page);
    await page.evaluate(fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
    const serious = await page.evaluate(async () => (await window.axe.run(document)).violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'empty-table-header')
      .map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
    assert.deepEqual(serious, [], `at ${width} px`);
    if (width === 390) {
      // what scrolls sideways is a Tab stop; what does not, is not
      const wrong = await page.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('pre, .math.display, .scroll')]
        .filter((el) => !el.closest('.mv') && (el.scrollWidth > el.clientWidth + 1) !== (el.tabIndex === 0)).map((el) => el.className));
      assert.deepEqual(wrong, []);
      // and each shows a cue that it does: a shadow attached to its box's right edge, in sight before it is scrolled
      const noCue = await page.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('[data-scrolls]')]
        .filter((el) => { const s = getComputedStyle(el); return !/gradient/.test(s.backgroundImage) || s.backgroundAttachment !== 'scroll' || !/100%/.test(s.backgroundPositionX); })
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`));
      assert.deepEqual(noCue, []);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});
