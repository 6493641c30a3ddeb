"""The synonym control of the 2025 version (004 §3.4 and Appendix A), as run here.

004 lists one hand-picked synonym per adjective ("a closest synonym was chosen for the phrase
pair intersectivity test, totaling 122 adjectives") and says the pair test accounts "for
synonymy, if present", but no table uses the synonyms and the authors' code does not use them in
the pair test (their released repository). This module gives them the role the text describes, as a *control* of
Eq. 5: the second adjective is the first one's own synonym,

    SC = d(a n1, a n2) < d(syn(a) n1, syn(a) n2)                         (Eq. 5, a2 = syn(a1))

A synonym is chosen to mean what its adjective means, and so in general to belong to its class
(where the lexicon classifies a synonym itself the classes mostly agree; *former*, the synonym
of the privative *ex-*, is plain non-subsective: the chapter lists it), so if the pair test
measured the adjective's class (its intersectivity) SC would be a coin flip: 0.5 in every class, as the
diagonal cells (X, X) of Eq. 6 are by construction. A class score far from 0.5 says that the
pair test reacts to the particular word (its frequency, its vector's length) rather than to
the set-theoretic class. Noun pairs, the strict ``<`` and the per-first-noun weighting are those
of :mod:`compsem.modifiers.pairs`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from compsem.modifiers import pairs as pair_test
from compsem.modifiers.lexicon import CLASSES, Lexicon
from compsem.modifiers.space import Space


def phrase_strings(lexicon: Lexicon) -> list[str]:
    """The AN phrases of the synonyms ("feral dog", ...), lower-cased as the lexicon's words."""
    syns = lexicon.adjectives["synonym"].str.lower().tolist()
    return [f"{s} {n}" for s in dict.fromkeys(syns) for n in lexicon.nouns["word"]]


@dataclass(frozen=True)
class SynonymControl:
    """``holds[a, q]``: SC for adjective a and noun pair q; ``weights[q]``: the per-first-noun
    weights of the authors' pair aggregation; ``labels``: class per adjective."""

    holds: np.ndarray
    weights: np.ndarray
    labels: np.ndarray
    adjectives: list[str]
    synonyms: list[str]

    def per_adjective(self) -> pd.Series:
        """The weighted share of noun pairs on which SC holds, for each adjective."""
        return pd.Series(self.holds.astype(float) @ self.weights, index=self.adjectives)

    def scores(self) -> dict[tuple[str], float]:
        """Class scores (mean over the class's adjectives of :meth:`per_adjective`)."""
        per = self.per_adjective().to_numpy()
        return {(c,): float(per[self.labels == c].mean()) for c in CLASSES}

    def grid(self) -> np.ndarray:
        """An adjective grid ``(n_adj, n_noun_pairs)`` whose row means are
        :meth:`per_adjective` (columns rescaled by the weights), for the bootstrap."""
        return self.holds.astype(float) * self.weights[None, :] * len(self.weights)


def compare(space: Space, lexicon: Lexicon, strict: bool = True) -> SynonymControl:
    """Evaluate SC for every adjective and unordered noun pair. ``space`` must hold the AN
    phrases of the adjectives and of their synonyms (:func:`phrase_strings`)."""
    adjectives = list(lexicon.adjectives["word"])
    synonyms = lexicon.adjectives["synonym"].str.lower().tolist()
    nouns = list(lexicon.nouns["word"])
    noun_pairs = [(i, j) for i in range(len(nouns)) for j in range(i + 1, len(nouns))]

    def distances(words):
        first = [f"{a} {nouns[i]}" for a in words for i, _ in noun_pairs]
        second = [f"{a} {nouns[j]}" for a in words for _, j in noun_pairs]
        return space.distance(first, second).reshape(len(words), len(noun_pairs))

    base, syn = distances(adjectives), distances(synonyms)
    holds = base < syn if strict else base <= syn
    weights = pair_test.noun_pair_weights(noun_pairs, "per_noun")
    return SynonymControl(
        holds, weights, lexicon.adjectives["cls"].to_numpy(), adjectives, synonyms
    )
