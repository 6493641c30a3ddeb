"""Arithmetic composition of word vectors into sentence vectors (Fodor et al. 2025, §4.3, Table 1).

The Mean-CN, Mult-CN and Conv-CN rows of Table 9, re-implemented from the paper and the authors'
code (bmmlab/compositional-semantics-eval) for any static word-vector table with ``vector(word)``
(ConceptNet Numberbatch in the paper; not packaged, so e.g. ``get_encoder("glove50").word_vectors``
here):

- :func:`tokenise`: lower-case, whitespace split, drop stop words, then delete punctuation, in
  that order (the authors' order).
- :func:`lookup`: a token's vector: the word itself (after a small substitution table), else its
  WordNet lemma as a verb, else None (skipped).
- :func:`mean_vectors`, :func:`mult_vectors`, :func:`conv_vectors`: the three compositions;
  :func:`compose` runs tokenise + lookup + one of them over a list of sentences.
- :func:`coverage`: out-of-vocabulary rates for a corpus.

A sentence with one known token gets that token's vector under every method (as in the
authors' code); a sentence with none gets the zero vector, whose cosine with anything is 0
(:func:`compsem.sts.similarity.pair_cosines`).

**Conv and the order of words.** The authors convolve sequentially with
``scipy.ndimage.convolve(acc, v, mode="wrap")``. That is *not* plain circular convolution: ndimage
centres the kernel, so for d-dimensional vectors
``ndimage.convolve(a, b, mode="wrap") == np.roll(a (*) b, (d + 1) // 2)``, with ``(*)`` circular
convolution (checked numerically for d = 8, 300, 301; see the tests). Circular convolution is
commutative and associative and commutes with rolls, so for k tokens the result is
``np.roll(v1 (*) v2 (*) ... (*) vk, (k - 1) * ((d + 1) // 2))``: **independent of word order**
(like Mean and Mult; up to float rounding), but rolled by an amount that depends on the number of
tokens. For d = 300 the roll is 0 for an odd and 150 for an even number of known tokens, so two
sentences whose token counts differ in parity are compared with their coordinates shifted by
half a period. Conv-CN therefore cannot see word order (despite Table 1's ordered
``(s * o) * v``) and is additionally perturbed by length parity. :func:`conv_vectors` reproduces
the authors' computation; ``method="circconv"`` gives the unrolled circular convolution of
Plate (1995) / Blouw et al. (2016) for comparison.
"""

from __future__ import annotations

import functools
import string
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
from scipy import ndimage

MULT_SCALE = 1000.0
"""Mult-CN: the authors' code multiplies the element-wise product by 1000; it only
keeps the tiny products away from underflow, as cosine does not depend on scale."""

SUBSTITUTIONS: dict[str, str] = {"tshirt": "t_shirt"}
"""Spelling substitutions applied before look-up. Only tshirt -> t_shirt (a ConceptNet
multi-word entry; ``t-shirt`` loses its hyphen in :func:`tokenise`) is taken from the authors'
hard-coded list, which is not reproduced in full; pass ``substitutions=`` to extend."""

METHODS = ("mean", "mult", "conv", "circconv")

_PUNCTUATION = str.maketrans("", "", string.punctuation)


def tokenise(sentence: str, stopwords: Iterable[str] = ()) -> list[str]:
    """The authors' tokens (§4.3 and their code), in this order: lower-case, split on
    whitespace, drop a token that is a stop word, then delete punctuation characters
    (``string.punctuation``, anywhere in the token: "sister's" -> "sisters", "t-shirt" -> "tshirt";
    deletion rather than end-stripping is an inference from the authors' substitution
    tshirt -> t_shirt). Tokens left empty are dropped. Because stop words are removed before
    punctuation, "it." or "the," survive as "it" / "the".
    """
    stop = stopwords if isinstance(stopwords, (set, frozenset)) else frozenset(stopwords)
    tokens = (t for t in sentence.lower().split() if t not in stop)
    return [t for t in (t.translate(_PUNCTUATION) for t in tokens) if t]


@functools.cache
def _wordnet_verb_lemmatiser() -> Callable[[str], str]:
    from compsem import resources

    resources.wordnet()  # builds the WordNet data once and points NLTK at it
    from nltk.stem import WordNetLemmatizer

    lemmatizer = WordNetLemmatizer()
    return functools.cache(lambda word: lemmatizer.lemmatize(word, "v"))


def lookup(token: str, word_vectors, substitutions: Mapping[str, str] | None = None,
           lemmatise: Callable[[str], str] | str | None = "wordnet") -> tuple[np.ndarray | None, str]:
    """The vector of one token by the authors' out-of-vocabulary rule (from their code).

    Returns ``(vector, how)``, ``how`` one of ``"direct"`` (the token, after ``substitutions``),
    ``"lemma"`` (its WordNet lemma as a verb, e.g. "infects" -> "infect") or ``"oov"`` (vector
    None: the token is skipped). ``lemmatise="wordnet"`` uses NLTK's WordNetLemmatizer with
    pos="v"; pass a callable to substitute one, or None to skip the step.
    """
    subs = SUBSTITUTIONS if substitutions is None else substitutions
    word = subs.get(token, token)
    vector = word_vectors.vector(word)
    if vector is not None:
        return np.asarray(vector, dtype=float), "direct"
    if lemmatise is not None:
        lemma = (_wordnet_verb_lemmatiser() if lemmatise == "wordnet" else lemmatise)(word)
        if lemma != word:
            vector = word_vectors.vector(lemma)
            if vector is not None:
                return np.asarray(vector, dtype=float), "lemma"
    return None, "oov"


def token_vectors(sentences: Iterable[str], word_vectors, stopwords: Iterable[str] = (),
                  substitutions: Mapping[str, str] | None = None,
                  lemmatise: Callable[[str], str] | str | None = "wordnet") -> list[np.ndarray]:
    """Per sentence, the (k_i, d) array of its known tokens' vectors in sentence order (k_i may
    be 0: then the array has shape (0, d), or (0, 0) if d is not yet known)."""
    stop = frozenset(stopwords)
    cache: dict[str, np.ndarray | None] = {}
    rows = []
    for sentence in sentences:
        vectors = []
        for token in tokenise(sentence, stop):
            if token not in cache:
                cache[token] = lookup(token, word_vectors, substitutions, lemmatise)[0]
            if cache[token] is not None:
                vectors.append(cache[token])
        rows.append(np.array(vectors, dtype=float))
    dim = getattr(word_vectors, "dim", None) or next((r.shape[1] for r in rows if r.size), 0)
    return [r if r.size else np.zeros((0, dim)) for r in rows]


def _dim(per_sentence: Sequence[np.ndarray]) -> int:
    dims = {r.shape[1] for r in per_sentence if r.ndim == 2}
    if len(dims) != 1:
        raise ValueError(f"token vectors must be 2-D arrays of one width, found widths {dims}")
    return dims.pop()


def mean_vectors(per_sentence: Sequence[np.ndarray]) -> np.ndarray:
    """Mean-CN (Table 1, additive/mean; Mitchell & Lapata 2010): element-wise mean of each
    sentence's token vectors. Rows: sentences; zero vector for a sentence with no token."""
    dim = _dim(per_sentence)
    out = np.zeros((len(per_sentence), dim))
    for i, v in enumerate(per_sentence):
        if len(v):
            out[i] = v.mean(axis=0)
    return out


def mult_vectors(per_sentence: Sequence[np.ndarray], scale: float = MULT_SCALE) -> np.ndarray:
    """Mult-CN (Table 1, s * v * o element-wise): product of the token vectors times ``scale``
    (1000, as the authors did). One token gives that token's vector unscaled (as in their code);
    no token gives zeros. The scale does not change any cosine."""
    dim = _dim(per_sentence)
    out = np.zeros((len(per_sentence), dim))
    for i, v in enumerate(per_sentence):
        if len(v) == 1:
            out[i] = v[0]
        elif len(v) > 1:
            out[i] = np.prod(v, axis=0) * scale
    return out


def wrap_convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The authors' binary operation for Conv-CN: ``scipy.ndimage.convolve(a, b, mode="wrap")``,
    which equals ``np.roll(circular_convolve(a, b), (len(a) + 1) // 2)`` (kernel centred)."""
    return ndimage.convolve(np.asarray(a, dtype=float), np.asarray(b, dtype=float), mode="wrap")


def circular_convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Plain circular convolution, ``c[i] = sum_j a[j] b[(i - j) mod d]`` (via the FFT)."""
    n = len(a)
    return np.fft.irfft(np.fft.rfft(a) * np.fft.rfft(b), n=n)


def conv_vectors(per_sentence: Sequence[np.ndarray], circular: bool = False) -> np.ndarray:
    """Conv-CN (Table 1, Blouw et al. 2016): sequential convolution of the token vectors in
    sentence order, ``((v1 conv v2) conv v3) ...``, with the authors' :func:`wrap_convolve`
    (``circular=True``: plain :func:`circular_convolve`). One token gives that vector, none zeros.

    Computed in closed form (module docstring): the circular convolution of all k token vectors
    is the inverse FFT of the product of their FFTs, and the authors' chain of k - 1 wrap
    convolutions is that rolled by ``(k - 1) * ((d + 1) // 2)``; equal to the chain to float
    rounding (tests) and about 100 times faster (the chain cost 40 s on the six STS datasets)."""
    dim = _dim(per_sentence)
    out = np.zeros((len(per_sentence), dim))
    for i, v in enumerate(per_sentence):
        v = np.asarray(v, dtype=float)
        if len(v) == 1:
            out[i] = v[0]
        elif len(v) > 1:
            acc = np.fft.irfft(np.prod(np.fft.rfft(v, axis=1), axis=0), n=dim)
            out[i] = acc if circular else np.roll(acc, (len(v) - 1) * ((dim + 1) // 2))
    return out


def compose(sentences: Iterable[str], word_vectors, method: str = "mean",
            stopwords: Iterable[str] = (), substitutions: Mapping[str, str] | None = None,
            lemmatise: Callable[[str], str] | str | None = "wordnet") -> np.ndarray:
    """Sentence vectors, shape (n_sentences, d), by ``method`` in ``"mean"``, ``"mult"``,
    ``"conv"`` (the authors' ndimage wrap convolution) or ``"circconv"`` (plain circular).

    Pass the authors' stop words (:func:`compsem.data.sts3k.load_stopwords`) to follow §4.3;
    Table 9 uses these vectors unstandardised, compared by cosine.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    per_sentence = token_vectors(list(sentences), word_vectors, stopwords, substitutions, lemmatise)
    if not per_sentence:
        return np.zeros((0, getattr(word_vectors, "dim", 0) or 0))
    if method == "mean":
        return mean_vectors(per_sentence)
    if method == "mult":
        return mult_vectors(per_sentence)
    return conv_vectors(per_sentence, circular=method == "circconv")


def coverage(sentences: Iterable[str], word_vectors, stopwords: Iterable[str] = (),
             substitutions: Mapping[str, str] | None = None,
             lemmatise: Callable[[str], str] | str | None = "wordnet") -> dict:
    """Out-of-vocabulary statistics of a corpus under the authors' rule, counted over tokens
    (after tokenisation and stop-word removal):

    ``n_tokens``, ``n_direct``, ``n_lemma``, ``n_oov``, ``oov_rate`` (= n_oov / n_tokens),
    ``n_types``, ``oov_type_rate``, ``n_sentences``, ``n_empty`` (sentences with no known token,
    which become zero vectors) and ``oov_words`` (a Counter of the skipped tokens).
    """
    stop = frozenset(stopwords)
    cache: dict[str, str] = {}
    counts: Counter = Counter()
    oov: Counter = Counter()
    n_sentences = n_empty = 0
    for sentence in sentences:
        n_sentences += 1
        known = 0
        for token in tokenise(sentence, stop):
            if token not in cache:
                cache[token] = lookup(token, word_vectors, substitutions, lemmatise)[1]
            how = cache[token]
            counts[how] += 1
            if how == "oov":
                oov[token] += 1
            else:
                known += 1
        n_empty += known == 0
    n_tokens = sum(counts.values())
    return {
        "n_tokens": n_tokens,
        "n_direct": counts["direct"],
        "n_lemma": counts["lemma"],
        "n_oov": counts["oov"],
        "oov_rate": counts["oov"] / n_tokens if n_tokens else float("nan"),
        "n_types": len(cache),
        "oov_type_rate": len(oov) / len(cache) if cache else float("nan"),
        "n_sentences": n_sentences,
        "n_empty": n_empty,
        "oov_words": oov,
    }
