"""The chapter helpers of ``cogs-data`` (:mod:`compsem.cogs.data_chapter`): on small frames of
sentences and forms copied from the released data, and (``needs_data``) on the released files
against the sizes of Kim (2021, Section 4.4.3)."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest
from scipy.stats import contingency

from compsem.cogs import corpus, generate, grammar, lf
from compsem.cogs import data_chapter as chapter
from compsem.cogs import evaluation as ev
from compsem.cogs.interpret import Interpreter
from compsem.cogs.lexicon import VERB_CLASSES, Lexicon, Noun, Verb, load_lexicon
from compsem.targets import glued_paper_values

# (sentence, logical form) pairs as released (train.tsv / gen.tsv) or as the interpreter writes
SMILED = ("Gabriel smiled .", "smile . agent ( x _ 1 , Gabriel )")
ROLLED = (
    "The girl rolled the box .",
    "* girl ( x _ 1 ) ; * box ( x _ 4 ) ; roll . agent ( x _ 2 , x _ 1 ) AND "
    "roll . theme ( x _ 2 , x _ 4 )",
)
HELPED = (
    "William helped a girl on a TV .",
    "help . agent ( x _ 1 , William ) AND help . theme ( x _ 1 , x _ 3 ) AND girl ( x _ 3 ) AND "
    "girl . nmod . on ( x _ 3 , x _ 6 ) AND tv ( x _ 6 )",
)
ATE_BESIDE_GIRL = (
    "Emma ate the cake beside a girl .",
    "* cake ( x _ 3 ) ; eat . agent ( x _ 1 , Emma ) AND eat . theme ( x _ 1 , x _ 3 ) AND "
    "cake . nmod . beside ( x _ 3 , x _ 6 ) AND girl ( x _ 6 )",
)
GIRL_ON_TABLE_ROLLED = (
    "A girl on the table rolled .",
    "* table ( x _ 4 ) ; girl ( x _ 1 ) AND girl . nmod . on ( x _ 1 , x _ 4 ) AND "
    "roll . theme ( x _ 5 , x _ 1 )",
)
FORWARDED_DO = (
    "The buyer forwarded Emma Charlie .",
    "* buyer ( x _ 1 ) ; forward . agent ( x _ 2 , x _ 1 ) AND "
    "forward . recipient ( x _ 2 , Emma ) AND forward . theme ( x _ 2 , Charlie )",
)
FORWARDED_PP = (
    "The buyer forwarded Charlie to Emma .",
    "* buyer ( x _ 1 ) ; forward . agent ( x _ 2 , x _ 1 ) AND "
    "forward . theme ( x _ 2 , Charlie ) AND forward . recipient ( x _ 2 , Emma )",
)
NOUN_PRIMITIVE = ("ball", "LAMBDA a . ball ( a )")
VERB_PRIMITIVE = (
    "touch",
    "LAMBDA a . LAMBDA b . LAMBDA e . touch . agent ( e , b ) AND touch . theme ( e , a )",
)


def rows(*pairs, case: str = "in_distribution") -> pd.DataFrame:
    return pd.DataFrame(
        [{"source": s, "target": t, "case": case} for s, t in pairs],
        columns=["source", "target", "case"],
    )


@pytest.fixture(scope="module")
def interpreter() -> Interpreter:
    return Interpreter(load_lexicon())


def tiny_lexicon() -> Lexicon:
    return Lexicon(
        nouns={
            "girl": Noun("girl", "girl", animate=True, count=3),
            "box": Noun("box", "box", animate=False, count=1),
            "shark": Noun("shark", "shark", animate=None, count=0),
        },
        proper={"Emma": 2, "Paula": 0},
        verbs={
            "give": Verb("give", past="gave", participle="given", classes=["dative"], count=5),
            "roll": Verb(
                "roll",
                past="rolled",
                participle="rolled",
                classes=["transitive", "unaccusative"],
                count=9,
            ),  # fmt: skip
            "crawl": Verb("crawl", classes=["unergative"], count=0),
        },
    )


# --------------------------------------------------------------------------- the released data


def test_case_composition_pools_the_exposure_cases():
    frame = pd.DataFrame(
        {
            "case": ["in_distribution"] * 3
            + ["primitive", "exposure_example_a", "exposure_example_b"]
        }
    )
    assert chapter.pooled_case("exposure_example_obj_to_subj_common") == "exposure example"
    assert chapter.pooled_case("primitive") == "primitive"
    assert chapter.case_composition(frame).to_dict() == {
        "in_distribution": 3,
        "exposure example": 2,
        "primitive": 1,
    }


def test_released_counts_and_sizes_on_a_tiny_release():
    exposure_row = ("shark", "LAMBDA a . shark ( a )")
    train = pd.concat(
        [
            rows(SMILED, ROLLED),
            rows(NOUN_PRIMITIVE, VERB_PRIMITIVE, exposure_row, case="primitive"),
            rows(HELPED, case="exposure_example_subj_to_obj"),
        ],
        ignore_index=True,
    )
    gen = pd.concat([rows(SMILED, case="a"), rows(ROLLED, HELPED, case="b")], ignore_index=True)
    splits = {"train": train, "dev": rows(SMILED), "test": rows(SMILED, ROLLED), "gen": gen}
    exposure_1 = pd.concat(
        [rows(exposure_row, case="primitive"), rows(HELPED, case="exposure_example_subj_to_obj")]
    )
    exposure_100 = pd.concat(
        [rows(HELPED, HELPED, case="exposure_example_x"), rows(SMILED, case="exposure_example_y")]
    )
    values = chapter.released_counts(splits, exposure_1, exposure_100)
    assert values["cogsdata_n_train"] == 6
    assert values["cogsdata_n_train_in_distribution"] == 2
    assert (values["cogsdata_n_dev"], values["cogsdata_n_test"], values["cogsdata_n_gen"]) == (
        1,
        2,
        3,
    )
    assert values["cogsdata_n_cases"] == 2
    assert (values["cogsdata_gen_per_case_min"], values["cogsdata_gen_per_case_max"]) == (1, 2)
    assert values["cogsdata_n_exposure"] == 2
    # the exposure primitive (shark) is set apart; touch has three lambdas, ball one
    assert values["cogsdata_n_noun_primitives"] == 1
    assert values["cogsdata_n_verb_primitives"] == 1
    assert values["cogsdata_src_vocab_train"] == len({w for s in train.source for w in s.split()})
    assert values["cogsdata_exposure100_per_case"] == 1
    sizes = chapter.released_sizes(splits, exposure_1, exposure_100)
    assert sizes["rows"].to_dict() == {
        "train": 6, "dev": 1, "test": 2, "gen": 3, "exposure-1": 2, "exposure-100": 3
    }  # fmt: skip


def test_case_table_lists_the_21_cases_in_table_4_1_order():
    gen = pd.DataFrame({"case": [c for c in generate.CASES for _ in range(2)]})
    sections = {c: f"4.3.{i}" for i, c in enumerate(ev.CASE_ORDER)}
    table = corpus.case_table(sections, gen)
    assert list(table.index) == ev.CASE_ORDER and sorted(table.index) == sorted(generate.CASES)
    assert (table["gen rows"] == 2).all()
    assert table.loc["cp_recursion", "kind"] == "structural" == generate.CASES["cp_recursion"].kind
    assert table.loc["cp_recursion", "held-out item"] == ""
    assert table.loc["subj_to_obj_common", "held-out item"] == "hedgehog"
    assert set(table["kind"]) == {"lexical", "structural"}
    assert table.iloc[3]["section (released JSON)"] == "4.3.3"
    assert "gen rows" not in corpus.case_table(sections)


# --------------------------------------------------------------------------- logical forms


def parsed(targets):
    return [lf.parse(t) for t in targets]


def test_round_trip_counts_byte_identical_and_well_formed_rows():
    two_nouns = ("x", "girl ( x _ 1 ) AND boy ( x _ 1 )")  # parses, but x _ 1 has two nouns
    frame = rows(SMILED, ROLLED, two_nouns)
    forms = [lf.parse(t) for t in frame.target]
    table, values = chapter.round_trip(frame, forms)
    assert values == {
        "cogsdata_lf_rows": 3,
        "cogsdata_lf_round_trip": 1.0,
        "cogsdata_lf_well_formed": pytest.approx(2 / 3),
    }
    assert table.loc["well-formed", "all released rows"] == "66.67%"
    _, swapped = chapter.round_trip(frame, [forms[1], forms[0], forms[2]])
    assert swapped["cogsdata_lf_round_trip"] == pytest.approx(1 / 3)


def test_order_changes_counts_reordered_rows_per_file_in_file_order():
    disordered = (ROLLED[0], ROLLED[1].replace(
        "roll . agent ( x _ 2 , x _ 1 ) AND roll . theme ( x _ 2 , x _ 4 )",
        "roll . theme ( x _ 2 , x _ 4 ) AND roll . agent ( x _ 2 , x _ 1 )"))  # fmt: skip
    splits = {"train": rows(SMILED, disordered, NOUN_PRIMITIVE), "gen": rows(ROLLED)}
    all_rows = chapter.all_released_rows(splits, rows(SMILED), rows(HELPED))
    forms = [lf.parse(t) for t in all_rows.target]
    order = chapter.order_changes(all_rows, forms)
    assert list(order.index) == ["train", "gen", "exposure-1", "exposure-100"]
    assert order.loc["train", "rows"] == 2  # the primitive is left out
    assert order.loc["train", "order changed (rule with sentence)"] == 1
    assert order.loc["train", "order changed (rule without sentence)"] == 1
    assert order.loc[["gen", "exposure-1", "exposure-100"]].iloc[:, 1:].sum().sum() == 0


PASSIVE_TWO_NAMES = (
    "Emma was lent Charlie .",
    "lend . recipient ( x _ 2 , Emma ) AND lend . theme ( x _ 2 , Charlie )",
)


def test_ambiguous_order_is_an_event_with_two_proper_name_objects():
    assert chapter.ambiguous_order(lf.parse(FORWARDED_DO[1]))
    assert chapter.ambiguous_order(lf.parse(FORWARDED_PP[1]))
    assert chapter.ambiguous_order(lf.parse(PASSIVE_TWO_NAMES[1]))
    for _, target in (SMILED, ROLLED, HELPED, ATE_BESIDE_GIRL, NOUN_PRIMITIVE, VERB_PRIMITIVE):
        assert not chapter.ambiguous_order(lf.parse(target))
    one_name = "* cake ( x _ 4 ) ; give . agent ( x _ 1 , Emma ) AND give . recipient ( x _ 1 , Liam ) AND give . theme ( x _ 1 , x _ 4 )"  # fmt: skip
    assert not chapter.ambiguous_order(lf.parse(one_name))


def test_ambiguous_order_counts_per_file_and_case_depend_on_no_seed():
    splits = {
        "train": rows(SMILED, ROLLED, NOUN_PRIMITIVE),
        "gen": pd.concat([rows(FORWARDED_DO, ROLLED, case="a"),
                          rows(FORWARDED_PP, FORWARDED_DO, case="b")]),
    }  # fmt: skip
    all_rows = chapter.all_released_rows(
        splits, rows(SMILED), rows(PASSIVE_TWO_NAMES, case="exposure_example_obj_proper")
    )
    counts = chapter.ambiguous_order_counts(all_rows, parsed(all_rows.target))
    assert counts.to_dict() == {
        ("gen", "a"): 1, ("gen", "b"): 2, ("exposure-100", "exposure_example_obj_proper"): 1
    }  # fmt: skip
    assert chapter.ambiguous_order_total(counts, "gen") == 3
    assert chapter.ambiguous_order_total(counts, "train") == 0


def test_shuffled_forms_are_restored_unless_both_dative_objects_are_names():
    plain = [SMILED[1], ROLLED[1], HELPED[1], NOUN_PRIMITIVE[1]]
    assert chapter.shuffled_not_restored(plain * 20, parsed(plain * 20), random.Random(0)) == 0
    ambiguous = [FORWARDED_DO[1], FORWARDED_PP[1]] * 20
    # the ambiguous forms are counted apart (ambiguous_order), whatever the seed
    for seed in range(4):
        mixed = plain + ambiguous
        assert chapter.shuffled_not_restored(mixed, parsed(mixed), random.Random(seed)) == 0


def test_shuffled_not_restored_draws_once_per_non_primitive_form():
    """The chapter shares its generator with the perturbations: every non-primitive form,
    ambiguous or not, takes one shuffle, so the draws after it do not depend on which forms
    are ambiguous."""
    targets = [HELPED[1], FORWARDED_DO[1], NOUN_PRIMITIVE[1], ROLLED[1]]
    rng_a, rng_b = random.Random(5), random.Random(5)
    chapter.shuffled_not_restored(targets, parsed(targets), rng_a)
    for form in parsed(targets):
        if not form.is_primitive:
            rng_b.shuffle(list(form.conjuncts))
    assert rng_a.random() == rng_b.random()


def test_shuffled_not_restored_draws_from_the_shared_generator():
    rng_a, rng_b = random.Random(3), random.Random(3)
    chapter.shuffled_not_restored([HELPED[1]], parsed([HELPED[1]]), rng_a)
    assert rng_a.random() != rng_b.random()


@pytest.mark.parametrize("how", ["shuffle", "shuffle + rename"])
def test_meaning_preserving_perturbations_stay_equivalent(how):
    form = lf.parse(HELPED[1])
    variants = {chapter.perturb(form, how, random.Random(seed)) for seed in range(20)}
    assert all(lf.equivalent(v, HELPED[1]) for v in variants)
    assert any(not lf.exact_match(v, HELPED[1]) for v in variants)
    indices = set().union(*(lf.parse(v).variables for v in variants))
    assert (indices != {1, 3, 6}) == (how == "shuffle + rename")


@pytest.mark.parametrize("how", ["swap agent and theme", "definite to indefinite"])
def test_meaning_changing_perturbations_are_not_equivalent(how):
    variant = chapter.perturb(lf.parse(ROLLED[1]), how, random.Random(0))
    assert variant is not None
    assert not lf.equivalent(variant, ROLLED[1])
    assert not lf.exact_match(variant, ROLLED[1])


def test_perturb_is_none_where_it_does_not_apply_and_rejects_unknown_names():
    smiled = lf.parse(SMILED[1])  # agent only, no definite
    assert chapter.perturb(smiled, "swap agent and theme", random.Random(0)) is None
    assert chapter.perturb(smiled, "definite to indefinite", random.Random(0)) is None
    with pytest.raises(ValueError, match="unknown perturbation"):
        chapter.perturb(smiled, "reverse", random.Random(0))


def test_equivalence_table_separates_exact_match_from_equivalence():
    targets = [ROLLED[1], HELPED[1], SMILED[1]] * 5
    table = chapter.equivalence_table(targets, parsed(targets), random.Random(0))
    assert list(table.index) == list(chapter.PERTURBATIONS)
    assert table.loc["shuffle + rename", "rows"] == 15
    assert table.loc["shuffle + rename", "equivalent"] == 1.0
    assert table.loc["shuffle + rename", "exact match"] < 1.0
    assert table.loc["swap agent and theme", "rows"] == 10  # SMILED has no theme
    assert table.loc["definite to indefinite", "rows"] == 5  # only ROLLED has definites
    assert table.loc["swap agent and theme", "equivalent"] == 0.0
    assert table.loc["definite to indefinite", "equivalent"] == 0.0


# --------------------------------------------------------------------------- the lexicon


def test_animate_pp_objects_counts_animate_nouns_inside_pps(interpreter):
    assert chapter.animate_pp_objects([HELPED[0]], interpreter) == 0  # on a TV
    assert chapter.animate_pp_objects([ATE_BESIDE_GIRL[0]], interpreter) == 1
    assert chapter.animate_pp_objects([ATE_BESIDE_GIRL[0], SMILED[0]] * 3, interpreter) == 3


def test_lexicon_checks_and_sizes():
    lexicon = tiny_lexicon()
    train = pd.DataFrame({"case": ["primitive", "primitive", "in_distribution"]})
    checks = chapter.lexicon_checks(lexicon, lexicon.copy(), train)
    assert checks == {
        "cogsdata_lexicon_reproduced": 1,
        "cogsdata_lex_animate": 1,
        "cogsdata_lex_inanimate": 1,
        "cogsdata_n_primitive_rows": 2,
    }
    other = lexicon.copy()
    other.proper["Zoe"] = 1
    assert chapter.lexicon_checks(lexicon, other, train)["cogsdata_lexicon_reproduced"] == 0



def test_form_lemmas_by_kind():
    assert chapter.form_lemmas(lf.parse(HELPED[1])) == {
        "common_nouns": {"girl", "tv"}, "proper_nouns": {"William"}, "verbs": {"help"}
    }  # fmt: skip
    assert chapter.form_lemmas(lf.parse("Paula")) == {
        "common_nouns": set(), "proper_nouns": {"Paula"}, "verbs": set()
    }  # fmt: skip
    assert chapter.form_lemmas(lf.parse(VERB_PRIMITIVE[1]))["verbs"] == {"touch"}


def test_lexicon_sizes_count_all_splits_less_the_exposure_items():
    """Section 4.4.1 counts the lexicon apart from the exposure items: the words of every
    split's sentences, less the words only the exposure rows of train contain."""
    shark = ("shark", "LAMBDA a . shark ( a )")
    train = rows(SMILED, ROLLED, HELPED, NOUN_PRIMITIVE, shark)
    in_exposure = [False, False, True, False, True]  # HELPED and the shark primitive
    items = chapter.exposure_items(parsed(train.target), in_exposure)
    # girl occurs elsewhere in train; tv, William and help only in the exposure row
    assert items == {
        "common_nouns": {"shark", "tv"}, "proper_nouns": {"William"}, "verbs": {"help"}
    }  # fmt: skip
    gen = rows(ATE_BESIDE_GIRL, ("A shark helped Emma .",
                                 "shark ( x _ 1 ) AND help . agent ( x _ 2 , x _ 1 ) AND "
                                 "help . theme ( x _ 2 , Emma )"))  # fmt: skip
    split_forms = {"train": parsed(train.target), "gen": parsed(gen.target)}
    assert chapter.lexicon_sizes(split_forms, items) == {
        # girl, box, cake (gen only); the primitive ball is no sentence word
        "cogsdata_lex_common_nouns": 3,
        "cogsdata_lex_proper_nouns": 2,  # Gabriel, Emma
        "cogsdata_lex_verbs": 3,  # smile, roll, eat
        "cogsdata_lex_exposure_common_nouns": 2,
        "cogsdata_lex_exposure_proper_nouns": 1,
        "cogsdata_lex_exposure_verbs": 1,
    }
    table = chapter.lexicon_size_table(split_forms, items)
    assert table.loc["common_nouns", "train sentences"] == 3  # girl, box, tv
    assert table.loc["common_nouns", "sentences of all splits"] == 5  # + cake, shark
    assert table.loc["verbs", "the exposure items"] == "help"


def test_sampled_lexicon_sizes_count_the_in_distribution_rows_of_train_dev_and_test():
    """Section 4.4.3: train, dev and test are sampled from the grammar; gen comes from separate
    grammars and the primitives and exposure rows are added apart, so they do not count."""
    train = pd.concat([rows(SMILED, ROLLED), rows(NOUN_PRIMITIVE, case="primitive"),
                       rows(HELPED, case="exposure_example_obj_common")], ignore_index=True)
    splits = {"train": train, "dev": rows(ATE_BESIDE_GIRL), "test": rows(),
              "gen": rows(FORWARDED_DO, case="subj_to_obj_proper")}
    split_forms = {name: parsed(frame.target) for name, frame in splits.items()}
    assert chapter.sampled_lexicon_sizes(splits, split_forms) == {
        "cogsdata_lex_sampled_common_nouns": 3,  # box, girl (train), cake (dev); not ball, tv
        "cogsdata_lex_sampled_proper_nouns": 2,  # Gabriel, Emma; not William, Charlie
        "cogsdata_lex_sampled_verbs": 3,  # smile, roll, eat; not help, forward
    }


def test_verb_types_count_the_listed_types_with_verbs():
    lexicon = tiny_lexicon()
    expected = sum(bool(lexicon.verbs_of(c)) for c in VERB_CLASSES if c != "infinitive")
    assert chapter.verb_types(lexicon) == expected
    assert "infinitive" not in chapter.TEXT_VERB_TYPES
    assert len(chapter.TEXT_VERB_TYPES) == len(VERB_CLASSES) - 1


def test_verbs_by_class_and_irregular_verbs():
    lexicon = tiny_lexicon()
    table = chapter.verbs_by_class(lexicon, shown=1)
    assert list(table.index) == list(VERB_CLASSES)
    assert table.loc["unaccusative", "verbs"] == 1
    assert table.loc["dative", "most frequent"] == "give"
    assert table.loc["subject_control", "most frequent"] == ""
    irregular = chapter.irregular_verbs(lexicon)
    assert list(irregular.index) == ["give"]
    assert irregular.loc["give", "participle"] == "given"
    # a participle the data never attest shows as a dash, not NaN
    lexicon.verbs["run"] = Verb("run", past="ran", classes=["unergative"], count=2)
    irregular = chapter.irregular_verbs(lexicon)
    assert irregular.loc["run", "participle"] == chapter.UNATTESTED == "–"
    assert not irregular.isna().any().any()
    assert "NaN" not in irregular.T.to_string()


# --------------------------------------------------------------------------- reference parser


def test_sample_rows():
    frame = pd.DataFrame({"case": list("aaaabbbb"), "source": range(8)})
    assert chapter.sample_rows(frame, 0, per_case=True) is frame
    per_case = chapter.sample_rows(frame, 4, per_case=True)
    assert per_case.case.value_counts().to_dict() == {"a": 2, "b": 2}
    assert len(chapter.sample_rows(frame, 100, per_case=False)) == 8
    assert chapter.sample_rows(frame, 3, per_case=False).equals(
        chapter.sample_rows(frame, 3, per_case=False)
    )


def test_reference_parser_tables(interpreter):
    outside = ("Gabriel smiled the .", SMILED[1])
    reordered = (ROLLED[0], ROLLED[1].replace("* girl ( x _ 1 ) ; * box ( x _ 4 )",
                                              "* box ( x _ 4 ) ; * girl ( x _ 1 )"))  # fmt: skip
    splits = {
        "train": rows(SMILED, ROLLED),
        "gen": pd.concat(
            [
                rows(HELPED, outside, case="subj_to_obj_common"),
                rows(reordered, case="cp_recursion"),
            ],
            ignore_index=True,
        ),
    }
    reference = chapter.reference_parse(splits, interpreter)
    rows_gen, predictions, by_case = reference["gen"]
    assert len(rows_gen) == 3 and predictions[1] is None
    table = chapter.reference_splits(reference)
    assert table.loc["train", "exact match"] == 1.0
    assert table.loc["gen", "exact match"] == pytest.approx(1 / 3)
    assert table.loc["gen", "equivalent"] == pytest.approx(2 / 3)
    assert table.loc["gen", "outside the grammar"] == pytest.approx(1 / 3)
    values = chapter.reference_case_values(by_case)
    assert values == {
        "cogsdata_ref_gen_cp_recursion": 0.0,
        "cogsdata_ref_gen_subj_to_obj_common": 0.5,
        "cogsdata_ref_gen_lexical": 0.5,
        "cogsdata_ref_gen_structural": 0.0,
        "cogsdata_ref_case_min": 0.0,
    }


def test_closed_grammar_table_scores_the_rows_of_training_words():
    unknown = ("A gardner smiled .", "gardner ( x _ 1 ) AND smile . agent ( x _ 2 , x _ 1 )")
    wrong = (SMILED[0], "smile . theme ( x _ 1 , Gabriel )")  # a gold form the parser does not give
    splits = {
        "train": rows(SMILED, ROLLED),
        "dev": rows(SMILED, unknown, unknown),
        "gen": pd.concat([rows(SMILED, unknown, case="prim_to_subj_common"),
                          rows(ROLLED, wrong, case="cp_recursion")], ignore_index=True),
    }  # fmt: skip
    table = chapter.closed_grammar_table(splits, load_lexicon())
    assert list(table.columns) == list(chapter.CLOSED_COLUMNS)
    assert list(table.index) == [("dev", "in_distribution"), ("gen", "prim_to_subj_common"),
                                 ("gen", "cp_recursion")]  # fmt: skip
    never, outside, exact = chapter.CLOSED_COLUMNS[1:]
    assert table[never].tolist() == [2, 1, 0]  # gardner is not in train's sentences
    assert table[outside].tolist() == [2, 1, 0]  # and not in the lexicon: outside the grammar
    assert table[exact].tolist() == [1.0, 1.0, 0.5]  # on the rows of training words only
    values = chapter.closed_grammar_values(table)
    assert values == {
        "cogsdata_ref_closed_outside_dev": 2, "cogsdata_ref_closed_outside_gen": 1,
        "cogsdata_ref_unseen_rows_dev": 2, "cogsdata_ref_unseen_rows_gen": 1,
        "cogsdata_ref_closed_exact_min": 0.5, "cogsdata_ref_closed_groups": 3,
        "cogsdata_ref_closed_rows": 4,
    }  # fmt: skip
    # a word in train but not in the lexicon still falls outside the grammar, and counts
    splits["train"] = rows(SMILED, ROLLED, unknown)
    table = chapter.closed_grammar_table(splits, load_lexicon())
    assert table[never].sum() == 0 and table[outside].sum() == 3
    assert chapter.closed_grammar_values(table)["cogsdata_ref_closed_exact_min"] == pytest.approx(1 / 3)


# --------------------------------------------------------------------------- the grammar


def test_frame_weight_table_sets_estimated_beside_stated_weights():
    pcfg = grammar.load_pcfg(load_lexicon())
    table = chapter.frame_weight_table(pcfg)
    assert list(table.columns) == ["estimated from train", chapter.STATED_FRAME_COLUMN]
    assert table["estimated from train"].sum() == pytest.approx(sum(pcfg.frame_weights.values()))
    assert table[chapter.STATED_FRAME_COLUMN].to_dict() == pytest.approx(
        grammar.dissertation_frame_weights()
    )


def test_stated_frame_values_are_what_the_generator_uses():
    values = chapter.stated_frame_values()
    weights = grammar.dissertation_frame_weights()
    assert values["cogsdata_stated_frames_non_cp"] == len(weights) - 1
    assert weights["cp"] + values["cogsdata_stated_frames_non_cp"] * values[
        "cogsdata_stated_frame_weight"
    ] == pytest.approx(1.0)
    assert all(w == pytest.approx(values["cogsdata_stated_frame_weight"])
               for f, w in weights.items() if f != "cp")  # fmt: skip
    assert values["cogsdata_stated_cp_weight"] == pytest.approx(weights["cp"])


def test_paper_values_quote_every_target_under_its_own_name():
    from compsem.targets import load_targets

    targets = load_targets("cogs-data")
    values = glued_paper_values("cogs-data", "cogsdata")
    assert len(values) == len(targets)
    assert values["cogsdata_paper_lex_verbs"] == targets["cogsdata_lex_verbs"]["paper"]
    assert isinstance(values["cogsdata_paper_n_train"], int)


def test_generator_config_reads_the_chapter_parameters():
    sizes = dict(n_train=10, n_dev=2, n_test=3, n_per_case=4, exposures=1, zipf_s=1.5, seed=7)
    config = chapter.generator_config(held_out="all", frame_weights="estimated", **sizes)
    assert config.held_out == tuple(generate.CASES)
    assert config.frame_weights is None
    assert (config.n_train, config.n_gen, config.zipf_s, config.seed) == (10, 4, 1.5, 7)
    config = chapter.generator_config(
        held_out="cp_recursion, pp_recursion", frame_weights="dissertation", **sizes
    )
    assert config.held_out == ("cp_recursion", "pp_recursion")
    assert config.frame_weights == grammar.dissertation_frame_weights()
    with pytest.raises(ValueError, match="frame_weights"):
        chapter.generator_config(held_out="all", frame_weights="uniform", **sizes)
    with pytest.raises(ValueError, match="unknown generalization cases"):
        chapter.generator_config(held_out="no_such_case", frame_weights="estimated", **sizes)


def test_reparsed_share(interpreter):
    wrong = (SMILED[0], SMILED[1].replace("agent", "theme"))
    dataset = {"train": rows(SMILED, ROLLED, HELPED), "gen": rows(wrong)}
    assert chapter.reparsed_share(dataset, interpreter) == 0.75


# --------------------------------------------------------------------------- released vs generated


def test_length_values():
    lengths = pd.DataFrame(
        {"source max": [9, 40], "target max": [153, 480], "target mean": [20.5, 30.0]},
        index=["train", "gen"],
    )
    gen = pd.concat(
        [rows(SMILED, case="cp_recursion"), rows(ROLLED, HELPED, case="pp_recursion")],
        ignore_index=True,
    )
    values = chapter.length_values(lengths, gen)
    assert values["cogsdata_train_tgt_max"] == 153 and values["cogsdata_gen_src_max"] == 40
    assert values["cogsdata_cp_recursion_tgt_mean"] == len(SMILED[1].split())
    assert values["cogsdata_pp_recursion_tgt_mean"] == np.mean(
        [len(ROLLED[1].split()), len(HELPED[1].split())]
    )
    assert values["cogsdata_gen_tgt_mean"] == 30.0 and values["cogsdata_train_tgt_mean"] == 20.5


def test_construction_values_and_max_difference():
    from compsem.cogs import corpus

    counts = corpus.construction_counts(rows(SMILED, ROLLED, HELPED, ATE_BESIDE_GIRL))
    values = chapter.construction_values(counts)
    assert len(values) == len(chapter.CONSTRUCTION_KEYS)
    assert values["cogsdata_train_nmod"] == 2
    assert values["cogsdata_train_max_pp_depth"] == 1
    assert values["cogsdata_train_subject_nmod"] == 0
    released = pd.Series({"rows": 100, **{f"c{i}": 10 for i in range(9)}, "max CP depth": 2})
    generated = released.copy()
    generated["rows"] = 200
    generated["c4"] = 30  # rate 0.15 against 0.1; the others halve
    assert chapter.construction_max_difference(released, generated) == pytest.approx(0.5)
    generated[["c0", "c1", "c2", "c3", "c5", "c6", "c7", "c8"]] = 20
    generated["max CP depth"] = 100  # after the nine constructions: not compared
    assert chapter.construction_max_difference(released, generated) == pytest.approx(0.5)
    generated["max PP depth"], generated["nmod on a subject"] = 3, 0
    assert chapter.generated_gap_values(generated) == {
        "cogsdata_generated_subject_nmod": 0, "cogsdata_generated_max_depth": 100
    }  # fmt: skip


def test_construction_gap_is_the_relative_difference_of_one_rate():
    rates = pd.DataFrame({"ratio": [1.25, 0.9]}, index=["ccomp (two or more)", "xcomp"])
    assert chapter.construction_gap(rates, "ccomp (two or more)") == pytest.approx(0.25)
    assert chapter.construction_gap(rates, "xcomp") == pytest.approx(0.1)


def test_depth_values():
    depths = pd.DataFrame({"cp_recursion": [100, 99, 101], "pp_recursion": [100, 100, 98]},
                          index=[3, 4, 12])  # fmt: skip
    assert chapter.depth_values(depths) == {
        "cogsdata_gen_min_depth": 3,
        "cogsdata_gen_max_depth": 12,
        "cogsdata_gen_per_depth_min": 98,
        "cogsdata_gen_per_depth_max": 101,
    }


def test_length_comparison_sets_the_dissertations_numbers_beside_ours():
    from compsem.targets import load_targets

    targets = load_targets("cogs-data")
    lengths = pd.DataFrame({"rows": [10, 2, 2, 5], "target max": [150, 160, 130, 470]},
                           index=pd.Index(["train", "dev", "test", "gen"], name="split"))
    table = chapter.length_comparison(lengths, lengths.assign(rows=[11, 2, 2, 5]))
    assert list(dict.fromkeys(table.columns.get_level_values(0))) == ["released", "generated", "paper"]
    assert table[("paper", "target max")].tolist() == [153, "", "", 480]  # Section 4.5.4
    assert table.loc["train", ("paper", "target max")] == targets["cogsdata_train_tgt_max"]["paper"]
    assert table.loc["gen", ("paper", "target max")] == targets["cogsdata_gen_tgt_max"]["paper"]
    assert table[("paper", "rows")].tolist() == [24_155, 3_000, 3_000, 21_000]  # Section 4.4.3
    assert table.loc["train", ("released", "target max")] == 150
    assert table.loc["train", ("generated", "rows")] == 11


def test_mark_paper_lengths_marks_153_and_480_on_the_length_figure():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PathCollection

    from compsem.cogs import figures

    def frame(lengths):
        return pd.DataFrame({"source": "a", "target": [" ".join(["x"] * n) for n in lengths],
                             "case": "in_distribution"})

    released = {"train": frame([10, 40, 153]), "gen": frame([30, 200, 480])}
    generated = {"train": frame([12, 41, 155]), "gen": frame([33, 210, 427])}
    fig = figures.target_lengths(released, generated)
    limits = [(ax.get_xlim(), ax.get_ylim()) for ax in fig.axes]
    assert chapter.mark_paper_lengths(fig) is fig
    assert [(ax.get_xlim(), ax.get_ylim()) for ax in fig.axes] == limits  # the panels are kept
    for ax, split, value in zip(fig.axes, ("train", "gen"), (153, 480), strict=True):
        key = chapter.PAPER_LENGTH_KEYS[split]
        assert glued_paper_values("cogs-data", "cogsdata")[f"cogsdata_paper_{key.removeprefix('cogsdata_')}"] == value
        crosses = [c for c in ax.collections if isinstance(c, PathCollection)]  # scatter
        assert [float(c.get_offsets()[0, 0]) for c in crosses] == [value]
        assert any(f"paper: {value}" in t.get_text() for t in ax.texts)
    plt.close(fig)


def test_depth_comparison_sets_the_dissertations_range_beside_ours():
    released = pd.DataFrame({"cp_recursion": [100] * 10, "pp_recursion": [100] * 10},
                            index=range(3, 13))
    generated = pd.DataFrame({"cp_recursion": [100] * 9, "pp_recursion": [0] + [100] * 8},
                             index=range(3, 12))
    table = chapter.depth_comparison(released, generated)
    paper = ("paper (Section 4.3.3)", "both cases")
    assert list(table.index) == [("released", "cp_recursion"), ("released", "pp_recursion"),
                                 ("generated", "cp_recursion"), ("generated", "pp_recursion"), paper]
    assert (table.loc[paper, "min depth"], table.loc[paper, "max depth"]) == (3, 12)
    assert all(table.loc[paper, d] == "" for d in range(3, 13))  # no count per depth printed
    assert table.loc[("released", "cp_recursion"), "max depth"] == 12
    assert table.loc[("generated", "pp_recursion"), "min depth"] == 4
    assert table.loc[("generated", "cp_recursion"), 12] == 0


def test_the_chapter_shows_the_dissertations_lengths_and_depths():
    """The cogs-data chapter draws the paper's marks on the length figure and shows the paper's
    numbers in its length and depth tables."""
    from compsem import paths

    source = (paths.PROJECT_DIR / "notebooks" / "cogs-data.py").read_text(encoding="utf-8")
    assert "chapter.mark_paper_lengths(figures.target_lengths(" in source
    assert "chapter.length_comparison(" in source and "chapter.depth_comparison(" in source


def test_case_profile():
    embedded = (
        "Emma said that Gabriel smiled .",
        "say . agent ( x _ 1 , Emma ) AND say . ccomp ( x _ 1 , x _ 4 ) AND "
        "smile . agent ( x _ 4 , Gabriel )",
    )
    gen = pd.concat(
        [rows(embedded, SMILED, case="cp_recursion"), rows(HELPED, case="pp_recursion")],
        ignore_index=True,
    )
    profile = chapter.case_profile(gen)
    assert profile.loc["cp_recursion", "embedded"] == 0.5
    assert profile.loc["cp_recursion", "with_nmod"] == 0.0
    assert profile.loc["pp_recursion", "with_nmod"] == 1.0
    assert profile.loc["pp_recursion", "tokens"] == len(HELPED[1].split())


def test_embedding_values_compare_the_released_and_generated_profiles():
    cases = [*chapter.EMBEDDED_CASES, "cp_recursion", "subj_to_obj_common", "pp_recursion"]
    released = pd.DataFrame({"embedded": [0.96, 0.95, 0.97, 1.0, 0.1, 0.09]}, index=cases)
    generated = pd.DataFrame({"embedded": [0.9, 0.96, 0.96, 1.0, 0.15, 0.1]}, index=cases)
    values = chapter.embedding_values(released, generated)
    assert values["cogsdata_cobra_hippo_embedded_released"] == pytest.approx(0.95)
    assert values["cogsdata_cobra_hippo_embedded_generated"] == pytest.approx(0.9)
    assert values["cogsdata_other_cases_embedded_max"] == pytest.approx(0.15)
    assert values["cogsdata_case_embedded_maxdiff"] == pytest.approx(0.06)


def test_rank_frequencies_and_zipf_slopes():
    forms = {"released": rows(ROLLED, HELPED, ATE_BESIDE_GIRL), "generated": rows(ROLLED)}
    frequencies = chapter.rank_frequencies(forms)
    assert set(frequencies) == {(k, label) for k in ("noun", "name", "verb") for label in forms}
    assert frequencies[("noun", "released")].iloc[0] == 3  # girl in every form
    zipf = pd.Series([100, 50, 33, 25, 20], dtype=int)
    slopes = chapter.zipf_slopes({("noun", "a"): zipf, ("verb", "a"): zipf}, top=5)
    assert slopes.loc["noun", "a"] == pytest.approx(-1.0, abs=0.01)
    assert list(slopes.columns) == ["a"]


def test_clause_frame_shares_count_embedded_clauses(interpreter):
    frame = rows(("Emma said that Gabriel smiled .", ""), SMILED, ROLLED, GIRL_ON_TABLE_ROLLED)
    shares = chapter.clause_frame_shares(frame, interpreter)
    assert shares.sum() == pytest.approx(1.0)
    assert shares["unergative"] == pytest.approx(2 / 5)
    assert shares["unaccusative"] == pytest.approx(1 / 5)


def test_case_examples_are_seeded():
    frame = pd.DataFrame({"case": list("aaabbb"), "source": list("uvwxyz")})
    first = chapter.case_examples(frame, 1, seed=0)
    assert list(first.index) == ["a", "b"]
    assert first.equals(chapter.case_examples(frame, 1, seed=0))
    assert len(chapter.case_examples(frame, 2, seed=0)) == 4


def test_structural_examples_text():
    gen = pd.concat(
        [rows(HELPED, case="pp_recursion"), rows(SMILED, ROLLED, case="cp_recursion")],
        ignore_index=True,
    )
    text = chapter.structural_examples(gen, held=("cp_recursion", "pp_recursion"))
    assert text == (
        f"cp_recursion\n  {SMILED[0]}\n  {SMILED[1]}\n\n"
        f"pp_recursion\n  {HELPED[0]}\n  {HELPED[1]}\n\n"
    )
    assert chapter.structural_examples(gen, held=("subj_to_obj_common",)) == ""


def test_changelog_fixed_examples_reads_the_readme_entry():
    readme = ("## **Changelog**\n2022/09/13: Fixed semantic roles of 50 examples in the "
              "generalization set. Affected subset is ...\n")
    assert chapter.changelog_fixed_examples(readme) == 50
    with pytest.raises(ValueError, match="no changelog entry"):
        chapter.changelog_fixed_examples("# COGS\n")


def test_fixed_2022_rows_counts_pp_modified_animate_unaccusative_subjects(interpreter):
    table_on_girl = ("A table on the girl rolled .", "")
    gen = pd.concat(
        [
            rows(GIRL_ON_TABLE_ROLLED, table_on_girl, ROLLED, case="obj_pp_to_subj_pp"),
            rows(GIRL_ON_TABLE_ROLLED, case="cp_recursion"),
        ],
        ignore_index=True,
    )
    assert chapter.fixed_2022_rows(gen, interpreter) == 1


# --------------------------------------------------------------------------- released files


@pytest.mark.needs_data
def test_released_counts_match_the_dissertations_sizes():
    from compsem.data import cogs

    splits = {name: cogs.load(name) for name in ("train", "dev", "test", "gen")}
    values = chapter.released_counts(splits, cogs.load("exposure-1"), cogs.load("exposure-100"))
    # Kim 2021, Section 4.4.3: 24,155 training rows, 24,000 of them sampled sentences, 3,000
    # dev and test, 21 cases of 1,000, 15 exposure examples; 100 per case in train_100
    assert values["cogsdata_n_train"] == 24_155
    assert values["cogsdata_n_train_in_distribution"] == 24_000
    assert values["cogsdata_n_dev"] == values["cogsdata_n_test"] == 3_000
    assert values["cogsdata_n_cases"] == len(generate.CASES)
    assert values["cogsdata_gen_per_case_min"] == values["cogsdata_gen_per_case_max"] == 1_000
    assert values["cogsdata_n_exposure"] == 15
    assert values["cogsdata_exposure100_per_case"] == 100
    assert corpus.case_table(cogs.load_case_sections(), splits["gen"])["gen rows"].sum() == 21_000


@pytest.fixture(scope="module")
def released():
    from compsem.data import cogs

    splits = {name: cogs.load(name) for name in ("train", "dev", "test", "gen")}
    return splits, cogs.load("exposure-1"), cogs.load("exposure-100")


@pytest.mark.needs_data
def test_released_lexicon_counted_like_the_dissertation(released):
    """Kim 2021, Section 4.4.1: 403 common nouns and 100 proper nouns, counted apart from the 5
    common nouns, 3 proper nouns and 7 verbs of the exposure examples. The released sentences of
    all four splits (gardner and monastery occur only outside train) less those items match the
    nouns exactly; the verbs are 127, not 113 (claim verb-count)."""
    from compsem.cogs import exposure

    splits, exposure_1, _ = released
    train = splits["train"]
    items = chapter.exposure_items(
        parsed(train.target), exposure.exposure_mask(train, exposure_1)
    )
    assert items == {
        "common_nouns": {"hedgehog", "cockroach", "shark", "cobra", "hippo"},
        "proper_nouns": {"Lina", "Charlie", "Paula"},
        "verbs": {"shatter", "bake", "bless", "teleport", "ship", "squeeze", "crawl"},
    }
    split_forms = {name: parsed(frame.target) for name, frame in splits.items()}
    assert chapter.lexicon_sizes(split_forms, items) == {
        "cogsdata_lex_common_nouns": 403,
        "cogsdata_lex_proper_nouns": 100,
        "cogsdata_lex_verbs": 127,
        "cogsdata_lex_exposure_common_nouns": 5,
        "cogsdata_lex_exposure_proper_nouns": 3,
        "cogsdata_lex_exposure_verbs": 7,
    }
    # train alone, exposure items included, is another basis (the chapter's old count)
    table = chapter.lexicon_size_table(split_forms, items)
    assert table["train sentences"].to_dict() == {
        "common_nouns": 405, "proper_nouns": 102, "verbs": 133
    }  # fmt: skip


@pytest.mark.needs_data
def test_released_sampled_sentences_attest_more_verbs_than_the_text(released):
    """Kim 2021, Section 4.4.1 says 113 verbs; the sentences sampled from its grammar (the
    in-distribution rows of train, dev and test, Section 4.4.3) attest 127 verb lemmas, and none
    of the exposure verbs (claim verb-count)."""
    splits, _, _ = released
    split_forms = {name: parsed(frame.target) for name, frame in splits.items()}
    assert chapter.sampled_lexicon_sizes(splits, split_forms)["cogsdata_lex_sampled_verbs"] == 127


@pytest.mark.needs_data
def test_released_cobra_and_hippo_exposures_and_the_changelog(released):
    """The exposure examples of the cobra and hippo cases: hippo's is embedded in a CP, cobra's
    is a main clause; upstream's changelog says 50 examples were fixed in 2022, we count 51."""
    from compsem.cogs.lexicon import load_lexicon
    from compsem.data import cogs

    splits, exposure_1, _ = released
    exposures = chapter.embedded_case_exposures(splits["train"], exposure_1)
    assert exposures.embedded.to_dict() == {"hippo": True, "cobra": False}
    assert chapter.embedded_exposure_values(exposures) == {
        "cogsdata_cobra_hippo_exposure_rows": 2, "cogsdata_cobra_hippo_exposure_embedded": 1
    }  # fmt: skip
    assert chapter.changelog_fixed_examples(cogs.load_readme()) == 50
    assert chapter.fixed_2022_rows(splits["gen"], Interpreter(load_lexicon())) == 51


@pytest.mark.needs_data
def test_released_ambiguous_orders_are_counted_without_a_seed(released):
    """The forms whose conjunct order the form cannot decide (a recipient and a theme that are
    both proper names): all of them in two gen cases, none in train; every other shuffled form is
    restored by the sentence-free rule, whatever the seed."""
    splits, exposure_1, exposure_100 = released
    all_rows = chapter.all_released_rows(splits, exposure_1, exposure_100)
    forms = pd.Series(parsed(all_rows.target), index=all_rows.index)
    counts = chapter.ambiguous_order_counts(all_rows, forms)
    assert counts.to_dict() == {
        ("gen", "prim_to_obj_proper"): 209,
        ("gen", "subj_to_obj_proper"): 209,
        ("exposure-100", "exposure_example_obj_proper"): 17,
    }
    assert chapter.ambiguous_order_total(counts, "gen") == 418
    assert chapter.ambiguous_order_total(counts, "train") == 0
    gen = splits["gen"]
    for seed in (0, 1):
        assert chapter.shuffled_not_restored(gen.target, forms.loc["gen"], random.Random(seed)) == 0


@pytest.mark.needs_data
def test_released_exposure100_make_up(released):
    _, _, exposure_100 = released
    assert chapter.exposure100_values(exposure_100) == {
        "cogsdata_exposure100_rows": 1_500,
        "cogsdata_exposure100_cases": 12,
        "cogsdata_exposure100_distinct_min": 100,
        "cogsdata_exposure100_primitives": 3,
        "cogsdata_exposure100_primitive_repeats": 100,
    }


# The counts of the released files that the dissertation does not print
# (chapter.RELEASED_FILE_COUNTS), as counted from the checksum-verified files of the data registry
# (najoungkim/COGS at 165a7b6); exact counts, and means of exact counts
RELEASED_FILE_VALUES = {
    "cogsdata_train_tgt_mean": 43.58886358931898,
    "cogsdata_dev_tgt_mean": 44.266666666666666,
    "cogsdata_test_tgt_mean": 44.20333333333333,
    "cogsdata_gen_tgt_mean": 67.57647619047619,
    "cogsdata_cp_recursion_tgt_mean": 248.64,
    "cogsdata_pp_recursion_tgt_mean": 212.327,
    "cogsdata_train_src_max": 22,
    "cogsdata_gen_src_max": 61,
    "cogsdata_src_vocab_train": 743,
    "cogsdata_tgt_vocab_train": 683,
    "cogsdata_gen_per_depth_min": 100,
    "cogsdata_gen_per_depth_max": 100,
    "cogsdata_train_passive": 11_649,
    "cogsdata_train_recipient": 8_658,
    "cogsdata_train_nmod": 5_042,
    "cogsdata_train_nmod_two": 448,
    "cogsdata_train_ccomp": 2_274,
    "cogsdata_train_ccomp_two": 160,
    "cogsdata_train_xcomp": 1_329,
    "cogsdata_order_violations": 0,
}


def test_released_file_counts_are_apart_from_the_paper_numbers():
    from compsem import report

    assert set(RELEASED_FILE_VALUES) == set(chapter.RELEASED_FILE_COUNTS)
    assert not set(chapter.RELEASED_FILE_COUNTS) & set(report.load_targets("cogs-data"))
    results = {"cogsdata_n_train": 24_155, "cogsdata_train_nmod": 5_042}
    assert chapter.paper_numbers(results) == {"cogsdata_n_train": 24_155}
    table = chapter.released_file_table(RELEASED_FILE_VALUES)
    assert table.loc["cogsdata_train_nmod", "ours"] == 5_042
    assert list(table.index) == list(chapter.RELEASED_FILE_COUNTS)


def test_released_file_counts_in_the_book():
    """The committed chapter glues the released-file counts that the files give."""
    from compsem import paths, report

    glued = report.read_glued(paths.BOOK_DIR / "cogs-data.ipynb")
    assert {key: glued[key] for key in RELEASED_FILE_VALUES} == pytest.approx(
        RELEASED_FILE_VALUES, rel=1e-12
    )


@pytest.mark.needs_data
def test_released_file_counts_from_the_files(released):
    splits, exposure_1, exposure_100 = released
    train, gen = splits["train"], splits["gen"]
    values = chapter.released_counts(splits, exposure_1, exposure_100)
    values |= chapter.length_values(corpus.length_summary(splits), gen)
    values |= chapter.depth_values(corpus.depth_table(gen))
    values |= chapter.construction_values(
        corpus.construction_counts(train[train.case == "in_distribution"])
    )
    counted = {key: values[key] for key in RELEASED_FILE_VALUES if key in values}
    assert len(counted) == len(RELEASED_FILE_VALUES) - 1  # the order rule: in the book test
    assert counted == pytest.approx({k: RELEASED_FILE_VALUES[k] for k in counted}, rel=1e-12)


def test_construction_rate_table_flags_rates_that_differ_beyond_sampling_error():
    names = ["rows", "passive", "recipient", "nmod", "nmod (one)", "nmod (two or more)", "ccomp",
             "ccomp (one)", "ccomp (two or more)", "xcomp", "max CP depth"]
    released = pd.Series([24_000, 11_649, 8_658, 5_042, 4_594, 448, 2_274, 2_114, 160, 1_329, 2],
                         index=names)
    same = chapter.construction_rate_table(released, released)
    assert list(same.index) == names[1:10]
    assert (same["ratio"] == 1).all() and not same["differs"].any()
    assert (same["ci low"] < 1).all() and (same["ci high"] > 1).all()
    more = released.copy()
    more["recipient"] = 9_203  # the generated count of the chapter's default run
    table = chapter.construction_rate_table(released, more)
    assert table.loc["recipient", "ratio"] == pytest.approx(9_203 / 8_658)
    assert table["differs"].tolist() == [name == "recipient" for name in names[1:10]]


def test_construction_rate_intervals_hold_together_bonferroni():
    """The nine intervals are simultaneous: each at 1 - 0.05 / 9, wider than a lone 95% one,
    so a ratio just outside a lone interval need not be flagged."""
    names = ["rows", "passive", "recipient", "nmod", "nmod (one)", "nmod (two or more)", "ccomp",
             "ccomp (one)", "ccomp (two or more)", "xcomp", "max CP depth"]
    released = pd.Series([24_000, 11_649, 8_658, 5_042, 4_594, 448, 2_274, 2_114, 160, 1_329, 2],
                         index=names)
    generated = released.copy()
    generated["recipient"] = 8_900
    table = chapter.construction_rate_table(released, generated)
    lone = contingency.relative_risk(8_900, 24_000, 8_658, 24_000).confidence_interval(0.95)
    each = contingency.relative_risk(8_900, 24_000, 8_658, 24_000).confidence_interval(1 - 0.05 / 9)
    assert table.loc["recipient", "ci low"] == pytest.approx(each.low)
    assert table.loc["recipient", "ci low"] < lone.low
    assert lone.low > 1 > each.low  # significant alone, not among nine
    assert not table.loc["recipient", "differs"]


def test_case_embedded_table_newcombe_interval_with_bonferroni():
    from compsem.stats import wilson_interval

    released = pd.DataFrame({"rows": [1000, 1000, 1000], "embedded": [950, 100, 1000]},
                            index=["a", "b", "cp_recursion"])
    generated = pd.DataFrame({"rows": [1000, 1000, 1000, 5], "embedded": [900, 104, 1000, 1]},
                             index=["a", "b", "cp_recursion", "only_generated"])
    table = chapter.case_embedded_table(released, generated, level=0.95)
    assert list(table.index) == ["a", "b", "cp_recursion"]  # cases in both sets only
    each = 1 - 0.05 / 3
    lr, ur = wilson_interval(950, 1000, each)
    lg, ug = wilson_interval(900, 1000, each)
    assert table.loc["a", "difference"] == pytest.approx(-0.05)
    assert table.loc["a", "ci low"] == pytest.approx(-0.05 - np.hypot(0.9 - lg, ur - 0.95))
    assert table.loc["a", "ci high"] == pytest.approx(-0.05 + np.hypot(ug - 0.9, 0.95 - lr))
    assert bool(table.loc["a", "differs"])  # 0.95 vs 0.90 on 1000 rows each: beyond sampling
    assert not table.loc["b", "differs"]  # 0.100 vs 0.104: within
    assert not table.loc["cp_recursion", "differs"]  # both 1: defined, contains 0
    assert -1 <= table["ci low"].min() and table["ci high"].max() <= 1
    values = chapter.case_embedded_values(table, level=0.95)
    assert values["cogsdata_case_embedded_cases"] == 3
    assert values["cogsdata_case_embedded_differ"] == 1
    assert values["cogsdata_case_embedded_each_level"] == pytest.approx(each)
    # a wider family widens every interval
    assert (chapter.case_embedded_table(released, generated, level=0.99)["ci low"]
            < table["ci low"]).all()


def test_case_embedded_counts_count_rows_and_embedded_rows():
    embedded = (
        "Emma said that Gabriel smiled .",
        "say . agent ( x _ 1 , Emma ) AND say . ccomp ( x _ 1 , x _ 4 ) AND "
        "smile . agent ( x _ 4 , Gabriel )",
    )
    gen = pd.concat([rows(embedded, SMILED, case="cp_recursion"), rows(HELPED, case="pp")],
                    ignore_index=True)
    counts = chapter.case_embedded_counts(gen)
    assert counts.loc["cp_recursion", "rows"] == 2 and counts.loc["cp_recursion", "embedded"] == 1
    assert counts.loc["pp", "embedded"] == 0
    assert np.allclose(counts.embedded / counts.rows, chapter.case_profile(gen).embedded)


def test_reference_split_values_glue_exact_match_per_split():
    table = pd.DataFrame({"rows": [3, 4], "exact match": [1.0, 0.75]}, index=["train", "gen"])
    assert chapter.reference_split_values(table) == {"cogsdata_ref_train": 1.0, "cogsdata_ref_gen": 0.75}


def test_split_sizes_sets_released_beside_generated():
    released = {"train": pd.DataFrame({"x": range(3)}), "gen": pd.DataFrame({"x": range(5)})}
    generated = {"train": pd.DataFrame({"x": range(2)}), "gen": pd.DataFrame({"x": range(5)})}
    table = chapter.split_sizes(released, generated)
    assert table.to_dict() == {"released": {"train": 3, "gen": 5}, "generated": {"train": 2, "gen": 5}}
