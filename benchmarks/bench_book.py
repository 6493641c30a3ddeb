"""Time of ``make book`` after set-up (issue #19: at most 25 minutes cold and 5 minutes warm on
2 CPU cores); prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_book.py [--jobs 2] [--out DIR] [--skip-cold] [--skip-html]

- cold: ``compsem setup --no-install`` (packaged models joined, WordNet built) and then
  ``compsem run-all --jobs JOBS`` with an EMPTY cache folder (COMPSEM_CACHE_DIR points at a new
  temporary folder): every embedding, probe fit, fine-tune, regressor fit and trained model is
  computed;
- warm: ``compsem run-all`` again on the same cache (what a second ``make book`` costs);
- html: ``jupyter-book build`` of the executed notebooks (the rest of ``make book``).

Each chapter's time is printed by run-all as it finishes. Beside each step's wall time the
machine's CPU time is read from ``/proc/stat`` (Linux; all processes, so run it on an idle
machine): CPU seconds over the number of cores is the floor no order of the chapters can beat
with the same kernels, and the cores' busy share says how close the schedule came to it. The executed notebooks go to ``--out``
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


def cpu_seconds() -> float | None:
    """Busy CPU seconds of the whole machine since boot (all cores: user, nice, system, irq,
    softirq, steal of ``/proc/stat``), or None where there is no ``/proc/stat``."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def timed(label: str, command: list[str], env: dict, cores: int) -> tuple[float, float | None]:
    """Run ``command``; print and return its wall seconds and the machine's busy CPU seconds."""
    print(f"$ {' '.join(command)}", flush=True)
    cpu_start, start = cpu_seconds(), time.perf_counter()
    subprocess.run(command, env=env, check=True)
    seconds = time.perf_counter() - start
    cpu = None if cpu_start is None else cpu_seconds() - cpu_start
    busy = "" if cpu is None else (f"; CPU {cpu:.0f} s, cores busy {100 * cpu / (cores * seconds):.0f}%, "
                                   f"floor {cpu / cores:.0f} s")
    print(f"{label:<48} {seconds:8.1f} s ({seconds / 60:.1f} min{busy})", flush=True)
    return seconds, cpu


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
            figures["setup"], _ = timed("cold: compsem setup (models, WordNet)",
                                        compsem + ["setup", "--no-install"], env, cores)
            figures["cold"], cold_cpu = timed("cold: run-all, empty caches", run_all, env, cores)
        figures["warm"], _ = timed("warm: run-all again", run_all, env, cores)
        if not args.skip_html:
            figures["html"], _ = timed("html: jupyter-book build (book/)",
                                       [str(Path(sys.executable).with_name("jupyter-book")), "build",
                                        str(paths.PROJECT_DIR), "-W", "-n", "--keep-going", "-q"], env, cores)
        html = figures.get("html", 0.0)
        if "cold" in figures:
            total = figures["setup"] + figures["cold"] + html
            print(f"{'make book cold (setup of the cache + run-all + html)':<48} {total:8.1f} s "
                  f"({total / 60:.1f} min; goal 25 min)", flush=True)
            if cold_cpu is not None:
                floor = figures["setup"] + cold_cpu / cores + html
                print(f"{'  its floor (run-all CPU time / cores)':<48} {floor:8.1f} s "
                      f"({floor / 60:.1f} min: every core busy from start to end)", flush=True)
        total = figures["warm"] + html
        print(f"{'make book warm (run-all + html)':<48} {total:8.1f} s ({total / 60:.1f} min; "
              "goal 5 min)", flush=True)


if __name__ == "__main__":
    main()
