// A stepper through a computation: Back / Next buttons, ← → keys, a counter and a live caption that
// writes out each step's arithmetic while its operands and result are highlighted in the views.
// Stepping back restores exactly the previous state: highlights are re-drawn from the step's own
// spec, and each step's undo() reverses its apply(). It computes nothing itself.
// A step may build its views up (reveals: what it computes; the rest is drawn pending), draw itself
// compactly beside the caption (focus), and be gated (id + a 'stepgate' listener, e.g. a prediction).
import { el, setText, setAttr } from './nodes.js';
import { say } from './words.js';

const TYPING = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

// stepper({steps, views, label, testid}) -> {el, stage, go(i), next(), prev(), get index, get steps,
//   setSteps(steps), refresh(), allow(id), forget(id)}: refresh() re-draws the current step's
//   highlights (after a linked hover replaced them); allow/forget open or close a gated step.
//   steps: [{caption: text | Node | () => text or Node, highlights?: {viewName: spec for view.highlight},
//            reveals?: {viewName: spec of the cells this step computes}, focus?: Node | () => Node,
//            id?: a name for the step, apply?(), undo?()}]
//   views: {viewName: a view with highlight(spec) and clearHighlight()}; views named in no step's
//          highlights are left alone. A view named in some step's reveals (it has reveal(spec)) shows
//          only the cells revealed by the steps up to the current one, so stepping back re-hides them.
// Events on el (bubbling, composed): 'stepchange' {index, id} after a step is shown; 'stepgate'
//   {index, id, proceed()} before moving onto a step with an id (cancelable): a listener that calls
//   preventDefault() holds the stepper on the step before, and calling detail.proceed() later (say,
//   once the learner has made a prediction) moves on to that step and lets it through from then on.
//   stage: an element for the views the steps walk through, inside the stepper, so ← → work there too.
// On paper every drawing is whole: while the page prints (beforeprint, or print media emulated), each
// stepper shows every value its steps would reveal, and its own step again afterwards. Nothing is applied
// or announced: the learner's step, caption and answers stay.
const printable = new Set();          // WeakRefs of the steppers' roots (a stepper dropped with its page goes)
const printHooksOf = new WeakMap();   // root -> {revealAll, revealSteps}
let printWatched = false;
function printing(on) {
  for (const ref of printable) {
    const root = ref.deref();
    if (!root) { printable.delete(ref); continue; }
    if (!root.isConnected) continue;
    const hooks = printHooksOf.get(root);
    if (on) hooks.revealAll(); else hooks.revealSteps();
  }
}
function watchPrint(root, hooks) {
  printHooksOf.set(root, hooks);
  printable.add(new WeakRef(root));
  if (printWatched || typeof matchMedia !== 'function' || typeof addEventListener !== 'function') return;
  printWatched = true;
  matchMedia('print').addEventListener('change', (e) => printing(e.matches));
  addEventListener('beforeprint', () => printing(true));
  addEventListener('afterprint', () => printing(false));
}

export function stepper({ steps, views = {}, label = say('views.stepper.label'), testid, onChange } = {}) {
  const prevBtn = el('button', { type: 'button', class: 'stepper-btn', 'data-testid': 'step-prev' },
    el('span', { 'aria-hidden': 'true', text: '← ' }), say('views.stepper.back'));
  const nextBtn = el('button', { type: 'button', class: 'stepper-btn', 'data-testid': 'step-next' },
    say('views.stepper.next'), el('span', { 'aria-hidden': 'true', text: ' →' }));
  const count = el('span', { class: 'stepper-count' });
  const dots = el('span', { class: 'stepper-dots', 'aria-hidden': 'true' });
  const caption = el('div', { class: 'stepper-caption', 'data-testid': 'step-caption', 'aria-live': 'polite' });
  const focusBox = el('div', { class: 'stepper-focus', 'data-testid': 'step-focus', hidden: true });
  const stage = el('div', { class: 'stepper-stage' });
  const root = el('div', { class: 'stepper', role: 'group', 'aria-label': label, 'data-testid': testid },
    // buttons and caption stay in sight (sticky) while the learner scrolls through a tall stage
    el('div', { class: 'stepper-head' }, el('div', { class: 'stepper-bar' }, prevBtn, el('span', { class: 'stepper-where' }, count, dots), nextBtn), caption, focusBox),
    stage);

  let list = [];
  let index = -1;   // the step on screen; -1 before the first is applied
  let revealed = [];   // the names of the views that some step reveals
  let announced = null;   // the step the last 'stepchange' was for
  const passed = new Set();   // the ids of gated steps let through (proceed())

  function show() {
    const step = list[index];
    const text = typeof step.caption === 'function' ? step.caption() : step.caption;
    if (typeof text === 'string') {
      if (caption.childNodes.length !== 1 || caption.firstChild.nodeType !== Node.TEXT_NODE) caption.replaceChildren(text);
      else setText(caption.firstChild, text);
    } else caption.replaceChildren(text);
    if (step !== announced) {   // (a refresh after a hover shows the same step: its drawing stays)
      const focus = typeof step.focus === 'function' ? step.focus() : step.focus;
      if (focus) focusBox.replaceChildren(focus); else focusBox.replaceChildren();
      focusBox.hidden = !focus;
    }
    revealSteps();
    for (const [viewName, view] of Object.entries(views)) {
      const spec = step.highlights && step.highlights[viewName];
      if (spec) view.highlight(spec);
      else view.clearHighlight();
    }
    setText(count, say('views.stepper.count', { n: index + 1, total: list.length }));
    // aria-disabled, not disabled: a button that becomes disabled drops keyboard focus to <body>
    setAttr(prevBtn, 'aria-disabled', String(index === 0));
    setAttr(nextBtn, 'aria-disabled', String(index === list.length - 1));
    [...dots.children].forEach((d, i) => { if (d.classList.contains('done') !== i <= index) d.classList.toggle('done'); });
    setAttr(root, 'data-step', String(index));
    if (onChange) onChange(index);
    if (step !== announced) root.dispatchEvent(new CustomEvent('stepchange', { bubbles: true, composed: true, detail: { index, id: step.id ?? null } }));
    announced = step;
  }

  // what the steps up to this one computed: shown; the rest pending (on paper: all, see printing)
  function revealSteps() {
    if (index < 0) return;
    const whole = typeof matchMedia === 'function' && matchMedia('print').matches;
    for (const viewName of revealed) {
      if (whole) { views[viewName].reveal(null); continue; }
      const spec = { rows: [], cols: [], cells: [] };
      for (let k = 0; k <= index; k++) {
        const r = list[k].reveals && list[k].reveals[viewName];
        if (!r) continue;
        spec.rows.push(...(r.rows || [])); spec.cols.push(...(r.cols || [])); spec.cells.push(...(r.cells || []));
      }
      views[viewName].reveal(spec);
    }
  }
  watchPrint(root, { revealAll: () => { for (const viewName of revealed) views[viewName].reveal(null); }, revealSteps });

  // May the stepper move onto step k? Asks the 'stepgate' listeners when the step has an id.
  function mayEnter(k) {
    const id = list[k].id;
    if (id == null || passed.has(id)) return true;
    const steps = list;
    const proceed = () => { if (list !== steps) return; passed.add(id); go(k); };
    return root.dispatchEvent(new CustomEvent('stepgate', { bubbles: true, composed: true, cancelable: true, detail: { index: k, id, proceed } }));
  }

  // Moves to step i one step at a time, so every apply() and undo() runs in order.
  function go(i) {
    const target = Math.max(0, Math.min(list.length - 1, i));
    if (target === index) return;
    const from = index;
    while (index < target && mayEnter(index + 1)) { index++; if (list[index].apply) list[index].apply(); }
    if (target > from && index === from) return;   // held by a gate: nothing changed
    while (index > target) { if (list[index].undo) list[index].undo(); index--; }
    show();
  }

  // New steps (the inputs changed): undo the current ones, then stand on the same step number.
  function setSteps(next) {
    if (!next || next.length === 0) throw new Error('a stepper needs at least one step');
    const at = Math.max(0, index);
    while (index >= 0) { if (list[index].undo) list[index].undo(); index--; }
    list = next;
    revealed = [...new Set(list.flatMap((s) => Object.keys(s.reveals || {})))].filter((name) => views[name] && views[name].reveal);
    if (dots.children.length !== list.length) dots.replaceChildren(...list.map(() => el('span', { class: 'stepper-dot' })));
    go(Math.min(at, list.length - 1));
  }

  // 'stepgo' {index}: a permalink's step (embed-params.js), reached one gated step at a time
  root.addEventListener('stepgo', (e) => go(e.detail.index));
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
  return { el: root, stage, go, next: () => go(index + 1), prev: () => go(index - 1), setSteps, refresh: show,
    // allow(id): the gated step with this id no longer asks (forget: it asks again)
    allow: (id) => passed.add(id), forget: (id) => passed.delete(id),
    get index() { return index; }, get steps() { return list; } };
}
