"""Sentence-transformers models as :class:`~compsem.models.base.Encoder` s: the packaged ones
(``minilm``, ``mpnet``) and any hub model (``hf:<id>``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from compsem.devices import resolve_device
from compsem.models.base import ModelUnavailableError, check_texts
from compsem.models.hub import hf_is_cached, hub_reachable, needs_network, offline


class SentenceTransformerEncoder:
    """A sentence-transformers model (mean pooling etc. as configured in its directory).

    ``source`` is a local directory, a hub id, or a function returning one (called on first load,
    so that e.g. the mpnet join happens only when the model is used).
    """

    def __init__(
        self,
        name: str,
        source: str | Path | Callable[[], str | Path],
        dim: int | None = None,
        device: str = "auto",
        normalize: bool = False,
        before_load: Callable[[], None] | None = None,
    ):
        self.name = name + ("-normalized" if normalize else "")
        self.source = source
        self.device = device
        self.normalize = normalize
        self._dim = dim
        self._model = None
        self._before_load = before_load

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, device={self.device!r})"

    @property
    def model(self):
        """The loaded ``SentenceTransformer`` (loaded on first access)."""
        if self._model is None:
            if self._before_load:
                self._before_load()
            source = self.source() if callable(self.source) else self.source
            from sentence_transformers import SentenceTransformer

            try:
                self._model = SentenceTransformer(str(source), device=resolve_device(self.device))
            except OSError as err:
                raise ModelUnavailableError(needs_network(str(source), err)) from err
        return self._model

    @property
    def dim(self) -> int:
        if self._dim is None:
            get = (
                getattr(self.model, "get_embedding_dimension", None)
                or self.model.get_sentence_embedding_dimension
            )
            self._dim = int(get())
        return self._dim

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, show_progress: bool = False
    ) -> np.ndarray:
        """Sentence embeddings, float32, shape ``(len(texts), dim)``."""
        texts = check_texts(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self.model.encode(
            texts,
            batch_size=batch_size,
            show_progress_bar=show_progress,
            convert_to_numpy=True,
            normalize_embeddings=self.normalize,
        )
        return np.asarray(out, dtype=np.float32)


def hf_encoder(hub_id: str, device: str = "auto", normalize: bool = False):
    """A sentence-transformers model by hub id, e.g. ``hf:sentence-transformers/all-MiniLM-L12-v2``.

    With ``HF_HUB_OFFLINE`` set, or the hub unreachable (:func:`hub_reachable`), and the model
    not cached this fails at once with :class:`ModelUnavailableError` naming the packaged
    alternatives. Note that the cache key is
    the id: if the hub model changes, clear its embedding cache.
    """
    if not hub_id:
        raise ValueError("'hf:' needs a hub id, e.g. 'hf:sentence-transformers/all-MiniLM-L12-v2'")

    def check() -> None:
        if Path(hub_id).expanduser().is_dir() or hf_is_cached(hub_id):
            return
        if offline():
            raise ModelUnavailableError(needs_network(hub_id) + " HF_HUB_OFFLINE is set.")
        if not hub_reachable():
            raise ModelUnavailableError(
                needs_network(hub_id) + " The hub is unreachable (no connection to it within "
                "2 s); set HF_HUB_OFFLINE=1 to skip this check.")

    check()  # fail early; checked again at load time
    return SentenceTransformerEncoder(
        f"hf:{hub_id}", hub_id, device=device, normalize=normalize, before_load=check
    )
