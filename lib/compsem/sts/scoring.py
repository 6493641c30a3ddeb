"""Similarity of every sentence pair under a named model: the rows of Table 9, recomputed.

A *model spec* is one string, so that a chapter parameter can list any mix of models:

==========================  ===============================================================
``overlap``                 word-overlap (Jaccard) baseline, :func:`similarity.word_overlap`
``random``                  random similarities (seeded), the chance baseline
``mean:<vectors>``          Mean / Mult / Conv composition of static word vectors (Table 1),
``mult:<vectors>``          with ``<vectors>`` a word-vector encoder name (``glove50``,
``conv:<vectors>``          ``spacy-md``), :mod:`compsem.sts.composition`; ``circconv:`` is
``circconv:<vectors>``      plain circular convolution (the authors' ``conv`` is shifted)
anything else               a sentence encoder of :func:`compsem.models.get_encoder`
                            (``mpnet``, ``minilm``, ``mpnet:layer0``, ``hf:<hub id>`` ...):
                            cosine of the sentence embeddings, raw or per-feature
                            standardised (§4.3)
==========================  ===============================================================

Embeddings are computed once per unique sentence and model and cached on disk
(:func:`compsem.models.cached_encode`), so re-running with another model list only encodes the
new models.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from compsem.sts import similarity
from compsem.sts.composition import METHODS as COMPOSITIONS


def is_encoder(spec: str) -> bool:
    """True when ``spec`` names a sentence encoder (not a baseline or a composition)."""
    return spec not in ("overlap", "random") and spec.split(":", 1)[0] not in COMPOSITIONS


def validate(specs) -> list[str]:
    """Check a list of model specs without loading anything; unknown names raise ValueError."""
    from compsem.models.registry import available

    specs = list(specs)
    for spec in specs:
        if spec in ("overlap", "random"):
            continue
        head, _, rest = spec.partition(":")
        if head in COMPOSITIONS:
            if rest not in ("glove50", "spacy-md"):
                raise ValueError(f"model {spec!r}: composition needs word vectors 'glove50' or 'spacy-md'")
        elif not (spec.startswith("hf:") or head in available()):
            raise ValueError(f"unknown model {spec!r}; known: overlap, random, mean:/mult:/conv:/circconv:<vectors>, "
                             f"{', '.join(available())}, hf:<hub id>, <encoder>:layer<k>")
    return specs


def prefetch(specs, sentences, batch_size: int = 64, device: str = "auto",
             show_progress: bool = True) -> None:
    """Fill the embedding cache for every ``<base>:layer<k>`` spec (and the plain ``<base>``
    sentence encoder when listed and mean-pooled) with ONE forward pass per base model,
    instead of one pass per layer. A no-op for texts already cached."""
    from compsem.models import cached_encode_layers
    from compsem.models.layers import parse_layer_name

    specs = list(specs)
    by_base: dict[str, list] = {}
    for spec in specs:
        parsed = parse_layer_name(spec)
        if parsed is not None:
            by_base.setdefault(parsed[0], []).append(parsed[1])
    unique = sorted(set(sentences))
    for base, layers in by_base.items():
        sentence = base in specs and base in ("mpnet", "minilm")
        cached_encode_layers(base, unique, layers, device=device, sentence=sentence,
                             batch_size=batch_size, show_progress=show_progress)


def embed_unique(spec: str, sentences, batch_size: int = 64, device: str = "auto",
                 show_progress: bool = True) -> np.ndarray:
    """Embeddings of ``sentences`` in input order; :func:`compsem.models.cached_encode` encodes
    each distinct sentence once and caches it on disk."""
    from compsem.models import cached_encode, get_encoder

    kwargs = {"device": device} if spec.split(":", 1)[0] in ("mpnet", "minilm") or spec.startswith("hf:") else {}
    return cached_encode(get_encoder(spec, **kwargs), list(sentences), batch_size=batch_size,
                         show_progress=show_progress)


def pair_similarities(spec: str, pairs: pd.DataFrame, standardised: bool = False, seed: int = 0,
                      batch_size: int = 64, device: str = "auto", show_progress: bool = True,
                      method: str = "centre") -> np.ndarray:
    """The similarity of each pair (``sentence_a``, ``sentence_b`` columns) under ``spec``.

    ``standardised`` applies the per-feature standardisation of §4.3 (separately over the A and
    the B sentences; ``method`` "centre" as the authors' code, or "zscore" as the paper's text,
    see :func:`similarity.standardise`) to encoder embeddings; it is ignored for baselines and
    compositions, which Table 9 reports unstandardised.
    """
    from compsem.data import sts3k

    a, b = pairs["sentence_a"].tolist(), pairs["sentence_b"].tolist()
    if spec == "overlap":
        return similarity.word_overlap(a, b, stopwords=sts3k.load_stopwords())
    if spec == "random":
        return similarity.random_similarities(len(a), seed)
    head, _, rest = spec.partition(":")
    if head in COMPOSITIONS:
        from compsem.models import get_encoder
        from compsem.sts import composition

        vectors = get_encoder(rest).word_vectors
        stop = sts3k.load_stopwords()
        emb_a = composition.compose(a, vectors, method=head, stopwords=stop)
        emb_b = composition.compose(b, vectors, method=head, stopwords=stop)
        return similarity.pair_cosines(emb_a, emb_b)
    emb = embed_unique(spec, a + b, batch_size=batch_size, device=device, show_progress=show_progress)
    return similarity.pair_cosines(emb[: len(a)], emb[len(a):], standardised=standardised, method=method)
