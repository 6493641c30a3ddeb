"""compsem.probing.geometry: the separation interval is scipy's percentile bootstrap."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from compsem.probing import geometry


def test_separation_interval_is_the_scipy_bootstrap_of_the_differences():
    rng = np.random.default_rng(0)
    keep = rng.uniform(0.7, 1.0, 80)
    change = keep - rng.normal(0.05, 0.05, 80)
    sep = geometry.separation(keep, change, n_boot=500, seed=3, level=0.9)
    direct = stats.bootstrap((keep - change,), np.mean, n_resamples=500, confidence_level=0.9,
                             method="percentile", rng=np.random.default_rng(3)).confidence_interval
    assert (sep["low"], sep["high"]) == pytest.approx((direct.low, direct.high), abs=1e-12)
    assert sep["low"] < sep["difference"] < sep["high"]


def test_separation_of_identical_edits_is_a_point():
    cos = np.array([0.9, 0.8, 0.95])
    sep = geometry.separation(cos, cos)
    assert sep["low"] == sep["high"] == sep["difference"] == 0.0 and sep["share_closer"] == 0.5
    assert sep["share_tied"] == 1.0


def test_separation_counts_ties_apart():
    keep, change = np.array([1.0, 0.9, 0.5, 0.7]), np.array([1.0, 0.8, 0.6, 0.7 + 1e-9])
    sep = geometry.separation(keep, change, n_boot=50)
    assert sep["share_tied"] == 0.5  # the first and the last
    assert sep["share_closer"] == (0.5 + 1 + 0 + 0.5) / 4
