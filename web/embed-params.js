// The one home of the URL parameters of embed.html and index.html (a state permalink: the export menu's
// "Copy link to this state", web/src/views/export-state.js, writes them), for embed.js and page.js (which
// read them) and author.js (which writes them into the iframe snippet): their names, the longest value
// embed.html reads, and the step parameter (the §3.4.1 stepper's step, 1-based as "Step i of n").
'use strict';
self.AttentionLabEmbedParams = Object.freeze({
  // Every valid inputs value fits, written compactly: 16 × 16 numbers of at most 24 characters each
  // ("-0.000012345678901234567") with their commas and brackets is 6,433.
  limit: 8192,
  // the element's attributes, then embed.html's own: the accent colour, the font, and the parent's
  // origin (the only window embed.html posts the element's events to)
  attributes: Object.freeze(['section', 'words', 'inputs', 'seed', 'd-out', 'temperature', 'weights', 'theme', 'engine', 'exercises', 'lang']),
  page: Object.freeze(['accent', 'font', 'parent-origin', 'step']),
  // ?step=N: {value} or {error: [key, params]}, the sentence in the catalogues (embed.step), for
  // AttentionLab.translator(lang).t. A link's step is where the stepper goes, one step at a time: a step
  // behind a question the reader has not answered waits for the answer (docs/questions.md).
  stepOf(text) {
    if (text === null) return { value: null };
    const t = text.trim();
    if (!/^\d{1,3}$/.test(t) || Number(t) < 1) return { error: ['embed.step', { value: t.slice(0, 20) }] };
    return { value: Number(t) };
  },
  // The sentences of these pages (embed.html, index.html) in the language of lang (a tag; none: the
  // document's), from the element's catalogues: {lang, problem(key, params) -> "attention-lab: …"}.
  speaker(lang) {
    const speak = self.AttentionLab.translator(lang || document.documentElement.lang || 'en');
    return { lang: speak.lang, problem: (key, params) => speak.t('embed.error', { problem: speak.t(key, params) }) };
  },
  // Moves lab's stepper (the first in its section, if any) to step once its first numbers are shown.
  goToStep(lab, step) {
    if (!step) return;
    customElements.whenDefined('attention-lab').then(() => lab.updateComplete).then(() => {
      const stepper = lab.shadowRoot && lab.shadowRoot.querySelector('.stepper[data-step]');
      if (stepper) stepper.dispatchEvent(new CustomEvent('stepgo', { detail: { index: step - 1 } }));
    });
  },
});
