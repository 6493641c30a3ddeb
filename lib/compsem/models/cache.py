"""An on-disk embedding cache keyed by (encoder name, sha256 of the text).

Layout: one folder per encoder, ``cache_dir(EMBEDDINGS, <numerics>, <safe name>)``, holding *shards*:
``shard-<time>-<random>.npz`` files with ``keys`` (hex sha256 of each text, utf-8), ``vectors``
(float32, one row per key) and ``digest`` (:func:`shard_digest`: sha256 of the keys and vectors
and of the folder, i.e. the numerics and the encoder); plain arrays, read with
``allow_pickle=False``. A call that has new texts writes one new shard; a shard
is written to a hidden temporary file and renamed into place, so a crash never leaves a partial
shard, and concurrent writers never touch each other's files. When there are many shards they
are merged into one (the merged shard is in place before the old ones are deleted); one process
merges at a time (an ``fcntl.flock`` on ``.merge.lock``; a process that finds it held skips the
merge), and a reader tolerates shards that vanish while it reads (their vectors are recomputed).

What is read back is what was written: a shard that cannot be read (truncated, corrupted), fails
its digest (values changed, or copied from another encoder's folder), holds a non-finite value
or vectors of another width than the newest shard's (or than the encoder now gives) is renamed
``*.bad`` with a warning naming it, and its vectors are recomputed: damage never blocks an
encoder and is never used. A shard without a digest (written before shards carried one) is
unverified and set aside the same way, so such a cache is recomputed once. The encoder's own
output is refused (RuntimeError) when it is not finite, since it could never be read back.

Vectors are kept apart by the numerics that computed them (:func:`numerics_of`: the CPU code
paths, and for torch encoders the device and the thread count), so a chapter kernel never reads
vectors computed under other numerics, on a GPU or on another number of threads. The cache trusts the
encoder name: an encoder whose output changes must change its name (the
registry puts options like ``-normalized`` into it). :func:`clear` removes one encoder's cache.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from compsem import determinism, fitcache, paths
from compsem.models.base import check_texts

MAX_SHARDS = 16
EMBEDDINGS = "embeddings-v2"
"""The cache's top folder, versioned: v2 holds vectors of texts encoded without padding
(:func:`compsem.models.base.equal_length_batches`); v1's padded vectors depended on the texts
encoded beside them and are never read."""


def text_key(text: str) -> str:
    """The cache key of a text: hex sha256 of its utf-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def safe_name(name: str) -> str:
    """A file-system-safe folder name for an encoder name, unique per name."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "encoder"
    return f"{readable[:80]}-{hashlib.sha256(name.encode('utf-8')).hexdigest()[:8]}"


def numerics_of(encoder) -> str:
    """The numerics folder of ``encoder``'s vectors: :func:`compsem.determinism.numerics`, and for
    an encoder that computes with torch (one with a ``resolved_device``) ``-<device type>`` off
    the CPU (a GPU's kernels give other last bits) or ``-threads<n>`` on ``n`` CPU threads other
    than :data:`compsem.determinism.KERNEL_THREADS` (torch's own kernels change their last bits
    with the thread count). The thread count is the encoder's ``compute_threads`` where it has
    one, else torch's."""
    numerics = determinism.numerics()
    device = getattr(encoder, "resolved_device", None)
    if device is None:
        return numerics
    kind = str(device).split(":")[0]
    if kind != "cpu":
        return f"{numerics}-{kind}"
    import torch

    threads = getattr(encoder, "compute_threads", None) or torch.get_num_threads()
    return numerics if threads == determinism.KERNEL_THREADS else f"{numerics}-threads{threads}"


def cache_folder(name: str, numerics: str | None = None) -> Path:
    """The folder holding the cached vectors of the encoder called ``name`` computed under
    ``numerics`` (:func:`numerics_of`; default: :func:`compsem.determinism.numerics`)."""
    folder = paths.cache_dir(EMBEDDINGS, numerics or determinism.numerics(), safe_name(name))
    label = folder / "ENCODER"
    if not label.exists():
        _atomic_write_bytes(label, name.encode("utf-8"))
    return folder


def _atomic_write_bytes(target: Path, data: bytes) -> None:
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, target)


def shard_digest(folder: Path, keys: np.ndarray, vectors: np.ndarray) -> bytes:
    """The digest stored in a shard: hex sha256 (ascii) of its folder's numerics and encoder
    (``<numerics>/<safe name>``) and of its ``keys`` and ``vectors`` (dtype, shape and bytes)."""
    digest = hashlib.sha256(f"{folder.parent.name}/{folder.name}\n".encode())
    digest.update(fitcache.array_digest(keys).encode("ascii"))
    digest.update(fitcache.array_digest(vectors).encode("ascii"))
    return digest.hexdigest().encode("ascii")


def _write_shard(folder: Path, keys: np.ndarray, vectors: np.ndarray) -> Path:
    keys, vectors = keys.astype("S64"), vectors.astype(np.float32)
    target = folder / f"shard-{time.time_ns()}-{uuid.uuid4().hex[:8]}.npz"
    tmp = folder / f".{target.name}.tmp"
    try:
        with open(tmp, "wb") as handle:  # a file handle: np.savez would append .npz to a path
            np.savez(handle, keys=keys, vectors=vectors,
                     digest=np.array(shard_digest(folder, keys, vectors)))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def _read_shard(shard: Path) -> tuple[np.ndarray, np.ndarray]:
    """A shard's ``(keys, vectors)``; ValueError (or what a damaged zip raises) unless it is
    readable, passes its digest and holds finite vectors."""
    with open(shard, "rb") as handle, np.load(handle, allow_pickle=False) as data:
        if "digest" not in data.files:
            raise ValueError("no digest: written before shards carried one, so unverified")
        keys, vectors, digest = data["keys"], data["vectors"], data["digest"]
    if vectors.ndim != 2 or keys.ndim != 1 or len(keys) != len(vectors):
        raise ValueError(f"keys {keys.shape} do not match vectors {vectors.shape}")
    if digest.shape != () or digest.item() != shard_digest(shard.parent, keys, vectors):
        raise ValueError("digest mismatch: its keys or vectors changed since it was written, "
                         "or it was written for another encoder")
    if not np.isfinite(vectors).all():
        raise ValueError("non-finite values")
    return keys, vectors


def _shards(folder: Path) -> list[Path]:
    return sorted(folder.glob("shard-*.npz"))


def _read(folder: Path) -> tuple[dict[bytes, int], np.ndarray | None, list[Path]]:
    """All cached vectors of a folder: key -> row of one stacked matrix, and the shard files.

    Shards are never changed once written (new vectors go to a new shard, a merge writes a new
    one and deletes the old), so the stacked result is kept in memory for the folder's current
    list of shards (:func:`_read_shards`) and a chapter that encodes the same texts many times
    reads the files once. A shard merged away by another process while we read is skipped (its
    vectors are computed again if needed); a shard that is damaged, unverified or of another
    width is set aside (:func:`_read_shards`).
    """
    signature = []
    for shard in _shards(folder):
        try:
            stat = shard.stat()
        except FileNotFoundError:
            continue
        signature.append((str(shard), stat.st_mtime_ns, stat.st_size))
    index, matrix, shards = _read_shards(str(folder), tuple(signature))
    return dict(index), matrix, list(shards)


@functools.lru_cache(maxsize=8)
def _read_shards(folder: str, signature: tuple) -> tuple[dict[bytes, int], np.ndarray | None, list[Path]]:
    """The vectors of the sound shards in ``signature`` ((path, mtime, size) each), stacked; the
    others are set aside (:func:`_quarantine`): damaged ones, and those whose width differs from
    the newest sound shard's."""
    found = []
    for name, _, _ in signature:
        shard = Path(name)
        try:
            found.append((shard, *_read_shard(shard)))
        except FileNotFoundError:  # merged away by another process while we listed
            continue
        except fitcache.UNREADABLE as error:
            _quarantine(shard, f"unreadable or damaged: {type(error).__name__}: {error}")
    if not found:
        return {}, None, []
    width = found[-1][2].shape[1]  # the newest shard's (names sort by time)
    parts, shards = [], []
    for shard, keys, vectors in found:
        if vectors.shape[1] == width:
            parts.append((keys, vectors))
            shards.append(shard)
        else:
            _quarantine(shard, f"holds {vectors.shape[1]}-d vectors, the newest shard {width}-d ones")
    keys = np.concatenate([k for k, _ in parts])
    matrix = np.concatenate([v for _, v in parts]) if len(parts) > 1 else parts[0][1]
    matrix.flags.writeable = False  # shared between calls: nobody may change it in place
    index = {k: i for i, k in enumerate(keys.tolist())}  # later duplicates win; all are equal
    return index, matrix, shards


def _quarantine(shard: Path, reason: str) -> None:
    """Set a shard aside as ``<shard>.bad`` (kept for inspection) with a warning naming it
    (:func:`compsem.fitcache.set_aside`); its vectors will be recomputed."""
    fitcache.set_aside(shard, f"embedding cache shard: {reason}")


def _merge(folder: Path, index: dict[bytes, int], matrix: np.ndarray, old: list[Path]) -> None:
    """Write all vectors as one shard and delete ``old``, holding ``.merge.lock``: when another
    process is merging, skip (the shards stay valid; a later call merges them)."""
    import fcntl

    with open(folder / ".merge.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        try:
            keys = np.array(list(index), dtype="S64")
            _write_shard(folder, keys, matrix[list(index.values())])
            for shard in old:
                shard.unlink(missing_ok=True)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached_encode(
    encoder,
    texts: Sequence[str],
    cache: bool = True,
    batch_size: int = 64,
    show_progress: bool = False,
) -> np.ndarray:
    """Encode ``texts`` with ``encoder``, reusing vectors cached on disk.

    ``encoder`` is an :class:`~compsem.models.base.Encoder` (``get_encoder(name)`` gives one
    from a name). Only texts not
    yet cached are encoded (each distinct text once) and then stored; the result is the full
    float32 matrix, rows in input order (duplicates included). ``cache=False`` bypasses the
    cache entirely. Cached vectors are those the encoder gave, bit for bit (damaged shards are
    set aside and recomputed, see the module); new vectors that are not finite raise RuntimeError.
    """
    if isinstance(encoder, str):
        raise TypeError(
            f"cached_encode takes an encoder, not the name {encoder!r}: "
            f"cached_encode(get_encoder({encoder!r}), texts)"
        )
    texts = check_texts(texts)
    if not cache:
        return np.asarray(
            encoder.encode(texts, batch_size=batch_size, show_progress=show_progress),
            dtype=np.float32,
        )
    folder = cache_folder(encoder.name, numerics_of(encoder))
    keys = [text_key(t).encode("ascii") for t in texts]
    index, matrix, shards = _read(folder)

    missing: dict[bytes, str] = {}
    for key, text in zip(keys, texts, strict=True):
        if key not in index and key not in missing:
            missing[key] = text
    if missing:
        new = np.asarray(
            encoder.encode(
                list(missing.values()), batch_size=batch_size, show_progress=show_progress
            ),
            dtype=np.float32,
        )
        if new.ndim != 2 or new.shape[0] != len(missing):
            raise RuntimeError(
                f"encoder {encoder.name!r} returned shape {new.shape} for {len(missing)} texts"
            )
        finite = np.isfinite(new).all(axis=1)
        if not finite.all():
            first = list(missing.values())[int(np.argmin(finite))]
            raise RuntimeError(
                f"encoder {encoder.name!r} gave non-finite values for {int((~finite).sum())} of "
                f"{len(new)} texts (the first: {first[:80]!r}); they are not cached"
            )
        new_keys = np.array(list(missing), dtype="S64")
        if matrix is not None and new.shape[1] != matrix.shape[1]:
            for shard in shards:  # the encoder decides: its vectors of the old width are set aside
                _quarantine(shard, f"holds {matrix.shape[1]}-d vectors, but encoder "
                                   f"{encoder.name!r} now gives {new.shape[1]}-d ones")
            _write_shard(folder, new_keys, new)
            return cached_encode(encoder, texts, batch_size=batch_size, show_progress=show_progress)
        shards.append(_write_shard(folder, new_keys, new))
        offset = 0 if matrix is None else matrix.shape[0]
        index.update({k: offset + i for i, k in enumerate(missing)})
        matrix = new if matrix is None else np.concatenate([matrix, new])
        if len(shards) > MAX_SHARDS:
            _merge(folder, index, matrix, shards)
    if not texts:
        dim = matrix.shape[1] if matrix is not None else encoder.dim
        return np.zeros((0, dim), dtype=np.float32)
    return np.ascontiguousarray(matrix[[index[k] for k in keys]], dtype=np.float32)


def missing(encoder, texts: Sequence[str]) -> list[str]:
    """The distinct texts (first-seen order) that the cache of ``encoder`` lacks."""
    index, _, _ = _read(cache_folder(encoder.name, numerics_of(encoder)))
    out: dict[str, None] = {}
    for text in check_texts(texts):
        if text not in out and text_key(text).encode("ascii") not in index:
            out[text] = None
    return list(out)


def clear(encoder_or_name) -> None:
    """Delete the cached vectors of one encoder (an encoder or its name) under every numerics
    (:func:`numerics_of`: the CPU code paths, a GPU, another thread count)."""
    name = encoder_or_name if isinstance(encoder_or_name, str) else encoder_or_name.name
    for folder in sorted(paths.cache_dir(EMBEDDINGS).glob(f"*/{safe_name(name)}")):
        shutil.rmtree(folder, ignore_errors=True)
