"""Phrases of the regular language ``(adj)+ noun`` (Carvalho et al., §4.1.2 of both versions).

"All the phrases up to 3 words were generated ... The final dataset contains 44652 phrases":
61 x 12 = 732 AN phrases and 61 x 60 x 12 = 43,920 AAN phrases with two *different* adjectives
in either order (the authors' generator drops a repeated word, so "red red dog" is "red dog").
Adjective order is not filtered: both "red wild dog" and "wild red dog" are phrases.

A *cell* is the tuple of adjective classes in word order: ``("NS-Pr", "S-I")`` holds the AAN
phrases whose first adjective is privative and second intersective (001 Table 6 column
"(NS-Pr, S-I)"). Cell sizes: |X| x 12 for AN; |X| |Y| x 12 (X != Y) and |X| (|X| - 1) x 12
(X = Y) for AAN.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pandas as pd

from compsem.modifiers.lexicon import CLASSES, Lexicon


def sequences(lexicon: Lexicon, max_adjectives: int = 2) -> Iterator[tuple[str, ...]]:
    """Every word sequence of the authors' grammar ``S -> ADJS NOUN; ADJS -> ADJS ADJ | ADJ |
    eps; NOUN -> noun | eps`` with at most ``max_adjectives`` distinct adjectives and repeated
    words removed: the empty sequence, lone adjectives, lone nouns, adjective-only sequences
    and the phrases. For the study's lexicon and two adjectives: 48,386 sequences (as the
    authors' released ``phrase_gen.py`` generates them), of which 44,652 are phrases."""
    adjectives = list(lexicon.adjectives["word"])
    nouns = list(lexicon.nouns["word"])
    for k in range(max_adjectives + 1):
        for adjs in itertools.permutations(adjectives, k):
            yield adjs
            for noun in nouns:
                yield (*adjs, noun)


def generate(lexicon: Lexicon, max_words: int = 3) -> pd.DataFrame:
    """The phrases of ``(adj)+ noun`` with 2 to ``max_words`` words (distinct adjectives).

    Columns: ``text`` (words joined by a space), ``kind`` (``"AN"``, ``"AAN"``, ...),
    ``adjectives`` (tuple, in word order), ``noun``, ``cell`` (tuple of adjective classes),
    and for up to two adjectives ``adj1``, ``adj2``, ``cls1``, ``cls2`` (None where absent).
    Rows: AN phrases (adjective-major, Appendix A order), then AAN phrases.
    """
    if max_words < 2:
        raise ValueError(f"max_words must be >= 2 (an adjective and a noun), got {max_words}")
    classes = lexicon.adjective_classes
    adjectives = list(lexicon.adjectives["word"])
    nouns = list(lexicon.nouns["word"])
    rows = []
    for k in range(1, max_words):
        kind = "A" * k + "N"
        for adjs in itertools.permutations(adjectives, k):
            cell = tuple(classes[a] for a in adjs)
            for noun in nouns:
                rows.append((" ".join((*adjs, noun)), kind, adjs, noun, cell))
    frame = pd.DataFrame(rows, columns=["text", "kind", "adjectives", "noun", "cell"])
    for i in (1, 2):
        frame[f"adj{i}"] = [a[i - 1] if len(a) >= i else None for a in frame["adjectives"]]
        frame[f"cls{i}"] = [c[i - 1] if len(c) >= i else None for c in frame["cell"]]
    return frame


def an_phrases(lexicon: Lexicon) -> pd.DataFrame:
    """The AN phrases (61 x 12 = 732 for the study's lexicon); see :func:`generate`."""
    return generate(lexicon, max_words=2)


def aan_phrases(lexicon: Lexicon) -> pd.DataFrame:
    """The AAN phrases (61 x 60 x 12 = 43,920); see :func:`generate`."""
    frame = generate(lexicon, max_words=3)
    return frame[frame["kind"] == "AAN"].reset_index(drop=True)


def expected_cell_sizes(lexicon: Lexicon, kind: str = "AN") -> dict[tuple[str, ...], int]:
    """Phrases per cell from the class sizes alone: |X| n for AN;
    |X| |Y| n (X != Y) and |X| (|X| - 1) n (X = Y) for AAN, n = number of nouns."""
    sizes = lexicon.class_sizes()
    n = len(lexicon.nouns)
    if kind == "AN":
        return {(x,): sizes[x] * n for x in CLASSES}
    if kind == "AAN":
        return {(x, y): (sizes[x] * (sizes[y] - (x == y))) * n for y in CLASSES for x in CLASSES}
    raise ValueError(f"kind must be 'AN' or 'AAN', not {kind!r}")


def bipartitions(words: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every split of a phrase's words into two non-empty groups, each group joined in word
    order: ``("a1","a2","n")`` -> ``[("a1","a2 n"), ("a2","a1 n"), ("a1 a2","n")]``. The
    authors' code compares the phrase against these (the code-faithful Eq. 3); for two words
    this is the single pair (adjective, noun), as in the paper."""
    h = len(words)
    out = []
    for mask in range(1, 2 ** (h - 1)):  # the last word is always on the right: each split once
        left = [w for i, w in enumerate(words) if mask >> i & 1]
        right = [w for i, w in enumerate(words) if not mask >> i & 1]
        out.append((" ".join(left), " ".join(right)))
    return out


def strings_needed(
    lexicon: Lexicon, phrases: pd.DataFrame | None = None, bipartition: bool = True
) -> list[str]:
    """Every distinct string the three tests embed, in a stable order: the single words, the
    phrases and (``bipartition=True``) the sub-phrases of the code-faithful Eq. 3, e.g. the
    3,660 adjective bigrams "a1 a2" of the AAN test. For AN phrases only: 61 + 12 + 732 = 805
    strings; with the AAN phrases: 48,385."""
    phrases = an_phrases(lexicon) if phrases is None else phrases
    out = dict.fromkeys(lexicon.words())
    out.update(dict.fromkeys(phrases["text"]))
    if bipartition:
        pairs = zip(phrases["adjectives"], phrases["noun"], strict=True)
        for words in dict.fromkeys((*a, n) for a, n in pairs):
            for left, right in bipartitions(words):
                out.setdefault(left)
                out.setdefault(right)
    return list(out)


def cell_sizes(phrases: pd.DataFrame) -> dict[tuple[str, ...], int]:
    """Phrases per cell of a phrase table (to compare with :func:`expected_cell_sizes`)."""
    counts = phrases.groupby("cell").size()
    return {tuple(k): int(v) for k, v in counts.items()}


def word_matrix(phrases: pd.DataFrame) -> np.ndarray:
    """The words of equal-length phrases as a string array ``(n_phrases, h)``."""
    lengths = {len(a) for a in phrases["adjectives"]}
    if len(lengths) != 1:
        raise ValueError(f"phrases of one length expected, got adjective counts {sorted(lengths)}")
    return np.array(
        [(*a, n) for a, n in zip(phrases["adjectives"], phrases["noun"], strict=True)], dtype=object
    )
