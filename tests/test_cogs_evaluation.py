"""COGS metrics and error analyses (Kim 2021, Sections 4.4 and 4.5), on the dissertation's own
examples where it gives them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compsem.cogs import evaluation as ev

# (22): the passive verb replaced by another one -- same structure, single lexical error
BALLOON = "balloon ( x _ 1 ) AND bless . theme ( x _ 3 , x _ 1 )"
BALLOON_LSTM = "balloon ( x _ 1 ) AND inflate . theme ( x _ 3 , x _ 1 )"
# (23): a role and a verb misused -- same structure, not a single lexical error
BOOK = "* book ( x _ 1 ) ; bless . theme ( x _ 3 , x _ 1 ) AND bless . agent ( x _ 3 , x _ 6 ) AND girl ( x _ 6 )"
BOOK_LSTM = "* book ( x _ 1 ) ; bless . theme ( x _ 3 , x _ 1 ) AND send . recipient ( x _ 3 , x _ 6 ) AND girl ( x _ 6 )"
# (24): an index misused -- same structure, only an index wrong
ROSE = "* baby ( x _ 6 ) ; rose ( x _ 1 ) AND bless . theme ( x _ 3 , x _ 1 ) AND bless . agent ( x _ 3 , x _ 6 )"
ROSE_LSTM = "* baby ( x _ 5 ) ; rose ( x _ 1 ) AND bless . theme ( x _ 3 , x _ 1 ) AND bless . agent ( x _ 3 , x _ 6 )"
# (25): the Transformer's different structure
TOOL = "* tool ( x _ 1 ) ; * girl ( x _ 6 ) ; bless . theme ( x _ 3 , x _ 1 ) AND bless . agent ( x _ 3 , x _ 6 )"
TOOL_TRANSFORMER = "* tool ( x _ 1 ) ; * girl ( x _ 6 ) ; tool ( x _ 3 , x _ 1 ) AND bless . theme ( x _ 3 , x _ 6 )"
# (21): every `ship` produced as `admire` (c), or only one of them (d)
SHIP = (
    "* cat ( x _ 1 ) ; * donut ( x _ 5 ) ; ship . agent ( x _ 2 , x _ 1 ) AND "
    "ship . recipient ( x _ 2 , Emma ) AND ship . theme ( x _ 2 , x _ 5 )"
)
SHIP_ALL = SHIP.replace("ship", "admire")
SHIP_ONE = SHIP.replace("ship . theme", "admire . theme")
# (17): the unclosed parenthesis
PACK = "pack . agent ( x _ 1 , Paula )"
PACK_TRANSFORMER = "pack . agent ( x _ 1 , Paula"


def test_exact_match_is_token_identity():
    assert ev.exact_match([BALLOON, BALLOON + " "], [BALLOON, BALLOON]).tolist() == [True, True]
    assert ev.exact_match([BALLOON_LSTM], [BALLOON]).tolist() == [False]


def test_semantic_match_ignores_order_and_index_names_only():
    reordered = "bless . theme ( x _ 3 , x _ 1 ) AND balloon ( x _ 1 )"
    renamed = "balloon ( x _ 2 ) AND bless . theme ( x _ 7 , x _ 2 )"
    got = ev.semantic_match(
        [reordered, renamed, BALLOON_LSTM, PACK_TRANSFORMER], [BALLOON, BALLOON, BALLOON, PACK]
    )
    assert got.tolist() == [True, True, False, False]


def test_token_categories():
    assert [
        ev.token_category(t) for t in ["12", "agent", "nmod", "on", "cat", "Emma", "AND", "("]
    ] == ["index", "role", "role", "role", "lexical", "lexical", "AND", "("]


@pytest.mark.parametrize(
    "prediction, gold, structure, single, index",
    [
        (BALLOON, BALLOON, True, False, False),
        (BALLOON_LSTM, BALLOON, True, True, False),
        (BOOK_LSTM, BOOK, True, False, False),
        (ROSE_LSTM, ROSE, True, False, True),
        (TOOL_TRANSFORMER, TOOL, False, False, False),
        (SHIP_ALL, SHIP, True, True, False),
        (SHIP_ONE, SHIP, True, True, False),
        (PACK_TRANSFORMER, PACK, False, False, False),
        (
            "* director ( x _ 1 ) ; * cat ( x _ 4 )",
            "* shark ( x _ 1 ) ; * dog ( x _ 4 )",
            True,
            False,
            False,
        ),
        ("x _ 1", "Emma", False, False, False),
    ],
)
def test_footnote_20_structure_and_single_lexical_errors(
    prediction, gold, structure, single, index
):
    assert ev.structure_correct(prediction, gold) is structure
    assert ev.single_lexical_error(prediction, gold) is single
    assert ev.only_index_errors(prediction, gold) is index


def test_well_formedness():
    assert ev.ends_with_parenthesis(PACK) and not ev.ends_with_parenthesis(PACK_TRANSFORMER)
    assert not ev.ends_with_parenthesis("*") and not ev.ends_with_parenthesis("")
    assert ev.well_formed(PACK) and not ev.well_formed(PACK_TRANSFORMER)
    assert not ev.well_formed(TOOL_TRANSFORMER)  # ends in ")" but `tool` is a binary noun


def _levenshtein(a, b):
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def test_edit_distance_examples():
    assert ev.edit_distance(PACK_TRANSFORMER.split(), PACK.split()) == 1
    assert ev.edit_distance(SHIP_ALL.split(), SHIP.split()) == 3
    assert (
        ev.edit_distance([], list("abc")) == 3
        and ev.edit_distance(list("kitten"), list("sitting")) == 3
    )


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=9), st.lists(st.sampled_from("abcd"), max_size=9))
def test_edit_distance_is_levenshtein(a, b):
    d = ev.edit_distance(a, b)
    assert d == _levenshtein(a, b) == ev.edit_distance(b, a)
    assert abs(len(a) - len(b)) <= d <= max(len(a), len(b))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("abcdefgh"), min_size=60, max_size=200), st.data())
def test_edit_distance_of_long_outputs_is_levenshtein(a, data):
    """Outputs longer than a machine word (COGS forms run to hundreds of tokens), compared with
    a copy edited a few times, as a model's near-miss is."""
    b = list(a)
    for _ in range(data.draw(st.integers(0, 12))):
        where = data.draw(st.integers(0, len(b)))
        edit = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        if edit == "insert":
            b.insert(where, data.draw(st.sampled_from("abcdefghz")))
        elif edit == "delete" and b:
            del b[min(where, len(b) - 1)]
        elif b:
            b[min(where, len(b) - 1)] = "z"
    assert ev.edit_distance(a, b) == _levenshtein(a, b) == ev.edit_distance(b, a)


def test_aggregates_are_means_over_cases():
    by_case = pd.Series({c: (0.0 if c in ev.STRUCTURAL_CASES else 0.5) for c in ev.CASE_ORDER})
    by_case["subj_to_obj_common"] = 1.4  # any numbers: the mean is over the 18 lexical cases
    agg = ev.aggregate(by_case)
    assert agg["structural"] == 0.0
    assert agg["lexical"] == pytest.approx((17 * 0.5 + 1.4) / 18)
    assert agg["gen"] == pytest.approx((17 * 0.5 + 1.4) / 21)
    assert (
        len(ev.CASE_ORDER) == 21 and sum(ev.case_kind(c) == "lexical" for c in ev.CASE_ORDER) == 18
    )
    with pytest.raises(ValueError, match="unknown COGS generalization case"):
        ev.case_kind("in_distribution")


def test_accuracy_by_case_follows_table_order():
    got = ev.accuracy_by_case(
        [1, 0, 1, 1], ["pp_recursion", "pp_recursion", "subj_to_obj_common", "active_to_passive"]
    )
    assert got.index.tolist() == ["subj_to_obj_common", "pp_recursion", "active_to_passive"]
    assert got.tolist() == [1.0, 0.5, 1.0]


def _toy_frame():
    rows = [
        # source, case, target, prediction, capped
        ("A b said that c knew that d saw that e ran .", "cp_recursion", SHIP, SHIP, 0),
        ("A b said that c knew that d saw that e ran .", "cp_recursion", SHIP, SHIP[:40], 0),
        ("A b in c on d beside e in f ran .", "pp_recursion", ROSE, ROSE_LSTM, 0),
        ("A b in c on d beside e in f ran .", "pp_recursion", PACK, PACK + " AND x" * 5, 1),
        ("The book was blessed by a girl .", "active_to_passive", BOOK, BOOK_LSTM, 0),
        ("The tool was blessed by the girl .", "active_to_passive", TOOL, TOOL_TRANSFORMER, 0),
        ("Paula packed .", "prim_to_subj_proper", PACK, PACK_TRANSFORMER, 0),
        ("A balloon was blessed .", "active_to_passive", BALLOON, BALLOON_LSTM, 0),
    ]
    frame = pd.DataFrame(rows, columns=["source", "case", "target", "prediction", "capped"])
    return ev.analyse(frame)


def test_analysis_frame_and_summaries():
    a = _toy_frame()
    assert a["exact"].tolist() == [True] + [False] * 7
    assert a["depth"].tolist()[:4] == [3.0, 3.0, 4.0, 4.0] and np.isnan(a["depth"].iloc[4])
    summary = ev.error_summary(a)
    assert summary["errors"] == 7
    assert summary["error_not_ending_paren"] == pytest.approx(3 / 7)  # SHIP[:40], capped, PACK
    assert summary["single_lexical"] == pytest.approx(1 / 8)  # BALLOON_LSTM
    assert summary["structure_correct"] == pytest.approx(4 / 8)
    depth = ev.depth_errors(a)
    assert depth == {
        "depth_errors": 3.0,
        "premature_end": pytest.approx(1 / 3),
        "too_long": pytest.approx(1 / 3),
        "capped": pytest.approx(1 / 3),
        "only_index": pytest.approx(1 / 3),
    }
    ap = ev.active_passive_errors(a)
    assert ap == {"errors": 3.0, "wrong_structure": pytest.approx(1 / 3)}
    by_depth = ev.accuracy_by_depth(a)
    assert by_depth.loc[3.0, "cp_recursion"] == 0.5 and by_depth.loc[4.0, "pp_recursion"] == 0.0
    by_length = ev.accuracy_by_length(a, [0, 20, 1000])
    assert by_length["examples"].sum() == 8


def test_noun_type_table():
    by_case = pd.Series({"subj_to_obj_common": 0.8, "subj_to_obj_proper": 0.5})
    table = ev.noun_type_table(by_case)
    assert table.loc["Subject → Object", "common − proper"] == pytest.approx(0.3)
    assert np.isnan(table.loc["Object → Subject", "common noun"])


@pytest.mark.needs_data
def test_depths_of_the_released_gen_set():
    from compsem.data import cogs

    gen = cogs.load("gen")
    for case in ev.DEPTH_CASES:
        part = gen[gen.case == case]
        depths = [ev.recursion_depth(s, case) for s in part.source]
        assert pd.Series(depths).value_counts().sort_index().to_dict() == {
            float(d): 100 for d in range(3, 13)
        }
    assert set(gen.case) == set(ev.CASE_ORDER)


@pytest.mark.needs_data
def test_gold_outputs_score_perfectly():
    from compsem.data import cogs

    test = cogs.load("test").head(200)
    a = ev.analyse(test.assign(prediction=test.target))
    assert a["exact"].all() and a["semantic"].all() and a["structure"].all()
    assert a["ends_paren"].all() and a["well_formed"].all() and not a["single_lexical"].any()
