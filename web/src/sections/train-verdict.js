// "Train it"'s verdict (train.js): whether the weights learned the previous-token task, and the
// sentence that says so, every count in it from the weights and the losses (no DOM: tests/node reads it),
// in the page's language (its words in the catalogues' trainVerdict.* keys).
import { pythonFixed } from '../views/format.js';
import { t, list } from '../i18n/index.js';

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
  if (!failing.length) return t('trainVerdict.learned', { total });
  const perOrder = total / 4, inMap = failing.filter((f) => f.order === 0), elsewhere = failing.length - inMap.length;
  // each row's numbers while they fit in a sentence; beyond three rows, their names
  const rows = inMap.map((f) => (inMap.length > 3 ? t('trainVerdict.row', { row: f.t + 1, word: words[f.t] })
    : t('trainVerdict.rowShare', { row: f.t + 1, word: words[f.t], share: fixed4(f.share), previous: words[f.t - 1], top: words[f.top] })));
  const count = (n, of) => t('trainVerdict.count', { n, of });
  let text = t('trainVerdict.notLearned', { failing: failing.length, total, inMap: count(inMap.length, perOrder),
    rows: inMap.length ? t('trainVerdict.rows', { n: inMap.length, list: list(rows) }) : '', elsewhere: count(elsewhere, total - perOrder) });
  if (losses && Number.isFinite(losses.first) && Number.isFinite(losses.now) && losses.now < losses.first) {
    text += t('trainVerdict.lossFell', { first: fixed4(losses.first), now: fixed4(losses.now) });
  }
  return text;
}
