"""The five probed tasks of Ettinger, Elgohary, Phillips & Resnik (2018), §3, Table 2.

``cont1``, ``cont2``, ``order``, ``sr`` and ``neg`` ask about probe words (a verb, or a noun and
a verb) of a sentence: :func:`probe_items` lists every candidate item of a sentence,
:func:`probe_task` samples sentences and selects items balanced within every probe (and, in
training, within every sentence), with held-out (noun, verb) pairs and held-out adverbs;
:func:`ettinger2018_task` builds a task with the controls of the released files. The structural
generalisation splits (:mod:`compsem.probing.generalisation`) are built with :func:`probe_task` too.
Every item frame is in the format of :mod:`compsem.probing.item_frames`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from compsem.probing import events as ev
from compsem.probing import generator as gen
from compsem.probing import lexicon as lexicon_mod
from compsem.probing.grammars import ettinger2018_grammar
from compsem.probing.item_frames import as_rng, item_frame
from compsem.probing.predicates import describe, is_agent, precedes, verb_is_positive
from compsem.probing.task_table import task_info


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
    FALSE, in training and in test). ``train_filter``/``test_filter`` keep only candidate
    items they accept (the structural generalisation splits);
    ``test_probe_nouns``/``test_probe_verbs`` restrict the test probes (held-out words).
    """
    info = task_info(task)
    if info.probes == 0:
        raise ValueError(f"{task!r} is not a probed task; use its own builder")
    lex = lexicon or lexicon_mod.load()
    rng = as_rng(seed)
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
    overlap = used_train & {r["sentence"] for r in out["test"]}
    if overlap:  # a builder bug, never a user error
        raise AssertionError(f"{task}: {len(overlap)} sentences in both train and test")
    return item_frame(out["train"], out["test"], name or task)


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
