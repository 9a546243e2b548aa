// The Python lines that give the chapter's modules a reader's own weights (the weights attribute),
// written from the engine's float32 copy of them (its weights/<name> cells, in both layouts), so that
// every output printed under the code stays what PyTorch prints for that code.
import { pyList } from './common.js';

const PROJECTIONS = ['W_query', 'W_key', 'W_value'];
const LINEAR = [...PROJECTIONS.map((p) => `${p}.weight`), ...PROJECTIONS.map((p) => `${p}.bias`)];

const literal = (r) => `torch.tensor(${pyList(r.values, r.shape)})`;
// Whether this answer carries a reader's weights (the request had them).
export const hasWeights = (D) => D.has('weights/W_query');
export const hasBias = (D) => D.has('weights/W_query.bias');

// §3.4.1's three plain parameters: the reader's, instead of torch.rand's.
export function plainParameters(D) {
  return PROJECTIONS.map((p) => `${p.padEnd(7)} = torch.nn.Parameter(${literal(D.get(`weights/${p}`))}, requires_grad=False)`).join('\n');
}

// module.load_state_dict({...}) with the names `module` has: SelfAttention_v1's W_query (d_in × d_out),
// or nn.Linear's W_query.weight (d_out × d_in) and biases, and out_proj for MultiHeadAttention. strict=False
// where the module also has a buffer (the causal mask) that the reader's state_dict need not hold.
export function loadState(D, module, kind) {
  const names = kind === 'v1' ? PROJECTIONS : [...LINEAR, ...(kind === 'mha' ? ['out_proj.weight', 'out_proj.bias'] : [])];
  const entries = names.filter((n) => D.has(`weights/${n}`)).map((n) => `    "${n}": ${literal(D.get(`weights/${n}`))},`);
  return `${module}.load_state_dict({   # your weights\n${entries.join('\n')}\n}${kind === 'v1' || kind === 'v2' ? '' : ', strict=False'})`;
}

// The constructor's qkv_bias argument when the reader's weights have biases.
export const biasArgument = (D) => (hasBias(D) ? ', qkv_bias=True' : '');
