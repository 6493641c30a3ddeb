"""Every headline number of the book against the paper (data/targets/<study>.json).

Reads the glued values of the committed executed notebooks. A glued key with a target must lie
within the target's tolerance, *partial* targets included, unless the targets file says it is
expected to differ (``"expect": "differs"`` with the evidence in ``reason``: a contradiction,
which is a finding); a target without a status (substitute / not-run) must be glued by some
chapter, so that no paper number silently drops out of the book. Every compared target says in
its ``source`` where its tolerance comes from (``tol: ...``).
"""

from __future__ import annotations

import json
import math
import re

import pytest

from compsem import paths, report

TARGET_FILES = sorted(paths.TARGETS_DIR.glob("*.json"))


def _all_targets() -> dict[str, tuple[str, dict]]:
    merged = {}
    for file in TARGET_FILES:
        for key, target in report.load_targets(file.stem).items():
            assert key not in merged, f"target {key!r} is in both {merged[key][0]} and {file.stem}"
            merged[key] = (file.stem, target)
    return merged


OTHER_SETTINGS: tuple[str, ...] = ()
"""Chapters forked into another setting (another model, split or data; CONTRIBUTING.md,
*Forking*): they glue the original's keys with numbers of their own setting, shown beside the
paper's in their tables but not held to its tolerances."""


def _all_glued() -> dict[str, list[tuple[str, float]]]:
    """Every glued key with the chapters that glue it and their values, each chapter's value
    tested on its own (a key glued by two chapters is not reduced to one of them)."""
    glued: dict[str, list[tuple[str, float]]] = {}
    for notebook in sorted(paths.BOOK_DIR.glob("*.ipynb")):
        if notebook.stem in OTHER_SETTINGS:
            continue
        for key, value in report.read_glued(notebook).items():
            glued.setdefault(key, []).append((notebook.stem, value))
    return glued


TARGETS = _all_targets()
GLUED = _all_glued()
GLUED_CELLS = [(key, chapter) for key in sorted(GLUED) for chapter, _ in GLUED[key]]
"""(key, chapter) for every glued value of every chapter."""


def _value(key: str, chapter: str) -> float:
    return dict(GLUED[key])[chapter]


def test_target_files_are_valid():
    assert TARGET_FILES, "no data/targets/*.json"
    for file in TARGET_FILES:
        json.loads(file.read_text())


SHOWN = ("substitute", "not-run")
"""Target statuses shown beside ours, never compared (their own test below)."""


@pytest.mark.parametrize(("key", "chapter"), [(k, c) for k, c in GLUED_CELLS if k in TARGETS
                                                if TARGETS[k][1].get("status") not in SHOWN])
def test_glued_value_within_tolerance(key, chapter):
    study, target = TARGETS[key]
    ours = _value(key, chapter)
    assert report.verdict(ours, target) == report.expected_verdict(target), (
        f"{chapter}: {key} = {ours:.4f}, paper {target['paper']} ± {target['tol']} "
        f"({study}, {target['source']})"
    )


@pytest.mark.parametrize(("key", "chapter"), [(k, c) for k, c in GLUED_CELLS if k in TARGETS
                                                if TARGETS[k][1].get("expect") == "differs"
                                                and TARGETS[k][1].get("status") not in SHOWN])
def test_a_value_expected_to_differ_stays_on_its_recorded_side(key, chapter):
    """"Differs" alone would pass any value outside the tolerance (a glued 0, a sign flip): the
    targets file records on which side of the paper's value ours lies (``direction``, with the
    ``reason``), and ours must lie beyond the tolerance on that side."""
    _, target = TARGETS[key]
    ours = _value(key, chapter)
    paper, tol = float(target["paper"]), float(target["tol"])
    side = ours > paper + tol if target["direction"] == "above" else ours < paper - tol
    assert side, (f"{chapter}: {key} = {ours:.4f} is not {target['direction']} the paper's "
                  f"{paper} ± {tol}, the side recorded with its reason: {target['reason']}")


def test_shown_targets_say_why_and_their_glued_values_are_numbers():
    """A substitute or not-run target is not compared (a stand-in's digits, a run not made), so
    it must say why, and what a chapter glues under its key must still be a finite number."""
    shown = {key: value for key, value in TARGETS.items() if value[1].get("status") in SHOWN}
    assert shown
    assert not [key for key, (_, target) in shown.items() if not target.get("reason")]
    assert not [key for key in shown for _, value in GLUED.get(key, []) if not math.isfinite(value)]


def test_a_key_glued_by_several_chapters_has_one_value():
    """Chapters that glue the same key (a statistic of shared data, e.g. the STS3k sentence
    clusters) must agree on it; a fork that glues the original's keys with other numbers belongs
    in OTHER_SETTINGS, else one chapter's value would stand for the other's."""
    split = {key: values for key, values in GLUED.items()
             if len({"nan" if math.isnan(v) else v for _, v in values}) > 1}  # NaN agrees with NaN
    assert not split, (f"keys glued with different values by several chapters: {dict(list(split.items())[:5])}; "
                       f"a forked chapter in another setting goes into OTHER_SETTINGS")


def test_every_target_is_computed():
    missing = [f"{study}:{key}" for key, (study, target) in TARGETS.items()
               if target.get("status") in (None, "partial", "fitted") and key not in GLUED]
    assert not missing, f"targets no chapter glues: {missing}"


def test_every_compared_tolerance_is_justified():
    unjustified = [f"{study}:{key}" for key, (study, target) in TARGETS.items()
                   if target.get("status") in (None, "partial", "fitted") and "tol:" not in target["source"]]
    assert not unjustified, f"targets whose source does not say where the tolerance comes from: {unjustified[:20]}"


def test_a_target_expected_to_differ_must_say_on_which_side(tmp_path, monkeypatch):
    from compsem import targets

    monkeypatch.setattr(paths, "TARGETS_DIR", tmp_path)
    base = {"paper": 1.0, "tol": 0.1, "source": "Table 1; tol: print", "expect": "differs", "reason": "r"}
    for name, extra, error in (("none", {}, "give \"direction\""), ("sideways", {"direction": "left"}, "'above', 'below'"),
                               ("ok", {"direction": "below"}, None)):
        (tmp_path / f"{name}.json").write_text(json.dumps({"k": base | extra}))
        targets.load_targets.cache_clear()
        if error:
            with pytest.raises(ValueError, match=re.escape(error)):
                targets.load_targets(name)
        else:
            assert targets.load_targets(name)["k"]["direction"] == "below"
    targets.load_targets.cache_clear()
