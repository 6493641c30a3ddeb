"""The regressors of §4.7 and §5.3 (Table 8, Figures 6 and 11) over seeds, and the intervals that
the claims on them are decided by.

The adversarial split is fixed, but an MLP's fit depends on its random initialisation
(``random_state``, 1 in the authors' code): a claim about what a feature set can learn is a
claim about every initialisation, so :func:`adversarial_over_seeds` fits each regressor with
several seeds and :func:`over_seeds` summarises them (mean, 95% t-interval, and the 90% interval
of an equivalence test, two one-sided tests at 5%). Those intervals hold the test pairs fixed;
:func:`pairs_and_seeds_intervals` adds the sampling of the test pairs (a bootstrap over pairs and
seeds), so that linear regression, which has no seed, gets an interval too. Where a claim fails if
*some* cell of a feature set lies outside its margin, a union of k equivalence tests (one per
regressor of the union, :mod:`compsem.sts.families`), both also give those cells their intervals
at Bonferroni's level ``1 - .10/k`` (``equivalence_families``: feature set -> the regressors whose
cells form its union, k their number); the other cells get none.

Figure 6 itself is a result over seeded splits, so its grid is here too: the sizes of the splits
(:func:`split_sizes`), the fits on the adversarial split and the seeded random splits
(:func:`figure6_grid`), their mean, SD and count per cell (:func:`figure6_summary`), the cells
compared with the paper (:func:`figure6_paper_cells`) and the VerbNet-CN minus MPNet gap over the
random splits (:func:`random_gap_values`); and so are the weight counts of Table 8
(:func:`table8_weights`) and Table 10 (:func:`table10_weights`) and Figure 11's cells
(:func:`no_pca_values`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from compsem import report
from compsem import stats as cstats
from compsem.sts import regressors as rg
from compsem.sts.families import UNION_FAMILIES


def split_overlap(fractions=rg.RANDOM_SPLIT_FRACTIONS) -> float:
    """n_test / n_train of random splits with the shares ``fractions`` (train, dev, test;
    :func:`compsem.sts.regressors.random_split`), the term by which the corrected resampled t of
    Nadeau & Bengio (2003) widens the variance of a mean over random splits of one set of pairs
    (:func:`t_interval`)."""
    train, _, test = rg.check_fractions(fractions)
    return test / train


RANDOM_SPLIT_OVERLAP = split_overlap()
""":func:`split_overlap` of §4.7's 70/15/15 split (420 test and 1,960 training pairs of 2,800)."""


def t_interval(mean: float, sd: float, n: int, level: float = 0.95,
               overlap: float = 0.0) -> tuple[float, float]:
    """Student-t interval of a mean over ``n`` seeds (random splits or MLP seeds) from its mean
    and sample SD: ``mean +- t_{1-(1-level)/2, n-1} * sd * sqrt(1/n + overlap)``. ``overlap`` is 0
    for seeds that draw independently (MLP seeds on one split); for random train/test splits of
    one set of pairs it is n_test / n_train (:data:`RANDOM_SPLIT_OVERLAP`): their training sets
    overlap, so the splits' values are correlated and sd²/n understates the variance of their
    mean, which the corrected resampled t of Nadeau & Bengio (2003, Machine Learning 52) takes as
    sd² (1/n + n_test/n_train)."""
    half = stats.t.ppf(1 - (1 - level) / 2, n - 1) * sd * np.sqrt(1 / n + overlap)
    return float(mean - half), float(mean + half)


def adversarial_over_seeds(features: dict, human, split, regressors: Sequence[str],
                           seeds: Sequence[int], n_jobs: int = 1) -> pd.DataFrame:
    """Test rho on the adversarial ``split`` of every feature set x regressor x MLP seed
    (:func:`compsem.sts.regressors.evaluate_grid` once per seed, column ``seed`` added)."""
    runs = [rg.evaluate_grid(features, human, split, list(regressors), seed=s,
                             split_name="adversarial", progress=False, n_jobs=n_jobs).assign(seed=s)
            for s in seeds]
    return pd.concat(runs, ignore_index=True)



def _levels(name: str, regressor: str, equivalence_families: dict[str, Sequence[str]]) -> dict[str, float]:
    """Key suffix -> level of the intervals of the cell (``name``, ``regressor``): ``ci`` (95%),
    ``ci90`` (the equivalence test's) and, where ``equivalence_families`` puts the cell in the union
    of the k equivalence tests of feature set ``name`` (its k regressors), ``bonf<k>_ci`` at
    Bonferroni's level ``1 - .10/k``."""
    levels = {"ci": 0.95, "ci90": cstats.EQUIVALENCE_LEVEL}
    members = equivalence_families.get(name, ())
    if regressor in members:  # one member: its level is the equivalence test's own
        levels[f"bonf{len(members)}_ci"] = cstats.bonferroni_level(len(members), 1 - cstats.EQUIVALENCE_LEVEL)
    return levels


def figure6_grid(features: Mapping[str, np.ndarray], human, splits: Mapping[str, dict],
                 regressors: Sequence[str], n_jobs: int = 1) -> pd.DataFrame:
    """The fits of Figure 6 (§4.7, §5.3): every feature set x regressor of Table 8
    (:func:`compsem.sts.regressors.evaluate_grid`, ``random_state=1``) on each split of ``splits``
    (name -> split, in its order: ``adversarial`` and the seeded random splits), one row per split
    and cell (column ``split``: the split's name) with ``split kind``, ``adversarial`` for the split
    named so and ``random`` for every other."""
    grids = [rg.evaluate_grid(features, human, split, regressors, split_name=name, progress=False,
                              n_jobs=n_jobs)
             for name, split in splits.items()]
    grid = pd.concat(grids, ignore_index=True)
    grid["split kind"] = np.where(grid["split"] == "adversarial", "adversarial", "random")
    return grid


GROUPED_MARGIN = 0.05
"""The equivalence margin of a random split by sentence against a random split by pair: half a
unit of the one decimal of §5.3's "around 0.7" for Figure 6's random split (the margin of the
claim verbnet-random-split-flat)."""


def grouped_split_values(pair_grid: pd.DataFrame, grouped_grid: pd.DataFrame, regressors: Sequence[str],
                         features: Sequence[str] = ("verbnet", "mpnet"), level: float = 0.90,
                         overlap: float = RANDOM_SPLIT_OVERLAP) -> tuple[pd.DataFrame, dict[str, float]]:
    """Random splits that keep the pairs of a sentence together (``grouped_grid``,
    :func:`compsem.sts.regressors.grouped_random_split`) against random splits by pair
    (``pair_grid``, the random splits of Figure 6), per feature set of ``features`` and regressor of
    ``regressors`` (not in the paper). Split ``i`` of each kind is matched with split ``i`` of the
    other (their seeds' order: both split functions draw from ``numpy.random.default_rng(seed)``,
    so matched test parts share more pairs than unmatched ones, a correlation the matched
    difference keeps); each difference grouped − by pair over the matched splits gets its
    mean and the corrected resampled t-interval at ``level`` (90%: an equivalence test's;
    :func:`t_interval` with ``overlap``, :func:`split_overlap` of the splits' shares), and, for the union of the
    ``k = len(features) * len(regressors)`` equivalence tests (the two sides of a cell counting
    once), the interval at Bonferroni's level ``1 - (1 - level) / k``.

    Returns ``(table, values)``: one row per cell (``by pair``, ``by sentence``, their mean test
    rho, ``difference``, ``low``, ``high``); ``values`` ``ft_grouped_<features>_<regressor>_mean``,
    ``ft_grouped_minus_pair_<features>_<regressor>`` with ``_ci90_low`` / ``_high`` and
    ``_bonf<k>_ci_low`` / ``_high`` (from two splits on: one split has no spread, and the claim
    that reads them needs two), ``ft_grouped_n_seeds`` and ``ft_grouped_margin``
    (:data:`GROUPED_MARGIN`). Cells that either grid lacks are skipped."""
    def by_split(grid):
        random_rows = grid[grid["split kind"] == "random"]
        return random_rows.pivot_table(index="split", columns=["features", "regressor"], values="rho_test", sort=False)

    pair, grouped = by_split(pair_grid), by_split(grouped_grid)
    if len(pair) != len(grouped):
        raise ValueError(f"{len(pair)} random splits by pair against {len(grouped)} by sentence: "
                         f"draw both kinds with the same seeds, so that split i matches split i")
    n = len(pair)
    cells = [(f, r) for f in features for r in regressors if (f, r) in pair.columns and (f, r) in grouped.columns]
    k = len(cells)
    tag = f"ci{round(100 * level)}"
    rows, values = [], {"ft_grouped_n_seeds": n, "ft_grouped_margin": GROUPED_MARGIN}
    for name, regressor in cells:
        difference = grouped[(name, regressor)].to_numpy() - pair[(name, regressor)].to_numpy()
        mean, sd = float(np.mean(difference)), float(np.std(difference, ddof=1)) if n > 1 else float("nan")
        low, high = t_interval(mean, sd, n, level, overlap=overlap)
        wide = t_interval(mean, sd, n, cstats.bonferroni_level(k, 1 - level), overlap=overlap)
        key = f"{report.slug(name)}_{regressor}"
        values |= {f"ft_grouped_{key}_mean": float(grouped[(name, regressor)].mean()),
                   f"ft_grouped_minus_pair_{key}": mean}
        if n > 1:
            values |= {f"ft_grouped_minus_pair_{key}_{tag}_low": low, f"ft_grouped_minus_pair_{key}_{tag}_high": high,
                       f"ft_grouped_minus_pair_{key}_bonf{k}_ci_low": wide[0],
                       f"ft_grouped_minus_pair_{key}_bonf{k}_ci_high": wide[1]}
        rows.append({"features": name, "regressor": regressor, "by pair": float(pair[(name, regressor)].mean()),
                     "by sentence": values[f"ft_grouped_{key}_mean"], "difference": mean, "low": low, "high": high})
    return pd.DataFrame(rows), values


def test_composition(pairs: pd.DataFrame, splits: Mapping[str, Mapping[str, np.ndarray]],
                     prefix: str) -> dict[str, float]:
    """What the test parts of ``splits`` hold, over the splits: ``<prefix>_test_min`` and
    ``_test_max`` (pairs), ``<prefix>_test_adv_share`` (mean share of adversarial pairs) and
    ``<prefix>_test_human_mean`` (mean human rating), so that two kinds of split can be compared
    for more than their sizes."""
    tests = [np.asarray(split["test"]) for split in splits.values()]
    adversarial = (pairs["portion"] == "adv").to_numpy()
    human = pairs["human"].to_numpy(dtype=float)
    return {f"{prefix}_test_min": min(len(t) for t in tests), f"{prefix}_test_max": max(len(t) for t in tests),
            f"{prefix}_test_adv_share": float(np.mean([adversarial[t].mean() for t in tests])),
            f"{prefix}_test_human_mean": float(np.mean([human[t].mean() for t in tests]))}


def split_sizes(splits: Mapping[str, Mapping[str, np.ndarray]]) -> tuple[pd.DataFrame, dict[str, int]]:
    """The sizes of the splits of Figure 6 (§4.7): ``(table, values)``, ``table`` one row per split
    of ``splits`` (name -> split, in its order) and one column per part (``train``, ``dev``,
    ``test``) holding its number of pairs; ``values`` the adversarial split's (``splits["adversarial"]``),
    ``adv_n_train`` and ``adv_n_test``."""
    table = pd.DataFrame({name: {part: len(idx) for part, idx in split.items()} for name, split in splits.items()}).T
    adversarial = splits["adversarial"]
    return table, {"adv_n_train": len(adversarial["train"]), "adv_n_test": len(adversarial["test"])}


def table8_weights() -> dict[str, int]:
    """Table 8 (§4.7): the weights (no biases, as the paper counts them;
    :func:`compsem.sts.regressors.n_weights`) of each regressor of
    :data:`compsem.sts.regressors.REGRESSORS` in its order on the 8 VerbNet-CN role similarities,
    ``n_weights_verbnet_<regressor>``."""
    return {f"n_weights_verbnet_{name}": rg.n_weights(name, 8) for name in rg.REGRESSORS}


def figure6_summary(grid: pd.DataFrame) -> pd.DataFrame:
    """Figure 6 per split kind, feature set and regressor (§5.3): the ``mean``, sample ``std``
    (ddof 1) and ``count`` of test rho over the splits of a kind in ``grid``
    (:func:`figure6_grid`), with the regressor's ``n_weights`` (Table 8); one row per cell in the
    order of ``grid``."""
    return grid.groupby(["split kind", "features", "regressor", "n_weights"], sort=False)["rho_test"].agg(
        ["mean", "std", "count"]).reset_index()


def figure6_paper_cells(summary: pd.DataFrame, targets: Mapping[str, dict]) -> dict[str, float]:
    """The mean test rho of each Figure 6 cell that has a paper value in ``targets`` (VerbNet-CN;
    MPNet, the paper's SentBERT checkpoint), under its key :data:`FIGURE6_KEY`
    (:func:`paper_key`), for the comparison with the paper; ``summary``: :func:`figure6_summary`."""
    values = {}
    for kind, name, regressor, mean in summary[["split kind", "features", "regressor", "mean"]].itertuples(
            index=False, name=None):
        key = paper_key(FIGURE6_KEY, name, regressor, kind)
        if key in targets:
            values[key] = float(mean)
    return values


FIGURE6_LARGEST = "nn3"
"""The largest regressor of Figure 6 and Table 8 (§4.7, §5.3: reg to nn3), to which the paper's
"as the number of parameters increases, the difference in correlation narrows" refers; nn4 and
nn5 are in the appendix only (Figure 11, Table 10)."""


def random_gap_values(grid: pd.DataFrame, regressors: Sequence[str],
                      largest: str = FIGURE6_LARGEST, overlap: float = RANDOM_SPLIT_OVERLAP) -> dict[str, float]:
    """VerbNet-CN minus MPNet (the paper's SentBERT checkpoint) on the random split (§5.3,
    Figure 6), per regressor: their difference of test rho on the same seeded split, its mean over
    the splits and 95% t-interval (:func:`t_interval`, corrected for the splits' overlapping
    training sets: ``overlap``, :func:`split_overlap` of the splits' shares), keys ``ft_random_gap_mpnet_<regressor>``;
    and how much that gap narrows from the smallest regressor of ``regressors`` (the first) to
    ``largest`` (:data:`FIGURE6_LARGEST`, whatever else runs; no narrowing when it did not run),
    ``ft_random_gap_narrowing_mpnet``. The gap of the smallest and the
    narrowing form the union of family ``few_parameters_gap`` (:mod:`compsem.sts.families`: the
    claim fails if either lies below 0), so they also get the t-interval at Bonferroni's level,
    ``_bonf<k>_ci_low|high``. Empty unless ``grid`` (:func:`figure6_grid`) has both feature sets
    and more than one random split."""
    random_grid = grid[grid["split kind"] == "random"].pivot_table(index=["split", "regressor"], columns="features",
                                                                     values="rho_test")
    if not {"verbnet", "mpnet"} <= set(random_grid.columns):
        return {}
    if random_grid.index.get_level_values("split").nunique() < 2:  # no spread over one split
        return {}
    gaps = (random_grid["verbnet"] - random_grid["mpnet"]).unstack("regressor")
    smallest = regressors[0]
    per_split = {f"ft_random_gap_mpnet_{r}": gaps[r] for r in regressors}
    if largest in regressors and largest != smallest:
        per_split["ft_random_gap_narrowing_mpnet"] = gaps[smallest] - gaps[largest]
    gap_family = UNION_FAMILIES["few_parameters_gap"]
    values: dict[str, float] = {}
    for key, gap in per_split.items():
        low, high = t_interval(gap.mean(), gap.std(), gap.count(), overlap=overlap)
        values[f"{key}_mean"] = float(gap.mean())
        values[f"{key}_ci_low"] = low
        values[f"{key}_ci_high"] = high
        if key in (f"ft_random_gap_mpnet_{smallest}", "ft_random_gap_narrowing_mpnet"):
            low, high = t_interval(gap.mean(), gap.std(), gap.count(),
                                   level=cstats.bonferroni_level(gap_family), overlap=overlap)
            values[f"{key}_bonf{gap_family}_ci_low"] = low
            values[f"{key}_bonf{gap_family}_ci_high"] = high
    return values


def figure6_cell_values(summary: pd.DataFrame, targets: Mapping[str, dict],
                        equivalence_families: dict[str, Sequence[str]] | None = None,
                        overlap: float = RANDOM_SPLIT_OVERLAP) -> dict[str, float]:
    """The glued values of the Figure 6 grid (§5.3) from ``summary``, one row per split kind
    (``adversarial`` or ``random``), feature set and regressor with the ``mean``, ``std`` and
    ``count`` of test rho over the seeded splits: an adversarial cell without a target,
    ``ft_adv_<features>_<regressor>`` (one fit on the fixed split); a random cell's
    ``ft_random_<features>_<regressor>_mean`` with its t-intervals over the splits, corrected for
    their overlapping training sets (:func:`t_interval` with ``overlap``, :func:`split_overlap` of the splits' shares; :func:`_levels`:
    ``_ci_*``, ``_ci90_*`` and, for a feature set of ``equivalence_families``, the Bonferroni
    interval of its union of equivalence tests, ``_bonf<k>_ci_*``); and the best regressor of each
    feature set on the random split, ``ft_random_best_<features>_mean`` and ``_ci_low|high``."""
    families = equivalence_families or {}
    values: dict[str, float] = {}
    cells = summary[["split kind", "features", "regressor", "mean", "std", "count"]]
    for kind, name, regressor, mean, sd, n in cells.itertuples(index=False, name=None):
        key = f"ft_{'adv' if kind == 'adversarial' else 'random'}_{report.slug(name)}_{regressor}"
        if kind == "adversarial" and key not in targets:  # the split is fixed: one fit, no interval
            values[key] = float(mean)
        elif kind == "random":
            values[f"{key}_mean"] = float(mean)
            if n > 1:
                for tag, level in _levels(name, regressor, families).items():
                    values[f"{key}_{tag}_low"], values[f"{key}_{tag}_high"] = t_interval(
                        mean, sd, n, level, overlap=overlap)
    best = cells[cells["split kind"] == "random"].sort_values("mean", kind="stable").groupby("features", sort=False).tail(1)
    for name, mean, sd, n in best[["features", "mean", "std", "count"]].itertuples(index=False, name=None):
        key = f"ft_random_best_{report.slug(name)}"
        values[f"{key}_mean"] = float(mean)
        if n > 1:
            values[f"{key}_ci_low"], values[f"{key}_ci_high"] = t_interval(mean, sd, n, overlap=overlap)
    return values


def over_seeds(runs: pd.DataFrame, prefix: str, equivalence_families: dict[str, Sequence[str]] | None = None
               ) -> tuple[pd.DataFrame, dict[str, float]]:
    """Per feature set and regressor, the mean test rho over the seeds of ``runs`` and its
    t-intervals: ``(table, values)`` with ``values`` holding
    ``<prefix>_<features>_<regressor>_mean``, ``_ci_low``/``_ci_high`` (95%),
    ``_ci90_low``/``_ci90_high`` and ``_collapsed``, the number of that cell's fits whose
    predictions were all equal (no rank correlation: left out of the cell's mean and interval),
    and ``<prefix>_collapsed``, their number over all cells. ``equivalence_families`` maps a
    feature set to the regressors whose cells form a union of k equivalence tests (k their
    number): those cells also get ``_bonf<k>_ci_low``/``_high``, the t-interval at Bonferroni's
    level ``1 - .10/k``. The table
    has the columns ``mean``, ``std``, ``count`` (the fits that entered the mean) and ``collapsed``.
    Linear regression has no seed: its interval has no width."""
    families = equivalence_families or {}
    grouped = runs.groupby(["features", "regressor"], sort=False)["rho_test"]
    table = grouped.agg(["mean", "std", "count"])
    table["collapsed"] = grouped.size() - table["count"]
    values: dict[str, float] = {}
    for (name, regressor), (mean, sd, n, collapsed) in table.iterrows():
        if n == 0:  # every seed collapsed: no rank correlation to report
            continue
        key = f"{prefix}_{report.slug(name)}_{regressor}"
        values[f"{key}_mean"] = float(mean)
        values[f"{key}_collapsed"] = int(collapsed)
        sd = 0.0 if regressor == "reg" else sd
        if n > 1:
            for tag, level in _levels(name, regressor, families).items():
                low, high = t_interval(mean, sd, n, level=level)
                values[f"{key}_{tag}_low"], values[f"{key}_{tag}_high"] = low, high
    values[f"{prefix}_collapsed"] = int(runs["rho_test"].isna().sum())
    return table, values


def pairs_and_seeds_intervals(features: dict, human, split, regressors: Sequence[str], seeds: Sequence[int],
                              prefix: str, n_resamples: int = cstats.BOOTSTRAP_RESAMPLES, seed: int = 0,
                              n_jobs: int = 1, equivalence_families: dict[str, Sequence[str]] | None = None,
                              clusters=None) -> tuple[pd.DataFrame, dict[str, float]]:
    """The mean test rho over MLP seeds (as :func:`over_seeds`) with a percentile bootstrap
    interval that resamples the test pairs as well as the seeds (not in the paper; §5.3 and
    Figure 6 give one fit per cell on one set of test pairs).

    The fits are those of :func:`adversarial_over_seeds` (read back from the fit cache where it
    ran first). Each of ``n_resamples`` resamples draws the test pairs with replacement (with
    ``clusters``, a label per pair of ``human``, the clusters of test pairs that share a
    sentence, :func:`compsem.data.shared_sentences.sentence_clusters`, each with all its test pairs) and,
    independently, the cell's seeds with replacement, and takes the mean over the drawn seeds of
    Spearman's rho on the drawn pairs (:func:`compsem.stats.spearman_of_resamples`, ties at
    :data:`compsem.stats.TIE_DECIMALS` decimals): a two-level bootstrap of a crossed design,
    every seed scoring every pair. For linear regression, which has no seed, it is the bootstrap
    over pairs of its one fit. A collapsed fit (all predictions equal) is left out, as in :func:`over_seeds`.
    The pairs of resample ``b`` are the same in every cell (``numpy.random.default_rng(seed)``).

    Returns ``(table, values)``: ``values`` holds ``<prefix>_<features>_<regressor>_ci_low`` /
    ``_ci_high`` (95%) and ``_ci90_low`` / ``_ci90_high`` (the interval of an equivalence test),
    and for a cell that ``equivalence_families`` puts in a union of k equivalence tests (feature
    set -> its k regressors in the union) ``_bonf<k>_ci_low`` / ``_bonf<k>_ci_high``, the percentile
    interval of the same resamples at Bonferroni's level ``1 - .10/k``; the table one row per cell
    with ``mean``, ``n_seeds`` and the bounds (NaN where a cell has no such interval)."""
    families = equivalence_families or {}
    y = np.asarray(human, dtype=float).ravel()
    test = np.asarray(split["test"], dtype=int)
    h = cstats.tie_values(y[test])
    units = cstats.resampling_units(None if clusters is None else np.asarray(clusters)[test], len(test))
    idx = np.random.default_rng(seed).integers(0, units.max() + 1, size=(n_resamples, units.max() + 1))
    seeded = [r for r in regressors if rg.REGRESSORS.get(r) is not None]  # reg: one fit, no seed
    fits = {}
    for i, s in enumerate(seeds):  # the first seed fits every regressor, later ones the seeded only
        fitted = regressors if i == 0 else seeded
        fits[s] = rg.grid_predictions(features, y, split, fitted, seed=s, n_jobs=n_jobs) if fitted else {}
    rows, values = [], {}
    for name in features:
        for regressor in regressors:
            levels = _levels(name, regressor, families)
            used = seeds[:1] if rg.REGRESSORS.get(regressor) is None else seeds  # reg: one fit, no seed
            preds = [fits[s][(name, regressor)][test] for s in used]
            preds = [cstats.tie_values(p) for p in preds if np.ptp(p) > 0]
            if not preds:
                continue
            rhos = np.stack([cstats.spearman_of_resamples(p, h, idx, units) for p in preds])  # seeds x resamples
            boot = cstats.resampled_unit_means(rhos, np.random.default_rng([seed, len(preds)]))
            row = {"features": name, "regressor": regressor, "n_seeds": len(preds),
                   "mean": float(np.mean([cstats.spearman(p, h) for p in preds]))}
            for tag, level in levels.items():
                row[f"{tag}_low"], row[f"{tag}_high"] = cstats.percentile_interval(boot, level)
            rows.append(row)
            key = f"{prefix}_{report.slug(name)}_{regressor}"
            values |= {f"{key}_{tag}_{bound}": row[f"{tag}_{bound}"] for tag in levels for bound in ("low", "high")}
    return pd.DataFrame(rows).set_index(["features", "regressor"]), values


# --------------------------------------------------------------------------- tables beside the paper

FIGURE6_KEY = "ft_{split}_{features}_{regressor}"
"""Target key of a Figure 6 cell (``split``: ``adv`` or ``random``; ``features``: the slug of our
feature set, ``mpnet`` standing for the paper's SentBERT checkpoint)."""
NO_PCA_KEY = "ft_nopca_adv_{features}_{regressor}"
"""Target key of a Figure 11 cell (adversarial split, all PCA components kept)."""
SPLIT_KEYS = {"adversarial": "adv", "random": "random"}
"""The split fragment of :data:`FIGURE6_KEY` by split kind."""
PAPER_NAMES = {"verbnet": "VerbNet-CN", "mpnet": "SentBERT"}
"""The paper's name of a feature set of ours, in the label of its paper row."""
PAPER_COLUMN = "paper"
"""The column (seed tables) holding the paper's value of a cell."""


def paper_key(template: str, features: str, regressor: str, kind: str = "adversarial") -> str:
    """The target key of one cell: ``template`` (:data:`FIGURE6_KEY`, :data:`NO_PCA_KEY`) filled
    with the split fragment of ``kind``, the slug of ``features`` and ``regressor``."""
    return template.format(split=SPLIT_KEYS[kind], features=report.slug(features), regressor=regressor)


def paper_value(targets: dict, key: str) -> float:
    """The paper's number under ``key`` in ``targets``, NaN where there is none."""
    return float(targets[key]["paper"]) if key in targets else float("nan")


def with_paper_rows(table: pd.DataFrame, targets: dict, template: str) -> pd.DataFrame:
    """``table`` (rows: feature sets, or (split kind, feature set); columns: regressors) with, beneath
    each row that has a paper value under ``template`` (:func:`paper_key`), a row
    ``paper (<the paper's name>)`` holding the paper's values (NaN where the paper has none)."""
    rows, index = [], []
    for label, row in table.iterrows():
        *outer, features = label if isinstance(label, tuple) else (label,)
        kind = outer[0] if outer else "adversarial"
        rows.append(row)
        index.append(label)
        paper = pd.Series({r: paper_value(targets, paper_key(template, features, r, kind)) for r in table.columns},
                          name=row.name)
        if paper.notna().any():
            rows.append(paper)
            index.append((*outer, f"paper ({PAPER_NAMES.get(features, features)})") if outer
                         else f"paper ({PAPER_NAMES.get(features, features)})")
    out = pd.DataFrame(rows, columns=table.columns)
    out.index = pd.MultiIndex.from_tuples(index, names=table.index.names) if table.index.nlevels > 1 else \
        pd.Index(index, name=table.index.name)
    return out


def with_paper_column(table: pd.DataFrame, targets: dict, template: str, kind: str = "adversarial") -> pd.DataFrame:
    """A seed table (rows: (feature set, regressor); :func:`over_seeds`, :func:`pairs_and_seeds_intervals`)
    with the column :data:`PAPER_COLUMN` right after ``mean``: the paper's value of the cell under
    ``template`` (:func:`paper_key`; one fit, ``random_state=1``), NaN where the paper has none."""
    paper = [paper_value(targets, paper_key(template, features, regressor, kind)) for features, regressor in table.index]
    out = table.copy()
    out.insert(list(out.columns).index("mean") + 1 if "mean" in out.columns else len(out.columns), PAPER_COLUMN, paper)
    return out


def figure6_table(summary: pd.DataFrame, regressors: Sequence[str], targets: dict) -> pd.DataFrame:
    """Figure 6 as a table: the mean test rho of ``summary`` (columns split kind, features, regressor,
    mean) by split kind and feature set (rows) and regressor (columns), with the paper's plotted
    values beneath VerbNet-CN and MPNet (the paper's SentBERT) (:func:`with_paper_rows`,
    :data:`FIGURE6_KEY`)."""
    table = summary.pivot_table(index=["split kind", "features"], columns="regressor", values="mean",
                                sort=False).reindex(columns=list(regressors))
    return with_paper_rows(table, targets, FIGURE6_KEY)


def no_pca_table(grid: pd.DataFrame, regressors: Sequence[str], targets: dict) -> pd.DataFrame:
    """Figure 11 as a table: the adversarial-split test rho of ``grid`` (one fit per feature set and
    regressor) with the paper's SentBERT values beneath MPNet (:data:`NO_PCA_KEY`)."""
    table = grid.pivot_table(index="features", columns="regressor", values="rho_test",
                             sort=False).reindex(columns=list(regressors))
    return with_paper_rows(table, targets, NO_PCA_KEY)


def no_pca_values(grid: pd.DataFrame, targets: Mapping[str, dict]) -> tuple[dict[str, float], dict[str, float]]:
    """Figure 11 (App. 8.3.1): the adversarial-split test rho of each cell of ``grid`` (one fit per
    feature set and regressor, all PCA components kept), keyed :data:`NO_PCA_KEY`
    (:func:`paper_key`), in the order of ``grid``: ``(compared, glued)``, ``compared`` the cells
    with a paper value in ``targets`` (MPNet, the paper's SentBERT), for the comparison with the
    paper, ``glued`` the others."""
    compared: dict[str, float] = {}
    glued: dict[str, float] = {}
    for name, regressor, rho in grid[["features", "regressor", "rho_test"]].itertuples(index=False, name=None):
        key = paper_key(NO_PCA_KEY, name, regressor)
        (compared if key in targets else glued)[key] = float(rho)
    return compared, glued


TABLE10_REGRESSORS = ("reg", "nn1", "nn3", "nn4")
"""The regressors of Table 10's SentBERT row (App. 8.3.1), as its parameter counts decode."""

TABLE10_VERBNET = tuple(f"n_weights_verbnet_nn{k}" for k in (2, 3, 4, 5))
"""VerbNet-CN's weight counts (:func:`table8_weights`) in Table 10 (nn2 to nn5)."""

WEIGHT_ERRATA = ("n_weights_verbnet_nn1", "n_weights_verbnet_nn2", "nn2_hidden_units_2", "n_weights_nopca_mpnet_nn3")
"""The targets whose printed value the chapter's errata of Tables 8 and 10 quote."""


def table10_weights(no_pca: Mapping[str, np.ndarray], targets: Mapping[str, dict]
                    ) -> tuple[dict[str, int], dict[str, float], pd.DataFrame]:
    """The weight counts of Table 10 (App. 8.3.1) and the errata of Tables 8 and 10 (weights only,
    :func:`compsem.sts.regressors.n_weights`): ``(compared, glued, table)``.

    ``compared``, for the comparison with the paper: MPNet's counts on all its no-PCA inputs
    (``no_pca["mpnet"]``, the paper's SentBERT; none where ``no_pca`` has no MPNet),
    ``n_weights_nopca_mpnet_<regressor>`` for :data:`TABLE10_REGRESSORS`, then
    ``nn2_hidden_units_2``, the second hidden layer of nn2 in the authors' code (Table 8 prints
    another). ``glued``: the paper's printed value of each of :data:`WEIGHT_ERRATA`,
    ``paper_<key>``; ``mean_cn_dims``, the width of a Mean-CN vector; and
    ``n_weights_nopca_mean_cn_reg``, linear regression's weights on two of them (which Table 10's
    Mean-CN row falls short of). ``table``: MPNet's counts, then VerbNet-CN's nn2 to nn5
    (:func:`table8_weights`, :data:`TABLE10_VERBNET`), beside the paper's
    (:func:`compsem.report.compare`, without its ``source`` column)."""
    mpnet: dict[str, int] = {}
    if "mpnet" in no_pca:
        for regressor in TABLE10_REGRESSORS:
            mpnet[f"n_weights_nopca_mpnet_{regressor}"] = rg.n_weights(regressor, no_pca["mpnet"].shape[1])
    compared = mpnet | {"nn2_hidden_units_2": rg.REGRESSORS["nn2"][1]}
    glued = {f"paper_{key}": targets[key]["paper"] for key in WEIGHT_ERRATA}
    glued["mean_cn_dims"] = rg.PUBLISHED_DIMS["mean"]
    glued["n_weights_nopca_mean_cn_reg"] = rg.n_weights("reg", 2 * rg.PUBLISHED_DIMS["mean"])
    table = report.compare(mpnet | table8_weights(), "sts3k", keys=list(mpnet) + list(TABLE10_VERBNET)).drop(
        columns="source")
    return compared, glued, table
