"""Typed loaders on the real mirror: shapes, columns, known values, and clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from compsem.data import DataError, shared_sentences, sts3k
from compsem.data import sts_benchmarks as sb

pytestmark = pytest.mark.needs_data


def test_sentence_clusters_join_pairs_linked_through_shared_sentences():
    import pandas as pd

    toy = pd.DataFrame({"sentence_a": ["A", "B", "X", "C", "Y"], "sentence_b": ["B", "C", "Z", "D", "W"],
                        "portion": ["non", "adv", "adv", "adv", "neg"]})  # neg: in neither portion
    # A-B, B-C and C-D chain into one cluster through B and C; X-Z and Y-W stand alone
    assert shared_sentences.sentence_clusters(toy).tolist() == [0, 0, 1, 0, 2]
    assert shared_sentences.cluster_counts(toy, "toy") == {"toy_n_clusters": 3, "toy_n_pairs_sharing": 3,
                                                           "toy_largest_cluster": 3, "toy_n_mixed_clusters": 1}
    assert shared_sentences.cluster_counts(toy.assign(portion=["neg", "adv", "adv", "adv", "non"]), "toy")[
        "toy_n_mixed_clusters"] == 0  # a negative and adversarial pairs: no drop's mixed stratum
    assert "toy_n_mixed_clusters" not in shared_sentences.cluster_counts(toy.drop(columns="portion"), "toy")
    with pytest.raises(ValueError, match="sentence_b"):
        shared_sentences.sentence_clusters(toy.drop(columns="sentence_b"))
    counts = shared_sentences.cluster_counts(sts3k.load_pairs(), "sts3k")
    assert counts == {"sts3k_n_clusters": 1644, "sts3k_n_pairs_sharing": 1429, "sts3k_largest_cluster": 27,
                      "sts3k_n_mixed_clusters": 66}


def test_shares_sentence_finds_test_pairs_with_a_training_sentence():
    import pandas as pd

    toy = pd.DataFrame({"sentence_a": ["A", "B", "C", "E"], "sentence_b": ["B", "C", "D", "F"]})
    assert shared_sentences.shares_sentence(toy, [1, 2, 3], [0]).tolist() == [True, False, False]
    splits = {"one": {"train": np.array([0]), "test": np.array([1, 3])}, "two": {"train": np.array([3]), "test": np.array([2])}}
    assert shared_sentences.test_pairs_sharing(toy, splits) == 0.25  # (1/2 + 0/1) / 2


def test_sts3k_pairs_and_portions():
    pairs = sts3k.load_pairs()
    assert pairs.shape == (2800, 4)
    assert pairs["portion"].value_counts().to_dict() == {"adv": 1664, "non": 1065, "neg": 71}
    assert pairs.loc[1720:1790, "portion"].eq("neg").all()  # the negatives (the released xlsx's row order)
    assert pairs["human"].between(0, 1).all()
    assert pairs.loc[0, "sentence_b"] == "Donkeys inhabit the rugged terrain."
    assert sts3k.portion_mask(pairs, "adv").sum() == 1664
    with pytest.raises(ValueError, match="portion must be"):
        sts3k.portion_mask(pairs, "neg")


def test_participant_matrix():
    ratings = sts3k.load_participant_ratings()
    assert ratings.shape == (2800, 501)
    assert int(ratings.notna().sum().sum()) == 60120  # 501 x (110 + 10)
    assert ratings.notna().all(axis=1).sum() == 10  # the checks, rated by everyone
    meta = sts3k.load_participant_pairs()
    assert meta["xlsx_adversarial"].sum() == 1736
    np.testing.assert_allclose(meta["mean"], ratings.mean(axis=1), atol=1e-9)


def test_stopwords():
    words = sts3k.load_stopwords()
    assert len(words) == 179 and {"the", "a", "of"} <= words


def test_published_similarities():
    models = sts3k.published_similarity_models()
    assert {"mean", "sentbert_mpnet_norml", "verbnet_fixedparms_basic", "smatch"} <= set(models)
    mean = sts3k.load_published_similarities("mean")
    assert mean.shape == (2800,)
    assert mean[0] == pytest.approx(0.138348)
    assert len(sts3k.load_published_similarities("mean", "SICK_relatedness")) == 9840
    with pytest.raises(DataError, match="no published similarities of 'mena'"):
        sts3k.load_published_similarities("mena")


def test_parses():
    verbnet = sts3k.load_verbnet_parses()
    assert verbnet.shape == (5600, 8) and list(verbnet.columns) == list(sts3k.ROLES)
    assert verbnet.loc[(0, "b"), "Agent"] == "Donkeys"
    assert verbnet["Verb"].notna().all()
    rolewise = sts3k.load_rolewise_similarities()
    assert {"conceptnet", "sentbert"} <= set(rolewise)
    assert rolewise["conceptnet"].shape == (2800, 8)
    amr = sts3k.load_amr_parses()
    assert amr.shape == (2800, 4) and amr.loc[0, "amr_a"].lstrip().startswith("# ::snt")
    gpt4 = sts3k.load_gpt4_parses()
    assert gpt4.shape == (5600, 8)
    assert gpt4.loc[(2799, "a"), "Verb"] == "alter"


@pytest.mark.parametrize(("name", "n"), [("stsb-captions", 624), ("stsb-test", 1140), ("sick", 9840),
                                         ("stss-131", 131), ("fodor-pilot-2022", 120)])
def test_processed_benchmarks(name, n):
    frame = sb.load_processed(name)
    assert len(frame) == n and list(frame.columns) == ["sentence_a", "sentence_b", "human"]
    assert frame["human"].notna().all()


def test_original_benchmarks():
    assert sb.load_stsb("test")["human"].between(0, 5).all()
    assert len(sb.load_stsb("train")) == 5749
    sick = sb.load_sick("train")
    assert len(sick) == 4500 and set(sick["entailment"]) == {"NEUTRAL", "ENTAILMENT", "CONTRADICTION"}
    with pytest.raises(ValueError, match="split must be"):
        sb.load_sick("dev")


def test_ambiguous_semicolons_are_an_error():
    with pytest.raises(DataError, match="expected 'sentence1;sentence2;score'"):
        sts3k.read_pair_file("bmmlab/compositional-semantics-eval/Data-experiment/STSb_headlines_all.txt")
