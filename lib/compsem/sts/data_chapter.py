"""Tables and glued numbers of the chapter ``sts3k-data`` (Fodor, De Deyne & Suzuki: the dataset of §4.1
and Table 7, the ratings of §4.2 and §5.1, the modifier types of §5.4 and Figure 9).

One function per thing the chapter shows; each returns a table or a dict of values to glue, so that
the notebook stays a narrative. The ratings statistics live in :mod:`compsem.sts.ratings`, the pair
types in :mod:`compsem.sts.pair_types`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from compsem.report import compare, slug
from compsem.sts import modifier_types as mt
from compsem.sts import pair_types as pt
from compsem.sts import ratings as rt

PRINTED_HALF_DIGIT = 0.0005
"""Half a unit of the third decimal, to which ``STS3k_all.txt`` prints the similarities."""

FLOAT_SLACK = 1e-9
"""Floating-point slack: a mean ending exactly in 5 at the fourth decimal differs from its printed
value by 0.0005 up to rounding of the float difference, and agrees."""


def data_counts(pairs: pd.DataFrame, participants: int, ratings: np.ndarray, checks: np.ndarray) -> dict:
    """The sizes of the data (§4.1, Table 7; §4.2): pairs, the non-adversarial and adversarial portions of the
    index files (negatives apart, and the adversarial file with them), negatives, attention
    checks, ratings, participants, and the mean number of ratings per pair (checks excluded)."""
    return {
        "n_pairs": len(pairs),
        "n_non_adversarial_index": int((pairs.portion == "non").sum()),
        "n_adversarial_no_negatives": int((pairs.portion == "adv").sum()),
        "n_negatives": int((pairs.portion == "neg").sum()),
        "n_adversarial_index": int(pairs.portion.isin(["adv", "neg"]).sum()),
        "n_checks": int(checks.sum()),
        "n_ratings": int(np.isfinite(ratings).sum()),
        "n_participants": participants,
        "ratings_per_pair": float(np.isfinite(ratings[~checks]).sum() / (~checks).sum()),
    }


OVERVIEW_ROWS = {
    "pairs": "n_pairs",
    "non-adversarial pairs (index file)": "n_non_adversarial_index",
    "adversarial pairs, no negatives (index file)": "n_adversarial_no_negatives",
    "negative pairs": "n_negatives",
    "attention checks (rated by everyone)": "n_checks",
    "ratings in the matrix": "n_ratings",
    "participants": "n_participants",
}
"""The rows of :func:`overview_table`, and the key of :func:`data_counts` each shows."""


def overview_table(counts: dict) -> pd.DataFrame:
    """:func:`data_counts` as the chapter's first table (:data:`OVERVIEW_ROWS`)."""
    return pd.Series({row: counts[key] for row, key in OVERVIEW_ROWS.items()}).to_frame("count")


AUDIT_ROWS = {
    "rows within 0.0005 of the participant mean": "normalisation_rows_within",
    "... of which exact ties at 0.0005": "normalisation_ties",
    "... of those, off without the 1e-9 slack": "normalisation_ties_off_without_slack",
    "rows further off": "normalisation_rows_off",
    "... identical-sentence attention checks": "normalisation_off_checks",
    "... one copy of a duplicated pair, with the other copy's mean": "normalisation_off_exchanged",
    "... for another reason": "normalisation_off_other",
    "rows that are duplicated pairs": "duplicated_rows",
    "duplicated pairs": "duplicated_pairs",
    "... whose two copies carry each other's values": "duplicated_pairs_exchanged",
}
"""The rows of the table of :func:`published_against_participants`, and the glued key of each."""


def published_against_participants(
    pairs: pd.DataFrame, means: np.ndarray, checks: np.ndarray
) -> tuple[pd.Series, pd.DataFrame, np.ndarray, dict]:
    """The published similarity of each row (``pairs.human``, the mean raw rating mapped to 0-1,
    printed to three decimals) against the participant mean ``means``: a row agrees within
    :data:`PRINTED_HALF_DIGIT` plus :data:`FLOAT_SLACK`. Each row that is off is tested for two
    causes: an identical-sentence attention check (``checks``), or one copy of a pair that occurs
    twice carrying the other copy's participant mean. Returns the counts, the off rows and the
    exact ties with their cause, the mask of off rows, and the values to glue
    (``normalisation_*``, ``duplicated_*``, ``identical_checks*``)."""
    published = pairs["human"].to_numpy()
    difference = np.abs(means - published)
    off = difference > PRINTED_HALF_DIGIT + FLOAT_SLACK
    ties = np.abs(difference - PRINTED_HALF_DIGIT) <= FLOAT_SLACK
    pair_key = pairs["sentence_a"] + " || " + pairs["sentence_b"]
    duplicated = pair_key.duplicated(keep=False).to_numpy()
    other_copy = np.full(len(pairs), -1)
    for _, rows in pd.Series(np.arange(len(pairs)))[duplicated].groupby(pair_key[duplicated].to_numpy()):
        first, second = rows.to_numpy()
        other_copy[first], other_copy[second] = second, first
    exchanged = duplicated & off & (
        np.abs(published - means[np.maximum(other_copy, 0)]) <= PRINTED_HALF_DIGIT + FLOAT_SLACK
    )
    identical = (pairs.sentence_a == pairs.sentence_b).to_numpy()
    identical_check = identical & checks & off
    other = off & ~identical_check & ~exchanged
    ties_off_without_slack = ties & (difference > PRINTED_HALF_DIGIT)
    gap_checks = (means - published)[identical_check]
    values = {
        "normalisation_rows_within": int((~off).sum()),
        "normalisation_ties": int(ties.sum()),
        "normalisation_ties_off_without_slack": int(ties_off_without_slack.sum()),
        "normalisation_rows_off": int(off.sum()),
        "normalisation_off_checks": int(identical_check.sum()),
        "normalisation_off_exchanged": int(exchanged.sum()),
        "normalisation_off_other": int(other.sum()),
        "duplicated_rows": int(duplicated.sum()),
        "duplicated_pairs": int(duplicated.sum() // 2),
        "duplicated_pairs_exchanged": int(exchanged.sum() // 2),
        "identical_checks": int((identical & checks).sum()),
        "identical_checks_gap_min": float(gap_checks.min()),
        "identical_checks_gap_max": float(gap_checks.max()),
    }
    counts = pd.Series({label: values[key] for label, key in AUDIT_ROWS.items()})
    cause = np.select(
        [identical_check, exchanged, ties],
        ["identical-sentence check", "carries the other copy's mean", "tie at 0.0005 (agrees)"],
        default="",
    )
    rows = pd.DataFrame(
        {
            "participant mean": means,
            "published": published,
            "published - mean": published - means,
            "other copy": np.where(other_copy >= 0, other_copy.astype(str), ""),
            "cause": cause,
        },
        index=pairs.index,
    )[off | ties].rename_axis("row").round(4)
    return counts, rows, off, values


RELIABILITY_SUBSETS = ("all", "non", "adv")
"""The subsets of :func:`compsem.sts.ratings.reliability_subsets` the chapter reports (§5.1), in its
order."""

RELIABILITY_MEASURES = (("split_half", "r", "split_half"), ("kappa", "kappa", "kappa_sb"))
"""Each reliability measure of §5.1: its key prefix, its column in the ``per_split`` table and its
corrected column in the summary of :func:`compsem.sts.ratings.split_half_reliability`."""


def reliability_values(reliability: pd.DataFrame, per_split: pd.DataFrame, subsets: dict
                       ) -> tuple[dict, dict, pd.DataFrame]:
    """Split-half reliability and weighted kappa (§5.1) as the chapter's results, glue values and
    table, from :func:`compsem.sts.ratings.split_half_reliability` (``reliability``, the summary by
    subset, and ``per_split``) over ``subsets`` (:func:`compsem.sts.ratings.reliability_subsets`).

    Returns, for each subset of :data:`RELIABILITY_SUBSETS` in turn: the results
    ``split_half_<subset>`` and ``kappa_<subset>`` (means over the splits, Spearman-Brown
    corrected); the glue values ``reliability_pairs_<subset>`` (pairs in the subset) and the
    central 95% range of a single split, corrected (:func:`compsem.sts.ratings.single_split_range`),
    ``split_half_<subset>_ci_low`` / ``_ci_high`` then ``kappa_<subset>_ci_low`` / ``_ci_high``;
    and the results beside the paper's (:func:`compsem.report.compare` without its source column),
    the split-half rows of the subsets first, then the kappa rows, with the ``pairs`` of each
    subset."""
    results, values = {}, {}
    for name in RELIABILITY_SUBSETS:
        values[f"reliability_pairs_{name}"] = int(subsets[name].sum())
        for key, _, corrected in RELIABILITY_MEASURES:
            results[f"{key}_{name}"] = float(reliability.loc[name, corrected])
        for key, column, _ in RELIABILITY_MEASURES:  # the range of a single split, corrected
            low, high = rt.single_split_range(per_split, name, column)
            values[f"{key}_{name}_ci_low"] = low
            values[f"{key}_{name}_ci_high"] = high
    keys = [f"{key}_{name}" for key, _, _ in RELIABILITY_MEASURES for name in RELIABILITY_SUBSETS]
    table = compare(results, "sts3k", keys=keys).drop(columns="source").assign(
        pairs=[int(reliability.loc[k.rsplit("_", 1)[1], "n_pairs"]) for k in keys])
    return results, values, table


def type_count_values(labels: pd.DataFrame, targets: dict) -> tuple[dict, pd.DataFrame, dict]:
    """Table 7: the number of pairs of each type under the reconstructed ``labels``
    (:func:`compsem.sts.pair_types.reconstruct_pair_types`) beside the published count
    (``targets["type_count_<type>"]["paper"]``, ``data/targets/sts3k.json``).

    Returns the results ``type_count_<type>`` (in Table 7's order) and ``n_adversarial`` (the
    pairs of the adversarial types); the table of :func:`compsem.sts.pair_types.type_counts`
    with the published counts, its ``table7`` and ``difference`` columns as integers; and the
    published counts themselves (type -> count, in Table 7's order), to pass on to
    :func:`compsem.sts.pair_types.type_counts` for other labels."""
    published = {t: targets["type_count_" + slug(t)]["paper"] for t in pt.TYPES}
    counts = pt.type_counts(labels, published=published)
    results = {"type_count_" + slug(name): int(ours) for name, ours in counts["ours"].items()}
    results["n_adversarial"] = int(counts.loc[counts.adversarial, "ours"].sum())
    return results, counts.astype({"table7": int, "difference": int}), published


def type_mean_values(labels: pd.DataFrame, human, targets: dict) -> tuple[dict, pd.DataFrame]:
    """The mean human similarity of each internal category x number of modifiers under the
    reconstructed ``labels`` (:func:`compsem.sts.pair_types.type_modifier_means`, the means the
    authors' notebook prints for the types of Table 7, §5.4).

    Returns the results, one per published cell of ``targets`` (the keys that
    :func:`compsem.sts.pair_types.published_cells` reads, ``type_mean_<category>_<k>``, in the
    order of ``targets``): our mean of that category with k modifiers (NaN where the labels give
    it no pair, an unknown category or k included); and the table of every mean (categories x
    modifiers)."""
    type_means = pt.type_modifier_means(labels, human)
    no_pairs = pd.Series(dtype=float)
    results = {}
    for key, target in targets.items():
        for code, k in pt.published_cells({key: target}).index:  # none unless ``key`` is a published cell
            results[key] = float(type_means.get(k, no_pairs).get(code, np.nan))
    return results, type_means


def constant_block_ranges(labels: pd.DataFrame) -> dict:
    """The first and last row of each constant-pair block of the reconstructed labels
    (:data:`compsem.sts.pair_types.BOUNDARY_BLOCKS`, keys ``<code>_first``, ``<code>_last``) and
    of the synonym variants of the constant pairs after them (``const_variants_first``,
    ``const_variants_last``)."""
    first, last, codes = pt.BOUNDARY_BLOCKS["constant"]
    starts = [first, *pt.block_boundaries(labels)["constant"], last + 1]
    values = {}
    for code, start, stop in zip(codes, starts[:-1], starts[1:], strict=True):
        values[f"{code.lower()}_first"] = start
        values[f"{code.lower()}_last"] = stop - 1
    category = labels["category"].astype(str).to_numpy()
    variants = np.flatnonzero(np.isin(category, codes))
    variants = variants[variants > last]  # synonym variants of the constant pairs
    values["const_variants_first"] = int(variants.min())
    values["const_variants_last"] = int(variants.max())
    return values


def individual_ks(ratings: np.ndarray, seed: int, within: str) -> dict:
    """The two-sample KS statistic between the individual ratings and the same ratings shuffled
    within participants (:func:`compsem.sts.ratings.shuffle_within_participants`), rather than
    between pair means as §5.1 compares them (key ``ks_individual_statistic``)."""
    shuffled = rt.shuffle_within_participants(ratings, seed, within)
    statistic = stats.ks_2samp(ratings[np.isfinite(ratings)], shuffled[np.isfinite(shuffled)]).statistic
    return {"ks_individual_statistic": float(statistic)}


def figure9_list_check(human, exclude, paper, reductions=None) -> dict:
    """Which of the authors' Figure 9 row lists give the published values (§5.4, Figure 9).

    The reduction ``1 - mean`` of each modifier type (:func:`compsem.sts.modifier_types.reductions`)
    with the lists less the rows in ``exclude``, and with every row kept, against ``paper`` (the
    figure's values, in the order of the types there): ``figure9_lists_max_difference`` and
    ``figure9_full_lists_max_difference``, the largest absolute difference over the types, and
    ``figure9_full_lists_types_off``, how many types lie more than :data:`PRINTED_HALF_DIGIT`
    (half the last printed digit) off with every row kept. ``reductions``: the reductions with
    ``exclude`` where the caller already holds them (the ``reduction`` column of
    :func:`compsem.sts.modifier_types.reductions`), in place of computing them again."""
    paper = np.asarray(paper, dtype=float)
    if reductions is None:
        reductions = mt.reductions(human, exclude=tuple(exclude))["reduction"]
    reduced = np.asarray(reductions, dtype=float) - paper
    full = mt.reductions(human, exclude=())["reduction"].to_numpy() - paper
    return {"figure9_lists_max_difference": float(np.abs(reduced).max()),
            "figure9_full_lists_max_difference": float(np.abs(full).max()),
            "figure9_full_lists_types_off": int((np.abs(full) > PRINTED_HALF_DIGIT + FLOAT_SLACK).sum())}


def figure9_values(human, exclude) -> tuple[dict, dict, pd.DataFrame]:
    """Figure 9 (§5.4): the reduction ``1 - mean`` of the pairs with one added modifier, by
    modifier type (:func:`compsem.sts.modifier_types.reductions` with the t-test of each type
    against the pooled mean, :func:`compsem.sts.modifier_types.t_tests`), the rows in ``exclude``
    left out of the authors' lists.

    Returns the results: ``modifier_reduction_<type>`` (in the figure's order),
    ``modifier_reduction_mean`` (pooled), ``passive_z``, ``anova_f`` (one-way ANOVA over the types,
    :func:`compsem.sts.modifier_types.anova`) and ``place_t_test_p``; the glue values:
    ``modifier_p_<type>`` and ``modifier_z_<type>`` type by type, ``modifier_g_<type>`` (Grubbs'
    statistic, :func:`compsem.sts.modifier_types.grubbs_statistics`), ``modifier_grubbs_critical``
    (two-sided 5% for the number of types) and ``anova_p``; and the table of the types (``n``,
    ``reduction``, ``sd``, ``z``, ``t``, ``p``)."""
    figure9 = mt.reductions(human, exclude=exclude).join(mt.t_tests(human, exclude=exclude))
    anova = mt.anova(human, exclude=exclude)
    results, values = {}, {}
    for name in figure9.index:
        results[f"modifier_reduction_{slug(name)}"] = float(figure9.loc[name, "reduction"])
        values[f"modifier_p_{slug(name)}"] = float(figure9.loc[name, "p"])
        values[f"modifier_z_{slug(name)}"] = float(figure9.loc[name, "z"])
    for name, g in mt.grubbs_statistics(human, exclude=exclude).items():
        values[f"modifier_g_{slug(name)}"] = g
    values["modifier_grubbs_critical"] = mt.grubbs_critical(len(figure9))
    results["modifier_reduction_mean"] = mt.mean_reduction(human, exclude=exclude)
    results["passive_z"] = float(figure9.loc["Passive", "z"])
    results["anova_f"] = anova["F"]
    results["place_t_test_p"] = float(figure9.loc["Place", "p"])
    values["anova_p"] = anova["p"]
    return results, values, figure9


def subadditivity_values(labels: pd.DataFrame, human, targets: dict, exclude=mt.EXCLUDED_ROWS
                         ) -> tuple[dict, pd.DataFrame]:
    """Subadditivity (§5.4, §6.4): the mean human similarity of the added-modifier pairs by number
    of added modifiers (:func:`compsem.sts.modifier_types.subadditivity`), without the rows in
    ``exclude`` (the chapter's ``modifier_exclude``, as for Figure 9).

    Returns the results ``only_mod_similarity_<k>`` for k > 0 (in increasing k), and the table of
    the means (``mean human similarity``, indexed by ``added modifiers``) beside the paper's
    (``targets["only_mod_similarity_<k>"]["paper"]``; NaN where the paper gives none)."""
    subadditive = mt.subadditivity(labels, human, exclude)
    results = {f"only_mod_similarity_{int(n_mod)}": float(value)
               for n_mod, value in subadditive.items() if int(n_mod) > 0}
    table = subadditive.to_frame("mean human similarity").assign(
        paper=[targets.get(f"only_mod_similarity_{int(k)}", {}).get("paper", np.nan) for k in subadditive.index]
    ).rename_axis("added modifiers")
    return results, table


def subadditivity_gap_values(labels: pd.DataFrame, human, n_resamples: int, seed: int, family: int,
                             exclude=mt.EXCLUDED_ROWS, clusters=None) -> tuple[dict, pd.DataFrame]:
    """The subadditivity gaps ``k(1 - s_1) - (1 - s_k)`` of k > 1 added modifiers with their
    bootstrap intervals (§6.4; :func:`compsem.sts.modifier_types.subadditivity_gaps` with
    ``n_resamples``, ``seed``, the Bonferroni ``family`` of the testable gaps and the ``clusters``
    of pairs that share a sentence, :func:`compsem.data.shared_sentences.sentence_clusters`).

    Returns the glue values, k by k: ``subadditive_gap_<k>``, then those of its interval bounds
    that are not NaN, ``subadditive_gap_<k>_ci_low`` / ``_ci_high`` and
    ``subadditive_gap_<k>_bonf<family>_ci_low`` / ``_ci_high`` (the Bonferroni interval: testable
    gaps only); then ``subadditive_n_testable``; and the table of the gaps."""
    gaps = mt.subadditivity_gaps(labels, human, n_resamples=n_resamples, seed=seed, family=family,
                                 exclude=exclude, clusters=clusters)
    columns = ["ci_low", "ci_high"] + ([f"bonf{family}_ci_low", f"bonf{family}_ci_high"] if family > 1 else [])
    values = {}
    for k, row in gaps.iterrows():
        values[f"subadditive_gap_{int(k)}"] = float(row["gap"])
        for column in columns:
            if not np.isnan(row[column]):
                values[f"subadditive_gap_{int(k)}_{column}"] = float(row[column])
    values["subadditive_n_testable"] = int(gaps["testable"].sum())
    return values, gaps


def only_mod_cluster_counts(labels: pd.DataFrame, clusters, exclude=mt.EXCLUDED_ROWS) -> dict[str, int]:
    """``subadditive_n_pairs`` and ``subadditive_n_clusters``: the added-modifier (ONLY_MOD) pairs
    of the subadditivity gaps, the rows in ``exclude`` left out, and the clusters of pairs that
    share a sentence they fall into (:func:`compsem.data.shared_sentences.sentence_clusters`)."""
    rows = labels.index[(labels["category"] == "ONLY_MOD").to_numpy()].difference(pd.Index(exclude))
    return {"subadditive_n_pairs": len(rows),
            "subadditive_n_clusters": len(np.unique(np.asarray(clusters)[labels.index.get_indexer(rows)]))}


HELDOUT_COLUMNS = ("within", "mae", "labels_within", "labels_mae", "uninformed_within", "uninformed_mae",
                   "same_boundaries")
"""The columns of :func:`compsem.sts.pair_types.heldout_boundaries` the chapter summarises."""

HELDOUT_DECIDED = ("within", "mae_excess")
"""The two quantities the held-out bar is decided on (type-means-held-out): the share of held-out
cells within the printed precision and the held-out error minus half the equal blocks' error. Its
fails side is a union of their two tests (family ``heldout_bar`` of
:data:`compsem.sts.families.UNION_FAMILIES`)."""


def heldout_values(heldout: pd.DataFrame) -> dict:
    """The held-out check of the label boundaries (:func:`compsem.sts.pair_types.heldout_boundaries`,
    one row per seeded half) as glue values.

    For each of :data:`HELDOUT_COLUMNS`: ``heldout_<column>_mean``, the mean over the halves;
    ``heldout_<column>_ci_low`` / ``_ci_high``, the central 95% range of single halves (how one half
    varies); and ``heldout_<column>_mean_ci_low`` / ``_mean_ci_high``, the 95% Student-t interval of
    the mean over the halves (:func:`compsem.stats.seed_interval`: the halves are seeded draws, so the
    mean is decided with its interval, not as one number). ``heldout_mae_excess``: per half, the
    held-out error minus half the error of equal-size blocks on the same cells (negative: under
    half their error), its mean and t-interval the same way. For the two quantities of
    :data:`HELDOUT_DECIDED`, the t-interval also at Bonferroni's level for their union of k = 2
    tests, ``1 - .05/k`` (:func:`compsem.stats.bonferroni_level`): ``heldout_<column>_mean_bonf<k>_ci_low``
    / ``_ci_high``. Also ``heldout_n_halves``, ``heldout_n_test``,
    ``heldout_n_worse_than_uninformed``, the halves on which the refitted boundaries err more than
    equal-size blocks, and ``heldout_n_worse_than_half_uninformed``, those on which they err more
    than half as much (``mae_excess`` above 0: the quantity the claim type-means-held-out tests)."""
    from compsem.stats import bonferroni_level, percentile_interval, seed_interval
    from compsem.sts.families import UNION_FAMILIES

    k = UNION_FAMILIES["heldout_bar"]
    columns = {column: heldout[column].to_numpy(float) for column in HELDOUT_COLUMNS}
    columns["mae_excess"] = heldout["mae"].to_numpy(float) - heldout["uninformed_mae"].to_numpy(float) / 2
    values = {"heldout_n_halves": len(heldout), "heldout_n_test": int(heldout["n_test"].iloc[0]),
              "heldout_n_worse_than_uninformed": int((heldout["mae"] > heldout["uninformed_mae"]).sum()),
              "heldout_n_worse_than_half_uninformed": int((columns["mae_excess"] > 0).sum())}
    for column, per_half in columns.items():
        mean, low, high = seed_interval(per_half)
        values[f"heldout_{column}_mean"] = mean
        values[f"heldout_{column}_mean_ci_low"] = low
        values[f"heldout_{column}_mean_ci_high"] = high
        if column in HELDOUT_DECIDED:
            _, low, high = seed_interval(per_half, level=bonferroni_level(k))
            values[f"heldout_{column}_mean_bonf{k}_ci_low"] = low
            values[f"heldout_{column}_mean_bonf{k}_ci_high"] = high
        if column in HELDOUT_COLUMNS:
            low, high = percentile_interval(per_half)  # the spread of single halves
            values[f"heldout_{column}_ci_low"], values[f"heldout_{column}_ci_high"] = low, high
    return values


RULE_ONLY_BLOCKS = ("constant", "single", "swap")
"""The blocks of :data:`compsem.sts.pair_types.BOUNDARY_BLOCKS` by which :func:`rule_only_values`
reports the rule-only labelling, in the chapter's order."""


def rule_only_values(checked_cells: pd.Series, block_scores: pd.DataFrame, rule_scores: pd.DataFrame,
                     rule_decided: pd.DataFrame) -> dict:
    """The check of the pair-type labels (Table 7) on numbers they were not fitted to, as glue values.

    ``checked_cells``: the published type x modifier means of the categories with fitted
    boundaries (:func:`compsem.sts.pair_types.validated_cells`); ``block_scores`` and
    ``rule_scores``: :func:`compsem.sts.pair_types.score_cells` of the block labels and of the
    rule-only labels on them; ``rule_decided``: the base pairs the rule labelled
    (:func:`compsem.sts.pair_types.rule_only_pair_types`). Keys: ``rule_only_cells``,
    ``rule_only_categories``, ``heldout_n_boundaries`` (inner boundaries of the three blocks);
    ``labels_cells_within`` / ``_mae`` and ``rule_only_cells_within`` / ``_mae`` / ``_max_error``
    (cells within the printed precision, mean and largest absolute error); ``rule_only_fallback``,
    ``rule_only_base_pairs``, ``rule_only_agreement`` (share of base pairs labelled as by the
    blocks), and per block ``rule_only_agreement_<block>``, ``rule_only_disagree_<block>`` (in
    the sorted order of the blocks), then per block of :data:`RULE_ONLY_BLOCKS`
    ``rule_only_<block>_within``, ``_cells`` and ``_max_error`` of its cells."""
    agree = rule_decided["rule_label"] == rule_decided["block_label"]
    values = {
        "rule_only_cells": len(checked_cells),
        "rule_only_categories": len(pt.VALIDATED_CODES),
        "heldout_n_boundaries": sum(len(codes) - 1 for _, _, codes in pt.BOUNDARY_BLOCKS.values()),
        "labels_cells_within": int(block_scores["within"].sum()),
        "labels_cells_mae": float(block_scores["error"].mean()),
        "rule_only_cells_within": int(rule_scores["within"].sum()),
        "rule_only_cells_mae": float(rule_scores["error"].mean()),
        "rule_only_cells_max_error": float(rule_scores["error"].max()),
        "rule_only_fallback": int((rule_decided["how"] == "fallback").sum()),
        "rule_only_base_pairs": len(rule_decided),
        "rule_only_agreement": float(agree.mean()),
    }
    for block, group in rule_decided.groupby("block"):
        values[f"rule_only_agreement_{block}"] = float((group["rule_label"] == group["block_label"]).mean())
        values[f"rule_only_disagree_{block}"] = int((group["rule_label"] != group["block_label"]).sum())
    for block in RULE_ONLY_BLOCKS:
        codes = pt.BOUNDARY_BLOCKS[block][2]
        in_block = [c in codes for c, _ in rule_scores.index]
        values[f"rule_only_{block}_within"] = int(rule_scores.loc[in_block, "within"].sum())
        values[f"rule_only_{block}_cells"] = int(sum(in_block))
        values[f"rule_only_{block}_max_error"] = float(rule_scores.loc[in_block, "error"].max())
    return values


def cell_table(checked_cells: pd.Series, block_scores: pd.DataFrame, rule_scores: pd.DataFrame) -> pd.DataFrame:
    """The published type x modifier means (``paper``) beside the means under the block labels
    and the rule-only labels and the rule-only error, indexed by (category, modifiers): the table
    of the rule-only check of :func:`rule_only_values`."""
    table = pd.DataFrame({
        "paper": checked_cells,
        "block labels": block_scores["ours"],
        "rule-only labels": rule_scores["ours"],
        "rule-only error": rule_scores["error"],
    })
    table.index.names = ["category", "modifiers"]
    return table


def mad_values(mads_blocks: pd.Series, mads_rule: pd.Series, targets: dict) -> tuple[dict, dict]:
    """Figure 8's MADs (:func:`compsem.sts.structure.figure8`) under the block labels
    (``mads_blocks``) and the rule-only labels (``mads_rule``), one per similarity series.

    Returns the results to compare with the paper, ``labels_mad_<series>`` and
    ``rule_only_mad_<series>`` (series in the order of ``mads_blocks``), and the values to glue:
    ``rule_only_mad_max_gap``, the largest absolute difference between the two labellings, and
    ``labels_mad_max_difference``, the largest absolute difference of the block labels' MADs from
    the authors' (``targets[key]["paper"]``)."""
    results = {}
    for name in mads_blocks.index:
        results[f"labels_mad_{slug(name)}"] = float(mads_blocks[name])
        results[f"rule_only_mad_{slug(name)}"] = float(mads_rule[name])
    values = {
        "rule_only_mad_max_gap": float((mads_rule - mads_blocks).abs().max()),
        "labels_mad_max_difference": max(abs(value - targets[key]["paper"])
                                         for key, value in results.items() if key.startswith("labels_")),
    }
    return results, values


def errata_values(ks_spread: pd.DataFrame, ratings: np.ndarray, reductions: pd.Series) -> dict:
    """The numbers the chapter's errata quote (§5.1, §5.4).

    ``ks_spread``: :func:`compsem.sts.ratings.ks_over_seeds`. Keys: ``ks_log10_p_max``, the least
    significant shuffle; ``ks_d_<within>_mean`` and ``ks_d_<within>_sd`` (sample SD), the KS
    statistic over the seeds of each shuffle (in sorted order of ``within``); ``sd_ddof1`` and
    ``sd_ddof0``, the average per-pair SD (:func:`compsem.sts.ratings.mean_per_pair_sd`) of the
    raw ``ratings`` with either ddof; ``modifier_reduction_unweighted``, the unweighted mean of
    the type reductions of Figure 9 (``reductions``: the ``reduction`` column of
    :func:`compsem.sts.modifier_types.reductions`, a pandas Series)."""
    values = {"ks_log10_p_max": float(ks_spread["log10 p"].max())}
    for w, group in ks_spread.groupby("within"):
        values[f"ks_d_{w}_mean"] = group["D"].mean()
        values[f"ks_d_{w}_sd"] = group["D"].std()
    values["sd_ddof1"] = rt.mean_per_pair_sd(ratings, ddof=1)
    values["sd_ddof0"] = rt.mean_per_pair_sd(ratings, ddof=0)
    values["modifier_reduction_unweighted"] = float(reductions.mean())
    return values


def ks_spread_table(ks_spread: pd.DataFrame) -> pd.DataFrame:
    """Mean, SD, min and max of the KS statistic over the seeds of each shuffle
    (:func:`compsem.sts.ratings.ks_over_seeds`), one row per ``within``."""
    return ks_spread.groupby("within")["D"].describe()[["mean", "std", "min", "max"]]


RELIABILITY_BAR = 0.9
"""The split-half reliability that ``raters_needed_090`` of :func:`rater_count_values` asks for."""


def rater_count_values(summary: pd.DataFrame, sizes) -> dict:
    """The extension of §5.1 to fewer raters as glue values, from
    :func:`compsem.sts.ratings.reliability_growth_summary` (``summary``) over the sample ``sizes``:
    ``raters_smallest``, the smallest size, with the share of pairs that entered its splits
    (``raters_smallest_pairs_used``), its split-half reliability over all pairs
    (``raters_smallest_split_half_all``) and its ratings per pair (``raters_smallest_per_pair``);
    and ``raters_needed_090``, the smallest size whose mean split-half reliability over all pairs
    reaches :data:`RELIABILITY_BAR` (``raters_bar``; NaN when none does)."""
    smallest = int(min(sizes))
    return {
        "raters_smallest": smallest,
        "raters_smallest_pairs_used": float(summary.loc[(smallest, "all"), "pairs_used"]),
        "raters_smallest_split_half_all": float(summary.loc[(smallest, "all"), "split_half"]),
        "raters_smallest_per_pair": float(summary.loc[(smallest, "all"), "raters_per_pair"]),
        "raters_bar": RELIABILITY_BAR,
        "raters_needed_090": rt.sample_size_reaching(summary, sizes, bar=RELIABILITY_BAR),
    }


def rater_count_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The split-half reliability by number of participants (rows) and subset (columns), with its
    range over samples and the share of pairs used, from
    :func:`compsem.sts.ratings.reliability_growth_summary`."""
    return summary.unstack("subset")[["split_half", "split_half_low", "split_half_high", "pairs_used"]]
