// Issue 22's §3.4.1 stepper in Chromium: it builds up (a value not computed yet is drawn empty with
// data-pending), each step's operands and result (data-step-role) fit one window at 1280×900 and
// 390×844, back restores every state, a 'stepgate' listener can hold the step of ω₂₂, and the section
// names scaled dot-product attention with its pipeline of shapes. Plus what a learner found: the full
// value's tooltip is never cut, linked hovers look unlike a step's outlines, column heads are whole,
// negative operands are written "(−…)", "1 entry"; every matrix view is fitted again after a resize
// and after a host font that came late.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { SCREENSHOTS, CELLS, launch, startServer, newPage, waitForLab, settle, letStepperThrough, walkStepperInPage, smallDigitsInPage, layOutEverySection } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

async function open(viewport, query = '') {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize(viewport);
  await page.goto(`${server.url}${query}`);
  await waitForLab(page);
  await letStepperThrough(page);
  return { page, problems };
}

// A page of its own with <attention-lab ...attributes> (one section).
async function openWith(attributes, viewport = { width: 1280, height: 900 }) {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize(viewport);
  await page.route('**/stepper-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>stepper</title><link rel="icon" href="data:,"><main><attention-lab section="step-by-step" ${attributes}></attention-lab></main><script src="attention-lab.js"></script></html>` }));
  await page.goto(`${server.url}stepper-test.html`);
  await waitForLab(page);
  await letStepperThrough(page);
  return { page, problems };
}

// In the page: the stepper's whole state, and where its step's operands and result are on screen.
function stepperState() {
  const root = document.querySelector('attention-lab').shadowRoot;
  const s = root.querySelector('[data-testid=projection-stepper]');
  const where = (n) => `${n.closest('[data-matrix]').dataset.matrix}:${n.dataset.row ?? ''},${n.dataset.col ?? ''}`;
  const roles = [...s.querySelectorAll('[data-step-role]')].map((n) => {
    const r = n.getBoundingClientRect();
    return { role: n.dataset.stepRole, name: n.dataset.name, left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });
  return {
    caption: s.querySelector('[data-testid=step-caption]').textContent,
    hl: [...s.querySelectorAll('[data-hl]')].map((n) => `${where(n)}:${n.dataset.hl}`).sort().join(' '),
    pending: [...s.querySelectorAll('td[data-pending=true]')].map(where).sort(),
    shownText: [...s.querySelectorAll('.stepper-stage td.mv-cell')].map((td) => td.textContent).join('|'),
    focus: s.querySelector('[data-testid=step-focus]').textContent,
    focusCells: [...s.querySelectorAll('[data-testid=step-focus] td')].map((td) => ({ text: td.textContent, value: td.dataset.value, role: td.closest('[data-step-role]').dataset.stepRole })),
    roles,
    window: { width: innerWidth, height: innerHeight },
    last: s.querySelector('[data-testid=step-next]').getAttribute('aria-disabled') === 'true',
  };
}
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
const state = async (page) => { await frames(page); return page.evaluate(stepperState); };

// In the page: every drawn matrix view (the editor opened), each section measured on screen (off screen
// it is not laid out: content-visibility), as key -> its fit, label stride and head texts, and the heads
// whose text is cut by their box (a "!" after it).
async function matrixHeads() {
  const root = document.querySelector('attention-lab').shadowRoot;
  const frames = (n) => new Promise((done) => { const tick = () => (n-- > 0 ? requestAnimationFrame(tick) : done()); tick(); });
  root.querySelector('details.editor').open = true;
  const out = {};
  for (const region of [root.querySelector('details.editor'), ...root.querySelectorAll('.section')]) {
    region.scrollIntoView({ block: 'start' });
    await frames(6);   // laid out, and the views refitted to their new width (a resize observed, then a frame)
    await document.querySelector('attention-lab').updateComplete;
    // a view in a part of the section that is still off screen (a stepper's row: content-visibility)
    // is fitted when the browser first lays it out: brought near, as a learner's scroll would
    for (const mv of region.querySelectorAll('.mv')) {
      if (!mv.checkVisibility() || mv.checkVisibility({ contentVisibilityAuto: true })) continue;
      mv.scrollIntoView({ block: 'center' });
      await frames(6);
      await document.querySelector('attention-lab').updateComplete;
    }
    region.querySelectorAll('.mv').forEach((mv, i) => {
      if (!mv.checkVisibility()) return;
      const text = (th) => `${th.textContent}${!mv.dataset.labelStride && th.scrollWidth > th.clientWidth ? '!' : ''}`;
      out[`${region.dataset.section || 'editor'} ${i} ${mv.dataset.matrix}`] = `fit ${mv.dataset.fit} stride ${mv.dataset.labelStride || 1} | `
        + `${[...mv.querySelectorAll('th.mv-col')].map(text).join(',')} | ${[...mv.querySelectorAll('th.mv-row')].map(text).join(',')}`;
    });
  }
  scrollTo(0, 0);
  return out;
}

for (const [width, height] of [[1280, 900], [390, 844]]) {
  test(`at ${width}×${height} the stepper builds z(2) up, each step's operands and result fit the window, and back restores every state`, async () => {
    const { page, problems } = await open({ width, height });
    const next = page.locator('[data-testid=projection-stepper] [data-testid=step-next]');
    // step 1 as a learner sees it on arriving: the stepper scrolled to the top of the window
    await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper]').scrollIntoView({ block: 'start' }));
    const states = [await state(page)];
    while (!states.at(-1).last) {
      await next.click();
      states.push(await state(page));
    }
    assert.ok(states.length >= 20, `${states.length} steps`);
    const first = states[0], last = states.at(-1);
    // at step 1 z is pending, after the last step nothing is
    assert.ok(first.pending.filter((p) => p.startsWith('context_vec:')).length === 12, 'z is pending at step 1');
    assert.deepEqual(last.pending, []);
    states.forEach((s, i) => {
      const label = `step ${i + 1} (${s.caption.slice(0, 40)}…)`;
      // every step computes something: fewer pending cells than before, never one pending again
      if (i) {
        assert.ok(s.pending.length < states[i - 1].pending.length, `${label} reveals a value`);
        assert.ok(s.pending.every((p) => states[i - 1].pending.includes(p)), `${label} hides nothing that was shown`);
      }
      // its operands and its result, all in the window
      assert.ok(s.roles.some((r) => r.role === 'operand') && s.roles.some((r) => r.role === 'result'), `${label} draws its operands and result`);
      for (const r of s.roles) {
        assert.ok(r.left >= 0 && r.top >= 0 && r.right <= s.window.width + 0.5 && r.bottom <= s.window.height + 0.5,
          `${label}: ${r.role} ${r.name} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} is outside the ${s.window.width}×${s.window.height} window`);
      }
    });
    // the steps the issue names are drawn: ω₂₂ revealed by its own step, the scaled scores, exps, their sum, the running sums
    const at = (re) => states.findIndex((s) => re.test(s.caption));
    const omega22 = at(/^ω₂₂ = q⁽²⁾ · k⁽²⁾ = 0\.4306·0\.4433 \+ 1\.4551·1\.1419 ≈ 1\.8524$/);
    assert.ok(omega22 > 0);
    assert.ok(states[omega22 - 1].pending.includes('attn_scores:1,1') && !states[omega22].pending.includes('attn_scores:1,1'));
    for (const [re, view] of [[/^Divide row 2 by √d_k/, 'scaled_scores_2'], [/^Softmax, first each exp/, 'exps_2'], [/^Their sum: .* ≈ 16\.3685$/, 'exps_2_sum']]) {
      const k = at(re);
      assert.ok(k > 0, `a step ${re}`);
      assert.ok(states[k - 1].pending.some((p) => p.startsWith(`${view}:`)) && !states[k].pending.some((p) => p.startsWith(`${view}:`)), `${view} is filled in by its step`);
    }
    const sums = states.map((s) => s.pending.filter((p) => p.startsWith('z2_partial_sums:')).length);
    assert.ok(sums.includes(12) && sums.includes(10) && sums.includes(2) && sums.at(-1) === 0, `the running sums fill in row by row: ${sums}`);
    // step 1 shows W_q's column with the caption's 4 digits (the drawing above rounds to 1)
    assert.match(first.caption, /= 0\.5500·0\.2961 \+ 0\.8700·0\.2517 \+ 0\.6600·0\.0740 ≈ 0\.4306$/);
    const operandTexts = first.focusCells.filter((c) => c.role === 'operand').map((c) => c.text);
    for (const t of ['0.5500', '0.8700', '0.6600', '0.2961', '0.2517', '0.0740']) assert.ok(operandTexts.includes(t), `step 1 shows the operand ${t}: ${operandTexts}`);
    assert.deepEqual(first.focusCells.filter((c) => c.role === 'result').map((c) => c.text), ['0.4306']);
    const wq = CELLS.get('3.4.1/W_query').values;
    assert.deepEqual(first.focusCells.filter((c) => c.role === 'operand').slice(3).map((c) => Math.fround(Number(c.value))), [wq[0], wq[2], wq[4]].map(Math.fround));
    // the last running sum is the engine's z(2), digit for digit
    const zRow = await page.evaluate(() => {
      const root = document.querySelector('attention-lab').shadowRoot;
      const of = (m, r) => [...root.querySelectorAll(`[data-matrix=${m}] td[data-row="${r}"]`)].map((td) => td.dataset.value);
      return { partial: of('z2_partial_sums', 5), z: of('context_vec', 1) };
    });
    assert.deepEqual(zRow.partial, zRow.z);
    // back, by ←, restores every state exactly (pending cells, outlines, caption, the step's drawing)
    const strip = ({ roles, window, ...rest }) => rest;
    await page.locator('[data-testid=projection-stepper] [data-testid=step-prev]').focus();
    for (let i = states.length - 2; i >= 0; i--) {
      await page.keyboard.press('ArrowLeft');
      assert.deepEqual(strip(await state(page)), strip(states[i]), `← back to step ${i + 1}`);
    }
    assert.deepEqual(problems, []);
  });
}

// Issue 42: 16 tokens of 3 values (the editor's most tokens), for the phone's longest steps.
const SIXTEEN = { words: Array.from({ length: 16 }, (_, i) => `w${i + 1}`),
  inputs: Array.from({ length: 16 }, (_, i) => [0.1 + (i % 5) * 0.2, 0.9 - (i % 7) * 0.1, ((i * 3) % 10) / 10]) };

for (const [name, example] of [['the book', null], ['16 tokens', SIXTEEN]]) {
  test(`at 390×844 (${name}) every step's drawing is on screen and its result never under the sticky bar; no digit under 11 px`, async () => {
    const { page, problems } = await open({ width: 390, height: 844 });
    const { steps, problems: found } = await page.evaluate(walkStepperInPage, { inFrame: false, example });
    assert.ok(steps >= (example ? 40 : 24), `${steps} steps`);
    assert.deepEqual(found, []);
    // only the bar sticks on a phone, and it is short: not the 477 of 844 px the whole head took
    const bar = await page.locator('[data-testid=projection-stepper] .stepper-bar').boundingBox();
    assert.ok(bar.height < 90, `the sticky bar is ${bar.height} px tall`);
    if (example) {
      fs.mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'stepper-16-tokens-last-390.png') });
    }
    assert.deepEqual(problems, []);
  });
}

test('at 390 px no drawing writes a digit under 11 px (the views, the step drawings, the plots, the plane)', async () => {
  const { page, problems } = await open({ width: 390, height: 844 });
  await layOutEverySection(page);
  assert.deepEqual(await page.evaluate(smallDigitsInPage, false), []);
  assert.deepEqual(problems, []);
});

test('a stepgate listener holds the stepper before ω₂₂ until it proceeds; stepchange names each step', async () => {
  const { page, problems } = await open({ width: 1280, height: 900 });
  await page.evaluate(() => {
    const s = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper]');
    window.gates = []; window.changes = [];
    s.addEventListener('stepgate', (e) => { window.gates.push(e.detail.id); if (e.detail.id === 'omega-22') { e.preventDefault(); window.proceed = e.detail.proceed; } });
    document.querySelector('attention-lab').addEventListener('stepchange', (e) => window.changes.push(e.detail.index));   // composed: it reaches the host
  });
  const next = page.locator('[data-testid=projection-stepper] [data-testid=step-next]');
  const caption = page.locator('[data-testid=projection-stepper] [data-testid=step-caption]');
  for (let i = 0; i < 40 && !(await page.evaluate(() => Boolean(window.proceed))); i++) await next.click();
  assert.match(await caption.textContent(), /^ω₂₁ = /);
  assert.equal(await page.locator('[data-section=step-by-step] [data-matrix=attn_scores] td[data-row="1"][data-col="1"]').getAttribute('data-pending'), 'true');
  // drawn as not computed yet: grey, no text, a dashed edge (views.css); its colour comes with its step
  const look = () => page.locator('[data-section=step-by-step] [data-matrix=attn_scores] td[data-row="1"][data-col="1"]').evaluate((td) => {
    const cs = getComputedStyle(td);
    return { bg: cs.backgroundColor, color: cs.color, outline: cs.outlineStyle, text: td.textContent, label: td.getAttribute('aria-label') };
  });
  const codeBg = await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.background = 'var(--code-bg, #f3f1ec)';
    document.querySelector('attention-lab').shadowRoot.append(probe);
    const bg = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return bg;
  });
  const { label: pendingLabel, ...pendingLook } = await look();
  assert.deepEqual({ ...pendingLook, bg: pendingLook.bg === codeBg }, { bg: true, color: 'rgba(0, 0, 0, 0)', outline: 'dashed', text: '' });
  assert.match(pendingLabel, /journey.*journey: not computed yet$/);
  await next.click();   // still held
  assert.match(await caption.textContent(), /^ω₂₁ = /);
  await page.evaluate(() => window.proceed());
  assert.match(await caption.textContent(), /^ω₂₂ = /);
  assert.equal(await page.locator('[data-section=step-by-step] [data-matrix=attn_scores] td[data-row="1"][data-col="1"]').getAttribute('data-pending'), null);
  const shownLook = await look();
  assert.ok(shownLook.label.startsWith(`${shownLook.text}, `) && /journey.*journey: /.test(shownLook.label), shownLook.label);
  assert.ok(/^rgb\(/.test(shownLook.bg) && shownLook.bg !== codeBg && shownLook.color !== 'rgba(0, 0, 0, 0)' && shownLook.outline !== 'dashed' && /^\d\.\d{4}$/.test(shownLook.text), JSON.stringify(shownLook));
  // once through, back and forth no longer asks
  await page.locator('[data-testid=projection-stepper] [data-testid=step-prev]').click();
  await next.click();
  assert.match(await caption.textContent(), /^ω₂₂ = /);
  const { gates, changes } = await page.evaluate(() => ({ gates: window.gates, changes: window.changes }));
  assert.deepEqual(gates, ['omega-22', 'omega-22']);
  assert.ok(changes.length > 5 && changes.at(-1) === changes.at(-3));
  assert.deepEqual(problems, []);
});

test('§3.4.1 names scaled dot-product attention, draws its pipeline of shapes with links to the drawings, and says why d_in ≠ d_out', async () => {
  const { page, problems } = await open({ width: 1280, height: 900 });
  const section = page.locator('[data-section=step-by-step]');
  const text = await section.textContent();
  assert.match(text, /scaled dot-product attention/);
  assert.match(text, /so that you can follow which matrix produced which vector/);
  assert.match(text, /weight parameters: learned in training/);
  assert.match(text, /attention weights .*are computed/);
  const pipeline = page.locator('[data-testid=sdpa-pipeline]');
  assert.equal((await pipeline.textContent()).replace(/\s+/g, ' '), 'x (6×3) → Q, K, V (6×2) → QKᵀ (6×6) → ÷ √d_k → softmax (6×6) → · V (6×2)');
  await pipeline.getByText('QKᵀ (6×6)').click();
  const focusedIn = await page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const view = root.activeElement && root.activeElement.closest('[data-matrix]');
    const r = view.getBoundingClientRect();
    return { matrix: view.dataset.matrix, onScreen: r.top >= 0 && r.top < innerHeight };
  });
  assert.deepEqual(focusedIn, { matrix: 'attn_scores', onScreen: true });
  assert.deepEqual(problems, []);
});

test('the shapes and words follow the inputs: d_out = 1 says "1 entry", negative operands are written "(−…)"', async () => {
  const inputs = [[0.43, 0.15, 0.89], [-0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]];
  const { page, problems } = await openWith(`inputs="${JSON.stringify(inputs)}" d-out="1"`);
  const text = await page.locator('[data-section=step-by-step]').textContent();
  assert.match(text, /z\(2\) has 1 entry now/);
  assert.equal((await page.locator('[data-testid=sdpa-pipeline]').textContent()).replace(/\s+/g, ' '), 'x (6×3) → Q, K, V (6×1) → QKᵀ (6×6) → ÷ √d_k → softmax (6×6) → · V (6×1)');
  const caption = await page.locator('[data-testid=step-caption]').textContent();
  assert.match(caption, /^q⁽²⁾₁ = x⁽²⁾ \(“journey”\) · column 1 of W_q = \(−0\.5500\)·0\.2961 \+ 0\.8700·/);
  assert.ok(!/[+=] -/.test(caption) && !caption.includes('+ −'), caption);
  assert.deepEqual(problems, []);
});

test('hover highlights look unlike the step’s outlines; the full value’s tooltip is never cut; column heads are whole at 1280 px in every matrix drawing', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page, problems } = await open(viewport);
    await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper] [data-testid=step-next]').scrollIntoView());
    // the step's own outline on q⁽²⁾₁ (step 1), then a weight hovered: q's linked outline differs
    const look = (sel) => page.evaluate((s) => {
      const td = document.querySelector('attention-lab').shadowRoot.querySelector(s);
      const cs = getComputedStyle(td);
      return `${cs.boxShadow}|${cs.outlineStyle}|${cs.outlineColor}`;
    }, sel);
    const stepLook = await look('[data-section=step-by-step] [data-matrix=queries] td[data-hl]');
    // (scrolled to the bottom of the window: a cell under the stepper's sticky head is not hovered)
    const bottomUp = (sel) => page.evaluate((s) => document.querySelector('attention-lab').shadowRoot.querySelector(s).scrollIntoView({ block: 'end' }), sel);
    await bottomUp('[data-testid=weights-heatmap] td[data-row="3"][data-col="4"]');
    await page.locator('[data-testid=weights-heatmap] td[data-row="3"][data-col="4"]').hover();
    const hoverLook = await look('[data-section=step-by-step] [data-matrix=queries] td[data-row="3"][data-hl]');
    assert.notEqual(hoverLook, stepLook);
    assert.match(hoverLook, /dashed/);
    // z[journey, d2]'s tooltip, pending (its longest text) and after the last step: whole and on screen
    for (const pass of ['pending', 'computed']) {
      if (pass === 'computed') await page.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper]').dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true })));
      await settle(page);
      const cell = page.locator('[data-section=step-by-step] [data-matrix=context_vec] td[data-row="1"][data-col="1"]');
      await bottomUp('[data-section=step-by-step] [data-matrix=context_vec] td[data-row="1"][data-col="1"]');
      await cell.hover();
      const tip = await cell.evaluate((td) => {
        const t = td.closest('.mv').querySelector('.mv-tip');
        // inside the box that clips it: the part of the section it is in (content-visibility: auto)
        let clip = td;
        while (getComputedStyle(clip).contentVisibility !== 'auto') clip = clip.parentElement;
        const r = t.getBoundingClientRect(), box = clip.getBoundingClientRect();
        return { text: t.textContent, whole: t.scrollWidth <= t.clientWidth + 1, widths: `${t.scrollWidth} > ${t.clientWidth}`, left: r.left, right: r.right, top: r.top,
          inside: r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom };
      });
      assert.ok(tip.whole, `${pass} at ${viewport.width} px: the tooltip's text is cut (${tip.widths}): ${tip.text}`);
      assert.ok(tip.left >= 0 && tip.right <= viewport.width && tip.top >= 0 && tip.inside, `${pass}: the tooltip ${tip.left}–${tip.right} is off screen at ${viewport.width} px`);
      assert.match(tip.text, pass === 'pending' ? /context_vec\[journey, d2\]: not computed yet/ : /context_vec\[journey, d2\] = 0\.82/);
    }
    if (viewport.width === 1280) {
      // every matrix drawing of the page, the editor's preview, §3.6's two heads and the train map
      // included, each laid out on screen: its column and row heads whole (a view of many columns labels
      // every n-th one, data-label-stride, and is not counted)
      const views = await page.evaluate(matrixHeads);
      const words = /Your|journey|starts|with|one|step/;
      const withWords = Object.entries(views).filter(([, heads]) => words.test(heads) && !/stride [2-9]/.test(heads));
      assert.ok(withWords.length >= 20 && ['editor ', 'multi-head ', 'train '].every((k) => withWords.some(([v]) => v.startsWith(k))), withWords.map(([v]) => v).join('; '));
      for (const [view, heads] of withWords) assert.doesNotMatch(heads, /…|!/, `a head of ${view} is cut at 1280 px`);
    }
    assert.deepEqual(problems, []);
  }
});

test('every matrix view is fitted again after a resize 1280 → 390 → 1280: as a page opened at that width, no head cut', async () => {
  const fresh = {};
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page } = await open(viewport);
    fresh[viewport.width] = await page.evaluate(matrixHeads);
    await page.close();
  }
  const { page, problems } = await open({ width: 1280, height: 900 });
  for (const [width, height] of [[1280, 900], [390, 844], [1280, 900]]) {
    await page.setViewportSize({ width, height });
    const now = await page.evaluate(matrixHeads);
    assert.ok(Object.keys(now).length > 25, `${Object.keys(now).length} views at ${width} px`);
    assert.ok(Object.keys(now).some((k) => k.startsWith('train ')) && Object.keys(now).some((k) => k.startsWith('editor ')), Object.keys(now).join('; '));
    for (const [view, heads] of Object.entries(now)) assert.doesNotMatch(heads, /!/, `a head of ${view} is cut at ${width} px`);
    assert.deepEqual(now, fresh[width], `after the resize to ${width} px, the views are fitted as on a page opened at ${width} px`);
  }
  assert.deepEqual(problems, []);
});

test('a host font that arrives late: the heads are measured again in it, none cut', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize({ width: 480, height: 900 });
  // the host's font (DejaVu Serif Bold, 125 %: wider than the page's) answered 3 s late, a slow network
  await page.route('**/late-font.ttf', async (route) => {
    await new Promise((r) => setTimeout(r, 3000));
    await route.fulfill({ contentType: 'font/ttf', body: fs.readFileSync('/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf') });
  });
  await page.route('**/late-font.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>late font</title><link rel="icon" href="data:,"><style>@font-face { font-family: "Late Wide"; src: url(late-font.ttf); size-adjust: 125%; } attention-lab { --attention-lab-font: "Late Wide", sans-serif; }</style><main><attention-lab section="multi-head"></attention-lab></main><script src="attention-lab.js"></script></html>` }));
  await page.goto(`${server.url}late-font.html`, { waitUntil: 'commit' });   // (the load event waits for the font)
  const heads = () => page.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('[data-testid=head-1-heatmap] th.mv-col')]
    .map((th) => `${th.textContent}${th.scrollWidth > th.clientWidth ? '!' : ''}`).join(','));
  await page.waitForFunction(() => document.querySelector('attention-lab')?.shadowRoot?.querySelector('[data-testid=head-1-heatmap] th.mv-col[data-col="5"]')?.textContent);
  assert.equal(await page.evaluate(() => [...document.fonts].find((f) => f.family.includes('Late Wide')).status), 'loading', 'drawn before the font came');
  await page.evaluate(() => document.fonts.ready);
  await settle(page);
  await frames(page);
  const late = await heads();
  assert.doesNotMatch(late, /!/, `a head is cut in the font that came late: ${late}`);
  assert.match(late, /^Your,jour?…,/, late);   // at 480 px "journey" does not fit in the wide font
  assert.deepEqual(problems, []);
});

test('predict, then see: the stepper holds before ω₂₂ until its question is answered, and says why', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  // the other tests answered the question, and progress stays (localStorage): a learner arriving new
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitForLab(page);
  const next = page.locator('[data-testid=projection-stepper] [data-testid=step-next]');
  const caption = page.locator('[data-testid=projection-stepper] [data-testid=step-caption]');
  const prompt = page.locator('[data-exercise=predict-omega22]');
  for (let i = 0; i < 40 && !/^ω₂₁ = /.test(await caption.textContent()); i++) await next.click();
  await next.click();   // onto ω₂₂: held, the question says why and takes the focus
  assert.match(await caption.textContent(), /^ω₂₁ = /);
  assert.equal(await page.locator('[data-section=step-by-step] [data-matrix=attn_scores] td[data-row="1"][data-col="1"]').getAttribute('data-pending'), 'true');
  assert.match(await prompt.locator('.field-error').textContent(), /computes ω₂₂: type your prediction first/);
  assert.equal(await prompt.evaluate((el) => el.getRootNode().activeElement?.dataset.testid), 'predict-input');
  // a wrong first prediction gets a second try: the stepper still holds; a second one, wrong too, is a
  // prediction: the stepper goes on and shows the engine's ω₂₂
  await prompt.locator('[data-testid=predict-input]').fill('3');
  await prompt.locator('[data-testid=predict-check]').click();
  assert.equal(await prompt.locator('[data-testid=predict-feedback]').getAttribute('data-correct'), 'false');
  await next.click();
  assert.match(await caption.textContent(), /^ω₂₁ = /);
  await prompt.locator('[data-testid=predict-input]').fill('4');
  await prompt.locator('[data-testid=predict-check]').click();
  assert.equal(await prompt.locator('[data-testid=predict-feedback]').getAttribute('data-attempt'), '2');
  await next.click();
  assert.match(await caption.textContent(), /^ω₂₂ = .*≈ 1\.8524$/);
  assert.equal(await page.locator('[data-section=step-by-step] [data-matrix=attn_scores] td[data-row="1"][data-col="1"]').getAttribute('data-pending'), null);
  assert.deepEqual(problems, []);
});
