// Section "bug-hunt": each round runs one of two short programs of the chapter (bug-programs.json) on the
// learner's inputs with one line wrong; the engine computes it (replay/bug_hunt.h), as written and with the
// bug. The learner sees the program as run, what it printed (or the error PyTorch raised) beside what the
// book's code prints, and clicks the wrong line. The first click counts; a wrong one gets a hint read from
// the numbers (never the line) and a second click. Then the wrong line beside the book's, the bug's name
// and the misconception it reveals. The rounds and the score are kept with the learner's progress.
import { h, para, place, pythonCode, fixed4 } from '../dom.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, show, errorNote } from '../sections/common.js';
import { matrixView } from '../views/index.js';
import { bugByKey, evidence, programLines, programOf, applicable, PROGRAMS } from './bugs.js';
import { MAX_TRIES } from './progress.js';
import { t, engineSentence } from '../i18n/index.js';

export default { id: 'bug-hunt', get title() { return t('bugHunt.title'); }, rung: null, build };

// The progress entry: {order, index, rounds, found, tries: [line, ...] this round, answer?, correct?, skipped?}.
// answer (the last line clicked) and correct (the first click was right) are set when the round is
// revealed, so the page's count of questions sees the round as answered only then.
const HUNT = 'bug-hunt';
const P = 0.1;   // the causal program's p (replay/bug_hunt.h kBugDropout)

const shuffled = (keys) => {
  const a = keys.slice();
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
};

function build(ctx) {
  const { el, body } = sectionFrame('bug-hunt', t('bugHunt.title'));
  const hub = ctx.learn;
  if (!hub.enabled) { el.hidden = true; return { el, update() {} }; }   // exercises="off": no hunt
  hub.register(HUNT);
  const views = {
    buggy: matrixView(null, { name: t('bugHunt.whatProgramPrinted'), title: t('bugHunt.whatThisProgramPrinted'), testid: 'bug-buggy', rowName: t('word.row'), colName: t('word.column'), legend: false }),
    correct: matrixView(null, { name: t('bugHunt.whatBookCodePrints'), title: t('bugHunt.whatBookCodePrints2'), testid: 'bug-correct', rowName: t('word.row'), colName: t('word.column'), legend: false }),
    diff: matrixView(null, { name: t('bugHunt.difference'), title: t('bugHunt.differenceThisBook'), testid: 'bug-diff', rowName: t('word.row'), colName: t('word.column'), scale: 'diverging', legend: false }),
  };
  const raisedBox = h('figure', { class: 'bug-raised', 'data-testid': 'bug-raised' });
  const next = h('button', { type: 'button', 'data-testid': 'bug-next', text: t('bugHunt.anotherBug'), onclick: () => nextRound(true) });
  const skip = h('button', { type: 'button', class: 'secondary', 'data-testid': 'bug-skip', text: t('bugHunt.justShowMe'), onclick: () => reveal(null) });
  const listing = h('ol', { class: 'bug-listing', 'data-testid': 'bug-listing', 'aria-label': t('bugHunt.programRanClickWrong') });
  const feedback = h('div', { class: 'feedback', role: 'status', 'data-testid': 'bug-feedback' });
  const answerBox = h('div', { class: 'bug-answer', 'data-testid': 'bug-answer' });
  const about = h('p', { class: 'bug-about', 'data-testid': 'bug-about' });
  const controls = h('div', { class: 'controls' }, skip, next);
  const round = h('div', { class: 'bug-hunt-round', 'data-testid': 'bug-hunt' },
    para(t('bugHunt.programRanClickWrong2')), listing,
    h('div', { class: 'matrices bug-outputs' }, views.buggy.el, raisedBox, views.correct.el, views.diff.el),
    about, feedback, answerBox, controls);
  const state = () => hub.progress.get(HUNT) || null;
  let current = state()?.order?.[state().index] || null;
  if (state() && !Array.isArray(state().tries)) current = null;   // a round kept by the hunt that named bugs: a new round
  let shown = null;   // what the round's parts were last drawn for
  let controlsTaken = false;
  const narrow = matchMedia('(max-width: 480px)');
  narrow.addEventListener?.('change', () => { if (current) update(true); });   // "Another bug" stands under an error's sentence

  // byLearner: "Another bug" was pressed, so the keyboard goes on to the new round's first line
  function nextRound(byLearner = false) {
    const s = state();
    const keys = applicable(ctx.state.d_out).map((b) => b.key);
    let order = s?.order, index = (s?.index ?? -1) + 1;
    while (order && index < order.length && !keys.includes(order[index])) index++;
    if (!order || index >= order.length) {   // a new lap, which never starts with the bug just played
      order = shuffled(keys); index = 0;
      if (order.length > 1 && order[0] === current) [order[0], order[1]] = [order[1], order[0]];
    }
    current = order[index];
    hub.record(HUNT, { rounds: s?.rounds || 0, found: s?.found || 0, order, index, tries: [], answer: undefined, correct: undefined, skipped: undefined });
    update(true);
    if (byLearner) listing.querySelector('button')?.focus();
  }
  hub.progress.onChange(() => {
    if (!state() && current) { current = null; update(true); return; }   // a reset: a fresh round
    drawAnswer();
  });

  let round$ = null;   // this round's lines and numbers, for the clicks
  // A click on line i (0-based, of the program as it ran): the first try counts; a wrong first try gets
  // the hint and a second try; the second try, right or wrong, reveals.
  function choose(i) {
    const s = state();
    if (!round$ || s.answer !== undefined || s.skipped) return;
    const right = i === round$.wrong, tries = [...(s.tries || []), i];
    hub.dispatch({ exercise: HUNT, kind: 'choice', answer: i + 1, expected: round$.wrong + 1, correct: right, attempt: tries.length });
    if (right || tries.length >= MAX_TRIES) reveal(i, tries);
    else hub.record(HUNT, { tries });
  }
  // i: the learner's last line (null: "Just show me"); the round counts once, as its first try went
  function reveal(i, tries = state().tries || []) {
    const s = state();
    if (s.answer !== undefined || s.skipped) return;
    const firstRight = tries.length > 0 && tries[0] === round$?.wrong;
    hub.record(HUNT, { tries, answer: i === null ? undefined : i + 1, skipped: i === null, correct: i === null ? undefined : firstRight,
      rounds: (s.rounds || 0) + 1, found: (s.found || 0) + (firstRight ? 1 : 0) });
  }

  function update(force = false) {
    if (!current) { nextRound(); return; }
    // (changedData first, forced or not, so that it remembers what this update shows)
    const D = ctx.changedData('bug-hunt', { bug: current }) || (force ? ctx.data('bug-hunt', { bug: current }) : null);
    if (!D) return;
    const r = (name) => D.get(name);
    const correct = r('bug/correct'), st = ctx.state;
    round.setAttribute('data-round', current);
    if (controlsTaken && !correct.error) { controls.append(skip, next); controlsTaken = false; }   // back from an error's sentence
    if (correct.error) {
      round$ = null;
      show(body, intro(), errorNote(t('bugHunt.thisRoundCannotRun', { error: engineSentence(correct) })), h('div', { class: 'controls' }, place(next)));
      controlsTaken = true;
      return;
    }
    const raised = r('bug/raised')?.print ?? null;   // PyTorch refused the buggy line: its error line
    const buggy = raised ? null : r('bug/buggy'), diff = raised ? null : r('bug/diff');
    const keep = programOf(current) === 'causal' ? r('bug/keep') : null;
    const program = programOf(current);
    const T = st.words.length;
    const seed = seedFor(st, PROGRAMS[program].seed);
    round$ = { ...programLines(program, { seed, d_out: st.d_out, T }, current), book: programLines(program, { seed, d_out: st.d_out, T }).lines,
      program, correct, buggy, raised, keep };
    const kind = r('bug/tensor').print;
    // on a phone the rows are numbered (the columns keep the words): the cells get the label column's
    // room, enough for 7-character values such as −0.6130 at 11 px
    const rowLabels = narrow.matches ? st.words.map((_, i) => String(i + 1)) : st.words;
    const drawn = (t) => ({ values: t.values, texts: t.values.map(String), shape: t.shape, print: t.line,
      rowLabels, colLabels: kind === 'context_vecs' ? undefined : st.words });
    // the round's parts stay in the page (a view fitted while out of it keeps an old round's labels);
    // the buggy drawing and the difference give way to PyTorch's error when it raised
    views.buggy.el.hidden = views.diff.el.hidden = !buggy;
    raisedBox.hidden = !raised;
    views.correct.update(drawn(correct));
    if (buggy) { views.buggy.update(drawn(buggy)); views.diff.update(drawn(diff)); }
    else raisedBox.replaceChildren(h('figcaption', { text: t('bugHunt.whatThisProgramPrinted2') }), h('pre', { class: 'out error-out', 'data-testid': 'bug-raised-line', text: `Traceback (most recent call last):\n  …\n${raised}` }));
    listing.replaceChildren(...round$.lines.map((line, i) => h('li', null,
      h('button', { type: 'button', class: 'bug-line', 'data-line': String(i + 1), 'data-testid': 'bug-line', onclick: () => choose(i) },
        h('span', { class: 'ln', 'aria-hidden': 'true', text: String(i + 1).padStart(2) }), h('code', { text: line })))));
    about.textContent = aboutBook(program, seed, keep, T);
    shown = null;
    drawAnswer();
    show(body, intro(), place(round));
  }
  // The same words whatever the bug: nothing here tells which program or line a round plays.
  const intro = () => para(t('bugHunt.eachRoundRunsOne'));
  // Why the book's output here is (or is not) a print of the chapter, from the seed and the keep mask.
  function aboutBook(program, seed, keep, T) {
    if (program === 'heads') return t('bugHunt.aboutHeads', { seed, T });
    let dropped = 0;
    for (let i = 0; i < T; i++) for (let j = 0; j <= i; j++) if (keep.values[i * T + j] === 0) dropped++;
    return t('bugHunt.aboutCausal', { seed, P, which: dropped === 0 ? t('bugHunt.noneWeights') : t('bugHunt.weightsBelowDiagonal', { dropped }), scale: fixed4(1 / (1 - P)) });
  }
  // The round's state after a click: the hint after a wrong first try; after the reveal the lines, the
  // outputs' story and the misconception.
  function drawAnswer() {
    const s = state();
    if (!round$ || !s || !current) return;
    const bug = bugByKey.get(current);
    const tries = s.tries || [];
    const revealed = s.answer !== undefined || !!s.skipped;
    const key = `${current}|${tries.join()}|${revealed}|${round$.lines.join('\n')}`;
    if (key === shown) return;
    shown = key;
    const ev = evidence(round$.correct, round$.buggy, { keep: round$.keep, raised: round$.raised });
    for (const b of listing.querySelectorAll('button')) {
      const i = Number(b.dataset.line) - 1;
      b.disabled = revealed;
      b.dataset.state = revealed && i === round$.wrong ? 'wrong-line' : tries.includes(i) ? (i === round$.wrong ? 'right' : 'not-it') : '';
      b.setAttribute('aria-pressed', String(tries.includes(i)));
    }
    skip.hidden = revealed;
    feedback.removeAttribute('data-correct');
    if (!revealed && tries.length === 0) { feedback.replaceChildren(); answerBox.replaceChildren(); return; }
    if (!revealed) {   // one wrong try: a hint from the numbers, and the second try
      feedback.setAttribute('data-correct', 'false');
      feedback.className = 'feedback wrong';
      feedback.replaceChildren(h('p', { class: 'bug-hint', 'data-testid': 'bug-hint', text: t('bugHunt.notLineBookWrites', { p1: tries[0] + 1, p2: bug.symptom(ev) }) }));
      answerBox.replaceChildren();
      return;
    }
    const firstRight = tries[0] === round$.wrong;
    feedback.setAttribute('data-correct', String(!!s.correct));
    feedback.className = `feedback ${firstRight ? 'right' : 'wrong'}`;
    const n = round$.wrong + 1;
    const verdict = s.skipped ? t('bugHunt.wrongLineLine', { n })
      : firstRight ? t('bugHunt.rightFirstTryLine', { n })
        : tries[tries.length - 1] === round$.wrong ? t('bugHunt.lineSecondTryCounts', { n })
          : t('bugHunt.notLineEitherWrong', { p1: tries[tries.length - 1] + 1, n });
    feedback.replaceChildren(h('p', { text: verdict }));
    const bookLine = round$.book[round$.right];
    answerBox.replaceChildren(
      h('p', { class: 'bug-name', 'data-testid': 'bug-name', text: t('bugHunt.bug', { label: bug.label }) }),
      h('div', { class: 'bug-lines', 'data-testid': 'bug-lines' },
        h('figure', { class: 'wrong-line' }, h('figcaption', { text: t('bugHunt.buggyLineLine', { n }) }), pythonCode(round$.lines[round$.wrong].trim())),
        h('figure', { class: 'right-line' }, h('figcaption', { text: t('bugHunt.bookLineLineBook', { p1: round$.right + 1 }) }), pythonCode(bookLine.trim()))),
      h('p', { 'data-testid': 'bug-symptom', text: t('bugHunt.whatDidOutput', { p1: bug.symptom(ev) }) }),
      h('p', { 'data-testid': 'bug-misconception', text: t('bugHunt.misconception', { misconception: bug.misconception }) }));
  }
  return { el, update };
}

