"""Style: ruff over the library, the tests and the chapter sources (config in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

from compsem import paths


def test_ruff_is_clean():
    ruff = Path(sys.executable).with_name("ruff")
    result = subprocess.run([str(ruff), "check", "lib", "tests", "notebooks"],
                            cwd=paths.PROJECT_DIR, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
