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
  'views.matrix.row': 'row',
  'views.matrix.column': 'column',
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
  'views.export.button': 'Export {name}',
  'views.export.buttonText': 'Export',
  'views.export.png': 'PNG image (2×)',
  'views.export.svg': 'SVG image',
  'views.export.csv': 'CSV of the numbers',
  'views.export.torch': 'Copy as PyTorch',
  'views.export.html': 'This section as an HTML file',
  'views.export.link': 'Copy link to this state',
  'views.export.saved': 'Saved {file}.',
  'views.export.savedFramed': 'Saved {file}. If your browser shows no download, the page around this one does not let it download files (an iframe sandboxed without allow-downloads).',
  'views.export.copied': 'Copied {what}.',
  'views.export.copyByHand': 'This page may not use the clipboard: {what} is selected below; copy it with Ctrl+C (⌘C on a Mac).',
  'views.export.failed': 'Could not make the {what}: {why}',
  'views.export.notDrawn': 'it is not drawn yet (scroll to it, or answer the question before it)',
  'views.export.pending': 'some of its values are still hidden (step on, or answer the question before them)',
  'views.export.noHtml': 'this page cannot read its own script files (opened from disk, or in a notebook); serve the folder (./scripts/run) and try again',
  'views.export.notInLab': 'the drawing is not in an <attention-lab> with numbers yet',
  'views.export.linkWhat': 'the link',
  'views.export.torchWhat': 'the tensor',
  'views.export.csvWhat': 'the CSV',
  'views.export.madePng': 'PNG',
  'views.export.madeSvg': 'SVG',
  'views.export.madeCsv': 'CSV',
  'views.export.madeTorch': 'tensor',
  'views.export.madeHtml': 'HTML file',
  'views.export.madeLink': 'link',
  'views.export.noSvgImage': 'the browser could not draw the SVG',
  'views.export.noPng': 'the browser made no PNG',
  'views.export.qkName': 'q and the keys',
  'views.export.qkTitle': 'q and the keys in the plane',
  'views.export.headSeries': 'series',
  'views.export.headAxis': 'axis',
  'views.export.headPoint': 'point',
  'views.export.headVector': 'vector',
  'views.export.headDimension': 'dimension',
});

let translate = (key, params = {}) => (VIEW_WORDS[key] ?? key).replace(/\{([A-Za-z_]\w*)\}/g, (all, name) => (name in params ? String(params[name]) : all));

let bindNow = () => say;

export function useTranslator(fn, bind) { translate = fn; if (bind) bindNow = bind; }
export const say = (key, params) => translate(key, params);
// say() held to the language of now, for words said after an await (an export's status line), when
// another element in another language may have spoken in between.
export const sayNow = () => bindNow();
