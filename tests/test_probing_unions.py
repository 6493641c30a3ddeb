"""The unions of tests of the probing claims (data/claims/README.md, "Decision rules"): every
interval a rule reads in a union of k tests is glued at Bonferroni's level beside the uncorrected
one, computed the same way from the same fits, seeds or resamples, so it contains it
(compsem.probing.chapter: UNION_FAMILIES, union_levels, union_values, training_values,
random_sentence_draws, audit_table); and the ledger's rules read those keys on their union side
only. Constructed fits and item frames (no data, no encoder)."""

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


def test_union_levels_name_k_and_the_level_of_the_single_test():
    levels = C.union_levels(["probe_t3_has_school_glove50", "probe_t3_has_school_bow",
                             "probe_t3_school_as_agent_bow", "probe_t2_sdae_trainings_sr"])
    assert "probe_t3_has_school_bow" not in levels  # shown beside the claim, in no union
    assert levels["probe_t3_has_school_glove50"] == {"_bonf4": pytest.approx(1 - 0.05 / 4)}
    # two equivalence tests on 90% intervals: each at 1 - .10/2, the 95% level
    assert levels["probe_t3_school_as_agent_bow"] == {"90_bonf2": pytest.approx(0.95)}
    # in two families of the same k and level: one interval
    assert levels["probe_t2_sdae_trainings_sr"] == {"_bonf2": pytest.approx(1 - 0.05 / 2)}


def test_a_family_without_k_counts_the_cells_its_pattern_matches():
    keys = [f"probe_t2_{t}_{e}_random_probe" for t in ("order", "sr") for e in ("bow", "sdae", "minilm")]
    levels = C.union_levels([*keys, "probe_t2_order_minilm_none"])
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
    Bonferroni's level of the two tests: no longer a failure."""
    claim = next(c for c in claims.load("probing") if c.id == "has-human-generalises")
    values = {"probe_paper_2016_has_human_glove": 99.9, "probe_paper_2016_has_human_st": 99.0,
              "probe_t3_has_human_glove50_low": 96.0, "probe_t3_has_human_glove50_high": 99.0,
              "probe_t3_has_human_glove50_high_bonf2": 99.5,
              "probe_t3_has_human_minilm_low": 88.0, "probe_t3_has_human_minilm_high": 93.0,
              "probe_t3_has_human_minilm_high_bonf2": 95.0}
    assert claims.verdict(claim, values) == "inconclusive"
    assert claims.verdict(claim, {**values, "probe_t3_has_human_minilm_high_bonf2": 93.5}) == "fails"


# --------------------------------------------------------------------------- the grid's cells


def test_union_values_over_seeds_are_student_t_at_bonferronis_level():
    runs = pd.DataFrame([fit("has-school", e, noisy(rate, 200, s), seed=s)
                         for e, rate in (("glove50", 0.95), ("sdae", 0.9), ("bow", 0.99))
                         for s in range(3)])
    out = C.union_values(runs, "probe_t3", n_boot=500)
    assert set(out) == {f"probe_t3_has_school_{e}_{side}_bonf4" for e in ("glove50", "sdae")
                        for side in ("low", "high")}
    values = C.cell_values(experiment.summarise(runs), "probe_t3") | out
    for e in ("glove50", "sdae"):
        key = f"probe_t3_has_school_{e}"
        acc = runs[runs.encoder == e]["accuracy"]
        _, low, high = stats.seed_interval(acc, stats.bonferroni_level(4))
        assert (out[f"{key}_low_bonf4"], out[f"{key}_high_bonf4"]) == pytest.approx((low, high))
        assert contains(values, key, "_bonf4", "")


def test_union_values_of_equivalence_tests_contain_the_90_percent_interval():
    runs = pd.DataFrame([fit(t, e, noisy(0.5, 300, 10 * s + i), seed=s)
                         for i, (t, e) in enumerate([("prof-ag-of-rec", "bow"), ("prof-recommends", "glove50")])
                         for s in range(3)])
    out = C.union_values(runs, "probe")
    values = C.equivalence_values(runs, "probe") | out
    for task, encoder in (("prof-ag-of-rec", "bow"), ("prof-recommends", "glove50")):
        key = f"probe_{task.replace('-', '_')}_{encoder}"
        assert contains(values, key, "90_bonf4", "90")
        acc = runs[(runs.task == task) & (runs.encoder == encoder)]["accuracy"]
        _, low, high = stats.seed_interval(acc, 1 - 0.10 / 4)
        assert (out[f"{key}_low90_bonf4"], out[f"{key}_high90_bonf4"]) == pytest.approx((low, high))


def test_union_values_on_shared_items_are_the_crossed_bootstrap_of_the_same_resamples():
    """The released 2018 sets: the MLP seeds score the same items; the Bonferroni interval of a
    cell is the same crossed bootstrap (same seed, same resamples) at the higher level, so it
    contains both the 95% interval of experiment.summarise and the 90% one of the equivalence
    test; every random-probe cell is one test of its family, k their number."""
    base = noisy(0.5, 400, 0)
    runs = []
    for t in ("order", "sr", "neg"):
        for e in ("bow", "spacy-md", "minilm"):
            for control in ("none", "random probe"):
                runs += [fit(t, e, np.abs(base - (np.random.default_rng([s, len(runs)]).random(400) < 0.1)),
                             seed=s, control=control, classifier="mlp") for s in range(3)]
    runs = pd.DataFrame(runs)
    out = C.union_values(runs, "probe_t2", with_control=True, n_boot=500, shared_items=True)
    values = (C.cell_values(experiment.summarise(runs, shared_items=True, n_boot=500), "probe_t2",
                            with_control=True)
              | C.equivalence_values(runs, "probe_t2", with_control=True, n_boot=500, shared_items=True)
              | out)
    for t in ("order", "sr", "neg"):
        key = f"probe_t2_{t}_bow_none"  # bow-at-chance-on-structure: k = 9 on 90% tests
        group = runs[(runs.task == t) & (runs.encoder == "bow") & (runs.control == "none")]
        _, low, high = experiment.crossed_accuracy(group, 1 - 0.10 / 9, 500)
        assert (out[f"{key}_low90_bonf9"], out[f"{key}_high90_bonf9"]) == pytest.approx((low, high))
        assert contains(values, key, "90_bonf9", "90") and contains(values, key, "90_bonf9", "")
        # the random-probe family: the nine cells of this grid
        assert contains(values, f"probe_t2_{t}_minilm_random_probe", "90_bonf9", "90")
    # sdae-beats-bow-on-structure reads the average's Order and SemRole at 1 - .05/2
    assert contains(values, "probe_t2_sr_spacy_md_none", "_bonf2", "")
    assert "probe_t2_neg_spacy_md_none_low_bonf2" not in out
    assert not any(k.startswith("probe_t2_order_minilm_none") for k in out)


def test_cell_interval_of_one_fit_keeps_its_own_interval_and_bootstraps_other_levels():
    row = fit("sr", "minilm", noisy(0.6, 300, 3), seed=7)
    group = pd.DataFrame([row])
    assert experiment.cell_interval(group, n_boot=500)[1:3] == (row["low"], row["high"])
    _, low, high, over = experiment.cell_interval(group, stats.bonferroni_level(4), n_boot=500)
    expected = stats.mean_interval(row["correct"], n_resamples=500, seed=7,
                                   level=stats.bonferroni_level(4))
    assert over == "items" and (low, high) == pytest.approx(tuple(100 * v for v in expected))
    assert low <= row["low"] and row["high"] <= high
    # summarise at another level no longer returns the fit's 95% interval
    wide = experiment.summarise(group, level=stats.bonferroni_level(4), n_boot=500).iloc[0]
    assert (wide["low"], wide["high"]) == pytest.approx((low, high))


# --------------------------------------------------------------------------- other quantities


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
    for call in ('C.union_values(runs_2016, "probe_t3"', 'C.union_values(runs_2016, "probe"',
                 'C.union_values(runs_2018, "probe_t2", with_control=True',
                 "C.random_sentence_draws(runs_2018", "C.audit_table(",
                 'C.training_values(runs_trainings, "probe_t2_sdae_trainings"'):
        assert call in source, call
    assert "1.96" not in source  # the halfwidth at chance is compsem.probing.chapter's
    assert math.isclose(C.chance_halfwidth(500), 4.37, abs_tol=0.01)
