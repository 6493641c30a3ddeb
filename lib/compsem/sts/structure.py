"""Figure 8 (mean similarity by structural category), its MAD summary, and Figure 9 for models
(§5.4 "Analysing different sentence components").

Figure 8 pools the reconstructed pair labels (:func:`compsem.sts.pair_types.reconstruct_pair_types`)
into eight categories (:data:`FIGURE8_CATEGORIES`, those of the authors'
``Eval_STS3k_vs_models.ipynb``):

==========  =====================================================================
Modifiers   ONLY_MOD pairs with exactly 1 or 2 added modifiers (509 pairs)
Paraphrase  PARAPHRASE (71)
Single      AB_VERB + AB_SUBJ + AB_DOBJ, all modifier levels 0-3 (428)
Swap-2      SWAP_SUBJ_DOBJ + SWAP_DOBJ_VERB + SWAP_SUBJ_VERB, 0-3 modifiers (538)
Swap-3      TRIPLE (197)
Swap-4      QUAD (179)
Zero        ZERO (70)
Negative    NEGATIVE (71)
==========  =====================================================================

Order: the paper's §5.4 puts Negative "on the far right of the graph even though it involves
few structural changes", so it comes last, after Zero; the other categories keep the order of
the authors' notebook, which lists Negative before Zero.

For each series (human or a model) :func:`category_profile` gives the mean per category,
:func:`relative_profile` divides each series by its own Modifiers mean, and :func:`mad` is the
mean over the 8 categories of |model relative - human relative| (the Modifiers term is 0 by
construction but counts in the denominator of 8, as in the authors' notebook).

Check (published similarities of ``load_published_similarities`` and our labels): MAD Mean-CN
.3727, SentBERT .2904, OpenAI .3043, DefSent .2346, VerbNet-CN .1795: the authors' notebook
output to all four decimals. The QUAD modifier counts that the reconstruction may
get wrong (pair_types docstring) do not matter here: Swap-4 pools all modifier levels.

Error bars (the authors'): t(0.975, df)·SD/√n with ``df = n`` (not n - 1);
which SD the notebook used is not recorded: we use the sample SD (``ddof=1``); both choices
change the half-width by under 1% for n >= 70. :func:`category_intervals` gives percentile-bootstrap
bars instead (the chapter's figure), and :func:`within_category_spearman` the correlation with
people inside each category (an extension).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from compsem import stats as cstats
from compsem.stats import BOOTSTRAP_RESAMPLES
from compsem.sts.modifier_types import EXCLUDED_ROWS, modifier_groups

FIGURE8_CATEGORIES = (
    "Modifiers",
    "Paraphrase",
    "Single",
    "Swap-2",
    "Swap-3",
    "Swap-4",
    "Zero",
    "Negative",
)
"""The eight Figure 8 categories, in the paper's order: Negative "on the far right of the graph"
(§5.4), the others as the authors' notebook lists them."""

CATEGORY_CODES: dict[str, tuple[str, ...]] = {
    "Modifiers": ("ONLY_MOD",),
    "Paraphrase": ("PARAPHRASE",),
    "Single": ("AB_VERB", "AB_SUBJ", "AB_DOBJ"),
    "Swap-2": ("SWAP_SUBJ_DOBJ", "SWAP_DOBJ_VERB", "SWAP_SUBJ_VERB"),
    "Swap-3": ("TRIPLE",),
    "Swap-4": ("QUAD",),
    "Negative": ("NEGATIVE",),
    "Zero": ("ZERO",),
}
"""Internal category codes pooled into each Figure 8 category."""

MODIFIER_LEVELS = (1, 2)
"""Numbers of added modifiers kept in the Modifiers category."""


def figure8_category(labels: pd.DataFrame) -> pd.Series:
    """The Figure 8 category of each pair (``""`` = not in Figure 8), from a frame with columns
    ``category`` (internal code) and ``n_modifiers`` (as returned by ``reconstruct_pair_types``
    or by :func:`compsem.sts.generator.generate`)."""
    code = labels["category"].astype(str).to_numpy()
    n_mod = pd.to_numeric(labels["n_modifiers"], errors="coerce").to_numpy()
    out = np.full(len(labels), "", dtype=object)
    for name, codes in CATEGORY_CODES.items():
        mask = np.isin(code, codes)
        if name == "Modifiers":
            mask &= np.isin(n_mod, MODIFIER_LEVELS)
        out[mask] = name
    return pd.Series(out, index=labels.index, name="figure8")


def category_profile(similarity, labels: pd.DataFrame, ddof: int = 1) -> pd.DataFrame:
    """Mean similarity per Figure 8 category, with SD, n and the authors' 95% error bar.

    ``similarity``: one value per row of ``labels`` (array-like, same order). Returns a frame
    indexed by :data:`FIGURE8_CATEGORIES` (in order; a category without pairs gets n = 0 and NaN)
    with columns ``mean``, ``sd`` (``ddof``), ``n`` and ``ci95`` = t.ppf(0.975, n)·sd/√n
    (``df = n`` as in the authors' notebook, not n - 1). Pairs with NaN similarity are dropped.
    """
    values = np.asarray(similarity, dtype=float)
    if len(values) != len(labels):
        raise ValueError(f"{len(values)} similarities for {len(labels)} labelled pairs")
    category = figure8_category(labels).to_numpy()
    rows = {}
    for name in FIGURE8_CATEGORIES:
        v = values[(category == name) & ~np.isnan(values)]
        n = len(v)
        sd = float(v.std(ddof=ddof)) if n > ddof else np.nan
        rows[name] = {
            "mean": float(v.mean()) if n else np.nan,
            "sd": sd,
            "n": n,
            "ci95": float(stats.t.ppf(0.975, n) * sd / np.sqrt(n)) if n > ddof else np.nan,
        }
    table = pd.DataFrame(rows).T
    table["n"] = table["n"].astype(int)
    table.index.name = "category"
    return table


def _means(profile) -> pd.Series | pd.DataFrame:
    """The mean row(s) of a profile: a :func:`category_profile` frame -> its ``mean`` column;
    a Series (category -> mean) or a frame of series (rows) x categories (columns) as is."""
    if isinstance(profile, pd.DataFrame) and "mean" in profile.columns:
        return profile["mean"]
    return profile


def relative_profile(profile) -> pd.Series | pd.DataFrame:
    """Each series divided by its own Modifiers mean (Figure 8's normalisation).

    ``profile``: a :func:`category_profile` frame (-> a Series of relative means), a Series
    category -> mean, or a frame with one row per series and the categories as columns
    (-> the same frame, each row divided by its ``Modifiers`` entry)."""
    means = _means(profile)
    if isinstance(means, pd.Series):
        return means / means["Modifiers"]
    return means.div(means["Modifiers"], axis=0)


def mad(model_profile, human_profile) -> float:
    """Mean absolute deviation between the relative profiles of a model and of the humans over
    the 8 categories (Modifiers included, contributing 0): |model/model_Modifiers -
    human/human_Modifiers| averaged. Accepts what :func:`relative_profile` accepts (one series
    each)."""
    model = relative_profile(model_profile).reindex(list(FIGURE8_CATEGORIES))
    human = relative_profile(human_profile).reindex(list(FIGURE8_CATEGORIES))
    if model.isna().any() or human.isna().any():
        raise ValueError("a Figure 8 category has no pairs (NaN mean)")
    return float((model - human).abs().mean())


def figure8(series: dict[str, np.ndarray], labels: pd.DataFrame, human: str = "Human"):
    """Figure 8 for several series at once: returns ``(means, relative, mads)``: the frame of
    category means (rows: series, columns: categories), the same divided by each row's
    Modifiers, and a Series of MADs of every non-human series against ``series[human]``."""
    means = pd.DataFrame(
        {name: category_profile(v, labels)["mean"] for name, v in series.items()}
    ).T
    relative = relative_profile(means)
    mads = pd.Series(
        {name: mad(means.loc[name], means.loc[human]) for name in series if name != human},
        name="MAD",
    )
    return means, relative, mads


def modifier_profile(similarity, exclude=EXCLUDED_ROWS, ddof: int = 0) -> pd.DataFrame:
    """Figure 9 for any series (human or model): the ONLY_MOD pairs with exactly one added
    modifier, by modifier type (the authors' row lists, :mod:`compsem.sts.modifier_types`).

    Columns: ``n``; ``similarity`` (mean); ``reduction`` = 1 - mean (the paper's statistic; on
    the human series it equals ``modifier_types.reductions``); ``relative_similarity`` = mean /
    the series' pooled mean over all Figure 9 pairs, and ``relative_reduction`` = 1 - that;
    ``z`` = (mean of the 8 reductions - reduction) / SD of the 8 (``ddof``; the paper's z,
    positive = smaller reduction than average).

    Why the relative columns: model similarities live on different scales (Mean-CN gives .92 to
    one-modifier pairs, VerbNet-CN about .6), so the raw reduction mixes a model's overall level
    with its sensitivity to the modifier type. Dividing by the model's own pooled mean over the
    single-modifier pairs (the same idea as Figure 8's division by Modifiers) gives the type's
    effect relative to the average modifier: 0 = average, negative = a smaller drop than
    average (Passive for humans: -0.152). ``z`` is invariant to any affine rescaling of the series.
    """
    values = np.asarray(similarity, dtype=float)
    groups = modifier_groups(exclude)
    pooled = values[np.concatenate(list(groups.values()))].mean()
    table = pd.DataFrame(
        {
            "n": {k: len(v) for k, v in groups.items()},
            "similarity": {k: values[v].mean() for k, v in groups.items()},
        }
    )
    table["reduction"] = 1.0 - table["similarity"]
    table["relative_similarity"] = table["similarity"] / pooled
    table["relative_reduction"] = 1.0 - table["relative_similarity"]
    table["z"] = (table["reduction"].mean() - table["reduction"]) / table["reduction"].std(ddof=ddof)
    table.index.name = "modifier"
    table.attrs["pooled_similarity"] = float(pooled)
    return table


def category_intervals(similarity, labels: pd.DataFrame, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                       level: float = 0.95, relative: bool = True, clusters=None) -> pd.DataFrame:
    """Figure 8 with bootstrap error bars: per category the mean similarity and a percentile
    bootstrap interval over the category's pairs (:func:`compsem.stats.percentile_interval`,
    ``n_resamples`` drawn with ``seed``; with ``clusters``, over the clusters of the category's
    pairs that share a sentence, :func:`compsem.data.shared_sentences.sentence_clusters`).

    ``relative=True`` divides mean and bounds by the series' Modifiers mean (Figure 8's scale),
    treating that mean as fixed: the bars show the uncertainty of each category's own mean, not
    of the normalisation. Returns a frame indexed by :data:`FIGURE8_CATEGORIES` with ``mean``,
    ``ci_low``, ``ci_high``, ``n``. (The authors' bars are the t-interval of
    :func:`category_profile`; the bootstrap needs no normality.)
    """
    values = np.asarray(similarity, dtype=float)
    if len(values) != len(labels):
        raise ValueError(f"{len(values)} similarities for {len(labels)} labelled pairs")
    category = figure8_category(labels).to_numpy()
    rng = np.random.default_rng(seed)
    rows = {}
    for name in FIGURE8_CATEGORIES:
        keep = (category == name) & ~np.isnan(values)
        v = values[keep]
        if len(v) < 2:
            raise ValueError(f"Figure 8 category {name!r} has {len(v)} pairs; an interval needs 2")
        units = cstats.resampling_units(None if clusters is None else np.asarray(clusters)[keep], len(v))
        k = int(units.max()) + 1
        counts = cstats.resample_weights(rng.integers(0, k, size=(n_resamples, k)), units)
        low, high = cstats.percentile_interval(counts @ v / counts.sum(axis=1), level)
        rows[name] = {"mean": float(v.mean()), "ci_low": low, "ci_high": high, "n": len(v)}
    table = pd.DataFrame(rows).T
    table["n"] = table["n"].astype(int)
    if relative:
        scale = table.loc["Modifiers", "mean"]
        table[["mean", "ci_low", "ci_high"]] = table[["mean", "ci_low", "ci_high"]] / scale
    table.index.name = "category"
    return table


def within_category_spearman(series: dict[str, np.ndarray], human, labels: pd.DataFrame,
                             categories=FIGURE8_CATEGORIES, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                             level: float = 0.95, clusters=None) -> pd.DataFrame:
    """Extension: does a model rank the pairs *within* one kind of pair, or only the kinds?

    For every series and Figure 8 category, Spearman rho with ``human`` over the category's pairs
    and its bootstrap interval (:func:`compsem.stats.spearman_interval`, BCa, ``seed``; over
    ``clusters`` of pairs that share a sentence where given,
    :func:`compsem.data.shared_sentences.sentence_clusters`). A model
    that only separates pair types (e.g. by giving all swaps a low similarity) scores high on
    STS3k-adv as a whole but near 0 within a type. Returns a long frame: ``series``,
    ``category``, ``n``, ``rho``, ``ci_low``, ``ci_high`` (series and categories in input order).
    """
    from compsem.stats import spearman_interval

    category = figure8_category(labels).to_numpy()
    rows = []
    for name, values in series.items():
        for cat in categories:
            mask = category == cat
            rho, low, high = spearman_interval(values, human, mask=mask, n_resamples=n_resamples,
                                               seed=seed, level=level, clusters=clusters)
            rows.append({"series": name, "category": cat, "n": int(mask.sum()), "rho": rho,
                         "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)
