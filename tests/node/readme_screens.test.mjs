// README shows what the page looks like (issue 12, "Done when"): its images are committed screenshots
// from docs/screens/, and every view scripts/screens.mjs shoots is there at desktop and phone width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCREENS = path.join(ROOT, 'docs/screens');

test('README shows the page: each image it names is a committed screenshot', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const images = [...readme.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]);
  assert.ok(images.some((src) => /^docs\/screens\/desktop-1280-/.test(src)), `README shows no screenshot of the page: ${images}`);
  for (const src of images) assert.ok(fs.existsSync(path.join(ROOT, src)), `README names ${src}, which is not in the repository`);
});

test('docs/screens has every view at 1280 px and at 390 px', () => {
  const files = fs.readdirSync(SCREENS).filter((f) => f.endsWith('.png'));
  const views = (tag) => new Set(files.filter((f) => f.startsWith(`${tag}-`)).map((f) => f.slice(tag.length + 1)));
  const desktop = views('desktop-1280'), phone = views('phone-390');
  for (const view of ['first-screen.png', 'stepper.png', 'temperature.png', 'why-sqrt-dk.png', 'causal-map.png', 'dropout.png', 'heads.png']) {
    assert.ok(desktop.has(view), `docs/screens/desktop-1280-${view} is missing: run node scripts/screens.mjs`);
  }
  assert.deepEqual([...phone].sort(), [...desktop].sort(), 'each view is shot at both widths');
});
