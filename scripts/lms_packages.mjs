// ./scripts/build dist's LMS packages: node scripts/lms_packages.mjs DIR OUT writes
// OUT/attention-lab-<version>-scorm12.zip and -scorm2004.zip, the whole chapter (section "all") with a
// mastery score of 80 %, from the static folder DIR (dist/web), through web/lms-package.js, the code
// author.html's "Download for LMS" runs in the browser.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lms = createRequire(import.meta.url)(path.join(root, 'web/lms-package.js'));
const [dir, out] = process.argv.slice(2);
if (!dir || !out) { console.error('usage: node scripts/lms_packages.mjs DIR OUT'); process.exit(2); }
const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const files = JSON.parse(fs.readFileSync(path.join(dir, 'lms-files.json'), 'utf8'));
for (const kind of Object.keys(lms.KINDS)) {
  const entries = await lms.packageEntries({
    kind, identifier: `attention-lab-${version}-all`, title: `attention-lab ${version}: self-attention, chapter 3`,
    attributes: [['section', 'all']], masteryScore: 0.8, files,
    read: async (f) => new Uint8Array(fs.readFileSync(path.join(dir, f))),
  });
  const bytes = await lms.zip(entries, { deflateRaw: async (b) => new Uint8Array(zlib.deflateRawSync(b, { level: 9 })) });
  const file = path.join(out, `attention-lab-${version}-${kind}.zip`);
  fs.writeFileSync(file, bytes);
  console.log(`${path.relative(root, file)} (${(bytes.length / 1024).toFixed(0)} KiB)`);
}
