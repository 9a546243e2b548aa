// Exercise 3.3's timing in words: what doubling T did to the measured time, beside what it does to the
// work, both from the numbers (the table's times; the multiply-adds of MultiHeadAttention's forward).

// Multiply-adds of MultiHeadAttention(d, d, ...)'s forward on T tokens: the four d × d projections
// (W_query, W_key, W_value, out_proj), linear in T, and the scores and the weighted sum of the values,
// T × T per head over d_head = d / heads columns, so T² · d for all heads together, twice.
export const mhaWork = (T, d) => 4 * T * d * d + 2 * T * T * d;

const join = (xs) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

// times: Map T -> ms. The sentence for each T whose half was also run; a prompt to run one when none.
export function scalingText(times, d = 768) {
  const pairs = [...times.keys()].sort((a, b) => a - b).filter((t) => times.has(t / 2))
    .map((t) => ({ t, measured: times.get(t) / times.get(t / 2), work: mhaWork(t, d) / mhaWork(t / 2, d) }));
  if (!pairs.length) return 'Run two sizes, T and 2T, to see what doubling T does to the time.';
  const measured = join(pairs.map((p) => `×${p.measured.toFixed(1)} (T = ${p.t / 2} → ${p.t})`));
  const work = join(pairs.map((p) => `×${p.work.toFixed(2)}`));
  const farthest = pairs.reduce((a, b) => (Math.abs(Math.log(b.measured / b.work)) > Math.abs(Math.log(a.measured / a.work)) ? b : a));
  return `Doubling T multiplied the measured time by ${measured}. The work grows ${work}, not ×4: the T × T scores and their `
    + `weighted sum (2 · T² · ${d} multiply-adds) grow ×4, but the four projections (4 · T · ${d}² multiply-adds) grow ×2, `
    + `linearly in T, and outweigh them until T = ${2 * d}. The clock strays from the work (most at T = ${farthest.t / 2} → ${farthest.t}: `
    + `×${farthest.measured.toFixed(1)} against ×${farthest.work.toFixed(2)}) through fixed costs (the call, allocating the outputs), caches `
    + '(a larger T’s matrices no longer fit in the fastest ones) and whatever else the machine is doing.';
}
