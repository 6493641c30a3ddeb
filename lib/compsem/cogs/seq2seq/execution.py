"""Run a list of training configurations, one after the other or as Dask tasks: the one loop
behind both training commands (:mod:`compsem.cogs.seq2seq.train` for Chapter 4's grid,
:mod:`compsem.cogs.seq2seq.auxiliary_train` for Chapter 5's).

With ``jobs`` above 1 (or a ``scheduler`` address) the runs are Dask tasks
(:func:`compsem.dask_tasks.submit_all`), started in the order given: a LocalCluster of ``jobs``
worker processes by default (spawned: CUDA cannot be used in a forked child), or any Dask
cluster. Runs on a GPU declare it (the Dask resource ``GPU``, one unit per run): the LocalCluster's
workers hold one unit each, so ``jobs`` runs share the GPU at a time, and on a cluster only the
workers started with ``--resources GPU=1`` receive them. A run that raises is reported and the
others go on; the caller gets the number of failures (its exit code is 1 when any failed).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

GPU_RESOURCE = {"GPU": 1}
"""What one run on a GPU asks of a Dask worker."""


def add_execution_arguments(parser) -> None:
    """The options of both training commands that say how runs execute, not what they compute
    (none is part of a run's hash): device, bfloat16 autocast, the compiled LSTM step
    (:func:`compsem.cogs.seq2seq.lstm.compile_decoder_step`), threads, Dask jobs or scheduler
    (read by :func:`run_command`), decoding batch size, ``--force``, ``--list``, ``--quiet``.
    Values are checked by the types of :mod:`compsem.cogs.seq2seq.options` before any work."""
    from compsem.cogs.seq2seq.lstm import COMPILE_MODES
    from compsem.cogs.seq2seq.options import device, non_negative_int, positive_int

    parser.add_argument("--device", default="auto", type=device,
                        help="auto, cpu, cuda, cuda:<k> or mps")
    parser.add_argument("--no-amp", action="store_true", help="no bfloat16 autocast on the GPU")
    parser.add_argument("--compile-step", default=None, choices=COMPILE_MODES, metavar="MODE",
                        help="torch.compile the LSTM decoder step with this mode (default fuses its "
                             "kernels; modes that replay CUDA graphs are refused: see "
                             "compsem.cogs.seq2seq.lstm); the same arithmetic up to rounding, not "
                             "part of the run's hash")
    parser.add_argument("--threads", type=non_negative_int, default=0, help="CPU threads (0: default)")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="runs at a time: Dask worker processes of a LocalCluster sharing the GPU")
    parser.add_argument("--scheduler", default=None,
                        help="address of a running Dask scheduler (tcp://host:8786) to run on instead "
                             "of a LocalCluster; GPU runs need workers started with '--resources GPU=1'")
    parser.add_argument("--decode-batch-size", type=positive_int, default=None,
                        help="sentences decoded at a time (default 512 on a GPU, 128 on a CPU: "
                             "compsem.cogs.seq2seq.decoding.BATCH_SIZE); recorded in the metrics")
    parser.add_argument("--force", action="store_true", help="re-decode runs that have results")
    parser.add_argument("--list", action="store_true", help="show which runs have results and exit")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


def uses_gpu(device: str) -> bool:
    """Whether runs asked to use ``device`` run on a GPU: ``cuda``/``cuda:<k>``, or ``auto`` where
    this process sees one (with ``--scheduler`` on a machine without a GPU, name ``cuda``)."""
    if str(device).startswith("cuda"):
        return True
    if device != "auto":
        return False
    import torch

    return torch.cuda.is_available()


def phased(groups: Sequence[list[dict]]) -> tuple[list[tuple[str, list[dict]]], list[list[int]]]:
    """The tasks of seed groups (:func:`compsem.cogs.seq2seq.grouped.groupable`) and what each
    waits for: a group of several seeds trains as one task (``("train", group)``), then each of
    its configurations is decoded by a task of its own (``("decode", [config])``, after its
    group's training), so that the decodings share the workers; a group of one is one task
    (``("run", [config])``). Trainings and single runs come first, in the groups' order."""
    items: list[tuple[str, list[dict]]] = []
    decodes = []
    for group in groups:
        items.append(("train" if len(group) > 1 else "run", list(group)))
        if len(group) > 1:
            decodes.append((len(items) - 1, group))
    after: list[list[int]] = [[] for _ in items]
    for position, group in decodes:
        for cfg in group:
            items.append(("decode", [cfg]))
            after.append([position])
    return items, after


def run_configurations(run_one: Callable[[dict, dict], dict | None], configs: Sequence[dict],
                       options: dict, jobs: int, summary: Callable[[dict, dict | None], str],
                       describe: Callable[[dict], str], scheduler: str | None = None,
                       gpu: bool = False, after: Sequence[Sequence[int]] | None = None) -> int:
    """``run_one(cfg, options)`` for every config, ``jobs`` at a time (1 and no ``scheduler``: in
    this process, in the order given); prints ``summary(cfg, metrics)`` for each, or ``FAILED
    <describe(cfg)>: <error>``. ``gpu``: each run needs the Dask resource :data:`GPU_RESOURCE`.
    ``after[i]``: positions of the configs whose runs must end before run ``i`` starts (e.g.
    :func:`phased`). Returns the number of runs that raised (in this process, an exception
    propagates)."""
    if jobs <= 1 and scheduler is None:
        for cfg in configs:
            print(summary(cfg, run_one(cfg, options)), flush=True)
        return 0
    if not configs:
        return 0
    from compsem.dask_tasks import submit_all

    failures = 0

    names = [f"run{i}" for i in range(len(configs))]

    def report(future) -> None:  # called as each run ends
        nonlocal failures
        cfg = configs[names.index(future.key.rsplit("-", 1)[0])]  # keys are "<name>-<sweep id>"
        error = future.exception() if future.status == "error" else None
        if error is None:
            print(summary(cfg, future.result()), flush=True)
        else:  # report and go on with the other runs
            failures += 1
            print(f"FAILED {describe(cfg)}: {type(error).__name__}: {error}", flush=True)

    submit_all(run_one, [(cfg, options) for cfg in configs], names, scheduler=scheduler,
               n_workers=max(1, jobs), outcome=report, in_order=True, after=after,
               resources=GPU_RESOURCE if gpu else None)
    return failures


def run_groups(configs: Sequence[dict], options: dict, jobs: int, run_one: Callable, train_group: Callable,
               trained: Callable[[dict, dict], bool], summary: Callable[[dict, dict | None], str],
               describe: Callable[[dict], str], scheduler: str | None = None, gpu: bool = False) -> int:
    """A command's ``--group``: ``configs`` in seed groups (:func:`~compsem.cogs.seq2seq.grouped.groupable`)
    run as :func:`phased` tasks through :func:`run_configurations`. ``train_group(cfgs, options)``
    trains a group (True when it ran to the end), ``trained(cfg, options)`` says whether a
    member's training finished, ``run_one(cfg, options, started=...)`` runs or decodes one
    configuration. Returns the number of tasks that raised."""
    from compsem.cogs.seq2seq.grouped import groupable

    items, after = phased(groupable(configs))
    task = functools.partial(_run_task, run_one=run_one, train_group=train_group, trained=trained)
    return run_configurations(task, items, options, jobs, _task_summary(summary, describe),
                              lambda item: f"{item[0]} " + " + ".join(describe(c) for c in item[1]),
                              scheduler=scheduler, gpu=gpu, after=after)


def _run_task(item: tuple[str, list[dict]], options: dict, run_one: Callable, train_group: Callable,
              trained: Callable) -> dict | bool | None:
    """One :func:`phased` task: a group's training, a trained member's decoding (None while its
    group has not finished training: time budget, failure), or a single run."""
    kind, cfgs = item
    if kind == "train":
        return train_group(cfgs, options)
    if kind == "decode":
        return run_one(cfgs[0], options, started=True) if trained(cfgs[0], options) else None
    return run_one(cfgs[0], options)


def _task_summary(summary: Callable[[dict, dict | None], str], describe: Callable[[dict], str]) -> Callable:
    """The line printed when a :func:`phased` task ends, from a command's run summary."""

    def line(item: tuple[str, list[dict]], outcome) -> str:
        kind, cfgs = item
        if kind != "train":
            return summary(cfgs[0], outcome)
        names = " + ".join(describe(c) for c in cfgs)
        return f"{names}: trained as one model" if outcome else f"{names}: not trained to the end (time budget)"

    return line


def run_command(configs: Sequence[dict], args, has_result: Callable[[dict], bool], run_one: Callable,
                train_group: Callable, trained: Callable[[dict, dict], bool],
                summary: Callable[[dict, dict | None], str], describe: Callable[[dict], str],
                trained_with: Callable[[dict], dict | None] | None = None, **options) -> int:
    """What both commands do after parsing: the ``configs`` without results (all with
    ``--force``), counted, then run one by one or as seed groups (``--group``; :func:`run_groups`,
    else :func:`run_configurations`). Each run gets ``vars(args)`` plus ``progress`` (bars only in
    this process), ``deadline`` (from ``--train-minutes``) and ``options``. Returns the command's
    exit status (1 when a run failed).

    A configuration without results whose model was trained and decoded another way
    (``trained_with(cfg)``, e.g. :func:`compsem.cogs.seq2seq.results.trained_with`) is never
    trained again: it runs (and is decoded from its checkpoint) when ``trained(cfg, options)``
    says the checkpoint is here, else it is reported ("trained; decoded with ...") and left as it
    is, since new weights would not be those its other decoding scored."""
    import time

    from compsem.cogs.seq2seq.config import config_hash, describe_decoding

    deadline = time.time() + 60 * args.train_minutes if args.train_minutes > 0 else None
    options = {**vars(args), "progress": not args.quiet and args.jobs == 1 and args.scheduler is None,
               "deadline": deadline, **options}
    todo, reports, done = [], [], 0
    for cfg in configs:
        if has_result(cfg):
            done += 1
            if args.force:
                todo.append(cfg)
            continue
        other = trained_with(cfg) if trained_with is not None else None
        if other is not None and not trained(cfg, options):
            reports.append(f"{describe(cfg)}: trained; decoded with {describe_decoding(other)} "
                           f"({config_hash(other)}); its checkpoint is not here, so it is not trained again")
            continue
        todo.append(cfg)
    kept = f"{len(reports)} trained and decoded another way, " if trained_with is not None else ""
    print(f"{len(configs)} configurations, {done} with results, {kept}{len(todo)} to run", flush=True)
    for line in reports:
        print(line, flush=True)
    if args.group:
        failures = run_groups(todo, options, args.jobs, run_one, train_group, trained, summary, describe,
                              scheduler=args.scheduler, gpu=uses_gpu(args.device))
    else:
        failures = run_configurations(run_one, todo, options, args.jobs, summary, describe,
                                      scheduler=args.scheduler, gpu=uses_gpu(args.device))
    return 1 if failures else 0


def print_minutes(configs, root) -> None:
    """The device minutes of the ``configs`` with results under ``root``, per device (the
    commands' ``--list``; :func:`compsem.cogs.seq2seq.results.minutes_by_device`)."""
    from compsem.cogs.seq2seq.results import minutes_by_device

    for device, (count, minutes) in sorted(minutes_by_device(configs, root).items()):
        print(f"{count} run(s) with results on {device}: {minutes:.1f} device-minutes")


def list_state(cfg: dict, root, trained_here: Callable[[dict], bool]) -> tuple[str, str]:
    """What the commands' ``--list`` says of a configuration with its results under ``root``: a
    state and a note. ``done``; ``trained``: its model's training finished and was decoded another
    way (:func:`~compsem.cogs.seq2seq.results.trained_with`; the next call decodes it from its
    checkpoint when ``trained_here(cfg)``, else leaves it as it is); ``partial``: its training was
    cut by a time budget (decoded its own way or another; the next call trains it further);
    ``pending``."""
    from compsem.cogs.seq2seq import results
    from compsem.cogs.seq2seq.config import describe_decoding

    if results.has_result(cfg, root):
        return "done", ""
    other = results.trained_with(cfg, root)
    if other is not None:
        here = "; its checkpoint is here: the next call decodes it" if trained_here(cfg) else ""
        return "trained", f"; decoded with {describe_decoding(other)}{here}"
    found = results.find_config(cfg, root, any_decoding=True)
    if found is not None:
        steps = results.load_metrics(found, root).get("steps")
        return "partial", f"; cut by a time budget at {steps} updates, decoded with {describe_decoding(found)}"
    return "pending", ""
