"""Uncertainty and significance for the consistency scores (not in the paper).

Both versions state that "there is no statistically significant difference between different
adjective categories" without describing a test. Every score of Eq. 4, 6 and 8 is a mean of
0/1 outcomes over phrases, but the phrases are not independent draws: the 12 phrases of an
adjective share that adjective, and the population the claims are about is *adjectives* of a
class. So the unit of resampling here is the adjective (and, where said, the noun):

- :func:`compsem.stats.wilson_interval`: the Wilson score interval of a share, treating phrases
  as independent (the naive interval a reader might compute from the tables; too narrow).
- :func:`bootstrap_classes`, :func:`bootstrap_cells`: percentile intervals from resampling
  adjectives *within* their class (and nouns) with replacement (a stratified resampler written
  out here, see :func:`_class_resample` for why scipy's bootstrap does not serve).
- :func:`t_classes`: Student-t intervals of class scores over the class's adjectives (for
  classes of a few adjectives, where a percentile bootstrap is no wider than their range).
- :func:`permutation_test`: shuffling class labels over adjectives (class sizes kept) gives the
  null distribution of any statistic of the class scores; the p-value of "no difference between
  classes" is the share of shuffles at least as extreme as observed
  (:func:`compsem.stats.label_permutation_test`, i.e. :func:`scipy.stats.permutation_test`).
  Shuffles of the same kind give the label-shuffle null of every single cell
  (:func:`label_shuffle_null`).
- :func:`chi_square`: the phrase-level chi-square test, for contrast (it ignores the clustering).
- :func:`per_noun`: the score of each class on each noun alone.

Data layout: an *adjective grid* ``V[a, n]`` (AN tests, 0/1 per phrase) or an *adjective-pair
matrix* ``S[a1, a2]`` (AAN and pair tests: the mean outcome over nouns or noun pairs, with a
weight matrix ``W`` that is 1 off the diagonal and 0 on it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from compsem.modifiers.lexicon import CLASSES, Lexicon
from compsem.stats import (
    BOOTSTRAP_RESAMPLES,
    PERMUTATIONS,
    holm,  # noqa: F401  (re-exported: compsem.modifiers.statistics.holm)
    label_permutation_test,
    percentile_interval,
    seed_interval,
)

# --------------------------------------------------------------------------- data layout


def adjective_grid(phrases: pd.DataFrame, values, lexicon: Lexicon) -> np.ndarray:
    """Per-phrase values as an array: ``(n_adj, n_noun)`` for AN phrases, ``(n_adj, n_adj,
    n_noun)`` for AAN phrases (NaN where a1 = a2); adjectives and nouns in lexicon order."""
    adj_index = {w: i for i, w in enumerate(lexicon.adjectives["word"])}
    noun_index = {w: i for i, w in enumerate(lexicon.nouns["word"])}
    values = np.asarray(values, dtype=float)
    kinds = set(phrases["kind"])
    if len(kinds) != 1:
        raise ValueError(f"phrases of one kind expected, got {sorted(kinds)}")
    n_adj, n_noun = len(adj_index), len(noun_index)
    nouns = phrases["noun"].map(noun_index).to_numpy()
    a1 = phrases["adj1"].map(adj_index).to_numpy()
    if kinds == {"AN"}:
        grid = np.full((n_adj, n_noun), np.nan)
        grid[a1, nouns] = values
    elif kinds == {"AAN"}:
        grid = np.full((n_adj, n_adj, n_noun), np.nan)
        grid[a1, phrases["adj2"].map(adj_index).to_numpy(), nouns] = values
    else:
        raise ValueError(f"kind must be AN or AAN, not {kinds}")
    return grid


def pair_matrix(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(S, W)`` from an AAN grid: S = mean over nouns (0 on the diagonal), W = 1 - I."""
    n = grid.shape[0]
    off = ~np.eye(n, dtype=bool)
    S = np.zeros((n, n))
    S[off] = grid[off].mean(axis=-1)
    return S, off.astype(np.float64)


def _onehot(labels: np.ndarray, classes: Sequence[str]) -> np.ndarray:
    return (np.asarray(labels)[:, None] == np.array(classes)[None, :]).astype(np.float64)


def class_scores(
    grid: np.ndarray, labels: np.ndarray, classes: Sequence[str] = CLASSES
) -> np.ndarray:
    """Mean of an adjective grid ``(n_adj, n_noun)`` per class (Eq. 4 / Eq. 8 scores)."""
    onehot = _onehot(labels, classes)
    per_adj = grid.mean(axis=1)
    return (onehot.T @ per_adj) / onehot.sum(axis=0)


def cell_scores(
    S: np.ndarray, W: np.ndarray, labels: np.ndarray, classes: Sequence[str] = CLASSES
) -> np.ndarray:
    """Weighted block means of an adjective-pair matrix: ``[X, Y]`` = Σ S W / Σ W over a1 in
    X, a2 in Y (Eq. 4 on AAN cells, Eq. 6 on pair cells)."""
    onehot = _onehot(labels, classes)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (onehot.T @ (S * W) @ onehot) / (onehot.T @ W @ onehot)


# --------------------------------------------------------------------------- intervals


def _class_resample(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Adjective indices resampled with replacement within each class (class sizes kept).

    A resampler written out (stratified resampling) for want of a scipy one. Passing each class
    as a sample of adjective indices to :func:`scipy.stats.bootstrap` (which resamples several
    samples independently) would stratify too, but scipy refuses a sample of fewer than two
    observations (a class of one adjective in a reduced lexicon), and its interval is NaN as soon
    as one resample's statistic is NaN, which happens to pair-matrix cells whose only pairs
    became self-pairs (:func:`bootstrap_cells` leaves such resamples out cell by cell).
    Checked by property tests in tests/test_modifiers_statistics.py.
    """
    idx = np.empty(len(labels), dtype=np.int64)
    for cls in np.unique(labels):
        members = np.flatnonzero(labels == cls)
        idx[members] = rng.choice(members, size=len(members), replace=True)
    return idx


def bootstrap_classes(
    grid: np.ndarray,
    labels: np.ndarray,
    n_boot: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    level: float = 0.95,
    resample_nouns: bool = True,
    classes: Sequence[str] = CLASSES,
) -> pd.DataFrame:
    """Percentile bootstrap interval of each class score of an adjective grid ``(n_adj,
    n_noun)``: adjectives resampled within class and (``resample_nouns``) nouns resampled
    (the draws of :func:`class_score_draws`)."""
    draws = class_score_draws(grid, labels, n_boot, seed, resample_nouns, classes)
    return pd.DataFrame(
        {
            "score": class_scores(grid, np.asarray(labels), classes),
            "low": np.quantile(draws, (1 - level) / 2, axis=0),
            "high": upper_ends(draws, level),
        },
        index=list(classes),
    )


def upper_ends(draws: np.ndarray, level: float = 0.95) -> np.ndarray:
    """The upper end of the percentile ``level`` interval of each column of ``draws`` (the
    ``1 - (1 - level) / 2`` quantile): of the class scores of :func:`class_score_draws` for
    :func:`bootstrap_classes`, at any level from the same draws."""
    return np.quantile(draws, 1 - (1 - level) / 2, axis=0)


def class_score_draws(
    grid: np.ndarray,
    labels: np.ndarray,
    n_boot: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    resample_nouns: bool = True,
    classes: Sequence[str] = CLASSES,
) -> np.ndarray:
    """``(n_boot, len(classes))`` class scores of an adjective grid, adjectives resampled within
    class (:func:`_class_resample`) and (``resample_nouns``) nouns resampled: the draws whose
    quantiles are the intervals of :func:`bootstrap_classes`, at any level."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    draws = np.empty((n_boot, len(classes)))
    for b in range(n_boot):
        idx = _class_resample(labels, rng)
        cols = rng.integers(0, grid.shape[1], grid.shape[1]) if resample_nouns else slice(None)
        draws[b] = class_scores(grid[idx][:, cols], labels, classes)
    return draws


def bootstrap_cells(
    S: np.ndarray,
    W: np.ndarray,
    labels: np.ndarray,
    n_boot: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    level: float = 0.95,
    classes: Sequence[str] = CLASSES,
) -> dict[str, np.ndarray]:
    """Percentile bootstrap intervals of every cell of an adjective-pair matrix, adjectives
    resampled within class (a pair of two copies of one adjective gets weight 0).
    Returns ``{"score", "low", "high"}``, each ``(n_classes, n_classes)``."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    draws = np.empty((n_boot, len(classes), len(classes)))
    for b in range(n_boot):
        idx = _class_resample(labels, rng)
        Wb = W[np.ix_(idx, idx)] * (idx[:, None] != idx[None, :])
        draws[b] = cell_scores(S[np.ix_(idx, idx)], Wb, labels, classes)
    alpha = (1 - level) / 2
    return {
        "score": cell_scores(S, W, labels, classes),
        "low": np.nanquantile(draws, alpha, axis=0),
        "high": np.nanquantile(draws, 1 - alpha, axis=0),
    }


def t_classes(
    grid: np.ndarray,
    labels: np.ndarray,
    level: float = 0.95,
    classes: Sequence[str] = CLASSES,
    bounds: tuple[float, float] | None = None,
) -> pd.DataFrame:
    """Student-t interval of each class score of an adjective grid ``(n_adj, n_noun)``, the
    adjective the unit: the per-adjective means (over nouns) of the class, their mean ± the
    ``(1 + level) / 2`` quantile of t with ``n - 1`` degrees of freedom times their standard
    error (:func:`scipy.stats.t.interval`). The interval of the one-sample t-test (the test
    :func:`compsem.modifiers.chapter.p_score_is_half` runs), so the two agree: 0.5 lies outside
    the interval at ``1 - a`` exactly when that test rejects at ``a``. Unlike a percentile
    bootstrap of a class of three adjectives, whose interval cannot be wider than the range of
    the three, it widens as a class gets smaller. Every adjective scoring the same: the interval
    is that point (the test's limit). Fewer than two adjectives: no interval, ``(-inf, inf)``.
    ``bounds``: the range a class score cannot leave (:data:`compsem.stats.PROPORTION` for the
    pair test's shares), which the interval is cut to (:func:`compsem.stats.seed_interval`); the
    cut keeps 0.5 inside or outside the interval as the t-test decides."""
    labels = np.asarray(labels)
    per_adj = np.asarray(grid, float).mean(axis=1)
    rows = {}
    for cls in classes:
        x = per_adj[labels == cls]
        mean = float(x.mean()) if x.size else float("nan")
        if x.size < 2:
            low, high = -np.inf, np.inf
        elif np.ptp(x) == 0:
            low = high = mean
        else:
            _, low, high = seed_interval(x, level, bounds)
        rows[cls] = {"score": mean, "low": float(low), "high": float(high)}
    return pd.DataFrame.from_dict(rows, orient="index")


# --------------------------------------------------------------------------- permutation tests


def between_class_variance(scores: np.ndarray, sizes: np.ndarray) -> float:
    """Size-weighted variance of class (or cell) scores around their weighted mean: 0 when
    all classes score the same. The omnibus statistic of :func:`permutation_test`."""
    scores, sizes = np.asarray(scores, float).ravel(), np.asarray(sizes, float).ravel()
    ok = ~np.isnan(scores) & (sizes > 0)
    mean = np.average(scores[ok], weights=sizes[ok])
    return float(np.average((scores[ok] - mean) ** 2, weights=sizes[ok]))


def permutation_test(
    statistic: Callable[[np.ndarray], float],
    labels: np.ndarray,
    n_perm: int = PERMUTATIONS,
    seed: int = 0,
    alternative: str = "greater",
) -> dict[str, float | np.ndarray]:
    """Shuffle class labels over adjectives ``n_perm`` times; ``statistic(labels)`` is computed
    for the observed and every shuffled labelling (:func:`compsem.stats.label_permutation_test`,
    i.e. :func:`scipy.stats.permutation_test`). p = (1 + #{null >= observed}) / (1 + n_perm)
    (``alternative="greater"``; ``"less"`` counts <=, ``"two-sided"`` doubles the smaller).
    Returns ``{"observed", "p_value", "null"}``."""
    return label_permutation_test(statistic, labels, n_resamples=n_perm, seed=seed,
                                  alternative=alternative)


def omnibus_single(grid: np.ndarray, classes: Sequence[str] = CLASSES) -> Callable:
    """The omnibus statistic for an adjective grid: between-class variance of class scores."""

    def statistic(labels: np.ndarray) -> float:
        sizes = _onehot(labels, classes).sum(axis=0)
        return between_class_variance(class_scores(grid, labels, classes), sizes)

    return statistic


def omnibus_cells(S: np.ndarray, W: np.ndarray, classes: Sequence[str] = CLASSES) -> Callable:
    """The omnibus statistic for an adjective-pair matrix: weighted variance of cell scores."""

    def statistic(labels: np.ndarray) -> float:
        onehot = _onehot(labels, classes)
        return between_class_variance(cell_scores(S, W, labels, classes), onehot.T @ W @ onehot)

    return statistic


def contrast(grid: np.ndarray, group_a: Sequence[str], group_b: Sequence[str]) -> Callable:
    """Mean score of the phrases of classes ``group_a`` minus that of ``group_b`` (an adjective
    grid), e.g. non-subsective minus subsective for Eq. 8."""

    def statistic(labels: np.ndarray) -> float:
        per_adj = grid.mean(axis=1)
        a, b = np.isin(labels, group_a), np.isin(labels, group_b)
        return float(per_adj[a].mean() - per_adj[b].mean())

    return statistic


def label_shuffle_null(
    statistic: Callable[[np.ndarray], np.ndarray],
    labels: np.ndarray,
    n_perm: int = PERMUTATIONS,
    seed: int = 0,
) -> np.ndarray:
    """``statistic(shuffled labels)`` for ``n_perm`` shuffles, stacked: e.g. every class or
    cell score under exchangeable labels (what the tables would look like by chance).

    Written out rather than taken from :func:`scipy.stats.permutation_test`: the statistic here
    is a vector (one value per class or cell), and scipy's test accepts only scalar statistics
    (its p-value step fails on a vector null); no p-value is wanted, only the draws."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    return np.stack([np.asarray(statistic(rng.permutation(labels))) for _ in range(n_perm)])


def chi_square(
    grid: np.ndarray, labels: np.ndarray, classes: Sequence[str] = CLASSES
) -> dict[str, float]:
    """Phrase-level chi-square test of independence of outcome and class (treats all phrases
    as independent; shown beside the permutation test to show what clustering does)."""
    onehot = _onehot(labels, classes)
    n_noun = grid.shape[1]
    ones = onehot.T @ grid.sum(axis=1)
    totals = onehot.sum(axis=0) * n_noun
    table = np.vstack([ones, totals - ones])
    keep = table.sum(axis=0) > 0
    if (table[:, keep].sum(axis=1) == 0).any():  # all outcomes equal: nothing to test
        return {"chi2": 0.0, "dof": float(keep.sum() - 1), "p_value": 1.0}
    chi2, p, dof, _ = stats.chi2_contingency(table[:, keep])
    return {"chi2": float(chi2), "dof": float(dof), "p_value": float(p)}


def per_noun(
    grid: np.ndarray, labels: np.ndarray, nouns: Sequence[str], classes: Sequence[str] = CLASSES
) -> pd.DataFrame:
    """The class scores of an adjective grid on each noun alone (rows: nouns)."""
    onehot = _onehot(labels, classes)
    values = (onehot.T @ grid) / onehot.sum(axis=0)[:, None]
    return pd.DataFrame(values.T, index=list(nouns), columns=list(classes))


# --------------------------------------------------------------------------- multiple comparisons


def pair_group_contrast(S: np.ndarray, W: np.ndarray, group: str = "S-I") -> Callable:
    """For an adjective-pair matrix (AAN test): mean score of the ordered pairs where *neither*
    adjective is in ``group`` minus that of the pairs where at least one is (pairs weighted by
    ``W``). 001 §4.2.1 expects it negative for ``group="S-I"``: AAN scores drop "especially when
    both adjectives are not intersective"."""

    def statistic(labels: np.ndarray) -> float:
        member = np.asarray(labels) == group
        neither = ~member[:, None] & ~member[None, :]
        w_in, w_out = W * neither, W * ~neither
        return float((S * w_in).sum() / w_in.sum() - (S * w_out).sum() / w_out.sum())

    return statistic


# --------------------------------------------------------------------------- intervals of any statistic


def bootstrap_statistic(
    statistic: Callable[[np.ndarray], float],
    labels: np.ndarray,
    n_boot: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
    level: float = 0.95,
    method: str = "percentile",
) -> tuple[float, float, float]:
    """``(observed, low, high)``: ``statistic(idx)`` on the adjectives in lexicon order
    (``idx = arange``) and its interval at ``level`` (:func:`draws_interval`) over the
    ``n_boot`` resamples of :func:`statistic_draws`."""
    observed, draws = statistic_draws(statistic, labels, n_boot, seed)
    return (observed, *draws_interval(observed, draws, level, method))


def statistic_draws(
    statistic: Callable[[np.ndarray], float],
    labels: np.ndarray,
    n_boot: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> tuple[float, np.ndarray]:
    """``(observed, draws)``: ``statistic(idx)`` on the adjectives in lexicon order (``idx =
    arange``) and on ``n_boot`` resamples of the adjectives *within* their class
    (:func:`_class_resample`: class sizes and positions kept, so ``labels[idx] == labels``).
    ``statistic`` takes the resampled adjective indices and reads them into its own data (an
    adjective grid ``grid[idx]``, a pair matrix ``S[np.ix_(idx, idx)]`` with the weight of a pair
    of two copies of one adjective set to 0, see :func:`pair_resampled`); resamples whose
    statistic is NaN are left out."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    observed = float(statistic(np.arange(len(labels))))
    draws = np.array([statistic(_class_resample(labels, rng)) for _ in range(n_boot)], float)
    return observed, draws[np.isfinite(draws)]


def draws_interval(observed: float, draws: np.ndarray, level: float = 0.95,
                   method: str = "percentile") -> tuple[float, float]:
    """The ``level`` interval of bootstrap ``draws`` of a statistic whose value is ``observed``
    (NaNs when there are no draws).

    ``method``: ``"percentile"`` (the quantiles of the resampled statistic) or ``"basic"`` (the
    reverse percentile interval ``2 observed - quantiles``, Davison & Hinkley 1997, §5.2), which
    corrects a shift of the resampled statistic away from the observed one: a largest-minus-
    smallest spread of class scores is such a statistic, since a resample makes the cells of few
    adjectives noisier and the extremes more extreme."""
    if method not in ("percentile", "basic"):
        raise ValueError(f"method must be 'percentile' or 'basic', not {method!r}")
    low, high = percentile_interval(draws, level)
    if method == "basic":
        low, high = 2 * observed - high, 2 * observed - low
    return float(low), float(high)


def pair_resampled(S: np.ndarray, W: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An adjective-pair matrix and its weights for resampled adjectives ``idx``: a pair of two
    copies of one adjective (not a pair of the data) gets weight 0, as in
    :func:`bootstrap_cells`."""
    return S[np.ix_(idx, idx)], W[np.ix_(idx, idx)] * (idx[:, None] != idx[None, :])


def spread(scores) -> float:
    """Largest minus smallest of class (or cell) scores, NaNs ignored: 0 when every class scores
    the same (the effect size of "no difference between classes")."""
    scores = np.asarray(scores, float).ravel()
    return float(np.nanmax(scores) - np.nanmin(scores))
