// An alternated A/B of the temperature slider for two builds of web/ (before and after a change), on one
// machine in one run: A, B, B, A, ... one tab at a time, each measured as ./scripts/bench measures the
// slider (measureSliderAt of bench_browser.mjs: 200 steps, one a frame, handler + style + layout).
// Prints each round's p50 / p95 and their medians.
//   node scripts/ab_slider.mjs <build A> [<build B> = build/web] [--phone] [--rounds N]
import path from 'node:path';
import os from 'node:os';
import { measureSliderAt, median, serveWeb, launchChromium, LAPTOP, PHONE } from './bench_browser.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at < 0 ? 4 : Number(args[at + 1]);
const [rootA, rootB = 'build/web'] = args.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1));
if (!rootA || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node scripts/ab_slider.mjs <build A> [<build B> = build/web] [--phone] [--rounds N (default 4)]');
  process.exit(2);
}
const place = args.includes('--phone') ? PHONE : LAPTOP;
const urls = { A: (await serveWeb(path.resolve(rootA))).url, B: (await serveWeb(path.resolve(rootB))).url };
const browser = await launchChromium();
const runs = { A: [], B: [] };
try {
  for (let i = 0; i < rounds; i++) {
    for (const name of i % 2 ? ['B', 'A'] : ['A', 'B']) runs[name].push(await measureSliderAt(browser.context, urls[name], place));
  }
} finally {
  await browser.close();
}
console.log(`slider at ${place.name}, ${rounds} rounds alternated; ${os.cpus()[0].model}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const f = (x) => x.toFixed(1);
for (const name of ['A', 'B']) {
  const r = runs[name];
  console.log(`${name} (${name === 'A' ? rootA : rootB}): p50 / p95 ${r.map((x) => `${f(x.p50)} / ${f(x.p95)}`).join(', ')}; medians ${f(median(r.map((x) => x.p50)))} / ${f(median(r.map((x) => x.p95)))} ms`);
}
process.exit(0);
