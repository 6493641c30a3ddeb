"""The three tests of Carvalho et al. (Eq. 3-8) on toy spaces with known answers, and the
geometric invariants the study notes derive (mean pooling, the pair diagonal, the norm rule)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compsem.modifiers import encoding, intersectivity, lexicon, pairs, phrases, subsectivity
from compsem.modifiers.lexicon import CLASSES
from compsem.modifiers.space import Space, cosine_distance


class DictVectors:
    """A word-vector table from a dict (the ``vector``/``dim`` protocol of the registry)."""

    def __init__(self, table: dict[str, np.ndarray]):
        self.table = table
        self.dim = len(next(iter(table.values())))

    def vector(self, word):
        return self.table.get(word)


def toy_lexicon(per_class: int = 2, n_nouns: int = 3) -> lexicon.Lexicon:
    info = lexicon.class_info()
    header = []
    for c in info["classes"]:
        header += [c["column"], c["synonym_column"]]
    header += [info["nouns"]["column"], info["nouns"]["synonym_column"]]
    lines = [",".join(header)]
    for i in range(max(per_class, n_nouns)):
        row = []
        for c in CLASSES:
            word = f"{c.lower().replace('-', '')}{i}"
            row += [word, "s" + word] if i < per_class else ["", ""]
        row += [f"noun{i}", f"sn{i}"] if i < n_nouns else ["", ""]
        lines.append(",".join(row))
    return lexicon.from_rows(list(csv.DictReader(io.StringIO("\n".join(lines)))))


def random_vectors(words, dim, seed):
    rng = np.random.default_rng(seed)
    return {w: rng.normal(size=dim) for w in words}


def pooled_space(lex, table, how="mean", max_words=2):
    table_phrases = phrases.generate(lex, max_words=max_words)
    strings = phrases.strings_needed(lex, table_phrases)
    vectors, oov = encoding.compose(DictVectors(table), strings, how=how)
    return Space(strings, vectors, name=f"{how}-toy"), table_phrases


# --------------------------------------------------------------------------- space


def test_cosine_distance_and_zero_vectors():
    space = Space(["a", "b", "z"], np.array([[1.0, 0], [0, 2.0], [0, 0]]))
    assert space.distance(["a", "a", "a"], ["a", "b", "z"]).tolist() == pytest.approx([0, 1, 1])
    assert cosine_distance(np.array([1.0, 1]), np.array([-1.0, -1])) == pytest.approx(2.0)
    with pytest.raises(KeyError, match="was not embedded"):
        space.distance(["a"], ["missing"])


def test_compose_counts_oov_as_zero_inside_the_mean():
    table = {"red": np.array([2.0, 0.0]), "dog": np.array([0.0, 4.0])}
    vectors, oov = encoding.compose(DictVectors(table), ["red dog", "ex- dog", "Red", "ex-"])
    assert vectors.tolist() == [[1.0, 2.0], [0.0, 2.0], [2.0, 0.0], [0.0, 0.0]]
    assert oov == ["ex-"]
    summed, _ = encoding.compose(DictVectors(table), ["red dog"], how="sum")
    assert summed.tolist() == [[2.0, 4.0]]


def test_parse_spec():
    assert encoding.parse_spec("mean:glove50") == ("mean", "glove50")
    assert encoding.parse_spec("hf:org/model") == ("encoder", "hf:org/model")
    assert encoding.parse_spec("minilm:cls") == ("encoder", "minilm:cls")
    with pytest.raises(ValueError, match="needs word vectors"):
        encoding.parse_spec("mean:minilm")
    with pytest.raises(ValueError, match="phrase"):
        encoding.apply_template(["x"], "This is a {}.")
    assert encoding.apply_template(["red dog"], "This is a {phrase}.") == ["This is a red dog."]
    assert encoding.apply_template(["alleged dog", "red", "ex- king", "unexpected story"], "This is {a} {phrase}.") == [
        "This is an alleged dog.", "This is a red.", "This is an ex- king.", "This is an unexpected story."]
    with pytest.raises(ValueError, match="no other field"):
        encoding.apply_template(["x"], "This is {the} {phrase}.")


# --------------------------------------------------------------------------- Eq. 3 / 4


def test_single_phrase_toy_an():
    """AN: holds iff max(d(p,a), d(p,n)) <= d(a,n); a phrase vector outside the cone fails."""
    lex = toy_lexicon(1, 1)
    an = phrases.an_phrases(lex)
    words = lex.words()
    vecs = {w: np.array([1.0, 0.0]) for w in words}
    vecs["noun0"] = np.array([1.0, 1.0])  # d(a, n) = 1 - 1/sqrt(2) < 1: kept by the filter
    strings = phrases.strings_needed(lex, an)
    good = {**vecs, **{t: np.array([2.0, 1.0]) for t in an["text"]}}  # between a and n
    bad = {**vecs, **{t: np.array([-0.2, 1.0]) for t in an["text"]}}  # outside the cone
    for table, expected in ((good, True), (bad, False)):
        space = Space(strings, np.array([table[s] for s in strings]))
        for variant in ("paper", "code"):
            result = intersectivity.single_phrase(space, an, variant)
            assert result["holds"].tolist() == [expected] * len(an)


def test_single_phrase_variants_differ_on_aan():
    """A 3-word phrase in the middle of its words passes Eq. 3 as printed (pairwise terms) but
    fails the code's bipartition version when a sub-phrase lies close to a word."""
    lex = toy_lexicon(1, 1)
    aan = phrases.aan_phrases(lex)
    row = aan.iloc[0]
    a1, a2, n = row["adj1"], row["adj2"], row["noun"]
    e = np.eye(3)
    table = {w: e[0] for w in lex.words()}
    table.update(
        {
            a1: e[0],
            a2: e[1],
            n: e[2],
            row["text"]: np.ones(3),
            f"{a2} {n}": e[0] + 0.01 * (e[1] + e[2]),  # close to a1: d(a1, "a2 n") ~ 0
            f"{a1} {n}": e[1] + e[2] + e[0],
            f"{a1} {a2}": np.ones(3),
        }
    )
    sub = aan.iloc[[0]]
    strings = phrases.strings_needed(lex, sub)
    vectors = np.array([table.get(s, np.ones(3)) for s in strings])
    space = Space(strings, vectors)
    assert intersectivity.single_phrase(space, sub, "paper")["holds"].tolist() == [True]
    assert intersectivity.single_phrase(space, sub, "code")["holds"].tolist() == [False]


def test_code_filter_drops_zero_vectors():
    """With a zero (OOV) word the code variant drops its distance 1 and compares the rest;
    without the filter the same phrase fails."""
    lex = toy_lexicon(1, 1)
    aan = phrases.aan_phrases(lex).iloc[[0]]
    a1, a2, n = aan.iloc[0][["adj1", "adj2", "noun"]]
    table = {a1: np.zeros(2), a2: np.array([1.0, 0.0]), n: np.array([0.5, 1.0])}
    strings = phrases.strings_needed(lex, aan)
    vectors, _ = encoding.compose(DictVectors(table), strings)
    space = Space(strings, vectors)
    assert intersectivity.single_phrase(space, aan, "code")["holds"].tolist() == [True]
    assert intersectivity.single_phrase(space, aan, "code", drop_at_least=None)[
        "holds"
    ].tolist() == [False]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), dim=st.integers(2, 40), how=st.sampled_from(["mean", "sum"]))
def test_pooling_makes_every_an_phrase_intersective(seed, dim, how):
    """For pooled vectors emb(p) = α(a + n) lies in the cone of a and n, so Eq. 3 always holds."""
    lex = toy_lexicon(2, 3)
    table = random_vectors(lex.words(), dim, seed)
    space, an = pooled_space(lex, table, how)
    for variant in ("paper", "code"):
        result = intersectivity.single_phrase(space, an, variant)
        assert result["holds"].all()
        assert set(intersectivity.scores(an, result["holds"])) == {1.0}


# --------------------------------------------------------------------------- Eq. 5 / 6


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    dim=st.integers(2, 30),
    aggregation=st.sampled_from(["per_noun", "pairs"]),
)
def test_pair_diagonal_is_half_and_cells_are_complementary(seed, dim, aggregation):
    lex = toy_lexicon(3, 4)
    rng = np.random.default_rng(seed)
    an = phrases.an_phrases(lex)
    strings = phrases.strings_needed(lex, an, bipartition=False)
    space = Space(strings, rng.normal(size=(len(strings), dim)))
    table = pairs.scores(pairs.compare(space, lex), aggregation)
    assert np.allclose(np.diag(table.to_numpy()), 0.5, atol=1e-12)
    assert np.allclose(table.to_numpy() + table.to_numpy().T, 1.0, atol=1e-12)


def test_pair_counts_and_per_noun_weighting():
    """Three nouns: pairs (0,1), (0,2), (1,2). Per-noun weights 1/4, 1/4, 1/2 (noun 0 has two
    partners, noun 1 one); the unweighted mean gives each 1/3."""
    lex = toy_lexicon(1, 3)
    an = phrases.an_phrases(lex)
    strings = phrases.strings_needed(lex, an, bipartition=False)
    # "si0 noun_i" all identical (distance 0); "sni0 noun_i" orthogonal except noun1 = noun2
    vec = {s: np.array([1.0, 0, 0, 0]) for s in strings}
    vec["sni0 noun0"] = np.array([0, 1.0, 0, 0])
    vec["sni0 noun1"] = np.array([0, 0, 1.0, 0])
    vec["sni0 noun2"] = np.array([0, 0, 1.0, 0])
    space = Space(strings, np.array([vec[s] for s in strings]))
    comparisons = pairs.compare(space, lex)
    assert comparisons.n_comparisons == 5 * 4 * 3
    assert comparisons.weights("per_noun").tolist() == pytest.approx([0.25, 0.25, 0.5])
    si_sni = pairs.scores(comparisons, "per_noun").loc["S-I", "S-NI"]
    # d(si0 pair) = 0 < d(sni0 pair) = 1, 1, 0: holds on (0,1), (0,2), not on (1,2)
    assert si_sni == pytest.approx(0.5)
    assert pairs.scores(comparisons, "pairs").loc["S-I", "S-NI"] == pytest.approx(2 / 3)
    # the reverse cell: strict < fails where the distances tie (noun pair (1,2): 0 vs 0)
    assert pairs.scores(comparisons, "pairs").loc["S-NI", "S-I"] == pytest.approx(0.0)
    loose = pairs.scores(pairs.compare(space, lex, strict=False), "pairs")
    assert loose.loc["S-NI", "S-I"] == pytest.approx(1 / 3)
    spread = pairs.per_noun_pair(comparisons, ("S-I", "S-NI"))
    assert spread.tolist() == [1.0, 1.0, 0.0]


# --------------------------------------------------------------------------- Eq. 7 / 8


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), dim=st.integers(2, 40), how=st.sampled_from(["mean", "sum"]))
def test_pooled_non_subsectivity_is_the_norm_rule(seed, dim, how):
    """The closed form of compsem.modifiers.subsectivity: for p = a + n, d(p, a) < d(p, n) iff |a| > |n|."""
    lex = toy_lexicon(3, 4)
    rng = np.random.default_rng(seed)
    table = {w: rng.normal(size=dim) * rng.uniform(0.2, 3.0) for w in lex.words()}
    space, an = pooled_space(lex, table, how)
    result = subsectivity.non_subsectivity(space, an)
    assert result["holds"].tolist() == subsectivity.norm_rule(space, an).tolist()


def test_non_subsectivity_toy_and_oov_adjective():
    lex = toy_lexicon(1, 1)
    an = phrases.an_phrases(lex)
    table = {w: np.array([3.0, 0.0]) for w in lex.adjectives["word"]}
    table["noun0"] = np.array([0.0, 1.0])
    del table["nspr0"]  # out of vocabulary: a zero vector, distance 1 to everything
    space, an = pooled_space(lex, table, "mean")
    result = subsectivity.non_subsectivity(space, an)
    holds = dict(zip(an["adj1"], result["holds"], strict=True))
    assert holds == {"si0": True, "sni0": True, "nspl0": True, "nspr0": False, "a0": True}
    scores = subsectivity.scores(an, result["holds"])
    assert scores[("NS-Pr",)] == 0.0 and scores[("S-I",)] == 1.0
    with pytest.raises(ValueError, match="AN phrases only"):
        subsectivity.non_subsectivity(space, phrases.generate(lex, 3))


def test_strict_and_loose_non_subsectivity_on_a_tie():
    lex = toy_lexicon(1, 1)
    an = phrases.an_phrases(lex)
    table = {w: np.array([1.0, 0.0]) for w in lex.adjectives["word"]}
    table["noun0"] = np.array([0.0, 1.0])
    space, an = pooled_space(lex, table, "sum")  # |a| = |n|: the phrase is equidistant
    assert not subsectivity.non_subsectivity(space, an, strict=True)["holds"].any()
    assert subsectivity.non_subsectivity(space, an, strict=False)["holds"].all()


def test_pair_test_at_study_size_is_vectorised():
    """61 adjectives (11/6/27/14/3) and 12 nouns: 241,560 comparisons in well under a second."""
    import time

    lex = toy_lexicon(27, 12)
    keep = {"S-I": 11, "S-NI": 6, "NS-Pl": 27, "NS-Pr": 14, "A": 3}
    adj = lex.adjectives
    adjectives = pd.concat([adj[adj["cls"] == c].head(n) for c, n in keep.items()])
    lex = lexicon.Lexicon(adjectives.reset_index(drop=True), lex.nouns)
    an = phrases.an_phrases(lex)
    strings = phrases.strings_needed(lex, an, bipartition=False)
    space = Space(strings, np.random.default_rng(0).normal(size=(len(strings), 384)))
    start = time.perf_counter()
    comparisons = pairs.compare(space, lex)
    table = pairs.scores(comparisons)
    elapsed = time.perf_counter() - start
    assert comparisons.n_comparisons == 241_560
    assert table.shape == (5, 5)
    assert elapsed < 1.0, elapsed


def test_near_ties_count_the_decisions_another_machine_could_flip():
    """Eq. 3's margins, Eq. 7's pulls and Eq. 5's distance differences within the threshold of a
    tie, each ordered pair of distinct adjectives once per noun pair; infinite margins (a side
    left out by the code's threshold) are no decisions."""
    import types

    import pandas as pd

    from compsem.modifiers import chapter as C

    an = {"code": pd.DataFrame({"margin": [0.3, 2e-6, -np.inf]})}
    ns = pd.DataFrame({"pull": [-4e-6, 0.1]})
    distances = np.array([[0.5, 0.2], [0.5 + 3e-6, 0.4], [0.9, 0.2]])  # 3 adjectives x 2 noun pairs
    run = types.SimpleNamespace(an=an, ns=ns, aan={}, pairs=types.SimpleNamespace(distances=distances))
    count, smallest = C.near_ties(run, eps=1e-5)
    # an 1, ns 1; pairs: (0,1) and (1,0) on noun pair 0, (0,2) and (2,0) on noun pair 1
    assert count == 6 and smallest == pytest.approx(0.0)
    assert C.near_ties(run, eps=1e-7)[0] == 2  # the exact tie of adjectives 0 and 2, both orders
    assert C.near_tie_values({"mean:glove50": run}) == {}  # no MiniLM: nothing glued
