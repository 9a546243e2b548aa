// The temperature slider: its default (√d_k) reproduces the book's weights, both ends behave as the
// text says (step function at 0.01, uniform at 100), it works from the keyboard, and an update is cheap.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { CELLS, launch, startServer, newPage, waitForLab, nativeEval, nativeContext, holdLiveMapInPage, releaseFramesInPage } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

const scores2 = CELLS.get('3.4.1/attn_scores_2').values;
// The native engine's softmax(ω2 / T), to 4 decimals: an oracle outside the browser.
const expected = (T) => nativeEval({ op: 'softmax', x: scores2, temperature: T }).values.map((v) => v.toFixed(4)).join(' ');
const weights = (page) => page.locator('[data-testid=temperature-weights]').textContent();
const slider = (page) => page.locator('[data-testid=temperature-slider]');

async function open(section = 'all') {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}?section=${section}`);
  await waitForLab(page);
  return { page, problems };
}

test('default is √d_k and shows the book\'s attn_weights_2', async () => {
  const { page, problems } = await open();
  assert.equal(await weights(page), '0.1500 0.2264 0.2199 0.1311 0.0906 0.1820');
  assert.equal(await weights(page), CELLS.get('3.4.1/attn_weights_2').values.map((v) => v.toFixed(4)).join(' '));
  assert.match(await slider(page).getAttribute('aria-valuetext'), /√d_k/);
  // its accessible name contains "Temperature"
  const name = await slider(page).evaluate((el) => el.labels[0].textContent);
  assert.match(name, /Temperature/);
  assert.deepEqual(problems, []);
});

test('T = 1 is marked "unscaled" at its place on the track, and √d_k at its own', async () => {
  const { page, problems } = await open('temperature');
  const marks = await page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot.querySelector('[data-section=temperature]');
    const slider = root.querySelector('[data-testid=temperature-slider]');
    const track = slider.getBoundingClientRect();
    const at = (text) => { const m = [...root.querySelectorAll('.mark')].find((el) => el.textContent.includes(text)); return m && (m.getBoundingClientRect().left - track.left) / track.width; };
    return { unscaled: at('T=1 (unscaled)'), sqrt: at('√d_k'), options: [...slider.list.options].map((o) => `${o.value}:${o.label}`) };
  });
  // positions are log10(T) in hundredths from -200 to 200: T = 1 is the middle, √2 a little right of it
  assert.ok(Math.abs(marks.unscaled - 0.5) < 0.03, `"T=1 (unscaled)" sits at ${marks.unscaled} of the track`);
  assert.ok(marks.sqrt > 0.4 && marks.sqrt < 0.55, `"√d_k" sits at ${marks.sqrt} of the track`);
  assert.deepEqual(marks.options, ['15:√d_k', '0:T = 1 (unscaled)']);
  assert.deepEqual(problems, []);
});

test('both ends: T = 0.01 is a step function, T = 100 is uniform; numbers equal the engine\'s', async () => {
  const { page, problems } = await open('temperature');
  await slider(page).focus();
  await page.keyboard.press('Home');
  const low = await weights(page);
  assert.equal(low, expected(0.01));
  // ω22 − ω23 = 0.0413 is only 4 T apart at T = 0.01, so the top bar gets 0.98 of the weight
  assert.ok(Math.max(...low.split(' ').map(Number)) >= 0.98, `one weight takes (almost) everything at T = 0.01: ${low}`);
  assert.match(await page.locator('[data-testid=temperature-regime]').textContent(), /Step function/);
  await page.keyboard.press('End');
  const high = await weights(page);
  assert.equal(high, expected(100));
  const vals = high.split(' ').map(Number);
  assert.ok(Math.max(...vals) - Math.min(...vals) < 0.01, `near uniform at T = 100: ${high}`);
  assert.match(await page.locator('[data-testid=temperature-regime]').textContent(), /uniform/);
  assert.deepEqual(problems, []);
});

test('keyboard: arrows move the slider one step and recompute; T = 1 is exact', async () => {
  const { page, problems } = await open('temperature');
  await slider(page).focus();
  const start = Number(await slider(page).inputValue());
  await page.keyboard.press('ArrowRight');
  assert.equal(Number(await slider(page).inputValue()), start + 1);
  assert.equal(await weights(page), expected(10 ** ((start + 1) / 100)));
  for (let i = 0; i < start + 1; i++) await page.keyboard.press('ArrowLeft');
  assert.equal(Number(await slider(page).inputValue()), 0);
  assert.equal(await weights(page), expected(1));
  assert.equal(await weights(page), CELLS.get('slider/T=1').print.replace(/^tensor\(\[|\]\)$/g, '').split(', ').join(' '));
  assert.deepEqual(problems, []);
});

test('z(2) under T is the engine\'s softmax(ω2 / T) · values at T = 0.01, √2 and 100, with the weight map and the plane', async () => {
  const { page, problems } = await open('temperature');
  const context = page.locator('[data-testid=temperature-context]');
  const check = async (T) => {
    const z = nativeContext(T);
    assert.equal(await context.textContent(), `[${z.map((v) => v.toFixed(4)).join(', ')}]`, `z(2) at T = ${T}`);
    assert.deepEqual((await context.getAttribute('data-values')).split(' ').map((v) => Math.fround(Number(v))), z.map(Math.fround), `z(2)'s every digit at T = ${T}`);
    // row 2 of the drawn 6×6 map under T is the weights the bars show (off screen, the map follows
    // once the slider rests for a frame: issue 25)
    await page.waitForFunction(() => {
      const root = document.querySelector('attention-lab').shadowRoot;
      const row = [...root.querySelectorAll('[data-testid=temperature-heatmap] td.mv-cell[data-row="1"]')].map((td) => Number(td.dataset.value).toFixed(4));
      return row.join(' ') === root.querySelector('[data-testid=temperature-weights]').textContent;
    });
    const row2 = await page.locator('[data-testid=temperature-heatmap] td.mv-cell[data-row="1"]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.value)));
    assert.deepEqual(row2.map((v) => v.toFixed(4)).join(' '), await weights(page));
  };
  await check(Math.SQRT2);
  // standing alone, the section shows the scores it divides
  assert.equal(await page.locator('[data-testid=temperature-scores]').textContent(), `[${scores2.map((v) => v.toFixed(4)).join(', ')}]`);
  assert.equal(await context.textContent(), `[${CELLS.get('3.4.1/context_vec_2').values.map((v) => v.toFixed(4)).join(', ')}]`);
  assert.equal(await page.locator('[data-testid=temperature-heatmap] td.mv-cell').count(), 36);
  const marker = page.locator('[data-testid=temperature-plane] .plot-marker');
  assert.ok(await marker.isVisible(), 'z(2) is drawn among the values when d_out = 2');
  const at = () => marker.evaluate((g) => g.style.transform);
  const before = await at();
  await slider(page).focus();
  await page.keyboard.press('Home');
  await check(0.01);
  await page.keyboard.press('End');
  await check(100);
  assert.notEqual(await at(), before, 'the point moves with T');
  assert.deepEqual(problems, []);
});

test('linked: a bar or a weight of the map outlines bar j, α₂ⱼ and v(j) on the plane, and writes out its share of z(2)', async () => {
  const { page, problems } = await open('temperature');
  const marked = () => page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot.querySelector('[data-section=temperature]');
    const at = (sel) => [...root.querySelectorAll(sel)].map((n, k) => (n.hasAttribute('data-hl') ? k : -1)).filter((k) => k >= 0);
    return { bars: at('.bar-col'), spokes: at('.plot-spoke'), points: at('.plot-point'),
      map: [...root.querySelectorAll('[data-testid=temperature-heatmap] td[data-hl]')].map((td) => `${td.dataset.row},${td.dataset.col}`) };
  });
  const share = page.locator('[data-testid=temperature-share]');
  // the share the page writes: α₂ⱼ times v(j), both the engine's (α₂ⱼ is the weights line's, v(j) the native CLI's)
  const want = async (j) => {
    const a = Number((await weights(page)).split(' ')[j]);
    const v = nativeEval({ op: 'matmul', a: [CELLS.get('inputs').values.slice(3 * j, 3 * j + 3)], b: [0, 1, 2].map((i) => CELLS.get('3.4.1/W_value').values.slice(2 * i, 2 * i + 2)) }).values;
    return v.map((x) => (a * x).toFixed(4));
  };
  assert.equal(await share.isVisible(), false, 'no share before anything is pointed at');
  await page.locator('[data-section=temperature] .bar-col').nth(2).hover();
  assert.deepEqual(await marked(), { bars: [2], spokes: [2], points: [2], map: ['1,2'] });
  assert.match(await share.textContent(), new RegExp(`^“starts” \\(j = 3\\): α₂ⱼ · v⁽ʲ⁾ = 0\\.2199 · \\[0\\.3879, 0\\.9831\\] ≈ \\[${(await want(2)).join(', ').replace(/\./g, '\\.')}\\], its share of z⁽²⁾ = \\[0\\.3061, 0\\.8210\\]$`));
  await page.mouse.move(0, 0);
  assert.deepEqual(await marked(), { bars: [], spokes: [], points: [], map: [] });
  // focus on the map's weight (query 2, key 5): the same links
  await page.locator('[data-testid=temperature-heatmap] td[data-row="1"][data-col="4"]').focus();
  assert.deepEqual(await marked(), { bars: [4], spokes: [4], points: [4], map: ['1,4'] });
  assert.match(await share.textContent(), new RegExp(`^“one” \\(j = 5\\): .* ≈ \\[${(await want(4)).join(', ').replace(/\./g, '\\.')}\\]`));
  assert.deepEqual(problems, []);
});

// Issue 22 item 11: wherever T puts z(2), its diamond and its label cover no value's label (boxes in the
// plot's own coordinates; the diamond's place is its final one, not one in its glide).
test('the z(2) diamond and its label never overlap the value labels, at any T', async () => {
  const { page, problems } = await open('temperature');
  const overlaps = () => page.evaluate(() => {
    const plot = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=temperature-plane]');
    const marker = plot.querySelector('.plot-marker');
    const [, mx, my] = marker.style.transform.match(/translate\(([-\d.]+)px, ([-\d.]+)px\)/).map(Number);
    const box = (b, dx = 0, dy = 0) => ({ x0: b.x + dx, x1: b.x + b.width + dx, y0: b.y + dy, y1: b.y + b.height + dy });
    const diamond = { x0: mx - 8, x1: mx + 8, y0: my - 8, y1: my + 8 };
    const zLabel = box(marker.querySelector('.plot-marker-label').getBBox(), mx, my);
    const hit = (a, b) => !(a.x1 <= b.x0 || a.x0 >= b.x1 || a.y1 <= b.y0 || a.y0 >= b.y1);
    return [...plot.querySelectorAll('.plot-point text')].map((t) => ({ text: t.textContent, b: box(t.getBBox()) }))
      .filter(({ b }) => hit(b, diamond) || hit(b, zLabel)).map(({ text }) => text);
  });
  const slide = (pos) => slider(page).evaluate((el, pos) => { el.value = String(pos); el.dispatchEvent(new Event('input', { bubbles: true })); }, pos);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (let pos = -200; pos <= 200; pos += 8) {
      await slide(pos);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
      assert.deepEqual(await overlaps(), [], `at ${width} px, slider at ${pos}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('on a phone the slider is a 44 px touch target', async () => {
  const { page, problems } = await open('temperature');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const box = await slider(page).boundingBox();
  assert.ok(box.height >= 44, `the slider is ${box.height} px tall`);
  assert.deepEqual(problems, []);
});

// Issue 25: a slider step changes only what it must. Text changes in place (no node removed or
// inserted), no attribute is written with the value it already had, and the 6×6 map on screen is painted
// by its live canvas while the slider moves: its 36 cells are written once the slider rests.
test('a slider step changes only the numbers, marks and colours that moved, in place; the map\'s cells follow at rest', async () => {
  const { page, problems } = await open('temperature');
  const step = await slider(page).evaluate(async (el) => {
    const root = document.querySelector('attention-lab').shadowRoot;
    // the map on screen, so the step paints it at once (off screen it would wait for the slider to rest)
    const map = root.querySelector('[data-testid=temperature-heatmap]');
    map.scrollIntoView({ block: 'end' });
    // until an IntersectionObserver made now reports it on screen (the page's, made before, have too)
    await new Promise((r) => { const seen = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) { seen.disconnect(); r(); } }); seen.observe(map); });
    // steps first, one a frame, until one is painted live (the map fitted to its room, its canvas made),
    // then until the map's cells show the last: the page's own observers have seen the map by then
    const shows = () => [...map.querySelectorAll('td.mv-cell[data-row="1"]')].map((td) => Number(td.dataset.value).toFixed(4)).join(' ') ===
      root.querySelector('[data-testid=temperature-weights]').textContent;
    for (let i = 0; i < 60 && !map.hasAttribute('data-live'); i++) {
      el.value = String(Number(el.value) - 1);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise(requestAnimationFrame);
    }
    while (!shows() || map.hasAttribute('data-live')) await new Promise(requestAnimationFrame);
    const delivered = [];
    const watch = new MutationObserver((list) => delivered.push(...list));
    watch.observe(root, { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true, characterDataOldValue: true });
    el.value = String(Number(el.value) + 37);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    const stepRecords = [...delivered.splice(0), ...watch.takeRecords()];   // what the handler wrote, synchronously
    const live = map.hasAttribute('data-live') && !map.querySelector('canvas.mv-live').hidden;
    // z(2) on the plane jumps with the step: a glide would restart at every step and trail its spokes
    const markerTransition = root.querySelector('[data-testid=temperature-plane] .plot-marker').style.transition;
    while (!shows() || map.hasAttribute('data-live')) await new Promise(requestAnimationFrame);   // the slider rests
    const restRecords = [...delivered, ...watch.takeRecords()];
    watch.disconnect();
    const where = (n) => (n.nodeType === 3 ? n.parentElement : n);
    const name = (n) => { const e = where(n); return `${e.localName}.${e.getAttribute('class') || e.getAttribute('data-testid') || ''}`; };
    const retexted = (list) => new Set(list.filter((r) => r.type === 'characterData' && where(r.target).classList.contains('mv-v')).map((r) => r.target)).size;
    const records = [...stepRecords, ...restRecords];
    const cell = root.querySelector('[data-testid=temperature-heatmap] .mv-v');
    const style = getComputedStyle(cell);
    return {
      live, markerTransition,
      nodesAddedOrRemoved: records.filter((r) => r.type === 'childList').map((r) => name(r.target)),
      // an attribute's value after a write: the next write's old value, or the value it has now
      sameValueWrites: records.filter((r, k) => {
        if (r.type !== 'attributes' || r.attributeName === 'style') return false;
        const next = records.slice(k + 1).find((n) => n.type === 'attributes' && n.target === r.target && n.attributeName === r.attributeName);
        return r.oldValue === (next ? next.oldValue : r.target.getAttribute(r.attributeName));
      }).map((r) => `${name(r.target)}[${r.attributeName}]`),
      textChanges: stepRecords.filter((r) => r.type === 'characterData').length,
      cellsRetextedByStep: retexted(stepRecords),
      cellsRetextedAtRest: retexted(restRecords),
      cellBox: { display: style.display, contain: style.contain, height: style.height, font: style.fontSize },
    };
  });
  assert.deepEqual(step.nodesAddedOrRemoved, []);
  assert.deepEqual(step.sameValueWrites, []);
  assert.ok(step.live, 'the step painted the map on its live canvas');
  assert.equal(step.markerTransition, 'none', 'z(2) does not glide while the slider moves');
  assert.ok(step.textChanges > 0, JSON.stringify(step));
  assert.equal(step.cellsRetextedByStep, 0, 'the step wrote no cell of the map');
  assert.ok(step.cellsRetextedAtRest > 0 && step.cellsRetextedAtRest <= 36, `${step.cellsRetextedAtRest} cell texts changed at rest for a 6×6 map`);
  // a value's box: one line tall, its size and layout contained (an edit's new values are laid out there)
  assert.equal(step.cellBox.display, 'block');
  assert.match(step.cellBox.contain, /size/);
  assert.match(step.cellBox.contain, /layout/);
  assert.equal(step.cellBox.height, step.cellBox.font);
  assert.deepEqual(problems, []);
});

// Issue 25: the live canvas paints what the cells show once the slider rests: the same colour in each
// cell (read from the canvas against the cell's background), a value in each (ink where the cell's
// text sits), and on screen the same picture (screenshots while moving and at rest, cell by cell).
test('while the slider moves, the map\'s canvas paints the colours and values its cells show at rest', async () => {
  const { page, problems } = await open('temperature');
  const map = page.locator('[data-testid=temperature-heatmap]');
  // a drag's steps, the last one held: the slider does not rest until the screenshot is taken
  const { live: moving, cells: painted } = await page.evaluate(holdLiveMapInPage, -88);
  assert.ok(moving, 'the held step painted the map live');
  const live = await map.screenshot();
  assert.equal(await map.evaluate((m) => m.hasAttribute('data-live')), true, 'still moving at the screenshot');
  const rest = await page.evaluate(releaseFramesInPage);
  assert.equal(painted.length, 36);
  painted.forEach((cell, k) => {
    assert.deepEqual(cell.fill, rest[k], `cell (${cell.row}, ${cell.col}): the canvas's colour is the cell's at rest`);
    assert.ok(cell.ink > 4, `cell (${cell.row}, ${cell.col}): the canvas drew its value`);
    assert.equal(cell.background, 'rgba(0, 0, 0, 0)', 'the cells are transparent over the canvas while it paints');
  });
  assert.equal(await weights(page), expected(10 ** (-88 / 100)));
  // the same picture, cell by cell: glyph edges differ by a fraction of a pixel (the canvas places glyphs
  // on whole pixels), and a row's digits may sit a pixel lower (the page's rounding of a baseline depends
  // on where the view is); so each cell is compared at the best of three vertical offsets (measured:
  // 0% of a cell differs by more than 96 of 255; one digit drawn wrong makes 2.5%)
  const atRest = await map.screenshot();
  const boxes = await map.evaluate((m) => {
    const o = m.getBoundingClientRect();
    return [...m.querySelectorAll('td.mv-cell')].map((td) => { const b = td.getBoundingClientRect(); return [b.left - o.left, b.top - o.top, b.width, b.height].map(Math.round); });
  });
  const worst = await page.evaluate(async ([a, b, boxes]) => {
    const pixels = async (b64) => {
      const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const g = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      g.drawImage(bitmap, 0, 0);
      return g.getImageData(0, 0, bitmap.width, bitmap.height);
    };
    const [p, q] = [await pixels(a), await pixels(b)];
    const at = (img, x, y) => 4 * (y * img.width + x);
    return Math.max(...boxes.map(([x0, y0, w, h]) => Math.min(...[-1, 0, 1].map((dy) => {
      let differ = 0;
      for (let y = y0 + 2; y < y0 + h - 2; y++) {
        for (let x = x0 + 2; x < x0 + w - 2; x++) {
          const i = at(p, x, y + dy), j = at(q, x, y);
          if (Math.max(Math.abs(p.data[i] - q.data[j]), Math.abs(p.data[i + 1] - q.data[j + 1]), Math.abs(p.data[i + 2] - q.data[j + 2])) > 96) differ++;
        }
      }
      return differ / ((w - 4) * (h - 4));
    }))));
  }, [live.toString('base64'), atRest.toString('base64'), boxes]);
  assert.ok(worst < 0.005, `in the worst cell ${(worst * 100).toFixed(2)}% of the pixels differ between the canvas and the cell at rest`);
  assert.deepEqual(problems, []);
});

// Issue 25: what is off screen waits. On a phone the map is under the bars and the plane: while the
// slider moves (a step per frame, as a dragging hand makes them) the map is not redrawn; once the
// slider rests it shows the weights of the last step.
test('off screen, the 6×6 map waits while the slider moves and follows when it rests', async () => {
  const { page, problems } = await open('temperature');
  await page.setViewportSize({ width: 390, height: 844 });
  const moved = await slider(page).evaluate(async (el) => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const map = root.querySelector('[data-testid=temperature-heatmap]');
    el.scrollIntoView({ block: 'start' });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const below = map.getBoundingClientRect().top > innerHeight;
    let mapWrites = 0;
    const watch = new MutationObserver((list) => { mapWrites += list.length; });
    watch.observe(map, { subtree: true, childList: true, characterData: true, attributes: true });
    for (let i = 1; i <= 6; i++) {
      el.value = String(-150 + 40 * i);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise(requestAnimationFrame);
    }
    mapWrites += watch.takeRecords().length;
    watch.disconnect();
    return { below, mapWrites };
  });
  assert.deepEqual(moved, { below: true, mapWrites: 0 });
  await page.waitForFunction(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const row = [...root.querySelectorAll('[data-testid=temperature-heatmap] td.mv-cell[data-row="1"]')].map((td) => Number(td.dataset.value).toFixed(4));
    return row.join(' ') === root.querySelector('[data-testid=temperature-weights]').textContent;
  });
  assert.equal(await weights(page), expected(10 ** (90 / 100)));
  assert.deepEqual(problems, []);
});

// Forced colours (a high-contrast theme) replace the cells' colours; a canvas would paint the heat
// colours instead, so there each step writes the cells as before.
test('with forced colours, a slider step writes the map\'s cells, not its canvas', async () => {
  const { page, problems } = await open('temperature');
  await page.emulateMedia({ forcedColors: 'active' });
  const step = await slider(page).evaluate(async (el) => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const map = root.querySelector('[data-testid=temperature-heatmap]');
    map.scrollIntoView({ block: 'center' });
    await new Promise((r) => { const seen = new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) { seen.disconnect(); r(); } }); seen.observe(map); });
    const row = () => [...map.querySelectorAll('td.mv-cell[data-row="1"]')].map((td) => Number(td.dataset.value).toFixed(4)).join(' ');
    const steps = [];
    for (let i = 0; i < 8; i++) {
      el.value = String(Number(el.value) - 9);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      steps.push({ live: map.hasAttribute('data-live'), shows: row() === root.querySelector('[data-testid=temperature-weights]').textContent });
      await new Promise(requestAnimationFrame);
    }
    return steps.slice(2);   // the first steps may come before the map has its room
  });
  assert.deepEqual(step, step.map(() => ({ live: false, shows: true })));
  assert.deepEqual(problems, []);
});
