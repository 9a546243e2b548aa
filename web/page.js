// index.html's only script: passes ?engine=, ?section= and a state permalink's example (?words=, ?inputs=,
// ?seed=, ?d-out=, ?temperature=, ?weights=, ?theme=, ?exercises=) and ?step= from the URL to the element
// (embed-params.js names them). The element validates each and shows one clear sentence for a bad value,
// computing nothing; a bad step is said here, in the same way.
'use strict';
(() => {
  const { attributes, stepOf, goToStep, speaker } = self.AttentionLabEmbedParams;
  const params = new URLSearchParams(location.search);
  const lab = document.getElementById('lab');
  for (const name of attributes) {
    const value = params.get(name) ?? (name === 'd-out' ? params.get('d_out') : null);
    if (value !== null) lab.setAttribute(name, value);
  }
  const step = stepOf(params.get('step'));
  if (step.error) {
    const p = document.createElement('p');
    p.className = 'fatal';
    p.setAttribute('role', 'alert');
    p.dataset.testid = 'page-error';
    // in the element's language (its lang, from ?lang=, else the page's)
    const speak = speaker(lab.getAttribute('lang'));
    p.textContent = speak.problem(...step.error);
    if (speak.lang !== 'en') p.lang = speak.lang;
    lab.replaceWith(p);
    return;
  }
  goToStep(lab, step.value);
})();
