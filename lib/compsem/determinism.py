"""The same digits on every machine: CPU code paths held fixed for the kernels that run chapters.

Floating-point results of the BLAS libraries depend on the CPU's instruction set: MKL (torch's
BLAS), oneDNN and ATen's own vectorised kernels (torch) and OpenBLAS (numpy, scipy,
scikit-learn) pick AVX2 or AVX-512 kernels at run time, and the last bits differ. Those bits
matter: a probe trained for hundreds of epochs on embeddings that differ by 1e-7 can end in
another optimum, and a fresh clone on another machine once reproduced only 864 of 982 glued
values (the best MPNet layer for semantic roles moved from 12 to 8).

So the kernel that executes a chapter gets :data:`KERNEL_ENV`: every library held to its AVX2
kernels, numpy's own vectorised loops too (its AVX-512 exp, log and sort give other last bits
and another order of ties than its AVX2 ones), MKL in strict conditional numerical
reproducibility mode. Measured: the bits are
identical with 1 and 2 threads, the AVX2 branch costs no time on an AVX2 CPU, the
``COMPATIBLE`` one (SSE2) two to three times as much (``benchmarks/bench_kernel_isa.py``). torch's own
kernels are not covered: their last bits change with the thread count (MiniLM similarities by
~1e-9 between 1 and 2 threads, measured 2026-11-24), so every kernel also runs on a fixed number
of threads (:data:`KERNEL_THREADS`). The variables act when a library loads, so they
are set for the kernel process, never changed inside it.

What MKL's strict AVX2 branch promises is the same results on every *Intel* CPU with AVX2; on
another vendor's CPU MKL runs its AUTO branch instead (oneMKL Developer Guide, *Getting Started
with Conditional Numerical Reproducibility*). Measured: two Intel Xeon generations gave the
same book digit for digit; an AMD EPYC gave the same vectors for sentences of 12 tokens or more
and other last bits for shorter ones (whose attention multiplies matrices of fewer than 12 rows),
and an SDAE that starts from the same loss and parts within its first epoch; training amplifies
such bits (``scripts/cross_cpu_fingerprint.py`` names the products that part on a given CPU,
``tests/test_cross_cpu.py``; *Determinism* in book/using.md lists the values that depend on the
CPU's vendor).

The embedding cache is keyed by :func:`numerics` as well, so vectors computed under other code
paths are never mixed with these. Glued values that measure time (:func:`is_timing`) are facts
about a machine and are exempt from the digit-for-digit comparison.
"""

from __future__ import annotations

import os
import platform
from contextlib import contextmanager
from pathlib import Path

X86 = platform.machine().lower() in ("x86_64", "amd64")
KERNEL_THREADS = 1
"""OpenMP/MKL/OpenBLAS/torch threads of every chapter kernel (:func:`compsem.run.execute`), on
any machine. The thread count changes the last bits of torch's own kernels (MKL's strict mode
does not cover them): MiniLM and MPNet similarities on STS3k differ by ~1e-9 between 1 and 2
threads, and the MLP regressors of sts3k-finetune turn that into .10 against .01 for one cell
(measured 2026-11-24). One thread is also what ``compsem run-all --jobs 2`` gives each of two
chapters on two cores."""

KERNEL_ENV: dict[str, str] = (
    {
        "MKL_CBWR": "AVX2,STRICT",  # MKL: the AVX2 branch, bitwise reproducible across threads
        "ATEN_CPU_CAPABILITY": "avx2",  # torch's own vectorised kernels
        "ONEDNN_MAX_CPU_ISA": "AVX2",  # torch's oneDNN kernels
        "OPENBLAS_CORETYPE": "Haswell",  # numpy / scipy / scikit-learn: the AVX2 kernels
        # numpy's own loops (exp, log, sorting): not its AVX-512 code, so a CPU without AVX-512
        # runs the same (disabling a feature the CPU lacks is no error; a name numpy does not
        # dispatch only warns)
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
    }
    if X86
    else {}
)
"""Environment of every kernel that executes a chapter (x86-64; other CPUs run natively)."""

TIMING_SUFFIXES = ("_seconds", "_minutes", "_time", "_wall_s")


def numerics() -> str:
    """A tag for the code paths this process computes with: ``"avx2-cnr"`` under
    :data:`KERNEL_ENV`, else ``"native-<machine>"`` (keys the embedding cache)."""
    if KERNEL_ENV and all(os.environ.get(k) == v for k, v in KERNEL_ENV.items()):
        return "avx2-cnr"
    return f"native-{platform.machine().lower()}"


def cpu_kind() -> dict[str, str]:
    """``vendor_id``, ``cpu family``, ``model`` and ``model name`` of this machine's first CPU,
    from /proc/cpuinfo (empty where there is none): what decides MKL's code paths, and so the
    last bits of a chapter's values."""
    info = {}
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return info
    for line in lines:
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("vendor_id", "cpu family", "model", "model name") and key not in info:
            info[key] = value.strip()
        if not line.strip() and info:
            break
    return info


def describe_cpu() -> str:
    """This machine's CPU in words, e.g. ``"GenuineIntel family 6 model 207 (Intel(R) Xeon(R)
    Processor)"`` (its architecture where /proc/cpuinfo is not there)."""
    kind = cpu_kind()
    if "vendor_id" not in kind:
        return platform.processor() or platform.machine()
    return (f"{kind['vendor_id']} family {kind.get('cpu family', '?')} model "
            f"{kind.get('model', '?')} ({kind.get('model name', '?')})")


def is_timing(key: str) -> bool:
    """Whether a glued key measures time (exempt from reproduction to the digit)."""
    return key.endswith(TIMING_SUFFIXES)


def set_threads(threads: int | None) -> None:
    """torch and the BLAS libraries on ``threads`` CPU threads for the rest of the process
    (None or 0: unchanged). One thread is fastest when other processes share the cores. Under
    :data:`KERNEL_ENV` the BLAS libraries give the same bits on any thread count, torch's own
    kernels do not: only :data:`KERNEL_THREADS` reproduces the chapters' digits (and shares
    their embedding cache, :func:`compsem.models.cache.numerics_of`)."""
    if threads:
        import torch
        from threadpoolctl import threadpool_limits

        torch.set_num_threads(int(threads))
        threadpool_limits(int(threads))


@contextmanager
def thread_limit(threads: int | None):
    """torch and the BLAS libraries on ``threads`` CPU threads inside the ``with`` block, the
    previous settings restored after it (None or 0: unchanged)."""
    if not threads:
        yield
        return
    import torch
    from threadpoolctl import threadpool_limits

    previous = torch.get_num_threads()
    torch.set_num_threads(int(threads))
    try:
        with threadpool_limits(limits=int(threads)):
            yield
    finally:
        torch.set_num_threads(previous)
