"""compsem.probing.chapter.crossed_difference: one interval of the difference between the mean
of one side's fits (an encoder's trainings) and the other's (another encoder's MLP seeds), all
scoring the same test items: the hull of Welch's interval over the units and a bootstrap over the
shared items and, independently, the units of each side; on constructed fits (no data, no encoder)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from compsem import report, stats
from compsem.probing import chapter as C

KEY = "probe_t2_sr_sdae_trainings_minus_minilm"


def fit(encoder, correct, seed=0, task="sr", control="none"):
    correct = np.asarray(correct, dtype=float)
    return {"task": task, "encoder": encoder, "classifier": "mlp", "control": control,
            "seed": seed, "accuracy": 100 * correct.mean(), "correct": correct}


def side(encoder, rows, **kw):
    return pd.DataFrame([fit(f"{encoder}{i}", r, seed=i, **kw) for i, r in enumerate(rows)])


def crossed_bootstrap(a, b, n_boot, seed, level=0.90):
    """The crossed bootstrap written out: one item resample shared by both sides, then each
    side's units drawn with the library's unit level."""
    r = np.random.default_rng(seed)
    items = r.integers(0, a.shape[1], size=(n_boot, a.shape[1]))
    per_a = np.stack([row[items].mean(axis=1) for row in a])
    per_b = np.stack([row[items].mean(axis=1) for row in b])
    diffs = 100 * (stats.resampled_unit_means(per_a, r) - stats.resampled_unit_means(per_b, r))
    return tuple(np.percentile(diffs, [50 - 50 * level, 50 + 50 * level]))


def test_point_is_the_difference_of_the_sides_means_and_keys_by_level():
    rng = np.random.default_rng(0)
    a = (rng.random((3, 400)) < 0.67).astype(float)
    b = (rng.random((3, 400)) < 0.59).astype(float)
    out = C.crossed_difference(side("sdae", a), side("minilm", b), "sr", KEY, n_boot=500)
    assert set(out) == {KEY, f"{KEY}_n_a", f"{KEY}_n_b", f"{KEY}_low", f"{KEY}_high",
                        f"{KEY}_low90", f"{KEY}_high90"}
    assert out[KEY] == pytest.approx(100 * (a.mean() - b.mean()))
    assert out[f"{KEY}_n_a"] == 3 and out[f"{KEY}_n_b"] == 3
    assert out[f"{KEY}_low"] < out[f"{KEY}_low90"] < out[KEY] < out[f"{KEY}_high90"] < out[f"{KEY}_high"]
    # deterministic for a seed
    assert C.crossed_difference(side("sdae", a), side("minilm", b), "sr", KEY, n_boot=500) == out


def test_it_is_the_hull_of_the_crossed_bootstrap_and_welchs_interval():
    rng = np.random.default_rng(1)
    a = (rng.random((3, 200)) < 0.7).astype(float)
    b = (rng.random((2, 200)) < 0.5).astype(float)
    out = C.crossed_difference(side("a", a), side("b", b), "sr", "k", levels=(0.90,), n_boot=300,
                               seed=7)
    boot_low, boot_high = crossed_bootstrap(a, b, 300, 7)
    welch = scipy.stats.ttest_ind(100 * a.mean(axis=1), 100 * b.mean(axis=1),
                                  equal_var=False).confidence_interval(0.90)
    assert (out["k_low90"], out["k_high90"]) == pytest.approx(
        (min(boot_low, welch.low), max(boot_high, welch.high)))


def test_the_hull_reaches_past_the_units_range_where_the_bootstrap_cannot():
    """Three units a side: the bootstrap's interval stays inside the range of the units'
    differences, Welch's t over the units (2+ degrees of freedom) reaches past it."""
    rng = np.random.default_rng(3)
    b = (rng.random(500) < 0.6).astype(float)
    a = []
    for flips in (10, 25, 40):  # +2, +5 and +8 points on the same items
        row = b.copy()
        row[np.flatnonzero(b == 0)[:flips]] = 1.0
        a.append(row)
    out = C.crossed_difference(side("a", a), side("b", [b, b, b]), "sr", "k", n_boot=1000)
    assert out["k"] == pytest.approx(5.0)
    welch = scipy.stats.ttest_ind([2.0, 5.0, 8.0], [0.0, 0.0, 0.0], equal_var=False)
    ci = welch.confidence_interval(0.90)
    assert (out["k_low90"], out["k_high90"]) == pytest.approx((ci.low, ci.high))
    assert out["k_low90"] < 2.0 and out["k_high90"] > 8.0


def test_one_unit_on_a_side_is_the_bootstrap_alone():
    rng = np.random.default_rng(4)
    a = (rng.random((1, 300)) < 0.7).astype(float)
    b = (rng.random((3, 300)) < 0.5).astype(float)
    out = C.crossed_difference(side("a", a), side("b", b), "sr", "k", levels=(0.90,), n_boot=300,
                               seed=5)
    assert (out["k_low90"], out["k_high90"]) == pytest.approx(crossed_bootstrap(a, b, 300, 5))


def test_shared_items_keep_the_pairing_and_units_widen_the_interval():
    rng = np.random.default_rng(2)
    b = (rng.random(600) < 0.6).astype(float)
    a = b.copy()
    a[rng.choice(np.flatnonzero(b == 0), size=30, replace=False)] = 1.0  # +5 points, paired
    paired = C.crossed_difference(side("a", [a]), side("b", [b]), "sr", "k", n_boot=1000)
    assert paired["k"] == pytest.approx(5.0)
    width = paired["k_high90"] - paired["k_low90"]
    # items resampled apart for each side would be far wider than the paired interval
    lo, hi = stats.mean_interval(b, n_resamples=1000, seed=0, level=0.9)
    assert width < 100 * (hi - lo) / 2
    # units of a that differ by several points widen it beyond the items' spread
    shifted = [a, np.where(rng.random(600) < 0.15, 1.0, a), np.where(rng.random(600) < 0.15, 0.0, a)]
    spread = C.crossed_difference(side("a", shifted), side("b", [b, b]), "sr", "k", n_boot=1000)
    assert spread["k_high90"] - spread["k_low90"] > 2 * width
    # identical sides: zero difference and a zero-width interval
    same = C.crossed_difference(side("a", [b, b]), side("b", [b]), "sr", "k", n_boot=200)
    assert same["k"] == 0.0 and same["k_low90"] == same["k_high90"] == 0.0


def test_missing_sides_other_controls_and_other_item_counts():
    a, b = side("a", [np.ones(50)]), side("b", [np.zeros(50)])
    assert C.crossed_difference(a, b, "neg", "k") == {}
    assert C.crossed_difference(a.assign(control="control task"), b, "sr", "k") == {}
    out = C.crossed_difference(a, b, "sr", "k", n_boot=100)
    assert out["k"] == 100.0 and out["k_low90"] == out["k_high90"] == 100.0
    with pytest.raises(ValueError, match="same items"):
        C.crossed_difference(a, side("b", [np.zeros(40)]), "sr", "k")


def test_table3_glove_values_are_our_glove50_cells_under_the_papers_keys():
    values = {f"probe_t3_{report.slug(t)}_glove50": float(i) for i, t in enumerate(C.TASKS_2016)}
    values["probe_t3_school_as_agent_minilm"] = 99.0
    out = C.table3_glove_values(values)
    assert out == {f"probe_2016_{report.slug(t)}_glove": float(i) for i, t in enumerate(C.TASKS_2016)}
