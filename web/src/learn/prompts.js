// The chapter's predict-then-reveal questions, one builder per section: each makes its prompts
// (prompt.js) and, on every update, hands them the expected answers read from the section's engine
// answer for the learner's current inputs. The sections place the prompts in their reading path.
import { h, fixed4 } from '../dom.js';   // fixed4: the float's digits, rounded as Python rounds (one home)
import { predictPrompt } from './prompt.js';

const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]);
const argmaxAll = (xs) => { const m = Math.max(...xs); return xs.map((x, i) => (x === m ? i : -1)).filter((i) => i >= 0); };
const wordOptions = (words) => words.map((w, j) => ({ key: String(j + 1), label: `${w} (token ${j + 1})` }));
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
    question: h('span', null, 'Before you step through it: the score ω₂₂ is the dot product q⁽²⁾ · k⁽²⁾. What is it? ', h('span', { class: 'qdata', 'data-testid': 'omega22-operands' })) });
  const topWeight = predictPrompt(ctx.learn, { id: 'predict-top-weight', kind: 'choice',
    question: 'After the softmax, which token gets the most weight in row 2 (the query of token 2)?' });
  const z2Lands = predictPrompt(ctx.learn, { id: 'predict-z2-closest', kind: 'choice',
    question: 'z⁽²⁾ is a weighted mix of the value vectors v⁽ʲ⁾. Roughly where does it land: which value vector is it closest to?' });
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
        hint: `That is ω₂${sub(j + 1)}: you used the key of token ${j + 1} (k⁽${sup(j + 1)}⁾, “${words[j]}”). ω₂₂ pairs q⁽²⁾ with k⁽²⁾, the key of token 2 (“${words[1]}”).`,
        why: `${fixed4(s)} is ω₂${sub(j + 1)} = q⁽²⁾ · k⁽${sup(j + 1)}⁾, the score against the key of token ${j + 1} (“${words[j]}”), not against k⁽²⁾.` })).filter((_, j) => j !== 1),
      { name: 'scaled', value: scaled2[1], hint: 'That is the score already divided by √d_k: the scaling comes after the score; the question asks for the dot product itself.',
        why: `${fixed4(scaled2[1])} is ω₂₂ / √d_k = ω₂₂ / √${dk}: the scaling comes after the score.` },
      { name: 'over-dk', value: omega / dk, hint: `That is the score divided by d_k = ${dk}: the score itself is divided by nothing (and the later scaling is by √d_k, not d_k).`,
        why: `${fixed4(omega / dk)} is ω₂₂ / d_k: the score is not divided, and the scaling (later) is by √d_k.` },
      { name: 'weight', value: w2[1], hint: 'That looks like the attention weight α₂₂, after the softmax; the score ω₂₂ is the raw dot product before it.',
        why: `${fixed4(w2[1])} is α₂₂, the weight after the softmax, not the score.` },
      { name: 'q-dot-q', value: dot(q2, q2), hint: 'That is q⁽²⁾ · q⁽²⁾: the query times itself. A score pairs the query with a key.', why: `${fixed4(dot(q2, q2))} is q⁽²⁾ · q⁽²⁾; the score pairs the query with the key k⁽²⁾.` },
      { name: 'k-dot-k', value: dot(k2, k2), hint: 'That is k⁽²⁾ · k⁽²⁾: the key times itself. A score pairs the query with a key.', why: `${fixed4(dot(k2, k2))} is k⁽²⁾ · k⁽²⁾; the score pairs the query q⁽²⁾ with the key.` },
      { name: 'x-dot-x', value: dot(x2, x2), hint: 'That is x⁽²⁾ · x⁽²⁾, §3.3’s score of the raw inputs. Here the score is between the projected query q⁽²⁾ and key k⁽²⁾.',
        why: `${fixed4(dot(x2, x2))} is x⁽²⁾ · x⁽²⁾, the simplified score of §3.3; here it is q⁽²⁾ · k⁽²⁾.` },
      { name: 'unpaired', value: sum(q2) * sum(k2), hint: 'That is every entry of q⁽²⁾ times every entry of k⁽²⁾, added up. A dot product pairs entries of the same index only: q₁k₁ + q₂k₂ + ….',
        why: `${fixed4(sum(q2) * sum(k2))} multiplies every entry by every entry; the dot product pairs them: ${products}.` },
      { name: 'added', value: sum(q2) + sum(k2), hint: 'That adds the entries of q⁽²⁾ and k⁽²⁾; a dot product multiplies them pair by pair, then adds the products.',
        why: `${fixed4(sum(q2) + sum(k2))} is the sum of the entries; the dot product multiplies pairs first: ${products}.` },
      { name: 'row-sum', value: sum(s2), hint: 'That is the sum of the whole row of scores ω₂ⱼ; ω₂₂ is one of them, the one against k⁽²⁾.',
        why: `${fixed4(sum(s2))} is the sum of row 2’s scores; ω₂₂ is one of them.` },
      ...(q2.length > 1 ? [{ name: 'first-product', value: q2[0] * k2[0], hint: 'That is only the first product q₁k₁; a dot product adds the products of every pair of entries.',
        why: `${fixed4(q2[0] * k2[0])} is only q₁k₁; add every pair: ${products}.` }] : []),
    ];
    omega22.update({ expected: omega, expectedText: fixed4(omega), mistakes,
      hint: () => `Multiply q⁽²⁾ and k⁽²⁾ entry by entry and add the products: ${products}.`,
      why: (a) => `Multiply entry by entry and add: ${products} ≈ ${fixed4(omega)}; you were off by ${fixed4(Math.abs(a - omega))}.` });

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
        if (bottom.includes(j)) return `“${words[j]}” has the smallest score in row 2. Softmax keeps the order of the scores, so it gets the least weight, not the most.`;
        if (biggestSize.includes(j) && s2[j] < 0) return `“${words[j]}”’s score is the largest in size, but it is negative: exp of a negative score is small.`;
        if (j === 1 && !scoresTop.includes(j)) return 'A token does not weigh itself most by default: ω₂₂ is one score of the row like the others. Compare the scores printed above.';
        if (simplifiedTop.includes(j)) return `“${words[j]}” would weigh most in §3.3’s simplified attention (x⁽²⁾ · x⁽ʲ⁾); here the scores come from the projected queries and keys, so the order can change. Compare the scores printed above.`;
        return `“${words[j]}”’s score is not the largest of row 2. Softmax keeps the order of the scores: the largest score gets the largest weight.`;
      },
      why: (key) => { const j = Number(key) - 1; return `“${words[j]}” gets α₂${sub(j + 1)} = ${fixed4(w2[j])} from the score ${fixed4(s2[j])}; softmax keeps the order of the scores, and the largest score is ${fixed4(s2[top[0]])}.`; } });

    const values = r('values'), z2 = r('3.4.1/context_vec_2').values;
    const dist = words.map((_, j) => Math.hypot(...rowOf(values, j).map((v, d) => v - z2[d])));
    const nearest = argmaxAll(dist.map((d) => -d));
    const spread = Math.max(...w2) - Math.min(...w2);
    const lightest = argmaxAll(w2.map((w) => -w));
    z2Lands.update({ options: wordOptions(words), expected: nearest.map((j) => String(j + 1)),
      expectedText: `v⁽${sup(nearest[0] + 1)}⁾ of “${words[nearest[0]]}”, at distance ${fixed4(dist[nearest[0]])} from z⁽²⁾ = ${vec(z2)}`,
      hint: (key) => {
        const j = Number(key) - 1;
        if (top.includes(j)) return `“${words[j]}” has the largest weight, but a weighted mix lands near the weighted average of all the value vectors, not on the heaviest one: with weights this even (the largest and smallest differ by ${fixed4(spread)}), that average can lie nearer another v⁽ʲ⁾.`;
        if (lightest.includes(j)) return `“${words[j]}” has the smallest weight in row 2, so its value vector pulls z⁽²⁾ least.`;
        return `Picture z⁽²⁾ as the average of the value vectors, each counted by its weight α₂ⱼ; v⁽${sup(j + 1)}⁾ is not the one nearest that average.`;
      },
      why: (key) => {
        const j = Number(key) - 1;
        const lead = top.includes(j) ? `“${words[j]}” has the largest weight (α₂${sub(j + 1)} = ${fixed4(w2[j])}), but z⁽²⁾ = Σ α₂ⱼ v⁽ʲ⁾ is a weighted average of all ${words.length} value vectors, and it lands nearer v⁽${sup(nearest[0] + 1)}⁾. `
          : '';
        return `${lead}v⁽${sup(j + 1)}⁾ = ${vec(rowOf(values, j))} is ${fixed4(dist[j])} away from z⁽²⁾ = ${vec(z2)}, farther than v⁽${sup(nearest[0] + 1)}⁾ (${fixed4(dist[nearest[0]])}).`;
      } });
  }
  return { omega22, topWeight, z2Lands, update };
}

// The temperature slider: what the weights become as T → 0 and as T → ∞ (the engine at T = 0.01, 100).
const REGIMES = [
  { key: 'one', label: 'all the weight goes to one token' },
  { key: 'uniform', label: 'every token gets the same weight' },
  { key: 'between', label: 'they stay spread unevenly, as at √d_k' },
];
export function temperaturePrompts(ctx) {
  const make = (id, limit) => predictPrompt(ctx.learn, { id, kind: 'choice', question: `The slider below divides row 2’s scores ω₂ by a temperature T before the softmax. Before you move it: as T → ${limit}, what do the weights become?` });
  const cold = make('predict-temperature-zero', '0'), hot = make('predict-temperature-infinity', '∞');
  // The first try's hint per (limit, answer, expected regime): the mechanism, not the regime.
  const hints = {
    cold: {
      uniform: 'That is the other end: dividing by a tiny T makes the gaps between the scores huge, not small.',
      between: 'Dividing by a tiny T multiplies every gap between the scores by a huge number. What does exp do with a huge gap?',
      one: 'Dividing by a tiny T makes the gaps huge, but here the largest scores tie: look at row 2’s scores again.',
    },
    hot: {
      one: 'That is the other end: dividing by a huge T shrinks every score toward 0, it does not stretch them.',
      between: 'Dividing by a huge T shrinks every score toward 0. What is exp of (almost) 0, for every token?',
      uniform: 'A huge T shrinks the scores toward 0, but at T = 100 these scores are still far apart: look at their size.',
    },
  };
  function update(words) {
    for (const [prompt, T, end] of [[cold, 0.01, 'cold'], [hot, 100, 'hot']]) {
      const w = ctx.data('temperature', { temperature: T }).get('temperature_weights_2').values;
      const regime = weightRegime(w);
      const said = `at T = ${T} the engine gives [${w.map(fixed4).join(', ')}]`;
      prompt.update({ options: REGIMES, expected: regime.kind,
        expectedText: `${REGIMES.find((o) => o.key === regime.kind).label}${regime.kind === 'one' ? ` (“${words[regime.top]}”)` : ''}: ${said}`,
        hint: (key) => hints[end][key] ?? '',
        why: () => `Dividing by ${T < 1 ? 'a tiny' : 'a huge'} T ${T < 1 ? 'stretches the gaps between scores, so the largest one wins' : 'shrinks every score toward 0, so exp makes them all alike'}.` });
    }
  }
  return { cold, hot, update };
}

// §3.5: which entries the causal mask zeroes, what a renormalised row sums to, dropout's scale (at a p
// where 1/p and 1/(1 − p) differ, so that the usual mistake shows).
const MASK_OPTIONS = [
  { key: 'above', label: 'above the diagonal (j > i)', says: 'each token’s future' },
  { key: 'below', label: 'below the diagonal (j < i)', says: 'each token’s past' },
  { key: 'diagonal', label: 'the diagonal (j = i)', says: 'each token itself' },
];
export const DROPOUT_QUESTION_P = 0.2;
export function causalPrompts(ctx) {
  const mask = predictPrompt(ctx.learn, { id: 'predict-mask', kind: 'choice', question: 'Which entries of the attention weights does the causal mask zero? (Row i is query i, column j is key j.)' });
  const rowSum = predictPrompt(ctx.learn, { id: 'predict-row-sum', kind: 'number', tolerance: 0.01,
    question: 'Each masked row is now divided by its own sum. What does a renormalised row (say row 2) sum to?' });
  const dropout = predictPrompt(ctx.learn, { id: 'predict-dropout-scale', kind: 'number', tolerance: 0.001,
    question: `Dropout(${DROPOUT_QUESTION_P}) zeroes each entry of a tensor of ones with probability p = ${DROPOUT_QUESTION_P}. By what factor does it scale the entries that survive?` });
  // r: the section's engine answer; dropped: the engine's dropout(p = DROPOUT_QUESTION_P) of torch.ones(6, 6)
  function update(r, dropped) {
    const m = r('3.5.1/mask_simple'), n = m.shape[1];
    const zeros = m.values.map((v, idx) => [Math.floor(idx / n), idx % n, v]).filter(([, , v]) => v === 0);
    const region = (key) => zeros.length > 0 && zeros.every(([i, j]) => (key === 'above' ? j > i : key === 'below' ? j < i : i === j))
      && zeros.length === (key === 'diagonal' ? n : n * (n - 1) / 2);
    const maskKey = MASK_OPTIONS.find((o) => region(o.key))?.key ?? 'above';
    const maskOption = MASK_OPTIONS.find((o) => o.key === maskKey);
    mask.update({ options: MASK_OPTIONS.map(({ key, label }) => ({ key, label })), expected: maskKey, expectedText: `${maskOption.label}, ${maskOption.says}: ${zeros.length} zeros in a ${n} × ${n} mask`,
      hint: (key) => (key === 'below' ? 'Row i is query i, and it may look at the tokens it has already read, its past; it must not see what comes after it. Which side of the diagonal is that?'
        : 'Each token may attend to itself: token 1 would otherwise see nothing at all. Which entries of row i are the tokens after token i?'),
      why: (key) => `torch.tril keeps row i’s entries j ≤ i, so the ${zeros.length} zeros are where j > i; ${key === 'below' ? 'the past stays visible' : 'each token still sees itself'}.` });
    const norm = rowOf(r('3.5.1/masked_simple_norm'), 1), raw = rowOf(r('3.5.1/masked_simple'), 1);
    const total = sum(norm), rawSum = sum(raw), kept = raw.filter((v) => v !== 0).length;
    rowSum.update({ expected: total, expectedText: `${fixed4(total)} (row 2 is ${vec(norm)})`,
      mistakes: [
        { name: 'before-dividing', value: rawSum, hint: 'That is row 2’s sum before the division. What does any list of numbers divided by its own sum add up to?',
          why: `${fixed4(rawSum)} is row 2’s sum before dividing by it; divided by its own sum, a row sums to 1.` },
        { name: 'zero', value: 0, hint: 'The masked entries are 0, but the ones left are positive: the row does not vanish.' },
        { name: 'kept-count', value: kept, hint: `That counts the ${kept} entries row 2 keeps; the question asks what their values add up to after the division.` },
        { name: 'share-kept', value: kept / n, hint: 'That is the share of the row that is kept; after dividing by their own sum, the kept weights add up to a fixed number whatever their count.' },
      ],
      hint: () => 'Divide any list of positive numbers by its own sum: what do the results add up to?',
      why: () => 'A row divided by its own sum always sums to 1 again.' });
    const p = DROPOUT_QUESTION_P, keptValues = dropped.values.filter((v) => v !== 0);
    const scale = keptValues.length ? keptValues[0] : 1 / (1 - p);
    dropout.update({ expected: scale, expectedText: `${scale} (${keptValues.length} of ${dropped.values.length} entries kept, each ${scale}; the rest 0)`,
      mistakes: [
        { name: 'one-over-p', value: 1 / p, hint: `That is 1/p: p = ${p} is the share dropped, not kept. The survivors are scaled so that each entry’s expected value stays what it was.`,
          why: `${1 / p} is 1/p; the survivors, a share 1 − p = ${fixed4(1 - p)} of the entries, are divided by 1 − p.` },
        { name: 'p', value: p, hint: `That is p itself, the probability of being dropped; the survivors grow, so that the expected value of each entry stays 1.` },
        { name: 'one-minus-p', value: 1 - p, hint: 'That is 1 − p, the share kept: the survivors are divided by it, not multiplied, so that the expected value of each entry stays 1.' },
        { name: 'unscaled', value: 1, hint: 'In training mode the survivors are not left as they are: they are scaled up, so that the expected sum stays the same.' },
        { name: 'book-p', value: 2, hint: 'That is the factor for the book’s p = 0.5; this dropout drops with p = 0.2.' },
      ],
      hint: (a) => `It is too ${a > scale ? 'high' : 'low'}. Which factor keeps the expected value of each entry at 1, when a share p = ${p} of them is zeroed?`,
      why: () => `Survivors are divided by 1 − p = ${fixed4(1 - p)}, so the expected value of every entry stays what it was.` });
  }
  return { mask, rowSum, dropout, update };
}

// Why a wrong shape for (n × k) @ (k × d) is wrong, from the shapes: each option names the confusion
// behind it (attn_weights' own shape, the transpose, inputs.T @ inputs), then the rule.
export function toyShapeWhy(key, [n, k], [, d]) {
  const rule = `(${n} × ${k}) @ (${k} × ${d}) consumes the shared ${k}: the rows come from attn_weights (${n}, one per token), the columns from inputs (${d} values).`;
  const mistake = toyShapeHint(key, [n, k], [n, d]);
  return mistake ? `${mistake} ${rule}` : rule;
}
// The same mistake named without the answer (the first wrong try's hint): which product that shape
// belongs to, not the rule that gives the right one. '' for a shape no product of the two gives.
export function toyShapeHint(key, [n, k], [, d]) {
  const [a, b] = key.split('×').map(Number);
  if (a === n && b === k) return `${n} × ${k} is attn_weights’ own shape: a product does not keep its left operand’s shape.`;
  if (a === d && b === n) return `${d} × ${n} is the transpose: the shape of inputs.T @ attn_weights.T, rows and columns swapped.`;
  if (a === d && b === d) return `${d} × ${d} is the shape of inputs.T @ inputs, which consumes the ${n} tokens instead of keeping one row per token.`;
  return '';
}

// The batched product's toy: the shape of attn_weights @ inputs.
export function batchedPrompts(ctx) {
  const shape = predictPrompt(ctx.learn, { id: 'predict-toy-shape', kind: 'choice', question: 'In the toy below, attn_weights is 3 × 3 and inputs is 3 × 2. What is the shape of attn_weights @ inputs?' });
  function update(r) {
    const x = r('toy/inputs'), w = r('toy/attn_weights'), out = r('toy/all_context_vecs');
    const [n, d] = x.shape;
    const keys = [...new Set([`${n}×${d}`, `${n}×${n}`, `${d}×${n}`, `${d}×${d}`, `${w.shape[0]}×${w.shape[1]}`])];
    const expected = out.shape.join('×');
    shape.setQuestion(`In the toy below, attn_weights is ${w.shape.join(' × ')} and inputs is ${x.shape.join(' × ')}. What is the shape of attn_weights @ inputs?`);
    shape.update({ options: keys.map((k) => ({ key: k, label: k.replace('×', ' × ') })), expected, expectedText: `${expected.replace('×', ' × ')}: torch.Size([${out.shape.join(', ')}])`,
      hint: (key) => toyShapeHint(key, w.shape, x.shape) || 'Which dimension does @ consume, and which two does it keep?',
      why: (key) => toyShapeWhy(key, w.shape, x.shape) });
  }
  return { shape, update };
}
