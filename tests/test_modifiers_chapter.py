"""The chapter helpers of compsem.modifiers: Holm's adjustment, the AAN-drop contrast, the synonym
control, the row order of the comparison tables, and the trust_remote_code opt-in."""

from __future__ import annotations

import numpy as np
import pytest
from test_modifiers_metrics import DictVectors, random_vectors, toy_lexicon

from compsem import report, stats
from compsem.modifiers import encoding, experiment, synonyms
from compsem.modifiers import statistics as st
from compsem.modifiers import tables as T
from compsem.modifiers.space import Space

TARGETS = report.load_targets("modifiers")


def test_holm_against_a_worked_example():
    # m = 4: sorted 0.01, 0.02, 0.03, 0.5 -> 0.04, 0.06, 0.06 (running max of 0.06), 0.5
    adjusted = st.holm([0.03, 0.01, 0.5, 0.02])
    assert adjusted == pytest.approx([0.06, 0.04, 0.5, 0.06])
    assert st.holm([0.4, 0.9]) == pytest.approx([0.8, 0.9])
    assert np.isnan(st.holm([np.nan, 0.01])[0]) and st.holm([np.nan, 0.01])[1] == 0.01
    # never below Bonferroni's rejections: Holm <= Bonferroni
    p = np.random.default_rng(0).uniform(size=20)
    assert (st.holm(p) <= np.minimum(1, 20 * p) + 1e-12).all()


def test_pair_group_contrast():
    labels = np.array(["S-I", "S-I", "NS-Pl", "NS-Pl"])
    S = np.array([[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 0.5], [1, 1, 0.5, 0]], dtype=float)
    W = 1.0 - np.eye(4)
    # pairs without S-I: (2, 3), (3, 2) -> 0.5; with S-I: the other 10 ordered pairs -> 1
    assert st.pair_group_contrast(S, W)(labels) == pytest.approx(-0.5)
    # without NS-Pl: (0, 1), (1, 0) -> 1; with: 8 pairs at 1 and two at 0.5 -> 0.9
    assert st.pair_group_contrast(S, W, group="NS-Pl")(labels) == pytest.approx(0.1)


def synonym_space(lex, table):
    strings = [
        f"{a} {n}" for a in [*lex.words(), *lex.adjectives["synonym"]] for n in lex.nouns["word"]
    ]
    vectors, _ = encoding.compose(DictVectors(table), strings, how="mean")
    return Space(strings, vectors, name="toy")


def test_synonym_control_identical_synonym_never_holds_and_longer_synonym_decides():
    lex = toy_lexicon(2, 4)
    table = random_vectors([*lex.words(), *lex.adjectives["synonym"]], 8, seed=1)
    for a, s in zip(lex.adjectives["word"], lex.adjectives["synonym"], strict=True):
        table[s] = table[a].copy()  # a synonym with the very same vector: a tie everywhere
    control = synonyms.compare(synonym_space(lex, table), lex)
    assert not control.holds.any()  # strict <: a tie never holds
    assert control.weights.sum() == pytest.approx(1.0)
    for a, s in zip(lex.adjectives["word"], lex.adjectives["synonym"], strict=True):
        table[a] = 50 * table[a]  # a long adjective vector pulls its two phrases together ...
        table[s] = 0.01 * table[a]  # ... a near-zero synonym leaves them as far apart as the nouns
    control = synonyms.compare(synonym_space(lex, table), lex)
    assert control.holds.all()
    assert set(control.scores().values()) == {1.0}
    assert control.per_adjective().to_numpy() == pytest.approx(control.grid().mean(axis=1))


def test_our_rows_sit_above_the_paper_row_of_their_model():
    ours = {
        "MiniLM": {("S-I",): 0.6},
        "MPNet": {("S-I",): 0.7},
        "GloVe": {("S-I",): 0.5},
        "spaCy": {("S-I",): 0.4},
    }
    paper_of = {"MiniLM": "minilm", "MPNet": "distilroberta", "GloVe": "glove"}
    frame = T.comparison_frame("ns", ours, TARGETS, ["minilm", "mpnet", "mean:glove50"], paper_of)
    rows = list(frame.index)
    for label, paper in (
        ("MiniLM", "MiniLM (001 T8)"),
        ("MPNet", "DistilRoBERTa (001 T8)"),
        ("GloVe", "GloVe 6B 300d (001 T8)"),
    ):
        assert rows[rows.index(label) + 1] == paper
    assert frame.loc["DistilRoBERTa (001 T8)", "status"] == "stand-in run here"
    assert frame.loc["MiniLM (001 T8)", "status"] == "reproduced here"
    assert rows.count("MiniLM (001 T8)") == 1 and "Specter (004 T8)" in rows[-8:]
    assert T.paper_model_of("mpnet") == ("distilroberta", "stand-in run here")


def test_trust_remote_code_is_opt_in_and_only_for_hub_models():
    with pytest.raises(ValueError, match="hub models"):
        encoding.embed("minilm", ["red dog"], trust_remote_code=True)
    enc = encoding.remote_code_encoder(
        __import__("compsem.models.registry", fromlist=["x"]).SentenceTransformerEncoder(
            "hf:some/model", "/nonexistent", device="cpu"
        )
    )
    assert enc.name == "hf:some/model"  # same cache key as without the opt-in
    assert "trust_remote_code" in experiment.run.__code__.co_varnames


def test_plot_grids_one_heat_map_per_panel_with_the_values_written():
    import matplotlib.pyplot as plt

    from compsem.modifiers import chapter as C

    plt.close("all")
    panels = [(f"panel {k}", np.full((5, 5), 0.7)) for k in range(3)]
    fig = C.plot_grids(panels)
    assert plt.get_fignums() == [fig.number]
    assert len(fig.axes) == 4  # three panels and the shared colour bar
    assert all(len(ax.texts) == 25 for ax in fig.axes[:3])
    plt.close("all")


def test_plot_intervals_draws_both_intervals_per_model():
    import matplotlib.pyplot as plt
    import pandas as pd

    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import CLASSES

    plt.close("all")
    frame = pd.DataFrame([{"model": m, "class": c, "score": 0.6, "Wilson low": 0.55,
                           "Wilson high": 0.65, "bootstrap low": 0.4, "bootstrap high": 0.8}
                          for m in ("A", "B") for c in CLASSES])  # fmt: skip
    fig = C.plot_intervals(frame)
    assert plt.get_fignums() == [fig.number] and len(fig.axes) == 2
    for ax in fig.axes:
        assert [c.lines[0].get_marker() for c in ax.containers] == ["o", "s"]
        assert [len(c.lines[0].get_xdata()) for c in ax.containers] == [5, 5]
    plt.close("all")
    fig = C.plot_intervals(frame.assign(**{"Wilson low": np.nan}))  # bootstrap only
    assert [len(ax.containers) for ax in fig.axes] == [1, 1]
    plt.close("all")


def test_norm_rule_agreement_leaves_out_tied_norms():
    """Unit-length vectors (MiniLM, MPNet) have norms that differ only by float32 rounding:
    the norm rule has no untied pair there (NaN), and tied pairs are left out elsewhere."""
    from types import SimpleNamespace

    from compsem.modifiers import pairs

    rng = np.random.default_rng(0)
    words = ["a", "b", "c", "d"]
    holds = rng.random((4, 4, 6)) > 0.5
    unit = rng.normal(size=(4, 8)).astype(np.float32)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    comparisons = SimpleNamespace(adjectives=np.array(words), holds=holds)
    space = Space(words, unit, name="unit")
    assert 0 < pairs.norm_spread(space, words) < 1e-6
    assert np.isnan(pairs.norm_rule_agreement(comparisons, space))
    # norms 1, 2, 2, 3: the (b, c) tie is left out, the other 10 ordered pairs counted
    scaled = Space(words, unit * np.array([[1.0], [2.0], [2.0], [3.0]], dtype=np.float32), name="scaled")
    norms = np.array([1.0, 2.0, 2.0, 3.0])
    mostly = holds.mean(axis=2) > 0.5
    counted = [(i, j) for i in range(4) for j in range(4) if i != j and {i, j} != {1, 2}]
    expected = np.mean([mostly[i, j] == (norms[i] > norms[j]) for i, j in counted])
    assert pairs.norm_rule_agreement(comparisons, scaled) == pytest.approx(expected)


# --------------------------------------------------------------------------- the claims' decision quantities
#
# A toy model run (3 adjectives per class, 4 nouns, mean of random word vectors: milliseconds),
# whose per-phrase outcomes are then replaced by constructed ones where a test needs a known
# answer.


def toy_run(lex, seed: int = 1, spec: str = "toy", aan: bool = True, synonym: bool = True):
    from compsem.modifiers import intersectivity, pairs, phrases, subsectivity

    table = random_vectors([*lex.words(), *lex.adjectives["synonym"]], 8, seed=seed)
    generated = phrases.generate(lex, max_words=3 if aan else 2)
    an = generated[generated["kind"] == "AN"].reset_index(drop=True)
    aan_phrases = generated[generated["kind"] == "AAN"].reset_index(drop=True) if aan else None
    strings = list(dict.fromkeys([*phrases.strings_needed(lex, generated),
                                  *synonyms.phrase_strings(lex)]))
    vectors, _ = encoding.compose(DictVectors(table), strings, how="mean")
    space = Space(strings, vectors, name=spec)
    run = experiment.ModelResults(
        spec=spec, space=space, an_phrases=an,
        an={v: intersectivity.single_phrase(space, an, v) for v in intersectivity.VARIANTS},
        ns=subsectivity.non_subsectivity(space, an), pairs=pairs.compare(space, lex),
        aan_phrases=aan_phrases)
    if aan:
        run.aan = {v: intersectivity.single_phrase(space, aan_phrases, v)
                   for v in intersectivity.VARIANTS}
    if synonym:
        run.synonym = synonyms.compare(space, lex)
    return run


def one_sni_adjective_failing(run, lex, labels):
    """``(grid, run)``: the adjective x noun outcome grid of the toy lexicon (4 nouns) with the
    first S-NI adjective failing on half the nouns, and a copy of ``run`` whose AN code outcomes
    follow it."""
    grid = np.ones((len(labels), 4))
    grid[np.flatnonzero(labels == "S-NI")[0], :2] = 0
    holds = run.an_phrases.apply(
        lambda r: bool(grid[lex.adjectives["word"].tolist().index(r["adj1"]),
                            lex.nouns["word"].tolist().index(r["noun"])]), axis=1).to_numpy()
    partial = with_outcomes(run)
    partial.an = {**run.an, "code": run.an["code"].assign(holds=holds)}
    return grid, partial


def with_outcomes(run, an=None, ns=None, aan=None, pair=None):
    """The run with per-phrase outcomes replaced: ``an`` / ``ns`` map an adjective class to its
    outcome, ``aan`` / ``pair`` map the two classes of an adjective pair to it."""
    import dataclasses

    out = dataclasses.replace(run)
    if an is not None:
        holds = run.an_phrases["cls1"].map(an).to_numpy()
        out.an = {**run.an, "code": run.an["code"].assign(holds=holds)}
    if ns is not None:
        out.ns = run.ns.assign(holds=run.an_phrases["cls1"].map(ns).to_numpy())
    if aan is not None:
        holds = [aan(a, b) for a, b in zip(run.aan_phrases["cls1"], run.aan_phrases["cls2"],
                                           strict=True)]
        out.aan = {**run.aan, "code": run.aan["code"].assign(holds=np.array(holds, dtype=float))}
    if pair is not None:
        labels = run.pairs.labels
        holds = np.array([[pair(a, b) for b in labels] for a in labels], dtype=bool)
        holds = np.repeat(holds[:, :, None], run.pairs.holds.shape[2], axis=2)
        holds[np.arange(len(labels)), np.arange(len(labels))] = False
        out.pairs = dataclasses.replace(run.pairs, holds=holds)
    return out


@pytest.fixture(scope="module")
def toy():
    lex = toy_lexicon(3, 4)
    return lex, lex.adjectives["cls"].to_numpy(), toy_run(lex)


def test_null_values_count_cells_above_and_below_the_band():
    from compsem.modifiers import chapter as C

    bands = {
        "pair": np.array([0.9, 0.8, 0.1, 0.5, 0.5]),  # (S-I, S-I) first: never counted
        "pair_low": np.array([0.4, 0.3, 0.3, 0.3, 0.45]),
        "pair_high": np.array([0.6, 0.7, 0.7, 0.7, 0.49]),
        "pair_low_bonf4": np.array([0.3, 0.2, 0.05, 0.2, 0.4]),  # the wider band of the union
    }
    values = C.null_values(bands)
    assert values == {
        "mod_x_pair_si_cells_below_null_bonf4": 0,  # 0.1 is below the 95% band, not the wider one
        "mod_x_pair_si_cells_outside_null": 3,
        "mod_x_pair_si_cells_above_null": 2,
        "mod_x_pair_si_cells_below_null": 1,
        "mod_x_pair_null_halfwidth_min": pytest.approx(0.02),
        "mod_x_pair_null_halfwidth_max": pytest.approx(0.2),
    }
    on_edges = {**bands, "pair": np.array([0.9, 0.7, 0.3, 0.3, 0.49])}  # on a bound: inside
    values = C.null_values(on_edges)
    assert values["mod_x_pair_si_cells_outside_null"] == 0
    assert values["mod_x_pair_si_cells_above_null"] == values["mod_x_pair_si_cells_below_null"] == 0


def test_no_difference_margin_is_the_largest_spread_of_a_table_1_row():
    from compsem.modifiers import chapter as C

    cells = ("si", "sni", "nspl", "nspr", "a")
    row = [TARGETS[f"mod_sbert_an_{c}_001t1"]["paper"] for c in cells]
    assert row == [0.95, 0.97, 0.99, 1.0, 0.97]
    # DPR's row (001 Table 1: 1.0 1.0 0.98 1.0 1.0) is not flat either, but spreads less
    assert [TARGETS[f"mod_dpr_nq_an_{c}_001t1"]["paper"] for c in cells] == [1.0, 1.0, 0.98, 1.0, 1.0]
    assert set(C.TABLE1_MODELS) >= {"sbert", "dpr_nq", "minilm", "glove"}
    margin = C.no_difference_margin(TARGETS)
    assert set(margin) == {"mod_x_margin_no_difference"}
    assert margin["mod_x_margin_no_difference"] == pytest.approx(0.05)
    changed = {k: dict(v) for k, v in TARGETS.items()}
    changed["mod_sbert_an_si_001t1"]["paper"] = 0.90
    assert C.no_difference_margin(changed)["mod_x_margin_no_difference"] == pytest.approx(0.10)
    changed["mod_dpr_nq_an_nspl_001t1"]["paper"] = 0.80  # now DPR's row spreads most
    assert C.no_difference_margin(changed)["mod_x_margin_no_difference"] == pytest.approx(0.20)


def test_paper_ranking_check_finds_the_ambiguous_class_misplaced():
    from compsem.modifiers import chapter as C

    frame, values = C.paper_ranking_check(TARGETS)
    assert len(frame) == values["mod_x_sbert_ranking_pairs"] == 10
    wrong = frame[~frame["agrees"]]
    # 001 Table 7, sBERT: (S-NI, A) 0.3213, (NS-Pl, A) 0.3045, (NS-Pr, A) 0.2805
    assert set(wrong["Table 7 cell"]) == {"(S-NI, A)", "(NS-Pl, A)", "(NS-Pr, A)"}
    assert values["mod_x_sbert_ranking_contradicted"] == 3
    assert values["mod_x_sbert_ranking_contradicted_min_dev"] == pytest.approx(0.5 - 0.3213)
    assert values["mod_x_sbert_ranking_contradicted_max_dev"] == pytest.approx(0.5 - 0.2805)
    # the step the synonym margin comes from agrees: (NS-Pl, NS-Pr) 0.4899 puts NS-Pr above NS-Pl
    step = frame[frame["Table 7 cell"] == "(NS-Pl, NS-Pr)"].iloc[0]
    assert step["agrees"] and step["Table 7 orders"] == "NS-Pr > NS-Pl"
    # the order the table's own cells give has no contradiction
    _, fixed = C.paper_ranking_check(TARGETS, ranking=("S-I", "A", "S-NI", "NS-Pr", "NS-Pl"))
    assert fixed["mod_x_sbert_ranking_contradicted"] == 0
    assert fixed["mod_x_sbert_ranking_contradicted_min_dev"] == 0.0


def test_synonym_counts_count_distinct_words():
    import pandas as pd

    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import Lexicon

    adjectives = pd.DataFrame({
        "word": ["doubtful", "questionable", "apparent", "ostensible"],
        "cls": ["NS-Pl"] * 4,
        "synonym": ["dubious", "Dubious", "seeming", "apparent"],  # one shared, one in the lexicon
    })
    counts = C.synonym_counts(Lexicon(adjectives, pd.DataFrame({"word": ["dog"]})))
    assert counts == {"mod_x_n_synonym_entries": 8, "mod_x_n_synonyms_distinct": 3,
                      "mod_x_n_synonyms_in_lexicon": 1, "mod_n_adjectives_with_synonyms": 6}


@pytest.mark.parametrize(("scores", "expected"), [
    ([0.5, 0.5, 0.5], 1.0),  # every adjective at the coin flip: no departure
    ([0.8, 0.8, 0.8], 0.0),  # every adjective the same way off it: a departure, not p = 1
    ([0.0, 0.0], 0.0),
    ([0.7], float("nan")),  # one adjective: no test
])
def test_p_score_is_half_without_spread(scores, expected):
    from compsem.modifiers import chapter as C

    p = C.p_score_is_half(scores)
    assert (np.isnan(p) and np.isnan(expected)) or p == expected


def test_p_score_is_half_with_spread_is_the_t_test():
    from scipy import stats as sps

    from compsem.modifiers import chapter as C

    scores = [0.6, 0.7, 0.65, 0.72]
    assert C.p_score_is_half(scores) == pytest.approx(sps.ttest_1samp(scores, 0.5).pvalue)
    assert C.p_score_is_half([0.4, 0.6]) == pytest.approx(1.0)  # centred on 0.5


def test_synonym_control_p_values_of_constant_classes(toy):
    import dataclasses
    from types import SimpleNamespace

    import pandas as pd

    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    per_adj = np.where(labels == "S-I", 1.0, 0.5)  # S-I always closer, the rest a coin flip
    grid = np.repeat(per_adj[:, None], 6, axis=1)
    control = SimpleNamespace(grid=lambda: grid, per_adjective=lambda: pd.Series(per_adj))
    constant = dataclasses.replace(run, synonym=control)
    frame, values = C.synonym_control({"c": constant}, ["c"], lex, level=0.95)
    p = frame.set_index("class")["p (score = 0.5)"]
    assert p["S-I"] == 0.0 and (p.drop("S-I") == 1.0).all()
    # the figure's interval is the test's: a constant class is its point
    by_class = frame.set_index("class")
    assert (by_class["t low"] == by_class["score"]).all() and (by_class["t high"] == by_class["score"]).all()
    assert values["mod_x_syn_classes_off_half_c"] == 1  # S-I departs, after Holm too


def test_class_spread_of_identical_classes_is_zero(toy):
    from compsem.modifiers import chapter as C

    lex, _, run = toy
    same = with_outcomes(run, an=lambda c: True, ns=lambda c: True, aan=lambda a, b: 1.0,
                         pair=lambda a, b: True)
    frame, values = C.class_spread({"toy": same}, ["toy"], lex, n_boot=50, seed=0)
    ceiling = {f"mod_x_ceiling_{t}": 1 for t in ("an", "aan", "pair", "ns")}  # every cell at 1
    assert {k: values.pop(k) for k in ceiling} == ceiling
    assert set(values) == {f"mod_x_spread_{t}_toy{e}" for t in ("an", "aan", "pair", "ns")
                           for e in ("", "_low", "_high", "_bonf2_high")}
    assert all(v == 0.0 for v in values.values()), values
    assert list(frame.index) == [(t, "toy") for t in ("aan", "an", "ns", "pair")]  # sorted by test
    assert (frame[["spread", "low", "high"]] == 0).all().all()
    assert ((frame["low"] <= 0) & (frame["high"] >= 0)).all()  # the interval contains 0


def test_class_spread_of_one_deviant_class(toy):
    from compsem.modifiers import chapter as C

    lex, _, run = toy
    only_si = with_outcomes(run, an=lambda c: c == "S-I", ns=lambda c: c != "A")
    frame, values = C.class_spread({"toy": only_si}, ["toy"], lex, n_boot=50, seed=0)
    # every adjective of a class behaves alike: resampling within class cannot move the spread
    assert (values["mod_x_spread_an_toy"], values["mod_x_spread_an_toy_low"],
            values["mod_x_spread_an_toy_high"]) == (1.0, 1.0, 1.0)
    assert values["mod_x_spread_ns_toy"] == values["mod_x_spread_ns_toy_low"] == 1.0
    assert values["mod_x_ceiling_an"] == values["mod_x_ceiling_ns"] == 0  # S-I alone at 1
    _, both = C.class_spread({"a": only_si, "b": run}, ["a", "b"], lex, n_boot=10, seed=0)
    assert both["mod_x_ceiling_an"] == 1  # counted over the models: b (pooled vectors) only
    assert frame.loc[("an", "toy"), "low"] > C.no_difference_margin(TARGETS)[
        "mod_x_margin_no_difference"]  # the claim of no difference fails here


def test_class_spread_interval_is_the_basic_interval_at_one_minus_two_alpha(toy):
    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    run = with_outcomes(run)  # random AN outcomes (mean pooling passes every AN comparison)
    holds = np.random.default_rng(0).random(len(run.an_phrases)) < 0.6
    run.an = {**run.an, "code": run.an["code"].assign(holds=holds)}
    frame, values = C.class_spread({"toy": run}, ["toy"], lex, n_boot=200, seed=3, alpha=0.05)
    grid = st.adjective_grid(run.an_phrases, run.an["code"]["holds"], lex)
    observed = st.spread(st.class_scores(grid, labels))
    assert values["mod_x_spread_an_toy"] == pytest.approx(observed)
    assert values["mod_x_spread_an_toy"] == pytest.approx(st.spread(list(run.scores("an").values())))
    # the percentile interval at 90% of the same draws, reflected about the observed spread
    _, p_low, p_high = st.bootstrap_statistic(
        lambda idx: st.spread(st.class_scores(grid[idx], labels)), labels, 200, 3, 0.90)
    assert values["mod_x_spread_an_toy_low"] == pytest.approx(max(0.0, 2 * observed - p_high))
    assert values["mod_x_spread_an_toy_high"] == pytest.approx(2 * observed - p_low)
    # one of a union of two equivalence tests: each at alpha / 2, so the 95% basic interval
    _, p_low_95, _ = st.bootstrap_statistic(
        lambda idx: st.spread(st.class_scores(grid[idx], labels)), labels, 200, 3, 0.95)
    assert values["mod_x_spread_an_toy_bonf2_high"] == pytest.approx(2 * observed - p_low_95)
    assert values["mod_x_spread_an_toy_bonf2_high"] >= values["mod_x_spread_an_toy_high"]
    ns_grid = st.adjective_grid(run.an_phrases, run.ns["holds"], lex)
    assert values["mod_x_spread_ns_toy"] == pytest.approx(st.spread(st.class_scores(ns_grid, labels)))
    for test in ("an", "aan", "pair", "ns"):
        key = f"mod_x_spread_{test}_toy"
        assert values[f"{key}_low"] <= values[f"{key}_high"], test
        assert frame.loc[(test, "toy"), "spread"] == values[key]
    # a wider alpha: a narrower interval
    _, narrow = C.class_spread({"toy": run}, ["toy"], lex, n_boot=200, seed=3, alpha=0.25)
    width = values["mod_x_spread_an_toy_high"] - values["mod_x_spread_an_toy_low"]
    assert width > 0
    assert narrow["mod_x_spread_an_toy_high"] - narrow["mod_x_spread_an_toy_low"] < width


def test_contrast_intervals_on_constructed_outcomes(toy):
    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    constructed = with_outcomes(run, ns=lambda c: c in ("NS-Pl", "NS-Pr", "A"),
                                aan=lambda a, b: float("S-I" not in (a, b)))
    values = C.contrast_intervals({"toy": constructed}, ["toy"], lex, n_boot=100, seed=0, level=0.95)
    assert set(values) == {
        "mod_x_nsdir_low_toy", "mod_x_nsdir_high_toy",
        "mod_x_si_minus_nspl_toy", "mod_x_si_minus_nspl_low_toy", "mod_x_si_minus_nspl_high_toy",
        "mod_x_si_minus_nspr_toy", "mod_x_si_minus_nspr_low_toy", "mod_x_si_minus_nspr_high_toy",
        "mod_x_ns_top_gap_toy", "mod_x_ns_top_gap_low_toy", "mod_x_ns_top_gap_high_toy",
        "mod_x_ns_top_other_n_toy", "mod_x_ns_top_other_range_toy",
        "mod_x_nsdir_classw_toy", "mod_x_nsdir_classw_low_toy", "mod_x_nsdir_classw_high_toy",
        "mod_x_aandrop_low_toy", "mod_x_aandrop_high_toy",
        "mod_x_aan_mean_toy", "mod_x_aan_mean_low_toy", "mod_x_aan_mean_high_toy",
        "mod_x_nsdir_bonf4_low_toy", "mod_x_nsdir_bonf4_high_toy",
        "mod_x_si_minus_nspl_bonf2_low_toy", "mod_x_si_minus_nspl_bonf2_high_toy",
        "mod_x_si_minus_nspr_bonf2_low_toy", "mod_x_si_minus_nspr_bonf2_high_toy",
        "mod_x_ns_top_gap_bonf2_low_toy", "mod_x_ns_top_gap_bonf2_high_toy",
    }
    assert values["mod_x_nsdir_low_toy"] == values["mod_x_nsdir_high_toy"] == 1.0
    for other in ("nspl", "nspr"):
        assert values[f"mod_x_si_minus_{other}_toy"] == -1.0
        assert values[f"mod_x_si_minus_{other}_low_toy"] == values[f"mod_x_si_minus_{other}_high_toy"] == -1
    # the highest other class (A, 1) minus the highest NS class (1): a tie at the top, gap 0
    assert values["mod_x_ns_top_gap_toy"] == values["mod_x_ns_top_gap_low_toy"] == 0.0
    # the top other class (A) scores 1 on every adjective: range 0
    assert values["mod_x_ns_top_other_range_toy"] == 0.0
    assert values["mod_x_ns_top_other_n_toy"] == int((labels == "A").sum())
    assert values["mod_x_nsdir_classw_toy"] == values["mod_x_nsdir_classw_low_toy"] == 1.0
    only_nspr = with_outcomes(run, ns=lambda c: c == "NS-Pr")  # an NS class alone on top
    top = C.contrast_intervals({"toy": only_nspr}, ["toy"], lex, n_boot=50, seed=0, level=0.95)
    assert top["mod_x_ns_top_gap_toy"] == top["mod_x_ns_top_gap_high_toy"] == -1.0
    # AAN: pairs without an S-I adjective all hold, pairs with one never: a drop of exactly 1
    assert values["mod_x_aandrop_low_toy"] == values["mod_x_aandrop_high_toy"] == 1.0
    n, n_si = len(labels), int((labels == "S-I").sum())
    assert values["mod_x_aan_mean_toy"] == pytest.approx((n - n_si) * (n - n_si - 1) / (n * (n - 1)))
    assert values["mod_x_aan_mean_low_toy"] < values["mod_x_aan_mean_toy"] < values[
        "mod_x_aan_mean_high_toy"]


def test_contrast_intervals_observed_values_are_the_class_scores(toy):
    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    no_aan = toy_run(lex, seed=2, spec="flat", aan=False)
    runs = {"toy": run, "flat": no_aan}
    values = C.contrast_intervals(runs, ["toy", "flat"], lex, n_boot=100, seed=0, level=0.9)
    ns = run.scores("ns")
    assert values["mod_x_si_minus_nspl_toy"] == pytest.approx(ns[("S-I",)] - ns[("NS-Pl",)])
    assert values["mod_x_si_minus_nspr_toy"] == pytest.approx(ns[("S-I",)] - ns[("NS-Pr",)])
    top_other = max(ns[(c,)] for c in ("S-I", "S-NI", "A"))
    assert values["mod_x_ns_top_gap_toy"] == pytest.approx(top_other - max(ns[("NS-Pl",)],
                                                                             ns[("NS-Pr",)]))
    # equal class weights: the mean of the NS class scores minus the mean of S-I and S-NI
    assert values["mod_x_nsdir_classw_toy"] == pytest.approx(
        (ns[("NS-Pl",)] + ns[("NS-Pr",)]) / 2 - (ns[("S-I",)] + ns[("S-NI",)]) / 2)
    top_cls = max(("S-I", "S-NI", "A"), key=lambda c: ns[(c,)])
    per_adj = st.adjective_grid(run.an_phrases, run.ns["holds"], lex).mean(axis=1)[labels == top_cls]
    assert values["mod_x_ns_top_other_range_toy"] == pytest.approx(np.ptp(per_adj))
    assert values["mod_x_aan_mean_toy"] == pytest.approx(run.aan["code"]["holds"].mean())
    assert not any(k.endswith("_flat") and ("aan" in k) for k in values)  # no AAN test run
    assert "mod_x_nsdir_low_flat" in values and "mod_x_si_minus_nspl_flat" in values
    for key in ("si_minus_nspl", "si_minus_nspr", "ns_top_gap", "aan_mean", "nsdir_classw"):
        assert values[f"mod_x_{key}_low_toy"] <= values[f"mod_x_{key}_toy"] <= values[
            f"mod_x_{key}_high_toy"], key
    # the union's intervals: the same draws at Bonferroni's level, so they contain the others
    for key, k in (("nsdir", 4), ("si_minus_nspl", 2), ("si_minus_nspr", 2), ("ns_top_gap", 2)):
        assert values[f"mod_x_{key}_bonf{k}_low_toy"] <= values[f"mod_x_{key}_low_toy"], key
        assert values[f"mod_x_{key}_bonf{k}_high_toy"] >= values[f"mod_x_{key}_high_toy"], key
    assert values["mod_x_nsdir_bonf4_low_toy"] < values["mod_x_nsdir_low_toy"]  # strictly wider here
    again = C.contrast_intervals(runs, ["toy", "flat"], lex, n_boot=100, seed=0, level=0.9)
    assert again == values


def test_lowest_class_high(toy):
    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    all_hold = with_outcomes(run, an=lambda c: True)
    assert C.lowest_class_high({"toy": all_hold}, ["toy"], lex, 50, 0, 0.95) == {
        "mod_x_an_lowest_high_toy": 1.0, "mod_x_an_lowest_high_bonf5_toy": 1.0,
        "mod_x_an_lowest_high_bonf10_toy": 1.0}
    one_fails = with_outcomes(run, an=lambda c: c != "S-NI")
    assert C.lowest_class_high({"toy": one_fails}, ["toy"], lex, 50, 0, 0.95) == {
        "mod_x_an_lowest_high_toy": 0.0, "mod_x_an_lowest_high_bonf5_toy": 0.0,
        "mod_x_an_lowest_high_bonf10_toy": 0.0}
    # one S-NI adjective fails on half the nouns: a resample without it scores 1 (probability
    # (2/3)^3), so at 95% the S-NI upper end is 1, at 20% (the 60th percentile) below 1
    grid, partial = one_sni_adjective_failing(run, lex, labels)
    high = C.lowest_class_high({"toy": partial}, ["toy"], lex, 200, 0, 0.95)["mod_x_an_lowest_high_toy"]
    boot = st.bootstrap_classes(grid, labels, n_boot=200, seed=0, level=0.95, resample_nouns=False)
    assert high == boot["high"].min() == 1.0
    low_level = C.lowest_class_high({"toy": partial}, ["toy"], lex, 200, 0, 0.2)
    assert low_level["mod_x_an_lowest_high_toy"] < 1.0  # at a narrow level the bound is below 1
    # the union's bounds are those of the same draws at 1 - 0.8 / k: wider, so never lower
    draws = st.class_score_draws(grid, labels, n_boot=200, seed=0, resample_nouns=False)
    for k in (5, 10):
        expected = np.quantile(draws, 1 - 0.8 / k / 2, axis=0).min()
        assert low_level[f"mod_x_an_lowest_high_bonf{k}_toy"] == expected
        assert low_level[f"mod_x_an_lowest_high_bonf{k}_toy"] >= low_level["mod_x_an_lowest_high_toy"]


def test_word_level_classes_detects_class_directions_in_word_vectors():
    from compsem.modifiers import chapter as C

    lex = toy_lexicon(3, 4)
    labels = lex.adjectives["cls"].to_numpy()
    run = toy_run(lex, seed=4)
    rng = np.random.default_rng(0)
    directions = {c: rng.normal(size=8) for c in set(labels)}
    table = random_vectors([*lex.words(), *lex.adjectives["synonym"]], 8, seed=4)
    for word, cls in zip(lex.adjectives["word"], labels, strict=True):
        table[word] = directions[cls] + 0.05 * rng.normal(size=8)
    words = lex.adjectives["word"].tolist()
    clustered = Space(words, np.stack([table[w] for w in words]), name="clustered")
    runs = {"toy": run, "clustered": with_outcomes(run)}
    runs["clustered"].space = clustered
    frame, values = C.word_level_classes(runs, ["toy", "clustered"], lex, n_perm=200, n_boot=100,
                                         seed=0, level=0.95)
    assert set(values) == {f"mod_x_wordclass_{q}_{s}" for q in ("diff", "low", "high", "p")
                           for s in ("toy", "clustered")} | {"mod_x_wordclass_models",
                                                             "mod_x_wordclass_above"}
    assert values["mod_x_wordclass_models"] == 2
    assert values["mod_x_wordclass_above"] == sum(values[f"mod_x_wordclass_low_{s}"] > 0
                                                  for s in ("toy", "clustered")) >= 1
    # by hand: mean cosine of two different adjectives of one class minus of two of different classes
    for spec in ("toy", "clustered"):
        unit = runs[spec].space.unit[runs[spec].space.rows(words)]
        sim = unit @ unit.T
        same = (labels[:, None] == labels[None, :]) & ~np.eye(len(labels), dtype=bool)
        diff = sim[same].mean() - sim[labels[:, None] != labels[None, :]].mean()
        assert values[f"mod_x_wordclass_diff_{spec}"] == pytest.approx(diff), spec
        assert 0 < values[f"mod_x_wordclass_p_{spec}"] <= 1
    assert values["mod_x_wordclass_diff_clustered"] > 0.5
    assert values["mod_x_wordclass_p_clustered"] == pytest.approx(1 / 201)
    assert values["mod_x_wordclass_low_clustered"] > 0.5
    assert values["mod_x_wordclass_low_toy"] < values["mod_x_wordclass_high_toy"]
    assert list(frame.index) == ["toy", "clustered"]
    assert frame.loc["clustered", "p (one-sided)"] == values["mod_x_wordclass_p_clustered"]


def test_synonym_equivalence_decisions_on_constructed_grids(toy):
    import dataclasses
    from types import SimpleNamespace

    from compsem.modifiers import chapter as C

    lex, labels, run = toy

    def with_grid(grid):
        return dataclasses.replace(run, synonym=SimpleNamespace(grid=lambda: grid))

    margin = abs(0.5 - TARGETS["mod_sbert_pair_nspl_nspr_001t7"]["paper"])
    at_half = with_grid(np.full((len(labels), 6), 0.5))
    si_above = np.full((len(labels), 6), 0.5)
    si_above[labels == "S-I"] = 1.0
    runs = {"half": at_half, "si": with_grid(si_above), "none": dataclasses.replace(run, synonym=None)}
    values = C.synonym_equivalence(runs, ["half", "si", "none"], lex, alpha=0.05, targets=TARGETS)
    assert values["mod_x_syn_margin"] == pytest.approx(margin) and margin == pytest.approx(0.0101)
    assert set(values) == {"mod_x_syn_margin", "mod_x_syn_eq_far_half", "mod_x_syn_neq_near_half",
                           "mod_x_syn_eq_far_si", "mod_x_syn_neq_near_si", "mod_x_syn_models",
                           "mod_x_syn_eq_models", "mod_x_syn_neq_models", "mod_x_syn_neq_classes",
                           "mod_x_syn_bonferroni_level"}  # no synonym run: left out
    assert values["mod_x_syn_neq_classes"] == 1  # S-I of "si"
    assert values["mod_x_syn_bonferroni_level"] == pytest.approx(1 - 0.05 / 10)
    # counted over the two models with the control: "half" equivalent, "si" departs
    assert (values["mod_x_syn_models"], values["mod_x_syn_eq_models"],
            values["mod_x_syn_neq_models"]) == (2, 1, 1)
    # every class at 0.5: equivalence shown (far 0 <= margin), no departure shown (near 0)
    assert values["mod_x_syn_eq_far_half"] == 0.0 and values["mod_x_syn_neq_near_half"] == 0.0
    # S-I at 1: its interval is [1, 1], 0.5 away from 0.5 at either level
    assert values["mod_x_syn_eq_far_si"] == 0.5 and values["mod_x_syn_neq_near_si"] == 0.5


def test_synonym_equivalence_bonferroni_counts_the_synonym_runs_only(toy):
    import dataclasses
    from types import SimpleNamespace

    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    rng = np.random.default_rng(5)
    grid = rng.uniform(0.3, 0.7, size=(len(labels), 6))
    grid[labels == "S-I"] = rng.uniform(0.75, 1.0, size=((labels == "S-I").sum(), 6))
    model = dataclasses.replace(run, synonym=SimpleNamespace(grid=lambda: grid))
    other = dataclasses.replace(run, synonym=SimpleNamespace(grid=lambda: grid[::-1].copy()))
    none = dataclasses.replace(run, synonym=None)
    alpha = 0.05

    def expected(m):
        tost = st.t_classes(grid, labels, level=1 - 2 * alpha)
        wide = st.t_classes(grid, labels, level=1 - alpha / m)  # Bonferroni: family at alpha
        far = max((tost["low"] - 0.5).abs().max(), (tost["high"] - 0.5).abs().max())
        assert wide.loc["S-I", "low"] > 0.5  # S-I departs even at the Bonferroni level
        near = max(min(abs(wide.loc[c, "low"] - 0.5), abs(wide.loc[c, "high"] - 0.5))
                   for c in st.CLASSES if wide.loc[c, "low"] > 0.5 or wide.loc[c, "high"] < 0.5)
        return far, near

    one = C.synonym_equivalence({"m": model, "n": none}, ["m", "n"], lex, alpha, TARGETS)
    two = C.synonym_equivalence({"m": model, "o": other}, ["m", "o"], lex, alpha, TARGETS)
    far, near_5 = expected(5)
    _, near_10 = expected(10)
    assert one["mod_x_syn_eq_far_m"] == pytest.approx(far) == two["mod_x_syn_eq_far_m"]
    assert one["mod_x_syn_neq_near_m"] == pytest.approx(near_5)  # m = 5: the synonym-less run not counted
    assert two["mod_x_syn_neq_near_m"] == pytest.approx(near_10)  # m = 10
    assert near_10 <= near_5


def test_class_spread_interval_never_below_zero_and_the_null_spread(toy):
    """A spread cannot be negative: the basic interval's reflection is cut at 0. With n_perm,
    the label-shuffle null of the spread: its alpha quantile, the same for any relabelling."""
    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    noisy = with_outcomes(run)  # noisy AAN and pair outcomes of random vectors
    holds = np.random.default_rng(1).random(len(run.an_phrases)) < 0.5
    noisy.an = {**run.an, "code": run.an["code"].assign(holds=holds)}
    frame, values = C.class_spread({"toy": noisy}, ["toy"], lex, n_boot=200, seed=0, n_perm=100)
    for test in ("an", "aan", "pair", "ns"):
        key = f"mod_x_spread_{test}_toy"
        assert 0.0 <= values[f"{key}_low"] <= values[f"{key}_high"], test
        null = values[f"mod_x_spread_null_{test}_toy"]
        assert 0.0 <= null <= 1.0 and frame.loc[(test, "toy"), "null"] == null
    assert "null" not in C.class_spread({"toy": noisy}, ["toy"], lex, n_boot=20, seed=0)[0]
    # the null of a constant outcome is 0, whatever the labels
    same = with_outcomes(run, an=lambda c: True, ns=lambda c: True, aan=lambda a, b: 1.0,
                         pair=lambda a, b: True)
    _, values = C.class_spread({"toy": same}, ["toy"], lex, n_boot=20, seed=0, n_perm=20)
    assert all(values[f"mod_x_spread_null_{t}_toy"] == 0.0 for t in ("an", "aan", "ns"))


def test_minilm_comparison_without_minilm_is_an_empty_table():
    """A run of other models only (the Stella command of the Reproduce section) has no
    mod_minilm_* key: the comparison is an empty table with a note, and nothing is glued."""
    from IPython.display import HTML, Markdown

    from compsem.modifiers import chapter as C

    table, values = C.minilm_comparison({"mod_x_an_min_mpnet": 1.0, "mod_stella_an_si_004t2": 1.0})
    assert table.empty and list(table.columns) == report.COMPARISON_COLUMNS and values == {}
    assert isinstance(C.show_minilm_comparison(table), Markdown)
    key = "mod_minilm_ns_si_001t8"
    table, values = C.minilm_comparison({key: TARGETS[key]["paper"], "mod_x_other": 0.3})
    assert list(table.index) == [key] and values == {"mod_x_minilm_matched": 1,
                                                     "mod_x_minilm_targets": 1}
    assert isinstance(C.show_minilm_comparison(table), HTML)


def test_one_sided_tests_without_a_model_run_on_the_test(toy):
    """No model ran the AAN test (aan_models = []): the AAN drop is an empty table."""
    import dataclasses

    from compsem.modifiers import chapter as C

    lex, _, run = toy
    no_aan = dataclasses.replace(run, aan={})
    frame, values = C.aan_drop({"toy": no_aan}, ["toy"], lex, n_perm=10, seed=0)
    assert frame.empty and values == {}
    frame, values = C.aan_drop({"toy": run}, ["toy"], lex, n_perm=10, seed=0)
    assert list(frame.index) == ["toy"] and set(values) == {
        f"mod_x_aandrop_{k}_toy" for k in ("diff", "p", "padj")} | {
        "mod_x_aandrop_models", "mod_x_aandrop_rejected"}
    assert values["mod_x_aandrop_models"] == 1
    assert values["mod_x_aandrop_rejected"] == int(values["mod_x_aandrop_padj_toy"] <= stats.ALPHA)


def test_plot_intervals_draws_the_intervals_the_table_has():
    import matplotlib.pyplot as plt
    import pandas as pd

    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import CLASSES

    plt.close("all")
    frame = pd.DataFrame([{"model": "A", "class": c, "score": 0.6, "t low": 0.4,
                           "t high": 0.8} for c in CLASSES])  # fmt: skip
    fig = C.plot_intervals(frame)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == [C.INTERVALS["t"][0]]
    plt.close("all")


def test_with_dashes_shows_nan_as_a_dash():
    import pandas as pd

    from compsem.modifiers import chapter as C

    frame = pd.DataFrame({"cells": [5, 9], "rho": [np.nan, 0.51234]}, index=["an", "ns"])
    html = C.with_dashes(frame).to_html()
    assert "–" in html and "0.512" in html and "nan" not in html.lower()
    assert C.with_dashes(None) is None


# --------------------------------------------------------------------------- paper values on the figures


def paper_crosses(ax) -> np.ndarray:
    """The points drawn as the paper's values (:data:`compsem.plotting.PAPER` zorder), (n, 2)."""
    from matplotlib.collections import PathCollection

    from compsem.plotting import PAPER

    points = [c.get_offsets() for c in ax.collections
              if isinstance(c, PathCollection) and c.get_zorder() == PAPER["zorder"]]
    return np.concatenate(points) if points else np.empty((0, 2))


def test_paper_values_are_the_targets_of_the_reproduced_model_only():
    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import CLASSES

    ns = C.paper_values("minilm", "ns", TARGETS)
    assert list(ns.index) == list(CLASSES)
    assert ns.to_dict() == {c: TARGETS[f"mod_minilm_ns_{T.cell_slug((c,))}_001t8"]["paper"]
                            for c in CLASSES}
    pair = C.paper_values("minilm", "pair", TARGETS)
    assert pair["(S-I, A)"] == TARGETS["mod_minilm_pair_si_a_001t7"]["paper"] and len(pair) == 15
    # a substitute, a stand-in and an ablation have no paper values of their own
    assert all(C.paper_values(s, "ns", TARGETS) is None
               for s in ("mean:glove50", "mpnet", "minilm:cls", "mean:spacy-md"))
    panels = C.paper_panels(["minilm", "mpnet", "mean:glove50"], "ns", TARGETS)
    assert list(panels) == [T.display_name("minilm")]


def test_plot_grids_marks_the_paper_cells_at_their_values():
    import matplotlib.pyplot as plt

    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import CLASSES

    plt.close("all")
    minilm = T.display_name("minilm")
    panels = [(minilm, np.full((5, 5), 0.6)), ("GloVe", np.full((5, 5), 0.4))]
    fig = C.plot_grids(panels, vmin=0, vmax=1, paper=C.paper_panels(["minilm"], "pair", TARGETS))
    marked, plain = fig.axes[:2]
    assert len(paper_crosses(plain)) == 0 and len(plain.texts) == 25
    crosses = {(round(x, 2), round(y, 2)) for x, y in paper_crosses(marked)}
    printed = {(round(t.get_position()[0], 2), round(t.get_position()[1], 2)): t.get_text()
               for t in marked.texts if t.get_fontsize() == 6}
    assert len(crosses) == len(printed) == 15  # the upper triangle of 001 Table 7
    for i, x in enumerate(CLASSES):
        for j, y in enumerate(CLASSES[i:], start=i):
            value = TARGETS[f"mod_minilm_pair_{T.cell_slug((x, y))}_001t7"]["paper"]
            at = (round(j + 0.22, 2), round(i + 0.72, 2))
            assert at in crosses  # the cross in cell (row x, column y)
            assert printed[(round(j + 0.34, 2), round(i + 0.72, 2))] == f"{value:.2f}"
    ours = [t for t in marked.texts if t.get_fontsize() != 6]
    assert len(ours) == 25 and all(t.get_text() == "0.60" for t in ours)
    assert sum(t.get_position()[1] % 1 == pytest.approx(0.33) for t in ours) == 15  # moved up
    plt.close("all")


def test_plot_intervals_marks_the_paper_values_in_the_reproduced_panel():
    import matplotlib.pyplot as plt
    import pandas as pd

    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import CLASSES

    plt.close("all")
    models = [T.display_name("mean:glove50"), T.display_name("minilm")]
    frame = pd.DataFrame([{"model": m, "class": c, "score": 0.5, "Wilson low": 0.45,
                           "Wilson high": 0.55, "bootstrap low": 0.3, "bootstrap high": 0.7}
                          for m in models for c in CLASSES])  # fmt: skip
    paper = C.paper_panels(["mean:glove50", "minilm"], "ns", TARGETS)
    fig = C.plot_intervals(frame, paper=paper)
    glove, minilm = fig.axes
    assert len(paper_crosses(glove)) == 0
    crosses = paper_crosses(minilm)
    assert list(crosses[:, 0]) == pytest.approx(range(5))  # each class, between the two dots
    assert list(crosses[:, 1]) == pytest.approx(
        [TARGETS[f"mod_minilm_ns_{T.cell_slug((c,))}_001t8"]["paper"] for c in CLASSES])
    assert "paper" in [t.get_text() for t in minilm.get_legend().get_texts()]
    plt.close("all")


def test_plot_null_marks_the_paper_values():
    import matplotlib.pyplot as plt

    from compsem.modifiers import chapter as C
    from compsem.modifiers.lexicon import CLASSES

    plt.close("all")
    bands = {f"{w}{e}": np.full(5, v) for w in ("pair", "ns")
             for e, v in (("", 0.5), ("_low", 0.3), ("_high", 0.7))}
    fig = C.plot_null(bands, "MiniLM", {t: C.paper_values("minilm", t, TARGETS)
                                        for t in ("pair", "ns")})
    pair, ns = fig.axes
    assert list(paper_crosses(pair)[:, 0]) == pytest.approx(range(5))
    si_row = [TARGETS[f"mod_minilm_pair_si_{T.cell_slug((c,))}_001t7"]["paper"] for c in CLASSES]
    assert list(paper_crosses(pair)[:, 1]) == pytest.approx(si_row)
    # 001 Table 3 prints the same (S-I, Y) cells to three decimals
    table3 = [TARGETS[f"mod_minilm_pair_si_{T.cell_slug((c,))}_001t3"] for c in CLASSES]
    assert all(abs(v - t["paper"]) <= t["tol"] for v, t in zip(si_row, table3, strict=True))
    assert list(paper_crosses(ns)[:, 1]) == pytest.approx(
        [TARGETS[f"mod_minilm_ns_{T.cell_slug((c,))}_001t8"]["paper"] for c in CLASSES])
    assert "paper" in [t.get_text() for t in pair.get_legend().get_texts()]
    plt.close("all")
    fig = C.plot_null(bands, "GloVe", {t: C.paper_values("mean:glove50", t, TARGETS)
                                       for t in ("pair", "ns")})
    assert all(len(paper_crosses(ax)) == 0 for ax in fig.axes)  # no paper model, no crosses
    plt.close("all")


# --------------------------------------------------------------------------- counts the prose quotes


def test_class_differences_count_the_models_rejected_per_test(toy):
    from compsem.modifiers import chapter as C

    lex, _, run = toy
    by_class = with_outcomes(run, ns=lambda c: c == "S-I")  # Eq. 8 decided by the class
    table, values = C.class_differences({"a": by_class, "c": run}, ["a", "c"], lex, n_perm=200,
                                        seed=0)
    for test in ("an", "aan", "pair", "ns"):
        p_holm = table.loc[test, "p_holm"]
        assert values[f"mod_x_perm_models_{test}"] == 2
        assert values[f"mod_x_perm_rejected_{test}"] == int((p_holm <= stats.ALPHA).sum())
    assert values["mod_x_perm_rejected_an"] == 0  # pooled vectors: every AN class at 1
    assert values["mod_x_perm_rejected_ns"] == 1  # a, whose classes differ by construction
    assert table.loc["ns", "p_holm"].tolist() == [values["mod_x_padj_ns_a"],
                                                  values["mod_x_padj_ns_c"]]


def test_synonym_control_counts_over_all_classes(toy):
    from compsem.modifiers import chapter as C

    lex, labels, run = toy
    frame, values = C.synonym_control({"a": run, "b": toy_run(lex, seed=2)}, ["a", "b"], lex,
                                      level=0.95)
    # the figure draws the Student-t interval the equivalence test decides on, cut to [0, 1]
    a = frame[frame.model == frame.model.iloc[0]].set_index("class")
    t = st.t_classes(run.synonym.grid(), labels, level=0.95, bounds=stats.PROPORTION)
    assert (a["t low"] >= 0).all() and (a["t high"] <= 1).all()
    assert np.allclose(a["t low"], t["low"]) and np.allclose(a["t high"], t["high"])
    assert values["mod_x_syn_classes_tested"] == int(frame["p_holm"].notna().sum()) == 10
    assert values["mod_x_syn_classes_off_half"] == (
        values["mod_x_syn_classes_off_half_a"] + values["mod_x_syn_classes_off_half_b"])


def test_template_table_glues_the_largest_changes(toy):
    from compsem.modifiers import chapter as C

    lex, _, run = toy
    templated = with_outcomes(run, ns=lambda c: c != "A", pair=lambda a, b: a == "S-I")
    _, values, words = C.template_table({"toy": run}, {"toy": templated})
    ns_change = max(abs(templated.scores("ns")[c] - run.scores("ns")[c]) for c in T.AN_CELLS)
    pair_change = max(abs(templated.scores("pair")[c] - run.scores("pair")[c])
                      for c in T.PAIR_CELLS)
    assert values["mod_x_template_ns_max_change_toy"] == pytest.approx(ns_change) and ns_change > 0
    assert values["mod_x_template_pair_max_change_toy"] == pytest.approx(pair_change)
    assert pair_change > 0
    # the class that changes most is glued with its own two scores, not another class's
    for test, cells in (("ns", T.AN_CELLS), ("pair", T.PAIR_CELLS)):
        label = words[f"mod_x_template_{test}_max_change_cell_toy"]
        (cell,) = [c for c in cells if T.cell_label(c) == label]
        bare = values[f"mod_x_template_{test}_max_change_bare_toy"]
        in_template = values[f"mod_x_template_{test}_max_change_template_toy"]
        assert bare == pytest.approx(run.scores(test)[cell])
        assert in_template == pytest.approx(templated.scores(test)[cell])
        assert abs(in_template - bare) == pytest.approx(values[f"mod_x_template_{test}_max_change_toy"])
    _, same, _ = C.template_table({"toy": run}, {"toy": run})
    assert same["mod_x_template_ns_max_change_toy"] == same["mod_x_template_pair_max_change_toy"] == 0


def test_largest_change_names_the_class_that_moves_most():
    from compsem.modifiers import chapter as C

    before = {("S-I",): 0.614, ("S-NI",): 0.486, ("NS-Pl",): 0.432, ("NS-Pr",): 0.679,
              ("A",): 0.111}
    # NS-Pr moves by 0.095, S-NI by 0.153 (the most, though NS-Pr ends lowest relative to start)
    after = {**before, ("NS-Pr",): 0.583, ("S-NI",): 0.333, ("A",): 0.139}
    assert C.largest_change(before, after, "ns") == ("S-NI", 0.486, 0.333)
    # a rise counts as much as a fall; on a tie the first class in the paper's order
    assert C.largest_change(before, {**before, ("A",): 0.311}, "ns")[0] == "A"
    start = {**before, ("S-I",): 0.5, ("A",): 0.25}
    tie = {**start, ("S-I",): 0.75, ("A",): 0.0}
    assert C.largest_change(start, tie, "ns")[0] == "S-I"
    with pytest.raises(ValueError, match="no cell"):
        C.largest_change({}, after, "ns")


def test_printing_convention_counts_rounded_and_truncated_cells():
    from compsem.modifiers import chapter as C

    key = "mod_minilm_pair_{}_001t7"
    targets = {key.format("sni_nspl"): {"paper": 0.4987}, key.format("si_nspl"): {"paper": 0.7275},
               key.format("si_si"): {"paper": 0.5}, key.format("si_a"): {"paper": 0.8909},
               key.format("a_a"): {"paper": 0.5}}
    ours = {key.format("sni_nspl"): 0.498760,  # rounds to 0.4988: printed truncated
            key.format("si_nspl"): 0.727492,  # truncates to 0.7274: printed rounded
            key.format("si_si"): 0.5,  # both conventions print 0.5000: decides nothing
            key.format("si_a"): 0.89216,  # 0.8922 or 0.8921, neither printed: ours is off
            "mod_minilm_pair_sni_sni_001t7": 0.5}  # no target: not counted
    counts, words = C.printing_convention(ours, targets, tables=(("pair", "001", 7),))
    assert counts == {"mod_x_print_001t7_cells": 4, "mod_x_print_001t7_differ": 3,
                      "mod_x_print_001t7_rounded": 1, "mod_x_print_001t7_truncated": 1,
                      "mod_x_print_001t7_neither": 1}
    assert words == {"mod_x_print_001t7_rounded_cells": "(S-I, NS-Pl)",
                     "mod_x_print_001t7_truncated_cells": "(S-NI, NS-Pl)"}
    # a share with an exact short decimal form is not truncated through its binary form
    exact = {key.format("si_nspl"): 0.88}
    counts, _ = C.printing_convention(exact, {key.format("si_nspl"): {"paper": 0.8799}},
                                      tables=(("pair", "001", 7),))
    assert counts["mod_x_print_001t7_differ"] == 0
    # ns (001 Table 8) and the real targets: NS-Pl 0.43209... printed 0.4320 is truncated
    counts, words = C.printing_convention({"mod_minilm_ns_nspl_001t8": 0.432099}, TARGETS,
                                          tables=(("ns", "001", 8),))
    assert counts["mod_x_print_001t8_truncated"] == counts["mod_x_print_001t8_cells"] == 1
    assert words["mod_x_print_001t8_rounded_cells"] == "none"


def test_mean_pooled_encoders_and_their_ceiling(toy):
    from compsem.modifiers import chapter as C

    assert C.mean_pooled(["minilm", "mpnet", "minilm:cls", "mean:glove50", "mean:spacy-md",
                          "hf:sentence-transformers/stsb-bert-base",
                          "hf:sentence-transformers/LaBSE",
                          "hf:sentence-transformers/sentence-t5-base"]) == [
        "minilm", "mpnet", "hf:sentence-transformers/stsb-bert-base"]
    # one encoder under two names (packaged and hub) is counted once, as first named
    assert C.mean_pooled(["hf:sentence-transformers/all-MiniLM-L6-v2", "mpnet", "minilm"]) == [
        "hf:sentence-transformers/all-MiniLM-L6-v2", "mpnet"]
    lex, labels, run = toy
    at_one = with_outcomes(run, an=lambda c: True)
    runs = {"minilm": at_one, "mpnet": at_one, "mean:glove50": with_outcomes(run, an=lambda c: False)}
    values = C.mean_pooled_ceiling(runs, lex, 50, 0, 0.95)
    assert values == {"mod_x_meanpool_n": 2, "mod_x_meanpool_union_k": 10,
                      "mod_x_meanpool_an_min": 1.0, "mod_x_meanpool_lowest_high_bonf": 1.0}
    # one S-NI adjective fails on half the nouns for MPNet: its bound is the per-model bound at
    # Bonferroni's level for ten tests, from the same draws
    _, partial = one_sni_adjective_failing(run, lex, labels)
    runs["mpnet"] = partial
    values = C.mean_pooled_ceiling(runs, lex, 200, 0, 0.2)
    per_model = C.lowest_class_high(runs, ["minilm", "mpnet"], lex, 200, 0, 0.2)
    assert values["mod_x_meanpool_lowest_high_bonf"] == min(
        per_model["mod_x_an_lowest_high_bonf10_minilm"], per_model["mod_x_an_lowest_high_bonf10_mpnet"])
    assert values["mod_x_meanpool_an_min"] == pytest.approx(min(partial.scores("an").values()))
    assert values["mod_x_meanpool_an_min"] < 1
    assert C.mean_pooled_ceiling({"mean:glove50": run}, lex, 50, 0, 0.95) == {
        "mod_x_meanpool_n": 0, "mod_x_meanpool_union_k": 0}


def test_paper_an_min_reads_either_version():
    from compsem.modifiers import chapter as C

    assert C.paper_an_min(TARGETS, "sbert") == 0.95  # 001 Table 1, the mean-pooled sBERT
    assert C.paper_an_min(TARGETS, "labse") == C.paper_an_min(TARGETS, "labse", "004") == 1.0
    changed = {**TARGETS, "mod_labse_an_a_004t2": {**TARGETS["mod_labse_an_a_004t2"], "paper": 0.9}}
    assert C.paper_an_min(changed, "labse", "004") == 0.9 and C.paper_an_min(changed, "labse") == 1.0


def test_minilm_tolerances_are_read_from_the_targets():
    from compsem.modifiers import chapter as C

    tol = C.minilm_tolerances(TARGETS)
    assert set(tol) == {f"mod_x_tol_001t{n}" for n in (1, 2, 3, 4, 6, 7, 8)}
    for key, value in tol.items():
        table = key.rsplit("_", 1)[1]
        assert {t["tol"] for k, t in TARGETS.items()
                if k.startswith("mod_minilm_") and k.endswith(f"_{table}")} == {value}
    changed = {**TARGETS, "mod_minilm_ns_si_001t8": {**TARGETS["mod_minilm_ns_si_001t8"], "tol": 0.1}}
    with pytest.raises(ValueError, match="001t8"):
        C.minilm_tolerances(changed)


def test_class_table_counts_the_lexicons_classes():
    from compsem.modifiers import chapter as C
    from compsem.modifiers import lexicon

    lex = lexicon.load()
    table, counts = C.class_table(lex)
    assert list(table.index) == list(lexicon.CLASSES)
    for cls in lexicon.CLASSES:
        words = lex.adjectives.loc[lex.adjectives["cls"] == cls, "word"]
        assert table.loc[cls, "adjectives"] == len(words) == counts[f"mod_n_class_{T.cell_slug((cls,))}"]
        assert table.loc[cls, "words"] == ", ".join(words)
    assert table["adjectives"].sum() == counts["mod_n_adjectives"] == len(lex.adjectives)
    assert counts["mod_n_nouns"] == len(lex.nouns)
    info = {c["code"]: c for c in lexicon.class_info()["classes"]}
    assert table.loc["S-I", "001 Table 5"] == info["S-I"]["count_2022"]


def test_runs_table_says_what_each_run_did():
    from types import SimpleNamespace

    from compsem.modifiers import chapter as C

    class Space(list):
        oov: list

    space, small = Space(range(7)), Space(range(3))
    space.oov, small.oov = ["zyx"], []
    run = SimpleNamespace(aan={"x": 1}, space=space, seconds=1.26)
    empty = SimpleNamespace(aan={}, space=small, seconds=0.04)
    runs = C.runs_table({"glove50": run, "minilm": empty})
    assert runs.to_dict("list") == {"AAN test": [True, False], "strings embedded": [7, 3],
                                    "seconds (embedding and tests)": [1.3, 0.0],
                                    "out-of-vocabulary words": ["zyx", "–"]}
    assert list(runs.index) == [T.display_name("glove50"), T.display_name("minilm")]
