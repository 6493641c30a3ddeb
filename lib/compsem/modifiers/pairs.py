"""Test 2, phrase-pair intersectivity (Carvalho et al., §3.4, Eq. 5 and 6).

For two adjectives a1 != a2 and two nouns n1 != n2:

    II = d(a1 n1, a1 n2) < d(a2 n1, a2 n2)                                      (Eq. 5)

expected "when a1 is intersective and a2 is not" (Canadian writer / Canadian surgeon are
closer than skilful writer / skilful surgeon). Eq. 6 is the share of quadruples where II holds,
per cell (class of a1, class of a2).

What the authors' released code does, reproduced here: the comparison is strict ``<``;
noun pairs are unordered (66 pairs of 12 nouns), adjective pairs ordered (61 x 60 = 3,660), so
241,560 comparisons; cells are averaged *per first noun* (the mean over n1's partners, then the
mean over the 11 first nouns), which weights noun pairs unequally. ``aggregation="pairs"``
gives every noun pair the same weight instead.

Consequences (property tests): without ties every cell (X, X) is exactly 0.5 and
(Y, X) = 1 - (X, Y), for both aggregations, because every ordered adjective pair also appears
reversed and exactly one of the two comparisons holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from compsem.modifiers.lexicon import CLASSES, Lexicon
from compsem.modifiers.space import Space

AGGREGATIONS = ("per_noun", "pairs")


@dataclass(frozen=True)
class PairComparisons:
    """All comparisons of Eq. 5 for one model.

    ``distances[a, q]`` = d("a n1", "a n2") for adjective a and noun pair q = ``noun_pairs[q]``
    (index pairs i < j into the lexicon's nouns); ``holds[a1, a2, q]`` = Eq. 5 (False on the
    diagonal a1 = a2); ``labels`` = class code per adjective.
    """

    distances: np.ndarray
    holds: np.ndarray
    noun_pairs: list[tuple[int, int]]
    labels: np.ndarray
    nouns: list[str]
    adjectives: list[str]

    @property
    def n_comparisons(self) -> int:
        """Ordered adjective pairs times noun pairs (241,560 for the study's lexicon)."""
        n = len(self.adjectives)
        return n * (n - 1) * len(self.noun_pairs)

    def weights(self, aggregation: str = "per_noun") -> np.ndarray:
        """The weight of each noun pair in a cell score (summing to 1): ``per_noun`` gives each
        first noun 1/11 shared among its partners (the authors' code); ``pairs`` gives each
        noun pair 1/66."""
        return noun_pair_weights(self.noun_pairs, aggregation)

    def weighted_holds(self, aggregation: str = "per_noun") -> np.ndarray:
        """Σ_q w_q holds[a1, a2, q]: an (n_adj, n_adj) matrix whose block sums, divided by the
        number of adjective pairs in the block, are the cell scores."""
        return np.tensordot(
            self.holds.astype(np.float64), self.weights(aggregation), axes=([2], [0])
        )


def noun_pair_weights(
    noun_pairs: list[tuple[int, int]], aggregation: str = "per_noun"
) -> np.ndarray:
    """See :meth:`PairComparisons.weights`."""
    if aggregation not in AGGREGATIONS:
        raise ValueError(f"aggregation must be one of {AGGREGATIONS}, not {aggregation!r}")
    if aggregation == "pairs":
        return np.full(len(noun_pairs), 1.0 / len(noun_pairs))
    first = np.array([i for i, _ in noun_pairs])
    firsts, partners = np.unique(first, return_counts=True)
    share = dict(zip(firsts, 1.0 / (len(firsts) * partners), strict=True))
    return np.array([share[i] for i in first])


def compare(space: Space, lexicon: Lexicon, strict: bool = True) -> PairComparisons:
    """Evaluate Eq. 5 for every ordered adjective pair and unordered noun pair, vectorised.

    ``space`` must hold the AN phrases ("adjective noun", lower-cased). ``strict=False`` uses
    ``<=`` (an ablation; the paper prints ``<=``, the code uses ``<``).
    """
    adjectives = list(lexicon.adjectives["word"])
    nouns = list(lexicon.nouns["word"])
    noun_pairs = [(i, j) for i in range(len(nouns)) for j in range(i + 1, len(nouns))]
    first = [f"{a} {nouns[i]}" for a in adjectives for i, _ in noun_pairs]
    second = [f"{a} {nouns[j]}" for a in adjectives for _, j in noun_pairs]
    distances = space.distance(first, second).reshape(len(adjectives), len(noun_pairs))
    d1, d2 = distances[:, None, :], distances[None, :, :]
    holds = d1 < d2 if strict else d1 <= d2
    holds[np.arange(len(adjectives)), np.arange(len(adjectives)), :] = False
    return PairComparisons(
        distances, holds, noun_pairs, lexicon.adjectives["cls"].to_numpy(), nouns, adjectives
    )


def scores(comparisons: PairComparisons, aggregation: str = "per_noun") -> pd.DataFrame:
    """Eq. 6 per cell as a 5 x 5 frame (rows: class of a1, columns: class of a2): the block
    means of :meth:`PairComparisons.weighted_holds` over a1 in X, a2 in Y, a1 != a2."""
    from compsem.modifiers.statistics import cell_scores

    off_diagonal = 1.0 - np.eye(len(comparisons.labels))
    values = cell_scores(comparisons.weighted_holds(aggregation), off_diagonal, comparisons.labels)
    return pd.DataFrame(values, index=list(CLASSES), columns=list(CLASSES))


def as_cells(table: pd.DataFrame) -> dict[tuple[str, str], float]:
    """A 5 x 5 score frame as ``{(X, Y): score}``."""
    return {(x, y): float(table.loc[x, y]) for x in table.index for y in table.columns}


def per_noun_pair(comparisons: PairComparisons, cell: tuple[str, str]) -> pd.Series:
    """The score of one cell on each noun pair alone (index ``"n1 / n2"``), for the per-noun
    spread the paper does not report."""
    x, y = cell
    a = comparisons.labels == x
    b = comparisons.labels == y
    block = comparisons.holds[np.ix_(a, b)]
    n = a.sum() * b.sum() - (a & b).sum()
    values = block.sum(axis=(0, 1)) / n
    index = [f"{comparisons.nouns[i]} / {comparisons.nouns[j]}" for i, j in comparisons.noun_pairs]
    return pd.Series(values, index=index, name=f"({x}, {y})")


NORM_TIE_RTOL = 1e-5
"""Adjective norms within this relative difference are a tie in :func:`norm_rule_agreement`:
a unit-length float32 vector's norm is 1 give or take ~1e-7 (rounding)."""


def norm_rule_agreement(comparisons: PairComparisons, space: Space, rtol: float = NORM_TIE_RTOL) -> float:
    """How far Eq. 5 is a comparison of adjective norms: the share of ordered adjective pairs
    (a1 != a2) for which "Eq. 5 holds on most noun pairs" coincides with |a1| > |a2| (the
    single-word vectors in ``space``). Near 1 for pooled static vectors, where a longer
    adjective vector pulls its phrases together (the closed form of
    :mod:`compsem.modifiers.subsectivity`); near 0.5 when norms say nothing.

    Pairs whose norms tie (within ``rtol``) are left out, and with every pair tied the share is
    NaN: an encoder that scales its vectors to unit length (MiniLM, MPNet) has norms that
    differ only by rounding, and which of two rounded 1.0s is larger says nothing about the
    adjectives (it changes with the CPU's kernels)."""
    norms = space.norm(comparisons.adjectives)
    longer = norms[:, None] > norms[None, :]
    ordered = np.abs(norms[:, None] - norms[None, :]) > rtol * np.maximum(norms[:, None], norms[None, :])
    counted = ordered & ~np.eye(len(norms), dtype=bool)
    if not counted.any():
        return float("nan")
    mostly = comparisons.holds.mean(axis=2) > 0.5
    return float((mostly == longer)[counted].mean())


def norm_spread(space: Space, words: Sequence[str]) -> float:
    """(max - min) / max of the norms of ``words``' vectors: about 1e-7 for an encoder that
    scales its vectors to unit length, where :func:`norm_rule_agreement` has no pairs."""
    norms = space.norm(list(words))
    return float((norms.max() - norms.min()) / norms.max())
