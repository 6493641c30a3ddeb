"""Event structures and their realisation as annotated English sentences.

Ettinger, Elgohary & Resnik (2016, §3.1 and §5) ask for "a single richly annotated dataset"
whose structural variation comes from active/passive alternation, relative clauses at various
syntactic positions and negation at various syntactic positions, produced by "a
carefully-engineered ... generative process". This module is our own implementation of that
process (the authors' 2018 generator is not used): an :class:`Event` (verb, agent, patient,
voice, tense, aspect, negation, adverbs; each participant a :class:`NounPhrase` that may carry
one relative clause) is realised by :func:`realise` as a :class:`Sentence` whose tokens carry the
annotation: one :class:`Predication` per clause with its roles, polarity, the token positions of
verb, arguments and ``not``, and the tokens in the scope of its negation.

Grammar of the realisation (every form from the lexicon's inflection table)::

    S   -> NP[subj] VG NP[obj]            active transitive
         | NP[subj] VG by NP[agent]       passive
         | NP[subj] VG                    intransitive
    NP  -> the N [that RC]                at most one relative clause per NP, depth 1
    RC  -> VG [NP | by NP]                subject relative: the head is the RC's surface subject
         | the N VG [by]                  object relative: the head is the RC's surface object
                                          ("by" is stranded in an object-relative passive)
    VG  -> active simple:       [ADV] V-finite        | do not [ADV] V-base
           active progressive:  be [not] [ADV] V-ing
           passive simple:      be [not] [ADV] V-pp
           passive progressive: be [not] [ADV] being V-pp
    ADV -> adverb ("," adverb)*           adverb runs as in the 2018 task files

``be`` and ``do`` agree with the surface subject in tense and number. The agent of a passive is
always expressed. Negation scope: the tokens of the clause whose verb is negated, an embedded
relative clause excluded (the RC of a negated main clause is not in the scope of its ``not``).

>>> from compsem.probing.events import Event, NounPhrase, GAP, realise
>>> rc = Event("like", agent=GAP, patient=NounPhrase("school"), negated=True)
>>> e = Event("recommend", NounPhrase("professor", rc=rc), NounPhrase("researcher"))
>>> realise(e).text
'the professor that did not like the school recommended the researcher'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from compsem.probing import lexicon as lexicon_mod

VOICES = ("active", "passive")
ASPECTS = ("simple", "progressive")
ROLES = ("agent", "patient")


class Gap:
    """The position of a relative clause's head noun inside the relative clause (a singleton)."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "GAP"

    def __reduce__(self):
        return (Gap, ())


GAP = Gap()
"""The gap of a relative clause: the role its head noun plays inside the clause."""


@dataclass(frozen=True)
class NounPhrase:
    """``the`` + noun (lemma, number), optionally modified by one relative clause ``rc``.

    ``rc`` is an :class:`Event` with :data:`GAP` in exactly one role: the role the head noun
    plays in the relative clause.
    """

    noun: str
    number: str = "sg"
    rc: Event | None = None


@dataclass(frozen=True)
class Event:
    """One predication: ``verb`` with its ``agent`` and ``patient`` (None for an intransitive
    verb) and the grammatical features of its clause."""

    verb: str
    agent: NounPhrase | Gap
    patient: NounPhrase | Gap | None = None
    voice: str = "active"
    tense: str = "past"
    aspect: str = "simple"
    negated: bool = False
    adverbs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Predication:
    """The annotation of one clause of a realised sentence.

    ``clause`` is ``"main"`` or ``"rc-agent"`` / ``"rc-patient"`` (a relative clause on the NP
    of the main clause's agent / patient). ``agent``/``patient`` are noun lemmas (for the gap of
    a relative clause, the head noun). Indices point into :attr:`Sentence.tokens`: the lexical
    verb, the head noun of each argument, ``not``. ``span`` is the clause's token range
    ``[start, end)``; ``scope`` the token indices under its negation (``()`` if not negated).
    """

    verb: str
    agent: str
    patient: str | None
    voice: str
    tense: str
    aspect: str
    negated: bool
    adverbs: tuple[str, ...]
    clause: str
    gap: str | None
    verb_index: int
    agent_index: int
    patient_index: int | None
    not_index: int | None
    span: tuple[int, int]
    scope: tuple[int, ...]


@dataclass(frozen=True)
class Sentence:
    """A realised event: its tokens and one :class:`Predication` per clause (main first, then
    relative clauses in surface order)."""

    tokens: tuple[str, ...]
    event: Event
    predications: tuple[Predication, ...] = field(default=())

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    @property
    def main(self) -> Predication:
        return self.predications[0]

    def nouns(self) -> tuple[str, ...]:
        """Noun lemmas in surface order (one per noun phrase)."""
        heads = sorted(
            {(p.agent_index, p.agent) for p in self.predications}
            | {(p.patient_index, p.patient) for p in self.predications if p.patient is not None}
        )
        return tuple(noun for _, noun in heads)

    def verbs(self) -> tuple[str, ...]:
        """Verb lemmas in surface order."""
        return tuple(p.verb for p in sorted(self.predications, key=lambda p: p.verb_index))


class EventError(ValueError):
    """An event that the grammar cannot realise (names the offending part)."""


# --------------------------------------------------------------------------- validation


def check_event(event: Event, lexicon=None, *, relative: bool = False) -> None:
    """Raise :class:`EventError` unless ``event`` is realisable: known words, a patient exactly
    for transitive verbs, passives only of transitive verbs, known voice/tense/aspect/adverbs,
    no gap in a main clause, exactly one gap in a relative clause, relative clauses one level
    deep (a noun phrase inside a relative clause has none)."""
    lex = lexicon or lexicon_mod.load()
    where = "relative clause" if relative else "main clause"
    if event.verb not in lex.verbs:
        raise EventError(f"{where}: unknown verb {event.verb!r}")
    transitive = lex.is_transitive(event.verb)
    if transitive and event.patient is None:
        raise EventError(f"{where}: the transitive verb {event.verb!r} needs a patient")
    if not transitive and event.patient is not None:
        raise EventError(f"{where}: the intransitive verb {event.verb!r} takes no patient")
    if event.voice not in VOICES:
        raise EventError(f"{where}: voice must be one of {VOICES}, not {event.voice!r}")
    if event.voice == "passive" and not transitive:
        raise EventError(f"{where}: the intransitive verb {event.verb!r} has no passive")
    if event.tense not in lexicon_mod.TENSES:
        raise EventError(f"{where}: tense must be one of {lexicon_mod.TENSES}, not {event.tense!r}")
    if event.aspect not in ASPECTS:
        raise EventError(f"{where}: aspect must be one of {ASPECTS}, not {event.aspect!r}")
    unknown = [a for a in event.adverbs if a not in lex.adverbs]
    if unknown:
        raise EventError(f"{where}: unknown adverbs {unknown}")
    participants = [event.agent] + ([event.patient] if event.patient is not None else [])
    gaps = sum(p is GAP for p in participants)
    if relative and gaps != 1:
        raise EventError(f"a relative clause needs exactly one GAP role, found {gaps}")
    if not relative and gaps:
        raise EventError("a main clause cannot contain a GAP")
    for np in participants:
        if np is GAP:
            continue
        if not isinstance(np, NounPhrase):
            raise EventError(f"{where}: a participant must be a NounPhrase or GAP, not {np!r}")
        lex.noun_form(np.noun, np.number)
        if np.rc is not None:
            if relative:
                raise EventError(
                    "relative clauses are one level deep: an NP inside a relative "
                    f"clause cannot have its own (on {np.noun!r})"
                )
            check_event(np.rc, lex, relative=True)


# --------------------------------------------------------------------------- realisation


def verb_group(
    lexicon,
    verb: str,
    voice: str,
    tense: str,
    aspect: str,
    negated: bool,
    adverbs: tuple[str, ...],
    number: str,
) -> tuple[list[str], int, int | None]:
    """The verb group of a clause: ``(tokens, verb offset, not offset or None)``.

    Auxiliaries agree with the surface subject's ``number``. Adverbs (a comma-separated run)
    stand right before the lexical verb, after ``not`` (before ``being`` in a passive
    progressive), so that a run of adverbs separates ``not`` from the verb (Ettinger et al. 2018).
    """
    run: list[str] = []
    for i, adverb in enumerate(adverbs):
        run += ([","] if i else []) + [adverb]
    neg = ["not"] if negated else []
    if voice == "active" and aspect == "simple":
        if negated:
            tokens = [lexicon.do(tense, number), "not", *run, lexicon.verb_form(verb, "base")]
        else:
            finite = "past" if tense == "past" else ("s" if number == "sg" else "base")
            tokens = [*run, lexicon.verb_form(verb, finite)]
    elif voice == "active":
        tokens = [lexicon.be(tense, number), *neg, *run, lexicon.verb_form(verb, "ing")]
    elif aspect == "simple":
        tokens = [lexicon.be(tense, number), *neg, *run, lexicon.verb_form(verb, "pp")]
    else:
        tokens = [lexicon.be(tense, number), *neg, *run, "being", lexicon.verb_form(verb, "pp")]
    return tokens, len(tokens) - 1, (tokens.index("not") if negated else None)


class _Builder:
    def __init__(self, lexicon):
        self.lex = lexicon
        self.tokens: list[str] = []
        self.predications: list[Predication] = []
        self.rc_spans: list[tuple[int, int]] = []

    def np(self, np: NounPhrase, site: str | None) -> int:
        """Emit ``the N [that RC]``; returns the index of the head noun."""
        self.tokens += ["the", self.lex.noun_form(np.noun, np.number)]
        head = len(self.tokens) - 1
        if np.rc is not None:
            self.relative(np, head, site)
        return head

    def group(self, event: Event, number: str) -> tuple[int, int | None]:
        tokens, v, n = verb_group(
            self.lex,
            event.verb,
            event.voice,
            event.tense,
            event.aspect,
            event.negated,
            event.adverbs,
            number,
        )
        start = len(self.tokens)
        self.tokens += tokens
        return start + v, (start + n if n is not None else None)

    def relative(self, head_np: NounPhrase, head: int, site: str) -> None:
        e = head_np.rc
        gap = "agent" if e.agent is GAP else "patient"
        subject_role = "agent" if e.voice == "active" else "patient"
        start = len(self.tokens)
        self.tokens.append("that")
        index = {gap: head}
        if gap == subject_role:  # subject relative: that VG [NP | by NP]
            verb_i, not_i = self.group(e, head_np.number)
            if e.patient is not None:
                if e.voice == "active":
                    index["patient"] = self.np(e.patient, None)
                else:
                    self.tokens.append("by")
                    index["agent"] = self.np(e.agent, None)
        else:  # object relative: that the N VG [by]
            subject = getattr(e, subject_role)
            index[subject_role] = self.np(subject, None)
            verb_i, not_i = self.group(e, subject.number)
            if e.voice == "passive":
                self.tokens.append("by")
        end = len(self.tokens)
        self.rc_spans.append((start, end))
        self.predications.append(
            self._predication(
                e,
                f"rc-{site}",
                gap,
                head_np.noun,
                verb_i,
                not_i,
                index,
                (start, end),
                tuple(range(start, end)) if e.negated else (),
            )
        )

    def _predication(self, e, clause, gap, head_noun, verb_i, not_i, index, span, scope):
        def noun_of(role):
            p = getattr(e, role)
            return head_noun if p is GAP else (None if p is None else p.noun)

        return Predication(
            verb=e.verb,
            agent=noun_of("agent"),
            patient=noun_of("patient"),
            voice=e.voice,
            tense=e.tense,
            aspect=e.aspect,
            negated=e.negated,
            adverbs=tuple(e.adverbs),
            clause=clause,
            gap=gap,
            verb_index=verb_i,
            agent_index=index["agent"],
            patient_index=index.get("patient"),
            not_index=not_i,
            span=span,
            scope=scope,
        )

    def main(self, e: Event) -> None:
        subject_role = "agent" if e.voice == "active" else "patient"
        subject = getattr(e, subject_role)
        index = {subject_role: self.np(subject, subject_role)}
        verb_i, not_i = self.group(e, subject.number)
        if e.patient is not None:
            if e.voice == "active":
                index["patient"] = self.np(e.patient, "patient")
            else:
                self.tokens.append("by")
                index["agent"] = self.np(e.agent, "agent")
        span = (0, len(self.tokens))
        inside_rc = {i for a, b in self.rc_spans for i in range(a, b)}
        scope = tuple(i for i in range(*span) if i not in inside_rc) if e.negated else ()
        main = self._predication(e, "main", None, None, verb_i, not_i, index, span, scope)
        self.predications.insert(0, main)


def realise(event: Event, lexicon=None) -> Sentence:
    """The annotated sentence of ``event`` (Ettinger et al. 2016 §3.1; grammar in the module
    docstring). Raises :class:`EventError` for an event the grammar cannot realise."""
    lex = lexicon or lexicon_mod.load()
    check_event(event, lex)
    builder = _Builder(lex)
    builder.main(event)
    main, *rcs = builder.predications
    rcs.sort(key=lambda p: p.span[0])
    return Sentence(tuple(builder.tokens), event, (main, *rcs))


# --------------------------------------------------------------------------- structure access

Path = tuple[str, ...]
"""A path of attribute names from an event to a noun phrase or event, e.g.
``("agent", "rc", "patient")``: the patient of the relative clause on the main agent."""


def get(event: Event, path: Path):
    """The part of ``event`` at ``path`` (``()`` is the event itself)."""
    node = event
    for name in path:
        node = getattr(node, name)
    return node


def set_at(event: Event, path: Path, value) -> Event:
    """A copy of ``event`` with the part at ``path`` replaced by ``value``."""
    if not path:
        return value
    head, *rest = path
    return replace(event, **{head: set_at(getattr(event, head), tuple(rest), value)})


def clause_paths(event: Event) -> list[Path]:
    """Paths of every clause: ``()`` for the main clause, ``(role, "rc")`` for a relative
    clause on the main clause's agent or patient NP."""
    paths = [()]
    for role in ROLES:
        np = getattr(event, role)
        if isinstance(np, NounPhrase) and np.rc is not None:
            paths.append((role, "rc"))
    return paths


def filler_path(event: Event, clause: Path, role: str) -> Path | None:
    """The path of the noun phrase that fills ``role`` in the clause at ``clause``: the head
    noun phrase when the role is the relative clause's gap; None for a missing patient."""
    node = get(event, clause)
    part = getattr(node, role)
    if part is None:
        return None
    if part is GAP:
        return clause[:-1]
    return clause + (role,)


def noun_paths(event: Event) -> list[Path]:
    """Paths of every noun phrase (main arguments first, then relative-clause arguments)."""
    paths = []
    for role in ROLES:
        if isinstance(getattr(event, role), NounPhrase):
            paths.append((role,))
    for clause in clause_paths(event)[1:]:
        for role in ROLES:
            if isinstance(get(event, clause + (role,)), NounPhrase):
                paths.append(clause + (role,))
    return paths


def set_noun(event: Event, path: Path, noun: str, number: str | None = None) -> Event:
    """Replace the noun (and optionally the number) of the noun phrase at ``path``, keeping its
    relative clause."""
    np = get(event, path)
    return set_at(event, path, replace(np, noun=noun, number=number or np.number))


def exchange_nouns(event: Event, a: Path, b: Path) -> Event:
    """Exchange noun and number of two noun phrases (their relative clauses stay in place):
    the nouns and verbs are unchanged (only agreement may change, "was" -> "were"), the roles
    change (Table 1, rows 1-3: "the professor recommended the student" -> "the student
    recommended the professor")."""
    np_a, np_b = get(event, a), get(event, b)
    event = set_noun(event, a, np_b.noun, np_b.number)
    return set_noun(event, b, np_a.noun, np_a.number)


def flip_voice(event: Event, clause: Path = ()) -> Event:
    """Exchange the agent and patient *positions* of a clause and flip its voice: the surface
    order of the noun phrases stays, the roles reverse (Table 1, row 4: "the professor that
    recommended the researcher" -> "the professor that was recommended by the researcher")."""
    node = get(event, clause)
    if node.patient is None:
        raise EventError(f"the clause at {clause} is intransitive and has no passive")
    voice = "passive" if node.voice == "active" else "active"
    return set_at(event, clause, replace(node, agent=node.patient, patient=node.agent, voice=voice))


def paraphrase_voice(event: Event, clause: Path = ()) -> Event:
    """The active/passive paraphrase of a clause: same roles, other voice (meaning kept)."""
    node = get(event, clause)
    if node.patient is None:
        raise EventError(f"the clause at {clause} is intransitive and has no passive")
    return set_at(
        event, clause, replace(node, voice="passive" if node.voice == "active" else "active")
    )
