"""What the compsem cache holds, and clearing one part of it (``compsem cache``).

Everything compsem computes once and reads back lives under one folder
(:func:`compsem.paths.cache_root`; ``COMPSEM_CACHE_DIR`` moves it). Its parts, each a folder:

- ``fits/<kind>``: trained results of :mod:`compsem.fitcache` (probe fits, regressors, spaCy parses, the
  SDAE, ...), one sub-folder per CPU code path (:func:`compsem.determinism.numerics`);
- ``embeddings-v2``: sentence vectors by encoder (:mod:`compsem.models.cache`);
- ``cogs-models``, ``cogs-auxiliary``: COGS checkpoints and results not committed;
- ``tables``: tables derived from the data files; ``models``, ``nltk_data``, ``data``: packaged
  models, WordNet and downloaded data files, prepared once.

A part is cleared by removing its folder; whatever needs it computes it again (data files are
downloaded again). Nothing else reads these folders, so clearing never changes a result, only
the time it takes.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from compsem import paths
from compsem.errors import CompsemError


@dataclass(frozen=True)
class Part:
    """One part of the cache: its name, its folders (one per CPU code path for the fits) and
    their total size."""

    name: str
    folders: tuple[Path, ...]
    files: int
    bytes: int


def _size(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def _folders(root: Path | None = None) -> dict[str, list[Path]]:
    """The folders of each part of the cache under ``root`` (default: the cache root), by name."""
    root = paths.cache_root() if root is None else Path(root)
    folders: dict[str, list[Path]] = {}
    for top in sorted(p for p in root.iterdir() if p.is_dir()) if root.exists() else []:
        if top.name == "fits":
            for kind in sorted(p for p in top.glob("*/*") if p.is_dir()):
                folders.setdefault(f"fits/{kind.name}", []).append(kind)
        else:
            folders.setdefault(top.name, []).append(top)
    return dict(sorted(folders.items()))


def _part(name: str, folders: list[Path]) -> Part:
    sizes = [_size(f) for f in folders]
    return Part(name, tuple(folders), sum(n for n, _ in sizes), sum(b for _, b in sizes))


def parts(root: Path | None = None) -> list[Part]:
    """The parts of the cache under ``root`` (default: the cache root), by name, with their
    sizes."""
    return [_part(name, folders) for name, folders in _folders(root).items()]


def clear(name: str, root: Path | None = None) -> Part:
    """Remove the part ``name`` (a name of :func:`parts`); returns what was removed (only that
    part is sized)."""
    found = _folders(root)
    if name not in found:
        raise CompsemError(f"the cache has no part {name!r}; parts: {', '.join(found) or 'none'} "
                           f"(see `compsem cache`)")
    removed = _part(name, found[name])
    for folder in removed.folders:
        shutil.rmtree(folder)
    return removed


def table(root: Path | None = None) -> str:
    """The parts as a text table: name, files, size."""
    rows = parts(root)
    lines = [f"{'part':<24} {'files':>8} {'size':>10}"]
    for part in rows:
        lines.append(f"{part.name:<24} {part.files:>8} {part.bytes / 2**20:>8.1f} MB")
    total = sum(p.bytes for p in rows)
    lines.append(f"{'all':<24} {sum(p.files for p in rows):>8} {total / 2**20:>8.1f} MB")
    return "\n".join(lines)
