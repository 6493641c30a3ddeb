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

from compsem import parameters, paths

PROFILE = "smoke"


def apply(chapter: str, book_dir: Path = paths.BOOK_DIR) -> Path:
    """Rewrite ``book_dir/<chapter>.ipynb`` so that running it uses the smoke profile: papermill's
    own parameter injection (the one ``compsem run`` uses), which replaces the injected cell."""
    from papermill.parameterize import parameterize_notebook

    path = Path(book_dir) / f"{chapter}.ipynb"
    notebook = nbformat.read(path, as_version=4)
    marked = [c for c in notebook.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(marked) != 1:
        raise SystemExit(f"{path}: expected one cell tagged 'parameters', found {len(marked)}")
    shown = notebook.metadata.get("compsem", {}).get("profile", "default")
    comment = (f"Parameters of the {PROFILE} profile (notebooks/params/{chapter}.{PROFILE}.yaml); "
               f"the outputs shown are the book's ({shown} profile) until the notebook is run")
    notebook = parameterize_notebook(notebook, parameters.resolve_parameters(chapter, PROFILE),
                                     comment=comment)
    nbformat.write(notebook, path)
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    book_dir = Path(argv[0]) if argv else paths.BOOK_DIR
    for chapter in parameters.chapters():
        print(f"[binder] {apply(chapter, book_dir)}: {PROFILE} profile")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
