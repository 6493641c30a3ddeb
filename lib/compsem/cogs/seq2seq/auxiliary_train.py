"""Command line: the auxiliary-objective grid of Kim (2021), Chapter 5, Experiment 1.

Examples::

    # the Transformer's baseline and glossing, 5 seeds, on one GPU: four runs at a time, one
    # batch of the large output layer at a time (--no-fuse: the vocabulary of the auxiliary
    # text has 28,408 target types), training cut after 6 minutes so that a command
    # limited to 10 minutes also decodes (beam 5, the paper's decoding and the chapter's default; --greedy is
    # faster); run it again until --list shows every run done: finished runs are skipped,
    # interrupted ones resume in either stage from their checkpoints
    python -m compsem.cogs.seq2seq.auxiliary_train --model transformer --objective none gloss \
        --seed 1 2 3 4 5 --jobs 4 --no-fuse --train-minutes 6

    # the whole grid (Transformer, LSTM, BiLSTM x baseline, glossing, denoising x seeds 1-5),
    # the Transformer's baseline and glossing first
    python -m compsem.cogs.seq2seq.auxiliary_train --grid --jobs 4 --no-fuse --train-minutes 6

    # ten seeds, as the dissertation
    python -m compsem.cogs.seq2seq.auxiliary_train --grid --seed 1 2 3 4 5 6 7 8 9 10

    # only the Transformer, baseline and glossing
    python -m compsem.cogs.seq2seq.auxiliary_train --model transformer --objective none gloss \\
        --seed 1 2 3 4 5

    # the reduced CPU configuration of the chapter's default profile
    python -m compsem.cogs.seq2seq.auxiliary_train --reduced --objective none gloss --seed 1 2 3

    # which runs have results (done) or are pending
    python -m compsem.cogs.seq2seq.auxiliary_train --grid --list

Result files go to ``data/results/cogs-auxiliary/<config hash>/`` (commit them; the chapter
``cogs-auxiliary`` reads them), checkpoints to the compsem cache.
"""

from __future__ import annotations

import argparse
import sys


def parse_args(argv=None) -> argparse.Namespace:
    from compsem.cogs.seq2seq.auxiliary_config import GRID_MODELS, OBJECTIVES
    from compsem.cogs.seq2seq.execution import add_execution_arguments
    from compsem.cogs.seq2seq.options import (
        CommandParser,
        non_negative_float,
        non_negative_int,
        parse,
        positive_int,
    )

    p = CommandParser(
        prog="python -m compsem.cogs.seq2seq.auxiliary_train",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--model", nargs="+", default=list(GRID_MODELS), choices=list(GRID_MODELS))
    p.add_argument("--objective", nargs="+", default=list(OBJECTIVES), choices=list(OBJECTIVES))
    p.add_argument("--seed", nargs="+", type=non_negative_int, default=[1, 2, 3, 4, 5])
    p.add_argument("--exposures", type=int, default=None, choices=[1, 100],
                   help="exposure examples per held-out item (default: 1, the paper's; "
                        "100 for --reduced, as the chapter)")
    p.add_argument("--grid", action="store_true",
                   help="every model and objective (the default --model and --objective), the "
                        "Transformer's baseline and glossing first")
    p.add_argument("--group", action="store_true",
                   help="train the seeds of each configuration as one batched model per "
                        "stage (compsem.cogs.seq2seq.grouped), then decode each as its own run")
    p.add_argument("--reduced", action="store_true",
                   help="the reduced CPU configuration (small Transformer; --model is ignored)")
    p.add_argument("--max-steps", type=positive_int, default=None,
                   help="COGS updates (reduced only; default as the chapter, 1500)")
    p.add_argument("--aux-max-steps", type=positive_int, default=None,
                   help="auxiliary updates (reduced only; default as the chapter, 500)")
    p.add_argument("--greedy", action="store_true", help="greedy decoding instead of beam 5")
    p.add_argument("--gloss-tokens", default="word", choices=["word", "primed"],
                   help="a gloss is the word's own output token (default) or the word primed (w')")
    p.add_argument("--cogs-optimizer", default="continue", choices=["continue", "restart"],
                   help="the COGS stage continues the auxiliary stage's Adam state and update count "
                   "(default, as OpenNMT-py's -train_from) or restarts them")
    p.add_argument("--per-case", type=non_negative_int, default=None,
                   help="gen examples per case (0: all, the default)")
    p.add_argument("--per-split", type=non_negative_int, default=None,
                   help="dev/test examples (0: all, the default)")
    p.add_argument("--no-fuse", action="store_true",
                   help="run an update's accumulated batches one by one on the GPU (a quarter of "
                        "the memory for the large output layer; the same gradient)")
    p.add_argument("--train-minutes", type=non_negative_float, default=0,
                   help="time budget from now: training ends at the first update after it, its "
                        "checkpoint saved, and runs not started by then stay pending (0: no limit)")
    p.add_argument("--results", default="", help="results folder ('' = data/results/"
                                                  "cogs-auxiliary, 'cache' = the cache)")
    p.add_argument("--checkpoints", default="", help="checkpoint folder ('' = the cache)")
    add_execution_arguments(p)
    return parse(p, argv)


def configurations(args) -> list[dict]:
    from compsem.cogs.seq2seq import auxiliary_config as ac

    if args.reduced:  # what is not given keeps reduced_aux_config's default (the chapter's)
        given = {k: getattr(args, k) for k in ("max_steps", "aux_max_steps", "exposures",
                                               "per_case", "per_split")
                 if getattr(args, k) is not None}
        return [ac.reduced_aux_config(o, s, gloss_tokens=args.gloss_tokens,
                                      cogs_optimizer=args.cogs_optimizer, **given)
                for o in args.objective for s in args.seed]
    decoding = {"per_case": args.per_case or 0, "per_split": args.per_split or 0}
    if args.greedy:
        decoding["method"] = "greedy"
    models = ac.GRID_MODELS if args.grid else args.model
    objectives = ac.OBJECTIVES if args.grid else args.objective
    exposures = {} if args.exposures is None else {"exposures": args.exposures}  # else aux_grid's
    return ac.aux_grid(models, objectives, args.seed, decoding=decoding, **exposures,
                       gloss_tokens=args.gloss_tokens, cogs_optimizer=args.cogs_optimizer)


def _trained(cfg: dict, options: dict) -> bool:
    """Whether ``cfg``'s two stages (in a group) have finished: its COGS stage's checkpoint says so."""
    from compsem.cogs.seq2seq import trainer, two_stage
    from compsem.cogs.seq2seq.config import training_hash

    return trainer.is_finished(two_stage.checkpoint_root(options["checkpoints"]) / "cogs" / training_hash(cfg))


def _train_group(cfgs: list[dict], options: dict) -> bool:
    """Both stages of the seeds of one configuration, each as one batched model
    (:func:`compsem.cogs.seq2seq.two_stage.train_two_stage_group`); False when the time budget
    ran out before it started or cut it."""
    import time

    from compsem import determinism
    from compsem.cogs.seq2seq import two_stage
    from compsem.cogs.seq2seq.config import config_hash

    determinism.set_threads(options["threads"])
    if options["deadline"] is not None and time.time() >= options["deadline"]:
        return False
    tag = "+".join(config_hash(c) for c in cfgs)
    trained = two_stage.train_two_stage_group(
        cfgs, device=options["device"], amp=not options["no_amp"], progress=options["progress"],
        checkpoints=options["checkpoints"], deadline=options["deadline"],
        log=lambda line: print(f"[{tag}] {line}", flush=True), fuse=False if options["no_fuse"] else None,
        compile_step=options["compile_step"])
    return all(run["done"] for run in trained)


def _run_one(cfg: dict, options: dict, started: bool = False) -> dict | None:
    """Both stages of one configuration, decoded and saved; None when the time budget ran out
    before it started (``started``: trained in a group already, so decoded whatever the time)
    or its auxiliary stage was cut by it."""
    import time

    from compsem import determinism
    from compsem.cogs.seq2seq import two_stage
    from compsem.cogs.seq2seq.config import config_hash

    determinism.set_threads(options["threads"])
    if options["deadline"] is not None and time.time() >= options["deadline"] and not started:
        return None
    tag = config_hash(cfg)
    result = two_stage.train_and_decode(
        cfg, device=options["device"], amp=not options["no_amp"], progress=options["progress"],
        results_dir=options["results"], checkpoints=options["checkpoints"],
        decode_batch_size=options["decode_batch_size"], force=options["force"],
        deadline=options["deadline"], log=lambda line: print(f"[{tag}] {line}", flush=True),
        fuse=False if options["no_fuse"] else None, compile_step=options["compile_step"],
    )
    return None if result is None else result.metrics


def _summary(cfg: dict, metrics: dict | None) -> str:
    from compsem.cogs.seq2seq.auxiliary_config import describe_aux

    if metrics is None:
        return f"{describe_aux(cfg)}: not finished (time budget spent); still pending"
    from compsem.cogs.seq2seq.results import throughput

    acc = " ".join(f"{k} {v:.3f}" for k, v in metrics["accuracy"].items())
    return (f"{describe_aux(cfg)}: {acc}; {metrics['aux_steps']} + {metrics['steps']} updates "
            f"({metrics['stop_reason']}), {throughput(metrics)}")


def main(argv=None) -> int:
    from compsem.cogs.seq2seq import results, two_stage
    from compsem.cogs.seq2seq.auxiliary_config import describe_aux
    from compsem.cogs.seq2seq.config import config_hash
    from compsem.cogs.seq2seq.execution import list_state, print_minutes, run_command

    args = parse_args(argv)
    configs = configurations(args)
    root = two_stage.results_root(args.results)
    if args.list:
        for cfg in configs:
            state, note = list_state(cfg, root, lambda c: _trained(c, vars(args)))
            print(f"{config_hash(cfg)}  {state:<8} {describe_aux(cfg)}{note}")
        print_minutes(configs, root)
        return 0
    return run_command(configs, args, lambda c: results.has_result(c, root), _run_one, _train_group, _trained,
                       _summary, describe_aux, trained_with=lambda c: results.trained_with(c, root),
                       results=str(root))


if __name__ == "__main__":
    sys.exit(main())
