"""Pack what the COGS training commands need on this workplace's GPU machine (the `device` tool)
into one folder that travels with the working tree, and write the script that runs a command there.

The device machine is bare and offline: its ``python3`` holds torch, numpy, pandas and most of
what compsem imports, but not Dask, and the data mirror beside the checkout does not travel. The
bundle holds

- ``wheels/``: the locked versions (``requirements.lock``) of the packages the image lacks
  (:data:`WHEELS`: Dask distributed and its dependencies), for CPython 3.12 on x86-64 Linux;
- ``data/``: the registry files the COGS trainers read (:data:`DATA_PREFIXES`: COGS, the
  100-exposure file, and the auxiliary corpus of Chapter 5: STS Benchmark, SICK, STR-2022),
  copied from ``COMPSEM_DATA_DIR`` and checked against ``data/registry.tsv``;
- ``run.sh``: installs the wheels into /tmp/site, points ``PYTHONPATH``, ``COMPSEM_DATA_DIR`` and
  ``COMPSEM_CACHE_DIR`` at the right places, runs its arguments, and then packs the files the
  command wrote under ``data/results/`` into ``$OUT/results.tar.gz`` (the tool returns at most
  8 files; a grid's result folders hold many), whether the command succeeded or not. End the
  command inside the tool's 10-minute limit (``--train-minutes``): a killed command packs nothing.

Build it here, then hand the folder to the tool's ``run`` in ``carry``::

    python scripts/device_bundle.py                     # writes .device/ (ignored by git)
    # device tool: run(command="bash .device/run.sh python3 -m compsem.cogs.seq2seq.train
    #                  --grid --jobs 4 --train-minutes 8", carry=[".device"])
    tar xzf /work/.device/<call>/results.tar.gz         # the result folders, then commit them

``--no-wheels`` skips the download (a machine without the package index).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WHEELS = ("dask", "distributed", "tblib", "zict", "tornado", "locket", "partd")
"""Packages compsem's training commands import that the device image lacks (KINDS.md's list)."""

DATA_PREFIXES = (
    "najoungkim/COGS/data/",
    "najoungkim/cogs-with-pretraining/data/",
    "stsbenchmark/",
    "sick2014/",
    "Priya22/semantic-textual-relatedness/",
)
"""Registry paths the COGS trainers read (Chapter 4's data, Chapter 5's auxiliary corpus)."""

PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64",
             "manylinux1_x86_64")

RUNNER = """#!/bin/bash
# Run a command on the device machine with compsem importable and its data at hand; then pack
# data/results/ into $OUT/results.tar.gz. Written by scripts/device_bundle.py.
here=$(cd "$(dirname "$0")" && pwd)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \\
    --target /tmp/site "$here"/wheels/*.whl || { echo "device_bundle: wheels did not install"; exit 3; }
export PYTHONPATH="$PWD/lib:/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
export COMPSEM_DATA_DIR="$here/data" COMPSEM_CACHE_DIR="${COMPSEM_CACHE_DIR:-/tmp/compsem-cache}"
export PYTHONUNBUFFERED=1
started=$(mktemp)
"$@"
status=$?
if [ -n "$OUT" ] && [ -d data/results ]; then  # the result files this command wrote, in one file
    find data/results -type f -newer "$started" -print0 | tar czf "$OUT/results.tar.gz" --null -T - \\
        && echo "device_bundle: $(tar tzf "$OUT/results.tar.gz" | wc -l) new result files in \\$OUT/results.tar.gz"
fi
exit $status
"""


def locked_versions(names, lock: Path = ROOT / "requirements.lock") -> dict[str, str]:
    """``{name: version}`` for ``names`` as pinned in the lock file (``name==version`` lines)."""
    pins = {}
    for line in lock.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    missing = [n for n in names if n not in pins]
    if missing:
        raise SystemExit(f"{lock} pins no version of {missing}: regenerate the lock file or edit WHEELS")
    return {n: pins[n] for n in names}


def download_wheels(dest: Path, names=WHEELS) -> list[Path]:
    """The locked wheels of ``names`` for CPython 3.12 on x86-64 Linux, into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    pins = [f"{n}=={v}" for n, v in locked_versions(names).items()]
    platforms = [arg for p in PLATFORMS for arg in ("--platform", p)]
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--python-version", "3.12", "--implementation", "cp", *platforms, "-d", str(dest), *pins],
                   check=True)
    return sorted(dest.glob("*.whl"))


def copy_data(dest: Path, prefixes=DATA_PREFIXES) -> list[str]:
    """Copy every registry file under ``prefixes`` into ``dest`` (the mirror's layout), each a
    verified copy (:func:`compsem.data.registry.fetch`: from ``COMPSEM_DATA_DIR`` or downloaded,
    sha256 checked); returns the registry paths copied."""
    from compsem.data import registry

    chosen = sorted(p for p in registry.entries() if p.startswith(tuple(prefixes)))
    if not chosen:
        raise SystemExit(f"no registry file starts with any of {list(prefixes)}")
    for path in chosen:
        target = dest / registry.safe_relative(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(registry.fetch(path), target)
    return chosen


def build(dest: Path, wheels: bool = True) -> None:
    """Write the bundle (wheels, data, run.sh) into ``dest``, replacing an earlier one."""
    if dest.exists():
        shutil.rmtree(dest)
    copied = copy_data(dest / "data")
    found = download_wheels(dest / "wheels") if wheels else []
    runner = dest / "run.sh"
    runner.write_text(RUNNER)
    runner.chmod(0o755)
    size = sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())
    print(f"{dest}: {len(copied)} data files, {len(found)} wheels, {size / 2**20:.1f} MiB "
          f"(the tool carries at most 64 MiB with the working tree)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", default=str(ROOT / ".device"), help="bundle folder (default .device/)")
    parser.add_argument("--no-wheels", action="store_true", help="do not download the wheels")
    args = parser.parse_args(argv)
    from compsem.data.registry import DataError

    try:
        build(Path(args.dest), wheels=not args.no_wheels)
    except (DataError, subprocess.CalledProcessError) as error:
        print(f"device_bundle: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
