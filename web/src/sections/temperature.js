// Section "temperature": the same scores of query 2 divided by T before softmax. A slider step is one
// engine call (the weights under T, the 6×6 map under T and z(2) under T) and changes only text and
// transforms, so it stays cheap.
import { h, para, tex, uid, fixed4, setText } from '../dom.js';
import { sectionFrame } from './common.js';

const T_STEPS_PER_DECADE = 100;   // slider positions: log10(T) in hundredths, T from 0.01 to 100

export default { id: 'temperature', title: 'Feel the scaling: a temperature slider', rung: null, build };

function build(ctx) {
  const { el, body } = sectionFrame('temperature', 'Feel the scaling: a temperature slider');
  const sliderId = uid('temp'), helpId = uid('temp-help');
  const slider = h('input', { type: 'range', id: sliderId, min: String(-2 * T_STEPS_PER_DECADE), max: String(2 * T_STEPS_PER_DECADE), step: '1',
    'data-testid': 'temperature-slider', 'aria-describedby': helpId, list: uid('temp-marks') });
  const marks = h('datalist', { id: slider.getAttribute('list') });
  const tText = h('output', { for: sliderId, class: 'tvalue' });
  const weightsText = h('output', { class: 'weights-text', 'data-testid': 'temperature-weights', 'aria-live': 'off' });
  const regime = h('p', { class: 'regime', role: 'status', 'aria-live': 'polite', 'data-testid': 'temperature-regime' });
  const printOut = h('pre', { class: 'out temperature-out' });
  const bars = h('div', { class: 'bars', 'aria-hidden': 'true' });
  const markLabels = h('div', { class: 'mark-labels', 'aria-hidden': 'true' });
  const sqrtLabel = h('div', { class: 'mark-labels top', 'aria-hidden': 'true' });   // above the track: never on T=1's label
  const barEls = [], valueEls = [], wordEls = [];
  let userT = ctx.state.temperature ?? null;   // null: follow √d_k; set by the slider (or the temperature attribute)
  let sqrtDk = Math.SQRT2, sqrtDkPos = 15;

  const posOf = (T) => Math.round(Math.log10(T) * T_STEPS_PER_DECADE);
  // Marked positions take their exact value (√d_k, 1); the others are 10^(pos/100).
  const tOf = (pos) => (pos === sqrtDkPos ? sqrtDk : pos === 0 ? 1 : 10 ** (pos / T_STEPS_PER_DECADE));
  const tLabel = (T) => (T === sqrtDk ? `${T.toFixed(3)} (√d_k)` : T >= 10 ? T.toFixed(1) : T >= 0.1 ? T.toFixed(3) : T.toFixed(4));
  const pct = (pos) => `${((pos + 2 * T_STEPS_PER_DECADE) / (4 * T_STEPS_PER_DECADE)) * 100}%`;

  slider.addEventListener('input', () => { userT = tOf(Number(slider.value)); apply(); });

  body.append(
    para('The slider divides the same scores ', ['$', '\\omega_2'], ' by a temperature ', ['$', 'T'], ' before softmax. Small T mimics what unscaled, large dot products do (one bar takes everything: a step function); large T what over-scaling would do (all bars equal: no signal). ', ['$', '\\sqrt{d_k}'], ' sits in the healthy middle.'),
    h('div', { class: 'slider' },
      h('label', { for: sliderId }, 'Temperature ', tex('T'), ': ', tText),
      sqrtLabel, slider, marks, markLabels,
      h('p', { id: helpId, class: 'hint', text: 'Log scale from 0.01 to 100. Arrow keys move in small steps, Page Up/Down in larger ones, Home/End to the ends. √d_k and T = 1 (unscaled) are marked.' })),
    h('div', { class: 'bars-wrap' }, bars),
    h('p', { class: 'weights-line' }, tex('\\alpha_2 = '), ' [', weightsText, ']'),
    regime, printOut);
  markLabels.append(
    h('span', { class: 'mark', style: `left:${pct(-200)}`, text: '0.01' }),
    h('span', { class: 'mark', style: `left:${pct(0)}`, text: '│ T=1 (unscaled)' }),
    h('span', { class: 'mark', style: `left:${pct(200)}`, text: '100' }));
  const sqrtMark = h('span', { class: 'mark sqrt' });
  sqrtLabel.append(sqrtMark);

  // The learner's inputs changed: the same T (or √d_k for the new d_k), on the new scores.
  function update() { apply(); }

  // One engine call for the current T, then text, attributes and transforms only.
  function apply() {
    const following = userT === null || userT === sqrtDk;
    let D;
    try {
      D = ctx.data('temperature', following ? {} : { temperature: userT });
    } catch (e) {
      regime.textContent = e.message;
      return;
    }
    const r = (name) => D.get(name);
    const dk = r('values').shape[1];
    if (Math.sqrt(dk) !== sqrtDk) {
      sqrtDk = Math.sqrt(dk);
      sqrtDkPos = posOf(sqrtDk);
    }
    const T = following ? sqrtDk : userT;
    if (following) userT = null;
    setText(sqrtMark, `√d_k=${sqrtDk.toFixed(2)} │`);
    if (marks.firstChild?.value !== String(sqrtDkPos)) {
      marks.replaceChildren(h('option', { value: String(sqrtDkPos), label: '√d_k' }), h('option', { value: '0', label: 'T = 1 (unscaled)' }));
      sqrtMark.style.left = pct(sqrtDkPos);
    }
    slider.value = String(posOf(T));

    const words = ctx.state.words;
    const w = r('temperature_weights_2').values;
    while (barEls.length < w.length) {
      const bar = h('div', { class: 'bar' }), value = h('span', { class: 'bar-value' }), word = h('span', { class: 'bar-word' });
      barEls.push(bar); valueEls.push(value); wordEls.push(word);
      bars.append(h('div', { class: 'bar-col' }, value, h('div', { class: 'bar-track' }, bar), word));
    }
    const texts = w.map(fixed4);
    for (let j = 0; j < w.length; j++) {
      barEls[j].style.transform = `scaleY(${w[j]})`;
      setText(valueEls[j], texts[j]);
      setText(wordEls[j], words[j]);
    }
    setText(weightsText, texts.join(' '));
    setText(tText, tLabel(T));
    const valueText = `T = ${tLabel(T)}; weights ${texts.join(', ')}`;
    if (slider.getAttribute('aria-valuetext') !== valueText) slider.setAttribute('aria-valuetext', valueText);
    setText(printOut, `print(torch.softmax(attn_scores_2 / ${r('temperature').values[0]}, dim=-1))\n${r('temperature_weights_2').print}`);
    let top = 0;
    for (let j = 1; j < w.length; j++) if (w[j] > w[top]) top = j;
    const max = w[top], min = Math.min(...w);
    const text = max >= 0.9 ? `Step function: “${words[top]}” takes (almost) all the attention, as unscaled large dot products would make softmax do.`
      : max - min <= 0.01 ? 'Nearly uniform: every token gets about the same weight, so attention carries no signal.'
        : `In between: the weights still rank the tokens (“${words[top]}” most), and no token takes everything.`;
    setText(regime, text);   // a live region: it speaks only changes
  }

  return { el, update };
}
