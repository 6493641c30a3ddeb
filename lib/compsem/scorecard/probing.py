"""The probing battery of the scorecard: the 2018 tasks of Ettinger et al. (2018, Table 2) on
the released item files, with the 2018 MLP probe and the Hewitt & Liang (2019) control task.

Through :func:`compsem.probing.experiment.run_grid` (control ``none`` with ``probe_seeds``
MLP seeds, ``control task`` with the first), :func:`~compsem.probing.experiment.summarise` and
:func:`~compsem.probing.experiment.selectivity`. Measures per task (percent):

- ``<task> accuracy``: test accuracy, the mean over the MLP seeds with the bootstrap interval
  over the test items and the seeds together (Table 2 gives one fit per cell; a fit is one
  draw of the probe's initialisation and minibatch order); at other levels too on request
  (``extra_levels``: a claim that reads it in a union of tests, at Bonferroni's level);
- ``<task> control task``: accuracy on the sound control task of the same items;
- ``<task> selectivity``: accuracy minus control-task accuracy with a paired bootstrap interval
  (NaN where the control task is not sound).

Full: the five released tasks (cont1, cont2, order, sr, neg), ``max_epochs`` 100 (the
probing chapter's setting); ``subset``: SemRole and Negation on ~600/300 released items, 20
epochs.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

FULL = ("cont1", "cont2", "order", "sr", "neg")
SUBSET = ("sr", "neg")
NAMES = {"cont1": "Content1Probe", "cont2": "Content2Probe", "order": "Order", "sr": "SemRole",
         "neg": "Negation"}


def check(model: str) -> None:
    """Raise ValueError when ``model`` cannot be probed (compositions such as ``mean:glove50``:
    the probing encoders are sentence encoders, :func:`compsem.probing.features.encode`)."""
    from compsem.models.spec import parse_spec
    from compsem.probing.features import BASELINES

    try:
        parse_spec(model, baselines=BASELINES)
    except ValueError:
        raise ValueError(f"model {model!r} cannot run the probing battery (it needs a sentence "
                         f"encoder, e.g. 'glove50' for the mean of GloVe vectors); "
                         f"leave it out with --batteries sts,modifiers") from None


def rows(model: str, subset: bool = False, n_boot: int = 1000, seed: int = 0,
         device: str = "auto", batch_size: int = 64, max_epochs: int | None = None,
         probe_seeds: int = 3, extra_levels: Mapping[str, float] | None = None) -> list[dict]:
    """The battery's rows (``battery, measure, value, low, high, ceiling``) for ``model``; the
    accuracy over the MLP seeds ``seed, seed + 1, ..., seed + probe_seeds - 1``, the control
    task and selectivity on the first. ``extra_levels`` (name -> level, e.g. ``{"bonf12":
    compsem.stats.bonferroni_level(12)}``): each accuracy row also carries its interval at that
    level, ``low_<name>`` / ``high_<name>``, from the same fits and the same resamples, drawn
    once and read at every level (:func:`~compsem.probing.experiment.summarise` with
    ``extra_levels``), so it contains the 95% one."""
    if probe_seeds < 1:
        raise ValueError(f"probe_seeds must be at least 1, not {probe_seeds}")
    from compsem.data import probing as released_files
    from compsem.probing import experiment, lexicon, released2018

    lex = lexicon.load()
    frames = {}
    for task in SUBSET if subset else FULL:
        items = released2018.annotate_released(released_files.load_task(task), lex)
        frames[task] = released2018.subsample(items, 600, 300, seed) if subset else items
    epochs = max_epochs or (20 if subset else 100)
    runs = experiment.run_grid(frames, [model], "mlp", controls_to_run=("none", "control task"),
                               seeds=[seed + k for k in range(probe_seeds)], control_seeds=[seed],
                               n_boot=n_boot, batch_size=batch_size, device=device,
                               lexicon=lex, progress=False, max_epochs=epochs)
    extra = dict(extra_levels or {})
    task_runs = runs[runs["control"] == "none"]  # the accuracies: at every level, one set of draws
    summary = pd.concat([
        experiment.summarise(task_runs, shared_items=True, n_boot=n_boot,
                             extra_levels={f"_{name}": level for name, level in extra.items()}),
        experiment.summarise(runs[runs["control"] != "none"], shared_items=True, n_boot=n_boot),
    ]).set_index(["task", "control"])
    chosen = experiment.selectivity(runs).set_index("task")
    out = []
    for task in frames:
        for control, label in (("none", "accuracy"), ("control task", "control task")):
            s = summary.loc[(task, control)]
            out.append(dict(battery="probing", measure=f"{NAMES[task]} {label}", value=s["accuracy"],
                            low=s["low"], high=s["high"], ceiling=np.nan))
            if control == "none":
                out[-1] |= {f"{side}_{name}": s[f"{side}_{name}"] for name in extra
                            for side in ("low", "high")}
        s = chosen.loc[task]
        out.append(dict(battery="probing", measure=f"{NAMES[task]} selectivity",
                        value=s["selectivity"], low=s["low"], high=s["high"], ceiling=np.nan))
    return out
