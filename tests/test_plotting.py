"""The book's figure theme and figure functions (compsem.plotting, compsem.sts.figures,
compsem.cogs.figures, the probing chapter's figures) on small synthetic frames: each returns one
figure with the expected panels and marks, and opens no other."""

from __future__ import annotations

from collections import defaultdict

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from compsem import plotting  # noqa: E402
from compsem.cogs import evaluation as ev  # noqa: E402
from compsem.cogs import figures as cogs_figures  # noqa: E402
from compsem.cogs import models_chapter as chapter  # noqa: E402
from compsem.probing import chapter as probing  # noqa: E402
from compsem.sts import figures as sts_figures  # noqa: E402
from compsem.sts import regressors as rg  # noqa: E402

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _theme_and_cleanup():
    plotting.use_book_theme()
    plt.close("all")
    yield
    plt.close("all")


def one_figure(fig, n_axes: int):
    """The figure is the only one open and has ``n_axes`` axes; returns them."""
    assert plt.get_fignums() == [fig.number], "a figure function must open exactly one figure"
    assert len(fig.axes) == n_axes
    return fig.axes


def paper_points(ax) -> int:
    """Number of points drawn as the paper's values (:func:`plotting.paper_marks`)."""
    return sum(
        len(c.get_offsets())
        for c in ax.collections
        if isinstance(c, PathCollection) and c.get_zorder() == plotting.PAPER["zorder"]
    )


def bars(ax) -> int:
    """Number of bars drawn (seaborn adds legend patches to ``ax.patches``; containers hold the
    bars only)."""
    return sum(len(c) for c in ax.containers)


# --------------------------------------------------------------------------- plotting


def test_theme_sets_the_palette_and_sizes():
    plotting.use_book_theme()
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    assert [to_hex(c) for c in colours[:3]] == [c.lower() for c in plotting.PALETTE[:3]]
    assert tuple(plt.rcParams["figure.figsize"]) == (7.0, 4.0)
    assert not plt.rcParams["axes.spines.top"]


def test_interval_dots_draws_one_bar_per_row_and_returns_positions():
    frame = pd.DataFrame({"model": ["a", "b", "a", "b"], "kind": ["x", "x", "y", "y"],
                          "v": [1.0, 2.0, 3.0, 4.0], "lo": [0.5, 1.5, 2.5, np.nan],
                          "hi": [1.5, 2.5, 3.5, np.nan]})  # fmt: skip
    fig, ax = plt.subplots()
    at = plotting.interval_dots(ax, frame, "model", "v", "lo", "hi", hue="kind", orient="v")
    assert at == {"a": 0.0, "b": 1.0}
    assert len(ax.containers) == 2  # one errorbar per hue level
    dots = ax.containers[0].lines[0]
    assert np.allclose(dots.get_xdata(), [-0.06, 0.94]) and np.allclose(dots.get_ydata(), [1, 2])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]
    assert ax.get_legend_handles_labels()[1] == ["x", "y"]


def test_paper_marks_skip_missing_values():
    fig, ax = plt.subplots()
    plotting.paper_marks(ax, [0, 1, 2], [0.5, np.nan, 0.7])
    assert paper_points(ax) == 2


# --------------------------------------------------------------------------- probing chapter


def probing_summary():
    rows = [dict(task=t, encoder=e, control="none", accuracy=a, low=a - 3, high=a + 3)
            for t in ("Order", "SemRole") for e in ("glove", "mpnet", "sdae")
            for a in [RNG.uniform(50, 95)]]  # fmt: skip
    return pd.DataFrame(rows)


def test_probing_table2_one_panel_per_task_with_the_substitute_star():
    targets = defaultdict(lambda: {"paper": 70.0})
    fig = probing.plot_table2(probing_summary(), targets, ["Order", "SemRole"],
                              ["glove", "mpnet", "sdae"], "sdae")  # fmt: skip
    axes = one_figure(fig, 2)
    for ax in axes:
        assert len(ax.containers) == 1  # the dots with their intervals
        assert paper_points(ax) == 1  # the paper's SDAE beside our substitute
    assert [t.get_text() for t in axes[0].get_yticklabels()] == ["glove", "mpnet", "sdae"]


def test_probing_geometry_facets_and_layers():
    cosines = {e: {"swap": RNG.uniform(0.5, 1, 20), "passive": RNG.uniform(0.5, 1, 20)}
               for e in ("glove", "mpnet")}  # fmt: skip
    axes = one_figure(probing.plot_geometry(cosines, ["glove", "mpnet"]), 2)
    assert [len(ax.collections[0].get_offsets()) for ax in axes] == [20, 20]
    plt.close("all")
    table = pd.DataFrame([dict(encoder=f"mpnet:layer{k}", versus=v, share_closer=0.5)
                          for k in range(4) for v in ("swap", "negation", "other")])  # fmt: skip
    (ax,) = one_figure(probing.plot_geometry_layers(table, "mpnet"), 1)
    assert [len(line.get_xdata()) for line in ax.lines[:2]] == [4, 4]


# --------------------------------------------------------------------------- STS3k chapters


def regressor_grid():
    return pd.DataFrame([dict(**{"split kind": k}, features=f, regressor=r, n_weights=rg.n_weights(r, 8),
                              rho_test=RNG.normal(0.4, 0.05))
                         for k in ("random", "adversarial") for f in ("verbnet", "mpnet")
                         for r in rg.REGRESSORS for _ in range(3 if k == "random" else 1)])  # fmt: skip


def test_sts_regressor_curves_paper_markers():
    targets = {f"ft_{s}_verbnet_{r}": {"paper": 0.3} for s in ("random", "adv") for r in rg.REGRESSORS}
    axes = one_figure(sts_figures.regressor_curves(regressor_grid(), targets), 2)
    assert [paper_points(ax) for ax in axes] == [len(rg.REGRESSORS)] * 2
    assert [len(line.get_xdata()) for line in axes[0].get_lines()[:1]] == [len(rg.REGRESSORS)]


def test_sts_interval_figures():
    ci = pd.DataFrame({"adv": [0.3, 0.5], "adv low": [0.2, 0.4], "adv high": [0.4, 0.6],
                       "non − adv": [0.3, 0.1], "drop low": [0.2, 0.0], "drop high": [0.4, 0.2]},
                      index=["Mean-CN", "VerbNet-CN"])  # fmt: skip
    paper = pd.DataFrame({"adv": [0.31, np.nan], "non − adv": [0.28, 0.12]}, index=ci.index)
    axes = one_figure(sts_figures.published_intervals(ci, paper, 0.95), 2)
    assert [paper_points(ax) for ax in axes] == [1, 2]
    plt.close("all")
    drops = pd.DataFrame({"non − adv": [0.1, 0.3], "low": [0.0, 0.2], "high": [0.2, 0.4]},
                         index=["a", "b"])  # fmt: skip
    (ax,) = one_figure(sts_figures.recomputed_drops(drops, 0.95), 1)
    assert len(ax.containers) == 1 and paper_points(ax) == 0
    plt.close("all")
    (ax,) = one_figure(sts_figures.recomputed_drops(drops, 0.95, {"b": 0.72, "not drawn": 0.1}), 1)
    assert paper_points(ax) == 1
    plt.close("all")


def test_sts_bar_figures_put_one_paper_mark_per_bar():
    ours = pd.DataFrame({"SentBERT": [0.2, 0.6, 0.1], "VerbNet-CN": [0.6, 0.65, 0.6]},
                        index=["no training", "random split", "adversarial split"])  # fmt: skip
    (ax,) = one_figure(sts_figures.finetune_bars(ours, ours + 0.03), 1)
    assert bars(ax) == 6 and paper_points(ax) == 6
    plt.close("all")
    columns = ["SICK", "STS3k-adv"]
    published = pd.DataFrame([[0.5, 0.4], [0.6, 0.7]], index=["Mean-CN", "DefSent"], columns=columns)
    (ax,) = one_figure(sts_figures.noncompositional_gap(published, published, columns), 1)
    assert bars(ax) == 6 and paper_points(ax) == 6


def test_sts_distribution_figures():
    growth = pd.DataFrame([dict(participants=p, subset=s, split_half=RNG.uniform(), kappa_sb=RNG.uniform())
                           for p in (50, 100) for s in ("all", "adv") for _ in range(5)])  # fmt: skip
    paper = pd.DataFrame({"r": [0.9, 0.8, 0.7], "kappa": [0.6, 0.5, 0.4]}, index=["all", "non", "adv"])
    axes = one_figure(sts_figures.reliability_growth(growth, paper, 501), 2)
    assert [paper_points(ax) for ax in axes] == [3, 3]
    assert len(axes[0].get_lines()) >= 2  # a mean line per subset
    plt.close("all")
    (ax,) = one_figure(sts_figures.ratings_histogram(RNG.uniform(size=50), RNG.uniform(size=50),
                                                     {"statistic": 0.1, "log10_pvalue": -3}), 1)  # fmt: skip
    assert len(ax.get_legend().get_texts()) == 2
    plt.close("all")
    types = pd.Series(RNG.choice(["a", "b"], 40))
    (ax,) = one_figure(sts_figures.pair_type_boxes(types, pd.Series(RNG.uniform(size=40)), ["a", "b"]), 1)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b"]


def paper_offsets(ax) -> np.ndarray:
    """The (x, y) of every point drawn as the paper's values, in drawing order."""
    return np.concatenate([c.get_offsets() for c in ax.collections
                           if isinstance(c, PathCollection) and c.get_zorder() == plotting.PAPER["zorder"]]
                          or [np.empty((0, 2))])  # fmt: skip


def test_sts_split_half_histograms_mark_the_papers_uncorrected_mean_per_subset():
    per_split = pd.DataFrame([dict(subset=s, r=RNG.normal(m, 0.005), kappa=RNG.normal(m - 0.2, 0.01))
                              for s, m in (("all", 0.91), ("non", 0.90), ("adv", 0.88))
                              for _ in range(30)])  # fmt: skip
    axes = one_figure(sts_figures.split_half_histograms(per_split, 30), 2)
    assert [paper_points(ax) for ax in axes] == [0, 0]
    plt.close("all")
    targets = {f"{key}_{s}": {"paper": v} for key, values in (("split_half", (0.953, 0.95, 0.94)),
                                                                ("kappa", (0.832, 0.825, 0.804)))
               for s, v in zip(("all", "non", "adv"), values, strict=True)}  # fmt: skip
    paper = sts_figures.split_half_paper(targets)
    assert paper.loc["adv", "r"] == 0.94 and paper.loc["non", "kappa"] == 0.825
    axes = one_figure(sts_figures.split_half_histograms(per_split, 30, paper=paper), 2)
    for ax, column in zip(axes, ["r", "kappa"], strict=True):
        at = paper_offsets(ax)
        rho = paper[column].to_numpy()
        np.testing.assert_allclose(at[:, 0], rho / (2 - rho))  # Spearman-Brown undone
        edges = np.histogram_bin_edges(per_split[column], bins=20)
        tallest = [np.histogram(per_split.loc[per_split.subset == s, column], edges)[0].max()
                   for s in paper.index]  # fmt: skip
        np.testing.assert_allclose(at[:, 1], tallest)


def test_sts_pair_type_boxes_mark_the_papers_group_means_on_their_type():
    types = pd.Series(RNG.choice(["Zero", "Double swap"], 40))
    human = pd.Series(RNG.uniform(size=40))
    (ax,) = one_figure(sts_figures.pair_type_boxes(types, human, ["Zero", "Double swap"]), 1)
    assert paper_points(ax) == 0
    plt.close("all")
    targets = {"type_mean_zero_0": {"paper": 0.027}, "type_mean_swap_subj_dobj_2": {"paper": 0.445},
               "type_mean_swap_subj_verb_0": {"paper": 0.236}, "type_mean_const_verb_1": {"paper": 0.077},
               "only_mod_similarity_3": {"paper": 0.673}, "split_half_all": {"paper": 0.953}}  # fmt: skip
    paper = sts_figures.pair_type_paper_means(targets)
    assert sorted(zip(paper.index, paper, strict=True)) == [
        ("Added modifiers", 0.673), ("Constant verb", 0.077), ("Double swap", 0.236),
        ("Double swap", 0.445), ("Zero", 0.027)]  # fmt: skip
    (ax,) = one_figure(sts_figures.pair_type_boxes(types, human, ["Zero", "Double swap"], paper=paper), 1)
    at = paper_offsets(ax)  # types not on the figure are not marked; boxes stand at 1, 2
    assert sorted(map(tuple, at)) == [(1, 0.027), (2, 0.236), (2, 0.445)]


def test_sts_within_category_markers_by_series():
    within = pd.DataFrame([dict(series=s, category=c, rho=0.3, ci_low=0.2, ci_high=0.4)
                           for s in ("VerbNet-CN", "SentBERT") for c in ("x", "y", "z")])  # fmt: skip
    (ax,) = one_figure(sts_figures.within_category(within, ["VerbNet-CN", "SentBERT"],
                                                   {"VerbNet-CN"}, ["x", "y", "z"]), 1)  # fmt: skip
    assert [c.lines[0].get_marker() for c in ax.containers] == ["o", "s"]


# --------------------------------------------------------------------------- COGS chapters


def test_cogs_seed_spread_one_panel_per_case():
    cases, models = ev.CASE_ORDER[:3], ["transformer", "lstm"]
    runs = pd.DataFrame([dict(model=m, quantity=c, accuracy=RNG.uniform())
                         for m in models for c in cases for _ in range(4)])  # fmt: skip
    fig = cogs_figures.seed_spread(runs, cases, models, defaultdict(lambda: 0.5),
                                   defaultdict(lambda: 1.0), {m: m for m in models})  # fmt: skip
    for ax in one_figure(fig, 3):
        assert paper_points(ax) == 2
        dots = [c for c in ax.collections if c.get_zorder() != plotting.PAPER["zorder"]]
        assert sum(len(c.get_offsets()) for c in dots) == 8


def test_cogs_exposure_by_case_one_dot_per_run_and_a_paper_mark_per_cell():
    runs = pd.DataFrame([dict(exposures=e, seed=s, quantity=c, accuracy=RNG.uniform())
                         for e in (1, 100) for s in (1, 2) for c in ev.CASE_ORDER])  # fmt: skip
    paper = {f"cogs_t45_transformer_{e}_{c}": 0.5 for e in (1, 100) for c in ev.CASE_ORDER}
    reference = pd.Series(1.0, index=ev.CASE_ORDER)
    (ax,) = one_figure(cogs_figures.exposure_by_case(runs, paper, reference), 1)
    assert paper_points(ax) == 2 * len(ev.CASE_ORDER)
    dots = [c for c in ax.collections if c.get_zorder() != plotting.PAPER["zorder"]]
    assert sum(len(c.get_offsets()) for c in dots) == len(runs)
    plt.close("all")


def test_cogs_bar_and_line_figures():
    summary = pd.DataFrame({c: [0.9, 0.8, 1.0] for c in ["dev", "test", "gen", "lexical", "structural"]},
                           index=["ours", "paper", "symbolic reference parser"])  # fmt: skip
    (ax,) = one_figure(cogs_figures.generalization_gap(summary, "ours", "paper"), 1)
    assert bars(ax) == 10
    plt.close("all")
    exact = pd.Series(0.5, index=ev.CASE_ORDER)
    (ax,) = one_figure(cogs_figures.accuracy_by_case(exact, exact, [0.4] * len(exact), "paper"), 1)
    assert len(ax.patches) == len(ev.CASE_ORDER)
    plt.close("all")
    sizes = pd.DataFrame({f"{w} {s}": [0.5, 0.6] for w in ("ours", "paper") for s in cogs_figures.SPLITS},
                         index=["small", "large"]).assign(**{"ours gen SD": [0.1, np.nan]})  # fmt: skip
    (ax,) = one_figure(cogs_figures.transformer_sizes(sizes, {"dev": 1, "test": 1, "gen": 1}), 1)
    assert len(ax.containers) == 3  # ours on dev, test, gen


def test_cogs_distribution_figures():
    def forms(n):
        return pd.DataFrame({"case": "x", "source": ["a b"] * n,
                             "target": [" ".join(["x"] * int(k)) for k in RNG.integers(5, 150, n)]})  # fmt: skip

    data = {"train": forms(30), "gen": forms(30)}
    axes = one_figure(cogs_figures.target_lengths(data, data), 2)
    assert axes[0].get_yscale() == "log"
    plt.close("all")
    freqs = {(k, label): pd.Series([9, 4, 1]) for k in ("noun", "verb") for label in ("a", "b")}
    axes = one_figure(cogs_figures.rank_frequency(freqs), 2)
    assert [len(ax.get_lines()) for ax in axes] == [2, 2]
    plt.close("all")
    shares = pd.DataFrame({"released": [0.2, 0.5], "generated": [0.3, 0.4]}, index=["f1", "f2"])
    (ax,) = one_figure(cogs_figures.frame_shares(shares), 1)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["f2", "f1"]  # sorted by released


def test_cogs_depth_and_length_marks_the_papers_depth_3_to_5():
    n = 40
    frame = pd.DataFrame({"split": ["gen"] * n + ["test"] * n,
                          "case": (["cp_recursion", "pp_recursion"] * n),
                          "depth": np.tile(np.arange(1, 11), 8).astype(float),
                          "exact": RNG.uniform(size=2 * n) > 0.5,
                          "gold_len": RNG.integers(5, 400, 2 * n)})  # fmt: skip
    runs = {"Transformer (n=5)": frame, "reduced run": frame}
    markers = chapter.paper_depth(runs, ["transformer"], {"cogs_t46_transformer_depth3to5": 0.02})
    assert markers == {"Transformer (n=5)": 0.02}  # the reduced run is not the paper's model
    left, _ = one_figure(cogs_figures.depth_and_length(runs, paper_depth=markers), 2)
    assert paper_points(left) == 3  # depths 3, 4 and 5
    plt.close("all")


def test_sts_category_means_legend_gives_ours_and_the_papers_mad():
    categories = ["Single", "Swap-2"]
    relative = pd.DataFrame([[1.0, 0.8], [1.0, 0.9], [1.0, 0.95]], index=["Human", "VerbNet-CN", "Ours only"],
                            columns=categories)  # fmt: skip
    band = pd.DataFrame({"mean": [1.0, 0.9], "ci_low": [0.9, 0.8], "ci_high": [1.1, 1.0]}, index=categories)
    intervals = {name: band for name in relative.index}
    mads = pd.Series({"VerbNet-CN": 0.179, "Ours only": 0.3})
    (ax,) = one_figure(sts_figures.category_means(relative, intervals, mads, {"VerbNet-CN": 0.18}), 1)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["Human", "VerbNet-CN (MAD 0.18; paper 0.18)", "Ours only (MAD 0.30)"]
    plt.close("all")
