"""The chapter helpers of sts3k-hybrid and sts3k-finetune (compsem.sts.chapter, and the concept
functions they call: roles.core_roles, generator.gold_roles, contrasts.figure8_contrasts and
contrasts.within_gaps), on constructed pairs, parses and fits; one test reads the authors'
prediction files (data mirror)."""

from __future__ import annotations

import re
import types

import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats

from compsem import stats
from compsem.data import shared_sentences, sts3k
from compsem.data.sts3k import ROLES
from compsem.sts import chapter as C
from compsem.sts import contrasts, generator, hybrid, roles, table9, weights
from compsem.sts.similarity import bootstrap_spearman, spearman
from compsem.sts.structure import FIGURE8_CATEGORIES

N_PAIRS = 40


class FakeVectors:
    """Hand-set word vectors: ``vector(word)`` or None for an unknown word."""

    def __init__(self, table):
        self.table = {k: np.asarray(v, dtype=float) for k, v in table.items()}
        self.dim = len(next(iter(self.table.values())))

    def vector(self, word):
        return self.table.get(word)


def _pairs(n: int = N_PAIRS, seed: int = 0) -> pd.DataFrame:
    """Human ratings, with the first half of the pairs non-adversarial and the rest adversarial;
    every three consecutive pairs share their first sentence (clusters of three, the bootstraps'
    units, some across the portions)."""
    rng = np.random.default_rng(seed)
    portion = pd.Categorical(["non"] * (n // 2) + ["adv"] * (n - n // 2), categories=["non", "adv", "neg"])
    return pd.DataFrame({"sentence_a": [f"s{i // 3}" for i in range(n)], "sentence_b": [f"t{i}" for i in range(n)],
                         "human": rng.uniform(0, 1, n), "portion": portion},
                        index=pd.RangeIndex(n, name="pair_id"))


def _noisy(human, scale: float, seed: int) -> np.ndarray:
    return np.asarray(human) + np.random.default_rng(seed).normal(0, scale, len(human))


# --------------------------------------------------------------------------- Table 9's STS3k columns


def test_sts3k_rhos_are_the_three_sts3k_columns_of_table9():
    pairs = _pairs()
    sims = _noisy(pairs["human"], 0.3, 1)
    rhos = C.sts3k_rhos(sims, pairs)
    assert list(rhos) == ["all", "non", "adv"] == list(C.PORTIONS)
    human = pairs["human"].to_numpy()
    half = N_PAIRS // 2
    assert rhos["all"] == pytest.approx(spearman(sims, human))
    assert rhos["non"] == pytest.approx(spearman(sims[:half], human[:half]))
    assert rhos["adv"] == pytest.approx(spearman(sims[half:], human[half:]))
    assert rhos["non"] != pytest.approx(rhos["adv"])  # the portions are not mixed up


def test_sts3k_table_and_values_key_the_rows_that_have_a_prefix():
    pairs = _pairs()
    series = {"shown only": _noisy(pairs["human"], 0.5, 2), "ours": _noisy(pairs["human"], 0.1, 3)}
    table = C.sts3k_table(series, pairs)
    assert list(table.index) == ["shown only", "ours"] and list(table.columns) == ["all", "non", "adv"]
    assert table.loc["ours"].to_dict() == C.sts3k_rhos(series["ours"], pairs)
    values = C.sts3k_values(table, [None, "x"])
    assert values == {f"x_sts3k_{p}": table.loc["ours", p] for p in ("all", "non", "adv")}
    with pytest.raises(ValueError):  # one prefix per row
        C.sts3k_values(table, ["x"])


def test_adv_spearman_intervals_are_the_bootstrap_of_each_series():
    pairs = _pairs()
    human = pairs["human"].to_numpy()
    mask = (pairs["portion"] == "adv").to_numpy()
    series = {"smatch_f1": _noisy(human, 0.02, 4), "amr_wwlk": _noisy(human, 2.0, 5)}
    values = C.adv_spearman_intervals(series, human, mask, n_resamples=300, seed=7)
    assert list(values) == ["smatch_f1_sts3k_adv_ci_low", "smatch_f1_sts3k_adv_ci_high",
                            "amr_wwlk_sts3k_adv_ci_low", "amr_wwlk_sts3k_adv_ci_high"]
    low, high = bootstrap_spearman(series["amr_wwlk"], human, mask, n_boot=300, seed=7)
    assert (values["amr_wwlk_sts3k_adv_ci_low"], values["amr_wwlk_sts3k_adv_ci_high"]) == (low, high)
    assert values["smatch_f1_sts3k_adv_ci_low"] > values["amr_wwlk_sts3k_adv_ci_high"]  # less noise


def test_family_levels_name_the_single_test_and_each_union():
    assert C.family_levels(0.95) == {"ci": 0.95}
    levels = C.family_levels(0.95, 2, 16)
    assert list(levels) == ["ci", "bonf2_ci", "bonf16_ci"]
    assert levels["bonf2_ci"] == stats.bonferroni_level(2, 1 - 0.95)
    assert C.family_levels(0.90, 2)["bonf2_ci"] == pytest.approx(0.95)  # equivalence: 1 - .10/2


def test_adv_spearman_intervals_of_a_family_are_read_from_the_same_draws():
    """levels with a family: the 95% interval and the one a union of k tests reads (1 - .05/k),
    both from one set of resamples: the call with both levels equals two separate calls, each
    bootstrap_spearman at its level with the same seed, and the union's interval contains the 95%."""
    pairs = _pairs()
    human = pairs["human"].to_numpy()
    mask = (pairs["portion"] == "adv").to_numpy()
    series = {"amr_wwlk": _noisy(human, 0.5, 5), "amr_smatch": _noisy(human, 1.0, 6)}
    single = C.adv_spearman_intervals(series, human, mask, n_resamples=300, seed=7)
    both = C.adv_spearman_intervals(series, human, mask, n_resamples=300, seed=7, levels=C.family_levels(0.95, 2))
    alone = C.adv_spearman_intervals(series, human, mask, n_resamples=300, seed=7,
                                     levels={"bonf2_ci": stats.bonferroni_level(2, 1 - 0.95)})
    assert both == single | alone
    assert set(alone) == {f"{n}_sts3k_adv_bonf2_ci_{b}" for n in series for b in ("low", "high")}
    low, high = bootstrap_spearman(series["amr_smatch"], human, mask, n_boot=300, seed=7, level=1 - 0.05 / 2)
    assert (both["amr_smatch_sts3k_adv_bonf2_ci_low"], both["amr_smatch_sts3k_adv_bonf2_ci_high"]) == (low, high)
    for name in series:
        assert both[f"{name}_sts3k_adv_bonf2_ci_low"] <= both[f"{name}_sts3k_adv_ci_low"]
        assert both[f"{name}_sts3k_adv_ci_high"] <= both[f"{name}_sts3k_adv_bonf2_ci_high"]


def test_drop_intervals_read_every_level_from_the_same_draws():
    from compsem.sts.similarity import bootstrap_difference

    pairs = _pairs(80)
    human = pairs["human"].to_numpy()
    non, adv = (pairs["portion"] == "non").to_numpy(), (pairs["portion"] == "adv").to_numpy()
    series = {"table9_drop_x": _noisy(human, 0.3, 4), "table9_drop_y": _noisy(human, 0.6, 5)}
    single = C.drop_intervals(series, human, non, adv, n_resamples=300, seed=2)
    assert (single["table9_drop_x_ci_low"], single["table9_drop_x_ci_high"]) == bootstrap_difference(
        series["table9_drop_x"], human, non, adv, n_boot=300, seed=2)
    levels = {"ci": 0.95, "ci90": 0.90, "bonf16_ci": stats.bonferroni_level(16, 1 - 0.95),
              "bonf2_ci": stats.bonferroni_level(2, 1 - 0.90)}  # as published_intervals reads a hybrid's drop
    every = C.drop_intervals(series, human, non, adv, n_resamples=300, seed=2, levels=levels)
    separate = {}  # one call with every level = one call per level
    for tag, level in levels.items():
        separate |= C.drop_intervals(series, human, non, adv, n_resamples=300, seed=2, levels={tag: level})
    assert every == separate
    assert (every["table9_drop_y_bonf16_ci_low"], every["table9_drop_y_bonf16_ci_high"]) == bootstrap_difference(
        series["table9_drop_y"], human, non, adv, n_boot=300, seed=2, level=1 - 0.05 / 16)
    for m in "xy":
        assert every[f"table9_drop_{m}_bonf16_ci_low"] <= every[f"table9_drop_{m}_ci_low"]
        assert every[f"table9_drop_{m}_ci_high"] <= every[f"table9_drop_{m}_bonf16_ci_high"]
        assert every[f"table9_drop_{m}_bonf2_ci_low"] <= every[f"table9_drop_{m}_ci90_low"]
    # equivalence: two 90% intervals in a union read at 1 - .10/2, the 95% interval
    assert every["table9_drop_x_bonf2_ci_low"] == pytest.approx(single["table9_drop_x_ci_low"])


def test_recomputed_levels_add_a_union_only_where_a_claim_reads_one():
    from compsem.sts.families import UNION_FAMILIES

    assert C.recomputed_levels("mpnet (std)", "STS3k-adv") == C.family_levels(
        0.95, UNION_FAMILIES["transformers_above_bound"])
    assert C.recomputed_levels("overlap", "drop", 0.95) == C.family_levels(0.95, UNION_FAMILIES["lexical_control"])
    assert C.recomputed_levels("mpnet (std)", "STS3k-non") == {"ci": 0.95}
    assert C.recomputed_levels("mean:glove50", "drop", 0.9) == {"ci": 0.9}


# --------------------------------------------------------------------------- substitute word vectors


WORDS = ("dog", "cat", "wolf", "bite", "chase", "lick", "man", "boy", "girl")


def _substitute_inputs(n: int):
    """Parses (corrected and 'GPT-4', which differ in a few Patients) and AMR graphs of ``n``
    pairs over :data:`WORDS`, with random word vectors."""
    rng = np.random.default_rng(11)
    vectors = FakeVectors({w: rng.normal(size=4) for w in WORDS})
    nouns, verbs = ["dog", "cat", "wolf", "man", "boy", "girl"], ["bite", "chase", "lick"]
    rows, amr_rows = [], []
    for i in range(n):
        a = {"Agent": nouns[i % 6], "Verb": verbs[i % 3], "Patient": nouns[(i + 1) % 6]}
        b = {"Agent": nouns[(i * 5 + 1) % 6], "Verb": verbs[(i // 2) % 3], "Patient": nouns[(i + 3) % 6]}
        for side, roles_ in (("a", a), ("b", b)):
            rows.append({"pair_id": i, "sentence": side, **{r: roles_.get(r) for r in ROLES}})
        amr_rows.append({"amr_a": f"(v / {a['Verb']} :ARG0 (x / {a['Agent']}) :ARG1 (y / {a['Patient']}))",
                         "amr_b": f"(v / {b['Verb']} :ARG0 (x / {b['Agent']}) :ARG1 (y / {b['Patient']}))"})
    parses = pd.DataFrame(rows).set_index(["pair_id", "sentence"])
    gpt4 = parses.copy()
    gpt4.iloc[::4, gpt4.columns.get_loc("Patient")] = None
    return vectors, parses, gpt4, pd.DataFrame(amr_rows)


def test_substitute_hybrids_scores_verbnet_on_both_parsers_and_amr_cn(monkeypatch):
    import compsem.models

    vectors, parses, gpt4, amr_parses = _substitute_inputs(N_PAIRS)
    monkeypatch.setattr(compsem.models, "get_encoder", lambda name: types.SimpleNamespace(word_vectors=vectors))
    pairs = _pairs()
    series, table, values = C.substitute_hybrids(["glove50"], parses, gpt4, amr_parses, (), "fixed", pairs)
    assert list(series) == ["VerbNet-glove50", "VerbNet-GPT-4-glove50", "AMR-CN-glove50"]
    assert list(table.index) == ["VerbNet-CN, corrected parses, glove50", "VerbNet-CN, GPT-4 parses, glove50",
                                 "AMR-CN, glove50"]
    expected = hybrid.verbnet_cn(parses, word_vectors=vectors, stopwords=(), denominator="fixed")
    np.testing.assert_array_equal(series["VerbNet-glove50"], expected)
    assert not np.allclose(series["VerbNet-GPT-4-glove50"], expected)  # the other parses are used
    assert values["amr_cn_glove50_sts3k_adv"] == C.sts3k_rhos(series["AMR-CN-glove50"], pairs)["adv"]
    assert values["verbnet_gpt4_glove50_sts3k_all"] == table.loc["VerbNet-CN, GPT-4 parses, glove50", "all"]
    assert values["verbnet_parsers_r_glove50"] == pytest.approx(
        np.corrcoef(series["VerbNet-glove50"], series["VerbNet-GPT-4-glove50"])[0, 1])
    assert len(values) == 3 * 3 + 1


def test_paired_values_name_each_candidate_and_column():
    paired = pd.DataFrame({"rival": ["DefSent", "DefSent"], "difference": [0.2, 0.1], "ci_low": [0.1, -0.1]},
                          index=pd.Index(["VerbNet-CN", "AMR-CN"], name="candidate"))
    assert C.paired_values(paired, "paired", ("difference", "ci_low")) == {
        "paired_verbnet_cn_adv_difference": 0.2, "paired_verbnet_cn_adv_ci_low": 0.1,
        "paired_amr_cn_adv_difference": 0.1, "paired_amr_cn_adv_ci_low": -0.1}


def test_parser_gaps_are_gpt4_minus_corrected_with_a_90_percent_interval():
    pairs = _pairs()
    human = pairs["human"].to_numpy()
    mask = (pairs["portion"] == "adv").to_numpy()
    series = {"VerbNet-v": _noisy(human, 0.1, 6), "VerbNet-GPT-4-v": _noisy(human, 0.6, 7)}
    table, values = C.parser_gaps(series, ["v"], human, mask, n_resamples=400, seed=0)
    gap = stats.paired_spearman_difference(series["VerbNet-GPT-4-v"], series["VerbNet-v"], human, mask=mask,
                                           n_resamples=400, seed=0, level=0.90)
    assert values == {"parser_gap_v_adv": gap["difference"], "parser_gap_v_adv_ci90_low": gap["ci_low"],
                      "parser_gap_v_adv_ci90_high": gap["ci_high"]}
    assert values["parser_gap_v_adv"] < 0  # the noisier GPT-4 series correlates less
    assert list(table.columns) == ["GPT-4 parses", "corrected parses", "difference", "90% low", "90% high"]
    assert table.loc["v", "corrected parses"] == pytest.approx(spearman(series["VerbNet-v"][mask], human[mask]))


def test_portion_gaps_are_paired_differences_on_each_sts3k_portion():
    pairs = _pairs()
    human = pairs["human"].to_numpy()
    a, b = _noisy(human, 0.1, 6), _noisy(human, 0.6, 7)
    values = C.portion_gaps(a, b, human, pairs, "g", n_resamples=200, seed=0)
    assert list(values) == [f"g_sts3k_{p}{s}" for p in ("all", "non", "adv") for s in ("", "_ci_low", "_ci_high")]
    clusters = shared_sentences.sentence_clusters(pairs)
    adv = stats.paired_spearman_difference(a, b, human, mask=(pairs["portion"] == "adv").to_numpy(),
                                           n_resamples=200, seed=0, clusters=clusters)
    assert (values["g_sts3k_adv"], values["g_sts3k_adv_ci_low"]) == (adv["difference"], adv["ci_low"])
    assert values["g_sts3k_all"] > 0  # the less noisy series correlates more
    family = C.portion_gaps(a, b, human, pairs, "g", n_resamples=200, seed=0, family=3)
    assert set(family) == set(values) | {f"g_sts3k_{p}_bonf3_ci_{b}" for p in ("all", "non", "adv")
                                         for b in ("low", "high")}
    assert all(family[key] == value for key, value in values.items())
    wide = stats.paired_spearman_difference(a, b, human, mask=(pairs["portion"] == "adv").to_numpy(),
                                            n_resamples=200, seed=0, level=1 - 0.05 / 3, clusters=clusters)
    assert (family["g_sts3k_adv_bonf3_ci_low"], family["g_sts3k_adv_bonf3_ci_high"]) == (wide["ci_low"], wide["ci_high"])
    for p in ("all", "non", "adv"):
        assert family[f"g_sts3k_{p}_bonf3_ci_low"] <= values[f"g_sts3k_{p}_ci_low"]
        assert values[f"g_sts3k_{p}_ci_high"] <= family[f"g_sts3k_{p}_bonf3_ci_high"]


# --------------------------------------------------------------------------- the betas (§4.6)


def _rolesims(n: int = N_PAIRS, seed: int = 3) -> tuple[pd.DataFrame, np.ndarray]:
    """Role similarities (some roles missing) and ratings that follow the paper's betas."""
    rng = np.random.default_rng(seed)
    sims = pd.DataFrame(rng.uniform(0, 1, (n, len(ROLES))), columns=list(ROLES))
    sims = sims.mask(rng.uniform(size=sims.shape) < 0.2)
    human = hybrid.combine(sims) + rng.normal(0, 0.02, n)
    return sims, human


def test_pilot_betas_fit_each_vector_set(monkeypatch):
    import compsem.models

    vectors = FakeVectors({"v": [1.0, 0.0]})
    monkeypatch.setattr(compsem.models, "get_encoder", lambda name: types.SimpleNamespace(word_vectors=vectors))
    sims, human = _rolesims()
    sims = sims[["Agent", "Verb", "Patient"]].fillna(0.5)
    human = sims.to_numpy() @ np.array([2.0, 3.0, 2.0]) + np.random.default_rng(0).normal(0, 0.01, len(sims))
    monkeypatch.setattr(weights, "pilot_role_similarities", lambda parses, word_vectors, stopwords: sims)
    pilot = pd.DataFrame({"human": human})
    fits, eight, values = C.pilot_betas(["glove50"], pilot, None, (), n_resamples=200, seed=0)
    assert list(eight) == ["pilot fit (glove50)"]
    assert fits["glove50"]["beta"].to_dict() == pytest.approx({"Agent": 2.0, "Verb": 3.0, "Patient": 2.0}, abs=0.05)
    assert eight["pilot fit (glove50)"]["Theme"] == eight["pilot fit (glove50)"]["Patient"]  # Theme copies Patient
    assert values["pilot_beta_glove50_verb"] == fits["glove50"].loc["Verb", "beta"]
    assert values["pilot_beta_glove50_verb_ci_low"] < values["pilot_beta_glove50_verb"]
    assert values["pilot_beta_glove50_verb_ci_high"] > values["pilot_beta_glove50_verb"]
    assert values["pilot_r2_glove50"] == pytest.approx(1.0, abs=0.01)
    assert len(values) == 3 * 3 + 1


def test_beta_variants_name_the_paper_uniform_core_pilot_and_fitted_weights():
    sims, human = _rolesims()
    non = np.arange(len(human)) < len(human) // 2
    pilot = {"pilot fit (v)": dict(hybrid.WEIGHTS, Verb=4.0)}
    variants = C.beta_variants(sims, human, non, pilot)
    assert list(variants) == ["paper", "uniform", "core roles only", "pilot fit (v)", "fitted on STS3k-non"]
    assert variants["paper"] == hybrid.WEIGHTS
    assert set(variants["uniform"].values()) == {1.0}
    assert all(variants["core roles only"][r] == 0.0 for r in weights.MINOR_ROLES)
    assert variants["core roles only"]["Verb"] == hybrid.WEIGHTS["Verb"]
    assert variants["fitted on STS3k-non"] == weights.fit_sts3k_betas(sims, human, non)


def test_beta_sensitivity_compares_every_weighting_with_the_best_neural_model():
    sims, human = _rolesims()
    adv = np.arange(len(human)) >= len(human) // 2
    variants = {"paper": hybrid.WEIGHTS, "uniform": {r: 1.0 for r in ROLES}}
    neural = _noisy(human, 0.3, 9)
    table = C.beta_sensitivity(sims, variants, neural, human, adv, n_resamples=300, seed=0)
    assert list(table.index) == ["paper", "uniform"]
    assert table["rho"].tolist() == weights.weight_sensitivity(sims, variants, human, adv)["rho"].tolist()
    expected = spearman(hybrid.combine(sims, variants["uniform"])[adv], human[adv]) - spearman(neural[adv], human[adv])
    assert table.loc["uniform", "difference from best neural"] == pytest.approx(expected)
    assert (table["ci_low"] <= table["difference from best neural"]).all()
    assert (table["difference from best neural"] <= table["ci_high"]).all()
    # "some weighting below the best neural model": a union of one test per weighting, k = 2 here;
    # both levels from one set of draws, each equal to a separate seeded call at its level
    for name, w in variants.items():
        for tag, level in (("ci", 0.95), ("bonf2_ci", 1 - 0.05 / 2)):
            alone = stats.paired_spearman_difference(hybrid.combine(sims, w), neural, human, mask=adv,
                                                     n_resamples=300, seed=0, level=level)
            assert (table.loc[name, f"{tag}_low"], table.loc[name, f"{tag}_high"]) == (alone["ci_low"],
                                                                                     alone["ci_high"]), (name, tag)
            assert table.loc[name, "difference from best neural"] == alone["difference"]
    assert list(table.columns[-5:]) == ["difference from best neural", "ci_low", "ci_high", "bonf2_ci_low",
                                        "bonf2_ci_high"]
    assert (table["bonf2_ci_low"] <= table["ci_low"]).all() and (table["ci_high"] <= table["bonf2_ci_high"]).all()


def test_sensitivity_values_summarise_the_named_and_perturbed_weightings():
    sensitivity = pd.DataFrame({"rho": [0.6, 0.5], "ci_low": [0.1, -0.02], "bonf2_ci_high": [0.3, 0.05]},
                               index=["paper", "core roles only"])
    perturbed = np.linspace(0.4, 0.7, 401)
    values = C.sensitivity_values(sensitivity, perturbed)
    assert values["sens_rho_paper"] == 0.6 and values["sens_rho_core_roles_only"] == 0.5
    assert values["sens_diff_ci_low_core_roles_only"] == -0.02
    assert values["sens_perturbed_min"] == 0.4
    assert values["sens_perturbed_q025"] == pytest.approx(0.4 + 0.3 * C.PERTURBED_PERCENTILE / 100)
    assert values["sens_perturbed_q025_pct"] == C.PERTURBED_PERCENTILE
    assert values["sens_perturbed_median"] == pytest.approx(0.55)
    assert (values["sens_min_named_rho"], values["sens_max_named_rho"]) == (0.5, 0.6)
    assert values["sens_min_named_diff_ci_low"] == -0.02
    assert values["sens_min_named_diff_bonf2_ci_high"] == 0.05 and values["sens_n_named"] == 2


# --------------------------------------------------------------------------- Figure 8 (§5.4)


def test_figure8_values_key_the_mads_and_the_relative_profiles():
    relative = pd.DataFrame({"Modifiers": [1.0, 1.0, 1.0], "Swap-2": [0.6, 0.9, 0.8]},
                            index=["Human", "Mean-CN", "not a paper series"])
    mads = pd.Series({"Mean-CN": 0.3, "not a paper series": 0.1})
    values = C.figure8_values(relative, mads, ["Mean-CN"])
    assert values == {"mad_mean_cn": 0.3, "fig8_human_modifiers": 1.0, "fig8_human_swap_2": 0.6,
                      "fig8_mean_cn_modifiers": 1.0, "fig8_mean_cn_swap_2": 0.9}


def _profile_draws(human: dict, model: dict, n: int = 50):
    point = pd.DataFrame({"Human": human, "M": model}).T
    rng = np.random.default_rng(0)
    draws = {name: pd.DataFrame({c: v + rng.normal(0, 0.01, n) for c, v in row.items()})
             for name, row in point.iterrows()}
    return point, draws


def test_figure8_contrasts_read_the_human_steps_and_the_fall_gap():
    human = {"Single": 0.6, "Swap-2": 0.5, "Swap-3": 0.45, "Swap-4": 0.4}
    model = {"Single": 0.9, "Swap-2": 0.9, "Swap-3": 0.9, "Swap-4": 0.85}
    point, draws = _profile_draws(human, model)
    out = contrasts.figure8_contrasts(point, draws, ["M"])
    assert list(out) == ["fig8_human_step_single_swap_2", "fig8_human_step_swap_2_swap_3",
                         "fig8_human_step_swap_3_swap_4", "fig8_fall_gap_m"]
    assert out["fig8_human_step_single_swap_2"]["value"] == pytest.approx(0.1)
    assert out["fig8_fall_gap_m"]["value"] == pytest.approx((0.6 - 0.4) - (0.9 - 0.85))
    for interval in out.values():
        assert interval["ci_low"] < interval["value"] < interval["ci_high"]


def test_figure8_contrasts_of_families_glue_the_keys_the_claims_read():
    """With the chapter's series and families, the contrasts give every key that
    human-similarity-falls-with-swaps, transformers-insensitive-to-swaps and
    verbnet-cn-intermediate-sensitivity read, the Bonferroni intervals containing the 95% ones."""
    from compsem import claims
    from compsem.sts.families import UNION_FAMILIES

    categories = {"Single": 0.6, "Swap-2": 0.5, "Swap-3": 0.45, "Swap-4": 0.4}
    models = ["Mean-CN", "SentBERT", "OpenAI", "DefSent", "VerbNet-CN"]
    point = pd.DataFrame({"Human": categories} | {m: {c: v + 0.1 * i for c, v in categories.items()}
                                                  for i, m in enumerate(models)}).T
    point[[c for c in FIGURE8_CATEGORIES if c not in categories]] = 1.0
    rng = np.random.default_rng(0)
    draws = {name: pd.DataFrame({c: v + rng.normal(0, 0.02, 400) for c, v in row.items()})
             for name, row in point.iterrows()}
    out = contrasts.figure8_contrasts(point, draws, models, step_family=UNION_FAMILIES["human_steps"],
                                      fall_family=UNION_FAMILIES["fall_gaps"])
    out |= contrasts.mad_gaps(point, draws, ["VerbNet-CN", "DefSent"], ["SentBERT", "OpenAI"],
                              family=UNION_FAMILIES["mad_gaps"])
    values = C.interval_values(out) | {"fig8_human_single": 0.6, "fig8_human_swap_4": 0.4}
    for claim_id in ("human-similarity-falls-with-swaps", "transformers-insensitive-to-swaps",
                     "verbnet-cn-intermediate-sensitivity"):
        claim = next(c for c in claims.load("sts3k") if c.id == claim_id)
        assert claims.missing_keys(claim, values) == [], claim_id
    for interval in out.values():
        (k,) = {int(m) for part in interval for m in re.findall(r"^bonf(\d+)_", part)}
        assert interval[f"bonf{k}_ci_low"] <= interval["ci_low"] <= interval["ci_high"] <= interval[f"bonf{k}_ci_high"]
    step = (draws["Human"]["Single"] - draws["Human"]["Swap-2"]).to_numpy()
    assert out["fig8_human_step_single_swap_2"]["bonf3_ci_low"] == pytest.approx(np.quantile(step, 0.05 / 3 / 2))


def test_interval_of_a_family_is_the_bonferroni_percentile_interval():
    draws = np.random.default_rng(3).normal(size=5000)
    single = contrasts.interval(0.0, draws)
    assert set(single) == {"value", "ci_low", "ci_high"}
    family = contrasts.interval(0.0, draws, family=6)
    assert {key: family[key] for key in single} == single
    assert family["bonf6_ci_low"] == pytest.approx(np.quantile(draws, 0.05 / 6 / 2))
    assert family["bonf6_ci_high"] == pytest.approx(np.quantile(draws, 1 - 0.05 / 6 / 2))
    assert C.interval_values({"g": family})["g_bonf6_ci_low"] == family["bonf6_ci_low"]


def test_within_gaps_are_each_hybrid_minus_each_rival():
    point = pd.Series({"VerbNet-CN": 0.3, "AMR-CN": 0.25, "DefSent": 0.2, "OpenAI": 0.1})
    draws = pd.DataFrame({k: v + np.random.default_rng(1).normal(0, 0.02, 100) for k, v in point.items()})
    out = contrasts.within_gaps(point, draws, ["VerbNet-CN", "AMR-CN"], ["DefSent", "OpenAI"])
    assert list(out) == ["within_gap_verbnet_cn_minus_defsent", "within_gap_verbnet_cn_minus_openai",
                         "within_gap_amr_cn_minus_defsent", "within_gap_amr_cn_minus_openai"]
    assert out["within_gap_amr_cn_minus_openai"]["value"] == pytest.approx(0.15)
    assert out["within_gap_amr_cn_minus_openai"] == contrasts.interval(
        0.25 - 0.1, draws["AMR-CN"] - draws["OpenAI"])
    family = contrasts.within_gaps(point, draws, ["VerbNet-CN", "AMR-CN"], ["DefSent", "OpenAI"], family=4)
    assert family["within_gap_amr_cn_minus_openai"] == contrasts.interval(
        0.25 - 0.1, draws["AMR-CN"] - draws["OpenAI"], family=4)
    assert "bonf4_ci_low" in family["within_gap_verbnet_cn_minus_defsent"]


def test_interval_values_glue_the_value_under_the_key_itself():
    intervals = {"gap": {"value": 0.2, "ci_low": 0.1, "ci_high": 0.3}}
    assert C.interval_values(intervals) == {"gap": 0.2, "gap_ci_low": 0.1, "gap_ci_high": 0.3}


def test_within_category_summary_weights_the_categories_by_their_pairs():
    rows = []
    for k, category in enumerate(FIGURE8_CATEGORIES):
        rows.append({"series": "A", "category": category, "n": 10 * (k + 1), "rho": 0.1 * k})
        rows.append({"series": "B", "category": category, "n": 10 * (k + 1), "rho": 0.5})
    within = pd.DataFrame(rows)
    table, values = C.within_category_summary(within, ["B", "A"])
    n = np.arange(1, 9) * 10
    expected = float((0.1 * np.arange(8) * n).sum() / n.sum())
    assert values["within_weighted_a"] == pytest.approx(expected)
    assert values["within_weighted_b"] == pytest.approx(0.5)
    assert values["within_rho_a_swap_2"] == pytest.approx(0.3)
    assert list(table.columns) == ["B", "A"]
    assert list(table.index) == [*FIGURE8_CATEGORIES, "weighted mean"]
    assert table.loc["weighted mean", "A"] == pytest.approx(expected)


# --------------------------------------------------------------------------- generated pairs


def test_core_roles_keep_agent_verb_and_the_object_under_patient():
    frame = pd.DataFrame([{"Agent": "the dog", "Verb": "gave", "Patient": None, "Theme": "a bone",
                           "Time": "today"},
                          {"Agent": "the cat", "Verb": "saw", "Patient": "the bird", "Theme": "to me"}])
    core = roles.core_roles(frame)
    assert list(core.columns) == list(ROLES)
    assert core["Patient"].tolist() == ["a bone", "the bird"]  # Theme only where there is no Patient
    assert core["Theme"].isna().all() and core["Time"].isna().all()
    assert core["Agent"].tolist() == ["the dog", "the cat"]


def test_gold_roles_stack_the_generated_roles_by_row_and_sentence():
    generated = generator.generate({"SWAP_SUBJ_DOBJ": 2, "AB_VERB": 1}, seed=0)
    gold = generator.gold_roles(generated)
    assert list(gold.columns) == list(ROLES)
    assert gold.index.names == ["row", "sentence"]
    assert list(gold.index) == [(0, "a"), (0, "b"), (1, "a"), (1, "b"), (2, "a"), (2, "b")]
    for row in range(3):
        for side in ("a", "b"):
            phrases = {role: phrase for role, phrase in generated.iloc[row][f"roles_{side}"].items() if phrase}
            assert gold.loc[(row, side)].dropna().to_dict() == phrases


def test_label_generated_indexes_the_labels_like_the_gold_roles(nlp):
    generated = generator.generate({"SWAP_SUBJ_DOBJ": 2}, seed=1)
    predicted = C.label_generated(generated)
    gold = generator.gold_roles(generated)
    assert predicted.index.equals(gold.index)
    expected = roles.label_roles([generated.iloc[1]["sentence_b"]], nlp=nlp).iloc[0]
    assert predicted.loc[(1, "b")].tolist() == expected.tolist()


def test_role_recovery_scores_agent_verb_and_object_per_manipulation():
    generated = generator.generate({"SWAP_SUBJ_DOBJ": 3, "AB_VERB": 2}, seed=0)
    gold = generator.gold_roles(generated)
    predicted = gold.copy()
    swaps = np.flatnonzero(generated["category"] == "SWAP_SUBJ_DOBJ")
    swapped = np.isin(predicted.index.get_level_values("row"), swaps)  # Agent and Patient exchanged
    predicted.loc[swapped, ["Agent", "Patient"]] = predicted.loc[swapped, ["Patient", "Agent"]].to_numpy()
    recovery = C.role_recovery(generated, predicted, gold)
    assert list(recovery.index) == [c for c in generator.CATEGORIES if c in ("SWAP_SUBJ_DOBJ", "AB_VERB")]
    assert list(recovery.columns) == ["Agent", "Verb", "Object (Patient or Theme)"]
    assert recovery.loc["AB_VERB"].tolist() == [1.0, 1.0, 1.0]
    assert recovery.loc["SWAP_SUBJ_DOBJ", "Verb"] == 1.0
    assert recovery.loc["SWAP_SUBJ_DOBJ", "Agent"] == 0.0


def test_generated_profile_averages_verbnet_per_manipulation():
    generated = generator.generate({"SWAP_SUBJ_DOBJ": 2, "AB_VERB": 2}, seed=0)
    gold = generator.gold_roles(generated)
    words = {w for phrase in gold.stack().tolist() for w in str(phrase).lower().split()}
    rng = np.random.default_rng(2)
    vectors = FakeVectors({w: rng.normal(size=3) for w in words})
    profile = C.generated_profile(generated, [], gold, gold, "v", vectors, (), "fixed")
    assert list(profile.columns) == ["VerbNet (v, gold roles)", "VerbNet (v, our labeller)"]
    sims = hybrid.combine(hybrid.role_similarities(gold.xs("a", level="sentence"), gold.xs("b", level="sentence"),
                                                   word_vectors=vectors, stopwords=()))
    swaps = (generated["category"] == "SWAP_SUBJ_DOBJ").to_numpy()
    assert profile.loc["AB_VERB", "VerbNet (v, gold roles)"] == pytest.approx(sims[~swaps].mean())
    assert profile.loc["SWAP_SUBJ_DOBJ", "VerbNet (v, our labeller)"] == pytest.approx(sims[swaps].mean())


# --------------------------------------------------------------------------- sts3k-finetune


def test_pair_embeddings_compose_or_encode_the_a_and_b_sentences(monkeypatch):
    import compsem.models
    from compsem.sts import composition, scoring

    pairs = pd.DataFrame({"sentence_a": ["the dog bit", "a cat"], "sentence_b": ["the cat", "dogs bit"]})
    vectors = FakeVectors({"dog": [1.0, 0.0], "cat": [0.0, 1.0], "bit": [1.0, 1.0], "dogs": [2.0, 0.0]})
    monkeypatch.setattr(compsem.models, "get_encoder", lambda name: types.SimpleNamespace(word_vectors=vectors))
    monkeypatch.setattr(sts3k, "load_stopwords", lambda: frozenset({"the", "a"}))
    a, b = C.pair_embeddings("mean:fake", pairs)
    np.testing.assert_array_equal(a, composition.compose(pairs["sentence_a"], vectors, "mean",
                                                         stopwords=frozenset({"the", "a"})))
    np.testing.assert_allclose(b[1], [1.5, 0.5])  # mean of "dogs" and "bit"

    def encode(spec, sentences, device="auto", show_progress=True):
        return np.array([[len(s), i] for i, s in enumerate(sentences)], dtype=float)

    monkeypatch.setattr(scoring, "embed_unique", encode)
    a, b = C.pair_embeddings("minilm", pairs)
    assert a[:, 1].tolist() == [0, 1] and b[:, 1].tolist() == [2, 3]  # A sentences first, then B
    assert b[0, 0] == len("the cat")


def test_published_row_picks_one_file_or_says_none_exists():
    published = pd.DataFrame({"features": ["verbnet", "verbnet", "mpnet"], "regressor": ["nn3", "nn3", "nn3"],
                              "split": ["adversarial", "random", "adversarial"], "n_components": [8, 8, 8],
                              "rho_adv": [0.5, 0.6, 0.1]})
    assert C.published_row(published, "verbnet", "nn3", "random", 8)["rho_adv"] == 0.6
    with pytest.raises(KeyError, match="nn5"):
        C.published_row(published, "verbnet", "nn5", "random", 8)


@pytest.mark.needs_data
def test_published_row_reads_figure7_verbnet_bars():
    """The VerbNet-CN bars of Figure 7 come from the authors' prediction files (§5.3)."""
    from compsem.report import load_targets
    from compsem.sts import regressors

    published = regressors.published_grid(sts3k.load_pairs())
    adversarial = C.published_row(published, "verbnet", "nn3", "adversarial", 8)
    target = load_targets("sts3k")["fig7_verbnet_adversarial"]
    assert adversarial["rho_adv"] == pytest.approx(target["paper"], abs=target.get("tol", 0.005))


def _fake_evaluate_split(calls):
    """A stand-in for finetune.evaluate_split: records each call; a model's similarity is the
    human rating plus noise whose size depends on the split it trained on (more noise, a lower
    rho, for the adversarial split), seeded by the training seed."""
    def evaluate_split(model, pairs, train_idx, test_idx, epochs=4, seed=0, device="auto", show_progress=False):
        calls.append((model, tuple(train_idx), tuple(test_idx), seed))
        trained_on_adv = bool((pairs["portion"].iloc[train_idx] == "adv").any())
        noise = 0.1 if trained_on_adv else 1.0
        rng = np.random.default_rng(seed)
        test = pairs.iloc[test_idx]
        sim = test["human"].to_numpy() + noise * rng.standard_normal(len(test))
        predictions = pd.DataFrame({"human": test["human"], "portion": test["portion"].astype(str),
                                    "sim": sim, "sim_centred": sim - sim.mean()}, index=test.index)
        return {"predictions": predictions, "wall_s": 1.0,
                "rho_by_portion_centred": {"adv": spearman(sim[test["portion"].to_numpy() == "adv"],
                                                           test["human"].to_numpy()[test["portion"].to_numpy() == "adv"])}}
    return evaluate_split


def test_finetune_runs_draw_a_random_split_per_seed_and_decide_the_gap_over_seeds(monkeypatch):
    """§5.3 / Figure 7: seed s fine-tunes with training seed s on the fixed adversarial split and on
    random split s; the gap is scored on the same adversarial pairs and summarised over seeds."""
    from compsem.sts import finetune
    from compsem.sts import regressors as rg

    calls = []
    monkeypatch.setattr(finetune, "evaluate_split", _fake_evaluate_split(calls))
    pairs = _pairs(2000)
    runs, predictions = C.finetune_runs(["tiny"], ["adversarial", "random"], [0, 1, 2], pairs)
    assert runs[["split", "seed"]].values.tolist() == [["adversarial", 0], ["adversarial", 1], ["adversarial", 2],
                                                      ["random", 0], ["random", 1], ["random", 2]]
    adversarial = rg.adversarial_split(pairs)
    assert all(c[1] == tuple(adversarial["train"]) for c in calls[:3])
    for call, seed in zip(calls[3:], [0, 1, 2], strict=True):  # a random split of its own per seed
        assert call[1] == tuple(rg.random_split(len(pairs), seed)["train"]) and call[3] == seed
    gaps = C.transfer_gaps(predictions, n_resamples=200)
    assert gaps["seed"].tolist() == [0, 1, 2]
    for seed, row in gaps.set_index("seed").iterrows():  # the same adversarial pairs on both sides
        test = rg.random_split(len(pairs), seed)["test"]
        common = pairs.index[test][pairs["portion"].iloc[test] == "adv"]
        rand, adv = predictions[("tiny", "random", seed)], predictions[("tiny", "adversarial", seed)]
        expected = (spearman(rand.loc[common, "sim_centred"], rand.loc[common, "human"])
                    - spearman(adv.loc[common, "sim_centred"], adv.loc[common, "human"]))
        assert row["n"] == len(common) and row["difference"] == pytest.approx(expected, abs=1e-12)
        interval = stats.paired_spearman_difference(rand.loc[common, "sim_centred"], adv.loc[common, "sim_centred"],
                                                    rand.loc[common, "human"], n_resamples=200, seed=0)
        assert (row["ci_low"], row["ci_high"]) == (interval["ci_low"], interval["ci_high"])
    clusters = pd.Series(shared_sentences.sentence_clusters(pairs), index=pairs.index)
    clustered = C.transfer_gaps(predictions, n_resamples=200, clusters=clusters).set_index("seed")
    for seed, row in clustered.iterrows():  # clusters of the common pairs, read by label
        common = predictions[("tiny", "random", seed)].index.intersection(
            predictions[("tiny", "adversarial", seed)].index)
        common = common[pairs.loc[common, "portion"].to_numpy() == "adv"]
        rand, adv = predictions[("tiny", "random", seed)], predictions[("tiny", "adversarial", seed)]
        interval = stats.paired_spearman_difference(rand.loc[common, "sim_centred"], adv.loc[common, "sim_centred"],
                                                    rand.loc[common, "human"], n_resamples=200, seed=0,
                                                    clusters=clusters.loc[common].to_numpy())
        assert (row["ci_low"], row["ci_high"]) == (interval["ci_low"], interval["ci_high"])
    reseeded = C.transfer_gaps(predictions, n_resamples=200, seed=9)  # the chapter's bootstrap seed reaches it
    pd.testing.assert_series_equal(reseeded["difference"], gaps["difference"])
    assert (reseeded["ci_low"] != gaps["ci_low"]).any()
    values = C.finetune_values(runs, gaps)
    # over seeds that draw overlapping random splits: Nadeau & Bengio's corrected t
    d = gaps["difference"].to_numpy()
    half = scipy_stats.t.ppf(0.975, 2) * d.std(ddof=1) * np.sqrt(1 / 3 + 0.15 / 0.70)
    assert values["finetune_tiny_transfer_gap_difference"] == pytest.approx(d.mean())
    low = values["finetune_tiny_transfer_gap_ci_low"]
    assert (low, values["finetune_tiny_transfer_gap_ci_high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    assert values["finetune_tiny_transfer_gap_n_seeds"] == 3 and low > 0  # the fake transfers badly
    assert values["finetune_tiny_random_adv"] == pytest.approx(runs.loc[runs["split"] == "random", "rho_adv"].mean())


def test_finetune_values_leave_the_interval_out_for_one_seed_and_runs_need_a_seed(monkeypatch):
    """One seed has no spread over seeds: the claim that needs the interval is then not evaluated
    (the keys are absent, not NaN, which would fail the run)."""
    from compsem.sts import finetune

    monkeypatch.setattr(finetune, "evaluate_split", _fake_evaluate_split([]))
    runs, predictions = C.finetune_runs(["tiny"], ["adversarial", "random"], [3], _pairs(200))
    values = C.finetune_values(runs, C.transfer_gaps(predictions, n_resamples=200))
    assert "finetune_tiny_transfer_gap_difference" in values and "finetune_tiny_transfer_gap_ci_low" not in values
    assert "finetune_tiny_adversarial_adv_ci_low" not in values
    with pytest.raises(ValueError, match="finetune_seeds"):
        C.finetune_runs(["tiny"], ["random"], [], _pairs(200))
    with pytest.raises(ValueError, match="unknown split 'dev'"):
        C.finetune_runs(["tiny"], ["dev"], [0], _pairs(200))


def test_finetune_paper_values_read_mpnet_only():
    runs = pd.DataFrame({"model": ["mpnet", "mpnet", "mpnet", "minilm"], "split": ["adversarial", "adversarial",
                                                                                 "10-fold", "adversarial"],
                         "seed": [0, 1, 0, 0], "rho_adv": [0.3, 0.5, 0.8, 0.1]})
    assert C.finetune_paper_values(runs) == {"ft_sentbert_adversarial": pytest.approx(0.4),
                                             "ft_sentbert_random_10fold": 0.8}
    assert C.finetune_paper_values(runs[runs["model"] == "minilm"]) == {}


@pytest.mark.needs_data
def test_random_split_heldout_verdicts_do_not_rest_on_the_bootstrap_seed():
    """random-split-heldout-mean-cn and -transformers are inconclusive, decided on the fails side by
    the five models' Bonferroni intervals (level 1 - .05/5, chapter.published_random_values):
    every family upper bound, Mean-CN's and DefSent's the lowest, stays above .65 for every
    bootstrap seed tried, while Mean-CN's 95% upper bound stays below it (the unadjusted interval
    would read 'fails'); on the holds side OpenAI's 95% lower bound stays below .65."""
    from compsem.sts import regressors as rg

    pairs = sts3k.load_pairs()
    human = pairs["human"].to_numpy()
    heldout = ~np.isin(np.arange(len(pairs)), rg.published_training_rows(pairs))
    files = rg.published_grid(pairs)
    family_files = files[(files["split"] == "random") & (files["n_components"] == 8)
                         & (files["regressor"] == "nn3") & files["features"].isin(C.RANDOM_SPLIT_FAMILY)]
    families = [C.published_random_values(family_files, human, heldout, n_resamples=C.HELDOUT_RESAMPLES, seed=seed)
                for seed in range(3)]
    for short in ("sentbert", "openai", "defsent", "ernie", "mean_cn"):
        highs = [family[f"pub_random_heldout_{short}_nn3_ci_family_high"] for family in families]
        assert min(highs) > 0.65 + 0.005 and np.std(highs) < 0.0015, (short, highs)
    mean_cn = rg.published_predictions("mean", "nn3", "random", 8)
    assert bootstrap_spearman(mean_cn, human, heldout, n_boot=C.HELDOUT_RESAMPLES, seed=0)[1] < 0.65
    openai = rg.published_predictions("openai_norml", "nn3", "random", 8)
    assert bootstrap_spearman(openai, human, heldout, n_boot=C.HELDOUT_RESAMPLES, seed=0)[0] < 0.65 - 0.005


@pytest.mark.needs_data
def test_published_copies_are_three_verbnet_no_pca_random_split_files():
    """App. 8.3.1: three of the authors' VerbNet-CN no-PCA random-split files repeat PCA-8 files'
    predictions (byte for byte); no other regressor file repeats another."""
    from compsem.sts import regressors as rg

    copies = rg.published_copies()
    assert copies[["features", "split", "n_components", "regressor", "same_as_n_components",
                   "same_as_regressor"]].values.tolist() == [["verbnet", "random", 2800, "nn1", 8, "nn3"],
                                                             ["verbnet", "random", 2800, "nn2", 8, "nn2"],
                                                             ["verbnet", "random", 2800, "reg", 8, "nn2"]]


def test_paper_portions_reads_the_paper_row_from_the_targets_in_portion_order():
    targets = {f"x_sts3k_{p}": {"paper": value} for p, value in zip(("all", "non", "adv"), (0.1, 0.2, 0.3), strict=True)}
    assert C.PORTIONS == ("all", "non", "adv")
    assert C.paper_portions(targets, "x") == [0.1, 0.2, 0.3]


def test_finetune_seed_table_puts_the_paper_bars_beside_mpnet_only():
    from compsem.targets import load_targets

    targets = load_targets("sts3k")
    runs = pd.DataFrame([{"model": m, "split": s, "seed": seed, "rho_adv": 0.1 * seed}
                         for m in ("minilm", "mpnet") for s in ("adversarial", "random") for seed in (0, 1)]
                        + [{"model": "mpnet", "split": "10-fold", "seed": 0, "rho_adv": 0.8}])
    table = C.finetune_seed_table(runs, targets)
    assert list(table.index) == [0, 1, C.FINETUNE_PAPER_ROW]
    paper = table.loc[C.FINETUNE_PAPER_ROW]
    assert paper[("mpnet", "adversarial")] == targets["ft_sentbert_adversarial"]["paper"] == 0.41
    assert paper[("mpnet", "random")] == targets["ft_sentbert_random_10fold"]["paper"] == 0.866
    assert paper[("mpnet", "10-fold")] == 0.866
    assert np.isnan(paper[("minilm", "adversarial")]) and np.isnan(paper[("minilm", "random")])
    assert table.loc[1, ("minilm", "random")] == pytest.approx(0.1)  # ours untouched
    assert C.FINETUNE_PAPER_ROW not in C.finetune_seed_table(runs.assign(split="dev"), targets).index


def test_figure6_marks_the_plotted_sentbert_and_verbnet_values_of_both_splits():
    import matplotlib.pyplot as plt

    from compsem import plotting
    from compsem.sts import figures
    from compsem.sts import regressors as rg
    from compsem.targets import load_targets

    targets = load_targets("sts3k")
    grid = pd.DataFrame([{"split kind": k, "features": f, "regressor": r, "n_weights": rg.n_weights(r, 8),
                          "rho_test": 0.3} for k in ("random", "adversarial") for f in ("verbnet", "mpnet")
                         for r in rg.REGRESSORS for _ in range(2)])
    fig = figures.regressor_curves(grid, targets)
    try:
        for ax, split in zip(fig.axes, ("random", "adv"), strict=True):
            marks = {(round(float(x)), round(float(y), 6)) for c in ax.collections
                     if c.get_zorder() == plotting.PAPER["zorder"] for x, y in c.get_offsets()}
            for features in ("verbnet", "mpnet"):
                expected = {(rg.n_weights(r, 8), round(targets[f"ft_{split}_{features}_{r}"]["paper"], 6))
                            for r in ("reg", "nn1", "nn2", "nn3")}
                assert expected <= marks, (split, features)
            assert len(marks) == 8
    finally:
        plt.close(fig)


# --------------------------------------------------------------------------- the authors' random split


def _published_files(n: int = 60, seed: int = 5):
    """A published grid: the five models of the random-split family and VerbNet-CN, random and
    adversarial files, a no-PCA one and an untrained one; and the predictions of each file."""
    from compsem.sts import regressors as rg

    rng = np.random.default_rng(seed)
    rows = [{"features": f, "regressor": r, "split": "random", "n_components": 8}
            for f in (*C.RANDOM_SPLIT_FAMILY, "verbnet") for r in ("nn3", "reg")]
    rows += [{"features": "verbnet", "regressor": "nn5", "split": "random", "n_components": 2800},
             {"features": "verbnet", "regressor": "none", "split": "random", "n_components": 8},
             {"features": "verbnet", "regressor": "nn3", "split": "adversarial", "n_components": 8}]
    published = pd.DataFrame(rows)
    for column in ("rho_all", "rho_train", "rho_heldout"):
        published[column] = rng.uniform(0, 1, len(published))
    published["feature set"] = published["features"].map(lambda f: rg.PUBLISHED_LABELS[f][0])
    predictions = {(f, r): rng.normal(size=n) for f, r in zip(published["features"], published["regressor"], strict=True)}
    return published, predictions


def test_published_random_split_reads_the_split_off_the_files_and_scores_them(monkeypatch):
    from compsem.sts import regressors as rg

    pairs = _pairs(60)
    published, predictions = _published_files(60)
    monkeypatch.setattr(rg, "published_predictions", lambda features, regressor, split, n: predictions[(features, regressor)])
    train_rows = np.arange(0, 60, 3)
    published_ft = pd.DataFrame({"condition": ["no training", "random split (train/test)"],
                                 "rho_train_adv": [0.1, np.float64(0.9)], "rho_heldout_adv": [0.2, np.float64(0.3)]})
    random_files, values = C.published_random_split(pairs, published, train_rows, published_ft)
    chosen = (published["split"] == "random") & (published["regressor"] != "none")
    pd.testing.assert_frame_equal(random_files, published[chosen])
    heldout = np.ones(60, dtype=bool)
    heldout[train_rows] = False
    clusters = shared_sentences.sentence_clusters(pairs)
    scored = C.published_random_values(published[chosen], pairs["human"].to_numpy(), heldout, clusters=clusters)
    assert list(values.items()) == [("pub_inputs_openai", 2800), ("pub_inputs_defsent", 2 * 1024),  # min(2800, 2d)
                                    ("pub_random_n_train", 20), ("pub_random_n_heldout", 40), *scored.items(),
                                    ("pub_traintest_train_adv", 0.9), ("pub_traintest_heldout_adv", 0.3)]
    assert type(values["pub_traintest_train_adv"]) is float
    nn3 = published[chosen & (published["features"] == "mean") & (published["regressor"] == "nn3")].iloc[0]
    assert values["pub_random_heldout_mean_cn_nn3"] == nn3["rho_heldout"]
    low, high = bootstrap_spearman(predictions[("mean", "nn3")], pairs["human"].to_numpy(), heldout,
                                   n_boot=C.HELDOUT_RESAMPLES, seed=0, clusters=clusters)
    assert (values["pub_random_heldout_mean_cn_nn3_ci_low"], values["pub_random_heldout_mean_cn_nn3_ci_high"]) == \
        pytest.approx((low, high), abs=1e-12)
    # the chapter's resamples and seed reach the held-out intervals
    _, other = C.published_random_split(pairs, published, train_rows, published_ft, n_resamples=300, seed=5)
    low, high = bootstrap_spearman(predictions[("mean", "nn3")], pairs["human"].to_numpy(), heldout,
                                   n_boot=300, seed=5, clusters=clusters)
    assert (other["pub_random_heldout_mean_cn_nn3_ci_low"], other["pub_random_heldout_mean_cn_nn3_ci_high"]) == \
        pytest.approx((low, high), abs=1e-12)
    assert other["pub_random_heldout_mean_cn_nn3_ci_low"] != values["pub_random_heldout_mean_cn_nn3_ci_low"]


def test_published_random_table_scores_each_pca8_file_on_each_set_of_rows():
    published, _ = _published_files()
    random_files = published[(published["split"] == "random") & (published["regressor"] != "none")]
    table = C.published_random_table(random_files)
    assert list(table.columns) == ["reg", "nn3"]  # the order of regressors.REGRESSORS; no-PCA nn5 left out
    labels = list(dict.fromkeys(random_files["feature set"]))
    rows = ("all pairs", "training rows", "held-out rows")
    assert list(table.index) == [(label, row) for label in labels for row in rows]
    for file in random_files[random_files["n_components"] == 8].itertuples(index=False):
        for column, row in zip(("rho_all", "rho_train", "rho_heldout"), rows, strict=True):
            assert table.loc[(file[-1], row), file.regressor] == getattr(file, column)


def test_with_paper_hybrids_appends_the_papers_numberbatch_rows_from_the_targets():
    from compsem import report

    targets = report.load_targets("sts3k")
    table = pd.DataFrame({"all": [0.1], "non": [0.2], "adv": [0.3]}, index=["AMR-CN, glove50"])
    shown = C.with_paper_hybrids(table, targets)
    assert list(shown.index) == ["AMR-CN, glove50", "paper (Numberbatch): VerbNet-CN, corrected parses",
                                 "paper (Numberbatch): VerbNet-CN, GPT-4 parses", "paper (Numberbatch): AMR-CN"]
    assert shown.loc["paper (Numberbatch): AMR-CN", "adv"] == targets["table9_amr_cn_sts3k_adv"]["paper"]
    assert shown.loc["paper (Numberbatch): VerbNet-CN, GPT-4 parses", "non"] == targets[
        "verbnet_gpt4_glove50_sts3k_non"]["paper"]
    pd.testing.assert_frame_equal(shown.iloc[:1], table)  # ours unchanged, on top


def test_degradation_is_trained_minus_untrained_on_the_authors_files():
    """§5.3's "did not degrade": each adversarial-split file of the authors minus their untrained
    file, on the adversarial pairs (the rho of published_grid's files), with its 90% interval
    inside the Bonferroni one from the same resamples; the claim fails on one interval wholly
    below minus the margin, holds when every 90% interval reaches above it."""
    from compsem import claims
    from compsem.sts import regressors

    pairs = sts3k.load_pairs()
    table, values = C.published_degradation(pairs, n_resamples=500, seed=1)
    grid = regressors.published_grid(pairs)
    cell = grid[(grid.features == "verbnet") & (grid.split == "adversarial") & (grid.n_components == 8)]
    rho = dict(zip(cell.regressor, cell.rho_adv, strict=True))
    for r in ("reg", "nn1", "nn2", "nn3"):
        assert values[f"ft_degrade_verbnet_{r}"] == pytest.approx(rho[r] - rho["none"], abs=1e-12)
        assert (values[f"ft_degrade_verbnet_{r}_bonf4_ci_low"] <= values[f"ft_degrade_verbnet_{r}_ci90_low"]
                < values[f"ft_degrade_verbnet_{r}_ci90_high"] <= values[f"ft_degrade_verbnet_{r}_bonf4_ci_high"])
    assert values["ft_degrade_verbnet_untrained"] == pytest.approx(rho["none"])
    assert list(table.index) == ["reg", "nn1", "nn2", "nn3"]
    claim = next(c for c in claims.load("sts3k") if c.id == "verbnet-adversarial-split-no-degradation")
    flat = {**values, **{f"ft_degrade_verbnet_{r}_{side}": v for r in ("reg", "nn1", "nn2", "nn3")
                         for side, v in (("ci90_low", -0.04), ("ci90_high", 0.01),
                                         ("bonf4_ci_low", -0.045), ("bonf4_ci_high", 0.02))}}
    assert claims.verdict(claim, flat) == "holds"
    assert claims.verdict(claim, {**flat, "ft_degrade_verbnet_nn2_ci90_low": -0.06}) == "inconclusive"
    below = {"ft_degrade_verbnet_nn2_ci90_low": -0.07, "ft_degrade_verbnet_nn2_ci90_high": -0.055}
    assert claims.verdict(claim, {**flat, **below, "ft_degrade_verbnet_nn2_bonf4_ci_high": -0.051}) == "fails"
    assert claims.verdict(claim, {**flat, **below, "ft_degrade_verbnet_nn2_bonf4_ci_high": -0.049}) == "inconclusive"


def test_the_papers_transfer_gap_is_figure_7s_two_fine_tuned_bars():
    targets = {"fig7_sentbert_random_10fold": {"paper": 0.866}, "fig7_sentbert_adversarial": {"paper": 0.41}}
    assert C.paper_transfer_gap(targets) == pytest.approx(0.456)


def test_cluster_widths_compare_the_pair_and_the_cluster_bootstrap_of_each_published_row():
    from compsem.sts.similarity import bootstrap_spearman

    pairs = sts3k.load_pairs()
    table, values = C.cluster_widths(pairs, n_resamples=200, seed=1)
    assert list(table.index) == list(table9.PUBLISHED_ROWS)
    sims = sts3k.load_published_similarities(table9.cell_file("VerbNet-CN", "STS3k-adv"))
    adv, human = sts3k.portion_mask(pairs, "adv"), pairs["human"].to_numpy()
    clusters = shared_sentences.sentence_clusters(pairs)
    by_pair = bootstrap_spearman(sims, human, adv, n_boot=200, seed=1)
    by_cluster = bootstrap_spearman(sims, human, adv, n_boot=200, seed=1, clusters=clusters)
    assert table.loc["VerbNet-CN", "pairs"] == pytest.approx(by_pair[1] - by_pair[0])
    assert table.loc["VerbNet-CN", "clusters"] == pytest.approx(by_cluster[1] - by_cluster[0])
    assert values["cluster_width_ratio_median"] == pytest.approx(table["ratio"].median())
    assert values["cluster_width_ratio_min"] <= values["cluster_width_ratio_median"] <= values["cluster_width_ratio_max"]


def test_finetune_split_words_say_what_the_seeds_spread_over():
    assert "own split" in C.finetune_split_words(None) and "the split" in C.finetune_split_words(None)
    assert C.finetune_split_words(3).startswith("uses the one split of seed 3") and "alone" in C.finetune_split_words(3)
