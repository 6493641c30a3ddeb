"""Library helpers that took over small computations from the chapter sources (a loop of glued
values, the paper's numbers the text quotes): each gives exactly what the chapter's own code
gave, on synthetic inputs against that code written out."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from compsem import synthesis
from compsem.cogs import data_chapter, lf
from compsem.modifiers import chapter as modifiers_chapter
from compsem.probing import chapter as probing_chapter
from compsem.targets import load_targets

# --------------------------------------------------------------------------- probing-composition


def test_training_means_average_the_seeds_of_each_training_in_order():
    runs = pd.DataFrame({
        "task": ["t", "t", "t", "t", "u", "u"],
        "encoder": ["sdae:seed1", "sdae", "sdae:seed1", "sdae", "sdae", "sdae"],
        "seed": [0, 0, 1, 1, 0, 1],
        "accuracy": [60.0, 70.0, 62.5, 71.0, 55.0, 45.0],
    })
    means = probing_chapter.training_means(runs)
    expected = runs.groupby(["task", "encoder"], sort=False)["accuracy"].mean().reset_index()
    pd.testing.assert_frame_equal(means, expected)
    assert means.to_dict("records") == [
        {"task": "t", "encoder": "sdae:seed1", "accuracy": 61.25},
        {"task": "t", "encoder": "sdae", "accuracy": 70.5},
        {"task": "u", "encoder": "sdae", "accuracy": 50.0},
    ]


# --------------------------------------------------------------------------- synthesis


def test_critical_rhos_key_each_n_in_order():
    values = synthesis.critical_rhos((5, 4, 6))
    assert list(values) == ["syn_critical_rho_5", "syn_critical_rho_4", "syn_critical_rho_6"]
    assert values["syn_critical_rho_5"] == synthesis.critical_rho(5) == pytest.approx(0.9)
    assert values["syn_critical_rho_6"] == synthesis.critical_rho(6)


def scorecard() -> pd.DataFrame:
    rows = [("STS3k within Swap-2", "bow", 0.1), ("STS3k within Swap-2", "glove", 0.3),
            ("STS3k within Swap-2", "sdae", 0.5), ("SemRole accuracy", "bow", 55.0),
            ("SemRole accuracy", "sdae", 80.0), ("SemRole accuracy", "mpnet", 70.0),
            ("Negation accuracy", "mpnet", 90.0), ("Negation accuracy", "glove", 60.0)]
    return pd.DataFrame(rows, columns=["measure", "model", "value"])


def test_group_ranges_are_the_chapters_loop():
    table = scorecard()
    groups = {"order_blind": ["bow", "glove"], "order_aware": ["sdae", "mpnet"], "none": ["absent"]}
    expected = {}  # the chapter's code before
    for measure, key in (("STS3k within Swap-2", "swap2"), ("SemRole accuracy", "semrole"),
                         ("STS3k within Negative", "negative"), ("Negation accuracy", "negation")):
        for group, models in groups.items():
            if measure in set(table["measure"]) and set(models) & set(table["model"]):
                low, high = synthesis.group_range(table, measure, models)
                expected[f"syn_{key}_{group}_min"], expected[f"syn_{key}_{group}_max"] = low, high
    values = synthesis.group_ranges(table, groups)
    assert list(values.items()) == list(expected.items())
    assert values["syn_swap2_order_blind_min"] == 0.1 and values["syn_swap2_order_blind_max"] == 0.3
    assert values["syn_semrole_order_aware_min"] == 70.0 and values["syn_semrole_order_aware_max"] == 80.0
    assert "syn_negative_order_blind_min" not in values  # a measure the table lacks
    assert not any("_none_" in key for key in values)  # a group with no encoder in the table
    with pytest.raises(ValueError, match="none of"):  # an encoder in the table, none scored on it
        synthesis.group_ranges(table, {"order_blind": ["bow"]}, {"STS3k-all": "all", "Negation accuracy": "n"})


# --------------------------------------------------------------------------- cogs-data

PLAIN = "help . agent ( x _ 1 , William ) AND help . theme ( x _ 1 , x _ 3 ) AND girl ( x _ 3 )"
# the same conjuncts out of the released order: the sentence-free rule does not give it back
REORDERED = "girl ( x _ 3 ) AND help . agent ( x _ 1 , William ) AND help . theme ( x _ 1 , x _ 3 )"
PRIMITIVE = "LAMBDA a . girl ( a )"


def test_ambiguous_order_values_glue_each_file():
    index = pd.MultiIndex.from_tuples([("gen", "a"), ("gen", "b"), ("exposure-100", "c")],
                                      names=["file", "case"])
    counts = pd.Series([1, 2, 4], index=index)
    values = data_chapter.ambiguous_order_values(counts)
    assert values == {"cogsdata_ambiguous_order_train": 0, "cogsdata_ambiguous_order_gen": 3,
                      "cogsdata_ambiguous_order_exposure100": 4}
    assert list(values) == ["cogsdata_ambiguous_order_train", "cogsdata_ambiguous_order_gen",
                            "cogsdata_ambiguous_order_exposure100"]


def test_shuffled_unrestored_sums_the_files_on_one_generator():
    splits = {"train": pd.DataFrame({"target": [PLAIN, REORDERED, PRIMITIVE]}),
              "gen": pd.DataFrame({"target": [REORDERED, PLAIN, REORDERED]}),
              "dev": pd.DataFrame({"target": [REORDERED]})}
    keys = [(name, i) for name, frame in splits.items() for i in range(len(frame))]
    forms = pd.Series([lf.parse(t) for frame in splits.values() for t in frame.target],
                      index=pd.MultiIndex.from_tuples(keys))
    rng_a, rng_b = random.Random(0), random.Random(0)
    total = data_chapter.shuffled_unrestored(splits, forms, rng_a, ("train", "gen"))
    expected = sum(  # the chapter's code before
        data_chapter.shuffled_not_restored(splits[name].target, forms.loc[name], rng_b)
        for name in ("train", "gen")
    )
    assert total == expected == 3  # the reordered forms; dev is not read
    assert isinstance(total, int)
    assert rng_a.random() == rng_b.random()  # as many draws: the perturbations after it see the same


# --------------------------------------------------------------------------- modifiers-consistency


def test_quoted_paper_values_read_the_targets_in_order():
    targets = {target: {"paper": float(i), "tol": 0.0, "source": "x"}
               for i, target in enumerate(modifiers_chapter.QUOTED_PAPER_KEYS.values())}
    values = modifiers_chapter.quoted_paper_values(targets)
    assert list(values) == list(modifiers_chapter.QUOTED_PAPER_KEYS)
    assert list(values.values()) == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert modifiers_chapter.quoted_paper_values(targets, {"k": "mod_minilm_ns_nspr_001t4"}) == {"k": 2.0}
    real = load_targets("modifiers")
    assert modifiers_chapter.quoted_paper_values(real) == {
        key: real[target]["paper"] for key, target in modifiers_chapter.QUOTED_PAPER_KEYS.items()}
