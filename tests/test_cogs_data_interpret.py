"""The COGS parser + interpreter on hand-picked sentences of every construction (expected logical
forms copied from the released data), its errors, and its match rate on the released splits."""

from __future__ import annotations

import pytest

from compsem.cogs import interpret as interp
from compsem.cogs import lf
from compsem.cogs.lexicon import load_lexicon

# (sentence, logical form) pairs copied verbatim from train.tsv / gen.tsv
CASES = {
    "object-omitted transitive": (
        "The captain ate .",
        "* captain ( x _ 1 ) ; eat . agent ( x _ 2 , x _ 1 )",
    ),
    "unergative": ("Gabriel smiled .", "smile . agent ( x _ 1 , Gabriel )"),
    "unaccusative": ("Oliver crumpled .", "crumple . theme ( x _ 1 , Oliver )"),
    "transitive, definites": (
        "The girl rolled the box .",
        "* girl ( x _ 1 ) ; * box ( x _ 4 ) ; roll . agent ( x _ 2 , x _ 1 ) AND roll . theme ( x _ 2 , x _ 4 )",
    ),
    "transitive with PP on object, TV lemma": (
        "William helped a girl on a TV .",
        "help . agent ( x _ 1 , William ) AND help . theme ( x _ 1 , x _ 3 ) AND girl ( x _ 3 ) AND girl . nmod . on ( x _ 3 , x _ 6 ) AND tv ( x _ 6 )",
    ),
    "PP dative": (
        "A girl offered a rose to Isabella .",
        "girl ( x _ 1 ) AND offer . agent ( x _ 2 , x _ 1 ) AND offer . theme ( x _ 2 , x _ 4 ) AND offer . recipient ( x _ 2 , Isabella ) AND rose ( x _ 4 )",
    ),
    "double-object dative": (
        "Amelia gave Emma a strawberry .",
        "give . agent ( x _ 1 , Amelia ) AND give . recipient ( x _ 1 , Emma ) AND give . theme ( x _ 1 , x _ 4 ) AND strawberry ( x _ 4 )",
    ),
    "passive with by-phrase": (
        "A rose was helped by a dog .",
        "rose ( x _ 1 ) AND help . theme ( x _ 3 , x _ 1 ) AND help . agent ( x _ 3 , x _ 6 ) AND dog ( x _ 6 )",
    ),
    "passive without by-phrase": (
        "The donut was studied .",
        "* donut ( x _ 1 ) ; study . theme ( x _ 3 , x _ 1 )",
    ),
    "theme passive of a dative": (
        "A cake was forwarded to Levi by Charlotte .",
        "cake ( x _ 1 ) AND forward . theme ( x _ 3 , x _ 1 ) AND forward . recipient ( x _ 3 , Levi ) AND forward . agent ( x _ 3 , Charlotte )",
    ),
    "recipient passive with by-phrase": (
        "A visitor was posted a rose by a turtle .",
        "visitor ( x _ 1 ) AND post . recipient ( x _ 3 , x _ 1 ) AND post . theme ( x _ 3 , x _ 5 ) AND post . agent ( x _ 3 , x _ 8 ) AND rose ( x _ 5 ) AND turtle ( x _ 8 )",
    ),
    "recipient passive": (
        "Olivia was slipped a pencil .",
        "slip . recipient ( x _ 2 , Olivia ) AND slip . theme ( x _ 2 , x _ 4 ) AND pencil ( x _ 4 )",
    ),
    "CP, depth 2": (
        "The child appreciated that Emma valued that a cookie was slid .",
        "* child ( x _ 1 ) ; appreciate . agent ( x _ 2 , x _ 1 ) AND appreciate . ccomp ( x _ 2 , x _ 5 ) AND value . agent ( x _ 5 , Emma ) AND value . ccomp ( x _ 5 , x _ 10 ) AND cookie ( x _ 8 ) AND slide . theme ( x _ 10 , x _ 8 )",
    ),
    "subject control": (
        "David expected to cook .",
        "expect . agent ( x _ 1 , David ) AND expect . xcomp ( x _ 1 , x _ 3 ) AND cook . agent ( x _ 3 , David )",
    ),
    "CP + control": (
        "Liam hoped that the dog preferred to run .",
        "* dog ( x _ 4 ) ; hope . agent ( x _ 1 , Liam ) AND hope . ccomp ( x _ 1 , x _ 5 ) AND prefer . agent ( x _ 5 , x _ 4 ) AND prefer . xcomp ( x _ 5 , x _ 7 ) AND run . agent ( x _ 7 , x _ 4 )",
    ),
    "nested PPs, depth 2": (
        "A bee hunted the cake on the seat in the sack .",
        "* cake ( x _ 4 ) ; * seat ( x _ 7 ) ; * sack ( x _ 10 ) ; bee ( x _ 1 ) AND hunt . agent ( x _ 2 , x _ 1 ) AND hunt . theme ( x _ 2 , x _ 4 ) AND cake . nmod . on ( x _ 4 , x _ 7 ) AND seat . nmod . in ( x _ 7 , x _ 10 )",
    ),
    "exposure: PP dative with nmod": (
        "The girl shipped a cookie in a container to Scarlett .",
        "* girl ( x _ 1 ) ; ship . agent ( x _ 2 , x _ 1 ) AND ship . theme ( x _ 2 , x _ 4 ) AND ship . recipient ( x _ 2 , Scarlett ) AND cookie ( x _ 4 ) AND cookie . nmod . in ( x _ 4 , x _ 7 ) AND container ( x _ 7 )",
    ),
    "gen: subject PP (obj_pp_to_subj_pp, 2022 fix)": (
        "The researcher in a room froze .",
        "* researcher ( x _ 1 ) ; researcher . nmod . in ( x _ 1 , x _ 4 ) AND room ( x _ 4 ) AND freeze . theme ( x _ 5 , x _ 1 )",
    ),
    "gen: unaccusative used transitively": (
        "Liam shattered the jigsaw .",
        "* jigsaw ( x _ 3 ) ; shatter . agent ( x _ 1 , Liam ) AND shatter . theme ( x _ 1 , x _ 3 )",
    ),
    "primitive: common noun": ("ball", "LAMBDA a . ball ( a )"),
    "primitive: proper noun": ("Layla", "Layla"),
    "primitive: unaccusative": ("inflate", "LAMBDA a . LAMBDA e . inflate . theme ( e , a )"),
    "primitive: unergative": ("stutter", "LAMBDA a . LAMBDA e . stutter . agent ( e , a )"),
    "primitive: transitive": (
        "touch",
        "LAMBDA a . LAMBDA b . LAMBDA e . touch . agent ( e , b ) AND touch . theme ( e , a )",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_construction(name):
    sentence, expected = CASES[name]
    got = interp.interpret(sentence)
    assert got == expected
    assert lf.is_well_formed(got) and lf.parse(got) == lf.parse(expected)


def test_gen_depth_3():
    # depth-3 CP and PP (gen depths) compose like depth 0-2; from gen.tsv
    cp = (
        "A frog valued that a hero said that a fly meant that Emma slept .",
        "frog ( x _ 1 ) AND value . agent ( x _ 2 , x _ 1 ) AND value . ccomp ( x _ 2 , x _ 6 )"
        " AND hero ( x _ 5 ) AND say . agent ( x _ 6 , x _ 5 ) AND say . ccomp ( x _ 6 , x _ 10 )"
        " AND fly ( x _ 9 ) AND mean . agent ( x _ 10 , x _ 9 ) AND mean . ccomp ( x _ 10 , x _ 13 )"
        " AND sleep . agent ( x _ 13 , Emma )",
    )
    pp = (
        "Emma grew a frog in a hole on a sock on the bed .",
        "* bed ( x _ 12 ) ; grow . agent ( x _ 1 , Emma ) AND grow . theme ( x _ 1 , x _ 3 ) AND"
        " frog ( x _ 3 ) AND frog . nmod . in ( x _ 3 , x _ 6 ) AND hole ( x _ 6 ) AND hole . nmod"
        " . on ( x _ 6 , x _ 9 ) AND sock ( x _ 9 ) AND sock . nmod . on ( x _ 9 , x _ 12 )",
    )
    for sentence, expected in (cp, pp):
        assert interp.interpret(sentence) == expected


@pytest.mark.parametrize(
    "sentence, token",
    [
        ("The cat ran", "final '.'"),
        ("The cat ran the .", "end of sentence|common noun"),
        ("The zzz ran .", "'zzz'"),
        ("Emma in the house ran .", "'in'"),  # proper names take no PP
        ("The cat blorked .", "'blorked'"),
        ("ran .", "noun phrase"),
        ("", "empty"),
        ("qwerty", "unknown word"),
    ],
)
def test_errors(sentence, token):
    it = interp.Interpreter(open_nouns=False)
    with pytest.raises(interp.SentenceParseError, match=token):
        it(sentence)
    assert interp.interpret_all([sentence], it) == [None]


def test_open_nouns():
    closed = interp.Interpreter(open_nouns=False)
    opened = interp.Interpreter(open_nouns=True)
    s = "The cat saw a gardner ."
    with pytest.raises(interp.SentenceParseError):
        closed(s)
    assert opened(s).endswith("gardner ( x _ 4 )")
    assert opened.unknown_nouns == {"gardner"}


def test_interpreter_uses_the_given_lexicon():
    lex = load_lexicon()
    lex.verbs["smile"].classes = ["unaccusative"]  # pretend smile were unaccusative
    it = interp.Interpreter(lex)
    assert it("Gabriel smiled .") == "smile . theme ( x _ 1 , Gabriel )"
    assert interp.interpret("Gabriel smiled .") == "smile . agent ( x _ 1 , Gabriel )"


@pytest.mark.needs_data
def test_all_released_rows_exact_match():
    from compsem.data import cogs

    for split in ("train", "dev", "test", "gen", "exposure-100"):
        frame = cogs.load(split)
        out = interp.interpret_all(frame.source)
        wrong = [
            (s, t, o) for s, t, o in zip(frame.source, frame.target, out, strict=True) if o != t
        ]
        assert not wrong, (split, len(wrong), wrong[:3])
