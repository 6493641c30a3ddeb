"""Execute a chapter: jupytext source -> papermill with a profile -> ``book/<chapter>.ipynb``.

A chapter is ``notebooks/<chapter>.py`` (jupytext percent format) with one cell tagged
``parameters``. A profile is ``notebooks/params/<chapter>.<profile>.yaml`` (``smoke`` for CI,
``default`` for ``make book``, ``full`` for long or GPU runs); ``-p name value`` overrides win.

Guarantees:

- chapter names are only those of :func:`chapters` (never a path);
- unknown parameter names, values of the wrong type and values outside the chapter's schema
  (``notebooks/params/<chapter>.schema.yaml``: type, item type, range, choices, length) fail
  before any heavy work, with a message naming the parameter, the value and what is allowed;
- a run whose glued numbers include NaN or infinity fails (unless the schema lists the key
  under ``may_be_nan``);
- a failed run never touches the last good executed notebook (it is written to a temporary
  file and moved into place on success; the failed notebook is kept in ``_build/failed/``;
  SIGTERM and SIGINT unwind the run, so its temporary folder is removed);
- the executed notebook records its provenance in ``metadata.compsem``: profile, parameters,
  sha256 of the source, sha256 of every ``compsem`` module the kernel imported (as they were
  when the run started; a run during which one of them changed is refused), package
  versions, git commit, machine, wall time and the digest of its outputs
  (:func:`compsem.report.outputs_digest`). :func:`staleness` compares them with the tree and the
  outputs with their digest (a number edited by hand after the run is reported).
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import importlib.metadata
import importlib.util
import json
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import yaml

from compsem import determinism, paths, report
from compsem.envvars import temporary as temporary_env
from compsem.errors import CompsemError

PROFILES = ("smoke", "default", "full")
PACKAGES = (
    "numpy", "pandas", "scipy", "scikit-learn", "matplotlib", "torch", "transformers",
    "sentence-transformers", "spacy", "nltk", "papermill", "jupytext", "myst-nb",
)
QUIET_KERNEL_ENV = {
    "TQDM_DISABLE": "1",  # per-batch progress bars would be rendered into the book as stderr
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1",
}
"""Environment of the kernel that executes a chapter: no progress bars inside the notebook
(the runner shows per-cell progress in the terminal instead)."""
_PROVENANCE_TAG = "compsem-provenance"
VISIBLE_TAGS = ("parameters", "injected-parameters", "show-input", "hide-input", "remove-input",
                "remove-cell")
"""Code cells with one of these tags keep their own display; every other code cell is folded
behind "show code" in the book (tag ``hide-input``), so a reader meets results, not imports."""
_PROVENANCE_CODE = """\
import json as _json, sys as _sys
print(_json.dumps(sorted(_m for _m in _sys.modules if _m == "compsem" or _m.startswith("compsem."))))
"""


KERNEL_THREADS = 1
"""OpenMP/MKL/OpenBLAS/torch threads of every chapter kernel (:func:`compsem.run.execute`), on
any machine. The thread count changes the last bits of torch's own kernels (MKL's strict mode
does not cover them): MiniLM and MPNet similarities on STS3k differ by ~1e-9 between 1 and 2
threads, and the MLP regressors of sts3k-finetune turn that into .10 against .01 for one cell
(measured 2026-11-24). One thread is also what ``compsem run-all --jobs 2`` gives each of two
chapters on two cores."""


class ParameterError(CompsemError, ValueError):
    """A parameter name, value or profile is invalid."""


class ChapterFailed(CompsemError, RuntimeError):
    """A chapter raised during execution; the previous executed notebook is untouched."""


def chapters() -> list[str]:
    """Names of the chapter sources in ``notebooks/``."""
    return sorted(p.stem for p in paths.NOTEBOOKS_DIR.glob("*.py"))


def check_chapter(chapter: str) -> str:
    """``chapter`` itself when it is one of :func:`chapters`, else ParameterError.

    A chapter name becomes part of file paths (source, profiles, temporary folder, output), so
    only the names of existing chapter sources are accepted: never an absolute path, ``..`` or a
    name with a separator.
    """
    known = chapters()
    if not isinstance(chapter, str) or chapter not in known:
        raise ParameterError(f"no chapter {chapter!r} (no {paths.NOTEBOOKS_DIR}/{chapter}.py); "
                             f"chapters: {', '.join(known)}")
    return chapter


def source_path(chapter: str) -> Path:
    """``notebooks/<chapter>.py`` of a known chapter (:func:`check_chapter`)."""
    return paths.NOTEBOOKS_DIR / f"{check_chapter(chapter)}.py"


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_notebook(chapter: str):
    """The chapter source as an nbformat notebook (jupytext)."""
    import jupytext

    return jupytext.read(source_path(chapter))


def default_parameters(chapter: str) -> dict:
    """The defaults of the chapter's ``parameters`` cell (literal assignments only)."""
    notebook = read_notebook(chapter)
    cells = [c for c in notebook.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ParameterError(f"{source_path(chapter)} must have exactly one cell tagged 'parameters'")
    defaults = {}
    for node in ast.parse(cells[0].source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                defaults[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError as error:
                raise ParameterError(
                    f"{source_path(chapter)}: parameter {node.targets[0].id} must be a literal"
                ) from error
    return defaults


def profile_parameters(chapter: str, profile: str) -> dict:
    """The parameter values of ``notebooks/params/<chapter>.<profile>.yaml`` (may be empty)."""
    if profile not in PROFILES:
        raise ParameterError(f"unknown profile {profile!r}; profiles: {', '.join(PROFILES)}")
    file = paths.PARAMS_DIR / f"{check_chapter(chapter)}.{profile}.yaml"
    if not file.exists():
        raise ParameterError(f"no parameter file {file} for profile {profile!r} of {chapter!r}")
    values = _load_yaml_file(file) or {}
    if not isinstance(values, dict):
        raise ParameterError(f"{file} must be a mapping of parameter names to values")
    return values


def _load_yaml_file(file: Path):
    """``yaml.safe_load`` of ``file``; malformed YAML, text that is not UTF-8 or an unreadable
    file is a ParameterError naming the file."""
    try:
        with open(file, encoding="utf-8") as stream:  # the stream's name appears in the message
            return yaml.safe_load(stream)
    except yaml.YAMLError as error:
        raise ParameterError(f"{file} is not valid YAML: {error}") from None
    except UnicodeDecodeError as error:
        raise ParameterError(f"{file} is not UTF-8 text (byte {error.start}: "
                             f"{error.object[error.start:error.start + 1]!r}); save it as UTF-8") from None
    except OSError as error:
        raise ParameterError(f"cannot read {file}: {error.strerror}") from None


def schema_path(chapter: str) -> Path:
    """``notebooks/params/<chapter>.schema.yaml``: the declared type and range of every parameter."""
    return paths.PARAMS_DIR / f"{check_chapter(chapter)}.schema.yaml"


SCHEMA_TYPES = {"int": int, "float": float, "bool": bool, "str": str, "list": list, "dict": dict}
SCHEMA_KEYS = {"type", "item", "min", "max", "choices", "min_length", "nullable", "pattern"}


def load_schema(chapter: str) -> dict:
    """The chapter's parameter schema: ``{name: spec}`` plus ``may_be_nan`` (a list of glued keys).

    A spec has ``type`` (int|float|bool|str|list|dict) and optionally ``item`` (type of list
    items), ``min``/``max`` (the value, or each list item), ``choices`` (allowed values or list
    items), ``min_length`` (lists, dicts, strings), ``nullable`` and ``pattern`` (a regular
    expression a string, or each string item, must match in full).
    """
    file = schema_path(chapter)
    if not file.exists():
        raise ParameterError(f"no parameter schema {file} for chapter {chapter!r}: every chapter "
                             "declares the type and range of each parameter there")
    schema = _load_yaml_file(file) or {}
    if not isinstance(schema, dict):
        raise ParameterError(f"{file} must be a mapping of parameter names to specs")
    schema.setdefault("may_be_nan", [])
    for name, spec in schema.items():
        if name == "may_be_nan":
            if not isinstance(spec, list):
                raise ParameterError(f"{file}: may_be_nan must be a list of glued keys")
            continue
        if (not isinstance(spec, dict) or spec.get("type") not in SCHEMA_TYPES
                or not set(spec) <= SCHEMA_KEYS
                or spec.get("item", "int") not in SCHEMA_TYPES):
            raise ParameterError(
                f"{file}: the spec of {name!r} must be a mapping with type in "
                f"{'|'.join(SCHEMA_TYPES)} and keys among {', '.join(sorted(SCHEMA_KEYS))}; got {spec!r}")
    return schema


def _is_type(value, type_name: str) -> bool:
    """Whether ``value`` is of schema type ``type_name`` (bool is not an int; an int is a float)."""
    if type_name == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "float":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, SCHEMA_TYPES[type_name])


def _check_scalar(name: str, value, spec: dict, what: str, type_name: str) -> list[str]:
    """Why ``value`` (the parameter, or one of its items: ``what``) breaks ``spec`` (empty: fine)."""
    if not _is_type(value, type_name):
        return [f"{what} must be {type_name}, got {value!r}"]
    problems = []
    if type_name in ("int", "float"):
        if isinstance(value, float) and not math.isfinite(value):
            problems.append(f"{what} must be a finite number, got {value!r}")
        if "min" in spec and value < spec["min"]:
            problems.append(f"{what} must be >= {spec['min']}, got {value!r}")
        if "max" in spec and value > spec["max"]:
            problems.append(f"{what} must be <= {spec['max']}, got {value!r}")
    if "choices" in spec and value not in spec["choices"]:
        problems.append(f"{what} must be one of {spec['choices']}, got {value!r}")
    if "pattern" in spec and isinstance(value, str) and not re.fullmatch(spec["pattern"], value):
        problems.append(f"{what} must match /{spec['pattern']}/, got {value!r}")
    return problems


def validate_parameter(name: str, value, spec: dict, origin: str = "value") -> None:
    """Raise ParameterError when ``value`` breaks the schema ``spec`` of parameter ``name``.

    The message names the parameter, where the value came from, the value and what is allowed.
    """
    if value is None:
        if spec.get("nullable"):
            return
        problems = [f"must not be null (type {spec['type']})"]
    elif spec["type"] == "list":
        problems = []
        if not isinstance(value, list | tuple):
            problems.append(f"must be a list, got {value!r}")
        else:
            if len(value) < spec.get("min_length", 0):
                problems.append(f"needs at least {spec['min_length']} item(s), got {value!r}")
            if "item" in spec:
                for i, item in enumerate(value):
                    problems += _check_scalar(name, item, spec, f"item {i} ({item!r})", spec["item"])
            elif "choices" in spec:
                problems += [f"item {item!r} must be one of {spec['choices']}"
                             for item in value if item not in spec["choices"]]
    else:
        problems = _check_scalar(name, value, spec, "it", spec["type"])
        if (isinstance(value, str | dict) and "min_length" in spec
                and len(value) < spec["min_length"]):
            problems.append(f"needs length >= {spec['min_length']}, got {value!r}")
    if problems:
        raise ParameterError(f"parameter {name!r} ({origin}) = {value!r}: " + "; ".join(problems))


def _coerce(name: str, value, default, origin: str):
    if isinstance(value, str) and not isinstance(default, str):
        try:
            value = yaml.safe_load(value)  # '-p n_splits 200' arrives as the string '200'
        except yaml.YAMLError as error:
            raise ParameterError(
                f"parameter {name!r} ({origin}): {value!r} is not valid YAML "
                f"({str(error).splitlines()[0]})") from None
    if default is None or value is None:
        return value
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        value = float(value) if ok else value
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise ParameterError(
            f"parameter {name!r} ({origin}) must be {type(default).__name__} like its default "
            f"{default!r}, got {value!r}"
        )
    return value


def resolve_parameters(chapter: str, profile: str, overrides: dict | None = None,
                       origin: str = "-p override") -> dict:
    """Profile values, then ``overrides``, checked against the chapter's defaults and schema.

    Unknown names raise ParameterError listing the known ones; values are coerced to the type
    of the default (``'200'`` -> 200) or rejected; then every parameter (the defaults included)
    is checked against ``notebooks/params/<chapter>.schema.yaml`` (:func:`validate_parameter`),
    which must declare exactly the parameters of the chapter. ``origin`` says where the
    overrides came from in error messages (``-p override``, ``grid sweep.yaml``, ...).
    """
    defaults = default_parameters(chapter)
    schema = load_schema(chapter)
    declared = set(schema) - {"may_be_nan"}
    if declared != set(defaults):
        raise ParameterError(
            f"{schema_path(chapter)} must declare exactly the parameters of {source_path(chapter)}; "
            f"missing: {sorted(set(defaults) - declared)}, unknown: {sorted(declared - set(defaults))}")
    resolved = {}
    for source, values in ((f"profile {profile}", profile_parameters(chapter, profile)),
                           (origin, overrides or {})):
        for name, value in values.items():
            if name not in defaults:
                import difflib

                close = difflib.get_close_matches(name, defaults, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ParameterError(
                    f"unknown parameter {name!r} for chapter {chapter!r} ({source}){hint}; "
                    f"parameters: {', '.join(defaults)}"
                )
            resolved[name] = _coerce(name, value, defaults[name], source)
            validate_parameter(name, resolved[name], schema[name], source)
    for name, value in defaults.items():
        if name not in resolved:
            validate_parameter(name, value, schema[name], "default in the parameters cell")
    return resolved


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return versions


def git_commit() -> str:
    """HEAD of the project checkout, with ``+dirty`` when the tree has changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=paths.PROJECT_DIR,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], cwd=paths.PROJECT_DIR,
                               capture_output=True, text=True, check=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def module_hashes(modules: list[str]) -> dict[str, str]:
    """sha256 of the source file of each ``compsem`` module."""
    hashes = {}
    for name in modules:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            hashes[name] = sha256_file(Path(spec.origin))
    return hashes


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
    :data:`KERNEL_THREADS`, the same on every machine, since the thread
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


def _execute(chapter: str, profile: str, parameters: dict, output_dir, progress: bool | str,
             threads: int | None = None) -> Path:
    """:func:`execute` after the parameters are resolved."""
    import nbformat
    import papermill

    output_dir = Path(output_dir or paths.BOOK_DIR)
    output_dir.mkdir(parents=True, exist_ok=True)
    source_digest = sha256_file(source_path(chapter))
    library_before = library_snapshot()  # the code the kernel will import, before it starts
    notebook = read_notebook(chapter)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    probe = nbformat.v4.new_code_cell(_PROVENANCE_CODE)
    probe.metadata["tags"] = [_PROVENANCE_TAG]
    notebook.cells.append(probe)

    with tempfile.TemporaryDirectory(prefix=f"compsem-{chapter}-") as tmp:
        source_nb = Path(tmp) / f"{chapter}.source.ipynb"
        executed_nb = Path(tmp) / f"{chapter}.ipynb"
        nbformat.write(notebook, source_nb)
        start = time.perf_counter()
        quiet = {**QUIET_KERNEL_ENV, **determinism.KERNEL_ENV,
                 **thread_env(threads or KERNEL_THREADS)}
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
            failed = paths.PROJECT_DIR / "_build" / "failed" / f"{chapter}.ipynb"
            failed.parent.mkdir(parents=True, exist_ok=True)
            if executed_nb.exists():
                shutil.copy(executed_nb, failed)
            raise ChapterFailed(
                f"chapter {chapter!r} failed ({type(error).__name__}); the previous "
                f"{output_dir / (chapter + '.ipynb')} is untouched; the failed notebook is {failed}\n"
                f"{error}"
            ) from error
        wall_time = time.perf_counter() - start

        result = nbformat.read(executed_nb, as_version=4)
        bad = non_finite_glued(result, allowed=load_schema(chapter)["may_be_nan"])
        if bad:
            failed = paths.PROJECT_DIR / "_build" / "failed" / f"{chapter}.ipynb"
            failed.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(executed_nb, failed)
            raise ChapterFailed(
                f"chapter {chapter!r} glued NaN or infinite numbers ({', '.join(bad[:10])}"
                f"{', ...' if len(bad) > 10 else ''}; parameters {parameters}); the previous "
                f"{output_dir / (chapter + '.ipynb')} is untouched; the failed notebook is {failed}. "
                f"Keys that may legitimately be NaN are listed under may_be_nan in "
                f"{schema_path(chapter)}")
        fold_code_cells(result)
        probe_cell = result.cells.pop()
        if _PROVENANCE_TAG not in probe_cell.metadata.get("tags", []):
            raise ChapterFailed(f"chapter {chapter!r}: provenance cell missing after execution")
        modules = json.loads("".join(o.get("text", "") for o in probe_cell.outputs))
        changed = [m for m, digest in module_hashes(modules).items()
                   if library_before.get(m) != digest]
        if sha256_file(source_path(chapter)) != source_digest:
            changed.append(str(source_path(chapter)))
        if changed:
            raise ChapterFailed(
                f"chapter {chapter!r}: {', '.join(changed)} changed while it ran, so the notebook "
                f"cannot say which code made it; the previous {output_dir / (chapter + '.ipynb')} "
                "is untouched; run it again")
        result.metadata["compsem"] = {
            "chapter": chapter,
            "profile": profile,
            "parameters": parameters,
            "source_sha256": source_digest,
            "modules": module_hashes(modules),
            "packages": package_versions(),
            "git_commit": git_commit(),
            "machine": f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores",
            "wall_time_s": round(wall_time, 1),
            "longest_wall_time_s": round(max(wall_time, longest_wall_time(
                output_dir / f"{chapter}.ipynb", profile)), 1),
            "executed_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "outputs_sha256": report.outputs_digest(result),
        }
        final = output_dir / f"{chapter}.ipynb"
        with tempfile.NamedTemporaryFile("w", dir=output_dir, prefix=f".{chapter}.",
                                         suffix=".ipynb.tmp", delete=False) as handle:
            final_tmp = Path(handle.name)  # unique: concurrent runs never share it
        try:
            nbformat.write(result, final_tmp)
            os.replace(final_tmp, final)
        finally:
            final_tmp.unlink(missing_ok=True)
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


def recorded_wall_time(executed: Path, profile: str | None = None) -> float | None:
    """The longest wall time an executed notebook records (``longest_wall_time_s``, else
    ``wall_time_s``), or None when there is none, it is unreadable, or it ran another profile
    than ``profile`` (None: any)."""
    try:
        meta = json.loads(Path(executed).read_text())["metadata"]["compsem"]
        if profile is not None and meta.get("profile") != profile:
            return None
        return float(meta.get("longest_wall_time_s", meta["wall_time_s"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def longest_wall_time(executed: Path, profile: str) -> float:
    """:func:`recorded_wall_time` for ``profile``, 0 when there is none. Carried from run to run,
    so that the book keeps the time of a run on empty caches after runs on warm ones (run-all
    orders the chapters by it, :func:`compsem.run_all.recorded_seconds`)."""
    return recorded_wall_time(executed, profile) or 0.0


def fold_code_cells(notebook) -> None:
    """Tag every code cell ``hide-input`` unless it carries one of :data:`VISIBLE_TAGS`."""
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.setdefault("tags", [])
        if not any(tag in VISIBLE_TAGS for tag in tags):
            tags.append("hide-input")


def kernel_transport() -> dict:
    """Keyword arguments for :func:`papermill.execute_notebook` that run the chapter's kernel over
    local IPC sockets where the platform has them (POSIX): the kernel is on the same machine, so
    it needs no TCP port, and ipykernel then has no reason to print "Kernel is running over TCP
    without encryption" into the user's terminal for every chapter; nor is the kernel interrupted
    when it is shut down (its "KeyboardInterrupt caught in kernel." when the signal lands while it
    still handles a message). Elsewhere: papermill's default."""
    if os.name != "posix":
        return {}
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import CaselessStrEnum, default

    class IpcKernelManager(AsyncKernelManager):
        transport = CaselessStrEnum(["tcp", "ipc"], default_value="ipc", config=True)

        @default("ip")
        def _unique_ipc_path(self) -> str:
            return ipc_path()

        async def _async_interrupt_kernel(self) -> None:
            # jupyter_client interrupts (SIGINT) a kernel before its shutdown request, and a
            # kernel still handling a message then prints "KeyboardInterrupt caught in kernel."
            # into the user's terminal. A chapter's kernel is shut down after its last cell, so
            # the request alone is enough (SIGTERM and SIGKILL still follow if it does not exit).
            if self.shutting_down:
                return
            await super()._async_interrupt_kernel()

    return {"kernel_manager_class": IpcKernelManager}


def ipc_path() -> str:
    """A socket path prefix that no other kernel uses: jupyter_client's default for IPC is
    ``kernel-ipc`` in the working directory, so two chapters run at once (``run-all --jobs``,
    ``sweep``) would bind the same sockets and read each other's messages ("Invalid
    Signature"). Kept short: a Unix socket path has at most 107 bytes."""
    import uuid

    return os.path.join(tempfile.gettempdir(), f"compsem-kernel-{uuid.uuid4().hex[:16]}")


def library_snapshot() -> dict[str, str]:
    """sha256 of every module of the ``compsem`` package, by module name: taken before a kernel
    starts, so that an edit made while a chapter runs is caught (:func:`execute` refuses the
    result) rather than recorded as the provenance of code the kernel never ran."""
    snapshot = {}
    for file in sorted(paths.PACKAGE_DIR.rglob("*.py")):
        parts = file.relative_to(paths.PACKAGE_DIR.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        snapshot[name] = sha256_file(file)
    return snapshot


def staleness(executed: Path) -> list[str]:
    """Why an executed notebook is not the committed book's result (empty: fresh).

    The book is the ``default`` profile with no overrides: a notebook executed with another
    profile or other parameters is reported, as is a changed source or library module. An
    unreadable (truncated, invalid) notebook is reported, not raised.
    """
    import nbformat

    try:
        notebook = nbformat.read(executed, as_version=4)
        meta = notebook.metadata.get("compsem")
    except Exception as error:  # truncated JSON, invalid notebook, unreadable file
        return [f"{executed.name}: cannot be read ({type(error).__name__}: "
                f"{str(error).splitlines()[0] if str(error) else ''}); re-run it with `make run`"]
    if not meta or not isinstance(meta, dict) or "chapter" not in meta:
        return [f"{executed.name}: no compsem provenance; re-run it with `make run`"]
    problems = []
    chapter = meta["chapter"]
    if chapter not in chapters():
        return [f"{executed.name}: its chapter {chapter!r} has no source in {paths.NOTEBOOKS_DIR}"]
    src = paths.NOTEBOOKS_DIR / f"{chapter}.py"
    if sha256_file(src) != meta.get("source_sha256"):
        problems.append(f"{executed.name}: notebooks/{chapter}.py changed since it was executed")
    if meta.get("profile") != "default":
        problems.append(f"{executed.name}: executed with profile {meta.get('profile')!r}, "
                        "the book is the 'default' profile")
    else:
        try:
            expected = resolve_parameters(chapter, "default")
        except ParameterError as error:
            expected = None
            problems.append(f"{executed.name}: the default profile is invalid: {error}")
        if expected is not None and meta.get("parameters") != expected:
            problems.append(f"{executed.name}: executed with parameters {meta.get('parameters')}, "
                            f"the default profile gives {expected}")
    if meta.get("outputs_sha256") is None:
        problems.append(f"{executed.name}: its provenance records no digest of its outputs; "
                        f"re-run it with `compsem run {chapter}`")
    elif report.outputs_changed(notebook):
        problems.append(f"{executed.name}: its outputs were changed after it was executed (they "
                        f"no longer match the digest its run recorded); re-run it with "
                        f"`compsem run {chapter}`")
    if not isinstance(meta.get("modules"), dict):
        return problems + [f"{executed.name}: provenance lacks its module hashes"]
    current = module_hashes(list(meta["modules"]))
    for name, digest in meta["modules"].items():
        if current.get(name) != digest:
            problems.append(f"{executed.name}: library module {name} changed since it was executed")
    return problems
