"""What a generated or read sentence means: the semantic predicates the probing tasks label by.

Each predicate reads the annotation of an :class:`~compsem.probing.events.Sentence` (its
predications, with roles, voice, polarity and token positions), never its surface string:

- :func:`describe`: the structure columns of an item frame (main clause, relative clause,
  negation site, adverbs, nouns and verbs in surface order);
- :func:`is_agent` (2016 Table 1; 2018 SemRole), :func:`performs` (2016 Table 2),
  :func:`precedes` (2018 Order), :func:`verb_is_positive` (2018 Negation), and the token
  positions they rest on;
- :func:`label_of`: the label of a 2018 probed item (Ettinger et al. 2018, §3, Table 2)
  recomputed from these predicates.
"""

from __future__ import annotations

from compsem.probing import events as ev


def describe(sentence: ev.Sentence) -> dict:
    """Flat structure columns of a sentence: main clause (verb, agent, patient, voice, tense,
    aspect), its relative clause (site = the main role its host NP plays, type src/orc, voice,
    verb), where negation is, adverb count, nouns and verbs in surface order, length."""
    main = sentence.main
    rc = sentence.predications[1] if len(sentence.predications) > 1 else None
    negated = [p for p in sentence.predications if p.negated]
    neg_site = (
        "none"
        if not negated
        else ("both" if len(negated) > 1 else ("main" if negated[0].clause == "main" else "rc"))
    )
    nouns, verbs = sentence.nouns(), sentence.verbs()
    return dict(
        main_verb=main.verb,
        main_agent=main.agent,
        main_patient=main.patient or "",
        voice=main.voice,
        tense=main.tense,
        aspect=main.aspect,
        rc_site=rc.clause.split("-", 1)[1] if rc else "none",
        rc_type=(
            ("src" if rc.gap == ("agent" if rc.voice == "active" else "patient") else "orc")
            if rc
            else ""
        ),
        rc_voice=rc.voice if rc else "",
        rc_verb=rc.verb if rc else "",
        neg_site=neg_site,
        n_adverbs=sum(len(p.adverbs) for p in sentence.predications),
        nouns=" ".join(nouns),
        verbs=" ".join(verbs),
        first_noun=nouns[0],
        first_verb=verbs[0],
        n_tokens=len(sentence.tokens),
    )


def is_agent(sentence: ev.Sentence, noun: str, verb: str) -> bool:
    """Whether ``noun`` is the agent of ``verb`` in some clause (2016 Table 1; 2018 SemRole)."""
    return any(p.verb == verb and p.agent == noun for p in sentence.predications)


def performs(sentence: ev.Sentence, noun: str, verb: str) -> bool:
    """Whether the sentence means that ``noun`` performs ``verb``: agent of it in a clause that
    is not negated (2016 Table 2, column prof-recommends)."""
    return any(p.verb == verb and p.agent == noun and not p.negated for p in sentence.predications)


def noun_positions(sentence: ev.Sentence, noun: str) -> list[int]:
    """Token indices of the head nouns of ``noun``'s noun phrases."""
    return sorted(
        {
            i
            for p in sentence.predications
            for i, n in ((p.agent_index, p.agent), (p.patient_index, p.patient))
            if n == noun
        }
    )


def verb_positions(sentence: ev.Sentence, verb: str) -> list[int]:
    """Token indices of the lexical verb ``verb``."""
    return sorted(p.verb_index for p in sentence.predications if p.verb == verb)


def precedes(sentence: ev.Sentence, noun: str, verb: str) -> bool:
    """Whether ``noun`` occurs before ``verb`` (2018 Order; first occurrences)."""
    return noun_positions(sentence, noun)[0] < verb_positions(sentence, verb)[0]


def verb_is_positive(sentence: ev.Sentence, verb: str) -> bool:
    """Whether ``verb``'s clause is not negated (2018 Negation: TRUE = positive polarity)."""
    return not next(p for p in sentence.predications if p.verb == verb).negated


def label_of(sentence: ev.Sentence, task: str, probe: str, probe2: str = "") -> int:
    """The label of a probed item recomputed from the sentence's annotation (2018 §3)."""
    if task == "cont1":
        return int(probe in sentence.verbs())
    if task == "cont2":
        return int(probe in sentence.nouns() and probe2 in sentence.verbs())
    if task == "order":
        return int(precedes(sentence, probe, probe2))
    if task == "sr":
        return int(is_agent(sentence, probe, probe2))
    if task == "neg":
        return int(verb_is_positive(sentence, probe))
    raise ValueError(f"unknown probe task {task!r}; known: cont1, cont2, order, sr, neg")
