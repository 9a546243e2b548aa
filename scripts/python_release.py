"""Builds the Python helper's release from build/web: dist/attention_lab.py (python/attention_lab.py with
the widget's scripts written in) and dist/attention_lab-<version>-py3-none-any.whl (that one module, with
the METADATA, WHEEL and RECORD a wheel is: PEP 427), by the standard library alone, no pip.

Usage (./scripts/build dist runs it): python3 scripts/python_release.py build/web dist <version>
"""
import base64, hashlib, json, os, sys, zipfile, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the notebook output carries: the element's classic script, both engines (each one file, its wasm
# inside: bindings/pack.js) and KaTeX for the formulas without a build-time template.
ASSETS = {"attention-lab": "attention-lab.js", "engine-simd": "engine/attention-lab-simd.js",
          "engine-scalar": "engine/attention-lab-scalar.js", "katex-lib": "katex-lib.js"}


def module_text(web, version):
    assets = {name: open(os.path.join(web, path), encoding="utf-8").read() for name, path in ASSETS.items()}
    packed = base64.b64encode(zlib.compress(json.dumps(assets).encode("utf-8"), 9)).decode("ascii")
    # the bundle's last line names its source map, which is not carried
    src = open(os.path.join(ROOT, "python", "attention_lab.py"), encoding="utf-8").read()
    assert '"@ASSETS@"' in src and '"@VERSION@"' in src
    lines = [packed[i:i + 100] for i in range(0, len(packed), 100)]
    literal = "(\n    \"" + "\"\n    \"".join(lines) + "\"\n)"
    return src.replace('"@ASSETS@"', literal, 1).replace('"@VERSION@"', json.dumps(version), 1)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def wheel(path, module, version):
    info = "attention_lab-%s.dist-info" % version
    files = {
        "attention_lab.py": module.encode("utf-8"),
        info + "/METADATA": ("Metadata-Version: 2.1\nName: attention-lab\nVersion: %s\n"
                             "Summary: The attention-lab widget in a notebook: chapter 3's self-attention, drawn with your own module's weights\n"
                             "License: MIT\nRequires-Python: >=3.7\n" % version).encode("utf-8"),
        info + "/WHEEL": b"Wheel-Version: 1.0\nGenerator: attention-lab scripts/python_release.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        info + "/LICENSE": open(os.path.join(ROOT, "LICENSE"), "rb").read(),
    }
    record = [record_line(name, data) for name, data in files.items()] + [info + "/RECORD,,"]
    files[info + "/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)


def main():
    web, out, version = sys.argv[1:4]
    module = module_text(web, version)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "attention_lab.py"), "w", encoding="utf-8") as f:
        f.write(module)
    whl = os.path.join(out, "attention_lab-%s-py3-none-any.whl" % version)
    wheel(whl, module, version)
    print("%s, %s" % (os.path.join(out, "attention_lab.py"), whl))


if __name__ == "__main__":
    main()
