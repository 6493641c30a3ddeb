"""Loaders for STS3k (Fodor, De Deyne & Suzuki 2025) from the authors' repository.

Files (commit c310abb of bmmlab/compositional-semantics-eval, via the data registry):

- ``Data-experiment/STS3k_all.txt``: 2,800 lines ``sentence1;sentence2;similarity`` (0-1).
- ``Data-experiment/STS3k_non_adv_indices.txt`` (1,065 rows) and
  ``STS3k_adv_noneg_indices.txt`` (1,664 rows): zero-based row indices defining the
  "STS3k-non" and "STS3k-adv" columns of Table 9. The 71 rows in neither are the negatives.
- ``Data-experiment/STS3k_all_participant_data.xlsx``: every raw 1-7 rating of the 501 retained
  participants (§4.2), 2,800 rows in the order of ``STS3k_all.txt``.
- ``stopwords.txt``: the 179 NLTK English stop words the authors used.

Row position (``pair_id``, 0-2799) is the key that joins all of them.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
import uuid
from pathlib import Path

import numpy as np
import pandas as pd

from compsem import fitcache, paths
from compsem.data.registry import DataError, fetch

REPO = "bmmlab/compositional-semantics-eval"
PAIRS = f"{REPO}/Data-experiment/STS3k_all.txt"
NON_ADV_INDICES = f"{REPO}/Data-experiment/STS3k_non_adv_indices.txt"
ADV_INDICES = f"{REPO}/Data-experiment/STS3k_adv_noneg_indices.txt"
PARTICIPANTS = f"{REPO}/Data-experiment/STS3k_all_participant_data.xlsx"
STOPWORDS = f"{REPO}/stopwords.txt"
N_PAIRS = 2800
N_PARTICIPANTS = 501


def read_pair_file(path: str, scale: float = 1.0) -> pd.DataFrame:
    """Read a ``sentence1;sentence2;score`` file of the authors' repository.

    Returns columns ``sentence_a``, ``sentence_b``, ``human`` (the score divided by ``scale``).
    A line that does not have exactly three fields (a sentence containing ';' would make the
    split ambiguous) raises DataError naming file and line.
    """
    file = fetch(path)
    rows = []
    for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split(";")
        try:
            if len(parts) != 3:
                raise ValueError(f"{len(parts)} fields")
            rows.append((parts[0].strip(), parts[1].strip(), float(parts[2]) / scale))
        except ValueError as error:
            raise DataError(
                f"{file}:{number}: expected 'sentence1;sentence2;score', got {line[:80]!r} ({error})"
            ) from error
    return pd.DataFrame(rows, columns=["sentence_a", "sentence_b", "human"])


def _read_indices(path: str) -> np.ndarray:
    file = fetch(path)
    try:
        values = np.loadtxt(file, dtype=int, ndmin=1)
    except ValueError as error:
        raise DataError(f"{file}: expected one integer row index per line ({error})") from error
    if values.min() < 0 or values.max() >= N_PAIRS:
        raise DataError(f"{file}: row indices must lie in 0..{N_PAIRS - 1}")
    return values


def load_pairs() -> pd.DataFrame:
    """The 2,800 STS3k pairs (§4.1) with their published normalised human similarity.

    Index ``pair_id`` (0-2799, the row of ``STS3k_all.txt``). Columns:
    ``sentence_a``, ``sentence_b``; ``human`` = (mean raw rating - 1)/6, in 0-1;
    ``portion`` = ``"non"`` (non-adversarial, incl. the 10 attention checks), ``"adv"``
    (adversarial without negatives) or ``"neg"`` (the 71 negatives: counted in STS3k-all only).
    """
    pairs = read_pair_file(PAIRS)
    if len(pairs) != N_PAIRS:
        raise DataError(f"{fetch(PAIRS)}: expected {N_PAIRS} pairs, found {len(pairs)}")
    portion = np.full(N_PAIRS, "neg", dtype=object)
    portion[_read_indices(NON_ADV_INDICES)] = "non"
    portion[_read_indices(ADV_INDICES)] = "adv"
    pairs["portion"] = pd.Categorical(portion, categories=["non", "adv", "neg"])
    pairs.index.name = "pair_id"
    return pairs


def portion_mask(pairs: pd.DataFrame, portion: str) -> np.ndarray:
    """Boolean mask of the Table 9 columns: ``"all"``, ``"non"`` or ``"adv"``."""
    if portion == "all":
        return np.ones(len(pairs), dtype=bool)
    if portion not in ("non", "adv"):
        raise ValueError(f"portion must be 'all', 'non' or 'adv', not {portion!r}")
    return (pairs["portion"] == portion).to_numpy()


@functools.cache
def _participant_table() -> pd.DataFrame:
    """The participant xlsx as a frame, cached as parquet in the cache's ``tables`` folder
    (6 s -> 0.1 s) and read back exactly as built (:func:`_read_table`, :func:`_write_table`)."""
    from compsem.data.registry import entry

    file = fetch(PARTICIPANTS)
    cached = paths.cache_dir("tables") / f"sts3k-participants-{entry(PARTICIPANTS).sha256[:16]}.parquet"
    table = _read_table(cached)
    if table is not None:
        return table
    table = pd.read_excel(file)
    expected = ["Main ID", "Adversarial", "Sentence pair"]
    if list(table.columns[:3]) != expected or table.shape != (N_PAIRS, N_PARTICIPANTS + 5):
        raise DataError(
            f"{file}: expected columns {expected} + participants 1..{N_PARTICIPANTS} + Mean, Std "
            f"and {N_PAIRS} rows; found {table.shape} starting {list(table.columns[:3])}"
        )
    table.columns = [str(c) for c in table.columns]
    _write_table(table, cached)
    return table


def _digest_file(table: Path) -> Path:
    """Where the sha256 of a cached table's bytes is kept: ``<table>.sha256`` beside it."""
    return table.with_name(table.name + ".sha256")


def _read_table(path: Path) -> pd.DataFrame | None:
    """The cached table at ``path``, or None when it is missing. A table whose bytes do not
    match its digest file (truncated, changed), that has no digest (written before tables
    carried one: unverified, so rebuilt once) or that cannot be read is set aside as
    ``<table>.bad`` with a warning naming it (:func:`compsem.fitcache.set_aside`) and gives None:
    the caller rebuilds it."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        expected = _digest_file(path).read_text(encoding="ascii").strip()
    except (FileNotFoundError, UnicodeDecodeError):
        expected = None
    found = hashlib.sha256(data).hexdigest()
    if found != expected:
        fitcache.set_aside(path, "no digest beside it, unverified" if expected is None
                           else f"sha256 {found[:16]}... but {_digest_file(path).name} says {expected[:16]}...")
        return None
    try:
        return pd.read_parquet(io.BytesIO(data))
    except (ValueError, OSError) as error:
        fitcache.set_aside(path, f"unreadable: {type(error).__name__}: {error}")
        return None


def _write_table(table: pd.DataFrame, path: Path) -> None:
    """Write ``table`` as parquet at ``path`` and its sha256 beside it, each to a temporary file
    of its own renamed into place: the digest first, so a reader that finds the table finds a
    digest too. Concurrent writers write the same bytes (parquet of the same frame)."""
    buffer = io.BytesIO()
    table.to_parquet(buffer)
    data = buffer.getvalue()
    _atomic_write(_digest_file(path), hashlib.sha256(data).hexdigest().encode("ascii"))
    _atomic_write(path, data)


def _atomic_write(target: Path, data: bytes) -> None:
    """Write ``data`` to a uniquely named hidden temporary file beside ``target``, then rename it
    into place (never partial; concurrent writers never share a temporary file)."""
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def load_participant_ratings() -> pd.DataFrame:
    """Raw 1-7 ratings (§4.2): index ``pair_id`` 0-2799, one column per participant 1-501.

    Missing ratings are NaN. Each participant rated 110 pairs plus the 10 attention checks
    (rows 0-9), 60,120 ratings in all.
    """
    table = _participant_table()
    ratings = table[[str(i) for i in range(1, N_PARTICIPANTS + 1)]].astype(float)
    ratings.columns = pd.RangeIndex(1, N_PARTICIPANTS + 1, name="participant")
    ratings.index = pd.RangeIndex(N_PAIRS, name="pair_id")
    return ratings


def load_participant_pairs() -> pd.DataFrame:
    """Per-pair columns of the participant xlsx: ``main_id``, ``xlsx_adversarial`` (bool; marks
    1,736 rows, row 691 included), ``sentence_a``, ``sentence_b``, ``mean`` and ``std`` of the raw
    ratings. Index ``pair_id`` 0-2799."""
    table = _participant_table()
    split = table["Sentence pair"].str.split("\n", n=1, expand=True)
    frame = pd.DataFrame(
        {
            "main_id": table["Main ID"].astype(int),
            "xlsx_adversarial": table["Adversarial"].eq("ADV"),
            "sentence_a": split[0].str.strip(),
            "sentence_b": split[1].str.strip(),
            "mean": table["Mean"].astype(float),
            "std": table["Std"].astype(float),
        }
    )
    frame.index = pd.RangeIndex(N_PAIRS, name="pair_id")
    return frame


def load_stopwords() -> frozenset[str]:
    """The authors' 179 English stop words (NLTK's list), lower case."""
    words = fetch(STOPWORDS).read_text(encoding="utf-8").split()
    return frozenset(w.strip().lower() for w in words if w.strip())


# --- published model outputs: similarities and parses (Data-model/ of the authors' repository)

SIMILARITIES_DIR = f"{REPO}/Data-model/Sentence Similarities"
VERBNET_DIR = f"{REPO}/Data-model/Sentence Parses/VerbNet Parsing"
AMR_DIR = f"{REPO}/Data-model/Sentence Parses/AMR Parsing"
ROLES = ("Agent", "Verb", "Patient", "Theme", "Time", "Manner", "Location", "Trajectory")
"""The eight VerbNet-derived roles of VerbNet-CN (§4.6)."""


def published_similarity_models(dataset: str = "STS3k_all") -> list[str]:
    """Model names with a published similarity file for ``dataset`` (e.g. ``"mean"``,
    ``"sentbert_mpnet_norml"``, ``"verbnet_fixedparms_basic"``); ``_norml`` = per-feature
    standardised embeddings (§4.3)."""
    from compsem.data.registry import entries

    prefix, suffix = f"{SIMILARITIES_DIR}/{dataset}_", "_similarities.txt"
    return sorted(p[len(prefix):-len(suffix)] for p in entries() if p.startswith(prefix) and p.endswith(suffix))


def load_published_similarities(model: str, dataset: str = "STS3k_all") -> np.ndarray:
    """The authors' per-pair similarities of ``model`` on ``dataset`` (one float per pair, in
    the order of the dataset file), as used for Table 9."""
    known = published_similarity_models(dataset)
    if model not in known:
        raise DataError(f"no published similarities of {model!r} for {dataset!r}; known: {', '.join(known)}")
    file = fetch(f"{SIMILARITIES_DIR}/{dataset}_{model}_similarities.txt")
    try:
        return np.loadtxt(file, dtype=float, ndmin=1)
    except ValueError as error:
        raise DataError(f"{file}: expected one number per line ({error})") from error


def load_verbnet_parses(variant: str = "mod", dataset: str = "STS3k_all") -> pd.DataFrame:
    """The authors' VerbNet role parses (§4.6): ``variant="mod"`` = manually corrected (used for
    Table 9), ``"raw"`` = SemParse output. One row per (pair_id, sentence ``"a"``/``"b"``), one
    column per role in :data:`ROLES`; a role the sentence lacks is NaN."""
    import json

    if variant not in ("mod", "raw"):
        raise ValueError(f"variant must be 'mod' or 'raw', not {variant!r}")
    file = fetch(f"{VERBNET_DIR}/full_VerbNet_pass_{dataset}_{variant}.json")
    data = json.loads(file.read_text(encoding="utf-8"))
    rows = []
    for key, sides in data.items():
        for side, roles in zip("ab", sides, strict=True):
            rows.append({"pair_id": int(key) - 1, "sentence": side,
                         **{r: (None if roles.get(r, "NONE") == "NONE" else roles[r]) for r in ROLES}})
    return pd.DataFrame(rows).set_index(["pair_id", "sentence"]).sort_index()


def load_rolewise_similarities(dataset: str = "STS3k_all") -> dict[str, pd.DataFrame]:
    """The authors' role-wise cosine similarities (RoleSim of §4.6) by word-vector model: a dict
    model -> frame (index pair_id, one column per role, NaN where a role is missing)."""
    import json

    file = fetch(f"{VERBNET_DIR}/full_VerbNet_pass_{dataset}_rolewise_similarities.json")
    data = json.loads(file.read_text(encoding="utf-8"))
    frames = {}
    for model, per_pair in data.items():
        frame = pd.DataFrame.from_dict(per_pair, orient="index").reindex(columns=list(ROLES)).astype(float)
        frame.index = frame.index.astype(int) - 1
        frames[model] = frame.sort_index().rename_axis("pair_id")
    return frames


def load_amr_parses(dataset: str = "STS3k_all") -> pd.DataFrame:
    """The authors' SPRING AMR parses (§4.4): index pair_id; columns ``sentence_a``,
    ``sentence_b``, ``amr_a``, ``amr_b`` (PENMAN strings with a ``# ::snt`` comment)."""
    import json

    file = fetch(f"{AMR_DIR}/{dataset}_AMR_parse.json")
    data = json.loads(file.read_text(encoding="utf-8"))
    frame = pd.DataFrame.from_dict(data, orient="index", columns=["sentence_a", "sentence_b", "amr_a", "amr_b"])
    frame.index = frame.index.astype(int) - 1
    return frame.sort_index().rename_axis("pair_id")


_GPT4_ROLE = re.compile(r"""'?(\w+)'\s*:\s*(NA|'[^']*'|"[^"]*")""")


def _parse_gpt4_cell(text: str, where: str) -> dict:
    found = {role: (None if value == "NA" else value[1:-1]) for role, value in _GPT4_ROLE.findall(str(text))}
    if not set(ROLES) <= set(found):
        raise DataError(f"{where}: expected the roles {', '.join(ROLES)}, found {sorted(found)}")
    return found


def load_gpt4_parses() -> pd.DataFrame:
    """The authors' GPT-4 role parses of STS3k (App. 8.2.2, Table 11), in the layout of
    :func:`load_verbnet_parses`. The xlsx holds one row per pair: sentence A, the pair number,
    and each sentence's roles as a Python-dict fragment (``'Verb': 'grow', 'Time': NA, ...``;
    24 cells lack the opening quote of their first key, which is tolerated; a few name extra roles
    such as 'Purpose', which are dropped)."""
    file = fetch(f"{VERBNET_DIR}/STS3k GPT4 Parse Fixed.xlsx")
    table = pd.read_excel(file, header=None).dropna(subset=[1])
    rows = []
    for position, row in table.iterrows():
        pair_id = int(row[1]) - 1
        for side, column in (("a", 2), ("b", 3)):
            roles = _parse_gpt4_cell(row[column], f"{file} row {position + 1}")
            rows.append({"pair_id": pair_id, "sentence": side, **{r: roles[r] for r in ROLES}})
    frame = pd.DataFrame(rows).set_index(["pair_id", "sentence"]).sort_index()
    if len(frame) != 2 * N_PAIRS:
        raise DataError(f"{file}: expected {N_PAIRS} pairs, found {len(frame) // 2}")
    return frame
