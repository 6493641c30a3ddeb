"""Execute every chapter of the book (``compsem run-all``, ``make book``), several at a time.

Each chapter is an independent papermill run in a kernel of its own (:func:`compsem.run.execute`),
so with ``jobs`` > 1 they run as Dask tasks (:func:`compsem.dask_tasks.submit_all`: a
LocalCluster of ``jobs`` worker processes, or any scheduler given its address), and with
``jobs`` = 1 one after the other in this process, with the per-cell progress bar.

- **Order.** Longest first, by the wall time each chapter's last executed notebook records
  (a chapter never executed counts as longest): the slowest chapter bounds the book's time, so
  it starts first and the short ones fill the other workers. The chapters of :data:`LAST` run
  after all others have finished (see there).
- **Threads.** Each chapter's kernel runs on ``threads`` threads, by default
  :data:`compsem.run.KERNEL_THREADS` (one) on every machine, whatever ``jobs`` is: the
  thread count changes the last digits of torch's kernels, so it is fixed like the seeds. On two
  cores, two jobs keep both busy.
- **Failures.** A chapter that fails does not stop the others (its previous executed notebook
  is untouched, as with ``compsem run``); :func:`run_all` returns every chapter's outcome and
  the command exits 1 when any failed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from compsem import paths, run

LAST = ("synthesis",)
"""Chapters executed after every other chapter has finished: the synthesis chapter puts every
packaged encoder through the other chapters' measures and reuses the embeddings and probe fits
they leave in the caches; run beside them it would compute the same things a second time."""


@dataclass(frozen=True)
class Outcome:
    """One chapter's run: ``status`` is ``"ok"`` or ``"failed: <reason>"``; ``seconds`` its
    wall time (from submission to the end of its kernel)."""

    chapter: str
    status: str
    seconds: float

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def recorded_seconds(chapter: str, book_dir: Path | None = None) -> float:
    """Wall time recorded by the chapter's last executed notebook (``metadata.compsem``) in
    ``book_dir`` or else in ``book/``, or infinity when neither has a readable one (an unknown
    chapter goes first)."""
    for folder in dict.fromkeys([Path(book_dir or paths.BOOK_DIR), paths.BOOK_DIR]):
        try:
            meta = json.loads((folder / f"{chapter}.ipynb").read_text())["metadata"]["compsem"]
            return float(meta["wall_time_s"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return float("inf")


def schedule(chapters: Sequence[str], seconds: Callable[[str], float] = recorded_seconds,
             last: Sequence[str] = LAST) -> tuple[list[str], list[str]]:
    """The chapters in two waves: all but ``last``, longest first (ties by name), then those of
    ``last`` that are among ``chapters``, in the order of ``last``."""
    first = sorted((c for c in chapters if c not in last), key=lambda c: (-seconds(c), c))
    return first, [c for c in last if c in chapters]


def _execute_one(chapter: str, profile: str, threads: int | None, progress: bool,
                 output_dir: Path | None = None, announce: bool = False) -> Outcome:
    """Run one chapter; any failure becomes an Outcome (the others go on). ``announce``: print
    a line when it ends (a Dask worker's output reaches the terminal as it happens)."""
    start = time.perf_counter()
    try:
        run.execute(chapter, profile, output_dir=output_dir, progress=progress, threads=threads)
        status = "ok"
    except Exception as error:  # noqa: BLE001 - reported in the summary, the others go on
        status = f"failed: {str(error).splitlines()[0] if str(error) else type(error).__name__}"
    outcome = Outcome(chapter, status, round(time.perf_counter() - start, 1))
    if announce:
        print(f"[compsem] {chapter}: {status} in {outcome.seconds:.0f} s", flush=True)
    return outcome


def run_all(profile: str = "default", chapters: Sequence[str] | None = None, jobs: int = 1,
            threads: int | None = None, scheduler: str | None = None, progress: bool = True,
            output_dir: Path | None = None, say: Callable[[str], None] = print) -> list[Outcome]:
    """Execute ``chapters`` (default: all) with ``profile``; returns one :class:`Outcome` each,
    in the order they ran. Every chapter's parameters are validated before any runs.

    ``jobs``: chapters at a time (1: in this process, one after the other). ``threads``: threads
    of each chapter's kernel (None: :data:`compsem.run.KERNEL_THREADS`; another count
    may change the last digits). ``scheduler``: a Dask scheduler's address instead of a local
    cluster.
    ``output_dir``: where the executed notebooks go (default ``book/``).
    """
    names = list(chapters) if chapters is not None else run.chapters()
    for name in names:
        run.check_chapter(name)
        run.resolve_parameters(name, profile)  # fail before any run
    if jobs < 1:
        raise run.ParameterError(f"jobs must be >= 1, not {jobs}")
    waves = [w for w in schedule(names, lambda c: recorded_seconds(c, output_dir)) if w]
    if jobs == 1 and scheduler is None:
        outcomes = []
        for i, name in enumerate([c for wave in waves for c in wave], start=1):
            say(f"[compsem] [{i}/{len(names)}] {name} ({profile}) ...")
            outcome = _execute_one(name, profile, threads, progress, output_dir)
            say(f"[compsem] [{i}/{len(names)}] {name}: {outcome.status} in {outcome.seconds:.0f} s")
            outcomes.append(outcome)
        return outcomes

    from compsem.dask_tasks import submit_all

    threads = threads or run.KERNEL_THREADS
    outcomes = []
    for wave in waves:
        say(f"[compsem] {len(wave)} chapter(s), {min(jobs, len(wave))} at a time, {threads} "
            f"thread(s) each: {', '.join(wave)}")
        outcomes += submit_all(_execute_one, [(name, profile, threads, False, output_dir, True)
                                              for name in wave],
                               [f"chapter-{name}" for name in wave], scheduler=scheduler,
                               n_workers=jobs, progress=progress, in_order=True)
    return outcomes
