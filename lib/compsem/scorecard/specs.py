"""Which model a battery scores for a spec: a word-vector mean as its study's chapter scores it.

A *word-vector model* (``glove50``, ``spacy-md``: :data:`compsem.models.spec.WORD_VECTOR_MODELS`)
is a sentence vector made from word vectors, and each study makes it its own way:

- the STS chapters score ``mean:<vectors>``, Fodor et al.'s Mean composition (2025, §4.3 and
  Table 1: their stop words removed, compared by the cosine of the unstandardised vectors, as in
  Table 9; :func:`compsem.sts.scoring.pair_similarities`);
- the modifier chapter scores ``mean:<vectors>``, Carvalho et al.'s mean-pooled word vectors
  (arXiv 2212.04310, §4.1.3; :func:`compsem.modifiers.encoding.compose`);
- the probing chapter scores the word-vector encoder itself (every token of the sentence,
  :class:`compsem.models.word_vectors.WordMeanEncoder`), the sentence average of Ettinger et al.

:func:`study_spec` gives the STS and modifier batteries the first two, so that the scorecard of
``glove50`` has, battery by battery, the numbers of the chapter that battery comes from.
"""

from __future__ import annotations


def study_spec(model: str) -> str:
    """``mean:<vectors>`` for a word-vector model name (``glove50`` -> ``mean:glove50``), the
    spec as given otherwise (a sentence encoder, a composition, a baseline): the model the STS
    and modifier batteries score for ``model`` (module docstring)."""
    from compsem.models.spec import WORD_VECTOR_MODELS

    return f"mean:{model}" if model in WORD_VECTOR_MODELS else model
