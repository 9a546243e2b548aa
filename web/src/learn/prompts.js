// The chapter's predict-then-reveal questions, one builder per section: each makes its prompts
// (prompt.js) and, on every update, hands them the expected answers read from the section's engine
// answer for the learner's current inputs. The sections place the prompts in their reading path.
import { h, fixed4 } from '../dom.js';   // fixed4: the float's digits, rounded as Python rounds (one home)
import { predictPrompt } from './prompt.js';

const rowOf = (t, i) => t.values.slice(i * t.shape[1], (i + 1) * t.shape[1]);
const argmaxAll = (xs) => { const m = Math.max(...xs); return xs.map((x, i) => (x === m ? i : -1)).filter((i) => i >= 0); };
const wordOptions = (words) => words.map((w, j) => ({ key: String(j + 1), label: `${w} (token ${j + 1})` }));
const SUB = '₀₁₂₃₄₅₆₇₈₉';
const sub = (n) => String(n).replace(/\d/g, (d) => SUB[d]);
const vec = (xs) => `[${xs.map(fixed4).join(', ')}]`;

// Where softmax(ω / T) lands: everything on one token, all equal, or in between (the temperature
// section's regime sentence says the same, from weightRegime).
export function weightRegime(w) {
  let top = 0;
  for (let j = 1; j < w.length; j++) if (w[j] > w[top]) top = j;
  const max = w[top], min = Math.min(...w);
  return { kind: max >= 0.9 ? 'one' : max - min <= 0.01 ? 'uniform' : 'between', top, max, min };
}

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
    const q2 = r('3.4.1/query_2').values, keys = r('keys'), k2 = rowOf(keys, 1);
    const omega = r('3.4.1/attn_score_22').values[0], dk = keys.shape[1];
    omega22.el?.querySelector('[data-testid=omega22-operands]').replaceChildren(`(q⁽²⁾ = ${vec(q2)}, k⁽²⁾ = ${vec(k2)})`);
    omega22.update({ expected: omega, expectedText: fixed4(omega),
      why: (a) => (Math.abs(a - omega / Math.sqrt(dk)) <= 0.01 ? `That is ω₂₂ / √d_k: the scaling comes after the score.`
        : `Multiply entry by entry and add: ${q2.map((q, j) => `${fixed4(q)}·${fixed4(k2[j])}`).join(' + ')}.`) });

    const w2 = r('3.4.1/attn_weights_2').values, s2 = r('3.4.1/attn_scores_2').values;
    const top = argmaxAll(w2);
    topWeight.update({ options: wordOptions(words), expected: top.map((j) => String(j + 1)),
      expectedText: top.map((j) => `“${words[j]}” (α₂${sub(j + 1)} = ${fixed4(w2[j])})`).join(' and '),
      why: (key) => { const j = Number(key) - 1; return `“${words[j]}” gets α₂${sub(j + 1)} = ${fixed4(w2[j])} from the score ${fixed4(s2[j])}; softmax keeps the order of the scores, and the largest score is ${fixed4(s2[top[0]])}.`; } });

    const values = r('values'), z2 = r('3.4.1/context_vec_2').values;
    const dist = words.map((_, j) => Math.hypot(...rowOf(values, j).map((v, d) => v - z2[d])));
    const near = argmaxAll(dist.map((d) => -d));
    z2Lands.update({ options: wordOptions(words), expected: near.map((j) => String(j + 1)),
      expectedText: `v⁽${near[0] + 1}⁾ of “${words[near[0]]}”, at distance ${fixed4(dist[near[0]])} from z⁽²⁾ = ${vec(z2)}`,
      why: (key) => { const j = Number(key) - 1; return `v⁽${j + 1}⁾ = ${vec(rowOf(values, j))} is ${fixed4(dist[j])} away, farther than v⁽${near[0] + 1}⁾ (${fixed4(dist[near[0]])}); the mix leans toward the values with the largest weights.`; } });
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
  function update(words) {
    for (const [prompt, T] of [[cold, 0.01], [hot, 100]]) {
      const w = ctx.data('temperature', { temperature: T }).get('temperature_weights_2').values;
      const regime = weightRegime(w);
      const said = `at T = ${T} the engine gives [${w.map(fixed4).join(', ')}]`;
      prompt.update({ options: REGIMES, expected: regime.kind,
        expectedText: `${REGIMES.find((o) => o.key === regime.kind).label}${regime.kind === 'one' ? ` (“${words[regime.top]}”)` : ''}: ${said}`,
        why: () => `Dividing by ${T < 1 ? 'a tiny' : 'a huge'} T ${T < 1 ? 'stretches the gaps between scores, so the largest one wins' : 'shrinks every score toward 0, so exp makes them all alike'}.` });
    }
  }
  return { cold, hot, update };
}

// §3.5: which entries the causal mask zeroes, what a renormalised row sums to, dropout's scale.
const MASK_OPTIONS = [
  { key: 'above', label: 'above the diagonal: each token’s future (j > i)' },
  { key: 'below', label: 'below the diagonal: each token’s past (j < i)' },
  { key: 'diagonal', label: 'the diagonal: each token itself' },
];
export function causalPrompts(ctx) {
  const mask = predictPrompt(ctx.learn, { id: 'predict-mask', kind: 'choice', question: 'Which entries of the attention weights does the causal mask zero?' });
  const rowSum = predictPrompt(ctx.learn, { id: 'predict-row-sum', kind: 'number', tolerance: 0.01,
    question: 'After zeroing the future, each row is divided by its own sum. What does a renormalised row (say row 2) sum to?' });
  const dropout = predictPrompt(ctx.learn, { id: 'predict-dropout-scale', kind: 'number', tolerance: 0.001,
    question: 'Dropout(0.5) zeroes about half of a tensor of ones. By what factor does it scale the entries that survive?' });
  function update(r) {
    const m = r('3.5.1/mask_simple'), n = m.shape[1];
    const zeros = m.values.map((v, idx) => [Math.floor(idx / n), idx % n, v]).filter(([, , v]) => v === 0);
    const region = (key) => zeros.length > 0 && zeros.every(([i, j]) => (key === 'above' ? j > i : key === 'below' ? j < i : i === j))
      && zeros.length === (key === 'diagonal' ? n : n * (n - 1) / 2);
    const maskKey = MASK_OPTIONS.find((o) => region(o.key))?.key ?? 'above';
    mask.update({ options: MASK_OPTIONS, expected: maskKey, expectedText: `${MASK_OPTIONS.find((o) => o.key === maskKey).label}: ${zeros.length} zeros in a ${n} × ${n} mask`,
      why: (key) => `torch.tril keeps row i’s entries j ≤ i, so the ${zeros.length} zeros are where j > i; ${key === 'below' ? 'the past stays visible' : 'each token still sees itself'}.` });
    const norm = rowOf(r('3.5.1/masked_simple_norm'), 1), raw = rowOf(r('3.5.1/masked_simple'), 1);
    const sum = norm.reduce((a, b) => a + b, 0), rawSum = raw.reduce((a, b) => a + b, 0);
    rowSum.update({ expected: sum, expectedText: `${fixed4(sum)} (row 2 is ${vec(norm)})`,
      why: (a) => (Math.abs(a - rawSum) <= 0.01 ? `${fixed4(rawSum)} is row 2’s sum before dividing by it.` : 'A row divided by its own sum always sums to 1 again.') });
    const ones = r('3.5.2/dropout_ones').values, kept = ones.filter((v) => v !== 0);
    const scale = Math.max(...ones);
    dropout.update({ expected: scale, expectedText: `${scale} (${kept.length} of ${ones.length} entries kept, each ${scale}; the rest 0)`,
      why: (a) => (Math.abs(a - 0.5) < 1e-9 ? 'p = 0.5 is the share dropped, not the factor: survivors are divided by 1 − p, which keeps the expected sum the same.' : 'Survivors are divided by 1 − p = 0.5, so the expected value of every entry stays what it was.') });
  }
  return { mask, rowSum, dropout, update };
}

// Why a wrong shape for (n × k) @ (k × d) is wrong, from the shapes: each option names the confusion
// behind it (attn_weights' own shape, the transpose, inputs.T @ inputs), then the rule.
export function toyShapeWhy(key, [n, k], [, d]) {
  const [a, b] = key.split('×').map(Number);
  const rule = `(${n} × ${k}) @ (${k} × ${d}) consumes the shared ${k}: the rows come from attn_weights (${n}, one per token), the columns from inputs (${d} values).`;
  if (a === n && b === k) return `${n} × ${k} is attn_weights’ own shape: the product keeps its ${n} rows but takes its columns from inputs. ${rule}`;
  if (a === d && b === n) return `${d} × ${n} is the transpose: the shape of inputs.T @ attn_weights.T, rows and columns swapped. ${rule}`;
  if (a === d && b === d) return `${d} × ${d} is the shape of inputs.T @ inputs, which consumes the ${n} tokens instead of keeping one row per token. ${rule}`;
  return rule;
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
      why: (key) => toyShapeWhy(key, w.shape, x.shape) });
  }
  return { shape, update };
}
