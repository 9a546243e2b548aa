// KaTeX in the element: every formula renders (at load from the templates the build rendered; KaTeX
// itself loads from katex-lib.js beside attention-lab.js only for a formula without one), and its fonts
// come as separate woff2 files, only the faces the math uses, over http and from file://.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { WEB, launch, startServer, newPage, waitForLab, openEditor } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

// Every .math box in the element: rendered by KaTeX (not empty, not the TeX fallback).
function mathBoxes(page) {
  return page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const boxes = [...root.querySelectorAll('.math')];
    return { count: boxes.length, unrendered: boxes.filter((b) => !b.querySelector('.katex')).map((b) => b.textContent.slice(0, 60)) };
  });
}

// The KaTeX faces the document loaded once the math is on screen and the fonts settled.
function loadedFaces(page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.family.startsWith('KaTeX_') && f.status === 'loaded')
      .map((f) => `${f.family} ${f.style}`).sort();
  });
}

test('over http: every formula is rendered, and only the font files the math uses are fetched', async () => {
  const { page, problems } = await newPage(browser.context);
  const fetched = [];
  page.on('response', (r) => { if (/\.woff2$/.test(r.url())) fetched.push([r.url(), r.status()]); });
  await page.goto(server.url);
  await waitForLab(page);
  const math = await mathBoxes(page);
  assert.ok(math.count > 20, `only ${math.count} formulas`);
  assert.deepEqual(math.unrendered, []);
  const faces = await loadedFaces(page);
  assert.ok(faces.includes('KaTeX_Main normal') && faces.includes('KaTeX_Math italic'), JSON.stringify(faces));
  assert.ok(fetched.length > 0 && fetched.length <= 8, JSON.stringify(fetched));
  // every face fetched is one the formulas' text is set in (family, style and weight)
  const unused = await page.evaluate(() => {
    const used = new Set();
    for (const n of document.querySelector('attention-lab').shadowRoot.querySelectorAll('.katex-html *')) {
      if (![...n.childNodes].some((c) => c.nodeType === Node.TEXT_NODE && c.data.trim())) continue;
      const s = getComputedStyle(n);
      used.add(`${s.fontFamily.split(',')[0].replace(/"/g, '').trim()} ${s.fontStyle} ${s.fontWeight}`);
    }
    return [...document.fonts].filter((f) => f.family.startsWith('KaTeX_') && f.status !== 'unloaded')
      .map((f) => `${f.family.replace(/"/g, '')} ${f.style} ${f.weight}`).filter((face) => !used.has(face));
  });
  assert.deepEqual(unused, []);
  for (const [url, status] of fetched) {
    // the faces cut to the formulas' characters (web/build.mjs; tests/browser/fonts.test.js: they draw as the whole ones)
    assert.match(url.slice(server.url.length), /^katex\/fonts\/subset\/KaTeX_[\w-]+\.woff2$/);
    assert.equal(status, 200);
  }
  assert.equal(await page.evaluate(() => typeof window.katex), 'undefined');
  // the MathML copy for screen readers is laid out in the text's font at one size, untransformed
  // (element.css: in the math font, at each script level's size, with mathematical italic letters, it
  // made the browser look up faces and fallback fonts for a copy nobody sees)
  const mathml = await page.evaluate(() => {
    const host = document.querySelector('attention-lab');
    const font = getComputedStyle(host).fontFamily;
    const nodes = [...host.shadowRoot.querySelectorAll('.katex-mathml, .katex-mathml *')];
    const odd = nodes.map((n) => getComputedStyle(n)).filter((s) => s.display !== 'none')
      .map((s) => `${s.fontFamily}|${s.fontSize}|${s.fontStyle}|${s.fontWeight}|${s.textTransform}`)
      .filter((f) => f !== `${font}|16px|normal|400|none`);
    return { nodes: nodes.length, odd: [...new Set(odd)] };
  });
  assert.ok(mathml.nodes > 100, `only ${mathml.nodes} MathML nodes`);
  assert.deepEqual(mathml.odd, []);
  assert.deepEqual(problems, []);
});

test('the two faces every formula uses are fetched before any formula is in the page, not when the math is laid out', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.addInitScript(() => {
    window.__firstFormula = null;
    const watch = new MutationObserver(() => {
      if (window.__firstFormula === null && document.querySelector('attention-lab').shadowRoot.querySelector('.katex')) {
        window.__firstFormula = performance.now();
        watch.disconnect();
      }
    });
    const attach = () => {
      const root = document.querySelector('attention-lab')?.shadowRoot;
      if (root) watch.observe(root, { subtree: true, childList: true });
      else requestAnimationFrame(attach);
    };
    attach();
  });
  await page.goto(server.url);
  await waitForLab(page);
  const { firstFormula, fetched } = await page.evaluate(() => ({
    firstFormula: window.__firstFormula,
    fetched: Object.fromEntries(performance.getEntriesByType('resource').filter((e) => /\.woff2$/.test(e.name))
      .map((e) => [e.name.split('/').pop(), e.startTime])),
  }));
  assert.ok(firstFormula > 0, 'a formula was rendered');
  for (const face of ['KaTeX_Main-Regular.woff2', 'KaTeX_Math-Italic.woff2']) {
    assert.ok(fetched[face] !== undefined, `${face} fetched: ${JSON.stringify(fetched)}`);
    assert.ok(fetched[face] < firstFormula, `${face} fetched at ${fetched[face]} ms, the first formula in the page at ${firstFormula} ms`);
  }
  assert.deepEqual(problems, []);
});

test('from file://: the formulas render with KaTeX fonts too', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`file://${path.join(WEB, 'index.html')}`);
  await waitForLab(page);
  assert.deepEqual((await mathBoxes(page)).unrendered, []);
  const faces = await loadedFaces(page);
  assert.ok(faces.includes('KaTeX_Main normal') && faces.includes('KaTeX_Math italic'), JSON.stringify(faces));
  assert.deepEqual(problems, []);
});

test('index.html shows its math without katex-lib.js, with new numbers too; a formula with no template loads it, and renders', async () => {
  const { page, problems } = await newPage(browser.context);
  const scripts = [];
  page.on('request', (r) => { if (r.resourceType() === 'script') scripts.push(r.url().slice(server.url.length)); });
  await page.goto(server.url);
  await waitForLab(page);
  await page.evaluate(() => document.querySelector('attention-lab').updateComplete);
  const math = await mathBoxes(page);
  assert.ok(math.count > 20, `only ${math.count} formulas`);
  assert.deepEqual(math.unrendered, []);
  // the accessible half of KaTeX's htmlAndMathml output, from the template: MathML with its TeX
  assert.equal(await page.evaluate(() => document.querySelector('attention-lab').shadowRoot
    .querySelector('[data-testid=z2] .katex-mathml math annotation').textContent), await page.evaluate(() => document.querySelector('attention-lab').shadowRoot
    .querySelector('[data-testid=z2] .math').dataset.tex.slice(1)));
  assert.ok(!scripts.includes('katex-lib.js'), JSON.stringify(scripts));
  assert.equal(await page.evaluate(() => typeof self.AttentionLabKatex), 'undefined');
  // the element's sheet has only the KaTeX rules the build-time templates use (no accents in the page's math)
  const katexRules = () => page.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.adoptedStyleSheets[0].cssRules]
    .filter((r) => /\.katex/.test(r.selectorText || '')).map((r) => r.selectorText));
  const rulesAtLoad = await katexRules();
  assert.ok(rulesAtLoad.some((r) => r.includes('.mfrac')) && !rulesAtLoad.some((r) => r.includes('.accent-body')), rulesAtLoad.join(' '));

  // seed 7: new numbers in the same formulas, patched into their templates (still no KaTeX)
  await openEditor(page);
  const before = await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=z2] .math').dataset.tex);
  const patched = await page.evaluate(async () => {
    const lab = document.querySelector('attention-lab');
    const field = lab.shadowRoot.querySelector('[data-testid="seed"]');
    field.value = '7';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await lab.updateComplete;
    const box = lab.shadowRoot.querySelector('[data-testid=z2] .math');
    return { tex: box.dataset.tex, rendered: box.dataset.rendered, annotation: box.querySelector('annotation').textContent,
      mn: [...box.querySelectorAll('.katex-mathml mn')].map((n) => n.textContent).join(' '), html: box.querySelector('.katex-html').textContent };
  });
  assert.notEqual(patched.tex, before);
  assert.equal(patched.rendered, patched.tex);
  assert.equal(patched.annotation, patched.tex.slice(1));
  const numbers = patched.tex.match(/\d+\.\d{4}/g);   // z(2)'s weights and entries, as the TeX has them
  for (const n of numbers) {
    assert.ok(patched.mn.split(' ').includes(n), `${n} in the MathML`);
    assert.ok(patched.html.includes(n), `${n} in the HTML`);
  }
  assert.ok(!scripts.includes('katex-lib.js'), JSON.stringify(scripts));

  // d_out = 4: z(2) has four entries, a formula of a shape the build did not render
  await page.evaluate(async () => {
    const lab = document.querySelector('attention-lab');
    const field = lab.shadowRoot.querySelector('[data-testid="d_out"]');
    field.value = '4';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await lab.updateComplete;
  });
  await page.waitForFunction(() => {
    const box = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=z2] .math');
    return box.dataset.rendered === box.dataset.tex && box.querySelectorAll('.katex-mathml mn').length > 0;
  });
  assert.ok(scripts.includes('katex-lib.js'), JSON.stringify(scripts));
  assert.deepEqual((await mathBoxes(page)).unrendered, []);
  // KaTeX at run time brings its whole sheet, in before the formula it renders
  const rulesAfter = await katexRules();
  assert.ok(rulesAfter.some((r) => r.includes('.accent-body')) && rulesAfter.length > 2 * rulesAtLoad.length, `${rulesAtLoad.length} -> ${rulesAfter.length}`);
  assert.match(await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=z2] annotation').textContent),
    /\\end\{aligned\}$/);
  assert.deepEqual(problems, []);
});
