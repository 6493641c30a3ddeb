"""Binder: make the smoke profile the default of the chapter notebooks in ``book/``.

The executed notebooks in ``book/`` carry the parameters of the profile they were run with
(``default``): papermill's ``injected-parameters`` cell after the chapter's ``parameters`` cell,
absent when that profile changes nothing. A reader who opens a chapter on Binder and runs it
should get the minutes-long ``smoke`` profile (``notebooks/params/<chapter>.smoke.yaml``), so
binder/postBuild runs this script once in the image: each notebook's injected cell is replaced
by (or, absent, inserted as) a cell assigning the smoke values, as ``compsem run CHAPTER
--profile smoke`` would inject them. The outputs stay the book's until the notebook is run.
Only the image's copy changes; the repository's notebooks are never rewritten by Binder.

    python binder/smoke_parameters.py [BOOK_DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from compsem import paths, run

PROFILE = "smoke"


def parameters_source(chapter: str, shown_profile: str) -> str:
    """The injected cell's source: the smoke values, as Python assignments."""
    values = run.resolve_parameters(chapter, PROFILE)
    lines = [
        "# Parameters",
        f"# Binder: the {PROFILE} profile (notebooks/params/{chapter}.{PROFILE}.yaml).",
        f"# The outputs shown are the book's ({shown_profile} profile) until the notebook is run;",
        f"# `compsem run {chapter} --profile default` runs the book's profile.",
    ]
    lines += [f"{name} = {value!r}" for name, value in values.items()]
    return "\n".join(lines) + "\n"


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def apply(chapter: str, book_dir: Path = paths.BOOK_DIR) -> Path:
    """Rewrite ``book_dir/<chapter>.ipynb`` so that running it uses the smoke profile."""
    path = Path(book_dir) / f"{chapter}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    shown = notebook.metadata.get("compsem", {}).get("profile", "default")
    notebook.cells = [c for c in notebook.cells if "injected-parameters" not in _tags(c)]
    marked = [i for i, c in enumerate(notebook.cells) if "parameters" in _tags(c)]
    if len(marked) != 1:
        raise SystemExit(f"{path}: expected one cell tagged 'parameters', found {len(marked)}")
    cell = nbformat.v4.new_code_cell(parameters_source(chapter, shown))
    cell.metadata["tags"] = ["injected-parameters"]
    notebook.cells.insert(marked[0] + 1, cell)
    nbformat.write(notebook, path)
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    book_dir = Path(argv[0]) if argv else paths.BOOK_DIR
    for chapter in run.chapters():
        print(f"[binder] {apply(chapter, book_dir)}: {PROFILE} profile")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
