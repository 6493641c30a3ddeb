"""The book's "Findings at a glance" page, built from the committed executed notebooks.

``compsem findings`` (run by ``make html`` before the book is rendered) reads the glued values of
every ``book/<chapter>.ipynb``, evaluates every claim of ``data/claims/`` on them and writes
``book/findings.md``: no number on that page is typed. ``tests/test_claims.py`` checks that the
committed page is what the committed notebooks give.
"""

from __future__ import annotations

from pathlib import Path

from compsem import claims, paths, report

PAGE = paths.BOOK_DIR / "findings.md"
STUDY_TITLES = {
    "sts3k": "STS3k (Fodor, De Deyne & Suzuki 2025)",
    "modifiers": "Modifier consistency (Carvalho et al. 2022, 2025)",
    "cogs": "COGS (Kim 2021, Chapter 4)",
    "cogs-auxiliary": "COGS: auxiliary objectives (Kim 2021, Chapter 5)",
    "probing": "Probing composition (Ettinger et al. 2016, 2018)",
}
STUDY_ORDER = ("sts3k", "modifiers", "cogs", "cogs-auxiliary", "probing")


def glued_by_chapter(book_dir: Path = paths.BOOK_DIR) -> dict[str, dict[str, float]]:
    """The numbers glued in each committed executed notebook, by chapter."""
    return {nb.stem: report.read_glued(nb) for nb in sorted(book_dir.glob("*.ipynb"))}


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
