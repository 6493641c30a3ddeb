"""compsem.stats against direct computation: each function against the direct scipy call (same
draws, same numbers), a hand-written resampling loop, and Williams' test's defining properties."""
import numpy as np
import pytest
from scipy import stats as sps

from compsem import stats


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    h = rng.normal(size=n)
    a = h + rng.normal(scale=0.7, size=n)
    b = h + rng.normal(scale=1.5, size=n)
    return a, b, h


def test_spearman_interval_contains_rho_and_matches_a_loop():
    a, _, h = _data()
    rho, low, high = stats.spearman_interval(a, h, n_resamples=2000, method="percentile")
    assert rho == pytest.approx(sps.spearmanr(a, h).statistic)
    assert low < rho < high
    rng = np.random.default_rng(1)
    draws = [sps.spearmanr(a[i], h[i]).statistic
             for i in (rng.integers(0, len(a), len(a)) for _ in range(2000))]
    loop_low, loop_high = np.quantile(draws, [0.025, 0.975])
    # two independent 2,000-draw percentile intervals: their ends agree to Monte-Carlo error (~.01)
    assert low == pytest.approx(loop_low, abs=0.015)
    assert high == pytest.approx(loop_high, abs=0.015)


def test_paired_difference_detects_the_better_model_and_is_deterministic():
    a, b, h = _data()
    first = stats.paired_spearman_difference(a, b, h, n_resamples=1000, seed=3)
    again = stats.paired_spearman_difference(a, b, h, n_resamples=1000, seed=3)
    assert first == again
    assert first["difference"] == pytest.approx(first["rho_a"] - first["rho_b"])
    assert first["ci_low"] > 0 and first["p"] <= 1 / 1000 and first["williams_t"] > 0
    swapped = stats.paired_spearman_difference(b, a, h, n_resamples=1000, seed=3)
    assert swapped["williams_t"] == pytest.approx(-first["williams_t"])


def test_williams_test_is_null_for_equal_correlations_and_grows_with_n():
    t, p = stats.williams_test(0.5, 0.5, 0.3, 100)
    assert t == 0 and p == pytest.approx(1.0)
    _, p_small = stats.williams_test(0.6, 0.5, 0.5, 50)
    _, p_large = stats.williams_test(0.6, 0.5, 0.5, 2000)
    assert p_large < p_small
    with pytest.raises(ValueError, match="n must exceed 3"):
        stats.williams_test(0.5, 0.4, 0.3, 3)


def _null_samples(n_samples, seed=0, n=200):
    """Two equally good models of the same ratings, ``n_samples`` times."""
    rng = np.random.default_rng(seed)
    for _ in range(n_samples):
        h = rng.normal(size=n)
        yield h + rng.normal(size=n), h + rng.normal(size=n), h


def test_williams_test_false_positive_rate_is_nominal_on_pearson():
    """Williams' test is exact for Pearson r of normal data: p < .05 in 5% of null samples
    (400 samples: 5% +- 2.2% at two binomial SDs)."""
    rejections = 0
    for a, b, h in _null_samples(400):
        r = [sps.pearsonr(x, y).statistic for x, y in ((a, h), (b, h), (a, b))]
        rejections += stats.williams_test(*r, len(h))[1] < 0.05
    assert 0.028 <= rejections / 400 <= 0.072


@pytest.mark.slow
def test_paired_bootstrap_p_is_nominal_on_spearman():
    """The bootstrap p used for Spearman comparisons: p < .05 in about 5% of null samples
    (300 samples: 5% +- 2.5% at two binomial SDs; Williams' p on the same samples gives ~8%)."""
    rejections = sum(
        stats.paired_spearman_difference(a, b, h, n_resamples=500, method="percentile", seed=i)["p"] < 0.05
        for i, (a, b, h) in enumerate(_null_samples(300, seed=1)))
    assert 0.025 <= rejections / 300 <= 0.075


# --------------------------------------------------------------------------- same numbers as scipy


def _spearman(x, y):
    return sps.spearmanr(x, y).statistic


@pytest.mark.parametrize("method", ["BCa", "percentile"])
def test_spearman_interval_equals_the_direct_scipy_call(method):
    a, _, h = _data(n=60)
    h = np.round(h, 1)  # ties, as in averaged human ratings
    rho, low, high = stats.spearman_interval(a, h, n_resamples=300, seed=4, method=method)
    direct = sps.bootstrap((a, h), _spearman, paired=True, vectorized=False, n_resamples=300,
                           method=method, rng=np.random.default_rng(4)).confidence_interval
    assert rho == _spearman(a, h)
    assert (low, high) == pytest.approx((direct.low, direct.high), abs=1e-12)


@pytest.mark.parametrize("method", ["BCa", "percentile"])
def test_paired_spearman_difference_equals_the_direct_scipy_call(method):
    a, b, h = _data(n=60)
    got = stats.paired_spearman_difference(a, b, h, n_resamples=300, seed=2, method=method)
    direct = sps.bootstrap((a, b, h), lambda x, y, z: _spearman(x, z) - _spearman(y, z),
                           paired=True, vectorized=False, n_resamples=300, method=method,
                           rng=np.random.default_rng(2))
    ci = direct.confidence_interval
    assert (got["ci_low"], got["ci_high"]) == pytest.approx((ci.low, ci.high), abs=1e-12)
    draws = direct.bootstrap_distribution
    assert got["p"] == pytest.approx(max(2 * min(np.mean(draws <= 0), np.mean(draws >= 0)), 1 / 300))


@pytest.mark.parametrize("method", ["BCa", "percentile"])
def test_independent_spearman_difference_equals_the_direct_scipy_call(method):
    a, _, h = _data(n=90)
    x1, h1, x2, h2 = a[:50], h[:50], -a[50:], h[50:]
    diff, low, high = stats.independent_spearman_difference(x1, h1, x2, h2, n_resamples=300,
                                                            seed=5, method=method)
    direct = sps.bootstrap(
        (np.arange(50), np.arange(40)),
        lambda i, j: _spearman(x1[i], h1[i]) - _spearman(x2[j], h2[j]),
        vectorized=False, n_resamples=300, method=method, rng=np.random.default_rng(5),
    ).confidence_interval
    assert diff == pytest.approx(_spearman(x1, h1) - _spearman(x2, h2))
    assert (low, high) == pytest.approx((direct.low, direct.high), abs=1e-12)
    assert low > 1  # rho about +.8 against -.8


def test_spearman_of_resamples_is_spearman_of_the_drawn_items():
    rng = np.random.default_rng(4)
    values = rng.integers(0, 12, size=200).astype(float)
    idx = rng.integers(0, 200, size=(30, 200))
    y = -values ** 2  # ties in both series
    rhos = stats.spearman_of_resamples(values, y, idx.reshape(3, 10, 200))
    assert rhos.shape == (3, 10)
    for row in (0, 12, 29):
        assert rhos.reshape(-1)[row] == pytest.approx(_spearman(values[idx[row]], y[idx[row]]), abs=1e-12)
    constant = stats.spearman_of_resamples(values, y, np.zeros((2, 200), dtype=int))
    assert np.isnan(constant).all()


def test_cluster_resample_takes_every_item_of_a_drawn_cluster():
    rng = np.random.default_rng(7)
    x, y = rng.random(60), rng.random(60)
    clusters = np.repeat(np.arange(20), 3)[rng.permutation(60)]  # 20 clusters of 3 items
    units = stats.resampling_units(clusters, 60)
    draws = rng.integers(0, 20, size=(5, 20))
    got = stats.spearman_of_resamples(x, y, draws, units)
    for row in range(5):
        items = np.concatenate([np.flatnonzero(units == u) for u in draws[row]])
        assert got[row] == pytest.approx(_spearman(x[items], y[items]), abs=1e-12)


def test_resampling_units_number_the_distinct_labels_and_check_their_shape():
    assert stats.resampling_units(np.array(["b", "a", "b", "c"]), 4).tolist() == [1, 0, 1, 2]
    assert stats.resampling_units(None, 3).tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match="clusters has shape"):
        stats.resampling_units(np.arange(3), 4)
    with pytest.raises(ValueError, match="clusters has shape"):
        stats.spearman_interval(np.arange(10.0), np.arange(10.0), clusters=np.arange(9))


def test_singleton_clusters_are_the_pair_bootstrap():
    rng = np.random.default_rng(2)
    h = rng.random(150)
    a, b = h + rng.normal(0, .3, 150), h + rng.normal(0, .5, 150)
    labels = np.arange(150) * 7 + 3  # distinct labels in the pairs' order: every pair its own cluster
    assert stats.spearman_interval(a, h, n_resamples=300, clusters=labels) == pytest.approx(
        stats.spearman_interval(a, h, n_resamples=300), abs=1e-12)
    clustered = stats.paired_spearman_difference(a, b, h, n_resamples=300, clusters=labels)
    plain = stats.paired_spearman_difference(a, b, h, n_resamples=300)
    assert clustered["ci_low"] == pytest.approx(plain["ci_low"], abs=1e-12)
    assert clustered["n_units"] == plain["n_units"] == 150
    both = stats.independent_spearman_difference(a[:70], h[:70], b[70:], h[70:], n_resamples=300,
                                                 method="percentile", clusters1=labels[:70], clusters2=labels[70:])
    assert both == pytest.approx(stats.independent_spearman_difference(
        a[:70], h[:70], b[70:], h[70:], n_resamples=300, method="percentile"), abs=1e-12)


def test_cluster_bootstrap_widens_the_interval_of_duplicated_pairs():
    """Each pair entered four times: four times the pairs, no more information. The pair
    bootstrap reads 600 independent pairs and halves the interval; the cluster bootstrap, one
    cluster per original pair, gives the interval of the 150 pairs."""
    rng = np.random.default_rng(3)
    h = rng.random(150)
    x = h + rng.normal(0, .4, 150)
    alone = stats.spearman_interval(x, h, n_resamples=1000, method="percentile")
    x4, h4, c4 = np.tile(x, 4), np.tile(h, 4), np.tile(np.arange(150), 4)
    pairs = stats.spearman_interval(x4, h4, n_resamples=1000, method="percentile")
    clustered = stats.spearman_interval(x4, h4, n_resamples=1000, method="percentile", clusters=c4)
    width = lambda r: r[2] - r[1]  # noqa: E731
    assert width(pairs) < 0.6 * width(alone)
    assert width(clustered) == pytest.approx(width(alone), rel=0.15)


def test_clustered_independent_difference_stratifies_by_the_sets_a_cluster_touches():
    rng = np.random.default_rng(9)
    h = rng.random(120)
    x = h + rng.normal(0, .3, 120)
    clusters = np.arange(120) // 4  # 30 clusters; cluster 14 spans both sets (pairs 56-59)
    clusters[[3, 80]] = 99  # and cluster 99 (pairs 3 and 80): a third stratum of two
    d, low, high = stats.independent_spearman_difference(x[:58], h[:58], x[58:], h[58:], n_resamples=400,
                                                         method="percentile", clusters1=clusters[:58],
                                                         clusters2=clusters[58:])
    assert d == pytest.approx(_spearman(x[:58], h[:58]) - _spearman(x[58:], h[58:]))
    assert low < d < high
    one_mixed = stats.independent_spearman_difference(x[:58], h[:58], x[58:], h[58:], n_resamples=400,
                                                      method="percentile", clusters1=np.arange(58) // 4,
                                                      clusters2=np.arange(58, 120) // 4)
    assert one_mixed[1] < one_mixed[0] < one_mixed[2]  # the one mixed cluster is in every resample
    with pytest.raises(ValueError, match="both sets"):
        stats.independent_spearman_difference(x[:58], h[:58], x[58:], h[58:], clusters1=clusters[:58])


def test_mean_interval_equals_the_direct_scipy_call():
    correct = (np.random.default_rng(3).random(120) < 0.7).astype(float)
    got = stats.mean_interval(correct, n_resamples=1000, seed=1)
    direct = sps.bootstrap((correct,), np.mean, n_resamples=1000, method="percentile",
                           rng=np.random.default_rng(1)).confidence_interval
    assert got == pytest.approx((direct.low, direct.high), abs=1e-12)
    assert stats.mean_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)


def test_paired_mean_interval_is_the_bootstrap_of_the_differences():
    rng = np.random.default_rng(6)
    a, b = (rng.random(150) < 0.8).astype(float), (rng.random(150) < 0.6).astype(float)
    low, high = stats.paired_mean_interval(a, b, n_resamples=1000, seed=2)
    direct = sps.bootstrap((a - b,), np.mean, n_resamples=1000, method="percentile",
                           rng=np.random.default_rng(2)).confidence_interval
    assert (low, high) == pytest.approx((direct.low, direct.high), abs=1e-12)
    assert low < a.mean() - b.mean() < high
    assert stats.paired_mean_interval([1, 0], [0, -1]) == (1.0, 1.0)
    assert np.isnan(stats.paired_mean_interval([1], [0])).all()
    with pytest.raises(ValueError, match="equal length"):
        stats.paired_mean_interval([1, 0, 1], [0, 1])


def test_seed_interval_equals_scipy_one_sample_t_interval():
    values = [71.2, 74.0, 69.5, 72.8, 73.1]
    mean, low, high = stats.seed_interval(values, level=0.9)
    ci = sps.ttest_1samp(values, 0).confidence_interval(0.9)
    assert mean == pytest.approx(np.mean(values))
    assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert stats.seed_interval([0.5, 0.5]) == (0.5, 0.5, 0.5)
    assert np.isnan(stats.seed_interval([0.5])[1])


def test_seed_interval_bounds_cut_the_interval_to_the_range_of_the_mean():
    """Three accuracies near 1: the t-interval reaches past 1, the bounded one stops there and
    keeps its lower bound; a range the interval lies inside changes nothing."""
    values = [0.99, 0.80, 1.0]
    mean, low, high = stats.seed_interval(values)
    assert high > 1
    assert stats.seed_interval(values, bounds=stats.PROPORTION) == (mean, low, 1.0)
    assert stats.seed_interval([0.01, 0.2, 0.0], bounds=stats.PROPORTION)[1] == 0.0
    wide = stats.seed_interval([0.4, 0.5, 0.6], level=0.9)
    assert stats.seed_interval([0.4, 0.5, 0.6], level=0.9, bounds=stats.PROPORTION) == wide


def test_welch_intervals_equal_scipys_welch_test_at_every_level():
    a, b = [71.2, 74.0, 69.5], [65.1, 60.3, 66.0, 62.2]
    difference, bounds = stats.welch_intervals(a, b, (0.95, 0.90))
    welch = sps.ttest_ind(a, b, equal_var=False)
    assert difference == pytest.approx(np.mean(a) - np.mean(b))
    for (low, high), level in zip(bounds, (0.95, 0.90), strict=True):
        ci = welch.confidence_interval(level)
        assert (low, high) == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert bounds[0][0] < bounds[1][0] < difference < bounds[1][1] < bounds[0][1]
    # one value on a side: undefined; no spread on either side: the difference itself
    assert np.isnan(stats.welch_intervals([1.0], b)[1][0][0])
    assert stats.welch_intervals([2.0, 2.0], [1.0, 1.0]) == (1.0, [(1.0, 1.0)])
    # bounds cut the interval to the range of a difference
    wide = stats.welch_intervals([0.9, 0.1, 0.95], [0.0, 0.02], bounds=stats.PROPORTION_DIFFERENCE)[1][0]
    assert wide[1] == 1.0 and stats.welch_intervals([0.9, 0.1, 0.95], [0.0, 0.02])[1][0][1] > 1


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_label_permutation_test_equals_scipy_two_sample_test_when_exact(alternative):
    """7 units: 7! = 5,040 orderings, all enumerated; each split of the units into the two
    groups occurs 3!4! times, so the p-value is that of scipy's exact two-sample test."""
    values = np.array([3.1, 0.4, 2.2, 5.0, 1.7, 4.4, 0.9])
    labels = np.array(["a", "b", "a", "a", "b", "b", "b"])

    def difference(lab):
        return values[lab == "a"].mean() - values[lab == "b"].mean()

    got = stats.label_permutation_test(difference, labels, n_resamples=10_000, alternative=alternative)
    direct = sps.permutation_test(
        (values[labels == "a"], values[labels == "b"]),
        lambda x, y: x.mean() - y.mean(), permutation_type="independent", vectorized=False,
        n_resamples=10_000, alternative=alternative,
    )
    assert got["observed"] == pytest.approx(direct.statistic)
    assert got["p_value"] == pytest.approx(direct.pvalue, rel=1e-12)
    assert len(got["null"]) == 5040


def test_label_permutation_test_random_relabellings():
    labels = np.repeat(["x", "y", "z"], 10)
    values = np.where(labels == "x", 1.0, 0.0) + np.random.default_rng(0).normal(size=30) * 0.1
    spread = lambda lab: np.var([values[lab == c].mean() for c in "xyz"])  # noqa: E731
    result = stats.label_permutation_test(spread, labels, n_resamples=400, seed=1)
    assert result["p_value"] == pytest.approx(1 / 401) and result["null"].shape == (400,)
    again = stats.label_permutation_test(spread, labels, n_resamples=400, seed=1)
    np.testing.assert_array_equal(result["null"], again["null"])
    with pytest.raises(ValueError, match="alternative"):
        stats.label_permutation_test(spread, labels, alternative="bigger")


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="differ in length"):
        stats.paired_spearman_difference([1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4])
    with pytest.raises(ValueError, match="finite pairs"):
        stats.spearman_interval([np.nan] * 5, [1, 2, 3, 4, 5])


def test_spearman_permutation_p_is_the_exact_test_for_small_n():
    import itertools

    from scipy import stats as sps

    from compsem.stats import spearman_permutation_p

    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3, 6).astype(float), rng.normal(size=6)  # ties in a
    rho = sps.spearmanr(a, b).statistic
    null = [sps.spearmanr(a, b[list(p)]).statistic for p in itertools.permutations(range(6))]
    expected = np.mean(np.asarray(null) >= rho - 1e-12)
    assert spearman_permutation_p(a, b) == pytest.approx(expected, abs=1e-12)
    assert spearman_permutation_p(np.arange(6.0), np.arange(6.0)) == pytest.approx(1 / 720)
    # beyond exact_up_to: random pairings, seeded
    x, y = rng.normal(size=12), rng.normal(size=12)
    assert spearman_permutation_p(x, y, seed=1) == spearman_permutation_p(x, y, seed=1)


def _rounding_ties(n=400, seed=0):
    """Scores with many equal values (multiples of 1/11, as VerbNet-CN's Eq. 2 gives) computed in
    two summation orders: the same numbers but for their last bits, like one similarity on two
    CPUs' kernels."""
    rng = np.random.default_rng(seed)
    parts = rng.integers(0, 4, size=(n, 3)).astype(float) / 11.0  # elevenths: sums that round differently by order
    forward = parts[:, 0] + parts[:, 1] + parts[:, 2]
    backward = parts[:, 2] + parts[:, 1] + parts[:, 0]
    human = forward + rng.normal(scale=0.3, size=n)
    return forward, backward, human


def test_rank_statistics_read_values_equal_but_for_rounding_as_ties():
    forward, backward, human = _rounding_ties()
    assert np.any(forward != backward)  # the two orders differ in last bits ...
    assert np.array_equal(stats.tie_values(forward), stats.tie_values(backward))  # ... not at 10 decimals
    # scipy breaks the would-be ties by rounding noise, so the two orders disagree; ours do not
    assert sps.spearmanr(forward, human).statistic != sps.spearmanr(backward, human).statistic
    assert stats.spearman(forward, human) == stats.spearman(backward, human)
    assert stats.spearman(forward, human) == sps.spearmanr(np.round(forward, stats.TIE_DECIMALS), human).statistic
    assert stats.spearman_interval(forward, human, n_resamples=200) == \
        stats.spearman_interval(backward, human, n_resamples=200)
    assert stats.paired_spearman_difference(forward, human[::-1], human, n_resamples=200) == \
        stats.paired_spearman_difference(backward, human[::-1], human, n_resamples=200)
    assert stats.independent_spearman_difference(forward[:200], human[:200], forward[200:], human[200:],
                                                 n_resamples=200) == \
        stats.independent_spearman_difference(backward[:200], human[:200], backward[200:], human[200:],
                                              n_resamples=200)
    assert stats.spearman_permutation_p(forward[:30], human[:30], n_resamples=200) == \
        stats.spearman_permutation_p(backward[:30], human[:30], n_resamples=200)


def test_tie_values_refuses_values_too_small_to_keep_their_order():
    with pytest.raises(ValueError, match="rescale"):
        stats.tie_values([1e-8, 2e-8, 3e-8])
    assert np.array_equal(stats.tie_values([0.0, 0.0]), [0.0, 0.0])
    got = stats.tie_values([np.nan, np.inf, 0.5])
    assert np.isnan(got[0]) and got[1] == np.inf and got[2] == 0.5


def test_rank_statistics_go_through_the_tie_rule():
    """One definition: outside compsem.stats, scipy's rank statistics are called only where the
    values were tied first (sts.similarity.spearman, synthesis.rank_agreement), so a new call that
    would rank rounding noise fails here and names its file."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    reviewed = {"lib/compsem/stats.py": 0, "lib/compsem/sts/similarity.py": 2, "lib/compsem/synthesis.py": 2}
    call = re.compile(r"\b(spearmanr|kendalltau|rankdata)\s*\(|method=[\"']spearman")
    found = {}
    for path in sorted([*root.glob("lib/compsem/**/*.py"), *root.glob("notebooks/*.py")]):
        rel = path.relative_to(root).as_posix()
        n = len(call.findall(path.read_text()))
        if n and rel != "lib/compsem/stats.py":
            found[rel] = n
    expected = {k: v for k, v in reviewed.items() if v}
    assert found == expected, f"rank statistics outside compsem.stats: {found}; use compsem.stats.spearman or tie_values"


# --------------------------------------------------------------------------- wilson_interval


def _wilson_closed_form(k, n, level):
    """Brown, Cai & DasGupta (2001), eq. 4, written out."""
    z = sps.norm.ppf(0.5 + level / 2)
    p = k / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    return centre - half, centre + half


@pytest.mark.parametrize(("k", "n", "level"),
                         [(28, 36, 0.95), (30, 50, 0.90), (0, 20, 0.90), (20, 20, 0.95),
                          (101, 200, 0.95), (7, 9, 0.99)])
def test_wilson_interval_is_the_closed_form(k, n, level):
    low, high = stats.wilson_interval(k, n, level)
    want_low, want_high = _wilson_closed_form(k, n, level)
    assert float(low) == pytest.approx(max(want_low, 0.0), abs=1e-12)
    assert float(high) == pytest.approx(min(want_high, 1.0), abs=1e-12)
    assert low <= k / n <= high


def test_wilson_interval_known_values_and_broadcasting():
    low, high = stats.wilson_interval(28, 36)  # 0.7778 (Carvalho et al., Table 8, sBERT, A)
    assert low == pytest.approx(0.6192, abs=1e-4) and high == pytest.approx(0.8828, abs=1e-4)
    # a lower level gives a narrower interval
    low90, high90 = stats.wilson_interval(28, 36, 0.90)
    assert low < low90 < high90 < high
    lows, highs = stats.wilson_interval(np.array([0, 28, 36]), 36)
    assert lows.shape == highs.shape == (3,)
    assert lows[0] == 0.0 and highs[2] == 1.0 and highs[0] == pytest.approx(0.0964, abs=1e-4)


@pytest.mark.parametrize(("k", "n"), [(5, 4), (-1, 4), (1, 0), (2.5, 10)])
def test_wilson_interval_rejects_impossible_counts(k, n):
    with pytest.raises(ValueError, match="wilson_interval"):
        stats.wilson_interval(k, n)


def test_crossed_mean_interval_covers_items_and_seeds():
    rng = np.random.default_rng(3)
    items = rng.random(400) < 0.7  # one seed: 400 items, 70% right
    mean, low, high = stats.crossed_mean_interval(items[None, :], n_resamples=4000, seed=1)
    assert mean == pytest.approx(items.mean())
    alone = stats.mean_interval(items, n_resamples=4000, seed=1)
    assert low == pytest.approx(alone[0], abs=0.01) and high == pytest.approx(alone[1], abs=0.01)
    # five seeds that agree on every item: the seeds add no spread
    same = np.repeat(items[None, :], 5, axis=0)
    _, low5, high5 = stats.crossed_mean_interval(same, n_resamples=4000, seed=1)
    assert high5 - low5 == pytest.approx(high - low, rel=0.1)
    # five seeds that disagree (each flips its own share of the items, up to 40%): wider
    flips = rng.random((5, 400)) < np.linspace(0.0, 0.4, 5)[:, None]
    differ = same ^ flips
    m, lo, hi = stats.crossed_mean_interval(differ, n_resamples=4000, seed=1)
    assert m == pytest.approx(differ.mean())
    assert hi - lo > 1.3 * (high - low) and lo < m < hi
    # seeded: the same call gives the same bounds, bit for bit
    assert stats.crossed_mean_interval(differ, n_resamples=4000, seed=1) == (m, lo, hi)


def test_crossed_mean_interval_degenerate_and_bad_input():
    assert stats.crossed_mean_interval(np.ones((3, 10))) == (1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="seeds x items"):
        stats.crossed_mean_interval(np.ones(10))


def test_resampled_item_means_is_each_units_mean_on_each_item_resample():
    scores = np.arange(12, dtype=float).reshape(3, 4)
    items = np.array([[0, 0, 1, 3], [2, 2, 2, 2]])
    out = stats.resampled_item_means(scores, items)
    assert out.shape == (3, 2)
    np.testing.assert_array_equal(out[:, 0], scores[:, [0, 0, 1, 3]].mean(axis=1))
    np.testing.assert_array_equal(out[:, 1], scores[:, 2])


def test_holm_worked_example_and_nans_left_out():
    # sorted 0.01, 0.02, 0.03, 0.04 times 4, 3, 2, 1: 0.04, 0.06, 0.06 (running max), 0.06 (max)
    out = stats.holm([0.03, 0.01, 0.04, 0.02])
    np.testing.assert_allclose(out, [0.06, 0.04, 0.06, 0.06])
    # a NaN is no member of the family: the others are adjusted as a family of 2
    out = stats.holm([0.02, np.nan, 0.4])
    assert np.isnan(out[1])
    np.testing.assert_allclose(out[[0, 2]], [0.04, 0.4])
    assert np.all(np.isnan(stats.holm([np.nan, np.nan])))
    assert stats.holm([0.5, 0.9]).tolist() == [1.0, 1.0]  # capped at 1


def test_rejects_is_adjusted_p_at_most_alpha():
    """The one rejection rule: p <= alpha (Holm's adjusted p at alpha exactly rejects); NaN, an
    untested hypothesis, never does."""
    assert stats.rejects([0.05, 0.0500001, 0.01, float("nan")]).tolist() == [True, False, True, False]
    assert stats.rejects([0.09], alpha=0.1).tolist() == [True]


def test_percentile_interval_leaves_out_undefined_draws():
    draws = np.r_[np.arange(101.0), np.nan, np.inf]
    assert stats.percentile_interval(draws, 0.9) == pytest.approx((5.0, 95.0), abs=1e-12)
    assert all(np.isnan(stats.percentile_interval([np.nan, np.nan])))


def test_accuracy_wilson_is_the_wilson_interval_of_the_recovered_count():
    assert stats.accuracy_wilson(0.75, 20) == tuple(float(v) for v in stats.wilson_interval(15, 20))
    low, high = stats.accuracy_wilson(1.0, 10, 0.9)
    assert high == 1.0 and 0.7 < low < 1.0


def test_interval_hull_holds_both_intervals_and_skips_an_undefined_one():
    from compsem.stats import interval_hull

    assert interval_hull((1.0, 3.0), (0.5, 2.0)) == (0.5, 3.0)
    assert interval_hull((1.0, 3.0), (1.5, 2.5)) == (1.0, 3.0)
    assert interval_hull((1.0, 3.0), (float("nan"), float("nan"))) == (1.0, 3.0)


def test_stratified_draws_keep_every_kind_of_cluster_in_every_resample():
    """Units drawn within the strata of the label sets they hold: items alone give the bootstrap
    stratified by label; a cluster holding two labels forms a stratum of its own."""
    labels = np.array([1, 1, 1, 2, 2, 1, 2, 6])
    units = np.array([0, 1, 2, 3, 4, 5, 5, 6])  # unit 5 holds a 1 and a 2
    draws = stats.stratified_draws(units, labels, 500, np.random.default_rng(0))
    assert draws.shape == (500, 7)  # as many draws as units
    # strata in the order of their sorted label sets: (1,) units 0-2, (1, 2) unit 5, (2,) units 3-4, (6,) unit 6
    start = 0
    for members in ({0, 1, 2}, {5}, {3, 4}, {6}):
        block = draws[:, start:start + len(members)]
        assert set(np.unique(block)) == members  # drawn within the stratum, every member drawn somewhere
        start += len(members)
    weights = stats.resample_weights(draws, units)
    for row in (0, 99):  # the weights count each item's unit in the resample
        expected = np.array([np.sum(draws[row] == u) for u in units], dtype=float)
        np.testing.assert_array_equal(weights[row], expected)
    np.testing.assert_array_equal(draws, stats.stratified_draws(units, labels, 500, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="differ in shape"):
        stats.stratified_draws(units, labels[:-1], 5, np.random.default_rng(0))


def test_clustered_independent_difference_runs_bca_with_a_cluster_jackknife():
    rng = np.random.default_rng(4)
    h = rng.random(90)
    x = h + rng.normal(0, .3, 90)
    clusters = np.arange(90) // 3
    d, low, high = stats.independent_spearman_difference(x[:46], h[:46], x[46:], h[46:], n_resamples=300,
                                                         method="BCa", clusters1=clusters[:46],
                                                         clusters2=clusters[46:])
    assert np.isfinite([low, high]).all() and low < d < high
