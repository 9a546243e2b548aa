// "Train it"'s verdict (train.js): whether the weights learned the previous-token task, and the
// sentence that says so, every count in it from the weights and the losses (no DOM: tests/node reads it).
import { pythonFixed } from '../views/format.js';

const fixed4 = (v) => pythonFixed(v, 4);

// Whether the weights (every order's T × T block, flat) learned the task: every query from token 2 on
// puts more than 0.5 of its weight on the previous token. {learned, failing: [{order, t, top, share}],
// total}: the queries that did not (position t, the key it weighs most, its weight on the previous).
export function previousTokenVerdict(weights, T, orders) {
  const failing = [];
  for (let o = 0; o < orders; o++) {
    for (let t = 1; t < T; t++) {
      const row = weights.slice((o * T + t) * T, (o * T + t + 1) * T);
      const share = row[t - 1];
      if (share > 0.5) continue;   // NaN fails too
      let top = 0;
      for (let j = 1; j <= t; j++) if (row[j] > row[top]) top = j;
      failing.push({ order: o, t, top, share });
    }
  }
  return { learned: failing.length === 0, failing, total: orders * (T - 1) };
}

// The verdict in words, for the first order's map (rows named by their words) and the other orders.
// losses (optional): {first, now}, the loss at step 0 and at the step shown: when it fell while the
// verdict still fails, the sentence says why both are true (they measure different things).
export function verdictText(verdict, words, losses = null) {
  const { failing, total } = verdict;
  if (!failing.length) return `Learned: in all four orders, every query from token 2 on puts more than 0.5 of its weight on the token before it (${total} of ${total}).`;
  const perOrder = total / 4, inMap = failing.filter((f) => f.order === 0), elsewhere = failing.length - inMap.length;
  // each row's numbers while they fit in a sentence; beyond three rows, their names
  const rows = inMap.map((f) => `${f.t + 1} “${words[f.t]}”${inMap.length > 3 ? '' : ` (${fixed4(f.share)} on “${words[f.t - 1]}”, most on “${words[f.top]}”)`}`);
  const list = rows.length <= 1 ? rows.join('') : `${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]}`;
  const count = (n, of) => (n === 0 ? `none of the ${of}` : `${n} of the ${of}`);
  let text = `Not learned: ${failing.length} of the ${total} queries from token 2 on put 0.5 or less of their weight on the token before them: `
    + `${count(inMap.length, perOrder)} in the map${inMap.length ? ` (row${inMap.length === 1 ? '' : 's'} ${list})` : ''}`
    + ` and ${count(elsewhere, total - perOrder)} in the other three orders.`;
  if (losses && Number.isFinite(losses.first) && Number.isFinite(losses.now) && losses.now < losses.first) {
    text += ` The loss fell from ${fixed4(losses.first)} to ${fixed4(losses.now)} all the same: it measures how close each output is to the previous token’s vector,`
      + ' and W_v can make a mix of several tokens’ values come close to it; the verdict asks where each query’s weight goes, which is what the task teaches.';
  }
  return text;
}

