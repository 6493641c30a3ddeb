"""K LSTM encoder-decoders (:class:`compsem.cogs.seq2seq.lstm.LSTMSeq2Seq`, one per seed) as one
model with grouped weights: every matrix product is a batched product over the members, so that
one kernel launch of the step-by-step decoder serves K models.

``torch.func.vmap`` cannot run the LSTMs (packed sequences), so the forward pass is written out
with stacked weights under the single model's parameter names (a member's weights load into an
``LSTMSeq2Seq`` as they are). It computes what ``LSTMSeq2Seq.forward`` computes, up to rounding:

- the encoder LSTM (PyTorch's gates ``i, f, g, o`` of ``x W_ih^T + b_ih + h W_hh^T + b_hh``),
  layer by layer, forward and (bidirectional) backward in time, with dropout between layers;
  a padded position leaves the state as it was and outputs zeros, which is what packing the
  sequences does: each row's final state is its state at its own last token, and the backward
  direction starts at that token;
- the input-feeding decoder: the stacked cells, global dot attention over the unpadded source,
  ``tanh(W_c [c_t; h_t])`` with dropout, and the generator's log-softmax.

Dropout draws one mask per member (elementwise), so members are trained as their runs would be
up to the draws. Tested against ``LSTMSeq2Seq`` member by member (outputs and gradients).
"""

from __future__ import annotations

import copy

import torch
import torch.nn.functional as F

from compsem.cogs.seq2seq.vocab import PAD_ID


def _linear(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
    """``x W^T + b`` for each member: x [K, N, in], weight [K, out, in], bias [K, out]."""
    if bias is None:
        return torch.bmm(x, weight.transpose(1, 2))
    return torch.baddbmm(bias.unsqueeze(1), x, weight.transpose(1, 2))


def _gates(pre: torch.Tensor, c: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """PyTorch's LSTM update from the pre-activations ``pre`` [..., 4H] and the cell state."""
    i, f, g, o = pre.chunk(4, dim=-1)
    c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c), c


class GroupedLSTM:
    """K ``LSTMSeq2Seq`` models as one; the interface of :class:`.grouped.GroupModel`."""

    def __init__(self, models: list[torch.nn.Module]):
        from torch.func import stack_module_state

        first = models[0]
        self.k = len(models)
        self.layers, self.hidden, self.bidirectional = first.layers, first.hidden, first.bidirectional
        self.dropout_p = first.dropout.p
        self.embedding_dropout_p = first.embedding_dropout.p
        self.params, self.buffers = stack_module_state(models)
        self.base = copy.deepcopy(first).to("meta")  # holds the train/eval mode
        self.training = True

    def train(self, mode: bool = True) -> GroupedLSTM:
        self.training = mode
        self.base.train(mode)
        return self

    def member_state(self, k: int) -> dict[str, torch.Tensor]:
        """Member ``k``'s weights as an ``LSTMSeq2Seq`` state dict (detached copies)."""
        return {name: t[k].detach().clone() for name, t in self.params.items()}

    def _dropout(self, x: torch.Tensor, p: float) -> torch.Tensor:
        return F.dropout(x, p, self.training) if p > 0 else x

    def _embed(self, name: str, ids: torch.Tensor) -> torch.Tensor:
        """Rows ``ids`` [K, ...] of each member's embedding table ``name``."""
        table = self.params[f"{name}.weight"]
        members = torch.arange(self.k, device=ids.device).view(-1, *([1] * (ids.dim() - 1)))
        return self._dropout(table[members, ids], self.embedding_dropout_p)

    def _run_direction(self, x: torch.Tensor, mask: torch.Tensor, suffix: str, reverse: bool):
        """One encoder layer in one direction: outputs [K, B, S, h] (zeros where padded) and the
        final h, c [K, B, h]."""
        p = self.params
        k, b, s, _ = x.shape
        pre_x = _linear(x.reshape(k, b * s, -1), p[f"encoder.weight_ih{suffix}"], p[f"encoder.bias_ih{suffix}"])
        pre_x = pre_x.reshape(k, b, s, -1)
        size = p[f"encoder.weight_hh{suffix}"].shape[2]
        h = x.new_zeros(k, b, size)
        c = x.new_zeros(k, b, size)
        outputs = [None] * s
        for t in (range(s - 1, -1, -1) if reverse else range(s)):
            pre = pre_x[:, :, t] + _linear(h, p[f"encoder.weight_hh{suffix}"], p[f"encoder.bias_hh{suffix}"])
            h_new, c_new = _gates(pre, c)
            keep = mask[:, :, t].unsqueeze(-1)
            h, c = torch.where(keep, h_new, h), torch.where(keep, c_new, c)
            outputs[t] = torch.where(keep, h_new, torch.zeros_like(h_new))
        return torch.stack(outputs, dim=2), h, c

    def encode(self, src: torch.Tensor) -> dict[str, torch.Tensor]:
        """The decoding state, members first: memory [K, B, S, H], src_mask [K, B, S], h and c
        [K, B, layers, H], feed [K, B, H]."""
        mask = src != PAD_ID
        x = self._embed("src_embedding", src)
        hs, cs = [], []
        for layer in range(self.layers):
            if layer:
                x = self._dropout(x, self.dropout_p)
            out, h, c = self._run_direction(x, mask, f"_l{layer}", reverse=False)
            if self.bidirectional:
                out_r, h_r, c_r = self._run_direction(x, mask, f"_l{layer}_reverse", reverse=True)
                out, h, c = torch.cat([out, out_r], -1), torch.cat([h, h_r], -1), torch.cat([c, c_r], -1)
            x = out
            hs.append(h)
            cs.append(c)
        return {"memory": x, "src_mask": mask, "h": torch.stack(hs, 2), "c": torch.stack(cs, 2),
                "feed": x.new_zeros(x.shape[0], x.shape[1], self.hidden)}

    def _step(self, embedded: torch.Tensor, state: dict) -> torch.Tensor:
        """One decoder step on embedded inputs [K, B, E]; updates ``state``; returns h~_t."""
        p = self.params
        x = torch.cat([embedded, state["feed"]], dim=-1)
        hs, cs = [], []
        for i in range(self.layers):
            pre = (_linear(x, p[f"cells.{i}.weight_ih"], p[f"cells.{i}.bias_ih"])
                   + _linear(state["h"][:, :, i], p[f"cells.{i}.weight_hh"], p[f"cells.{i}.bias_hh"]))
            h, c = _gates(pre, state["c"][:, :, i])
            hs.append(h)
            cs.append(c)
            x = self._dropout(h, self.dropout_p) if i + 1 < self.layers else h
        k, b, s, size = state["memory"].shape
        memory = state["memory"].reshape(k * b, s, size)
        scores = torch.bmm(memory, x.reshape(k * b, size, 1)).squeeze(2)  # h_s . h_t
        scores = scores.masked_fill(~state["src_mask"].reshape(k * b, s), float("-inf"))
        context = torch.bmm(F.softmax(scores, dim=1).unsqueeze(1), memory).reshape(k, b, size)
        attentional = torch.tanh(_linear(torch.cat([context, x], dim=-1), p["attention_out.weight"]))
        attentional = self._dropout(attentional, self.dropout_p)
        state["h"], state["c"], state["feed"] = torch.stack(hs, 2), torch.stack(cs, 2), attentional
        return attentional

    def __call__(self, src, src_lengths, tgt_in) -> torch.Tensor:
        """Log-probabilities [K, B, T, V] under teacher forcing: member k on row k of each input
        (``src_lengths`` is not needed: padding is read off ``src``)."""
        state = self.encode(src)
        embedded = self._embed("tgt_embedding", tgt_in)
        outputs = torch.stack([self._step(embedded[:, :, t], state) for t in range(tgt_in.shape[2])], 2)
        k, b, t, size = outputs.shape
        logits = _linear(outputs.reshape(k, b * t, size), self.params["generator.weight"],
                         self.params["generator.bias"])
        return F.log_softmax(logits.reshape(k, b, t, -1).float(), dim=-1)
