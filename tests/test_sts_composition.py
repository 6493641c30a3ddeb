"""compsem.sts.composition: the authors' tokenisation, OOV rule and Mean/Mult/Conv composition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import ndimage

from compsem.sts import composition as C


class ToyVectors:
    """A dict-backed word-vector table with the ``vector(word)`` interface."""

    def __init__(self, words, dim=8, seed=0):
        rng = np.random.default_rng(seed)
        self.dim = dim
        self.table = {w: rng.normal(size=dim) for w in words}

    def vector(self, word):
        v = self.table.get(word)
        return None if v is None else v.copy()

    def __contains__(self, word):
        return word in self.table


WORDS = ["dog", "bite", "man", "park", "old", "t_shirt", "sisters"]
STOP = frozenset({"the", "a", "in", "it"})


# --- tokenisation and look-up ------------------------------------------------------------------


def test_tokenise_order_lower_split_stop_then_punctuation():
    assert C.tokenise("The Dog bit the man.", STOP) == ["dog", "bit", "man"]
    # a stop word with punctuation attached is not a stop word yet, then loses the punctuation
    assert C.tokenise("In it, the dog.", STOP) == ["it", "dog"]
    assert C.tokenise("My sister's T-shirt -- ok", ()) == ["my", "sisters", "tshirt", "ok"]


def test_lookup_direct_substitution_lemma_oov():
    wv = ToyVectors(WORDS)
    assert C.lookup("dog", wv, lemmatise=None)[1] == "direct"
    vec, how = C.lookup("tshirt", wv, lemmatise=None)
    assert how == "direct" and np.array_equal(vec, wv.table["t_shirt"])
    vec, how = C.lookup("bites", wv, lemmatise=lambda w: w.rstrip("s"))
    assert how == "lemma" and np.array_equal(vec, wv.table["bite"])
    assert C.lookup("bites", wv, lemmatise=None) == (None, "oov")
    assert C.lookup("xyzzy", wv, substitutions={}, lemmatise=lambda w: w)[1] == "oov"


def test_wordnet_verb_lemmatiser():
    from compsem.models.base import ModelUnavailableError

    try:
        lemma = C._wordnet_verb_lemmatiser()
    except ModelUnavailableError as error:
        pytest.skip(f"WordNet not available: {error}")
    assert lemma("infects") == "infect" and lemma("bit") == "bite" and lemma("sisters") == "sisters"
    wv = ToyVectors(WORDS)
    assert C.lookup("bit", wv)[1] == "lemma"


# --- composition -------------------------------------------------------------------------------


def _vectors(k, d=8, seed=0):
    return np.random.default_rng(seed).normal(size=(k, d))


def test_wrap_convolve_is_circular_convolution_rolled_by_half():
    # the authors' scipy.ndimage.convolve(mode="wrap") centres the kernel
    for d in (8, 300, 301):
        a, b = _vectors(2, d, seed=d)
        expected = np.roll(C.circular_convolve(a, b), (d + 1) // 2)
        np.testing.assert_allclose(C.wrap_convolve(a, b), expected, atol=1e-10)
        np.testing.assert_allclose(C.wrap_convolve(a, b), ndimage.convolve(a, b, mode="wrap"))
        # circular convolution itself, by the definition c[i] = sum_j a[j] b[(i - j) mod d]
        direct = [sum(a[j] * b[(i - j) % d] for j in range(d)) for i in range(min(d, 5))]
        np.testing.assert_allclose(C.circular_convolve(a, b)[:5], direct, atol=1e-10)


def test_conv_roll_depends_on_token_count_parity():
    d = 300
    for k in (2, 3, 4, 5):
        v = _vectors(k, d, seed=k)
        got = C.conv_vectors([v])[0]
        plain = C.conv_vectors([v], circular=True)[0]
        np.testing.assert_allclose(got, np.roll(plain, (k - 1) * ((d + 1) // 2)), atol=1e-9)
        if k % 2:  # odd count: two rolls of 150 cancel for d = 300
            np.testing.assert_allclose(got, plain, atol=1e-9)
        else:
            assert not np.allclose(got, plain)


@settings(max_examples=40, deadline=None)
@given(k=st.integers(2, 6), seed=st.integers(0, 10_000), data=st.data())
def test_all_three_methods_are_order_invariant(k, seed, data):
    v = _vectors(k, 16, seed)
    perm = data.draw(st.permutations(range(k)))
    w = v[list(perm)]
    np.testing.assert_allclose(C.mean_vectors([v]), C.mean_vectors([w]), atol=1e-12)
    np.testing.assert_allclose(C.mult_vectors([v]), C.mult_vectors([w]), rtol=1e-10, atol=1e-12)
    # Conv too (circular convolution is commutative and associative; the ndimage roll depends
    # only on the number of tokens), up to float rounding
    np.testing.assert_allclose(C.conv_vectors([v]), C.conv_vectors([w]), atol=1e-9)


def test_compose_word_order_changes_nothing():
    wv = ToyVectors(WORDS)
    for method in C.METHODS:
        e = C.compose(["The dog bite the man", "The man bite the dog"], wv, method, STOP, lemmatise=None)
        np.testing.assert_allclose(e[0], e[1], atol=1e-9)


def test_single_token_gives_the_word_vector_for_every_method():
    wv = ToyVectors(WORDS)
    for method in C.METHODS:
        e = C.compose(["The dog.", "Dog xyzzy"], wv, method, STOP, lemmatise=None)
        np.testing.assert_allclose(e, [wv.table["dog"], wv.table["dog"]])


def test_mult_is_the_product_times_1000():
    v = _vectors(3)
    np.testing.assert_allclose(C.mult_vectors([v])[0], v[0] * v[1] * v[2] * 1000)
    np.testing.assert_allclose(C.mean_vectors([v])[0], v.mean(axis=0))


def test_all_oov_and_empty_sentences_give_zero_vectors():
    wv = ToyVectors(WORDS)
    for method in C.METHODS:
        e = C.compose(["xyzzy plugh", "the a", "", "dog man"], wv, method, STOP, lemmatise=None)
        assert e.shape == (4, 8)
        assert not e[:3].any() and e[3].any()


def test_compose_rejects_unknown_method():
    with pytest.raises(ValueError):
        C.compose(["dog"], ToyVectors(WORDS), "tensor")


def test_coverage_counts():
    wv = ToyVectors(WORDS)
    got = C.coverage(["The dog bites the man.", "Xyzzy plugh!", "old xyzzy"], wv, STOP,
                     lemmatise=lambda w: w.rstrip("s"))
    assert (got["n_tokens"], got["n_direct"], got["n_lemma"], got["n_oov"]) == (7, 3, 1, 3)
    assert got["oov_rate"] == pytest.approx(3 / 7)
    assert got["n_empty"] == 1 and got["n_sentences"] == 3
    assert got["oov_words"] == {"xyzzy": 2, "plugh": 1}
    assert got["n_types"] == 6 and got["oov_type_rate"] == pytest.approx(2 / 6)


@pytest.mark.parametrize("circular", [False, True])
@pytest.mark.parametrize("d", [300, 50, 7])
def test_conv_vectors_equal_the_authors_chain_of_convolutions(circular, d):
    rng = np.random.default_rng(d)
    op = C.circular_convolve if circular else C.wrap_convolve
    sentences = [rng.standard_normal((k, d)) for k in (1, 2, 3, 4, 7, 10)] + [np.zeros((0, d))]
    got = C.conv_vectors(sentences, circular=circular)
    for row, v in zip(got, sentences, strict=True):
        expected = np.zeros(d)
        if len(v):
            expected = v[0]
            for w in v[1:]:
                expected = op(expected, w)
        np.testing.assert_allclose(row, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max(initial=1))


@pytest.mark.needs_data
@pytest.mark.parametrize("spec", ["mean:glove50", "mult:glove50", "conv:glove50"])
def test_order_blind_compositions_give_swapped_sentences_a_cosine_of_exactly_one(spec):
    """Word order is lost, so a swap must tie with every other swap (cosine 1), not be ranked
    among them by rounding noise (compsem.stats.tie_values)."""
    import pandas as pd

    from compsem.sts import scoring

    swaps = [("The dog chased the cat near the old barn.", "The cat chased the dog near the old barn."),
             ("A teacher praised the student in the small classroom.", "A student praised the teacher in the small classroom."),
             ("The chef fed the hungry guests before the long speech.", "The hungry guests fed the chef before the long speech."),
             ("The lawyer questioned the nervous witness about the stolen car.", "The nervous witness questioned the lawyer about the stolen car.")]
    pairs = pd.DataFrame(swaps, columns=["sentence_a", "sentence_b"])
    sims = scoring.pair_similarities(spec, pairs, device="cpu", show_progress=False)
    np.testing.assert_array_equal(sims, 1.0)
