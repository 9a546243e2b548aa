// Section "temperature": the same scores of query 2 divided by T before softmax. The slider only
// calls AttentionRun.setTemperature and moves six bars with transforms, so an update stays cheap.

const T_STEPS_PER_DECADE = 100;   // slider positions: log10(T) in hundredths, T from 0.01 to 100

function temperatureSection(ctx) {
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
  let barEls = [], valueEls = [], wordEls = [];
  let userT = null;        // null: follow √d_k; set once the learner moves the slider
  let sqrtDk = Math.SQRT2, sqrtDkPos = 15, results = null;

  const posOf = (T) => Math.round(Math.log10(T) * T_STEPS_PER_DECADE);
  // Marked positions take their exact value (√d_k, 1); the others are 10^(pos/100).
  const tOf = (pos) => (pos === sqrtDkPos ? sqrtDk : pos === 0 ? 1 : 10 ** (pos / T_STEPS_PER_DECADE));
  const tLabel = (T) => (T === sqrtDk ? `${T.toFixed(3)} (√d_k)` : T >= 10 ? T.toFixed(1) : T >= 0.1 ? T.toFixed(3) : T.toFixed(4));

  slider.addEventListener('input', () => { userT = tOf(Number(slider.value)); apply(userT); });

  body.append(
    para('The slider divides the same scores ', ['$', '\\omega_2'], ' by a temperature ', ['$', 'T'], ' before softmax. Small T mimics what unscaled, large dot products do (one bar takes everything: a step function); large T what over-scaling would do (all bars equal: no signal). ', ['$', '\\sqrt{d_k}'], ' sits in the healthy middle.'),
    h('div', { class: 'slider' },
      h('label', { for: sliderId }, 'Temperature ', tex('T'), ' = ', tText),
      sqrtLabel, slider, marks, markLabels,
      h('p', { id: helpId, class: 'hint', text: 'Log scale from 0.01 to 100. Arrow keys move in small steps, Page Up/Down in larger ones, Home/End to the ends. √d_k and T = 1 are marked.' })),
    h('div', { class: 'bars-wrap' }, bars),
    h('p', { class: 'weights-line' }, tex('\\alpha_2 = '), ' [', weightsText, ']'),
    regime, printOut);

  function update(R) {
    results = R;
    const dk = R.v1.keys.shape[1];
    sqrtDk = Math.sqrt(dk);
    sqrtDkPos = posOf(sqrtDk);
    marks.replaceChildren(h('option', { value: String(sqrtDkPos), label: '√d_k' }), h('option', { value: '0', label: 'T = 1' }));
    const pct = (pos) => `${((pos + 2 * T_STEPS_PER_DECADE) / (4 * T_STEPS_PER_DECADE)) * 100}%`;
    markLabels.replaceChildren(
      h('span', { class: 'mark', style: `left:${pct(-200)}`, text: '0.01' }),
      h('span', { class: 'mark', style: `left:${pct(0)}`, text: '│ T=1' }),
      h('span', { class: 'mark', style: `left:${pct(200)}`, text: '100' }));
    sqrtLabel.replaceChildren(h('span', { class: 'mark sqrt', style: `left:${pct(sqrtDkPos)}`, text: `√d_k=${sqrtDk.toFixed(2)} │` }));
    const words = R.state.words;
    barEls = []; valueEls = []; wordEls = [];
    bars.replaceChildren(...words.map((w) => {
      const bar = h('div', { class: 'bar' }), value = h('span', { class: 'bar-value' }), word = h('span', { class: 'bar-word', text: w });
      barEls.push(bar); valueEls.push(value); wordEls.push(word);
      return h('div', { class: 'bar-col' }, value, h('div', { class: 'bar-track' }, bar), word);
    }));
    const T = userT ?? sqrtDk;
    slider.value = String(posOf(T));
    apply(T);
  }

  // One slider step: the engine's softmax(ω2 / T), then text and transforms only.
  function apply(T) {
    const run = ctx.run();
    const err = run.setTemperature(T);
    if (err) { regime.textContent = err; return; }
    const shape = run.shape('temperature_weights');
    const all = run.tensor('temperature_weights');
    const n = shape[shape.length - 1];
    const w = shape.length === 2 ? all.slice(n, 2 * n) : all.slice(0, n);   // query 2's row
    const texts = Array.from(w, fixed4);
    for (let j = 0; j < n; j++) {
      barEls[j].style.transform = `scaleY(${w[j]})`;
      valueEls[j].textContent = texts[j];
    }
    weightsText.textContent = texts.join(' ');
    tText.textContent = tLabel(T);
    slider.setAttribute('aria-valuetext', `T = ${tLabel(T)}; weights ${texts.join(', ')}`);
    printOut.textContent = `print(torch.softmax(attn_scores_2 / ${fullFloat(T)}, dim=-1))\n${ctx.engine.formatTensor(w, [n])}`;
    const max = Math.max(...texts.map(Number)), min = Math.min(...texts.map(Number));
    const top = results.state.words[texts.indexOf(fixed4(max))];
    const text = max >= 0.9 ? `Step function: “${top}” takes (almost) all the attention, as unscaled large dot products would make softmax do.`
      : max - min <= 0.01 ? 'Nearly uniform: every token gets about the same weight, so attention carries no signal.'
        : `In between: the weights still rank the tokens (“${top}” most), and no token takes everything.`;
    if (regime.textContent !== text) regime.textContent = text;   // a live region: speak only changes
  }

  return { el, update };
}
