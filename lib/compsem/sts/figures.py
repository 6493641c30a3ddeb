"""The figures of the STS3k chapters (``sts3k-data``, ``sts3k-models``, ``sts3k-finetune``,
``sts3k-hybrid``), one function each, in the book's theme (:mod:`compsem.plotting`).

Each takes what its chapter has already computed (no statistic is computed here, except the
means, SDs and percentile bands that seaborn draws from raw rows) and returns the figure; the
chapter cell shows it under its caption. The paper's values are :data:`compsem.plotting.PAPER`
markers (crosses, or the shape the caption names).
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from compsem import stats as cstats
from compsem.plotting import PALETTE, interval_dots, paper_marks
from compsem.sts import pair_types as pt
from compsem.sts import regressors as rg
from compsem.sts import seed_grids

ZERO = {"color": "black", "lw": 0.8}
"""The zero line of a correlation axis."""


# --------------------------------------------------------------------------- sts3k-data


def ratings_histogram(means, shuffled_means, ks: dict):
    """Paper Figure 2: histograms of the normalised mean similarity per pair, observed and after
    shuffling every participant's ratings; the title gives the two-sample KS test ``ks``
    (``statistic``, ``log10_pvalue``)."""
    long = pd.concat(
        [
            pd.DataFrame({"mean": np.asarray(means), "ratings": "STS3k pairs"}),
            pd.DataFrame(
                {"mean": np.asarray(shuffled_means), "ratings": "ratings shuffled within participants"}
            ),
        ],
        ignore_index=True,
    )
    fig, ax = plt.subplots()
    sns.histplot(data=long, x="mean", hue="ratings", bins=np.linspace(0, 1, 41), element="step",
                 alpha=0.35, ax=ax)  # fmt: skip
    sns.move_legend(ax, "upper left", title=None)
    ax.set(
        xlabel="normalised mean similarity",
        ylabel="pairs",
        title=f"Figure 2: KS D = {ks['statistic']:.3f}, log10 p = {ks['log10_pvalue']:.1f}",
    )
    return fig


def split_half_paper(targets: Mapping) -> pd.DataFrame:
    """The paper's split-half reliability and weighted kappa, Spearman-Brown corrected (§5.1),
    from ``targets`` ``split_half_<subset>`` and ``kappa_<subset>``: index the subsets all, non,
    adv; columns ``r`` and ``kappa``, the ``per_split`` columns they correct (the ``paper`` of
    :func:`split_half_histograms`)."""
    subsets = ["all", "non", "adv"]
    return pd.DataFrame(
        {column: [targets[f"{key}_{name}"]["paper"] for name in subsets]
         for column, key in (("r", "split_half"), ("kappa", "kappa"))},
        index=subsets,
    )  # fmt: skip


def split_half_histograms(per_split: pd.DataFrame, n_splits: int, paper: pd.DataFrame | None = None):
    """Histograms over random splits of the raters of the Pearson r (left) and weighted kappa
    (right) between the two halves, per subset (``per_split``: columns subset, r, kappa).

    ``paper`` (index subset, columns r and kappa, e.g. :func:`split_half_paper`): the paper's
    Spearman-Brown corrected means over splits, drawn as crosses at the uncorrected mean they
    imply, ``rho / (2 - rho)`` (the inverse of :func:`compsem.sts.ratings.spearman_brown`, which
    §5.1 applies to the mean over splits), each at the height of its subset's tallest bin; None
    draws none."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for ax, column, label in zip(
        axes, ["r", "kappa"], ["Pearson r between halves", "weighted kappa between halves"],
        strict=True,
    ):  # fmt: skip
        sns.histplot(data=per_split, x=column, hue="subset", bins=20, element="step", alpha=0.3,
                     ax=ax)  # fmt: skip
        ax.set(xlabel=label, ylabel="splits")
        if paper is not None:
            edges = np.histogram_bin_edges(per_split[column], bins=20)  # seaborn's common bins
            subsets = [s for s in paper.index if (per_split["subset"] == s).any()]
            heights = [np.histogram(per_split.loc[per_split["subset"] == s, column], edges)[0].max()
                       for s in subsets]  # fmt: skip
            rho = paper.loc[subsets, column].to_numpy(dtype=float)
            paper_marks(ax, rho / (2.0 - rho), heights)
    axes[1].get_legend().remove()
    fig.suptitle(
        f"Agreement between random halves of the raters ({n_splits} splits, before Spearman–Brown)"
    )
    return fig


def pair_type_paper_means(targets: Mapping) -> pd.Series:
    """The paper's mean human similarity of groups of pairs within each Table 7 type (the
    authors' notebook output, §5.4; Table 7 itself prints counts only), indexed by type, one
    value per group: the type x modifier cells ``type_mean_<category>_<k>``
    (:func:`compsem.sts.pair_types.published_cells`, the category's type by
    :data:`~compsem.sts.pair_types.CATEGORY_TYPE`) and the Added modifiers means
    ``only_mod_similarity_<k>`` (the ``paper`` of :func:`pair_type_boxes`)."""
    cells = pt.published_cells(targets)
    types = [pt.CATEGORY_TYPE[category] for category, _ in cells.index]
    only_mod = [target["paper"] for key, target in targets.items()
                if key.startswith("only_mod_similarity_")]  # fmt: skip
    return pd.Series([*cells.to_numpy(), *only_mod],
                     index=[*types, *[pt.CATEGORY_TYPE["ONLY_MOD"]] * len(only_mod)], name="paper")


def pair_type_boxes(types, human, order, paper: pd.Series | None = None):
    """Box plot of the human similarity per reconstructed pair type (boxes: quartiles, whiskers:
    1.5 IQR, no outliers drawn), types in ``order``. ``paper`` (type -> value, a type repeated
    once per value, e.g. :func:`pair_type_paper_means`): the paper's means, drawn as crosses on
    their type's box; None draws none."""
    frame = pd.DataFrame({"type": types, "human": human})
    order = list(order)
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.boxplot([frame.loc[frame["type"] == t, "human"] for t in order], tick_labels=order,
               showfliers=False)  # fmt: skip
    if paper is not None:
        marked = paper[paper.index.isin(order)]
        paper_marks(ax, [order.index(t) + 1 for t in marked.index], marked)  # boxes at 1..n
    plt.setp(ax.get_xticklabels(), rotation=60, ha="right")
    ax.set(xlabel="", ylabel="normalised human similarity",
           title="Human similarity by reconstructed pair type")  # fmt: skip
    return fig


def modifier_reductions(figure9: pd.DataFrame, paper, pooled_mean: float):
    """Paper Figure 9: reduction in similarity per added-modifier type (``figure9``: columns
    reduction, sd, n; bars with the Student-t 95% interval of the mean,
    :func:`compsem.sts.seed_grids.t_interval`, since a type holds as few as 11 pairs), the paper's
    values as black dashes and the pooled mean as a dashed line."""
    fig, ax = plt.subplots()
    half = [seed_grids.t_interval(mean, sd, n)[1] - mean
            for mean, sd, n in zip(figure9["reduction"], figure9["sd"], figure9["n"], strict=True)]
    x = np.arange(len(figure9))
    ax.bar(x, figure9["reduction"], yerr=half, capsize=3, label="ours (95% CI)")
    paper_marks(ax, x, paper, marker="_", s=300)
    ax.axhline(pooled_mean, ls="--", color="grey", label="pooled mean")
    ax.set_xticks(x, figure9.index, rotation=30)
    ax.set(ylabel="reduction in similarity (1 - mean)", title="Figure 9: one added modifier, by type")
    ax.legend()
    return fig


def reliability_growth(growth: pd.DataFrame, paper: pd.DataFrame, participants: int):
    """Split-half reliability and weighted kappa (Spearman-Brown) against the number of
    participants kept: the mean over samples with the 95% percentile band over samples (seaborn
    ``lineplot``, ``errorbar=("pi", 95)``), per subset; the paper's values (``paper``: columns
    ``r`` and ``kappa``, one row per subset, :func:`split_half_paper`) as crosses at
    ``participants``."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharex=True)
    for ax, column, paper_column, label in zip(
        axes, ["split_half", "kappa_sb"], ["r", "kappa"],
        ["split-half reliability (Spearman–Brown)", "weighted kappa (Spearman–Brown)"], strict=True,
    ):  # fmt: skip
        sns.lineplot(data=growth, x="participants", y=column, hue="subset", marker="o",
                     markeredgecolor=None, errorbar=("pi", 95), err_kws={"alpha": 0.25, "lw": 0},
                     ax=ax)  # fmt: skip
        paper_marks(ax, [participants] * len(paper), paper[paper_column].tolist(),
                    label="paper (501 participants)" if ax is axes[0] else None)  # fmt: skip
        ax.set(xlabel="participants kept", ylabel=label)
    axes[0].legend(title="subset", fontsize=8)
    axes[1].get_legend().remove()
    return fig


# --------------------------------------------------------------------------- sts3k-finetune


def regressor_curves(grid: pd.DataFrame, targets: dict):
    """Paper Figure 6: Spearman rho on the test pairs against the number of weights, random split
    (mean and SD over the seeded splits, seaborn ``lineplot``) and adversarial split, per feature
    set (``grid``: one row per fit: split kind, features, n_weights, rho_test); the paper's
    VerbNet-CN (crosses) and the authors' SentBERT files (pluses) from ``targets``."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, kind in zip(axes, ["random", "adversarial"], strict=True):
        sns.lineplot(data=grid[grid["split kind"] == kind], x="n_weights", y="rho_test",
                     hue="features", marker="o", markeredgecolor=None, errorbar="sd",
                     err_style="bars", err_kws={"capsize": 3}, ax=ax)  # fmt: skip
        split_key = "random" if kind == "random" else "adv"
        for features, marker, label in [("verbnet", "x", "VerbNet-CN, paper"),
                                        ("mpnet", "+", "SentBERT, authors' files")]:  # fmt: skip
            keys = [(r, f"ft_{split_key}_{features}_{r}") for r in rg.REGRESSORS]
            points = [(rg.n_weights(r, 8), targets[k]["paper"]) for r, k in keys if k in targets]
            paper_marks(ax, [w for w, _ in points], [v for _, v in points], marker=marker, s=60,
                        label=label)  # fmt: skip
        ax.set(xscale="log", xlabel="number of weights", title=f"{kind} split")
        ax.axhline(0, **ZERO)
    axes[0].set_ylabel("Spearman ρ on the test pairs")
    axes[0].get_legend().remove()
    axes[1].legend()
    fig.suptitle("Figure 6: regressors on PCA-8 features (random split: mean ± SD over seeds)")
    return fig


def t_interval(values) -> tuple[float, float]:
    """95% t-interval of the mean of ``values`` (:func:`compsem.stats.seed_interval`), as seaborn's
    ``errorbar`` wants it."""
    return cstats.seed_interval(values)[1:]


def random_split_files(files: pd.DataFrame, grid: pd.DataFrame):
    """The authors' random-split prediction files (PCA-8 rows of ``files``): rho on the held-out
    rows (solid) and on all pairs (dashed) against the number of weights, per feature set; the
    paper's .7-.8 as a grey band; our MPNet on the seeded random splits of ``grid``, mean and 95%
    t-interval, in black."""
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.axhspan(0.7, 0.8, color="grey", alpha=0.25, label="paper: .7–.8")
    pca8 = files[files["n_components"] == 8].sort_values("n_weights")
    for colour, (label, group) in zip(
        sns.color_palette(), pca8.groupby("feature set", sort=True), strict=False
    ):
        ax.plot(group["n_weights"], group["rho_heldout"], marker="o", color=colour,
                label=f"{label}, held-out rows")  # fmt: skip
        ax.plot(group["n_weights"], group["rho_all"], marker="o", ls="--", color=colour, alpha=0.6)
    ours = grid[(grid["split kind"] == "random") & (grid["features"] == "mpnet")]
    if len(ours):
        sns.lineplot(data=ours, x="n_weights", y="rho_test", color="black", marker="s",
                     errorbar=t_interval, err_style="bars", err_kws={"capsize": 3},
                     label="MPNet, ours", ax=ax)  # fmt: skip
    ax.set(xscale="log", xlabel="number of weights", ylabel="Spearman ρ",
           title="Random split, authors' files (dashed: all pairs)")  # fmt: skip
    ax.legend(fontsize=7, ncol=2)
    return fig


def no_pca_rhos(no_pca_grid: pd.DataFrame, targets: dict):
    """Paper Figure 11: rho on the adversarial pairs by regressor with all PCA components kept,
    per feature set; the authors' SentBERT files as black pluses."""
    fig, ax = plt.subplots(figsize=(7, 3.5))
    order = {r: i for i, r in enumerate(rg.REGRESSORS)}
    for name, group in no_pca_grid.groupby("features", sort=False):
        ax.plot(group["regressor"].map(order), group["rho_test"], marker="o", label=name)
    keys = [(order[r], f"ft_nopca_adv_mpnet_{r}") for r in rg.REGRESSORS]
    points = [(x, targets[k]["paper"]) for x, k in keys if k in targets]
    paper_marks(ax, [x for x, _ in points], [v for _, v in points], marker="+", s=80,
                label="SentBERT, authors' files")  # fmt: skip
    ax.set_xticks(list(order.values()), list(order))
    ax.axhline(0, **ZERO)
    ax.set(xlabel="regressor", ylabel="ρ on the adversarial pairs",
           title="Figure 11: without PCA (adversarial split)")  # fmt: skip
    ax.legend(fontsize=8)
    return fig


def finetune_bars(bars: pd.DataFrame, paper_bars: pd.DataFrame):
    """Paper Figure 7: rho on the adversarial pairs per model (``bars`` columns) and condition
    (rows), grouped by model (seaborn ``barplot``), the paper's bars as black dashes."""
    long = bars.rename_axis("condition").reset_index().melt(
        id_vars="condition", var_name="model", value_name="rho"
    )
    paper = paper_bars.rename_axis("condition").reset_index().melt(
        id_vars="condition", var_name="model", value_name="rho"
    )
    fig, ax = plt.subplots(figsize=(7, 3.5))
    sns.barplot(data=long, x="model", y="rho", hue="condition", order=list(bars.columns),
                hue_order=list(bars.index), errorbar=None, saturation=1, ax=ax)  # fmt: skip
    for container, condition in zip(ax.containers, bars.index, strict=True):
        at = [patch.get_x() + patch.get_width() / 2 for patch in container.patches]
        values = paper[paper["condition"] == condition].set_index("model")["rho"]
        paper_marks(ax, at, values.loc[list(bars.columns)], marker="_", s=300,
                    label="paper" if condition == bars.index[-1] else None)  # fmt: skip
    ax.set(xlabel="", ylabel="Spearman ρ on the adversarial pairs",
           title="Figure 7: fine-tuned SentBERT vs VerbNet-CN")  # fmt: skip
    ax.axhline(0, **ZERO)
    ax.legend(fontsize=8)
    return fig


def learning_curves(curves: pd.DataFrame):
    """rho on the adversarial pairs against the number of training pairs, mean and SD over
    subsamples (seaborn ``lineplot``), per feature set (``curves``: features, n_train,
    rho_test)."""
    fig, ax = plt.subplots()
    sns.lineplot(data=curves, x="n_train", y="rho_test", hue="features", marker="o",
                 markeredgecolor=None, errorbar="sd", err_style="bars", err_kws={"capsize": 3},
                 ax=ax)  # fmt: skip
    ax.axhline(0, **ZERO)
    ax.set(xscale="log", xlabel="non-adversarial training pairs", ylabel="ρ on the adversarial pairs",
           title="Learning curves (linear regression on PCA-8 features)")  # fmt: skip
    ax.legend(title=None)
    return fig


def grouped_splits(pair_grid: pd.DataFrame, grouped_grid: pd.DataFrame, features=("verbnet", "mpnet")):
    """Test rho on random splits by pair (Figure 6's) and by sentence
    (:func:`compsem.sts.regressors.grouped_random_split`) per regressor, one panel per feature set
    of ``features``: mean and SD over the splits of each kind (seaborn ``lineplot``)."""
    both = pd.concat([pair_grid[pair_grid["split kind"] == "random"].assign(kind="random split by pair"),
                      grouped_grid.assign(kind="random split by sentence")], ignore_index=True)
    both = both[both["features"].isin(list(features))]
    fig, axes = plt.subplots(1, len(features), sharey=True, figsize=(4.2 * len(features), 3.4), squeeze=False)
    for ax, name in zip(axes[0], features, strict=True):
        sns.lineplot(data=both[both["features"] == name], x="regressor", y="rho_test", hue="kind", marker="o",
                     markeredgecolor=None, errorbar="sd", err_style="bars", err_kws={"capsize": 3},
                     sort=False, ax=ax)  # fmt: skip
        ax.axhline(0, **ZERO)
        ax.set(title=name, xlabel="regressor", ylabel="ρ on the test pairs")
        ax.legend(title=None, fontsize="small")
    return fig


# --------------------------------------------------------------------------- sts3k-hybrid


def beta_sensitivity(perturbed, factor: float, named: pd.Series, rival: str, rival_rho: float,
                     paper: float):  # fmt: skip
    """VerbNet-CN's rho under randomly perturbed beta weights (grey histogram), under named
    weightings (``named``: name -> rho, vertical lines), the best neural model (dashed) and the
    paper's value (a marker on the axis)."""
    fig, ax = plt.subplots(figsize=(8, 3.5))
    sns.histplot(x=np.asarray(perturbed), bins=30, color="0.75", alpha=1, ax=ax,
                 label=f"random perturbations (f = {factor:g})")  # fmt: skip
    for (name, rho), color in zip(named.items(), PALETTE, strict=False):
        ax.axvline(rho, color=color, lw=1.5, label=name)
    ax.axvline(rival_rho, color="black", ls="--", label=f"best neural ({rival})")
    ax.plot([paper], [0], marker="v", color="black", ms=10, ls="none", clip_on=False,
            label="paper (Table 9)")  # fmt: skip
    ax.set(xlabel="Spearman rho on STS3k-adv", ylabel="perturbations",
           title="VerbNet-CN under other beta weights")  # fmt: skip
    ax.legend(fontsize=7, loc="upper left")
    return fig


def category_means(relative: pd.DataFrame, intervals: dict, mads: pd.Series,
                   paper_mads: Mapping[str, float] | None = None):
    """Paper Figure 8: similarity per pair category relative to Modifiers, with 95% bootstrap
    intervals (``intervals``: series -> frame with mean, ci_low, ci_high by category), people in
    thick black, each model labelled with its MAD from people and, for the models in
    ``paper_mads``, the paper's MAD (§5.4, which prints no per-category values to mark)."""
    paper_mads = paper_mads or {}
    fig, ax = plt.subplots(figsize=(9, 4))
    x = np.arange(len(relative.columns))
    for k, name in enumerate(relative.index):
        band = intervals[name].loc[list(relative.columns)]
        offset = (k - (len(relative.index) - 1) / 2) * 0.06  # dodge so the bars do not overlap
        human = name == "Human"
        ax.errorbar(
            x + offset, band["mean"], yerr=[band["mean"] - band["ci_low"], band["ci_high"] - band["mean"]],
            marker="o", capsize=2, lw=2.5 if human else 1.2, color="black" if human else None,
            label=name if human else f"{name} (MAD {mads[name]:.2f}"
            + (f"; paper {paper_mads[name]:.2f})" if name in paper_mads else ")"),
        )  # fmt: skip
    ax.set_xticks(x, relative.columns)
    ax.set(ylabel="similarity relative to Modifiers",
           title="Figure 8: similarity by pair category (95% bootstrap intervals)")  # fmt: skip
    ax.legend(fontsize=8, ncols=2)
    return fig


def relative_reductions(reductions: pd.DataFrame):
    """Paper Figure 9 for people and models: relative reduction per modifier type (rows) and
    series (columns; people in black), seaborn ``barplot``."""
    long = reductions.rename_axis("type").reset_index().melt(
        id_vars="type", var_name="series", value_name="reduction"
    )
    colours = dict(zip(reductions.columns, sns.color_palette(n_colors=reductions.shape[1]),
                       strict=True))  # fmt: skip
    if "Human" in colours:
        colours["Human"] = "black"
    fig, ax = plt.subplots(figsize=(9, 4))
    sns.barplot(data=long, x="type", y="reduction", hue="series", order=list(reductions.index),
                hue_order=list(reductions.columns), palette=colours, errorbar=None, saturation=1,
                ax=ax)  # fmt: skip
    ax.tick_params(axis="x", rotation=30)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(xlabel="", ylabel="relative reduction", title="Figure 9 for people and models")
    ax.legend(fontsize=7, ncols=3, title=None)
    return fig


def within_category(within: pd.DataFrame, series, hybrids, categories):
    """Spearman rho with people within each pair category, with its interval (``within``:
    series, category, rho, ci_low, ci_high), per series in ``series`` order; circles for the
    ``hybrids``, squares for the others."""
    fig, ax = plt.subplots(figsize=(9, 4))
    series = list(series)
    interval_dots(ax, within, "category", "rho", "ci_low", "ci_high", hue="series", orient="v",
                  order=list(categories), hue_order=series, dodge=0.12,
                  markers={name: "o" if name in hybrids else "s" for name in series})  # fmt: skip
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(ylabel="Spearman rho within the category",
           title="Correlation with people within each pair category")  # fmt: skip
    ax.legend(fontsize=8, ncols=3)
    return fig


def labeller_f1(scores: pd.DataFrame):
    """F1 per role of our labeller against the corrected parses (the ``F1 ...`` columns of
    ``scores``, one bar each), seaborn ``barplot``."""
    columns = [c for c in scores.columns if c.startswith("F1")]
    long = scores[columns].rename_axis("role").reset_index().melt(
        id_vars="role", var_name="score", value_name="F1"
    )
    fig, ax = plt.subplots(figsize=(8, 3.5))
    sns.barplot(data=long, x="role", y="F1", hue="score", order=list(scores.index), errorbar=None,
                saturation=1, ax=ax)  # fmt: skip
    ax.set(xlabel="", ylabel="F1 against the corrected parses",
           title="Role labeller vs the authors' corrected parses", ylim=(0, 1))  # fmt: skip
    ax.legend(title=None)
    return fig


def generated_profile(profile: pd.DataFrame, order):
    """Mean model similarity per manipulation (rows of ``profile``, in ``order``) on generated
    pairs, one line per model (columns)."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    order = list(order)
    for name in profile.columns:
        ax.plot(order, profile.loc[order, name], marker="o", label=name)
    plt.setp(ax.get_xticklabels(), rotation=70, ha="right")
    ax.set(ylabel="mean cosine similarity",
           title="Model similarity per manipulation (generated pairs, no ratings)")  # fmt: skip
    ax.legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- sts3k-models


def grouped_bars(ax, values: pd.DataFrame, paper: pd.DataFrame, paper_size: float = 36):
    """``values`` as bars grouped by row (columns side by side, seaborn ``barplot``) and the
    matching cells of ``paper`` as crosses on them; returns the x position of each row."""
    long = values.rename_axis("row").reset_index().melt(id_vars="row", var_name="what")
    sns.barplot(data=long, x="row", y="value", hue="what", order=list(values.index),
                hue_order=list(values.columns), errorbar=None, saturation=1, ax=ax)  # fmt: skip
    for container, column in zip(ax.containers, values.columns, strict=True):
        at = [patch.get_x() + patch.get_width() / 2 for patch in container.patches]
        paper_marks(ax, at, paper.loc[values.index, column], s=paper_size,
                    label="paper (Table 9)" if column == values.columns[-1] else None)  # fmt: skip
    ax.set_xlabel("")
    return np.arange(len(values))


def noncompositional_gap(published: pd.DataFrame, paper9: pd.DataFrame, columns):
    """Paper Figure 3: rho of Mean-CN and DefSent and their difference per dataset (bars), the
    paper's Table 9 values as crosses."""
    def table(frame):
        out = frame.loc[["Mean-CN", "DefSent"], list(columns)].T
        return out.assign(**{"DefSent − Mean-CN": out["DefSent"] - out["Mean-CN"]})

    fig, ax = plt.subplots(figsize=(8, 3.8))
    grouped_bars(ax, table(published), table(paper9))
    ax.axhline(0, **ZERO)
    ax.set(ylabel="Spearman ρ with human ratings",
           title="Figure 3: a non-compositional model vs the best transformer")  # fmt: skip
    ax.legend(ncols=3, loc="lower left")
    return fig


def adversarial_drop(values: pd.DataFrame, paper: pd.DataFrame, ceiling: pd.DataFrame):
    """Paper Figure 4: rho on the non-adversarial and adversarial pairs and their difference per
    model (bars), the paper's values as crosses, and the split-half reliability R of each
    portion's ratings (dashed line with the range of single splits as a band; a model's noise
    ceiling is sqrt(R), above it)."""
    fig, ax = plt.subplots(figsize=(9, 4))
    for colour, column in zip(PALETTE, ("STS3k-non", "STS3k-adv"), strict=False):
        ax.axhspan(ceiling.loc[column, "low"], ceiling.loc[column, "high"], color=colour,
                   alpha=0.25, lw=0)  # fmt: skip
        ax.axhline(ceiling.loc[column, "R"], color=colour, ls="--", lw=1,
                   label=f"split-half reliability R, {column}")  # fmt: skip
    grouped_bars(ax, values, paper, paper_size=12)
    plt.setp(ax.get_xticklabels(), rotation=60, ha="right")
    ax.axhline(0, **ZERO)
    ax.set(ylabel="Spearman ρ",
           title="Figure 4: non-adversarial vs adversarial STS3k (published similarities)")  # fmt: skip
    ax.set_ylim(top=1.5)  # room for the legend above the ceiling lines
    ax.legend(ncols=3, fontsize="small", loc="upper center")
    return fig


def model_against_human(human, panels: dict, background, groups: dict, colours: dict):
    """Paper Figure 5: model similarity against human similarity, one panel per model
    (``panels``: title -> similarities), the ``background`` pairs in grey and each group of
    ``groups`` (name -> mask) in its colour."""
    human = np.asarray(human)
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.8), sharex=True,
                             squeeze=False)  # fmt: skip
    for ax, (title, sims) in zip(axes[0], panels.items(), strict=True):
        sims = np.asarray(sims)
        ax.scatter(human[background], sims[background], s=4, color="lightgrey",
                   label="other adversarial")  # fmt: skip
        for name, mask in groups.items():
            ax.scatter(human[mask], sims[mask], s=5, color=colours[name], label=name, alpha=0.7)
        ax.set(title=title, xlabel="human similarity")
    axes[0, 0].set_ylabel("model cosine similarity")
    axes[0, -1].legend(markerscale=3, loc="lower right")
    return fig


def published_intervals(published_ci: pd.DataFrame, paper: pd.DataFrame, ci_level: float):
    """rho on STS3k-adv (left) and the drop from the non-adversarial pairs (right) per published
    model with bootstrap intervals (``published_ci``: adv, adv low/high, non − adv, drop
    low/high), the paper's Table 9 values as crosses."""
    frame = published_ci.rename_axis("model").reset_index()
    fig, axes = plt.subplots(1, 2, figsize=(10, 5), sharey=True)
    for ax, column, low, high, label in (
        (axes[0], "adv", "adv low", "adv high", "ρ on STS3k-adv"),
        (axes[1], "non − adv", "drop low", "drop high", "ρ(non) − ρ(adv)"),
    ):
        at = interval_dots(ax, frame, "model", column, low, high, label="published files")
        paper_marks(ax, paper.loc[list(at), column], list(at.values()))
        ax.axvline(0, **ZERO)
        ax.set(xlabel=f"{label} ({ci_level:.0%} bootstrap interval)")
    axes[1].legend(loc="lower right")
    fig.suptitle("Published STS3k similarities: adversarial correlation and drop, with uncertainty")
    return fig


def recomputed_drops(drops: pd.DataFrame, ci_level: float, paper: Mapping[str, float] | None = None):
    """Drop from the non-adversarial to the adversarial pairs per recomputed model, with its
    bootstrap interval (``drops``: index model, columns non − adv, low, high); ``paper``: model ->
    the paper's drop of its counterpart (Table 9), drawn as the paper's marker."""
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(drops) + 1))
    position = interval_dots(ax, drops.rename_axis("model").reset_index(), "model", "non − adv", "low", "high")
    marked = [model for model in (paper or {}) if model in position]
    if marked:
        paper_marks(ax, [paper[m] for m in marked], [position[m] for m in marked], label="paper (Table 9)")
        ax.legend(fontsize=8)
    ax.invert_yaxis()  # bottom to top, as the rows are sorted
    ax.axvline(0, **ZERO)
    ax.set(xlabel=f"ρ(non) − ρ(adv) with {ci_level:.0%} bootstrap interval",
           title="Drop from non-adversarial to adversarial pairs (recomputed models)")  # fmt: skip
    return fig
