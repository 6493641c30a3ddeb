"""Throughput of the COGS models on this machine; prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_cogs.py                       # every model, auto device
    .venv/bin/python benchmarks/bench_cogs.py --models transformer --updates 50 --device cuda
    .venv/bin/python benchmarks/bench_cogs.py --models lstm bilstm --compile-step default max-autotune-no-cudagraphs

For each model, with the paper's protocol (4 length-bucketed batches of 128 sentences per
update; one fused forward pass on a GPU, bfloat16 autocast there):

- training: seconds per update, target tokens per second, and the time of one epoch of
  ``train.tsv`` (47 updates) and of 3,000 / 10,000 updates (the range to early stopping);
- decoding: greedy and beam-5 output tokens per second and sentences per second on a sample of
  gen sentences (an untrained model: outputs run to the cap, so this is a worst case per sentence),
  in batches of the device's default size (``--decode-batch-size``; 128 for both methods on a
  CPU, 512 on a GPU; the GPU figures recorded in ``benchmarks/results/bench_cogs_h100.txt`` so
  far used 256 for greedy and 128 for beam).

``--compile-step MODE ...`` adds a row per ``torch.compile`` mode for each LSTM model (its decoder
step compiled, :func:`compsem.cogs.seq2seq.lstm.compile_decoder_step`) beside the eager row; the
first two updates and a first decoding batch warm up (compilation is not timed; it is printed).

``MODEL:chapter5`` (e.g. ``transformer:chapter5``) times Chapter 5's model instead: the output
layer over the vocabulary of the glossing text (:func:`compsem.cogs.seq2seq.two_stage.vocabularies`),
trained on the glossing stage's pairs and decoding masked gen sentences, the figures the
schedule keeps under that name (:func:`compsem.cogs.seq2seq.schedule.speed_class`).
``--unfused`` runs an update's 4 batches one by one on a GPU too (the runbook's ``--no-fuse``,
a quarter of the memory of the output layer). On a GPU the last column is the peak GPU memory of
the updates (``torch.cuda.max_memory_allocated``), what decides how many runs can share it.

    python3 benchmarks/bench_cogs.py --models transformer:chapter5 --updates 20 --decode 256
    python3 benchmarks/bench_cogs.py --models transformer:chapter5 --updates 20 --decode 256 --unfused
"""

from __future__ import annotations

import argparse
import functools
import time

import numpy as np
import torch

from compsem import determinism
from compsem.devices import resolve_device


@functools.cache  # a model timed in several compile modes is read once
def workload(name: str, n_decode: int):
    """``name``'s configuration, training options, training pairs, ``n_decode`` gen sources to
    decode and vocabulary sizes: a COGS model, or ``MODEL:chapter5``, Chapter 5's (the glossing
    stage's pairs, masked gen sentences)."""
    from compsem.cogs.seq2seq import batching, config

    model, _, chapter = name.partition(":")
    if chapter == "chapter5":
        from compsem.cogs.seq2seq import auxiliary_train, two_stage
        from compsem.cogs.seq2seq.auxiliary_config import stage_one_config

        argv = ["--model", model, "--objective", "gloss", "--seed", "1"]
        (cfg,) = auxiliary_train.configurations(auxiliary_train.parse_args(argv))
        src_vocab, tgt_vocab = two_stage.vocabularies(cfg)
        frame = two_stage.auxiliary_pairs(cfg)
        train, gen, training = frame[frame.split == "train"], two_stage.masked_cogs("gen"), stage_one_config(cfg)["training"]
    elif chapter:
        raise SystemExit(f"--models {name!r}: give a model, or MODEL:chapter5")
    else:
        from compsem.cogs.seq2seq.vocab import cogs_vocabularies
        from compsem.data import cogs

        cfg = config.make_config(model)
        src_vocab, tgt_vocab = cogs_vocabularies()
        train, gen, training = cogs.load("train"), cogs.load("gen"), cfg["training"]
    pairs = batching.encode_pairs(train.source, train.target, src_vocab, tgt_vocab)
    sources = [src_vocab.encode(s) for s in gen.sample(n_decode, random_state=0).source]
    return cfg, training, pairs, sources, len(src_vocab), len(tgt_vocab)


def main() -> None:
    from compsem.cogs.seq2seq import batching, config, decoding, trainer
    from compsem.cogs.seq2seq.lstm import COMPILE_MODES, compile_decoder_step

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--models",
        nargs="+",
        default=[
            "transformer",
            "transformer-small",
            "transformer-large",
            "lstm",
            "bilstm",
            "transformer-reduced",
        ],
    )
    parser.add_argument("--device", default="auto")
    parser.add_argument(
        "--updates", type=int, default=0, help="timed updates (0: 3 on CPU, 30 on GPU)"
    )
    parser.add_argument(
        "--decode", type=int, default=0, help="gen sentences decoded (0: 64 CPU, 1024 GPU)"
    )
    parser.add_argument("--decode-batch-size", type=int, default=None,
                        help="sentences decoded at a time (default the device's: "
                             "compsem.cogs.seq2seq.decoding.BATCH_SIZE)")
    parser.add_argument("--unfused", action="store_true",
                        help="on a GPU too, an update's batches one by one (as --no-fuse)")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--compile-step", nargs="*", default=[], choices=COMPILE_MODES, metavar="MODE",
                        help="also time the LSTMs with their decoder step compiled in these modes")
    args = parser.parse_args()
    determinism.set_threads(args.threads)
    device = torch.device(resolve_device(args.device))
    gpu = device.type == "cuda"
    updates = args.updates or (30 if gpu else 3)
    n_decode = args.decode or (1024 if gpu else 64)
    name = torch.cuda.get_device_name(device) if gpu else f"CPU, {torch.get_num_threads()} threads"
    print(f"device: {name}; torch {torch.__version__}")

    fused = gpu and not args.unfused
    header = (
        f"{'model':<20}{'params':>8}{'s/update':>10}{'tgt tok/s':>11}{'epoch':>9}"
        f"{'3k upd':>9}{'10k upd':>9}{'greedy tok/s':>14}{'beam5 tok/s':>13}{'beam5 sent/s':>14}"
        + (f"{'peak GB':>9}" if gpu else "")
    )
    print(header + ("" if fused or not gpu else "   (unfused)"))
    rows = [(m, mode) for m in args.models for mode in
            [None, *(args.compile_step if config.ARCHITECTURES[m.partition(":")[0]]["arch"] == "lstm" else [])]]
    for model_name, mode in rows:
        cfg, t, pairs, sources, n_src, n_tgt = workload(model_name, n_decode)
        caps = decoding.length_caps([len(s) for s in sources], 1000, 16)
        per_epoch = len(pairs) / 512
        torch.manual_seed(0)
        if gpu:
            torch.cuda.reset_peak_memory_stats(device)
        model = compile_decoder_step(config.build_model(cfg, n_src, n_tgt).to(device), mode)
        warm = 2 if mode else 1
        compile_start = time.perf_counter()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.998), eps=1e-9)
        batches = batching.epoch_batches(pairs, t["batch_size"], seed=0, epoch=0)
        times, tokens = [], 0
        for u in range(updates + warm):  # the first update(s) warm up (allocations, kernels, compilation)
            group = batches[u * t["accum_count"] : (u + 1) * t["accum_count"]]
            start = time.perf_counter()
            for indices in [np.concatenate(group)] if fused else group:
                batch = batching.collate(pairs, indices).to(device)
                with trainer.autocast(device, True):
                    logprobs = model(batch.src, batch.src_lengths, batch.tgt_in)
                loss, n = trainer.sequence_loss(logprobs, batch.tgt_out, t["label_smoothing"])
                (loss / 512).backward()
                tokens += n if u >= warm else 0
            if t["clip"] > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), t["clip"])
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            if gpu:
                torch.cuda.synchronize(device)
            if u >= warm:
                times.append(time.perf_counter() - start)
            elif u == warm - 1:
                warm_seconds = time.perf_counter() - compile_start
        per_update = float(np.mean(times))
        peak = torch.cuda.max_memory_allocated(device) / 2**30 if gpu else None
        model.eval()
        rates = []
        if mode:  # compile the decoding shapes before timing
            for method in ("greedy", "beam"):
                decoding.translate(model, sources[:8], caps[:8], method, beam=5, batch_size=8, device=device)
        for method in ("greedy", "beam"):
            start = time.perf_counter()
            try:
                with trainer.autocast(device, True):
                    hyps = decoding.translate(model, sources, caps, method, beam=5,
                                              batch_size=args.decode_batch_size, device=device)
            except torch.OutOfMemoryError:  # an untrained model's outputs all run to the cap
                print(f"{model_name}: {method} decoding ran out of GPU memory; try a smaller "
                      "--decode-batch-size", flush=True)
                rates.append((float("nan"), float("nan")))
                torch.cuda.empty_cache()
                continue
            if gpu:
                torch.cuda.synchronize(device)
            seconds = time.perf_counter() - start
            rates.append((sum(len(h.tokens) + 1 for h in hyps) / seconds, len(hyps) / seconds))
        label = f"{model_name} ({mode})" if mode else model_name
        print(
            f"{label:<20}{config.count_parameters(model) / 1e6:>7.2f}M{per_update:>10.3f}"
            f"{tokens / sum(times):>11,.0f}{per_epoch * per_update / 60:>8.1f}m"
            f"{3000 * per_update / 60:>8.1f}m{10000 * per_update / 60:>8.1f}m"
            f"{rates[0][0]:>14,.0f}{rates[1][0]:>13,.0f}{rates[1][1]:>14.1f}"
            + (f"{peak:>9.1f}" if peak is not None else ""),
            flush=True,
        )
        if mode:
            print(f"{'':<20}warm-up with compilation {warm_seconds:.0f} s", flush=True)
        del model, optimizer
        if gpu:
            torch.cuda.empty_cache()


if __name__ == "__main__":
    main()
