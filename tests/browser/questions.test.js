// Issue 42, honest questions: §3.4.1's, the temperature section's and §3.5's questions in Chromium,
// Firefox ESR and WebKit (the cross-engine drivers of engines/), for the book's example and an author's
// example of another size. For each question: nothing shown in its section (text, prints, figure titles,
// aria-labels, attributes a reader sees) holds its answer before it is answered, and what it holds back is
// hidden; a recognised wrong answer gets the hint that names its mistake (the wrong value from the native
// CLI), without the value; the second, right answer reveals it; progress counts neither as right on the
// first try; the events say attempt 1 false, then attempt 2 true. Then, in Chromium, grading inside a
// frame sandboxed with allow-scripts only (no form submission), and a verdict kept across an edit.
// ATTN_ENGINES=chromium,firefox,webkit picks the engines (default all three).
'use strict';
const { describe, test } = require('node:test');
const assert = require('node:assert/strict');
const { CELLS, nativeEval, rowsOf, launch, startServer, newPage, waitForLab } = require('./helpers');
const { chosenEngines, engineChecks } = require('./engines/suite');

const BOOK = { query: '', inputs: rowsOf(CELLS.get('inputs')), d_out: 2, seed: 123, words: ['Your', 'journey', 'starts', 'with', 'one', 'step'] };
const AUTHOR_INPUTS = [[0.5, -1], [2, 0.25], [-0.75, 1.5], [1, 1], [0, -2]];
const AUTHOR = { query: `embed.html?words=a+b+c+d+e&inputs=${encodeURIComponent(JSON.stringify(AUTHOR_INPUTS))}&d-out=4&seed=7`,
  inputs: AUTHOR_INPUTS, d_out: 4, seed: 7, words: ['a', 'b', 'c', 'd', 'e'] };
const DROPOUT_P = 0.2;   // the dropout question's p (learn/prompts.js), where 1/p ≠ 1/(1 − p)

const f4 = (v) => v.toFixed(4);
const argmax = (xs) => xs.indexOf(Math.max(...xs));
const argmin = (xs) => xs.indexOf(Math.min(...xs));
const regime = (w) => (Math.max(...w) >= 0.9 ? 'one' : Math.max(...w) - Math.min(...w) <= 0.01 ? 'uniform' : 'between');

// What the native CLI computes for an example's questions: §3.4 (W_q, W_k, W_v from one rand after
// torch.manual_seed(seed)), T → 0 and T → ∞, and dropout at p = 0.2 of torch.ones(6, 6).
function nativeAnswers({ inputs, d_out, seed }) {
  const d_in = inputs[0].length;
  const W = nativeEval({ op: 'rand', seed, shape: [3, d_in, d_out] }).values;
  const mat = (m) => Array.from({ length: d_in }, (_, i) => W.slice((m * d_in + i) * d_out, (m * d_in + i + 1) * d_out));
  const [q, k, v] = [0, 1, 2].map((m) => rowsOf(nativeEval({ op: 'matmul', a: inputs, b: mat(m) })));
  const kT = Array.from({ length: d_out }, (_, j) => k.map((row) => row[j]));
  const scores = rowsOf(nativeEval({ op: 'matmul', a: q, b: kT }));
  const weights = rowsOf(nativeEval({ op: 'softmax', x: scores, temperature: Math.sqrt(d_out) }));
  const z = rowsOf(nativeEval({ op: 'matmul', a: weights, b: v }));
  const dist = v.map((row) => Math.hypot(...row.map((x, d) => x - z[1][d])));
  const ones = Array.from({ length: 6 }, () => Array(6).fill(1));
  const dropped = nativeEval({ op: 'dropout', seed, p: DROPOUT_P, x: ones }).values;
  return {
    omega22: scores[1][1], omega21: scores[1][0],
    top: argmax(weights[1]) + 1, topWeight: Math.max(...weights[1]), smallestScore: argmin(scores[1]) + 1,
    z2: z[1], nearest: argmax(dist.map((d) => -d)) + 1,
    cold: regime(nativeEval({ op: 'softmax', x: scores[1], temperature: 0.01 }).values),
    coldWeights: nativeEval({ op: 'softmax', x: scores[1], temperature: 0.01 }).values,
    hot: regime(nativeEval({ op: 'softmax', x: scores[1], temperature: 100 }).values),
    dropoutScale: dropped.find((x) => x !== 0),
  };
}

// In the page: what a reader of a section can see or hear: its shown text (hidden boxes, display: none and
// a closed <details>' body skipped), the names and values that assistive tech reads, and data-expected.
function shownInSection(sectionId) {
  const sec = document.querySelector('attention-lab').shadowRoot.querySelector(`[data-section="${sectionId}"]`);
  const out = [];
  const walk = (node) => {
    for (const n of node.childNodes) {
      if (n.nodeType === 3) { out.push(n.data); continue; }
      if (n.nodeType !== 1 || n.hidden || getComputedStyle(n).display === 'none') continue;
      for (const a of ['aria-label', 'title', 'aria-valuetext', 'alt', 'data-expected']) if (n.hasAttribute(a)) out.push(n.getAttribute(a));
      if (n.tagName === 'INPUT' && n.type !== 'range') out.push(n.value);
      if (n.tagName === 'DETAILS' && !n.open) { const s = n.querySelector(':scope > summary'); if (s) walk(s); continue; }
      walk(n);
    }
  };
  walk(sec);
  return out.join('\n');
}

// In the page: whether every box a question holds back is hidden (and how many there are).
function gatedState(id) {
  const boxes = [...document.querySelector('attention-lab').shadowRoot.querySelectorAll(`[data-gated-by="${id}"]`)];
  return { count: boxes.length, hidden: boxes.filter((b) => b.hidden || b.closest('[hidden]')).length };
}

// In the page: a prompt's state and what its feedback says.
function promptState(id) {
  const root = document.querySelector('attention-lab').shadowRoot;
  const q = root.querySelector(`[data-exercise="${id}"]`), fb = q.querySelector('[data-testid=predict-feedback]');
  const count = root.querySelector('[data-testid=progress-count]');
  return { revealed: q.dataset.revealed, hidden: fb.hidden, text: fb.textContent, correct: fb.getAttribute('data-correct'), attempt: fb.getAttribute('data-attempt'),
    expected: fb.getAttribute('data-expected'), firstTryRight: count.dataset.firstTryRight, answered: count.dataset.answered, total: count.dataset.total };
}

// In the page: an answer given by the prompt's own controls: a choice clicked, or a number typed and
// Check clicked (no form: a button's click handler).
function give(id, value) {
  const q = document.querySelector('attention-lab').shadowRoot.querySelector(`[data-exercise="${id}"]`);
  if (q.dataset.answerKind === 'choice') q.querySelector(`[data-choice="${value}"]`).click();
  else {
    const input = q.querySelector('[data-testid=predict-input]');
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
    q.querySelector('[data-testid=predict-check]').click();
  }
  return true;
}

// Every question of this issue, in the page's order: its section, what it must not show before it is
// answered (from the native CLI, as the page prints it), a recognised wrong answer and what its hint
// says, and the right answer.
function questionsFor(c) {
  const N = nativeAnswers(c);
  const zWrong = N.top !== N.nearest ? N.top : (N.nearest === 1 ? 2 : 1);
  const topWrong = N.smallestScore !== N.top ? N.smallestScore : (N.top === 1 ? 2 : 1);
  return [
    { id: 'predict-omega22', section: 'step-by-step', leaks: [f4(N.omega22)], wrong: f4(N.omega21), right: f4(N.omega22),
      hint: /That is ω₂₁: you used the key of token 1 \(k⁽¹⁾/, keyboard: true },
    { id: 'predict-top-weight', section: 'step-by-step', leaks: [f4(N.topWeight)], wrong: String(topWrong), right: String(N.top),
      hint: topWrong === N.smallestScore ? /has the smallest score in row 2/ : /not the largest|weigh/ },
    { id: 'predict-z2-closest', section: 'step-by-step', leaks: [N.z2.map(f4).join(', ')], wrong: String(zWrong), right: String(N.nearest),
      hint: zWrong === N.top ? /has the largest weight, but a weighted mix lands near the weighted average/ : /weight/ },
    { id: 'predict-temperature-zero', section: 'temperature', leaks: ['one bar takes everything', N.coldWeights.map(f4).join(' ')],
      wrong: N.cold === 'uniform' ? 'one' : 'uniform', right: N.cold, hint: N.cold === 'one' ? /the other end: dividing by a tiny T/ : /tiny T/ },
    { id: 'predict-temperature-infinity', section: 'temperature', leaks: ['all bars equal'],
      wrong: N.hot === 'one' ? 'uniform' : 'one', right: N.hot, hint: N.hot === 'uniform' ? /the other end: dividing by a huge T/ : /huge T/ },
    { id: 'predict-mask', section: 'causal', leaks: ['future', 'mask_simple'], wrong: 'below', right: 'above', hint: /its past/ },
    { id: 'predict-row-sum', section: 'causal', leaks: ['sums to 1', 'masked_simple_norm'], wrong: '0', right: '1', hint: /does not vanish/ },
    { id: 'predict-dropout-scale', section: 'causal', leaks: [String(N.dropoutScale), f4(N.dropoutScale), 'kept ×2', '1/(1'], wrong: String(1 / DROPOUT_P), right: String(N.dropoutScale),
      hint: /That is 1\/p: p = 0\.2 is the share dropped/, keyboard: true },
  ];
}

for (const name of chosenEngines()) {
  describe(name, () => {
    let driver, server;
    const check = engineChecks(name, (started) => ({ driver, server } = started));

    for (const [label, c] of [['the book', BOOK], ['an author example (5 tokens × 2, d_out = 4, seed 7)', AUTHOR]]) {
      check(`${label}: each question shows nothing of its answer before it is answered; wrong (a named mistake, no value), then right; progress and events`, async () => {
        await driver.open(`${server.url}${c.query}`);
        await driver.waitForLab();
        await driver.evaluate(() => { localStorage.clear(); return true; });
        await driver.open(`${server.url}${c.query}`);
        await driver.waitForLab();
        await driver.evaluate(() => { window.heard = []; document.addEventListener('attention-lab-answer', (e) => window.heard.push(e.detail)); return true; });
        // the stepper holds before ω₂₂ (Next pressed past it stays on ω₂₁ at most)
        const captions = await driver.evaluate(() => {
          const s = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper]');
          const seen = [];
          for (let i = 0; i < 30; i++) { s.querySelector('[data-testid=step-next]').click(); seen.push(s.querySelector('[data-testid=step-caption]').textContent); }
          s.querySelector('[data-testid=step-prev]').click();
          return seen;
        });
        assert.ok(!captions.some((t) => t.startsWith('ω₂₂ =')), `the stepper held before ω₂₂: ${captions.at(-1)}`);
        let heardBefore = 0;
        for (const q of questionsFor(c)) {
          const where = `${name}, ${label}, ${q.id}`;
          // before: nothing in the section shows the answer; what it holds back is hidden
          const shown = await driver.evaluate(shownInSection, q.section);
          for (const leak of q.leaks) assert.ok(!shown.includes(leak), `${where}: “${leak}” is shown before the question is answered: …${shown.slice(Math.max(0, shown.indexOf(leak) - 200), shown.indexOf(leak) + 60)}…`);
          const gated = await driver.evaluate(gatedState, q.id);
          if (!q.id.startsWith('predict-temperature')) assert.ok(gated.count > 0 && gated.hidden === gated.count, `${where}: its ${gated.count} held-back boxes are hidden (${gated.hidden})`);
          const start = await driver.evaluate(promptState, q.id);
          assert.equal(start.hidden, true);
          // a recognised wrong answer: the hint names the mistake, never the value
          if (q.keyboard) {   // typed and checked with Enter: a keydown, no form
            await driver.evaluate((id, v) => { const i = document.querySelector('attention-lab').shadowRoot.querySelector(`[data-exercise="${id}"] [data-testid=predict-input]`); i.value = v; return true; }, q.id, q.wrong);
            await driver.focus(`[data-exercise="${q.id}"] [data-testid=predict-input]`);
            await driver.pressKey('Enter');
            await driver.waitFor((id) => !document.querySelector('attention-lab').shadowRoot.querySelector(`[data-exercise="${id}"] [data-testid=predict-feedback]`).hidden, [q.id], { what: `${q.id} graded after Enter` });
          } else await driver.evaluate(give, q.id, q.wrong);
          const bad = await driver.evaluate(promptState, q.id);
          assert.equal(bad.correct, 'false', `${where}: ${q.wrong} graded wrong: ${bad.text}`);
          assert.equal(bad.attempt, '1');
          assert.equal(bad.revealed, 'false', `${where}: a wrong first try reveals nothing`);
          assert.equal(bad.expected, null, `${where}: not even data-expected`);
          assert.match(bad.text, q.hint, `${where}: the hint names the mistake`);
          assert.match(bad.text, /One more try/);
          for (const leak of q.leaks) assert.ok(!bad.text.includes(leak), `${where}: the hint holds the value ${leak}: ${bad.text}`);
          const after = await driver.evaluate(shownInSection, q.section);
          for (const leak of q.leaks) assert.ok(!after.includes(leak), `${where}: “${leak}” shown after a wrong first try`);
          // the right answer, second: revealed, graded right, and not counted as right
          await driver.evaluate(give, q.id, q.right);
          const good = await driver.evaluate(promptState, q.id);
          assert.equal(good.correct, 'true', `${where}: ${q.right} graded right: ${good.text}`);
          assert.equal(good.attempt, '2');
          assert.equal(good.revealed, 'true');
          assert.match(good.text, /^Right on the second try: .*Only a right first try counts in your progress\./);
          assert.equal(good.firstTryRight, '0', `${where}: right on the second try is not right (${good.firstTryRight} of ${good.total})`);
          const opened = await driver.evaluate(gatedState, q.id);
          assert.equal(opened.hidden, 0, `${where}: what it held back shows`);
          const events = (await driver.evaluate(() => window.heard)).slice(heardBefore);
          heardBefore += events.length;
          assert.deepEqual(events.map((e) => [e.exercise, e.attempt, e.correct, e.firstTryCorrect]), [[q.id, 1, false, false], [q.id, 2, true, false]], `${where}: the events`);
        }
        const end = await driver.evaluate(promptState, 'predict-dropout-scale');
        assert.equal(Number(end.answered), 8, 'eight questions answered');
        // the stepper now goes through ω₂₂, α₂ and z⁽²⁾
        const last = await driver.evaluate(() => {
          const s = document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=projection-stepper]');
          for (let i = 0; i < 60; i++) s.querySelector('[data-testid=step-next]').click();
          return s.querySelector('[data-testid=step-caption]').textContent;
        });
        assert.match(last, /^Every context vector at once/);
        await driver.evaluate(() => { localStorage.clear(); return true; });
      });
    }
  });
}

// Chromium (playwright: it reaches into a frame of an opaque origin): a frame sandboxed with allow-scripts
// only refuses form submission and storage; Check's click and Enter still grade, and the bar says the
// answers last for the visit.
test('chromium: in a frame sandboxed with allow-scripts only, Check and Enter grade a question', async () => {
  const browser = await launch(), server = await startServer();
  try {
    const { page, problems } = await newPage(browser.context);
    const host = `<!doctype html><meta charset="utf-8"><title>lms</title><link rel="icon" href="data:,"><iframe sandbox="allow-scripts" src="${server.url}embed.html?section=causal" style="width:900px;height:3000px"></iframe>`;
    await page.route('**/lms-host.html', (route) => route.fulfill({ contentType: 'text/html', body: host }));
    await page.goto(`${server.url}lms-host.html`);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForFunction(() => document.querySelector('attention-lab')?.shadowRoot?.querySelector('[data-testid=engine-footer], [data-testid=lab-error]'), null, { timeout: 60000 });
    const error = await frame.evaluate(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-testid=lab-error]')?.textContent ?? null);
    assert.equal(error, null, `the element runs in the sandboxed frame: ${error}`);
    const prompt = frame.locator('[data-exercise=predict-dropout-scale]');
    await prompt.locator('[data-testid=predict-input]').fill('5');
    await prompt.locator('[data-testid=predict-check]').click();
    await prompt.locator('[data-testid=predict-feedback]').waitFor({ state: 'visible' });
    assert.match(await prompt.locator('[data-testid=predict-feedback]').textContent(), /That is 1\/p/);
    const scale = nativeEval({ op: 'dropout', seed: 123, p: DROPOUT_P, x: Array.from({ length: 6 }, () => Array(6).fill(1)) }).values.find((x) => x !== 0);
    await prompt.locator('[data-testid=predict-input]').fill(String(scale));
    await prompt.locator('[data-testid=predict-input]').press('Enter');
    await frame.waitForFunction(() => document.querySelector('attention-lab').shadowRoot.querySelector('[data-exercise=predict-dropout-scale] [data-testid=predict-feedback]').dataset.correct === 'true');
    assert.match(await frame.locator('[data-testid=storage-notice]').textContent(), /does not let the page keep your answers/);   // said once, beside the bar
    assert.deepEqual(problems.filter((p) => !/localStorage|storage/i.test(p)), []);
  } finally {
    await browser.close(); await server.close();
  }
});

// Numbers as people write them: thousands grouped by commas or spaces, a leading +; a decimal comma or a
// bad grouping refused with a sentence, and no try spent on it.
test('chromium: an answer with thousands separators or a + is read; an ambiguous one is one sentence and costs no try', async () => {
  const browser = await launch(), server = await startServer();
  try {
    const { page, problems } = await newPage(browser.context);
    await page.goto(`${server.url}?section=causal`);
    await waitForLab(page);
    await page.evaluate(() => localStorage.clear());
    const prompt = page.locator('[data-exercise=predict-dropout-scale]');
    const input = prompt.locator('[data-testid=predict-input]'), alert = prompt.locator('[role=alert]'), fb = prompt.locator('[data-testid=predict-feedback]');
    const refused = async (text, sentence) => {
      await input.fill(text);
      await input.press('Enter');
      assert.match(await alert.textContent(), sentence, text);
      assert.equal(await alert.isVisible(), true);
      assert.equal(await fb.isVisible(), false, `${text}: no try spent`);
    };
    await refused('1,25', /“1,25” is ambiguous: is the comma a decimal comma or a thousands separator\? Write a decimal point/);
    await refused('12,50,000', /may only group the digits in threes/);
    await refused('2,360 064', /mixes commas and spaces/);
    await refused('0x10', /is not a number/);
    await input.fill('2,360,064');   // read as 2360064: a first try, too high
    await prompt.locator('[data-testid=predict-check]').click();
    assert.match(await fb.textContent(), /^Not yet: 2360064 is not it\. .*too high/);
    const scale = nativeEval({ op: 'dropout', seed: 123, p: DROPOUT_P, x: Array.from({ length: 6 }, () => Array(6).fill(1)) }).values.find((x) => x !== 0);
    await input.fill(`+${scale}`);
    await input.press('Enter');
    assert.equal(await fb.getAttribute('data-correct'), 'true');
    // spaces group thousands too (exercise 3.3's count, exact)
    await page.goto(`${server.url}?section=multi-head`);
    await waitForLab(page);
    const n = CELLS.get('ex3.3/num_params').values[0];
    const ex33 = page.locator('[data-exercise="ex3.3"]');
    await ex33.locator('[data-testid=predict-input]').fill(String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f'));
    await ex33.locator('[data-testid=predict-check]').click();
    assert.equal(await ex33.locator('[data-testid=predict-feedback]').getAttribute('data-correct'), 'true');
    await page.evaluate(() => localStorage.clear());
    assert.deepEqual(problems, []);
  } finally {
    await browser.close(); await server.close();
  }
});

// A verdict is kept as given: wrong at d_out = 3, then the host goes back to d_out = 2 (where the same
// number would be right): still wrong, "graded for your earlier inputs", and the current value shown.
test('chromium: a graded answer keeps its verdict when the inputs change', async () => {
  const browser = await launch(), server = await startServer();
  try {
    const { page, problems } = await newPage(browser.context);
    await page.goto(`${server.url}?section=step-by-step`);
    await waitForLab(page);
    await page.evaluate(() => localStorage.clear());
    await page.evaluate(() => { document.querySelector('attention-lab').dOut = 3; });
    await page.evaluate(() => document.querySelector('attention-lab').updateComplete);
    const at2 = nativeAnswers(BOOK).omega22;
    const prompt = page.locator('[data-exercise=predict-omega22]');
    for (const guess of ['100', f4(at2)]) {   // two tries, both wrong at d_out = 3 (ω₂₂ at 3 is another number)
      await prompt.locator('[data-testid=predict-input]').fill(guess);
      await prompt.locator('[data-testid=predict-check]').click();
    }
    const fb = prompt.locator('[data-testid=predict-feedback]');
    assert.equal(await fb.getAttribute('data-correct'), 'false');
    await page.evaluate(() => { document.querySelector('attention-lab').dOut = 2; });
    await page.evaluate(() => document.querySelector('attention-lab').updateComplete);
    assert.equal(await fb.getAttribute('data-correct'), 'false', 'the verdict given at d_out = 3 stays');
    assert.match(await fb.textContent(), new RegExp(`^Not quite \\(graded for your earlier inputs\\): you said ${f4(at2)}; with the current inputs the answer is ${f4(at2)}`));
    await page.evaluate(() => localStorage.clear());
    assert.deepEqual(problems, []);
  } finally {
    await browser.close(); await server.close();
  }
});
