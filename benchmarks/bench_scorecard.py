"""Time of ``compsem scorecard`` (issue #20: MiniLM's full scorecard in at most 5 minutes on 2
CPU cores cold, 30 s warm); prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_scorecard.py [MODEL]     # default minilm; needs COMPSEM_DATA_DIR

- cold: ``compsem scorecard MODEL`` (every battery, full) as a fresh process with EMPTY
  embedding and probe-fit caches: COMPSEM_CACHE_DIR points at a temporary folder in which every
  other cache folder (``models``, ``data``, ``tables``, ...) links to the user's, so encoding and
  probe training are cold;
- warm: the same command again (embeddings and probe fits read from the cache);
- then, in this process with the cache warm, the seconds of each battery alone.

Wall-clock times of whole processes (imports and model loading included).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(model: str = "minilm") -> None:
    from compsem import determinism, paths

    user_cache = paths.cache_dir()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"scorecard of {model}: {cores} CPU cores", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        cache.mkdir()
        for folder in sorted(user_cache.iterdir()):
            if folder.is_dir() and not folder.name.startswith(("embeddings", "probes")):
                (cache / folder.name).symlink_to(folder, target_is_directory=True)
        env = {**os.environ, **determinism.KERNEL_ENV, "COMPSEM_CACHE_DIR": str(cache)}
        command = [sys.executable, "-m", "compsem.cli", "scorecard", model, "-q",
                   "--out", str(Path(tmp) / "out")]
        for label in ("cold (empty embedding cache)", "warm"):
            start = time.perf_counter()
            subprocess.run(command, env=env, check=True)
            print(f"scorecard {model}, {label:<32} {time.perf_counter() - start:8.1f} s", flush=True)

        os.environ.update(env)  # this process: the same (now warm) cache
        determinism.set_threads(determinism.KERNEL_THREADS)  # the kernels' count: their vectors
        from compsem import scorecard

        for battery in scorecard.BATTERIES:
            start = time.perf_counter()
            scorecard.run(model, [battery], progress=False)
            print(f"scorecard {model}, warm, {battery:<26} {time.perf_counter() - start:8.1f} s",
                  flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
