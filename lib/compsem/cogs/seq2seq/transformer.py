"""The Transformer encoder-decoder of Kim (2021, Section 4.5.1) in plain PyTorch.

The dissertation's main Transformer has 2 encoder and 2 decoder layers, ``d_model`` 512, a
feed-forward dimension of 512 and 4 heads (9.5M parameters); Figure 4-3 adds a 1-layer model
(5.3M; "4.5M" in the text is a typo) and a 6-layer model with ``d_ff`` 2048 and 8 heads (45M).
"Other hyperparameter settings ... replicate ... Vaswani et al. (2017), according to OpenNMT-py",
i.e. what OpenNMT-py 1.1.1 builds (re-implemented here, not copied):

- token embeddings scaled by sqrt(d_model) plus sinusoidal positions (Vaswani et al. 2017, Section
  3.5), then dropout;
- *pre-norm* layers: ``x + Dropout(Sublayer(LayerNorm(x)))`` for self-attention, cross-attention
  (decoder) and the ReLU feed-forward block, with a final LayerNorm after each stack;
- multi-head scaled dot-product attention, ``softmax(Q K^T / sqrt(d_k)) V`` (Eq. 1 of Vaswani et
  al.) with biased Q/K/V/output projections and attention dropout;
- a separate (untied) generator ``log_softmax(W h + b)``;
- Xavier-uniform initialisation of every weight matrix (``-param_init_glorot``).

Counting parameters with the COGS vocabularies (747 source / 727 target ids) gives 9.54M, 5.34M
and 45.27M (see :func:`compsem.cogs.seq2seq.config.count_parameters`).

Decoding uses :meth:`TransformerSeq2Seq.encode` and :meth:`TransformerSeq2Seq.step`, which keeps
the keys and values of earlier positions in growing buffers, so a step attends over the cache
instead of recomputing (or copying) the prefix.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.attention import SDPBackend, sdpa_kernel

from compsem.cogs.seq2seq.vocab import PAD_ID

ATTENTION_BACKENDS = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]
"""Kernels scaled dot-product attention may use. cuDNN's is left out: it builds a new execution
plan for every new shape (each batch's length, each decoding step), which made a training update
take 0.8 s and beam search 55 tokens/s on an H100
(``benchmarks/results/bench_cogs_h100.txt``)."""
GROUP_ATTENTION_BACKENDS = [SDPBackend.MATH]
"""Kernels for models trained as one group under ``torch.func.vmap``
(:class:`compsem.cogs.seq2seq.grouped.GroupModel`): the memory-efficient kernel's backward
fails there on a GPU ("LSE is not correctly aligned (strideH)", torch 2.11, H100:
``benchmarks/results/bench_cogs_group_h100.txt``), and flash attention takes no padding mask."""


def sinusoidal_positions(length: int, dim: int) -> torch.Tensor:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(...) (Vaswani et al. 2017,
    Section 3.5), shape [length, dim]."""
    position = torch.arange(length, dtype=torch.float32).unsqueeze(1)
    frequency = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32) * -(math.log(10000.0) / dim))
    pe = torch.zeros(length, dim)
    pe[:, 0::2] = torch.sin(position * frequency)
    pe[:, 1::2] = torch.cos(position * frequency)
    return pe


class Embedding(nn.Module):
    """sqrt(d) * token embedding + sinusoidal position, then dropout."""

    def __init__(self, vocab_size: int, dim: int, dropout: float, max_len: int = 5000):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, dim, padding_idx=PAD_ID)
        self.register_buffer("pe", sinusoidal_positions(max_len, dim), persistent=False)
        self.scale = math.sqrt(dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        length = ids.shape[1]
        if start + length > self.pe.shape[0]:
            raise ValueError(
                f"sequence position {start + length} beyond the {self.pe.shape[0]} "
                "sinusoidal positions; lower the decoding length cap"
            )
        return self.dropout(self.tokens(ids) * self.scale + self.pe[start : start + length])


class Attention(nn.Module):
    """Multi-head scaled dot-product attention with biased projections (4 d^2 + 4 d parameters)."""

    def __init__(self, dim: int, heads: int, dropout: float):
        super().__init__()
        if dim % heads:
            raise ValueError(f"d_model {dim} is not divisible by heads {heads}")
        self.heads, self.dropout = heads, dropout
        self.backends = ATTENTION_BACKENDS
        self.query, self.key, self.value, self.out = (nn.Linear(dim, dim) for _ in range(4))

    def split(self, x: torch.Tensor) -> torch.Tensor:
        """[B, T, d] -> [B, heads, T, d/heads]."""
        b, t, d = x.shape
        return x.view(b, t, self.heads, d // self.heads).transpose(1, 2)

    def project_kv(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.split(self.key(x)), self.split(self.value(x))

    def forward(self, x, k, v, mask=None, causal=False) -> torch.Tensor:
        """``x`` [B, T, d] queries against keys/values ``k``/``v`` [B, heads, S, d/heads];
        ``mask`` [B, 1, 1, S] is True where attention is allowed."""
        q = self.split(self.query(x))
        p = self.dropout if self.training else 0.0
        with sdpa_kernel(self.backends):
            o = F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, dropout_p=p, is_causal=causal
            )
        b, h, t, dh = o.shape
        return self.out(o.transpose(1, 2).reshape(b, t, h * dh))


class FeedForward(nn.Module):
    """Pre-norm position-wise feed-forward block with its own residual:
    ``x + Dropout(W2 Dropout(ReLU(W1 LayerNorm(x))))`` (as OpenNMT-py 1.1.1)."""

    def __init__(self, dim: int, ff: int, dropout: float):
        super().__init__()
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.w1, self.w2 = nn.Linear(dim, ff), nn.Linear(ff, dim)
        self.dropout1, self.dropout2 = nn.Dropout(dropout), nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.dropout2(self.w2(self.dropout1(F.relu(self.w1(self.norm(x))))))


class EncoderLayer(nn.Module):
    def __init__(self, dim: int, ff: int, heads: int, dropout: float):
        super().__init__()
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.attention = Attention(dim, heads, dropout)
        self.feed_forward = FeedForward(dim, ff, dropout)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask):
        h = self.norm(x)
        k, v = self.attention.project_kv(h)
        x = x + self.dropout(self.attention(h, k, v, mask=mask))
        return self.feed_forward(x)


class DecoderLayer(nn.Module):
    def __init__(self, dim: int, ff: int, heads: int, dropout: float):
        super().__init__()
        self.self_norm, self.context_norm = nn.LayerNorm(dim, eps=1e-6), nn.LayerNorm(dim, eps=1e-6)
        self.self_attention = Attention(dim, heads, dropout)
        self.context_attention = Attention(dim, heads, dropout)
        self.feed_forward = FeedForward(dim, ff, dropout)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, memory_kv, src_mask, cache: dict | None = None, index: int = 0):
        """Teacher forcing (``cache`` None, causal self-attention over all of ``x``) or one
        decoding step (``x`` [B, 1, d]; this layer's keys/values are appended to ``cache``)."""
        h = self.self_norm(x)
        k, v = self.self_attention.project_kv(h)
        if cache is None:
            a = self.self_attention(h, k, v, causal=True)
        else:
            k, v = _append(cache, index, k, v)
            a = self.self_attention(h, k, v)
        x = x + self.dropout(a)
        h = self.context_norm(x)
        x = x + self.dropout(self.context_attention(h, *memory_kv, mask=src_mask))
        return self.feed_forward(x)


def _append(cache: dict, index: int, k: torch.Tensor, v: torch.Tensor):
    """Write one step's keys/values [B, heads, 1, dk] into layer ``index``'s buffers in
    ``cache`` (capacity doubled when full, so a step copies nothing of the past) and return the
    filled part. ``cache["length"]`` (a plain int) counts the positions already stored."""
    t = cache.get("length", 0)
    buffer_k = cache.get(f"k{index}")
    if buffer_k is None or buffer_k.shape[2] <= t:
        capacity = max(16, 2 * t)
        grown_k = k.new_zeros(k.shape[0], k.shape[1], capacity, k.shape[3])
        grown_v = torch.zeros_like(grown_k)
        if buffer_k is not None:
            grown_k[:, :, :t] = buffer_k[:, :, :t]
            grown_v[:, :, :t] = cache[f"v{index}"][:, :, :t]
        cache[f"k{index}"], cache[f"v{index}"] = grown_k, grown_v
    cache[f"k{index}"][:, :, t : t + 1] = k
    cache[f"v{index}"][:, :, t : t + 1] = v
    return cache[f"k{index}"][:, :, : t + 1], cache[f"v{index}"][:, :, : t + 1]


class TransformerSeq2Seq(nn.Module):
    """Encoder-decoder Transformer; see the module docstring for the architecture."""

    def __init__(
        self,
        src_vocab_size: int,
        tgt_vocab_size: int,
        layers: int = 2,
        d_model: int = 512,
        ff: int = 512,
        heads: int = 4,
        dropout: float = 0.1,
        encoder_layers: int | None = None,
        decoder_layers: int | None = None,
    ):
        super().__init__()
        n_enc, n_dec = encoder_layers or layers, decoder_layers or layers
        self.src_embedding = Embedding(src_vocab_size, d_model, dropout)
        self.tgt_embedding = Embedding(tgt_vocab_size, d_model, dropout)
        self.encoder = nn.ModuleList(
            EncoderLayer(d_model, ff, heads, dropout) for _ in range(n_enc)
        )
        self.decoder = nn.ModuleList(
            DecoderLayer(d_model, ff, heads, dropout) for _ in range(n_dec)
        )
        self.encoder_norm = nn.LayerNorm(d_model, eps=1e-6)
        self.decoder_norm = nn.LayerNorm(d_model, eps=1e-6)
        self.generator = nn.Linear(d_model, tgt_vocab_size)
        # the entries of encode's state that depend on the source alone (seq2seq.decoding), and
        # the key/value buffers that step adds (_append)
        self.source_state = ("src_mask", *(f"m{kv}{i}" for i in range(n_dec) for kv in "kv"))
        self._cache_names = frozenset(f"{kv}{i}" for i in range(n_dec) for kv in "kv")
        for p in self.parameters():  # -param_init 0 -param_init_glorot
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    @staticmethod
    def source_mask(src: torch.Tensor) -> torch.Tensor:
        """[B, 1, 1, S], True at real (non-padding) source tokens."""
        return (src != PAD_ID)[:, None, None, :]

    def _encode(self, src: torch.Tensor):
        mask = self.source_mask(src)
        x = self.src_embedding(src)
        for layer in self.encoder:
            x = layer(x, mask)
        memory = self.encoder_norm(x)
        kv = [layer.context_attention.project_kv(memory) for layer in self.decoder]
        return kv, mask

    def forward(self, src, src_lengths, tgt_in) -> torch.Tensor:
        """Log-probabilities [B, T, V] of the next target token under teacher forcing."""
        kv, mask = self._encode(src)
        x = self.tgt_embedding(tgt_in)
        for layer, memory_kv in zip(self.decoder, kv, strict=True):
            x = layer(x, memory_kv, mask)
        return F.log_softmax(self.generator(self.decoder_norm(x)).float(), dim=-1)

    def encode(self, src, src_lengths) -> dict[str, torch.Tensor]:
        """The decoding state: per-layer projected memory keys/values and the source mask, all
        with the batch in dimension 0 (so beam search can re-order it with ``index_select``)."""
        kv, mask = self._encode(src)
        state = {"src_mask": mask}
        for i, (k, v) in enumerate(kv):
            state[f"mk{i}"], state[f"mv{i}"] = k, v
        return state

    def reorder_state(self, state: dict, index: torch.Tensor, keep: tuple[str, ...] = ()) -> dict:
        """:func:`compsem.cogs.seq2seq.decoding.reorder` for this model's state, with the same
        values: the key/value buffers of the decoder's self-attention are copied only as far as
        they are filled (``state["length"]`` positions), into the buffers the previous re-ordering
        left free (kept in the state as ``spare_<name>``), so that a beam-search step neither
        copies the buffers' empty capacity nor allocates them anew."""
        filled = state.get("length", 0)
        out = {}
        for name, value in state.items():
            if name.startswith("spare_"):
                continue  # replaced below by the buffers this re-ordering leaves free
            if not torch.is_tensor(value) or name in keep:
                out[name] = value
            elif name in self._cache_names:
                spare = state.get(f"spare_{name}")
                if spare is None or spare.shape != (len(index), *value.shape[1:]):
                    spare = value.new_empty(len(index), *value.shape[1:])
                torch.index_select(value[:, :, :filled], 0, index, out=spare[:, :, :filled])
                out[name], out[f"spare_{name}"] = spare, value
            else:
                out[name] = value.index_select(0, index)
        return out

    def step(self, tokens: torch.Tensor, state: dict, position: int):
        """Log-probabilities [B, V] of the token after ``tokens`` [B] at ``position`` (0 for the
        ``<s>`` input); updates the key/value cache in ``state``."""
        if state.get("length", 0) != position:
            raise ValueError(
                f"decoding state holds {state.get('length', 0)} positions, not {position}"
            )
        x = self.tgt_embedding(tokens[:, None], start=position)
        for i, layer in enumerate(self.decoder):
            x = layer(
                x, (state[f"mk{i}"], state[f"mv{i}"]), state["src_mask"], cache=state, index=i
            )
        state["length"] = position + 1
        return F.log_softmax(self.generator(self.decoder_norm(x[:, 0])).float(), dim=-1), state
