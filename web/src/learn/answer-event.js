// The one event a host page hears when the learner answers: attention-lab-answer, bubbling and
// composed (it leaves the shadow root), detail {exercise, kind, answer, expected, correct, tolerance,
// attempt, firstTryCorrect}: correct is this attempt's verdict, attempt 1 or 2 (two tries a question),
// firstTryCorrect whether the question counts as right (only the first try does). A skip sends none.
export const ANSWER_EVENT = 'attention-lab-answer';

export function dispatchAnswer(host, { exercise, kind, answer, expected, correct, tolerance = null, attempt = 1, firstTryCorrect = attempt === 1 ? correct : false }) {
  host.dispatchEvent(new CustomEvent(ANSWER_EVENT, { bubbles: true, composed: true,
    detail: { exercise, kind, answer, expected, correct, tolerance, attempt, firstTryCorrect } }));
}
