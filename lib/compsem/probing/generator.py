"""Random events from a small grammar, deterministic in a seed.

A :class:`Grammar` names the words (usually an inventory of the lexicon) and the structural
choices: voices, tenses, aspects, numbers, where a relative clause may attach (``rc_sites``:
``none`` or the main clause's ``agent`` / ``patient`` noun phrase), which role its head plays
inside it (``rc_gaps``), where a negation may go (``negation``: ``none``, ``main``, ``rc``),
how many adverbs a verb group may carry (``min_adverbs`` to ``max_adverbs``, distinct), and how
often a clause is intransitive. Every choice is uniform over the options given.
:func:`sample_event` draws one event, :func:`sample` draws distinct sentences. This is the "generative process" that Ettinger, Elgohary & Resnik (2016, §5)
call for; the structure templates follow the released 2018 sets (at most one relative clause).

Randomness comes only from the ``numpy.random.Generator`` passed in (PCG64 seeded by the
caller), and no iteration over a Python set is involved, so a seed fixes the output.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from compsem.probing import events as ev
from compsem.probing import lexicon as lexicon_mod


@dataclass(frozen=True)
class Grammar:
    """The words and structural options of a sentence set (see the module docstring).

    ``negation_invariant=True`` makes every *active* clause progressive, so that a negation
    never changes the form of the lexical verb (``is recommending`` / ``is not recommending``,
    never ``recommended`` / ``did not recommend``): the bag of words then cannot tell where a
    negation is (the released 2018 negation set is built this way: no simple tenses).
    ``stranded_by`` allows object-relative passives ("the doctor that the scientists are helped
    by"), which the 2018 sets contain; off by default. ``distinct_nouns`` / ``distinct_verbs``:
    the noun phrases / clauses of one sentence use different lemmas.
    """

    nouns: tuple[str, ...]
    transitive: tuple[str, ...]
    intransitive: tuple[str, ...] = ()
    adverbs: tuple[str, ...] = ()
    voices: tuple[str, ...] = ("active", "passive")
    tenses: tuple[str, ...] = ("past", "present")
    aspects: tuple[str, ...] = ("simple", "progressive")
    numbers: tuple[str, ...] = ("sg", "pl")
    rc_sites: tuple[str, ...] = ("none", "agent", "patient")
    rc_gaps: tuple[str, ...] = ("agent", "patient")
    negation: tuple[str, ...] = ("none", "main", "rc")
    max_adverbs: int = 0
    min_adverbs: int = 0
    p_intransitive: float = 0.0
    negation_invariant: bool = False
    stranded_by: bool = False
    distinct_nouns: bool = True
    distinct_verbs: bool = True

    def __post_init__(self):
        options = {
            "voices": (self.voices, ev.VOICES),
            "tenses": (self.tenses, lexicon_mod.TENSES),
            "aspects": (self.aspects, ev.ASPECTS),
            "numbers": (self.numbers, lexicon_mod.NUMBERS),
            "rc_sites": (self.rc_sites, ("none", "agent", "patient")),
            "rc_gaps": (self.rc_gaps, ev.ROLES),
            "negation": (self.negation, ("none", "main", "rc")),
        }
        for name, (values, allowed) in options.items():
            bad = [v for v in values if v not in allowed]
            if not values or bad:
                raise ValueError(
                    f"Grammar.{name} must be a non-empty subset of {allowed}, got {values!r}"
                )
        if not self.nouns or not (self.transitive or self.intransitive):
            raise ValueError("Grammar needs nouns and at least one verb")
        if not 0 <= self.p_intransitive <= 1:
            raise ValueError(f"p_intransitive must lie in [0, 1], got {self.p_intransitive}")
        if self.p_intransitive > 0 and not self.intransitive:
            raise ValueError("p_intransitive > 0 needs intransitive verbs")
        if self.p_intransitive < 1 and not self.transitive:
            raise ValueError("p_intransitive < 1 needs transitive verbs")
        if self.max_adverbs and not self.adverbs:
            raise ValueError("max_adverbs > 0 needs adverbs")
        if not 0 <= self.min_adverbs <= self.max_adverbs:
            raise ValueError(
                f"need 0 <= min_adverbs <= max_adverbs, got {self.min_adverbs}, {self.max_adverbs}"
            )
        if "rc" in self.negation and self.rc_sites == ("none",):
            raise ValueError("negation 'rc' needs relative clauses (rc_sites other than 'none')")

    @classmethod
    def from_inventory(cls, name: str, lexicon=None, **options) -> Grammar:
        """A grammar over the words of a lexicon inventory (``ettinger2016``, ``ettinger2018``)."""
        inv = (lexicon or lexicon_mod.load()).inventory(name)
        return cls(
            nouns=inv.nouns,
            transitive=inv.transitive,
            intransitive=inv.intransitive,
            adverbs=inv.adverbs,
            **options,
        )


def _pick(rng: np.random.Generator, options):
    options = list(options)
    return options[int(rng.integers(len(options)))]


def _clause(
    rng, grammar: Grammar, verb_pool: list[str], negated: bool, relative: bool = False
) -> dict:
    """The verb and features of one clause; a transitive relative clause also gets its gap."""
    intransitive = bool(grammar.intransitive) and (
        not grammar.transitive or rng.random() < grammar.p_intransitive
    )
    candidates = [
        v for v in (grammar.intransitive if intransitive else grammar.transitive) if v in verb_pool
    ]
    if not candidates:
        raise ValueError("the grammar has too few verbs for distinct verbs in one sentence")
    verb = _pick(rng, candidates)
    gap = "agent"
    if intransitive:
        if "active" not in grammar.voices:
            raise ValueError("intransitive clauses need the active voice in Grammar.voices")
        voice = "active"
    elif relative:  # uniform over the relative-clause structures the grammar allows
        structures = [
            (v, g)
            for v in grammar.voices
            for g in grammar.rc_gaps
            if grammar.stranded_by or (v, g) != ("passive", "agent")
        ]
        if not structures:
            raise ValueError(
                "no relative-clause structure: rc_gaps=('agent',) with only the "
                "passive voice strands 'by'; set stranded_by=True or add a voice"
            )
        voice, gap = _pick(rng, structures)
    else:
        voice = _pick(rng, grammar.voices)
    aspect = _pick(rng, grammar.aspects)
    if grammar.negation_invariant and voice == "active":
        if "progressive" not in grammar.aspects:
            raise ValueError("negation_invariant needs 'progressive' in Grammar.aspects")
        aspect = "progressive"
    n_adverbs = int(rng.integers(grammar.min_adverbs, grammar.max_adverbs + 1))
    chosen = rng.permutation(len(grammar.adverbs))[:n_adverbs] if n_adverbs else []
    adverbs = tuple(grammar.adverbs[int(i)] for i in chosen)
    return dict(
        verb=verb,
        voice=voice,
        tense=_pick(rng, grammar.tenses),
        aspect=aspect,
        negated=negated,
        adverbs=adverbs,
        transitive=not intransitive,
        gap=gap,
    )


def sample_event(rng: np.random.Generator, grammar: Grammar) -> ev.Event:
    """One random event of ``grammar`` (all choices uniform; see the module docstring)."""
    nouns = list(grammar.nouns)
    verbs = list(grammar.transitive) + list(grammar.intransitive)

    def noun_phrase() -> ev.NounPhrase:
        if not nouns:
            raise ValueError("the grammar has too few nouns for distinct nouns in one sentence")
        noun = _pick(rng, nouns)
        if grammar.distinct_nouns:
            nouns.remove(noun)
        return ev.NounPhrase(noun, _pick(rng, grammar.numbers))

    site = _pick(rng, grammar.rc_sites)
    main = _clause(rng, grammar, verbs, False)
    if grammar.distinct_verbs:
        verbs.remove(main["verb"])
    main.pop("gap")
    if not main.pop("transitive") and site == "patient":
        site = "agent"  # an intransitive main clause has no patient to modify
    negation = _pick(rng, [n for n in grammar.negation if n != "rc" or site != "none"] or ["none"])
    main["negated"] = negation == "main"
    agent = noun_phrase()
    patient = noun_phrase() if main["verb"] in grammar.transitive else None
    if site != "none":
        host = agent if site == "agent" else patient
        rc = _clause(rng, grammar, verbs, negation == "rc", relative=True)
        gap = rc.pop("gap")
        if rc.pop("transitive"):
            other = noun_phrase()
            roles = (
                {"agent": ev.GAP, "patient": other}
                if gap == "agent"
                else {"agent": other, "patient": ev.GAP}
            )
        else:
            roles = {"agent": ev.GAP, "patient": None}
        host = replace(host, rc=ev.Event(**rc, **roles))
        agent, patient = (host, patient) if site == "agent" else (agent, host)
    return ev.Event(agent=agent, patient=patient, **main)


def sample(
    n: int,
    grammar: Grammar,
    seed: int | np.random.Generator = 0,
    exclude=(),
    lexicon=None,
    max_tries: int | None = None,
) -> list[ev.Sentence]:
    """``n`` distinct realised sentences of ``grammar`` (texts not in ``exclude``).

    Raises ValueError when ``max_tries`` (default ``50 * n + 1000``) draws do not give ``n``
    distinct sentences: the grammar is too small for ``n``.
    """
    lex = lexicon or lexicon_mod.load()
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    seen = set(exclude)
    out: list[ev.Sentence] = []
    tries = max_tries or 50 * n + 1000
    for _ in range(tries):
        if len(out) == n:
            break
        sentence = ev.realise(sample_event(rng, grammar), lex)
        if sentence.text not in seen:
            seen.add(sentence.text)
            out.append(sentence)
    if len(out) < n:
        raise ValueError(
            f"only {len(out)} distinct sentences of {n} after {tries} draws: the "
            "grammar is too small; add words or structural options"
        )
    return out
