// The learn hub of one <attention-lab>: whether exercises are on (exercises="on|off"), the learner's
// progress for this page (progress.js) or the host's (el.progress), the bar that counts it with its
// reset, the summary a host or LMS grades (summary()), and the answer, progress and summary events.
// Sections get it as ctx.learn and build their prompts with predictPrompt(ctx.learn, ...).
import { h } from '../dom.js';
import { progressStore, progressKey, checkedProgress, droppedSentence } from './progress.js';
import { dispatchAnswer } from './answer-event.js';
import { dispatchProgress, dispatchSummary } from './progress-events.js';
import { answeredEntry, firstTryRight } from './prompt.js';
import { t } from '../i18n/index.js';

export { predictPrompt } from './prompt.js';
export { openStorage, checkedProgress } from './progress.js';

// The learner is told once per page that the answers cannot be kept (by the first element to find out).
let storageNoticeBy = null;

// exercises attribute -> on (true) / off (false); anything else throws the sentence to show.
export function exercisesOn(value) {
  const v = value === null ? 'on' : value.trim();
  if (v === 'on' || v === 'off') return v === 'on';
  throw new Error(t('error.exercises', { value: value.slice(0, 40) }));
}

// host: the element. Its heldProgress (entries), when the host set el.progress or storage is refused,
// carries the answers over a rebuild (an attribute change), which makes a new hub.
export function learnHub(host, section, enabled) {
  const progress = progressStore(progressKey(section), host.heldProgress || null);
  const ids = new Set();   // the questions this element asks (prompts and exercises)
  const count = h('span', { 'data-testid': 'progress-count' });
  const notice = h('p', { class: 'hint', role: 'status', 'data-testid': 'storage-notice', hidden: true });
  const reset = h('button', { type: 'button', class: 'secondary', 'data-testid': 'progress-reset', text: t('learn.resetAnswers'),
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
    const parts = [shownOnly ? t('learn.countShown', { right: s.firstTryRight, total: s.total, answered: s.answered, shown: shownOnly }) : t('learn.count', { right: s.firstTryRight, total: s.total, answered: s.answered })];
    if (hunt?.rounds) parts.push(t('learn.countHunt', { found: hunt.found, rounds: hunt.rounds }));
    if (progress.dropped()) parts.push(droppedSentence(progress.dropped()));
    count.textContent = t('learn.countSentence', { parts: parts.join(t('punct.clauses')) });
    count.dataset.answered = String(s.answered);
    count.dataset.firstTryRight = String(s.firstTryRight);
    count.dataset.total = String(s.total);
    // a section that asks nothing (Check my code, alone in a notebook) shows no "0 of 0" bar
    if (bar && bar.hidden !== (s.total === 0)) bar.hidden = s.total === 0;
    // where the answers go: this browser, or the page that took them over (an LMS package, a host)
    const said = host.progressFromHost ? t('learn.keptByHost') : t('learn.keptHere');
    if (where.textContent !== said) where.textContent = said;
    // told once: the first element to find storage refused says it, and keeps saying it until the host
    // takes the answers over (el.progress), which keeps them
    const refused = !progress.persistent() && !host.progressFromHost;
    if (refused && (storageNoticeBy === null || storageNoticeBy === host)) {
      storageNoticeBy = host;
      if (notice.hidden) {
        notice.textContent = t('learn.noStorage');
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
