// Section "temperature": the same scores of query 2 divided by T before softmax. A slider step is one
// engine call (the weights under T, the 6×6 map under T and z(2) under T) and changes only text and
// transforms, so it stays cheap. Under the slider: z(2) under T (the engine's), drawn among the value
// vectors when d_out = 2, and the whole 6×6 weight map under T.
import { h, para, uid, fixed4, setText } from '../dom.js';
import { tex } from '../math.js';
import { sectionFrame, keyboardScroll } from './common.js';
import { nextFrame, nextTask, offScreen } from '../scheduler.js';
import { matrixView, pointPlot } from '../views/index.js';
import { temperaturePrompts, weightRegime } from '../learn/prompts.js';
import { t, tm, engineSentence } from '../i18n/index.js';

const T_STEPS_PER_DECADE = 100;   // slider positions: log10(T) in hundredths, T from 0.01 to 100

export default { id: 'temperature', get title() { return t('temperature.title'); }, rung: null, build };

function build(ctx) {
  const { el, body } = sectionFrame('temperature', t('temperature.title'));
  const sliderId = uid('temp'), helpId = uid('temp-help');
  const slider = h('input', { type: 'range', id: sliderId, min: String(-2 * T_STEPS_PER_DECADE), max: String(2 * T_STEPS_PER_DECADE), step: '1',
    'data-testid': 'temperature-slider', 'aria-describedby': helpId, list: uid('temp-marks'),
    // the visible label's math and value would make a name ending in ':' (the value is in aria-valuetext)
    'aria-label': t('temperature.sliderLabel') });
  const marks = h('datalist', { id: slider.getAttribute('list') });
  const tText = h('output', { for: sliderId, class: 'tvalue' });
  const weightsText = h('output', { class: 'weights-text', 'data-testid': 'temperature-weights', 'aria-live': 'off' });
  const regime = h('p', { class: 'regime', role: 'status', 'aria-live': 'polite', 'data-testid': 'temperature-regime' });
  // print(torch.softmax(attn_scores_2 / T, dim=-1)) as a code cell: it runs after §3.4.1's cells
  const printCode = h('code', { class: 'language-python' });
  const printOut = h('pre', { class: 'out temperature-out', 'data-testid': 'temperature-print' });
  const printCell = h('div', { class: 'cell' }, h('pre', { class: 'code' }, printCode), printOut);
  const bars = h('div', { class: 'bars', 'aria-hidden': 'true' });
  const markLabels = h('div', { class: 'mark-labels', 'aria-hidden': 'true' });
  const sqrtLabel = h('div', { class: 'mark-labels top', 'aria-hidden': 'true' });   // above the track: never on T=1's label
  const scoresText = h('output', { 'data-testid': 'temperature-scores', 'aria-live': 'off' });
  const contextText = h('output', { 'data-testid': 'temperature-context', 'aria-live': 'off' });
  const heat = matrixView(null, { name: t('temperature.heatName'), title: t('temperature.heatTitle'), testid: 'temperature-heatmap',
    rowName: t('word.query'), colName: t('word.key'), scale: 'rows' });
  const plane = pointPlot({ title: t('temperature.planeTitle'), testid: 'temperature-plane',
    summary: t('temperature.planeSummary'),
    x: { label: t('temperature.axis', { n: 1 }) }, y: { label: t('temperature.axis', { n: 2 }) } });
  const planeNote = h('p', { class: 'hint', hidden: true });
  // under the views, so that appearing it moves nothing the pointer is on
  const shareText = h('p', { class: 'share', 'data-testid': 'temperature-share', 'aria-live': 'polite' });
  const barEls = [], valueEls = [], wordEls = [];
  let lastViewsKey = '';
  const ask = temperaturePrompts(ctx);   // predict, then reveal: the weights as T → 0 and T → ∞
  let userT = ctx.state.temperature ?? null;   // null: follow √d_k; set by the slider (or the temperature attribute)
  let sqrtDk = Math.SQRT2, sqrtDkPos = 15;

  const posOf = (T) => Math.round(Math.log10(T) * T_STEPS_PER_DECADE);
  // Marked positions take their exact value (√d_k, 1); the others are 10^(pos/100).
  const tOf = (pos) => (pos === sqrtDkPos ? sqrtDk : pos === 0 ? 1 : 10 ** (pos / T_STEPS_PER_DECADE));
  const tLabel = (T) => (T === sqrtDk ? `${T.toFixed(3)} (√d_k)` : T >= 10 ? T.toFixed(1) : T >= 0.1 ? T.toFixed(3) : T.toFixed(4));
  const pct = (pos) => `${((pos + 2 * T_STEPS_PER_DECADE) / (4 * T_STEPS_PER_DECADE)) * 100}%`;

  // the learner's T is part of the element's state (el.state, attention-lab-change); null: √d_k
  // Moving the slider shows what the two questions above ask: unanswered, they count as shown.
  slider.addEventListener('input', () => { ask.cold.giveUp(); ask.hot.giveUp(); userT = tOf(Number(slider.value)); apply(true); ctx.state.temperature = userT; ctx.changed?.(); });

  // The map while the slider moves: its cells are written once the slider rests for a frame, not at
  // every step, whose frame their 36 new texts would cost a quarter of on a phone. On screen, each step
  // paints the map's new colours and values in the meantime (drawLive); off screen (on a phone it is
  // under the bars and the plane), nothing until the slider rests.
  let heatPending = null, heatStep = 0, watchingRest = false;
  function drawHeat() {
    heatStep++;   // a draw waiting for the slider to rest is now moot
    const next = heatPending;
    heatPending = null;
    if (next) heat.update(next);
  }
  // The slider rests when a frame and the task after it pass without a step. One watcher for all the
  // steps: a frame with a step only looks again at the next frame (no task, no promise per step).
  function drawHeatAtRest() {
    heatStep++;
    if (watchingRest) return;
    watchingRest = true;
    const watch = (seen) => nextFrame().then(() => {
      if (heatStep !== seen) return watch(heatStep);
      return nextTask().then(() => {
        if (heatStep !== seen) return watch(heatStep);
        watchingRest = false;
        if (heatPending) drawHeat();
      });
    });
    watch(heatStep);
  }

  body.append(
    ...[ask.cold.el, ask.hot.el].filter(Boolean),   // asked before the text below tells
    para(...tm('temperature.intro', {}, { omega: '\\omega_2', T: 'T', sqrtDk: '\\sqrt{d_k}' })),
    // what the two questions ask, said once both are answered (or the slider moved)
    ask.cold.guard(h('div', { class: 'gated' }, ask.hot.guard(h('div', { class: 'gated' },
      para(...tm('temperature.regimes', {}, { sqrtDk: '\\sqrt{d_k}' })))))),
    h('p', { class: 'weights-line' }, tex('\\omega_2 = q^{(2)} \\cdot \\text{keys}^\\top = '), scoresText,
      h('span', { class: 'hint', text: t('temperature.scoresHint') })),
    h('div', { class: 'slider' },
      h('label', { for: sliderId }, tm('temperature.label', {}, { T: 'T' }).map((p) => (Array.isArray(p) ? tex(p[1]) : p)), tText),
      sqrtLabel, slider, marks, markLabels,
      h('p', { id: helpId, class: 'hint', text: t('temperature.help') })),
    h('div', { class: 'bars-wrap' }, bars),
    h('p', { class: 'weights-line' }, tex('\\alpha_2 = '), ' [', weightsText, ']'),
    h('p', { class: 'weights-line' }, tex('z^{(2)} = \\alpha_2 \\cdot \\text{values} = '), contextText),
    regime, printCell,
    h('div', { class: 'temperature-views' }, plane.el, planeNote, heat.el), shareText);
  markLabels.append(
    h('span', { class: 'mark', style: `left:${pct(-200)}`, text: '0.01' }),
    h('span', { class: 'mark', style: `left:${pct(0)}`, text: t('temperature.markOne') }),
    h('span', { class: 'mark', style: `left:${pct(200)}`, text: '100' }));
  const sqrtMark = h('span', { class: 'mark sqrt' });
  sqrtLabel.append(sqrtMark);

  // Linked highlighting: bar j, or a weight of the map in column j, outlines bar j, α₂ⱼ in the map and
  // v⁽ʲ⁾ with its spoke on the plane, and writes out its share of z⁽²⁾ (redone when T changes).
  let linked = -1, shown = null;   // shown: what the latest apply drew
  function link(j) {
    linked = j;
    [...bars.children].forEach((col, k) => col.toggleAttribute('data-hl', k === j));
    for (const sel of ['.plot-spoke', '.plot-point']) plane.el.querySelectorAll(sel).forEach((n, k) => n.toggleAttribute('data-hl', k === j));
    if (j < 0 || !shown || j >= shown.w.length) { heat.clearHighlight(); setText(shareText, ''); return; }
    heat.highlight({ cells: [[1, j]] });
    const { w, values, z2, words } = shown, d = values.shape[1];
    const v = values.values.slice(j * d, (j + 1) * d);
    setText(shareText, t('temperature.share', { word: words[j], j: j + 1, w: fixed4(w[j]), v: v.map(fixed4).join(', '), wv: v.map((x) => fixed4(w[j] * x)).join(', '), z: z2.map(fixed4).join(', ') }));
  }
  bars.addEventListener('pointerover', (e) => { const col = e.target.closest('.bar-col'); if (col) link([...bars.children].indexOf(col)); });
  bars.addEventListener('pointerleave', () => link(-1));
  heat.el.addEventListener('cellhover', (e) => link(e.detail.col));
  heat.el.addEventListener('cellfocus', (e) => link(e.detail.col));
  heat.el.addEventListener('cellleave', () => link(-1));

  // The learner's inputs changed: the same T (or √d_k for the new d_k), on the new scores.
  function update() { apply(); ask.update(ctx.state.words); keyboardScroll(body); }

  // the drawings only when the engine's answer or the words changed (a no-op recompute touches no node)
  function drawViews(D, words, dk, z2, values, w, sliding) {
    const r = (name) => D.get(name);
    const viewsKey = `${D.text}\u0000${words.join('\u0000')}`;
    if (viewsKey === lastViewsKey) return;
    lastViewsKey = viewsKey;
    const weightsAll = r('temperature_weights');
    heatPending = { values: weightsAll.values, texts: weightsAll.values.map(String), shape: weightsAll.shape, rowLabels: words, colLabels: words };
    if (!sliding) drawHeat();
    else {
      if (!offScreen(heat.el)) heat.drawLive(heatPending);
      drawHeatAtRest();
    }
    // the plane only when the values are 2-D (d_out = 2); otherwise the numbers say it
    const flat = dk !== 2;
    if (plane.el.hidden !== flat) plane.el.hidden = flat;   // (setting the same value still writes the attribute)
    if (planeNote.hidden !== !flat) planeNote.hidden = !flat;
    setText(planeNote, t('temperature.planeNote', { dk }));
    if (!flat) {
      plane.update({ points: words.map((word, j) => ({ x: values.values[2 * j], y: values.values[2 * j + 1], label: `v⁽${j + 1}⁾ ${word}` })),
        marker: { x: z2[0], y: z2[1], label: 'z⁽²⁾' }, weights: w }, { glide: !sliding });
    }
  }

  // One engine call for the current T, then text, attributes and transforms only.
  function apply(sliding = false) {
    const following = userT === null || userT === sqrtDk;
    let D;
    try {
      D = ctx.data('temperature', following ? {} : { temperature: userT });
    } catch (e) {
      regime.textContent = engineSentence(e);
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
    const words = ctx.state.words;
    const w = r('temperature_weights_2').values;
    const z2 = r('temperature_context_2').values, values = r('values');
    // the drawings first: the map reads the theme's colours (computed style), cheap only before this
    // step's writes have made the page's style dirty
    drawViews(D, words, dk, z2, values, w, sliding);
    setText(sqrtMark, `√d_k=${sqrtDk.toFixed(2)} │`);
    if (marks.firstChild?.value !== String(sqrtDkPos)) {
      marks.replaceChildren(h('option', { value: String(sqrtDkPos), label: '√d_k' }), h('option', { value: '0', label: t('temperature.optionOne') }));
      sqrtMark.style.left = pct(sqrtDkPos);
    }
    slider.value = String(posOf(T));

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
    setText(scoresText, `[${r('attn_scores_2').values.map(fixed4).join(', ')}]`);
    setText(contextText, `[${z2.map(fixed4).join(', ')}]`);
    const zTexts = z2.map(String).join(' ');   // the engine's shortest texts, for anyone who needs every digit
    if (contextText.getAttribute('data-values') !== zTexts) contextText.setAttribute('data-values', zTexts);
    shown = { w, values, z2, words };
    if (linked >= 0) link(linked);   // the share under the new T
    setText(tText, tLabel(T));
    const valueText = t('temperature.valueText', { T: tLabel(T), weights: texts.join(', ') });
    if (slider.getAttribute('aria-valuetext') !== valueText) slider.setAttribute('aria-valuetext', valueText);
    setText(printCode, `print(torch.softmax(attn_scores_2 / ${r('temperature').values[0]}, dim=-1))`);
    setText(printOut, r('temperature_weights_2').print);
    const { kind, top } = weightRegime(w);
    const text = kind === 'one' ? t('temperature.regimeOne', { word: words[top] })
      : kind === 'uniform' ? t('temperature.regimeUniform')
        : t('temperature.regimeBetween', { word: words[top] });
    setText(regime, text);   // a live region: it speaks only changes
  }

  return { el, update };
}
