// The drawing views' own words (labels, captions, aria-labels), in English, and say(), which reads them in
// the page's language through the translator web/src/i18n gives with useTranslator (the views import
// nothing from outside this folder). A view used alone says its English, with {name} filled in.
export const VIEW_WORDS = Object.freeze({
  'views.stepper.label': 'Steps',
  'views.stepper.back': 'Back',
  'views.stepper.next': 'Next',
  'views.stepper.count': 'Step {n} of {total}',
});

let translate = (key, params = {}) => (VIEW_WORDS[key] ?? key).replace(/\{([A-Za-z_]\w*)\}/g, (all, name) => (name in params ? String(params[name]) : all));

export function useTranslator(fn) { translate = fn; }
export const say = (key, params) => translate(key, params);
