"""Sentence vectors and probe features for the probing classifiers.

Sentence encoders, by name (:func:`encode`):

- ``bow``: one-hot bag of words, 1 where a token type occurs (the permutation-invariant
  control: it cannot see order, so it must sit at chance where a task needs structure);
- ``random``: a random Gaussian vector per sentence (seeded by the text: the same sentence
  always gets the same vector), the 2018 "random sentence vectors" control;
- any name of :func:`compsem.models.get_encoder` (``glove50`` = averaged GloVe, ``minilm``,
  ``mpnet``, ``mpnet:layer<k>``, ``mpnet:layer<k>:cls``, ...), through the embedding cache.

Probe features (Ettinger et al. 2018, after Adi et al. 2017): the probe word(s) as one-hot
vectors (:func:`probe_features`), or random vectors in the "random probe vectors" control.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pandas as pd

BASELINES = ("bow", "random")
"""This study's model-free sentence vectors: one-hot bag of words, random vectors."""


def unique_texts(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """``(unique texts in first-seen order, index of each input text into them)``."""
    index: dict[str, int] = {}
    rows = np.array([index.setdefault(t, len(index)) for t in texts], dtype=np.int64)
    return list(index), rows


def bow(texts: Sequence[str], vocabulary: Sequence[str] | None = None) -> tuple[np.ndarray, list]:
    """One-hot bag of words: ``(X, vocabulary)`` with ``X[i, j] = 1`` when token type
    ``vocabulary[j]`` occurs in ``texts[i]`` (whitespace tokens). The vocabulary defaults to the
    sorted token types of ``texts``; tokens outside it are ignored."""
    vocab = (
        sorted({tok for t in texts for tok in t.split()})
        if vocabulary is None
        else list(vocabulary)
    )
    column = {w: j for j, w in enumerate(vocab)}
    X = np.zeros((len(texts), len(vocab)), dtype=np.float32)
    for i, text in enumerate(texts):
        for tok in text.split():
            j = column.get(tok)
            if j is not None:
                X[i, j] = 1.0
    return X, vocab


def random_vectors(texts: Sequence[str], dim: int = 300, seed: int = 0) -> np.ndarray:
    """A standard Gaussian vector per text, determined by (text, seed) alone."""
    out = np.empty((len(texts), dim), dtype=np.float32)
    for i, text in enumerate(texts):
        digest = hashlib.sha256(f"{seed}\x00{text}".encode()).digest()
        out[i] = np.random.default_rng(int.from_bytes(digest[:8], "little")).standard_normal(dim)
    return out


def encode(
    name: str,
    texts: Sequence[str],
    random_dim: int = 300,
    seed: int = 0,
    batch_size: int = 64,
    device: str = "auto",
) -> np.ndarray:
    """Vectors of ``texts`` from the encoder called ``name`` (see the module docstring); each
    distinct text is encoded once (through the on-disk cache for model encoders)."""
    from compsem.models.spec import parse_spec

    parse_spec(name, baselines=BASELINES)  # a clear error for an unknown name
    unique, rows = unique_texts(texts)
    if name == "bow":
        X = bow(unique)[0]
    elif name == "random":
        X = random_vectors(unique, random_dim, seed)
    else:
        from compsem.models import cached_encode, get_encoder

        X = cached_encode(get_encoder(name, device=device), unique, batch_size=batch_size)
    return np.asarray(X, dtype=np.float32)[rows]


def onehot(values: Sequence[str], vocabulary: Sequence[str]) -> np.ndarray:
    """One-hot rows of ``values`` over ``vocabulary``; ``""`` gives a zero row, an unknown value
    raises ValueError."""
    column = {w: j for j, w in enumerate(vocabulary)}
    X = np.zeros((len(values), len(vocabulary)), dtype=np.float32)
    for i, value in enumerate(values):
        if value == "":
            continue
        if value not in column:
            raise ValueError(f"probe {value!r} is not in the probe vocabulary {list(vocabulary)}")
        X[i, column[value]] = 1.0
    return X


def probe_vocabularies(items: pd.DataFrame) -> tuple[list[str], list[str]]:
    """The sorted probe words of ``items``: ``(first probes, second probes)``."""
    first = sorted(v for v in items["probe"].unique() if v)
    second = sorted(v for v in items["probe2"].unique() if v)
    return first, second


def probe_features(items: pd.DataFrame, random: bool = False, seed: int = 0) -> np.ndarray:
    """The probe part of each item's input: one-hot of ``probe`` then of ``probe2`` (vocabulary
    from all items, train and test); zero columns for an unprobed task. ``random=True``: the
    2018 "random probe vectors" control, a fresh Gaussian vector per item of the same width,
    so the probe carries no information."""
    first, second = probe_vocabularies(items)
    P = np.hstack(
        [onehot(items["probe"].tolist(), first), onehot(items["probe2"].tolist(), second)]
    ).astype(np.float32)
    if random:
        P = np.random.default_rng(seed).standard_normal(P.shape).astype(np.float32)
    return P
