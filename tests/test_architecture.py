"""The import graph stays a DAG: the import-linter contracts of pyproject.toml hold.

The contracts (``[tool.importlinter]``): no cycles between the library's packages and modules
(``acyclic_siblings`` over compsem and its subpackages), the four study packages independent of
one another, and the layers cli > sweep > run > provenance, kernel > parameters > synthesis >
scorecard > studies > report > plotting > models > resources > data > leaf modules.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(lint).exists():
        pytest.fail("lint-imports is missing: pip install -e '.[test]' (import-linter)")
    result = subprocess.run(
        [lint, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_a_cycle_would_be_caught(tmp_path):
    """The acyclic contract is not vacuous: a two-module package importing itself in a circle
    breaks it."""
    package = tmp_path / "cyclic"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyclic import b\n")
    (package / "b.py").write_text("def f():\n    from cyclic import a\n")
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "cyclic"\n\n[[tool.importlinter.contracts]]\n'
        'name = "acyclic"\ntype = "acyclic_siblings"\nancestors = ["cyclic"]\n'
    )
    lint = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    result = subprocess.run(
        [lint, "--config", str(config), "--no-cache"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode != 0 and "BROKEN" in result.stdout
