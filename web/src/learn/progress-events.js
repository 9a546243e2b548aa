// The two events a host page (or the LMS package, web/lms.js) hears about the learner's progress, both
// bubbling and composed (they leave the shadow root):
//   attention-lab-progress: after the learner's answer, reset or bug hunt round, detail {progress, summary},
//     progress being what el.progress reads (and takes back on the next visit);
//   attention-lab-summary: after any change of the progress (the host's el.progress too), detail
//     {answered, firstTryRight, total}.
export const PROGRESS_EVENT = 'attention-lab-progress';
export const SUMMARY_EVENT = 'attention-lab-summary';

export function dispatchProgress(host, progress, summary) {
  host.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { bubbles: true, composed: true, detail: { progress, summary: { ...summary } } }));
}

export function dispatchSummary(host, summary) {
  host.dispatchEvent(new CustomEvent(SUMMARY_EVENT, { bubbles: true, composed: true, detail: { ...summary } }));
}
