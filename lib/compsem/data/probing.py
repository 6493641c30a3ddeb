"""Loader for the released task files of Ettinger, Elgohary, Phillips & Resnik (2018).

The files come from the authors' ``compeval_datasets_and_code.tar.gz`` (members
``task_datasets/<task>/<split>.txt`` and ``classifier_code/vocab.txt``), fetched through the data
registry (a local mirror under ``COMPSEM_DATA_DIR`` or the upstream archive).

Each line of a task file is ``LABEL \\t sentID \\t sentence \\t probe1 [\\t probe2]``.
:func:`load` returns a frame with the columns

==============  ==============================================================================
``label``       int, 1 for ``TRUE``, 0 for ``FALSE``
``sent_id``     str, the authors' sentence id (``xypos815``, ``neg_train322``, ...)
``sentence``    str, lowercase, tokens separated by single spaces
``probe``       str, the first probe lemma (a verb for cont1 and neg, a noun for the pair tasks)
``probe2``      str, the second probe lemma (the verb of the pair tasks), ``""`` otherwise
``split``       str, ``train`` or ``test``
``task``        str, the task name
==============  ==============================================================================

Rows are in file order (train, then test, for :func:`load_task`).

>>> from compsem.data import probing
>>> probing.load_task("sr").groupby("split").size().to_dict()
{'test': 1000, 'train': 4002}
"""

from __future__ import annotations

import pandas as pd

from compsem.data.registry import DataError, fetch

REPO = "aetting/compeval-2018"
TASKS = ("cont1", "cont2", "order", "sr", "neg")
"""The five released tasks (2018 Table 2: Content1Probe, Content2Probe, Order, SemRole,
Negation)."""
SPLITS = ("train", "test")
COLUMNS = ["label", "sent_id", "sentence", "probe", "probe2", "split", "task"]
LABELS = {"TRUE": 1, "FALSE": 0}


def path(task: str, split: str) -> str:
    """The registry path of one task file."""
    if task not in TASKS:
        raise ValueError(f"unknown 2018 task {task!r}; known: {', '.join(TASKS)}")
    if split not in SPLITS:
        raise ValueError(f"split must be 'train' or 'test', not {split!r}")
    return f"{REPO}/task_datasets/{task}/{split}.txt"


def read(file, task: str, split: str) -> pd.DataFrame:
    """Parse one task file (see the module docstring for the format and columns)."""
    rows = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) not in (4, 5) or fields[0] not in LABELS:
            raise DataError(
                f"{file}:{number}: expected 'TRUE|FALSE <tab> id <tab> sentence <tab> "
                f"probe [<tab> probe2]', got {line[:80]!r}"
            )
        rows.append(
            (
                LABELS[fields[0]],
                fields[1],
                " ".join(fields[2].split()),
                fields[3],
                fields[4] if len(fields) == 5 else "",
            )
        )
    frame = pd.DataFrame(rows, columns=COLUMNS[:5])
    frame["split"], frame["task"] = split, task
    return frame.astype({"label": int})


def load(task: str, split: str) -> pd.DataFrame:
    """One released task file as a frame (columns in the module docstring)."""
    return read(fetch(path(task, split)), task, split)


def load_task(task: str) -> pd.DataFrame:
    """Both splits of one task, train rows first."""
    return pd.concat([load(task, s) for s in SPLITS], ignore_index=True)


def load_vocab() -> list[str]:
    """The 14 probe lemmas of ``classifier_code/vocab.txt`` (7 nouns, then 7 verbs)."""
    text = fetch(f"{REPO}/vocab.txt").read_text(encoding="utf-8")
    return [w.strip() for w in text.splitlines() if w.strip()]
