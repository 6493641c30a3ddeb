"""Test 3, non-subsectivity (Carvalho et al., §3.5, Eq. 7 and 8).

Subsective composition guarantees P ⊆ N, non-subsective composition does not, so a
non-subsective adjective should "pull" the phrase towards itself:

    NI(an) = d(an, a) <= d(an, n)                                               (Eq. 7)

Eq. 8 is the share of AN phrases where NI holds, per adjective class; by the paper's own
hypothesis the non-subsective classes (NS-Pl, NS-Pr) should score highest. The authors' code
uses the strict ``<`` (their released code); ``strict=False`` gives the printed ``<=``.

Closed form (checked by a property test): for sum pooling p = a + n,
cos(p, a) > cos(p, n)  <=>  (|a| - |n|)(1 - cos θ_an) > 0  <=>  |a| > |n| (a, n not parallel).
Mean pooling has the same cosines, so for GloVe-like baselines Eq. 8 is just the share of
(adjective, noun) pairs where the adjective's vector is longer than the noun's
(:func:`norm_rule`); an out-of-vocabulary adjective (zero vector) always fails.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from compsem.modifiers.space import Space


def non_subsectivity(space: Space, phrases: pd.DataFrame, strict: bool = True) -> pd.DataFrame:
    """Eq. 7 for every AN phrase: columns ``d_adj`` = d(p, a), ``d_noun`` = d(p, n), ``holds``
    and ``pull`` = d_noun - d_adj (> 0: the phrase is closer to its adjective)."""
    lengths = phrases["adjectives"].map(len)
    if (lengths != 1).any():
        raise ValueError("the non-subsectivity test takes AN phrases only (one adjective)")
    texts = phrases["text"].to_numpy(dtype=object)
    d_adj = space.distance(texts, phrases["adj1"].to_numpy(dtype=object))
    d_noun = space.distance(texts, phrases["noun"].to_numpy(dtype=object))
    holds = d_adj < d_noun if strict else d_adj <= d_noun
    return pd.DataFrame(
        {"d_adj": d_adj, "d_noun": d_noun, "holds": holds, "pull": d_noun - d_adj},
        index=phrases.index,
    )


def scores(phrases: pd.DataFrame, holds: pd.Series | np.ndarray) -> pd.Series:
    """Eq. 8: the share of AN phrases satisfying Eq. 7, per cell (index: 1-tuples of class)."""
    values = pd.Series(np.asarray(holds, dtype=float), index=phrases.index)
    return values.groupby(phrases["cell"]).mean()


def norm_rule(space: Space, phrases: pd.DataFrame) -> np.ndarray:
    """The closed form of Eq. 7 under sum or mean pooling: |emb(a)| > |emb(n)| per phrase
    (``space`` must hold the single words as embedded by the pooled model)."""
    return space.norm(phrases["adj1"].to_numpy(dtype=object)) > space.norm(
        phrases["noun"].to_numpy(dtype=object)
    )
