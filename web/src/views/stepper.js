// A stepper through a computation: Back / Next buttons, ← → keys, a counter and a live caption that
// writes out each step's arithmetic while its operands and result are highlighted in the views.
// Stepping back restores exactly the previous state: highlights are re-drawn from the step's own
// spec, and each step's undo() reverses its apply(). It computes nothing itself.
import { el, setText, setAttr } from './dom.js';

const TYPING = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

// stepper({steps, views, label, testid}) -> {el, stage, go(i), next(), prev(), get index, setSteps(steps),
//   refresh()}: refresh() re-draws the current step's highlights (after a linked hover replaced them)
//   steps: [{caption: text | Node | () => text or Node, highlights?: {viewName: spec for view.highlight},
//            apply?(), undo?()}]
//   views: {viewName: a view with highlight(spec) and clearHighlight()}; views named in no step's
//          highlights are left alone.
//   stage: an element for the views the steps walk through, inside the stepper, so ← → work there too.
export function stepper({ steps, views = {}, label = 'Steps', testid, onChange } = {}) {
  const prevBtn = el('button', { type: 'button', class: 'stepper-btn', 'data-testid': 'step-prev' },
    el('span', { 'aria-hidden': 'true', text: '← ' }), 'Back');
  const nextBtn = el('button', { type: 'button', class: 'stepper-btn', 'data-testid': 'step-next' },
    'Next', el('span', { 'aria-hidden': 'true', text: ' →' }));
  const count = el('span', { class: 'stepper-count' });
  const dots = el('span', { class: 'stepper-dots', 'aria-hidden': 'true' });
  const caption = el('div', { class: 'stepper-caption', 'data-testid': 'step-caption', 'aria-live': 'polite' });
  const stage = el('div', { class: 'stepper-stage' });
  const root = el('div', { class: 'stepper', role: 'group', 'aria-label': label, 'data-testid': testid },
    // buttons and caption stay in sight (sticky) while the learner scrolls through a tall stage
    el('div', { class: 'stepper-head' }, el('div', { class: 'stepper-bar' }, prevBtn, el('span', { class: 'stepper-where' }, count, dots), nextBtn), caption),
    stage);

  let list = [];
  let index = -1;   // the step on screen; -1 before the first is applied

  function show() {
    const step = list[index];
    const text = typeof step.caption === 'function' ? step.caption() : step.caption;
    if (typeof text === 'string') {
      if (caption.childNodes.length !== 1 || caption.firstChild.nodeType !== Node.TEXT_NODE) caption.replaceChildren(text);
      else setText(caption.firstChild, text);
    } else caption.replaceChildren(text);
    for (const [viewName, view] of Object.entries(views)) {
      const spec = step.highlights && step.highlights[viewName];
      if (spec) view.highlight(spec);
      else view.clearHighlight();
    }
    setText(count, `Step ${index + 1} of ${list.length}`);
    // aria-disabled, not disabled: a button that becomes disabled drops keyboard focus to <body>
    setAttr(prevBtn, 'aria-disabled', String(index === 0));
    setAttr(nextBtn, 'aria-disabled', String(index === list.length - 1));
    [...dots.children].forEach((d, i) => { if (d.classList.contains('done') !== i <= index) d.classList.toggle('done'); });
    setAttr(root, 'data-step', String(index));
    if (onChange) onChange(index);
  }

  // Moves to step i one step at a time, so every apply() and undo() runs in order.
  function go(i) {
    const target = Math.max(0, Math.min(list.length - 1, i));
    if (target === index) return;
    while (index < target) { index++; if (list[index].apply) list[index].apply(); }
    while (index > target) { if (list[index].undo) list[index].undo(); index--; }
    show();
  }

  // New steps (the inputs changed): undo the current ones, then stand on the same step number.
  function setSteps(next) {
    if (!next || next.length === 0) throw new Error('a stepper needs at least one step');
    const at = Math.max(0, index);
    while (index >= 0) { if (list[index].undo) list[index].undo(); index--; }
    list = next;
    if (dots.children.length !== list.length) dots.replaceChildren(...list.map(() => el('span', { class: 'stepper-dot' })));
    go(Math.min(at, list.length - 1));
  }

  prevBtn.addEventListener('click', () => go(index - 1));
  nextBtn.addEventListener('click', () => go(index + 1));
  root.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || TYPING.has(e.target.tagName)) return;
    const to = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: list.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });

  setSteps(steps);
  return { el: root, stage, go, next: () => go(index + 1), prev: () => go(index - 1), setSteps, refresh: show, get index() { return index; } };
}
