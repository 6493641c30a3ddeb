"""compsem.sts.amr: role paths, AMR-CN and the authors' AMR-SMATCH on small graphs by hand, then
against the published STS3k files (data mirror)."""

from __future__ import annotations

import numpy as np
import pytest

from compsem.sts import amr as A
from compsem.targets import load_targets

WANT = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
WANT_MULTILINE = """# ::snt The boy wants to go.
(w / want-01
      :ARG0 (b / boy)
      :ARG1 (g / go-02
            :ARG0 b))"""


class FakeVectors:
    def __init__(self, table):
        self.table = {k: np.asarray(v, dtype=float) for k, v in table.items()}

    def vector(self, word):
        return self.table.get(word)


def test_role_paths_by_hand():
    assert A.role_paths(WANT) == {
        ".MAIN": "want-01",
        ".MAIN.:ARG0": "boy",
        ".MAIN.:ARG1": "go-02",
        ".MAIN.:ARG1.:ARG0": "b",  # re-entrancy kept as the variable (the authors' values)
    }
    assert A.role_paths(WANT, resolve_reentrancies=True)[".MAIN.:ARG1.:ARG0"] == "boy"
    assert A.role_paths(WANT_MULTILINE) == A.role_paths(WANT)
    named = A.role_paths('(p / person :name (n / name :op1 "Ann") :polarity -)')
    assert named == {".MAIN": "person", ".MAIN.:name": "name", ".MAIN.:name.:op1": "Ann",
                     ".MAIN.:polarity": "-"}


def test_dice_denominator():
    assert A.dice_similarity([1.0, 0.5], 3, 4) == pytest.approx(2 * 1.5 / 7)
    assert A.dice_similarity([], 0, 0) == 0.0


def test_strip_sense():
    assert A.strip_sense("distinguish-01") == "distinguish"
    assert A.strip_sense("have-org-role-91") == "have-org-role"
    assert A.strip_sense("boy") == "boy"


def test_amr_cn_by_hand():
    wv = FakeVectors({"want": [1, 0], "desire": [1, 1], "boy": [0, 1], "girl": [0, 1]})
    a = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))"
    b = "(d / desire-01 :ARG0 (g / girl) :ARG1 (r / run-02) :time (n / now))"
    value, shared = A.amr_cn(a, b, wv, lemmatise=None, details=True)
    # shared paths: .MAIN (cos 1/sqrt2), :ARG0 (cos 1), :ARG1 (go vs run: no vectors -> 0)
    assert shared[".MAIN.:ARG1"] == ("go", "run", 0.0)
    assert value == pytest.approx(2 * (1 / np.sqrt(2) + 1 + 0) / (3 + 4))
    # identical graphs without vectors: every path string-matches -> 1
    assert A.amr_cn(WANT, WANT_MULTILINE, FakeVectors({}), lemmatise=None) == pytest.approx(1.0)


def test_smatch_identical_graphs():
    # triples: 3 instances + TOP + 3 relations (ARG0, ARG1, ARG0 of go)
    assert A.smatch_counts(WANT, WANT) == (7, 7, 7)
    assert A.smatch_authors(WANT, WANT) == pytest.approx(7 / 12)
    assert A.smatch_authors(WANT_MULTILINE, WANT_MULTILINE) == pytest.approx(7 / 12)
    assert A.smatch_f1(WANT, WANT) == pytest.approx(1.0)
    assert A.smatch_f1(WANT_MULTILINE, WANT_MULTILINE) == pytest.approx(1.0)


def test_smatch_authors_layout_quirk():
    # in the multi-line layout "want-01" (has children) and "want-01" (a leaf) do not match
    a = "(w / want-01\n :ARG0 (b / boy))"
    b = "(w / want-01)"
    assert A.smatch_counts(a, b, layout="one_line")[0] == 2  # instance + TOP
    assert A.smatch_counts(a, b, layout="authors")[0] == 1  # TOP only


def test_smatch_finds_the_optimum_by_hand():
    a = "(c / chase-01 :ARG0 (d / dog) :ARG1 (c2 / cat :mod (b / big)) :location (p / park))"
    b = "(c / chase-01 :ARG0 (c2 / cat) :ARG1 (d / dog :mod (s / small)) :time (n / night))"
    # each graph: 5 instances + TOP + 4 relations = 10 triples. c -> c is forced (chase-01, TOP
    # and every relation out of the root; otherwise at most 3). Then dog -> dog, cat -> cat adds 2
    # instances but no relation (a's ARG0 is the dog, b's the cat): 4. Swapping them (d -> c2,
    # c2 -> d) matches ARG0, ARG1 and, with big -> small, :mod, losing the two instances: 2 + 3 = 5.
    # :location and :time never match, nor do big/small, park/night: the optimum is 5.
    for seed in (0, 3, 7):
        assert A.smatch_counts(a, b, seed=seed, restarts=5) == (5, 10, 10)


def test_smatch_is_deterministic_with_a_seed():
    # no concept is shared, so even the "smart" first start maps every node at random, and one
    # start (restarts=1) ends in different local optima (6, 3 or 2 of 12 triples) by seed
    a = "(a / x :r (b / y :r (c / z :s (d / w))) :s (e / v :r (f / t)))"
    b = "(p / q :s (r / s :r (t / u)) :r (m / n :r (o / k :s (g / h))))"
    by_seed = {}
    for _ in range(10):  # interleaved: no state carried from one call to the next
        for seed in range(10):
            by_seed.setdefault(seed, set()).add(A.smatch_counts(a, b, seed=seed, restarts=1))
    assert all(len(runs) == 1 for runs in by_seed.values()), by_seed
    counts = {next(iter(runs)) for runs in by_seed.values()}
    assert len(counts) >= 2, counts  # the seed matters
    assert all(match <= 6 and (test, gold) == (12, 12) for match, test, gold in counts)


# --- the published files (data mirror) -------------------------------------------------------


@pytest.fixture(scope="module")
def amr_data():
    from compsem.data import sts3k

    return {
        "pairs": sts3k.load_pairs(),
        "parses": sts3k.load_amr_parses(),
        "smatch": sts3k.load_published_similarities("smatch"),
        "amr": sts3k.load_published_similarities("AMR"),
    }


@pytest.mark.needs_data
def test_smatch_authors_reproduces_published(amr_data):
    p = amr_data["parses"]
    counts = A.smatch_many(p["amr_a"], p["amr_b"], seed=0, restarts=5)
    ours = A.smatch_scores(counts)
    agree = np.mean(np.abs(ours - amr_data["smatch"]) < 1e-5)
    assert agree >= 0.99  # 0.9929 with seed 0: the rest are hill-climbing local optima (+-1 triple)
    published = np.round(amr_data["smatch"] * 12)
    np.testing.assert_allclose(published / 12, amr_data["smatch"], atol=1e-5)  # multiples of 1/12


@pytest.mark.needs_data
def test_amr_published_files_give_table9(amr_data):
    from compsem.data.sts3k import portion_mask
    from compsem.sts.similarity import spearman

    targets = load_targets("sts3k")
    pairs = amr_data["pairs"]
    for row, name in (("amr_smatch", "smatch"), ("amr_cn", "amr")):
        for portion in ("all", "non", "adv"):
            key = f"table9_{row}_sts3k_{portion}"
            if key not in targets:
                pytest.skip(f"no {key} target")
            rho = spearman(amr_data[name], pairs["human"].to_numpy(), portion_mask(pairs, portion))
            assert abs(rho - targets[key]["paper"]) <= targets[key].get("tol", 0.0005), (key, rho)


class _NoVectors:
    def vector(self, word):
        return None


@pytest.mark.needs_data
def test_amr_cn_structure_matches_published(amr_data):
    """Where every shared path has identical fillers the value is fixed by the path structure
    alone (each shared path scores 1 under any vectors): all such pairs match the file."""
    p, published = amr_data["parses"], amr_data["amr"]
    checked = 0
    for i, (a, b) in enumerate(zip(p["amr_a"], p["amr_b"], strict=True)):
        value, shared = A.amr_cn(a, b, _NoVectors(), lemmatise=None, details=True)
        if shared and all(x == y for x, y, _ in shared.values()):
            checked += 1
            assert value == pytest.approx(published[i], abs=1e-5), i
    assert checked > 500
