// Section "causal" (§3.5): the mask by both routes, dropout with the book's masks, and CausalAttention,
// all on the learner's inputs and seed.
import { h, para, codeCell, place } from '../dom.js';
import { matrixView, shortestFloat32 } from '../views/index.js';
import { sharedLegend } from '../views/legend.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, resultCell, listing, show } from './common.js';
import LISTING_3_3 from '../../../book/listings/listing_3_3.py';
import { causalPrompts, DROPOUT_QUESTION_P } from '../learn/prompts.js';
import { hasWeights, loadState, biasArgument } from './weights-code.js';
import { t } from '../i18n/index.js';

export default {
  id: 'causal',
  get title() { return t('causal.title'); },
  rung: { get name() { return t('causal.rung.name'); }, get note() { return t('causal.rung.note'); } },
  build,
};

function build(ctx) {
  const { el, body } = sectionFrame('causal', t('causal.title'));
  // The α maps are coloured per row (color.js) and read with one legend per pair; the masked future
  // (hatched grey, no value) and cells dropped by dropout (white, a struck-through 0) look different.
  const map = (name, title, testid, extra = {}) => matrixView(null, { name, title, testid, rowName: t('word.query'), colName: t('word.key'), scale: 'rows', legend: false, ...extra });
  const before = map(t('causal.beforeName'), t('causal.beforeTitle'), 'causal-before');
  const causalMap = map(t('causal.causalName'), t('causal.causalTitle'), 'causal-heatmap');
  const ones = map('dropout(ones)', t('causal.onesTitle'), 'dropout-ones', { decimals: 0, scale: 'sequential', domain: [0, 2], legend: true });
  const dropped = map('dropout(attn_weights)', t('causal.droppedTitle'), 'dropout-heatmap');
  // route 2's masked scores: the future holds −inf, drawn as −inf (no colour: it is no number of the scale)
  const maskedScores = matrixView(null, { name: t('causal.maskedName'), title: t('causal.maskedTitle'), testid: 'masked-scores', rowName: t('word.query'), colName: t('word.key'), decimals: 2 });
  const rows = t('causal.rowsSay');
  const maskLegend = sharedLegend({ kind: 'rows', says: t('causal.maskLegend', { rows }), masked: true, testid: 'causal-legend' });
  const dropLegend = sharedLegend({ kind: 'rows', says: t('causal.dropLegend', { rows }), masked: true, dropped: true, testid: 'dropout-legend' });
  // the engine's texts: its numbers read back print the same, but −inf reads back as -Infinity
  const shortestText = (v) => (Number.isFinite(v) ? String(v) : shortestFloat32(v));
  // A drawn map of an engine result; masked(i, j, v): true to grey a cell, 'dropped' for one dropout
  // zeroed (they then carry data-value="0").
  const ask = causalPrompts(ctx);   // predict, then reveal: the mask's zeros, a renormalised row's sum, dropout's scale
  const drawn = (res, words, masked) => ({ values: res.values, texts: res.values.map(shortestText), shape: res.shape, rowLabels: words, colLabels: words,
    mask: masked ? res.values.map((_, idx) => masked(Math.floor(idx / res.shape[1]), idx % res.shape[1], res.values[idx])) : undefined });
  // Dropout at the question's p of torch.ones(6, 6) after torch.manual_seed(seed), by the engine (its
  // eval op draws PyTorch's mask): the question's answer, shown beside the book's p = 0.5 once answered.
  const dropoutOnes = (seed, p) => {
    const ones = Array.from({ length: 6 }, () => Array(6).fill(1));
    const answer = JSON.parse(ctx.engine.evalRequest(JSON.stringify({ op: 'dropout', seed, p, x: ones })));
    return { ...answer, line: answer.print };
  };
  function update() {
    const st = ctx.state;
    const D = ctx.changedData('causal');
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const seed = seedFor(st, 123), p = DROPOUT_QUESTION_P;
    const droppedAtP = dropoutOnes(seed, p);
    const cell = (python, id) => resultCell(python, r(id), id);
    const route1 = r('3.5.1/masked_simple_norm'), route2 = r('3.5.1/attn_weights_causal');
    const same = route1.print === route2.print;   // without grad_fn: the two routes' ops differ
    const words = st.words, future = (i, j) => j > i;
    before.update(drawn(r('3.5.1/attn_weights'), words));
    if (!r('3.5.1/masked').error) maskedScores.update(drawn(r('3.5.1/masked'), words));
    if (!route2.error) causalMap.update(drawn(route2, words, future));
    ones.update(drawn(r('3.5.2/dropout_ones'), words, (i, j, v) => v === 0 && 'dropped'));
    // dropout(α) of the causal α: the future is masked, a zero in the past was dropped
    dropped.update(drawn(r('3.5.2/dropout_attn_weights'), words, (i, j, v) => (future(i, j) ? true : v === 0 && 'dropped')));
    ask.update(r, droppedAtP);
    // Each question holds back what answers it (and what comes after it in the story): the mask's
    // zeros, then the renormalised rows and route 2, then dropout's factor (docs/questions.md).
    show(body,
      para(t('causal.intro', { own: hasWeights(D) ? 'yes' : 'no', seed: seedFor(st, 789) })),
      // Listing 3.2's sa_v2 built again: exercise 3.1 (the solution notebook's) builds another after seed 123
      cell(`torch.manual_seed(${seedFor(st, 789)})\nsa_v2 = SelfAttention_v2(d_in, d_out${biasArgument(D)})   # Listing 3.2's, as §3.4.2 builds it${hasWeights(D) ? `\n${loadState(D, 'sa_v2', 'v2')}` : ''}\nqueries = sa_v2.W_query(inputs)\nkeys = sa_v2.W_key(inputs)\nattn_scores = queries @ keys.T\nattn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)\nprint(attn_weights)`, '3.5.1/attn_weights'),
      ask.mask.placed(),
      ask.mask.gate(
        h('h3', { text: t('causal.route1') }),
        cell('context_length = attn_scores.shape[0]\nmask_simple = torch.tril(torch.ones(context_length, context_length))\nprint(mask_simple)', '3.5.1/mask_simple'),
        cell('masked_simple = attn_weights*mask_simple\nprint(masked_simple)', '3.5.1/masked_simple'),
        ask.rowSum.placed(),
        ask.rowSum.gate(
          cell('row_sums = masked_simple.sum(dim=-1, keepdim=True)\nmasked_simple_norm = masked_simple / row_sums\nprint(masked_simple_norm)', '3.5.1/masked_simple_norm'),
          h('h3', { text: t('causal.route2', { same: same ? 'yes' : 'no' }) }),
          cell('mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)\nmasked = attn_scores.masked_fill(mask.bool(), -torch.inf)\nprint(masked)', '3.5.1/masked'),
          place(maskedScores.el),
          cell('attn_weights = torch.softmax(masked / keys.shape[-1]**0.5, dim=1)\nprint(attn_weights)', '3.5.1/attn_weights_causal'),
          h('div', { class: 'matrices' }, place(before.el), place(causalMap.el)), place(maskLegend.el),
          h('p', { class: same ? 'match' : 'note error', 'data-testid': 'routes-verdict',
            text: same ? t('causal.routesSame') : t('causal.routesDiffer') }))),
      h('h3', { text: t('causal.dropoutTitle') }),
      ask.dropout.placed(),
      ask.dropout.gate(
        para(t('causal.dropoutIntro', { scaleP: droppedAtP.values.find((v) => v !== 0) ?? 1 / (1 - p), p, scaleBook: r('3.5.2/dropout_ones').values.find((v) => v !== 0) ?? 2, seed })),
        h('div', { class: 'cells-side', 'data-testid': 'dropout-prints' },
          resultCell(`torch.manual_seed(${seed})\ndropout = torch.nn.Dropout(${p})\nexample = torch.ones(6, 6)\nprint(dropout(example))`, droppedAtP, `dropout_p${p}`),
          cell(`torch.manual_seed(${seed})\ndropout = torch.nn.Dropout(0.5)\nexample = torch.ones(6, 6)\nprint(dropout(example))`, '3.5.2/dropout_ones')),
        cell(`torch.manual_seed(${seed})\nprint(dropout(attn_weights))`, '3.5.2/dropout_attn_weights'),
        h('div', { class: 'matrices' }, place(ones.el), place(dropped.el)), place(dropLegend.el)),
      h('h3', { text: t('causal.classTitle') }),
      listing(t('causal.listing33'), LISTING_3_3.trimEnd()),
      codeCell('batch = torch.stack((inputs, inputs), dim=0)\nprint(batch.shape)', r('3.5.3/batch.shape').line, { cell: '3.5.3/batch.shape' }),
      cell(`torch.manual_seed(${seedFor(st, 123)})\nd_out = ${st.d_out}\ncontext_length = batch.shape[1]\nca = CausalAttention(d_in, d_out, context_length, 0.0${biasArgument(D)})${hasWeights(D) ? `\n${loadState(D, 'ca', 'causal')}` : ''}\ncontext_vecs = ca(batch)\nprint(context_vecs)`, '3.5.3/context_vecs'),
    );
  }
  return { el, update };
}
