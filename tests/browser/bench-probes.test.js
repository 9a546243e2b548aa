// ./scripts/bench measures the page with probes of its own (scripts/bench_browser.mjs), which no other
// test runs: this one runs them, briefly, against this build, so that a change to the page they use
// (the editor's fields, the first number's text) is caught here and not at the next bench. No timing is
// checked (tests never time: the bench does).
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { ROOT, launch, startServer, newPage, waitForLab } = require('./helpers');

let browser, server, bench;
before(async () => {
  browser = await launch(); server = await startServer();
  bench = await import(path.join(ROOT, 'scripts/bench_browser.mjs'));
});
after(async () => { await browser.close(); await server.close(); });

test('the bench\'s load probe finds the first number, and its edit probe edits in both scenes', async () => {
  const load = await bench.measureLoads(browser.context, server.url, bench.LAPTOP, 1);
  assert.ok(load.firstNumbers[0] > 0, `the first number was seen: ${JSON.stringify(load)}`);
  const { page, problems } = await newPage(browser.context);
  await page.goto(server.url);
  await waitForLab(page);
  for (const [scene, scrollTo] of Object.entries(bench.EDIT_SCENES)) {
    const edits = await bench.measureEdits(page, scrollTo, 6);
    assert.equal(edits.edits, 3, `${scene}: ${JSON.stringify(edits)}`);
    assert.ok(edits.p95 > 0 && edits.workP95 > 0, `${scene}: ${JSON.stringify(edits)}`);
  }
  assert.deepEqual(problems, []);
});
