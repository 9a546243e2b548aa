// The chapter's exercises, live and checked by the engine on the learner's inputs and seeds:
// 3.1 (assign sa_v2's weights to sa_v1: the engine runs the learner's assignment and compares the two
// prints), 3.2 (the d_out that gives 2-dimensional context vectors: the engine runs the wrapper with it)
// and 3.3 (GPT-2 small's parameter count, before it is printed).
import { h, uid, place, morph, fixed4 } from '../dom.js';
import { seedFor, inputRows } from '../inputs.js';
import { predictPrompt } from './prompt.js';

const SLOTS = ['W_query', 'W_key', 'W_value'];
const CHOICES = SLOTS.flatMap((s) => [`${s}.weight`, `${s}.weight.T`]);
const SOLUTION = SLOTS.map((s) => `${s}.weight.T`);   // the book's; the engine confirms it on every update

// Exercise 3.1: three selects, a Run button, the learner's sa_v1 print beside the verdict.
export function exercise31(ctx) {
  const hub = ctx.learn, id = 'ex3.1';
  hub.register(id);
  const selects = SLOTS.map((slot) => {
    const sel = h('select', { id: uid(`ex31-${slot}`), 'data-slot': slot }, CHOICES.map((c) => h('option', { value: c, text: `sa_v2.${c}` })));
    sel.value = `${slot}.weight`;   // the tempting first guess: the weight as nn.Linear stores it
    return sel;
  });
  const out = h('pre', { class: 'out', 'data-testid': 'exercise-output', hidden: true });
  const feedback = h('p', { class: 'feedback', role: 'status', 'data-testid': 'exercise-feedback', hidden: true });
  const run = h('button', { type: 'button', 'data-testid': 'exercise-check', text: 'Run sa_v1(inputs)', onclick: () => check() });
  const el = hub.enabled ? h('div', { class: 'exercise', 'data-testid': 'exercise-3.1', 'data-exercise': id, 'data-answer-kind': 'choice' },
    h('p', { class: 'question' }, h('span', { class: 'predict-tag', text: 'Exercise 3.1: ' }), 'give sa_v1 the weights of sa_v2 so that both print the same tensor. Choose what each parameter gets:'),
    h('div', { class: 'ex31-grid' }, selects.map((sel) => h('p', null, h('label', { for: sel.id }, h('code', { text: `sa_v1.${sel.dataset.slot} = torch.nn.Parameter(` })), sel, h('code', { text: ')' })))),
    h('div', { class: 'controls' }, run), out, feedback) : null;
  const gateBox = h('div', { class: 'gated', 'data-gated-by': id });

  const chosen = () => Object.fromEntries(SLOTS.map((s, k) => [s, selects[k].value]));
  // the engine runs sa_v1 with the learner's choice; right when it prints sa_v2's tensor to the last digit
  function verdict(choice) {
    const D = ctx.data('classes', { ex3_1: choice });
    const mine = D.get('ex3.1/chosen'), v2 = D.get('3.4.2/sa_v2');
    if (mine.error) return { correct: false, mine, text: `sa_v1(inputs) fails: ${mine.error}. nn.Linear stores its weight as (d_out, d_in); x @ W needs (d_in, d_out).` };
    const same = !v2.error && mine.print === v2.print && mine.values.every((v, i) => v === v2.values[i]);
    if (same) return { correct: true, mine, text: 'Right: sa_v1 now prints exactly sa_v2’s tensor, every value to the last digit.' };
    let worst = 0;
    mine.values.forEach((v, i) => { if (Math.abs(v - v2.values[i]) > Math.abs(mine.values[worst] - v2.values[worst])) worst = i; });
    const cols = mine.shape[1], swapped = SLOTS.filter((s) => !choice[s].startsWith(s));
    return { correct: false, mine, text: `Not the same: row ${Math.floor(worst / cols) + 1}, column ${worst % cols + 1} is ${fixed4(mine.values[worst])} here but ${fixed4(v2.values[worst])} in sa_v2’s output.${swapped.length ? ` ${swapped.join(' and ')} got another layer’s weights.` : ' A square weight runs untransposed, but computes xWᵀ’s transpose: transpose it.'}` };
  }
  function check() {
    const choice = chosen();
    const v = verdict(choice);
    hub.record(id, { answer: choice, correct: v.correct });
    hub.dispatch({ exercise: id, kind: 'choice', answer: SLOTS.map((s) => choice[s]).join(', '), expected: SOLUTION.join(', '), correct: v.correct, tolerance: null });
    render();
  }
  function render() {
    const saved = hub.progress.get(id);
    gateBox.hidden = hub.enabled && !saved;
    if (!el) return;
    if (!saved) { out.hidden = true; feedback.hidden = true; feedback.removeAttribute('data-correct'); return; }
    SLOTS.forEach((s, k) => { if (CHOICES.includes(saved.answer[s])) selects[k].value = saved.answer[s]; });
    const v = verdict(saved.answer);   // the current inputs: the verdict follows an edit
    out.hidden = false;
    out.textContent = `print(sa_v1(inputs))\n${v.mine.error ? `Error: ${v.mine.error}` : v.mine.line}`;
    feedback.hidden = false;
    feedback.setAttribute('data-correct', String(v.correct));
    feedback.setAttribute('data-expected', SOLUTION.join(', '));
    feedback.className = `feedback ${v.correct ? 'right' : 'wrong'}`;
    feedback.textContent = v.correct ? v.text : `${v.text} Change your choice and run it again; the book’s answer is below.`;
  }
  hub.progress.onChange(render);
  return {
    placed: () => (el ? place(el) : null),
    update: render,
    // the book's solution stays hidden until the learner has run an answer
    gate(...children) { morph(gateBox, h('div', null, ...children)); render(); return place(gateBox); },
  };
}

// Exercise 3.2: the learner's d_out, run through MultiHeadAttentionWrapper(num_heads=2) by the engine.
export function exercise32(ctx) {
  const prompt = predictPrompt(ctx.learn, { id: 'ex3.2', kind: 'number', tolerance: 0, testid: 'exercise-3.2', tag: 'Exercise 3.2: ',
    question: 'which d_out makes MultiHeadAttentionWrapper(d_in, d_out, context_length, 0.0, num_heads=2) return 2-dimensional context vectors?' });
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
      prompt.update({ expected, expectedText: `d_out = ${expected}: each of the 2 heads gives ${expected} dimension${expected === 1 ? '' : 's'} and the wrapper concatenates them`,
        judge: (a) => okDOut(a) && wrapperDims(a) === 2,
        why: (a) => (okDOut(a) ? `With d_out = ${a} the engine’s context vectors have ${wrapperDims(a)} dimensions: the 2 heads’ outputs are concatenated, ${a} each.`
          : `d_out must be a whole number from 1 to 16, so ${a} cannot be run.`) });
    },
  };
}

// 2360064 -> '2,360,064', as toLocaleString('en-US') writes an integer, without Intl: its first call
// loads the locale's number data, 50-75 ms with the CPU throttled 4× (a long task at load).
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

// Exercise 3.3: GPT-2 small's MultiHeadAttention parameter count, predicted before its print.
export function exercise33(ctx) {
  const prompt = predictPrompt(ctx.learn, { id: 'ex3.3', kind: 'number', tolerance: 0, decimals: 0, testid: 'exercise-3.3', tag: 'Exercise 3.3: ',
    question: 'how many parameters does MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12) have? (qkv_bias=False; out_proj has a bias.)' });
  return {
    prompt,
    update(r) {
      const n = r('ex3.3/num_params').values[0];
      const d = 768, parts = { 'W_query, W_key and W_value': 3 * d * d, 'out_proj.weight': d * d, 'out_proj.bias': d };
      prompt.update({ expected: n, expectedText: grouped(n),
        why: (a) => {
          const missing = Object.entries(parts).find(([, k]) => a === n - k);
          return missing ? `That leaves out ${missing[0]} (${grouped(missing[1])}).` : `Count each d_in × d_out weight (${grouped(d * d)}): three projections and out_proj, plus out_proj’s ${d} biases.`;
        } });
    },
  };
}
