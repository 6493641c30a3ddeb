"""The lexicon of Carvalho et al. (Appendix A of both versions; 001 Table 5, 004 Table 1).

61 adjectives in five classes (11 S-I, 6 S-NI, 27 NS-Pl, 14 NS-Pr, 3 A), 12 nouns, and one
hand-picked synonym per word (listed in the 2025 version only; no experiment uses them).

The word lists are read from the authors' ``data/adjectives.csv`` through the data registry
(:func:`compsem.data.registry.fetch`); which CSV column is which class, the short codes and the
class sizes the papers state come from ``data/lexicons/carvalho_classes.yaml``.

Quirks kept on purpose (they change the strings a model sees): words are lower-cased as the
authors' code did (``Canadian`` -> ``canadian``); the misspelled noun ``occurence`` and the
hyphenated ``ex-`` and ``so-called`` are kept verbatim.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass

import pandas as pd
import yaml

from compsem import paths

CLASSES_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "carvalho_classes.yaml"
CLASSES = ("S-I", "S-NI", "NS-Pl", "NS-Pr", "A")
"""The class codes in the order of the paper's table columns."""


@functools.cache
def class_info() -> dict:
    """The parsed ``carvalho_classes.yaml`` (class codes, CSV columns, sizes, quirks)."""
    info = yaml.safe_load(CLASSES_FILE.read_text(encoding="utf-8"))
    codes = tuple(c["code"] for c in info["classes"])
    if codes != CLASSES:
        raise ValueError(f"{CLASSES_FILE}: classes must be {CLASSES} in this order, not {codes}")
    return info


@dataclass(frozen=True)
class Lexicon:
    """Adjectives and nouns of the study.

    ``adjectives``: one row per adjective in Appendix A order, columns ``word`` (lower-cased,
    as embedded), ``written`` (as in the CSV), ``cls`` (class code), ``synonym`` (004).
    ``nouns``: columns ``word``, ``written``, ``synonym``.
    """

    adjectives: pd.DataFrame
    nouns: pd.DataFrame

    @property
    def adjective_classes(self) -> dict[str, str]:
        """word -> class code."""
        return dict(zip(self.adjectives["word"], self.adjectives["cls"], strict=True))

    def class_sizes(self) -> dict[str, int]:
        """Adjectives per class, in :data:`CLASSES` order (001 Table 5)."""
        counts = self.adjectives["cls"].value_counts()
        return {c: int(counts.get(c, 0)) for c in CLASSES}

    def words(self) -> list[str]:
        """Every single word that is embedded on its own: adjectives, then nouns."""
        return list(self.adjectives["word"]) + list(self.nouns["word"])

    def subset(self, adjectives_per_class: int | None = None, nouns: int | None = None) -> Lexicon:
        """The first ``adjectives_per_class`` adjectives of each class and the first ``nouns``
        nouns (Appendix A order); for quick looks and tests, never for the paper's numbers."""
        adj = self.adjectives
        if adjectives_per_class is not None:
            if adjectives_per_class < 1:
                raise ValueError(f"adjectives_per_class must be >= 1, got {adjectives_per_class}")
            adj = adj.groupby("cls", sort=False).head(adjectives_per_class)
        noun = self.nouns if nouns is None else self.nouns.head(nouns)
        return Lexicon(adj.reset_index(drop=True), noun.reset_index(drop=True))


def _column(rows: list[dict], name: str) -> list[str]:
    if rows and name not in rows[0]:
        raise ValueError(f"adjectives.csv has no column {name!r}; columns: {list(rows[0])}")
    return [r[name].strip() for r in rows if r[name].strip()]


def from_rows(rows: list[dict], lowercase: bool = True) -> Lexicon:
    """A :class:`Lexicon` from the rows of ``adjectives.csv`` (``csv.DictReader`` dicts).

    ``lowercase=True`` (the authors' code) lower-cases every word in ``word``; ``written``
    keeps the CSV spelling.
    """
    info = class_info()
    adjectives = []
    for cls in info["classes"]:
        words = _column(rows, cls["column"])
        synonyms = _column(rows, cls["synonym_column"])
        if len(words) != len(synonyms):
            raise ValueError(
                f"class {cls['code']}: {len(words)} words but {len(synonyms)} synonyms"
            )
        for written, synonym in zip(words, synonyms, strict=True):
            adjectives.append(
                {
                    "word": written.lower() if lowercase else written,
                    "written": written,
                    "cls": cls["code"],
                    "synonym": synonym,
                }
            )
    nouns_written = _column(rows, info["nouns"]["column"])
    noun_synonyms = _column(rows, info["nouns"]["synonym_column"])
    nouns = pd.DataFrame(
        {
            "word": [w.lower() if lowercase else w for w in nouns_written],
            "written": nouns_written,
            "synonym": noun_synonyms,
        }
    )
    adjectives = pd.DataFrame(adjectives)
    if adjectives["word"].duplicated().any():
        raise ValueError(
            f"duplicate adjectives: {adjectives['word'][adjectives['word'].duplicated()].tolist()}"
        )
    return Lexicon(adjectives, nouns)


def load(lowercase: bool = True) -> Lexicon:
    """The lexicon of Appendix A, read from the authors' ``adjectives.csv`` (data registry).

    >>> lex = load()
    >>> lex.class_sizes()
    {'S-I': 11, 'S-NI': 6, 'NS-Pl': 27, 'NS-Pr': 14, 'A': 3}
    """
    from compsem.data.registry import fetch

    file = fetch(class_info()["source"])
    with open(file, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return from_rows(rows, lowercase=lowercase)
