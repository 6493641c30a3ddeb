"""compsem.synthesis: batteries side by side across encoders, on small synthetic scorecards."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from compsem import synthesis


def card(values_a, values_b, measure_a="A", measure_b="B", half_width=0.05):
    """A scorecard table with one value of each measure per model m0, m1, ..."""
    rows = []
    for i, (a, b) in enumerate(zip(values_a, values_b, strict=True)):
        for battery, measure, v in (("sts", measure_a, a), ("probing", measure_b, b)):
            if v is None:
                continue
            rows.append(dict(model=f"m{i}", battery=battery, measure=measure, value=v,
                             low=v - half_width, high=v + half_width, ceiling=np.nan))
    return pd.DataFrame(rows)


def test_perfect_agreement_and_reversal():
    same = synthesis.rank_agreement(card([0.1, 0.2, 0.3, 0.4, 0.5], [50, 60, 70, 80, 90]), "A", "B")
    assert same["rho"] == pytest.approx(1) and same["tau"] == pytest.approx(1)
    assert same["p"] == pytest.approx(1 / 120)  # only the identity ordering reaches rho = 1
    assert same["low"] == pytest.approx(1) and same["high"] == pytest.approx(1)
    rev = synthesis.rank_agreement(card([0.1, 0.2, 0.3, 0.4, 0.5], [90, 80, 70, 60, 50]), "A", "B")
    assert rev["rho"] == pytest.approx(-1) and rev["p"] == pytest.approx(1.0)


def test_known_spearman_and_interval_contains_estimate():
    a = [0.1, 0.5, 0.2, 0.7, 0.4, 0.9]
    b = [1.0, 3.0, 2.0, 4.0, 6.0, 5.0]
    out = synthesis.rank_agreement(card(a, b), "A", "B", n_boot=500, seed=1)
    d = np.array([1, 4, 2, 5, 3, 6]) - np.array([1, 3, 2, 4, 6, 5])  # ranks of a minus ranks of b
    assert out["rho"] == pytest.approx(1 - 6 * (d**2).sum() / (6 * 35))
    assert out["n"] == 6 and out["low"] <= out["rho"] <= out["high"]
    assert out["rho"] < synthesis.critical_rho(6) and 0.05 < out["p"] < 0.5  # positive, not significant
    assert out == synthesis.rank_agreement(card(a, b), "A", "B", n_boot=500, seed=1)  # seeded


def test_encoders_missing_a_measure_are_left_out():
    table = card([0.1, 0.2, None, 0.4], [1.0, 2.0, 3.0, 4.0])
    assert list(synthesis.paired(table, "A", "B").index) == ["m0", "m1", "m3"]
    with pytest.raises(ValueError, match="at least 3 encoders"):
        synthesis.rank_agreement(card([0.1, 0.2, None], [1.0, 2.0, 3.0]), "A", "B")


def test_unknown_measure_names_what_exists():
    with pytest.raises(ValueError, match="no measure \\['C'\\].*A, B"):
        synthesis.rank_agreement(card([0.1, 0.2, 0.3], [1, 2, 3]), "A", "C")
    with pytest.raises(ValueError, match="no measure"):
        synthesis.phenomenon_table(card([0.1], [1.0]), [("A", "nope")])


def test_critical_rho_matches_published_tables():
    # one-sided 5% critical values of Spearman's rho (e.g. Zar 1972, Table 1): n=5 .900, n=6 .829
    assert synthesis.critical_rho(5) == pytest.approx(0.9)
    assert synthesis.critical_rho(6) == pytest.approx(0.829, abs=1e-3)
    with pytest.raises(ValueError, match="3..8"):
        synthesis.critical_rho(12)


def test_phenomenon_table_and_glue_values():
    table = card([0.1, 0.2, 0.3], [60.0, 70.0, 80.0], "STS3k within Negative", "Negation accuracy")
    shown = synthesis.phenomenon_table(table, synthesis.PHENOMENA["negation"][:1])
    assert shown.loc["m0", "STS3k within Negative"] == "0.10 [0.05, 0.15]"
    assert shown.loc["m2", "Negation accuracy"].startswith("80.0 [")
    agreement = synthesis.agreement_table(table, n_boot=50)
    assert list(agreement["phenomenon"]) == ["negation"]
    values = synthesis.glue_values(table, agreement)
    assert values["syn_sts3k_within_negative_m1"] == pytest.approx(0.2)
    assert values["syn_agree_sts3k_within_negative_vs_negation_accuracy_n"] == 3
    assert not any(isinstance(v, float) and math.isnan(v) for v in values.values())


def test_wide_table_puts_models_in_columns():
    table = card([0.1, 0.2], [1.0, 2.0])
    out = synthesis.wide(table)
    assert list(out.columns) == ["m0", "m1"] and out.loc[("probing", "B"), "m1"] == 2.0


def test_agreement_table_skips_pairs_with_too_few_encoders():
    table = card([0.1, 0.2], [60.0, 70.0], "STS3k within Negative", "Negation accuracy")
    out = synthesis.agreement_table(table)
    assert out.empty and "rho" in out.columns
    assert synthesis.glue_values(table, out)["syn_sts3k_within_negative_m0"] == pytest.approx(0.1)


def test_group_range_over_the_models_scored():
    table = card([0.1, 0.5, 0.3], [1.0, 2.0, 3.0])
    assert synthesis.group_range(table, "A", ["m0", "m2", "not run"]) == (0.1, 0.3)
    with pytest.raises(ValueError, match="none of"):
        synthesis.group_range(table, "A", ["x"])


def test_available_keeps_pairs_the_table_has():
    table = card([0.1, 0.2, 0.3], [1.0, 2.0, 3.0])
    assert synthesis.available(table, [("A", "B"), ("A", "Order accuracy")]) == [("A", "B")]


def test_constant_measure_cannot_rank():
    out = synthesis.rank_agreement(card([1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0]), "A", "B", n_boot=50)
    assert math.isnan(out["rho"]) and math.isnan(out["p"]) and out["n_boot_used"] == 0


@pytest.mark.needs_data
def test_scorecards_on_worker_processes_equal_the_serial_table():
    """The chapter runs its scorecards on two processes; the table must not depend on it."""
    options = dict(n_boot=50, seed=0, device="cpu", progress=False)
    serial = synthesis.scorecards(["glove50", "spacy-md"], ["sts"], ["sts"], **options)
    parallel = synthesis.scorecards(["glove50", "spacy-md"], ["sts"], ["sts"], n_jobs=2, **options)
    assert list(serial.model.unique()) == ["glove50", "spacy-md"]
    pd.testing.assert_frame_equal(serial, parallel)
    with pytest.raises(ValueError, match="n_jobs"):
        synthesis.scorecards(["glove50"], ["sts"], n_jobs=0)


def test_rank_agreement_reads_scores_equal_but_for_rounding_as_ties():
    """Two encoders with the same score (here 0.3, computed two ways) tie on every machine."""
    a_exact = [0.1, 0.3, 0.3, 0.5, 0.7]
    a_noisy = [0.1, 0.1 + 0.2, 0.3, 0.5, 0.7]  # 0.1 + 0.2 = 0.30000000000000004
    b = [1.0, 3.0, 2.0, 4.0, 5.0]
    assert a_noisy[1] != a_exact[1]
    exact = synthesis.rank_agreement(card(a_exact, b), "A", "B", n_boot=200)
    noisy = synthesis.rank_agreement(card(a_noisy, b), "A", "B", n_boot=200)
    assert noisy == exact
