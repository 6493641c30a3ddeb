"""Loaders for the sentence-similarity sets STS3k is compared with (Table 5, Table 9).

Two sources:

- the authors' processed copies (``Data-experiment/`` of bmmlab/compositional-semantics-eval),
  the exact pairs behind Table 9's columns, through :func:`load_processed`;
- the original releases of STS Benchmark (Cer et al. 2017) and SICK (Marelli et al. 2014),
  through :func:`load_stsb` and :func:`load_sick`;
- STR-2022 (Abdalla, Vishnubhotla & Mohammad 2023), Table 9's one column the authors did not
  publish, from its own release through :func:`load_str2022`.

:func:`load_dataset` takes any Table 9 dataset name (a :data:`PROCESSED` name or ``"str-2022"``).

Every loader returns columns ``sentence_a``, ``sentence_b``, ``human`` (higher = more similar);
the scale is the dataset's own unless stated (Spearman correlations do not depend on it).
"""

from __future__ import annotations

import pandas as pd

from compsem.data.registry import DataError, fetch
from compsem.data.sts3k import REPO, read_pair_file

PROCESSED = {
    # name: (file in Data-experiment/, scale divisor)
    "stsb-captions": ("STSb_captions_test.txt", 1.0),
    "stsb-test": ("STSb_test.txt", 5.0),
    "stsb-forums": ("STSb_forums_test.txt", 1.0),
    "stsb-headlines": ("STSb_headlines_test.txt", 1.0),
    "sick": ("SICK_relatedness.txt", 1.0),
    "stss-131": ("STS131_processed.csv", 1.0),
    "gs2011": ("GS2011_processed.csv", 1.0),
    "ks2013": ("KS2013_processed.csv", 1.0),
    "fodor-pilot-2022": ("Fodor_pilot_2022.txt", 1.0),
}
"""The authors' processed similarity sets; ``stsb-test`` is on 0-5 and divided by 5, ``sick`` is
SICK's 1-5 relatedness as released."""


def load_processed(name: str) -> pd.DataFrame:
    """One of the authors' processed similarity sets (see :data:`PROCESSED`), in file order
    (the order of the published per-model similarity files)."""
    if name not in PROCESSED:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(PROCESSED)}")
    file, scale = PROCESSED[name]
    return read_pair_file(f"{REPO}/Data-experiment/{file}", scale=scale)


def load_stsb(split: str = "test") -> pd.DataFrame:
    """STS Benchmark (Cer et al. 2017) ``train``/``dev``/``test``: columns ``genre``, ``source``,
    ``year``, ``sentence_a``, ``sentence_b``, ``human`` (0-5). Lines with extra tab fields (197 in
    train) keep their first seven fields, as the official reader does."""
    if split not in ("train", "dev", "test"):
        raise ValueError(f"split must be 'train', 'dev' or 'test', not {split!r}")
    file = fetch(f"stsbenchmark/sts-{split}.csv")
    rows = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split("\t")
        if len(fields) < 7:
            raise DataError(f"{file}:{number}: expected 7 tab-separated fields, got {len(fields)}")
        try:
            score = float(fields[4])
        except ValueError as error:
            raise DataError(f"{file}:{number}: score {fields[4]!r} is not a number") from error
        rows.append((fields[0], fields[1], fields[2], fields[5].strip(), fields[6].strip(), score))
    return pd.DataFrame(rows, columns=["genre", "source", "year", "sentence_a", "sentence_b", "human"])


SICK_FILES = {"train": "SICK_train.txt", "trial": "SICK_trial.txt", "test": "SICK_test_annotated.txt"}


def load_sick(split: str = "test") -> pd.DataFrame:
    """SICK 2014 (Marelli et al. 2014) ``train``/``trial``/``test``: index ``pair_id``; columns
    ``sentence_a``, ``sentence_b``, ``human`` (relatedness 1-5), ``entailment``."""
    if split not in SICK_FILES:
        raise ValueError(f"split must be one of {', '.join(SICK_FILES)}, not {split!r}")
    file = fetch(f"sick2014/{SICK_FILES[split]}")
    table = pd.read_csv(file, sep="\t")
    expected = ["pair_ID", "sentence_A", "sentence_B", "relatedness_score", "entailment_judgment"]
    if list(table.columns) != expected:
        raise DataError(f"{file}: expected columns {expected}, found {list(table.columns)}")
    table.columns = ["pair_id", "sentence_a", "sentence_b", "human", "entailment"]
    return table.set_index("pair_id")


STR_2022_FILE = "Priya22/semantic-textual-relatedness/sem_text_rel_ranked.csv"
"""STR-2022 as released (commit 961f9a9 of github.com/Priya22/semantic-textual-relatedness).
Its terms forbid redistribution: it is fetched through the data registry, never committed."""

STR_2022_COLUMNS = ["Index", "SourceID", "SubsetID", "PairID", "Text", "Score"]


def load_str2022() -> pd.DataFrame:
    """STR-2022 (Abdalla, Vishnubhotla & Mohammad 2023; Table 5 and the STR-2022 column of
    Table 9): 5,500 English sentence pairs rated for semantic *relatedness* by comparative
    annotation (best-worst scaling), scores 0-1.

    The release holds both sentences of a pair in one ``Text`` field, separated by a newline.
    Returns the pairs in file order, indexed by ``pair_id`` (e.g. ``STS_237``), with columns
    ``source`` (Formality, Wikipedia, Goodreads, ParaNMT, SNLI, Stance, STS), ``subset``,
    ``sentence_a``, ``sentence_b`` and ``human`` (the released relatedness score, 0-1).
    Raises :class:`DataError` naming the file and row for a malformed release.
    """
    file = fetch(STR_2022_FILE)
    table = pd.read_csv(file, dtype={"Text": str, "PairID": str, "SourceID": str, "SubsetID": str})
    if list(table.columns) != STR_2022_COLUMNS:
        raise DataError(f"{file}: expected columns {STR_2022_COLUMNS}, found {list(table.columns)}")
    parts = table["Text"].fillna("").str.split("\n")
    bad = parts.str.len() != 2
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise DataError(f"{file}: pair {table['PairID'].iloc[row]!r} (row {row + 2}): Text must hold two "
                        f"sentences separated by one newline, found {parts.iloc[row]!r}")
    score = pd.to_numeric(table["Score"], errors="coerce")
    if score.isna().any() or not score.between(0, 1).all():
        row = int((score.isna() | ~score.between(0, 1)).to_numpy().argmax())
        raise DataError(f"{file}: pair {table['PairID'].iloc[row]!r} (row {row + 2}): score "
                        f"{table['Score'].iloc[row]!r} is not a number in [0, 1]")
    if not table["PairID"].is_unique:
        raise DataError(f"{file}: duplicated PairID values {table['PairID'][table['PairID'].duplicated()].tolist()[:5]}")
    return pd.DataFrame(
        {"source": table["SourceID"].to_numpy(), "subset": table["SubsetID"].to_numpy(),
         "sentence_a": parts.str[0].str.strip().to_numpy(), "sentence_b": parts.str[1].str.strip().to_numpy(),
         "human": score.to_numpy(dtype=float)},
        index=pd.Index(table["PairID"].to_numpy(), name="pair_id"),
    )


def load_dataset(name: str) -> pd.DataFrame:
    """A Table 9 comparison set by name: :func:`load_processed` for the authors' processed copies
    (:data:`PROCESSED`), :func:`load_str2022` for ``"str-2022"``. Columns ``sentence_a``,
    ``sentence_b``, ``human`` in file order."""
    if name == "str-2022":
        return load_str2022()
    if name not in PROCESSED:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join([*PROCESSED, 'str-2022'])}")
    return load_processed(name)
