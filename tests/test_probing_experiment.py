"""compsem.probing.controls (Hewitt & Liang control tasks) and compsem.probing.experiment (the
probing grid), on subsets of the released 2018 files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem.data import probing as released_files
from compsem.probing import controls, experiment

pytestmark = pytest.mark.needs_data


def released(task: str, n_train: int = 400, n_test: int = 200) -> pd.DataFrame:
    """The first sentences of a released set, whole sentences, as an item frame."""
    frame = released_files.load_task(task).assign(kind="released")
    parts = []
    for split, n in (("train", n_train), ("test", n_test)):
        part = frame[frame["split"] == split]
        keep = part["sentence"].drop_duplicates().iloc[: n // 2]
        parts.append(part[part["sentence"].isin(keep)])
    out = pd.concat(parts, ignore_index=True)
    out["group"] = pd.factorize(out["sentence"])[0]
    return out


def test_control_label_is_a_function_of_the_types_only():
    items = released("sr")
    control = controls.control_task(items, seed=3)
    labels = control.groupby(["control_verb", "control_noun"])["label"].nunique()
    assert (labels == 1).all()
    assert set(control["label"]) == {0, 1}
    assert (control["split"] == items["split"]).all()
    assert control["task"].str.endswith(" (control)").all()
    # the probed verb of a pair task is the control's verb
    assert (control["control_verb"] == items["probe2"]).all()


def test_control_types_ignore_word_order():
    base = pd.DataFrame(
        dict(
            sentence=[
                "the professor helped the student",
                "the student was helped by the professor",
            ],
            probe=["", ""],
            probe2=["", ""],
        )
    )
    types = controls.control_types(base, seed=0)
    assert types.iloc[0].tolist() == types.iloc[1].tolist()


def test_control_labels_are_balanced_like_the_task():
    control = controls.control_task(released("neg", 1000, 400), seed=0)
    for split in ("train", "test"):
        share = control.loc[control["split"] == split, "label"].mean()
        assert abs(share - 0.5) < 0.1, (split, share)


def test_a_control_on_unseen_types_is_not_sound():
    control = controls.control_task(released("sr"), seed=0)
    assert controls.soundness(control)["sound"]
    test_nouns = set(control.loc[control["split"] == "test", "control_noun"])
    unseen = control[~((control["split"] == "train") & control["control_noun"].isin(test_nouns))]
    verdict = controls.soundness(unseen)
    assert verdict["coverage"] == 0.0 and not verdict["sound"]
    with pytest.raises(ValueError, match="control_task"):
        controls.soundness(released("sr"))


def test_run_grid_rows_determinism_and_summary():
    frames = {"sr": released("sr"), "cont1": lambda seed: released("cont1")}
    grid = dict(
        frames=frames,
        encoders=["bow", "random"],
        classifier="mlp",
        controls_to_run=("none", "random probe", "control task"),
        seeds=(0, 1),
        control_seeds=(0,),
        n_boot=100,
        progress=False,
        max_epochs=5,
    )
    runs = experiment.run_grid(**grid)
    # 2 tasks x 2 encoders x (2 seeds of the task + 2 controls on seed 0)
    assert len(runs) == 2 * 2 * (2 + 2)
    again = experiment.run_grid(**grid)
    np.testing.assert_array_equal(runs["accuracy"], again["accuracy"])
    summary = experiment.summarise(runs)
    task_rows = summary[summary["control"] == "none"]
    assert (task_rows["interval"] == "seeds").all() and (task_rows["n_seeds"] == 2).all()
    control_rows = summary[summary["control"] != "none"]
    assert (control_rows["interval"] == "items").all()
    assert (summary["low"] <= summary["accuracy"]).all()
    selectivity = experiment.selectivity(runs)
    assert len(selectivity) == 4
    row = selectivity.iloc[0]
    assert row["selectivity"] == pytest.approx(row["task_accuracy"] - row["control_accuracy"])
    assert row["low"] <= row["selectivity"] <= row["high"]


def test_bag_of_words_reads_content_but_not_roles():
    frames = {"cont1": released("cont1", 1000, 400), "sr": released("sr", 1000, 400)}
    runs = experiment.run_grid(
        frames, ["bow"], "mlp", n_boot=200, progress=False, max_epochs=60
    ).set_index("task")
    assert runs.loc["cont1", "low"] > 90
    assert runs.loc["sr", "low"] < 50  # the released SemRole set needs structure


def test_selectivity_of_an_unsound_control_is_not_reported(monkeypatch):
    monkeypatch.setattr(controls, "MIN_COVERAGE", 1.1)
    monkeypatch.setattr(
        controls, "soundness", lambda frame, min_coverage=1.1: dict(coverage=1.0, sound=False)
    )
    runs = experiment.run_grid(
        {"sr": released("sr")},
        ["bow"],
        "mlp",
        ("none", "control task"),
        n_boot=50,
        progress=False,
        max_epochs=3,
    )
    assert np.isnan(experiment.selectivity(runs)["selectivity"].iloc[0])


def test_unknown_control_is_named():
    with pytest.raises(ValueError, match="random sentences"):
        experiment.run_grid({"sr": released("sr")}, ["bow"], controls_to_run=("random sentences",))


@pytest.mark.usefixtures("cache_dir")
def test_probe_fits_are_cached_and_read_back(monkeypatch):
    from compsem.probing import classifiers, evaluate

    grid = dict(
        frames={"sr": released("sr")},
        encoders=["bow"],
        classifier="mlp",
        controls_to_run=("none", "control task"),
        n_boot=50,
        progress=False,
        max_epochs=3,
    )
    first = experiment.run_grid(**grid)
    assert len(list(evaluate.fit_cache_dir().glob("*.npz"))) == 2

    def no_training(*args, **kwargs):
        raise AssertionError("a cached fit was trained again")

    monkeypatch.setattr(classifiers, "mlp_probe", no_training)
    second = experiment.run_grid(**grid)
    for column in ("accuracy", "low", "high", "chance", "n_test", "epochs"):
        np.testing.assert_array_equal(first[column].to_numpy(), second[column].to_numpy())
    for a, b in zip(first["correct"], second["correct"], strict=True):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(AssertionError, match="trained again"):  # other settings: a new fit
        experiment.run_grid(**{**grid, "max_epochs": 4})
