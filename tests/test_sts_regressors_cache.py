"""compsem.sts.regressors: fitted predictions cached by configuration (compsem.fitcache)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem import fitcache
from compsem.sts import regressors as R

pytestmark = pytest.mark.usefixtures("cache_dir")  # every test: an empty cache of its own


def _problem(n: int = 120):
    rng = np.random.default_rng(5)
    x = rng.normal(size=(n, 3))
    return x, x @ np.array([1.0, -1.0, 0.5]) + 0.1 * rng.normal(size=n), R.random_split(n, seed=2)


def _entries(root):
    return sorted(root.glob("fits/*/sts-regressors/*.npz"))


def _no_fit(*args, **kwargs):
    raise AssertionError("refitted although the fit is cached")


def test_second_fit_comes_from_the_cache_with_identical_numbers(cache_dir, monkeypatch):
    x, y, split = _problem()
    cold = R.evaluate_grid({"x": x}, y, split, ["reg", "nn1"], max_iter=50, progress=False)
    assert len(_entries(cache_dir)) == 2
    monkeypatch.setattr(R, "_fit", _no_fit)
    warm = R.evaluate_grid({"x": x}, y, split, ["reg", "nn1"], max_iter=50, progress=False)
    pd.testing.assert_frame_equal(warm, cold)  # seconds too: those of the original fit
    pred = R.fit_predict(x, y, split, "nn1", max_iter=50)  # the grid's fit, from the cache
    assert pred.dtype == np.float64 and pred.shape == (len(y),)
    assert R._rho(pred, y, split["test"]) == cold.loc[1, "rho_test"]


@pytest.mark.parametrize("change", ["features", "human", "train", "seed", "max_iter", "regressor"])
def test_any_change_of_configuration_or_data_refits(cache_dir, change):
    x, y, split = _problem()
    R.fit_predict(x, y, split, "nn1", max_iter=20)
    kwargs = {"features": x, "human": y, "split": split, "regressor": "nn1", "max_iter": 20, "seed": 1}
    if change == "features":
        kwargs["features"] = x + 1e-9
    elif change == "human":
        kwargs["human"] = y[::-1].copy()
    elif change == "train":
        kwargs["split"] = R.random_split(len(y), seed=3)
    elif change == "seed":
        kwargs["seed"] = 2
    elif change == "max_iter":
        kwargs["max_iter"] = 21
    else:
        kwargs["regressor"] = "nn2"
    R.fit_predict(**kwargs)
    assert len(_entries(cache_dir)) == 2


def test_corrupt_entry_is_recomputed_and_rewritten(cache_dir, monkeypatch):
    x, y, split = _problem()
    cold = R.fit_predict(x, y, split, "nn1", max_iter=30)
    (entry,) = _entries(cache_dir)
    entry.write_bytes(entry.read_bytes()[:100])  # truncated
    calls = []
    fit = R._fit
    monkeypatch.setattr(R, "_fit", lambda *a: calls.append(1) or fit(*a))
    with pytest.warns(UserWarning, match=f"{entry.name}.*set aside"):
        np.testing.assert_array_equal(R.fit_predict(x, y, split, "nn1", max_iter=30), cold)
    assert calls == [1] and entry.with_name(entry.name + ".bad").exists()
    np.testing.assert_array_equal(R.fit_predict(x, y, split, "nn1", max_iter=30), cold)
    assert calls == [1]  # the rewritten entry is read


def test_cache_off_by_argument_or_environment(cache_dir, monkeypatch):
    x, y, split = _problem()
    R.fit_predict(x, y, split, "reg", cache=False)
    R.learning_curve(x, y, split, [20], seeds=[0], cache=False)
    assert _entries(cache_dir) == []
    monkeypatch.setenv("COMPSEM_FIT_CACHE", "0")
    assert not fitcache.enabled()
    R.fit_predict(x, y, split, "reg")
    assert _entries(cache_dir) == []


def test_estimator_objects_are_not_cached(cache_dir):
    from sklearn.linear_model import Ridge

    x, y, split = _problem()
    R.fit_predict(x, y, split, Ridge(alpha=1.0))
    assert _entries(cache_dir) == []


def test_entries_live_under_the_numerics_tag(cache_dir):
    from compsem import determinism

    x, y, split = _problem()
    R.fit_predict(x, y, split, "reg")
    (entry,) = _entries(cache_dir)
    assert entry.parent.parent.name == determinism.numerics()


def test_parallel_grid_gives_the_serial_numbers(cache_dir):
    x, y, split = _problem()
    features = {"x": x, "x2": x[:, :2]}
    serial = R.evaluate_grid(features, y, split, ["reg", "nn1", "nn2"], max_iter=40, progress=False, cache=False)
    parallel = R.evaluate_grid(features, y, split, ["reg", "nn1", "nn2"], max_iter=40, progress=False, n_jobs=2)
    pd.testing.assert_frame_equal(parallel.drop(columns="seconds"), serial.drop(columns="seconds"))
    assert len(_entries(cache_dir)) == 6  # the workers' fits are stored by the parent
    warm = R.evaluate_grid(features, y, split, ["reg", "nn1", "nn2"], max_iter=40, progress=False, n_jobs=2)
    pd.testing.assert_frame_equal(warm, parallel)


def test_pca_features_are_cached(cache_dir, monkeypatch):
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=(50, 4)), rng.normal(size=(50, 4))
    cold = R.pair_features(a, b, n_components=3)
    monkeypatch.setattr(R, "_pca", _no_fit)
    np.testing.assert_array_equal(R.pair_features(a, b, n_components=3), cold)
    with pytest.raises(AssertionError, match="refitted"):
        R.pair_features(a, b, n_components=None)  # another configuration
    assert len(sorted(cache_dir.glob("fits/*/sts-pca/*.npz"))) == 1
