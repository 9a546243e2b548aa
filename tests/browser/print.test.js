// Printing (element.css's @media print, stepper.js and scheduler.js): on paper every drawing is filled
// (the stepper's values not yet stepped to included, in their colours), the learner's answers stay, and
// no control is printed; back on screen the learner's step is as it was.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { launch, startServer, newPage, waitForLab } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

// What a reader would see of the element: its stepper's cells, the controls shown, the answer.
const seen = (page) => page.evaluate(() => {
  const root = document.querySelector('attention-lab').shadowRoot;
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const cells = [...root.querySelectorAll('[data-testid=projection-stepper] .mv-cell')];
  const input = root.querySelector('[data-testid=predict-input]');
  return {
    step: root.querySelector('[data-testid=projection-stepper]').dataset.step,
    cells: cells.length,
    pending: cells.filter((c) => c.hasAttribute('data-pending')).length,
    empty: cells.filter((c) => shown(c) && c.textContent.trim() === '').length,
    uncoloured: cells.filter((c) => !c.style.background).length,
    exact: cells.filter((c) => getComputedStyle(c).printColorAdjust === 'exact').length,
    controls: [...root.querySelectorAll('button:not(.choice), input[type=range], select')].filter(shown).map((b) => b.textContent.trim() || b.outerHTML.slice(0, 60)),
    answer: input && shown(input) ? input.value : null,
    feedback: [...root.querySelectorAll('.feedback')].filter(shown).map((f) => f.textContent.trim()).filter(Boolean),
  };
});

test('on paper: the stepper\'s drawings filled and coloured, the learner\'s answer, no controls; on screen again: the learner\'s step', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}lesson.html`, (route) => route.fulfill({ contentType: 'text/html',
    body: '<!doctype html><html lang="en"><meta charset="utf-8"><title>lesson</title><link rel="icon" href="data:,"><attention-lab section="step-by-step"></attention-lab><script src="attention-lab.js"></script></html>' }));
  await page.goto(`${server.url}lesson.html`);
  await waitForLab(page);
  // the learner answers ω₂₂'s question
  await page.locator('attention-lab [data-testid=predict-input]').first().fill('1.5');
  await page.locator('attention-lab [data-testid=predict-check]').first().click();
  await page.evaluate(() => document.querySelector('attention-lab').updateComplete);
  const screen = await seen(page);
  assert.ok(screen.pending > 0, 'on screen the stepper holds back the values of the steps to come');
  assert.ok(screen.controls.length > 0);
  assert.equal(screen.answer, '1.5');
  assert.ok(screen.feedback.length > 0, 'the answer was graded');

  await page.emulateMedia({ media: 'print' });
  await frames(page);
  const paper = await seen(page);
  assert.ok(paper.cells > 100, `${paper.cells} cells`);
  assert.equal(paper.pending, 0, 'no value held back on paper');
  assert.equal(paper.empty, 0, 'every cell shows its value');
  assert.equal(paper.uncoloured, 0, 'every cell has its colour');
  assert.equal(paper.exact, paper.cells, 'and the colours print (print-color-adjust: exact)');
  assert.deepEqual(paper.controls, [], 'no control on paper');
  assert.equal(paper.answer, '1.5', 'the learner\'s answer is printed');
  assert.deepEqual(paper.feedback, screen.feedback, 'with its verdict');
  const pdf = await page.pdf();
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');

  await page.emulateMedia({ media: 'screen' });
  await frames(page);
  const again = await seen(page);
  assert.equal(again.step, screen.step);
  assert.equal(again.pending, screen.pending, 'back on screen the steps to come are held back again');
  assert.deepEqual(problems, []);
  await page.close();
});
