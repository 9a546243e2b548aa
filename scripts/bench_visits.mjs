// First visits against repeat visits of index.html (issue 47), at both places, in one run:
// count pairs (default 7) of a first visit (a fresh browser profile that has loaded the page from another
// site, empty caches for this one, renderer warmed by a same-origin 404) and its repeat (a second load in
// that profile), alternated; medians and their ratio (bench_browser.mjs's measureVisits).
//   node scripts/bench_visits.mjs [<build> = build/web] [--count N]
import path from 'node:path';
import os from 'node:os';
import { measureVisits, serveWeb, LAPTOP, PHONE } from './bench_browser.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--count');
const count = at < 0 ? 7 : Number(args[at + 1]);
const root = args.find((a, i) => !a.startsWith('--') && !(at >= 0 && i === at + 1)) || 'build/web';
const server = await serveWeb(path.resolve(root));
const loadBefore = os.loadavg()[0];
const rows = [];
try {
  for (const place of [LAPTOP, PHONE]) rows.push(await measureVisits(server.url, place, count));
} finally {
  await server.close();
}
console.log(`${os.cpus()[0].model}, ${os.cpus().length} cores, load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0].toFixed(2)} after`);
console.log('| place | first visit (median) | repeat visit (median) | first / repeat | first visits | repeat visits | the browser\'s own first load (median) |\n| --- | ---: | ---: | ---: | --- | --- | ---: |');
for (const r of rows) {
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
  console.log(`| ${r.place} | ${r.firstMedian.toFixed(0)} ms | ${r.repeatMedian.toFixed(0)} ms | ${r.ratio.toFixed(2)} | ${list(r.first)} | ${list(r.repeat)} | ${r.browserStartMedian.toFixed(0)} ms |`);
}
process.exit(0);
