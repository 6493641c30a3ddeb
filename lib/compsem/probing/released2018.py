"""The released 2018 item files (Ettinger et al. 2018, §3) as item frames.

:func:`annotate_released` parses each released sentence with our reader
(:mod:`compsem.probing.reader`) and adds the structure columns and the label recomputed from
our annotation (:func:`~compsem.probing.predicates.label_of`); :func:`subsample` takes whole
sentences of a frame, to run expensive encoders on part of a set.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from compsem.probing import lexicon as lexicon_mod
from compsem.probing.item_frames import ITEM_COLUMNS, as_rng
from compsem.probing.predicates import describe, label_of
from compsem.probing.reader import read


def annotate_released(items: pd.DataFrame, lexicon=None) -> pd.DataFrame:
    """The released 2018 items (:func:`compsem.data.probing.load_task`) as an item frame: each
    sentence parsed by :func:`compsem.probing.reader.read`, the structure columns of
    :func:`~compsem.probing.predicates.describe` added, ``group`` = the sentence, ``kind`` =
    ``released``, and ``label_recomputed`` = the label recomputed from our parse (it should
    equal ``label``)."""
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
    rng = as_rng(seed)
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
