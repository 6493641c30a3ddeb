"""A checksummed registry of every upstream data file (``data/registry.tsv``).

A file is named by its *registry path*, ``<owner>/<repo>/<path as upstream>``, e.g.
``bmmlab/compositional-semantics-eval/Data-experiment/STS3k_all.txt``. :func:`fetch` returns a
verified local copy:

1. ``COMPSEM_DATA_DIR`` set: the file is read from that mirror and its sha256 checked.
2. otherwise it is downloaded (pooch) from its upstream URL, or from ``COMPSEM_DATA_URL/<path>``
   when that base URL is set, into the cache, and its sha256 checked.
   An upstream of the form ``<archive>.tar.gz#<member>`` downloads the archive once and
   extracts the member.

A missing file or a checksum mismatch raises :class:`DataError`, naming the file, the expected
checksum and how to fix it. There is never a silent fallback to other data. A registry path
that is absolute or contains ``..`` is rejected before it is joined to the mirror or cache. A
downloaded archive is checked against :data:`ARCHIVE_SHA256` where its hash is pinned; any
failure to read it (truncated, not a tar.gz, member missing or with the wrong checksum) deletes
it from the cache, so the next run downloads it again instead of failing forever.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import re
import tarfile
from dataclasses import dataclass
from pathlib import Path

from compsem import paths
from compsem.errors import CompsemError


class DataError(CompsemError, RuntimeError):
    """A data file is missing, unknown, corrupted or malformed."""


ARCHIVE_SHA256: dict[str, str] = {}
"""sha256 of upstream archives (URL -> hex digest) where it is known; pooch verifies the
download against it. Archives not listed are checked member by member (registry checksums) and
evicted from the cache on any read failure."""


def safe_relative(path: str, what: str = "registry path") -> str:
    """``path`` when it is a relative path without ``..`` components (else DataError).

    Used before a registry path or archive member name is joined to a local folder, so that
    no entry can read or write outside the mirror or the cache.
    """
    from pathlib import PurePosixPath, PureWindowsPath

    parts = PurePosixPath(path).parts
    if (not path or path.startswith(("/", "\\")) or PureWindowsPath(path).is_absolute()
            or PureWindowsPath(path).drive or ".." in parts or ".." in PureWindowsPath(path).parts):
        raise DataError(f"unsafe {what} {path!r}: it must be relative and must not contain '..'")
    return path


@dataclass(frozen=True)
class Entry:
    """One row of the registry."""

    path: str
    bytes: int
    sha256: str
    upstream: str


@functools.cache
def entries(registry_file: Path = paths.REGISTRY_FILE) -> dict[str, Entry]:
    """All registry rows, keyed by registry path."""
    if not registry_file.exists():
        raise DataError(f"data registry {registry_file} is missing; restore it from git.")
    lines = [ln for ln in registry_file.read_text().splitlines() if ln and not ln.startswith("#")]
    rows = csv.DictReader(lines, delimiter="\t")
    return {
        r["path"]: Entry(r["path"], int(r["bytes"]), r["sha256"], r["upstream"]) for r in rows
    }


def entry(path: str) -> Entry:
    """The registry row of ``path``; an unknown path raises DataError with close matches."""
    table = entries()
    if path not in table:
        import difflib

        close = difflib.get_close_matches(path, table, n=3, cutoff=0.6)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise DataError(f"{path!r} is not in the data registry {paths.REGISTRY_FILE}.{hint}")
    return table[path]


def sha256_of(file: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(file, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@functools.cache
def _verified(file: Path, size: int, mtime_ns: int, expected: str) -> bool:
    # keyed on size and mtime so a file changed on disk is checked again
    return sha256_of(file) == expected


def verify(file: Path, item: Entry) -> Path:
    """Check ``file`` against the registry checksum; raise DataError on mismatch."""
    stat = file.stat()
    if not _verified(file, stat.st_size, stat.st_mtime_ns, item.sha256):
        raise DataError(
            f"checksum mismatch for {file}\n"
            f"  registry path: {item.path}\n"
            f"  expected sha256: {item.sha256}\n"
            f"  found sha256:    {sha256_of(file)}\n"
            f"The file is corrupted or a different version. Delete it and fetch it again "
            f"(upstream: {item.upstream}), or fix the mirror named by COMPSEM_DATA_DIR."
        )
    return file


def fetch(path: str) -> Path:
    """A verified local copy of the registry file ``path`` (see the module docstring)."""
    item = entry(path)
    safe_relative(item.path)
    mirror = paths.data_dir()
    if mirror is not None:
        local = mirror / item.path
        if not local.is_file():
            raise DataError(
                f"{local} does not exist.\n  registry path: {item.path}\n"
                f"  expected sha256: {item.sha256}\n"
                f"COMPSEM_DATA_DIR={mirror} should be a mirror laid out as "
                f"<owner>/<repo>/<path as upstream>. Add the file (upstream: {item.upstream}) "
                f"or unset COMPSEM_DATA_DIR to download it."
            )
        return verify(local, item)
    return _download(item)


def _download(item: Entry) -> Path:
    import pooch

    target = paths.cache_dir("data") / item.path
    if target.is_file():
        try:
            return verify(target, item)
        except DataError:
            target.unlink()  # a stale or partial copy: fetch it again
    base = paths.data_url()
    url, _, member = item.upstream.partition("#")
    if base is not None:
        url, member = f"{base}/{item.path}", ""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        if not member:
            pooch.retrieve(
                url, known_hash=f"sha256:{item.sha256}", fname=target.name,
                path=target.parent, progressbar=False,
            )
        else:
            _extract_member(url, member, target, item)
    except ValueError as error:  # pooch: hash mismatch (it deletes the download)
        raise DataError(
            f"checksum mismatch downloading {item.path} from {url}\n"
            f"  expected sha256: {item.sha256}\n  {error}\n"
            f"The upstream file changed or the download was corrupted; nothing was kept."
        ) from error
    except (OSError, KeyError) as error:
        raise DataError(
            f"could not download {item.path} from {url}: {error}\n"
            f"Check the network, or point COMPSEM_DATA_DIR at a local mirror."
        ) from error
    try:
        return verify(target, item)
    except DataError:
        target.unlink(missing_ok=True)
        raise


def _extract_member(url: str, member: str, target: Path, item: Entry) -> None:
    """Download the archive ``url`` once (cached) and write its ``member`` to ``target``.

    The archive is pinned to :data:`ARCHIVE_SHA256` where known. If it cannot be read (not a
    tar.gz, truncated), lacks ``member`` or the member fails its registry checksum, the cached
    archive is deleted and DataError names it: the next run downloads it afresh.
    """
    import zlib

    import pooch

    known = ARCHIVE_SHA256.get(url)
    archive = Path(pooch.retrieve(
        url, known_hash=f"sha256:{known}" if known else None, fname=Path(url).name,
        path=paths.cache_dir("archives"), progressbar=True,
    ))
    partial = target.with_name(f".{target.name}.partial")
    try:
        with tarfile.open(archive) as tar:
            handle = tar.extractfile(member)
            if handle is None:
                raise DataError(f"{member!r} is not a file in the archive {url}.")
            partial.write_bytes(handle.read())
        if sha256_of(partial) != item.sha256:
            raise DataError(f"checksum mismatch for {member!r} of {archive}\n"
                            f"  expected sha256: {item.sha256}\n  found sha256:    "
                            f"{sha256_of(partial)}")
        partial.replace(target)
    except (tarfile.TarError, EOFError, zlib.error, KeyError, DataError, OSError) as error:
        partial.unlink(missing_ok=True)
        archive.unlink(missing_ok=True)
        if isinstance(error, DataError):
            raise DataError(f"{error}\nThe cached archive {archive} was deleted; the next run "
                            f"downloads it again from {url}.") from None
        raise DataError(
            f"the cached archive {archive} (from {url}) is unreadable: "
            f"{type(error).__name__}: {error}\nIt was deleted; the next run downloads it again."
        ) from error


_MANIFEST_COLUMNS = ("path", "bytes", "sha256", "upstream")


def read_manifest(manifest: Path) -> dict[str, Entry]:
    """The rows of a mirror's ``MANIFEST.tsv`` (tab-separated, header ``path bytes sha256
    upstream``), keyed by path, each checked: a safe relative path, a byte count, a 64-digit hex
    sha256 and an upstream URL; no path twice. Anything else raises DataError naming the file,
    the line and the field."""
    try:
        text = Path(manifest).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"cannot read the manifest {manifest}: {error}") from error
    rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
    header = text.splitlines()[0].split("\t") if text.strip() else []
    if tuple(header[:4]) != _MANIFEST_COLUMNS:
        raise DataError(f"{manifest}: the first line must be the header "
                        f"{chr(9).join(_MANIFEST_COLUMNS)!r} (tab-separated), found {header[:4]}")
    table = {}
    for line, row in enumerate(rows, start=2):
        where = f"{manifest}, line {line}"
        if any(row.get(column) in (None, "") for column in _MANIFEST_COLUMNS):
            raise DataError(f"{where}: every row needs {', '.join(_MANIFEST_COLUMNS)}; got {row}")
        safe_relative(row["path"], f"path on {where}")
        if not row["bytes"].isdigit():
            raise DataError(f"{where}: bytes {row['bytes']!r} is not a byte count")
        if not re.fullmatch(r"[0-9a-f]{64}", row["sha256"]):
            raise DataError(f"{where}: sha256 {row['sha256']!r} is not 64 lower-case hex digits")
        if row["path"] in table:
            raise DataError(f"{where}: path {row['path']!r} is listed twice")
        table[row["path"]] = Entry(row["path"], int(row["bytes"]), row["sha256"], row["upstream"])
    return table


@dataclass(frozen=True)
class RegistryChange:
    """What :func:`write_registry` changes: paths added, removed, and kept with new contents."""

    added: list[str]
    removed: list[str]
    changed: list[str]

    def summary(self) -> str:
        return (f"{len(self.added)} added, {len(self.removed)} removed, "
                f"{len(self.changed)} changed")


def write_registry(manifest: Path, out: Path = paths.REGISTRY_FILE,
                   allow_removals: bool = False) -> RegistryChange:
    """Rewrite the registry ``out`` (``data/registry.tsv``) from a mirror's ``MANIFEST.tsv``
    (:func:`read_manifest`), and return what changed.

    The registry is a tracked file that every chapter depends on, so a manifest that would drop
    rows of it (an empty or partial manifest, a wrong file) is refused with DataError naming the
    paths unless ``allow_removals``; nothing is written then. The file is replaced atomically.
    """
    rows = read_manifest(manifest)
    if not rows:
        raise DataError(f"{manifest} lists no files; the registry {out} is left as it is")
    old = entries.__wrapped__(out) if Path(out).exists() else {}
    change = RegistryChange(
        added=sorted(set(rows) - set(old)), removed=sorted(set(old) - set(rows)),
        changed=sorted(p for p in set(rows) & set(old) if rows[p] != old[p]))
    if change.removed and not allow_removals:
        shown = ", ".join(change.removed[:5]) + (", ..." if len(change.removed) > 5 else "")
        raise DataError(
            f"{manifest} would remove {len(change.removed)} of the {len(old)} rows of {out} "
            f"({shown}); nothing written. Check that it is the mirror's full manifest, or pass "
            "--allow-removals to drop them")
    header = (
        "# The data registry: every upstream file the compendium can use.\n"
        "# path = location in a mirror (<owner>/<repo>/<path as upstream>); sha256 and bytes of"
        " the file;\n"
        "# upstream = where it is downloaded from ('archive#member' = a member of a tar.gz"
        " archive).\n"
        "# Generated from the project's data mirror manifest by"
        " `compsem data registry MANIFEST.tsv`.\n"
        "path\tbytes\tsha256\tupstream\n"
    )
    body = "".join(f"{e.path}\t{e.bytes}\t{e.sha256}\t{e.upstream}\n"
                   for _, e in sorted(rows.items()))
    with paths.atomic_write(Path(out), "w", encoding="utf-8") as handle:
        handle.write(header + body)
    entries.cache_clear()
    return change


