"""Provenance of an executed chapter: what made it, recorded in ``metadata.compsem``, and
whether it is still the book's result.

Guarantees:

- the executed notebook records its profile, parameters, sha256 of the source, sha256 of every
  ``compsem`` module the kernel imported (as they were when the run started:
  :func:`library_snapshot`; a run during which one of them changed is refused,
  :func:`changed_while_running`), package versions, git commit, machine, wall time and the
  digest of its outputs (:func:`compsem.report.outputs_digest`): :func:`metadata`;
- it records too the digests of the data a chapter reads by convention (:func:`data_digests`:
  its claims, its targets file, its committed result files), so that an edited claim, paper
  number or new GPU result makes the notebook stale like an edited module;
- :func:`staleness` compares them with the tree and the outputs with their digest (a number
  edited by hand after the run is reported); an unreadable notebook is reported, not raised.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import platform
import subprocess
from pathlib import Path

from compsem import claims, determinism, fitcache, paths, report
from compsem.data.registry import sha256_of
from compsem.parameters import ParameterError, chapters, resolve_parameters, source_path

PACKAGES = (
    "numpy", "pandas", "scipy", "scikit-learn", "matplotlib", "torch", "transformers",
    "sentence-transformers", "spacy", "nltk", "papermill", "jupytext", "myst-nb",
)
"""The packages whose versions an executed notebook records."""
PROBE_TAG = "compsem-provenance"
PROBE_CODE = """\
import json as _json, sys as _sys
print(_json.dumps(sorted(_m for _m in _sys.modules if _m == "compsem" or _m.startswith("compsem."))))
"""
"""The last cell of every run (:func:`probe_cell`): prints the ``compsem`` modules the kernel
imported; removed from the notebook before it is written (:func:`take_probe`)."""


def package_versions() -> dict[str, str]:
    """Python's version and those of the installed :data:`PACKAGES` (through
    :func:`compsem.fitcache.versions`; a missing package is left out)."""
    installed = {name: version for name, version in fitcache.versions(PACKAGES).items() if version != "absent"}
    return {"python": platform.python_version(), **installed}


EXECUTION_OUTPUTS = (":(exclude)book/*.ipynb", ":(exclude)book/findings.md", ":(exclude)README.md")
"""Git pathspecs of the files that executing chapters writes (README for its findings block),
left out of :func:`git_commit`'s ``+dirty``."""


def git_commit() -> str:
    """HEAD of the project checkout, with ``+dirty`` when the tree has changes other than the
    outputs of executions (the executed notebooks and the findings page, which chapters run
    side by side write while another executes)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=paths.PROJECT_DIR,
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", ".", *EXECUTION_OUTPUTS],
                               cwd=paths.PROJECT_DIR, capture_output=True, text=True,
                               check=True).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def module_hashes(modules: list[str]) -> dict[str, str]:
    """sha256 of the source file of each ``compsem`` module."""
    hashes = {}
    for name in modules:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            hashes[name] = sha256_of(Path(spec.origin))
    return hashes


def library_snapshot() -> dict[str, str]:
    """sha256 of every module of the ``compsem`` package, by module name: taken before a kernel
    starts, so that an edit made while a chapter runs is caught (:func:`changed_while_running`)
    rather than recorded as the provenance of code the kernel never ran."""
    snapshot = {}
    for file in sorted(paths.PACKAGE_DIR.rglob("*.py")):
        parts = file.relative_to(paths.PACKAGE_DIR.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        snapshot[name] = sha256_of(file)
    return snapshot


def data_digests(chapter: str) -> dict[str, str]:
    """sha256 of the data ``chapter`` reads by the book's conventions, by kind: ``claims``, its
    entries in ``data/claims/`` (as loaded, so a comment or a reordered ledger does not count);
    ``targets``, each ``data/targets/<study>.json`` whose study is the chapter or the start of its
    name (``sts3k`` for ``sts3k-hybrid``); ``results``, the files under ``data/results/<chapter>/``
    (their paths and contents). A kind the chapter does not have is left out."""
    try:
        entries = {"entries": claims.chapter_entries(chapter)}
    except claims.ClaimError as error:  # reported by the chapter's run; here only a digest
        entries = {"unreadable": str(error)}
    digests = {"claims": fitcache.key(entries)}
    for file in sorted(paths.TARGETS_DIR.glob("*.json")):
        if chapter == file.stem or chapter.startswith(file.stem + "-"):
            digests[f"targets/{file.name}"] = sha256_of(file)
    results = paths.PROJECT_DATA_DIR / "results" / chapter
    files = sorted(f for f in results.rglob("*") if f.is_file()) if results.is_dir() else []
    if files:
        digests["results"] = fitcache.key({f.relative_to(results).as_posix(): sha256_of(f)
                                           for f in files})
    return digests


def probe_cell():
    """The code cell (:data:`PROBE_CODE`, tagged :data:`PROBE_TAG`) appended to a chapter before
    it runs."""
    import nbformat

    cell = nbformat.v4.new_code_cell(PROBE_CODE)
    cell.metadata["tags"] = [PROBE_TAG]
    return cell


def take_probe(notebook) -> list[str] | None:
    """Remove the executed :func:`probe_cell` (the last cell) from ``notebook`` and return the
    modules it printed; None when the last cell is not the probe."""
    if not notebook.cells or PROBE_TAG not in notebook.cells[-1].metadata.get("tags", []):
        return None
    cell = notebook.cells.pop()
    return json.loads("".join(output.get("text", "") for output in cell.outputs))


def changed_while_running(chapter: str, before: dict[str, str], source_digest: str,
                          module_digests: dict[str, str]) -> list[str]:
    """The imported modules whose digest now (``module_digests``, :func:`module_hashes`) differs
    from the snapshot ``before`` (:func:`library_snapshot`), and the chapter source when it
    differs from ``source_digest``: the code changed during the run, so the notebook cannot say
    which code made it."""
    changed = [m for m, digest in module_digests.items() if before.get(m) != digest]
    if sha256_of(source_path(chapter)) != source_digest:
        changed.append(str(source_path(chapter)))
    return changed


def metadata(chapter: str, profile: str, parameters: dict, source_digest: str,
             module_digests: dict[str, str], wall_time: float, previous: Path, notebook,
             data: dict[str, str]) -> dict:
    """The ``metadata.compsem`` of an executed ``notebook`` (its probe already taken):
    ``module_digests`` those of the modules it imported (:func:`module_hashes`), ``previous``
    the notebook it will replace, whose longest wall time it carries on
    (:func:`longest_wall_time`); ``data``: :func:`data_digests` as the run started."""
    return {
        "chapter": chapter,
        "profile": profile,
        "parameters": parameters,
        "source_sha256": source_digest,
        "modules": module_digests,
        "data": data,
        "packages": package_versions(),
        "git_commit": git_commit(),
        "machine": (f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores, "
                    f"{determinism.describe_cpu()}"),
        "wall_time_s": round(wall_time, 1),
        "longest_wall_time_s": round(max(wall_time, longest_wall_time(previous, profile)), 1),
        "executed_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "outputs_sha256": report.outputs_digest(notebook),
    }


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
    if sha256_of(src) != meta.get("source_sha256"):
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
    if not isinstance(meta.get("data"), dict):
        problems.append(f"{executed.name}: its provenance records no digests of its data (claims, "
                        f"targets, results); re-run it with `compsem run {chapter}`")
    else:
        now = data_digests(chapter)
        for kind in sorted(set(now) | set(meta["data"])):
            if now.get(kind) != meta["data"].get(kind):
                where = {"claims": "its entries in data/claims/",
                         "results": f"data/results/{chapter}/"}.get(kind, f"data/{kind}")
                problems.append(f"{executed.name}: {where} changed since it was executed; re-run "
                                f"it with `compsem run {chapter}`")
    if not isinstance(meta.get("modules"), dict):
        return problems + [f"{executed.name}: provenance lacks its module hashes"]
    current = module_hashes(list(meta["modules"]))
    for name, digest in meta["modules"].items():
        if current.get(name) != digest:
            problems.append(f"{executed.name}: library module {name} changed since it was executed")
    return problems
