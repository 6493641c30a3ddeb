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
