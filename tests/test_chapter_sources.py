"""A chapter source is narrative plus calls into the library: no function or class is defined
in a chapter, and its code cells stay short (loops, metrics, figures and tables live in
``compsem``)."""

from __future__ import annotations

import re

import pytest

from compsem import paths

MAX_CODE_LINES = 250
"""Non-blank, non-comment lines of a chapter's code cells (jupytext percent format)."""

SOURCES = sorted((paths.PROJECT_DIR / "notebooks").glob("*.py"))


def code_lines(text: str) -> list[str]:
    """The non-blank, non-comment lines of the code cells of a percent-format source."""
    lines = []
    for cell in re.split(r"^# %%", text, flags=re.M)[1:]:
        head, _, body = cell.partition("\n")
        if "[markdown]" not in head:
            lines += [line for line in body.splitlines() if line.strip() and not line.strip().startswith("#")]
    return lines


def test_code_lines_count_code_cells_only():
    text = "# %% [markdown]\n# prose\nx = 1\n# %%\n# a comment\n\nx = 1\ny = 2\n"
    assert code_lines(text) == ["x = 1", "y = 2"]


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_a_chapter_is_narrative_over_the_library(source):
    lines = code_lines(source.read_text(encoding="utf-8"))
    defined = [line for line in lines if re.match(r"\s*(async\s+def|def|class)\s", line)]
    assert not defined, f"{source.name} defines {defined}: move it into compsem"
    assert len(lines) <= MAX_CODE_LINES, (
        f"{source.name} has {len(lines)} code lines (at most {MAX_CODE_LINES}): move loops, tables and "
        f"figures into compsem.<study>.chapter")
    assert len(SOURCES) >= 10


def figure_names(text: str) -> list[str]:
    """The ``name`` of every captioned figure of a percent-format source (its cell metadata)."""
    return re.findall(r'^# %%.*?"name":\s*"([^"]+)"', text, flags=re.M)


def test_figure_names_are_found():
    text = '# %% mystnb={"figure": {"caption": "C", "name": "fig-a-b"}}\nplot()\n# %%\nx = 1\n'
    assert figure_names(text) == ["fig-a-b"]


def test_figure_names_carry_their_chapter_and_are_unique():
    """A figure's name is a label of the whole book: ``fig-<chapter>-...``, so that a forked
    chapter whose names were not renamed fails here, not at the next strict book build
    (duplicate labels)."""
    seen: dict[str, str] = {}
    for source in SOURCES:
        for name in figure_names(source.read_text(encoding="utf-8")):
            assert name.startswith(f"fig-{source.stem}-"), (
                f"{source.name}: figure name {name!r} must start with 'fig-{source.stem}-'")
            assert name not in seen, f"figure name {name!r} is in {seen.get(name)} and {source.name}"
            seen[name] = source.name
    assert len(seen) >= 10
