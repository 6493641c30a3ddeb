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
    assert values["raters_smallest"] == 25 and values["raters_bar"] == 0.9
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


# --- the chapter's loops: reliability, Table 7, Figure 9, subadditivity -----------------------


def _reliability_inputs():
    raw = _ratings(4, n_pairs=60, n_participants=14)
    raw[:3] = 5.0  # three rows rated by everyone: the attention checks
    checks = rt.check_mask(raw)
    adversarial = np.arange(len(raw)) % 3 == 0
    subsets = {"adv": adversarial, "all": ~checks, "non": ~adversarial & ~checks}  # not the chapter's order
    reliability, per_split = rt.split_half_reliability(raw, subsets, n_splits=8, seed=2)
    return subsets, reliability, per_split


def test_reliability_values_against_the_direct_computation():
    from compsem import report

    subsets, reliability, per_split = _reliability_inputs()
    results, values, table = data_chapter.reliability_values(reliability, per_split, subsets)
    # the chapter's former loop
    expected_results, expected_values = {}, {}
    for name in ("all", "non", "adv"):
        expected_values[f"reliability_pairs_{name}"] = int(subsets[name].sum())
        expected_results[f"split_half_{name}"] = float(reliability.loc[name, "split_half"])
        expected_results[f"kappa_{name}"] = float(reliability.loc[name, "kappa_sb"])
        for column, key in (("r", "split_half"), ("kappa", "kappa")):
            low, high = rt.single_split_range(per_split, name, column)
            expected_values[f"{key}_{name}_ci_low"] = low
            expected_values[f"{key}_{name}_ci_high"] = high
    assert list(results.items()) == list(expected_results.items())
    assert list(values.items()) == list(expected_values.items())
    assert values["reliability_pairs_all"] == 57 and values["reliability_pairs_adv"] == 20
    # the range of one split, corrected, by hand
    r_non = per_split.loc[per_split.subset == "non", "r"].to_numpy()
    assert (values["split_half_non_ci_low"], values["split_half_non_ci_high"]) == pytest.approx(
        tuple(np.quantile(2 * r_non / (1 + r_non), [0.025, 0.975])))
    keys = [f"{key}_{name}" for key in ("split_half", "kappa") for name in ("all", "non", "adv")]
    assert list(table.index) == keys and table.index.name == "quantity"
    assert list(table.columns) == ["ours", "paper", "difference", "tolerance", "verdict", "pairs"]
    targets = report.load_targets("sts3k")
    ours = [float(reliability.loc[k.rsplit("_", 1)[1], "kappa_sb" if k.startswith("kappa") else "split_half"])
            for k in keys]
    paper = [targets[k]["paper"] for k in keys]
    assert table["ours"].tolist() == ours
    assert table["paper"].tolist() == paper and paper[0] == 0.953 and paper[3] == 0.832  # split_half_all, kappa_all
    assert table["difference"].tolist() == [o - q for o, q in zip(ours, paper, strict=True)]
    assert table["tolerance"].tolist() == [targets[k]["tol"] for k in keys]
    assert table["verdict"].tolist() == ["match" if abs(o - q) <= targets[k]["tol"] + 1e-12 else "differs"
                                         for k, o, q in zip(keys, ours, paper, strict=True)]
    assert table["pairs"].tolist() == [57, 57 - 20 + 1, 20] * 2  # row 0 is a check and adversarial


def _types(seed=0):
    rng = np.random.default_rng(seed)
    types = rng.choice(list(pt.TYPES[:-2]), size=80)  # the last two types get no pair
    return pd.DataFrame({"type": pd.Categorical(types, categories=list(pt.TYPES))})


def test_type_count_values_against_the_direct_computation():
    from compsem.report import slug

    labels = _types()
    targets = {f"type_count_{slug(t)}": {"paper": 5 + i} for i, t in enumerate(pt.TYPES)}
    targets["type_mean_zero_0"] = {"paper": 0.1}
    results, table, published = data_chapter.type_count_values(labels, targets)
    ours = [int((labels["type"] == t).sum()) for t in pt.TYPES]
    assert list(results) == [f"type_count_{slug(t)}" for t in pt.TYPES] + ["n_adversarial"]
    assert [results[f"type_count_{slug(t)}"] for t in pt.TYPES] == ours
    assert results[f"type_count_{slug(pt.TYPES[-1])}"] == 0
    assert results["n_adversarial"] == sum(n for t, n in zip(pt.TYPES, ours, strict=True)
                                           if t in pt.ADVERSARIAL_TYPES)
    assert sum(ours) == 80 and 0 < results["n_adversarial"] < 80
    assert list(table.index) == list(pt.TYPES)
    assert table["ours"].tolist() == ours and table["table7"].tolist() == [5 + i for i in range(len(pt.TYPES))]
    assert table["difference"].tolist() == [n - 5 - i for i, n in enumerate(ours)]
    assert table["table7"].dtype.kind == "i" and table["difference"].dtype.kind == "i"
    # the published counts, as the chapter passes them on to the rule-only counts
    assert list(published.items()) == [(t, 5 + i) for i, t in enumerate(pt.TYPES)]
    again = pt.type_counts(labels, published=published)
    pd.testing.assert_frame_equal(again.astype({"table7": int, "difference": int}), table)


def test_type_mean_values_against_the_direct_computation():
    labels = pd.DataFrame({"category": ["AB_VERB"] * 4 + ["QUAD"] * 3 + ["ZERO"],
                           "n_modifiers": [0, 0, 1, 1, 0, 2, 2, 0]})
    human = np.array([0.1, 0.3, 0.5, 0.6, 0.2, 0.4, 0.9, 0.05])
    targets = {"type_mean_quad_2": {"paper": 0.6}, "type_count_zero": {"paper": 70},
               "type_mean_ab_verb_0": {"paper": 0.2}, "type_mean_quad_1": {"paper": 0.5},
               "type_mean_ab_verb_1": {"paper": 0.55}, "type_mean_triple_0": {"paper": 0.3},
               "type_mean_zero_3": {"paper": 0.1}, "n_adversarial": {"paper": 1}}
    results, table = data_chapter.type_mean_values(labels, human, targets)
    assert list(results) == ["type_mean_quad_2", "type_mean_ab_verb_0", "type_mean_quad_1",
                             "type_mean_ab_verb_1", "type_mean_triple_0", "type_mean_zero_3"]  # the targets' order
    assert np.isnan(results["type_mean_triple_0"])  # no TRIPLE pair at all
    assert np.isnan(results["type_mean_zero_3"])  # no pair has three modifiers
    assert results["type_mean_quad_2"] == float(np.mean([0.4, 0.9]))
    assert results["type_mean_ab_verb_0"] == float(np.mean([0.1, 0.3]))
    assert results["type_mean_ab_verb_1"] == pytest.approx(0.55)
    assert np.isnan(results["type_mean_quad_1"])  # QUAD has no pair with one modifier
    # the table by hand: categories x modifiers, NaN where a category has no pair with k modifiers
    assert list(table.index) == ["AB_VERB", "QUAD", "ZERO"] and list(table.columns) == [0, 1, 2]
    np.testing.assert_allclose(table.to_numpy(), [[0.2, 0.55, np.nan], [0.2, np.nan, 0.65],
                                                  [0.05, np.nan, np.nan]], rtol=0, atol=1e-12)
    for key, value in results.items():
        code, k = key.removeprefix("type_mean_").rsplit("_", 1)
        frame = labels.assign(human=human)
        chosen = frame[(frame.category == code.upper()) & (frame.n_modifiers == int(k))]["human"]
        assert value == pytest.approx(chosen.mean(), nan_ok=True)


def test_figure9_values_against_the_direct_computation():
    from scipy import stats

    from compsem.report import slug
    from compsem.sts import modifier_types as mt

    human = np.random.default_rng(5).random(2800)
    exclude = (528, 691)
    results, values, table = data_chapter.figure9_values(human, exclude)
    # the table by hand: per type n, 1 - mean, SD, z over the eight reductions (population SD) and
    # the one-sample t-test of the type's reductions against the pooled mean reduction
    groups = mt.modifier_groups(exclude)
    assert list(table.index) == list(mt.MODIFIER_ROWS) and list(table.columns) == ["n", "reduction", "sd", "z",
                                                                                   "t", "p"]
    reduction = {name: 1 - human[rows].mean() for name, rows in groups.items()}
    spread = np.sqrt(np.mean([(r - np.mean(list(reduction.values()))) ** 2 for r in reduction.values()]))
    pooled = 1 - human[np.concatenate(list(groups.values()))].mean()
    for name, rows in groups.items():
        n = len(rows)
        sd = np.sqrt(((human[rows] - human[rows].mean()) ** 2).sum() / (n - 1))
        t = (reduction[name] - pooled) / (sd / np.sqrt(n))
        assert table.loc[name, "n"] == n
        assert table.loc[name, ["reduction", "sd"]].tolist() == pytest.approx([reduction[name], sd], rel=1e-12)
        assert table.loc[name, "z"] == pytest.approx((np.mean(list(reduction.values())) - reduction[name]) / spread,
                                                     rel=1e-9)
        assert table.loc[name, "t"] == pytest.approx(t, rel=1e-9)
        assert table.loc[name, "p"] == pytest.approx(2 * stats.t.sf(abs(t), n - 1), rel=1e-9)
    # the chapter's former cell, on the table checked above
    figure9 = table
    anova = mt.anova(human, exclude=exclude)
    expected_results, expected_values = {}, {}
    for name in figure9.index:
        expected_results[f"modifier_reduction_{slug(name)}"] = float(figure9.loc[name, "reduction"])
        expected_values[f"modifier_p_{slug(name)}"] = float(figure9.loc[name, "p"])
        expected_values[f"modifier_z_{slug(name)}"] = float(figure9.loc[name, "z"])
    expected_values |= {f"modifier_g_{slug(name)}": g
                        for name, g in mt.grubbs_statistics(human, exclude=exclude).items()}
    expected_values["modifier_grubbs_critical"] = mt.grubbs_critical(len(figure9))
    expected_results["modifier_reduction_mean"] = mt.mean_reduction(human, exclude=exclude)
    expected_results["passive_z"] = float(figure9.loc["Passive", "z"])
    expected_results["anova_f"] = anova["F"]
    expected_results["place_t_test_p"] = float(figure9.loc["Place", "p"])
    expected_values["anova_p"] = anova["p"]
    assert list(results.items()) == list(expected_results.items())
    assert list(values.items()) == list(expected_values.items())
    # by hand: the pooled reduction and one type's reduction
    assert 528 not in groups["Passive"].tolist() + groups["IOBJ adj"].tolist()
    assert results["modifier_reduction_passive"] == pytest.approx(1 - human[groups["Passive"]].mean())
    assert results["modifier_reduction_mean"] == pytest.approx(1 - human[np.concatenate(list(groups.values()))].mean())
    assert values["modifier_grubbs_critical"] == pytest.approx(2.1266, abs=1e-4)  # eight types


def _only_mod(groups: dict[int, list[float]]):
    rows, human = [], []
    for k, values in groups.items():
        for v in values:
            rows += [{"category": "ONLY_MOD", "n_modifiers": k}, {"category": "ZERO", "n_modifiers": k}]
            human += [v, 0.0]
    return pd.DataFrame(rows), np.array(human)


def test_subadditivity_values_against_the_direct_computation():
    from compsem.sts import modifier_types as mt

    labels, human = _only_mod({0: [0.9, 1.0], 1: [0.8, 0.7], 2: [0.6, 0.7, 0.65], 3: [0.5]})
    targets = {"only_mod_similarity_1": {"paper": 0.75}, "only_mod_similarity_2": {"paper": 0.66}}
    results, table = data_chapter.subadditivity_values(labels, human, targets)
    expected = {}  # the chapter's former loop
    for n_mod, value in mt.subadditivity(labels, human).items():
        if int(n_mod) > 0:
            expected[f"only_mod_similarity_{int(n_mod)}"] = float(value)
    assert list(results.items()) == list(expected.items())
    assert list(results) == ["only_mod_similarity_1", "only_mod_similarity_2", "only_mod_similarity_3"]
    assert results["only_mod_similarity_1"] == pytest.approx(0.75)
    assert results["only_mod_similarity_2"] == pytest.approx(0.65)
    assert results["only_mod_similarity_3"] == 0.5
    assert list(table.columns) == ["mean human similarity", "paper"] and table.index.name == "added modifiers"
    assert table.index.tolist() == [0, 1, 2, 3]
    assert table["mean human similarity"].tolist() == pytest.approx([0.95, 0.75, 0.65, 0.5])
    assert table["paper"].tolist()[1:3] == [0.75, 0.66]
    assert np.isnan(table["paper"].iloc[0]) and np.isnan(table["paper"].iloc[3])


def test_subadditivity_gap_values_against_the_direct_computation():
    # s_1 = 0.875: additive k/8; k = 9 exceeds the scale (not testable: no Bonferroni interval)
    labels, human = _only_mod({1: [0.75, 1.0, 0.875, 0.875], 2: [0.75, 0.875, 0.75, 0.825],
                               3: [0.5, 0.6, 0.55], 9: [0.5, 0.5, 0.5]})
    values, gaps = data_chapter.subadditivity_gap_values(labels, human, n_resamples=300, seed=1, family=3)
    # the frame by hand: s_1 = 0.875, s_2 = 0.8, s_3 = 0.55, s_9 = 0.5; gap = k(1 - s_1) - (1 - s_k)
    assert list(gaps.index) == [2, 3, 9] and gaps.index.name == "added modifiers"
    assert list(gaps.columns) == ["gap", "ci_low", "ci_high", "additive", "observed", "n", "testable",
                                  "bonf3_ci_low", "bonf3_ci_high"]
    assert gaps["gap"].tolist() == pytest.approx([0.05, -0.075, 0.625], abs=1e-12)
    assert gaps["additive"].tolist() == pytest.approx([0.25, 0.375, 1.125], abs=1e-12)
    assert gaps["observed"].tolist() == pytest.approx([0.2, 0.45, 0.5], abs=1e-12)
    assert gaps["n"].tolist() == [4, 3, 3] and gaps["testable"].tolist() == [True, True, False]
    assert gaps[["ci_low", "ci_high"]].notna().all().all()
    assert (gaps["ci_low"] <= gaps["ci_high"]).all()
    assert gaps.loc[9, ["bonf3_ci_low", "bonf3_ci_high"]].isna().all()  # k = 9 is in no test
    for k in (2, 3):  # the Bonferroni interval holds the 95% one
        assert gaps.loc[k, "bonf3_ci_low"] <= gaps.loc[k, "ci_low"] <= gaps.loc[k, "ci_high"] <= gaps.loc[k, "bonf3_ci_high"]
    expected = {}  # the chapter's former loop, on the frame checked above
    for k, row in gaps.iterrows():
        expected[f"subadditive_gap_{int(k)}"] = float(row["gap"])
        for column in ("ci_low", "ci_high", "bonf3_ci_low", "bonf3_ci_high"):
            if not np.isnan(row[column]):
                expected[f"subadditive_gap_{int(k)}_{column}"] = float(row[column])
    expected["subadditive_n_testable"] = int(gaps["testable"].sum())
    assert list(values.items()) == list(expected.items())
    assert "subadditive_gap_9_bonf3_ci_low" not in values and "subadditive_gap_9_ci_low" in values
    assert values["subadditive_gap_2"] == pytest.approx(0.05) and values["subadditive_n_testable"] == 2
    assert values["subadditive_gap_3_bonf3_ci_low"] <= values["subadditive_gap_3_ci_low"]
    single, _ = data_chapter.subadditivity_gap_values(labels, human, n_resamples=300, seed=1, family=1)
    assert not any("bonf" in key for key in single)
    assert single["subadditive_gap_3_ci_low"] == values["subadditive_gap_3_ci_low"]
