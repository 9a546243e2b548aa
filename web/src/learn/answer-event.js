// The one event a host page hears when the learner answers: attention-lab-answer, bubbling and
// composed (it leaves the shadow root), detail {exercise, kind, answer, expected, correct, tolerance}.
export const ANSWER_EVENT = 'attention-lab-answer';

export function dispatchAnswer(host, { exercise, kind, answer, expected, correct, tolerance = null }) {
  host.dispatchEvent(new CustomEvent(ANSWER_EVENT, { bubbles: true, composed: true,
    detail: { exercise, kind, answer, expected, correct, tolerance } }));
}
