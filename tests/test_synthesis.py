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


def test_glue_values_give_each_agreement_the_critical_rho_of_its_n():
    table = card([0.1, 0.2, 0.3, 0.5, 0.4], [60.0, 70.0, 80.0, 90.0, 75.0],
                 "STS3k within Negative", "Negation accuracy")
    values = synthesis.glue_values(table, synthesis.agreement_table(table, n_boot=50))
    key = "syn_agree_sts3k_within_negative_vs_negation_accuracy"
    assert values[f"{key}_n"] == 5
    assert values[f"{key}_critical"] == pytest.approx(synthesis.critical_rho(5))


def test_expected_distinct_encoders_in_a_resample():
    assert synthesis.expected_distinct(1) == pytest.approx(1.0)
    assert synthesis.expected_distinct(5) == pytest.approx(5 * (1 - 0.8**5))
    assert synthesis.expected_distinct(6) == pytest.approx(4.0, abs=0.01)
    with pytest.raises(ValueError):
        synthesis.expected_distinct(0)


def test_difference_values_name_each_pair():
    differences = pd.DataFrame({"model_a": ["mpnet"], "model_b": ["spacy-md"], "rho_a": [0.5],
                                "rho_b": [0.3], "difference": [0.2], "low": [0.1], "high": [0.3],
                                "n": [500]})
    assert synthesis.difference_values(differences, "swap2") == {
        "syn_swap2_diff_mpnet_minus_spacy_md": 0.2,
        "syn_swap2_diff_mpnet_minus_spacy_md_low": 0.1,
        "syn_swap2_diff_mpnet_minus_spacy_md_high": 0.3,
    }


@pytest.mark.needs_data
def test_paired_within_differences_on_the_same_pairs():
    """The difference of two encoders' within-Swap-2 rho equals the difference of the
    scorecard's within-type rhos, and its paired interval contains it; an encoder not scored on
    the measure is left out, and an empty group gives an empty table."""
    from compsem import scorecard

    table = scorecard.run("glove50", ["sts"], subset=True, progress=False, n_boot=50)
    table = pd.concat([table, scorecard.run("overlap", ["sts"], subset=True, progress=False,
                                            n_boot=50)], ignore_index=True)
    out = synthesis.paired_within_differences(table, ["glove50", "minilm"], ["overlap"],
                                              n_boot=200)
    assert list(out["model_a"]) == ["glove50"] and list(out["model_b"]) == ["overlap"]
    rho = table[table.measure == "STS3k within Swap-2"].set_index("model")["value"]
    row = out.iloc[0]
    assert row["difference"] == pytest.approx(rho["glove50"] - rho["overlap"])
    assert row["low"] <= row["difference"] <= row["high"]
    assert synthesis.paired_within_differences(table, ["minilm"], ["overlap"]).empty


@pytest.mark.needs_data
def test_left_out_sizes_count_what_the_subsets_skip():
    sizes = synthesis.left_out_sizes()
    assert sizes["syn_left_out_sts_sentences"] > 10_000  # SICK and STR-2022
    assert sizes["syn_left_out_aan_strings"] > 40_000  # the AAN test's strings
