"""compsem.caches and ``compsem cache``: the cache's parts, their sizes, clearing one."""

from __future__ import annotations

import pytest

from compsem import caches, cli
from compsem.errors import CompsemError


@pytest.fixture
def root(tmp_path, monkeypatch):
    """A cache with fit entries under two numerics, embeddings and a data file."""
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path))
    for numerics, size in (("avx2-cnr", 10), ("native-x86_64", 5)):
        folder = tmp_path / "fits" / numerics / "probe-fits"
        folder.mkdir(parents=True)
        (folder / "a.npz").write_bytes(b"x" * size)
    (tmp_path / "fits" / "avx2-cnr" / "sdae").mkdir()
    (tmp_path / "fits" / "avx2-cnr" / "sdae" / "k.npz").write_bytes(b"y" * 7)
    (tmp_path / "embeddings-v2" / "minilm").mkdir(parents=True)
    (tmp_path / "embeddings-v2" / "minilm" / "shard.npy").write_bytes(b"z" * 3)
    return tmp_path


def test_parts_gather_a_fit_kind_over_numerics(root):
    found = {p.name: p for p in caches.parts()}
    assert list(found) == ["embeddings-v2", "fits/probe-fits", "fits/sdae"]
    assert (found["fits/probe-fits"].files, found["fits/probe-fits"].bytes) == (2, 15)
    assert len(found["fits/probe-fits"].folders) == 2
    assert (found["embeddings-v2"].files, found["embeddings-v2"].bytes) == (1, 3)


def test_clearing_removes_one_part_and_nothing_else(root):
    removed = caches.clear("fits/probe-fits")
    assert removed.files == 2
    assert not (root / "fits" / "avx2-cnr" / "probe-fits").exists()
    assert not (root / "fits" / "native-x86_64" / "probe-fits").exists()
    assert [p.name for p in caches.parts()] == ["embeddings-v2", "fits/sdae"]
    with pytest.raises(CompsemError, match="no part 'fits/probe-fits'; parts: embeddings-v2, fits/sdae"):
        caches.clear("fits/probe-fits")


def test_the_command_lists_and_clears(root, capsys):
    assert cli.main(["cache"]) == 0
    out = capsys.readouterr().out
    assert str(root) in out and "fits/probe-fits" in out and "embeddings-v2" in out
    assert cli.main(["cache", "clear", "embeddings-v2"]) == 0
    assert "removed embeddings-v2: 1 files" in capsys.readouterr().out
    assert not (root / "embeddings-v2").exists()


def test_clearing_sizes_only_the_part_it_removes(root, monkeypatch):
    sized = []
    size = caches._size
    monkeypatch.setattr(caches, "_size", lambda folder: sized.append(folder) or size(folder))
    caches.clear("fits/sdae")
    assert sized == [root / "fits" / "avx2-cnr" / "sdae"]
