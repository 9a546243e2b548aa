// The drawing views' own words (labels, captions, aria-labels), in English, and say(), which reads them in
// the page's language through the translator web/src/i18n gives with useTranslator (the views import
// nothing from outside this folder). A view used alone says its English, with {name} filled in.
export const VIEW_WORDS = Object.freeze({
  'views.stepper.label': 'Steps',
  'views.stepper.back': 'Back',
  'views.stepper.next': 'Next',
  'views.stepper.count': 'Step {n} of {total}',
  'views.matrix.print': '{name}, as PyTorch prints it',
  'views.matrix.table': '{name}, {shape}',
  'views.matrix.tableVector': '{name}, {n} values',
  'views.matrix.by': ' by ',
  'views.matrix.pendingCell': '{where}: not computed yet',
  'views.matrix.masked': 'masked',
  'views.matrix.dropped': 'dropped',
  'views.legend.rowMin': 'row min',
  'views.legend.rowMax': 'row max',
  'views.legend.masked': 'masked: the future, never seen',
  'views.legend.dropped': 'dropped by dropout: a 0, struck through',
  'views.qk.notTwoOne': 'With d_out = 1, each query and key has 1 number: a point of a plane needs exactly 2, so this drawing of q⁽{q}⁾ and the keys appears when d_out = 2 (the book’s).',
  'views.qk.notTwo': 'With d_out = {d}, each query and key has {d} numbers: a point of a plane needs exactly 2, so this drawing of q⁽{q}⁾ and the keys appears when d_out = 2 (the book’s).',
  'views.qk.title': 'q⁽{q}⁾ (blue) and the keys (orange) in the plane. Each dotted line drops a key onto q⁽{q}⁾’s line: ω{i}ⱼ = |q⁽{q}⁾| × the length of that shadow, negative when it falls behind the origin. Aligned and long means a large score.',
  'views.qk.label': 'q⁽{q}⁾ and the {n} keys as arrows from the origin; the scores are listed below the drawing.',
  'views.plot.share': ', weight {weight} in {marker}',
  'views.plot.marker': 'the marker',
  'views.plot.point': 'point {k}',
});

let translate = (key, params = {}) => (VIEW_WORDS[key] ?? key).replace(/\{([A-Za-z_]\w*)\}/g, (all, name) => (name in params ? String(params[name]) : all));

export function useTranslator(fn) { translate = fn; }
export const say = (key, params) => translate(key, params);
