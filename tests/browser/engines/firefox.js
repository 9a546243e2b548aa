// Firefox ESR (Debian's /usr/bin/firefox-esr) through puppeteer-core over WebDriver BiDi. Debian 12
// has no geckodriver; puppeteer starts the browser itself and never downloads one.
'use strict';
const { execFileSync } = require('node:child_process');
const puppeteer = require('puppeteer-core');
const { PageDriver } = require('./driver');

const FIREFOX = '/usr/bin/firefox-esr';

async function launch() {
  const version = execFileSync(FIREFOX, ['--version']).toString().trim();
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: FIREFOX, headless: true,
    defaultViewport: { width: 1280, height: 900 },
  });
  try {
    const page = await browser.newPage();
    const heard = [];
    page.on('console', (m) => { if (m.type() === 'error') heard.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => heard.push(`pageerror: ${e.message || e}`));
    // a CSP violation is an event, not a console message: say it on the console as helpers.js does
    await page.evaluateOnNewDocument(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
      });
    });
    return new PageDriver('firefox', version, browser, page, heard);
  } catch (e) {
    await browser.close();
    throw e;
  }
}

module.exports = { launch };
