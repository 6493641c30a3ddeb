"""The LSTM encoder-decoder of Kim (2021, Section 4.5.1) in plain PyTorch.

"A 2-layer LSTM encoder-decoder with global attention and a dot-product score function. The
decoder followed an input-feeding approach (Luong et al. 2015)." Inputs of dimension 512 and two
hidden layers of 512 (256 per direction for the bidirectional encoder, so that the concatenated
states keep the decoder's 512); 11M (unidirectional) and 10M (bidirectional) parameters.

Luong et al. (2015), with the OpenNMT-py 1.1.1 arrangement (re-implemented, not copied):

- encoder: embeddings -> stacked LSTM (dropout between layers); the bidirectional encoder's final
  states are the concatenated forward and backward states of each layer;
- decoder input at step t: ``[y_{t-1}; h~_{t-1}]`` (input feeding, Section 3.3), through a stack of
  LSTM cells with dropout between layers, initialised with the encoder's final states;
- global dot attention (Section 3.1): ``a_t = softmax(h_t^T h_s)`` over the source, context
  ``c_t = sum_s a_ts h_s``, attentional state ``h~_t = tanh(W_c [c_t; h_t])`` (Eq. 5; no bias for
  the dot score), then dropout; the generator is ``log_softmax(W h~_t + b)``;
- dropout 0.1 between layers, and after the embeddings where ``embedding_dropout`` says so
  (Section 4.5.1: "after the embedding layer and after each hidden layer except for the last"); PyTorch's default initialisation (the
  scripts pass ``-param_init 0`` without ``-param_init_glorot``).

**Embedding dropout is switchable** (``embedding_dropout``): OpenNMT-py 1.1.1, which the released
scripts ran, applies dropout to embeddings only inside its positional encoding, which its LSTMs do
not use, so the paper's LSTMs very likely had *none* after the embeddings. ``None`` follows the
text (the model's ``dropout``); ``0.0`` follows the code, and is what the paper's configurations
use (:data:`compsem.cogs.seq2seq.config.OPTIONAL_ARCHITECTURE`).

Gradients are clipped at norm 5 by the trainer (configuration ``clip``). With the COGS vocabularies
(747 source / 727 target ids) the two models have 11.11M and 10.06M parameters.

**A compiled decoder step** (:func:`compile_decoder_step`, ``--compile-step`` of the training
commands): input feeding makes the decoder a Python loop of small steps, so on a GPU its time goes
to launching some twenty kernels per step. ``torch.compile`` fuses the step's elementwise work
(gates, attention mask and softmax, ``tanh``) into a few kernels. The modes that replay the
step as a CUDA graph (:data:`CUDA_GRAPH_MODES`) are refused: a replay writes its outputs into the
graph's static memory, so the next of the step's calls (one per target position) overwrites the
outputs of the last while the backward pass still needs them (on an H100 the first update
stopped with "accessing tensor output of CUDAGraphs that has been overwritten by a subsequent
run"); cloning them would also re-record a graph for every new batch shape. The same arithmetic up to rounding; dropout draws come
from the compiled kernels' own generator, so a compiled run is not the eager run's twin. An
execution option like mixed precision: not part of the configuration hash, recorded in a run's
metrics.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from compsem.cogs.seq2seq.vocab import PAD_ID

COMPILE_MODES = ("default", "max-autotune-no-cudagraphs")
"""``torch.compile`` modes accepted by :func:`compile_decoder_step`."""
CUDA_GRAPH_MODES = ("reduce-overhead", "max-autotune")
"""``torch.compile`` modes that replay CUDA graphs: refused (module docstring)."""


def compile_decoder_step(model, mode: str | None):
    """Replace the decoder step of ``model`` (an :class:`LSTMSeq2Seq` or a
    :class:`~compsem.cogs.seq2seq.grouped_lstm.GroupedLSTM`) by ``torch.compile(..., mode=mode,
    dynamic=True)`` of it (module docstring) and return the model. Batch and source lengths vary
    from batch to batch, hence dynamic shapes: one compilation serves them all. ``mode`` None, or
    a model without a step loop (the Transformers, whose decoder runs in one pass when training):
    the model unchanged."""
    if mode is None:
        return model
    if mode in CUDA_GRAPH_MODES:
        raise ValueError(f"compile_step: mode {mode!r} replays CUDA graphs, whose outputs the "
                         "decoder step's next call overwrites before the backward pass reads them; "
                         f"use one of {', '.join(COMPILE_MODES)}")
    if mode not in COMPILE_MODES:
        raise ValueError(f"compile_step: unknown torch.compile mode {mode!r}; use one of {', '.join(COMPILE_MODES)}")
    if not hasattr(model, "_step"):
        return model
    model._step = torch.compile(model._step, mode=mode, dynamic=True)
    model.compiled_step = mode
    return model


class LSTMSeq2Seq(nn.Module):
    """Uni- or bidirectional LSTM encoder, input-feeding LSTM decoder with global dot attention."""

    source_state = ("memory", "src_mask")
    """The entries of :meth:`encode`'s state that depend on the source alone
    (:mod:`compsem.cogs.seq2seq.decoding`)."""

    def __init__(
        self,
        src_vocab_size: int,
        tgt_vocab_size: int,
        layers: int = 2,
        hidden: int = 512,
        embedding: int = 512,
        dropout: float = 0.1,
        bidirectional: bool = False,
        embedding_dropout: float | None = None,
    ):
        super().__init__()
        if bidirectional and hidden % 2:
            raise ValueError(f"a bidirectional encoder needs an even hidden size, got {hidden}")
        self.layers, self.hidden, self.bidirectional = layers, hidden, bidirectional
        self.src_embedding = nn.Embedding(src_vocab_size, embedding, padding_idx=PAD_ID)
        self.tgt_embedding = nn.Embedding(tgt_vocab_size, embedding, padding_idx=PAD_ID)
        self.encoder = nn.LSTM(
            embedding,
            hidden // 2 if bidirectional else hidden,
            num_layers=layers,
            dropout=dropout if layers > 1 else 0.0,
            batch_first=True,
            bidirectional=bidirectional,
        )
        self.cells = nn.ModuleList(
            nn.LSTMCell(embedding + hidden if i == 0 else hidden, hidden) for i in range(layers)
        )
        self.attention_out = nn.Linear(2 * hidden, hidden, bias=False)
        self.generator = nn.Linear(hidden, tgt_vocab_size)
        self.dropout = nn.Dropout(dropout)
        self.embedding_dropout = nn.Dropout(dropout if embedding_dropout is None else embedding_dropout)

    def embed_target(self, ids: torch.Tensor) -> torch.Tensor:
        """Target embeddings, with the embedding dropout (module docstring)."""
        return self.embedding_dropout(self.tgt_embedding(ids))

    def encode(self, src, src_lengths) -> dict[str, torch.Tensor]:
        """Decoding state, batch first: memory [B, S, H], mask [B, S], decoder states h/c
        [B, layers, H], and the input-feeding vector [B, H] (zeros)."""
        x = self.embedding_dropout(self.src_embedding(src))
        packed = pack_padded_sequence(x, src_lengths.cpu(), batch_first=True, enforce_sorted=False)
        out, (h, c) = self.encoder(packed)
        memory, _ = pad_packed_sequence(out, batch_first=True, total_length=src.shape[1])
        if self.bidirectional:  # [layers*2, B, H/2] -> [layers, B, H]: concat the two directions
            h = torch.cat([h[0::2], h[1::2]], dim=2)
            c = torch.cat([c[0::2], c[1::2]], dim=2)
        return {
            "memory": memory,
            "src_mask": src != PAD_ID,
            "h": h.transpose(0, 1).contiguous(),
            "c": c.transpose(0, 1).contiguous(),
            "feed": memory.new_zeros(src.shape[0], self.hidden),
        }

    def _step(self, embedded: torch.Tensor, state: dict) -> torch.Tensor:
        """One decoder step on embedded inputs [B, E]; updates ``state``; returns h~_t [B, H]."""
        x = torch.cat([embedded, state["feed"]], dim=1)
        hs, cs = [], []
        for i, cell in enumerate(self.cells):
            h, c = cell(x, (state["h"][:, i], state["c"][:, i]))
            hs.append(h)
            cs.append(c)
            x = self.dropout(h) if i + 1 < len(self.cells) else h
        scores = torch.bmm(state["memory"], x.unsqueeze(2)).squeeze(2)  # [B, S]: h_s . h_t
        scores = scores.masked_fill(~state["src_mask"], float("-inf"))
        context = torch.bmm(F.softmax(scores, dim=1).unsqueeze(1), state["memory"]).squeeze(1)
        attentional = self.dropout(torch.tanh(self.attention_out(torch.cat([context, x], dim=1))))
        state["h"], state["c"], state["feed"] = torch.stack(hs, 1), torch.stack(cs, 1), attentional
        return attentional

    def forward(self, src, src_lengths, tgt_in) -> torch.Tensor:
        """Log-probabilities [B, T, V] under teacher forcing (a Python loop over target steps:
        input feeding makes each step depend on the previous attentional state)."""
        state = self.encode(src, src_lengths)
        embedded = self.embed_target(tgt_in)
        outputs = [self._step(embedded[:, t], state) for t in range(tgt_in.shape[1])]
        return F.log_softmax(self.generator(torch.stack(outputs, 1)).float(), dim=-1)

    def step(self, tokens: torch.Tensor, state: dict, position: int):
        """Log-probabilities [B, V] of the token after ``tokens`` [B]; updates ``state``."""
        out = self._step(self.embed_target(tokens), state)
        return F.log_softmax(self.generator(out).float(), dim=-1), state
