"""An on-disk cache of trained results, keyed by everything that determines them.

A trained result (a regressor's predictions, a fine-tuned model's scores) is a pure function of
its configuration, its input data and the code that trains it, on one set of CPU code paths
(:func:`compsem.determinism.numerics`). One key policy serves every kind: :func:`key` hashes a
canonical JSON document of the configuration, :func:`array_digest` of each input and
:func:`code_identity` (the source of the training functions, the versions of the libraries that
compute), and the numerics name the entry's folder; so a warm re-run reads back the very numbers
a cold run computed, and any change to data, code, library or numerics computes anew.

Layout: ``cache_dir("fits", <numerics>, <kind>)/<key>.npz``, one file per result, holding plain
arrays (``np.savez``, read with ``allow_pickle=False``) and a JSON string ``meta`` for scalars (its
keys in the order given).
An entry is written to a hidden temporary file and renamed into place (never partial), and a
sound entry is read back bit for bit. An entry that cannot be read (truncated; a flipped byte,
which the zip's CRC-32 of each array detects; a required field missing) is set aside as
``<key>.npz.bad`` (kept for inspection) with a warning naming it (:func:`set_aside`), and counts as
missing: the caller recomputes and stores it. ``COMPSEM_FIT_CACHE=0`` turns the cache off
(nothing read, nothing written).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import os
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from compsem import determinism, paths

UNREADABLE = (zipfile.BadZipFile, ValueError, KeyError, EOFError, OSError, RuntimeError, zlib.error)
"""What reading a damaged ``.npz`` raises (a flipped byte in the zip's headers can give
``NotImplementedError``, a RuntimeError: "zip file version 10.8")."""


def enabled() -> bool:
    """False when ``COMPSEM_FIT_CACHE`` is ``0``/``false``/``no``/``off``."""
    return os.environ.get("COMPSEM_FIT_CACHE", "1").strip().lower() not in {"0", "false", "no", "off"}


def array_digest(values) -> str:
    """sha256 of an array's dtype, shape and bytes (C order); strings and objects by their text."""
    array = np.asarray(values)
    digest = hashlib.sha256()
    if array.dtype.kind in "OUS":
        digest.update(f"text{array.shape}".encode())
        for item in array.ravel().tolist():
            digest.update(str(item).encode("utf-8") + b"\0")
    else:
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def source_digest(functions: Iterable[Callable]) -> str:
    """sha256 of the source code of ``functions`` (any edit to them changes the key)."""
    digest = hashlib.sha256()
    for function in functions:
        digest.update(f"{function.__module__}.{function.__qualname__}\n".encode())
        digest.update(inspect.getsource(function).encode("utf-8"))
    return digest.hexdigest()


def versions(packages: Iterable[str]) -> dict[str, str]:
    """Installed versions of ``packages`` (``"absent"`` for a missing one)."""
    out = {}
    for name in packages:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def code_identity(functions: Iterable[Callable], packages: Iterable[str]) -> dict[str, Any]:
    """The part of every key that names the code: ``{"source": source_digest(functions),
    "versions": versions(packages)}`` (the functions that compute the result, the libraries
    that do its arithmetic)."""
    return {"source": source_digest(functions), "versions": versions(packages)}


def key(document: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of ``document`` (sorted keys; it must be JSON-serialisable)."""
    return hashlib.sha256(json.dumps(document, sort_keys=True, default=_plain).encode()).hexdigest()


def _plain(value):
    if isinstance(value, np.integer | np.floating | np.bool_):
        return value.item()
    raise TypeError(f"fit cache key: {type(value).__name__} {value!r} is not JSON-serialisable")


def folder(kind: str) -> Path:
    """The folder of the entries of ``kind`` (under the current numerics; created on demand)."""
    return paths.cache_dir("fits", determinism.numerics(), kind)


def entry_path(kind: str, digest: str) -> Path:
    """Where the entry ``digest`` of ``kind`` lives (under the current numerics)."""
    return folder(kind) / f"{digest}.npz"


def load(kind: str, digest: str, required: Iterable[str]) -> tuple[dict[str, np.ndarray], dict] | None:
    """The arrays (at least those ``required``) and the ``meta`` dict of an entry, or None when it
    is missing. An unreadable entry is set aside (:func:`set_aside`) and also gives None."""
    if not enabled():
        return None
    path = entry_path(kind, digest)
    try:
        with open(path, "rb") as handle, np.load(handle, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != "meta"}
            meta = json.loads(str(data["meta"]))
        missing = set(required) - set(arrays)
        if missing:
            raise KeyError(f"fields {sorted(missing)} missing")
        if not isinstance(meta, dict):
            raise ValueError(f"meta is a {type(meta).__name__}, not a dict")
    except FileNotFoundError:
        return None
    except UNREADABLE as error:
        set_aside(path, f"{type(error).__name__}: {error}")
        return None
    return arrays, meta


def set_aside(path: Path, reason: str) -> None:
    """Rename a cache file that cannot be used (damaged, unverified) to ``<path>.bad``, kept for
    inspection (replacing an older one), and warn naming it and ``reason``; a file another process
    moved first is left alone. The other caches set their files aside with it too (embedding
    shards, :mod:`compsem.models.cache`; derived tables, :mod:`compsem.data.sts3k`)."""
    bad = path.with_name(path.name + ".bad")
    try:
        os.replace(path, bad)
    except FileNotFoundError:
        return
    warnings.warn(f"cache file {path} cannot be used ({reason}); set aside as {bad.name}, it will "
                  f"be recomputed", stacklevel=2)


def store(kind: str, digest: str, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> Path | None:
    """Write an entry atomically (temporary file, then rename); None when the cache is off."""
    if not enabled():
        return None
    target = entry_path(kind, digest)
    with paths.atomic_write(target) as handle:
        np.savez(handle, meta=np.array(json.dumps(dict(meta), default=_plain)),  # keys in order
                 **{name: np.asarray(value) for name, value in arrays.items()})
    return target
