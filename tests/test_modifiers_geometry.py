"""Why mean- or sum-pooled *static* word vectors pass the AN intersectivity test (Eq. 3/4) for
every phrase, and why a mean of *contextual* token states need not (issue #16).

The test (Carvalho et al., Eq. 3; :mod:`compsem.modifiers.intersectivity`): an AN phrase p = "a n"
passes when

    d(p, a) <= d(a, n)  and  d(p, n) <= d(a, n),      d(u, v) = 1 - cos(u, v),

i.e. when the angle between p and each of its words is at most the angle between the words
(cosine distance is increasing in the angle on [0, pi]).

Claim. If emb(p) = alpha * (u + v) with u = emb(a), v = emb(n) static vectors (alpha > 0: mean
pooling, alpha = 1/2, or sum pooling, alpha = 1), the test holds for every p.

Proof. Let u, v be non-zero and theta = angle(u, v) in [0, pi]. Scaling by alpha > 0 changes no
angle, so take p = u + v. (If u and v are antiparallel with equal norms, p = 0, its distance to
everything is 1, and the code's filter drops the comparison; assume p != 0.) In the plane spanned
by u and v (a line if theta is 0 or pi), measure each direction by its angle from u, going towards
v: u is at 0 and v at theta. A non-zero combination s u + t v with s, t >= 0 lies in the convex
cone of the two rays, which is the arc of directions between them, so p is at some phi in
[0, theta]. Hence angle(p, u) = phi <= theta and angle(p, v) = theta - phi <= theta. Cosine
distance is increasing in the angle on [0, pi], so d(p, a) <= d(a, n) and d(p, n) <= d(a, n):
the test holds. QED. (The two angles add up to theta exactly; the first test checks that too.)

The argument needs emb(a) and emb(n) to be the *same* vectors that are summed into emb(p). A
transformer's phrase vector is the mean of *contextual* token states h(a | "a n"),
h(n | "a n"), which differ from the single-word embeddings emb(a) = h(a | "a"),
emb(n) = h(n | "n"); the phrase can then leave the cone of the word vectors and the test can
fail. 001's mean-pooled sBERT scores 0.95-0.99 in four classes for this reason.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_modifiers_metrics import pooled_space, random_vectors, toy_lexicon

from compsem.modifiers import intersectivity, phrases
from compsem.modifiers.space import Space, cosine_distance


def an_test(p: np.ndarray, a: np.ndarray, n: np.ndarray) -> bool:
    """Eq. 3 for one AN phrase, straight from its definition."""
    d_an = cosine_distance(a, n)
    return bool(cosine_distance(p, a) <= d_an + 1e-12 and cosine_distance(p, n) <= d_an + 1e-12)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    dim=st.integers(2, 64),
    alpha=st.floats(1e-3, 1e3),
    scale_a=st.floats(1e-3, 1e3),
    scale_n=st.floats(1e-3, 1e3),
)
def test_pooled_static_vectors_always_pass_the_an_test(seed, dim, alpha, scale_a, scale_n):
    """The theorem of the module docstring, on random vectors of any norm and any pooling scale."""
    rng = np.random.default_rng(seed)
    a, n = scale_a * rng.normal(size=dim), scale_n * rng.normal(size=dim)
    assert an_test(alpha * (a + n), a, n)
    # the angles add up: the phrase lies between its words
    angle = lambda u, v: np.arccos(np.clip(1 - cosine_distance(u, v), -1, 1))  # noqa: E731
    assert angle(a + n, a) + angle(a + n, n) == pytest.approx(angle(a, n), abs=1e-6)


@pytest.mark.parametrize("how", ["mean", "sum"])
def test_pooled_static_vectors_score_exactly_one_per_class(how):
    """The same through the library: every class of the AN test scores exactly 1."""
    lex = toy_lexicon(3, 4)
    space, table = pooled_space(lex, random_vectors(lex.words(), 16, seed=7), how)
    an = table[table["kind"] == "AN"].reset_index(drop=True)
    holds = intersectivity.single_phrase(space, an, "code")["holds"]
    assert set(dict(intersectivity.scores(an, holds)).values()) == {1.0}


def contextual_encoder(words, dim=8, mix=1.5, seed=0):
    """A toy contextual encoder: a token's state is its static vector plus ``mix`` times a fixed
    linear map of the *other* tokens' mean; the text vector is the mean of the token states
    (mean pooling, as in MiniLM or sBERT). A one-word text gets its static vector back."""
    rng = np.random.default_rng(seed)
    static = {w: rng.normal(size=dim) for w in words}
    mixing = rng.normal(size=(dim, dim))

    def encode(text):
        toks = text.split()
        states = []
        for i, t in enumerate(toks):
            context = [static[s] for j, s in enumerate(toks) if j != i]
            states.append(static[t] + (mix * mixing @ np.mean(context, axis=0) if context else 0))
        return np.mean(states, axis=0)

    return encode


def test_a_mean_pooled_contextual_encoder_can_fail_the_an_test():
    """Mean pooling alone does not make the test hold: with context-dependent token states the
    phrase leaves the cone of the single-word vectors, and some classes score below 1."""
    lex = toy_lexicon(3, 4)
    table = phrases.generate(lex, max_words=2)
    strings = phrases.strings_needed(lex, table)
    encode = contextual_encoder(lex.words())
    space = Space(strings, np.stack([encode(s) for s in strings]).astype(np.float32), name="ctx")
    an = table[table["kind"] == "AN"].reset_index(drop=True)
    holds = intersectivity.single_phrase(space, an, "code")["holds"]
    assert 0 < holds.mean() < 1
    assert min(dict(intersectivity.scores(an, holds)).values()) < 1
    # with mix = 0 the same encoder is a static mean-pooler and passes everywhere
    static = contextual_encoder(lex.words(), mix=0.0)
    space0 = Space(strings, np.stack([static(s) for s in strings]).astype(np.float32), name="st")
    assert intersectivity.single_phrase(space0, an, "code")["holds"].all()
