"""compsem.probing.chapter.training_values: a trained encoder's probe accuracies over its
trainings, with the t-interval a claim on it is decided by."""

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
    table, values = C.training_values(runs, "probe_t2_sdae_trainings")
    half = stats.t.ppf(0.975, 2) * 1.0 / math.sqrt(3)  # SD 1 over 3 trainings
    assert values["probe_t2_sdae_trainings_sr"] == pytest.approx(65.0)
    assert values["probe_t2_sdae_trainings_sr_low"] == pytest.approx(65.0 - half)
    assert values["probe_t2_sdae_trainings_order_high"] == pytest.approx(87.0 + half)
    assert values["probe_t2_sdae_trainings_sr_n"] == 3
    assert list(table.index) == ["sr", "order"]
    assert table.loc["sr", "sdae:seed1"] == 66.0 and table.loc["order", "trainings"] == 3
