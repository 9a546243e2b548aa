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

__all__ = ["show", "html", "save_html", "weights_of"]
__version__ = "@VERSION@"

# The release's assets, zlib-compressed JSON {name: text} in base64: written in by
# scripts/python_release.py. (This source file holds none; its build in dist/ does.)
_ASSETS = "@ASSETS@"

SECTIONS = ("all", "step-by-step", "temperature", "why-sqrt-dk", "classes", "batched", "causal",
            "multi-head", "bug-hunt", "train")
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


def weights_of(module):
    """A module's weights as the widget takes them: {name: lists} from its state_dict() (or a dict of
    tensors, or a mapping of lists), the mask buffers left out. Names stay the state_dict's, which say
    the layout: W_query (SelfAttention_v1, d_in x d_out) or W_query.weight (nn.Linear, d_out x d_in)."""
    state = module.state_dict() if hasattr(module, "state_dict") else module
    return {name: _plain(value) for name, value in state.items() if name.rsplit(".", 1)[-1] not in _NOT_WEIGHTS}


def _attributes(section, inputs, words, module, weights, d_out, seed, engine, theme, exercises, temperature):
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
         engine=None, theme=None, exercises=None, temperature=None):
    """The widget as one self-contained HTML fragment (its scripts inline, then the element)."""
    attrs = _attributes(section, inputs, words, module, weights, d_out, seed, engine, theme, exercises, temperature)
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
