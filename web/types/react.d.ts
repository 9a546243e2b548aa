// 'attention-lab/react' (package.json's exports): the AttentionLab component (web/react.mjs) for React 18
// and 19, and <attention-lab> in React's JSX (React.JSX.IntrinsicElements, which react-jsx and React 19
// read; the global JSX namespace of attention-lab.d.ts serves React 18's classic mode). Kept apart from
// attention-lab.d.ts so a project without React types still compiles. For the JSX entry alone:
// `import type {} from 'attention-lab/react'`.
import type { ForwardRefExoticComponent, RefAttributes } from 'react';
import type {
  AttentionLabAnswerDetail, AttentionLabChangeDetail, AttentionLabElement, AttentionLabJSXProps,
} from './attention-lab';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attention-lab': AttentionLabJSXProps;
    }
  }
}

/** The props of AttentionLab: the element's attributes, its two events as camelCase props, className. */
export interface AttentionLabProps extends Omit<AttentionLabJSXProps, 'class' | 'ref' | 'onattention-lab-change' | 'onattention-lab-answer'> {
  /** written as the element's class attribute, in React 18 and 19 */
  className?: string;
  /** after each learner edit, once its numbers are computed */
  onAttentionLabChange?: (event: CustomEvent<AttentionLabChangeDetail>) => void;
  /** when the learner answers an exercise */
  onAttentionLabAnswer?: (event: CustomEvent<AttentionLabAnswerDetail>) => void;
}

/** <attention-lab> for React 18 and 19, with event props that work in both; its ref is the element. */
export declare const AttentionLab: ForwardRefExoticComponent<AttentionLabProps & RefAttributes<AttentionLabElement>>;
