"""Independent tasks on a Dask cluster: one mechanism for every sweep of the library
(``compsem sweep``'s chapter points, ``compsem scorecard``'s models).

:func:`submit_all` starts a :class:`distributed.LocalCluster` (worker processes of one thread
each) or connects to a running scheduler, submits one task per argument tuple, shows Dask's
progress bar, and returns the futures' outcomes in the order given.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence

PROGRESS_INTERVAL_S = 0.5


def submit_all(function: Callable, calls: Sequence[tuple], names: Sequence[str],
               scheduler: str | None = None, n_workers: int = 2, processes: bool = True,
               progress: bool = True, outcome: Callable | None = None,
               announce: Callable | None = None, in_order: bool = False,
               after: Sequence[Sequence[int]] | None = None) -> list:
    """``[function(*call) for call in calls]``, computed as Dask tasks named ``names``.

    ``scheduler``: a running scheduler's address (``tcp://host:8786``); None starts a
    LocalCluster of ``min(n_workers, len(calls))`` workers (``processes=False``: one worker
    thread in this process). ``outcome(future)``: how a finished future becomes a result
    (default ``future.result()``, which raises a task's exception). ``announce(client)``: called
    once the client is connected (e.g. to print where the work runs). ``in_order``: the tasks
    start in the order given (each gets a lower Dask priority than the one before; without it
    the scheduler may start them in any order). ``after[i]``: positions of the calls that must
    have finished before call ``i`` starts (each must come before ``i``); a call waiting for
    others holds no worker.
    """
    from distributed import Client, LocalCluster
    from distributed import progress as dask_progress

    cluster = None
    if scheduler is None:
        workers = max(1, min(n_workers, len(calls))) if processes else 1
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=":0")  # any free port: never a clash on 8787
    try:
        with Client(cluster or scheduler) as client:
            if announce is not None:
                announce(client)
            run_id = uuid.uuid4().hex[:8]  # two sweeps on one scheduler never share a task key
            futures = []
            for i, (call, name) in enumerate(zip(calls, names, strict=True)):
                waits = list(after[i]) if after is not None else []
                if any(not 0 <= j < i for j in waits):
                    raise ValueError(f"after[{i}] = {waits}: a call can wait only for calls before it")
                futures.append(client.submit(
                    _call_after, function, call, [futures[j] for j in waits], pure=False,
                    key=f"{name}-{run_id}", priority=len(calls) - i if in_order else 0))
            if progress:
                dask_progress(futures, interval=f"{PROGRESS_INTERVAL_S}s")
            results = [(outcome or (lambda f: f.result()))(future) for future in futures]
            if progress:  # the scheduler's side of the bar notices that the bar has closed at its
                time.sleep(2 * PROGRESS_INTERVAL_S)  # next update; closing before: a traceback
    finally:
        if cluster is not None:
            cluster.close()
    return results


def _call_after(function: Callable, call: tuple, finished: list):
    """``function(*call)``; ``finished`` holds the results of the tasks it waited for (Dask
    resolves the futures passed in it before this runs), unused."""
    return function(*call)
