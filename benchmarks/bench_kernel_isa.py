"""What the fixed AVX2 code paths of the chapter kernels cost on this CPU; prints the figures.

    .venv/bin/python benchmarks/bench_kernel_isa.py [--reps 3] [--sentences 256]

Every chapter kernel runs under :data:`compsem.determinism.KERNEL_ENV` (MKL, oneDNN, ATen and
OpenBLAS held to their AVX2 kernels) on one thread, so that a chapter gives the same digits on
any x86-64 machine. On a CPU with AVX-512 the libraries would otherwise pick wider kernels. This
script measures, in fresh processes, one thread each, under the kernel environment and without
it (native), and with MKL's COMPATIBLE branch instead of its AVX2 one (the branch Intel
documents as giving the same results on Intel and compatible CPUs; SSE2 kernels):

- float32 matrix products ``(1024 x 768) @ (768 x 768)`` (torch, MKL): GFLOP/s;
- MPNet (the packaged all-mpnet-base-v2) encoding ``--sentences`` STS3k sentences: sentences/s
  (the largest single cost of a cold ``make book``);
- the 2018 probing MLP (``compsem.probing.classifiers.mlp_probe``) trained for 20 epochs on
  4,000 items of 768 features: seconds (the probing chapter trains hundreds of them).

The median of ``--reps`` runs is printed. The ratio native / AVX2 is what identical digits
across machines of one vendor cost in time here; on an AVX2-only CPU it is 1. The ratio
AVX2 / COMPATIBLE is what the cross-vendor branch would cost.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

PROBE = r"""
import json, sys, time
import torch
torch.set_num_threads(1)
a, b = torch.randn(768, 768), torch.randn(1024, 768)
for _ in range(3):
    b @ a
start, n = time.perf_counter(), 40
for _ in range(n):
    b @ a
gflops = 2 * 1024 * 768 * 768 * n / (time.perf_counter() - start) / 1e9
from compsem.data import sts3k
from compsem.models import get_encoder
pairs = sts3k.load_pairs()
texts = list(dict.fromkeys(pairs["sentence_a"].tolist() + pairs["sentence_b"].tolist()))
texts = texts[: int(sys.argv[1])]
encoder = get_encoder("mpnet", device="cpu")
encoder.encode(texts[:8])
start = time.perf_counter()
encoder.encode(texts)
rate = len(texts) / (time.perf_counter() - start)
import numpy as np
from compsem.probing.classifiers import mlp_probe
rng = np.random.default_rng(0)
S = rng.standard_normal((4000, 768)).astype(np.float32)
y = (S[:, 0] > 0).astype(np.float32)
rows, none = np.arange(4000), np.zeros((4000, 0), np.float32)
start = time.perf_counter()
mlp_probe(S, rows, none, y, S[:10], rows[:10], none[:10], y[:10], max_epochs=20, tol=-1.0)
probe_s = time.perf_counter() - start
print(json.dumps({"gflops": gflops, "sentences_per_s": rate, "probe_s": probe_s}))
"""


def measure(env: dict, sentences: int) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE, str(sentences)], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--sentences", type=int, default=256)
    args = parser.parse_args()
    from compsem.determinism import KERNEL_ENV, KERNEL_THREADS
    from compsem.run import thread_env

    threads = thread_env(KERNEL_THREADS)
    base = {k: v for k, v in os.environ.items() if k not in KERNEL_ENV}
    settings = {"AVX2 (chapter kernels)": {**base, **threads, **KERNEL_ENV},
                "native": {**base, **threads},
                "MKL COMPATIBLE": {**base, **threads, **KERNEL_ENV, "MKL_CBWR": "COMPATIBLE,STRICT"}}
    cpuinfo = Path("/proc/cpuinfo")
    flags = cpuinfo.read_text() if cpuinfo.exists() else ""
    print(f"# {platform.machine()}, {os.cpu_count()} cores, avx512f: {'avx512f' in flags}; "
          f"one thread; median of {args.reps}")
    results = {}
    for label, env in settings.items():
        runs = [measure(env, args.sentences) for _ in range(args.reps)]
        results[label] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{label:<24} matmul {results[label]['gflops']:7.1f} GFLOP/s   "
              f"MPNet {results[label]['sentences_per_s']:6.1f} sentences/s   "
              f"probe {results[label]['probe_s']:6.2f} s", flush=True)
    avx2, native = results["AVX2 (chapter kernels)"], results["native"]
    compatible = results["MKL COMPATIBLE"]
    print(f"{'native / AVX2':<24} matmul {native['gflops'] / avx2['gflops']:7.2f}x          "
          f"MPNet {native['sentences_per_s'] / avx2['sentences_per_s']:6.2f}x          "
          f"probe {avx2['probe_s'] / native['probe_s']:6.2f}x")
    print(f"{'AVX2 / COMPATIBLE':<24} matmul {avx2['gflops'] / compatible['gflops']:7.2f}x          "
          f"MPNet {avx2['sentences_per_s'] / compatible['sentences_per_s']:6.2f}x          "
          f"probe {compatible['probe_s'] / avx2['probe_s']:6.2f}x")


if __name__ == "__main__":
    main()
