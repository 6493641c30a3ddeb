"""compsem.stats against direct computation: scipy's Spearman, a hand-written resampling loop,
and Williams' test's defining properties."""
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


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="differ in length"):
        stats.paired_spearman_difference([1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4])
    with pytest.raises(ValueError, match="finite pairs"):
        stats.spearman_interval([np.nan] * 5, [1, 2, 3, 4, 5])
