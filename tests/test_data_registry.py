"""The data registry: mirror reads, checksum failures, and real downloads over HTTP on 127.0.0.1."""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import shutil
import tarfile
import threading

import pytest

from compsem.data import registry
from compsem.data.registry import DataError, Entry

PAIRS = "bmmlab/compositional-semantics-eval/Data-experiment/STS3k_all.txt"
PILOT = "bmmlab/compositional-semantics-eval/Data-experiment/Fodor_pilot_2022.txt"


def test_registry_lists_the_study_datasets():
    names = registry.entries()
    assert len(names) > 600
    for prefix in ("bmmlab/", "najoungkim/COGS/", "aetting/compeval-2018/", "dscarvalho/",
                   "stsbenchmark/", "sick2014/"):
        assert any(n.startswith(prefix) for n in names), prefix
    assert all(len(e.sha256) == 64 for e in names.values())


def test_unknown_path_names_close_matches():
    with pytest.raises(DataError, match="not in the data registry.*Did you mean"):
        registry.entry(PAIRS.replace("all.txt", "al.txt"))


@pytest.mark.needs_data
def test_fetch_from_mirror_verifies(data_file, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"  # a mirror holding one real file, wherever the session's came from
    (mirror / PAIRS).parent.mkdir(parents=True)
    shutil.copy(data_file(PAIRS), mirror / PAIRS)
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(mirror))
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    path = registry.fetch(PAIRS)
    assert path == mirror.resolve() / PAIRS
    assert registry.sha256_of(path) == registry.entry(PAIRS).sha256
    assert not list((tmp_path / "cache").rglob("*.txt"))  # read in place: nothing downloaded


def test_missing_mirror_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(tmp_path))
    with pytest.raises(DataError) as error:
        registry.fetch(PAIRS)
    message = str(error.value)
    assert str(tmp_path / PAIRS) in message
    assert registry.entry(PAIRS).sha256 in message
    assert "COMPSEM_DATA_DIR" in message


def test_corrupted_mirror_file_stops(tmp_path, monkeypatch):
    bad = tmp_path / PAIRS
    bad.parent.mkdir(parents=True)
    bad.write_text("A;B;0.5\n")
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(tmp_path))
    with pytest.raises(DataError, match="checksum mismatch") as error:
        registry.fetch(PAIRS)
    assert registry.entry(PAIRS).sha256 in str(error.value)


@pytest.fixture
def http_root(tmp_path):
    """A directory served over HTTP on 127.0.0.1 (stopped after the test)."""
    root = tmp_path / "served"
    root.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def download_env(tmp_path, monkeypatch, http_root):
    root, url = http_root
    monkeypatch.delenv("COMPSEM_DATA_DIR", raising=False)
    monkeypatch.setenv("COMPSEM_DATA_URL", url)
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    return root, url, tmp_path / "cache" / "data"


@pytest.mark.needs_data
def test_download_verifies_and_caches(data_file, download_env):
    root, _, cache = download_env
    for name in (PAIRS, PILOT):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(data_file(name), root / name)
    path = registry.fetch(PAIRS)
    assert path == cache / PAIRS
    assert registry.sha256_of(path) == registry.entry(PAIRS).sha256
    (root / PAIRS).unlink()  # a second fetch must come from the cache, not the server
    assert registry.fetch(PAIRS) == path
    assert registry.fetch(PILOT).read_text().startswith("the koala attacks the toaster")


def test_corrupted_download_stops_and_keeps_nothing(download_env):
    root, _, cache = download_env
    (root / PAIRS).parent.mkdir(parents=True)
    (root / PAIRS).write_text("corrupted;copy;0.1\n")
    with pytest.raises(DataError, match="checksum mismatch") as error:
        registry.fetch(PAIRS)
    assert registry.entry(PAIRS).sha256 in str(error.value)
    assert not (cache / PAIRS).exists()


def test_unreachable_file_is_a_clear_error(download_env):
    with pytest.raises(DataError, match="could not download"):
        registry.fetch(PILOT)


def test_archive_member_download(http_root, tmp_path, monkeypatch):
    root, url = http_root
    payload = b"the dog chased the cat\tpositive\n"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("bundle/tasks/train.txt")
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    (root / "bundle.tar.gz").write_bytes(buffer.getvalue())
    item = Entry("owner/repo/tasks/train.txt", len(payload), hashlib.sha256(payload).hexdigest(),
                 f"{url}/bundle.tar.gz#bundle/tasks/train.txt")
    monkeypatch.setattr(registry, "entries", lambda: {item.path: item})
    monkeypatch.delenv("COMPSEM_DATA_DIR", raising=False)
    monkeypatch.delenv("COMPSEM_DATA_URL", raising=False)
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    assert registry.fetch(item.path).read_bytes() == payload
    bad = Entry(item.path, 1, "0" * 64, item.upstream)
    monkeypatch.setattr(registry, "entries", lambda: {bad.path: bad})
    (tmp_path / "cache" / "data" / item.path).unlink()
    with pytest.raises(DataError, match="checksum mismatch"):
        registry.fetch(bad.path)


def test_write_registry_round_trip(tmp_path):
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text("path\tbytes\tsha256\tupstream\nb/x.txt\t3\t" + "a" * 64 + "\thttp://h/x\n"
                        "a/y.txt\t4\t" + "b" * 64 + "\thttp://h/y\n")
    out = tmp_path / "registry.tsv"
    assert registry.write_registry(manifest, out).added == ["a/y.txt", "b/x.txt"]
    table = registry.entries.__wrapped__(out)
    assert list(table) == ["a/y.txt", "b/x.txt"]
    assert table["b/x.txt"].bytes == 3


def test_committed_registry_is_what_write_registry_produces(tmp_path):
    """data/registry.tsv must be regenerable (no hand edits)."""
    from compsem import paths

    rows = registry.entries()
    manifest = tmp_path / "MANIFEST.tsv"
    manifest.write_text("path\tbytes\tsha256\tupstream\n" + "".join(
        f"{e.path}\t{e.bytes}\t{e.sha256}\t{e.upstream}\n" for e in rows.values()))
    out = tmp_path / "registry.tsv"
    registry.write_registry(manifest, out)
    assert out.read_text() == paths.REGISTRY_FILE.read_text()


@pytest.mark.needs_data
def test_mirror_manifest_matches_registry(mirror):
    """The registry was generated from the mirror's MANIFEST.tsv and agrees with it."""
    manifest = mirror / "MANIFEST.tsv"
    if not manifest.exists():
        pytest.skip("mirror has no MANIFEST.tsv")
    lines = manifest.read_text().splitlines()[1:]
    shas = {ln.split("\t")[0]: ln.split("\t")[2] for ln in lines if ln}
    assert {k: v.sha256 for k, v in registry.entries().items()} == shas


# --- issue 21: unsafe paths, corrupted archives -------------------------------------------------


@pytest.mark.parametrize("path", ["/etc/passwd", "owner/repo/../../../etc/passwd", "../x",
                                  "owner/..", "C:\\x", ""])
def test_unsafe_registry_paths_are_rejected(path, tmp_path, monkeypatch):
    item = Entry(path, 1, "0" * 64, "https://example.org/x")
    monkeypatch.setattr(registry, "entries", lambda: {path: item})
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(tmp_path))
    with pytest.raises(DataError, match="unsafe registry path"):
        registry.fetch(path)


def test_unsafe_tar_member_is_rejected(tmp_path):
    from compsem import resources

    for name in ("../evil", "a/../../evil", "/abs"):
        with pytest.raises(resources.ModelUnavailableError, match="unsafe member path"):
            resources._safe_member(name, tmp_path / "x.tar.gz")
    assert resources._safe_member("wordnet/data.noun", tmp_path) == "wordnet/data.noun"


def test_garbage_archive_is_evicted_and_named(http_root, tmp_path, monkeypatch):
    root, url = http_root
    payload = b"the dog chased the cat\tpositive\n"
    item = Entry("owner/repo/tasks/train.txt", len(payload), hashlib.sha256(payload).hexdigest(),
                 f"{url}/bundle.tar.gz#bundle/tasks/train.txt")
    monkeypatch.setattr(registry, "entries", lambda: {item.path: item})
    monkeypatch.delenv("COMPSEM_DATA_DIR", raising=False)
    monkeypatch.delenv("COMPSEM_DATA_URL", raising=False)
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    archive = tmp_path / "cache" / "archives" / "bundle.tar.gz"
    (root / "bundle.tar.gz").write_bytes(b"<html>not a tar.gz</html>")
    with pytest.raises(DataError, match=r"(?s)bundle.tar.gz .*unreadable.*deleted"):
        registry.fetch(item.path)
    assert not archive.exists()  # evicted: the next run downloads it again
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        info = tarfile.TarInfo("bundle/tasks/train.txt")
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))
    (root / "bundle.tar.gz").write_bytes(buffer.getvalue()[:-30])  # truncated
    with pytest.raises(DataError, match="deleted"):
        registry.fetch(item.path)
    assert not archive.exists()
    (root / "bundle.tar.gz").write_bytes(buffer.getvalue())
    assert registry.fetch(item.path).read_bytes() == payload  # recovers once upstream is good


# --- issue 44, case 1: a command that rewrites the tracked registry never drops rows silently ---

def _manifest(tmp_path, rows: list[str], name: str = "MANIFEST.tsv"):
    file = tmp_path / name
    file.write_text("path\tbytes\tsha256\tupstream\n" + "".join(row + "\n" for row in rows))
    return file


def _row(path: str, digit: str = "a") -> str:
    return f"{path}\t3\t{digit * 64}\thttp://h/{path}"


def test_registry_refuses_a_manifest_that_would_drop_rows(tmp_path):
    out = tmp_path / "registry.tsv"
    registry.write_registry(_manifest(tmp_path, [_row("a/x.txt"), _row("a/y.txt")]), out)
    before = out.read_bytes()
    with pytest.raises(DataError, match=r"lists no files.*left as it is"):
        registry.write_registry(_manifest(tmp_path, [], "empty.tsv"), out)
    nothing = tmp_path / "nothing.tsv"
    nothing.write_text("")  # what /dev/null reads as
    with pytest.raises(DataError, match=r"first line must be the header"):
        registry.write_registry(nothing, out)
    with pytest.raises(DataError, match=r"would remove 1 of the 2 rows .*a/y.txt.*--allow-removals"):
        registry.write_registry(_manifest(tmp_path, [_row("a/x.txt")], "part.tsv"), out)
    assert out.read_bytes() == before
    change = registry.write_registry(_manifest(tmp_path, [_row("a/x.txt", "b"), _row("c/z.txt")],
                                               "next.tsv"), out, allow_removals=True)
    assert (change.added, change.removed, change.changed) == (["c/z.txt"], ["a/y.txt"], ["a/x.txt"])
    assert list(registry.entries.__wrapped__(out)) == ["a/x.txt", "c/z.txt"]


@pytest.mark.parametrize(("row", "message"), [
    ("../x.txt\t3\t" + "a" * 64 + "\thttp://h/x", "unsafe path on .*line 2"),
    ("a/x.txt\tthree\t" + "a" * 64 + "\thttp://h/x", "line 2: bytes 'three'"),
    ("a/x.txt\t3\tabc\thttp://h/x", "line 2: sha256 'abc' is not 64"),
    ("a/x.txt\t3\t" + "a" * 64 + "\t", "line 2: every row needs"),
])
def test_a_malformed_manifest_names_the_line_and_field(tmp_path, row, message):
    with pytest.raises(DataError, match=message):
        registry.write_registry(_manifest(tmp_path, [row]), tmp_path / "registry.tsv")
    assert not (tmp_path / "registry.tsv").exists()


def test_a_manifest_listing_a_path_twice_or_without_header_is_refused(tmp_path):
    with pytest.raises(DataError, match="line 3: path 'a/x.txt' is listed twice"):
        registry.read_manifest(_manifest(tmp_path, [_row("a/x.txt"), _row("a/x.txt", "b")]))
    headless = tmp_path / "headless.tsv"
    headless.write_text(_row("a/x.txt") + "\n")
    with pytest.raises(DataError, match="first line must be the header"):
        registry.read_manifest(headless)


def test_cli_registry_of_an_empty_manifest_keeps_the_registry(tmp_path, monkeypatch, capsys):
    """`compsem data registry /dev/null` once emptied data/registry.tsv and said 'wrote 0 rows'."""
    from compsem import cli, paths

    copy = tmp_path / "registry.tsv"
    copy.write_bytes(paths.REGISTRY_FILE.read_bytes())
    committed = paths.REGISTRY_FILE.read_bytes()
    monkeypatch.setattr(paths, "REGISTRY_FILE", copy)
    empty = _manifest(tmp_path, [], "empty.tsv")
    assert cli.main(["data", "registry", str(empty)]) == 2
    err = capsys.readouterr().err
    assert "lists no files" in err and "Traceback" not in err
    assert copy.read_bytes() == committed
    rows = [f"{e.path}\t{e.bytes}\t{e.sha256}\t{e.upstream}" for e in registry.entries().values()]
    assert cli.main(["data", "registry", str(_manifest(tmp_path, rows[1:], "part.tsv"))]) == 2
    assert f"would remove 1 of the {len(rows)} rows" in capsys.readouterr().err
    assert copy.read_bytes() == committed
    assert cli.main(["data", "registry", str(_manifest(tmp_path, rows, "full.tsv"))]) == 0
    assert "0 added, 0 removed, 0 changed" in capsys.readouterr().out
    assert copy.read_bytes() == committed
    assert paths.PROJECT_DATA_DIR.joinpath("registry.tsv").read_bytes() == committed
