// A host's TypeScript + React file using <attention-lab> through web/types/: tsc --strict must accept
// it (tests/browser/api.test.js runs it). The @ts-expect-error lines must stay errors.
import type { AttentionLabChangeDetail, AttentionLabAnswerDetail, AttentionLabElement, AttentionLabProgress, AttentionLabSummary } from '../../web/types/attention-lab';
import type {} from '../../web/types/react';

export async function host(): Promise<number[][] | null> {
  const lab = document.querySelector('attention-lab');   // AttentionLabElement | null, by HTMLElementTagNameMap
  if (!lab) return null;
  await lab.updateComplete;
  lab.seed = 8;
  lab.dOut = 3;
  lab.words = ['Your', 'journey', 'starts', 'with', 'one', 'step'];
  lab.inputs = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66]];
  lab.temperature = null;
  lab.section = 'temperature';
  // @ts-expect-error: a seed is a number
  lab.seed = 'eight';
  lab.addEventListener('attention-lab-change', (e) => {
    const detail: AttentionLabChangeDetail = e.detail;
    const d: number = detail.state.dOut;
    const w: number[][] | undefined = detail.results?.attnWeights;
    void d; void w;
  });
  lab.addEventListener('attention-lab-answer', (e) => {
    const a: AttentionLabAnswerDetail = e.detail;
    const ok: boolean = a.correct;
    const tol: number | null | undefined = a.tolerance;
    const attempt: 1 | 2 = a.attempt;
    const counts: boolean = a.firstTryCorrect;
    void ok; void tol; void attempt; void counts;
  });
  // a host that keeps the learner's answers (an LMS, a sandboxed frame's parent) and grades by the summary
  let kept: AttentionLabProgress | null = lab.progress;
  lab.addEventListener('attention-lab-progress', (e) => { kept = e.detail.progress; const total: number = e.detail.summary.total; void total; });
  lab.addEventListener('attention-lab-summary', (e) => { const s: AttentionLabSummary = e.detail; void (s.firstTryRight / s.total); });
  if (kept) lab.progress = kept;
  const answered: number | undefined = lab.summary?.answered;
  void answered;
  // @ts-expect-error: the summary is read-only
  lab.summary = { answered: 1, firstTryRight: 1, total: 1 };
  await lab.reset();
  const made: AttentionLabElement = document.createElement('attention-lab');
  made.theme = 'dark';
  const { base } = AttentionLab.configure({ base: '/static/attention-lab/' });
  const v: string = window.AttentionLab.version + base;
  void v;
  return lab.results ? lab.results.contextVecs : null;
}

export function Lesson() {
  return (
    <div>
      <attention-lab section="step-by-step" seed={7} d-out={3} words={['a', 'b']} inputs="[[1, 2], [3, 4]]" theme="dark" />
      {/* @ts-expect-error: not a section */}
      <attention-lab section="chapter-4" />
    </div>
  );
}
