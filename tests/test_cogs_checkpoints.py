"""Weights kept over training (``keep_every``): sharded files of bounded size, loaded with
``weights_only=True`` and checked by sha256, identical after a resume; and the accuracy curve
scored from them (training-length sensitivity, Csordas et al. 2021)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pandas as pd
import pytest
import torch

from compsem.cogs.seq2seq import config, curve, results, trainer


def test_sharded_state_dict_round_trips_and_respects_the_limit(tmp_path):
    torch.manual_seed(0)
    state = {"big": torch.randn(100, 30), "small": torch.randn(7), "int": torch.arange(5)}
    folder = trainer.save_sharded(state, tmp_path / "w", max_bytes=4000)  # big: 12,000 bytes
    files = sorted(folder.glob("shard_*.pt"))
    assert len(files) >= 3 and all(f.stat().st_size <= 4000 + 1500 for f in files)
    index = json.loads((folder / "index.json").read_text())
    assert all(t["tensors"] for t in index["shards"])
    back = trainer.load_sharded(folder)
    assert list(back) == list(state)
    for name in state:
        assert torch.equal(back[name], state[name]), name


def test_paper_model_shards_stay_under_16_mb(tmp_path):
    net = config.build_model(config.make_config("transformer"), 747, 727)
    folder = trainer.save_sharded(net.state_dict(), tmp_path / "w")
    sizes = [f.stat().st_size for f in folder.glob("shard_*.pt")]
    assert len(sizes) >= 3 and max(sizes) <= trainer.SHARD_BYTES
    back = trainer.load_sharded(folder)
    assert all(torch.equal(back[k], v) for k, v in net.state_dict().items())


def test_a_corrupted_or_code_carrying_shard_is_refused(tmp_path):
    folder = trainer.save_sharded({"w": torch.ones(3)}, tmp_path / "w")
    shard = folder / "shard_000.pt"
    data = bytearray(shard.read_bytes())
    data[-20] ^= 0xFF
    shard.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match="corrupted"):
        trainer.load_sharded(folder)

    class Payload:
        def __reduce__(self):
            return (print, ("ran",))

    with open(shard, "wb") as handle:
        pickle.dump({"w": Payload()}, handle)
    index = json.loads((folder / "index.json").read_text())
    index["shards"][0]["sha256"] = trainer.sha256_of(shard)
    (folder / "index.json").write_text(json.dumps(index))
    with pytest.raises(RuntimeError):
        trainer.load_sharded(folder)


def test_kept_weights_are_those_of_the_run_and_survive_a_resume(tmp_path, reversal_pairs,
                                                                toy_config):
    cfg = toy_config(steps=30)
    train_pairs, dev = reversal_pairs(300, 0), reversal_pairs(32, 1)
    whole = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "a", device="cpu",
                           progress=False, keep_every=5)
    kept = trainer.kept_updates(tmp_path / "a")
    assert [step for step, _ in kept] == [5, 10, 15, 20, 25, 30]
    last = trainer.load_sharded(kept[-1][1])
    final = trainer.load_checkpoint(tmp_path / "a" / "last.pt")["model"]
    assert all(torch.equal(last[k], final[k]) for k in final)
    # interrupted after 12 updates (last checkpoint at 10), then resumed: same kept weights
    trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu", progress=False,
                   keep_every=5, stop_after=12)
    trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu", progress=False,
                   keep_every=5)
    resumed = trainer.kept_updates(tmp_path / "b")
    assert [s for s, _ in resumed] == [s for s, _ in kept]
    for (_, a), (_, b) in zip(kept, resumed, strict=True):
        wa, wb = trainer.load_sharded(a), trainer.load_sharded(b)
        assert all(torch.equal(wa[k], wb[k]) for k in wa)
    # keeping weights changes nothing of the training
    plain = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "c", device="cpu",
                           progress=False)
    assert [h["dev_loss"] for h in plain.state.history] == [
        h["dev_loss"] for h in whole.state.history
    ]


def test_curve_scores_every_kept_update(tmp_path, reversal_pairs, toy_config):
    cfg = toy_config(steps=40)
    train_pairs, dev = reversal_pairs(400, 0), reversal_pairs(40, 1)
    trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path, device="cpu", progress=False,
                   keep_every=10)
    sets = {"dev": (dev.src, dev.tgt, None)}
    frame = curve.score_updates(cfg, tmp_path, sets, 12, 12, device="cpu")
    assert sorted(frame.step.unique()) == [10, 20, 30, 40]
    assert set(frame.quantity) == {"dev"}
    by_step = frame.set_index("step").accuracy
    assert by_step[40] > by_step[10]  # the toy task is learnt over the updates
    assert ((frame.accuracy >= 0) & (frame.accuracy <= 1)).all()


def test_curve_file_round_trips_with_its_sample(tmp_path):
    frame = pd.DataFrame({"step": [5, 5], "quantity": ["dev", "gen"], "accuracy": [0.5, 0.25]})
    curve.save_curve(frame, tmp_path, per_case=7, per_split=9)
    back = curve.load_curve(tmp_path)
    assert back.attrs["sample"] == {"per_case": 7, "per_split": 9}
    pd.testing.assert_frame_equal(back, frame)
    assert curve.load_curve(tmp_path / "none") is None


def test_curve_aggregates_gen_cases_as_figure_4_1():
    rows = pd.DataFrame(
        {"step": [1, 1, 1], "quantity": ["subj_to_obj_common", "cp_recursion", "dev"],
         "accuracy": [0.6, 0.0, 0.9]}
    )
    out = curve.with_aggregates(rows)
    got = out[out.step == 1].set_index("quantity").accuracy
    assert got["gen"] == pytest.approx(0.3) and got["lexical"] == pytest.approx(0.6)
    assert got["structural"] == pytest.approx(0.0) and got["dev"] == pytest.approx(0.9)


def test_sensitivity_over_the_last_kept_updates():
    steps = [100, 200, 300, 400]
    rows = [{"step": s, "quantity": "dev", "accuracy": a} for s, a in zip(steps, [0.5, 0.95, 0.96, 0.96], strict=True)]
    rows += [{"step": s, "quantity": "gen", "accuracy": a} for s, a in zip(steps, [0.1, 0.2, 0.45, 0.3], strict=True)]
    out = curve.sensitivity(pd.DataFrame(rows), last=3)
    assert out["updates"] == 3 and out["first_step"] == 200
    assert out["gen_range"] == pytest.approx(0.25) and out["dev_range"] == pytest.approx(0.01)
    assert out["gen_first"] == pytest.approx(0.2) and out["gen_last"] == pytest.approx(0.3)
    assert out["gen_max"] == pytest.approx(0.45) and out["gen_max_step"] == 300
    assert out["last_step"] == 400
    assert out["window_gen_min"] == pytest.approx(0.2) and out["window_gen_min_step"] == 200
    assert out["window_gen_max"] == pytest.approx(0.45) and out["window_gen_max_step"] == 300
    assert out["gen_range"] == pytest.approx(out["window_gen_max"] - out["window_gen_min"])
    # the peak of all kept updates can lie before the window
    rows[4]["accuracy"] = 0.9
    out = curve.sensitivity(pd.DataFrame(rows), last=3)
    assert out["gen_max"] == pytest.approx(0.9) and out["gen_max_step"] == 100
    assert out["window_gen_max"] == pytest.approx(0.45) and out["window_gen_max_step"] == 300


def test_command_line_switches():
    from compsem.cogs.seq2seq import train

    args = train.parse_args(["--model", "lstm", "transformer", "--lstm-embedding-dropout", "0",
                             "--keep-every", "500", "--curve"])
    configs = train.configurations(args)
    by_model = {c["model"]: c for c in configs}
    assert by_model["lstm"]["architecture"]["embedding_dropout"] == 0.0
    assert "embedding_dropout" not in by_model["transformer"]["architecture"]
    assert args.keep_every == 500 and args.curve and args.curve_per_case == 100
    grid = train.configurations(train.parse_args(["--grid", "--lstm-embedding-dropout", "text"]))
    assert not any("embedding_dropout" in c["architecture"] for c in grid)
    assert [config.config_hash(c) for c in grid] == [
        config.config_hash(c) for c in config.paper_grid(lstm_embedding_dropout=None)
    ]
    plain = train.configurations(train.parse_args(["--grid"]))
    assert all(c["architecture"].get("embedding_dropout") == 0.0
               for c in plain if c["architecture"]["arch"] == "lstm")
    assert [config.config_hash(c) for c in plain] == [
        config.config_hash(c) for c in config.paper_grid()
    ]


@pytest.mark.needs_data
@pytest.mark.parametrize(
    "folder",
    sorted(p.parent.name for p in results.results_root().glob(f"*/{curve.CURVE_FILE}")),
    ids=str,
)
def test_a_committed_curve_agrees_with_the_runs_predictions(folder):
    """At the update whose weights the run kept as best, the committed curve scores what the
    run's committed predictions score on the same sample (same weights, same decoding)."""
    from compsem.cogs.seq2seq import experiment
    from compsem.data import cogs

    path = results.results_root() / folder
    stored = json.loads((path / "config.json").read_text())
    result = results.load_result(stored)
    frame = curve.load_curve(path)
    best = result.metrics["best_step"]
    if best not in set(frame.step):
        pytest.skip(f"{folder}: best update {best} was not kept")
    at_best = frame[frame.step == best].set_index("quantity").accuracy
    sample = frame.attrs["sample"]
    for split in ("dev", "test", "gen"):
        if split not in at_best:
            continue
        gold = cogs.load(split)
        rows = experiment.evaluation_rows(split, gold, sample)
        preds = result.predictions[result.predictions.split == split].set_index("row")
        if not set(rows) <= set(preds.index):
            pytest.skip(f"{folder}: the run's predictions do not cover the curve's {split} sample")
        scored = np.mean([preds.loc[r, "prediction"] == gold.target.iloc[r] for r in rows])
        assert at_best[split] == pytest.approx(scored, abs=1e-6), split  # 6 digits stored
