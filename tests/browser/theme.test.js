// Themes: theme="light|dark|auto" (auto follows prefers-color-scheme) and the --attention-lab-*
// custom properties; axe-core (WCAG 2 A/AA, contrast included) finds nothing in either theme.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, launch, startServer, newPage, waitForLab, layOutEverySection, letStepperThrough } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

async function pageWith(html, colorScheme = 'light', dark = colorScheme === 'dark') {
  const { page, problems } = await newPage(browser.context);
  await page.emulateMedia({ colorScheme });
  // The page behind is the theme's (as on a site with a dark theme): axe takes the background of text in
  // sections that content-visibility skips (off screen) from the page, not from the element.
  const pageBg = dark ? '<style>html { background: #16181d; }</style>' : '';
  await page.route('**/theme-test.html', (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">${pageBg}<main>${html}</main><script src="attention-lab.js"></script></html>` }));
  await page.goto(`${server.url}theme-test.html`);
  await waitForLab(page);
  return { page, problems };
}

async function axe(page) {
  await layOutEverySection(page);
  await page.evaluate(fs.readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  });
}

const hostStyle = (page, prop) => page.evaluate((p) => getComputedStyle(document.querySelector('attention-lab')).getPropertyValue(p).trim(), prop);
const buttonBg = (page) => page.evaluate(() => getComputedStyle(document.querySelector('attention-lab').shadowRoot.querySelector('button:not([class^=export])')).backgroundColor);

for (const [name, html, scheme, bg] of [
  ['light', '<attention-lab theme="light"></attention-lab>', 'dark', 'rgb(255, 255, 255)'],
  ['dark', '<attention-lab theme="dark"></attention-lab>', 'light', 'rgb(22, 24, 29)'],
  ['auto under a dark system setting', '<attention-lab></attention-lab>', 'dark', 'rgb(22, 24, 29)'],
  ['auto under a light system setting', '<attention-lab theme="auto"></attention-lab>', 'light', 'rgba(0, 0, 0, 0)'],
]) {
  test(`theme ${name}: its colours, and axe finds no violations`, async () => {
    const { page, problems } = await pageWith(html, scheme, bg === 'rgb(22, 24, 29)');
    assert.equal(await hostStyle(page, 'background-color'), bg);
    assert.deepEqual(await axe(page), []);
    assert.deepEqual(problems, []);
  });
}

test('the custom properties restyle accent, colours and font, in both themes', async () => {
  const style = '<style>attention-lab { --attention-lab-accent: #6a1b6e; --attention-lab-font: Georgia, serif; } attention-lab[theme=dark] { --attention-lab-accent: #f2b8f5; --attention-lab-bg: #000; --attention-lab-fg: #fff; }</style>';
  const { page, problems } = await pageWith(`${style}<attention-lab section="classes" theme="light"></attention-lab><attention-lab section="classes" theme="dark"></attention-lab>`);
  await page.setViewportSize({ width: 1280, height: 6000 });   // both on screen (see pageWith on axe)
  const read = () => page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((el) => {
    const b = el.shadowRoot.querySelector('button:not([class^=export])');
    const cs = getComputedStyle(el);
    return { button: getComputedStyle(b).backgroundColor, font: cs.fontFamily, bg: cs.backgroundColor, fg: cs.color };
  }));
  const [light, dark] = await read();
  assert.equal(light.button, 'rgb(106, 27, 110)');
  assert.match(light.font, /^Georgia/);
  assert.equal(dark.button, 'rgb(242, 184, 245)');
  assert.equal(dark.bg, 'rgb(0, 0, 0)');
  assert.equal(dark.fg, 'rgb(255, 255, 255)');
  assert.deepEqual(await axe(page), []);
  // a theme change is applied by CSS alone: the content stays (no rebuild)
  const lab = await page.evaluateHandle(() => document.querySelector('attention-lab').shadowRoot.querySelector('.lab'));
  await page.evaluate(() => document.querySelector('attention-lab').setAttribute('theme', 'dark'));
  assert.equal(await page.evaluate((old) => document.querySelector('attention-lab').shadowRoot.querySelector('.lab') === old, lab), true);
  assert.deepEqual(problems, []);
});

test('--attention-lab-font reaches the drawings\' text too: the plots, the step drawing\'s operators, the q·k plane', async () => {
  const style = '<style>attention-lab { --attention-lab-font: Georgia, serif; }</style>';
  const { page, problems } = await pageWith(`${style}<attention-lab section="step-by-step" theme="light"></attention-lab><attention-lab section="why-sqrt-dk" theme="light"></attention-lab>`);
  await page.setViewportSize({ width: 1280, height: 6000 });
  await page.evaluate(() => Promise.all([...document.querySelectorAll('attention-lab')].map((el) => el.updateComplete)));
  await letStepperThrough(page);
  const fonts = await page.evaluate(() => {
    const [steps, sqrt] = [...document.querySelectorAll('attention-lab')].map((el) => el.shadowRoot);
    const family = (root, selector) => { const n = root.querySelector(selector); return n ? getComputedStyle(n).fontFamily : `no ${selector}`; };
    return { plot: family(sqrt, '.plot-svg text'), operator: family(steps, '.sf-op'), plane: family(steps, '.qk-axis-label, .qk-key text') };
  });
  for (const [drawing, font] of Object.entries(fonts)) assert.match(font, /^Georgia, serif$/, `${drawing}: ${font}`);
  assert.deepEqual(problems, []);
});

test('the heat colours follow --attention-lab-heat-*: the sequential and diverging scales, legend and text contrast', async () => {
  const style = '<style>attention-lab { --attention-lab-heat-low: white; --attention-lab-heat-high: #8b0000;'
    + ' --attention-lab-heat-negative: #00441b; --attention-lab-heat-zero: #ffffff; --attention-lab-heat-positive: rgb(64, 0, 75); }</style>';
  const { page, problems } = await pageWith(`${style}<attention-lab section="step-by-step" theme="light"></attention-lab>`);
  // the background of the cell holding a matrix's largest (smallest) value, and the view's legend ramp
  const colours = (testid) => page.evaluate((id) => {
    const view = document.querySelector('attention-lab').shadowRoot.querySelector(`[data-testid="${id}"]`);
    const cells = [...view.querySelectorAll('[data-value]')].map((c) => ({ v: Number(c.dataset.value), bg: c.style.background, fg: c.style.color }));
    cells.sort((a, b) => a.v - b.v);
    return { min: cells[0], max: cells[cells.length - 1], ramp: view.querySelector('.mv-ramp')?.style.background || '' };
  }, testid);
  await page.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=weights-heatmap] [data-value]'));
  // the stepper's last step, past ω₂₂'s question: every value shown (a pending cell gets its colour at
  // its step), and drawn (updateComplete waits for the views' frames)
  await letStepperThrough(page);
  await page.evaluate(() => {
    document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper]').dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    return document.querySelector('attention-lab').updateComplete;
  });
  assert.equal(await page.locator('[data-testid=weights-heatmap] td[data-pending]').count(), 0);
  const weights = await colours('weights-heatmap');   // sequential over [0, 1]: white at 0 towards dark red at 1
  const [r, g, b] = weights.max.bg.match(/\d+/g).map(Number);
  assert.ok(r > g + 20 && r > b + 20, `the largest weight is reddish: ${weights.max.bg}`);
  assert.match(weights.ramp, /rgb\(255, 255, 255\) 0%/);
  assert.match(weights.ramp, /rgb\(139, 0, 0\) 100%/);
  // contrast is kept by the text colour, whatever the author's colours
  assert.ok(['rgb(0, 0, 0)', 'rgb(255, 255, 255)'].includes(weights.max.fg));
  assert.deepEqual(await axe(page), []);
  assert.deepEqual(problems, []);
});

test('a bad theme is a message naming it', async () => {
  const { page, problems } = await pageWith('<attention-lab theme="sepia"></attention-lab>');
  assert.match(await page.locator('attention-lab [data-testid=lab-error]').textContent(), /theme="sepia" is not a theme\. Use light, dark or auto/);
  assert.deepEqual(problems, []);
});

// The manual's theming example and its site-switch snippet (docs/embedding.md, "Theming"), as written there.
const MANUAL = fs.readFileSync(path.join(ROOT, 'docs/embedding.md'), 'utf8');
const manualBlock = (after, lang) => {
  const from = MANUAL.indexOf(after);
  assert.ok(from >= 0, `docs/embedding.md has "${after}"`);
  return new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(MANUAL.slice(from))[1];
};
// WCAG's contrast ratio of two computed rgb() colours.
const contrast = (a, b) => {
  const lum = (c) => {
    const [r, g, b2] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const buttonColours = (page) => page.evaluate(() => [...document.querySelectorAll('attention-lab')].map((el) => {
  const cs = getComputedStyle(el.shadowRoot.querySelector('button:not([class^=export])'));
  return { bg: cs.backgroundColor, fg: cs.color };
}));

test('the manual\'s accent example keeps 4.5:1 button text under theme="auto", in a dark and a light reader\'s setting, and forced dark', async () => {
  const css = manualBlock('theme-example', 'css');
  assert.match(css, /--attention-lab-accent-dark/);
  for (const [scheme, html, bg] of [
    ['dark', '<attention-lab section="classes"></attention-lab>', 'rgb(242, 184, 245)'],
    ['light', '<attention-lab section="classes" theme="auto"></attention-lab>', 'rgb(106, 27, 110)'],
    ['light', '<attention-lab section="classes" theme="dark"></attention-lab>', 'rgb(242, 184, 245)'],
  ]) {
    const { page, problems } = await pageWith(`<style>${css}</style>${html}`, scheme);
    const [button] = await buttonColours(page);
    assert.equal(button.bg, bg, `${scheme}: ${html}`);
    assert.ok(contrast(button.bg, button.fg) >= 4.5, `${scheme} ${html}: ${button.fg} on ${button.bg} is ${contrast(button.bg, button.fg).toFixed(2)}:1`);
    assert.deepEqual(problems, []);
    await page.close();
  }
  // a light accent alone: under auto, a dark reader gets the dark theme's own accent, not 1.65:1
  const { page } = await pageWith('<style>attention-lab { --attention-lab-accent: #6a1b6e }</style><attention-lab section="classes"></attention-lab>', 'dark');
  const [button] = await buttonColours(page);
  assert.equal(button.bg, 'rgb(140, 196, 255)');
  assert.ok(contrast(button.bg, button.fg) >= 4.5);
  await page.close();
});

test('the manual\'s site-switch snippet sets every element\'s theme from the host\'s attribute, by CSS alone', async () => {
  const snippet = manualBlock('Following your site\'s theme switch', 'js');
  const { page, problems } = await pageWith('<attention-lab section="classes"></attention-lab><attention-lab section="classes" theme="auto"></attention-lab>', 'light');
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'dark'));
  await page.addScriptTag({ content: snippet });
  const lab = await page.evaluateHandle(() => document.querySelector('attention-lab').shadowRoot.querySelector('.lab'));
  assert.deepEqual((await buttonColours(page)).map((b) => b.bg), ['rgb(140, 196, 255)', 'rgb(140, 196, 255)']);
  await page.evaluate(() => document.documentElement.setAttribute('data-bs-theme', 'light'));
  await page.waitForFunction(() => [...document.querySelectorAll('attention-lab')].every((el) => el.getAttribute('theme') === 'light'));
  assert.deepEqual((await buttonColours(page)).map((b) => b.bg), ['rgb(11, 92, 173)', 'rgb(11, 92, 173)']);
  assert.equal(await page.evaluate((old) => document.querySelector('attention-lab').shadowRoot.querySelector('.lab') === old, lab), true, 'no rebuild');
  assert.deepEqual(problems, []);
  await page.close();
});
