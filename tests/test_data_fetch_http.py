"""The download path for real: ``python -m http.server`` on 127.0.0.1 serves the data mirror,
``COMPSEM_DATA_URL`` points the registry at it, and ``COMPSEM_DATA_DIR`` is unset.

Files are downloaded into the cache and verified against the registry checksums; a tampered
file on the server is refused and nothing is kept; a copy tampered in the cache is downloaded
again. The served files are the mirror itself when ``COMPSEM_DATA_DIR`` names one, otherwise
copies of the few files used, fetched with the session's settings (so these tests are marked
``needs_data``). Two runs of pytest itself check tests/conftest.py: data tests fetch through a
served mirror, and are skipped with one summary line (an error under CI) when it is down.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest

from compsem import paths
from compsem.data import registry
from compsem.data.registry import DataError

MIRROR = paths.data_dir()  # read at import, before any test changes the environment
PAIRS = "bmmlab/compositional-semantics-eval/Data-experiment/STS3k_all.txt"
SPACED = "bmmlab/compositional-semantics-eval/Data-model/STS3k PCA Comparisons/readme.txt"
MEMBER = "aetting/compeval-2018/vocab.txt"  # upstream: a member of a .tar.gz archive
STR2022 = "Priya22/semantic-textual-relatedness/sem_text_rel_ranked.csv"  # tests/test_str2022.py
FILES = (PAIRS, SPACED, MEMBER, STR2022)
START_TIMEOUT_S = 30


class Served(NamedTuple):
    root: Path
    url: str


@contextlib.contextmanager
def http_server(root: Path):
    """``python -m http.server`` serving ``root`` on 127.0.0.1 (a free port); yields its URL and
    stops it on exit."""
    process = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
         "--directory", str(root)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            deadline, line = time.monotonic() + START_TIMEOUT_S, ""
            while not line and process.poll() is None and time.monotonic() < deadline:
                if selector.select(timeout=0.5):
                    line = process.stdout.readline()
        port = re.search(r"Serving HTTP on 127\.0\.0\.1 port (\d+)", line)
        assert port, f"http.server did not start within {START_TIMEOUT_S} s: {line!r}"
        yield f"http://127.0.0.1:{port.group(1)}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        process.stdout.close()


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens (connections are refused at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def copy_files(data_file, root: Path, names=FILES) -> Path:
    for name in names:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(data_file(name), root / name)
    return root


@pytest.fixture(scope="module")
def served(data_file, tmp_path_factory):
    """The data mirror (or copies of FILES) served over HTTP on 127.0.0.1."""
    root = MIRROR or copy_files(data_file, tmp_path_factory.mktemp("served"))
    with http_server(root) as url:
        yield Served(root, url)


@pytest.fixture
def download_from(tmp_path, monkeypatch):
    """``download_from(url)``: no mirror, ``COMPSEM_DATA_URL=url`` and a fresh cache; returns the
    cache's data folder."""

    def use(url: str) -> Path:
        monkeypatch.delenv("COMPSEM_DATA_DIR", raising=False)
        monkeypatch.setenv("COMPSEM_DATA_URL", url)
        monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
        return tmp_path / "cache" / "data"

    return use


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


@pytest.mark.needs_data
def test_files_are_downloaded_into_the_cache_and_verified(served, download_from):
    cache = download_from(served.url)
    assert "#" in registry.entry(MEMBER).upstream and " " in SPACED
    for name in (PAIRS, SPACED, MEMBER):
        got = registry.fetch(name)
        assert got == cache / name
        assert registry.sha256_of(got) == registry.entry(name).sha256
        assert got.read_bytes() == (served.root / name).read_bytes()
    assert files_under(cache) == sorted(cache / name for name in (PAIRS, SPACED, MEMBER))
    # the archive member came from the server as a file: no upstream archive was fetched
    assert files_under(paths.cache_dir("archives")) == []


@pytest.mark.needs_data
def test_a_cached_copy_needs_no_server(served, download_from):
    download_from(served.url)
    got = registry.fetch(PAIRS)
    download_from(closed_port_url())  # the server is gone
    assert registry.fetch(PAIRS) == got
    with pytest.raises(DataError, match=r"could not download .*STS3k_all_participant"):
        registry.fetch(PAIRS.replace("STS3k_all.txt", "STS3k_all_participant_data.xlsx"))


@pytest.mark.needs_data
def test_a_tampered_served_file_is_refused_and_nothing_is_kept(data_file, download_from, tmp_path):
    root = copy_files(data_file, tmp_path / "tampered", (PAIRS, MEMBER))
    for name in (PAIRS, MEMBER):
        good = (root / name).read_bytes()
        (root / name).write_bytes(good[:-2] + b"!\n")  # same size, different content
    with http_server(root) as url:
        cache = download_from(url)
        for name in (PAIRS, MEMBER):
            with pytest.raises(DataError, match="checksum mismatch downloading") as error:
                registry.fetch(name)
            assert registry.entry(name).sha256 in str(error.value)
            assert url in str(error.value)
    assert files_under(cache) == []  # not the bad copy, not a partial download


@pytest.mark.needs_data
def test_a_copy_tampered_in_the_cache_is_downloaded_again(served, download_from):
    download_from(served.url)
    got = registry.fetch(PAIRS)
    good = got.read_bytes()
    for bad in (good[:-2] + b"!\n", good[: len(good) // 2]):  # changed in place; truncated
        got.write_bytes(bad)
        stat = got.stat()
        os.utime(got, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a new mtime
        assert registry.fetch(PAIRS) == got
        assert got.read_bytes() == good


# --- tests/conftest.py: data tests fetch through the registry, or are skipped in one line ------


def run_pytest(tmp_path: Path, url: str, **extra: str) -> subprocess.CompletedProcess:
    """pytest on tests/test_str2022.py's data tests: no mirror, COMPSEM_DATA_URL=url, a fresh
    cache."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COMPSEM_DATA_DIR", "CI", "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST")}
    env.update(COMPSEM_DATA_URL=url, COMPSEM_CACHE_DIR=str(tmp_path / "cache"), **extra)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", "needs_data",
         "tests/test_str2022.py"],
        cwd=paths.PROJECT_DIR, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.needs_data
def test_data_tests_fetch_from_the_served_mirror(served, tmp_path):
    done = run_pytest(tmp_path, served.url)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(r"\b2 passed\b", done.stdout) and "skipped" not in done.stdout
    assert (tmp_path / "cache" / "data" / STR2022).is_file()


def test_without_data_the_data_tests_are_skipped_in_one_line(tmp_path):
    url = closed_port_url()
    done = run_pytest(tmp_path, url)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = [ln for ln in done.stdout.splitlines() if "data tests skipped" in ln]
    assert len(summary) == 1, done.stdout
    assert summary[0].startswith("2 data tests skipped: could not download ")
    assert url in summary[0] and "Connection refused" in summary[0]
    assert summary[0].endswith("set COMPSEM_DATA_DIR to a mirror or COMPSEM_DATA_URL to a server")
    assert re.search(r"\b2 skipped\b", done.stdout) and "passed" not in done.stdout
    under_ci = run_pytest(tmp_path, url, CI="1")
    assert under_ci.returncode == pytest.ExitCode.USAGE_ERROR, under_ci.stdout + under_ci.stderr
    assert "CI: the data tests cannot get their files: could not download" in under_ci.stderr
