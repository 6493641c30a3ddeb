"""compsem.sts.similarity: standardisation, cosines, Spearman, bootstrap intervals, baselines."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from compsem import stats as cstats
from compsem.sts import similarity as S

# --- standardisation and cosines ------------------------------------------------------------


def test_standardise_zero_mean_unit_sd_with_eps():
    rng = np.random.default_rng(0)
    e = rng.normal(3.0, 2.0, size=(500, 6))
    z = S.standardise(e, method="zscore")
    np.testing.assert_allclose(z.mean(axis=0), 0.0, atol=1e-12)
    sd = e.std(axis=0)
    np.testing.assert_allclose(z.std(axis=0), sd / (sd + 0.001))  # just under 1, by eps
    assert np.all(z.std(axis=0) < 1) and np.all(z.std(axis=0) > 0.999)


def test_standardise_constant_feature_stays_finite():
    e = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 5.0]])
    z = S.standardise(e, method="zscore")
    assert np.isfinite(z).all() and np.all(z[:, 1] == 0)


def test_centring_is_the_default_and_row_scaling_cancels_in_the_cosine():
    """The authors' code divides centred embeddings by a per-row SD: the cosine only sees
    the centring, which is therefore the default."""
    rng = np.random.default_rng(2)
    a, b = rng.normal(1.0, 2.0, size=(30, 4)), rng.normal(0.5, 1.0, size=(30, 4))
    centred = S.standardise(a)
    np.testing.assert_allclose(centred, a - a.mean(axis=0))
    row_scaled = centred / (a.std(axis=1, keepdims=True) + 0.001)
    np.testing.assert_allclose(S.pair_cosines(a, b, standardised=True),
                               S.pair_cosines(row_scaled, b - b.mean(axis=0)))
    assert not np.allclose(S.pair_cosines(a, b, standardised=True),
                           S.pair_cosines(a, b, standardised=True, method="zscore"))
    with pytest.raises(ValueError, match="method must be"):
        S.standardise(a, method="whiten")


def test_pair_cosines_standardises_each_set_separately():
    rng = np.random.default_rng(1)
    a = rng.normal(1.0, 1.0, size=(40, 5))
    b = rng.normal(-2.0, 3.0, size=(40, 5))
    got = S.pair_cosines(a, b, standardised=True)
    np.testing.assert_allclose(got, S.pair_cosines(S.standardise(a), S.standardise(b)))
    joint = S.standardise(np.vstack([a, b]))
    assert not np.allclose(got, S.pair_cosines(joint[:40], joint[40:]))


def test_pair_cosines_by_hand_and_zero_vectors():
    a = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0], [2.0, 0.0]])
    b = np.array([[0.0, 3.0], [2.0, 2.0], [1.0, 0.0], [0.0, 0.0], [-1.0, 0.0]])
    np.testing.assert_allclose(S.pair_cosines(a, b), [0.0, 1.0, 0.0, 0.0, -1.0])


def test_pair_cosines_shape_mismatch():
    with pytest.raises(ValueError):
        S.pair_cosines(np.zeros((3, 2)), np.zeros((2, 2)))


# --- Spearman ----------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::scipy.stats.ConstantInputWarning")
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.floats(-5, 5, allow_nan=False)), min_size=3, max_size=60))
def test_spearman_equals_scipy_with_ties(pairs):
    x = np.array([p[0] for p in pairs], dtype=float)  # many ties
    y = np.round([p[1] for p in pairs], 3)  # a scale of about one (compsem.stats.tie_values)
    expected = stats.spearmanr(x, y)[0]
    got = S.spearman(x, y)
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected, abs=1e-12)


def test_spearman_mask_and_nan_policy():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=50), rng.normal(size=50)
    mask = rng.random(50) < 0.5
    assert S.spearman(x, y, mask) == pytest.approx(stats.spearmanr(x[mask], y[mask])[0])
    x[3] = np.nan
    assert np.isnan(S.spearman(x, y))
    keep = np.arange(50) != 3
    assert S.spearman(x, y, nan_policy="omit") == pytest.approx(stats.spearmanr(x[keep], y[keep])[0])


def test_table9_correlations_one_entry_per_column():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=30), rng.normal(size=30)
    masks = {"all": np.ones(30, bool), "first": np.arange(30) < 15}
    got = S.table9_correlations(x, y, masks)
    assert list(got) == ["all", "first"]
    assert got["first"] == pytest.approx(stats.spearmanr(x[:15], y[:15])[0])


# --- bootstrap ---------------------------------------------------------------------------------


def test_bootstrap_wrappers_are_compsem_stats_percentile_intervals():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 20, size=300).astype(float)
    y = x + rng.normal(size=300) * 5
    mask = np.arange(300) < 180
    _, low, high = cstats.spearman_interval(x[mask], y[mask], n_resamples=400, seed=9,
                                            method="percentile")
    assert S.bootstrap_spearman(x, y, mask, n_boot=400, seed=9) == (low, high)
    _, low, high = cstats.independent_spearman_difference(
        x[mask], y[mask], x[~mask], y[~mask], n_resamples=400, seed=9, method="percentile")
    assert S.bootstrap_difference(x, y, mask, ~mask, n_boot=400, seed=9) == (low, high)
    with pytest.raises(ValueError, match="NaN"):
        S.bootstrap_spearman(np.r_[x[:-1], np.nan], y)


def _correlated(n, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    return y + rng.normal(size=n), y


def test_bootstrap_ci_contains_estimate_and_narrows_with_n():
    x, y = _correlated(2000)
    small = np.arange(2000) < 150
    low_s, high_s = S.bootstrap_spearman(x, y, small, n_boot=500, seed=1)
    low, high = S.bootstrap_spearman(x, y, None, n_boot=500, seed=1)
    assert low_s < S.spearman(x, y, small) < high_s
    assert low < S.spearman(x, y) < high
    assert (high - low) < (high_s - low_s) / 2  # width ~ 1/sqrt(n): ratio about 3.7
    assert S.bootstrap_spearman(x, y, None, n_boot=500, seed=1) == (low, high)  # seeded


def test_bootstrap_level_widens_interval():
    x, y = _correlated(400)
    l90, h90 = S.bootstrap_spearman(x, y, level=0.90, n_boot=400)
    l99, h99 = S.bootstrap_spearman(x, y, level=0.99, n_boot=400)
    assert l99 <= l90 < h90 <= h99


def test_bootstrap_difference_contains_point_difference():
    rng = np.random.default_rng(6)
    y = rng.normal(size=1000)
    non = np.arange(1000) < 400
    x = np.where(non, y + 0.5 * rng.normal(size=1000), rng.normal(size=1000))  # rho(non) >> rho(adv)
    point = S.spearman(x, y, non) - S.spearman(x, y, ~non)
    low, high = S.bootstrap_difference(x, y, non, ~non, n_boot=500, seed=0)
    assert low < point < high and low > 0.5
    with pytest.raises(ValueError):
        S.bootstrap_difference(x, y, non, np.ones(1000, bool))


# --- several levels from one set of draws ----------------------------------------------------


LEVELS = (0.95, 1 - 0.05 / 3, 0.90)
"""A direction's level, a union of three tests' (Bonferroni) and an equivalence test's."""


def _tied_pairs(n: int = 150, seed: int = 0):
    rng = np.random.default_rng(seed)
    human = np.round(rng.random(n), 2)  # ties, as in ratings
    return human, human + rng.normal(0, 0.3, n), human + rng.normal(0, 0.6, n), np.arange(n) % 3 != 0


def test_levels_from_one_set_of_draws_equal_one_seeded_call_per_level():
    """The corrected and the uncorrected intervals come from the same draws: a call with every
    level gives, bit for bit, what a separate seeded call at each level gives (percentile and BCa)."""
    human, a, b, mask = _tied_pairs()
    assert S.bootstrap_spearman_levels(a, human, mask, n_boot=300, seed=4, levels=LEVELS) == [
        S.bootstrap_spearman(a, human, mask, n_boot=300, seed=4, level=level) for level in LEVELS]
    assert S.bootstrap_difference_levels(a, human, mask, ~mask, n_boot=300, seed=4, levels=LEVELS) == [
        S.bootstrap_difference(a, human, mask, ~mask, n_boot=300, seed=4, level=level) for level in LEVELS]
    for method in ("BCa", "percentile"):
        together = cstats.paired_spearman_difference_levels(a, b, human, mask, n_resamples=300, seed=4, levels=LEVELS, method=method)
        separate = [cstats.paired_spearman_difference(a, b, human, mask, n_resamples=300, seed=4, level=level,
                                                      method=method) for level in LEVELS]
        assert together["intervals"] == [(r["ci_low"], r["ci_high"]) for r in separate], method
        assert {k: v for k, v in together.items() if k != "intervals"} == separate[0], method
    low, high = together["intervals"][1]  # the union's interval contains the single test's
    assert low <= together["ci_low"] and together["ci_high"] <= high


def test_levels_draw_the_resamples_and_the_jackknife_once(monkeypatch):
    """Reading more levels evaluates the statistic no more often: the resamples are drawn, and
    BCa's jackknife computed, once for every level (scipy's stored result, the values remembered)."""
    human, a, b, _ = _tied_pairs(80)
    calls = []
    original = cstats.spearman_of_resamples
    monkeypatch.setattr(cstats, "spearman_of_resamples", lambda *args: calls.append(1) or original(*args))
    cstats.paired_spearman_difference_levels(a, b, human, n_resamples=200, seed=1, levels=LEVELS[:1])
    one = len(calls)
    calls.clear()
    cstats.paired_spearman_difference_levels(a, b, human, n_resamples=200, seed=1, levels=LEVELS)
    assert len(calls) == one > 0
    draws = cstats.bootstrap_levels((np.arange(80),), lambda i, axis=-1: original(a, human, i), 200, 1, LEVELS, "BCa")
    assert all(np.array_equal(r.bootstrap_distribution, draws[0].bootstrap_distribution) for r in draws[1:])


def test_bootstrap_1000_over_2800_pairs_is_fast():
    x, y = _correlated(2800)
    S.bootstrap_spearman(x, y, n_boot=10)  # warm up
    start = time.perf_counter()
    S.bootstrap_spearman(x, y, n_boot=1000, seed=0)
    assert time.perf_counter() - start < 2.0  # ~0.3 s on 2 cores


# --- baselines ---------------------------------------------------------------------------------


def test_word_overlap_by_hand():
    stop = {"the", "a", "on"}
    got = S.word_overlap(
        ["The cat sat on the mat.", "Dogs bark.", "The, the.", "A cat's toy"],
        ["the mat sat!", "Cats purr", "a", "the cats toy"],
        stopwords=stop,
    )
    # {cat, sat, mat} vs {mat, sat}: 2/3; {dogs, bark} vs {cats, purr}: 0
    assert got[0] == pytest.approx(2 / 3)
    assert got[1] == 0.0
    # stop words go before punctuation is deleted: "the," and "the." survive as {"the"}; "a" goes
    assert got[2] == 0.0
    assert got[3] == pytest.approx(1.0)  # "cat's" -> "cats"


def test_word_overlap_identical_and_empty():
    assert S.word_overlap(["a b c"], ["c b a"]).tolist() == [1.0]
    assert S.word_overlap(["the"], ["the"], stopwords={"the"}).tolist() == [0.0]


def test_random_similarities_seeded():
    a = S.random_similarities(100, seed=3)
    assert a.shape == (100,) and np.all((a >= 0) & (a < 1))
    np.testing.assert_array_equal(a, S.random_similarities(100, seed=3))


@pytest.mark.needs_data
def test_word_overlap_reproduces_the_authors_vocab_baseline():
    from compsem.data import sts3k, sts_benchmarks

    pairs = sts3k.load_pairs()
    stop = sts3k.load_stopwords()
    x = S.word_overlap(pairs["sentence_a"], pairs["sentence_b"], stop)
    masks = {p: sts3k.portion_mask(pairs, p) for p in ("all", "non", "adv")}
    rho = S.table9_correlations(x, pairs["human"].to_numpy(), masks)
    assert [round(rho[p], 3) for p in ("all", "non", "adv")] == [0.515, 0.760, 0.153]
    sick = sts_benchmarks.load_processed("sick")
    assert round(S.spearman(S.word_overlap(sick["sentence_a"], sick["sentence_b"], stop), sick["human"]), 3) == 0.563


def test_spearman_reads_similarities_equal_but_for_rounding_as_ties():
    """Table 9's rho must not depend on the last bits of mathematically equal similarities."""
    rng = np.random.default_rng(2)
    parts = rng.integers(0, 4, size=(300, 3)).astype(float) / 11.0
    forward, backward = parts.sum(axis=1), parts[:, ::-1].sum(axis=1)
    human = forward + rng.normal(scale=0.3, size=300)
    assert np.any(forward != backward)
    assert S.spearman(forward, human) == S.spearman(backward, human)
    assert S.bootstrap_spearman(forward, human, n_boot=200) == \
        S.bootstrap_spearman(backward, human, n_boot=200)
