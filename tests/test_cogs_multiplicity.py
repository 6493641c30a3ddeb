"""Multiple comparisons of the COGS chapters (compsem.cogs.multiplicity): Bonferroni's and
Šidák's levels and Holm's step-down adjustment, against their definitions and a worked example."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from compsem.cogs import multiplicity


def test_bonferroni_and_sidak_levels():
    assert multiplicity.bonferroni_level(6) == pytest.approx(1 - 0.05 / 6)
    assert multiplicity.bonferroni_level(1) == pytest.approx(0.95)
    assert multiplicity.sidak_level(10) == pytest.approx(0.95 ** 0.1)
    assert multiplicity.sidak_level(1) == pytest.approx(0.95)
    # k independent intervals at the Šidák level cover together with exactly 95%
    for k in (2, 5, 10):
        assert multiplicity.sidak_level(k) ** k == pytest.approx(0.95)
        # Šidák's level is a little below Bonferroni's (its intervals a little narrower)
        assert multiplicity.sidak_level(k) < multiplicity.bonferroni_level(k)
    assert multiplicity.bonferroni_level(4, alpha=0.10) == pytest.approx(0.975)
    for bad in (0, 2.5, -1):
        with pytest.raises(ValueError, match="whole number"):
            multiplicity.sidak_level(bad)


def test_holm_matches_its_definition_on_a_worked_example():
    # sorted p .01, .02, .03, .04 (given out of order): times 4, 3, 2, 1 = .04, .06, .06, .04,
    # made non-decreasing: .04, .06, .06, .06
    p = [0.03, 0.01, 0.04, 0.02]
    assert multiplicity.holm(p) == pytest.approx([0.06, 0.04, 0.06, 0.06])
    # capped at 1, and ties keep their order
    assert multiplicity.holm([0.5, 0.5, 0.9]) == pytest.approx([1.0, 1.0, 1.0])
    assert multiplicity.holm([0.2]) == pytest.approx([0.2])


def test_holm_rejects_at_least_what_bonferroni_rejects_and_never_less_than_p():
    rng = np.random.default_rng(0)
    for _ in range(200):
        p = rng.uniform(0, 0.2, size=rng.integers(1, 25))
        adjusted = multiplicity.holm(p)
        assert np.all(adjusted >= p - 1e-15) and np.all(adjusted <= 1)
        bonferroni = np.minimum(1, len(p) * p)
        assert np.all(adjusted <= bonferroni + 1e-15)
        # step-down: the adjusted values keep the order of the p-values
        order = np.argsort(p, kind="stable")
        assert np.all(np.diff(adjusted[order]) >= -1e-15)


def test_holm_keeps_the_family_wise_error_rate_under_the_null():
    # 21 true nulls (uniform p): at most one false rejection in 5% of the families, or fewer
    rng = np.random.default_rng(1)
    families = 4000
    rejected = sum(bool(np.any(multiplicity.holm(rng.uniform(size=21)) <= 0.05))
                   for _ in range(families))  # fmt: skip
    assert rejected / families <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / families)
    # two-sided t-tests of 5 seeds each: the same holds for p-values the chapter computes
    draws = rng.normal(size=(families, 21, 5))
    p = 2 * stats.t.sf(np.abs(draws.mean(axis=2) / (draws.std(axis=2, ddof=1) / np.sqrt(5))), 4)
    rate = np.mean([np.any(multiplicity.holm(row) <= 0.05) for row in p])
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / families)


def test_holm_refuses_what_is_not_a_p_value():
    for bad in ([], [0.1, float("nan")], [1.2], [-0.1]):
        with pytest.raises(ValueError, match="p-values"):
            multiplicity.holm(bad)
