"""The one protocol every encoder follows, and the errors the model layer raises.

An *encoder* maps a list of texts to a float32 matrix, one row per text, rows in input order.
Its ``name`` is a stable id: the embedding cache (:mod:`compsem.models.cache`) keys vectors by
``(name, sha256(text))``, so two encoders that can give different vectors (another model,
another option such as normalisation) must have different names.

Encoders built from static word vectors (GloVe, spaCy) also carry ``word_vectors``
(:class:`WordVectors`), because later chapters compose word vectors themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from compsem.errors import ModelUnavailableError

__all__ = ["Encoder", "WordVectors", "ModelUnavailableError", "check_texts", "equal_length_batches"]


@runtime_checkable
class Encoder(Protocol):
    """Anything that turns texts into vectors.

    Attributes
    ----------
    name
        A stable id used for caching; includes variant options (e.g. ``"minilm-normalized"``).
    dim
        The length of every vector.
    """

    name: str
    dim: int

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, show_progress: bool = False
    ) -> np.ndarray:
        """Return a float32 array of shape ``(len(texts), dim)``, rows in input order."""
        ...


@runtime_checkable
class WordVectors(Protocol):
    """A static word-vector lookup (GloVe, spaCy vectors).

    ``vector(word)`` gives the vector of ``word`` exactly as spelled (no lowercasing here:
    callers decide), or None when the word is not in the vocabulary.
    """

    dim: int

    def vector(self, word: str) -> np.ndarray | None: ...

    @property
    def vocab(self) -> Sequence[str]: ...

    def __contains__(self, word: object) -> bool: ...


def check_texts(texts: Iterable[str]) -> list[str]:
    """``texts`` as a list of str; a bare string is refused (it would be read as characters)."""
    if isinstance(texts, str):
        raise TypeError("encode() takes a sequence of texts, not a single string; wrap it: [text]")
    texts = list(texts)
    for i, t in enumerate(texts):
        if not isinstance(t, str):
            raise TypeError(f"texts[{i}] is {type(t).__name__}, not str: {t!r}")
    return texts


def equal_length_batches(lengths: Sequence[int], batch_size: int) -> list[np.ndarray]:
    """Positions of texts in batches of at most ``batch_size`` whose texts all have the same
    length (token count), longest first, input order within a length.

    A transformer batch padded to its longest text rounds each text's vector differently with
    the texts around it (MiniLM on STS3k sentences: up to 9e-8, 23 of 50 vectors changed;
    measured 2026-11-24), so the embedding cache would hold bits that depend on which texts
    happened to be missing together, and a chapter's digits on what ran before it. Without
    padding a vector depends on its text alone (identical bits in batches of 1, 7, 32 and 64,
    measured), and no arithmetic is spent on padding tokens.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, not {batch_size}")
    lengths = np.asarray(lengths, dtype=np.int64)
    order = np.argsort(-lengths, kind="stable")
    runs = np.split(order, np.flatnonzero(np.diff(lengths[order])) + 1) if len(order) else []
    return [same[i:i + batch_size] for same in runs for i in range(0, len(same), batch_size)]
