// Building blocks the sections share: the section frame, Python
// literals of the learner's inputs, and outputs as the engine printed them.
import { h, uid, pythonCode, morphWhenSeen } from '../dom.js';
import { onResize } from '../views/nodes.js';
import { measureAfterFrame, skipWhileOffScreen } from '../scheduler.js';
import { engineSentence } from '../i18n/index.js';

export function sectionFrame(id, heading, intro) {
  const headingId = uid(id);
  const body = h('div', { class: 'section-body' });
  const el = h('section', { class: 'section', id: `al-${id}`, tabindex: '-1', 'aria-labelledby': headingId, 'data-section': id },
    h('h2', { id: headingId, text: heading }), intro || null, body);
  skipWhileOffScreen(el);   // element.css gives sections content-visibility: auto
  return { el, body };
}

// Python text for the learner's inputs (the engine's shortest texts), the words as comments, as the book writes them.
export function inputsPython(inputs, words) {
  const [tokens, d_in] = inputs.shape;
  const rows = Array.from({ length: tokens }, (_, i) => {
    const vals = inputs.values.slice(i * d_in, (i + 1) * d_in).map(String);
    const open = i === 0 ? '[[' : ' [';
    const close = i === tokens - 1 ? ']]' : '],';
    return `${open}${vals.join(', ')}${close} # ${words[i].replace(/[\r\n]/g, ' ')}  (x^${i + 1})`;
  });
  return `inputs = torch.tensor(\n${rows.join('\n')}\n)`;
}

// A Python list literal, e.g. [[1., 2.], [3., 4.]] (PyTorch-style floats), from an engine result.
export function pyList(values, shape) {
  const num = (v) => (Number.isInteger(v) ? `${v}.` : String(v));
  if (shape.length === 1) return `[${values.map(num).join(', ')}]`;
  const inner = shape.slice(1).reduce((a, b) => a * b, 1);
  return `[${Array.from({ length: shape[0] }, (_, i) => pyList(values.slice(i * inner, (i + 1) * inner), shape.slice(1))).join(', ')}]`;
}

// The output <pre> of a result as print shows it, with one line of it highlighted.
export function outWithRow(text, row, extra = {}) {
  const pre = h('pre', { class: 'out', 'data-cell': extra.cell, 'data-testid': extra.testid });
  text.split('\n').forEach((line, i, all) => {
    const t = line + (i < all.length - 1 ? '\n' : '');
    pre.append(i === row ? h('mark', { text: t }) : document.createTextNode(t));
  });
  return pre;
}

export function errorNote(message) {
  return h('p', { class: 'note error', role: 'status', text: message });
}

// A result's output as print shows it (or its sentence), under its code: the page's usual cell.
export function resultCell(python, r, cell, { row = -1, extra = null } = {}) {
  return h('div', { class: 'cell' }, pythonCode(python),
    r.error ? errorNote(engineSentence(r)) : outWithRow(r.line, row, { cell }), extra);
}

export function listing(title, code) {
  return h('details', { class: 'listing' }, h('summary', { text: title }), pythonCode(code));
}

// Puts a section's new content in place: patched into what is shown, then its new math rendered; the
// parts off screen are patched after the edit's frame, or when they come on screen (morphWhenSeen).
export function show(body, ...children) {
  morphWhenSeen(body, h('div', null, ...children));
  keyboardScroll(body);
}

// Code, prints, formulas and tables that scroll sideways (on a phone) become Tab stops, so a keyboard
// user can reach and scroll them; the others stay out of the Tab order. Re-checked when the section's
// size changes (a narrower screen, math rendered later). Attributes change only when they must.
const watched = new WeakSet();
const observers = new WeakMap();   // body -> its ResizeObserver, which also watches each candidate
const SCROLLERS = 'pre, .math.display, .scroll';
export function keyboardScroll(body) {
  if (!observers.has(body)) observers.set(body, onResize(body, () => keyboardScroll(body)));
  const observer = observers.get(body);
  const candidates = [...body.querySelectorAll(SCROLLERS)].filter((el) => !el.closest('.mv'));   // the views' prints are Tab stops of their own
  for (const el of candidates) if (observer && !watched.has(el)) { watched.add(el); observer.observe(el); }   // e.g. math rendered later
  if (observer && !watched.has(body)) { watched.add(body); observer.observe(body); }
  // one read per box: one inside a part of the section that is not laid out (element.css gives most
  // parts content-visibility: auto) lays that part out, so scheduler.js runs it with the others of its
  // part, in a task of their own
  for (const el of candidates) {
    measureAfterFrame(() => el.scrollWidth > el.clientWidth + 1, (scrolls) => {
      if (scrolls && el.getAttribute('tabindex') !== '0') {
        el.setAttribute('tabindex', '0');
        el.setAttribute('data-scrolls', '');
      } else if (!scrolls && el.hasAttribute('data-scrolls')) {
        el.removeAttribute('tabindex');
        el.removeAttribute('data-scrolls');
      }
    }, el);
  }
}
