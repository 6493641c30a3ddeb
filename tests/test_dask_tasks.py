"""compsem.dask_tasks.submit_all: results in the order given, and with ``in_order`` the tasks
start in that order (run-all starts the slowest chapter first)."""

from __future__ import annotations

import time

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
