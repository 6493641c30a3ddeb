"""Independent tasks on a Dask cluster: one mechanism for every sweep of the library
(``compsem sweep``'s chapter points, ``compsem scorecard``'s models).

:func:`submit_all` starts a :class:`distributed.LocalCluster` (worker processes of one thread
each) or connects to a running scheduler, submits one task per argument tuple, shows Dask's
progress bar, and returns the futures' outcomes in the order given. Tasks that need a device
declare it as a Dask resource (``resources={"GPU": 1}``): a LocalCluster's workers then hold one
unit each, and on a cluster only workers started with it (``dask worker ADDRESS --resources
GPU=1``) receive them.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence

from compsem.errors import CompsemError

PROGRESS_INTERVAL_S = 0.5
CONNECT_TIMEOUT_S = 10
"""How long :func:`submit_all` tries to reach a scheduler given by address before it gives up."""


def submit_all(function: Callable, calls: Sequence[tuple], names: Sequence[str],
               scheduler: str | None = None, n_workers: int = 2, processes: bool = True,
               progress: bool = True, outcome: Callable | None = None,
               announce: Callable | None = None, in_order: bool = False,
               after: Sequence[Sequence[int]] | None = None,
               resources: Mapping[str, float] | None = None) -> list:
    """``[function(*call) for call in calls]``, computed as Dask tasks named ``names``.

    ``scheduler``: a running scheduler's address (``tcp://host:8786``); None starts a
    LocalCluster of ``min(n_workers, len(calls))`` workers (``processes=False``: one worker
    thread in this process). ``outcome(future)``: how a finished future becomes a result
    (default ``future.result()``, which raises a task's exception); with ``in_order`` it is called
    as each task finishes (e.g. to print a line per task). ``announce(client)``: called
    once the client is connected (e.g. to print where the work runs).

    ``in_order``: the tasks start in the order given: they are submitted one at a time as
    worker threads free up (:func:`_dispatch_in_order`), the first call whose prerequisites have
    finished first. Dask priorities alone do not hold the order: a worker is sent its next task
    while the current one runs, and starts it before a task that became ready later.
    ``after[i]``: positions of the calls that must have finished before call ``i`` starts (each
    must come before ``i``; needs ``in_order``).
    ``resources``: what each task needs of a worker (e.g. ``{"GPU": 1}``); a LocalCluster's
    workers are given one task's worth each, so ``n_workers`` tasks share the device at a time.
    A scheduler none of whose workers has them is an error (the tasks would wait forever).
    """
    from distributed import LocalCluster
    from distributed import progress as dask_progress

    if after is not None:
        if not in_order:
            raise ValueError("after needs in_order=True")
        for i, waits in enumerate(after):
            if any(not 0 <= j < i for j in waits):
                raise ValueError(f"after[{i}] = {list(waits)}: a call can wait only for calls before it")
    cluster = None
    if scheduler is None:
        workers = max(1, min(n_workers, len(calls))) if processes else 1
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                               dashboard_address=":0",  # any free port: never a clash on 8787
                               resources=dict(resources or {}))
    try:
        with _connect(cluster, scheduler) as client:
            if resources:
                _check_resources(client, resources)
            if announce is not None:
                announce(client)
            run_id = uuid.uuid4().hex[:8]  # two sweeps on one scheduler never share a task key
            keys = [f"{name}-{run_id}" for name in names]
            read = outcome or (lambda f: f.result())
            if in_order:
                results = _dispatch_in_order(client, function, calls, keys, after or [[] for _ in calls],
                                             progress, read, resources)
            else:
                futures = [client.submit(function, *call, pure=False, key=key, resources=resources)
                           for call, key in zip(calls, keys, strict=True)]
                if progress:
                    dask_progress(futures, interval=f"{PROGRESS_INTERVAL_S}s")
                results = [read(future) for future in futures]
            if progress and not in_order:  # the scheduler's side of the bar notices that the
                time.sleep(2 * PROGRESS_INTERVAL_S)  # bar has closed at its next update
    finally:
        if cluster is not None:
            cluster.close()
    return results


def _connect(cluster, scheduler: str | None):
    """A client of the local ``cluster``, or of the scheduler at ``scheduler``; an address that
    cannot be reached within :data:`CONNECT_TIMEOUT_S` raises CompsemError saying so."""
    from distributed import Client

    if cluster is not None:
        return Client(cluster)
    try:
        return Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
    except (OSError, TimeoutError, ValueError) as error:
        raise CompsemError(
            f"cannot reach the Dask scheduler {scheduler!r} within {CONNECT_TIMEOUT_S} s "
            f"({type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}); start "
            "one there (`dask scheduler`, then `dask worker ADDRESS`) or leave out --scheduler "
            "to run on a local cluster") from None


def _check_resources(client, resources: Mapping[str, float]) -> None:
    """Raise unless some worker of ``client``'s cluster holds ``resources``."""
    workers = client.scheduler_info()["workers"].values()
    if not any(all(w.get("resources", {}).get(k, 0) >= v for k, v in resources.items()) for w in workers):
        held = sorted({k for w in workers for k in w.get("resources", {})})
        flags = " ".join(f"{k}={v:g}" for k, v in resources.items())
        raise CompsemError(f"no worker of the Dask cluster holds the resources {dict(resources)} these tasks need "
                         f"(resources held: {held or 'none'}); start workers with "
                         f"'dask worker SCHEDULER --resources \"{flags}\"'")


def _dispatch_in_order(client, function: Callable, calls: Sequence[tuple], keys: Sequence[str],
                       after: Sequence[Sequence[int]], progress: bool, read: Callable,
                       resources: Mapping[str, float] | None = None) -> list:
    """Submit ``calls`` so that no more run than the cluster has worker threads, each time the
    first call (in the given order) whose ``after`` calls have all finished; ``read(future)``
    as each finishes (failed ones included); returns what it gave, in the given order."""
    from distributed import wait

    slots = max(1, sum(client.nthreads().values()))  # with resources, each worker runs one at a time
    futures: list = [None] * len(calls)
    results: list = [None] * len(calls)
    pending = list(range(len(calls)))
    running: dict = {}
    finished: set[int] = set()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(calls), desc="tasks", unit="task")
    while pending or running:
        for i in list(pending):
            if len(running) >= slots:
                break
            if all(j in finished for j in after[i]):
                futures[i] = client.submit(function, *calls[i], pure=False, key=keys[i], resources=resources)
                running[futures[i]] = i
                pending.remove(i)
        if not running:
            raise RuntimeError(f"calls {pending} wait for calls that never finish")
        done = wait(list(running), return_when="FIRST_COMPLETED").done
        for future in sorted(done, key=running.get):
            i = running.pop(future)
            finished.add(i)
            results[i] = read(future)
            if bar is not None:
                bar.update()
    if bar is not None:
        bar.close()
    return results
