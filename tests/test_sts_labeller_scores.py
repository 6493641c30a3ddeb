"""Tests of the labeller's in-sample / out-of-sample scoring (compsem.sts.labeller_scores), the
object conventions of compsem.sts.roles and the loader of the other sets' corrected parses."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from compsem.sts import labeller_scores, roles


def _frame(rows, texts=None):
    frame = pd.DataFrame(rows).reindex(columns=list(roles.ROLES))
    frame = frame.astype(object).where(frame.notna(), None)
    if texts is not None:
        frame["text"] = texts
    return frame


GOLD = _frame([{"Agent": "The boy", "Verb": "kicked", "Patient": "the ball"},
               {"Agent": "The girl", "Verb": "sent", "Patient": "the letter", "Theme": "to her aunt"},
               {"Agent": "A dog", "Verb": "chased", "Theme": "the old cat", "Time": "at night"}],
              texts=["The boy kicked the ball.", "The girl sent the letter to her aunt.",
                     "A dog chased the old cat at night."])
PREDICTED = _frame([{"Agent": "The boy", "Verb": "kicked", "Theme": "the ball"},  # object mislabelled
                    {"Agent": "The girl", "Verb": "sent", "Theme": "the letter", "Patient": "to her aunt"},
                    {"Agent": "A dog", "Verb": "chased", "Theme": "the cat", "Manner": "at night"}])


def test_row_counts_add_up_to_evaluate():
    counts = roles.row_counts(PREDICTED, GOLD)
    pooled = roles.evaluate(PREDICTED, GOLD).loc["ALL"]
    assert counts["n_pred"].sum() == pooled["n_pred"] and counts["n_gold"].sum() == pooled["n_gold"]
    assert math.isclose(counts["tp_lenient"].sum() / counts["n_pred"].sum(), pooled["P_lenient"])
    assert math.isclose(counts["tp_exact"].sum() / counts["n_gold"].sum(), pooled["R_exact"])
    # per row: boy: A, V right, object under the wrong label -> 2 of 3
    assert counts.loc[0].tolist() == [3, 3, 2, 2]
    with pytest.raises(ValueError, match="rows"):
        roles.row_counts(PREDICTED.iloc[:2], GOLD)


def test_pooled_objects_match_across_labels_one_to_one():
    pooled = roles.row_counts(PREDICTED, GOLD, pool_objects=True)
    assert pooled.loc[0].tolist() == [3, 3, 3, 3]  # Theme "the ball" found as the gold Patient
    assert pooled.loc[1].tolist() == [4, 4, 4, 4]  # both objects, labels swapped, paired best
    assert pooled.loc[2].tolist() == [4, 4, 2, 3]  # "the cat" lenient only; Manner != Time
    # one predicted phrase cannot match two gold ones
    one = roles.row_counts(_frame([{"Patient": "the ball"}]),
                           _frame([{"Patient": "the ball", "Theme": "the ball"}]), pool_objects=True)
    assert one.loc[0].tolist() == [1, 2, 1, 1]


def test_f1_bootstrap_resamples_distinct_sentences_and_is_seeded():
    gold = pd.concat([GOLD, GOLD.iloc[[0]]], ignore_index=True)  # a sentence that occurs twice
    predicted = pd.concat([PREDICTED, PREDICTED.iloc[[0]]], ignore_index=True)
    assert len(labeller_scores._unit_counts(predicted, gold, False)) == 3
    f1, low, high, draws = labeller_scores.f1_bootstrap(predicted, gold, "lenient", n_resamples=200, seed=1)
    tp = roles.row_counts(predicted, gold)
    assert math.isclose(f1, 2 * tp["tp_lenient"].sum() / (tp["n_pred"].sum() + tp["n_gold"].sum()))
    assert low <= f1 <= high and draws.shape == (200,)
    again = labeller_scores.f1_bootstrap(predicted, gold, "lenient", n_resamples=200, seed=1)
    assert (again[1], again[2]) == (low, high)
    pooled = labeller_scores.f1_bootstrap(predicted, gold, "pooled", n_resamples=200, seed=1)[0]
    assert pooled > f1
    with pytest.raises(ValueError, match="score must be one of"):
        labeller_scores.f1_bootstrap(predicted, gold, "strict")


def test_score_table_gaps_are_against_sts3k():
    worse = PREDICTED.copy()
    worse["Agent"] = None
    table = labeller_scores.score_table({"sts3k": (PREDICTED, GOLD), "gs2011": (worse, GOLD)},
                                        n_resamples=100)
    assert table.loc["sts3k", "gap_lenient"] == 0.0
    gap = table.loc["sts3k", "F1_lenient"] - table.loc["gs2011", "F1_lenient"]
    assert gap > 0 and math.isclose(table.loc["gs2011", "gap_lenient"], gap)
    assert table.loc["gs2011", "gap_lenient_low"] <= gap <= table.loc["gs2011", "gap_lenient_high"]
    assert list(table["use"]) == ["in sample", "development"]
    assert set(labeller_scores.summary_table(table.assign(convention="verb class")).columns) >= {
        "F1 lenient", "F1 pooled", "gap to STS3k (lenient)"}
    import matplotlib

    matplotlib.use("Agg")
    figure = labeller_scores.plot_generalisation(
        pd.concat([table.assign(convention=c) for c in ("verb class", "patient")]), 0.03)
    assert len(figure.axes) == 2 and figure.axes[0].get_ylabel()


def test_score_table_of_a_family_adds_the_gaps_at_the_bonferroni_level():
    """family = k: each gap's interval also at 1 - .05/k, percentiles of the same draws, containing
    the 95% one; glued as labeller_gap_<score>_<set>_<convention>_bonf<k>_low/_high, the keys the
    labeller-carries-over claims read (STSS-131 and the pilot, k = 2)."""
    from compsem import claims
    from compsem.sts.families import UNION_FAMILIES

    worse = PREDICTED.copy()
    worse["Agent"] = None
    sets = {"sts3k": (PREDICTED, GOLD), "gs2011": (worse, GOLD), "stss-131": (worse, GOLD),
            "fodor-pilot-2022": (PREDICTED, GOLD)}
    k = UNION_FAMILIES["labeller_test_sets"]
    single = labeller_scores.score_table(sets, n_resamples=200)
    table = labeller_scores.score_table(sets, n_resamples=200, family=k)
    pd.testing.assert_frame_equal(table[single.columns], single)
    tests = list(labeller_scores.TEST_SETS)
    for score in labeller_scores.SCORES:
        assert (table.loc[tests, f"gap_{score}_bonf{k}_low"] <= table.loc[tests, f"gap_{score}_low"]).all()
        assert (table.loc[tests, f"gap_{score}_high"] <= table.loc[tests, f"gap_{score}_bonf{k}_high"]).all()
        # STS3k (its own gap) and the development set are in no union: no Bonferroni interval
        assert table.loc[["sts3k", "gs2011"], [f"gap_{score}_bonf{k}_low", f"gap_{score}_bonf{k}_high"]].isna().all().all()
    assert (table.loc[tests, "gap_lenient_bonf2_low"] < table.loc[tests, "gap_lenient_low"]).any()  # wider where draws vary
    alpha = 100 * (1 - (1 - 0.05 / k)) / 2  # the percentiles of the same draws as the 95% interval
    draws = {}
    for position, (name, (predicted, gold)) in enumerate(sets.items()):
        units = labeller_scores._unit_counts(predicted, gold, False)
        draws[name] = labeller_scores._bootstrap_units(units, "lenient", 200, position, 0.95)[3]
    assert tuple(table.loc["stss-131", ["gap_lenient_bonf2_low", "gap_lenient_bonf2_high"]]) == tuple(
        np.percentile(draws["sts3k"] - draws["stss-131"], [alpha, 100 - alpha]))
    results = {"scores": pd.concat([table.assign(convention=c) for c in ("verb class", "own")]).rename_axis(
        "key").reset_index(), "conventions": labeller_scores.object_conventions(
        {name: (predicted, gold.assign(Attribute=None)) for name, (predicted, gold) in sets.items()})}
    values = labeller_scores.glue_values(results)
    assert values["labeller_gap_lenient_stss_131_verb_class_bonf2_low"] == table.loc["stss-131", "gap_lenient_bonf2_low"]
    assert not [key for key in values if "_bonf" in key and ("_sts3k_" in key or "_gs2011_" in key)]
    # only the scores of a claim's union: the other gaps of the test sets get no Bonferroni interval
    lenient = labeller_scores.score_table(sets, n_resamples=200, family=k, family_scores=["lenient"])
    others = [c for c in table.columns if "bonf" in c and not c.startswith("gap_lenient")]
    pd.testing.assert_frame_equal(lenient, table.drop(columns=others))
    read = {key for claim in claims.load("sts3k") if claim.id.startswith("labeller-carries-over")
            for key in claims.rule_keys(claim.fails_if)}
    slug = {"verb class": "verb_class", "own": "own"}
    assert read == {f"labeller_gap_{score}_{s}_{slug[convention]}_bonf{k}_low"
                    for score, convention in labeller_scores.FAMILY_GAPS for s in ("stss_131", "fodor_pilot_2022")}
    for claim_id in ("labeller-carries-over-eight-roles", "labeller-carries-over-as-eq2-reads",
                     "labeller-carries-over-own-conventions"):
        claim = next(c for c in claims.load("sts3k") if c.id == claim_id)
        assert claims.missing_keys(claim, values) == [], claim_id


def test_object_conventions_and_glue_keys():
    gold = GOLD.assign(Attribute=None)
    conventions = labeller_scores.object_conventions({"gs2011": (PREDICTED, gold)})
    row = conventions.loc["GS2011"]
    assert (row["Patient"], row["Theme"], row["one object"]) == (2, 2, 2)
    assert row["share Patient"] == 0.5 and row["Attribute"] == 0
    # for the glue: sentence 0 twice (4 rows, 3 distinct), one copula complement kept as Attribute
    # (3 Patients, 2 Themes); lone objects: Patient in rows 0 and 3, Theme in row 2 (row 1 has
    # both) -> share Patient 2/3
    gold = pd.concat([GOLD, GOLD.iloc[[0]]], ignore_index=True).assign(Attribute=[None, "a jewel", None, None])
    predicted = pd.concat([PREDICTED, PREDICTED.iloc[[0]]], ignore_index=True)
    table = labeller_scores.score_table({"sts3k": (predicted, gold)}, n_resamples=50)
    results = {"scores": table.assign(convention="verb class").rename_axis("key").reset_index(),
               "conventions": labeller_scores.object_conventions({"sts3k": (predicted, gold)})}
    values = labeller_scores.glue_values(results)
    assert {"labeller_f1_lenient_sts3k_verb_class", "labeller_f1_pooled_sts3k_verb_class_high",
            "labeller_gap_exact_sts3k_verb_class_low", "labeller_share_patient_sts3k",
            "labeller_attribute_sts3k", "labeller_distinct_sts3k"} <= set(values)
    assert all(isinstance(v, int | float) for v in values.values())
    assert math.isclose(values["labeller_share_patient_sts3k"], 2 / 3)
    assert values["labeller_attribute_sts3k"] == 1
    assert values["labeller_distinct_sts3k"] == 3
    cells = table.loc["sts3k"]
    assert cells["F1_lenient_low"] < cells["F1_lenient_high"]  # a swap of the two would show
    for suffix in ("", "_low", "_high"):
        assert values[f"labeller_f1_lenient_sts3k_verb_class{suffix}"] == cells[f"F1_lenient{suffix}"]
        assert values[f"labeller_f1_pooled_sts3k_verb_class{suffix}"] == cells[f"F1_pooled{suffix}"]
    # the lenient F1 itself, from the rows: 2 TP / (#predicted + #gold)
    counts = roles.row_counts(predicted, gold)
    assert math.isclose(values["labeller_f1_lenient_sts3k_verb_class"],
                        2 * counts["tp_lenient"].sum() / (counts["n_pred"].sum() + counts["n_gold"].sum()))
    assert values["labeller_gap_lenient_sts3k_verb_class"] == 0.0  # STS3k against itself


def test_object_conventions_of_the_labeller(nlp):
    sentences = ["The boy kicked the ball.", "The ball was kicked by the boy.",
                 "The man gave the woman a book.", "The old mechanic repaired the engine."]
    by_class = roles.label_roles(sentences, nlp=nlp)
    patient = roles.label_roles(sentences, nlp=nlp, objects="patient")
    assert by_class.loc[0, "Theme"] == "the ball" and by_class.loc[0, "Patient"] is None
    assert patient.loc[0, "Patient"] == "the ball" and patient.loc[0, "Theme"] is None
    assert patient.loc[1, "Patient"] == "The ball" and patient.loc[1, "Agent"] == "by the boy"
    # a double object keeps its Theme and Location; a Patient verb is Patient either way
    assert patient.loc[2, ["Theme", "Location"]].tolist() == ["a book", "the woman"]
    assert by_class.loc[3, "Patient"] == patient.loc[3, "Patient"] == "the engine"
    with pytest.raises(ValueError, match="'verb class', 'patient'"):
        roles.label_roles(sentences, nlp=nlp, objects="theme")


def test_copula_conventions_and_the_verb_lists(nlp):
    sentences = ["A gem is a jewel that is used in jewellery.", "The boy kicked the ball.",
                 "The man believed the witness."]
    theme = roles.label_roles(sentences, nlp=nlp)
    attribute = roles.label_roles(sentences, nlp=nlp, copulas="attribute")
    assert list(theme.columns) == list(roles.LABELS)
    assert theme.loc[0, "Theme"] == "a jewel that is used in jewellery" and theme.loc[0, "Attribute"] is None
    assert attribute.loc[0, "Attribute"] == "a jewel that is used in jewellery"
    assert attribute.loc[0, "Theme"] is None and attribute.loc[0, "Verb"] == "is"
    # a sentence without a copula is labelled alike under both conventions
    pd.testing.assert_frame_equal(theme.iloc[1:], attribute.iloc[1:])
    with pytest.raises(ValueError, match="copulas must be one of 'theme', 'attribute'"):
        roles.label_roles(sentences, nlp=nlp, copulas="Theme")
    # "believe" is listed as a Theme verb; its WordNet class (verb.cognition) gives Theme as well,
    # "kick" is not listed and its class (verb.contact) gives Theme: the lists only override
    listed = roles.load_lexicon().theme_verbs | roles.load_lexicon().patient_verbs
    assert "believe" in listed and "kick" not in listed
    alone = roles.label_roles(sentences, nlp=nlp, object_verb_lists=False)
    assert alone.loc[1].equals(theme.loc[1])


def test_object_verb_lists_override_the_verb_class(nlp):
    lexicon = roles.load_lexicon()
    assert "destroy" in lexicon.patient_verbs and roles.lexname("destroy", "v") not in lexicon.patient_lexnames
    sentence = ["The storm destroyed the harvest."]
    assert roles.label_roles(sentence, nlp=nlp).loc[0, "Patient"] == "the harvest"
    alone = roles.label_roles(sentence, nlp=nlp, object_verb_lists=False)
    assert alone.loc[0, "Theme"] == "the harvest" and alone.loc[0, "Patient"] is None


def test_own_conventions_follow_each_sets_parses(nlp):
    docs = list(nlp.pipe(["The boy kicked the ball.", "A gem is a precious stone."]))
    gold = _frame([{}, {}], texts=["The boy kicked the ball.", "A gem is a precious stone."])
    parsed = {name: (gold, docs) for name in labeller_scores.SETS}
    labelled = labeller_scores._labelled(parsed, "own")
    assert labelled["gs2011"][0].loc[0, "Patient"] == "the ball"  # objects always Patient
    assert labelled["sts3k"][0].loc[0, "Theme"] == "the ball"  # by verb class
    assert labelled["stss-131"][0].loc[1, "Attribute"] == "a precious stone"
    assert labelled["sts3k"][0].loc[1, "Theme"] == "a precious stone"
    plain = labeller_scores._labelled(parsed, "patient")
    assert plain["stss-131"][0].loc[1, "Theme"] == "a precious stone"  # copulas as written
    with pytest.raises(ValueError, match="'verb class', 'patient', 'own'"):
        labeller_scores._labelled(parsed, "mine")


def test_paired_difference_of_two_labellers():
    index = pd.Index(["a", "b", "c", "d"])
    before = pd.DataFrame({"tp_lenient": [1, 2, 3, 0], "n_pred": [3, 3, 3, 3], "n_gold": [3, 3, 3, 3]},
                          index=index)
    same = labeller_scores._paired_difference(before, before.copy(), 200, 0, 0.95)
    assert same == (0.0, 0.0, 0.0)
    after = before.assign(tp_lenient=[2, 3, 3, 1])  # three sentences better, none worse
    difference, low, high = labeller_scores._paired_difference(before, after, 500, 0, 0.95)
    assert math.isclose(difference, 3 / 12) and 0 < low <= difference <= high
    assert labeller_scores._paired_difference(before, after, 500, 0, 0.95) == (difference, low, high)
    with pytest.raises(ValueError, match="different sentences"):
        labeller_scores._paired_difference(before, after.iloc[:3], 500, 0, 0.95)


def _log(dev, sts3k):
    """A change log of one change whose development and STS3k differences have these intervals."""
    rows = []
    for change, intervals in (("as written", {}), ("a change", {"GS2011": dev, "STS3k": sts3k})):
        for key in labeller_scores.SETS:
            name = labeller_scores.SET_NAMES[key]
            low, high = intervals.get(name, (0.0, 0.0))
            rows.append({"change": change, "set": name, "use": labeller_scores.SET_ROLES[key], "F1": 0.8,
                         "difference": (low + high) / 2, "difference_low": low, "difference_high": high,
                         "better": 0, "worse": 0, "kept": None if change == "as written" else True})
    return pd.DataFrame(rows)


def test_change_values_table_and_figure():
    log = _log((0.01, 0.02), (-0.01, 0.01))
    values = labeller_scores.change_values(log)
    assert values["labeller_change_a_change_gs2011_difference_low"] == 0.01
    assert values["labeller_change_a_change_kept"] == 1 and "labeller_change_as_written_kept" not in values
    assert {"labeller_change_a_change_stss_131", "labeller_change_as_written_sts3k"} <= set(values)
    table = labeller_scores.change_table(log)
    assert table.loc[("a change", "GS2011"), "decision"] == "kept"
    assert table.loc[("a change", "GS2011"), "difference to as written"] == "+0.015 [+0.010, +0.020]"
    figure = labeller_scores.plot_changes(log)
    assert [t.get_text() for t in figure.axes[0].get_yticklabels()] == ["a change"]


# ------------------------------------------------------------------------ the authors' files


@pytest.mark.needs_data
@pytest.mark.parametrize("name, rows, gold_roles", [
    ("gs2011", 398, {"Agent": 398, "Verb": 398, "Patient": 396, "Theme": 0, "Trajectory": 2}),
    ("stss-131", 262, {"Agent": 245, "Verb": 258, "Patient": 25, "Theme": 59, "Time": 40}),
    ("fodor-pilot-2022", 240, {"Agent": 240, "Verb": 240, "Patient": 240, "Theme": 0}),
])
def test_corrected_parses_of_the_other_sets(name, rows, gold_roles):
    from compsem.data import corrected_parses, sts_benchmarks

    parses = corrected_parses.load_corrected_parses(name)
    assert len(parses) == rows and parses.index.names == ["pair_id", "sentence"]
    assert list(parses.columns) == ["text", *roles.ROLES, "Attribute"]
    for role, count in gold_roles.items():
        assert parses[role].notna().sum() == count, role
    pairs = sts_benchmarks.load_processed(name)
    assert parses.xs("a", level="sentence")["text"].tolist() == pairs["sentence_a"].tolist()


@pytest.mark.needs_data
@pytest.mark.parametrize("name, dataset", [("gs2011", "GS2011_processed"),
                                           ("fodor-pilot-2022", "Fodor_pilot_2022")])
def test_workbook_parses_equal_the_published_json(name, dataset):
    """The workbooks' final sheets hold the same parses as the authors' corrected JSON files."""
    from compsem.data import corrected_parses, sts3k

    workbook = corrected_parses.load_corrected_parses(name)[list(roles.ROLES)]
    published = sts3k.load_verbnet_parses("mod", dataset=dataset)
    pd.testing.assert_frame_equal(workbook.fillna(np.nan), published.fillna(np.nan), check_dtype=False)


def test_unknown_set_is_named():
    from compsem.data import corrected_parses

    with pytest.raises(ValueError, match="gs2011"):
        corrected_parses.load_corrected_parses("sick")
    with pytest.raises(ValueError, match="known"):
        labeller_scores.gold_parses("sick")


@pytest.mark.needs_data
@pytest.mark.slow
def test_out_of_sample_scores_regression_guard(nlp):
    """Regression guard on the sets the rules were not written from, as measured when written:
    lenient F1 GS2011 .674 / .992 (verb class / patient objects), pilot .669 / .977, STSS-131
    .577 / .573; Patient and Theme pooled: GS2011 .996, pilot .977, STSS-131 .578."""
    names = ("gs2011", "stss-131", "fodor-pilot-2022")
    floors = {"verb class": {"gs2011": 0.66, "stss-131": 0.55, "fodor-pilot-2022": 0.65},
              "patient": {"gs2011": 0.98, "stss-131": 0.55, "fodor-pilot-2022": 0.96}}
    for convention, floor in floors.items():
        labelled = labeller_scores.labelled_sets(names, convention=convention, nlp=nlp)
        for name, (predicted, gold) in labelled.items():
            f1 = roles.evaluate(predicted, gold).loc["ALL", "F1_lenient"]
            assert f1 > floor[name], (convention, name, f1)
            pooled = labeller_scores.f1_bootstrap(predicted, gold, "pooled", n_resamples=10)[0]
            assert pooled >= f1 - 1e-12


@pytest.mark.needs_data
@pytest.mark.slow
def test_the_labeller_as_written_is_the_one_the_keep_rule_leaves():
    """Every change of CHANGES is decided by KEEP_RULE from the development set and STS3k; the
    chapter's labeller is the one as written, so no change may be kept (a kept change must become
    the labeller's default, and this test be changed with it). Measured when written: en_core_web_md
    GS2011 +.005 [+.001, +.011] but STS3k -.004 [-.007, -.002]; no verb lists GS2011 +.000, STS3k
    -.026."""
    log = labeller_scores.change_log(n_resamples=1000)
    decisions = log.drop_duplicates("change").set_index("change")["kept"]
    assert decisions.drop(labeller_scores.AS_WRITTEN.name).tolist() == [False] * len(labeller_scores.CHANGES)
    md = log[(log["change"] == "en_core_web_md parses")].set_index("set")
    assert md.loc["GS2011", "difference_low"] > 0 and md.loc["STS3k", "difference_high"] < 0


# ------------------------------------------------------------------ SemParse's raw output


def _with_parses(monkeypatch, gold, raw):
    monkeypatch.setattr(labeller_scores, "gold_parses", lambda name: gold[name].assign(Attribute=None))
    monkeypatch.setattr(labeller_scores, "semparse_parses", lambda name: raw[name].assign(Attribute=None))


def test_hand_corrections_count_distinct_sentences_changed(monkeypatch):
    raw = GOLD.copy()
    raw.loc[0, "Patient"], raw.loc[0, "Theme"] = None, "the ball"  # corrected: Theme -> Patient
    raw.loc[2, "Agent"] = "A  dog"  # whitespace only: not a correction
    twice = {"sts3k": pd.concat([GOLD, GOLD.iloc[[0]]], ignore_index=True), "stss-131": GOLD}
    raws = {"sts3k": pd.concat([raw, GOLD.iloc[[0]]], ignore_index=True), "stss-131": GOLD}
    _with_parses(monkeypatch, twice, raws)
    table = labeller_scores.hand_corrections(("sts3k", "stss-131"), n_resamples=50)
    # sentence 0 occurs twice and is corrected in one copy: one distinct sentence changed of three
    assert table.loc["sts3k", ["distinct", "changed"]].tolist() == [3, 1]
    assert math.isclose(table.loc["sts3k", "share_changed"], 1 / 3)
    assert table.loc["stss-131", "changed"] == 0 and table.loc["stss-131", "F1_lenient"] == 1.0
    assert table.loc["sts3k", "F1_lenient"] < 1.0


def test_semparse_output_must_align_with_the_corrected_parses(monkeypatch):
    from compsem.data import sts3k
    from compsem.data.registry import DataError

    monkeypatch.setattr(labeller_scores, "gold_parses", lambda name: GOLD.assign(Attribute=None))
    monkeypatch.setattr(sts3k, "load_verbnet_parses", lambda variant, dataset: GOLD.iloc[:2].drop(columns="text"))
    with pytest.raises(DataError, match="STS131_processed.*2 sentences, not the 3"):
        labeller_scores.semparse_parses("stss-131")


def test_predicate_split_groups_by_the_verb_each_parse_describes(monkeypatch):
    extra = GOLD.iloc[[1]].assign(text="The girl sent the letter to her aunt at once.")
    raw = pd.concat([GOLD, extra], ignore_index=True)
    raw.loc[[1, 3], ["Agent", "Verb", "Patient", "Theme"]] = ["her aunt", "received", "the letter", None]
    predicted = pd.concat([PREDICTED, PREDICTED.iloc[[1]]], ignore_index=True)
    monkeypatch.setattr(labeller_scores, "_against_semparse",
                        lambda names: {name: (predicted, raw) for name in names})
    monkeypatch.setattr(labeller_scores, "gold_parses", lambda name: pd.concat([GOLD, extra], ignore_index=True))
    split = labeller_scores.predicate_split(n_resamples=50).set_index(["predicate", "key"])
    same, other = labeller_scores.PREDICATES
    assert split.loc[(same, "stss-131"), "share"] == 0.5
    assert split.loc[(same, "stss-131"), "distinct"] == 2 and split.loc[(other, "stss-131"), "distinct"] == 2
    assert split.loc[(other, "stss-131"), "F1_lenient"] < split.loc[(same, "stss-131"), "F1_lenient"]
    # the corrected parses describe "sent" (ours), not SemParse's "received"
    assert split.loc[(other, "sts3k"), ["corrected_as_ours", "corrected_as_semparse"]].tolist() == [1.0, 0.0]
    assert split.loc[(same, "sts3k"), ["corrected_as_ours", "corrected_as_semparse"]].tolist() == [1.0, 1.0]
    assert split.loc[(other, "sts3k"), "gap_lenient"] == 0.0
    gold = pd.concat([GOLD, extra], ignore_index=True)
    corrections = labeller_scores.score_table({"sts3k": (raw, gold), "stss-131": (raw, gold)}, n_resamples=50)
    corrections = corrections.assign(changed=2, share_changed=0.5)
    agreement = labeller_scores.score_table({"sts3k": (predicted, raw), "stss-131": (predicted, raw)},
                                            n_resamples=50)
    values = labeller_scores.semparse_values(corrections, agreement, split.reset_index())
    assert {"labeller_semparse_changed_stss_131", "labeller_semparse_share_changed_sts3k",
            "labeller_semparse_f1_lenient_stss_131_low", "labeller_vs_semparse_f1_lenient_sts3k",
            "labeller_vs_semparse_gap_lenient_stss_131_high",
            "labeller_vs_semparse_the_same_verb_share_stss_131",
            "labeller_vs_semparse_another_verb_gap_lenient_stss_131_low",
            "labeller_vs_semparse_another_verb_corrected_as_ours_sts3k"} <= set(values)
    assert set(labeller_scores.semparse_table(corrections, agreement).columns) >= {
        "sentences changed by hand", "our labeller vs SemParse (lenient F1)"}
    import matplotlib

    matplotlib.use("Agg")
    own = agreement.assign(convention="own").rename_axis("key").reset_index()
    figure = labeller_scores.plot_semparse(own, corrections, agreement, 0.03)
    assert len(figure.axes[0].get_legend().get_texts()) == 3


@pytest.mark.needs_data
def test_semparse_output_and_the_stss131_workbook():
    """The STSS-131 workbook is SemParse's raw output but for 2 sentences (a lad; a crane), while
    STS3k's corrections changed 1,777 of its 4,428 distinct sentences and GS2011's and the pilot's
    every sentence (measured when written)."""
    table = labeller_scores.hand_corrections(n_resamples=100)
    assert table["changed"].tolist() == [1777, 302, 2, 236]
    assert table.loc["stss-131", "F1_lenient"] > 0.99 and table.loc["sts3k", "F1_lenient"] < 0.85


def test_object_naming_holds_each_verb_out(monkeypatch, nlp):
    """Four verbs of one WordNet class: the held-out class majority of a verb is read from the other
    three only, so a verb whose objects go against its class is predicted wrongly."""
    sentences = {"kicked": True, "hit": True, "struck": True, "touched": False}
    texts = [f"The boy {verb} the {noun}." for verb in sentences for noun in ("ball", "door")]
    gold = _frame([{"Agent": "The boy", "Verb": text.split()[2],
                    ("Patient" if sentences[text.split()[2]] else "Theme"): text.split(" ", 3)[3][:-1]}
                   for text in texts], texts=texts)
    monkeypatch.setattr(labeller_scores, "_parsed_by", lambda pipeline: {"sts3k": (gold, list(nlp.pipe(texts)))})
    monkeypatch.setattr(roles, "lexname", lambda lemma, pos: "verb.contact")
    naming = labeller_scores.object_naming(n_resamples=50)
    assert (naming["sentences"], naming["verbs"], naming["mixed_verbs"]) == (8, 4, 0)
    assert naming["constant"] == 0.75 and naming["verb"] == 1.0
    assert naming["lexname"] == 0.75  # "touched" held out: its class says Patient, its objects are Theme
    assert naming["lexname_gain"] == 0.0 and naming["lexname_gain_low"] <= 0 <= naming["lexname_gain_high"]
