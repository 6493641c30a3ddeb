"""compsem.probing.chapter: the layers the layer-sweep prose names (layer_landmarks) and how the
averaging encoders' intervals lie against chance (margin_summary, order_blind_margin), on
constructed tables and glued values (no data, no encoder)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from compsem.probing import chapter as C


def sweep(task, pooling, rows):
    """Rows of :func:`compsem.probing.chapter.layer_summary`'s table: ``(layer, accuracy, low,
    high)`` per layer, in the order given."""
    return [dict(task=task, pooling=pooling, layer=layer, accuracy=acc, low=low, high=high)
            for layer, acc, low, high in rows]


# --------------------------------------------------------------------------- layer_landmarks


def test_layer_landmarks_name_the_layers_from_the_sweep_not_by_hand():
    table = pd.DataFrame(
        sweep("school-as-agent", "mean", [
            (6, 98.6, 97.6, 99.6),  # best
            (0, 68.2, 64.0, 72.4),  # lowest, above chance
            (12, 97.2, 95.8, 98.6),  # highest
            (3, 96.6, 95.0, 98.0),  # first whose lower end reaches 98.6 - 5
            (9, 96.2, 94.4, 97.8),
        ])
        + sweep("school-as-agent", "cls", [(0, 50.0, 45.6, 54.4), (3, 95.4, 93.6, 97.2),
                                           (6, 98.2, 97.0, 99.2)])
    )
    values, words = C.layer_landmarks(table, margin=5)
    key = "probe_layer_{}_school_as_agent_mean"
    assert values[key.format("lowest")] == 0
    assert (values[key.format("lowest") + "_acc"], values[key.format("lowest") + "_acc_low"],
            values[key.format("lowest") + "_acc_high"]) == (68.2, 64.0, 72.4)
    assert values[key.format("highest")] == 12 and values[key.format("highest") + "_acc"] == 97.2
    assert values[key.format("best")] == 6 and values[key.format("best") + "_acc"] == 98.6
    assert values[key.format("first_reaching_best")] == 3
    assert values[key.format("first_reaching_best") + "_acc_low"] == 95.0
    assert words["probe_layer_lowest_school_as_agent_mean_side"] == "above chance"
    assert words["probe_layer_lowest_school_as_agent_cls_side"] == "not apart from chance"
    assert values["probe_layer_best_school_as_agent_cls"] == 6
    assert values["probe_layer_first_reaching_best_school_as_agent_cls"] == 3  # 93.6 >= 93.2
    # another sweep (the parameter layers_2016) moves the named layers with it
    fewer = table[table.layer.isin([3, 9, 12])]
    values = C.layer_landmarks(fewer, margin=5)[0]
    assert values[key.format("lowest")] == 3 and values[key.format("best")] == 12
    assert values[key.format("first_reaching_best")] == 3  # 95.0 >= 97.2 - 5


def test_layer_landmarks_take_the_lowest_of_tied_best_layers_and_omit_where_none_reaches():
    table = pd.DataFrame(sweep("released neg", "mean", [
        (8, 80.0, 60.0, 100.0),  # wide intervals: no lower end reaches 80 - 5
        (4, 80.0, 60.0, 100.0),
        (0, 50.0, float("nan"), float("nan")),  # no interval: no side of chance
    ]))
    values, words = C.layer_landmarks(table, margin=5)
    assert values["probe_layer_best_released_neg_mean"] == 4
    assert "probe_layer_first_reaching_best_released_neg_mean" not in values  # never a NaN glued
    assert not any(k.startswith("probe_layer_first_reaching_best_released_neg_mean") for k in values)
    assert "probe_layer_lowest_released_neg_mean_acc_low" not in values
    assert words == {}


def test_layer_summary_parses_layer_and_pooling_from_the_encoder_names():
    summary = pd.DataFrame([
        dict(task="school-as-agent", encoder="mpnet:layer3", accuracy=96.6, low=95.0, high=98.0),
        dict(task="school-as-agent", encoder="mpnet:layer12:cls", accuracy=97.4, low=96.0, high=98.8),
    ])
    table, values = C.layer_summary(summary)
    assert list(table.layer) == [3, 12] and list(table.pooling) == ["mean", "cls"]
    assert values == {"probe_layer_school_as_agent_mean_3": 96.6,
                      "probe_layer_school_as_agent_mean_3_low": 95.0,
                      "probe_layer_school_as_agent_mean_3_high": 98.0,
                      "probe_layer_school_as_agent_cls_12": 97.4,
                      "probe_layer_school_as_agent_cls_12_low": 96.0,
                      "probe_layer_school_as_agent_cls_12_high": 98.8}


# --------------------------------------------------------------------------- margin_summary


def test_margin_summary_counts_and_gives_the_interval_end_furthest_from_chance():
    values = {
        "probe_prof_ag_of_rec_bow_low90": 46.1, "probe_prof_ag_of_rec_bow_high90": 54.6,
        "probe_prof_ag_of_rec_glove50_low90": 47.6, "probe_prof_ag_of_rec_glove50_high90": 55.2,
        "probe_prof_recommends_bow_low90": 38.0, "probe_prof_recommends_bow_high90": 44.0,
    }
    cells = ["probe_prof_ag_of_rec_bow", "probe_prof_ag_of_rec_glove50"]
    out = C.margin_summary(values, cells, "p", 50, 5)
    assert out == {"p_cells": 2, "p_not_within": 1, "p_outside": 0, "p_widest_end": 55.2}
    out = C.margin_summary(values, [*cells, "probe_prof_recommends_bow"], "p", 50, 5)
    assert out == {"p_cells": 3, "p_not_within": 2, "p_outside": 1, "p_widest_end": 38.0}
    assert math.isnan(C.margin_summary(values, [], "p", 50, 5)["p_widest_end"])
    with pytest.raises(KeyError):
        C.margin_summary(values, ["probe_prof_recommends_glove50"], "p", 50, 5)


def test_order_blind_margin_reads_only_the_averaging_encoders_run():
    values = {
        "probe_prof_ag_of_rec_bow_low90": 46.1, "probe_prof_ag_of_rec_bow_high90": 54.6,
        "probe_prof_ag_of_rec_glove50_low90": 47.6, "probe_prof_ag_of_rec_glove50_high90": 55.2,
        "probe_prof_ag_of_rec_mpnet_low90": 85.8, "probe_prof_ag_of_rec_mpnet_high90": 90.1,
    }
    out = C.order_blind_margin(values, ["prof-ag-of-rec"], ["bow", "glove50", "mpnet"], "probe",
                               "probe_proposed", 5)
    assert out == {"probe_proposed_cells": 2, "probe_proposed_not_within": 1,
                   "probe_proposed_outside": 0, "probe_proposed_widest_end": 55.2}
    assert set(C.ORDER_BLIND) == {"bow", "glove50", "spacy-md"}


def test_geometry_run_glues_the_shares_closer_tied_and_strictly_closer(monkeypatch):
    from compsem.probing import geometry

    cosines = {"bow": {"sentence_paraphrase": np.array([1.0, 1.0, 0.9, 0.8]),
                       "sentence_swap": np.array([1.0, 1.0, 1.0, 1.0]),
                       "sentence_negation": np.array([0.7, 0.7, 0.7, 0.7])}}
    monkeypatch.setattr(geometry, "cosines_by_encoder", lambda pairs, names, batch, device: cosines)
    monkeypatch.setattr(geometry, "separation_table", lambda c, n_boot, seed: pd.DataFrame(
        [dict(encoder="bow", versus="swap", **geometry.separation(c["bow"]["sentence_paraphrase"],
                                                                  c["bow"]["sentence_swap"], n_boot=20))]))
    _, _, values = C.geometry_run(pd.DataFrame(), ["bow"], "mpnet", [], 20, 0)
    assert values["probe_geometry_bow_swap_tied"] == 50.0
    assert values["probe_geometry_bow_swap_closer"] == 25.0  # two ties counted half
    assert values["probe_geometry_bow_swap_strictly_closer"] == 0.0


# --------------------------------------------------------------------------- the epoch cap


def test_fits_at_cap_counts_the_fits_that_ran_to_the_cap_per_cell():
    runs = pd.DataFrame({"task": ["sr", "sr", "neg", "neg", "neg"],
                         "encoder": ["minilm", "minilm", "minilm", "minilm", "bow"],
                         "control": ["none", "none", "none", "random probe", "none"],
                         "epochs": [100, 37, 12, 100, 100]})
    values = C.fits_at_cap(runs, "p", 100)
    assert values == {"p_fits": 4, "p_fits_at_cap": 2, "p_sr_minilm_at_cap": 1, "p_neg_minilm_at_cap": 0,
                      "p_neg_bow_at_cap": 1}  # the control's fit is not counted
    by_task = C.fits_at_cap(runs, "t", 700, by=("task",))
    assert by_task["t_fits_at_cap"] == 0 and by_task["t_sr_at_cap"] == 0


def test_sides_against_chance_and_against_the_paper():
    assert C.side_of(40.0, 45.0, 50.0) == "below" and C.side_of(51.0, 60.0, 50.0) == "above"
    assert C.side_of(45.0, 55.0, 50.0) == "not apart from" and C.side_of_chance(45.0, 49.0) == "below chance"
    values = {"k_order_low": 86.2, "k_order_high": 90.0, "k_neg_low": 72.6, "k_neg_high": 99.5}
    targets = {"probe_2018_sdae_order": {"paper": 92.9}, "probe_2018_sdae_neg": {"paper": 99.0}}
    assert C.paper_sides(values, "k", targets, ["order", "neg"]) == {
        "k_order_side_of_paper": "below", "k_neg_side_of_paper": "not apart from"}
