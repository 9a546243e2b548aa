// Section "classes" (§3.4.2): Listings 3.1 and 3.2 next to their outputs as PyTorch prints them,
// v1's row 2 marked as z(2), and exercise 3.1.

const LISTING_3_1 = `import torch.nn as nn
class SelfAttention_v1(nn.Module):
  def __init__(self, d_in, d_out):
      super().__init__()
      self.d_out = d_out
      self.W_query = nn.Parameter(torch.rand(d_in, d_out))
      self.W_key   = nn.Parameter(torch.rand(d_in, d_out))
      self.W_value = nn.Parameter(torch.rand(d_in, d_out))

  def forward(self, x):
      keys    = x @ self.W_key
      queries = x @ self.W_query
      values  = x @ self.W_value

      attn_scores = queries @ keys.T
      attn_weights = torch.softmax(
          attn_scores / keys.shape[-1]**0.5, dim=-1)
      context_vec = attn_weights @ values
      return context_vec`;

const LISTING_3_2 = `class SelfAttention_v2(nn.Module):
  def __init__(self, d_in, d_out, qkv_bias=False):
      super().__init__()
      self.d_out = d_out
      self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
      self.W_key   = nn.Linear(d_in, d_out, bias=qkv_bias)
      self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

  def forward(self, x):
      keys    = self.W_key(x)
      queries = self.W_query(x)
      values  = self.W_value(x)

      attn_scores = queries @ keys.T
      attn_weights = torch.softmax(
          attn_scores / keys.shape[-1]**0.5, dim=-1)
      context_vec = attn_weights @ values
      return context_vec`;

const EXERCISE_3_1 = `# Exercise 3.1: give sa_v1 the weights of sa_v2. nn.Linear stores W transposed.
sa_v1.W_query = torch.nn.Parameter(sa_v2.W_query.weight.T)
sa_v1.W_key   = torch.nn.Parameter(sa_v2.W_key.weight.T)
sa_v1.W_value = torch.nn.Parameter(sa_v2.W_value.weight.T)
print(sa_v1(inputs))`;

function classesSection(ctx) {
  const { el, body } = sectionFrame('classes', 'A compact self-attention class (§3.4.2)');

  function update(R) {
    const { engine } = ctx;
    const st = R.state;
    const live = (t, cell, row = -1) => (t.error ? errorNote(t.error) : outWithRow(t.print, row, { cell }));
    const parts = [para('Everything above, bundled into a PyTorch module: the book’s Listing 3.1.'),
      h('div', { class: 'cell' }, h('pre', { class: 'code' }, h('code', { text: `${LISTING_3_1}\n\ntorch.manual_seed(${st.seed})\nsa_v1 = SelfAttention_v1(d_in, d_out)\nprint(sa_v1(inputs))` })),
        live(R.sa_v1, '3.4.2/sa_v1', 1))];
    if (!R.sa_v1.error) {
      const z2 = rowOf(engine, R.v1.context_vec, 1).print, row2 = rowOf(engine, R.sa_v1, 1).print;
      parts.push(h('p', { class: z2 === row2 ? 'match' : 'note error', 'data-testid': 'v1-row2' },
        z2 === row2 ? `The highlighted row 2 is ${row2}: exactly z(2), computed by hand above. The class runs the identical dataflow for all ${R.tokens} queries at once.`
          : `Row 2 is ${row2}, but z(2) above is ${z2}.`));
    }
    parts.push(h('h3', { text: 'Listing 3.2 — the same class with nn.Linear' }),
      para('nn.Linear (with bias=False) computes the same projections, but its weight initialization makes training more stable than raw torch.rand parameters, so the numbers differ:'),
      h('div', { class: 'cell' }, h('pre', { class: 'code' }, h('code', { text: `${LISTING_3_2}\n\ntorch.manual_seed(${BOOK_SEED_V2})\nsa_v2 = SelfAttention_v2(d_in, d_out)\nprint(sa_v2(inputs))` })),
        live(R.sa_v2, '3.4.2/sa_v2')));
    // Exercise 3.1 transfers weights between modules: the engine's replay of the chapter on these
    // inputs does it, and its answer must equal sa_v2's output.
    parts.push(h('h3', { text: 'Exercise 3.1 — compare SelfAttention_v1 and v2' }),
      para('Assign v2’s weights to v1 and both print the same tensor. nn.Linear stores its weight as (d_out, d_in), so it must be transposed. With your inputs and the book’s seeds:'));
    if (R.chapter.error) {
      parts.push(errorNote(R.chapter.error));
    } else {
      const ex = R.chapter.get('ex3.1/sa_v1_with_v2_weights'), v2 = R.chapter.get('3.4.2/sa_v2');
      parts.push(codeCell(EXERCISE_3_1, cellLine(ex), { cell: 'ex3.1/sa_v1_with_v2_weights' }),
        h('p', { class: ex.print === v2.print ? 'match' : 'note error', text: ex.print === v2.print ? 'Identical to sa_v2’s output: same weights, same numbers.' : 'This differs from sa_v2’s output.' }));
    }
    body.replaceChildren(...parts);
  }
  return { el, update };
}
