// embed.html's script: builds <attention-lab section=...> from ?section= (and the example's ?words=,
// ?inputs=, ?seed=, ?d-out=, ?temperature=, ?theme=, ?engine=, ?exercises=; the look's ?accent= and ?font=), tells the
// parent window how tall the content is, so the iframe can fit it, and, when ?parent-origin= names the
// parent's origin, forwards the element's events (change, answer, progress, summary) to it and takes
// the learner's progress back from it ({type: "attention-lab:set-progress", progress}: el.progress),
// the one message it listens to, from its parent window at that origin only. It works in a frame
// sandboxed with allow-scripts alone (origin "null": the parent matches its messages by event.source).
// embed-params.js holds the parameter names and their length limit.
'use strict';
(() => {
  const { limit, attributes } = self.AttentionLabEmbedParams;
  const params = new URLSearchParams(location.search);
  // d_out is accepted for d-out
  const param = (name) => params.get(name) ?? (name === 'd-out' ? params.get('d_out') : null);
  const quote = (value) => (value.length > 80 ? `${value.slice(0, 80)}…` : value);

  // The page's own parameters, checked here: a bad one is one sentence in the frame, and no widget, in
  // the language ?lang= asks for (the element's catalogues: embed.* keys). Each problem: [key, params].
  const problems = [];
  const { stepOf, goToStep, speaker } = self.AttentionLabEmbedParams;
  const speak = speaker(param('lang'));
  // a length as English writes it (8,192); other languages without a separator that could read as a decimal comma
  const count = (n) => (speak.lang === 'en' ? n.toLocaleString('en') : String(n));
  for (const name of [...attributes, 'accent', 'font', 'parent-origin', 'step']) {
    const value = param(name);
    if (value !== null && value.length > limit) problems.push(['embed.tooLong', { name, length: count(value.length), limit: count(limit) }]);
  }
  const accent = param('accent'), font = param('font');
  if (accent !== null && !CSS.supports('color', accent)) problems.push(['embed.accent', { value: quote(accent) }]);
  if (font !== null && (!CSS.supports('font-family', font) || /[;{}]/.test(font))) problems.push(['embed.font', { value: quote(font) }]);
  let parentOrigin = null;
  const originText = param('parent-origin');
  if (originText !== null) {
    try { parentOrigin = new URL(originText).origin; } catch { parentOrigin = null; }
    if (!/^https?:\/\//.test(parentOrigin || '') || parentOrigin !== originText.replace(/\/$/, '')) {
      problems.push(['embed.parentOrigin', { value: quote(originText) }]);
      parentOrigin = null;
    }
  }

  const step = stepOf(param('step'));   // a permalink's step (embed-params.js)
  if (step.error) problems.push(step.error);
  let shown;
  if (problems.length) {
    shown = document.createElement('p');
    shown.className = 'fatal';
    shown.setAttribute('role', 'alert');
    shown.dataset.testid = 'embed-error';
    shown.textContent = speak.problem(...problems[0]);
    if (speak.lang !== 'en') shown.lang = speak.lang;
    // through the CSSOM, which a style-src 'self' policy allows (a style attribute it would not)
    Object.assign(shown.style, { font: '16px/1.5 system-ui, sans-serif', color: '#a4001d', margin: '0', padding: '1rem' });
  } else {
    shown = document.createElement('attention-lab');
    // The element validates section itself and shows a readable message for a bad value; it validates
    // the example's attributes too, and names a bad one.
    shown.setAttribute('section', param('section') ?? 'all');
    for (const name of attributes) {
      const value = param(name);
      if (name !== 'section' && value !== null) shown.setAttribute(name, value);
    }
    // set through the CSSOM, not a style attribute: a page with style-src 'self' allows it
    if (accent !== null) shown.style.setProperty('--attention-lab-accent', accent);
    if (font !== null) shown.style.setProperty('--attention-lab-font', font);
  }
  document.body.appendChild(shown);
  if (!problems.length) goToStep(shown, step.value);

  // The events, to the parent's origin only (postMessage drops them if the parent is another origin);
  // with no ?parent-origin= nothing is sent. The detail is plain data (arrays, numbers, strings).
  if (parentOrigin && window.parent !== window) {
    for (const type of ['attention-lab-change', 'attention-lab-answer', 'attention-lab-progress', 'attention-lab-summary']) {
      shown.addEventListener(type, (e) => {
        window.parent.postMessage({ type: type.replace('attention-lab-', 'attention-lab:'), detail: JSON.parse(JSON.stringify(e.detail)) }, parentOrigin);
      });
    }
    // The progress the parent kept (a frame without storage loses it on leaving): from the parent
    // window, at its origin, only. A value el.progress refuses is said on the console.
    window.addEventListener('message', (e) => {
      if (e.source !== window.parent || e.origin !== parentOrigin || !e.data || e.data.type !== 'attention-lab:set-progress') return;
      try { shown.progress = e.data.progress; } catch (err) { console.warn(err.message); }
    });
  }

  if (window.parent === window) return;   // opened on its own: no frame to fit
  let last = -1, queued = false;
  // The content's own height (the element's bottom plus the body's bottom margin), not the document's
  // scrollHeight, which is never less than the iframe: the iframe must shrink when the content does.
  const post = () => {
    queued = false;
    const height = Math.ceil(shown.getBoundingClientRect().bottom + window.scrollY + parseFloat(getComputedStyle(document.body).marginBottom || '0'));
    if (height === last) return;
    last = height;
    // Only the height, only to the embedding window: to its origin when given, else to any ('*'), as
    // embedders' origins are not known.
    window.parent.postMessage({ type: 'attention-lab:height', height }, parentOrigin || '*');
  };
  // measured in a task of its own, not inside the observer's delivery: a layout read there can lay out
  // more of the page within the delivery, which WebKit reports as "ResizeObserver loop completed with
  // undelivered notifications" (the element's own observers wait too: views/nodes.js's onResize)
  new ResizeObserver(() => { if (!queued) { queued = true; setTimeout(post); } }).observe(shown);
  post();
})();
