"""Writing a file in place (compsem.paths.atomic_write): all or nothing, with the permissions a
plain write would give."""

from __future__ import annotations

import pytest

from compsem import paths


def test_a_write_lands_whole_with_a_plain_writes_permissions(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "UMASK", 0o022)  # the temporary file is created 0600
    target = tmp_path / "table.tsv"
    with paths.atomic_write(target, "w", encoding="utf-8") as handle:
        handle.write("a\tb\n")
    assert target.read_text(encoding="utf-8") == "a\tb\n"
    assert target.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["table.tsv"]  # no temporary file left


def test_a_write_cut_short_leaves_the_target_as_it_was(tmp_path):
    target = tmp_path / "results.json"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError), paths.atomic_write(target) as handle:
        handle.write(b"half")
        raise RuntimeError("cut short")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]
