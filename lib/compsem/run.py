"""Execute a chapter: jupytext source -> papermill with a profile -> ``book/<chapter>.ipynb``.

The parameters are resolved and checked first (:mod:`compsem.parameters`), the kernel runs over
IPC (:mod:`compsem.kernel`), and the result records its provenance (:mod:`compsem.provenance`).

Guarantees:

- nothing runs until every parameter is valid (:func:`compsem.parameters.resolve_parameters`);
- a run whose glued numbers include NaN or infinity fails (unless the schema lists the key
  under ``may_be_nan``);
- a failed run never touches the last good executed notebook (it is written to a temporary
  file and moved into place on success; the failed notebook is kept in ``_build/failed/``;
  SIGTERM and SIGINT unwind the run, so its temporary folder is removed);
- a run during which the chapter source or a ``compsem`` module it imported changed is
  refused (:func:`compsem.provenance.changed_while_running`);
- every kernel computes on :data:`compsem.determinism.KERNEL_THREADS` threads with the CPU code paths of
  :data:`compsem.determinism.KERNEL_ENV`, and prints no progress bars into the notebook.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import signal
import tempfile
import time
from pathlib import Path

from compsem import determinism, paths, provenance
from compsem.data.registry import sha256_of
from compsem.envvars import temporary as temporary_env
from compsem.errors import CompsemError
from compsem.kernel import kernel_transport
from compsem.parameters import (
    ParameterError,
    load_schema,
    read_notebook,
    resolve_parameters,
    schema_path,
    source_path,
)

QUIET_KERNEL_ENV = {
    "TQDM_DISABLE": "1",  # per-batch progress bars would be rendered into the book as stderr
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
}
"""Environment of the kernel that executes a chapter: no progress bars inside the notebook
(the runner shows per-cell progress in the terminal instead)."""
VISIBLE_TAGS = ("parameters", "injected-parameters", "show-input", "hide-input", "remove-input",
                "remove-cell")
"""Code cells with one of these tags keep their own display; every other code cell is folded
behind "show code" in the book (tag ``hide-input``), so a reader meets results, not imports."""


class ChapterFailed(CompsemError, RuntimeError):
    """A chapter raised during execution; the previous executed notebook is untouched."""


def execute(chapter: str, profile: str = "default", overrides: dict | None = None,
            output_dir: Path | None = None, progress: bool | str = True,
            threads: int | None = None) -> Path:
    """Execute ``chapter`` with ``profile`` (+ ``overrides``) and return the executed notebook.

    The result goes to ``output_dir`` (default ``book/``) only when the run succeeds: the
    kernel ran without error and no glued number is NaN or infinite (:func:`non_finite_glued`).
    It is written to a uniquely named temporary file beside the target and moved into place, so
    two runs of one chapter never share a temporary file. SIGTERM and SIGINT during the run
    unwind it (:func:`_interruptible`): the temporary folder is removed. ``threads``: the
    kernel's OpenMP/BLAS/torch threads (:func:`thread_env`; None:
    :data:`compsem.determinism.KERNEL_THREADS`, the same on every machine, since the thread
    count changes the last digits; another count may give other digits). ``progress``: True,
    papermill's per-cell progress bar; ``"sections"``, a line each time the chapter enters a new
    section (:func:`section_titles`), readable when several chapters run at once; False, silent.
    """
    parameters = resolve_parameters(chapter, profile, overrides)
    with _interruptible():
        return _execute(chapter, profile, parameters, output_dir, progress, threads)


def thread_env(threads: int | None) -> dict[str, str]:
    """Environment that gives a kernel ``threads`` OpenMP, MKL and OpenBLAS threads (torch takes
    its thread count from ``OMP_NUM_THREADS``); empty for None or 0."""
    if not threads:
        return {}
    if int(threads) < 1:
        raise ParameterError(f"threads must be >= 1, not {threads}")
    value = str(int(threads))
    return {"OMP_NUM_THREADS": value, "MKL_NUM_THREADS": value, "OPENBLAS_NUM_THREADS": value}


class _Interrupted(KeyboardInterrupt):
    """A SIGTERM received while a chapter runs (unwinds like Ctrl-C)."""


class _interruptible:
    """Context manager: SIGTERM raises :class:`_Interrupted` (SIGINT already raises
    KeyboardInterrupt) so ``with`` blocks unwind and remove their temporary folders and files.
    Only in the main thread (elsewhere signal handlers cannot be installed); the previous
    handlers are restored on exit."""

    def __enter__(self):
        import threading

        self._saved = {}
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self._saved[sig] = signal.getsignal(sig)
                signal.signal(sig, self._raise)
        return self

    @staticmethod
    def _raise(signum, frame):
        raise _Interrupted(f"interrupted by {signal.Signals(signum).name}")

    def __exit__(self, *exc):
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)
        return False


def non_finite_glued(notebook, allowed=()) -> list[str]:
    """Keys of numbers glued in ``notebook`` that are NaN or infinite (except ``allowed``).

    :func:`compsem.report.read_glued` skips them (``nan`` is not a Python literal), so the
    scrapbook outputs are read here directly.
    """
    bad = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            key = output.get("metadata", {}).get("scrapbook", {}).get("name")
            data = output.get("data", {})
            text = data.get("application/papermill.record/text/plain", data.get("text/plain"))
            if not key or key in allowed or not isinstance(text, str):
                continue
            try:
                number = float(text.strip())
            except ValueError:
                continue  # a table, text or other non-number
            if not math.isfinite(number):
                bad.append(key)
    return bad


GLUE_ROLE = re.compile(r"\{glue(?::[a-z]+)?\}`([^`]+)`")
GLUE_DIRECTIVE = re.compile(r"^\s*(?:```|:::)\{glue(?::[a-z]+)?\}\s+(\S+)", re.MULTILINE)


def unresolved_glue_references(notebook) -> list[str]:
    """Keys that the markdown of ``notebook`` pastes (``{glue:text}`key:.3f```, ``{glue}`key```,
    ``{glue:figure} key`` ...) but that none of its outputs glued, in order of first mention.

    A chapter's text is written about its default parameters; a run with other ones (other
    models, fewer encoders) may not compute every number the text quotes, and myst-nb renders
    those references empty, with a warning. References to another document (``path::key``) are
    not checked."""
    glued = {output.get("metadata", {}).get("scrapbook", {}).get("name")
             for cell in notebook.cells for output in cell.get("outputs", [])}
    missing: dict[str, None] = {}
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        text = cell.source
        references = GLUE_ROLE.findall(text) + GLUE_DIRECTIVE.findall(text)
        for reference in references:
            key = reference.split(":", 1)[0]  # the format spec after the key
            if "::" not in reference and key not in glued:
                missing[key] = None
    return list(missing)


def _keep_failed(chapter: str, executed_nb: Path) -> Path:
    """Copy the failed run's notebook (when it exists) to ``_build/failed/<chapter>.ipynb``."""
    failed = paths.PROJECT_DIR / "_build" / "failed" / f"{chapter}.ipynb"
    failed.parent.mkdir(parents=True, exist_ok=True)
    if executed_nb.exists():
        shutil.copy(executed_nb, failed)
    return failed


def _execute(chapter: str, profile: str, parameters: dict, output_dir, progress: bool | str,
             threads: int | None = None) -> Path:
    """:func:`execute` after the parameters are resolved."""
    import nbformat
    import papermill

    output_dir = Path(output_dir or paths.BOOK_DIR)
    output_dir.mkdir(parents=True, exist_ok=True)
    final = output_dir / f"{chapter}.ipynb"
    kept = (f"the previous {final} is untouched" if final.exists()
            else f"nothing was written to {output_dir}")
    source_digest = sha256_of(source_path(chapter))
    library_before = provenance.library_snapshot()  # the code the kernel will import
    data_before = provenance.data_digests(chapter)  # the claims, targets and results it reads
    notebook = read_notebook(chapter)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells.append(provenance.probe_cell())

    with tempfile.TemporaryDirectory(prefix=f"compsem-{chapter}-") as tmp:
        source_nb = Path(tmp) / f"{chapter}.source.ipynb"
        executed_nb = Path(tmp) / f"{chapter}.ipynb"
        nbformat.write(notebook, source_nb)
        start = time.perf_counter()
        quiet = {**QUIET_KERNEL_ENV, **determinism.KERNEL_ENV,
                 **thread_env(threads or determinism.KERNEL_THREADS)}
        # tqdm.auto warns "IProgress not found" in a kernel without ipywidgets
        quiet["PYTHONWARNINGS"] = ",".join(
            filter(None, [os.environ.get("PYTHONWARNINGS"), "ignore:IProgress not found"]))
        try:
            with temporary_env(quiet):  # the kernel inherits the environment
                papermill.execute_notebook(
                    source_nb, executed_nb, parameters=parameters, kernel_name="python3",
                    cwd=str(paths.NOTEBOOKS_DIR), progress_bar=progress is True,
                    log_output=False, **kernel_transport(),
                    **({"engine_name": section_engine()} if progress == "sections" else {}),
                )
        except Exception as error:
            failed = _keep_failed(chapter, executed_nb)
            if getattr(error, "ename", None) == ParameterError.__name__:  # the chapter's own checks
                raise ParameterError(f"chapter {chapter!r}: {getattr(error, 'evalue', error)} "
                                     f"(the stopped notebook is {failed})") from None
            raise ChapterFailed(
                f"chapter {chapter!r} failed ({type(error).__name__}); {kept}; the failed "
                f"notebook is {failed}\n{error}"
            ) from error
        wall_time = time.perf_counter() - start

        result = nbformat.read(executed_nb, as_version=4)
        bad = non_finite_glued(result, allowed=load_schema(chapter)["may_be_nan"])
        if bad:
            failed = _keep_failed(chapter, executed_nb)
            raise ChapterFailed(
                f"chapter {chapter!r} glued NaN or infinite numbers ({', '.join(bad[:10])}"
                f"{', ...' if len(bad) > 10 else ''}; parameters {parameters}); {kept}; the "
                f"failed notebook is {failed}. "
                f"Keys that may legitimately be NaN are listed under may_be_nan in "
                f"{schema_path(chapter)}")
        fold_code_cells(result)
        mark_parameters_unlike_the_book(result, chapter, parameters)
        modules = provenance.take_probe(result)
        if modules is None:
            raise ChapterFailed(f"chapter {chapter!r}: provenance cell missing after execution")
        module_digests = provenance.module_hashes(modules)  # hashed once: checked, then recorded
        changed = provenance.changed_while_running(chapter, library_before, source_digest, module_digests)
        if changed:
            raise ChapterFailed(
                f"chapter {chapter!r}: {', '.join(changed)} changed while it ran, so the notebook "
                f"cannot say which code made it; {kept}; run it again")
        result.metadata["compsem"] = provenance.metadata(
            chapter, profile, parameters, source_digest, module_digests, wall_time, final, result,
            data_before)
        with paths.atomic_write(final, "w", encoding="utf-8") as handle:  # unique: concurrent runs never share it
            nbformat.write(result, handle)
    return final


SECTION_ENGINE = "compsem-sections"
"""The papermill engine (:func:`section_engine`) that prints a line as a chapter enters each
section."""


def section_titles(notebook) -> dict[int, str]:
    """The section each code cell belongs to, by cell index: the text of the last markdown heading
    of level 1 or 2 above it (``# Title``, ``## Findings``, ...). Cells above any heading have
    none."""
    titles, current = {}, None
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                match = re.match(r"^#{1,2}\s+(.+?)\s*#*\s*$", line)
                if match:
                    current = match.group(1)
        elif cell.cell_type == "code" and current is not None:
            titles[index] = current
    return titles


def section_engine() -> str:
    """Register and return :data:`SECTION_ENGINE` (registering again replaces it): papermill's
    nbclient engine that, when a code cell starts in a section other than the previous cell's, prints
    ``[compsem] <chapter>: <section> (k/n, t s)``, so a user sees where a long chapter is even
    when chapters run side by side (``compsem run-all --jobs 2``)."""
    from papermill.engines import NBClientEngine, papermill_engines

    class SectionLinesEngine(NBClientEngine):
        @classmethod
        def execute_managed_notebook(cls, nb_man, kernel_name, **kwargs):
            chapter = Path(nb_man.output_path).stem
            titles = section_titles(nb_man.nb)
            order = list(dict.fromkeys(titles.values()))
            start, shown = time.perf_counter(), [None]
            cell_start = nb_man.cell_start

            def announce_then_start(cell, cell_index=None, **cell_kwargs):
                title = titles.get(cell_index)
                if title is not None and title != shown[0]:
                    shown[0] = title
                    print(f"[compsem] {chapter}: {title} ({order.index(title) + 1}/{len(order)}, "
                          f"{time.perf_counter() - start:.0f} s)", flush=True)
                return cell_start(cell, cell_index, **cell_kwargs)

            nb_man.cell_start = announce_then_start
            return super().execute_managed_notebook(nb_man, kernel_name, **kwargs)

    papermill_engines.register(SECTION_ENGINE, SectionLinesEngine)
    return SECTION_ENGINE


def parameters_unlike_the_book(chapter: str, parameters: dict) -> dict[str, tuple]:
    """``{name: (this run's value, the book's value)}`` for every parameter of ``chapter`` that
    ``parameters`` (a profile's values and overrides, as :func:`resolve_parameters` gives them)
    sets otherwise than the book's run (the default profile)."""
    from compsem.parameters import default_parameters

    defaults = default_parameters(chapter)
    book = {**defaults, **resolve_parameters(chapter, "default")}
    run = {**defaults, **parameters}
    return {name: (run[name], book[name]) for name in defaults if run[name] != book[name]}


def mark_parameters_unlike_the_book(notebook, chapter: str, parameters: dict) -> None:
    """Put a note under the chapter's title when it ran with parameters other than the book's:
    its tables, figures and Findings show this run, but its prose was written for the book's
    parameters (a model or seed it names may not have been run)."""
    import nbformat

    changed = parameters_unlike_the_book(chapter, parameters)
    if not changed:
        return
    shown = list(changed.items())[:6]
    listed = "; ".join(f"`{name}` = `{ours!r}` (the book's: `{book!r}`)" for name, (ours, book) in shown)
    if len(changed) > len(shown):
        listed += f"; and {len(changed) - len(shown)} more (all in the notebook's metadata)"
    note = nbformat.v4.new_markdown_cell(
        ":::{note}\nThis copy of the chapter was executed with parameters other than the book's: "
        f"{listed}. Its tables, figures and Findings show this run's numbers; the text between "
        "them was written for the book's parameters and may name models, seeds or numbers this "
        "run did not compute.\n:::")
    note.metadata["tags"] = ["compsem-parameters-note"]
    first = next((i for i, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"), -1)
    notebook.cells.insert(first + 1, note)


def fold_code_cells(notebook) -> None:
    """Tag every code cell ``hide-input`` unless it carries one of :data:`VISIBLE_TAGS`."""
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.setdefault("tags", [])
        if not any(tag in VISIBLE_TAGS for tag in tags):
            tags.append("hide-input")
