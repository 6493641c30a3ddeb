"""Shared fixtures, and where the data tests get their files.

Tests marked ``needs_data`` read real registry files through :func:`compsem.data.registry.fetch`,
exactly as ``make book`` does: from the mirror named by ``COMPSEM_DATA_DIR`` (CI), or otherwise
downloaded and verified into the cache (``COMPSEM_CACHE_DIR``), from upstream or from the server
named by ``COMPSEM_DATA_URL``. Once per session, before any data test runs, a probe downloads one
small file into a throwaway cache. If that fails (no network, server down), the data tests are
skipped, with one summary line saying how many and why; under CI (``CI`` set) it is an error.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import re
import tempfile
from typing import NoReturn

import pytest

from compsem import paths
from compsem.data import registry
from compsem.targets import load_targets

DATA_VARS = ("COMPSEM_DATA_DIR", "COMPSEM_DATA_URL", "COMPSEM_CACHE_DIR")
SESSION_DATA_ENV = {name: os.environ.get(name) for name in DATA_VARS}  # before any test changes them
PROBE_TIMEOUT_S = 10
_UNAVAILABLE = pytest.StashKey[str]()
_SKIPPED = pytest.StashKey[int]()


@contextlib.contextmanager
def environ(values: dict[str, str | None]):
    """Set (str) or unset (None) environment variables, restoring them afterwards
    (``compsem.envvars.temporary`` sets only: the session's data settings may be unset ones)."""
    saved = {name: os.environ.get(name) for name in values}

    def apply(pairs):
        for name, value in pairs.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    apply(values)
    try:
        yield
    finally:
        apply(saved)


def probe_file() -> str:
    """The smallest registry file that is downloaded on its own (not a member of an archive)."""
    rows = [e for e in registry.entries().values() if "#" not in e.upstream]
    return min(rows, key=lambda e: (e.bytes, e.path)).path


def _cache_is_complete() -> bool:
    """Every registry file is already in the cache at its registry size (e.g. offline after a
    full download); each is still verified by its checksum when a test fetches it."""
    root = paths.cache_dir("data")
    return all((root / e.path).is_file() and (root / e.path).stat().st_size == e.bytes
               for e in registry.entries().values())


def data_unavailable() -> str | None:
    """None when the data tests can get their files; otherwise why not (one line)."""
    if paths.data_dir() is not None:
        return None  # the mirror: a missing or corrupted file there is a test failure
    import pooch.downloaders

    timeout, level = pooch.downloaders.DEFAULT_TIMEOUT, pooch.get_logger().level
    pooch.downloaders.DEFAULT_TIMEOUT = PROBE_TIMEOUT_S
    pooch.get_logger().setLevel("WARNING")  # no "Downloading data from ..." line for the probe
    try:
        with tempfile.TemporaryDirectory(prefix="compsem-probe-") as scratch, \
                environ({"COMPSEM_CACHE_DIR": scratch}):
            registry.fetch(probe_file())  # a real download, never a cached copy
        return None
    except registry.DataError as error:
        if _cache_is_complete():
            return None
        return _one_line(error)
    finally:
        pooch.downloaders.DEFAULT_TIMEOUT = timeout
        pooch.get_logger().setLevel(level)


def _one_line(error: registry.DataError) -> str:
    """The DataError's first line, with a network error cut to its gist ("[Errno 111] Connection
    refused", "404 Client Error: File not found")."""
    reason = str(error).splitlines()[0]
    if error.__cause__ is not None and reason.startswith("could not download"):
        cause = str(error.__cause__)
        errno = re.search(r"\[Errno -?\d+\] [^'\")]+", cause)
        reason = f"{reason.split(': ')[0]}: {errno.group(0) if errno else cause.split(' for url')[0]}"
    return reason if len(reason) <= 300 else f"{reason[:150]} ... {reason[-140:]}"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "needs_data: reads real data files through the registry (mirror or download)")


def pytest_collection_modifyitems(config, items):
    # cheapest first: unit tests, then chapter runs and the book (marked slow)
    items.sort(key=lambda item: "slow" in item.keywords)
    if config.option.collectonly or not any("needs_data" in item.keywords for item in items):
        return
    reason = data_unavailable()
    if reason is None:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(
            f"CI: the data tests cannot get their files: {reason}\n"
            f"Set COMPSEM_DATA_DIR to the data mirror (../shared/data).")
    config.stash[_UNAVAILABLE] = reason


def pytest_runtest_setup(item):
    reason = item.config.stash.get(_UNAVAILABLE, None)
    if reason is not None and "needs_data" in item.keywords:
        item.config.stash[_SKIPPED] = item.config.stash.get(_SKIPPED, 0) + 1
        pytest.skip(f"data unavailable: {reason}")  # one location: -ra shows a single line


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = config.stash.get(_SKIPPED, 0)
    if skipped:
        terminalreporter.write_line(
            f"{skipped} data tests skipped: {config.stash[_UNAVAILABLE]}; set COMPSEM_DATA_DIR to "
            f"a mirror or COMPSEM_DATA_URL to a server", yellow=True, bold=True)


def unavailable(reason: str) -> NoReturn:
    """Skip the test for a missing part of the setup (a model, an optional package); under CI
    (``CI`` set, as ``.ci/run`` does) fail it instead: CI installs everything, so a missing part
    is a broken setup there, never a reason to skip silently (as for the data and Chromium)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI: the setup is incomplete: {reason}", pytrace=False)
    pytest.skip(reason)


def require_module(name: str):
    """``pytest.importorskip(name)`` that fails under CI (:func:`unavailable`)."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        unavailable(f"could not import {name!r}: {error}")


@pytest.fixture(scope="session")
def mirror():
    """The local data mirror named by COMPSEM_DATA_DIR (only for tests of the mirror itself)."""
    path = paths.data_dir()
    if path is None:
        pytest.skip("tests the mirror named by COMPSEM_DATA_DIR (unset: data are downloaded)")
    return path


@pytest.fixture(scope="session")
def data_file():
    """``data_file(path)``: a verified local copy of a registry file, fetched with the session's
    data settings (the mirror, or a download into the session's cache) even when the calling
    test has changed COMPSEM_DATA_DIR, COMPSEM_DATA_URL or COMPSEM_CACHE_DIR."""
    def get(path: str):
        with environ(SESSION_DATA_ENV):
            return registry.fetch(path)

    return get


@pytest.fixture(scope="session")
def nlp():
    """spaCy's ``en_core_web_sm`` pipeline (:func:`compsem.resources.spacy_pipeline`), loaded once;
    the test is skipped where the packaged model is not installed (under CI it fails:
    :func:`unavailable`)."""
    require_module("spacy")
    from compsem.resources import ModelUnavailableError, spacy_pipeline

    try:
        return spacy_pipeline("sm")
    except ModelUnavailableError as error:  # pragma: no cover - environment without the model
        unavailable(str(error))


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """An empty cache of the test's own (``COMPSEM_CACHE_DIR`` at ``tmp_path / "cache"``) with the
    fit cache on (``COMPSEM_FIT_CACHE`` unset) and no embedding shards remembered in memory from
    another folder; the folder. Shared by every test of what is cached (embeddings, fits, the
    derived tables): they must neither read nor fill the session's cache."""
    from compsem.models import cache

    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COMPSEM_FIT_CACHE", raising=False)
    cache._read_shards.cache_clear()
    yield tmp_path / "cache"
    cache._read_shards.cache_clear()


@pytest.fixture
def finalised_executions():
    """Collect garbage after a test that executes chapters. A chapter run that is interrupted or
    whose kernel dies leaves nbclient tasks whose exceptions nobody retrieved; they sit in
    reference cycles until the garbage collector frees them, and their finalisers then log the
    exception with a traceback. Python 3.11's traceback module parses source with ``ast`` (for its
    carets), and an AST built while another one is being built (the collector can run there, in
    ``inspect.getsource`` of a later test, say) breaks the outer one with "SystemError: AST
    constructor recursion depth mismatch". Collected here, the tasks are finalised in the test
    that made them."""
    yield
    gc.collect()


@pytest.fixture
def no_fit_cache(monkeypatch):
    """The fit cache off (``COMPSEM_FIT_CACHE=0``): for the modules whose tests fit for real; the
    fit cache has its own tests (``cache_dir``)."""
    monkeypatch.setenv("COMPSEM_FIT_CACHE", "0")


@pytest.fixture
def hf_offline(monkeypatch):
    """The Hugging Face libraries offline (hub, transformers, datasets): the fine-tuning tests
    load the packaged MiniLM and must never reach the network."""
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        monkeypatch.setenv(name, "1")


@pytest.fixture(scope="session")
def minilm_dir() -> str:
    """The folder of the packaged all-MiniLM-L6-v2, for the fine-tuning tests
    (:mod:`compsem.sts.finetune`); skipped where the model or sentence-transformers' training
    extra (datasets, accelerate) is not installed (under CI it fails: :func:`unavailable`)."""
    require_module("datasets")
    require_module("accelerate")
    from compsem.models import ModelUnavailableError
    from compsem.models import registry as models

    try:
        return str(models.minilm_path())
    except ModelUnavailableError as error:
        unavailable(str(error))


@pytest.fixture(scope="session")
def within_target():
    """``within_target(study, key, value)``: asserts that ``value`` lies within the tolerance of
    the paper's number ``key`` in ``data/targets/<study>.json`` (read by
    :func:`compsem.targets.load_targets`, as the book reads it); shared by the tests that hold a
    computed number to the paper."""
    def check(study: str, key: str, value) -> None:
        target = load_targets(study)[key]
        assert abs(value - target["paper"]) <= target["tol"] + 1e-12, (key, value, target["paper"])

    return check


@pytest.fixture(scope="session")
def reversal_pairs():
    """``reversal_pairs(n, seed)``: ``n`` toy pairs for the COGS sequence-to-sequence models, each
    the reverse of a sequence of 1-6 symbols (ids 4-11 in both vocabularies: 12 ids with the
    specials); shared by the training, checkpoint and time-budget tests, which train on it in
    seconds."""
    import numpy as np

    from compsem.cogs.seq2seq import batching

    def make(n: int, seed: int):
        rng = np.random.default_rng(seed)
        src = [rng.integers(4, 12, rng.integers(1, 7)).tolist() for _ in range(n)]
        return batching.Pairs(src, [s[::-1] for s in src])

    return make


@pytest.fixture(scope="session")
def toy_config():
    """``toy_config(model="transformer-tiny", steps=30)``: the configuration that trains a tiny
    model on ``reversal_pairs`` (seed 7, batches of 16 x 2, validation every 10 updates,
    patience 100 validations); shared by the training, checkpoint and time-budget tests."""
    from compsem.cogs.seq2seq import config

    def make(model: str = "transformer-tiny", steps: int = 30) -> dict:
        return config.make_config(
            model,
            seed=7,
            training={"batch_size": 16, "accum_count": 2, "lr": 1.0, "warmup": 20,
                      "max_steps": steps, "valid_every": 10, "patience": 100},
        )

    return make
