// The learn hub of one <attention-lab>: whether exercises are on (exercises="on|off"), the learner's
// progress for this page (progress.js) or the host's (el.progress), the bar that counts it with its
// reset, the summary a host or LMS grades (summary()), and the answer, progress and summary events.
// Sections get it as ctx.learn and build their prompts with predictPrompt(ctx.learn, ...).
import { h } from '../dom.js';
import { progressStore, progressKey, checkedProgress, droppedSentence } from './progress.js';
import { dispatchAnswer } from './answer-event.js';
import { dispatchProgress, dispatchSummary } from './progress-events.js';
import { answeredEntry, firstTryRight } from './prompt.js';

export { predictPrompt } from './prompt.js';
export { openStorage, checkedProgress } from './progress.js';

// The learner is told once per page that the answers cannot be kept (by the first element to find out).
let storageNoticeBy = null;

// exercises attribute -> on (true) / off (false); anything else throws the sentence to show.
export function exercisesOn(value) {
  const v = value === null ? 'on' : value.trim();
  if (v === 'on' || v === 'off') return v === 'on';
  throw new Error(`attention-lab: exercises="${value.slice(0, 40)}" is not a setting. Use on (the default: questions and exercises in the reading path) or off.`);
}

// host: the element. Its heldProgress (entries), when the host set el.progress or storage is refused,
// carries the answers over a rebuild (an attribute change), which makes a new hub.
export function learnHub(host, section, enabled) {
  const progress = progressStore(progressKey(section), host.heldProgress || null);
  const ids = new Set();   // the questions this element asks (prompts and exercises)
  const count = h('span', { 'data-testid': 'progress-count' });
  const notice = h('p', { class: 'hint', role: 'status', 'data-testid': 'storage-notice', hidden: true });
  const reset = h('button', { type: 'button', class: 'secondary', 'data-testid': 'progress-reset', text: 'Reset my answers',
    onclick: () => progress.reset() });
  const where = h('p', { class: 'hint', 'data-testid': 'progress-where' });
  const bar = enabled ? h('div', { class: 'progress-bar', 'data-testid': 'progress' },
    h('p', { role: 'status' }, count), reset, where, notice) : null;
  // {answered, firstTryRight, total}: the questions this element asks, those done (answered, right or
  // wrong, or shown with "Just show me", which counts as not right), and those right on the first try
  // (the bug hunt: once a round's first answer named its bug). The one count the bar reads, and what an
  // LMS report is built on.
  const summary = () => {
    if (!enabled) return { answered: 0, firstTryRight: 0, total: 0 };
    let answered = 0, right = 0;
    for (const id of ids) {
      const e = progress.get(id);
      if (!e) continue;
      if (e.rounds > 0) { answered++; if (e.found > 0) right++; continue; }
      const a = answeredEntry(e);
      if (a) answered++;
      if (a && firstTryRight(a)) right++;
    }
    return { answered, firstTryRight: right, total: ids.size };
  };
  const renderCount = (s = summary()) => {
    const shownOnly = [...ids].filter((id) => { const e = answeredEntry(progress.get(id)); return e && e.skipped && (e.answer === null || e.answer === undefined); }).length;
    const hunt = progress.get('bug-hunt');
    const parts = [`${s.firstTryRight} of ${s.total} questions right on the first try; ${s.answered} answered${shownOnly ? ` (${shownOnly} of them by “Just show me”)` : ''}`];
    if (hunt?.rounds) parts.push(`bug hunt: ${hunt.found} of ${hunt.rounds} bugs named on the first try`);
    if (progress.dropped()) parts.push(droppedSentence(progress.dropped()));
    count.textContent = `${parts.join('; ')}.`;
    count.dataset.answered = String(s.answered);
    count.dataset.firstTryRight = String(s.firstTryRight);
    count.dataset.total = String(s.total);
    // where the answers go: this browser, or the page that took them over (an LMS package, a host)
    const said = host.progressFromHost ? 'Your answers are kept by the course page this lab is part of (for example its LMS).' : 'Your answers stay in this browser (localStorage); nothing is sent anywhere.';
    if (where.textContent !== said) where.textContent = said;
    // told once: the first element to find storage refused says it, and keeps saying it until the host
    // takes the answers over (el.progress), which keeps them
    const refused = !progress.persistent() && !host.progressFromHost;
    if (refused && (storageNoticeBy === null || storageNoticeBy === host)) {
      storageNoticeBy = host;
      if (notice.hidden) {
        notice.textContent = 'This browser does not let the page keep your answers here (a sandboxed or third-party frame without storage): they last until you leave the page.';
        notice.hidden = false;
      }
    } else if (!notice.hidden) notice.hidden = true;
  };
  progress.onChange((source) => {
    const now = summary();
    renderCount(now);
    // (each its own copy: what a listener does to the event's progress is not the element's)
    if (host.progressFromHost || !progress.persistent()) host.heldProgress = progress.snapshot().entries;
    if (!enabled) return;
    if (source === 'learner') dispatchProgress(host, progress.snapshot(), now);
    dispatchSummary(host, now);
  });
  renderCount();
  return {
    enabled, progress, bar, summary,
    // el.progress = value: the host's copy of the answers (checked: throws the sentence for a bad one)
    setProgress(value) {
      const entries = checkedProgress(value);
      host.progressFromHost = true;
      progress.replace(entries);
    },
    register(id) { ids.add(id); renderCount(); },
    // merged into what the entry holds (the bug hunt keeps its rounds beside the round's answer)
    record(id, entry) { progress.record(id, { ...(progress.get(id) || {}), ...entry }); },
    dispatch(detail) { dispatchAnswer(host, detail); },
  };
}
