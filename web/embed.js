// embed.html's script: builds <attention-lab section=...> from a validated ?section= and tells the
// parent window how tall the content is, so the iframe can fit it. It listens to no messages.
'use strict';
(() => {
  const params = new URLSearchParams(location.search);
  const lab = document.createElement('attention-lab');
  // The element validates section itself and shows a readable message for a bad value.
  lab.setAttribute('section', (params.get('section') || 'all').slice(0, 40));
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
