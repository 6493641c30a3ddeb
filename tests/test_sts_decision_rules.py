"""The decision rules of the STS3k claims that count or combine readings, evaluated on made-up
values (not on the book's), and the helpers that glue their quantities: counts over intervals
(transformers-poor-on-adversarial), two readings that must agree (verbnet-cn-intermediate-
sensitivity, verbnet-cn-robust-to-parser, transformers-rely-on-lexical-cues), the margin of
figure4-hybrid-drops-near-zero and the held-out halves' t-intervals (type-means-held-out). A side
that concludes when *some* of k tests does reads the intervals at Bonferroni's level (keys
``_bonf<k>``, :mod:`compsem.sts.families`): the made-up values give those keys the same intervals
unless a test sets them apart."""

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


def interval_keys(key: str, interval: tuple[float, float], tags=("ci",)) -> dict[str, float]:
    """``<key>_<tag>_low`` and ``_high`` for each tag (``ci``, ``bonf6_ci`` ...): one interval under
    several levels' keys."""
    return {f"{key}_{tag}_{bound}": value for tag in tags for bound, value in zip(("low", "high"), interval,
                                                                                   strict=True)}


def poor_values(intervals: dict[str, tuple[float, float]], rerun=(0.1, 0.19)) -> dict[str, float]:
    values = interval_keys("recomputed_mpnet_std_sts3k_adv", rerun, ("ci", "bonf7_ci"))
    for name in TRANSFORMERS:
        values |= interval_keys(f"table9_{name}_sts3k_adv", intervals.get(name, (0.1, 0.15)),
                                ("ci", "bonf6_ci", "bonf7_ci"))
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


def test_the_counts_read_the_intervals_of_their_families():
    """Both counts are unions: four of six below .2 on the 95% intervals but one of them
    straddling at the family's level (k = 6) does not hold; three above on the 95% intervals but
    not at the level of the fails side's family (k = 7, the re-run with them) does not fail."""
    rule = claim("transformers-poor-on-adversarial")
    four_below = poor_values({"defsent": (0.4, 0.5), "openai": (0.15, 0.25)})
    assert claims.verdict(rule, four_below) == "holds"
    assert claims.verdict(rule, four_below | {"table9_sentbert_sts3k_adv_bonf6_ci_high": 0.203}) == "inconclusive"
    three_above = poor_values({"defsent": (0.4, 0.5), "openai": (0.21, 0.25), "ernie_12": (0.201, 0.27)})
    assert claims.verdict(rule, three_above) == "fails"
    assert claims.verdict(rule, three_above | {"table9_ernie_12_sts3k_adv_bonf7_ci_low": 0.19}) == "inconclusive"
    rerun_above = poor_values({}, rerun=(0.21, 0.3))
    assert claims.verdict(rule, rerun_above | {"recomputed_mpnet_std_sts3k_adv_bonf7_ci_low": 0.19}) == "inconclusive"


# --------------------------------------------------------------------------- two readings

def intermediate_values(mad_reading: str, fall_reading: str) -> dict[str, float]:
    """Made-up values under which the MAD reading and the fall reading each hold, fail or are
    undecided."""
    values = {}
    mad = {"holds": (-0.12, -0.1), "fails": (0.05, 0.1), "undecided": (-0.05, 0.05)}[mad_reading]
    for model in ("verbnet_cn", "defsent"):
        for rival in ("sentbert", "openai"):
            values |= interval_keys(f"fig8_mad_gap_{model}_minus_{rival}", mad, ("ci", "bonf2_ci"))
    for rival, interval in (("sentbert", (0.24, 0.3)), ("openai", (0.2, 0.26))):
        values |= interval_keys(f"fig8_fall_gap_{rival}", interval, ("ci", "bonf4_ci"))
    fall = {"holds": (0.02, 0.09), "fails": (-0.3, -0.2), "undecided": (-0.02, 0.09)}[fall_reading]
    for model in ("verbnet_cn", "defsent"):
        values |= interval_keys(f"fig8_fall_gap_{model}", fall, ("ci", "bonf4_ci"))
    return values


@pytest.mark.parametrize(("mad_reading", "fall_reading", "expected"), [
    ("holds", "holds", "holds"),
    ("fails", "fails", "fails"),
    ("holds", "fails", "holds"),  # the book's case: the MAD in between, VerbNet-CN's fall beyond people's
    ("fails", "holds", "fails"),
    ("undecided", "holds", "inconclusive"),
])
def test_intermediate_sensitivity_is_decided_on_the_declared_reading(mad_reading, fall_reading, expected):
    """The MAD, the evidence §5.4 gives, decides; the fall with the number of swaps, a reading
    written after the values were read, is the extension verbnet-cn-falls-more-than-people and
    vetoes nothing."""
    values = intermediate_values(mad_reading, fall_reading)
    assert claims.verdict(claim("verbnet-cn-intermediate-sensitivity"), values) == expected
    falls_more = {"holds": "fails", "fails": "holds", "undecided": "inconclusive"}[fall_reading]
    if fall_reading != "undecided":
        assert claims.verdict(claim("verbnet-cn-falls-more-than-people"), values) == falls_more


def test_intermediate_sensitivity_fails_on_the_family_intervals():
    """The MAD gaps fail at Bonferroni's level for two tests: a 95% interval beyond the bound is
    not enough."""
    rule = claim("verbnet-cn-intermediate-sensitivity")
    values = intermediate_values("fails", "fails")
    assert claims.verdict(rule, values) == "fails"
    mad_astride = {f"fig8_mad_gap_{model}_minus_{rival}_bonf2_ci_low": -0.01
                   for model in ("verbnet_cn", "defsent") for rival in ("sentbert", "openai")}
    assert claims.verdict(rule, values | mad_astride) == "inconclusive"


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
            values |= interval_keys(f"{baseline}_minus_{rival}_sts3k_adv", interval, ("ci90", "bonf2_ci"))
    return values


@pytest.mark.parametrize(("inside", "expected"), [
    ({"overlap", "mean_cn", "mean_glove50", "mean_spacy_md"}, "holds"),
    (set(), "fails"),
    ({"overlap"}, "inconclusive"),  # the book's case
])
def test_lexical_cues_need_every_lexical_baseline(inside, expected):
    assert claims.verdict(claim("transformers-rely-on-lexical-cues"), lexical_values(inside)) == expected


def test_a_lexical_baseline_fails_on_its_family_intervals():
    """A baseline fails against either rival, a union of two equivalence tests, read at 1 - .10/2:
    90% intervals outside the margin whose Bonferroni intervals reach into it do not fail."""
    values = lexical_values(set())
    assert claims.verdict(claim("transformers-rely-on-lexical-cues"), values) == "fails"
    reach = {f"mean_cn_minus_{rival}_sts3k_adv_bonf2_ci_high": -0.05 for rival in ("sentbert", "openai")}
    assert claims.verdict(claim("transformers-rely-on-lexical-cues"), values | reach) == "inconclusive"


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


def test_equivalence_differences_of_a_family_add_the_bonferroni_interval():
    """family = k: the same differences and 90% intervals, and beside them the interval at
    1 - .10/k from the same resamples (k = 2: 95%), which contains the 90% one."""
    from compsem.stats import bonferroni_level, paired_spearman_difference
    from compsem.sts.families import UNION_FAMILIES

    rng = np.random.default_rng(0)
    human = rng.random(300)
    a, b = human + rng.normal(0, 0.3, 300), human + rng.normal(0, 0.5, 300)
    mask = np.arange(300) % 3 != 0
    k = UNION_FAMILIES["lexical_baseline"]
    single = table9.equivalence_differences({"a": a}, {"b": b}, human, mask, n_resamples=300, seed=1)
    out = table9.equivalence_differences({"a": a}, {"b": b}, human, mask, n_resamples=300, seed=1, family=k)
    assert set(out) == set(single) | {f"a_minus_b_sts3k_adv_bonf{k}_ci_low", f"a_minus_b_sts3k_adv_bonf{k}_ci_high"}
    assert all(out[key] == value for key, value in single.items())
    expected = paired_spearman_difference(a[mask], b[mask], human[mask], n_resamples=300, seed=1,
                                          level=bonferroni_level(k, 0.10))
    assert out[f"a_minus_b_sts3k_adv_bonf{k}_ci_low"] == expected["ci_low"]
    assert out[f"a_minus_b_sts3k_adv_bonf{k}_ci_high"] == expected["ci_high"]
    assert bonferroni_level(k, 0.10) == pytest.approx(0.95)
    assert out[f"a_minus_b_sts3k_adv_bonf{k}_ci_low"] < out["a_minus_b_sts3k_adv_ci90_low"]
    assert out["a_minus_b_sts3k_adv_ci90_high"] < out[f"a_minus_b_sts3k_adv_bonf{k}_ci_high"]


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
    # the halves the tested quantity counts against: error above half the equal blocks' (half 3, and
    # every other half whose error exceeds .5, since their equal blocks err .5 more)
    expected = 1 + int((np.delete(heldout["mae"].to_numpy(), 3) > 0.5).sum())
    assert values["heldout_n_worse_than_half_uninformed"] == expected == int((excess > 0).sum())
    assert values["heldout_n_worse_than_half_uninformed"] >= values["heldout_n_worse_than_uninformed"]
    assert values["heldout_n_halves"] == n and values["heldout_n_test"] == 19
    # the two decided quantities at Bonferroni's level for their union of two tests, containing the 95%
    assert data_chapter.HELDOUT_DECIDED == ("within", "mae_excess")
    for column, per_half in (("within", within), ("mae_excess", excess.to_numpy())):
        low, high = stats.t.interval(1 - 0.05 / 2, n - 1, loc=per_half.mean(), scale=stats.sem(per_half))
        assert values[f"heldout_{column}_mean_bonf2_ci_low"] == pytest.approx(low)
        assert values[f"heldout_{column}_mean_bonf2_ci_high"] == pytest.approx(high)
        assert low < values[f"heldout_{column}_mean_ci_low"] < values[f"heldout_{column}_mean_ci_high"] < high
    assert not any("bonf" in key for key in values if not key.startswith(("heldout_within_mean", "heldout_mae_excess")))


@pytest.mark.parametrize(("within", "excess", "expected"), [
    ((0.6, 0.75), (-0.003, -0.001), "holds"),
    ((0.6, 0.75), (-0.003, 0.00001), "inconclusive"),  # the book's case: the error part astride zero
    ((0.45, 0.6), (-0.003, -0.001), "inconclusive"),
    ((0.3, 0.45), (-0.003, -0.001), "fails"),
    ((0.6, 0.75), (0.001, 0.003), "fails"),
])
def test_held_out_bar_is_decided_on_the_intervals_of_the_means(within, excess, expected):
    values = (interval_keys("heldout_within_mean", within, ("ci", "bonf2_ci"))
              | interval_keys("heldout_mae_excess_mean", excess, ("ci", "bonf2_ci")))
    assert claims.verdict(claim("type-means-held-out"), values) == expected
    if expected == "fails":  # a union of two tests: it fails on the Bonferroni intervals only
        wide = {"heldout_within_mean_bonf2_ci_high": 0.55, "heldout_mae_excess_mean_bonf2_ci_low": -0.0001}
        assert claims.verdict(claim("type-means-held-out"), values | wide) == "inconclusive"


@pytest.mark.parametrize(("verbnet", "amr", "expected"), [
    ((-0.02, 0.03), (-0.01, 0.03), "holds"),
    ((-0.037, 0.045), (-0.02, 0.068), "inconclusive"),  # the book's case
    ((-0.02, 0.03), (0.04, 0.1), "fails"),
])
def test_near_zero_drops_use_the_glued_margin(verbnet, amr, expected):
    values = ({"figure4_near_zero_margin": 0.036} | interval_keys("table9_drop_verbnet_cn", verbnet, ("ci90", "bonf2_ci"))
              | interval_keys("table9_drop_amr_cn", amr, ("ci90", "bonf2_ci")))
    assert claims.verdict(claim("figure4-hybrid-drops-near-zero"), values) == expected
    assert claims.verdict(claim("figure4-hybrid-drops-near-zero"), values | {"figure4_near_zero_margin": 0.2}) == "holds"
    if expected == "fails":  # one of two drops outside: a union, decided on the Bonferroni intervals
        assert claims.verdict(claim("figure4-hybrid-drops-near-zero"),
                              values | {"table9_drop_amr_cn_bonf2_ci_low": 0.03}) == "inconclusive"


# --------------------------------------------------------------------------- unions read at Bonferroni's level

UNION_SIDES = {  # claim -> the rule that concludes when some of k tests does, and the k of its keys
    "subadditive-modifiers": ("fails_if", {"3"}),
    "type-means-held-out": ("fails_if", {"2"}),
    "adversarial-pairs-control-lexical-similarity": ("fails_if", {"2"}),
    "transformers-poor-on-adversarial": ("fails_if", {"7"}),
    "transformers-rely-on-lexical-cues": ("fails_if", {"2"}),
    "hybrids-beat-transformers-adversarial": ("fails_if", {"11"}),
    "figure4-mean-drop-largest": ("fails_if", {"16"}),
    "figure4-hybrid-drops-near-zero": ("fails_if", {"2"}),
    "defsent-beats-sentbert-only-on-adversarial": ("fails_if", {"6"}),
    "verbnet-cn-present-roles-higher": ("fails_if", {"3"}),
    "syntax-based-poor-on-adversarial": ("fails_if", {"2"}),
    "hybrids-beat-transformers-substitute-vectors": ("fails_if", {"4"}),
    "human-similarity-falls-with-swaps": ("fails_if", {"3"}),
    "transformers-insensitive-to-swaps": ("fails_if", {"4"}),
    "verbnet-cn-intermediate-sensitivity": ("fails_if", {"2"}),
    "hybrids-above-best-transformer-paired": ("fails_if", {"2"}),
    "verbnet-cn-robust-to-betas": ("fails_if", {"*"}),  # k: the named weightings run
    "hybrids-rank-types-not-pairs": ("fails_if", {"6"}),
    "labeller-carries-over-eight-roles": ("fails_if", {"2"}),
    "labeller-carries-over-as-eq2-reads": ("fails_if", {"2"}),
    "labeller-carries-over-own-conventions": ("fails_if", {"2"}),
    "no-transfer-to-adversarial": ("fails_if", {"*"}),  # k: the regressors run
    "verbnet-adversarial-split-stable": ("fails_if", {"4"}),
    "verbnet-random-split-flat": ("fails_if", {"*"}),
    "no-transfer-without-pca": ("fails_if", {"*"}),
    "random-split-figure-scores-training-rows": ("fails_if", set()),  # the family keys _ci_family_
    "few-parameters-gap": ("fails_if", {"2"}),
}


@pytest.mark.parametrize("claim_id", sorted(UNION_SIDES))
def test_unions_read_every_interval_at_the_bonferroni_level(claim_id):
    """Every interval bound a union reads is its family's (``_bonf<k>_`` or the random-split
    family's ``_ci_family_``), with the family's k; no 95% or 90% bound of a single test."""
    import re

    side, sizes = UNION_SIDES[claim_id]
    rule = getattr(claim(claim_id), side)
    bounds = [key for key in re.findall(r"[a-z0-9_*]+", rule) if key.endswith(("_low", "_high"))]
    assert bounds
    for key in bounds:
        assert "_bonf" in key or "_ci_family_" in key, (claim_id, key)
    assert {m for key in bounds for m in re.findall(r"_bonf(\d+|\*)_", key)} == sizes
    source = claim(claim_id).source
    assert "Revised on review:" in source and ("union" in source or "Bonferroni" in source)


def test_the_fixed_families_are_the_claims_k():
    """Each family of compsem.sts.families is read by some claim under its k."""
    from compsem.sts.families import UNION_FAMILIES

    rules = " ".join(getattr(c, side) or "" for c in claims.load("sts3k") for side in ("holds_if", "fails_if"))
    for family, k in UNION_FAMILIES.items():
        assert f"_bonf{k}_" in rules, family


def test_shuffled_ratings_cannot_fail_on_a_non_significant_p():
    """ratings-differ-from-shuffled reads no p-value to fail: a shuffle with p > .05 leaves it
    inconclusive (absence of significance is no evidence of no difference); only a KS statistic
    below zero, which cannot occur, would fail it."""
    rule = claim("ratings-differ-from-shuffled")
    values = {"ks_log10_p_max": -1.0, "ks_d_rated_mean": 0.02}
    assert claims.verdict(rule, values) == "inconclusive"
    assert claims.verdict(rule, values | {"ks_log10_p_max": -118.0}) == "holds"
    assert "ks_log10_p_max" not in claims.rule_keys(rule.fails_if)


def test_robust_to_betas_fails_on_intervals_not_points():
    """verbnet-cn-robust-to-betas: a named weighting whose rho lies below the best neural model's
    fails the claim only if its paired interval, at the family's level, lies below 0; the rule
    reads the key by pattern, so k is whatever number of weightings the run names."""
    rule = claim("verbnet-cn-robust-to-betas")
    values = {"sens_min_named_diff_ci_low": -0.02, "sens_perturbed_q025": 0.6, "paired_best_neural_adv_rho": 0.49,
              "sens_min_named_rho": 0.48, "sens_min_named_diff_bonf6_ci_high": 0.01}
    assert claims.verdict(rule, values) == "inconclusive"
    assert claims.verdict(rule, values | {"sens_min_named_diff_bonf6_ci_high": -0.001}) == "fails"
    four = {k: v for k, v in values.items() if "bonf" not in k} | {"sens_min_named_diff_bonf4_ci_high": -0.001}
    assert claims.verdict(rule, four) == "fails"
    assert claims.rule_keys(rule.fails_if, four) == ["sens_min_named_diff_bonf4_ci_high"]


def test_the_models_chapter_families_glue_the_keys_the_claims_read():
    """The intervals sts3k-models glues for its unions (compsem.sts.chapter.adv_spearman_intervals
    and drop_intervals at the levels of published_intervals and recomputed_levels, under the keys
    of Table 9's rows) are the keys the claims' rules read."""
    from compsem.sts import chapter as C
    from compsem.sts.families import UNION_FAMILIES

    rng = np.random.default_rng(0)
    n = 120
    human = rng.random(n)
    non, adv = np.arange(n) < n // 2, np.arange(n) >= n // 2
    files = {row: human + rng.normal(0, 0.5, n) for row in table9.PUBLISHED_ROWS}
    values = {"recomputed_mpnet_std_sts3k_adv_ci_high": 0.1, "table9_drop_mean_cn": 1.1}
    for family, rows in C.ADV_FAMILIES.items():
        values |= C.adv_spearman_intervals({f"table9_{table9.ROW_SLUGS[row]}": files[row] for row in rows}, human,
                                           adv, n_resamples=50, levels=C.family_levels(0.95, UNION_FAMILIES[family]))
    drops = {f"table9_drop_{table9.ROW_SLUGS[row]}": sims for row, sims in files.items()}
    values |= C.drop_intervals(drops, human, non, adv, n_resamples=50,
                               levels=C.family_levels(0.95, UNION_FAMILIES["drops"]))
    values |= C.drop_intervals({k: drops[k] for k in ("table9_drop_verbnet_cn", "table9_drop_amr_cn")}, human, non,
                               adv, n_resamples=50, levels=C.family_levels(0.90, UNION_FAMILIES["hybrid_drops"]))
    values |= C.adv_spearman_intervals({"recomputed_mpnet_std": files["SentBERT"]}, human, adv, n_resamples=50,
                                       levels=C.recomputed_levels("mpnet (std)", "STS3k-adv"))
    values |= C.adv_spearman_intervals({"recomputed_overlap": files["Mean-CN"]}, human, adv, n_resamples=50,
                                       levels=C.recomputed_levels("overlap", "STS3k-adv"))
    values |= C.drop_intervals({"recomputed_drop_overlap": files["Mean-CN"]}, human, non, adv, n_resamples=50,
                               levels=C.recomputed_levels("overlap", "drop"))
    for claim_id, side in (("transformers-poor-on-adversarial", "holds_if"),
                           ("transformers-poor-on-adversarial", "fails_if"),
                           ("hybrids-beat-transformers-adversarial", "fails_if"),
                           ("figure4-mean-drop-largest", "fails_if"),
                           ("figure4-hybrid-drops-near-zero", "fails_if"),
                           ("adversarial-pairs-control-lexical-similarity", "fails_if")):
        keys = claims.rule_keys(getattr(claim(claim_id), side))
        assert [key for key in keys if key not in values and key != "figure4_near_zero_margin"] == [], claim_id


@pytest.mark.needs_data
def test_published_intervals_read_every_level_from_one_draw_and_are_the_claims_keys():
    """On the authors' files: published_intervals and defsent_vs_sentbert give every interval the
    chapter glued before from separate bootstraps (the 95% and 90% intervals, and each union's at
    Bonferroni's level) bit for bit, each file bootstrapped once; every union's interval contains
    its single test's (95% for a direction, 90% for an equivalence test); no quantity outside a
    union gets a _bonf key; and the keys are those the claims read."""
    from compsem.data import shared_sentences, sts3k
    from compsem.stats import bonferroni_level
    from compsem.sts import chapter as C
    from compsem.sts.families import UNION_FAMILIES
    from compsem.sts.similarity import bootstrap_difference, bootstrap_spearman

    pairs = sts3k.load_pairs()
    human = pairs["human"].to_numpy()
    non, adv = sts3k.portion_mask(pairs, "non"), sts3k.portion_mask(pairs, "adv")
    clusters = shared_sentences.sentence_clusters(pairs)  # the bootstrap's units
    table, values = C.published_intervals(pairs, n_resamples=200, seed=3)
    _, defsent = C.defsent_vs_sentbert(n_resamples=200, seed=3)
    assert list(table.index) == list(table9.PUBLISHED_ROWS)
    for row in ("SentBERT", "VerbNet-CN", "Mean-CN"):  # one call per level, as the chapter did before
        sims = sts3k.load_published_similarities(table9.cell_file(row, "STS3k-adv"))
        key = table9.ROW_SLUGS[row]
        families = [UNION_FAMILIES[f] for f, rows in C.ADV_FAMILIES.items() if row in rows]
        for tag, level in {"ci": 0.95, **{f"bonf{k}_ci": bonferroni_level(k, 1 - 0.95) for k in families}}.items():
            assert (values[f"table9_{key}_sts3k_adv_{tag}_low"], values[f"table9_{key}_sts3k_adv_{tag}_high"]) == \
                bootstrap_spearman(sims, human, adv, n_boot=200, seed=3, level=level, clusters=clusters), (row, tag)
        drop_levels = {"ci": 0.95, "ci90": 0.90, "bonf16_ci": bonferroni_level(16, 1 - 0.95)}
        if row in C.HYBRID_DROP_ROWS:
            drop_levels["bonf2_ci"] = bonferroni_level(2, 1 - 0.90)
        for tag, level in drop_levels.items():
            assert (values[f"table9_drop_{key}_{tag}_low"], values[f"table9_drop_{key}_{tag}_high"]) == \
                bootstrap_difference(sims, human, non, adv, n_boot=200, seed=3, level=level, clusters=clusters), (row, tag)
    assert "table9_mean_cn_sts3k_adv_bonf6_ci_low" not in values and "table9_drop_sentbert_bonf2_ci_low" not in values
    for columns, level, tag in (([c for c in C.DEFSENT_COLUMNS], 0.95, "ci"), ([c for c in C.DEFSENT_COLUMNS], 0.90, "ci90"),
                                (["STS3k-adv"], bonferroni_level(6, 1 - 0.95), "bonf6_ci"),
                                (list(C.DEFSENT_FAMILY[1]), bonferroni_level(6, 1 - 0.90), "bonf6_ci")):
        alone = table9.paired_published("DefSent", "SentBERT", columns, n_resamples=200, seed=3, level=level)
        for column, row in alone.iterrows():
            key = f"defsent_minus_sentbert_{table9.COLUMN_SLUGS[column]}"
            assert (defsent[f"{key}_{tag}_low"], defsent[f"{key}_{tag}_high"]) == (row["ci_low"], row["ci_high"])
            if tag == "ci":
                assert (defsent[key], defsent[f"{key}_p"]) == (row["difference"], row["p"])
    assert "defsent_minus_sentbert_sts3k_all_bonf6_ci_low" not in defsent
    equivalence = {"table9_drop_verbnet_cn_bonf2", "table9_drop_amr_cn_bonf2"} | {
        f"defsent_minus_sentbert_{table9.COLUMN_SLUGS[c]}_bonf6" for c in C.DEFSENT_FAMILY[1]}
    bonf = {key: value for key, value in (values | defsent).items() if "_bonf" in key}
    assert len(bonf) == 2 * (6 + 6 + 11 + 16 + 2 + 6)
    for key, value in bonf.items():
        stem, bound = key.rsplit("_ci_", 1)
        reference = (values | defsent)[f"{stem.rsplit('_bonf', 1)[0]}_{'ci90' if stem in equivalence else 'ci'}_{bound}"]
        assert value <= reference if bound == "low" else value >= reference, key
    for claim_id in ("transformers-poor-on-adversarial", "hybrids-beat-transformers-adversarial",
                     "figure4-mean-drop-largest", "figure4-hybrid-drops-near-zero",
                     "defsent-beats-sentbert-only-on-adversarial"):
        keys = claims.rule_keys(claim(claim_id).fails_if) + claims.rule_keys(claim(claim_id).holds_if)
        assert {k for k in keys if k.startswith(("table9_", "defsent_"))} <= set(values | defsent), claim_id
