// Times the `train` op (issue 16's speed target: 1,000 Adam steps of SelfAttention_v2 on the book's
// inputs under 50 ms in the SIMD engine): evalRequest in both wasm engines under node and, when
// build/web and Debian's chromium are there, in Chromium. Prints one JSON line per figure; speed is
// never a test.   node scripts/bench_train.mjs [--no-browser]
import fs from 'node:fs';
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
    const ms = timeEval(engine, trainRequest(STEPS), RUNS, () => performance.now());
    console.log(JSON.stringify({ bench: 'train_adam_v2_book', where: `node ${process.version}`, engine: kind, steps: STEPS, ms: +ms.toFixed(2) }));
  }
}

async function inChromium() {
  const { serveWeb, launchChromium } = await import('./bench_browser.mjs');
  const server = await serveWeb();
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(new URL('bench-train-404', server.url).href);  // a page of the server's origin, no CSP
    await page.addScriptTag({ url: new URL('engine/loader.js', server.url).href });
    const version = browser.version();
    for (const kind of ['simd', 'scalar']) {
      const ms = await page.evaluate(async ({ kind, request, runs, timeEvalText }) => {
        const { engine } = await window.AttentionLabEngine.load({ kind });
        const timeEval = new Function(`return (${timeEvalText})`)();
        return timeEval(engine, request, runs, () => performance.now());
      }, { kind, request: trainRequest(STEPS), runs: RUNS, timeEvalText: timeEval.toString() });
      console.log(JSON.stringify({ bench: 'train_adam_v2_book', where: `Chromium ${version} (main thread)`, engine: kind, steps: STEPS, ms: +ms.toFixed(2) }));
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

if (!fs.existsSync(LOADER)) {
  console.error('bench_train: build the engines first (./scripts/build web)');
  process.exit(1);
}
await inNode();
if (!process.argv.includes('--no-browser') && fs.existsSync('/usr/bin/chromium') && fs.existsSync(path.join(ROOT, 'build/web/index.html'))) {
  await inChromium();
}
