"""Several seeds of one COGS model trained as one batched model: is it faster, and is it the same
training? Prints its figures (no assertions); the first thing to run on a GPU before building
a grouped trainer (the COGS grid issue).

    .venv/bin/python benchmarks/bench_cogs_group.py                               # auto device
    python3 benchmarks/bench_cogs_group.py --models transformer lstm --members 5 --updates 20

For each model: K members built as the trainer builds seed k's model and run as one by
:mod:`compsem.cogs.seq2seq.grouped` (stacked weights: ``torch.func.vmap`` for Transformers,
grouped weights written out for the LSTMs; dropout drawn per
member; per-member loss, gradient-norm clip and Adam). Each member gets its own batch of the
paper's protocol (4 x 128 sentences, fused), as its seed's run would; the members' batches are
padded to one shape (extra target positions the group computes and throws away: "padding").

Printed: seconds per update of one model and of the group; the group's speed-up over training
the K members one after another (K x one model's time); the target positions the group computes
beyond those of the members' own batches ("padding"); and, with dropout off and float32, how
far a member's clipped gradient in the group is from its model's alone (relative L2 distance:
the same training up to rounding?). ``--shared-order`` gives every member the first seed's
batches (no padding, but the members then share their data order). ``--compile-step MODE``
compiles the LSTMs' decoder step, of the single model and of the group alike
(:func:`compsem.cogs.seq2seq.lstm.compile_decoder_step`; two warm-up updates, not timed).
"""

from __future__ import annotations

import argparse
import copy
import time

import numpy as np
import torch

from compsem import determinism
from compsem.devices import resolve_device


def build_members(cfg: dict, seeds, src_size: int, tgt_size: int, device, dropout: float | None = None):
    """The models of ``seeds`` as the trainer builds them (``torch.manual_seed(seed)`` first)."""
    from compsem.cogs.seq2seq.config import build_model

    models = []
    for seed in seeds:
        c = copy.deepcopy(cfg)
        if dropout is not None:
            c["architecture"]["dropout"] = dropout
            if "embedding_dropout" in c["architecture"]:
                c["architecture"]["embedding_dropout"] = dropout
        torch.manual_seed(seed)
        models.append(build_model(c, src_size, tgt_size).to(device))
    return models


def member_batches(pairs, t: dict, seeds, step: int, shared_order: bool = False) -> list[np.ndarray]:
    """Each member's fused batch of update ``step`` in its seed's first epoch; ``shared_order``:
    every member reads the first seed's batches (no padding; the members then differ only in
    initialisation and dropout, a departure from one run per seed)."""
    from compsem.cogs.seq2seq import batching

    out = []
    for seed in seeds:
        batches = batching.epoch_batches(pairs, t["batch_size"], seeds[0] if shared_order else seed, 0)
        start = (step * t["accum_count"]) % max(1, len(batches) - t["accum_count"])
        out.append(np.concatenate(batches[start:start + t["accum_count"]]))
    return out


def own_positions(pairs, indices) -> int:
    """Target positions the members' own (padded) batches hold: what K runs would compute."""
    from compsem.cogs.seq2seq import batching

    return sum(batching.collate(pairs, idx).tgt_out.numel() for idx in indices)


def make_group(models, t: dict, device):
    """The stacked model and one Adam over its weights (the grouped trainer's)."""
    from compsem.cogs.seq2seq.grouped import group_model

    group = group_model(models)
    optimizer = torch.optim.Adam(list(group.params.values()), lr=1e-4, betas=(t["beta1"], t["beta2"]),
                                 eps=t["eps"], fused=device.type == "cuda")
    return group, optimizer


def single_update(model, optimizer, pairs, indices, t: dict, amp: bool, device, step: bool = True) -> None:
    """One update of one model on its fused batch (the trainer's step); ``step=False`` stops
    before the optimizer (the clipped gradient is left in ``.grad``)."""
    from compsem.cogs.seq2seq import batching, trainer

    model.train()
    batch = batching.collate(pairs, indices).to(device)
    with trainer.autocast(device, amp):
        logprobs = model(batch.src, batch.src_lengths, batch.tgt_in)
    loss, _ = trainer.sequence_loss(logprobs, batch.tgt_out, t["label_smoothing"])
    (loss / len(indices)).backward()
    if t["clip"] > 0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), t["clip"])
    if step:
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)


def same_training_gap(cfg, pairs, seeds, src_size, tgt_size, device, shared_order: bool) -> float:
    """How far a member's clipped gradient in the group is from its model's alone on the same
    batch (dropout off, float32): ``||g_group - g_alone|| / ||g_alone||`` over all weights, the
    largest over the members; rounding-sized when the group trains each member as its run would.
    (A per-weight ratio is no test: some gradients are zero but for rounding, e.g. the key
    biases of attention, whose scores they shift by a constant; nor are the weights after an Adam
    step, which moves every weight by about its learning rate whatever its gradient.)"""
    from compsem.cogs.seq2seq.grouped import stacked_batch
    from compsem.cogs.seq2seq.trainer import group_update

    t = cfg["training"]
    alone = build_members(cfg, seeds, src_size, tgt_size, device, dropout=0.0)
    group, optimizer = make_group(build_members(cfg, seeds, src_size, tgt_size, device, dropout=0.0), t, device)
    indices = member_batches(pairs, t, seeds, 0, shared_order)
    for model, idx in zip(alone, indices, strict=True):
        single_update(model, None, pairs, idx, t, False, device, step=False)
    group_update(group, optimizer, [stacked_batch(pairs, indices, device)], [len(i) for i in indices],
                 [True] * len(seeds), t, False, device, step=False)
    gaps = []
    for k, model in enumerate(alone):
        named = [(n, p.grad) for n, p in model.named_parameters() if p.grad is not None]
        diff = torch.stack([(group.params[n].grad[k] - g).pow(2).sum() for n, g in named]).sum().sqrt()
        gaps.append(float(diff / torch.stack([g.pow(2).sum() for _, g in named]).sum().sqrt()))
    return max(gaps)


def main(argv=None) -> None:
    from compsem.cogs.seq2seq import batching, config
    from compsem.cogs.seq2seq.lstm import COMPILE_MODES, compile_decoder_step
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies
    from compsem.data import cogs

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=["transformer", "lstm", "bilstm"])
    parser.add_argument("--members", type=int, default=5, help="seeds trained as one model")
    parser.add_argument("--updates", type=int, default=0, help="timed updates (0: 2 on CPU, 20 on GPU)")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--shared-order", action="store_true",
                        help="every member reads the first seed's batches (no padding; not one run per seed)")
    parser.add_argument("--compile-step", default=None, choices=COMPILE_MODES, metavar="MODE",
                        help="torch.compile the LSTM decoder step in this mode (single model and group)")
    args = parser.parse_args(argv)
    determinism.set_threads(args.threads)
    device = torch.device(resolve_device(args.device))
    gpu = device.type == "cuda"
    updates = args.updates or (20 if gpu else 2)
    seeds = list(range(1, args.members + 1))
    name = torch.cuda.get_device_name(device) if gpu else f"CPU, {torch.get_num_threads()} threads"
    print(f"device: {name}; torch {torch.__version__}; {args.members} members; bfloat16 autocast: {gpu}; "
          f"compiled LSTM step: {args.compile_step or 'no'}")
    warm = 2 if args.compile_step else 1
    src_vocab, tgt_vocab = cogs_vocabularies()
    train = cogs.load("train")
    pairs = batching.encode_pairs(train.source, train.target, src_vocab, tgt_vocab)
    print(f"{'model':<20}{'1 model s/upd':>14}{'group s/upd':>13}{'speed-up':>10}{'padding':>9}{'grad gap':>10}")
    for model_name in args.models:
        cfg = config.make_config(model_name)
        t = cfg["training"]
        sizes = (len(src_vocab), len(tgt_vocab))
        one = compile_decoder_step(build_members(cfg, seeds[:1], *sizes, device)[0], args.compile_step)
        optimizer = torch.optim.Adam(one.parameters(), lr=1e-4, betas=(t["beta1"], t["beta2"]), eps=t["eps"],
                                     fused=gpu)
        times = []
        for u in range(updates + warm):  # the first update(s) warm up (and compile)
            idx = member_batches(pairs, t, seeds[:1], u)[0]
            start = time.perf_counter()
            single_update(one, optimizer, pairs, idx, t, True, device)
            if gpu:
                torch.cuda.synchronize(device)
            times.append(time.perf_counter() - start) if u >= warm else None
        single = float(np.mean(times))
        del one, optimizer
        try:
            from compsem.cogs.seq2seq.grouped import stacked_batch
            from compsem.cogs.seq2seq.trainer import group_update

            group, group_optimizer = make_group(build_members(cfg, seeds, *sizes, device), t, device)
            group = compile_decoder_step(group, args.compile_step)
            times, computed, own = [], 0, 0
            for u in range(updates + warm):
                indices = member_batches(pairs, t, seeds, u, args.shared_order)
                tensors = stacked_batch(pairs, indices, device)
                start = time.perf_counter()
                group_update(group, group_optimizer, [tensors], [len(i) for i in indices], [True] * len(seeds), t,
                             True, device)
                if gpu:
                    torch.cuda.synchronize(device)
                if u >= warm:
                    times.append(time.perf_counter() - start)
                    computed, own = computed + tensors[3].numel(), own + own_positions(pairs, indices)
            grouped = float(np.mean(times))
            gap = same_training_gap(cfg, pairs, seeds[:2], *sizes, device, args.shared_order)
            print(f"{model_name:<20}{single:>14.3f}{grouped:>13.3f}{args.members * single / grouped:>9.2f}x"
                  f"{computed / own - 1:>8.0%}{gap:>10.1e}", flush=True)
            del group, group_optimizer
        except torch.cuda.OutOfMemoryError as error:  # a group K times the model's activations
            print(f"{model_name:<20}{single:>14.3f}   out of GPU memory: {str(error)[:100]}", flush=True)
        if gpu:
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
