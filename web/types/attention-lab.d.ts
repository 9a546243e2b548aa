// Types for <attention-lab> (README, "For host pages"): the element, its properties and events, the
// AttentionLab global, and the tag in HTMLElementTagNameMap and React's JSX.IntrinsicElements.
// React 19's JSX (React.JSX) is in react.d.ts beside this file. Checked by tests/browser/api.test.js
// (tsc --strict on a consumer .tsx).

export type AttentionLabSection =
  | 'all' | 'batched' | 'step-by-step' | 'temperature' | 'why-sqrt-dk' | 'classes' | 'causal' | 'multi-head' | 'bug-hunt' | 'check' | 'train';
export type AttentionLabTheme = 'auto' | 'light' | 'dark';
export type AttentionLabEngine = 'auto' | 'simd' | 'scalar';

/** The learner's current values (el.state). */
export interface AttentionLabState {
  /** one word per token */
  words: string[];
  /** T rows of d_in numbers */
  inputs: number[][];
  /** the seed of every torch.manual_seed(…); null: the book's seeds (123, and 789 for Listing 3.2) */
  seed: number | null;
  dOut: number;
  /** the temperature slider's T; null while it follows √d_k */
  temperature: number | null;
}

/** §3.4's SelfAttention_v1 for the learner's values, as the engine computed them (el.results). */
export interface AttentionLabResults {
  /** softmax(QKᵀ/√d_k): T × T */
  attnWeights: number[][];
  /** attn_weights @ values: T × d_out */
  contextVecs: number[][];
}

/** detail of attention-lab-change: fired after each learner edit, once its numbers are computed. */
export interface AttentionLabChangeDetail {
  state: AttentionLabState;
  /** null when the engine could not compute these values */
  results: AttentionLabResults | null;
}

/** detail of attention-lab-answer: fired when the learner answers an exercise. */
export interface AttentionLabAnswerDetail {
  /** the exercise's id */
  exercise: string;
  kind: 'number' | 'choice' | 'vector' | 'matrix' | 'text' | (string & {});
  /** what the learner answered */
  answer: unknown;
  /** the engine's answer for the learner's current inputs */
  expected: unknown;
  /** this attempt's verdict, as graded when it was given */
  correct: boolean;
  /** for numbers: the accepted absolute difference */
  tolerance?: number | null;
  /** which try this is: a question has two, and only the first counts */
  attempt: 1 | 2;
  /** whether the question counts as right: its first try was */
  firstTryCorrect: boolean;
}

/** The learner's answers as plain data (el.progress): keep it as it is and set it back on the next visit. */
export interface AttentionLabProgress {
  version: 1;
  /** one entry per question, by its id; the element's own record, not to be edited */
  entries: Record<string, Record<string, unknown>>;
}

/** How far the learner is (el.summary, attention-lab-summary's detail): a skip counts as answered, not right. */
export interface AttentionLabSummary {
  answered: number;
  firstTryRight: number;
  /** the element's questions */
  total: number;
}

/** detail of attention-lab-progress: fired after the learner's answer, reset or bug hunt round. */
export interface AttentionLabProgressDetail {
  progress: AttentionLabProgress;
  summary: AttentionLabSummary;
}

/** detail of attention-lab-export: a drawing's export menu made something (docs/embedding.md, "Export and state permalinks"). */
export interface AttentionLabExportDetail {
  /** the drawing's name, e.g. "attn_weights" */
  name: string;
  action: 'png' | 'svg' | 'csv' | 'torch' | 'html' | 'link';
  file?: string;
  type?: string;
  text?: string;
  blob?: Blob;
  /** the sentence the menu showed when it could not make it */
  error?: string;
}

export interface AttentionLabEventMap {
  'attention-lab-change': CustomEvent<AttentionLabChangeDetail>;
  'attention-lab-answer': CustomEvent<AttentionLabAnswerDetail>;
  'attention-lab-progress': CustomEvent<AttentionLabProgressDetail>;
  'attention-lab-summary': CustomEvent<AttentionLabSummary>;
  'attention-lab-export': CustomEvent<AttentionLabExportDetail>;
}

export interface AttentionLabElement extends HTMLElement {
  /** mirrors the section attribute ('all' when absent) */
  section: AttentionLabSection | (string & {});
  /** mirrors the words attribute: set an array (written as JSON) or a string; null removes it */
  words: string[] | null;
  /** mirrors the inputs attribute: set rows (written as JSON) or a JSON string; null removes it */
  inputs: number[][] | null;
  /** mirrors seed; null removes it (the book's seeds) */
  seed: number | null;
  /** mirrors d-out; null removes it (2) */
  dOut: number | null;
  /** mirrors weights: a module's state_dict as lists ({k: v.tolist() for k, v in m.state_dict().items()}),
   * written as JSON; null removes it (the seed's weights) */
  weights: Record<string, number[] | number[][]> | null;
  /** mirrors temperature, the slider's starting T; null removes it (√d_k) */
  temperature: number | null;
  theme: AttentionLabTheme | (string & {});
  engine: AttentionLabEngine | (string & {});
  /** the learner's current values; null until the first numbers are shown */
  readonly state: AttentionLabState | null;
  /** §3.4's weights and context vectors for state; null until the first numbers are shown */
  readonly results: AttentionLabResults | null;
  /** the learner's answers, for a host that keeps them (an LMS, a sandboxed frame's parent); set it to put them back. Setting a value it did not give throws a TypeError */
  progress: AttentionLabProgress | null;
  /** answered, right on the first try, and total questions; null until the first build */
  readonly summary: AttentionLabSummary | null;
  /** resolves when every section shows the latest values (after an edit, or a host's change) */
  readonly updateComplete: Promise<unknown>;
  /** resolves when the sections on screen show them */
  readonly visibleUpdateComplete: Promise<unknown>;
  /** back to the author's example (the attributes): drops the learner's edits and T; resolves with updateComplete */
  reset(): Promise<unknown>;

  addEventListener<K extends keyof AttentionLabEventMap>(type: K, listener: (this: AttentionLabElement, ev: AttentionLabEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: AttentionLabElement, ev: HTMLElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof AttentionLabEventMap>(type: K, listener: (this: AttentionLabElement, ev: AttentionLabEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(type: K, listener: (this: AttentionLabElement, ev: HTMLElementEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

export interface AttentionLabGlobal {
  /** the folder of attention-lab's files for every element on the page; returns the folder in use */
  configure(options?: { base?: string | URL | null; [option: string]: unknown }): { base: string; [key: string]: unknown };
  /**
   * Registers (or extends, key by key) the catalogue of a language: key -> message, in the English
   * catalogue's keys and message format (docs/translations.md). Returns the canonical tag; throws a
   * TypeError with one sentence for a tag that is not BCP 47 or messages that are not strings.
   */
  registerTranslation(lang: string, messages: Record<string, string>): string;
  /**
   * The element's words for a host page's own sentences (embed.html's parameter errors): the catalogue
   * that serves the tag (English for one that is none), its lang and dir, and t(key, params) in it.
   */
  translator(lang: string): { readonly lang: string; readonly dir: 'ltr' | 'rtl'; t(key: string, params?: Record<string, unknown>): string };
  /** the package's version */
  readonly version: string;
}

/**
 * The attributes as JSX props of the element itself (React 18 passes them as attributes; React 19 sets the
 * properties). Events: React 19 listens for `on` + the event's exact name, so `onattention-lab-change` and
 * `onattention-lab-answer`; React 18 has no event props on custom elements: use `AttentionLab` from
 * 'attention-lab/react' (both versions), or a ref and addEventListener. `class`, not `className`: React 18
 * writes className as a "classname" attribute on a custom element. Arrays for `words` and `inputs` need
 * React 19 or the wrapper (React 18 would write "a,b").
 */
export interface AttentionLabJSXProps {
  section?: AttentionLabSection;
  words?: string | string[];
  inputs?: string | number[][];
  seed?: string | number;
  'd-out'?: string | number;
  weights?: string;
  /** "Check my code"'s output to check, as JSON ({"module": ..., "output": ...}); attention_lab.check writes it */
  check?: string;
  temperature?: string | number;
  theme?: AttentionLabTheme;
  engine?: AttentionLabEngine;
  'engine-base'?: string;
  /** 'off': no questions, exercises or bug-hunt guesses (default 'on') */
  exercises?: 'on' | 'off';
  /** the language of the words (en, de, zh-CN ship); default: the nearest ancestor's or the document's */
  lang?: string;
  id?: string;
  class?: string;
  style?: Record<string, string | number>;
  ref?: unknown;
  key?: string | number;
  children?: unknown;
  /** React 19: after each learner edit */
  'onattention-lab-change'?: (event: CustomEvent<AttentionLabChangeDetail>) => void;
  /** React 19: when the learner answers an exercise */
  'onattention-lab-answer'?: (event: CustomEvent<AttentionLabAnswerDetail>) => void;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-lab': AttentionLabElement;
  }
  interface HTMLElementEventMap {
    'attention-lab-change': CustomEvent<AttentionLabChangeDetail>;
    'attention-lab-answer': CustomEvent<AttentionLabAnswerDetail>;
    'attention-lab-progress': CustomEvent<AttentionLabProgressDetail>;
    'attention-lab-summary': CustomEvent<AttentionLabSummary>;
    'attention-lab-export': CustomEvent<AttentionLabExportDetail>;
  }
  // eslint-disable-next-line no-var
  var AttentionLab: AttentionLabGlobal;
  interface Window {
    AttentionLab: AttentionLabGlobal;
  }
  namespace JSX {
    interface IntrinsicElements {
      'attention-lab': AttentionLabJSXProps;
    }
  }
}
