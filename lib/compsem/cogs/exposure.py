"""The 100-exposure training set of Kim (2021, Section 4.5.7), reconstructed.

The dissertation trains a second set of models on ``train_100``, where each held-out item is
seen in 100 exposure contexts instead of one. ``train_100.tsv`` is in the upstream repository
but not in the data mirror (the project registry has no entry for it). The 1,500 exposure rows
it adds are in ``najoungkim/cogs-with-pretraining`` (``train_100_exposure_examples.tsv``:
12 exposure cases x 100 distinct sentences, plus the primitives ``shark``, ``Paula`` and
``crawl`` each repeated 100 times), and they contain the 15 exposure rows of ``train.tsv``.
So ``train_100`` is very likely ``train.tsv`` without its 15 exposure rows, plus the 1,500:
24,140 + 1,500 = 25,640 rows. :func:`train_100` builds exactly that (a reconstruction, not a
verified copy).

**Checked against upstream's git blob id** (:data:`UPSTREAM_TRAIN_100_BLOB`, the only fingerprint
of ``train_100.tsv`` available here): ``train.tsv`` written back from its loader frame
(:func:`to_tsv`) has upstream's blob id, so the serialisation is right; but none of the plausible
orderings of the rebuilt rows (:func:`train_100_candidates`) has the blob id of upstream's
``train_100.tsv``. The released files are shuffled (the exposure rows of ``train.tsv`` are spread
over the file), so upstream's row order is very likely a shuffle that cannot be recovered from a
hash; whether the *content* (the set of rows) also differs is left open.
"""

from __future__ import annotations

import pandas as pd

from compsem.data import cogs


def exposure_mask(train: pd.DataFrame, exposure: pd.DataFrame) -> pd.Series:
    """True for the rows of ``train`` that are exposure rows (same source, target and case as
    a row of ``exposure``)."""
    keys = set(map(tuple, exposure[["source", "target", "case"]].itertuples(index=False)))
    return pd.Series(
        [tuple(r) in keys for r in train[["source", "target", "case"]].itertuples(index=False)],
        index=train.index,
    )


def rebuild_train_100(
    train: pd.DataFrame, exposure_1: pd.DataFrame, exposure_100: pd.DataFrame
) -> pd.DataFrame:
    """``train`` minus its one-exposure rows, plus the 100-exposure rows (Kim 2021, 4.5.7).
    Raises when ``train`` does not contain every row of ``exposure_1`` exactly once."""
    mask = exposure_mask(train, exposure_1)
    if int(mask.sum()) != len(exposure_1):
        raise ValueError(
            f"train holds {int(mask.sum())} of the {len(exposure_1)} one-exposure rows; "
            "pass the released train.tsv and train_exposure_examples.tsv"
        )
    return pd.concat([train[~mask], exposure_100], ignore_index=True)


def train_100() -> pd.DataFrame:
    """The reconstructed 100-exposure training set (25,640 rows; columns source, target, case)."""
    return rebuild_train_100(cogs.load("train"), cogs.load("exposure-1"), cogs.load("exposure-100"))


# ----------------------------------------------------------- checking the rebuild against upstream

UPSTREAM_TRAIN_100_BLOB = "aada7b25ed6157e8a1f517d95059ba2dec88d3f4"
"""Git blob id of ``data/train_100.tsv`` in ``najoungkim/COGS`` (commit ``165a7b6``): the only
fingerprint of the upstream file available here (the file itself is not in the data mirror)."""


def to_tsv(frame: pd.DataFrame, newline: str = "\n", final_newline: bool = True) -> bytes:
    """A frame written as the released files are: ``source \\t target \\t case`` per line, UTF-8
    (``train.tsv`` written this way from its loader frame has the upstream blob id)."""
    lines = [f"{s}\t{t}\t{c}" for s, t, c in frame[["source", "target", "case"]].itertuples(
        index=False
    )]
    text = newline.join(lines) + (newline if final_newline else "")
    return text.encode("utf-8")


def git_blob_id(content: bytes) -> str:
    """``sha1(b"blob <size>\\0" + content)``: the id git gives a file's content."""
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def train_100_candidates(
    train: pd.DataFrame, exposure_1: pd.DataFrame, exposure_100: pd.DataFrame
) -> dict[str, bytes]:
    """Plausible serialisations of ``train_100`` built from the same rows, for comparing with
    :data:`UPSTREAM_TRAIN_100_BLOB`: the 1,500 rows after or before ``train`` without its 15
    exposure rows; after or before all of ``train`` (the 15 then twice); after ``train`` with only
    the exposure rows it lacks, each once; each exposure row replaced in place by the 100 rows of its case; and
    the first of these without a final newline and with CRLF line ends."""
    mask = exposure_mask(train, exposure_1)
    keys = set(map(tuple, train[["source", "target", "case"]].itertuples(index=False)))
    new_rows = exposure_100[
        [tuple(r) not in keys for r in exposure_100[["source", "target", "case"]].itertuples(
            index=False
        )]
    ]
    groups = {
        (case if case != "primitive" else source): part
        for (case, source), part in exposure_100.assign(
            source_key=exposure_100.source.where(exposure_100.case == "primitive", "")
        ).groupby(["case", "source_key"], sort=False)
    }
    pieces, start = [], 0
    for i in [int(k) for k in mask.to_numpy().nonzero()[0]]:
        row = train.iloc[i]
        pieces += [train.iloc[start:i], groups[row.source if row.case == "primitive" else row.case]]
        start = i + 1
    in_place = [*pieces, train.iloc[start:]]
    frames = {
        "train without the 15, then the 1,500": pd.concat([train[~mask], exposure_100]),
        "the 1,500, then train without the 15": pd.concat([exposure_100, train[~mask]]),
        "all of train, then the 1,500": pd.concat([train, exposure_100]),
        "the 1,500, then all of train": pd.concat([exposure_100, train]),
        "all of train, then the exposure rows it lacks (no repeats)": pd.concat(
            [train, new_rows.drop_duplicates()]
        ),
        "each exposure row replaced in place by its 100": pd.concat(in_place),
    }
    out = {name: to_tsv(frame) for name, frame in frames.items()}
    first = frames["train without the 15, then the 1,500"]
    out["train without the 15, then the 1,500; no final newline"] = to_tsv(
        first, final_newline=False
    )
    out["train without the 15, then the 1,500; CRLF"] = to_tsv(first, newline="\r\n")
    return out
