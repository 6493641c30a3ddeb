"""Bootstrap intervals for the contrasts the STS3k claims are decided on (Figure 8, §5.4).

The paper reads Figure 8 and its extensions through differences of category means and of
correlations; the claims ledger (``data/claims/sts3k.yaml``) decides each by an interval. These
helpers resample the pairs of every Figure 8 category independently, with the **same** resampled
pairs for every series, so a contrast between two series (people and a model, two models) is a
paired comparison. Given ``clusters`` (a label per pair, :func:`compsem.data.shared_sentences.sentence_clusters`)
they resample the clusters of pairs that share a sentence, each with all its pairs, stratified
by the categories a cluster holds (:func:`compsem.stats.stratified_draws`): a cluster with pairs
in two categories enters both together, so a contrast between categories keeps what they share.

- :func:`relative_mean_draws`: bootstrap draws of each series' Figure 8 profile (category means
  divided by the series' own Modifiers mean, as :func:`compsem.sts.structure.relative_profile`).
- :func:`weighted_within_draws`: bootstrap draws of the within-category Spearman rho with
  people, averaged over the categories weighted by their numbers of pairs (the chapter's
  "ranking pairs or ranking types?" extension).
- :func:`interval`: percentile interval and point value of a contrast from such draws, and the
  interval at Bonferroni's level where the contrast is one of a union of k tests
  (:mod:`compsem.sts.families`).
- :func:`figure8_contrasts`, :func:`mad_gaps` and :func:`within_gaps`: the chapter's contrasts
  from those draws, under their glue keys (:func:`mad_values`: Figure 8's MAD in every draw).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from compsem.report import slug
from compsem.stats import (
    BOOTSTRAP_RESAMPLES,
    bonferroni_level,
    percentile_interval,
    resample_weights,
    resampling_units,
    stratified_draws,
)
from compsem.sts.structure import FIGURE8_CATEGORIES, figure8_category


def _category_indices(labels: pd.DataFrame, categories: Sequence[str]) -> dict[str, np.ndarray]:
    category = figure8_category(labels).to_numpy()
    out = {name: np.flatnonzero(category == name) for name in categories}
    for name, rows in out.items():
        if len(rows) < 2:
            raise ValueError(f"Figure 8 category {name!r} has {len(rows)} pairs; an interval needs 2")
    return out


def _resamples(rows: Mapping[str, np.ndarray], n_resamples: int, seed: int,
               clusters=None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The resampling units of the pairs of every category drawn once, with replacement,
    stratified by the categories a unit holds (:func:`compsem.stats.stratified_draws`; every pair
    its own unit without ``clusters``: each category's pairs resampled independently): category
    -> ``(draws, units)``, ``draws`` (n_resamples, k) the drawn units, the same for every
    category, and ``units`` the unit of each of the category's rows."""
    names = list(rows)
    items = np.concatenate([rows[name] for name in names])
    category = np.repeat(np.arange(len(names)), [len(rows[name]) for name in names])
    units = resampling_units(None if clusters is None else np.asarray(clusters)[items], len(items))
    draws = stratified_draws(units, category, n_resamples, np.random.default_rng(seed))
    return {name: (draws, units[category == i]) for i, name in enumerate(names)}


def relative_mean_draws(series: Mapping[str, np.ndarray], labels: pd.DataFrame, n_resamples: int = BOOTSTRAP_RESAMPLES,
                        seed: int = 0, clusters=None) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Figure 8 profiles and their bootstrap draws.

    Returns ``(point, draws)``: ``point`` has one row per series and one column per Figure 8
    category (category mean / the series' Modifiers mean); ``draws[name]`` is a frame of
    ``n_resamples`` rows with the same columns, every category's pairs resampled with replacement
    (the Modifiers mean too, so the normalisation's uncertainty is in the draws), the same
    resampled pairs for every series.
    """
    categories = list(FIGURE8_CATEGORIES)
    rows = _category_indices(labels, categories)
    picks = _resamples(rows, n_resamples, seed, clusters)
    counts = {c: resample_weights(*picks[c]) for c in categories}  # how often each pair is drawn
    point, draws = {}, {}
    for name, values in series.items():
        v = np.asarray(values, dtype=float)
        if len(v) != len(labels):
            raise ValueError(f"{name}: {len(v)} similarities for {len(labels)} labelled pairs")
        means = {c: v[rows[c]].mean() for c in categories}
        point[name] = {c: means[c] / means["Modifiers"] for c in categories}
        boot = {c: counts[c] @ v[rows[c]] / counts[c].sum(axis=1) for c in categories}
        draws[name] = pd.DataFrame({c: boot[c] / boot["Modifiers"] for c in categories})
    return pd.DataFrame(point).T[categories], draws


def weighted_within_draws(series: Mapping[str, np.ndarray], human, labels: pd.DataFrame,
                          n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                          categories: Sequence[str] = FIGURE8_CATEGORIES, clusters=None) -> tuple[pd.Series, pd.DataFrame]:
    """Within-category Spearman rho with people, weighted by the categories' numbers of pairs.

    Returns ``(point, draws)``: ``point`` maps each series to its weighted mean rho (as the
    chapter's extension computes it); ``draws`` has one column per series and ``n_resamples``
    rows, each category's pairs resampled with replacement, the same pairs for every series (so
    the difference of two columns is a paired comparison). Ties are read at
    :data:`compsem.stats.TIE_DECIMALS` decimals in the draws as in the point value
    (:func:`compsem.stats.tie_values`); a category whose resample is constant has no rho, and
    that draw averages the other categories, their weights renormalised.
    """
    from compsem.stats import spearman, spearman_of_resamples, tie_values

    h = tie_values(human)
    rows = _category_indices(labels, list(categories))
    picks = _resamples(rows, n_resamples, seed, clusters)
    weights = np.array([len(rows[c]) for c in categories], dtype=float)
    weights /= weights.sum()
    point, draws = {}, {}
    for name, values in series.items():
        v = tie_values(values)
        point[name] = float(sum(w * spearman(v[rows[c]], h[rows[c]])
                                for w, c in zip(weights, categories, strict=True)))
        rhos = np.array([spearman_of_resamples(v[rows[c]], h[rows[c]], *picks[c]) for c in categories])
        defined = np.isfinite(rhos)
        weight = weights[:, None] * defined
        with np.errstate(invalid="ignore", divide="ignore"):  # no category defined: NaN
            draws[name] = (np.where(defined, rhos, 0.0) * weight).sum(axis=0) / weight.sum(axis=0)
    return pd.Series(point), pd.DataFrame(draws)


def interval(point: float, draws, level: float = 0.95, family: int = 1) -> dict[str, float]:
    """``{"value", "ci_low", "ci_high"}``: the point value and the percentile interval of draws at
    ``level``. With ``family`` = k > 1 (the contrast's test is one of a union of k tests,
    :mod:`compsem.sts.families`), also ``bonf<k>_ci_low`` and ``bonf<k>_ci_high``: the percentile
    interval of the same draws at Bonferroni's level ``1 - (1 - level) / k``
    (:func:`compsem.stats.bonferroni_level`), which contains the first."""
    low, high = percentile_interval(draws, level)
    out = {"value": float(point), "ci_low": low, "ci_high": high}
    if family > 1:
        low, high = percentile_interval(draws, bonferroni_level(family, 1 - level))
        out |= {f"bonf{family}_ci_low": low, f"bonf{family}_ci_high": high}
    return out


HUMAN_STEPS = (("Single", "Swap-2"), ("Swap-2", "Swap-3"), ("Swap-3", "Swap-4"))
"""The steps of Figure 8 along which the paper reads people's similarity falling the more
elements move (§5.4)."""


def figure8_contrasts(point: pd.DataFrame, draws: Mapping[str, pd.DataFrame], models: Sequence[str],
                      human: str = "Human", level: float = 0.95, step_family: int = 1,
                      fall_family: int = 1) -> dict[str, dict[str, float]]:
    """The paper's two readings of Figure 8 (§5.4) as contrasts with percentile intervals, from
    :func:`relative_mean_draws`: for people each step of :data:`HUMAN_STEPS`
    (``fig8_human_step_<upper>_<lower>``: the upper category's relative mean minus the lower's),
    and for each of ``models`` how much more people's profile falls from Single to Swap-4 than the
    model's (``fig8_fall_gap_<model>``; positive: the model is less sensitive to the swaps).
    Values are :func:`interval` dicts at ``level``; ``step_family`` and ``fall_family`` are the
    sizes k of the unions the steps and the fall gaps enter (families ``human_steps`` and
    ``fall_gaps`` of :data:`compsem.sts.families.UNION_FAMILIES`), whose Bonferroni intervals
    :func:`interval` adds."""
    human_point, human_draws = point.loc[human], draws[human]
    contrasts = {}
    for upper, lower in HUMAN_STEPS:
        contrasts[f"fig8_human_step_{slug(upper)}_{slug(lower)}"] = interval(
            human_point[upper] - human_point[lower], human_draws[upper] - human_draws[lower], level, step_family)
    human_fall = human_draws["Single"] - human_draws["Swap-4"]
    for name in models:
        model_point, model_draws = point.loc[name], draws[name]
        contrasts[f"fig8_fall_gap_{slug(name)}"] = interval(
            (human_point["Single"] - human_point["Swap-4"]) - (model_point["Single"] - model_point["Swap-4"]),
            human_fall - (model_draws["Single"] - model_draws["Swap-4"]), level, fall_family)
    return contrasts


def mad_values(point: pd.DataFrame, draws: Mapping[str, pd.DataFrame], models: Sequence[str],
               human: str = "Human") -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """Figure 8's MAD summary (§5.4) at the point and in every bootstrap draw of
    :func:`relative_mean_draws`: the mean over the eight categories of |model's relative mean -
    people's| (:func:`compsem.sts.structure.mad`; the point value equals it). Returns
    ``(point_mads, draw_mads)``, by model."""
    categories = list(FIGURE8_CATEGORIES)
    point_mads = {name: float((point.loc[name, categories] - point.loc[human, categories]).abs().mean())
                  for name in models}
    draw_mads = {name: (draws[name][categories] - draws[human][categories]).abs().mean(axis=1).to_numpy()
                 for name in models}
    return point_mads, draw_mads


def mad_gaps(point: pd.DataFrame, draws: Mapping[str, pd.DataFrame], candidates: Sequence[str],
             rivals: Sequence[str], human: str = "Human", level: float = 0.95,
             family: int = 1) -> dict[str, dict[str, float]]:
    """§5.4's MAD reading of Figure 8 as paired contrasts: each candidate's MAD from people minus
    each rival's (:func:`mad_values`), with the percentile interval over the same resampled pairs
    (every category's pairs resampled, the Modifiers normalisation included, the same pairs for
    every series): ``fig8_mad_gap_<candidate>_minus_<rival>`` -> :func:`interval` dict at ``level``,
    with the Bonferroni interval of a union of ``family`` tests (family ``mad_gaps`` of
    :data:`compsem.sts.families.UNION_FAMILIES`) (negative: the candidate's profile is nearer
    people's than the rival's)."""
    point_mads, draw_mads = mad_values(point, draws, [*candidates, *rivals], human)
    return {f"fig8_mad_gap_{slug(candidate)}_minus_{slug(rival)}":
            interval(point_mads[candidate] - point_mads[rival], draw_mads[candidate] - draw_mads[rival],
                     level, family)
            for candidate in candidates for rival in rivals}


def within_gaps(point: pd.Series, draws: pd.DataFrame, hybrids: Sequence[str], rivals: Sequence[str],
                level: float = 0.95, family: int = 1) -> dict[str, dict[str, float]]:
    """Each hybrid (§4.6) minus each rival in the weighted within-category rho of
    :func:`weighted_within_draws`, a paired contrast with its percentile interval at ``level``
    and the Bonferroni interval of a union of ``family`` tests (family ``within_gaps`` of
    :data:`compsem.sts.families.UNION_FAMILIES`): ``within_gap_<hybrid>_minus_<rival>`` ->
    :func:`interval` dict."""
    return {f"within_gap_{slug(hybrid)}_minus_{slug(rival)}": interval(point[hybrid] - point[rival],
                                                                      draws[hybrid] - draws[rival], level, family)
            for hybrid in hybrids for rival in rivals}
