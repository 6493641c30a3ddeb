"""Files of the COGS runs that a crash, or a misspelt folder, must not make read as good: the
results folder a chapter names (``results_dir``), ``curve.tsv`` and a checkpoint's digest."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest
import torch

from compsem import paths
from compsem.cogs.seq2seq import config, curve, results, trainer

CURVE = pd.DataFrame({"step": [10, 10, 20, 20], "quantity": ["dev", "gen", "dev", "gen"],
                      "accuracy": [0.5, 0.25, 0.75, 0.5]})


# results_dir -------------------------------------------------------------------------------


def test_a_relative_results_dir_is_taken_from_the_project_root_not_the_working_directory(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # as a chapter's kernel, which runs in notebooks/
    assert results.results_root("cahce") == paths.PROJECT_DIR / "cahce"
    assert results.results_root(Path("a/b")) == paths.PROJECT_DIR / "a" / "b"
    assert results.results_root(tmp_path / "r") == tmp_path / "r"
    assert results.results_root("") == results.RESULTS_DIR
    assert not (tmp_path / "cahce").exists() and not (paths.PROJECT_DIR / "cahce").exists()


def test_reading_from_a_results_dir_that_does_not_exist_names_the_parameter_and_the_fix(tmp_path):
    cfg = config.reduced_config()
    with pytest.raises(FileNotFoundError, match=r"results_dir 'cahce' is .*cahce.*check its spelling"):
        results.results_root("cahce", must_exist=True)
    with pytest.raises(FileNotFoundError, match="results_dir 'cahce'"):
        results.load_result(cfg, "cahce")
    with pytest.raises(FileNotFoundError, match="results_dir"):
        results.load_metrics(cfg, tmp_path / "missing")
    # asking whether a run is done is not an error: a fresh folder is where a run is written
    assert not results.has_result(cfg, tmp_path / "missing")
    assert results.results_root(tmp_path, must_exist=True) == tmp_path


# curve.tsv ---------------------------------------------------------------------------------


def test_a_curve_is_written_atomically(tmp_path, monkeypatch):
    curve.save_curve(CURVE, tmp_path, per_case=7, per_split=9)
    before = (tmp_path / curve.CURVE_FILE).read_bytes()

    def killed(src, dst):
        raise KeyboardInterrupt  # the run is stopped between writing and renaming

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        curve.save_curve(CURVE.assign(accuracy=0.0), tmp_path, per_case=7, per_split=9)
    monkeypatch.undo()
    assert (tmp_path / curve.CURVE_FILE).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [curve.CURVE_FILE]  # no temporary left
    back = curve.load_curve(tmp_path)
    pd.testing.assert_frame_equal(back, CURVE)
    assert back.attrs["sample"] == {"per_case": 7, "per_split": 9}


def _cut(text: str, marker: str) -> str:
    return text[: text.index(marker)]


@pytest.mark.parametrize("damage", [
    pytest.param(lambda t: t[:-3], id="cut-inside-the-last-value"),
    pytest.param(lambda t: _cut(t, "20\tgen"), id="cut-at-a-line-end-inside-an-update"),
    pytest.param(lambda t: _cut(t, "step"), id="cut-after-the-comment"),
    pytest.param(lambda t: "", id="empty"),
    pytest.param(lambda t: b"\x1f\x8b\x08\x00garbage\xff\xfe\n", id="garbage-bytes"),
    pytest.param(lambda t: "just some words\n", id="garbage-text"),
    pytest.param(lambda t: t.replace("accuracy", "acc"), id="wrong-columns"),
    pytest.param(lambda t: t.replace("0.75", "n/a"), id="non-numeric-accuracy"),
    pytest.param(lambda t: t.replace("0.75", "7.5"), id="accuracy-above-one"),
    pytest.param(lambda t: t.replace("20\t", "5\t"), id="steps-out-of-order"),
    pytest.param(lambda t: t.replace("20\tgen", "20\tdev"), id="a-row-twice"),
    pytest.param(lambda t: t.replace("# per_case=7", "# per_case=seven"), id="bad-sample-line"),
])
def test_a_damaged_curve_counts_as_missing(tmp_path, damage):
    path = curve.save_curve(CURVE, tmp_path, per_case=7, per_split=9)
    damaged = damage(path.read_text())
    path.write_bytes(damaged if isinstance(damaged, bytes) else damaged.encode())
    with pytest.warns(UserWarning, match=rf"{curve.CURVE_FILE}: .*counts as missing"):
        assert curve.load_curve(tmp_path) is None


def test_the_chapter_traces_a_damaged_curve_again(tmp_path, monkeypatch):
    from compsem.cogs import models_chapter
    from compsem.cogs.seq2seq import experiment

    cfg = config.reduced_config()
    folder = results.result_dir(cfg, tmp_path)
    folder.mkdir()
    (folder / curve.CURVE_FILE).write_text("# per_case=7 per_split=9\nstep\tquantity\taccuracy\n10\td")
    monkeypatch.setattr(experiment, "checkpoint_dir", lambda c: tmp_path / "kept")
    monkeypatch.setattr(trainer, "kept_updates", lambda d: [(10, d), (20, d)])
    monkeypatch.setattr(curve, "trace", lambda *args, **kwargs: CURVE)
    with pytest.warns(UserWarning, match="counts as missing"):
        traced = models_chapter.reduced_curve(cfg, tmp_path, 7, 9, "cpu")
    pd.testing.assert_frame_equal(traced, CURVE)
    pd.testing.assert_frame_equal(curve.load_curve(folder), CURVE)  # saved over the damaged one


# checkpoint digests ------------------------------------------------------------------------


def test_a_checkpoint_saved_up_to_its_digest_rename_is_accepted(tmp_path, monkeypatch):
    path = tmp_path / "last.pt"
    trainer._save(path, {"step": torch.tensor(1)})
    real_replace, renames = os.replace, []

    def crash_after_the_first_rename(source, target):
        renames.append(target)
        real_replace(source, target)
        raise KeyboardInterrupt("killed right after the checkpoint's rename")

    # the crash inside _save itself: the new checkpoint renamed into place, nothing after it
    monkeypatch.setattr(trainer.os, "replace", crash_after_the_first_rename)
    with pytest.raises(KeyboardInterrupt):
        trainer._save(path, {"step": torch.tensor(2)})
    monkeypatch.setattr(trainer.os, "replace", real_replace)
    assert renames == [path] and (tmp_path / "last.pt.sha256.tmp").exists()

    assert int(trainer.load_checkpoint(path)["step"]) == 2
    assert (tmp_path / "last.pt.sha256").read_text() == trainer.sha256_of(path) + "\n"  # rename finished
    assert not (tmp_path / "last.pt.sha256.tmp").exists()


def test_a_checkpoint_that_matches_no_digest_is_still_refused(tmp_path):
    path = tmp_path / "last.pt"
    trainer._save(path, {"step": torch.tensor(1)})
    old_digest = (tmp_path / "last.pt.sha256").read_text()
    trainer._save(path, {"step": torch.tensor(2)})
    (tmp_path / "last.pt.sha256").write_text(old_digest)
    with pytest.raises(RuntimeError, match="is corrupted"):
        trainer.verify_checkpoint(path)
    (tmp_path / "last.pt.sha256.tmp").write_text("0" * 64 + "\n")  # a pending digest of another file
    with pytest.raises(RuntimeError, match="is corrupted"):
        trainer.verify_checkpoint(path)
    assert (tmp_path / "last.pt.sha256").read_text() == old_digest


@pytest.mark.parametrize("train_missing", [False, True])
def test_reduced_runs_in_a_folder_that_does_not_exist_name_results_dir(tmp_path, train_missing):
    """A misspelt results_dir is an error naming the parameter: not a folder of no runs (which
    would leave every seed out silently), nor a new folder to train hours into (create it first)."""
    from compsem.cogs import models_chapter
    from compsem.cogs.seq2seq import two_stage

    with pytest.raises(FileNotFoundError, match="results_dir 'cahce'.*create it first"):
        models_chapter.reduced_runs([{}], train_missing=train_missing, device="cpu",
                                    results_dir="cahce", keep_every=0)
    with pytest.raises(FileNotFoundError, match="results_dir 'cahce'"):
        two_stage.ensure_results([{}], train_missing, device="cpu", results_dir="cahce")
    assert not (paths.PROJECT_DIR / "cahce").exists()
    assert models_chapter.reduced_runs([], train_missing=train_missing, device="cpu",
                                       results_dir=str(tmp_path), keep_every=0) == []
    assert two_stage.ensure_results([], train_missing, device="cpu", results_dir=tmp_path) == []
