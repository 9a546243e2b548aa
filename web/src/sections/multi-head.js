// Section "multi-head" (§3.6): the wrapper and MultiHeadAttention on the learner's inputs, exercise 3.2,
// and exercise 3.3 timed in a Web Worker, which is started only when the learner runs the timing.
import { h, para, codeCell, uid, place, setText } from '../dom.js';
import { startEngineWorker } from '../engine.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, resultCell, listing, show, errorNote } from './common.js';
import { matrixView } from '../views/index.js';
import { exercise32, exercise33 } from '../learn/exercises.js';
import { scalingText } from '../learn/scaling.js';
import LISTING_3_4 from '../../../book/listings/listing_3_4.py';
import LISTING_3_5 from '../../../book/listings/listing_3_5.py';
import { hasWeights, loadState, biasArgument } from './weights-code.js';
import { t, engineSentence } from '../i18n/index.js';

const MHA_TOKENS = [128, 256, 512, 1024];

// The book's (1, 2, 3, 4) example tensor of §3.6.2, as the book writes it (the engine's 3.6.2/a_at_aT is its product).
const BOOK_A = `a = torch.tensor([[[[0.2745, 0.6584, 0.2775, 0.8573],
                    [0.8993, 0.0390, 0.9268, 0.7388],
                    [0.7179, 0.7058, 0.9156, 0.4340]],
                   [[0.0772, 0.3565, 0.1479, 0.5331],
                    [0.4066, 0.2318, 0.4545, 0.9737],
                    [0.4606, 0.5159, 0.4220, 0.5786]]]])`;

// What Python shows when Listing 3.5's assert fails (d_out not divisible by num_heads): the traceback,
// whose last line is the exception.
const MHA_ASSERTION = 'Traceback (most recent call last):\n  ...\nAssertionError: d_out must be divisible by num_heads';

export default {
  id: 'multi-head',
  get title() { return t('multiHead.title'); },
  rung: { get name() { return t('multiHead.rung.name'); }, get note() { return t('multiHead.rung.note'); } },
  build,
};

function build(ctx) {
  const { el, body } = sectionFrame('multi-head', t('multiHead.title'));
  // the heads as small multiples: each head's causal weights for the first batch item
  const heads = [1, 2].map((k) => matrixView(null, { name: t('multiHead.headName', { k }), title: t('multiHead.headTitle', { k }), testid: `head-${k}-heatmap`,
    rowName: t('word.query'), colName: t('word.key'), scale: 'rows', legend: k === 2 }));
  const ex32 = exercise32(ctx), ex33 = exercise33(ctx);   // exercises 3.2 and 3.3, checked by the engine
  const timingRows = h('tbody');
  const timingStatus = h('p', { class: 'hint', role: 'status', 'data-testid': 'mha-status' });
  // the program the worker runs, as Python (engine-worker.js: x drawn after the seed, then the module built after it)
  // (the learner's seed replaces both torch.manual_seed calls, as everywhere on the page)
  const gpt2Program = (tokens, seed) => `torch.manual_seed(${seed})\nx = torch.rand(1, ${tokens}, 768)\ntorch.manual_seed(${seed})\nmha = MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12)\nprint(mha(x))`;
  let timingSeed = seedFor(ctx.state, 123);   // the seed of the program shown (and of its print, once run)
  const timingCode = h('code', { class: 'language-python', text: gpt2Program(256, timingSeed) });
  const timingOut = h('pre', { class: 'out', 'data-testid': 'mha-output' });
  const timingCell = h('div', { class: 'cell', hidden: true }, h('pre', { class: 'code' }, timingCode), timingOut);
  const tokensSelect = h('select', { id: uid('mha-t') }, MHA_TOKENS.map((t) => h('option', { value: String(t), text: String(t), selected: t === 256 })));
  const runBtn = h('button', { type: 'button', 'data-testid': 'mha-run', text: t('multiHead.run') });
  const runAllBtn = h('button', { type: 'button', 'data-testid': 'mha-run-all', text: t('multiHead.runAll', { list: MHA_TOKENS.join(', ') }) });
  let worker = null, queue = [], busy = false;
  const times = new Map();

  // the table and the print appear with the first time: before a run they would be empty bands
  const timingTable = h('div', { class: 'scroll', hidden: true }, h('table', { class: 'compare', 'data-testid': 'mha-times' }, h('caption', { text: t('multiHead.timesCaption') }),
    h('thead', null, h('tr', null, ['T', 'T²', t('multiHead.colTime'), t('multiHead.colVsHalf')].map((text) => h('th', { scope: 'col', text })))), timingRows));
  // what doubling T did, said from the table's own times (learn/scaling.js)
  const scaling = h('p', { class: 'note', 'data-testid': 'mha-scaling', hidden: true });
  const timing = (h('div', { class: 'timing' }, h('h3', { text: t('multiHead.timingTitle') }),
    para(t('multiHead.timingIntro')),
    h('div', { class: 'controls' }, h('label', { for: tokensSelect.id, text: t('multiHead.tokensLabel') }), tokensSelect, runBtn, runAllBtn),
    timingStatus,
    timingTable, scaling, timingCell));

  function startWorker() {
    if (worker) return worker;
    worker = startEngineWorker(ctx.base, ctx.kind());
    worker.onmessage = (event) => {
      const m = event.data || {};
      busy = false;
      if (m.error) { timingStatus.textContent = `T = ${m.tokens}: ${m.error}`; queue = []; return; }
      times.set(m.tokens, m.ms);
      renderTimes();
      if (m.seed !== timingSeed) { next(); return; }   // run before a seed edit: its print is not this program's
      timingCell.hidden = false;
      setText(timingCode, gpt2Program(m.tokens, m.seed));
      timingOut.textContent = m.print;
      timingStatus.textContent = t('multiHead.ran', { tokens: m.tokens, ms: m.ms.toFixed(1) });
      next();
    };
    worker.onerror = (e) => { e.preventDefault(); busy = false; timingStatus.textContent = t('multiHead.workerFailed', { reason: e.message || t('multiHead.couldNotStart') }); worker = null; };
    return worker;
  }
  function next() {
    if (busy || queue.length === 0) return;
    const tokens = queue.shift();
    try { startWorker(); } catch (e) { timingStatus.textContent = e.message; queue = []; return; }
    busy = true;
    timingStatus.textContent = t('multiHead.running', { tokens });
    worker.postMessage({ engine: ctx.kind(), op: 'mha', tokens, seed: timingSeed });
  }
  function renderTimes() {
    const sorted = [...times.keys()].sort((a, b) => a - b);
    timingTable.hidden = sorted.length === 0;
    scaling.hidden = sorted.length === 0;
    setText(scaling, scalingText(times));
    timingRows.replaceChildren(...sorted.map((t) => {
      const ms = times.get(t), half = times.get(t / 2);
      return h('tr', null, h('td', { text: String(t) }), h('td', { text: String(t * t) }), h('td', { 'data-testid': `mha-ms-${t}`, text: ms.toFixed(1) }),
        h('td', { text: half ? `× ${(ms / half).toFixed(1)}` : '—' }));
    }));
  }
  runBtn.addEventListener('click', () => { queue.push(Number(tokensSelect.value)); next(); });
  runAllBtn.addEventListener('click', () => { queue.push(...MHA_TOKENS); next(); });

  function update() {
    const st = ctx.state;
    const D = ctx.changedData('multi-head');
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const withShape = (id) => (r(id).error ? null : h('pre', { class: 'out', text: r(`${id}.shape`).line }));
    const seed = seedFor(st, 123);
    // a new seed: the timing's program follows it, and a print made with the old one is put away
    if (seed !== timingSeed) { timingSeed = seed; timingCell.hidden = true; setText(timingCode, gpt2Program(256, seed)); }
    ex32.update(r); ex33.update(r);
    const mhaOut = r('3.6.2/context_vecs');   // an error when d_out is odd: Listing 3.5's assert fails
    heads.forEach((view, k) => {
      const w = r(`heads/${k + 1}/attn_weights`), n = w.shape[1];
      view.update({ values: w.values, texts: w.values.map(String), shape: w.shape, rowLabels: st.words, colLabels: st.words,
        mask: w.values.map((_, idx) => idx % n > Math.floor(idx / n)) });
    });
    show(body,
      para(t('multiHead.intro')),
      listing(t('multiHead.listing34'), LISTING_3_4.trimEnd()),
      resultCell(`torch.manual_seed(${seed})\ncontext_length = batch.shape[1]\nd_in, d_out = ${st.d_in}, ${st.d_out}\nmha = MultiHeadAttentionWrapper(d_in, d_out, context_length, 0.0, num_heads=2)\ncontext_vecs = mha(batch)\nprint(context_vecs)\nprint("context_vecs.shape:", context_vecs.shape)`,
        r('3.6.1/context_vecs'), '3.6.1/context_vecs', { extra: withShape('3.6.1/context_vecs') }),
      para(t('multiHead.headsIntro')),
      h('div', { class: 'matrices heads' }, heads.map((v) => place(v.el))),
      h('h3', { text: t('multiHead.ex32Title') }),
      ex32.prompt.placed(),
      ex32.prompt.gate(para(t('multiHead.ex32Solution')),
        resultCell(`torch.manual_seed(${seed})\nmha = MultiHeadAttentionWrapper(d_in, 1, context_length, 0.0, num_heads=2)\nprint(mha(batch))`, r('ex3.2/context_vecs'), 'ex3.2/context_vecs')),
      h('h3', { text: t('multiHead.mhaTitle') }),
      para(t('multiHead.mhaIntro')),
      codeCell(`${BOOK_A}\nprint(a @ a.transpose(2, 3))`, r('3.6.2/a_at_aT').line, { cell: '3.6.2/a_at_aT' }),
      listing(t('multiHead.listing35'), LISTING_3_5.trimEnd()),
      resultCell(`torch.manual_seed(${seed})\nbatch_size, context_length, d_in = batch.shape\nd_out = ${st.d_out}\nmha = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads=2${biasArgument(D)})${hasWeights(D) ? `\n${loadState(D, 'mha', 'mha')}` : ''}\ncontext_vecs = mha(batch)\nprint(context_vecs)\nprint("context_vecs.shape:", context_vecs.shape)`,
        mhaOut.error ? { line: MHA_ASSERTION } : mhaOut, '3.6.2/context_vecs', { extra: mhaOut.error ? errorNote(engineSentence(mhaOut)) : withShape('3.6.2/context_vecs') }),
      ex33.prompt.placed(),
      ex33.prompt.gate(codeCell('mha = MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12)\nprint(sum(p.numel() for p in mha.parameters()))', r('ex3.3/num_params').line, { cell: 'ex3.3/num_params' })),
      place(timing));
  }
  return { el, update };
}
