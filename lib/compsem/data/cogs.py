"""Loaders for COGS (Kim & Linzen 2020; Kim 2021, Chapter 4) and the exposure files of
cogs-with-pretraining.

Every loader returns a frame with columns ``source`` (the English sentence), ``target`` (the
COGS logical form, whitespace-tokenised as released) and ``case`` (``in_distribution`` for
train/dev/test, the generalization case name for ``gen``, ``exposure_example_*`` for the
exposure rows). Rows are in file order.

>>> from compsem.data import cogs
>>> cogs.load("train").shape       # (24155, 3)
>>> cogs.load("gen").case.nunique()  # 21
"""

from __future__ import annotations

import json

import pandas as pd

from compsem.data.registry import DataError, fetch

REPO = "najoungkim/COGS"
PRETRAINING_REPO = "najoungkim/cogs-with-pretraining"

SPLITS = {
    "train": f"{REPO}/data/train.tsv",
    "dev": f"{REPO}/data/dev.tsv",
    "test": f"{REPO}/data/test.tsv",
    "gen": f"{REPO}/data/gen.tsv",
    # the one exposure example per primitive already inside train.tsv (15 rows)
    "exposure-1": f"{PRETRAINING_REPO}/data/no_mod/train_exposure_examples.tsv",
    # 100 exposure examples per primitive (1,500 rows), the extra rows of train_100
    "exposure-100": f"{PRETRAINING_REPO}/data/no_mod/train_100_exposure_examples.tsv",
}
"""Split name -> registry path. ``train``/``dev``/``test``/``gen`` are the released COGS splits
(24,155 / 3,000 / 3,000 / 21,000 rows)."""

COLUMNS = ["source", "target", "case"]


def read_tsv(path) -> pd.DataFrame:
    """Read one COGS-format file (sentence, logical form, case; tab-separated, no header)."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line:
            continue
        fields = line.split("\t")
        if len(fields) != 3:
            raise DataError(f"{path}:{number}: expected 3 tab-separated fields "
                            f"(sentence, logical form, case), got {len(fields)}")
        rows.append(fields)
    return pd.DataFrame(rows, columns=COLUMNS)


def load(split: str) -> pd.DataFrame:
    """One COGS split (see :data:`SPLITS`): columns ``source``, ``target``, ``case``."""
    if split not in SPLITS:
        raise ValueError(f"unknown COGS split {split!r}; known: {', '.join(SPLITS)}")
    return read_tsv(fetch(SPLITS[split]))


def load_case_sections() -> dict[str, str]:
    """Generalization case name -> the paper section it belongs to
    (``gen_cases_to_paper_sections.json``, e.g. ``"3.4.1. Active -> Passive (...)"``)."""
    return json.loads(fetch(f"{REPO}/data/gen_cases_to_paper_sections.json").read_text())


def load_readme() -> str:
    """Upstream's ``README.md`` (commit ``165a7b6``), whose changelog dates and describes the
    2022 role fix of ``gen.tsv``."""
    return fetch(f"{REPO}/README.md").read_text(encoding="utf-8")
