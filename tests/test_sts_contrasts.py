"""compsem.sts.contrasts: bootstrap draws of the Figure 8 contrasts the STS3k claims are decided
on (relative category means, the weighted within-category Spearman rho) and their intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem.sts import contrasts as C
from compsem.sts.structure import CATEGORY_CODES, FIGURE8_CATEGORIES

PER_CATEGORY = 6


def toy_labels(per_category: int = PER_CATEGORY, extra: bool = True) -> pd.DataFrame:
    """``per_category`` pairs of every Figure 8 category (Modifiers with 1 or 2 modifiers), and,
    with ``extra``, pairs outside Figure 8 (ONLY_MOD with 3 modifiers, an unknown code)."""
    rows = []
    for name in FIGURE8_CATEGORIES:
        code = CATEGORY_CODES[name][0]
        for i in range(per_category):
            rows.append({"category": code, "n_modifiers": 1 + i % 2 if name == "Modifiers" else i % 4})
    if extra:
        rows += [{"category": "ONLY_MOD", "n_modifiers": 3}, {"category": "OTHER", "n_modifiers": 0}]
    return pd.DataFrame(rows)


def category_of(labels: pd.DataFrame) -> np.ndarray:
    from compsem.sts.structure import figure8_category

    return figure8_category(labels).to_numpy()


def banded_series(labels: pd.DataFrame, seed: int = 0) -> np.ndarray:
    """Category i's values lie in [i + 1, i + 1.5): a resample's category mean stays there only
    if the category is resampled from its own pairs."""
    rng = np.random.default_rng(seed)
    category = category_of(labels)
    out = 100 + rng.random(len(labels))  # pairs outside Figure 8: far away
    for i, name in enumerate(FIGURE8_CATEGORIES):
        mask = category == name
        out[mask] = i + 1 + 0.5 * rng.random(mask.sum())
    return out


# --------------------------------------------------------------------------- relative_mean_draws


def test_relative_mean_point_is_category_mean_over_modifiers_mean():
    labels = toy_labels()
    v = banded_series(labels)
    category = category_of(labels)
    point, draws = C.relative_mean_draws({"a": v}, labels, n_resamples=50, seed=0)
    assert list(point.columns) == list(FIGURE8_CATEGORIES) and list(point.index) == ["a"]
    modifiers = v[category == "Modifiers"].mean()
    for name in FIGURE8_CATEGORIES:
        assert point.loc["a", name] == pytest.approx(v[category == name].mean() / modifiers)
    assert point.loc["a", "Modifiers"] == pytest.approx(1.0)
    # the pairs outside Figure 8 (values near 100) play no part
    assert point.loc["a"].max() < 8.5 / 1.0
    assert list(draws) == ["a"] and draws["a"].shape == (50, len(FIGURE8_CATEGORIES))
    assert list(draws["a"].columns) == list(FIGURE8_CATEGORIES)
    assert np.allclose(draws["a"]["Modifiers"], 1.0)


def test_relative_mean_draws_resample_each_category_from_its_own_pairs():
    labels = toy_labels()
    v = banded_series(labels)
    category = category_of(labels)
    v[category == "Modifiers"] = 1.0  # a constant Modifiers mean: a draw is the category's mean
    _, draws = C.relative_mean_draws({"a": v}, labels, n_resamples=400, seed=1)
    d = draws["a"]
    for i, name in enumerate(FIGURE8_CATEGORIES[1:], start=1):
        values = v[category == name]
        assert d[name].between(values.min() - 1e-12, values.max() + 1e-12).all(), name
        assert (i + 1 <= d[name]).all() and (d[name] < i + 1.5).all(), name
        # centred on the category mean (Monte-Carlo error: 5 standard errors of the mean of draws)
        se = values.std() / np.sqrt(len(values)) / np.sqrt(400)
        assert d[name].mean() == pytest.approx(values.mean(), abs=5 * se + 1e-12), name
        assert d[name].std() > 0, name


def test_relative_mean_draws_normalise_by_the_resampled_modifiers_mean():
    labels = toy_labels()
    v = banded_series(labels)
    category = category_of(labels)
    for name in FIGURE8_CATEGORIES[1:]:
        v[category == name] = 2.0  # only Modifiers varies: every spread comes from normalising
    point, draws = C.relative_mean_draws({"a": v}, labels, n_resamples=300, seed=2)
    d = draws["a"]
    modifiers = v[category == "Modifiers"]
    assert d["Zero"].std() > 0
    assert (d["Zero"] >= 2.0 / modifiers.max() - 1e-12).all()
    assert (d["Zero"] <= 2.0 / modifiers.min() + 1e-12).all()
    np.testing.assert_allclose(d["Zero"], d["Paraphrase"])  # every category: 2 / the same mean


def test_relative_mean_draws_are_paired_across_series_and_seeded():
    labels = toy_labels()
    v = banded_series(labels)
    series = {"people": v, "model": 3.0 * v, "other": banded_series(labels, seed=5)}
    point, draws = C.relative_mean_draws(series, labels, n_resamples=200, seed=3)
    assert list(point.index) == ["people", "model", "other"]
    # a profile does not change when a series is scaled; with the same resampled pairs for every
    # series, neither does any draw
    pd.testing.assert_series_equal(point.loc["people"], point.loc["model"], check_names=False)
    np.testing.assert_allclose(draws["people"].to_numpy(), draws["model"].to_numpy(), rtol=1e-12)
    assert not np.allclose(draws["people"].to_numpy(), draws["other"].to_numpy())
    _, again = C.relative_mean_draws(series, labels, n_resamples=200, seed=3)
    for name in series:
        pd.testing.assert_frame_equal(draws[name], again[name])
    _, other_seed = C.relative_mean_draws(series, labels, n_resamples=200, seed=4)
    assert not np.allclose(draws["people"].to_numpy(), other_seed["people"].to_numpy())


def test_relative_mean_draws_of_constant_categories_are_the_point():
    labels = toy_labels()
    category = category_of(labels)
    v = np.zeros(len(labels))
    for i, name in enumerate(FIGURE8_CATEGORIES):
        v[category == name] = 0.1 * (i + 1)
    point, draws = C.relative_mean_draws({"a": v}, labels, n_resamples=20, seed=0)
    expected = np.arange(1, 9, dtype=float)
    np.testing.assert_allclose(point.loc["a"].to_numpy(), expected)
    np.testing.assert_allclose(draws["a"].to_numpy(), np.tile(expected, (20, 1)))


def test_relative_mean_draws_errors():
    labels = toy_labels()
    with pytest.raises(ValueError, match=r"^model: 5 similarities for 50 labelled pairs$"):
        C.relative_mean_draws({"model": np.ones(5)}, labels, n_resamples=10)
    # a category with a single pair (Zero) cannot be resampled
    one_zero = labels[~((labels["category"] == "ZERO") & (labels.index > labels.index[
        labels["category"] == "ZERO"][0]))].reset_index(drop=True)
    assert (category_of(one_zero) == "Zero").sum() == 1
    with pytest.raises(ValueError, match=r"Figure 8 category 'Zero' has 1 pairs; an interval needs 2"):
        C.relative_mean_draws({"a": np.ones(len(one_zero))}, one_zero, n_resamples=10)
    no_paraphrase = labels[labels["category"] != "PARAPHRASE"].reset_index(drop=True)
    with pytest.raises(ValueError, match=r"'Paraphrase' has 0 pairs"):
        C.relative_mean_draws({"a": np.ones(len(no_paraphrase))}, no_paraphrase, n_resamples=10)
    # ONLY_MOD pairs with 3 modifiers are not Modifiers pairs
    three = labels.copy()
    three.loc[three["category"] == "ONLY_MOD", "n_modifiers"] = 3
    with pytest.raises(ValueError, match=r"'Modifiers' has 0 pairs"):
        C.relative_mean_draws({"a": np.ones(len(three))}, three, n_resamples=10)


# --------------------------------------------------------------------------- weighted_within_draws


def ranked_series(labels: pd.DataFrame, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """People and a model that agree partly within every category (distinct values, no ties)."""
    rng = np.random.default_rng(seed)
    human = rng.permutation(len(labels)) / len(labels) + 0.001
    model = human + 0.3 * rng.random(len(labels))
    return human, model


def test_weighted_within_point_is_the_pair_weighted_mean_of_category_rhos():
    labels = toy_labels(extra=False)
    # unequal categories: Modifiers gets 12 pairs, Zero 8, the others 6
    more = pd.DataFrame([{"category": "ONLY_MOD", "n_modifiers": 2}] * 6
                        + [{"category": "ZERO", "n_modifiers": 0}] * 2)
    labels = pd.concat([labels, more, pd.DataFrame([{"category": "OTHER", "n_modifiers": 0}])],
                       ignore_index=True)
    category = category_of(labels)
    human, model = ranked_series(labels, seed=0)
    point, draws = C.weighted_within_draws({"m": model, "h": human}, human, labels, n_resamples=100,
                                           seed=0)
    sizes = np.array([(category == c).sum() for c in FIGURE8_CATEGORIES], dtype=float)
    assert sizes.tolist() == [12, 6, 6, 6, 6, 6, 8, 6]  # Zero before Negative (§5.4)
    rhos = [stats.spearmanr(model[category == c], human[category == c]).statistic
            for c in FIGURE8_CATEGORIES]
    assert point["m"] == pytest.approx(float(np.dot(sizes / sizes.sum(), rhos)))
    assert point["m"] != pytest.approx(float(np.mean(rhos)))  # weighted, not a plain mean
    assert point["h"] == pytest.approx(1.0)
    assert list(draws.columns) == ["m", "h"] and draws.shape == (100, 2)
    assert ((draws["m"] >= -1 - 1e-12) & (draws["m"] <= 1 + 1e-12)).all()


def test_weighted_within_draws_are_paired_and_seeded():
    labels = toy_labels(per_category=10)
    human, model = ranked_series(labels, seed=1)
    series = {"model": model, "monotone": np.exp(3 * model) + 2, "other": ranked_series(labels, 7)[1]}
    point, draws = C.weighted_within_draws(series, human, labels, n_resamples=200, seed=5)
    # a monotone transform keeps every rank: the same resampled pairs give the same rho
    assert point["model"] == pytest.approx(point["monotone"])
    np.testing.assert_allclose(draws["model"], draws["monotone"], rtol=1e-12)
    assert not np.allclose(draws["model"], draws["other"])
    assert draws["model"].std() > 0
    _, again = C.weighted_within_draws(series, human, labels, n_resamples=200, seed=5)
    pd.testing.assert_frame_equal(draws, again)
    _, other_seed = C.weighted_within_draws(series, human, labels, n_resamples=200, seed=6)
    assert not np.allclose(draws["model"], other_seed["model"])


def test_weighted_within_draws_of_the_identical_series_are_one():
    """Categories of 10 pairs: no resample of these draws is constant within a category (which
    would give a NaN rho there), so every draw of people against people is exactly 1."""
    labels = toy_labels(per_category=10)
    human, _ = ranked_series(labels, seed=2)
    point, draws = C.weighted_within_draws({"h": human}, human, labels, n_resamples=100, seed=0)
    assert point["h"] == pytest.approx(1.0)
    np.testing.assert_allclose(draws["h"], 1.0)


def test_weighted_within_draws_over_chosen_categories():
    labels = toy_labels()
    category = category_of(labels)
    human, model = ranked_series(labels, seed=3)
    cats = ("Swap-2", "Negative")
    point, draws = C.weighted_within_draws({"m": model}, human, labels, n_resamples=50, seed=0,
                                           categories=cats)
    rhos = [stats.spearmanr(model[category == c], human[category == c]).statistic for c in cats]
    assert point["m"] == pytest.approx(np.mean(rhos))  # equal sizes: equal weights
    # Zero may have fewer than 2 pairs when it is not among the categories
    no_zero = labels[labels["category"] != "ZERO"].reset_index(drop=True)
    h2, m2 = ranked_series(no_zero, seed=3)
    point2, _ = C.weighted_within_draws({"m": m2}, h2, no_zero, n_resamples=20, seed=0, categories=cats)
    assert np.isfinite(point2["m"])
    with pytest.raises(ValueError, match=r"'Zero' has 0 pairs"):
        C.weighted_within_draws({"m": m2}, h2, no_zero, n_resamples=20, seed=0)


# --------------------------------------------------------------------------- interval


def test_interval_is_the_percentile_interval_of_the_finite_draws():
    draws = np.arange(101, dtype=float)  # quantiles are the values themselves

    def check(out, value, low, high):
        assert set(out) == {"value", "ci_low", "ci_high"}
        assert isinstance(out["value"], float) and out["value"] == value
        assert out["ci_low"] == pytest.approx(low) and out["ci_high"] == pytest.approx(high)

    check(C.interval(0.25, draws, level=0.90), 0.25, 5, 95)
    check(C.interval(1, draws), 1.0, 2.5, 97.5)  # 95% by default
    with_nan = np.concatenate([draws, [np.nan, np.inf, -np.inf]])  # non-finite draws left out
    check(C.interval(0.25, with_nan, level=0.90), 0.25, 5, 95)
    check(C.interval(0.0, pd.Series(draws[::-1]), level=0.5), 0.0, 25, 75)  # order irrelevant
    # the point is passed through, not taken from the draws
    check(C.interval(-3.0, np.full(10, 2.0)), -3.0, 2, 2)


def test_interval_of_a_paired_contrast_from_draws():
    labels = toy_labels()
    v = banded_series(labels)
    series = {"people": v, "model": v + 0.5 * (category_of(labels) == "Zero")}
    point, draws = C.relative_mean_draws(series, labels, n_resamples=300, seed=0)
    difference = draws["model"]["Zero"] - draws["people"]["Zero"]
    out = C.interval(point.loc["model", "Zero"] - point.loc["people", "Zero"], difference)
    assert out["value"] > 0
    assert 0 < out["ci_low"] <= out["value"] <= out["ci_high"]
    # the model's Zero pairs are the people's plus 0.5 and its Modifiers pairs the same: every
    # draw of the difference is 0.5 over the resampled Modifiers mean
    category = category_of(labels)
    assert out["value"] == pytest.approx(0.5 / v[category == "Modifiers"].mean())
    modifiers = v[category == "Modifiers"]
    assert (difference >= 0.5 / modifiers.max() - 1e-12).all()
    assert (difference <= 0.5 / modifiers.min() + 1e-12).all()


# --------------------------------------------------------------------------- ties and undefined rho


def test_weighted_within_draws_read_near_ties_as_the_point_does():
    from compsem.stats import tie_values

    labels = toy_labels(per_category=10)
    human, model = ranked_series(labels, seed=2)
    near = model.copy()
    near[0:-1:2] = near[1::2] + 1e-13  # equal but for rounding: ties at 10 decimals
    point, draws = C.weighted_within_draws({"raw": near, "tied": tie_values(near)}, human, labels,
                                           n_resamples=200, seed=0)
    assert point["raw"] == point["tied"]
    np.testing.assert_allclose(draws["raw"], draws["tied"])


def test_weighted_within_draws_do_not_count_an_undefined_rho_as_zero():
    labels = toy_labels(per_category=3)  # 3 pairs: 1 resample in 9 is constant in a category
    human, _ = ranked_series(labels, seed=2)
    point, draws = C.weighted_within_draws({"h": human}, human, labels, n_resamples=200, seed=0)
    assert point["h"] == pytest.approx(1.0)
    finite = draws["h"][np.isfinite(draws["h"])]
    np.testing.assert_allclose(finite, 1.0)  # people against people: 1 wherever defined


# --------------------------------------------------------------------------- Figure 8's MAD, paired


def test_mad_values_at_the_point_are_structure_mad():
    from compsem.sts import structure

    labels = toy_labels()
    people = banded_series(labels)
    series = {"Human": people, "near": people + 0.05 * banded_series(labels, seed=1),
              "far": banded_series(labels, seed=7)[::-1].copy()}
    point, draws = C.relative_mean_draws(series, labels, n_resamples=100, seed=0)
    point_mads, draw_mads = C.mad_values(point, draws, ["near", "far"])
    _, _, mads = structure.figure8(series, labels)
    for name in ("near", "far"):
        assert point_mads[name] == pytest.approx(mads[name], abs=1e-12)
        assert draw_mads[name].shape == (100,) and (draw_mads[name] >= 0).all()
        # each draw is the mean over the eight categories of |model - people| in that draw
        by_hand = (draws[name] - draws["Human"]).abs().mean(axis=1).to_numpy()
        np.testing.assert_allclose(draw_mads[name], by_hand)


def test_mad_gaps_are_paired_contrasts_with_intervals():
    labels = toy_labels(per_category=12)
    category = category_of(labels)
    people = banded_series(labels)
    swaps = np.isin(category, ["Swap-2", "Swap-3", "Swap-4"])
    series = {"Human": people,
              "close": people + 0.1 * swaps,  # a little off people's profile on the swaps
              "flat": np.where(swaps, people[category == "Modifiers"].mean(), people),  # ignores swaps
              "copy": people.copy()}
    point, draws = C.relative_mean_draws(series, labels, n_resamples=400, seed=0)
    gaps = C.mad_gaps(point, draws, ["close", "copy"], ["flat"])
    assert set(gaps) == {"fig8_mad_gap_close_minus_flat", "fig8_mad_gap_copy_minus_flat"}
    out = gaps["fig8_mad_gap_close_minus_flat"]
    assert set(out) == {"value", "ci_low", "ci_high"}
    assert out["ci_low"] <= out["value"] <= out["ci_high"] < 0  # nearer people than the flat model
    point_mads, _ = C.mad_values(point, draws, ["close", "flat"])
    assert out["value"] == pytest.approx(point_mads["close"] - point_mads["flat"])
    # a copy of people has MAD 0 in every draw, so its gap is minus the rival's MAD draw by draw
    _, draw_mads = C.mad_values(point, draws, ["copy", "flat"])
    np.testing.assert_allclose(draw_mads["copy"], 0.0, atol=1e-12)
    copy_gap = gaps["fig8_mad_gap_copy_minus_flat"]
    assert copy_gap["ci_low"] == pytest.approx(np.quantile(-draw_mads["flat"], 0.025))
    assert copy_gap["ci_high"] == pytest.approx(np.quantile(-draw_mads["flat"], 0.975))
    # a series against itself: zero, with a zero-width interval (paired draws)
    self_gap = C.mad_gaps(point, draws, ["close"], ["close"])["fig8_mad_gap_close_minus_close"]
    assert self_gap == {"value": 0.0, "ci_low": 0.0, "ci_high": 0.0}
