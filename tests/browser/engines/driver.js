// One interface over three browser drivers (playwright-core, puppeteer-core, selenium-webdriver), so
// the cross-engine suite is written once. An engine supplies a handful of primitives; everything that
// finds an element (inside any shadow root, by data-testid) runs in the page and is shared here.
'use strict';
const fs = require('node:fs');
const { collectCells } = require('../helpers');

// In the page: the first element with this data-testid, looking through every shadow root.
const BY_TEST_ID = `(testId) => {
  const find = (root) => {
    const hit = root.querySelector('[data-testid="' + testId + '"]');
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) {
      const inner = el.shadowRoot && find(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  const el = find(document);
  if (!el) throw new Error('no element has data-testid="' + testId + '"');
  return el;
}`;

// In the page: every element that matches a CSS selector, in the document and in every shadow root
// (a selector does not cross a shadow boundary, so each part is matched inside one root).
const ALL_BY_SELECTOR = `(selector) => {
  const out = [];
  const walk = (root) => {
    out.push(...root.querySelectorAll(selector));
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
}`;
const BY_SELECTOR = `(selector) => {
  const el = (${ALL_BY_SELECTOR})(selector)[0];
  if (!el) throw new Error('no element matches ' + selector);
  return el;
}`;

// Subclasses implement:
//   goto(url), run(expression) -> its JSON value (a promise is awaited), pressKey(key) on the focused
//   element ('Home', 'End', 'ArrowLeft', 'ArrowRight', 'Enter', 'Tab'), clickAt(x, y) and moveTo(x, y)
//   in viewport pixels, resize(width, height) of the viewport (as near as the engine can),
//   screenshotPng() -> Buffer, heardProblems() -> what the browser's console said, quit().
// recordsInPage: true when the engine cannot listen to the console and reads the recorder's buffer.
class Driver {
  constructor(name, version) {
    this.name = name;
    this.version = version;
    this.recordsInPage = false;
    this.earlierProblems = [];   // the recorder's buffer of pages already left
    this.opened = false;         // before the first open() the browser shows its blank page, no recorder
  }

  async open(url) {
    // the math fonts the page asked for come in first: leaving mid-download is reported as an error
    // (Firefox: "downloadable font: download failed"), the page's fault or not
    if (this.opened) await this.evaluate(() => document.fonts.ready.then(() => true)).catch(() => {});
    // (each tagged with the page it came from: a problem after a check's end is read with the next check's)
    if (this.recordsInPage) this.earlierProblems.push(...(await this.recordedProblems()).map((p) => `${p} (on ${this.url})`));
    this.url = null;   // until it has loaded
    await this.goto(url);
    this.opened = true;
    this.url = url;
  }

  // fn runs in the page with args (JSON values); its result, awaited, comes back as JSON.
  evaluate(fn, ...args) {
    return this.run(`(${fn})(...${JSON.stringify(args)})`);
  }

  // Resolves with fn(...args)'s first truthy value, polled in the page on every frame.
  async waitFor(fn, args = [], { timeout = 60000, what = String(fn) } = {}) {
    const poll = `new Promise((resolve) => {
      const fn = ${fn}, args = ${JSON.stringify(args)}, end = performance.now() + ${timeout};
      const tick = () => {
        let value, error;
        try { value = fn(...args); } catch (e) { error = String(e); }
        if (value) resolve({ value });
        else if (performance.now() > end) resolve({ timedOut: true, value, error });
        else setTimeout(tick, 16);
      };
      tick();
    })`;
    const result = await this.run(poll);
    if (result.timedOut) {
      throw new Error(`${this.name}: waited ${timeout} ms for ${what}; last result ${JSON.stringify(result.value)}${result.error ? `, error ${result.error}` : ''}`);
    }
    return result.value;
  }

  // The page is ready when every <attention-lab> shows its engine footer (or its error) and has
  // finished its latest update.
  async waitForLab() {
    try {
      await this.waitFor(() => {
        const labs = [...document.querySelectorAll('attention-lab')];
        return labs.length > 0 && labs.every((lab) => lab.shadowRoot && lab.shadowRoot.querySelector('[data-testid=engine-footer], [data-testid=lab-error]'));
      }, [], { what: 'every <attention-lab> to show its engine footer' });
    } catch (e) {
      // why it never came (a script that did not load, an exception) is usually among the problems
      throw new Error(`${e.message}; problems so far: ${JSON.stringify(await this.problems())}`);
    }
    const shownError = await this.evaluate(() => [...document.querySelectorAll('attention-lab')]
      .map((lab) => lab.shadowRoot.querySelector('[data-testid=lab-error]')).filter(Boolean).map((el) => el.textContent).join(' | '));
    if (shownError) throw new Error(`${this.name}: the page shows an error instead of its results: "${shownError}"; problems so far: ${JSON.stringify(await this.problems())}`);
    await this.settle();
  }

  // Opens the first element's input editor and waits for its body (built when first opened: editor.js).
  async openEditor() {
    await this.evaluate(() => { document.querySelector('attention-lab').shadowRoot.querySelector('details.editor').open = true; return true; });
    await this.waitFor(() => Boolean(document.querySelector('attention-lab').shadowRoot.querySelector('details.editor .editor-grid')), [], { what: 'the editor\'s body' });
  }

  settle() {
    return this.evaluate(() => Promise.all([...document.querySelectorAll('attention-lab')].map((lab) => lab.updateComplete)).then(() => true));
  }

  text(testId) {
    return this.evaluate(`(testId) => (${BY_TEST_ID})(testId).textContent`, testId);
  }

  // Waits until the element's text is want (an update may land a frame or a task later).
  async waitForText(testId, want, { timeout = 30000 } = {}) {
    try {
      await this.waitFor(`(testId, want) => (${BY_TEST_ID})(testId).textContent === want`, [testId, want], { timeout, what: `${testId} to read "${want}"` });
    } catch (e) {
      const shown = await this.text(testId).catch((err) => `(unreadable: ${err.message})`);
      throw new Error(`${this.name}: ${testId} reads "${shown}", not "${want}", after ${timeout} ms`);
    }
  }

  // The shown text of every [data-cell] output, by cell id (as helpers.shownCells).
  async cells() {
    await this.settle();
    return this.evaluate(collectCells);
  }

  // The middle of the first element that selector matches, in viewport pixels, scrolled into view first.
  // hit: whether the element's middle is the element itself (or inside it) for a hit test through the
  // shadow roots on the way, i.e. whether a click there would land on it.
  centerOf(selector) {
    return this.evaluate(`(selector) => {
      const el = (${BY_SELECTOR})(selector);
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2);
      let at = document.elementFromPoint(x, y);
      while (at && at.shadowRoot && at.shadowRoot.elementFromPoint(x, y) && at.shadowRoot.elementFromPoint(x, y) !== at) at = at.shadowRoot.elementFromPoint(x, y);
      return { x, y, hit: !!at && (at === el || el.contains(at)) };
    }`, selector);
  }

  // A real pointer click on the middle of the element, scrolled into view first. Measured until two
  // measurements a couple of frames apart agree and the middle hits the element: sections laid out on
  // the way in (content-visibility), drawings drawn when seen and late fonts can move it after a measurement.
  click(testId) { return this.clickOn(`[data-testid="${testId}"]`); }
  async clickOn(selector) {
    for (let attempt = 1; ; attempt++) {
      let last = await this.centerOf(selector);
      for (let tries = 0; tries < 20; tries++) {
        await this.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
        const now = await this.centerOf(selector);
        const still = now.x === last.x && now.y === last.y;
        last = now;
        if (still && now.hit) break;
      }
      // the element notes the click it gets: on a loaded machine the page can still move between the
      // last measurement and the driver's click, which then lands beside it and is tried again
      await this.evaluate(`(selector) => { const el = (${BY_SELECTOR})(selector); el.__clicked = false;
        el.addEventListener('click', () => { el.__clicked = true; }, { once: true, capture: true }); return true; }`, selector);
      await this.clickAt(last.x, last.y);
      const landed = await this.evaluate(`(selector) => (${BY_SELECTOR})(selector).__clicked`, selector);
      if (landed) return;
      if (attempt === 3) throw new Error(`${this.name}: three clicks at the middle of ${selector} landed beside it (last at ${last.x}, ${last.y})`);
    }
  }

  // The pointer moved onto the middle of the first element that selector matches.
  async hover(selector) {
    const { x, y } = await this.centerOf(selector);
    await this.moveTo(x, y);
  }

  // Focuses the element, then presses key on the keyboard.
  async press(testId, key) {
    await this.focus(`[data-testid="${testId}"]`);
    await this.pressKey(key);
  }

  focus(selector) {
    return this.evaluate(`(selector) => { (${BY_SELECTOR})(selector).focus(); return true; }`, selector);
  }

  // The element that has keyboard focus, looking into shadow roots: its data-testid and its text.
  focused() {
    return this.evaluate(() => {
      let el = document.activeElement;
      while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
      return el ? { testid: el.getAttribute('data-testid'), text: el.textContent, tag: el.tagName.toLowerCase() } : null;
    });
  }

  // For every element selector matches: its text and the named attributes (null when absent).
  read(selector, attributes = []) {
    return this.evaluate(`(selector, attributes) => (${ALL_BY_SELECTOR})(selector).map((el) => {
      const out = { text: el.textContent };
      for (const a of attributes) out[a] = el.getAttribute(a);
      return out;
    })`, selector, attributes);
  }

  async attribute(testId, name) {
    const [el] = await this.read(`[data-testid="${testId}"]`, [name]);
    if (!el) throw new Error(`${this.name}: no element has data-testid="${testId}"`);
    return el[name];
  }

  // Resizes the viewport and waits two frames (ResizeObservers lay the views out); returns the
  // viewport's width and height as the page sees them, which an engine may not make exact.
  async viewport(width, height) {
    await this.resize(width, height);
    return this.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done({ width: innerWidth, height: innerHeight })))));
  }

  // Sets an input's value and fires input, as a learner's edit does.
  setValue(testId, value) {
    return this.evaluate(`(testId, value) => {
      const el = (${BY_TEST_ID})(testId);
      el.value = value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      return el.value;
    }`, testId, String(value));
  }

  async screenshot(file) {
    fs.writeFileSync(file, await this.screenshotPng());
  }

  async recordedProblems() {
    if (!this.opened) return [];
    return this.evaluate(() => (window.__attnLabProblems
      ? [...window.__attnLabProblems]
      : ['the problem recorder did not run in this page: open pages from the suite\'s server (engines/server.js)']));
  }

  // Every console error, page error and CSP violation since the engine started.
  async problems() {
    if (!this.recordsInPage) return this.heardProblems();
    return [...this.earlierProblems, ...await this.recordedProblems()];
  }

  close() { return this.quit(); }
}

// The primitives over a playwright-core or puppeteer-core page: the two share these calls. heard is
// the array the page's console and pageerror listeners fill.
class PageDriver extends Driver {
  constructor(name, version, browser, page, heard) {
    super(name, version);
    Object.assign(this, { browser, page, heard });
  }
  goto(url) { return this.page.goto(url); }
  run(expression) { return this.page.evaluate(expression); }
  pressKey(key) { return this.page.keyboard.press(key); }
  clickAt(x, y) { return this.page.mouse.click(x, y); }
  moveTo(x, y) { return this.page.mouse.move(x, y); }
  // playwright's page has setViewportSize, puppeteer's setViewport
  resize(width, height) { return this.page.setViewportSize ? this.page.setViewportSize({ width, height }) : this.page.setViewport({ width, height }); }
  screenshotPng() { return this.page.screenshot(); }
  heardProblems() { return [...this.heard]; }
  quit() { return this.browser.close(); }
}

module.exports = { Driver, PageDriver };
