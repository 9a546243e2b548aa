"""attention-lab in a notebook: the <attention-lab> widget drawing your own module's weights.

    import attention_lab
    attention_lab.show(module=sa_v2, inputs=inputs, words="Your journey starts with one step")

Standard library only; it never imports torch. Everything the widget needs (the element's script, both
WebAssembly engines, KaTeX) is inline in the output: no CDN, no server, no file beside the notebook, so
it runs in Jupyter Notebook, JupyterLab, VS Code and Colab's sandboxed output frames. The manual:
docs/python.md in attention-lab's repository.
"""
import base64
import html as _html
import json
import re
import zlib

__all__ = ["show", "html", "save_html", "weights_of", "check", "check_request"]
__version__ = "@VERSION@"

# The release's assets, zlib-compressed JSON {name: text} in base64: written in by
# scripts/python_release.py. (This source file holds none; its build in dist/ does.)
_ASSETS = "@ASSETS@"

SECTIONS = ("all", "step-by-step", "temperature", "why-sqrt-dk", "classes", "batched", "causal",
            "multi-head", "bug-hunt", "check", "train")
# The modules "Check my code" knows (the engine's replay/check.h kCheckModules), by their names in the chapter.
MODULES = ("SelfAttention_v1", "SelfAttention_v2", "CausalAttention", "MultiHeadAttention")
# Buffers of the chapter's modules that are not weights (CausalAttention's and MultiHeadAttention's mask).
_NOT_WEIGHTS = ("mask",)


def _assets():
    if _ASSETS.startswith("@"):
        raise RuntimeError("this is attention_lab.py's source: use the built one (dist/attention_lab.py or "
                           "the wheel, from ./scripts/build dist), which carries the widget's scripts")
    return json.loads(zlib.decompress(base64.b64decode(_ASSETS)).decode("utf-8"))


def _plain(x):
    """Nested lists of numbers from a tensor, an array, or anything with .tolist()."""
    if hasattr(x, "tolist"):
        x = x.tolist()
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError("expected numbers, a tensor or nested lists, got %r" % (type(x).__name__,))
    return x


def _plain_json(x):
    """As _plain, with nan and inf as the engine reads them ("nan", "inf", "-inf"; JSON has no such numbers)."""
    x = _plain(x)
    if isinstance(x, list):
        return [_plain_json(v) for v in x]
    if isinstance(x, float) and (x != x or x in (float("inf"), float("-inf"))):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    return x


def weights_of(module):
    """A module's weights as the widget takes them: {name: lists} from its state_dict() (or a dict of
    tensors, or a mapping of lists), the mask buffers left out. Names stay the state_dict's, which say
    the layout: W_query (SelfAttention_v1, d_in x d_out) or W_query.weight (nn.Linear, d_out x d_in)."""
    state = module.state_dict() if hasattr(module, "state_dict") else module
    return {name: _plain(value) for name, value in state.items() if name.rsplit(".", 1)[-1] not in _NOT_WEIGHTS}


def _kind_of(module, kind):
    """The chapter's name of the module's kind: kind= as given, else the class's name when it is one of
    the chapter's, else read from its state_dict's names (W_query: SelfAttention_v1's nn.Parameter;
    out_proj: MultiHeadAttention; a mask buffer: CausalAttention; else SelfAttention_v2)."""
    if kind is not None:
        return kind
    name = type(module).__name__
    if name in MODULES:
        return name
    names = set(module.state_dict()) if hasattr(module, "state_dict") else set(module)
    if "W_query" in names:
        return "SelfAttention_v1"
    if "out_proj.weight" in names:
        return "MultiHeadAttention"
    return "CausalAttention" if "mask" in names else "SelfAttention_v2"


def _error_line(e):
    """PyTorch's error as its traceback's last line writes it: "RuntimeError: ..." (its first line)."""
    text = str(e).strip().splitlines()
    return "%s: %s" % (type(e).__name__, text[0] if text else "")


def check_request(module=None, inputs=None, output=None, kind=None, weights=None, num_heads=None, call_seed=None):
    """What check() sends to the page: {"module": kind, "output": the output's numbers (or PyTorch's print,
    or its error line, as text), "num_heads", "dropout", "call_seed"}, and the weights. With a module and no
    output, the module is called on the inputs here (in eval mode, dropout off, unless call_seed is given:
    then torch.manual_seed(call_seed) just before the call, in the mode it is in); an error it raises
    becomes its error line."""
    if module is None and output is None:
        raise ValueError("give module= (your module), or output= (its output, or what PyTorch printed) with kind=")
    if module is not None and weights is not None:
        raise ValueError("give module= or weights=, not both")
    kind = _kind_of(module if module is not None else (weights or {}), kind)
    request = {"module": kind}
    if module is not None:
        weights = module
        if num_heads is None:
            num_heads = getattr(module, "num_heads", None)
        drop = getattr(getattr(module, "dropout", None), "p", 0.0)
        if call_seed is not None and getattr(module, "training", False) and drop:
            request["dropout"], request["call_seed"] = drop, call_seed
    if output is None:
        output = _call(module, inputs, kind, call_seed)
    if isinstance(output, BaseException):
        output = _error_line(output)
    request["output"] = output if isinstance(output, str) else _plain_json(output)
    if num_heads is not None and kind == "MultiHeadAttention":
        request["num_heads"] = int(num_heads)
    return request, weights


def _call(module, inputs, kind, call_seed):
    """module(inputs) without gradients, with the reader's own torch (already imported with their module):
    a batch of one for CausalAttention and MultiHeadAttention; its error, if it raises one."""
    import sys
    torch = sys.modules.get("torch")
    if torch is None or inputs is None:
        raise ValueError("give inputs= (the tensor your module takes), or output= (what it returned)")
    x = inputs if hasattr(inputs, "dim") else torch.tensor(_plain(inputs))
    if kind in ("CausalAttention", "MultiHeadAttention") and x.dim() == 2:
        x = x.unsqueeze(0)
    was_training = getattr(module, "training", False)
    if call_seed is None and hasattr(module, "eval"):
        module.eval()   # dropout off: the output is the weights' alone
    try:
        if call_seed is not None:
            torch.manual_seed(call_seed)
        with torch.no_grad():
            return module(x)
    except Exception as e:  # the reader's code raised: its error line is what the check compares
        return e
    finally:
        if hasattr(module, "train"):
            module.train(was_training)


def check(module=None, inputs=None, output=None, kind=None, weights=None, words=None, num_heads=None, call_seed=None, **options):
    """Check my code: your module (or its output and its weights) against the book's computation for the
    same inputs and weights, and against each planted mistake of the bug hunt; the widget's "Check my
    code" section says which one your output is, or where its first number differs from the book's.

    module: your module (its state_dict's weights; called on inputs when output is not given); inputs: the
    tensor it takes; output: its output (a tensor, compared as PyTorch prints it), or what PyTorch printed
    (text), or the error it raised; kind: "SelfAttention_v1", "SelfAttention_v2", "CausalAttention" or
    "MultiHeadAttention" (default: the class's name, or read from the weights' names); weights: instead of
    module; num_heads: MultiHeadAttention's; call_seed: the torch.manual_seed(...) just before a call with
    dropout on. Displays the widget in IPython; elsewhere returns its HTML.
    """
    request, weights = check_request(module, inputs, output, kind, weights, num_heads, call_seed)
    fragment = html("check", inputs, words, None, weights, None, None, check=request, **options)
    try:
        from IPython.display import HTML, display
    except ImportError:
        return fragment
    display(HTML(fragment))
    return None


def _attributes(section, inputs, words, module, weights, d_out, seed, engine, theme, exercises, temperature, check=None):
    if section not in SECTIONS:
        raise ValueError("section=%r is not a section; use one of: %s" % (section, ", ".join(SECTIONS)))
    if module is not None and weights is not None:
        raise ValueError("give module= or weights=, not both")
    attrs = {"section": section}
    if inputs is not None:
        rows = _plain(inputs)
        if len(rows) == 1 and rows and isinstance(rows[0], list) and rows[0] and isinstance(rows[0][0], list):
            rows = rows[0]  # a batch of one sequence, (1, T, d_in)
        attrs["inputs"] = json.dumps(rows)
    if words is not None:
        attrs["words"] = words if isinstance(words, str) else json.dumps(list(words))
    if module is not None:
        weights = weights_of(module)
    if weights is not None:
        attrs["weights"] = json.dumps(weights_of(weights))
    for name, value in (("d-out", d_out), ("seed", seed), ("temperature", temperature)):
        if value is not None:
            attrs[name] = str(value)
    for name, value in (("engine", engine), ("theme", theme), ("exercises", exercises)):
        if value is not None:
            attrs[name] = value
    if check is not None:
        attrs["check"] = json.dumps(check)
    return attrs


def _script(text):
    """An inline <script>: "</script" and "<!--" inside it (only ever in a string: the engines' bytes are
    one) escaped, so the HTML parser ends the script where it ends."""
    return "<script>" + re.sub(r"<(/script|!--)", r"<\\\1", text, flags=re.IGNORECASE) + "</script>"


def _scripts():
    """The widget's scripts, each run once per page however many outputs carry it (in Colab each output
    is a page of its own). The engines first: the element's script reads them when it runs."""
    a = _assets()
    out = []
    for kind in ("simd", "scalar"):
        out.append(_script(
            "(function () { var g = self.AttentionLabInline = self.AttentionLabInline || {engines: {}};"
            " if (g.engines.%s) return; var define, module, exports;\n%s\n"
            "g.engines.%s = function () { return createAttentionLab; }; })();" % (kind, a["engine-" + kind].lstrip("\ufeff"), kind)))
    out.append(_script("if (!self.AttentionLabKatex) {\n%s\n}" % a["katex-lib"]))
    out.append(_script("if (!self.customElements.get('attention-lab')) {\n%s\n}" % a["attention-lab"]))
    return "\n".join(out)


def html(section="all", inputs=None, words=None, module=None, weights=None, d_out=None, seed=None,
         engine=None, theme=None, exercises=None, temperature=None, check=None):
    """The widget as one self-contained HTML fragment (its scripts inline, then the element). check: the
    "Check my code" section's request (check_request), shown filled in."""
    attrs = _attributes(section, inputs, words, module, weights, d_out, seed, engine, theme, exercises, temperature, check)
    element = "<attention-lab %s></attention-lab>" % " ".join(
        '%s="%s"' % (name, _html.escape(value, quote=True)) for name, value in attrs.items())
    return '<div class="attention-lab-output">\n%s\n%s\n</div>' % (element, _scripts())


def show(section="all", inputs=None, words=None, module=None, weights=None, d_out=None, seed=None, **options):
    """Draws the widget in the notebook's output (IPython's display); without IPython, returns the HTML.

    inputs: the token vectors (a tensor, an array or lists, tokens x d_in); words: one per row (a list,
    or a string split at spaces); module: your module (its state_dict's weights are drawn), or weights:
    {name: tensor or lists}; d_out and seed as on the page (d_out follows from the weights). options:
    engine ("auto", "simd", "scalar"), theme ("light", "dark", "auto"), exercises ("on", "off"), temperature.
    """
    fragment = html(section, inputs, words, module, weights, d_out, seed, **options)
    try:
        from IPython.display import HTML, display
    except ImportError:
        return fragment
    display(HTML(fragment))
    return None


def save_html(path, section="all", inputs=None, words=None, module=None, weights=None, d_out=None, seed=None, **options):
    """Writes the same widget as a standalone page (opens from disk, no server)."""
    fragment = html(section, inputs, words, module, weights, d_out, seed, **options)
    page = ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>attention-lab</title>\n'
            '</head>\n<body>\n%s\n</body>\n</html>\n' % fragment)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return path
