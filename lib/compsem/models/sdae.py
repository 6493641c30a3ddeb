"""An order-aware recurrent sentence encoder trained here: a sequential denoising autoencoder.

Hill, Cho & Korhonen (2016), "Learning distributed representations of sentences from unlabelled
data" (NAACL), §2 "SDAE": an LSTM encoder reads a *corrupted* sentence N(S) and its final hidden
state is the sentence vector; an LSTM decoder started from that state is trained to produce the
*clean* sentence S (teacher forcing, cross-entropy over the output vocabulary). The noise N
(:func:`noise`) deletes each word with probability p0 and swaps non-overlapping bigrams with
probability px (both 0.1 in the paper). Ettinger et al. (2018) probed the released SDAE vectors
(2400-d, Toronto Books); neither they nor Skip-Thought can be loaded here, so this module trains a
small model of the same kind on the CPU in a few minutes and caches it.

What is scaled down (:class:`SDAEConfig` holds every choice):

- **corpus** (:func:`corpus`): the 35k distinct sentences of STS Benchmark (train/dev/test), SICK
  (train/trial/test), STR-2022 and STS3k, the sentence sets the data registry already holds; never
  the probing sets, so the encoder has not seen a probing sentence;
- **input embeddings**: GloVe 6B 50-d (:class:`~compsem.models.word_vectors.GloveVectors`), *frozen*,
  so the encoder reads every one of GloVe's 400k words (probing words rare in the corpus
  included); a word GloVe lacks reads as the zero vector. Hill et al. learned their embeddings;
  with a 35k-sentence corpus they would be untrained for most words;
- **recurrent cell**: an LSTM (``cell="lstm"``), as in the paper; its final hidden state ``h``
  is the sentence vector (the cell state ``c`` is dropped; the decoder starts from ``(h, 0)``).
  ``cell="gru"`` is offered too: measured on a 2-core CPU it trains no faster (~0.10 s per 64-sentence step
  either way on two cores), so nothing argued for leaving the paper's cell;
- **size**: 256 hidden units, an output vocabulary of the corpus's 8,000 most frequent words
  (+ ``<pad>``, ``<unk>``, ``<eos>``; the decoder's first input is the zero vector, a fixed
  ``<bos>``), projected through a 128-d bottleneck before the softmax, a few epochs of Adam.
  :data:`PROFILES` ``"full"`` is bigger and longer, for a GPU or a patient CPU.

Training (:func:`train`) is seeded and, on the CPU, bit-for-bit reproducible for a given CPU code
path (``torch.use_deterministic_algorithms``; noise from a numpy generator seeded per epoch;
length-bucketed minibatches in a seeded order); repeated runs give identical weights. Weights are
kept in the fit cache (:mod:`compsem.fitcache`, kind ``sdae``: plain arrays, no pickle) under
:meth:`SDAEEncoder.key`, the fit cache's key of the config, the corpus, the word vectors, the
source of this module's training code, the versions of torch and numpy, the training device
when it is not the CPU and the thread count when it is not one (a small model's last bits
depend on it, measured); the encoder's ``name`` is ``sdae-<key[:12]>``, so the embedding cache
never mixes two models. An entry that cannot be read or does not fit the config is set aside
as ``*.bad`` with a warning and the model is retrained.

>>> from compsem.models import get_encoder, cached_encode
>>> enc = get_encoder("sdae")                 # nothing trained yet
>>> X = cached_encode(enc, ["A cat sat.", "Sat a cat."])   # trains once (~5 min on 2 cores), then cached
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from compsem import fitcache
from compsem.models.base import check_texts

FORMAT_VERSION = 2
"""The layout of a cached SDAE (2: arrays in the fit cache; 1 was a torch file)."""

FIT_CACHE_KIND = "sdae"
"""The SDAE's kind in the fit cache (:mod:`compsem.fitcache`)."""

SPECIALS = ("<pad>", "<unk>", "<eos>")
PAD, UNK, EOS = 0, 1, 2


@dataclasses.dataclass(frozen=True)
class SDAEConfig:
    """Every hyper-parameter of the SDAE (Hill et al. 2016, §2), scaled down for a CPU.

    ``p_delete``/``p_swap``: the noise (p0, px = 0.1 in the paper). ``cell``: ``"gru"`` or
    ``"lstm"``. ``hidden``: units of encoder and decoder (= sentence-vector size). ``vocab_size``:
    output words (most frequent in the corpus). ``proj``: bottleneck before the softmax (0: none).
    ``max_len``: training sentences are cut to this many tokens (encoding reads all of them).
    ``epochs``, ``max_steps`` (0: no limit), ``batch_size``, ``lr``, ``clip`` (gradient norm):
    the optimisation (Adam). ``seed``: initialisation, noise and batch order. ``threads``: torch
    threads while training and encoding on the CPU (0: as many as the process has, which
    ``OMP_NUM_THREADS`` sets: a kernel of ``compsem run-all --jobs 2`` has one. A fixed 2 beside
    another chapter's process on two cores made the two OpenMP threads wait on each other and
    trained many times slower). The default model's weights are the same bits on one or two
    threads, a small model's are not, so the key names a count other than the chapters' one
    (:meth:`SDAEEncoder.key`).
    """

    seed: int = 0
    cell: str = "lstm"
    hidden: int = 256
    vocab_size: int = 8000
    proj: int = 128
    p_delete: float = 0.1
    p_swap: float = 0.1
    max_len: int = 40
    epochs: int = 4
    max_steps: int = 0
    batch_size: int = 64
    lr: float = 2e-3
    clip: float = 5.0
    threads: int = 0

    def __post_init__(self):
        if self.cell not in ("gru", "lstm"):
            raise ValueError(f"SDAEConfig.cell must be 'gru' or 'lstm', not {self.cell!r}")
        for field in ("hidden", "vocab_size", "max_len", "epochs", "batch_size"):
            if int(getattr(self, field)) < 1:
                raise ValueError(f"SDAEConfig.{field} must be >= 1, not {getattr(self, field)!r}")
        if int(self.threads) < 0:
            raise ValueError(f"SDAEConfig.threads must be >= 0 (0: the process's), not {self.threads!r}")
        for field in ("p_delete", "p_swap"):
            if not 0.0 <= getattr(self, field) < 1.0:
                raise ValueError(f"SDAEConfig.{field} must lie in [0, 1), not {getattr(self, field)!r}")
        if self.proj < 0 or self.max_steps < 0:
            raise ValueError("SDAEConfig.proj and SDAEConfig.max_steps must be >= 0")

    def to_json(self) -> str:
        """The config as JSON with sorted keys (stored in the checkpoint)."""
        return json.dumps(dataclasses.asdict(self), sort_keys=True)

    def weights_fields(self) -> dict:
        """The config's fields but ``threads``, which :meth:`SDAEEncoder.key` adds only when
        it is not the chapters' count (so ``threads=0`` and ``threads=1`` share a model on one
        thread)."""
        return {k: v for k, v in dataclasses.asdict(self).items() if k != "threads"}


PROFILES: dict[str, dict] = {
    "default": {},
    "full": {"hidden": 1024, "vocab_size": 20000, "proj": 0, "epochs": 20, "batch_size": 128},
}
"""Named config presets: ``default`` trains in about 5 minutes on two CPU cores (4 epochs, 2,188
steps, 300 s measured); ``full`` is meant for a GPU (``device="cuda"``)."""


# --------------------------------------------------------------------------- noise


def noise(tokens: Sequence, rng: np.random.Generator, p_delete: float = 0.1,
          p_swap: float = 0.1) -> list:
    """The SDAE noise N(S) of Hill et al. (2016, §2): each token is deleted with independent
    probability ``p_delete`` (p0), then each non-overlapping bigram of what is left
    (positions 0-1, 2-3, ...) is swapped with probability ``p_swap`` (px).

    Pure apart from ``rng``. ``p_delete = p_swap = 0`` returns the tokens unchanged; a non-empty
    input never comes back empty (when every token is deleted, one of them, drawn uniformly, is
    kept); swaps alone keep the multiset of tokens.
    """
    tokens = list(tokens)
    if not tokens:
        return []
    if p_delete > 0:
        keep = rng.random(len(tokens)) >= p_delete
        kept = [t for t, k in zip(tokens, keep, strict=True) if k]
        tokens = kept or [tokens[int(rng.integers(len(tokens)))]]
    if p_swap > 0 and len(tokens) > 1:
        swaps = rng.random(len(tokens) // 2) < p_swap
        for j in np.flatnonzero(swaps):
            i = 2 * int(j)
            tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    return tokens


# --------------------------------------------------------------------------- corpus


def corpus() -> list[str]:
    """The training sentences: every sentence of STS Benchmark (train, dev, test), SICK (train,
    trial, test), STR-2022 and STS3k, stripped, sorted and de-duplicated (35,000 here). The
    probing sets are not included."""
    from compsem.data.sts3k import load_pairs
    from compsem.data.sts_benchmarks import SICK_FILES, load_sick, load_str2022, load_stsb

    tables = [load_stsb(split) for split in ("train", "dev", "test")]
    tables += [load_sick(split) for split in SICK_FILES]
    tables += [load_str2022(), load_pairs()]
    sentences = set()
    for table in tables:
        for column in ("sentence_a", "sentence_b"):
            sentences.update(str(s).strip() for s in table[column])
    sentences.discard("")
    return sorted(sentences)


def _sha256_lines(lines: Sequence[str]) -> str:
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def word_vectors_fingerprint(word_vectors) -> str:
    """sha256 of a word-vector table (its float32 matrix bytes and its words, in row order)."""
    digest = hashlib.sha256()
    matrix = np.ascontiguousarray(word_vectors.matrix, dtype=np.float32)
    digest.update(str(matrix.shape).encode())
    digest.update(matrix.tobytes())
    digest.update(_sha256_lines(word_vectors.vocab).encode())
    return digest.hexdigest()


def output_vocabulary(tokenised: Sequence[Sequence[str]], size: int) -> list[str]:
    """:data:`SPECIALS` then the ``size`` most frequent tokens (ties: alphabetical)."""
    counts = Counter(t for sentence in tokenised for t in sentence)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [*SPECIALS, *(w for w, _ in ranked[:size])]


# --------------------------------------------------------------------------- the network


def _network(config: SDAEConfig, emb_dim: int, n_out: int):
    """The encoder-decoder (a ``torch.nn.Module``), initialised from torch's current RNG."""
    import torch
    from torch import nn

    rnn = nn.GRU if config.cell == "gru" else nn.LSTM

    class SDAENet(nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = rnn(emb_dim, config.hidden, batch_first=True)
            self.decoder = rnn(emb_dim, config.hidden, batch_first=True)
            width = config.proj or config.hidden
            self.proj = nn.Linear(config.hidden, config.proj) if config.proj else nn.Identity()
            self.out = nn.Linear(width, n_out)

        def encode(self, x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
            """Final hidden state (batch, hidden) of the encoder over padded inputs x."""
            if len(x) == 1:  # one text, no padding: no packing needed
                _, state = self.encoder(x)
                return (state[0] if isinstance(state, tuple) else state)[0]
            packed = nn.utils.rnn.pack_padded_sequence(
                x, lengths.cpu(), batch_first=True, enforce_sorted=False)
            _, state = self.encoder(packed)
            h = state[0] if isinstance(state, tuple) else state
            return h[0]

        def forward(self, x, lengths, y_in, y_lengths):
            """Decoder logits (batch, T, n_out) for teacher-forced inputs y_in."""
            h = self.encode(x, lengths).unsqueeze(0)
            init = (h, torch.zeros_like(h)) if config.cell == "lstm" else h
            packed = nn.utils.rnn.pack_padded_sequence(
                y_in, y_lengths.cpu(), batch_first=True, enforce_sorted=False)
            out, _ = self.decoder(packed, init)
            out, _ = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
            return self.out(self.proj(out))

    return SDAENet()


def _lookup(table, ids: Sequence[np.ndarray], device: str, bos: bool = False):
    """Padded (batch, T, dim) input vectors for rows ``ids`` of ``table`` (-1: the zero vector);
    ``bos``: prepend the zero vector. Returns (vectors, lengths)."""
    import torch

    lengths = [len(r) + bos for r in ids]
    T = max(lengths)
    padded = np.full((len(ids), T), -1, dtype=np.int64)
    for i, r in enumerate(ids):
        padded[i, int(bos):int(bos) + len(r)] = r
    index = torch.from_numpy(padded).to(device)
    vectors = table[index.clamp(min=0)] * (index >= 0).unsqueeze(-1).to(table.dtype)
    return vectors, torch.tensor(lengths, dtype=torch.int64)


@contextlib.contextmanager
def _torch_state(threads: int, device: str, seed: int | None = None):
    """Inside: ``threads`` torch threads (CPU; 0: unchanged), deterministic algorithms, and (with
    ``seed``) a forked, seeded RNG; all restored afterwards."""
    import torch

    threads_before = torch.get_num_threads()
    deterministic_before = torch.are_deterministic_algorithms_enabled()
    warn_only_before = torch.is_deterministic_algorithms_warn_only_enabled()
    devices = [torch.device(device).index or 0] if device.startswith("cuda") else []
    try:
        if device == "cpu" and threads:
            torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(True, warn_only=device != "cpu")
        with torch.random.fork_rng(devices=devices, enabled=seed is not None):
            if seed is not None:
                torch.manual_seed(seed)
            yield
    finally:
        torch.set_num_threads(threads_before)
        torch.use_deterministic_algorithms(deterministic_before, warn_only=warn_only_before)


def _batches(lengths: np.ndarray, batch_size: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Length-bucketed minibatches: a seeded shuffle, a stable sort by length, consecutive chunks,
    then the chunks in a seeded order."""
    order = rng.permutation(len(lengths))
    order = order[np.argsort(lengths[order], kind="stable")]
    chunks = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
    return [chunks[i] for i in rng.permutation(len(chunks))]


def train(config: SDAEConfig, sentences: Sequence[str], word_vectors, tokenize=None,
          device: str = "cpu", progress: bool = True) -> dict:
    """Train an SDAE on ``sentences`` and return its checkpoint dict (weights and metadata).

    ``word_vectors`` has ``matrix`` (rows: words, float32), ``index`` (word -> row) and ``dim``;
    ``tokenize`` defaults to :func:`~compsem.models.word_vectors.glove_tokenize`. Each epoch draws
    fresh noise (:func:`noise`, numpy generator seeded with ``(seed, epoch)``) for every sentence,
    forms length-bucketed minibatches in a seeded order, and takes one Adam step per batch on the
    mean cross-entropy of the clean sentence + ``<eos>``. Returns ``{"format", "config",
    "vocab", "state_dict", "losses" (mean loss per epoch), "first_loss" (first batch),
    "steps", "train_seconds", "device", "corpus_size"}``.
    """
    import torch
    from tqdm.auto import tqdm

    if tokenize is None:
        from compsem.models.word_vectors import glove_tokenize as tokenize
    tokenised = [s[: config.max_len] for s in (tokenize(t) for t in sentences)]
    tokenised = [s for s in tokenised if s]
    if not tokenised:
        raise ValueError("the SDAE corpus has no sentence with a token; nothing to train on")
    vocab = output_vocabulary(tokenised, config.vocab_size)
    out_index = {w: i for i, w in enumerate(vocab)}
    wv_index = word_vectors.index
    in_ids = [np.array([wv_index.get(t, -1) for t in s], dtype=np.int64) for s in tokenised]
    out_ids = [np.array([out_index.get(t, UNK) for t in s] + [EOS], dtype=np.int64)
               for s in tokenised]
    lengths = np.array([len(s) for s in tokenised])
    started = time.perf_counter()
    with _torch_state(config.threads, device, seed=config.seed):
        table = torch.from_numpy(np.asarray(word_vectors.matrix, dtype=np.float32)).to(device)
        net = _network(config, table.shape[1], len(vocab)).to(device)
        optimiser = torch.optim.Adam(net.parameters(), lr=config.lr)
        loss_fn = torch.nn.CrossEntropyLoss(ignore_index=PAD)
        losses, first_loss, steps = [], None, 0
        for epoch in range(config.epochs):
            rng = np.random.default_rng([config.seed, epoch])
            noisy = [np.asarray(noise(r, rng, config.p_delete, config.p_swap), dtype=np.int64)
                     for r in in_ids]
            batches = _batches(lengths, config.batch_size, rng)
            total, count = 0.0, 0
            # progress=True leaves `disable` to tqdm's default, so TQDM_DISABLE=1 (set for the
            # kernels that execute chapters) keeps the bar out of the book
            bar = tqdm(batches, desc=f"sdae epoch {epoch + 1}/{config.epochs}", leave=False,
                       **({} if progress else {"disable": True}))
            for batch in bar:
                x, x_len = _lookup(table, [noisy[i] for i in batch], device)
                y_in, y_len = _lookup(table, [in_ids[i] for i in batch], device, bos=True)
                target = np.zeros((len(batch), int(y_len.max())), dtype=np.int64)
                for row, i in enumerate(batch):
                    target[row, : len(out_ids[i])] = out_ids[i]
                target = torch.from_numpy(target).to(device)
                logits = net(x, x_len, y_in, y_len)
                loss = loss_fn(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
                optimiser.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), config.clip)
                optimiser.step()
                value = float(loss.detach())
                first_loss = value if first_loss is None else first_loss
                total, count, steps = total + value, count + 1, steps + 1
                if steps % 20 == 0:
                    bar.set_postfix(loss=f"{total / count:.3f}")
                if config.max_steps and steps >= config.max_steps:
                    break
            bar.close()
            losses.append(total / count)
            if progress:
                print(f"sdae epoch {epoch + 1}/{config.epochs}: mean loss {losses[-1]:.4f}")
            if config.max_steps and steps >= config.max_steps:
                break
        state = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
    return {
        "format": FORMAT_VERSION,
        "config": config.to_json(),
        "vocab": vocab,
        "state_dict": state,
        "losses": losses,
        "first_loss": first_loss,
        "steps": steps,
        "train_seconds": time.perf_counter() - started,
        "device": device,
        "corpus_size": len(sentences),
    }


# --------------------------------------------------------------------------- the encoder


class SDAECacheError(RuntimeError):
    """A cached SDAE cannot be read or does not belong to the config that asked for it."""


def _training_code() -> list:
    """The functions and classes of this module that make the weights (their source is in the
    key: an edit to any of them trains anew); the encoder class, which only reads them, is not."""
    import inspect
    import sys

    module = sys.modules[__name__]
    return [value for name, value in sorted(vars(module).items())
            if (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == __name__ and name not in ("SDAEEncoder", "sdae_encoder")]


_META = ("format", "config", "first_loss", "steps", "train_seconds", "device", "corpus_size", "key")


def _to_entry(checkpoint: dict) -> tuple[dict, dict]:
    """A checkpoint as the fit cache's arrays and meta."""
    arrays = {f"weight:{name}": value.numpy() for name, value in checkpoint["state_dict"].items()}
    arrays["vocab"] = np.array(checkpoint["vocab"], dtype=str)
    arrays["losses"] = np.array(checkpoint["losses"], dtype=np.float64)
    return arrays, {name: checkpoint[name] for name in _META}


def _from_entry(arrays: dict, meta: dict) -> dict:
    """The checkpoint of a fit-cache entry (:func:`_to_entry`)."""
    import torch

    state = {name.split(":", 1)[1]: torch.from_numpy(np.array(value))
             for name, value in arrays.items() if name.startswith("weight:")}
    return {**meta, "state_dict": state, "vocab": [str(w) for w in arrays["vocab"]],
            "losses": [float(x) for x in arrays["losses"]]}


class SDAEEncoder:
    """A sentence as the final hidden state of a trained SDAE encoder (Hill et al. 2016, §2).

    Follows :class:`~compsem.models.base.Encoder`. Nothing is loaded or trained until
    :meth:`ensure_trained` (called by :meth:`encode`); ``name`` (``sdae-<key[:12]>``) needs the
    corpus and word vectors to compute the key, not the weights. ``sentences`` and
    ``word_vectors`` default to :func:`corpus` and GloVe 6B 50d. ``device``: ``"auto"`` (cuda when
    available), ``"cpu"`` (the deterministic default path) or a torch device string.
    """

    def __init__(self, config: SDAEConfig | None = None, device: str = "auto",
                 sentences: Sequence[str] | None = None, word_vectors=None, tokenize=None,
                 progress: bool = True):
        self.config = config or SDAEConfig()
        self.device = device
        self._sentences = None if sentences is None else sorted(set(sentences))
        self._word_vectors = word_vectors
        self._tokenize = tokenize
        self.progress = progress
        self._key = None
        self._net = None
        self.checkpoint: dict | None = None
        self.trained_now = False  # True when this object trained the model (not read from cache)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(config={self.config}, device={self.device!r})"

    # -- lazily resolved pieces
    @property
    def sentences(self) -> list[str]:
        if self._sentences is None:
            self._sentences = corpus()
        return self._sentences

    @property
    def word_vectors(self):
        if self._word_vectors is None:
            from compsem.models.word_vectors import GloveVectors

            self._word_vectors = GloveVectors()
        return self._word_vectors

    @property
    def tokenize(self):
        if self._tokenize is None:
            from compsem.models.word_vectors import glove_tokenize

            self._tokenize = glove_tokenize
        return self._tokenize

    @property
    def resolved_device(self) -> str:
        """``"auto"`` is the CPU here (unlike the pretrained encoders): training on a GPU gives
        other weights, so a GPU is used only when asked for by name (and keyed apart)."""
        from compsem.devices import resolve_device

        return "cpu" if self.device == "auto" else resolve_device(self.device)

    @property
    def compute_threads(self) -> int:
        """The CPU threads the model trains and encodes on (the config's, 0: the process's)."""
        import torch

        return int(self.config.threads) or torch.get_num_threads()

    def key(self) -> str:
        """The fit cache's key (:func:`compsem.fitcache.key`) of the config (its fields but
        ``threads``), :data:`FORMAT_VERSION`, the corpus, the word vectors, the source of the
        training code (:func:`_training_code`), the versions of torch and numpy, (when not
        ``"cpu"``) the training device and (when not the chapters' one,
        :data:`compsem.determinism.KERNEL_THREADS`) the CPU thread count of the training.
        The default model's weights are the same bits on one or two threads, but not every
        shape's (a hidden size of 16 differs in its last bits), so a model trained on another
        count than the chapters' one thread is kept apart from theirs."""
        if self._key is None:
            parts = {
                "config": self.config.weights_fields(),
                "format": FORMAT_VERSION,
                "corpus": _sha256_lines(self.sentences),
                "word_vectors": word_vectors_fingerprint(self.word_vectors),
                **fitcache.code_identity(_training_code(), ("numpy", "torch")),
            }
            device = self.resolved_device
            if device != "cpu":
                parts["train_device"] = device.split(":")[0]
            else:
                from compsem.determinism import KERNEL_THREADS

                if self.compute_threads != KERNEL_THREADS:
                    parts["threads"] = self.compute_threads
            self._key = fitcache.key(parts)
        return self._key

    @property
    def name(self) -> str:
        return f"sdae-{self.key()[:12]}"

    @property
    def dim(self) -> int:
        return self.config.hidden

    @property
    def path(self) -> Path:
        """The fit-cache entry of this model's weights."""
        return fitcache.entry_path(FIT_CACHE_KIND, self.key())

    # -- weights
    def _read(self) -> dict | None:
        """The cached checkpoint, checked against this encoder; None when there is none.
        SDAECacheError when it does not belong to this config."""
        hit = fitcache.load(FIT_CACHE_KIND, self.key(), ("vocab", "losses"))
        if hit is None:
            return None
        checkpoint = _from_entry(*hit)
        expected = {"format": FORMAT_VERSION, "config": self.config.weights_fields(), "key": self.key()}
        for field, value in expected.items():
            found = checkpoint.get(field)
            if field == "config":  # stored as JSON; compared on the fields that make the weights
                try:
                    found = {k: v for k, v in json.loads(found).items() if k != "threads"}
                except (TypeError, ValueError, AttributeError):
                    pass
            if found != value:
                raise SDAECacheError(f"{self.path}: {field} is {found!r}, expected {value!r}")
        if list(checkpoint["vocab"][: len(SPECIALS)]) != list(SPECIALS):
            raise SDAECacheError(f"{self.path}: the output vocabulary is malformed")
        return checkpoint

    def _load_net(self, checkpoint: dict) -> None:
        net = _network(self.config, self.word_vectors.dim, len(checkpoint["vocab"]))
        try:
            net.load_state_dict(checkpoint["state_dict"], strict=True)
        except (RuntimeError, KeyError, TypeError) as error:
            raise SDAECacheError(f"{self.path}: weights do not fit the config ({error})") from error
        for value in net.state_dict().values():
            if not bool(value.isfinite().all()):
                raise SDAECacheError(f"{self.path}: weights hold NaN or infinite values")
        net.eval()
        self._net = net.to(self.resolved_device)
        self.checkpoint = checkpoint

    def ensure_trained(self) -> SDAEEncoder:
        """Load the cached weights, or train (and cache) them when there are none. A cache
        entry that is unreadable or belongs to another config is set aside (``*.bad``, with a
        warning: :func:`compsem.fitcache.set_aside`) and the model is trained again; it is
        never used."""
        if self._net is not None:
            return self
        try:
            checkpoint = self._read()
            if checkpoint is not None:
                self._load_net(checkpoint)
                return self
        except SDAECacheError as error:
            fitcache.set_aside(self.path, f"SDAE cache {error}; training again")
        checkpoint = train(self.config, self.sentences, self.word_vectors, self.tokenize,
                           device=self.resolved_device, progress=self.progress)
        checkpoint["key"] = self.key()
        fitcache.store(FIT_CACHE_KIND, self.key(), *_to_entry(checkpoint))
        self.trained_now = True
        self._load_net(checkpoint)
        return self

    def encode(self, texts: Sequence[str], batch_size: int = 64,
               show_progress: bool = False) -> np.ndarray:
        """Final encoder states of the clean ``texts``, float32, ``(len(texts), dim)``, rows in
        input order. Tokens are :func:`glove_tokenize`\\ d (all of them: no length cut), words GloVe
        lacks read as zero vectors, a text without tokens reads as one zero vector.

        On the CPU every text is encoded on its own (``batch_size`` is unused): a batched matrix
        product rounds a row differently with the batch around it (~1e-6), and the embedding
        cache must hold the same bits for a text whichever texts it was encoded with. It costs
        little (~5 s for 5,000 short sentences on two cores). On a GPU texts go in length-sorted
        batches of ``batch_size``."""
        import torch

        texts = check_texts(texts)
        self.ensure_trained()
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        index = self.word_vectors.index
        ids = [np.array([index.get(t, -1) for t in self.tokenize(text)] or [-1], dtype=np.int64)
               for text in texts]
        order = np.argsort([len(r) for r in ids], kind="stable")
        device = self.resolved_device
        size = 1 if device == "cpu" else batch_size
        chunks = [order[i:i + size] for i in range(0, len(order), size)]
        if show_progress:
            from tqdm.auto import tqdm

            chunks = tqdm(chunks, desc=self.name)
        with _torch_state(self.config.threads, device), torch.inference_mode():
            table = torch.from_numpy(np.asarray(self.word_vectors.matrix, dtype=np.float32))
            table = table.to(device)
            for chunk in chunks:
                x, lengths = _lookup(table, [ids[i] for i in chunk], device)
                out[chunk] = self._net.encode(x, lengths).float().cpu().numpy()
        return out


def sdae_encoder(profile: str = "default", device: str = "auto", progress: bool = True,
                 sentences: Sequence[str] | None = None, word_vectors=None,
                 **options) -> SDAEEncoder:
    """The registry's ``sdae``: a :data:`PROFILES` preset updated with ``options`` (any
    :class:`SDAEConfig` field, e.g. ``seed=1``, ``epochs=8``, ``hidden=512``). ``sentences``
    and ``word_vectors`` replace the defaults of :class:`SDAEEncoder` (tests)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown SDAE profile {profile!r}; known: {', '.join(PROFILES)}")
    fields = {f.name for f in dataclasses.fields(SDAEConfig)}
    unknown = sorted(set(options) - fields)
    if unknown:
        raise ValueError(f"unknown SDAE option(s) {unknown}; SDAEConfig fields: {sorted(fields)}")
    return SDAEEncoder(SDAEConfig(**{**PROFILES[profile], **options}), device=device,
                       sentences=sentences, word_vectors=word_vectors, progress=progress)
