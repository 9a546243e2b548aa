#!/usr/bin/env python3
# Measures the slowest `train` requests the engine accepts (README.md, "Limits"): for each module and
# optimizer, a few shapes that stress one part of the work (the T×T scores, the matrix products, the
# optimizer), each with the most steps the bounds accept, found from the engine's own refusal
# sentences. Runs each once through the native CLI under /usr/bin/time and prints CPU time and memory.
#   scripts/train_limits.py [build/native/attention-lab]
import json, re, subprocess, sys, tempfile

CLI = sys.argv[1] if len(sys.argv) > 1 else "build/native/attention-lab"
MAX_STEPS = 10000


def request(module, optimizer, B, T, d_in, d_out, heads, steps, dropout=0.0):
    batched = module in ("causal_attention", "mha")
    x = [[0.5] * d_in for _ in range(T)]
    target = [[0.25] * d_out for _ in range(T)]
    r = {"op": "train", "seed": 1, "module": module, "x": [x] * B if batched else x,
         "target": [target] * B if batched else target, "d_out": d_out, "optimizer": optimizer, "lr": 0.01,
         "steps": steps, "record_every": MAX_STEPS, "prints": False}
    if batched:
        r["dropout"] = dropout
    if module == "mha":
        r["num_heads"] = heads
    return json.dumps(r)


def answer(text):
    out = subprocess.run([CLI, "eval"], input=text, capture_output=True, text=True)
    return json.loads(out.stdout)


# the most steps the bounds accept: each refusal names the amount of one bound for the steps asked
def most_steps(make):
    steps = MAX_STEPS
    for _ in range(4):
        a = answer(make(steps))
        if "error" not in a:
            return steps
        m = re.search(r"would need (\d+) .*?limit of (\d+)", a["error"])
        if not m:
            raise SystemExit(a["error"])
        need, limit = int(m.group(1)), int(m.group(2))
        steps = min(steps - 1, steps * limit // need)
        if steps < 1:
            return 0
    return steps


CASES = [  # module, optimizer, B, T, d_in, d_out, heads, dropout; within the answer limit (2^21 numbers)
    ("self_attention_v1", "sgd", 1, 1024, 1, 1, 1, 0.0),       # T×T scores
    ("self_attention_v2", "adam", 1, 1, 1024, 640, 1, 0.0),    # parameters and Adam
    ("self_attention_v2", "sgd", 1, 256, 512, 512, 1, 0.0),    # large products
    ("causal_attention", "sgd", 1, 1024, 1, 1, 1, 0.0),
    ("causal_attention", "sgd", 1, 1024, 1, 1, 1, 0.1),
    ("causal_attention", "adam", 64, 128, 1, 1, 1, 0.1),
    ("causal_attention", "adam", 4, 16, 32, 16, 1, 0.0),       # the page's largest run's shape
    ("causal_attention", "sgd", 64, 16, 16, 16, 1, 0.0),       # many small products
    ("mha", "sgd", 1, 724, 1, 4, 4, 0.0),
    ("mha", "adam", 1, 1, 256, 1024, 1, 0.0),
    ("mha", "adam", 1, 128, 64, 64, 8, 0.1),
    ("mha", "sgd", 16, 16, 16, 16, 4, 0.0),
]

print("| request | steps | CPU time | peak memory |")
print("| --- | --- | --- | --- |")
for module, opt, B, T, d_in, d_out, heads, p in CASES:
    make = lambda s: request(module, opt, B, T, d_in, d_out, heads, s, p)
    steps = most_steps(make)
    if steps == 0:
        print(f"| `train` {module}: {answer(make(1))['error']} |")
        continue
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        f.write(make(steps))
        f.flush()
        t = subprocess.run(["/usr/bin/time", "-f", "%U %S %M", CLI, "eval"], stdin=open(f.name),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    user, system, rss = t.stderr.strip().splitlines()[-1].split()
    shape = f"B = {B}, " if module in ("causal_attention", "mha") else ""
    shape += f"T = {T}, d_in = {d_in}, d_out = {d_out}" + (f", {heads} heads" if module == "mha" else "")
    shape += f", dropout {p}" if p else ""
    print(f"| `train` {module}, {opt}, {shape} | {steps} | {float(user) + float(system):.2f} s | {int(rss) // 1024} MiB |",
          flush=True)
