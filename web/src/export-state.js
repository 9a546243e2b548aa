// The state of the element a drawing is in, written out: as a link (index.html or embed.html with the
// example, section and step as URL parameters: web/permalink.js reads them back) and as one standalone
// HTML file (the element with those attributes and its scripts inline, as the notebook helper writes it,
// python/attention_lab.py). Neither carries the learner's answers: a question still asks, and what it
// holds back stays back (docs/questions.md).
import { shortestFloat32 } from './views/format.js';
import { SCRIPT_BASE, INLINE } from './base-url.js';
import { integrityOf } from './trusted.js';
import { say } from './views/words.js';

// The element, its section and the step its stepper shows (1-based, as "Step i of n"; null without one).
function where(figure) {
  const host = figure.getRootNode().host;
  if (!host || !host.state) throw new Error(say('views.export.notInLab'));
  const section = figure.closest('[data-section]');
  const stepper = section && section.querySelector('.stepper[data-step]');
  return { host, section: section ? section.dataset.section : host.getAttribute('section') || 'all', step: stepper ? Number(stepper.dataset.step) + 1 : null };
}

// The attributes that rebuild this state: the learner's current example (el.state), the author's
// weights, theme, exercises and language. Values as their shortest float32 texts (what the engine computes with).
export function stateAttributes(figure) {
  const { host, section, step } = where(figure);
  const s = host.state;
  const attrs = { section };
  attrs.words = s.words.some((w) => /\s/.test(w)) ? JSON.stringify(s.words) : s.words.join(' ');
  attrs.inputs = JSON.stringify(s.inputs.map((row) => row.map((v) => Number(shortestFloat32(v)))));
  if (s.seed !== null) attrs.seed = String(s.seed);
  const weights = host.getAttribute('weights');
  if (weights !== null) attrs.weights = weights; else attrs['d-out'] = String(s.dOut);
  if (s.temperature !== null) attrs.temperature = String(s.temperature);
  for (const name of ['theme', 'exercises']) if (host.hasAttribute(name)) attrs[name] = host.getAttribute(name);
  // the language it speaks: its own lang, else the one it follows from its page when that is not English
  const lang = host.getAttribute('lang') ?? (host.language && host.language.lang !== 'en' ? host.language.lang : null);
  if (lang !== null) attrs.lang = lang;
  return { attrs, step, lang: host.language ? host.language.lang : 'en' };
}

// The page a link opens: this page when it is attention-lab's own (index.html, embed.html), else the
// index.html beside attention-lab.js.
function pageURL() {
  const here = new URL(location.href);
  if (/(^|\/)(index|embed)\.html$|\/$/.test(here.pathname) && here.protocol !== 'about:') return `${here.origin === 'null' ? `${here.protocol}//` : here.origin}${here.pathname}`;
  return new URL('index.html', SCRIPT_BASE || location.href).href;
}

export function permalink(figure) {
  const { attrs, step } = stateAttributes(figure);
  const params = new URLSearchParams(attrs);
  if (step) params.set('step', String(step));
  return `${pageURL()}?${params}`;
}

// An inline <script>: "</script" and "<!--" in its text (only ever inside a string) escaped.
const inlineScript = (text) => `<script>${text.replace(/<(\/script|!--)/gi, '<\\$1')}</script>`;
const attrText = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

async function fileText(file) {
  const url = new URL(file, SCRIPT_BASE).href;
  const integrity = integrityOf(file, SCRIPT_BASE);
  const response = await fetch(url, integrity ? { integrity } : {});
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  return response.text();
}

// { text, file }: the section as a page that opens from disk with no server and no network.
export async function sectionHtml(figure, noScripts) {
  const { attrs, lang } = stateAttributes(figure);
  let files;
  try {
    if (INLINE || !SCRIPT_BASE || location.protocol === 'file:') throw new Error('no files');
    files = await Promise.all(['engine/attention-lab-simd.js', 'engine/attention-lab-scalar.js', 'katex-lib.js', 'attention-lab.js'].map(fileText));
  } catch {
    throw new Error(noScripts);
  }
  const [simd, scalar, katex, element] = files;
  const engine = (kind, text) => inlineScript(`(function () { var g = self.AttentionLabInline = self.AttentionLabInline || {engines: {}}; if (g.engines.${kind}) return; var define, module, exports;\n${text.replace(/^\uFEFF/, '')}\ng.engines.${kind} = function () { return createAttentionLab; }; })();`);
  const tag = `<attention-lab ${Object.entries(attrs).map(([k, v]) => `${k}="${attrText(v)}"`).join(' ')}></attention-lab>`;
  const text = `<!doctype html>\n<html lang="${attrText(lang)}">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n`
    + `<title>attention-lab: ${attrText(attrs.section)}</title>\n</head>\n<body>\n${tag}\n`
    + `${engine('simd', simd)}\n${engine('scalar', scalar)}\n${inlineScript(`if (!self.AttentionLabKatex) {\n${katex}\n}`)}\n`
    + `${inlineScript(`if (!self.customElements.get('attention-lab')) {\n${element.replace(/\n\/\/# sourceMappingURL=.*$/, '')}\n}`)}\n</body>\n</html>\n`;
  return { text, file: `attention-lab-${attrs.section}.html` };
}
