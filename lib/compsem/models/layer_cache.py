"""Several layers of a transformer from one forward pass, each into its own embedding cache.

>>> by_layer = cached_encode_layers("mpnet", texts, [0, 12])         # one forward pass, two layers
>>> cached_encode(get_encoder("mpnet:layer0"), texts)                # now a cache hit

The layer encoders are :mod:`compsem.models.layers`, the cache :mod:`compsem.models.cache`; this
module sits above both (and the registry, for the sentence encoder filled from the same pass).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from compsem.models.base import check_texts
from compsem.models.cache import cached_encode
from compsem.models.cache import missing as missing_texts
from compsem.models.layers import l2_normalise, layer_encoder, layer_model, read_json, resolve_layer
from compsem.models.registry import get_encoder


class _Prefilled:
    """An encoder that answers from vectors already computed (fills a cache without a model)."""

    def __init__(self, like, vectors: dict[str, np.ndarray]):
        """Answers as the encoder ``like`` (its name and device, so its cache folder)."""
        self.name, self.dim, self.vectors = like.name, -1, vectors
        self.resolved_device = like.resolved_device

    def encode(self, texts, batch_size=64, show_progress=False):
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.vectors[t] for t in texts])


def _is_mean_normalize_pipeline(source: str) -> bool:
    """Whether a sentence-transformers directory is exactly Transformer -> mean Pooling ->
    Normalize (then its sentence embedding is the normalised last-layer mean)."""
    modules = read_json(source, "modules.json")
    if not modules:
        return False
    kinds = [m.get("type", "").rsplit(".", 1)[-1] for m in modules]
    if kinds != ["Transformer", "Pooling", "Normalize"]:
        return False
    pooling = read_json(str(Path(source) / modules[1]["path"]), "config.json") or {}
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode") and v]
    return modes == ["pooling_mode_mean_tokens"]


def fills_sentence(base: str, device: str = "auto") -> bool:
    """Whether the layer pass of ``base`` can also fill its sentence encoder's cache
    (``sentence=True`` of :func:`cached_encode_layers`): a Transformer -> mean Pooling ->
    Normalize sentence-transformer, whose sentence embedding is the normalised last-layer mean."""
    return _is_mean_normalize_pipeline(layer_model(base, device).source)


def cached_encode_layers(
    base: str,
    texts: Sequence[str],
    layers: Iterable[int | str],
    device: str = "auto",
    normalize: bool = False,
    sentence: bool = False,
    cache: bool = True,
    batch_size: int = 64,
    show_progress: bool = False,
    pooling: str | Sequence[str] = "mean",
) -> dict:
    """Pooled states of several layers of ``base`` from ONE forward pass, through the cache.

    Returns ``{layer: float32 (len(texts), dim)}`` keyed as asked (``12``, ``"last"``, ...).
    Texts missing from any requested layer's cache are run through the model once; every
    layer's cache (``<base>:layer<k>``) then receives its missing vectors, so a later
    ``cached_encode(get_encoder("mpnet:layer12"), texts)`` is a cache hit. ``sentence=True``
    also fills (and returns under the key ``"sentence"``) the sentence-transformers encoder
    ``base`` (``mpnet``, ``minilm``, ``hf:<id>``) from the normalised last layer; this is only
    allowed for a Transformer -> mean Pooling -> Normalize model, where they are the same.

    ``pooling``: ``"mean"`` (default) or ``"cls"`` (first token, caches ``<base>:layer<k>:cls``);
    a sequence such as ``("mean", "cls")`` gives both from the same pass, keyed
    ``(layer, pooling)``.
    """
    texts = check_texts(texts)
    layers = list(layers)
    several = not isinstance(pooling, str)
    poolings = list(dict.fromkeys(pooling)) if several else [pooling]
    if not poolings:
        raise ValueError("pooling: give at least one of 'mean', 'cls'")
    encoders = {
        ((key, p) if several else key): layer_encoder(base, key, p, device, normalize)
        for key in layers
        for p in poolings
    }
    targets = dict(encoders)
    model = layer_model(base, device)
    needed = {enc.layer for enc in encoders.values()}
    if sentence:
        if not _is_mean_normalize_pipeline(model.source):
            raise ValueError(
                f"{base} is not a Transformer -> mean Pooling -> Normalize sentence-transformer; "
                "its sentence embedding cannot come from the layer pass"
            )
        st = get_encoder(base, device=device)
        last = resolve_layer(base, "last")[0]
        needed.add(last)
        targets["sentence"] = st
    if not texts:
        return {key: np.zeros((0, enc.dim), dtype=np.float32) for key, enc in targets.items()}
    needed_poolings = set(poolings) | ({"mean"} if sentence else set())
    if not cache:
        computed = model.encode_layer_poolings(
            texts, needed, needed_poolings, batch_size, show_progress
        )
        return {key: _finish(key, enc, computed, normalize) for key, enc in targets.items()}

    missing: dict[str, None] = {}
    for enc in targets.values():
        for text in missing_texts(enc, texts):
            missing.setdefault(text)
    unique = list(missing)
    computed = {}
    if unique:
        computed = model.encode_layer_poolings(
            unique, needed, needed_poolings, batch_size, show_progress
        )
    result = {}
    for key, enc in targets.items():
        vectors = {}
        if unique:
            vectors = dict(zip(unique, _finish(key, enc, computed, normalize), strict=True))
        result[key] = cached_encode(_Prefilled(enc, vectors), texts)
    return result


def _finish(key, enc, computed: dict[tuple[int, str], np.ndarray], normalize: bool) -> np.ndarray:
    if key == "sentence":
        last = max(k for k, _ in computed)
        return l2_normalise(computed[last, "mean"])
    X = computed[enc.layer, enc.pooling]
    return l2_normalise(X) if normalize else X
