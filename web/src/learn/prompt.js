// Predict, then reveal: a question in the reading path, answered (a number within a stated tolerance,
// or one of a few choices) or skipped with "Just show me", then graded against what the engine
// computed for the current inputs. The section hands the expected value to update() on every edit,
// so the grade and the revealed value follow the inputs; nothing here knows a number.
// Two tries, the first counts: a wrong first answer gets a hint that names the likely mistake without
// the value, and the value (and everything the section gates behind the question) comes only after the
// second answer or "Just show me". A verdict is kept as given: an edit of the inputs never regrades it.
import { h, uid, morph, place, setText } from '../dom.js';
import { renderMath } from '../math.js';
import { setAttr } from '../views/nodes.js';
import { scrollIntoViewSettled } from '../scheduler.js';
import { parseAnswerNumber } from './number.js';
import { MAX_TRIES } from './progress.js';
import { t } from '../i18n/index.js';

export { MAX_TRIES };

// Attribute changes only where they differ: an update that changes nothing touches no node.
const toggleAttr = (el, name, on) => { if (el.hasAttribute(name) !== on) el.toggleAttribute(name, on); };

// A stored entry that holds an answer or a skip (an entry may hold other state, e.g. the bug hunt's rounds).
export const answeredEntry = (e) => (e && (e.skipped || (e.answer !== undefined && e.answer !== null)) ? e : null);
// An entry whose answer may be shown: right, out of tries, or skipped. (An entry from before the two
// tries, without attempts, counts as one try.)
export const revealedEntry = (e) => {
  const a = answeredEntry(e);
  return a && (a.skipped || a.correct === true || (a.attempts ?? 1) >= MAX_TRIES) ? a : null;
};
// Right on the first try (an entry without firstCorrect is from before the two tries: its verdict).
export const firstTryRight = (e) => !!answeredEntry(e) && (e.firstCorrect ?? (e.correct === true && !e.skipped)) === true;

// hub: the element's learn hub (index.js). id: a stable data-exercise id. kind: 'number' | 'choice'.
// question: text or nodes. tolerance (numbers): the largest accepted |answer − expected|.
// onAnswer(value, correct, attempt): after each answer is recorded (value null: a skip).
// Returns {el, update(spec), gate(...children), ...}; when exercises are off, el is null and gates are open.
export function predictPrompt(hub, { id, kind, question, tolerance = 0, decimals = 4, testid = 'predict', tag = t('prompt.tag'), onAnswer = null }) {
  hub.register(id);
  let spec = null;   // the current expected value, from the section's last update
  const gates = new Map();   // key -> the box it holds back
  const guarded = new Set();   // nodes the section built itself, hidden until the answer shows
  const feedback = h('p', { class: 'feedback', role: 'status', 'data-testid': 'predict-feedback', tabindex: '-1', hidden: true });
  const error = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const options = h('div', { class: 'choices', role: 'group', 'aria-label': t('prompt.choices') });
  let input = null, check = null;
  const skip = h('button', { type: 'button', class: 'secondary', 'data-testid': 'predict-skip', text: t('prompt.skip'), onclick: () => answer(null) });
  const questionId = uid(`q-${id}`);
  const questionBox = h('span', null, question);
  let controls;
  if (kind === 'number') {
    // No <form>: a sandboxed frame without allow-forms blocks form submission, and with it a submit
    // button's click. Check is a plain button, and Enter in the field checks too.
    input = h('input', { type: 'text', inputmode: 'decimal', class: 'num-input answer-input', 'aria-labelledby': questionId, 'data-testid': 'predict-input', autocomplete: 'off',
      onkeydown: (e) => { if (e.key === 'Enter' && !e.isComposing) { e.preventDefault(); checkTyped(); } } });
    check = h('button', { type: 'button', 'data-testid': 'predict-check', text: t('prompt.check'), onclick: () => checkTyped() });
    controls = h('div', { class: 'controls' },
      input, check,
      h('span', { class: 'tolerance', 'data-testid': 'predict-tolerance', text: tolerance === 0 ? t('prompt.toleranceNone') : t('prompt.tolerance', { tolerance }) }), skip);
  } else {
    controls = h('div', { class: 'controls' }, options, skip);
  }
  const triesNote = h('p', { class: 'hint tries', 'data-testid': 'predict-tries' });
  const el = hub.enabled ? h('div', { class: 'predict', 'data-testid': testid, 'data-exercise': id, 'data-answer-kind': kind, role: 'group', 'aria-labelledby': questionId },
    h('p', { class: 'question', id: questionId }, h('span', { class: 'predict-tag', text: tag }), questionBox), controls, triesNote, error, feedback) : null;

  function checkTyped() {
    if (revealed()) return;
    const parsed = parseAnswerNumber(input.value);
    if (parsed.error) {
      error.textContent = parsed.error;
      error.hidden = false; input.setAttribute('aria-invalid', 'true'); input.focus();
      return;
    }
    answer(parsed.value);
  }
  // The grade of an answer against the current spec (the section's expected value for these inputs).
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
  // What the spec says of a wrong answer: {hint} without the value (the first try's), {why} with it
  // (said once the answer shows). A number is matched against the spec's known mistakes, within the
  // tolerance, the closest first; a mistake that equals the answer is no mistake and is left out.
  function diagnose(value) {
    if (!spec || value === null) return { hint: '', why: '' };
    let mistake = null;
    if (kind === 'number' && spec.mistakes) {
      let best = Infinity;
      for (const m of spec.mistakes) {
        if (!Number.isFinite(m.value) || Math.abs(m.value - spec.expected) <= tolerance) continue;
        const d = Math.abs(value - m.value);
        if (d <= Math.max(tolerance, 1e-9) && d < best) { best = d; mistake = m; }
      }
    }
    const hint = mistake ? mistake.hint : spec.hint ? spec.hint(value) : '';
    const why = mistake ? (mistake.why || mistake.hint) : spec.why ? spec.why(value) : '';
    return { hint: hint || '', why: why || '', mistake: mistake?.name ?? null };
  }
  const specKey = () => (spec ? `${[].concat(spec.expected).join(',')}\u0000${spec.expectedText ?? ''}` : '');
  // What this visit knows of the latest answer: the inputs it was graded for and what was said then
  // (a reload forgets it: then a stored verdict that the current inputs would not give says so).
  let graded = null;   // {key, hint, why, expectedText}

  // value: the learner's answer, or null for a skip; quiet: not the learner's own press (leave the focus)
  function answer(value, quiet = false) {
    error.hidden = true; input?.removeAttribute('aria-invalid');
    if (!spec || revealed()) return;
    const before = answeredEntry(hub.progress.get(id));
    const prior = before && !before.skipped ? (before.attempts ?? 1) : 0;
    let entry;
    if (value === null) {
      entry = { answer: prior ? before.answer : null, correct: prior ? before.correct === true : false, skipped: true, attempts: prior, firstCorrect: prior ? before.firstCorrect ?? before.correct === true : false };
    } else {
      const correct = grade(value) === true, attempt = prior + 1;
      entry = { answer: value, correct, skipped: false, attempts: attempt, firstCorrect: attempt === 1 ? correct : before.firstCorrect ?? false };
      const said = diagnose(value);
      graded = { key: specKey(), hint: said.hint, why: said.why, expectedText: spec.expectedText ?? String(spec.expected) };
    }
    hub.record(id, entry);
    onAnswer?.(value, value === null ? null : entry.correct, entry.attempts);
    if (value !== null) {
      hub.dispatch({ exercise: id, kind, answer: value, expected: spec.expected, correct: entry.correct, tolerance: kind === 'number' ? tolerance : null,
        attempt: entry.attempts, firstTryCorrect: entry.firstCorrect });
    }
    render();
    if (quiet || !el) return;
    // the pressed control may now be disabled: the focus goes to what was said (or back to the field)
    if (revealed() || !input) feedback.focus({ preventScroll: true });
    else { input.focus(); input.select(); }
  }

  function revealed() { return !hub.enabled || !!revealedEntry(hub.progress.get(id)); }

  // The feedback for the stored answer.
  function render() {
    const saved = answeredEntry(hub.progress.get(id));
    const open = !hub.enabled || !!revealedEntry(saved);
    for (const g of [...gates.values(), ...guarded]) if (g.hidden === open) g.hidden = !open;
    if (!el || !spec) return;
    setAttr(el, 'data-revealed', String(open));
    const triedChoice = saved && !saved.skipped ? saved.answer : null;
    for (const b of options.querySelectorAll('button')) {
      setAttr(b, 'aria-pressed', String(!!saved && triedChoice === b.dataset.choice));
      toggleAttr(b, 'disabled', open || triedChoice === b.dataset.choice);
    }
    toggleAttr(skip, 'hidden', open);
    if (input) { toggleAttr(input, 'readonly', open); toggleAttr(check, 'disabled', open); toggleAttr(check, 'hidden', open); }
    toggleAttr(triesNote, 'hidden', open);
    // what the question holds back is not on the page yet: say where it went
    setText(triesNote, gates.size || guarded.size ? t('prompt.triesHeld') : t('prompt.tries'));
    if (!saved) {   // never answered, or the progress was reset (then the old answer goes too)
      toggleAttr(feedback, 'hidden', true);
      for (const a of ['data-correct', 'data-expected', 'data-attempt', 'data-first-correct']) feedback.removeAttribute(a);
      if (input && graded) input.value = '';
      graded = null;
      return;
    }
    const current = spec.expectedText ?? String(spec.expected);
    // graded for other inputs: what this visit saw, else a stored verdict the current inputs would not give
    const stale = saved.answer !== null && (graded ? graded.key !== specKey() : grade(saved.answer) !== saved.correct);
    toggleAttr(feedback, 'hidden', false);
    setAttr(feedback, 'data-attempt', String(saved.attempts ?? 1));
    setAttr(feedback, 'data-first-correct', String(firstTryRight(saved)));
    toggleAttr(feedback, 'data-stale', stale);
    if (open) setAttr(feedback, 'data-expected', [].concat(spec.expected).join(','));
    else feedback.removeAttribute('data-expected');   // not even in an attribute before it shows
    if (kind === 'number' && input && input.value === '' && saved.answer !== null) input.value = String(saved.answer);
    const yours = saved.answer === null ? '' : kind === 'number' ? String(saved.answer) : (spec.options.find((o) => o.key === saved.answer)?.label ?? saved.answer);
    const said = graded && !stale ? graded : diagnose(saved.answer);
    const earlier = stale ? t('prompt.earlier') : '';
    let text;
    if (saved.skipped) {
      feedback.removeAttribute('data-correct');
      setAttr(feedback, 'class', 'feedback');
      text = saved.answer !== null ? t('prompt.skippedAfter', { yours, current }) : t('prompt.skipped', { current });
    } else {
      setAttr(feedback, 'data-correct', String(saved.correct));
      setAttr(feedback, 'class', `feedback ${saved.correct ? 'right' : 'wrong'}`);
      if (!open) {   // a wrong first try: the hint, never the value
        text = t('prompt.notYet', { earlier, yours, hint: stale ? t('prompt.tryCurrent') : said.hint || genericHint(saved.answer) });
      } else if (saved.correct) {
        const first = (saved.attempts ?? 1) === 1;
        const lead = `${first ? t('prompt.right') : t('prompt.rightSecond')}${earlier}`;
        if (kind === 'number') text = stale ? t('prompt.rightNumberStale', { lead, yours, current }) : t('prompt.rightNumber', { lead, yours, current });
        else text = stale ? t('prompt.rightChoiceStale', { lead, yours, current }) : t('prompt.rightChoice', { lead, current });
      } else {
        text = stale ? t('prompt.wrongStale', { earlier, yours, current }) : t('prompt.wrong', { earlier, yours, current, why: said.why ?? '' });
      }
    }
    if (open && !saved.skipped && (saved.attempts ?? 1) > 1) text += t('prompt.onlyFirst');
    setText(feedback, `${text.trim()}${open && spec.explain ? ` ${spec.explain}` : ''}`.replace(/\s+/g, ' ').trim());
  }
  // A number's hint without a known mistake: which way it is off, never by how much.
  function genericHint(value) {
    if (kind !== 'number' || !Number.isFinite(spec.expected)) return t('prompt.lookAgain');
    const high = value > spec.expected;
    if (tolerance) return high ? t('prompt.tooHighBy', { tolerance }) : t('prompt.tooLowBy', { tolerance });
    return high ? t('prompt.tooHigh') : t('prompt.tooLow');
  }
  hub.progress.onChange(render);

  return {
    el,
    // spec: {expected (number, or a choice key or keys), expectedText?, options?: [{key, label, attributes?}] (choice),
    //        hint?(answer) -> the first wrong try's sentence, naming the mistake and never the value;
    //        why?(answer) -> the sentence said with the value once it shows, from the numbers;
    //        mistakes?: [{name, value, hint, why?}] (numbers): known wrong values, matched within the tolerance;
    //        explain?: said with the answer; judge?(answer) -> true/false: the engine's verdict, when right is not "near expected"}
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
    // Content the prompt's answer gives away: hidden until the learner answers right, runs out of tries,
    // or skips. Returns a stand-in for show()'s tree; its box keeps its place and gets the new children
    // on every call. A prompt may hold back several places: gate.at(key, ...children).
    gate(...children) { return gateAt('main', children); },
    gateAt(key, ...children) { return gateAt(key, children); },
    // A node the section keeps itself (built once): hidden until the answer shows.
    guard(node) { guarded.add(node); render(); return node; },
    placed: () => (el ? place(el) : null),
    // true once the answer may show (always, with exercises off)
    revealed,
    // true once answered or skipped, right or wrong
    answered: () => !hub.enabled || !!answeredEntry(hub.progress.get(id)),
    // Shown without an answer, as "Just show me" does (e.g. the learner moved the slider the question
    // asks about): after a first try, the first try still counts.
    giveUp() { if (hub.enabled && !revealed()) answer(null, true); },
    // A view that would show the answer waits for it (the stepper before ω₂₂): the question comes
    // into sight with the focus, and says why.
    hold(why) {
      if (!el) return;
      error.textContent = why; error.hidden = false;
      scrollIntoViewSettled(el, 'center');
      (input || options.querySelector('button:not([disabled])'))?.focus({ preventScroll: true });
    },
    // the question's words, when they quote numbers of the inputs (only a change is written)
    setQuestion(text) { if (questionBox.textContent !== text) questionBox.textContent = text; },
  };

  function gateAt(key, children) {
    let box = gates.get(key);
    if (!box) { box = h('div', { class: 'gated', 'data-gated-by': id }); gates.set(key, box); }
    morph(box, h('div', null, ...children));
    renderMath(box);
    render();
    return place(box);
  }
}
