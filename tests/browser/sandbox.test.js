// embed.html in a frame sandboxed with allow-scripts alone (as LMS HTML blocks add it), on another
// origin, in Chromium and Firefox ESR: its messages come from origin "null", and the host's listener,
// matching them by event.source as the builder's snippet does, fits the frame and hears the answer,
// progress and summary events; localStorage is refused, which the learner is told once; the host keeps
// the progress and hands it back to a new frame (attention-lab:set-progress). Without CORS on the files
// the element says it is the opaque origin, not a missing file. ATTN_ENGINES=chromium (or firefox) runs one.
'use strict';
const { describe, test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { WEB, launchEngine, startServer } = require('./helpers');
const { chosenEngines } = require('./engines/suite');

const INITIAL_HEIGHT = 1200;
let widget, host, hostDir, bare;
before(async () => {
  widget = await startServer();   // build/web, with Access-Control-Allow-Origin (web/serve.mjs)
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-sandbox-'));
  host = await startServer(hostDir);
  host.url = host.url.replace('127.0.0.1', 'localhost');   // another origin than the widget's
  // The host page: a sandboxed frame of embed.html (its src from the hash), a listener that knows the
  // frame by event.source (the builder's snippet's rule) and records what it hears.
  fs.writeFileSync(path.join(hostDir, 'host.html'), `<!doctype html><meta charset="utf-8"><title>course</title><link rel="icon" href="data:,">
<iframe id="f" sandbox="allow-scripts" style="width: 900px; height: ${INITIAL_HEIGHT}px; border: 0"></iframe>
<script src="host.js"></script>`);
  fs.writeFileSync(path.join(hostDir, 'host.js'), `window.messages = [];
const frame = document.getElementById('f');
window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow || !e.data) return;
  window.messages.push({ origin: e.origin, type: e.data.type, detail: e.data.detail, height: e.data.height });
  if (e.data.type === 'attention-lab:height') frame.style.height = e.data.height + 'px';
});
window.load = (src) => { window.messages = []; frame.src = src; };
// what the host kept (the last progress event's) handed back to the frame: its origin is opaque, so '*'
window.giveProgress = (progress) => frame.contentWindow.postMessage({ type: 'attention-lab:set-progress', progress }, '*');
frame.src = decodeURIComponent(location.hash.slice(1));`);
  // build/web served without Access-Control-Allow-Origin: a sandboxed frame's own files then count as
  // another origin's, and the engine (loaded with its integrity hash, so with CORS) is refused
  bare = http.createServer((req, res) => {
    const file = path.join(WEB, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!file.startsWith(WEB) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
    const type = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.woff2': 'font/woff2', '.json': 'application/json' }[path.extname(file)] || 'application/octet-stream';
    res.writeHead(200, { 'Content-Type': type });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
});
after(async () => {
  await widget.close(); await host.close(); await new Promise((r) => bare.close(r));
  fs.rmSync(hostDir, { recursive: true, force: true });
});

// Resolves with fn(arg)'s first truthy value in page or frame, polled every 50 ms (or fails after 60 s).
async function until(target, fn, arg = null, what = String(fn)) {
  const end = Date.now() + 60000;
  for (;;) {
    let value = null;
    try { value = await target.evaluate(fn, arg); } catch { value = null; }   // (a frame between documents)
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited 60 s for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
// The page's frame (not the page itself) whose URL matches re, once it is there.
async function frameOf(page, re) {
  const end = Date.now() + 60000;
  for (;;) {
    const frame = page.frames().find((f) => f !== page.mainFrame() && re.test(f.url()));
    if (frame) return frame;
    if (Date.now() > end) throw new Error(`no frame at ${re}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const ready = (frame) => until(frame, () => {
  const root = document.querySelector('attention-lab')?.shadowRoot;
  return Boolean(root && root.querySelector('[data-testid=engine-footer], [data-testid=lab-error]'));
});

for (const engine of chosenEngines(['chromium', 'firefox'])) {
  describe(engine, () => {
    let browser;
    before(async () => { browser = await launchEngine(engine); });
    after(async () => { if (browser) await browser.close(); });

    test(`${engine}: a sandbox="allow-scripts" frame fits its content, is heard by event.source, and takes its progress from the host`, async () => {
      const { page, problems } = await browser.newPage();
      const hostOrigin = new URL(host.url).origin;
      const src = `${widget.url}embed.html?section=temperature&parent-origin=${encodeURIComponent(hostOrigin)}`;
      await page.goto(`${host.url}host.html#${encodeURIComponent(src)}`);
      let frame = await frameOf(page, /embed\.html/);
      await ready(frame);
      assert.equal(await frame.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelectorAll('[data-testid=lab-error]').length), 0);
      assert.equal(await frame.evaluate(() => self.origin), 'null', 'the frame\'s origin is opaque');

      // resize: the heights come from origin "null", and the frame takes the last one
      await until(page, () => window.messages.some((m) => m.type === 'attention-lab:height'));
      const fitted = await until(page, (initial) => {
        const heights = window.messages.filter((m) => m.type === 'attention-lab:height');
        const last = heights.at(-1).height, now = parseFloat(document.getElementById('f').style.height);
        return now === last && now !== initial && { last, origins: [...new Set(heights.map((m) => m.origin))] };
      }, INITIAL_HEIGHT);
      assert.deepEqual(fitted.origins, ['null']);

      // storage is refused in the sandbox: the learner is told, once
      const notice = await frame.evaluate(() => [...document.querySelector('attention-lab').shadowRoot.querySelectorAll('[data-testid=storage-notice]')].filter((n) => !n.hidden).map((n) => n.textContent));
      assert.equal(notice.length, 1);
      assert.match(notice[0], /does not let the page keep your answers here/);

      // an answer (a choice: buttons, no form): feedback in the frame, the events at the host
      const answered = await frame.evaluate(async () => {
        const q = document.querySelector('attention-lab').shadowRoot.querySelector('[data-answer-kind=choice]');
        q.querySelector('[data-testid=predict-choice]').click();
        const fb = q.querySelector('[data-testid=predict-feedback]');
        for (let i = 0; i < 200 && (fb.hidden || fb.dataset.correct === undefined); i++) await new Promise((r) => setTimeout(r, 20));
        return { id: q.dataset.exercise, hidden: fb.hidden, correct: fb.dataset.correct, text: fb.textContent };
      });
      assert.equal(answered.hidden, false, 'feedback shows');
      assert.match(answered.text, /^(Right|Not quite)/);
      const heard = await until(page, () => {
        const types = new Set(window.messages.map((m) => m.type));
        return ['attention-lab:answer', 'attention-lab:progress', 'attention-lab:summary'].every((t) => types.has(t)) && window.messages;
      });
      assert.ok(heard.every((m) => m.origin === 'null'));
      const answer = heard.find((m) => m.type === 'attention-lab:answer').detail;
      assert.deepEqual([answer.exercise, answer.correct], [answered.id, answered.correct === 'true']);
      const kept = heard.filter((m) => m.type === 'attention-lab:progress').at(-1).detail;
      assert.equal(kept.progress.version, 1);
      assert.ok(kept.progress.entries[answered.id], 'the progress event carries the answer');
      const summary = heard.filter((m) => m.type === 'attention-lab:summary').at(-1).detail;
      assert.deepEqual(summary, kept.summary);
      assert.equal(summary.answered, 1);
      assert.equal(summary.firstTryRight, answered.correct === 'true' ? 1 : 0);

      // a new frame (the learner comes back): nothing kept in the sandbox, until the host hands back
      // what it kept; then the answer and its grade show again, and the notice goes
      await page.evaluate((s) => window.load(`${s}&again=1`), src);
      frame = await frameOf(page, /again=1/);
      await ready(frame);
      await frame.evaluate(() => document.querySelector('attention-lab').updateComplete.then(() => true));
      assert.equal(await frame.evaluate(() => document.querySelector('attention-lab').summary.answered), 0);
      await page.evaluate((p) => window.giveProgress(p), kept.progress);
      const restored = await until(frame, (id) => {
        const root = document.querySelector('attention-lab').shadowRoot;
        const fb = root.querySelector(`[data-exercise="${id}"] [data-testid=predict-feedback]`);
        return fb && !fb.hidden && { correct: fb.dataset.correct, notices: [...root.querySelectorAll('[data-testid=storage-notice]')].filter((n) => !n.hidden).length,
          summary: document.querySelector('attention-lab').summary };
      }, answered.id);
      assert.deepEqual(restored, { correct: answered.correct, notices: 0, summary: { ...summary } });
      assert.deepEqual(problems, []);
    });

    // A form submission is what allow-scripts alone blocks: a number's Check is a click and Enter, no form.
    test(`${engine}: in a sandbox="allow-scripts" frame a number answer is graded (Check and Enter)`, async () => {
      const { page, problems } = await browser.newPage();
      const hostOrigin = new URL(host.url).origin;
      await page.goto(`${host.url}host.html#${encodeURIComponent(`${widget.url}embed.html?section=causal&parent-origin=${encodeURIComponent(hostOrigin)}`)}`);
      const frame = await frameOf(page, /embed\.html/);
      await ready(frame);
      const shown = await frame.evaluate(async () => {
        const q = document.querySelector('attention-lab').shadowRoot.querySelector('[data-answer-kind=number]');
        const input = q.querySelector('[data-testid=predict-input]');
        input.value = '1';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        q.querySelector('[data-testid=predict-check]').click();
        const fb = q.querySelector('[data-testid=predict-feedback]');
        for (let i = 0; i < 200 && fb.hidden; i++) await new Promise((r) => setTimeout(r, 20));
        return { hidden: fb.hidden, correct: fb.dataset.correct ?? null };
      });
      assert.equal(shown.hidden, false, 'the feedback shows');
      assert.ok(shown.correct === 'true' || shown.correct === 'false');
      await until(page, () => window.messages.some((m) => m.type === 'attention-lab:answer'));
      assert.deepEqual(problems, []);
    });

    test(`${engine}: a sandboxed frame whose server sends no CORS header: the element names the opaque origin and CORS`, async () => {
      const { page, problems } = await browser.newPage();
      const src = `http://127.0.0.1:${bare.address().port}/embed.html?section=temperature`;
      await page.goto(`${host.url}host.html#${encodeURIComponent(src)}`);
      const frame = await frameOf(page, /embed\.html/);
      await ready(frame);
      const message = await frame.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=lab-error]')?.textContent);
      assert.match(message, /sandboxed frame without allow-same-origin, so its origin is opaque \("null"\).*Access-Control-Allow-Origin \(CORS\)/);
      assert.doesNotMatch(message, /check that the file is there/);
      // the browser itself reports each refused file (the script, the fetch that tells why, the fonts;
      // Firefox also as an integrity mismatch)
      assert.ok(problems.every((p) => /CORS|Cross-Origin|Failed to load resource|NetworkError|downloadable font|hashes in the integrity attribute/i.test(p)), problems.join('\n'));
    });
  });
}
