"""An on-disk cache of trained results, keyed by everything that determines them.

A trained result (a regressor's predictions, a fine-tuned model's scores) is a pure function of
its configuration, its input data and the code that trains it, on one set of CPU code paths
(:func:`compsem.determinism.numerics`). :func:`key` hashes all of these (sha256 of a canonical
JSON document: the configuration, :func:`array_digest` of each input, :func:`source_digest` of the
training functions, the versions of the libraries that compute), so a warm re-run reads back the
very numbers a cold run computed, and any change to data, code, library or numerics computes anew.

Layout: ``cache_dir("fits", <numerics>, <kind>)/<key>.npz``, one file per result, holding plain
arrays (``np.savez``, read with ``allow_pickle=False``) and a JSON string ``meta`` for scalars (its
keys in the order given).
An entry is written to a hidden temporary file and renamed into place (never partial); an entry
that cannot be read (truncated, corrupted, wrong fields) counts as missing and is recomputed and
overwritten. ``COMPSEM_FIT_CACHE=0`` turns the cache off (nothing read, nothing written).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import inspect
import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from compsem import determinism, paths


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


def key(document: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of ``document`` (sorted keys; it must be JSON-serialisable)."""
    return hashlib.sha256(json.dumps(document, sort_keys=True, default=_plain).encode()).hexdigest()


def _plain(value):
    if isinstance(value, np.integer | np.floating | np.bool_):
        return value.item()
    raise TypeError(f"fit cache key: {type(value).__name__} {value!r} is not JSON-serialisable")


def entry_path(kind: str, digest: str) -> Path:
    """Where the entry ``digest`` of ``kind`` lives (under the current numerics)."""
    return paths.cache_dir("fits", determinism.numerics(), kind) / f"{digest}.npz"


def load(kind: str, digest: str, required: Iterable[str]) -> tuple[dict[str, np.ndarray], dict] | None:
    """The arrays (at least those ``required``) and the ``meta`` dict of an entry, or None when it
    is missing or unreadable (a broken entry is recomputed and overwritten by the caller)."""
    if not enabled():
        return None
    path = entry_path(kind, digest)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if name != "meta"}
            meta = json.loads(str(data["meta"]))
        missing = set(required) - set(arrays)
        if missing:
            raise KeyError(f"fields {sorted(missing)} missing")
    except FileNotFoundError:
        return None
    except (zipfile.BadZipFile, ValueError, KeyError, EOFError, OSError, zlib.error):
        return None
    if not isinstance(meta, dict):
        return None
    return arrays, meta


def store(kind: str, digest: str, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> Path | None:
    """Write an entry atomically (temporary file, then rename); None when the cache is off."""
    if not enabled():
        return None
    target = entry_path(kind, digest)
    handle = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp",
                                         delete=False)
    try:
        with handle:
            np.savez(handle, meta=np.array(json.dumps(dict(meta), default=_plain)),  # keys in order
                     **{name: np.asarray(value) for name, value in arrays.items()})
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, target)
    finally:
        Path(handle.name).unlink(missing_ok=True)
    return target
