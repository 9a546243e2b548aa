// <attention-lab> in React's JSX (React.JSX.IntrinsicElements, which react-jsx and React 19 read; the
// global JSX namespace of attention-lab.d.ts serves React 18's classic mode). Kept apart from
// attention-lab.d.ts so a project without React types still compiles: `import type {} from` this file.
import type { AttentionLabJSXProps } from './attention-lab';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'attention-lab': AttentionLabJSXProps;
    }
  }
}
