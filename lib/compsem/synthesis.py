"""The synthesis chapter: the book's batteries side by side, encoder by encoder.

Every function takes the tidy scorecard table of :mod:`compsem.scorecard` (columns ``model,
battery, measure, value, low, high, ceiling``; one row per model and measure) and computes no
metric of its own: the measures are the scorecard's. What is added here is the comparison
*across encoders*:

- :data:`PHENOMENA`: which measure of one battery and which of another test the same phenomenon
  (role order: STS3k's role-swap pairs against the SemRole and Order probes of Ettinger et al.
  2018; negation: STS3k's opposite pairs (Negative) against the Negation probe; modifiers: STS3k's
  added-modifier pairs against the consistency tests of Carvalho et al.);
- :func:`phenomenon_table`: those measures, one row per encoder, with their intervals;
- :func:`rank_agreement`: do the two batteries order the encoders the same way? Spearman's rho
  and Kendall's tau across encoders (:func:`scipy.stats.spearmanr`, :func:`scipy.stats.kendalltau`),
  a percentile bootstrap interval that resamples *encoders* (the unit the question is about), and
  the exact permutation p-value of rho (every ordering of the encoders, as many as 8! = 40,320).

With the six to nine encoders a book can run on a CPU, rank agreement can show little: with n = 6
a Spearman rho must reach 0.83 to be significant at the one-sided 5% level (exact permutation,
:func:`critical_rho`), and the bootstrap over so few encoders is wide and coarse (a resample of 6
encoders holds about 4 distinct ones). The chapter says so and shows the numbers anyway.
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from compsem.models.layers import parse_layer_name
from compsem.models.packaged import TRAINED_ENCODERS, parse_trained_seed
from compsem.scorecard.paper import paper_cells
from compsem.stats import (
    BOOTSTRAP_RESAMPLES,
    bonferroni_level,
    interval_hull,
    paired_spearman_difference_levels,
    percentile_interval,
    resampled_unit_means,
    resampling_units,
    seed_interval,
    spearman,
    spearman_interval,
    spearman_of_resamples,
    spearman_permutation_p,
    tie_values,
)

PHENOMENA: dict[str, tuple[tuple[str, str], ...]] = {
    "role order": (
        ("STS3k within Swap-2", "SemRole accuracy"),
        ("STS3k within Swap-2", "Order accuracy"),
        ("STS3k within Swap-3", "SemRole accuracy"),
        ("STS3k within Swap-4", "SemRole accuracy"),
    ),
    "negation": (
        ("STS3k within Negative", "Negation accuracy"),
        ("STS3k within Negative", "Negation selectivity"),
    ),
    "modifiers": (
        ("STS3k within Modifiers", "AN S-I"),
        ("STS3k within Modifiers", "pair S-I/NS-Pr"),
        ("STS3k within Modifiers", "NS NS-Pr"),
    ),
}
"""Phenomenon -> pairs ``(measure of battery A, measure of battery B)`` of the scorecard that
test it. The first pair of each phenomenon is its headline comparison."""

LABELS = {"minilm": "MiniLM", "mpnet": "MPNet", "glove50": "GloVe 50d mean",
          "spacy-md": "spaCy mean", "sdae": "SDAE (recurrent, one training)", "bow": "one-hot BOW",
          "overlap": "word overlap", "random": "random"}
"""Display names of the packaged model specs; a layer spec ``mpnet:layer6`` reads "MPNet layer 6".
``sdae`` is one training of an encoder trained here (its first seed; the others are
``sdae:seed<k>``), and its name says so wherever a table or figure shows that one draw."""


def label(spec: str) -> str:
    """The display name of a model spec (:data:`LABELS`; ``<base>:layer<k>`` -> "<Base> layer k";
    anything else, such as ``hf:<hub id>``, as given)."""
    if spec in LABELS:
        return LABELS[spec]
    base, _, rest = spec.partition(":")
    if base in LABELS and rest.startswith("layer") and rest[5:].isdigit():
        return f"{LABELS[base]} layer {rest[5:]}"
    return spec


def scorecards(models, batteries, subset_batteries=(), n_boot: int = 1000, seed: int = 0,
               device: str = "auto", batch_size: int = 64, progress: bool = True,
               n_jobs: int = 1, probe_seeds: int = 3, extra_levels=None) -> pd.DataFrame:
    """The scorecard (:func:`compsem.scorecard.run`) of every model on every battery of
    ``batteries`` that accepts it (a battery whose ``check`` refuses the model, e.g. probing for
    ``overlap`` or STS for ``bow``, is skipped); the batteries in ``subset_batteries`` run on
    their small subset. One table, models in the given order. ``probe_seeds``: MLP seeds of
    each probe of the probing battery (:func:`compsem.scorecard.probing.rows`).
    ``extra_levels`` (name -> level, e.g. :func:`bonferroni_extra_levels`): intervals at those levels too,
    in the columns ``low_<name>`` / ``high_<name>`` (:func:`compsem.scorecard.run`).

    ``n_jobs`` > 1: the (model, battery) scorecards run as Dask tasks on that many worker
    processes of one thread each (:func:`compsem.dask_tasks.submit_all`), the probing ones
    (probe training, the longest) first. Every scorecard is seeded and a vector or a fit is the
    same whichever process computes it, so the table is the same for any ``n_jobs``; the book
    runs this chapter after all others, when both cores are free."""
    from compsem import scorecard

    unknown = [b for b in [*batteries, *subset_batteries] if b not in scorecard.BATTERIES]
    if unknown:
        raise ValueError(f"unknown batteries {unknown}; known: {', '.join(scorecard.BATTERIES)}")
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be >= 1, not {n_jobs}")
    plan = []
    for model in models:
        accepted = []
        for battery in batteries:
            try:
                scorecard.BATTERIES[battery].check(model)
            except ValueError:
                continue
            accepted.append(battery)
        if not accepted:
            raise ValueError(f"model {model!r}: no battery of {list(batteries)} accepts it")
        plan += [(model, b) for b in accepted]
    options = dict(n_boot=n_boot, seed=seed, device=device, batch_size=batch_size,
                   probe_seeds=probe_seeds)
    if extra_levels:
        options["extra_levels"] = dict(extra_levels)
    calls = [(model, battery, battery in subset_batteries, options) for model, battery in plan]
    if n_jobs > 1:
        from compsem.dask_tasks import submit_all

        first = sorted(range(len(calls)), key=lambda i: calls[i][1] != "probing")  # stable
        tables = submit_all(_scorecard_of, [calls[i] for i in first],
                            [f"scorecard-{i}-{plan[i][0]}-{plan[i][1]}" for i in first],
                            n_workers=n_jobs, progress=progress, in_order=True)
        by_call = dict(zip(first, tables, strict=True))
        return pd.concat([by_call[i] for i in range(len(calls))], ignore_index=True)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(plan), desc="scorecards", unit="battery")
    tables = []
    for call in calls:
        tables.append(_scorecard_of(*call))
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return pd.concat(tables, ignore_index=True)


def _scorecard_of(model: str, battery: str, subset: bool, options: dict) -> pd.DataFrame:
    """One model's scorecard on one battery (:func:`scorecards`)."""
    from compsem import scorecard

    with warnings.catch_warnings():  # resamples in which a model's scores are constant
        warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning)
        warnings.simplefilter("ignore", stats.ConstantInputWarning)
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)  # BCa on such resamples
        return scorecard.run(model, [battery], subset=subset, progress=False, **options)


MAX_EXACT = 8
"""Most encoders for which :func:`rank_agreement` enumerates every permutation (8! = 40,320)."""


def _check_measures(table: pd.DataFrame, measures) -> None:
    missing = [m for m in measures if m not in set(table["measure"])]
    if missing:
        raise ValueError(f"the scorecard table has no measure {missing}; measures: "
                         f"{', '.join(sorted(table['measure'].unique()))}. Run the battery that "
                         f"gives it (compsem.scorecard.BATTERIES) on the encoders")


def batteries_run(table: pd.DataFrame) -> pd.DataFrame:
    """Which batteries each encoder of a :func:`scorecards` table ran, in the table's order: one
    row per encoder (its :func:`label`), with its spec and the batteries joined."""
    ran = table.groupby("model", sort=False)["battery"].unique()
    return pd.DataFrame({"encoder": [label(m) for m in ran.index], "spec": ran.index,
                         "batteries": [", ".join(b) for b in ran]}).set_index("encoder")


def wide(table: pd.DataFrame, column: str = "value", models=None) -> pd.DataFrame:
    """One row per measure, one column per model (``models`` order, default the table's), the
    scorecard's ``column`` (``value``, ``low`` or ``high``) in the cells; NaN where a battery
    did not run on a model."""
    models = list(dict.fromkeys(table["model"])) if models is None else list(models)
    rows = table.drop_duplicates(["battery", "measure", "model"])
    order = list(dict.fromkeys(zip(rows["battery"], rows["measure"], strict=True)))
    out = rows.set_index(["battery", "measure", "model"])[column].unstack("model")
    return out.reindex(index=pd.MultiIndex.from_tuples(order, names=["battery", "measure"]),
                       columns=models)


def paired(table: pd.DataFrame, measure_a: str, measure_b: str) -> pd.DataFrame:
    """The encoders scored on both measures: one row per model (table order) with ``a``,
    ``a_low``, ``a_high``, ``b``, ``b_low``, ``b_high``. Encoders missing either measure, or with a
    NaN value (a within-type rho of an encoder that gives every pair the same similarity), are
    left out. ValueError when a measure is not in the table at all."""
    _check_measures(table, (measure_a, measure_b))
    parts = []
    for side, measure in (("a", measure_a), ("b", measure_b)):
        rows = table[table["measure"] == measure].drop_duplicates("model").set_index("model")
        parts.append(rows[["value", "low", "high"]].rename(
            columns={"value": side, "low": f"{side}_low", "high": f"{side}_high"}))
    models = list(dict.fromkeys(table["model"]))
    both = parts[0].join(parts[1], how="inner").dropna(subset=["a", "b"])
    return both.reindex([m for m in models if m in both.index])


@functools.cache
def critical_rho(n: int, alpha: float = 0.05) -> float:
    """The smallest Spearman rho of ``n`` untied encoders whose one-sided exact permutation
    p-value is at most ``alpha`` (every ordering; ``n <= MAX_EXACT``): what agreement ``n``
    encoders can show at all."""
    if not 3 <= n <= MAX_EXACT:
        raise ValueError(f"critical_rho enumerates n! orderings: n must be 3..{MAX_EXACT}, not {n}")
    ranks = np.arange(1, n + 1)
    null = np.round([np.corrcoef(ranks, perm)[0, 1] for perm in itertools.permutations(ranks)], 12)
    values = np.unique(null)
    p = np.array([(null >= v).mean() for v in values])  # P(R >= v) under the null
    ok = values[p <= alpha + 1e-12]
    return float(ok.min()) if len(ok) else float("nan")


def critical_rhos(ns, prefix: str = "syn") -> dict[str, float]:
    """:func:`critical_rho` of each of ``ns`` encoders, as ``<prefix>_critical_rho_<n>``."""
    return {f"{prefix}_critical_rho_{n}": critical_rho(n) for n in ns}


def network(spec: str) -> str:
    """The network an encoder spec runs: a layer or first-token spec (``mpnet:layer6``,
    ``minilm:cls``) and another training of an encoder trained here (``sdae:seed1``) are the same
    network as their base (``mpnet``, ``minilm``, ``sdae``), which shares their weights or their
    architecture and training data; any other spec is its own network."""
    layer = parse_layer_name(spec)
    if layer is not None:
        return layer[0]
    trained = parse_trained_seed(spec)
    return trained[0] if trained is not None else spec


def n_networks(models) -> int:
    """How many distinct networks (:func:`network`) the encoder specs ``models`` run: the
    independent units of a comparison across encoders, where layers of one network count once."""
    return len({network(m) for m in models})


def single_training_encoders(order_aware, encoder_trainings) -> list[str]:
    """The encoders of ``order_aware`` that are trained here (their network among
    :data:`compsem.models.packaged.TRAINED_ENCODERS`) and that ``encoder_trainings`` does not
    give two trainings or more: their paired differences would be decided on one draw."""
    return [m for m in order_aware if network(m) in TRAINED_ENCODERS
            and len(dict.fromkeys(encoder_trainings.get(m, []))) < 2]


def rank_agreement(table: pd.DataFrame, measure_a: str, measure_b: str, n_boot: int = BOOTSTRAP_RESAMPLES,
                   seed: int = 0, level: float = 0.95) -> dict:
    """Do ``measure_a`` and ``measure_b`` order the encoders alike?

    Returns a dict: ``n`` (encoders with both measures), ``n_networks`` (the distinct networks
    among them, :func:`n_networks`: layers of one network are not independent units), ``rho`` (Spearman) and ``tau``
    (Kendall's tau-b) across them, ``low``/``high`` the percentile bootstrap interval of rho at
    ``level`` over ``n_boot`` resamples of the encoders with replacement (resamples in which
    either measure is constant are dropped, ``n_boot_used`` says how many remained: written out
    here because :func:`scipy.stats.bootstrap` cannot drop them, and with 5-7 encoders many
    resamples are degenerate), and ``p`` the one-sided permutation p-value of rho
    (:func:`compsem.stats.spearman_permutation_p`: exact, every ordering, for
    ``n <= MAX_EXACT``, else ``n_boot`` random orderings). A measure that is constant over the
    encoders gives NaN throughout: it cannot rank them. ValueError with fewer than 3 encoders:
    no correlation can be read from two points.
    """
    with warnings.catch_warnings():  # a constant measure gives NaN by design (docstring)
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", stats.ConstantInputWarning)
        return _rank_agreement(table, measure_a, measure_b, n_boot, seed, level)


def _rank_agreement(table, measure_a, measure_b, n_boot, seed, level) -> dict:
    pairs = paired(table, measure_a, measure_b)
    n = len(pairs)
    if n < 3:
        raise ValueError(f"rank agreement of {measure_a!r} and {measure_b!r} needs at least 3 "
                         f"encoders scored on both; the table has {n} ({', '.join(pairs.index)})")
    a, b = tie_values(pairs["a"].to_numpy(float)), tie_values(pairs["b"].to_numpy(float))  # ties at compsem.stats.TIE_DECIMALS
    rho = float(stats.spearmanr(a, b).statistic)
    tau = float(stats.kendalltau(a, b).statistic)
    rng = np.random.default_rng(seed)
    resamples = np.stack([rng.integers(0, n, n) for _ in range(n_boot)])  # one draw per resample
    boot = spearman_of_resamples(a, b, resamples)  # all resamples at once; NaN where a measure is constant
    low, high = percentile_interval(boot, level)  # the draws where both measures vary
    if math.isnan(rho):  # a measure constant over the encoders (e.g. every AN S-I share 1.0)
        p = float("nan")
    else:
        p = spearman_permutation_p(a, b, n_resamples=n_boot, seed=seed, exact_up_to=MAX_EXACT)
    return {"measure_a": measure_a, "measure_b": measure_b, "n": n,
            "n_networks": n_networks(pairs.index), "rho": rho, "tau": tau,
            "low": float(low), "high": float(high), "p": float(p), "n_boot_used": int(np.isfinite(boot).sum())}


def agreement_table(table: pd.DataFrame, phenomena=None, n_boot: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                    level: float = 0.95) -> pd.DataFrame:
    """:func:`rank_agreement` for every pair of :data:`PHENOMENA` (or ``phenomena``) whose two
    measures the table has on at least 3 encoders; one row per pair with a ``phenomenon``
    column (an empty frame with the same columns when there is none)."""
    rows = []
    for phenomenon, pairs in (PHENOMENA if phenomena is None else phenomena).items():
        for a, b in pairs:
            if not {a, b} <= set(table["measure"]):
                continue
            if len(paired(table, a, b)) < 3:
                continue
            rows.append({"phenomenon": phenomenon,
                         **rank_agreement(table, a, b, n_boot=n_boot, seed=seed, level=level)})
    columns = ["phenomenon", "measure_a", "measure_b", "n", "n_networks", "rho", "tau", "low", "high",
               "p", "n_boot_used"]
    return pd.DataFrame(rows, columns=columns)


def agreement_display(agreement: pd.DataFrame) -> pd.DataFrame:
    """An :func:`agreement_table` for reading: the phenomenon, the two measures, n (encoders and
    networks), rho with its
    interval written ``[low, high]`` to two decimals, Kendall's tau and p, rounded to 3."""
    interval = [f"[{lo:.2f}, {hi:.2f}]" for lo, hi in zip(agreement["low"], agreement["high"], strict=True)]
    return agreement.assign(interval=interval)[
        ["phenomenon", "measure_a", "measure_b", "n", "n_networks", "rho", "interval", "tau", "p"]].round(3)


def available(table: pd.DataFrame, pairs) -> list[tuple[str, str]]:
    """The pairs of ``pairs`` whose two measures the table has (a battery's subset may lack some,
    e.g. the probing subset has no Order task)."""
    present = set(table["measure"])
    return [(a, b) for a, b in pairs if a in present and b in present]


def group_range(table: pd.DataFrame, measure: str, models) -> tuple[float, float]:
    """``(min, max)`` of ``measure`` over those of ``models`` scored on it (e.g. the order-blind
    encoders); ValueError when none of them is."""
    _check_measures(table, (measure,))
    rows = table[(table["measure"] == measure) & table["model"].isin(list(models))]["value"].dropna()
    if rows.empty:
        raise ValueError(f"none of {list(models)} is scored on {measure!r}; scored: "
                         f"{', '.join(table.loc[table['measure'] == measure, 'model'])}")
    return float(rows.min()), float(rows.max())


RANGE_MEASURES = {"STS3k within Swap-2": "swap2", "SemRole accuracy": "semrole",
                  "STS3k within Negative": "negative", "Negation accuracy": "negation"}
"""The measures whose range over a group of encoders the chapter quotes (:func:`group_ranges`),
each with the short name of its keys."""


def group_ranges(table: pd.DataFrame, groups, measures=None, prefix: str = "syn") -> dict[str, float]:
    """:func:`group_range` of every measure of ``measures`` (``{measure: key}``, by default
    :data:`RANGE_MEASURES`) over every group of ``groups`` (``{group: models}``, e.g. the
    order-blind and the order-aware encoders), as ``<prefix>_<key>_<group>_min`` / ``_max``,
    measure by measure; a measure the table lacks, or a group none of whose encoders is in the
    table, is left out."""
    out = {}
    for measure, key in (RANGE_MEASURES if measures is None else measures).items():
        for group, models in groups.items():
            if measure in set(table["measure"]) and set(models) & set(table["model"]):
                low, high = group_range(table, measure, models)
                out[f"{prefix}_{key}_{group}_min"], out[f"{prefix}_{key}_{group}_max"] = low, high
    return out


PAPER = "paper"
"""The name of a paper column (:func:`phenomenon_table`, :func:`overview_table`)."""


def phenomenon_table(table: pd.DataFrame, pairs) -> pd.DataFrame:
    """The measures of ``pairs`` (``(measure_a, measure_b)`` tuples, e.g. ``PHENOMENA['negation']``)
    side by side: one row per encoder, one column per distinct measure, each cell
    ``value [low, high]`` as text (a dash where the battery did not run on the encoder). A
    measure that the paper prints for some of the encoders (:func:`paper_cells`) is followed by
    the column ``<measure>: paper``: the paper's number and, in brackets, the paper's row it
    comes from (``63.7 (SDAE)``); blank for an encoder without a paper counterpart."""
    measures = list(dict.fromkeys(m for pair in pairs for m in pair))
    _check_measures(table, measures)
    models = list(dict.fromkeys(table["model"]))
    found = paper_cells(table[table["measure"].isin(measures)])
    cells = {}
    for measure in measures:
        rows = table[table["measure"] == measure].drop_duplicates("model").set_index("model")
        cells[measure] = [_cell(rows.loc[m]) if m in rows.index else "–" for m in models]
        theirs = {r.model: f"{paper_number(r.paper)} ({r.row})"
                  for r in found[found["measure"] == measure].itertuples()}
        if theirs:
            cells[f"{measure}: {PAPER}"] = [theirs.get(m, "") for m in models]
    return pd.DataFrame(cells, index=pd.Index(models, name="encoder"))


def paper_number(value: float) -> str:
    """A paper's number as text, as printed: one decimal for a percentage (``92.9``), else the
    digits the paper gives, at least two (``0.145``, ``0.5197``, ``1.00``)."""
    if abs(value) > 1.5:
        return f"{value:.1f}"
    text = f"{value:.4f}".rstrip("0")
    return text + "0" * max(0, 2 - len(text.partition(".")[2]))


def overview_table(table: pd.DataFrame, labels: dict | None = None) -> pd.DataFrame:
    """:func:`wide` with the paper beside each encoder that has a paper counterpart: columns
    ``(encoder, "ours")`` and, for such an encoder, ``(encoder, "paper (<rows>)")`` holding the
    paper's number on each row the paper prints (:func:`paper_cells`; ``<rows>`` the paper's
    rows behind that column, e.g. ``SentBERT`` or ``Mean-CN, BOW``), NaN on the others.
    Encoders are named by ``labels`` (model spec -> name), else :func:`label`."""
    values = wide(table)
    found = paper_cells(table)
    columns = {}
    for model in values.columns:
        name = (labels or {}).get(model, label(model))
        columns[(name, "ours")] = values[model]
        mine = found[found["model"] == model]
        if len(mine):
            at = pd.MultiIndex.from_arrays([mine["battery"], mine["measure"]])
            heading = f"{PAPER} ({', '.join(dict.fromkeys(mine['row']))})"
            columns[(name, heading)] = pd.Series(mine["paper"].to_numpy(float), index=at).reindex(values.index)
    out = pd.DataFrame(columns, index=values.index)
    out.columns = pd.MultiIndex.from_tuples(list(columns), names=["encoder", "value"])
    return out


def _join_sources(sources) -> str:
    """``["P, Table 1", "P, Table 7", "Q, Table 2"]`` -> ``"P, Tables 1, 7; Q, Table 2"``."""
    tables: dict[str, list[str]] = {}
    for source in dict.fromkeys(sources):
        paper, _, number = source.rpartition(", Table ")
        tables.setdefault(paper, []).append(number)
    return "; ".join(f"{paper}, Table{'s' if len(n) > 1 else ''} {', '.join(sorted(n, key=int))}"
                     for paper, n in tables.items())


def paper_sources(table: pd.DataFrame, labels: dict | None = None) -> pd.DataFrame:
    """What the paper columns of :func:`overview_table` and :func:`phenomenon_table` hold: one
    row per encoder and battery with a paper counterpart, the paper's row, how our encoder
    relates to it (the paper's model or a substitute), the paper's tables and the number of
    measures compared."""
    found = paper_cells(table)
    rows = []
    for (model, battery), group in found.groupby(["model", "battery"], sort=False):
        rows.append({"encoder": (labels or {}).get(model, label(model)), "battery": battery,
                     "paper row": ", ".join(dict.fromkeys(group["row"])),
                     "ours is": ", ".join(dict.fromkeys(group["relation"])),
                     "source": _join_sources(group["source"]), "measures": len(group)})
    return pd.DataFrame(rows, columns=["encoder", "battery", "paper row", "ours is", "source",
                                       "measures"])


def _cell(row) -> str:
    value, low, high = (float(row[k]) for k in ("value", "low", "high"))
    if math.isnan(value):
        return "–"
    digits = 1 if abs(value) > 1.5 else 2  # percentages vs correlations and shares
    if math.isnan(low):
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def scatter_figure(table: pd.DataFrame, pairs, agreement: pd.DataFrame | None = None,
                   labels: dict | None = None):
    """One panel per pair ``(measure_a, measure_b)``: a dot per encoder at (A, B) with both
    intervals as error bars, named by ``labels`` (model spec -> display name); the panel's title
    gives rho and its interval from ``agreement`` (rows of :func:`agreement_table`). Returns the
    figure."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    pairs = list(pairs)
    cols = min(3, len(pairs))
    rows = math.ceil(len(pairs) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.2 * rows), squeeze=False)
    models = list(dict.fromkeys(table["model"]))
    palette = dict(zip(models, sns.color_palette(n_colors=len(models)), strict=False))  # the theme's
    for ax, (a, b) in zip(axes.flat, pairs, strict=False):
        both = paired(table, a, b)
        for model, r in both.iterrows():
            ax.errorbar(r["a"], r["b"], xerr=[[r["a"] - r["a_low"]], [r["a_high"] - r["a"]]],
                        yerr=[[r["b"] - r["b_low"]], [r["b_high"] - r["b"]]], fmt="o", ms=5,
                        capsize=2, color=palette[model], label=(labels or {}).get(model, label(model)))
        ax.set_xlabel(a, fontsize=8)
        ax.set_ylabel(b, fontsize=8)
        title = ""
        if agreement is not None and len(agreement):
            hit = agreement[(agreement["measure_a"] == a) & (agreement["measure_b"] == b)]
            if len(hit) and math.isnan(hit.iloc[0]["rho"]):
                title = f"ρ undefined: a measure is constant, n = {hit.iloc[0]['n']}"
            elif len(hit):
                h = hit.iloc[0]
                title = f"ρ = {h['rho']:.2f} [{h['low']:.2f}, {h['high']:.2f}], n = {h['n']}"
        ax.set_title(title, fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(pairs):]:
        ax.set_visible(False)
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(lab, h)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncols=min(5, len(handles)),
               fontsize=7, frameon=False, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig


def overview_figure(table: pd.DataFrame, measures=None, labels: dict | None = None):
    """Every encoder on every measure: a heat map of each measure's value ranked across the
    encoders scored on it (1 = highest; p-values of class-difference tests left out), the value
    written in the cell, blank where the battery did not run. Returns the figure."""
    import matplotlib.pyplot as plt
    import seaborn as sns

    values = wide(table)
    values = values[~values.index.get_level_values("measure").str.startswith("class difference")]
    if measures is not None:
        values = values[values.index.get_level_values("measure").isin(list(measures))]
    ranks = values.rank(axis=1, ascending=False)
    text = values.map(lambda v: "" if math.isnan(v) else (f"{v:.0f}" if abs(v) > 1.5 else f"{v:.2f}"))
    fig, ax = plt.subplots(figsize=(1.0 + 0.8 * values.shape[1], 0.8 + 0.2 * len(values)))
    sns.heatmap(ranks, annot=text.to_numpy(), fmt="", cmap="viridis", cbar_kws={"label": "rank (1 = highest)"},
                annot_kws={"fontsize": 6}, ax=ax, linewidths=0.3)
    ax.set_yticks(np.arange(len(values)) + 0.5,
                  [f"{b}: {m}" for b, m in values.index], fontsize=6, rotation=0)
    ax.set_xticks(np.arange(values.shape[1]) + 0.5,
                  [(labels or {}).get(m, label(m)) for m in values.columns], fontsize=7,
                  rotation=30, ha="right")
    ax.set_xlabel("")
    ax.set_ylabel("")
    fig.tight_layout()
    return fig


def expected_distinct(n: int) -> float:
    """The expected number of distinct encoders in a bootstrap resample of ``n`` encoders drawn
    with replacement, n (1 - (1 - 1/n)^n) (about 0.63 n): how coarse the bootstrap over encoders
    of :func:`rank_agreement` is."""
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    return float(n * (1 - (1 - 1 / n) ** n))


def left_out_sizes() -> dict:
    """What the batteries leave out when they run on their subsets (``subset=True``), per
    encoder: ``syn_left_out_sts_sentences``, the distinct sentences of the STS datasets beyond
    the subset's (:data:`compsem.scorecard.sts.FULL` less :data:`~compsem.scorecard.sts.SUBSET`:
    SICK and STR-2022), and ``syn_left_out_aan_strings``, the strings the AAN test adds to the
    modifier battery (:func:`compsem.modifiers.phrases.strings_needed` with and without the AAN
    phrases)."""
    from compsem.data import sts_benchmarks as sb
    from compsem.modifiers import lexicon, phrases
    from compsem.scorecard import sts as sts_battery

    sentences = 0
    for name in sts_battery.FULL:
        if name not in sts_battery.SUBSET:
            frame = sb.load_dataset(name)
            sentences += len(set(frame["sentence_a"]) | set(frame["sentence_b"]))
    lex = lexicon.load()
    aan = len(phrases.strings_needed(lex, phrases.generate(lex, max_words=3)))
    an = len(phrases.strings_needed(lex, phrases.generate(lex, max_words=2)))
    return {"syn_left_out_sts_sentences": sentences, "syn_left_out_aan_strings": aan - an}


@functools.cache
def _pair_labels() -> pd.DataFrame:
    """The reconstructed pair types of every STS3k pair
    (:func:`compsem.sts.pair_types.reconstruct_pair_types`: ``type``, ``category``,
    ``n_modifiers``, ``rule``) with their Figure 8 category (``figure8``,
    :func:`compsem.sts.structure.figure8_category`); cached, so that the pair types are
    reconstructed once per process."""
    from compsem.data import sts3k
    from compsem.sts import pair_types, structure

    labels = pair_types.reconstruct_pair_types(sts3k.load_pairs(), sts3k.load_stopwords())
    return labels.assign(figure8=structure.figure8_category(labels).to_numpy())


@functools.cache
def _category_pairs(category: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The human ratings of every STS3k pair, the mask of the pairs in the Figure 8
    ``category`` (pair types of :func:`compsem.sts.pair_types.reconstruct_pair_types`) and the
    pairs' clusters (pairs that share a sentence, the bootstraps' resampling units:
    :func:`compsem.data.shared_sentences.sentence_clusters`); cached, so that the within-category
    differences reconstruct the pair types once per process."""
    from compsem.data import shared_sentences, sts3k

    pairs = sts3k.load_pairs()
    mask = _pair_labels()["figure8"].to_numpy() == category
    human, mask, clusters = np.array(pairs["human"].to_numpy()), np.asarray(mask), shared_sentences.sentence_clusters(pairs)
    for array in (human, mask, clusters):
        array.setflags(write=False)
    return human, mask, clusters


def _category_modifiers(category: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The number of added modifiers of every STS3k pair (NaN where unknown; the pair types'
    ``n_modifiers``, from the row blocks of §4.1) and, through :func:`_category_pairs`, the
    category's mask and the clusters: ``(n_modifiers, human, mask, clusters)``."""
    human, mask, clusters = _category_pairs(category)
    return _pair_labels()["n_modifiers"].to_numpy(float), human, mask, clusters


@functools.cache
def _sts3k_similarities(model: str, seed: int, device: str, batch_size: int) -> np.ndarray:
    """The STS battery's similarities of every STS3k pair under ``model``
    (:func:`compsem.scorecard.sts.similarities`), computed once per process (read-only)."""
    from compsem.data import sts3k
    from compsem.scorecard import sts as sts_battery

    sims = sts_battery.similarities(model, sts3k.load_pairs(), seed=seed, device=device,
                                    batch_size=batch_size)
    sims = np.array(sims)  # a copy of its own, read-only: callers share it
    sims.setflags(write=False)
    return sims


def paired_within_differences(table: pd.DataFrame, models_a, models_b, category: str = "Swap-2",
                              n_boot: int = 1000, seed: int = 0, level: float = 0.95,
                              device: str = "auto", batch_size: int = 64,
                              extra_levels=None) -> pd.DataFrame:
    """Within one Figure 8 category of STS3k (Fodor et al. 2025, §5.4): for every encoder ``a``
    of ``models_a`` and ``b`` of ``models_b`` scored on ``STS3k within <category>`` in ``table``,
    rho(a) - rho(b) with the human ratings over the category's pairs, and its paired bootstrap
    interval at ``level`` (:func:`paired_difference`, that of
    :func:`compsem.stats.paired_spearman_difference`: BCa, ``n_boot``
    resamples of the pairs, both encoders resampled together: they are scored on the same pairs,
    so two separate intervals would ignore what their errors share; the rule of
    ``data/claims/README.md`` for "A beats B"). The similarities are the STS battery's
    (:func:`compsem.scorecard.sts.similarities`), the pair types those of
    :func:`compsem.sts.pair_types.reconstruct_pair_types`, as in the scorecard's within-type rho.
    One row per (a, b): ``model_a``, ``model_b``, ``rho_a``, ``rho_b``, ``difference``, ``low``,
    ``high``, ``n`` (pairs); empty when either group has no encoder scored there. With
    ``extra_levels`` (name -> level, e.g. :func:`bonferroni_extra_levels`) also ``low_<name>``
    / ``high_<name>``: the interval at that level read from the same resamples, drawn once
    (:func:`paired_difference`), so a higher level's contains the ``level`` one."""
    scored = set(table.loc[table["measure"] == f"STS3k within {category}", "model"])
    group_a = [m for m in dict.fromkeys(models_a) if m in scored]
    group_b = [m for m in dict.fromkeys(models_b) if m in scored]
    extra = dict(extra_levels or {})
    columns = ["model_a", "model_b", "rho_a", "rho_b", "difference", "low", "high", "n",
               *[f"{side}_{name}" for name in extra for side in ("low", "high")]]
    if not group_a or not group_b:
        return pd.DataFrame(columns=columns)
    human, mask, clusters = _category_pairs(category)
    sims = {m: _sts3k_similarities(m, seed, device, batch_size) for m in [*group_a, *group_b]}
    rows = []
    with warnings.catch_warnings():  # resamples in which a model's scores are constant
        warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning)
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        for a in group_a:
            for b in group_b:
                d = paired_difference(sims[a], sims[b], human, mask, [level, *extra.values()],
                                      n_boot=n_boot, seed=seed, clusters=clusters)
                (low, high), *others = d["intervals"]
                rows.append({"model_a": a, "model_b": b, "rho_a": d["rho_a"], "rho_b": d["rho_b"],
                             "difference": d["difference"], "low": low, "high": high, "n": d["n"]})
                for name, (extra_low, extra_high) in zip(extra, others, strict=True):
                    rows[-1] |= {f"low_{name}": extra_low, f"high_{name}": extra_high}
    return pd.DataFrame(rows, columns=columns)


def paired_difference(a, b, human, mask, levels, n_boot: int = 1000, seed: int = 0, clusters=None) -> dict:
    """rho(a, human) - rho(b, human) over the pairs of ``mask`` and its paired BCa bootstrap
    interval at each of ``levels``, from one set of resamples
    (:func:`compsem.stats.paired_spearman_difference_levels`, ``n_boot`` resamples seeded by
    ``seed``; of ``clusters`` of pairs where given). Returns ``rho_a``, ``rho_b``, ``difference``, ``n`` (pairs) and ``intervals``,
    ``(low, high)`` per level."""
    result = paired_spearman_difference_levels(a, b, human, mask, n_boot, seed, levels, "BCa", clusters)
    return {key: result[key] for key in ("rho_a", "rho_b", "difference", "n", "intervals")}


RHO = (-1.0, 1.0)
"""The range of a correlation: ``bounds`` of :func:`compsem.stats.seed_interval`."""

RHO_DIFFERENCE = (-2.0, 2.0)
"""The range of a difference of two correlations: ``bounds`` of
:func:`compsem.stats.seed_interval`."""


def trainings_intervals(values, resampled, rng: np.random.Generator, levels,
                        bounds: tuple[float, float] | None = None) -> list[tuple[float, float]]:
    """``[(low, high) per level of levels]`` of the mean over the trainings of an encoder (or any
    units that score the same items) of a statistic with one value per training, ``values``,
    and its values on the same resamples of the items, ``resampled`` (trainings x resamples,
    the same item resample for every training): the hull of the Student-t interval over the
    trainings (:func:`compsem.stats.seed_interval`, intersected with ``bounds``), which carries
    the draw of the training, and the two-level percentile bootstrap of the crossed design, the
    trainings drawn with replacement in each resample of the items
    (:func:`compsem.stats.resampled_unit_means` with ``rng``, drawn once and read at every
    level by :func:`compsem.stats.percentile_interval`), which carries the sampling of the
    items but, over as few as three trainings, cannot reach beyond their range. The rule of
    :func:`compsem.probing.experiment.shared_item_intervals` and
    :func:`compsem.probing.chapter.crossed_difference` for a probe's seeds; with one training
    the t-interval is undefined and the bootstrap stands alone."""
    boot = resampled_unit_means(resampled, rng)
    out = []
    for level in levels:
        _, t_low, t_high = seed_interval(values, level, bounds)  # NaN for one training: the bootstrap alone
        out.append(interval_hull(percentile_interval(boot, level), (t_low, t_high)))
    return out


def trainings_within_differences(table: pd.DataFrame, trainings, models_b, category: str = "Swap-2",
                                 n_boot: int = 1000,
                                 seed: int = 0, level: float = 0.95, device: str = "auto",
                                 batch_size: int = 64, extra_levels=None) -> pd.DataFrame:
    """As :func:`paired_within_differences`, for one trained encoder over its ``trainings``
    (e.g. ``["sdae", "sdae:seed1", "sdae:seed2"]``, one model each seed): a training is one
    draw of the encoder, so a difference decided on one training would be one draw too. For
    every ``b`` of ``models_b`` scored on ``STS3k within <category>`` in ``table``,
    rho(training) - rho(b) within the category (Fodor et al. 2025, §5.4, Figure 8), averaged
    over the trainings, with the interval of :func:`trainings_intervals`: the hull of the
    Student-t interval over the trainings' differences (``b``, one deterministic encoder, is
    the same in each) and a two-level percentile bootstrap of the crossed design (every
    training scores every pair): the clusters of pairs that share a sentence
    (:func:`compsem.data.shared_sentences.sentence_clusters`) resampled with replacement, the same for every
    training and for ``b``, then the trainings (:func:`compsem.stats.resampled_unit_means`),
    ``n_boot`` resamples seeded by ``seed``. Rows as :func:`paired_within_differences`,
    ``model_a`` the first training's spec, ``rho_a`` the mean over the trainings with its
    interval by the same rule and from the same resamples (``rho_a_low``, ``rho_a_high``), and
    ``n_trainings``; with ``extra_levels`` (name -> level) also ``low_<name>`` /
    ``high_<name>``, the interval of the difference at that level from the same resamples."""
    trainings = list(dict.fromkeys(trainings))
    if len(trainings) < 2:
        raise ValueError(f"trainings needs at least two trainings of the encoder, got {trainings}")
    scored = set(table.loc[table["measure"] == f"STS3k within {category}", "model"])
    models_b = [m for m in dict.fromkeys(models_b) if m in scored]
    extra = dict(extra_levels or {})
    if trainings[0] not in scored or not models_b:
        return pd.DataFrame(columns=["model_a", "model_b", "rho_a", "rho_b", "difference", "low",
                                     "high", "n", "n_trainings", "rho_a_low", "rho_a_high",
                                     *[f"{side}_{name}" for name in extra for side in ("low", "high")]])
    human, mask, clusters = _category_pairs(category)
    human = tie_values(human[mask])
    sims = {m: tie_values(_sts3k_similarities(m, seed, device, batch_size)[mask])
            for m in [*trainings, *models_b]}
    rng = np.random.default_rng(seed)
    units = resampling_units(clusters[mask], len(human))
    idx = rng.integers(0, units.max() + 1, size=(n_boot, units.max() + 1))
    resampled = {m: spearman_of_resamples(v, human, idx, units) for m, v in sims.items()}
    rho = {m: spearman(v, human) for m, v in sims.items()}
    units = functools.partial(np.random.default_rng, [seed, len(trainings)])  # the same draws for every b
    per_rho = np.stack([resampled[t] for t in trainings])
    rho_a = float(np.mean([rho[t] for t in trainings]))
    (rho_low, rho_high), = trainings_intervals([rho[t] for t in trainings], per_rho, units(), [level], RHO)
    rows = []
    for b in models_b:
        per_training = np.stack([resampled[t] - resampled[b] for t in trainings])
        (low, high), *others = trainings_intervals([rho[t] - rho[b] for t in trainings], per_training,
                                                   units(), [level, *extra.values()], RHO_DIFFERENCE)
        rows.append({"model_a": trainings[0], "model_b": b, "rho_a": rho_a, "rho_b": rho[b],
                     "difference": rho_a - rho[b], "low": low, "high": high,
                     "n": int(len(human)), "n_trainings": len(trainings),
                     "rho_a_low": rho_low, "rho_a_high": rho_high})
        for name, (w_low, w_high) in zip(extra, others, strict=True):  # the same resamples
            rows[-1] |= {f"low_{name}": w_low, f"high_{name}": w_high}
    return pd.DataFrame(rows)


def trainings_rho_values(differences: pd.DataFrame, name: str, prefix: str = "syn") -> dict:
    """The within-category rho of each encoder that :func:`trainings_within_differences` scored
    over its trainings: the mean over the trainings, ``<prefix>_<name>_rho_<a>_over_trainings``,
    and its interval (``_low`` / ``_high``), ``<a>`` the first training's spec (through
    :func:`compsem.report.slug`). Rows of :func:`paired_within_differences` (no
    ``n_trainings``) are skipped."""
    from compsem.report import slug

    if "n_trainings" not in differences:
        return {}
    rows = differences[differences["n_trainings"].notna()].drop_duplicates("model_a")
    out = {}
    for r in rows.to_dict("records"):
        base = f"{prefix}_{name}_rho_{slug(r['model_a'])}_over_trainings"
        out |= {base: float(r["rho_a"]), f"{base}_low": float(r["rho_a_low"]),
                f"{base}_high": float(r["rho_a_high"])}
    return out


def modifier_strata(table: pd.DataFrame, models, category: str = "Swap-2", n_boot: int = 1000,
                    seed: int = 0, level: float = 0.95, device: str = "auto",
                    batch_size: int = 64) -> pd.DataFrame:
    """Within one Figure 8 category of STS3k (Fodor et al. 2025, §5.4), the pairs split by the
    number of modifiers added to the base pair (the row blocks of §4.1: a Swap-2 pair is a
    double swap with 0 to 3 modifiers; :func:`compsem.sts.pair_types.reconstruct_pair_types`):
    for every model of ``models`` scored on ``STS3k within <category>`` in ``table`` and every
    number of modifiers, ``n`` (pairs), ``identical``
    (pairs to which the model gives similarity 1 at :data:`compsem.stats.TIE_DECIMALS`
    decimals: for an order-blind encoder, pairs whose two sentences it reads as the same bag of
    words) and Spearman's rho with the human ratings over those pairs with its BCa bootstrap
    interval over the clusters of pairs that share a sentence at ``level`` (:func:`compsem.stats.spearman_interval`, ``n_boot``
    resamples, ``seed``: as the scorecard's within-type rho,
    :func:`compsem.sts.structure.within_category_spearman`). It asks where an order-blind
    encoder's within-type rho comes from: pairs whose sentences differ by added modifiers, or
    pairs whose words differ without them. The similarities are the STS battery's
    (:func:`compsem.scorecard.sts.similarities`). One row per (model, n_modifiers), models in
    the given order (an empty table when none is scored there); ValueError for a category
    without pairs or with fewer than 4 pairs in a stratum (no interval)."""
    columns = ["model", "n_modifiers", "n", "identical", "rho", "low", "high"]
    scored = set(table.loc[table["measure"] == f"STS3k within {category}", "model"])
    models = [m for m in dict.fromkeys(models) if m in scored]
    if not models:
        return pd.DataFrame(columns=columns)
    n_modifiers, human, mask, clusters = _category_modifiers(category)
    if not mask.any():
        raise ValueError(f"no STS3k pair in category {category!r}")
    counts = sorted({int(k) for k in n_modifiers[mask] if not math.isnan(k)})
    rows = []
    for model in models:
        sims = np.asarray(_sts3k_similarities(model, seed, device, batch_size), dtype=float)
        for k in counts:
            stratum = mask & (n_modifiers == k)
            with warnings.catch_warnings():  # resamples in which the scores are constant
                warnings.filterwarnings("ignore", "invalid value encountered", RuntimeWarning)
                warnings.simplefilter("ignore", stats.DegenerateDataWarning)
                rho, low, high = spearman_interval(sims, human, mask=stratum, n_resamples=n_boot,
                                                   seed=seed, level=level, clusters=clusters)
            rows.append({"model": model, "n_modifiers": k, "n": int(stratum.sum()),
                         "identical": int((tie_values(sims[stratum]) == 1.0).sum()),
                         "rho": float(rho), "low": float(low), "high": float(high)})
    return pd.DataFrame(rows, columns=columns)


def modifier_strata_display(strata: pd.DataFrame, labels: dict | None = None) -> pd.DataFrame:
    """A :func:`modifier_strata` table for reading: one row per model (its :func:`label`, or
    ``labels``), for each number of added modifiers ``k`` a column ``k added (n pairs): rho``
    holding ``rho [low, high]`` and a column ``k added: similarity 1`` with the pairs the model
    gives similarity 1."""
    cells = {}
    for k, group in strata.groupby("n_modifiers", sort=True):
        group = group.set_index("model")
        n = int(group["n"].iloc[0])
        cells[f"{k} added ({n} pairs): rho"] = [_cell(r.rename({"rho": "value"})) for _, r in group.iterrows()]
        cells[f"{k} added: similarity 1"] = group["identical"].astype(int).tolist()
    models = list(dict.fromkeys(strata["model"]))
    index = pd.Index([(labels or {}).get(m, label(m)) for m in models], name="encoder")
    return pd.DataFrame(cells, index=index)


def modifier_strata_values(strata: pd.DataFrame, name: str, prefix: str = "syn") -> dict:
    """:func:`modifier_strata` glued: ``<prefix>_<name>_modifiers_min`` / ``_max`` (the fewest
    and most modifiers added in the category), and per number of modifiers ``k``
    ``<prefix>_<name>_mod<k>_n`` (pairs) and per model ``<prefix>_<name>_mod<k>_rho_<model>``
    with ``_low`` / ``_high`` and ``_identical_<model>`` (models through
    :func:`compsem.report.slug`)."""
    from compsem.report import slug

    if strata.empty:
        return {}
    out = {f"{prefix}_{name}_modifiers_min": int(strata["n_modifiers"].min()),
           f"{prefix}_{name}_modifiers_max": int(strata["n_modifiers"].max())}
    for r in strata.to_dict("records"):
        base = f"{prefix}_{name}_mod{r['n_modifiers']}"
        model = slug(r["model"])
        out |= {f"{base}_n": int(r["n"]), f"{base}_rho_{model}": float(r["rho"]),
                f"{base}_rho_{model}_low": float(r["low"]), f"{base}_rho_{model}_high": float(r["high"]),
                f"{base}_identical_{model}": int(r["identical"])}
    return out


def difference_values(differences: pd.DataFrame, name: str, prefix: str = "syn") -> dict:
    """:func:`paired_within_differences` glued: ``<prefix>_<name>_diff_<a>_minus_<b>`` and its
    ``_low``/``_high`` (names through :func:`compsem.report.slug`), and its intervals at the
    ``extra_levels`` of the differences, ``_low_<level name>`` / ``_high_<level name>`` (e.g.
    ``_low_bonf12``: after ``_low``, so that a glob ``'..._low'`` of a claim does not match it)."""
    from compsem.report import slug

    extra = [c for c in differences.columns if c.startswith(("low_", "high_"))]
    out = {}
    for r in differences.to_dict("records"):
        base = f"{prefix}_{name}_diff_{slug(r['model_a'])}_minus_{slug(r['model_b'])}"
        out |= {base: float(r["difference"]), f"{base}_low": float(r["low"]),
                f"{base}_high": float(r["high"])}
        out |= {f"{base}_{column}": float(r[column]) for column in extra}
    return out


ROLE_ORDER_UNION_MEASURE = "SemRole accuracy"
"""The probe measure of the union of tests on which the claim order-blind-fail-both fails
(data/claims/synthesis.yaml): the claim fails when *some* test of the union does, some
order-blind encoder off chance on this measure or some within-Swap-2 difference below 0
(:func:`role_order_union`)."""


def role_order_union(encoders, batteries, order_blind, order_aware) -> int:
    """k of the union on which the claim order-blind-fail-both fails: some order-blind encoder
    off chance on :data:`ROLE_ORDER_UNION_MEASURE` (one test per encoder of ``order_blind`` among
    ``encoders`` that the probing battery takes; its two sides cannot both err, so they count
    once), or some within-Swap-2 difference below 0 (one per pair of an encoder of
    ``order_aware`` and one of ``order_blind``, both among ``encoders`` and taken by the STS
    battery: those of :func:`paired_within_differences` and :func:`trainings_within_differences`).
    Known from the parameters before the batteries run, so that the scorecard computes its
    intervals at this family's level (:func:`bonferroni_extra_levels`); :func:`union_values` checks it
    against what ran. 12 with the chapter's defaults (3 SemRole tests, 3 x 3 differences)."""
    from compsem import scorecard

    def takes(battery: str, model: str) -> bool:
        if battery not in batteries or model not in encoders:
            return False
        try:
            scorecard.BATTERIES[battery].check(model)
        except ValueError:
            return False
        return True

    blind = list(dict.fromkeys(order_blind))
    probed = [m for m in blind if takes("probing", m)]
    pairs = [(a, b) for a in dict.fromkeys(order_aware) for b in blind
             if takes("sts", a) and takes("sts", b)]
    return len(probed) + len(pairs)


def bonferroni_extra_levels(k: int, level: float = 0.95) -> dict[str, float]:
    """``{"bonf<k>": level}``: Bonferroni's level of each of ``k`` intervals read by a union of
    tests whose single test reads a ``level`` interval (:func:`compsem.stats.bonferroni_level`),
    by the name of its columns (``low_bonf<k>``) and keys (``..._low_bonf<k>``); empty for no test."""
    return {f"bonf{k}": bonferroni_level(k, 1 - level)} if k >= 1 else {}


EQUIVALENCE = "eq"
"""The name of the intervals of an equivalence test ("at chance": the 90% interval inside the
margin, two one-sided tests at 5%; data/claims/README.md): columns ``low_eq`` / ``high_eq``,
keys ``..._low_eq`` / ``..._high_eq``."""


def scorecard_levels(k: int) -> dict[str, float]:
    """The extra interval levels of the chapter's scorecard: :func:`bonferroni_extra_levels` of
    the union of ``k`` tests (a direction, 95% each), the equivalence test's 90%
    (:data:`EQUIVALENCE`, :data:`compsem.stats.EQUIVALENCE_LEVEL`), and the equivalence intervals
    of the same union at Bonferroni's level ``1 - .10/k`` (``eq_bonf<k>``), which an
    order-blind encoder's "off chance" reads in the union (claim order-blind-fail-both)."""
    from compsem.stats import EQUIVALENCE_LEVEL

    levels = bonferroni_extra_levels(k) | {EQUIVALENCE: EQUIVALENCE_LEVEL}
    if k >= 1:
        levels[f"{EQUIVALENCE}_bonf{k}"] = bonferroni_level(k, 1 - EQUIVALENCE_LEVEL)
    return levels


def union_values(table: pd.DataFrame, differences: pd.DataFrame, k: int, order_blind,
                 measure: str = ROLE_ORDER_UNION_MEASURE, prefix: str = "syn") -> dict:
    """The intervals of the union of :func:`role_order_union` that the differences do not glue
    (:func:`difference_values` does): ``<prefix>_<measure>_<model>_low_bonf<k>`` /
    ``_high_bonf<k>`` for every encoder of ``order_blind`` scored on ``measure``, from the
    scorecard's columns ``low_bonf<k>`` / ``high_bonf<k>`` (:func:`scorecards` with
    ``extra_levels=bonferroni_extra_levels(k)``), and ``<prefix>_role_order_union_k``. ValueError when the
    tests that ran (those encoders and the rows of ``differences``) are not k, or when the table
    or the differences lack the family's columns: the keys would be named for another family."""
    from compsem.report import slug

    name = f"bonf{k}"
    columns = [f"low_{name}", f"high_{name}"]
    rows = table[(table["measure"] == measure) & table["model"].isin(list(order_blind))]
    rows = rows.drop_duplicates("model")
    ran = len(rows) + len(differences)
    if ran != k:
        raise ValueError(f"the union of tests has {len(rows)} {measure!r} tests and "
                         f"{len(differences)} differences, {ran}, not the k = {k} it was computed for")
    missing = [c for c in columns if c not in table or (len(differences) and c not in differences)]
    if missing:
        raise ValueError(f"no interval columns {missing}: compute the scorecard and the differences "
                         f"with extra_levels=bonferroni_extra_levels({k})")
    out = {f"{prefix}_role_order_union_k": k}
    names = [name] + [n for n in (f"{EQUIVALENCE}_{name}",) if f"low_{n}" in table]
    for r in rows.to_dict("records"):
        base = f"{prefix}_{slug(measure)}_{slug(r['model'])}"
        for n in names:
            out |= {f"{base}_low_{n}": float(r[f"low_{n}"]), f"{base}_high_{n}": float(r[f"high_{n}"])}
    return out


HEADLINE_MEASURES = ("STS3k-all", "STS3k-non", "STS3k-adv")
"""Measures glued beside those of :data:`PHENOMENA`: the Table 9 columns of STS3k."""


def glue_values(table: pd.DataFrame, agreement: pd.DataFrame, prefix: str = "syn") -> dict:
    """The numbers the chapter glues: every measure of :data:`PHENOMENA` and
    :data:`HEADLINE_MEASURES` per encoder
    (``<prefix>_<measure>_<model>`` and its ``_low``/``_high``) and every rank agreement
    (``<prefix>_agree_<measure a>_vs_<measure b>_rho``/``_tau``/``_low``/``_high``/``_p``/``_n``/``_n_networks``,
    and ``_critical``, the :func:`critical_rho` of its n encoders where there is one, n up to
    :data:`MAX_EXACT`);
    names through :func:`compsem.report.slug`. NaN values are left out."""
    from compsem.report import slug

    measures = sorted({m for pairs in PHENOMENA.values() for pair in pairs for m in pair}
                      | set(HEADLINE_MEASURES))
    out = {}
    equivalence = f"low_{EQUIVALENCE}" in table
    for r in table[table["measure"].isin(measures)].to_dict("records"):
        base = f"{prefix}_{slug(r['measure'])}_{slug(r['model'])}"
        fields = [("", "value"), ("_low", "low"), ("_high", "high")]
        if equivalence:  # the equivalence test's 90% interval (:func:`scorecard_levels`)
            fields += [(f"_low_{EQUIVALENCE}", f"low_{EQUIVALENCE}"), (f"_high_{EQUIVALENCE}", f"high_{EQUIVALENCE}")]
        for suffix, column in fields:
            if not math.isnan(float(r[column])):
                out[base + suffix] = float(r[column])
    for r in agreement.itertuples():
        base = f"{prefix}_agree_{slug(r.measure_a)}_vs_{slug(r.measure_b)}"
        for suffix in ("rho", "tau", "low", "high", "p", "n", "n_networks"):
            v = getattr(r, suffix)
            if not (isinstance(v, float) and math.isnan(v)):
                out[f"{base}_{suffix}"] = int(v) if suffix.startswith("n") else float(v)
        if 3 <= int(r.n) <= MAX_EXACT:  # the smallest rho its n encoders can tell from chance
            critical = critical_rho(int(r.n))
            if not math.isnan(critical):  # none at all below 5 encoders
                out[f"{base}_critical"] = critical
    return out


def paper_glue_values(table: pd.DataFrame, prefix: str = "syn") -> dict:
    """The paper's number of every encoder and measure that :func:`glue_values` glues and that
    has a paper counterpart (:func:`paper_cells`), as ``<prefix>_paper_<measure>_<model>``
    (names through :func:`compsem.report.slug`), so that the text can quote it beside ours."""
    from compsem.report import slug

    measures = {m for pairs in PHENOMENA.values() for pair in pairs for m in pair} | set(HEADLINE_MEASURES)
    found = paper_cells(table[table["measure"].isin(measures)])
    return {f"{prefix}_paper_{slug(r.measure)}_{slug(r.model)}": float(r.paper) for r in found.itertuples()}

