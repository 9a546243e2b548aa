// Section "why-sqrt-dk" (issue 12 item 5): why §3.4.1 divides the scores by √d_k. The engine draws 8
// random queries and keys of d_k numbers, as PyTorch would (replay/dk_experiment.h), and returns their
// 8×8 scores, query 1's softmax with and without the scaling, and the same experiment at d_k = 2 ... 1024
// for the plots. The conclusion sentence is written from those numbers.
import { h, para, uid, codeCell, fixed4, place, setText } from '../dom.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, show } from './common.js';
import { linePlot, fixed } from '../views/index.js';
import { t, tm, engineSentence } from '../i18n/index.js';

const DK_MIN = 2, DK_MAX = 1024, DK_DEFAULT = 64;

export default { id: 'why-sqrt-dk', get title() { return t('whySqrtDk.title'); }, rung: null, build };

// The sentence the sweep supports, from its own numbers.
export function conclusion(sweep) {
  const { d_k: dks, spread, max_unscaled: mu, max_scaled: ms } = sweep;
  const last = dks.length - 1;
  const growth = spread[last] / spread[0], predicted = Math.sqrt(dks[last] / dks[0]);
  const saturated = mu[last] >= 0.9;
  const scaledTop = Math.max(...ms);
  return t('whySqrtDk.conclusion', { from: dks[0], to: dks[last], growth: fixed(growth, 1), predicted: fixed(predicted, 1),
    saturated: saturated ? 'yes' : 'no', max: fixed(mu[last], 4), scaled: fixed(scaledTop, 4) });
}

function build(ctx) {
  const { el, body } = sectionFrame('why-sqrt-dk', t('whySqrtDk.title'));
  const inputId = uid('dk'), errorId = uid('dk-error');
  const input = h('input', { type: 'number', id: inputId, min: String(DK_MIN), max: String(DK_MAX), step: '1', value: String(DK_DEFAULT),
    inputmode: 'numeric', class: 'dk-input', 'data-testid': 'dk-input', 'aria-describedby': errorId });
  const error = h('p', { id: errorId, class: 'note error', role: 'status' });
  const readout = h('p', { class: 'dk-readout', 'data-testid': 'dk-readout', 'aria-live': 'polite' });
  const spreadPlot = linePlot({ title: t('whySqrtDk.spreadTitle'), testid: 'dk-spread',
    summary: t('whySqrtDk.spreadSummary'),
    x: { label: 'd_k', log: 2 }, y: { label: t('whySqrtDk.spreadAxis'), log: 2 }, series: [],
    describe: (p, s) => (p.curve ? t('whySqrtDk.yourPoint', { x: p.x, curve: p.curve, y: fixed(p.y, 2) }) : s.name === '√d_k' ? `√${p.x} = ${fixed(p.y, 2)}`
      : t('whySqrtDk.spreadPoint', { x: p.x, std: fixed(p.y, 2), sqrt: fixed(Math.sqrt(p.x), 2) })) });
  const maxPlot = linePlot({ title: t('whySqrtDk.maxTitle'), testid: 'dk-saturation',
    summary: t('whySqrtDk.maxSummary'),
    x: { label: 'd_k', log: 2 }, y: { label: t('whySqrtDk.maxAxis'), domain: [0, 1] }, series: [],
    describe: (p, s) => (p.curve ? t('whySqrtDk.yourPoint', { x: p.x, curve: p.curve, y: fixed(p.y, 4) }) : t('whySqrtDk.maxPoint', { x: p.x, y: fixed(p.y, 4), series: s.name })) });
  const conclusionEl = h('p', { class: 'dk-conclusion', 'data-testid': 'dk-conclusion' });
  const experiment = h('div', { class: 'dk-experiment', 'data-testid': 'dk-experiment' },
    h('p', { class: 'dk-control' }, h('label', { for: inputId, text: t('whySqrtDk.inputLabel', { min: DK_MIN, max: DK_MAX }) }), input),
    error, readout, h('div', { class: 'dk-plots' }, spreadPlot.el, maxPlot.el), conclusionEl);
  // dk: the d_k the plots show; dkBefore: the field's value before the learner began typing in it,
  // which an invalid entry brings back (never a prefix typed on the way: "200" on the way to "2000").
  let dk = DK_DEFAULT, dkBefore = DK_DEFAULT;
  const parseDk = () => {
    const v = Number(input.value);
    return input.value.trim() !== '' && Number.isInteger(v) && v >= DK_MIN && v <= DK_MAX ? v : null;
  };
  input.addEventListener('focus', () => { dkBefore = dk; });
  input.addEventListener('change', () => { if (parseDk() !== null) dkBefore = dk; });
  input.addEventListener('input', () => {
    const v = parseDk();
    if (v !== null) input.removeAttribute('aria-invalid'); else input.setAttribute('aria-invalid', 'true');
    setText(error, v !== null ? '' : t('whySqrtDk.error', { min: DK_MIN, max: DK_MAX, dk: dkBefore }));
    const next = v ?? dkBefore;
    if (next !== dk) { dk = next; update(); }
  });

  function update() {
    let D;
    try {
      D = ctx.changedData('why-sqrt-dk', { d_k: dk });
    } catch (e) {
      setText(error, engineSentence(e));
      return;
    }
    if (!D) return;   // nothing it shows has changed (it reads only the seed and d_k)
    const r = (name) => D.get(name);
    const sweep = {};
    for (const key of ['d_k', 'spread', 'max_unscaled', 'max_scaled']) sweep[key] = r(`dk/sweep/${key}`).values;
    const spread = r('dk/spread').values[0], wu = r('dk/weights_unscaled').values, ws = r('dk/weights_scaled').values;
    const pts = (ys) => sweep.d_k.map((x, i) => ({ x, y: ys[i] }));
    // "your d_k" on both curves of each plot: a ringed dot on each, one legend entry
    const mine = (...marks) => ({ name: t('whySqrtDk.yours', { dk }), points: marks.map(([curve, y]) => ({ x: dk, y, curve })), mark: 'ring' });
    spreadPlot.update([{ name: t('whySqrtDk.stdSeries'), points: pts(sweep.spread), mark: 'line+dot' },
      { name: '√d_k', points: sweep.d_k.map((x) => ({ x, y: Math.sqrt(x) })), mark: 'line', dash: true },
      mine([t('whySqrtDk.scoresStd'), spread], ['√d_k', Math.sqrt(dk)])]);
    maxPlot.update([{ name: 'softmax(ω)', points: pts(sweep.max_unscaled), mark: 'line+dot' },
      { name: 'softmax(ω / √d_k)', points: pts(sweep.max_scaled), mark: 'line+dot', dash: true },
      mine([t('whySqrtDk.maxWith', { series: 'softmax(ω)' }), Math.max(...wu)], [t('whySqrtDk.maxWith', { series: 'softmax(ω / √d_k)' }), Math.max(...ws)])]);
    setText(readout, t('whySqrtDk.readout', { dk, std: fixed(spread, 2), sqrt: fixed(Math.sqrt(dk), 2), unscaled: fixed4(Math.max(...wu)), scaled: fixed4(Math.max(...ws)) }));
    setText(conclusionEl, conclusion(sweep));
    const seed = seedFor(ctx.state, 123);
    show(body,
      para(...tm('whySqrtDk.intro', { seed }, { sqrtDk: '\\sqrt{d_k}', dk: 'd_k' })),
      place(experiment),
      codeCell(`import torch\n\nd_k = ${dk}\ntorch.manual_seed(${seed})\nqueries = (torch.rand(8, d_k) * 2 - 1) * 3**0.5   # mean 0, variance 1\nkeys = (torch.rand(8, d_k) * 2 - 1) * 3**0.5\nattn_scores = queries @ keys.T\nprint(attn_scores.std())\nprint(torch.softmax(attn_scores[0], dim=-1))\nprint(torch.softmax(attn_scores[0] / d_k**0.5, dim=-1))`,
        [r('dk/spread').line, r('dk/weights_unscaled').line, r('dk/weights_scaled').line].join('\n'), { testid: 'dk-print' }),
    );
  }
  return { el, update };
}
