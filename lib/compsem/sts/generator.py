"""An STS3k-style sentence-pair generator ("dataset building", §4.1).

Builds single-clause declarative sentences from a small hand-written lexicon
(``data/lexicons/sts3k_generator.yaml``) and manipulates them into pairs of every Table 7 type,
labelled with the authors' internal category codes and with gold VerbNet-CN roles for both
sentences. It never produces ratings: the pairs are for pipeline tests and synthetic variants,
not a stand-in for human judgements.

Sentence template (our reconstruction; the template announced in §4.1 is missing from the text of
the accepted manuscript)::

    [Det] [Adj] Subj Verb [objprep] [Det] [Adj] Dobj [prep [Det] [Adj] Iobj] [Manner] [Place] [Time].
    passive: [Det] [Adj] Dobj was/were|is/are Verb-en by [Det] [Adj] Subj [...]

Gold roles (:data:`compsem.data.sts3k.ROLES`): Agent = the subject NP (in a passive the NP of
the by-phrase, without "by"); Verb = the inflected main verb (the participle in a passive);
Patient = the direct-object NP; Theme = the indirect-object prepositional phrase (preposition
included, like the authors' parses); Time, Manner = the modifier phrases; Location or
Trajectory = the place phrase (each place phrase carries its role in the lexicon). A missing
role is ``None``. Every role phrase occurs verbatim in its sentence (up to the capital letter).

Pair types (``category`` codes as in :mod:`compsem.sts.pair_types`; modifiers go to sentence B,
as in the released data, e.g. rows 811-815 and 1882):

- ``ZERO``: two unrelated sentences (no shared content lemma).
- ``ADJECTIVE``: two adjectives swapped between subject and object (or object and indirect
  object): the same bag of words, as in the released Adjective pairs (rows 2677-2737), not
  Table 7's single added adjective.
- ``CONST_VERB`` / ``CONST_SUBJ`` / ``CONST_DOBJ``: one element kept, the other two replaced.
- ``AB_VERB`` / ``AB_SUBJ`` / ``AB_DOBJ``: one element replaced by a word of the same class, and
  0-3 modifiers added.
- ``OTHER``: an ad hoc recombination reusing stems across parts of speech ("The judge
  contracted an illness." / "The lawyer judged the contract.").
- ``CHECK``: nonsense sentence vs simple sentence, or two identical sentences.
- ``PARAPHRASE``: subject, verb and object replaced by synonyms (at least two of them).
- ``ONLY_MOD``: 1, 2, 3, 4 or 6 modifiers of the types :data:`MODIFIER_TYPES` added (with 6 the
  modifiers are split between the two sentences: the same clause, different modifiers).
- ``SWAP_SUBJ_DOBJ``, ``SWAP_DOBJ_VERB`` ("disliked the face" -> "faced the dislike"),
  ``SWAP_SUBJ_VERB`` ("The judge escorted ..." -> "The escort judged ..."), ``TRIPLE`` (subject,
  verb and object rotated), ``QUAD`` (subject <-> indirect object and verb <-> object, the
  preposition following the new verb), each with 0-3 modifiers added. Determiners, number and
  adjectives stay with their slot; only the lemmas move, so agreement is recomputed.
- ``NEGATIVE``: the verb replaced by an antonym (hire/fire, buy/sell).

Morphology: a/an (with an exception list), 3rd person singular -s/-es/-ies, past -ed/-d/-ied
with an irregular table, plural nouns likewise. :func:`generate` is deterministic in ``seed``
(numpy's PCG64; no iteration over Python sets).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from compsem import paths
from compsem.sts.pair_types import CATEGORY_TYPE

LEXICON_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "sts3k_generator.yaml"
ROLES = ("Agent", "Verb", "Patient", "Theme", "Time", "Manner", "Location", "Trajectory")
"""The eight VerbNet-CN roles (as :data:`compsem.data.sts3k.ROLES`)."""
MODIFIER_TYPES = ("PLACE", "TIME", "MANNER", "add IOBJ", "SUBJ adj", "DOBJ adj", "IOBJ adj", "PASSIVE")
"""The modifier labels of the authors' notebooks."""
CATEGORIES = (
    "ZERO", "ADJECTIVE", "CONST_VERB", "CONST_DOBJ", "CONST_SUBJ", "AB_VERB", "AB_DOBJ",
    "AB_SUBJ", "OTHER", "CHECK", "PARAPHRASE", "ONLY_MOD", "SWAP_DOBJ_VERB", "SWAP_SUBJ_DOBJ",
    "SWAP_SUBJ_VERB", "TRIPLE", "QUAD", "NEGATIVE",
)
"""Every category code the generator produces (Table 7 order)."""
ONLY_MOD_LEVELS = (1, 2, 3, 4, 6)
SWAP_CODES = ("SWAP_DOBJ_VERB", "SWAP_SUBJ_DOBJ", "SWAP_SUBJ_VERB", "TRIPLE", "QUAD")


# --- lexicon and morphology ------------------------------------------------------------------

@dataclass(frozen=True)
class Lexicon:
    persons: tuple
    things: tuple
    verbs: dict
    duals: dict
    adjectives: dict
    modifiers: dict
    synonyms: dict
    antonyms: tuple
    nonsense: dict
    irregular_verbs: dict
    irregular_plurals: dict
    article_a: frozenset
    article_an: frozenset

    def noun_class(self, lemma: str) -> str:
        if lemma in self.duals:
            return self.duals[lemma]["noun"]
        return "person" if lemma in self.persons else "thing"

    def verb_entry(self, lemma: str) -> dict:
        return self.verbs.get(lemma) or self.duals.get(lemma) or {}


@functools.cache
def load_lexicon(path: str | Path = LEXICON_FILE) -> Lexicon:
    """The lexicon YAML as a :class:`Lexicon` (cached)."""
    import yaml

    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    synonyms: dict[str, list[str]] = {}
    for group in raw["synonyms"]:
        for word in group:
            synonyms.setdefault(word, []).extend(w for w in group if w != word)
    return Lexicon(
        persons=tuple(dict.fromkeys(raw["persons"])),
        things=tuple(dict.fromkeys(raw["things"])),
        verbs=dict(raw["verbs"]),
        duals=dict(raw["duals"]),
        adjectives={k: tuple(v) for k, v in raw["adjectives"].items()},
        modifiers=raw["modifiers"],
        synonyms=synonyms,
        antonyms=tuple(raw["antonyms"]),
        nonsense=raw["nonsense"],
        irregular_verbs={k: tuple(v) for k, v in raw["irregular_verbs"].items()},
        irregular_plurals=dict(raw["irregular_plurals"]),
        article_a=frozenset(raw["article_a"]),
        article_an=frozenset(raw["article_an"]),
    )


_VOWELS = "aeiou"


def _sibilant_or_y(word: str) -> str:
    """-s / -es / -ies suffixing shared by plurals and 3rd person singular."""
    if word.endswith(("s", "x", "z", "ch", "sh")) or (word.endswith("o") and word[-2:-1] not in _VOWELS):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


def plural(noun: str, lex: Lexicon | None = None) -> str:
    lex = lex or load_lexicon()
    return lex.irregular_plurals.get(noun) or _sibilant_or_y(noun)


def third_singular(verb: str) -> str:
    return {"have": "has", "be": "is", "do": "does", "go": "goes"}.get(verb) or _sibilant_or_y(verb)


def past(verb: str, lex: Lexicon | None = None) -> str:
    lex = lex or load_lexicon()
    if verb in lex.irregular_verbs:
        return lex.irregular_verbs[verb][0]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in _VOWELS:
        return verb[:-1] + "ied"
    return verb + "ed"


def participle(verb: str, lex: Lexicon | None = None) -> str:
    lex = lex or load_lexicon()
    if verb in lex.irregular_verbs:
        return lex.irregular_verbs[verb][1]
    return past(verb, lex)


def indefinite(word: str, lex: Lexicon | None = None) -> str:
    """"a" or "an" before ``word``."""
    lex = lex or load_lexicon()
    w = word.lower()
    if w in lex.article_an:
        return "an"
    if w in lex.article_a or w.startswith(("uni", "use", "euro", "one")):
        return "a"
    return "an" if w[:1] in _VOWELS else "a"


# --- clauses ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class NP:
    noun: str
    plural: bool = False
    det: str = "the"  # "the", "a" (singular only) or "" (bare plural)
    adj: str | None = None


@dataclass(frozen=True)
class Clause:
    subj: NP
    verb: str
    dobj: NP
    iobj: NP | None = None
    prep: str | None = None
    manner: str | None = None
    place: tuple | None = None  # (phrase, role)
    time: str | None = None
    tense: str = "past"
    passive: bool = False


def render_np(np_: NP, lex: Lexicon) -> str:
    noun = plural(np_.noun, lex) if np_.plural else np_.noun
    words = [np_.adj, noun] if np_.adj else [noun]
    det = np_.det
    if det == "a":
        det = indefinite(words[0], lex)
    return " ".join([det, *words]) if det else " ".join(words)


def render(clause: Clause, lex: Lexicon | None = None) -> tuple[str, dict]:
    """The sentence and its gold roles (all eight keys; ``None`` = absent)."""
    lex = lex or load_lexicon()
    roles = dict.fromkeys(ROLES)
    subj, dobj = render_np(clause.subj, lex), render_np(clause.dobj, lex)
    entry = lex.verb_entry(clause.verb)
    if clause.passive:
        if clause.tense == "past":
            aux = "were" if clause.dobj.plural else "was"
        else:
            aux = "are" if clause.dobj.plural else "is"
        form = participle(clause.verb, lex)
        parts = [dobj, aux, form, "by", subj]
    else:
        if clause.tense == "past":
            form = past(clause.verb, lex)
        else:
            form = clause.verb if clause.subj.plural else third_singular(clause.verb)
        parts = [subj, form] + ([entry["objprep"]] if entry.get("objprep") else []) + [dobj]
    roles.update(Agent=subj, Verb=form, Patient=dobj)
    if clause.iobj is not None:
        theme = f"{clause.prep} {render_np(clause.iobj, lex)}"
        parts.append(theme)
        roles["Theme"] = theme
    if clause.manner:
        parts.append(clause.manner)
        roles["Manner"] = clause.manner
    if clause.place:
        parts.append(clause.place[0])
        roles[clause.place[1]] = clause.place[0]
    if clause.time:
        parts.append(clause.time)
        roles["Time"] = clause.time
    text = " ".join(parts)
    return text[0].upper() + text[1:] + ".", roles


def content_lemmas(clause: Clause) -> tuple[str, ...]:
    """Sorted content lemmas of the core of a clause: head nouns, verb, adjectives (modifier
    phrases excluded)."""
    nps = [clause.subj, clause.dobj] + ([clause.iobj] if clause.iobj else [])
    words = [n.noun for n in nps] + [n.adj for n in nps if n.adj] + [clause.verb]
    return tuple(sorted(words))


# --- sampling helpers ---------------------------------------------------------------------------

class _Builder:
    def __init__(self, seed: int, lex: Lexicon):
        self.rng = np.random.default_rng(seed)
        self.lex = lex

    def pick(self, items, exclude=()):
        pool = [x for x in items if x not in exclude]
        return pool[int(self.rng.integers(len(pool)))]

    def nouns(self, cls: str) -> tuple:
        return self.lex.persons if cls == "person" else self.lex.things

    def np(self, noun: str, subject: bool = False) -> NP:
        r = self.rng.random()
        if subject:
            return NP(noun, plural=r < 0.4, det="" if r < 0.15 else "the")
        if r < 0.3:
            return NP(noun, plural=True, det="" if r < 0.15 else "the")
        return NP(noun, det="a" if r < 0.6 else "the")

    def tense(self) -> str:
        return "past" if self.rng.random() < 0.6 else "present"

    def clause(self, verb=None, subj=None, dobj=None, iobj: bool | None = None, exclude=()) -> Clause:
        """A base clause with an ordinary verb (or the one given); subject a person."""
        lex = self.lex
        verb = verb or self.pick(list(lex.verbs), exclude)
        entry = lex.verb_entry(verb)
        subj = subj or self.pick(lex.persons, (verb, *exclude))
        dobj = dobj or self.pick(self.nouns(entry["obj"]), (subj, verb, *exclude))
        c = Clause(self.np(subj, subject=True), verb, self.np(dobj), tense=self.tense())
        if iobj is None:
            iobj = self.rng.random() < 0.3
        if iobj:
            c = self.add_iobj(c, exclude=exclude)
        return c

    def add_iobj(self, c: Clause, exclude=()) -> Clause:
        entry = self.lex.verb_entry(c.verb)
        noun = self.pick(self.nouns(entry["iobj"]), (c.subj.noun, c.dobj.noun, c.verb, *exclude))
        return replace(c, iobj=self.np(noun), prep=entry["prep"])

    def adjective(self, noun: str, exclude=()) -> str:
        return self.pick(self.lex.adjectives[self.lex.noun_class(noun)], exclude)

    # modifiers
    def valid(self, c: Clause, types) -> bool:
        has_iobj = c.iobj is not None
        if "add IOBJ" in types and has_iobj:
            return False
        if "IOBJ adj" in types and not (has_iobj or "add IOBJ" in types):
            return False
        if "PASSIVE" in types and (c.passive or self.lex.verb_entry(c.verb).get("objprep")):
            return False
        slots = {"PLACE": c.place, "TIME": c.time, "MANNER": c.manner,
                 "SUBJ adj": c.subj.adj, "DOBJ adj": c.dobj.adj,
                 "IOBJ adj": c.iobj.adj if has_iobj else None}
        return not any(slots.get(t) for t in types)

    def choose_modifiers(self, c: Clause, k: int, allowed=MODIFIER_TYPES) -> tuple[str, ...]:
        for _ in range(200):
            order = [allowed[i] for i in self.rng.permutation(len(allowed))]
            types = tuple(order[:k])
            if len(types) == k and self.valid(c, types):
                return tuple(t for t in MODIFIER_TYPES if t in types)
        raise ValueError(f"cannot add {k} modifiers to {c}")

    def apply(self, c: Clause, types) -> Clause:
        lex = self.lex
        used = set(content_lemmas(c))
        for t in MODIFIER_TYPES:  # fixed order: add IOBJ before IOBJ adj
            if t not in types:
                continue
            if t == "PLACE":
                m = lex.modifiers["PLACE"][int(self.rng.integers(len(lex.modifiers["PLACE"])))]
                c = replace(c, place=(m["phrase"], m["role"]))
            elif t == "TIME":
                pool = [m["phrase"] for m in lex.modifiers["TIME"] if m.get("tense", c.tense) == c.tense]
                c = replace(c, time=self.pick(pool))
            elif t == "MANNER":
                c = replace(c, manner=self.pick(lex.modifiers["MANNER"]))
            elif t == "add IOBJ":
                c = self.add_iobj(c, exclude=tuple(sorted(used)))
            elif t == "SUBJ adj":
                c = replace(c, subj=replace(c.subj, adj=self.adjective(c.subj.noun, tuple(sorted(used)))))
            elif t == "DOBJ adj":
                c = replace(c, dobj=replace(c.dobj, adj=self.adjective(c.dobj.noun, tuple(sorted(used)))))
            elif t == "IOBJ adj":
                c = replace(c, iobj=replace(c.iobj, adj=self.adjective(c.iobj.noun, tuple(sorted(used)))))
            elif t == "PASSIVE":
                c = replace(c, passive=True)
            used = set(content_lemmas(c))
        return c


# --- pair makers ------------------------------------------------------------------------------
# Each returns (clause_a, clause_b, n_modifiers, modifier types); clause_a may be a str for the
# nonsense checks.


def _zero(b: _Builder, i: int):
    a = b.clause()
    used = content_lemmas(a)
    return a, b.clause(exclude=used), 0, ()


def _adjective(b: _Builder, i: int):
    lex = b.lex
    c = b.clause(iobj=b.rng.random() < 0.4)
    slots = ["subj", "dobj"] if c.iobj is None or b.rng.random() < 0.5 else ["dobj", "iobj"]
    adjs = lex.adjectives["any"]
    x = b.pick(adjs)
    y = b.pick(adjs, (x,))
    a = replace(c, **{slots[0]: replace(getattr(c, slots[0]), adj=x), slots[1]: replace(getattr(c, slots[1]), adj=y)})
    bb = replace(c, **{slots[0]: replace(getattr(c, slots[0]), adj=y), slots[1]: replace(getattr(c, slots[1]), adj=x)})
    return a, bb, 0, ()


def _replace_element(b: _Builder, c: Clause, element: str) -> Clause:
    lex = b.lex
    core = (c.subj.noun, c.verb, c.dobj.noun)
    if element == "subj":
        return replace(c, subj=replace(c.subj, noun=b.pick(lex.persons, core)))
    if element == "dobj":
        cls = lex.verb_entry(c.verb)["obj"]
        return replace(c, dobj=replace(c.dobj, noun=b.pick(b.nouns(cls), core)))
    cls = lex.noun_class(c.dobj.noun)
    verbs = [v for v in lex.verbs if lex.verbs[v]["obj"] == cls]
    verb = b.pick(verbs, core)
    new = replace(c, verb=verb)
    if c.iobj is not None:  # the preposition follows the new verb
        new = replace(new, prep=lex.verb_entry(verb)["prep"])
        if lex.noun_class(c.iobj.noun) != lex.verb_entry(verb)["iobj"]:
            new = replace(new, iobj=None, prep=None)
            new = b.add_iobj(new, exclude=core)
    return new


def _constant(keep: str):
    def make(b: _Builder, i: int):
        a = b.clause(iobj=False)
        lex = b.lex
        used = content_lemmas(a)
        if keep == "verb":
            bb = b.clause(verb=a.verb, exclude=used)
        elif keep == "subj":
            bb = b.clause(subj=a.subj.noun, exclude=used)
            bb = replace(bb, subj=a.subj)
        else:
            cls = lex.noun_class(a.dobj.noun)
            verb = b.pick([v for v in lex.verbs if lex.verbs[v]["obj"] == cls], used)
            bb = b.clause(verb=verb, dobj=a.dobj.noun, exclude=used)
            bb = replace(bb, dobj=a.dobj)
        return a, replace(bb, tense=a.tense), 0, ()
    return make


def _single(element: str):
    def make(b: _Builder, i: int):
        a = b.clause(iobj=b.rng.random() < 0.3)
        changed = _replace_element(b, a, element)
        k = i % 4
        types = b.choose_modifiers(changed, k) if k else ()
        return a, b.apply(changed, types), k, types
    return make


def _other(b: _Builder, i: int):
    """The subject of A (a noun-verb) becomes the verb of B, A's verb its object."""
    lex = b.lex
    persons = [d for d in lex.duals if lex.duals[d]["noun"] == "person"]
    subj = b.pick(persons)
    verb = b.pick(list(lex.duals), (subj,))
    a = b.clause(verb=verb, subj=subj, iobj=False)
    bb = Clause(b.np(b.pick(lex.persons), subject=True), subj, NP(verb, det="the"), tense=a.tense)
    return a, bb, np.nan, ()


def _check(b: _Builder, i: int):
    simple = b.clause(iobj=False)
    if i % 2:
        return simple, simple, np.nan, ()
    ns = b.lex.nonsense
    subj, obj = b.pick(ns["nouns"]), None
    obj = b.pick(ns["nouns"], (subj,))
    adj1, adj2 = b.pick(ns["adjectives"]), None
    adj2 = b.pick(ns["adjectives"], (adj1,))
    verb = third_singular(b.pick(ns["verbs"]))
    text = f"The {adj1} {subj} {b.pick(ns['adverbs'])} {verb} {indefinite(adj2, b.lex)} {adj2} {obj}."
    return text, simple, np.nan, ()


def _paraphrase(b: _Builder, i: int):
    lex = b.lex
    syn = lex.synonyms
    for _ in range(200):
        verb = b.pick([v for v in lex.verbs if v in syn])
        cls = lex.verbs[verb]["obj"]
        subj = b.pick([p for p in lex.persons if p in syn])
        objs = [n for n in b.nouns(cls) if n in syn and n != subj]
        if objs:
            break
    a = b.clause(verb=verb, subj=subj, dobj=b.pick(objs), iobj=False)
    bb = replace(
        a,
        subj=replace(a.subj, noun=b.pick(syn[a.subj.noun])),
        verb=b.pick(syn[a.verb]),
        dobj=replace(a.dobj, noun=b.pick(syn[a.dobj.noun])),
    )
    return a, bb, 0, ()


def _only_mod(b: _Builder, i: int):
    k = ONLY_MOD_LEVELS[i % len(ONLY_MOD_LEVELS)]
    c = b.clause()
    types = b.choose_modifiers(c, k)
    if k < 6:
        return c, b.apply(c, types), k, types
    # 6: the same clause with different modifiers in each sentence; an adjective on an added
    # indirect object goes with it.
    order = [types[j] for j in b.rng.permutation(len(types))]
    side_a = set(order[:3])
    pair = {"add IOBJ", "IOBJ adj"}
    if pair <= set(types) and len(side_a & pair) == 1:
        side_a |= pair  # 4 + 2 modifiers
    ta = tuple(t for t in MODIFIER_TYPES if t in side_a)
    tb = tuple(t for t in MODIFIER_TYPES if t in types and t not in side_a)
    return b.apply(c, ta), b.apply(c, tb), k, types


def _swap(code: str):
    def make(b: _Builder, i: int):
        lex = b.lex
        duals = list(lex.duals)
        person_duals = [d for d in duals if lex.duals[d]["noun"] == "person"]
        thing_duals = [d for d in duals if lex.duals[d]["noun"] == "thing"]
        if code == "SWAP_SUBJ_DOBJ":
            verb = b.pick([v for v in lex.verbs if lex.verbs[v]["obj"] == "person"])
            a = b.clause(verb=verb, iobj=b.rng.random() < 0.3)
            swapped = replace(a, subj=replace(a.subj, noun=a.dobj.noun), dobj=replace(a.dobj, noun=a.subj.noun))
        elif code == "SWAP_DOBJ_VERB":
            verb = b.pick(duals)
            dobj = b.pick(thing_duals, (verb,))
            a = b.clause(verb=verb, dobj=dobj, iobj=False)
            swapped = replace(a, verb=dobj, dobj=replace(a.dobj, noun=verb))
        elif code == "SWAP_SUBJ_VERB":
            subj = b.pick(person_duals)
            verb = b.pick(duals, (subj,))
            a = b.clause(verb=verb, subj=subj, iobj=False)
            swapped = replace(a, subj=replace(a.subj, noun=verb), verb=subj)
        elif code == "TRIPLE":
            subj = b.pick(person_duals)
            verb = b.pick(duals, (subj,))
            dobj = b.pick(person_duals, (subj, verb))
            a = b.clause(verb=verb, subj=subj, dobj=dobj, iobj=False)
            # subject -> verb, verb -> object, object -> subject
            swapped = replace(a, subj=replace(a.subj, noun=dobj), verb=subj, dobj=replace(a.dobj, noun=verb))
        else:  # QUAD
            verb = b.pick([d for d in duals if lex.duals[d]["iobj"] == "person"])
            dobj = b.pick([d for d in thing_duals if lex.duals[d]["iobj"] == "person"], (verb,))
            a = b.clause(verb=verb, dobj=dobj, iobj=False)
            iobj = b.pick(lex.persons, (a.subj.noun,))
            a = replace(a, iobj=b.np(iobj), prep=lex.duals[verb]["prep"])
            swapped = replace(
                a, subj=replace(a.subj, noun=iobj), verb=dobj, dobj=replace(a.dobj, noun=verb),
                iobj=replace(a.iobj, noun=a.subj.noun), prep=lex.duals[dobj]["prep"],
            )
        k = i % 4
        allowed = tuple(t for t in MODIFIER_TYPES if t != "PASSIVE")
        types = b.choose_modifiers(swapped, k, allowed) if k else ()
        return a, b.apply(swapped, types), k, types
    return make


def _negative(b: _Builder, i: int):
    lex = b.lex
    entry = lex.antonyms[int(b.rng.integers(len(lex.antonyms)))]
    x, y = entry["verbs"] if b.rng.random() < 0.5 else entry["verbs"][::-1]
    subj = b.pick(lex.persons)
    dobj = b.pick(b.nouns(entry["obj"]), (subj,))
    a = Clause(b.np(subj, subject=True), x, b.np(dobj), tense=b.tense())
    return a, replace(a, verb=y), 0, ()


MAKERS = {
    "ZERO": _zero,
    "ADJECTIVE": _adjective,
    "CONST_VERB": _constant("verb"),
    "CONST_DOBJ": _constant("dobj"),
    "CONST_SUBJ": _constant("subj"),
    "AB_VERB": _single("verb"),
    "AB_DOBJ": _single("dobj"),
    "AB_SUBJ": _single("subj"),
    "OTHER": _other,
    "CHECK": _check,
    "PARAPHRASE": _paraphrase,
    "ONLY_MOD": _only_mod,
    "SWAP_DOBJ_VERB": _swap("SWAP_DOBJ_VERB"),
    "SWAP_SUBJ_DOBJ": _swap("SWAP_SUBJ_DOBJ"),
    "SWAP_SUBJ_VERB": _swap("SWAP_SUBJ_VERB"),
    "TRIPLE": _swap("TRIPLE"),
    "QUAD": _swap("QUAD"),
    "NEGATIVE": _negative,
}


def generate(n_per_type: int | dict[str, int] = 10, seed: int = 0, lexicon: Lexicon | None = None) -> pd.DataFrame:
    """Generate STS3k-style pairs: ``n_per_type`` pairs per category code (an int for all of
    :data:`CATEGORIES`, or a dict code -> count), deterministic in ``seed``.

    Returns a frame (index ``pair_id``) with columns ``sentence_a``, ``sentence_b``, ``type``
    (Table 7 type), ``category`` (internal code), ``n_modifiers`` (float; NaN for CHECK and
    OTHER, as in :func:`compsem.sts.pair_types.reconstruct_pair_types`), ``modifiers`` (tuple of
    the added modifier types), ``roles_a``, ``roles_b`` (dicts role -> phrase or None; the
    nonsense check sentences get ``None`` roles) and ``lemmas_a``, ``lemmas_b`` (sorted core
    content lemmas). Modifier levels cycle: ONLY_MOD 1, 2, 3, 4, 6; single changes and swaps
    0-3.
    """
    lex = lexicon or load_lexicon()
    counts = dict.fromkeys(CATEGORIES, n_per_type) if isinstance(n_per_type, int) else dict(n_per_type)
    unknown = set(counts) - set(CATEGORIES)
    if unknown:
        raise ValueError(f"unknown categories: {sorted(unknown)}")
    builder = _Builder(seed, lex)
    rows = []
    for code in CATEGORIES:
        for i in range(counts.get(code, 0)):
            a, bb, k, types = MAKERS[code](builder, i)
            if isinstance(a, str):
                text_a, roles_a, lem_a = a, dict.fromkeys(ROLES), ()
            else:
                text_a, roles_a = render(a, lex)
                lem_a = content_lemmas(a)
            text_b, roles_b = render(bb, lex)
            rows.append({
                "sentence_a": text_a, "sentence_b": text_b, "type": CATEGORY_TYPE[code],
                "category": code, "n_modifiers": float(k), "modifiers": tuple(types),
                "roles_a": roles_a, "roles_b": roles_b, "lemmas_a": lem_a,
                "lemmas_b": content_lemmas(bb),
            })
    frame = pd.DataFrame(rows, columns=[
        "sentence_a", "sentence_b", "type", "category", "n_modifiers", "modifiers",
        "roles_a", "roles_b", "lemmas_a", "lemmas_b",
    ])
    frame.index.name = "pair_id"
    return frame


def gold_roles(pairs: pd.DataFrame) -> pd.DataFrame:
    """The gold roles of generated pairs (``roles_a``, ``roles_b`` of :func:`generate`) as one
    role frame: index (``row``, ``sentence``), ``row`` the position of the pair (0 to n - 1) and
    ``sentence`` "a" or "b"; one column per role of :data:`ROLES` (a phrase or None), as the
    labeller's frames (:func:`compsem.sts.roles.label_roles`) and the authors' parses read."""
    gold = pd.concat([pd.DataFrame(list(pairs["roles_a"])), pd.DataFrame(list(pairs["roles_b"]))],
                     keys=["a", "b"], names=["sentence", "row"]).swaplevel().sort_index()
    return gold.reindex(columns=list(ROLES))


__all__ = [
    "CATEGORIES", "Clause", "LEXICON_FILE", "Lexicon", "MODIFIER_TYPES", "NP", "ROLES",
    "content_lemmas", "generate", "gold_roles", "indefinite", "load_lexicon", "participle", "past", "plural",
    "render", "third_singular",
]
