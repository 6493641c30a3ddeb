"""The book's "Findings at a glance" page, built from the committed executed notebooks.

``compsem findings`` (run by ``make html`` before the book is rendered) reads the glued values of
every ``book/<chapter>.ipynb``, evaluates every claim of ``data/claims/`` on them and writes
``book/findings.md``: no number on that page is typed. ``tests/test_claims.py`` checks that the
committed page is what the committed notebooks give.
"""

from __future__ import annotations

from pathlib import Path

from compsem import claims, paths, report
from compsem.errors import CompsemError

PAGE = paths.BOOK_DIR / "findings.md"
STUDY_TITLES = {
    "sts3k": "STS3k (Fodor, De Deyne & Suzuki 2025)",
    "modifiers": "Modifier consistency (Carvalho et al. 2022, 2025)",
    "cogs": "COGS (Kim 2021, Chapter 4)",
    "cogs-auxiliary": "COGS: auxiliary objectives (Kim 2021, Chapter 5)",
    "probing": "Probing composition (Ettinger et al. 2016, 2018)",
}
STUDY_ORDER = ("sts3k", "modifiers", "cogs", "cogs-auxiliary", "probing")


def glued_by_chapter(book_dir: Path | None = None) -> dict[str, dict[str, float]]:
    """The numbers glued in each committed executed notebook of ``book_dir`` (default
    ``paths.BOOK_DIR``), by chapter."""
    book_dir = paths.BOOK_DIR if book_dir is None else book_dir
    return {nb.stem: _glued(nb) for nb in sorted(book_dir.glob("*.ipynb"))}


def _glued(notebook: Path) -> dict[str, float]:
    """The numbers glued in one executed notebook; a CompsemError naming the file and the fix
    when it cannot be read (truncated, not JSON, not a notebook) or its outputs differ from the
    digest its run recorded (:func:`compsem.report.outputs_changed`: edited by hand)."""
    import nbformat

    try:
        executed = nbformat.read(notebook, as_version=4)
        values = report.read_glued(executed)
        changed = report.outputs_changed(executed)
    except (OSError, ValueError, KeyError, TypeError, AttributeError,
            nbformat.ValidationError) as error:
        problem = " ".join(str(error).split())[:160]
        raise CompsemError(
            f"{notebook}: cannot read this executed notebook ({type(error).__name__}: {problem}); "
            f"re-execute it with `compsem run {notebook.stem}`") from None
    if changed:
        raise CompsemError(
            f"{notebook}: its outputs are not those its run recorded (changed after it was "
            "executed, or executed by an older compsem); its numbers are not published: "
            f"re-execute it with `compsem run {notebook.stem}`")
    return values


def render(values_by_chapter: dict[str, dict[str, float]]) -> str:
    """The page's MyST Markdown: one section per study, a headline and its claims table."""
    all_rows = []
    sections = []
    studies = [s for s in STUDY_ORDER if (claims.CLAIMS_DIR / f"{s}.yaml").exists()]
    studies += [f.stem for f in claims.ledger_files() if f.stem not in studies]
    for study in studies:
        study_claims = list(claims.load(study))
        rows = claims.table(study_claims, values_by_chapter)
        for row in rows:  # links from this page go to the chapter's page
            row["link"] = f"{row['chapter']}.html{row['link']}"
        all_rows += rows
        sections.append(
            f"## {STUDY_TITLES.get(study, study)}\n\n{claims.summary(rows)}.\n\n"
            f"```{{raw}} html\n{claims.html_table(rows, show_chapter=True)}\n```\n"
        )
    head = (
        "# Findings at a glance\n\n"
        "Every claim of the four studies that this book checks, with the paper's number or "
        "statement, ours, and the verdict our numbers give. The page is generated from the "
        "committed executed chapters (`compsem findings`, run by `make html`) and the claims "
        "ledger in `data/claims/`; each claim links to the section that shows it. A claim that "
        "*fails* is a finding: our numbers contradict the paper, and the chapter says why.\n\n"
        f"**Overall: {claims.summary(all_rows)}.**\n\n"
    )
    return head + "\n".join(sections)


def write(page: Path = PAGE) -> Path:
    """Write the page from the committed notebooks (atomically) and return its path."""
    text = render(glued_by_chapter())
    tmp = page.with_name(f".{page.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(page)
    return page
