// attention-lab/react: <AttentionLab>, the element for React 18 and 19 (docs/embedding.md, "React").
// Why a wrapper: React 18 passes a custom element's props as attributes and drops functions, so no event
// prop can reach <attention-lab> there; React 19 listens for on<event name> as written, so there
// `onattention-lab-change` works on the element itself, but not the camelCase name. The wrapper takes
// onAttentionLabChange and onAttentionLabAnswer in both, adding the listeners itself; passes className
// as class (React 18 writes className as a "classname" attribute on custom elements); writes words and
// inputs given as arrays as the JSON their attributes take; and forwards its ref to the element.
import { createElement, forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import './attention-lab.mjs';   // defines <attention-lab> (nothing in Node: it waits for a document)

const asAttribute = (value) => (Array.isArray(value) ? JSON.stringify(value) : value);

export const AttentionLab = forwardRef(function AttentionLab(props, ref) {
  const { onAttentionLabChange, onAttentionLabAnswer, className, words, inputs, ...rest } = props;
  const node = useRef(null);
  // the latest handlers, read when an event comes: a new function each render adds no listener
  const handlers = useRef({});
  handlers.current = { change: onAttentionLabChange, answer: onAttentionLabAnswer };
  useImperativeHandle(ref, () => node.current, []);
  useEffect(() => {
    const el = node.current;
    const change = (event) => handlers.current.change?.(event);
    const answer = (event) => handlers.current.answer?.(event);
    el.addEventListener('attention-lab-change', change);
    el.addEventListener('attention-lab-answer', answer);
    return () => {
      el.removeEventListener('attention-lab-change', change);
      el.removeEventListener('attention-lab-answer', answer);
    };
  }, []);
  return createElement('attention-lab', { ...rest, class: className, words: asAttribute(words), inputs: asAttribute(inputs), ref: node });
});
