"""Shared fixtures. Tests that read the real data need COMPSEM_DATA_DIR (a local mirror, as CI
sets it) and are skipped without it, except under CI where a missing mirror is an error."""

from __future__ import annotations

import os

import pytest

from compsem import paths


def pytest_collection_modifyitems(config, items):
    # cheapest first: unit tests, then chapter runs and the book (marked slow)
    items.sort(key=lambda item: "slow" in item.keywords)
    if os.environ.get("COMPSEM_DATA_DIR"):
        return
    if os.environ.get("CI"):
        raise pytest.UsageError("CI must set COMPSEM_DATA_DIR to the data mirror (../shared/data)")
    skip = pytest.mark.skip(reason="needs COMPSEM_DATA_DIR (a local data mirror)")
    for item in items:
        if "needs_data" in item.keywords:
            item.add_marker(skip)


def pytest_configure(config):
    config.addinivalue_line("markers", "needs_data: reads files of the data mirror")


@pytest.fixture(scope="session")
def mirror():
    """The local data mirror named by COMPSEM_DATA_DIR."""
    path = paths.data_dir()
    if path is None:
        pytest.skip("needs COMPSEM_DATA_DIR")
    return path
