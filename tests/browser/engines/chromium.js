// Chromium (Debian's /usr/bin/chromium) through playwright-core: the same launch and problem
// listeners as the Chromium-only tests (helpers.js).
'use strict';
const { execFileSync } = require('node:child_process');
const { launch: launchChromium, newPage } = require('../helpers');
const { PageDriver } = require('./driver');

async function launch() {
  // the wrapper script /usr/bin/chromium chatters on stderr; the version is on stdout
  const version = execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  const browser = await launchChromium();
  try {
    const { page, problems } = await newPage(browser.context);
    return new PageDriver('chromium', version, browser, page, problems);
  } catch (e) {
    await browser.close();
    throw e;
  }
}

module.exports = { launch };
