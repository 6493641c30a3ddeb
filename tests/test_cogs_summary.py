"""The Section 4.5 summary (compsem.cogs.summary): per-run means, seed intervals, Welch's
difference, Table 4-5 assembly, per-run Active -> Passive errors, exact beside semantic match."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem.cogs import evaluation as ev
from compsem.cogs import summary


def _collected():
    rows = []
    for seed, level in ((1, 0.2), (2, 0.4), (3, 0.6)):
        for case in ev.CASE_ORDER:
            value = 0.0 if case in ev.STRUCTURAL_CASES else level
            rows.append({"model": "transformer", "exposures": 1, "seed": seed,
                         "quantity": case, "accuracy": value})
        rows += [{"model": "transformer", "exposures": 1, "seed": seed, "quantity": q,
                  "accuracy": 0.95} for q in ("dev", "test")]
    return pd.DataFrame(rows)


def test_run_level_means_are_figure_4_1s():
    per_run = summary.run_level(_collected()).set_index("seed")
    assert per_run.loc[2, "lexical"] == pytest.approx(0.4)
    assert per_run.loc[2, "structural"] == 0
    assert per_run.loc[2, "gen"] == pytest.approx(0.4 * 18 / 21)
    assert per_run.loc[1, "dev"] == 0.95


def test_welch_difference_agrees_with_scipy():
    ours = np.array([0.40, 0.45, 0.49])
    diff, low, high = summary.welch_difference(ours, 0.35, 0.06, 5)
    # the same test from the summary statistics: the interval excludes 0 iff p < .05
    p = stats.ttest_ind_from_stats(ours.mean(), ours.std(ddof=1), 3, 0.35, 0.06, 5,
                                   equal_var=False).pvalue
    assert diff == pytest.approx(ours.mean() - 0.35)
    assert (low > 0) == (p < 0.05)
    t = diff / math.sqrt(ours.var(ddof=1) / 3 + 0.06**2 / 5)
    assert p == pytest.approx(2 * stats.t.sf(abs(t), _welch_dof(ours, 0.06, 5)))
    assert (high - low) / 2 == pytest.approx(
        stats.t.ppf(0.975, _welch_dof(ours, 0.06, 5)) * math.sqrt(ours.var(ddof=1) / 3 + 0.06**2 / 5)
    )


def test_welch_p_value_is_the_test_of_welchs_interval():
    ours = np.array([0.40, 0.45, 0.49, 0.43])
    p = summary.welch_p_value(ours, 0.35, 0.06, 5)
    expected = stats.ttest_ind_from_stats(ours.mean(), ours.std(ddof=1), 4, 0.35, 0.06, 5,
                                          equal_var=False).pvalue
    assert p == pytest.approx(expected)
    # the interval at level 1 - p has the paper's mean (difference 0) on its edge
    _, low, high = summary.welch_difference(ours, 0.35, 0.06, 5, level=1 - p)
    assert min(abs(low), abs(high)) == pytest.approx(0, abs=1e-9)
    # no spread on either side: equal means do not differ, others do
    assert summary.welch_p_value([0.0, 0.0, 0.0], 0.0, 0.0) == 1.0
    assert summary.welch_p_value([0.5, 0.5, 0.5], 0.0, 0.0) == 0.0
    # our seeds without spread against the paper's assumed SD: 4 degrees of freedom
    t = 0.05 / math.sqrt(0.01**2 / 5)
    assert summary.welch_p_value([0.05] * 5, 0.0, 0.01) == pytest.approx(2 * stats.t.sf(t, 4))


def test_case_sd_from_tolerance_inverts_the_per_case_tolerance():
    for printed, case_sd in ((0.45, 0.07), (0.0, 0.07), (0.17, 0.07)):
        tol = summary.per_case_tolerance(printed, case_sd)
        s = min(case_sd, summary.largest_seed_sd(printed))
        assert summary.case_sd_from_tolerance(tol) == pytest.approx(s, abs=1e-4)


def test_welch_difference_level():
    ours = np.array([0.40, 0.45, 0.49, 0.43])
    diff, low95, high95 = summary.welch_difference(ours, 0.35, 0.06, 5)
    assert (diff, low95, high95) == summary.welch_difference(ours, 0.35, 0.06, 5, level=0.95)
    diff90, low90, high90 = summary.welch_difference(ours, 0.35, 0.06, 5, level=0.90)
    assert diff90 == diff == pytest.approx(ours.mean() - 0.35)
    se = math.sqrt(ours.var(ddof=1) / 4 + 0.06**2 / 5)
    dof = _welch_dof(ours, 0.06, 5)
    assert (high90 - low90) / 2 == pytest.approx(stats.t.ppf(0.95, dof) * se)
    assert (high95 - low95) / 2 == pytest.approx(stats.t.ppf(0.975, dof) * se)
    assert low95 < low90 < diff < high90 < high95
    # the 90% interval excludes 0 exactly when the one-sided Welch test (alternative: ours
    # greater) rejects at 5%
    p_greater = stats.ttest_ind_from_stats(ours.mean(), ours.std(ddof=1), 4, 0.35, 0.06, 5,
                                           equal_var=False, alternative="greater").pvalue
    assert (low90 > 0) == (p_greater < 0.05)
    # at level 1 - 2p the lower end is exactly 0
    edge = summary.welch_difference(ours, 0.35, 0.06, 5, level=1 - 2 * p_greater)
    assert edge[1] == pytest.approx(0, abs=1e-12)


def _welch_dof(ours, sd, n):
    a, b = ours.var(ddof=1) / len(ours), sd**2 / n
    return (a + b) ** 2 / (a**2 / (len(ours) - 1) + b**2 / (n - 1))


def test_table_4_5_and_findings_table():
    collected = _collected()
    per_run = summary.run_level(collected)
    paper = {summary.target_key("transformer", 1, q): 0.3 for q in [*ev.CASE_ORDER, "gen"]}
    paper[summary.target_key("transformer", 1, "lexical")] = 0.9
    table, means = summary.table_4_5(collected, per_run, ["transformer", "lstm"], [1], paper,
                                     {"transformer": "T", "lstm": "L"})
    assert means["cogs_t45_transformer_1_subj_to_obj_common"] == pytest.approx(0.4)
    assert means["cogs_fig41_transformer_1_lexical"] == pytest.approx(0.4)
    assert not any(k.startswith("cogs_t45_lstm") for k in means)
    assert table.loc["mean: lexical", ("1 exposure", "T", "ours")] == "0.40 ± 0.20 (n=3)"
    assert table.loc["mean: lexical", ("1 exposure", "L", "ours")].startswith("pending")
    found = summary.findings_table(collected, per_run, "transformer", 1, paper)
    # ours [-.097, .897]: a printed .9 (any of [.895, .905]) meets it, a printed .91 does not
    assert found.loc["mean: lexical", "paper inside"] is True
    paper[summary.target_key("transformer", 1, "lexical")] = 0.91
    found = summary.findings_table(collected, per_run, "transformer", 1, paper)
    assert found.loc["mean: lexical", "paper inside"] is False
    assert found.loc[ev.CASE_LABELS["subj_to_obj_common"], "paper inside"] is True
    assert found.loc["mean: gen", "seeds"] == 3


def _analysed(errors_per_seed):
    rows = []
    for seed, n_errors in errors_per_seed.items():
        for i in range(10):
            wrong = i < n_errors
            rows.append({"split": "gen", "row": i, "case": "active_to_passive", "seed": seed,
                         "source": "A cake was baked .",
                         "target": "cake ( x _ 1 ) AND bake . theme ( x _ 3 , x _ 1 )",
                         "prediction": "cake ( x _ 1 ) AND eat . theme ( x _ 3 , x _ 1 )"
                         if wrong else "cake ( x _ 1 ) AND bake . theme ( x _ 3 , x _ 1 )"})
        rows.append({"split": "test", "row": 0, "case": "in_distribution", "seed": seed,
                     "source": "x", "target": "a ( x _ 1 )", "prediction": "a ( x _ 1 )"})
    return ev.analyse(pd.DataFrame(rows))


def test_active_passive_errors_are_counted_per_run():
    frame = _analysed({1: 2, 2: 4, 3: 6})
    assert summary.analyses(frame)["active → passive: errors"] == pytest.approx(4)
    table = summary.active_passive_table(frame)
    assert table["errors"].tolist() == [2, 4, 6]
    assert table["same structure"].tolist() == [2, 4, 6]
    assert table["different structure"].sum() == 0


def test_exact_and_semantic_per_run():
    frame = _analysed({1: 0, 2: 5})
    table = summary.exact_and_semantic(frame)
    assert table.loc[1, "gen exact"] == 1 and table.loc[2, "gen exact"] == pytest.approx(0.5)
    assert (table["gen semantic"] >= table["gen exact"]).all()
    assert table.loc[2, "gen semantic − exact"] == pytest.approx(0)  # eat for bake: a real error


def test_largest_seed_sd_is_the_widest_spread_five_accuracies_allow():
    # printed .00: the mean is at most .005; one run at .025 and four at 0 spread the most
    assert summary.largest_seed_sd(0.0) == pytest.approx(np.std([0.025, 0, 0, 0, 0]))
    assert summary.largest_seed_sd(0.0) == pytest.approx(0.01)
    # 5q whole: runs at 0 and 1 only, sqrt(q(1-q))
    assert summary.largest_seed_sd(0.195) == pytest.approx(np.std([1, 0, 0, 0, 0]))
    assert summary.largest_seed_sd(0.50) == pytest.approx(np.std([1, 1, 0.5, 0, 0]))
    # symmetric: printed .99 is as narrow as printed .01
    assert summary.largest_seed_sd(0.99) == pytest.approx(summary.largest_seed_sd(0.01))
    # no five values in [0, 1] with that mean spread more (a coarse search)
    grid = np.linspace(0, 1, 21)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        runs = rng.choice(grid, 5)
        if runs.mean() <= 0.015:
            assert runs.std() <= summary.largest_seed_sd(0.01) + 1e-12


def test_per_case_tolerance_is_two_sd_of_a_difference_of_two_5_seed_means():
    assert summary.per_case_tolerance(0.45, 0.07) == pytest.approx(2 * 0.07 * np.sqrt(2 / 5), abs=1e-5)
    assert summary.per_case_tolerance(0.45, 0.07) <= 2 * 0.07 * np.sqrt(2 / 5)
    assert summary.per_case_tolerance(0.0, 0.07) == pytest.approx(2 * 0.01 * np.sqrt(2 / 5), abs=1e-5)


def test_table_4_5_tolerances_follow_the_per_case_rule():
    """Every Table 4-5 cell whose source states the per-case rule carries its tolerance."""
    import re

    from compsem import report

    ruled = {k: t for k, t in report.load_targets("cogs-models").items()
             if "compsem.cogs.summary.largest_seed_sd" in t["source"]}
    assert len(ruled) == 128  # 125 cells of Table 4-5 and each model's depth 3-5 of Table 4-6
    for key, target in ruled.items():
        case_sd = float(re.search(r"= (0\.\d+) \(equal only", target["source"]).group(1))
        assert target["tol"] == summary.per_case_tolerance(target["paper"], case_sd), key


# --------------------------------------------------------------------------- pooled ratios over seeds


ERRORS = [11075, 12610, 11162, 19964, 13540]  # errors per seed (the Transformer's, one exposure)
NOT_PAREN = [43, 406, 166, 2462, 1313]  # of which not ending in ')'


def test_pooled_ratio_weighs_seeds_by_their_errors():
    assert summary.pooled_ratio(NOT_PAREN, ERRORS) == pytest.approx(sum(NOT_PAREN) / sum(ERRORS))
    # not the mean of the seeds' own ratios, which weighs every seed the same
    assert summary.pooled_ratio(NOT_PAREN, ERRORS) != pytest.approx(
        np.mean(np.divide(NOT_PAREN, ERRORS)), abs=1e-3
    )
    assert summary.pooled_ratio([1, 3], [1, 3]) == 1.0
    for numerators, denominators, message in (
        ([1, 2], [1], "one numerator and one denominator"),
        ([1], [1], "at least 2 seeds"),
        ([1, 2], [0, 0], "not all 0"),
        ([1, 2], [-1, 3], "not negative"),
        ([1, np.nan], [1, 2], "finite"),
    ):
        with pytest.raises(ValueError, match=message):
            summary.pooled_ratio(numerators, denominators)


def test_pooled_ratio_se_is_the_cluster_se_of_a_ratio_written_out():
    # by hand, seed by seed: residuals num_i - R den_i, the n/(n - 1) factor, over sum(den)
    n, ratio = len(ERRORS), sum(NOT_PAREN) / sum(ERRORS)
    residuals = [a - ratio * d for a, d in zip(NOT_PAREN, ERRORS, strict=True)]
    expected = math.sqrt(n / (n - 1) * sum(r * r for r in residuals)) / sum(ERRORS)
    assert summary.pooled_ratio_se(NOT_PAREN, ERRORS) == pytest.approx(expected, rel=1e-12)
    # identical seeds: no spread; equal denominators: the SE of the mean of the seeds' ratios
    assert summary.pooled_ratio_se([5, 5, 5], [10, 10, 10]) == 0.0
    shares = np.array([0.1, 0.3, 0.2, 0.5])
    assert summary.pooled_ratio_se(shares * 100, [100] * 4) == pytest.approx(
        shares.std(ddof=1) / math.sqrt(4))
    with pytest.raises(ValueError, match="at least 2 seeds"):
        summary.pooled_ratio_se([1], [2])


def test_pooled_ratio_se_is_unbiased_where_a_bootstrap_over_few_seeds_is_not():
    # 5 seeds drawn many times: the variance of the pooled ratio against the mean of the squared
    # cluster SE (unbiased up to the linearisation), and against the plug-in (n - 1)/n of it, 20% low
    rng = np.random.default_rng(0)
    ratios, squared = [], []
    for _ in range(4000):
        errors = rng.integers(9000, 15000, 5).astype(float)
        numerators = rng.binomial(errors.astype(int), rng.uniform(0.02, 0.2, 5)).astype(float)
        ratios.append(numerators.sum() / errors.sum())
        squared.append(summary.pooled_ratio_se(numerators, errors) ** 2)
    assert np.mean(squared) == pytest.approx(np.var(ratios, ddof=1), rel=0.1)
    assert np.mean(squared) * 4 / 5 < 0.9 * np.var(ratios, ddof=1)


def test_pooled_interval_is_students_t_with_the_cluster_se():
    ratio, low, high = summary.pooled_interval(NOT_PAREN, ERRORS, level=0.9)
    se = summary.pooled_ratio_se(NOT_PAREN, ERRORS)
    assert ratio == pytest.approx(summary.pooled_ratio(NOT_PAREN, ERRORS))
    assert (low, high) == pytest.approx((ratio - stats.t.ppf(0.95, 4) * se, ratio + stats.t.ppf(0.95, 4) * se))
    wider = summary.pooled_interval(NOT_PAREN, ERRORS, level=0.99)
    assert wider[1] < low and wider[2] > high


def test_pooled_welch_difference_is_welchs_interval_with_the_cluster_se():
    paper, paper_sd = 0.12, 0.12 * 0.06 / 0.35
    difference, low, high, se = summary.pooled_welch_difference(NOT_PAREN, ERRORS, paper, paper_sd, level=0.9)
    assert se == pytest.approx(summary.pooled_ratio_se(NOT_PAREN, ERRORS))
    assert difference == pytest.approx(sum(NOT_PAREN) / sum(ERRORS) - paper)
    half = summary.welch_half_width(se**2, len(ERRORS), paper_sd, 5, 0.9)
    assert (low, high) == pytest.approx((difference - half, difference + half))
    # by hand: Welch-Satterthwaite degrees of freedom, 4 on each side
    ours_var, paper_var = se**2, paper_sd**2 / 5
    dof = (ours_var + paper_var) ** 2 / (ours_var**2 / 4 + paper_var**2 / 4)
    assert half == pytest.approx(stats.t.ppf(0.95, dof) * math.sqrt(ours_var + paper_var))
    # no spread on either side: the difference is exact
    assert summary.pooled_welch_difference([5, 5], [10, 10], 0.4, 0.0) == (
        pytest.approx(0.1), pytest.approx(0.1), pytest.approx(0.1), 0.0)
