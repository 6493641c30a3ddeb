"""The probing experiment of both papers as one grid: tasks x encoders x controls x seeds.

:func:`run_grid` trains a probe (the 2016 logistic regression or the 2018 MLP,
:func:`compsem.probing.evaluate.run_probe`) for every cell and returns a tidy frame, one row per
(task, encoder, classifier, control, seed); :func:`summarise` turns it into one row per cell
with an interval (Student-t over seeds when there are several, else the percentile bootstrap
over test items of the 2018 authors); :func:`selectivity` gives task minus control-task
accuracy (Hewitt & Liang 2019) where the control is sound (:mod:`compsem.probing.controls`).

Controls (``controls=``):

- ``"none"``: the task itself;
- ``"random sentence"`` / ``"random probe"``: the 2018 controls, random Gaussian vectors in place
  of the sentence vectors (the probe alone) or of the probe vectors (the sentence alone);
- ``"control task"``: the Hewitt & Liang control task of the same items.

Encoders are names of :func:`compsem.probing.features.encode` (``bow``, ``random``, ``glove50``,
``spacy-md``, ``minilm``, ``mpnet``, ``mpnet:layer<k>[:cls]``, ``sdae``, ``hf:<id>``, ...).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from compsem import stats
from compsem.probing import controls, evaluate

CONTROLS = ("none", "random sentence", "random probe", "control task")

Frames = Mapping[str, "pd.DataFrame | Callable[[int], pd.DataFrame]"]


def items_for(frames: Frames, task: str, seed: int) -> pd.DataFrame:
    """The item frame of ``task`` for ``seed``: a frame, or a function of the seed (a re-split
    or a subsample) called with it."""
    value = frames[task]
    return value(seed) if callable(value) else value


def _encoders_of(encoders, task: str) -> list[str]:
    return list(encoders[task] if isinstance(encoders, Mapping) else encoders)


def run_grid(
    frames: Frames,
    encoders: Sequence[str] | Mapping[str, Sequence[str]],
    classifier: str = "logreg",
    controls_to_run: Sequence[str] = ("none",),
    seeds: Sequence[int] = (0,),
    control_seeds: Sequence[int] | None = None,
    n_boot: int = stats.BOOTSTRAP_RESAMPLES,
    batch_size: int = 64,
    device: str = "auto",
    lexicon=None,
    progress: bool = True,
    **classifier_options,
) -> pd.DataFrame:
    """Train and score ``classifier`` on every (task, encoder, control, seed).

    ``frames``: task -> item frame, or task -> function of the seed giving one (2016: a new
    split per seed). ``encoders``: a list for every task, or task -> list. ``seeds`` seed the
    split (through ``frames``), the random controls and the classifier; the controls other than
    ``"none"`` run for ``control_seeds`` only (default: every seed). ``classifier_options`` go
    to the classifier (``max_epochs`` of the MLP, ...).

    Returns one row per fit: task, encoder, classifier, control, seed, accuracy, low, high
    (percent; bootstrap over test items), chance (percent), n_test, C, epochs, and for a control
    task its coverage and soundness; ``correct`` and ``kind`` hold the per-test-item
    correctness and item kinds (for breakdowns and paired comparisons).
    """
    unknown = [c for c in controls_to_run if c not in CONTROLS]
    if unknown:
        raise ValueError(f"controls {unknown} unknown; choose from {CONTROLS}")
    control_seeds = list(seeds if control_seeds is None else control_seeds)
    cells = [
        (task, seed, encoder)
        for task in frames
        for seed in seeds
        for encoder in _encoders_of(encoders, task)
    ]
    rows = []
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(cells), desc=f"probing ({classifier})", leave=False)
    items, items_key, control_items = None, None, {}
    for task, seed, encoder in cells:
        if (task, seed) != items_key:
            items, items_key, control_items = items_for(frames, task, seed), (task, seed), {}
        S, index = evaluate.sentence_vectors(
            items, encoder, seed=seed, batch_size=batch_size, device=device
        )
        for control in controls_to_run:
            if control != "none" and seed not in control_seeds:
                continue
            extra = {}
            if control == "control task":
                if "frame" not in control_items:
                    frame = controls.control_task(items, seed, lexicon)
                    control_items = {"frame": frame, **controls.soundness(frame)}
                data, probe_control = control_items["frame"], None
                extra = dict(coverage=control_items["coverage"], sound=control_items["sound"])
            else:
                data, probe_control = items, None if control == "none" else control
            r = evaluate.run_probe(
                data,
                S,
                index,
                classifier,
                probe_control,
                seed=seed,
                n_boot=n_boot,
                **classifier_options,
            )
            rows.append(
                dict(
                    task=task,
                    encoder=encoder,
                    classifier=classifier,
                    control=control,
                    seed=seed,
                    accuracy=100 * r["accuracy"],
                    low=100 * r["low"],
                    high=100 * r["high"],
                    chance=100 * r["chance"],
                    n_test=r["n_test"],
                    C=r["C"],
                    epochs=r["epochs"],
                    correct=r["correct"],
                    kind=data.loc[data["split"] == "test", "kind"].to_numpy(),
                    **extra,
                )
            )
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return pd.DataFrame(rows)


CELL = ["task", "encoder", "classifier", "control"]


def summarise(runs: pd.DataFrame, level: float = 0.95, shared_items: bool = False,
              n_boot: int = stats.BOOTSTRAP_RESAMPLES, extra_levels: Mapping[str, float] | None = None) -> pd.DataFrame:
    """One row per (task, encoder, classifier, control): mean accuracy over seeds with a
    Student-t interval over seeds (``interval = "seeds"``), or, for a single seed, the
    bootstrap interval over test items (``interval = "items"``). With ``shared_items`` (every
    seed of a cell scores the same test items, as on the released 2018 sets, where the seed
    varies the probe only) the interval covers the items and the seeds together
    (:func:`shared_item_intervals`, ``n_boot`` resamples seeded by the first seed; ``interval =
    "items and seeds"``). Every interval at ``level``
    (:func:`cell_intervals`); with ``extra_levels`` (suffix -> level, e.g. ``{"90": 0.90}``)
    each cell's intervals at those levels too, in the columns ``low<suffix>`` /
    ``high<suffix>`` after the others, read from the same seeds or resamples: a cell draws its
    resamples once, whatever the number of levels."""
    extra = dict(extra_levels or {})
    out = []
    for key, group in runs.groupby(CELL, sort=False):
        mean, bounds, over = cell_intervals(group, [level, *extra.values()], shared_items, n_boot)
        (low, high), *others = bounds
        row = dict(zip(CELL, key, strict=True), accuracy=mean, low=low, high=high, interval=over,
                   n_seeds=len(group), chance=float(group["chance"].mean()))
        for suffix, (extra_low, extra_high) in zip(extra, others, strict=True):
            row[f"low{suffix}"], row[f"high{suffix}"] = extra_low, extra_high
        out.append(row)
    return pd.DataFrame(out)


PERCENT = (0.0, 100.0)
"""The range of an accuracy in percent: the ``bounds`` of every Student-t interval over seeds or
trainings here (:func:`compsem.stats.seed_interval`; three seeds near 100% would otherwise give
an upper bound past it)."""

PERCENT_DIFFERENCE = (-100.0, 100.0)
"""The range of a difference of two accuracies in percent (selectivity)."""

FIT_LEVEL = 0.95
"""The level of the bootstrap interval over test items that :func:`run_grid` stores with each
fit (:func:`compsem.probing.evaluate.run_probe`)."""


def cell_intervals(group: pd.DataFrame, levels: Sequence[float] = (0.95,), shared_items: bool = False,
                   n_boot: int = stats.BOOTSTRAP_RESAMPLES) -> tuple[float, list[tuple[float, float]], str]:
    """``(accuracy, [(low, high) per level of levels], over)`` (percent) of one cell's fits (rows
    of :func:`run_grid`): over several seeds the Student-t interval
    (:func:`compsem.stats.seed_interval`), or with ``shared_items`` an interval over the items
    and the seeds together (:func:`shared_item_intervals`, resamples seeded by the first fit's
    seed); for one fit the percentile bootstrap over its test items, the fit's own interval at
    :data:`FIT_LEVEL`, else :func:`compsem.stats.mean_intervals` of its per-item correctness with ``n_boot``
    resamples seeded by the fit's seed, the resamples :func:`run_grid` drew with the same
    ``n_boot``. Every level is read from one set of resamples (or the same seeds), drawn once,
    so a higher level's interval contains a lower one's: a Bonferroni interval
    (:func:`compsem.stats.bonferroni_level`) contains the uncorrected one. ``over`` names the
    units resampled: ``"seeds"``, ``"items and seeds"`` or ``"items"``."""
    levels = list(levels)
    mean = stats.seed_interval(group["accuracy"])[0]
    if len(group) == 1:
        row = group.iloc[0]
        stored = (float(row["low"]), float(row["high"]))
        others = [level for level in levels if not math.isclose(level, FIT_LEVEL)]
        drawn = {}  # the other levels, from one set of resamples
        if others:
            drawn = dict(zip(others, stats.mean_intervals(row["correct"], others, n_boot, int(row["seed"])),
                             strict=True))
        bounds = [stored if math.isclose(level, FIT_LEVEL) else (100 * drawn[level][0], 100 * drawn[level][1])
                  for level in levels]
        return mean, bounds, "items"
    if shared_items:
        mean, bounds = shared_item_intervals(group, levels, n_boot)
        return mean, bounds, "items and seeds"
    return mean, [stats.seed_interval(group["accuracy"], level, PERCENT)[1:] for level in levels], "seeds"


def shared_item_intervals(group: pd.DataFrame, levels: Sequence[float] = (0.95,),
                          n_boot: int = stats.BOOTSTRAP_RESAMPLES) -> tuple[float, list[tuple[float, float]]]:
    """``(accuracy, [(low, high) per level of levels])`` in percent of one cell's fits over seeds (or
    trainings) that score the same test items: the hull of the Student-t interval over the fits
    (:func:`compsem.stats.seed_interval`), which carries the draw of the seed, and the percentile
    bootstrap of the items and the fits together (:func:`crossed_intervals`), which carries the
    sampling of the test items too but, over as few as three fits, cannot reach beyond their
    range. Each alone leaves one source out or under-covers it; the hull covers both. Each level's
    bootstrap interval comes from one set of resamples, so a Bonferroni interval contains the
    uncorrected one, as do the t-intervals. The accuracy is the bootstrap's (the mean of every
    fit's correctness on every item)."""
    levels = list(levels)
    mean, crossed = crossed_intervals(group, levels, n_boot)
    t_bounds = [stats.seed_interval(group["accuracy"], level, PERCENT)[1:] for level in levels]
    return mean, [stats.interval_hull(c, t) for t, c in zip(t_bounds, crossed, strict=True)]


def crossed_intervals(group: pd.DataFrame, levels: Sequence[float] = (0.95,),
                      n_boot: int = stats.BOOTSTRAP_RESAMPLES) -> tuple[float, list[tuple[float, float]]]:
    """``(accuracy, [(low, high) per level of levels])`` in percent of one cell's fits over seeds
    on the same test items (rows of :func:`run_grid`): the two-level percentile bootstrap of
    :func:`compsem.stats.crossed_mean_intervals` of their per-item correctness (seeded by the
    first fit's seed), drawn once and read at every level."""
    correct = np.stack([np.asarray(c, dtype=np.float64) for c in group["correct"]])
    mean, bounds = stats.crossed_mean_intervals(correct, levels, n_boot, int(group["seed"].iloc[0]))
    return 100 * mean, [(100 * low, 100 * high) for low, high in bounds]


def selectivity(runs: pd.DataFrame, level: float = 0.95,
                n_boot: int = stats.BOOTSTRAP_RESAMPLES) -> pd.DataFrame:
    """Task accuracy minus control-task accuracy (Hewitt & Liang 2019, §2.2) per (task,
    encoder, classifier), from the seeds where both ran: the mean over seeds with a Student-t
    interval, or for one seed a paired bootstrap over the test items (the task and its control
    share them; ``n_boot`` resamples). ``sound`` says whether every control task of the cell was sound; an unsound
    cell's selectivity is NaN (a control on types never seen in training measures nothing).
    ``control_chance``: the control's majority share of the test items (the accuracy of a probe
    that learns nothing; its labels are not always balanced, as the task's are)."""
    task_runs = runs[runs["control"] == "none"].set_index(["task", "encoder", "classifier", "seed"])
    control_runs = runs[runs["control"] == "control task"]
    out = []
    for key, group in control_runs.groupby(["task", "encoder", "classifier"], sort=False):
        paired = [
            (task_runs.loc[(*key, seed)], row)
            for seed, row in zip(group["seed"], group.itertuples(), strict=True)
            if (*key, seed) in task_runs.index
        ]
        if not paired:
            continue
        differences = [float(t["accuracy"] - c.accuracy) for t, c in paired]
        sound = bool(group["sound"].all())
        if len(paired) == 1:
            t, c = paired[0]
            mean = differences[0]
            low, high = (100 * v for v in stats.paired_mean_interval(
                t["correct"], c.correct, n_resamples=n_boot, seed=int(c.seed), level=level))
        else:
            mean, low, high = stats.seed_interval(differences, level, PERCENT_DIFFERENCE)
        if not sound:
            mean = low = high = float("nan")
        out.append(
            dict(
                zip(["task", "encoder", "classifier"], key, strict=True),
                task_accuracy=float(np.mean([t["accuracy"] for t, _ in paired])),
                control_accuracy=float(np.mean([c.accuracy for _, c in paired])),
                control_chance=float(np.mean([c.chance for _, c in paired])),
                selectivity=mean,
                low=low,
                high=high,
                coverage=float(group["coverage"].min()),
                sound=sound,
            )
        )
    return pd.DataFrame(out)
