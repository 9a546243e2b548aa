"""Makes the reference cases the tests assert, with PyTorch as the oracle.

Run with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/make_reference_cases.py [--out DIR] [dk|author|replay|train]
(with "dk", "author", "replay" or "train": only tests/fixtures/dk_cases.json, author_cases.json,
replay_cases.json or train_page_cases.json, leaving the other files as they are). PyTorch's matrix
products come from the system BLAS: the libblas.so.3 alternative must be OpenBLAS (libopenblas0), as on
the reference machine; Debian's reference BLAS rounds them differently.
Writes tests/fixtures/reference_cases.json (eval requests and PyTorch's answers),
tests/fixtures/format_cases.json (tensors and exactly how PyTorch prints them) and
tests/fixtures/dk_cases.json (the "why sqrt(d_k)" experiment, replay/dk_experiment.h) and
tests/fixtures/author_cases.json (the chapter's code on a course author's inputs of other sizes, as the
<attention-lab> attributes give them: what print shows for each cell the page prints),
tests/fixtures/replay_cases.json (random examples across the editor's range: the page's printed cells) and
tests/fixtures/train_page_cases.json (the page's "Train it" task, as the native engine spells it out,
trained as PyTorch trains it, with the parameters at each recorded step, and its program's output). The tests never
need PyTorch: they read these committed files (--out DIR writes them into DIR instead). The chapter's
classes are the book's listings (book/listings), the same files the page shows.
"""
import contextlib, io, json, math, os, subprocess, sys
import oracle_torch  # noqa: F401  (before torch: the same kernels on every machine)
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "tests", "fixtures")


def jnum(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def result(t):
    out = {"shape": list(t.shape), "values": [jnum(v) for v in t.detach().reshape(-1).tolist()], "print": str(t.detach())}
    if t.grad_fn is not None:
        out["grad_fn"] = type(t.grad_fn).__name__
        out["print_with_grad_fn"] = str(t)
    return out


# --- the chapter's classes: the book's listings themselves (book/listings/*.py, the files the page shows) ---
LISTINGS = os.path.join(HERE, "..", "book", "listings")


def load_listings(env):
    """Runs Listings 3.1-3.5 in env (a dict holding torch and nn), which then holds the five classes."""
    for name in ["listing_3_1", "listing_3_2", "listing_3_3", "listing_3_4", "listing_3_5"]:
        path = os.path.join(LISTINGS, name + ".py")
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), env)
    return env


load_listings(globals())


class recorded_softmax:
    """While active, torch.softmax keeps its last result in .last: the attention weights a train request
    records, taken from the listing's own forward pass (the listings do not keep them)."""
    def __enter__(self):
        self.original, self.last = torch.softmax, None
        def softmax(*args, **kwargs):
            self.last = self.original(*args, **kwargs)
            return self.last
        torch.softmax = softmax
        return self
    def __exit__(self, *exc):
        torch.softmax = self.original


def tensor_of(x):
    """x from a request: nested lists whose numbers may be the strings "inf", "-inf", "nan"."""
    fix = lambda v: [fix(e) for e in v] if isinstance(v, list) else float(v)
    return torch.tensor(fix(x), dtype=torch.float32)


def train_module(req, x):
    """The module a grad or train request names, built as the chapter builds it, in training mode."""
    m, d_in, d_out = req["module"], x.shape[-1], req["d_out"]
    if m == "self_attention_v1":
        return SelfAttention_v1(d_in, d_out).train()
    if m == "self_attention_v2":
        return SelfAttention_v2(d_in, d_out, req.get("qkv_bias", False)).train()
    T, p, bias = x.shape[1], req.get("dropout", 0.0), req.get("qkv_bias", False)
    if m == "causal_attention":
        return CausalAttention(d_in, d_out, T, p, bias).train()
    return MultiHeadAttention(d_in, d_out, T, p, req["num_heads"], bias).train()


def grad_answer(req, x):
    module = train_module(req, x)
    loss = F.mse_loss(module(x), tensor_of(req["target"]))
    loss.backward()
    return {"loss": result(loss), "grads": {name: result(p.grad) for name, p in module.named_parameters()}}


def train_answer(req, x):
    module = train_module(req, x)
    target = tensor_of(req["target"])
    if req["optimizer"] == "sgd":
        optimizer = torch.optim.SGD(module.parameters(), lr=req["lr"], momentum=req.get("momentum", 0.0))
    else:
        optimizer = torch.optim.Adam(module.parameters(), lr=req["lr"])
    losses, weights, history = [], [], []
    parameters = lambda: {name: result(p.detach().clone()) for name, p in module.named_parameters()}
    for step in range(req["steps"]):
        optimizer.zero_grad()
        with recorded_softmax() as attn:
            output = module(x)
        loss = F.mse_loss(output, target)
        losses.append(loss.item())
        if step % req.get("record_every", 1) == 0:
            weights.append(result(attn.last.detach()))
            if req.get("record_parameters"):
                history.append(parameters())
        loss.backward()
        optimizer.step()
    out = {"losses": losses, "weights": weights, "parameters": parameters()}
    if req.get("record_parameters"):
        out["parameter_history"] = history
    return out


def answer(req):
    """What the engine must answer for req: PyTorch's result, in training mode."""
    op = req["op"]
    if "seed" in req:
        torch.manual_seed(req["seed"])
    x = tensor_of(req["x"]) if "x" in req else None
    if op == "grad":
        return grad_answer(req, x)
    if op == "train":
        return train_answer(req, x)
    if op == "rand":
        return result(torch.rand(req["shape"]))
    if op == "linear":
        lin = nn.Linear(req["d_in"], req["d_out"], bias=req["bias"])
        return {"weight": result(lin.weight), "bias": result(lin.bias) if req["bias"] else None}
    if op == "softmax":
        return result(torch.softmax(x / req.get("temperature", 1.0), dim=-1))
    if op == "matmul":
        return result(tensor_of(req["a"]) @ tensor_of(req["b"]))
    if op == "dropout":
        return result(nn.Dropout(req["p"]).train()(x))
    if op == "self_attention_v1":
        return result(SelfAttention_v1(x.shape[-1], req["d_out"])(x))
    if op == "self_attention_v2":
        return result(SelfAttention_v2(x.shape[-1], req["d_out"], req.get("qkv_bias", False))(x))
    args = (x.shape[-1], req["d_out"], req["context_length"], req["dropout"])
    if op == "causal_attention":
        return result(CausalAttention(*args, qkv_bias=req.get("qkv_bias", False)).train()(x))
    if op == "mha_wrapper":
        return result(MultiHeadAttentionWrapper(*args, req["num_heads"], req.get("qkv_bias", False)).train()(x))
    if op == "mha":
        return result(MultiHeadAttention(*args, req["num_heads"], req.get("qkv_bias", False)).train()(x))
    raise ValueError(op)


def requests():
    g = torch.Generator().manual_seed(2024)
    def rnd(*shape, scale=1.0):
        return (torch.randn(*shape, generator=g) * scale).tolist()
    book = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
            [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]
    yield "rand 2x3 seed 123", {"op": "rand", "seed": 123, "shape": [2, 3]}
    yield "rand 4-D seed 0", {"op": "rand", "seed": 0, "shape": [2, 1, 3, 2]}
    yield "rand 700 values (twist boundary)", {"op": "rand", "seed": 7, "shape": [700]}
    yield "rand big seed", {"op": "rand", "seed": 2**40 + 5, "shape": [3]}
    yield "rand 0-d", {"op": "rand", "seed": 3, "shape": []}
    for seed, d_in, d_out, bias in [(789, 3, 2, False), (1, 5, 4, True), (99, 768, 2, True), (5, 1, 1, True)]:
        yield "linear %d->%d bias=%s" % (d_in, d_out, bias), {"op": "linear", "seed": seed, "d_in": d_in, "d_out": d_out, "bias": bias}
    for t in [0.01, 0.1, 0.7, 1.0, 3.0, 100.0]:
        yield "softmax book scores T=%g" % t, {"op": "softmax", "x": [1.2705, 1.8524, 1.8111, 1.0795, 0.5577, 1.5440], "temperature": t}
    yield "softmax 2-D random", {"op": "softmax", "x": rnd(5, 9, scale=3.0)}
    yield "softmax 3-D with -inf", {"op": "softmax", "x": [[[0.5, "-inf", 1.0], [2.0, 1.0, "-inf"]]], "temperature": 2.0}
    yield "softmax long row", {"op": "softmax", "x": rnd(37, scale=2.0), "temperature": 0.5}
    yield "matmul book weights @ inputs", {"op": "matmul", "a": [[0.2098, 0.2006, 0.1981, 0.1242, 0.1220, 0.1452]], "b": book}
    yield "matmul toy", {"op": "matmul", "a": [[0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.25, 0.25, 0.5]], "b": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]}
    yield "matmul vector @ matrix", {"op": "matmul", "a": rnd(5), "b": rnd(5, 3)}
    yield "matmul batched 4-D (a @ a.T per head)", {"op": "matmul", "a": rnd(1, 2, 3, 4), "b": rnd(1, 2, 4, 3)}
    yield "matmul 3-D @ 2-D", {"op": "matmul", "a": rnd(2, 6, 3), "b": rnd(3, 2)}
    yield "matmul large (kernel path)", {"op": "matmul", "a": rnd(40, 50), "b": rnd(50, 45)}
    for p, seed in [(0.5, 123), (0.1, 7), (0.9, 42), (0.0, 1)]:
        yield "dropout p=%g" % p, {"op": "dropout", "seed": seed, "p": p, "x": rnd(6, 7)}
    yield "dropout ones (book mask)", {"op": "dropout", "seed": 123, "p": 0.5, "x": [[1.0] * 6] * 6}
    yield "v1 book", {"op": "self_attention_v1", "seed": 123, "x": book, "d_out": 2}
    yield "v1 seed 5 d_out 4", {"op": "self_attention_v1", "seed": 5, "x": rnd(4, 5), "d_out": 4}
    yield "v2 book", {"op": "self_attention_v2", "seed": 789, "x": book, "d_out": 2}
    yield "v2 bias d_out 3", {"op": "self_attention_v2", "seed": 11, "x": rnd(7, 3), "d_out": 3, "qkv_bias": True}
    batch = [book, book]
    yield "causal book", {"op": "causal_attention", "seed": 123, "x": batch, "d_out": 2, "context_length": 6, "dropout": 0.0}
    yield "causal dropout 0.5", {"op": "causal_attention", "seed": 123, "x": batch, "d_out": 2, "context_length": 6, "dropout": 0.5}
    yield "causal short input, bias", {"op": "causal_attention", "seed": 3, "x": rnd(3, 4, 5), "d_out": 3, "context_length": 8, "dropout": 0.2, "qkv_bias": True}
    yield "wrapper book", {"op": "mha_wrapper", "seed": 123, "x": batch, "d_out": 2, "context_length": 6, "dropout": 0.0, "num_heads": 2}
    yield "wrapper 3 heads dropout", {"op": "mha_wrapper", "seed": 8, "x": rnd(2, 5, 4), "d_out": 2, "context_length": 5, "dropout": 0.3, "num_heads": 3}
    yield "mha book", {"op": "mha", "seed": 123, "x": batch, "d_out": 2, "context_length": 6, "dropout": 0.0, "num_heads": 2}
    yield "mha 4 heads bias dropout", {"op": "mha", "seed": 21, "x": rnd(2, 6, 8), "d_out": 8, "context_length": 10, "dropout": 0.1, "num_heads": 4, "qkv_bias": True}
    yield "mha 1 head", {"op": "mha", "seed": 2, "x": rnd(1, 4, 3), "d_out": 6, "context_length": 4, "dropout": 0.0, "num_heads": 1}
    yield "mha long (fused path)", {"op": "mha", "seed": 123, "x": rnd(1, 130, 16), "d_out": 16, "context_length": 200, "dropout": 0.0, "num_heads": 4}
    yield from training_requests(book, rnd)  # last, so the cases above keep their random inputs
    # k >= 8: OpenBLAS's 8x4 and 8x6 blocks sum k in two chains (pytorch_cpu::gemm_fma); values exact
    yield "matmul 16x11 @ 11x9 (OpenBLAS two-chain blocks)", {"op": "matmul", "a": rnd(16, 11), "b": rnd(11, 9)}
    yield "matmul 40x17 @ 17x20 (OpenBLAS two-chain blocks)", {"op": "matmul", "a": rnd(40, 17), "b": rnd(17, 20)}


def training_requests(book, rnd):
    """grad and train for every module: both optimizers, momentum, qkv_bias, dropout > 0."""
    target = rnd(6, 2)
    batch, batch_target = [book, book], [target, rnd(6, 2)]
    v1 = {"module": "self_attention_v1", "seed": 123, "x": book, "target": target, "d_out": 2}
    v2 = {"module": "self_attention_v2", "seed": 789, "x": book, "target": target, "d_out": 2}
    v2_bias = {"module": "self_attention_v2", "seed": 11, "x": rnd(7, 3), "target": rnd(7, 3), "d_out": 3, "qkv_bias": True}
    causal = {"module": "causal_attention", "seed": 123, "x": batch, "target": batch_target, "d_out": 2, "dropout": 0.0}
    causal_drop = dict(causal, dropout=0.5, qkv_bias=True)
    mha = {"module": "mha", "seed": 123, "x": batch, "target": batch_target, "d_out": 2, "num_heads": 2, "dropout": 0.0}
    mha_drop = {"module": "mha", "seed": 21, "x": rnd(2, 6, 8), "target": rnd(2, 6, 8), "d_out": 8, "num_heads": 4,
                "dropout": 0.1, "qkv_bias": True}
    wide = {"module": "self_attention_v2", "seed": 4, "x": rnd(11, 9), "target": rnd(11, 17), "d_out": 17, "qkv_bias": True}
    named = [("v1 book", v1), ("v2 book", v2), ("v2 bias d_out 3", v2_bias), ("causal book", causal),
             ("causal dropout 0.5 bias", causal_drop), ("mha book", mha), ("mha 4 heads bias dropout", mha_drop),
             ("v2 11 tokens d_out 17", wide)]
    for name, m in named:
        yield "grad " + name, dict(m, op="grad")
    sgd = {"op": "train", "optimizer": "sgd", "lr": 0.1, "steps": 100, "record_every": 10}
    adam = {"op": "train", "optimizer": "adam", "lr": 0.01, "steps": 100, "record_every": 25}
    for name, m in named:
        yield "train sgd momentum 0.9 " + name, dict(m, **sgd, momentum=0.9)
        yield "train adam " + name, dict(m, **adam)
    yield "train sgd no momentum v2 book", dict(v2, **sgd)


def format_cases():
    g = torch.Generator().manual_seed(7)
    inf, nan = float("inf"), float("nan")
    yield "small randn", torch.randn(3, 4, generator=g)
    yield "sci small", torch.tensor([1e-5, 0.5, 2.0])
    yield "sci big", torch.tensor([1.5e9, 2.0, -3.0])
    yield "ratio > 1000", torch.tensor([0.001, 5.0])
    yield "int large", torch.tensor([1.0, 2000.0])
    yield "int 1e9", torch.tensor([1e9, 3.0])
    yield "ints negative", torch.tensor([[-1.0, 2.0], [30.0, 0.0]])
    yield "non-finite mixed", torch.tensor([inf, -inf, nan, 1.5, -2.25])
    yield "non-finite ints", torch.tensor([inf, 1.0, nan])
    yield "only non-finite", torch.tensor([nan, -inf])
    yield "zeros", torch.zeros(2, 3)
    yield "negative zero", torch.tensor([-0.0, 0.0, 1.0])
    yield "rounds to -0", torch.tensor([-0.00001, 0.5])
    yield "1e308 becomes inf", torch.tensor([1e308, 1.0])
    yield "denormal", torch.tensor([1e-40, 1.0])
    yield "wrap 1-D", torch.randn(30, generator=g)
    yield "wrap 2-D", torch.randn(3, 17, generator=g) * 100
    yield "4-D", torch.randn(2, 2, 2, 3, generator=g)
    yield "3-D sci", torch.randn(2, 3, 4, generator=g) * 1e-5
    yield "summarised 1-D", torch.arange(1200, dtype=torch.float32) / 7
    yield "summarised 2-D", torch.randn(50, 40, generator=g)
    yield "summarised 3-D", torch.randn(12, 10, 11, generator=g)
    yield "summarised rows only", torch.randn(1001, 1, generator=g)
    yield "0-d", torch.tensor(3.14159)
    yield "0-d sci", torch.tensor(1.5e-7)
    yield "0-d int", torch.tensor(-7.0)
    yield "0-d nan", torch.tensor(nan)
    yield "grad_fn suffix", (torch.randn(6, 6, generator=g).requires_grad_() * 2)
    yield "grad_fn wraps", (torch.randn(2, 3, 4, generator=g).requires_grad_() @ torch.randn(4, 11, generator=g))
    yield "requires_grad leaf", torch.randn(2, generator=g).requires_grad_()


def dk_case(d_k, seed, n=8):
    """The "why sqrt(d_k)" experiment exactly as engine/src/replay/dk_experiment.h writes it."""
    torch.manual_seed(seed)
    queries = (torch.rand(n, d_k) * 2 - 1) * 3**0.5
    keys = (torch.rand(n, d_k) * 2 - 1) * 3**0.5
    attn_scores = queries @ keys.T
    weights_unscaled = torch.softmax(attn_scores[0], dim=-1)
    weights_scaled = torch.softmax(attn_scores[0] / d_k**0.5, dim=-1)
    return {"d_k": d_k, "n": n, "seed": seed,
            # the first query and the last key: the draws in order, without the whole (n, d_k) tensors
            "queries_0": result(queries[0]), "keys_last": result(keys[-1]), "attn_scores": result(attn_scores),
            "spread": jnum(attn_scores.std()),
            "weights_unscaled": result(weights_unscaled), "weights_scaled": result(weights_scaled),
            "max_unscaled": jnum(weights_unscaled.max()), "max_scaled": jnum(weights_scaled.max())}


def write_dk_cases():
    # the page's sweep (powers of two, seed 123), and sizes around OpenBLAS's unrolling by 8 and its
    # K blocks of 320 (two halves from 321 to 639 left), with other seeds
    cases = [dk_case(2 ** e, 123) for e in range(1, 11)]
    cases += [dk_case(d_k, seed) for d_k, seed in [(3, -5), (7, 0), (9, 1), (15, 2), (100, 3), (320, 4), (321, 5), (639, 6), (641, 7), (1000, 8), (1023, 42)]]
    src = "PyTorch %s, CPU" % torch.__version__
    json.dump({"source": src, "cases": cases}, open(os.path.join(FIXTURES, "dk_cases.json"), "w"), separators=(",", ":"), allow_nan=False)
    print(len(cases), "dk cases")


def author_case(name, words, inputs, d_out, seed):
    """The book's code (golden_chapter3.py's order of draws) on these inputs: the cells of §3.4.1,
    Listings 3.1 and 3.2 and §3.5.3, printed as PyTorch prints them. seed None: the book's seeds
    (123, and 789 for Listing 3.2); a number replaces every torch.manual_seed."""
    env = load_listings({"torch": torch, "nn": nn})
    seed_of = lambda book: book if seed is None else seed
    x = torch.tensor(inputs)
    d_in = x.shape[1]
    cells = {}
    torch.manual_seed(seed_of(123))
    W_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    W_key = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    W_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    x_2 = x[1]
    query_2 = x_2 @ W_query
    keys = x @ W_key
    values = x @ W_value
    attn_scores_2 = query_2 @ keys.T
    attn_weights_2 = torch.softmax(attn_scores_2 / keys.shape[-1] ** 0.5, dim=-1)
    cells["3.4.1/W_query"] = W_query.data
    cells["3.4.1/query_2"] = query_2
    cells["3.4.1/attn_score_22"] = query_2.dot(keys[1])
    cells["3.4.1/attn_scores_2"] = attn_scores_2
    cells["3.4.1/attn_weights_2"] = attn_weights_2
    cells["3.4.1/context_vec_2"] = attn_weights_2 @ values
    torch.manual_seed(seed_of(123))
    cells["3.4.2/sa_v1"] = env["SelfAttention_v1"](d_in, d_out)(x)
    torch.manual_seed(seed_of(789))
    cells["3.4.2/sa_v2"] = env["SelfAttention_v2"](d_in, d_out)(x)
    batch = torch.stack((x, x), dim=0)
    torch.manual_seed(seed_of(123))
    cells["3.5.3/context_vecs"] = env["CausalAttention"](d_in, d_out, batch.shape[1], 0.0)(batch)
    return {"name": name, "words": words, "inputs": inputs, "d_out": d_out, "seed": seed,
            "cells": {k: str(v) for k, v in cells.items()}}


def write_author_cases():
    g = torch.Generator().manual_seed(2024)
    def rows(tokens, d_in):
        return [[round(float(v), 2) for v in r] for r in torch.rand(tokens, d_in, generator=g) * 2 - 0.5]
    cases = [
        author_case("T=4, d_in=5, d_out=3, seed 7, a word with a space", ["New York", "is", "a", "city"], rows(4, 5), 3, 7),
        author_case("T=8, d_in=2, d_out=4, the book's seeds", ["w%d" % (i + 1) for i in range(8)], rows(8, 2), 4, None),
        author_case("T=2, d_in=1, d_out=1, seed 0", ["yes", "no"], rows(2, 1), 1, 0),
    ]
    src = "PyTorch %s, CPU" % torch.__version__
    json.dump({"source": src, "cases": cases}, open(os.path.join(FIXTURES, "author_cases.json"), "w"), indent=1, allow_nan=False)
    print(len(cases), "author cases")


# The page's "Train it" task is the engine's (engine/src/replay/train_task.h): the native CLI spells out
# the train request it makes of the learner's inputs (the `train_task` op) and the program the page prints.
# PyTorch then trains that request and runs that program: the answer and the output the tests hold the
# engine and the page to. Needs ./scripts/build native.
ENGINE = os.path.join(HERE, "..", "build", "native", "attention-lab")


def replay_case(inputs, d_out, seed, temperature):
    """What the page prints under its code cells for these inputs, as PyTorch runs those cells: §3.4.1's
    step by step (query_2 @ keys.T, one row), the temperature cell, Listings 3.1 and 3.2 and §3.5.3."""
    env = load_listings({"torch": torch, "nn": nn})
    seed_of = lambda book: book if seed is None else seed
    x = torch.tensor(inputs)
    d_in = x.shape[1]
    torch.manual_seed(seed_of(123))
    W_query = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    W_key = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    W_value = torch.nn.Parameter(torch.rand(d_in, d_out), requires_grad=False)
    query_2 = x[1] @ W_query
    keys = x @ W_key
    values = x @ W_value
    attn_scores_2 = query_2 @ keys.T
    d_k = keys.shape[-1]
    attn_weights_2 = torch.softmax(attn_scores_2 / d_k**0.5, dim=-1)
    cells = {"3.4.1/query_2": query_2, "3.4.1/attn_score_22": query_2.dot(keys[1]),
             "3.4.1/attn_scores_2": attn_scores_2, "scaled_scores_2": attn_scores_2 / d_k**0.5,
             "3.4.1/attn_weights_2": attn_weights_2, "3.4.1/context_vec_2": attn_weights_2 @ values,
             "temperature_weights_2": torch.softmax(attn_scores_2 / temperature, dim=-1)}
    torch.manual_seed(seed_of(123))
    cells["3.4.2/sa_v1"] = env["SelfAttention_v1"](d_in, d_out)(x)
    torch.manual_seed(seed_of(789))
    cells["3.4.2/sa_v2"] = env["SelfAttention_v2"](d_in, d_out)(x)
    torch.manual_seed(seed_of(123))
    cells["3.5.3/context_vecs"] = env["CausalAttention"](d_in, d_out, x.shape[0], 0.0)(torch.stack((x, x), dim=0))
    return {"inputs": inputs, "d_out": d_out, "seed": seed, "temperature": temperature,
            "cells": {k: str(v.detach()) for k, v in cells.items()}}


def write_replay_cases():
    """Random examples across the editor's range (2-16 tokens of 1-16 values up to +-10, d_out 1-16), and
    the sizes where OpenBLAS splits a full product's sums (T = 8..11 or 16, d_out >= 8): every digit the
    page prints for them must be PyTorch's (tests/cpp/test_replay_cases.cpp)."""
    g = torch.Generator().manual_seed(43)
    def pick(lo, hi):
        return int(torch.randint(lo, hi + 1, (1,), generator=g))
    def rows(tokens, d_in, scale):
        return [[round(float(v), 2) for v in r] for r in (torch.rand(tokens, d_in, generator=g) * 2 - 1) * scale]
    temperatures = [0.25, 0.5, 1.0, 2.0, 3.0, 10.0]
    cases = [replay_case(rows(16, 16, 3.0), 16, s, 4.0) for s in [None, 1, 2, 4]]
    cases += [replay_case(rows(t, pick(8, 16), 10.0), pick(8, 16), pick(0, 2**31 - 1), 1.0) for t in [8, 9, 10, 11, 16]]
    for _ in range(60):
        tokens, d_in, d_out = pick(2, 16), pick(1, 16), pick(1, 16)
        seed = None if pick(0, 3) == 0 else pick(0, 2**31 - 1)
        cases.append(replay_case(rows(tokens, d_in, 10.0), d_out, seed, temperatures[pick(0, len(temperatures) - 1)]))
    src = "PyTorch %s, CPU" % torch.__version__
    json.dump({"source": src, "cases": cases}, open(os.path.join(FIXTURES, "replay_cases.json"), "w"), separators=(",", ":"), allow_nan=False)
    print(len(cases), "replay cases")


def engine_answer(req):
    if not os.access(ENGINE, os.X_OK):
        sys.exit("scripts/make_reference_cases.py: the train cases need the native engine; run ./scripts/build native first")
    done = subprocess.run([ENGINE, "eval"], input=json.dumps(req), capture_output=True, text=True)
    ans = json.loads(done.stdout)
    if "error" in ans:
        sys.exit("scripts/make_reference_cases.py: the engine refused %s: %s" % (req["op"], ans["error"]))
    return ans


def program_output(code):
    """What the program prints, run here in PyTorch as a learner would run it (print's last newline dropped)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<the page's train program>", "exec"), {"__name__": "__main__"})
    return out.getvalue()[:-1]


def train_page_case(name, inputs, words, seed, optimizer, lr):
    # the page's request (web/src/sections/train.js), every 25th step recorded to keep the file small
    task = {"op": "train", "task": "previous_token", "inputs": inputs, "seed": seed, "optimizer": optimizer, "lr": lr,
            "steps": 301, "record_every": 25, "record_parameters": True}
    spelled = engine_answer(dict(task, op="train_task", words=words))
    return {"name": name, "task": task, "request": spelled["request"], "answer": answer(spelled["request"]),
            "output": program_output(spelled["program"])}


def write_train_page_cases():
    book = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
            [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]
    words = ["Your", "journey", "starts", "with", "one", "step"]
    # the editor's largest inputs: products above ATen's small-bmm size go through OpenBLAS's blocks
    g = torch.Generator().manual_seed(2024)
    large = [[round(float(v), 2) for v in r] for r in torch.rand(16, 16, generator=g) * 2 - 1]
    cases = [train_page_case("the page's default: Adam, lr 0.02, 300 steps and the forward after them", book, words, 123, "adam", 0.02),
             train_page_case("SGD with momentum 0.9, lr 0.5, 300 steps and the forward after them", book, words, 123, "sgd", 0.5),
             train_page_case("16 tokens of 16 values, seed 2024, Adam: the editor's largest", large,
                             ["w%d" % (i + 1) for i in range(16)], 2024, "adam", 0.02)]
    src = "PyTorch %s, CPU" % torch.__version__
    json.dump({"source": src, "cases": cases}, open(os.path.join(FIXTURES, "train_page_cases.json"), "w"), allow_nan=False)
    print(len(cases), "train page cases")


def main():
    os.makedirs(FIXTURES, exist_ok=True)
    cases = [{"name": name, "request": req, "answer": answer(req)} for name, req in requests()]
    fmt = []
    for name, t in format_cases():
        entry = {"name": name, "shape": list(t.shape),
                 "values": [jnum(v) for v in t.detach().reshape(-1).tolist()], "print": str(t)}
        if t.grad_fn is not None:
            entry["grad_fn"] = type(t.grad_fn).__name__
        elif t.requires_grad:
            entry["requires_grad"] = True
        fmt.append(entry)
    src = "PyTorch %s, CPU" % torch.__version__
    json.dump({"source": src, "cases": cases}, open(os.path.join(FIXTURES, "reference_cases.json"), "w"), indent=1, allow_nan=False)
    json.dump({"source": src, "cases": fmt}, open(os.path.join(FIXTURES, "format_cases.json"), "w"), indent=1, allow_nan=False)
    print(len(cases), "reference cases,", len(fmt), "format cases")
    write_dk_cases()
    write_author_cases()
    write_replay_cases()
    write_train_page_cases()


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--out"]:  # write elsewhere: ./scripts/test compares a fresh run with the committed files
        FIXTURES, args = args[1], args[2:]
    if args == ["dk"]:
        write_dk_cases()
    elif args == ["author"]:
        write_author_cases()
    elif args == ["train"]:
        write_train_page_cases()
    elif args == ["replay"]:
        write_replay_cases()
    else:
        main()
