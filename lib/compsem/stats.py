"""Statistics shared by the chapters: intervals for Spearman correlations and paired comparisons.

Resampling comes from :func:`scipy.stats.bootstrap` (vectorised; BCa by default), the test of
two correlations that share a variable from Williams (1959) as given by Steiger (1980, eq. 7).
Neither is in the papers reproduced here: they put an uncertainty on the comparisons the papers'
claims rest on (e.g. "hybrids above every transformer on the adversarial pairs", Fodor et al.
2025, Table 9).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["spearman_interval", "paired_spearman_difference", "williams_test"]


def _finite(*arrays, mask=None) -> list[np.ndarray]:
    """The arrays as floats, restricted to ``mask`` and to the rows finite in every array."""
    arrays = [np.asarray(a, dtype=float).ravel() for a in arrays]
    n = len(arrays[0])
    if any(len(a) != n for a in arrays):
        raise ValueError(f"arrays differ in length: {[len(a) for a in arrays]}")
    keep = np.ones(n, dtype=bool) if mask is None else np.array(mask, dtype=bool)  # a copy
    if keep.shape != (n,):
        raise ValueError(f"mask has shape {keep.shape}, expected ({n},)")
    for a in arrays:
        keep &= np.isfinite(a)
    if keep.sum() < 4:
        raise ValueError(f"only {int(keep.sum())} finite pairs; a correlation interval needs at least 4")
    return [a[keep] for a in arrays]


def _rowwise_spearman(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Spearman rho along ``axis`` (average ranks for ties), for stacked resamples."""
    rx = stats.rankdata(x, axis=axis)
    ry = stats.rankdata(y, axis=axis)
    rx = rx - rx.mean(axis=axis, keepdims=True)
    ry = ry - ry.mean(axis=axis, keepdims=True)
    return (rx * ry).sum(axis=axis) / np.sqrt((rx * rx).sum(axis=axis) * (ry * ry).sum(axis=axis))


def spearman_interval(x, human, mask=None, n_resamples: int = 2000, seed: int = 0,
                      level: float = 0.95, method: str = "BCa") -> tuple[float, float, float]:
    """Spearman rho of ``x`` with ``human`` and its bootstrap interval over pairs.

    Returns ``(rho, low, high)``; resampling is paired (a pair keeps its two values).
    """
    x, h = _finite(x, human, mask=mask)
    rho = float(stats.spearmanr(x, h).statistic)
    res = stats.bootstrap((x, h), _rowwise_spearman, paired=True, vectorized=True,
                          n_resamples=n_resamples, confidence_level=level, method=method,
                          random_state=np.random.default_rng(seed))
    return rho, float(res.confidence_interval.low), float(res.confidence_interval.high)


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


def paired_spearman_difference(a, b, human, mask=None, n_resamples: int = 2000, seed: int = 0,
                               level: float = 0.95, method: str = "BCa") -> dict[str, float]:
    """rho(a, human) - rho(b, human) for two models scored on the same pairs, with a paired
    bootstrap interval (pairs resampled together, so the models' shared errors cancel).

    ``p`` is the two-sided bootstrap p-value, 2 min(P*(d <= 0), P*(d >= 0)) over the resampled
    differences d (floored at 1/n_resamples); ``williams_t`` and ``williams_p`` are Williams' test
    on the same correlations (:func:`williams_test`, anti-conservative on Spearman rho).

    Returns a dict: ``rho_a``, ``rho_b``, ``difference``, ``ci_low``, ``ci_high``, ``p``,
    ``williams_t``, ``williams_p``, ``n``.
    """
    a, b, h = _finite(a, b, human, mask=mask)
    rho_a = float(stats.spearmanr(a, h).statistic)
    rho_b = float(stats.spearmanr(b, h).statistic)
    rho_ab = float(stats.spearmanr(a, b).statistic)

    def difference(x, y, z, axis=-1):
        return _rowwise_spearman(x, z, axis) - _rowwise_spearman(y, z, axis)

    res = stats.bootstrap((a, b, h), difference, paired=True, vectorized=True,
                          n_resamples=n_resamples, confidence_level=level, method=method,
                          random_state=np.random.default_rng(seed))
    draws = res.bootstrap_distribution
    p = max(2 * min(np.mean(draws <= 0), np.mean(draws >= 0)), 1 / n_resamples)
    t, williams_p = williams_test(rho_a, rho_b, rho_ab, len(h))
    return {"rho_a": rho_a, "rho_b": rho_b, "difference": rho_a - rho_b,
            "ci_low": float(res.confidence_interval.low), "ci_high": float(res.confidence_interval.high),
            "p": float(min(p, 1.0)), "williams_t": t, "williams_p": williams_p, "n": int(len(h))}
