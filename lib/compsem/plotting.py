"""The book's one figure theme, and the two figure pieces several chapters draw.

:func:`use_book_theme` sets seaborn's theme for the whole book (every chapter calls it once,
through :func:`compsem.report.set_theme`): white grid, the colour-blind-safe :data:`PALETTE`
(blue, orange, green, ... in this order, which the captions name), readable sizes. Figure code
lives in the study packages (``compsem.<study>.chapter`` or ``compsem.<study>.figures``) and
draws with seaborn where seaborn computes what is shown (distributions, means with intervals over
raw rows, faceted grids, heat maps); intervals computed elsewhere (bootstrap, Wilson, over seeds)
are drawn with :func:`interval_dots`, since seaborn only draws intervals it computes itself.

The paper's value on a reproduced figure is a black marker, :data:`PAPER` (a cross unless the
caption names another shape), drawn by :func:`paper_marks`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns

PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
"""Okabe-Ito colours: blue, vermilion (called orange in captions), green, purple, yellow-orange,
sky blue, yellow, black."""

PAPER = {"marker": "x", "color": "black", "s": 40, "linewidths": 1.2, "zorder": 4}
"""The paper's value on a reproduced figure (``ax.scatter`` keywords)."""

CHANCE = {"color": "grey", "lw": 0.8}
"""Chance level or zero (``ax.axhline``/``axvline`` keywords)."""

WIDTH = 10.0
"""Width in inches of a full-width figure; a single panel is 7 x 4 (the theme's default)."""

RC = {
    "figure.figsize": (7.0, 4.0),
    "figure.dpi": 110,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "grid.alpha": 0.5,
    "legend.frameon": False,
}


def use_book_theme() -> None:
    """The book's seaborn theme (``sns.set_theme``): white grid, :data:`PALETTE`, notebook
    context scaled to 10-point text, no top and right spines, frameless legends."""
    sns.set_theme(context="notebook", style="whitegrid", palette=PALETTE, font_scale=0.85, rc=RC)


def paper_marks(ax, x, y, label: str | None = "paper", **style):
    """The paper's values at ``(x, y)`` as :data:`PAPER` markers; ``style`` overrides (e.g.
    ``marker="_"`` where the caption says dashes). Missing values are skipped."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    return ax.scatter(x[keep], y[keep], label=label, **{**PAPER, **style})


def interval_dots(
    ax,
    frame: pd.DataFrame,
    category: str,
    value: str,
    low: str,
    high: str,
    hue: str | None = None,
    orient: str = "h",
    order=None,
    hue_order=None,
    dodge: float = 0.12,
    markers: dict | None = None,
    colors: dict | None = None,
    label: str | None = None,
) -> dict:
    """One dot per row of ``frame`` at ``value`` with a bar from ``low`` to ``high`` (intervals
    computed beforehand), categories along the other axis (``orient="h"``: categories on y, top
    to bottom; ``"v"``: on x), rows of different ``hue`` dodged by ``dodge`` and coloured from
    the palette (``colors``/``markers`` by hue level override). ``label`` names the dots in the
    legend when there is no hue. Missing bounds draw the dot alone. Returns the position of each
    category, for paper markers beside the dots."""
    order = list(dict.fromkeys(frame[category])) if order is None else list(order)
    levels = [None] if hue is None else (hue_order or list(dict.fromkeys(frame[hue])))
    position = {c: float(i) for i, c in enumerate(order)}
    cycle = dict(zip(levels, sns.color_palette(n_colors=len(levels)), strict=True))
    for k, level in enumerate(levels):
        rows = frame if level is None else frame[frame[hue] == level]
        rows = rows[rows[category].isin(order)]
        at = rows[category].map(position).to_numpy() + (k - (len(levels) - 1) / 2) * dodge
        v = rows[value].to_numpy(dtype=float)
        err = np.nan_to_num(np.abs([v - rows[low].to_numpy(float), rows[high].to_numpy(float) - v]))
        xy = (v, at) if orient == "h" else (at, v)
        ax.errorbar(
            *xy,
            **{"xerr" if orient == "h" else "yerr": err},
            fmt=(markers or {}).get(level, "o"),
            ls="none",
            capsize=2,
            color=(colors or {}).get(level, cycle[level]),
            label=label if level is None else str(level),
        )
    if orient == "h":
        ax.set_yticks(list(position.values()), order)
        ax.set_ylim(len(order) - 0.5, -0.5)
    else:
        ax.set_xticks(list(position.values()), order)
        ax.set_xlim(-0.5, len(order) - 0.5)
    return position

