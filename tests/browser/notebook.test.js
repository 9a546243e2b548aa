// The notebook helper (python/attention_lab.py, built into dist/ by ./scripts/build dist) where readers
// work: tests/notebook/my_self_attention.ipynb builds the book's SelfAttention_v2, trains it a few steps in
// PyTorch, prints its output and shows it twice with attention_lab.show(module=...); Debian's
// `jupyter nbconvert --to html --execute` runs it (classic Notebook's kernel, the page keeps its outputs'
// scripts as Jupyter runs them). In Chromium and Firefox that HTML, opened from disk: the widget's
// numbers are what PyTorch printed in the same notebook, the element is defined once for both outputs,
// and nothing is requested beyond the file (and the nbconvert template's own RequireJS, loaded as classic
// Notebook loads it, so an AMD define() from the output would clash).
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
const READ_PAGE = `() => {
  const labs = [...document.querySelectorAll('attention-lab')];
  const printed = [...document.querySelectorAll('pre')].filter((p) => !p.closest('attention-lab') && p.textContent.startsWith('tensor(')).map((p) => p.textContent.replace(/\\n$/, ''));
  const classes = labs[0].shadowRoot.querySelector('pre.out[data-cell="3.4.2/sa_v2"]');
  return {
    printed, labs: labs.length,
    upgraded: labs.every((l) => l instanceof customElements.get('attention-lab') && !l.shadowRoot.querySelector('[data-testid=lab-error]')),
    classesPrint: classes && classes.textContent,
    contextVecs: labs.map((l) => l.results && l.results.contextVecs),
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
      assert.equal(got.labs, 2, 'two outputs of attention_lab.show');
      assert.equal(got.upgraded, true, 'both outputs are the element, with no error');
      assert.equal(got.requirejs, true, 'RequireJS is on the page');
      assert.equal(got.defines, 1, 'attention-lab is defined once for both outputs');
      assert.equal(got.printed.length, 1, 'the notebook printed sa_v2(inputs) once');
      // §3.4.2's print(sa_v2(inputs)), with the trained weights loaded: PyTorch's text, every character
      assert.equal(got.classesPrint, got.printed[0]);
      // §3.4.1 draws SelfAttention_v1 with the same weights transposed: the same context vectors
      const want = numbersOf(got.printed[0]);
      assert.deepEqual(got.contextVecs[1].flat().map((v) => Number(v.toFixed(4))), want);
      const beyond = [...requests, ...got.resources].filter((u) => u !== URL_OF_HTML && !u.startsWith(TEMPLATE_FILES) && !u.startsWith('data:'));
      assert.deepEqual(beyond, [], 'no request beyond the file (and the template\'s own scripts)');
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
assert isinstance(out, str) and out.count("<attention-lab ") == 1 and "customElements.get('attention-lab')" in out, out[:200]
assert 'weights="{&quot;W_query.weight&quot;: [[1, 0]]' in out, out[:300]
assert "torch" not in sys.modules
print("ok")
`;
  const out = execFileSync('/usr/bin/python3', ['-c', check, wheel, path.join(DIST, 'attention_lab.py'), DIST]).toString();
  assert.equal(out.trim(), 'ok');
});
