"""Target keys, table layouts and the model plan of the modifiers chapter; and the real data
end to end (GloVe's norm rule, MiniLM against 001)."""

from __future__ import annotations

import numpy as np
import pytest

from compsem import report
from compsem.modifiers import experiment, lexicon, subsectivity
from compsem.modifiers import tables as T

TARGETS = report.load_targets("modifiers")


def test_table_layouts_follow_the_paper():
    assert T.AAN_CELLS[:5] == [
        ("S-I", "S-I"),
        ("S-NI", "S-I"),
        ("NS-Pl", "S-I"),
        ("NS-Pr", "S-I"),
        ("A", "S-I"),
    ]
    assert T.AAN_CELLS[9] == ("A", "S-NI") and len(T.AAN_CELLS) == 25
    assert T.PAIR_CELLS[:6] == [
        ("S-I", "S-I"),
        ("S-I", "S-NI"),
        ("S-I", "NS-Pl"),
        ("S-I", "NS-Pr"),
        ("S-I", "A"),
        ("S-NI", "S-NI"),
    ]
    assert len(T.PAIR_CELLS) == 15
    assert (
        T.target_key("minilm", "aan", ("NS-Pr", "S-I"), "001", 6) == "mod_minilm_aan_nspr_si_001t6"
    )
    assert T.cell_label(("S-I",)) == "S-I" and T.cell_label(("A", "S-I")) == "(A, S-I)"
    with pytest.raises(ValueError, match="test"):
        T.target_key("minilm", "nope", ("S-I",), "001", 1)


def test_every_minilm_cell_of_001_is_a_target_without_status():
    keys = [
        T.target_key("minilm", test, cell, version, number)
        for test, tables in T.TABLES.items()
        for version, number, cells, _ in tables
        if version == "001"
        for cell in cells
    ]
    assert len(keys) == 5 + 5 + 5 + 5 + 25 + 15 + 5
    assert all(k in TARGETS and "status" not in TARGETS[k] for k in keys)
    assert TARGETS["mod_minilm_ns_nspr_001t8"]["paper"] == 0.6785
    assert TARGETS["mod_minilm_pair_si_a_001t3"]["paper"] == 0.891
    assert TARGETS["mod_minilm_aan_a_a_001t6"]["paper"] == 0.8888


def test_other_models_are_labelled():
    statuses = {t.get("status") for k, t in TARGETS.items() if k.startswith("mod_glove_")}
    assert statuses == {"substitute"}
    for slug in T.PAPER_MODELS:
        if slug in ("minilm", "glove"):
            continue
        found = [t for k, t in TARGETS.items() if k.startswith(f"mod_{slug}_")]
        assert found and all(t["status"] == "not-run" for t in found), slug


def test_paper_rows_and_the_te3_inconsistency():
    row = T.paper_row("minilm", "ns", TARGETS)
    assert row.name == "MiniLM (001 T8)" and row["A"] == 0.1111
    t3 = T.paper_row("te3_small", "aan", TARGETS, version="004", table=3)
    t6 = T.paper_row("te3_small", "aan", TARGETS, version="004", table=6)
    assert (t3.dropna() == 1.0).all() and (t6.iloc[:5] < 1.0).all()
    ns_004 = {
        slug: T.paper_row(slug, "ns", TARGETS, version="004", table=8).idxmax()
        for slug in ("dpr_multiset", "labse", "specter")
    }
    assert all(c.startswith("NS") for c in ns_004.values())  # against 004's "in none of them"


def test_comparison_frame_and_status():
    ours = {"ours": {("S-I",): 0.5, ("A",): 0.25}}
    frame = T.comparison_frame("ns", ours, TARGETS, ["minilm", "mean:glove50"])
    assert frame.loc["ours", "S-I"] == 0.5 and np.isnan(frame.loc["ours", "S-NI"])
    assert frame.loc["MiniLM (001 T8)", "status"] == "reproduced here"
    assert frame.loc["GloVe 6B 300d (001 T8)", "status"] == "substitute run here"
    assert frame.loc["Specter (004 T8)", "status"] == "not run here"
    assert T.paper_slug("hf:sentence-transformers/LaBSE") == "labse"
    assert T.paper_slug("hf:LaBSE") == "labse" and T.paper_slug("mpnet") is None


def test_verdict_row_holds_each_cell_to_its_targets_tol():
    paper = T.paper_row("minilm", "ns", TARGETS)  # 001 Table 8
    tol = TARGETS["mod_minilm_ns_si_001t8"]["tol"]
    scores = {
        ("S-I",): paper["S-I"] + tol / 2,
        ("S-NI",): paper["S-NI"] - 3 * tol,
        ("NS-Pl",): paper["NS-Pl"] + tol,  # at the tolerance itself: within
        ("NS-Pr",): np.nan,  # no value of ours: blank; ("A",) missing: blank
    }
    row = T.verdict_row("minilm", "ns", scores, TARGETS)
    assert row["S-I"] == T.WITHIN == "within tol" and row["NS-Pl"] == T.WITHIN
    assert row["S-NI"] == T.OUTSIDE == "outside tol"
    assert row["NS-Pr"] == "" and row["A"] == ""
    assert row["status"] == f"tol {tol:g}; largest |ours − paper| {3 * tol:.5f}"
    glove = T.verdict_row("glove", "ns", {c: 0.0 for c in T.AN_CELLS}, TARGETS)
    assert set(glove) == {T.PATTERN_ONLY} == {"pattern only"}  # a substitute: no tol applies
    assert T.cell_verdict(0.5, None) == "" and T.cell_verdict(0.5, {"paper": np.nan, "tol": 1}) == ""
    labse = TARGETS["mod_labse_ns_si_001t8"]  # not-run: held to its tol once it is run
    assert T.cell_verdict(labse["paper"], labse) == T.WITHIN
    assert T.cell_verdict(labse["paper"] + 2 * labse["tol"], labse) == T.OUTSIDE


def test_comparison_frame_puts_the_verdicts_under_the_paper_row():
    from compsem.modifiers import chapter as C

    paper = T.paper_row("minilm", "ns", TARGETS)
    ours = {
        "MiniLM": {c: paper[T.cell_label(c)] for c in T.AN_CELLS} | {("A",): 0.9},
        "MPNet": {c: 0.5 for c in T.AN_CELLS},
        "GloVe": {c: 0.5 for c in T.AN_CELLS},
    }
    paper_of = {"MiniLM": "minilm", "MPNet": "distilroberta", "GloVe": "glove"}
    specs = ["minilm", "mpnet", "mean:glove50"]
    frame = T.comparison_frame("ns", ours, TARGETS, specs, paper_of, ["MiniLM", "GloVe"])
    rows = list(frame.index)
    assert rows[rows.index("MiniLM (001 T8)") + 1] == "MiniLM vs paper"
    assert rows[rows.index("GloVe 6B 300d (001 T8)") + 1] == "GloVe vs paper"
    assert "MPNet vs paper" not in rows  # a stand-in is compared with nothing
    assert list(frame.loc["MiniLM vs paper", ["S-I", "A"]]) == [T.WITHIN, T.OUTSIDE]
    assert frame.loc["GloVe vs paper", "NS-Pr"] == T.PATTERN_ONLY
    assert not any(r.endswith(" vs paper") for r in T.comparison_frame("ns", ours, TARGETS))
    html = C.style_table(frame).to_html()
    assert ">outside tol<" in html and C.VERDICT_COLOURS[T.OUTSIDE] in html


def test_target_values_fill_every_table_of_a_test():
    """Each cell's own score under that cell's key of every table (a distinct score per cell,
    so a key given another cell's score shows)."""
    scores = {c: (i + 1) / 10 for i, c in enumerate(T.AN_CELLS)}
    assert len(set(scores.values())) == len(T.AN_CELLS)
    values = T.target_values("minilm", "ns", scores, TARGETS)
    expected = {
        T.target_key("minilm", "ns", c, "001", n): scores[c] for c in T.AN_CELLS for n in (4, 8)
    }
    assert values == expected
    assert values["mod_minilm_ns_nspr_001t4"] == values["mod_minilm_ns_nspr_001t8"] == 0.4
    # the pair test's 15 cells, 5 of them in Table 3 as well as all 15 in Table 7
    pair = {c: float(i) for i, c in enumerate(T.PAIR_CELLS)}
    values = T.target_values("minilm", "pair", pair, TARGETS)
    assert values == {T.target_key("minilm", "pair", c, "001", 7): pair[c] for c in T.PAIR_CELLS} | {
        T.target_key("minilm", "pair", c, "001", 3): pair[c] for c in T.PAIR_CELLS[:5]
    }


def test_plan_validates_parameters():
    plan = experiment.plan(["minilm", "mean:glove50"], ["mean:glove50"], ["minilm:cls"], ["minilm"])
    assert plan == {"minilm": False, "mean:glove50": True, "minilm:cls": False}
    with pytest.raises(ValueError, match="aan_models"):
        experiment.plan(["minilm"], ["mpnet"])
    with pytest.raises(ValueError, match="must be a list"):
        experiment.plan("minilm", [])
    with pytest.raises(ValueError, match="needs word vectors"):
        experiment.plan(["mean:mpnet"], [])


@pytest.mark.needs_data
def test_glove_non_subsectivity_is_the_norm_rule_on_the_study_data():
    lex = lexicon.load()
    r = experiment.run("mean:glove50", lex, aan=False, synonym_control=False)
    assert r.space.oov == ["ex-"]
    rule = subsectivity.norm_rule(r.space, r.an_phrases)
    assert (rule == r.ns["holds"].to_numpy()).all()
    assert r.scores("ns")[("NS-Pr",)] <= 13 / 14  # ex- (zero vector) fails on every noun
    assert set(r.scores("an").values()) == {1.0}
    table = r.scores("pair")
    assert all(table[(c, c)] == pytest.approx(0.5, abs=1e-12) for c in lexicon.CLASSES)


@pytest.mark.slow
@pytest.mark.needs_data
def test_minilm_reproduces_001_tables_4_and_8_and_3_and_7():
    lex = lexicon.load()
    r = experiment.run("minilm", lex, aan=False, device="cpu")
    values = {}
    for test in ("an", "pair", "ns"):
        values.update(T.target_values("minilm", test, r.scores(test), TARGETS))
    table = report.compare(values, "modifiers")
    assert len(table) == 5 + 5 + 15 + 5 + 5
    assert (table["verdict"] == "match").all(), table[table["verdict"] != "match"]
