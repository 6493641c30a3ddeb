"""The figures of the chapter ``cogs-auxiliary`` (Kim 2021, Chapter 5, Experiment 1), in the
book's theme (:mod:`compsem.plotting`): each takes what the chapter computed and returns the
figure. Ours are dots with their 95% interval over seeds, the paper's means black crosses with
its SD over 10 seeds as a grey bar."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from compsem.plotting import PALETTE, WIDTH, paper_marks

MODEL_TITLES = {"transformer": "Transformer (Figure 5-1)", "lstm": "LSTM (Figure 5-2)",
                "bilstm": "BiLSTM (Figure 5-3)"}


def paper_vs_ours(paper: pd.DataFrame, ours: pd.DataFrame, models, objectives, labels: dict):
    """Figures 5-1 to 5-3: gen accuracy per objective, one panel per model. ``paper``: columns
    ``model``, ``objective``, ``mean``, ``sd`` (NaN: not printed); ``ours``: the rows of
    :func:`compsem.cogs.seq2seq.two_stage.summarise` for quantity ``gen`` (may be empty)."""
    fig, axes = plt.subplots(1, len(models), figsize=(WIDTH, 3.6), sharey=True, squeeze=False)
    for ax, model in zip(axes[0], models, strict=True):
        theirs = paper[paper.model == model].set_index("objective").reindex(objectives)
        x = np.arange(len(objectives))
        ax.errorbar(x - 0.1, theirs["mean"], yerr=theirs["sd"].fillna(0), fmt="none",
                    ecolor="grey", capsize=3, lw=1)
        paper_marks(ax, x - 0.1, theirs["mean"], label="paper (mean, SD over 10 seeds)")
        mine = ours[ours.model == model].set_index("objective").reindex(objectives)
        if mine["mean"].notna().any():
            err = np.nan_to_num(np.abs([mine["mean"] - mine["low"], mine["high"] - mine["mean"]]))
            ax.errorbar(x + 0.1, mine["mean"], yerr=err, fmt="o", color=PALETTE[0], capsize=3,
                        label="ours (mean, 95% interval over seeds)")
        else:
            ax.text(0.5, 0.92, "ours: pending (GPU)", transform=ax.transAxes, ha="center",
                    fontsize=8, color="grey")
        ax.set_xticks(x, [labels[o] for o in objectives], rotation=30, ha="right")
        ax.set_title(MODEL_TITLES.get(model, model))
        ax.set_ylim(-0.02, 1.0)
    axes[0][0].set_ylabel("gen accuracy (exact match)")
    handles, names = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, names, loc="upper center", ncol=2, bbox_to_anchor=(0.5, 1.08))
    fig.tight_layout()
    return fig


def reduced_runs(runs: pd.DataFrame, summary: pd.DataFrame, quantities, labels: dict,
                 quantity_labels: dict):
    """The reduced CPU runs: one panel per quantity, one dot per seed and objective, with the
    mean and its 95% t-interval over seeds beside them."""
    fig, axes = plt.subplots(1, len(quantities), figsize=(WIDTH, 3.2), squeeze=False)
    objectives = list(dict.fromkeys(runs.objective))
    for ax, quantity in zip(axes[0], quantities, strict=True):
        for k, objective in enumerate(objectives):
            values = runs.loc[runs.objective == objective, quantity].to_numpy(float)
            ax.scatter(np.full(len(values), k - 0.08), values, color=PALETTE[k], alpha=0.6,
                       s=18, label="seeds" if k == 0 else None)
            row = summary[(summary.objective == objective) & (summary.quantity == quantity)]
            if len(row):
                r = row.iloc[0]
                err = np.nan_to_num([[r["mean"] - r["low"]], [r["high"] - r["mean"]]])
                ax.errorbar([k + 0.08], [r["mean"]], yerr=err, fmt="o", color=PALETTE[k],
                            capsize=3)
        ax.set_xticks(range(len(objectives)), [labels[o] for o in objectives])
        ax.set_xlim(-0.5, len(objectives) - 0.5)
        ax.set_title(quantity_labels.get(quantity, quantity))
    fig.tight_layout()
    return fig
