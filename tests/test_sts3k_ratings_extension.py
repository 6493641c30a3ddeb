"""compsem.sts.ratings: the rater-count extension on synthetic
ratings (fast, no data files)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem.sts import ratings as R


def _synthetic(n_pairs=300, n_raters=60, noise=1.0, seed=0, per_rater=0.5):
    rng = np.random.default_rng(seed)
    truth = rng.uniform(1, 7, n_pairs)
    raw = np.clip(np.rint(truth[:, None] + rng.normal(0, noise, (n_pairs, n_raters))), 1, 7)
    raw[rng.random(raw.shape) > per_rater] = np.nan  # each rater rates about half the pairs
    return raw


def test_reliability_by_sample_size_draws_several_samples():
    raw = _synthetic(n_pairs=200, n_raters=40)
    subsets = {"all": np.ones(200, bool)}
    growth = R.reliability_by_sample_size(raw, subsets, [10, 40], n_splits=5, seed=0, n_samples=3)
    assert len(growth) == 2 * 3
    assert growth.groupby("participants")["sample"].nunique().tolist() == [3, 3]
    assert ((growth["pairs_used"] > 0) & (growth["pairs_used"] <= 1)).all()
    small, full = (growth.groupby("participants")["split_half"].mean().loc[m] for m in (10, 40))
    assert small < full
    again = R.reliability_by_sample_size(raw, subsets, [10, 40], n_splits=5, seed=0, n_samples=3)
    pd.testing.assert_frame_equal(growth, again)
    with pytest.raises(ValueError, match="n_samples"):
        R.reliability_by_sample_size(raw, subsets, [10], n_samples=0)
