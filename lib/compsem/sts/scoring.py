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

from compsem.stats import tie_values
from compsem.sts import similarity
from compsem.sts.composition import METHODS as COMPOSITIONS

BASELINES = ("overlap", "random")
"""The model-free baselines of Table 9."""


def parse(spec: str):
    """``spec`` parsed by the shared grammar (:func:`compsem.models.spec.parse_spec`) with this
    chapter's composers (Table 1's compositions) and baselines."""
    from compsem.models.spec import parse_spec

    return parse_spec(spec, composers=COMPOSITIONS, baselines=BASELINES)


def is_encoder(spec: str) -> bool:
    """True when ``spec`` names a sentence encoder (not a baseline or a composition)."""
    return parse(spec).is_encoder


def validate(specs) -> list[str]:
    """Check a list of model specs without loading anything; unknown names raise ValueError."""
    specs = list(specs)
    for spec in specs:
        parse(spec)
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

    return cached_encode(get_encoder(parse(spec).encoder, device=device), list(sentences),
                         batch_size=batch_size, show_progress=show_progress)


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
    parsed = parse(spec)
    if parsed.composer == "overlap":
        return similarity.word_overlap(a, b, stopwords=sts3k.load_stopwords())
    if parsed.composer == "random":
        return similarity.random_similarities(len(a), seed)
    if parsed.kind == "composed":
        emb = composed_vectors(parsed.composer, parsed.encoder, a + b, sts3k.load_stopwords())
        emb_a, emb_b = emb[: len(a)], emb[len(a):]
        return tie_values(similarity.pair_cosines(emb_a, emb_b))  # order-blind: swaps tie at cosine 1
    emb = embed_unique(spec, a + b, batch_size=batch_size, device=device, show_progress=show_progress)
    return similarity.pair_cosines(emb[: len(a)], emb[len(a):], standardised=standardised, method=method)


def composed_vectors(method: str, vectors: str, sentences, stopwords) -> np.ndarray:
    """:func:`compsem.sts.composition.compose` of ``sentences`` (rows in input order), each
    distinct sentence composed once, and the result cached on disk (:mod:`compsem.fitcache`,
    kind ``compositions``) under the method, the word vectors, the sentences, the stop words and
    the source of :mod:`compsem.sts.composition`: a warm re-run reads it back."""
    import hashlib
    from pathlib import Path

    from compsem import fitcache
    from compsem.sts import composition

    sentences = list(sentences)
    unique = list(dict.fromkeys(sentences))
    digest = fitcache.key({
        "method": method,
        "vectors": vectors,
        "sentences": fitcache.array_digest(np.array(unique, dtype=str)),
        "stopwords": sorted(stopwords),
        "source": hashlib.sha256(Path(composition.__file__).read_bytes()).hexdigest(),
    })
    stored = fitcache.load("compositions", digest, required=("vectors",))
    if stored is not None:
        X = stored[0]["vectors"]
    else:
        from compsem.models import get_encoder

        X = composition.compose(unique, get_encoder(vectors).word_vectors, method=method,
                                stopwords=stopwords)
        fitcache.store("compositions", digest, {"vectors": X}, {"method": method, "n": len(unique)})
    row = {sentence: i for i, sentence in enumerate(unique)}
    return X[[row[s] for s in sentences]]
