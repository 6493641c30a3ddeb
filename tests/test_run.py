"""The chapter runner: parameter validation, provenance, failure safety, freshness."""

from __future__ import annotations

import nbformat
import pytest

from compsem import paths, run
from compsem.report import read_glued

CHAPTER = """\
# %% [markdown]
# # A tiny chapter

# %% tags=["parameters"]
n = 3
scale = 1.5
label = "x"
fail = False

# %%
from compsem.report import glue

total = n * scale
glue("total", total)
if fail:
    raise RuntimeError("asked to fail")
print(label, total)
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    notebooks = tmp_path / "notebooks"
    (notebooks / "params").mkdir(parents=True)
    (notebooks / "tiny.py").write_text(CHAPTER)
    (notebooks / "params" / "tiny.smoke.yaml").write_text("n: 2\n")
    (notebooks / "params" / "tiny.default.yaml").write_text("")
    monkeypatch.setattr(paths, "NOTEBOOKS_DIR", notebooks)
    monkeypatch.setattr(paths, "PARAMS_DIR", notebooks / "params")
    monkeypatch.setattr(paths, "PROJECT_DIR", tmp_path)
    return tmp_path


def test_defaults_and_profiles(project):
    assert run.default_parameters("tiny") == {"n": 3, "scale": 1.5, "label": "x", "fail": False}
    assert run.resolve_parameters("tiny", "smoke") == {"n": 2}
    assert run.resolve_parameters("tiny", "default", {"n": "200", "scale": "2"}) == {"n": 200, "scale": 2.0}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [({"n_split": "2"}, "unknown parameter 'n_split'"),
     ({"n": "many"}, "must be int"),
     ({"n": "2.5"}, "must be int"),
     ({"fail": "1"}, "must be bool")],
)
def test_bad_parameters_fail_fast(project, overrides, message):
    with pytest.raises(run.ParameterError, match=message):
        run.resolve_parameters("tiny", "default", overrides)


def test_bad_profile_and_chapter(project):
    with pytest.raises(run.ParameterError, match="unknown profile"):
        run.resolve_parameters("tiny", "huge")
    with pytest.raises(run.ParameterError, match="no parameter file"):
        run.resolve_parameters("tiny", "full")
    with pytest.raises(run.ParameterError, match="no chapter 'tinny'"):
        run.resolve_parameters("tinny", "default")


def test_execute_records_provenance_and_never_overwrites_on_failure(project):
    out_dir = project / "book"
    out = run.execute("tiny", "default", {"n": "4"}, output_dir=out_dir, progress=False)
    notebook = nbformat.read(out, as_version=4)
    meta = notebook.metadata["compsem"]
    assert meta["profile"] == "default" and meta["parameters"] == {"n": 4}
    assert meta["source_sha256"] == run.sha256_file(project / "notebooks" / "tiny.py")
    assert "compsem.report" in meta["modules"] and "compsem.run" not in meta["modules"]
    assert meta["packages"]["python"] and meta["wall_time_s"] >= 0
    assert read_glued(notebook) == {"total": 6.0}
    assert not any("compsem-provenance" in c.metadata.get("tags", []) for c in notebook.cells)
    assert run.staleness(out) == []

    before = out.read_bytes()
    with pytest.raises(run.ChapterFailed, match="untouched"):
        run.execute("tiny", "default", {"fail": "true"}, output_dir=out_dir, progress=False)
    assert out.read_bytes() == before
    assert (project / "_build" / "failed" / "tiny.ipynb").exists()

    (project / "notebooks" / "tiny.py").write_text(CHAPTER.replace("n = 3", "n = 5"))
    assert any("changed since it was executed" in p for p in run.staleness(out))


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
