"""Training with the released scripts' protocol, checkpoints and resume (Kim 2021, Section 4.5.1).

- **Loss.** Token cross-entropy; with label smoothing ``eps`` (Transformers, 0.1) the target
  distribution is ``1 - eps`` on the gold token and ``eps / (V - 2)`` on every other token except
  padding, as OpenNMT-py's ``LabelSmoothingLoss``; the KL divergence to it differs from
  :func:`sequence_loss` only by a constant. The sum over an update's tokens is divided by its
  number of sentences (``-normalization sents``).
- **Updates.** ``accum_count`` batches of ``batch_size`` sentences per Adam update (Kingma & Ba
  2015), with the noam learning rate (:func:`noam_lr`, Vaswani et al. 2017, Eq. 3 scaled by
  ``lr``), gradient-norm clipping when ``clip`` > 0.
- **Early stopping.** Every ``valid_every`` updates the per-token dev cross-entropy (no
  smoothing; in float32, outside the updates' bfloat16 autocast: :func:`dev_loss`) is measured;
  after ``patience`` validations without a new minimum, or at ``max_steps``, training stops and
  the weights of the best validation are kept ("early stopping when loss on the development set
  did not improve for five steps (step size = 500)").
- **Checkpoints.** Every validation writes ``last.pt`` (weights, optimiser, step, position in the
  epoch, random-number state) and, on a new best, ``best.pt`` (and, in an auxiliary stage of
  Chapter 5, :data:`BEST_OPTIMIZER`: the Adam state and update count there, from which the COGS
  stage may continue as OpenNMT-py's ``-train_from`` does). :func:`train` resumes from
  ``last.pt``: the batch order of an epoch depends only on ``(seed, epoch)`` and the RNG state is
  restored, so a resumed CPU run ends with exactly the weights of an uninterrupted one.
- **Weights over training** (``keep_every`` > 0; not part of the paper's protocol): the weights
  after every ``keep_every``-th update are kept in ``updates/step_<n>/`` beside the checkpoints,
  in shards of at most :data:`SHARD_BYTES` (:func:`save_sharded`), so that accuracy can be traced
  over training updates (training-length sensitivity, Csordas et al. 2021;
  :mod:`compsem.cogs.seq2seq.curve`). A resumed run re-creates any it had not finished.
- **One loop for a run and for a seed group.** :func:`train_group` trains seeds of one
  configuration as one batched model (:mod:`compsem.cogs.seq2seq.grouped`), each keeping its own
  batches, loss, clip, Adam state, validations, early stopping and checkpoints; :func:`train` is
  the group of one, which trains its model as itself (its batches as collated, torch's
  gradient-norm clip), so that a run trained either way has the same weights to the bit.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import os
import pickle
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import torch

from compsem.cogs.seq2seq import batching
from compsem.cogs.seq2seq.config import build_model, training_hash
from compsem.cogs.seq2seq.grouped import (
    check_group,
    group_model,
    member_optimizer_state,
    stacked_batch_of,
    stacked_optimizer_state,
)
from compsem.cogs.seq2seq.lstm import compile_decoder_step
from compsem.cogs.seq2seq.vocab import PAD_ID
from compsem.data.registry import sha256_of
from compsem.devices import resolve_device

BEST_OPTIMIZER = "best_optimizer.pt"
"""Beside an auxiliary stage's ``best.pt``: ``{"optimizer": Adam state dict, "step": update}``
at its best validation (``config["stage"] == "auxiliary"``: :func:`~compsem.cogs.seq2seq.
auxiliary_config.stage_one_config`)."""


def noam_lr(step: int, lr: float, model_dim: int, warmup: int) -> float:
    """``lr * d^-0.5 * min(step^-0.5, step * warmup^-1.5)`` (Vaswani et al. 2017, Eq. 3, with
    OpenNMT-py's factor ``lr``; the scripts use lr 2, warm-up 4000, d = 512)."""
    step = max(step, 1)
    return lr * model_dim**-0.5 * min(step**-0.5, step * warmup**-1.5)


def model_dim(config: dict) -> int:
    """The size noam scales by: ``d_model`` (Transformer) or the hidden size (LSTM)."""
    arch = config["architecture"]
    return int(arch.get("d_model", arch.get("hidden", 512)))


def sequence_loss(logprobs: torch.Tensor, targets: torch.Tensor, smoothing: float = 0.0):
    """Summed loss and number of target tokens; ``logprobs`` [B, T, V], ``targets`` [B, T] with
    padding ignored. With ``smoothing`` eps: ``-(1-eps) log p(gold) - eps/(V-2) sum_{v != gold,
    pad} log p(v)``."""
    logprobs = logprobs.reshape(-1, logprobs.shape[-1])
    targets = targets.reshape(-1)
    keep = targets != PAD_ID
    logprobs, targets = logprobs[keep], targets[keep]
    gold = logprobs.gather(1, targets[:, None]).squeeze(1)
    if smoothing <= 0:
        return -gold.sum(), int(keep.sum())
    vocab = logprobs.shape[1]
    others = logprobs.sum(1) - gold - logprobs[:, PAD_ID]
    loss = -((1 - smoothing) * gold + smoothing / (vocab - 2) * others)
    return loss.sum(), int(keep.sum())


def autocast(device: torch.device, amp: bool):
    """bfloat16 autocast on CUDA when ``amp``; nothing otherwise."""
    if amp and device.type == "cuda":
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return nullcontext()


def full_precision(device):
    """A context in which no autocast of ``device``'s type applies, not even an enclosing one."""
    kind = torch.device(device).type
    if torch.amp.is_autocast_available(kind):
        return torch.autocast(kind, enabled=False)
    return nullcontext()


@torch.no_grad()
def dev_loss(model, pairs: batching.Pairs, device, batch_size: int = 256) -> float:
    """Per-token cross-entropy (no smoothing) on ``pairs``, the early-stopping criterion, always
    in float32: the forward passes run outside any autocast (the training updates' bfloat16
    autocast, ``amp``, included), so the update whose weights are kept is chosen on full-precision
    losses. On a CPU, where :func:`autocast` does nothing, this is the loss it always was."""
    model.eval()
    total, tokens = 0.0, 0
    for idx in batching.sorted_batches(pairs.tgt_lengths, batch_size):
        batch = batching.collate(pairs, idx).to(device)
        with full_precision(batch.src.device):
            logprobs = model(batch.src, batch.src_lengths, batch.tgt_in)
            loss, n = sequence_loss(logprobs.float(), batch.tgt_out)
        total, tokens = total + float(loss), tokens + n
    return total / max(tokens, 1)


@dataclasses.dataclass
class TrainState:
    """Progress of a run (saved in ``last.pt``)."""

    step: int = 0
    start_step: int = 0  # the update count it started from (continued from an auxiliary stage)
    epoch: int = 0
    position: int = 0  # batches of the current epoch already used
    best_loss: float = math.inf
    best_step: int = 0
    bad_validations: int = 0
    history: list = dataclasses.field(default_factory=list)
    train_seconds: float = 0.0
    target_tokens: int = 0
    done: bool = False
    stop_reason: str = ""
    group_seeds: list = dataclasses.field(default_factory=list)  # trained as one model with these


def validate(model, config: dict, checkpoint_dir: Path, state: TrainState, optimizer_state: dict,
             dev_pairs: batching.Pairs, device, deadline: float | None,
             train_loss: float) -> tuple[float, bool]:
    """One validation of the protocol: the dev loss (the early-stopping criterion, in float32
    whatever autocast the updates use: :func:`dev_loss`), ``best.pt``
    when it improved, a row of ``state.history``, the stopping rule (``patience`` validations
    without improvement, ``max_steps``, or ``deadline``: stop reason "time limit") and
    ``last.pt`` (weights, ``optimizer_state``, state, RNG). Returns (dev loss, improved)."""
    t = config["training"]
    loss = dev_loss(model, dev_pairs, device)
    improved = loss < state.best_loss
    if improved:
        state.best_loss, state.best_step, state.bad_validations = loss, state.step, 0
        _save(Path(checkpoint_dir) / "best.pt", model.state_dict())
        if config.get("stage") == "auxiliary":
            _save(Path(checkpoint_dir) / BEST_OPTIMIZER, {"optimizer": optimizer_state, "step": state.step})
    else:
        state.bad_validations += 1
    state.history.append(
        {
            "step": state.step,
            "epoch": state.epoch,
            "dev_loss": loss,
            "train_loss": train_loss,
            "lr": noam_lr(state.step, t["lr"], model_dim(config), t["warmup"]),
            "train_seconds": round(state.train_seconds, 2),
        }
    )
    if state.bad_validations >= t["patience"]:
        state.done, state.stop_reason = True, "early stopping"
    elif state.step >= t["max_steps"]:
        state.done, state.stop_reason = True, "max_steps"
    elif deadline is not None and time.time() >= deadline:
        state.done, state.stop_reason = True, "time limit"
    _save_last(model, config, checkpoint_dir, state, optimizer_state, device)
    return loss, improved


def cut(model, config: dict, checkpoint_dir: Path, state: TrainState, optimizer_state: dict,
        device) -> None:
    """End training at a time limit between validations: ``last.pt`` as :func:`validate` writes
    it (weights, ``optimizer_state``, state, RNG), with stop reason "time limit", but no dev loss,
    history row or ``best.pt``: the validations stay those of the protocol's schedule, so a later
    call resumes to the weights of an uninterrupted run. The run is decoded with its best weights
    so far (:func:`_best_weights`)."""
    state.done, state.stop_reason = True, "time limit"
    _save_last(model, config, checkpoint_dir, state, optimizer_state, device)


def _save_last(model, config: dict, checkpoint_dir: Path, state: TrainState, optimizer_state: dict,
               device) -> None:
    """``last.pt``: weights, ``optimizer_state``, state, RNG and the training hash."""
    _save(
        Path(checkpoint_dir) / "last.pt",
        {
            "model": model.state_dict(),
            "optimizer": optimizer_state,
            "state": dataclasses.asdict(state),
            "rng": _rng_state(device),
            "training_hash": training_hash(config),
        },
    )


def is_finished(checkpoint_dir: Path) -> bool:
    """Whether the run whose checkpoints are in ``checkpoint_dir`` has finished training (by its
    stopping rule or a time limit): its ``last.pt`` says so."""
    last = Path(checkpoint_dir) / "last.pt"
    return last.exists() and bool(load_checkpoint(last)["state"]["done"])


def _batch_stream(pairs, batch_size, seed, epoch, position):
    """Yield (epoch, position after this batch, indices) forever, starting mid-epoch."""
    while True:
        batches = batching.epoch_batches(pairs, batch_size, seed, epoch)
        for i in range(position, len(batches)):
            yield epoch, i + 1, batches[i]
        epoch, position = epoch + 1, 0


def _save(path: Path, payload: dict) -> None:
    """Save ``payload`` atomically, with its sha256 in ``<path>.sha256`` (checked on load)."""
    tmp = path.with_suffix(".tmp")
    torch.save(payload, tmp)
    digest = sha256_of(tmp)
    sidecar = _digest_path(path)
    pending = _pending_digest_path(path)
    pending.write_text(digest + "\n")
    os.replace(tmp, path)
    os.replace(pending, sidecar)


def _digest_path(path: Path) -> Path:
    """``<checkpoint>.sha256``: the digest stored beside a checkpoint."""
    return path.with_name(path.name + ".sha256")


def _pending_digest_path(path: Path) -> Path:
    """``<checkpoint>.sha256.tmp``: the new digest, written before the checkpoint is renamed
    into place and renamed to :func:`_digest_path` after it."""
    return path.with_name(path.name + ".sha256.tmp")


def verify_checkpoint(path: Path) -> None:
    """Raise RuntimeError when ``path`` does not match the sha256 stored beside it.

    A save interrupted between its two renames (:func:`_save`: the checkpoint, then its digest)
    leaves the new checkpoint beside the old digest and the new one in ``<path>.sha256.tmp``:
    when that pending digest matches ``path``, its rename is finished here and the checkpoint
    accepted. A checkpoint saved before digests were stored (no ``.sha256`` file) is accepted
    as is.
    """
    sidecar = _digest_path(path)
    if not sidecar.exists():
        return
    expected = sidecar.read_text().strip()
    found = sha256_of(path)
    pending = _pending_digest_path(path)
    if found != expected and pending.exists() and pending.read_text().strip() == found:
        os.replace(pending, sidecar)
        return
    if found != expected:
        raise RuntimeError(
            f"checkpoint {path} is corrupted: sha256 {found}, but {sidecar} records {expected}; "
            f"delete {path} and {sidecar} to train again"
        )


def load_checkpoint(path: Path, device="cpu") -> dict:
    """A checkpoint's payload, loaded with ``weights_only=True``: tensors and plain values only,
    so a crafted file cannot run code (a refused file is named, with what to do). Its sha256 is
    checked first against the digest saved beside it (:func:`verify_checkpoint`)."""
    verify_checkpoint(path)
    try:
        return torch.load(path, map_location=device, weights_only=True)
    except pickle.UnpicklingError as error:
        raise RuntimeError(
            f"{path} holds objects other than tensors and plain values and was not loaded "
            f"(a checkpoint never needs them); delete it to train again\n{error}"
        ) from None


def _rng_state(device) -> dict:
    state = {"torch": torch.get_rng_state()}
    if device.type == "cuda":
        state["cuda"] = torch.cuda.get_rng_state(device)
    return state


def _set_rng_state(state: dict, device) -> None:
    """Restore the generators; the saved states are CPU byte tensors, but ``torch.load`` with
    ``map_location="cuda"`` moves them to the GPU, where ``set_rng_state`` refuses them."""
    torch.set_rng_state(state["torch"].cpu())
    if device.type == "cuda" and "cuda" in state:
        torch.cuda.set_rng_state(state["cuda"].cpu(), device)


SHARD_BYTES = 16 * 2**20
"""Largest shard of a kept state dict, in bytes: kept weights are files of bounded size."""

UPDATES_DIR = "updates"


def save_sharded(state_dict: dict, folder: Path, max_bytes: int = SHARD_BYTES) -> Path:
    """Write ``state_dict`` (name -> tensor) as ``shard_<i>.pt`` files of at most ``max_bytes``
    each plus ``index.json`` (every tensor's shard, and every shard's sha256), atomically: the
    shards go to a temporary folder renamed to ``folder`` when complete. A tensor larger than
    ``max_bytes`` is split along its first dimension into pieces named ``<name>#<k>``."""
    folder = Path(folder)
    pieces: list[tuple[str, torch.Tensor]] = []
    for name, tensor in state_dict.items():
        tensor = tensor.detach().cpu().contiguous()
        row_bytes = tensor.element_size() * max(tensor[0].numel() if tensor.dim() else 1, 1)
        if tensor.dim() and tensor.nbytes > max_bytes:
            if row_bytes > max_bytes:
                raise ValueError(f"{name}: one row of {row_bytes} bytes exceeds {max_bytes}")
            rows = max_bytes // row_bytes
            for k, start in enumerate(range(0, tensor.shape[0], rows)):
                pieces.append((f"{name}#{k}", tensor[start : start + rows].clone()))
        else:
            pieces.append((name, tensor))
    shards: list[dict] = [{}]
    size = 0
    for name, tensor in pieces:
        if shards[-1] and size + tensor.nbytes > max_bytes:
            shards.append({})
            size = 0
        shards[-1][name] = tensor
        size += tensor.nbytes
    tmp = folder.with_name(folder.name + ".tmp")
    if tmp.exists():
        import shutil

        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    index = {"names": list(state_dict), "shards": []}
    for i, shard in enumerate(shards):
        path = tmp / f"shard_{i:03d}.pt"
        torch.save(shard, path)
        index["shards"].append(
            {"file": path.name, "sha256": sha256_of(path), "tensors": list(shard)}
        )
    (tmp / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    os.replace(tmp, folder)
    return folder


def load_sharded(folder: Path, device="cpu") -> dict:
    """The state dict written by :func:`save_sharded`: each shard's sha256 checked against
    ``index.json``, loaded with ``weights_only=True``, split tensors joined again."""
    folder = Path(folder)
    index = json.loads((folder / "index.json").read_text())
    pieces: dict[str, torch.Tensor] = {}
    for shard in index["shards"]:
        path = folder / shard["file"]
        found = sha256_of(path)
        if found != shard["sha256"]:
            raise RuntimeError(
                f"{path} is corrupted: sha256 {found}, index.json records {shard['sha256']}"
            )
        try:
            pieces.update(torch.load(path, map_location=device, weights_only=True))
        except pickle.UnpicklingError as error:
            raise RuntimeError(f"{path} holds objects other than tensors\n{error}") from None
    out = {}
    for name in index["names"]:
        if name in pieces:
            out[name] = pieces[name]
        else:
            parts = sorted(
                (int(k.rsplit("#", 1)[1]), v) for k, v in pieces.items()
                if k.rsplit("#", 1)[0] == name and "#" in k
            )
            if not parts:
                raise RuntimeError(f"{folder}: tensor {name} is in no shard")
            out[name] = torch.cat([v for _, v in parts])
    return out


def kept_updates(checkpoint_dir: Path) -> list[tuple[int, Path]]:
    """The weights kept over training (``keep_every``), as (update, folder), in update order;
    only complete folders (with ``index.json``) count."""
    root = Path(checkpoint_dir) / UPDATES_DIR
    found = []
    for folder in root.glob("step_*"):
        if folder.suffix == ".tmp" or not (folder / "index.json").exists():
            continue
        found.append((int(folder.name.split("_", 1)[1]), folder))
    return sorted(found)


def kept_update_dir(checkpoint_dir: Path, step: int) -> Path:
    return Path(checkpoint_dir) / UPDATES_DIR / f"step_{step:06d}"


@dataclasses.dataclass
class TrainResult:
    model: torch.nn.Module  # with the best validation's weights, in eval mode
    state: TrainState
    checkpoint_dir: Path


def train(config: dict, train_pairs: batching.Pairs, dev_pairs: batching.Pairs, src_vocab_size: int,
          tgt_vocab_size: int, checkpoint_dir: Path, *, init_weights: dict | None = None,
          init_optimizer: dict | None = None, **options) -> TrainResult:
    """Train (or resume, or reload) the model of ``config``: :func:`train_group` of this one run
    (``init_weights``/``init_optimizer`` its one entry; ``options`` as :func:`train_group`'s)."""
    return train_group([config], train_pairs, dev_pairs, src_vocab_size, tgt_vocab_size, [checkpoint_dir],
                       init_weights=[init_weights], init_optimizer=[init_optimizer], **options)[0]


def train_group(
    configs: list[dict],
    train_pairs: batching.Pairs | list[batching.Pairs],
    dev_pairs: batching.Pairs | list[batching.Pairs],
    src_vocab_size: int,
    tgt_vocab_size: int,
    checkpoint_dirs: list[Path],
    device="auto",
    amp: bool = True,
    fuse: bool | None = None,
    progress: bool = True,
    stop_after: int | None = None,
    deadline: float | None = None,
    log=None,
    keep_every: int = 0,
    init_weights: list[dict | None] | None = None,
    init_optimizer: list[dict | None] | None = None,
    compile_step: str | None = None,
) -> list[TrainResult]:
    """Train (or resume, or reload) the runs ``configs`` and return each with its model: one
    run as itself, several (seeds of one configuration,
    :func:`~compsem.cogs.seq2seq.grouped.check_group`) as one batched model
    (:mod:`compsem.cogs.seq2seq.grouped`); each run's checkpoints in its ``checkpoint_dirs``
    entry. A group of one is a run (:func:`train`).

    Each folder holds ``last.pt``/``best.pt``; an existing ``last.pt`` of the same training
    configuration is resumed (a finished one is just reloaded). Several runs resume together
    when all have a ``last.pt`` at the same update (a group interrupted by ``stop_after`` or a
    ``deadline``); runs at different updates are an error (resume them one by one).
    ``train_pairs``/``dev_pairs``: one set for every run, or one per run (the auxiliary task's
    denoising corrupts with the seed). ``fuse`` runs an update's ``accum_count`` batches as one
    forward pass (default: on CUDA), the same gradient up to rounding. ``stop_after`` stops
    after that many updates in this call without marking the runs done (to simulate an
    interruption). ``deadline`` (a ``time.time()`` value) ends training at the first update after
    it (a validation when one is due there, else :func:`cut`), keeping the best weights so far
    (those of the last update when no validation came yet), with stop reason ``"time limit"``: a
    run cut short by a GPU budget, not the paper's stopping rule (the chapter labels such runs);
    a later call without that limit resumes such a run from its checkpoint.
    ``log`` receives one line per validation. ``keep_every`` > 0 keeps the weights after every
    ``keep_every``-th update (module docstring; :func:`kept_updates` lists them); it changes
    nothing of the training itself. ``init_weights`` (per run: a state dict of the same
    architecture and vocabularies, or None) replaces the random initialisation of a run that has
    no ``last.pt`` yet: sequential training after an auxiliary task (Kim 2021, Section 5.2;
    :mod:`.two_stage`). ``init_optimizer`` (per run: a :data:`BEST_OPTIMIZER` payload) starts
    such a run from that Adam state and update count instead of a fresh optimiser at step 0:
    the noam rate goes on from there and ``max_steps`` bounds the update count, as OpenNMT-py's
    ``-train_from`` (all continuing runs at the same update, as one learning rate serves the
    group). ``compile_step``: a ``torch.compile`` mode for the LSTM decoder step
    (:func:`~compsem.cogs.seq2seq.lstm.compile_decoder_step`; None: eager), kept by the returned
    models for decoding.

    Each returned model holds its run's best validation weights when the run is done (in eval
    mode), else the weights it stopped with.
    """
    check_group(configs)
    per_run = {"train_pairs": train_pairs if isinstance(train_pairs, list) else [train_pairs] * len(configs),
               "dev_pairs": dev_pairs if isinstance(dev_pairs, list) else [dev_pairs] * len(configs),
               "init_weights": init_weights if init_weights is not None else [None] * len(configs),
               "init_optimizer": init_optimizer if init_optimizer is not None else [None] * len(configs),
               "checkpoint_dirs": checkpoint_dirs}
    for name, values in per_run.items():
        if len(values) != len(configs):
            raise ValueError(f"{name}: one per configuration ({len(configs)}), got {len(values)}")
    device = torch.device(resolve_device(device)) if isinstance(device, str) else device
    states, members = _train_members(
        configs, per_run["train_pairs"], per_run["dev_pairs"], src_vocab_size, tgt_vocab_size,
        checkpoint_dirs, device, amp, fuse, progress, stop_after, deadline, log, keep_every,
        per_run["init_weights"], per_run["init_optimizer"], compile_step)
    trained = {} if members is None else {i: k for k, i in enumerate(members.indices)}  # run -> member
    results = []
    for i, (config, folder, state) in enumerate(zip(configs, checkpoint_dirs, states, strict=True)):
        if isinstance(members, _Run) and i in trained:
            model = members.model  # the run's own model, trained in this call
        else:  # finished before this call, or a member of a stacked group
            torch.manual_seed(config["seed"])
            model = build_model(config, src_vocab_size, tgt_vocab_size).to(device)
            if i in trained:
                model.load_state_dict(members.member(trained[i]).state_dict())
            model = compile_decoder_step(model, compile_step)
        if state.done:
            model.load_state_dict(_best_weights(folder, device))
        results.append(TrainResult(model.eval(), state, Path(folder)))
    return results


class _Run:
    """The one model of a run, trained as itself: the members of :func:`_train_members` when one
    run trains (batches as :func:`batching.collate` builds them, torch's gradient-norm clip)."""

    def __init__(self, model: torch.nn.Module):
        self.model, self.k = model, 1

    def parameters(self) -> list[torch.Tensor]:
        return list(self.model.parameters())

    def update(self, optimizer, parts, pairs, sentences, active, t, amp, device) -> list[tuple[float, int]]:
        """One update on the batches ``parts[0]``: the summed loss of each divided by the update's
        sentences, back-propagated; the clip; one Adam step. Returns [(loss per sentence, target
        tokens)]."""
        self.model.train()
        train_loss, tokens = 0.0, 0
        for indices in parts[0]:
            batch = batching.collate(pairs[0], indices).to(device)
            with autocast(device, amp):
                logprobs = self.model(batch.src, batch.src_lengths, batch.tgt_in)
            loss, n = sequence_loss(logprobs, batch.tgt_out, t["label_smoothing"])
            (loss / sentences[0]).backward()
            train_loss += float(loss.detach()) / sentences[0]
            tokens += n
        if t["clip"] > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), t["clip"])
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        return [(train_loss, tokens)]

    def member(self, k: int) -> torch.nn.Module:
        return self.model

    def optimizer_state(self, optimizer, k: int) -> dict:
        return optimizer.state_dict()

    def load_optimizer(self, optimizer, saved: list[dict]) -> None:
        optimizer.load_state_dict(copy.deepcopy(saved[0]))  # Adam updates the state it is given in place


class _Group:
    """Several runs' models stacked into one (:func:`~compsem.cogs.seq2seq.grouped.group_model`):
    the members of :func:`_train_members` when seeds train together."""

    def __init__(self, models: list[torch.nn.Module], compile_step: str | None):
        self.model, self.k = compile_decoder_step(group_model(models), compile_step), len(models)
        self.scratch = models[0]  # a real model to validate and save one member at a time
        self.keys = set(self.scratch.state_dict())

    def parameters(self) -> list[torch.Tensor]:
        return list(self.model.params.values())

    def update(self, optimizer, parts, pairs, sentences, active, t, amp, device) -> list[tuple[float, int]]:
        """:func:`group_update` on the members' batches padded to one shape; a frozen member
        (``parts[k]`` None) computes on a copy of an active member's batch, its loss unused."""
        first = next(k for k, p in enumerate(parts) if p is not None)
        pairs = [pairs[k] if p is not None else pairs[first] for k, p in enumerate(parts)]
        parts = [parts[first] if p is None else p for p in parts]
        chunks = [stacked_batch_of(pairs, [p[c] for p in parts], device) for c in range(len(parts[first]))]
        return group_update(self.model, optimizer, chunks, sentences, active, t, amp, device)

    def member(self, k: int) -> torch.nn.Module:
        self.scratch.load_state_dict({n: v for n, v in self.model.member_state(k).items() if n in self.keys})
        return self.scratch

    def optimizer_state(self, optimizer, k: int) -> dict:
        return member_optimizer_state(optimizer, k)

    def load_optimizer(self, optimizer, saved: list[dict]) -> None:
        optimizer.load_state_dict(stacked_optimizer_state(saved))


def group_update(group, optimizer: torch.optim.Optimizer, chunks: list[tuple], sentences: list[int],
                 active: list[bool], t: dict, amp: bool, device, step: bool = True) -> list[tuple[float, int]]:
    """One update of every active member of a stacked model (``group``,
    :func:`~compsem.cogs.seq2seq.grouped.group_model`): forward and backward on each of
    ``chunks`` (tensors from :func:`~compsem.cogs.seq2seq.grouped.stacked_batch`: one fused batch
    per member, or an update's batches one by one), each member's loss divided by its
    ``sentences``; then each member's gradient clipped by its own norm and one Adam step. Returns
    each member's (training loss per sentence, target tokens), (0.0, 0) when inactive. Inactive
    members' weights are put back after the step. ``step=False`` stops before the optimizer,
    leaving the clipped gradients in ``.grad``."""
    losses = [0.0] * group.k
    tokens = [0] * group.k
    group.train()
    for src, lengths, tgt_in, tgt_out in chunks:
        with autocast(device, amp):
            logprobs = group(src, lengths, tgt_in)
        total = 0.0
        for k in range(group.k):
            if active[k]:
                loss, n = sequence_loss(logprobs[k], tgt_out[k], t["label_smoothing"])
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


def _train_members(configs, train_pairs, dev_pairs, src_vocab_size, tgt_vocab_size, checkpoint_dirs,
                   device, amp, fuse, progress, stop_after, deadline, log, keep_every, init_weights,
                   init_optimizer, compile_step) -> tuple[list[TrainState], _Run | _Group | None]:
    """The training loop of :func:`train_group` (its arguments, one per run where a list): the
    runs not yet finished train together as one set of members (:class:`_Run` for one,
    :class:`_Group` for several; ``indices``: which runs they are). Returns every run's
    TrainState and the members (None when every run had finished)."""
    fuse = device.type == "cuda" if fuse is None else fuse
    t = configs[0]["training"]
    out_of_time = deadline is not None and time.time() >= deadline
    members, saved = [], []
    final: list[TrainState | None] = [None] * len(configs)  # every run's state when this call ends
    for i, (cfg, folder) in enumerate(zip(configs, checkpoint_dirs, strict=True)):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.json").write_text(json.dumps(cfg, indent=1, sort_keys=True))
        last = folder / "last.pt"
        checkpoint = load_checkpoint(last, device) if last.exists() else None
        if checkpoint is not None and checkpoint["training_hash"] != training_hash(cfg):
            raise RuntimeError(f"{last} belongs to another configuration; remove {folder}")
        state = TrainState(**checkpoint["state"]) if checkpoint else None
        if state is not None and state.done and not (state.stop_reason == "time limit" and not out_of_time):
            final[i] = state  # finished: decoded as it is
            continue
        members.append((cfg, folder, i))
        saved.append(checkpoint)
    if not members:
        return final, None
    resumed = [s is not None for s in saved]
    steps = {s["state"]["step"] for s in saved if s is not None}
    if any(resumed) and (not all(resumed) or len(steps) > 1):
        raise ValueError(f"the members of seeds {[m[0]['seed'] for m in members]} stand at different "
                         f"updates; resume them one by one (train without a group)")
    starts = [init_optimizer[i] for _, _, i in members]
    continued = not any(resumed) and all(s is not None for s in starts)
    if continued and len({int(s["step"]) for s in starts}) > 1:
        raise ValueError(f"the members of seeds {[m[0]['seed'] for m in members]} continue from "
                         f"different updates ({sorted(int(s['step']) for s in starts)}); group "
                         f"only members that start at the same update")

    together = [cfg["seed"] for cfg, _, _ in members] if len(members) > 1 else []
    models, states = [], []
    for (cfg, _, i), checkpoint in zip(members, saved, strict=True):
        torch.manual_seed(cfg["seed"])
        model = build_model(cfg, src_vocab_size, tgt_vocab_size)
        if checkpoint is None and init_weights[i] is not None:
            model.load_state_dict(init_weights[i])
        if checkpoint is not None:
            model.load_state_dict(checkpoint["model"])
            state = TrainState(**checkpoint["state"])
            state.done, state.stop_reason = False, ""
        else:
            state = TrainState(group_seeds=together)
            if continued:
                state.step = state.start_step = int(starts[0]["step"])
        models.append(model.to(device))
        states.append(state)
    runs = _Run(compile_decoder_step(models[0], compile_step)) if len(models) == 1 else _Group(models, compile_step)
    runs.indices = [i for _, _, i in members]  # the runs (indices of ``configs``) these members are
    optimizer = torch.optim.Adam(runs.parameters(), lr=t["lr"], betas=(t["beta1"], t["beta2"]), eps=t["eps"],
                                 fused=device.type == "cuda")  # fused: one kernel for all parameters
    if all(resumed):
        runs.load_optimizer(optimizer, [s["optimizer"] for s in saved])
        _set_rng_state(saved[0]["rng"], device)
    else:
        if continued:
            runs.load_optimizer(optimizer, [s["optimizer"] for s in starts])
        if runs.k > 1:  # one generator draws every member's dropout, from the first seed
            torch.manual_seed(members[0][0]["seed"])
    member_pairs = [train_pairs[i] for _, _, i in members]
    streams = [_batch_stream(pairs, t["batch_size"], cfg["seed"], s.epoch, s.position)
               for pairs, (cfg, _, _), s in zip(member_pairs, members, states, strict=True)]
    dim, updates_here = model_dim(configs[0]), 0
    prefix = [f"seed {cfg['seed']} " if runs.k > 1 else "" for cfg, _, _ in members]
    bar = _progress_bar(progress, t["max_steps"], states[0].step)
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
            else:  # frozen after its early stop
                parts.append(None)
            sentences.append(0 if parts[-1] is None else sum(len(b) for b in parts[-1]))
        step = next(s.step for s in states if not s.done) + 1
        for group in optimizer.param_groups:
            group["lr"] = noam_lr(step, t["lr"], dim, t["warmup"])
        losses = runs.update(optimizer, parts, member_pairs, sentences, active, t, amp, device)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        seconds = time.perf_counter() - start
        for k, ((_, folder, _), state) in enumerate(zip(members, states, strict=True)):
            if active[k]:
                state.step, state.train_seconds = step, state.train_seconds + seconds
                state.target_tokens += losses[k][1]
                if keep_every > 0 and step % keep_every == 0 and not (kept_update_dir(folder, step) / "index.json").exists():
                    save_sharded(runs.member(k).state_dict(), kept_update_dir(folder, step))
        updates_here += 1
        shown = active.index(True)
        bar.update(1)
        bar.set_postfix(loss=f"{losses[shown][0]:.3f}", best=f"{states[shown].best_loss:.4f}", refresh=False)
        if step % t["valid_every"] == 0 or step >= t["max_steps"]:
            for k, ((cfg, folder, i), state) in enumerate(zip(members, states, strict=True)):
                if state.done:
                    continue
                loss, improved = validate(runs.member(k), cfg, folder, state, runs.optimizer_state(optimizer, k),
                                          dev_pairs[i], device, deadline, losses[k][0])
                if log is not None:
                    log(f"{prefix[k]}step {state.step}: dev loss {loss:.4f}{' (best)' if improved else ''}")
        elif deadline is not None and time.time() >= deadline:  # between validations
            for k, ((cfg, folder, _), state) in enumerate(zip(members, states, strict=True)):
                if not state.done:
                    cut(runs.member(k), cfg, folder, state, runs.optimizer_state(optimizer, k), device)
            if log is not None:
                log(f"step {step}: time limit; checkpoint{'s' if runs.k > 1 else ''} saved")
        if stop_after is not None and updates_here >= stop_after and not all(s.done for s in states):
            break
    bar.close()
    for (_, _, i), state in zip(members, states, strict=True):
        final[i] = state
    return final, runs


def _best_weights(checkpoint_dir: Path, device) -> dict:
    """The weights a finished run is decoded with: its best validation's (``best.pt``), or, for
    a run cut by a time limit before its first validation, the weights of its ``last.pt``."""
    best = Path(checkpoint_dir) / "best.pt"
    if best.exists():
        return load_checkpoint(best, device)
    return load_checkpoint(Path(checkpoint_dir) / "last.pt", device)["model"]


def _progress_bar(enabled: bool, total: int, initial: int):
    """A tqdm bar on the terminal's stderr; a silent stand-in when disabled."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        disable=not enabled,
        file=sys.stderr,
        unit="update",
        dynamic_ncols=True,
        desc="training",
    )
