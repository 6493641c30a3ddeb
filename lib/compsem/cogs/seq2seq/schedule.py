"""Which COGS runs fit in one GPU window: budget-aware scheduling in the runbook's order.

A window is a fixed time on a GPU machine whose disk is not kept afterwards (a batch-queue
allocation, a rented instance): nothing survives it, checkpoints included, so a run is worth
starting only if it can train to its stopping rule *and* be decoded before the window
closes; a run cut by the time budget is decoded on a sample and must be trained again from
the start in a later window. Given the minutes left, :func:`plan` walks :data:`RUNBOOK` (the
priority order of the COGS chapters' open runs: the Transformer seeds of Table 4-5 that were cut,
Chapter 5's Transformer baseline and glossing, the 100-exposure Transformer, the size variants
of Figure 4-3, then the LSTM and BiLSTM seed groups) and picks, in that order, every unit
(one run, or one seed group trained as one batched model) whose estimated minutes fit in what
is left; a unit that does not fit is skipped, not started, and a cheaper one after it may
still fit.

The estimate of a unit (:func:`estimate`) is its expected updates times the measured seconds
per update of its model on a GPU, plus its decoding, plus a fixed start-up. Chapter 5's runs
are measured apart from Chapter 4's (:func:`speed_class`: an output layer over the glossing
text's vocabulary, batches one by one); where a figure of theirs is missing, Chapter 4's of the
same model stands in, marked as a guess:

- seconds per update: the median over the committed GPU runs of that model
  (``train_seconds / steps``, :func:`measured`), which includes their validations and the
  sharing of the GPU with the runs beside them; else :data:`BENCH_SECONDS_PER_UPDATE`
  (``benchmarks/results/bench_cogs_h100.txt``, one model alone); ``--speed`` overrides
  both. A seed group trained as one model (``--group``) is counted as its seeds one after the
  other, divided by the group's speed-up: measured from committed group runs of that model
  where there are some, else :data:`BENCH_GROUP_SPEEDUP`;
- expected updates: the most updates of a committed GPU run of the same model and exposures
  that stopped by the paper's rule; else of the same model with other exposures, or, for a
  size variant of Figure 4-3 (``transformer-small``, ``transformer-large``), of the 2-layer
  model with the same exposures (guesses, marked as such: a run that trains longer is cut by its
  ``--train-minutes`` and decoded on a sample, and resumes from its checkpoint when the command
  runs again on the same machine); without any, the configuration's ``max_steps`` (an upper
  bound, marked as such);
  a Chapter 5 run adds its auxiliary stage's: the most updates of a committed GPU run's stage of
  that model and objective to its rule; else the COGS stage's expected updates (a guess: the
  glossing stage's dev loss was still falling fast after 1,000 updates in the one probe, and
  with a patience of 5 validations it runs 3,500 updates at least), else its cap;
- decoding: the longest decoding of a committed GPU run of the same model and decoding method
  over the whole sets, in batches of the size the plan decodes in (``--decode-batch-size``) where
  there are some, else in another size (smaller batches, more steps: an upper bound, noted as
  one); else, for a size variant, the median decoding of its trained siblings
  (the 1-, 2- and 6-layer Transformers), each scaled by the ratio of the two models' benchmarked
  beam speeds (a guess, marked: the benchmark decodes an untrained model whose outputs run to
  the length cap, so its own figure overstates a trained model's decoding by 2-5 times); else
  the sentences over :data:`BENCH_BEAM_SENTENCES_PER_SECOND`;
- what this machine's cache already holds (a unit run before in the same window), stage by
  stage: a stage whose training finished by its rule costs nothing more (a run trained to its
  end, its decoding alone), a stage cut by a time budget the updates it still lacks (at least one
  validation interval).

**Commands shorter than the window.** Where one command may run for less than the window
(``--command-minutes``), units are planned against the window's minutes and each command runs
them as far as it can: a run's training is cut before the command ends (it saves its checkpoint
and is decoded on a sample, :data:`SAMPLE_SENTENCES`), the runs still going when the command ends
are stopped (a finished training keeps its checkpoint), and the same command run again with the
minutes then left, on the same machine, resumes them from the cache.

``python -m compsem.cogs.seq2seq.schedule --minutes 25`` prints the plan and the commands;
``--run`` runs them one after the other, or ``--jobs K`` at a time sharing the GPU, each under a
``--train-minutes`` budget that leaves time for its decoding, the minutes left re-read from the
clock before each starts.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

BENCH_SECONDS_PER_UPDATE = {"transformer": 0.025, "transformer-small": 0.021,
                            "transformer-large": 0.074, "lstm": 0.141, "bilstm": 0.157,
                            "transformer:chapter5": 0.094}
"""One model alone on an H100, bfloat16 autocast, 512 sentences per update
(``benchmarks/results/bench_cogs_h100.txt``); Chapter 5's Transformer (:func:`speed_class`)
from a 2-minute probe of its glossing stage, batches one by one as the runbook runs them
(1,283 updates in 120 s, the command's start included)."""
BENCH_BEAM_SENTENCES_PER_SECOND = {"transformer": 88.8, "transformer-small": 97.1,
                                   "transformer-large": 50.9, "lstm": 124.0, "bilstm": 188.6}
"""Beam-5 decoding on the same machine (same file; an untrained model: outputs run to the cap)."""
FULL_SENTENCES = 27_000
"""dev (3,000) + test (3,000) + gen (21 cases x 1,000)."""
SAMPLE_SENTENCES = 3_100
"""What a run cut by a time budget is decoded on (:data:`compsem.cogs.seq2seq.experiment.CUT_SAMPLE`:
500 dev, 500 test and 100 of each of the 21 gen cases)."""
BENCH_GROUP_SPEEDUP = {"transformer": 0.92, "lstm": 2.10, "bilstm": 1.77}
"""Five seeds trained as one model against five single runs one after the other, same machine
and settings (``benchmarks/results/bench_cogs_group_h100.txt``). The Transformer's group gains
nothing (under ``vmap`` it must use the plain attention kernel), so the runbook runs its seeds
as single runs."""
POLL_SECONDS = 2.0
"""How often :func:`run_plan` looks whether a running unit has ended."""
WATCH_SECONDS = 30.0
"""How often :func:`run_plan` reads the checkpoint of a unit that cannot finish inside the
command (a validation, which writes it, comes every 500 updates: 10 s to a minute)."""
STARTUP_SECONDS = 60.0
"""A command's start: Python, the data, the vocabulary, CUDA."""


@dataclass(frozen=True)
class Unit:
    """One thing the runbook may start: a run, or a seed group trained as one batched model.

    ``command`` is ``"train"`` (Chapter 4, :mod:`compsem.cogs.seq2seq.train`) or ``"auxiliary"``
    (Chapter 5, :mod:`compsem.cogs.seq2seq.auxiliary_train`); ``argv`` its arguments;
    ``configs`` the configurations it produces."""

    label: str
    command: str
    argv: tuple[str, ...]
    configs: tuple = field(compare=False, repr=False)

    @property
    def module(self) -> str:
        return {"train": "compsem.cogs.seq2seq.train",
                "auxiliary": "compsem.cogs.seq2seq.auxiliary_train"}[self.command]


SEEDS = ("1", "2", "3", "4", "5")
RUNBOOK: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("Table 4-5: Transformer, 1 exposure, seeds 4-5", "train",
     ("--model", "transformer", "--exposures", "1", "--seed", "4", "5"), "single"),
    ("Chapter 5: Transformer baseline and glossing", "auxiliary",
     ("--model", "transformer", "--objective", "none", "gloss", "--seed", *SEEDS, "--no-fuse"), "seed"),
    ("Table 4-5: Transformer, 100 exposures", "train",
     ("--model", "transformer", "--exposures", "100", "--seed", *SEEDS), "single"),
    ("Figure 4-3: 1- and 6-layer Transformers", "train",
     ("--model", "transformer-small", "transformer-large", "--exposures", "1", "--seed", *SEEDS), "single"),
    ("Table 4-5: LSTM and BiLSTM", "train",
     ("--model", "lstm", "bilstm", "--exposures", "1", "100", "--seed", *SEEDS), "group"),
)
"""The runbook's priority order: (label, command, arguments, how its runs form units: ``single``,
one run each; ``group``, the seeds of a configuration trained as one model; ``seed``, one run
each, seed by seed, so that a seed's baseline and glossing run of Chapter 5 come one after the
other and the pairs the chapter compares complete first; a pair is not one unit, since its two
runs together can take longer than a short window)."""


def _configurations(command: str, argv: Sequence[str]) -> list[dict]:
    if command == "train":
        from compsem.cogs.seq2seq import train as cli
    else:
        from compsem.cogs.seq2seq import auxiliary_train as cli
    return cli.configurations(cli.parse_args(list(argv)))


def fused(runbook=RUNBOOK) -> tuple:
    """``runbook`` with Chapter 5's batches fused on the GPU (its entries without ``--no-fuse``):
    about four times the memory of the output layer per run, fewer kernel launches per update.
    ``benchmarks/bench_cogs.py --models transformer:chapter5`` measures both ways (seconds per
    update, peak memory) to decide by (``--chapter5-fused``)."""
    return tuple((label, command, tuple(a for a in argv if a != "--no-fuse"), mode)
                 for label, command, argv, mode in runbook)


def units(runbook=RUNBOOK) -> list[Unit]:
    """The runbook as units: one per configuration (seed by seed where the entry says ``seed``),
    or one per seed group (same model, same exposures and, for Chapter 5, objective) where the
    entry trains groups."""
    out = []
    for label, command, argv, mode in runbook:
        if mode not in ("single", "group", "seed"):
            raise ValueError(f"runbook entry {label!r}: mode {mode!r} is not single, group or seed")
        configs = _configurations(command, argv)
        if mode == "seed":
            configs = sorted(configs, key=lambda c: c["seed"])  # stable: objectives in order
        if mode == "group":
            keys = list(dict.fromkeys(_group_key(c) for c in configs))
            for key in keys:
                members = [c for c in configs if _group_key(c) == key]
                seeds = [str(c["seed"]) for c in members]
                out.append(Unit(f"{label}: {_describe_group(members[0])}, seeds {', '.join(seeds)}",
                                command, _one(argv, members[0], seeds) + ("--group",),
                                tuple(members)))
        else:
            for c in configs:
                out.append(Unit(f"{label}: {_describe_group(c)}, seed {c['seed']}", command,
                                _one(argv, c, [str(c["seed"])]), (c,)))
    return out


def _group_key(config: dict) -> tuple:
    aux = config.get("auxiliary", {}).get("objective")
    return (config["model"], config["data"]["exposures"], aux)


def _describe_group(config: dict) -> str:
    aux = config.get("auxiliary", {}).get("objective")
    exposures = config["data"]["exposures"]
    text = f"{config['model']}, {exposures} exposure{'s' if exposures != 1 else ''}"
    return text + (f", {aux}" if aux else "")


def _one(argv: Sequence[str], config: dict, seeds: list[str]) -> tuple[str, ...]:
    """``argv`` narrowed to ``config``'s model, exposures (and objective) and ``seeds``."""
    values = {"--model": [config["model"]], "--exposures": [str(config["data"]["exposures"])],
              "--seed": seeds}
    aux = config.get("auxiliary", {}).get("objective")
    if aux:
        values["--objective"] = [aux]
    out, skip = [], False
    for token in argv:
        if token.startswith("--"):
            skip = token in values
            out += [token, *values[token]] if skip else [token]
        elif not skip:
            out.append(token)
    return tuple(out)


# ---------------------------------------------------------------- what the committed runs measured


@dataclass(frozen=True)
class Measured:
    """Figures of the committed GPU runs (:func:`measured`), by speed class (:func:`speed_class`:
    the model, apart for Chapter 5): seconds per update, of single runs (``seconds_per_update``)
    and, per seed, of seed groups trained as one model (``group_seconds_per_update``); updates
    to the paper's stopping rule by (class, exposures); seconds of a whole decoding by
    (class, method): the longest (``decode_seconds``) and every run's (``decode_runs``), with a
    note where they were decoded in batches of another size than planned (``decode_notes``);
    updates of Chapter 5's auxiliary stage to its stopping rule by (model, objective)
    (``auxiliary_updates``)."""

    seconds_per_update: dict
    updates: dict
    decode_seconds: dict
    group_seconds_per_update: dict = field(default_factory=dict)
    decode_runs: dict = field(default_factory=dict)
    auxiliary_updates: dict = field(default_factory=dict)
    decode_notes: dict = field(default_factory=dict)


def measured(pairs: Sequence[tuple[dict, dict]], decode_batch_size: int | None = None) -> Measured:
    """:class:`Measured` from ``(config, metrics)`` of finished runs, by :func:`speed_class`;
    only runs on a GPU count (``metrics["device"]`` starts with ``cuda``). ``decode_batch_size``:
    the sentences the planned runs decode at a time; a class's decodings in batches of that size
    are its figures where it has some, else those in other sizes, noted
    (``metrics["decode_batch_size"]``, 128 where it predates the record: smaller batches need
    more steps, so on a GPU the figure is an upper bound,
    :data:`compsem.cogs.seq2seq.decoding.BATCH_SIZE`)."""
    speed, group_speed, updates, decode, auxiliary = {}, {}, {}, {}, {}
    for config, metrics in pairs:
        if not str(metrics.get("device", "")).startswith("cuda") or not metrics.get("steps"):
            continue
        kind = speed_class(config)
        seeds = len(metrics.get("trained_with_seeds") or ()) or 1
        (group_speed if seeds > 1 else speed).setdefault(kind, []).append(
            metrics["train_seconds"] / seeds / metrics["steps"])
        if metrics.get("aux_steps"):  # Chapter 5's auxiliary stage: the same model, a second figure
            speed.setdefault(kind, []).append(metrics["aux_train_seconds"] / metrics["aux_steps"])
        if metrics.get("stop_reason") == "early stopping":  # of the COGS stage in Chapter 5
            key = (kind, config["data"]["exposures"])
            updates[key] = max(updates.get(key, 0), int(metrics["steps"]))
        if metrics.get("aux_stop_reason") == "early stopping":
            key = (config["model"], config["auxiliary"]["objective"])
            auxiliary[key] = max(auxiliary.get(key, 0), int(metrics["aux_steps"]))
        decoding = config["decoding"]
        if not decoding.get("per_case") and not decoding.get("per_split"):
            decode.setdefault((kind, decoding["method"]), []).append(
                (int(metrics.get("decode_batch_size", 128)), float(metrics["decode_seconds"])))
    runs, notes = {}, {}
    for key, sized in decode.items():
        same = [seconds for size, seconds in sized if size == decode_batch_size]
        runs[key] = same or [seconds for _, seconds in sized]
        if decode_batch_size is not None and not same:
            sizes = ", ".join(str(size) for size in sorted({size for size, _ in sized}))
            notes[key] = f" (in batches of {sizes}, not {decode_batch_size}: an upper bound)"
    return Measured({m: statistics.median(v) for m, v in speed.items()}, updates,
                    {key: max(v) for key, v in runs.items()},
                    {m: statistics.median(v) for m, v in group_speed.items()}, runs, auxiliary, notes)


def cached_progress(config: dict) -> dict[str, tuple[int, bool]]:
    """What this machine's checkpoint cache holds of ``config``'s training, by stage (``cogs``;
    for Chapter 5 also ``auxiliary``): (updates of that stage, finished by its stopping rule),
    read from each stage's ``last.pt`` (its digest checked); a stage without one, or whose file
    does not match its digest, is left out."""
    from compsem.cogs.seq2seq import experiment, trainer, two_stage
    from compsem.cogs.seq2seq.auxiliary_config import stage_one_config
    from compsem.cogs.seq2seq.config import training_hash

    if "auxiliary" not in config:
        folders = {"cogs": experiment.checkpoint_dir(config)}
    else:
        root = two_stage.checkpoint_root()
        folders = {"cogs": root / "cogs" / training_hash(config)}
        if config["auxiliary"]["objective"] != "none":
            folders["auxiliary"] = root / "auxiliary" / training_hash(stage_one_config(config))
    held = {}
    for stage, folder in folders.items():
        if (folder / "last.pt").exists():
            try:
                state = trainer.load_checkpoint(folder / "last.pt")["state"]
            except RuntimeError:  # caught between the file and its digest being written, or
                continue  # damaged (the trainer names it when it resumes): not counted
            held[stage] = (int(state["step"]) - int(state.get("start_step", 0)),
                           bool(state["done"]) and state["stop_reason"] != "time limit")
    return held


def _finished(held: dict[str, tuple[int, bool]]) -> bool:
    """Whether a :func:`cached_progress` says the whole training has finished."""
    return held.get("cogs", (0, False))[1]


def committed_runs() -> list[tuple[dict, dict]]:
    """``(config, metrics)`` of every committed result of both chapters whose files read back
    and match their digests (:func:`compsem.cogs.seq2seq.results.result_problem`)."""
    import json

    from compsem.cogs.seq2seq import results, two_stage

    pairs = []
    for root in (results.RESULTS_DIR, two_stage.RESULTS_DIR):
        for folder in sorted(root.glob("*/")) if root.exists() else []:
            if results.result_problem(folder) is None:
                pairs.append((json.loads((folder / "config.json").read_text()),
                              json.loads((folder / "metrics.json").read_text())))
    return pairs


# ---------------------------------------------------------------- estimates and the plan


@dataclass(frozen=True)
class Estimate:
    """A unit's minutes from start to saved results, of which ``train_minutes`` training; how
    they were estimated (``note``); ``bound``: the updates are the configuration's cap or a guess
    from another configuration, not a measured stop."""

    minutes: float
    train_minutes: float
    note: str
    bound: bool = False


def speed_class(config: dict) -> str:
    """What the figures of ``config``'s runs are kept under: its model, or ``<model>:chapter5``
    for Chapter 5's runs, whose output layer spans the glossing text's vocabulary (28,408
    target types against COGS's 700 or so) and whose batches run one by one (``--no-fuse``), so
    that their speed, stop and decoding are not Chapter 4's (``--speed transformer:chapter5=S``)."""
    return f"{config['model']}:chapter5" if "auxiliary" in config else config["model"]


def _class_speed(kind: str, figures: Measured, speeds: dict) -> tuple[float | None, str]:
    """Seconds per update of a speed class and where it comes from: given, measured, benchmarked."""
    if kind in speeds:
        return speeds[kind], "given"
    if kind in figures.seconds_per_update:
        return figures.seconds_per_update[kind], "measured"
    return BENCH_SECONDS_PER_UPDATE.get(kind), "benchmark"


def estimate(unit: Unit, figures: Measured, speeds: dict | None = None,
             progress: Callable[[dict], dict] | None = None) -> Estimate | None:
    """Minutes ``unit`` needs from start to saved results (module docstring); None when no speed
    is known for its model (measured, benchmarked or given). ``progress``: what this machine's
    cache holds of a configuration's training (:func:`cached_progress`); not given, every run
    starts from nothing."""
    config = unit.configs[0]
    kind = speed_class(config)
    speed, source = _class_speed(kind, figures, speeds or {})
    if speed is None and kind != config["model"]:  # Chapter 4's figure: a guess
        speed, source = _class_speed(config["model"], figures, speeds or {})
        source = f"{source}, as Chapter 4's, a guess"
    if speed is None:
        return None
    if "--group" in unit.argv and len(unit.configs) > 1:
        if kind in figures.group_seconds_per_update:
            speed, source = figures.group_seconds_per_update[kind], "measured, group"
        else:
            gain = BENCH_GROUP_SPEEDUP.get(kind, 1.0)
            speed, source = speed / gain, f"{source}, group speed-up {gain:.2f}x"
    pieces: dict[tuple, int] = {}  # (updates, how shown, decoding s, its source, a guess) -> runs
    for c in unit.configs:
        piece = _expected_run(c, figures, progress(c) if progress is not None else {})
        pieces[piece] = pieces.get(piece, 0) + 1
    train = sum(n * updates * speed for (updates, *_), n in pieces.items())
    seconds = STARTUP_SECONDS + train + sum(n * decode for (_, _, decode, *_), n in pieces.items())
    note = " + ".join(f"{n} x ({shown} x {speed:.3f} s ({source}) + decoding {decode:.0f} s{how})"
                      for (_, shown, decode, how, _), n in pieces.items())
    note += f" + start {STARTUP_SECONDS:.0f} s"
    return Estimate(seconds / 60, train / 60, note, bound=any(b for *_, b in pieces))


def _expected_run(config: dict, figures: Measured,
                  held: dict | None = None) -> tuple[int, str, float, str, bool]:
    """One configuration's expected updates, how they are shown, its decoding seconds and where
    they come from, and whether the updates or the decoding are a bound or a guess rather than
    measured (module docstring); ``held``: what the cache holds of it (:func:`cached_progress`).
    A Chapter 5 run without figures of its own (:func:`speed_class`) takes Chapter 4's of the
    same model, marked as a guess."""
    exposures, kind, model = config["data"]["exposures"], speed_class(config), config["model"]
    stop, source_of_stop = figures.updates.get((kind, exposures)), ""
    if stop is None and kind != model:
        stop = figures.updates.get((model, exposures))
        source_of_stop = " (as Chapter 4's, a guess)" if stop is not None else ""
    if stop is None:  # the same model's stop with other exposures: a guess, marked as one
        others = sorted((e, n) for (m, e), n in figures.updates.items() if m == model)
        if others:
            stop = max(n for _, n in others)
            source_of_stop = f" (as with {', '.join(str(e) for e, _ in others)} exposure(s))"
    family = model.split("-")[0]
    if stop is None and family != model:  # a size variant: the main model's stop, a guess
        stop = figures.updates.get((family, exposures))
        if stop is not None:
            source_of_stop = f" (as the {family}, {exposures} exposure(s))"
    updates = stop if stop is not None else int(config["training"]["max_steps"])
    shown = f"{updates:,} updates{' (cap)' if stop is None else source_of_stop}"
    updates, shown = _left(updates, shown, (held or {}).get("cogs"), config["training"])
    aux, how_first = config.get("auxiliary"), ""
    if aux is not None and aux.get("objective", "none") != "none":
        # the stage's measured stop; else the COGS stage's, a guess; else its cap
        first = figures.auxiliary_updates.get((model, aux["objective"]))
        if first is None and stop is not None:
            first, how_first = stop, " (as the COGS stage, a guess)"
        elif first is None:
            first, how_first = int(aux["training"]["max_steps"]), " (cap)"
        more, more_shown = _left(first, f"{first:,} {aux['objective']}{how_first}",
                                 (held or {}).get("auxiliary"), aux["training"])
        updates, shown = updates + more, f"{shown} + {more_shown}"
    method = config["decoding"]["method"]
    decode, how = figures.decode_seconds.get((kind, method)), figures.decode_notes.get((kind, method), "")
    if decode is None and kind != model:
        decode = figures.decode_seconds.get((model, method))
        how = figures.decode_notes.get((model, method), "") + " (as Chapter 4's, a guess)"
    if decode is None:
        decode, how = _sibling_decoding(model, method, figures), " (scaled from the other sizes)"
    if decode is None:
        rate = BENCH_BEAM_SENTENCES_PER_SECOND.get(
            model, BENCH_BEAM_SENTENCES_PER_SECOND.get(model.split("-")[0], 50.0))
        decode, how = FULL_SENTENCES / rate, " (benchmark)"
    guessed = stop is None or bool(source_of_stop or how or how_first)
    return updates, shown, float(decode), how, guessed


def _left(updates: int, shown: str, held: tuple[int, bool] | None,
          training: dict) -> tuple[int, str]:
    """A stage's updates still to train, and how they are shown, given what the cache ``held``
    of it: none when it finished, else what it lacks, at least one validation interval."""
    if held is None:
        return updates, shown
    done, finished = held
    if finished:
        return 0, f"0 updates ({shown}: finished in the cache)"
    left = max(updates - done, int(training["valid_every"]))
    return left, f"{left:,} updates ({done:,} of {shown} in the cache)"


def _sibling_decoding(model: str, method: str, figures: Measured) -> float | None:
    """Seconds of a whole decoding of ``model`` guessed from its trained siblings of the same
    family (``transformer``, ``transformer-small``, ``transformer-large``): the median of their
    decodings, each scaled by the ratio of the two models' benchmarked beam speeds; None without
    a benchmarked speed or a sibling's decoding (module docstring)."""
    family = model.split("-")[0]
    if model not in BENCH_BEAM_SENTENCES_PER_SECOND:
        return None
    rates = BENCH_BEAM_SENTENCES_PER_SECOND
    scaled = [seconds * rates[other] / rates[model]
              for (other, how), runs in sorted(figures.decode_runs.items())
              if other != model and other.split("-")[0] == family and how == method
              and other in rates for seconds in runs]
    return statistics.median(scaled) if scaled else None


@dataclass(frozen=True)
class Step:
    unit: Unit
    estimate: Estimate | None
    decision: str  # one of DECISIONS


DECISIONS = ("run", "done", "does not fit", "longer than a window", "no speed known")


def plan(candidates: Sequence[Unit], minutes: float, figures: Measured,
         done: Callable[[Unit], bool], speeds: dict | None = None,
         window: float | None = None, jobs: int = 1,
         progress: Callable[[dict], dict] | None = None) -> list[Step]:
    """Every unit in priority order with its estimate and decision (:data:`DECISIONS`): ``run``
    when it is not done and fits in the minutes left after the units chosen before it; ``does
    not fit`` the minutes left, or ``longer than a window`` of ``window`` minutes (it can never
    finish in one: group its seeds, measure a faster speed, or shorten it); ``no speed known``
    for its model (give one with ``--speed``). Greedy in the runbook's order: a unit that does
    not fit is skipped, never started.

    ``jobs`` units run at once, sharing the GPU: each chosen unit takes the first of ``jobs``
    slots to come free, and fits when it ends before ``minutes`` (``jobs=1``: one after the
    other). The estimates do not slow down with the sharing: give the speeds of a shared GPU
    (the committed runs' were measured with 2 to 8 runs on one GPU; ``--speed``). ``progress``:
    as in :func:`estimate`."""
    slots = [0.0] * max(1, int(jobs))  # minutes at which each slot comes free
    steps = []
    for unit in candidates:
        guess = estimate(unit, figures, speeds, progress)
        free = min(slots)
        if done(unit):
            steps.append(Step(unit, guess, "done"))
        elif guess is None:
            steps.append(Step(unit, None, "no speed known"))
        elif window is not None and guess.minutes > window:
            steps.append(Step(unit, guess, "longer than a window"))
        elif free + guess.minutes <= float(minutes):
            steps.append(Step(unit, guess, "run"))
            slots[slots.index(free)] = free + guess.minutes
        else:
            steps.append(Step(unit, guess, "does not fit"))
    return steps


def is_done(unit: Unit) -> bool:
    """Whether every configuration of ``unit`` has its results (time-limited runs do not
    count: they are trained again)."""
    from compsem.cogs.seq2seq import results, two_stage

    root = results.RESULTS_DIR if unit.command == "train" else two_stage.RESULTS_DIR
    return all(results.has_result(c, root) for c in unit.configs)


def show(steps: Sequence[Step], minutes: float, jobs: int = 1) -> str:
    lines = [f"plan for {minutes:.1f} minutes of GPU time (estimates: "
             "python -m compsem.cogs.seq2seq.schedule --help)"]
    total = sum(s.estimate.minutes for s in steps if s.decision == "run")
    for s in steps:
        guess = f"{s.estimate.minutes:6.1f} min" if s.estimate else "     ? min"
        lines.append(f"  {s.decision:<20} {guess}  {s.unit.label}")
        if s.estimate and s.decision != "done":
            lines.append(f"{'':32}{s.estimate.note}")
    chosen = sum(s.decision == "run" for s in steps)
    if jobs > 1:
        lines.append(f"{chosen} unit(s) to run: {total:.1f} minutes of runs, {jobs} at a time, in a "
                     f"window of {minutes:.1f} minutes")
    else:
        lines.append(f"{chosen} unit(s) to run: {total:.1f} of {minutes:.1f} minutes estimated")
    return "\n".join(lines)


def command_line(unit: Unit, extra: Sequence[str] = ()) -> list[str]:
    return [sys.executable, "-m", unit.module, *unit.argv, *extra]


@dataclass
class _Running:
    """A started unit: its process, its decoding's minutes, and whether it is watched (it could
    not finish inside this command) and when it was last looked at."""

    step: Step
    process: object
    decode_minutes: float
    watched: bool
    looked: float = float("-inf")


def run_plan(steps: Sequence[Step], minutes: float, extra: Sequence[str] = (),
             clock: Callable[[], float] = time.monotonic, jobs: int = 1,
             launch: Callable = subprocess.Popen, pause: Callable[[float], None] = time.sleep,
             command_minutes: float | None = None,
             progress: Callable[[dict], dict] | None = None) -> int:
    """Run the ``run`` units in order, up to ``jobs`` at a time (each its own process), each under
    ``--train-minutes`` = the minutes left less its decoding and start-up, so that it is decoded
    before the window closes; a unit whose estimate no longer fits the minutes left when a slot
    comes free (an earlier one took longer) is not started.

    ``command_minutes`` (module docstring, *Commands shorter than the window*): this command's
    own minutes, fewer than the window's. A unit's training is then also cut in time for its
    sample decoding before the command ends; a unit is started only while at least half a minute
    of its training (or, trained already, its whole decoding) fits in the command; a unit that
    cannot finish inside the command is looked at every :data:`WATCH_SECONDS` in the
    cache (``progress``, as in :func:`estimate`) and stopped as soon as its training has finished
    when its decoding no longer fits (the command run again decodes it whole); the units still
    running when the command ends are stopped. Returns the number of units that failed, were
    stopped or were not started."""
    now = clock()
    end = now + 60 * minutes
    stop = now + 60 * min(minutes, command_minutes or minutes)
    queue = [step for step in steps if step.decision == "run"]
    running: list[_Running] = []
    problems = 0
    try:
        while queue or running:
            if clock() >= stop:
                stopped = len(running)
                for r in running:
                    print(f"[schedule] stopped at the command's end (run the command again to resume "
                          f"it): {r.step.unit.label}", flush=True)
                    _stop(r.process)
                running.clear()
                for step in queue:
                    print(f"[schedule] not started, the command ended: {step.unit.label}", flush=True)
                return problems + stopped + len(queue)
            for r in list(running):
                code = r.process.poll()
                if code is not None:
                    running.remove(r)
                    problems += code != 0
                elif r.watched and progress is not None and clock() - r.looked >= WATCH_SECONDS:
                    r.looked = clock()
                    in_command = (stop - clock()) / 60
                    if (all(_finished(progress(c)) for c in r.step.unit.configs)
                            and r.decode_minutes > in_command):
                        print(f"[schedule] trained; its decoding ({r.decode_minutes:.1f} min) does not "
                              f"fit the {in_command:.1f} min left in this command, stopped (run the "
                              f"command again to decode it): {r.step.unit.label}", flush=True)
                        _stop(r.process)
                        running.remove(r)
                        problems += 1
            while queue and len(running) < max(1, int(jobs)):
                step = queue.pop(0)
                left, in_command = (end - clock()) / 60, (stop - clock()) / 60
                if step.estimate.minutes > left:
                    print(f"[schedule] not started, {left:.1f} min left: {step.unit.label}", flush=True)
                    problems += 1
                    continue
                decode_and_start = step.estimate.minutes - step.estimate.train_minutes
                decode = decode_and_start - STARTUP_SECONDS / 60
                train = left - decode_and_start
                if in_command < left:  # cut in time for a sample decoding before the command ends
                    sample = decode * SAMPLE_SENTENCES / FULL_SENTENCES
                    train = min(train, in_command - STARTUP_SECONDS / 60 - sample)
                fits = (train >= 0.5 if step.estimate.train_minutes > 0
                        else decode_and_start <= in_command)
                if not fits:
                    print(f"[schedule] not started, {in_command:.1f} min left in this command (run "
                          f"the command again): {step.unit.label}", flush=True)
                    problems += 1
                    continue
                argv = command_line(step.unit, [*extra, "--train-minutes", f"{max(0.5, train):.2f}"])
                print(f"[schedule] {step.unit.label}: {' '.join(argv[1:])}", flush=True)
                watched = step.estimate.minutes > in_command
                running.append(_Running(step, launch(argv), decode, watched))
            if running:
                pause(POLL_SECONDS)
        return problems
    finally:  # interrupted (SIGTERM, Ctrl-C): no run is left behind, training unwatched
        for r in running:
            if r.process.poll() is None:
                _stop(r.process)


def _stop(process, grace: float = 30.0) -> None:
    """Terminate ``process``, and kill it if it has not ended after ``grace`` seconds."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _speed(text: str) -> tuple[str, float]:
    model, _, value = text.partition("=")
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--speed {text!r}: give MODEL=SECONDS, e.g. "
                                         "transformer=0.03") from None
    if not model or seconds <= 0:
        raise argparse.ArgumentTypeError(f"--speed {text!r}: give MODEL=SECONDS with SECONDS > 0")
    return model, seconds


def parse_args(argv=None) -> argparse.Namespace:
    from compsem.cogs.seq2seq.options import CommandParser, non_negative_float, parse, positive_int

    p = CommandParser(prog="python -m compsem.cogs.seq2seq.schedule",
                      description=__doc__.split("\n\n")[0],
                      formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--minutes", type=non_negative_float, required=True,
                   help="GPU minutes left in this window")
    p.add_argument("--window", type=non_negative_float, default=None,
                   help="minutes of a whole GPU window: a unit estimated longer is marked as never "
                        "fitting one (default: no whole window is known, and a unit that does not "
                        "fit the minutes left is marked as such only; 0 is the same)")
    p.add_argument("--speed", type=_speed, action="append", default=[], metavar="MODEL=SECONDS",
                   help="seconds per update of a model on this GPU (e.g. measured by "
                        "benchmarks/bench_cogs.py), "
                        "instead of the committed runs' figure; Chapter 5's runs as "
                        "MODEL:chapter5 (e.g. transformer:chapter5=0.09)")
    p.add_argument("--jobs", type=positive_int, default=1,
                   help="units run at once, sharing the GPU, each its own process (default 1: one "
                        "after the other); give speeds measured on a GPU so shared (--speed)")
    p.add_argument("--command-minutes", type=non_negative_float, default=None,
                   help="minutes this command may run, where fewer than --minutes (a limit on "
                        "each command): runs are cut and stopped in time, and the same command "
                        "run again resumes them from this machine's cache")
    p.add_argument("--run", action="store_true", help="run the plan (otherwise print it)")
    p.add_argument("--device", default="auto", help="passed to the training commands")
    p.add_argument("--chapter5-fused", action="store_true",
                   help="Chapter 5's batches fused on the GPU, not one by one (four times the "
                        "memory of its output layer; see benchmarks/bench_cogs.py)")
    p.add_argument("--decode-batch-size", type=positive_int, default=None,
                   help="sentences decoded at a time, passed to the training commands (default "
                        "512 on a GPU, 128 on a CPU: compsem.cogs.seq2seq.decoding.BATCH_SIZE); "
                        "decodings measured in batches of this size are the estimates' figures")
    return parse(p, argv)


def _exit_on_sigterm(signum, frame):
    """SIGTERM (a command's time limit) as an exit, so that :func:`run_plan` stops its runs."""
    sys.exit(128 + signum)


def main(argv=None) -> int:
    from compsem.cogs.seq2seq.decoding import batch_size_for
    from compsem.cogs.seq2seq.execution import uses_gpu

    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    batch = args.decode_batch_size or batch_size_for("cuda" if uses_gpu(args.device) else "cpu")
    runbook = fused() if args.chapter5_fused else RUNBOOK
    steps = plan(units(runbook), args.minutes, measured(committed_runs(), batch), is_done, dict(args.speed),
                 window=args.window or None, jobs=args.jobs, progress=cached_progress)
    print(show(steps, args.minutes, args.jobs), flush=True)
    if not args.run:
        return 0
    extra = ["--device", args.device, "--decode-batch-size", str(batch)]
    return 1 if run_plan(steps, args.minutes, extra, jobs=args.jobs,
                         command_minutes=args.command_minutes, progress=cached_progress) else 0


if __name__ == "__main__":
    sys.exit(main())
