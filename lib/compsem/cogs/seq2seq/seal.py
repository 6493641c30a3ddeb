"""Seal a COGS result folder written before result digests: check it, then add its
``SHA256SUMS`` (:mod:`compsem.cogs.seq2seq.results` counts a folder without one as not done).

    python -m compsem.cogs.seq2seq.seal FOLDER [FOLDER ...]

A module of its own because it re-scores the predictions with the experiment's scorer, which
itself writes results.
"""

from __future__ import annotations

import gzip
import io
import json
import math
import sys
from pathlib import Path

import pandas as pd

from compsem.cogs.seq2seq.config import config_hash
from compsem.cogs.seq2seq.results import (
    DIGEST_FILE,
    REQUIRED_METRICS,
    ResultError,
    _digest_problem,
    _digest_text,
    _read_back,
    write_atomic,
)
from compsem.errors import CompsemError


def seal(folder: str | Path) -> str:
    """Check a result folder written before result digests and add its :data:`DIGEST_FILE`:
    ``"sealed"``, or ``"already sealed"`` when it has a digest its files match. Refused
    (:class:`ResultError`, naming the file) when its files cannot be read back, a digest it has
    does not match, its ``config.json`` does not hash to the folder's name, its ``metrics.json``
    lacks :data:`REQUIRED_METRICS`, or the accuracies it records (per split and per gen case)
    are not what its predictions score against the gold outputs (COGS, or its ``[w_n]``-masked
    version for a Chapter 5 run)."""
    folder = Path(folder)
    contents, problem = _read_back(folder)
    if problem is None and (folder / DIGEST_FILE).exists():
        problem = _digest_problem(folder, contents)
        if problem is None:
            return "already sealed"
        problem += "; make the run again (its command with --force) rather than seal it"
    if problem:
        raise ResultError(f"{folder}: {problem}; not sealed")
    config = json.loads(contents["config.json"])
    metrics = json.loads(contents["metrics.json"])
    if config_hash(config) != folder.name:
        raise ResultError(f"{folder}/config.json hashes to {config_hash(config)}, not to its folder's "
                          f"name; not sealed")
    missing = [key for key in REQUIRED_METRICS if key not in metrics]
    if missing:
        raise ResultError(f"{folder}/metrics.json lacks {', '.join(missing)}; not sealed")
    _check_scores(folder, config, metrics, contents["predictions.tsv.gz"])
    write_atomic(folder / DIGEST_FILE, _digest_text(contents).encode())
    return "sealed"


def _check_scores(folder: Path, config: dict, metrics: dict, predictions_gz: bytes) -> None:
    """Raise :class:`ResultError` unless ``metrics``' accuracies are what the predictions score."""
    from compsem.cogs.seq2seq.experiment import exact_match_accuracy

    predictions = pd.read_csv(io.BytesIO(gzip.decompress(predictions_gz)), sep="\t",
                              keep_default_na=False, dtype={"split": str, "prediction": str})
    if "auxiliary" in config:  # a Chapter 5 run: scored on the [w_n]-masked COGS
        from compsem.cogs.seq2seq.two_stage import masked_cogs as load
    else:
        from compsem.data.cogs import load
    try:
        gold = {split: load(split) for split in predictions.split.unique()}
        again = exact_match_accuracy(predictions, gold)
    except (KeyError, IndexError, ValueError, TypeError) as error:
        raise ResultError(f"{folder}/predictions.tsv.gz cannot be scored against the gold outputs "
                          f"({type(error).__name__}: {error}); not sealed") from None
    for key in ("accuracy", "gen_by_case"):
        recorded, scored = metrics.get(key) or {}, again[key]
        if not isinstance(recorded, dict) or set(recorded) != set(scored):
            raise ResultError(f"{folder}/metrics.json records {key} of {sorted(recorded)}, but its "
                              f"predictions have {sorted(scored)}; not sealed")
        for name, value in scored.items():
            if not (isinstance(recorded[name], int | float)
                    and math.isclose(recorded[name], value, rel_tol=0, abs_tol=1e-12)):
                raise ResultError(f"{folder}/metrics.json records {key} {name} = {recorded[name]}, "
                                  f"but its predictions score {value}; not sealed")


def main(argv=None) -> int:
    """``python -m compsem.cogs.seq2seq.seal FOLDER ...``: :func:`seal` each folder; a folder
    refused is named on one line and the status is 2."""
    from compsem.cogs.seq2seq.options import CommandParser

    parser = CommandParser(prog="python -m compsem.cogs.seq2seq.seal",
                           description="Check result folders written before result digests and "
                                       "add their SHA256SUMS.")
    parser.add_argument("folders", nargs="+")
    args = parser.parse_args(argv)
    status = 0
    for folder in args.folders:
        try:
            print(f"{folder}: {seal(folder)}", flush=True)
        except CompsemError as error:
            print(" ".join(str(error).split()), file=sys.stderr, flush=True)
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
