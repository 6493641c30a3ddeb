"""Rule-based labeller for the 8 VerbNet-CN roles of Fodor et al. (2025, §4.6).

The hybrid VerbNet-CN model (:mod:`compsem.sts.hybrid`) needs, for every sentence, the
phrases that fill **Agent, Verb, Patient, Theme, Time, Manner, Location, Trajectory**. The
authors got them from the SemParse VerbNet parser plus manual correction; those corrected parses
exist only for the 5,600 STS3k sentences (``sts3k.load_verbnet_parses("mod")``). This module
produces the same 8 roles for *any* English sentence from a spaCy dependency parse plus the word
lists of ``data/lexicons/sts_roles.yaml`` (:func:`load_lexicon`), without training, so that
VerbNet-CN can be run on new sentences.

API
---
- :func:`label_roles` (sentences -> frame, one row per sentence, 8 role columns, str or None),
  batched through ``nlp.pipe``; :func:`label_doc` labels one parsed spaCy ``Doc``.
- :func:`evaluate` (predicted, gold -> per-role P/R/F1 under an exact and a lenient matching,
  plus presence accuracy); :func:`error_classes` (most frequent confusion types, with examples).

Rules (and what in the gold parses motivated each)
--------------------------------------------------
The gold phrases are surface substrings of the sentence (all but ~2 % of them), with
determiners and, for prepositional roles, the **preposition included** ("in the jungle",
"to several employers", "by the repairmen"); so every role is emitted as the contiguous span of
a dependency subtree, preposition included.

1. **Verb** = the root verb (for passives the participle alone: gold "conveyed" for "is
   conveyed by"; auxiliaries/modals/negation are dropped: gold "matter" for "did not matter").
   A few phrasal verbs keep their particle ("asked for", "rely on", "specialize in", "gave
   away": 88 two-word gold verbs, ``phrasal``), their object then follows the ordinary
   object rules. A copula root ("is") is the Verb and its complement the Theme (or, under
   ``copulas="attribute"``, an Attribute outside the eight roles: :data:`COPULA_CONVENTIONS`).
2. **Agent** = the active subject (gold: 95 % of sentences have an Agent, mostly the subject).
   Intransitive subjects of change-of-state/existence verbs (grow, fall, die, sleep, happen,
   change; WordNet lexnames ``verb.change``/``verb.weather``…, ``unaccusative``) are
   **Patient** instead (gold "The baby slept" -> Patient, "Leaves grow on ..." -> Patient).
   Passive: the by-phrase, *with* "by", is the Agent (gold "by many farmers", 101 cases) and
   the passive subject takes the object role (rule 3).
3. **Object: Patient vs Theme.** VerbNet's choice depends on the verb class. Gold: direct
   objects of change-of-state, contact, creation and consumption verbs are mostly Patient
   ("repaired the old engine", "increased income taxes", "created many jobs"), those of
   cognition, communication, perception, possession, motion and stative verbs mostly Theme
   ("anticipates the needs", "believed the witness", "carried the drinks"). Decided by the
   WordNet lexname of the verb's first sense (``patient_lexnames``), overridden by a small
   verb list (``patient_verbs``, ``theme_verbs``).
4. **Double objects / datives.** In "V NP1 NP2" (spaCy ``dative`` + ``dobj``) the gold gives
   the recipient NP1 as **Location** for transfer verbs (bring, send: "brought the employer his
   equipment" -> Location "the employer") and the thing transferred NP2 as Theme; "gave
   researchers a large grant" -> Theme "a large grant". So dative NP -> Location (Patient if
   Location is taken), dobj -> Theme. A "to"-PP recipient of a transfer verb -> Location ("carried
   the drinks to the table", "returned the equipment to the hospital"), of a communication verb ->
   Patient ("wrote to several employers", "presented their requests to the chief").
5. **Prepositional phrases** attached to the verb are classified by preposition
   (:data:`PREP_ROLE`) and the WordNet lexname of their object noun:
   during/after/before/following/until/since/within/throughout+time noun, "for"/"over"/"in"/"at"/
   "on" + ``noun.time`` -> **Time** ("after the election", "for a week", "at night", "on
   Thursdays"); in/at/on/near/around/outside/under/above/behind/throughout/across (static) ->
   **Location** ("in the jungle", 301 "in", 234 "at", 135 "on"); into/through/out of/along/down/
   towards -> **Trajectory** ("into the room": 33 of the 101 gold Trajectories start with "into");
   about/with/from/for/against/over/of -> **Theme** (gold Theme begins with "for" 234, "about"
   212, "with" 209, "from" 145 times) unless Theme is already filled, then **Patient** (gold
   "hunt herbivores for food" -> Theme herbivores, Patient "for food"); "with"/"by" + instrument
   or manner noun (``noun.artifact``/``noun.body``/``noun.act`` heads such as "with both hands",
   "by train") -> **Manner**; "without"/"despite"/"in" + ``noun.feeling``/``noun.attribute``
   ("in confusion", "in detail") -> **Manner**.
6. **Adverbs** (``advmod`` of the verb): frequency/temporal adverbs (sometimes, usually, often,
   eventually, regularly, frequently, once, rarely, finally, briefly, occasionally, ...;
   ``time_adverbs``) -> **Time** (gold Time begins with "sometimes" 43, "usually" 29,
   "often" 27 ...); locative adverbs (here, there, abroad, overseas, home, ...) -> Location;
   directional particles (out, down, away, up, back, home) -> Trajectory; every other adverb
   (-ly manner adverbs, "well", "not") -> **Manner** (gold "carefully" 42, "reluctantly" 40,
   "widely" 47; "could not bear" -> Manner "not").
7. **Temporal NPs and clauses**: ``npadvmod``/``tmod`` noun phrases ("each week", "last night",
   "every day") and adverbial clauses introduced by when/while/after/before/until/since/as ->
   **Time** (gold "while on parole", "when ..."); other adverbial clauses and "by/through
   V-ing" -> Manner.
8. **Complements**: ``acomp``/``oprd``/``xcomp``/``ccomp`` -> Theme (gold "became dependent on
   external donors" -> Theme, "claimed the public protest pointless" -> Theme covering object +
   predicate). When a role is already filled, a second candidate spills to the next free role
   in a fixed fallback order (e.g. a second Theme-type PP -> Patient).

Honest limits: the gold parses are verb-class specific and not fully consistent (the same
construction "sent the scientist a letter" is Patient+Theme in one pair and Theme+Location in the
next; some passive subjects are Agent), so Patient vs Theme is the weakest decision. Measured
performance is printed by ``python -m compsem.sts.roles`` (see :func:`main`). These are in-sample
scores: the rules were written from the STS3k parses. :mod:`compsem.sts.labeller_scores` scores
them on the authors' corrected parses of three other sets, whose conventions for the object differ
(GS2011's and the pilot's call every object Patient: ``objects="patient"``, see
:data:`OBJECT_CONVENTIONS`).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from compsem import paths

ROLES = ("Agent", "Verb", "Patient", "Theme", "Time", "Manner", "Location", "Trajectory")

LABELS = (*ROLES, "Attribute")
"""The columns of the labeller's frames: the eight roles, and a copula's complement when it is not
a role (``copulas="attribute"``, :data:`COPULA_CONVENTIONS`)."""

# ---------------------------------------------------------------------------------- lexicons

LEXICON_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "sts_roles.yaml"


@dataclass(frozen=True)
class RoleLexicon:
    """The word lists of ``data/lexicons/sts_roles.yaml`` (one field per YAML key, as sets)."""

    phrasal: frozenset[tuple[str, str]]  # (verb lemma, particle) whose gold Verb keeps the particle
    unaccusative: frozenset[str]  # intransitive subject -> Patient
    patient_verbs: frozenset[str]  # object -> Patient
    theme_verbs: frozenset[str]  # object -> Theme
    transfer_verbs: frozenset[str]  # dative NP / "to"-PP recipient -> Location
    patient_lexnames: frozenset[str]  # WordNet verb lexnames whose object is Patient
    time_adverbs: frozenset[str]
    location_adverbs: frozenset[str]
    trajectory_adverbs: frozenset[str]
    time_preps: frozenset[str]
    location_preps: frozenset[str]
    trajectory_preps: frozenset[str]
    theme_preps: frozenset[str]
    manner_preps: frozenset[str]
    time_clause_markers: frozenset[str]
    determiners: frozenset[str]  # dropped by :func:`normalise`
    stopwords: frozenset[str]  # not content words (:func:`lenient_match`)


@functools.cache
def load_lexicon(path: str | Path = LEXICON_FILE) -> RoleLexicon:
    """The role labeller's word lists (``data/lexicons/sts_roles.yaml``), read once (cached)."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"role lexicon {path} is missing; restore it from git")
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    keys = [f.name for f in fields(RoleLexicon)]
    if not isinstance(raw, dict) or set(raw) != set(keys):
        got = sorted(raw) if isinstance(raw, dict) else type(raw).__name__
        raise ValueError(f"{path}: expected exactly the keys {keys}, got {got}")
    for key in keys:
        for entry in raw[key]:
            if key == "phrasal":
                ok = isinstance(entry, list) and len(entry) == 2
                ok = ok and all(isinstance(w, str) for w in entry)
            else:
                ok = isinstance(entry, str)
            if not ok:
                want = "a [verb, particle] pair" if key == "phrasal" else "a word"
                raise ValueError(
                    f"{path}: {key} has the entry {entry!r}, not {want} "
                    "(YAML reads bare on/off/no/yes as booleans: quote them)"
                )
    lists = {key: frozenset(raw[key]) for key in keys if key != "phrasal"}
    return RoleLexicon(phrasal=frozenset(tuple(pair) for pair in raw["phrasal"]), **lists)


# ------------------------------------------------------------------------------- helpers


def _wn():
    from compsem.resources import wordnet

    return wordnet()


_LEX_CACHE: dict[tuple[str, str], str | None] = {}


def lexname(lemma: str, pos: str) -> str | None:
    """Lexname of the first WordNet sense of ``lemma`` (pos 'n' or 'v'), cached."""
    key = (lemma.lower(), pos)
    if key not in _LEX_CACHE:
        synsets = _wn().synsets(lemma.lower().replace(" ", "_"), pos=pos)
        _LEX_CACHE[key] = synsets[0].lexname() if synsets else None
    return _LEX_CACHE[key]


def _span_text(tokens) -> str | None:
    tokens = sorted(tokens, key=lambda t: t.i)
    if not tokens:
        return None
    doc = tokens[0].doc
    span = doc[tokens[0].i : tokens[-1].i + 1]
    text = span.text.strip()
    text = re.sub(r"[\s.,;:!?]+$", "", text)
    return text or None


def _subtree(tok, exclude=()):
    excl = set()
    for e in exclude:
        excl.update(t.i for t in e.subtree)
    return [t for t in tok.subtree if t.i not in excl and not t.is_punct]


def _pobj(prep):
    for c in prep.children:
        if c.dep_ in ("pobj", "pcomp"):
            return c
    return None


def _is_time_noun(tok) -> bool:
    if tok is None:
        return False
    if tok.ent_type_ in ("DATE", "TIME"):
        return True
    return lexname(tok.lemma_, "n") == "noun.time"


# ------------------------------------------------------------------------------- labelling


class _Frame:
    def __init__(self):
        self.roles: dict[str, list] = {}

    def put(self, role: str, tokens, fallbacks: Sequence[str] = ()):
        if not tokens:
            return
        for r in (role, *fallbacks):
            if r not in self.roles:
                self.roles[r] = tokens
                return

    def texts(self) -> dict[str, str | None]:  # noqa: D102
        return {r: (_span_text(self.roles[r]) if r in self.roles else None) for r in LABELS}


def _main_verb(doc):
    """The main verb, and the subject tokens when they must be recovered from a mis-parse.

    Repairs two frequent en_core_web_sm errors on the STS3k sentences: (a) a verbless ROOT noun
    with a participle ``acl`` ("The grandfather paid for the work": ROOT grandfather <-acl- paid)
    -> the participle is the verb, the rest of the noun phrase its subject; (b) a verbless noun
    compound "Lions hunt herbivores" (hunt = compound) -> the first non-initial compound token
    with a WordNet verb sense is the verb, what precedes it the subject."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if not roots:
        return None, None
    root = roots[0]
    if root.pos_ in ("VERB", "AUX"):
        return root, None
    acl = [c for c in root.children if c.dep_ == "acl" and c.pos_ == "VERB"]
    if acl and not any(t.pos_ in ("VERB", "AUX") and t.dep_ in ("ROOT", "relcl") for t in doc):
        verb = acl[0]
        subj = [t for t in root.subtree if t.i < verb.i and not t.is_punct]
        return verb, subj
    if root.pos_ in ("NOUN", "PROPN") and not any(t.pos_ in ("VERB", "AUX") for t in doc):
        for t in doc[1 : root.i]:
            if t.dep_ == "compound" and t.head.i > t.i and lexname(t.lemma_, "v") is not None:
                return t, [x for x in doc[: t.i] if not x.is_punct]
        left = [c for c in root.lefts if c.dep_ == "compound"]
        if left and lexname(root.lemma_, "v") is not None:  # "Dogs bark." -> compound + ROOT
            return root, [x for x in doc[: root.i] if not x.is_punct]
    verbs = [t for t in doc if t.pos_ == "VERB"]
    return (verbs[0] if verbs else root), None


OBJECT_CONVENTIONS = ("verb class", "patient")
"""How :func:`label_doc` names a verb's object (direct object, or passive subject).

- ``"verb class"``: Patient or Theme by the verb, as the corrected STS3k parses do (rule 3 of the
  module docstring; the rules were written from them);
- ``"patient"``: always Patient, as the corrected parses of GS2011 (the development set of
  :mod:`compsem.sts.labeller_scores`) do for every verb. A second object (a double-object
  construction) and the Theme-type prepositional phrases are labelled as under ``"verb class"``."""


COPULA_CONVENTIONS = ("theme", "attribute")
"""How :func:`label_doc` names the complement of a copula root ("A gem **is** a jewel"):

- ``"theme"``: Theme, as rule 8 of the module docstring treats every complement;
- ``"attribute"``: Attribute, a ninth column outside the eight roles (Eq. 2 does not read it), as
  the authors' corrected parses of STSS-131 keep it (their workbook's ``Attribute`` column,
  :func:`compsem.data.corrected_parses.load_corrected_parses`)."""


def _object_role(verb, objects: str = "verb class", object_verb_lists: bool = True) -> str:
    """Patient or Theme for the verb's object (rule 3): by ``objects``
    (:data:`OBJECT_CONVENTIONS`); under ``"verb class"`` from the verb lists ``patient_verbs`` and
    ``theme_verbs`` of the lexicon (written from STS3k's parses; skipped when
    ``object_verb_lists`` is False), else from the WordNet lexname of the verb's first sense."""
    if objects == "patient":
        return "Patient"
    lemma = verb.lemma_.lower()
    lex = load_lexicon()
    if object_verb_lists and lemma in lex.patient_verbs:
        return "Patient"
    if object_verb_lists and lemma in lex.theme_verbs:
        return "Theme"
    return "Patient" if lexname(lemma, "v") in lex.patient_lexnames else "Theme"


def _is_copula(verb) -> bool:
    """Whether ``verb`` is a copula with a complement: the lemma "be" with an ``attr`` or
    ``acomp`` child."""
    return verb.lemma_.lower() == "be" and any(c.dep_ in ("attr", "acomp") for c in verb.children)


def _classify_pp(verb, prep) -> tuple[str, tuple[str, ...]]:
    p = prep.lower_
    lex = load_lexicon()
    obj = _pobj(prep)
    head_lex = (
        lexname(obj.lemma_, "n") if obj is not None and obj.pos_ in ("NOUN", "PROPN") else None
    )
    vlex = lexname(verb.lemma_.lower(), "v")
    if p in lex.time_preps and (p != "throughout" and p != "within" or _is_time_noun(obj)):
        return "Time", ("Manner",)
    if p in ("for", "over", "in", "at", "on", "by", "around", "from", "until") and _is_time_noun(
        obj
    ):
        return "Time", ("Manner",)
    if p in lex.manner_preps or p == "through":
        return "Manner", ("Theme",)
    if p == "by" or (p == "with" and head_lex == "noun.body"):
        return "Manner", ("Theme", "Patient")
    if p == "with":
        return ("Patient" if head_lex == "noun.group" else "Theme"), ("Patient", "Manner")
    if p == "in" and head_lex in ("noun.feeling", "noun.attribute", "noun.cognition"):
        return "Manner", ("Location",)
    if p in lex.trajectory_preps and p not in ("across",):
        return "Trajectory", ("Location",)
    if p == "to":
        if head_lex in ("noun.location", "noun.artifact", "noun.object") or (
            (vlex == "verb.motion" or verb.lemma_.lower() in lex.transfer_verbs)
            and head_lex not in ("noun.person", "noun.body", "noun.communication")
        ):
            return "Location", ("Trajectory", "Theme")
        return "Patient", ("Theme", "Location")
    if p == "for":
        if head_lex in ("noun.group", "noun.substance", "noun.Tops", "noun.food"):
            return "Patient", ("Theme", "Manner")
        if head_lex == "noun.event":
            return "Time", ("Theme", "Manner")
        return "Theme", ("Patient", "Manner")
    if p == "from" and head_lex in ("noun.location", "noun.object", "noun.artifact"):
        return "Location", ("Theme",)
    if p == "on" and head_lex in ("noun.act", "noun.cognition"):
        return "Theme", ("Patient", "Manner")
    if p in lex.location_preps and head_lex not in (
        "noun.cognition",
        "noun.act",
        "noun.attribute",
        "noun.feeling",
    ):
        return "Location", ("Manner",)
    if p in lex.theme_preps:
        return "Theme", ("Patient", "Manner")
    return "Manner", ("Theme",)


def label_doc(doc, objects: str = "verb class", copulas: str = "theme",
              object_verb_lists: bool = True) -> dict[str, str | None]:
    """The 8 roles of one parsed spaCy ``Doc`` and ``Attribute``: dict role -> phrase string or
    None. ``objects`` is the convention for the verb's object (:data:`OBJECT_CONVENTIONS`),
    ``copulas`` the one for a copula's complement (:data:`COPULA_CONVENTIONS`); with
    ``object_verb_lists=False`` the object's Patient or Theme comes from the verb's WordNet class
    alone (:func:`_object_role`)."""
    _check_convention(objects, copulas)
    lex = load_lexicon()
    frame = _Frame()
    verb, subj_override = _main_verb(doc)
    if verb is None:
        return frame.texts()
    object_role = functools.partial(_object_role, objects=objects, object_verb_lists=object_verb_lists)
    if subj_override:
        frame.put("Agent", subj_override)
        if verb.dep_ == "compound":  # "Lions hunt herbivores for food": object = rest of the NP
            head = verb.head
            obj = [t for t in doc[verb.i + 1 : head.i + 1] if not t.is_punct]
            frame.put(object_role(verb), obj, ("Theme", "Patient"))
            frame.roles["Verb"] = [verb]
            for c in head.children:
                if c.dep_ == "prep":
                    role, fb = _classify_pp(verb, c)
                    frame.put(role, _subtree(c), fb)
            return frame.texts()
    children = list(verb.children)

    # -- Verb (+ phrasal particle)
    verb_tokens = [verb]
    phrasal_prep = None
    for c in children:
        if (
            c.dep_ in ("prt", "prep")
            and (verb.lemma_.lower(), c.lower_) in lex.phrasal
            and c.i > verb.i
        ):
            verb_tokens = [verb, c] if c.i == verb.i + 1 else [verb]
            phrasal_prep = c if c.dep_ == "prep" else None
            if c.dep_ == "prt":
                phrasal_prep = c
            break
    frame.roles["Verb"] = verb_tokens

    dobj = [c for c in children if c.dep_ in ("dobj", "obj")]
    dative = [c for c in children if c.dep_ in ("dative", "iobj") and c.pos_ != "ADP"]
    obj_role = object_role(verb)

    # -- subject
    for c in children:
        if c.dep_ in ("nsubj", "csubj", "expl") and c.dep_ != "expl":
            intrans = not dobj and not any(
                x.dep_ in ("attr", "acomp", "oprd", "ccomp", "xcomp") for x in children
            )
            if intrans and verb.lemma_.lower() in lex.unaccusative:
                frame.put("Patient", _subtree(c), ("Agent",))
            else:
                frame.put("Agent", _subtree(c), ("Patient",))
        elif c.dep_ in ("nsubjpass", "csubjpass"):
            frame.put(obj_role, _subtree(c), ("Theme", "Patient"))

    # -- objects
    if dative and dobj:
        frame.put("Theme", _subtree(dobj[0]), ("Patient",))
        frame.put(
            "Location" if verb.lemma_.lower() in lex.transfer_verbs else "Patient",
            _subtree(dative[0]),
            ("Patient", "Location"),
        )
    elif dobj:
        # post-nominal PPs of the object that are locative/temporal go to their own role
        # (gold: "showed the options | on the computer screen", "conducted the contest | for
        # the participants"); "of"/"about"/"with" PPs stay inside ("the needs of the audience")
        detached = []
        for pp in dobj[0].children:
            if pp.dep_ == "prep" and pp.i > dobj[0].i and pp.lower_ not in ("of", "about", "with"):
                role, fb = _classify_pp(verb, pp)
                obj = _pobj(pp)
                place = obj is not None and lexname(obj.lemma_, "n") == "noun.location"
                if role in ("Time", "Trajectory") or (role == "Location" and place):
                    detached.append((pp, role, fb))
        frame.put(
            obj_role, _subtree(dobj[0], exclude=[d[0] for d in detached]), ("Theme", "Patient")
        )
        for pp, role, fb in detached:
            frame.put(role, _subtree(pp), fb)
    # phrasal-verb object: "asked for help" -> object of the particle
    if phrasal_prep is not None and phrasal_prep.dep_ == "prep":
        pobj = _pobj(phrasal_prep)
        if pobj is not None:
            frame.put("Theme", _subtree(pobj), ("Patient",))

    # -- complements
    attribute = copulas == "attribute" and _is_copula(verb)
    for c in children:
        if attribute and c.dep_ in ("attr", "acomp"):
            frame.put("Attribute", _subtree(c))
        elif c.dep_ in ("acomp", "oprd", "attr", "xcomp", "ccomp"):
            frame.put("Theme", _subtree(c), ("Patient", "Manner"))

    # -- adjuncts in sentence order
    for c in children:
        dep = c.dep_
        if c is phrasal_prep:
            continue
        if dep == "agent":  # passive by-phrase
            frame.put("Agent", _subtree(c), ("Manner",))
        elif dep == "prep":
            role, fb = _classify_pp(verb, c)
            frame.put(role, _subtree(c), fb)
        elif dep == "dative" and c.pos_ == "ADP":  # "to the woman"
            role, fb = _classify_pp(verb, c)
            frame.put(role, _subtree(c), fb)
        elif dep in ("advmod", "neg"):
            w = c.lower_
            if w in lex.time_adverbs:
                frame.put("Time", _subtree(c), ("Manner",))
            elif w in lex.location_adverbs:
                frame.put("Location", _subtree(c), ("Manner",))
            elif w in lex.trajectory_adverbs and not w.endswith("ly"):
                frame.put("Trajectory", _subtree(c), ("Manner",))
            elif any(x.dep_ == "prep" for x in c.children):
                role, fb = _classify_pp(verb, next(x for x in c.children if x.dep_ == "prep"))
                frame.put(role, _subtree(c), fb)
            else:
                frame.put("Manner", _subtree(c), ("Time",))
        elif dep in ("npadvmod", "tmod"):
            if _is_time_noun(c) or any(_is_time_noun(t) for t in c.subtree):
                frame.put("Time", _subtree(c), ("Manner",))
            else:
                frame.put("Manner", _subtree(c), ("Time",))
        elif dep == "advcl":
            marks = {x.lower_ for x in c.children if x.dep_ in ("mark", "advmod")}
            if marks & lex.time_clause_markers:
                frame.put("Time", _subtree(c), ("Manner",))
            else:
                frame.put("Manner", _subtree(c), ("Time",))
    return frame.texts()


def label_roles(sentences: Iterable[str], nlp=None, batch_size: int = 256,
                objects: str = "verb class", copulas: str = "theme",
                object_verb_lists: bool = True) -> pd.DataFrame:
    """Label the 8 VerbNet-CN roles of each sentence: a frame with one row per sentence (same
    order, RangeIndex) and one column per label in :data:`LABELS` (phrase string or None).
    ``nlp``: a loaded spaCy pipeline, or None for ``en_core_web_sm``, whose parses are made once
    and then read back from the cache (:func:`compsem.resources.parse`); ``objects``,
    ``copulas`` and ``object_verb_lists`` as in :func:`label_doc`."""
    _check_convention(objects, copulas)
    if nlp is None:
        from compsem.resources import parse

        docs = parse(list(sentences), "sm", batch_size)
    else:
        docs = nlp.pipe(list(sentences), batch_size=batch_size)
    return label_docs(docs, objects, copulas, object_verb_lists)


def label_docs(docs: Iterable, objects: str = "verb class", copulas: str = "theme",
               object_verb_lists: bool = True) -> pd.DataFrame:
    """:func:`label_roles` of sentences already parsed (spaCy ``Doc`` objects), so that one parse
    can be labelled under each convention."""
    _check_convention(objects, copulas)
    rows = [label_doc(doc, objects, copulas, object_verb_lists) for doc in docs]
    return pd.DataFrame(rows, columns=list(LABELS), dtype=object)


def _check_convention(objects: str, copulas: str = "theme") -> None:
    if objects not in OBJECT_CONVENTIONS:
        raise ValueError(f"objects must be one of {', '.join(map(repr, OBJECT_CONVENTIONS))}, not {objects!r}")
    if copulas not in COPULA_CONVENTIONS:
        raise ValueError(f"copulas must be one of {', '.join(map(repr, COPULA_CONVENTIONS))}, not {copulas!r}")


# ------------------------------------------------------------------------------- evaluation


def normalise(phrase) -> str:
    """Lowercase, strip punctuation and leading determiners (the/a/an), collapse spaces."""
    lex = load_lexicon()
    if not isinstance(phrase, str):
        return ""
    words = re.sub(r"[^\w\s']", " ", phrase.lower()).replace("'s", " 's").split()
    while words and words[0] in lex.determiners:
        words = words[1:]
    return " ".join(words)


def content_words(phrase) -> list[str]:
    stopwords = load_lexicon().stopwords
    return [w for w in normalise(phrase).split() if w not in stopwords and w != "'s"]


def is_present(x) -> bool:
    """Whether a role cell holds a phrase (not None, NaN, empty or the parses' "NONE")."""
    return isinstance(x, str) and x.strip() != "" and x.strip().upper() != "NONE"


def lenient_match(pred, gold, threshold: float = 0.5) -> bool:
    """Content-word token F1 between the two phrases >= ``threshold`` (0.5). Content words =
    normalised tokens minus ``stopwords`` of :func:`load_lexicon`; two phrases without content
    words (e.g. "not", "to them") fall back to exact normalised equality."""
    p, g = content_words(pred), content_words(gold)
    if not p or not g:
        return normalise(pred) == normalise(gold)
    common = sum((Counter(p) & Counter(g)).values())
    if common == 0:
        return False
    prec, rec = common / len(p), common / len(g)
    return 2 * prec * rec / (prec + rec) >= threshold


def evaluate(predicted: pd.DataFrame, gold: pd.DataFrame) -> pd.DataFrame:
    """Per-role precision/recall/F1 of ``predicted`` against ``gold`` (aligned row by row; both
    frames carry the role columns, a missing role is None/NaN/'NONE').

    A predicted phrase is a true positive when the gold has the role and the phrases match:
    ``exact`` = equal after :func:`normalise`; ``lenient`` = :func:`lenient_match`
    (content-word token F1 >= 0.5). P = TP / #predicted present, R = TP / #gold present.
    ``presence_acc`` = share of rows where role presence agrees. A final row ``ALL`` pools the
    counts over the roles (micro average)."""
    _check_aligned(predicted, gold)
    out = []
    tot = Counter()
    for role in ROLES:
        c = Counter()
        for p, g in zip(_role_column(predicted, role), _role_column(gold, role), strict=True):
            c.update(dict(zip(COUNT_COLUMNS, _match_counts([p], [g]).tolist(), strict=True)))
            c["presence_agree"] += is_present(p) == is_present(g)
        c["n"] = len(gold)
        tot.update(c)
        out.append(_prf_row(role, c))
    out.append(_prf_row("ALL", tot))
    return pd.DataFrame(out).set_index("role")


def _check_aligned(predicted: pd.DataFrame, gold: pd.DataFrame) -> None:
    if len(predicted) != len(gold):
        raise ValueError(f"predicted has {len(predicted)} rows, gold {len(gold)}")


def _role_column(frame: pd.DataFrame, role: str) -> list:
    """The cells of ``role`` in ``frame``, all None where the frame lacks the column."""
    return list(frame[role]) if role in frame else [None] * len(frame)


COUNT_COLUMNS = ("n_pred", "n_gold", "tp_exact", "tp_lenient")
"""What :func:`_match_counts` counts: phrases predicted, phrases in the gold, exact and lenient
matches."""


OBJECT_ROLES = ("Patient", "Theme")
"""The two object roles, which VerbNet-CN reads as one: equal beta and aligned with each other when
one sentence has only the one and the other only the other (Eq. 2, §4.6)."""


def core_roles(frame: pd.DataFrame) -> pd.DataFrame:
    """Only Agent, Verb and the object of a role frame, the roles a swap of two to four elements
    moves (§4.1, Table 7): the object is the Patient, else the Theme (:data:`OBJECT_ROLES`, one
    role to Eq. 2, §4.6), stored as Patient; every other role None. Scoring such frames asks
    whether words that trade places land in the right roles, whatever a set of parses calls a
    lone object."""
    core = pd.DataFrame(None, index=frame.index, columns=list(ROLES), dtype=object)
    core["Agent"], core["Verb"] = frame["Agent"], frame["Verb"]
    core["Patient"] = frame["Patient"].where(frame["Patient"].notna(), frame["Theme"])
    return core


def row_counts(predicted: pd.DataFrame, gold: pd.DataFrame, pool_objects: bool = False) -> pd.DataFrame:
    """Per row (sentence), summed over the roles: ``n_pred`` and ``n_gold`` (roles present),
    ``tp_exact`` and ``tp_lenient`` (matched phrases), as :func:`evaluate` counts them. Summing
    the columns over rows gives the ``ALL`` row of :func:`evaluate`; resampling rows gives its
    bootstrap (:func:`compsem.sts.labeller_scores.f1_bootstrap`).

    ``pool_objects=True`` scores Patient and Theme (:data:`OBJECT_ROLES`) as one role, as
    VerbNet-CN compares them: a sentence's predicted object phrases are matched one to one with its
    gold object phrases whatever the label (the best of the possible pairings), so a Patient the
    gold calls Theme counts as found."""
    _check_aligned(predicted, gold)
    counts = np.zeros((len(gold), len(COUNT_COLUMNS)), dtype=np.int64)
    separate = [r for r in ROLES if not (pool_objects and r in OBJECT_ROLES)]
    for role in separate:
        for i, (p, g) in enumerate(zip(_role_column(predicted, role), _role_column(gold, role), strict=True)):
            counts[i] += _match_counts([p], [g])
    if pool_objects:
        objects = zip(*(_role_column(predicted, r) for r in OBJECT_ROLES),
                      *(_role_column(gold, r) for r in OBJECT_ROLES), strict=True)
        for i, (p1, p2, g1, g2) in enumerate(objects):
            counts[i] += _match_counts([p1, p2], [g1, g2])
    return pd.DataFrame(counts, columns=list(COUNT_COLUMNS))


def _match_counts(predicted: Sequence, gold: Sequence) -> np.ndarray:
    """``[n_pred, n_gold, tp_exact, tp_lenient]`` of phrases that may fill one role: the present
    ones matched one to one, each match kind maximised over the pairings."""
    p = [x for x in predicted if is_present(x)]
    g = [x for x in gold if is_present(x)]
    best = np.zeros(2, dtype=np.int64)
    for order in itertools.permutations(g, min(len(p), len(g))):
        pairs = list(zip(p, order, strict=False))
        exact = sum(normalise(a) == normalise(b) for a, b in pairs)
        lenient = sum(lenient_match(a, b) for a, b in pairs)
        best = np.maximum(best, (exact, lenient))
    return np.array([len(p), len(g), *best], dtype=np.int64)


def _prf_row(role, c) -> dict:
    row = {"role": role, "n_gold": c["n_gold"], "n_pred": c["n_pred"]}
    for kind in ("exact", "lenient"):
        tp = c[f"tp_{kind}"]
        p = tp / c["n_pred"] if c["n_pred"] else 0.0
        r = tp / c["n_gold"] if c["n_gold"] else 0.0
        row[f"P_{kind}"] = p
        row[f"R_{kind}"] = r
        row[f"F1_{kind}"] = 2 * p * r / (p + r) if p + r else 0.0
    row["presence_acc"] = c["presence_agree"] / c["n"] if c["n"] else 0.0
    return row


def error_classes(
    predicted: pd.DataFrame, gold: pd.DataFrame, sentences: Sequence[str], top: int = 15
) -> pd.DataFrame:
    """The most frequent error types (lenient matching), with a count and one example each.

    For every gold phrase not matched by the prediction of its role: if another predicted role
    holds a matching phrase -> "Gold X labelled as Y" (e.g. "Patient labelled as Theme"); else
    "missed X". For every unmatched predicted phrase with no matching gold phrase under any role
    -> "spurious X". Passive sentences (gold Agent starting with "by") whose Agent is missed are
    counted as "passive agent missed"."""
    if len(predicted) != len(gold) or len(sentences) != len(gold):
        raise ValueError("predicted, gold and sentences must have the same length")
    predicted = predicted.reindex(columns=list(ROLES))
    gold = gold.reindex(columns=list(ROLES))
    counts: Counter = Counter()
    examples: dict[str, str] = {}
    for i in range(len(gold)):
        p = {r: predicted.iloc[i][r] for r in ROLES}
        g = {r: gold.iloc[i][r] for r in ROLES}
        sent = sentences[i]
        for role in ROLES:
            gp = g[role]
            if not is_present(gp):
                continue
            if is_present(p[role]) and lenient_match(p[role], gp):
                continue
            other = [r for r in ROLES if r != role and is_present(p[r]) and lenient_match(p[r], gp)]
            if other:
                kind = f"{role} labelled as {other[0]}"
            elif role == "Agent" and gp.lower().startswith("by "):
                kind = "passive agent missed"
            elif is_present(p[role]):
                kind = f"{role} wrong span"
            else:
                kind = f"missed {role}"
            counts[kind] += 1
            examples.setdefault(kind, f"{sent}  [gold {role}={gp!r}; pred {role}={p[role]!r}]")
        for role in ROLES:
            pp = p[role]
            if not is_present(pp) or is_present(g[role]):
                continue
            if any(is_present(g[r]) and lenient_match(pp, g[r]) for r in ROLES):
                continue  # already counted as a confusion
            kind = f"spurious {role}"
            counts[kind] += 1
            examples.setdefault(kind, f"{sent}  [pred {role}={pp!r}]")
    rows = [{"error": k, "count": n, "example": examples[k]} for k, n in counts.most_common(top)]
    return pd.DataFrame(rows, columns=["error", "count", "example"])


def main() -> None:
    """Score the labeller against the authors' corrected STS3k parses (needs the data mirror):
    per-role P/R/F1 on all sentences, on even pairs (used to tune the rules) and odd pairs, and
    the main error classes."""
    from compsem.data import sts3k

    pairs = sts3k.load_pairs()
    gold = sts3k.load_verbnet_parses("mod")
    sentences = [pairs.loc[pid, f"sentence_{side}"] for pid, side in gold.index]
    pred = label_roles(sentences)
    odd = gold.index.get_level_values("pair_id").to_numpy() % 2 == 1
    gold = gold.reset_index(drop=True)
    with pd.option_context("display.width", 200, "display.max_colwidth", 150):
        for name, mask in (("all", None), ("even pairs (tuning)", ~odd), ("odd pairs", odd)):
            p = pred if mask is None else pred[mask].reset_index(drop=True)
            g = gold if mask is None else gold[mask].reset_index(drop=True)
            print(f"## {name} (n={len(g)})\n{evaluate(p, g).round(3).to_string()}\n")
        print(error_classes(pred, gold, sentences).to_string())


if __name__ == "__main__":
    main()
