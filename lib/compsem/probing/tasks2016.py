"""The three tasks of Ettinger, Elgohary & Resnik (2016), Table 3, with lexical-balance controls.

- :func:`has_noun_task` (``has-school``): the sanity check, label 1 when a noun occurs;
- :func:`has_human_task` (``has-human``): a human noun occurs, the human nouns of the test set
  never in training (:func:`has_human_pool` + :func:`split_has_human`);
- :func:`role_task` (``school-as-agent``): is the noun the agent (active/passive only, §4).

Positives and negatives have the same structures (a positive is a negative's kind of sentence
with the target placed in one noun phrase), so that which structure a sentence has says
nothing about its label. A seed of the 2016 experiments draws its own sentence set, or, with
``redraw=False`` in :func:`compsem.probing.chapter.frames_2016`, re-splits one
(:func:`resplit`). Every item frame is in the format of :mod:`compsem.probing.item_frames`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from compsem.probing import events as ev
from compsem.probing import generator as gen
from compsem.probing import lexicon as lexicon_mod
from compsem.probing.grammars import grammar_without
from compsem.probing.item_frames import (
    ITEM_COLUMNS,
    as_rng,
    item_frame,
    item_row,
    sample_groups,
    split_groups,
)
from compsem.probing.predicates import is_agent


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
    rng = as_rng(seed)
    base = grammar_without(grammar, nouns=[noun])

    def draw(group: int) -> list[dict]:
        event = gen.sample_event(rng, base)
        label = int(rng.random() < 0.5)
        if label:
            paths = ev.noun_paths(event)
            event = ev.set_noun(event, paths[int(rng.integers(len(paths)))], noun)
        return [item_row(ev.realise(event, lex), label, group, "sampled")]

    groups = sample_groups(draw, 1.3 * (n_train + n_test), 20 * (n_train + n_test))
    train, test = split_groups(groups, n_train, n_test, rng)
    return item_frame(train, test, "has-school" if noun == "school" else f"has-{noun}")


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
    rng = as_rng(seed)
    humans = [n for n in grammar.nouns if lex.is_human(n)]
    others = [n for n in grammar.nouns if not lex.is_human(n)]
    if len(humans) < 2 or len(others) < 3:
        raise ValueError("has-human needs at least 2 human and 3 non-human nouns in the grammar")
    seen, rows = set(), []
    for label, want in ((1, n_positive), (0, n_negative)):
        g = grammar if label and not one_human else replace(grammar, nouns=tuple(others))

        def draw(group: int, label=label, g=g) -> list[dict] | None:
            event = gen.sample_event(rng, g)
            if label and one_human:
                slots = ev.noun_paths(event)
                human = humans[int(rng.integers(len(humans)))]
                event = ev.set_noun(event, slots[int(rng.integers(len(slots)))], human)
            sentence = ev.realise(event, lex)
            found = [x for x in sentence.nouns() if lex.is_human(x)]
            if bool(found) != bool(label):
                return None
            return [
                item_row(
                    sentence, label, group, "sampled", humans=" ".join(found), n_human=len(found)
                )
            ]

        # group ids count the pool's sentences from 1
        groups = sample_groups(draw, want, 200 * want + 1000, seen, first_group=len(rows) + 1)
        if len(groups) < want:
            raise ValueError(
                f"has-human: too few distinct sentences with label {label}; add nouns or structures"
            )
        rows += [row for group in groups for row in group]
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
    rng = as_rng(seed)
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
    test set never in training (:func:`has_human_pool_for` + :func:`split_has_human`)."""
    pool = has_human_pool_for(grammar, n_train, n_test, seed, lexicon)
    return split_has_human(pool, n_train, n_test, seed, test_humans)


def has_human_pool_for(grammar: gen.Grammar, n_train: int, n_test: int, seed=0, lexicon=None) -> pd.DataFrame:
    """The :func:`has_human_pool` that :func:`split_has_human` needs for ``n_train`` /
    ``n_test`` items: twice the negatives of the split, and as many positives."""
    n_neg = n_train - n_train // 2 + n_test - n_test // 2
    return has_human_pool(grammar, 2 * n_neg, n_neg, seed, lexicon)


def resplit(items: pd.DataFrame, seed=0) -> pd.DataFrame:
    """The same items with a new random train/test assignment of their groups (sizes kept,
    labels balanced on each side): a seed re-splits one sentence set where the 2016 experiments
    do not draw a new one per seed (``redraw=False`` in :func:`compsem.probing.chapter.frames_2016`).
    Not for tasks whose split holds words out (has-human: :func:`split_has_human`; the probed
    tasks: regenerate)."""
    rng = as_rng(seed)
    n_train = int((items["split"] == "train").sum())
    n_test = int((items["split"] == "test").sum())
    rows = items.drop(columns="split").to_dict("records")
    groups: dict[int, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    train, test = split_groups(list(groups.values()), n_train, n_test, rng)
    out = item_frame(train, test, str(items["task"].iloc[0]))
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
    :func:`~compsem.probing.grammars.ettinger2016_grammar` with ``simple=True``); voice is
    independent of the label.
    """
    lex = lexicon or lexicon_mod.load()
    rng = as_rng(seed)
    base = grammar_without(grammar, nouns=[noun])

    def draw(group: int) -> list[dict] | None:
        event = gen.sample_event(rng, base)
        label = int(rng.random() < 0.5)
        if event.patient is None:
            return None
        event = ev.set_noun(event, ("agent",) if label else ("patient",), noun)
        sentence = ev.realise(event, lex)
        if is_agent(sentence, noun, event.verb) != bool(label):  # a builder bug, never a user error
            raise AssertionError(f"mislabelled sentence {sentence!r} (label {label})")
        return [item_row(sentence, label, group, "sampled")]

    groups = sample_groups(draw, 1.3 * (n_train + n_test), 20 * (n_train + n_test))
    train, test = split_groups(groups, n_train, n_test, rng)
    return item_frame(train, test, "school-as-agent" if noun == "school" else f"{noun}-as-agent")
