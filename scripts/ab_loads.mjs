// An alternated A/B of index.html's load for two builds of web/ (before and after a change), on one
// machine in one run: A, B, B, A, ... one load at a time, each in a fresh tab (measureLoads of
// bench_browser.mjs). Prints the medians: first number, main-thread time by kind (CDP
// Performance.getMetrics, the figure neighbours disturb least), longest task, tasks over 50 ms, from
// navigation until every section shows its numbers and 300 ms after (--after MS: that long after, for
// the work a load leaves for later). --first: each load a first visit (a fresh browser profile that has
// loaded the page from another site, as bench_visits.mjs makes one), where the others share one profile's caches. --network: over an emulated
// 4G link (bench_browser.mjs's NETWORK_4G), where downloads cost what they do off localhost.
//   node scripts/ab_loads.mjs <build A> [<build B> = build/web] [--laptop] [--first] [--network] [--loads N] [--after MS]
import path from 'node:path';
import os from 'node:os';
import { measureLoads, median, serveWeb, launchChromium, launchWarmedChromium, LAPTOP, PHONE, NETWORK_4G } from './bench_browser.mjs';

const args = process.argv.slice(2);
const laptop = args.includes('--laptop'), firstVisits = args.includes('--first'), network = args.includes('--network');
const at = args.indexOf('--loads');
const loads = at < 0 ? 6 : Number(args[at + 1]);
const afterAt = args.indexOf('--after');
const afterMs = afterAt < 0 ? 300 : Number(args[afterAt + 1]);
const [rootA, rootB = 'build/web'] = args.filter((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1) && !(afterAt >= 0 && i === afterAt + 1));
if (!rootA || !Number.isInteger(loads) || loads < 1 || !(afterMs >= 0)) {
  console.error('usage: node scripts/ab_loads.mjs <build A> [<build B> = build/web] [--laptop] [--first] [--network] [--loads N (default 6)] [--after MS (default 300)]');
  process.exit(2);
}
const urls = { A: (await serveWeb(path.resolve(rootA))).url, B: (await serveWeb(path.resolve(rootB))).url };
const place = { ...(laptop ? LAPTOP : PHONE), ...(network ? { network: NETWORK_4G } : {}) };
let browser = firstVisits ? null : await launchChromium();
const runs = { A: [], B: [] };
try {
  for (let i = 0; i < loads; i++) {
    for (const name of i % 2 ? ['B', 'A'] : ['A', 'B']) {
      if (firstVisits) ({ browser } = await launchWarmedChromium(urls[name], place));
      try {
        const m = await measureLoads(browser.context, urls[name], place, 1, afterMs);
        runs[name].push({ first: m.firstNumberMedian, ...m.mainThread, longest: m.longestTask, over50: m.longTasks.length });
      } finally {
        if (firstVisits) await browser.close();
      }
    }
  }
} finally {
  if (!firstVisits) await browser.close();
}
console.log(`${place.name}${network ? ' over 4G (emulated)' : ''}, ${loads} ${firstVisits ? 'first visits' : 'loads'} each, alternated, until ${afterMs} ms after updateComplete; ${os.cpus()[0].model}, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| median | A | B | B / A |\n| --- | ---: | ---: | ---: |');
for (const [key, label] of [['first', 'first number (ms)'], ['taskMs', 'main-thread time (ms)'], ['styleMs', 'style (ms)'], ['layoutMs', 'layout (ms)'],
  ['layouts', 'layouts'], ['longest', 'longest task (ms)'], ['over50', 'tasks over 50 ms']]) {
  const a = median(runs.A.map((r) => r[key])), b = median(runs.B.map((r) => r[key]));
  console.log(`| ${label} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${a ? (b / a).toFixed(2) : '—'} |`);
}
// the bench's long-task row is the longest task of any load: how often a load has one, and the worst
const withLong = (name) => runs[name].filter((r) => r.over50 > 0).length;
const worst = (name) => Math.max(0, ...runs[name].map((r) => r.longest));
console.log(`| loads with a task over 50 ms (of ${loads}) | ${withLong('A')} | ${withLong('B')} | |`);
console.log(`| longest task of any load (ms) | ${worst('A').toFixed(0)} | ${worst('B').toFixed(0)} | |`);
process.exit(0);
