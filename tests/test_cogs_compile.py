"""compsem.cogs.seq2seq.lstm.compile_decoder_step: the LSTM decoder step compiled by
torch.compile must compute what the eager step computes (outputs, gradients, decoded outputs),
for one model and for grouped members; the option must reach the trainers from both commands
and be recorded in a run's metrics."""

from __future__ import annotations

import pytest
import torch

from compsem.cogs.seq2seq import decoding
from compsem.cogs.seq2seq.grouped_lstm import GroupedLSTM
from compsem.cogs.seq2seq.lstm import COMPILE_MODES, LSTMSeq2Seq, compile_decoder_step
from compsem.cogs.seq2seq.vocab import PAD_ID


def compiled_graphs() -> int:
    from torch._dynamo.utils import counters

    return counters["stats"]["unique_graphs"]


def lstm(seed: int) -> LSTMSeq2Seq:
    torch.manual_seed(seed)
    return LSTMSeq2Seq(20, 30, layers=2, hidden=8, embedding=6, dropout=0.0)


def batch(rows: int, generator: torch.Generator, k: int | None = None):
    shape = (rows,) if k is None else (k, rows)
    src = torch.randint(4, 20, (*shape, 7), generator=generator)
    tgt_in = torch.randint(4, 30, (*shape, 6), generator=generator)
    src_len = torch.randint(1, 8, shape, generator=generator)
    src_len[..., 0] = 7
    src[torch.arange(7) >= src_len.unsqueeze(-1)] = PAD_ID
    return src, src_len, tgt_in


def loss_and_grads(model, src, src_len, tgt_in):
    out = model(src, src_len, tgt_in)
    model.zero_grad()
    (out * torch.linspace(0, 1, out.shape[-1])).sum().backward()
    return out.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}


@pytest.mark.slow  # torch.compile builds C++ kernels: about 20 s on the CPU
def test_a_compiled_step_trains_and_decodes_as_the_eager_step():
    generator = torch.Generator().manual_seed(0)
    eager, compiled = lstm(1), compile_decoder_step(lstm(1), "default")
    assert compiled.compiled_step == "default"
    graphs = compiled_graphs()
    for rows in (5, 3):  # two batch shapes: dynamic shapes, one compilation serves both
        data = batch(rows, generator)
        expected, expected_grads = loss_and_grads(eager, *data)
        got, grads = loss_and_grads(compiled, *data)
        assert torch.allclose(got, expected, atol=1e-5)
        for name, grad in expected_grads.items():
            assert torch.allclose(grads[name], grad, atol=1e-5), name
    assert compiled_graphs() > graphs  # the compiled path ran
    sources = [[5, 6, 7, 8], [9, 10], [11, 12, 13]]
    caps = decoding.length_caps([len(s) for s in sources], 6)
    for method in ("greedy", "beam"):
        want = decoding.translate(eager, sources, caps, method, beam=3)
        have = decoding.translate(compiled, sources, caps, method, beam=3)
        assert [h.tokens for h in have] == [h.tokens for h in want]
        assert [h.score for h in have] == pytest.approx([h.score for h in want], abs=1e-4)


@pytest.mark.slow  # torch.compile: about 40 s on the CPU
def test_a_compiled_grouped_step_computes_what_the_eager_group_computes():
    generator = torch.Generator().manual_seed(1)
    src, src_len, tgt_in = batch(4, generator, k=2)
    eager, compiled = GroupedLSTM([lstm(1), lstm(2)]), GroupedLSTM([lstm(1), lstm(2)])
    compile_decoder_step(compiled, "default")
    results = []
    for group in (eager, compiled):
        out = group(src, src_len, tgt_in)
        (out * torch.linspace(0, 1, out.shape[-1])).sum().backward()
        results.append((out.detach(), {n: p.grad for n, p in group.params.items()}))
    (expected, expected_grads), (got, grads) = results
    assert torch.allclose(got, expected, atol=1e-5)
    for name, grad in expected_grads.items():
        assert torch.allclose(grads[name], grad, atol=1e-5), name


def test_compile_modes_are_checked_and_models_without_a_step_loop_are_left_alone():
    from compsem.cogs.seq2seq import config

    model = lstm(1)
    step = model._step
    assert compile_decoder_step(model, None) is model and model._step == step
    with pytest.raises(ValueError, match="unknown torch.compile mode 'fast'.*default"):
        compile_decoder_step(model, "fast")
    for mode in ("reduce-overhead", "max-autotune"):  # CUDA graphs: outputs overwritten per step
        with pytest.raises(ValueError, match=f"mode '{mode}' replays CUDA graphs"):
            compile_decoder_step(model, mode)
    assert model._step == step
    transformer = config.build_model(config.make_config("transformer-tiny"), 20, 30)
    assert compile_decoder_step(transformer, "default") is transformer
    assert not hasattr(transformer, "compiled_step")
    assert "reduce-overhead" not in COMPILE_MODES


def test_both_commands_pass_the_mode_to_the_trainers(monkeypatch):
    """``--compile-step`` reaches every trainer call of ``train`` and ``auxiliary_train``, grouped
    or not, and the two-stage trainer passes it to both stages."""
    from compsem.cogs.seq2seq import (
        auxiliary_train,
        experiment,
        train,
        trainer,
        two_stage,
    )

    seen = []
    from types import SimpleNamespace

    def record(name, returns=None):
        def call(*args, **kwargs):
            seen.append((name, kwargs.get("compile_step")))
            return SimpleNamespace(metrics={}) if returns is None else returns
        return call

    monkeypatch.setattr(experiment, "train_and_decode", record("train_and_decode"))
    monkeypatch.setattr(trainer, "train_group", record("train_group"))
    monkeypatch.setattr(experiment, "training_data", lambda exposures: (None, None, 1, 1))
    monkeypatch.setattr(two_stage, "train_and_decode", record("two_stage.train_and_decode"))
    both_stages = two_stage.train_two_stage_group
    monkeypatch.setattr(two_stage, "train_two_stage_group", record("two_stage.group", returns=[]))
    from compsem.cogs.seq2seq.config import make_config

    args = vars(train.parse_args(["--compile-step", "default", "--model", "lstm"]))
    args.update(deadline=None, progress=False, results="", curve=False)
    cfg = make_config("lstm-tiny", seed=1)
    train._run_one(cfg, args)
    train._train_group([cfg], args)
    argv = ["--compile-step", "default", "--reduced", "--objective", "gloss", "--seed", "1"]
    options = vars(auxiliary_train.parse_args(argv))
    options.update(deadline=None, progress=False, results="")
    (aux,) = auxiliary_train.configurations(auxiliary_train.parse_args(argv))
    auxiliary_train._run_one(aux, options)
    auxiliary_train._train_group([aux], options)
    assert seen == [("train_and_decode", "default"), ("train_group", "default"),
                    ("two_stage.train_and_decode", "default"), ("two_stage.group", "default")]

    seen.clear()
    unfinished = SimpleNamespace(state=SimpleNamespace(done=False, stop_reason=""))
    monkeypatch.setattr(trainer, "train_group", record("train_group", returns=[unfinished]))
    monkeypatch.setattr(two_stage, "validate_aux", lambda config: None)
    monkeypatch.setattr(two_stage, "vocabularies", lambda config: ([], []))
    monkeypatch.setattr(two_stage, "auxiliary_pairs", lambda config: _pairs())
    monkeypatch.setattr(two_stage, "stage_one_config", lambda config: {"stage": 1})
    monkeypatch.setattr(two_stage, "_encode", lambda frame, src, tgt: None)
    monkeypatch.setattr(two_stage, "training_hash", lambda config: "h")
    (stages,) = both_stages([{"auxiliary": {"objective": "gloss"}, "seed": 1}], "cpu",
                              compile_step="default")
    assert stages["auxiliary"] is unfinished and stages["cogs"] is None  # stage 1 unfinished: stops there
    assert seen == [("train_group", "default")]


def _pairs():
    import pandas as pd

    return pd.DataFrame({"split": ["train", "dev"]})


@pytest.mark.slow
@pytest.mark.needs_data
def test_a_run_records_its_compiled_step(tmp_path):
    import json

    from compsem.cogs.seq2seq import train

    code = train.main(["--model", "lstm-tiny", "--reduced", "--max-steps", "2", "--seed", "1",
                       "--compile-step", "default", "--results", str(tmp_path / "results"),
                       "--checkpoints", str(tmp_path / "checkpoints"), "--per-case", "1", "--per-split", "2",
                       "--device", "cpu", "--quiet"])
    assert code == 0
    (metrics,) = [json.loads(f.read_text()) for f in (tmp_path / "results").glob("*/metrics.json")]
    assert metrics["compile_step"] == "default" and metrics["steps"] == 2
