// bench.html works (not how fast: speed lives in ./scripts/bench): with ?quick=1 every engine × benchmark
// gives a positive finite time, every engine's sgemm and MHA agree with each other and with float64,
// and a bad URL parameter stops the page with a sentence saying what to change.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const { launch, startServer, newPage } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

async function openBench(query) {
  const { page, problems } = await newPage(browser.context);
  await page.goto(`${server.url}bench.html${query}`);
  await page.waitForFunction(() => window.benchDone === true, null, { timeout: 120000 });
  const state = await page.evaluate(() => ({ results: window.benchResults, checks: window.benchChecks, error: window.benchError || null }));
  return { page, problems, ...state };
}

test('quick run: every engine × benchmark has a time, and the engines compute the same numbers', async () => {
  const { page, problems, results, checks, error } = await openBench('?quick=1');
  assert.equal(error, null);
  for (const engine of ['simd', 'scalar', 'tfjs-wasm']) {
    for (const [bench, key, size] of [['sgemm', 'n', 64], ['mha_gpt2_small', 'T', 64]]) {
      const row = results.find((r) => r.engine === engine && r.bench === bench);
      assert.ok(row, `no ${bench} result for ${engine}`);
      assert.equal(row[key], size);
      assert.ok(Number.isFinite(row.ms) && row.ms > 0, `${engine} ${bench}: ms = ${row.ms}`);
      assert.ok(Number.isFinite(row.gflops) && row.gflops > 0, `${engine} ${bench}: gflops = ${row.gflops}`);
    }
  }
  assert.equal(results.length, 6);

  // every engine against float64, and the engines against each other on the same operands
  const names = checks.map((c) => c.check);
  for (const expected of [/sgemm n=67, simd vs float64/, /sgemm n=67, scalar vs float64/, /sgemm n=67, tfjs-wasm vs float64/,
    /sgemm n=67, simd vs scalar/, /sgemm n=67, simd vs TF\.js/, /MHA .* simd vs scalar/, /TF\.js op graph vs float64/]) {
    assert.ok(names.some((n) => expected.test(n)), `missing check ${expected}: have ${names.join('; ')}`);
  }
  for (const c of checks) assert.ok(c.ok && c.error <= c.tolerance, `${c.check}: ${c.error} > ${c.tolerance}`);

  // the tables show what window.benchResults holds, one row each
  assert.equal(await page.locator('#results tbody tr').count(), results.length);
  assert.equal(await page.locator('#checks tbody tr').count(), checks.length);
  assert.match(await page.locator('#checks tbody').textContent(), /pass/);
  assert.doesNotMatch(await page.locator('#checks tbody').textContent(), /FAIL/);
  assert.match(await page.getByRole('status').textContent(), /Done: 6 timings/);
  assert.deepEqual(problems, []);
});

test('bad URL parameters stop the page with a sentence', async () => {
  for (const [query, message] of [
    ['?quick=2', /quick must be 0 or 1; got "2"/],
    ['?quick=1&n=0', /n must be a comma-separated list of whole numbers from 1 to 2048/],
    ['?T=12x', /T must be a comma-separated list of whole numbers from 1 to 1024/],
    ['?engines=simd,webgpu', /engines must be a comma-separated list of simd, scalar, tfjs-wasm/],
    ['?runs=2,3', /runs takes one number/],
    ['?size=64', /unknown parameter "size"/],
  ]) {
    const { page, problems, results, error } = await openBench(query);
    assert.match(error, message, query);
    assert.match(await page.getByRole('alert').textContent(), message, query);
    assert.deepEqual(results, [], query);
    assert.deepEqual(problems, [], query);
    await page.close();
  }
});

test('one engine with explicit sizes runs just that', async () => {
  const { results, checks, error } = await openBench('?engines=tfjs-wasm&n=32,48&T=8&runs=2');
  assert.equal(error, null);
  assert.deepEqual(results.map((r) => [r.bench, r.n ?? r.T, r.runs]), [['sgemm', 32, 2], ['sgemm', 48, 2], ['mha_gpt2_small', 8, 2]]);
  assert.ok(checks.length >= 2 && checks.every((c) => c.ok));
});
