// Section "check" (issue 45): "Check my code". The reader pastes what PyTorch printed for their own
// module (or attention_lab.check sends their module's output in the element's check attribute); the
// engine (eval's `check` op, replay/check.h) compares it, at PyTorch's print precision, with the book's
// computation for the same inputs and weights and with each planted mistake of the bug hunt that applies
// to that module. Here: which one it is, named and explained in bugs.js's words, or the first number that
// differs, drawn in both matrices and linked. Its own section, not a round of the bug hunt: it takes the
// reader's own module and output, needs no exercises, and shows alone in a notebook's output.
import { h, para, place, morph, setText } from '../dom.js';
import { inputRows } from '../inputs.js';
import { sectionFrame, show, errorNote } from './common.js';
import { matrixView } from '../views/index.js';
import { bugByKey } from '../learn/bugs.js';
import { t, currentLanguage, textWith, engineSentence } from '../i18n/index.js';

export default { id: 'check', get title() { return t('check.title'); }, rung: null, build };

// The modules the engine checks (replay/check.h kCheckModules), by their names in the chapter.
export const CHECK_MODULES = ['SelfAttention_v1', 'SelfAttention_v2', 'CausalAttention', 'MultiHeadAttention'];
const toNumber = (v) => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : Number(v));

// The element's check attribute (written by attention_lab.check): {module, output, num_heads?, dropout?,
// call_seed?}; null when absent. A bad one is said in the section, never thrown.
export function parseCheckAttribute(text) {
  if (text === null || text === undefined) return null;
  let v;
  try { v = JSON.parse(text); } catch { v = null; }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { error: t('check.badAttribute') };
  return v;
}

// The engine's answer to one check: {verdict, matches, tried, book, reader, mistake, raised, first_difference}.
export function runCheck(engine, request) {
  const answer = JSON.parse(engine.evalRequest(JSON.stringify({ op: 'check', ...request })));
  for (const tensor of [answer.book, answer.mistake]) if (tensor) tensor.values = tensor.values.map(toNumber);
  if (answer.reader) answer.reader.values = answer.reader.texts.map(toNumber);
  return answer;
}

const label = (key) => bugByKey.get(key)?.label ?? key;
// a mistake's name inside an English sentence starts lower case; German's nouns keep their capital
const lowerFirst = (s) => (currentLanguage() === 'en' ? s.charAt(0).toLowerCase() + s.slice(1) : s);

function build(ctx) {
  const { el, body } = sectionFrame('check', t('check.title'));
  const given = parseCheckAttribute(ctx.checkAttribute ? ctx.checkAttribute() : null);
  const moduleSelect = h('select', { 'data-testid': 'check-module' },
    CHECK_MODULES.map((m) => h('option', { value: m, text: m, selected: m === (given?.module || 'SelfAttention_v2') })));
  const paste = h('textarea', { rows: '6', cols: '60', wrap: 'off', spellcheck: 'false', 'data-testid': 'check-paste',
    'aria-label': t('check.pasteLabel'), placeholder: 'tensor([[-0.5337, -0.1051],\n        [-0.5323, -0.1080],\n        ...])' });
  if (typeof given?.output === 'string') paste.value = given.output;
  const run = h('button', { type: 'button', 'data-testid': 'check-run', text: t('check.run'), onclick: () => { fromNotebook = false; update(); } });
  const result = h('div', { class: 'check-result', 'data-testid': 'check-result', role: 'status' });
  const views = {
    reader: matrixView(null, { name: t('check.yourOutput'), title: t('check.yourOutput'), testid: 'check-reader', legend: false }),
    book: matrixView(null, { name: t('check.bookName'), title: t('check.bookTitle'), testid: 'check-book', legend: false }),
  };
  const drawings = h('div', { class: 'matrices check-outputs' }, views.reader.el, views.book.el);
  // the notebook's output (numbers at full precision) until the reader checks a paste instead
  let fromNotebook = !!given && !given.error && given.output !== undefined && typeof given.output !== 'string';
  const intro = () => para(t('check.intro'));
  const form = h('div', { class: 'check-form' },
    h('p', null, h('label', null, t('check.moduleLabel'), moduleSelect)), paste, h('div', { class: 'controls' }, run));

  function request() {
    const st = ctx.state;
    const module = moduleSelect.value;
    const r = { module, x: inputRows(st), output: fromNotebook ? given.output : paste.value };
    if (st.weights) r.weights = st.weights;
    else {
      r.d_out = st.d_out;
      if (st.seed !== null) r.seed = st.seed;
    }
    if (given && module === given.module) for (const k of ['num_heads', 'dropout', 'call_seed']) if (given[k] !== undefined) r[k] = given[k];
    return r;
  }

  function update() {
    if (given?.error) { show(body, intro(), errorNote(t('check.badAttributeNote', { error: given.error })), place(form)); return; }
    if (!fromNotebook && paste.value.trim() === '') {
      showResult(para(t('check.nothingYet')));
      drawings.hidden = true;
      show(body, intro(), place(form), place(result));
      return;
    }
    let a;
    try {
      a = runCheck(ctx.engine, request());
    } catch (e) {
      showResult(errorNote(t('check.cannot', { reason: engineSentence(e) })));
      drawings.hidden = true;
      show(body, intro(), place(form), place(result));
      return;
    }
    drawings.hidden = !a.reader;
    const diff = a.first_difference;
    const cell = diff ? [[diff.row, diff.column]] : [];
    if (a.reader) {
      views.reader.update({ values: a.reader.values, texts: a.reader.texts, shape: a.reader.shape });
      views.book.update({ values: a.book.values, texts: a.book.values.map(String), shape: a.book.shape, print: a.book.print });
      for (const v of Object.values(views)) v.highlight(diff ? { cells: cell } : null, { linked: true });
    }
    showResult(...verdictNodes(a, moduleSelect.value));
    show(body, intro(), place(form), place(result), place(drawings));
  }

  // The first different number, as a link to its cell in both drawings: one button, built once (its
  // listener reads the latest difference), so a recompute that changes nothing changes no node.
  let linked = null;
  const cellButton = h('button', { type: 'button', class: 'link', 'data-testid': 'check-cell-link',
    onclick: () => linked && views.reader.focusCell(linked.row, linked.column) });
  const cellLink = (d) => {
    linked = d;
    setText(cellButton, t('check.cell', { row: d.row + 1, column: d.column + 1 }));
    return place(cellButton);
  };
  // The result's new sentences, patched into what it shows (dom.js's morph).
  const showResult = (...nodes) => morph(result, h('div', null, ...nodes));

  function verdictNodes(a, module) {
    const tried = a.tried.map(label);
    const out = [];
    const d = a.first_difference;
    const where = d ? h('p', { 'data-testid': 'check-first-difference' },
      textWith((m) => t('check.firstDifference', m), { cell: cellLink(d), yours: String(d.reader), book: String(d.book) })) : null;
    if (a.verdict === 'book') {
      out.push(h('p', { class: 'check-verdict', 'data-verdict': 'book', 'data-testid': 'check-verdict',
        text: t('check.verdictBook', { module }) }));
    } else if (a.verdict === 'mistake') {
      const first = a.matches[0];
      out.push(h('p', { class: 'check-verdict', 'data-verdict': 'mistake', 'data-bug': first, 'data-testid': 'check-verdict',
        text: a.raised ? t('check.verdictMistakeRaised', { mistake: lowerFirst(label(first)), raised: a.raised })
          : t('check.verdictMistake', { mistake: lowerFirst(label(first)) }) }));
      out.push(h('p', { 'data-testid': 'check-misconception', text: t('check.misconception', { misconception: bugByKey.get(first).misconception }) }));
      if (a.matches.length > 1) out.push(para(t('check.sameOutput', { n: a.matches.length - 1, mistakes: a.matches.slice(1).map((k) => lowerFirst(label(k))).join(t('check.and')) })));
      if (where) out.push(where);
    } else if (a.verdict === 'unknown_error') {
      out.push(h('p', { class: 'check-verdict', 'data-verdict': 'unknown_error', 'data-testid': 'check-verdict',
        text: t('check.verdictUnknownError', { raised: a.raised }) }));
    } else {
      out.push(h('p', { class: 'check-verdict', 'data-verdict': 'differs', 'data-testid': 'check-verdict',
        text: t('check.verdictDiffers', { n: tried.length }) }));
      out.push(where);
    }
    out.push(h('p', { class: 'hint', 'data-testid': 'check-tried', text: t('check.tried', { module, mistakes: tried.map(lowerFirst).join(t('punct.clauses')) }) }));
    return out;
  }
  return { el, update };
}
