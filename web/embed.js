// embed.html's script: builds <attention-lab section=...> from ?section= (and the example's ?words=,
// ?inputs=, ?seed=, ?d-out=, ?temperature=, ?theme=, ?exercises=) and tells the
// parent window how tall the content is, so the iframe can fit it. It listens to no messages.
'use strict';
(() => {
  const params = new URLSearchParams(location.search);
  const lab = document.createElement('attention-lab');
  // The element validates section itself and shows a readable message for a bad value.
  lab.setAttribute('section', (params.get('section') || 'all').slice(0, 40));
  // The author's example, as the element's attributes of the same names (it validates them and shows
  // a message naming a bad one). d_out is accepted for d-out.
  for (const name of ['words', 'inputs', 'seed', 'd-out', 'temperature', 'theme', 'exercises']) {
    const value = params.get(name) ?? (name === 'd-out' ? params.get('d_out') : null);
    if (value !== null) lab.setAttribute(name, value.slice(0, 4000));
  }
  const engine = params.get('engine');
  if (engine === 'scalar' || engine === 'simd') lab.setAttribute('engine', engine);
  document.body.appendChild(lab);

  let last = -1;
  // The content's own height (the element's bottom plus the body's bottom margin), not the document's
  // scrollHeight, which is never less than the iframe: the iframe must shrink when the content does.
  const post = () => {
    const height = Math.ceil(lab.getBoundingClientRect().bottom + window.scrollY + parseFloat(getComputedStyle(document.body).marginBottom || '0'));
    if (height === last || window.parent === window) return;
    last = height;
    // Only the height, only to the embedding window; '*' because embedders' origins are not known.
    window.parent.postMessage({ type: 'attention-lab:height', height }, '*');
  };
  new ResizeObserver(post).observe(lab);
  post();
})();
