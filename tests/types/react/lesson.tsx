// A React host through the package's exports ('attention-lab/react'), with the typed event props:
// tests/browser/react.test.js runs tsc --strict on it against React 18's and React 19's types, renders it
// with each, and hears both events. The @ts-expect-error lines must stay errors.
import { useRef } from 'react';
import { AttentionLab } from 'attention-lab/react';
import type { AttentionLabAnswerDetail, AttentionLabChangeDetail, AttentionLabElement } from 'attention-lab';

export interface Heard {
  change: (detail: AttentionLabChangeDetail) => void;
  answer: (detail: AttentionLabAnswerDetail) => void;
}

export function Lesson({ heard }: { heard: Heard }) {
  const lab = useRef<AttentionLabElement>(null);
  return (
    <AttentionLab ref={lab} id="wrapped" section="temperature" className="lesson" seed={7}
      words={['Your', 'journey', 'starts']} inputs={[[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]]}
      onAttentionLabChange={(e) => { const t: number | null = e.detail.state.temperature; void t; heard.change(e.detail); }}
      onAttentionLabAnswer={(e) => { const right: boolean = e.detail.correct; void right; heard.answer(e.detail); }} />
  );
}

export function Mistakes() {
  return (
    <div>
      {/* @ts-expect-error: not a section */}
      <AttentionLab section="chapter-4" />
      {/* @ts-expect-error: no such event prop (the events are onAttentionLabChange and onAttentionLabAnswer) */}
      <AttentionLab onChange={() => {}} />
      {/* @ts-expect-error: className on the element itself: React 18 writes a "classname" attribute (use class) */}
      <attention-lab className="lesson" />
    </div>
  );
}
