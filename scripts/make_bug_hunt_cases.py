"""Makes tests/fixtures/bug_hunt_cases.json: the bug hunt's planted mistakes (engine/src/replay/bug_hunt.h)
run by PyTorch as a learner would write them, each beside the correct line, on the book's inputs and on
other sizes. Run with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/make_bug_hunt_cases.py [--out DIR]
(the libblas.so.3 alternative must be OpenBLAS, as for make_reference_cases.py). The tests read the file.
"""
import json, math, os, sys
import oracle_torch  # noqa: F401  (before torch: the same kernels on every machine)
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
# --out DIR writes into DIR instead: ./scripts/test compares a fresh run with the committed file.
OUT_DIR = sys.argv[2] if sys.argv[1:2] == ["--out"] else os.path.join(HERE, "..", "tests", "fixtures")
OUT = os.path.join(OUT_DIR, "bug_hunt_cases.json")
BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]
P = 0.1  # replay/bug_hunt.h's kBugDropout


def jnum(x):
    x = float(x)
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf") if math.isinf(x) else x


def result(t):
    t = t.detach()
    return {"shape": list(t.shape), "values": [jnum(v) for v in t.reshape(-1).tolist()], "print": str(t)}


class MultiHeadAttention(nn.Module):  # Listing 3.5, with the heads split by view alone when not transpose_heads
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x, transpose_heads=True):
        b, num_tokens, d_in = x.shape
        keys, queries, values = self.W_key(x), self.W_query(x), self.W_value(x)
        if transpose_heads:
            keys = keys.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
            queries = queries.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
            values = values.view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        else:
            keys = keys.view(b, self.num_heads, num_tokens, self.head_dim)
            queries = queries.view(b, self.num_heads, num_tokens, self.head_dim)
            values = values.view(b, self.num_heads, num_tokens, self.head_dim)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


def run(inputs, d_out, seed, bug):
    inputs = torch.tensor(inputs)
    T, d_in = inputs.shape
    torch.manual_seed(seed)
    if bug == "view_without_transpose":
        mha = MultiHeadAttention(d_in, d_out, T, 0.0, num_heads=2)
        batch = inputs.unsqueeze(0)
        return "context_vecs", mha(batch)[0], mha(batch, transpose_heads=False)[0]
    W_query, W_key, W_value = torch.rand(d_in, d_out), torch.rand(d_in, d_out), torch.rand(d_in, d_out)
    queries, keys = inputs @ W_query, inputs @ W_key
    attn_scores = queries @ keys.T
    d_k = keys.shape[-1]
    mask = torch.triu(torch.ones(T, T), diagonal=1)
    masked = attn_scores.masked_fill(mask.bool(), -torch.inf)
    attn_weights = torch.softmax(masked / d_k**0.5, dim=-1)
    if bug == "dropout_inverse_p":
        keep = torch.empty_like(attn_weights).bernoulli_(1 - P)
        return "dropped_weights", attn_weights * keep / (1 - P), attn_weights * keep / P
    if bug == "mask_after_softmax":
        buggy = torch.softmax(attn_scores / d_k**0.5, dim=-1) * torch.tril(torch.ones(T, T))
    elif bug == "mask_with_zero":
        buggy = torch.softmax(attn_scores.masked_fill(mask.bool(), 0) / d_k**0.5, dim=-1)
    elif bug == "divide_by_dk":
        buggy = torch.softmax(masked / d_k, dim=-1)
    elif bug == "softmax_dim0":
        buggy = torch.softmax(masked / d_k**0.5, dim=0)
    return "attn_weights", attn_weights, buggy


BUGS = ["mask_after_softmax", "mask_with_zero", "divide_by_dk", "softmax_dim0", "dropout_inverse_p", "view_without_transpose"]
g = torch.Generator().manual_seed(2026)
EXAMPLES = [(BOOK, 2, 123), (BOOK, 4, 7),
            ([[0.1, 0.9], [0.8, 0.3], [0.5, 0.5], [0.9, 0.2]], 2, 123),
            (torch.rand(11, 5, generator=g).mul(4).sub(2).tolist(), 6, 42)]  # 11 tokens: softmax(dim=0)'s 8-lane loop
cases = []
for inputs, d_out, seed in EXAMPLES:
    for bug in BUGS:
        name, correct, buggy = run(inputs, d_out, seed, bug)
        cases.append({"request": {"op": "bug_hunt", "bug": bug, "x": inputs, "d_out": d_out, "seed": seed},
                      "tensor": name, "correct": result(correct), "buggy": result(buggy)})
with open(OUT, "w") as f:
    json.dump({"source": f"PyTorch {torch.__version__}, scripts/make_bug_hunt_cases.py", "cases": cases}, f, indent=1)
print(f"{len(cases)} cases -> {OUT}")
