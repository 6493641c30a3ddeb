"""compsem.dask_tasks.submit_all: results in the order given, and with ``in_order`` the tasks
start in that order (run-all starts the slowest chapter first)."""

from __future__ import annotations

import time

import pytest

from compsem.dask_tasks import submit_all
from compsem.errors import CompsemError

STARTED: list[int] = []


def record(i: int) -> int:
    STARTED.append(i)
    time.sleep(0.05)
    return i * i


def test_results_in_the_given_order_and_started_in_order():
    STARTED.clear()
    calls = [(i,) for i in (5, 3, 8, 1, 9, 2)]
    out = submit_all(record, calls, [f"t{i}" for (i,) in calls], processes=False,
                     progress=False, in_order=True)
    assert out == [25, 9, 64, 1, 81, 4]
    assert STARTED == [5, 3, 8, 1, 9, 2]


EVENTS: list[str] = []


def step(i: int, seconds: float) -> int:
    EVENTS.append(f"start {i}")
    time.sleep(seconds)
    EVENTS.append(f"end {i}")
    return i


def test_a_task_starts_after_the_tasks_it_waits_for_and_before_later_ones():
    """run-all: sts3k-finetune waits for sts3k-models and, once that ends, starts before the
    chapters listed after it (Dask alone had already sent the worker its next chapter)."""
    from distributed import LocalCluster

    EVENTS.clear()
    calls = [(0, 0.3), (1, 0.6), (2, 0.05), (3, 0.05)]  # 2 waits for 0; 3 is free from the start
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                      dashboard_address=":0") as cluster:  # two tasks at a time
        out = submit_all(step, calls, ["a", "b", "c", "d"], scheduler=cluster.scheduler_address,
                         progress=False, in_order=True, after=[[], [], [0], []])
    assert out == [0, 1, 2, 3]
    assert EVENTS.index("start 2") > EVENTS.index("end 0")
    assert EVENTS.index("start 2") < EVENTS.index("start 3")  # in the order given
    with pytest.raises(ValueError, match="only for calls before it"):
        submit_all(step, [(1, 0), (2, 0)], ["a", "b"], processes=False, progress=False,
                   in_order=True, after=[[1], []])
    with pytest.raises(ValueError, match="needs in_order"):
        submit_all(step, [(1, 0)], ["a"], processes=False, progress=False, after=[[]])


SPANS: list[tuple[float, float]] = []


def hold(seconds: float) -> None:
    start = time.perf_counter()
    time.sleep(seconds)
    SPANS.append((start, time.perf_counter()))


def _overlap(spans) -> bool:
    (a0, a1), (b0, b1) = sorted(spans)
    return b0 < a1


@pytest.mark.parametrize("resources, overlapping", [(None, True), ({"GPU": 1}, False)])
def test_tasks_that_declare_a_gpu_share_it_one_at_a_time(resources, overlapping):
    """A worker with two threads and one GPU runs two GPU tasks one after the other (and two
    tasks that declare nothing side by side): the resource, not the thread count, decides."""
    from distributed import LocalCluster

    SPANS.clear()
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0",
                      resources={"GPU": 1}) as cluster:
        submit_all(hold, [(0.4,), (0.4,)], ["a", "b"], scheduler=cluster.scheduler_address,
                   progress=False, resources=resources)
    assert _overlap(SPANS) is overlapping


def test_a_cluster_without_the_resource_is_an_error_that_names_the_fix():
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        with pytest.raises(CompsemError, match=r"--resources \"GPU=1\""):
            submit_all(hold, [(0.0,)], ["a"], scheduler=cluster.scheduler_address, progress=False,
                       resources={"GPU": 1})


def test_with_in_order_each_outcome_is_read_as_its_task_finishes():
    """The COGS trainers print a run's summary when it ends, not when the last run ends."""
    EVENTS.clear()
    seen: list[str] = []

    def read(future):
        seen.append(f"read {future.result()} after {EVENTS.count('end 0') + EVENTS.count('end 1')} ends")
        return future.result()

    out = submit_all(step, [(0, 0.05), (1, 0.6)], ["fast", "slow"], processes=False, progress=False,
                     in_order=True, outcome=read)
    assert out == [0, 1]
    assert seen == ["read 0 after 1 ends", "read 1 after 2 ends"]
