// WebKit, Safari's engine: WebKitGTK's MiniBrowser driven by WebKitWebDriver (Debian's
// webkit2gtk-driver) through selenium-webdriver. ./scripts/test starts Xvfb and the driver and names
// it in ATTN_WEBKIT_DRIVER. The driver has no BiDi, so the page's problems come from the recorder
// that the suite's server puts in every page (server.js, page/recorder.js).
'use strict';
const { execFileSync } = require('node:child_process');
const { Builder, Key, Origin } = require('selenium-webdriver');
const { Driver } = require('./driver');

const KEYS = { Home: Key.HOME, End: Key.END, ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, Enter: Key.ENTER, Tab: Key.TAB, ArrowDown: Key.ARROW_DOWN, ArrowUp: Key.ARROW_UP, Escape: Key.ESCAPE };

// MiniBrowser ships inside libwebkit2gtk-4.1-0, off PATH; dpkg knows where.
function miniBrowserPath() {
  let files;
  try {
    files = execFileSync('dpkg', ['-L', 'libwebkit2gtk-4.1-0']).toString().split('\n');
  } catch {
    throw new Error('libwebkit2gtk-4.1-0 is not installed: apt-get install webkit2gtk-driver libwebkit2gtk-4.1-0 (./scripts/test does).');
  }
  const binary = files.find((f) => f.endsWith('/MiniBrowser'));
  if (!binary) throw new Error('libwebkit2gtk-4.1-0 has no MiniBrowser (dpkg -L libwebkit2gtk-4.1-0): the WebKit run needs it.');
  return binary;
}

class WebKitDriver extends Driver {
  constructor(driver, version) {
    super('webkit', version);
    this.driver = driver;
    this.recordsInPage = true;
  }
  goto(url) { return this.driver.get(url); }
  async run(expression) {
    const result = await this.driver.executeAsyncScript(`const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => ${expression})
        .then((value) => done({ value: value === undefined ? null : value }), (e) => done({ error: e && e.message ? e.name + ': ' + e.message : String(e) }));`);
    if (result.error) throw new Error(`webkit: the page threw ${result.error}`);
    return result.value;
  }
  pressKey(key) {
    if (!KEYS[key]) throw new Error(`webkit: no key named ${key}; add it to KEYS in engines/webkit.js`);
    return this.driver.actions().sendKeys(KEYS[key]).perform();
  }
  clickAt(x, y) { return this.driver.actions().move({ x, y, origin: Origin.VIEWPORT }).click().perform(); }
  moveTo(x, y) { return this.driver.actions().move({ x, y, origin: Origin.VIEWPORT }).perform(); }
  // WebDriver sizes the window, not the viewport: add what the window's frame takes.
  async resize(width, height) {
    const frame = await this.run('({ w: outerWidth - innerWidth, h: outerHeight - innerHeight })');
    await this.driver.manage().window().setRect({ width: width + frame.w, height: height + frame.h });
  }
  async screenshotPng() { return Buffer.from(await this.driver.takeScreenshot(), 'base64'); }
  heardProblems() { return []; }
  quit() { return this.driver.quit(); }
}

async function launch() {
  const server = process.env.ATTN_WEBKIT_DRIVER;
  if (!server) {
    throw new Error(`WebKitWebDriver is not running${process.env.ATTN_WEBKIT_DRIVER_ERROR ? ` (${process.env.ATTN_WEBKIT_DRIVER_ERROR})` : ''}: `
      + './scripts/test starts it under Xvfb and sets ATTN_WEBKIT_DRIVER; run the browser tests alone with ./scripts/test browser.');
  }
  const binary = miniBrowserPath();
  const driver = await new Builder().usingServer(server).withCapabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary, args: ['--automation'] },
  }).build();
  try {
    await driver.manage().setTimeouts({ script: 120000, pageLoad: 120000 });
    await driver.manage().window().setRect({ width: 1280, height: 900 });
    const caps = await driver.getCapabilities();
    return new WebKitDriver(driver, `WebKitGTK ${caps.get('browserVersion')} (MiniBrowser)`);
  } catch (e) {
    await driver.quit();
    throw e;
  }
}

module.exports = { launch };
