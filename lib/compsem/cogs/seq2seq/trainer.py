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
    sidecar_tmp = sidecar.with_name(sidecar.name + ".tmp")
    sidecar_tmp.write_text(digest + "\n")
    os.replace(tmp, path)
    os.replace(sidecar_tmp, sidecar)


def _digest_path(path: Path) -> Path:
    """``<checkpoint>.sha256``: the digest stored beside a checkpoint."""
    return path.with_name(path.name + ".sha256")


def verify_checkpoint(path: Path) -> None:
    """Raise RuntimeError when ``path`` does not match the sha256 stored beside it.

    A checkpoint saved before digests were stored (no ``.sha256`` file) is accepted as is.
    """
    sidecar = _digest_path(path)
    if not sidecar.exists():
        return
    expected = sidecar.read_text().strip()
    found = sha256_of(path)
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


def train(
    config: dict,
    train_pairs: batching.Pairs,
    dev_pairs: batching.Pairs,
    src_vocab_size: int,
    tgt_vocab_size: int,
    checkpoint_dir: Path,
    device="auto",
    amp: bool = True,
    fuse: bool | None = None,
    progress: bool = True,
    stop_after: int | None = None,
    deadline: float | None = None,
    log=None,
    keep_every: int = 0,
    init_weights: dict | None = None,
    init_optimizer: dict | None = None,
    compile_step: str | None = None,
) -> TrainResult:
    """Train (or resume, or reload) the model of ``config`` and return it with its best weights.

    ``checkpoint_dir`` holds ``last.pt``/``best.pt``; an existing ``last.pt`` of the same
    training configuration is resumed (a finished one is just reloaded). ``fuse`` runs an
    update's ``accum_count`` batches as one forward pass (default: on CUDA), the same gradient
    up to rounding. ``stop_after`` stops after that many updates in this call without marking
    the run done (to simulate an interruption). ``deadline`` (a ``time.time()`` value) ends
    training at the first update after it (a validation when one is due there, else
    :func:`cut`), keeping the best weights so far (those of the last update when no validation
    came yet), with stop reason ``"time limit"``: a run cut short by a GPU budget, not the
    paper's stopping rule (the chapter labels such runs); a later call without that limit
    resumes such a run from its checkpoint.
    ``log`` receives one line per validation. ``keep_every`` > 0 keeps the weights after every
    ``keep_every``-th update (module docstring; :func:`kept_updates` lists them); it changes
    nothing of the training itself. ``init_weights`` (a state dict of the same architecture
    and vocabularies) replaces the random initialisation of a run that has no ``last.pt`` yet:
    sequential training after an auxiliary task (Kim 2021, Section 5.2; :mod:`.two_stage`).
    ``init_optimizer`` (a :data:`BEST_OPTIMIZER` payload) starts such a run from that Adam state
    and update count instead of a fresh optimiser at step 0: the noam rate goes on from there
    and ``max_steps`` bounds the update count, as OpenNMT-py's ``-train_from``.
    ``compile_step``: a ``torch.compile`` mode for the LSTM decoder step
    (:func:`~compsem.cogs.seq2seq.lstm.compile_decoder_step`; None: eager), kept by the returned
    model for decoding.
    """
    device = torch.device(resolve_device(device)) if isinstance(device, str) else device
    t = config["training"]
    fuse = device.type == "cuda" if fuse is None else fuse
    checkpoint_dir = Path(checkpoint_dir)
    checkpoint_dir.mkdir(parents=True, exist_ok=True)
    (checkpoint_dir / "config.json").write_text(json.dumps(config, indent=1, sort_keys=True))
    last = checkpoint_dir / "last.pt"

    torch.manual_seed(config["seed"])
    model = compile_decoder_step(build_model(config, src_vocab_size, tgt_vocab_size).to(device), compile_step)
    if init_weights is not None and not last.exists():
        model.load_state_dict(init_weights)
    optimizer = torch.optim.Adam(
        model.parameters(),
        lr=t["lr"],
        betas=(t["beta1"], t["beta2"]),
        eps=t["eps"],
        fused=device.type == "cuda",  # one kernel for all parameters; the same update
    )
    state = TrainState()
    if init_optimizer is not None and not last.exists():
        optimizer.load_state_dict(copy.deepcopy(init_optimizer["optimizer"]))  # Adam updates it in place
        state.step = state.start_step = int(init_optimizer["step"])
    if last.exists():
        saved = load_checkpoint(last, device)
        if saved["training_hash"] != training_hash(config):
            raise RuntimeError(f"{last} belongs to another configuration; remove {checkpoint_dir}")
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        state = TrainState(**saved["state"])
        _set_rng_state(saved["rng"], device)
    out_of_time = deadline is not None and time.time() >= deadline
    if state.done and state.stop_reason == "time limit" and not out_of_time:
        state.done, state.stop_reason = False, ""  # a later call with more time goes on
    if state.done:
        model.load_state_dict(_best_weights(checkpoint_dir, device))
        return TrainResult(model.eval(), state, checkpoint_dir)

    stream = _batch_stream(
        train_pairs, t["batch_size"], config["seed"], state.epoch, state.position
    )
    dim, updates_here = model_dim(config), 0
    bar = _progress_bar(progress, t["max_steps"], state.step)
    while not state.done:
        model.train()
        start = time.perf_counter()
        groups = [next(stream) for _ in range(t["accum_count"])]
        index_groups = [np.concatenate([g[2] for g in groups])] if fuse else [g[2] for g in groups]
        sentences = sum(len(g[2]) for g in groups)
        train_loss = 0.0
        for indices in index_groups:
            batch = batching.collate(train_pairs, indices).to(device)
            with autocast(device, amp):
                logprobs = model(batch.src, batch.src_lengths, batch.tgt_in)
            loss, tokens = sequence_loss(logprobs, batch.tgt_out, t["label_smoothing"])
            (loss / sentences).backward()
            train_loss += float(loss.detach()) / sentences
            state.target_tokens += tokens
        if t["clip"] > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), t["clip"])
        state.step += 1
        for group in optimizer.param_groups:
            group["lr"] = noam_lr(state.step, t["lr"], dim, t["warmup"])
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        state.epoch, state.position = groups[-1][0], groups[-1][1]
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        state.train_seconds += time.perf_counter() - start
        if keep_every > 0 and state.step % keep_every == 0:
            kept = kept_update_dir(checkpoint_dir, state.step)
            if not (kept / "index.json").exists():
                save_sharded(model.state_dict(), kept)
        updates_here += 1
        bar.update(1)
        bar.set_postfix(loss=f"{train_loss:.3f}", best=f"{state.best_loss:.4f}", refresh=False)

        if state.step % t["valid_every"] == 0 or state.step >= t["max_steps"]:
            loss, improved = validate(model, config, checkpoint_dir, state, optimizer.state_dict(), dev_pairs,
                                      device, deadline, train_loss)
            if log is not None:
                log(f"step {state.step}: dev loss {loss:.4f}{' (best)' if improved else ''}")
        elif deadline is not None and time.time() >= deadline:
            cut(model, config, checkpoint_dir, state, optimizer.state_dict(), device)
            if log is not None:
                log(f"step {state.step}: time limit; checkpoint saved")
        if stop_after is not None and updates_here >= stop_after and not state.done:
            break
    bar.close()
    if not state.done:  # interrupted on purpose: return the current weights
        return TrainResult(model.eval(), state, checkpoint_dir)
    model.load_state_dict(_best_weights(checkpoint_dir, device))
    return TrainResult(model.eval(), state, checkpoint_dir)


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
