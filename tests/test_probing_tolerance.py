"""The pattern tolerance of the probing claims and its basis (compsem.probing.chapter:
chance_halfwidth, pattern_tolerance): the widest sampling error of the papers' test sets,
rounded up, checked against data/targets/probing.json and the rules of data/claims/probing.yaml
(constructed item frames, no encoder)."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from compsem import claims, stats
from compsem.probing import chapter as C
from compsem.targets import load_targets

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")


def released(*n_tests: int, n_train: int = 40) -> dict:
    """Item frames with ``n_test`` test items each, one per task."""
    return {f"task{i}": pd.DataFrame({"split": ["train"] * n_train + ["test"] * n})
            for i, n in enumerate(n_tests)}


@pytest.mark.parametrize("n", [500, 1000, 1002, 40])
def test_chance_halfwidth_is_half_the_wilson_interval_at_chance(n):
    low, high = stats.wilson_interval(n // 2, n, 0.95)
    assert C.chance_halfwidth(n) == pytest.approx(100 * (high - low) / 2)
    # close to the normal approximation z * sqrt(1/4n) (within a tenth of a point from 500 on)
    if n >= 500:
        assert C.chance_halfwidth(n) == pytest.approx(100 * 1.959964 * math.sqrt(0.25 / n), abs=0.1)


def test_chance_halfwidth_narrows_with_the_test_set_and_widens_with_the_level():
    assert C.chance_halfwidth(1000) < C.chance_halfwidth(500)
    assert C.chance_halfwidth(500, 0.90) < C.chance_halfwidth(500, 0.95)


def test_the_papers_test_sets_give_the_targets_tolerance():
    """2016: 500 test items (§4), about 4.4 points; 2018: the released sets' 1,000 (1,002 for
    cont1), about 3.1: the tolerance is 5, every target's tol, and Paragram's lag on has-human
    (9.4 points) lies above it."""
    out = C.pattern_tolerance(released(1002, 1000, 1000), load_targets("probing"))
    assert out["probe_paper_n_test_2016"] == 500
    assert out["probe_released_n_test_min"] == 1000
    assert out["probe_halfwidth_2016"] == pytest.approx(4.37, abs=0.01)
    assert out["probe_halfwidth_2018"] == pytest.approx(3.09, abs=0.01)
    assert out["probe_pattern_tol"] == 5
    assert out["probe_paragram_lag"] == pytest.approx(9.4)


def test_a_target_with_another_tolerance_is_an_error():
    targets = {k: dict(v) for k, v in load_targets("probing").items()}
    targets["probe_2018_bow_sr"]["tol"] = 3.0
    with pytest.raises(ValueError, match="probe_2018_bow_sr"):
        C.pattern_tolerance(released(1000), targets)


def test_a_tolerance_as_wide_as_the_smallest_effect_is_an_error():
    """A small test set (40 items: about 15 points) gives a tolerance wider than Paragram's lag."""
    tol = math.ceil(max(C.chance_halfwidth(40), C.chance_halfwidth(C.PAPER_N_TEST_2016)))
    targets = {k: dict(v, tol=float(tol)) for k, v in load_targets("probing").items()}
    with pytest.raises(ValueError, match="smallest effect"):
        C.pattern_tolerance(released(40), targets)


def test_the_claims_rules_use_the_targets_tolerance():
    """Every constant of the probing rules is chance (50), the 2018 epoch cap (700), ± the
    targets' tolerance, or 1 in a count of capped fits below one (no fit of a cell ran to the
    run's epoch cap, compsem.probing.chapter.fits_at_cap)."""
    tols = {t["tol"] for t in load_targets("probing").values()}
    assert len(tols) == 1
    allowed = {50.0, 700.0, *tols, *(-t for t in tols)}
    cap_guard = re.compile(r"_at_cap(?:, \w+_at_cap)*\)? < 1\b")
    for claim in claims.load("probing"):
        for rule in (claim.holds_if, claim.fails_if):
            numbers = {float(x) for x in NUMBER.findall(cap_guard.sub("", rule or ""))}
            assert numbers <= allowed, f"{claim.id}: {numbers - allowed} in {rule!r}"
