"""Pack what the COGS training commands need on an offline GPU machine into one folder inside the
checkout, and write the script that runs a command there and packs its results.

For a GPU machine without network whose ``python3`` already has torch with CUDA and the
scientific packages compsem imports (numpy, pandas, ...), but not Dask, and none of the
studies' data: the lighter alternative to installing the whole environment from a wheelhouse
(``make wheelhouse``, ``make setup WHEELHOUSE=...``: *Training on an offline GPU machine* in
book/using.md). The bundle holds

- ``wheels/``: the locked versions (``requirements.lock``) of :data:`WHEELS` and of everything
  they require (:func:`requirement_closure`): Dask distributed, which ``--jobs`` and
  ``--scheduler`` need, and tqdm, the decoders' progress bar; for x86-64 Linux only and the
  target's CPython (``--python-version``, default the Python that runs this script);
- ``data/``: the registry files the COGS trainers read (:data:`DATA_PREFIXES`, the same files as
  ``compsem data mirror DEST --set cogs``: COGS, the 100-exposure file, and the auxiliary corpus
  of Chapter 5: STS Benchmark, SICK, STR-2022), laid out as a data mirror and each checked
  against ``data/registry.tsv``: copied from ``COMPSEM_DATA_DIR``, or the cache, or downloaded;
- ``run.sh``: run from the checkout's root, it installs the wheels into /tmp/site, points
  ``PYTHONPATH`` (the checkout's ``lib/``, then /tmp/site), ``COMPSEM_DATA_DIR`` (the bundle's
  ``data/``) and ``COMPSEM_CACHE_DIR`` (default /tmp/compsem-cache) at them, runs its
  arguments, and then, when ``COMPSEM_RESULTS_OUT`` names a folder (one the GPU machine lets you
  copy back), packs the files the command wrote under ``data/results/`` into
  ``results.tar.gz`` there, whether the command succeeded or not, and exits with the command's
  status. Where the GPU machine limits each command, set ``COMPSEM_COMMAND_LIMIT_S`` to a little
  less than that limit: the command then runs under ``timeout`` for that many seconds, and what it
  wrote is packed when it reaches the limit (status 124), as when the script is terminated (SIGTERM or SIGINT, status 143) too; only
  a SIGKILL of the script packs nothing. Bound the training inside it with ``--train-minutes``
  (a run cut short by it stops at its first update past the budget, saves its checkpoint, is
  decoded on a sample and written with stop reason "time limit", counts as not done, and
  resumes from its checkpoint in the cache when the command runs again with the same
  ``COMPSEM_CACHE_DIR``).

The checkout itself (``lib/``, ``data/registry.tsv``, ``data/results/``) carries the code and
the results done so far; the bundle adds only what it lacks. Build it on a machine with network
(or with a data mirror), copy the checkout with the bundle to the GPU machine, run there, and
unpack the results into the checkout you commit from::

    python scripts/device_bundle.py                     # writes .device/ (ignored by git)
    tar czf ../compsem-gpu.tar.gz --exclude=./.venv --exclude=./.git --exclude=./_build .
    # on the GPU machine, in the unpacked checkout's root:
    mkdir -p ~/compsem-out && COMPSEM_RESULTS_OUT=~/compsem-out bash .device/run.sh \\
        python3 -m compsem.cogs.seq2seq.train --grid --jobs 4 --device cuda --train-minutes 120
    # back in the checkout you commit from, with results.tar.gz copied there:
    tar xzf results.tar.gz                              # the result folders, with their SHA256SUMS

``--no-wheels`` skips the download (a machine without the package index, or a target whose
Python has Dask already).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WHEELS = ("dask", "distributed", "tqdm")
"""Packages compsem's training commands import that a Python with torch and the scientific stack
commonly lacks; the bundle carries them with everything they require (:func:`requirement_closure`)."""

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
# Run a command on an offline GPU machine with compsem importable and its data at hand (under a
# time limit of COMPSEM_COMMAND_LIMIT_S seconds where that is set); then pack the files it wrote under
# data/results/ into results.tar.gz in the folder COMPSEM_RESULTS_OUT names, whether it
# succeeded, failed, ran out of time (status 124) or this script was terminated (status 143).
# Written by scripts/device_bundle.py.
here=$(cd "$(dirname "$0")" && pwd)
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \\
    --target /tmp/site "$here"/wheels/*.whl || { echo "device_bundle: wheels did not install"; exit 3; }
export PYTHONPATH="$PWD/lib:/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
export COMPSEM_DATA_DIR="$here/data" COMPSEM_CACHE_DIR="${COMPSEM_CACHE_DIR:-/tmp/compsem-cache}"
export PYTHONUNBUFFERED=1
limit=${COMPSEM_COMMAND_LIMIT_S:-}
started=$(mktemp)
pack() {  # the result files this command wrote, in one file
    if [ -n "$COMPSEM_RESULTS_OUT" ] && [ -d data/results ]; then
        archive="$COMPSEM_RESULTS_OUT/results.tar.gz"
        find data/results -type f -newer "$started" -print0 | tar czf "$archive" --null -T - \\
            && echo "device_bundle: $(tar tzf "$archive" | wc -l) new result files in $archive"
    fi
}
# in the background, so that a TERM to this script is handled at once: the command gets it
# (under a limit, timeout passes it on), 20 s to end before a KILL, and then what it wrote is packed
if [ -n "$limit" ]; then timeout --kill-after=20 "$limit" "$@" & else "$@" & fi
child=$!
trap 'echo "device_bundle: terminated; packing"; kill -TERM $child 2>/dev/null; (sleep 20; kill -KILL $child 2>/dev/null) & wait $child; pack; exit 143' TERM INT
wait $child
status=$?
[ -n "$limit" ] && [ $status -eq 124 ] && echo "device_bundle: the command reached its time limit of $limit s"
pack
exit $status
"""


def locked_versions(names, lock: Path = ROOT / "requirements.lock") -> dict[str, str]:
    """``{name: version}`` for ``names`` as pinned in the lock file
    (:func:`compsem.model_packages.pins`, the project's one reading of it)."""
    from compsem.model_packages import canonical, pins

    pinned = pins(lock)
    missing = [n for n in names if canonical(n) not in pinned]
    if missing:
        raise SystemExit(f"{lock} pins no version of {missing}: regenerate the lock file or edit WHEELS")
    return {n: pinned[canonical(n)] for n in names}


PYTHON_VERSION = f"{sys.version_info.major}.{sys.version_info.minor}"
"""The default target CPython of the wheels: the one that runs this script."""


def requirement_closure(names, python_version: str = PYTHON_VERSION) -> list[str]:
    """``names`` and every package they require, transitively, sorted: read from the metadata of
    the installed distributions (the project's environment, installed at the lock's versions),
    each requirement's environment marker evaluated for CPython ``python_version`` on Linux
    without extras (e.g. ``importlib_metadata`` is required below Python 3.12 only)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    from compsem.model_packages import canonical

    environment = {"python_version": python_version, "python_full_version": f"{python_version}.0",
                   "implementation_name": "cpython", "platform_python_implementation": "CPython",
                   "sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "extra": ""}
    found, pending = {}, list(names)
    while pending:
        name = pending.pop()
        if canonical(name) in found:
            continue
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError as missing:
            raise SystemExit(f"{name} is not installed here: run the bundle from the project's "
                             "environment (make setup), whose packages are those of requirements.lock") from missing
        found[canonical(name)] = metadata.metadata(name)["Name"]
        pending += [r.name for r in map(Requirement, requires)
                    if r.marker is None or r.marker.evaluate(environment)]
    return sorted(found.values(), key=canonical)


def download_wheels(dest: Path, names=WHEELS, python_version: str = PYTHON_VERSION) -> list[Path]:
    """The locked wheels of ``names`` and of everything they require
    (:func:`requirement_closure`) for CPython ``python_version`` on x86-64 Linux, into ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    pins = [f"{n}=={v}" for n, v in locked_versions(requirement_closure(names, python_version)).items()]
    platforms = [arg for p in PLATFORMS for arg in ("--platform", p)]
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--python-version", python_version, "--implementation", "cp", *platforms, "-d", str(dest), *pins],
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


def build(dest: Path, wheels: bool = True, python_version: str = PYTHON_VERSION) -> None:
    """Write the bundle (wheels, data, run.sh) into ``dest``, replacing an earlier one."""
    if dest.exists():
        shutil.rmtree(dest)
    copied = copy_data(dest / "data")
    found = download_wheels(dest / "wheels", python_version=python_version) if wheels else []
    runner = dest / "run.sh"
    runner.write_text(RUNNER)
    runner.chmod(0o755)
    size = sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())
    print(f"{dest}: {len(copied)} data files, {len(found)} wheels, {size / 2**20:.1f} MiB")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dest", default=str(ROOT / ".device"), help="bundle folder (default .device/)")
    parser.add_argument("--no-wheels", action="store_true", help="do not download the wheels")
    parser.add_argument("--python-version", default=PYTHON_VERSION, metavar="X.Y",
                        help=f"the GPU machine's CPython, for the wheels (default {PYTHON_VERSION}, "
                             "the Python that runs this script)")
    args = parser.parse_args(argv)
    from compsem.data.registry import DataError

    try:
        build(Path(args.dest), wheels=not args.no_wheels, python_version=args.python_version)
    except (DataError, subprocess.CalledProcessError) as error:
        print(f"device_bundle: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
