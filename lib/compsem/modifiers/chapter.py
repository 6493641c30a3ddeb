"""The tables, figures and statistics of the chapter ``modifiers-consistency``, one function each.

Each function takes the per-model results of :func:`compsem.modifiers.experiment.run` (a dict
``{spec: ModelResults}``, called ``runs``) and returns what the chapter shows: a table (a
DataFrame or a Styler), a figure, and/or a dict of numbers to glue (keys ``mod_x_*``). The
notebook stays a narrative; every loop over models and every statistic lives here.

Multiple comparisons (not in the paper, which names no test): the permutation tests of "no
difference between adjective classes" form one family *per test* (AN, AAN, pairs,
non-subsectivity), whose members are the models run on it; p-values are Holm-adjusted within
that family (:func:`compsem.modifiers.statistics.holm`), so each per-test claim keeps a 5%
family-wise error over the models. The same holds for the one-sided tests of the AAN drop
and of the non-subsectivity direction. A claim that concludes when *some* of k intervals
crosses its threshold (a union of k tests) reads them at Bonferroni's level
(:func:`compsem.stats.bonferroni_level`), glued as ``..._bonf<k>_...``; :data:`UNION_FAMILIES`
names each union and its k.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from scipy import stats as sps

from compsem.modifiers import pairs as pair_test
from compsem.modifiers import statistics as st
from compsem.modifiers import subsectivity
from compsem.modifiers import tables as T
from compsem.modifiers.lexicon import CLASSES, Lexicon, class_info
from compsem.plotting import interval_dots, paper_marks
from compsem.report import slug
from compsem.stats import PROPORTION, bonferroni_level, rejects, spearman, wilson_interval

UNION_FAMILIES = {
    "an_lowest_high": (5, 10),
    "pair_below_null": (4,),
    "spread": (2,),
    "nsdir": (4,),
    "si_minus": (2,),
    "ns_top_gap": (2,),
}
"""The unions of tests the claims of data/claims/modifiers.yaml decide on, and their sizes k:
each interval named here is also glued at Bonferroni's level ``1 - (1 - level) / k``.
``an_lowest_high``: some of the five classes of one model below the ceiling (5,
first-token-not-universally-intersective), of two models (10, MiniLM and MPNet, shown beside
mean-pooling-universally-intersective); ``pair_below_null``: some of the four (S-I, Y) cells
below the null band (pair-intersectivity-hierarchy); ``spread``: either of two tests equivalent
(class-differences-single-adjective; each equivalence test at ``(1 - level) / 2``);
``nsdir``: some of four models pulled towards the NS classes (ns-not-pulled-towards-adjective);
``si_minus``: S-I below either NS class (static-vectors-si-above-ns); ``ns_top_gap``: an NS
class on top for either of two models (ns-highest-class-not-ns). One union's k depends on the run
and is glued with it: some class of some mean-pooled encoder below the ceiling
(mean-pooling-universally-intersective), k = five classes times the mean-pooled encoders run
(:func:`mean_pooled_ceiling`, ``mod_x_meanpool_union_k``; 10 with the default models)."""

NS_CLASSES = ("NS-Pl", "NS-Pr")
"""The non-subsective classes ('NS' categories of 004 §4.2.3)."""


STATUS_COLOURS = {
    "ours": "black",
    "reproduced here": "#1b7837",
    "substitute run here": "#8c510a",
    "stand-in run here": "#8c510a",
    "not run here": "#777777",
}


# --------------------------------------------------------------------------- tables beside the paper


VERDICT_COLOURS = {T.WITHIN: "#1b7837", T.OUTSIDE: "#b2182b", T.PATTERN_ONLY: "#8c510a"}
"""The colours of the cell verdicts (:func:`tables.cell_verdict`), those of
:func:`compsem.report.style_comparison`."""


def style_table(frame: pd.DataFrame, digits: int = 3):
    """Scores with a fixed number of decimals; paper rows coloured by their status (rows not
    run here in grey); the cells of a verdict row (:func:`tables.verdict_row`) coloured by
    their verdict."""
    numeric = [c for c in frame.columns if c != "status"]

    def cell(value):
        if isinstance(value, str):
            return value
        return "–" if pd.isna(value) else f"{value:.{digits}f}"

    def colours(row):
        status = f"color: {STATUS_COLOURS.get(row['status'], 'black')}"
        return [f"color: {VERDICT_COLOURS[v]}" if v in VERDICT_COLOURS else status for v in row]

    styler = frame.style.format(cell, subset=numeric)
    if "status" in frame:
        styler = styler.apply(colours, axis=1)
    return styler


def with_dashes(frame: pd.DataFrame | None, digits: int = 3):
    """A table whose float columns show ``digits`` decimals and whose NaNs, values that do not
    exist (a constant row has no rank correlation), show as "–"; None stays None."""
    if frame is None:
        return None
    floats = [c for c in frame.columns if pd.api.types.is_float_dtype(frame[c])]
    return frame.style.format({c: f"{{:.{digits}f}}" for c in floats}, na_rep="–")


def ours_for(runs: dict, test: str, specs, variants=("code",)) -> tuple[dict, dict]:
    """Our scores of one test for several models, labelled for the tables, and the paper model
    each label sits beside (:func:`tables.paper_model_of`). ``variants`` (``code``, ``paper``)
    are the Eq. 3 variants of the AN/AAN tests."""
    ours, paper_of = {}, {}
    for spec in specs:
        if test == "aan" and not runs[spec].aan:
            continue
        for variant in variants:
            label = T.display_name(spec) + (" [paper Eq. 3]" if variant == "paper" else "")
            ours[label] = runs[spec].scores(test, variant)
            if (model := T.paper_model_of(spec)[0]) is not None:
                paper_of[label] = model
    return ours, paper_of


def comparison(runs: dict, test: str, targets: dict, variants=("code",), digits: int = 3):
    """Every model run, each directly above the paper's row of the same model (or of the model
    it substitutes or stands in for), then the paper rows of the models not run. Under the
    paper row of a model run here (or substituted), our row of the code's Eq. 3, the one glued
    under the target keys (:func:`collect`), gets its cell verdicts (:func:`tables.verdict_row`)."""
    ours, paper_of = ours_for(runs, test, list(runs), variants)
    compared = [T.display_name(s) for s in runs if T.paper_slug(s) or s in T.SUBSTITUTES]
    frame = T.comparison_frame(test, ours, targets, list(runs), paper_of, compared)
    return style_table(frame, digits)


def collect(runs: dict, targets: dict) -> dict[str, float]:
    """Our values under the target keys of the paper model each run is (or substitutes)."""
    values = {}
    for spec, r in runs.items():
        model = T.paper_slug(spec) or T.SUBSTITUTES.get(spec)
        if model is None:
            continue
        for test in T.TESTS:
            if test == "aan" and not r.aan:
                continue
            values.update(T.target_values(model, test, r.scores(test), targets))
    return values


def minilm_comparison(results: dict) -> tuple[pd.DataFrame, dict[str, float]]:
    """Our MiniLM numbers beside 001's (:func:`compsem.report.compare` over the glued
    ``mod_minilm_*`` keys) and the counts ``mod_x_minilm_matched`` / ``mod_x_minilm_targets``.
    A run without MiniLM (e.g. ``models`` of other encoders only) has no such key: the table is
    empty and nothing is glued, so the claim on the counts is not evaluated rather than failed."""
    from compsem import report

    table = report.compare(results, "modifiers", [k for k in results if k.startswith("mod_minilm_")])
    if table.empty:
        return table, {}
    return table, {
        "mod_x_minilm_matched": int((table["verdict"] == "match").sum()),
        "mod_x_minilm_targets": len(table),
    }


NEAR_TIE = 1e-5
"""A decision of the tests (a difference of two cosine distances: Eq. 3's sides, Eq. 5's two
phrase pairs, Eq. 7's adjective and noun distance) within this of a tie can fall either way on
another machine or device. It is fifty times the largest difference of a MiniLM cosine between an
Intel and an AMD CPU under the chapters' numerics (1.8e-7, 200 STS3k sentences,
tests/fixtures/cross_cpu), to leave room for other devices' float32 kernels."""


def near_ties(results, variant: str = "code", eps: float = NEAR_TIE) -> tuple[int, float]:
    """``(count, smallest)`` of the decisions of one model's printed tests that lie within ``eps``
    of a tie, and the smallest margin of any of them: the AN and AAN tests (Eq. 3, ``variant`` as
    the compared scores, the margin of :func:`intersectivity.single_phrase`), the pair test
    (Eq. 5, every ordered pair of distinct adjectives on every noun pair, |d1 - d2|) and the
    non-subsectivity test (Eq. 7, the pull). Each near tie can move its cell by one decision."""
    margins = [results.an[variant]["margin"].to_numpy(float), results.ns["pull"].to_numpy(float)]
    if results.aan:
        margins.append(results.aan[variant]["margin"].to_numpy(float))
    d = results.pairs.distances
    distinct = ~np.eye(len(d), dtype=bool)
    margins.append((d[:, None, :] - d[None, :, :])[distinct].ravel())
    margins = np.abs(np.concatenate(margins))
    margins = margins[np.isfinite(margins)]
    return int((margins < eps).sum()), float(margins.min())


def near_tie_values(runs: dict, model: str = "minilm") -> dict[str, float]:
    """:func:`near_ties` of the run that is the paper's ``model`` (:func:`paper_model_spec`), as
    ``mod_x_<model>_near_ties`` and ``mod_x_<model>_min_margin``; empty without it."""
    spec = paper_model_spec(runs, model)
    if spec is None:
        return {}
    count, smallest = near_ties(runs[spec])
    return {f"mod_x_{model}_near_ties": count, f"mod_x_{model}_min_margin": smallest}


QUOTED_PAPER_KEYS = {
    "mod_x_paper_minilm_ns_nspl_t8": "mod_minilm_ns_nspl_001t8",
    "mod_x_paper_minilm_ns_nspr_t8": "mod_minilm_ns_nspr_001t8",
    "mod_x_paper_minilm_ns_nspr_t4": "mod_minilm_ns_nspr_001t4",
    "mod_x_paper_labse_aan_si_si_001": "mod_labse_aan_si_si_001t6",
    "mod_x_paper_labse_aan_si_si_004": "mod_labse_aan_si_si_004t6",
}
"""The printed numbers that the text beside the MiniLM comparison quotes: glued key -> target."""


def quoted_paper_values(targets: dict, keys: dict[str, str] | None = None) -> dict[str, float]:
    """The paper's number of each target of ``keys`` (``{glued key: target key}``, by default
    :data:`QUOTED_PAPER_KEYS`), read from the targets file, under its glued key, for the text."""
    return {key: targets[target]["paper"]
            for key, target in (QUOTED_PAPER_KEYS if keys is None else keys).items()}


def minilm_tolerances(targets: dict, model: str = "minilm") -> dict[str, float]:
    """The tolerance of ``model``'s targets in each table (``mod_x_tol_<version>t<table>``,
    e.g. ``mod_x_tol_001t8``), read from the targets file, for the text that explains them.
    Every target of one table has the same tolerance (it follows the table's printed
    precision); a table whose targets disagree raises."""
    by_table: dict[str, set[float]] = {}
    for key, target in targets.items():
        if key.startswith(f"mod_{model}_") and (table := key.rsplit("_", 1)[1])[:3].isdigit():
            by_table.setdefault(table, set()).add(float(target["tol"]))
    for table, tols in by_table.items():
        if len(tols) != 1:
            raise ValueError(f"{model} targets of {table} have different tolerances: {sorted(tols)}")
    return {f"mod_x_tol_{table}": tols.pop() for table, tols in sorted(by_table.items())}


PRINTED_TABLES = (("aan", "001", 6), ("pair", "001", 7), ("ns", "001", 8))
"""The four-decimal tables of 001 whose MiniLM cells :func:`printing_convention` reads."""


def _printed(value: float, decimals: int, rounding: str) -> Decimal:
    """``value`` at ``decimals`` decimals, rounded half up or truncated (``rounding``: a
    :mod:`decimal` mode), from its shortest decimal form, so that a share such as 0.88 is not
    truncated to 0.8799 by its binary representation."""
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=rounding)


def printing_convention(values: dict, targets: dict, model: str = "minilm",
                        tables=PRINTED_TABLES) -> tuple[dict[str, float], dict[str, str]]:
    """How the paper turned each of ``model``'s scores into its printed digits (001 Tables 6-8
    print four decimals; erratum 6 of the chapter): for each table of ``tables`` (``(test,
    version, table)``), over the cells whose target and our value (``values``, under the target
    key) both exist, ``mod_x_print_<version>t<table>_cells``; of those the cells where rounding
    (half up) and truncation print different digits, ``..._differ``; among them the cells the
    paper prints rounded, ``..._rounded``, truncated, ``..._truncated``, or neither,
    ``..._neither`` (ours off the printed value). The other cells fit both and decide nothing.
    Returns also the labels of the cells printed rounded and truncated among those that differ
    (``..._rounded_cells``, ``..._truncated_cells``; "none"), for
    :func:`compsem.report.glue_words`. A tolerance of one unit of the last printed digit covers
    both conventions: a rounded value is within half a unit of ours, a truncated one within one."""
    decimals_of = {(test, version, number): decimals
                   for test, layouts in T.TABLES.items()
                   for version, number, _, decimals in layouts}
    counts: dict[str, float] = {}
    words: dict[str, str] = {}
    for test, version, number in tables:
        decimals = decimals_of[(test, version, number)]
        prefix = f"mod_x_print_{version}t{number}"
        n = {"cells": 0, "differ": 0, "rounded": 0, "truncated": 0, "neither": 0}
        labels: dict[str, list[str]] = {"rounded": [], "truncated": []}
        for cell in T.CELLS[test]:
            key = T.target_key(model, test, cell, version, number)
            if key not in values or key not in targets:
                continue
            n["cells"] += 1
            rounded = _printed(values[key], decimals, ROUND_HALF_UP)
            truncated = _printed(values[key], decimals, ROUND_DOWN)
            if rounded == truncated:
                continue
            n["differ"] += 1
            printed = _printed(targets[key]["paper"], decimals, ROUND_HALF_UP)
            kind = {rounded: "rounded", truncated: "truncated"}.get(printed, "neither")
            n[kind] += 1
            if kind in labels:
                labels[kind].append(T.cell_label(cell))
        counts |= {f"{prefix}_{name}": count for name, count in n.items()}
        words |= {f"{prefix}_{kind}_cells": ", ".join(found) or "none"
                  for kind, found in labels.items()}
    return counts, words


def show_minilm_comparison(table: pd.DataFrame):
    """:func:`compsem.report.show_comparison` of :func:`minilm_comparison`, or a note when
    MiniLM was not run."""
    from IPython.display import Markdown

    from compsem import report

    if table.empty:
        return Markdown("*MiniLM was not run (parameter `models`): no number of it to compare.*")
    return report.show_comparison(table, "MiniLM numbers of 001 Tables 1-4 and 6-8")


def class_table(lex: Lexicon) -> tuple[pd.DataFrame, dict[str, int]]:
    """The five adjective classes (001 §3, Table 5; 004 Table 1): name, definition, how many
    adjectives the lexicon has (and 001 Table 5 counts), the words and their 004 synonyms, one
    row per class of :data:`CLASSES`; and the counts to compare with the paper's:
    ``mod_n_class_<class>``, ``mod_n_adjectives`` and ``mod_n_nouns``."""
    info = class_info()["classes"]
    sizes = lex.class_sizes()
    adjectives_of = lex.adjectives.groupby("cls")
    table = pd.DataFrame(
        {
            "class": [c["name"] for c in info],
            "definition": [c["definition"] for c in info],
            "adjectives": [sizes[c["code"]] for c in info],
            "001 Table 5": [c["count_2022"] for c in info],
            "words": [", ".join(adjectives_of.get_group(c)["word"]) for c in CLASSES],
            "004 synonyms": [", ".join(adjectives_of.get_group(c)["synonym"]) for c in CLASSES],
        },
        index=CLASSES,
    )
    counts = {f"mod_n_class_{T.cell_slug((c,))}": n for c, n in sizes.items()}
    counts |= {"mod_n_adjectives": len(lex.adjectives), "mod_n_nouns": len(lex.nouns)}
    return table, counts


def runs_table(runs: dict) -> pd.DataFrame:
    """What each model's run did (:func:`compsem.modifiers.experiment.run`): whether it ran the
    AAN test, how many strings it embedded, its seconds and its out-of-vocabulary words."""
    return pd.DataFrame(
        {
            "model": [T.display_name(s) for s in runs],
            "AAN test": [r.aan != {} for r in runs.values()],
            "strings embedded": [len(r.space) for r in runs.values()],
            "seconds (embedding and tests)": [round(r.seconds, 1) for r in runs.values()],
            "out-of-vocabulary words": [", ".join(r.space.oov) or "–" for r in runs.values()],
        }
    ).set_index("model")


def lowest_an(runs: dict) -> dict[str, float]:
    """The lowest class score of every run on the AN test (``mod_x_an_min_<spec>``)."""
    return {f"mod_x_an_min_{slug(s)}": float(min(r.scores("an").values())) for s, r in runs.items()}


def paper_an_min(targets: dict, model: str, version: str | None = None) -> float:
    """The lowest class score the paper prints for ``model`` on the AN test (001 Table 1, 004
    Table 2), in ``version`` (by default the model's own, :data:`tables.PAPER_MODELS`)."""
    return float(T.paper_row(model, "an", targets, version=version).min())


def synonym_counts(lex: Lexicon) -> dict[str, int]:
    """The 004 synonyms (§4.1.1 and Table 1: one synonym per adjective, "totaling 122
    adjectives") counted from the lexicon, words compared lower-cased as embedded:
    ``mod_x_n_synonym_entries`` (adjective and synonym entries, what the 122 count),
    ``mod_x_n_synonyms_distinct`` (distinct synonyms), ``mod_x_n_synonyms_in_lexicon``
    (synonyms that are adjectives of the lexicon themselves) and
    ``mod_n_adjectives_with_synonyms`` (distinct words among adjectives and synonyms)."""
    words = set(lex.adjectives["word"].str.lower())
    synonyms = lex.adjectives["synonym"].dropna().str.lower()
    return {
        "mod_x_n_synonym_entries": len(lex.adjectives) + len(synonyms),
        "mod_x_n_synonyms_distinct": synonyms.nunique(),
        "mod_x_n_synonyms_in_lexicon": len(set(synonyms) & words),
        "mod_n_adjectives_with_synonyms": len(words | set(synonyms)),
    }


# --------------------------------------------------------------------------- grids


def grid_of(scores: dict) -> np.ndarray:
    """Cell scores ``{(X, Y): v}`` as a 5 x 5 array (rows X, columns Y)."""
    return np.array([[scores.get((x, y), np.nan) for y in CLASSES] for x in CLASSES])


def paper_grid(model: str, test: str, targets: dict) -> np.ndarray:
    """The paper's full table of ``model`` for ``test`` as a 5 x 5 array."""
    row = T.paper_row(model, test, targets)
    return grid_of({c: row[T.cell_label(c)] for c in T.CELLS[test]})


def paper_model_spec(specs, model: str = "minilm") -> str | None:
    """The first of ``specs`` that *is* the paper's ``model`` (:func:`tables.paper_slug`: the
    packaged spec or its hub checkpoint), else None: the model of the analyses the chapter runs on
    the paper's model alone (the label-shuffle null, the per-noun spread)."""
    return next((spec for spec in specs if T.paper_slug(spec) == model), None)


def paper_values(spec: str, test: str, targets: dict) -> pd.Series | None:
    """The paper's printed cells of ``test`` (labelled as :func:`tables.cell_label`, from the
    full-precision table of its version: 001 Tables 6, 7 and 8 for MiniLM) for the paper model
    that ``spec`` *is* (:func:`tables.paper_slug`), the values a reproduced figure marks; None
    for a spec that is no paper model (a substitute or stand-in is compared in the tables only)
    or a model the paper prints nothing of for ``test``."""
    model = T.paper_slug(spec)
    if model is None:
        return None
    row = T.paper_row(model, test, targets)
    return None if row.isna().all() else row


def paper_panels(specs, test: str, targets: dict) -> dict[str, pd.Series]:
    """:func:`paper_values` of every spec that has them, by display name (the panel titles and
    ``model`` labels of the figures)."""
    out = {}
    for spec in specs:
        if (row := paper_values(spec, test, targets)) is not None:
            out[T.display_name(spec)] = row
    return out


def aan_panels(runs: dict, targets: dict) -> list[tuple[str, np.ndarray]]:
    """Ours beside the paper's Table 6 (MiniLM, both Eq. 3 variants; GloVe)."""
    panels = []
    if "minilm" in runs and runs["minilm"].aan:
        panels += [
            ("MiniLM, ours (code Eq. 3)", grid_of(runs["minilm"].scores("aan"))),
            ("MiniLM, 001 Table 6", paper_grid("minilm", "aan", targets)),
            ("MiniLM, ours (paper Eq. 3)", grid_of(runs["minilm"].scores("aan", "paper"))),
        ]
    if "mean:glove50" in runs and runs["mean:glove50"].aan:
        panels += [
            ("GloVe 50d, ours (code Eq. 3)", grid_of(runs["mean:glove50"].scores("aan"))),
            ("GloVe 300d, 001 Table 6", paper_grid("glove", "aan", targets)),
        ]
    return panels


def plot_grids(
    panels,
    vmin=0.6,
    vmax=1.0,
    cmap="viridis",
    label="Eq. 4 consistency",
    ylabel="first adjective",
    xlabel="second adjective",
    paper: dict[str, pd.Series] | None = None,
):
    """Heat maps of 5 x 5 grids side by side (seaborn ``heatmap``), values written in the
    cells, one colour bar for all. ``paper`` (panel title -> the paper's cells labelled as
    :func:`tables.cell_label`, e.g. :func:`paper_panels`): in that panel each cell the paper
    prints gets a :data:`compsem.plotting.PAPER` cross with the paper's value beside it, under
    ours (:func:`mark_paper_cells`)."""
    paper = paper or {}
    fig, axes = plt.subplots(
        1, len(panels), figsize=(3.2 * len(panels), 3.4), sharey=True, squeeze=False
    )
    for ax, (title, grid) in zip(axes[0], panels, strict=True):
        sns.heatmap(
            pd.DataFrame(grid, index=CLASSES, columns=CLASSES), vmin=vmin, vmax=vmax, cmap=cmap,
            annot=True, fmt=".2f", annot_kws={"fontsize": 7}, cbar=False, square=True, ax=ax,
        )  # fmt: skip
        if title in paper:
            mark_paper_cells(ax, paper[title])
        ax.tick_params(axis="x", rotation=45)
        ax.tick_params(axis="y", rotation=0)
        ax.set_title(title, fontsize=8)
    axes[0, 0].set_ylabel(ylabel)
    fig.supxlabel(xlabel, fontsize=9)
    fig.colorbar(axes[0, 0].collections[0], ax=axes[0], shrink=0.8, label=label)
    return fig


def mark_paper_cells(ax, row: pd.Series, digits: int = 2):
    """On a heat map of :func:`plot_grids`: for each cell ``(X, Y)`` (or ``X``) of ``row`` with a
    value, our value moved to the upper part of the cell and, below it, a
    :data:`compsem.plotting.PAPER` cross (in the colour of our value's text, legible on the
    cell) followed by the paper's value."""
    ours = {(round(t.get_position()[0], 3), round(t.get_position()[1], 3)): t for t in ax.texts}
    for label, value in row.items():
        if not np.isfinite(value):
            continue
        cell = tuple(label.strip("()").split(", "))
        i, j = CLASSES.index(cell[0]), CLASSES.index(cell[-1])
        text = ours.get((j + 0.5, i + 0.5))
        colour = text.get_color() if text is not None else "black"
        if text is not None:
            text.set_position((j + 0.5, i + 0.33))
        paper_marks(ax, [j + 0.22], [i + 0.72], label=None, s=12, linewidths=0.8, color=colour)
        ax.text(j + 0.34, i + 0.72, f"{value:.{digits}f}", fontsize=6, va="center", ha="left",
                color=colour)


def aan_summary(runs: dict) -> dict[str, float]:
    """Paper-literal minus code Eq. 3 on (S-I, S-I) for MiniLM, and per model the unweighted
    mean of the 9 AAN cells with an S-I adjective and of the 16 without."""
    values = {}
    if "minilm" in runs and runs["minilm"].aan:
        r = runs["minilm"]
        values["mod_x_aan_paper_minus_code_si_si"] = (
            r.scores("aan", "paper")[("S-I", "S-I")] - r.scores("aan")[("S-I", "S-I")]
        )
    for spec, r in runs.items():
        if not r.aan:
            continue
        cells = r.scores("aan")
        values[f"mod_x_aan_mean_with_si_{slug(spec)}"] = float(
            np.mean([v for c, v in cells.items() if "S-I" in c])
        )
        values[f"mod_x_aan_mean_no_si_{slug(spec)}"] = float(
            np.mean([v for c, v in cells.items() if "S-I" not in c])
        )
    return values


# --------------------------------------------------------------------------- pair and NS checks


def pair_checks(runs: dict, lex: Lexicon) -> tuple[pd.DataFrame, dict[str, float]]:
    """The pair test's construction (diagonal 0.5, complementary triangles; spaCy's shared
    vectors break ties) and how far it is a comparison of adjective norms."""
    values, deviations = {}, []
    for spec, r in runs.items():
        full = pair_test.scores(r.pairs).to_numpy()
        if not spec.endswith("spacy-md"):
            deviations += [np.abs(np.diag(full) - 0.5).max(), np.abs(full + full.T - 1).max()]
    values["mod_x_pair_diagonal_max_dev"] = float(max(deviations))
    if "mean:spacy-md" in runs:
        space = runs["mean:spacy-md"].space
        adj = lex.adjectives["word"].tolist()
        unit = space.unit[space.rows(adj)]
        same = np.triu(np.isclose(unit @ unit.T, 1.0, atol=1e-9), k=1) & (
            space.norm(adj)[:, None] > 0
        )
        values["mod_x_spacy_shared_adjective_vectors"] = int(same.sum())
        values["mod_x_spacy_pair_nspl_nspl"] = runs["mean:spacy-md"].scores("pair")[
            ("NS-Pl", "NS-Pl")
        ]
    agreement = {s: pair_test.norm_rule_agreement(r.pairs, r.space) for s, r in runs.items()}
    pooled = [v for s, v in agreement.items() if s.split(":")[0] in ("mean", "sum")]
    if pooled:
        values["mod_x_pair_norm_rule_agreement_pooled"] = min(pooled)
    spreads = [pair_test.norm_spread(runs[spec].space, runs[spec].pairs.adjectives)
               for spec in ("minilm", "mpnet") if spec in runs]
    if spreads:  # unit-length vectors: their norm rule has no untied pair (NaN, not glued)
        values["mod_x_transformer_norm_spread"] = max(spreads)
    table = pd.Series(
        {T.display_name(s): v for s, v in agreement.items()},
        name="adjective pairs where the majority of Eq. 5 = norm rule",
    ).to_frame()
    return table.round(3), values


def ns_norm_rule(runs: dict) -> tuple[pd.DataFrame, dict[str, float]]:
    """Share of AN phrases where Eq. 7 equals ``|a| > |n|``, for the pooled static models."""
    agreement = {}
    for spec, r in runs.items():
        if spec.split(":")[0] in ("mean", "sum"):
            rule = subsectivity.norm_rule(r.space, r.an_phrases)
            agreement[T.display_name(spec)] = float(np.mean(rule == r.ns["holds"].to_numpy()))
    values = {"mod_x_norm_rule_agreement_min": min(agreement.values())} if agreement else {}
    name = "share of AN phrases where Eq. 7 = norm rule"
    return pd.Series(agreement, name=name, dtype=float).to_frame(), values


def glove_pattern(run, targets: dict) -> tuple[pd.DataFrame, dict[str, float]]:
    """Rank correlation of GloVe 50d's cells with the paper's GloVe 300d cells, per test (the
    pair test's constant cells left out)."""
    rows = []
    for test in T.TESTS:
        if test == "aan" and not run.aan:
            continue
        ours = T.as_row(run.scores(test), test)
        paper = T.paper_row("glove", test, targets)
        varying = (
            paper.index[(paper.nunique() > 1) & (paper != 0.5)] if test == "pair" else paper.index
        )
        rho = (
            spearman(ours[varying], paper[varying])
            if ours[varying].nunique() > 1
            else np.nan
        )
        rows.append(
            {
                "test": test,
                "cells": len(varying),
                "Spearman rho, ours vs paper": rho,
                "mean |difference|": float(np.abs(ours - paper).mean()),
            }
        )
    frame = pd.DataFrame(rows).set_index("test")
    values = {
        f"mod_x_glove_pattern_rho_{t}": float(frame.loc[t, "Spearman rho, ours vs paper"])
        for t in ("ns", "pair", "aan")
        if t in frame.index
    }
    return frame.round(3), values


def paper_ns_highest(targets: dict) -> tuple[pd.DataFrame, dict[str, float]]:
    """004 Table 5/8: the class with the highest non-subsectivity score of each model."""
    rows = {}
    for model in (
        "dpr_multiset",
        "labse",
        "specter",
        "te3_small",
        "nv_embed_v2",
        "stella",
        "glove",
        "word2vec",
    ):
        row = T.paper_row(model, "ns", targets, version="004", table=8)
        rows[T.PAPER_MODELS[model]["label"]] = {**row.to_dict(), "highest": row.idxmax()}
    frame = pd.DataFrame(rows).T
    frame["highest is NS"] = frame["highest"].str.startswith("NS")
    return frame, {"mod_x_004_models_with_ns_highest": int(frame["highest is NS"].sum())}


def te3_tables(targets: dict) -> tuple[pd.DataFrame, dict[str, float]]:
    """TE3-small in 004 Table 3 against the same cells of Table 6."""
    frame = (
        pd.DataFrame(
            {
                f"004 Table {n}": T.paper_row("te3_small", "aan", targets, version="004", table=n)
                for n in (3, 6)
            }
        )
        .head(5)
        .T
    )
    gap = float((frame.loc["004 Table 3"] - frame.loc["004 Table 6"]).abs().max())
    return frame, {"mod_x_te3_table3_minus_table6_max": gap}


# --------------------------------------------------------------------------- intervals and tests


def ns_intervals(
    runs: dict, specs, lex: Lexicon, n_boot: int, seed: int, level: float
) -> pd.DataFrame:
    """Eq. 8 per class with the Wilson interval (phrases independent) and the bootstrap over
    adjectives within class and nouns (:func:`statistics.bootstrap_classes`)."""
    labels = lex.adjectives["cls"].to_numpy()
    sizes = lex.class_sizes()
    rows = []
    for spec in specs:
        grid = st.adjective_grid(runs[spec].an_phrases, runs[spec].ns["holds"], lex)
        boot = st.bootstrap_classes(grid, labels, n_boot=n_boot, seed=seed, level=level)
        k = np.nansum(grid, axis=1) @ (labels[:, None] == np.array(CLASSES)[None, :])
        n = np.array([sizes[c] * len(lex.nouns) for c in CLASSES])
        low, high = wilson_interval(k, n, level)
        for i, c in enumerate(CLASSES):
            rows.append(
                {
                    "model": T.display_name(spec),
                    "class": c,
                    "score": boot.loc[c, "score"],
                    "Wilson low": low[i],
                    "Wilson high": high[i],
                    "bootstrap low": boot.loc[c, "low"],
                    "bootstrap high": boot.loc[c, "high"],
                }
            )
    return pd.DataFrame(rows)


INTERVALS = {
    "Wilson": ("Wilson (phrases independent)", "o"),
    "bootstrap": ("bootstrap (adjectives, nouns)", "s"),
    "t": ("Student-t (adjectives)", "D"),
}
"""The intervals :func:`plot_intervals` draws where a table has them (columns ``<name> low``
and ``<name> high``): legend label and marker. :func:`ns_intervals` gives the first two, the
synonym control (:func:`synonym_control`) the third."""


def plot_intervals(frame: pd.DataFrame, ylabel: str = "Eq. 8 consistency", reference=None,
                   paper: dict[str, pd.Series] | None = None, paper_label: str = "paper"):
    """Scores with the intervals of :data:`INTERVALS` the table has (circles: Wilson, squares:
    bootstrap, diamonds: Student-t), one panel per model; a dotted horizontal line at
    ``reference`` (default 0.5). ``paper``
    (model label -> the paper's value per class, e.g. :func:`paper_panels`): a
    :data:`compsem.plotting.PAPER` cross at each class of that model's panel, between its two
    dots, legend ``paper_label``."""
    paper = paper or {}
    intervals = INTERVALS
    long = pd.concat(
        [
            frame[["model", "class", "score"]].assign(
                interval=label, low=frame[f"{what} low"], high=frame[f"{what} high"]
            )
            for what, (label, _) in intervals.items()
            if f"{what} low" in frame and frame[f"{what} low"].notna().any()
        ],
        ignore_index=True,
    )
    models = frame["model"].unique()
    fig, axes = plt.subplots(
        1, len(models), figsize=(3.4 * len(models), 3.4), sharey=True, squeeze=False
    )
    for ax, model in zip(axes[0], models, strict=True):
        at = interval_dots(
            ax, long[long["model"] == model], "class", "score", "low", "high", hue="interval",
            orient="v", dodge=0.24, order=list(dict.fromkeys(frame["class"])),
            hue_order=[label for label, _ in intervals.values() if label in set(long["interval"])],
            markers={label: marker for label, marker in intervals.values()},
        )  # fmt: skip
        if model in paper:
            row = paper[model]
            paper_marks(ax, list(at.values()), [row.get(c, np.nan) for c in at], label=paper_label)
        ax.set_title(model, fontsize=9)
        ax.axhline(0.5 if reference is None else reference, color="black", lw=0.6, ls=":")
    axes[0, 0].set_ylabel(ylabel)
    axes[0, 0].legend(fontsize=7, loc="lower left")
    marked = [ax for ax, model in zip(axes[0], models, strict=True) if model in paper]
    if marked and marked[0] is not axes[0, 0]:
        marked[0].legend(fontsize=7, loc="lower left")
    return fig


def interval_width_ratio(frame: pd.DataFrame) -> float:
    """Median over classes and models of bootstrap width / Wilson width."""
    ratio = (frame["bootstrap high"] - frame["bootstrap low"]) / (
        frame["Wilson high"] - frame["Wilson low"]
    )
    return float(ratio.median())


def _holm_counts(p_holm) -> tuple[int, int]:
    """``(tested, rejected)`` of a family of Holm-adjusted p-values (:func:`compsem.stats.holm`):
    how many are not NaN, and how many reject at :data:`compsem.stats.ALPHA`
    (:func:`compsem.stats.rejects`)."""
    p_holm = pd.Series(p_holm)
    return int(p_holm.notna().sum()), int(rejects(p_holm).sum())


def class_differences(runs: dict, specs, lex: Lexicon, n_perm: int, seed: int):
    """Permutation tests of "no difference between classes" (:func:`experiment.
    class_difference_tests`) for every model and test, Holm-adjusted per test over the models.
    Glues ``mod_x_p_<test>_<spec>`` (raw) and ``mod_x_padj_<test>_<spec>`` (Holm), and per
    test how many models were tested (``mod_x_perm_models_<test>``) and how many of them the
    test rejects at :data:`compsem.stats.ALPHA` after Holm (``mod_x_perm_rejected_<test>``)."""
    from compsem.modifiers import experiment

    frames = []
    for spec in specs:
        frame = experiment.class_difference_tests(runs[spec], lex, n_perm=n_perm, seed=seed)
        frames.append(frame.rename_axis("test").reset_index().assign(model=spec))
    table = pd.concat(frames, ignore_index=True)
    table["p_holm"] = table.groupby("test")["p_perm"].transform(lambda p: st.holm(p.to_numpy()))
    values = {}
    for row in table.itertuples():
        values[f"mod_x_p_{row.test}_{slug(row.model)}"] = float(row.p_perm)
        values[f"mod_x_padj_{row.test}_{slug(row.model)}"] = float(row.p_holm)
    for test, group in table.groupby("test"):
        values[f"mod_x_perm_models_{test}"], values[f"mod_x_perm_rejected_{test}"] = _holm_counts(group["p_holm"])
    table["model"] = table["model"].map(T.display_name)
    return table.set_index(["test", "model"]).sort_index(level=0, sort_remaining=False), values


def _one_sided(
    runs: dict,
    specs,
    statistic_of,
    lex: Lexicon,
    n_perm: int,
    seed: int,
    alternative: str,
    key: str,
):
    labels = lex.adjectives["cls"].to_numpy()
    rows = []
    for spec in specs:
        test = st.permutation_test(statistic_of(runs[spec]), labels, n_perm, seed, alternative)
        rows.append({"spec": spec, "difference": test["observed"], "p": test["p_value"]})
    frame = pd.DataFrame(rows, columns=["spec", "difference", "p"])  # no rows: no model ran it
    frame["p_holm"] = st.holm(frame["p"].to_numpy())
    values = {}
    for row in frame.itertuples():
        values[f"mod_x_{key}_diff_{slug(row.spec)}"] = float(row.difference)
        values[f"mod_x_{key}_p_{slug(row.spec)}"] = float(row.p)
        values[f"mod_x_{key}_padj_{slug(row.spec)}"] = float(row.p_holm)
    if len(frame):  # how many models were tested and how many the test rejects after Holm
        values[f"mod_x_{key}_models"], values[f"mod_x_{key}_rejected"] = _holm_counts(frame["p_holm"])
    frame.index = frame.pop("spec").map(T.display_name)
    return frame, values


def ns_direction(runs: dict, specs, lex: Lexicon, n_perm: int, seed: int):
    """One-sided permutation test that non-subsective adjectives (NS-Pl, NS-Pr) pull the phrase
    towards themselves more than subsective ones (S-I, S-NI), as §3.5 of both versions
    predicts; Holm over the models. Keys ``mod_x_nsdir_{diff,p,padj}_<spec>``, and
    ``mod_x_nsdir_models`` / ``mod_x_nsdir_rejected`` (models tested, rejected at
    :data:`compsem.stats.ALPHA` after Holm)."""

    def statistic_of(r):
        grid = st.adjective_grid(r.an_phrases, r.ns["holds"], lex)
        return st.contrast(grid, ["NS-Pl", "NS-Pr"], ["S-I", "S-NI"])

    return _one_sided(runs, specs, statistic_of, lex, n_perm, seed, "greater", "nsdir")


def aan_drop(runs: dict, specs, lex: Lexicon, n_perm: int, seed: int):
    """001 §4.2.1: AAN scores drop "especially when both adjectives are not intersective".
    One-sided permutation test that the ordered adjective pairs without an S-I adjective score
    lower than those with one (:func:`statistics.pair_group_contrast`, code Eq. 3), Holm over
    the models run on the AAN test. Keys ``mod_x_aandrop_{diff,p,padj}_<spec>``, and
    ``mod_x_aandrop_models`` / ``mod_x_aandrop_rejected`` (models tested, rejected at
    :data:`compsem.stats.ALPHA` after Holm) when a model ran the AAN test."""

    def statistic_of(r):
        grid = st.adjective_grid(r.aan_phrases, r.aan["code"]["holds"], lex)
        return st.pair_group_contrast(*st.pair_matrix(grid), group="S-I")

    specs = [s for s in specs if runs[s].aan]
    return _one_sided(runs, specs, statistic_of, lex, n_perm, seed, "less", "aandrop")


# --------------------------------------------------------------------------- null bands


def null_bands(run, lex: Lexicon, n_perm: int, seed: int, level: float) -> dict:
    """The label-shuffle null of the pair cells (S-I, Y) and of the Eq. 8 classes for one
    model: observed scores and the central ``level`` band of the shuffled scores; for the pair
    cells also the lower end of the band at Bonferroni's level for the
    :data:`UNION_FAMILIES` ``pair_below_null`` (``pair_low_bonf<k>``)."""
    labels = lex.adjectives["cls"].to_numpy()
    weighted = run.pairs.weighted_holds("per_noun")
    W = 1.0 - np.eye(len(labels))
    pair_null = st.label_shuffle_null(
        lambda lab: st.cell_scores(weighted, W, lab), labels, n_perm, seed
    )
    grid = st.adjective_grid(run.an_phrases, run.ns["holds"], lex)
    ns_null = st.label_shuffle_null(lambda lab: st.class_scores(grid, lab), labels, n_perm, seed)
    alpha = (1 - level) / 2
    (k,) = UNION_FAMILIES["pair_below_null"]
    return {
        "pair": st.cell_scores(weighted, W, labels)[0],
        "pair_low": np.quantile(pair_null[:, 0, :], alpha, axis=0),
        f"pair_low_bonf{k}": np.quantile(pair_null[:, 0, :], (1 - bonferroni_level(k, 1 - level)) / 2,
                                         axis=0),
        "pair_high": np.quantile(pair_null[:, 0, :], 1 - alpha, axis=0),
        "ns": st.class_scores(grid, labels),
        "ns_low": np.quantile(ns_null, alpha, axis=0),
        "ns_high": np.quantile(ns_null, 1 - alpha, axis=0),
    }


def null_values(bands: dict) -> dict[str, float]:
    """How many of the four off-diagonal (S-I, Y) cells leave the band (in all, above it: S-I
    keeps its phrases closer than chance, below it: the other way), and its half-widths; and
    how many lie below the band at Bonferroni's level over the four
    (``mod_x_pair_si_cells_below_null_bonf4``: some cell reversed beyond chance, a union)."""
    above, below = bands["pair"] > bands["pair_high"], bands["pair"] < bands["pair_low"]
    (k,) = UNION_FAMILIES["pair_below_null"]
    below_family = bands["pair"] < bands[f"pair_low_bonf{k}"]
    half = (bands["pair_high"] - bands["pair_low"])[1:] / 2
    return {
        f"mod_x_pair_si_cells_below_null_bonf{k}": int(below_family[1:].sum()),
        "mod_x_pair_si_cells_outside_null": int((above | below)[1:].sum()),
        "mod_x_pair_si_cells_above_null": int(above[1:].sum()),
        "mod_x_pair_si_cells_below_null": int(below[1:].sum()),
        "mod_x_pair_null_halfwidth_min": float(half.min()),
        "mod_x_pair_null_halfwidth_max": float(half.max()),
    }


def plot_null(bands: dict, name: str, paper: dict[str, pd.Series | None] | None = None,
              paper_label: str = "paper"):
    """Observed scores (dots) against the label-shuffle band, pair cells and Eq. 8 classes.
    ``paper`` (``{"pair": ..., "ns": ...}``, each the paper's cells labelled as
    :func:`tables.cell_label`, e.g. :func:`paper_values`, or None): the paper's values of the
    cells shown as :data:`compsem.plotting.PAPER` crosses, legend ``paper_label``."""
    paper = paper or {}
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
    x = np.arange(5)
    for ax, what, ticks, ylabel in (
        (axes[0], "pair", [f"(S-I, {c})" for c in CLASSES], "Eq. 6 consistency"),
        (axes[1], "ns", CLASSES, "Eq. 8 consistency"),
    ):
        ax.fill_between(
            x, bands[f"{what}_low"], bands[f"{what}_high"], alpha=0.3, label="label-shuffle null"
        )
        ax.plot(x, bands[what], "o-", label="observed")
        if paper.get(what) is not None:
            paper_marks(ax, x, [paper[what].get(t, np.nan) for t in ticks], label=paper_label)
        ax.set_xticks(x, ticks, rotation=20 if what == "pair" else 0)
        ax.set(
            ylabel=ylabel,
            title=f"{name}: {'pair cells (S-I, Y)' if what == 'pair' else 'non-subsectivity'}",
        )
    axes[0].legend(fontsize=8)
    if paper.get("ns") is not None and paper.get("pair") is None:
        axes[1].legend(fontsize=8)
    return fig


# --------------------------------------------------------------------------- spread over nouns


def plot_per_noun(run, lex: Lexicon):
    """Eq. 8 per class on each noun alone, and the pair cells over the 66 noun pairs."""
    labels = lex.adjectives["cls"].to_numpy()
    per_noun = st.per_noun(
        st.adjective_grid(run.an_phrases, run.ns["holds"], lex), labels, lex.nouns["word"].tolist()
    )
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [1, 1.4]})
    sns.heatmap(
        per_noun, vmin=0, vmax=1, cmap="RdBu_r", ax=axes[0], cbar_kws={"shrink": 0.8},
        yticklabels=True,
    )  # fmt: skip
    axes[0].tick_params(axis="y", labelsize=8, rotation=0)
    axes[0].set(title="Eq. 8 per noun", xlabel="", ylabel="")
    axes[0].title.set_fontsize(9)
    spread = pd.DataFrame(
        {
            T.cell_label(c): pair_test.per_noun_pair(run.pairs, c)
            for c in T.PAIR_CELLS
            if c[0] != c[1]
        }
    )
    axes[1].boxplot(spread.to_numpy(), tick_labels=spread.columns)
    axes[1].tick_params(axis="x", rotation=60, labelsize=7)
    axes[1].set(title="Eq. 6 per noun pair (66 pairs)", ylabel="consistency")
    return fig


def per_noun_values(run, lex: Lexicon) -> dict[str, float]:
    """Largest per-noun standard deviation of an Eq. 8 class; largest change of a pair cell
    when every noun pair gets the same weight."""
    labels = lex.adjectives["cls"].to_numpy()
    per_noun = st.per_noun(
        st.adjective_grid(run.an_phrases, run.ns["holds"], lex), labels, lex.nouns["word"].tolist()
    )
    by = {a: T.as_row(run.scores("pair", aggregation=a), "pair") for a in pair_test.AGGREGATIONS}
    return {
        "mod_x_ns_per_noun_sd_max": float(per_noun.std().max()),
        "mod_x_pair_aggregation_max_diff": float((by["per_noun"] - by["pairs"]).abs().max()),
    }


# --------------------------------------------------------------------------- ablations


def _summary_row(r) -> dict[str, float]:
    return {
        **{f"AN {c[0]}": v for c, v in r.scores("an").items()},
        **{f"NS {c[0]}": v for c, v in r.scores("ns").items()},
        "pair (S-I, S-NI)": r.scores("pair")[("S-I", "S-NI")],
        "pair (S-I, A)": r.scores("pair")[("S-I", "A")],
    }


def pooling_table(runs: dict, pooling_models) -> tuple[pd.DataFrame, dict[str, float]]:
    """Each backbone's mean pooling beside its first-token pooling (``<base>:cls``)."""
    rows, values = {}, {}
    for spec in pooling_models:
        for s in (spec.split(":")[0], spec):
            if s in runs:
                rows[T.display_name(s)] = _summary_row(runs[s])
        if spec in runs:
            values[f"mod_x_cls_an_overall_{slug(spec.split(':')[0])}"] = float(
                runs[spec].an["code"]["holds"].mean()
            )
    return pd.DataFrame(rows).T.round(3), values


def largest_change(before, after, test: str) -> tuple[str, float, float]:
    """The cell of ``test`` whose score changes most, in absolute value, from ``before`` to
    ``after`` (scores keyed by cell tuple), as its label (:func:`tables.cell_label`) and its two
    scores; on a tie the first in the paper's column order. ValueError when no cell has both."""
    b, a = T.as_row(before, test), T.as_row(after, test)
    change = (a - b).abs().dropna()
    if change.empty:
        raise ValueError(f"no cell of the {test} test has a score before and after")
    label = change.idxmax()
    return label, float(b[label]), float(a[label])


def template_table(runs: dict, templated: dict
                   ) -> tuple[pd.DataFrame, dict[str, float], dict[str, str]]:
    """Bare strings against the same models with every string inside the template. Glues per
    model the templated NS-Pr score and lowest AN class (``mod_x_template_ns_nspr_<spec>``,
    ``mod_x_template_an_min_<spec>``) and, of a non-subsectivity class and of a pair cell, the
    largest change, template minus bare (:func:`largest_change`): its size
    (``mod_x_template_{ns,pair}_max_change_<spec>``, an absolute value) and the scores of that
    class or cell, bare and in the template (``..._max_change_bare_<spec>``,
    ``..._max_change_template_<spec>``). Returns also the label of that class or cell, for
    :func:`compsem.report.glue_words` (``mod_x_template_{ns,pair}_max_change_cell_<spec>``)."""
    rows, values, words = {}, {}, {}
    for spec, r in templated.items():
        rows[f"{T.display_name(spec)}, bare"] = _summary_row(runs[spec])
        rows[f"{T.display_name(spec)}, template"] = _summary_row(r)
        values[f"mod_x_template_ns_nspr_{slug(spec)}"] = r.scores("ns")[("NS-Pr",)]
        values[f"mod_x_template_an_min_{slug(spec)}"] = min(r.scores("an").values())
        for test in ("ns", "pair"):
            label, bare, in_template = largest_change(runs[spec].scores(test), r.scores(test), test)
            key = f"mod_x_template_{test}_max_change"
            values[f"{key}_{slug(spec)}"] = abs(in_template - bare)
            values[f"{key}_bare_{slug(spec)}"] = bare
            values[f"{key}_template_{slug(spec)}"] = in_template
            words[f"{key}_cell_{slug(spec)}"] = label
    return pd.DataFrame(rows).T.round(3), values, words


def synonym_control(runs: dict, specs, lex: Lexicon, level: float):
    """The 004 synonym control (:mod:`compsem.modifiers.synonyms`) per class, with its Student-t
    interval over the class's adjectives at ``level`` (:func:`statistics.t_classes`, for the
    figure: the interval of the test, and the one :func:`synonym_equivalence` decides on), and
    a test of "the class scores 0.5": a one-sample t-test of the per-adjective scores against
    0.5 (scipy.stats.ttest_1samp; the adjective is the unit), Holm-adjusted over every class of
    every model (one family).
    Values per model: ``mod_x_syn_classes_off_half_<spec>`` (classes rejected at :data:`compsem.stats.ALPHA` after
    Holm; over all models ``mod_x_syn_classes_off_half``, of ``mod_x_syn_classes_tested``
    classes tested), ``mod_x_syn_max_class_dev_<spec>`` (largest |class score - 0.5|),
    ``mod_x_syn_adj_dev_<spec>`` (mean |per-adjective score - 0.5|) beside
    ``mod_x_pair_si_dev_<spec>`` (mean |(S-I, Y) pair cell - 0.5|, Y != S-I)."""
    labels = lex.adjectives["cls"].to_numpy()
    rows, values = [], {}
    for spec in specs:
        control = runs[spec].synonym
        if control is None:
            continue
        boot = st.t_classes(control.grid(), labels, level=level, bounds=PROPORTION)
        per_adj = control.per_adjective().to_numpy()
        for c in CLASSES:
            p = p_score_is_half(per_adj[labels == c])
            rows.append(
                {
                    "model": T.display_name(spec),
                    "spec": spec,
                    "class": c,
                    "score": boot.loc[c, "score"],
                    "t low": boot.loc[c, "low"],
                    "t high": boot.loc[c, "high"],
                    "p (score = 0.5)": p,
                }
            )
        pair_cells = np.array([runs[spec].scores("pair")[("S-I", c)] for c in CLASSES[1:]])
        values.update(
            {
                f"mod_x_syn_max_class_dev_{slug(spec)}": float((boot["score"] - 0.5).abs().max()),
                f"mod_x_syn_adj_dev_{slug(spec)}": float(np.abs(per_adj - 0.5).mean()),
                f"mod_x_pair_si_dev_{slug(spec)}": float(np.abs(pair_cells - 0.5).mean()),
            }
        )
    frame = pd.DataFrame(rows)
    frame["p_holm"] = st.holm(frame["p (score = 0.5)"].to_numpy())
    for spec, f in frame.groupby("spec"):
        values[f"mod_x_syn_classes_off_half_{slug(spec)}"] = _holm_counts(f["p_holm"])[1]
    if len(frame):
        tested, rejected = _holm_counts(frame["p_holm"])
        values["mod_x_syn_classes_off_half"] = rejected
        values["mod_x_syn_classes_tested"] = tested
    return frame.drop(columns="spec"), values


def p_score_is_half(scores) -> float:
    """p-value of "the class scores 0.5" on the synonym control (Eq. 5 with a2 = syn(a1)):
    the one-sample t-test of the per-adjective scores against 0.5 (scipy.stats.ttest_1samp).
    Where every adjective of the class scores the same the t statistic has no variance to
    divide by; its limit decides: every score at 0.5 is no departure (p = 1), every score at the
    same other value a departure of every adjective (p = 0). Fewer than two adjectives: no test
    (NaN, which :func:`statistics.holm` leaves out of the family)."""
    scores = np.asarray(scores, dtype=float)
    if scores.size < 2:
        return float("nan")
    if np.ptp(scores) > 0:
        return float(sps.ttest_1samp(scores, 0.5).pvalue)
    return 1.0 if scores[0] == 0.5 else 0.0


# --------------------------------------------------------------------------- the claims' decision quantities
#
# The Findings decide each claim by the kind of claim it is (data/claims/README.md): a
# difference by an interval, "no difference" by an equivalence test (the interval at
# 1 - 2 alpha inside a margin declared from the paper, two one-sided tests), so these functions
# glue intervals beside the permutation p-values above. Every interval resamples adjectives
# within their class (:func:`statistics.bootstrap_statistic`), the unit of the permutation tests.


TABLE1_MODELS = tuple(m for m, info in T.PAPER_MODELS.items() if info["version"] == "001")
"""The models of 001 Table 1 (sBERT, DistilRoBERTa, T5, DPR, LaBSE, MiniLM, GloVe, Word2Vec)."""


def no_difference_margin(targets: dict) -> dict[str, float]:
    """The margin of "no difference between adjective classes": the largest spread (largest
    minus smallest class score) of a row of 001 Table 1, the table of which 001 §4.2.1 says
    "there is no perceptible differences between adjective categories", i.e. the largest
    difference between classes the paper calls imperceptible. It is sBERT's row (0.95 to 1.0);
    DPR's (0.98 to 1.0) is the only other row not flat at the printed two decimals."""
    spreads = [T.paper_row(m, "an", targets, version="001", table=1) for m in TABLE1_MODELS]
    spreads = [float(row.max() - row.min()) for row in spreads if row.notna().any()]
    return {"mod_x_margin_no_difference": max(spreads)}


SBERT_RANKING_001 = ("S-I", "S-NI", "NS-Pr", "NS-Pl", "A")
"""001 §4.2.2: "sBERT would sort adjectives according to the following order (from more
intersective to less intersective): S-I > S-NI > NS-Pr > NS-Pl > A"."""


def paper_ranking_check(targets: dict, model: str = "sbert",
                        ranking=SBERT_RANKING_001) -> tuple[pd.DataFrame, dict[str, float]]:
    """The ranking 001 §4.2.2 gives for ``model`` against the model's own Eq. 6 cells of 001
    Table 7: for each of the ten pairs of classes X before Y in ``ranking``, the printed cell
    (X, Y) (or 1 - (Y, X), the table's upper triangle, since (Y, X) = 1 - (X, Y)) orders X
    above Y when it exceeds 0.5. Glues how many orderings the table contradicts and the least
    and largest distance from 0.5 of the contradicting cells (``mod_x_<model>_ranking_*``)."""
    row = T.paper_row(model, "pair", targets, version="001", table=7)
    order = {c: i for i, c in enumerate(CLASSES)}
    rows = []
    for i, x in enumerate(ranking):
        for y in ranking[i + 1:]:
            first, second = sorted((x, y), key=order.get)
            cell = float(row[T.cell_label((first, second))])
            x_over_y = cell if first == x else 1.0 - cell
            rows.append({"ranked above": x, "ranked below": y,
                         "Table 7 cell": T.cell_label((first, second)), "printed": cell,
                         "Table 7 orders": f"{x} > {y}" if x_over_y > 0.5 else f"{y} > {x}",
                         "agrees": x_over_y > 0.5})
    frame = pd.DataFrame(rows)
    wrong = frame.loc[~frame["agrees"], "printed"]
    dev = (wrong - 0.5).abs()
    return frame, {
        f"mod_x_{model}_ranking_contradicted": int(len(wrong)),
        f"mod_x_{model}_ranking_pairs": int(len(frame)),
        f"mod_x_{model}_ranking_contradicted_min_dev": float(dev.min()) if len(dev) else 0.0,
        f"mod_x_{model}_ranking_contradicted_max_dev": float(dev.max()) if len(dev) else 0.0,
    }


def _test_matrices(run, lex: Lexicon) -> dict:
    """Per test of a run, a function of resampled adjective indices giving the class (or cell)
    scores: AN (Eq. 4, code variant), AAN (Eq. 4 on the 25 cells) when run, pairs (Eq. 6, the
    authors' per-first-noun weighting), non-subsectivity (Eq. 8)."""
    labels = lex.adjectives["cls"].to_numpy()
    out = {}
    grid = st.adjective_grid(run.an_phrases, run.an["code"]["holds"], lex)
    out["an"] = lambda idx, g=grid: st.class_scores(g[idx], labels)
    if run.aan:
        S, W = st.pair_matrix(st.adjective_grid(run.aan_phrases, run.aan["code"]["holds"], lex))
        out["aan"] = lambda idx, S=S, W=W: st.cell_scores(*st.pair_resampled(S, W, idx), labels)
    S, W = run.pairs.weighted_holds("per_noun"), 1.0 - np.eye(len(labels))
    out["pair"] = lambda idx, S=S, W=W: st.cell_scores(*st.pair_resampled(S, W, idx), labels)
    ns = st.adjective_grid(run.an_phrases, run.ns["holds"], lex)
    out["ns"] = lambda idx, g=ns: st.class_scores(g[idx], labels)
    return out


def class_spread(runs: dict, specs, lex: Lexicon, n_boot: int, seed: int, alpha: float = 0.05,
                 n_perm: int = 0):
    """Equivalence test of "no difference between adjective classes", test by test: the spread
    (largest minus smallest class or cell score, :func:`statistics.spread`) with its
    ``1 - 2 alpha`` bootstrap interval over adjectives, the basic (reverse percentile) interval
    because resampling inflates a spread (on MiniLM's 25 AAN cells the resampled spreads
    average nearly twice the observed one), cut at 0, below which a spread cannot lie (the
    basic interval's reflection can reach there; cutting it keeps its coverage). The percentile
    interval is not used: it carries the whole upward bias of the resampled spreads, so its
    lower end lies above the observed spread's noise floor, and above a small margin, even for
    a model whose classes do not differ (class labels shuffled). The claim holds on a test when the upper
    end lies within the margin (:func:`no_difference_margin`) and fails when the lower end lies
    beyond it. Keys ``mod_x_spread_<test>_<spec>`` and ``_low`` / ``_high``; the upper end
    when the equivalence test is one of a union of k (:data:`UNION_FAMILIES` ``spread``: each
    test at ``alpha / k``, the interval at ``1 - 2 alpha / k``), ``_bonf<k>_high``.

    With ``n_perm`` > 0, also the spread that a model whose classes do not differ shows: its
    ``alpha`` quantile over ``n_perm`` shuffles of the class labels of the adjectives (the
    noise floor of the statistic, which a margin below it cannot be told from), keys
    ``mod_x_spread_null_<test>_<spec>``.

    Per test, ``mod_x_ceiling_<test>``: how many of the models score 1 in every class (cell), a
    ceiling at which no difference can show."""
    labels = lex.adjectives["cls"].to_numpy()
    rows, values = [], {}
    for spec in specs:
        for test, scores_of in _test_matrices(runs[spec], lex).items():
            key = f"mod_x_ceiling_{test}"
            cells = np.asarray(scores_of(np.arange(len(labels))), dtype=float)
            at_ceiling = bool(np.all(cells[np.isfinite(cells)] == 1.0))
            values[key] = values.get(key, 0) + int(at_ceiling)
            observed, draws = st.statistic_draws(
                lambda idx, f=scores_of: st.spread(f(idx)), labels, n_boot, seed)
            low, high = st.draws_interval(observed, draws, 1 - 2 * alpha, method="basic")
            low = max(low, 0.0)
            key = f"mod_x_spread_{test}_{slug(spec)}"
            values.update({key: observed, f"{key}_low": low, f"{key}_high": high})
            for k in UNION_FAMILIES["spread"]:
                values[f"{key}_bonf{k}_high"] = st.draws_interval(
                    observed, draws, bonferroni_level(k, 2 * alpha), method="basic")[1]
            row = {"test": test, "model": T.display_name(spec), "spread": observed,
                   "low": low, "high": high}
            if n_perm > 0:
                # shuffling the labels = reading the adjectives in a permuted order (no repeats)
                rng = np.random.default_rng(seed)
                null = [st.spread(scores_of(rng.permutation(len(labels)))) for _ in range(n_perm)]
                row["null"] = values[f"mod_x_spread_null_{test}_{slug(spec)}"] = float(
                    np.quantile(null, alpha))
            rows.append(row)
    frame = pd.DataFrame(rows).set_index(["test", "model"]).sort_index(level=0, sort_remaining=False)
    return frame, values


def contrast_intervals(runs: dict, specs, lex: Lexicon, n_boot: int, seed: int, level: float):
    """Intervals over adjectives of the differences the claims are about: the AAN drop (pairs
    without an S-I adjective minus pairs with one, code Eq. 3; ``mod_x_aandrop_{low,high}_``),
    the non-subsectivity direction ((NS-Pl + NS-Pr) minus (S-I + S-NI), Eq. 8, adjectives pooled
    within each side as in the permutation test, :func:`statistics.contrast`, so the larger
    class weighs more; ``mod_x_nsdir_{low,high}_``; beside it the same difference with the
    four classes weighted equally, the mean of the two class scores minus the mean of the
    other two, ``mod_x_nsdir_classw[_low,_high]_``), S-I minus NS-Pl and minus NS-Pr on Eq. 8
    (``mod_x_si_minus_{nspl,nspr}[_low,_high]_``), the highest subsective or ambiguous class
    minus the highest non-subsective class on Eq. 8 (004 §4.2.3, Tables 5 and 8: "in none of
    them the highest score belongs to a 'NS' category"; the two classes are those highest on
    the observed scores and held fixed in every resample, so the interval leaves the selection
    out; ``mod_x_ns_top_gap[_low,_high]_``, with ``mod_x_ns_top_other_n_`` and
    ``mod_x_ns_top_other_range_``, the number of adjectives of the highest subsective or
    ambiguous class and the range of their scores: 0 when they all score the same, so that the
    interval reflects the sampling of the non-subsective class alone),
    and the mean of all AAN phrases (``mod_x_aan_mean[_low,_high]_``), each ``<spec>``. The
    intervals that claims read as a union of k (:data:`UNION_FAMILIES`: nsdir, si_minus,
    ns_top_gap) also at Bonferroni's level, ``mod_x_<name>_bonf<k>_{low,high}_<spec>``, from the
    same resamples."""
    labels = lex.adjectives["cls"].to_numpy()
    values = {}

    def interval(name, statistic, spec, observed_too=True, family=None):
        observed, draws = st.statistic_draws(statistic, labels, n_boot, seed)
        low, high = st.draws_interval(observed, draws, level)
        if observed_too:  # nsdir and aandrop: glued as _diff_ by ns_direction / aan_drop
            values[f"mod_x_{name}_{slug(spec)}"] = observed
        values[f"mod_x_{name}_low_{slug(spec)}"] = low
        values[f"mod_x_{name}_high_{slug(spec)}"] = high
        for k in UNION_FAMILIES.get(family or name, ()):
            low, high = st.draws_interval(observed, draws, bonferroni_level(k, 1 - level))
            values[f"mod_x_{name}_bonf{k}_low_{slug(spec)}"] = low
            values[f"mod_x_{name}_bonf{k}_high_{slug(spec)}"] = high

    for spec in specs:
        r = runs[spec]
        ns = st.adjective_grid(r.an_phrases, r.ns["holds"], lex)
        per_adj = ns.mean(axis=1)

        def mean_of(idx, classes, v=per_adj):
            return float(v[idx][np.isin(labels, classes)].mean())

        interval("nsdir", lambda idx: mean_of(idx, ["NS-Pl", "NS-Pr"]) - mean_of(idx, ["S-I", "S-NI"]),
                 spec, observed_too=False)
        interval("nsdir_classw",
                 lambda idx: (mean_of(idx, ["NS-Pl"]) + mean_of(idx, ["NS-Pr"])) / 2
                 - (mean_of(idx, ["S-I"]) + mean_of(idx, ["S-NI"])) / 2, spec)
        for other in NS_CLASSES:
            interval(f"si_minus_{T.cell_slug((other,))}",
                     lambda idx, o=other: mean_of(idx, ["S-I"]) - mean_of(idx, [o]), spec,
                     family="si_minus")
        observed = {c: mean_of(np.arange(len(labels)), [c]) for c in CLASSES}
        top_ns = max(NS_CLASSES, key=observed.get)
        top_other = max((c for c in CLASSES if c not in NS_CLASSES), key=observed.get)
        interval("ns_top_gap",
                 lambda idx, a=top_other, b=top_ns: mean_of(idx, [a]) - mean_of(idx, [b]), spec)
        top_scores = per_adj[labels == top_other]
        values[f"mod_x_ns_top_other_n_{slug(spec)}"] = int(top_scores.size)
        values[f"mod_x_ns_top_other_range_{slug(spec)}"] = float(np.ptp(top_scores))
        if r.aan:
            S, W = st.pair_matrix(st.adjective_grid(r.aan_phrases, r.aan["code"]["holds"], lex))

            def drop(idx, S=S, W=W):  # the statistic of aan_drop, on resampled adjectives
                return st.pair_group_contrast(*st.pair_resampled(S, W, idx), group="S-I")(labels)

            def overall(idx, S=S, W=W):
                Sb, Wb = st.pair_resampled(S, W, idx)
                return float((Sb * Wb).sum() / Wb.sum())

            interval("aandrop", drop, spec, observed_too=False)
            interval("aan_mean", overall, spec)
    return values


def _an_class_draws(run, lex: Lexicon, n_boot: int, seed: int) -> np.ndarray:
    """Bootstrap draws of the AN test's class scores (Eq. 4, code variant), adjectives
    resampled within class (:func:`statistics.class_score_draws`)."""
    grid = st.adjective_grid(run.an_phrases, run.an["code"]["holds"], lex)
    return st.class_score_draws(grid, lex.adjectives["cls"].to_numpy(), n_boot=n_boot, seed=seed,
                                resample_nouns=False)


def an_class_draws(runs: dict, specs, lex: Lexicon, n_boot: int, seed: int) -> dict[str, np.ndarray]:
    """:func:`_an_class_draws` of each of ``specs`` (those in ``runs``), drawn once for
    :func:`lowest_class_high` and :func:`mean_pooled_ceiling`, which read the same draws."""
    return {spec: _an_class_draws(runs[spec], lex, n_boot, seed) for spec in dict.fromkeys(specs) if spec in runs}


def lowest_class_high(runs: dict, specs, lex: Lexicon, n_boot: int, seed: int, level: float,
                      draws: dict[str, np.ndarray] | None = None):
    """For the AN test (Eq. 4, code variant): the smallest upper end, over classes, of the
    class scores' bootstrap intervals over adjectives (``mod_x_an_lowest_high_<spec>``): below
    the printed ceiling when some class is below 1 beyond the choice of its adjectives. Also at
    Bonferroni's level for a union over the five classes of one model or of two
    (:data:`UNION_FAMILIES` ``an_lowest_high``), ``mod_x_an_lowest_high_bonf<k>_<spec>``.
    ``draws``: those of :func:`an_class_draws`, drawn here where not given."""
    draws = draws if draws is not None else an_class_draws(runs, specs, lex, n_boot, seed)
    values = {}
    for spec in specs:
        values[f"mod_x_an_lowest_high_{slug(spec)}"] = st.upper_ends(draws[spec], level).min()
        for k in UNION_FAMILIES["an_lowest_high"]:
            values[f"mod_x_an_lowest_high_bonf{k}_{slug(spec)}"] = st.upper_ends(
                draws[spec], bonferroni_level(k, 1 - level)).min()
    return values


MEAN_POOLED = ("minilm", "mpnet")
"""The packaged encoders that average their token states (sentence-transformers ``Pooling``
by the mean: all-MiniLM-L6-v2 and all-mpnet-base-v2)."""


def mean_pooled(specs) -> list[str]:
    """The specs among ``specs`` that average a transformer's token states, the encoders of 004
    §4.2.1's "models with mean-pooling equivalent composition" that this chapter can name
    without reading the all-ones row: :data:`MEAN_POOLED` and the hub checkpoints of the
    papers' models whose pooling is the mean (:data:`tables.PAPER_MODELS`: sBERT,
    DistilRoBERTa). Not the averaged static word vectors (``mean:<words>``, at 1 by a theorem),
    not a first-token readout (``minilm:cls``), not a mean followed by a dense layer
    (Sentence-T5). One spec per encoder: the packaged MiniLM and its hub checkpoint
    (``hf:sentence-transformers/all-MiniLM-L6-v2``) are one model, counted once, the first named."""
    out, encoders = [], set()
    for spec in specs:
        model = T.paper_slug(spec)
        if spec in MEAN_POOLED or (model and T.PAPER_MODELS[model]["pooling"] == "mean"):
            if (model or spec) not in encoders:
                encoders.add(model or spec)
                out.append(spec)
    return out


def mean_pooled_ceiling(runs: dict, lex: Lexicon, n_boot: int, seed: int, level: float,
                        draws: dict[str, np.ndarray] | None = None) -> dict[str, float]:
    """004's "models with mean-pooling equivalent composition are universally intersective"
    (§4.2.1) over the mean-pooled encoders run (:func:`mean_pooled`), its units:
    ``mod_x_meanpool_n`` (how many), ``mod_x_meanpool_an_min`` (the lowest AN class of any of
    them) and, for a union over every class of every one of them (k = five times n,
    ``mod_x_meanpool_union_k``), the smallest upper end of their class intervals over
    adjectives at Bonferroni's level ``1 - (1 - level) / k``
    (``mod_x_meanpool_lowest_high_bonf``; the same draws as :func:`lowest_class_high`, passed
    as ``draws`` or drawn here). Without a mean-pooled encoder only the count (0) is glued."""
    specs = mean_pooled(runs)
    draws = draws if draws is not None else an_class_draws(runs, specs, lex, n_boot, seed)
    k = len(CLASSES) * len(specs)
    values: dict[str, float] = {"mod_x_meanpool_n": len(specs), "mod_x_meanpool_union_k": k}
    if specs:
        values["mod_x_meanpool_an_min"] = float(min(min(runs[s].scores("an").values())
                                                    for s in specs))
        values["mod_x_meanpool_lowest_high_bonf"] = float(min(
            st.upper_ends(draws[s], bonferroni_level(k, 1 - level)).min() for s in specs))
    return values


def word_level_classes(runs: dict, specs, lex: Lexicon, n_perm: int, n_boot: int, seed: int,
                       level: float):
    """Are the adjective classes already in the single-word vectors (001 §6)? The mean cosine
    similarity of two adjectives of one class minus that of two adjectives of different classes,
    each adjective embedded alone as the tests embed it; a one-sided permutation test of the
    class labels and a bootstrap interval over adjectives within class. Keys
    ``mod_x_wordclass_{diff,low,high,p}_<spec>``, and ``mod_x_wordclass_models`` /
    ``mod_x_wordclass_above`` (models checked, those whose interval lies above 0)."""
    labels = lex.adjectives["cls"].to_numpy()
    adjectives = lex.adjectives["word"].tolist()
    rows, values = [], {}
    for spec in specs:
        space = runs[spec].space
        unit = space.unit[space.rows(adjectives)]
        sim = unit @ unit.T
        W = 1.0 - np.eye(len(labels))

        def contrast(lab, S=sim, Wm=W):
            return _same_minus_different(S, Wm, lab)

        def resampled(idx, S=sim, Wm=W):
            return _same_minus_different(*st.pair_resampled(S, Wm, idx), labels)

        perm = st.permutation_test(contrast, labels, n_perm, seed, "greater")
        _, low, high = st.bootstrap_statistic(resampled, labels, n_boot, seed, level)
        key = slug(spec)
        values.update({f"mod_x_wordclass_diff_{key}": float(perm["observed"]),
                       f"mod_x_wordclass_low_{key}": low, f"mod_x_wordclass_high_{key}": high,
                       f"mod_x_wordclass_p_{key}": float(perm["p_value"])})
        rows.append({"model": T.display_name(spec), "same class minus different classes":
                     perm["observed"], "low": low, "high": high, "p (one-sided)": perm["p_value"]})
    values["mod_x_wordclass_models"] = len(specs)
    values["mod_x_wordclass_above"] = sum(values[f"mod_x_wordclass_low_{slug(s)}"] > 0
                                          for s in specs)
    return pd.DataFrame(rows).set_index("model"), values


def _same_minus_different(S: np.ndarray, W: np.ndarray, labels: np.ndarray) -> float:
    """Weighted mean of ``S`` over the pairs of one class minus over the pairs of two classes."""
    same = labels[:, None] == labels[None, :]
    return float((S * W * same).sum() / (W * same).sum() - (S * W * ~same).sum() / (W * ~same).sum())


def synonym_equivalence(runs: dict, specs, lex: Lexicon, alpha: float,
                        targets: dict) -> dict[str, float]:
    """Equivalence test of the synonym control at 0.5 (:func:`synonym_control`), every class of
    every model. The margin (``mod_x_syn_margin``) is the smallest departure from 0.5 that 001
    reads as an ordering of two classes: it ranks NS-Pr above NS-Pl for sBERT (§4.2.2) on the
    pair cell (NS-Pl, NS-Pr) of Table 7. Every interval is a Student-t interval over the
    class's adjectives (:func:`statistics.t_classes`, the interval of the chapter's t-tests; a
    percentile bootstrap of a class of three adjectives is no wider than their range). Per
    model: ``mod_x_syn_eq_far_<spec>``, the largest distance from 0.5 of an end of a class's
    ``1 - 2 alpha`` interval (equivalence of every class shown when it is within the margin),
    and ``mod_x_syn_neq_near_<spec>``, the largest distance from 0.5 of the nearer end of a
    class interval that excludes 0.5, the interval at ``1 - alpha / m`` for the m classes of
    all models (Bonferroni, the family's error at most alpha: some class shown to depart by
    more than the margin when it exceeds it; 0 when every interval contains 0.5). Over the
    models: ``mod_x_syn_models`` (models with the control), ``mod_x_syn_eq_models`` (those
    with every class shown equivalent), ``mod_x_syn_neq_models`` (those with a class shown
    to depart by more than the margin) and ``mod_x_syn_neq_classes`` (classes, over all
    models, whose Bonferroni interval excludes 0.5)."""
    labels = lex.adjectives["cls"].to_numpy()
    margin = abs(0.5 - float(targets["mod_sbert_pair_nspl_nspr_001t7"]["paper"]))
    values = {"mod_x_syn_margin": margin}
    specs = [s for s in specs if runs[s].synonym is not None]
    m = len(specs) * len(CLASSES)
    n_excluding = 0
    for spec in specs:
        grid = runs[spec].synonym.grid()
        tost = st.t_classes(grid, labels, level=1 - 2 * alpha, bounds=PROPORTION)
        wide = st.t_classes(grid, labels, level=bonferroni_level(m, alpha), bounds=PROPORTION)
        far = np.maximum((tost["low"] - 0.5).abs(), (tost["high"] - 0.5).abs())
        excludes = (wide["low"] > 0.5) | (wide["high"] < 0.5)
        near = np.where(excludes, np.minimum((wide["low"] - 0.5).abs(),
                                             (wide["high"] - 0.5).abs()), 0.0)
        n_excluding += int(excludes.sum())
        values[f"mod_x_syn_eq_far_{slug(spec)}"] = float(far.max())
        values[f"mod_x_syn_neq_near_{slug(spec)}"] = float(near.max())
    values["mod_x_syn_models"] = len(specs)
    values["mod_x_syn_eq_models"] = sum(values[f"mod_x_syn_eq_far_{slug(s)}"] <= margin
                                        for s in specs)
    values["mod_x_syn_neq_models"] = sum(values[f"mod_x_syn_neq_near_{slug(s)}"] > margin
                                         for s in specs)
    values["mod_x_syn_neq_classes"] = n_excluding
    values["mod_x_syn_bonferroni_level"] = bonferroni_level(m, alpha) if m else float("nan")
    return values
