"""The PyTorch peer for `attention-lab bench`: the book's MultiHeadAttention at GPT-2-small size.

Run with Debian's python3-torch (1.13, OpenBLAS) on one thread, as docs/performance.md does:
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=1 /usr/bin/python3 scripts/bench_pytorch_peer.py
Prints one JSON object per line, like `attention-lab bench --json`.
"""
import json, os, statistics, sys, time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import torch

torch.set_num_threads(1)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_reference_cases import MultiHeadAttention  # Listing 3.5, the class the tests check against


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
