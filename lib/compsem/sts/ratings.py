"""Human similarity ratings of STS3k: normalisation, descriptive statistics and reliability.

Implements §4.2 and §5.1 of Fodor, De Deyne & Suzuki (2025) from the raw 1-7 participant matrix
(:func:`compsem.data.sts3k.load_participant_ratings`: 2,800 pairs x 501 participants, NaN where
a participant did not rate a pair). Every function takes that matrix as a 2-D array or DataFrame
(pairs in rows, participants in columns) and is vectorised over pairs, participants and random
splits: 100 split halves of the full matrix take well under a second.

What reproduces the paper (checked against the released data; details in each docstring):

- Descriptive statistics (§5.1: 0 to 0.975, mean 0.442, SD 0.242) are those of the per-pair means
  without the 10 attention checks, with the population SD (``ddof=0``, numpy's default):
  ``ddof=1`` gives 0.24214, the repo printed 0.24209.
- The Kolmogorov-Smirnov test (§5.1, p = 4.3e-119; D = 0.310 in the authors' notebook) compares
  the 2,800 per-pair means with the 2,800 per-pair means of the same matrix after each
  participant's ratings have been shuffled across pairs. Individual ratings cannot be what was
  compared (a within-participant shuffle leaves their distribution unchanged, D = 0); per-pair
  means can: averaging ~20 shuffled ratings pulls every pair towards the grand mean. D varies
  with the shuffle, and with what is shuffled: a participant's ratings permuted among the pairs
  they rated, or the whole column (NaNs included); the chapter ``sts3k-data`` gives its mean and
  SD over shuffle seeds for both (Errata). The paper's p = 4.3e-119 corresponds to D = 0.3096 at
  n = m = 2,800; which way the authors shuffled cannot be told from one draw.
- The average per-pair SD (§5.1: 0.216) is *not* reproduced exactly by any simple variant:
  ``ddof=0`` gives 0.2115 (all pairs; 0.2120 without checks; this equals the xlsx ``Std``
  column / 6), ``ddof=1`` gives 0.2171 (0.2176 without checks). ``ddof=1`` is the default here
  (pandas' ``std``, the usual "SD across raters"), 0.001 above the paper.
- Split-half reliability and weighted kappa (§5.1: .953/.950/.940 and .832/.825/.804) follow the
  method of the authors' ``Check_split_half_reliability.ipynb``: see
  :func:`split_half_reliability`; seed 0 gives .953/.950/.940 and .833/.826/.804, and the
  spread over seeds is about +/- 0.0005 (r) and +/- 0.001 (kappa). 100 splits take ~0.1 s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from compsem import stats as cstats

N_CATEGORIES = 7
"""The rating scale is 1..7 (§4.2)."""


def _as_array(ratings) -> np.ndarray:
    return np.asarray(ratings, dtype=float)


def normalise(raw):
    """Map raw 1-7 ratings to 0-1: ``(raw - 1) / 6`` (§4.2).

    Every participant used the full 1-7 range, so this equals per-participant min-max scaling.
    Works on scalars, arrays and pandas objects alike (NaN stays NaN).
    """
    return (raw - 1.0) / 6.0


def check_mask(ratings) -> np.ndarray:
    """Boolean mask of the attention-check pairs: those rated by every participant.

    In STS3k these are rows 0-9 of the released data (5 nonsense-vs-simple pairs and 5 identical
    pairs, rated by all 501 participants, §4.2).
    """
    r = _as_array(ratings)
    return np.isfinite(r).all(axis=1)


def pair_means(ratings) -> np.ndarray:
    """Per-pair mean of the normalised ratings (§4.2: "averaged per pair and normalised to 0-1").

    Pairs with no rating give NaN.
    """
    r = normalise(_as_array(ratings))
    count = np.isfinite(r).sum(axis=1)
    total = np.nansum(r, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def describe(means, ddof: int = 0) -> dict[str, float]:
    """Range, mean and SD of per-pair similarities (§5.1: 0 to 0.975, mean 0.442, SD 0.242).

    Pass the means *without* the attention checks (``pair_means(r)[~check_mask(r)]``): that is
    what the paper reports. ``ddof=0`` (population SD) reproduces the authors' 0.24209.
    """
    m = np.asarray(means, dtype=float)
    m = m[np.isfinite(m)]
    return {
        "min": float(m.min()),
        "max": float(m.max()),
        "mean": float(m.mean()),
        "sd": float(m.std(ddof=ddof)),
        "n": int(m.size),
    }


def shuffle_within_participants(ratings, seed=0, within: str = "rated") -> np.ndarray:
    """Shuffle each participant's ratings across pairs (the "shuffled ratings" of Fig. 2, §5.1).

    ``within="rated"`` (default) permutes a participant's ratings among the pairs that
    participant rated: the NaN pattern (who rated what) and each participant's rating
    distribution are kept. ``within="column"`` permutes the whole participant column, NaNs
    included (the naive ``np.random.permutation(column)``), so ratings land on random pairs,
    the attention checks included. ``seed`` is an int or a :class:`numpy.random.Generator`.
    Vectorised: one ``lexsort`` for all participants.
    """
    if within not in ("rated", "column"):
        raise ValueError(f"within must be 'rated' or 'column', not {within!r}")
    rng = np.random.default_rng(seed)
    r = _as_array(ratings)
    cells = np.isfinite(r.T) if within == "rated" else np.ones(r.T.shape, dtype=bool)
    # Cells grouped by participant (column of r): nonzero on the transpose is participant-major.
    cols, rows = np.nonzero(cells)
    values = r[rows, cols]
    order = np.lexsort((rng.random(values.size), cols))  # random order within each participant
    shuffled = np.full_like(r, np.nan)
    shuffled[rows, cols] = values[order]  # cols[order] == cols: ratings stay with their rater
    return shuffled


def ks_against_shuffled(
    ratings, seed=0, within: str = "rated", exclude_checks: bool = False
) -> dict[str, float]:
    """Two-sample KS test of per-pair means against per-pair means of shuffled ratings (§5.1).

    Paper: p = 4.3e-119 (log10 p = -118.37); authors' notebook: D = 0.310. The comparison that
    gives D ~ 0.31 is per-pair *means* (the 2,800 normalised means) against the per-pair means
    after :func:`shuffle_within_participants`. Individual ratings give D = 0 (a shuffle within
    participants does not change their distribution). D depends on the shuffle, and is lower
    with ``within="rated"`` than with ``within="column"``; the chapter ``sts3k-data`` gives its
    mean and SD over seeds for both (Errata), between which the paper's single draw lies. At
    n = m = 2,800 the paper's p corresponds to D = 0.3096. Returns ``statistic`` (D),
    ``pvalue``, ``log10_pvalue`` and ``n``.
    """
    r = _as_array(ratings)
    keep = ~check_mask(r) if exclude_checks else np.ones(len(r), dtype=bool)
    observed = pair_means(r)[keep]
    shuffled = pair_means(shuffle_within_participants(r, seed, within))[keep]
    result = stats.ks_2samp(observed, shuffled)
    return {
        "statistic": float(result.statistic),
        "pvalue": float(result.pvalue),
        "log10_pvalue": float(np.log10(result.pvalue)) if result.pvalue > 0 else -np.inf,
        "n": int(keep.sum()),
    }


def ks_over_seeds(ratings, seeds, withins=("rated", "column")) -> pd.DataFrame:
    """:func:`ks_against_shuffled` for every shuffle in ``withins`` and every seed in ``seeds``
    (shuffles outer, seeds inner): how the KS statistic of §5.1 varies with the random shuffle
    and with what is shuffled. One row per run: ``within``, ``seed``, ``D`` (the statistic) and
    ``log10 p``."""
    runs = [(w, k, ks_against_shuffled(ratings, seed=k, within=w)) for w in withins for k in seeds]
    return pd.DataFrame([{"within": w, "seed": k, "D": ks["statistic"], "log10 p": ks["log10_pvalue"]}
                         for w, k, ks in runs])


def per_pair_sd(ratings, ddof: int = 1) -> np.ndarray:
    """SD of the normalised ratings of each pair across its raters (§5.1: average 0.216).

    ``ddof=1`` (the sample SD) gives an average of 0.2171 over all 2,800 pairs and 0.2176
    without the checks; ``ddof=0`` gives 0.2115 / 0.2120 (equal to the xlsx ``Std`` column / 6).
    Neither rounds to 0.216; ``ddof=1`` is closer. Pairs with <= ddof ratings give NaN.
    """
    r = normalise(_as_array(ratings))
    count = np.isfinite(r).sum(axis=1)
    mean = np.nansum(r, axis=1) / np.maximum(count, 1)
    ss = np.nansum((r - mean[:, None]) ** 2, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > ddof, np.sqrt(ss / (count - ddof)), np.nan)


def mean_per_pair_sd(ratings, ddof: int = 1) -> float:
    """The average over pairs of :func:`per_pair_sd` (NaN pairs skipped), the number §5.1 reports
    as 0.216."""
    return float(np.nanmean(per_pair_sd(ratings, ddof=ddof)))


def spearman_brown(r):
    """Spearman-Brown prophecy for doubling the test length: ``2r / (1 + r)`` (§5.1)."""
    r = np.asarray(r, dtype=float)
    return 2.0 * r / (1.0 + r)


def single_split_range(per_split: pd.DataFrame, subset: str, column: str = "r", level: float = 0.95
                       ) -> tuple[float, float]:
    """The central ``level`` range of one split's reliability, Spearman-Brown corrected
    (:func:`spearman_brown`), over the splits of :func:`split_half_reliability` (``per_split``,
    rows of ``subset``, ``column`` ``r`` or ``kappa``): the spread one random split of the raters
    could give (§5.1), not a confidence interval of the mean over splits."""
    rows = per_split[per_split["subset"] == subset]
    if rows.empty:
        raise ValueError(f"single_split_range: no split of subset {subset!r}; per_split has "
                         f"{sorted(per_split['subset'].unique())}")
    return cstats.percentile_interval(spearman_brown(rows[column].to_numpy()), level)


def random_halves(n_participants: int, n_splits: int, seed=0) -> np.ndarray:
    """``n_splits`` random splits of the participants into two halves, as a boolean matrix.

    Row s is True for the participants in half A of split s. Half A has
    ``n_participants // 2`` members (250 of 501), half B the rest.
    """
    rng = np.random.default_rng(seed)
    keys = rng.random((n_splits, n_participants))
    rank = keys.argsort(axis=1).argsort(axis=1)
    return rank < n_participants // 2


def split_half_means(ratings, halves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-pair mean *raw* rating in each half of each split (NaN where a half has no rating).

    ``halves`` is the boolean (n_splits, n_participants) matrix of :func:`random_halves`.
    Returns two arrays of shape (n_splits, n_pairs). Two matrix products per half, no loops.
    """
    r = _as_array(ratings)
    rated = np.isfinite(r)
    values = np.where(rated, r, 0.0)
    a = halves.astype(float).T  # (participants, splits)
    b = 1.0 - a
    means = []
    for h in (a, b):
        total = (values @ h).T
        count = (rated.astype(float) @ h).T
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.where(count > 0, total / np.maximum(count, 1.0), np.nan))
    return means[0], means[1]


def rowwise_pearson(x, y) -> np.ndarray:
    """Pearson r between ``x[s]`` and ``y[s]`` for every row s, dropping columns where either
    is NaN (in that row only)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    n = ok.sum(axis=1)
    x0 = np.where(ok, x, 0.0)
    y0 = np.where(ok, y, 0.0)
    mx = x0.sum(axis=1) / n
    my = y0.sum(axis=1) / n
    dx = np.where(ok, x - mx[:, None], 0.0)
    dy = np.where(ok, y - my[:, None], 0.0)
    return (dx * dy).sum(axis=1) / np.sqrt((dx**2).sum(axis=1) * (dy**2).sum(axis=1))


def rowwise_weighted_kappa(a, b, n_categories: int = N_CATEGORIES) -> np.ndarray:
    """Linearly weighted Cohen's kappa between ``a[s]`` and ``b[s]`` for every row s.

    ``a`` and ``b`` hold integer categories 1..``n_categories`` (NaN = missing, dropped per
    row). Weights are |i - j|; kappa = 1 - sum(w * observed) / sum(w * expected), expected =
    outer product of the two marginals. Equals ``sklearn.metrics.cohen_kappa_score(...,
    weights="linear")`` whenever no category *between* the smallest and largest observed one is
    absent from both raters (sklearn weights by the rank of a label among the labels present).
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    n_rows = a.shape[0]
    k = n_categories
    ok = np.isfinite(a) & np.isfinite(b)
    row = np.broadcast_to(np.arange(n_rows)[:, None], a.shape)[ok]
    i = a[ok].astype(int) - 1
    j = b[ok].astype(int) - 1
    if (i < 0).any() or (i >= k).any() or (j < 0).any() or (j >= k).any():
        raise ValueError(f"categories must be integers 1..{k}")
    observed = np.bincount(row * k * k + i * k + j, minlength=n_rows * k * k)
    observed = observed.reshape(n_rows, k, k).astype(float)
    n = observed.sum(axis=(1, 2))
    expected = (
        observed.sum(axis=2)[:, :, None] * observed.sum(axis=1)[:, None, :] / n[:, None, None]
    )
    weights = np.abs(np.arange(k)[:, None] - np.arange(k)[None, :]).astype(float)
    return 1.0 - (weights * observed).sum(axis=(1, 2)) / (weights * expected).sum(axis=(1, 2))


def reliability_subsets(participant_pairs: pd.DataFrame, ratings) -> dict[str, np.ndarray]:
    """The three pair subsets of the §5.1 reliability analysis (those of the authors'
    ``Check_split_half_reliability.ipynb``), as boolean masks.

    - ``all``: every pair except the 10 attention checks (2,790);
    - ``non``: the rows *not* marked ADV in the participant xlsx, minus the checks (1,054).
      The non-adversarial index file minus the checks would give 1,055: it also holds row 691,
      which the xlsx marks ADV;
    - ``adv``: the rows marked ADV in the participant xlsx (1,736: includes row 691 and the
      71 negatives), *not* the adversarial index file (1,664).
    """
    checks = check_mask(ratings)
    adversarial = participant_pairs["xlsx_adversarial"].to_numpy(dtype=bool)
    return {"all": ~checks, "non": ~adversarial & ~checks, "adv": adversarial}


def split_half_reliability(ratings, subsets: dict, n_splits: int = 100, seed=0):
    """Split-half reliability and weighted kappa of the human ratings (§5.1).

    Method (authors' ``Check_split_half_reliability.ipynb``): ``n_splits`` random
    splits of the participants into halves (:func:`random_halves`); in each half the per-pair
    mean raw rating (NaN-aware). Then, for each subset of pairs (a dict name -> boolean mask,
    see :func:`reliability_subsets`):

    - **split-half r**: Pearson r between the two halves' normalised means over the subset's
      pairs, averaged over splits, then Spearman-Brown corrected (paper .953 all, .950 non,
      .940 adv);
    - **kappa**: linearly weighted Cohen's kappa between ``ceil()`` of the two halves' mean raw
      ratings (categories 1..7), averaged over splits, then *also* Spearman-Brown corrected
      (paper .832 / .825 / .804).

    A pair whose half has no rating in some split (possible for pairs with few raters) is
    dropped from that split only; ``n_pairs`` in ``per_split`` says how many pairs were used.

    Returns ``(summary, per_split)``: ``summary`` is indexed by subset with columns ``r_mean``,
    ``split_half`` (SB of r_mean), ``kappa_mean``, ``kappa_sb``, ``n_pairs`` (in the subset)
    and ``n_splits``; ``per_split`` is a long table (subset, split, r, kappa, n_pairs) for
    plotting the distribution over splits. Normalisation before Pearson r is linear, so it does
    not change r; it is kept for fidelity to the method.
    """
    r = _as_array(ratings)
    halves = random_halves(r.shape[1], n_splits, seed)
    mean_a, mean_b = split_half_means(r, halves)
    rows, summary = [], {}
    for name, mask in subsets.items():
        mask = np.asarray(mask, dtype=bool)
        a, b = mean_a[:, mask], mean_b[:, mask]
        corr = rowwise_pearson(normalise(a), normalise(b))
        kappa = rowwise_weighted_kappa(np.ceil(a), np.ceil(b))
        used = (np.isfinite(a) & np.isfinite(b)).sum(axis=1)
        rows.append(
            pd.DataFrame(
                {
                    "subset": name,
                    "split": np.arange(n_splits),
                    "r": corr,
                    "kappa": kappa,
                    "n_pairs": used,
                }
            )
        )
        summary[name] = {
            "r_mean": corr.mean(),
            "split_half": float(spearman_brown(corr.mean())),
            "kappa_mean": kappa.mean(),
            "kappa_sb": float(spearman_brown(kappa.mean())),
            "n_pairs": int(mask.sum()),
            "n_splits": n_splits,
        }
    return pd.DataFrame(summary).T.rename_axis("subset"), pd.concat(rows, ignore_index=True)


def reliability_by_sample_size(ratings, subsets: dict, sizes, n_splits: int = 20, seed=0,
                               n_samples: int = 1) -> pd.DataFrame:
    """Split-half reliability when only ``m`` of the participants are kept, for each m in ``sizes``.

    An extension of §5.1: how many raters would STS3k have needed? For each size, ``n_samples``
    random subsets of ``m`` participants are drawn (one generator seeded with ``seed``, sizes in
    the given order) and :func:`split_half_reliability` is run on each (``n_splits`` splits).
    Every pair of each subset is kept; a pair left without a rating in one half of a split
    (frequent below ~100 participants, who give each pair about 4 ratings) cannot enter that
    split's correlation and is dropped from that split only: ``pairs_used`` is the mean share of
    the subset's pairs that entered. Returns one row per (size, sample, subset) with
    ``raters_per_pair`` (mean number of ratings per pair in the subsample, attention checks
    excluded), ``split_half``, ``kappa_sb`` and ``pairs_used``.
    """
    r = _as_array(ratings)
    rng = np.random.default_rng(seed)
    checks = check_mask(r)
    if n_samples < 1:
        raise ValueError(f"n_samples must be >= 1, got {n_samples}")
    rows = []
    for m in sizes:
        if not 2 <= m <= r.shape[1]:
            raise ValueError(f"sizes must lie in 2..{r.shape[1]}, got {m}")
        for sample_id in range(n_samples):
            keep = np.sort(rng.choice(r.shape[1], size=int(m), replace=False))
            sample = r[:, keep]
            summary, per_split = split_half_reliability(sample, subsets, n_splits=n_splits, seed=rng)
            per_pair = np.isfinite(sample[~checks]).sum(axis=1).mean()
            used = per_split.groupby("subset")["n_pairs"].mean()
            for name, row in summary.iterrows():
                rows.append({"participants": int(m), "sample": sample_id, "subset": name,
                             "raters_per_pair": float(per_pair),
                             "split_half": float(row["split_half"]), "kappa_sb": float(row["kappa_sb"]),
                             "pairs_used": float(used[name] / row["n_pairs"])})
    return pd.DataFrame(rows)


GROWTH_COLUMNS = ("raters_per_pair", "split_half", "kappa_sb", "pairs_used")
"""The columns of :func:`reliability_by_sample_size` that :func:`reliability_growth_summary`
averages over the participant samples."""


def reliability_growth_summary(growth: pd.DataFrame, quantiles: tuple[float, float] = (0.025, 0.975)
                               ) -> pd.DataFrame:
    """:func:`reliability_by_sample_size` summarised over the participant samples, one row per
    (participants, subset), sorted: the mean of each of :data:`GROWTH_COLUMNS`, and the
    ``quantiles`` of the samples' split-half reliability (§5.1's statistic; pandas' linear
    quantiles, by default the central 95% range), ``split_half_low`` and ``split_half_high``."""
    low, high = quantiles
    by_size = growth.groupby(["participants", "subset"], sort=True)
    summary = by_size[list(GROWTH_COLUMNS)].mean()
    summary["split_half_low"] = by_size["split_half"].quantile(low)
    summary["split_half_high"] = by_size["split_half"].quantile(high)
    return summary


def sample_size_reaching(summary: pd.DataFrame, sizes, bar: float = 0.9, subset: str = "all",
                         column: str = "split_half") -> float:
    """The smallest of ``sizes`` whose mean ``column`` of ``subset`` in ``summary``
    (:func:`reliability_growth_summary`) reaches ``bar``; NaN when none does. An extension of §5.1:
    how many participants the reliability needs."""
    reaching = [m for m in sorted(sizes) if summary.loc[(m, subset), column] >= bar]
    return float(reaching[0]) if reaching else float("nan")
