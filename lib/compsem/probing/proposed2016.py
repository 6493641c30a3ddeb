"""The two tasks Ettinger, Elgohary & Resnik (2016) proposed and never ran (Tables 1-2).

- :func:`agent_of_task` (``prof-ag-of-rec``, Table 1): is the professor the agent of
  recommend? Items are minimal pairs: a positive and a negative made from it
  (:data:`NEGATIVE_KINDS`, :func:`make_negative`), with the same nouns and verbs or the same
  surface order, so that which words occur says nothing about the label;
- :func:`event_negation_task` (``prof-recommends``, Table 2): does a professor perform an act
  of recommending? Pairs add wrong negation scope (row 2) or wrong roles (row 3).

Every item frame is in the format of :mod:`compsem.probing.item_frames`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from compsem.probing import events as ev
from compsem.probing import generator as gen
from compsem.probing import lexicon as lexicon_mod
from compsem.probing.grammars import grammar_without
from compsem.probing.item_frames import as_rng, item_frame, item_row, sample_groups, split_groups
from compsem.probing.predicates import is_agent, performs

NEGATIVE_KINDS = ("swap", "voice", "displace")
"""How a negative of a role task is made from a positive (Table 1): ``swap`` exchanges the
target noun with the other argument of the verb (rows 1-3; the same nouns and verbs),
``voice`` flips the voice of the verb's clause keeping the surface order (row 4), ``displace``
exchanges the target noun with a noun of another clause (row 5; the same nouns and verbs)."""


def _place(rng, event: ev.Event, noun: str, verb: str) -> tuple[ev.Event, tuple]:
    """Make ``noun`` the agent of ``verb`` in a random transitive clause of ``event``."""
    clauses = [c for c in ev.clause_paths(event) if ev.get(event, c).patient is not None]
    if not clauses:
        return event, None
    clause = clauses[int(rng.integers(len(clauses)))]
    event = ev.set_at(event, clause, replace(ev.get(event, clause), verb=verb))
    return ev.set_noun(event, ev.filler_path(event, clause, "agent"), noun), clause


def _strands_by(event: ev.Event) -> bool:
    """Whether a relative clause of ``event`` is an object-relative passive."""
    for clause in ev.clause_paths(event)[1:]:
        rc = ev.get(event, clause)
        if rc.voice == "passive" and rc.agent is ev.GAP:
            return True
    return False


def make_negative(
    rng, event: ev.Event, clause: tuple, kind: str, stranded_by: bool = False
) -> ev.Event | None:
    """The negative of kind ``kind`` (:data:`NEGATIVE_KINDS`) for the positive ``event`` whose
    target predication is at ``clause``; None when the kind does not apply (``displace`` in a
    one-clause sentence, a ``voice`` flip that would strand "by")."""
    agent = ev.filler_path(event, clause, "agent")
    patient = ev.filler_path(event, clause, "patient")
    if kind == "swap":
        return ev.exchange_nouns(event, agent, patient)
    if kind == "voice":
        flipped = ev.flip_voice(event, clause)
        return None if (_strands_by(flipped) and not stranded_by) else flipped
    if kind == "displace":
        others = [p for p in ev.noun_paths(event) if p not in (agent, patient)]
        if not others:
            return None
        return ev.exchange_nouns(event, agent, others[int(rng.integers(len(others)))])
    raise ValueError(f"unknown negative kind {kind!r}; known: {NEGATIVE_KINDS}")


def _first_negative(rng, event, clause, kinds: Sequence[str], stranded_by):
    """``(kind, negative event)`` for the first of ``kinds``, in random order, that
    :func:`make_negative` can build for ``clause``; ``(None, None)`` when none can."""
    kinds = list(kinds)
    rng.shuffle(kinds)
    for kind in kinds:
        negative = make_negative(rng, event, clause, kind, stranded_by)
        if negative is not None:
            return kind, negative
    return None, None


def agent_of_task(
    grammar: gen.Grammar,
    noun: str = "professor",
    verb: str = "recommend",
    n_train: int = 1000,
    n_test: int = 500,
    seed=0,
    negatives: Sequence[str] = NEGATIVE_KINDS,
    lexicon=None,
    name: str | None = None,
) -> pd.DataFrame:
    """Professor-as-agent-of-recommend (2016 Table 1, proposed): every sentence contains
    ``noun`` and ``verb`` exactly once; label 1 when ``noun`` is the agent of ``verb``.

    Items come in minimal pairs: a positive (the pair placed in a random transitive clause of a
    random sentence, relative clauses included) and a negative made from it by one of
    ``negatives`` (:data:`NEGATIVE_KINDS`, chosen uniformly among those that apply).
    """
    lex = lexicon or lexicon_mod.load()
    rng = as_rng(seed)
    base = grammar_without(grammar, nouns=[noun], verbs=[verb])

    def draw(group: int) -> list[dict] | None:
        event, clause = _place(rng, gen.sample_event(rng, base), noun, verb)
        if clause is None:
            return None
        kind, negative = _first_negative(rng, event, clause, negatives, grammar.stranded_by)
        if negative is None:
            return None
        pos, neg = ev.realise(event, lex), ev.realise(negative, lex)
        if not is_agent(pos, noun, verb) or is_agent(neg, noun, verb):  # a builder bug, never a user error
            raise AssertionError(f"prof-recommends: mislabelled pair {pos!r} / {neg!r}")
        return [item_row(pos, 1, group, "positive"), item_row(neg, 0, group, kind)]

    groups = sample_groups(draw, 1.3 * (n_train + n_test), 40 * (n_train + n_test))
    train, test = split_groups(groups, n_train, n_test, rng)
    return item_frame(
        train,
        test,
        name
        or (
            "prof-ag-of-rec"
            if (noun, verb) == ("professor", "recommend")
            else f"{noun}-ag-of-{verb}"
        ),
    )


def event_negation_task(
    grammar: gen.Grammar,
    noun: str = "professor",
    verb: str = "recommend",
    n_train: int = 1000,
    n_test: int = 500,
    seed=0,
    negatives: Sequence[str] = ("swap", "displace"),
    lexicon=None,
    name: str | None = None,
) -> pd.DataFrame:
    """Prof-recommends (2016 Table 2, proposed): "sentence meaning involves professor performing
    act of recommending". Every sentence has a relative clause and exactly one negation.

    Items come in pairs around a TRUE sentence (``noun`` agent of ``verb``, the negation in the
    other clause): half the pairs add a ``scope`` negative (the negation moved onto ``verb``:
    Table 2 row 2), half a role negative (``negatives``, default swap/displace: row 3). So 50%
    TRUE, 25% wrong scope, 25% wrong role: neither role nor negation alone exceeds 75%. Use a
    grammar with ``negation_invariant=True`` so the verb's form never shows the negation.
    """
    lex = lexicon or lexicon_mod.load()
    rng = as_rng(seed)
    sites = tuple(s for s in grammar.rc_sites if s != "none")
    if not sites:
        raise ValueError("event_negation_task needs relative clauses (rc_sites 'agent'/'patient')")
    base = replace(
        grammar_without(grammar, nouns=[noun], verbs=[verb]), rc_sites=sites, negation=("none",)
    )

    def draw(group: int) -> list[dict] | None:
        event, clause = _place(rng, gen.sample_event(rng, base), noun, verb)
        if clause is None:
            return None
        other = next(c for c in ev.clause_paths(event) if c != clause)
        event = ev.set_at(event, other, replace(ev.get(event, other), negated=True))
        if group % 2 == 0:
            kind = "scope"
            mate = ev.set_at(event, other, replace(ev.get(event, other), negated=False))
            mate = ev.set_at(mate, clause, replace(ev.get(mate, clause), negated=True))
        else:
            kind, mate = _first_negative(rng, event, clause, negatives, grammar.stranded_by)
            if mate is None:
                return None
        pos, neg = ev.realise(event, lex), ev.realise(mate, lex)
        if not performs(pos, noun, verb) or performs(neg, noun, verb):  # a builder bug, never a user error
            raise AssertionError(f"mislabelled pair {pos!r} / {neg!r} for {noun!r} {verb!r}")
        return [
            item_row(pos, 1, group, "positive", agent=int(is_agent(pos, noun, verb))),
            item_row(neg, 0, group, kind, agent=int(is_agent(neg, noun, verb))),
        ]

    groups = sample_groups(draw, 1.3 * (n_train + n_test), 40 * (n_train + n_test))
    train, test = split_groups(groups, n_train, n_test, rng)
    return item_frame(
        train,
        test,
        name
        or ("prof-recommends" if (noun, verb) == ("professor", "recommend") else f"{noun}-{verb}s"),
    )
