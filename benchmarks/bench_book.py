"""Time of ``make book`` after set-up (issue #19: at most 25 minutes cold and 5 minutes warm on
2 CPU cores); prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_book.py [--jobs 2] [--out DIR] [--skip-cold] [--skip-html]

- cold: ``compsem setup --no-install`` (packaged models joined, WordNet built) and then
  ``compsem run-all --jobs JOBS`` with an EMPTY cache folder (COMPSEM_CACHE_DIR points at a new
  temporary folder): every embedding, probe fit, fine-tune, regressor fit and trained model is
  computed;
- warm: ``compsem run-all`` again on the same cache (what a second ``make book`` costs);
- html: ``jupyter-book build`` of the executed notebooks (the rest of ``make book``).

Each chapter's time is printed by run-all as it finishes. The executed notebooks go to ``--out``
(default: a temporary folder, so book/ is left alone; ``--out book`` replaces the committed
notebooks with the warm run's, which the freshness tests then check). Creating the virtual
environment (``make setup``: pip) is not included: it depends on the network and pip's cache.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(label: str, command: list[str], env: dict) -> float:
    print(f"$ {' '.join(command)}", flush=True)
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True)
    seconds = time.perf_counter() - start
    print(f"{label:<48} {seconds:8.1f} s ({seconds / 60:.1f} min)", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="chapters at a time (make book: 2)")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--out", type=Path, default=None, help="folder for the executed notebooks")
    parser.add_argument("--cache", type=Path, default=None,
                        help="the cold run's cache folder, kept afterwards (must not exist yet; "
                             "default: a temporary folder, removed)")
    parser.add_argument("--skip-cold", action="store_true", help="only the warm run (user's cache)")
    parser.add_argument("--skip-html", action="store_true")
    args = parser.parse_args()

    from compsem import paths

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"make book ({args.profile} profile, {args.jobs} chapter(s) at a time): {cores} CPU cores",
          flush=True)
    compsem = [sys.executable, "-m", "compsem.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "book"
        run_all = compsem + ["run-all", "-P", args.profile, "--jobs", str(args.jobs), "-q",
                             "--out", str(out)]
        env = dict(os.environ)
        figures = {}
        if not args.skip_cold:
            cache = args.cache or Path(tmp) / "cache"
            if cache.exists() and any(cache.iterdir()):
                parser.error(f"--cache {cache} is not empty: a cold run needs an empty cache")
            env["COMPSEM_CACHE_DIR"] = str(cache)
            figures["setup"] = timed("cold: compsem setup (models, WordNet)",
                                     compsem + ["setup", "--no-install"], env)
            figures["cold"] = timed("cold: run-all, empty caches", run_all, env)
        figures["warm"] = timed("warm: run-all again", run_all, env)
        if not args.skip_html:
            figures["html"] = timed("html: jupyter-book build (book/)",
                                    [str(Path(sys.executable).with_name("jupyter-book")), "build",
                                     str(paths.PROJECT_DIR), "-W", "-n", "--keep-going", "-q"], env)
        html = figures.get("html", 0.0)
        if "cold" in figures:
            total = figures["setup"] + figures["cold"] + html
            print(f"{'make book cold (setup of the cache + run-all + html)':<48} {total:8.1f} s "
                  f"({total / 60:.1f} min; goal 25 min)", flush=True)
        total = figures["warm"] + html
        print(f"{'make book warm (run-all + html)':<48} {total:8.1f} s ({total / 60:.1f} min; "
              "goal 5 min)", flush=True)


if __name__ == "__main__":
    main()
