// Shared by the browser tests: the system chromium through playwright-core (never a downloaded
// browser), local servers for build/web, the golden chapter, and the native CLI as an independent oracle.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { chromium } = require('playwright-core');

const ROOT = path.resolve(__dirname, '../..');
const WEB = process.env.ATTN_WEB_ROOT || path.join(ROOT, 'build/web');   // override: a build elsewhere
const SCREENSHOTS = path.join(ROOT, 'build/screenshots');
const GOLDEN = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/chapter3.json'), 'utf8'));
const CELLS = new Map(GOLDEN.cells.map((c) => [c.id, c]));
const cellLine = (id) => { const c = CELLS.get(id); return c.label ? `${c.label} ${c.print}` : c.print; };

// Every cell the page (section "all") must show, word for word as PyTorch printed it.
const MUST_SHOW = [
  '3.3.2/attn_weights', '3.3.2/all_context_vecs', 'toy/all_context_vecs',
  '3.4.1/query_2', '3.4.1/keys.shape', '3.4.1/attn_score_22', '3.4.1/attn_scores_2', '3.4.1/attn_weights_2', '3.4.1/context_vec_2',
  '3.4.2/sa_v1', '3.4.2/sa_v2',
  '3.5.1/attn_weights', '3.5.1/mask_simple', '3.5.1/masked_simple', '3.5.1/masked_simple_norm', '3.5.1/masked', '3.5.1/attn_weights_causal',
  '3.5.2/dropout_ones', '3.5.2/dropout_attn_weights', '3.5.3/batch.shape', '3.5.3/context_vecs',
  '3.6.1/context_vecs', 'ex3.2/context_vecs', '3.6.2/a_at_aT', '3.6.2/context_vecs', 'ex3.3/num_params',
];

async function launch() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() { await context.close(); fs.rmSync(userDataDir, { recursive: true, force: true }); },
  };
}

// A browser with one page API for the tests that run in Chromium and Firefox ESR alike (scorm.test.js,
// sandbox.test.js): newPage() -> {page, problems}, page.goto, page.evaluate(fn, arg), page.frames() with
// frame.url() and frame.evaluate(fn, arg); Chromium through playwright-core, Firefox ESR through
// puppeteer-core over WebDriver BiDi, both Debian's.
async function launchEngine(name) {
  if (name === 'chromium') {
    const browser = await launch();
    return { newPage: () => newPage(browser.context), close: () => browser.close() };
  }
  if (name !== 'firefox') throw new Error(`no engine "${name}" here: chromium or firefox`);
  const puppeteer = require('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: true, defaultViewport: { width: 1280, height: 900 } });
  return {
    async newPage() {
      const page = await browser.newPage();
      const problems = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message || e}`));
      return { page, problems };
    },
    close: () => browser.close(),
  };
}

// build/web (or another folder) on a free port of 127.0.0.1.
async function startServer(root = WEB) {
  const { serve } = await import(path.join(ROOT, 'web/serve.mjs'));
  const server = await serve(root, 0);
  return { server, url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

// A page that records console errors, page errors and CSP violations.
async function newPage(context) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return { page, problems };
}

// Waits until every <attention-lab> has computed its first results (its footer names the engine) or
// shows its error message.
async function waitForLab(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const labs = [...document.querySelectorAll('attention-lab')];
    return labs.length > 0 && labs.every((lab) => lab.shadowRoot && lab.shadowRoot.querySelector('[data-testid=engine-footer], [data-testid=lab-error]'));
  }, null, { timeout });
  await settle(page);
}

// The input editor starts collapsed (the first screen shows no form): opens it for a test that edits.
async function openEditor(page) {
  const editor = page.locator('attention-lab details.editor').first();
  if (!(await editor.evaluate((d) => d.open))) await editor.locator('summary').click();
  await editor.locator('.editor-grid').waitFor({ state: 'attached' });   // its body is built when first opened (editor.js)
}

// Waits until every element has shown its latest inputs in every section (a recompute is spread
// over several tasks so that none is long).
function settle(page) {
  return page.evaluate(() => Promise.all([...document.querySelectorAll('attention-lab')].map((lab) => lab.updateComplete)));
}

// A screenshot of the whole page (or of clip, in page coordinates). The window is first made as tall as
// the page, so every part of every section is on screen and drawn (content-visibility: auto skips what is
// off screen, and a full-page capture does not wait for the browser to draw it), then put back.
async function shootWholePage(page, file, clip) {
  const size = page.viewportSize();
  const scrollY = await page.evaluate(() => scrollY);
  // (again while the parts laid out for the first time make the page taller)
  for (let height = 0, tries = 0; tries < 5; tries++) {
    const now = await page.evaluate(() => document.documentElement.scrollHeight);
    if (now <= height) break;
    height = now;
    await page.setViewportSize({ width: size.width, height });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await settle(page);
  }
  await page.screenshot({ path: file, fullPage: true, ...(clip ? { clip } : {}) });
  await page.setViewportSize(size);
  await page.evaluate((y) => scrollTo(0, y), scrollY);
}

// In the page: the shown text of every [data-cell] output, by cell id, through every shadow root.
function collectCells() {
  const out = {};
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.dataset && el.dataset.cell) out[el.dataset.cell] = el.textContent;
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}

async function shownCells(page) {
  await settle(page);
  return page.evaluate(collectCells);
}

// The native engine's answer to one eval request (the same code the wasm engines are built from).
function nativeEval(request) {
  const cli = path.join(ROOT, 'build/native/attention-lab');
  // a train run's answer is megabytes: room for the largest eval answers
  return JSON.parse(execFileSync(cli, ['eval'], { input: JSON.stringify(request), maxBuffer: 256 << 20 }).toString());
}

// The code cells (their texts) that python3's ast cannot parse, as [index, error, source]. python3 comes
// with the browser packages (scripts/lib.sh): without it this must fail, not pass.
function unparsablePython(sources) {
  if (!fs.existsSync('/usr/bin/python3')) throw new Error('the code-cell parse check needs /usr/bin/python3 (apt-get install python3)');
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', `
import ast, json, sys
bad = []
for i, src in enumerate(json.load(sys.stdin)):
    try:
        ast.parse(src)
    except SyntaxError as e:
        bad.append([i, str(e), src])
print(json.dumps(bad))`], { input: JSON.stringify(sources) }).toString());
}

// A golden cell's values as rows (its shape's first dimension), as eval's requests take matrices.
const rowsOf = (c) => Array.from({ length: c.shape[0] }, (_, i) => c.values.slice(i * c.shape[1], (i + 1) * c.shape[1]));

// z(2) under T by the native CLI: softmax(ω2 / T) times values = inputs @ W_value, every step the CLI's.
function nativeContext(T) {
  const values = nativeEval({ op: 'matmul', a: rowsOf(CELLS.get('inputs')), b: rowsOf(CELLS.get('3.4.1/W_value')) });
  const w = nativeEval({ op: 'softmax', x: CELLS.get('3.4.1/attn_scores_2').values, temperature: T }).values;
  return nativeEval({ op: 'matmul', a: [w], b: rowsOf(values) }).values;
}

// Every section of the page, and every part of one, laid out once, top to bottom, then back to the top, so content-visibility:
// auto knows each one's real height. Before axe: otherwise the page shifts while axe scrolls from element
// to element (a section coming into view grows from its 1500 px placeholder), and axe reads the colour
// behind a text at coordinates another section's button has moved into (seen with the train section's
// labels and §3.6's Run button).
// Also before reading every drawing's fit: a view in a part is fitted when the part is first laid out at the
// page's width. layOutEverySectionInPage runs in the page (page.evaluate, or a cross-engine driver's).
async function layOutEverySection(page) {
  await page.evaluate(layOutEverySectionInPage);
}
async function layOutEverySectionInPage() {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const task = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = r; ch.port2.postMessage(0); });
  // the page a screen at a time (a section's parts are laid out as they come near, too); the height
  // is read again at each step, as laid-out parts grow or shrink
  for (let y = 0; y < document.documentElement.scrollHeight; y += Math.round(innerHeight * 0.75)) {
    window.scrollTo(0, y);
    await frames();
  }
  window.scrollTo(0, 0);
  await Promise.all([...document.querySelectorAll('attention-lab')].map((lab) => lab.updateComplete));
  await frames(); await task(); await task();   // the sideways-scroll reads the last parts laid out set off
  return true;
}

// §3.4.1's questions hold its stepper before ω₂₂, row 2's weights and z⁽²⁾ (predict, then see): their
// "Just show me", in order (each is shown once the one before is answered), lets the stepper through,
// for tests that walk the steps.
const STEPPER_QUESTIONS = ['predict-omega22', 'predict-top-weight', 'predict-z2-closest'];
// §3.5's questions, in order: each holds back its prints and maps until answered or skipped.
const CAUSAL_QUESTIONS = ['predict-mask', 'predict-row-sum', 'predict-dropout-scale'];
// "Just show me" for each question not yet revealed, in order (a later one is shown once the one before is answered).
async function skipQuestions(page, ids) {
  for (const id of ids) {
    const prompt = page.locator(`[data-exercise=${id}]`).first();
    if ((await prompt.getAttribute('data-revealed')) !== 'true') await prompt.locator('[data-testid=predict-skip]').click();
  }
}
// (progress kept from an earlier test of the file: those already revealed are skipped)
function letStepperThrough(page) { return skipQuestions(page, STEPPER_QUESTIONS); }

// Runs in the page (or in the 390 px iframe #f, inFrame, for an engine whose window cannot be so narrow):
// walks §3.4.1's stepper with Next from its first step to its last, after the learner's example is set
// (example: {words, inputs}, or null for the book's). At every step the step's drawing (its operands and
// result, under the caption) must lie inside the window, and the result must not be under any sticky or
// fixed box of the stepper; every digit it draws must be 11 px or more. Resolves to {steps, problems}.
async function walkStepperInPage({ inFrame = false, example = null } = {}) {
  const win = inFrame ? document.getElementById('f').contentWindow : window;
  const lab = win.document.querySelector('attention-lab');
  const frames = (n) => new Promise((done) => { const tick = () => (n-- > 0 ? win.requestAnimationFrame(tick) : done()); tick(); });
  if (example) { lab.words = example.words; lab.inputs = example.inputs; await lab.updateComplete; }
  const root = lab.shadowRoot;
  for (const id of ['predict-omega22', 'predict-top-weight', 'predict-z2-closest']) {   // STEPPER_QUESTIONS: let it through
    root.querySelector(`[data-exercise=${id}]:not([data-revealed=true]) [data-testid=predict-skip]`)?.click();
    await lab.updateComplete;
  }
  const s = root.querySelector('[data-testid=projection-stepper]');
  s.scrollIntoView({ block: 'start' });
  await frames(3);
  await lab.updateComplete;
  const next = s.querySelector('[data-testid=step-next]'), prev = s.querySelector('[data-testid=step-prev]');
  // from its first step, wherever an earlier check left it
  for (let i = 0; i < 200 && prev.getAttribute('aria-disabled') !== 'true'; i++) { prev.click(); await frames(1); }
  const stuck = [s, ...s.querySelectorAll('*')].filter((el) => ['sticky', 'fixed'].includes(win.getComputedStyle(el).position) && win.getComputedStyle(el).display !== 'contents');
  const problems = [];
  let steps = 0;
  for (;;) {
    await frames(3);
    steps++;
    const label = `step ${steps} (${s.querySelector('[data-testid=step-caption]').textContent.slice(0, 30)}…)`;
    const parts = [...s.querySelectorAll('[data-testid=step-focus] [data-step-role]')];
    if (!parts.some((p) => p.dataset.stepRole === 'result')) problems.push(`${label}: no result drawn`);
    for (const p of parts) {
      const r = p.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > win.innerWidth + 0.5 || r.bottom > win.innerHeight + 0.5) {
        problems.push(`${label}: ${p.dataset.stepRole} ${p.dataset.name} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} is outside the ${win.innerWidth}×${win.innerHeight} window`);
      }
      if (p.dataset.stepRole !== 'result') continue;
      for (const box of stuck) {
        if (box.contains(p)) { problems.push(`${label}: the result is inside the sticky ${box.className}`); continue; }
        const b = box.getBoundingClientRect();
        if (b.width && b.height && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) {
          problems.push(`${label}: the result (${Math.round(r.top)}–${Math.round(r.bottom)}) is under the sticky ${box.className} (${Math.round(b.top)}–${Math.round(b.bottom)})`);
        }
      }
    }
    for (const td of s.querySelectorAll('[data-testid=step-focus] td')) {
      const size = parseFloat(win.getComputedStyle(td).fontSize);
      if (td.getClientRects().length && /\d/.test(td.textContent) && size < 11) problems.push(`${label}: a digit of ${size} px`);
    }
    if (next.getAttribute('aria-disabled') === 'true') break;
    next.click();
  }
  return { steps, problems };
}

// Runs in the page (as walkStepperInPage): every text with a digit that a drawing shows (the matrix
// views, the stepper's step drawings, the plots, the plane of q and k, the temperature bars), each
// section laid out on screen in turn, whose rendered size is under 11 px: an SVG text's font size times
// the drawing's scale. Resolves to the list of them. The bug hunt's drawings are left out (issue 42b's).
async function smallDigitsInPage(inFrame) {
  const win = inFrame ? document.getElementById('f').contentWindow : window;
  const root = win.document.querySelector('attention-lab').shadowRoot;
  const frames = (n) => new Promise((done) => { const tick = () => (n-- > 0 ? win.requestAnimationFrame(tick) : done()); tick(); });
  const out = [];
  for (const section of root.querySelectorAll('[data-section]:not([data-section=bug-hunt])')) {
    section.scrollIntoView({ block: 'start' });
    await frames(6);
    for (const mv of section.querySelectorAll('.mv, .plot, .qk-plane, .stepper-stage .stage-row')) { mv.scrollIntoView({ block: 'center' }); await frames(2); }
    const walker = win.document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode, el = node.parentElement;
      if (!/\d/.test(node.data) || !el.closest('.mv, .sf, .plot, .qk-plane, .bars') || el.closest('.vh, .katex, pre')) continue;
      if (!el.getClientRects().length || (el.checkVisibility && !el.checkVisibility())) continue;
      let px = parseFloat(win.getComputedStyle(el).fontSize);
      const svg = el.closest('svg');
      if (svg && el instanceof win.SVGElement) px *= svg.getScreenCTM().a;
      if (px < 10.95) out.push(`${section.dataset.section}: "${node.data.slice(0, 20)}" in ${el.tagName.toLowerCase()}.${el.getAttribute('class') || ''} at ${px.toFixed(1)} px`);
    }
  }
  return out;
}

// Runs in the page (page.evaluate, or a cross-engine driver's evaluate): every drawn cell of the matrix
// views matched by selector in the element's shadow root, with its state, its background colour and that
// colour's relative luminance (WCAG), for the colour checks.
function drawnCellsInPage(selector) {
  const luminance = (css) => {
    const m = css.match(/\d+(\.\d+)?/g);
    if (!m) return null;
    const [r, g, b] = m.slice(0, 3).map((x) => { const s = Number(x) / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const root = document.querySelector('attention-lab').shadowRoot;
  return [...root.querySelectorAll(`${selector} td.mv-cell`)].map((td) => {
    const cs = getComputedStyle(td);
    return { i: Number(td.dataset.row), j: Number(td.dataset.col), value: td.dataset.value, text: td.textContent, linked: td.dataset.linked || null, pending: td.dataset.pending === 'true',
      opacity: td.style.opacity, cls: td.className, bg: cs.backgroundColor, lum: luminance(cs.backgroundColor),
      look: `${cs.backgroundImage}|${cs.backgroundColor}|${cs.textDecorationLine}` };
  });
}

// Run in the page (page.evaluate, or a cross-engine driver's evaluate). The temperature slider's live map
// (matrixView.drawLive): steps a frame apart until one is painted on the map's canvas, then one held step
// to `position`; requestAnimationFrame's callbacks are held back after it, so the slider does not rest
// until releaseFramesInPage. Returns whether that step was live and, for each cell, the canvas's colour
// 3 px inside its left edge at half its height, the ink where its value sits (pixels far from that
// colour) and the cell's own background colour meanwhile.
async function holdLiveMapInPage(position) {
  const root = document.querySelector('attention-lab').shadowRoot;
  const map = root.querySelector('[data-testid=temperature-heatmap]'), slider = root.querySelector('[data-testid=temperature-slider]');
  const step = (pos) => { slider.value = String(pos); slider.dispatchEvent(new Event('input', { bubbles: true })); };
  map.scrollIntoView({ block: 'center' });
  for (let i = 0; i < 60 && !map.hasAttribute('data-live'); i++) {
    step(position + 30 - (i % 20));
    await new Promise((r) => requestAnimationFrame(r));
  }
  window.__frame = window.requestAnimationFrame;
  window.__held = [];
  window.requestAnimationFrame = (callback) => window.__held.push(callback);
  step(position);
  const canvas = map.querySelector('canvas.mv-live'), g = canvas.getContext('2d');
  const box = canvas.getBoundingClientRect(), ratio = canvas.width / box.width;
  const px = (x, y) => [Math.round((x - box.left) * ratio), Math.round((y - box.top) * ratio)];
  const cells = [...map.querySelectorAll('td.mv-cell')].map((td) => {
    const b = td.getBoundingClientRect();
    const fill = Array.from(g.getImageData(...px(b.left + 3, b.top + b.height / 2), 1, 1).data.slice(0, 3));
    const text = g.getImageData(...px(b.left + b.width * 0.3, b.top + b.height * 0.35), Math.round(b.width * 0.4 * ratio), Math.round(b.height * 0.3 * ratio)).data;
    let ink = 0;
    for (let k = 0; k < text.length; k += 4) if (Math.abs(text[k] - fill[0]) + Math.abs(text[k + 1] - fill[1]) + Math.abs(text[k + 2] - fill[2]) > 96) ink++;
    return { row: td.dataset.row, col: td.dataset.col, fill, ink, background: getComputedStyle(td).backgroundColor };
  });
  return { live: map.hasAttribute('data-live'), cells };
}

// Run in the page after holdLiveMapInPage: frames again (the held callbacks run in the next one), until
// the slider has rested and the map's cells are written; returns each cell's background as [r, g, b].
async function releaseFramesInPage() {
  const map = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=temperature-heatmap]');
  window.requestAnimationFrame = window.__frame;
  requestAnimationFrame((t) => window.__held.forEach((callback) => callback(t)));
  while (map.hasAttribute('data-live')) await new Promise((r) => requestAnimationFrame(r));
  return [...map.querySelectorAll('td.mv-cell')].map((td) => getComputedStyle(td).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
}

module.exports = {
  STEPPER_QUESTIONS, CAUSAL_QUESTIONS, skipQuestions, launchEngine, walkStepperInPage, smallDigitsInPage, holdLiveMapInPage, releaseFramesInPage, shootWholePage, drawnCellsInPage, letStepperThrough, layOutEverySection, layOutEverySectionInPage, ROOT, WEB, SCREENSHOTS, CELLS, MUST_SHOW, cellLine, launch, startServer, newPage, waitForLab, openEditor, settle, collectCells, shownCells, nativeEval, unparsablePython, rowsOf, nativeContext };
