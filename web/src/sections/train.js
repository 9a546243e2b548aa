// Section "train" (issue 16): the chapter's CausalAttention trained live by the engine's `train` op, its
// loss, its 6×6 weights and W_q, W_k, W_v drawn at any recorded step. Training runs only when the learner
// asks (Play, Step): the engine computes the whole run, a slice of steps per task so the page keeps
// responding (the engine's TrainRun), then playback replays its records, a few per animation frame.
// An edit of the inputs only resets (one engine step for the untrained state).
//
// The task. The first idea (SelfAttention_v2 on one sentence, position one-hots appended, target
// the previous token) trains to a loss near 0 without a previous-token pattern: with one sequence the
// value projection of the one-hot positions is a lookup table, so any invertible weight matrix does. So
// the same tokens come in four orders (a batch): the previous token's embedding then depends on the
// order, and only attention to the previous position can produce it. CausalAttention (§3.5) because a
// previous-token head is what GPT-style models learn; token 1, with nothing before it, copies itself.
// The task itself (the orders, one-hots, target, record stride, optimizers, the printed lines and the
// program) is the engine's (engine/src/replay/train_task.h): this section only drives and draws it.
import { h, para, uid, fixed4, place, setText, pythonCode } from '../dom.js';
import { inputRows } from '../inputs.js';
import { sectionFrame, show } from './common.js';
import { matrixView, linePlot } from '../views/index.js';
import { trainRun, startTrainRun, trainTaskOf } from '../engine.js';
import { nextTask, frame as inNextFrame, BUDGET_MS } from '../scheduler.js';
import { previousTokenVerdict, verdictText } from './train-verdict.js';
import { t, textWith, engineSentence } from '../i18n/index.js';

export default { id: 'train', get title() { return t('train.title'); }, rung: null, build };

const LR_MAX = 10;
const RECORDS_PER_FRAME = 2;          // playback: 300 steps in about 2.5 s at 60 frames a second

// The learner's side of the task: their inputs, seed (the task's own when they set none) and settings.
function taskSettings(state, optimizer, lr) {
  return { inputs: inputRows(state), ...(state.seed === null ? {} : { seed: state.seed }), optimizer, ...(lr === undefined ? {} : { lr }) };
}

// The engine's train request: the task's name and the learner's settings, no task constant (the engine
// builds the batch, the stride and SGD's momentum). steps: the task's whole run when omitted.
export function trainRequest(state, optimizer, lr, steps) {
  return { op: 'train', task: 'previous_token', ...taskSettings(state, optimizer, lr), ...(steps ? { steps } : {}), record_parameters: true, prints: false };
}

// An optimizer's name in the menu: the engine's presets (Adam; SGD with its momentum), in the page's language.
const optimizerLabel = (o) => (o.name === 'adam' ? t('train.optimizerAdam') : o.name === 'sgd' && o.momentum !== undefined ? t('train.optimizerSgd', { momentum: o.momentum }) : o.label);

// A loss that is not a number as Python prints it: nan, inf or -inf.
const pythonFloat = (v) => (Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v));

// A learning rate from the field: {value} or {error: a sentence}.
export function parseLr(text) {
  const typed = text.trim();
  const v = Number(typed);
  if (typed === '' || !/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(typed) || !(v > 0 && v <= LR_MAX)) {
    return { error: t('train.lrError', { max: LR_MAX, text: typed.slice(0, 12) }) };
  }
  return { value: v };
}

function build(ctx) {
  const { el, body } = sectionFrame('train', t('train.title'));
  // the task as the engine defines it: its steps, print interval and optimizers do not change with the inputs
  const defined = trainTaskOf(ctx.engine, taskSettings(ctx.state, 'adam'));
  const TRAIN_STEPS = defined.steps;
  const OPTIMIZERS = new Map(defined.optimizers.map((o) => [o.name, o]));
  const lrId = uid('train-lr'), optId = uid('train-opt'), scrubId = uid('train-scrub'), errId = uid('train-error');
  // its label says what a press does (Play or Pause): no aria-pressed, which would contradict a changing label
  const playBtn = h('button', { type: 'button', 'data-testid': 'train-play', text: t('train.play') });
  const stepBtn = h('button', { type: 'button', 'data-testid': 'train-step-button', text: t('train.step') });
  const resetBtn = h('button', { type: 'button', 'data-testid': 'train-reset', text: t('train.reset') });
  const optSelect = h('select', { id: optId, 'data-testid': 'train-optimizer' },
    [...OPTIMIZERS].map(([value, o]) => h('option', { value, text: optimizerLabel(o) })));
  const lrInput = h('input', { type: 'text', id: lrId, inputmode: 'decimal', class: 'num-input', autocomplete: 'off', 'data-testid': 'train-lr', 'aria-describedby': errId, value: String(OPTIMIZERS.get('adam').lr) });
  const error = h('p', { id: errId, class: 'note error', role: 'status', 'data-testid': 'train-error' });
  const stepText = h('span', { 'data-testid': 'train-step', text: '0' });
  const lossText = h('span', { 'data-testid': 'train-loss' });
  const status = h('p', { class: 'train-status' }, textWith((m) => t('train.status', m), { step: stepText, total: String(TRAIN_STEPS), loss: lossText }));
  const scrubber = h('input', { type: 'range', id: scrubId, min: '0', max: '0', step: '1', value: '0', 'data-testid': 'train-scrubber', disabled: true });
  const note = h('p', { class: 'hint', 'data-testid': 'train-note', 'aria-live': 'polite' });
  // what the shown step's weights say, from the numbers (every frame while playing: not a live region)
  const verdictEl = h('p', { class: 'train-verdict', 'data-testid': 'train-verdict', 'data-learned': 'false' });
  const controls = h('div', { class: 'train-controls' },
    h('div', { class: 'controls' }, playBtn, stepBtn, resetBtn,
      // each label kept with its control when the row wraps (a phone)
      h('span', { class: 'keep' }, h('label', { for: optId, text: t('train.optimizer') }), optSelect),
      h('span', { class: 'keep' }, h('label', { for: lrId, text: t('train.learningRate') }), lrInput)),
    error, status, verdictEl,
    h('p', { class: 'slider train-scrub' }, h('label', { for: scrubId, text: t('train.replay') }), scrubber),
    note);
  // its y domain is set per run (linePlot reads options.y.domain at each draw): the curve grows into a
  // fixed frame during playback instead of rescaling every frame
  const lossOptions = { title: t('train.lossTitle'), testid: 'train-loss-plot',
    summary: t('train.lossSummary'),
    x: { label: t('train.stepAxis'), domain: [0, TRAIN_STEPS] }, y: { label: t('train.lossAxis'), log: 10 }, series: [],
    describe: (p) => t('train.lossPoint', { step: p.x, loss: fixed4(p.y) }) };
  const lossPlot = linePlot(lossOptions);
  const heat = matrixView(null, { name: 'attn_weights', title: t('train.heatTitle'), testid: 'train-heatmap',
    rowName: t('word.query'), colName: t('word.key'), scale: 'rows' });
  // their options kept: the colour domain is set per run (matrixView reads options.domain at each update)
  const wOptions = ['W_query', 'W_key', 'W_value'].map((name, i) => ({ name: t('train.weightTransposed', { name }), title: `${['W_q', 'W_k', 'W_v'][i]} (${name}.weight.T)`,
    testid: `train-${name}`, rowName: t('word.input'), colName: t('word.output'), scale: 'diverging', domain: [-1, 1] }));
  const wViews = wOptions.map((o) => matrixView(null, o));
  const codeOut = h('pre', { class: 'out', 'data-testid': 'train-print' });

  let task = null, taskKey = '';   // the engine's train task for the learner's inputs and settings (trainTaskOf)
  // lrBefore: the field's value before the learner began typing in it, which an invalid entry brings back
  let optimizer = 'adam', lr = OPTIMIZERS.get('adam').lr, lrBefore = lr;
  let start = null;          // the untrained state: a one-step run (its record 0)
  let run = null;            // the whole run, once the learner asked for training and it is computed
  let computing = null;      // the run being computed: {session, every, losses, weights, history, parameters, then}
  let shown = 0, reached = 0;   // the step on screen, the furthest step taken
  let playing = false, frame = null;   // frame: cancels the queued playback tick

  const every = () => (run ? run.every : 1);
  const last = () => (run ? run.end : TRAIN_STEPS);   // the run's last step: earlier when its loss became NaN or ±Inf
  const source = () => run || start;
  // record index of step k
  const rec = (k) => k / every();

  function fail(e) { setText(error, engineSentence(e)); }

  // The untrained module: one engine step, record 0 only (no training yet).
  function resetRun() {
    stop();
    dropComputing();
    run = null; shown = 0; reached = 0;
    start = null;
    if (!task) return;
    try {
      start = trainRun(ctx.engine, trainRequest(ctx.state, optimizer, lr, 1));
      start.every = 1;
    } catch (e) { fail(e); }
  }

  // then() once the whole run (TRAIN_STEPS updates and the forward after them) is computed: at once
  // when it is, else after the slices still to come, in the order asked (two Steps: two updates).
  function withRun(then) {
    if (run) { then(); return; }
    if (computing) { const before = computing.then; computing.then = () => { before(); then(); }; return; }
    const every = task.record_every;
    let session;
    try {
      session = startTrainRun(ctx.engine, trainRequest(ctx.state, optimizer, lr));
    } catch (e) { stop(); fail(e); showStep(shown); return; }
    computing = { session, every, losses: [], weights: [], history: [], parameters: null, then };
    computeSlice(computing);
  }
  // One slice of the run, in this task: whole records (every steps a call) until the scheduler's compute budget
  // has passed (so input and frames get through).
  function computeSlice(c) {
    if (c !== computing) return;   // dropped: a reset, an edit or new settings
    const began = performance.now();
    try {
      do {
        const part = c.session.advance(c.every);
        c.losses.push(...part.losses);
        c.weights.push(...part.weights);
        c.history.push(...part.parameter_history);
        c.parameters = part.parameters;
        c.broken = c.losses.findIndex((v) => !Number.isFinite(v));
      } while (c.broken < 0 && c.session.stepsLeft() > 0 && performance.now() - began < BUDGET_MS.compute);
    } catch (e) { dropComputing(); stop(); fail(e); showStep(shown); return; }
    if (c.broken < 0 && c.session.stepsLeft() > 0) {
      setText(note, t('train.computing', { done: Math.min(c.losses.length, TRAIN_STEPS), total: TRAIN_STEPS }));
      nextTask().then(() => computeSlice(c));
      return;
    }
    const printed = c.session.printed();
    dropComputing();
    // a loss of NaN or ±Inf at step b: the run stops there (its last recorded step at or before b)
    const end = c.broken < 0 ? TRAIN_STEPS : Math.floor(c.broken / c.every) * c.every;
    const records = end / c.every + 1;
    run = { losses: c.losses.slice(0, end + 1), weights: c.weights.slice(0, records), parameter_history: c.history.slice(0, records),
      parameters: c.parameters, every: c.every, end, printed, broken: c.broken < 0 ? null : { step: c.broken, loss: pythonFloat(c.losses[c.broken]) } };
    run.domain = weightDomain(run.parameter_history);
    if (shown > end) shown = end;
    drawCodeOutput();
    c.then();
  }
  function dropComputing() {
    if (computing) computing.session.close();
    computing = null;
  }

  // The loss axis: the run's smallest to largest loss (before a run, a decade below the first one).
  function lossDomain(losses) {
    const ok = losses.filter((v) => Number.isFinite(v) && v > 0);
    if (!ok.length) return undefined;
    const lo = Math.min(...ok), hi = Math.max(...ok);
    return ok.length === 1 || hi / lo < 10 ? [Math.min(lo, hi / 10), hi] : [lo, hi];
  }

  // One colour scale for W_q, W_k and W_v over the whole run, so a growing weight looks it.
  function weightDomain(history) {
    let m = 1e-6;
    for (const params of history) for (const r of Object.values(params)) for (const v of r.values) if (Number.isFinite(v)) m = Math.max(m, Math.abs(v));
    return [-m, m];
  }

  // Shows step k (a recorded one) in every view.
  function showStep(k) {
    const S = source();
    if (!S) return;
    shown = k;
    reached = Math.max(reached, k);
    const i = rec(k);
    const T = ctx.state.tokens;
    const words = ctx.state.words;
    setText(stepText, String(k));
    const loss = S.losses[k];
    setText(lossText, Number.isFinite(loss) ? fixed4(loss) : pythonFloat(loss));
    const w = S.weights[i];
    const first = w.values.slice(0, T * T);   // the first order's T × T block
    heat.update({ values: first, texts: first.map(String), shape: [T, T], rowLabels: words, colLabels: words,
      mask: first.map((_, idx) => idx % T > Math.floor(idx / T)) });
    const params = S.parameter_history[i];
    const domain = run ? run.domain : weightDomain([params]);
    ['W_query', 'W_key', 'W_value'].forEach((name, v) => {
      const r = params[`${name}.weight.T`];   // d_in × d_out, as the engine gives the task's weights to draw
      const [rows, cols] = r.shape;
      wOptions[v].domain = domain;
      wViews[v].update({ values: r.values, texts: r.values.map(String), shape: [rows, cols], rowLabels: task.input_labels, colLabels: Array.from({ length: cols }, (_, j) => String(j + 1)) });
    });
    lossOptions.y.domain = lossDomain(run ? S.losses : [loss]);
    lossPlot.update([
      { name: t('train.lossAxis'), points: S.losses.slice(0, reached + 1).map((y, x) => ({ x, y })).filter((p) => p.y > 0 && Number.isFinite(p.y)), mark: 'line' },
      { name: t('train.stepSeries', { step: k }), points: Number.isFinite(loss) && loss > 0 ? [{ x: k, y: loss }] : [], mark: 'dot' }]);
    scrubber.max = String(run ? reached : 0);
    scrubber.step = String(every());
    scrubber.value = String(k);
    scrubber.disabled = !run;
    scrubber.setAttribute('aria-valuetext', t('train.scrubValue', { step: k, loss: fixed4(loss) }));
    const verdict = previousTokenVerdict(w.values, T, task.orders.length);
    verdictEl.dataset.learned = String(verdict.learned);
    setText(verdictEl, t('train.atStep', { step: k, verdict: verdictText(verdict, words, k > 0 ? { first: S.losses[0], now: loss } : null) }));
    const broken = run && run.broken;
    setText(note, broken && k === run.end ? t('train.broken', { loss: broken.loss, step: broken.step,
      defaults: [...OPTIMIZERS.values()].map((o) => `${o.label.split(' ')[0]} ${o.lr}`).join(t('place.sep')) })
      : !run ? t('train.pressPlay')
        : k === TRAIN_STEPS ? t('train.trained', { steps: TRAIN_STEPS, verdict: verdict.learned ? t('train.trainedLearned')
          : t('train.trainedFailing', { failing: verdict.failing.length, total: verdict.total }) })
          : every() > 1 ? t('train.stride', { every: every() }) : '');
    setText(playBtn, playing ? t('train.pause') : t('train.play'));
  }

  function drawCodeOutput() {
    setText(codeOut, run ? run.printed : t('train.noOutput'));
  }

  function stop() {
    playing = false;
    if (frame) frame();   // cancels the queued tick
    frame = null;
  }
  function tick() {
    frame = null;
    if (!playing) return;
    const next = Math.min(last(), shown + RECORDS_PER_FRAME * every());
    if (next >= last()) playing = false;
    showStep(next);
    if (playing) frame = inNextFrame(tick);
  }
  function play() {
    playing = true;   // Pause works while the run is still being computed
    setText(playBtn, t('train.pause'));
    withRun(() => {
      if (!playing) { showStep(shown); return; }   // paused while it was computed
      if (frame) return;                            // already playing (Play, Pause, Play while it was computed)
      if (shown >= last()) showStep(0);   // at the end: replay from the start
      showStep(shown);
      frame = inNextFrame(tick);
    });
  }

  // Play and Step refuse while the learning rate field holds what is not a learning rate: the learner
  // would otherwise train with a value they did not type.
  const lrInvalid = () => {
    const r = parseLr(lrInput.value);
    if (!r.error) return false;
    lrInput.setAttribute('aria-invalid', 'true');
    setText(error, t('train.lrFirst', { error: r.error }));
    return true;
  };
  playBtn.addEventListener('click', () => {
    if (playing) { setText(error, ''); stop(); showStep(shown); return; }
    if (lrInvalid()) return;
    setText(error, '');
    play();
  });
  stepBtn.addEventListener('click', () => {
    if (lrInvalid()) return;
    setText(error, '');
    stop();
    withRun(() => showStep(Math.min(last(), shown + every())));
  });
  resetBtn.addEventListener('click', () => { setText(error, ''); resetRun(); showStep(0); drawCodeOutput(); });
  scrubber.addEventListener('input', () => {
    stop();
    const k = Number(scrubber.value);
    if (run && Number.isInteger(k) && k >= 0 && k <= reached) showStep(k);
  });
  optSelect.addEventListener('change', () => {
    const was = OPTIMIZERS.get(optimizer);
    optimizer = optSelect.value;
    // the field still holds the old optimizer's default: take the new one's
    if (parseLr(lrInput.value).value === was.lr) { lr = lrBefore = OPTIMIZERS.get(optimizer).lr; lrInput.value = String(lr); lrInput.removeAttribute('aria-invalid'); setText(error, ''); }
    settingsChanged();
  });
  lrInput.addEventListener('focus', () => { lrBefore = lr; });
  lrInput.addEventListener('change', () => { if (!parseLr(lrInput.value).error) lrBefore = lr; });
  lrInput.addEventListener('input', () => {
    const r = parseLr(lrInput.value);
    if (r.error) {
      lrInput.setAttribute('aria-invalid', 'true');
      setText(error, t('train.lrKept', { error: r.error, lr: lrBefore }));
    } else {
      lrInput.removeAttribute('aria-invalid');
      setText(error, '');
    }
    // an invalid entry: the value from before the typing, never a prefix typed on the way ("10" of "1000")
    const next = r.error ? lrBefore : r.value;
    if (next !== lr) { lr = next; settingsChanged(); }
  });
  // New settings: a new run from the untrained module (the same one: only the optimizer differs).
  function settingsChanged() {
    stop();
    dropComputing();
    if (start) start.every = 1;
    run = null; shown = 0; reached = 0;
    task = describe() || task;   // the program for the new settings
    showStep(0);
    drawCodeOutput();
    drawCode();
  }

  const codePre = pythonCode('');
  const codeCell = h('figure', { class: 'cell', 'data-testid': 'train-code' }, codePre, codeOut);
  function drawCode() {
    setText(codePre.firstChild, task ? task.program : '');
  }

  // The engine's task for the learner's inputs and settings (its program among them); a refusal is said.
  function describe() {
    try {
      return trainTaskOf(ctx.engine, { ...taskSettings(ctx.state, optimizer, lr), words: ctx.state.words });
    } catch (e) { fail(e); return null; }
  }

  // An edit: a new task resets training (one engine step for the untrained state); anything else is no change.
  function update() {
    const key = JSON.stringify([ctx.state.inputs, ctx.state.tokens, ctx.state.seed, ctx.state.words]);
    if (key === taskKey) return;
    taskKey = key;
    setText(error, '');
    task = describe();
    resetRun();
    drawCode();
    drawCodeOutput();
    show(body,
      // the one-hot spelled out for the learner's T: a word the chapter does not define
      para(t('train.intro', { tokens: ctx.state.tokens, oneHot: Array.from({ length: ctx.state.tokens }, (_, j) => (j === 1 ? 1 : 0)).join(', ') })),
      place(controls),
      h('div', { class: 'train-views' }, place(lossPlot.el), place(heat.el)),
      para(t('train.weightsNote')),
      h('div', { class: 'matrices train-weights' }, ...wViews.map((v) => place(v.el))),
      h('h3', { text: t('train.pytorchTitle') }),
      para(t('train.programNote', { every: defined.print_every })),
      place(codeCell));
    if (start) showStep(0);
  }

  return { el, update };
}
