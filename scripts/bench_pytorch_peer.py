"""The PyTorch peer for `attention-lab bench`: the book's MultiHeadAttention at GPT-2-small size.

Run with Debian's python3-torch (1.13, OpenBLAS) on one thread, as docs/performance.md does:
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 /usr/bin/python3 scripts/bench_pytorch_peer.py
Prints one JSON object per line, like `attention-lab bench --json`.
"""
import json, os, statistics, sys, time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import torch
import torch.nn as nn

torch.set_num_threads(1)


# Listing 3.5, as in scripts/make_reference_cases.py
class MultiHeadAttention(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = nn.Linear(d_out, d_out)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer('mask', torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x):
        b, num_tokens, d_in = x.shape
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        keys = keys.view(b, num_tokens, self.num_heads, self.head_dim)
        values = values.view(b, num_tokens, self.num_heads, self.head_dim)
        queries = queries.view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -torch.inf)
        attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)


def median_ms(fn, warmups, runs):
    for _ in range(warmups):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    torch.manual_seed(123)
    T = 1024
    mha = MultiHeadAttention(768, 768, T, 0.0, 12).eval()
    x = torch.rand(1, T, 768)
    with torch.no_grad():
        ms = median_ms(lambda: mha(x), 2, 9)
    print(json.dumps({"bench": "mha_gpt2_small", "kernel": "pytorch", "T": T, "ms": round(ms, 2),
                      "torch": torch.__version__, "threads": torch.get_num_threads()}))
    for n in (256, 512, 1024):
        a, b = torch.rand(n, n), torch.rand(n, n)
        ms = median_ms(lambda: a @ b, 2, 9)
        print(json.dumps({"bench": "sgemm", "kernel": "pytorch", "n": n, "ms": round(ms, 3),
                          "gflops": round(2 * n**3 / (ms * 1e-3) * 1e-9, 2)}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
