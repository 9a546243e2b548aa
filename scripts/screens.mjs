// Screenshots of the page's views for docs/screens/ (the README shows them): node scripts/screens.mjs
// after ./scripts/build web. Chromium from Debian, as the browser tests use it.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ROOT, launch, startServer, newPage, waitForLab } = require('../tests/browser/helpers.js');
const OUT = path.join(ROOT, 'docs/screens');
fs.mkdirSync(OUT, { recursive: true });

// A section's element inside the shadow root, scrolled to the top of the screen.
// Twice: sections off screen are laid out only once near it (content-visibility: auto), which moves it.
async function shootSection(page, id, file) {
  for (let i = 0; i < 2; i++) {
    await page.evaluate((sid) => document.querySelector('attention-lab').shadowRoot.getElementById(`al-${sid}`).scrollIntoView({ block: 'start' }), id);
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: path.join(OUT, file) });
}

// The drawing around a view (its row of maps), scrolled to the top of the screen, twice as above.
async function shootView(page, testid, file) {
  for (let i = 0; i < 2; i++) {
    await page.evaluate((t) => {
      const view = document.querySelector('attention-lab').shadowRoot.querySelector(`[data-testid=${t}]`);
      (view.closest('.matrices') || view).scrollIntoView({ block: 'start' });
    }, testid);
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: path.join(OUT, file) });
}

// A drawing's export menu, opened with the keyboard on the batched product's weights, then closed (Escape).
async function shootExportMenu(page, file) {
  const button = page.locator('[data-testid=batched-product] [data-matrix=attn_weights] [data-testid=export-button]');
  await button.evaluate((b) => b.closest('.product').scrollIntoView({ block: 'start' }));
  await button.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, file) });
  await page.keyboard.press('Escape');
}

const browser = await launch();
const server = await startServer();
try {
  for (const [width, height, tag] of [[1280, 900, 'desktop-1280'], [390, 844, 'phone-390']]) {
    const { page } = await newPage(browser.context);
    await page.setViewportSize({ width, height });
    await page.goto(server.url);
    await waitForLab(page);
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(OUT, `${tag}-first-screen.png`) });
    // the editor open: its fields and, beside them (below on a phone), the weights they give; closed again
    const editor = page.locator('attention-lab details.editor');
    await editor.locator('summary').click();
    await editor.locator('.editor-grid').waitFor();   // its body is built when first opened
    await editor.evaluate((d) => d.scrollIntoView({ block: 'start' }));
    await page.mouse.move(0, 0);   // no tooltip of a cell the pointer happens to be over
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `${tag}-editor.png`) });
    await editor.locator('summary').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    // predict, then see: the ω22 question answered (a near miss): the hint, without the value, and a second try
    const omega = page.locator('[data-exercise=predict-omega22]');
    await page.locator('[data-testid=progress-reset]').click();   // the answers of the other width's pass: asked again
    await omega.locator('[data-testid=predict-input]').fill('1.9');
    await omega.locator('[data-testid=predict-check]').click();
    await omega.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `${tag}-learn-prompt.png`) });
    if (width === 1280) await omega.screenshot({ path: path.join(OUT, 'learn-prompt-1280.png') });
    // then right on the second try, which lets the stepper through ω22
    await omega.locator('[data-testid=predict-input]').fill('1.85');
    await omega.locator('[data-testid=predict-check]').click();
    // the stepper a few steps in: ω22 written out
    const next = page.locator('[data-testid=projection-stepper] [data-testid=step-next]');
    for (let i = 0; i < 5; i++) await next.click();
    // each step brings its result into sight under the sticky caption
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `${tag}-stepper.png`) });
    // §3.5's maps are held back until its questions are answered: shown here as after "Just show me"
    for (const id of ['predict-mask', 'predict-row-sum', 'predict-dropout-scale']) await page.locator(`[data-exercise=${id}] [data-testid=predict-skip]`).click();
    for (const id of ['temperature', 'why-sqrt-dk', 'causal']) await shootSection(page, id, `${tag}-${id}.png`);
    // the batched toy before its shape is answered: the rows to work out given, their results held back
    const toy = page.locator('[data-exercise=predict-toy-shape]');
    await toy.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `${tag}-batched-toy.png`) });
    // exercise 3.1 after a wrong first run: PyTorch's error and a hint, the solution still held back
    const ex31 = page.locator('[data-testid="exercise-3.1"]');
    await ex31.locator('[data-testid=exercise-check]').click();
    await ex31.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(OUT, `${tag}-exercise-3.1.png`) });
    // q(2) and the keys in the plane; the batched product with an output row linked
    await shootView(page, 'qk-plane', `${tag}-qk-plane.png`);
    await shootView(page, 'batched-product', `${tag}-batched-product.png`);
    await shootExportMenu(page, `${tag}-export-menu.png`);
    // the bug hunt: a fresh round before the answer (the last pass may have answered one), then "Just show
    // me": the buggy line beside the book's
    const round = await page.locator('[data-section=bug-hunt] [data-testid=bug-hunt]').getAttribute('data-round');
    await page.locator('[data-section=bug-hunt] [data-testid=bug-next]').click();
    await page.waitForFunction((r) => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=bug-hunt]').dataset.round !== r, round);
    await page.mouse.move(0, 0);   // no tooltip of a cell the pointer happens to be over
    await shootSection(page, 'bug-hunt', `${tag}-bug-hunt-before.png`);
    await page.locator('[data-section=bug-hunt] [data-testid=bug-skip]').click();
    await page.locator('[data-section=bug-hunt] [data-testid=bug-name]').waitFor();
    await page.waitForTimeout(300);
    await shootSection(page, 'bug-hunt', `${tag}-bug-hunt.png`);
    if (width === 1280) await page.locator('[data-section=bug-hunt]').screenshot({ path: path.join(OUT, 'learn-bug-hunt-1280.png') });
    // §3.5's and §3.6's drawings: the greyed future, dropout's zeros and ×2, the heads side by side
    for (const [testid, name] of [['causal-heatmap', 'causal-map'], ['dropout-heatmap', 'dropout'], ['head-1-heatmap', 'heads']]) await shootView(page, testid, `${tag}-${name}.png`);
    // "Train it": untrained, then after Play has run all 300 steps (the weights and W_q, W_k, W_v too)
    await shootSection(page, 'train', `${tag}-train-untrained.png`);
    await page.locator('[data-testid=train-play]').click();
    await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=train-step]').textContent === '300', null, { timeout: 60000 });
    await shootSection(page, 'train', `${tag}-train.png`);
    const weights = page.locator('attention-lab [data-section=train] .matrices');
    await weights.scrollIntoViewIfNeeded();
    await weights.screenshot({ path: path.join(OUT, `${tag}-train-weights.png`) });
    await page.close();
    // the stepper with 16 tokens at its matrix steps (22 and 23): on a phone only its bar sticks
    const sixteen = await newPage(browser.context);
    await sixteen.page.setViewportSize({ width, height });
    await sixteen.page.goto(`${server.url}?section=step-by-step`);
    await waitForLab(sixteen.page);
    await sixteen.page.evaluate(async () => {
      const lab = document.querySelector('attention-lab');
      lab.words = Array.from({ length: 16 }, (_, i) => `w${i + 1}`);
      lab.inputs = Array.from({ length: 16 }, (_, i) => [0.1 + (i % 5) * 0.2, 0.9 - (i % 7) * 0.1, ((i * 3) % 10) / 10]);
      await lab.updateComplete;
    });
    await sixteen.page.locator('[data-exercise=predict-omega22] [data-testid=predict-skip]').click();
    const step = sixteen.page.locator('[data-testid=projection-stepper] [data-testid=step-next]');
    for (let i = 1; i < 22; i++) await step.click();
    await sixteen.page.waitForTimeout(300);
    await sixteen.page.screenshot({ path: path.join(OUT, `${tag}-stepper-16-step22.png`) });
    await step.click();
    await sixteen.page.waitForTimeout(300);
    await sixteen.page.screenshot({ path: path.join(OUT, `${tag}-stepper-16-step23.png`) });
    await sixteen.page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`screenshots in ${path.relative(ROOT, OUT)}/`);
