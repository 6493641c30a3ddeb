"""Reproducible to the digit: the same parameters give the same glued values in another process
with another thread count and another hash seed.

Each chapter's smoke profile runs twice in fresh processes: ``OMP_NUM_THREADS`` (and the BLAS
thread variables) 1 vs 2, ``PYTHONHASHSEED`` 1 vs 2 (set iteration order), and each run with an
empty embedding cache of its own (the packaged model folders are shared through links), so that
encoding, probe training, bootstraps and shuffles are all recomputed. Every glued value must be
identical, except those that measure time (``determinism.is_timing``). probing-composition sets
its own threads from its ``threads`` parameter (one), so for it only the process, the hash seed
and the empty cache vary; the thread half is modifiers-consistency's (MiniLM on one or two
threads).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from compsem import determinism, paths, report

pytestmark = pytest.mark.slow
CHAPTERS = ("probing-composition", "modifiers-consistency")
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


def _run_in_fresh_process(chapter: str, threads: int, root) -> dict[str, float]:
    cache = root / f"cache-{threads}"
    cache.mkdir()
    for shared in ("models", "nltk_data", "tables"):  # prepared once by `compsem setup`
        source = paths.cache_dir(shared)
        (cache / shared).symlink_to(source, target_is_directory=True)
    env = {**os.environ, "COMPSEM_CACHE_DIR": str(cache), "PYTHONHASHSEED": str(threads)}
    env.update({name: str(threads) for name in THREAD_VARIABLES})
    out = root / f"out-{threads}"
    # threads= reaches the kernel: without it run.execute pins every kernel to KERNEL_THREADS,
    # and the two runs would not differ in their thread count at all
    code = ("from compsem import run; "
            f"run.execute({chapter!r}, 'smoke', output_dir={str(out)!r}, progress=False, "
            f"threads={threads})")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                            timeout=1200)
    assert result.returncode == 0, result.stderr[-3000:]
    return report.read_glued(out / f"{chapter}.ipynb")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_glued_values_do_not_depend_on_threads_or_process(chapter, tmp_path):
    first = _run_in_fresh_process(chapter, 1, tmp_path)
    second = _run_in_fresh_process(chapter, 2, tmp_path)
    assert first and set(first) == set(second)
    differ = {k: (first[k], second[k]) for k in sorted(first)
              if first[k] != second[k] and not determinism.is_timing(k)}
    assert not differ, f"{len(differ)} of {len(first)} glued values differ: {list(differ.items())[:10]}"
