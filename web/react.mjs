// attention-lab/react: <AttentionLab>, the element for React 18 and 19 (docs/embedding.md, "React").
// Why a wrapper: React 18 passes a custom element's props as attributes and drops functions, so no event
// prop can reach <attention-lab> there; React 19 listens for on<event name> as written, so there
// `onattention-lab-change` works on the element itself, but not the camelCase name. The wrapper takes
// onAttentionLab<Name> props in both (onAttentionLabChange hears attention-lab-change, and so on for every
// attention-lab-* event), adding the listeners itself; passes className as class (React 18 writes
// className as a "classname" attribute on custom elements); writes words and inputs given as arrays as
// the JSON their attributes take; and forwards its ref to the element.
import { createElement, forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import './attention-lab.mjs';   // defines <attention-lab> (nothing in Node: it waits for a document)

const EVENT_PROP = /^onAttentionLab[A-Z]/;
// onAttentionLabChange -> attention-lab-change
const eventOf = (prop) => `attention-lab${prop.slice('onAttentionLab'.length).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
const asAttribute = (value) => (Array.isArray(value) ? JSON.stringify(value) : value);

export const AttentionLab = forwardRef(function AttentionLab(props, ref) {
  const { className, words, inputs, ...others } = props;
  const rest = {}, handlers = {};
  for (const [key, value] of Object.entries(others)) {
    if (EVENT_PROP.test(key)) handlers[eventOf(key)] = value;
    else rest[key] = value;
  }
  const node = useRef(null);
  // the latest handlers, read when an event comes: a new function each render adds no listener
  const latest = useRef(handlers);
  latest.current = handlers;
  useImperativeHandle(ref, () => node.current, []);
  const names = Object.keys(handlers).sort().join(' ');
  useEffect(() => {
    const el = node.current;
    const listeners = names.split(' ').filter(Boolean).map((name) => [name, (event) => latest.current[name]?.(event)]);
    for (const [name, listener] of listeners) el.addEventListener(name, listener);
    return () => { for (const [name, listener] of listeners) el.removeEventListener(name, listener); };
  }, [names]);
  return createElement('attention-lab', { ...rest, class: className, words: asAttribute(words), inputs: asAttribute(inputs), ref: node });
});
