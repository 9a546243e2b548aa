// The drawing views (web/src/views/) in Chromium, on the engine's own numbers: the test page
// (fixtures/views.html) is bundled here with esbuild's JS API into build/views-fixture/, beside build/web.
// Checks data attributes, colours, the full value on hover and focus, highlights, the stepper, updates
// in place, the 390 px fit and axe-core; screenshots go to build/screenshots/views-*.png.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');
const { ROOT, SCREENSHOTS, launch, startServer, newPage } = require('./helpers');

const OUT = path.join(ROOT, 'build/views-fixture');
let browser, server;

before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  await esbuild.build({
    entryPoints: [path.join(__dirname, 'fixtures/views-entry.js')],
    outfile: path.join(OUT, 'views-fixture.js'),
    bundle: true, format: 'iife', target: 'es2020', loader: { '.css': 'text' }, logLevel: 'error',
  });
  fs.copyFileSync(path.join(__dirname, 'fixtures/views.html'), path.join(OUT, 'views.html'));
  browser = await launch();
  server = await startServer(path.join(ROOT, 'build'));
});
after(async () => { await browser.close(); await server.close(); });

async function openDemo(viewport = { width: 1280, height: 900 }) {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize(viewport);
  await page.goto(`${server.url}views-fixture/views.html`);
  await page.waitForSelector('views-demo[data-ready]', { timeout: 30000 });
  return { page, problems };
}

// Runs fn(shadowRoot, demo, arg) in the page.
// (an expression evaluated through the devtools protocol, which the page's CSP does not govern)
const inDemo = (page, fn, arg) => page.evaluate(`(${fn})(document.querySelector('views-demo').shadowRoot, window.viewsDemo, ${JSON.stringify(arg ?? null)})`);

test('every drawn cell carries its row, column and the engine’s value as shortest round-trip text', async () => {
  const { page, problems } = await openDemo();
  const { cells, t } = await inDemo(page, (root, demo) => ({
    cells: [...root.querySelectorAll('[data-testid=weights-heatmap] td.mv-cell')].map((td) => ({ i: Number(td.dataset.row), j: Number(td.dataset.col), text: td.dataset.value })),
    t: demo.results().R.attn_weights,
  }));
  assert.equal(cells.length, 36);
  assert.deepEqual(cells.map((c) => c.i * 6 + c.j), [...Array(36).keys()]);
  // significant digits of a decimal text: without sign, point, exponent, leading and trailing zeros
  const digits = (text) => text.replace(/e.*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
  for (const { i, j, text } of cells) {
    const value = t.values[i * 6 + j];
    assert.equal(Math.fround(Number(text)), Math.fround(value), `cell ${i},${j}: ${text} is not the float ${value}`);
    const n = digits(text);
    if (n > 1) assert.notEqual(Math.fround(Number(value.toPrecision(n - 1))), Math.fround(value), `cell ${i},${j}: ${text} is not the shortest`);
  }
  // the book's §3.4.1 numbers, shown to 4 decimals in the cells and in full in data-value
  const z2 = await inDemo(page, (root) => [...root.querySelectorAll('[data-matrix=context_vec] td[data-row="1"]')].map((td) => td.textContent));
  assert.deepEqual(z2, ['0.3061', '0.8210']);
  const wq = await inDemo(page, (root) => [...root.querySelectorAll('[data-matrix=W_query] td.mv-cell')].map((td) => [td.textContent, td.dataset.value]));
  assert.deepEqual(wq[0], ['0.3', '0.29611194']);   // 1 decimal as the book's figure, the full float kept
  assert.deepEqual(problems, []);
});

test('colours follow the values: viridis for weights, blue-white-red around 0 for signed values', async () => {
  const { page } = await openDemo();
  const c = await inDemo(page, (root) => {
    const bg = (sel) => [...root.querySelectorAll(sel)].map((td) => ({ v: Number(td.dataset.value), bg: getComputedStyle(td).backgroundColor, fg: getComputedStyle(td).color }));
    return { causal: bg('[data-testid=causal-heatmap] td.mv-cell:not(.mv-masked)'), signed: bg('[data-testid=signed-matrix] td.mv-cell'), masked: bg('[data-testid=causal-heatmap] td.mv-masked') };
  });
  const rgb = (s) => s.match(/\d+/g).map(Number);
  const lum = (s) => { const [r, g, b] = rgb(s).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  // sequential: a larger weight is drawn darker (more ink), and distinct values get distinct colours
  const byValue = [...c.causal].sort((a, b) => a.v - b.v);
  for (let i = 1; i < byValue.length; i++) if (byValue[i].v > byValue[i - 1].v + 0.02) assert.ok(lum(byValue[i].bg) < lum(byValue[i - 1].bg), `${byValue[i].v} not darker than ${byValue[i - 1].v}`);
  assert.equal(new Set(c.causal.map((x) => x.bg)).size > 10, true);
  // diverging: negatives blue (b > r), positives red (r > b)
  for (const x of c.signed) {
    const [r, , b] = rgb(x.bg);
    if (x.v < -0.05) assert.ok(b > r, `${x.v} is not blue: ${x.bg}`);
    if (x.v > 0.05) assert.ok(r > b, `${x.v} is not red: ${x.bg}`);
  }
  // text keeps 4.5:1 on every cell
  for (const x of [...c.causal, ...c.signed]) {
    const [l1, l2] = [lum(x.bg), lum(x.fg)].sort((a, b) => b - a);
    assert.ok((l1 + 0.05) / (l2 + 0.05) >= 4.5, `contrast on ${x.bg}`);
  }
  // the causal mask: the upper triangle, greyed, data-value 0
  assert.equal(c.masked.length, 15);
  assert.ok(c.masked.every((x) => x.v === 0));
});

test('hover and focus show the full value; arrow keys move a roving tabindex', async () => {
  const { page, problems } = await openDemo();
  const heat = '[data-testid=weights-heatmap]';
  const cell = page.locator(`views-demo ${heat} td[data-row="1"][data-col="2"]`);
  await cell.hover();
  const tip = page.locator(`views-demo ${heat} .mv-tip`);
  const value = await cell.getAttribute('data-value');
  assert.equal(await tip.isVisible(), true);
  assert.match(await tip.textContent(), new RegExp(`journey, starts\\] = ${value.replace('.', '\\.')}$`));
  assert.match(await cell.getAttribute('aria-label'), new RegExp(`query journey, key starts: ${value.replace('.', '\\.')}$`));
  await page.mouse.move(0, 0);
  assert.equal(await tip.isVisible(), false);

  // one Tab stop per matrix; arrows move it, the tooltip follows focus
  const tabStops = await inDemo(page, (root) => root.querySelectorAll('[data-testid=weights-heatmap] td[tabindex="0"]').length);
  assert.equal(tabStops, 1);
  await cell.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const focused = await inDemo(page, (root) => { const a = root.activeElement; return [a.dataset.row, a.dataset.col, a.tabIndex, a.dataset.value]; });
  assert.deepEqual(focused.slice(0, 3), ['2', '3', 0]);
  assert.match(await tip.textContent(), new RegExp(`= ${focused[3].replace('.', '\\.')}$`));
  await page.keyboard.press('End');
  assert.equal(await inDemo(page, (root) => root.activeElement.dataset.col), '5');
  assert.deepEqual(problems, []);
});

test('a weight under the pointer highlights its query, key and value rows and its share of z', async () => {
  const { page } = await openDemo();
  await page.locator('views-demo [data-testid=weights-heatmap] td[data-row="1"][data-col="4"]').hover();
  const marked = await inDemo(page, (root) => {
    const rowsOf = (name) => [...new Set([...root.querySelectorAll(`[data-matrix=${name}] td[data-hl]`)].map((td) => td.dataset.row))];
    const style = getComputedStyle(root.querySelector('[data-matrix=queries] td[data-hl]'));
    return { q: rowsOf('queries'), k: rowsOf('keys'), v: rowsOf('values'), z: rowsOf('context_vec'), outline: style.boxShadow };
  });
  assert.deepEqual([marked.q, marked.k, marked.v, marked.z], [['1'], ['4'], ['4'], ['1']]);
  assert.notEqual(marked.outline, 'none');   // an outline, not colour alone
  await page.mouse.move(0, 0);   // back to the stepper's step 1: q⁽²⁾₁ alone
  assert.deepEqual(await inDemo(page, (root) => [...root.querySelectorAll('[data-matrix=queries] [data-hl]')].map((n) => `${n.dataset.row},${n.dataset.col}:${n.dataset.hl}`)), ['1,0:cell']);
  assert.equal(await inDemo(page, (root) => root.querySelectorAll('[data-matrix=keys] [data-hl]').length), 0);
  // the API: rows, columns and cells; a new highlight replaces the old one
  const api = await inDemo(page, (root, demo) => {
    demo.views.x.highlight({ rows: [0], cols: [2], cells: [[5, 0]] });
    const hl = [...root.querySelectorAll('[data-matrix=inputs] td[data-hl]')].map((td) => `${td.dataset.row}${td.dataset.col}:${td.dataset.hl}`).sort();
    demo.views.x.highlight({ cells: [[3, 1]] });
    const after = [...root.querySelectorAll('[data-matrix=inputs] [data-hl]')].map((td) => `${td.dataset.row}${td.dataset.col}`);
    demo.views.x.clearHighlight();
    return { hl, after };
  });
  assert.deepEqual(api.hl, ['00:line', '01:line', '02:line', '12:line', '22:line', '32:line', '42:line', '50:cell', '52:line']);
  assert.deepEqual(api.after, ['31']);
});

test('the stepper walks forward and back, by buttons and by keys, and back restores the state exactly', async () => {
  const { page, problems } = await openDemo();
  const state = () => inDemo(page, (root) => ({
    caption: root.querySelector('[data-testid=step-caption]').textContent,
    count: root.querySelector('.stepper-count').textContent,
    hl: [...root.querySelectorAll('[data-testid=projection-stepper] [data-hl]')].map((n) => `${n.closest('[data-matrix]').dataset.matrix}:${n.dataset.row ?? ''},${n.dataset.col ?? ''}:${n.dataset.hl}`).sort().join(' '),
    revealed: root.querySelector('[data-matrix=context_vec]').hasAttribute('data-revealed'),
  }));
  const s0 = await state();
  assert.match(s0.caption, /^q⁽²⁾₁ = x⁽²⁾ · W_q\[:, 1\] = 0\.5500·0\.2961 \+ 0\.8700·0\.2517 \+ 0\.6600·0\.0740 ≈ 0\.4306$/);
  assert.equal(s0.count, 'Step 1 of 12');
  assert.equal(await page.locator('views-demo [data-testid=step-caption]').getAttribute('aria-live'), 'polite');
  const next = page.locator('views-demo [data-testid=step-next]');
  await next.click();
  const s1 = await state();
  assert.notEqual(s1.caption, s0.caption);
  await page.locator('views-demo [data-testid=step-prev]').click();
  assert.deepEqual(await state(), s0);

  // keys: → to the last step (the result appears), ← back; focus stays on the button at the end
  await next.focus();
  const seen = [];
  for (let i = 0; i < 12; i++) { await page.keyboard.press('ArrowRight'); seen.push(await state()); }
  const last = seen[seen.length - 1];
  assert.equal(last.count, 'Step 12 of 12');
  assert.match(last.caption, /z⁽²⁾ = \[0\.3061, 0\.8210\]$/);
  assert.equal(last.revealed, true);
  assert.equal(await next.getAttribute('aria-disabled'), 'true');
  assert.equal(await inDemo(page, (root) => root.activeElement && root.activeElement.dataset.testid), 'step-next');
  for (let i = seen.length - 3; i >= 0; i--) {
    await page.keyboard.press('ArrowLeft');
    if (seen[i].count !== last.count) assert.deepEqual(await state(), seen[i]);
  }
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await state(), s0);
  assert.deepEqual(problems, []);
});

test('update() changes the drawing in place: same cells, keyboard focus kept', async () => {
  const { page, problems } = await openDemo();
  const cell = page.locator('views-demo [data-testid=weights-heatmap] td[data-row="2"][data-col="3"]');
  await cell.focus();
  const before = await inDemo(page, (root, demo) => {
    const td = root.activeElement;
    td.marker = 'kept';
    demo.walk.go(4);
    return { value: td.dataset.value, bg: td.style.background, step: demo.walk.index };
  });
  const after = await inDemo(page, (root, demo) => {
    demo.rerun({ seed: 7 });
    const td = root.activeElement;
    return { kept: td && td.marker, row: td && td.dataset.row, value: td.dataset.value, bg: td.style.background, step: demo.walk.index, caption: root.querySelector('[data-testid=step-caption]').textContent };
  });
  assert.equal(after.kept, 'kept');
  assert.equal(after.row, '2');
  assert.notEqual(after.value, before.value);
  assert.notEqual(after.bg, before.bg);
  assert.equal(after.step, 4);   // the stepper stays on its step, with the new numbers
  assert.deepEqual(problems, []);
});

test('a view holding the focus draws an update at once, even before the observer sees it back on screen', async () => {
  const { page, problems } = await openDemo({ width: 1280, height: 400 });
  const result = await inDemo(page, async (root, demo) => {
    const frames = (n) => new Promise((done) => { const tick = () => (n-- > 0 ? requestAnimationFrame(tick) : done()); tick(); });
    const map = root.querySelector('[data-testid=weights-heatmap]');
    window.scrollTo(0, map.getBoundingClientRect().bottom + window.scrollY + 2000);   // off screen, and reported so
    await frames(3);
    const td = map.querySelector('td[data-row="2"][data-col="3"]');
    const before = td.dataset.value;
    td.focus();   // scrolls it back into view; the observer reports that only in the next frame
    demo.rerun({ seed: 7 });
    return { before, after: td.dataset.value, focused: root.activeElement === td };
  });
  assert.equal(result.focused, true);
  assert.notEqual(result.after, result.before);
  assert.deepEqual(problems, []);
});

test('at 390 px nothing is wider than the screen, and axe finds no serious or critical violation at 1280 or 390', async () => {
  for (const width of [1280, 390]) {
    const { page, problems } = await openDemo({ width, height: 900 });
    await page.waitForTimeout(100);   // ResizeObservers have laid the views out (not a timing assertion)
    const wide = await inDemo(page, (root, demo, w) => {
      const out = [];
      for (const node of root.querySelectorAll('*')) {
        const r = node.getBoundingClientRect();
        if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)) out.push(`${node.tagName}.${node.getAttribute('class')} ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
      return { out, scroll: document.documentElement.scrollWidth };
    }, width);
    assert.deepEqual(wide.out, [], `at ${width} px`);
    assert.ok(wide.scroll <= width, `the page scrolls sideways at ${width} px: ${wide.scroll}`);
    if (width === 390) {
      const fit = await inDemo(page, (root) => root.querySelector('[data-testid=weights-heatmap]').dataset.fit);
      assert.notEqual(fit, undefined);
    }
    await page.evaluate(fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] } });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    });
    assert.deepEqual(violations, [], `at ${width} px`);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `views-${width}.png`), fullPage: true });
    assert.deepEqual(problems, []);
  }
});

test('the plots name the point under the pointer, and z(2) moves among the value vectors', async () => {
  const { page, problems } = await openDemo();
  const plot = page.locator('views-demo [data-testid=dk-spread] svg');
  await plot.scrollIntoViewIfNeeded();
  const box = await plot.boundingBox();
  await page.mouse.move(box.x + box.width - 20, box.y + 30);
  assert.match(await page.locator('views-demo [data-testid=dk-spread] .plot-readout').textContent(), /^d_k = 1024: the scores’ std is 33\.31, close to √d_k = 32\.00$|^√1024 = 32\.00$/);
  // keys: along the series, its start, then the other series at the same d_k
  const readout = () => page.locator('views-demo [data-testid=dk-spread] .plot-readout').textContent();
  await plot.focus();
  await page.keyboard.press('ArrowLeft');
  assert.match(await readout(), /^d_k = 512: the scores’ std is 21\.94|^√512 = 22\.63$/);
  await page.keyboard.press('Home');
  await page.keyboard.press(/^√/.test(await readout()) ? 'ArrowUp' : 'ArrowLeft');
  assert.match(await readout(), /^d_k = 2: the scores’ std is 1\.50, close to √d_k = 1\.41$/);
  await page.keyboard.press('ArrowDown');
  assert.equal(await readout(), '√2 = 1.41');
  const where = () => inDemo(page, (root) => ({ t: root.querySelector('[data-testid=z-plane] .plot-marker').style.transform, spoke: root.querySelector('[data-testid=z-plane] .plot-spoke').getAttribute('stroke-width') }));
  const at = await where();
  await page.locator('views-demo [data-testid=demo-temperature]').fill('-200');
  const cold = await where();
  assert.notEqual(cold.t, at.t);
  assert.notEqual(cold.spoke, at.spoke);
  assert.deepEqual(problems, []);
});

test('a 6×16 matrix on a phone: colour only, every k-th column label, nothing wider than 390 px', async () => {
  const { page, problems } = await openDemo({ width: 390, height: 900 });
  const r = await inDemo(page, async (root, demo) => {
    demo.rerun({ d_out: 16 });
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const q = root.querySelector('[data-matrix=queries]');
    const heads = [...q.querySelectorAll('th.mv-col')];
    return {
      cells: q.querySelectorAll('td.mv-cell').length, fit: q.dataset.fit,
      shown: heads.filter((t) => t.textContent).length, titled: heads.filter((t) => t.title).length,
      tooWide: [...root.querySelectorAll('*')].filter((n) => n.getBoundingClientRect().right > 390.5).length,
      label: q.querySelector('td[data-row="1"][data-col="9"]').getAttribute('aria-label'),
    };
  });
  assert.equal(r.cells, 96);
  assert.equal(r.fit, 'none');                      // too narrow for text: the values are in the tooltip and names
  assert.ok(r.shown >= 4 && r.shown < 16, `${r.shown} column labels shown`);
  assert.equal(r.titled, 16);
  assert.equal(r.tooWide, 0);
  assert.match(r.label, /^[−-]?\d\.\d{4}, queries token journey, dimension 10: -?\d\.\d+/);   // the shown text first (label in name)
  assert.deepEqual(problems, []);
});

test('a view made before its numbers draws no cell until they come', async () => {
  const { page, problems } = await openDemo();
  const cells = () => inDemo(page, (root) => root.querySelectorAll('[data-testid=later-map] td.mv-cell').length);
  // (a placeholder's 1×1 "0.0000" drawn off screen in an idle slice showed before §3.4.1's numbers at load)
  await inDemo(page, async (root, demo) => { window.laterView = demo.later(); await demo.settled(); });
  assert.equal(await cells(), 0);
  await inDemo(page, () => { window.laterView.update({ values: [1, 2, 3, 4, 5, 6], shape: [2, 3] }); window.laterView.el.scrollIntoView(); });
  await page.waitForFunction(() => document.querySelector('views-demo').shadowRoot.querySelectorAll('[data-testid=later-map] td.mv-cell').length === 6);
  assert.deepEqual(problems, []);
});

test('a read that waits for the screen does not lay out a part the browser stopped showing in the frame just drawn', async () => {
  const { page, problems } = await openDemo();
  // At load, a part shown in one frame is pushed off screen in the next as the sections above fill; its
  // contentvisibilityautostatechange comes a frame later. A read queued for after the first frame must
  // see that the part is skipped now (reading it would lay it out), and run once the part is shown.
  const got = await page.evaluate(async () => {
    const { measureAfterFrame, skipWhileOffScreen } = window.schedulerProbe;
    const region = document.createElement('div');
    region.style.cssText = 'content-visibility: auto; contain-intrinsic-size: auto 100px';
    const part = document.createElement('div');
    part.style.cssText = 'content-visibility: auto; contain-intrinsic-size: auto 50px';
    const pre = document.createElement('pre');
    pre.textContent = 'x'.repeat(400);
    part.append(pre);
    region.append(part);
    const bothShown = new Promise((resolve) => {
      const shown = new Set();
      region.addEventListener('contentvisibilityautostatechange', (e) => { if (!e.skipped) shown.add(e.target); if (shown.size === 2) resolve(); });
    });
    document.body.prepend(region);
    skipWhileOffScreen(region);
    await bothShown;
    const reads = [];   // for each read: whether the part was skipped when it ran
    // Chromium skips a part moved away in one frame's callbacks from the next frame's rendering on, and
    // says so in a task after it: the read, queued for after that next frame, runs before that task
    requestAnimationFrame(() => {
      part.style.marginTop = '400vh';
      measureAfterFrame(() => { reads.push(!pre.checkVisibility({ contentVisibilityAuto: true })); return pre.scrollWidth; }, () => {}, pre);
    });
    // the part is skipped: then shown again, its read runs
    await new Promise((resolve) => part.addEventListener('contentvisibilityautostatechange', (e) => { if (e.skipped) resolve(); }, { once: true }));
    part.scrollIntoView();
    while (!reads.length) await new Promise(requestAnimationFrame);
    // a closed <details> with content-visibility: auto hides its contents, but skips nothing: a read
    // inside it runs (no scrolling would ever show it)
    const listing = document.createElement('details');
    listing.style.cssText = 'content-visibility: auto; contain-intrinsic-size: auto 2em';
    listing.append(document.createElement('summary'), document.createElement('pre'));
    listing.firstChild.textContent = 'listing';
    part.append(listing);
    let ran = false;
    measureAfterFrame(() => true, () => { ran = true; }, listing.lastChild);
    for (let frame = 0; frame < 120 && !ran; frame++) await new Promise(requestAnimationFrame);
    return { reads, listingRead: ran };
  });
  assert.deepEqual(got, { reads: [false], listingRead: true }, 'the read ran while its part was skipped, or the closed listing\'s never did');
  assert.deepEqual(problems, []);
});
