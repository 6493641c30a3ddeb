"""Train and score a probe on an item frame: the experiment loop of both papers.

:func:`sentence_vectors` encodes the distinct sentences of an item frame once;
:func:`run_probe` trains the logistic regression of 2016 or the MLP of 2018 on
``[sentence vector ; probe one-hot]`` (probe-less tasks: the sentence vector alone), with the
2018 controls (``random sentence`` / ``random probe`` vectors), and returns a result row with
the test accuracy and its bootstrap interval.
"""

from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path

import numpy as np
import pandas as pd

from compsem import fitcache, stats
from compsem.probing import classifiers, features

FIT_FIELDS = ("accuracy", "C", "epochs", "correct")
"""What a cached probe fit keeps (:func:`run_probe`); the rest is computed from it."""

CONTROLS = (None, "random sentence", "random probe")
"""The 2018 controls (§4): the sentence vectors or the probe vectors replaced by random ones."""


def sentence_vectors(
    items: pd.DataFrame,
    encoder: str,
    seed: int = 0,
    random_dim: int = 300,
    batch_size: int = 64,
    device: str = "auto",
) -> tuple[np.ndarray, np.ndarray]:
    """``(S, rows)``: one vector per distinct sentence of ``items`` and each item's row in S
    (:func:`compsem.probing.features.encode` for the encoder names)."""
    texts, rows = features.unique_texts(items["sentence"].tolist())
    S = features.encode(
        encoder, texts, random_dim=random_dim, seed=seed, batch_size=batch_size, device=device
    )
    return S, rows


def run_probe(
    items: pd.DataFrame,
    S: np.ndarray,
    rows: np.ndarray,
    classifier: str = "logreg",
    control: str | None = None,
    seed: int = 0,
    n_boot: int = stats.BOOTSTRAP_RESAMPLES,
    cache: bool = True,
    **options,
) -> dict:
    """Train ``classifier`` (``logreg``: :func:`~compsem.probing.classifiers.logreg_cv`;
    ``mlp``: :func:`~compsem.probing.classifiers.mlp_probe`) on the train items and score the
    test items. ``control``: None, ``"random sentence"`` (each distinct sentence a random
    Gaussian vector of the same width) or ``"random probe"`` (random probe vectors). Returns
    accuracy, its percentile-bootstrap interval over test items (``n_boot`` resamples,
    :func:`compsem.stats.mean_interval`), chance (the majority rate of the test labels), n_test
    and C or epochs.

    ``cache``: a fit (its per-item correctness, C, epochs) is stored under the fit cache's key of
    everything that determines it (:func:`_fit_key`: the inputs, the labels and split, the
    classifier, its options, the seed, the source of the functions of
    :mod:`compsem.probing.classifiers` and the libraries' versions), so re-running a chapter or a scorecard
    with the same settings reads it back instead of training again: the fit cache
    (:mod:`compsem.fitcache`, :func:`fit_cache_dir`; ``COMPSEM_FIT_CACHE=0`` turns it off), where a
    damaged entry is set aside and the probe trained again."""
    if control not in CONTROLS:
        raise ValueError(f"control must be one of {CONTROLS}, not {control!r}")
    if classifier not in ("logreg", "mlp"):
        raise ValueError(f"classifier must be 'logreg' or 'mlp', not {classifier!r}")
    train = (items["split"] == "train").to_numpy()
    test = (items["split"] == "test").to_numpy()
    y = items["label"].to_numpy().astype(int)
    if control == "random sentence":
        rng = np.random.default_rng(seed + 7919)
        S = rng.standard_normal(S.shape).astype(np.float32)
    P = features.probe_features(items, random=control == "random probe", seed=seed)
    key = _fit_key(S, rows, P, y, train, test, classifier, seed, options)
    fit = _load_fit(key, int(test.sum())) if cache else None
    if fit is None:
        fit = _fit(classifier, S, rows, P, y, train, test, seed, options)
        if cache:
            _store_fit(key, fit)
    low, high = stats.mean_interval(fit["correct"], n_resamples=n_boot, seed=seed)
    chance = max(y[test].mean(), 1 - y[test].mean())
    return dict(
        accuracy=fit["accuracy"],
        low=low,
        high=high,
        chance=float(chance),
        n_test=int(test.sum()),
        C=fit["C"],
        epochs=fit["epochs"],
        correct=fit["correct"],
    )


def _fit(classifier, S, rows, P, y, train, test, seed, options) -> dict:
    """Train ``classifier`` on the train items and predict the test items (:func:`run_probe`)."""
    if classifier == "logreg":
        X = np.hstack([S[rows], P])
        result = classifiers.logreg_cv(X[train], y[train], X[test], y[test], seed=seed, **options)
    else:
        result = classifiers.mlp_probe(
            S, rows[train], P[train], y[train], S, rows[test], P[test], y[test],
            seed=seed, **options,
        )
    correct = result.predictions == y[test]
    return dict(accuracy=result.accuracy, C=result.C, epochs=result.epochs, correct=correct)


FIT_CACHE_KIND = "probe-fits"
"""The probe fits' kind in the fit cache (:mod:`compsem.fitcache`)."""


def fit_cache_dir() -> Path:
    """Where probe fits are cached: the fit cache's folder of :data:`FIT_CACHE_KIND`
    (``<compsem cache>/fits/<numerics>/probe-fits``)."""
    return fitcache.folder(FIT_CACHE_KIND)


def _classifier_functions() -> list:
    """Every function and class of :mod:`compsem.probing.classifiers`, by name: a fit depends on
    their source and on its inputs, not on how the inputs were computed, so no other module's
    code is in the key."""
    return [value for _, value in sorted(vars(classifiers).items())
            if (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == classifiers.__name__]


@functools.cache
def _classifier_code() -> dict:
    return fitcache.code_identity(_classifier_functions(), ("numpy", "scikit-learn", "torch"))


def _fit_key(S, rows, P, y, train, test, classifier, seed, options) -> str:
    """The fit cache's key of a probe fit (:func:`compsem.fitcache.key`): its configuration, the
    digests of its inputs, the classifiers' source and the computing libraries' versions (the
    numerics name the cache folder)."""
    return fitcache.key({
        "classifier": classifier,
        "seed": seed,
        "options": json.loads(json.dumps(options, sort_keys=True, default=str)),
        "inputs": [fitcache.array_digest(a) for a in (S, rows, P, y, train, test)],
        **_classifier_code(),
    })


def _load_fit(key: str, n_test: int) -> dict | None:
    """The cached fit ``key`` (:mod:`compsem.fitcache`: a damaged entry is set aside), or None."""
    hit = fitcache.load(FIT_CACHE_KIND, key, FIT_FIELDS)
    if hit is None:
        return None
    fit = hit[0]
    if any(fit[k].shape != () for k in FIT_FIELDS if k != "correct") or fit["correct"].shape != (n_test,):
        return None  # not a fit of these test items: fit again (and overwrite)
    out = {k: (None if np.isnan(v) else v.item()) if v.ndim == 0 else v for k, v in fit.items()
           if k in FIT_FIELDS}
    if out["epochs"] is not None:
        out["epochs"] = int(out["epochs"])
    out["correct"] = fit["correct"].astype(bool)
    return out


def _store_fit(key: str, fit: dict) -> None:
    """Store a fit in the fit cache (:mod:`compsem.fitcache`, written atomically)."""
    arrays = {
        k: np.asarray(np.nan if fit[k] is None else fit[k], dtype=float)
        for k in FIT_FIELDS
        if k != "correct"
    }
    arrays["correct"] = np.asarray(fit["correct"], dtype=bool)
    fitcache.store(FIT_CACHE_KIND, key, arrays, {})
