"""Environment variables set for the duration of a block, then restored exactly."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping


@contextlib.contextmanager
def temporary(values: Mapping[str, str]) -> Iterator[None]:
    """Set ``values`` in ``os.environ`` inside the block; afterwards every variable is back to
    its previous value, or unset if it was unset. Child processes started in the block (a
    notebook kernel, a trainer's workers) inherit the values."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
