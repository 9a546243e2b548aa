// Notebooks (docs/notebooks.md): a script evaluated with document.currentScript null (as Jupyter
// Notebook's outputs run it) warns and names engine-base instead of failing in silence; and a notebook
// executed by `jupyter nbconvert --execute` shows the widget, the book's numbers and its usual sizes
// under the notebook's own CSS.
'use strict';
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { launch, startServer, newPage, waitForLab, cellLine, shownCells, layOutEverySection } = require('./helpers');

let browser, server;
before(async () => { browser = await launch(); server = await startServer(); });
after(async () => { await browser.close(); await server.close(); });

// A page in a folder of its own (as a notebook's URL is) that fetches attention-lab.js and evaluates its
// text, as Jupyter Notebook's outputs do: document.currentScript is null while it runs.
async function evaluatedScriptPage(element, after = '') {
  const { page, problems } = await newPage(browser.context);
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.route(`${server.url}notebooks/lesson.html`, (route) => route.fulfill({ contentType: 'text/html',
    body: `<!doctype html><html lang="en"><meta charset="utf-8"><title>notebook</title><link rel="icon" href="data:,">${element}
<script type="module">const text = await (await fetch('/attention-lab.js')).text(); (0, eval)(text); ${after}</script></html>` }));
  await page.goto(`${server.url}notebooks/lesson.html`);
  await waitForLab(page);
  return { page, problems, warnings };
}

test('with document.currentScript null, the console and the load error name engine-base', async () => {
  const { page, problems, warnings } = await evaluatedScriptPage('<attention-lab section="classes"></attention-lab>');
  const message = await page.locator('[data-testid=lab-error]').textContent();
  assert.match(message, /could not start its engine/);
  assert.match(message, /could not tell its own folder \(document\.currentScript was null.*\), so it looked for its files in the page's folder, http:\/\/127\.0\.0\.1:\d+\/notebooks\/\. Name the folder that holds engine\/ with engine-base="…"/);
  assert.equal(warnings.filter((w) => /attention-lab: attention-lab\.js could not tell its own folder/.test(w)).length, 1, warnings.join('\n'));
  assert.ok(problems.length > 0, 'the missing engine file is a console error');
  await page.close();
});

test('with document.currentScript null, engine-base or configure({base}) right after brings the numbers and no warning', async () => {
  for (const [element, after] of [['<attention-lab section="classes" engine-base="/"></attention-lab>', ''],
    ['<attention-lab section="classes"></attention-lab>', 'AttentionLab.configure({ base: "/" });']]) {
    const { page, problems, warnings } = await evaluatedScriptPage(element, after);
    await page.locator('attention-lab [data-testid=engine-footer]').waitFor();
    assert.equal((await shownCells(page))['3.4.2/sa_v2'], cellLine('3.4.2/sa_v2'));
    assert.deepEqual(warnings, [], after);
    assert.deepEqual(problems, [], after);
    await page.close();
  }
});

// The sizes a reader sees first (headings, text, hints, cells, code, buttons), by kind.
async function sizes(page) {
  await layOutEverySection(page);
  return page.evaluate(() => {
    const root = document.querySelector('attention-lab').shadowRoot;
    const out = {};
    for (const kind of ['h2', 'h3', 'p', '.hint', '.mv-cell', '.mv-row', 'pre.code', 'pre.out', 'button', '.stepper-caption']) {
      out[kind] = [...root.querySelectorAll(kind)].slice(0, 3).map((el) => {
        const cs = getComputedStyle(el);
        return [cs.fontSize, cs.lineHeight, cs.marginTop, cs.paddingLeft, cs.height].join(' ');
      });
    }
    return out;
  });
}

// A notebook whose one code cell shows the widget through IPython.display.HTML, as docs/notebooks.md
// says, executed by nbconvert into an HTML page (nbconvert's default template: JupyterLab's CSS).
function executedNotebook(filesUrl) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-notebook-'));
  const source = [
    'from IPython.display import HTML',
    `HTML('<script src="${filesUrl}attention-lab.js"></script><attention-lab section="step-by-step"></attention-lab>')`,
  ].join('\n');
  const notebook = {
    nbformat: 4, nbformat_minor: 5,
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    cells: [
      { cell_type: 'markdown', id: 'title', metadata: {}, source: '# Self-attention, step by step' },
      { cell_type: 'code', id: 'widget', metadata: {}, execution_count: null, outputs: [], source },
    ],
  };
  fs.writeFileSync(path.join(dir, 'lesson.ipynb'), JSON.stringify(notebook));
  execFileSync('jupyter-nbconvert', ['--to', 'html', '--execute', 'lesson.ipynb'], { cwd: dir, stdio: 'pipe', env: { ...process.env, PYDEVD_DISABLE_FILE_VALIDATION: '1' } });
  const html = fs.readFileSync(path.join(dir, 'lesson.html'), 'utf8');
  fs.rmSync(dir, { recursive: true, force: true });
  return html;
}

test('jupyter nbconvert --execute: the widget shows the book\'s numbers, at its usual sizes under the notebook\'s CSS', async () => {
  const html = executedNotebook(server.url);
  assert.match(html, /<attention-lab section="step-by-step">/, 'the cell\'s output is in the page');
  // Debian's nbconvert links RequireJS and MathJax as file: URLs, which an http page may not load: RequireJS
  // is served here (Jupyter pages have it, and its define() must not capture the element's script).
  const requirejs = '/usr/share/javascript/requirejs/require.min.js';
  const body = fs.existsSync(requirejs) ? html.replace(`file://${requirejs}`, `${server.url}nb/require.min.js`) : html;
  const plainPage = `<!doctype html><html lang="en"><meta charset="utf-8"><title>plain</title><link rel="icon" href="data:,"><script src="${server.url}attention-lab.js"></script><attention-lab section="step-by-step"></attention-lab></html>`;
  const { page, problems } = await newPage(browser.context);
  await page.route(`${server.url}nb/**`, (route) => {
    const name = new URL(route.request().url()).pathname;
    if (name === '/nb/lesson.html') return route.fulfill({ contentType: 'text/html', body });
    if (name === '/nb/plain.html') return route.fulfill({ contentType: 'text/html', body: plainPage });
    return route.fulfill({ contentType: 'text/javascript', body: fs.readFileSync(requirejs) });
  });
  await page.goto(`${server.url}nb/lesson.html`);
  await waitForLab(page);
  const shown = await shownCells(page);
  for (const id of ['3.4.1/query_2', '3.4.1/attn_weights_2', '3.4.1/context_vec_2']) assert.equal(shown[id], cellLine(id), id);
  const inNotebook = await sizes(page);
  // the classic Notebook's Bootstrap root size (Debian's nbconvert ships its classic CSS empty)
  await page.addStyleTag({ content: 'html { font-size: 10px }' });
  const underBootstrap = await sizes(page);
  await page.goto(`${server.url}nb/plain.html`);
  await waitForLab(page);
  const plain = await sizes(page);
  assert.equal(plain.h2[0].split(' ')[0], '21.6px');
  assert.deepEqual(inNotebook, plain);
  assert.deepEqual(underBootstrap, plain);
  // the notebook page's own file: links (MathJax) fail; nothing else may
  assert.deepEqual(problems.filter((p) => !/file:\/\/\/usr\/share\/javascript|Not allowed to load local resource/.test(p)), []);
  await page.close();
});
