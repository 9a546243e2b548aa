"""Makes tests/fixtures/bug_hunt_cases.json: the bug hunt's two programs (web/src/learn/bug-programs.json,
the lines the page shows) run by PyTorch as written, once correct and once with each bug's line, on the
book's inputs, an author example and other sizes. The engine computes the same (engine/src/replay/bug_hunt.h).
Run with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/make_bug_hunt_cases.py [--out DIR]
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
with open(os.path.join(HERE, "..", "web", "src", "learn", "bug-programs.json")) as f:
    SPEC = json.load(f)
BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]


def jnum(x):
    x = float(x)
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf") if math.isinf(x) else x


def result(t):
    return {"shape": list(t.shape), "values": [jnum(v) for v in t.reshape(-1).tolist()], "print": str(t)}


def mha_init(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):  # Listing 3.5's __init__
    nn.Module.__init__(self)
    assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
    self.d_out, self.num_heads, self.head_dim = d_out, num_heads, d_out // num_heads
    self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
    self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
    self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)
    self.out_proj = nn.Linear(d_out, d_out)
    self.dropout = nn.Dropout(dropout)
    self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))


def lines_of(program, bug):
    """The program's lines with the bug's line in place (bug None: as the book writes it)."""
    lines = list(SPEC["programs"][program]["lines"])
    if bug:
        b = SPEC["bugs"][bug]
        if "moveTo" in b:
            del lines[b["line"]]
            lines.insert(b["moveTo"], b["text"])
        else:
            lines[b["line"]] = b["text"]
    return lines


def run(inputs, d_out, seed, program, bug):
    """What the program prints (its last line's print), as a tensor, or the error line it raises."""
    T = len(inputs)
    text = "\n".join(lines_of(program, bug)).replace("{seed}", str(seed)).replace("{d_out}", str(d_out)).replace("{T}", str(T))
    printed = []
    ns = {"torch": torch, "nn": nn, "inputs": torch.tensor(inputs), "print": printed.append}
    if program == "heads":  # the listing's class gets Listing 3.5's __init__, which the page does not repeat
        ns["nn"] = type("nn", (), {"Module": type("Module", (nn.Module,), {"__init__": mha_init})})
    try:
        exec(compile(text, f"<{program}>", "exec"), ns)
    except RuntimeError as e:
        return None, f"RuntimeError: {e}"
    assert len(printed) == 1
    return printed[0], None


g = torch.Generator().manual_seed(2026)
EXAMPLES = [(BOOK, 2, None),
            (BOOK, 4, 7),
            ([[0.1, 0.9], [0.8, 0.3], [0.5, 0.5], [0.9, 0.2]], 2, None),  # an author example: d_in = d_out
            (torch.rand(11, 5, generator=g).mul(4).sub(2).tolist(), 6, 42)]  # 11 tokens: softmax(dim=0)'s 8-lane loop
cases = []
for inputs, d_out, learner_seed in EXAMPLES:
    for bug, b in SPEC["bugs"].items():
        program = b["program"]
        seed = SPEC["programs"][program]["seed"] if learner_seed is None else learner_seed
        correct, raised = run(inputs, d_out, seed, program, None)
        assert raised is None, raised
        buggy, raised = run(inputs, d_out, seed, program, bug)
        case = {"request": {"op": "bug_hunt", "bug": bug, "x": inputs, "d_out": d_out, "seed": seed},
                "program": program, "tensor": "context_vecs" if program == "heads" else "attn_weights",
                "correct": result(correct)}
        if raised: case["raised"] = raised
        else: case["buggy"] = result(buggy)
        cases.append(case)
with open(OUT, "w") as f:
    json.dump({"source": f"PyTorch {torch.__version__}, scripts/make_bug_hunt_cases.py", "cases": cases}, f, indent=1)
print(f"{len(cases)} cases -> {OUT}")
