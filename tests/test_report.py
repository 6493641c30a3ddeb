"""The verdicts of paper-vs-ours tables (compsem.report)."""

from __future__ import annotations

import math

from compsem import report

TARGET = {"paper": 0.5, "tol": 0.1, "source": "Table 1"}


def test_verdict_compares_within_the_tolerance():
    assert report.verdict(0.6, TARGET) == "match"
    assert report.verdict(0.61, TARGET) == "differs"
    assert report.verdict(math.nan, TARGET) == "missing"


def test_verdict_reports_statuses():
    partial = {**TARGET, "status": "partial", "reason": "3 of 5 seeds"}
    assert report.verdict(0.55, partial) == "match (partial)"
    assert report.verdict(0.9, partial) == "differs (partial)"
    for status in ("substitute", "not-run"):
        assert report.verdict(0.55, {**TARGET, "status": status, "reason": "r"}) == status


def test_fitted_targets_carry_their_status():
    fitted = {**TARGET, "status": "fitted", "reason": "tuned to it"}
    assert report.verdict(0.55, fitted) == "match (fitted)"
    assert report.verdict(0.9, fitted) == "differs (fitted)"
    assert report.expected_verdict(fitted) == "match (fitted)"


def test_headline_counts_errata_and_fitted_numbers_apart():
    targets = report.load_targets("sts3k")
    plain = next(k for k, t in targets.items() if not t.get("status") and t.get("expect") != "differs")
    erratum = next(k for k, t in targets.items() if not t.get("status") and t.get("expect") == "differs")
    fitted = next(k for k, t in targets.items() if t.get("status") == "fitted")
    values = {plain: targets[plain]["paper"], erratum: targets[erratum]["paper"] + 1.0,
              fitted: targets[fitted]["paper"]}
    summary = report.targets_summary(values)
    assert (summary["compared"], summary["met"], summary["explained"], summary["fitted"]) == (2, 1, 1, 1)
    assert summary["unexpected"] == 0 and summary["partial"] == 0
    assert summary["worst_key"] == plain  # an explained erratum is never the headline's worst
    headline = report.findings_headline([], values)
    assert "1 of 2 published numbers compared (the paper's or its authors' files) are within tolerance" in headline
    assert "; 1 differs, recorded as a known difference (expect: differs) and explained" in headline and "1 more is a number the" in headline


def test_headline_counts_partial_matches_and_unexpected_differences():
    """Numbers met from part of the paper's runs are counted as such; a number expected to match
    that differs is said to differ unexpectedly (the denominator holds every compared number)."""
    targets = report.load_targets("cogs-models")
    partial = next(k for k, t in targets.items() if t.get("status") == "partial" and t.get("expect") != "differs")
    plain = sorted(k for k, t in report.load_targets("sts3k").items()
                   if not t.get("status") and t.get("expect") != "differs")[:2]
    values = {partial: targets[partial]["paper"], plain[0]: 0.0 + report.load_targets("sts3k")[plain[0]]["paper"],
              plain[1]: report.load_targets("sts3k")[plain[1]]["paper"] + 10.0}
    summary = report.targets_summary(values)
    assert (summary["compared"], summary["met"], summary["partial"], summary["unexpected"]) == (3, 2, 1, 1)
    headline = report.findings_headline([], values)
    assert "2 of 3 published numbers compared" in headline
    assert "2 of them" not in headline and "1 of them from runs that follow the paper's protocol only in part" in headline
    assert "; 1 differs, not recorded as a known difference" in headline


def test_headline_says_when_no_published_number_is_compared():
    targets = report.load_targets("sts3k")
    shown = next(k for k, t in targets.items() if t.get("status") == "substitute")
    headline = report.findings_headline([{"outcome": "not testable"}], {shown: 0.0})
    assert headline.endswith("; no published number is compared here; 1 published number shown beside "
                             "substitutes or marked not run.")
    assert " more " not in headline


def test_expected_verdict_of_a_known_contradiction():
    partial = {**TARGET, "status": "partial", "reason": "3 of 5 seeds"}
    assert report.expected_verdict(partial) == "match (partial)"
    assert report.expected_verdict({**partial, "expect": "differs"}) == "differs (partial)"
    assert report.expected_verdict({**TARGET, "status": "not-run", "reason": "r"}) == "not-run"


def test_show_comparison_summarises_and_folds():
    import pandas as pd

    table = pd.DataFrame(
        {"ours": [0.5, 0.9, 0.2], "paper": [0.5, 0.5, 0.3], "difference": [0.0, 0.4, -0.1],
         "tolerance": [0.1, 0.1, 0.1], "verdict": ["match", "differs", "substitute"],
         "source": ["T1", "T1", "T1"]},
        index=pd.Index(["a", "b", "c"], name="quantity"))
    html = report.show_comparison(table, "cells").data
    assert "1 of 2 cells within tolerance" in html and "largest difference 0.4 (b)" in html
    assert "1 shown but not compared" in html and "<details>" in html
    substitutes = report.show_comparison(table.iloc[[2]], "cells").data
    assert "0 of 0" not in substitutes and "None of the 1 cells is compared" in substitutes


def test_read_glued_keeps_numbers_only(tmp_path):
    import nbformat

    def record(name, text):
        return nbformat.v4.new_output("display_data", data={
            "application/papermill.record/text/plain": text},
            metadata={"scrapbook": {"name": name}})

    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [record("x", "0.25"), record("n", "3"), record("table", "<IPython.HTML>"),
                    record("flag", "True"), record("text", "'words'")]
    notebook = nbformat.v4.new_notebook(cells=[cell])
    assert report.read_glued(notebook) == {"x": 0.25, "n": 3}
