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
    # the collapsed fit is counted where the cell is shown, and per cell
    assert int(table.loc[("MPNet", "nn3"), "collapsed"]) == 1 and int(table.loc[("MPNet", "reg"), "collapsed"]) == 0
    assert values["p_mpnet_nn3_collapsed"] == 1 and values["p_mpnet_reg_collapsed"] == 0
    assert all(math.isfinite(v) for v in values.values())


def _data(n: int = 120, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    human = x @ np.array([0.5, -0.2, 0.1]) + rng.normal(scale=0.5, size=n)
    split = {"train": np.arange(0, n, 2), "test": np.arange(1, n, 2)}
    return {"Toy": x}, human, split


@pytest.mark.usefixtures("no_fit_cache")
def test_pairs_and_seeds_intervals_give_linear_regression_an_interval_over_pairs():
    from compsem import stats as cstats
    from compsem.sts import regressors as rg

    features, human, split = _data()
    table, values = sg.pairs_and_seeds_intervals(features, human, split, ["reg", "nn1"], (1, 2), "b",
                                                 n_resamples=400, seed=0)
    runs = sg.adversarial_over_seeds(features, human, split, ["reg", "nn1"], (1, 2))
    _, seed_values = sg.over_seeds(runs, "b")
    # the point is the mean over seeds of over_seeds; the interval has a width for reg too
    assert table.loc[("Toy", "reg"), "mean"] == pytest.approx(seed_values["b_toy_reg_mean"], abs=1e-12)
    assert table.loc[("Toy", "nn1"), "mean"] == pytest.approx(seed_values["b_toy_nn1_mean"], abs=1e-12)
    assert int(table.loc[("Toy", "reg"), "n_seeds"]) == 1 and int(table.loc[("Toy", "nn1"), "n_seeds"]) == 2
    assert values["b_toy_reg_ci_low"] < values["b_toy_reg_ci90_low"] < seed_values["b_toy_reg_mean"]
    assert seed_values["b_toy_reg_mean"] < values["b_toy_reg_ci90_high"] < values["b_toy_reg_ci_high"]
    # linear regression: exactly the percentile bootstrap over the test pairs of its one fit
    pred = rg.fit_predict(features["Toy"], human, split, "reg", cache=False)[split["test"]]
    idx = np.random.default_rng(0).integers(0, len(split["test"]), size=(400, len(split["test"])))
    boot = cstats.spearman_of_resamples(cstats.tie_values(pred), cstats.tie_values(human[split["test"]]), idx)
    assert values["b_toy_reg_ci_low"] == pytest.approx(np.percentile(boot, 2.5), abs=1e-12)
    assert values["b_toy_reg_ci90_high"] == pytest.approx(np.percentile(boot, 95), abs=1e-12)
    # same seed, same numbers
    assert sg.pairs_and_seeds_intervals(features, human, split, ["reg", "nn1"], (1, 2), "b", n_resamples=400,
                                        seed=0)[1] == values
