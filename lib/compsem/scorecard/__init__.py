"""``compsem scorecard``: one encoder through every battery of the book.

A *scorecard* is one tidy table, one row per measure: ``model, battery, measure, value, low,
high, ceiling`` (``low``/``high`` the 95% interval, NaN where a measure has none; ``ceiling``
the noise ceiling where one exists, else NaN). The batteries re-use the study packages'
functions, called as the study chapters call them, so that a model's measures are those
chapters' numbers (a word-vector model such as ``glove50`` is scored in each battery as its
chapter scores it: :mod:`compsem.scorecard.specs`); no metric is computed here:

=============  ===========================================================================
``sts``        :mod:`compsem.scorecard.sts`: Table 9 cells (STS3k all/non/adv, STSb-test,
               SICK, STR-2022) with bootstrap intervals and the split-half noise ceiling;
               Spearman within each STS3k pair type (Fodor et al. 2025); sentence encoders
               standardised, compositions and baselines not, as in sts3k-models
``modifiers``  :mod:`compsem.scorecard.modifiers`: the AN, AAN, pair and non-subsectivity
               tests of Carvalho et al., per adjective class (001 Tables 1-4)
``probing``    :mod:`compsem.scorecard.probing`: the 2018 probing tasks on the released
               sets, MLP probe, control tasks and selectivity (Ettinger et al. 2018, Table 2)
=============  ===========================================================================

A model is any spec the model registry knows (``minilm``, ``mpnet:layer6``, ``glove50``,
``sdae``, ``hf:<hub id>``) or a composition of word vectors (``mean:glove50``; not probed).
Embeddings go through the shared on-disk cache, so a second scorecard of a model encodes
nothing. :func:`run` scores one model, :func:`run_many` several as a Dask sweep,
:func:`~compsem.scorecard.output.figure` draws one page per model and
:func:`~compsem.scorecard.output.write` saves the table; :mod:`compsem.scorecard.paper` gives
the paper's number beside a row where a paper prints it (for the paper's model or a substitute).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

import pandas as pd

from compsem.scorecard import modifiers, probing, sts
from compsem.scorecard.output import COLUMNS, figure, write

BATTERIES = {"sts": sts, "modifiers": modifiers, "probing": probing}
"""Battery name -> module with ``check(model)`` and ``rows(model, subset, n_boot, seed, ...)``;
every battery's ``rows`` takes the options of all of them (those of others it ignores)."""

__all__ = ["BATTERIES", "COLUMNS", "figure", "run", "run_many", "validate", "write"]


def _known_model(model: str) -> None:
    from compsem.sts import scoring

    if model in ("bow", "random"):  # probing baselines
        return
    head, _, rest = model.partition(":")
    if head in ("mean", "sum"):  # the modifier tests' name of a word-vector mean
        model = f"mean:{rest}"
    scoring.validate([model])


def validate(models: Sequence[str], batteries: Sequence[str]) -> None:
    """Check batteries and models before anything runs: an unknown battery, an unknown model or a
    model a battery cannot take raises ValueError naming it and what is known."""
    if isinstance(batteries, str):
        raise ValueError(f"batteries must be a list of names, not the string {batteries!r}")
    unknown = [b for b in batteries if b not in BATTERIES]
    if unknown or not batteries:
        raise ValueError(f"unknown batteries {unknown or list(batteries)}; known: {', '.join(BATTERIES)}")
    if isinstance(models, str) or not models:
        raise ValueError(f"models must be a non-empty list of model specs, not {models!r}")
    for model in models:
        _known_model(model)
        for battery in batteries:
            BATTERIES[battery].check(model)


def run(model: str, batteries: Sequence[str] = tuple(BATTERIES), subset: bool = False,
        progress: bool = True, n_boot: int = 1000, seed: int = 0, device: str = "auto",
        batch_size: int = 64, probe_seeds: int = 3,
        extra_levels: Mapping[str, float] | None = None) -> pd.DataFrame:
    """The scorecard of one model: the rows of every battery in ``batteries`` (in that order).

    ``subset=True`` runs a small part of each battery (see each module) for tests and CI.
    ``n_boot`` resamples per interval (and permutations of the class-difference tests),
    ``seed`` seeds every resample and probe; ``probe_seeds`` MLP seeds (from ``seed`` on)
    train each probe of the probing battery; ``progress`` shows one bar step per battery.
    ``extra_levels`` (name -> level): intervals at other levels than 95%, in the columns
    ``low_<name>`` / ``high_<name>`` after :data:`COLUMNS` (NaN where a measure has none; the
    probing battery's accuracies have them, :func:`compsem.scorecard.probing.rows`); without
    it the table has :data:`COLUMNS` only.
    """
    validate([model], batteries)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(batteries), desc=f"scorecard {model}", unit="battery")
    rows = []
    for battery in batteries:
        if bar is not None:
            bar.set_postfix_str(battery)
        options = {"extra_levels": dict(extra_levels)} if extra_levels else {}
        rows += BATTERIES[battery].rows(model, subset=subset, n_boot=n_boot, seed=seed,
                                        device=device, batch_size=batch_size,
                                        probe_seeds=probe_seeds, **options)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    table = pd.DataFrame(rows).assign(model=model)
    extra = [f"{side}_{name}" for name in (extra_levels or {}) for side in ("low", "high")]
    table = table.reindex(columns=[*COLUMNS, *extra])
    return table.astype({c: float for c in ("value", "low", "high", "ceiling", *extra)})


def run_many(models: Sequence[str], batteries: Sequence[str] = tuple(BATTERIES),
             subset: bool = False, scheduler: str | None = None, n_workers: int = 2,
             progress: bool = True, **options) -> pd.DataFrame:
    """Scorecards of several models as a Dask sweep, one task per model; the tables are
    concatenated in the order of ``models``.

    ``scheduler``: the address of a running Dask scheduler (``tcp://host:8786``); None starts a
    :class:`distributed.LocalCluster` of ``min(n_workers, len(models))`` worker processes with one
    thread each (torch and BLAS parallelise inside a model). ``options`` go to :func:`run`.
    Each model's rows equal those of :func:`run` on it (every random draw is seeded).
    """
    validate(models, batteries)
    from compsem.dask_tasks import submit_all

    tables = submit_all(partial(run, **options), [(m, tuple(batteries), subset, False) for m in models],
                        [f"scorecard-{i}-{m}" for i, m in enumerate(models)], scheduler=scheduler,
                        n_workers=n_workers, progress=progress)
    return pd.concat(tables, ignore_index=True)
