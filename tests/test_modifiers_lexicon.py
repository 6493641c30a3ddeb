"""The lexicon (Appendix A) and the phrase generator of Carvalho et al. (§4.1.1-4.1.2)."""

from __future__ import annotations

import csv
import io

import pytest

from compsem.modifiers import lexicon, phrases
from compsem.modifiers.lexicon import CLASSES

# Appendix A of the 2022 version, as printed (the 2025 version prints the same lists).
APPENDIX_A = {
    "S-I": "wild, red, Canadian, depressed, square, seasonal, flamboyant, vigorous, loud, orange, shy",
    "S-NI": "skilful, powerful, particular, extreme, rare, unexpected",
    "NS-Pl": "former, alleged, apparent, arguable, assumed, believed, disputed, doubtful, erroneous, "
    "expected, faulty, future, historic, impossible, improbable, likely, ostensible, plausible, "
    "potential, proposed, putative, questionable, so-called, suspicious, theoretical, uncertain, "
    "unsuccessful",
    "NS-Pr": "artificial, counterfeit, deputy, ex-, fabricated, fictional, hypothetical, imaginary, "
    "mock, mythical, past, phony, spurious, virtual",
    "A": "old, small, big",
}
NOUNS = (
    "student, dog, potato, story, king, person, chair, occurence, law, problem, disaster, statement"
)


def _toy_rows() -> list[dict]:
    """A CSV in the authors' layout with two adjectives per class and three nouns."""
    info = lexicon.class_info()
    header = []
    for c in info["classes"]:
        header += [c["column"], c["synonym_column"]]
    header += [info["nouns"]["column"], info["nouns"]["synonym_column"]]
    words = {c: [f"{c.lower()}x", f"{c.lower()}y"] for c in CLASSES}
    lines = [",".join(header)]
    for i in range(3):
        row = []
        for c in CLASSES:
            row += [words[c][i], f"syn{words[c][i]}"] if i < 2 else ["", ""]
        row += [f"Noun{i}", f"nsyn{i}"]
        lines.append(",".join(row))
    return list(csv.DictReader(io.StringIO("\n".join(lines))))


def test_toy_lexicon_lowercases_and_keeps_order():
    lex = lexicon.from_rows(_toy_rows())
    assert lex.class_sizes() == dict.fromkeys(CLASSES, 2)
    assert list(lex.nouns["word"]) == ["noun0", "noun1", "noun2"]
    assert list(lex.nouns["written"]) == ["Noun0", "Noun1", "Noun2"]
    assert lex.adjectives["cls"].tolist()[:4] == ["S-I", "S-I", "S-NI", "S-NI"]


def test_toy_phrases_and_cell_sizes():
    lex = lexicon.from_rows(_toy_rows())
    table = phrases.generate(lex, max_words=3)
    n_adj, n_noun = 10, 3
    assert (table["kind"] == "AN").sum() == n_adj * n_noun
    assert (table["kind"] == "AAN").sum() == n_adj * (n_adj - 1) * n_noun
    aan = table[table["kind"] == "AAN"]
    assert phrases.cell_sizes(aan) == phrases.expected_cell_sizes(lex, "AAN")
    assert not any(a1 == a2 for a1, a2 in zip(aan["adj1"], aan["adj2"], strict=True))
    assert len(list(phrases.sequences(lex))) == 1 + n_adj + n_noun + n_adj * (n_adj - 1) + len(
        table
    )


def test_bipartitions():
    assert phrases.bipartitions(("a", "n")) == [("a", "n")]
    assert phrases.bipartitions(("a1", "a2", "n")) == [
        ("a1", "a2 n"),
        ("a2", "a1 n"),
        ("a1 a2", "n"),
    ]
    assert len(phrases.bipartitions(tuple("abcd"))) == 7


def test_generate_rejects_one_word():
    lex = lexicon.from_rows(_toy_rows())
    with pytest.raises(ValueError, match="max_words"):
        phrases.generate(lex, max_words=1)


@pytest.mark.needs_data
def test_mirror_matches_appendix_a_and_table_5():
    lex = lexicon.load(lowercase=False)
    for cls, printed in APPENDIX_A.items():
        got = lex.adjectives.loc[lex.adjectives["cls"] == cls, "written"].tolist()
        assert got == printed.split(", "), cls
    assert lex.nouns["written"].tolist() == NOUNS.split(", ")
    info = lexicon.class_info()
    assert lex.class_sizes() == {c["code"]: c["count_2022"] for c in info["classes"]}
    assert len(lex.adjectives) == 61 and len(lex.nouns) == 12
    # 004 Table 1 counts each adjective and its synonym (22, 12, 54, 28, 6)
    for c in info["classes"]:
        assert 2 * lex.class_sizes()[c["code"]] == c["count_2025"]


@pytest.mark.needs_data
def test_quirks_are_kept():
    lex = lexicon.load()
    words = set(lex.adjectives["word"])
    assert {"ex-", "so-called", "canadian"} <= words and "Canadian" not in words
    assert "occurence" in set(lex.nouns["word"])
    synonyms = lex.adjectives["synonym"].tolist()
    assert synonyms.count("dubious") == 3 and synonyms.count("possible") == 2
    assert lex.adjectives.set_index("word").loc["ex-", "synonym"] == "former"


@pytest.mark.needs_data
def test_study_phrase_counts():
    lex = lexicon.load()
    table = phrases.generate(lex, max_words=3)
    assert (table["kind"] == "AN").sum() == 732
    assert (table["kind"] == "AAN").sum() == 43_920
    assert len(table) == 44_652  # "The final dataset contains 44652 phrases" (§4.1.2)
    assert table["text"].is_unique
    assert sum(1 for _ in phrases.sequences(lex)) == 48_386  # the authors' generator, unfiltered
    an = table[table["kind"] == "AN"]
    assert phrases.cell_sizes(an) == {
        ("S-I",): 132,
        ("S-NI",): 72,
        ("NS-Pl",): 324,
        ("NS-Pr",): 168,
        ("A",): 36,
    }
    aan_sizes = phrases.cell_sizes(table[table["kind"] == "AAN"])
    assert aan_sizes[("S-I", "S-I")] == 1320 and aan_sizes[("NS-Pr", "S-I")] == 1848
    assert aan_sizes == phrases.expected_cell_sizes(lex, "AAN")
    assert len(phrases.strings_needed(lex, an)) == 805
    assert len(phrases.strings_needed(lex, table)) == 48_385
    assert "red wild dog" in set(table["text"]) and "wild red dog" in set(table["text"])
