// The chapter's predict-then-reveal questions, one builder per section: each makes its prompts
// (prompt.js) and, on every update, hands them the expected answers read from the section's engine
// answer for the learner's current inputs. The sections place the prompts in their reading path.
import { h, fixed4 } from '../dom.js';   // fixed4: the float's digits, rounded as Python rounds (one home)
import { predictPrompt } from './prompt.js';
import { t } from '../i18n/index.js';

const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]);
const argmaxAll = (xs) => { const m = Math.max(...xs); return xs.map((x, i) => (x === m ? i : -1)).filter((i) => i >= 0); };
const wordOptions = (words) => words.map((w, j) => ({ key: String(j + 1), label: t('prompts.wordOption', { w, j: j + 1 }) }));
const SUB = '₀₁₂₃₄₅₆₇₈₉', SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const sub = (n) => String(n).replace(/\d/g, (d) => SUB[d]);
const sup = (n) => String(n).replace(/\d/g, (d) => SUP[d]);
const vec = (xs) => `[${xs.map(fixed4).join(', ')}]`;

// Where softmax(ω / T) lands: everything on one token, all equal, or in between (the temperature
// section's regime sentence says the same, from weightRegime).
export function weightRegime(w) {
  let top = 0;
  for (let j = 1; j < w.length; j++) if (w[j] > w[top]) top = j;
  const max = w[top], min = Math.min(...w);
  return { kind: max >= 0.9 ? 'one' : max - min <= 0.01 ? 'uniform' : 'between', top, max, min };
}

// Two numbers the same within a question's tolerance (a diagnosis matches a wrong value this way).
const near = (a, b, tol) => Math.abs(a - b) <= tol;
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

// §3.4.1: ω₂₂ (before the stepper), the token row 2 weighs most, where z⁽²⁾ lands among the values.
export function stepByStepPrompts(ctx) {
  const omega22 = predictPrompt(ctx.learn, { id: 'predict-omega22', kind: 'number', tolerance: 0.01,
    question: h('span', null, t('prompts.beforeYouStepThrough'), h('span', { class: 'qdata', 'data-testid': 'omega22-operands' })) });
  const topWeight = predictPrompt(ctx.learn, { id: 'predict-top-weight', kind: 'choice',
    question: t('prompts.afterSoftmaxWhichToken') });
  const z2Lands = predictPrompt(ctx.learn, { id: 'predict-z2-closest', kind: 'choice',
    question: t('prompts.weightedMixValueVectors') });
  function update(D, words) {
    const r = (name) => D.get(name);
    const q2 = r('3.4.1/query_2').values, keys = r('keys'), k2 = rowOf(keys, 1), x2 = rowOf(r('inputs'), 1);
    const omega = r('3.4.1/attn_score_22').values[0], dk = keys.shape[1];
    const w2 = r('3.4.1/attn_weights_2').values, s2 = r('3.4.1/attn_scores_2').values, scaled2 = r('scaled_scores_2').values;
    omega22.el?.querySelector('[data-testid=omega22-operands]').replaceChildren(`(q⁽²⁾ = ${vec(q2)}, k⁽²⁾ = ${vec(k2)})`);
    // The usual wrong values, each from the engine's numbers for these inputs (prompt.js matches them
    // within the tolerance and leaves out any that equal ω₂₂ itself).
    const products = q2.map((q, j) => `${fixed4(q)}·${fixed4(k2[j])}`).join(' + ');
    const mistakes = [
      ...s2.map((s, j) => ({ name: `omega2${j + 1}`, value: s,
        hint: t('prompts.thatYouUsedKey', { p1: sub(j + 1), p2: j + 1, p3: sup(j + 1), p4: words[j], p5: words[1] }),
        why: t('prompts.scoreAgainstKeyToken', { p1: fixed4(s), p2: sub(j + 1), p3: sup(j + 1), p4: j + 1, p5: words[j] }) })).filter((_, j) => j !== 1),
      { name: 'scaled', value: scaled2[1], hint: t('prompts.thatScoreAlreadyDivided'),
        why: t('prompts.scalingComesAfterScore', { p1: fixed4(scaled2[1]), dk }) },
      { name: 'over-dk', value: omega / dk, hint: t('prompts.thatScoreDividedScore', { dk }),
        why: t('prompts.scoreNotDividedScaling', { p1: fixed4(omega / dk) }) },
      { name: 'weight', value: w2[1], hint: t('prompts.thatLooksLikeAttention'),
        why: t('prompts.weightAfterSoftmaxNot', { p1: fixed4(w2[1]) }) },
      { name: 'q-dot-q', value: dot(q2, q2), hint: t('prompts.thatQueryTimesItself'), why: t('prompts.scorePairsQueryWith', { p1: fixed4(dot(q2, q2)) }) },
      { name: 'k-dot-k', value: dot(k2, k2), hint: t('prompts.thatKeyTimesItself'), why: t('prompts.scorePairsQueryWith2', { p1: fixed4(dot(k2, k2)) }) },
      { name: 'x-dot-x', value: dot(x2, x2), hint: t('prompts.thatScoreRawInputs'),
        why: t('prompts.simplifiedScoreHere', { p1: fixed4(dot(x2, x2)) }) },
      { name: 'unpaired', value: sum(q2) * sum(k2), hint: t('prompts.thatEveryEntryTimes'),
        why: t('prompts.multipliesEveryEntryEvery', { p1: fixed4(sum(q2) * sum(k2)), products }) },
      { name: 'added', value: sum(q2) + sum(k2), hint: t('prompts.thatAddsEntriesDot'),
        why: t('prompts.sumEntriesDotProduct', { p1: fixed4(sum(q2) + sum(k2)), products }) },
      { name: 'row-sum', value: sum(s2), hint: t('prompts.thatSumWholeRow'),
        why: t('prompts.sumRowScoresOne', { p1: fixed4(sum(s2)) }) },
      ...(q2.length > 1 ? [{ name: 'first-product', value: q2[0] * k2[0], hint: t('prompts.thatOnlyFirstProduct'),
        why: t('prompts.onlyAddEveryPair', { p1: fixed4(q2[0] * k2[0]), products }) }] : []),
    ];
    omega22.update({ expected: omega, expectedText: fixed4(omega), mistakes,
      hint: () => t('prompts.multiplyEntryEntryAdd', { products }),
      why: (a) => t('prompts.multiplyEntryEntryAdd2', { products, p2: fixed4(omega), p3: fixed4(Math.abs(a - omega)) }) });

    const top = argmaxAll(w2);
    const scoresTop = argmaxAll(s2);
    const bottom = argmaxAll(s2.map((v) => -v));
    const biggestSize = argmaxAll(s2.map(Math.abs));
    const simplified = words.map((_, j) => dot(x2, rowOf(r('inputs'), j)));
    const simplifiedTop = argmaxAll(simplified);
    topWeight.update({ options: wordOptions(words), expected: top.map((j) => String(j + 1)),
      expectedText: top.map((j) => `“${words[j]}” (α₂${sub(j + 1)} = ${fixed4(w2[j])})`).join(' and '),
      hint: (key) => {
        const j = Number(key) - 1;
        if (bottom.includes(j)) return t('prompts.hasSmallestScoreRow', { p1: words[j] });
        if (biggestSize.includes(j) && s2[j] < 0) return t('prompts.scoreLargestSizeBut', { p1: words[j] });
        if (j === 1 && !scoresTop.includes(j)) return t('prompts.tokenDoesNotWeigh');
        if (simplifiedTop.includes(j)) return t('prompts.wouldWeighMostSimplified', { p1: words[j] });
        return t('prompts.scoreNotLargestRow', { p1: words[j] });
      },
      why: (key) => { const j = Number(key) - 1; return t('prompts.getsFromScoreSoftmax', { p1: words[j], p2: sub(j + 1), p3: fixed4(w2[j]), p4: fixed4(s2[j]), p5: fixed4(s2[top[0]]) }); } });

    const values = r('values'), z2 = r('3.4.1/context_vec_2').values;
    const dist = words.map((_, j) => Math.hypot(...rowOf(values, j).map((v, d) => v - z2[d])));
    const nearest = argmaxAll(dist.map((d) => -d));
    const spread = Math.max(...w2) - Math.min(...w2);
    const lightest = argmaxAll(w2.map((w) => -w));
    z2Lands.update({ options: wordOptions(words), expected: nearest.map((j) => String(j + 1)),
      expectedText: t('prompts.distanceFrom', { p1: sup(nearest[0] + 1), p2: words[nearest[0]], p3: fixed4(dist[nearest[0]]), p4: vec(z2) }),
      hint: (key) => {
        const j = Number(key) - 1;
        if (top.includes(j)) return t('prompts.hasLargestWeightBut', { p1: words[j], p2: fixed4(spread) });
        if (lightest.includes(j)) return t('prompts.hasSmallestWeightRow', { p1: words[j] });
        return t('prompts.pictureAverageValueVectors', { p1: sup(j + 1) });
      },
      why: (key) => {
        const j = Number(key) - 1;
        const lead = top.includes(j) ? t('prompts.hasLargestWeightBut2', { p1: words[j], p2: sub(j + 1), p3: fixed4(w2[j]), length: words.length, p5: sup(nearest[0] + 1) })
          : '';
        return t('prompts.awayFromFartherThan', { lead, p2: sup(j + 1), p3: vec(rowOf(values, j)), p4: fixed4(dist[j]), p5: vec(z2), p6: sup(nearest[0] + 1), p7: fixed4(dist[nearest[0]]) });
      } });
  }
  return { omega22, topWeight, z2Lands, update };
}

// The temperature slider: what the weights become as T → 0 and as T → ∞ (the engine at T = 0.01, 100).
const REGIMES = [
  { key: 'one', get label() { return t('prompts.allWeightGoesOne'); } },
  { key: 'uniform', get label() { return t('prompts.everyTokenGetsSame'); } },
  { key: 'between', get label() { return t('prompts.theyStaySpreadUnevenly'); } },
];
export function temperaturePrompts(ctx) {
  const make = (id, limit) => predictPrompt(ctx.learn, { id, kind: 'choice', question: t('prompts.sliderBelowDividesRow', { limit }) });
  const cold = make('predict-temperature-zero', '0'), hot = make('predict-temperature-infinity', '∞');
  // The first try's hint per (limit, answer, expected regime): the mechanism, not the regime.
  const hints = {
    cold: {
      uniform: t('prompts.thatOtherEndDividing'),
      between: t('prompts.dividingTinyMultipliesEvery'),
      one: t('prompts.dividingTinyMakesGaps'),
    },
    hot: {
      one: t('prompts.thatOtherEndDividing2'),
      between: t('prompts.dividingHugeShrinksEvery'),
      uniform: t('prompts.hugeShrinksScoresToward'),
    },
  };
  function update(words) {
    for (const [prompt, T, end] of [[cold, 0.01, 'cold'], [hot, 100, 'hot']]) {
      const w = ctx.data('temperature', { temperature: T }).get('temperature_weights_2').values;
      const regime = weightRegime(w);
      const said = t('prompts.engineGives', { T, p2: w.map(fixed4).join(', ') });
      prompt.update({ options: REGIMES, expected: regime.kind,
        expectedText: `${REGIMES.find((o) => o.key === regime.kind).label}${regime.kind === 'one' ? ` (“${words[regime.top]}”)` : ''}: ${said}`,
        hint: (key) => hints[end][key] ?? '',
        why: () => (T < 1 ? t('prompts.dividingTiny', { T }) : t('prompts.dividingHuge', { T })) });
    }
  }
  return { cold, hot, update };
}

// §3.5: which entries the causal mask zeroes, what a renormalised row sums to, dropout's scale (at a p
// where 1/p and 1/(1 − p) differ, so that the usual mistake shows).
const MASK_OPTIONS = [
  { key: 'above', get label() { return t('prompts.aboveDiagonal'); }, get says() { return t('prompts.eachTokenFuture'); } },
  { key: 'below', get label() { return t('prompts.belowDiagonal'); }, get says() { return t('prompts.eachTokenPast'); } },
  { key: 'diagonal', get label() { return t('prompts.diagonal'); }, get says() { return t('prompts.eachTokenItself'); } },
];
export const DROPOUT_QUESTION_P = 0.2;
export function causalPrompts(ctx) {
  const mask = predictPrompt(ctx.learn, { id: 'predict-mask', kind: 'choice', question: t('prompts.whichEntriesAttentionWeights') });
  const rowSum = predictPrompt(ctx.learn, { id: 'predict-row-sum', kind: 'number', tolerance: 0.01,
    question: t('prompts.eachMaskedRowNow') });
  const dropout = predictPrompt(ctx.learn, { id: 'predict-dropout-scale', kind: 'number', tolerance: 0.001,
    question: t('prompts.dropoutZeroesEachEntry', { DROPOUT_QUESTION_P, DROPOUT_QUESTION_P2: DROPOUT_QUESTION_P }) });
  // r: the section's engine answer; dropped: the engine's dropout(p = DROPOUT_QUESTION_P) of torch.ones(6, 6)
  function update(r, dropped) {
    const m = r('3.5.1/mask_simple'), n = m.shape[1];
    const zeros = m.values.map((v, idx) => [Math.floor(idx / n), idx % n, v]).filter(([, , v]) => v === 0);
    const region = (key) => zeros.length > 0 && zeros.every(([i, j]) => (key === 'above' ? j > i : key === 'below' ? j < i : i === j))
      && zeros.length === (key === 'diagonal' ? n : n * (n - 1) / 2);
    const maskKey = MASK_OPTIONS.find((o) => region(o.key))?.key ?? 'above';
    const maskOption = MASK_OPTIONS.find((o) => o.key === maskKey);
    mask.update({ options: MASK_OPTIONS.map(({ key, label }) => ({ key, label })), expected: maskKey, expectedText: t('prompts.zerosMask', { label: maskOption.label, says: maskOption.says, length: zeros.length, n, n2: n }),
      hint: (key) => (key === 'below' ? t('prompts.rowQueryMayLook')
        : t('prompts.eachTokenMayAttend')),
      why: (key) => t('prompts.trilKeeps', { n: zeros.length, rest: key === 'below' ? t('prompts.pastStaysVisible') : t('prompts.eachTokenStillSees') }) });
    const norm = rowOf(r('3.5.1/masked_simple_norm'), 1), raw = rowOf(r('3.5.1/masked_simple'), 1);
    const total = sum(norm), rawSum = sum(raw), kept = raw.filter((v) => v !== 0).length;
    rowSum.update({ expected: total, expectedText: t('prompts.rowSumAnswer', { total: fixed4(total), row: vec(norm) }),
      mistakes: [
        { name: 'before-dividing', value: rawSum, hint: t('prompts.thatRowSumBefore'),
          why: t('prompts.rowSumBeforeDividing', { p1: fixed4(rawSum) }) },
        { name: 'zero', value: 0, hint: t('prompts.maskedEntriesAreBut') },
        { name: 'kept-count', value: kept, hint: t('prompts.thatCountsEntriesRow', { kept }) },
        { name: 'share-kept', value: kept / n, hint: t('prompts.thatShareRowThat') },
      ],
      hint: () => t('prompts.divideAnyListPositive'),
      why: () => t('prompts.rowDividedOwnSum') });
    const p = DROPOUT_QUESTION_P, keptValues = dropped.values.filter((v) => v !== 0);
    const scale = keptValues.length ? keptValues[0] : 1 / (1 - p);
    dropout.update({ expected: scale, expectedText: t('prompts.entriesKeptEachRest', { scale, length: keptValues.length, length2: dropped.values.length, scale2: scale }),
      mistakes: [
        { name: 'one-over-p', value: 1 / p, hint: t('prompts.thatShareDroppedNot', { p }),
          why: t('prompts.survivorsShareEntriesAre', { p1: 1 / p, p2: fixed4(1 - p) }) },
        { name: 'p', value: p, hint: t('prompts.thatItselfProbabilityBeing') },
        { name: 'one-minus-p', value: 1 - p, hint: t('prompts.thatShareKeptSurvivors') },
        { name: 'unscaled', value: 1, hint: t('prompts.trainingModeSurvivorsAre') },
        { name: 'book-p', value: 2, hint: t('prompts.thatFactorBookThis') },
      ],
      hint: (a) => t('prompts.tooWhichFactorKeeps', { dir: a > scale ? 'high' : 'low', p }),
      why: () => t('prompts.survivorsAreDividedSo', { p1: fixed4(1 - p) }) });
  }
  return { mask, rowSum, dropout, update };
}

// Why a wrong shape for (n × k) @ (k × d) is wrong, from the shapes: each option names the confusion
// behind it (attn_weights' own shape, the transpose, inputs.T @ inputs), then the rule.
export function toyShapeWhy(key, [n, k], [, d]) {
  const rule = t('prompts.consumesSharedRowsCome', { n, k, k2: k, d, k3: k, n2: n, d2: d });
  const mistake = toyShapeHint(key, [n, k], [n, d]);
  return mistake ? `${mistake} ${rule}` : rule;
}
// The same mistake named without the answer (the first wrong try's hint): which product that shape
// belongs to, not the rule that gives the right one. '' for a shape no product of the two gives.
export function toyShapeHint(key, [n, k], [, d]) {
  const [a, b] = key.split('×').map(Number);
  if (a === n && b === k) return t('prompts.attnWeightsOwnShape', { n, k });
  if (a === d && b === n) return t('prompts.transposeShapeInputsAttn', { d, n });
  if (a === d && b === d) return t('prompts.shapeInputsInputsWhich', { d, d2: d, n });
  return '';
}

// The batched product's toy: the shape of attn_weights @ inputs.
export function batchedPrompts(ctx) {
  const shape = predictPrompt(ctx.learn, { id: 'predict-toy-shape', kind: 'choice', question: t('prompts.toyBelowAttnWeights') });
  function update(r) {
    const x = r('toy/inputs'), w = r('toy/attn_weights'), out = r('toy/all_context_vecs');
    const [n, d] = x.shape;
    const keys = [...new Set([`${n}×${d}`, `${n}×${n}`, `${d}×${n}`, `${d}×${d}`, `${w.shape[0]}×${w.shape[1]}`])];
    const expected = out.shape.join('×');
    shape.setQuestion(t('prompts.toyBelowAttnWeights2', { p1: w.shape.join(' × '), p2: x.shape.join(' × ') }));
    shape.update({ options: keys.map((k) => ({ key: k, label: k.replace('×', ' × ') })), expected, expectedText: `${expected.replace('×', ' × ')}: torch.Size([${out.shape.join(', ')}])`,
      hint: (key) => toyShapeHint(key, w.shape, x.shape) || t('prompts.whichDimensionDoesConsume'),
      why: (key) => toyShapeWhy(key, w.shape, x.shape) });
  }
  return { shape, update };
}
