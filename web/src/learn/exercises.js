// The chapter's exercises, live and checked by the engine on the learner's inputs and seeds:
// 3.1 (assign sa_v2's weights to sa_v1, as the author's solution notebook sets it: the engine runs the
// learner's assignment and compares the two prints), 3.2 (the d_out that gives 2-dimensional context vectors: the engine runs the wrapper with it)
// and 3.3 (GPT-2 small's parameter count, before it is printed).
import { h, uid, place, morph, fixed4 } from '../dom.js';
import { seedFor, inputRows } from '../inputs.js';
import { predictPrompt } from './prompt.js';
import { MAX_TRIES } from './progress.js';
import { t } from '../i18n/index.js';

const SLOTS = ['W_query', 'W_key', 'W_value'];
const CHOICES = SLOTS.flatMap((s) => [`${s}.weight`, `${s}.weight.T`]);
const SOLUTION = SLOTS.map((s) => `${s}.weight.T`);   // the book's; the engine confirms it on every update

// PyTorch's own error for sa_v1(inputs) with these weights, or null when every product fits: forward()
// runs x @ W_key, then x @ W_query, then x @ W_value, and the first whose weight's rows are not d_in
// raises mm's RuntimeError (PyTorch 1.13's words, for the learner's shapes).
//   x: [tokens, d_in]; chosen: {slot: choice}; d_out: the weights' other side
export function pytorchError([tokens, d_in], chosen, d_out) {
  for (const slot of ['W_key', 'W_query', 'W_value']) {
    const shape = chosen[slot].endsWith('.T') ? [d_in, d_out] : [d_out, d_in];   // nn.Linear stores (d_out, d_in)
    if (shape[0] !== d_in) return { slot, shape, text: `RuntimeError: mat1 and mat2 shapes cannot be multiplied (${tokens}x${d_in} and ${shape[0]}x${shape[1]})` };
  }
  return null;
}

// Exercise 3.1 as the author's solution notebook sets it: sa_v1 and sa_v2 both built after
// torch.manual_seed(123) (the learner's seed, if set, for both). Three selects, a Run button and "Just
// show me"; the learner's sa_v1 print beside the verdict. A wrong first run gets a hint; the solution
// shows after a second run, a right one, or "Just show me". Progress keeps the first run's verdict.
export function exercise31(ctx) {
  const hub = ctx.learn, id = 'ex3.1';
  hub.register(id);
  const selects = SLOTS.map((slot) => {
    const sel = h('select', { id: uid(`ex31-${slot}`), 'data-slot': slot }, CHOICES.map((c) => h('option', { value: c, text: `sa_v2.${c}` })));
    sel.value = `${slot}.weight`;   // the tempting first guess: the weight as nn.Linear stores it
    return sel;
  });
  const setup = h('code', { class: 'language-python' });
  // with the book's seeds this sa_v2 is not Listing 3.2's (seed 789): said before the learner wonders
  const notListing32 = h('span');
  const out = h('pre', { class: 'out', 'data-testid': 'exercise-output', hidden: true });
  const feedback = h('p', { class: 'feedback', role: 'status', 'data-testid': 'exercise-feedback', hidden: true });
  const run = h('button', { type: 'button', 'data-testid': 'exercise-check', text: t('exercises.runSaV1Inputs'), onclick: () => check() });
  const skip = h('button', { type: 'button', class: 'secondary', 'data-testid': 'exercise-skip', text: t('exercises.justShowMe'), onclick: () => showMe() });
  const el = hub.enabled ? h('div', { class: 'exercise', 'data-testid': 'exercise-3.1', 'data-exercise': id, 'data-answer-kind': 'choice' },
    h('p', { class: 'question' }, h('span', { class: 'predict-tag', text: t('exercises.tag31') }), t('exercises.authorSolutionNotebookBoth'), notListing32, ':'),
    h('pre', { class: 'code' }, setup),
    h('p', { class: 'question', text: t('exercises.giveSaV1Weights') }),
    h('div', { class: 'ex31-grid' }, selects.map((sel) => h('p', null, h('label', { for: sel.id }, h('code', { text: `sa_v1.${sel.dataset.slot} = torch.nn.Parameter(` })), sel, h('code', { text: ')' })))),
    h('div', { class: 'controls' }, run, skip), out, feedback) : null;
  const gateBox = h('div', { class: 'gated', 'data-gated-by': id });

  const seed = () => seedFor(ctx.state, 123);
  const chosen = () => Object.fromEntries(SLOTS.map((s, k) => [s, selects[k].value]));
  // the engine's run of the notebook (both seeds the notebook's) with the learner's choice, or the book's .T
  // (never a reader's own weights: the notebook's modules are torch.manual_seed's draws, as its code cell says)
  const notebook = (choice) => ctx.data('classes', { seed: seed(), weights: undefined, ...(choice ? { ex3_1: choice } : {}) });
  // the engine runs sa_v1 with the learner's choice; right when it prints sa_v2's tensor to the last digit
  function verdict(choice) {
    const D = notebook(choice);
    const mine = D.get('ex3.1/chosen'), v2 = D.get('3.4.2/sa_v2');
    const x = [ctx.state.tokens, ctx.state.d_in], d_out = ctx.state.d_out;
    if (mine.error) {
      const pt = pytorchError(x, choice, d_out);
      return { correct: false, mine, error: pt ? pt.text : mine.error,
        text: pt ? t('exercises.pytorchStopsInputsWeight', { slot: pt.slot, p2: x[0], p3: x[1], slot2: pt.slot, p5: pt.shape[0], p6: pt.shape[1] }) : `sa_v1(inputs) fails: ${mine.error}.`,
        hint: 'Hint: nn.Linear stores its weight as (d_out, d_in), while SelfAttention_v1 computes x @ W, which needs (d_in, d_out).' };
    }
    const same = !v2.error && mine.print === v2.print && mine.values.every((v, i) => v === v2.values[i]);
    if (same) return { correct: true, mine, text: t('exercises.rightSaV1Now') };
    let worst = 0;
    mine.values.forEach((v, i) => { if (Math.abs(v - v2.values[i]) > Math.abs(mine.values[worst] - v2.values[worst])) worst = i; });
    const cols = mine.shape[1], swapped = SLOTS.filter((s) => !choice[s].startsWith(s));
    return { correct: false, mine, text: t('exercises.notSameRowColumn', { p1: Math.floor(worst / cols) + 1, p2: worst % cols + 1, p3: fixed4(mine.values[worst]), p4: fixed4(v2.values[worst]) }),
      hint: swapped.length ? t('exercises.hintEachSaV1')
        : 'Hint: with d_in = d_out every product fits, yet nn.Linear computes x Wᵀ: which way round is its weight stored?' };
  }
  // The first run's verdict is what progress counts; later runs only change what is said.
  function check() {
    const choice = chosen();
    const v = verdict(choice);
    const before = hub.progress.get(id);
    const attempts = (before && !before.skipped ? before.attempts || 1 : 0) + 1;
    // a run after "Just show me" is not a first try that could count as right: the solution was on screen
    const first = attempts === 1 ? v.correct && !before?.shown : before.correct;
    hub.record(id, { answer: choice, correct: first, last: v.correct, attempts, skipped: false, shown: !!before?.shown });
    hub.dispatch({ exercise: id, kind: 'choice', answer: SLOTS.map((s) => choice[s]).join(', '), expected: SOLUTION.join(', '), correct: v.correct, tolerance: null, attempt: attempts });
    render();
  }
  function showMe() {
    const before = hub.progress.get(id);
    hub.record(id, before && !before.skipped ? { ...before, shown: true } : { skipped: true, answer: undefined, correct: undefined, shown: true });
    render();
  }
  function render() {
    const saved = hub.progress.get(id);
    const answered = !!saved && (saved.skipped || saved.answer !== undefined);
    const v = answered && !saved.skipped ? verdict(saved.answer) : null;   // the current inputs: the verdict follows an edit
    // the solution: after a right run, a second run, or "Just show me"
    const open = !hub.enabled || (!!saved && (saved.shown || saved.skipped || (v && v.correct) || saved.attempts >= MAX_TRIES));
    gateBox.hidden = !open;
    if (!el) return;
    const clause = ctx.state.seed === null ? t('exercises.notListing32Clause') : '';
    if (notListing32.textContent !== clause) notListing32.textContent = clause;
    setup.textContent = `torch.manual_seed(${seed()})\nsa_v1 = SelfAttention_v1(d_in, d_out)\ntorch.manual_seed(${seed()})\nsa_v2 = SelfAttention_v2(d_in, d_out)`;
    skip.hidden = open;
    if (!v) {
      out.hidden = true;
      feedback.hidden = !saved?.skipped;
      feedback.removeAttribute('data-correct');
      feedback.className = 'feedback';
      if (saved?.skipped) feedback.textContent = t('exercises.solutionBelow');
      return;
    }
    SLOTS.forEach((s, k) => { if (CHOICES.includes(saved.answer[s])) selects[k].value = saved.answer[s]; });
    out.hidden = false;
    out.textContent = `print(sa_v1(inputs))\n${v.error ? `Traceback (most recent call last):\n  ...\n${v.error}` : v.mine.line}`;
    feedback.hidden = false;
    feedback.setAttribute('data-correct', String(v.correct));
    feedback.setAttribute('data-attempts', String(saved.attempts || 1));
    feedback.setAttribute('data-expected', SOLUTION.join(', '));   // for a host's grading, as the prompts' (never drawn)
    feedback.className = `feedback ${v.correct ? 'right' : 'wrong'}`;
    feedback.textContent = v.correct ? v.text : open ? t('exercises.solutionBelow2', { text: v.text }) : t('exercises.changeYourChoiceRun', { text: v.text, hint: v.hint });
  }
  hub.progress.onChange(render);
  return {
    placed: () => (el ? place(el) : null),
    update: render,
    // the solution notebook's run (seed 123 for both, or the learner's seed): its cells for the solution
    solution: () => notebook(null),
    // the solution stays hidden until a right run, a second run or "Just show me"
    gate(...children) { morph(gateBox, h('div', null, ...children)); render(); return place(gateBox); },
  };
}

// Exercise 3.2: the learner's d_out, run through MultiHeadAttentionWrapper(num_heads=2) by the engine.
export function exercise32(ctx) {
  const prompt = predictPrompt(ctx.learn, { id: 'ex3.2', kind: 'number', tolerance: 0, testid: 'exercise-3.2', tag: t('exercises.tag32'),
    question: t('exercises.whichOutMakes') });
  const wrapperDims = (d_out) => {
    const st = ctx.state, rows = inputRows(st);
    const answer = JSON.parse(ctx.engine.evalRequest(JSON.stringify({ op: 'mha_wrapper', seed: seedFor(st, 123), x: [rows, rows], d_out,
      context_length: st.tokens, dropout: 0, num_heads: 2 })));
    return answer.shape[2];
  };
  const okDOut = (a) => Number.isInteger(a) && a >= 1 && a <= 16;
  return {
    prompt,
    update(r) {
      const book = r('ex3.2/context_vecs');   // the engine's run at d_out = 1
      const expected = !book.error && book.shape[2] === 2 ? 1 : null;
      prompt.update({ expected, expectedText: t('exercises.outEachHeadsGives', { expected, expected2: expected }),
        judge: (a) => okDOut(a) && wrapperDims(a) === 2,
        why: (a) => (okDOut(a) ? t('exercises.withOutEngineContext', { a, p2: wrapperDims(a), a2: a })
          : t('exercises.outMustBeWhole', { a })) });
    },
  };
}

// 2360064 -> '2,360,064', as toLocaleString('en-US') writes an integer, without Intl: its first call
// loads the locale's number data, 50-75 ms with the CPU throttled 4× (a long task at load).
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// Exercise 3.3: GPT-2 small's MultiHeadAttention parameter count, predicted before its print.
export function exercise33(ctx) {
  const prompt = predictPrompt(ctx.learn, { id: 'ex3.3', kind: 'number', tolerance: 0, decimals: 0, testid: 'exercise-3.3', tag: t('exercises.tag33'),
    question: t('exercises.howManyParametersDoes') });
  return {
    prompt,
    update(r) {
      const n = r('ex3.3/num_params').values[0];
      const d = 768, parts = { 'W_query, W_key and W_value': 3 * d * d, 'out_proj.weight': d * d, 'out_proj.bias': d };
      prompt.update({ expected: n, expectedText: grouped(n),
        why: (a) => {
          const missing = Object.entries(parts).find(([, k]) => a === n - k);
          return missing ? t('exercises.thatLeavesOut', { p1: missing[0], p2: grouped(missing[1]) }) : t('exercises.countEachOutWeight', { p1: grouped(d * d), d });
        } });
    },
  };
}
