"""scripts/compare_books.py: what counts as a differing glued value, and the fixture it writes."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "scripts"))
import compare_books  # noqa: E402

sys.path.pop(0)


@pytest.mark.parametrize("a, b, expected", [
    (1.0, 1.0, 0.0), (0.0, 0.0, 0.0), (math.nan, math.nan, 0.0), (1.0, math.nan, math.inf),
    (2.0, 1.0, 0.5), (-1.0, 1.0, 2.0),
])
def test_relative_difference(a, b, expected):
    assert compare_books.relative(a, b) == expected


def test_compare_keeps_common_keys_beyond_the_threshold():
    a = {"ch": {"same": 1.0, "tiny": 1.0, "moved": 1.0, "only_a": 3.0}, "only_in_a": {"x": 1.0}}
    b = {"ch": {"same": 1.0, "tiny": 1.0 + 1e-9, "moved": 1.01, "only_b": 4.0}}
    result = compare_books.compare(a, b)
    assert list(result) == ["ch"]
    n, differ = result["ch"]
    assert n == 3 and differ == {"moved": (1.0, 1.01)}
    table = compare_books.table(result, "x", "y")
    assert "ch" in table and "moved: 1 -> 1.01" in table


def _notebook(path: Path, glued: dict[str, float]) -> None:
    cell = nbformat.v4.new_code_cell("")
    cell.outputs = [nbformat.v4.new_output(
        "display_data", data={"application/papermill.record/text/plain": repr(v)},
        metadata={"scrapbook": {"name": k}}) for k, v in glued.items()]
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)


def test_the_fixture_holds_both_numbers_of_each_differing_value(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _notebook(tmp_path / "a" / "chap.ipynb", {"k": 1.0, "j": 2.0, "run_seconds": 5.0})
    _notebook(tmp_path / "b" / "chap.ipynb", {"k": 1.5, "j": 2.0, "run_seconds": 9.0})
    out = tmp_path / "fixture.json"
    compare_books.main([str(tmp_path / "a"), str(tmp_path / "b"), "--label-a", "p",
                        "--label-b", "q", "--fixture", str(out), "--machine-a", "P",
                        "--machine-b", "Q"])
    fixture = json.loads(out.read_text())
    assert fixture["values"] == {"chap": {"k": {"p": 1.0, "q": 1.5}}}  # timing keys left out
    assert fixture["machines"] == {"p": {"cpu": "P"}, "q": {"cpu": "Q"}}
    assert "chap" in capsys.readouterr().out


def test_a_folder_without_notebooks_is_refused(tmp_path):
    with pytest.raises(SystemExit):
        compare_books.main([str(tmp_path), str(tmp_path)])
