"""The intervals of the probing chapter's equivalence and difference claims
(compsem.probing.chapter: grid_values' 90% intervals, _wilson90), on constructed fits
and item frames (no data, no encoder)."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from compsem import stats
from compsem.probing import chapter as C


def fit(task, encoder, correct, seed=0, control="none", classifier="logreg"):
    """One row of ``experiment.run_grid``: accuracy in percent, per-item correctness, and its
    95% bootstrap interval over the items as run_probe stores it (the fit's seed)."""
    correct = np.asarray(correct, dtype=float)
    low, high = stats.mean_interval(correct, n_resamples=500, seed=seed)
    return {"task": task, "encoder": encoder, "classifier": classifier, "control": control,
            "seed": seed, "accuracy": 100 * correct.mean(), "correct": correct,
            "low": 100 * low, "high": 100 * high, "chance": 50.0}


def equivalence_values(runs, prefix, **options):
    """The equivalence intervals (``_low90`` / ``_high90``, or the tag of ``level``) that
    :func:`compsem.probing.chapter.grid_values` glues."""
    values = C.grid_values(runs, prefix, **options)[1]
    return {k: v for k, v in values.items() if re.search(r"_(low|high)9[05]$", k)}


def items(n_test, n_train=30):
    return pd.DataFrame({"split": ["train"] * n_train + ["test"] * n_test})


# --------------------------------------------------------------------------- _wilson90


@pytest.mark.parametrize(("k", "n"), [(30, 50), (0, 20), (20, 20), (101, 200), (7, 9)])
def test_wilson90_is_scipys_wilson_interval_in_percent(k, n):
    out = C._wilson90("probe_x", k / n, items(n))
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.9, method="wilson")
    assert set(out) == {"probe_x_low90", "probe_x_high90"}
    assert out["probe_x_low90"] == pytest.approx(100 * ci.low)
    assert out["probe_x_high90"] == pytest.approx(100 * ci.high)
    assert out["probe_x_low90"] <= 100 * k / n <= out["probe_x_high90"]


def test_wilson90_counts_the_test_items_only_and_decides_at_chance():
    # 0.5 of 400 test items: the interval lies within 50 +- 5 (an equivalence margin of 5 points)
    out = C._wilson90("k", 0.5, items(400, n_train=5000))
    z, n = sps.norm.ppf(0.95), 400  # Wilson at p = 1/2: centred on 1/2
    half = z * math.sqrt(0.25 / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
    assert out["k_low90"] == pytest.approx(100 * (0.5 - half))
    assert out["k_high90"] == pytest.approx(100 * (0.5 + half))
    assert 45 < out["k_low90"] < 50 < out["k_high90"] < 55
    # the same accuracy on 40 test items: a much wider interval, beyond the margin
    wide = C._wilson90("k", 0.5, items(40, n_train=5000))
    assert wide["k_low90"] < 45 and wide["k_high90"] > 55
    # an accuracy read back from a share is rounded to a count (0.57 * 100 = 56.99999999999999:
    # 57 successes, where truncation would give 56)
    low, high = stats.wilson_interval(57, 100, 0.90)
    assert C._wilson90("k", 0.57, items(100)) == {"k_low90": 100 * float(low),
                                                  "k_high90": 100 * float(high)}


# --------------------------------------------------------------------------- grid_values at 90%


def test_equivalence_values_over_seeds_is_the_student_t_interval():
    # 26, 24, 25 and 27 of 50 items right: 52, 48, 50 and 54 percent over four seeds
    runs = pd.DataFrame([fit("has-school", "GloVe", np.arange(50) < k, seed=i)
                         for i, k in enumerate((26, 24, 25, 27))])
    out = equivalence_values(runs, "probe_t3")
    acc = np.array([52.0, 48.0, 50.0, 54.0])
    half = sps.t.ppf(0.95, 3) * acc.std(ddof=1) / math.sqrt(4)
    assert set(out) == {"probe_t3_has_school_glove_low90", "probe_t3_has_school_glove_high90"}
    assert out["probe_t3_has_school_glove_low90"] == pytest.approx(acc.mean() - half)
    assert out["probe_t3_has_school_glove_high90"] == pytest.approx(acc.mean() + half)
    wider = equivalence_values(runs, "probe_t3", level=0.95)
    assert set(wider) == {"probe_t3_has_school_glove_low95", "probe_t3_has_school_glove_high95"}
    assert wider["probe_t3_has_school_glove_low95"] < out["probe_t3_has_school_glove_low90"]
    assert wider["probe_t3_has_school_glove_high95"] > out["probe_t3_has_school_glove_high90"]


def test_equivalence_values_of_identical_seeds_is_a_point():
    runs = pd.DataFrame([fit("neg", "BOW", [1, 0, 1, 1], seed=s) for s in range(3)])
    out = equivalence_values(runs, "p")
    assert out == {"p_neg_bow_low90": 75.0, "p_neg_bow_high90": 75.0}


def test_equivalence_values_of_a_single_fit_bootstraps_its_test_items():
    rng = np.random.default_rng(0)
    correct = (rng.random(400) < 0.55).astype(float)
    runs = pd.DataFrame([fit("sr", "MiniLM", correct, seed=7),
                         fit("sr", "all right", np.ones(50), seed=1)])
    out = equivalence_values(runs, "probe_t2", n_boot=2000)
    low, high = out["probe_t2_sr_minilm_low90"], out["probe_t2_sr_minilm_high90"]
    acc = 100 * correct.mean()
    assert low < acc < high
    # a percentile bootstrap of a mean of 400 items: close to the normal interval
    se = 100 * correct.std() / math.sqrt(len(correct))
    assert high - low == pytest.approx(2 * 1.6449 * se, rel=0.1)
    assert (low + high) / 2 == pytest.approx(acc, abs=0.2 * se)
    # the fit's own seed drives the resamples
    exp_low, exp_high = stats.mean_interval(correct, n_resamples=2000, seed=7, level=0.9)
    assert (low, high) == pytest.approx((100 * exp_low, 100 * exp_high))
    assert out["probe_t2_sr_all_right_low90"] == out["probe_t2_sr_all_right_high90"] == 100.0


def test_equivalence_values_controls_are_left_out_unless_asked():
    runs = pd.DataFrame([
        fit("sr", "BOW", [1, 0, 1, 0], seed=0),
        fit("sr", "BOW", [0, 0, 0, 1], seed=0, control="control task"),
    ])
    plain = equivalence_values(runs, "p", n_boot=200)
    assert set(plain) == {"p_sr_bow_low90", "p_sr_bow_high90"}
    both = equivalence_values(runs, "p", with_control=True, n_boot=200)
    assert set(both) == {"p_sr_bow_none_low90", "p_sr_bow_none_high90",
                         "p_sr_bow_control_task_low90", "p_sr_bow_control_task_high90"}
    assert both["p_sr_bow_none_low90"] == plain["p_sr_bow_low90"]
    assert both["p_sr_bow_control_task_high90"] <= 75.0 + 1e-9  # 1 of 4 right: at most 3 of 4


def test_equivalence_values_with_shared_items_resample_items_and_seeds():
    """On the released sets every MLP seed scores the same test items: the interval is the hull of
    the crossed bootstrap (compsem.stats.crossed_mean_interval) and Student-t over seeds."""
    rng = np.random.default_rng(2)
    base = rng.random(300) < 0.5
    fits = [base ^ (rng.random(300) < 0.1) for _ in range(3)]
    runs = pd.DataFrame([fit("sr", "BOW", c, seed=s, classifier="mlp") for s, c in enumerate(fits)])
    out = equivalence_values(runs, "p", n_boot=1000, shared_items=True)
    _, low, high = stats.crossed_mean_interval(np.stack(fits), n_resamples=1000, seed=0, level=0.9)
    _, t_low, t_high = stats.seed_interval(runs["accuracy"], 0.9, (0, 100))
    assert (out["p_sr_bow_low90"], out["p_sr_bow_high90"]) == pytest.approx(
        (min(100 * low, t_low), max(100 * high, t_high)))
    t = equivalence_values(runs, "p")
    assert (out["p_sr_bow_low90"], out["p_sr_bow_high90"]) != (t["p_sr_bow_low90"], t["p_sr_bow_high90"])
    summary = C.experiment.summarise(runs, shared_items=True, n_boot=1000).iloc[0]
    assert summary["interval"] == "items and seeds"
    assert summary["accuracy"] == pytest.approx(100 * np.mean(fits))
    assert summary["low"] < out["p_sr_bow_low90"] < summary["accuracy"] < out["p_sr_bow_high90"] < summary["high"]


# --------------------------------------------------------------------------- margin_counts


def test_margin_counts_counts_the_intervals_not_shown_at_chance():
    values = {
        "probe_t2_order_minilm_random_probe_low90": 44.7,  # reaches below the margin
        "probe_t2_order_minilm_random_probe_high90": 49.9,
        "probe_t2_cont2_sdae_random_probe_low90": 46.2,  # inside 50 +- 5
        "probe_t2_cont2_sdae_random_probe_high90": 51.6,
        "probe_t2_neg_bow_random_probe_low90": 55.5,  # wholly above
        "probe_t2_neg_bow_random_probe_high90": 60.0,
        "probe_t2_neg_bow_none_low90": 10.0,  # another control: not counted
        "probe_t2_neg_bow_none_high90": 20.0,
    }
    out = C.margin_counts(values, "random_probe", "probe_t2_random_probe", 50, 5)
    assert out == {"probe_t2_random_probe_cells": 3, "probe_t2_random_probe_not_within": 2,
                   "probe_t2_random_probe_outside": 1}


# --------------------------------------------------------------------------- random_sentence_draws


def test_random_sentence_draws_average_the_two_draws_item_by_item():
    a = np.arange(200) < 110  # 55% right
    b = np.arange(200) < 100  # 50% right
    runs = pd.DataFrame([
        fit("cont1", "random", a, control="none", classifier="mlp"),
        fit("cont1", "(any)", b, control="random sentence", classifier="mlp"),
        fit("cont1", "bow", np.ones(200), control="none", classifier="mlp"),  # not a draw
        fit("order", "random", a, control="none", classifier="mlp"),  # one draw only: skipped
    ])
    out = C.random_sentence_draws(runs, "probe_t2", n_boot=500)
    key = "probe_t2_cont1_random_sentence_draws"
    # cont1's draws are one of the two tests of released-sets-no-probe-cue's union (k = 2 on a
    # 90% test): also at Bonferroni's level 1 - .10/2, from the same resamples
    assert set(out) == {key, f"{key}_low", f"{key}_high", f"{key}_low90", f"{key}_high90",
                        f"{key}_low90_bonf2", f"{key}_high90_bonf2"}
    assert out[key] == pytest.approx(52.5)
    mean = (a.astype(float) + b) / 2
    low, high = stats.mean_interval(mean, n_resamples=500, seed=0, level=0.90)
    assert (out[f"{key}_low90"], out[f"{key}_high90"]) == pytest.approx((100 * low, 100 * high))
    assert out[f"{key}_low"] <= out[f"{key}_low90"] < out[key] < out[f"{key}_high90"] <= out[f"{key}_high"]
    low, high = stats.mean_interval(mean, n_resamples=500, seed=0, level=stats.bonferroni_level(2, 0.10))
    assert (out[f"{key}_low90_bonf2"], out[f"{key}_high90_bonf2"]) == pytest.approx((100 * low, 100 * high))
    assert out[f"{key}_low90_bonf2"] <= out[f"{key}_low90"] and out[f"{key}_high90"] <= out[f"{key}_high90_bonf2"]


# --------------------------------------------------------------------------- tables and targets


def test_selectivity_table_shows_a_dash_not_nan_for_an_encoder_not_run():
    selectivity = pd.DataFrame([
        {"task": "has-school", "encoder": "bow", "selectivity": 38.0, "low": 33.6, "high": 42.4,
         "coverage": 0.98, "sound": True, "control_chance": 52.0},
        {"task": "school-as-agent", "encoder": "bow", "selectivity": -34.4, "low": -40.0,
         "high": -29.0, "coverage": 1.0, "sound": True, "control_chance": 68.9},
        {"task": "school-as-agent", "encoder": "mpnet", "selectivity": 5.4, "low": 2.2,
         "high": 8.4, "coverage": 1.0, "sound": True, "control_chance": 68.9},
    ])
    table = C.selectivity_table(selectivity)
    assert table.loc["mpnet", "has-school"] == "–"
    assert not table.isna().any().any()
    # the control's chance, which a probe that learns nothing scores on it, beside the selectivity
    assert table.loc["control's chance (majority share)", "school-as-agent"] == "68.9"
    assert C.selectivity_values(selectivity, "p")["p_school_as_agent_control_chance"] == 68.9


def test_probing_targets_hold_only_the_papers_numbers():
    """Every target of data/targets/probing.json is a number printed in one of the two papers
    (a check of ours compared with itself would count as a reproduction)."""
    from compsem import report

    for key, target in report.load_targets("probing").items():
        assert target["source"].startswith(("Ettinger et al. 2016,", "Ettinger et al. 2018,")), key
        assert "not a number of the paper" not in target["source"], key


def test_bow_reads_content_is_decided_only_at_the_2018_epoch_cap():
    """At a lower epoch cap our probe can score a content cell above the authors' classifier
    (tests/test_probing_mlp_vs_sklearn.py), and an early stop can score it below what the cap
    gives, so the claim can neither hold nor fail there.
    The claim is decided on the stand-in for the paper's BOW row (spaCy's average) against the
    paper's numbers as glued from the targets file."""
    from compsem import claims

    claim = next(c for c in claims.load("probing") if c.id == "bow-reads-content")
    paper = {"probe_paper_2018_bow_cont1": 100.0, "probe_paper_2018_bow_cont2": 97.1, "probe_t2_n_mlp_seeds": 3}
    high = {**paper,
            "probe_t2_cont1_spacy_md_none_low": 100.0, "probe_t2_cont1_spacy_md_none_high": 100.0,
            "probe_t2_cont2_spacy_md_none_low": 93.1, "probe_t2_cont2_spacy_md_none_high": 95.9,
            "probe_t2_cont1_spacy_md_none_high_bonf2": 100.0,
            "probe_t2_cont2_spacy_md_none_high_bonf2": 96.3}
    assert claims.verdict(claim, {**high, "probe_mlp_max_epochs": 100}) == "inconclusive"
    assert claims.verdict(claim, {**high, "probe_mlp_max_epochs": 700}) == "holds"
    low = {**high, "probe_t2_cont2_spacy_md_none_low": 80.0,
           "probe_t2_cont2_spacy_md_none_high": 85.0,
           "probe_t2_cont2_spacy_md_none_high_bonf2": 86.0}
    assert claims.verdict(claim, {**low, "probe_mlp_max_epochs": 100}) == "inconclusive"
    assert claims.verdict(claim, {**low, "probe_mlp_max_epochs": 700}) == "fails"
    # it fails on the intervals at Bonferroni's level of its two tests, not on the 95% ones
    assert claims.verdict(claim, {**low, "probe_t2_cont2_spacy_md_none_high_bonf2": 93.0,
                                  "probe_mlp_max_epochs": 700}) == "inconclusive"
    # the threshold moves with the paper's number, read from the targets
    assert claims.verdict(claim, {**low, "probe_paper_2018_bow_cont2": 84.0,
                                  "probe_mlp_max_epochs": 700}) == "holds"


def test_random_sentence_draws_take_every_mlp_seed_of_the_random_encoder():
    a, b, c = (np.arange(200) < k for k in (110, 100, 90))
    runs = pd.DataFrame([
        fit("cont1", "random", a, seed=0, classifier="mlp"),
        fit("cont1", "random", b, seed=1, classifier="mlp"),
        fit("cont1", "(any)", c, control="random sentence", classifier="mlp"),
    ])
    out = C.random_sentence_draws(runs, "probe_t2", n_boot=300)
    assert out["probe_t2_cont1_random_sentence_draws"] == pytest.approx(50.0)


def test_chance_sides_name_where_each_interval_lies_against_chance():
    """The phrases the prose quotes for the split cells: an interval wholly below 50 is below
    chance, wholly above is above, one containing 50 is not apart from it; cells without an
    interval and control rows get none."""
    from compsem.probing import chapter as C

    summary = pd.DataFrame({
        "task": ["t", "t", "t", "t", "t"], "encoder": ["a", "b", "c", "d", "a"],
        "control": ["none", "none", "none", "none", "control task"],
        "low": [30.0, 50.5, 45.0, np.nan, 10.0], "high": [49.9, 60.0, 55.0, np.nan, 20.0]})
    assert C.chance_sides(summary, "p") == {"p_t_a_side": "below chance", "p_t_b_side": "above chance",
                                            "p_t_c_side": "not apart from chance"}
    assert C.side_of_chance(40.0, 50.0) == "not apart from chance"  # the bound itself is not apart


def test_glue_words_refuses_a_number():
    from compsem import report

    with pytest.raises(TypeError, match="expected a phrase"):
        report.glue_words({"k": 0.5})
