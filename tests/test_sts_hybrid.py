"""compsem.sts.hybrid: VerbNet-CN (§4.6, Eq. 2) on hand-made rows and parses, then against the
authors' published role-wise similarities and similarity files (data mirror)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from compsem.data.sts3k import ROLES
from compsem.sts import hybrid as H
from compsem.targets import load_targets

NAN = float("nan")


def _row(**values) -> pd.DataFrame:
    return pd.DataFrame([[values.get(r, NAN) for r in ROLES]], columns=list(ROLES))


def _parses(a: dict, b: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    return (pd.DataFrame([{r: a.get(r) for r in ROLES}]), pd.DataFrame([{r: b.get(r) for r in ROLES}]))


class FakeVectors:
    """Hand-set 2-d word vectors."""

    dim = 2

    def __init__(self, table):
        self.table = {k: np.asarray(v, dtype=float) for k, v in table.items()}

    def vector(self, word):
        return self.table.get(word)


# --- weights and combine --------------------------------------------------------------------


def test_weights_sum_to_eleven():
    assert H.WEIGHTS == {"Agent": 2, "Verb": 3, "Patient": 2, "Theme": 2,
                         "Time": 0.5, "Manner": 0.5, "Location": 0.5, "Trajectory": 0.5}
    assert sum(H.WEIGHTS.values()) == H.FIXED_DENOMINATOR == 11


def test_combine_fixed_and_present_by_hand():
    row = _row(Verb=1.0, Agent=0.5)
    assert H.combine(row)[0] == pytest.approx((3 * 1.0 + 2 * 0.5) / 11)
    assert H.combine(row, denominator="present")[0] == pytest.approx((3 + 1) / 5)
    # the authors' "norm" addend goes into the present denominator only
    assert H.combine(row, denominator="present", extra=[2.0])[0] == pytest.approx(4 / 7)
    with pytest.raises(ValueError):
        H.combine(row, extra=[2.0])
    with pytest.raises(ValueError):
        H.combine(row, denominator="mean")


def test_combine_all_missing_and_arrays():
    assert H.combine(_row())[0] == 0.0
    assert math.isnan(H.combine(_row(), denominator="present")[0])
    x = np.array([1.0, 1, 1, 1, 1, 1, 1, 1])  # every role identical -> 1 under both
    assert H.combine(x)[0] == pytest.approx(1.0)
    assert H.combine(x, denominator="present")[0] == pytest.approx(1.0)


# --- alignment -------------------------------------------------------------------------------


def test_location_trajectory_aligned_under_location():
    plan, extra = H.align({**dict.fromkeys(ROLES, False), "Verb": True, "Location": True},
                          {**dict.fromkeys(ROLES, False), "Verb": True, "Trajectory": True})
    assert plan == {"Verb": ("Verb", "Verb"), "Location": ("Location", "Trajectory")}
    assert extra == 0.0
    # the other direction: still stored under the first role; the authors' norm adds beta_B
    plan, extra = H.align({**dict.fromkeys(ROLES, False), "Trajectory": True},
                          {**dict.fromkeys(ROLES, False), "Location": True})
    assert plan == {"Location": ("Trajectory", "Location")} and extra == 0.5


def test_no_alignment_when_a_sentence_has_both_roles():
    both = {**dict.fromkeys(ROLES, False), "Location": True, "Trajectory": True}
    plan, extra = H.align(both, both)
    assert plan == {"Location": ("Location", "Location"), "Trajectory": ("Trajectory", "Trajectory")}
    one = {**dict.fromkeys(ROLES, False), "Trajectory": True}
    assert H.align(both, one)[0] == {"Trajectory": ("Trajectory", "Trajectory")}


def test_consumed_role_and_later_alignment_overwrites():
    # a: Patient + Manner, b: Theme. (Theme, Patient) aligns (a's Patient is consumed), then
    # (Theme, Manner) aligns too and overwrites Theme; both B weights enter the norm addend.
    a = {**dict.fromkeys(ROLES, False), "Patient": True, "Manner": True}
    b = {**dict.fromkeys(ROLES, False), "Theme": True}
    plan, extra = H.align(a, b)
    assert plan == {"Theme": ("Manner", "Theme")} and extra == 2.5
    # a: Patient, b: Theme + Location: after (Theme, Patient) a's Patient is gone, so
    # (Patient, Location) no longer aligns
    a = {**dict.fromkeys(ROLES, False), "Patient": True}
    b = {**dict.fromkeys(ROLES, False), "Theme": True, "Location": True}
    assert H.align(a, b)[0] == {"Theme": ("Patient", "Theme")}


# --- role embeddings -------------------------------------------------------------------------


def test_role_similarities_by_hand_with_zero_vector_rule():
    wv = FakeVectors({"dog": [1, 0], "cat": [0, 1], "runs": [1, 1], "sprints": [1, 0], "park": [2, 0]})
    a, b = _parses({"Agent": "the dog", "Verb": "runs", "Location": "in the park", "Time": "then"},
                   {"Agent": "a cat", "Verb": "sprints", "Trajectory": "to the park", "Time": "now"})
    sims = H.role_similarities(a, b, word_vectors=wv, stopwords={"the", "a", "in", "to", "then", "now"},
                               lemmatise=None)
    row = sims.iloc[0]
    assert row["Agent"] == pytest.approx(0.0)
    assert row["Verb"] == pytest.approx(1 / math.sqrt(2))
    assert row["Location"] == pytest.approx(1.0)  # aligned with Trajectory
    assert math.isnan(row["Trajectory"])
    assert row["Time"] == 0.0  # both phrases are stop words only: zero vectors -> cosine 0
    assert sims.iloc[0].isna().sum() == 4  # Patient, Theme, Manner, Trajectory
    vectors, mask = H.role_vectors(a, wv, {"the"}, lemmatise=None)
    assert vectors.shape == (1, 8, 2) and mask.sum() == 4
    np.testing.assert_allclose(vectors[0, ROLES.index("Location")], [2, 0])  # "in" has no vector


def test_role_similarities_needs_one_embedding():
    a, b = _parses({"Verb": "runs"}, {"Verb": "runs"})
    with pytest.raises(ValueError):
        H.role_similarities(a, b)


# --- the published files (data mirror) -------------------------------------------------------


@pytest.fixture(scope="module")
def published():
    from compsem.data import sts3k

    return {
        "pairs": sts3k.load_pairs(),
        "rolewise": sts3k.load_rolewise_similarities(),
        "parses": sts3k.load_verbnet_parses("mod"),
        "basic": sts3k.load_published_similarities("verbnet_fixedparms_basic"),
        "norm": sts3k.load_published_similarities("verbnet_fixedparms_norm"),
    }


@pytest.mark.needs_data
def test_combine_reproduces_published_files(published):
    cn = published["rolewise"]["conceptnet"]
    np.testing.assert_allclose(H.combine(cn), published["basic"], atol=1e-6)
    extra = H.authors_norm_extra(published["parses"])
    np.testing.assert_allclose(H.combine(cn, denominator="present", extra=extra), published["norm"], atol=1e-6)


@pytest.mark.needs_data
def test_table9_verbnet_cn(published):
    from compsem.data.sts3k import portion_mask
    from compsem.sts.similarity import spearman

    targets = load_targets("sts3k")
    keys = [f"table9_verbnet_cn_sts3k_{p}" for p in ("all", "non", "adv")]
    assert all(k in targets for k in keys), f"targets {keys} missing from data/targets/sts3k.json"
    pairs = published["pairs"]
    sims = H.combine(published["rolewise"]["conceptnet"])
    for portion, key in zip(("all", "non", "adv"), keys, strict=True):
        rho = spearman(sims, pairs["human"].to_numpy(), portion_mask(pairs, portion))
        assert abs(rho - targets[key]["paper"]) <= 0.0005, (key, rho)
    # the unreported "norm" variant of the authors' repository files: .695 / .672 / .702
    extra = H.authors_norm_extra(published["parses"])
    norm = H.combine(published["rolewise"]["conceptnet"], denominator="present", extra=extra)
    for portion, paper in zip(("all", "non", "adv"), (0.695, 0.672, 0.702), strict=True):
        assert abs(spearman(norm, pairs["human"].to_numpy(), portion_mask(pairs, portion)) - paper) <= 0.0005


class _AnyWord:
    """A vector for every word (the NaN pattern does not depend on the vectors)."""

    dim = 3

    def vector(self, word):
        return np.array([1.0, len(word), hash(word) % 7], dtype=float)


@pytest.mark.needs_data
def test_nan_pattern_matches_published_rolewise(published):
    ours = H.role_similarities(published["parses"], word_vectors=_AnyWord(), stopwords=())
    theirs = published["rolewise"]["conceptnet"]
    assert ours.index.equals(theirs.index)
    assert (ours.isna().to_numpy() == theirs.isna().to_numpy()).all()


def test_paired_comparisons_of_a_family_add_the_bonferroni_interval():
    """family = k ("some candidate below its rival", a union of k tests): beside the 95% interval,
    the interval at 1 - .05/k from the same resamples, containing it; the claims on the hybrids
    and on the substitute hybrids read those keys."""
    from compsem import claims
    from compsem.stats import paired_spearman_difference
    from compsem.sts import chapter as C

    rng = np.random.default_rng(0)
    human = rng.random(200)
    candidates = {"VerbNet-CN": human + rng.normal(0, 0.3, 200), "AMR-CN": human + rng.normal(0, 0.4, 200)}
    rivals = {"DefSent": human + rng.normal(0, 0.6, 200), "SentBERT": human + rng.normal(0, 0.9, 200)}
    single = H.paired_comparisons(candidates, rivals, human, n_resamples=300, seed=1)
    table = H.paired_comparisons(candidates, rivals, human, n_resamples=300, seed=1, family=2)
    pd.testing.assert_frame_equal(table[single.columns], single)
    assert (table["rival"] == "DefSent").all()
    wide = paired_spearman_difference(candidates["AMR-CN"], rivals["DefSent"], human, n_resamples=300, seed=1,
                                      level=1 - 0.05 / 2)
    assert (table.loc["AMR-CN", "bonf2_ci_low"], table.loc["AMR-CN", "bonf2_ci_high"]) == (wide["ci_low"],
                                                                                           wide["ci_high"])
    assert (table["bonf2_ci_low"] <= table["ci_low"]).all() and (table["ci_high"] <= table["bonf2_ci_high"]).all()
    values = C.paired_values(table, "paired", ("bonf2_ci_low", "bonf2_ci_high"))
    claim = next(c for c in claims.load("sts3k") if c.id == "hybrids-above-best-transformer-paired")
    assert set(claims.rule_keys(claim.fails_if)) <= set(values)
    # a call with both levels equals two separate calls (one set of draws per candidate)
    for name in candidates:
        alone = paired_spearman_difference(candidates[name], rivals["DefSent"], human, n_resamples=300, seed=1)
        assert (table.loc[name, "ci_low"], table.loc[name, "ci_high"], table.loc[name, "p"]) == (
            alone["ci_low"], alone["ci_high"], alone["p"])
    # the substitute hybrids: the union holds VerbNet-CN on the corrected parses and AMR-CN; the
    # GPT-4 parses' VerbNet-CN is in no union and gets no Bonferroni interval
    substitutes = {f"{name}-{v}": candidates["VerbNet-CN"] for name in ("VerbNet", "VerbNet-GPT-4", "AMR-CN")
                   for v in ("glove50", "spacy-md")}
    members = [name for name in substitutes if "GPT-4" not in name]
    table = H.paired_comparisons(substitutes, rivals, human, n_resamples=100, seed=1, family=4, members=members)
    assert table.loc[members, "bonf4_ci_low"].notna().all()
    assert table.loc["VerbNet-GPT-4-glove50", ["bonf4_ci_low", "bonf4_ci_high"]].isna().all()
    pd.testing.assert_frame_equal(  # outside the union: the single test's columns as without a family
        table.loc[["VerbNet-GPT-4-spacy-md"], single.columns],
        H.paired_comparisons({"VerbNet-GPT-4-spacy-md": substitutes["VerbNet-GPT-4-spacy-md"]}, rivals, human,
                             n_resamples=100, seed=1))
    values = C.paired_values(table, "paired_sub", ("ci_low", "bonf4_ci_low", "bonf4_ci_high"))
    assert "paired_sub_verbnet_gpt_4_glove50_adv_ci_low" in values
    assert not any("gpt_4" in key and "bonf" in key for key in values)
    claim = next(c for c in claims.load("sts3k") if c.id == "hybrids-beat-transformers-substitute-vectors")
    assert set(claims.rule_keys(claim.fails_if)) == {key for key in values if "bonf4_ci_high" in key}


def test_paired_comparisons_refuses_a_union_with_more_members_than_its_size():
    """Four members read at Bonferroni's level for k = 2 would under-correct the union; a member
    that is no candidate is a typo. Both stop with the parameter named; fewer members than k (a
    reduced run's smaller family) are allowed."""
    rng = np.random.default_rng(0)
    human = rng.random(60)
    candidates = {f"c{i}": human + rng.normal(0, 0.5, 60) for i in range(4)}
    rivals = {"r": human + rng.normal(0, 0.9, 60)}
    with pytest.raises(ValueError, match="4 members .* family=2"):
        H.paired_comparisons(candidates, rivals, human, n_resamples=50, family=2, members=list(candidates))
    with pytest.raises(ValueError, match=r"members \['x'\] are not candidates"):
        H.paired_comparisons(candidates, rivals, human, n_resamples=50, family=2, members=["c0", "x"])
    with pytest.raises(ValueError, match="4 members .* family=3"):  # no members: every candidate
        H.paired_comparisons(candidates, rivals, human, n_resamples=50, family=3)
    table = H.paired_comparisons(candidates, rivals, human, n_resamples=50, family=4, members=["c0", "c1"])
    assert table.loc[["c0", "c1"], "bonf4_ci_low"].notna().all()
