"""The loops, tables and glued numbers of the chapters ``sts3k-hybrid`` and ``sts3k-finetune``, and
the intervals of ``sts3k-models`` that its single tests and unions of tests read
(:func:`published_intervals`, :func:`defsent_vs_sentbert`, :func:`adv_spearman_intervals`,
:func:`drop_intervals`; :mod:`compsem.sts.families`), every level of a quantity read from one set of
resamples (:func:`family_levels`).

One function per thing a chapter shows. Each takes the chapter's series (per-pair similarities of
a model, one per STS3k pair), fits or tables and returns a table and/or a dict of numbers to glue
under the chapter's keys; the notebooks stay a narrative. The computations themselves live in the
modules of their concepts (:mod:`compsem.sts.hybrid`, :mod:`compsem.sts.weights`,
:mod:`compsem.sts.contrasts`, :mod:`compsem.sts.regressors` ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from compsem import stats
from compsem.data import shared_sentences, sts3k
from compsem.report import slug
from compsem.sts import amr, generator, hybrid, roles, table9, weights
from compsem.sts.families import UNION_FAMILIES
from compsem.sts.seed_grids import RANDOM_SPLIT_OVERLAP, t_interval
from compsem.sts.similarity import (
    bootstrap_difference_levels,
    bootstrap_spearman_levels,
    spearman,
    table9_correlations,
)
from compsem.sts.structure import FIGURE8_CATEGORIES

PORTIONS = tuple(table9.DATASETS[column][2] for column in table9.STS3K_COLUMNS)
"""The STS3k portions of Table 9's three STS3k columns: ``("all", "non", "adv")``."""

PERTURBED_PERCENTILE = 2.5
"""The percentile of the perturbed-beta rhos glued as ``sens_perturbed_q025``."""


# --------------------------------------------------------------------------- Table 9's STS3k columns


def sts3k_rhos(sims, pairs: pd.DataFrame) -> dict[str, float]:
    """Spearman rho of ``sims`` with people on STS3k-all, -non and -adv (Table 9's three STS3k
    columns, §5.2), keyed by portion."""
    masks = {portion: sts3k.portion_mask(pairs, portion) for portion in PORTIONS}
    return table9_correlations(sims, pairs["human"].to_numpy(), masks)


def sts3k_table(series: Mapping[str, np.ndarray], pairs: pd.DataFrame) -> pd.DataFrame:
    """:func:`sts3k_rhos` of every series: one row per series (in input order), columns
    ``all``, ``non``, ``adv``."""
    return pd.DataFrame({name: sts3k_rhos(sims, pairs) for name, sims in series.items()}).T


def paper_portions(targets: Mapping[str, dict], prefix: str) -> list[float]:
    """The paper's values of ``<prefix>_sts3k_<portion>`` (data/targets) for :data:`PORTIONS`:
    the paper's row beside a :func:`sts3k_table`."""
    return [targets[f"{prefix}_sts3k_{portion}"]["paper"] for portion in PORTIONS]


PAPER_HYBRID_ROWS = {"VerbNet-CN, corrected parses": "table9_verbnet_cn",
                     "VerbNet-CN, GPT-4 parses": "verbnet_gpt4_glove50", "AMR-CN": "table9_amr_cn"}
"""The paper's Numberbatch hybrids (Table 9; Table 11 for the GPT-4 parses): row label -> the
prefix of their ``<prefix>_sts3k_<portion>`` targets."""


def with_paper_hybrids(table: pd.DataFrame, targets: Mapping[str, dict]) -> pd.DataFrame:
    """``table`` (a :func:`sts3k_table` of substitute hybrids) with the paper's Numberbatch rows
    of :data:`PAPER_HYBRID_ROWS` below it, labelled ``paper (Numberbatch): <row>``."""
    paper = pd.DataFrame([paper_portions(targets, key) for key in PAPER_HYBRID_ROWS.values()],
                         index=[f"paper (Numberbatch): {row}" for row in PAPER_HYBRID_ROWS],
                         columns=list(PORTIONS))
    return pd.concat([table, paper])


def sts3k_values(table: pd.DataFrame, prefixes: Sequence[str | None]) -> dict[str, float]:
    """The cells of an :func:`sts3k_table` under ``<prefix>_sts3k_<portion>``, one prefix per
    row in the table's order (None: a row with no key, e.g. a published file shown beside)."""
    values = {}
    for (_, row), prefix in zip(table.iterrows(), prefixes, strict=True):
        if prefix is not None:
            values |= {f"{prefix}_sts3k_{portion}": float(row[portion]) for portion in PORTIONS}
    return values


def family_levels(level: float, *families: int) -> dict[str, float]:
    """Key fragment -> level of the intervals of one test: ``ci`` at ``level`` (the test read
    alone) and, for each k of ``families``, ``bonf<k>_ci`` at Bonferroni's level
    ``1 - (1 - level) / k`` (:func:`compsem.stats.bonferroni_level`), the interval that a union of
    k tests reads (:mod:`compsem.sts.families`). ``level`` is .95 for a direction, .90 for an
    equivalence test."""
    return {"ci": level} | {f"bonf{k}_ci": stats.bonferroni_level(k, 1 - level) for k in families}


def adv_spearman_intervals(series: Mapping[str, np.ndarray], human, mask, n_resamples: int = stats.BOOTSTRAP_RESAMPLES,
                           seed: int = 0, levels: Mapping[str, float] | None = None, clusters=None) -> dict[str, float]:
    """``<key>_sts3k_adv_<tag>_low`` and ``_high`` of each series for each ``tag -> level`` of
    ``levels`` (default ``{"ci": .95}``; :func:`family_levels` adds the Bonferroni levels of the
    unions of tests a series enters): the percentile-bootstrap interval over the pairs in ``mask``
    (STS3k-adv; with ``clusters``, over the clusters of pairs that share a sentence,
    :func:`compsem.data.shared_sentences.sentence_clusters`) of its Spearman rho with people (an uncertainty
    on a Table 9 cell). Every level of
    a series is read from one set of resamples
    (:func:`compsem.sts.similarity.bootstrap_spearman_levels`), so the interval of a union contains
    the single test's, and each is :func:`compsem.sts.similarity.bootstrap_spearman` at its level."""
    levels = {"ci": 0.95} if levels is None else dict(levels)
    values = {}
    for key, sims in series.items():
        bounds = bootstrap_spearman_levels(sims, human, mask, n_boot=n_resamples, seed=seed, levels=list(levels.values()),
                                           clusters=clusters)
        for tag, (low, high) in zip(levels, bounds, strict=True):
            values |= {f"{key}_sts3k_adv_{tag}_low": low, f"{key}_sts3k_adv_{tag}_high": high}
    return values


def drop_intervals(series: Mapping[str, np.ndarray], human, mask_non, mask_adv, n_resamples: int = stats.BOOTSTRAP_RESAMPLES,
                   seed: int = 0, levels: Mapping[str, float] | None = None, clusters=None) -> dict[str, float]:
    """``<key>_<tag>_low`` and ``_high`` of each series for each ``tag -> level`` of ``levels``
    (default ``{"ci": .95}``; e.g. ``ci90`` at .90 for an equivalence test, :func:`family_levels`
    for the unions of tests): the percentile-bootstrap interval of its drop rho(non) - rho(adv)
    (Figure 4, the two portions resampled independently; with ``clusters``, clusters of pairs
    stratified by the portions they touch), every level from one set of resamples
    (:func:`compsem.sts.similarity.bootstrap_difference_levels`; each is
    :func:`compsem.sts.similarity.bootstrap_difference` at its level)."""
    levels = {"ci": 0.95} if levels is None else dict(levels)
    values = {}
    for key, sims in series.items():
        bounds = bootstrap_difference_levels(sims, human, mask_non, mask_adv, n_boot=n_resamples, seed=seed,
                                             levels=list(levels.values()), clusters=clusters)
        for tag, (low, high) in zip(levels, bounds, strict=True):
            values |= {f"{key}_{tag}_low": low, f"{key}_{tag}_high": high}
    return values


def recomputed_drops(similarities: Mapping[tuple[str, str], np.ndarray], pairs: pd.DataFrame,
                     n_boot: int = stats.BOOTSTRAP_RESAMPLES, seed: int = 0,
                     level: float = 0.95) -> tuple[pd.DataFrame, dict[str, float]]:
    """The drop rho(non) - rho(adv) (Figure 4's difference bar, sign reversed; §5.2) of every
    STS3k series of ``similarities`` (keys (label, dataset name), as
    :func:`compsem.sts.table9.recomputed_cells` gives them; other datasets skipped), with the
    intervals of :func:`drop_intervals` at :func:`recomputed_levels` (``level``, and a union's
    where one reads it).

    Returns ``(drops, values)``. ``drops``: index ``model`` (the label), columns ``non − adv``,
    ``low``, ``high`` (the ``"ci"`` interval), sorted by the drop. ``values``: for each label,
    ``recomputed_drop_<label>`` (the drop) and its ``_<tag>_low`` / ``_high``. The bootstrap
    resamples clusters of pairs that share a sentence (:func:`compsem.data.shared_sentences.sentence_clusters`)."""
    human = pairs["human"].to_numpy()
    non, adv = sts3k.portion_mask(pairs, "non"), sts3k.portion_mask(pairs, "adv")
    clusters = shared_sentences.sentence_clusters(pairs)
    rows, values = [], {}
    for (label, name), sims in similarities.items():
        if name != "sts3k":
            continue
        key = f"recomputed_drop_{slug(label)}"
        bounds = drop_intervals({key: sims}, human, non, adv, n_resamples=n_boot, seed=seed,
                                levels=recomputed_levels(label, "drop", level), clusters=clusters)
        drop = spearman(sims, human, non) - spearman(sims, human, adv)
        values |= {key: drop, **bounds}
        rows.append({"model": label, "non − adv": drop, "low": bounds[f"{key}_ci_low"],
                     "high": bounds[f"{key}_ci_high"]})
    return pd.DataFrame(rows).set_index("model").sort_values("non − adv"), values


# --------------------------------------------------------------------------- unions of tests (sts3k-models)


TRANSFORMER_ROWS = ("USE", "ERNIE-0", "ERNIE-12", "SentBERT", "DefSent", "OpenAI")
"""Table 9's transformer sentence models, those of §5.2's "most transformer models show very low
correlations of less than 0.2" (InferSent, a bidirectional LSTM, aside)."""

NEURAL_ROWS = ("InferSent", *TRANSFORMER_ROWS, "AMRBART", "S3BERT")
"""Table 9's neural models, the transformer-based hybrids AMRBART and S3BERT included: those the
training-free hybrids are said to beat on STS3k-adv (§7)."""

ADV_FAMILIES = {"transformers_below_bound": TRANSFORMER_ROWS, "transformers_above_bound": TRANSFORMER_ROWS,
                "hybrids_and_neural": ("VerbNet-CN", "AMR-CN", *NEURAL_ROWS)}
"""The families of :data:`compsem.sts.families.UNION_FAMILIES` over Table 9's STS3k-adv cells, and
their rows: the transformers counted below or above .2 (transformers-poor-on-adversarial) and the
hybrids and neural models compared by non-overlap (hybrids-beat-transformers-adversarial)."""

HYBRID_DROP_ROWS = ("VerbNet-CN", "AMR-CN")
"""The rows of the family ``hybrid_drops`` (figure4-hybrid-drops-near-zero: either hybrid's drop
outside the margin, two equivalence tests)."""

DEFSENT_COLUMNS = ("STSb-capt", "STSb-test", "SICK", "STSS-131", "STS3k-all", "STS3k-non", "STS3k-adv")
"""The Table 9 columns of DefSent minus SentBERT (§6, :func:`defsent_vs_sentbert`)."""

DEFSENT_FAMILY = (("STS3k-adv",), ("STSb-capt", "STSb-test", "SICK", "STSS-131", "STS3k-non"))
"""The columns of DefSent minus SentBERT in the union of defsent-beats-sentbert-only-on-adversarial:
the direction (STS3k-adv) and the equivalence tests ("at or slightly below the level")."""


RECOMPUTED_FAMILIES = {("mpnet (std)", "STS3k-adv"): "transformers_above_bound",
                       ("overlap", "STS3k-adv"): "lexical_control", ("overlap", "drop"): "lexical_control"}
"""The recomputed rows of ``sts3k-models`` whose test enters a union (row label, quantity) ->
family of :data:`compsem.sts.families.UNION_FAMILIES`: the re-run SentBERT's STS3k-adv rho in the
count above .2 (transformers-poor-on-adversarial's fails side, k = 7), word overlap's STS3k-adv
rho above .2 or its drop below 0 (adversarial-pairs-control-lexical-similarity, k = 2)."""


def recomputed_levels(label: str, quantity: str, level: float = 0.95) -> dict[str, float]:
    """The levels of a recomputed row's interval of ``quantity`` (a Table 9 column, or
    ``"drop"``): ``{"ci": level}``, and Bonferroni's level of the union it enters where
    :data:`RECOMPUTED_FAMILIES` names one (:func:`family_levels`), both read from one set of draws
    (:func:`compsem.sts.similarity.bootstrap_spearman_levels`, :func:`drop_intervals`)."""
    family = RECOMPUTED_FAMILIES.get((label, quantity))
    return family_levels(level, UNION_FAMILIES[family]) if family else {"ci": level}


def cluster_widths(pairs: pd.DataFrame, n_resamples: int = 1000, seed: int = 0,
                   level: float = 0.95) -> tuple[pd.DataFrame, dict[str, float]]:
    """How much the clusters of pairs that share a sentence widen the intervals: for each Table 9
    row's published STS3k-adv file, the width of the percentile-bootstrap interval of its rho
    resampling pairs one by one and resampling clusters
    (:func:`compsem.data.shared_sentences.sentence_clusters`), the same ``n_resamples`` and ``seed``.
    Returns ``(table, values)``: the table one row per Table 9 row (``pairs``, ``clusters``,
    ``ratio``), ``values`` ``cluster_width_ratio_median``, ``_min`` and ``_max``."""
    human = pairs["human"].to_numpy()
    adv = sts3k.portion_mask(pairs, "adv")
    clusters = shared_sentences.sentence_clusters(pairs)
    rows = {}
    for row in table9.PUBLISHED_ROWS:
        sims = sts3k.load_published_similarities(table9.cell_file(row, "STS3k-adv"))
        (by_pair,), (by_cluster,) = (bootstrap_spearman_levels(sims, human, adv, n_resamples, seed, [level], c)
                                     for c in (None, clusters))
        rows[row] = {"pairs": by_pair[1] - by_pair[0], "clusters": by_cluster[1] - by_cluster[0]}
    table = pd.DataFrame(rows).T.rename_axis("model")
    table["ratio"] = table["clusters"] / table["pairs"]
    return table, {f"cluster_width_ratio_{stat}": float(getattr(table["ratio"], stat)())
                   for stat in ("median", "min", "max")}


def published_intervals(pairs: pd.DataFrame, n_resamples: int = 1000, seed: int = 0,
                        level: float = 0.95) -> tuple[pd.DataFrame, dict[str, float]]:
    """Each Table 9 row's STS3k-adv rho and its drop rho(non) - rho(adv), from the authors'
    published file (:func:`compsem.sts.table9.cell_file`), with percentile-bootstrap intervals over
    clusters of pairs that share a sentence (:func:`compsem.data.shared_sentences.sentence_clusters`;
    ``n_resamples``, ``seed``): every row's file is bootstrapped once for its rho and once
    for its drop, and every level is read from those draws (:func:`adv_spearman_intervals`,
    :func:`drop_intervals`), so each interval of a union contains the single test's.

    Returns ``(table, values)``. ``table``: one row per Table 9 row, ``adv``, ``adv low``,
    ``adv high``, ``non − adv``, ``drop low``, ``drop high``, ``drop 90% low``, ``drop 90% high``
    (:func:`compsem.sts.figures.published_intervals`). ``values``: ``table9_<row>_sts3k_adv_ci_low``
    / ``_high`` (``level``), ``table9_drop_<row>`` with ``_ci_low`` / ``_high`` (``level``) and
    ``_ci90_low`` / ``_high`` (90%, an equivalence test's); and where a row's test enters a union
    (:data:`compsem.sts.families.UNION_FAMILIES`), its interval at Bonferroni's level:
    ``table9_<row>_sts3k_adv_bonf<k>_ci_low`` / ``_high`` for the families of :data:`ADV_FAMILIES`
    (k = 6, 7, 11), ``table9_drop_<row>_bonf16_ci_low`` / ``_high`` for every row (family
    ``drops``, from ``level``) and ``table9_drop_<row>_bonf2_ci_low`` / ``_high`` for
    :data:`HYBRID_DROP_ROWS` (``hybrid_drops``, equivalence: from 90%).
    """
    human = pairs["human"].to_numpy()
    non, adv = sts3k.portion_mask(pairs, "non"), sts3k.portion_mask(pairs, "adv")
    clusters = shared_sentences.sentence_clusters(pairs)
    rows, values = [], {}
    for row in table9.PUBLISHED_ROWS:
        sims = sts3k.load_published_similarities(table9.cell_file(row, "STS3k-adv"))
        key = table9.ROW_SLUGS[row]
        in_families = [UNION_FAMILIES[family] for family, members in ADV_FAMILIES.items() if row in members]
        values |= adv_spearman_intervals({f"table9_{key}": sims}, human, adv, n_resamples, seed,
                                         family_levels(level, *in_families), clusters)
        drop_levels = family_levels(level, UNION_FAMILIES["drops"]) | {"ci90": stats.EQUIVALENCE_LEVEL}
        if row in HYBRID_DROP_ROWS:  # an equivalence test in a union of k: Bonferroni's level from its 90%
            k = UNION_FAMILIES["hybrid_drops"]
            drop_levels[f"bonf{k}_ci"] = stats.bonferroni_level(k, 1 - stats.EQUIVALENCE_LEVEL)
        rho_adv = spearman(sims, human, adv)
        drop = spearman(sims, human, non) - rho_adv
        values |= {f"table9_drop_{key}": drop} | drop_intervals({f"table9_drop_{key}": sims}, human, non, adv,
                                                                n_resamples, seed, drop_levels, clusters)
        rows.append({"model": row, "adv": rho_adv,
                     "adv low": values[f"table9_{key}_sts3k_adv_ci_low"],
                     "adv high": values[f"table9_{key}_sts3k_adv_ci_high"], "non − adv": drop,
                     "drop low": values[f"table9_drop_{key}_ci_low"], "drop high": values[f"table9_drop_{key}_ci_high"],
                     "drop 90% low": values[f"table9_drop_{key}_ci90_low"],
                     "drop 90% high": values[f"table9_drop_{key}_ci90_high"]})
    return pd.DataFrame(rows).set_index("model"), values


def defsent_vs_sentbert(n_resamples: int = 1000, seed: int = 0, level: float = 0.95
                        ) -> tuple[pd.DataFrame, dict[str, float]]:
    """DefSent minus SentBERT on each column of :data:`DEFSENT_COLUMNS` (§6), a paired bootstrap on
    the published files (:func:`compsem.sts.table9.paired_published`), each column bootstrapped
    once and every level read from those draws: ``level`` (the direction's, columns ``ci_low``,
    ``ci_high``), 90% (an equivalence test's, ``ci90_low``, ``ci90_high``) and, for the columns of
    :data:`DEFSENT_FAMILY` (family ``defsent_vs_sentbert``, k = 6), Bonferroni's level of the union,
    ``1 - (1 - level) / k`` for STS3k-adv and ``1 - .10/k`` for the equivalence columns
    (``bonf<k>_ci_low``, ``bonf<k>_ci_high``; NaN on STS3k-all, which is in no union).

    Returns ``(table, values)``: the table one row per column, in :data:`DEFSENT_COLUMNS` order;
    ``values`` ``defsent_minus_sentbert_<column>`` with ``_ci_low``, ``_ci_high``, ``_p``,
    ``_ci90_low``, ``_ci90_high`` and, in the family, ``_bonf<k>_ci_low`` / ``_high``."""
    k = UNION_FAMILIES["defsent_vs_sentbert"]
    (direction,), equivalence = DEFSENT_FAMILY
    parts = [table9.paired_published("DefSent", "SentBERT", columns, n_resamples=n_resamples, seed=seed,
                                     level=level, levels={"ci90": stats.EQUIVALENCE_LEVEL} | extra)
             for columns, extra in (([direction], {f"bonf{k}_ci": stats.bonferroni_level(k, 1 - level)}),
                                    (list(equivalence), {f"bonf{k}_ci": stats.bonferroni_level(k, 1 - stats.EQUIVALENCE_LEVEL)}),
                                    ([c for c in DEFSENT_COLUMNS if c not in {direction, *equivalence}], {}))]
    table = pd.concat(parts).reindex(list(DEFSENT_COLUMNS))
    values = {}
    for column, row in table.iterrows():
        key = f"defsent_minus_sentbert_{table9.COLUMN_SLUGS[column]}"
        values |= {key: float(row["difference"]), f"{key}_p": float(row["p"])}
        values |= {f"{key}_{tag}_{bound}": float(row[f"{tag}_{bound}"]) for tag in ("ci", "ci90", f"bonf{k}_ci")
                   for bound in ("low", "high") if not np.isnan(row[f"{tag}_{bound}"])}
    return table, values


# --------------------------------------------------------------------------- substitute word vectors


def substitute_hybrids(word_vectors: Sequence[str], parses: pd.DataFrame, gpt4_parses: pd.DataFrame,
                       amr_parses: pd.DataFrame, stopwords, denominator: str, pairs: pd.DataFrame
                       ) -> tuple[dict[str, np.ndarray], pd.DataFrame, dict[str, float]]:
    """The hybrids of §4.6 recomputed with each of ``word_vectors`` (encoder names) in place of
    ConceptNet Numberbatch: VerbNet-CN (Eq. 2) on the authors' corrected SemParse parses and on
    their GPT-4 parses (Table 11, App. 8.3.2), and AMR-CN.

    Returns ``(series, table, values)``: ``series`` the similarities under ``VerbNet-<name>``,
    ``VerbNet-GPT-4-<name>``, ``AMR-CN-<name>``; ``table`` their :func:`sts3k_rhos`, one row per
    series; ``values`` those rhos under ``verbnet_<v>_sts3k_*``, ``verbnet_gpt4_<v>_sts3k_*``,
    ``amr_cn_<v>_sts3k_*`` and the Pearson r of the two parsers' VerbNet-CN series,
    ``verbnet_parsers_r_<v>`` (Table 11's .92), ``<v>`` the slug of the vectors' name.
    """
    from compsem.models import get_encoder

    series, rows, values = {}, {}, {}
    for name in word_vectors:
        vectors = get_encoder(name).word_vectors
        key = slug(name)
        semparse = hybrid.verbnet_cn(parses, word_vectors=vectors, stopwords=stopwords, denominator=denominator)
        gpt4 = hybrid.verbnet_cn(gpt4_parses, word_vectors=vectors, stopwords=stopwords, denominator=denominator)
        amr_cn = amr.amr_cn_many(amr_parses["amr_a"], amr_parses["amr_b"], vectors)
        for series_name, label, prefix, sims in (
                (f"VerbNet-{name}", f"VerbNet-CN, corrected parses, {name}", f"verbnet_{key}", semparse),
                (f"VerbNet-GPT-4-{name}", f"VerbNet-CN, GPT-4 parses, {name}", f"verbnet_gpt4_{key}", gpt4),
                (f"AMR-CN-{name}", f"AMR-CN, {name}", f"amr_cn_{key}", amr_cn)):
            series[series_name] = sims
            rows[label] = sts3k_rhos(sims, pairs)
            values |= {f"{prefix}_sts3k_{portion}": rho for portion, rho in rows[label].items()}
        values[f"verbnet_parsers_r_{key}"] = float(np.corrcoef(semparse, gpt4)[0, 1])
    return series, pd.DataFrame(rows).T, values


def paired_values(paired: pd.DataFrame, prefix: str, columns: Sequence[str], portion: str = "adv"
                  ) -> dict[str, float]:
    """``<prefix>_<candidate>_<portion>_<column>`` of each row of a
    :func:`compsem.sts.hybrid.paired_comparisons` table (Table 9's central contrast, §5.2). A
    Bonferroni column (``bonf<k>_ci_*``) is NaN for a candidate outside the union and is not
    glued for it."""
    return {f"{prefix}_{slug(candidate)}_{portion}_{column}": row[column]
            for candidate, row in paired.iterrows() for column in columns
            if not (column.startswith("bonf") and np.isnan(row[column]))}


def portion_gaps(a, b, human, pairs: pd.DataFrame, key: str, n_resamples: int = stats.BOOTSTRAP_RESAMPLES,
                 seed: int = 0, level: float = 0.95, family: int = 1) -> dict[str, float]:
    """rho(a) - rho(b) with people on each STS3k portion (all, non, adv), with its ``level`` (95%)
    paired bootstrap interval over clusters of pairs that share a sentence (BCa, as
    :func:`compsem.stats.paired_spearman_difference`; :func:`compsem.data.shared_sentences.sentence_clusters`):
    ``<key>_sts3k_<portion>`` and its ``_ci_low`` and ``_ci_high``. ``family`` = k > 1 (a union of
    k tests, e.g. a difference below 0 on some portion, family ``present_roles`` of
    :data:`compsem.sts.families.UNION_FAMILIES`, k = 3): also the interval at Bonferroni's level
    ``1 - (1 - level) / k``, ``<key>_sts3k_<portion>_bonf<k>_ci_low`` / ``_ci_high``. Both levels
    are read from one set of resamples per portion
    (:func:`compsem.stats.paired_spearman_difference_levels`)."""
    levels = family_levels(level, *([family] if family > 1 else []))
    values = {}
    clusters = shared_sentences.sentence_clusters(pairs)
    for portion in ("all", "non", "adv"):
        gap = stats.paired_spearman_difference_levels(a, b, human, mask=sts3k.portion_mask(pairs, portion), n_resamples=n_resamples,
                                                      seed=seed, levels=list(levels.values()), clusters=clusters)
        name = f"{key}_sts3k_{portion}"
        values[name] = gap["difference"]
        for tag, (low, high) in zip(levels, gap["intervals"], strict=True):
            values |= {f"{name}_{tag}_low": low, f"{name}_{tag}_high": high}
    return values


def parser_gaps(series: Mapping[str, np.ndarray], word_vectors: Sequence[str], human, mask,
                n_resamples: int = stats.BOOTSTRAP_RESAMPLES, seed: int = 0,
                clusters=None) -> tuple[pd.DataFrame, dict[str, float]]:
    """The parser's effect with the word vectors held fixed (Table 11, App. 8.3.2: the hybrid "is
    robust to the particular parsing method used"): rho of VerbNet-CN on the GPT-4 parses minus
    rho on the corrected parses (``series`` of :func:`substitute_hybrids`) over the pairs in
    ``mask``, with a 90% paired bootstrap interval (the interval of an equivalence test,
    :func:`compsem.stats.paired_spearman_difference`; over ``clusters`` of pairs where given).

    Returns ``(table, values)``: one row per word-vector set, and ``parser_gap_<v>_adv`` with its
    ``_ci90_low`` and ``_ci90_high``.
    """
    rows, values = {}, {}
    for name in word_vectors:
        gap = stats.paired_spearman_difference(series[f"VerbNet-GPT-4-{name}"], series[f"VerbNet-{name}"],
                                               human, mask=mask, n_resamples=n_resamples, seed=seed,
                                               level=stats.EQUIVALENCE_LEVEL, clusters=clusters)
        rows[name] = gap
        key = f"parser_gap_{slug(name)}_adv"
        values |= {key: gap["difference"], f"{key}_ci90_low": gap["ci_low"], f"{key}_ci90_high": gap["ci_high"]}
    table = pd.DataFrame(rows).T[["rho_a", "rho_b", "difference", "ci_low", "ci_high"]].rename(
        columns={"rho_a": "GPT-4 parses", "rho_b": "corrected parses", "ci_low": "90% low", "ci_high": "90% high"})
    return table, values


# --------------------------------------------------------------------------- the betas (§4.6)


def pilot_betas(word_vectors: Sequence[str], pilot_pairs: pd.DataFrame, pilot_parses: pd.DataFrame, stopwords,
                n_resamples: int = stats.BOOTSTRAP_RESAMPLES, seed: int = 0
                ) -> tuple[dict[str, pd.DataFrame], dict[str, dict[str, float]], dict[str, float]]:
    """§4.6's betas re-derived from the 120 pilot pairs with each of ``word_vectors``
    (:func:`compsem.sts.weights.fit_pilot_betas` on :func:`compsem.sts.weights.pilot_role_similarities`).

    Returns ``(fits, weights, values)``: ``fits[name]`` the fitted table; ``weights["pilot fit
    (<name>)"]`` the eight betas of Eq. 2 it gives (:func:`compsem.sts.weights.full_weights`);
    ``values`` ``pilot_beta_<v>_<role>`` with ``_ci_low``/``_ci_high``, and ``pilot_r2_<v>``.
    """
    from compsem.models import get_encoder

    fits, eight, values = {}, {}, {}
    for name in word_vectors:
        key = slug(name)
        sims = weights.pilot_role_similarities(pilot_parses, get_encoder(name).word_vectors, stopwords)
        fit = weights.fit_pilot_betas(sims, pilot_pairs["human"], n_resamples=n_resamples, seed=seed)
        fits[name] = fit
        eight[f"pilot fit ({name})"] = weights.full_weights(fit["beta"])
        for role, row in fit.iterrows():
            beta = f"pilot_beta_{key}_{slug(role)}"
            values |= {beta: row["beta"], f"{beta}_ci_low": row["ci_low"], f"{beta}_ci_high": row["ci_high"]}
        values[f"pilot_r2_{key}"] = fit.attrs["r2"]
    return fits, eight, values


def beta_variants(rolesims: pd.DataFrame, human, mask_non, pilot_weights: Mapping[str, Mapping[str, float]]
                  ) -> dict[str, Mapping[str, float]]:
    """The named weightings of Eq. 2 whose effect §4.6's betas are tested against: the paper's,
    uniform, the core roles only (minor roles 0), the pilot fits (``pilot_weights``), and all
    eight betas fitted by least squares on the pairs of ``mask_non`` (STS3k-non, the adversarial
    pairs unseen: :func:`compsem.sts.weights.fit_sts3k_betas`)."""
    return {"paper": hybrid.WEIGHTS,
            "uniform": {role: 1.0 for role in sts3k.ROLES},
            "core roles only": {**hybrid.WEIGHTS, **{role: 0.0 for role in weights.MINOR_ROLES}},
            **pilot_weights,
            "fitted on STS3k-non": weights.fit_sts3k_betas(rolesims, human, mask_non)}


def beta_sensitivity(rolesims: pd.DataFrame, variants: Mapping[str, Mapping[str, float]], best_neural, human,
                     mask, n_resamples: int = stats.BOOTSTRAP_RESAMPLES, seed: int = 0, clusters=None) -> pd.DataFrame:
    """VerbNet-CN's rho on ``mask`` (STS3k-adv) under each weighting of Eq. 2
    (:func:`compsem.sts.weights.weight_sensitivity`), and its paired difference from the best
    neural model of Table 9 (``best_neural``, its similarities) with a 95% BCa interval (as
    :func:`compsem.stats.paired_spearman_difference`, over ``clusters`` of pairs where given): columns ``difference from best neural``,
    ``ci_low``, ``ci_high`` added. "Some named weighting falls below the best neural model" is a
    union of one test per weighting, k = ``len(variants)`` (:mod:`compsem.sts.families`), so the
    interval is also given at Bonferroni's level ``1 - .05/k``: columns ``bonf<k>_ci_low`` and
    ``bonf<k>_ci_high``. Both levels of a weighting are read from one set of resamples
    (:func:`compsem.stats.paired_spearman_difference_levels`)."""
    table = weights.weight_sensitivity(rolesims, variants, human, mask)
    k = len(variants)
    levels = {"ci": 0.95, f"bonf{k}_ci": stats.bonferroni_level(k)}
    compared = {name: stats.paired_spearman_difference_levels(hybrid.combine(rolesims, w), best_neural, human, mask=mask,
                                                              n_resamples=n_resamples, seed=seed,
                                                              levels=list(levels.values()), clusters=clusters)
                for name, w in variants.items()}
    table["difference from best neural"] = [compared[name]["difference"] for name in variants]
    for position, tag in enumerate(levels):
        table[f"{tag}_low"] = [compared[name]["intervals"][position][0] for name in variants]
        table[f"{tag}_high"] = [compared[name]["intervals"][position][1] for name in variants]
    return table


def sensitivity_values(sensitivity: pd.DataFrame, perturbed) -> dict[str, float]:
    """The numbers of the beta sensitivity (§4.6's weights): ``sens_rho_<variant>`` and
    ``sens_diff_ci_low_<variant>`` of each row of :func:`beta_sensitivity`, the range of the
    named rhos and the smallest lower bound; the smallest upper bound of the intervals at the
    Bonferroni level of the union of the k named weightings, ``sens_min_named_diff_bonf<k>_ci_high``,
    and k, ``sens_n_named``; the minimum, :data:`PERTURBED_PERCENTILE`-th percentile and median of
    the ``perturbed`` rhos (:func:`compsem.sts.weights.perturbed_rhos`)."""
    k = len(sensitivity)
    values = {f"sens_rho_{slug(name)}": row["rho"] for name, row in sensitivity.iterrows()}
    values |= {f"sens_diff_ci_low_{slug(name)}": row["ci_low"] for name, row in sensitivity.iterrows()}
    return values | {
        "sens_perturbed_min": float(np.min(perturbed)),
        "sens_perturbed_q025": float(np.quantile(perturbed, PERTURBED_PERCENTILE / 100)),
        "sens_perturbed_q025_pct": PERTURBED_PERCENTILE,
        "sens_perturbed_median": float(np.median(perturbed)),
        "sens_min_named_rho": float(sensitivity["rho"].min()),
        "sens_max_named_rho": float(sensitivity["rho"].max()),
        "sens_min_named_diff_ci_low": float(sensitivity["ci_low"].min()),
        f"sens_min_named_diff_bonf{k}_ci_high": float(sensitivity[f"bonf{k}_ci_high"].min()),
        "sens_n_named": k,
    }


# --------------------------------------------------------------------------- Figure 8 (§5.4)


def figure8_values(relative: pd.DataFrame, mads: pd.Series, models: Sequence[str]) -> dict[str, float]:
    """Figure 8's numbers (§5.4): ``mad_<model>``, the mean absolute deviation of each model's
    profile from the human one, and ``fig8_<series>_<category>``, the relative profile of people
    and of each model (:func:`compsem.sts.structure.figure8`)."""
    values = {f"mad_{slug(name)}": float(mads[name]) for name in models}
    for name in ["Human", *models]:
        values |= {f"fig8_{slug(name)}_{slug(category)}": float(relative.loc[name, category])
                   for category in relative.columns}
    return values


def interval_values(intervals: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Contrasts of :func:`compsem.sts.contrasts.interval` as glue values: ``<key>`` (the point
    value), ``<key>_ci_low`` and ``<key>_ci_high``."""
    return {key if part == "value" else f"{key}_{part}": value
            for key, interval in intervals.items() for part, value in interval.items()}


def within_category_summary(within: pd.DataFrame, series: Sequence[str]) -> tuple[pd.DataFrame, dict[str, float]]:
    """The extension "ranking pairs or ranking types?" (Figure 8's categories, §5.4): rho within
    each category (:func:`compsem.sts.structure.within_category_spearman`) and its mean over the
    categories weighted by their numbers of pairs.

    Returns ``(table, values)``: categories by ``series`` with a last row ``weighted mean``;
    ``within_rho_<series>_<category>`` and ``within_weighted_<series>``.
    """
    values = {f"within_rho_{slug(row['series'])}_{slug(row['category'])}": row["rho"]
              for _, row in within.iterrows()}
    sums = within.assign(weighted=within["rho"] * within["n"]).groupby("series", sort=False)[["weighted", "n"]].sum()
    weighted = sums["weighted"] / sums["n"]
    values |= {f"within_weighted_{slug(name)}": float(value) for name, value in weighted.items()}
    table = within.pivot(index="category", columns="series", values="rho").loc[list(FIGURE8_CATEGORIES),
                                                                                list(series)]
    table.loc["weighted mean"] = weighted
    return table, values


# --------------------------------------------------------------------------- generated pairs


def label_generated(generated: pd.DataFrame) -> pd.DataFrame:
    """Our labeller's roles (:func:`compsem.sts.roles.label_roles`) of the A and B sentences of
    generated pairs, indexed like :func:`compsem.sts.generator.gold_roles` (``row``,
    ``sentence``)."""
    n = len(generated)
    predicted = roles.label_roles(list(generated["sentence_a"]) + list(generated["sentence_b"]))
    predicted.index = pd.MultiIndex.from_arrays([list(range(n)) * 2, ["a"] * n + ["b"] * n],
                                                names=["row", "sentence"])
    return predicted.sort_index()


def role_recovery(generated: pd.DataFrame, predicted: pd.DataFrame, gold: pd.DataFrame) -> pd.DataFrame:
    """Whether the labeller puts the words that trade places in the right roles: per manipulation
    of the generator, the lenient F1 of Agent, Verb and the object (Patient or Theme,
    :func:`compsem.sts.roles.core_roles`) against the gold roles (Eq. 2 reads Patient and
    Theme alike, §4.6). One row per category present, in :data:`compsem.sts.generator.CATEGORIES`
    order."""
    row_category = generated["category"].to_numpy()
    recovery = {}
    for category in generator.CATEGORIES:
        rows = list(np.flatnonzero(row_category == category))
        if rows:
            scored = roles.evaluate(roles.core_roles(predicted.loc[rows]), roles.core_roles(gold.loc[rows]))
            recovery[category] = {"Agent": scored.loc["Agent", "F1_lenient"], "Verb": scored.loc["Verb", "F1_lenient"],
                                  "Object (Patient or Theme)": scored.loc["Patient", "F1_lenient"]}
    return pd.DataFrame(recovery).T


def generated_profile(generated: pd.DataFrame, models: Sequence[str], gold: pd.DataFrame, predicted: pd.DataFrame,
                      vectors_name: str, word_vectors, stopwords, denominator: str) -> pd.DataFrame:
    """Mean similarity per manipulation of the generated pairs (no human ratings; the paper's
    Figure 8 question asked of models alone, §5.4): each sentence model of ``models``
    (:func:`compsem.sts.scoring.pair_similarities`), and VerbNet-CN (Eq. 2, §4.6) with
    ``word_vectors`` on the gold roles and on our labeller's. One row per category, one column
    per series."""
    from compsem.sts import scoring

    sims = {spec: scoring.pair_similarities(spec, generated, show_progress=False) for spec in models}
    for source, frame in (("gold roles", gold), ("our labeller", predicted)):
        rolesims = hybrid.role_similarities(frame.xs("a", level="sentence"), frame.xs("b", level="sentence"),
                                            word_vectors=word_vectors, stopwords=stopwords)
        sims[f"VerbNet ({vectors_name}, {source})"] = hybrid.combine(rolesims, denominator=denominator)
    category = generated["category"].to_numpy()
    return pd.DataFrame({name: pd.Series(values).groupby(category).mean() for name, values in sims.items()})


# --------------------------------------------------------------------------- sts3k-finetune


def pair_embeddings(spec: str, pairs: pd.DataFrame, device: str = "auto") -> tuple[np.ndarray, np.ndarray]:
    """Unstandardised embeddings of the A and B sentences under a model spec, the inputs of the
    regressor features of §4.7: ``mean:<vectors>`` the Mean composition of word vectors after
    stop-word removal (Table 1), otherwise a sentence encoder
    (:func:`compsem.sts.scoring.embed_unique`, cached on disk)."""
    from compsem.sts import scoring

    sentences = list(pairs["sentence_a"]) + list(pairs["sentence_b"])
    if spec.startswith("mean:"):
        both = scoring.composed_vectors("mean", spec.split(":", 1)[1], sentences, sts3k.load_stopwords())
        return both[: len(pairs)], both[len(pairs):]
    both = scoring.embed_unique(spec, sentences, device=device, show_progress=False)
    return both[: len(pairs)], both[len(pairs):]


def published_row(published: pd.DataFrame, features: str, regressor: str, split: str,
                  n_components: int) -> pd.Series:
    """One scored prediction file of the authors (a row of
    :func:`compsem.sts.regressors.published_grid`; Figures 6, 7 and 11, §5.3)."""
    chosen = published[(published["features"] == features) & (published["regressor"] == regressor)
                       & (published["split"] == split) & (published["n_components"] == n_components)]
    if chosen.empty:
        raise KeyError(f"no published prediction file for {features}/{regressor}/{split}/{n_components}")
    return chosen.iloc[0]


# --------------------------------------------------------------------------- the authors' random split


HELDOUT_RESAMPLES = 10_000
"""Resamples of the held-out-row intervals of the authors' random-split files
(:func:`published_random_values`). A percentile bound moves from one bootstrap seed to another;
at 10,000 resamples its SD over seeds is about .0005 on these 846 rows (at 1,000 about .002)."""


DEGRADATION_MARGIN = 0.05
"""The margin of "it also did not degrade and maintained at a fairly high correlation of around
0.6" (§5.3, Figure 6): half a unit of the one decimal at which the sentence speaks, the margin of
its "around 0.6" (the .55–.65 band of the claim verbnet-adversarial-split-stable)."""


def published_degradation(pairs: pd.DataFrame, features: str = "verbnet",
                          regressors: Sequence[str] = ("reg", "nn1", "nn2", "nn3"),
                          n_resamples: int = HELDOUT_RESAMPLES, seed: int = 0
                          ) -> tuple[pd.DataFrame, dict[str, float]]:
    """Did training on the non-adversarial pairs lower the correlation (§5.3, Figure 6: VerbNet-CN
    "did not improve significantly with training, though it also did not degrade")? From the
    authors' files: each regressor's PCA-8 adversarial-split prediction file minus their untrained
    file of the same features, rho with the human ratings on the 1,664 adversarial pairs (the
    split's test set), with the paired BCa bootstrap over clusters of pairs that share a sentence
    (both files resampled together, :func:`compsem.stats.paired_spearman_difference_levels`,
    :func:`compsem.data.shared_sentences.sentence_clusters`, ``n_resamples`` seeded by
    ``seed``) at 90% (a non-inferiority test at one-sided 5% against -:data:`DEGRADATION_MARGIN`)
    and, from the same resamples, at Bonferroni's level ``1 - .10/k`` for the union of the ``k =
    len(regressors)`` tests. Returns a table (one row per regressor: trained, untrained, the
    difference and its 90% interval) and the glued values ``ft_degrade_<features>_<regressor>``
    with ``_ci90_low``/``_ci90_high`` and ``_bonf<k>_ci_low``/``_ci_high``,
    ``ft_degrade_<features>_untrained`` and ``ft_degrade_margin``."""
    from compsem.sts import regressors as rg

    human = pairs["human"].to_numpy(dtype=float)
    adversarial = sts3k.portion_mask(pairs, "adv")
    clusters = shared_sentences.sentence_clusters(pairs)  # the bootstrap's units
    untrained = rg.published_predictions(features, "none", "adversarial", 8)
    k = len(regressors)  # UNION_FAMILIES["verbnet_degradation"] for the paper's four
    levels = (0.90, stats.bonferroni_level(k, 0.10))
    base = f"ft_degrade_{slug(features)}"
    values: dict[str, float] = {"ft_degrade_margin": DEGRADATION_MARGIN}
    rows = []
    for regressor in regressors:
        trained = rg.published_predictions(features, regressor, "adversarial", 8)
        d = stats.paired_spearman_difference_levels(trained, untrained, human, adversarial, n_resamples,
                                                    seed, levels, "BCa", clusters)
        (low, high), (family_low, family_high) = d["intervals"]
        key = f"{base}_{regressor}"
        values |= {key: d["difference"], f"{key}_ci90_low": low, f"{key}_ci90_high": high,
                   f"{key}_bonf{k}_ci_low": family_low, f"{key}_bonf{k}_ci_high": family_high}
        rows.append({"regressor": regressor, "trained": d["rho_a"], "untrained": d["rho_b"],
                     "trained − untrained": d["difference"], "90% low": low, "90% high": high})
    if rows:  # one untrained file, the same rho beside every regressor
        values[f"{base}_untrained"] = rows[0]["untrained"]
    return pd.DataFrame(rows).set_index("regressor"), values


#: The authors' feature sets behind "all models can predict human judgements with correlations of
#: 0.7 – 0.8" (§5.3, Figure 6; §6.2): the four transformers §5.3 names and Mean-CN.
RANDOM_SPLIT_FAMILY = ("sentbert_mpnet_norml", "openai_norml", "defsent_cls_norml", "ernie_12_norml", "mean")


def published_random_values(random_files: pd.DataFrame, human, heldout_mask,
                            n_resamples: int = HELDOUT_RESAMPLES, seed: int = 0,
                            family: Sequence[str] = RANDOM_SPLIT_FAMILY, family_regressor: str = "nn3",
                            alpha: float = stats.ALPHA, clusters=None) -> dict[str, float]:
    """The authors' random-split prediction files scored three ways (Figure 6's random split,
    §5.3): ``pub_random_[nopca_]<scope>_<features>_<regressor>`` for ``scope`` in ``all``,
    ``train`` and ``heldout`` (the columns ``rho_all``, ``rho_train``, ``rho_heldout`` of
    :func:`compsem.sts.regressors.published_grid`; ``nopca_`` for the no-PCA files), and for the
    PCA-8 files the 95% percentile-bootstrap interval over the held-out rows (``heldout_mask``;
    over ``clusters`` of them where given, :func:`compsem.data.shared_sentences.sentence_clusters`),
    ``pub_random_heldout_<features>_<regressor>_ci_low`` and ``_ci_high``.

    "All models reach .7–.8" (§5.3) fails if *some* model of ``family`` lies below the range: a
    union of ``len(family)`` tests, so the PCA-8 ``family_regressor`` file of each is also read at
    Bonferroni's level ``1 - alpha / len(family)``, from the same resamples as its 95% interval
    (:func:`bootstrap_spearman_levels`): ``..._ci_family_low`` and ``_high``, with
    ``pub_random_family_size`` and ``pub_random_family_level``."""
    from compsem.sts import regressors as rg

    if not family:
        raise ValueError("family is empty: the union needs at least one feature set")
    pca8 = random_files[random_files["n_components"] == 8]
    missing = [name for name in family
               if not ((pca8["features"] == name) & (pca8["regressor"] == family_regressor)).any()]
    if missing:
        raise ValueError(f"family {missing} has no PCA-8 {family_regressor!r} file among random_files; "
                         f"pass the authors' random-split files (compsem.sts.regressors.published_grid)")
    level = stats.bonferroni_level(len(family), alpha)
    values: dict[str, float] = {"pub_random_family_size": len(family), "pub_random_family_level": level}
    for row in random_files.itertuples(index=False):
        short = rg.PUBLISHED_LABELS[row.features][1]
        prefix = "pub_random_" if row.n_components == 8 else "pub_random_nopca_"
        for scope in ("all", "train", "heldout"):
            values[f"{prefix}{scope}_{short}_{row.regressor}"] = float(getattr(row, f"rho_{scope}"))
        if row.n_components == 8:
            in_family = row.features in family and row.regressor == family_regressor
            intervals = bootstrap_spearman_levels(
                rg.published_predictions(row.features, row.regressor, "random", 8), human, heldout_mask,
                n_boot=n_resamples, seed=seed, levels=[0.95, level] if in_family else [0.95], clusters=clusters)
            key = f"pub_random_heldout_{short}_{row.regressor}"
            values[f"{key}_ci_low"], values[f"{key}_ci_high"] = intervals[0]
            if in_family:
                values[f"{key}_ci_family_low"], values[f"{key}_ci_family_high"] = intervals[1]
    return values


# --------------------------------------------------------------------------- our own fine-tuning (Figure 7)


def finetune_runs(models: Sequence[str], splits: Sequence[str], seeds: Sequence[int], pairs: pd.DataFrame,
                  epochs: int = 4, cv_folds: int = 0, device: str = "auto",
                  split_fractions: Sequence[float] | None = None, split_seed: int | None = None
                  ) -> tuple[pd.DataFrame, dict[tuple[str, str, int], pd.DataFrame]]:
    """Fine-tune each model end to end once per seed (§4.7's recipe,
    :func:`compsem.sts.finetune.evaluate_split`) and score it on the adversarial pairs, as
    Figure 7 does (§5.3).

    Seed ``s`` trains with training seed ``s`` on the adversarial split (the non-adversarial pairs;
    fixed) and on the seeded random split ``regressors.random_split(n, s, split_fractions)`` (by
    default §4.7's 70/15/15; the paper's split is unpublished), so the seeds carry both sources of spread; with ``split_seed``
    every training seed uses the one random split of that seed, so that the seeds carry the
    spread of the training alone. ``cv_folds > 0`` adds the paper's
    k-fold protocol for Figure 7's random-split bar (out-of-fold predictions, first seed). Returns
    the table (one row per model, split and seed: ``rho_adv`` on the similarities centred over the
    sentences of all pairs, the authors' ``_norml`` form, and the run's scalar facts) and the per-pair predictions of each
    (model, split, seed) run, for :func:`transfer_gaps`.
    """
    from compsem.sts import finetune
    from compsem.sts import regressors as rg

    seeds = [int(s) for s in seeds]
    if models and not seeds:
        raise ValueError("finetune_seeds is empty: give at least one seed, e.g. finetune_seeds=[0]")
    unknown = [name for name in splits if name not in ("adversarial", "random")]
    if unknown:
        raise ValueError(f"finetune_splits: unknown split {unknown[0]!r}; use 'adversarial' or 'random'")
    adversarial = rg.adversarial_split(pairs)
    rows, predictions = [], {}
    for model in models:
        for split_name in splits:
            for seed in seeds:
                split = adversarial if split_name == "adversarial" else rg.random_split(
                    len(pairs), seed if split_seed is None else int(split_seed),
                    rg.RANDOM_SPLIT_FRACTIONS if split_fractions is None else split_fractions)
                outcome = finetune.evaluate_split(model, pairs, split["train"], split["test"], epochs=epochs,
                                                  seed=seed, device=device, show_progress=False)
                predictions[(model, split_name, seed)] = outcome["predictions"]
                rows.append({"model": model, "split": split_name, "seed": seed,
                             "rho_adv": outcome["rho_by_portion_centred"]["adv"]}
                            | {k: v for k, v in outcome.items() if np.isscalar(v)})
        if cv_folds:
            outcome = finetune.cross_validate(model, pairs, n_folds=cv_folds, seed=seeds[0], device=device,
                                              epochs=epochs)
            rows.append({"model": model, "split": f"{cv_folds}-fold", "seed": seeds[0],
                         "rho_adv": outcome["rho_centred"]["adv"]}
                        | {k: v for k, v in outcome.items() if np.isscalar(v)})
    table = pd.DataFrame(rows, columns=None if rows else ["model", "split", "seed", "rho_adv"])
    return table, predictions


def finetune_split_words(split_seed: int | None) -> str:
    """How the fine-tuning seeds draw their random splits (:func:`finetune_runs`), for the prose
    (:func:`compsem.report.glue_words`): each its own split, or the one split of ``split_seed``."""
    if split_seed is None:
        return "draws its own split, so the spread over seeds holds both the training and the split"
    return f"uses the one split of seed {int(split_seed)}, so the spread over seeds is the training's alone"


def transfer_gaps(predictions: Mapping[tuple[str, str, int], pd.DataFrame], n_resamples: int = stats.BOOTSTRAP_RESAMPLES,
                  seed: int = 0, clusters=None) -> pd.DataFrame:
    """Per model and seed, rho(random-split-trained) − rho(adversarial-split-trained) on the same
    adversarial pairs (those among the random split's test rows), on the similarities centred over
    the sentences of all pairs (both runs alike, :mod:`compsem.sts.finetune`), with
    its 95% paired BCa bootstrap interval over those pairs (over their ``clusters`` where given: a
    Series of one label per STS3k pair, indexed as the pairs are,
    :func:`compsem.data.shared_sentences.sentence_clusters`)
    (:func:`compsem.stats.paired_spearman_difference`, ``n_resamples`` resamples, bootstrap seed
    ``seed``, the same for every model and seed): the generalisation gap
    that Figure 7's two fine-tuned bars show (§5.3). One row per model and seed that has both runs:
    ``model``, ``seed``, ``difference``, ``ci_low``, ``ci_high``, ``n`` (pairs)."""
    rows = []
    for (model, split_name, run_seed), rand in predictions.items():
        adv = predictions.get((model, "adversarial", run_seed))
        if split_name != "random" or adv is None:
            continue
        common = rand.index[rand["portion"] == "adv"].intersection(adv.index)
        gap = stats.paired_spearman_difference(rand.loc[common, "sim_centred"], adv.loc[common, "sim_centred"],
                                               rand.loc[common, "human"], n_resamples=n_resamples, seed=seed,
                                               clusters=None if clusters is None else clusters.loc[common])
        rows.append({"model": model, "seed": run_seed} | {k: gap[k] for k in ("difference", "ci_low", "ci_high", "n")})
    return pd.DataFrame(rows, columns=["model", "seed", "difference", "ci_low", "ci_high", "n"])


def finetune_values(runs: pd.DataFrame, gaps: pd.DataFrame) -> dict[str, float]:
    """The glued numbers of our fine-tuning, over seeds (mean and 95% t-interval,
    :func:`compsem.sts.seed_grids.t_interval`; the interval only from two seeds on, so that a
    one-seed run leaves the claims that need it not evaluated; over the seeded random splits,
    whose training sets overlap, corrected as Nadeau & Bengio's resampled t,
    :data:`compsem.sts.seed_grids.RANDOM_SPLIT_OVERLAP`):

    - ``finetune_<model>_<split>_adv`` (``_ci_low``, ``_ci_high``): rho on the adversarial pairs;
    - ``finetune_<model>_transfer_gap_difference`` (``_ci_low``, ``_ci_high``): the gap of
      :func:`transfer_gaps`, decided over seeds, with ``_n_seeds`` seeds and its smallest and
      largest per-seed value (``_seed_min``, ``_seed_max``) and per-seed bootstrap bound
      (``_pairs_ci_low_min``: the lowest of the per-seed intervals over pairs).
    """
    values: dict[str, float] = {}
    for (model, split_name), group in runs.groupby(["model", "split"], sort=False):
        key = f"finetune_{model}_{split_name.replace('-', '_')}_adv"
        values |= _over_seeds(group["rho_adv"], key, key, RANDOM_SPLIT_OVERLAP if split_name == "random" else 0.0)
    for model, group in gaps.groupby("model", sort=False):  # each seed's random split against the fixed one
        key = f"finetune_{model}_transfer_gap"
        values |= _over_seeds(group["difference"], f"{key}_difference", key, RANDOM_SPLIT_OVERLAP)
        values |= {f"{key}_n_seeds": len(group), f"{key}_seed_min": float(group["difference"].min()),
                   f"{key}_seed_max": float(group["difference"].max()),
                   f"{key}_pairs_ci_low_min": float(group["ci_low"].min())}
    return values


def _over_seeds(seed_values: pd.Series, mean_key: str, interval_key: str,
                overlap: float = 0.0) -> dict[str, float]:
    """``{mean_key: mean}`` over seeds, and from two seeds on ``<interval_key>_ci_low`` and
    ``_ci_high``, its 95% t-interval (:func:`compsem.sts.seed_grids.t_interval` with ``overlap``,
    n_test / n_train for seeds that draw overlapping random splits)."""
    values = np.asarray(seed_values, dtype=float)
    mean = float(values.mean())
    if len(values) < 2:
        return {mean_key: mean}
    low, high = t_interval(mean, float(values.std(ddof=1)), len(values), overlap=overlap)
    return {mean_key: mean, f"{interval_key}_ci_low": low, f"{interval_key}_ci_high": high}


def paper_transfer_gap(targets: Mapping[str, dict]) -> float:
    """Figure 7's generalisation gap of the authors' fine-tuned SentBERT (§5.3): the ten-fold
    random-split bar minus the adversarial-split bar (targets ``fig7_sentbert_random_10fold`` and
    ``fig7_sentbert_adversarial``), set beside the gaps of :func:`transfer_gaps`."""
    return float(targets["fig7_sentbert_random_10fold"]["paper"] - targets["fig7_sentbert_adversarial"]["paper"])


FINETUNE_TARGETS = {"adversarial": "ft_sentbert_adversarial", "10-fold": "ft_sentbert_random_10fold"}
"""Figure 7's fine-tuned SentBERT bars (§5.3) by split of :func:`finetune_runs` (MPNet, the
paper's SentBERT checkpoint; the 10-fold row where ``cv_folds=10``)."""


def finetune_paper_values(runs: pd.DataFrame) -> dict[str, float]:
    """Our MPNet fine-tuning under the targets' keys of Figure 7 (:data:`FINETUNE_TARGETS`):
    the mean over seeds of ``rho_adv`` (the authors' fine-tuned files are centred, as ours are).
    Empty where MPNet was not fine-tuned."""
    mpnet = runs[runs["model"] == "mpnet"]
    return {key: float(mpnet.loc[mpnet["split"] == split_name, "rho_adv"].mean())
            for split_name, key in FINETUNE_TARGETS.items() if (mpnet["split"] == split_name).any()}


FINETUNE_PAPER_BARS = {**FINETUNE_TARGETS, "random": FINETUNE_TARGETS["10-fold"]}
"""The paper's fine-tuned SentBERT bar (Figure 7, §5.3) beside each split of :func:`finetune_runs`
for MPNet, the paper's SentBERT: its random-split bar is the 10-fold out-of-fold one, shown beside
our seeded random split too."""
FINETUNE_PAPER_ROW = "paper (SentBERT, Fig. 7)"
"""The label of the paper's row in :func:`finetune_seed_table`."""


def finetune_seed_table(runs: pd.DataFrame, targets: Mapping[str, dict]) -> pd.DataFrame:
    """Our fine-tuning by seed (rows) and model and split (columns): ``rho_adv`` of
    :func:`finetune_runs`, with the row :data:`FINETUNE_PAPER_ROW`: the paper's fine-tuned SentBERT
    bar of each split (:data:`FINETUNE_PAPER_BARS`) under MPNet, the same model; NaN under the
    other models, which the paper did not fine-tune, and where the targets have no bar. Where no
    column has a bar (MPNet not fine-tuned), the row is left out."""
    table = runs.pivot_table(index="seed", columns=["model", "split"], values="rho_adv", sort=False)
    keys = [FINETUNE_PAPER_BARS.get(split) if model == "mpnet" else None
            for model, split in table.columns]
    paper = [float(targets[key]["paper"]) if key in targets else np.nan for key in keys]
    table.index = table.index.astype(object)
    if not np.isnan(paper).all():
        table.loc[FINETUNE_PAPER_ROW] = paper
    return table


# --------------------------------------------------------------------------- the authors' random split, read off their files


def published_random_split(pairs: pd.DataFrame, published: pd.DataFrame, train_rows, published_ft: pd.DataFrame,
                           n_resamples: int = HELDOUT_RESAMPLES, seed: int = 0
                           ) -> tuple[pd.DataFrame, dict[str, float]]:
    """The authors' random split (§4.7; Figure 6's random split, §5.3) as their own files give it
    away: ``(random_files, values)``.

    ``random_files``: the rows of ``published`` (:func:`compsem.sts.regressors.published_grid`)
    of the random-split regressor files (reg to nn5). ``values``, in this order:
    ``pub_inputs_<short>``, the inputs of the two no-PCA linear regressions that interpolate
    their training rows (:data:`compsem.sts.regressors.INTERPOLATING_FILES`); the number of
    training rows ``train_rows`` (:func:`compsem.sts.regressors.published_training_rows`) and of
    the others, ``pub_random_n_train`` and ``pub_random_n_heldout``; the files scored on all,
    training and held-out rows, with the intervals over the held-out ones
    (:func:`published_random_values`, ``n_resamples`` resamples drawn with ``seed``); and the authors' SentBERT fine-tuned on the same split
    (``published_ft``: :func:`compsem.sts.finetune.published_finetuned` given ``train_rows``) on
    the adversarial pairs among the training rows and among the held-out ones,
    ``pub_traintest_train_adv`` and ``pub_traintest_heldout_adv``."""
    from compsem.sts import regressors as rg

    values: dict[str, float] = {f"pub_inputs_{rg.PUBLISHED_LABELS[name][1]}": rg.published_n_features(name, n_components)
                                for name, n_components in rg.INTERPOLATING_FILES}
    values["pub_random_n_train"] = len(train_rows)
    values["pub_random_n_heldout"] = len(pairs) - len(train_rows)
    random_files = published[(published["split"] == "random") & published["regressor"].isin(list(rg.REGRESSORS))]
    heldout_mask = ~np.isin(np.arange(len(pairs)), train_rows)
    values |= published_random_values(random_files, pairs["human"].to_numpy(), heldout_mask,
                                      n_resamples=n_resamples, seed=seed, clusters=shared_sentences.sentence_clusters(pairs))
    traintest = published_ft.set_index("condition").loc["random split (train/test)"]
    values["pub_traintest_train_adv"] = float(traintest["rho_train_adv"])
    values["pub_traintest_heldout_adv"] = float(traintest["rho_heldout_adv"])
    return random_files, values


RANDOM_SPLIT_ROWS = {"rho_all": "all pairs", "rho_train": "training rows", "rho_heldout": "held-out rows"}
"""The scores of a random-split file (:func:`compsem.sts.regressors.published_grid`) -> the rows
they are scored on, as :func:`published_random_table` labels them."""


def published_random_table(random_files: pd.DataFrame) -> pd.DataFrame:
    """The authors' PCA-8 random-split files scored on each set of rows (Figure 6's random split,
    §5.3): Spearman rho, one row per feature set and set of rows (:data:`RANDOM_SPLIT_ROWS`: all
    pairs, the training rows, the held-out rows), in the order they first occur, and one column
    per regressor of ``random_files`` in the order of :data:`compsem.sts.regressors.REGRESSORS`.
    ``random_files``: those of :func:`published_random_split`, with the column ``feature set``
    (the display label of the features)."""
    from compsem.sts import regressors as rg

    table = random_files[random_files["n_components"] == 8].melt(
        id_vars=["feature set", "regressor"], value_vars=["rho_all", "rho_train", "rho_heldout"], var_name="rows")
    table["rows"] = table["rows"].map(RANDOM_SPLIT_ROWS)
    return table.pivot_table(index=["feature set", "rows"], columns="regressor", values="value", sort=False).reindex(
        columns=[r for r in rg.REGRESSORS if r in set(table["regressor"])])
