"""Result files of a run, keyed by the hash of its configuration.

``data/results/cogs-models/<config hash>/`` (committed; the chapter reads them):

- ``config.json`` -- the configuration (:mod:`compsem.cogs.seq2seq.config`);
- ``metrics.json`` -- exact-match accuracy per split and per gen case, the parameter count,
  updates, best update and stop reason, dev-loss history, device, wall times, seed, versions;
- ``predictions.tsv.gz`` -- one row per decoded example: ``split``, ``row`` (the example's row in
  the loader's frame of that split), ``prediction`` (whitespace tokens) and ``capped`` (1 when the
  output was cut at the length cap). The gold outputs are not repeated: they come from the loader;
- ``SHA256SUMS`` -- the sha256 of the three files, in the format of ``sha256sum`` (``sha256sum -c
  SHA256SUMS`` checks them), as the checkpoints carry theirs.

Each file is written to a unique temporary name and renamed into place (``SHA256SUMS`` last), so
an interrupted save never leaves a truncated file under the final name. A result folder whose
files cannot be read back (truncated or corrupted gzip, invalid JSON, metrics that are not a JSON
object, predictions without their header) or do not match their digest (edited, or damaged, after
the run wrote them) does not count as done: :func:`has_result` is false, with a warning naming the
file, and the run is trained or decoded again. Nothing is read as is without its digest.

Results written before the digests (no ``SHA256SUMS``) count as not done too, the safe choice; a
warning says so, and :func:`compsem.cogs.seq2seq.seal.seal` (``python -m compsem.cogs.seq2seq.seal
FOLDER ...``)
adds the digest to such a folder after checking it: its files read back, its configuration hashes
to the folder's name, and the accuracies in its ``metrics.json`` are what its predictions score
against the gold outputs. The committed results were sealed so. ``curve.tsv``
(:mod:`compsem.cogs.seq2seq.curve`), written beside a result later, is not part of the digest.

Checkpoints are not results; they live in ``compsem.paths.cache_dir("cogs-models", ...)``.
"""

from __future__ import annotations

import dataclasses
import functools
import gzip
import hashlib
import io
import json
import warnings
import zlib
from pathlib import Path

import pandas as pd

from compsem import determinism, paths
from compsem.cogs.seq2seq.config import config_hash, training_hash
from compsem.errors import CompsemError

RESULTS_DIR = paths.PROJECT_DATA_DIR / "results" / "cogs-models"
PREDICTION_COLUMNS = ["split", "row", "prediction", "capped"]
DIGEST_FILE = "SHA256SUMS"
"""The digest of a result folder: ``<sha256>  <name>`` for each of :data:`DIGESTED`."""
DIGESTED = ("config.json", "metrics.json", "predictions.tsv.gz")
SEAL_COMMAND = "python -m compsem.cogs.seq2seq.seal"
REQUIRED_METRICS = ("accuracy", "stop_reason", "steps", "device", "train_seconds", "decode_seconds")
"""What :func:`seal` requires of a ``metrics.json`` (every run writes them)."""


class ResultError(CompsemError, ValueError):
    """A result folder that :func:`seal` will not vouch for: the message names the file and why."""


def results_root(where: str | Path | None = None, chapter: str = "cogs-models",
                 committed: Path = RESULTS_DIR, must_exist: bool = False) -> Path:
    """Where a chapter's runs are kept (its ``results_dir`` parameter, a command's ``--results``):
    its committed results folder ``committed`` (``where`` ``None`` or ``""``), the cache
    (``"cache"``: runs that are not to be committed, e.g. smoke runs, under ``chapter``), or any
    other folder: an absolute path, or a path relative to the project root
    (:data:`compsem.paths.PROJECT_DIR`), never to the working directory (a chapter's kernel runs
    in ``notebooks/``); ``~`` is expanded.

    ``must_exist`` (a chapter's ``results_dir``, a caller that only reads): such a folder that
    does not exist raises FileNotFoundError naming ``results_dir`` and the fix (a misspelt
    ``cache`` is not a fresh, empty folder to read nothing from or train into)."""
    if where in (None, ""):
        return committed
    if str(where) == "cache":
        return paths.cache_dir(chapter, determinism.numerics(), "results")
    folder = Path(where).expanduser()
    if not folder.is_absolute():
        folder = paths.PROJECT_DIR / folder
    if must_exist and not folder.is_dir():
        raise FileNotFoundError(
            f"results_dir {str(where)!r} is {folder}, which is not a folder (a relative "
            f"results_dir is taken from the project root {paths.PROJECT_DIR}): check its spelling, "
            f"or give '' for the committed results, 'cache' for the cache, or an existing folder "
            f"(create it first to train into a new one)"
        )
    return folder


def result_dir(config: dict, root: str | Path | None = None) -> Path:
    return results_root(root) / config_hash(config)


def load_metrics(config: dict, root: str | Path | None = None) -> dict:
    """The ``metrics.json`` of ``config``'s run under ``root`` (check :func:`has_result` first;
    a ``root`` that does not exist raises, see :func:`results_root`)."""
    folder = results_root(root, must_exist=True) / config_hash(config)
    return json.loads((folder / "metrics.json").read_text())


def has_result(config: dict, root: str | Path | None = None, partial: bool = False) -> bool:
    """Whether a finished run of ``config`` has its result files under ``root``, readable and
    matching their digest (else a warning names the file, see :func:`result_problem`). A run cut
    short by a time budget (stop reason ``"time limit"``) counts when ``partial`` is true;
    otherwise it is still to be trained further."""
    folder = result_dir(config, root)
    if not ((folder / "metrics.json").exists() and (folder / "predictions.tsv.gz").exists()):
        return False
    problem = result_problem(folder)
    if problem:
        # attributed to this line, not the caller's, so that a folder's problem shows once in a
        # process however many callers ask (a command's --list asks up to four times)
        warnings.warn(f"{folder}: {problem}; the run counts as not done and is made again",
                      stacklevel=1)
        return False
    if partial:
        return True
    return load_metrics(config, root).get("stop_reason") != "time limit"


def result_problem(folder: Path) -> str | None:
    """Why the result files in ``folder`` do not count (None when they do): a file is missing or
    cannot be read back (the gzip stream of the predictions is read to its end, CRC and length
    checked, and must start with the header of :data:`PREDICTION_COLUMNS`; the JSON files are
    parsed and must be objects), or a file does not match its sha256 in :data:`DIGEST_FILE`.
    Cached on the files' sizes and modification times."""
    stamps = []
    for name in (*DIGESTED, DIGEST_FILE):
        try:
            stat = (Path(folder) / name).stat()
        except OSError:
            if name == DIGEST_FILE:
                return (f"{DIGEST_FILE} is missing (results written before result digests, or a "
                        f"save that did not finish); if its files are to be trusted, check them and "
                        f"add the digest with `{SEAL_COMMAND} {folder}`")
            return f"{name} is missing"
        stamps.append((stat.st_size, stat.st_mtime_ns))
    return _result_problem(Path(folder), tuple(stamps))


@functools.cache
def _result_problem(folder: Path, stamps: tuple) -> str | None:
    contents, problem = _read_back(folder)
    if problem:
        return problem
    return _digest_problem(folder, contents)


def _read_back(folder: Path) -> tuple[dict[str, bytes], str | None]:
    """The bytes of the :data:`DIGESTED` files of ``folder``, and why they cannot be read back as
    a result (None when they can; the digest is not checked here)."""
    contents = {}
    for name in DIGESTED:
        try:
            contents[name] = (folder / name).read_bytes()
        except OSError as error:
            return contents, f"{name} is missing or unreadable ({type(error).__name__}: {error})"
    for name in ("config.json", "metrics.json"):
        try:
            value = json.loads(contents[name])
        except ValueError as error:
            return contents, f"{name} is unreadable ({type(error).__name__}: {error})"
        if not isinstance(value, dict):
            return contents, (f"{name} is not a JSON object (it holds {type(value).__name__} "
                              f"{json.dumps(value)[:40]})")
    header = "\t".join(PREDICTION_COLUMNS).encode()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(contents["predictions.tsv.gz"]), mode="rb") as handle:
            first = handle.read(1 << 20)
            while handle.read(1 << 20):
                pass
    except (EOFError, OSError, zlib.error) as error:
        return contents, f"predictions.tsv.gz is truncated or corrupted ({type(error).__name__}: {error})"
    if first.split(b"\n", 1)[0].rstrip(b"\r") != header:
        return contents, (f"predictions.tsv.gz is not a table of predictions (its first line is "
                          f"{first[:40]!r}, not the header {header!r})")
    return contents, None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _digest_text(contents: dict[str, bytes]) -> str:
    """:data:`DIGEST_FILE` for the files' ``contents``, in the format of ``sha256sum``."""
    return "".join(f"{_sha256(contents[name])}  {name}\n" for name in DIGESTED)


def _digest_problem(folder: Path, contents: dict[str, bytes]) -> str | None:
    """Which file of ``folder`` does not match its sha256 in :data:`DIGEST_FILE` (None: all do)."""
    try:
        lines = (folder / DIGEST_FILE).read_text().splitlines()
        recorded = {}
        for line in lines:
            digest, name = line.split(" ", 1)
            recorded[name[1:]] = digest  # "  name" (text) or " *name" (binary), as sha256sum
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return f"{DIGEST_FILE} is unreadable ({type(error).__name__}: {error})"
    for name in DIGESTED:
        if name not in recorded:
            return f"{DIGEST_FILE} records no sha256 of {name}"
        found = _sha256(contents[name])
        if found != recorded[name]:
            return (f"{name} does not match its sha256 in {DIGEST_FILE} (edited or damaged after "
                    f"its run wrote it: sha256 {found[:12]}..., recorded {recorded[name][:12]}...)")
    return None


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` through :func:`compsem.paths.atomic_write`: a write cut
    short leaves ``target`` as it was (absent, or its previous content)."""
    with paths.atomic_write(target) as handle:
        handle.write(data)


@dataclasses.dataclass
class Result:
    config: dict
    metrics: dict
    predictions: pd.DataFrame

    @property
    def hash(self) -> str:
        return config_hash(self.config)


def save_result(result: Result, root: str | Path | None = None) -> Path:
    """Write the three files (the TSV gzip-compressed with a fixed timestamp, so equal results
    give equal bytes), each atomically, then their digest (:data:`DIGEST_FILE`) last."""
    missing = set(PREDICTION_COLUMNS) - set(result.predictions.columns)
    if missing:
        raise ValueError(f"predictions lack columns {sorted(missing)}")
    folder = result_dir(result.config, root)
    folder.mkdir(parents=True, exist_ok=True)
    text = result.predictions[PREDICTION_COLUMNS].to_csv(sep="\t", index=False)
    raw = io.BytesIO()
    with gzip.GzipFile(filename="predictions.tsv", mode="wb", fileobj=raw, mtime=0) as out:
        out.write(text.encode())
    contents = {
        "predictions.tsv.gz": raw.getvalue(),
        "config.json": (json.dumps(result.config, indent=1, sort_keys=True) + "\n").encode(),
        "metrics.json": (json.dumps(result.metrics, indent=1, sort_keys=True) + "\n").encode(),
    }
    for name, data in contents.items():
        write_atomic(folder / name, data)
    write_atomic(folder / DIGEST_FILE, _digest_text(contents).encode())
    return folder


def load_result(config: dict, root: str | Path | None = None) -> Result:
    """The result files of ``config``; FileNotFoundError naming the command that makes them, or
    naming ``results_dir`` when ``root`` does not exist (:func:`results_root`)."""
    folder = results_root(root, must_exist=True) / config_hash(config)
    if not has_result(config, root, partial=True):
        raise FileNotFoundError(
            f"no results for {config['model']} seed {config['seed']} in {folder}; run "
            f"`python -m compsem.cogs.seq2seq.train --model {config['model']} --seed {config['seed']}"
            f" --exposures {config['data']['exposures']}`"
        )
    metrics = load_metrics(config, root)
    with gzip.open(folder / "predictions.tsv.gz", "rb") as f:
        predictions = pd.read_csv(
            io.BytesIO(f.read()),
            sep="\t",
            keep_default_na=False,
            dtype={"split": str, "prediction": str},
        )
    stored = json.loads((folder / "config.json").read_text())
    if config_hash(stored) != config_hash(config):
        raise ValueError(f"{folder}/config.json does not hash to its folder name")
    return Result(stored, metrics, predictions)


def find_config(config: dict, root: str | Path | None = None, any_decoding: bool = False):
    """The configuration whose results stand for ``config``: itself when it has results; with
    ``any_decoding``, else another decoding of the same trained model (same
    :func:`~compsem.cogs.seq2seq.config.training_hash`; whole evaluation sets before samples, beam
    before greedy), e.g. a model trained
    on a GPU and decoded greedily on a CPU. None when there is none."""
    if has_result(config, root, partial=True):
        return config
    if not any_decoding:
        return None
    return _preferred(decodings(config, root))


def trained_with(config: dict, root: str | Path | None = None):
    """Another decoding of ``config``'s trained model whose training finished (its stop reason is
    not "time limit", :func:`has_result`), the one :func:`find_config` prefers; None when there is
    none. Such a model is not trained again for ``config``'s decoding: it is decoded from its
    checkpoint, or, without one, stands in for it (the commands' ``--list`` says "trained")."""
    own = config_hash(config)
    return _preferred([c for c in decodings(config, root)
                       if config_hash(c) != own and has_result(c, root)])


def _preferred(found: list[dict]):
    """The configuration whose results stand for the others of the same trained model: whole
    evaluation sets before samples, beam before greedy, then by hash; None for none."""
    found = sorted(
        found,
        key=lambda c: (
            c["decoding"]["per_case"] > 0 or c["decoding"]["per_split"] > 0,  # samples last
            c["decoding"]["method"] != "beam",
            config_hash(c),
        )
    )
    return found[0] if found else None


def decodings(config: dict, root: str | Path | None = None) -> list[dict]:
    """Every configuration with results that shares ``config``'s trained model (its
    :func:`~compsem.cogs.seq2seq.config.training_hash`), whatever its decoding."""
    wanted, found = training_hash(config), []
    for config_file in sorted(results_root(root).glob("*/config.json")):
        try:
            other = json.loads(config_file.read_text())
        except (OSError, ValueError):
            continue  # not a result (has_result of its own configuration says why)
        if not isinstance(other, dict):
            continue
        if training_hash(other) == wanted and has_result(other, root, partial=True):
            found.append(other)
    return found


def collect(
    configs: list[dict], root: str | Path | None = None, any_decoding: bool = False
) -> pd.DataFrame:
    """Exact-match accuracies of the ``configs`` that have results, long format: one row per run
    and quantity (``dev``, ``test``, ``gen`` or a gen case), with model, exposures, seed, hash,
    device, wall time, updates, stop reason, decoding method and the decoded sample's sizes
    (``per_case`` sentences of each gen case and ``per_split`` of dev and test; 0 for the whole
    sets). Configurations without results
    are left out (see :func:`has_result`); ``any_decoding``: see :func:`find_config`."""
    rows = []
    for wanted in configs:
        cfg = find_config(wanted, root, any_decoding)
        if cfg is None:
            continue
        metrics = load_metrics(cfg, root)
        base = {
            "model": cfg["model"],
            "exposures": cfg["data"]["exposures"],
            "seed": cfg["seed"],
            "hash": config_hash(cfg),
            "device": metrics.get("device"),
            "wall_seconds": metrics.get("wall_seconds"),
            "steps": metrics.get("steps"),
            "best_step": metrics.get("best_step"),
            "stop_reason": metrics.get("stop_reason"),
            "decoding": cfg["decoding"]["method"],
            "per_case": cfg["decoding"]["per_case"],
            "per_split": cfg["decoding"]["per_split"],
        }
        values = {**metrics.get("accuracy", {}), **metrics.get("gen_by_case", {})}
        rows += [{**base, "quantity": k, "accuracy": v} for k, v in values.items()]
    columns = [
        "model",
        "exposures",
        "seed",
        "hash",
        "device",
        "wall_seconds",
        "steps",
        "best_step",
        "stop_reason",
        "decoding",
        "per_case",
        "per_split",
        "quantity",
        "accuracy",
    ]
    return pd.DataFrame(rows, columns=columns)


def device_minutes(metrics: dict) -> float:
    """Minutes of its device that one run took: its training wall time (both stages of a
    Chapter 5 run), shared equally among the seeds it trained with (a ``--group`` trains them
    in one wall time), plus its decoding (the quantity of the COGS grid issue's time budget)."""
    seeds = len(metrics.get("trained_with_seeds") or ()) or 1
    train = metrics["train_seconds"] + metrics.get("aux_train_seconds", 0.0)
    return (train / seeds + metrics["decode_seconds"]) / 60


def throughput(metrics: dict) -> str:
    """One run's rates for the commands' summary lines: updates per second and target tokens
    per second of its (COGS-stage) training, and :func:`device_minutes` on its device."""
    seconds = max(metrics["train_seconds"], 1e-9)
    tokens = metrics.get("train_target_tokens_per_second")
    rate = f", {tokens:,.0f} target tokens/s" if tokens is not None else ""
    shared = metrics.get("trained_with_seeds") or ()
    group = f" (training shared by {len(shared)} seeds)" if len(shared) > 1 else ""
    return (f"{metrics['steps'] / seconds:.1f} updates/s{rate}; {device_minutes(metrics):.1f} device-min"
            f"{group} on {metrics['device']}")


def minutes_by_device(configs, root: str | Path | None = None) -> dict[str, tuple[int, float]]:
    """``{device: (runs, device minutes)}`` over the ``configs`` that have results under ``root``
    (:func:`has_result`, time-limited runs included: they spent their minutes too), for the
    GPU-minutes of a grid."""
    totals: dict[str, tuple[int, float]] = {}
    for config in configs:
        if has_result(config, root, partial=True):
            metrics = load_metrics(config, root)
            runs, minutes = totals.get(metrics["device"], (0, 0.0))
            totals[metrics["device"]] = (runs + 1, minutes + device_minutes(metrics))
    return totals
