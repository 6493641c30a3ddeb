"""The papers' numbers: ``data/targets/<study>.json``, read and validated.

The convention (``data/targets/<study>.json``)::

    {"split_half_all": {"paper": 0.953, "tol": 0.005, "source": "§5.1"}, ...}

optionally with ``"status"`` (:data:`STATUSES`) and a ``"reason"``, or ``"expect": "differs"``
with a ``"reason"`` and a ``"direction"`` (:data:`DIRECTIONS`); :mod:`compsem.report` sets
ours beside them, :mod:`compsem.claims` quotes them in a claim's text (``{paper:key}``).
"""

from __future__ import annotations

import functools
import json

from compsem import paths

STATUSES = ("substitute", "not-run", "partial", "fitted")
"""``substitute``: ours is a stand-in's number, shown beside the paper's; ``not-run``: not
computed here; ``partial``: computed on part of the paper's design, held to its tolerance;
``fitted``: a number our reconstruction was tuned to reproduce (a consistency check, held to
its tolerance but not evidence that the paper reproduces)."""


DIRECTIONS = ("above", "below")
"""The side of the paper's value on which ours lies for a target expected to differ
(``direction``), recorded with its ``reason`` (which for most targets explains that side, for a
few only the size of the gap): the test suite holds ours beyond the tolerance on that side, so
a value that crosses to the other side, or a glued 0, fails until the reason is revisited."""


@functools.cache
def load_targets(study: str) -> dict[str, dict]:
    """The paper numbers of ``study`` (``data/targets/<study>.json``), validated."""
    file = paths.TARGETS_DIR / f"{study}.json"
    if not file.exists():
        known = sorted(p.stem for p in paths.TARGETS_DIR.glob("*.json"))
        raise FileNotFoundError(f"no targets file {file}; known studies: {known}")
    targets = json.loads(file.read_text())
    for key, target in targets.items():
        missing = {"paper", "tol", "source"} - set(target)
        if missing:
            raise ValueError(f"{file}: target {key!r} lacks {sorted(missing)}")
        if target.get("status") not in (None, *STATUSES):
            raise ValueError(f"{file}: target {key!r} has unknown status {target['status']!r}")
        if target.get("status") and not target.get("reason"):
            raise ValueError(f"{file}: target {key!r} has a status but no reason")
        if target.get("expect", "match") not in ("match", "differs"):
            raise ValueError(f"{file}: target {key!r}: expect must be 'match' or 'differs'")
        if target.get("expect") == "differs" and not target.get("reason"):
            raise ValueError(f"{file}: target {key!r} is expected to differ but gives no reason")
        if target.get("expect") == "differs" and target.get("direction") not in DIRECTIONS:
            raise ValueError(f"{file}: target {key!r} is expected to differ: give \"direction\", "
                             f"one of {list(DIRECTIONS)}, the side of the paper's value where ours lies")
    return targets


@functools.cache
def paper_values() -> dict[str, float]:
    """The paper's number of every target of every study, by key (a key in two files is an
    error naming both)."""
    values: dict[str, float] = {}
    origin: dict[str, str] = {}
    for file in sorted(paths.TARGETS_DIR.glob("*.json")):
        for key, target in load_targets(file.stem).items():
            if key in values:
                raise ValueError(f"target {key!r} is in both data/targets/{origin[key]}.json and "
                                 f"{file.name}: rename one")
            values[key], origin[key] = float(target["paper"]), file.stem
    return values


def glued_paper_values(study: str, prefix: str) -> dict:
    """The paper's number of every target of ``data/targets/<study>.json`` as a glued value, so
    that a chapter's text and its claims' rules read it from the targets file:
    ``<prefix>_paper_<rest>`` for the target ``<prefix>_<rest>``, the number as the file gives
    it (an int stays an int)."""
    values = {}
    for key, target in load_targets(study).items():
        if not key.startswith(f"{prefix}_"):
            raise ValueError(f"data/targets/{study}.json: target {key!r} does not start with "
                             f"{prefix!r}_; rename it")
        values[f"{prefix}_paper_{key.removeprefix(f'{prefix}_')}"] = target["paper"]
    return values
