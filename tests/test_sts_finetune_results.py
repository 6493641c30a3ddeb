"""The numbers of sts3k-finetune read off fits and files (compsem.sts.seed_grids: Figure 6 over the
splits; compsem.sts.finetune_results: Figure 7, learning curves, the split by kind of
manipulation), on constructed frames and arrays against a direct computation (scipy), and against
the chapter's former inline code where the glued values must stay bit-identical."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem import stats as cstats
from compsem.data import shared_sentences, sts3k
from compsem.sts import finetune_results as fr
from compsem.sts import regressors as rg
from compsem.sts import seed_grids as sg
from compsem.sts.families import UNION_FAMILIES

REGRESSORS = ["reg", "nn1", "nn2"]


def _grid(n_splits: int = 4, features=("verbnet", "mpnet", "minilm"), seed: int = 0) -> pd.DataFrame:
    """A Figure 6 grid: the adversarial split, then ``n_splits`` random ones, one row per cell."""
    rng = np.random.default_rng(seed)
    names = ["adversarial"] + [f"random (seed {s})" for s in range(n_splits)]
    rows = [{"features": f, "regressor": r, "n_weights": 10 * (i + 1), "split": name,
             "rho_test": float(rng.uniform(-0.2, 0.9)), "rho_train": float(rng.uniform(0, 1))}
            for name in names for f in features for i, r in enumerate(REGRESSORS)]
    grid = pd.DataFrame(rows)
    grid["split kind"] = np.where(grid["split"] == "adversarial", "adversarial", "random")
    return grid


def test_figure6_grid_fits_each_split_in_order_and_names_its_kind(monkeypatch):
    calls = []

    def evaluate_grid(features, human, split, regressors, split_name=None, progress=True, n_jobs=1):
        calls.append((split_name, split["test"][0], list(regressors), n_jobs, progress))
        return pd.DataFrame({"features": list(features), "regressor": "reg", "rho_test": 0.5, "split": split_name})

    monkeypatch.setattr(rg, "evaluate_grid", evaluate_grid)
    splits = {"adversarial": {"train": [1], "test": [0]}, "random (seed 3)": {"train": [0], "test": [1]},
              "random (seed 1)": {"train": [0], "test": [2]}}
    grid = sg.figure6_grid({"a": None, "b": None}, None, splits, REGRESSORS, n_jobs=2)
    assert calls == [("adversarial", 0, REGRESSORS, 2, False), ("random (seed 3)", 1, REGRESSORS, 2, False),
                     ("random (seed 1)", 2, REGRESSORS, 2, False)]
    assert grid["split"].tolist() == ["adversarial"] * 2 + ["random (seed 3)"] * 2 + ["random (seed 1)"] * 2
    assert grid["split kind"].tolist() == ["adversarial"] * 2 + ["random"] * 4
    assert list(grid.index) == list(range(6))


def test_figure6_summary_is_mean_sd_and_count_over_the_splits_of_a_kind():
    grid = _grid()
    grid.loc[10, "rho_test"] = np.nan  # a collapsed fit on a random split: out of its cell's mean, count
    summary = sg.figure6_summary(grid)
    assert list(summary.columns) == ["split kind", "features", "regressor", "n_weights", "mean", "std", "count"]
    assert summary[["features", "regressor"]].head(3).values.tolist() == [["verbnet", r] for r in REGRESSORS]
    for row in summary.itertuples(index=False):
        cell = grid[(grid["split kind"] == row[0]) & (grid["features"] == row.features)
                    & (grid["regressor"] == row.regressor)]["rho_test"].dropna().to_numpy()
        assert row.count == len(cell) == (1 if row[0] == "adversarial" else 4 - (row[1:3] == ("verbnet", "nn1")))
        assert row.mean == pytest.approx(np.mean(cell), rel=1e-12)
        if len(cell) > 1:
            assert row.std == pytest.approx(np.std(cell, ddof=1), rel=1e-12)
        else:
            assert np.isnan(row.std)


def test_figure6_paper_cells_are_the_means_of_the_cells_with_a_target():
    summary = sg.figure6_summary(_grid())
    targets = {"ft_adv_verbnet_nn1": {}, "ft_random_mpnet_nn2": {}, "ft_random_toy_reg": {}}
    values = sg.figure6_paper_cells(summary, targets)
    assert list(values) == ["ft_adv_verbnet_nn1", "ft_random_mpnet_nn2"]
    cells = summary.set_index(["split kind", "features", "regressor"])["mean"]
    assert values["ft_adv_verbnet_nn1"] == cells[("adversarial", "verbnet", "nn1")]
    assert values["ft_random_mpnet_nn2"] == cells[("random", "mpnet", "nn2")]


def _t_interval(values, level=0.95):
    """Nadeau & Bengio's corrected resampled t over random splits: sd² (1/n + n_test/n_train)."""
    scale = np.std(values, ddof=1) * np.sqrt(1 / len(values) + 420 / 1960)
    return stats.t.interval(level, len(values) - 1, loc=np.mean(values), scale=scale)


def test_random_gap_values_are_t_intervals_of_the_per_split_gaps():
    """Corrected for the splits' overlapping training sets (the random split's 420 test and 1,960
    training pairs); the narrowing runs from the smallest regressor to ``largest``."""
    grid = _grid(n_splits=5)
    values = sg.random_gap_values(grid, REGRESSORS, largest="nn2")
    random = grid[grid["split kind"] == "random"].set_index(["features", "regressor", "split"])["rho_test"]
    gaps = {r: (random["verbnet"][r] - random["mpnet"][r]).to_numpy() for r in REGRESSORS}
    k = UNION_FAMILIES["few_parameters_gap"]
    for r in REGRESSORS:
        assert values[f"ft_random_gap_mpnet_{r}_mean"] == pytest.approx(gaps[r].mean(), rel=1e-12)
        assert (values[f"ft_random_gap_mpnet_{r}_ci_low"], values[f"ft_random_gap_mpnet_{r}_ci_high"]) == (
            pytest.approx(_t_interval(gaps[r]), rel=1e-10))
    narrowing = gaps["reg"] - gaps["nn2"]  # the smallest regressor's gap minus the largest's
    assert values["ft_random_gap_narrowing_mpnet_mean"] == pytest.approx(narrowing.mean(), rel=1e-12)
    for key, gap in (("ft_random_gap_mpnet_reg", gaps["reg"]), ("ft_random_gap_narrowing_mpnet", narrowing)):
        assert (values[f"{key}_bonf{k}_ci_low"], values[f"{key}_bonf{k}_ci_high"]) == pytest.approx(
            _t_interval(gap, 1 - 0.05 / k), rel=1e-10)
    assert not any("nn1_bonf" in key or "nn2_bonf" in key for key in values)  # not in the union
    assert sg.RANDOM_SPLIT_OVERLAP == pytest.approx(420 / 1960)
    # the paper's largest regressor (nn3) did not run: no narrowing
    assert not any("narrowing" in key for key in sg.random_gap_values(grid, REGRESSORS))


def test_random_gap_values_need_both_feature_sets_and_two_random_splits():
    assert sg.random_gap_values(_grid(n_splits=1), REGRESSORS) == {}
    assert sg.random_gap_values(_grid(features=("verbnet", "minilm")), REGRESSORS) == {}
    assert sg.random_gap_values(_grid(n_splits=2), REGRESSORS) != {}


# --------------------------------------------------------------------------- Figure 7

def _figure7(monkeypatch, n: int = 80):
    rng = np.random.default_rng(1)
    human = rng.normal(size=n)
    pairs = pd.DataFrame({"sentence_a": [f"s{i // 4}" for i in range(n)], "sentence_b": [f"t{i}" for i in range(n)],
                          "portion": np.where(np.arange(n) % 2 == 0, "adv", "non")})  # clusters of four pairs
    files = {"ft_random": human + rng.normal(scale=0.5, size=n), "ft_adv": human + rng.normal(scale=2.0, size=n),
             fr.VERBNET_UNTRAINED: human + rng.normal(scale=1.0, size=n)}
    monkeypatch.setattr(sts3k, "load_published_similarities", lambda model: files[model])
    published_ft = pd.DataFrame({"condition": ["no training", "random split (10-fold)", "adversarial split",
                                               "STSb-trained"], "rho_adv": [0.1, 0.2, 0.3, 0.4],
                                 "file": ["ft_none", "ft_random", "ft_adv", "ft_stsb"]})
    published = pd.DataFrame({"features": ["verbnet"] * 3, "regressor": ["nn5", "nn3", "nn5"],
                              "split": ["random", "adversarial", "random"], "n_components": [2800, 8, 8],
                              "rho_adv": [0.7, 0.5, 0.0], "rho_heldout_adv": [0.45, 0.4, 0.0]})
    return human, pairs, files, published_ft, published


def test_figure7_bars_read_the_files_on_the_adversarial_pairs(monkeypatch):
    human, pairs, files, published_ft, published = _figure7(monkeypatch)
    values = fr.figure7_bars(published_ft, published, pairs, human)
    assert list(values) == ["fig7_sentbert_no_training", "fig7_sentbert_random_10fold", "fig7_sentbert_adversarial",
                            "fig7_sentbert_stsb_trained", "fig7_verbnet_no_training", "fig7_verbnet_random",
                            "fig7_verbnet_adversarial"]
    assert [values[k] for k in list(values)[:4]] == [0.1, 0.2, 0.3, 0.4]
    adv = pairs["portion"].to_numpy() == "adv"
    expected = stats.spearmanr(files[fr.VERBNET_UNTRAINED][adv], human[adv])[0]
    assert values["fig7_verbnet_no_training"] == pytest.approx(expected, rel=1e-12)
    assert (values["fig7_verbnet_random"], values["fig7_verbnet_adversarial"]) == (0.7, 0.5)  # nn5 no-PCA; nn3 PCA-8
    assert fr.figure7_verbnet_heldout(published) == 0.45


def test_figure7_transfer_gap_is_the_paired_spearman_difference_on_the_adversarial_pairs(monkeypatch):
    human, pairs, files, published_ft, _ = _figure7(monkeypatch)
    values = fr.figure7_transfer_gap(published_ft, pairs, human)
    assert list(values) == [f"fig7_sentbert_transfer_gap_{p}" for p in ("difference", "ci_low", "ci_high")]
    adv = pairs["portion"].to_numpy() == "adv"
    expected = stats.spearmanr(files["ft_random"][adv], human[adv])[0] - stats.spearmanr(files["ft_adv"][adv],
                                                                                        human[adv])[0]
    assert values["fig7_sentbert_transfer_gap_difference"] == pytest.approx(expected, rel=1e-12)
    assert values["fig7_sentbert_transfer_gap_ci_low"] < expected < values["fig7_sentbert_transfer_gap_ci_high"]
    clusters = shared_sentences.sentence_clusters(pairs)  # the bootstrap's units
    direct = cstats.paired_spearman_difference(files["ft_random"], files["ft_adv"], human, mask=adv, seed=0,
                                               clusters=clusters)
    assert values["fig7_sentbert_transfer_gap_ci_low"] == direct["ci_low"]
    assert values["fig7_sentbert_transfer_gap_ci_high"] == direct["ci_high"]
    # the chapter's resamples and seed reach the bootstrap (its defaults give the values above)
    other = fr.figure7_transfer_gap(published_ft, pairs, human, n_resamples=300, seed=7)
    direct = cstats.paired_spearman_difference(files["ft_random"], files["ft_adv"], human, mask=adv,
                                               n_resamples=300, seed=7, clusters=clusters)
    assert (other["fig7_sentbert_transfer_gap_ci_low"], other["fig7_sentbert_transfer_gap_ci_high"]) == (
        direct["ci_low"], direct["ci_high"])
    assert other["fig7_sentbert_transfer_gap_ci_low"] != values["fig7_sentbert_transfer_gap_ci_low"]


# --------------------------------------------------------------------------- extensions

@pytest.mark.usefixtures("no_fit_cache")
def test_learning_curves_stack_one_curve_per_feature_set():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(90, 3))
    human = x @ np.array([0.5, -0.2, 0.1]) + rng.normal(scale=0.5, size=90)
    split = {"train": np.arange(0, 90, 2), "test": np.arange(1, 90, 2)}
    features = {"b": x, "a": x[:, ::-1] ** 2}
    curves = fr.learning_curves(features, human, split, [10, 40], [0, 1])
    assert list(curves.columns) == ["n_train", "seed", "rho_test", "features"]
    assert curves["features"].tolist() == ["b"] * 4 + ["a"] * 4  # the order of ``features``
    for name, x_ in features.items():
        direct = rg.learning_curve(x_, human, split, [10, 40], regressor="reg", seeds=[0, 1])
        ours = curves[curves["features"] == name].drop(columns="features").reset_index(drop=True)
        pd.testing.assert_frame_equal(ours, direct)
    # one curve point by hand: linear regression on the seed-0 subsample of 10 training pairs
    sub = np.sort(np.random.default_rng(0).choice(split["train"], size=10, replace=False))
    design = np.column_stack([np.ones(10), x[sub]])
    coef = np.linalg.lstsq(design, human[sub], rcond=None)[0]
    pred = np.column_stack([np.ones(45), x[split["test"]]]) @ coef
    assert curves.iloc[0]["rho_test"] == pytest.approx(stats.spearmanr(pred, human[split["test"]])[0], abs=1e-9)


def test_manipulation_values_score_each_cell_and_the_untrained_weights_per_part():
    rng = np.random.default_rng(2)
    n = 60
    human = rng.normal(size=n)
    untrained = human + rng.normal(size=n)
    roles = rng.uniform(size=(n, 8))
    split = {"train": np.arange(0, 20), "test": np.arange(20, 60)}
    grid = pd.DataFrame({"features": ["verbnet", "mean:glove50", "verbnet"], "regressor": ["reg", "reg", "nn2"],
                         "rho_test": [0.1, 0.3, -0.2], "rho_train": [0.5, 0.6, 0.7]})
    values = fr.manipulation_values(grid, split, human, untrained, roles)
    assert list(values) == [
        "across_verbnet_reg", "across_verbnet_reg_train", "across_mean_glove50_reg", "across_mean_glove50_reg_train",
        "across_verbnet_nn2", "across_verbnet_nn2_train", "across_verbnet_untrained_train",
        "across_verb_rolesim_sd_train", "across_verbnet_untrained_test", "across_verb_rolesim_sd_test",
        "across_best_trained"]
    assert (values["across_verbnet_nn2"], values["across_verbnet_nn2_train"]) == (-0.2, 0.7)
    assert values["across_best_trained"] == 0.3
    for part, rows in split.items():
        assert values[f"across_verbnet_untrained_{part}"] == pytest.approx(
            stats.spearmanr(untrained[rows], human[rows])[0], rel=1e-12)
        assert values[f"across_verb_rolesim_sd_{part}"] == pytest.approx(np.std(roles[rows, 1], ddof=0), rel=1e-12)
    assert sts3k.ROLES[1] == "Verb"
    without = fr.manipulation_values(grid, split, human, untrained)
    assert set(values) - set(without) == {"across_verb_rolesim_sd_train", "across_verb_rolesim_sd_test"}


def test_figure7_table_puts_the_bars_scored_here_beside_the_papers():
    ours = {"fig7_sentbert_no_training": 0.14, "fig7_sentbert_random_10fold": 0.87, "fig7_sentbert_adversarial": 0.4,
            "fig7_sentbert_stsb_trained": 0.17, "fig7_verbnet_no_training": 0.66, "fig7_verbnet_random": 0.79,
            "fig7_verbnet_adversarial": 0.59, "other": 1.0}
    targets = {key: {"paper": value + 0.001} for key, value in ours.items()}
    table = fr.figure7_table(ours, targets)
    conditions = ["no training", "random split", "adversarial split"]
    assert list(table.columns) == [(group, model) for group in (fr.FIGURE7_OURS, fr.FIGURE7_PAPER)
                                   for model in ("SentBERT", "VerbNet-CN")]
    for group, source in ((fr.FIGURE7_OURS, ours), (fr.FIGURE7_PAPER, {k: v["paper"] for k, v in targets.items()})):
        direct = pd.DataFrame({"SentBERT": [source["fig7_sentbert_no_training"], source["fig7_sentbert_random_10fold"],
                                            source["fig7_sentbert_adversarial"]],
                               "VerbNet-CN": [source["fig7_verbnet_no_training"], source["fig7_verbnet_random"],
                                              source["fig7_verbnet_adversarial"]]}, index=conditions)
        pd.testing.assert_frame_equal(table[group], direct, check_exact=True)  # the data of finetune_bars
