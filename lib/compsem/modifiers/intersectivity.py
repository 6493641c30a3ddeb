"""Test 1, single-phrase intersectivity (Carvalho et al., §3.3, Eq. 3 and 4).

For a phrase p = t_1 ... t_h whose adjectives are all intersective, P ⊆ T_i for every term,
while two separate terms are "generally unrelated". Inclusion read as a shorter distance:

    I(p) = d(p, t_i) <= d(t_j, t_k)   for all i, j < k                           (Eq. 3)

and the consistency of a model is the share of phrases for which I holds (Eq. 4), per cell.

Two variants (:data:`VARIANTS`):

``paper``  Eq. 3 as printed: the right-hand sides are the distances between *single terms*.
``code``   what the authors' released code computed: the right-hand sides are the
           distances across every *bipartition* of the phrase, each side embedded as a
           (sub)phrase: for "a1 a2 n", d(a1, "a2 n"), d(a2, "a1 n") and d(n, "a1 a2"); any
           distance >= 1 (cosine <= 0, e.g. a zero vector) is dropped from both sides before
           comparing, a phrase with nothing left counts as satisfied, and the comparison is
           ``<=``. For AN phrases both variants are the same test apart from the filter.

Geometry (checked by a property test): if emb(p) = α(emb(a) + emb(n)), i.e.
mean or sum pooling, emb(p) lies in the plane cone between a and n, so ∠(p,a) + ∠(p,n) =
∠(a,n) and the AN test holds for every phrase: such models score exactly 1.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from compsem.modifiers.phrases import word_matrix
from compsem.modifiers.space import Space

_UNSET = object()

VARIANTS = {
    "paper": {"complements": "pairwise", "drop_at_least": None, "strict": False},
    "code": {"complements": "bipartition", "drop_at_least": 1.0, "strict": False},
}


def _join(words: np.ndarray, columns: list[int]) -> np.ndarray:
    if len(columns) == 1:
        return words[:, columns[0]]
    return np.array([" ".join(row) for row in words[:, columns]], dtype=object)


def _complements(words: np.ndarray, how: str) -> list[tuple[np.ndarray, np.ndarray]]:
    h = words.shape[1]
    if how == "pairwise":
        return [(words[:, j], words[:, k]) for j in range(h) for k in range(j + 1, h)]
    if how == "bipartition":
        out = []
        for mask in range(1, 2 ** (h - 1)):  # the order of phrases.bipartitions
            left = [i for i in range(h) if mask >> i & 1]
            right = [i for i in range(h) if not mask >> i & 1]
            out.append((_join(words, left), _join(words, right)))
        return out
    raise ValueError(f"complements must be 'pairwise' or 'bipartition', not {how!r}")


def single_phrase(
    space: Space,
    phrases: pd.DataFrame,
    variant: str = "code",
    *,
    complements=_UNSET,
    drop_at_least=_UNSET,
    strict=_UNSET,
) -> pd.DataFrame:
    """Eq. 3 for every phrase: columns ``holds`` (bool), ``lhs`` (max_i d(p, t_i)), ``rhs``
    (the smallest complement distance) and ``margin`` = rhs - lhs, after the filter.

    ``variant`` is ``"code"`` (bipartitions, ``< 1`` filter, ``<=``) or ``"paper"`` (pairwise
    term distances, no filter, ``<=``); the keyword options override single settings
    (``strict=True`` uses ``<``). Phrases may mix lengths. Rows follow ``phrases``.
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {list(VARIANTS)}, not {variant!r}")
    options = dict(VARIANTS[variant])
    for name, value in (
        ("complements", complements),
        ("drop_at_least", drop_at_least),
        ("strict", strict),
    ):
        if value is not _UNSET:
            options[name] = value
    out = pd.DataFrame(index=phrases.index, columns=["lhs", "rhs"], dtype=float)
    lengths = phrases["adjectives"].map(len)
    for _, group in phrases.groupby(lengths, sort=True):
        words = word_matrix(group)
        texts = group["text"].to_numpy(dtype=object)
        lhs = np.column_stack([space.distance(texts, words[:, i]) for i in range(words.shape[1])])
        rhs = np.column_stack(
            [space.distance(a, b) for a, b in _complements(words, options["complements"])]
        )
        threshold = options["drop_at_least"]
        if threshold is not None:
            lhs = np.where(lhs < threshold, lhs, -np.inf)
            rhs = np.where(rhs < threshold, rhs, np.inf)
        out.loc[group.index, "lhs"] = lhs.max(axis=1)
        out.loc[group.index, "rhs"] = rhs.min(axis=1)
    lhs, rhs = out["lhs"].to_numpy(float), out["rhs"].to_numpy(float)
    out["holds"] = lhs < rhs if options["strict"] else lhs <= rhs
    with np.errstate(invalid="ignore"):
        out["margin"] = rhs - lhs
    return out


def scores(phrases: pd.DataFrame, holds: pd.Series | np.ndarray) -> pd.Series:
    """Eq. 4: the share of phrases that satisfy Eq. 3, per cell (index: cell tuples)."""
    values = pd.Series(np.asarray(holds, dtype=float), index=phrases.index)
    return values.groupby(phrases["cell"]).mean()
