"""Layer-wise pooling: a sentence as the mean (or the first token) of a transformer's token states
at one layer.

>>> from compsem.models import cached_encode, cached_encode_layers, get_encoder
>>> X = cached_encode(get_encoder("mpnet:layer12"), texts)           # one layer
>>> by_layer = cached_encode_layers("mpnet", texts, [0, 12])         # one forward pass, two layers
>>> cached_encode(get_encoder("mpnet:layer0"), texts)                # now a cache hit

Names: ``<base>:layer<k>`` and ``<base>:last`` with base ``minilm`` (layers 0-6), ``mpnet``
(0-12) or ``hf:<hub id or local dir>`` (``hf:nghuyong/ernie-2.0-base-en:layer12``). Layer 0 is
the output of the embedding layer (token + position embeddings after their LayerNorm), layer k
the output of the k-th transformer block: ``hidden_states[k]`` of a Hugging Face model called
with ``output_hidden_states=True``. ``:last`` is the same encoder as ``:layer<n>`` (same name,
same cache). The vector is the attention-masked mean over every token, special tokens
([CLS]/<s>, [SEP]/</s>) included, exactly as a sentence-transformers ``Pooling`` module with
``pooling_mode_mean_tokens`` does, and as Fodor et al. (2025) computed ERNIE-0 and ERNIE-12
(one unpadded sentence at a time, mean over all tokens; the same numbers).

First-token pooling: ``<base>:layer<k>:cls`` (and ``<base>:cls`` = the last layer) is the state
of the first token ([CLS] or <s>) at layer k, the vector a BERT-style classifier head reads; it
is the pooling ablation of the modifier and probing chapters. ``cached_encode_layers(...,
pooling=("mean", "cls"))`` gives both poolings of every layer from one forward pass.

Texts are tokenised as sentence-transformers does: no stripping or lowercasing beyond the
tokenizer's own, truncated at ``max_seq_length`` of ``sentence_bert_config.json`` (384 for
mpnet, 256 for minilm) or else the tokenizer's limit (at most 512).

For the packaged sentence-transformers models (Transformer -> mean Pooling -> Normalize), the
last layer's mean, L2-normalised, *is* the sentence embedding: ``mpnet:layer12`` with
``normalize=True`` equals ``get_encoder("mpnet").encode`` to ~1e-6 (float32 rounding; checked
on the 4,428 STS3k sentences). :func:`cached_encode_layers` with ``sentence=True`` therefore
also fills the cache of the sentence encoder (``mpnet``/``minilm``) from the same pass.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from compsem.devices import resolve_device
from compsem.models.base import ModelUnavailableError, check_texts, equal_length_batches
from compsem.models.hub import hf_is_cached, needs_network, offline
from compsem.models.packaged import minilm_path, mpnet_path

LAYER_NAME = re.compile(
    r"^(?P<base>.+?):(?:(?:layer(?P<k>-?\d+)|(?P<last>last))(?::(?P<pool>cls))?|(?P<cls>cls))$"
)
"""``<base>:layer<k>``, ``<base>:last``, either with ``:cls``, or ``<base>:cls`` (= ``:last:cls``)."""

POOLINGS = ("mean", "cls")
"""``mean``: attention-masked mean over every token; ``cls``: the state of the first token
([CLS] for BERT-style models, <s> for MPNet/RoBERTa-style), as a classifier head would read it."""

PACKAGED_LAYERS = {"minilm": 6, "mpnet": 12}
"""Transformer blocks of the packaged models (known without touching the weights)."""

MAX_FALLBACK_LENGTH = 512


def parse_layer_name(name: str) -> tuple[str, int | str] | tuple[str, int | str, str] | None:
    """``"mpnet:layer12"`` -> ``("mpnet", 12)``, ``"mpnet:last"`` -> ``("mpnet", "last")``,
    ``"mpnet:layer3:cls"`` -> ``("mpnet", 3, "cls")``, ``"mpnet:cls"`` -> ``("mpnet", "last",
    "cls")``, anything else -> None. (Mean pooling is the default and is not spelled out.)"""
    m = LAYER_NAME.match(name)
    if m is None:
        return None
    if m["cls"]:
        return m["base"], "last", "cls"
    layer = "last" if m["last"] else int(m["k"])
    return (m["base"], layer, "cls") if m["pool"] else (m["base"], layer)


def check_pooling(pooling: str) -> str:
    if pooling not in POOLINGS:
        raise ValueError(f"pooling must be one of {POOLINGS}, not {pooling!r}")
    return pooling


# --------------------------------------------------------------------------- model sources


def _base_source(base: str):
    """A function giving the model directory (or hub id) of ``base``; nothing is loaded."""
    if base == "minilm":
        return minilm_path
    if base == "mpnet":
        return mpnet_path
    if base.startswith("hf:"):
        hub_id = base[3:]
        if not hub_id:
            raise ValueError("'hf:' needs a hub id, e.g. 'hf:nghuyong/ernie-2.0-base-en:layer12'")
        return lambda: hub_id
    known = ", ".join(f"{b}:layer<k>" for b in PACKAGED_LAYERS)
    raise ValueError(
        f"unknown base model {base!r} for a layer encoder; use {known} or hf:<hub id>:layer<k>"
    )


def read_json(source: str, filename: str) -> dict | None:
    """A json file of a local model directory or (cache / network) of a hub model, or None."""
    local = Path(source).expanduser()
    if local.is_dir():
        path = local / filename
        return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError

    try:
        return json.loads(Path(hf_hub_download(source, filename)).read_text(encoding="utf-8"))
    except (OSError, EntryNotFoundError):  # missing file, no network: the caller decides
        return None


def _num_layers_of(base: str) -> int:
    if base in PACKAGED_LAYERS:
        return PACKAGED_LAYERS[base]
    hub_id = _base_source(base)()
    config = read_json(hub_id, "config.json")
    if config is None:
        raise ModelUnavailableError(needs_network(hub_id) + " (could not read its config.json)")
    for key in ("num_hidden_layers", "n_layer", "num_layers"):
        if isinstance(config.get(key), int):
            return config[key]
    raise ModelUnavailableError(f"{hub_id}: config.json names no layer count ({sorted(config)})")


def resolve_layer(base: str, layer: int | str) -> tuple[int, int]:
    """``(k, n)``: the layer index (``"last"`` and negative indices resolved) and the number of
    transformer blocks. Raises ValueError for an index outside ``0..n``."""
    n = _num_layers_of(base)
    if layer == "last":
        return n, n
    if isinstance(layer, str):
        m = re.fullmatch(r"(?:layer)?(-?\d+)", layer)
        if m is None:
            raise ValueError(f"layer must be an int, 'layer<k>' or 'last', not {layer!r}")
        layer = int(m[1])
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)):
        raise TypeError(f"layer must be an int or 'last', not {type(layer).__name__}")
    k = int(layer) + (n + 1 if layer < 0 else 0)  # -1 = last, as in hidden_states[-1]
    if not 0 <= k <= n:
        raise ValueError(
            f"{base} has hidden-state layers 0..{n} (0 = embedding output, {n} = last); "
            f"there is no layer {layer}"
        )
    return k, n


# --------------------------------------------------------------------------- the shared model


@functools.lru_cache(maxsize=4)
def _load(source: str, device: str):
    """(tokenizer, model, max_length) for a model directory or hub id, loaded once per device."""
    from transformers import AutoModel, AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModel.from_pretrained(source)
    except OSError as err:
        raise ModelUnavailableError(needs_network(source, err)) from err
    model.eval().to(device)
    st_config = read_json(source, "sentence_bert_config.json") or {}
    max_length = st_config.get("max_seq_length")
    if not max_length:
        limit = getattr(tokenizer, "model_max_length", MAX_FALLBACK_LENGTH) or MAX_FALLBACK_LENGTH
        max_length = min(int(limit), MAX_FALLBACK_LENGTH)
    return tokenizer, model, int(max_length)


class LayerModel:
    """One loaded transformer that gives mean-pooled hidden states of any set of layers."""

    def __init__(self, base: str, device: str = "auto"):
        self.base = base
        self.device = device
        self._source = _base_source(base)
        self.forward_passes = 0  # batches run; instrumentation for tests and benchmarks

    @property
    def source(self) -> str:
        value = self._source() if callable(self._source) else self._source
        if self.base.startswith("hf:"):
            local = Path(str(value)).expanduser().is_dir()
            if not local and offline() and not hf_is_cached(str(value)):
                raise ModelUnavailableError(needs_network(str(value)) + " HF_HUB_OFFLINE is set.")
        return str(value)

    def loaded(self):
        return _load(self.source, resolve_device(self.device))

    def forward(self, batch: dict):
        """One forward pass; returns the tuple of hidden states."""
        _, model, _ = self.loaded()
        self.forward_passes += 1
        out = model(**batch, output_hidden_states=True, return_dict=True)
        return out.hidden_states

    def encode_layers(
        self,
        texts: Sequence[str],
        layers: Iterable[int],
        batch_size: int = 64,
        show_progress: bool = False,
        pooling: str = "mean",
    ) -> dict[int, np.ndarray]:
        """Pooled token states of every layer in ``layers`` (resolved ints), one pass.

        Returns ``{k: float32 array (len(texts), dim)}``, rows in input order; ``pooling`` is
        ``"mean"`` (masked mean over all tokens) or ``"cls"`` (the first token).
        """
        pooling = check_pooling(pooling)
        both = self.encode_layer_poolings(texts, layers, (pooling,), batch_size, show_progress)
        return {k: X for (k, _), X in both.items()}

    def encode_layer_poolings(
        self,
        texts: Sequence[str],
        layers: Iterable[int],
        poolings: Iterable[str] = ("mean",),
        batch_size: int = 64,
        show_progress: bool = False,
    ) -> dict[tuple[int, str], np.ndarray]:
        """Like :meth:`encode_layers` for several poolings at once: ``{(k, pooling): array}``."""
        import torch

        texts = check_texts(texts)
        layers = sorted(set(layers))
        poolings = [check_pooling(p) for p in dict.fromkeys(poolings)]
        tokenizer, model, max_length = self.loaded()
        dim = int(model.config.hidden_size)
        out = {
            (k, p): np.zeros((len(texts), dim), dtype=np.float32) for k in layers for p in poolings
        }
        if not texts:
            return out
        # batches of equal token count: no padding, so a vector depends on its text alone
        encoded = tokenizer(texts, truncation=True, max_length=max_length)
        batches = equal_length_batches([len(ids) for ids in encoded["input_ids"]], batch_size)
        if show_progress:
            from tqdm.auto import tqdm

            batches = tqdm(batches, desc=f"{self.base} layers {','.join(map(str, layers))}")
        device = next(model.parameters()).device
        for rows in batches:
            batch = {  # equal lengths: the tokenizer's ids stacked as they are
                key: torch.tensor([values[r] for r in rows], device=device)
                for key, values in encoded.items()
            }
            with torch.inference_mode():
                hidden = self.forward(batch)
                if max(layers) >= len(hidden):
                    raise ValueError(f"{self.base} returned {len(hidden)} hidden states")
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden[0].dtype)
                count = mask.sum(dim=1).clamp(min=1e-9)
                for k in layers:
                    for p in poolings:
                        if p == "mean":
                            pooled = (hidden[k] * mask).sum(dim=1) / count
                        else:  # no padding: position 0 is every row's first token
                            pooled = hidden[k][:, 0]
                        out[k, p][rows] = pooled.float().cpu().numpy()
        return out


@functools.lru_cache(maxsize=8)
def layer_model(base: str, device: str = "auto") -> LayerModel:
    """The shared :class:`LayerModel` of ``base`` (all its layer encoders use it)."""
    return LayerModel(base, device)


def l2_normalise(X: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length as sentence-transformers' ``Normalize`` module does it
    (``torch.nn.functional.normalize``): the normalised mean of the last layer then has the very
    bits of the sentence encoder, so the embedding cache holds the same vector whichever of the
    two computed it (numpy's division differed in the last bit for 1 text in 8, measured)."""
    import torch

    X = torch.from_numpy(np.ascontiguousarray(X, dtype=np.float32))
    return torch.nn.functional.normalize(X, p=2, dim=1).numpy()


# --------------------------------------------------------------------------- the encoder


class LayerMeanEncoder:
    """Mean (or first-token) state at one layer of ``base``; name ``<base>:layer<k>`` or
    ``<base>:layer<k>:cls`` (``-normalized`` appended with ``normalize=True``: unit-length rows)."""

    def __init__(
        self,
        base: str,
        layer: int | str,
        device: str = "auto",
        normalize: bool = False,
        pooling: str = "mean",
    ):
        self.base = base
        self.layer, self.num_layers = resolve_layer(base, layer)
        self.device = device
        self.normalize = normalize
        self.pooling = check_pooling(pooling)
        suffix = ":cls" if pooling == "cls" else ""
        self.name = f"{base}:layer{self.layer}{suffix}" + ("-normalized" if normalize else "")
        self._dim = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, device={self.device!r})"

    @property
    def resolved_device(self) -> str:
        """The device the model computes on (``"auto"`` resolved)."""
        return resolve_device(self.device)

    @property
    def model(self) -> LayerModel:
        return layer_model(self.base, self.device)

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.model.loaded()[1].config.hidden_size)
        return self._dim

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, show_progress: bool = False
    ) -> np.ndarray:
        """Float32 ``(len(texts), dim)``: the pooled states of layer ``self.layer``."""
        X = self.model.encode_layers(
            texts, [self.layer], batch_size, show_progress, pooling=self.pooling
        )[self.layer]
        return l2_normalise(X) if self.normalize else X


def layer_encoder(
    base: str,
    layer: int | str,
    pooling: str = "mean",
    device: str = "auto",
    normalize: bool = False,
):
    """The encoder ``<base>:layer<k>`` (``pooling="cls"``: ``<base>:layer<k>:cls``); no weights
    load; see the module docstring."""
    return LayerMeanEncoder(base, layer, device=device, normalize=normalize, pooling=pooling)
