// Issue 46: the page in the reader's language (docs/translations.md). In Chromium, Firefox ESR and WebKit,
// each shipped language is loaded through embed.html?lang= (in a 390 px iframe, as engines.test.js checks
// WebKit, whose window cannot be so narrow) with words of that language, every question revealed ("Just
// show me"), every <details> opened and every section laid out on screen in turn; then:
//   - no English word is left in the element's text or in its aria-labels, titles and placeholders:
//     the words of the English catalogue that the language's own catalogue does not use, found outside
//     code, PyTorch's prints and formulas (which stay as the book and PyTorch write them);
//   - no text is clipped at 390 px: every box with text of its own, outside a box that scrolls, has
//     scrollWidth ≤ clientWidth, and the frame's page is no wider than 390 px;
//   - the element names its language: lang and dir on its content.
// "Train it" has taken a Step (the whole run, its verdict and notes), "Check my code" has checked a paste
// that differs from the book's, and an export menu has made a link (its status said after awaits);
// the export menus' items are read although their menus are closed.
// A bad lang is one sentence; AttentionLab.registerTranslation refuses a bad tag with one.
'use strict';
const { describe } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('./helpers');
const { chosenEngines, engineChecks } = require('./engines/suite');

const I18N = path.join(ROOT, 'web/src/i18n');
const catalogue = (lang) => JSON.parse(fs.readFileSync(path.join(I18N, `${lang}.json`), 'utf8'));
// The views' English words live in web/src/views/words.js (an ES module): read as text.
const viewWords = () => [...fs.readFileSync(path.join(ROOT, 'web/src/views/words.js'), 'utf8').matchAll(/^\s*'views\.[^']+': (['"])(.*)\1,$/gm)].map((m) => m[2]);
const ENGLISH_TEXT = [...Object.values(catalogue('en')), ...viewWords()].join(' ');
// (identifiers such as attn_scores, W_query.weight and torch.manual_seed are code, not English words)
const wordsOf = (text) => new Set((text.replace(/\{[^{}]*\}/g, ' ').replace(/[\w.]*[_.][\w.]+/g, ' ').match(/[A-Za-z][a-z]{2,}/g) || []).map((w) => w.toLowerCase()));

// The sections whose own prose is in the catalogues so far (issue 46, part 1, done in steps: the element's
// chrome, the editor, every question, hint and feedback, the views' words (the export menus' among them)
// and the section titles are everywhere). Every section's prose is in them now; a new section is added here
// when its prose moves to the catalogues.
const TRANSLATED_SECTIONS = ['batched', 'step-by-step', 'classes', 'bug-hunt', 'temperature', 'why-sqrt-dk', 'causal', 'multi-head', 'train', 'check'];

// Per language: the example's words in that language, and the words of it the page may show in Latin
// letters that are also English words (identifiers, names and the book's title are allowed below).
const LANGUAGES = {
  de: { words: 'Ihre Reise beginnt mit einem Schritt' },
  'zh-CN': { words: '你的 旅程 从 一 步 开始' },
};
// Names that stay as written in every language: the book's title, PyTorch's and Python's identifiers,
// the engine's kinds, units and products.
const ALLOWED = new Set(['tensor', 'bias', 'queries', 'keys', 'values', 'inputs', 'size', 'build', 'large', 'language', 'model', 'from', 'scratch', 'pytorch', 'torch', 'softmax', 'webassembly',
  'simd', 'scalar', 'localstorage', 'lms', 'gpt', 'json', 'nan', 'inf', 'relu', 'linear', 'dropout', 'embedding']);

// In the frame's page: every question revealed, every details opened, every section laid out on screen;
// then the texts and attributes outside code, prints and formulas, and the clipped boxes.
async function readFrame() {
  const win = document.getElementById('f').contentWindow;
  const lab = win.document.querySelector('attention-lab');
  const root = lab.shadowRoot;
  const frames = (n) => new Promise((done) => { const tick = () => (n-- > 0 ? win.requestAnimationFrame(tick) : done()); tick(); });
  for (let pass = 0; pass < 40; pass++) {
    const skip = [...root.querySelectorAll('[data-testid=predict-skip], [data-testid$=-skip], [data-testid=guess-show]')]
      .find((b) => !b.hidden && !b.disabled && b.checkVisibility?.() !== false && !b.closest('[hidden]'));
    if (!skip) break;
    skip.click();
    await lab.updateComplete;
    await frames(2);
  }
  for (const d of root.querySelectorAll('details')) d.open = true;
  await frames(6);
  await lab.updateComplete;
  const until = async (what, ok) => { for (let n = 0; !ok(); n++) { if (n > 3000) throw new Error(`waited too long for ${what}`); await frames(1); } };
  // "Train it": one Step (the whole run is computed, then shown at step 1 or the first kept step)
  const train = root.querySelector('[data-section=train]');
  if (train) {
    train.querySelector('[data-testid=train-step-button]').click();
    await until('the first training step', () => train.querySelector('[data-testid=train-step]').textContent !== '0');
  }
  // "Check my code": a print of the right shape whose numbers are not the book's
  const check = root.querySelector('[data-section=check]');
  if (check) {
    const { words, dOut } = lab.state;
    check.querySelector('[data-testid=check-paste]').value = `tensor([${words.map((_, i) => `[${Array.from({ length: dOut }, (_, j) => ((i + j) / 10).toFixed(4)).join(', ')}]`).join(',\n        ')}])`;
    check.querySelector('[data-testid=check-run]').click();
    await lab.updateComplete;
  }
  // an export menu's link: its status (or, where the clipboard is refused, the text to copy and its label)
  const exportItem = root.querySelector('[data-section=batched] .export-menu [data-action=link]');
  if (exportItem) {
    exportItem.click();
    const status = exportItem.closest('.export').querySelector('[data-testid=export-status]');
    await until('the export status', () => status.textContent !== '');
  }
  const parts = [root.querySelector('.lab'), ...root.querySelectorAll('[data-section]')];
  const texts = [], clipped = [];
  const SKIP = 'pre, code, .math, .katex, style, script, [data-testid=engine-footer]';
  const SCROLLS = (el) => { for (let b = el; b && b !== root; b = b.parentElement) { const s = win.getComputedStyle(b); if (['auto', 'scroll'].includes(s.overflowX)) return true; } return false; };
  const name = (el) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}${el.dataset?.testid ? `[${el.dataset.testid}]` : ''}`;
  for (const part of parts.slice(1)) {
    part.scrollIntoView({ block: 'start' });
    await frames(6);
    for (const el of [part, ...part.querySelectorAll('*')]) {
      if (el.closest(SKIP) || el.closest('[hidden]')) continue;
      const section = part.dataset.section;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (el.getAttribute(a)) texts.push({ section, where: `${name(el)}@${a}`, text: el.getAttribute(a) });
      const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.data.trim()).map((n) => n.data).join(' ');
      if (!own) continue;
      texts.push({ section, where: name(el), text: own });
      const style = win.getComputedStyle(el);
      if (style.display.startsWith('inline') && style.display !== 'inline-block' || style.display === 'contents' || el.closest('svg')) continue;
      if (el.checkVisibility && !el.checkVisibility()) continue;
      if (el.closest('.vh')) continue;   // visually hidden, for screen readers: a 1 px box on purpose
      if (el.clientWidth > 1 && el.scrollWidth > el.clientWidth + 1 && !SCROLLS(el)) clipped.push(`${name(el)} hides ${el.scrollWidth - el.clientWidth} px of "${own.trim().slice(0, 40)}"`);
    }
    // the export menus, closed (hidden) until asked: their items and labels
    for (const menu of part.querySelectorAll('.export-menu')) {
      texts.push({ section: part.dataset.section, where: 'div.export-menu@aria-label', text: menu.getAttribute('aria-label') });
      for (const item of menu.querySelectorAll('[role=menuitem]')) texts.push({ section: part.dataset.section, where: `export-item[${item.dataset.action}]`, text: item.textContent });
    }
  }
  // the parts outside the sections: the head, the editor, the progress bar
  for (const el of root.querySelector('.lab').querySelectorAll('*')) {
    if (el.closest('[data-section]') || el.closest(SKIP)) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) texts.push({ where: `${name(el)}@${a}`, text: el.getAttribute(a) });
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.data.trim()).map((n) => n.data).join(' ');
    if (own) texts.push({ where: name(el), text: own });
  }
  const box = root.querySelector('.lab');
  return { texts, clipped, lang: box.getAttribute('lang'), dir: box.getAttribute('dir'), scrollWidth: win.document.scrollingElement.scrollWidth };
}

for (const engine of chosenEngines()) {
  describe(engine, () => {
    let driver, server;
    const check = engineChecks(engine, (started) => ({ driver, server } = started));

    const openFrame = async (src) => {
      await driver.viewport(1280, 900);
      await driver.open(`${server.iframeHostUrl}?src=${encodeURIComponent(src)}&width=390&height=844`);
      await driver.waitFor(() => {
        const doc = document.getElementById('f').contentDocument, lab = doc && doc.querySelector('attention-lab');
        return Boolean(lab && lab.shadowRoot && lab.shadowRoot.querySelector('[data-testid=engine-footer], [data-testid=lab-error]'));
      }, [], { what: 'the element in its 390 px frame', timeout: 120000 });
      await driver.evaluate(() => document.getElementById('f').contentDocument.querySelector('attention-lab').updateComplete.then(() => true));
    };

    for (const [lang, { words }] of Object.entries(LANGUAGES)) {
      check(`${lang}: no English word left in the text and labels, nothing clipped at 390 px`, async (t) => {
        const own = wordsOf(Object.values(catalogue(lang)).join(' '));
        const english = new Set([...wordsOf(ENGLISH_TEXT)].filter((w) => !own.has(w) && !ALLOWED.has(w)));
        await openFrame(`embed.html?lang=${encodeURIComponent(lang)}&words=${encodeURIComponent(words)}`);
        const seen = await driver.evaluate(readFrame);
        assert.equal(seen.lang, lang);
        assert.equal(seen.dir, 'ltr');
        const left = [];
        for (const { section, where, text } of seen.texts) {
          if (section && !TRANSLATED_SECTIONS.includes(section)) continue;
          // PyTorch's own error message (RuntimeError: …) stays as PyTorch writes it, to the end of the text
          const found = [...wordsOf(text.replace(/\b[A-Z]\w*Error: [\s\S]*$/, ' '))].filter((w) => english.has(w));
          if (found.length) left.push(`${where}: “${text.trim().slice(0, 100)}” (${found.slice(0, 4).join(', ')})`);
        }
        t.diagnostic(`${seen.texts.length} texts and labels read`);
        assert.ok(seen.texts.length > 200, `only ${seen.texts.length} texts read: the page did not render`);
        assert.deepEqual([...new Set(left)], [], `English left in ${lang}`);
        assert.deepEqual(seen.clipped, [], `clipped at 390 px in ${lang}`);
        assert.ok(seen.scrollWidth <= 390, `the page is ${seen.scrollWidth} px wide at 390`);
      });
    }

    for (const lang of Object.keys(LANGUAGES)) {
      check(`${lang}: a paste the engine cannot read is said in ${lang} (its sentence's key and parameters)`, async () => {
        await openFrame(`embed.html?lang=${encodeURIComponent(lang)}&section=check`);
        const said = await driver.evaluate(async (language) => {
          const win = document.getElementById('f').contentWindow, lab = win.document.querySelector('attention-lab');
          const root = lab.shadowRoot;
          root.querySelector('[data-testid=check-paste]').value = 'tensor([[0.1, abc]])';
          root.querySelector('[data-testid=check-run]').click();
          await lab.updateComplete;
          const words = (tag) => { const { t } = win.AttentionLab.translator(tag); return t('check.cannot', { reason: t('engine.pasteNotNumber', { text: 'abc' }) }); };
          return { shown: root.querySelector('[data-testid=check-result]').textContent.trim(), expected: words(language), english: words('en') };
        }, lang);
        assert.equal(said.shown, said.expected);
        assert.notEqual(said.shown, said.english);
      });
    }

    check('a bad lang is one sentence; registerTranslation refuses a bad tag with one and serves a good one', async () => {
      await openFrame('embed.html?lang=en_US!&section=batched');
      const error = await driver.evaluate(() => document.getElementById('f').contentDocument.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=lab-error]')?.textContent ?? null);
      assert.match(error ?? '', /^attention-lab: lang="en_US!" is not a language tag\. .*zh-CN/);
      const registered = await driver.evaluate(async () => {
        const win = document.getElementById('f').contentWindow;
        let refused = null;
        try { win.AttentionLab.registerTranslation('not a tag', {}); } catch (e) { refused = e.message; }
        const lab = win.document.querySelector('attention-lab');
        win.AttentionLab.registerTranslation('fr', { 'batched.title': 'Échelon 1 — attention simplifiée' });
        lab.setAttribute('lang', 'fr-CA');
        await new Promise((r) => setTimeout(r, 0));
        await lab.updateComplete;
        const h2 = lab.shadowRoot.querySelector('[data-section=batched] h2')?.textContent;
        const box = lab.shadowRoot.querySelector('.lab');
        return { refused, h2, lang: box.getAttribute('lang') };
      });
      assert.match(registered.refused, /registerTranslation: “not a tag” is not a language tag/);
      assert.equal(registered.h2, 'Échelon 1 — attention simplifiée');
      assert.equal(registered.lang, 'fr');
    });
  });
}
