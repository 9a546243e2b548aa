// Times the `train` op (issue 16's speed target: 1,000 Adam steps of SelfAttention_v2 on the book's
// inputs under 50 ms in the SIMD engine): evalRequest in both wasm engines under node and, when
// build/web and Debian's chromium are there, in Chromium. Prints one JSON line per figure; speed is
// never a test. Also the page's Play request ("Train it"), which records every step.
//   node scripts/bench_train.mjs [--no-browser]
//   node scripts/bench_train.mjs --ab before.js after.js [rounds]   two engine files (attention-lab-<kind>.js)
//     in one process, called alternately: per request, the median over rounds of after ÷ before (each
//     side the fastest of 5 calls), checking that both answer the same text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOADER = path.join(ROOT, 'build/web/engine/loader.js');
const STEPS = 1000, RUNS = 9;

// The same request as `attention-lab bench` (cli/bench.cpp, train_request): the book's six tokens,
// each asked for the first two numbers of the next token's embedding; weights recorded every 10 steps.
const book = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
              [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]];
export const trainRequest = (steps) => JSON.stringify({
  op: 'train', seed: 789, module: 'self_attention_v2', d_out: 2, x: book,
  target: book.map((_, t) => book[(t + 1) % 6].slice(0, 2)),
  optimizer: 'adam', lr: 0.01, steps, record_every: 10,
});

// The page's Play ("Train it", web/src/sections/train.js): the engine's train task (replay/train_task.h),
// 301 steps of CausalAttention on the four orders, the weights and the parameters recorded at every step,
// values only (prints: false), as the page asks (tests/fixtures/train_page_cases.json).
const pageCase = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/fixtures/train_page_cases.json'), 'utf8')).cases[0];
export const pageRequest = () => JSON.stringify({ ...pageCase.task, record_every: 1, prints: false });
// The page's Play at the editor's largest inputs: 16 tokens of 16 values (d_in 32 with the positions),
// recorded at the task's own stride (every 6th step at this size).
export const largestPageRequest = () => {
  const inputs = Array.from({ length: 16 }, (_, i) => Array.from({ length: 16 }, (_, j) => Number(Math.sin(i * 7 + j).toFixed(2))));
  return JSON.stringify({ op: 'train', task: 'previous_token', inputs, seed: 123, optimizer: 'adam', lr: 0.02,
    record_parameters: true, prints: false });
};
const BENCHES = [['train_adam_v2_book', trainRequest(STEPS), STEPS], ['train_page_play', pageRequest(), 301],
  ['train_page_play_16x16', largestPageRequest(), 301]];

// Median ms of `runs` calls after one warm-up; `now` is performance.now in the page or in node.
function timeEval(engine, request, runs, now) {
  const ms = [];
  for (let i = 0; i <= runs; i++) {
    const start = now();
    engine.evalRequest(request);  // throws the engine's sentence for a refused request
    const took = now() - start;
    if (i) ms.push(took);
  }
  ms.sort((a, b) => a - b);
  return ms[ms.length >> 1];
}

async function inNode() {
  const { load } = createRequire(import.meta.url)(LOADER);
  for (const kind of ['simd', 'scalar']) {
    const { engine } = await load({ kind });
    for (const [bench, request, steps] of BENCHES) {
      const ms = timeEval(engine, request, RUNS, () => performance.now());
      console.log(JSON.stringify({ bench, where: `node ${process.version}`, engine: kind, steps, ms: +ms.toFixed(2) }));
    }
  }
}

async function inChromium() {
  const { serveWeb, launchChromium } = await import('./bench_browser.mjs');
  const server = await serveWeb();
  const browser = await launchChromium();   // tests/browser/helpers.js's launch(): {context, close}
  try {
    const page = await browser.context.newPage();
    await page.goto(new URL('bench-train-404', server.url).href);  // a page of the server's origin, no CSP
    await page.addScriptTag({ url: new URL('engine/loader.js', server.url).href });
    const version = (await page.evaluate(() => navigator.userAgent)).match(/Chrome\/([\d.]+)/)?.[1] ?? 'unknown';
    for (const kind of ['simd', 'scalar']) {
      for (const [bench, request, steps] of BENCHES) {
        const ms = await page.evaluate(async ({ kind, request, runs, timeEvalText }) => {
          const { engine } = await window.AttentionLabEngine.load({ kind });
          const timeEval = new Function(`return (${timeEvalText})`)();
          return timeEval(engine, request, runs, () => performance.now());
        }, { kind, request, runs: RUNS, timeEvalText: timeEval.toString() });
        console.log(JSON.stringify({ bench, where: `Chromium ${version} (main thread)`, engine: kind, steps, ms: +ms.toFixed(2) }));
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

// One round: the fastest of 5 calls (the minimum resists the other sessions on a shared host).
function fastest(engine, request) {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    engine.evalRequest(request);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

async function compareFiles(before, after, rounds) {
  const req = createRequire(import.meta.url);
  const [a, b] = await Promise.all([before, after].map((file) => req(path.resolve(file))({})));
  const median = (v) => v.slice().sort((x, y) => x - y)[v.length >> 1];
  for (const [bench, request] of BENCHES) {
    if (a.evalRequest(request) !== b.evalRequest(request)) throw new Error(`${bench}: the two engines answer differently`);
    for (let i = 0; i < 2; i++) { fastest(a, request); fastest(b, request); }  // warm-up
    const ta = [], tb = [];
    for (let i = 0; i < rounds; i++) {  // alternate which goes first
      if (i % 2) { tb.push(fastest(b, request)); ta.push(fastest(a, request)); } else { ta.push(fastest(a, request)); tb.push(fastest(b, request)); }
    }
    console.log(JSON.stringify({ bench, where: `node ${process.version}`, rounds, beforeMs: +median(ta).toFixed(2), afterMs: +median(tb).toFixed(2),
      afterOverBefore: +median(tb.map((t, i) => t / ta[i])).toFixed(3), load: +os.loadavg()[0].toFixed(2) }));
  }
}

const ab = process.argv.indexOf('--ab');
if (ab > 0) {
  await compareFiles(process.argv[ab + 1], process.argv[ab + 2], Number(process.argv[ab + 3]) || 15);
  process.exit(0);
}
if (!fs.existsSync(LOADER)) {
  console.error('bench_train: build the engines first (./scripts/build web)');
  process.exit(1);
}
await inNode();
if (!process.argv.includes('--no-browser') && fs.existsSync('/usr/bin/chromium') && fs.existsSync(path.join(ROOT, 'build/web/index.html'))) {
  await inChromium();
}
