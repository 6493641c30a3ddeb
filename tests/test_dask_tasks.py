"""compsem.dask_tasks.submit_all: results in the order given, and with ``in_order`` the tasks
start in that order (run-all starts the slowest chapter first)."""

from __future__ import annotations

import time

import pytest

from compsem.dask_tasks import submit_all

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


ENDED: list[int] = []


def record_end(i: int) -> int:
    time.sleep(0.2 if i == 0 else 0.01)
    ENDED.append(i)
    return i


def test_a_task_starts_after_the_tasks_it_waits_for():
    """run-all starts sts3k-finetune only when sts3k-models has finished (it reuses its vectors)."""
    from distributed import LocalCluster

    ENDED.clear()
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                      dashboard_address=":0") as cluster:  # two tasks at a time
        out = submit_all(record_end, [(0,), (1,), (2,)], ["slow", "quick", "waits"],
                         scheduler=cluster.scheduler_address, progress=False, in_order=True,
                         after=[[], [], [0]])
    assert out == [0, 1, 2]
    assert ENDED == [1, 0, 2]  # without the wait, 2 would start when 1 ends, before 0 ends
    with pytest.raises(ValueError, match="only for calls before it"):
        submit_all(record_end, [(1,), (2,)], ["a", "b"], processes=False, progress=False,
                   after=[[1], []])
