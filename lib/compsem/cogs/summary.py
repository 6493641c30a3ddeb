"""The summary of Kim (2021, Section 4.5) over runs: Table 4-5, Figure 4-1, the error analyses.

Pure functions over the frames of :mod:`compsem.cogs.seq2seq.results` (``collect``: one row per
run and quantity) and of :func:`compsem.cogs.evaluation.analyse` (one row per example), so that
the chapter re-implements no metric:

- :func:`run_level` -- per run: gen, lexical and structural means over the cases (Figure 4-1),
  dev and test;
- :func:`welch_difference` -- our mean over seeds minus the paper's mean over its 5 seeds, with
  Welch's interval from both SDs (the paper's from Figure 4-3);
- :func:`pooled_welch_difference` -- the same for a ratio pooled over the errors of all seeds
  (the paper's estimator of its error analyses, Section 4.5.3), our standard error the seeds'
  cluster standard error of a ratio (:func:`pooled_ratio_se`);
- :func:`table_4_5` -- Table 4-5 (and the Figure 4-1 means) laid out as in the paper, ours as
  mean +- SD (n) beside the paper's mean of 5 seeds, and our means by target key;
- :func:`findings_table` -- the same cells as the paper's mean against ours with a 95% seed
  interval, the table the chapter opens with;
- :func:`analyses` -- the Section 4.5.3-4.5.5 quantities of an analysed prediction frame, with
  Active -> Passive errors counted *per run* (the paper's 49 are summed over 5 runs);
- :func:`exact_and_semantic` -- exact and semantic (ReCOGS-style) gen match per run;
- :func:`active_passive_table` -- Active -> Passive errors per run and their structure.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from compsem.cogs import evaluation as ev
from compsem.stats import PROPORTION, seed_interval

PAPER_SEEDS = 5
"""Runs per configuration in the dissertation (Section 4.5.1: "5 random seeds")."""

MEANS = ("gen", "lexical", "structural")
PRINTED_HALF_DIGIT = 0.005
"""Half the last printed digit of Table 4-5, which prints two decimals: a printed .30 stands for
any mean in [.295, .305]; the Figure 4-1 means, averages of such cells, are as precise."""


def largest_seed_sd(printed: float, n: int = PAPER_SEEDS) -> float:
    """The largest (population) SD that ``n`` accuracies in [0, 1] can have when their mean is
    the printed value moved :data:`PRINTED_HALF_DIGIT` towards .5 (the least favourable mean the
    print allows): with ``k`` runs at 1, one at ``r`` and the rest at 0 (``n q = k + r``), the
    variance is ``(k + r**2) / n - q**2``. That is ``q (1 - q)`` when ``n q`` is whole, and
    ``q**2 (n - 1)`` when ``q < 1/n``: five runs that average .005 cannot spread more than one run
    at .025 and four at 0 (SD .01), far less than ``sqrt(q (1 - q))`` = .07 allows."""
    q = printed + min(max(0.5 - printed, -PRINTED_HALF_DIGIT), PRINTED_HALF_DIGIT)
    q = min(q, 1 - q)  # symmetric in q and 1 - q
    k = math.floor(n * q)
    r = n * q - k
    return math.sqrt(max((k + r * r) / n - q * q, 0.0))


def per_case_tolerance(printed: float, case_sd: float, n: int = PAPER_SEEDS) -> float:
    """The tolerance of a Table 4-5 cell (our mean of ``n`` seeds against the paper's mean of
    ``n``): 2 SD of the difference of two such means, ``2 s sqrt(1/n + 1/n)``, with ``s`` the
    assumed seed SD of a case (``case_sd``, the bound on the average per-case SD that the gen SD
    gives) or, where smaller, :func:`largest_seed_sd` of the printed value; floored at 5
    decimals, so that it is never wider than the rule."""
    s = min(case_sd, largest_seed_sd(printed, n))
    return math.floor(2 * s * math.sqrt(2 / n) * 1e5) / 1e5


def share_seed_sd(share: float, gen_sd: float, gen_mean: float) -> float:
    """The seed SD assumed for a share (a proportion in [0, 1]: a share of errors, of examples,
    an accuracy on a subset) that the paper prints without a spread over its seeds: the model's
    gen accuracy's seed SD carried to ``share`` on the bounded scale of a proportion,
    ``gen_sd * sqrt(share (1 - share)) / sqrt(gen_mean (1 - gen_mean))``. It equals ``gen_sd``
    at ``gen_mean`` (the Transformer's .06 at .35, Figure 4-3) and shrinks towards 0 and 1 as the
    spread of a proportion must, so a share near 1 is not given more room than the scale has
    (a share of .9 cannot vary as much as .2 of itself) and one near 0 not a band narrower than
    its own sampling allows, as a spread proportional to the share would."""
    if not (0.0 <= share <= 1.0 and 0.0 < gen_mean < 1.0):
        raise ValueError(f"share_seed_sd: a share in [0, 1] and a gen mean in (0, 1), got "
                         f"{share} and {gen_mean}")
    return gen_sd * math.sqrt(share * (1 - share)) / math.sqrt(gen_mean * (1 - gen_mean))


def relative_seed_sd(value: float, gen_sd: float, gen_mean: float) -> float:
    """The seed SD assumed for a quantity that is not a proportion (a mean edit distance, a mean
    output length) and that the paper prints without a spread: the gen accuracy's relative
    spread, ``value * gen_sd / gen_mean``."""
    return value * gen_sd / gen_mean


def two_means_tolerance(sd: float, n: int = PAPER_SEEDS, paper_n: int = PAPER_SEEDS) -> float:
    """The tolerance of a target that compares our mean of ``n`` seeds with the paper's mean of
    ``paper_n``: 2 SD of their difference, ``2 sd sqrt(1/n + 1/paper_n)``, ``sd`` the seed SD
    assumed on both sides; floored at 6 decimals, so that it is never wider than the rule."""
    return math.floor(2 * sd * math.sqrt(1 / n + 1 / paper_n) * 1e6) / 1e6


def target_key(model: str, exposures: int, quantity: str) -> str:
    """The target key of a Table 4-5 cell (a case or ``gen``) or a Figure 4-1 mean."""
    if quantity in (*ev.CASE_ORDER, "gen"):
        return f"cogs_t45_{model}_{exposures}_{quantity}"
    return f"cogs_fig41_{model}_{exposures}_{quantity}"


def run_level(collected: pd.DataFrame) -> pd.DataFrame:
    """Per run (model, exposures, seed): the gen, lexical and structural means over the cases
    present (:func:`compsem.cogs.evaluation.aggregate`, Figure 4-1), dev and test, how many of
    the 21 cases the run has (``n_cases``; a run missing some gets a gen mean over the others,
    with a warning) and the sizes of its decoding (``per_case``, ``per_split``: 0 for the whole
    sets, :func:`compsem.cogs.seq2seq.results.collect`)."""
    rows = []
    for (model, exposures, seed), part in collected.groupby(["model", "exposures", "seed"]):
        by = part.set_index("quantity")["accuracy"]
        cases = [c for c in ev.CASE_ORDER if c in by.index]
        if len(cases) < len(ev.CASE_ORDER):
            warnings.warn(f"{model}, {exposures} exposures, seed {seed}: {len(cases)} of the "
                          f"{len(ev.CASE_ORDER)} gen cases have results; its gen mean is over those",
                          stacklevel=2)
        agg = ev.aggregate(by.reindex(cases))
        sizes = {k: int(part[k].iloc[0]) if k in part else 0 for k in ("per_case", "per_split")}
        rows.append(
            {
                "model": model,
                "exposures": exposures,
                "seed": seed,
                **agg,
                "dev": by.get("dev", np.nan),
                "test": by.get("test", np.nan),
                "n_cases": len(cases),
                **sizes,
            }
        )
    columns = ["model", "exposures", "seed", *MEANS, "dev", "test", "n_cases", "per_case", "per_split"]
    return pd.DataFrame(rows, columns=columns)


def welch_difference(
    ours, paper_mean: float, paper_sd: float, paper_n: int = PAPER_SEEDS, level: float = 0.95
) -> tuple[float, float, float]:
    """Our mean over seeds minus the paper's, and Welch's interval for the difference
    (:func:`welch_half_width`)."""
    ours = np.asarray(ours, dtype=float)
    difference = float(ours.mean()) - paper_mean
    half = welch_half_width(float(ours.var(ddof=1)) / len(ours), len(ours), paper_sd, paper_n, level)
    return difference, difference - half, difference + half


def welch_half_width(ours_var: float, n_ours: int, paper_sd: float, paper_n: int = PAPER_SEEDS,
                     level: float = 0.95) -> float:
    """Half-width of Welch's ``level`` interval for the difference of two means: ``ours_var``
    the squared standard error of ours (``n_ours`` seeds), ``paper_sd`` the SD over the paper's
    ``paper_n`` seeds; degrees of freedom by Welch-Satterthwaite."""
    paper_var = paper_sd**2 / paper_n
    dof = _welch_dof(ours_var, n_ours, paper_var, paper_n)
    return float(stats.t.ppf(0.5 + level / 2, dof)) * math.sqrt(ours_var + paper_var)


def sd_ratio_interval(a, b, level: float = 0.95) -> tuple[float, float, float]:
    """``(ratio, low, high)``: the SD over the seeds of ``a`` over that of ``b`` (two independent
    sets of runs) and the ``level`` interval of the ratio of their population SDs from the F
    distribution of the ratio of sample variances (values assumed normal): the square roots of
    ``v / F((1 + level) / 2; n_a - 1, n_b - 1)`` and ``v / F((1 - level) / 2; ...)``, ``v`` the
    ratio of the sample variances. An upper bound below 1 says ``a`` varies less than ``b`` over
    seeds (Kim 2021, Section 5.2.5: glossing "also reduced the variance across random seeds").
    NaN throughout where a side has fewer than 2 values or no spread (a floor or a ceiling
    decides nothing)."""
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    nan = (float("nan"),) * 3
    if len(a) < 2 or len(b) < 2:
        return nan
    var_a, var_b = float(a.var(ddof=1)), float(b.var(ddof=1))
    if var_a == 0 or var_b == 0:
        return nan
    v = var_a / var_b
    upper_f, lower_f = stats.f.ppf([(1 + level) / 2, (1 - level) / 2], len(a) - 1, len(b) - 1)
    return math.sqrt(v), math.sqrt(v / upper_f), math.sqrt(v / lower_f)


def _ratio_parts(numerators, denominators) -> tuple[np.ndarray, np.ndarray]:
    """``numerators`` and ``denominators`` per seed as float arrays, checked: one value of each
    per seed, at least two seeds, finite, denominators not negative and not all zero."""
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if num.ndim != 1 or num.shape != den.shape:
        raise ValueError(f"one numerator and one denominator per seed: got shapes {num.shape} "
                         f"and {den.shape}")  # fmt: skip
    if len(num) < 2:
        raise ValueError(f"a standard error over seeds needs at least 2 seeds, got {len(num)}")
    if not (np.isfinite(num).all() and np.isfinite(den).all()):
        raise ValueError("numerators and denominators must be finite")
    if (den < 0).any() or den.sum() == 0:
        raise ValueError(f"denominators must be counts, not negative and not all 0: {den.tolist()}")
    return num, den


def pooled_ratio(numerators, denominators) -> float:
    """A ratio pooled over seeds, ``sum(numerators) / sum(denominators)``: each seed's count
    (errors not ending in ')', summed edit distances) over its units (its errors), the way the
    dissertation states its error analyses, over all the errors of its runs ("12% of all
    Transformer errors", Section 4.5.3), so a seed weighs by its number of errors."""
    num, den = _ratio_parts(numerators, denominators)
    return float(num.sum() / den.sum())


def pooled_ratio_se(numerators, denominators) -> float:
    """The standard error of :func:`pooled_ratio` over seeds, the seed a cluster of errors whose
    outcomes are correlated within a run: the linearised (delta-method) standard error of a
    ratio estimator, ``sqrt(n / (n - 1) * sum((num_i - R den_i)^2)) / sum(den_i)`` over the
    ``n`` seeds, ``R`` the pooled ratio (Cochran 1977, Sampling Techniques, Eq. 6.9, with the
    cluster-robust small-sample factor ``n / (n - 1)``: without it the variance is (n - 1)/n of
    the unbiased one, 20% low at 5 seeds, as a bootstrap over the seeds would be). Exact: no
    Monte Carlo. Where every seed has the same ratio it is 0."""
    num, den = _ratio_parts(numerators, denominators)
    n = len(num)
    ratio = num.sum() / den.sum()
    return float(math.sqrt(n / (n - 1) * float(((num - ratio * den) ** 2).sum())) / den.sum())


def pooled_interval(numerators, denominators, level: float = 0.95) -> tuple[float, float, float]:
    """``(ratio, low, high)``: the pooled ratio over seeds (:func:`pooled_ratio`) and its
    Student-t interval at ``level`` on ``n - 1`` degrees of freedom (``n`` seeds) with the
    cluster standard error :func:`pooled_ratio_se`."""
    ratio = pooled_ratio(numerators, denominators)
    half = float(stats.t.ppf((1 + level) / 2, len(np.asarray(numerators)) - 1)) * pooled_ratio_se(
        numerators, denominators)
    return ratio, ratio - half, ratio + half


def pooled_welch_difference(numerators, denominators, paper_value: float, paper_sd: float,
                            paper_n: int = PAPER_SEEDS, level: float = 0.95
                            ) -> tuple[float, float, float, float]:
    """``(difference, low, high, se)``: our ratio pooled over seeds (:func:`pooled_ratio`) minus
    the paper's pooled over its ``paper_n`` runs, with Welch's interval at ``level``
    (:func:`welch_half_width`), our standard error ``se`` the seeds' cluster standard error
    (:func:`pooled_ratio_se`) and the paper's ``paper_sd / sqrt(paper_n)``, ``paper_sd`` the SD
    assumed for one run's value: a ratio pooled over runs with similar numbers of errors varies
    about as the mean of their ratios. Degrees of freedom by Welch-Satterthwaite with
    ``len(numerators) - 1`` on our side. The interval of :func:`welch_difference` with the
    paper's estimator (Section 4.5.3) in place of the mean of per-seed ratios."""
    difference = pooled_ratio(numerators, denominators) - paper_value
    se = pooled_ratio_se(numerators, denominators)
    if se == 0 and paper_sd == 0:  # no spread on either side: the difference is exact
        return difference, difference, difference, se
    half = welch_half_width(se**2, len(np.asarray(numerators)), paper_sd, paper_n, level)
    return difference, difference - half, difference + half, se


def _welch_dof(ours_var: float, n_ours: int, paper_var: float, paper_n: int) -> float:
    """Welch-Satterthwaite degrees of freedom of two squared standard errors."""
    return (ours_var + paper_var) ** 2 / (ours_var**2 / (n_ours - 1) + paper_var**2 / (paper_n - 1))


def welch_p_value(ours, paper_mean: float, paper_sd: float, paper_n: int = PAPER_SEEDS) -> float:
    """The two-sided p-value of Welch's test of our mean over seeds against the paper's mean of
    ``paper_n`` seeds with SD ``paper_sd`` (the test whose interval is :func:`welch_difference`;
    :func:`scipy.stats.ttest_ind_from_stats` with unequal variances)."""
    ours = np.asarray(ours, dtype=float)
    difference = float(ours.mean()) - paper_mean
    if float(ours.var(ddof=1)) + paper_sd**2 == 0:  # no spread on either side: scipy gives NaN
        return 1.0 if difference == 0 else 0.0
    result = stats.ttest_ind_from_stats(float(ours.mean()), float(ours.std(ddof=1)), len(ours),
                                        paper_mean, paper_sd, paper_n, equal_var=False)
    return float(result.pvalue)


def case_sd_from_tolerance(tol: float, n: int = PAPER_SEEDS) -> float:
    """The seed SD a Table 4-5 cell's target assumes, read back from its tolerance
    ``2 s sqrt(2 / n)`` (:func:`per_case_tolerance`; Active -> Passive's Poisson SD likewise):
    the one place the chapter declares a case's SD is its targets file."""
    return tol / (2 * math.sqrt(2 / n))


def _values(collected, per_run, model, exposures, quantity) -> pd.Series:
    """The per-seed values of one cell (a case from ``collected``, a mean from ``per_run``)."""
    if quantity in ev.CASE_ORDER:
        part = collected[
            (collected.model == model)
            & (collected.exposures == exposures)
            & (collected.quantity == quantity)
        ]
        return part.set_index("seed")["accuracy"]
    part = per_run[(per_run.model == model) & (per_run.exposures == exposures)]
    return part.set_index("seed")[quantity]


def table_4_5(
    collected: pd.DataFrame,
    per_run: pd.DataFrame,
    models,
    exposures,
    paper: dict,
    labels: dict,
    pending: str = "pending (needs a GPU)",
) -> tuple[pd.DataFrame, dict[str, float]]:
    """Table 4-5 with the Figure 4-1 means: one row per case and mean, two columns (ours: mean
    +- SD over seeds and n; the paper's mean of 5 seeds) per model and exposures; and our means
    by target key (:func:`target_key`) for the cells that have runs."""
    cells, means = {}, {}
    for n_exposures in exposures:
        for model in models:
            column = (f"{n_exposures} exposure{'s' if n_exposures > 1 else ''}", labels[model])
            ours, theirs = {}, {}
            for quantity in [*ev.CASE_ORDER, *MEANS]:
                values = _values(collected, per_run, model, n_exposures, quantity)
                key = target_key(model, n_exposures, quantity)
                label = ev.CASE_LABELS.get(quantity, f"mean: {quantity}")
                theirs[label] = f"{paper[key]:.2f}" if key in paper else "–"
                if len(values):
                    means[key] = float(values.mean())
                    spread = f" ± {values.std(ddof=1):.2f}" if len(values) > 1 else ""
                    ours[label] = f"{values.mean():.2f}{spread} (n={len(values)})"
                else:
                    ours[label] = pending
            cells[(*column, "ours")] = ours
            cells[(*column, "paper")] = theirs
    table = pd.DataFrame(cells)
    table.columns = pd.MultiIndex.from_tuples(table.columns)
    return table, means


def findings_table(
    collected: pd.DataFrame, per_run: pd.DataFrame, model: str, exposures: int, paper: dict
) -> pd.DataFrame:
    """The cells of Table 4-5 (and the Figure 4-1 means) of one model and exposures: the paper's
    mean of 5 seeds, our mean, its 95% t-interval over our seeds (within [0, 1]), their number, and whether the
    paper's mean, as printed (plus or minus :data:`PRINTED_HALF_DIGIT`), meets our interval."""
    rows = {}
    for quantity in [*MEANS, *ev.CASE_ORDER]:
        values = _values(collected, per_run, model, exposures, quantity)
        key = target_key(model, exposures, quantity)
        if not len(values) or key not in paper:
            continue
        mean, low, high = seed_interval(values, bounds=PROPORTION)
        rows[ev.CASE_LABELS.get(quantity, f"mean: {quantity}")] = {
            "paper (mean of 5)": paper[key],
            "ours (mean)": mean,
            "ours 95% low": low,
            "ours 95% high": high,
            "seeds": len(values),
            "paper inside": (
                bool(low <= paper[key] + PRINTED_HALF_DIGIT and paper[key] - PRINTED_HALF_DIGIT <= high)
                if math.isfinite(low)
                else None
            ),
        }
    return pd.DataFrame(rows).T


def analyses(frame: pd.DataFrame) -> dict[str, float]:
    """The Section 4.5 quantities of an analysed prediction frame (all splits; a ``seed`` column
    when it pools runs): error shares (4.5.3, 4.5.5.1), depth errors (4.5.4), Active -> Passive
    errors per run and the share with another structure (4.5.5.2), accuracy at depths 3-5
    (Table 4-6), on long test outputs and the mean lengths of correct and incorrect test outputs
    (4.5.4)."""
    gen = frame[frame.split == "gen"]
    test = frame[frame.split == "test"]
    out = ev.error_summary(gen)
    out.update({f"depth: {k}": v for k, v in ev.depth_errors(gen).items()})
    out.update({f"active → passive: {k}": v for k, v in ev.active_passive_errors(gen).items()})
    runs = frame["seed"].nunique() if "seed" in frame else 1
    out["active → passive: errors"] = out["active → passive: errors"] / runs  # per run
    shallow = gen[gen.case.isin(ev.DEPTH_CASES) & (gen.depth <= 5)]
    out["depth 3-5 accuracy"] = float(shallow.exact.mean()) if len(shallow) else np.nan
    long = test[test.gold_len > 95]
    out["test accuracy, outputs > 95 tokens"] = float(long.exact.mean()) if len(long) else np.nan
    out["test: mean length of correct outputs"] = float(test[test.exact].gold_len.mean())
    out["test: mean length of incorrect outputs"] = float(test[~test.exact].gold_len.mean())
    return out


def exact_and_semantic(frame: pd.DataFrame) -> pd.DataFrame:
    """Per run (``seed``; one run when absent): exact and semantic match on gen (the mean over
    the cases, as Figure 4-1), on dev and test, and the semantic gain on gen."""
    frame = frame if "seed" in frame else frame.assign(seed=0)
    rows = []
    for seed, part in frame.groupby("seed"):
        gen = part[part.split == "gen"]
        row = {"seed": seed}
        for column in ("exact", "semantic"):
            row[f"gen {column}"] = ev.aggregate(ev.accuracy_by_case(gen[column], gen.case))["gen"]
            for split in ("dev", "test"):
                values = part.loc[part.split == split, column]
                row[f"{split} {column}"] = float(values.mean()) if len(values) else np.nan
        row["gen semantic − exact"] = row["gen semantic"] - row["gen exact"]
        rows.append(row)
    return pd.DataFrame(rows).set_index("seed")


def active_passive_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Active -> Passive errors of each run (``seed``): how many, how many keep the target's
    structure (and of those, single lexical errors), how many do not (Section 4.5.5.2)."""
    frame = frame if "seed" in frame else frame.assign(seed=0)
    rows = []
    for seed, part in frame.groupby("seed"):
        errors = part[(part.split == "gen") & (part.case == "active_to_passive") & ~part.exact]
        rows.append(
            {
                "seed": seed,
                "errors": len(errors),
                "same structure": int(errors.structure.sum()),
                "of which single lexical": int(errors.single_lexical.sum()),
                "different structure": int((~errors.structure).sum()),
            }
        )
    return pd.DataFrame(rows).set_index("seed")
