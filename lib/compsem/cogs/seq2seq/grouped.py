"""Several seeds of one COGS configuration trained as one batched model, so that a small model
fills a GPU instead of time-slicing it with its siblings.

The members are built as their runs build them (``torch.manual_seed(seed)``, then the model),
their weights stacked (``torch.func.stack_module_state``) and run as one model
(:func:`group_model`): Transformers with ``torch.func.vmap`` over ``functional_call``, the LSTMs
(whose packed sequences vmap cannot run) with grouped weights written out
(:class:`~compsem.cogs.seq2seq.grouped_lstm.GroupedLSTM`); dropout is drawn per member. Each member keeps what
makes it its seed's run (:func:`compsem.cogs.seq2seq.trainer.train`'s protocol):

- its own batches: its seed's length-bucketed epochs, an update's ``accum_count`` batches fused
  into one forward pass (as the trainer does on a GPU); the members' batches are padded to one
  shape (:func:`stacked_batch`), padding the loss ignores;
- its own loss (summed over its target tokens, divided by its sentences), its own gradient-norm
  clip, and Adam on its own weights (one Adam over the stacked weights: Adam is elementwise);
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
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from compsem.cogs.seq2seq import batching, trainer
from compsem.cogs.seq2seq.config import build_model, training_hash
from compsem.cogs.seq2seq.lstm import compile_decoder_step
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


def group_update(group, optimizer: torch.optim.Optimizer, chunks: list[tuple], sentences: list[int],
                 active: list[bool], t: dict, amp: bool, device, step: bool = True) -> list[tuple[float, int]]:
    """One update of every active member: forward and backward on each of ``chunks`` (tensors
    from :func:`stacked_batch`: one fused batch per member, or an update's batches one by one),
    each member's loss divided by its ``sentences``; then each member's gradient clipped by its
    own norm and one Adam step. Returns each member's (training loss per sentence, target
    tokens), (0.0, 0) when inactive. Inactive members' weights are put back after the step.
    ``step=False`` stops before the optimizer, leaving the clipped gradients in ``.grad``."""
    losses = [0.0] * group.k
    tokens = [0] * group.k
    group.train()
    for src, lengths, tgt_in, tgt_out in chunks:
        with trainer.autocast(device, amp):
            logprobs = group(src, lengths, tgt_in)
        total = 0.0
        for k in range(group.k):
            if active[k]:
                loss, n = trainer.sequence_loss(logprobs[k], tgt_out[k], t["label_smoothing"])
                total = total + loss / sentences[k]
                losses[k] += float(loss.detach()) / sentences[k]
                tokens[k] += n
        total.backward()
    grads = [p.grad for p in group.params.values()]
    if t["clip"] > 0:  # each member's own norm, as clip_grad_norm_ on its model
        norms = torch.stack([g.reshape(group.k, -1).float().pow(2).sum(1) for g in grads]).sum(0).sqrt()
        scale = (t["clip"] / (norms + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(scale.view(-1, *([1] * (g.dim() - 1))).to(g.dtype))
    out = list(zip(losses, tokens, strict=True))
    if not step:
        return out
    frozen = [k for k in range(group.k) if not active[k]]
    kept = {name: p.detach()[frozen].clone() for name, p in group.params.items()} if frozen else {}
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    with torch.no_grad():
        for name, values in kept.items():
            group.params[name][frozen] = values
    return out


def _member_optimizer_state(optimizer: torch.optim.Optimizer, k: int) -> dict:
    """Member ``k``'s slice of the stacked Adam state, as its own run's optimizer state dict."""
    full = optimizer.state_dict()
    state = {i: {name: (v[k].clone() if name != "step" else v.clone()) for name, v in s.items()}
             for i, s in full["state"].items()}
    return {"state": state, "param_groups": full["param_groups"]}


def _stacked_optimizer_state(saved: list[dict]) -> dict:
    """The members' saved Adam states (same steps) stacked into one state dict."""
    first = saved[0]
    state = {i: {name: (torch.stack([s["state"][i][name] for s in saved]) if name != "step" else v.clone())
                 for name, v in first["state"][i].items()}
             for i in first["state"]}
    return {"state": state, "param_groups": first["param_groups"]}


def train_group(
    configs: list[dict],
    train_pairs: batching.Pairs | list[batching.Pairs],
    dev_pairs: batching.Pairs | list[batching.Pairs],
    src_vocab_size: int,
    tgt_vocab_size: int,
    checkpoint_dirs: list[Path],
    device="auto",
    amp: bool = True,
    progress: bool = True,
    stop_after: int | None = None,
    deadline: float | None = None,
    log=None,
    init_weights: list[dict | None] | None = None,
    init_optimizer: list[dict] | None = None,
    fuse: bool | None = None,
    compile_step: str | None = None,
) -> list[trainer.TrainState]:
    """Train the members ``configs`` (one seed each, :func:`check_group`) as one model and write
    each member's checkpoints into its ``checkpoint_dirs`` entry; returns their TrainStates.

    ``train_pairs``/``dev_pairs``: one set for every member, or one per member (the auxiliary
    task's denoising corrupts with the seed). ``init_weights``: per member, a state dict that
    replaces its random initialisation when it has no ``last.pt`` yet (the COGS stage after an
    auxiliary task); ``init_optimizer``: per member, the Adam state and update count it
    continues from (:data:`~compsem.cogs.seq2seq.trainer.BEST_OPTIMIZER`; all at the same
    update, as one learning rate serves the group). ``fuse``: an update's batches in one forward pass (default on a GPU) or
    one by one (less memory; the same gradient up to rounding), as the trainer's.
    ``compile_step``: a ``torch.compile`` mode for the grouped LSTM decoder step, as the
    trainer's (:func:`~compsem.cogs.seq2seq.lstm.compile_decoder_step`).

    Members whose run has finished are left alone. The others start fresh, or resume together
    from their ``last.pt`` when all have one at the same update (a group run interrupted by
    ``stop_after`` or a ``deadline``, as in :func:`~compsem.cogs.seq2seq.trainer.train`: at the
    first update past the deadline);
    members at different updates are an error (resume them one by one with the trainer).
    """
    from compsem.devices import resolve_device

    check_group(configs)
    per_member = {"checkpoint_dirs": checkpoint_dirs,
                  "train_pairs": train_pairs if isinstance(train_pairs, list) else [train_pairs] * len(configs),
                  "dev_pairs": dev_pairs if isinstance(dev_pairs, list) else [dev_pairs] * len(configs),
                  "init_weights": init_weights if init_weights is not None else [None] * len(configs),
                  "init_optimizer": init_optimizer if init_optimizer is not None else [None] * len(configs)}
    for name, values in per_member.items():
        if len(values) != len(configs):
            raise ValueError(f"{name}: one per configuration ({len(configs)}), got {len(values)}")
    device = torch.device(resolve_device(device)) if isinstance(device, str) else device
    fuse = device.type == "cuda" if fuse is None else fuse
    t = configs[0]["training"]
    seeds = [c["seed"] for c in configs]
    out_of_time = deadline is not None and time.time() >= deadline
    members, saved = [], []
    for i, (cfg, folder) in enumerate(zip(configs, checkpoint_dirs, strict=True)):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text(json.dumps(cfg, indent=1, sort_keys=True))
        last = folder / "last.pt"
        checkpoint = trainer.load_checkpoint(last, "cpu") if last.exists() else None
        if checkpoint is not None and checkpoint["training_hash"] != training_hash(cfg):
            raise RuntimeError(f"{last} belongs to another configuration; remove {folder}")
        state = trainer.TrainState(**checkpoint["state"]) if checkpoint else None
        if state is not None and state.done and not (state.stop_reason == "time limit" and not out_of_time):
            continue  # finished: decoded as it is
        members.append((cfg, folder, i))
        saved.append(checkpoint)
    if not members:
        return [trainer.TrainState(**trainer.load_checkpoint(Path(f) / "last.pt", "cpu")["state"])
                for f in checkpoint_dirs]
    resumed = [s is not None for s in saved]
    steps = {s["state"]["step"] for s in saved if s is not None}
    if any(resumed) and (not all(resumed) or len(steps) > 1):
        raise ValueError(f"the members of seeds {[m[0]['seed'] for m in members]} stand at different "
                         f"updates; resume them one by one (train without a group)")
    starts = [per_member["init_optimizer"][i] for _, _, i in members]
    continued = not any(resumed) and all(s is not None for s in starts)
    if continued and len({int(s["step"]) for s in starts}) > 1:
        raise ValueError(f"the members of seeds {[m[0]['seed'] for m in members]} continue from "
                         f"different updates ({sorted(int(s['step']) for s in starts)}); group "
                         f"only members that start at the same update")

    models, states = [], []
    for (cfg, _, i), checkpoint in zip(members, saved, strict=True):
        torch.manual_seed(cfg["seed"])
        model = build_model(cfg, src_vocab_size, tgt_vocab_size)
        if checkpoint is None and per_member["init_weights"][i] is not None:
            model.load_state_dict(per_member["init_weights"][i])
        if checkpoint is not None:
            model.load_state_dict(checkpoint["model"])
            state = trainer.TrainState(**checkpoint["state"])
            state.done, state.stop_reason = False, ""
        else:
            state = trainer.TrainState(group_seeds=seeds)
            if continued:
                state.step = state.start_step = int(starts[0]["step"])
        models.append(model.to(device))
        states.append(state)
    group = compile_decoder_step(group_model(models), compile_step)
    scratch = models[0]  # a real model to validate and save one member at a time
    keys = set(scratch.state_dict())
    optimizer = torch.optim.Adam(list(group.params.values()), lr=t["lr"], betas=(t["beta1"], t["beta2"]),
                                 eps=t["eps"], fused=device.type == "cuda")
    if all(resumed):
        optimizer.load_state_dict(_stacked_optimizer_state([s["optimizer"] for s in saved]))
        trainer._set_rng_state(saved[0]["rng"], device)
    else:
        if continued:
            optimizer.load_state_dict(_stacked_optimizer_state([s["optimizer"] for s in starts]))
        torch.manual_seed(members[0][0]["seed"])
    member_pairs = [per_member["train_pairs"][i] for _, _, i in members]
    streams = [trainer._batch_stream(pairs, t["batch_size"], cfg["seed"], s.epoch, s.position)
               for pairs, (cfg, _, _), s in zip(member_pairs, members, states, strict=True)]
    dim, updates_here = trainer.model_dim(members[0][0]), 0
    bar = trainer._progress_bar(progress, t["max_steps"], states[0].step)
    while not all(s.done for s in states):
        start = time.perf_counter()
        active = [not s.done for s in states]
        parts, sentences = [], []  # per member: the update's batches (fused: one)
        for k, stream in enumerate(streams):
            if active[k]:
                groups = [next(stream) for _ in range(t["accum_count"])]
                states[k].epoch, states[k].position = groups[-1][0], groups[-1][1]
                batches = [g[2] for g in groups]
                parts.append([np.concatenate(batches)] if fuse else batches)
            else:  # a frozen member computes on a copy of a batch; its loss is not used
                parts.append(None)
            sentences.append(0 if parts[-1] is None else sum(len(b) for b in parts[-1]))
        first = next(k for k, p in enumerate(parts) if p is not None)  # the frozen members' stand-in
        pairs_now = [member_pairs[k] if p is not None else member_pairs[first] for k, p in enumerate(parts)]
        parts = [parts[first] if p is None else p for p in parts]
        chunks = [stacked_batch_of(pairs_now, [p[c] for p in parts], device) for c in range(len(parts[first]))]
        step = next(s.step for s in states if not s.done) + 1
        for group_ in optimizer.param_groups:
            group_["lr"] = trainer.noam_lr(step, t["lr"], dim, t["warmup"])
        losses = group_update(group, optimizer, chunks, sentences, active, t, amp, device)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        seconds = time.perf_counter() - start
        for k, state in enumerate(states):
            if active[k]:
                state.step, state.train_seconds = step, state.train_seconds + seconds
                state.target_tokens += losses[k][1]
        updates_here += 1
        bar.update(1)
        if step % t["valid_every"] == 0 or step >= t["max_steps"]:
            for k, ((cfg, folder, i), state) in enumerate(zip(members, states, strict=True)):
                if state.done:
                    continue
                scratch.load_state_dict({n: v for n, v in group.member_state(k).items() if n in keys})
                loss, improved = trainer.validate(scratch, cfg, folder, state, _member_optimizer_state(optimizer, k),
                                                   per_member["dev_pairs"][i], device, deadline, losses[k][0])
                if log is not None:
                    log(f"seed {cfg['seed']} step {state.step}: dev loss {loss:.4f}{' (best)' if improved else ''}")
        elif deadline is not None and time.time() >= deadline:  # between validations
            for k, ((cfg, folder, _), state) in enumerate(zip(members, states, strict=True)):
                if not state.done:
                    scratch.load_state_dict({n: v for n, v in group.member_state(k).items() if n in keys})
                    trainer.cut(scratch, cfg, folder, state, _member_optimizer_state(optimizer, k), device)
            if log is not None:
                log(f"step {step}: time limit; checkpoints saved")
        if stop_after is not None and updates_here >= stop_after and not all(s.done for s in states):
            break
    bar.close()
    by_folder = {str(folder): state for (_, folder, _), state in zip(members, states, strict=True)}
    return [by_folder.get(str(Path(f))) or
            trainer.TrainState(**trainer.load_checkpoint(Path(f) / "last.pt", "cpu")["state"])
            for f in checkpoint_dirs]
