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

const EXERCISE_3_1 = `# Exercise 3.1: give sa_v1 the weights of sa_v2. nn.Linear stores W transposed.
sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)
sa_v1.W_key   = torch.nn.Parameter(sa_v2.W_key.weight.T)
sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight.T)
print(sa_v1(inputs))`;

export default { id: 'classes', title: 'A compact self-attention class (§3.4.2)', rung: null, build };

function build(ctx) {
  const { el, body } = sectionFrame('classes', 'A compact self-attention class (§3.4.2)');
  const ex31 = exercise31(ctx);   // exercise 3.1, run by the engine before the book's answer shows

  function update() {
    const st = ctx.state;
    const D = ctx.changedData('classes');
    if (!D) return;   // nothing it shows has changed
    const r = (name) => D.get(name);
    const v1 = r('3.4.2/sa_v1'), v2 = r('3.4.2/sa_v2'), ex = r('ex3.1/sa_v1_with_v2_weights');
    const byHand = `§3.4.1${placeNote(ctx, 'classes', 'step-by-step')}`;   // where z(2) was computed step by step
    let rowNote = null;
    if (!v1.error) {
      const z2 = r('3.4.1/context_vec_2').print, row2 = r('3.4.2/sa_v1_row_2').print;
      rowNote = h('p', { class: z2 === row2 ? 'match' : 'note error', 'data-testid': 'v1-row2' },
        z2 === row2 ? `The highlighted row 2 is ${row2}: exactly z(2), computed by hand in ${byHand}. The class runs the identical dataflow for all ${v1.shape[0]} queries at once.`
          : `Row 2 is ${row2}, but z(2) in ${byHand} is ${z2}.`);
    }
    const own = hasWeights(D);   // the reader's weights, loaded after each module is built
    const load = (module, kind) => (own ? `\n${loadState(D, module, kind)}` : '');
    const sameAsV2 = !ex.error && !v2.error && ex.print === v2.print;
    ex31.update();
    show(body,
      para(`All of ${byHand}, bundled into a PyTorch module: the book’s Listing 3.1.`),
      resultCell(`${LISTING_3_1.trimEnd()}\n\ntorch.manual_seed(${seedFor(st, 123)})\nsa_v1 = SelfAttention_v1(d_in, d_out)${load('sa_v1', 'v1')}\nprint(sa_v1(inputs))`, v1, '3.4.2/sa_v1', { row: 1 }),
      rowNote,
      h('h3', { text: 'Listing 3.2 — the same class with nn.Linear' }),
      para('nn.Linear (with bias=False) computes the same projections, but its weight initialization makes training more stable than raw torch.rand parameters, so the numbers differ:'),
      resultCell(`${LISTING_3_2.trimEnd()}\n\ntorch.manual_seed(${seedFor(st, 789)})\nsa_v2 = SelfAttention_v2(d_in, d_out${biasArgument(D)})${load('sa_v2', 'v2')}\nprint(sa_v2(inputs))`, v2, '3.4.2/sa_v2'),
      // Exercise 3.1 transfers weights between modules: the engine's replay of the chapter does it too.
      h('h3', { text: 'Exercise 3.1 — compare SelfAttention_v1 and v2' }),
      ex31.placed(),
      ex31.gate(para('Assign v2’s weights to v1 and both print the same tensor. nn.Linear stores its weight as (d_out, d_in), so it must be transposed. With your inputs and seeds:'),
        resultCell(EXERCISE_3_1, ex, 'ex3.1/sa_v1_with_v2_weights'),
        h('p', { class: sameAsV2 ? 'match' : 'note error', text: sameAsV2 ? 'Identical to sa_v2’s output: same weights, same numbers.' : 'This differs from sa_v2’s output.' })),
    );
  }
  return { el, update };
}
