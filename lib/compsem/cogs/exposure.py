"""The 100-exposure training set of Kim (2021, Section 4.5.7), reconstructed.

The dissertation trains a second set of models on ``train_100``, where each held-out item is
seen in 100 exposure contexts instead of one. ``train_100.tsv`` is in the upstream repository
but not in the data mirror (the project registry has no entry for it). The 1,500 exposure rows
it adds are in ``najoungkim/cogs-with-pretraining`` (``train_100_exposure_examples.tsv``:
12 exposure cases x 100 distinct sentences, plus the primitives ``shark``, ``Paula`` and
``crawl`` each repeated 100 times), and they contain the 15 exposure rows of ``train.tsv``.
So ``train_100`` is very likely ``train.tsv`` without its 15 exposure rows, plus the 1,500:
24,140 + 1,500 = 25,640 rows. :func:`train_100` builds exactly that (a reconstruction, not a
verified copy).
"""

from __future__ import annotations

import pandas as pd

from compsem.data import cogs


def exposure_mask(train: pd.DataFrame, exposure: pd.DataFrame) -> pd.Series:
    """True for the rows of ``train`` that are exposure rows (same source, target and case as
    a row of ``exposure``)."""
    keys = set(map(tuple, exposure[["source", "target", "case"]].itertuples(index=False)))
    return pd.Series(
        [tuple(r) in keys for r in train[["source", "target", "case"]].itertuples(index=False)],
        index=train.index,
    )


def rebuild_train_100(
    train: pd.DataFrame, exposure_1: pd.DataFrame, exposure_100: pd.DataFrame
) -> pd.DataFrame:
    """``train`` minus its one-exposure rows, plus the 100-exposure rows (Kim 2021, 4.5.7).
    Raises when ``train`` does not contain every row of ``exposure_1`` exactly once."""
    mask = exposure_mask(train, exposure_1)
    if int(mask.sum()) != len(exposure_1):
        raise ValueError(
            f"train holds {int(mask.sum())} of the {len(exposure_1)} one-exposure rows; "
            "pass the released train.tsv and train_exposure_examples.tsv"
        )
    return pd.concat([train[~mask], exposure_100], ignore_index=True)


def train_100() -> pd.DataFrame:
    """The reconstructed 100-exposure training set (25,640 rows; columns source, target, case)."""
    return rebuild_train_100(cogs.load("train"), cogs.load("exposure-1"), cogs.load("exposure-100"))
