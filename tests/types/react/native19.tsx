// React 19 only: <attention-lab> itself with React 19's custom element events, `on` + the event's exact
// name (tests/browser/react.test.js: tsc --strict against React 19's types, and rendered by React 19).
import type {} from 'attention-lab/react';
import type { Heard } from './lesson';

export function NativeLesson({ heard }: { heard: Heard }) {
  return (
    <attention-lab id="native" section="temperature" class="lesson" seed={7} words={['Your', 'journey', 'starts']}
      inputs={[[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]]}
      onattention-lab-change={(e) => heard.change(e.detail)}
      onattention-lab-answer={(e) => { const right: boolean = e.detail.correct; void right; heard.answer(e.detail); }} />
  );
}
