"""Statistics shared by the chapters: bootstrap intervals, the Wilson interval of a proportion,
permutation tests, and the test of two correlations that share a variable.

Every resampling goes through scipy: :func:`scipy.stats.bootstrap` (vectorised; BCa by default,
percentile where a paper's protocol or the cost of BCa's jackknife says so) and
:func:`scipy.stats.permutation_test`. The test of two correlations that share a variable is
Williams' (1959) as given by Steiger (1980, eq. 7). None of these is in the papers reproduced
here: they put an uncertainty on the comparisons the papers' claims rest on (e.g. "hybrids above
every transformer on the adversarial pairs", Fodor et al. 2025, Table 9).

Defaults: :data:`BOOTSTRAP_RESAMPLES` resamples for every bootstrap, :data:`PERMUTATIONS`
relabellings for every permutation test. The one resampler scipy cannot express (adjectives
resampled within their class, crossed with nouns) is in :mod:`compsem.modifiers.statistics`.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats

__all__ = [
    "BOOTSTRAP_RESAMPLES",
    "PERMUTATIONS",
    "ALPHA",
    "EQUIVALENCE_LEVEL",
    "PROPORTION",
    "PROPORTION_DIFFERENCE",
    "rejects",
    "percentile_interval",
    "mean_interval",
    "paired_mean_interval",
    "crossed_mean_interval",
    "mean_intervals",
    "crossed_mean_intervals",
    "bootstrap_levels",
    "interval_bounds",
    "resampled_item_means",
    "resampling_units",
    "resample_weights",
    "stratified_draws",
    "spearman_of_resamples",
    "resampled_unit_means",
    "seed_interval",
    "welch_intervals",
    "wilson_interval",
    "accuracy_wilson",
    "TIE_DECIMALS",
    "tie_values",
    "spearman",
    "spearman_interval",
    "paired_spearman_difference",
    "paired_spearman_difference_levels",
    "independent_spearman_difference",
    "williams_test",
    "label_permutation_test",
    "holm",
    "bonferroni_level",
    "sidak_level",
]

BOOTSTRAP_RESAMPLES = 2000
"""Default number of resamples of every bootstrap interval (percentile and BCa alike)."""

PERMUTATIONS = 2000
"""Default number of random relabellings of a permutation test."""

ALPHA = 0.05
"""The error rate of a single test and the family-wise error rate of a corrected family: a
(Holm-adjusted) p-value at most ``ALPHA`` rejects (:func:`rejects`)."""

EQUIVALENCE_LEVEL = 0.90
"""The level of an equivalence test's interval (two one-sided tests at ``ALPHA``)."""


def rejects(p_values, alpha: float = ALPHA) -> np.ndarray:
    """Which (Holm- or otherwise adjusted) p-values reject at ``alpha``: ``p <= alpha``, as a
    boolean array (NaN, an untested hypothesis, never rejects)."""
    return np.asarray(p_values, dtype=np.float64) <= alpha


def _bootstrap(data, statistic, n_resamples: int, seed: int, level: float, method: str):
    """:func:`scipy.stats.bootstrap` of a vectorised ``statistic(*data, axis)``, seeded
    (:func:`bootstrap_levels` at one level)."""
    return bootstrap_levels(data, statistic, n_resamples, seed, [level], method)[0]


def bootstrap_levels(data, statistic, n_resamples: int, seed: int, levels: Sequence[float],
                     method: str) -> list:
    """:func:`scipy.stats.bootstrap` of a vectorised ``statistic(*data, axis)`` at each of
    ``levels``, from one set of resamples: the first level draws them
    (``numpy.random.default_rng(seed)``), every other level reads its interval from those draws
    (``bootstrap_result=``, ``n_resamples=0``). Each interval is therefore bit for bit the one a
    separate seeded bootstrap at that level gives, and the draws are made once. BCa's jackknife,
    which scipy recomputes for each level, is computed once too: for BCa the statistic's values
    are remembered by their input (the percentile method reads only the stored draws). Used for an interval and its Bonferroni interval in a union of
    tests (:func:`bonferroni_level`). Returns one scipy result per level."""
    levels = list(levels)
    if not levels:
        raise ValueError("bootstrap_levels needs at least one level")
    once = statistic
    if len(levels) > 1 and method.lower() == "bca":
        remembered = {}

        def once(*samples, axis=-1):
            key = (axis, tuple((s.shape, s.dtype.str) for s in samples),
                   hashlib.blake2b(b"".join(np.ascontiguousarray(s).tobytes() for s in samples)).digest())
            if key not in remembered:
                remembered[key] = statistic(*samples, axis=axis)
            return remembered[key]

    first = stats.bootstrap(data, once, vectorized=True, n_resamples=n_resamples,
                            confidence_level=levels[0], method=method, rng=np.random.default_rng(seed))
    return [first] + [stats.bootstrap(data, once, vectorized=True, n_resamples=0, confidence_level=level,
                                      method=method, bootstrap_result=first) for level in levels[1:]]


def percentile_interval(draws, level: float = 0.95) -> tuple[float, float]:
    """The percentile interval of bootstrap (or permutation, or seed) ``draws`` at ``level``: their
    ``(1 - level) / 2`` and ``1 - (1 - level) / 2`` quantiles (:func:`numpy.quantile`, linear
    interpolation; Efron & Tibshirani 1993, §13.3). Draws that are not finite (a resample on
    which the statistic is undefined) are left out; no finite draw gives NaN bounds."""
    d = np.asarray(draws, dtype=np.float64).ravel()
    d = d[np.isfinite(d)]
    if d.size == 0:
        return float("nan"), float("nan")
    alpha = (1 - level) / 2
    low, high = np.quantile(d, [alpha, 1 - alpha])
    return float(low), float(high)


def interval_bounds(results) -> list[tuple[float, float]]:
    """``(low, high)`` of each :func:`scipy.stats.bootstrap` result (e.g. of :func:`bootstrap_levels`)."""
    return [(float(r.confidence_interval.low), float(r.confidence_interval.high)) for r in results]


# --------------------------------------------------------------------------- Spearman

TIE_DECIMALS = 10
"""Rank statistics read values equal to this many decimals as ties (:func:`tie_values`)."""


def tie_values(values, decimals: int = TIE_DECIMALS) -> np.ndarray:
    """``values`` as float64, rounded to ``decimals`` decimals: numbers that are equal but for
    floating-point rounding become equal, so that a rank statistic reads them as ties.

    Why: a score that is the same number for many items is often computed with last bits that
    depend on the order of a sum and on the CPU's kernels, and average ranks then order these
    "ties" by rounding noise. Two cases in the book: Mean, Mult and Conv ignore word order, so
    the swap pairs of STS3k-adv (362 of 1,664 under GloVe) have cosine 1 in exact arithmetic
    and most land a few 1e-16 away (rho on STS3k-adv moved by up to .003 when only the order of
    the arithmetic changed); VerbNet-CN gives the same value (7/11, for instance) to many pairs
    whose role fillers coincide word for word (Fodor et al. 2025, Eq. 2 with cos = 1), and its
    rho on STS3k-adv (GPT-4 parses, GloVe 50d) came out .50363 with the AVX2 kernels the book
    uses and .50331 with AVX-512 ones; tied at 10 decimals, .50395 with both. Ten decimals lie
    far above float64 rounding and below the real differences measured here (Mult's cosines
    crowd near 1 and differ from 1e-10 on: nine decimals merged some of them). The values are
    expected on a scale of about one (similarities, ratings, accuracies, correlations): finite
    values whose magnitudes are all below ``10**(3 - decimals)`` raise ValueError, since
    rounding would leave them fewer than three digits. NaN and infinities pass unchanged."""
    x = np.asarray(values, dtype=np.float64)
    finite = np.abs(x[np.isfinite(x)])
    if finite.size and 0 < finite.max() < 10.0 ** (3 - decimals):
        raise ValueError(f"values of magnitude {finite.max():.1e} would keep fewer than 3 digits when "
                         f"ties are read at {decimals} decimals; rescale them (e.g. to a maximum of 1)")
    return np.round(x, decimals)


def spearman(x, y) -> float:
    """Spearman's rho of ``x`` and ``y`` with ties at :data:`TIE_DECIMALS` decimals
    (:func:`scipy.stats.spearmanr` of :func:`tie_values`; average ranks for ties)."""
    return float(stats.spearmanr(tie_values(x), tie_values(y)).statistic)


def _finite(*arrays, mask=None, clusters=None) -> tuple[list[np.ndarray], np.ndarray]:
    """The arrays as floats, restricted to ``mask`` and to the rows finite in every array, with
    ties read at :data:`TIE_DECIMALS` decimals (:func:`tie_values`), and the resampling unit of
    each kept row (:func:`resampling_units` of ``clusters`` on the kept rows)."""
    arrays = [np.asarray(a, dtype=float).ravel() for a in arrays]
    n = len(arrays[0])
    if any(len(a) != n for a in arrays):
        raise ValueError(f"arrays differ in length: {[len(a) for a in arrays]}")
    keep = np.ones(n, dtype=bool) if mask is None else np.array(mask, dtype=bool)  # a copy
    if keep.shape != (n,):
        raise ValueError(f"mask has shape {keep.shape}, expected ({n},)")
    if clusters is not None and np.shape(clusters) != (n,):
        raise ValueError(f"clusters has shape {np.shape(clusters)}, expected ({n},): one label per pair")
    for a in arrays:
        keep &= np.isfinite(a)
    if keep.sum() < 4:
        raise ValueError(f"only {int(keep.sum())} finite pairs; a correlation interval needs at least 4")
    units = resampling_units(None if clusters is None else np.asarray(clusters)[keep], int(keep.sum()))
    return [tie_values(a[keep]) for a in arrays], units


def resampling_units(clusters, n: int) -> np.ndarray:
    """The resampling unit (0 .. k-1) of each of ``n`` items: the rank of its label among the
    distinct ``clusters`` labels, or its own position where ``clusters`` is None (every item its
    own unit, the ordinary bootstrap). A cluster bootstrap draws units with replacement and takes
    every item of a drawn unit (Davison & Hinkley 1997, §3.8): items that share a unit (STS3k
    pairs that share a sentence, :func:`compsem.data.shared_sentences.sentence_clusters`) are not
    independent, and resampling them one by one understates the uncertainty."""
    if clusters is None:
        return np.arange(n)
    clusters = np.asarray(clusters)
    if clusters.shape != (n,):
        raise ValueError(f"clusters has shape {clusters.shape}, expected ({n},): one label per item")
    return np.unique(clusters, return_inverse=True)[1].reshape(-1)


def resample_weights(draws, units) -> np.ndarray:
    """How often each item is in each resample: ``draws`` (rows of drawn unit numbers, any
    leading shape) and ``units`` (the unit of each item, :func:`resampling_units`) give an array
    of shape ``draws.shape[:-1] + (len(units),)``, float, the count of the item's unit in the row
    (0 for an undrawn unit). A weighted statistic over these counts is the statistic of the
    resample with every item of a drawn unit repeated as often as the unit is drawn."""
    units = np.asarray(units)
    draws = np.asarray(draws)
    rows = draws.reshape(-1, draws.shape[-1])
    n_units = int(max(units.max(), rows.max())) + 1  # units drawn but without items count for nothing
    offsets = (n_units * np.arange(len(rows)))[:, None]
    counts = np.bincount((rows + offsets).ravel(), minlength=n_units * len(rows)).reshape(len(rows), n_units)
    return counts[:, units].astype(np.float64).reshape(*draws.shape[:-1], len(units))


def stratified_draws(units, strata, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Units drawn with replacement within strata: a unit's stratum is the set of ``strata``
    labels of its items (e.g. the numbers of modifiers, or the pair categories, a cluster of
    STS3k pairs holds), and each stratum's units are drawn as many times as it has units, strata
    in the order of their sorted label sets. Every item its own unit, it is the bootstrap
    stratified by label; with clusters that hold items of several labels, those clusters form
    strata of their own, so each resample keeps the number of clusters of every kind. Returns
    ``(n_resamples, k)`` unit numbers (k units in all), for :func:`resample_weights` or
    :func:`spearman_of_resamples`; a stratum of one unit is that unit in every resample."""
    units, strata = np.asarray(units), np.asarray(strata)
    if units.shape != strata.shape:
        raise ValueError(f"units and strata differ in shape: {units.shape}, {strata.shape}")
    held = pd.Series(strata).groupby(units).agg(lambda labels: tuple(sorted(set(labels))))
    groups = sorted(held.groupby(held).groups.items())
    return np.concatenate([np.asarray(members)[rng.integers(0, len(members), size=(n_resamples, len(members)))]
                           for _, members in groups], axis=1)


RESAMPLE_CHUNK = 256
"""Resamples ranked at once by :func:`spearman_of_resamples` (bounds its memory, not its values)."""


def _weighted_average_ranks(dense: np.ndarray, k: int, weights: np.ndarray) -> np.ndarray:
    """Average ranks (ties averaged, as :func:`scipy.stats.rankdata`) of the items of each row of
    ``weights`` taken as often as their weight: ``dense`` is each item's dense rank among the
    ``k`` distinct values. Per row, a weighted count of each dense rank (one ``bincount``) gives
    how many drawn values lie below (cumulative sum) and how many tie, hence the average rank
    ``below + (ties + 1) / 2``; integer weights make every sum exact."""
    rows = len(weights)
    offsets = (k * np.arange(rows))[:, None]
    counts = np.bincount((dense[None, :] + offsets).ravel(), weights=weights.ravel(),
                         minlength=k * rows).reshape(rows, k)
    average = np.cumsum(counts, axis=1) - (counts - 1) / 2.0
    return average[:, dense]


def spearman_of_resamples(x: np.ndarray, y: np.ndarray, idx, units=None) -> np.ndarray:
    """Spearman rho of ``(x, y)`` in each resample of the index array ``idx`` (any leading shape:
    resamples, jackknife samples; the last axis holds the draws): Pearson r of the average ranks
    of the drawn items, each taken as often as it is drawn.

    ``units`` (:func:`resampling_units`) makes it a cluster bootstrap: ``idx`` then draws units,
    and every item of a drawn unit enters the resample. Without ``units`` it draws items, and
    the value is rho of ``(x[idx], y[idx])``. Computed from each item's count in the resample
    (weighted ranks, weighted Pearson r), :data:`RESAMPLE_CHUNK` resamples at a time; NaN where a
    resample is constant in ``x`` or ``y``."""
    x, y = np.asarray(x, dtype=np.float64).ravel(), np.asarray(y, dtype=np.float64).ravel()
    units = np.arange(len(x)) if units is None else np.asarray(units)
    if units.shape != x.shape or len(y) != len(x):
        raise ValueError(f"x, y and units differ in length: {len(x)}, {len(y)}, {len(units)}")
    idx = np.asarray(idx)
    draws = idx.reshape(-1, idx.shape[-1])
    _, dx = np.unique(x, return_inverse=True)
    _, dy = np.unique(y, return_inverse=True)
    dx, dy = dx.reshape(-1), dy.reshape(-1)
    kx, ky = int(dx.max()) + 1, int(dy.max()) + 1
    rho = np.empty(len(draws))
    for start in range(0, len(draws), RESAMPLE_CHUNK):
        chunk = draws[start:start + RESAMPLE_CHUNK]
        w = resample_weights(chunk, units)
        rx, ry = _weighted_average_ranks(dx, kx, w), _weighted_average_ranks(dy, ky, w)
        total = w.sum(axis=1, keepdims=True)
        rx -= (w * rx).sum(axis=1, keepdims=True) / total
        ry -= (w * ry).sum(axis=1, keepdims=True) / total
        with np.errstate(invalid="ignore", divide="ignore"):  # a constant resample: NaN
            rho[start:start + len(chunk)] = ((w * rx * ry).sum(axis=1)
                                             / np.sqrt((w * rx * rx).sum(axis=1) * (w * ry * ry).sum(axis=1)))
    return rho.reshape(idx.shape[:-1])


def spearman_interval(x, human, mask=None, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                      level: float = 0.95, method: str = "BCa", clusters=None) -> tuple[float, float, float]:
    """Spearman rho of ``x`` with ``human`` and its bootstrap interval over pairs:
    :func:`spearman_interval_levels` at one ``level``. Returns ``(rho, low, high)``."""
    rho, intervals = spearman_interval_levels(x, human, mask, n_resamples, seed, [level], method, clusters)
    return rho, *intervals[0]


def spearman_interval_levels(x, human, mask=None, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                             levels: Sequence[float] = (0.95,), method: str = "BCa",
                             clusters=None) -> tuple[float, list[tuple[float, float]]]:
    """Spearman rho of ``x`` with ``human`` and its bootstrap interval over pairs at each of
    ``levels``, from one set of resamples (:func:`bootstrap_levels`).

    Returns ``(rho, [(low, high), ...])``. Resampling is paired (a pair keeps its two values):
    scipy resamples the pair indices, as ``scipy.stats.bootstrap(..., paired=True)`` does, and
    the draws are identical to it. With ``clusters`` (a label per pair, aligned with ``x``) it
    resamples clusters instead, each with all its pairs (:func:`resampling_units`), and BCa's
    jackknife leaves out one cluster at a time. ``method="BCa"`` runs a jackknife of k
    leave-one-out correlations, k the pairs or clusters (time and memory ~ k n); for thousands
    of them ``"percentile"`` is the cheap choice.
    """
    (x, h), units = _finite(x, human, mask=mask, clusters=clusters)
    results = bootstrap_levels((np.arange(units.max() + 1),),
                               lambda i, axis=-1: spearman_of_resamples(x, h, i, units),
                               n_resamples, seed, levels, method)
    return spearman(x, h), interval_bounds(results)


def williams_test(r_ah: float, r_bh: float, r_ab: float, n: int) -> tuple[float, float]:
    """Williams' t for H0: rho(a, h) = rho(b, h), where a and b are scored on the same n items.

    Steiger (1980), eq. 7:  t = (r_ah - r_bh) sqrt((n-1)(1+r_ab) /
    (2 (n-1)/(n-3) |R| + rbar^2 (1-r_ab)^3)),  |R| = 1 - r_ah^2 - r_bh^2 - r_ab^2 + 2 r_ah r_bh r_ab,
    rbar = (r_ah + r_bh)/2, with n-3 degrees of freedom. Applied to Spearman correlations (ranks),
    it is exact for Pearson correlations of normal data. On Spearman correlations it is
    anti-conservative: measured here (tests/test_stats.py), two equally good models are called
    different at p < .05 in about 8% of samples. :func:`paired_spearman_difference` therefore takes
    its p from the bootstrap and reports Williams' t beside it. Returns ``(t, p)``, p two-sided.
    """
    if n <= 3:
        raise ValueError(f"n must exceed 3 for Williams' test, got {n}")
    det = 1 - r_ah**2 - r_bh**2 - r_ab**2 + 2 * r_ah * r_bh * r_ab
    rbar = (r_ah + r_bh) / 2
    t = (r_ah - r_bh) * np.sqrt((n - 1) * (1 + r_ab)
                                / (2 * (n - 1) / (n - 3) * det + rbar**2 * (1 - r_ab) ** 3))
    p = 2 * stats.t.sf(abs(t), df=n - 3)
    return float(t), float(p)


def paired_spearman_difference(a, b, human, mask=None, n_resamples: int = BOOTSTRAP_RESAMPLES,
                               seed: int = 0, level: float = 0.95,
                               method: str = "BCa", clusters=None) -> dict[str, float]:
    """:func:`paired_spearman_difference_levels` at one ``level``, without ``intervals``."""
    result = paired_spearman_difference_levels(a, b, human, mask, n_resamples, seed, [level], method, clusters)
    del result["intervals"]
    return result


def paired_spearman_difference_levels(a, b, human, mask=None, n_resamples: int = BOOTSTRAP_RESAMPLES,
                                      seed: int = 0, levels: Sequence[float] = (0.95,),
                                      method: str = "BCa", clusters=None) -> dict:
    """rho(a, human) - rho(b, human) for two models scored on the same pairs, with a paired
    bootstrap interval (pairs resampled together, so the models' shared errors cancel; with
    ``clusters``, clusters of pairs, as :func:`spearman_interval_levels`).

    ``p`` is the two-sided bootstrap p-value, 2 min(P*(d <= 0), P*(d >= 0)) over the resampled
    differences d (floored at 1/n_resamples); ``williams_t`` and ``williams_p`` are Williams' test
    on the same correlations (:func:`williams_test`, anti-conservative on Spearman rho).

    The interval at each of ``levels`` from one set of resamples (:func:`bootstrap_levels`; an
    interval and its Bonferroni interval in a union of tests). Returns a dict: ``rho_a``,
    ``rho_b``, ``difference``, ``ci_low``, ``ci_high`` (at ``levels[0]``), ``p``, ``williams_t``,
    ``williams_p``, ``n``, ``n_units`` (the resampled clusters; ``n`` without ``clusters``), and
    ``intervals``, the ``(low, high)`` at each level. Williams' test assumes independent pairs.
    """
    (a, b, h), units = _finite(a, b, human, mask=mask, clusters=clusters)
    rho_a, rho_b, rho_ab = spearman(a, h), spearman(b, h), spearman(a, b)
    results = bootstrap_levels(
        (np.arange(units.max() + 1),),
        lambda i, axis=-1: spearman_of_resamples(a, h, i, units) - spearman_of_resamples(b, h, i, units),
        n_resamples, seed, levels, method)
    draws = results[0].bootstrap_distribution
    p = max(2 * min(np.mean(draws <= 0), np.mean(draws >= 0)), 1 / n_resamples)
    t, williams_p = williams_test(rho_a, rho_b, rho_ab, len(h))
    intervals = interval_bounds(results)
    return {"rho_a": rho_a, "rho_b": rho_b, "difference": rho_a - rho_b,
            "ci_low": intervals[0][0], "ci_high": intervals[0][1],
            "p": float(min(p, 1.0)), "williams_t": t, "williams_p": williams_p, "n": int(len(h)),
            "n_units": int(units.max() + 1), "intervals": intervals}


def independent_spearman_difference(x1, human1, x2, human2, n_resamples: int = BOOTSTRAP_RESAMPLES,
                                    seed: int = 0, level: float = 0.95, method: str = "BCa",
                                    clusters1=None, clusters2=None) -> tuple[float, float, float]:
    """:func:`independent_spearman_difference_levels` at one ``level``: ``(difference, low, high)``."""
    difference, intervals = independent_spearman_difference_levels(x1, human1, x2, human2, n_resamples,
                                                                   seed, [level], method, clusters1, clusters2)
    return difference, *intervals[0]


def independent_spearman_difference_levels(x1, human1, x2, human2, n_resamples: int = BOOTSTRAP_RESAMPLES,
                                           seed: int = 0, levels: Sequence[float] = (0.95,),
                                           method: str = "BCa", clusters1=None,
                                           clusters2=None) -> tuple[float, list[tuple[float, float]]]:
    """rho(x1, human1) - rho(x2, human2) for two *disjoint* sets of pairs (e.g. the
    non-adversarial and the adversarial portions of STS3k, the gap of Fodor et al. 2025,
    Fig. 4), with a bootstrap interval at each of ``levels`` that resamples the pairs of each
    set independently (two samples of :func:`scipy.stats.bootstrap`, ``paired=False``:
    resampling stratified by set), from one set of resamples (:func:`bootstrap_levels`).

    With ``clusters1`` and ``clusters2`` (a label per pair of each set, from one set of labels)
    it resamples clusters, each with all its pairs (:func:`resampling_units`), stratified by the
    sets a cluster has pairs in: the clusters of the first set only, of the second only, and of
    both (a third sample, where some are; a stratum of one cluster is in every resample). Without
    them every pair is its own cluster, and the draws are those of the stratified pair bootstrap.
    Returns ``(difference, [(low, high), ...])``.
    """
    if (clusters1 is None) != (clusters2 is None):
        raise ValueError("give clusters for both sets of pairs or for neither")
    sets = []
    for name, x, h, c in (("clusters1", x1, human1, clusters1), ("clusters2", x2, human2, clusters2)):
        (kept_x, kept_h), _ = _finite(x, h)  # checks the lengths and the number of finite pairs
        keep = np.isfinite(np.asarray(x, dtype=float).ravel()) & np.isfinite(np.asarray(h, dtype=float).ravel())
        if c is not None and np.shape(c) != keep.shape:
            raise ValueError(f"{name} has shape {np.shape(c)}, expected {keep.shape}: one label per pair")
        sets.append((kept_x, kept_h, None if c is None else np.asarray(c)[keep]))
    (x1, h1, c1), (x2, h2, c2) = sets
    if c1 is None:  # every pair its own cluster
        c1, c2 = np.arange(len(h1)), len(h1) + np.arange(len(h2))
    units = resampling_units(np.concatenate([c1, c2]), len(h1) + len(h2))
    u1, u2 = units[:len(h1)], units[len(h1):]
    in1, in2 = np.isin(np.arange(units.max() + 1), u1), np.isin(np.arange(units.max() + 1), u2)
    strata = [np.flatnonzero(stratum) for stratum in (in1 & ~in2, in2 & ~in1, in1 & in2)]
    fixed = np.concatenate([s for s in strata if len(s) == 1] + [np.zeros(0, dtype=int)])  # drawn in every resample
    strata = [s for s in strata if len(s) > 1]

    def difference(*draws, axis=-1):
        lead = np.broadcast_shapes(*[d.shape[:-1] for d in draws])
        drawn = np.concatenate([np.broadcast_to(d, lead + d.shape[-1:]) for d in (*draws, fixed)], axis=-1)
        return spearman_of_resamples(x1, h1, drawn, u1) - spearman_of_resamples(x2, h2, drawn, u2)

    results = bootstrap_levels(tuple(strata), difference, n_resamples, seed, levels, method)
    return spearman(x1, h1) - spearman(x2, h2), interval_bounds(results)


# --------------------------------------------------------------------------- means


def mean_interval(values, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                  level: float = 0.95, method: str = "percentile") -> tuple[float, float]:
    """Bootstrap interval of a mean over items, e.g. an accuracy from per-item correctness 0/1
    (:func:`scipy.stats.bootstrap`; the 2018 probing authors used a 10,000-resample percentile
    bootstrap over test items, hence percentile by default). Constant values (every item right)
    give the degenerate interval ``(value, value)``. :func:`mean_intervals` at one level."""
    return mean_intervals(values, [level], n_resamples, seed, method)[0]


def mean_intervals(values, levels: Sequence[float], n_resamples: int = BOOTSTRAP_RESAMPLES,
                   seed: int = 0, method: str = "percentile") -> list[tuple[float, float]]:
    """:func:`mean_interval` at each of ``levels`` from one set of resamples
    (:func:`bootstrap_levels`): ``[(low, high), ...]``."""
    values = np.asarray(values, dtype=np.float64).ravel()
    if values.size == 0:
        raise ValueError("mean_interval needs at least one value")
    if np.all(values == values[0]):
        return [(float(values[0]), float(values[0]))] * len(list(levels))
    return interval_bounds(bootstrap_levels((values,), np.mean, n_resamples, seed, levels, method))


def paired_mean_interval(a, b, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                         level: float = 0.95, method: str = "percentile") -> tuple[float, float]:
    """Bootstrap interval of mean(a) - mean(b) for two measures of the same items (e.g. the
    per-item correctness of a probe and of its control task on one test set), items resampled
    together (:func:`scipy.stats.bootstrap`, ``paired=True``). Returns ``(low, high)``: NaN for
    fewer than two items, ``(d, d)`` when every item's difference is the same d."""
    a, b = np.asarray(a, dtype=np.float64).ravel(), np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired_mean_interval needs a and b of equal length, got {len(a)}, {len(b)}")
    if len(a) < 2:
        return float("nan"), float("nan")
    d = a - b
    if np.all(d == d[0]):
        return float(d[0]), float(d[0])
    res = stats.bootstrap((a, b), lambda x, y, axis=-1: x.mean(axis) - y.mean(axis), paired=True,
                          vectorized=True, n_resamples=n_resamples, confidence_level=level,
                          method=method, rng=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def crossed_mean_interval(scores, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                          level: float = 0.95) -> tuple[float, float, float]:
    """:func:`crossed_mean_intervals` at one ``level``: ``(mean, low, high)``."""
    mean, bounds = crossed_mean_intervals(scores, [level], n_resamples, seed)
    return mean, *bounds[0]


def crossed_mean_intervals(scores, levels: Sequence[float] = (0.95,),
                           n_resamples: int = BOOTSTRAP_RESAMPLES,
                           seed: int = 0) -> tuple[float, list[tuple[float, float]]]:
    """``(mean, low, high)`` of a seeds x items matrix (e.g. the per-item correctness of one
    probe trained with several seeds on the same test items): a two-level percentile bootstrap
    of a crossed design, every seed scoring every item. Each resample draws the items with
    replacement (the same items for every seed) and, independently, the seeds with replacement,
    and takes the mean over the drawn seeds of each seed's mean on the drawn items; the
    interval so covers both the test items and the seed, where :func:`mean_interval` of one
    fit covers the items only and :func:`seed_interval` the seeds only. One seed gives the
    bootstrap over items of that seed; a constant matrix the degenerate interval. Not in the
    papers; the same design as :func:`compsem.sts.seed_grids.pairs_and_seeds_intervals` with a
    mean in place of Spearman's rho. Every level from the same resamples: ``(mean, [(low,
    high), ...])``."""
    scores = np.asarray(scores, dtype=np.float64)
    levels = list(levels)
    if scores.ndim != 2 or 0 in scores.shape:
        raise ValueError(f"crossed_mean_interval needs a seeds x items matrix, got shape {scores.shape}")
    mean = float(scores.mean())
    if np.all(scores == scores.flat[0]):
        return mean, [(mean, mean)] * len(levels)
    rng = np.random.default_rng(seed)
    items = rng.integers(0, scores.shape[1], size=(n_resamples, scores.shape[1]))
    per_seed = resampled_item_means(scores, items)  # seeds x resamples
    means = resampled_unit_means(per_seed, rng)
    return mean, [percentile_interval(means, level) for level in levels]


def resampled_item_means(scores: np.ndarray, items: np.ndarray) -> np.ndarray:
    """The first level of a crossed two-level bootstrap: ``scores`` is a units x items matrix,
    ``items`` a resamples x items array of item indices (the same item resample for every
    unit); returns each unit's mean on each resample of the items (units x resamples), the
    ``per_unit`` of :func:`resampled_unit_means` (:func:`crossed_mean_interval`,
    :func:`compsem.probing.chapter.crossed_difference`)."""
    return np.stack([row[items].mean(axis=1) for row in scores])


def resampled_unit_means(per_unit, rng: np.random.Generator) -> np.ndarray:
    """The second level of a crossed two-level bootstrap: ``per_unit`` holds a statistic per
    unit (a seed, a training) and per resample of the items (columns, the same item resample
    for every unit); each resample draws the units with replacement (``rng``) and takes the
    mean of the drawn units' statistics. Returns one value per resample, whose percentiles
    give an interval over the items and the units (:func:`crossed_mean_interval`,
    :func:`compsem.sts.seed_grids.pairs_and_seeds_intervals`)."""
    per_unit = np.asarray(per_unit, dtype=np.float64)
    n_units, n_resamples = per_unit.shape
    picks = rng.integers(0, n_units, size=(n_resamples, n_units))
    return np.take_along_axis(per_unit.T, picks, axis=1).mean(axis=1)


PROPORTION = (0.0, 1.0)
"""The range of a proportion (an accuracy, a share of errors): ``bounds`` of :func:`seed_interval`."""

PROPORTION_DIFFERENCE = (-1.0, 1.0)
"""The range of a difference of two proportions: ``bounds`` of :func:`seed_interval`."""


def seed_interval(values, level: float = 0.95, bounds: tuple[float, float] | None = None
                  ) -> tuple[float, float, float]:
    """``(mean, low, high)``: Student-t interval of the mean over seeds
    (:meth:`scipy.stats.t.interval`; identical seeds give the mean as both bounds, one seed NaN
    bounds).

    ``bounds``: the range the mean cannot leave (:data:`PROPORTION` for an accuracy). With few
    seeds the t-interval of an accuracy near 0 or 1 reaches past it; the interval is then
    intersected with the range, which keeps its coverage, since the true mean lies inside it."""
    values = np.asarray(values, dtype=np.float64).ravel()
    mean = float(values.mean())
    if len(values) < 2:
        return mean, float("nan"), float("nan")
    sem = stats.sem(values)
    if sem == 0:  # identical seeds: no spread to widen the interval
        return mean, mean, mean
    low, high = stats.t.interval(level, len(values) - 1, loc=mean, scale=sem)
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return mean, float(low), float(high)


def interval_hull(first: tuple[float, float], second: tuple[float, float]) -> tuple[float, float]:
    """The smallest interval holding both ``(low, high)`` intervals; ``second`` is left out where
    it is undefined (NaN: a t-interval over one unit). The rule that widens a bootstrap interval
    over few units (which cannot reach beyond their range) to the Student-t or Welch interval
    over them (:func:`compsem.probing.experiment.shared_item_intervals`,
    :func:`compsem.probing.chapter.crossed_difference`, :func:`compsem.synthesis.trainings_intervals`)."""
    (low, high), (other_low, other_high) = first, second
    if math.isnan(other_low) or math.isnan(other_high):
        return float(low), float(high)
    return float(min(low, other_low)), float(max(high, other_high))


def welch_intervals(a, b, levels: Sequence[float] = (0.95,), bounds: tuple[float, float] | None = None
                    ) -> tuple[float, list[tuple[float, float]]]:
    """``(difference, [(low, high) per level of levels])``: the mean of ``a`` minus the mean of
    ``b``, two independent sets of seeds (or trainings), with Welch's interval at each level
    (:func:`scipy.stats.ttest_ind` with unequal variances, one test read at every level).
    Fewer than two values on a side give NaN bounds; no spread on either side gives the
    difference as both bounds. ``bounds`` as in :func:`seed_interval`
    (:data:`PROPORTION_DIFFERENCE` for a difference of accuracies)."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    difference = float(a.mean() - b.mean())
    if len(a) < 2 or len(b) < 2:
        return difference, [(float("nan"), float("nan"))] * len(levels)
    if a.std() == 0 and b.std() == 0:
        return difference, [(difference, difference)] * len(levels)
    welch = stats.ttest_ind(a, b, equal_var=False)
    out = []
    for level in levels:
        ci = welch.confidence_interval(level)
        low, high = float(ci.low), float(ci.high)
        if bounds is not None:
            low, high = max(low, bounds[0]), min(high, bounds[1])
        out.append((low, high))
    return difference, out


def accuracy_wilson(accuracy: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """``(low, high)``: the Wilson interval (:func:`wilson_interval`) of an accuracy (a fraction)
    measured on ``n`` items, its count of successes recovered as ``round(accuracy * n)``."""
    low, high = wilson_interval(round(accuracy * n), n, level)
    return float(low), float(high)


def wilson_interval(successes, trials, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``: the Wilson score interval of a proportion, ``successes`` of ``trials``
    independent trials (Wilson 1927; Brown, Cai & DasGupta 2001, eq. 4), through
    :meth:`scipy.stats.binomtest(...).proportion_ci(method="wilson")` element by element.

    Arrays broadcast; the bounds come back as float arrays of the broadcast shape (0-d for
    scalars). Counts must be whole numbers with ``0 <= successes <= trials`` and ``trials > 0``.
    """
    k, n = np.broadcast_arrays(np.asarray(successes), np.asarray(trials))
    if np.any(k != np.round(k)) or np.any(n != np.round(n)):
        raise ValueError(f"wilson_interval needs whole counts, got successes={successes!r}, "
                         f"trials={trials!r}")
    if np.any(n <= 0) or np.any(k < 0) or np.any(k > n):
        raise ValueError(f"wilson_interval needs 0 <= successes <= trials and trials > 0, got "
                         f"successes={successes!r}, trials={trials!r}")
    low, high = np.empty(k.shape), np.empty(k.shape)
    for i in np.ndindex(k.shape):
        ci = stats.binomtest(int(k[i]), int(n[i])).proportion_ci(level, method="wilson")
        low[i], high[i] = ci.low, ci.high
    return low, high


# --------------------------------------------------------------------------- permutation tests


def label_permutation_test(statistic: Callable[[np.ndarray], float], labels,
                           n_resamples: int = PERMUTATIONS, seed: int = 0,
                           alternative: str = "greater") -> dict[str, float | np.ndarray]:
    """Permutation test of "the labels do not matter": ``statistic(labels)`` against its values
    for random reorderings of ``labels`` over the units (each label's count kept), through
    :func:`scipy.stats.permutation_test` (``permutation_type="pairings"`` on the unit indices).

    p = (1 + #{null >= observed}) / (1 + n_resamples) for ``alternative="greater"`` (``"less"``
    counts <=; ``"two-sided"`` is twice the smaller one-sided p, capped at 1), with scipy's
    relative tolerance for ties; exact (every ordering) when there are no more orderings than
    ``n_resamples``. Returns ``{"observed", "p_value", "null"}``.
    """
    if alternative not in ("greater", "less", "two-sided"):
        raise ValueError(f"alternative must be greater, less or two-sided, not {alternative!r}")
    labels = np.asarray(labels)
    res = stats.permutation_test((np.arange(len(labels)),), lambda order: statistic(labels[order]),
                                 permutation_type="pairings", vectorized=False,
                                 n_resamples=n_resamples, alternative=alternative,
                                 rng=np.random.default_rng(seed))
    return {"observed": float(res.statistic), "p_value": float(res.pvalue),
            "null": np.asarray(res.null_distribution, dtype=float)}


def spearman_permutation_p(a, b, n_resamples: int = PERMUTATIONS, seed: int = 0,
                           exact_up_to: int = 8, alternative: str = "greater") -> float:
    """p of Spearman's rho(a, b) under random pairings (:func:`scipy.stats.permutation_test`,
    ``permutation_type="pairings"``): every one of the n! pairings when ``n <= exact_up_to``
    (an exact test), else ``n_resamples`` random ones. ``alternative="greater"``: positive
    agreement, the one-sided test of a rank agreement."""
    a, b = (tie_values(v).ravel() for v in (a, b))
    if len(a) != len(b) or len(a) < 3:
        raise ValueError(f"need two arrays of equal length >= 3, got {len(a)} and {len(b)}")
    ra = stats.rankdata(a)

    def rho(y, axis=-1):
        ry = stats.rankdata(y, axis=axis)
        x = ra - ra.mean()
        ry = ry - ry.mean(axis=axis, keepdims=True)
        return (ry * x).sum(axis=axis) / np.sqrt((x * x).sum() * (ry * ry).sum(axis=axis))

    n = len(a)
    resamples = math.factorial(n) if n <= exact_up_to else n_resamples
    res = stats.permutation_test((b,), rho, permutation_type="pairings", vectorized=True,
                                 n_resamples=resamples, alternative=alternative,
                                 rng=np.random.default_rng(seed))
    return float(res.pvalue)


# --------------------------------------------------------------------------- multiple comparisons


def _family_size(k: int) -> int:
    if int(k) != k or k < 1:
        raise ValueError(f"a family needs a whole number of tests k >= 1, got {k!r}")
    return int(k)


def bonferroni_level(k: int, alpha: float = ALPHA) -> float:
    """The level of each of ``k`` two-sided intervals whose joint coverage is at least
    ``1 - alpha`` whatever their dependence (Bonferroni): ``1 - alpha / k``. A rule that
    concludes when *some* of ``k`` intervals crosses a threshold (a union of ``k`` tests) reads
    intervals at this level; one that needs *every* interval across (an intersection) does not."""
    return 1 - alpha / _family_size(k)


def sidak_level(k: int, alpha: float = ALPHA) -> float:
    """The level of each of ``k`` independent intervals whose joint coverage is exactly
    ``1 - alpha`` (Šidák 1967): ``(1 - alpha) ** (1 / k)``, a little below Bonferroni's level
    ``1 - alpha / k``, so its intervals are a little narrower."""
    return (1 - alpha) ** (1 / _family_size(k))


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjustment (Holm 1979) of a family of p-values: the k-th smallest is
    multiplied by (m - k + 1), running maxima keep the order, capped at 1. Rejecting where the
    adjusted value is below alpha keeps the family-wise error rate at alpha under any
    dependence, and never rejects less than Bonferroni. NaNs are left out of the family.
    (scipy.stats offers only false-discovery control, which is not a family-wise guarantee.)"""
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if ok.size == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = len(order)
    scaled = np.minimum(1.0, p[order] * (m - np.arange(m)))
    out[order] = np.maximum.accumulate(scaled)
    return out
