// The learn hub of one <attention-lab>: whether exercises are on (exercises="on|off"), the learner's
// progress for this page (progress.js), the bar that counts it with its reset, and the answer event.
// Sections get it as ctx.learn and build their prompts with predictPrompt(ctx.learn, ...).
import { h } from '../dom.js';
import { progressStore, progressKey } from './progress.js';
import { dispatchAnswer } from './answer-event.js';
import { answeredEntry, firstTryRight } from './prompt.js';

export { predictPrompt } from './prompt.js';
export { openStorage } from './progress.js';

// exercises attribute -> on (true) / off (false); anything else throws the sentence to show.
export function exercisesOn(value) {
  const v = value === null ? 'on' : value.trim();
  if (v === 'on' || v === 'off') return v === 'on';
  throw new Error(`attention-lab: exercises="${value.slice(0, 40)}" is not a setting. Use on (the default: questions and exercises in the reading path) or off.`);
}

export function learnHub(host, section, enabled) {
  const progress = progressStore(progressKey(section));
  const ids = new Set();   // the questions this element asks (prompts and exercises)
  const count = h('span', { 'data-testid': 'progress-count' });
  const reset = h('button', { type: 'button', class: 'secondary', 'data-testid': 'progress-reset', text: 'Reset my answers',
    onclick: () => progress.reset() });
  const bar = enabled ? h('div', { class: 'progress-bar', 'data-testid': 'progress' },
    h('p', { role: 'status' }, count), reset,
    h('p', { class: 'hint', text: 'Your answers stay in this browser (localStorage); nothing is sent anywhere.' })) : null;
  // {answered, firstTryRight, total}: the questions this element asks, those with an answer given
  // (right or wrong, skipped after a try included), and those right on the first try. The one count
  // the bar reads, and what an LMS report is built on.
  const summary = () => {
    const entries = [...ids].map((id) => answeredEntry(progress.get(id)));
    return {
      answered: entries.filter((e) => e && e.answer !== null && e.answer !== undefined).length,
      firstTryRight: entries.filter((e) => e && firstTryRight(e)).length,
      total: ids.size,
    };
  };
  const renderCount = () => {
    const s = summary();
    const shownOnly = [...ids].filter((id) => { const e = answeredEntry(progress.get(id)); return e && e.skipped && (e.answer === null || e.answer === undefined); }).length;
    const hunt = progress.get('bug-hunt');
    const parts = [`${s.firstTryRight} of ${s.total} questions right on the first try; ${s.answered} answered${shownOnly ? `, ${shownOnly} shown without an answer` : ''}`];
    if (hunt?.rounds) parts.push(`bug hunt: ${hunt.found} of ${hunt.rounds} bugs named on the first try`);
    if (!progress.persistent()) parts.push('this browser does not let the page keep them after you leave');
    count.textContent = `${parts.join('; ')}.`;
    count.dataset.answered = String(s.answered);
    count.dataset.firstTryRight = String(s.firstTryRight);
    count.dataset.total = String(s.total);
  };
  progress.onChange(renderCount);
  return {
    enabled, progress, bar, summary,
    register(id) { ids.add(id); renderCount(); },
    // merged into what the entry holds (the bug hunt keeps its rounds beside the round's answer)
    record(id, entry) { progress.record(id, { ...(progress.get(id) || {}), ...entry }); },
    dispatch(detail) { dispatchAnswer(host, detail); },
  };
}
