"""Makes tests/fixtures/check_cases.json: "Check my code" (the engine's `check` op, replay/check.h) against
PyTorch. The book's modules (book/listings: SelfAttention_v1, SelfAttention_v2, CausalAttention,
MultiHeadAttention) are run as written and with each planted mistake written into their code (one line
changed, as a reader would get it wrong), on the book's inputs and an author example; each case holds the
request the page or attention_lab.check sends (the module's state_dict, the inputs and what PyTorch printed
or raised), the numbers at full precision, and which mistake made it. Plus one mistake the bug hunt does not
plant (values from W_query), which must be found as a difference, where PyTorch's prints first differ.
Run with Debian's python3-torch (1.13):  /usr/bin/python3 scripts/make_check_cases.py [--out DIR]
"""
import json, math, os, re, sys
import oracle_torch  # noqa: F401  (before torch: the same kernels on every machine)
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = sys.argv[2] if sys.argv[1:2] == ["--out"] else os.path.join(HERE, "..", "tests", "fixtures")
OUT = os.path.join(OUT_DIR, "check_cases.json")
LISTINGS = os.path.join(HERE, "..", "book", "listings")
BOOK = [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]]
AUTHOR = [[0.1, 0.9], [0.8, 0.3], [0.5, 0.5], [0.9, 0.2]]  # d_in = d_out = 2: nn.Linear's weight without .T runs

LISTING_OF = {"SelfAttention_v1": "listing_3_1.py", "SelfAttention_v2": "listing_3_2.py",
              "CausalAttention": "listing_3_3.py", "MultiHeadAttention": "listing_3_5.py"}

# Each mistake as (old, new) replacements in the listing's text; each `old` must occur exactly once.
SCALE = [("keys.shape[-1]**0.5", "keys.shape[-1]")]
MASK_ZERO = [("-torch.inf)", "0)")]
TRIL = [("torch.triu(torch.ones(context_length, context_length),", "torch.tril(torch.ones(context_length, context_length),"),
        ("diagonal=1)", "diagonal=0)")]
MISTAKES = {
    "SelfAttention_v1": {"divide_by_dk": SCALE, "softmax_dim0": [("dim=-1", "dim=0")]},
    "SelfAttention_v2": {
        "divide_by_dk": SCALE, "softmax_dim0": [("dim=-1", "dim=0")],
        "weight_without_T": [("keys    = self.W_key(x)", "keys    = x @ self.W_key.weight")],
        "weight_without_T/all": [("keys    = self.W_key(x)", "keys    = x @ self.W_key.weight"),
                                 ("queries = self.W_query(x)", "queries = x @ self.W_query.weight"),
                                 ("values  = self.W_value(x)", "values  = x @ self.W_value.weight")],
        None: [("values  = self.W_value(x)", "values  = self.W_query(x)")],  # not planted: a difference
    },
    "CausalAttention": {
        "mask_after_softmax": [("attn_scores.masked_fill_(\n            self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)", "pass"),
                               ("attn_weights = self.dropout(attn_weights)",
                                "attn_weights = attn_weights.masked_fill(self.mask.bool()[:num_tokens, :num_tokens], 0)\n"
                                "        attn_weights = self.dropout(attn_weights)")],
        "mask_with_zero": MASK_ZERO,
        "divide_by_dk": SCALE,
        # the scores are (b, T, T): dim=1 (the queries) is the 2-D program's dim=0
        "softmax_dim0": [("dim=-1", "dim=1")],
        "inverted_mask": TRIL,
        "weight_without_T": [("keys = self.W_key(x)", "keys = x @ self.W_key.weight")],
        "dropout_on_scores": [("        attn_weights = self.dropout(attn_weights)\n", ""),
                              ("attn_scores = queries @ keys.transpose(1, 2)",
                               "attn_scores = queries @ keys.transpose(1, 2)\n        attn_scores = self.dropout(attn_scores)")],
        "dropout_inverse_p": [("attn_weights = self.dropout(attn_weights)",
                               "attn_weights = attn_weights * torch.empty_like(attn_weights).bernoulli_(1 - self.dropout.p) / self.dropout.p")],
        "dropout_unscaled": [("attn_weights = self.dropout(attn_weights)",
                              "attn_weights = attn_weights * torch.empty_like(attn_weights).bernoulli_(1 - self.dropout.p)")],
    },
    "MultiHeadAttention": {
        "mask_after_softmax": [("attn_scores.masked_fill_(mask_bool, -torch.inf)", "pass"),
                               ("attn_weights = self.dropout(attn_weights)",
                                "attn_weights = attn_weights.masked_fill(mask_bool, 0)\n        attn_weights = self.dropout(attn_weights)")],
        "mask_with_zero": MASK_ZERO,
        "divide_by_dk": SCALE,
        "inverted_mask": [("torch.triu(torch.ones(context_length, context_length),\n                       diagonal=1)",
                           "torch.tril(torch.ones(context_length, context_length))")],
        "view_without_transpose": [("keys.view(b, num_tokens, self.num_heads, self.head_dim)", "keys.view(b, self.num_heads, num_tokens, self.head_dim)"),
                                   ("values.view(b, num_tokens, self.num_heads, self.head_dim)", "values.view(b, self.num_heads, num_tokens, self.head_dim)"),
                                   ("b, num_tokens, self.num_heads, self.head_dim\n        )", "b, self.num_heads, num_tokens, self.head_dim\n        )"),
                                   ("keys = keys.transpose(1, 2)", "pass"), ("queries = queries.transpose(1, 2)", "pass"),
                                   ("values = values.transpose(1, 2)", "pass")],
        "scale_by_d_out": [("keys.shape[-1]**0.5", "self.d_out**0.5")],
        "merge_without_transpose": [("context_vec = (attn_weights @ values).transpose(1, 2)", "context_vec = (attn_weights @ values)")],
        "missing_contiguous": [("context_vec.contiguous().view(", "context_vec.view(")],
    },
}


def module_class(module, mistake):
    text = open(os.path.join(LISTINGS, LISTING_OF[module])).read()
    text = text.replace("import torch.nn as nn\n", "")
    for old, new in (MISTAKES[module][mistake] if mistake is not False else []):
        assert text.count(old) == 1, (module, mistake, old)
        text = text.replace(old, new)
    ns = {"torch": torch, "nn": nn}
    exec(compile(text, f"<{module} {mistake}>", "exec"), ns)
    return ns[module]


def jnum(x):
    x = float(x)
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf") if math.isinf(x) else x


def tokens(print_text):
    """The numbers of a print, as written."""
    inner = print_text[print_text.index("["):print_text.rindex("]") + 1]
    return re.findall(r"-?(?:\d+\.?\d*(?:e[+-]\d+)?|nan|inf)", inner)


def build(module, cls, d_in, d_out, T, heads, dropout, seed_init):
    torch.manual_seed(seed_init)
    if module in ("SelfAttention_v1", "SelfAttention_v2"):
        return cls(d_in, d_out)
    if module == "CausalAttention":
        return cls(d_in, d_out, T, dropout)
    return cls(d_in, d_out, T, dropout, num_heads=heads)


EXAMPLES = [  # (name, inputs, module, d_out, num_heads, dropout, the seed before the call or None)
    ("book", BOOK, "SelfAttention_v1", 2, None, 0.0, None),
    ("book", BOOK, "SelfAttention_v2", 2, None, 0.0, None),
    ("author", AUTHOR, "SelfAttention_v2", 2, None, 0.0, None),
    ("book", BOOK, "CausalAttention", 2, None, 0.0, None),
    ("author", AUTHOR, "CausalAttention", 2, None, 0.0, None),
    ("book, dropout", BOOK, "CausalAttention", 2, None, 0.1, 5),
    ("book", BOOK, "MultiHeadAttention", 2, 2, 0.0, None),
    ("book, d_out 4", BOOK, "MultiHeadAttention", 4, 2, 0.0, None),
    ("author", AUTHOR, "MultiHeadAttention", 2, 2, 0.0, None),
]
cases = []
for name, inputs, module, d_out, heads, dropout, call_seed in EXAMPLES:
    T, d_in = len(inputs), len(inputs[0])
    x = torch.tensor(inputs)
    batched = module in ("CausalAttention", "MultiHeadAttention")
    book_print = None
    for mistake in [False] + [m for m in MISTAKES[module] if (m is None or not m.startswith("dropout")) or dropout > 0]:
        cls = module_class(module, mistake)
        m = build(module, cls, d_in, d_out, T, heads, dropout, 123)
        weights = {k: v.tolist() for k, v in m.state_dict().items() if k != "mask"}
        if call_seed is not None: torch.manual_seed(call_seed)
        try:
            with torch.no_grad():
                out = m(x.unsqueeze(0) if batched else x)
            printed, full, raised = str(out), out.reshape(-1).tolist(), None
        except RuntimeError as e:
            printed, full, raised = None, None, f"RuntimeError: {e}"
        request = {"op": "check", "module": module, "x": inputs, "weights": weights, "output": printed or raised}
        if heads: request["num_heads"] = heads
        if dropout: request["dropout"], request["call_seed"] = dropout, call_seed
        bug = None if mistake in (False, None) else mistake.split("/")[0]
        case = {"example": name, "mistake": "book" if mistake is False else (mistake or "values from W_query"), "bug": bug,
                "request": request, "print": printed, "raised": raised,
                "full": [jnum(v) for v in full] if full else None, "shape": list(out.shape) if full else None}
        if mistake is False:
            book_print = printed
        else:
            case["same_as_book"] = printed == book_print
            if printed and printed != book_print:   # where PyTorch's two prints first differ
                got, want = tokens(printed), tokens(book_print)
                i = next(i for i in range(len(got)) if float(got[i]) != float(want[i]))
                case["first_difference"] = {"row": i // d_out, "column": i % d_out, "reader": got[i], "book": want[i]}
        cases.append(case)
with open(OUT, "w") as f:
    json.dump({"source": f"PyTorch {torch.__version__}, scripts/make_check_cases.py", "cases": cases}, f, indent=1)
print(f"{len(cases)} cases -> {OUT}")
