"""The unions of tests of the probing claims (data/claims/README.md, "Decision rules"): every
interval a rule reads in a union of k tests is glued at Bonferroni's level beside the uncorrected
one, computed the same way from the same fits, seeds or resamples, so it contains it
(compsem.probing.chapter: UNION_FAMILIES, bonferroni_levels_by_key, grid_values, training_values,
random_sentence_draws, audit_table), every level of a quantity read from one set of draws
(compsem.probing.experiment: summarise's extra_levels, cell_intervals, compsem.stats.mean_intervals,
crossed_intervals), each equal to a separate single-level call; and the ledger's rules read
those keys on their union side only. Constructed fits and item frames (no data, no encoder)."""

from __future__ import annotations

import ast
import fnmatch
import math
import re

import numpy as np
import pandas as pd
import pytest

from compsem import claims, paths, stats
from compsem.probing import chapter as C
from compsem.probing import experiment


def fit(task, encoder, correct, seed=0, control="none", classifier="logreg"):
    """One row of ``experiment.run_grid``: accuracy in percent, per-item correctness, and its
    95% bootstrap interval over the items as run_probe stores it (n_boot 500, the fit's seed)."""
    correct = np.asarray(correct, dtype=float)
    low, high = stats.mean_interval(correct, n_resamples=500, seed=seed)
    return {"task": task, "encoder": encoder, "classifier": classifier, "control": control,
            "seed": seed, "accuracy": 100 * correct.mean(), "correct": correct,
            "low": 100 * low, "high": 100 * high, "chance": 50.0}


def noisy(rate, n, seed):
    return (np.random.default_rng(seed).random(n) < rate).astype(float)


def contains(values, key, wide, narrow):
    return values[f"{key}_low{wide}"] <= values[f"{key}_low{narrow}"] and \
        values[f"{key}_high{narrow}"] <= values[f"{key}_high{wide}"]


# --------------------------------------------------------------------------- the families


def test_bonferroni_levels_by_key_name_k_and_the_level_of_the_single_test():
    levels = C.bonferroni_levels_by_key(["probe_t3_has_school_glove50", "probe_t3_has_school_bow",
                             "probe_t3_school_as_agent_bow", "probe_t2_sdae_trainings_sr"])
    assert "probe_t3_has_school_bow" not in levels  # shown beside the claim, in no union
    assert levels["probe_t3_has_school_glove50"] == {"_bonf4": pytest.approx(1 - 0.05 / 4)}
    # three equivalence tests on 90% intervals: each at 1 - .10/3
    assert levels["probe_t3_school_as_agent_bow"] == {"90_bonf3": pytest.approx(1 - 0.10 / 3)}
    # in two families of the same k and level: one interval
    assert levels["probe_t2_sdae_trainings_sr"] == {"_bonf2": pytest.approx(1 - 0.05 / 2)}


def test_a_family_without_k_counts_the_cells_its_pattern_matches():
    keys = [f"probe_t2_{t}_{e}_random_probe" for t in ("order", "sr") for e in ("bow", "sdae", "minilm")]
    levels = C.bonferroni_levels_by_key([*keys, "probe_t2_order_minilm_none"])
    assert set(levels) == set(keys)
    assert all(v == {"90_bonf6": pytest.approx(1 - 0.10 / 6)} for v in levels.values())


@pytest.mark.parametrize("claim_id", list(C.UNION_FAMILIES))
def test_each_claim_fails_on_its_familys_bonferroni_intervals(claim_id):
    """The union side of the rule (fails_if) reads only the family's Bonferroni keys, none of the
    uncorrected intervals of its quantities; the holds side, an intersection, reads none of them."""
    claim = next(c for c in claims.load("probing") if c.id == claim_id)
    k, level, patterns = C.UNION_FAMILIES[claim_id]
    tag = "" if level == 0.95 else "90"
    fails = claims.rule_keys(claim.fails_if) + [
        n.value for n in ast.walk(claims.parse_rule(claim.fails_if))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    bonf = [key for key in fails if "_bonf" in key]
    assert bonf, f"{claim_id}: its union reads no Bonferroni interval"
    size = re.escape("*") if k is None else str(k)
    suffix = re.compile(rf"^(.+)_(low|high){tag}_bonf{size}$")
    for key in bonf:
        match = suffix.match(key)
        assert match, f"{claim_id}: {key} is not named for k = {k} on a {level:.0%} test"
        assert any(fnmatch.fnmatchcase(match.group(1), p) or match.group(1) == p for p in patterns), key
    uncorrected = [key for key in fails if "_bonf" not in key and re.search(r"_(low|high)(90)?$", key)]
    assert not uncorrected, f"{claim_id}: the union reads uncorrected intervals {uncorrected}"
    assert "_bonf" not in claim.holds_if
    assert f"Revised on review: the fails side read the {level:.0%} intervals, uncorrected" in claim.source


def test_a_union_fails_only_beyond_the_corrected_interval():
    """has-human-generalises: MiniLM's 95% interval below the threshold, but not its interval at
    Bonferroni's level of the four tests: no longer a failure."""
    claim = next(c for c in claims.load("probing") if c.id == "has-human-generalises")
    values = {"probe_paper_2016_has_human_glove": 99.9, "probe_paper_2016_has_human_st": 99.0, "probe_n_seeds": 3}
    for encoder in ("glove50", "spacy_md", "sdae"):
        values |= {f"probe_t3_has_human_{encoder}_low": 96.0, f"probe_t3_has_human_{encoder}_high": 99.0,
                   f"probe_t3_has_human_{encoder}_high_bonf4": 99.5}
    values |= {"probe_t3_has_human_minilm_low": 88.0, "probe_t3_has_human_minilm_high": 93.0,
               "probe_t3_has_human_minilm_high_bonf4": 95.0}
    assert claims.verdict(claim, values) == "inconclusive"
    assert claims.verdict(claim, {**values, "probe_t3_has_human_minilm_high_bonf4": 93.5}) == "fails"


# --------------------------------------------------------------------------- the grid's cells


def bonferroni(values):
    return {k: v for k, v in values.items() if "_bonf" in k}


def test_grid_values_over_seeds_are_student_t_at_bonferronis_level():
    runs = pd.DataFrame([fit("has-school", e, noisy(rate, 200, s), seed=s)
                         for e, rate in (("glove50", 0.95), ("sdae", 0.9), ("bow", 0.99))
                         for s in range(3)])
    _, values = C.grid_values(runs, "probe_t3", n_boot=500)
    out = bonferroni(values)
    assert set(out) == {f"probe_t3_has_school_{e}_{side}_bonf4" for e in ("glove50", "sdae")
                        for side in ("low", "high")}
    assert values.items() >= C.cell_values(experiment.summarise(runs), "probe_t3").items()
    for e in ("glove50", "sdae"):
        key = f"probe_t3_has_school_{e}"
        acc = runs[runs.encoder == e]["accuracy"]
        _, low, high = stats.seed_interval(acc, stats.bonferroni_level(4), (0, 100))
        assert (out[f"{key}_low_bonf4"], out[f"{key}_high_bonf4"]) == (low, high)
        assert contains(values, key, "_bonf4", "")
    # an accuracy's interval stays within 0-100 (without bounds sdae's would pass 100 here)
    _, _, unbounded = stats.seed_interval(runs[runs.encoder == "sdae"]["accuracy"],
                                          stats.bonferroni_level(4))
    assert unbounded > 100 and out["probe_t3_has_school_sdae_high_bonf4"] == 100


def test_grid_values_of_equivalence_tests_contain_the_90_percent_interval():
    runs = pd.DataFrame([fit(t, e, noisy(0.5, 300, 10 * s + i), seed=s)
                         for i, (t, e) in enumerate([("prof-ag-of-rec", "bow"), ("prof-recommends", "glove50")])
                         for s in range(3)])
    _, values = C.grid_values(runs, "probe")
    for task, encoder in (("prof-ag-of-rec", "bow"), ("prof-recommends", "glove50")):
        key = f"probe_{task.replace('-', '_')}_{encoder}"
        assert contains(values, key, "90_bonf4", "90")
        acc = runs[(runs.task == task) & (runs.encoder == encoder)]["accuracy"]
        _, low, high = stats.seed_interval(acc, 1 - 0.10 / 4, (0, 100))
        assert (values[f"{key}_low90_bonf4"], values[f"{key}_high90_bonf4"]) == pytest.approx((low, high))


def released_grid():
    """A released-2018-like grid: three MLP seeds per cell on the same 400 items, controls
    ``none`` and ``random probe`` (over the seeds) and ``control task`` (one fit)."""
    base = noisy(0.5, 400, 0)
    runs = []
    for t in ("order", "sr", "neg"):
        for e in ("bow", "spacy-md", "minilm"):
            for control in ("none", "random probe"):
                runs += [fit(t, e, np.abs(base - (np.random.default_rng([s, len(runs)]).random(400) < 0.1)),
                             seed=s, control=control, classifier="mlp") for s in range(3)]
            runs.append(fit(t, e, noisy(0.6, 400, len(runs)), seed=0, control="control task",
                            classifier="mlp"))
    return pd.DataFrame(runs)


def test_grid_values_on_shared_items_are_the_crossed_bootstrap_of_the_same_resamples():
    """The released 2018 sets: the MLP seeds score the same items; the Bonferroni interval of a
    cell is the hull of the same crossed bootstrap (same seed, same resamples) and the t-interval
    over the seeds at the higher level, so it
    contains both the 95% interval of experiment.summarise and the 90% one of the equivalence
    test; every random-probe cell is one test of its family, k their number."""
    runs = released_grid()
    summary, values = C.grid_values(runs, "probe_t2", with_control=True, n_boot=500, shared_items=True)
    out = bonferroni(values)
    # the summary is experiment.summarise's, with the other levels' columns after its own
    plain = experiment.summarise(runs, shared_items=True, n_boot=500)
    pd.testing.assert_frame_equal(summary[list(plain.columns)], plain, check_exact=True)
    assert values.items() >= C.cell_values(plain, "probe_t2", with_control=True).items()
    for t in ("order", "sr", "neg"):
        key = f"probe_t2_{t}_bow_none"  # bow-at-chance-on-structure: k = 9 on 90% tests
        group = runs[(runs.task == t) & (runs.encoder == "bow") & (runs.control == "none")]
        _, low, high = stats.crossed_mean_interval(np.stack(group["correct"]), 500, 0, 1 - 0.10 / 9)
        _, t_low, t_high = stats.seed_interval(group["accuracy"], 1 - 0.10 / 9)  # their hull
        assert (out[f"{key}_low90_bonf9"], out[f"{key}_high90_bonf9"]) == (min(100 * low, t_low),
                                                                           max(100 * high, t_high))
        assert contains(values, key, "90_bonf9", "90") and contains(values, key, "90_bonf9", "")
        # the random-probe family: the nine cells of this grid
        assert contains(values, f"probe_t2_{t}_minilm_random_probe", "90_bonf9", "90")
        # a control task's single fit: its 90% interval bootstraps its items, its seed
        one = runs[(runs.task == t) & (runs.encoder == "bow") & (runs.control == "control task")].iloc[0]
        low, high = stats.mean_interval(one["correct"], n_resamples=500, seed=0, level=0.90)
        assert (values[f"probe_t2_{t}_bow_control_task_low90"],
                values[f"probe_t2_{t}_bow_control_task_high90"]) == (100 * low, 100 * high)
    # sdae-beats-bow-on-structure reads the average's Order and SemRole at 1 - .05/2
    assert contains(values, "probe_t2_sr_spacy_md_none", "_bonf2", "")
    assert "probe_t2_neg_spacy_md_none_low_bonf2" not in out
    assert not any(k.startswith("probe_t2_order_minilm_none") for k in out)


# --------------------------------------------------------------------------- one set of draws


LEVELS = (0.95, 0.90, stats.bonferroni_level(9, 0.10), stats.bonferroni_level(4))


def test_cell_intervals_at_several_levels_equal_one_call_per_level():
    """Over seeds, over items and seeds (shared items), and for one fit (its stored 95%
    interval, the others bootstrapped over its items): every level of one call is, bit for bit,
    what a call at that level alone gives, and what compsem.stats gives."""
    runs = released_grid()
    seeds = runs[(runs.task == "sr") & (runs.encoder == "bow") & (runs.control == "none")]
    one = runs[(runs.task == "sr") & (runs.encoder == "bow") & (runs.control == "control task")]
    for group, shared in ((seeds, False), (seeds, True), (one, False), (one, True)):
        mean, bounds, over = experiment.cell_intervals(group, LEVELS, shared, 500)
        for level, interval in zip(LEVELS, bounds, strict=True):
            assert experiment.cell_intervals(group, [level], shared, 500) == (mean, [interval], over)
    correct = np.stack(seeds["correct"])
    _, bounds, _ = experiment.cell_intervals(seeds, LEVELS, True, 500)
    for level, interval in zip(LEVELS, bounds, strict=True):  # the hull of both intervals
        _, low, high = stats.crossed_mean_interval(correct, 500, 0, level)
        _, t_low, t_high = stats.seed_interval(seeds["accuracy"], level)
        assert interval == (min(100 * low, t_low), max(100 * high, t_high))
    _, bounds, _ = experiment.cell_intervals(seeds, LEVELS, False, 500)
    assert bounds == [stats.seed_interval(seeds["accuracy"], level)[1:] for level in LEVELS]
    _, bounds, _ = experiment.cell_intervals(one, LEVELS, False, 500)
    row = one.iloc[0]
    assert bounds[0] == (row["low"], row["high"])
    for level, interval in zip(LEVELS[1:], bounds[1:], strict=True):
        low, high = stats.mean_interval(row["correct"], n_resamples=500, seed=0, level=level)
        assert interval == (100 * low, 100 * high)


@pytest.mark.parametrize("correct", [noisy(0.55, 300, 1), np.ones(20), [0.0, 1.0]])
def test_mean_intervals_are_mean_interval_at_each_level(correct):
    bounds = stats.mean_intervals(correct, LEVELS, 700, 3)
    assert bounds == [stats.mean_interval(correct, n_resamples=700, seed=3, level=level)
                      for level in LEVELS]


def test_summarise_with_extra_levels_equals_one_summary_per_level():
    runs = released_grid()
    extra = {"90": 0.90, "_bonf4": stats.bonferroni_level(4), "90_bonf9": stats.bonferroni_level(9, 0.10)}
    for shared in (False, True):
        summary = experiment.summarise(runs, shared_items=shared, n_boot=300, extra_levels=extra)
        plain = experiment.summarise(runs, shared_items=shared, n_boot=300)
        pd.testing.assert_frame_equal(summary[list(plain.columns)], plain, check_exact=True)
        assert list(summary.columns) == [*plain.columns, *[f"{side}{suffix}" for suffix in extra
                                                           for side in ("low", "high")]]
        for suffix, level in extra.items():
            at = experiment.summarise(runs, level=level, shared_items=shared, n_boot=300)
            assert summary[f"low{suffix}"].tolist() == at["low"].tolist()
            assert summary[f"high{suffix}"].tolist() == at["high"].tolist()


def test_a_cell_draws_its_resamples_once_whatever_the_number_of_levels(monkeypatch):
    """The crossed bootstrap resamples the items once per cell, and a single fit's bootstrap
    over its items draws once (scipy's bootstrap with resamples), at one level or at four."""
    from scipy import stats as sps

    item_draws, fit_draws = [], []
    resampled_item_means, bootstrap = stats.resampled_item_means, sps.bootstrap
    monkeypatch.setattr(stats, "resampled_item_means",
                        lambda *a: item_draws.append(1) or resampled_item_means(*a))

    def counted(*args, **kwargs):
        fit_draws.append(kwargs["n_resamples"])
        return bootstrap(*args, **kwargs)

    monkeypatch.setattr(sps, "bootstrap", counted)
    runs = released_grid()
    cells = runs.groupby(experiment.CELL).ngroups
    single = int((runs.groupby(experiment.CELL).size() == 1).sum())
    for extra in ({"90": 0.90}, dict(zip(("90", "_bonf4", "90_bonf9"), LEVELS[1:], strict=True))):
        item_draws.clear()
        fit_draws.clear()
        experiment.summarise(runs, shared_items=True, n_boot=200, extra_levels=extra)
        assert len(item_draws) == cells - single
        assert [n for n in fit_draws if n] == [200] * single  # the other levels: no resample
# --------------------------------------------------------------------------- other quantities


def test_random_sentence_draws_read_every_level_from_one_bootstrap():
    """released-sets-no-probe-cue reads the cont1 draws at 1 - .10/2: each of the 95%, 90% and
    Bonferroni intervals is mean_interval's at that level, of the same resamples."""
    runs = pd.DataFrame([fit("cont1", "random", noisy(0.5, 300, 1), seed=4, classifier="mlp"),
                         fit("cont1", "(any)", noisy(0.5, 300, 2), seed=4, control="random sentence",
                             classifier="mlp")])
    out = C.random_sentence_draws(runs, "probe_t2", n_boot=400)
    key = "probe_t2_cont1_random_sentence_draws"
    correct = np.mean(np.stack(runs["correct"]), axis=0)
    for suffix, level in (("", 0.95), ("90", 0.90), ("90_bonf2", stats.bonferroni_level(2, 0.10))):
        low, high = stats.mean_interval(correct, n_resamples=400, seed=4, level=level)
        assert (out[f"{key}_low{suffix}"], out[f"{key}_high{suffix}"]) == (100 * low, 100 * high)


def test_training_values_glue_the_trainings_bonferroni_intervals():
    runs = pd.DataFrame({"task": ["sr"] * 3 + ["order"] * 3 + ["cont2"] * 3,
                         "encoder": ["sdae", "sdae:seed1", "sdae:seed2"] * 3,
                         "accuracy": [64.0, 66.0, 65.5, 88.0, 86.0, 87.0, 70.0, 72.0, 71.0]})
    _, values = C.training_values(runs, "probe_t2_sdae_trainings", {})
    for task in ("sr", "order"):
        key = f"probe_t2_sdae_trainings_{task}"
        _, low, high = stats.seed_interval(runs[runs.task == task]["accuracy"], 1 - 0.05 / 2)
        assert (values[f"{key}_low_bonf2"], values[f"{key}_high_bonf2"]) == pytest.approx((low, high))
        assert contains(values, key, "_bonf2", "")
    assert not any("cont2" in k and "bonf" in k for k in values)
    _, t3 = C.training_values(runs, "probe_t3_sdae_trainings", {})  # in no union
    assert not any("bonf" in k for k in t3)


def test_trainings_on_shared_items_are_read_with_the_items_in_the_interval():
    """On a released set every training scores the same test items: the interval is the hull of
    the t-interval over the trainings and the bootstrap of the items and the trainings together
    (experiment.crossed_intervals). Three trainings that answer every item alike have no spread
    over trainings, but their accuracy still has the sampling error of the items; three that
    differ widely have a t-interval beyond their range, which a bootstrap over three units cannot
    reach. The Bonferroni interval comes from the same resamples and contains the 95% one."""
    trainings = ["sdae", "sdae:seed1", "sdae:seed2"]
    runs = pd.DataFrame([fit(task, encoder, noisy(rate, 400, 1), seed=7)
                         for task, rate in (("sr", 0.66), ("order", 0.9))
                         for encoder in trainings])
    _, crossed = C.training_values(runs, "probe_t2_sdae_trainings", {}, shared_items=True, n_boot=400)
    _, over_trainings = C.training_values(runs, "probe_t2_sdae_trainings", {})
    for task in ("sr", "order"):
        key = f"probe_t2_sdae_trainings_{task}"
        group = runs[runs.task == task]
        mean, bounds = experiment.crossed_intervals(group, [0.95, 1 - 0.05 / 2], 400)
        assert crossed[key] == pytest.approx(mean) == pytest.approx(group["accuracy"].mean())
        assert (crossed[f"{key}_low"], crossed[f"{key}_high"]) == pytest.approx(bounds[0])
        assert (crossed[f"{key}_low_bonf2"], crossed[f"{key}_high_bonf2"]) == pytest.approx(bounds[1])
        assert contains(crossed, key, "_bonf2", "")
        assert over_trainings[f"{key}_low"] == over_trainings[f"{key}_high"]  # no spread over trainings
        assert crossed[f"{key}_high"] - crossed[f"{key}_low"] > 4  # the items' sampling error, ~2 SE
        assert over_trainings[f"{key}_n"] == crossed[f"{key}_n"] == 3
    spread = pd.DataFrame([fit("sr", encoder, noisy(rate, 400, 1), seed=7)
                           for encoder, rate in zip(trainings, (0.55, 0.7, 0.85), strict=True)])
    _, hull = C.training_values(spread, "probe_t2_sdae_trainings", {}, shared_items=True, n_boot=400)
    _, t_only = C.training_values(spread, "probe_t2_sdae_trainings", {})
    _, boot = experiment.crossed_intervals(spread, [0.95], 400)
    key = "probe_t2_sdae_trainings_sr"
    assert hull[f"{key}_low"] == min(t_only[f"{key}_low"], boot[0][0]) < spread["accuracy"].min()
    assert hull[f"{key}_high"] == max(t_only[f"{key}_high"], boot[0][1]) > spread["accuracy"].max()


def test_the_probe_only_audit_glues_its_bonferroni_wilson_interval(monkeypatch):
    """released-sets-no-probe-cue: the logistic regression on the probe alone is one of two
    tests on 90% intervals, so its Wilson interval is glued at 1 - .10/2 too."""
    def fake_audit(frame, alpha):
        return pd.DataFrame({"accuracy": [0.6, 0.5], "threshold": [0.55, 0.55],
                             "must_be_at_chance": [True, True]}, index=["probe only", "bow"])

    monkeypatch.setattr(C.audit, "audit", fake_audit)
    monkeypatch.setattr(C.audit, "passes", lambda a: True)
    items = pd.DataFrame({"split": ["train"] * 50 + ["test"] * 1000})
    names = ("released cont1", "prof-recommends", "prof-recommends, simple tenses allowed")
    _, values = C.audit_table(dict.fromkeys(names, items), 0.01)
    key = "probe_released_cont1_probe_only"
    low, high = stats.wilson_interval(600, 1000, 0.95)
    assert (values[f"{key}_low90_bonf2"], values[f"{key}_high90_bonf2"]) == pytest.approx(
        (100 * float(low), 100 * float(high)))
    assert contains(values, key, "90_bonf2", "90")
    assert not any("bonf" in k for k in values if not k.startswith(key))


# --------------------------------------------------------------------------- the chapter


def test_the_chapter_glues_every_family():
    """The chapter calls the functions that glue the families' keys, on the grids the claims
    read: the 2016 tasks (Table 3 and the proposed ones) and the released 2018 sets."""
    source = (paths.PROJECT_DIR / "notebooks" / "probing-composition.py").read_text()
    for call in ('C.grid_values(runs_2016[runs_2016.task.isin(C.TASKS_2016)], "probe_t3"',
                 'C.grid_values(runs_2016[runs_2016.task.isin(C.TASKS_PROPOSED)], "probe"',
                 'C.grid_values(runs_2018, "probe_t2", with_control=True, shared_items=True',
                 "C.random_sentence_draws(runs_2018", "C.audit_table(",
                 'C.training_values(runs_trainings, "probe_t2_sdae_trainings",\n'
                 '                                                      targets, shared_items=True'):
        assert call in source, call
    assert "1.96" not in source  # the halfwidth at chance is compsem.probing.chapter's
    assert math.isclose(C.chance_halfwidth(500), 4.37, abs_tol=0.01)


def test_mlp_seeds_on_shared_items_reach_beyond_their_range_as_trainings_do():
    """A released 2018 cell's MLP seeds score the same test items: its interval is the same hull
    as the SDAE trainings' (experiment.shared_item_intervals), so three seeds that differ widely
    get an interval beyond their range, which the bootstrap over three seeds alone cannot reach."""
    seeds = pd.DataFrame([fit("sr", "bow", noisy(rate, 400, 1), seed=seed)
                          for seed, rate in zip((3, 4, 5), (0.55, 0.7, 0.85), strict=True)])
    _, (cell,), over = experiment.cell_intervals(seeds, [0.95], True, 400)
    _, (boot,) = experiment.crossed_intervals(seeds, [0.95], 400)
    assert over == "items and seeds"
    assert boot[0] >= seeds["accuracy"].min() and boot[1] <= seeds["accuracy"].max()
    assert cell[0] < seeds["accuracy"].min() and cell[1] > seeds["accuracy"].max()
    assert cell == experiment.shared_item_intervals(seeds, [0.95], 400)[1][0]
    _, hull = C.training_values(seeds, "p", {}, shared_items=True, n_boot=400)
    assert (hull["p_sr_low"], hull["p_sr_high"]) == cell  # one rule for seeds and trainings
