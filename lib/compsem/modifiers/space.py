"""Embedded strings and the cosine distance of all three tests (Carvalho et al., §3.2, §4.1).

"In all our experiments we use the cosine distance": d(u, v) = 1 - cos(u, v). As in the authors'
code (``1 - torch.cosine_similarity``, eps 1e-8) a zero vector, e.g. a phrase of words that are
all out of vocabulary, has cosine 0 with everything, so its distance to anything is exactly 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

EPS = 1e-8
CHUNK = 8192


class Space:
    """Strings and their vectors, with vectorised cosine distances between named strings.

    ``texts`` are distinct strings and ``vectors`` the matching rows (any float dtype);
    ``oov`` records the words a pooled word-vector model did not know.
    Distances are computed in float64 from the unit-normalised rows.
    """

    def __init__(
        self, texts: Sequence[str], vectors: np.ndarray, name: str = "", oov: Sequence[str] = ()
    ):
        vectors = np.asarray(vectors)
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise ValueError(
                f"vectors must have one row per text: {len(texts)} texts, shape {vectors.shape}"
            )
        self.name = name
        self.oov = list(oov)  # words a word-vector model did not know (zero vectors)
        self.texts = list(texts)
        self.index = {t: i for i, t in enumerate(self.texts)}
        if len(self.index) != len(self.texts):
            raise ValueError("texts must be distinct")
        self.vectors = vectors
        norms = np.linalg.norm(vectors.astype(np.float64), axis=1)
        self.norms = norms
        self.unit = vectors.astype(np.float64) / np.maximum(norms, EPS)[:, None]

    def __repr__(self) -> str:
        return f"Space({self.name!r}, {len(self.texts)} strings, dim {self.vectors.shape[1]})"

    def __contains__(self, text: object) -> bool:
        return text in self.index

    def __len__(self) -> int:
        return len(self.texts)

    def rows(self, texts: Sequence[str] | np.ndarray) -> np.ndarray:
        """Row numbers of ``texts``; a string that was not embedded raises KeyError naming it."""
        try:
            return np.fromiter((self.index[t] for t in texts), dtype=np.int64, count=len(texts))
        except KeyError as err:
            raise KeyError(
                f"{err.args[0]!r} was not embedded in {self.name or 'this space'}; embed "
                "phrases.strings_needed(...) for the phrases you test"
            ) from None

    def distance(self, a: Sequence[str] | np.ndarray, b: Sequence[str] | np.ndarray) -> np.ndarray:
        """Element-wise cosine distance d(a[i], b[i]) = 1 - cos, float64."""
        ra, rb = self.rows(a), self.rows(b)
        if len(ra) != len(rb):
            raise ValueError(f"a and b differ in length: {len(ra)} vs {len(rb)}")
        out = np.empty(len(ra), dtype=np.float64)
        for s in range(0, len(ra), CHUNK):
            u, v = self.unit[ra[s : s + CHUNK]], self.unit[rb[s : s + CHUNK]]
            out[s : s + CHUNK] = 1.0 - np.einsum("ij,ij->i", u, v)
        return out

    def norm(self, texts: Sequence[str] | np.ndarray) -> np.ndarray:
        """Euclidean norms of the vectors of ``texts``."""
        return self.norms[self.rows(texts)]


def cosine_distance(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """1 - cos(u, v) along the last axis; 1 where either vector is zero (as torch with eps)."""
    u = np.asarray(u, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    nu = np.maximum(np.linalg.norm(u, axis=-1), EPS)
    nv = np.maximum(np.linalg.norm(v, axis=-1), EPS)
    return 1.0 - np.sum(u * v, axis=-1) / (nu * nv)
