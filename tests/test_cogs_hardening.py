"""Hardening of the COGS training commands and their result files.

Result files carry a digest (``SHA256SUMS``, written last): an edited ``metrics.json``, a valid
gzip of garbage as predictions, a ``metrics.json`` that is not an object, or a folder without a
digest counts as not done, with a warning naming the file -- never read as is, never a traceback.
:func:`compsem.cogs.seq2seq.seal.seal` adds the digest to older results after checking them.

The options of both training commands are checked by the same argparse types
(:mod:`compsem.cogs.seq2seq.options`) before any work: an invalid value ends the command with
one line naming the option and the value, and status 2.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
import warnings

import pandas as pd
import pytest

from compsem.cogs.seq2seq import auxiliary_train, results, seal, train
from compsem.errors import CompsemError

LIST_ARGS = ["--model", "lstm-tiny", "--reduced", "--seed", "1"]


def _metrics(**extra) -> dict:
    return {"accuracy": {"dev": 0.5}, "train_seconds": 60.0, "decode_seconds": 6.0,
            "device": "cpu", "steps": 5, "stop_reason": "max_steps", **extra}


def _saved(tmp_path, **extra):
    """A result of the configuration of LIST_ARGS under ``tmp_path``: (config, folder)."""
    (cfg,) = train.configurations(train.parse_args([*LIST_ARGS, "--results", str(tmp_path)]))
    predictions = pd.DataFrame({"split": ["dev", "dev"], "row": [0, 1],
                                "prediction": ["* cat ( x _ 1 ) ;", "x"], "capped": [0, 0]})
    folder = results.save_result(results.Result(cfg, _metrics(**extra), predictions), tmp_path)
    return cfg, folder


def _listed(tmp_path, capsys) -> str:
    """The state ``train --list`` gives the one configuration (done, partial, other, pending)."""
    assert train.main([*LIST_ARGS, "--results", str(tmp_path), "--list"]) == 0
    return capsys.readouterr().out.splitlines()[0].split()[1]


# ---------------------------------------------------------------- case 7: result files carry a digest


def test_saved_results_carry_a_sha256sum_of_their_files(tmp_path, capsys):
    cfg, folder = _saved(tmp_path)
    lines = (folder / results.DIGEST_FILE).read_text().splitlines()
    named = dict(reversed(line.split("  ", 1)) for line in lines)  # the format of sha256sum -c
    assert set(named) == {"config.json", "metrics.json", "predictions.tsv.gz"}
    for name, digest in named.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert results.has_result(cfg, tmp_path)
    assert _listed(tmp_path, capsys) == "done"


def test_an_edited_accuracy_counts_as_not_done_and_names_the_file(tmp_path, capsys):
    cfg, folder = _saved(tmp_path)
    metrics = json.loads((folder / "metrics.json").read_text())
    metrics["accuracy"]["dev"] = 0.99
    (folder / "metrics.json").write_text(json.dumps(metrics, indent=1, sort_keys=True) + "\n")
    with pytest.warns(UserWarning, match=r"metrics\.json does not match its sha256"):
        assert not results.has_result(cfg, tmp_path, partial=True)
    with pytest.warns(UserWarning, match="metrics.json"):
        assert _listed(tmp_path, capsys) == "pending"
    with pytest.warns(UserWarning), pytest.raises(FileNotFoundError):
        results.load_result(cfg, tmp_path)


def test_a_valid_gzip_of_garbage_as_predictions_is_not_a_result(tmp_path, capsys):
    cfg, folder = _saved(tmp_path, stop_reason="time limit")
    assert _listed(tmp_path, capsys) == "partial"
    (folder / "predictions.tsv.gz").write_bytes(gzip.compress(b"garbage\x00\xff\nmore garbage\n"))
    with pytest.warns(UserWarning, match=r"predictions\.tsv\.gz"):
        assert not results.has_result(cfg, tmp_path, partial=True)
    with pytest.warns(UserWarning, match=r"predictions\.tsv\.gz"):
        assert _listed(tmp_path, capsys) == "pending"


def test_garbage_under_the_right_header_is_caught_by_the_digest(tmp_path):
    cfg, folder = _saved(tmp_path)
    text = "\t".join(results.PREDICTION_COLUMNS) + "\ndev\t0\tgarbage\t0\n"
    (folder / "predictions.tsv.gz").write_bytes(gzip.compress(text.encode()))
    with pytest.warns(UserWarning, match=r"predictions\.tsv\.gz does not match its sha256"):
        assert not results.has_result(cfg, tmp_path, partial=True)


def test_a_result_without_a_digest_counts_as_not_done_and_says_how_to_seal_it(tmp_path, capsys):
    """Results written before digests: not done (the safe choice), with the command that checks
    them and adds the digest."""
    cfg, folder = _saved(tmp_path)
    (folder / results.DIGEST_FILE).unlink()
    with pytest.warns(UserWarning, match=r"SHA256SUMS is missing.*compsem\.cogs\.seq2seq\.seal"):
        assert not results.has_result(cfg, tmp_path, partial=True)
    with pytest.warns(UserWarning, match="SHA256SUMS"):
        assert _listed(tmp_path, capsys) == "pending"


@pytest.mark.needs_data
def test_seal_checks_a_result_before_adding_its_digest(tmp_path):
    """:func:`seal.seal` re-scores the predictions against the gold outputs: an accuracy that
    is not what the predictions score is refused, naming the file; a sound result gets its
    digest and counts as done; a sealed result is left alone, an edited sealed one refused."""
    from compsem.cogs.seq2seq import experiment
    from compsem.data import cogs

    (cfg,) = train.configurations(train.parse_args([*LIST_ARGS, "--results", str(tmp_path)]))
    gold = {s: cogs.load(s) for s in ("dev", "gen")}
    predictions = pd.DataFrame({"split": ["dev"] * 3 + ["gen"] * 2, "row": [0, 1, 2, 0, 5000],
                                "prediction": [gold["dev"].target[0], "x", "y",
                                               gold["gen"].target[0], "z"],
                                "capped": [0] * 5})
    scored = experiment.exact_match_accuracy(predictions, gold)
    folder = results.save_result(results.Result(cfg, _metrics(**scored), predictions), tmp_path)
    (folder / results.DIGEST_FILE).unlink()
    metrics = json.loads((folder / "metrics.json").read_text())
    metrics["accuracy"]["dev"] = 0.5
    (folder / "metrics.json").write_text(json.dumps(metrics))
    with pytest.raises(CompsemError, match=r"metrics\.json.*accuracy.*dev.*0\.5.*0\.333"):
        seal.seal(folder)
    assert not (folder / results.DIGEST_FILE).exists()
    metrics["accuracy"]["dev"] = scored["accuracy"]["dev"]
    (folder / "metrics.json").write_text(json.dumps(metrics))
    assert seal.seal(folder) == "sealed"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert results.has_result(cfg, tmp_path)
    assert seal.seal(folder) == "already sealed"
    (folder / "metrics.json").write_text(json.dumps({**metrics, "steps": 6}))
    with pytest.raises(CompsemError, match=r"metrics\.json does not match its sha256"):
        seal.seal(folder)


def test_seal_refuses_what_cannot_be_read_back(tmp_path):
    cfg, folder = _saved(tmp_path)
    (folder / results.DIGEST_FILE).unlink()
    (folder / "metrics.json").write_text("[]")
    with pytest.raises(CompsemError, match=r"metrics\.json.*not a JSON object"):
        seal.seal(folder)
    with pytest.raises(CompsemError, match="config.json"):
        seal.seal(tmp_path / "nowhere")


def test_the_seal_command_reports_on_one_line(tmp_path):
    cfg, folder = _saved(tmp_path)
    (folder / "metrics.json").write_text("{}")
    done = subprocess.run([sys.executable, "-m", "compsem.cogs.seq2seq.seal", str(folder)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "metrics.json" in done.stderr


def test_decodings_skip_a_folder_whose_config_cannot_be_read(tmp_path):
    cfg, folder = _saved(tmp_path)
    broken = tmp_path / "000000000000"
    broken.mkdir()
    (broken / "config.json").write_text("[]")
    assert results.decodings(cfg, tmp_path) == [cfg]


@pytest.mark.parametrize("root", ["cogs-models", "cogs-auxiliary"])
def test_committed_results_carry_a_valid_digest(root):
    """The chapters read the committed results: each has its digest and counts as a result."""
    folder = results.RESULTS_DIR.parent / root
    found = sorted(p.parent for p in folder.glob("*/config.json"))
    assert found
    for path in found:
        stored = json.loads((path / "config.json").read_text())
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert results.has_result(stored, folder, partial=True), path


# ---------------------------------------------------------------- case 13: metrics.json of [] or {}


@pytest.mark.parametrize("text", ["[]", "{}", "null", "3"])
def test_metrics_that_are_not_a_result_count_as_not_done(tmp_path, capsys, text):
    cfg, folder = _saved(tmp_path)
    (folder / "metrics.json").write_text(text)
    with pytest.warns(UserWarning, match="metrics.json"):
        assert _listed(tmp_path, capsys) == "pending"
    with pytest.warns(UserWarning, match="metrics.json"):
        assert results.collect([cfg], tmp_path).empty


# ---------------------------------------------------------------- cases 9 and 13: options checked first

COMMANDS = {"train": train, "auxiliary_train": auxiliary_train}

SHARED_BAD = [
    ["--max-steps", "0"],
    ["--max-steps", "-3"],
    ["--train-minutes", "-5"],
    ["--train-minutes", "nan"],
    ["--per-case", "-5"],
    ["--per-split", "-1"],
    ["--seed", "-1"],
    ["--seed", "1", "x"],
    ["--decode-batch-size", "0"],
    ["--threads", "-2"],
    ["--jobs", "0"],
    ["--device", "banana"],
    ["--device", "cuda:x"],
]
TRAIN_BAD = [
    ["--keep-every", "-1"],
    ["--curve-per-case", "-1"],
    ["--curve-per-split", "-2"],
    ["--lstm-embedding-dropout", "1.5"],
    ["--lstm-embedding-dropout", "-0.1"],
]
AUX_BAD = [["--aux-max-steps", "0"]]


def _bad_cases():
    for name in COMMANDS:
        for args in SHARED_BAD + (TRAIN_BAD if name == "train" else AUX_BAD):
            yield pytest.param(name, args, id=f"{name} {' '.join(args)}")


@pytest.mark.parametrize("name, args", list(_bad_cases()))
def test_an_invalid_option_is_refused_on_one_line_before_any_work(name, args, capsys, monkeypatch):
    command = COMMANDS[name]

    def no_work(*_, **__):
        raise AssertionError("work started")

    monkeypatch.setattr(command, "configurations", no_work)
    monkeypatch.setattr(command, "_run_one", no_work)
    with pytest.raises(SystemExit) as ended:
        command.main(args)
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert args[0] in err and repr(args[-1]) in err


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_gpu_that_is_not_there_is_refused_before_any_work(name, capsys):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(SystemExit) as ended:
        COMMANDS[name].parse_args(["--device", "cuda"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--device" in err and "no GPU" in err
    # with a Dask scheduler the GPU is the workers': not checked here
    assert COMMANDS[name].parse_args(["--device", "cuda", "--scheduler", "tcp://h:1"]).device == "cuda"


def test_valid_options_give_the_same_configurations_as_before():
    """The checks refuse values; they change none of the accepted ones (the hashes)."""
    from compsem.cogs.seq2seq import auxiliary_config as ac
    from compsem.cogs.seq2seq import config

    args = train.parse_args(["--reduced", "--model", "lstm-tiny", "--seed", "0", "3",
                             "--max-steps", "7", "--per-case", "2", "--per-split", "0",
                             "--train-minutes", "0", "--keep-every", "0", "--threads", "0",
                             "--decode-batch-size", "1", "--device", "cpu", "--jobs", "1"])
    assert [config.config_hash(c) for c in train.configurations(args)] == [
        config.config_hash(config.reduced_config("lstm-tiny", s, 7, 2, 0, 1)) for s in (0, 3)
    ]
    assert args.train_minutes == 0.0 and args.keep_every == 0 and args.threads == 0
    default = train.parse_args(["--reduced", "--model", "lstm-tiny"])
    assert train.configurations(default) == [config.reduced_config("lstm-tiny", 1, 2500, 0, 0, 1)]
    aux = auxiliary_train.parse_args(["--reduced", "--objective", "none", "--seed", "2",
                                      "--max-steps", "7", "--per-case", "3",
                                      "--train-minutes", "1.5"])
    assert auxiliary_train.configurations(aux) == [ac.reduced_aux_config("none", 2, max_steps=7,
                                                                         per_case=3)]
    assert aux.train_minutes == 1.5
    reduced = auxiliary_train.parse_args(["--reduced", "--objective", "gloss", "--seed", "1"])
    assert auxiliary_train.configurations(reduced) == [ac.reduced_aux_config("gloss", 1)]
    grid = auxiliary_train.parse_args(["--model", "lstm", "--objective", "none", "--seed", "1"])
    assert auxiliary_train.configurations(grid)[0]["data"]["exposures"] == 1
    dropout = train.parse_args(["--model", "lstm", "--lstm-embedding-dropout", "0"])
    assert train.configurations(dropout)[0]["architecture"]["embedding_dropout"] == 0.0
