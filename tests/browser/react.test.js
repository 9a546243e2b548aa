// React 18 and React 19 hosts of the installed npm package (docs/embedding.md, "React"): tsc --strict
// accepts tests/types/react/*.tsx against each version's types through the package's exports
// ('attention-lab/react'), and each version, rendering them, hears both events through the typed props:
// the wrapper's onAttentionLabChange / onAttentionLabAnswer in both, and React 19's own
// onattention-lab-change / onattention-lab-answer on the element.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT, launch, startServer, newPage, waitForLab } = require('./helpers');

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const TGZ = path.join(ROOT, 'dist', `attention-lab-${VERSION}.tgz`);
const MODULES = path.join(ROOT, 'node_modules');
const CONSUMERS = path.join(ROOT, 'tests/types/react');
// each React: its runtime packages (npm aliases in package.json) and its types
const REACTS = {
  18: { react: 'react18', dom: 'react-dom18', types: '@types/react18', files: ['lesson.tsx'] },
  19: { react: 'react19', dom: 'react-dom19', types: '@types/react', files: ['lesson.tsx', 'native19.tsx'] },
};

let browser, project;
before(async () => {
  // as dist.test.js: the tarball of the current build (./scripts/test builds dist/ first)
  const bundle = path.join(ROOT, 'build/web/attention-lab.js');
  if (!fs.existsSync(TGZ) || (fs.existsSync(bundle) && fs.statSync(TGZ).mtimeMs < fs.statSync(bundle).mtimeMs)) {
    execFileSync(path.join(ROOT, 'scripts/build'), ['dist'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  browser = await launch();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-react-'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'react-host', version: '1.0.0', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', TGZ], { cwd: project, stdio: ['ignore', 'ignore', 'inherit'] });
  for (const f of fs.readdirSync(CONSUMERS)) fs.copyFileSync(path.join(CONSUMERS, f), path.join(project, f));
});
after(async () => { await browser?.close(); fs.rmSync(project, { recursive: true, force: true }); });

for (const [major, r] of Object.entries(REACTS)) {
  test(`React ${major}: tsc --strict accepts the host through 'attention-lab/react' (its @ts-expect-error lines are errors)`, () => {
    const types = path.join(MODULES, r.types);
    assert.match(JSON.parse(fs.readFileSync(path.join(types, 'package.json'), 'utf8')).version, new RegExp(`^${major}\\.`));
    const config = path.join(project, `tsconfig.react${major}.json`);
    fs.writeFileSync(config, JSON.stringify({
      compilerOptions: {
        strict: true, noEmit: true, jsx: 'react-jsx', target: 'ES2020', module: 'ESNext', moduleResolution: 'Bundler',
        lib: ['ES2020', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: false,
        paths: { react: [types], 'react/*': [`${types}/*`] },
      },
      files: r.files,
    }));
    try {
      execFileSync(path.join(MODULES, '.bin/tsc'), ['-p', config], { cwd: project, stdio: 'pipe' });
    } catch (e) {
      assert.fail(`tsc --strict with React ${major}'s types failed:\n${e.stdout}${e.stderr}`);
    }
  });

  test(`React ${major}: the typed props hear attention-lab-change and attention-lab-answer`, async () => {
    const site = path.join(project, `site${major}`);
    fs.mkdirSync(site, { recursive: true });
    const native = r.files.includes('native19.tsx');
    fs.writeFileSync(path.join(project, `main${major}.jsx`), `
import { createElement as h, version } from 'react';
import { createRoot } from 'react-dom/client';
import { Lesson } from './lesson.tsx';
${native ? "import { NativeLesson } from './native19.tsx';" : ''}
window.heard = [];
window.reactVersion = version;
const heard = (id) => ({ change: (detail) => window.heard.push({ id, kind: 'change', detail }), answer: (detail) => window.heard.push({ id, kind: 'answer', detail }) });
createRoot(document.getElementById('app')).render(h('div', null, h(Lesson, { heard: heard('wrapped') })${native ? ", h(NativeLesson, { heard: heard('native') })" : ''}));
`);
    const esbuild = require(path.join(MODULES, 'esbuild'));
    await esbuild.build({
      entryPoints: [path.join(project, `main${major}.jsx`)], outfile: path.join(site, 'app.js'), bundle: true, format: 'esm', splitting: false,
      absWorkingDir: project, logLevel: 'error', jsx: 'automatic', loader: { '.woff2': 'file' },
      alias: { react: r.react, 'react-dom': r.dom }, nodePaths: [MODULES],
      define: { 'process.env.NODE_ENV': '"development"' },   // React's warnings on (a bad prop is a console error)
    });
    fs.writeFileSync(path.join(site, 'index.html'), '<!doctype html><html lang="en"><meta charset="utf-8"><title>React host</title><link rel="icon" href="data:,"><div id="app"></div><script type="module" src="app.js"></script></html>');
    const server = await startServer(site);
    try {
      const { page, problems } = await newPage(browser.context);
      await page.goto(server.url);
      await waitForLab(page);
      assert.match(await page.evaluate(() => window.reactVersion), new RegExp(`^${major}\\.`));
      const ids = native ? ['wrapped', 'native'] : ['wrapped'];
      for (const id of ids) {
        const lab = page.locator(`#${id}`);
        // the props reached the element: class (no "classname"), the words given as an array
        assert.deepEqual(await lab.evaluate((el) => [el.getAttribute('class'), el.hasAttribute('classname'), el.state.words, el.state.seed]),
          ['lesson', false, ['Your', 'journey', 'starts'], 7], id);
        // a learner's answer: the section's first question (before the slider, whose move shows its questions)
        const input = lab.locator('[data-testid=predict-input]').first();
        if (await input.count()) { await input.fill('0.5'); await lab.locator('[data-testid=predict-check]').first().click(); }
        else await lab.locator('[data-testid=predict-choice]').first().click();
        await page.waitForFunction((which) => window.heard.some((e) => e.id === which && e.kind === 'answer'), id);
        // a learner's edit: the temperature slider to its end
        await lab.locator('[data-testid=temperature-slider]').focus();
        await page.keyboard.press('End');
        await page.waitForFunction((which) => window.heard.some((e) => e.id === which && e.kind === 'change'), id);
      }
      const heard = await page.evaluate(() => window.heard);
      for (const id of ids) {
        const change = heard.find((e) => e.id === id && e.kind === 'change').detail;
        assert.equal(change.state.temperature, 100, `${id}: the change's detail`);
        const answer = heard.find((e) => e.id === id && e.kind === 'answer').detail;
        assert.equal(typeof answer.correct, 'boolean', `${id}: the answer's detail`);
        // each event once per prop: a listener added once, whatever React re-rendered
        assert.equal(heard.filter((e) => e.id === id && e.kind === 'answer').length, 1, id);
      }
      assert.deepEqual(problems, []);
      await page.close();
    } finally {
      await server.close();
    }
  });
}
