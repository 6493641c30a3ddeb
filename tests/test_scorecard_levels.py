"""compsem.scorecard with ``extra_levels``: the probing battery's accuracies also at other
levels (a claim that reads them in a union of tests, at Bonferroni's level), from the same fits
and one set of resamples read at every level, so that the wider interval contains the 95% one;
without it the table keeps its columns. The fits are constructed (no data, no encoder, no training)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem import scorecard, stats
from compsem.probing import experiment


def fake_grid(frames, encoders, classifier, controls_to_run, seeds, control_seeds, **_):
    rows = []
    for t, task in enumerate(frames):
        base = np.random.default_rng(t).random(300) < 0.5
        for control in controls_to_run:
            for seed in (seeds if control == "none" else control_seeds):
                flip = np.random.default_rng([t, seed, len(control)]).random(300) < 0.15
                correct = (base ^ flip).astype(float)
                low, high = stats.mean_interval(correct, n_resamples=200, seed=seed)
                rows.append(dict(task=task, encoder=encoders[0], classifier=classifier,
                                 control=control, seed=seed, accuracy=100 * correct.mean(),
                                 low=100 * low, high=100 * high, chance=50.0, n_test=300,
                                 correct=correct, coverage=1.0, sound=True))
    return pd.DataFrame(rows)


@pytest.fixture
def no_data(monkeypatch):
    from compsem.data import probing as released_files
    from compsem.probing import lexicon, released2018

    monkeypatch.setattr(released_files, "load_task", lambda task: task)
    monkeypatch.setattr(released2018, "annotate_released", lambda items, lex: items)
    monkeypatch.setattr(released2018, "subsample", lambda items, n_train, n_test, seed: items)
    monkeypatch.setattr(lexicon, "load", lambda: None)
    monkeypatch.setattr(experiment, "run_grid", fake_grid)


def test_extra_levels_add_wider_intervals_to_the_accuracies(no_data):
    level = stats.bonferroni_level(12)
    plain = scorecard.run("glove50", ["probing"], subset=True, progress=False, n_boot=200)
    assert tuple(plain.columns) == scorecard.COLUMNS
    table = scorecard.run("glove50", ["probing"], subset=True, progress=False, n_boot=200,
                          extra_levels={"bonf12": level})
    assert list(table.columns) == [*scorecard.COLUMNS, "low_bonf12", "high_bonf12"]
    pd.testing.assert_frame_equal(table[list(scorecard.COLUMNS)], plain)
    accuracy = table[table.measure.str.endswith(" accuracy")]
    assert list(accuracy.measure) == ["SemRole accuracy", "Negation accuracy"]
    assert (accuracy.low_bonf12 <= accuracy.low).all() and (accuracy.high <= accuracy.high_bonf12).all()
    assert table[~table.measure.str.endswith(" accuracy")][["low_bonf12", "high_bonf12"]].isna().all().all()
    # the crossed bootstrap of the same fits and the same resamples, at the higher level
    runs = fake_grid({"sr": None}, ["glove50"], "mlp", ("none",), [0, 1, 2], [0])
    expected = experiment.summarise(runs, level=level, shared_items=True, n_boot=200).iloc[0]
    row = accuracy.iloc[0]
    assert (row.low_bonf12, row.high_bonf12) == (expected["low"], expected["high"])


def test_several_extra_levels_equal_one_run_per_level(no_data):
    """Every level read from one set of draws per accuracy: the same bounds, bit for bit, as a
    run with that level alone, and the 95% columns as a run without any."""
    levels = {"bonf12": stats.bonferroni_level(12), "bonf3": stats.bonferroni_level(3),
              "ninety": 0.90}
    options = dict(subset=True, progress=False, n_boot=200)
    table = scorecard.run("glove50", ["probing"], extra_levels=levels, **options)
    plain = scorecard.run("glove50", ["probing"], **options)
    pd.testing.assert_frame_equal(table[list(scorecard.COLUMNS)], plain, check_exact=True)
    for name, level in levels.items():
        alone = scorecard.run("glove50", ["probing"], extra_levels={name: level}, **options)
        for side in ("low", "high"):
            pd.testing.assert_series_equal(table[f"{side}_{name}"], alone[f"{side}_{name}"],
                                           check_exact=True)


def test_other_batteries_ignore_extra_levels():
    from compsem.scorecard import modifiers, sts

    for battery in (sts, modifiers):
        assert "_options" in battery.rows.__code__.co_varnames
