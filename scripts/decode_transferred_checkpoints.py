"""Decode, on a CPU, COGS runs trained to early stopping on a GPU whose best weights were kept as
bfloat16 copies; write result files.

Each RUN.ckpt is a torch file written on the device with ``best_bf16`` (the best weights in
bfloat16), ``state`` (the training state of ``last.pt``), ``training_hash`` and ``config``. The
weights are installed as a finished checkpoint in the compsem cache, then the run is decoded
with :func:`compsem.cogs.seq2seq.experiment.train_and_decode` and its ``metrics.json`` records where it was
trained and decoded.

    python scripts/decode_transferred_checkpoints.py RUN.ckpt ... --trained-on "cuda: <GPU name>"
    python scripts/decode_transferred_checkpoints.py RUN.ckpt --trained-on "cuda: <GPU name>" \\
        --method beam --per-case 100 --per-split 500                             # beam 5, sample

``--trained-on`` (the training device, as ``metrics.json`` names devices) and ``--no-amp`` (the
training ran in float32, not under bfloat16 autocast) describe the training, which the file does
not record; ``--note`` adds what else a reader should know of it.
"""

from __future__ import annotations

import json

import torch

from compsem import paths
from compsem.cogs.seq2seq import experiment, results
from compsem.cogs.seq2seq.config import build_model, config_hash, training_hash
from compsem.cogs.seq2seq.options import CommandParser, non_negative_int, positive_int
from compsem.cogs.seq2seq.trainer import load_checkpoint
from compsem.cogs.seq2seq.vocab import cogs_vocabularies

NOTE = ("trained on {device} ({precision}{extra}); its best weights came back as a bfloat16 copy "
        "and were decoded ({method}) on the CPU in float32")


def install_checkpoint(saved: dict, config: dict, src_size: int, tgt_size: int) -> None:
    """Write ``best.pt`` and a finished ``last.pt`` for ``config`` into the cache."""
    folder = paths.cache_dir("cogs-models", "checkpoints") / training_hash(config)
    folder.mkdir(parents=True, exist_ok=True)
    best = {k: v.float() if v.is_floating_point() else v for k, v in saved["best_bf16"].items()}
    torch.save(best, folder / "best.pt")
    model = build_model(config, src_size, tgt_size)
    model.load_state_dict(best)
    last = {
        "model": best,
        "optimizer": torch.optim.Adam(model.parameters()).state_dict(),
        "state": saved["state"],
        "rng": {"torch": torch.get_rng_state()},
        "training_hash": training_hash(config),
    }
    torch.save(last, folder / "last.pt")


def main() -> None:
    parser = CommandParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoints", nargs="+")
    parser.add_argument("--method", default="greedy", choices=["greedy", "beam"])
    parser.add_argument("--per-case", type=non_negative_int, default=0,
                        help="gen examples per case (0: all)")
    parser.add_argument("--per-split", type=non_negative_int, default=0,
                        help="dev/test examples (0: all)")
    parser.add_argument("--batch-size", type=positive_int, default=256)
    parser.add_argument("--trained-on", required=True, metavar="DEVICE",
                        help='the device the runs were trained on, e.g. "cuda: NVIDIA A100-SXM4-80GB"')
    parser.add_argument("--no-amp", dest="amp", action="store_false",
                        help="the runs trained in float32 (default: under bfloat16 autocast)")
    parser.add_argument("--note", default="", help="more about the training, for the result's note")
    args = parser.parse_args()
    src, tgt = cogs_vocabularies()
    for name in args.checkpoints:
        saved = load_checkpoint(name)
        config = json.loads(saved["config"])
        if training_hash(config) != saved["training_hash"]:
            raise ValueError(f"{name}: its config does not hash to its training_hash")
        config["decoding"].update(
            method=args.method, per_case=args.per_case, per_split=args.per_split
        )
        install_checkpoint(saved, config, len(src), len(tgt))
        state = saved["state"]
        print(
            f"{name}: {config['model']} seed {config['seed']}, {state['step']} updates "
            f"({state['stop_reason']})",
            flush=True,
        )
        decoded = experiment.train_and_decode(
            config, device="cpu", amp=False, decode_batch_size=args.batch_size, log=print
        )
        metrics = dict(decoded.metrics)
        metrics.update(
            decoded_on=metrics["device"],
            device=args.trained_on,
            amp=args.amp,
            note=NOTE.format(device=args.trained_on, method=args.method,
                             precision="bfloat16 autocast" if args.amp else "float32",
                             extra=f", {args.note}" if args.note else ""),
        )
        # saved again, so that the result's digest (SHA256SUMS) covers the amended metrics
        results.save_result(results.Result(decoded.config, metrics, decoded.predictions))
        print(config_hash(config), metrics["accuracy"], flush=True)


if __name__ == "__main__":
    main()
