"""scripts/device_bundle.py: the folder that carries the COGS trainers' data and missing packages to
an offline GPU machine, and the script that runs a command there and packs its results."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
bundle = runpy.run_path(str(ROOT / "scripts" / "device_bundle.py"), run_name="device_bundle")


def test_every_wheel_is_pinned_by_the_lock_file():
    closure = bundle["requirement_closure"](bundle["WHEELS"])
    pins = bundle["locked_versions"](closure)
    assert set(pins) == set(closure) and all(pins.values())
    with pytest.raises(SystemExit, match="pins no version"):
        bundle["locked_versions"](["no-such-package"])


def test_the_wheels_carry_every_requirement_of_dask_distributed_and_tqdm():
    """The bundle holds what ``import distributed`` needs beyond the packages named (PyYAML,
    msgpack, psutil, ...: without them the import fails), closed under the requirements, with the
    markers read for the target Python."""
    from importlib import metadata

    from packaging.requirements import Requirement

    from compsem.model_packages import canonical

    closure = bundle["requirement_closure"](bundle["WHEELS"], "3.11")
    names = {canonical(n) for n in closure}
    assert {"dask", "distributed", "tqdm", "pyyaml", "msgpack", "psutil", "cloudpickle", "toolz"} <= names
    for name in closure:
        for requirement in map(Requirement, metadata.requires(name) or []):
            if requirement.marker is None:
                assert canonical(requirement.name) in names, (name, requirement)
    assert "importlib-metadata" in names  # required by dask below Python 3.12 only
    assert "importlib-metadata" not in {canonical(n) for n in bundle["requirement_closure"](bundle["WHEELS"], "3.12")}


def test_the_bundled_data_is_the_cogs_set_of_compsem_data_mirror():
    """The bundle's data/ and `compsem data mirror DEST --set cogs` hold the same files."""
    from compsem import cli

    assert tuple(bundle["DATA_PREFIXES"]) == cli.DATA_SETS["cogs"]


def test_the_wheels_are_for_the_python_version_asked(tmp_path, monkeypatch):
    """--python-version X.Y reaches pip download (the wheels fit the GPU machine's Python)."""
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda command, **kw: calls.append(command))
    bundle["download_wheels"](tmp_path / "wheels", python_version="3.11")
    (command,) = calls
    assert command[command.index("--python-version") + 1] == "3.11"
    assert {f"{n}=={v}" for n, v in bundle["locked_versions"](bundle["WHEELS"]).items()} <= set(command)
    copied = []
    monkeypatch.setitem(bundle["main"].__globals__, "build",
                        lambda dest, wheels, python_version: copied.append((wheels, python_version)))
    assert bundle["main"](["--dest", str(tmp_path / "b"), "--python-version", "3.11"]) == 0
    assert bundle["main"](["--dest", str(tmp_path / "b"), "--no-wheels"]) == 0
    assert copied == [(True, "3.11"), (False, f"{sys.version_info.major}.{sys.version_info.minor}")]


@pytest.mark.needs_data
def test_the_bundled_data_is_all_the_trainers_read(tmp_path):
    """With COMPSEM_DATA_DIR at the bundle (and an empty cache), the data of every training
    configuration loads: COGS's splits, the 100-exposure training set and Chapter 5's corpus."""
    copied = bundle["copy_data"](tmp_path / "data")
    assert any(p.endswith("COGS/data/gen.tsv") for p in copied)
    script = (
        "from compsem.cogs.seq2seq import experiment, two_stage, auxiliary_config as ac\n"
        "from compsem.data import cogs\n"
        "sizes = [len(experiment.training_frame(e)) for e in (1, 100)]\n"
        "sizes += [len(cogs.load(s)) for s in ('dev', 'test', 'gen')]\n"
        "sizes.append(len(two_stage.corpus(ac.paper_aux_config('transformer', 'gloss', 1))))\n"
        "print(sizes)\n"
    )
    env = {**os.environ, "COMPSEM_DATA_DIR": str(tmp_path / "data"),
           "COMPSEM_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT / "lib")}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    sizes = eval(out.stdout.strip().splitlines()[-1])
    assert sizes[:5] == [24155, 25640, 3000, 3000, 21000]
    assert sizes[5] > 30_000  # the dissertation's auxiliary corpus is about 38,000 sentences


def test_the_runner_sets_up_runs_and_packs_only_new_results(tmp_path):
    """run.sh exports the paths, keeps the command's exit status, and packs only the result
    files the command wrote (older ones stay behind)."""
    dest = tmp_path / "bundle"
    dest.mkdir()
    (dest / "run.sh").write_text(bundle["RUNNER"])
    fake_bin = tmp_path / "bin"  # a python3 whose "pip install" succeeds without wheels
    fake_bin.mkdir()
    (fake_bin / "python3").write_text("#!/bin/sh\nexit 0\n")
    (fake_bin / "python3").chmod(0o755)
    repo = tmp_path / "repo"
    (repo / "data" / "results" / "old").mkdir(parents=True)
    (repo / "data" / "results" / "old" / "metrics.json").write_text("{}")
    os.utime(repo / "data" / "results" / "old" / "metrics.json", (0, 0))
    out = tmp_path / "out"
    out.mkdir()
    command = ("mkdir -p data/results/new && echo $COMPSEM_DATA_DIR $PYTHONPATH > data/results/new/env.txt; "
               "exit 7")
    env = {"PATH": f"{fake_bin}:/usr/bin:/bin", "COMPSEM_RESULTS_OUT": str(out)}
    done = subprocess.run(["bash", str(dest / "run.sh"), "bash", "-c", command], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 7, done.stdout + done.stderr
    with tarfile.open(out / "results.tar.gz") as packed:
        assert packed.getnames() == ["data/results/new/env.txt"]
    data_dir, python_path = (repo / "data/results/new/env.txt").read_text().split()
    assert data_dir == str(dest / "data")
    assert python_path.split(":")[:2] == [str(repo / "lib"), "/tmp/site"]
