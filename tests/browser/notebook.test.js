// The notebook helper (python/attention_lab.py, built into dist/ by ./scripts/build dist) where readers
// work: tests/notebook/my_self_attention.ipynb builds the book's SelfAttention_v2, trains it a few steps in
// PyTorch, prints its output and shows it twice with attention_lab.show(module=...); Debian's
// `jupyter nbconvert --to html --execute` runs it (classic Notebook's kernel, the page keeps its outputs'
// scripts as Jupyter runs them). In Chromium and Firefox that HTML, opened from disk: the widget's
// numbers are what PyTorch printed in the same notebook, the element is defined once for both outputs,
// and nothing is requested beyond the file (and the nbconvert template's own RequireJS, loaded as classic
// Notebook loads it, so an AMD define() from the output would clash).
// Then a hand-written module with a mistake (the scale / d_k), given the trained weights, printed and checked
// with attention_lab.check: its "Check my code" names that mistake in bugs.js's words, its drawn numbers are
// what PyTorch printed for it, the first differing number's link focuses its cell, and a bad paste gets a sentence.
// Also: the release's single file and wheel hold the same module, and without IPython show() returns the HTML.
'use strict';
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { ROOT } = require('./helpers');
const { chosenEngines } = require('./engines/suite');

const DIST = path.join(ROOT, 'dist');
const NOTEBOOK = path.join(ROOT, 'tests/notebook/my_self_attention.ipynb');
const OUT = fs.mkdtempSync(path.join(os.tmpdir(), 'attention-lab-notebook-'));
const HTML = path.join(OUT, 'my_self_attention.html');
const URL_OF_HTML = `file://${HTML}`;
// The nbconvert template's own script (Debian's RequireJS, from disk), not the widget's.
const TEMPLATE_FILES = 'file:///usr/share/javascript/';

before(() => {
  // PyTorch as the project's oracle (scripts/oracle_torch.py): AVX2 kernels on any x86 CPU, one thread
  const env = { ...process.env, ATTENTION_LAB_DIST: DIST, ATEN_CPU_CAPABILITY: 'avx2', OPENBLAS_CORETYPE: 'Haswell', OMP_NUM_THREADS: '1' };
  // MathJax (which the notebook does not use) as an empty script: the template's RequireJS stays, from disk
  execFileSync('jupyter', ['nbconvert', '--to', 'html', '--execute', NOTEBOOK, '--output-dir', OUT, '--output', 'my_self_attention',
    '--HTMLExporter.mathjax_url=data:text/javascript,//'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  // the page has RequireJS, as classic Notebook's has (an AMD define() from an output would clash with it)
  assert.match(fs.readFileSync(HTML, 'utf8'), /<script src="file:\/\/\/usr\/share\/javascript\/requirejs\/require\.min\.js"/);
});
after(() => fs.rmSync(OUT, { recursive: true, force: true }));

// In the page: what the notebook printed (its stream outputs), each widget's shown print of sa_v2 and
// §3.4's context vectors (el.results), how many times attention-lab was defined, and the resources fetched.
const READ_PAGE = `async () => {
  const labs = [...document.querySelectorAll('attention-lab')];
  await Promise.all(labs.map((l) => l.updateComplete));
  const check = labs[2] && labs[2].shadowRoot;
  const q = (id) => check && check.querySelector('[data-testid=' + id + ']');
  const printed = [...document.querySelectorAll('pre')].filter((p) => !p.closest('attention-lab') && p.textContent.startsWith('tensor(')).map((p) => p.textContent.replace(/\\n$/, ''));
  const classes = labs[0].shadowRoot.querySelector('pre.out[data-cell="3.4.2/sa_v2"]');
  return {
    printed, labs: labs.length,
    upgraded: labs.every((l) => l instanceof customElements.get('attention-lab') && !l.shadowRoot.querySelector('[data-testid=lab-error]')),
    classesPrint: classes && classes.textContent,
    contextVecs: labs.map((l) => l.results && l.results.contextVecs),
    verdict: q('check-verdict') && { kind: q('check-verdict').dataset.verdict, bug: q('check-verdict').dataset.bug, text: q('check-verdict').textContent },
    misconception: q('check-misconception') && q('check-misconception').textContent,
    firstDifference: q('check-first-difference') && q('check-first-difference').textContent,
    readerCells: check ? [...check.querySelectorAll('[data-testid=check-reader] td[data-value]')].map((td) => td.dataset.value) : [],
    bookCells: check ? [...check.querySelectorAll('[data-testid=check-book] td[data-value]')].map((td) => Number(td.dataset.value)) : [],
    defines: self.attentionLabDefines,
    requirejs: typeof define === 'function' && !!define.amd,
    resources: performance.getEntriesByType('resource').map((e) => e.name),
  };
}`;

// PyTorch's print of a (T, d) tensor, its numbers.
const numbersOf = (print) => (print.match(/-?\d+\.\d+/g) || []).map(Number);

for (const name of chosenEngines(['chromium', 'firefox'])) {
  describe(`the notebook's HTML in ${name}`, () => {
    let driver;
    const requests = [];
    before(async () => {
      driver = await require(`./engines/${name}`).launch();
      const page = driver.page;
      page.on('request', (r) => requests.push(r.url()));
      // every customElements.define('attention-lab') counted from the first script on
      const count = () => {
        self.attentionLabDefines = 0;
        const define = customElements.define.bind(customElements);
        customElements.define = (n, ...rest) => { if (n === 'attention-lab') self.attentionLabDefines++; return define(n, ...rest); };
      };
      await (page.addInitScript ? page.addInitScript(count) : page.evaluateOnNewDocument(count));
      await driver.open(URL_OF_HTML);
      await driver.waitForLab();
    });
    after(async () => { await driver?.quit(); });

    test('its numbers are what PyTorch printed in the same notebook; the element is defined once; nothing is fetched', async () => {
      const got = await driver.evaluate(READ_PAGE);
      assert.equal(got.labs, 3, 'two outputs of attention_lab.show, one of attention_lab.check');
      assert.equal(got.upgraded, true, 'both outputs are the element, with no error');
      assert.equal(got.requirejs, true, 'RequireJS is on the page');
      assert.equal(got.defines, 1, 'attention-lab is defined once for the three outputs');
      assert.equal(got.printed.length, 2, 'the notebook printed sa_v2(inputs), then my_sa(inputs)');
      // §3.4.2's print(sa_v2(inputs)), with the trained weights loaded: PyTorch's text, every character
      assert.equal(got.classesPrint, got.printed[0]);
      // §3.4.1 draws SelfAttention_v1 with the same weights transposed: the same context vectors
      const want = numbersOf(got.printed[0]);
      assert.deepEqual(got.contextVecs[1].flat().map((v) => Number(v.toFixed(4))), want);
      // Check my code: the hand-written module's mistake, named in the bug hunt's words
      // bugs.js names divide_by_dk's misconception by its key in the English catalogue
      const key = fs.readFileSync(path.join(ROOT, 'web/src/learn/bugs.js'), 'utf8').match(/key: 'divide_by_dk'[\s\S]*?misconception\(\) \{ return t\('([^']*)'\)/)[1];
      const words = JSON.parse(fs.readFileSync(path.join(ROOT, 'web/src/i18n/en.json'), 'utf8'))[key];
      assert.equal(got.verdict.kind, 'mistake');
      assert.equal(got.verdict.bug, 'divide_by_dk');
      assert.match(got.verdict.text, /scores divided by d_k instead of √d_k/);
      assert.match(got.misconception, /^The misconception: The scale is √d_k/);
      assert.equal(got.misconception, `The misconception: ${words}`, 'bugs.js\'s words (en.json), one home');
      // its drawn numbers are what PyTorch printed for my_sa(inputs), as written; the book's are sa_v2's
      assert.deepEqual(got.readerCells, got.printed[1].match(/-?\d+\.\d+/g));
      assert.deepEqual(got.bookCells.map((v) => Number(v.toFixed(4))), want);
      const mine = numbersOf(got.printed[1]);
      const first = mine.findIndex((v, i) => v !== want[i]);
      assert.match(got.firstDifference, new RegExp(`row ${Math.floor(first / 2) + 1}, column ${(first % 2) + 1}, yours ${got.printed[1].match(/-?\d+\.\d+/g)[first]}`));
      const beyond = [...requests, ...got.resources].filter((u) => u !== URL_OF_HTML && !u.startsWith(TEMPLATE_FILES) && !u.startsWith('data:'));
      assert.deepEqual(beyond, [], 'no request beyond the file (and the template\'s own scripts)');
      assert.deepEqual(driver.heardProblems(), []);
    });

    test('Check my code: the first difference links to its cell; a bad paste gets one sentence', async () => {
      const got = await driver.evaluate(`async () => {
        const root = document.querySelectorAll('attention-lab')[2].shadowRoot;
        const q = (id) => root.querySelector('[data-testid=' + id + ']');
        const linkText = q('check-cell-link').textContent;
        q('check-cell-link').click();
        const focused = root.activeElement;
        const cell = focused && { row: focused.dataset.row, col: focused.dataset.col, hl: focused.closest('[data-testid=check-reader]') !== null };
        q('check-paste').value = 'print(my_sa(inputs))';
        q('check-run').click();
        const sentence = q('check-result').textContent;
        q('check-paste').value = 'tensor([[0.1, 0.2, 0.3]])';
        q('check-run').click();
        return { cell, linkText, link: sentence, shape: q('check-result').textContent };
      }`);
      assert.equal(got.cell.hl, true, 'the link focuses a cell of your output');
      assert.equal(`row ${Number(got.cell.row) + 1}, column ${Number(got.cell.col) + 1}`, got.linkText, 'the cell the sentence names');
      assert.match(got.link, /^This cannot be checked: this is neither a tensor as PyTorch prints it/);
      assert.match(got.shape, /^This cannot be checked: your output is 1 × 3, but SelfAttention_v2 with these weights gives 6 × 2/);
      assert.deepEqual(driver.heardProblems(), []);
    });
  });
}

test('the release: attention_lab.py and the wheel hold the same module; without IPython, show() returns the HTML', () => {
  const version = require(path.join(ROOT, 'package.json')).version;
  const wheel = path.join(DIST, `attention_lab-${version}-py3-none-any.whl`);
  // the wheel is a zip with the module, METADATA, WHEEL and a RECORD whose hashes are the files'
  const check = `
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = set(z.namelist())
info = "attention_lab-${version}.dist-info/"
assert {"attention_lab.py", info + "METADATA", info + "WHEEL", info + "RECORD"} <= names, names
for line in z.read(info + "RECORD").decode().splitlines():
    name, digest, size = line.split(",")
    if name.endswith("RECORD"): continue
    data = z.read(name)
    assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode(), name
    assert int(size) == len(data), name
assert z.read("attention_lab.py") == open(sys.argv[2], "rb").read()
sys.modules["IPython"] = None   # as where IPython is not installed
sys.path.insert(0, sys.argv[3])
import attention_lab
out = attention_lab.show(section="causal", inputs=[[1, 2], [3, 4.5]], weights={"W_query.weight": [[1, 0]], "W_key.weight": [[0, 1]], "W_value.weight": [[1, 1]]})
import re
tags = re.sub(r"<script[^>]*>.*?</script>", "", out, flags=re.S)   # the bundle's export code writes the tag too
assert isinstance(out, str) and tags.count("<attention-lab ") == 1 and "customElements.get('attention-lab')" in out, out[:200]
assert 'weights="{&quot;W_query.weight&quot;: [[1, 0]]' in out, out[:300]
out = attention_lab.check(weights={"W_query.weight": [[1, 0]], "W_key.weight": [[0, 1]], "W_value.weight": [[1, 1]]}, inputs=[[1, 2], [3, 4.5]],
                          output=[[float("nan")], [0.25]])
assert 'section="check"' in out and 'check="{&quot;module&quot;: &quot;SelfAttention_v2&quot;, &quot;output&quot;: [[&quot;nan&quot;], [0.25]]}"' in out, out[:400]
try:
    attention_lab.check(inputs=[[1, 2]])
    raise AssertionError("no module, no output")
except ValueError as e:
    assert str(e).startswith("give module="), e
assert "torch" not in sys.modules
print("ok")
`;
  const out = execFileSync('/usr/bin/python3', ['-c', check, wheel, path.join(DIST, 'attention_lab.py'), DIST]).toString();
  assert.equal(out.trim(), 'ok');
});
