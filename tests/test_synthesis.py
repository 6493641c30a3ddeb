"""compsem.synthesis: batteries side by side across encoders, on small synthetic scorecards."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from compsem import synthesis


def card(values_a, values_b, measure_a="A", measure_b="B", half_width=0.05):
    """A scorecard table with one value of each measure per model m0, m1, ..."""
    rows = []
    for i, (a, b) in enumerate(zip(values_a, values_b, strict=True)):
        for battery, measure, v in (("sts", measure_a, a), ("probing", measure_b, b)):
            if v is None:
                continue
            rows.append(dict(model=f"m{i}", battery=battery, measure=measure, value=v,
                             low=v - half_width, high=v + half_width, ceiling=np.nan))
    return pd.DataFrame(rows)


def test_perfect_agreement_and_reversal():
    same = synthesis.rank_agreement(card([0.1, 0.2, 0.3, 0.4, 0.5], [50, 60, 70, 80, 90]), "A", "B")
    assert same["rho"] == pytest.approx(1) and same["tau"] == pytest.approx(1)
    assert same["p"] == pytest.approx(1 / 120)  # only the identity ordering reaches rho = 1
    assert same["low"] == pytest.approx(1) and same["high"] == pytest.approx(1)
    rev = synthesis.rank_agreement(card([0.1, 0.2, 0.3, 0.4, 0.5], [90, 80, 70, 60, 50]), "A", "B")
    assert rev["rho"] == pytest.approx(-1) and rev["p"] == pytest.approx(1.0)


def test_known_spearman_and_interval_contains_estimate():
    a = [0.1, 0.5, 0.2, 0.7, 0.4, 0.9]
    b = [1.0, 3.0, 2.0, 4.0, 6.0, 5.0]
    out = synthesis.rank_agreement(card(a, b), "A", "B", n_boot=500, seed=1)
    d = np.array([1, 4, 2, 5, 3, 6]) - np.array([1, 3, 2, 4, 6, 5])  # ranks of a minus ranks of b
    assert out["rho"] == pytest.approx(1 - 6 * (d**2).sum() / (6 * 35))
    assert out["n"] == 6 and out["low"] <= out["rho"] <= out["high"]
    assert out["rho"] < synthesis.critical_rho(6) and 0.05 < out["p"] < 0.5  # positive, not significant
    assert out == synthesis.rank_agreement(card(a, b), "A", "B", n_boot=500, seed=1)  # seeded


def test_encoders_missing_a_measure_are_left_out():
    table = card([0.1, 0.2, None, 0.4], [1.0, 2.0, 3.0, 4.0])
    assert list(synthesis.paired(table, "A", "B").index) == ["m0", "m1", "m3"]
    with pytest.raises(ValueError, match="at least 3 encoders"):
        synthesis.rank_agreement(card([0.1, 0.2, None], [1.0, 2.0, 3.0]), "A", "B")


def test_unknown_measure_names_what_exists():
    with pytest.raises(ValueError, match="no measure \\['C'\\].*A, B"):
        synthesis.rank_agreement(card([0.1, 0.2, 0.3], [1, 2, 3]), "A", "C")
    with pytest.raises(ValueError, match="no measure"):
        synthesis.phenomenon_table(card([0.1], [1.0]), [("A", "nope")])


def test_critical_rho_matches_published_tables():
    # one-sided 5% critical values of Spearman's rho (e.g. Zar 1972, Table 1): n=5 .900, n=6 .829
    assert synthesis.critical_rho(5) == pytest.approx(0.9)
    assert synthesis.critical_rho(6) == pytest.approx(0.829, abs=1e-3)
    with pytest.raises(ValueError, match="3..8"):
        synthesis.critical_rho(12)


def test_phenomenon_table_and_glue_values():
    table = card([0.1, 0.2, 0.3], [60.0, 70.0, 80.0], "STS3k within Negative", "Negation accuracy")
    shown = synthesis.phenomenon_table(table, synthesis.PHENOMENA["negation"][:1])
    assert shown.loc["m0", "STS3k within Negative"] == "0.10 [0.05, 0.15]"
    assert shown.loc["m2", "Negation accuracy"].startswith("80.0 [")
    agreement = synthesis.agreement_table(table, n_boot=50)
    assert list(agreement["phenomenon"]) == ["negation"]
    values = synthesis.glue_values(table, agreement)
    assert values["syn_sts3k_within_negative_m1"] == pytest.approx(0.2)
    assert values["syn_agree_sts3k_within_negative_vs_negation_accuracy_n"] == 3
    assert not any(isinstance(v, float) and math.isnan(v) for v in values.values())


def test_wide_table_puts_models_in_columns():
    table = card([0.1, 0.2], [1.0, 2.0])
    out = synthesis.wide(table)
    assert list(out.columns) == ["m0", "m1"] and out.loc[("probing", "B"), "m1"] == 2.0


def test_agreement_table_skips_pairs_with_too_few_encoders():
    table = card([0.1, 0.2], [60.0, 70.0], "STS3k within Negative", "Negation accuracy")
    out = synthesis.agreement_table(table)
    assert out.empty and "rho" in out.columns
    assert synthesis.glue_values(table, out)["syn_sts3k_within_negative_m0"] == pytest.approx(0.1)


def test_group_range_over_the_models_scored():
    table = card([0.1, 0.5, 0.3], [1.0, 2.0, 3.0])
    assert synthesis.group_range(table, "A", ["m0", "m2", "not run"]) == (0.1, 0.3)
    with pytest.raises(ValueError, match="none of"):
        synthesis.group_range(table, "A", ["x"])


def test_available_keeps_pairs_the_table_has():
    table = card([0.1, 0.2, 0.3], [1.0, 2.0, 3.0])
    assert synthesis.available(table, [("A", "B"), ("A", "Order accuracy")]) == [("A", "B")]


def test_constant_measure_cannot_rank():
    out = synthesis.rank_agreement(card([1.0, 1.0, 1.0, 1.0], [1.0, 2.0, 3.0, 4.0]), "A", "B", n_boot=50)
    assert math.isnan(out["rho"]) and math.isnan(out["p"]) and out["n_boot_used"] == 0


@pytest.mark.needs_data
def test_scorecards_on_worker_processes_equal_the_serial_table():
    """The chapter runs its scorecards on two processes; the table must not depend on it."""
    options = dict(n_boot=50, seed=0, device="cpu", progress=False)
    serial = synthesis.scorecards(["glove50", "spacy-md"], ["sts"], ["sts"], **options)
    parallel = synthesis.scorecards(["glove50", "spacy-md"], ["sts"], ["sts"], n_jobs=2, **options)
    assert list(serial.model.unique()) == ["glove50", "spacy-md"]
    pd.testing.assert_frame_equal(serial, parallel)
    with pytest.raises(ValueError, match="n_jobs"):
        synthesis.scorecards(["glove50"], ["sts"], n_jobs=0)


def test_rank_agreement_reads_scores_equal_but_for_rounding_as_ties():
    """Two encoders with the same score (here 0.3, computed two ways) tie on every machine."""
    a_exact = [0.1, 0.3, 0.3, 0.5, 0.7]
    a_noisy = [0.1, 0.1 + 0.2, 0.3, 0.5, 0.7]  # 0.1 + 0.2 = 0.30000000000000004
    b = [1.0, 3.0, 2.0, 4.0, 5.0]
    assert a_noisy[1] != a_exact[1]
    exact = synthesis.rank_agreement(card(a_exact, b), "A", "B", n_boot=200)
    noisy = synthesis.rank_agreement(card(a_noisy, b), "A", "B", n_boot=200)
    assert noisy == exact


def test_glue_values_give_each_agreement_the_critical_rho_of_its_n():
    table = card([0.1, 0.2, 0.3, 0.5, 0.4], [60.0, 70.0, 80.0, 90.0, 75.0],
                 "STS3k within Negative", "Negation accuracy")
    values = synthesis.glue_values(table, synthesis.agreement_table(table, n_boot=50))
    key = "syn_agree_sts3k_within_negative_vs_negation_accuracy"
    assert values[f"{key}_n"] == 5
    assert values[f"{key}_critical"] == pytest.approx(synthesis.critical_rho(5))


def test_expected_distinct_encoders_in_a_resample():
    assert synthesis.expected_distinct(1) == pytest.approx(1.0)
    assert synthesis.expected_distinct(5) == pytest.approx(5 * (1 - 0.8**5))
    assert synthesis.expected_distinct(6) == pytest.approx(4.0, abs=0.01)
    with pytest.raises(ValueError):
        synthesis.expected_distinct(0)


def test_difference_values_name_each_pair():
    differences = pd.DataFrame({"model_a": ["mpnet"], "model_b": ["spacy-md"], "rho_a": [0.5],
                                "rho_b": [0.3], "difference": [0.2], "low": [0.1], "high": [0.3],
                                "n": [500]})
    assert synthesis.difference_values(differences, "swap2") == {
        "syn_swap2_diff_mpnet_minus_spacy_md": 0.2,
        "syn_swap2_diff_mpnet_minus_spacy_md_low": 0.1,
        "syn_swap2_diff_mpnet_minus_spacy_md_high": 0.3,
    }


@pytest.mark.needs_data
def test_paired_within_differences_on_the_same_pairs():
    """The difference of two encoders' within-Swap-2 rho equals the difference of the
    scorecard's within-type rhos, and its paired interval contains it; an encoder not scored on
    the measure is left out, and an empty group gives an empty table."""
    from compsem import scorecard

    table = scorecard.run("glove50", ["sts"], subset=True, progress=False, n_boot=50)
    table = pd.concat([table, scorecard.run("overlap", ["sts"], subset=True, progress=False,
                                            n_boot=50)], ignore_index=True)
    out = synthesis.paired_within_differences(table, ["glove50", "minilm"], ["overlap"],
                                              n_boot=200)
    assert list(out["model_a"]) == ["glove50"] and list(out["model_b"]) == ["overlap"]
    rho = table[table.measure == "STS3k within Swap-2"].set_index("model")["value"]
    row = out.iloc[0]
    assert row["difference"] == pytest.approx(rho["glove50"] - rho["overlap"])
    assert row["low"] <= row["difference"] <= row["high"]
    assert synthesis.paired_within_differences(table, ["minilm"], ["overlap"]).empty


@pytest.mark.needs_data
def test_trainings_within_differences_average_over_the_trainings():
    """Over the trainings of one encoder (here two stand-in 'trainings', GloVe and spaCy
    means): the difference is the mean of the single-training differences, its interval
    resamples pairs and trainings and is at least as wide as it is uncertain, and one training
    is refused."""
    from compsem import scorecard

    table = pd.concat([scorecard.run(m, ["sts"], subset=True, progress=False, n_boot=50)
                       for m in ("glove50", "spacy-md", "overlap")], ignore_index=True)
    out = synthesis.trainings_within_differences(table, ["glove50", "spacy-md"], ["overlap", "bow"],
                                                 n_boot=300)
    assert list(out["model_b"]) == ["overlap"] and list(out["n_trainings"]) == [2]
    rho = table[table.measure == "STS3k within Swap-2"].set_index("model")["value"]
    row = out.iloc[0]
    expected = (rho["glove50"] + rho["spacy-md"]) / 2 - rho["overlap"]
    assert row["difference"] == pytest.approx(expected)
    assert row["low"] < row["difference"] < row["high"]
    single = synthesis.paired_within_differences(table, ["glove50", "spacy-md"], ["overlap"], n_boot=300)
    spread = abs(single["difference"].iloc[0] - single["difference"].iloc[1])
    assert row["high"] - row["low"] > spread / 2  # the trainings' disagreement is in the interval
    with pytest.raises(ValueError, match="at least two trainings"):
        synthesis.trainings_within_differences(table, ["glove50"], ["overlap"])


def test_trainings_intervals_are_the_hull_of_student_t_and_the_crossed_bootstrap():
    """Written out: the percentile interval of the trainings' means drawn with replacement in
    each resample (the picks of compsem.stats.resampled_unit_means), and mean +- t * sd / sqrt(n)
    over the trainings; the interval is their hull at every level."""
    from scipy import stats as sps

    rng = np.random.default_rng(5)
    values = np.array([0.15, 0.22, 0.19])
    resampled = values[:, None] + rng.normal(scale=0.03, size=(3, 400))
    levels = (0.95, 0.99)
    out = synthesis.trainings_intervals(values, resampled, np.random.default_rng(7), levels)
    picks = np.random.default_rng(7).integers(0, 3, size=(400, 3))
    boot = np.array([resampled[picks[r], r].mean() for r in range(400)])
    for level, (low, high) in zip(levels, out, strict=True):
        alpha = (1 - level) / 2
        b_low, b_high = np.quantile(boot, [alpha, 1 - alpha])
        half = sps.t.ppf(1 - alpha, 2) * values.std(ddof=1) / np.sqrt(3)
        assert (low, high) == pytest.approx((min(b_low, values.mean() - half),
                                             max(b_high, values.mean() + half)), abs=1e-12)
    assert out[1][0] <= out[0][0] and out[0][1] <= out[1][1]
    # one training: no t-interval, the bootstrap alone
    (alone,) = synthesis.trainings_intervals(values[:1], resampled[:1], np.random.default_rng(7), [0.95])
    assert alone == pytest.approx(np.quantile(resampled[0], [0.025, 0.975]))


def test_trainings_intervals_reach_beyond_the_trainings_range():
    """Three trainings far apart, each measured almost without error: the bootstrap over them
    stays inside their range, the Student-t interval (t = 4.30 with two degrees of freedom) and
    so the hull reach beyond it."""
    from compsem import stats

    values = np.array([0.1, 0.2, 0.3])
    resampled = values[:, None] + np.random.default_rng(0).normal(scale=1e-3, size=(3, 500))
    ((low, high),) = synthesis.trainings_intervals(values, resampled, np.random.default_rng(1), [0.95])
    boot = stats.resampled_unit_means(resampled, np.random.default_rng(1))
    assert values.min() - 0.01 < boot.min() and boot.max() < values.max() + 0.01
    _, t_low, t_high = stats.seed_interval(values, 0.95)
    assert (low, high) == pytest.approx((t_low, t_high))
    assert low < values.min() - 0.1 and high > values.max() + 0.1
    # bounds: a t-interval of correlations does not leave [-1, 1]
    ((low, high),) = synthesis.trainings_intervals([0.1, 0.9, 0.95], np.full((3, 10), 0.6),
                                                   np.random.default_rng(1), [0.95], synthesis.RHO)
    assert high == 1.0 and low > -1


@pytest.fixture
def strata_data(monkeypatch):
    """Constructed STS3k-like data: 600 pairs, 400 in the category with 0 to 3 added modifiers,
    three trainings of one encoder far apart, an order-blind encoder that gives 1 to a third of
    the 0-modifier pairs."""
    rng = np.random.default_rng(3)
    n = 600
    human = rng.normal(size=n)
    mask = np.arange(n) < 400
    n_modifiers = np.where(mask, np.arange(n) % 4, np.nan)
    sims = {"t0": 0.2 * human + rng.normal(size=n), "t1": 0.6 * human + rng.normal(size=n),
            "t2": 1.0 * human + rng.normal(size=n), "blind": 0.5 * human + rng.normal(size=n)}
    sims["blind"] = np.tanh(np.abs(sims["blind"]))  # in [0, 1)
    sims["blind"][mask & (n_modifiers == 0) & (np.arange(n) % 3 == 0)] = 1.0
    clusters = np.arange(n) // 3  # pairs three by three share a sentence
    monkeypatch.setattr(synthesis, "_category_pairs", lambda category: (human, mask, clusters))
    monkeypatch.setattr(synthesis, "_category_modifiers", lambda category: (n_modifiers, human, mask, clusters))
    monkeypatch.setattr(synthesis, "_sts3k_similarities", lambda m, seed, device, batch_size: sims[m])
    table = pd.DataFrame({"model": list(sims), "measure": "STS3k within Swap-2"})
    return table, human, mask, n_modifiers, sims, clusters


def test_trainings_within_differences_take_the_hull_over_the_trainings(strata_data):
    """The difference and the mean rho over trainings far apart: the intervals are those of
    trainings_intervals on the same resamples, and reach beyond the trainings' range."""
    from compsem import stats

    table, human, mask, _, sims, clusters = strata_data
    trainings = ["t0", "t1", "t2"]
    out = synthesis.trainings_within_differences(table, trainings, ["blind"], n_boot=300, seed=2,
                                                 extra_levels={"bonf3": stats.bonferroni_level(3)})
    row = out.iloc[0]
    h = stats.tie_values(human[mask])
    x = {m: stats.tie_values(sims[m][mask]) for m in [*trainings, "blind"]}
    rho = {m: stats.spearman(v, h) for m, v in x.items()}
    units = stats.resampling_units(clusters[mask], len(h))  # the clusters' pairs drawn together
    idx = np.random.default_rng(2).integers(0, units.max() + 1, size=(300, units.max() + 1))
    boot = {m: stats.spearman_of_resamples(v, h, idx, units) for m, v in x.items()}
    diffs = [rho[t] - rho["blind"] for t in trainings]
    expected = synthesis.trainings_intervals(
        diffs, np.stack([boot[t] - boot["blind"] for t in trainings]), np.random.default_rng([2, 3]),
        [0.95, stats.bonferroni_level(3)], synthesis.RHO_DIFFERENCE)
    assert (row["low"], row["high"]) == pytest.approx(expected[0])
    assert (row["low_bonf3"], row["high_bonf3"]) == pytest.approx(expected[1])
    assert row["difference"] == pytest.approx(np.mean(diffs))
    assert row["low"] < min(diffs) and row["high"] > max(diffs)  # the t-interval's reach
    rhos = [rho[t] for t in trainings]
    assert row["rho_a"] == pytest.approx(np.mean(rhos))
    assert (row["rho_a_low"], row["rho_a_high"]) == pytest.approx(synthesis.trainings_intervals(
        rhos, np.stack([boot[t] for t in trainings]), np.random.default_rng([2, 3]), [0.95], synthesis.RHO)[0])
    assert row["rho_a_low"] < min(rhos) and row["rho_a_high"] > max(rhos)
    assert synthesis.trainings_rho_values(out, "swap2") == {
        "syn_swap2_rho_t0_over_trainings": row["rho_a"],
        "syn_swap2_rho_t0_over_trainings_low": row["rho_a_low"],
        "syn_swap2_rho_t0_over_trainings_high": row["rho_a_high"]}
    plain = pd.DataFrame({"model_a": ["x"], "model_b": ["y"], "rho_a": [0.1]})
    assert synthesis.trainings_rho_values(plain, "swap2") == {}


def test_modifier_strata_split_the_category_by_added_modifiers(strata_data):
    from compsem import stats

    table, human, mask, n_modifiers, sims, clusters = strata_data
    out = synthesis.modifier_strata(table, ["blind", "unscored", "t2"], n_boot=200, seed=1)
    assert list(out["n_modifiers"]) == [0, 1, 2, 3, 0, 1, 2, 3]
    assert list(out["n"]) == [100] * 8
    blind = out[out["model"] == "blind"].set_index("n_modifiers")
    assert blind.loc[0, "identical"] == 34 and blind.loc[1:, "identical"].eq(0).all()
    assert out.loc[out["model"] == "t2", "identical"].eq(0).all()
    for r in out.itertuples():
        stratum = mask & (n_modifiers == r.n_modifiers)
        expected = stats.spearman_interval(sims[r.model], human, mask=stratum, n_resamples=200, seed=1,
                                           clusters=clusters)
        assert (r.rho, r.low, r.high) == pytest.approx(expected)
    values = synthesis.modifier_strata_values(out, "swap2")
    assert values["syn_swap2_modifiers_min"] == 0 and values["syn_swap2_modifiers_max"] == 3
    assert values["syn_swap2_mod0_n"] == 100 and values["syn_swap2_mod0_identical_blind"] == 34
    assert values["syn_swap2_mod2_rho_t2"] == pytest.approx(out.iloc[6]["rho"])
    assert values["syn_swap2_mod2_rho_t2_low"] == pytest.approx(out.iloc[6]["low"])
    assert synthesis.modifier_strata_values(out.iloc[:0], "swap2") == {}
    assert synthesis.modifier_strata(table, ["unscored"]).empty
    shown = synthesis.modifier_strata_display(out)
    assert list(shown.index) == ["blind", "t2"]
    assert list(shown.columns[:2]) == ["0 added (100 pairs): rho", "0 added: similarity 1"]
    assert shown.loc["blind", "0 added: similarity 1"] == 34
    r = out.iloc[0]
    assert shown.loc["blind", "0 added (100 pairs): rho"] == f"{r.rho:.2f} [{r.low:.2f}, {r.high:.2f}]"


@pytest.mark.needs_data
def test_left_out_sizes_count_what_the_subsets_skip():
    sizes = synthesis.left_out_sizes()
    assert sizes["syn_left_out_sts_sentences"] > 10_000  # SICK and STR-2022
    assert sizes["syn_left_out_aan_strings"] > 40_000  # the AAN test's strings


# --------------------------------------------------------------------------- the papers beside ours


def scorecard_of(cells):
    """A scorecard table from ``(model, battery, measure, value)`` rows (interval +- 0.01)."""
    return pd.DataFrame([dict(model=m, battery=b, measure=x, value=v, low=v - 0.01, high=v + 0.01,
                              ceiling=np.nan) for m, b, x, v in cells])


PAPER_CARD = scorecard_of([
    ("minilm", "sts", "STS3k-adv", -0.04), ("mpnet", "sts", "STS3k-adv", 0.145),
    ("glove50", "sts", "STS3k-adv", -0.18), ("spacy-md", "sts", "STS3k-adv", -0.07),
    ("overlap", "sts", "STS3k-adv", 0.2), ("mpnet", "sts", "STS3k within Swap-2", 0.5),
    ("sdae", "sts", "STS3k within Swap-2", 0.2), ("spacy-md", "sts", "STS3k within Swap-2", 0.3),
    ("minilm", "sts", "STS3k within Swap-2", 0.37),
    ("minilm", "modifiers", "NS S-I", 0.614), ("mpnet", "modifiers", "NS S-I", 0.667),
    ("spacy-md", "probing", "SemRole accuracy", 51.2), ("sdae", "probing", "SemRole accuracy", 67.2),
    ("bow", "probing", "SemRole accuracy", 51.7), ("minilm", "probing", "SemRole accuracy", 58.9),
    ("sdae", "probing", "SemRole selectivity", 8.0),
])


def test_overview_table_sets_the_papers_number_beside_ours():
    out = synthesis.overview_table(PAPER_CARD)
    adv, semrole = ("sts", "STS3k-adv"), ("probing", "SemRole accuracy")
    assert out.loc[adv, ("MPNet", "ours")] == pytest.approx(0.145)
    assert out.loc[adv, ("MPNet", "paper (SentBERT)")] == pytest.approx(0.145)  # Table 9
    assert out.loc[adv, ("GloVe 50d mean", "paper (Mean-CN)")] == pytest.approx(-0.291)
    assert out.loc[adv, ("spaCy mean", "paper (Mean-CN, BOW)")] == pytest.approx(-0.291)
    assert out.loc[semrole, ("spaCy mean", "paper (Mean-CN, BOW)")] == pytest.approx(51.3)
    assert out.loc[semrole, ("SDAE (recurrent, one training)", "paper (SDAE)")] == pytest.approx(63.7)
    assert out.loc[("modifiers", "NS S-I"), ("MiniLM", "paper (MiniLM)")] == pytest.approx(0.6136)
    # blank where the paper has no such number: the within-type rho, selectivity, other batteries
    assert math.isnan(out.loc[("sts", "STS3k within Swap-2"), ("MPNet", "paper (SentBERT)")])
    assert math.isnan(out.loc[("probing", "SemRole selectivity"), ("SDAE (recurrent, one training)", "paper (SDAE)")])
    assert math.isnan(out.loc[adv, ("MiniLM", "paper (MiniLM)")])
    # encoders without any paper counterpart get no paper column; every encoder keeps its own
    encoders = dict.fromkeys(out.columns.get_level_values("encoder"))
    assert list(encoders) == [synthesis.label(m) for m in dict.fromkeys(PAPER_CARD["model"])]
    assert [v for e, v in out.columns if e in ("one-hot BOW", "word overlap")] == ["ours", "ours"]
    values = synthesis.wide(PAPER_CARD)
    for model in values.columns:
        pd.testing.assert_series_equal(out[(synthesis.label(model), "ours")], values[model],
                                       check_names=False)


def test_paper_values_come_from_the_targets_files():
    from compsem.targets import load_targets

    cells = synthesis.paper_cells(PAPER_CARD)
    studies = {"sts": "sts3k", "probing": "probing", "modifiers": "modifiers"}
    for r in cells.itertuples():
        assert r.paper == load_targets(studies[r.battery])[r.key]["paper"]
    assert set(cells["key"]) >= {"table9_sentbert_sts3k_adv", "table9_mean_cn_sts3k_adv",
                                 "probe_2018_sdae_sr", "probe_2018_bow_sr"}


def test_phenomenon_table_puts_the_paper_column_after_its_measure():
    shown = synthesis.phenomenon_table(PAPER_CARD, [("STS3k within Swap-2", "SemRole accuracy")])
    assert list(shown.columns) == ["STS3k within Swap-2", "SemRole accuracy", "SemRole accuracy: paper"]
    paper = shown["SemRole accuracy: paper"]
    assert paper["sdae"] == "63.7 (SDAE)" and paper["spacy-md"] == "51.3 (BOW)"
    assert paper["bow"] == "" and paper["minilm"] == "" and paper["overlap"] == ""
    other = synthesis.phenomenon_table(PAPER_CARD, [("STS3k-adv", "NS S-I")])
    assert other.loc["mpnet", "STS3k-adv: paper"] == "0.145 (SentBERT)"
    assert other.loc["glove50", "STS3k-adv: paper"] == "-0.291 (Mean-CN)"
    assert other.loc["minilm", "NS S-I: paper"] == "0.6136 (MiniLM)"
    assert other.loc["mpnet", "NS S-I: paper"] == ""  # a stand-in, compared with nothing
    # no paper column where no encoder has a paper counterpart
    assert "A: paper" not in synthesis.phenomenon_table(card([0.1], [1.0]), [("A", "B")]).columns


def test_paper_sources_and_glued_paper_values():
    sources = synthesis.paper_sources(PAPER_CARD).set_index(["encoder", "battery"])
    assert sources.loc[("MPNet", "sts"), "paper row"] == "SentBERT"
    assert sources.loc[("MPNet", "sts"), "ours is"] == "the paper's model"
    assert sources.loc[("SDAE (recurrent, one training)", "probing"), "ours is"] == "substitute"
    assert sources.loc[("spaCy mean", "probing"), "source"] == "Ettinger et al. 2018, Table 2"
    assert ("one-hot BOW", "probing") not in sources.index
    glued = synthesis.paper_glue_values(PAPER_CARD)
    assert glued["syn_paper_sts3k_adv_mpnet"] == pytest.approx(0.145)
    assert glued["syn_paper_sts3k_adv_glove50"] == pytest.approx(-0.291)
    assert glued["syn_paper_semrole_accuracy_sdae"] == pytest.approx(63.7)
    assert "syn_paper_sts3k_within_swap_2_mpnet" not in glued
    assert not set(glued) & set(synthesis.glue_values(PAPER_CARD, synthesis.agreement_table(PAPER_CARD)))


def test_paper_number_as_printed():
    assert [synthesis.paper_number(v) for v in (92.9, 55.0, 0.145, -0.291, 0.5197, 1.0)] == [
        "92.9", "55.0", "0.145", "-0.291", "0.5197", "1.00"]


def test_the_chapter_shows_the_papers_beside_ours():
    """The synthesis chapter's overview and phenomenon tables are the ones with paper columns."""
    from compsem import paths

    source = (paths.PROJECT_DIR / "notebooks" / "synthesis.py").read_text(encoding="utf-8")
    assert "S.overview_table(table)" in source and "S.paper_sources(table)" in source
    assert "S.paper_glue_values(table)" in source
    assert "S.wide(table)" not in source  # the table without the papers
    assert source.count("S.phenomenon_table(") == 3


def test_batteries_run_and_agreement_display():
    table = pd.DataFrame({"model": ["minilm", "minilm", "glove50"], "battery": ["sts3k", "probing", "sts3k"]})
    ran = synthesis.batteries_run(table)
    assert list(ran.index) == [synthesis.label("minilm"), synthesis.label("glove50")]
    assert ran["spec"].tolist() == ["minilm", "glove50"]
    assert ran["batteries"].tolist() == ["sts3k, probing", "sts3k"]
    agreement = pd.DataFrame({"phenomenon": ["roles"], "measure_a": ["a"], "measure_b": ["b"], "n": [6],
                              "n_networks": [4],
                              "rho": [0.71234], "low": [0.1], "high": [0.956], "tau": [0.6], "p": [0.01234],
                              "extra": [1]})
    shown = synthesis.agreement_display(agreement)
    assert list(shown.columns) == ["phenomenon", "measure_a", "measure_b", "n", "n_networks", "rho", "interval",
                                   "tau", "p"]
    assert shown.loc[0, "interval"] == "[0.10, 0.96]"
    assert shown.loc[0, "rho"] == 0.712 and shown.loc[0, "p"] == 0.012


def test_layers_and_trainings_of_one_network_count_once():
    """The agreement claims count independent units: a layer, a first-token spec or another
    training shares its base's network."""
    assert [synthesis.network(m) for m in ("mpnet:layer6", "minilm:cls", "sdae:seed2", "glove50",
                                           "hf:org/model:layer3", "hf:org/model")] == [
        "mpnet", "minilm", "sdae", "glove50", "hf:org/model", "hf:org/model"]
    assert synthesis.n_networks(["minilm", "minilm:layer3", "mpnet", "mpnet:layer0", "mpnet:layer9",
                                 "glove50", "sdae", "sdae:seed1"]) == 4
    table = card([0.1, 0.2, 0.3, 0.4], [1.0, 2.0, 3.0, 4.0]).replace(
        {"model": {"m0": "mpnet", "m1": "mpnet:layer3", "m2": "glove50", "m3": "minilm:layer3"}})
    out = synthesis.rank_agreement(table, "A", "B", n_boot=50)
    assert (out["n"], out["n_networks"]) == (4, 3)
    glued = synthesis.glue_values(table, synthesis.agreement_table(
        table, {"x": (("A", "B"),)}, n_boot=50))
    assert glued["syn_agree_a_vs_b_n"] == 4 and glued["syn_agree_a_vs_b_n_networks"] == 3


def test_single_training_encoders_are_the_trained_ones_without_two_trainings():
    trainings = {"sdae": ["sdae", "sdae:seed1"]}
    assert synthesis.single_training_encoders(["minilm", "sdae"], trainings) == []
    assert synthesis.single_training_encoders(["minilm", "sdae"], {}) == ["sdae"]
    assert synthesis.single_training_encoders(["sdae"], {"sdae": ["sdae", "sdae"]}) == ["sdae"]


def test_an_agreement_claim_counts_networks_and_fails_below_a_medium_agreement():
    """Decided from 10 distinct networks on; fails when the interval excludes rho = .3."""
    from compsem import claims

    claim = next(c for c in claims.load("synthesis") if c.id == "role-order-batteries-agree")
    key = "syn_agree_sts3k_within_swap_2_vs_semrole_accuracy"
    weak = {f"{key}_n": 12, f"{key}_n_networks": 10, f"{key}_low": -0.2, f"{key}_high": 0.25,
            f"{key}_p": 0.4, f"{key}_rho": 0.05}
    assert claims.verdict(claim, weak) == "fails"
    assert claims.verdict(claim, {**weak, f"{key}_high": 0.35}) == "inconclusive"
    assert claims.verdict(claim, {**weak, f"{key}_n_networks": 5}) == "inconclusive"  # layers
    strong = {**weak, f"{key}_low": 0.2, f"{key}_high": 0.9, f"{key}_p": 0.01}
    assert claims.verdict(claim, strong) == "holds"
    assert claims.verdict(claim, {**strong, f"{key}_n_networks": 9}) == "inconclusive"
