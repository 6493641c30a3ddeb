"""A parameter grid of one chapter on a Dask cluster: ``compsem sweep CHAPTER --grid grid.yaml``.

The grid file maps parameter names of the chapter to lists of values; the points are their
Cartesian product (``n_splits: [10, 100]`` and ``seed: [0, 1]`` make four points)::

    n_splits: [10, 100]
    seed: [0, 1]

Every point is one :func:`compsem.run.execute` of the chapter with the profile's values and the
point's values on top (so each point is validated, executed and checked exactly like
``compsem run CHAPTER -p NAME VALUE``), one Dask task per point. A worker executes its point in
a temporary folder and sends the executed notebook back, so the workers of a remote cluster need
the project and its data but no folder shared with the client. The client writes
``<out>/<chapter>.<point>.ipynb`` for every point and ``<out>/sweep.csv``: the numbers each
point glued (:func:`compsem.report.read_glued`), one row per point and key, with the columns
``point``, one per grid parameter, ``key``, ``value``, ``status`` (``ok`` or ``failed: why``)
and ``notebook``. A point that fails is one row with its reason in ``status`` and never stops
the others (its failed notebook is kept on the worker, as ``compsem run`` keeps it).
"""

from __future__ import annotations

import itertools
import math
import os
import re
import tempfile
from pathlib import Path

import pandas as pd

from compsem import paths, report, run
from compsem.parameters import (
    ParameterError,
    check_values,
    default_parameters,
    load_yaml_file,
)

MAX_POINTS = 500
"""The largest grid :func:`check_grid` accepts unless told otherwise (``--max-points``): a typo
in a grid file (a range of 1,000 seeds, say) is caught before hours of work, not after."""


def load_grid(file: Path, chapter: str, profile: str = "default",
              max_points: int | None = None) -> dict[str, list]:
    """The grid of ``file`` (YAML: parameter name -> non-empty list of distinct values), every
    value checked against the chapter's parameters and schema before anything runs.

    Raises :class:`~compsem.parameters.ParameterError` naming the file, the parameter and the value:
    an unknown parameter (with the closest name), a value of the wrong type or out of range
    (:func:`compsem.parameters.resolve_parameters`), a scalar instead of a list, an empty list or a
    value listed twice, a name that is not a string, more than ``max_points`` points.
    """
    file = Path(file)
    if not file.is_file():
        raise ParameterError(f"no grid file {file}")
    grid = load_yaml_file(file)
    if not isinstance(grid, dict) or not grid:
        raise ParameterError(f"{file} must map parameter names to lists of values "
                             f"(e.g. `n_splits: [10, 100]`); got {grid!r}")
    check_grid(chapter, profile, grid, where=str(file), max_points=max_points)
    return grid


def check_grid(chapter: str, profile: str, grid: dict, where: str = "grid",
               max_points: int | None = None) -> None:
    """Raise ParameterError (naming ``where``, the parameter and the value) unless every entry of
    ``grid`` is a parameter name with a non-empty list of distinct values, each valid for the
    chapter with ``profile`` (:func:`compsem.parameters.check_values`; the schema checks
    parameters one by one, so every point of the product is then valid), and the grid has at
    most ``max_points`` points (None: :data:`MAX_POINTS`)."""
    if max_points is not None and (isinstance(max_points, bool) or not isinstance(max_points, int)
                                   or max_points < 1):
        raise ParameterError(f"max_points (--max-points) must be a whole number >= 1, not "
                             f"{max_points!r}")
    for name, values in grid.items():
        if not isinstance(name, str):
            raise ParameterError(f"{where}: {name!r} is not a parameter name (a {type(name).__name__}"
                                 f"); the chapter's parameters are {list(default_parameters(chapter))}")
        if not isinstance(values, list) or not values:
            raise ParameterError(f"{where}: parameter {name!r} needs a non-empty list of values "
                                 f"(e.g. `n_splits: [10, 100]`; one value is a list of one), "
                                 f"got {values!r}")
    n, max_points = math.prod(len(v) for v in grid.values()), max_points or MAX_POINTS
    if n > max_points:  # before the values are checked one by one
        raise ParameterError(f"{where}: the grid has {n:,} points, more than {max_points:,}; "
                             f"shorten its lists, or allow it with --max-points {n} "
                             f"(max_points={n})")
    for name, values in grid.items():
        for i, value in enumerate(values):
            if value in values[:i]:
                raise ParameterError(f"{where}: parameter {name!r} lists {value!r} twice")
    check_values(chapter, profile, grid, origin=f"grid {where}")


def points(grid: dict[str, list]) -> list[dict]:
    """The Cartesian product of ``grid``: one ``{name: value}`` per point, the last parameter
    varying fastest (:func:`itertools.product`)."""
    names = list(grid)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*grid.values())]


def point_ids(n: int) -> list[str]:
    """``p000``, ``p001``, ...: sortable point names (wider when there are more than 1000)."""
    width = max(3, len(str(n - 1)))
    return [f"p{i:0{width}d}" for i in range(n)]


def _reason(error: BaseException) -> str:
    """One line for the status column: the error's first line, and its last one (the exception a
    chapter cell raised) when they differ; terminal colour codes removed."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line).strip() for line in str(error).splitlines()]
    lines = [line for line in lines if line] or [""]
    head = f"{type(error).__name__}: {lines[0]}"
    return head if len(lines) == 1 else f"{head} ... {lines[-1]}"


def run_point(chapter: str, profile: str, overrides: dict) -> tuple[str, dict, str | None]:
    """Execute one point in a temporary folder (the Dask task): ``(status, glued numbers,
    executed notebook as JSON text or None)``. Any exception is the point's status, not raised."""
    with tempfile.TemporaryDirectory(prefix=f"compsem-sweep-{chapter}-") as tmp:
        try:
            executed = run.execute(chapter, profile, overrides, output_dir=Path(tmp),
                                   progress=False)
        except Exception as error:  # a failed point is reported, never aborts the sweep
            return f"failed: {_reason(error)}", {}, None
        return "ok", report.read_glued(executed), executed.read_text(encoding="utf-8")


def tidy(grid: dict[str, list], ids: list[str], results: list[tuple], notebooks: list) -> pd.DataFrame:
    """The long table: one row per point and glued key (one row with no key for a point that
    failed or glued no number); columns ``point``, the grid parameters, ``key``, ``value``,
    ``status``, ``notebook``."""
    rows = []
    for pid, point, (status, values, _), notebook in zip(ids, points(grid), results, notebooks,
                                                         strict=True):
        base = {"point": pid, **point}
        extra = {"status": status, "notebook": str(notebook) if notebook else None}
        if not values:
            rows.append({**base, "key": None, "value": float("nan"), **extra})
        rows += [{**base, "key": key, "value": value, **extra} for key, value in values.items()]
    columns = ["point", *grid, "key", "value", "status", "notebook"]
    return pd.DataFrame(rows, columns=columns)


def run_sweep(chapter: str, grid: dict[str, list], profile: str = "default",
              out_dir: Path | str = "sweep", scheduler: str | None = None, n_workers: int = 2,
              processes: bool = True, progress: bool = True,
              max_points: int | None = None) -> pd.DataFrame:
    """Execute every point of ``grid`` (see :func:`load_grid`) as one Dask task each, write the
    executed notebooks and ``sweep.csv`` under ``out_dir`` (checked before any point runs:
    :func:`compsem.paths.output_folder`), and return the tidy table.

    ``scheduler``: the address of a running Dask scheduler (``tcp://host:8786``); None starts a
    :class:`distributed.LocalCluster` of ``min(n_workers, points)`` workers with one thread
    each (``processes=False``: one worker thread in this process, one point at a time, since a
    chapter's kernel environment is set process-wide). ``progress``: Dask's progress bar
    (:func:`distributed.progress`) and the dashboard's address when the scheduler has one.
    """
    from compsem.dask_tasks import submit_all

    check_grid(chapter, profile, grid, max_points=max_points)  # every value before any run
    out = paths.output_folder(out_dir)  # usable before any run, not after
    every = points(grid)
    ids = point_ids(len(every))

    def announce(client) -> None:
        if progress:
            link = _dashboard(client, local=scheduler is None)
            print(f"[compsem sweep] {len(every)} point(s) of {chapter} ({profile}) on "
                  f"{client.scheduler.address}" + (f"; dashboard {link}" if link else ""),
                  flush=True)

    results = submit_all(run_point, [(chapter, profile, point) for point in every],
                         [f"sweep-{chapter}-{pid}" for pid in ids], scheduler=scheduler,
                         n_workers=n_workers, processes=processes, progress=progress,
                         outcome=_result, announce=announce)
    notebooks = []
    for pid, (_, _, text) in zip(ids, results, strict=True):
        notebooks.append(_write(out / f"{chapter}.{pid}.ipynb", text) if text else None)
    table = tidy(grid, ids, results, notebooks)
    _write(out / "sweep.csv", table.to_csv(index=False))
    return table


def _result(future) -> tuple[str, dict, str | None]:
    """A point's result; a task Dask itself lost (a worker killed, say) is a failed point."""
    try:
        return future.result()
    except Exception as error:
        return f"failed: {_reason(error)}", {}, None


def _dashboard(client, local: bool) -> str | None:
    """The scheduler's dashboard address, or None when it has none. A local scheduler serves
    the dashboard only when bokeh is installed (otherwise its page says bokeh is missing)."""
    import importlib.util

    if local and importlib.util.find_spec("bokeh") is None:
        return None
    try:
        return client.dashboard_link or None
    except (KeyError, AttributeError):
        return None


def _write(path: Path, text: str) -> Path:
    """``text`` to ``path`` through a temporary name (never a half-written file)."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path
