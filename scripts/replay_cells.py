"""Runs the page's code cells in PyTorch, as a learner copying them into a notebook would, and reports
every cell whose output differs from what the page prints under it (tests/browser/replay.test.js).

Run with Debian's python3-torch (1.13) and OpenBLAS:  /usr/bin/python3 scripts/replay_cells.py < cells.json
In: {"groups": [{"name", "cells": [{"section", "code", "output"}]}]}: each group runs in one fresh
namespace, its cells in order; output is what the page shows under the cell ("" when it shows none).
Out (stdout, JSON): {"ran": N, "mismatches": [{"group", "index", "section", "code", "page", "pytorch"}]}.
An exception is written as the page writes it: "Traceback (most recent call last):\n  ...\n" and the
exception's last line (its type and message); the cells after it still run, as in a notebook.
"""
import contextlib, io, json, sys, traceback
import oracle_torch  # noqa: F401  (before torch: the same kernels on every machine)
import torch  # noqa: F401  (imported once here: the cells import it again, as the page shows)


def run_cell(code, namespace):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(code, "<cell>", "exec"), namespace)
        except Exception as e:  # noqa: BLE001: shown as Python shows it, then compared
            last = traceback.format_exception_only(type(e), e)[-1].rstrip("\n")
            print("Traceback (most recent call last):\n  ...\n" + last)
    text = out.getvalue()
    return text[:-1] if text.endswith("\n") else text


def main():
    request = json.load(sys.stdin)
    mismatches, ran = [], 0
    for group in request["groups"]:
        namespace = {"__name__": "__main__"}
        for i, cell in enumerate(group["cells"]):
            got = run_cell(cell["code"], namespace)
            ran += 1
            if got != cell["output"]:
                mismatches.append({"group": group["name"], "index": i, "section": cell["section"],
                                   "code": cell["code"], "page": cell["output"], "pytorch": got})
    json.dump({"ran": ran, "mismatches": mismatches}, sys.stdout)


if __name__ == "__main__":
    main()
