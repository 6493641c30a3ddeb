"""compsem run-all: the order of the chapters, threads per kernel, failures that do not stop the
others, and two real chapters executed at the same time (their kernels must not share sockets)."""

from __future__ import annotations

import json
import math

import pytest

from compsem import cli, kernel, parameters, provenance, run, run_all
from compsem.report import read_glued

pytestmark = pytest.mark.usefixtures("finalised_executions")  # see conftest


def test_longest_chain_first_and_synthesis_last():
    seconds = {"a": 10.0, "b": 300.0, "c": float("inf"), "synthesis": 1000.0, "d": 10.0}
    order = run_all.schedule(list(seconds), seconds.__getitem__, after={})
    assert [c for c, _ in order] == ["c", "b", "a", "d", "synthesis"]  # never executed first
    assert order[-1] == ("synthesis", ["a", "b", "c", "d"])  # after all the others
    assert run_all.schedule(["a", "b"], seconds.__getitem__, after={}) == [("b", []), ("a", [])]


def test_a_chapter_waits_for_the_chapter_it_reuses_and_its_chain_counts():
    seconds = {"models": 500.0, "finetune": 800.0, "probing": 1000.0, "small": 50.0}
    after = {"finetune": ("models",)}
    order = run_all.schedule(list(seconds), seconds.__getitem__, after=after)
    # models + finetune (1,300 s) is a longer chain than probing (1,000 s): models starts first
    assert order == [("models", []), ("probing", []), ("finetune", ["models"]), ("small", [])]
    assert run_all.AFTER["sts3k-finetune"] == ("sts3k-models",)
    with pytest.raises(ValueError, match="circle"):
        run_all.schedule(["x", "y"], seconds.get, after={"x": ("y",), "y": ("x",)})


def test_recorded_seconds_reads_the_provenance(tmp_path):
    (tmp_path / "x.ipynb").write_text(json.dumps({"metadata": {"compsem": {"wall_time_s": 12.5}}}))
    (tmp_path / "w.ipynb").write_text(json.dumps({"metadata": {"compsem": {
        "profile": "default", "wall_time_s": 12.5, "longest_wall_time_s": 900.0}}}))
    assert run_all.recorded_seconds("w", tmp_path) == 900.0  # the run on empty caches counts
    assert provenance.longest_wall_time(tmp_path / "w.ipynb", "default") == 900.0
    assert provenance.longest_wall_time(tmp_path / "w.ipynb", "smoke") == 0.0  # another profile
    assert provenance.longest_wall_time(tmp_path / "missing.ipynb", "default") == 0.0
    (tmp_path / "broken.ipynb").write_text("{not json")
    assert run_all.recorded_seconds("x", tmp_path) == 12.5
    assert math.isinf(run_all.recorded_seconds("broken", tmp_path))
    assert math.isinf(run_all.recorded_seconds("missing", tmp_path))
    committed = run_all.recorded_seconds("sts3k-data")  # book/: the committed notebook's time
    assert 0 < committed < math.inf
    assert run_all.recorded_seconds("sts3k-data", tmp_path) == committed  # not in tmp_path


def test_threads_share_the_cores():
    assert run.thread_env(None) == {}
    assert run.thread_env(3) == {"OMP_NUM_THREADS": "3", "MKL_NUM_THREADS": "3",
                                 "OPENBLAS_NUM_THREADS": "3"}
    with pytest.raises(parameters.ParameterError, match="threads must be >= 1"):
        run.thread_env(-1)


def test_a_failed_chapter_does_not_stop_the_others(monkeypatch, tmp_path):
    ran = []

    def fake_execute(chapter, profile, output_dir=None, progress=True, threads=None):
        ran.append((chapter, threads))
        if chapter == "sts3k-data":
            raise run.ChapterFailed("chapter 'sts3k-data' failed (ValueError)\ndetails")
        return tmp_path / f"{chapter}.ipynb"

    monkeypatch.setattr(run, "execute", fake_execute)
    lines = []
    outcomes = run_all.run_all("smoke", ["sts3k-data", "cogs-data", "synthesis"], jobs=1,
                               output_dir=tmp_path, say=lines.append)
    assert [c for c, _ in ran] == ["cogs-data", "sts3k-data", "synthesis"]  # synthesis last
    assert [o.ok for o in outcomes] == [True, False, True]
    assert outcomes[1].status == "failed: chapter 'sts3k-data' failed (ValueError)"
    assert any("sts3k-data: failed" in line for line in lines)


def test_bad_arguments_stop_before_any_run(monkeypatch):
    monkeypatch.setattr(run, "execute", lambda *a, **k: pytest.fail("must not run"))
    with pytest.raises(parameters.ParameterError, match="no chapter 'nope'"):
        run_all.run_all("smoke", ["sts3k-data", "nope"])
    with pytest.raises(parameters.ParameterError, match="jobs must be >= 1"):
        run_all.run_all("smoke", ["sts3k-data"], jobs=0)
    with pytest.raises(parameters.ParameterError, match="threads must be >= 1, not -2"):
        run_all.run_all("smoke", ["sts3k-data"], threads=-2)  # once, not once per chapter


def test_cli_exit_code_is_1_when_a_chapter_failed(monkeypatch, capsys):
    monkeypatch.setattr(run_all, "run_all", lambda *a, **k: [
        run_all.Outcome("a", "ok", 1.0), run_all.Outcome("b", "failed: boom", 2.0)])
    assert cli.main(["run-all", "-P", "smoke", "--jobs", "2"]) == 1
    captured = capsys.readouterr()
    assert "1 of 2 chapters executed" in captured.out and "b failed: boom" in captured.err


def test_each_kernel_gets_its_own_ipc_sockets():
    first, second = kernel.ipc_path(), kernel.ipc_path()
    assert first != second and len(first) + len("-99999") < 107
    manager = kernel.kernel_transport().get("kernel_manager_class")
    if manager is not None:  # POSIX
        assert manager().transport == "ipc" and manager().ip != manager().ip


def test_two_chapters_at_once(tmp_path):
    """Two real smoke runs as two Dask workers: with a shared socket path their kernels read
    each other's messages and fail ("Invalid Signature")."""
    chapters = ["sts3k-data", "cogs-data"]
    outcomes = run_all.run_all("smoke", chapters, jobs=2, output_dir=tmp_path, progress=False,
                               say=lambda line: None)
    assert [o.status for o in outcomes] == ["ok", "ok"], outcomes
    for chapter in chapters:
        glued = read_glued(tmp_path / f"{chapter}.ipynb")
        assert glued and all(math.isfinite(v) for v in glued.values())
