"""Probing tasks built from generated sentences, with lexical-balance controls.

Every builder returns an *item frame*, one row per classification item:

==============  =============================================================================
column          meaning
==============  =============================================================================
``sentence``    the sentence (tokens joined by single spaces)
``label``       1 / 0 (TRUE / FALSE of the task)
``probe``       the probe word of a probed task (2018: a verb, or the noun of a pair), else ""
``probe2``      the second probe word (2018 pair tasks: the verb), else ""
``split``       ``train`` / ``test``
``group``       items made together (a minimal pair, or one sentence's probes) share a group,
                and a group never straddles the split
``kind``        how the item was made (``positive``, ``swap``, ``voice``, ``displace``,
                ``scope``, ``sampled``)
``task``        the task name
...             the structure of the sentence (:func:`describe`) and of the probe's clause
==============  =============================================================================

Tasks (Ettinger, Elgohary & Resnik 2016, §3.3-§4, Tables 1-3; Ettinger et al. 2018, §3):

- :func:`has_noun_task` (``has-school``), :func:`has_human_task` (human nouns of the test set
  never in training), :func:`role_task` (``school-as-agent``, active/passive only): the three
  tasks of 2016 Table 3.
- :func:`agent_of_task` (``prof-ag-of-rec``, Table 1) and :func:`event_negation_task`
  (``prof-recommends``, Table 2): proposed in 2016, never run there.
- :func:`probe_task`: the five probed tasks of 2018 (``cont1``, ``cont2``, ``order``, ``sr``,
  ``neg``) with held-out (noun, verb) pairs and held-out adverbs, and the structural
  generalisation splits of :data:`GENERALISATION_SPLITS`.

Controls built in: train and test sentences are disjoint; a minimal pair stays on one side;
labels are balanced overall and, for probed tasks, within every probe and every sentence;
negatives of the role tasks are made from positives by exchanging nouns (the same nouns and
verbs) or flipping voice, so that which words occur says nothing about the label. :mod:`compsem.probing.audit` checks the result.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from compsem.probing import events as ev
from compsem.probing import generator as gen
from compsem.probing import lexicon as lexicon_mod

ITEM_COLUMNS = ["sentence", "label", "probe", "probe2", "split", "group", "kind", "task"]


@dataclass(frozen=True)
class TaskInfo:
    """What a task asks and whether its answer needs structure (then every bag-of-words and
    probe-only control must sit at chance, :mod:`compsem.probing.audit`)."""

    name: str
    question: str
    requires_structure: bool
    probes: int  # number of probe words per item (0, 1 or 2)
    source: str


TASKS = {
    t.name: t
    for t in [
        TaskInfo(
            "has-school",
            "does the sentence contain 'school'?",
            False,
            0,
            "Ettinger et al. 2016, Table 3",
        ),
        TaskInfo(
            "has-human",
            "does the sentence contain a human noun (test nouns unseen)?",
            False,
            0,
            "Ettinger et al. 2016, Table 3",
        ),
        TaskInfo(
            "school-as-agent",
            "is 'school' the agent (active/passive sentences)?",
            True,
            0,
            "Ettinger et al. 2016, Table 3",
        ),
        TaskInfo(
            "prof-ag-of-rec",
            "is 'professor' the agent of 'recommend'?",
            True,
            0,
            "Ettinger et al. 2016, Table 1 (proposed)",
        ),
        TaskInfo(
            "prof-recommends",
            "does a professor perform an act of recommending?",
            True,
            0,
            "Ettinger et al. 2016, Table 2 (proposed)",
        ),
        TaskInfo("cont1", "does verb v occur?", False, 1, "Ettinger et al. 2018, Table 2"),
        TaskInfo(
            "cont2", "do noun n and verb v both occur?", False, 2, "Ettinger et al. 2018, Table 2"
        ),
        TaskInfo("order", "does noun n precede verb v?", True, 2, "Ettinger et al. 2018, Table 2"),
        TaskInfo("sr", "is noun n the agent of verb v?", True, 2, "Ettinger et al. 2018, Table 2"),
        TaskInfo("neg", "is verb v not negated?", True, 1, "Ettinger et al. 2018, Table 2"),
    ]
}


def task_info(name: str) -> TaskInfo:
    """The :class:`TaskInfo` of a task name (generalisation splits inherit their base task's)."""
    base = name.split(":")[0]
    if base not in TASKS:
        raise ValueError(f"unknown task {name!r}; known: {', '.join(TASKS)}")
    return TASKS[base]


# --------------------------------------------------------------------------- annotation


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


# --------------------------------------------------------------------------- assembling frames


def _rows(sentence, label, group, kind, probe="", probe2="", **extra) -> dict:
    return dict(
        sentence=sentence.text,
        label=int(label),
        probe=probe,
        probe2=probe2,
        group=group,
        kind=kind,
        **extra,
        **describe(sentence),
    )


def _frame(train: list[dict], test: list[dict], task: str) -> pd.DataFrame:
    frame = pd.DataFrame(
        [dict(r, split="train") for r in train] + [dict(r, split="test") for r in test]
    )
    frame["task"] = task
    rest = [c for c in frame.columns if c not in ITEM_COLUMNS]
    frame = frame[ITEM_COLUMNS + rest]
    overlap = set(frame.loc[frame.split == "train", "sentence"]) & set(
        frame.loc[frame.split == "test", "sentence"]
    )
    if overlap:  # a builder bug, never a user error
        raise AssertionError(f"{task}: {len(overlap)} sentences in both train and test")
    return frame.reset_index(drop=True)


def _split_groups(groups: list[list[dict]], n_train: int, n_test: int, rng) -> tuple:
    """Shuffle groups of items and fill train, then test, each balanced in label."""
    order = rng.permutation(len(groups))
    out = {"train": [], "test": []}
    want = {"train": n_train, "test": n_test}
    counts = {s: [0, 0] for s in out}
    for i in order:
        group = groups[i]
        labels = [r["label"] for r in group]
        for split in ("train", "test"):
            need = [
                want[split] // 2 - counts[split][0],
                want[split] - want[split] // 2 - counts[split][1],
            ]
            if all(labels.count(lab) <= need[lab] for lab in (0, 1)):
                out[split] += group
                for lab in labels:
                    counts[split][lab] += 1
                break
    for split in out:
        if len(out[split]) != want[split]:
            raise ValueError(
                f"could not fill the {split} split ({len(out[split])} of "
                f"{want[split]} items): generate more groups"
            )
    return out["train"], out["test"]


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _without(grammar: gen.Grammar, nouns=(), verbs=()) -> gen.Grammar:
    return replace(
        grammar,
        nouns=tuple(n for n in grammar.nouns if n not in nouns),
        transitive=tuple(v for v in grammar.transitive if v not in verbs),
        intransitive=tuple(v for v in grammar.intransitive if v not in verbs),
    )


# --------------------------------------------------------------------------- 2016 Table 3


def has_noun_task(
    grammar: gen.Grammar,
    noun: str = "school",
    n_train: int = 1000,
    n_test: int = 500,
    seed=0,
    lexicon=None,
) -> pd.DataFrame:
    """Has-school (2016 Table 3, the sanity check): label 1 when ``noun`` occurs.

    Sentences are drawn without ``noun``; a positive gets ``noun`` in one random noun phrase,
    so positives and negatives have the same structures.
    """
    lex = lexicon or lexicon_mod.load()
    rng = _rng(seed)
    base = _without(grammar, nouns=[noun])
    seen, groups = set(), []
    for _ in range(20 * (n_train + n_test)):
        if len(groups) >= 1.3 * (n_train + n_test):
            break
        event = gen.sample_event(rng, base)
        label = int(rng.random() < 0.5)
        if label:
            paths = ev.noun_paths(event)
            event = ev.set_noun(event, paths[int(rng.integers(len(paths)))], noun)
        sentence = ev.realise(event, lex)
        if sentence.text in seen:
            continue
        seen.add(sentence.text)
        groups.append([_rows(sentence, label, len(groups), "sampled")])
    train, test = _split_groups(groups, n_train, n_test, rng)
    return _frame(train, test, "has-school" if noun == "school" else f"has-{noun}")


def has_human_pool(
    grammar: gen.Grammar,
    n_positive: int = 1500,
    n_negative: int = 750,
    seed=0,
    lexicon=None,
    one_human: bool = True,
) -> pd.DataFrame:
    """The sentence pool of has-human (2016 Table 3): ``n_positive`` sentences with a human noun
    and ``n_negative`` with none (non-human nouns only), all distinct. ``one_human=True``: a
    positive is a sentence drawn like the negatives with one random noun phrase given a human
    noun, so positives and negatives share their structures and a positive names exactly one
    human (each positive is then usable on one side of any split of the human nouns);
    ``False``: positives drawn from all nouns (any number of humans). Column ``humans``: the
    human nouns of the sentence, space-separated. :func:`split_has_human` draws train and test
    sets from the pool."""
    lex = lexicon or lexicon_mod.load()
    rng = _rng(seed)
    humans = [n for n in grammar.nouns if lex.is_human(n)]
    others = [n for n in grammar.nouns if not lex.is_human(n)]
    if len(humans) < 2 or len(others) < 3:
        raise ValueError("has-human needs at least 2 human and 3 non-human nouns in the grammar")
    seen, rows = set(), []
    for label, want in ((1, n_positive), (0, n_negative)):
        g = grammar if label and not one_human else replace(grammar, nouns=tuple(others))
        count = 0
        for _ in range(200 * want + 1000):
            if count == want:
                break
            event = gen.sample_event(rng, g)
            if label and one_human:
                slots = ev.noun_paths(event)
                human = humans[int(rng.integers(len(humans)))]
                event = ev.set_noun(event, slots[int(rng.integers(len(slots)))], human)
            sentence = ev.realise(event, lex)
            found = [x for x in sentence.nouns() if lex.is_human(x)]
            if sentence.text in seen or bool(found) != bool(label):
                continue
            seen.add(sentence.text)
            rows.append(
                _rows(
                    sentence,
                    label,
                    len(seen),
                    "sampled",
                    humans=" ".join(found),
                    n_human=len(found),
                )
            )
            count += 1
        else:
            raise ValueError(
                f"has-human: too few distinct sentences with label {label}; add nouns or structures"
            )
    frame = pd.DataFrame(rows)
    frame["split"], frame["task"] = "pool", "has-human"
    return frame[ITEM_COLUMNS + [c for c in frame.columns if c not in ITEM_COLUMNS]]


def split_has_human(
    pool: pd.DataFrame,
    n_train: int = 1000,
    n_test: int = 500,
    seed=0,
    test_humans: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Train and test sets of has-human from :func:`has_human_pool`: "no human nouns appearing
    in the test set were included in training sentences" (2016 §4). ``test_humans`` (default: a
    random half of the pool's human nouns, drawn with ``seed``) occur only in test positives,
    the other human nouns only in training positives; negatives are split at random. The drawn
    nouns are in ``frame.attrs["test_humans"]``."""
    rng = _rng(seed)
    humans = sorted({h for hs in pool["humans"] for h in hs.split()})
    if test_humans is None:
        test_humans = [humans[i] for i in sorted(rng.permutation(len(humans))[: len(humans) // 2])]
    unknown = [h for h in test_humans if h not in humans]
    if unknown:
        raise ValueError(f"test_humans {unknown} are not human nouns of the pool ({humans})")
    held = set(test_humans)
    words = pool["humans"].str.split()
    only_test = words.map(lambda hs: bool(hs) and set(hs) <= held)
    only_train = words.map(lambda hs: bool(hs) and not set(hs) & held)
    negatives = pool.index[pool["label"] == 0]
    picks = {}
    for split, mask, n in (("train", only_train, n_train), ("test", only_test, n_test)):
        candidates = pool.index[mask & (pool["label"] == 1)]
        if len(candidates) < n // 2:
            raise ValueError(
                f"has-human: only {len(candidates)} {split} positives for "
                f"{n // 2}; enlarge the pool"
            )
        picks[split] = list(candidates[rng.permutation(len(candidates))[: n // 2]])
    order = negatives[rng.permutation(len(negatives))]
    need = n_train - n_train // 2, n_test - n_test // 2
    if len(order) < sum(need):
        raise ValueError(f"has-human: only {len(order)} negatives for {sum(need)}")
    picks["train"] += list(order[: need[0]])
    picks["test"] += list(order[need[0] : need[0] + need[1]])
    frame = pd.concat(
        [
            pool.loc[picks["train"]].assign(split="train"),
            pool.loc[picks["test"]].assign(split="test"),
        ],
        ignore_index=True,
    )
    frame.attrs["test_humans"] = list(test_humans)
    return frame


def has_human_task(
    grammar: gen.Grammar,
    n_train: int = 1000,
    n_test: int = 500,
    seed=0,
    test_humans: Sequence[str] | None = None,
    lexicon=None,
) -> pd.DataFrame:
    """Has-human (2016 Table 3): label 1 when some noun denotes a human, the human nouns of the
    test set never in training (:func:`has_human_pool` + :func:`split_has_human`)."""
    n_neg = n_train - n_train // 2 + n_test - n_test // 2
    pool = has_human_pool(grammar, 2 * n_neg, n_neg, seed, lexicon)
    return split_has_human(pool, n_train, n_test, seed, test_humans)


def resplit(items: pd.DataFrame, seed=0) -> pd.DataFrame:
    """The same items with a new random train/test assignment of their groups (sizes kept,
    labels balanced on each side): the seeds of the 2016 experiments re-split one sentence set.
    Not for tasks whose split holds words out (has-human: :func:`split_has_human`; the probed
    tasks: regenerate)."""
    rng = _rng(seed)
    n_train = int((items["split"] == "train").sum())
    n_test = int((items["split"] == "test").sum())
    rows = items.drop(columns="split").to_dict("records")
    groups: dict[int, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    train, test = _split_groups(list(groups.values()), n_train, n_test, rng)
    out = _frame(train, test, str(items["task"].iloc[0]))
    return out[list(items.columns)]


def role_task(
    grammar: gen.Grammar,
    noun: str = "school",
    n_train: int = 1000,
    n_test: int = 500,
    seed=0,
    lexicon=None,
) -> pd.DataFrame:
    """School-as-agent (2016 Table 3): every sentence contains ``noun`` once; label 1 when it
    is the agent. The paper used "structural variation stemming only from active/passive
    alternation": pass a grammar without relative clauses and negation (as
    :func:`ettinger2016_grammar` with ``simple=True``); voice is independent of the label.
    """
    lex = lexicon or lexicon_mod.load()
    rng = _rng(seed)
    base = _without(grammar, nouns=[noun])
    seen, groups = set(), []
    for _ in range(20 * (n_train + n_test)):
        if len(groups) >= 1.3 * (n_train + n_test):
            break
        event = gen.sample_event(rng, base)
        label = int(rng.random() < 0.5)
        if event.patient is None:
            continue
        event = ev.set_noun(event, ("agent",) if label else ("patient",), noun)
        sentence = ev.realise(event, lex)
        if sentence.text in seen:
            continue
        seen.add(sentence.text)
        assert is_agent(sentence, noun, event.verb) == bool(label)
        groups.append([_rows(sentence, label, len(groups), "sampled")])
    train, test = _split_groups(groups, n_train, n_test, rng)
    return _frame(train, test, "school-as-agent" if noun == "school" else f"{noun}-as-agent")


# --------------------------------------------------------------------------- 2016 Tables 1-2


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
    rng = _rng(seed)
    base = _without(grammar, nouns=[noun], verbs=[verb])
    seen, groups = set(), []
    for _ in range(40 * (n_train + n_test)):
        if 2 * len(groups) >= 1.3 * (n_train + n_test):
            break
        event, clause = _place(rng, gen.sample_event(rng, base), noun, verb)
        if clause is None:
            continue
        kind, negative = _first_negative(rng, event, clause, negatives, grammar.stranded_by)
        if negative is None:
            continue
        pos, neg = ev.realise(event, lex), ev.realise(negative, lex)
        if pos.text in seen or neg.text in seen:
            continue
        assert is_agent(pos, noun, verb) and not is_agent(neg, noun, verb)
        seen.update((pos.text, neg.text))
        g = len(groups)
        groups.append([_rows(pos, 1, g, "positive"), _rows(neg, 0, g, kind)])
    train, test = _split_groups(groups, n_train, n_test, rng)
    return _frame(
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
    rng = _rng(seed)
    sites = tuple(s for s in grammar.rc_sites if s != "none")
    if not sites:
        raise ValueError("event_negation_task needs relative clauses (rc_sites 'agent'/'patient')")
    base = replace(
        _without(grammar, nouns=[noun], verbs=[verb]), rc_sites=sites, negation=("none",)
    )
    seen, groups = set(), []
    for _ in range(40 * (n_train + n_test)):
        if 2 * len(groups) >= 1.3 * (n_train + n_test):
            break
        event, clause = _place(rng, gen.sample_event(rng, base), noun, verb)
        if clause is None:
            continue
        other = next(c for c in ev.clause_paths(event) if c != clause)
        event = ev.set_at(event, other, replace(ev.get(event, other), negated=True))
        if len(groups) % 2 == 0:
            kind = "scope"
            mate = ev.set_at(event, other, replace(ev.get(event, other), negated=False))
            mate = ev.set_at(mate, clause, replace(ev.get(mate, clause), negated=True))
        else:
            kind, mate = _first_negative(rng, event, clause, negatives, grammar.stranded_by)
            if mate is None:
                continue
        pos, neg = ev.realise(event, lex), ev.realise(mate, lex)
        if pos.text in seen or neg.text in seen:
            continue
        assert performs(pos, noun, verb) and not performs(neg, noun, verb)
        seen.update((pos.text, neg.text))
        g = len(groups)
        groups.append(
            [
                _rows(pos, 1, g, "positive", agent=int(is_agent(pos, noun, verb))),
                _rows(neg, 0, g, kind, agent=int(is_agent(neg, noun, verb))),
            ]
        )
    train, test = _split_groups(groups, n_train, n_test, rng)
    return _frame(
        train,
        test,
        name
        or ("prof-recommends" if (noun, verb) == ("professor", "recommend") else f"{noun}-{verb}s"),
    )


# --------------------------------------------------------------------------- 2018 probed tasks


def probe_items(
    sentence: ev.Sentence, task: str, nouns: Sequence[str], verbs: Sequence[str]
) -> list[dict]:
    """Every candidate item of ``task`` for one sentence (probes from ``nouns``/``verbs``):

    - ``cont1``: each verb v, label = v occurs;
    - ``cont2``: each (n, v) with at least one present, label = both occur (a negative has
      exactly one of them, as in the released files; ``stratum`` says which, and the
      selection takes both kinds in equal shares);
    - ``order``: each (n, v) both present, label = n precedes v;
    - ``sr``: each (n, v) both present, label = n is the agent of v;
    - ``neg``: each verb of a sentence with exactly one negated clause, label = v not negated.

    Items also carry the probe verb's clause (``probe_clause`` main/rc), voice and polarity.
    """
    present_n, present_v = set(sentence.nouns()), set(sentence.verbs())
    clause_of = {p.verb: p for p in sentence.predications}
    items = []

    def extra(v):
        p = clause_of.get(v)
        return dict(
            probe_clause=("main" if p.clause == "main" else "rc") if p else "",
            probe_voice=p.voice if p else "",
            probe_negated=int(p.negated) if p else -1,
        )

    if task in ("cont1", "neg"):
        if task == "neg" and sum(p.negated for p in sentence.predications) != 1:
            return []
        for v in verbs:
            if task == "cont1":
                items.append(dict(probe=v, probe2="", label=int(v in present_v), **extra(v)))
            elif v in present_v:
                items.append(
                    dict(probe=v, probe2="", label=int(verb_is_positive(sentence, v)), **extra(v))
                )
        return items
    for n in nouns:
        for v in verbs:
            has_n, has_v = n in present_n, v in present_v
            if task == "cont2":
                if has_n or has_v:
                    stratum = "" if has_n == has_v else ("noun only" if has_n else "verb only")
                    items.append(
                        dict(
                            probe=n,
                            probe2=v,
                            label=int(has_n and has_v),
                            stratum=stratum,
                            **extra(v),
                        )
                    )
            elif has_n and has_v:
                label = precedes(sentence, n, v) if task == "order" else is_agent(sentence, n, v)
                items.append(dict(probe=n, probe2=v, label=int(label), **extra(v)))
            elif task not in ("order", "sr"):
                raise ValueError(
                    f"unknown probe task {task!r}; known: cont1, cont2, order, sr, neg"
                )
    return items


def _select(
    candidates: list[dict],
    keys: list[tuple],
    n: int,
    rng,
    max_per_sentence: int,
    paired: bool = True,
) -> list[dict] | None:
    """``n`` items balanced over (probe key, label); None if the candidates do not suffice.

    ``paired``: every sentence gives as many TRUE as FALSE items (then nothing about a sentence,
    e.g. whether it has a relative clause, predicts the label of its items); otherwise items
    are taken one by one."""
    if n % 2:
        raise ValueError(f"the number of items must be even (TRUE/FALSE balance), got {n}")

    def cell_of(item) -> tuple:
        return ((item["probe"], item["probe2"]), item["label"], item.get("stratum", ""))

    # strata: kinds of items of one label that must come in equal shares (cont2: a FALSE item
    # has the noun only or the verb only)
    strata = {
        lab: sorted({x.get("stratum", "") for x in candidates if x["label"] == lab}) or [""]
        for lab in (0, 1)
    }
    cells = [(k, lab, st) for k in keys for lab in (1, 0) for st in strata[lab]]
    available = {cell: 0 for cell in cells}
    for item in candidates:
        if cell_of(item) in available:
            available[cell_of(item)] += 1

    def label_room(k, lab) -> int:
        return len(strata[lab]) * min(available[(k, lab, st)] for st in strata[lab])

    # as many TRUE as FALSE items per probe; a probe whose rarer label has few candidates gets
    # fewer items and the others more ("water filling" up to a common level)
    room = {k: min(label_room(k, 1), label_room(k, 0)) for k in keys}
    half, level = n // 2, 0
    top = max(room.values(), default=0)
    while sum(min(r, level) for r in room.values()) < half and level < top:
        level += 1
    if sum(min(r, level) for r in room.values()) < half:
        return None
    quota = {k: min(room[k], level - 1) for k in keys}
    short = half - sum(quota.values())
    open_keys = [k for k in keys if room[k] >= level]
    for i in rng.permutation(len(open_keys))[:short]:
        quota[open_keys[i]] += 1
    cell_quota = {}
    for k in keys:
        for lab in (1, 0):
            m = len(strata[lab])
            extra = set(rng.permutation(m)[: quota[k] % m].tolist())
            for j, st in enumerate(strata[lab]):
                cell_quota[(k, lab, st)] = quota[k] // m + (j in extra)
    # one item of slack per cell lets the greedy pass finish; the surplus is dropped afterwards,
    # preferably from cells above their quota
    target = {cell: q + 1 for cell, q in cell_quota.items()}
    taken = {cell: 0 for cell in cells}

    def fits(item) -> bool:
        return cell_of(item) in target and taken[cell_of(item)] < target[cell_of(item)]

    def scarcity(item) -> int:
        return available.get(cell_of(item), 1 << 30)

    by_sentence: dict[str, list[dict]] = {}
    for item in candidates:
        by_sentence.setdefault(item["sentence"], []).append(item)
    # sentences offering the rarest cells first (random among equals), rare items first
    sentences = [list(by_sentence)[i] for i in rng.permutation(len(by_sentence))]
    sentences.sort(key=lambda t: min(scarcity(x) for x in by_sentence[t]))
    units: list[tuple[dict, ...]] = []  # a TRUE/FALSE pair of one sentence, or one item
    for sentence in sentences:
        items = sorted(by_sentence[sentence], key=scarcity)
        used = 0
        if not paired:
            for item in items:
                if used < max_per_sentence and fits(item):
                    taken[cell_of(item)] += 1
                    units.append((item,))
                    used += 1
            continue
        false = [x for x in items if x["label"] == 0]
        for a in (x for x in items if x["label"] == 1):
            if used + 2 > max_per_sentence or not fits(a):
                continue
            b = next((x for x in false if fits(x)), None)
            if b is None:
                break
            false.remove(b)
            taken[cell_of(a)] += 1
            taken[cell_of(b)] += 1
            units.append((a, b))
            used += 2
    count = {lab: sum(x["label"] == lab for u in units for x in u) for lab in (0, 1)}
    if min(count.values()) < half:
        return None
    keep = np.ones(len(units), dtype=bool)

    def droppable(unit, prefer: bool) -> bool:
        if any(
            count[x["label"]] - sum(y["label"] == x["label"] for y in unit) < half for x in unit
        ):
            return False
        return not prefer or all(taken[cell_of(x)] > cell_quota[cell_of(x)] for x in unit)

    for prefer in (True, False):
        for i in rng.permutation(len(units)):
            if count[0] == count[1] == half:
                break
            if keep[i] and droppable(units[i], prefer):
                keep[i] = False
                for x in units[i]:
                    count[x["label"]] -= 1
                    taken[cell_of(x)] -= 1
    if not count[0] == count[1] == half:
        return None
    return [item for i in np.flatnonzero(keep) for item in units[i]]


def _probe_keys(task: str, nouns, verbs) -> list[tuple[str, str]]:
    if task in ("cont1", "neg"):
        return [(v, "") for v in verbs]
    return [(n, v) for n in nouns for v in verbs]


def probe_task(
    task: str,
    train_grammar: gen.Grammar,
    test_grammar: gen.Grammar | None = None,
    n_train: int = 4000,
    n_test: int = 1000,
    seed=0,
    heldout_pairs: Sequence[tuple[str, str]] = (),
    probe_nouns=None,
    probe_verbs=None,
    train_filter: Callable[[dict], bool] | None = None,
    test_filter: Callable[[dict], bool] | None = None,
    test_probe_nouns=None,
    test_probe_verbs=None,
    max_per_sentence: int = 4,
    name: str | None = None,
    lexicon=None,
) -> pd.DataFrame:
    """One of the probed tasks of Ettinger et al. (2018): ``cont1``, ``cont2``, ``order``,
    ``sr`` or ``neg`` (see :func:`probe_items`), ``n_train``/``n_test`` items.

    Train sentences come from ``train_grammar``, test sentences from ``test_grammar`` (default
    the same; pass one with other adverbs for held-out adverbs), never the same sentence.
    Pair tasks use ``heldout_pairs`` only in test and every other (noun, verb) pair only in
    training. Labels are balanced within every probe (key), and in training within every
    sentence (each training sentence gives as many TRUE as FALSE items, so that no property of
    a sentence can be learnt as a cue; test items are chosen one by one, since a held-out
    pair rarely has both labels in one sentence); at most ``max_per_sentence`` items
    share a sentence (``neg``: each chosen sentence gives both of its verbs, one TRUE, one
    FALSE, in training and in test). ``train_filter``/``test_filter`` keep only candidate items they accept (the
    structural generalisation splits); ``test_probe_nouns``/``test_probe_verbs`` restrict the
    test probes (held-out words).
    """
    info = task_info(task)
    if info.probes == 0:
        raise ValueError(f"{task!r} is not a probed task; use its own builder")
    lex = lexicon or lexicon_mod.load()
    rng = _rng(seed)
    test_grammar = test_grammar or train_grammar
    grammars = (train_grammar, test_grammar)
    nouns = list(probe_nouns or dict.fromkeys(n for g in grammars for n in g.nouns))
    verbs = list(
        probe_verbs or dict.fromkeys(v for g in grammars for v in g.transitive + g.intransitive)
    )
    keys = _probe_keys(task, nouns, verbs)
    heldout = [tuple(p) for p in heldout_pairs]
    bad = [p for p in heldout if p not in keys]
    if bad:
        raise ValueError(f"heldout_pairs {bad} are not (noun, verb) probe pairs of {task}")
    train_keys = [k for k in keys if k not in heldout]
    test_keys = heldout or keys
    pair_task = task not in ("cont1", "neg")

    def wanted(key, nouns_ok, verbs_ok) -> bool:
        if not pair_task:
            return verbs_ok is None or key[0] in verbs_ok
        return (nouns_ok is None or key[0] in nouns_ok) and (verbs_ok is None or key[1] in verbs_ok)

    if task in ("order", "sr"):  # both words must be able to occur in a training sentence
        train_keys = [
            k
            for k in train_keys
            if wanted(k, train_grammar.nouns, train_grammar.transitive + train_grammar.intransitive)
        ]
    test_keys = [k for k in test_keys if wanted(k, test_probe_nouns, test_probe_verbs)]
    if not train_keys or not test_keys:
        raise ValueError(f"{task}: no probe left for the train or the test split")
    seen: set[str] = set()
    out = {}
    for split, grammar, want, split_keys, keep in (
        ("train", train_grammar, n_train, train_keys, train_filter),
        ("test", test_grammar, n_test, test_keys, test_filter),
    ):
        candidates: list[dict] = []
        pool = max(want // 2, 200)
        chosen = None
        for _attempt in range(6):
            try:
                sentences = gen.sample(
                    pool, grammar, rng, exclude=seen, lexicon=lex, max_tries=20 * pool
                )
            except ValueError:
                break
            for s in sentences:
                seen.add(s.text)
                rows = describe(s)
                gid = len(seen)
                for item in probe_items(s, task, nouns, verbs):
                    if (item["probe"], item["probe2"]) not in split_keys:
                        continue
                    item = dict(item, sentence=s.text, group=gid, kind="sampled", **rows)
                    if keep is None or keep(item):
                        candidates.append(item)
            chosen = _select(
                candidates,
                split_keys,
                want,
                rng,
                max_per_sentence,
                paired=(split == "train" or task == "neg"),
            )
            if chosen is not None:
                break
            pool *= 2
        if chosen is None:
            raise ValueError(
                f"{task}: could not find {want} balanced {split} items; relax the "
                "filters or add words"
            )
        out[split] = chosen
    used_train = {r["sentence"] for r in out["train"]}
    assert not used_train & {r["sentence"] for r in out["test"]}
    return _frame(out["train"], out["test"], name or task)


# --------------------------------------------------------------------------- grammars


def ettinger2016_grammar(simple: bool = False, lexicon=None, **options) -> gen.Grammar:
    """The grammar of our 2016 sentence sets: the ``ettinger2016`` inventory with active/passive,
    relative clauses on agent or patient, negation in either clause (§3.1). ``simple=True``:
    active/passive alternation only (the school-as-agent set, §4)."""
    if simple:
        options = dict(dict(rc_sites=("none",), negation=("none",)), **options)
    return gen.Grammar.from_inventory("ettinger2016", lexicon, **options)


def ettinger2018_grammar(task: str = "sr", lexicon=None, **options) -> gen.Grammar:
    """A grammar like the released 2018 sets (their structures are counted in the chapter): the
    ``ettinger2018`` inventory, at most one relative clause, intransitive clauses with the
    share of 2 of 7 verbs, object-relative passives allowed, no adverbs. ``cont1``: active
    progressive clauses only (as in the released cont1 set). ``neg``: active progressive
    clauses only, always one relative clause, exactly one negation, 0-2 adverbs per verb
    group (the released negation set has 0-4, 1.1 on average)."""
    base = dict(max_adverbs=0)
    if task in ("neg", "cont1"):
        base.update(voices=("active",), aspects=("progressive",))
    if task == "neg":
        base.update(rc_sites=("agent", "patient"), negation=("main", "rc"), max_adverbs=2)
    base.update(p_intransitive=2 / 7, stranded_by=True)
    base.update(options)
    grammar = gen.Grammar.from_inventory("ettinger2018", lexicon, **base)
    if not grammar.max_adverbs:
        grammar = replace(grammar, adverbs=())
    return grammar


def ettinger2018_task(
    task: str, n_train: int = 4000, n_test: int = 1000, seed=0, lexicon=None
) -> pd.DataFrame:
    """A regenerated 2018 task with the released controls: the 7 held-out (noun, verb) pairs of
    the released test sets (pair tasks), the 4 held-out adverbs (``neg``)."""
    lex = lexicon or lexicon_mod.load()
    inv = lex.inventory("ettinger2018")
    grammar = ettinger2018_grammar(task, lex)
    test_grammar = None
    if task == "neg":
        train_adverbs = tuple(a for a in inv.adverbs if a not in inv.test_adverbs)
        test_grammar = replace(grammar, adverbs=inv.test_adverbs)
        grammar = replace(grammar, adverbs=train_adverbs)
    heldout = inv.heldout_pairs if task in ("cont2", "order", "sr") else ()
    return probe_task(
        task,
        grammar,
        test_grammar,
        n_train,
        n_test,
        seed,
        heldout_pairs=heldout,
        probe_nouns=inv.nouns,
        probe_verbs=inv.verbs,
        lexicon=lex,
    )


# --------------------------------------------------------------------------- generalisation


GENERALISATION_SPLITS = {
    "sr iid": "sr: train and test from the same structures (the reference for the sr splits)",
    "active->passive": "sr: train on items whose probe verb is active, test on passive ones",
    "no-rc->rc": "sr: train on sentences without a relative clause, test on sentences with one",
    "src->orc": "sr: train on subject relatives, test on object relatives (probe verb in the RC)",
    "neg main->rc": "neg: train with the negation on the main verb, test with it in the RC",
    "heldout nouns": "sr: two nouns never occur in training sentences; test probes use them",
    "heldout verbs": "sr: two verbs never occur in training sentences; test probes use them",
    "neg iid": "neg: train and test from the same structures and adverbs (the reference)",
    "heldout adverbs": "neg: test adverbs never occur in training (the 2018 control)",
}
"""Structural generalisation splits (beyond the papers): name -> what is held out."""


def generalisation_task(
    split: str, n_train: int = 2000, n_test: int = 500, seed=0, lexicon=None
) -> pd.DataFrame:
    """The item frame of one of :data:`GENERALISATION_SPLITS` over the 2018 words."""
    if split not in GENERALISATION_SPLITS:
        raise ValueError(f"unknown split {split!r}; known: {', '.join(GENERALISATION_SPLITS)}")
    lex = lexicon or lexicon_mod.load()
    inv = lex.inventory("ettinger2018")
    rng = _rng(seed)
    name = f"{'neg' if split.startswith(('neg', 'heldout adverbs')) else 'sr'}:{split}"
    if split.startswith(("neg", "heldout adverbs")):
        g = ettinger2018_grammar("neg", lex)
        if split == "neg iid":
            return probe_task("neg", g, None, n_train, n_test, rng, name=name, lexicon=lex)
        if split == "neg main->rc":
            return probe_task(
                "neg",
                replace(g, negation=("main",)),
                replace(g, negation=("rc",)),
                n_train,
                n_test,
                rng,
                name=name,
                lexicon=lex,
            )
        train_adv = tuple(a for a in inv.adverbs if a not in inv.test_adverbs)
        return probe_task(
            "neg",
            replace(g, adverbs=train_adv),
            replace(g, adverbs=inv.test_adverbs, min_adverbs=1),
            n_train,
            n_test,
            rng,
            name=name,
            lexicon=lex,
        )
    g = ettinger2018_grammar("sr", lex)
    transitive = list(inv.transitive)
    if split == "sr iid":
        return probe_task(
            "sr", g, None, n_train, n_test, rng, probe_verbs=transitive, name=name, lexicon=lex
        )
    if split == "active->passive":
        return probe_task(
            "sr",
            g,
            None,
            n_train,
            n_test,
            rng,
            probe_verbs=transitive,
            train_filter=lambda r: r["probe_voice"] == "active",
            test_filter=lambda r: r["probe_voice"] == "passive",
            name=name,
            lexicon=lex,
        )
    if split == "no-rc->rc":
        return probe_task(
            "sr",
            replace(g, rc_sites=("none",), negation=("none", "main")),
            replace(g, rc_sites=("agent", "patient")),
            n_train,
            n_test,
            rng,
            probe_verbs=transitive,
            name=name,
            lexicon=lex,
        )
    if split == "src->orc":
        rc = replace(g, rc_sites=("agent", "patient"))
        return probe_task(
            "sr",
            rc,
            None,
            n_train,
            n_test,
            rng,
            probe_verbs=transitive,
            train_filter=lambda r: r["probe_clause"] == "rc" and r["rc_type"] == "src",
            test_filter=lambda r: r["probe_clause"] == "rc" and r["rc_type"] == "orc",
            name=name,
            lexicon=lex,
        )
    if split == "heldout nouns":
        held = list(inv.nouns[-2:])
        return probe_task(
            "sr",
            _without(g, nouns=held),
            g,
            n_train,
            n_test,
            rng,
            test_probe_nouns=held,
            name=name,
            lexicon=lex,
        )
    held = [v for v in transitive if v in ("meet", "follow")]
    return probe_task(
        "sr",
        _without(g, verbs=held),
        g,
        n_train,
        n_test,
        rng,
        test_probe_verbs=held,
        name=name,
        lexicon=lex,
    )


# --------------------------------------------------------------------------- control tasks


def control_task(
    items: pd.DataFrame,
    seed=0,
    key: Sequence[str] = ("first_noun", "first_verb"),
) -> pd.DataFrame:
    """A control task in the sense of Hewitt & Liang (2019): the same items and splits, each
    label replaced by a random function of a lexical *type* of the sentence (default: its first
    noun and first verb lemmas), half of the types labelled 1. A probe can only solve it by
    memorising types, so ``selectivity = accuracy(task) - accuracy(control)`` measures how much
    of the accuracy is not memorisation of words."""
    missing = [k for k in key if k not in items.columns]
    if missing:
        raise ValueError(f"control_task: key columns {missing} are not in the item frame")
    rng = _rng(seed)
    types = sorted(set(map(tuple, items[list(key)].astype(str).to_numpy())))
    labels = np.zeros(len(types), dtype=int)
    labels[rng.permutation(len(types))[: len(types) // 2]] = 1
    lookup = dict(zip(types, labels, strict=True))
    out = items.copy()
    out["label"] = [int(lookup[t]) for t in map(tuple, items[list(key)].astype(str).to_numpy())]
    out["task"] = items["task"].astype(str) + " (control)"
    return out


# --------------------------------------------------------------------------- released 2018 files


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


def annotate_released(items: pd.DataFrame, lexicon=None) -> pd.DataFrame:
    """The released 2018 items (:func:`compsem.data.probing.load_task`) as an item frame: each
    sentence parsed by :func:`compsem.probing.reader.read`, the structure columns of
    :func:`describe` added, ``group`` = the sentence, ``kind`` = ``released``, and
    ``label_recomputed`` = the label recomputed from our parse (it should equal ``label``)."""
    from compsem.probing.reader import read

    lex = lexicon or lexicon_mod.load()
    parsed = {text: read(text, lex) for text in items["sentence"].unique()}
    group = {text: i for i, text in enumerate(parsed)}
    rows = []
    for item in items.itertuples(index=False):
        s = parsed[item.sentence]
        clause = next((p for p in s.predications if p.verb in (item.probe2 or item.probe)), None)
        rows.append(
            dict(
                group=group[item.sentence],
                kind="released",
                label_recomputed=label_of(s, item.task, item.probe, item.probe2),
                probe_clause=("main" if clause.clause == "main" else "rc") if clause else "",
                probe_voice=clause.voice if clause else "",
                probe_negated=int(clause.negated) if clause else -1,
                **describe(s),
            )
        )
    extra = pd.DataFrame(rows, index=items.index)
    out = pd.concat([items.drop(columns=[c for c in extra if c in items]), extra], axis=1)
    rest = [c for c in out.columns if c not in ITEM_COLUMNS]
    return out[ITEM_COLUMNS + rest]


def subsample(items: pd.DataFrame, n_train: int, n_test: int, seed=0) -> pd.DataFrame:
    """A random subset of an item frame with about ``n_train`` / ``n_test`` items, whole
    sentence groups at a time (so the items of a sentence stay together); ``0`` keeps a split
    whole. Used to run expensive encoders on part of a released set."""
    rng = _rng(seed)
    parts = []
    for split, n in (("train", n_train), ("test", n_test)):
        part = items[items["split"] == split]
        if not n or n >= len(part):
            parts.append(part)
            continue
        groups = part["group"].unique()
        order = groups[rng.permutation(len(groups))]
        sizes = part.groupby("group").size().loc[order].to_numpy()
        keep = order[: int(np.searchsorted(np.cumsum(sizes), n)) + 1]
        parts.append(part[part["group"].isin(keep)])
    return pd.concat(parts)
