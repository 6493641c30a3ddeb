"""The chapter runner: parameter validation, provenance, failure safety, freshness."""

from __future__ import annotations

import os

import nbformat
import pytest

from compsem import kernel, parameters, paths, provenance, report, run
from compsem.data.registry import sha256_of
from compsem.errors import CompsemError
from compsem.report import read_glued

CHAPTER = """\
# %% [markdown]
# # A tiny chapter

# %% tags=["parameters"]
n = 3
scale = 1.5
label = "x"
fail = False
blank = False

# %%
from compsem.report import glue

total = n * scale
glue("total", total)
if blank:
    glue("ratio", float("nan"))
if fail:
    raise RuntimeError("asked to fail")
if label == "y":  # a check of the chapter's own, as a chapter checks its model names
    from compsem.parameters import ParameterError
    raise ParameterError("parameter 'label' = 'y': this chapter takes 'x' only")
print(label, total)
"""

pytestmark = pytest.mark.usefixtures("finalised_executions")  # see conftest


SCHEMA = """\
n: {type: int, min: 1, max: 1000}
scale: {type: float, min: 0.0}
label: {type: str, choices: [x, y]}
fail: {type: bool}
blank: {type: bool}
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    notebooks = tmp_path / "notebooks"
    (notebooks / "params").mkdir(parents=True)
    (notebooks / "tiny.py").write_text(CHAPTER)
    (notebooks / "params" / "tiny.smoke.yaml").write_text("n: 2\n")
    (notebooks / "params" / "tiny.default.yaml").write_text("")
    (notebooks / "params" / "tiny.schema.yaml").write_text(SCHEMA)
    monkeypatch.setattr(paths, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(paths, "PARAMS_DIR", notebooks / "params")
    monkeypatch.setattr(paths, "PROJECT_DIR", tmp_path)
    return tmp_path


def test_defaults_and_profiles(project):
    assert parameters.default_parameters("tiny") == {"n": 3, "scale": 1.5, "label": "x",
                                                    "fail": False, "blank": False}
    assert parameters.resolve_parameters("tiny", "smoke") == {"n": 2}
    assert parameters.resolve_parameters("tiny", "default", {"n": "200", "scale": "2"}) == {"n": 200, "scale": 2.0}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [({"n_split": "2"}, "unknown parameter 'n_split'"),
     ({"n": "many"}, "must be int"),
     ({"n": "2.5"}, "must be int"),
     ({"fail": "1"}, "must be bool")],
)
def test_bad_parameters_fail_fast(project, overrides, message):
    with pytest.raises(parameters.ParameterError, match=message):
        parameters.resolve_parameters("tiny", "default", overrides)


def test_bad_profile_and_chapter(project):
    with pytest.raises(parameters.ParameterError, match="unknown profile"):
        parameters.resolve_parameters("tiny", "huge")
    with pytest.raises(parameters.ParameterError, match="no parameter file"):
        parameters.resolve_parameters("tiny", "full")
    with pytest.raises(parameters.ParameterError, match="no chapter 'tinny'"):
        parameters.resolve_parameters("tinny", "default")


def test_execute_records_provenance_and_never_overwrites_on_failure(project):
    out_dir = project / "book"
    out = run.execute("tiny", "default", {"n": "4"}, output_dir=out_dir, progress=False)
    notebook = nbformat.read(out, as_version=4)
    meta = notebook.metadata["compsem"]
    assert meta["profile"] == "default" and meta["parameters"] == {"n": 4}
    assert meta["source_sha256"] == sha256_of(project / "notebooks" / "tiny.py")
    assert "compsem.report" in meta["modules"] and "compsem.run" not in meta["modules"]
    assert meta["packages"]["python"] and meta["wall_time_s"] >= 0
    assert read_glued(notebook) == {"total": 6.0}
    assert not any("compsem-provenance" in c.metadata.get("tags", []) for c in notebook.cells)
    assert list(out_dir.glob(".*tmp")) == []  # the unique temporary file was moved into place
    # the book is the default profile without overrides: n=4 is not what `make book` gives
    assert any("executed with parameters" in p for p in provenance.staleness(out))
    notebook.metadata["compsem"]["parameters"] = {}
    nbformat.write(notebook, out)
    assert provenance.staleness(out) == []

    before = out.read_bytes()
    with pytest.raises(run.ChapterFailed, match="untouched"):
        run.execute("tiny", "default", {"fail": "true"}, output_dir=out_dir, progress=False)
    assert out.read_bytes() == before
    assert (project / "_build" / "failed" / "tiny.ipynb").exists()

    (project / "notebooks" / "tiny.py").write_text(CHAPTER.replace("n = 3", "n = 5"))
    assert any("changed since it was executed" in p for p in provenance.staleness(out))


def test_a_failed_run_says_nothing_was_written_where_no_notebook_was(project):
    with pytest.raises(run.ChapterFailed, match="nothing was written to .*empty; the failed notebook"):
        run.execute("tiny", "default", {"fail": "true"}, output_dir=project / "empty", progress=False)


def test_an_executed_notebook_has_the_permissions_of_a_plain_write(project, monkeypatch):
    monkeypatch.setattr(paths, "UMASK", 0o022)  # the temporary file it was written to is 0600
    out = run.execute("tiny", "default", None, output_dir=project / "book", progress=False)
    assert out.stat().st_mode & 0o777 == 0o644


def test_a_chapters_own_parameter_check_is_one_line(project):
    with pytest.raises(parameters.ParameterError) as error:
        run.execute("tiny", "default", {"label": "y"}, output_dir=project / "book", progress=False)
    failed = project / "_build" / "failed" / "tiny.ipynb"
    assert str(error.value) == ("chapter 'tiny': parameter 'label' = 'y': this chapter takes 'x' "
                                f"only (the stopped notebook is {failed})")
    assert not (project / "book" / "tiny.ipynb").exists()


def test_a_run_with_other_parameters_than_the_books_says_so_under_its_title(project):
    def notes(out):
        cells = nbformat.read(out, as_version=4).cells
        return [(i, c.source) for i, c in enumerate(cells)
                if "compsem-parameters-note" in c.metadata.get("tags", [])]

    out = run.execute("tiny", "default", {"n": "4", "scale": "1.5"}, output_dir=project / "a",
                      progress=False)
    [(index, text)] = notes(out)
    assert index == 1 and "`n` = `4` (the book's: `3`)" in text and "scale" not in text
    assert run.parameters_unlike_the_book("tiny", {"n": 2}) == {"n": (2, 3)}
    assert notes(run.execute("tiny", "default", None, output_dir=project / "b", progress=False)) == []


def test_code_cells_are_folded_except_the_parameters():
    import nbformat

    cells = [nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell("import numpy"),
             nbformat.v4.new_markdown_cell("text"), nbformat.v4.new_code_cell("glue()")]
    cells[0].metadata["tags"] = ["parameters"]
    cells[3].metadata["tags"] = ["remove-input"]
    notebook = nbformat.v4.new_notebook(cells=cells)
    run.fold_code_cells(notebook)
    assert [c.metadata.get("tags") for c in notebook.cells] == [
        ["parameters"], ["hide-input"], None, ["remove-input"]]


def test_chapter_kernels_compute_with_fixed_cpu_code_paths(monkeypatch):
    from compsem import determinism

    for name, value in determinism.KERNEL_ENV.items():
        monkeypatch.setenv(name, value)
    expected = "avx2-cnr" if determinism.KERNEL_ENV else "native"
    assert determinism.numerics().startswith(expected)
    if determinism.KERNEL_ENV:
        monkeypatch.setenv("MKL_CBWR", "AUTO")
        assert determinism.numerics().startswith("native")
    assert determinism.is_timing("cogs_reduced_train_minutes")
    assert not determinism.is_timing("split_half_all")


def test_numpy_runs_its_avx2_loops_under_the_kernel_settings():
    """numpy's own exp, log and sort pick AVX-512 code on a CPU that has it; a process with
    KERNEL_ENV (as every chapter kernel) has it off, whatever the CPU, and imports cleanly."""
    import subprocess
    import sys

    from compsem import determinism

    if not determinism.KERNEL_ENV:
        pytest.skip("no fixed CPU code paths on this machine")
    code = ("from numpy._core._multiarray_umath import __cpu_features__ as f; "
            "print(f['X86_V4'], f['AVX512_ICL'], f['AVX512_SPR'])")
    result = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                            text=True, env={**os.environ, **determinism.KERNEL_ENV}, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False", "False"]


# --- issue 21: chapter names, schemas, invalid values, NaN results, staleness -------------------


@pytest.mark.parametrize("name", ["/etc/passwd", "../tiny", "../../x", "params/tiny", "", "tiny/"])
def test_chapter_names_are_never_paths(project, name):
    for call in (parameters.source_path, parameters.default_parameters,
                 lambda c: parameters.resolve_parameters(c, "default"), parameters.schema_path):
        with pytest.raises(parameters.ParameterError, match="no chapter"):
            call(name)
    with pytest.raises(parameters.ParameterError, match="no chapter"):
        run.execute(name, "default", output_dir=project / "book", progress=False)
    assert not (project / "book").exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [({"n": "0"}, r"parameter 'n' \(-p override\) = 0: it must be >= 1"),
     ({"n": "-5"}, "must be >= 1"),
     ({"n": "5000"}, "must be <= 1000"),
     ({"scale": "-1"}, "must be >= 0.0"),
     ({"scale": ".nan"}, "finite"),
     ({"label": "z"}, r"must be one of \['x', 'y'\]"),
     ({"n": "[1, 2"}, r"parameter 'n' \(-p override\): '\[1, 2' is not valid YAML")],
)
def test_invalid_values_stop_before_the_kernel(project, overrides, message):
    with pytest.raises(parameters.ParameterError, match=message):
        parameters.resolve_parameters("tiny", "default", overrides)


def test_malformed_profile_names_its_file(project):
    bad = project / "notebooks" / "params" / "tiny.smoke.yaml"
    bad.write_text("n: [1, 2\n")
    with pytest.raises(parameters.ParameterError, match=r"tiny\.smoke\.yaml is not valid YAML") as info:
        parameters.resolve_parameters("tiny", "smoke")
    assert "<unicode string>" not in str(info.value)


def test_schema_must_cover_exactly_the_parameters(project):
    schema = project / "notebooks" / "params" / "tiny.schema.yaml"
    schema.write_text(SCHEMA.replace("blank: {type: bool}\n", ""))
    with pytest.raises(parameters.ParameterError, match=r"missing: \['blank'\]"):
        parameters.resolve_parameters("tiny", "default")
    schema.unlink()
    with pytest.raises(parameters.ParameterError, match="no parameter schema"):
        parameters.resolve_parameters("tiny", "default")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [("n_splits", 0, "must be >= 1"), ("n_splits", -5, "must be >= 1"),
     ("sd_ddof", 5000, "must be <= 1"), ("modifier_exclude", [528, "x"], "item 1 .* must be int"),
     ("sample_sizes", [], "at least 1 item"), ("sample_sizes", [1000], "must be <= 501")],
)
def test_sts3k_data_invalid_values(name, value, message):
    import yaml

    with pytest.raises(parameters.ParameterError, match=message):
        parameters.resolve_parameters("sts3k-data", "default", {name: yaml.safe_dump(value)})


@pytest.mark.parametrize(
    ("chapter", "name", "value", "message"),
    [("probing-composition", "seeds", "[]", "at least 1 item"),
     ("sts3k-models", "models", "[]", "at least 1 item"),
     ("modifiers-consistency", "models", "[]", "at least 1 item"),
     ("sts3k-models", "ci_level", "1.5", "must be <= 0.999"),
     ("modifiers-consistency", "ci_level", "1.5", "must be <= 0.999"),
     ("sts3k-models", "device", "gpu", "must match")],
)
def test_chapter_invalid_values(chapter, name, value, message):
    with pytest.raises(parameters.ParameterError, match=message):
        parameters.resolve_parameters(chapter, "default", {name: value})


@pytest.mark.parametrize("chapter", parameters.chapters())
def test_every_chapter_schema_covers_its_parameters_and_profiles_validate(chapter):
    schema = parameters.load_schema(chapter)
    assert set(schema) - {"may_be_nan"} == set(parameters.default_parameters(chapter))
    for profile in parameters.PROFILES:
        parameters.resolve_parameters(chapter, profile)  # defaults and profile values validate


def test_nan_result_never_replaces_a_good_notebook(project):
    out_dir = project / "book"
    out = run.execute("tiny", "default", output_dir=out_dir, progress=False)
    before = out.read_bytes()
    with pytest.raises(run.ChapterFailed, match="NaN or infinite numbers .*ratio"):
        run.execute("tiny", "default", {"blank": "true"}, output_dir=out_dir, progress=False)
    assert out.read_bytes() == before
    schema = project / "notebooks" / "params" / "tiny.schema.yaml"
    schema.write_text(SCHEMA + "may_be_nan: [ratio]\n")
    run.execute("tiny", "default", {"blank": "true"}, output_dir=out_dir, progress=False)
    assert out.read_bytes() != before


def test_staleness_reports_profile_and_unreadable_notebooks(project, tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["compsem"] = {
        "chapter": "tiny", "profile": "smoke", "parameters": {"n": 2},
        "source_sha256": sha256_of(project / "notebooks" / "tiny.py"), "modules": {},
        "data": provenance.data_digests("tiny")}
    path = tmp_path / "tiny.ipynb"
    nbformat.write(notebook, path)
    assert any("profile 'smoke'" in p for p in provenance.staleness(path))
    notebook.metadata["compsem"].update(profile="default", parameters={"n": 7})
    nbformat.write(notebook, path)
    assert any("executed with parameters" in p for p in provenance.staleness(path))
    notebook.metadata["compsem"]["parameters"] = {}
    notebook.metadata["compsem"]["outputs_sha256"] = report.outputs_digest(notebook)
    nbformat.write(notebook, path)
    assert provenance.staleness(path) == []
    path.write_text(path.read_text()[:40])  # truncated
    assert "cannot be read" in provenance.staleness(path)[0]


def test_sigterm_unwinds_a_run_and_removes_its_temporary_folder(project, monkeypatch):
    import signal
    import tempfile

    tmp = project / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    (project / "notebooks" / "killer.py").write_text(
        '# %% tags=["parameters"]\nwait = 30\n\n# %%\nimport os, signal, time\n'
        'os.kill(os.getppid(), signal.SIGTERM)\ntime.sleep(wait)\n')
    (project / "notebooks" / "params" / "killer.default.yaml").write_text("")
    (project / "notebooks" / "params" / "killer.schema.yaml").write_text("wait: {type: int}\n")
    handler = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt, match="SIGTERM"):
        run.execute("killer", "default", output_dir=project / "book", progress=False)
    assert signal.getsignal(signal.SIGTERM) is handler
    assert not list(tmp.glob("compsem-killer-*"))
    assert not (project / "book" / "killer.ipynb").exists()


def test_a_library_edit_during_the_run_is_refused(project, monkeypatch):
    """Provenance is the code as it was when the kernel started: a module that differs after the
    run (here: a snapshot that disagrees with compsem.report) makes the run fail, untouched."""
    out_dir = project / "book"
    snapshot = provenance.library_snapshot()
    assert snapshot["compsem.report"] == sha256_of(paths.PACKAGE_DIR / "report.py")
    monkeypatch.setattr(provenance, "library_snapshot", lambda: {**snapshot, "compsem.report": "0" * 64})
    with pytest.raises(run.ChapterFailed, match="compsem.report changed while it ran"):
        run.execute("tiny", "default", output_dir=out_dir, progress=False)
    assert not (out_dir / "tiny.ipynb").exists()


@pytest.mark.skipif(os.name != "posix", reason="IPC sockets are POSIX only; elsewhere papermill's TCP default")
def test_chapter_kernels_use_ipc_not_tcp():
    """A local kernel over IPC: ipykernel prints its 'running over TCP without encryption'
    warning only for TCP, so the user's terminal stays quiet."""
    assert kernel.kernel_transport() == {"kernel_manager_class": kernel.IpcKernelManager}
    assert kernel.IpcKernelManager().transport == "ipc"


@pytest.mark.skipif(os.name != "posix", reason="the IPC kernel manager is POSIX only")
def test_chapter_kernels_are_not_interrupted_on_shutdown():
    """jupyter_client sends SIGINT before its shutdown request; a kernel still handling a message
    then prints "KeyboardInterrupt caught in kernel." into the user's terminal. A chapter's
    kernel is shut down after its last cell, so the manager skips that interrupt, and only that
    one: an interrupt outside a shutdown still reaches jupyter_client (which, with no kernel
    running, refuses it)."""
    import asyncio

    manager = kernel.IpcKernelManager()
    manager.shutting_down = True
    assert asyncio.run(manager._async_interrupt_kernel()) is None
    manager.shutting_down = False
    with pytest.raises(RuntimeError, match="No kernel is running"):
        asyncio.run(manager._async_interrupt_kernel())


def test_the_private_interrupt_that_the_kernel_manager_overrides_still_exists():
    """compsem.kernel.IpcKernelManager overrides jupyter_client's private
    ``AsyncKernelManager._async_interrupt_kernel``, which ``shutdown_kernel`` calls before its
    shutdown request (there is no public way to skip that interrupt). A jupyter_client that
    renames the method, or no longer calls it there, fails here instead of quietly bringing
    back "KeyboardInterrupt caught in kernel." (pyproject.toml pins jupyter-client < 9)."""
    import inspect

    from jupyter_client.manager import AsyncKernelManager

    assert inspect.iscoroutinefunction(AsyncKernelManager._async_interrupt_kernel)
    assert "self._async_interrupt_kernel()" in inspect.getsource(AsyncKernelManager.shutdown_kernel)
    assert "shutting_down" in inspect.getsource(AsyncKernelManager.shutdown_kernel)
    assert kernel.IpcKernelManager._async_interrupt_kernel is not (
        AsyncKernelManager._async_interrupt_kernel)


SECTIONED = """\
# %% [markdown]
# # A chapter in sections
#
# ## Findings

# %% tags=["parameters"]
n = 2

# %%
from compsem.report import glue

glue("n", n)

# %% [markdown]
# ## Results
# Not a heading: ### a subsection stays in Results.

# %%
glue("twice", 2 * n)

# %% [markdown]
# ### A subsection

# %%
glue("thrice", 3 * n)
"""


def test_section_titles_follow_level_one_and_two_headings():
    import jupytext

    notebook = jupytext.reads(SECTIONED, fmt="py:percent")
    titles = run.section_titles(notebook)
    assert [titles.get(i) for i in range(len(notebook.cells))] == [
        None, "Findings", "Findings", None, "Results", None, "Results"]


def test_sections_progress_prints_a_line_per_section(project, capsys):
    (project / "notebooks" / "sections.py").write_text(SECTIONED)
    (project / "notebooks" / "params" / "sections.default.yaml").write_text("")
    (project / "notebooks" / "params" / "sections.schema.yaml").write_text(
        "n: {type: int, min: 1}\n")
    out = run.execute("sections", "default", output_dir=project / "book", progress="sections")
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("[compsem] sections:")]
    assert [ln.split(" (")[0] for ln in lines] == [
        "[compsem] sections: Findings", "[compsem] sections: Results"]
    assert "(1/2, " in lines[0] and "(2/2, " in lines[1]
    assert read_glued(nbformat.read(out, as_version=4)) == {"n": 2, "twice": 4, "thrice": 6}


# --- issue 44, case 3: an executed notebook edited by hand is neither fresh nor published ---

def _edit_glued_value(path, key: str, value: float) -> None:
    """Change a glued number in the notebook file, as a hand edit would (JSON, not nbformat)."""
    import json

    document = json.loads(path.read_text())
    for cell in document["cells"]:
        for output in cell.get("outputs", []):
            if output.get("metadata", {}).get("scrapbook", {}).get("name") == key:
                output["data"]["application/papermill.record/text/plain"] = repr(value)
    path.write_text(json.dumps(document))


def test_a_glued_value_edited_after_the_run_is_caught(project, monkeypatch, capsys):
    from compsem import cli, findings_page

    book = project / "book"
    out = run.execute("tiny", "default", output_dir=book, progress=False)
    assert provenance.staleness(out) == [] and read_glued(out) == {"total": 4.5}
    digest = nbformat.read(out, as_version=4).metadata["compsem"]["outputs_sha256"]
    assert len(digest) == 64
    _edit_glued_value(out, "total", 0.9)
    assert read_glued(out) == {"total": 0.9}
    assert any("outputs were changed after it was executed" in p for p in provenance.staleness(out))
    monkeypatch.setattr(paths, "BOOK_DIR", book)
    with pytest.raises(CompsemError, match="its outputs are not those its run recorded"):
        findings_page.glued_by_chapter()
    monkeypatch.setattr(parameters, "chapters", lambda: ["tiny"])
    assert cli.main(["check"]) == 1
    assert "outputs were changed" in capsys.readouterr().out
    assert cli.main(["findings", "--check"]) == 2
    err = capsys.readouterr().err
    assert "tiny.ipynb: its outputs are not those its run recorded" in err
    assert "Traceback" not in err


def test_a_notebook_without_an_outputs_digest_is_stale(project):
    out = run.execute("tiny", "default", output_dir=project / "book", progress=False)
    notebook = nbformat.read(out, as_version=4)
    del notebook.metadata["compsem"]["outputs_sha256"]
    nbformat.write(notebook, out)
    assert any("records no digest of its outputs" in p for p in provenance.staleness(out))


# --- issue 44, case 13: an interrupted `compsem run` is one line, not a traceback ---

@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_an_interrupted_run_is_one_line_and_keeps_the_book(project, monkeypatch, capsys,
                                                           signal_name):
    import signal
    import time

    from compsem import cli

    monkeypatch.setattr(paths, "BOOK_DIR", project / "book")
    good = run.execute("tiny", "default", output_dir=project / "book", progress=False)
    before = good.read_bytes()

    def interrupted(*args, **kwargs):  # the signal arrives while the chapter runs
        os.kill(os.getpid(), getattr(signal, signal_name))
        time.sleep(5)
        pytest.fail("the signal did not interrupt the run")

    monkeypatch.setattr(run, "_execute", interrupted)
    assert cli.main(["run", "tiny", "-q"]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "compsem: interrupted" in err and "as it was" in err
    assert good.read_bytes() == before


def test_a_changed_claim_target_or_result_makes_a_notebook_stale(project, tmp_path, monkeypatch):
    """The chapter's claims, its targets file (by study prefix) and its result files are
    recorded by digest; editing any of them, or a notebook recorded without them, is stale."""
    from compsem import claims

    data = tmp_path / "data"
    (data / "targets").mkdir(parents=True)
    (data / "results" / "tiny-chapter" / "run1").mkdir(parents=True)
    monkeypatch.setattr(paths, "PROJECT_DATA_DIR", data)
    monkeypatch.setattr(paths, "TARGETS_DIR", data / "targets")
    (data / "targets" / "tiny.json").write_text("{}")
    (data / "targets" / "tin.json").write_text("{}")  # a prefix, but not of a study name
    (data / "results" / "tiny-chapter" / "run1" / "metrics.json").write_text("{}")
    ledger = ["first"]
    monkeypatch.setattr(claims, "chapter_entries", lambda chapter: [
        {"id": "c1", "chapter": chapter, "claim": ledger[0]}])
    before = provenance.data_digests("tiny-chapter")
    assert sorted(before) == ["claims", "results", "targets/tiny.json"]
    ledger[0] = "edited"
    assert provenance.data_digests("tiny-chapter")["claims"] != before["claims"]
    ledger[0] = "first"
    (data / "targets" / "tiny.json").write_text('{"x": {"paper": 1}}')
    assert provenance.data_digests("tiny-chapter")["targets/tiny.json"] != before["targets/tiny.json"]
    (data / "results" / "tiny-chapter" / "run2").mkdir()
    (data / "results" / "tiny-chapter" / "run2" / "metrics.json").write_text("{}")
    assert provenance.data_digests("tiny-chapter")["results"] != before["results"]

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["compsem"] = {
        "chapter": "tiny", "profile": "default", "parameters": {},
        "source_sha256": sha256_of(project / "notebooks" / "tiny.py"), "modules": {},
        "data": provenance.data_digests("tiny")}
    notebook.metadata["compsem"]["outputs_sha256"] = report.outputs_digest(notebook)
    path = tmp_path / "tiny.ipynb"
    nbformat.write(notebook, path)
    assert provenance.staleness(path) == []
    (data / "targets" / "tiny.json").write_text('{"x": {"paper": 2}}')
    assert any("data/targets/tiny.json changed since it was executed" in p
               for p in provenance.staleness(path))
    del notebook.metadata["compsem"]["data"]
    nbformat.write(notebook, path)
    assert any("records no digests of its data" in p for p in provenance.staleness(path))

    def broken(chapter):
        raise claims.ClaimError("tiny.yaml: not valid YAML")

    monkeypatch.setattr(claims, "chapter_entries", broken)  # a digest, not a crash of `check`
    assert provenance.data_digests("tiny-chapter")["claims"] != before["claims"]


def test_chapter_entries_are_the_ledgers_entries_as_written():
    from compsem import claims

    entries = claims.chapter_entries("cogs-models")
    assert entries and all(e["chapter"] == "cogs-models" for e in entries)
    assert [e["id"] for e in entries] == [c.id for c in claims.for_chapter("cogs-models")]


def test_glue_references_that_a_run_did_not_compute_are_listed():
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(
            "ours {glue:text}`total:.2f`, {glue}`ratio` and {glue:text}`other::key`;\n"
            "```{glue} table_b\n```\n"
            "again {glue:text}`ratio:.1%`"),
        nbformat.v4.new_code_cell(outputs=[nbformat.v4.new_output(
            "display_data", data={"text/plain": "4.5"},
            metadata={"scrapbook": {"name": "total"}})]),
    ])
    assert run.unresolved_glue_references(notebook) == ["ratio", "table_b"]


@pytest.mark.parametrize("chapter", sorted(p.stem for p in paths.BOOK_DIR.glob("*.ipynb")))
def test_every_glue_reference_of_the_committed_book_resolves(chapter):
    notebook = nbformat.read(paths.BOOK_DIR / f"{chapter}.ipynb", as_version=4)
    assert run.unresolved_glue_references(notebook) == []
