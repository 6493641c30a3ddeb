"""Lexical-balance audit of a probing task: can the label be read off the words?

Ettinger et al. (2016, §3) require that "no consistently correlating cues" give the answer
away, and Ettinger et al. (2018, §3) make it a check: a bag-of-words model must be at chance on
tasks that need order. :func:`audit` trains simple controls on the item frame of a task and asks
whether each is at chance:

- ``probe only``: logistic regression on the one-hot probe(s) alone (the released 2018 cont1
  set fails it: its intransitive probes are mostly FALSE, as the chapter's audit shows);
- ``bow``: logistic regression on the one-hot bag of words of the sentence, plus the probe;
- ``bow x probe``: logistic regression on the outer product of the bag of words with each
  probe's one-hot vector, which can condition every word on the probe (it solves cont1 and
  cont2, which are lexical tasks).

A control passes (the column ``at_chance``) when its test accuracy does not exceed the majority
rate by more than a one-sided binomial margin, ``chance + z_(1-alpha) sqrt(chance (1 - chance) /
n_test)``: no cue is detected at level ``alpha``. That is not evidence that the control is at
chance (a non-significant test shows no equivalence); the chapter's claims test "at chance" with
an equivalence interval instead.
``probe only`` must be at chance on every task; on a task whose answer requires structure
(:attr:`compsem.probing.task_table.TaskInfo.requires_structure`) every control must be. A task
that a bag of words can solve fails the audit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from compsem.probing import classifiers, features
from compsem.probing.task_table import task_info


def chance_threshold(y_test, alpha: float = 0.01) -> tuple[float, float]:
    """``(chance, threshold)``: the majority rate of ``y_test`` and the accuracy above which a
    control is significantly better than it (one-sided binomial, normal approximation)."""
    y = np.asarray(y_test).astype(int)
    if y.size == 0:
        raise ValueError("chance_threshold needs test labels")
    chance = max(y.mean(), 1 - y.mean())
    z = stats.norm.ppf(1 - alpha)
    return float(chance), float(chance + z * np.sqrt(chance * (1 - chance) / len(y)))


def _outer(bow: np.ndarray, probes: np.ndarray) -> np.ndarray:
    """Row-wise outer product of the bag of words with the probe one-hot block."""
    return (bow[:, :, None] * probes[:, None, :]).reshape(len(bow), -1)


def control_features(items: pd.DataFrame) -> dict[str, np.ndarray]:
    """The inputs of the audit controls for every item (train and test rows)."""
    bow = features.bow(items["sentence"].tolist())[0]
    probes = features.probe_features(items)
    out = {}
    if probes.shape[1]:
        out["probe only"] = probes
    out["bow"] = np.hstack([bow, probes])
    if probes.shape[1]:
        out["bow x probe"] = np.hstack([bow, _outer(bow, probes)])
    return out


def audit(
    items: pd.DataFrame, alpha: float = 0.01, requires_structure: bool | None = None, C: float = 1.0
) -> pd.DataFrame:
    """Train every control of the module docstring on ``items`` (an item frame with a
    ``split`` column) and report, per control: test accuracy, chance, threshold, whether it is
    at chance, whether it must be, and whether it passes. ``requires_structure`` defaults to
    the task's :class:`~compsem.probing.task_table.TaskInfo`."""
    if requires_structure is None:
        requires_structure = task_info(str(items["task"].iloc[0])).requires_structure
    train = (items["split"] == "train").to_numpy()
    test = (items["split"] == "test").to_numpy()
    if not train.any() or not test.any():
        raise ValueError("audit needs items in both the train and the test split")
    y = items["label"].to_numpy()
    chance, threshold = chance_threshold(y[test], alpha)
    rows = []
    for name, X in control_features(items).items():
        if len(np.unique(y[train])) < 2:
            raise ValueError("the training labels have a single class")
        result = classifiers.logreg(X[train], y[train], X[test], y[test], C=C)
        must = name == "probe only" or requires_structure
        at_chance = result.accuracy <= threshold
        rows.append(
            dict(
                control=name,
                accuracy=result.accuracy,
                chance=chance,
                threshold=threshold,
                at_chance=at_chance,
                must_be_at_chance=must,
                passes=at_chance or not must,
            )
        )
    return pd.DataFrame(rows).set_index("control")


def passes(report: pd.DataFrame) -> bool:
    """Whether every control of an :func:`audit` report passes."""
    return bool(report["passes"].all())
