"""compsem.sts.table9's recomputed Table 9 (the sts3k-models chapter's "Recomputed here"): the
cells, drops and paired differences equal the statistics computed directly, with the same seeds.

Synthetic pairs and stub or model-free scorers: no data, no model weights."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem import stats
from compsem.sts import chapter as C
from compsem.sts import scoring, similarity, table9

N_BOOT = 60
SEED = 3


def _frame(n: int, seed: int, portions: bool = False) -> pd.DataFrame:
    """``n`` synthetic pairs: distinct sentences, human scores, and for an STS3k-like frame the
    ``portion`` column (non / adv) of :func:`compsem.data.sts3k.portion_mask`."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({"sentence_a": [f"a{seed} {i}" for i in range(n)],
                          "sentence_b": [f"b{seed} {i}" for i in range(n)],
                          "human": rng.random(n)})
    if portions:
        frame["portion"] = np.where(np.arange(n) % 2 == 0, "non", "adv")
    return frame


FRAMES = {"sts3k": _frame(40, 1, portions=True), "sick": _frame(30, 2)}
COLUMNS = {"SICK": ("sick", np.ones(30, dtype=bool)),
           "STS3k-all": ("sts3k", np.ones(40, dtype=bool)),
           "STS3k-adv": ("sts3k", (FRAMES["sts3k"]["portion"] == "adv").to_numpy())}


def _levels(label: str, quantity: str) -> dict[str, float]:
    """Two levels for one row, as compsem.sts.chapter.recomputed_levels gives a union's row."""
    return {"ci": 0.95, "bonf2_ci": 0.975} if label == "enc (std)" else {"ci": 0.9}


@pytest.fixture
def stub_scoring(monkeypatch):
    """An encoder ``enc`` and a baseline ``base``, whose similarities are the human scores plus
    noise that depends on the spec and on standardisation; every call recorded."""
    calls = {"prefetch": [], "pairs": []}

    def prefetch(specs, sentences, **kwargs):
        calls["prefetch"].append((list(specs), list(sentences), kwargs))

    def pair_similarities(spec, pairs, **kwargs):
        calls["pairs"].append((spec, len(pairs), kwargs))
        noise = np.random.default_rng([len(spec), len(pairs), int(kwargs.get("standardised", False))])
        return pairs["human"].to_numpy() + noise.normal(0, 0.3, len(pairs))

    monkeypatch.setattr(scoring, "prefetch", prefetch)
    monkeypatch.setattr(scoring, "is_encoder", lambda spec: spec == "enc")
    monkeypatch.setattr(scoring, "pair_similarities", pair_similarities)
    return calls


def test_recomputed_cells_are_spearman_and_its_bootstrap(stub_scoring):
    cells, sims = table9.recomputed_cells(["enc", "base"], FRAMES, COLUMNS, _levels, n_boot=N_BOOT,
                                          seed=SEED, batch_size=8, device="cpu", method="zscore")
    assert list(sims) == [("enc", "sts3k"), ("enc", "sick"), ("enc (std)", "sts3k"), ("enc (std)", "sick"),
                          ("base", "sts3k"), ("base", "sick")]
    assert list(zip(cells.model, cells.column, strict=True)) == [  # models x (raw, std) x datasets x columns
        (label, column) for label in ("enc", "enc (std)", "base") for column in ("STS3k-all", "STS3k-adv", "SICK")]
    for cell in cells.itertuples():
        name, mask = COLUMNS[cell.column]
        x, human = sims[(cell.model, name)], FRAMES[name]["human"].to_numpy()
        assert cell.rho == similarity.spearman(x, human, mask)
        levels = _levels(cell.model, cell.column)
        expected = similarity.bootstrap_spearman_levels(x, human, mask, n_boot=N_BOOT, seed=SEED,
                                                        levels=list(levels.values()))
        assert cell.bounds == dict(zip(levels, expected, strict=True))
        assert (cell.low, cell.high) == expected[0]
    other_seed = similarity.bootstrap_spearman_levels(sims[("base", "sick")], FRAMES["sick"]["human"], None,
                                                      n_boot=N_BOOT, seed=SEED + 1, levels=[0.9])
    assert cells.iloc[-1]["bounds"]["ci"] != other_seed[0]  # the seed reaches the bootstrap


def test_recomputed_cells_pass_the_scoring_arguments_on(stub_scoring):
    table9.recomputed_cells(["enc", "base"], FRAMES, COLUMNS, _levels, n_boot=N_BOOT, seed=SEED,
                            batch_size=8, device="cpu", method="zscore")
    assert [(specs, len(sentences), kwargs) for specs, sentences, kwargs in stub_scoring["prefetch"]] == [
        (["enc", "base"], 80, {"batch_size": 8, "device": "cpu", "show_progress": False}),
        (["enc", "base"], 60, {"batch_size": 8, "device": "cpu", "show_progress": False})]
    assert stub_scoring["prefetch"][1][1] == FRAMES["sick"]["sentence_a"].tolist() + FRAMES["sick"]["sentence_b"].tolist()
    common = {"seed": SEED, "batch_size": 8, "device": "cpu", "show_progress": False, "method": "zscore"}
    assert stub_scoring["pairs"] == [
        ("enc", 40, {"standardised": False, **common}), ("enc", 30, {"standardised": False, **common}),
        ("enc", 40, {"standardised": True, **common}), ("enc", 30, {"standardised": True, **common}),
        ("base", 40, {"standardised": False, **common}), ("base", 30, {"standardised": False, **common})]


def test_recomputed_cells_score_the_random_baseline_with_the_seed(monkeypatch):
    monkeypatch.setattr(scoring, "prefetch", lambda *args, **kwargs: None)
    cells, sims = table9.recomputed_cells(["random"], {"sick": FRAMES["sick"]}, {"SICK": COLUMNS["SICK"]},
                                          lambda label, column: {"ci": 0.95}, n_boot=N_BOOT, seed=SEED)
    np.testing.assert_array_equal(sims[("random", "sick")], similarity.random_similarities(30, SEED))
    assert cells.loc[0, "rho"] == similarity.spearman(sims[("random", "sick")], FRAMES["sick"]["human"])


def test_recomputed_table_orders_columns_and_writes_intervals(stub_scoring):
    cells, _ = table9.recomputed_cells(["enc", "base"], FRAMES, COLUMNS, _levels, n_boot=N_BOOT, seed=SEED)
    order = {"STS3k-adv": None, "SICK": None, "STS3k-non": None, "STS3k-all": None}  # non: no cell
    table = table9.recomputed_table(cells, order)
    assert list(table.columns) == ["STS3k-adv", "SICK", "STS3k-all"]
    assert sorted(table.index) == ["base", "enc", "enc (std)"]
    first = cells.iloc[0]
    assert table.loc[first.model, first.column] == first.rho
    text = table9.recomputed_table(cells, order, intervals=True)
    assert list(text.columns) == list(table.columns)
    assert text.loc[first.model, first.column] == f"{first.rho:.3f} [{first.low:.3f}, {first.high:.3f}]"


def test_recomputed_drops_are_chapter_drop_intervals_at_the_recomputed_levels():
    pairs = FRAMES["sts3k"]
    human = pairs["human"].to_numpy()
    rng = np.random.default_rng(0)
    series = {("enc (std)", "sts3k"): human + rng.normal(0, 0.2, 40),
              ("enc (std)", "sick"): rng.random(30),  # another dataset: no drop
              ("base", "sts3k"): rng.random(40)}
    drops, values = C.recomputed_drops(series, pairs, n_boot=N_BOOT, seed=SEED, level=0.9)
    non, adv = (pairs["portion"] == "non").to_numpy(), (pairs["portion"] == "adv").to_numpy()
    expected = {}
    for label in ("enc (std)", "base"):
        sims = series[(label, "sts3k")]
        key = {"enc (std)": "recomputed_drop_enc_std", "base": "recomputed_drop_base"}[label]
        drop = similarity.spearman(sims, human, non) - similarity.spearman(sims, human, adv)
        expected |= {key: drop}
        levels = C.recomputed_levels(label, "drop", 0.9)
        assert levels["ci"] == 0.9
        expected |= C.drop_intervals({key: sims}, human, non, adv, n_resamples=N_BOOT, seed=SEED,
                                     levels=levels)
        assert drops.loc[label, "non − adv"] == drop
        assert (drops.loc[label, "low"], drops.loc[label, "high"]) == (expected[f"{key}_ci_low"],
                                                                       expected[f"{key}_ci_high"])
    assert list(values.items()) == list(expected.items())  # same keys, same order, same numbers
    assert drops["non − adv"].is_monotonic_increasing and list(drops.columns) == ["non − adv", "low", "high"]


def test_standardisation_rhos_score_each_method(monkeypatch):
    pairs = FRAMES["sts3k"]
    calls = []

    def pair_similarities(spec, frame, **kwargs):
        calls.append((spec, kwargs))
        return frame["human"].to_numpy() * (1 if kwargs["method"] == "centre" else -1) + np.arange(len(frame)) / 40

    monkeypatch.setattr(scoring, "pair_similarities", pair_similarities)
    table = table9.standardisation_rhos(pairs, "mpnet", ("centre", "zscore"))
    assert calls == [("mpnet", {"standardised": True, "method": m, "show_progress": False})
                     for m in ("centre", "zscore")]
    assert list(table.index) == ["centre", "zscore"] and list(table.columns) == list(table9.STS3K_COLUMNS)
    masks = {"STS3k-all": np.ones(40, dtype=bool), "STS3k-non": (pairs["portion"] == "non").to_numpy(),
             "STS3k-adv": (pairs["portion"] == "adv").to_numpy()}
    for method in ("centre", "zscore"):
        sims = pair_similarities("mpnet", pairs, method=method)
        for column, mask in masks.items():
            assert table.loc[method, column] == similarity.spearman(sims, pairs["human"], mask)
    assert table.loc["centre", "STS3k-adv"] > 0 > table.loc["zscore", "STS3k-adv"]


def test_adv_differences_are_paired_bootstraps_on_the_adversarial_pairs():
    pairs = FRAMES["sts3k"]
    human = pairs["human"].to_numpy()
    rng = np.random.default_rng(1)
    reference = human + rng.normal(0, 0.1, 40)
    rivals = {"mean:glove50": rng.random(40), "mean:spacy-md": human + rng.normal(0, 0.5, 40)}
    values = table9.adv_differences(reference, rivals, pairs, "mpnet", n_resamples=N_BOOT, seed=SEED, level=0.9)
    adv = (pairs["portion"] == "adv").to_numpy()
    expected = {}
    for rival, slug in (("mean:glove50", "mean_glove50"), ("mean:spacy-md", "mean_spacy_md")):
        gap = stats.paired_spearman_difference(reference[adv], rivals[rival][adv], human[adv],
                                               n_resamples=N_BOOT, seed=SEED, level=0.9)
        key = f"mpnet_minus_{slug}_sts3k_adv"
        expected |= {key: gap["difference"], f"{key}_ci_low": gap["ci_low"], f"{key}_ci_high": gap["ci_high"]}
    assert list(values.items()) == list(expected.items())


def test_target_values_keep_the_targeted_cells_that_have_a_file():
    table = pd.DataFrame([[0.5, np.nan], [0.25, 0.75]], index=["Mean-CN", "SentBERT"],
                         columns=["SICK", "STS3k-adv"])
    targets = {"table9_mean_cn_sick": {}, "table9_mean_cn_sts3k_adv": {}, "table9_sentbert_sts3k_adv": {}}
    assert table9.target_values(table, targets) == {"table9_mean_cn_sick": 0.5, "table9_sentbert_sts3k_adv": 0.75}


def test_noise_ceiling_values_give_r_and_its_square_root():
    ceiling = pd.DataFrame({"R": [0.81, 0.64], "low": [0.75, 0.6], "high": [0.85, 0.7], "n_pairs": [100, 50]},
                           index=pd.Index(["STS3k-all", "STS3k-adv"], name="column"))
    values = table9.noise_ceiling_values(ceiling)
    assert list(values)[:6] == ["noise_ceiling_sts3k_all", "noise_ceiling_sts3k_all_ci_low",
                                "noise_ceiling_sts3k_all_ci_high", "noise_ceiling_sts3k_all_sqrt",
                                "noise_ceiling_sts3k_all_sqrt_ci_low", "noise_ceiling_sts3k_all_sqrt_ci_high"]
    assert values["noise_ceiling_sts3k_adv"] == 0.64 and values["noise_ceiling_sts3k_adv_ci_high"] == 0.7
    assert values["noise_ceiling_sts3k_adv_sqrt"] == pytest.approx(0.8)
    assert values["noise_ceiling_sts3k_all_sqrt_ci_low"] == float(np.sqrt(0.75)) and len(values) == 12


def test_recomputed_values_split_compared_cells_from_the_others(stub_scoring):
    cells, _ = table9.recomputed_cells(["enc", "base"], FRAMES, COLUMNS, _levels, n_boot=N_BOOT, seed=SEED)
    targets = {"recomputed_enc_std_sts3k_adv": {}, "recomputed_base_sick": {}}
    compared, other = table9.recomputed_values(cells, targets)
    rho = {(c.model, c.column): c.rho for c in cells.itertuples()}
    assert compared == {"recomputed_enc_std_sts3k_adv": rho[("enc (std)", "STS3k-adv")],
                        "recomputed_base_sick": rho[("base", "SICK")]}
    assert other["recomputed_enc_sts3k_all"] == rho[("enc", "STS3k-all")]
    assert not set(compared) & set(other)
    std_adv = cells[(cells.model == "enc (std)") & (cells.column == "STS3k-adv")].iloc[0]
    assert other["recomputed_enc_std_sts3k_adv_bonf2_ci_low"] == std_adv.bounds["bonf2_ci"][0]
    assert other["recomputed_enc_std_sts3k_adv_ci_high"] == std_adv.bounds["ci"][1]
    assert not any(k.startswith("recomputed_enc_sts3k_all_") for k in other)  # bounds: STS3k-adv only


def test_lexical_baselines_are_the_three_paired_comparisons(monkeypatch):
    pairs = FRAMES["sts3k"]
    human = pairs["human"].to_numpy()
    rng = np.random.default_rng(5)
    sims = {("overlap", "sts3k"): human + rng.normal(0, 0.4, 40),
            ("mpnet (std)", "sts3k"): human + rng.normal(0, 0.2, 40),
            ("mean:glove50", "sts3k"): rng.random(40)}
    published = {"mean": human + rng.normal(0, 0.6, 40), "openai_norml": human + rng.normal(0, 0.3, 40)}
    monkeypatch.setattr(table9.sts3k, "load_published_similarities", lambda name: published[name])
    values = table9.lexical_baselines(sims, pairs, n_resamples=N_BOOT, seed=SEED, level=0.9, family=2)
    adv = (pairs["portion"] == "adv").to_numpy()
    gap = stats.paired_spearman_difference(sims[("overlap", "sts3k")][adv], sims[("mpnet (std)", "sts3k")][adv],
                                           human[adv], n_resamples=N_BOOT, seed=SEED, level=0.9)
    assert values["overlap_minus_sentbert_sts3k_adv_p"] == gap["p"]
    assert values["overlap_minus_sentbert_sts3k_adv_ci_low"] == gap["ci_low"]
    equivalence = table9.equivalence_differences(
        {"overlap": sims[("overlap", "sts3k")], "Mean-CN": published["mean"], "mean:glove50": sims[("mean:glove50", "sts3k")]},
        {"SentBERT": sims[("mpnet (std)", "sts3k")], "OpenAI": published["openai_norml"]},
        human, adv, n_resamples=N_BOOT, seed=SEED, family=2)
    assert {k: values[k] for k in equivalence} == equivalence
    assert values["overlap_minus_sentbert_sts3k_adv"] == pytest.approx(gap["difference"])
    assert "mpnet_minus_mean_glove50_sts3k_adv_ci_low" in values
    assert "mpnet_minus_mean_spacy_md_sts3k_adv" not in values  # not run
    assert table9.lexical_baselines({k: v for k, v in sims.items() if k[0] != "overlap"}, pairs) == {}


def test_overlap_reading_says_which_side_the_interval_lies():
    key = "overlap_minus_sentbert_sts3k_adv"
    inside = table9.overlap_reading({key: 0.01, f"{key}_ci_low": -0.02, f"{key}_ci_high": 0.04})
    assert inside.startswith("Word overlap − SentBERT on STS3k-adv: +0.010 [-0.020, +0.040]")
    assert "cannot tell" in inside
    assert "SentBERT is the better" in table9.overlap_reading({key: -0.1, f"{key}_ci_low": -0.15, f"{key}_ci_high": -0.05})
    assert "word overlap is the better" in table9.overlap_reading({key: 0.1, f"{key}_ci_low": 0.05, f"{key}_ci_high": 0.15})


def test_figure4_frame_and_adv_and_drop_are_the_portions_and_their_differences():
    table = pd.DataFrame({"STS3k-all": [0.5, 0.6], "STS3k-non": [0.7, 0.65], "STS3k-adv": [0.2, 0.6]},
                         index=["A", "B"])
    frame = table9.figure4_frame(table)
    assert list(frame.columns) == ["STS3k-non", "STS3k-adv", "adv − non"]
    assert frame.loc["A", "adv − non"] == 0.2 - 0.7 and frame.loc["B", "STS3k-non"] == 0.65
    drops = table9.adv_and_drop(table)
    assert list(drops.columns) == ["adv", "non − adv"]
    assert drops.loc["A", "non − adv"] == 0.7 - 0.2 and drops.loc["B", "adv"] == 0.6
    assert "STS3k-all" not in frame and table.shape == (2, 3)  # the input is not changed
