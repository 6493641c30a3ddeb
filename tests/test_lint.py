"""Style: ruff over the folders `make lint` checks (the Makefile's ``LINT_PATHS``; config in
pyproject.toml)."""

import re
import subprocess
import sys
from pathlib import Path

from compsem import paths


def lint_paths() -> list[str]:
    """The folders of the Makefile's ``LINT_PATHS`` (the one list of what is linted)."""
    makefile = (paths.PROJECT_DIR / "Makefile").read_text()
    match = re.search(r"^LINT_PATHS\s*:?=\s*([^#\n]+)", makefile, flags=re.MULTILINE)
    assert match, "the Makefile defines no LINT_PATHS"
    return match.group(1).split()


def test_the_lint_covers_the_code():
    assert {"lib", "tests", "notebooks", "benchmarks", "scripts"} <= set(lint_paths())


def test_ruff_is_clean():
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", *lint_paths()],
                            cwd=paths.PROJECT_DIR, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
