"""The union of tests on which the synthesis claim order-blind-fail-both fails (data/claims/README.md,
"Decision rules"): its k (compsem.synthesis.role_order_union), the scorecard's and the
differences' intervals at Bonferroni's level from the same fits and resamples
(compsem.scorecard.probing.rows and compsem.synthesis.*_within_differences with
``extra_levels``: one set of resamples, read at every level, each level equal to a separate
call at that level), and the keys the chapter glues and the rule reads."""

from __future__ import annotations

import fnmatch

import numpy as np
import pandas as pd
import pytest

from compsem import claims, paths, stats, synthesis

ENCODERS = ["minilm", "mpnet", "glove50", "spacy-md", "sdae", "bow", "overlap"]
ORDER_BLIND = ["glove50", "spacy-md", "bow", "overlap"]
ORDER_AWARE = ["minilm", "mpnet", "sdae"]


def test_union_size_counts_the_probed_order_blind_encoders_and_the_differences():
    batteries = ["sts", "modifiers", "probing"]
    # SemRole: GloVe, spaCy, the bag of words (overlap has no vector to probe); differences:
    # three order-aware encoders minus GloVe, spaCy and overlap (the bag of words has no cosine)
    assert synthesis.role_order_union(ENCODERS, batteries, ORDER_BLIND, ORDER_AWARE) == 3 + 9
    assert synthesis.role_order_union(["glove50", "spacy-md", "minilm"], batteries,
                                      ["glove50", "spacy-md"], ["minilm"]) == 2 + 2  # smoke
    assert synthesis.role_order_union(ENCODERS, ["sts"], ORDER_BLIND, ORDER_AWARE) == 9
    assert synthesis.role_order_union(ENCODERS[:-1], batteries, ORDER_BLIND, ORDER_AWARE) == 3 + 6


def test_bonferroni_extra_levels_are_bonferronis():
    assert synthesis.bonferroni_extra_levels(12) == {"bonf12": pytest.approx(1 - 0.05 / 12)}
    assert synthesis.bonferroni_extra_levels(2, level=0.90) == {"bonf2": pytest.approx(0.95)}
    assert synthesis.bonferroni_extra_levels(0) == {}


def family(k=12, semrole=("glove50", "spacy-md", "bow"), n_differences=9):
    rows = []
    for model in [*semrole, "minilm"]:
        rows.append(dict(model=model, battery="probing", measure="SemRole accuracy", value=50.0,
                         low=47.0, high=53.0, ceiling=np.nan,
                         **{f"low_bonf{k}": 45.5, f"high_bonf{k}": 54.5}))
    differences = pd.DataFrame([{"model_a": a, "model_b": b, "rho_a": 0.4, "rho_b": 0.3,
                                 "difference": 0.1, "low": 0.02, "high": 0.18, "n": 500,
                                 f"low_bonf{k}": -0.01, f"high_bonf{k}": 0.21}
                                for a in ("minilm", "mpnet", "sdae")
                                for b in ("glove50", "spacy-md", "overlap")][:n_differences])
    return pd.DataFrame(rows), differences


def test_union_values_glue_the_order_blind_semrole_intervals_and_check_k():
    table, differences = family()
    out = synthesis.union_values(table, differences, 12, ORDER_BLIND)
    assert out.pop("syn_role_order_union_k") == 12
    assert out == {f"syn_semrole_accuracy_{m}_{side}_bonf12": v
                   for m in ("glove50", "spacy_md", "bow")
                   for side, v in (("low", 45.5), ("high", 54.5))}
    with pytest.raises(ValueError, match="not the k = 11"):
        synthesis.union_values(table, differences, 11, ORDER_BLIND)
    short_table, short = family(n_differences=8)
    with pytest.raises(ValueError, match="11, not the k = 12"):
        synthesis.union_values(short_table, short, 12, ORDER_BLIND)
    with pytest.raises(ValueError, match="extra_levels"):
        synthesis.union_values(table.drop(columns=["low_bonf12"]), differences, 12, ORDER_BLIND)
    # with the equivalence test's union level (scorecard_levels), its intervals are glued too
    eq = table.assign(low_eq_bonf12=44.0, high_eq_bonf12=56.0)
    out = synthesis.union_values(eq, differences, 12, ORDER_BLIND)
    assert out["syn_semrole_accuracy_glove50_low_eq_bonf12"] == 44.0
    assert out["syn_semrole_accuracy_bow_high_eq_bonf12"] == 56.0


def test_glue_values_glue_the_equivalence_intervals_where_the_scorecard_has_them():
    table, _ = family()
    table = table.assign(low_eq=48.0, high_eq=52.0)
    agreement = pd.DataFrame(columns=["measure_a", "measure_b", "rho", "tau", "low", "high", "p", "n"])
    values = synthesis.glue_values(table, agreement)
    assert values["syn_semrole_accuracy_glove50_low_eq"] == 48.0
    assert values["syn_semrole_accuracy_glove50_high_eq"] == 52.0
    assert values["syn_semrole_accuracy_glove50_low"] == 47.0
    assert "syn_semrole_accuracy_glove50_low_eq" not in synthesis.glue_values(family()[0], agreement)


def test_difference_values_glue_the_extra_levels_out_of_reach_of_the_rules_globs():
    _, differences = family()
    out = synthesis.difference_values(differences.iloc[:1], "swap2")
    base = "syn_swap2_diff_minilm_minus_glove50"
    assert out == {base: 0.1, f"{base}_low": 0.02, f"{base}_high": 0.18,
                   f"{base}_low_bonf12": -0.01, f"{base}_high_bonf12": 0.21}
    # the holds side's glob reads the 95% interval only, the fails side's the corrected one
    assert [k for k in out if fnmatch.fnmatchcase(k, "syn_swap2_diff_*_low")] == [f"{base}_low"]
    assert [k for k in out if fnmatch.fnmatchcase(k, "syn_swap2_diff_*_high_bonf12")] == [
        f"{base}_high_bonf12"]


def test_the_claim_fails_on_the_corrected_intervals_only():
    claim = next(c for c in claims.load("synthesis") if c.id == "order-blind-fail-both")
    table, differences = family()
    table = table.assign(low_eq_bonf12=45.2, high_eq_bonf12=54.8)
    values = synthesis.union_values(table, differences, 12, ORDER_BLIND)
    values |= synthesis.difference_values(differences, "swap2")
    values |= {f"syn_semrole_accuracy_{m}{side}": v for m in ("glove50", "spacy_md", "bow")
               for side, v in (("_low_eq", 47.0), ("_high_eq", 53.0))}
    values |= {"syn_probe_seeds": 3, "syn_single_training_encoders": 0}
    assert claims.verdict(claim, values) == "holds"
    # one probe seed, or a trained encoder decided on one training: too few units
    assert claims.judge(claim, {**values, "syn_probe_seeds": 1})[0] == "inconclusive"
    assert claims.judge(claim, {**values, "syn_single_training_encoders": 1})[0] == "inconclusive"
    # at chance is an equivalence test: the 90% interval (_eq) decides, not the 95% one
    wide95 = {**values, "syn_semrole_accuracy_bow_low": 44.0, "syn_semrole_accuracy_bow_high": 56.0}
    assert claims.verdict(claim, wide95) == "holds"
    assert claims.verdict(claim, {**values, "syn_semrole_accuracy_bow_low_eq": 44.0}) == "inconclusive"
    # one difference below 0 at 95% but not at Bonferroni's level: no failure, and no hold
    below = {**values, "syn_swap2_diff_sdae_minus_glove50_low": -0.08,
             "syn_swap2_diff_sdae_minus_glove50_high": -0.01}
    assert claims.verdict(claim, below) == "inconclusive"
    assert claims.verdict(claim, {**below, "syn_swap2_diff_sdae_minus_glove50_high_bonf12": -0.001}) == "fails"
    # an order-blind encoder off chance at 95% only
    off = {**values, "syn_semrole_accuracy_bow_low_eq": 55.5, "syn_semrole_accuracy_bow_high_eq": 60.0}
    assert claims.verdict(claim, off) == "inconclusive"
    assert claims.verdict(claim, {**off, "syn_semrole_accuracy_bow_low_eq_bonf12": 55.1}) == "fails"
    assert "Revised on review: the fails side read the 95% intervals, uncorrected" in claim.source


def test_the_chapter_computes_and_glues_the_family():
    source = (paths.PROJECT_DIR / "notebooks" / "synthesis.py").read_text()
    for call in ("S.role_order_union(encoders, batteries, order_blind, order_aware)",
                 "extra_levels=S.scorecard_levels(union_k)",
                 "extra_levels=S.bonferroni_extra_levels(union_k)",
                 "S.union_values(table, swap2_differences, union_k, order_blind)"):
        assert call in source, call
    assert source.count("extra_levels=S.scorecard_levels(union_k)") == 1  # the scorecards
    assert source.count("extra_levels=S.bonferroni_extra_levels(union_k)") == 2  # both differences


def swap2(n=900, seed=0):
    """Constructed STS3k-like data: human ratings, a category mask, similarities of five
    encoders (one with unscored pairs)."""
    rng = np.random.default_rng(seed)
    human = rng.normal(size=n)
    sims = {m: human * w + rng.normal(size=n)
            for m, w in (("minilm", 1.0), ("glove50", 0.3), ("overlap", 0.5), ("sdae", 0.6),
                         ("sdae:seed1", 0.7))}
    sims["overlap"][:30] = np.nan
    return human, rng.random(n) < 0.3, sims


LEVELS = (0.95, stats.bonferroni_level(12), stats.bonferroni_level(3))


def test_paired_difference_at_several_levels_is_paired_spearman_difference_at_each():
    """One set of BCa resamples read at every level, bit for bit the interval of
    compsem.stats.paired_spearman_difference at that level (the same pairs, seed, method)."""
    human, mask, sims = swap2()
    for b in ("glove50", "overlap"):
        d = synthesis.paired_difference(sims["minilm"], sims[b], human, mask, LEVELS, n_boot=400, seed=3)
        for level, interval in zip(LEVELS, d["intervals"], strict=True):
            ref = stats.paired_spearman_difference(sims["minilm"], sims[b], human, mask=mask,
                                                   n_resamples=400, seed=3, level=level)
            assert interval == (ref["ci_low"], ref["ci_high"])
            assert (d["rho_a"], d["rho_b"], d["difference"], d["n"]) == (
                ref["rho_a"], ref["rho_b"], ref["difference"], ref["n"])


def test_paired_difference_draws_its_resamples_once(monkeypatch):
    from scipy import stats as sps

    drawn, bootstrap = [], sps.bootstrap

    def counted(*args, **kwargs):
        drawn.append(kwargs["n_resamples"])
        return bootstrap(*args, **kwargs)

    monkeypatch.setattr(sps, "bootstrap", counted)
    human, mask, sims = swap2()
    synthesis.paired_difference(sims["minilm"], sims["glove50"], human, mask, LEVELS, n_boot=300)
    assert drawn == [300, 0, 0]


@pytest.fixture
def constructed_swap2(monkeypatch):
    human, mask, sims = swap2()
    clusters = np.arange(len(human)) // 2  # pairs two by two share a sentence
    monkeypatch.setattr(synthesis, "_category_pairs", lambda category: (human, mask, clusters))
    monkeypatch.setattr(synthesis, "_sts3k_similarities", lambda m, seed, device, batch_size: sims[m])
    return pd.DataFrame({"model": list(sims), "measure": "STS3k within Swap-2"})


def test_differences_with_extra_levels_equal_one_call_per_level(constructed_swap2):
    table = constructed_swap2
    extra = dict(zip(("bonf12", "bonf3"), LEVELS[1:], strict=True))
    for within, a in ((synthesis.paired_within_differences, ["minilm"]),
                      (synthesis.trainings_within_differences, ["sdae", "sdae:seed1"])):
        both = within(table, a, ["glove50", "overlap"], n_boot=300, extra_levels=extra)
        plain = within(table, a, ["glove50", "overlap"], n_boot=300)
        pd.testing.assert_frame_equal(both[list(plain.columns)], plain, check_exact=True)
        for name, level in extra.items():
            at = within(table, a, ["glove50", "overlap"], n_boot=300, level=level)
            assert both[f"low_{name}"].tolist() == at["low"].tolist()
            assert both[f"high_{name}"].tolist() == at["high"].tolist()
            assert (both[f"low_{name}"] <= both["low"]).all() and (both["high"] <= both[f"high_{name}"]).all()


@pytest.mark.needs_data
def test_differences_at_an_extra_level_come_from_the_same_resamples():
    """Paired (BCa, the same seed) and over trainings (percentiles of one set of resamples):
    the interval at Bonferroni's level contains the 95% one."""
    from compsem import scorecard

    table = pd.concat([scorecard.run(m, ["sts"], subset=True, progress=False, n_boot=50)
                       for m in ("glove50", "spacy-md", "overlap")], ignore_index=True)
    extra = synthesis.bonferroni_extra_levels(4)
    paired = synthesis.paired_within_differences(table, ["glove50"], ["overlap"], n_boot=300,
                                                 extra_levels=extra)
    trained = synthesis.trainings_within_differences(table, ["glove50", "spacy-md"], ["overlap"],
                                                     n_boot=300, extra_levels=extra)
    plain = synthesis.trainings_within_differences(table, ["glove50", "spacy-md"], ["overlap"],
                                                   n_boot=300, level=extra["bonf4"])
    for out in (paired, trained):
        row = out.iloc[0]
        assert row["low_bonf4"] <= row["low"] < row["high"] <= row["high_bonf4"]
    assert trained.iloc[0][["low_bonf4", "high_bonf4"]].tolist() == pytest.approx(
        plain.iloc[0][["low", "high"]].tolist())
    d = stats.paired_spearman_difference(*[synthesis._sts3k_similarities(m, 0, "auto", 64)
                                           for m in ("glove50", "overlap")],
                                         synthesis._category_pairs("Swap-2")[0],
                                         mask=synthesis._category_pairs("Swap-2")[1],
                                         n_resamples=300, seed=0, level=extra["bonf4"],
                                         clusters=synthesis._category_pairs("Swap-2")[2])
    assert (paired.iloc[0]["low_bonf4"], paired.iloc[0]["high_bonf4"]) == pytest.approx(
        (d["ci_low"], d["ci_high"]))


def test_scorecard_levels_add_the_equivalence_test_and_its_union_level():
    from compsem.stats import EQUIVALENCE_LEVEL

    levels = synthesis.scorecard_levels(12)
    assert levels == {"bonf12": pytest.approx(1 - 0.05 / 12), "eq": EQUIVALENCE_LEVEL,
                      "eq_bonf12": pytest.approx(1 - 0.10 / 12)}
    assert synthesis.scorecard_levels(0) == {"eq": EQUIVALENCE_LEVEL}
