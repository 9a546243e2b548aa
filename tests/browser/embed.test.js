// Embedding: <attention-lab> loaded by a page of another origin (two servers, two ports) finds its
// engine next to its own script; embed.html?section=... posts its height to the parent only.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cellLine, launch, startServer, newPage, waitForLab, shownCells } = require('./helpers');

let browser, widget, host, hostDir;
before(async () => {
  browser = await launch();
  widget = await startServer();
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-host-'));
  // The widget's server is 127.0.0.1, the host's "localhost": different origins (host and port).
  const w = widget.url;
  fs.writeFileSync(path.join(hostDir, 'element.html'), `<!doctype html><meta charset="utf-8"><title>host</title>
<link rel="icon" href="data:,"><h1>A course page</h1><attention-lab section="temperature"></attention-lab>
<attention-lab section="classes" engine="scalar"></attention-lab>
<attention-lab section="bogus"></attention-lab>
<script src="${w}attention-lab.js"></script>`);
  fs.writeFileSync(path.join(hostDir, 'iframe.html'), `<!doctype html><meta charset="utf-8"><title>host</title>
<link rel="icon" href="data:,">
<iframe id="f" src="${w}embed.html?section=step-by-step" style="width:600px;height:200px;border:0"></iframe>
<script src="host.js"></script>`);
  // a host that fits the frame to every height posted (README's snippet)
  fs.writeFileSync(path.join(hostDir, 'fit.html'), `<!doctype html><meta charset="utf-8"><title>host</title>
<link rel="icon" href="data:,">
<iframe id="f" src="${w}embed.html?section=temperature" style="width:360px;height:300px;border:0"></iframe>
<script src="fit.js"></script>`);
  fs.writeFileSync(path.join(hostDir, 'fit.js'), `window.heights = [];
window.addEventListener('message', (e) => { if (e.data && e.data.type === 'attention-lab:height') { window.heights.push(e.data.height); document.getElementById('f').style.height = e.data.height + 'px'; } });`);
  fs.writeFileSync(path.join(hostDir, 'host.js'), `window.heights = [];
window.addEventListener('message', (e) => { if (e.data && e.data.type === 'attention-lab:height') window.heights.push({ origin: e.origin, height: e.data.height }); });`);
  host = await startServer(hostDir);
  host.url = host.url.replace('127.0.0.1', 'localhost');
});
after(async () => { await browser.close(); await widget.close(); await host.close(); fs.rmSync(hostDir, { recursive: true, force: true }); });

test('the custom element works from another origin, one section each, bad section → message', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${host.url}element.html`);
  await waitForLab(page);
  await page.locator('attention-lab[section=classes] [data-cell="3.4.2/sa_v1"]').waitFor();
  assert.equal(await page.locator('attention-lab[section=temperature] [data-testid=temperature-weights]').textContent(),
    '0.1500 0.2264 0.2199 0.1311 0.0906 0.1820');
  const shown = await shownCells(page);
  assert.equal(shown['3.4.2/sa_v1'], cellLine('3.4.2/sa_v1'));
  assert.equal(shown['3.4.2/sa_v2'], cellLine('3.4.2/sa_v2'));
  assert.equal(await page.locator('attention-lab[section=classes] [data-testid=engine-footer]').textContent(), 'Engine: WebAssembly scalar');
  assert.match(await page.locator('attention-lab[section=bogus] [data-testid=lab-error]').textContent(), /section="bogus" is not a section/);
  // one section only: the temperature element has no other sections and no global styles leaked
  assert.equal(await page.locator('attention-lab[section=temperature] [data-section]').count(), 1);
  assert.equal(await page.evaluate(() => document.styleSheets.length), 0);
  assert.equal(await page.evaluate(() => typeof window.katex), 'undefined');
  assert.deepEqual(problems, []);
});

test('embed.html posts its height to the parent', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${host.url}iframe.html`);
  const frame = page.frameLocator('#f');
  await frame.locator('[data-cell="3.4.1/attn_weights_2"]').waitFor({ timeout: 30000 });
  await page.waitForFunction(() => window.heights.some((m) => m.height > 1000));
  // The math renders a few formulas per task and KaTeX's font files arrive after it, so the height
  // settles over a moment: the last height posted must become the frame's height.
  let heights, last, actual;
  for (let i = 0; i < 100; i++) {
    heights = await page.evaluate(() => window.heights);
    last = heights[heights.length - 1].height;
    actual = await page.frames()[1].evaluate(() => document.documentElement.scrollHeight);
    if (Math.abs(last - actual) <= 1 && i > 0) break;
    await page.waitForTimeout(100);
  }
  assert.ok(heights.every((m) => m.origin === new URL(widget.url).origin), JSON.stringify(heights));
  // the content's own height, rounded up (scrollHeight rounds): within a pixel of the document's
  assert.ok(Math.abs(last - actual) <= 1, `posted ${last} px, the document is ${actual} px`);
  assert.deepEqual(problems, []);
});

test('the fitted iframe shrinks back when its content gets shorter (widened from 360 to 1100 px)', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto(`${host.url}fit.html`);
  await page.frameLocator('#f').locator('[data-testid=temperature-weights]').waitFor({ timeout: 30000 });
  // the height the frame settles at: the last posted, equal to the frame's own height
  const settled = async () => {
    let prev = -1;
    for (let i = 0; i < 100; i++) {
      await page.waitForTimeout(150);
      const { last, frame } = await page.evaluate(() => ({ last: window.heights.at(-1), frame: document.getElementById('f').getBoundingClientRect().height }));
      if (last === prev && Math.abs(frame - last) < 1) return last;
      prev = last;
    }
    throw new Error('the frame height never settled');
  };
  const narrow = await settled();
  await page.evaluate(() => { document.getElementById('f').style.width = '1100px'; });
  const wide = await settled();
  assert.ok(wide < narrow - 50, `the frame went from ${narrow} px to ${wide} px when widened`);
  const content = await page.frames()[1].evaluate(() => document.querySelector('attention-lab').getBoundingClientRect().bottom);
  assert.ok(wide >= content && wide - content < 40, `the frame (${wide} px) fits its content (${content} px)`);
  assert.deepEqual(problems, []);
});

test('embed.html with a bad section shows the message in the frame', async () => {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${widget.url}embed.html?section=%3Cimg%20src=x%3E`);
  const msg = await page.locator('[data-testid=lab-error]').textContent();
  assert.match(msg, /section="<img src=x>" is not a section/);
  assert.equal(await page.locator('attention-lab img').count(), 0);
  assert.deepEqual(problems, []);
});
