# PyTorch as the project's oracle gives the same bits on every x86 machine CI may run on. On an AVX-512
# CPU (Zen 4, Zen 5) ATen and OpenBLAS would pick AVX-512 kernels, whose sums and exponentials round
# differently in the last bit; the committed fixtures (tests/fixtures) were made with the AVX2 ones.
# Imported by every script that runs PyTorch, before torch: OpenBLAS reads its core type when it loads.
# A script that imported torch already (the speed peer, scripts/bench_pytorch_peer.py, which wants the
# machine's fastest kernels) is left as it is.
import os
import sys

if "torch" not in sys.modules:
    os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
    os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")
