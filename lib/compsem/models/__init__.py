"""Sentence and word encoders behind one protocol, with an on-disk embedding cache.

>>> from compsem.models import get_encoder, cached_encode
>>> enc = get_encoder("minilm")                       # nothing is loaded yet
>>> X = cached_encode(enc, ["A cat sat.", "A dog ran."])   # (2, 384) float32, cached on disk

Names: ``minilm``, ``mpnet``, ``glove50``, ``spacy-md`` (all from packages on the package index,
see :mod:`compsem.models.registry`) and ``hf:<hub id>`` (needs network or the HF cache).
Layer encoders ``<base>:layer<k>`` / ``<base>:last`` (base ``minilm``, ``mpnet``, ``hf:<id>``)
give the mean token state of one layer (``<base>:layer<k>:cls`` / ``<base>:cls``: the first
token's state); ``cached_encode_layers(base, texts, [0, 12])`` fills several layers' caches from
one forward pass (:mod:`compsem.models.layers`).
Word-vector encoders (``glove50``, ``spacy-md``) expose ``.word_vectors`` and ``.tokenize``.
"""

from compsem.models.base import Encoder, ModelUnavailableError, WordVectors
from compsem.models.cache import cached_encode
from compsem.models.layer_cache import cached_encode_layers, fills_sentence
from compsem.models.registry import available, get_encoder

__all__ = [
    "Encoder",
    "WordVectors",
    "ModelUnavailableError",
    "available",
    "get_encoder",
    "cached_encode",
    "cached_encode_layers",
    "fills_sentence",
]
