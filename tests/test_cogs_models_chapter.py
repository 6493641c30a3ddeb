"""The chapter helpers of ``cogs-models`` (:mod:`compsem.cogs.models_chapter`), on small synthetic
frames: runs as :func:`compsem.cogs.seq2seq.results.collect` returns them, per-run means of
:func:`compsem.cogs.summary.run_level`, and handwritten predictions analysed per example."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from compsem import report, stats
from compsem.cogs import evaluation as ev
from compsem.cogs import models_chapter as chapter
from compsem.cogs import summary as s45
from compsem.cogs.seq2seq import config as cfg

PAPER = {key: target["paper"] for key, target in report.load_targets("cogs-models").items()}

# --------------------------------------------------------------------------- synthetic runs


def _collected(seeds=(1, 2, 3), cut_seeds=(4,)) -> pd.DataFrame:
    """Transformer runs with one exposure: every case, dev, test and gen; seed-dependent values
    (case i of seed s scores (i + s) / 40); ``cut_seeds`` stopped by the time limit."""
    rows = []
    for seed in (*seeds, *cut_seeds):
        base = {
            "model": "transformer",
            "exposures": 1,
            "seed": seed,
            "hash": f"h{seed}",
            "device": "cpu",
            "wall_seconds": 10.0,
            "steps": 100 * seed,
            "best_step": 50 * seed,
            "stop_reason": "time limit" if seed in cut_seeds else "early stopping",
            "decoding": "greedy",
        }
        values = {c: (i + seed) / 40 for i, c in enumerate(ev.CASE_ORDER)}
        values |= {"dev": 0.99 - seed / 100, "test": 0.98 - seed / 100, "gen": 0.3 + seed / 100}
        rows += [{**base, "quantity": q, "accuracy": v} for q, v in values.items()]
    return pd.DataFrame(rows)


def test_finished_runs_leave_out_the_runs_cut_by_the_time_limit():
    collected = _collected()
    assert set(chapter.finished_runs(collected).seed) == {1, 2, 3}
    assert chapter.grid_counts(collected, 30) == {
        "cogs_grid_runs_done": 3,
        "cogs_grid_runs_cut": 1,
        "cogs_grid_runs_total": 30,
    }


def test_runs_table_has_one_row_per_run_or_says_pending():
    table = chapter.runs_table(_collected(), 30)
    assert list(table.seed) == [1, 2, 3, 4] and list(table.columns[-2:]) == ["wall_seconds", "hash"]
    assert list(table.best_step) == [50, 100, 150, 200]  # the update whose weights were kept
    pending = chapter.runs_table(_collected().iloc[:0], 30)
    assert pending.loc[0, "status"] == "0 of 30 runs done: pending (needs a GPU)"


def test_cut_runs_table_shows_only_the_cut_runs():
    table = chapter.cut_runs_table(_collected())
    assert list(table.columns) == ["dev", "gen", "test"]
    assert table.index.get_level_values("seed").tolist() == [4]
    assert table.iloc[0]["gen"] == pytest.approx(0.34)
    assert chapter.cut_runs_table(_collected(cut_seeds=())).empty


def test_superseded_grid_is_the_lstms_under_the_other_embedding_dropout():
    grid = chapter.superseded_grid(["transformer", "bilstm", "lstm"], [1, 2], [1], 0.0)
    assert [(c["model"], c["seed"]) for c in grid] == [
        ("bilstm", 1), ("bilstm", 2), ("lstm", 1), ("lstm", 2)
    ]
    assert {cfg.config_hash(c) for c in grid}.isdisjoint(
        cfg.config_hash(c) for c in cfg.paper_grid(["bilstm", "lstm"], [1, 2], [1], (), 0.0)
    )
    assert [cfg.config_hash(c) for c in chapter.superseded_grid(["lstm"], [1], [1], None)] == [
        cfg.config_hash(cfg.paper_config("lstm", 1, 1, 0.0))
    ]
    assert chapter.superseded_grid(["transformer"], [1], [1], 0.0) == []


def test_superseded_runs_table_lists_every_run_with_its_stop_reason():
    table = chapter.superseded_runs_table(_collected())
    assert list(table.columns) == ["dev", "test", "gen"]
    assert table.index.get_level_values("stop_reason").tolist() == [
        "early stopping", "early stopping", "early stopping", "time limit"
    ]
    assert chapter.superseded_runs_table(_collected().iloc[:0]).empty


def test_grid_mean_keys_follow_table_4_5_and_figure_4_1():
    assert chapter.grid_mean_keys(["transformer", "lstm"], [1]) == [
        "cogs_t45_transformer_1_gen",
        "cogs_fig41_transformer_1_lexical",
        "cogs_fig41_transformer_1_structural",
        "cogs_t45_lstm_1_gen",
        "cogs_fig41_lstm_1_lexical",
        "cogs_fig41_lstm_1_structural",
    ]


def test_transformer_over_seeds_summarises_each_seed():
    collected = chapter.finished_runs(_collected())
    per_run = s45.run_level(collected)
    table, findings, values = chapter.transformer_over_seeds(collected, per_run, PAPER)
    assert values["cogs_tf1_n_seeds"] == 3
    # gen is the mean of the cases (Figure 4-1): (10 + seed) / 40; test is 0.98 - seed / 100
    assert values["cogs_tf1_gap"] == pytest.approx(0.98 - 0.02 - 12 / 40)
    primitive = [ev.CASE_ORDER.index(c) for c in chapter.PRIMITIVE_CASES]
    assert values["cogs_tf1_primitive_mean"] == pytest.approx(np.mean(primitive) / 40 + 2 / 40)
    pairs = [ev.CASE_ORDER.index(c) - ev.CASE_ORDER.index(p) for _, c, p in ev.NOUN_PAIRS]
    assert values["cogs_tf1_common_minus_proper"] == pytest.approx(np.mean(pairs) / 40)
    assert values["cogs_tf1_gen_minus_paper"] == pytest.approx(
        per_run.gen.mean() - PAPER["cogs_fig43_transformer_gen"]
    )
    for name in ("gen", "test", "gap", "gen_minus_paper"):
        low, high = values[f"cogs_tf1_{name}_ci_low"], values[f"cogs_tf1_{name}_ci_high"]
        low90, high90 = values[f"cogs_tf1_{name}_ci90_low"], values[f"cogs_tf1_{name}_ci90_high"]
        assert low < low90 < high90 < high
    # every run above 90% is decided on the weakest run: test 0.98 - seed / 100 is lowest at seed 3
    assert values["cogs_tf1_test_min"] == pytest.approx(0.95) and values["cogs_tf1_test_min_seed"] == 3
    weakest = per_run.test.min()  # Section 4.5.6 speaks of test accuracy; dev is shown beside
    assert values["cogs_tf1_in_distribution_min"] == pytest.approx(weakest)
    assert values["cogs_tf1_in_distribution_min_wilson_high"] == pytest.approx(
        chapter.wilson_high(weakest, chapter.IN_DISTRIBUTION_SIZE)
    )
    assert list(table.columns[:3]) == ["seed 1", "seed 2", "seed 3"]
    assert math.isnan(table.loc["gen: ours − paper (Welch)", "seed 1"])
    assert values["cogs_tf1_cells"] == len(findings) == 24  # 21 cases and 3 means
    assert values["cogs_tf1_cells_paper_inside"] == int(findings["paper inside"].sum())
    assert findings["ours (mean)"].equals(findings["ours (mean)"].round(3))
    # every cell is inside, below or above, over all cells and over the primitive cases
    for cells in ("cells", "primitive_cells"):
        parts = ("paper_inside", "ours_below", "ours_above")
        assert sum(values[f"cogs_tf1_{cells}_{p}"] for p in parts) == values[f"cogs_tf1_{cells}"]
    assert values["cogs_tf1_primitive_cells"] == len(chapter.PRIMITIVE_CASES)
    assert values["cogs_tf1_gen_replicate_half_width"] == pytest.approx(
        chapter.replicate_half_width(PAPER["cogs_fig43_transformer_gen_sd"], 3)
    )


def test_transformer_over_seeds_decides_the_weakest_run_on_a_sidak_level_wilson_interval():
    collected = chapter.finished_runs(_collected())
    per_run = s45.run_level(collected)
    _, findings, values = chapter.transformer_over_seeds(collected, per_run, PAPER)
    # every run's test accuracy (3 seeds), every run's Active -> Passive (3 seeds)
    assert values["cogs_tf1_in_distribution_k"] == 3 and values["cogs_tf1_active_to_passive_k"] == 3
    assert values["cogs_tf1_in_distribution_sidak_level"] == pytest.approx(0.95 ** (1 / 3))
    weakest = values["cogs_tf1_in_distribution_min"]
    ci = scipy.stats.binomtest(round(weakest * 3000), 3000).proportion_ci(0.95 ** (1 / 3), method="wilson")
    assert values["cogs_tf1_in_distribution_min_sidak_low"] == pytest.approx(ci.low)
    assert values["cogs_tf1_in_distribution_min_sidak_high"] == pytest.approx(ci.high)
    # wider than the 95% interval of the same run: the correction for picking the weakest
    assert values["cogs_tf1_in_distribution_min_sidak_high"] > values["cogs_tf1_in_distribution_min_wilson_high"]
    low95, _ = stats.accuracy_wilson(weakest, 3000, 0.95)
    assert values["cogs_tf1_in_distribution_min_sidak_low"] < low95
    weakest_ap = values["cogs_tf1_active_to_passive_min"]
    ci = scipy.stats.binomtest(round(weakest_ap * 1000), 1000).proportion_ci(0.95 ** (1 / 3), method="wilson")
    assert values["cogs_tf1_active_to_passive_min_sidak_low"] == pytest.approx(ci.low)
    assert values["cogs_tf1_active_to_passive_min_sidak_high"] == pytest.approx(ci.high)
    # the primitive cases' part of ours minus the paper's gen, and the rest, add up
    assert values["cogs_tf1_primitive_in_gen_minus_paper"] == pytest.approx(
        5 / 21 * (values["cogs_tf1_primitive_mean"] - values["cogs_tf1_primitive_paper"])
    )
    assert (values["cogs_tf1_primitive_in_gen_minus_paper"] + values["cogs_tf1_other_in_gen_minus_paper"]
            == pytest.approx(values["cogs_tf1_gen_minus_paper"]))  # fmt: skip
    # each case beside the paper with its Holm-adjusted p; the means without
    assert values["cogs_tf1_cases_tested"] == 21
    assert findings.loc["mean: gen", chapter.HOLM_COLUMN] == "–"
    case = ev.CASE_LABELS[ev.CASE_ORDER[0]]
    assert 0 <= float(findings.loc[case, chapter.HOLM_COLUMN]) <= 1


def test_weakest_of_uses_the_sidak_level_for_k():
    values = chapter.weakest_of(0.451, 1000, 5, "x")
    level = 0.95 ** (1 / 5)
    ci = scipy.stats.binomtest(451, 1000).proportion_ci(level, method="wilson")
    assert values == pytest.approx({"x_k": 5, "x_sidak_level": level,
                                    "x_min_sidak_low": ci.low, "x_min_sidak_high": ci.high})  # fmt: skip
    assert values["x_min_sidak_high"] > chapter.wilson_high(0.451, 1000)


def test_primitive_margin_bounds_the_sd_of_the_papers_mean_of_five_cases():
    targets = report.load_targets(chapter.CHAPTER)
    # two cells printed above 0 (SD .07, the lexical bound) and three printed 0.00 (SD .01)
    assert chapter.primitive_margin(targets) == pytest.approx((2 * 0.07 + 3 * 0.01) / 5, abs=1e-4)
    assert chapter.primitive_margin(targets) < PAPER["cogs_t45_transformer_1_prim_to_subj_common"]
    paper_mean = np.mean([PAPER[f"cogs_t45_transformer_1_{c}"] for c in chapter.PRIMITIVE_CASES])
    assert chapter.primitive_margin(targets) < paper_mean  # narrower than the effect it guards


def test_case_tests_adjust_the_cases_by_holm():
    targets = report.load_targets(chapter.CHAPTER)
    paper = {c: targets[s45.target_key("transformer", 1, c)]["paper"] for c in ev.CASE_ORDER}
    # every case at the paper's value with a small spread, but one far off with none
    cases = pd.DataFrame({c: [paper[c] - 0.01, paper[c], paper[c] + 0.01] for c in ev.CASE_ORDER})
    far = "passive_to_active"
    cases[far] = paper[far] - 0.5
    adjusted, values = chapter.case_tests(cases, targets, 1, "p_")
    assert values["p_cases_tested"] == 21 and values["p_cases_holm"] == 1
    assert values["p_cases_holm_above"] == 0
    assert adjusted[ev.CASE_LABELS[far]] == pytest.approx(values["p_cases_holm_min_p"])
    # Holm's adjustment of the per-case Welch tests, with the SD each target assumes
    raw = [s45.welch_p_value(cases[c], paper[c], s45.case_sd_from_tolerance(
        targets[s45.target_key("transformer", 1, c)]["tol"])) for c in ev.CASE_ORDER]  # fmt: skip
    from compsem.cogs import multiplicity

    assert [adjusted[ev.CASE_LABELS[c]] for c in ev.CASE_ORDER] == pytest.approx(
        list(multiplicity.holm(raw))
    )
    assert values["p_cases_holm_min_p"] == pytest.approx(21 * raw[ev.CASE_ORDER.index(far)])


def test_error_against_paper_is_welchs_equivalence_interval_with_the_assumed_sd():
    # shares on the bounded scale of a proportion (the gen SD .06 at the gen mean .35), the mean
    # edit distance relative to its size
    def share(p):
        return 0.06 * math.sqrt(p * (1 - p)) / math.sqrt(0.35 * 0.65)

    assert chapter.error_margin(PAPER, "single_lexical") == pytest.approx(share(0.17))
    assert chapter.error_margin(PAPER, "edit_distance") == pytest.approx(42 * 0.06 / 0.35)
    assert chapter.error_margin(PAPER, "not_paren") == pytest.approx(share(0.12))
    assert set(chapter.ERROR_SHARES) < set(chapter.ERROR_TARGETS)
    per_seed = [0.12, 0.18, 0.21, 0.25, 0.22]
    values = chapter.error_against_paper(per_seed, "single_lexical")
    margin = share(0.17)
    _, low, high = s45.welch_difference(per_seed, 0.17, margin, level=0.90)
    assert values["cogs_tf1_single_lexical_minus_paper"] == pytest.approx(np.mean(per_seed) - 0.17)
    assert values["cogs_tf1_single_lexical_minus_paper_ci90_low"] == pytest.approx(low)
    assert values["cogs_tf1_single_lexical_minus_paper_ci90_high"] == pytest.approx(high)
    assert values["cogs_tf1_single_lexical_margin"] == pytest.approx(margin)
    # a replicate with the assumed spread: wider than the margin (the test can hardly hold),
    # and narrower than the old band plus our own interval
    replicate = values["cogs_tf1_single_lexical_replicate_half_width"]
    assert replicate == pytest.approx(chapter.replicate_half_width(margin, 5)) and replicate > margin
    # the margin is the SD, not the targets' tolerance for a difference of two 5-seed means
    tol = report.load_targets(chapter.CHAPTER)["cogs_err_single_lexical_transformer"]["tol"]
    assert tol == pytest.approx(2 * margin * math.sqrt(2 / 5), abs=1e-5)


def test_cell_counts_tell_below_from_above():
    labels = [ev.CASE_LABELS[c] for c in chapter.PRIMITIVE_CASES[:2]] + ["mean: gen"]
    findings = pd.DataFrame(
        {
            "paper (mean of 5)": [0.5, 0.5, 0.5],
            "ours 95% low": [0.1, 0.6, 0.4],
            "ours 95% high": [0.3, 0.8, 0.6],
            "paper inside": [False, False, True],
        },
        index=labels,
    )
    assert chapter.cell_counts(findings, "p_") == {
        "p_cells": 3, "p_cells_paper_inside": 1, "p_cells_ours_below": 1, "p_cells_ours_above": 1,
        "p_primitive_cells": 2, "p_primitive_cells_paper_inside": 0,
        "p_primitive_cells_ours_below": 1, "p_primitive_cells_ours_above": 1,
    }


def test_cell_counts_read_the_paper_at_its_printed_precision():
    # a printed .30 stands for [.295, .305]: an interval ending at .2986 is not below it, one
    # ending at .2949 is; likewise above a printed .99
    findings = pd.DataFrame(
        {
            "paper (mean of 5)": [0.30, 0.30, 0.99, 0.99],
            "ours 95% low": [0.10, 0.10, 0.9909, 0.9951],
            "ours 95% high": [0.2986, 0.2949, 1.0, 1.0],
            "paper inside": [True, False, True, False],
        },
        index=["a", "b", "c", "d"],
    )
    counts = chapter.cell_counts(findings, "p_")
    assert (counts["p_cells_paper_inside"], counts["p_cells_ours_below"],
            counts["p_cells_ours_above"]) == (2, 1, 1)


def test_wilson_high_bounds_one_run():
    # 451 of 1,000 right: the run's own upper bound is far below a margin of .95
    assert 0.45 < chapter.wilson_high(0.451, 1000) < 0.49
    assert chapter.wilson_high(0.451, 1000) == pytest.approx(
        scipy.stats.binomtest(451, 1000).proportion_ci(0.95, method="wilson").high
    )
    assert chapter.wilson_high(1.0, 1000) == pytest.approx(1.0)


def test_replicate_half_width_is_welchs_for_two_samples_with_the_papers_sd():
    # equal SDs and seeds: Welch's degrees of freedom are 2n - 2
    expected = scipy.stats.t.ppf(0.95, 8) * 0.06 * math.sqrt(2 / 5)
    assert chapter.replicate_half_width(0.06, 5) == pytest.approx(expected)
    assert chapter.replicate_half_width(0.06, 5) > 0.06  # wider than a margin of one SD
    ours = 0.35 + 0.06 * np.array([-1.2649, -0.6325, 0.0, 0.6325, 1.2649])  # SD .06
    _, low, high = s45.welch_difference(ours, 0.35, 0.06, level=0.90)
    assert (high - low) / 2 == pytest.approx(chapter.replicate_half_width(0.06, 5), rel=1e-4)


def test_transformer_over_seeds_needs_two_seeds():
    collected = chapter.finished_runs(_collected(seeds=(1,)))
    table, findings, values = chapter.transformer_over_seeds(
        collected, s45.run_level(collected), PAPER
    )
    assert table.empty and findings is None and values == {}


def _two_exposures(seeds=(1, 2, 3)) -> pd.DataFrame:
    """The runs of :func:`_collected` with one exposure, and the same seeds with 100, whose
    lexical cases score 0.4 more and whose structural cases score as with one."""
    one = chapter.finished_runs(_collected(seeds=seeds))
    many = one.assign(exposures=100)
    lexical = many.quantity.isin(ev.CASE_ORDER) & ~many.quantity.isin(ev.STRUCTURAL_CASES)
    many.loc[lexical, "accuracy"] += 0.4
    return pd.concat([one, many], ignore_index=True)


def test_transformer_over_seeds_with_100_exposures_has_its_own_keys_and_paper():
    collected = _two_exposures()
    per_run = s45.run_level(collected)
    _, findings, values = chapter.transformer_over_seeds(collected, per_run, PAPER, exposures=100)
    assert values["cogs_tf100_n_seeds"] == 3 and not any(k.startswith("cogs_tf1_") for k in values)
    assert values["cogs_tf100_gen_minus_paper"] == pytest.approx(
        per_run[per_run.exposures == 100].gen.mean() - PAPER["cogs_t45_transformer_100_gen"]
    )
    primitive_paper = [PAPER[f"cogs_t45_transformer_100_{c}"] for c in chapter.PRIMITIVE_CASES]
    assert values["cogs_tf100_primitive_paper"] == pytest.approx(np.mean(primitive_paper))
    assert findings.loc["mean: gen", "paper (mean of 5)"] == round(PAPER["cogs_t45_transformer_100_gen"], 3)


def test_exposure_gain_pairs_the_seeds_of_both_settings():
    collected = _two_exposures()
    table, values = chapter.exposure_gain(collected, s45.run_level(collected))
    assert values["cogs_tf_exposure_gain_n_seeds"] == 3
    assert values["cogs_tf_exposure_gain_lexical"] == pytest.approx(0.4)
    assert values["cogs_tf_exposure_gain_primitive"] == pytest.approx(0.4)
    assert values["cogs_tf_exposure_gain_gen"] == pytest.approx(0.4 * 18 / 21)
    assert values["cogs_tf_exposure_gain_structural"] == pytest.approx(0.0)
    # the same gain on every seed: no spread, so the interval is the mean
    assert values["cogs_tf_exposure_gain_lexical_ci_low"] == pytest.approx(0.4)
    assert list(table.index) == list(chapter.EXPOSURE_GAIN_QUANTITIES)
    # a seed trained in one setting only is left out; fewer than two pairs give nothing
    only_one = collected[~((collected.exposures == 100) & (collected.seed > 1))]
    table, values = chapter.exposure_gain(only_one, s45.run_level(only_one))
    assert table.empty and values == {}


def test_exposure_gain_interval_is_the_t_interval_of_the_paired_differences():
    collected = _two_exposures()
    bump = (
        (collected.exposures == 100)
        & (collected.seed == 3)
        & (collected.quantity == "prim_to_inf_arg")
    )
    collected.loc[bump, "accuracy"] += 0.5
    _, values = chapter.exposure_gain(collected, s45.run_level(collected))
    gains = np.array([0.4, 0.4, 0.4 + 0.5 / 5])  # seed 3's primitive mean (5 cases) moves by 0.1
    low, high = scipy.stats.t.interval(0.95, 2, loc=gains.mean(), scale=scipy.stats.sem(gains))
    assert values["cogs_tf_exposure_gain_primitive_ci_low"] == pytest.approx(low)
    assert values["cogs_tf_exposure_gain_primitive_ci_high"] == pytest.approx(high)
    # the fails side of more-exposures-help-transformer is a union of two, so gen's direction is
    # read at 1 - .05/2; only gen gets those keys (the structural side reads its 95% interval)
    assert not any(k.endswith(("_bonf2_ci_low", "_bonf2_ci_high")) and "_gen_" not in k for k in values)
    gen = values["cogs_tf_exposure_gain_gen"]
    assert values["cogs_tf_exposure_gain_gen_bonf2_ci_low"] < values["cogs_tf_exposure_gain_gen_ci_low"] <= gen


def test_cut_short_counts_errors_that_are_a_prefix_of_the_gold_form():
    gold = "shark ( x _ 1 ) AND investigate . agent ( x _ 2 , x _ 1 )"
    other = "roll . agent ( x _ 1 , Emma ) AND roll . theme ( x _ 1 , James )"
    rows = [
        ("prim_to_subj_common", gold, ""),  # empty: cut short
        ("prim_to_subj_common", gold, "shark ( x _ 1 )"),  # a prefix: cut short
        ("prim_to_subj_common", gold, "lollipop ( x _ 1 )"),  # wrong word: not cut short
        ("prim_to_subj_common", gold, gold),  # right
        ("subj_to_obj_proper", other, "roll . agent ( x _ 1 , Emma )"),  # cut short
        ("subj_to_obj_proper", other, other),
        ("obj_pp_to_subj_pp", other, ""),  # structural: not counted
    ]
    frame = pd.DataFrame(
        [{"split": "gen", "source": "s", "target": t, "case": c, "prediction": p,
          "exact": p == t} for c, t, p in rows]  # fmt: skip
    ).assign(seed=1)
    table, values = chapter.cut_short(frame)
    assert values["cogs_tf100_cut_short_primitive"] == pytest.approx(2 / 3)
    assert values["cogs_tf100_cut_short_other"] == pytest.approx(1.0)
    assert values["cogs_tf100_lexical_other"] == pytest.approx(0.5)
    # of the two primitive outputs cut short, the empty one stops where "shark" is due
    assert values["cogs_tf100_cut_short_at_item_primitive"] == pytest.approx(1 / 2)
    assert values["cogs_tf100_cut_short_at_item_other"] == pytest.approx(0.0)  # "AND" was due
    assert table.loc[1, ("accuracy", "primitive cases")] == pytest.approx(1 / 4)
    assert set(chapter.cut_short(frame, prefix="x_")[1]) == {
        "x_cut_short_primitive", "x_cut_short_other", "x_cut_short_at_item_primitive",
        "x_cut_short_at_item_other", "x_lexical_other",
    }


def test_model_size_table_fills_the_sizes_that_have_runs():
    per_run = s45.run_level(chapter.finished_runs(_collected()))
    sizes, values = chapter.model_size_table(per_run, PAPER)
    assert list(sizes.index) == [
        "Transformer 1-layer (5.3M)",
        "Transformer (9.5M)",
        "Transformer 6-layer (45M)",
    ]
    assert list(sizes.runs) == [0, 3, 0]
    assert set(values) == {
        f"cogs_fig43_transformer_{q}" for q in ("dev", "test", "gen", "gen_sd", "n_runs")
    }
    assert values["cogs_fig43_transformer_n_runs"] == 3
    assert values["cogs_fig43_transformer_gen_sd"] == pytest.approx(1 / 40)
    assert math.isnan(sizes.iloc[0]["ours gen"])
    assert sizes.iloc[2]["paper gen"] == PAPER["cogs_fig43_transformer_large_gen"]


def test_seed_spread_runs_keeps_the_cases_of_table_4_4():
    spread = chapter.seed_spread_runs(_collected(), ["transformer"])
    assert set(spread.quantity) == set(chapter.SPREAD_CASES)
    assert chapter.seed_spread_runs(_collected(), ["lstm"]).empty


# --------------------------------------------------------------------------- greedy or beam


def _decodings() -> pd.DataFrame:
    rows = []
    for run, gen_beam, gen_greedy in (("A", 0.5, 0.4), ("B", 0.7, 0.4), ("C", 0.0, 1.0)):
        for decoding, gen, capped in (("beam 5", gen_beam, np.nan), ("greedy", gen_greedy, 0.5)):
            rows.append(
                {
                    "run": run,
                    "decoding": decoding,
                    "gen": gen,
                    "errors not ending in ')'": 0.1 if decoding == "beam 5" else 0.3,
                    "depth errors at the cap": capped,
                    "primitive": 0.3 if decoding == "beam 5" else 0.4,
                    chapter.PRIMITIVE_STOPS: 0.2 if decoding == "beam 5" else 0.0,
                }
            )
    return pd.DataFrame(rows)


def test_beam_against_greedy_averages_over_the_given_runs_only():
    values = chapter.beam_against_greedy(_decodings(), ["A", "B"])
    assert values["cogs_beam_n_seeds"] == 2
    assert values["cogs_beam_minus_greedy_gen"] == pytest.approx(0.2)
    assert values["cogs_beam_not_paren"] == pytest.approx(0.1)
    assert values["cogs_greedy_not_paren"] == pytest.approx(0.3)
    assert values["cogs_greedy_depth_capped"] == pytest.approx(0.5)
    assert "cogs_beam_depth_capped" not in values  # undefined: no depth errors
    assert values["cogs_beam_primitive_stops"] == pytest.approx(0.2)
    assert values["cogs_greedy_primitive_stops"] == 0.0
    assert chapter.beam_against_greedy(_decodings(), []) == {}


def test_beam_against_greedy_names_its_keys_with_the_prefix():
    values = chapter.beam_against_greedy(_decodings(), ["A", "B"], prefix="cogs_reduced_")
    assert values["cogs_reduced_beam_n_seeds"] == 2
    assert not any(k.startswith("cogs_beam") for k in values)


def test_beam_effect_is_beam_minus_greedy_run_by_run_with_a_t_interval():
    """The t-interval over runs, cut to [-1, 1], the range of a difference of two accuracies
    (here it reaches past -1 and 1 before the cut)."""
    table, values = chapter.beam_effect(_decodings(), "x_")
    assert values["x_beam_effect_n_runs"] == 3
    effects = np.array([0.5 - 0.4, 0.7 - 0.4, 0.0 - 1.0])  # runs A, B, C
    low, high = scipy.stats.t.interval(0.95, 2, loc=effects.mean(), scale=scipy.stats.sem(effects))
    assert low < -1 and high > 1
    low, high = max(low, -1.0), min(high, 1.0)
    assert values["x_beam_effect_gen"] == pytest.approx(effects.mean())
    assert (values["x_beam_effect_gen_ci_low"], values["x_beam_effect_gen_ci_high"]) == (
        pytest.approx(low), pytest.approx(high)
    )
    assert values["x_beam_effect_stops"] == pytest.approx(0.2)
    assert values["x_beam_effect_primitive"] == pytest.approx(-0.1)
    assert list(table.index) == list(chapter.BEAM_EFFECT_QUANTITIES)
    one_run = _decodings()[lambda d: d.run == "A"]
    assert chapter.beam_effect(one_run, "x_")[1] == {}


def test_beam_configs_change_the_decoding_only():
    configs = chapter.reduced_configs("transformer-tiny", [1, 2], 60, 0, 0, 100)
    beams = chapter.beam_configs(configs, 100, 500)
    for config, beam in zip(configs, beams, strict=True):
        assert beam["decoding"]["method"] == "beam" and beam["decoding"]["beam"] == 5
        assert (beam["decoding"]["per_case"], beam["decoding"]["per_split"]) == (100, 500)
        assert beam["decoding"]["len_ratio"] == config["decoding"]["len_ratio"]  # same cap
        assert cfg.training_hash(beam) == cfg.training_hash(config)  # decoded, not retrained
        assert cfg.config_hash(beam) != cfg.config_hash(config)
    assert configs[0]["decoding"]["method"] == "greedy"  # the inputs are not changed
    # runs without both decodings give no rows and no values
    table, values = chapter.reduced_greedy_and_beam(configs, {})
    assert table.empty and values == {}


# --------------------------------------------------------------------------- the reduced run

PASSIVE = ("A ball was blessed .", "ball ( x _ 1 ) AND bless . theme ( x _ 3 , x _ 1 )")
REORDERED = "bless . theme ( x _ 3 , x _ 1 ) AND ball ( x _ 1 )"  # same meaning
WRONG_WORD = "cake ( x _ 1 ) AND bless . theme ( x _ 3 , x _ 1 )"  # a single lexical error
TOO_SHORT = "ball ( x _ 1 )"  # ends too early, another structure
PRIMITIVE = ("Emma", "Emma")


def _analysed(predictions: list[str], seed: int | None = None) -> pd.DataFrame:
    """Analysed predictions: the Active -> Passive sentence once per prediction (gen), a
    primitive in dev and test, all right except the gen predictions given."""
    rows = [
        {"split": "gen", "source": PASSIVE[0], "target": PASSIVE[1], "case": "active_to_passive",
         "prediction": p}
        for p in predictions
    ]  # fmt: skip
    rows += [
        {"split": s, "source": PRIMITIVE[0], "target": PRIMITIVE[1], "case": "in_distribution",
         "prediction": PRIMITIVE[1]}
        for s in ("dev", "test")
    ]  # fmt: skip
    frame = ev.analyse(pd.DataFrame(rows))
    return frame if seed is None else frame.assign(seed=seed)


def test_reduced_summary_scores_the_run_the_parser_and_the_paper():
    analysed = _analysed([PASSIVE[1], REORDERED, WRONG_WORD, TOO_SHORT])
    analysed["reference_exact"] = True
    summary, values = chapter.reduced_summary(analysed, PAPER, 100)
    assert list(summary.index) == [
        chapter.REDUCED_EXACT,
        chapter.REDUCED_SEMANTIC,
        chapter.REFERENCE_PARSER,
        "paper: Transformer 9.5M (gen: 100 exposures; dev, test: 1 exposure)",
    ]
    assert values["cogs_reduced_gen"] == values["cogs_reduced_lexical"] == pytest.approx(0.25)
    assert math.isnan(values["cogs_reduced_structural"])  # no structural case in the frame
    assert values["cogs_reduced_gap"] == pytest.approx(0.75)
    assert values["cogs_reduced_semantic_gen"] == pytest.approx(0.5)
    assert values["cogs_reference_gen"] == 1.0
    assert (
        summary.loc[chapter.paper_gap_label(100), "gen"]
        == PAPER["cogs_t45_transformer_100_gen"]
    )
    # dev and test are the one-exposure runs' (Figure 4-3), the only ones the paper prints
    assert summary.loc[chapter.paper_gap_label(100), "dev"] == PAPER["cogs_fig43_transformer_dev"]
    assert chapter.paper_gap_label(1) == chapter.paper_label(1)
    # the threshold of reduced-run-gap: the paper's 100-exposure lead, whatever the exposures
    lead = PAPER["cogs_fig41_transformer_100_lexical"] - PAPER["cogs_fig41_transformer_100_structural"]
    assert values["cogs_paper_tf100_lexical_minus_structural"] == pytest.approx(lead)
    assert chapter.reduced_summary(analysed, PAPER, 1)[1][
        "cogs_paper_tf100_lexical_minus_structural"] == pytest.approx(lead)
    assert list(values)[:5] == [f"cogs_reduced_{k}" for k in chapter.SUMMARY_COLUMNS]


def test_analyse_with_reference_pools_the_seeds_and_parses_each_source_once(monkeypatch):
    gold = {"gen": pd.DataFrame({"source": [PASSIVE[0]], "target": [PASSIVE[1]],
                                 "case": ["active_to_passive"]})}  # fmt: skip
    runs = [SimpleNamespace(metrics={"seed": seed},
                            predictions=pd.DataFrame({"split": ["gen"], "row": [0],
                                                      "prediction": [prediction]}))
            for seed, prediction in ((1, PASSIVE[1]), (2, WRONG_WORD))]  # fmt: skip
    parsed = []

    def interpret(sentences):
        parsed.extend(sentences)
        return [PASSIVE[1] for _ in sentences]

    monkeypatch.setattr(chapter, "interpret_all", interpret)
    analysed = chapter.analyse_with_reference(runs, gold)
    assert analysed.seed.tolist() == [1, 2] and analysed.exact.tolist() == [True, False]
    assert analysed.reference_exact.tolist() == [True, True]
    assert parsed == [PASSIVE[0]]  # one distinct source: parsed once


def test_semantic_by_case_labels_the_cases():
    analysed = _analysed([PASSIVE[1], REORDERED])
    analysed["reference_exact"] = True
    table = chapter.semantic_by_case(chapter.gen_by_case(analysed))
    assert list(table.index) == [ev.CASE_LABELS["active_to_passive"]]
    assert table.iloc[0].tolist() == [0.5, 1.0, 1.0, 0.5]


def _reduced_run(seed: int, train_seconds: float, steps: int = 2500):
    metrics = {
        "device": "cpu",
        "seed": seed,
        "steps": steps,
        "best_step": steps,
        "epochs": steps / 200,
        "stop_reason": "max steps",
        "train_seconds": train_seconds,
        "decode_seconds": 90.0,
        "train_target_tokens_per_second": 1234.0,
        "history": [{"step": 250, "dev_loss": 1.0 / seed}, {"step": 500, "dev_loss": 0.5 / seed}],
    }
    return SimpleNamespace(metrics=metrics, config={"data": {"exposures": 100}}, hash=f"h{seed}")


def test_reduced_run_info_reads_the_metrics_of_every_seed():
    info, values = chapter.reduced_run_info([_reduced_run(1, 600.0), _reduced_run(2, 1200.0, 2000)])
    assert values["cogs_reduced_exposures"] == 100
    assert values["cogs_reduced_train_minutes"] == 15.0  # the mean over seeds
    assert values["cogs_reduced_decode_minutes"] == 1.5
    assert values["cogs_reduced_steps"] == 2500 and values["cogs_reduced_epochs"] == 12.5  # the most
    assert list(info.index) == [1, 2] and info.loc[2, "configuration hash"] == "h2"
    assert info.loc[2, "updates"] == 2000 and info.loc[1, "decoding (min)"] == 1.5
    histories = chapter.reduced_histories([_reduced_run(1, 600.0), _reduced_run(2, 600.0)])
    assert histories.seed.tolist() == [1, 1, 2, 2] and histories.dev_loss.tolist() == [1.0, 0.5, 0.5, 0.25]


def test_reduced_seeds_gives_each_seed_and_a_t_interval():
    # seed 1: 1 of 4 Active -> Passive outputs right, seed 2: 3 of 4, seed 3: 2 of 4
    right = {1: 1, 2: 3, 3: 2}
    analysed = pd.concat(
        [_analysed([PASSIVE[1]] * n + [WRONG_WORD] * (4 - n), seed) for seed, n in right.items()],
        ignore_index=True,
    )
    table, values = chapter.reduced_seeds(analysed)
    assert list(table.index) == ["seed 1", "seed 2", "seed 3", "mean", "95% interval: low",
                                 "95% interval: high"]  # fmt: skip
    assert table.loc[["seed 1", "seed 2", "seed 3"], "gen"].tolist() == [0.25, 0.75, 0.5]
    assert values["cogs_reduced_n_seeds"] == 3
    half_width = scipy.stats.t.ppf(0.975, 2) * 0.25 / math.sqrt(3)  # SD .25 over 3 seeds
    assert half_width > 0.5  # the t-interval reaches past 0 and 1: cut to the range of an accuracy
    assert values["cogs_reduced_gen_ci_low"] == 0.0
    assert values["cogs_reduced_gen_ci_high"] == 1.0
    assert values["cogs_reduced_dev_ci_low"] == values["cogs_reduced_dev_ci_high"] == 1.0  # no spread
    # no structural case in the frame: its mean and lexical minus structural are undefined
    assert math.isnan(values["cogs_reduced_lexical_minus_structural"])
    _, one = chapter.reduced_seeds(analysed[analysed.seed == 1])
    assert one["cogs_reduced_n_seeds"] == 1 and math.isnan(one["cogs_reduced_gen_ci_low"])


def test_curve_summary_records_the_sample_the_curve_was_scored_on():
    rows = [
        {"step": step, "quantity": q, "accuracy": step / 1000 + (q == "gen") * 0.1}
        for step in (250, 500, 750, 1000)
        for q in ("dev", "test", "gen", "lexical", "structural")
    ]
    curve = pd.DataFrame(rows)
    table, values = chapter.curve_summary(curve, 100, 500)
    assert list(table.columns) == chapter.SUMMARY_COLUMNS and list(table.index) == [
        250,
        500,
        750,
        1000,
    ]
    assert values["cogs_reduced_curve_per_case"] == 100
    assert values["cogs_reduced_curve_gen_max_step"] == 1000.0
    assert values["cogs_reduced_curve_gen_range"] == pytest.approx(0.5)
    curve.attrs["sample"] = {"per_case": 10, "per_split": 20}
    _, values = chapter.curve_summary(curve, 100, 500)
    assert (values["cogs_reduced_curve_per_case"], values["cogs_reduced_curve_per_split"]) == (
        10,
        20,
    )


# --------------------------------------------------------------------------- error analyses


def _runs() -> dict[str, pd.DataFrame]:
    """The reduced run and two Transformer seeds (2 and 1 Active -> Passive errors)."""
    return {
        chapter.REDUCED_RUN: _analysed([PASSIVE[1], TOO_SHORT]),
        "Transformer (n=2)": pd.concat(
            [_analysed([WRONG_WORD, TOO_SHORT, PASSIVE[1]], 1).assign(decoding="greedy"),
             _analysed([REORDERED], 2).assign(decoding="beam")],
            ignore_index=True,
        ),
    }


def test_grid_model_of_tells_the_models_apart():
    models = ["transformer", "bilstm", "lstm"]
    assert chapter.grid_model_of("Transformer (n=3)", models) == "transformer"
    assert chapter.grid_model_of("LSTM (Bi) (n=2)", models) == "bilstm"
    assert chapter.grid_model_of("LSTM (Uni) (n=1)", models) == "lstm"
    assert chapter.grid_model_of(chapter.REDUCED_RUN, models) is None
    assert chapter.transformer_runs(_runs()) == "Transformer (n=2)"


def test_error_values_per_model_per_seed_and_for_the_reduced_run():
    values = chapter.error_values(_runs(), ["transformer", "bilstm", "lstm"])
    assert values["cogs_ap_errors_transformer"] == 1.5  # 3 errors over 2 runs
    assert values["cogs_ap_wrong_structure_transformer"] == pytest.approx(2 / 3)
    assert values["cogs_err_single_lexical_transformer"] == pytest.approx(0.25)
    assert values["cogs_err_not_paren_transformer"] == 0.0
    assert not any(k.endswith(("_bilstm", "_lstm")) for k in values)
    assert "cogs_t46_transformer_depth3to5" not in values  # no recursion case: undefined
    assert values["cogs_depth_capped"] == 0.0
    assert values["cogs_tf1_single_lexical_mean"] == pytest.approx(1 / 6)  # 1/3 and 0 per seed
    assert values["cogs_tf1_single_lexical_minus_paper"] == pytest.approx(
        1 / 6 - PAPER["cogs_err_single_lexical_transformer"]
    )
    for stem in ("single_lexical", "not_paren_pooled", "edit_distance_pooled"):
        low = values[f"cogs_tf1_{stem}_minus_paper_ci90_low"]
        assert low < values[f"cogs_tf1_{stem}_minus_paper"] < values[f"cogs_tf1_{stem}_minus_paper_ci90_high"]
    # the ratios over errors are decided on the table's estimator: pooled over the seeds' errors
    for key, target in (("not_paren", "cogs_err_not_paren_transformer"),
                        ("edit_distance", "cogs_err_edit_distance_transformer")):  # fmt: skip
        assert values[f"cogs_tf1_{key}_pooled_minus_paper"] == pytest.approx(values[target] - PAPER[target])
        assert f"cogs_tf1_{key}_mean" not in values and f"cogs_tf1_{key}_minus_paper" not in values
    # seed 1: two errors 1 and 13 tokens from the target; seed 2: one error: pooled over 3 errors
    reordered = ev.edit_distance(REORDERED.split(), PASSIVE[1].split())
    assert values["cogs_err_edit_distance_transformer"] == pytest.approx((1 + 13 + reordered) / 3)
    assert (
        values["cogs_tf1_single_lexical_ci_low"] < 1 / 6 < values["cogs_tf1_single_lexical_ci_high"]
    )
    assert values["cogs_reduced_err_structure_correct"] == 0.5
    # the share of errors not ending in ')' per way of decoding, averaged over its seeds
    assert values["cogs_tf1_greedy_n_seeds"] == values["cogs_tf1_beam_n_seeds"] == 1
    assert values["cogs_tf1_not_paren_greedy_pooled"] == values["cogs_tf1_not_paren_beam_pooled"] == 0.0
    analysis = report.compare(values, chapter.CHAPTER, prefixes=chapter.ANALYSIS_PREFIXES)
    assert list(analysis.index) == [
        k for k in values if k.startswith(chapter.ANALYSIS_PREFIXES) and k in PAPER
    ]


def test_error_table_sets_ours_beside_the_paper():
    table = chapter.error_table(_runs(), PAPER)
    assert list(table.columns) == [
        chapter.REDUCED_RUN,
        "Transformer (n=2)",
        "paper: Transformer",
        "paper: LSTM (Bi)",
        "paper: LSTM (Uni)",
        chapter.PAPER_POOLED_COLUMN,
    ]
    assert (
        table.loc["active → passive: errors", "paper: LSTM (Uni)"] == PAPER["cogs_ap_errors_lstm"]
    )
    assert table.loc["active → passive: errors", "Transformer (n=2)"] == 1.5
    # the paper's values that pool its models stand once, in their own column, not per model
    for row, key in chapter.POOLED_ANALYSIS_KEYS.items():
        assert table.loc[row, chapter.PAPER_POOLED_COLUMN] == PAPER[key]
        assert table.loc[row, ["paper: Transformer", "paper: LSTM (Bi)", "paper: LSTM (Uni)"]].isna().all()
    assert table.loc["depth: capped", "Transformer (n=2)"] == 0.0  # ours stay
    assert math.isnan(table.loc["error_edit_distance", chapter.PAPER_POOLED_COLUMN])  # per model
    long = chapter.PAPER_LONG_OUTPUTS + " (paper: LSTMs pooled)"
    assert table.loc[long, "paper: LSTM (Bi)"] == table.loc[long, "paper: LSTM (Uni)"] == PAPER["cogs_test_long_lstm"]
    assert chapter.PAPER_LONG_OUTPUTS not in table.index


def test_error_ratio_parts_sum_to_the_pooled_error_summary():
    runs = _runs()["Transformer (n=2)"]
    parts = [chapter.error_ratio_parts(part) for _, part in runs.groupby("seed")]
    assert [p["not_paren"] for p in parts] == [(0.0, 2.0), (0.0, 1.0)]
    assert parts[0]["edit_distance"] == (14.0, 2.0)  # 1 + 13 tokens over two errors
    pooled = ev.error_summary(runs[runs.split == "gen"])
    for key, row in (("not_paren", "error_not_ending_paren"), ("edit_distance", "error_edit_distance")):
        numerators, denominators = zip(*(p[key] for p in parts), strict=True)
        assert s45.pooled_ratio(numerators, denominators) == pytest.approx(pooled[row])
    # dev and test errors do not count: only gen (Section 4.5.3)
    wrong_dev = runs.assign(exact=runs.exact & (runs.split == "gen"))
    assert chapter.error_ratio_parts(wrong_dev[wrong_dev.seed == 1])["not_paren"][1] == 2.0


def test_pooled_error_against_paper_is_welchs_interval_on_the_pooled_ratio():
    numerators, denominators = [43, 406, 166, 2462, 1313], [11075, 12610, 11162, 19964, 13540]
    values = chapter.pooled_error_against_paper(numerators, denominators, "not_paren", PAPER)
    margin = chapter.error_margin(PAPER, "not_paren")
    difference, low, high, se = s45.pooled_welch_difference(
        numerators, denominators, PAPER["cogs_err_not_paren_transformer"], margin, level=0.90
    )
    assert values["cogs_tf1_not_paren_pooled_minus_paper"] == pytest.approx(difference)
    assert values["cogs_tf1_not_paren_pooled_minus_paper"] == pytest.approx(
        sum(numerators) / sum(denominators) - 0.12
    )
    assert (values["cogs_tf1_not_paren_pooled_minus_paper_ci90_low"],
            values["cogs_tf1_not_paren_pooled_minus_paper_ci90_high"]) == pytest.approx((low, high))  # fmt: skip
    assert values["cogs_tf1_not_paren_pooled_se"] == pytest.approx(se) and se > 0
    assert values["cogs_tf1_not_paren_margin"] == pytest.approx(margin)
    assert values["cogs_tf1_not_paren_replicate_half_width"] == pytest.approx(
        chapter.replicate_half_width(margin, 5)
    )
    ratio, low95, high95 = s45.pooled_interval(numerators, denominators)
    assert (values["cogs_tf1_not_paren_pooled_ci_low"],
            values["cogs_tf1_not_paren_pooled_ci_high"]) == pytest.approx((low95, high95))  # fmt: skip
    assert low95 < ratio < high95
    # deterministic: the same values on every run
    assert chapter.pooled_error_against_paper(numerators, denominators, "not_paren", PAPER) == values
    with pytest.raises(ValueError, match="not a pooled error ratio"):
        chapter.pooled_error_against_paper(numerators, denominators, "single_lexical", PAPER)


def test_reduced_figures_label_the_paper_and_draw_our_intervals():
    import matplotlib.pyplot as plt
    from matplotlib.container import ErrorbarContainer

    from compsem.cogs import figures

    columns = chapter.SUMMARY_COLUMNS
    label = chapter.paper_gap_label(100)
    summary = pd.DataFrame({c: [0.5, 0.8, 1.0] for c in columns},
                           index=["ours", label, "symbolic reference parser"])  # fmt: skip
    intervals = pd.DataFrame({c: [0.9, 0.5, 0.4, 0.7] for c in columns},
                             index=["seed 1", "mean", "low", "high"])  # as reduced_seeds gives
    fig = figures.generalization_gap(summary, "ours", label, intervals=intervals)
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert label in legend and "1 exposure" in label and "ours: 95% t-interval over seeds" in legend
    (errorbar,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    segments = errorbar.lines[2][0].get_segments()
    assert len(segments) == len(columns)
    assert [tuple(np.round(seg[:, 1], 6)) for seg in segments] == [(0.4, 0.7)] * len(columns)
    plt.close("all")
    sizes = pd.DataFrame({f"{w} {s}": [0.5, 0.6] for w in ("ours", "paper") for s in figures.SPLITS},
                         index=["small", "large"]).assign(**{"ours gen SD": [0.1, np.nan],
                                                             "paper gen SD": [0.14, 0.06]})  # fmt: skip
    ax = figures.transformer_sizes(sizes, {"dev": 1, "test": 1, "gen": 1}).axes[0]
    paper_sd = [c for c in ax.containers if c.get_label() == "paper: gen SD over its seeds"]
    assert len(paper_sd) == 1
    spans = [seg[:, 1].max() - seg[:, 1].min() for seg in paper_sd[0].lines[2][0].get_segments()]
    assert spans == pytest.approx([0.28, 0.12])
    plt.close("all")


def test_active_passive_and_semantic_runs_per_seed():
    table, values = chapter.active_passive_runs(_runs())
    assert table.loc[("Transformer (n=2)", 1), "errors"] == 2
    assert table.loc[("Transformer (n=2)", 1), "of which single lexical"] == 1
    assert table.loc[("Transformer (n=2)", 2), "different structure"] == 1  # conjuncts reordered
    assert values["cogs_tf1_ap_errors_sd"] == pytest.approx(np.std([2, 1], ddof=1))
    paper = table.loc[("paper: Transformer (Section 4.5.5.2)", "per run")]  # 49 errors over 5 runs, 39 of them
    assert paper["errors"] == PAPER["cogs_ap_errors_transformer"]  # with a different structure
    assert (paper["different structure"], paper["same structure"]) == pytest.approx((39 / 5, 10 / 5))
    semantic, values = chapter.semantic_runs(_runs())
    assert semantic.loc[("Transformer (n=2)", 2), "gen semantic − exact"] == 1.0
    assert values["cogs_tf1_semantic_gain"] == pytest.approx(0.5)
    assert values["cogs_tf1_semantic_gain_max"] == 1.0
    assert chapter.semantic_runs({chapter.REDUCED_RUN: _runs()[chapter.REDUCED_RUN]})[1] == {}


def test_noun_table_adds_the_paper_once_per_exposure():
    table = chapter.noun_table(_runs(), PAPER, 100)
    groups = list(dict.fromkeys(table.columns.get_level_values(0)))
    assert groups[-2:] == ["paper: Transformer, 1 exp.", "paper: Transformer, 100 exp."]
    assert "paper: Transformer, 100 exp." not in chapter.noun_table(_runs(), PAPER, 1)
    common = ev.NOUN_PAIRS[0][1]
    assert (
        table[("paper: Transformer, 1 exp.", "common noun")].iloc[0]
        == PAPER[f"cogs_t45_transformer_1_{common}"]
    )


# --------------------------------------------------------------------------- beside the paper


def test_compared_keeps_the_keys_with_a_target_in_order():
    values = {"cogs_reduced_gen": 0.5, "cogs_reduced_steps": 10, "cogs_reduced_dev": 0.9}
    assert list(report.compare(values, chapter.CHAPTER, prefixes="cogs_reduced_").index) == [
        "cogs_reduced_gen",
        "cogs_reduced_dev",
    ]
    with pytest.raises(ValueError, match="keys or prefixes"):
        report.compare(values, chapter.CHAPTER, keys=["cogs_reduced_gen"], prefixes="cogs_reduced_")


def test_verdict_counts_flag_the_cases_away_from_the_paper():
    above, below, same = (s45.target_key("transformer", 1, c) for c in ev.CASE_ORDER[:3])
    results = {above: PAPER[above] + 0.9, below: PAPER[below] - 0.9, same: PAPER[same]}
    table, values = chapter.verdict_counts(results)
    targets = report.load_targets("cogs-models")
    keys = [s45.target_key("transformer", 1, c) for c in ev.CASE_ORDER]
    reaching_zero = [k for k in keys if 0 < targets[k]["paper"] <= targets[k]["tol"]]
    assert reaching_zero  # the primitive cases printed .06 or less against a tolerance of about .089
    assert values == {"cogs_tf1_cases_flagged": 2, "cogs_tf1_cases_flagged_above": 1,
                      "cogs_tf1_cells_tol_reaches_zero": len(reaching_zero)}
    assert table.loc["t45", "differs (partial)"] == 2
    assert table.loc["t45", "match (partial)"] == 1


def test_small_helpers():
    assert chapter.paper_label(1) == "paper: Transformer 9.5M, 1 exposure"
    assert list(chapter.paper_by_case(PAPER, 1).index) == ev.CASE_ORDER
    html = report.folded(pd.DataFrame({"a": [1]}), "the summary")
    assert html.startswith("<details><summary>the summary</summary><table")


# --------------------------------------------------------------------------- on the data mirror


@pytest.mark.needs_data
def test_train_100_blobs_count_the_candidates_that_match_upstream():
    from compsem.data import cogs

    table, values = chapter.train_100_blobs(
        cogs.load("train"), cogs.load("exposure-1"), cogs.load("exposure-100")
    )
    assert values["cogs_train100_candidates"] == len(table) > 1
    assert values["cogs_train100_candidates_matching"] == int(table.upstream.sum())
    assert table["git blob id"].str.fullmatch("[0-9a-f]{40}").all()


@pytest.mark.needs_data
def test_model_sizes_are_those_of_the_dissertation():
    from compsem.cogs.seq2seq import config as cfg
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies

    src, tgt = cogs_vocabularies()
    values = chapter.model_sizes(len(src), len(tgt), "transformer-reduced")
    for model, stated in cfg.PAPER_PARAMETERS.items():
        # within half a unit of the two digits stated (9.5M: 50,000; 45M and 10M: 500,000)
        half_unit = 0.5 * 10 ** (math.floor(math.log10(stated)) - 1)
        assert values[f"cogs_params_{report.slug(model)}"] == pytest.approx(stated, abs=half_unit)
    # and exactly our architectures' counts: a missing or untied embedding or output layer
    # (about 0.37M each) is within the stated precision of the larger models, not of these
    exact = {"transformer": 9_544_919, "transformer-small": 5_337_303,
             "transformer-large": 45_268_183, "lstm": 11_105_495, "bilstm": 10_056_919}
    assert {m: values[f"cogs_params_{report.slug(m)}"] for m in exact} == exact
    assert values["cogs_reduced_parameters"] < values["cogs_params_transformer_small"]


def test_the_chapters_reduced_seeds_have_committed_results():
    """Each seed of the chapter's default reduced run is the command line's --reduced
    configuration, and has a committed, checksummed result (re-executing the chapter trains
    nothing); the first is the run traced over updates (its curve is committed)."""
    from compsem import parameters
    from compsem.cogs.seq2seq import config as cfg
    from compsem.cogs.seq2seq import curve as curves
    from compsem.cogs.seq2seq import results

    p = parameters.default_parameters("cogs-models")
    configs = chapter.reduced_configs(p["reduced_model"], p["reduced_seeds"], p["reduced_max_steps"],
                                      p["reduced_per_case"], p["reduced_per_split"],
                                      p["reduced_exposures"])  # fmt: skip
    assert configs == [cfg.reduced_config(seed=s) for s in p["reduced_seeds"]]
    assert len({cfg.config_hash(c) for c in configs}) == len(configs) >= 2
    assert [results.has_result(c) for c in configs] == [True] * len(configs)
    assert curves.load_curve(results.result_dir(configs[0])) is not None


def test_reduced_seeds_reads_the_union_of_reduced_run_gap_at_bonferronis_level():
    # per seed one structural case with 0, 1 or 2 of 4 right beside Active -> Passive
    frames = []
    for seed, (lexical_right, structural_right) in {1: (4, 0), 2: (3, 1), 3: (4, 2)}.items():
        part = _analysed([PASSIVE[1]] * lexical_right + [WRONG_WORD] * (4 - lexical_right), seed)
        structural = part[part.split == "gen"].assign(case="obj_pp_to_subj_pp")
        structural["exact"] = [True] * structural_right + [False] * (4 - structural_right)
        frames += [part, structural]
    _, values = chapter.reduced_seeds(pd.concat(frames, ignore_index=True))
    assert chapter.REDUCED_GAP_UNION == ("structural", chapter.LEXICAL_LEAD)
    for key, per_seed in (("structural", [0.0, 0.25, 0.5]), ("lexical_minus_structural", [1.0, 0.5, 0.5])):
        mean, sem = np.mean(per_seed), scipy.stats.sem(per_seed)
        low, high = scipy.stats.t.interval(1 - 0.05 / 2, 2, loc=mean, scale=sem)
        bounds = (-1.0, 1.0) if key == "lexical_minus_structural" else (0.0, 1.0)
        low, high = max(low, bounds[0]), min(high, bounds[1])  # cut to the quantity's range
        assert values[f"cogs_reduced_{key}_bonf2_ci_low"] == pytest.approx(low)
        assert values[f"cogs_reduced_{key}_bonf2_ci_high"] == pytest.approx(high)
        narrow = (values[f"cogs_reduced_{key}_ci_low"], values[f"cogs_reduced_{key}_ci_high"])
        assert low <= narrow[0] and high >= narrow[1] and (low, high) != narrow  # wider than 95%
    assert not any("bonf" in k for k in values if "gen" in k or "dev" in k)  # only the union's two


def test_the_exposure_gain_table_sets_the_papers_means_beside_ours():
    """Table 4-5's Transformer columns: gen .353 -> .626, the five primitive cases' mean
    .046 -> .602 (their cells averaged), structural 0 in both."""
    primitive = chapter.paper_exposure_means("primitive")
    cells = [PAPER[s45.target_key("transformer", e, c)] for e in (1, 100) for c in chapter.PRIMITIVE_CASES]
    assert primitive["1 exposure"] == pytest.approx(np.mean(cells[:5]))
    assert primitive["gain"] == pytest.approx(np.mean(cells[5:]) - np.mean(cells[:5]))
    assert chapter.paper_exposure_means("gen")["1 exposure"] == PAPER["cogs_t45_transformer_1_gen"]
    assert chapter.paper_exposure_means("structural")["gain"] == 0


def test_tolerance_values_follow_the_targets_rule():
    """The Deviations' tolerance numbers: the gen SD of Figure 4-3 carried by the 18 lexical
    cases, a case's tolerance 2 s sqrt(2/5) as the targets file stores it, the largest SD of a
    cell printed 0.00, and Active -> Passive's errors per run; a targets file whose lexical
    tolerance no longer follows the rule is an error."""
    targets = report.load_targets(chapter.CHAPTER)
    values = chapter.tolerance_values(targets)
    assert values["cogs_tol_gen_sd"] == PAPER["cogs_fig43_transformer_gen_sd"]
    assert values["cogs_tol_lexical_sd"] == pytest.approx(PAPER["cogs_fig43_transformer_gen_sd"] * 21 / 18)
    assert values["cogs_tol_lexical_case"] == pytest.approx(2 * values["cogs_tol_lexical_sd"] * math.sqrt(0.4), abs=1e-5)
    assert values["cogs_tol_zero_sd"] == pytest.approx(0.01)  # one run at .025, four at 0
    assert PAPER["cogs_t45_transformer_1_cp_recursion"] == 0.0  # a cell printed 0.00
    assert values["cogs_tol_zero_case"] == targets["cogs_t45_transformer_1_cp_recursion"]["tol"]
    assert values["cogs_tol_ap_errors_total"] == pytest.approx(5 * values["cogs_tol_ap_errors_per_run"])
    assert values["cogs_tol_independent_sd"] == pytest.approx(values["cogs_tol_lexical_sd"] * math.sqrt(18))
    assert values["cogs_tol_independent_case"] == pytest.approx(2 * values["cogs_tol_independent_sd"] * math.sqrt(0.4), abs=1e-5)
    assert values["cogs_tol_small_sd"] == pytest.approx(targets["cogs_fig43_transformer_dev"]["tol"] / (2 * math.sqrt(0.4)))
    # the error analyses' scale (error_margin): the gen SD at the gen mean of Figure 4-3, for a
    # share on the bounded scale of a proportion, for the edit distance relative to its size
    sd, mean = values["cogs_tol_gen_sd"], values["cogs_tol_gen_mean"]
    p = PAPER[chapter.ERROR_TARGETS["not_paren"]]
    assert chapter.error_margin(PAPER, "not_paren") == pytest.approx(
        sd * math.sqrt(p * (1 - p)) / math.sqrt(mean * (1 - mean)))
    assert chapter.error_margin(PAPER, "edit_distance") == pytest.approx(
        sd / mean * PAPER[chapter.ERROR_TARGETS["edit_distance"]])
    broken = {**targets, "cogs_t45_transformer_1_passive_to_active": {
        **targets["cogs_t45_transformer_1_passive_to_active"], "tol": 0.25}}
    with pytest.raises(ValueError, match="cogs-models.json"):
        chapter.tolerance_values(broken)


def test_a_run_decoded_on_a_sample_gets_its_wilson_interval_on_the_sample():
    """A run whose results come from a sample decoding (e.g. cut by a time budget and decoded on
    100 sentences per case, 500 per split) is scored on that many sentences, not on the whole
    sets: its Wilson bounds are wider; a run missing gen cases is warned about."""
    collected = chapter.finished_runs(_collected())
    whole = chapter.transformer_over_seeds(collected, s45.run_level(collected), PAPER)[2]
    sampled = collected.assign(per_case=np.where(collected.seed == 3, 100, 0),
                               per_split=np.where(collected.seed == 3, 500, 0))
    per_run = s45.run_level(sampled)
    assert per_run.set_index("seed").loc[3, ["per_case", "per_split"]].tolist() == [100, 500]
    values = chapter.transformer_over_seeds(sampled, per_run, PAPER)[2]
    weakest = values["cogs_tf1_in_distribution_min"]  # seed 3's test accuracy
    assert values["cogs_tf1_in_distribution_min_wilson_high"] == pytest.approx(chapter.wilson_high(weakest, 500))
    assert values["cogs_tf1_in_distribution_min_wilson_high"] > whole["cogs_tf1_in_distribution_min_wilson_high"]
    with pytest.warns(UserWarning, match="20 of the 21 gen cases"):
        s45.run_level(collected[collected.quantity != ev.CASE_ORDER[0]])


def test_runs_not_decoded_as_the_papers_scripts_are_counted_always():
    """Beam 5 on the whole sets is the paper's decoding; a greedy run or a sample is not. The
    count is glued when it is 0 too, so that a claim that needs it can be decided."""
    collected = chapter.finished_runs(_collected())  # greedy, whole sets
    values = chapter.transformer_over_seeds(collected, s45.run_level(collected), PAPER)[2]
    assert values["cogs_tf1_runs_not_paper_decoding"] == 3
    beam = collected.assign(decoding="beam")
    values = chapter.transformer_over_seeds(beam, s45.run_level(beam), PAPER)[2]
    assert values["cogs_tf1_runs_not_paper_decoding"] == 0
    sampled = beam.assign(per_case=np.where(beam.seed == 2, 100, 0), per_split=0)
    values = chapter.transformer_over_seeds(sampled, s45.run_level(sampled), PAPER)[2]
    assert values["cogs_tf1_runs_not_paper_decoding"] == 1


# --------------------------------------------------------------------------- review: shares, pooled targets


def test_share_seed_sd_is_the_gen_sd_carried_on_the_bounded_scale():
    assert s45.share_seed_sd(0.35, 0.06, 0.35) == pytest.approx(0.06)
    assert s45.share_seed_sd(0.65, 0.06, 0.35) == pytest.approx(0.06)  # symmetric in p and 1 - p
    assert s45.share_seed_sd(0.0, 0.06, 0.35) == 0.0 == s45.share_seed_sd(1.0, 0.06, 0.35)
    # a share near 1 gets less room than a spread relative to its size would give it, one near 0 more
    assert s45.share_seed_sd(0.903, 0.06, 0.35) < 0.903 * 0.06 / 0.35
    assert s45.share_seed_sd(0.005, 0.06, 0.35) > 0.005 * 0.06 / 0.35
    with pytest.raises(ValueError):
        s45.share_seed_sd(1.2, 0.06, 0.35)
    assert s45.relative_seed_sd(42, 0.06, 0.35) == pytest.approx(7.2)
    tol = s45.two_means_tolerance(0.06)
    assert tol <= 2 * 0.06 * math.sqrt(0.4) and tol == pytest.approx(2 * 0.06 * math.sqrt(0.4), abs=1e-6)


SHARE_TARGETS = {  # target: (the model's gen SD, its gen mean) of the rule its source states
    "cogs_err_single_lexical_transformer": (0.06, 0.35), "cogs_err_not_paren_transformer": (0.06, 0.35),
    "cogs_ap_wrong_structure_transformer": (0.06, 0.35), "cogs_test_long_transformer": (0.06, 0.35),
    "cogs_depth_premature_end": (0.06, 0.35), "cogs_depth_only_index": (0.06, 0.35),
    "cogs_depth_capped": (0.06, 0.35),
    **{f"cogs_{name}_lstm": (0.06, 0.32) for name in ("err_single_lexical", "err_not_paren", "ap_wrong_structure")},
    **{f"cogs_{name}_bilstm": (0.08, 0.16) for name in ("err_single_lexical", "err_not_paren", "ap_wrong_structure")},
}


@pytest.mark.parametrize("key", sorted(SHARE_TARGETS))
def test_a_shares_tolerance_follows_the_bounded_scale(key):
    """A share the paper prints without a seed spread is held to 2 SD sqrt(2/5), its SD the
    model's gen SD carried to the share on the scale of a proportion, and its source says so."""
    target = report.load_targets("cogs-models")[key]
    gen_sd, gen_mean = SHARE_TARGETS[key]
    sd = s45.share_seed_sd(target["paper"], gen_sd, gen_mean)
    assert target["tol"] == s45.two_means_tolerance(sd)
    assert "share_seed_sd" in target["source"] and "bounded scale" in target["source"]


def test_no_error_analysis_is_scaled_relative_to_a_share():
    """The relative rule ((.06/.35) x the value) is kept only for quantities that are not
    proportions (mean edit distances and output lengths)."""
    for key, target in report.load_targets("cogs-models").items():
        if "x the paper's value" in target["source"] and "Revised on review" not in target["source"]:
            assert "not a proportion" in target["source"], key


def test_values_the_paper_pools_over_its_models_are_shown_not_compared():
    targets = report.load_targets("cogs-models")
    for key in chapter.POOLED_ANALYSIS_KEYS.values():
        assert targets[key]["status"] == "substitute", key
        assert "pools all its models" in targets[key]["reason"] and "expect" not in targets[key]
        assert report.verdict(0.5, targets[key]) == "substitute"


def test_sd_interval_is_the_chi_square_interval_of_an_sd():
    values = [0.35, 0.45, 0.05, 0.40, 0.48]
    sd, low, high = chapter.sd_interval(values)
    assert sd == pytest.approx(np.std(values, ddof=1))
    var_low, var_high = (4 * sd**2 / scipy.stats.chi2.ppf(q, 4) for q in (0.975, 0.025))
    assert (low, high) == pytest.approx((math.sqrt(var_low), math.sqrt(var_high)))
    assert low < sd < high
    assert all(math.isnan(x) for x in chapter.sd_interval([0.3]))


def test_generalize_poorly_per_model_and_nan_without_runs():
    per_run = pd.DataFrame({"model": ["transformer"] * 5 + ["transformer"], "exposures": [1] * 5 + [100],
                            "seed": [1, 2, 3, 4, 5, 1], "gen": [0.35, 0.45, 0.05, 0.40, 0.48, 0.9],
                            "test": [0.96, 0.965, 0.958, 0.97, 0.962, 0.99]})  # fmt: skip
    values = chapter.generalize_poorly(per_run)
    k = chapter.POOR_GENERALIZATION_UNION
    assert k == 6
    ones = per_run[per_run.exposures == 1]
    gap = ones.test - ones.gen
    _, low, high = stats.seed_interval(gap, bounds=stats.PROPORTION_DIFFERENCE)
    assert values["cogs_poor_transformer_n_seeds"] == 5
    assert values["cogs_poor_transformer_gap"] == pytest.approx(gap.mean())
    assert (values["cogs_poor_transformer_gap_ci_low"], values["cogs_poor_transformer_gap_ci_high"]) == pytest.approx((low, high))
    _, low_b, _ = stats.seed_interval(gap, level=1 - 0.05 / k, bounds=stats.PROPORTION_DIFFERENCE)
    assert values[f"cogs_poor_transformer_gap_bonf{k}_ci_low"] == pytest.approx(low_b) and low_b < low
    assert values["cogs_poor_transformer_gen_sd_ci_low"] == pytest.approx(chapter.sd_interval(ones.gen)[1])
    assert values["cogs_poor_transformer_gen_sd_ci_low"] > chapter.VISIBLE_SEED_SD
    for model in ("lstm", "bilstm"):  # no runs: counted 0, every interval NaN (the claim's needs)
        assert values[f"cogs_poor_{model}_n_seeds"] == 0
        assert math.isnan(values[f"cogs_poor_{model}_gap_ci_low"])
        assert math.isnan(values[f"cogs_poor_{model}_gen_sd_bonf{k}_ci_high"])
    assert len(values) == 3 * 11


def test_models_generalize_poorly_waits_for_the_lstm_runs_and_shows_what_it_has():
    """Untestable (no rules) while the LSTMs have no runs; its text reads only keys the chapter
    glues from the Transformer's runs and the counts, never a pending model's NaN."""
    from compsem import claims

    claim = next(c for c in claims.load("cogs") if c.id == "models-generalize-poorly")
    assert claim.expect == "untestable" and not claim.rules
    per_run = pd.DataFrame({"model": ["transformer"] * 5, "exposures": [1] * 5, "seed": [1, 2, 3, 4, 5],
                            "gen": [0.35, 0.45, 0.05, 0.40, 0.48], "test": [0.96, 0.965, 0.958, 0.97, 0.962]})  # fmt: skip
    values = {k: v for k, v in chapter.generalize_poorly(per_run).items() if not math.isnan(v)}
    assert "not computed" not in claims.ours_text(claim, values) + claims.fill(claim.reason, values)
