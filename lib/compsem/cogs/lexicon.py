"""The COGS lexicon, derived from the released training data.

Kim (2021, Section 4.4.1) describes but does not list the lexicon: 403 common nouns, 100 proper
nouns, 113 verbs of 7 types (the text says 6), and animacy as the only selectional restriction.
:func:`derive_lexicon` recovers it from ``train.tsv`` by aligning each sentence with its logical
form: a noun predicate ``noun ( x _ i )`` names the word at position ``i``, an event predicate
``verb . role ( x _ e , ... )`` the verb form at position ``e`` (past tense in actives, the
participle after ``was``, the base form after ``to``), a proper name is a constant. The frames a
lemma occurs in give its classes:

========================  =======================================================================
class                     evidence in train (active unless stated)
========================  =======================================================================
``unergative``            ``agent`` only, never with an object (or a one-place agent primitive)
``object_omission``       ``agent`` only *and* with an object (Kim's type 1, *eat*)
``transitive``            ``agent`` + ``theme``, or a passive without a recipient (or a two-place
                          primitive)
``unaccusative``          ``theme`` only (or a one-place theme primitive)
``dative``                any frame with a ``recipient``
``cp``                    ``ccomp`` (Kim's type 4, *say*)
``subject_control``       ``xcomp`` (type 3, *try*)
``infinitive``            the complement of a control verb, after ``to``
========================  =======================================================================

A noun is ``animate`` when it occurs as an agent or a recipient in train. Counts (token
frequencies in train) give the Zipfian ranks of :mod:`compsem.cogs.grammar`. The derived
lexicon is committed as ``data/lexicons/cogs_lexicon.json``; :func:`load_lexicon` reads it and
the tests check that a fresh derivation reproduces it.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import pandas as pd

from compsem import paths
from compsem.cogs import lf as lfm

VERB_CLASSES = (
    "unergative",
    "object_omission",
    "transitive",
    "unaccusative",
    "dative",
    "cp",
    "subject_control",
    "infinitive",
)
"""Verb classes (Kim 2021, Section 4.4.1, the seven verb types, plus ``infinitive``)."""

DETERMINERS = ("a", "the")
PREPOSITIONS = lfm.PREPOSITIONS
LEXICON_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "cogs_lexicon.json"


@dataclass
class Verb:
    """A verb lemma: its forms, classes and training frequency."""

    lemma: str
    past: str | None = None
    participle: str | None = None
    classes: list[str] = field(default_factory=list)
    count: int = 0
    frames: dict[str, int] = field(default_factory=dict)

    def has(self, cls: str) -> bool:
        return cls in self.classes

    def past_form(self) -> str | None:
        """The active past form: seen in train, else the participle when it is regular (-ed);
        None when train does not attest it (e.g. *read*, seen only as an infinitive)."""
        if self.past:
            return self.past
        return self.participle if self.participle and self.participle.endswith("ed") else None

    def participle_form(self) -> str | None:
        """The passive participle: seen in train, else the past form when it is regular."""
        if self.participle:
            return self.participle
        return self.past if self.past and self.past.endswith("ed") else None

    def form_for(self, voice: str) -> str | None:
        """The finite form a clause of ``voice`` (``active``/``passive``) needs, or None."""
        return self.participle_form() if voice == "passive" else self.past_form()


@dataclass
class Noun:
    """A common noun: surface form (``TV``), lemma in the logical form (``tv``), animacy."""

    form: str
    lemma: str
    animate: bool | None = None
    count: int = 0


@dataclass
class Lexicon:
    """Nouns, proper names and verbs of COGS, with the indexes the parser needs."""

    nouns: dict[str, Noun] = field(default_factory=dict)  # by surface form
    proper: dict[str, int] = field(default_factory=dict)  # name -> count
    verbs: dict[str, Verb] = field(default_factory=dict)  # by lemma
    prepositions: tuple[str, ...] = PREPOSITIONS

    # ---------------------------------------------------------------- indexes
    @property
    def verb_forms(self) -> dict[str, str]:
        """Every known verb form (past, participle, base) -> lemma."""
        out = {}
        for v in self.verbs.values():
            for f in (v.lemma, v.past, v.participle):
                if f:
                    out[f] = v.lemma
        return out

    def verbs_of(self, cls: str) -> list[Verb]:
        """The verbs of one class, most frequent first."""
        if cls not in VERB_CLASSES:
            raise ValueError(f"unknown verb class {cls!r}; known: {VERB_CLASSES}")
        return sorted(
            (v for v in self.verbs.values() if v.has(cls)), key=lambda v: (-v.count, v.lemma)
        )

    def nouns_where(self, animate: bool | None = None) -> list[Noun]:
        """Common nouns (optionally only animate/inanimate ones), most frequent first."""
        return sorted(
            (n for n in self.nouns.values() if animate is None or n.animate is animate),
            key=lambda n: (-n.count, n.form),
        )

    def summary(self) -> pd.DataFrame:
        """Counts per category: nouns (animate/inanimate/unknown), proper names, verbs per class."""
        rows = [
            ("common nouns", len(self.nouns)),
            ("  animate", sum(n.animate is True for n in self.nouns.values())),
            ("  inanimate", sum(n.animate is False for n in self.nouns.values())),
            (
                "  animacy unknown (primitive only)",
                sum(n.animate is None for n in self.nouns.values()),
            ),
            ("proper names", len(self.proper)),
            ("verb lemmas", len(self.verbs)),
        ]
        rows += [(f"  {c}", len(self.verbs_of(c))) for c in VERB_CLASSES]
        rows.append(("prepositions", len(self.prepositions)))
        return pd.DataFrame(rows, columns=["category", "entries"]).set_index("category")

    # ---------------------------------------------------------------- (de)serialisation
    def to_json(self) -> str:
        data = {
            "nouns": {k: asdict(v) for k, v in sorted(self.nouns.items())},
            "proper": dict(sorted(self.proper.items())),
            "verbs": {k: asdict(v) for k, v in sorted(self.verbs.items())},
            "prepositions": list(self.prepositions),
        }
        return json.dumps(data, indent=1, sort_keys=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Lexicon:
        data = json.loads(text)
        return cls(
            nouns={k: Noun(**v) for k, v in data["nouns"].items()},
            proper=dict(data["proper"]),
            verbs={k: Verb(**v) for k, v in data["verbs"].items()},
            prepositions=tuple(data["prepositions"]),
        )

    def copy(self) -> Lexicon:
        return Lexicon.from_json(self.to_json())


@cache
def _load(path: str) -> str:
    return Path(path).read_text()


def load_lexicon(path: Path | str | None = None) -> Lexicon:
    """The committed lexicon (``data/lexicons/cogs_lexicon.json``, made by
    :func:`derive_lexicon` from ``train.tsv``); a fresh copy on every call."""
    path = Path(path) if path is not None else LEXICON_FILE
    if not path.exists():
        raise FileNotFoundError(
            f"no COGS lexicon at {path}; derive one with "
            "compsem.cogs.lexicon.derive_lexicon(cogs.load('train')) and save it with .to_json()"
        )
    return Lexicon.from_json(_load(str(path)))


def _voice(tokens: list[str], e: int, xcomp_targets: set[int]) -> str:
    if e in xcomp_targets:
        return "infinitive"
    return "passive" if e > 0 and tokens[e - 1] == "was" else "active"


def sentence_events(sentence: str, form: lfm.LogicalForm) -> list[dict]:
    """The events of an aligned (sentence, logical form) pair: position, surface form, lemma,
    voice (``active``/``passive``/``infinitive``) and the set of roles (Kim 2021, Section 4.4.2:
    an event's index is its verb's token position)."""
    tokens = sentence.split()
    roles: dict[int, dict[str, lfm.Term]] = defaultdict(dict)
    lemma: dict[int, str] = {}
    for a in form.conjuncts:
        if a.kind == "role":
            e = a.args[0].value
            roles[e][a.predicate[1]] = a.args[1]
            lemma[e] = a.lemma
    xcomp_targets = {
        t.value for r in roles.values() for k, t in r.items() if k == "xcomp" and t.is_var
    }
    out = []
    for e in sorted(roles):
        out.append(
            {
                "position": e,
                "form": tokens[e],
                "lemma": lemma[e],
                "voice": _voice(tokens, e, xcomp_targets),
                "roles": tuple(sorted(roles[e])),
                "args": roles[e],
            }
        )
    return out


def frame_name(voice: str, roles: Iterable[str]) -> str:
    """A frame label such as ``active:agent+theme``."""
    return f"{voice}:{'+'.join(sorted(roles))}"


def derive_lexicon(frame: pd.DataFrame) -> Lexicon:
    """Derive the lexicon from COGS rows (columns ``source``, ``target``; Kim 2021, Section
    4.4.1): nouns from noun predicates, names from constants, verbs with their forms, classes
    and frame counts from event predicates, and the primitive rows as lexical entries."""
    nouns: dict[str, Noun] = {}
    proper: Counter = Counter()
    verbs: dict[str, Verb] = {}
    frames: dict[str, Counter] = defaultdict(Counter)
    animate_evidence: Counter = Counter()
    prim_class: dict[str, str] = {}

    def verb(lemma: str) -> Verb:
        if lemma not in verbs:
            verbs[lemma] = Verb(lemma)
        return verbs[lemma]

    for sentence, target in zip(frame["source"], frame["target"], strict=True):
        form = lfm.parse(target)
        if form.is_primitive:
            word = sentence.strip()
            if form.constant is not None:
                proper[form.constant] += 0  # known, no token count
            elif len(form.lambdas) == 1:  # LAMBDA a . noun ( a )
                nouns.setdefault(word, Noun(word, form.conjuncts[0].lemma))
            else:
                v = verb(form.conjuncts[0].lemma)
                if len(form.lambdas) == 3:
                    prim_class[v.lemma] = "transitive"
                else:
                    role = form.conjuncts[0].predicate[1]
                    prim_class[v.lemma] = "unaccusative" if role == "theme" else "unergative"
            continue
        tokens = sentence.split()
        for a in form.atoms:
            if a.kind == "noun":
                i = a.args[0].value
                n = nouns.setdefault(tokens[i], Noun(tokens[i], a.lemma))
                n.count += 1
            for t in a.args:
                if t.kind == "const":
                    proper[t.value] += 1
        for ev in sentence_events(sentence, form):
            v = verb(ev["lemma"])
            v.count += 1
            frames[v.lemma][frame_name(ev["voice"], ev["roles"])] += 1
            if ev["voice"] == "active":
                v.past = v.past or ev["form"]
            elif ev["voice"] == "passive":
                v.participle = v.participle or ev["form"]
            for role, term in ev["args"].items():
                if role in ("agent", "recipient") and term.is_var:
                    animate_evidence[tokens[term.value]] += 1
    for n in nouns.values():
        n.animate = (animate_evidence[n.form] > 0) if n.count else None
    for v in verbs.values():
        f = frames[v.lemma]
        v.frames = dict(sorted(f.items()))
        keys = set(f)
        agent_only = "active:agent" in keys or any(k.startswith("infinitive:") for k in keys)
        transitive = bool(keys & {"active:agent+theme", "passive:theme", "passive:agent+theme"})
        classes = set()
        pc = prim_class.get(v.lemma)
        if pc == "transitive":
            transitive = True
        elif pc == "unergative":
            agent_only = True
        elif pc == "unaccusative":
            classes.add("unaccusative")
        if "active:theme" in keys:
            classes.add("unaccusative")
        if transitive:
            classes.add("transitive")
        if agent_only:
            classes.add("object_omission" if transitive else "unergative")
        if any("recipient" in k for k in keys):
            classes.add("dative")
        if any("ccomp" in k for k in keys):
            classes.add("cp")
        if any("xcomp" in k for k in keys):
            classes.add("subject_control")
        if any(k.startswith("infinitive:") for k in keys):
            classes.add("infinitive")
        v.classes = [c for c in VERB_CLASSES if c in classes]
    return Lexicon(nouns=nouns, proper=dict(proper), verbs=verbs)
