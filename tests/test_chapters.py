"""Every chapter: a papermill smoke run, and the committed executed notebook is fresh.

The smoke run executes the chapter source with its ``smoke`` profile into a temporary folder
(book/ is never touched) and checks that what it glues is a non-empty subset of what the
committed notebook glues (a smoke profile may run fewer models or datasets), all finite. Freshness: the committed notebook was executed from the current source and the
current versions of every compsem module it imported (``compsem check``).
"""

from __future__ import annotations

import math
import re

import pytest
import yaml

from compsem import parameters, paths, provenance, run
from compsem.report import read_glued

CHAPTERS = parameters.chapters()


def test_there_are_chapters():
    assert "sts3k-data" in CHAPTERS


def _toc_files() -> set[str]:
    toc = yaml.safe_load((paths.PROJECT_DIR / "_toc.yml").read_text())
    files = set()
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            files.add(chapter["file"])
    return files


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_is_complete(chapter):
    """A source, smoke/default parameter files, a committed executed notebook, a toc entry."""
    for profile in ("smoke", "default"):
        parameters.resolve_parameters(chapter, profile)  # raises on unknown names or bad values
    assert (paths.BOOK_DIR / f"{chapter}.ipynb").exists(), f"run `make run CHAPTER={chapter}`"
    assert f"book/{chapter}" in _toc_files()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_committed_notebook_is_fresh(chapter):
    executed = paths.BOOK_DIR / f"{chapter}.ipynb"
    assert provenance.staleness(executed) == []


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_committed_notebook_ran_the_default_profile(chapter):
    import nbformat

    meta = nbformat.read(paths.BOOK_DIR / f"{chapter}.ipynb", as_version=4).metadata["compsem"]
    assert meta["profile"] in ("default", "full")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_committed_notebook_shows_no_errors_or_stderr(chapter):
    """What the book renders: no error output, no warnings or progress bars on stderr."""
    import nbformat

    notebook = nbformat.read(paths.BOOK_DIR / f"{chapter}.ipynb", as_version=4)
    noisy = []
    for index, cell in enumerate(notebook.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" or output.get("name") == "stderr":
                noisy.append(f"cell {index}: {output.get('ename') or output.get('text', '')[:120]!r}")
    assert not noisy, noisy


@pytest.mark.slow
@pytest.mark.needs_data
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_smoke_run(chapter, tmp_path):
    out = run.execute(chapter, "smoke", output_dir=tmp_path, progress=False)
    smoke = read_glued(out)
    committed = read_glued(paths.BOOK_DIR / f"{chapter}.ipynb")
    # a union's size k may follow the run's parameters (_bonf<k>: the models or cells run)
    smoke_keys, committed_keys = ({re.sub(r"_bonf\d+", "_bonf<k>", key) for key in keys}
                                  for keys in (smoke, committed))
    assert smoke and smoke_keys <= committed_keys, sorted(smoke_keys - committed_keys)
    assert all(math.isfinite(v) for v in smoke.values())
