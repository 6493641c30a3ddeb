"""The loops, tables and glued numbers of the chapters ``sts3k-hybrid`` and ``sts3k-finetune``, and
the intervals that the unions of tests of ``sts3k-models`` read (:func:`published_union_intervals`,
:func:`adv_spearman_intervals`, :func:`drop_intervals`; :mod:`compsem.sts.families`).

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
from compsem.data import sts3k
from compsem.report import slug
from compsem.sts import amr, generator, hybrid, roles, table9, weights
from compsem.sts.similarity import bootstrap_difference, bootstrap_spearman, table9_correlations
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


def sts3k_values(table: pd.DataFrame, prefixes: Sequence[str | None]) -> dict[str, float]:
    """The cells of an :func:`sts3k_table` under ``<prefix>_sts3k_<portion>``, one prefix per
    row in the table's order (None: a row with no key, e.g. a published file shown beside)."""
    values = {}
    for (_, row), prefix in zip(table.iterrows(), prefixes, strict=True):
        if prefix is not None:
            values |= {f"{prefix}_sts3k_{portion}": float(row[portion]) for portion in PORTIONS}
    return values


def _family_tag(family: int) -> str:
    """The key fragment of an interval read in a union of ``family`` tests: ``ci`` for a single
    test, ``bonf<k>_ci`` for a union of k (:mod:`compsem.sts.families`)."""
    return "ci" if family == 1 else f"bonf{family}_ci"


def adv_spearman_intervals(series: Mapping[str, np.ndarray], human, mask, n_resamples: int = 2000,
                           seed: int = 0, level: float = 0.95, family: int = 1) -> dict[str, float]:
    """``<key>_sts3k_adv_ci_low`` and ``_ci_high`` of each series: the ``level`` (95%)
    percentile-bootstrap interval over the pairs in ``mask`` (STS3k-adv) of its Spearman rho with
    people (:func:`compsem.sts.similarity.bootstrap_spearman`; an uncertainty on a Table 9 cell).

    ``family`` = k > 1: the interval that enters a union of k tests (:mod:`compsem.sts.families`),
    at Bonferroni's level ``1 - (1 - level) / k`` from the same resamples (so it contains the
    ``level`` interval), keyed ``<key>_sts3k_adv_bonf<k>_ci_low`` / ``_ci_high`` instead."""
    at, tag = stats.bonferroni_level(family, 1 - level), _family_tag(family)
    values = {}
    for key, sims in series.items():
        low, high = bootstrap_spearman(sims, human, mask, n_boot=n_resamples, seed=seed, level=at)
        values |= {f"{key}_sts3k_adv_{tag}_low": low, f"{key}_sts3k_adv_{tag}_high": high}
    return values


def drop_intervals(series: Mapping[str, np.ndarray], human, mask_non, mask_adv, n_resamples: int = 2000,
                   seed: int = 0, level: float = 0.95, family: int = 1) -> dict[str, float]:
    """``<key>_ci_low`` and ``_ci_high`` of each series: the ``level`` percentile-bootstrap
    interval of its drop rho(non) - rho(adv) (Figure 4, the two portions resampled independently,
    :func:`compsem.sts.similarity.bootstrap_difference`).

    ``family`` = k > 1: the interval that enters a union of k tests (:mod:`compsem.sts.families`),
    at Bonferroni's level ``1 - (1 - level) / k`` from the same resamples, keyed
    ``<key>_bonf<k>_ci_low`` / ``_ci_high`` instead (``level`` .90 for an equivalence test)."""
    at, tag = stats.bonferroni_level(family, 1 - level), _family_tag(family)
    values = {}
    for key, sims in series.items():
        low, high = bootstrap_difference(sims, human, mask_non, mask_adv, n_boot=n_resamples, seed=seed, level=at)
        values |= {f"{key}_{tag}_low": low, f"{key}_{tag}_high": high}
    return values


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

DEFSENT_FAMILY = (("STS3k-adv",), ("STSb-capt", "STSb-test", "SICK", "STSS-131", "STS3k-non"))
"""The columns of DefSent minus SentBERT in the union of defsent-beats-sentbert-only-on-adversarial:
the direction (STS3k-adv) and the equivalence tests ("at or slightly below the level")."""


def published_union_intervals(pairs: pd.DataFrame, n_resamples: int = 1000, seed: int = 0,
                              level: float = 0.95) -> dict[str, float]:
    """The intervals of the authors' published similarity files that the unions of tests of
    ``sts3k-models`` read, each at Bonferroni's level for its family
    (:data:`compsem.sts.families.UNION_FAMILIES`) and from the same resamples as the chapter's
    single-test intervals (``n_resamples``, ``seed``; ``level`` the directions' level, .90 for the
    equivalence tests), so each contains its single-test interval:

    - ``table9_<row>_sts3k_adv_bonf<k>_ci_low``/``_high`` for the rows of :data:`ADV_FAMILIES`
      (:func:`adv_spearman_intervals`, each row's STS3k-adv file);
    - ``table9_drop_<row>_bonf16_ci_low``/``_high`` for every Table 9 row (family ``drops``) and
      ``table9_drop_<hybrid>_bonf2_ci_low``/``_high`` for VerbNet-CN and AMR-CN (``hybrid_drops``,
      equivalence) (:func:`drop_intervals`);
    - ``defsent_minus_sentbert_<column>_bonf6_ci_low``/``_high`` for the columns of
      :data:`DEFSENT_FAMILY` (:func:`compsem.sts.table9.paired_published`).
    """
    from compsem.sts.families import UNION_FAMILIES

    human = pairs["human"].to_numpy()
    non, adv = sts3k.portion_mask(pairs, "non"), sts3k.portion_mask(pairs, "adv")
    files = {row: sts3k.load_published_similarities(table9.cell_file(row, "STS3k-adv")) for row in table9.PUBLISHED_ROWS}
    values: dict[str, float] = {}
    for family, rows in ADV_FAMILIES.items():
        values |= adv_spearman_intervals({f"table9_{table9.ROW_SLUGS[row]}": files[row] for row in rows}, human, adv,
                                         n_resamples, seed, level, UNION_FAMILIES[family])
    drops = {f"table9_drop_{table9.ROW_SLUGS[row]}": sims for row, sims in files.items()}
    values |= drop_intervals(drops, human, non, adv, n_resamples, seed, level, UNION_FAMILIES["drops"])
    values |= drop_intervals({key: drops[key] for key in ("table9_drop_verbnet_cn", "table9_drop_amr_cn")}, human,
                             non, adv, n_resamples, seed, 0.90, UNION_FAMILIES["hybrid_drops"])
    k = UNION_FAMILIES["defsent_vs_sentbert"]
    for columns, single in zip(DEFSENT_FAMILY, (level, 0.90), strict=True):
        compared = table9.paired_published("DefSent", "SentBERT", list(columns), n_resamples=n_resamples, seed=seed,
                                           level=stats.bonferroni_level(k, 1 - single))
        values |= {f"defsent_minus_sentbert_{table9.COLUMN_SLUGS[column]}_bonf{k}_ci_{bound}": float(row[f"ci_{bound}"])
                   for column, row in compared.iterrows() for bound in ("low", "high")}
    return values


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
    :func:`compsem.sts.hybrid.paired_comparisons` table (Table 9's central contrast, §5.2)."""
    return {f"{prefix}_{slug(candidate)}_{portion}_{column}": row[column]
            for candidate, row in paired.iterrows() for column in columns}


def portion_gaps(a, b, human, pairs: pd.DataFrame, key: str, n_resamples: int = 2000,
                 seed: int = 0, level: float = 0.95, family: int = 1) -> dict[str, float]:
    """rho(a) - rho(b) with people on each STS3k portion (all, non, adv), with its ``level`` (95%)
    paired bootstrap interval (:func:`compsem.stats.paired_spearman_difference`, BCa):
    ``<key>_sts3k_<portion>`` and its ``_ci_low`` and ``_ci_high``. ``family`` = k > 1 (a union of
    k tests, e.g. a difference below 0 on some portion, family ``present_roles`` of
    :data:`compsem.sts.families.UNION_FAMILIES`): also the interval at Bonferroni's level
    ``1 - (1 - level) / k`` from the same resamples, ``<key>_sts3k_<portion>_bonf<k>_ci_low`` /
    ``_ci_high``."""
    values = {}
    for portion in ("all", "non", "adv"):
        mask = sts3k.portion_mask(pairs, portion)
        gap = stats.paired_spearman_difference(a, b, human, mask=mask, n_resamples=n_resamples, seed=seed,
                                               level=level)
        name = f"{key}_sts3k_{portion}"
        values |= {name: gap["difference"], f"{name}_ci_low": gap["ci_low"],
                   f"{name}_ci_high": gap["ci_high"]}
        if family > 1:
            wide = stats.paired_spearman_difference(a, b, human, mask=mask, n_resamples=n_resamples, seed=seed,
                                                    level=stats.bonferroni_level(family, 1 - level))
            values |= {f"{name}_bonf{family}_ci_low": wide["ci_low"], f"{name}_bonf{family}_ci_high": wide["ci_high"]}
    return values


def parser_gaps(series: Mapping[str, np.ndarray], word_vectors: Sequence[str], human, mask,
                n_resamples: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, dict[str, float]]:
    """The parser's effect with the word vectors held fixed (Table 11, App. 8.3.2: the hybrid "is
    robust to the particular parsing method used"): rho of VerbNet-CN on the GPT-4 parses minus
    rho on the corrected parses (``series`` of :func:`substitute_hybrids`) over the pairs in
    ``mask``, with a 90% paired bootstrap interval (the interval of an equivalence test,
    :func:`compsem.stats.paired_spearman_difference`).

    Returns ``(table, values)``: one row per word-vector set, and ``parser_gap_<v>_adv`` with its
    ``_ci90_low`` and ``_ci90_high``.
    """
    rows, values = {}, {}
    for name in word_vectors:
        gap = stats.paired_spearman_difference(series[f"VerbNet-GPT-4-{name}"], series[f"VerbNet-{name}"],
                                               human, mask=mask, n_resamples=n_resamples, seed=seed, level=0.90)
        rows[name] = gap
        key = f"parser_gap_{slug(name)}_adv"
        values |= {key: gap["difference"], f"{key}_ci90_low": gap["ci_low"], f"{key}_ci90_high": gap["ci_high"]}
    table = pd.DataFrame(rows).T[["rho_a", "rho_b", "difference", "ci_low", "ci_high"]].rename(
        columns={"rho_a": "GPT-4 parses", "rho_b": "corrected parses", "ci_low": "90% low", "ci_high": "90% high"})
    return table, values


# --------------------------------------------------------------------------- the betas (§4.6)


def pilot_betas(word_vectors: Sequence[str], pilot_pairs: pd.DataFrame, pilot_parses: pd.DataFrame, stopwords,
                n_resamples: int = 2000, seed: int = 0
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
                     mask, n_resamples: int = 2000, seed: int = 0) -> pd.DataFrame:
    """VerbNet-CN's rho on ``mask`` (STS3k-adv) under each weighting of Eq. 2
    (:func:`compsem.sts.weights.weight_sensitivity`), and its paired difference from the best
    neural model of Table 9 (``best_neural``, its similarities) with a 95% BCa interval
    (:func:`compsem.stats.paired_spearman_difference`): columns ``difference from best neural``,
    ``ci_low``, ``ci_high`` added. "Some named weighting falls below the best neural model" is a
    union of one test per weighting, k = ``len(variants)`` (:mod:`compsem.sts.families`), so the
    interval is also given at Bonferroni's level ``1 - .05/k`` from the same resamples: columns
    ``bonf<k>_ci_low`` and ``bonf<k>_ci_high``."""
    table = weights.weight_sensitivity(rolesims, variants, human, mask)
    k = len(variants)
    for tag, level in (("ci", 0.95), (f"bonf{k}_ci", stats.bonferroni_level(k))):
        compared = {name: stats.paired_spearman_difference(hybrid.combine(rolesims, w), best_neural, human, mask=mask,
                                                           n_resamples=n_resamples, seed=seed, level=level)
                    for name, w in variants.items()}
        table["difference from best neural"] = [compared[name]["difference"] for name in variants]
        table[f"{tag}_low"] = [compared[name]["ci_low"] for name in variants]
        table[f"{tag}_high"] = [compared[name]["ci_high"] for name in variants]
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


def published_random_values(random_files: pd.DataFrame, human, heldout_mask,
                            n_resamples: int = HELDOUT_RESAMPLES, seed: int = 0) -> dict[str, float]:
    """The authors' random-split prediction files scored three ways (Figure 6's random split,
    §5.3): ``pub_random_[nopca_]<scope>_<features>_<regressor>`` for ``scope`` in ``all``,
    ``train`` and ``heldout`` (the columns ``rho_all``, ``rho_train``, ``rho_heldout`` of
    :func:`compsem.sts.regressors.published_grid`; ``nopca_`` for the no-PCA files), and for the
    PCA-8 files the 95% percentile-bootstrap interval over the held-out rows (``heldout_mask``),
    ``pub_random_heldout_<features>_<regressor>_ci_low`` and ``_ci_high``."""
    from compsem.sts import regressors as rg

    values = {}
    for row in random_files.itertuples(index=False):
        short = rg.PUBLISHED_LABELS[row.features][1]
        prefix = "pub_random_" if row.n_components == 8 else "pub_random_nopca_"
        for scope in ("all", "train", "heldout"):
            values[f"{prefix}{scope}_{short}_{row.regressor}"] = float(getattr(row, f"rho_{scope}"))
        if row.n_components == 8:
            low, high = bootstrap_spearman(rg.published_predictions(row.features, row.regressor, "random", 8),
                                           human, heldout_mask, n_boot=n_resamples, seed=seed)
            values |= {f"pub_random_heldout_{short}_{row.regressor}_ci_low": low,
                       f"pub_random_heldout_{short}_{row.regressor}_ci_high": high}
    return values


#: The authors' feature sets behind "all models can predict human judgements with correlations of
#: 0.7 – 0.8" (§5.3, Figure 6; §6.2): the four transformers §5.3 names and Mean-CN.
RANDOM_SPLIT_FAMILY = ("sentbert_mpnet_norml", "openai_norml", "defsent_cls_norml", "ernie_12_norml", "mean")


def heldout_family_intervals(human, heldout_mask, n_resamples: int = HELDOUT_RESAMPLES,
                             features: Sequence[str] = RANDOM_SPLIT_FAMILY, regressor: str = "nn3",
                             alpha: float = 0.05, seed: int = 0) -> dict[str, float]:
    """Bonferroni intervals for a family of held-out-row tests on the authors' random split.

    "All models reach .7–.8" (§5.3) fails if *some* model lies below the range: a union of
    ``len(features)`` tests, each at level ``1 - alpha / len(features)``. For every feature set the
    percentile-bootstrap interval of Spearman rho of its PCA-8 ``regressor`` file on the held-out
    rows (``heldout_mask``; the same bootstrap as the 95% intervals of
    :func:`published_random_values`, at the family's level): keys
    ``pub_random_heldout_<short>_<regressor>_ci_family_low`` and ``_high``, plus
    ``pub_random_family_size`` and ``pub_random_family_level``.
    """
    from compsem.sts import regressors as rg

    if not features:
        raise ValueError("features is empty: the family needs at least one feature set")
    level = stats.bonferroni_level(len(features), alpha)
    values: dict[str, float] = {"pub_random_family_size": len(features), "pub_random_family_level": level}
    for name in features:
        prediction = rg.published_predictions(name, regressor, "random", 8)
        low, high = bootstrap_spearman(prediction, human, heldout_mask, n_boot=n_resamples, seed=seed, level=level)
        short = rg.PUBLISHED_LABELS[name][1]
        values[f"pub_random_heldout_{short}_{regressor}_ci_family_low"] = low
        values[f"pub_random_heldout_{short}_{regressor}_ci_family_high"] = high
    return values


# --------------------------------------------------------------------------- our own fine-tuning (Figure 7)


def finetune_runs(models: Sequence[str], splits: Sequence[str], seeds: Sequence[int], pairs: pd.DataFrame,
                  epochs: int = 4, cv_folds: int = 0, device: str = "auto"
                  ) -> tuple[pd.DataFrame, dict[tuple[str, str, int], pd.DataFrame]]:
    """Fine-tune each model end to end once per seed (§4.7's recipe,
    :func:`compsem.sts.finetune.evaluate_split`) and score it on the adversarial pairs, as
    Figure 7 does (§5.3).

    Seed ``s`` trains with training seed ``s`` on the adversarial split (the non-adversarial pairs;
    fixed) and on the seeded random split ``regressors.random_split(n, s)`` (the paper's split is
    unpublished), so the seeds carry both sources of spread. ``cv_folds > 0`` adds the paper's
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
                split = adversarial if split_name == "adversarial" else rg.random_split(len(pairs), seed)
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


def transfer_gaps(predictions: Mapping[tuple[str, str, int], pd.DataFrame], n_resamples: int = 2000
                  ) -> pd.DataFrame:
    """Per model and seed, rho(random-split-trained) − rho(adversarial-split-trained) on the same
    adversarial pairs (those among the random split's test rows), on the similarities centred over
    the sentences of all pairs (both runs alike, :mod:`compsem.sts.finetune`), with
    its 95% paired BCa bootstrap interval over those pairs
    (:func:`compsem.stats.paired_spearman_difference`, bootstrap seed 0): the generalisation gap
    that Figure 7's two fine-tuned bars show (§5.3). One row per model and seed that has both runs:
    ``model``, ``seed``, ``difference``, ``ci_low``, ``ci_high``, ``n`` (pairs)."""
    rows = []
    for (model, split_name, seed), rand in predictions.items():
        adv = predictions.get((model, "adversarial", seed))
        if split_name != "random" or adv is None:
            continue
        common = rand.index[rand["portion"] == "adv"].intersection(adv.index)
        gap = stats.paired_spearman_difference(rand.loc[common, "sim_centred"], adv.loc[common, "sim_centred"],
                                               rand.loc[common, "human"], n_resamples=n_resamples, seed=0)
        rows.append({"model": model, "seed": seed} | {k: gap[k] for k in ("difference", "ci_low", "ci_high", "n")})
    return pd.DataFrame(rows, columns=["model", "seed", "difference", "ci_low", "ci_high", "n"])


def finetune_values(runs: pd.DataFrame, gaps: pd.DataFrame) -> dict[str, float]:
    """The glued numbers of our fine-tuning, over seeds (mean and 95% t-interval,
    :func:`compsem.stats.seed_interval`; the interval only from two seeds on, so that a one-seed
    run leaves the claims that need it not evaluated):

    - ``finetune_<model>_<split>_adv`` (``_ci_low``, ``_ci_high``): rho on the adversarial pairs;
    - ``finetune_<model>_transfer_gap_difference`` (``_ci_low``, ``_ci_high``): the gap of
      :func:`transfer_gaps`, decided over seeds, with ``_n_seeds`` seeds and its smallest and
      largest per-seed value (``_seed_min``, ``_seed_max``) and per-seed bootstrap bound
      (``_pairs_ci_low_min``: the lowest of the per-seed intervals over pairs).
    """
    values: dict[str, float] = {}
    for (model, split_name), group in runs.groupby(["model", "split"], sort=False):
        key = f"finetune_{model}_{split_name.replace('-', '_')}_adv"
        values |= _over_seeds(group["rho_adv"], key, key)
    for model, group in gaps.groupby("model", sort=False):
        key = f"finetune_{model}_transfer_gap"
        values |= _over_seeds(group["difference"], f"{key}_difference", key)
        values |= {f"{key}_n_seeds": len(group), f"{key}_seed_min": float(group["difference"].min()),
                   f"{key}_seed_max": float(group["difference"].max()),
                   f"{key}_pairs_ci_low_min": float(group["ci_low"].min())}
    return values


def _over_seeds(seed_values: pd.Series, mean_key: str, interval_key: str) -> dict[str, float]:
    """``{mean_key: mean}`` over seeds, and from two seeds on ``<interval_key>_ci_low`` and
    ``_ci_high``, its 95% t-interval (:func:`compsem.stats.seed_interval`)."""
    mean, low, high = stats.seed_interval(seed_values)
    if len(seed_values) < 2:
        return {mean_key: mean}
    return {mean_key: mean, f"{interval_key}_ci_low": low, f"{interval_key}_ci_high": high}


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
    other models, which the paper did not fine-tune, and where the targets have no bar."""
    table = runs.pivot_table(index="seed", columns=["model", "split"], values="rho_adv", sort=False)
    keys = [FINETUNE_PAPER_BARS.get(split) if model == "mpnet" else None
            for model, split in table.columns]
    paper = [float(targets[key]["paper"]) if key in targets else np.nan for key in keys]
    table.index = table.index.astype(object)
    table.loc[FINETUNE_PAPER_ROW] = paper
    return table
