"""The hand-written lexicon and inflection table of the probing generator.

The words and every surface form live in ``data/lexicons/probing_lexicon.yaml`` (data, not
code): nouns with their singular, plural and whether they denote a human (the category of the
has-human task of Ettinger, Elgohary & Resnik 2016, §4), verbs with their five forms, adverbs,
the function words of the realisation, and named *inventories* (the word sets of the 2016 and
2018 experiments). No inflection rule is applied anywhere: a form is looked up, never built.

>>> from compsem.probing import lexicon
>>> lex = lexicon.load()
>>> lex.verb_form("meet", "past"), lex.noun_form("man", "pl")
('met', 'men')
>>> lex.analyse("recommended")   # every reading of a surface form
(('verb', 'recommend', 'past'), ('verb', 'recommend', 'pp'))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from compsem import paths

LEXICON_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "probing_lexicon.yaml"

VERB_FORMS = ("base", "s", "past", "pp", "ing")
"""Verb form names: base (infinitive, present plural), s (present 3rd singular), past, pp (past
participle), ing (present participle)."""

NUMBERS = ("sg", "pl")
TENSES = ("past", "present")


class LexiconError(ValueError):
    """A word, form or inventory is not in the lexicon, or the lexicon file is malformed."""


@dataclass(frozen=True)
class Inventory:
    """A named word set (``inventories`` in the lexicon file)."""

    name: str
    nouns: tuple[str, ...]
    transitive: tuple[str, ...]
    intransitive: tuple[str, ...] = ()
    adverbs: tuple[str, ...] = ()
    heldout_pairs: tuple[tuple[str, str], ...] = ()
    test_adverbs: tuple[str, ...] = ()

    @property
    def verbs(self) -> tuple[str, ...]:
        """Transitive then intransitive verbs."""
        return self.transitive + self.intransitive


@dataclass(frozen=True)
class Lexicon:
    """Nouns, verbs, adverbs and function words with their surface forms."""

    nouns: dict[str, dict]
    verbs: dict[str, dict]
    adverbs: tuple[str, ...]
    function_words: dict
    inventories: dict[str, Inventory] = field(default_factory=dict)

    # ------------------------------------------------------------------ forms

    def noun_form(self, noun: str, number: str) -> str:
        """The surface form of ``noun`` in ``number`` (``"sg"`` or ``"pl"``)."""
        if noun not in self.nouns:
            raise LexiconError(f"unknown noun {noun!r}; known: {', '.join(sorted(self.nouns))}")
        if number not in NUMBERS:
            raise LexiconError(f"number must be one of {NUMBERS}, not {number!r}")
        return self.nouns[noun][number]

    def verb_form(self, verb: str, form: str) -> str:
        """The surface form ``form`` (one of :data:`VERB_FORMS`) of ``verb``."""
        if verb not in self.verbs:
            raise LexiconError(f"unknown verb {verb!r}; known: {', '.join(sorted(self.verbs))}")
        if form not in VERB_FORMS:
            raise LexiconError(f"verb form must be one of {VERB_FORMS}, not {form!r}")
        return self.verbs[verb][form]

    def is_transitive(self, verb: str) -> bool:
        """Whether ``verb`` takes a patient (and so has a passive)."""
        if verb not in self.verbs:
            raise LexiconError(f"unknown verb {verb!r}; known: {', '.join(sorted(self.verbs))}")
        return bool(self.verbs[verb]["transitive"])

    def is_human(self, noun: str) -> bool:
        """Whether ``noun`` denotes a human (Ettinger et al. 2016, has-human task)."""
        if noun not in self.nouns:
            raise LexiconError(f"unknown noun {noun!r}; known: {', '.join(sorted(self.nouns))}")
        return bool(self.nouns[noun]["human"])

    def be(self, tense: str, number: str) -> str:
        """is / are / was / were."""
        return self.function_words["be"][tense][number]

    def do(self, tense: str, number: str) -> str:
        """does / do / did."""
        return self.function_words["do"][tense][number]

    # ------------------------------------------------------------------ analysis

    @functools.cached_property
    def _readings(self) -> dict[str, tuple[tuple[str, str, str], ...]]:
        table: dict[str, list[tuple[str, str, str]]] = {}
        for noun, forms in self.nouns.items():
            for number in NUMBERS:
                table.setdefault(forms[number], []).append(("noun", noun, number))
        for verb, forms in self.verbs.items():
            for form in VERB_FORMS:
                table.setdefault(forms[form], []).append(("verb", verb, form))
        for adverb in self.adverbs:
            table.setdefault(adverb, []).append(("adverb", adverb, ""))
        return {word: tuple(readings) for word, readings in table.items()}

    def analyse(self, token: str) -> tuple[tuple[str, str, str], ...]:
        """Every reading of a surface token: ``(category, lemma, form)`` triples, where category
        is ``noun`` (form = number), ``verb`` (form = one of :data:`VERB_FORMS`) or ``adverb``;
        ``()`` for a function word or an unknown token."""
        return self._readings.get(token, ())

    def lemma(self, token: str) -> str | None:
        """The lemma of a content-word token (None for function words and unknown tokens)."""
        readings = self.analyse(token)
        return readings[0][1] if readings else None

    def inventory(self, name: str) -> Inventory:
        """The named word set (``ettinger2016``, ``ettinger2018``)."""
        if name not in self.inventories:
            raise LexiconError(
                f"unknown inventory {name!r}; known: {', '.join(sorted(self.inventories))}"
            )
        return self.inventories[name]


def _validate(raw: dict, file: Path) -> Lexicon:
    for section in ("nouns", "verbs", "adverbs", "function_words"):
        if section not in raw:
            raise LexiconError(f"{file}: missing section {section!r}")
    for noun, forms in raw["nouns"].items():
        missing = {"sg", "pl", "human"} - set(forms)
        if missing:
            raise LexiconError(f"{file}: noun {noun!r} lacks {sorted(missing)}")
    for verb, forms in raw["verbs"].items():
        missing = {*VERB_FORMS, "transitive"} - set(forms)
        if missing:
            raise LexiconError(f"{file}: verb {verb!r} lacks {sorted(missing)}")
    lex = Lexicon(
        nouns=dict(raw["nouns"]),
        verbs=dict(raw["verbs"]),
        adverbs=tuple(raw["adverbs"]),
        function_words=dict(raw["function_words"]),
    )
    inventories = {}
    for name, spec in (raw.get("inventories") or {}).items():
        inv = Inventory(
            name=name,
            nouns=tuple(spec.get("nouns", ())),
            transitive=tuple(spec.get("transitive", ())),
            intransitive=tuple(spec.get("intransitive", ())),
            adverbs=tuple(spec.get("adverbs", ())),
            heldout_pairs=tuple(tuple(p) for p in spec.get("heldout_pairs", ())),
            test_adverbs=tuple(spec.get("test_adverbs", ())),
        )
        for noun in inv.nouns:
            lex.noun_form(noun, "sg")
        for verb in inv.transitive:
            if not lex.is_transitive(verb):
                raise LexiconError(f"{file}: inventory {name}: {verb!r} is not transitive")
        for verb in inv.intransitive:
            if lex.is_transitive(verb):
                raise LexiconError(f"{file}: inventory {name}: {verb!r} is transitive")
        unknown = [a for a in inv.adverbs + inv.test_adverbs if a not in lex.adverbs]
        if unknown:
            raise LexiconError(f"{file}: inventory {name}: unknown adverbs {unknown}")
        inventories[name] = inv
    object.__setattr__(lex, "inventories", inventories)
    # a surface form may not be both a content word and a function word
    function_forms = {
        "is",
        "are",
        "was",
        "were",
        "does",
        "do",
        "did",
        "being",
        "not",
        "that",
        "by",
        "the",
        ",",
    }
    clash = sorted(function_forms & set(lex._readings))
    if clash:
        raise LexiconError(f"{file}: content-word forms clash with function words: {clash}")
    return lex


@functools.cache
def load(file: Path = LEXICON_FILE) -> Lexicon:
    """The lexicon of ``data/lexicons/probing_lexicon.yaml``, validated."""
    if not Path(file).is_file():
        raise LexiconError(f"lexicon file {file} is missing; restore it from git")
    return _validate(yaml.safe_load(Path(file).read_text()), Path(file))


EXAMPLES_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "probing_examples.yaml"


@functools.cache
def examples(file: Path = EXAMPLES_FILE) -> dict:
    """The example sentences of Ettinger, Elgohary & Resnik (2016), Tables 1 and 2, with the
    paper's labels (``data/lexicons/probing_examples.yaml``)."""
    if not Path(file).is_file():
        raise LexiconError(f"examples file {file} is missing; restore it from git")
    data = yaml.safe_load(Path(file).read_text())
    if set(data) != {"table1", "table2"}:
        raise LexiconError(f"{file}: expected the sections table1 and table2, got {sorted(data)}")
    return data
