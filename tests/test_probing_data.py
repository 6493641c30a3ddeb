"""compsem.data.probing: the released 2018 task files (needs the data mirror)."""

from __future__ import annotations

import pytest

from compsem.data import probing as D
from compsem.data.registry import DataError
from compsem.probing import audit, released2018

SIZES = {
    "cont1": (4002, 1002),
    "cont2": (4004, 1000),
    "order": (4000, 1000),
    "sr": (4002, 1000),
    "neg": (4000, 1000),
}


def test_unknown_task_and_split():
    with pytest.raises(ValueError, match="unknown 2018 task"):
        D.path("verid", "train")
    with pytest.raises(ValueError, match="split"):
        D.path("sr", "dev")


def test_read_rejects_malformed_lines(tmp_path):
    bad = tmp_path / "train.txt"
    bad.write_text("MAYBE\tx1\tthe man slept\tsleep\n")
    with pytest.raises(DataError, match="TRUE|FALSE"):
        D.read(bad, "cont1", "train")
    good = tmp_path / "ok.txt"
    good.write_text("TRUE\tx1\tthe man  slept\tman\tsleep\n")
    frame = D.read(good, "sr", "train")
    assert frame.to_dict("records") == [
        dict(
            label=1,
            sent_id="x1",
            sentence="the man slept",
            probe="man",
            probe2="sleep",
            split="train",
            task="sr",
        )
    ]


@pytest.mark.needs_data
@pytest.mark.parametrize("task", D.TASKS)
def test_released_sizes_and_columns(task):
    frame = D.load_task(task)
    assert list(frame.columns) == D.COLUMNS
    assert tuple(frame.groupby("split").size()[["train", "test"]]) == SIZES[task]
    assert set(frame.label) == {0, 1}
    assert (frame.probe2 != "").all() == (task in ("cont2", "order", "sr"))


@pytest.mark.needs_data
def test_vocab():
    vocab = D.load_vocab()
    assert vocab[:7] == ["professor", "student", "woman", "man", "doctor", "scientist", "lawyer"]
    assert len(vocab) == 14


@pytest.mark.needs_data
@pytest.mark.parametrize("task", ["sr", "neg"])
def test_released_labels_agree_with_our_parse(task):
    items = released2018.annotate_released(D.load_task(task))
    assert (items.label == items.label_recomputed).all()


@pytest.mark.needs_data
def test_released_cont1_probe_bias():
    """The study notes (§8c): the probe alone scores 0.599 on the released cont1 test set."""
    report = audit.audit(released2018.annotate_released(D.load_task("cont1")))
    assert report.loc["probe only", "accuracy"] == pytest.approx(0.599, abs=0.002)
    assert not audit.passes(report)
