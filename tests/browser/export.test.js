// Issue 46's export menu, in Chromium, Firefox ESR and WebKit (ATTN_ENGINES picks): reached and walked
// with the keyboard (Enter opens it on its first item, arrows move, Escape closes it back onto its button);
// the SVG holds each cell's value and colour as drawn; the PNG, decoded here (not by the browser that made
// it), is the drawn size × 2 with each cell's colour at its place; the q–k plane's SVG and PNG (drawn
// through an image) in the same way; the dark theme's background. export-replay.test.js replays the CSV
// and the PyTorch literal through PyTorch, and reopens permalinks.
'use strict';
const { describe } = require('node:test');
const assert = require('node:assert/strict');
const zlib = require('node:zlib');
const { chosenEngines, engineChecks } = require('./engines/suite');

// A PNG's width, height and RGBA pixels (8-bit RGB or RGBA, not interlaced: what canvas.toBlob writes).
function decodePng(buffer) {
  assert.equal(buffer.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG signature');
  let at = 8, width, height, type, data = [];
  while (at < buffer.length) {
    const length = buffer.readUInt32BE(at), kind = buffer.toString('ascii', at + 4, at + 8), body = buffer.subarray(at + 8, at + 8 + length);
    if (kind === 'IHDR') {
      width = body.readUInt32BE(0); height = body.readUInt32BE(4); type = body[9];
      assert.equal(body[8], 8, '8 bits per channel'); assert.equal(body[12], 0, 'not interlaced');
    } else if (kind === 'IDAT') data.push(body);
    at += 12 + length;
  }
  const channels = { 2: 3, 6: 4 }[type];
  assert.ok(channels, `colour type ${type}`);
  const raw = zlib.inflateSync(Buffer.concat(data)), stride = width * channels, out = Buffer.alloc(width * height * 4);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)], line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels] : 0, b = prev[i], c = i >= channels ? prev[i - channels] : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      line[i] = (line[i] + [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]) & 255;
    }
    for (let x = 0; x < width; x++) for (let k = 0; k < 4; k++) out[(y * width + x) * 4 + k] = k < channels ? line[x * channels + k] : 255;
    prev = line;
  }
  return { width, height, at: (x, y) => [...out.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)] };
}
const rgb = (css) => css.match(/[\d.]+/g).slice(0, 3).map(Number);
const near = (a, b, tolerance = 3) => a.every((v, k) => Math.abs(v - b[k]) <= tolerance);

// In the page: the exports made from now on (the menu's attention-lab-export events), kept in window.
function recordExports() {
  if (!window.exportsMade) {
    window.exportsMade = [];
    document.addEventListener('attention-lab-export', (e) => window.exportsMade.push(e.detail));
  }
  window.exportsMade.length = 0;
  return true;
}
// In the page: the k-th export's detail, its blob as base64, and the drawing's cells as drawn now.
async function exportMade(k, figureSelector) {
  const d = window.exportsMade[k];
  const bytes = d.blob ? new Uint8Array(await d.blob.arrayBuffer()) : null;
  let base64 = '';
  if (bytes) for (let i = 0; i < bytes.length; i += 0x8000) base64 += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const figure = document.querySelector('attention-lab').shadowRoot.querySelector(figureSelector);
  const cells = [...figure.querySelectorAll('td.mv-cell')].map((td) => ({ row: Number(td.dataset.row), col: Number(td.dataset.col),
    background: getComputedStyle(td).backgroundColor, text: td.textContent }));
  return { action: d.action, file: d.file, type: d.type, text: d.text || null, error: d.error || null, scene: d.scene || null, svg: d.svg || null,
    png: bytes ? btoa(base64) : null, cells };
}
// In the page: opens a drawing's menu and chooses an action with the mouse's click events.
function chooseAction(figureSelector, action) {
  const figure = document.querySelector('attention-lab').shadowRoot.querySelector(figureSelector);
  figure.querySelector('[data-testid=export-button]').click();
  figure.querySelector(`.export-item[data-action=${action}]`).click();
  return true;
}
// In the page: whether the drawing's menu is open, its button's aria-expanded and what has focus; with
// `want`, only whether that is the focused item ('open': whether the menu is open).
function menuState(figureSelector, want) {
  const root = document.querySelector('attention-lab').shadowRoot, f = root.querySelector(figureSelector);
  const active = root.activeElement;
  const state = { open: !f.querySelector('.export-menu').hidden, expanded: f.querySelector('[data-testid=export-button]').getAttribute('aria-expanded'),
    focused: active ? (active.dataset.action || active.dataset.testid || active.tagName) : null };
  return want === undefined ? state : want === 'open' ? state.open : state.focused === want;
}

for (const name of chosenEngines()) {
  describe(name, () => {
    let driver, server;
    const check = engineChecks(name, (started) => ({ driver, server } = started));
    const open = async (query) => {
      await driver.open(`${server.url}${query}`);
      await driver.waitForLab();
    };
    const waitForExports = (n) => driver.waitFor((count) => window.exportsMade.length >= count, [n], { what: `${n} export(s)` });
    const WEIGHTS = '[data-testid=batched-product] [data-matrix=attn_weights]';

    check('the menu by keyboard; the SVG and the PNG of a matrix are what is drawn', async () => {
      await open('?section=batched');
      await driver.evaluate(recordExports);
      await driver.focus(`${WEIGHTS} [data-testid=export-button]`);
      await driver.pressKey('Enter');
      await driver.waitFor(menuState, [WEIGHTS, 'png'], { what: 'the menu open on its first item' });
      assert.deepEqual(await driver.evaluate(menuState, WEIGHTS), { open: true, expanded: 'true', focused: 'png' });
      await driver.pressKey('ArrowDown');
      assert.equal((await driver.evaluate(menuState, WEIGHTS)).focused, 'svg');
      await driver.pressKey('ArrowUp');
      await driver.pressKey('ArrowUp');   // wraps to the last item
      assert.equal((await driver.evaluate(menuState, WEIGHTS)).focused, 'link');
      await driver.pressKey('Escape');
      assert.deepEqual(await driver.evaluate(menuState, WEIGHTS), { open: false, expanded: 'false', focused: 'export-button' });
      await driver.pressKey('Enter');
      await driver.waitFor(menuState, [WEIGHTS, 'open'], { what: 'the menu open again' });
      await driver.pressKey('ArrowDown');
      await driver.pressKey('Enter');   // SVG
      await waitForExports(1);
      const svg = await driver.evaluate(exportMade, 0, WEIGHTS);
      assert.equal(svg.error, null);
      assert.equal(svg.file, 'attn_weights.svg');
      assert.equal(svg.cells.length, 36);
      for (const cell of svg.cells) {
        const rect = svg.text.match(new RegExp(`<rect [^>]*fill="([^"]+)" data-row="${cell.row}" data-col="${cell.col}"/>`));
        assert.ok(rect, `the SVG has cell [${cell.row}, ${cell.col}]`);
        assert.equal(rect[1], cell.background, `cell [${cell.row}, ${cell.col}]'s colour`);
        assert.ok(svg.text.includes(`>${cell.text}</text>`), `the SVG writes cell [${cell.row}, ${cell.col}]'s ${cell.text}`);
      }
      for (const label of ['attn_weights', '6×6', 'Your', 'journey', 'row min', 'row max']) assert.ok(svg.text.includes(`>${label}</text>`), `the SVG writes ${label}`);

      // the PNG, chosen with the pointer (after a download Firefox's window may not get the keys: its downloads panel)
      await driver.evaluate(chooseAction, WEIGHTS, 'png');
      await waitForExports(2);
      const made = await driver.evaluate(exportMade, 1, WEIGHTS);
      assert.equal(made.error, null);
      assert.equal(made.type, 'image/png');
      const png = decodePng(Buffer.from(made.png, 'base64'));
      assert.deepEqual([png.width, png.height], [made.scene.width * 2, made.scene.height * 2], 'the drawn size × 2');
      const rects = made.scene.items.filter((i) => i.type === 'rect');
      assert.equal(rects.length, 36);
      for (const r of rects) {
        // a point of the cell away from its text and its rounded corner
        const x = Math.round((r.x + r.w * 0.12 + 1) * 2), y = Math.round((r.y + r.h * 0.18 + 1) * 2);
        const drawn = made.cells.find((c) => c.row === r.row && c.col === r.col);
        assert.ok(near(png.at(x, y), rgb(drawn.background)), `cell [${r.row}, ${r.col}]: ${png.at(x, y)} is ${drawn.background}`);
      }
      assert.ok(near(png.at(1, 1), rgb(made.scene.background)), 'the page background behind it');
    });

    check('the dark theme: the SVG on the dark background, cells as drawn', async () => {
      await open('?section=batched');
      await driver.evaluate(() => { document.querySelector('attention-lab').setAttribute('theme', 'dark'); return true; });
      await driver.evaluate(recordExports);
      await driver.evaluate(chooseAction, WEIGHTS, 'svg');
      await waitForExports(1);
      const svg = await driver.evaluate(exportMade, 0, WEIGHTS);
      assert.match(svg.text, /<rect width="100%" height="100%" fill="rgb\(22, 24, 29\)"\/>/);
      for (const cell of svg.cells) assert.ok(svg.text.includes(`fill="${cell.background}" data-row="${cell.row}" data-col="${cell.col}"`));
    });

    check('the q–k plane: its SVG carries the engine\'s arrows, its PNG is drawn × 2 with the query\'s colour', async () => {
      await open('?section=step-by-step&exercises=off');
      const PLANE = '[data-testid=qk-plane]';
      await driver.waitFor(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=qk-plane] .qk-query line'), [], { what: 'the plane drawn' });
      await driver.evaluate(recordExports);
      await driver.evaluate(chooseAction, PLANE, 'svg');
      await waitForExports(1);
      await driver.evaluate(chooseAction, PLANE, 'png');
      await waitForExports(2);
      const svg = await driver.evaluate(exportMade, 0, PLANE), made = await driver.evaluate(exportMade, 1, PLANE);
      assert.equal(svg.error, null); assert.equal(made.error, null);
      const drawn = await driver.evaluate(() => {
        const plane = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=qk-plane]');
        return { keys: plane.querySelectorAll('.qk-key').length, stroke: getComputedStyle(plane.querySelector('.qk-query line')).stroke };
      });
      assert.equal((svg.text.match(/<g [^>]*data-key="/g) || []).length, drawn.keys, 'every key');
      assert.ok(svg.text.includes(`stroke:${drawn.stroke}`), 'the query arrow in its drawn colour');
      const [, w, h] = made.svg.match(/^<svg [^>]*width="(\d+)" height="(\d+)"/).map(Number);
      const png = decodePng(Buffer.from(made.png, 'base64'));
      assert.deepEqual([png.width, png.height], [w * 2, h * 2]);
      let hits = 0;
      for (let y = 0; y < png.height; y += 1) for (let x = 0; x < png.width; x += 1) if (near(png.at(x, y), rgb(drawn.stroke), 10)) hits++;
      assert.ok(hits > 40, `the query's arrow is in the PNG (${hits} pixels of its colour)`);
    });
  });
}
