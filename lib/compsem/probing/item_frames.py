"""The item frame: the format every probing task is built in, and its shared plumbing.

Every task builder returns an *item frame*, one row per classification item:

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
...             the structure of the sentence (:func:`~compsem.probing.predicates.describe`)
                and of the probe's clause
==============  =============================================================================

Controls built in (Ettinger, Elgohary & Resnik 2016, §3.3; Ettinger et al. 2018, §3): train
and test sentences are disjoint (:func:`item_frame` checks it); a group stays on one side
(:func:`split_groups`); labels are balanced on each side. :mod:`compsem.probing.audit` checks
the result.

Shared by the builders: :func:`item_row` and :func:`item_frame` assemble a frame,
:func:`sample_groups` draws distinct groups of items (the one sampling loop of the 2016
builders), :func:`split_groups` splits groups into balanced train and test sets, :func:`as_rng`
turns a seed into a generator. Control tasks (Hewitt & Liang 2019) are in
:mod:`compsem.probing.controls`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from compsem.probing.predicates import describe

ITEM_COLUMNS = ["sentence", "label", "probe", "probe2", "split", "group", "kind", "task"]


def item_row(sentence, label, group, kind, probe="", probe2="", **extra) -> dict:
    """One item of ``sentence`` (an :class:`~compsem.probing.events.Sentence`): the item
    columns but ``split`` and ``task``, then ``extra``, then the :func:`describe` columns."""
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


def item_frame(train: list[dict], test: list[dict], task: str) -> pd.DataFrame:
    """The item frame of ``train`` and ``test`` rows (:func:`item_row`), columns
    :data:`ITEM_COLUMNS` first; fails if a sentence is on both sides."""
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


def sample_groups(
    make_group: Callable[[int], list[dict] | None],
    n_items: float,
    max_tries: int,
    seen: set[str] | None = None,
    first_group: int = 0,
) -> list[list[dict]]:
    """Groups of items of distinct sentences, drawn until they hold at least ``n_items`` items
    or ``make_group`` has been called ``max_tries`` times (the caller checks the count).

    ``make_group(group_id)`` draws one group (a list of :func:`item_row` rows whose ``group``
    is ``group_id``) or returns None to reject the draw; a group with a sentence drawn before
    (or in ``seen``, which is updated) is dropped. Group ids count from ``first_group``. The
    helper draws nothing itself: every random number is drawn by ``make_group``, in order."""
    seen = set() if seen is None else seen
    groups: list[list[dict]] = []
    count = 0
    for _ in range(max_tries):
        if count >= n_items:
            break
        group = make_group(first_group + len(groups))
        if group is None or any(row["sentence"] in seen for row in group):
            continue
        seen.update(row["sentence"] for row in group)
        groups.append(group)
        count += len(group)
    return groups


def split_groups(groups: list[list[dict]], n_train: int, n_test: int, rng) -> tuple:
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


def as_rng(seed) -> np.random.Generator:
    """``seed`` itself if it is a generator (the builders then share its stream), else a new
    generator seeded with it."""
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
