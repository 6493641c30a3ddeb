"""Sentence-transformers models as :class:`~compsem.models.base.Encoder` s: the packaged ones
(``minilm``, ``mpnet``) and any hub model (``hf:<id>``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from compsem.devices import resolve_device
from compsem.models.base import ModelUnavailableError, check_texts, equal_length_batches
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
    def resolved_device(self) -> str:
        """The device the model computes on (``"auto"`` resolved)."""
        return resolve_device(self.device)

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
        """Sentence embeddings, float32, shape ``(len(texts), dim)``, rows in input order.

        Texts go in batches of equal token count (:func:`~compsem.models.base.equal_length_batches`):
        no padding, so a text's vector does not depend on the texts encoded with it."""
        texts = check_texts(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        batches = equal_length_batches(token_counts(self.model, texts), batch_size)
        if show_progress:
            from tqdm.auto import tqdm

            batches = tqdm(batches, desc=self.name, unit="batch")
        for rows in batches:
            out[rows] = self.model.encode(
                [texts[i] for i in rows],
                batch_size=len(rows),
                show_progress_bar=False,
                convert_to_numpy=True,
                normalize_embeddings=self.normalize,
            )
        return out


def token_counts(model, texts: Sequence[str], chunk: int = 1024) -> np.ndarray:
    """How many tokens ``model`` (a ``SentenceTransformer``) feeds its transformer for each text,
    truncation included (its own preprocessing, so the count is the one it pads to)."""
    preprocess = getattr(model, "preprocess", None) or model.tokenize
    counts = [
        np.asarray(preprocess(list(texts[i:i + chunk]))["attention_mask"].sum(1))
        for i in range(0, len(texts), chunk)
    ]
    return np.concatenate(counts).astype(np.int64)


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
