"""Regressors over seeds (compsem.sts.seed_grids): t-intervals and their summary, on
constructed fits (no data, no regressor trained)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem.sts import seed_grids as sg


def test_t_interval_is_students():
    values = np.array([0.10, 0.14, 0.09, 0.12, 0.11])
    low, high = sg.t_interval(values.mean(), values.std(ddof=1), len(values))
    expected = stats.t.interval(0.95, 4, loc=values.mean(), scale=stats.sem(values))
    assert (low, high) == pytest.approx(expected, rel=1e-12)
    low90, high90 = sg.t_interval(values.mean(), values.std(ddof=1), len(values), level=0.90)
    assert low < low90 < values.mean() < high90 < high


def _runs():
    rows = []
    for seed, (nn, reg) in enumerate([(0.10, 0.3), (0.14, 0.3), (float("nan"), 0.3),
                                      (0.12, 0.3)], start=1):
        rows += [{"features": "MPNet", "regressor": "nn3", "seed": seed, "rho_test": nn},
                 {"features": "MPNet", "regressor": "reg", "seed": seed, "rho_test": reg}]
    rows += [{"features": "Only NaN", "regressor": "nn1", "seed": 1, "rho_test": float("nan")}]
    return pd.DataFrame(rows)


def test_over_seeds_summarises_each_cell_and_counts_collapsed_fits():
    table, values = sg.over_seeds(_runs(), "p")
    assert values["p_collapsed"] == 2  # one MPNet nn3 seed and the lone NaN cell
    assert values["p_mpnet_nn3_mean"] == pytest.approx(0.12)  # the collapsed seed left out
    low, high = sg.t_interval(0.12, np.std([0.10, 0.14, 0.12], ddof=1), 3)
    assert (values["p_mpnet_nn3_ci_low"], values["p_mpnet_nn3_ci_high"]) == pytest.approx((low, high))
    assert values["p_mpnet_nn3_ci90_low"] > low and values["p_mpnet_nn3_ci90_high"] < high
    # linear regression has no seed: an interval without width
    assert values["p_mpnet_reg_ci_low"] == values["p_mpnet_reg_ci_high"] == pytest.approx(0.3)
    assert not any(k.startswith("p_only_nan") for k in values)  # no fit to summarise
    assert int(table.loc[("MPNet", "nn3"), "count"]) == 3
    assert all(math.isfinite(v) for v in values.values())
