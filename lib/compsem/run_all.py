"""Execute every chapter of the book (``compsem run-all``, ``make book``), several at a time.

Each chapter is an independent papermill run in a kernel of its own (:func:`compsem.run.execute`),
so with ``jobs`` > 1 they run as Dask tasks (:func:`compsem.dask_tasks.submit_all`: a
LocalCluster of ``jobs`` worker processes, or any scheduler given its address), and with
``jobs`` = 1 one after the other in this process, with the per-cell progress bar; with
``jobs`` > 1 each chapter prints a line as it enters a section (:func:`compsem.run.section_engine`).

- **Order.** A chapter starts only after the chapters it reuses have finished
  (:data:`AFTER`, :data:`LAST`), so nothing is computed twice; among those ready, the one that
  starts the longest chain of work goes first (its own time plus the longest chain waiting on
  it), by the longest wall time its executed notebooks have recorded (a chapter never executed
  counts as longest): the slowest chain bounds the book's time, so it starts first and the
  short chapters fill the other workers. The order never changes a digit: a vector or a fit
  is the same whichever chapter computed it (:func:`compsem.models.base.equal_length_batches`).
- **Threads.** Each chapter's kernel runs on ``threads`` threads, by default
  :data:`compsem.determinism.KERNEL_THREADS` (one) on every machine, whatever ``jobs`` is: the
  thread count changes the last digits of torch's kernels, so it is fixed like the seeds. On two
  cores, two jobs keep both busy.
- **Failures.** A chapter that fails does not stop the others (its previous executed notebook
  is untouched, as with ``compsem run``); :func:`run_all` returns every chapter's outcome and
  the command exits 1 when any failed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from compsem import determinism, parameters, paths, provenance, run

AFTER: dict[str, tuple[str, ...]] = {
    "sts3k-finetune": ("sts3k-models",),
}
"""Chapters that start after others have finished, because they reuse what those leave in the
caches: sts3k-finetune's MiniLM and MPNet features are vectors of the STS3k sentences that
sts3k-models encodes (about 3 minutes on one thread when computed twice)."""

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
    """The longest wall time recorded by the chapter's last executed notebook
    (``metadata.compsem``: ``longest_wall_time_s``, else ``wall_time_s``) in ``book_dir`` or
    else in ``book/``, or infinity when neither has a readable one (an unknown chapter goes
    first). The longest, not the last: a run on warm caches takes seconds, and the order must
    still be right for the next run on empty ones."""
    for folder in dict.fromkeys([Path(book_dir or paths.BOOK_DIR), paths.BOOK_DIR]):
        seconds = provenance.recorded_wall_time(folder / f"{chapter}.ipynb")
        if seconds is not None:
            return seconds
    return float("inf")


def prerequisites(chapters: Sequence[str], after: dict = AFTER,
                  last: Sequence[str] = LAST) -> dict[str, list[str]]:
    """For each of ``chapters``, those among them that must finish before it starts: its
    ``after`` entries, and for a chapter of ``last`` every chapter not in ``last`` (and those of
    ``last`` listed before it)."""
    chapters = list(chapters)
    waits = {c: [d for d in after.get(c, ()) if d in chapters] for c in chapters}
    finals = [c for c in last if c in chapters]
    for i, chapter in enumerate(finals):
        waits[chapter] = [c for c in chapters if c not in last] + finals[:i]
    return waits


def schedule(chapters: Sequence[str], seconds: Callable[[str], float] = recorded_seconds,
             after: dict = AFTER, last: Sequence[str] = LAST) -> list[tuple[str, list[str]]]:
    """``(chapter, the chapters it waits for)`` in the order to start them: every chapter after
    those it waits for (:func:`prerequisites`); among the chapters free to start, the one with
    the longest chain first (its ``seconds`` plus the longest chain of chapters waiting on it;
    a critical-path list schedule), ties by name."""
    import heapq

    waits = prerequisites(chapters, after, last)
    waiting_on = {c: [d for d in chapters if c in waits[d]] for c in chapters}
    chain: dict[str, float] = {}

    def chain_of(c: str) -> float:
        if c not in chain:
            chain[c] = seconds(c) + max((chain_of(d) for d in waiting_on[c]), default=0.0)
        return chain[c]

    left = {c: len(waits[c]) for c in chapters}
    ready = [(-chain_of(c), c) for c in chapters if not left[c]]
    heapq.heapify(ready)
    order = []
    while ready:
        _, chapter = heapq.heappop(ready)
        order.append((chapter, waits[chapter]))
        for d in waiting_on[chapter]:
            left[d] -= 1
            if not left[d]:
                heapq.heappush(ready, (-chain_of(d), d))
    if len(order) != len(chapters):
        raise ValueError(f"the chapters wait for each other in a circle: {sorted(set(chapters) - {c for c, _ in order})}")
    return order


def _execute_one(chapter: str, profile: str, threads: int | None, progress: bool | str,
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
    of each chapter's kernel (None: :data:`compsem.determinism.KERNEL_THREADS`; another count
    may change the last digits). ``scheduler``: a Dask scheduler's address instead of a local
    cluster.
    ``output_dir``: where the executed notebooks go (default ``book/``).
    """
    names = list(chapters) if chapters is not None else parameters.chapters()
    for name in names:
        parameters.check_chapter(name)
        parameters.resolve_parameters(name, profile)  # fail before any run
    if jobs < 1:
        raise parameters.ParameterError(f"jobs must be >= 1, not {jobs}")
    run.thread_env(threads)  # a bad thread count fails here, not once per chapter
    order = schedule(names, lambda c: recorded_seconds(c, output_dir))
    if jobs == 1 and scheduler is None:
        outcomes = []
        for i, (name, _) in enumerate(order, start=1):
            say(f"[compsem] [{i}/{len(names)}] {name} ({profile}) ...")
            outcome = _execute_one(name, profile, threads, progress, output_dir)
            say(f"[compsem] [{i}/{len(names)}] {name}: {outcome.status} in {outcome.seconds:.0f} s")
            outcomes.append(outcome)
        return outcomes

    from compsem.dask_tasks import submit_all

    threads = threads or determinism.KERNEL_THREADS
    position = {name: i for i, (name, _) in enumerate(order)}
    def waiting(name: str, waits: list[str]) -> str:
        if name in LAST:
            return f"{name} (after the others)"
        return f"{name} (after {', '.join(waits)})" if waits else name

    say(f"[compsem] {len(order)} chapter(s), {min(jobs, len(order))} at a time, {threads} "
        f"thread(s) each: {', '.join(waiting(name, waits) for name, waits in order)}")
    return submit_all(_execute_one, [(name, profile, threads, "sections" if progress else False,
                                      output_dir, True)
                                     for name, _ in order],
                      [f"chapter-{name}" for name, _ in order], scheduler=scheduler,
                      n_workers=jobs, progress=progress, in_order=True,
                      after=[[position[w] for w in waits] for _, waits in order])
