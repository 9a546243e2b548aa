// The cross-engine harness of engines.test.js and batched-engines.test.js: which engines run
// (ATTN_ENGINES=firefox,webkit,...), and per engine its driver and the suite's server, a
// "<engine> starts" test that fails loudly when the browser cannot start, and check(): a test that is
// skipped when the engine did not start and fails on any problem the page reported while it ran.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { startSuiteServer } = require('./server');

const ENGINES = {
  chromium: () => require('./chromium'),
  firefox: () => require('./firefox'),
  webkit: () => require('./webkit'),
};

// The engines named by ATTN_ENGINES, else the file's own default (all three unless it says fewer).
function chosenEngines(fallback = Object.keys(ENGINES)) {
  const chosen = process.env.ATTN_ENGINES ? process.env.ATTN_ENGINES.split(',').map((s) => s.trim()) : fallback;
  for (const name of chosen) {
    if (!ENGINES[name]) throw new Error(`ATTN_ENGINES names "${name}": use some of ${Object.keys(ENGINES).join(', ')}.`);
  }
  return chosen;
}

// Called inside describe(name): starts the engine and the server before the first test and hands
// them to started({driver, server}); returns check(title, fn). check.problemsSince() lists the problems
// reported since the running check began, and check.acceptProblems() marks them expected.
function engineChecks(name, started) {
  let driver = null, startError = null, seen = 0;
  let server = null;
  before(async () => {
    try {
      driver = await ENGINES[name]().launch();
    } catch (e) {
      startError = e;
    }
    server = await startSuiteServer({ recorder: driver ? driver.recordsInPage : false });
    started({ driver, server });
  });
  after(async () => {
    if (driver) await driver.close();
    if (server) await server.close();
  });
  // Each check is skipped when the browser did not start; this test then fails and says why.
  test(`${name} starts`, (t) => {
    if (startError) throw new Error(`${name} did not start, so its checks are skipped: ${startError.message}`);
    t.diagnostic(driver.version);
  });
  const check = (title, fn) => test(`${name}: ${title}`, async (t) => {
    if (!driver) { t.skip(`${name} did not start (see "${name} starts")`); return; }
    seen = (await driver.problems()).length;
    await fn(t);
    assert.deepEqual((await driver.problems()).slice(seen), [], `${name} reported problems`);
  });
  check.problemsSince = async () => (await driver.problems()).slice(seen);
  check.acceptProblems = async () => { seen = (await driver.problems()).length; };
  return check;
}

module.exports = { chosenEngines, engineChecks };
