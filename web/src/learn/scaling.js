// Exercise 3.3's timing in words: what doubling T did to the measured time, beside what it does to the
// work, both from the numbers (the table's times; the multiply-adds of MultiHeadAttention's forward).

// Multiply-adds of MultiHeadAttention(d, d, ...)'s forward on T tokens: the four d × d projections
// (W_query, W_key, W_value, out_proj), linear in T, and the scores and the weighted sum of the values,
// T × T per head over d_head = d / heads columns, so T² · d for all heads together, twice.
export const mhaWork = (T, d) => 4 * T * d * d + 2 * T * T * d;

import { t, list } from '../i18n/index.js';

// times: Map T -> ms. The sentence for each T whose half was also run; a prompt to run one when none.
export function scalingText(times, d = 768) {
  const pairs = [...times.keys()].sort((a, b) => a - b).filter((t) => times.has(t / 2))
    .map((t) => ({ t, measured: times.get(t) / times.get(t / 2), work: mhaWork(t, d) / mhaWork(t / 2, d) }));
  if (!pairs.length) return t('scaling.runTwo');
  const measured = list(pairs.map((p) => `×${p.measured.toFixed(1)} (T = ${p.t / 2} → ${p.t})`));
  const work = list(pairs.map((p) => `×${p.work.toFixed(2)}`));
  const farthest = pairs.reduce((a, b) => (Math.abs(Math.log(b.measured / b.work)) > Math.abs(Math.log(a.measured / a.work)) ? b : a));
  return t('scaling.sentence', { measured, work, d, twoD: 2 * d, from: farthest.t / 2, to: farthest.t, clock: farthest.measured.toFixed(1), ops: farthest.work.toFixed(2) });
}
