"""The sts3k-hybrid statistics: beta derivation and sensitivity (compsem.sts.weights), paired
comparisons (hybrid.paired_comparisons), Figure 8 bootstrap bars and within-category
correlations (structure); synthetic data first, then the pilot files of the data mirror."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem.data.sts3k import ROLES
from compsem.sts import hybrid, structure, weights


def _rolesims(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, size=(n, len(ROLES)))
    x[rng.uniform(size=x.shape) < 0.3] = np.nan  # missing roles
    return pd.DataFrame(x, columns=list(ROLES))


def test_fit_pilot_betas_recovers_ratios():
    rng = np.random.default_rng(1)
    sims = pd.DataFrame(rng.uniform(0, 1, size=(300, 3)), columns=list(weights.CORE_ROLES))
    human = 0.1 + sims @ np.array([0.2, 0.3, 0.2]) + rng.normal(0, 0.01, 300)
    fit = weights.fit_pilot_betas(sims, human, n_resamples=200)
    np.testing.assert_allclose(fit["beta"], [2, 3, 2], atol=0.05)
    assert (fit["ci_low"] <= fit["beta"]).all() and (fit["beta"] <= fit["ci_high"]).all()
    assert abs(fit["beta"].sum() - 7) < 1e-9
    assert abs(fit.attrs["intercept"] - 0.1) < 0.01 and fit.attrs["n"] == 300


def test_fit_pilot_betas_rejects_non_positive_total():
    sims = pd.DataFrame(np.eye(3).repeat(5, axis=0), columns=list(weights.CORE_ROLES))
    with pytest.raises(ValueError, match="sum to"):
        weights.fit_pilot_betas(sims, -sims.sum(axis=1), n_resamples=100)


def test_full_weights_theme_and_minor():
    w = weights.full_weights({"Agent": 1.5, "Verb": 3.5, "Patient": 2.5})
    assert w["Theme"] == 2.5 and w["Verb"] == 3.5
    assert all(w[r] == 0.5 for r in weights.MINOR_ROLES)
    assert weights.full_weights({"Agent": 1, "Verb": 1, "Patient": 1}, minor=0)["Time"] == 0


def test_adv_rho_scale_invariant_and_perturbation_identity():
    sims = _rolesims(200)
    human = np.nan_to_num(sims.to_numpy()) @ np.arange(1, 9) + np.random.default_rng(2).normal(0, 1, 200)
    mask = np.arange(200) % 2 == 0
    base = weights.adv_rho(sims, hybrid.WEIGHTS, human, mask)
    doubled = weights.adv_rho(sims, {r: 2 * v for r, v in hybrid.WEIGHTS.items()}, human, mask)
    assert abs(base - doubled) < 1e-12
    same = weights.perturbed_rhos(sims, human, mask, factor=1.0, n_draws=5)
    np.testing.assert_allclose(same, base, atol=1e-12)
    spread = weights.perturbed_rhos(sims, human, mask, factor=3.0, n_draws=50, seed=1)
    assert spread.std() > 0
    np.testing.assert_array_equal(spread, weights.perturbed_rhos(sims, human, mask, factor=3.0, n_draws=50, seed=1))
    with pytest.raises(ValueError, match="factor"):
        weights.perturbed_rhos(sims, human, mask, factor=0.5)


def test_weight_sensitivity_rows():
    sims = _rolesims(100)
    human = np.nan_to_num(sims.to_numpy()).sum(axis=1)
    table = weights.weight_sensitivity(sims, {"paper": hybrid.WEIGHTS, "uniform": dict.fromkeys(ROLES, 1.0)},
                                       human, np.ones(100, dtype=bool))
    assert list(table.index) == ["paper", "uniform"]
    assert abs(table.loc["uniform", "rho"] - 1.0) < 1e-12  # uniform betas = the generating sum
    assert abs(table.loc["paper", list(ROLES)].sum() - 11) < 1e-9


def test_paired_comparisons_picks_best_rival():
    rng = np.random.default_rng(3)
    human = rng.normal(size=400)
    good = human + rng.normal(0, 0.3, 400)
    rivals = {"weak": human + rng.normal(0, 3, 400), "better": human + rng.normal(0, 1, 400)}
    table = hybrid.paired_comparisons({"good": good}, rivals, human, n_resamples=200)
    row = table.loc["good"]
    assert row["rival"] == "better"
    assert row["difference"] > 0 and row["ci_low"] > 0 and row["ci_low"] <= row["difference"] <= row["ci_high"]


def _labels(n_per: int = 40) -> pd.DataFrame:
    codes = {"Modifiers": ("ONLY_MOD", 1), "Paraphrase": ("PARAPHRASE", 0), "Single": ("AB_VERB", 0),
             "Swap-2": ("SWAP_SUBJ_DOBJ", 0), "Swap-3": ("TRIPLE", 0), "Swap-4": ("QUAD", 0),
             "Negative": ("NEGATIVE", 0), "Zero": ("ZERO", 0)}
    rows = [{"category": code, "n_modifiers": m} for code, m in codes.values() for _ in range(n_per)]
    return pd.DataFrame(rows)


def test_category_intervals_contains_mean_and_normalises():
    labels = _labels()
    values = np.random.default_rng(4).uniform(0.2, 1, len(labels))
    table = structure.category_intervals(values, labels, n_resamples=200)
    assert list(table.index) == list(structure.FIGURE8_CATEGORIES)
    assert abs(table.loc["Modifiers", "mean"] - 1) < 1e-12
    assert ((table["ci_low"] <= table["mean"]) & (table["mean"] <= table["ci_high"])).all()
    raw = structure.category_intervals(values, labels, n_resamples=200, relative=False)
    assert abs(raw.loc["Zero", "mean"] - values[-40:].mean()) < 1e-12


def test_within_category_separates_types_from_pairs():
    """A model that only knows each category's mean has a high overall rho but ~0 within types."""
    labels = _labels(60)
    rng = np.random.default_rng(5)
    level = np.repeat(np.arange(8, dtype=float), 60)
    human = level + rng.normal(0, 0.3, len(level))
    type_only = level + rng.normal(0, 0.3, len(level))  # right type order, pair order random
    assert stats.spearmanr(type_only, human).statistic > 0.9
    table = structure.within_category_spearman({"type only": type_only, "exact": human}, human, labels,
                                               n_resamples=200)
    exact = table[table["series"] == "exact"]
    assert np.allclose(exact["rho"], 1.0)
    type_rows = table[table["series"] == "type only"]
    assert type_rows["rho"].abs().mean() < 0.2
    assert (type_rows["n"] == 60).all()


@pytest.mark.needs_data
def test_pilot_files():
    pairs, parses = weights.load_pilot()
    assert len(pairs) == 120 and pairs["human"].between(0, 1).all()
    present = parses.notna().sum()
    assert present[list(weights.CORE_ROLES)].eq(240).all()
    assert present.drop(list(weights.CORE_ROLES)).eq(0).all()  # S-V-O only: no Theme or minor role
