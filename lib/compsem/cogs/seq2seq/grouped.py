"""Several seeds of one COGS configuration trained as one batched model, so that a small model
fills a GPU instead of time-slicing it with its siblings: the stacked model and its batches.

The members are built as their runs build them (``torch.manual_seed(seed)``, then the model),
their weights stacked (``torch.func.stack_module_state``) and run as one model
(:func:`group_model`): Transformers with ``torch.func.vmap`` over ``functional_call``, the LSTMs
(whose packed sequences vmap cannot run) with grouped weights written out
(:class:`~compsem.cogs.seq2seq.grouped_lstm.GroupedLSTM`); dropout is drawn per member. The
training loop is the trainer's, one for a run and for a group
(:func:`compsem.cogs.seq2seq.trainer.train_group`; a group of one is a run). Each member keeps
what makes it its seed's run:

- its own batches: its seed's length-bucketed epochs, an update's ``accum_count`` batches fused
  into one forward pass (as the trainer does on a GPU); the members' batches are padded to one
  shape (:func:`stacked_batch`), padding the loss ignores;
- its own loss (summed over its target tokens, divided by its sentences), its own gradient-norm
  clip, and Adam on its own weights (one Adam over the stacked weights: Adam is elementwise;
  :func:`member_optimizer_state` and :func:`stacked_optimizer_state` move between the stacked
  state and each run's);
- its own validations, best weights and early stopping: a member that stops is frozen (its weights
  are put back after every later step) while the others go on;
- its own checkpoints, in the trainer's format (``last.pt``, ``best.pt`` in the run's checkpoint
  folder): a finished member is decoded by :func:`compsem.cogs.seq2seq.experiment.train_and_decode` like any
  run, and an unfinished one can be resumed alone by the trainer.

What differs from training the seeds one by one: the dropout masks (one generator draws every
member's), rounding (fused batches, padding), and the wall time, which the members share; each
member's ``TrainState.group_seeds`` names the seeds it trained with, and its metrics say so.
``benchmarks/bench_cogs_group.py`` measures the speed-up and checks that a member's gradient in
the group is its run's.
Chapter 5's two stages train as groups through
:func:`compsem.cogs.seq2seq.two_stage.train_two_stage_group`; the commands' ``--group`` uses both.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import torch
import torch.nn.functional as F

from compsem.cogs.seq2seq import batching
from compsem.cogs.seq2seq.transformer import GROUP_ATTENTION_BACKENDS, Attention
from compsem.cogs.seq2seq.vocab import PAD_ID


def groupable(configs: list[dict]) -> list[list[dict]]:
    """``configs`` in groups that differ only in their seed, in the order of their first member."""
    groups: dict[str, list[dict]] = {}
    for cfg in configs:
        key = json.dumps({k: v for k, v in cfg.items() if k != "seed"}, sort_keys=True)
        groups.setdefault(key, []).append(cfg)
    return list(groups.values())


def check_group(configs: list[dict]) -> None:
    """Raise ValueError unless ``configs`` differ only in their seeds, which differ."""
    if not configs:
        raise ValueError("a group needs at least one configuration")
    rest = {json.dumps({k: v for k, v in c.items() if k != "seed"}, sort_keys=True) for c in configs}
    if len(rest) > 1:
        raise ValueError("configurations trained as one group must differ only in their seed")
    seeds = [c["seed"] for c in configs]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"a group's seeds must differ, got {seeds}")


def stacked_batch(pairs: batching.Pairs, indices: list[np.ndarray], device):
    """The members' batches (rows ``indices[k]`` of ``pairs``) padded to one shape: ``(src,
    src_lengths, tgt_in, tgt_out)`` as [K, B, ...] tensors on ``device``. Padding rows read one
    source token (so that no row attends over nothing) and no target (the loss ignores them)."""
    return stacked_batch_of([pairs] * len(indices), indices, device)


def stacked_batch_of(pairs: list[batching.Pairs], indices: list[np.ndarray], device):
    """:func:`stacked_batch` with each member's rows taken from its own ``pairs[k]``."""
    batches = [batching.collate(p, idx) for p, idx in zip(pairs, indices, strict=True)]
    rows = max(len(b.src) for b in batches)
    src_len = max(b.src.shape[1] for b in batches)
    tgt_len = max(b.tgt_in.shape[1] for b in batches)

    def fit(x, length):
        x = F.pad(x, (0, length - x.shape[1]), value=PAD_ID)
        return torch.cat([x, x.new_full((rows - len(x), length), PAD_ID)]) if len(x) < rows else x

    src = torch.stack([fit(b.src, src_len) for b in batches])
    src[:, :, 0] = torch.where(src[:, :, 0] == PAD_ID, PAD_ID + 3, src[:, :, 0])
    lengths = torch.stack([torch.cat([b.src_lengths, b.src_lengths.new_ones(rows - len(b.src))])
                           for b in batches])
    tgt_in = torch.stack([fit(b.tgt_in, tgt_len) for b in batches])
    tgt_out = torch.stack([fit(b.tgt_out, tgt_len) for b in batches])
    return src.to(device), lengths.to(device), tgt_in.to(device), tgt_out.to(device)


def group_model(models: list[torch.nn.Module]):
    """K models of one architecture as one: :class:`GroupModel` (vmap) for Transformers,
    :class:`~compsem.cogs.seq2seq.grouped_lstm.GroupedLSTM` for the LSTMs."""
    from compsem.cogs.seq2seq.lstm import LSTMSeq2Seq

    if isinstance(models[0], LSTMSeq2Seq):
        from compsem.cogs.seq2seq.grouped_lstm import GroupedLSTM

        return GroupedLSTM(models)
    return GroupModel(models)


class GroupModel:
    """K models of one architecture as one: stacked weights and a vmapped forward pass."""

    def __init__(self, models: list[torch.nn.Module]):
        from torch.func import stack_module_state

        self.k = len(models)
        self.params, self.buffers = stack_module_state(models)
        self.base = copy.deepcopy(models[0]).to("meta")
        for module in self.base.modules():
            if isinstance(module, Attention):
                module.backends = GROUP_ATTENTION_BACKENDS

    def __call__(self, src, src_lengths, tgt_in) -> torch.Tensor:
        """Log-probabilities [K, B, T, V]: member k on row k of each input."""
        from torch.func import functional_call, vmap

        def member(params, buffers, s, n, y):
            return functional_call(self.base, (params, buffers), (s, n, y))

        return vmap(member, randomness="different")(self.params, self.buffers, src, src_lengths, tgt_in)

    def train(self, mode: bool = True) -> GroupModel:
        self.base.train(mode)
        return self

    def member_state(self, k: int) -> dict[str, torch.Tensor]:
        """Member ``k``'s weights and buffers as a state dict (detached copies)."""
        return {name: t[k].detach().clone() for name, t in {**self.params, **self.buffers}.items()}


def member_optimizer_state(optimizer: torch.optim.Optimizer, k: int) -> dict:
    """Member ``k``'s slice of the stacked Adam state, as its own run's optimizer state dict."""
    full = optimizer.state_dict()
    state = {i: {name: (v[k].clone() if name != "step" else v.clone()) for name, v in s.items()}
             for i, s in full["state"].items()}
    return {"state": state, "param_groups": full["param_groups"]}


def stacked_optimizer_state(saved: list[dict]) -> dict:
    """The members' saved Adam states (same steps) stacked into one state dict."""
    first = saved[0]
    state = {i: {name: (torch.stack([s["state"][i][name] for s in saved]) if name != "step" else v.clone())
                 for name, v in first["state"][i].items()}
             for i in first["state"]}
    return {"state": state, "param_groups": first["param_groups"]}
