"""compsem.sts.pair_types: rules on toy sentences, and the reconstruction vs Table 7 / §5.4."""

from __future__ import annotations

import numpy as np
import pytest

from compsem.sts import pair_types as T
from compsem.targets import load_targets

TARGETS = load_targets("sts3k")
STOP = frozenset(
    {"the", "a", "an", "of", "to", "in", "on", "for", "his", "her", "their", "was", "by", "with"}
)

# Our reconstruction's counts (a regression test); all equal Table 7.
OURS = {
    "Zero": 70,
    "Adjective": 61,
    "Constant verb": 96,
    "Constant dobj": 88,
    "Constant subj": 94,
    "Single change (verb)": 137,
    "Single change (dobj)": 138,
    "Single change (subj)": 153,
    "Other": 218,
    "Check": 10,
    "Paraphrase": 71,
    "Added modifiers": 679,
    "Double swap": 538,
    "Triple swap": 197,
    "Quadruple swap": 179,
    "Negative": 71,
}

# Our QUAD means where the reconstruction misses the published ones (a regression check; the
# targets mark them "substitute" with the reason).
QUAD_OURS = {0: 0.325, 2: 0.346, 3: 0.360}
TOL = 0.001  # the released per-pair means have three decimals


def key(type_name: str) -> str:
    return "type_count_" + type_name.lower().replace("(", "").replace(")", "").replace(" ", "_")


def test_content_stems_and_stem():
    assert T.content_stems("The judge's dogs judged the studies.", STOP) == (
        "judg",
        "dog",
        "judg",
        "study",
    )
    assert T.stem("supplies") == T.stem("supply") == "supply"


def test_changed_element_rules():
    s = lambda x: T.content_stems(x, STOP)  # noqa: E731
    assert (
        T.changed_element(
            s("Insects live on flowering plants."), s("Insects feed on flowering plants.")
        )
        == "AB_VERB"
    )
    assert (
        T.changed_element(
            s("Experts believed the report."), s("Experts believed the announcement.")
        )
        == "AB_DOBJ"
    )
    assert (
        T.changed_element(
            s("The ginger gives the dish flavor."), s("The pepper gives the dish flavor.")
        )
        == "AB_SUBJ"
    )


def test_subset_rule():
    s = lambda x: T.content_stems(x, STOP)  # noqa: E731
    assert T.is_subset_pair(
        s("The retirees joined the protest."), s("The thoughtful retirees joined the protest.")
    )
    assert not T.is_subset_pair(
        s("The child visited the nurse."), s("The nurse visited the child.")
    )


def test_category_codes_cover_table7():
    assert set(T.CATEGORY_TYPE.values()) == set(T.TYPES) and len(T.TYPES) == 16
    assert np.array_equal(
        np.sort(np.concatenate(list(T.SINGLE_ZERO_ROWS.values()))), T.SINGLE_ROWS[0]
    )
    assert np.array_equal(np.concatenate(list(T.MODIFIED_SWAP_RUNS.values())), T.MODIFIED_SWAP_ROWS)
    blocks = np.concatenate(
        [
            T.CHECK_ROWS,
            T.ZERO_ROWS,
            T.CONST_VERB_ROWS,
            T.CONST_SUBJ_ROWS,
            T.CONST_DOBJ_ROWS,
            *T.SINGLE_ROWS.values(),
            T.CONST_VARIANT_ROWS,
            *T.ONLY_MOD_ROWS.values(),
            *T.SWAP_BASE_ROWS.values(),
            T.PARAPHRASE_ROWS,
            T.NEGATIVE_ROWS,
            T.OTHER_ROWS,
            T.MODIFIED_SWAP_ROWS,
            T.ADJECTIVE_ROWS,
        ]
    )
    assert sorted(blocks.tolist()) == list(range(2800))  # the block map partitions the rows


@pytest.fixture(scope="module")
def reconstruction():
    from compsem.data import sts3k

    pairs = sts3k.load_pairs()
    return pairs, T.reconstruct_pair_types(pairs, sts3k.load_stopwords())


@pytest.mark.needs_data
def test_counts_against_table7(reconstruction):
    _, labels = reconstruction
    published = {t: TARGETS[key(t)]["paper"] for t in T.TYPES}
    table = T.type_counts(labels, published)
    assert table["ours"].to_dict() == OURS  # regression: exactly our numbers
    assert table["ours"].sum() == 2800
    assert table.loc[table["adversarial"], "ours"].sum() == TARGETS["n_adversarial"]["paper"]
    for type_name, row in table.iterrows():
        target = TARGETS[key(type_name)]
        # the row blocks were placed with these counts in view: fitted, still held to the count
        assert target.get("status") in (None, "fitted", "substitute"), type_name
        if target.get("status") == "substitute":
            assert target["reason"].startswith("reconstructed labels (the authors' label file")
            assert row["ours"] != target["paper"]  # drop the status once it matches
            continue
        assert abs(row["ours"] - target["paper"]) <= target["tol"], type_name
    assert (table["difference"] == 0).all()


@pytest.mark.needs_data
def test_row_evidence(reconstruction):
    pairs, labels = reconstruction
    assert labels.loc[2468, "category"] == "QUAD"  # adversarial in the authors' index file
    adversarial = labels["type"].isin(T.ADVERSARIAL_TYPES).to_numpy()
    assert np.array_equal(adversarial, (pairs["portion"] != "non").to_numpy())
    assert labels.loc[[2790, 2791], "category"].tolist() == ["CONST_DOBJ", "CONST_DOBJ"]
    assert labels.loc[T.CONST_VARIANT_ROWS, "category"].value_counts().to_dict() == {
        "CONST_VERB": 23,
        "CONST_SUBJ": 21,
        "CONST_DOBJ": 18,
    }
    single = labels.loc[np.concatenate(list(T.SINGLE_ROWS.values()))]
    assert single.groupby("n_modifiers")["category"].value_counts().unstack().to_dict("index") == {
        0.0: {"AB_DOBJ": 71, "AB_SUBJ": 72, "AB_VERB": 72},
        1.0: {"AB_DOBJ": 29, "AB_SUBJ": 35, "AB_VERB": 31},
        2.0: {"AB_DOBJ": 28, "AB_SUBJ": 33, "AB_VERB": 26},
        3.0: {"AB_DOBJ": 10, "AB_SUBJ": 13, "AB_VERB": 8},
    }
    assert set(labels["rule"]) == {"block", "family"}


@pytest.mark.needs_data
def test_type_modifier_means(reconstruction):
    """The published category x modifier means (targets ``type_mean_<category>_<k>``)."""
    pairs, labels = reconstruction
    means = T.type_modifier_means(labels, pairs["human"])
    mean_targets = {k: v for k, v in TARGETS.items() if k.startswith("type_mean_")}
    assert len(mean_targets) == 42
    for name, target in mean_targets.items():
        code, k = name[len("type_mean_"):].rsplit("_", 1)
        ours = means.loc[code.upper(), int(k)]
        if target.get("status") == "substitute":
            assert code == "quad" and ours == pytest.approx(QUAD_OURS[int(k)], abs=0.0005), name
            assert abs(ours - target["paper"]) > target["tol"]  # still a documented miss
        else:
            assert ours == pytest.approx(target["paper"], abs=target["tol"]), name


@pytest.mark.needs_data
def test_parse_check_agrees_with_blocks(reconstruction, nlp):
    pairs, _ = reconstruction
    check = T.parse_check(pairs, nlp)
    assert len(check) == 215
    disagree = check.index[check["block"] != check["parse"]].tolist()
    # 326, 376, 419, 453: parser errors; 360, 361, 387: content differs from the block label
    assert disagree == [326, 360, 361, 376, 387, 419, 453]
