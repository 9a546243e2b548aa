// Section "bug-hunt": the engine runs causal self-attention on the learner's inputs with one planted
// mistake (bugs.js; replay/bug_hunt.h computes it), and the learner names it from the drawings, the prints
// and the difference from the correct result. Feedback shows the wrong line beside the right one;
// "Another bug" starts the next round. The rounds and the score are kept with the learner's progress.
import { h, para, place, pythonCode } from '../dom.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, show, errorNote } from '../sections/common.js';
import { matrixView } from '../views/index.js';
import { BUGS, bugByKey, evidence } from './bugs.js';
import { predictPrompt, answeredEntry } from './prompt.js';

export default { id: 'bug-hunt', title: 'Bug hunt: which line is wrong?', rung: null, build };

const HUNT = 'bug-hunt';   // the progress entry: {order, index, rounds, found, answer?}

// The bugs that show on these sizes: one head per dimension pair (view), √1 = 1 (d_k).
const applicable = (d_out) => BUGS.filter((b) => !(b.key === 'view_without_transpose' && d_out % 2) && !(b.key === 'divide_by_dk' && d_out === 1));
const shuffled = (keys) => {
  const a = keys.slice();
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
};

function build(ctx) {
  const { el, body } = sectionFrame('bug-hunt', 'Bug hunt: which line is wrong?');
  const hub = ctx.learn;
  if (!hub.enabled) { el.hidden = true; return { el, update() {} }; }   // exercises="off": no hunt
  const empty = { values: [0], shape: [1, 1] };
  const views = {
    buggy: matrixView(empty, { name: 'the planted run', title: 'what the buggy code printed', testid: 'bug-buggy', rowName: 'row', colName: 'column' }),
    correct: matrixView(empty, { name: 'the correct run', title: 'what the correct code prints', testid: 'bug-correct', rowName: 'row', colName: 'column' }),
    diff: matrixView(empty, { name: 'difference', title: 'difference: buggy − correct', testid: 'bug-diff', rowName: 'row', colName: 'column', scale: 'diverging' }),
  };
  const next = h('button', { type: 'button', 'data-testid': 'bug-next', text: 'Another bug', onclick: () => nextRound(true) });
  const lines = h('div', { class: 'bug-lines', 'data-testid': 'bug-lines', hidden: true });
  // the options and their feedback are a choice prompt; its answer event and grading are the prompts'
  const prompt = predictPrompt(hub, { id: HUNT, kind: 'choice', testid: 'bug-options', tag: 'Name the bug: ', question: 'which planted mistake made this result?', onAnswer: score });
  const round = h('div', { class: 'bug-hunt-round', 'data-testid': 'bug-hunt' });
  const state = () => hub.progress.get(HUNT) || null;
  // the learner's rounds: a shuffled order of the bugs, so every one comes up within a few rounds
  let current = state()?.order?.[state().index] || null;
  // byLearner: "Another bug" was pressed, so the keyboard goes on to the new round's options
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
    hub.record(HUNT, { rounds: s?.rounds || 0, found: s?.found || 0, order, index, answer: undefined, correct: undefined, skipped: undefined });
    update(true);
    if (byLearner) prompt.el.querySelector('button.choice')?.focus();
  }
  // a round's first answer counts toward the score (a skip counts as not found); the prompt keeps the answer
  function score(value, correct) {
    const s = state(), roundId = `${s.index}:${s.order.join()}`;
    if (s.scored === roundId) return;
    hub.record(HUNT, { rounds: s.rounds + 1, found: s.found + (correct ? 1 : 0), scored: roundId });
  }
  hub.progress.onChange(() => { if (!state() && current) { current = null; update(true); } });   // a reset: a fresh round

  function update(force = false) {
    if (!current) { nextRound(); return; }
    // (changedData first, forced or not, so that it remembers what this update shows: a forced update
    // by data alone left it unknown, and the next recompute, with nothing changed, rebuilt the round)
    const D = ctx.changedData('bug-hunt', { bug: current }) || (force ? ctx.data('bug-hunt', { bug: current }) : null);
    if (!D) return;
    const r = (name) => D.get(name);
    const correct = r('bug/correct'), buggy = r('bug/buggy'), diff = r('bug/diff'), st = ctx.state;
    round.setAttribute('data-round', current);
    const bug = bugByKey.get(current);
    if (buggy.error) {
      show(body, intro(st), errorNote(`This round cannot run on these inputs: ${buggy.error}.`), h('div', { class: 'controls' }, place(next)));
      return;
    }
    const kind = r('bug/tensor').print;
    const labels = (t) => Array.from({ length: t }, (_, i) => (kind === 'context_vecs' ? null : st.words[i]));
    const drawn = (t) => ({ values: t.values, texts: t.values.map(String), shape: t.shape, print: t.line,
      rowLabels: st.words, colLabels: kind === 'context_vecs' ? undefined : labels(t.shape[1]) });
    views.buggy.update(drawn(buggy)); views.correct.update(drawn(correct)); views.diff.update(drawn(diff));
    const ev = evidence(correct, buggy);
    const options = BUGS.map((b) => ({ key: b.key, label: b.label, attributes: { 'data-bug': b.key } }));
    // what this round's result shows is said once, after the answer (the explanation), not in each part
    prompt.update({ options, expected: current, expectedText: `“${bug.label}”`, explain: `The result shows it: ${bug.symptom(ev)}.`,
      why: (key) => `If it were “${bugByKey.get(key).label}”, you would see ${bugByKey.get(key).signature}.` });
    showLines();
    const what = kind === 'context_vecs' ? 'the context vectors of MultiHeadAttention(d_in, d_out, T, 0.0, num_heads=2)'
      : kind === 'dropped_weights' ? 'the causal attention weights after a hand-written dropout with p = 0.1' : 'the causal attention weights';
    round.replaceChildren(para(`The engine computed ${what} for your inputs (torch.manual_seed(${seedFor(st, 123)}), d_out = ${st.d_out}), once as the book writes it and once with one line wrong. Read the result first, then its difference from the correct one:`),
      h('div', { class: 'matrices' }, views.buggy.el, views.correct.el, views.diff.el));
    show(body, intro(st), place(round), prompt.placed(), place(lines), h('div', { class: 'controls' }, place(next)));
  }
  const intro = () => para('When a result looks wrong, you need to know which operation produced which part of it. Each round plants one mistake learners make in this chapter; name it from what the numbers show. The rows of attention weights should each sum to 1, with the future at 0.');
  // The wrong line beside the right one, built when the round is answered (before, the page holds no
  // code that gives the round away, and every load shows the same code cells).
  let linesFor = null;
  function showLines() {
    const shown = answeredEntry(state()) ? current : null;
    if (shown === linesFor) return;
    linesFor = shown;
    lines.hidden = !shown;
    const bug = bugByKey.get(shown);
    lines.replaceChildren(...(bug ? [h('figure', { class: 'wrong-line' }, h('figcaption', { text: 'The planted line' }), pythonCode(bug.wrong)),
      h('figure', { class: 'right-line' }, h('figcaption', { text: 'The right line' }), pythonCode(bug.right))] : []));
  }
  hub.progress.onChange(showLines);   // the prompt records the answer; the lines follow
  return { el, update };
}
