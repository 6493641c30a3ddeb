"""Intervals and tests added to Carvalho et al. (compsem.modifiers.statistics)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem.modifiers import statistics as S
from compsem.modifiers.lexicon import CLASSES
from compsem.stats import label_permutation_test

LABELS = np.array(["S-I"] * 4 + ["S-NI"] * 3 + ["NS-Pl"] * 5 + ["NS-Pr"] * 4 + ["A"] * 2)


def test_class_and_cell_scores():
    grid = np.zeros((len(LABELS), 3))
    grid[LABELS == "S-I"] = 1
    grid[LABELS == "A", 0] = 1
    assert S.class_scores(grid, LABELS).tolist() == pytest.approx([1, 0, 0, 0, 1 / 3])
    per_noun = S.per_noun(grid, LABELS, ["x", "y", "z"])
    assert per_noun.loc["x", "A"] == 1 and per_noun.loc["y", "A"] == 0
    n = len(LABELS)
    aan = np.full((n, n, 3), 0.0)
    aan[np.ix_(LABELS == "S-I", LABELS == "A")] = 1.0
    aan[np.arange(n), np.arange(n)] = np.nan
    Smat, W = S.pair_matrix(aan)
    cells = S.cell_scores(Smat, W, LABELS)
    assert cells[0, 4] == 1.0 and np.nansum(cells) == 1.0
    assert np.diag(W).sum() == 0


def test_adjective_grid_places_values():
    phrases = pd.DataFrame({"kind": ["AN", "AN"], "adj1": ["b", "a"], "noun": ["n2", "n1"]})

    class Lex:
        adjectives = pd.DataFrame({"word": ["a", "b"]})
        nouns = pd.DataFrame({"word": ["n1", "n2"]})

    grid = S.adjective_grid(phrases, [1.0, 0.5], Lex())
    assert grid[1, 1] == 1.0 and grid[0, 0] == 0.5 and np.isnan(grid[0, 1])


def test_permutation_test_detects_a_real_difference_and_not_a_null_one():
    rng = np.random.default_rng(1)
    strong = (rng.random((len(LABELS), 12)) < np.where(LABELS == "S-I", 0.95, 0.2)[:, None]).astype(
        float
    )
    result = S.permutation_test(S.omnibus_single(strong), LABELS, n_perm=500, seed=0)
    assert result["p_value"] < 0.01
    flat = (rng.random((len(LABELS), 12)) < 0.5).astype(float)
    result = S.permutation_test(S.omnibus_single(flat), LABELS, n_perm=500, seed=0)
    assert result["p_value"] > 0.05
    assert len(result["null"]) == 500


def test_permutation_p_value_bounds_and_alternatives():
    grid = np.tile((LABELS == "NS-Pr").astype(float)[:, None], (1, 4))
    stat = S.contrast(grid, ["NS-Pr"], ["S-I", "S-NI"])
    greater = S.permutation_test(stat, LABELS, n_perm=200, seed=3)
    assert greater["observed"] == 1.0 and greater["p_value"] < 0.05
    less = S.permutation_test(stat, LABELS, n_perm=200, seed=3, alternative="less")
    assert less["p_value"] == 1.0
    with pytest.raises(ValueError, match="alternative"):
        S.permutation_test(stat, LABELS, alternative="bigger")


def test_permutation_test_is_compsem_stats_label_permutation_test():
    grid = (np.random.default_rng(2).random((len(LABELS), 6)) < 0.5).astype(float)
    stat = S.omnibus_single(grid)
    ours = S.permutation_test(stat, LABELS, 300, 4, "less")
    direct = label_permutation_test(stat, LABELS, n_resamples=300, seed=4, alternative="less")
    assert ours["p_value"] == direct["p_value"] and ours["observed"] == direct["observed"]
    np.testing.assert_array_equal(ours["null"], direct["null"])


def test_class_resample_stays_within_class_and_keeps_sizes():
    rng = np.random.default_rng(0)
    for _ in range(200):
        idx = S._class_resample(LABELS, rng)
        assert idx.shape == LABELS.shape
        assert (LABELS[idx] == LABELS).all()  # every slot drawn from its own class


def test_class_resample_draws_each_member_uniformly_with_replacement():
    """Each slot of a class of k adjectives holds each member with probability 1/k, slots
    independently: over 4,000 resamples the counts match 1/k (chi-square, p > .001), and a
    class is drawn without any repeat as often as k!/k^k predicts."""
    rng = np.random.default_rng(1)
    draws = np.stack([S._class_resample(LABELS, rng) for _ in range(4000)])
    for cls in CLASSES:
        members = np.flatnonzero(LABELS == cls)
        k = len(members)
        counts = np.array([(draws[:, members] == m).sum() for m in members])
        assert stats.chisquare(counts).pvalue > 1e-3, cls
        distinct = np.array([len(set(row)) == k for row in draws[:, members]])
        expected = math.factorial(k) / k**k
        assert abs(distinct.mean() - expected) < 4 * np.sqrt(expected * (1 - expected) / 4000), cls


def test_bootstrap_classes_without_nouns_matches_scipy_per_class():
    """With nouns fixed, a class's score resampled within class is the bootstrap of the mean of
    its adjectives' means, which scipy does class by class: the two percentile intervals agree
    to Monte-Carlo error (independent draws, 4,000 each; a bound can jump between adjacent
    atoms of the discrete bootstrap distribution of a small class, up to ~0.4 standard errors)."""
    rng = np.random.default_rng(3)
    grid = rng.random((len(LABELS), 12))
    boot = S.bootstrap_classes(grid, LABELS, n_boot=4000, seed=0, level=0.9, resample_nouns=False)
    for cls in CLASSES:
        per_adj = grid[LABELS == cls].mean(axis=1)
        direct = stats.bootstrap((per_adj,), np.mean, n_resamples=4000, confidence_level=0.9,
                                 method="percentile", rng=np.random.default_rng(1))
        se = per_adj.std() / np.sqrt(len(per_adj))
        ci = direct.confidence_interval
        assert boot.loc[cls, "low"] == pytest.approx(ci.low, abs=0.5 * se), cls
        assert boot.loc[cls, "high"] == pytest.approx(ci.high, abs=0.5 * se), cls


def test_bootstrap_intervals_cover_the_estimate_and_vanish_without_variation():
    rng = np.random.default_rng(0)
    grid = (rng.random((len(LABELS), 12)) < 0.6).astype(float)
    boot = S.bootstrap_classes(grid, LABELS, n_boot=300, seed=0)
    assert list(boot.index) == list(CLASSES)
    assert (boot["low"] <= boot["score"]).all() and (boot["score"] <= boot["high"]).all()
    constant = np.ones((len(LABELS), 12))
    boot = S.bootstrap_classes(constant, LABELS, n_boot=50, seed=0)
    assert (boot["low"] == 1).all() and (boot["high"] == 1).all()


def _class_bootstrap_by_hand(grid, labels, n_boot, seed, level):
    """The percentile bounds of bootstrap_classes with nouns resampled, written out: per
    resample, adjectives drawn with replacement within each class (classes in sorted order,
    one rng.choice each), then the nouns (one rng.integers(0, n_noun, n_noun))."""
    rng = np.random.default_rng(seed)
    n_noun = grid.shape[1]
    draws = np.empty((n_boot, len(CLASSES)))
    for b in range(n_boot):
        idx = np.empty(len(labels), dtype=np.int64)
        for cls in sorted(set(labels)):
            members = np.flatnonzero(labels == cls)
            idx[members] = rng.choice(members, size=len(members), replace=True)
        cols = rng.integers(0, n_noun, n_noun)
        resampled = grid[idx][:, cols]
        for j, cls in enumerate(CLASSES):
            draws[b, j] = resampled[labels == cls].mean()
    alpha = (1 - level) / 2
    return np.quantile(draws, alpha, axis=0), np.quantile(draws, 1 - alpha, axis=0)


def test_bootstrap_classes_resamples_nouns_by_default():
    """The adjectives of a class are identical and only the nouns vary: resampling adjectives
    within class cannot move a class score, so the interval has width 0 with the nouns fixed and
    width > 0 only where the nouns are resampled (the default, the chapter's path). The bounds
    are those of the resampling written out by hand."""
    rng = np.random.default_rng(5)
    per_class = rng.random((len(CLASSES), 12))  # one row of noun values per class
    grid = per_class[[CLASSES.index(c) for c in LABELS]]
    boot = S.bootstrap_classes(grid, LABELS, n_boot=300, seed=2, level=0.9)
    assert ((boot["high"] - boot["low"]) > 0.05).all()
    fixed = S.bootstrap_classes(grid, LABELS, n_boot=300, seed=2, level=0.9, resample_nouns=False)
    assert (fixed["low"] == fixed["score"]).all() and (fixed["high"] == fixed["score"]).all()
    assert fixed["score"].to_numpy() == pytest.approx(per_class.mean(axis=1))
    low, high = _class_bootstrap_by_hand(grid, LABELS, 300, 2, 0.9)
    np.testing.assert_allclose(boot["low"], low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(boot["high"], high, rtol=0, atol=1e-12)
    # adjectives and nouns both varying: adjective and noun draws taken together, in that order
    mixed = rng.random((len(LABELS), 12))
    boot = S.bootstrap_classes(mixed, LABELS, n_boot=300, seed=7)
    low, high = _class_bootstrap_by_hand(mixed, LABELS, 300, 7, 0.95)
    np.testing.assert_allclose(boot["low"], low, rtol=0, atol=1e-12)
    np.testing.assert_allclose(boot["high"], high, rtol=0, atol=1e-12)


def test_bootstrap_cells_ignores_self_pairs():
    """W is 1 on the diagonal too, so only the mask gives a pair of two copies of one adjective
    (and a slot paired with itself) weight 0; S is 0 there and 1 on every pair of two different
    adjectives, so every resampled cell is 1 exactly, and any self-pair kept would pull it below."""
    n = len(LABELS)
    Smat = np.ones((n, n)) - np.eye(n)
    W = np.ones((n, n))
    boot = S.bootstrap_cells(Smat, W, LABELS, n_boot=50, seed=0)
    assert (boot["low"] == 1.0).all() and (boot["high"] == 1.0).all()
    assert (np.diag(boot["score"]) < 1.0).all()  # unresampled, the diagonal of W counts


def test_label_shuffle_null_and_chi_square():
    grid = np.tile((LABELS == "S-I").astype(float)[:, None], (1, 12))
    null = S.label_shuffle_null(lambda lab: S.class_scores(grid, lab), LABELS, n_perm=100, seed=0)
    assert null.shape == (100, 5)
    assert np.allclose(null.mean(axis=0), 4 / 18, atol=0.08)  # every class near the base rate
    chi = S.chi_square(grid, LABELS)
    assert chi["p_value"] < 1e-10 and chi["dof"] == 4
    assert S.chi_square(np.ones_like(grid), LABELS)["p_value"] == 1.0
    assert S.between_class_variance([0.5, 0.5], [3, 4]) == 0.0


# --------------------------------------------------------------------------- bootstrap_statistic, pair_resampled, spread


def _class_mean_statistic(values, cls="S-I"):
    return lambda idx: float(values[idx][LABELS == cls].mean())


def test_bootstrap_statistic_observed_and_percentile_interval():
    values = np.random.default_rng(0).random(len(LABELS))
    seen = []

    def statistic(idx):
        seen.append(idx.copy())
        return float(values[idx][LABELS == "NS-Pl"].mean())

    observed, low, high = S.bootstrap_statistic(statistic, LABELS, n_boot=400, seed=1, level=0.9)
    np.testing.assert_array_equal(seen[0], np.arange(len(LABELS)))  # observed: lexicon order
    assert observed == pytest.approx(values[LABELS == "NS-Pl"].mean())
    assert len(seen) == 401 and all((LABELS[i] == LABELS).all() for i in seen)  # within class
    members = values[LABELS == "NS-Pl"]
    assert members.min() <= low < observed < high <= members.max()
    draws = np.array([values[i][LABELS == "NS-Pl"].mean() for i in seen[1:]])
    assert (low, high) == pytest.approx(tuple(np.quantile(draws, [0.05, 0.95])))
    # the same draws as bootstrap_classes without noun resampling (same resampler, same seed)
    grid = np.tile(values[:, None], (1, 3))
    boot = S.bootstrap_classes(grid, LABELS, n_boot=400, seed=1, level=0.9, resample_nouns=False)
    assert (boot.loc["NS-Pl", "low"], boot.loc["NS-Pl", "high"]) == pytest.approx((low, high))


def test_bootstrap_statistic_basic_interval_is_the_reflected_percentile_interval():
    values = np.random.default_rng(2).random(len(LABELS)) ** 3  # skewed
    stat = _class_mean_statistic(values, "NS-Pr")
    obs, p_low, p_high = S.bootstrap_statistic(stat, LABELS, n_boot=300, seed=7, level=0.8)
    obs_b, b_low, b_high = S.bootstrap_statistic(stat, LABELS, n_boot=300, seed=7, level=0.8,
                                                 method="basic")
    assert obs_b == obs
    assert b_low == pytest.approx(2 * obs - p_high) and b_high == pytest.approx(2 * obs - p_low)
    assert (b_low, b_high) != pytest.approx((p_low, p_high))  # a skewed statistic: not symmetric
    with pytest.raises(ValueError, match="method must be 'percentile' or 'basic', not 'bca'"):
        S.bootstrap_statistic(stat, LABELS, n_boot=10, method="bca")


def test_bootstrap_statistic_is_seeded_and_leaves_out_nan_resamples():
    values = np.random.default_rng(3).random(len(LABELS))
    stat = _class_mean_statistic(values, "S-I")
    first = S.bootstrap_statistic(stat, LABELS, n_boot=200, seed=4)
    assert S.bootstrap_statistic(stat, LABELS, n_boot=200, seed=4) == first
    assert S.bootstrap_statistic(stat, LABELS, n_boot=200, seed=5)[1:] != first[1:]
    # a statistic that is NaN unless the two A slots hold different adjectives (half the resamples)
    a = np.flatnonzero(LABELS == "A")

    def sometimes(idx):
        return float(values[idx][a].mean()) if idx[a[0]] != idx[a[1]] else float("nan")

    observed, low, high = S.bootstrap_statistic(sometimes, LABELS, n_boot=200, seed=0)
    assert observed == pytest.approx(values[a].mean())
    assert low == pytest.approx(observed) and high == pytest.approx(observed)  # only {a0, a1} left
    never = S.bootstrap_statistic(lambda idx: float("nan"), LABELS, n_boot=20, seed=0)
    assert np.isnan(never[0]) and np.isnan(never[1]) and np.isnan(never[2])


def test_bootstrap_statistic_of_a_class_level_quantity_has_no_width():
    """A statistic of the class labels only does not move when adjectives are resampled within
    class: both intervals are the observed value."""
    per_class = {c: i for i, c in enumerate(CLASSES)}
    coded = np.array([per_class[c] for c in LABELS], dtype=float)

    def stat(idx):
        return float(coded[idx].mean())

    for method in ("percentile", "basic"):
        observed, low, high = S.bootstrap_statistic(stat, LABELS, n_boot=50, seed=0, method=method)
        assert observed == low == high == pytest.approx(coded.mean())


def test_pair_resampled_zeroes_the_pairs_of_two_copies():
    n = 4
    Smat = np.arange(n * n, dtype=float).reshape(n, n)
    W = 1.0 - np.eye(n)
    same_S, same_W = S.pair_resampled(Smat, W, np.arange(n))
    np.testing.assert_array_equal(same_S, Smat)
    np.testing.assert_array_equal(same_W, W)
    idx = np.array([0, 0, 2, 3])
    Sb, Wb = S.pair_resampled(Smat, W, idx)
    np.testing.assert_array_equal(Sb, Smat[np.ix_(idx, idx)])
    assert Sb[0, 1] == Smat[0, 0]
    expected = 1.0 - np.eye(n)
    expected[0, 1] = expected[1, 0] = 0.0  # slots 0 and 1 are both adjective 0
    np.testing.assert_array_equal(Wb, expected)
    # other weights are carried over, not reset to 1
    Wb2 = S.pair_resampled(Smat, 0.5 * W, np.array([3, 2, 1, 0]))[1]
    np.testing.assert_array_equal(Wb2, 0.5 * W)
    # weights that are not 0 on the diagonal: only the mask zeroes the two copies' pairs (and
    # each slot paired with itself), every other weight is the one of its adjectives' pair
    W_full = np.arange(1.0, n * n + 1).reshape(n, n)
    Sb, Wb = S.pair_resampled(Smat, W_full, idx)
    np.testing.assert_array_equal(Sb, Smat[np.ix_(idx, idx)])
    np.testing.assert_array_equal(
        Wb,
        [[0, 0, 3, 4],
         [0, 0, 3, 4],
         [9, 9, 0, 12],
         [13, 13, 15, 0]],
    )


def test_spread_is_largest_minus_smallest_ignoring_nan():
    assert S.spread([0.2, 0.5, np.nan, 0.3]) == pytest.approx(0.3)
    assert S.spread(np.full((5, 5), 0.7)) == 0.0
    assert S.spread([[0.1, 0.9], [np.nan, 0.4]]) == pytest.approx(0.8)  # any shape
    assert S.spread([-1.0, 2.0]) == pytest.approx(3.0)
    assert isinstance(S.spread([1, 2]), float)


def test_t_classes_is_the_t_test_interval_and_widens_for_small_classes():
    # MPNet's class A on the synonym control (three adjectives): the interval at the Bonferroni
    # level over 20 classes is far wider than the three scores' range
    labels = np.array(["A"] * 3 + ["S-I"] * 4 + ["NS-Pl"] * 2)
    scores = np.array([0.136, 0.042, 0.400, 0.2, 0.5, 0.6, 0.9, 0.3, 0.3])
    grid = np.repeat(scores[:, None], 4, axis=1)
    out = S.t_classes(grid, labels, level=1 - 0.1 / 20, classes=["A", "S-I", "NS-Pl", "NS-Pr"])
    a = scores[:3]
    half = stats.t.ppf(1 - 0.1 / 40, 2) * a.std(ddof=1) / math.sqrt(3)
    assert out.loc["A", "score"] == pytest.approx(a.mean())
    assert (out.loc["A", "low"], out.loc["A", "high"]) == pytest.approx((a.mean() - half, a.mean() + half))
    assert out.loc["A", "low"] < a.min() and out.loc["A", "high"] > a.max()
    # the same adjective scores throughout: the point; an empty class: no interval
    assert out.loc["NS-Pl", "low"] == out.loc["NS-Pl", "high"] == 0.3
    assert out.loc["NS-Pr", "low"] == -np.inf and out.loc["NS-Pr", "high"] == np.inf
    # 0.5 outside the 1 - a interval exactly when the one-sample t-test rejects at a
    for level in (0.5, 0.9, 0.99):
        p = stats.ttest_1samp(scores[3:7], 0.5).pvalue
        row = S.t_classes(grid, labels, level=level).loc["S-I"]
        assert (row["low"] > 0.5 or row["high"] < 0.5) == (p < 1 - level)
