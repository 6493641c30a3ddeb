"""The same digits on every machine: CPU code paths held fixed for the kernels that run chapters.

Floating-point results of the BLAS libraries depend on the CPU's instruction set: MKL (torch's
BLAS), oneDNN and ATen's own vectorised kernels (torch) and OpenBLAS (numpy, scipy,
scikit-learn) pick AVX2 or AVX-512 kernels at run time, and the last bits differ. Those bits
matter: a probe trained for hundreds of epochs on embeddings that differ by 1e-7 can end in
another optimum, and a fresh clone on another machine once reproduced only 864 of 982 glued
values (the best MPNet layer for semantic roles moved from 12 to 8).

Measured on the development machine (AMD EPYC, AVX2; MPNet on 256 STS3k sentences): the bits
are identical with 1 and 2 threads, and change with ``MKL_CBWR``; the AVX2 branch costs no time,
the ``COMPATIBLE`` one (SSE2) about twice as much. So the kernel that executes a chapter gets
:data:`KERNEL_ENV`: every library held to its AVX2 kernels, MKL in strict conditional numerical
reproducibility mode (identical MKL results for any thread count on any AVX2 CPU). torch's own
kernels are not covered: their last bits change with the thread count (MiniLM similarities by
~1e-9 between 1 and 2 threads, measured 2026-11-24), so every kernel also runs on a fixed number
of threads (:data:`compsem.run.KERNEL_THREADS`). The variables act when a library loads, so they
are set for the kernel process, never changed inside it.

The embedding cache is keyed by :func:`numerics` as well, so vectors computed under other code
paths are never mixed with these. Glued values that measure time (:func:`is_timing`) are facts
about a machine and are exempt from the digit-for-digit comparison.
"""

from __future__ import annotations

import os
import platform
from contextlib import contextmanager

X86 = platform.machine().lower() in ("x86_64", "amd64")
KERNEL_ENV: dict[str, str] = (
    {
        "MKL_CBWR": "AVX2,STRICT",  # MKL: the AVX2 branch, bitwise reproducible across threads
        "ATEN_CPU_CAPABILITY": "avx2",  # torch's own vectorised kernels
        "ONEDNN_MAX_CPU_ISA": "AVX2",  # torch's oneDNN kernels
        "OPENBLAS_CORETYPE": "Haswell",  # numpy / scipy / scikit-learn: the AVX2 kernels
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


def is_timing(key: str) -> bool:
    """Whether a glued key measures time (exempt from reproduction to the digit)."""
    return key.endswith(TIMING_SUFFIXES)


def set_threads(threads: int | None) -> None:
    """torch and the BLAS libraries on ``threads`` CPU threads for the rest of the process
    (None or 0: unchanged). One thread is fastest when other processes share the cores, and
    the results do not depend on it (:data:`KERNEL_ENV`)."""
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
