"""Regressors over seeds (compsem.sts.seed_grids): t-intervals and their summary, on
constructed fits (no data, no regressor trained)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from compsem.sts import seed_grids as sg


def test_t_interval_is_students():
    values = np.array([0.10, 0.14, 0.09, 0.12, 0.11])
    low, high = sg.t_interval(values.mean(), values.std(ddof=1), len(values))
    expected = stats.t.interval(0.95, 4, loc=values.mean(), scale=stats.sem(values))
    assert (low, high) == pytest.approx(expected, rel=1e-12)
    low90, high90 = sg.t_interval(values.mean(), values.std(ddof=1), len(values), level=0.90)
    assert low < low90 < values.mean() < high90 < high


def _runs():
    rows = []
    for seed, (nn, reg) in enumerate([(0.10, 0.3), (0.14, 0.3), (float("nan"), 0.3),
                                      (0.12, 0.3)], start=1):
        rows += [{"features": "MPNet", "regressor": "nn3", "seed": seed, "rho_test": nn},
                 {"features": "MPNet", "regressor": "reg", "seed": seed, "rho_test": reg}]
    rows += [{"features": "Only NaN", "regressor": "nn1", "seed": 1, "rho_test": float("nan")}]
    return pd.DataFrame(rows)


def test_over_seeds_summarises_each_cell_and_counts_collapsed_fits():
    table, values = sg.over_seeds(_runs(), "p")
    assert values["p_collapsed"] == 2  # one MPNet nn3 seed and the lone NaN cell
    assert values["p_mpnet_nn3_mean"] == pytest.approx(0.12)  # the collapsed seed left out
    low, high = sg.t_interval(0.12, np.std([0.10, 0.14, 0.12], ddof=1), 3)
    assert (values["p_mpnet_nn3_ci_low"], values["p_mpnet_nn3_ci_high"]) == pytest.approx((low, high))
    assert values["p_mpnet_nn3_ci90_low"] > low and values["p_mpnet_nn3_ci90_high"] < high
    # linear regression has no seed: an interval without width
    assert values["p_mpnet_reg_ci_low"] == values["p_mpnet_reg_ci_high"] == pytest.approx(0.3)
    assert not any(k.startswith("p_only_nan") for k in values)  # no fit to summarise
    assert int(table.loc[("MPNet", "nn3"), "count"]) == 3
    # the collapsed fit is counted where the cell is shown, and per cell
    assert int(table.loc[("MPNet", "nn3"), "collapsed"]) == 1 and int(table.loc[("MPNet", "reg"), "collapsed"]) == 0
    assert values["p_mpnet_nn3_collapsed"] == 1 and values["p_mpnet_reg_collapsed"] == 0
    assert all(math.isfinite(v) for v in values.values())


def test_over_seeds_give_a_family_of_equivalence_tests_its_bonferroni_intervals():
    """A feature set whose cells enter a union of k equivalence tests also gets each cell's
    t-interval at 1 - .10/k, beside (and containing) its 90% interval; the others are unchanged."""
    _, single = sg.over_seeds(_runs(), "p")
    _, values = sg.over_seeds(_runs(), "p", equivalence_families={"MPNet": ("reg", "nn1", "nn3")})
    assert set(values) - set(single) == {f"p_mpnet_{r}_bonf3_ci_{b}" for r in ("nn3", "reg") for b in ("low", "high")}
    assert all(values[key] == value for key, value in single.items())
    low, high = sg.t_interval(0.12, np.std([0.10, 0.14, 0.12], ddof=1), 3, level=1 - 0.10 / 3)
    assert (values["p_mpnet_nn3_bonf3_ci_low"], values["p_mpnet_nn3_bonf3_ci_high"]) == pytest.approx((low, high))
    assert low < values["p_mpnet_nn3_ci90_low"] < values["p_mpnet_nn3_ci90_high"] < high
    assert values["p_mpnet_reg_bonf3_ci_low"] == values["p_mpnet_reg_bonf3_ci_high"] == pytest.approx(0.3)
    # a cell outside the union (reg, when the union is nn1 to nn3) gets no _bonf key
    _, values = sg.over_seeds(_runs(), "p", equivalence_families={"MPNet": ("nn1", "nn2", "nn3")})
    assert set(values) - set(single) == {"p_mpnet_nn3_bonf3_ci_low", "p_mpnet_nn3_bonf3_ci_high"}


@pytest.mark.usefixtures("no_fit_cache")
def test_the_no_pca_claim_reads_the_keys_over_pairs_and_seeds():
    """no-transfer-without-pca reads MPNet's cells by pattern: pairs_and_seeds_intervals with the
    chapter's family (one equivalence test per regressor run) glues every key its rules read, and
    the intervals over seeds alone (over_seeds) do not decide it."""
    from compsem import claims

    features, human, split = _data()
    regressors = ("reg", "nn1", "nn3")
    _, values = sg.pairs_and_seeds_intervals({"mpnet": features["Toy"]}, human, split, regressors, (1, 2),
                                             "ft_nopca_advboot", n_resamples=100, seed=0,
                                             equivalence_families={"mpnet": regressors})
    claim = next(c for c in claims.load("sts3k") if c.id == "no-transfer-without-pca")
    assert claims.missing_keys(claim, values) == ["ft_advseeds_n_seeds"]  # its needs: the chapter glues it
    assert claims.rule_keys(claim.fails_if, values) == sorted(
        f"ft_nopca_advboot_mpnet_{r}_bonf3_ci_low" for r in regressors) + sorted(
        f"ft_nopca_advboot_mpnet_{r}_bonf3_ci_high" for r in regressors)
    runs = sg.adversarial_over_seeds({"mpnet": features["Toy"]}, human, split, regressors, (1, 2))
    _, seed_values = sg.over_seeds(runs, "ft_nopca_advseeds", equivalence_families={"mpnet": regressors})
    assert claims.missing_keys(claim, seed_values) != []


def _data(n: int = 120, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3))
    human = x @ np.array([0.5, -0.2, 0.1]) + rng.normal(scale=0.5, size=n)
    split = {"train": np.arange(0, n, 2), "test": np.arange(1, n, 2)}
    return {"Toy": x}, human, split


@pytest.mark.usefixtures("no_fit_cache")
def test_pairs_and_seeds_intervals_give_linear_regression_an_interval_over_pairs():
    from compsem import stats as cstats
    from compsem.sts import regressors as rg

    features, human, split = _data()
    table, values = sg.pairs_and_seeds_intervals(features, human, split, ["reg", "nn1"], (1, 2), "b",
                                                 n_resamples=400, seed=0)
    runs = sg.adversarial_over_seeds(features, human, split, ["reg", "nn1"], (1, 2))
    _, seed_values = sg.over_seeds(runs, "b")
    # the point is the mean over seeds of over_seeds; the interval has a width for reg too
    assert table.loc[("Toy", "reg"), "mean"] == pytest.approx(seed_values["b_toy_reg_mean"], abs=1e-12)
    assert table.loc[("Toy", "nn1"), "mean"] == pytest.approx(seed_values["b_toy_nn1_mean"], abs=1e-12)
    assert int(table.loc[("Toy", "reg"), "n_seeds"]) == 1 and int(table.loc[("Toy", "nn1"), "n_seeds"]) == 2
    assert values["b_toy_reg_ci_low"] < values["b_toy_reg_ci90_low"] < seed_values["b_toy_reg_mean"]
    assert seed_values["b_toy_reg_mean"] < values["b_toy_reg_ci90_high"] < values["b_toy_reg_ci_high"]
    # linear regression: exactly the percentile bootstrap over the test pairs of its one fit
    pred = rg.fit_predict(features["Toy"], human, split, "reg", cache=False)[split["test"]]
    idx = np.random.default_rng(0).integers(0, len(split["test"]), size=(400, len(split["test"])))
    boot = cstats.spearman_of_resamples(cstats.tie_values(pred), cstats.tie_values(human[split["test"]]), idx)
    assert values["b_toy_reg_ci_low"] == pytest.approx(np.percentile(boot, 2.5), abs=1e-12)
    assert values["b_toy_reg_ci90_high"] == pytest.approx(np.percentile(boot, 95), abs=1e-12)
    # same seed, same numbers
    assert sg.pairs_and_seeds_intervals(features, human, split, ["reg", "nn1"], (1, 2), "b", n_resamples=400,
                                        seed=0)[1] == values
    # cells in a union of k = 5 equivalence tests: the same resamples at 1 - .10/5 (98%) beside
    _, family = sg.pairs_and_seeds_intervals(features, human, split, ["reg", "nn1"], (1, 2), "b", n_resamples=400,
                                             seed=0, equivalence_families={"Toy": ("reg", "nn1", "nn2", "nn3", "nn4")})
    assert set(family) - set(values) == {f"b_toy_{r}_bonf5_ci_{b}" for r in ("reg", "nn1") for b in ("low", "high")}
    assert all(family[key] == value for key, value in values.items())
    assert family["b_toy_reg_bonf5_ci_low"] == pytest.approx(np.percentile(boot, 1), abs=1e-12)
    assert family["b_toy_reg_bonf5_ci_high"] == pytest.approx(np.percentile(boot, 99), abs=1e-12)
    for r in ("reg", "nn1"):
        assert family[f"b_toy_{r}_bonf5_ci_low"] <= values[f"b_toy_{r}_ci90_low"]
        assert values[f"b_toy_{r}_ci90_high"] <= family[f"b_toy_{r}_bonf5_ci_high"]


@pytest.mark.usefixtures("no_fit_cache")
def test_the_adversarial_split_claims_read_the_keys_of_their_families():
    """no-transfer-to-adversarial (MPNet, every regressor run) and verbnet-adversarial-split-stable
    (VerbNet-CN, reg to nn3) read the keys pairs_and_seeds_intervals glues with the chapter's
    families, and nothing of the other feature set's family."""
    from compsem import claims
    from compsem.sts.families import UNION_FAMILIES, VERBNET_SPLIT_REGRESSORS

    features, human, split = _data()
    x = features["Toy"]
    regressors = ["reg", "nn1", "nn2", "nn3", "nn4"]
    _, values = sg.pairs_and_seeds_intervals(
        {"verbnet": x, "mpnet": x[:, ::-1]}, human, split, regressors, (1, 2), "ft_advboot", n_resamples=100,
        seed=0, equivalence_families={"mpnet": regressors, "verbnet": VERBNET_SPLIT_REGRESSORS})
    for claim_id in ("no-transfer-to-adversarial", "verbnet-adversarial-split-stable"):
        claim = next(c for c in claims.load("sts3k") if c.id == claim_id)
        assert claims.missing_keys(claim, values) == ["ft_advseeds_n_seeds"], claim_id  # needs, glued apart
    mpnet = next(c for c in claims.load("sts3k") if c.id == "no-transfer-to-adversarial")
    assert all(key.startswith("ft_advboot_mpnet_") and "_bonf5_" in key for key in claims.rule_keys(mpnet.fails_if, values))
    # nn4 is outside VerbNet-CN's union of the paper's four regressors: no _bonf key implies one
    assert len(VERBNET_SPLIT_REGRESSORS) == UNION_FAMILIES["verbnet_adversarial_split"]
    assert sorted(k for k in values if k.startswith("ft_advboot_verbnet_") and "_bonf" in k) == sorted(
        f"ft_advboot_verbnet_{r}_bonf4_ci_{b}" for r in VERBNET_SPLIT_REGRESSORS for b in ("low", "high"))
    assert "ft_advboot_verbnet_nn4_ci90_low" in values


# --------------------------------------------------------------------------- the paper beside ours

REGRESSORS = ["reg", "nn1", "nn2", "nn3", "nn4"]
FEATURES = ["verbnet", "mean:glove50", "minilm", "mpnet"]


def _summary():
    """A Figure 6 summary with our means at 0.1 (random) and 0.0 (adversarial)."""
    return pd.DataFrame([{"split kind": kind, "features": f, "regressor": r, "mean": 0.1 if kind == "random" else 0.0}
                         for kind in ("adversarial", "random") for f in FEATURES for r in REGRESSORS])


def _sts3k_targets():
    from compsem.targets import load_targets

    return load_targets("sts3k")


def test_figure6_table_puts_the_plotted_values_beneath_verbnet_and_mpnet():
    targets = _sts3k_targets()
    table = sg.figure6_table(_summary(), REGRESSORS, targets)
    for kind, split in (("adversarial", "adv"), ("random", "random")):
        rows = list(table.loc[kind].index)
        assert rows == ["verbnet", "paper (VerbNet-CN)", "mean:glove50", "minilm", "mpnet", "paper (SentBERT)"]
        for features, label in (("verbnet", "paper (VerbNet-CN)"), ("mpnet", "paper (SentBERT)")):
            for r in ("reg", "nn1", "nn2", "nn3"):  # every cell of the paper, from its own target
                assert table.loc[(kind, label), r] == targets[f"ft_{split}_{features}_{r}"]["paper"]
            assert np.isnan(table.loc[(kind, label), "nn4"])  # no nn4 in the paper
        assert (table.loc[kind].drop(index=["paper (VerbNet-CN)", "paper (SentBERT)"]).to_numpy()
                == (0.1 if kind == "random" else 0.0)).all()  # ours untouched
    # the values Figure 6 plots for SentBERT on the random split (all pairs scored)
    assert list(table.loc[("random", "paper (SentBERT)"), ["reg", "nn1", "nn2", "nn3"]]) == [0.162, 0.218, 0.532, 0.795]


def test_paper_rows_and_columns_read_the_target_of_their_own_split_and_table():
    targets = {"ft_adv_verbnet_nn1": {"paper": 1.0}, "ft_random_verbnet_nn1": {"paper": 2.0},
               "ft_nopca_adv_verbnet_nn1": {"paper": 3.0}, "ft_adv_toy_nn1": {"paper": 4.0}}
    grid = sg.figure6_table(_summary(), ["reg", "nn1"], targets)
    assert grid.loc[("adversarial", "paper (VerbNet-CN)"), "nn1"] == 1.0
    assert grid.loc[("random", "paper (VerbNet-CN)"), "nn1"] == 2.0
    assert np.isnan(grid.loc[("random", "paper (VerbNet-CN)"), "reg"])
    assert "paper (SentBERT)" not in grid.index.get_level_values("features")  # no target, no row
    no_pca = pd.DataFrame([{"features": f, "regressor": r, "rho_test": 0.0} for f in ("verbnet", "Toy")
                           for r in ("reg", "nn1")])
    table = sg.no_pca_table(no_pca, ["reg", "nn1"], targets)
    assert list(table.index) == ["verbnet", "paper (VerbNet-CN)", "Toy"]
    assert table.loc["paper (VerbNet-CN)", "nn1"] == 3.0
    seeds = pd.DataFrame({"mean": 0.5, "std": 0.1, "count": 5, "collapsed": 0},
                         index=pd.MultiIndex.from_product([["verbnet", "Toy"], ["reg", "nn1"]],
                                                          names=["features", "regressor"]))
    with_paper = sg.with_paper_column(seeds, targets, sg.FIGURE6_KEY)
    assert list(with_paper.columns) == ["mean", "paper", "std", "count", "collapsed"]  # beside our mean
    assert with_paper.loc[("verbnet", "nn1"), "paper"] == 1.0 and with_paper.loc[("Toy", "nn1"), "paper"] == 4.0
    assert with_paper["paper"].isna().sum() == 2  # reg has no target here
    assert sg.with_paper_column(seeds, targets, sg.NO_PCA_KEY).loc[("verbnet", "nn1"), "paper"] == 3.0


def test_paper_columns_of_the_seed_tables_hold_the_sts3k_targets():
    targets = _sts3k_targets()
    runs = pd.DataFrame([{"features": f, "regressor": r, "seed": s, "rho_test": 0.01 * s}
                         for f in FEATURES for r in REGRESSORS for s in (1, 2)])
    table, _ = sg.over_seeds(runs, "p")
    pca8 = sg.with_paper_column(table, targets, sg.FIGURE6_KEY)
    assert pca8.loc[("verbnet", "nn2"), "paper"] == targets["ft_adv_verbnet_nn2"]["paper"]
    assert pca8.loc[("mpnet", "nn3"), "paper"] == targets["ft_adv_mpnet_nn3"]["paper"]
    assert pca8.loc[["minilm", "mean:glove50"], "paper"].isna().all()
    no_pca = sg.with_paper_column(table, targets, sg.NO_PCA_KEY)
    assert [no_pca.loc[("mpnet", r), "paper"] for r in ("reg", "nn1", "nn3")] == [
        targets[f"ft_nopca_adv_mpnet_{r}"]["paper"] for r in ("reg", "nn1", "nn3")]


def test_the_finetune_chapter_shows_its_tables_beside_the_paper():
    """The chapter builds each table of Figure 6, Figure 11 and its fine-tuning through the
    helpers that add the paper's values (a table rebuilt in the notebook would lose them)."""
    from compsem import paths

    source = (paths.PROJECT_DIR / "notebooks" / "sts3k-finetune.py").read_text()
    assert "sg.figure6_table(summary, regressors, targets)" in source
    assert "sg.no_pca_table(no_pca_grid, no_pca_regressors, targets)" in source
    assert source.count("sg.with_paper_column(") == 4
    assert "sg.with_paper_column(no_pca_table, targets, sg.NO_PCA_KEY)" in source
    assert "C.finetune_seed_table(finetuned, targets)" in source
    assert "figures.regressor_curves(grid, targets)" in source


def test_figure6_cell_values_glue_one_fit_per_adversarial_cell_and_intervals_over_random_splits():
    summary = pd.DataFrame([
        {"split kind": "adversarial", "features": "MiniLM", "regressor": "nn1", "mean": 0.2, "std": np.nan, "count": 1},
        {"split kind": "adversarial", "features": "verbnet", "regressor": "nn1", "mean": 0.5, "std": np.nan, "count": 1},
        {"split kind": "random", "features": "verbnet", "regressor": "nn1", "mean": 0.6, "std": 0.02, "count": 5},
        {"split kind": "random", "features": "verbnet", "regressor": "nn2", "mean": 0.7, "std": 0.03, "count": 5},
        {"split kind": "random", "features": "MiniLM", "regressor": "nn1", "mean": 0.4, "std": 0.05, "count": 1},
    ])
    values = sg.figure6_cell_values(summary, {"ft_adv_verbnet_nn1": {}}, {"verbnet": ["nn1", "nn2"]})
    assert values["ft_adv_minilm_nn1"] == 0.2 and "ft_adv_verbnet_nn1" not in values  # a target: glued apart
    overlap = sg.RANDOM_SPLIT_OVERLAP  # random splits share training pairs: Nadeau & Bengio's correction
    assert (values["ft_random_verbnet_nn2_ci_low"], values["ft_random_verbnet_nn2_ci_high"]) == sg.t_interval(
        0.7, 0.03, 5, overlap=overlap)
    assert values["ft_random_verbnet_nn2_ci90_low"] == sg.t_interval(0.7, 0.03, 5, 0.90, overlap)[0]
    assert values["ft_random_verbnet_nn1_bonf2_ci_low"] == sg.t_interval(0.6, 0.02, 5, 1 - 0.10 / 2, overlap)[0]
    plain = sg.t_interval(0.7, 0.03, 5)  # what independent seeds would give: narrower by sqrt(1 + 5 * overlap)
    assert (0.7 - values["ft_random_verbnet_nn2_ci_low"]) / (0.7 - plain[0]) == pytest.approx(
        np.sqrt(1 + 5 * overlap))
    one = sg.figure6_cell_values(summary, {}, {"verbnet": ["nn1"]})  # one regressor: a union of one
    assert one["ft_random_verbnet_nn1_bonf1_ci_low"] == one["ft_random_verbnet_nn1_ci90_low"]
    assert "ft_random_minilm_nn1_ci_low" not in values  # one split: no interval
    assert values["ft_random_best_verbnet_mean"] == 0.7 and values["ft_random_best_minilm_mean"] == 0.4


# --------------------------------------------------------------------------- splits, Table 8, Figure 11, Table 10


def test_split_sizes_count_the_pairs_of_each_part_and_glue_the_adversarial_split():
    from compsem.sts import regressors as rg

    splits = {"adversarial": {"train": np.arange(5), "test": np.arange(5, 12)},
              "random (seed 0)": rg.random_split(20, 0), "random (seed 3)": rg.random_split(31, 3)}
    table, values = sg.split_sizes(splits)
    assert list(table.index) == list(splits)
    assert sorted(table.columns) == ["dev", "test", "train"]
    for name, split in splits.items():
        for part in ("train", "dev", "test"):
            expected = len(split[part]) if part in split else None
            assert (np.isnan(table.loc[name, part]) if expected is None else table.loc[name, part] == expected)
    assert table.loc["random (seed 0)", ["train", "dev", "test"]].tolist() == [14, 3, 3]  # round(n * .7), round(n * .15)
    assert values == {"adv_n_train": 5, "adv_n_test": 7}
    assert all(type(v) is int for v in values.values())


def test_table8_weights_count_the_weights_of_each_regressor_on_eight_inputs():
    from compsem.sts import regressors as rg

    weights = sg.table8_weights()
    assert list(weights) == [f"n_weights_verbnet_{r}" for r in rg.REGRESSORS]
    by_hand = {"reg": 8, "nn1": 8 * 10 + 10, "nn2": 8 * 60 + 60 * 10 + 10, "nn3": 8 * 100 + 100 * 100 + 100 * 10 + 10,
               "nn4": 8 * 1000 + 1000 * 100 + 100 * 100 + 100 * 10 + 10,
               "nn5": 8 * 1000 + 1000 * 1000 + 1000 * 100 + 100 * 10 + 10 * 10 + 10}
    assert weights == {f"n_weights_verbnet_{r}": n for r, n in by_hand.items()}


def _former_no_pca(grid, targets):
    """The loop sts3k-finetune ran inline before no_pca_values (results and glue collected)."""
    from compsem import report

    results, glued = {}, {}
    for name, regressor, rho in grid[["features", "regressor", "rho_test"]].itertuples(index=False, name=None):
        key = f"ft_nopca_adv_{report.slug(name)}_{regressor}"
        if key in targets:
            results[key] = float(rho)
        else:
            glued[key] = float(rho)
    return results, glued


def test_no_pca_values_split_the_cells_with_a_paper_value_from_the_others():
    rng = np.random.default_rng(4)
    grid = pd.DataFrame([{"features": f, "regressor": r, "rho_test": np.float64(rng.uniform(-0.3, 0.3))}
                         for f in ("mean:glove50", "mpnet", "minilm") for r in ("reg", "nn1", "nn3")])
    targets = {f"ft_nopca_adv_mpnet_{r}": {"paper": 0.0} for r in ("reg", "nn1", "nn3")} | {"ft_adv_minilm_reg": {}}
    compared, glued = sg.no_pca_values(grid, targets)
    cells = grid.set_index(["features", "regressor"])["rho_test"]
    assert compared == {f"ft_nopca_adv_mpnet_{r}": float(cells[("mpnet", r)]) for r in ("reg", "nn1", "nn3")}
    assert list(glued)[:3] == ["ft_nopca_adv_mean_glove50_reg", "ft_nopca_adv_mean_glove50_nn1",
                               "ft_nopca_adv_mean_glove50_nn3"]
    assert glued["ft_nopca_adv_minilm_nn3"] == float(cells[("minilm", "nn3")])
    assert len(glued) == 6 and all(type(v) is float for v in (compared | glued).values())
    # the chapter's former inline loop: the same keys, in the same order, to the last bit
    former_results, former_glued = _former_no_pca(grid, targets)
    assert list(compared.items()) == list(former_results.items())
    assert list(glued.items()) == list(former_glued.items())


def test_table10_weights_count_mpnet_no_pca_and_read_the_errata_from_the_targets():
    targets = _sts3k_targets()
    compared, glued, table = sg.table10_weights({"minilm": np.zeros((3, 768)), "mpnet": np.zeros((3, 1536))}, targets)
    assert list(compared.items()) == [("n_weights_nopca_mpnet_reg", 1536), ("n_weights_nopca_mpnet_nn1", 1536 * 10 + 10),
                                      ("n_weights_nopca_mpnet_nn3", 1536 * 100 + 100 * 100 + 100 * 10 + 10),
                                      ("n_weights_nopca_mpnet_nn4", 1536 * 1000 + 1000 * 100 + 100 * 100 + 100 * 10 + 10),
                                      ("nn2_hidden_units_2", 10)]
    assert list(glued) == ["paper_n_weights_verbnet_nn1", "paper_n_weights_verbnet_nn2", "paper_nn2_hidden_units_2",
                           "paper_n_weights_nopca_mpnet_nn3", "mean_cn_dims", "n_weights_nopca_mean_cn_reg"]
    assert [glued[f"paper_{k}"] for k in ("n_weights_verbnet_nn1", "nn2_hidden_units_2", "n_weights_nopca_mpnet_nn3")] \
        == [80, 100, 164700] == [targets[k]["paper"] for k in ("n_weights_verbnet_nn1", "nn2_hidden_units_2",
                                                                "n_weights_nopca_mpnet_nn3")]
    assert (glued["mean_cn_dims"], glued["n_weights_nopca_mean_cn_reg"]) == (300, 600)
    verbnet = [f"n_weights_verbnet_nn{k}" for k in (2, 3, 4, 5)]
    assert list(table.index) == list(compared)[:4] + verbnet and "source" not in table.columns
    assert table["ours"].tolist() == [v for k, v in compared.items() if k != "nn2_hidden_units_2"] + [
        1090, 11810, 119010, 1109110]
    assert table["paper"].tolist() == [targets[k]["paper"] for k in table.index]
    # without MPNet: nn2's second layer compared, VerbNet-CN's counts shown
    compared, _, table = sg.table10_weights({"minilm": np.zeros((3, 768))}, targets)
    assert compared == {"nn2_hidden_units_2": 10} and list(table.index) == verbnet


def test_grouped_split_values_match_split_by_split_with_the_corrected_t():
    def grid(values):  # one row per (split, features, regressor)
        rows = [{"split": f"s{i}", "split kind": "random", "features": f, "regressor": r, "rho_test": v}
                for (f, r), seeds in values.items() for i, v in enumerate(seeds)]
        return pd.DataFrame(rows)

    pair = grid({("verbnet", "reg"): [0.70, 0.72, 0.69], ("mpnet", "reg"): [0.50, 0.55, 0.52]})
    grouped = grid({("verbnet", "reg"): [0.69, 0.70, 0.70], ("mpnet", "reg"): [0.40, 0.47, 0.42]})
    table, values = sg.grouped_split_values(pair, grouped, ["reg"])
    d = np.array([0.40, 0.47, 0.42]) - np.array([0.50, 0.55, 0.52])
    low, high = sg.t_interval(d.mean(), d.std(ddof=1), 3, 0.90, overlap=sg.RANDOM_SPLIT_OVERLAP)
    assert values["ft_grouped_minus_pair_mpnet_reg"] == pytest.approx(d.mean())
    assert (values["ft_grouped_minus_pair_mpnet_reg_ci90_low"], values["ft_grouped_minus_pair_mpnet_reg_ci90_high"]) \
        == pytest.approx((low, high))
    wide = sg.t_interval(d.mean(), d.std(ddof=1), 3, 1 - 0.10 / 2, overlap=sg.RANDOM_SPLIT_OVERLAP)
    assert values["ft_grouped_minus_pair_mpnet_reg_bonf2_ci_low"] == pytest.approx(wide[0])  # k = 2 cells
    assert values["ft_grouped_n_seeds"] == 3 and values["ft_grouped_margin"] == sg.GROUPED_MARGIN
    assert values["ft_grouped_mpnet_reg_mean"] == pytest.approx(np.mean([0.40, 0.47, 0.42]))
    assert table["features"].tolist() == ["verbnet", "mpnet"]
    one = sg.grouped_split_values(pair[pair["split"] == "s0"], grouped[grouped["split"] == "s0"], ["reg"])[1]
    assert one["ft_grouped_n_seeds"] == 1 and not any("_ci" in key for key in one)  # one split: no interval
    with pytest.raises(ValueError, match="same seeds"):
        sg.grouped_split_values(pair, grouped[grouped["split"] != "s2"], ["reg"])


def test_test_composition_reads_the_test_parts():
    pairs = pd.DataFrame({"portion": ["adv", "non", "adv", "adv"], "human": [0.1, 0.2, 0.3, 0.6]})
    splits = {"a": {"train": np.array([0]), "test": np.array([1, 2])}, "b": {"train": np.array([1]), "test": np.array([0, 2, 3])}}
    values = sg.test_composition(pairs, splits, "x")
    assert values == pytest.approx({"x_test_min": 2, "x_test_max": 3, "x_test_adv_share": (0.5 + 1.0) / 2,
                                    "x_test_human_mean": (0.25 + 1.0 / 3) / 2})


def test_the_overlap_term_follows_the_split_fractions():
    """Nadeau & Bengio's n_test / n_train: §4.7's 70/15/15 by default, the chapter's
    split_fractions otherwise, and the intervals widen with it."""
    assert sg.RANDOM_SPLIT_OVERLAP == sg.split_overlap((0.7, 0.15, 0.15)) == pytest.approx(420 / 1960)
    assert sg.split_overlap([0.5, 0.25, 0.25]) == pytest.approx(0.5)
    summary = pd.DataFrame([{"split kind": "random", "features": "verbnet", "regressor": "nn1", "mean": 0.6,
                             "std": 0.02, "count": 5}])
    default = sg.figure6_cell_values(summary, {})
    wider = sg.figure6_cell_values(summary, {}, overlap=sg.split_overlap([0.5, 0.25, 0.25]))
    assert wider["ft_random_verbnet_nn1_ci_low"] < default["ft_random_verbnet_nn1_ci_low"]
    with pytest.raises(ValueError, match="split_fractions"):
        sg.split_overlap([0.0, 0.5, 0.5])
