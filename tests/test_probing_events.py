"""compsem.probing: lexicon, event realisation, annotation, reader, generator."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compsem.probing import events as ev
from compsem.probing import generator as gen
from compsem.probing import grammars, lexicon, predicates, reader
from compsem.probing.events import GAP, Event, NounPhrase, realise

LEX = lexicon.load()


# --------------------------------------------------------------------------- lexicon


def test_inflection_table_lookups():
    assert LEX.verb_form("meet", "past") == "met"
    assert LEX.verb_form("hire", "ing") == "hiring"
    assert LEX.verb_form("watch", "s") == "watches"
    assert LEX.noun_form("man", "pl") == "men"
    assert LEX.noun_form("company", "pl") == "companies"
    assert LEX.is_human("professor") and not LEX.is_human("school")
    assert not LEX.is_transitive("sleep")
    assert LEX.analyse("recommended") == (
        ("verb", "recommend", "past"),
        ("verb", "recommend", "pp"),
    )
    assert LEX.analyse("the") == ()


def test_lexicon_errors_name_the_word():
    with pytest.raises(lexicon.LexiconError, match="unknown noun 'dragon'"):
        LEX.noun_form("dragon", "sg")
    with pytest.raises(lexicon.LexiconError, match="verb form"):
        LEX.verb_form("help", "gerund")
    with pytest.raises(lexicon.LexiconError, match="unknown inventory"):
        LEX.inventory("ettinger2020")


def test_inventories_match_the_notes():
    inv = LEX.inventory("ettinger2018")
    assert sorted(inv.nouns + inv.verbs) == sorted(
        [
            "professor",
            "student",
            "woman",
            "man",
            "doctor",
            "scientist",
            "lawyer",
            "dance",
            "sleep",
            "call",
            "help",
            "follow",
            "recommend",
            "meet",
        ]
    )
    assert len(inv.adverbs) == 11 and set(inv.test_adverbs) < set(inv.adverbs)
    assert len(inv.heldout_pairs) == 7
    inv16 = LEX.inventory("ettinger2016")
    assert {"professor", "student", "administrator", "researcher", "school"} <= set(inv16.nouns)
    assert {"recommend", "hire", "like"} <= set(inv16.transitive)


# --------------------------------------------------------------------------- realisation


@pytest.mark.parametrize(
    ("voice", "aspect", "negated", "tense", "number", "expected"),
    [
        ("active", "simple", False, "past", "sg", "the professor recommended the student"),
        ("active", "simple", False, "present", "sg", "the professor recommends the student"),
        ("active", "simple", False, "present", "pl", "the professors recommend the student"),
        ("active", "simple", True, "past", "pl", "the professors did not recommend the student"),
        ("active", "simple", True, "present", "sg", "the professor does not recommend the student"),
        (
            "active",
            "progressive",
            True,
            "past",
            "pl",
            "the professors were not recommending the student",
        ),
        (
            "passive",
            "simple",
            False,
            "present",
            "sg",
            "the student is recommended by the professor",
        ),
        (
            "passive",
            "progressive",
            True,
            "past",
            "sg",
            "the student was not being recommended by the professor",
        ),
    ],
)
def test_realisation_of_fixed_events(voice, aspect, negated, tense, number, expected):
    agent_number = number if voice == "active" else "sg"
    patient_number = "sg" if voice == "active" else number
    e = Event(
        "recommend",
        NounPhrase("professor", agent_number),
        NounPhrase("student", patient_number),
        voice=voice,
        tense=tense,
        aspect=aspect,
        negated=negated,
    )
    assert realise(e).text == expected


def test_relative_clauses_and_adverb_runs():
    src = Event("like", GAP, NounPhrase("school"), negated=True)
    e = Event("recommend", NounPhrase("professor", rc=src), NounPhrase("researcher"))
    assert realise(e).text == (
        "the professor that did not like the school recommended the researcher"
    )
    orc = Event("recommend", NounPhrase("professor"), GAP)
    e = Event("hire", NounPhrase("school"), NounPhrase("researcher", rc=orc))
    assert realise(e).text == "the school hired the researcher that the professor recommended"
    stranded = Event("help", GAP, NounPhrase("scientist", "pl"), voice="passive", tense="present")
    e = Event(
        "meet",
        NounPhrase("doctor", rc=stranded),
        NounPhrase("student", "pl"),
        tense="present",
        negated=True,
    )
    assert realise(e).text == (
        "the doctor that the scientists are helped by does not meet the students"
    )
    e = Event(
        "call",
        NounPhrase("man", "pl"),
        NounPhrase("student"),
        aspect="progressive",
        tense="present",
        negated=True,
        adverbs=("often", "really", "totally"),
    )
    assert realise(e).text == "the men are not often , really , totally calling the student"


def test_annotation_of_table2_first_sentence():
    rc = Event("like", GAP, NounPhrase("school"), negated=True)
    s = realise(Event("recommend", NounPhrase("professor", rc=rc), NounPhrase("researcher")))
    main, rel = s.predications
    assert (main.verb, main.agent, main.patient, main.negated, main.clause) == (
        "recommend",
        "professor",
        "researcher",
        False,
        "main",
    )
    assert (rel.verb, rel.agent, rel.patient, rel.negated, rel.clause, rel.gap) == (
        "like",
        "professor",
        "school",
        True,
        "rc-agent",
        "agent",
    )
    assert s.tokens[main.verb_index] == "recommended" and s.tokens[rel.verb_index] == "like"
    assert s.tokens[rel.not_index] == "not" and rel.not_index == 4
    assert rel.scope == (2, 3, 4, 5, 6, 7)  # "that did not like the school"
    assert main.scope == ()
    assert s.nouns() == ("professor", "school", "researcher")
    assert s.verbs() == ("like", "recommend")


def test_main_clause_negation_scope_excludes_the_relative_clause():
    rc = Event("like", GAP, NounPhrase("school"))
    s = realise(
        Event("recommend", NounPhrase("professor", rc=rc), NounPhrase("researcher"), negated=True)
    )
    rc_tokens = set(range(*s.predications[1].span))
    assert s.main.scope and not rc_tokens & set(s.main.scope)
    assert [s.tokens[i] for i in s.main.scope] == [
        "the",
        "professor",
        "did",
        "not",
        "recommend",
        "the",
        "researcher",
    ]


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (Event("sleep", NounPhrase("man"), NounPhrase("woman")), "takes no patient"),
        (Event("help", NounPhrase("man")), "needs a patient"),
        (Event("help", NounPhrase("man"), NounPhrase("woman"), voice="middle"), "voice"),
        (Event("help", GAP, NounPhrase("woman")), "cannot contain a GAP"),
        (
            Event(
                "help",
                NounPhrase("man", rc=Event("call", NounPhrase("doctor"), NounPhrase("lawyer"))),
                NounPhrase("woman"),
            ),
            "exactly one GAP",
        ),
        (
            Event("help", NounPhrase("man"), NounPhrase("woman"), adverbs=("slowly",)),
            "unknown adverbs",
        ),
    ],
)
def test_unrealisable_events_are_refused(event, message):
    with pytest.raises(ev.EventError, match=message):
        realise(event)


def test_structure_edits():
    e = Event("help", NounPhrase("professor", "pl"), NounPhrase("student"))
    swapped = ev.exchange_nouns(e, ("agent",), ("patient",))
    assert realise(swapped).text == "the student helped the professors"
    assert realise(ev.flip_voice(e)).text == "the professors were helped by the student"
    para = ev.paraphrase_voice(e)
    assert realise(para).text == "the student was helped by the professors"
    assert realise(para).main.agent == "professor"  # meaning kept
    assert sorted(realise(swapped).tokens) == sorted(realise(e).tokens)


# --------------------------------------------------------------------------- reader


def test_the_papers_example_sentences_parse_and_are_labelled_as_in_the_paper():
    ex = lexicon.examples()
    assert len(ex["table1"]) == 5 and len(ex["table2"]) == 3
    for row in ex["table1"]:
        assert predicates.is_agent(reader.read(row["positive"]), "professor", "recommend")
        assert not predicates.is_agent(reader.read(row["negative"]), "professor", "recommend")
    for row in ex["table2"]:
        s = reader.read(row["sentence"])
        assert predicates.is_agent(s, "professor", "recommend") == row["prof_ag_of_rec"]
        assert predicates.performs(s, "professor", "recommend") == row["prof_recommends"]


@pytest.mark.parametrize(
    "text",
    [
        "the professor recommend the student",  # agreement
        "the professors was helped by the man",  # agreement of be
        "the man slept the woman",  # intransitive with an object
        "the man that the woman slept danced",  # object relative of an intransitive verb
        "the professor recommended",  # missing object
        "the professor recommended the student quickly",
    ],
)
def test_reader_rejects_sentences_outside_the_grammar(text):
    with pytest.raises(reader.ParseError):
        reader.read(text)


GRAMMAR = gen.Grammar.from_inventory(
    "ettinger2018", max_adverbs=3, p_intransitive=0.3, stranded_by=True
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_read_inverts_realise(seed):
    event = gen.sample_event(np.random.default_rng(seed), GRAMMAR)
    sentence = realise(event)
    assert reader.read(sentence.text).event == event


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_annotation_agrees_with_the_surface(seed):
    event = gen.sample_event(np.random.default_rng(seed), GRAMMAR)
    s = realise(event)
    for p in s.predications:
        assert LEX.lemma(s.tokens[p.verb_index]) == p.verb
        assert LEX.lemma(s.tokens[p.agent_index]) == p.agent
        if p.patient is not None:
            assert LEX.lemma(s.tokens[p.patient_index]) == p.patient
        assert p.span[0] <= p.verb_index < p.span[1]
        if p.negated:
            assert s.tokens[p.not_index] == "not" and p.not_index < p.verb_index
            between = s.tokens[p.not_index + 1 : p.verb_index]
            assert all(t in LEX.adverbs or t in (",", "being") for t in between)
            assert set(p.scope) <= set(range(*p.span))
        else:
            assert p.not_index is None and p.scope == ()
        # main clause: the agent is the subject (active) or follows "by the" (passive)
        if p.voice == "active" and p.clause == "main":
            assert p.agent_index < p.verb_index
        if p.voice == "passive" and p.clause == "main":
            assert s.tokens[p.agent_index - 2] == "by" and p.agent_index > p.verb_index
    assert s.tokens.count("not") == sum(p.negated for p in s.predications)


def test_generator_is_deterministic_in_its_seed():
    a = [s.text for s in gen.sample(30, GRAMMAR, seed=5)]
    b = [s.text for s in gen.sample(30, GRAMMAR, seed=5)]
    c = [s.text for s in gen.sample(30, GRAMMAR, seed=6)]
    assert a == b and a != c and len(set(a)) == 30


def test_grammar_options_are_respected():
    g = gen.Grammar.from_inventory(
        "ettinger2018",
        voices=("active",),
        aspects=("progressive",),
        rc_sites=("agent",),
        negation=("rc",),
        max_adverbs=2,
        min_adverbs=1,
    )
    for s in gen.sample(40, g, seed=1):
        d = predicates.describe(s)
        assert d["rc_site"] == "agent" and d["neg_site"] == "rc" and d["voice"] == "active"
        assert all(p.aspect == "progressive" for p in s.predications)
        assert all(1 <= len(p.adverbs) <= 2 for p in s.predications)
    with pytest.raises(ValueError, match="rc_sites"):
        gen.Grammar.from_inventory("ettinger2018", rc_sites=("none",), negation=("rc",))
    with pytest.raises(ValueError, match="voices"):
        gen.Grammar.from_inventory("ettinger2018", voices=("middle",))
    with pytest.raises(ValueError, match="too small"):
        gen.sample(
            500,
            gen.Grammar(
                nouns=("man", "woman"), transitive=("help",), rc_sites=("none",), negation=("none",)
            ),
            seed=0,
        )


def test_negation_invariant_grammar_never_uses_do_support():
    g = grammars.ettinger2016_grammar(negation_invariant=True)
    for s in gen.sample(100, g, seed=2):
        assert not {"did", "does", "do"} & set(s.tokens)
        assert all(p.voice == "passive" or p.aspect == "progressive" for p in s.predications)
