// Section "why-sqrt-dk" (issue 12 item 5): why §3.4.1 divides the scores by √d_k. The engine draws 8
// random queries and keys of d_k numbers, as PyTorch would (replay/dk_experiment.h), and returns their
// 8×8 scores, query 1's softmax with and without the scaling, and the same experiment at d_k = 2 ... 1024
// for the plots. The conclusion sentence is written from those numbers.
import { h, para, uid, codeCell, fixed4, place, setText } from '../dom.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, show } from './common.js';
import { linePlot, fixed } from '../views/index.js';
import { t } from '../i18n/index.js';

const DK_MIN = 2, DK_MAX = 1024, DK_DEFAULT = 64;

export default { id: 'why-sqrt-dk', get title() { return t('whySqrtDk.title'); }, rung: null, build };

// The sentence the sweep supports, from its own numbers.
export function conclusion(sweep) {
  const { d_k: dks, spread, max_unscaled: mu, max_scaled: ms } = sweep;
  const last = dks.length - 1;
  const growth = spread[last] / spread[0], predicted = Math.sqrt(dks[last] / dks[0]);
  const saturated = mu[last] >= 0.9;
  const scaledTop = Math.max(...ms);
  return `From d_k = ${dks[0]} to ${dks[last]} the spread of q·k grew ${fixed(growth, 1)} times (√d_k grew ${fixed(predicted, 1)} times)`
    + (saturated ? `, so unscaled softmax gave query 1’s largest key ${fixed(mu[last], 4)} of the weight, nearly all of it,`
      : `, and unscaled softmax gave query 1’s largest key ${fixed(mu[last], 4)} of the weight`)
    + ` while after dividing by √d_k no key got more than ${fixed(scaledTop, 4)}.`;
}

function build(ctx) {
  const { el, body } = sectionFrame('why-sqrt-dk', t('whySqrtDk.title'));
  const inputId = uid('dk'), errorId = uid('dk-error');
  const input = h('input', { type: 'number', id: inputId, min: String(DK_MIN), max: String(DK_MAX), step: '1', value: String(DK_DEFAULT),
    inputmode: 'numeric', class: 'dk-input', 'data-testid': 'dk-input', 'aria-describedby': errorId });
  const error = h('p', { id: errorId, class: 'note error', role: 'status' });
  const readout = h('p', { class: 'dk-readout', 'data-testid': 'dk-readout', 'aria-live': 'polite' });
  const spreadPlot = linePlot({ title: 'Spread of q·k grows like √d_k', testid: 'dk-spread',
    summary: 'Standard deviation of the 8 × 8 dot products against d_k, both on log scales, beside √d_k.',
    x: { label: 'd_k', log: 2 }, y: { label: 'std of q·k', log: 2 }, series: [],
    describe: (p, s) => (p.curve ? `your d_k = ${p.x}: ${p.curve} ${fixed(p.y, 2)}` : s.name === '√d_k' ? `√${p.x} = ${fixed(p.y, 2)}` : `d_k = ${p.x}: the scores’ std is ${fixed(p.y, 2)}, √d_k = ${fixed(Math.sqrt(p.x), 2)}`) });
  const maxPlot = linePlot({ title: 'Largest softmax weight of query 1 (8 keys)', testid: 'dk-saturation',
    summary: 'Unscaled, the largest weight climbs towards 1 as d_k grows; divided by √d_k it stays moderate.',
    x: { label: 'd_k', log: 2 }, y: { label: 'max weight', domain: [0, 1] }, series: [],
    describe: (p, s) => (p.curve ? `your d_k = ${p.x}: ${p.curve} ${fixed(p.y, 4)}` : `d_k = ${p.x}: max weight ${fixed(p.y, 4)} with ${s.name}`) });
  const conclusionEl = h('p', { class: 'dk-conclusion', 'data-testid': 'dk-conclusion' });
  const experiment = h('div', { class: 'dk-experiment', 'data-testid': 'dk-experiment' },
    h('p', { class: 'dk-control' }, h('label', { for: inputId, text: 'd_k, the length of each query and key (2 to 1024): ' }), input),
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
    setText(error, v !== null ? '' : `d_k must be a whole number from ${DK_MIN} to ${DK_MAX}; the plots keep d_k = ${dkBefore}.`);
    const next = v ?? dkBefore;
    if (next !== dk) { dk = next; update(); }
  });

  function update() {
    let D;
    try {
      D = ctx.changedData('why-sqrt-dk', { d_k: dk });
    } catch (e) {
      setText(error, e.message);
      return;
    }
    if (!D) return;   // nothing it shows has changed (it reads only the seed and d_k)
    const r = (name) => D.get(name);
    const sweep = {};
    for (const key of ['d_k', 'spread', 'max_unscaled', 'max_scaled']) sweep[key] = r(`dk/sweep/${key}`).values;
    const spread = r('dk/spread').values[0], wu = r('dk/weights_unscaled').values, ws = r('dk/weights_scaled').values;
    const pts = (ys) => sweep.d_k.map((x, i) => ({ x, y: ys[i] }));
    // "your d_k" on both curves of each plot: a ringed dot on each, one legend entry
    const mine = (...marks) => ({ name: `your d_k = ${dk}`, points: marks.map(([curve, y]) => ({ x: dk, y, curve })), mark: 'ring' });
    spreadPlot.update([{ name: 'std(q·k)', points: pts(sweep.spread), mark: 'line+dot' },
      { name: '√d_k', points: sweep.d_k.map((x) => ({ x, y: Math.sqrt(x) })), mark: 'line', dash: true },
      mine(['the scores’ std', spread], ['√d_k', Math.sqrt(dk)])]);
    maxPlot.update([{ name: 'softmax(ω)', points: pts(sweep.max_unscaled), mark: 'line+dot' },
      { name: 'softmax(ω / √d_k)', points: pts(sweep.max_scaled), mark: 'line+dot', dash: true },
      mine(['max weight with softmax(ω)', Math.max(...wu)], ['max weight with softmax(ω / √d_k)', Math.max(...ws)])]);
    setText(readout, `d_k = ${dk}: the standard deviation of all 8 × 8 scores q·k is ${fixed(spread, 2)} (√d_k = ${fixed(Math.sqrt(dk), 2)}); query 1’s largest weight is ${fixed4(Math.max(...wu))} unscaled and ${fixed4(Math.max(...ws))} divided by √d_k.`);
    setText(conclusionEl, conclusion(sweep));
    const seed = seedFor(ctx.state, 123);
    show(body,
      para('§3.4.1 divides the scores by ', ['$', '\\sqrt{d_k}'], ' before softmax. Here is why, measured: the engine draws 8 random queries and 8 random keys of ', ['$', 'd_k'],
        ` numbers each, every number uniform on [−√3, √3) (mean 0, variance 1), with torch.rand after torch.manual_seed(${seed}), queries first, exactly as PyTorch draws them. Each score q·k is a sum of d_k products of variance 1, so its spread grows like √d_k, and softmax of large scores puts almost all the weight on one key.`),
      place(experiment),
      codeCell(`import torch\n\nd_k = ${dk}\ntorch.manual_seed(${seed})\nqueries = (torch.rand(8, d_k) * 2 - 1) * 3**0.5   # mean 0, variance 1\nkeys = (torch.rand(8, d_k) * 2 - 1) * 3**0.5\nattn_scores = queries @ keys.T\nprint(attn_scores.std())\nprint(torch.softmax(attn_scores[0], dim=-1))\nprint(torch.softmax(attn_scores[0] / d_k**0.5, dim=-1))`,
        [r('dk/spread').line, r('dk/weights_unscaled').line, r('dk/weights_scaled').line].join('\n'), { testid: 'dk-print' }),
    );
  }
  return { el, update };
}
