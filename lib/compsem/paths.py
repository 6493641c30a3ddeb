"""Where things live: the project tree, the local data mirror and the caches; and how a file
there is written (:func:`atomic_write`, the one way every module writes a file in place).

Environment variables (all optional):

``COMPSEM_DATA_DIR``
    A local mirror of the upstream data files laid out as ``<owner>/<repo>/<path as upstream>``
    (the layout of ``data/registry.tsv``). When set, files are read from it and verified;
    nothing is downloaded.
``COMPSEM_DATA_URL``
    A base URL that replaces every upstream URL: a file is fetched from ``<base>/<registry path>``.
    Used by the tests (a local HTTP server) and by anyone hosting their own mirror.
``COMPSEM_CACHE_DIR``
    Where downloads, derived tables and embedding caches go (default: the user cache,
    e.g. ``~/.cache/compsem``).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from compsem.errors import CompsemError

PACKAGE_DIR = Path(__file__).resolve().parent
PROJECT_DIR = PACKAGE_DIR.parent.parent
NOTEBOOKS_DIR = PROJECT_DIR / "notebooks"
PARAMS_DIR = NOTEBOOKS_DIR / "params"
BOOK_DIR = PROJECT_DIR / "book"
PROJECT_DATA_DIR = PROJECT_DIR / "data"
TARGETS_DIR = PROJECT_DATA_DIR / "targets"
CLAIMS_DIR = PROJECT_DATA_DIR / "claims"
REGISTRY_FILE = PROJECT_DATA_DIR / "registry.tsv"


def data_dir() -> Path | None:
    """The local data mirror named by ``COMPSEM_DATA_DIR``, or None when unset."""
    value = os.environ.get("COMPSEM_DATA_DIR", "").strip()
    return Path(value).expanduser().resolve() if value else None


def data_url() -> str | None:
    """The base URL named by ``COMPSEM_DATA_URL`` (without trailing slash), or None."""
    value = os.environ.get("COMPSEM_DATA_URL", "").strip()
    return value.rstrip("/") if value else None


def cache_root() -> Path:
    """The compsem cache: ``COMPSEM_CACHE_DIR``, else ``$XDG_CACHE_HOME/compsem`` or
    ``~/.cache/compsem`` (not created here)."""
    value = os.environ.get("COMPSEM_CACHE_DIR", "").strip()
    if value:
        return Path(value).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "compsem"


def cache_dir(*parts: str) -> Path:
    """A sub-folder of the compsem cache (created on demand)."""
    path = cache_root().joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def output_folder(folder: Path | str, option: str = "--out") -> Path:
    """``folder``, created if missing, once it is known that results can be written there.

    Commands call it before any work, so that a run never finishes only to find its output
    location unusable (an existing file, a folder without write permission); those raise
    :class:`~compsem.errors.CompsemError` naming ``option`` and the path.
    """
    path = Path(folder).expanduser()
    if path.exists() and not path.is_dir():
        raise CompsemError(f"{option} {path} is a file, not a folder; give a folder (it is "
                           "created if missing) or move the file away")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CompsemError(f"{option} {path}: cannot create the folder ({error.strerror}); "
                           "give another folder") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise CompsemError(f"{option} {path}: the folder is not writable; give another folder")
    return path


def _read_umask() -> int:
    """The process's file-creation mask (read by setting it, then restoring it: read once, at
    import, before any thread writes)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


UMASK = _read_umask()
"""The file-creation mask files are written under (:func:`atomic_write`)."""


@contextlib.contextmanager
def atomic_write(target: Path | str, mode: str = "wb", encoding: str | None = None):
    """A file object for the new content of ``target``: a unique temporary file beside it,
    flushed to disk, given the permissions a plain write would give (``0o666`` less
    :data:`UMASK`; the temporary file is ``0600``) and renamed into place when the block ends
    without error, removed otherwise, so that a write cut short leaves ``target`` as it was
    (absent, or its previous content) and two writers never share a temporary file."""
    target = Path(target)
    handle = tempfile.NamedTemporaryFile(mode, dir=target.parent, prefix=f".{target.name}.",
                                         suffix=".tmp", delete=False, encoding=encoding)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(handle.name, 0o666 & ~UMASK)
        os.replace(handle.name, target)
    finally:
        Path(handle.name).unlink(missing_ok=True)
