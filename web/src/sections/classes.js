// Section "classes" (§3.4.2): Listings 3.1 and 3.2 next to their outputs as PyTorch prints them,
// v1's row 2 marked as z(2), and exercise 3.1.
import { h, para } from '../dom.js';
import { seedFor } from '../inputs.js';
import { sectionFrame, resultCell, show } from './common.js';
import { placeNote } from './order.js';
import LISTING_3_1 from '../../../book/listings/listing_3_1.py';
import LISTING_3_2 from '../../../book/listings/listing_3_2.py';
import { exercise31 } from '../learn/exercises.js';
import { hasWeights, loadState, biasArgument } from './weights-code.js';
import { t } from '../i18n/index.js';

// Exercise 3.1 as the author's solution notebook writes it: both classes built after the same seed.
const exercise31Code = (seed) => `torch.manual_seed(${seed})
sa_v1 = SelfAttention_v1(d_in, d_out)
torch.manual_seed(${seed})
sa_v2 = SelfAttention_v2(d_in, d_out)

# nn.Linear stores its weight as (d_out, d_in): transposed, it is the (d_in, d_out) that x @ W needs
sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)
sa_v1.W_key   = torch.nn.Parameter(sa_v2.W_key.weight.T)
sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight.T)
print(sa_v1(inputs))
print(sa_v2(inputs))`;

// Why the notebook's sa_v2 prints other numbers than Listing 3.2's above: the seed it is built after.
export function seedNote(state, bookV2, notebookV2, ownWeights = false) {
  if (ownWeights) return t('classes.ownWeightsNote');
  if (state.seed !== null) return t('classes.yourSeedNote', { seed: state.seed });
  const first = (t) => t.print.split('\n')[0].replace(/^tensor\(/, '').replace(/,$/, '') + ', ...';
  return t('classes.notListing32Note', { book: first(bookV2), notebook: first(notebookV2) }) + t('classes.seedOnlyPicksStarting');
}

export default { id: 'classes', get title() { return t('classes.title'); }, rung: null, build };

function build(ctx) {
  const { el, body } = sectionFrame('classes', t('classes.title'));
  const ex31 = exercise31(ctx);   // exercise 3.1, run by the engine before the book's answer shows

  function update() {
    const st = ctx.state;
    const D = ctx.changedData('classes');
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const v1 = r('3.4.2/sa_v1'), v2 = r('3.4.2/sa_v2');
    const N = ex31.solution(), ex = N.get('ex3.1/sa_v1_with_v2_weights'), v2n = N.get('3.4.2/sa_v2');   // the notebook's seeds
    const byHand = `§3.4.1${placeNote(ctx, 'classes', 'step-by-step')}`;   // where z(2) was computed step by step
    let rowNote = null;
    if (!v1.error) {
      const z2 = r('3.4.1/context_vec_2').print, row2 = r('3.4.2/sa_v1_row_2').print;
      rowNote = h('p', { class: z2 === row2 ? 'match' : 'note error', 'data-testid': 'v1-row2' },
        z2 === row2 ? t('classes.highlightedRowExactlyComputed', { row2, byHand, p3: v1.shape[0] })
          : t('classes.rowBut', { row2, byHand, z2 }));
    }
    const own = hasWeights(D);   // the reader's weights, loaded after each module is built
    const load = (module, kind) => (own ? `\n${loadState(D, module, kind)}` : '');
    const sameAsV2 = !ex.error && !v2n.error && ex.print === v2n.print;
    ex31.update();
    show(body,
      para(t('classes.allBundledIntoPytorch', { byHand })),
      resultCell(`${LISTING_3_1.trimEnd()}\n\ntorch.manual_seed(${seedFor(st, 123)})\nsa_v1 = SelfAttention_v1(d_in, d_out)${load('sa_v1', 'v1')}\nprint(sa_v1(inputs))`, v1, '3.4.2/sa_v1', { row: 1 }),
      rowNote,
      h('h3', { text: t('classes.listing32Title') }),
      para(t('classes.linearNote')),
      resultCell(`${LISTING_3_2.trimEnd()}\n\ntorch.manual_seed(${seedFor(st, 789)})\nsa_v2 = SelfAttention_v2(d_in, d_out${biasArgument(D)})${load('sa_v2', 'v2')}\nprint(sa_v2(inputs))`, v2, '3.4.2/sa_v2'),
      // Exercise 3.1 transfers weights between modules: the engine's replay of the chapter does it too.
      h('h3', { text: t('classes.exerciseCompareSelfattentionV1') }),
      ex31.placed(),
      ex31.gate(para(t('classes.solutionAuthorSolutionNotebook')),
        resultCell(exercise31Code(seedFor(st, 123)), ex.error || v2n.error ? (ex.error ? ex : v2n) : { line: `${ex.line}\n${v2n.line}` }, 'ex3.1/notebook'),
        h('p', { class: sameAsV2 ? 'match' : 'note error', 'data-testid': 'ex31-same', text: sameAsV2 ? t('classes.identicalSaV2Output') : t('classes.thisDiffersFromSa') }),
        v2.error || v2n.error ? null : h('p', { 'data-testid': 'ex31-seed-note', text: seedNote(st, v2, v2n, own) })),
    );
  }
  return { el, update };
}
