"""Execute a chapter: jupytext source -> papermill with a profile -> ``book/<chapter>.ipynb``.

A chapter is ``notebooks/<chapter>.py`` (jupytext percent format) with one cell tagged
``parameters``. A profile is ``notebooks/params/<chapter>.<profile>.yaml`` (``smoke`` for CI,
``default`` for ``make book``, ``full`` for long or GPU runs); ``-p name value`` overrides win.

Guarantees:

- unknown parameter names and values of the wrong type fail before any heavy work;
- a failed run never touches the last good executed notebook (it is written to a temporary
  file and moved into place on success; the failed notebook is kept in ``_build/failed/``);
- the executed notebook records its provenance in ``metadata.compsem``: profile, parameters,
  sha256 of the source, sha256 of every ``compsem`` module the kernel imported, package
  versions, git commit, machine and wall time. :func:`staleness` compares them with the tree.
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import yaml

from compsem import determinism, paths
from compsem.envvars import temporary as temporary_env

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


class ParameterError(ValueError):
    """A parameter name, value or profile is invalid."""


class ChapterFailed(RuntimeError):
    """A chapter raised during execution; the previous executed notebook is untouched."""


def chapters() -> list[str]:
    """Names of the chapter sources in ``notebooks/``."""
    return sorted(p.stem for p in paths.NOTEBOOKS_DIR.glob("*.py"))


def source_path(chapter: str) -> Path:
    path = paths.NOTEBOOKS_DIR / f"{chapter}.py"
    if not path.exists():
        raise ParameterError(f"no chapter {chapter!r} (no {path}); chapters: {', '.join(chapters())}")
    return path


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
    file = paths.PARAMS_DIR / f"{chapter}.{profile}.yaml"
    if not file.exists():
        raise ParameterError(f"no parameter file {file} for profile {profile!r} of {chapter!r}")
    values = yaml.safe_load(file.read_text()) or {}
    if not isinstance(values, dict):
        raise ParameterError(f"{file} must be a mapping of parameter names to values")
    return values


def _coerce(name: str, value, default, origin: str):
    if isinstance(value, str) and not isinstance(default, str):
        value = yaml.safe_load(value)  # '-p n_splits 200' arrives as the string '200'
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


def resolve_parameters(chapter: str, profile: str, overrides: dict | None = None) -> dict:
    """Profile values, then ``overrides``, checked against the chapter's defaults.

    Unknown names raise ParameterError listing the known ones; values are coerced to the type
    of the default (``'200'`` -> 200) or rejected.
    """
    defaults = default_parameters(chapter)
    resolved = {}
    for origin, values in ((f"profile {profile}", profile_parameters(chapter, profile)),
                           ("-p override", overrides or {})):
        for name, value in values.items():
            if name not in defaults:
                import difflib

                close = difflib.get_close_matches(name, defaults, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ParameterError(
                    f"unknown parameter {name!r} for chapter {chapter!r} ({origin}){hint}; "
                    f"parameters: {', '.join(defaults)}"
                )
            resolved[name] = _coerce(name, value, defaults[name], origin)
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
            output_dir: Path | None = None, progress: bool = True) -> Path:
    """Execute ``chapter`` with ``profile`` (+ ``overrides``) and return the executed notebook.

    The result goes to ``output_dir`` (default ``book/``) only when the run succeeds.
    """
    import nbformat
    import papermill

    parameters = resolve_parameters(chapter, profile, overrides)
    output_dir = Path(output_dir or paths.BOOK_DIR)
    output_dir.mkdir(parents=True, exist_ok=True)
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
        quiet = {**QUIET_KERNEL_ENV, **determinism.KERNEL_ENV}
        # tqdm.auto warns "IProgress not found" in a kernel without ipywidgets
        quiet["PYTHONWARNINGS"] = ",".join(
            filter(None, [os.environ.get("PYTHONWARNINGS"), "ignore:IProgress not found"]))
        try:
            with temporary_env(quiet):  # the kernel inherits the environment
                papermill.execute_notebook(
                    source_nb, executed_nb, parameters=parameters, kernel_name="python3",
                    cwd=str(paths.NOTEBOOKS_DIR), progress_bar=progress, log_output=False,
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
        fold_code_cells(result)
        probe_cell = result.cells.pop()
        if _PROVENANCE_TAG not in probe_cell.metadata.get("tags", []):
            raise ChapterFailed(f"chapter {chapter!r}: provenance cell missing after execution")
        modules = json.loads("".join(o.get("text", "") for o in probe_cell.outputs))
        result.metadata["compsem"] = {
            "chapter": chapter,
            "profile": profile,
            "parameters": parameters,
            "source_sha256": sha256_file(source_path(chapter)),
            "modules": module_hashes(modules),
            "packages": package_versions(),
            "git_commit": git_commit(),
            "machine": f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores",
            "wall_time_s": round(wall_time, 1),
            "executed_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
        final_tmp = output_dir / f".{chapter}.ipynb.tmp"
        nbformat.write(result, final_tmp)
        final = output_dir / f"{chapter}.ipynb"
        os.replace(final_tmp, final)
    return final


def fold_code_cells(notebook) -> None:
    """Tag every code cell ``hide-input`` unless it carries one of :data:`VISIBLE_TAGS`."""
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.setdefault("tags", [])
        if not any(tag in VISIBLE_TAGS for tag in tags):
            tags.append("hide-input")


def staleness(executed: Path) -> list[str]:
    """Why an executed notebook no longer matches its source or library code (empty: fresh)."""
    import nbformat

    meta = nbformat.read(executed, as_version=4).metadata.get("compsem")
    if not meta:
        return [f"{executed.name}: no compsem provenance; re-run it with `make run`"]
    problems = []
    chapter = meta["chapter"]
    src = paths.NOTEBOOKS_DIR / f"{chapter}.py"
    if not src.exists():
        problems.append(f"{executed.name}: its source {src} no longer exists")
    elif sha256_file(src) != meta["source_sha256"]:
        problems.append(f"{executed.name}: notebooks/{chapter}.py changed since it was executed")
    current = module_hashes(list(meta["modules"]))
    for name, digest in meta["modules"].items():
        if current.get(name) != digest:
            problems.append(f"{executed.name}: library module {name} changed since it was executed")
    return problems
