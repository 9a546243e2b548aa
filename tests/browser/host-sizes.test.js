// Sizes follow the element, never the host page's root: under Bootstrap 3's or Jupyter's
// `html { font-size: 10px }` the widget looks as it does anywhere else, and
// --attention-lab-font-size scales all of it.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, launch, startServer, newPage, waitForLab, layOutEverySection } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

// A course page with the given <style>, the element of the given section.
async function courseSizes(style, section = 'all') {
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}course.html`, (route) => route.fulfill({ contentType: 'text/html',
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,"><style>${style}</style><attention-lab section="${section}"></attention-lab><script src="attention-lab.js"></script></html>` }));
  await page.goto(`${server.url}course.html`);
  await waitForLab(page);
  await layOutEverySection(page);
  const sizes = await page.evaluate((whole) => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const props = ['font-size', 'line-height', 'margin-top', 'margin-bottom', 'padding-top', 'padding-left', 'row-gap', 'max-width', 'min-width', 'height'];
    // the first few of each kind a reader sees: headings, hints, cells, code, buttons, fields, legends
    const kinds = ['h1', 'h2', 'h3', 'p', '.hint', '.mv-cell', '.mv-row', '.mv-shape', '.mv-legend', '.mv-ramp', 'pre.code', 'pre.out',
      'button:not([class^=export])', '.export-btn', 'input', '.stepper-caption', '.sf-grid td', '.predict', '.footer', '.bar-track', '.editor', '.ladder li'];
    const out = {};
    for (const kind of kinds) {
      const els = [...root.querySelectorAll(kind)].slice(0, 5);
      if (!els.length && whole) throw new Error(`no ${kind} on the page`);
      out[kind] = els.map((el) => { const cs = getComputedStyle(el); return Object.fromEntries(props.map((p) => [p, cs.getPropertyValue(p)])); });
    }
    return out;
  }, section === 'all');
  assert.deepEqual(problems, []);
  await page.close();
  return sizes;
}

test('under html { font-size: 10px } (Bootstrap 3, Jupyter) every size is what it is without it', async () => {
  const plain = await courseSizes('');
  assert.equal(plain.h2[0]['font-size'], '21.6px', 'h2: 1.35 of the element\'s 16 px');
  assert.equal(plain['.hint'][0]['font-size'], '14.4px');
  assert.equal(plain['.mv-cell'][0]['font-size'], '12.5px');
  assert.deepEqual(await courseSizes('html { font-size: 10px } body { font-size: 13px }'), plain);
  assert.deepEqual(await courseSizes('html { font-size: 24px }'), plain);
});

test('--attention-lab-font-size scales the whole widget', async () => {
  const sizes = await courseSizes('attention-lab { --attention-lab-font-size: 20px }', 'step-by-step');
  assert.equal(sizes.h2[0]['font-size'], '27px');
  assert.equal(sizes.h2[0]['margin-top'], `${2.2 * 20}px`);
  assert.equal(sizes['.mv-cell'][0]['font-size'], `${12.5 * 20 / 16}px`);
  assert.equal(sizes['button:not([class^=export])'][0]['padding-left'], '16px');
});

test('the element\'s style sheets hold no rem (relative to the host page\'s root)', () => {
  for (const file of ['web/src/element.css', 'web/src/views/views.css', 'web/src/learn/learn.css']) {
    const css = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    assert.doesNotMatch(css, /\d\s*rem\b/, file);
  }
});
