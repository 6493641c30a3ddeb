"""compsem.sts.data_chapter and the helpers the chapter ``sts3k-data`` calls in
compsem.sts.ratings and compsem.sts.pair_types: synthetic inputs, each against a direct computation
(the chapter's former inline code) and, where small enough, a value worked by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem.sts import data_chapter
from compsem.sts import pair_types as pt
from compsem.sts import ratings as rt

STOP = frozenset({"the", "a", "an", "of", "to"})


# --- pair types (Table 7) ---------------------------------------------------------------------


def test_adjective_word_shares_by_hand_and_directly():
    pairs = pd.DataFrame({
        "sentence_a": ["The red dog chased the cat.", "The dog chased the cat.", "The girl sang.",
                       "The dog chased the cat."],
        "sentence_b": ["The dog chased the red cat.", "The big dog chased the cat.", "The girl danced.",
                       "The old dog chased the cat."],
    })
    labels = pd.DataFrame({"type": ["Adjective", "Adjective", "Adjective", "Zero"]})
    values = pt.adjective_word_shares(pairs, labels, STOP)
    # pair 0: same words (a swap); pair 1: one word added; pair 2: neither; pair 3 is not Adjective
    assert values == {"adjective_same_words_share": pytest.approx(1 / 3),
                      "adjective_one_added_share": pytest.approx(1 / 3)}
    adjective = (labels["type"] == "Adjective").to_numpy()
    bags = [(sorted(pt.content_stems(a, STOP)), sorted(pt.content_stems(b, STOP)))
            for a, b in zip(pairs["sentence_a"][adjective], pairs["sentence_b"][adjective], strict=True)]
    assert values["adjective_same_words_share"] == float(np.mean([x == y for x, y in bags]))
    assert values["adjective_one_added_share"] == float(np.mean(
        [abs(len(x) - len(y)) == 1 and (set(x) <= set(y) or set(y) <= set(x)) for x, y in bags]))


def test_parse_agreement_counts_equal_labels():
    parse = pd.DataFrame({"block": ["AB_VERB", "AB_SUBJ", "AB_DOBJ", "AB_DOBJ"],
                          "parse": ["AB_VERB", "AB_DOBJ", "AB_DOBJ", ""]})
    assert pt.parse_agreement(parse) == {"parse_agreement": 0.5, "parse_pairs": 4}


def test_validated_cells_keeps_the_fitted_blocks_only():
    cells = pd.Series({("AB_VERB", 0): 0.5, ("ONLY_MOD", 1): 0.8, ("QUAD", 2): 0.3, ("ZERO", 0): 0.1},
                      name="paper").sort_index()
    kept = pt.validated_cells(cells)
    assert list(kept.index) == [("AB_VERB", 0), ("QUAD", 2)]
    assert kept.tolist() == [0.5, 0.3] and kept.name == "paper"


# --- the rule-only check and Figure 8's MADs --------------------------------------------------


def _rule_only_inputs():
    rng = np.random.default_rng(3)
    index = pd.MultiIndex.from_tuples(
        [("AB_DOBJ", 0), ("AB_VERB", 1), ("CONST_SUBJ", 0), ("CONST_VERB", 1), ("QUAD", 0),
         ("SWAP_SUBJ_VERB", 2), ("TRIPLE", 1)])
    checked = pd.Series(rng.random(len(index)), index=index, name="paper")

    def scores():
        ours = rng.random(len(index))
        error = np.abs(ours - checked.to_numpy())
        return pd.DataFrame({"ours": ours, "paper": checked.to_numpy(), "error": error,
                             "within": error <= 0.3}, index=index)

    decided = pd.DataFrame({
        "block": ["swap", "constant", "single", "single", "constant", "swap", "single"],
        "rule_label": ["QUAD", "CONST_VERB", "AB_VERB", "AB_SUBJ", "CONST_SUBJ", "TRIPLE", "AB_DOBJ"],
        "block_label": ["QUAD", "CONST_SUBJ", "AB_VERB", "AB_SUBJ", "CONST_SUBJ", "QUAD", "AB_VERB"],
        "how": ["parse", "parse", "fallback", "parse", "parse", "fallback", "parse"],
    })
    return checked, scores(), scores(), decided


def test_rule_only_values_against_the_direct_computation():
    checked, block_scores, rule_scores, decided = _rule_only_inputs()
    values = data_chapter.rule_only_values(checked, block_scores, rule_scores, decided)
    assert values["rule_only_cells"] == 7 and values["rule_only_categories"] == 11
    assert values["heldout_n_boundaries"] == 2 + 2 + 4
    assert values["labels_cells_within"] == int(block_scores["within"].sum())
    assert values["labels_cells_mae"] == float(block_scores["error"].mean())
    assert values["rule_only_cells_max_error"] == float(rule_scores["error"].max())
    assert (values["rule_only_fallback"], values["rule_only_base_pairs"]) == (2, 7)
    assert values["rule_only_agreement"] == pytest.approx(4 / 7)
    assert (values["rule_only_agreement_constant"], values["rule_only_disagree_constant"]) == (0.5, 1)
    assert (values["rule_only_agreement_single"], values["rule_only_disagree_single"]) == (
        pytest.approx(2 / 3), 1)
    assert (values["rule_only_agreement_swap"], values["rule_only_disagree_swap"]) == (0.5, 1)
    for block, codes in (("constant", ("CONST_VERB", "CONST_SUBJ", "CONST_DOBJ")),
                         ("single", ("AB_VERB", "AB_SUBJ", "AB_DOBJ")),
                         ("swap", ("SWAP_DOBJ_VERB", "SWAP_SUBJ_VERB", "SWAP_SUBJ_DOBJ", "TRIPLE", "QUAD"))):
        in_block = [c in codes for c, _ in rule_scores.index]
        assert values[f"rule_only_{block}_within"] == int(rule_scores.loc[in_block, "within"].sum())
        assert values[f"rule_only_{block}_cells"] == int(sum(in_block))
        assert values[f"rule_only_{block}_max_error"] == float(rule_scores.loc[in_block, "error"].max())
    assert (values["rule_only_constant_cells"], values["rule_only_single_cells"],
            values["rule_only_swap_cells"]) == (2, 2, 3)
    # the glue order of the chapter: totals, then agreement by block (sorted), then cells by block
    keys = list(values)
    assert keys.index("rule_only_agreement") < keys.index("rule_only_agreement_constant")
    assert keys[-3:] == ["rule_only_swap_within", "rule_only_swap_cells", "rule_only_swap_max_error"]


def test_cell_table_puts_the_three_columns_beside_the_paper():
    checked, block_scores, rule_scores, _ = _rule_only_inputs()
    table = data_chapter.cell_table(checked, block_scores, rule_scores)
    assert list(table.columns) == ["paper", "block labels", "rule-only labels", "rule-only error"]
    assert list(table.index.names) == ["category", "modifiers"]
    np.testing.assert_array_equal(table["rule-only error"], rule_scores["error"])
    np.testing.assert_array_equal(table["paper"], checked)


def test_mad_values_against_the_direct_computation():
    blocks = pd.Series({"Mean-CN": 0.05, "SentBERT": 0.12, "OpenAI": 0.081})
    rule = pd.Series({"Mean-CN": 0.07, "SentBERT": 0.10, "OpenAI": 0.08})
    targets = {"labels_mad_mean_cn": {"paper": 0.0501}, "labels_mad_sentbert": {"paper": 0.1197},
               "labels_mad_openai": {"paper": 0.081}}
    results, values = data_chapter.mad_values(blocks, rule, targets)
    assert list(results) == ["labels_mad_mean_cn", "rule_only_mad_mean_cn", "labels_mad_sentbert",
                             "rule_only_mad_sentbert", "labels_mad_openai", "rule_only_mad_openai"]
    assert results["rule_only_mad_sentbert"] == 0.10
    assert values["rule_only_mad_max_gap"] == float((rule - blocks).abs().max())
    assert values["rule_only_mad_max_gap"] == pytest.approx(0.02)
    assert values["labels_mad_max_difference"] == max(abs(0.05 - 0.0501), abs(0.12 - 0.1197), 0.0)
    assert values["labels_mad_max_difference"] == pytest.approx(0.0003)


# --- KS spread, per-pair SD and the errata ----------------------------------------------------


def _ratings(seed=0, n_pairs=40, n_participants=12):
    rng = np.random.default_rng(seed)
    raw = rng.integers(1, 8, size=(n_pairs, n_participants)).astype(float)
    raw[rng.random(raw.shape) < 0.3] = np.nan
    return raw


def test_ks_over_seeds_runs_every_shuffle_and_seed():
    raw = _ratings()
    spread = rt.ks_over_seeds(raw, range(3), withins=("rated", "column"))
    assert list(spread.columns) == ["within", "seed", "D", "log10 p"]
    assert spread["within"].tolist() == ["rated"] * 3 + ["column"] * 3
    assert spread["seed"].tolist() == [0, 1, 2, 0, 1, 2]
    for row in spread.itertuples(index=False):
        ks = rt.ks_against_shuffled(raw, seed=row.seed, within=row.within)
        assert (row.D, row[3]) == (ks["statistic"], ks["log10_pvalue"])


def test_mean_per_pair_sd_is_the_nanmean_of_per_pair_sd():
    raw = _ratings(1)
    raw[0] = np.nan
    raw[1, 1:] = np.nan  # one rating: NaN with ddof=1
    for ddof in (0, 1):
        assert rt.mean_per_pair_sd(raw, ddof=ddof) == float(np.nanmean(rt.per_pair_sd(raw, ddof=ddof)))
    assert rt.mean_per_pair_sd(np.array([[1.0, 7.0], [4.0, 4.0]]), ddof=0) == pytest.approx(0.25)


def test_errata_values_against_the_direct_computation():
    raw = _ratings(2)
    spread = pd.DataFrame({"within": ["rated", "rated", "rated", "column", "column", "column"],
                           "seed": [0, 1, 2, 0, 1, 2], "D": [0.30, 0.32, 0.31, 0.20, 0.26, 0.23],
                           "log10 p": [-100.0, -110.0, -90.5, -50.0, -60.0, -55.0]})
    reductions = pd.Series([0.1, 0.25, 0.3], index=["Passive", "Place", "Time"], name="reduction")
    values = data_chapter.errata_values(spread, raw, reductions)
    assert list(values) == ["ks_log10_p_max", "ks_d_column_mean", "ks_d_column_sd", "ks_d_rated_mean",
                            "ks_d_rated_sd", "sd_ddof1", "sd_ddof0", "modifier_reduction_unweighted"]
    assert values["ks_log10_p_max"] == -50.0
    assert values["ks_d_rated_mean"] == spread.loc[spread.within == "rated", "D"].mean()
    assert values["ks_d_column_sd"] == spread.loc[spread.within == "column", "D"].std()
    assert values["ks_d_column_sd"] == pytest.approx(0.03)  # sample SD (ddof 1)
    assert values["sd_ddof1"] == float(np.nanmean(rt.per_pair_sd(raw, ddof=1)))
    assert values["sd_ddof0"] == float(np.nanmean(rt.per_pair_sd(raw, ddof=0)))
    assert values["sd_ddof1"] > values["sd_ddof0"]
    assert values["modifier_reduction_unweighted"] == float(reductions.mean())
    table = data_chapter.ks_spread_table(spread)
    assert list(table.index) == ["column", "rated"] and list(table.columns) == ["mean", "std", "min", "max"]
    assert table.loc["rated", "max"] == 0.32


# --- the number of raters (extension of §5.1) -------------------------------------------------


def _growth(seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for m in (200, 25, 100):  # not in sorted order
        for sample in range(5):
            for subset in ("all", "non", "adv"):
                rows.append({"participants": m, "sample": sample, "subset": subset,
                             "raters_per_pair": m / 25 + rng.random(), "split_half": 0.5 + m / 250 * rng.random(),
                             "kappa_sb": rng.random(), "pairs_used": rng.random()})
    return pd.DataFrame(rows)


def test_reliability_growth_summary_against_the_direct_computation():
    growth = _growth()
    summary = rt.reliability_growth_summary(growth)
    by_size = growth.groupby(["participants", "subset"], sort=True)
    expected = by_size[["raters_per_pair", "split_half", "kappa_sb", "pairs_used"]].mean()
    expected["split_half_low"] = by_size["split_half"].quantile(0.025)
    expected["split_half_high"] = by_size["split_half"].quantile(0.975)
    pd.testing.assert_frame_equal(summary, expected, check_exact=True)
    assert summary.index[0] == (25, "adv")  # sorted
    one = growth[(growth.participants == 100) & (growth.subset == "non")]["split_half"].to_numpy()
    assert summary.loc[(100, "non"), "split_half_high"] == pytest.approx(np.quantile(one, 0.975))


def test_sample_size_reaching_is_the_smallest_size_over_the_bar():
    summary = pd.DataFrame({"split_half": [0.95, 0.7, 0.91, 0.99]},
                           index=pd.MultiIndex.from_tuples([(200, "all"), (25, "all"), (100, "all"),
                                                            (25, "adv")], names=["participants", "subset"]))
    assert rt.sample_size_reaching(summary, [200, 25, 100]) == 100.0
    assert rt.sample_size_reaching(summary, [200, 25, 100], bar=0.92) == 200.0
    assert rt.sample_size_reaching(summary, [25], subset="adv") == 25.0
    assert np.isnan(rt.sample_size_reaching(summary, [200, 25, 100], bar=0.999))


def test_rater_count_values_and_table():
    growth = _growth(1)
    summary = rt.reliability_growth_summary(growth)
    sizes = [200, 25, 100]
    values = data_chapter.rater_count_values(summary, sizes)
    assert values["raters_smallest"] == 25
    assert values["raters_smallest_split_half_all"] == float(summary.loc[(25, "all"), "split_half"])
    assert values["raters_smallest_pairs_used"] == float(summary.loc[(25, "all"), "pairs_used"])
    assert values["raters_smallest_per_pair"] == float(summary.loc[(25, "all"), "raters_per_pair"])
    reaching = [m for m in sorted(sizes) if summary.loc[(m, "all"), "split_half"] >= 0.9]
    expected = float(reaching[0]) if reaching else float("nan")
    assert values["raters_needed_090"] == expected or (np.isnan(expected) and np.isnan(values["raters_needed_090"]))
    table = data_chapter.rater_count_table(summary)
    assert list(table.index) == [25, 100, 200]
    assert table[("split_half", "all")].tolist() == summary.xs("all", level="subset")["split_half"].tolist()
    assert list(table.columns.get_level_values(0).unique()) == ["split_half", "split_half_low",
                                                                 "split_half_high", "pairs_used"]
