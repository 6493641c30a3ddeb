"""compsem sweep: grid files checked before anything runs, one Dask task per point, a failed
point reported in the table, and a real two-point grid of the cheapest chapter."""

from __future__ import annotations

import math
import re

import nbformat
import pandas as pd
import pytest

from compsem import cli, run, sweep
from compsem.errors import CompsemError
from compsem.parameters import ParameterError

CHAPTER = "sts3k-data"  # the cheapest chapter (its smoke profile runs in seconds)

pytestmark = pytest.mark.usefixtures("finalised_executions")  # see conftest


def _grid_file(tmp_path, text: str):
    file = tmp_path / "grid.yaml"
    file.write_text(text)
    return file


def test_grid_is_the_cartesian_product(tmp_path):
    file = _grid_file(tmp_path, "n_splits: [5, 10]\nseed: [0, 1, 2]\n")
    grid = sweep.load_grid(file, CHAPTER, "smoke")
    assert grid == {"n_splits": [5, 10], "seed": [0, 1, 2]}
    every = sweep.points(grid)
    assert len(every) == 6 and every[0] == {"n_splits": 5, "seed": 0}
    assert every[-1] == {"n_splits": 10, "seed": 2}
    assert sweep.point_ids(3) == ["p000", "p001", "p002"]
    assert sweep.point_ids(1001)[-1] == "p1000"


def test_list_valued_parameters_take_lists_of_lists(tmp_path):
    file = _grid_file(tmp_path, "sample_sizes: [[100, 501], [50, 501]]\n")
    assert sweep.load_grid(file, CHAPTER, "smoke") == {"sample_sizes": [[100, 501], [50, 501]]}


@pytest.mark.parametrize(
    ("text", "message"),
    [("n_split: [5, 10]\n", "unknown parameter 'n_split' for chapter 'sts3k-data' (grid "),
     ("n_split: [5, 10]\n", "did you mean 'n_splits'?"),
     ("n_splits: [5, 0]\n", "parameter 'n_splits' (grid "),
     ("n_splits: [5, 0]\n", "= 0: it must be >= 1"),
     ("n_splits: [5, many]\n", "must be int"),
     ("shuffle_within: [rated, rows]\n", "must be one of ['rated', 'column']"),
     ("sample_sizes: [100, 501]\n", "parameter 'sample_sizes'"),
     ("n_splits: 10\n", "parameter 'n_splits' needs a non-empty list of values"),
     ("n_splits: []\n", "parameter 'n_splits' needs a non-empty list of values"),
     ("n_splits: [5, 5]\n", "parameter 'n_splits' lists 5 twice"),
     ("[5, 10]\n", "must map parameter names to lists of values"),
     ("", "must map parameter names to lists of values"),
     ("n_splits: [5, 10\n", "is not valid YAML")],
)
def test_bad_grid_names_the_file_and_the_parameter(tmp_path, text, message):
    file = _grid_file(tmp_path, text)
    with pytest.raises(ParameterError) as error:
        sweep.load_grid(file, CHAPTER, "smoke")
    assert message in str(error.value)
    assert str(file) in str(error.value)


def test_missing_grid_file(tmp_path):
    with pytest.raises(ParameterError, match="no grid file"):
        sweep.load_grid(tmp_path / "nope.yaml", CHAPTER)


def test_cli_bad_grid_is_exit_code_2_before_any_run(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sweep, "run_sweep", lambda *a, **k: pytest.fail("must not run"))
    file = _grid_file(tmp_path, "n_split: [5, 10]\n")
    assert cli.main(["sweep", CHAPTER, "--grid", str(file), "-P", "smoke"]) == 2
    err = capsys.readouterr().err
    assert "compsem: error: unknown parameter 'n_split'" in err and str(file) in err
    assert "Traceback" not in err


def _fake_notebook(path, glued: dict):
    """A notebook whose outputs glue ``glued`` the way myst_nb does (scrapbook metadata)."""
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output(
        "display_data", data={"application/papermill.record/text/plain": repr(v)},
        metadata={"scrapbook": {"name": k, "mime_prefix": "application/papermill.record/"}})
        for k, v in glued.items()]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    nbformat.write(notebook, path)
    return path


def test_a_failed_point_is_a_row_and_never_stops_the_others(tmp_path, monkeypatch):
    """One Dask task per point (a LocalCluster in this process, so the fake runner applies)."""

    def fake_execute(chapter, profile, overrides, output_dir, progress):
        if overrides["n_splits"] == 7:
            raise run.ChapterFailed(f"chapter {chapter!r} failed (CellExecutionError)\n"
                                    "\x1b[31mValueError\x1b[0m: seven is unlucky")
        return _fake_notebook(output_dir / f"{chapter}.ipynb",
                              {"r": overrides["n_splits"] / 10, "n": overrides["n_splits"]})

    monkeypatch.setattr(run, "execute", fake_execute)
    grid = {"n_splits": [5, 7, 10]}
    table = sweep.run_sweep(CHAPTER, grid, "smoke", tmp_path / "out", processes=False,
                            progress=False)
    assert list(table.columns) == ["point", "n_splits", "key", "value", "status", "notebook"]
    ok = table[table.status == "ok"]
    assert sorted(ok.point.unique()) == ["p000", "p002"]
    assert ok.set_index(["point", "key"]).value.to_dict() == {
        ("p000", "r"): 0.5, ("p000", "n"): 5, ("p002", "r"): 1.0, ("p002", "n"): 10}
    failed = table[table.point == "p001"]
    assert len(failed) == 1 and failed.key.isna().all() and math.isnan(failed.value.iloc[0])
    status = failed.status.iloc[0]
    assert status.startswith("failed: ChapterFailed: chapter 'sts3k-data' failed")
    assert status.endswith("ValueError: seven is unlucky") and "\x1b" not in status
    assert (tmp_path / "out" / f"{CHAPTER}.p000.ipynb").is_file()
    assert not (tmp_path / "out" / f"{CHAPTER}.p001.ipynb").exists()
    written = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert len(written) == len(table) and set(written.status) == set(table.status)


def test_a_task_dask_lost_is_a_failed_point(tmp_path, monkeypatch):
    """An error outside the chapter run (a worker killed, say) fails that point only."""

    def flaky(chapter, profile, overrides):
        if overrides["seed"] == 0:
            raise RuntimeError("worker lost")
        return "ok", {"r": 1.0}, None

    monkeypatch.setattr(sweep, "run_point", flaky)
    table = sweep.run_sweep(CHAPTER, {"seed": [0, 1]}, "smoke", tmp_path, processes=False,
                            progress=False)
    assert table.status.tolist() == ["failed: RuntimeError: worker lost", "ok"]


def test_cli_sweep_on_a_scheduler_address(tmp_path, monkeypatch, capsys):
    """`--scheduler tcp://...`: a running cluster (here a TCP scheduler whose worker is a thread
    of this process, so the fake runner applies); exit code 1 when a point failed."""
    from distributed import LocalCluster

    def fake_execute(chapter, profile, overrides, output_dir, progress):
        if overrides["seed"] == 1:
            raise run.ChapterFailed("chapter 'sts3k-data' failed (CellExecutionError)")
        return _fake_notebook(output_dir / f"{chapter}.ipynb", {"r": 0.5})

    monkeypatch.setattr(run, "execute", fake_execute)
    file = _grid_file(tmp_path, "seed: [0, 1]\n")
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                      dashboard_address=":0") as cluster:
        code = cli.main(["sweep", CHAPTER, "--grid", str(file), "-P", "smoke", "--out",
                         str(tmp_path / "out"), "--scheduler", cluster.scheduler_address, "-q"])
    assert code == 1
    captured = capsys.readouterr()
    assert "p001: failed: ChapterFailed: chapter 'sts3k-data' failed" in captured.err
    assert "1 of 2 point(s) ok" in captured.out
    table = pd.read_csv(tmp_path / "out" / "sweep.csv")
    assert table.status.tolist() == ["ok", "failed: ChapterFailed: chapter 'sts3k-data' failed "
                                     "(CellExecutionError)"]


@pytest.mark.slow
@pytest.mark.needs_data
def test_two_point_grid_of_a_real_chapter(tmp_path, capsys):
    """sts3k-data, smoke profile, n_splits 3 and 10: both points run on a LocalCluster (one
    worker process, one thread: the default path, points one after the other) and the split-half
    reliability (an average over the random splits) differs between them."""
    file = _grid_file(tmp_path, "n_splits: [3, 10]\n")
    out = tmp_path / "sweep"
    table = sweep.run_sweep(CHAPTER, sweep.load_grid(file, CHAPTER, "smoke"), "smoke", out,
                            n_workers=1, progress=False)
    assert set(table.status) == {"ok"}
    assert sorted(table.point.unique()) == ["p000", "p001"]
    wide = table.pivot(index="key", columns="n_splits", values="value")
    assert len(wide) > 10 and wide.notna().all().all()
    assert wide.loc["split_half_all", 3] != wide.loc["split_half_all", 10]
    for point in ("p000", "p001"):
        notebook = nbformat.read(out / f"{CHAPTER}.{point}.ipynb", as_version=4)
        assert notebook.metadata["compsem"]["parameters"]["n_splits"] in (3, 10)
    assert (out / "sweep.csv").is_file()


# --- issue 44, cases 2 and 12: the output location and the grid are checked before any point runs ---

def test_cli_sweep_out_that_is_a_file_stops_before_any_point(tmp_path, capsys, monkeypatch):
    """`--out FILE` once ran every point, then lost them all when mkdir raised."""
    monkeypatch.setattr(run, "execute", lambda *a, **k: pytest.fail("no point may run"))
    file = _grid_file(tmp_path, "seed: [0, 1]\n")
    taken = tmp_path / "taken"
    taken.write_text("a file\n")
    assert cli.main(["sweep", CHAPTER, "--grid", str(file), "-P", "smoke", "--out", str(taken),
                     "-q"]) == 2
    err = capsys.readouterr().err
    assert f"--out {taken} is a file, not a folder" in err and "Traceback" not in err
    assert taken.read_text() == "a file\n"
    with pytest.raises(CompsemError, match="is a file"):  # the library checks it too
        sweep.run_sweep(CHAPTER, {"seed": [0]}, "smoke", taken, processes=False, progress=False)


@pytest.mark.parametrize(("text", "message"), [
    ("1: [2, 3]\n", "1 is not a parameter name (a int)"),
    ("seed: [0, 1]\ntrue: [1]\n", "True is not a parameter name (a bool)"),
])
def test_a_grid_key_that_is_not_a_name_is_refused(tmp_path, text, message):
    with pytest.raises(ParameterError, match=re.escape(message)):
        sweep.load_grid(_grid_file(tmp_path, text), CHAPTER, "smoke")


def test_a_grid_file_that_is_not_utf8_names_the_file(tmp_path, capsys):
    file = tmp_path / "grid.yaml"
    file.write_bytes("seed: [0]\n# caf\u00e9\n".encode("latin-1"))
    assert cli.main(["sweep", CHAPTER, "--grid", str(file), "-P", "smoke"]) == 2
    err = capsys.readouterr().err
    assert f"{file} is not UTF-8 text" in err and "Traceback" not in err


def test_a_huge_grid_is_refused_unless_max_points_allows_it(tmp_path, capsys, monkeypatch):
    """A 64,000-point grid once started without a word."""
    monkeypatch.setattr(sweep, "run_sweep", lambda *a, **k: pytest.fail("must not run"))
    values = ", ".join(str(v) for v in range(1, 41))
    file = _grid_file(tmp_path, f"seed: [{values}]\nn_splits: [{values}]\n"
                                f"shuffle_seed: [{values}]\n")
    assert cli.main(["sweep", CHAPTER, "--grid", str(file), "-P", "smoke"]) == 2
    err = capsys.readouterr().err
    assert "the grid has 64,000 points, more than 500" in err and "--max-points 64000" in err
    grid = sweep.load_grid(file, CHAPTER, "smoke", max_points=64_000)
    assert math.prod(len(v) for v in grid.values()) == 64_000
    for bad in ("0", "-3"):
        assert cli.main(["sweep", CHAPTER, "--grid", str(file), "--max-points", bad]) == 2
        assert "must be a whole number >= 1" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_one_line_after_a_short_wait(tmp_path, capsys, monkeypatch):
    """`--scheduler` naming nothing once waited 30 s and ended in a traceback."""
    import socket

    from compsem import dask_tasks

    monkeypatch.setattr(dask_tasks, "CONNECT_TIMEOUT_S", 1)
    monkeypatch.setattr(run, "execute", lambda *a, **k: pytest.fail("no point may run"))
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    file = _grid_file(tmp_path, "seed: [0]\n")
    for address in (f"tcp://127.0.0.1:{port}", "banana"):
        assert cli.main(["sweep", CHAPTER, "--grid", str(file), "-P", "smoke", "--out",
                         str(tmp_path / "out"), "--scheduler", address, "-q"]) == 2
        err = capsys.readouterr().err
        assert f"cannot reach the Dask scheduler '{address}' within 1 s" in err
        assert "Traceback" not in err
