"""The figures of the COGS chapters (``cogs-data``, ``cogs-models``), one function each, in the
book's theme (:mod:`compsem.plotting`).

Each takes what its chapter has already computed and returns the figure; the chapter cell shows
it under its caption. Released data and our runs are blue, the generated corpus and the paper's
runs orange (the captions say so), the symbolic reference parser black and dashed
(:data:`REFERENCE`).
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from compsem.cogs import corpus
from compsem.cogs import evaluation as ev
from compsem.plotting import PALETTE, paper_marks

REFERENCE = {"color": "black", "ls": "--", "lw": 1.2, "label": "symbolic reference parser"}
"""The symbolic reference parser (``ax.plot`` keywords)."""

LONGEST_TRAINING_TARGET = 153
"""Tokens of the longest training target (Kim 2021; :func:`compsem.cogs.corpus.token_lengths`)."""


def _bars(frame: pd.DataFrame, ax, x: str, hue: str, value: str, **barplot):
    """``frame`` (rows: categories, columns: hue levels) as grouped bars, seaborn ``barplot``."""
    long = frame.rename_axis(x).reset_index().melt(id_vars=x, var_name=hue, value_name=value)
    sns.barplot(data=long, x=x, y=value, hue=hue, order=list(frame.index),
                hue_order=list(frame.columns), errorbar=None, saturation=1, ax=ax,
                **barplot)  # fmt: skip
    ax.legend(title=None)


# --------------------------------------------------------------------------- cogs-data


def frame_weights(weights: pd.DataFrame, stated_share: float):
    """Clause-frame probabilities per frame (rows), estimated against our reconstruction of the
    stated scheme (columns), with the dissertation's stated share per frame (Section 4.4.1,
    "about 5%") as a dashed line."""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    _bars(weights, ax, "frame", "source", "P(frame)")
    ax.axhline(stated_share, ls="--", lw=1, color="black", label=f"dissertation: about {stated_share:.0%} per frame")
    ax.legend(title=None)
    plt.setp(ax.get_xticklabels(), rotation=60, ha="right")
    ax.set(xlabel="", title="Clause frames: estimated probabilities, the stated scheme on our frames, the stated share")
    return fig


def target_lengths(released: dict, generated: dict):
    """Histograms of target lengths (tokens) in train (left) and gen (right), released against
    generated, each normalised to a density, log y axis."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=False)
    for ax, name in zip(axes, ("train", "gen"), strict=True):
        lengths = pd.concat(
            [
                corpus.token_lengths(data[name])[["target"]].assign(corpus=label)
                for label, data in (("released", released), ("generated", generated))
            ],
            ignore_index=True,
        )
        bins = np.arange(0, 500, 5) if name == "gen" else np.arange(0, 170, 3)
        sns.histplot(data=lengths, x="target", hue="corpus", bins=bins, stat="density",
                     common_norm=False, element="step", alpha=0.35, ax=ax)  # fmt: skip
        ax.set(xlabel="target tokens", ylabel="density", title=f"{name}: target length")
        ax.set_yscale("log")
    axes[0].get_legend().set_title(None)
    axes[1].get_legend().remove()
    return fig


def rank_frequency(frequencies: dict):
    """Rank-frequency of each kind of word (one panel each) in each set of training forms
    (``frequencies``: (kind, label) -> counts most frequent first,
    :func:`compsem.cogs.corpus.rank_frequency`), log-log axes."""
    kinds = list(dict.fromkeys(kind for kind, _ in frequencies))
    fig, axes = plt.subplots(1, len(kinds), figsize=(11, 3.4), squeeze=False)
    for ax, kind in zip(axes[0], kinds, strict=True):
        for (of, label), freq in frequencies.items():
            if of != kind:
                continue
            ax.loglog(np.arange(1, len(freq) + 1), freq.to_numpy(), marker=".", ls="none",
                      label=label)  # fmt: skip
        ax.set(xlabel="rank", ylabel="count", title=f"{kind}s")
    axes[0, 0].legend()
    return fig


def frame_shares(shares: pd.DataFrame):
    """Share of each clause frame (rows) among all clauses, per corpus (columns), sorted by the
    first column."""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    _bars(shares.sort_values(shares.columns[0], ascending=False), ax, "frame", "corpus",
          "share of clauses")  # fmt: skip
    plt.setp(ax.get_xticklabels(), rotation=60, ha="right")
    ax.set(xlabel="", title="Clause frames in the in-distribution training data")
    return fig


# --------------------------------------------------------------------------- cogs-models

SPLITS = ("dev", "test", "gen")


def transformer_sizes(sizes: pd.DataFrame, reference: dict):
    """Dissertation Figure 4-3: dev, test and gen accuracy per Transformer size (rows of
    ``sizes``: ``ours <split>``, ``paper <split>``, ``ours gen SD`` and, when present, ``paper gen
    SD``), ours filled with the gen SD over seeds, the paper's as open grey circles just to their
    right, its gen with the SD over its seeds that Figure 4-3 prints as a grey error bar, the
    reference parser (``reference``: split -> accuracy) as black dashes."""
    fig, ax = plt.subplots(figsize=(6, 3.4))
    x = np.arange(len(sizes))
    beside = 0.05  # the paper's marks just right of ours, so that the two error bars stay apart
    for offset, split in zip((-0.2, 0, 0.2), SPLITS, strict=True):
        paper_marks(ax, x + offset + beside, sizes[f"paper {split}"], label=None, marker="o",
                    facecolors="none", edgecolors="grey", color=None)  # fmt: skip
        ax.errorbar(x + offset - beside, sizes[f"ours {split}"],
                    yerr=sizes["ours gen SD"].fillna(0) if split == "gen" else None, fmt="o",
                    label=f"ours: {split}")  # fmt: skip
    if "paper gen SD" in sizes:
        ax.errorbar(x + 0.2 + beside, sizes["paper gen"], yerr=sizes["paper gen SD"].fillna(0),
                    fmt="none", ecolor="grey", elinewidth=1, capsize=2,
                    label="paper: gen SD over its seeds")  # fmt: skip
    for offset, split in zip((-0.2, 0, 0.2), SPLITS, strict=True):
        ax.plot(x + offset, [reference[split]] * len(x), "_", ms=12, color="black")
    ax.plot([], [], **REFERENCE)  # legend entry of the reference marks
    ax.set_xticks(x, sizes.index, fontsize=8)
    ax.set(ylim=(0, 1.05), ylabel="exact-match accuracy",
           title="Figure 4-3: Transformer size (open: paper)")  # fmt: skip
    ax.legend(fontsize=7, ncols=2, loc="center right")
    return fig


def seed_spread(runs: pd.DataFrame, cases, models, paper: dict, reference: dict, labels: dict):
    """Dissertation Table 4-4: accuracy of each run (one dot per seed, a strip per model with a
    small vertical jitter drawn from a fixed seed, so the figure is the same on every run) per
    case (one panel each) and model (rows: ``runs`` with model, quantity, accuracy), the paper's
    mean over seeds (``paper["cogs_t45_<model>_1_<case>"]``) as black crosses and the reference
    parser (``reference``: case -> accuracy) as a dashed line."""
    models = list(models)
    colors = sns.color_palette(n_colors=len(models))
    fig, axes = plt.subplots(1, len(cases), figsize=(12, 2.6), sharey=True)
    jitter = np.random.default_rng(0)
    for ax, case in zip(axes, cases, strict=True):
        part = runs[runs.quantity == case]
        for row, model in enumerate(models):
            accuracy = part.loc[part.model == model, "accuracy"].to_numpy()
            ax.scatter(accuracy, row + jitter.uniform(-0.1, 0.1, len(accuracy)), s=14,
                       alpha=0.6, color=colors[row])
        ax.set_ylim(len(models) - 0.5, -0.5)  # the first model on top
        paper_marks(ax, [paper[f"cogs_t45_{m}_1_{case}"] for m in models], range(len(models)),
                    label=None)  # fmt: skip
        ax.axvline(reference[case], color="black", ls="--", lw=1)
        ax.set(title=ev.CASE_LABELS[case], xlim=(-0.05, 1.05), xlabel="", ylabel="")
        ax.title.set_fontsize(7)
    axes[0].set_yticks(range(len(models)), [labels[m] for m in models])
    return fig


def exposure_by_case(runs: pd.DataFrame, paper: dict, reference: pd.Series, exposures=(1, 100)):
    """Table 4-5's Transformer columns per generalization case (Section 4.5.7, Figure 4-4): each
    run's accuracy (``runs``: exposures, seed, quantity, accuracy; one dot per seed, a small
    vertical jitter drawn from a fixed seed) for each number of exposures (one colour each), the
    paper's mean of 5 seeds (``paper["cogs_t45_transformer_<exposures>_<case>"]``) as a cross of
    the same colour, the reference parser (``reference``: case -> accuracy) as dashed steps."""
    fig, ax = plt.subplots(figsize=(9, 7))
    y = np.arange(len(ev.CASE_ORDER))[::-1]
    row = dict(zip(ev.CASE_ORDER, y, strict=True))
    jitter = np.random.default_rng(0)
    offsets = np.linspace(-0.18, 0.18, len(exposures))
    for color, offset, n in zip(PALETTE, offsets, exposures, strict=False):
        part = runs[(runs.exposures == n) & runs.quantity.isin(ev.CASE_ORDER)]
        label = f"{n} exposure{'s' if n > 1 else ''}"
        ax.scatter(part.accuracy, part.quantity.map(row) + offset
                   + jitter.uniform(-0.05, 0.05, len(part)), s=12, alpha=0.6, color=color,
                   label=f"ours, {label} (one dot per seed)")  # fmt: skip
        paper_marks(ax, [paper.get(f"cogs_t45_transformer_{n}_{c}") for c in ev.CASE_ORDER],
                    y + offset, label=f"paper, {label} (mean of 5)", marker="X",
                    color=color, edgecolor="black", s=60)  # fmt: skip
    ax.step(reference.reindex(ev.CASE_ORDER), y, where="mid", **REFERENCE)
    ax.set_yticks(y, [ev.CASE_LABELS[c] + (" (structural)" if c in ev.STRUCTURAL_CASES else "")
                      for c in ev.CASE_ORDER], fontsize=8)  # fmt: skip
    ax.set(xlim=(-0.03, 1.03), xlabel="exact-match accuracy",
           title="Transformer by generalization case: one exposure against 100")  # fmt: skip
    ax.legend(loc="upper center", bbox_to_anchor=(0.4, -0.07), ncols=2, fontsize=8)
    return fig


def dev_loss(history: pd.DataFrame):
    """Dev cross-entropy per token at each validation (``history``: step, dev_loss and, for
    several runs, seed: one line each), log y."""
    fig, ax = plt.subplots(figsize=(6, 3))
    hue = "seed" if "seed" in history and history["seed"].nunique() > 1 else None
    sns.lineplot(data=history, x="step", y="dev_loss", hue=hue, marker="o", markeredgecolor=None,
                 palette="crest" if hue else None, ax=ax)  # fmt: skip
    ax.set(xlabel="update", ylabel="dev cross-entropy per token", yscale="log",
           title="Reduced Transformer: dev loss (the best checkpoint is kept)")  # fmt: skip
    return fig


def generalization_gap(summary: pd.DataFrame, ours: str, paper: str,
                       intervals: pd.DataFrame | None = None):
    """In distribution against generalization: exact match on dev, test, gen and its lexical and
    structural cases, for the rows ``ours`` and ``paper`` of ``summary`` (bars) and its row
    ``symbolic reference parser`` (black dashes). ``intervals``: a table whose last two rows are
    the low and the high end of the interval of our mean over seeds for those columns (as
    :func:`compsem.cogs.models_chapter.reduced_seeds` returns it), drawn as black error bars on
    our bars. The legend names the paper's bars by their row, ``paper`` (e.g.
    :func:`compsem.cogs.models_chapter.paper_gap_label`, which says that the paper's dev and test
    come from other runs than its gen)."""
    columns = ["dev", "test", "gen", "lexical", "structural"]
    names = dict(zip(columns, ["dev", "test", "gen (all)", "gen lexical", "gen structural"],
                     strict=True))  # fmt: skip
    bars = summary.loc[[ours, paper], columns].T.rename(index=names)
    bars.columns = ["reduced Transformer (ours)", paper]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    _bars(bars, ax, "split", "run", "exact-match accuracy")
    if intervals is not None:
        height = summary.loc[ours, columns].to_numpy(dtype=float)
        low, high = (intervals.iloc[i][columns].to_numpy(dtype=float) for i in (-2, -1))
        centres = [patch.get_x() + patch.get_width() / 2 for patch in ax.containers[0]]
        below, above = np.clip(height - low, 0, None), np.clip(high - height, 0, None)
        ax.errorbar(centres, height, yerr=[below, above], fmt="none", ecolor="black", elinewidth=1,
                    capsize=3, label="ours: 95% t-interval over seeds")  # fmt: skip
    ax.plot(np.arange(len(columns)), summary.loc["symbolic reference parser", columns],
            **REFERENCE, marker="_", ms=30)  # fmt: skip
    ax.set(xlabel="", ylim=(0, 1.05), title="In distribution vs generalization (reduced CPU run)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, fontsize=8)
    return fig


def accuracy_by_case(exact: pd.Series, reference: pd.Series, paper, paper_label: str):
    """Exact match per generalization case (``exact``, ``reference``: case -> accuracy; ``paper``
    in :data:`compsem.cogs.evaluation.CASE_ORDER`): our run as bars, the paper's as orange dots,
    the reference parser as dashed steps; structural cases marked in the labels."""
    fig, ax = plt.subplots(figsize=(9, 6.5))
    y = np.arange(len(ev.CASE_ORDER))[::-1]
    ax.barh(y, exact.reindex(ev.CASE_ORDER), height=0.6, label="reduced Transformer (ours)")
    paper_marks(ax, paper, y, label=paper_label + " (Table 4-5)", marker="o", color=PALETTE[1])
    ax.step(reference.reindex(ev.CASE_ORDER), y, where="mid", **REFERENCE)
    ax.set_yticks(y, [ev.CASE_LABELS[c] + (" (structural)" if c in ev.STRUCTURAL_CASES else "")
                      for c in ev.CASE_ORDER], fontsize=8)  # fmt: skip
    ax.set(xlim=(0, 1.05), xlabel="exact-match accuracy", title="Accuracy by generalization case")
    ax.legend(loc="upper center", bbox_to_anchor=(0.4, -0.07), ncols=3, fontsize=8)
    return fig


LENGTH_BINS = [0, 20, 40, 60, 80, 100, 120, 160, 240, 320, 480]
"""Bins of target length (tokens) for :func:`depth_and_length`."""


def depth_and_length(runs: dict, reference: pd.DataFrame | None = None,
                     paper_depth: Mapping[str, float] | None = None):
    """Left: accuracy on the recursion cases by depth (gen), per group of runs (``runs``: name ->
    analysed predictions, :func:`compsem.cogs.evaluation.analyse`); right: accuracy by target
    length on test and gen, the longest training output marked in grey. ``reference``: analysed
    predictions with ``reference_exact``, drawn dashed. ``paper_depth``: run name -> the paper's
    accuracy on depths 3-5 (Table 4-6, both recursion cases pooled), drawn as the paper's
    markers, dashes at depths 3, 4 and 5."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for name, value in (paper_depth or {}).items():
        paper_marks(axes[0], [3, 4, 5], [value] * 3, marker="_", s=160,
                    label=f"paper, {name.split(' (n=')[0]}: depths 3-5 pooled (Table 4-6)")  # fmt: skip
    for name, frame in runs.items():
        by_depth = ev.accuracy_by_depth(frame[frame.split == "gen"])
        for case, style in (("cp_recursion", "-o"), ("pp_recursion", "-s")):
            if case in by_depth:
                axes[0].plot(by_depth.index, by_depth[case], style, ms=4, label=f"{name}: {case}")
        for split, style in (("test", "-o"), ("gen", "-s")):
            by_length = ev.accuracy_by_length(frame[frame.split == split], LENGTH_BINS)
            axes[1].plot([i.mid for i in by_length.index], by_length["accuracy"], style, ms=4,
                         label=f"{name}: {split}")  # fmt: skip
    if reference is not None:
        depth = reference[reference.case.isin(ev.DEPTH_CASES)].groupby("depth")["reference_exact"]
        axes[0].plot(depth.mean().index, depth.mean(), **REFERENCE)
        length = ev.accuracy_by_length(reference.assign(exact=reference.reference_exact), LENGTH_BINS)
        axes[1].plot([i.mid for i in length.index], length["accuracy"], **REFERENCE)
    axes[1].axvline(LONGEST_TRAINING_TARGET, color="grey", lw=0.8)
    axes[1].text(LONGEST_TRAINING_TARGET + 3, 0.5, "longest training output", fontsize=7,
                 rotation=90, color="grey")  # fmt: skip
    for ax, xlabel, title in ((axes[0], "recursion depth", "Depth generalization"),
                              (axes[1], "target length (tokens)", "Accuracy by output length")):  # fmt: skip
        ax.set(xlabel=xlabel, ylabel="exact-match accuracy", ylim=(-0.05, 1.05), title=title)
        ax.legend(fontsize=6)
    return fig


def training_curve(curve: pd.DataFrame, best_step: int | None = None, title: str = ""):
    """Exact match over training updates (``curve``: step, quantity, accuracy, from
    :mod:`compsem.cogs.seq2seq.curve`): dev and test, gen and its lexical and structural means;
    the update whose weights the stopping rule kept marked grey."""
    shown = ["dev", "test", "gen", "lexical", "structural"]
    names = {"gen": "gen (all)", "lexical": "gen lexical", "structural": "gen structural"}
    data = curve[curve.quantity.isin(shown)].assign(
        quantity=lambda f: f.quantity.map(lambda q: names.get(q, q))
    )
    fig, ax = plt.subplots(figsize=(7, 3.6))
    sns.lineplot(data=data, x="step", y="accuracy", hue="quantity", style="quantity",
                 markers=True, dashes=False, markeredgecolor=None, ax=ax)  # fmt: skip
    if best_step is not None:
        ax.axvline(best_step, color="grey", lw=1, ls=":", label="weights kept (lowest dev loss)")
    ax.set(xlabel="update", ylabel="exact-match accuracy", ylim=(0, 1.05),
           title=title or "Accuracy over training updates")  # fmt: skip
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), ncols=3, fontsize=8)
    return fig
