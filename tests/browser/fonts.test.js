// KaTeX's faces as the element ships them (katex/fonts/subset/, cut by web/build.mjs to the characters
// the page's formulas can contain) draw exactly as the whole faces do: the same text, at the sizes KaTeX
// sets math in, screenshot in each face, must be the same bytes (a cut that drops what the rasteriser's
// hinting measures, such as FreeType's reference letters for a script, fails here).
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, WEB, launch, startServer } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

test('every cut KaTeX face draws the formulas\' characters exactly as the whole face, at math sizes', async () => {
  const { templates, mathCharacters } = await import(path.join(ROOT, 'web/math-prerender.mjs'));
  const formulas = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/math-formulas.json'), 'utf8'));
  const text = [...mathCharacters(templates(formulas).shapes)].join(' ');
  const faces = fs.readdirSync(path.join(WEB, 'katex/fonts/subset')).filter((f) => f.endsWith('.woff2'));
  assert.ok(faces.includes('KaTeX_Main-Regular.woff2') && faces.includes('KaTeX_Math-Italic.woff2'), faces.join(', '));
  const page = await browser.context.newPage();
  await page.goto(new URL('katex/', server.url).href);   // any page of the server (a 404 is fine): same-origin fonts
  const differ = [];
  for (const file of faces) {
    const style = /Italic/.test(file) ? 'italic' : 'normal', weight = /Bold/.test(file) ? 'bold' : 'normal';
    await page.evaluate(async ({ whole, cut, text, style, weight }) => {
      document.body.replaceChildren();
      document.body.style.margin = '0';
      for (const [family, url] of [['Whole', whole], ['Cut', cut]]) {
        const face = new FontFace(family, `url(${url})`, { style, weight });
        await face.load();
        document.fonts.add(face);
        // whole pixel offsets: a box at a fractional y rasterises its text differently
        const box = document.createElement('div');
        box.id = family;
        box.style.cssText = 'width: 1000px; height: 1400px; overflow: hidden; word-break: break-all;';
        // KaTeX's sizes in the element: scriptscript, script, text (1.21em of 16px) and display-ish
        for (const size of [9.68, 13.55, 19.36, 24.2]) {
          const line = document.createElement('div');
          line.style.cssText = `font: ${style} ${weight} ${size}px ${family}; line-height: ${Math.ceil(size * 1.5)}px;`;
          line.textContent = text;
          box.append(line);
        }
        document.body.append(box);
      }
      await document.fonts.ready;
    }, { whole: new URL(`katex/fonts/${file}`, server.url).href, cut: new URL(`katex/fonts/subset/${file}`, server.url).href, text, style, weight });
    const whole = await page.locator('#Whole').screenshot();
    const cut = await page.locator('#Cut').screenshot();
    if (!whole.equals(cut)) differ.push(file);
  }
  await page.close();
  assert.deepEqual(differ, [], 'these cut faces draw differently from the whole ones');
});
