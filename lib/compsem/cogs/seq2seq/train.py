"""Command line: train and evaluate COGS models, writing the result files the chapter reads.

Examples::

    # one run of the paper's protocol (GPU recommended): Transformer, seed 1, train.tsv
    python -m compsem.cogs.seq2seq.train --model transformer --seed 1

    # five seeds of the three main models with 100 exposures, three runs at a time on one GPU
    python -m compsem.cogs.seq2seq.train --model transformer bilstm lstm --seed 1 2 3 4 5 \\
        --exposures 100 --jobs 3

    # the whole grid of Table 4-5 and Figure 4-3 (40 runs); finished runs are skipped
    python -m compsem.cogs.seq2seq.train --grid --jobs 4

    # the reduced CPU configuration of the chapter's default profile
    python -m compsem.cogs.seq2seq.train --model transformer-reduced --reduced --exposures 100

    # the Transformer seeds with their weights kept every 500 updates, and accuracy over updates
    python -m compsem.cogs.seq2seq.train --model transformer --seed 1 2 3 --keep-every 500 --curve

    # each model's five seeds as one batched model (a GPU's time shared by the seeds)
    python -m compsem.cogs.seq2seq.train --grid --group --jobs 2 --train-minutes 8

    # which runs of the grid have results (done), were trained and decoded another way
    # (trained), were cut by a time budget (partial), or are pending
    python -m compsem.cogs.seq2seq.train --grid --list

A run whose results exist is skipped (``--force`` re-decodes it); an interrupted run resumes from
its last checkpoint. A model is trained once whatever its decodings: a configuration whose
trained model was decoded another way (e.g. greedily) is decoded from its checkpoint when that is
in the cache, and otherwise reported ("trained; decoded with ...") and not trained again. Result
files go to ``data/results/cogs-models/<config hash>/`` (commit them), checkpoints to the compsem
cache.
"""

from __future__ import annotations

import argparse
import sys


def parse_args(argv=None) -> argparse.Namespace:
    from compsem.cogs.seq2seq.config import ARCHITECTURES
    from compsem.cogs.seq2seq.execution import add_execution_arguments
    from compsem.cogs.seq2seq.options import (
        CommandParser,
        embedding_dropout,
        non_negative_float,
        non_negative_int,
        parse,
        positive_int,
    )

    p = CommandParser(
        prog="python -m compsem.cogs.seq2seq.train",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--model", nargs="+", default=["transformer"], choices=sorted(ARCHITECTURES))
    p.add_argument("--seed", nargs="+", type=non_negative_int, default=[1])
    p.add_argument("--exposures", nargs="+", type=int, default=[1], choices=[1, 100])
    p.add_argument(
        "--grid",
        action="store_true",
        help="the paper's grid: transformer, bilstm, lstm x seeds 1-5 x exposures 1, 100 "
        "and the 1- and 6-layer Transformers x seeds 1-5 (ignores --model/--seed/--exposures)",
    )
    p.add_argument("--reduced", action="store_true", help="the reduced CPU configuration")
    p.add_argument(
        "--group",
        action="store_true",
        help="train the seeds of each configuration as one batched model "
        "(compsem.cogs.seq2seq.grouped: each seed's batches, loss, clip, Adam and early stopping; "
        "not its dropout draws), then decode each as its own run",
    )
    p.add_argument("--max-steps", type=positive_int,
                   help="cap on updates (reduced configuration only; default 2,500)")
    p.add_argument("--per-case", type=non_negative_int, default=0,
                   help="gen examples per case (0: all 1,000)")
    p.add_argument("--per-split", type=non_negative_int, default=0,
                   help="dev/test examples (0: all 3,000)")
    p.add_argument(
        "--lstm-embedding-dropout",
        type=embedding_dropout,
        default=None,
        help="dropout after the LSTMs' embeddings (default: 0, none, as OpenNMT-py 1.1.1 ran the "
        "released scripts; 'text': the model's 0.1, as the text says); another value is a "
        "separate configuration (hash)",
    )
    p.add_argument(
        "--train-minutes",
        type=non_negative_float,
        default=0,
        help="a time budget: training of every run ends at its first update after this many "
        "minutes from now, its checkpoint saved (stop reason 'time limit'; then it is decoded on "
        "a sample, 100 gen examples per case and 500 dev/test, and trained further by a later "
        "call), and runs not started by then are left pending (0: no limit, the paper's stopping "
        "rule alone)",
    )
    p.add_argument(
        "--keep-every",
        type=non_negative_int,
        default=0,
        help="keep the weights every N updates (sharded, beside the checkpoints), to score "
        "accuracy over training updates afterwards (0: none; e.g. 500, the validation interval)",
    )
    p.add_argument(
        "--curve",
        action="store_true",
        help="after a run, score its kept weights (--keep-every) on samples of dev, test and each "
        "gen case and write curve.tsv beside its results (accuracy over training updates)",
    )
    p.add_argument("--curve-per-case", type=non_negative_int, default=100,
                   help="gen examples per case (0: all)")
    p.add_argument("--curve-per-split", type=non_negative_int, default=500,
                   help="dev and test examples (0: all)")
    p.add_argument("--results", default="", help="results folder ('' = data/results/cogs-models; 'cache'; a relative path "
                   "is taken from the project root)")
    p.add_argument("--checkpoints", default=None, help="checkpoint folder (default: the cache)")
    add_execution_arguments(p)
    return parse(p, argv)


def configurations(args) -> list[dict]:
    from compsem.cogs.seq2seq import config

    if args.grid:
        return config.paper_grid(lstm_embedding_dropout=_lstm_embedding_dropout(args))
    if args.reduced:
        steps = config.REDUCED_TRAINING["max_steps"] if args.max_steps is None else args.max_steps
        return [
            config.reduced_config(m, s, steps, args.per_case, args.per_split, e)
            for e in args.exposures
            for m in args.model
            for s in args.seed
        ]
    decoding = {"per_case": args.per_case, "per_split": args.per_split}
    return [
        config.make_config(m, seed=s, exposures=e, decoding=decoding, architecture=_arch(m, args))
        for e in args.exposures
        for m in args.model
        for s in args.seed
    ]


def _lstm_embedding_dropout(args) -> float | None:
    """``--lstm-embedding-dropout`` as a configuration value: 0.0 by default (the released
    code), None for ``text`` (the model's dropout)."""
    dropout = getattr(args, "lstm_embedding_dropout", None)
    if dropout is None:
        return 0.0
    return None if dropout == "text" else float(dropout)


def _arch(model: str, args) -> dict | None:
    """Architecture overrides from the command line (the LSTMs' embedding dropout)."""
    from compsem.cogs.seq2seq.config import ARCHITECTURES

    if getattr(args, "lstm_embedding_dropout", None) is None or ARCHITECTURES[model]["arch"] != "lstm":
        return None
    return {"embedding_dropout": _lstm_embedding_dropout(args)}


def _trained(cfg: dict, args_dict: dict) -> bool:
    """Whether ``cfg``'s training (in a group) has finished: its checkpoint says so."""
    from pathlib import Path

    from compsem.cogs.seq2seq import experiment, trainer

    root = Path(args_dict["checkpoints"]) if args_dict["checkpoints"] else None
    return trainer.is_finished(experiment.checkpoint_dir(cfg, root))


def _train_group(cfgs: list[dict], args_dict: dict) -> bool:
    """Train the seeds of one configuration as one batched model
    (:mod:`compsem.cogs.seq2seq.grouped`); False when the time budget ran out before it started."""
    import time
    from pathlib import Path

    from compsem import determinism
    from compsem.cogs.seq2seq import experiment, trainer
    from compsem.cogs.seq2seq.config import config_hash

    determinism.set_threads(args_dict["threads"])
    deadline = args_dict["deadline"]
    if deadline is not None and time.time() >= deadline:
        return False
    root = Path(args_dict["checkpoints"]) if args_dict["checkpoints"] else None
    tag = "+".join(config_hash(c) for c in cfgs)
    trainer.train_group(
        cfgs,
        *experiment.training_data(cfgs[0]["data"]["exposures"]),
        [experiment.checkpoint_dir(c, root) for c in cfgs],
        device=args_dict["device"],
        amp=not args_dict["no_amp"],
        progress=args_dict["progress"],
        deadline=deadline,
        log=lambda line: print(f"[{tag}] {line}", flush=True),
        compile_step=args_dict["compile_step"],
    )
    return True


def _run_one(cfg: dict, args_dict: dict, started: bool = False) -> dict | None:
    """Run one configuration (in this or a worker process); returns its metrics, or None when
    the time budget (``--train-minutes``) ran out before it started (``started``: its training
    already ran in a group, so it is decoded whatever the time)."""
    import time
    from pathlib import Path

    from compsem import determinism
    from compsem.cogs.seq2seq import experiment
    from compsem.cogs.seq2seq.config import config_hash
    from compsem.devices import resolve_device

    determinism.set_threads(args_dict["threads"])
    tag = config_hash(cfg)
    deadline = args_dict["deadline"]
    if deadline is not None and time.time() >= deadline and not started:
        return None
    result = experiment.train_and_decode(
        cfg,
        device=args_dict["device"],
        amp=not args_dict["no_amp"],
        progress=args_dict["progress"],
        results_root=args_dict["results"],
        checkpoint_root=Path(args_dict["checkpoints"]) if args_dict["checkpoints"] else None,
        decode_batch_size=args_dict["decode_batch_size"],
        force=args_dict["force"],
        deadline=deadline,
        keep_every=args_dict["keep_every"],
        log=lambda line: print(f"[{tag}] {line}", flush=True),
        compile_step=args_dict["compile_step"],
    )
    if args_dict["curve"]:
        from compsem.cogs.seq2seq import curve, results

        kept = experiment.checkpoint_dir(cfg, args_dict["checkpoints"])
        frame = curve.trace(
            cfg,
            kept,
            args_dict["curve_per_case"],
            args_dict["curve_per_split"],
            device=resolve_device(args_dict["device"]),
        )
        if len(frame):
            curve.save_curve(
                frame,
                results.result_dir(result.config, args_dict["results"]),  # a cut run: its sample
                args_dict["curve_per_case"],
                args_dict["curve_per_split"],
            )
    return result.metrics


def main(argv=None) -> int:
    from compsem.cogs.seq2seq import results
    from compsem.cogs.seq2seq.config import config_hash, describe
    from compsem.cogs.seq2seq.execution import list_state, print_minutes, run_command

    args = parse_args(argv)
    configs = configurations(args)
    if args.list:
        for cfg in configs:
            state, note = list_state(cfg, args.results, lambda c: _trained(c, vars(args)))
            print(f"{config_hash(cfg)}  {state:<8} {describe(cfg)}{note}")
        print_minutes(configs, args.results)
        return 0
    if args.group and (args.keep_every or args.curve):
        print("--group keeps no weights during training: drop --keep-every/--curve", file=sys.stderr)
        return 2
    return run_command(configs, args, lambda c: results.has_result(c, args.results), _run_one, _train_group,
                       _trained, _summary, describe,
                       trained_with=lambda c: results.trained_with(c, args.results))


def _summary(cfg: dict, metrics: dict | None) -> str:
    from compsem.cogs.seq2seq.config import describe

    if metrics is None:
        return f"{describe(cfg)}: not started (time budget spent); still pending"

    from compsem.cogs.seq2seq.results import throughput

    acc = " ".join(f"{k} {v:.3f}" for k, v in metrics["accuracy"].items())
    return f"{describe(cfg)}: {acc}; {metrics['steps']} updates ({metrics['stop_reason']}), {throughput(metrics)}"


if __name__ == "__main__":
    sys.exit(main())
