// Predict, then reveal: a question in the reading path, answered (a number within a stated tolerance,
// or one of a few choices) or skipped with "Just show me", then graded against what the engine
// computed for the current inputs. The section hands the expected value to update() on every edit,
// so the grade and the revealed value always follow the inputs; nothing here knows a number.
import { h, uid, morph, place, setText } from '../dom.js';
import { renderMath } from '../math.js';
import { setAttr } from '../views/nodes.js';
import { scrollIntoViewSettled } from '../scheduler.js';
import { parseAnswer } from './number.js';

// Attribute changes only where they differ: an update that changes nothing touches no node.
const toggleAttr = (el, name, on) => { if (el.hasAttribute(name) !== on) el.toggleAttribute(name, on); };

// A stored entry that holds an answer or a skip (an entry may hold other state, e.g. the bug hunt's rounds).
export const answeredEntry = (e) => (e && (e.skipped || e.answer !== undefined) ? e : null);

// hub: the element's learn hub (index.js). id: a stable data-exercise id. kind: 'number' | 'choice'.
// question: text or nodes. tolerance (numbers): the largest accepted |answer − expected|.
// Returns {el, update(spec), gate(...children)}; when exercises are off, el is null and gates are open.
export function predictPrompt(hub, { id, kind, question, tolerance = 0, decimals = 4, testid = 'predict', tag = 'Predict: ', onAnswer = null }) {
  hub.register(id);
  let spec = null;   // the current expected value, from the section's last update
  const gates = [];
  const feedback = h('p', { class: 'feedback', role: 'status', 'data-testid': 'predict-feedback', hidden: true });
  const error = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const options = h('div', { class: 'choices', role: 'group', 'aria-label': 'Choices' });
  let input = null;
  const skip = h('button', { type: 'button', class: 'secondary', 'data-testid': 'predict-skip', text: 'Just show me', onclick: () => answer(null) });
  const questionId = uid(`q-${id}`);
  const questionBox = h('span', null, question);
  let form;
  if (kind === 'number') {
    input = h('input', { type: 'text', inputmode: 'decimal', class: 'num-input answer-input', 'aria-labelledby': questionId, 'data-testid': 'predict-input', autocomplete: 'off' });
    form = h('form', { class: 'controls', onsubmit: (e) => { e.preventDefault(); check(); } },
      input, h('button', { type: 'submit', 'data-testid': 'predict-check', text: 'Check' }),
      h('span', { class: 'tolerance', 'data-testid': 'predict-tolerance', text: tolerance === 0 ? 'Tolerance: none, the exact number' : `Tolerance: ±${tolerance}` }), skip);
  } else {
    form = h('div', { class: 'controls' }, options, skip);
  }
  const el = hub.enabled ? h('div', { class: 'predict', 'data-testid': testid, 'data-exercise': id, 'data-answer-kind': kind, role: 'group', 'aria-labelledby': questionId },
    h('p', { class: 'question', id: questionId }, h('span', { class: 'predict-tag', text: tag }), questionBox), form, error, feedback) : null;

  function check() {
    const text = input.value.trim();
    const value = parseAnswer(text);   // thousands separators too: 2,360,064
    if (text === '' || !Number.isFinite(value)) {
      error.textContent = text === '' ? 'Type a number first, or press “Just show me”.' : `“${text.slice(0, 30)}” is not a number; write it with a decimal point, e.g. 0.5.`;
      error.hidden = false; input.setAttribute('aria-invalid', 'true'); input.focus();
      return;
    }
    answer(value);
  }
  let wasAnswered = false;
  const judged = new Map();   // answer -> the engine's verdict, for the current spec
  function grade(value) {
    if (value === null || !spec) return null;
    if (spec.judge) {
      if (!judged.has(value)) judged.set(value, spec.judge(value));
      return judged.get(value);
    }
    if (kind === 'number') return Math.abs(value - spec.expected) <= tolerance + 1e-12;
    return [].concat(spec.expected).includes(value);
  }
  // value: the learner's answer, or null for a skip
  function answer(value) {
    error.hidden = true; input?.removeAttribute('aria-invalid');
    if (!spec) return;
    const correct = grade(value);
    hub.record(id, value === null ? { skipped: true, answer: undefined, correct: undefined } : { answer: value, correct, skipped: false });
    onAnswer?.(value, correct);
    if (value !== null) hub.dispatch({ exercise: id, kind, answer: value, expected: spec.expected, correct, tolerance: kind === 'number' ? tolerance : null });
    render();
  }
  // The feedback for the stored answer against the current expected value.
  function render() {
    const saved = answeredEntry(hub.progress.get(id));
    const revealed = !hub.enabled || !!saved;
    for (const g of gates) if (g.hidden === revealed) g.hidden = !revealed;
    if (!el || !spec) return;
    for (const b of options.querySelectorAll('button')) setAttr(b, 'aria-pressed', String(!!saved && saved.answer === b.dataset.choice));
    if (!saved) {   // never answered, or the progress was reset (then the old answer goes too)
      toggleAttr(feedback, 'hidden', true); feedback.removeAttribute('data-correct'); feedback.removeAttribute('data-expected');
      if (input && wasAnswered) input.value = '';
      wasAnswered = false;
      return;
    }
    wasAnswered = true;
    const expectedText = spec.expectedText ?? String(spec.expected);
    toggleAttr(feedback, 'hidden', false);
    setAttr(feedback, 'data-expected', [].concat(spec.expected).join(','));
    if (saved.skipped) {
      feedback.removeAttribute('data-correct');
      setAttr(feedback, 'class', 'feedback');
      setText(feedback, `The answer: ${expectedText}. ${spec.explain || ''}`.trim());
      return;
    }
    const correct = grade(saved.answer);
    setAttr(feedback, 'data-correct', String(correct));
    setAttr(feedback, 'class', `feedback ${correct ? 'right' : 'wrong'}`);
    if (kind === 'number' && input && input.value === '') input.value = String(saved.answer);
    const yours = kind === 'number' ? String(saved.answer) : (spec.options.find((o) => o.key === saved.answer)?.label ?? saved.answer);
    let text;
    if (correct) text = kind === 'number' ? `Right: you said ${yours}; the engine computes ${expectedText}.` : `Right: ${expectedText}.`;
    else if (kind === 'number') {
      const off = saved.answer - spec.expected;
      if (spec.judge) text = `Not quite: you said ${yours}; the answer is ${expectedText}. ${spec.why ? spec.why(saved.answer) : ''}`.trim();
      else {
      const rel = spec.expected !== 0 ? ` (${Math.abs(off / spec.expected * 100).toFixed(0)}% ${off > 0 ? 'too high' : 'too low'})` : ` (${off > 0 ? 'too high' : 'too low'})`;
      text = `Not quite: you said ${yours}, the engine computes ${expectedText}; off by ${Math.abs(off).toFixed(decimals)}${rel}, ${tolerance === 0 ? 'and it must be exact' : `more than ±${tolerance}`}.${spec.why ? ' ' + spec.why(saved.answer) : ''}`;
      }
    } else text = `Not quite: you chose ${yours}, the answer is ${expectedText}. ${spec.why ? spec.why(saved.answer) : ''}`.trim();
    setText(feedback, `${text} ${spec.explain || ''}`.trim());
  }
  hub.progress.onChange(render);

  return {
    el,
    // spec: {expected (number, or a choice key or keys), expectedText?, options?: [{key, label, attributes?}] (choice),
    //        why?(answer) -> a sentence on a wrong answer, from the numbers; explain?: said with the answer;
    //        judge?(answer) -> true/false: the engine's verdict, when right is not "near expected"}
    update(next) {
      spec = next;
      judged.clear();
      if (kind === 'choice' && el) {
        const want = next.options.map((o) => `${o.key}\u0000${o.label}`).join('\u0001');
        if (options.dataset.options !== want) {
          options.dataset.options = want;
          options.replaceChildren(...next.options.map((o) => h('button', { type: 'button', class: 'choice', 'data-choice': o.key, 'data-testid': 'predict-choice', ...o.attributes, text: o.label, onclick: () => answer(o.key) })));
        }
      }
      render();
    },
    // Content the prompt's answer gives away: hidden until the learner answers or skips. Returns a
    // stand-in for show()'s tree; its box keeps its place and gets the new children on every call.
    gate(...children) {
      let box = gates[0];
      if (!box) { box = h('div', { class: 'gated', 'data-gated-by': id }); gates.push(box); }
      morph(box, h('div', null, ...children));
      renderMath(box);
      render();
      return place(box);
    },
    placed: () => (el ? place(el) : null),
    // true once answered or skipped (always, with exercises off): what the answer gives away may show
    revealed: () => !hub.enabled || !!answeredEntry(hub.progress.get(id)),
    // A view that would show the answer waits for it (the stepper before ω₂₂): the question comes
    // into sight with the focus, and says why.
    hold(why) {
      if (!el) return;
      error.textContent = why; error.hidden = false;
      scrollIntoViewSettled(el, 'center');
      (input || options.querySelector('button'))?.focus({ preventScroll: true });
    },
    // the question's words, when they quote numbers of the inputs (only a change is written)
    setQuestion(text) { if (questionBox.textContent !== text) questionBox.textContent = text; },
  };
}
