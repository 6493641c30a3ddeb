"""Run a list of training configurations, one after the other or in worker processes: the one
loop behind both training commands (:mod:`compsem.cogs.seq2seq.train` for Chapter 4's grid,
:mod:`compsem.cogs.seq2seq.auxiliary_train` for Chapter 5's).

Worker processes are *spawned* (CUDA cannot be used in a forked child). A run that raises is
reported and the others go on; the caller gets the number of failures (its exit code is 1 when
any failed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed


def run_configurations(run_one: Callable[[dict, dict], dict | None], configs: Sequence[dict],
                       options: dict, jobs: int, summary: Callable[[dict, dict | None], str],
                       describe: Callable[[dict], str]) -> int:
    """``run_one(cfg, options)`` for every config, ``jobs`` at a time (1: in this process);
    prints ``summary(cfg, metrics)`` as each ends, or ``FAILED <describe(cfg)>: <error>``.
    Returns the number of runs that raised (in this process, an exception propagates)."""
    if jobs <= 1:
        for cfg in configs:
            print(summary(cfg, run_one(cfg, options)), flush=True)
        return 0
    import multiprocessing

    failures = 0
    context = multiprocessing.get_context("spawn")  # CUDA cannot fork
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(run_one, cfg, options): cfg for cfg in configs}
        for future in as_completed(futures):
            cfg = futures[future]
            try:
                print(summary(cfg, future.result()), flush=True)
            except Exception as error:  # report and go on with the other runs
                failures += 1
                print(f"FAILED {describe(cfg)}: {type(error).__name__}: {error}", flush=True)
    return failures
