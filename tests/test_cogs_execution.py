"""The one loop behind both COGS training commands: every configuration run, a failed run
reported while the others go on (worker processes), the summaries printed, with each run's
rates and device minutes (a group's training time shared among its seeds)."""

from __future__ import annotations

import pytest

from compsem.cogs.seq2seq.execution import run_configurations


def fake_run(cfg: dict, options: dict) -> dict:
    if cfg["seed"] == 2:
        raise RuntimeError("diverged")
    return {"seed": cfg["seed"], "scale": options["scale"]}


def summary(cfg: dict, metrics: dict | None) -> str:
    return f"seed {cfg['seed']}: {metrics}"


def describe(cfg: dict) -> str:
    return f"run {cfg['seed']}"


def test_in_this_process_every_run_and_its_summary(capsys):
    assert run_configurations(fake_run, [{"seed": 1}, {"seed": 3}], {"scale": 5}, 1, summary,
                              describe) == 0
    assert capsys.readouterr().out.splitlines() == ["seed 1: {'seed': 1, 'scale': 5}",
                                                    "seed 3: {'seed': 3, 'scale': 5}"]
    with pytest.raises(RuntimeError, match="diverged"):  # one process: the error is the user's
        run_configurations(fake_run, [{"seed": 2}], {"scale": 5}, 1, summary, describe)


def test_workers_report_a_failure_and_go_on(capsys):
    configs = [{"seed": s} for s in (1, 2, 3)]
    assert run_configurations(fake_run, configs, {"scale": 1}, 2, summary, describe) == 1
    out = capsys.readouterr().out
    assert "FAILED run 2: RuntimeError: diverged" in out
    assert "seed 1: {'seed': 1, 'scale': 1}" in out and "seed 3: {'seed': 3, 'scale': 1}" in out


def test_gpu_runs_are_dask_tasks_that_declare_the_gpu(capsys):
    """On a LocalCluster each worker holds one GPU unit; every run asks for one and still runs,
    reports its failure and lets the others finish."""
    configs = [{"seed": s} for s in (1, 2, 3)]
    assert run_configurations(fake_run, configs, {"scale": 2}, 2, summary, describe, gpu=True) == 1
    out = capsys.readouterr().out
    assert "FAILED run 2: RuntimeError: diverged" in out
    assert "seed 1: {'seed': 1, 'scale': 2}" in out and "seed 3: {'seed': 3, 'scale': 2}" in out


def test_which_devices_are_a_gpu():
    from compsem.cogs.seq2seq.execution import uses_gpu

    assert uses_gpu("cuda") and uses_gpu("cuda:1")
    assert not uses_gpu("cpu")
    import torch

    assert uses_gpu("auto") is torch.cuda.is_available()


def test_a_group_trains_as_one_task_and_its_runs_decode_as_tasks_after_it():
    from compsem.cogs.seq2seq.execution import phased

    a1, a2, b1, c1, c2 = ({"name": n} for n in ("a1", "a2", "b1", "c1", "c2"))
    items, after = phased([[a1, a2], [b1], [c1, c2]])
    assert items == [("train", [a1, a2]), ("run", [b1]), ("train", [c1, c2]),
                     ("decode", [a1]), ("decode", [a2]), ("decode", [c1]), ("decode", [c2])]
    assert after == [[], [], [], [0], [0], [2], [2]]


def slow_first(cfg: dict, options: dict) -> dict:
    import time

    time.sleep(cfg["sleep"])
    return {"seed": cfg["seed"]}


@pytest.mark.parametrize("after, order", [(None, [3, 1]), ([[], [0]], [1, 3])])
def test_tasks_wait_for_the_tasks_they_come_after(capsys, after, order):
    """With two workers the quick second task ends first, unless it waits for the first (as a
    decoding waits for its group's training)."""
    configs = [{"seed": 1, "sleep": 1.5}, {"seed": 3, "sleep": 0.0}]
    assert run_configurations(slow_first, configs, {}, 2, summary, describe, after=after) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("seed")]
    assert lines == [f"seed {s}: {{'seed': {s}}}" for s in order]


# ---------------------------------------------------------------- rates and device minutes of runs


def test_a_group_shares_its_training_time_among_its_seeds():
    from compsem.cogs.seq2seq.results import device_minutes, throughput

    alone = {"train_seconds": 600.0, "decode_seconds": 60.0, "steps": 3000, "device": "cuda: H100",
             "train_target_tokens_per_second": 850000}
    assert device_minutes(alone) == pytest.approx(11.0)
    grouped = dict(alone, trained_with_seeds=[1, 2, 3])
    assert device_minutes(grouped) == pytest.approx((200 + 60) / 60)
    two_stage = dict(grouped, aux_train_seconds=300.0)  # Chapter 5: both stages
    assert device_minutes(two_stage) == pytest.approx((300 + 60) / 60)
    line = throughput(grouped)
    assert "5.0 updates/s" in line and "850,000 target tokens/s" in line
    assert "4.3 device-min (training shared by 3 seeds) on cuda: H100" in line


def test_list_totals_the_device_minutes_of_the_runs_with_results(tmp_path, capsys):
    import json

    import pandas as pd

    from compsem.cogs.seq2seq import results, train

    args = ["--model", "lstm-tiny", "--reduced", "--seed", "1", "2", "3", "--results", str(tmp_path)]
    configs = train.configurations(train.parse_args(args))
    for cfg, device in zip(configs[:2], ["gpu", "cpu"], strict=True):  # the third has no results
        metrics = {"train_seconds": 120.0, "decode_seconds": 30.0, "device": device}
        predictions = pd.DataFrame({"split": ["dev"], "row": [0], "prediction": ["x"], "capped": [False]})
        results.save_result(results.Result(cfg, metrics, predictions), tmp_path)
    broken = results.result_dir(configs[2], tmp_path)  # metrics without predictions: not a result
    broken.mkdir(parents=True)
    (broken / "metrics.json").write_text(json.dumps({"train_seconds": 1e6, "decode_seconds": 0.0, "device": "gpu"}))
    assert train.main([*args, "--list"]) == 0
    out = capsys.readouterr().out
    assert "1 run(s) with results on gpu: 2.5 device-minutes" in out
    assert "1 run(s) with results on cpu: 2.5 device-minutes" in out
