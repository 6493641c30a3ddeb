"""Paper-vs-ours tables, glue helpers and the one plotting theme of the book.

The paper's numbers are the targets of ``data/targets/<study>.json`` (read and validated by
:mod:`compsem.targets`). A chapter computes the same quantity, glues it under the same key with
:func:`glue` and shows :func:`compare`'s table; ``tests/test_targets.py`` checks every glued value
of the committed notebooks against its target.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd

from compsem import paths
from compsem.targets import STATUSES, load_targets  # noqa: F401 (the chapters' import)


def slug(name: str) -> str:
    """A target-key fragment from a display name: ``'Single change (verb)'`` ->
    ``'single_change_verb'``, ``'add IOBJ'`` -> ``'add_iobj'``."""
    return "_".join("".join(c if c.isalnum() else " " for c in name.lower()).split())


def verdict(ours: float, target: Mapping) -> str:
    """``"match"`` when |ours - paper| <= tol, else ``"differs"``; a target with status
    substitute or not-run is reported by that status, a *partial* or *fitted* one with the
    status as a suffix, e.g. ``"match (partial)"`` or ``"differs (fitted)"`` (held to its
    tolerance like any other)."""
    if target.get("status") in ("substitute", "not-run"):
        return target["status"]
    if ours is None or (isinstance(ours, float) and math.isnan(ours)):
        return "missing"
    close = abs(float(ours) - float(target["paper"])) <= float(target["tol"]) + 1e-12
    return _with_status("match" if close else "differs", target)


def _with_status(outcome: str, target: Mapping) -> str:
    """``outcome`` with the target's status as a suffix where it is partial or fitted."""
    status = target.get("status")
    return f"{outcome} ({status})" if status in ("partial", "fitted") else outcome


COMPARISON_COLUMNS = ["ours", "paper", "difference", "tolerance", "verdict", "source"]
"""The columns of :func:`compare`'s table (indexed by ``quantity``)."""


def compare(ours: Mapping[str, float], study: str, keys: list[str] | None = None,
            prefixes: str | tuple[str, ...] | None = None) -> pd.DataFrame:
    """Ours beside the paper's: one row per key with ours, paper, difference, tolerance, verdict
    and the paper's source (table, figure or section). The keys are ``keys``, or the keys of
    ``ours`` that have a target and start with one of ``prefixes`` (in the order of ``ours``),
    or every key of ``ours``; no key gives an empty table with the same columns."""
    targets = load_targets(study)
    if keys is not None and prefixes is not None:
        raise ValueError("compare: pass keys or prefixes, not both")
    if prefixes is not None:
        keys = [k for k in ours if k in targets and k.startswith(prefixes)]
    keys = list(ours) if keys is None else keys
    unknown = [k for k in keys if k not in targets]
    if unknown:
        raise KeyError(f"no target for {unknown} in data/targets/{study}.json")
    rows = []
    for key in keys:
        target = targets[key]
        value = ours.get(key, float("nan"))
        rows.append(
            {
                "quantity": key,
                "ours": value,
                "paper": target["paper"],
                "difference": value - target["paper"],
                "tolerance": target["tol"],
                "verdict": verdict(value, target),
                "source": target["source"],
            }
        )
    return pd.DataFrame(rows, columns=["quantity", *COMPARISON_COLUMNS]).set_index("quantity")


def _number(value) -> str:
    """Integers as integers, other numbers with 4 significant digits."""
    value = float(value)
    if math.isnan(value):
        return "–"
    if value.is_integer() and abs(value) >= 1:
        return f"{value:.0f}"
    return f"{value:.4g}"


def style_comparison(table: pd.DataFrame):
    """A pandas Styler of :func:`compare`'s table: compact numbers, verdicts coloured."""
    colours = {
        "match": "#1b7837",
        "differs": "#b2182b",
        "match (partial)": "#5aae61",
        "differs (partial)": "#d6604d",
        "match (fitted)": "#5aae61",
        "differs (fitted)": "#d6604d",
        "substitute": "#8c510a",
        "not-run": "#777777",
    }
    styler = table.style.format(
        {c: _number for c in ("ours", "paper", "difference", "tolerance") if c in table}
    ).map(lambda v: f"color: {colours.get(v, 'black')}; font-weight: bold", subset=["verdict"])
    if "source" in table:
        styler = styler.set_properties(subset=["source"], **{"font-size": "0.8em"})
    return styler


def expected_verdict(target: Mapping) -> str:
    """The verdict the test suite requires of a target: ``match``, or ``differs`` where the
    targets file says so (a known contradiction, explained in its ``reason``); partial targets
    carry the ``(partial)`` suffix, fitted ones ``(fitted)``; substitute and not-run ones their
    status."""
    if target.get("status") in ("substitute", "not-run"):
        return target["status"]
    return _with_status(target.get("expect", "match"), target)


def show_comparison(table: pd.DataFrame, what: str = "paper numbers"):
    """A long :func:`compare` table as one summary line (how many within tolerance, the largest
    difference; or, when no row is compared, that none is) with the full, styled table folded
    below it (an HTML ``<details>``)."""
    from IPython.display import HTML

    compared = table[table["verdict"].str.startswith(("match", "differs"))]
    met = int(compared["verdict"].str.startswith("match").sum())
    if len(compared):
        gaps = compared["difference"].abs()
        worst = gaps.idxmax()
        line = (f"<b>{met} of {len(compared)} {what} within tolerance</b>; largest difference "
                f"{_number(gaps.max())} ({worst})")
        others = len(table) - len(compared)
        if others:
            line += f"; {others} shown but not compared (substitute or not run here)"
    else:
        line = (f"<b>None of the {len(table)} {what} is compared within a tolerance</b>: each "
                f"is run here with a substitute (the Findings test the pattern) or not run here")
    return HTML(f"<p>{line}.</p>" + folded(style_comparison(table), f"Show the {len(table)} rows"))


def folded(table, summary: str) -> str:
    """A table (a DataFrame or a Styler) as HTML folded under a one-line ``summary`` (a
    ``<details>`` element)."""
    return f"<details><summary>{summary}</summary>{table.to_html()}</details>"


_GLUED: dict[str, float] = {}
"""Every number glued in this process, by key: the Findings of the chapter read them."""


def glue(key: str, value, display: bool = False):
    """Glue a plain Python number (myst_nb.glue) so the book can quote it and the tests read it.

    numpy scalars are converted to ``float``/``int`` first (numpy 2's repr breaks ``{glue:text}``
    format specs). Returns the plain value.
    """
    from myst_nb import glue as myst_glue

    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"glue {key!r}: expected a number, got {type(value).__name__}")
    myst_glue(key, value, display=display)
    _GLUED[key] = value
    return value


def glue_all(values: Mapping[str, float]) -> None:
    """:func:`glue` every item of a mapping."""
    for key, value in values.items():
        glue(key, value)


def glue_words(phrases: Mapping[str, str]) -> None:
    """Glue short phrases that a library function computed from numbers (e.g. "below chance"),
    each under its key, for the prose to quote with ``{glue:md}`key```: so that no sentence says
    by hand what the numbers show. Only numbers are read back (:func:`read_glued`)."""
    from IPython.display import Markdown
    from myst_nb import glue as myst_glue

    for key, phrase in phrases.items():
        if not isinstance(phrase, str):
            raise TypeError(f"glue_words {key!r}: expected a phrase, got {type(phrase).__name__}")
        myst_glue(key, Markdown(phrase), display=False)


def targets_summary(values: Mapping[str, float]) -> dict:
    """How the targets among ``values`` fare. ``compared``: every target held to its tolerance,
    those expected to differ (``expect: differs``, an erratum or a reinterpretation the targets
    file explains) included; ``met``: those within it, ``partial`` of them computed from part of
    the paper's runs (status partial); ``explained``: the expected differences, ``unexpected``:
    the other numbers outside their tolerance; the difference that comes closest to (or goes
    furthest past) its tolerance among the numbers expected to match; and apart from them, how
    many our reconstruction was fitted to (status fitted) and how many are shown only
    (substitute or not run)."""
    targets = {}
    for file in sorted(paths.TARGETS_DIR.glob("*.json")):
        targets.update(load_targets(file.stem))
    summary = {"compared": 0, "met": 0, "partial": 0, "explained": 0, "unexpected": 0, "fitted": 0,
               "shown": 0, "worst_key": None, "worst": 0.0, "worst_tol": 0.0}
    worst_ratio = -1.0
    for key in sorted(values):
        target = targets.get(key)
        if target is None:
            continue
        outcome = verdict(values[key], target)
        if outcome in ("substitute", "not-run"):
            summary["shown"] += 1
            continue
        if target.get("status") == "fitted":
            summary["fitted"] += 1
            continue
        summary["compared"] += 1
        met = outcome.startswith("match")
        summary["met"] += met
        summary["partial"] += met and target.get("status") == "partial"
        if target.get("expect") == "differs":
            summary["explained"] += not met
            continue
        summary["unexpected"] += not met
        gap = abs(float(values[key]) - float(target["paper"]))
        ratio = gap / float(target["tol"]) if float(target["tol"]) > 0 else math.inf * (gap > 0)
        if not math.isnan(gap) and ratio > worst_ratio:
            worst_ratio = ratio
            summary.update(worst_key=key, worst=gap, worst_tol=float(target["tol"]))
    return summary


def findings_headline(rows: list[dict], values: Mapping[str, float]) -> str:
    """One sentence from glued values: the claims' verdicts, then the published numbers within
    their tolerance out of all those compared (the expected differences in the count), how many of
    those met come from runs that follow the paper's protocol only in part (status partial), the
    differences, the fitted and the shown (or that none is compared)."""
    from compsem import claims

    sentence = claims.summary(rows) if rows else "No claims of the paper are checked here"
    numbers = targets_summary(values)
    if numbers["compared"]:
        sentence += (f"; {numbers['met']} of {numbers['compared']} published numbers compared (the "
                     f"paper's or its authors' files) are within tolerance")
        if numbers["partial"]:
            sentence += (f", {numbers['partial']} of them from runs that follow the paper's protocol "
                         f"only in part (each target says how)")
        if numbers["worst_key"]:
            sentence += (f" (largest against its tolerance, of those expected to match: "
                         f"`{numbers['worst_key']}`, difference {_number(numbers['worst'])} against "
                         f"{_number(numbers['worst_tol'])})")
    if numbers["explained"]:
        n = numbers["explained"]
        known = "a known difference" if n == 1 else "known differences"
        sentence += (f"; {n} {'differs' if n == 1 else 'differ'}, recorded as {known} "
                     f"(expect: differs) and explained in the chapter")
    if numbers["unexpected"]:
        n = numbers["unexpected"]
        sentence += f"; {n} {'differs' if n == 1 else 'differ'}, not recorded as a known difference"
    if numbers["fitted"]:
        n = numbers["fitted"]
        sentence += (f"; {n} more {'is a number' if n == 1 else 'are numbers'} the reconstruction was "
                     f"fitted to (a consistency check)")
    if not numbers["compared"] and not numbers["fitted"]:
        sentence += "; no published number is compared here"
    if numbers["shown"]:
        more = " more" if numbers["compared"] or numbers["fitted"] else ""
        noun = "number" if numbers["shown"] == 1 else "numbers"
        sentence += f"; {numbers['shown']}{more} published {noun} shown beside substitutes or marked not run"
    return sentence + "."


def glue_findings(chapter: str, values: Mapping[str, float] | None = None) -> None:
    """Evaluate the chapter's claims (``data/claims/``) on the numbers glued so far and glue the
    Findings: ``findings_table`` (HTML) and ``findings_headline`` (Markdown), which the chapter's
    Findings section pastes with ``{glue}`` and ``{glue:md}`` (nothing is displayed here)."""
    from IPython.display import HTML, Markdown
    from myst_nb import glue as myst_glue

    from compsem import claims

    values = dict(_GLUED if values is None else values)
    rows = claims.table(claims.for_chapter(chapter), {chapter: values})
    myst_glue("findings_table", HTML(claims.html_table(rows)), display=False)
    myst_glue("findings_headline", Markdown(findings_headline(rows, values)), display=False)


def set_theme() -> None:
    """The book's figure theme (:func:`compsem.plotting.use_book_theme`)."""
    from compsem.plotting import use_book_theme

    use_book_theme()


def read_glued(notebook) -> dict[str, float]:
    """The numbers glued in an executed notebook (a path or an nbformat node), by key.

    myst_nb stores a glued value as an output whose ``metadata.scrapbook.name`` is the key and
    whose data holds the repr under ``application/papermill.record/text/plain``.
    """
    import ast

    import nbformat

    if not hasattr(notebook, "cells"):
        notebook = nbformat.read(notebook, as_version=4)
    values = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            if not name:
                continue
            data = output.get("data", {})
            text = data.get("application/papermill.record/text/plain", data.get("text/plain"))
            if text is None:
                continue
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                continue  # a glued table or text (the Findings), not a number
            if isinstance(value, int | float) and not isinstance(value, bool):
                values[name] = value
    return values


def outputs_digest(notebook) -> str:
    """sha256 of what an executed notebook shows (an nbformat node): every cell's type, source
    and outputs in order (glued numbers, tables, figures, printed text), not the cell metadata.

    :func:`compsem.run.execute` records it in the notebook's provenance
    (``metadata.compsem.outputs_sha256``), so a number edited by hand afterwards is caught
    (:func:`outputs_changed`) instead of published.
    """
    import hashlib
    import json

    digest = hashlib.sha256()
    for cell in notebook.cells:
        shown = [cell.cell_type, cell.source, cell.get("outputs", [])]
        digest.update(json.dumps(shown, sort_keys=True, ensure_ascii=True).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def outputs_changed(notebook) -> bool:
    """Whether an executed notebook's outputs differ from those its run recorded (or it records
    none: a notebook not made by :func:`compsem.run.execute`)."""
    recorded = (notebook.metadata.get("compsem") or {}).get("outputs_sha256")
    return recorded != outputs_digest(notebook)
