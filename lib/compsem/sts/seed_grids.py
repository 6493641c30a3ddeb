"""The regressors of §4.7 and §5.3 (Table 8, Figures 6 and 11) over seeds, and the t-intervals over seeds
that the claims on them are decided by.

The adversarial split is fixed, but an MLP's fit depends on its random initialisation
(``random_state``, 1 in the authors' code): a claim about what a feature set can learn is a
claim about every initialisation, so :func:`adversarial_over_seeds` fits each regressor with
several seeds and :func:`over_seeds` summarises them (mean, 95% t-interval, and the 90% interval
of an equivalence test, two one-sided tests at 5%).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from compsem import report
from compsem.sts import regressors as rg


def t_interval(mean: float, sd: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Student-t interval of a mean over ``n`` seeds (random splits or MLP seeds) from its mean
    and sample SD: ``mean +- t_{1-(1-level)/2, n-1} * sd / sqrt(n)``."""
    half = stats.t.ppf(1 - (1 - level) / 2, n - 1) * sd / np.sqrt(n)
    return float(mean - half), float(mean + half)


def adversarial_over_seeds(features: dict, human, split, regressors: Sequence[str],
                           seeds: Sequence[int], n_jobs: int = 1) -> pd.DataFrame:
    """Test rho on the adversarial ``split`` of every feature set x regressor x MLP seed
    (:func:`compsem.sts.regressors.evaluate_grid` once per seed, column ``seed`` added)."""
    runs = [rg.evaluate_grid(features, human, split, list(regressors), seed=s,
                             split_name="adversarial", progress=False, n_jobs=n_jobs).assign(seed=s)
            for s in seeds]
    return pd.concat(runs, ignore_index=True)


def over_seeds(runs: pd.DataFrame, prefix: str) -> tuple[pd.DataFrame, dict[str, float]]:
    """Per feature set and regressor, the mean test rho over the seeds of ``runs`` and its
    t-intervals: ``(table, values)`` with ``values`` holding
    ``<prefix>_<features>_<regressor>_mean``, ``_ci_low``/``_ci_high`` (95%) and
    ``_ci90_low``/``_ci90_high``, and ``<prefix>_collapsed``, the number of fits whose
    predictions were all equal (no rank correlation: left out of their cell's mean). Linear
    regression has no seed: its interval has no width."""
    table = runs.groupby(["features", "regressor"], sort=False)["rho_test"].agg(
        ["mean", "std", "count"])
    values: dict[str, float] = {}
    for (name, regressor), (mean, sd, n) in table.iterrows():
        if n == 0:  # every seed collapsed: no rank correlation to report
            continue
        key = f"{prefix}_{report.slug(name)}_{regressor}"
        values[f"{key}_mean"] = float(mean)
        sd = 0.0 if regressor == "reg" else sd
        if n > 1:
            for level, suffix in ((0.95, ""), (0.90, "90")):
                low, high = t_interval(mean, sd, n, level=level)
                values[f"{key}_ci{suffix}_low"], values[f"{key}_ci{suffix}_high"] = low, high
    values[f"{prefix}_collapsed"] = int(runs["rho_test"].isna().sum())
    return table, values
