"""The decision rules of the STS3k claims that count or combine readings, evaluated on made-up
values (not on the book's), and the helpers that glue their quantities: counts over intervals
(transformers-poor-on-adversarial), two readings that must agree (verbnet-cn-intermediate-
sensitivity, verbnet-cn-robust-to-parser, transformers-rely-on-lexical-cues), the margin of
figure4-hybrid-drops-near-zero and the held-out halves' t-intervals (type-means-held-out)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem import claims
from compsem.sts import data_chapter, table9


def claim(claim_id: str) -> claims.Claim:
    return next(c for c in claims.load("sts3k") if c.id == claim_id)


# --------------------------------------------------------------------------- counting intervals

TRANSFORMERS = ("use", "ernie_0", "ernie_12", "sentbert", "defsent", "openai")


def poor_values(intervals: dict[str, tuple[float, float]], rerun=(0.1, 0.19)) -> dict[str, float]:
    values = {"recomputed_mpnet_std_sts3k_adv_ci_low": rerun[0], "recomputed_mpnet_std_sts3k_adv_ci_high": rerun[1]}
    for name in TRANSFORMERS:
        low, high = intervals.get(name, (0.1, 0.15))
        values |= {f"table9_{name}_sts3k_adv_ci_low": low, f"table9_{name}_sts3k_adv_ci_high": high}
    return values


@pytest.mark.parametrize(("intervals", "rerun", "expected"), [
    ({}, (0.1, 0.19), "holds"),  # all six below .2
    ({"defsent": (0.4, 0.5), "openai": (0.15, 0.25)}, (0.1, 0.19), "holds"),  # four below
    ({"defsent": (0.4, 0.5), "openai": (0.15, 0.25), "ernie_12": (0.18, 0.27)}, (0.1, 0.19),
     "inconclusive"),  # three below, two straddle, one above: four neither reached nor excluded
    ({"defsent": (0.4, 0.5), "openai": (0.21, 0.25), "ernie_12": (0.18, 0.27)}, (0.1, 0.19),
     "inconclusive"),  # two above: four can still lie below
    ({"defsent": (0.4, 0.5), "openai": (0.21, 0.25), "ernie_12": (0.201, 0.27)}, (0.1, 0.19),
     "fails"),  # three above: at most three can lie below
    ({}, (0.15, 0.25), "inconclusive"),  # the re-run straddles
    ({}, (0.21, 0.3), "fails"),  # the re-run above
])
def test_most_transformers_below_bound_is_counted_on_intervals(intervals, rerun, expected):
    assert claims.verdict(claim("transformers-poor-on-adversarial"), poor_values(intervals, rerun)) == expected


# --------------------------------------------------------------------------- two readings

def intermediate_values(mad_reading: str, fall_reading: str) -> dict[str, float]:
    """Made-up values under which the MAD reading and the fall reading each hold, fail or are
    undecided."""
    values = {}
    mad = {"holds": (-0.12, -0.1), "fails": (0.05, 0.1), "undecided": (-0.05, 0.05)}[mad_reading]
    for model in ("verbnet_cn", "defsent"):
        for rival in ("sentbert", "openai"):
            key = f"fig8_mad_gap_{model}_minus_{rival}"
            values |= {f"{key}_ci_low": mad[0], f"{key}_ci_high": mad[1]}
    for rival, interval in (("sentbert", (0.24, 0.3)), ("openai", (0.2, 0.26))):
        values |= {f"fig8_fall_gap_{rival}_ci_low": interval[0], f"fig8_fall_gap_{rival}_ci_high": interval[1]}
    fall = {"holds": (0.02, 0.09), "fails": (-0.3, -0.2), "undecided": (-0.02, 0.09)}[fall_reading]
    for model in ("verbnet_cn", "defsent"):
        values |= {f"fig8_fall_gap_{model}_ci_low": fall[0], f"fig8_fall_gap_{model}_ci_high": fall[1]}
    return values


@pytest.mark.parametrize(("mad_reading", "fall_reading", "expected"), [
    ("holds", "holds", "holds"),
    ("fails", "fails", "fails"),
    ("holds", "fails", "inconclusive"),  # the book's case: the MAD in between, VerbNet-CN's fall beyond people's
    ("fails", "holds", "inconclusive"),
    ("holds", "undecided", "inconclusive"),
    ("undecided", "fails", "inconclusive"),
])
def test_intermediate_sensitivity_needs_both_readings(mad_reading, fall_reading, expected):
    values = intermediate_values(mad_reading, fall_reading)
    assert claims.verdict(claim("verbnet-cn-intermediate-sensitivity"), values) == expected


@pytest.mark.parametrize(("glove", "spacy", "expected"), [
    ((-0.02, 0.02), (-0.01, 0.03), "holds"),
    ((-0.09, -0.05), (-0.06, -0.04), "fails"),
    ((-0.09, -0.05), (-0.058, -0.026), "inconclusive"),  # the book's case: GloVe outside, spaCy astride
    ((-0.09, -0.05), (-0.02, 0.02), "inconclusive"),  # one set outside, the other inside
])
def test_robust_to_parser_reads_the_two_vector_sets_by_one_convention(glove, spacy, expected):
    values = {"parser_gap_glove50_adv_ci90_low": glove[0], "parser_gap_glove50_adv_ci90_high": glove[1],
              "parser_gap_spacy_md_adv_ci90_low": spacy[0], "parser_gap_spacy_md_adv_ci90_high": spacy[1]}
    assert claims.verdict(claim("verbnet-cn-robust-to-parser"), values) == expected


def lexical_values(inside: set[str]) -> dict[str, float]:
    values = {}
    for baseline in ("overlap", "mean_cn", "mean_glove50", "mean_spacy_md"):
        interval = (-0.03, 0.03) if baseline in inside else (-0.45, -0.4)
        for rival in ("sentbert", "openai"):
            key = f"{baseline}_minus_{rival}_sts3k_adv"
            values |= {f"{key}_ci90_low": interval[0], f"{key}_ci90_high": interval[1]}
    return values


@pytest.mark.parametrize(("inside", "expected"), [
    ({"overlap", "mean_cn", "mean_glove50", "mean_spacy_md"}, "holds"),
    (set(), "fails"),
    ({"overlap"}, "inconclusive"),  # the book's case
])
def test_lexical_cues_need_every_lexical_baseline(inside, expected):
    assert claims.verdict(claim("transformers-rely-on-lexical-cues"), lexical_values(inside)) == expected


# --------------------------------------------------------------------------- helpers


def test_equivalence_differences_are_paired_spearman_differences():
    from compsem.stats import paired_spearman_difference

    rng = np.random.default_rng(0)
    human = rng.random(300)
    a, b, c = human + rng.normal(0, 0.3, 300), human + rng.normal(0, 0.5, 300), rng.random(300)
    mask = np.arange(300) % 3 != 0
    out = table9.equivalence_differences({"Mean-CN": a, "word overlap": c}, {"SentBERT": b}, human, mask,
                                         n_resamples=300, seed=1)
    assert set(out) == {f"{k}{s}" for k in ("mean_cn_minus_sentbert_sts3k_adv", "word_overlap_minus_sentbert_sts3k_adv")
                        for s in ("", "_ci90_low", "_ci90_high")}
    expected = paired_spearman_difference(a[mask], b[mask], human[mask], n_resamples=300, seed=1, level=0.9)
    assert out["mean_cn_minus_sentbert_sts3k_adv"] == expected["difference"]
    assert out["mean_cn_minus_sentbert_sts3k_adv_ci90_low"] == expected["ci_low"]
    assert out["mean_cn_minus_sentbert_sts3k_adv_ci90_high"] == expected["ci_high"]
    wide = table9.equivalence_differences({"a": a}, {"b": b}, human, mask, n_resamples=300, seed=1, level=0.95,
                                          portion="x")
    assert wide["a_minus_b_x_ci95_low"] <= out["mean_cn_minus_sentbert_sts3k_adv_ci90_low"]


def test_near_zero_margin_is_a_tenth_of_the_papers_defsent_drop():
    from compsem.targets import load_targets

    targets = load_targets("sts3k")
    assert targets["figure4_drop_defsent"]["paper"] == 0.36
    assert table9.near_zero_margin(targets) == pytest.approx(table9.NEAR_ZERO_FRACTION * 0.36)
    assert table9.near_zero_margin({"figure4_drop_defsent": {"paper": 0.5}}) == pytest.approx(0.05)


def test_heldout_values_give_t_intervals_of_the_means_over_halves():
    from scipy import stats

    rng = np.random.default_rng(0)
    n = 20
    heldout = pd.DataFrame({column: rng.random(n) for column in data_chapter.HELDOUT_COLUMNS})
    heldout["uninformed_mae"] = heldout["mae"] + np.where(np.arange(n) == 3, -0.9, 0.5)
    heldout["n_test"] = 19
    values = data_chapter.heldout_values(heldout)
    within = heldout["within"].to_numpy()
    low, high = stats.t.interval(0.95, n - 1, loc=within.mean(), scale=stats.sem(within))
    assert values["heldout_within_mean"] == pytest.approx(within.mean())
    assert values["heldout_within_mean_ci_low"] == pytest.approx(low)
    assert values["heldout_within_mean_ci_high"] == pytest.approx(high)
    # the range of single halves is kept under its old keys, and is wider than the mean's interval
    assert values["heldout_within_ci_low"] == pytest.approx(np.quantile(within, 0.025))
    assert values["heldout_within_ci_low"] < low < high < values["heldout_within_ci_high"]
    excess = heldout["mae"] - heldout["uninformed_mae"] / 2
    assert values["heldout_mae_excess_mean"] == pytest.approx(excess.mean())
    assert "heldout_mae_excess_ci_low" not in values  # no range for the derived column
    assert values["heldout_n_worse_than_uninformed"] == 1
    assert values["heldout_n_halves"] == n and values["heldout_n_test"] == 19


@pytest.mark.parametrize(("within", "excess", "expected"), [
    ((0.6, 0.75), (-0.003, -0.001), "holds"),
    ((0.6, 0.75), (-0.003, 0.00001), "inconclusive"),  # the book's case: the error part astride zero
    ((0.45, 0.6), (-0.003, -0.001), "inconclusive"),
    ((0.3, 0.45), (-0.003, -0.001), "fails"),
    ((0.6, 0.75), (0.001, 0.003), "fails"),
])
def test_held_out_bar_is_decided_on_the_intervals_of_the_means(within, excess, expected):
    values = {"heldout_within_mean_ci_low": within[0], "heldout_within_mean_ci_high": within[1],
              "heldout_mae_excess_mean_ci_low": excess[0], "heldout_mae_excess_mean_ci_high": excess[1]}
    assert claims.verdict(claim("type-means-held-out"), values) == expected


@pytest.mark.parametrize(("verbnet", "amr", "expected"), [
    ((-0.02, 0.03), (-0.01, 0.03), "holds"),
    ((-0.037, 0.045), (-0.02, 0.068), "inconclusive"),  # the book's case
    ((-0.02, 0.03), (0.04, 0.1), "fails"),
])
def test_near_zero_drops_use_the_glued_margin(verbnet, amr, expected):
    values = {"figure4_near_zero_margin": 0.036,
              "table9_drop_verbnet_cn_ci90_low": verbnet[0], "table9_drop_verbnet_cn_ci90_high": verbnet[1],
              "table9_drop_amr_cn_ci90_low": amr[0], "table9_drop_amr_cn_ci90_high": amr[1]}
    assert claims.verdict(claim("figure4-hybrid-drops-near-zero"), values) == expected
    assert claims.verdict(claim("figure4-hybrid-drops-near-zero"), values | {"figure4_near_zero_margin": 0.2}) == "holds"
