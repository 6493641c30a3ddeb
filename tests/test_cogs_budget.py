"""Time budgets of the COGS commands on a GPU machine with a time limit: training stops at the
first update past its deadline with its checkpoint saved, a run cut so is decoded on a sample,
the device runner packs what was written however its command ends, and a trained model is never
trained again to be decoded another way."""

from __future__ import annotations

import os
import runpy
import signal
import subprocess
import tarfile
import time
from pathlib import Path

import pandas as pd
import pytest

from compsem.cogs.seq2seq import batching, config, experiment, results, trainer

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------- the deadline, between updates


def test_a_deadline_stops_training_at_the_first_update_past_it(tmp_path, reversal_pairs,
                                                               toy_config):
    """Not at the next validation (30 s to 3 minutes later on a GPU): the checkpoint is saved at
    that update, and a later call goes on from it to the weights of an uninterrupted run."""
    cfg = toy_config(steps=30)
    train_pairs, dev = reversal_pairs(100, 0), reversal_pairs(20, 1)
    cut = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "cut", device="cpu",
                         progress=False, deadline=time.time() - 1)
    assert cut.state.done and cut.state.stop_reason == "time limit"
    assert cut.state.step == 1 and cut.state.history == []  # no validation off its schedule
    assert trainer.is_finished(tmp_path / "cut")
    saved = trainer.load_checkpoint(tmp_path / "cut" / "last.pt")
    assert saved["state"]["step"] == 1 and saved["state"]["stop_reason"] == "time limit"
    reloaded = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "cut", device="cpu",
                              progress=False, deadline=time.time() - 1)  # still out of time
    assert reloaded.state.step == 1
    for name, value in cut.model.state_dict().items():
        assert (reloaded.model.state_dict()[name] == value).all(), name
    whole = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "whole", device="cpu",
                           progress=False)
    again = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "cut", device="cpu",
                           progress=False)
    assert again.state.stop_reason == "max_steps"
    assert again.state.history == [dict(h, train_seconds=a["train_seconds"])
                                   for h, a in zip(whole.state.history, again.state.history, strict=True)]
    for name, value in whole.model.state_dict().items():
        assert (again.model.state_dict()[name] == value).all(), name


def test_a_run_cut_between_validations_keeps_its_best_weights_so_far(tmp_path, reversal_pairs,
                                                                     toy_config):
    cfg = toy_config(steps=30)
    train_pairs, dev = reversal_pairs(100, 0), reversal_pairs(20, 1)
    trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path, device="cpu", progress=False, stop_after=12)  # last.pt: 10
    cut = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path, device="cpu", progress=False,
                         deadline=time.time() - 1)
    assert (cut.state.step, cut.state.best_step, cut.state.stop_reason) == (11, 10, "time limit")  # from 10
    best = trainer.load_checkpoint(tmp_path / "best.pt")
    assert all((cut.model.state_dict()[name] == value).all() for name, value in best.items())
    assert trainer.load_checkpoint(tmp_path / "last.pt")["state"]["step"] == 11


@pytest.mark.needs_data
def test_a_group_stops_at_the_first_update_past_its_deadline_and_resumes(tmp_path):
    """Each member's checkpoint is saved there; a later call goes on to the uninterrupted result."""
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies
    from compsem.data import cogs

    src_vocab, tgt_vocab = cogs_vocabularies()
    train, dev = (batching.encode_pairs(f.source, f.target, src_vocab, tgt_vocab)
                  for f in (cogs.load("train").head(480), cogs.load("dev").head(64)))
    settings = dict(config.REDUCED_TRAINING, batch_size=16, max_steps=6, valid_every=3, warmup=4)
    configs = [config.make_config("transformer-tiny", seed=s, training=settings) for s in (1, 2)]

    def group(folders, **kwargs):
        return [r.state for r in trainer.train_group(configs, train, dev, len(src_vocab), len(tgt_vocab),
                                                     folders, device="cpu", amp=False, progress=False, **kwargs)]

    whole = group([tmp_path / "w1", tmp_path / "w2"])
    cut_dirs = [tmp_path / "c1", tmp_path / "c2"]
    cut = group(cut_dirs, deadline=time.time() - 1)
    assert [(s.step, s.stop_reason, s.history) for s in cut] == [(1, "time limit", [])] * 2
    assert all(trainer.is_finished(folder) for folder in cut_dirs)
    again = group(cut_dirs)

    def timeless(history):
        return [{k: v for k, v in h.items() if k != "train_seconds"} for h in history]

    for a, w in zip(again, whole, strict=True):
        assert a.stop_reason == "max_steps" and timeless(a.history) == timeless(w.history)


@pytest.mark.needs_data
def test_a_run_cut_by_its_deadline_is_decoded_on_a_sample(tmp_path, monkeypatch):
    """Its result is saved under the configuration of the sample decoding (its own, whole-set
    decoding stays to be done), so that decoding fits in the time left."""
    monkeypatch.setattr(experiment, "CUT_SAMPLE", {"per_case": 2, "per_split": 10})
    asked = []

    def rows(split, frame, decoding_config):
        asked.append((decoding_config["per_case"], decoding_config["per_split"]))
        assert decoding_config["per_case"] and decoding_config["per_split"], "decoded in full"
        return evaluation_rows(split, frame, decoding_config)

    evaluation_rows = experiment.evaluation_rows
    monkeypatch.setattr(experiment, "evaluation_rows", rows)
    cfg = config.reduced_config("transformer-tiny", max_steps=50, exposures=1)
    result = experiment.train_and_decode(cfg, device="cpu", progress=False, results_root=tmp_path / "r",
                            checkpoint_root=tmp_path / "c", deadline=time.time() - 1)
    assert result.metrics["stop_reason"] == "time limit" and result.metrics["steps"] == 1
    assert result.metrics["best_dev_loss"] is None  # no validation yet: decoded with its last weights
    assert result.config["decoding"] == dict(cfg["decoding"], per_case=2, per_split=10)
    assert config.training_hash(result.config) == config.training_hash(cfg)
    assert len(result.predictions) == 10 + 10 + 2 * 21 and set(asked) == {(2, 10)}
    assert results.has_result(result.config, tmp_path / "r", partial=True)
    assert not results.has_result(cfg, tmp_path / "r", partial=True)
    assert results.find_config(cfg, tmp_path / "r", any_decoding=True) == result.config


# ------------------------------------------------------------------ the GPU machine's runner


bundle = runpy.run_path(str(ROOT / "scripts" / "device_bundle.py"), run_name="device_bundle")


def _runner(tmp_path):
    """run.sh in a bundle, a python3 whose "pip install" succeeds, a checkout and the folder the
    script packs its results into (named by COMPSEM_RESULTS_OUT)."""
    dest, fake_bin, repo, out = (tmp_path / n for n in ("bundle", "bin", "repo", "out"))
    for folder in (dest, fake_bin, repo / "data" / "results", out):
        folder.mkdir(parents=True)
    (dest / "run.sh").write_text(bundle["RUNNER"])
    (fake_bin / "python3").write_text("#!/bin/sh\nexit 0\n")
    (fake_bin / "python3").chmod(0o755)
    env = {"PATH": f"{fake_bin}:/usr/bin:/bin", "COMPSEM_RESULTS_OUT": str(out)}
    return dest / "run.sh", repo, out, env


WRITE_THEN_HANG = "mkdir -p data/results/new && echo done > data/results/new/metrics.json; sleep 60"


def test_the_runner_ends_its_command_at_its_time_limit_and_packs_what_was_written(tmp_path):
    script, repo, out, env = _runner(tmp_path)
    env["COMPSEM_COMMAND_LIMIT_S"] = "2"
    start = time.time()
    done = subprocess.run(["bash", str(script), "bash", "-c", WRITE_THEN_HANG], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=40)
    assert time.time() - start < 30
    assert done.returncode == 124, done.stdout + done.stderr  # timeout's status
    assert "time limit" in done.stdout
    with tarfile.open(out / "results.tar.gz") as packed:
        assert packed.getnames() == ["data/results/new/metrics.json"]


def test_the_runner_packs_what_was_written_when_it_is_terminated(tmp_path):
    script, repo, out, env = _runner(tmp_path)
    runner = subprocess.Popen(["bash", str(script), "bash", "-c", WRITE_THEN_HANG], cwd=repo, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for _ in range(100):
            if (repo / "data/results/new/metrics.json").exists():
                break
            time.sleep(0.1)
        time.sleep(0.3)
        runner.send_signal(signal.SIGTERM)
        output, _ = runner.communicate(timeout=30)
    finally:
        if runner.poll() is None:
            os.kill(runner.pid, signal.SIGKILL)
    assert runner.returncode == 143, output
    with tarfile.open(out / "results.tar.gz") as packed:
        assert packed.getnames() == ["data/results/new/metrics.json"]


# ---------------------------------------------- one trained model, never trained again to decode


def _save(cfg, root, stop_reason="early stopping", steps=4000):
    frame = pd.DataFrame({"split": ["dev"], "row": [0], "prediction": ["x"], "capped": [0]})
    metrics = {"accuracy": {"dev": 0.5}, "gen_by_case": {}, "stop_reason": stop_reason, "steps": steps,
               "train_seconds": 60.0, "decode_seconds": 6.0, "device": "cuda: H100"}
    results.save_result(results.Result(cfg, metrics, frame), root)


def test_the_finished_training_of_another_decoding_is_found(tmp_path):
    beam = config.make_config("transformer-tiny", seed=3)
    greedy = config.make_config("transformer-tiny", seed=3, decoding={"method": "greedy"})
    sample = config.make_config("transformer-tiny", seed=3, decoding={"per_case": 5})
    assert results.trained_with(beam, tmp_path) is None
    _save(sample, tmp_path, stop_reason="time limit")  # cut by a budget: its training goes on
    assert results.trained_with(beam, tmp_path) is None
    _save(greedy, tmp_path)
    assert results.trained_with(beam, tmp_path) == greedy
    assert results.trained_with(greedy, tmp_path) is None  # its own result is not another decoding
    assert config.describe_decoding(greedy) == "greedy, whole sets"
    assert config.describe_decoding(sample) == "beam 5, 5 gen examples per case, all dev/test"


def _args(tmp_path, *more):
    return ["--model", "transformer-tiny", "--seed", "1", "2", "3", "--results", str(tmp_path / "r"),
            "--checkpoints", str(tmp_path / "c"), "--quiet", *more]


def test_list_says_which_runs_are_trained_and_decoded_another_way(tmp_path, capsys, monkeypatch):
    from compsem.cogs.seq2seq import train

    beam1, beam2, beam3 = train.configurations(train.parse_args(_args(tmp_path)))
    _save(dict(beam1, decoding=dict(beam1["decoding"], method="greedy")), tmp_path / "r")
    _save(dict(beam2, decoding=dict(beam2["decoding"], per_case=100, per_split=500)), tmp_path / "r",
          stop_reason="time limit", steps=1999)
    assert train.main(_args(tmp_path, "--list")) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == (f"{config.config_hash(beam1)}  trained  Transformer (tiny), seed 1, 1 exposure; "
                        f"decoded with greedy, whole sets")
    assert lines[1] == (f"{config.config_hash(beam2)}  partial  Transformer (tiny), seed 2, 1 exposure; "
                        f"cut by a time budget at 1999 updates, decoded with beam 5, 100 gen examples "
                        f"per case, 500 dev/test")
    assert lines[2] == f"{config.config_hash(beam3)}  pending  Transformer (tiny), seed 3, 1 exposure"
    monkeypatch.setattr(train, "_trained", lambda cfg, options: True)  # its checkpoint is here
    assert train.main(_args(tmp_path, "--list")) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(
        "decoded with greedy, whole sets; its checkpoint is here: the next call decodes it")


def test_a_trained_run_is_decoded_from_its_checkpoint_or_reported_never_trained_again(tmp_path, monkeypatch,
                                                                                      capsys):
    from compsem.cogs.seq2seq import train

    beam1, beam2, beam3 = train.configurations(train.parse_args(_args(tmp_path)))
    for cfg in (beam1, beam2):
        _save(dict(cfg, decoding=dict(cfg["decoding"], method="greedy")), tmp_path / "r")
    ran = []
    monkeypatch.setattr(train, "_run_one", lambda cfg, options, started=False: ran.append(cfg["seed"]))
    monkeypatch.setattr(train, "_trained", lambda cfg, options: cfg["seed"] == 2)  # a checkpoint of seed 2
    assert train.main(_args(tmp_path)) == 0
    out = capsys.readouterr().out
    assert ran == [2, 3]  # seed 2 is decoded from its checkpoint, seed 3 trained
    assert ("Transformer (tiny), seed 1, 1 exposure: trained; decoded with greedy, whole sets "
            f"({config.config_hash(dict(beam1, decoding=dict(beam1['decoding'], method='greedy')))}); "
            "its checkpoint is not here, so it is not trained again") in out
    assert "3 configurations, 0 with results, 1 trained and decoded another way, 2 to run" in out


def test_the_grid_does_not_train_the_committed_transformer_seeds_again(tmp_path, monkeypatch, capsys):
    """Seeds 1-3 of the Transformer were trained on a GPU and decoded greedily (and with beam on
    samples): on a machine without their checkpoints, the grid's beam decoding of the whole sets
    is reported, not trained again."""
    from compsem.cogs.seq2seq import train

    ran = []
    monkeypatch.setattr(train, "_run_one", lambda cfg, options, started=False: ran.append(cfg) and None)
    args = ["--grid", "--checkpoints", str(tmp_path / "c"), "--quiet"]
    assert train.main(args) == 0
    out = capsys.readouterr().out
    for seed in (1, 2, 3):
        assert f"Transformer, seed {seed}, 1 exposure: trained; decoded with greedy, whole sets" in out
    assert not [c for c in ran if c["model"] == "transformer" and c["seed"] <= 3
                and c["data"]["exposures"] == 1]
    assert ran  # the pending runs are still run


def test_the_auxiliary_command_does_not_train_a_trained_run_again_either(tmp_path, monkeypatch, capsys):
    from compsem.cogs.seq2seq import auxiliary_train

    args = ["--model", "transformer", "--objective", "none", "gloss", "--seed", "1",
            "--results", str(tmp_path / "r"), "--checkpoints", str(tmp_path / "c"), "--quiet"]
    beam_none, beam_gloss = auxiliary_train.configurations(auxiliary_train.parse_args(args))
    greedy = dict(beam_none, decoding=dict(beam_none["decoding"], method="greedy"))
    _save(greedy, tmp_path / "r")
    assert auxiliary_train.main([*args, "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{config.config_hash(beam_none)}  trained  ")
    assert lines[0].endswith("; decoded with greedy, whole sets")
    assert lines[1].startswith(f"{config.config_hash(beam_gloss)}  pending  ")
    ran = []
    monkeypatch.setattr(auxiliary_train, "_run_one", lambda cfg, options, started=False: ran.append(cfg))
    assert auxiliary_train.main(args) == 0
    out = capsys.readouterr().out
    assert [c["auxiliary"]["objective"] for c in ran] == ["gloss"]
    assert f"trained; decoded with greedy, whole sets ({config.config_hash(greedy)})" in out
