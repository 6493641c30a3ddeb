"""The scorecard's table on disk and its one-page figure per model."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = ("model", "battery", "measure", "value", "low", "high", "ceiling")
"""The tidy table's columns, in order."""

PACKAGED = ("minilm", "mpnet", "glove50", "spacy-md")
"""The packaged encoders: their range is the grey band of :func:`figure`."""

X_LABELS = {"sts": "Spearman ρ with human ratings", "modifiers": "share of phrases consistent",
            "probing": "accuracy (%)"}


def write(table: pd.DataFrame, out_dir) -> list[Path]:
    """``scorecard.csv`` and ``scorecard.parquet`` under ``out_dir``;
    each file is written to a temporary name first, so a failure leaves no half-written table."""
    missing = [c for c in COLUMNS if c not in table]
    if missing:
        raise ValueError(f"a scorecard table needs the columns {list(COLUMNS)}; missing {missing}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    targets = [("scorecard.csv", lambda p: table.to_csv(p, index=False)),
               ("scorecard.parquet", lambda p: table.to_parquet(p, index=False))]  # pyarrow: a dependency
    for name, save in targets:
        tmp = out / f".{name}.tmp"
        save(tmp)
        os.replace(tmp, out / name)
        written.append(out / name)
    return written


def figure(table: pd.DataFrame, model: str, reference=PACKAGED):
    """One page for ``model``: a panel per battery, a dot per measure with its interval (bar),
    the noise ceiling (black tick) where there is one, and the range of the ``reference`` models
    present in ``table`` (grey band; those other than ``model``), in the book's theme (set for
    this figure only). Returns the figure."""
    import matplotlib.pyplot as plt

    from compsem.plotting import use_book_theme

    with plt.rc_context():
        use_book_theme()
        return _figure(table, model, reference)


def _figure(table: pd.DataFrame, model: str, reference):
    import matplotlib.pyplot as plt

    from compsem.plotting import PALETTE

    own = table[table["model"] == model]
    if own.empty:
        raise ValueError(f"no rows for model {model!r}; models in the table: "
                         f"{', '.join(sorted(table['model'].unique()))}")
    others = table[table["model"].isin([r for r in (reference or ()) if r != model])]
    batteries = list(dict.fromkeys(own["battery"]))
    heights = [max(2, own["battery"].eq(b).sum()) for b in batteries]
    fig, axes = plt.subplots(len(batteries), 1, figsize=(8.3, min(11.7, 1.2 + 0.2 * sum(heights))),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, battery in zip(axes[:, 0], batteries, strict=True):
        rows = own[own["battery"] == battery].reset_index(drop=True)
        y = np.arange(len(rows))[::-1]
        ref = others[others["battery"] == battery].groupby("measure")["value"].agg(["min", "max"])
        ref = ref.reindex(rows["measure"])
        if not ref.dropna().empty:
            ax.barh(y, ref["max"] - ref["min"], left=ref["min"], height=0.6, color="0.85",
                    label="range of packaged models")
            ax.scatter(pd.concat([ref["min"], ref["max"]]), np.concatenate([y, y]), marker="|",
                       s=40, color="0.6")  # the ends, visible when only one model is there
        ax.errorbar(rows["value"], y, xerr=[rows["value"] - rows["low"], rows["high"] - rows["value"]],
                    fmt="o", color=PALETTE[0], ms=4, capsize=2, label=model)
        ax.scatter(rows["ceiling"], y, marker="|", s=120, color="black", label="noise ceiling"
                   if rows["ceiling"].notna().any() else None)
        ax.set_yticks(y, rows["measure"], fontsize=7)
        ax.set_xlabel(X_LABELS.get(battery, "value"), fontsize=8)
        ax.set_title(battery, fontsize=9, loc="left")
        ax.grid(axis="x", lw=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=6, loc="lower right", bbox_to_anchor=(1, 1), ncols=3, frameon=False)
    fig.suptitle(f"Scorecard: {model}", fontsize=11)
    fig.tight_layout()
    return fig
