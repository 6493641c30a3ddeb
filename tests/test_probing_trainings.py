"""compsem.probing.chapter.training_values: a trained encoder's probe accuracies over its
trainings, with the t-interval a claim on it is decided by, beside the paper's SDAE; and the
tables and glued values that carry the papers' numbers (paper_values, regenerated_table)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy import stats

from compsem.probing import chapter as C


def test_mean_and_t_interval_over_trainings_per_task():
    runs = pd.DataFrame({
        "task": ["sr", "sr", "sr", "order", "order", "order"],
        "encoder": ["sdae", "sdae:seed1", "sdae:seed2"] * 2,
        "accuracy": [64.0, 66.0, 65.0, 88.0, 86.0, 87.0],
    })
    targets = {"probe_2018_sdae_sr": {"paper": 63.7}, "probe_2018_sdae_order": {"paper": 92.9}}
    table, values = C.training_values(runs, "probe_t2_sdae_trainings", targets)
    half = stats.t.ppf(0.975, 2) * 1.0 / math.sqrt(3)  # SD 1 over 3 trainings
    assert values["probe_t2_sdae_trainings_sr"] == pytest.approx(65.0)
    assert values["probe_t2_sdae_trainings_sr_low"] == pytest.approx(65.0 - half)
    assert values["probe_t2_sdae_trainings_order_high"] == pytest.approx(87.0 + half)
    assert values["probe_t2_sdae_trainings_sr_n"] == 3
    assert list(table.index) == ["sr", "order"]
    assert table.loc["sr", "sdae:seed1"] == 66.0 and table.loc["order", "trainings"] == 3
    assert table.loc["sr", "paper SDAE"] == 63.7 and table.loc["order", "paper SDAE"] == 92.9


def test_paper_values_glue_every_target_under_its_year_and_cell():
    from compsem.targets import glued_paper_values

    values = glued_paper_values("probing", "probe")
    assert values["probe_paper_2016_has_school_glove"] == 100.0
    assert values["probe_paper_2018_bow_order"] == 55.0


def test_regenerated_table_puts_the_paper_rows_above_ours():
    tasks = ["order", "sr"]
    released = pd.DataFrame({"encoder": ["bow", "bow", "bow"], "task": ["order", "sr", "order"],
                             "control": ["none", "none", "random probe"],
                             "accuracy": [51.0, 52.0, 49.0]})
    regenerated = pd.DataFrame({"encoder": ["bow", "bow"], "task": ["order", "sr"],
                                "accuracy": [55.5, 50.5]})
    targets = {f"probe_2018_{row}_{t}": {"paper": value}
               for row, values in (("bow", (55.0, 51.3)), ("sdae", (92.9, 63.7)))
               for t, value in zip(tasks, values, strict=True)}
    table = C.regenerated_table(released, regenerated, ["bow"], targets, tasks)
    assert list(table.index) == [("BOW (paper)", "released"), ("SDAE (paper)", "released"),
                                 ("bow", "regenerated"), ("bow", "released")]
    assert table.loc[("SDAE (paper)", "released"), "sr"] == 63.7
    assert table.loc[("bow", "released"), "order"] == 51.0  # the control row is left out
    assert table.loc[("bow", "regenerated"), "order"] == 55.5
