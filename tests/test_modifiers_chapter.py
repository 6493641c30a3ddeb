"""The chapter helpers of compsem.modifiers: Holm's adjustment, the AAN-drop contrast, the synonym
control, the row order of the comparison tables, and the trust_remote_code opt-in."""

from __future__ import annotations

import numpy as np
import pytest
from test_modifiers_metrics import DictVectors, random_vectors, toy_lexicon

from compsem import report
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
