"""The book's "Findings at a glance" page, built from the committed executed notebooks.

``compsem findings`` (run by ``make html`` before the book is rendered) reads the glued values of
every ``book/<chapter>.ipynb``, evaluates every claim of ``data/claims/`` on them and writes
``book/findings.md``: no number on that page is typed. It also writes README's block of what the
book finds (:func:`readme_findings`: the same counts and the contradicted claims).
``tests/test_claims.py`` checks that the committed page and block are what the committed
notebooks give.
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
    "synthesis": "Synthesis across the studies",
}
STUDY_ORDER = ("sts3k", "modifiers", "cogs", "cogs-auxiliary", "probing", "synthesis")


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


def counts_table(by_study: dict[str, list[dict]]) -> str:
    """Per study, how many claims fall in each class of :data:`compsem.claims.OUTCOMES` (a
    Markdown table; classes no claim falls in are left out, the total is the last row)."""
    every = [row for rows in by_study.values() for row in rows]
    classes = [name for name, n in claims.outcome_counts(every).items() if n]
    lines = ["| study | claims | " + " | ".join(classes) + " |",
             "|---|" + "---:|" * (len(classes) + 1)]
    for study, rows in [*by_study.items(), ("all studies", every)]:
        counts = claims.outcome_counts(rows)
        name = STUDY_TITLES.get(study, study)
        if study == "all studies":
            name = f"**{name}**"
        lines.append(f"| {name} | {len(rows)} | "
                     + " | ".join(str(counts[c]) for c in classes) + " |")
    return "\n".join(lines)


def rows_by_study(values_by_chapter: dict[str, dict[str, float]]) -> dict[str, list[dict]]:
    """Every claim's row (:func:`compsem.claims.table`) by study, in :data:`STUDY_ORDER`; each
    row's ``link`` goes to its section of the chapter's page (``<chapter>.html#<anchor>``)."""
    out: dict[str, list[dict]] = {}
    studies = [s for s in STUDY_ORDER if (claims.CLAIMS_DIR / f"{s}.yaml").exists()]
    studies += [f.stem for f in claims.ledger_files() if f.stem not in studies]
    for study in studies:
        rows = claims.table(list(claims.load(study)), values_by_chapter)
        for row in rows:
            row["link"] = f"{row['chapter']}.html{row['link']}"
        out[study] = rows
    return out


def _contradicted(by_study: dict[str, list[dict]], kind: str) -> list[dict]:
    """The contradicted claims whose ``contradiction`` is ``kind`` (:data:`claims.CONTRADICTIONS`)."""
    return [row for rows in by_study.values() for row in rows
            if row["outcome"] == "contradicted" and row["contradiction"] == kind]


CONTRADICTION_TEXTS = {
    "result": ("Results of the papers that our numbers contradict",
               "What a paper finds, tested as it did, that our numbers contradict; each chapter says why.",
               "Results of the papers that our numbers contradict, each discussed in its chapter:"),
    "erratum": ("Errata",
                "Numbers and descriptions the papers print that their own data, files or code do not "
                "give; what the papers conclude from them stands unless the chapter says otherwise.",
                "Errata: numbers and descriptions the papers print that their own data, files or code do "
                "not give:"),
    "unclassified": ("Contradictions not yet classified",
                     "Claims that this run contradicts though their ledger entry does not expect it, so "
                     "it does not say whether a result or an erratum is contradicted.",
                     "Contradictions not yet classified (failing without being expected to):"),
}
"""The lists of contradicted claims, by :data:`claims.CONTRADICTIONS` and ``unclassified`` (an
unexpected failure): the findings page's heading and lead, and the README's introduction."""


def _contradiction_lists(by_study: dict[str, list[dict]]):
    """``(texts, rows)`` per kind of :data:`CONTRADICTION_TEXTS`, in its order; the unclassified
    list only when there is one."""
    for kind, texts in CONTRADICTION_TEXTS.items():
        rows = _contradicted(by_study, kind)
        if rows or kind != "unclassified":
            yield texts, rows


def render(values_by_chapter: dict[str, dict[str, float]]) -> str:
    """The page's MyST Markdown: the counts by class per study and the contradictions of the
    papers first (one screen), then one section per study with its claims table."""
    return _page(rows_by_study(values_by_chapter))


def _page(by_study: dict[str, list[dict]]) -> str:
    head = (
        "# Findings at a glance\n\n"
        "Every claim of the four studies that this book checks, with the paper's number or "
        "statement, ours, and the verdict our numbers give by a rule declared from the paper "
        "(`data/claims/README.md`). A verdict is *holds*, *fails* or *inconclusive*; what it "
        "means for the paper depends on the evidence: a claim tested as the paper did is "
        "*reproduced*, *contradicted* or, undecided, *inconclusive*; one tested with a stand-in "
        "(another model, a reduced run) counts as *substitute only*, and our own questions as "
        "*extension*, whatever their verdict (each claim's verdict is in the tables below); "
        "*not testable* claims need a model, data or a run this book does not have. The page is generated from the committed executed chapters (`compsem findings`, "
        "run by `make html`); each claim links to the section that shows it.\n\n"
        f"{counts_table(by_study)}\n\n"
        "## Contradictions of the papers\n\n"
    )
    for (heading, lead, _), rows in _contradiction_lists(by_study):
        head += f"### {heading}\n\n"
        head += (f"{lead}\n\n```{{raw}} html\n{claims.html_table(rows, show_chapter=True)}\n```\n\n" if rows
                 else "None.\n\n")
    sections = [
        f"## {STUDY_TITLES.get(study, study)}\n\n{claims.summary(rows)}.\n\n"
        f"```{{raw}} html\n{claims.html_table(rows, show_chapter=True)}\n```\n"
        for study, rows in by_study.items()]
    return head + "\n".join(sections)


README = paths.PROJECT_DIR / "README.md"
README_START = "<!-- findings: written by `compsem findings` from the executed chapters; do not edit -->"
README_END = "<!-- end of the findings -->"
BOOK_URL = "https://compsem.github.io/compsem/book/"
"""Where the rendered chapters are published (README's links go there)."""


def readme_findings(values_by_chapter: dict[str, dict[str, float]]) -> str:
    """README's block of what the book finds, between :data:`README_START` and
    :data:`README_END`: the counts by class per study (as on the findings page) and the list of
    the claims our numbers contradict, each linked to its section of the rendered chapter."""
    return _readme_block(rows_by_study(values_by_chapter))


def _readme_block(by_study: dict[str, list[dict]]) -> str:
    lines = [README_START, "", counts_table(by_study)]
    for (_, _, intro), rows in _contradiction_lists(by_study):
        lines += ["", intro, ""]
        lines += [f"- {row['claim']} ([{row['chapter']}]({BOOK_URL}{row['link']}))" for row in rows] or ["- none"]
    return "\n".join([*lines, "", README_END])


def with_readme_findings(readme: str, block: str) -> str:
    """``readme`` with its findings block replaced by ``block``; a CompsemError when the markers
    are missing or out of order."""
    start, end = readme.find(README_START), readme.find(README_END)
    if start < 0 or end < start:
        raise CompsemError(f"{README}: the findings block needs the lines {README_START!r} and "
                           f"{README_END!r}, in that order; put them back where the findings go")
    return readme[:start] + block + readme[end + len(README_END):]


def fresh_texts() -> dict[Path, str]:
    """What ``compsem findings`` writes, from the committed notebooks (every claim judged once):
    the page, and README with its findings block."""
    by_study = rows_by_study(glued_by_chapter())
    readme = README.read_text(encoding="utf-8")
    return {PAGE: _page(by_study), README: with_readme_findings(readme, _readme_block(by_study))}


def write() -> list[Path]:
    """Write :func:`fresh_texts` (each file atomically) and return their paths."""
    texts = fresh_texts()
    for path, text in texts.items():
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return list(texts)
