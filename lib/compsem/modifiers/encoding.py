"""Turning the study's strings into vectors: sentence encoders and pooled word vectors.

The paper embeds every word and phrase as a bare string ("wild dog"; a single word is a
one-word sentence), no prompt, no template (§4.1.3 and the authors' code). A *model spec* is

- any encoder name of :func:`compsem.models.get_encoder` (``minilm``, ``mpnet``, ``hf:<id>``,
  ``minilm:layer3``, ``mpnet:cls``, ...), embedded through the on-disk cache; or
- ``mean:<words>`` / ``sum:<words>`` with ``<words>`` a word-vector encoder (``glove50``,
  ``spacy-md``): the paper's "mean-pooled representations" of GloVe and Word2Vec (§4.1.3),
  composed here exactly as the authors' code did (:func:`compose`).

Mean and sum pooling give the same cosine distances (a phrase's sum is its mean times its
length), so every test scores them identically; ``sum:`` exists for the closed forms of
:mod:`compsem.modifiers.subsectivity`.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

import numpy as np

from compsem.modifiers.space import Space

POOLINGS = ("mean", "sum")
"""This study's composers of word vectors (``mean:glove50``, ``sum:spacy-md``)."""


def parse_spec(spec: str) -> tuple[str, str]:
    """``"mean:glove50"`` -> ``("mean", "glove50")``; an encoder name -> ``("encoder", name)``
    (the shared grammar, :func:`compsem.models.spec.parse_spec`, with this study's poolings)."""
    from compsem.models.spec import parse_spec as parse

    parsed = parse(spec, composers=POOLINGS)
    return (parsed.composer, parsed.encoder) if parsed.kind == "composed" else ("encoder", spec)


def tokens(text: str, lowercase: bool = True) -> list[str]:
    """The authors' tokenisation for word vectors: whitespace split (``ex-`` stays ``ex-``)."""
    return (text.lower() if lowercase else text).split()


def compose(
    word_vectors, texts: Sequence[str], how: str = "mean", lowercase: bool = True
) -> tuple[np.ndarray, list[str]]:
    """Pooled word vectors of ``texts`` and the out-of-vocabulary words (§4.1.3, GloVe row).

    Each whitespace token is looked up verbatim (after lower-casing) in ``word_vectors``
    (anything with ``vector(word) -> array | None`` and ``dim``); an unknown token counts as
    the zero vector *inside* the mean, as ``np.mean`` over the authors' token list did (e.g.
    ``ex-``, which neither GloVe nor spaCy knows). ``how="sum"`` adds instead of averaging.
    Returns float32 ``(len(texts), dim)`` and the sorted OOV words.
    """
    if how not in POOLINGS:
        raise ValueError(f"how must be one of {POOLINGS}, not {how!r}")
    cache: dict[str, np.ndarray | None] = {}
    oov: set[str] = set()
    out = np.zeros((len(texts), word_vectors.dim), dtype=np.float64)
    for i, text in enumerate(texts):
        toks = tokens(text, lowercase)
        if not toks:
            continue
        for tok in toks:
            if tok not in cache:
                v = word_vectors.vector(tok)
                cache[tok] = None if v is None else np.asarray(v, dtype=np.float64)
            if cache[tok] is None:
                oov.add(tok)
            else:
                out[i] += cache[tok]
        if how == "mean":
            out[i] /= len(toks)
    return out.astype(np.float32), sorted(oov)


def indefinite_article(text: str) -> str:
    """English's indefinite article before ``text``: "an" before a vowel letter, else "a" (right
    for every word of the lexicon: none starts with a silent h or a "you" sound)."""
    return "an" if text[:1].lower() in "aeiou" else "a"


def apply_template(texts: Sequence[str], template: str | None) -> list[str]:
    """``template`` with ``{phrase}`` replaced by each text and ``{a}`` by its indefinite article
    (:func:`indefinite_article`: "This is {a} {phrase}." gives "This is an alleged dog.";
    ``None``: the bare strings, as the paper). A context-template ablation, not in the paper."""
    if template is None:
        return list(texts)
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    if "phrase" not in fields or not fields <= {"phrase", "a"}:
        raise ValueError(
            f"template must contain '{{phrase}}' and no other field but '{{a}}' (its article), "
            f"e.g. 'This is {{a}} {{phrase}}.', not {template!r}"
        )
    return [template.format(phrase=t, a=indefinite_article(t)) for t in texts]


def embed(
    spec: str,
    texts: Sequence[str],
    template: str | None = None,
    device: str = "auto",
    batch_size: int = 64,
    trust_remote_code: bool = False,
) -> Space:
    """A :class:`Space` of ``texts`` under the model ``spec`` (see the module docstring).

    Encoders go through :func:`compsem.models.cached_encode` (re-runs are cache hits);
    ``template`` wraps every string before encoding (the space is still keyed by the bare
    string). Pooled word vectors take no template: raise ValueError.

    ``trust_remote_code`` (off by default) lets an ``hf:`` model run the Python code shipped
    in its hub repository, as 004's Stella and NV-Embed-v2 need (the authors' code passes
    ``trust_remote_code=True`` for them). That code runs with your permissions: turn it on only
    for repositories you trust. A model that needs it and does not get it raises ValueError
    naming the parameter.
    """
    from compsem.models import cached_encode, get_encoder

    kind, base = parse_spec(spec)
    texts = list(dict.fromkeys(texts))
    if kind != "encoder":
        if template is not None:
            raise ValueError(f"{spec!r}: the template ablation is for sentence encoders only")
        encoder = get_encoder(base)
        vectors, oov = compose(encoder.word_vectors, texts, how=kind)
        return Space(texts, vectors, name=spec, oov=oov)
    encoder = get_encoder(spec, device=device)
    if trust_remote_code:
        if not spec.startswith("hf:"):
            raise ValueError(
                f"trust_remote_code is for hub models ('hf:<id>'); {spec!r} is packaged and "
                "needs no remote code"
            )
        encoder = remote_code_encoder(encoder)
    try:
        vectors = cached_encode(encoder, apply_template(texts, template), batch_size=batch_size)
    except ValueError as err:
        if "trust_remote_code" not in str(err):
            raise
        raise ValueError(
            f"{spec!r} runs Python code from its hub repository; to allow it, set the chapter "
            f"parameter trust_remote_code=True (e.g. -p trust_remote_code True), only for a "
            f"repository you trust. ({str(err).splitlines()[0]})"
        ) from err
    return Space(texts, vectors, name=spec if template is None else f"{spec} | {template}")


def remote_code_encoder(encoder):
    """The ``hf:`` encoder ``encoder`` (a :class:`compsem.models.sentence_transformer.SentenceTransformerEncoder`)
    loaded with ``trust_remote_code=True``; same name, so the embedding cache is shared."""
    from compsem.devices import resolve_device
    from compsem.models.sentence_transformer import SentenceTransformerEncoder

    class RemoteCodeEncoder(SentenceTransformerEncoder):
        @property
        def model(self):
            if self._model is None:
                if self._before_load:
                    self._before_load()
                from sentence_transformers import SentenceTransformer

                self._model = SentenceTransformer(
                    str(self.source), device=resolve_device(self.device), trust_remote_code=True
                )
            return self._model

    return RemoteCodeEncoder(
        encoder.name, encoder.source, device=encoder.device, before_load=encoder._before_load
    )
