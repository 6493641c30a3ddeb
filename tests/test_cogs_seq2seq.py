"""The COGS sequence-to-sequence models: sizes, training, decoding, checkpoints, result files."""

from __future__ import annotations

import json
import math
from contextlib import nullcontext

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from compsem.cogs.seq2seq import batching, config, decoding, experiment, results, trainer
from compsem.cogs.seq2seq.vocab import BOS_ID, EOS_ID, PAD_ID, UNK_ID, build_vocabularies

COGS_VOCAB = (747, 727)  # source / target ids of all COGS splits plus the specials


# ------------------------------------------------------------------------------ vocabulary


def test_vocab_round_trip_and_specials():
    src, tgt = build_vocabularies(["a cat ran ."], ["* cat ( x _ 1 )"])
    assert src.itos[:2] == ["<pad>", "<unk>"] and tgt.itos[:4] == ["<pad>", "<unk>", "<s>", "</s>"]
    ids = tgt.encode("* cat ( x _ 1 )", add_eos=True)
    assert ids[-1] == EOS_ID and tgt.decode(ids + [7, 7]) == "* cat ( x _ 1 )"
    assert src.encode("a dog") == [src.stoi["a"], UNK_ID]


@pytest.mark.needs_data
def test_cogs_vocabularies_cover_all_splits():
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies

    src, tgt = cogs_vocabularies()
    assert (len(src), len(tgt)) == COGS_VOCAB
    assert "47" in tgt.stoi  # a Skolem index that only the deep gen examples use


# -------------------------------------------------------------------------------- batching


def _pairs(n=50, seed=0):
    rng = np.random.default_rng(seed)
    src = [rng.integers(2, 9, rng.integers(1, 7)).tolist() for _ in range(n)]
    return batching.Pairs(src, [s[::-1] for s in src])


def test_epoch_batches_cover_every_pair_once_and_bucket_by_length():
    pairs = _pairs(103)
    batches = batching.epoch_batches(pairs, 10, seed=3, epoch=2)
    assert sorted(np.concatenate(batches).tolist()) == list(range(103))
    spans = [np.ptp(pairs.tgt_lengths[b]) for b in batches]
    assert max(spans) <= 1  # 103 pairs of 6 lengths: a bucket spans at most two lengths
    again = batching.epoch_batches(pairs, 10, seed=3, epoch=2)
    assert all((a == b).all() for a, b in zip(batches, again, strict=True))
    other = batching.epoch_batches(pairs, 10, seed=3, epoch=3)
    assert any(len(a) != len(b) or (a != b).any() for a, b in zip(batches, other, strict=True))


def test_collate_adds_bos_and_eos():
    pairs = batching.Pairs([[5, 6], [7]], [[9, 10, 11], [12]])
    batch = batching.collate(pairs, [0, 1])
    assert batch.src.tolist() == [[5, 6], [7, PAD_ID]] and batch.src_lengths.tolist() == [2, 1]
    assert batch.tgt_in.tolist() == [[BOS_ID, 9, 10, 11], [BOS_ID, 12, PAD_ID, PAD_ID]]
    assert batch.tgt_out.tolist() == [[9, 10, 11, EOS_ID], [12, EOS_ID, PAD_ID, PAD_ID]]


# ----------------------------------------------------------------------- parameter counts


@pytest.mark.parametrize(
    "name, expected",
    [
        ("transformer", 9_544_919),
        ("transformer-small", 5_337_303),
        ("transformer-large", 45_268_183),
        ("lstm", 11_105_495),
        ("bilstm", 10_056_919),
    ],
)
def test_parameter_counts_match_the_dissertation(name, expected):
    """Exact counts with the COGS vocabularies, and the dissertation's rounded figures (Section
    4.5.1; Figure 4-3) to its two significant digits."""
    model = config.build_model(config.make_config(name), *COGS_VOCAB)
    n = config.count_parameters(model)
    print(f"{name}: {n:,} parameters (dissertation: {config.PAPER_PARAMETERS[name]:,.0f})")
    assert n == expected
    paper = config.PAPER_PARAMETERS[name]
    digits = 10 ** (math.floor(math.log10(paper)) - 1)  # two significant digits
    assert round(n / digits) * digits == pytest.approx(paper)


def test_transformer_count_by_formula():
    """2 x encoder layer (4d^2+4d attention, 2 d ff + d + ff feed-forward, 2 LayerNorms) + 2 x
    decoder layer (two attentions, 3 LayerNorms) + 2 final LayerNorms + embeddings + generator."""
    d, ff, vs, vt = 512, 512, *COGS_VOCAB
    attention, feed = 4 * d * d + 4 * d, 2 * d * ff + d + ff
    encoder, decoder = attention + feed + 4 * d, 2 * attention + feed + 6 * d
    total = 2 * encoder + 2 * decoder + 4 * d + (vs + vt) * d + vt * d + vt
    assert total == 9_544_919


# ---------------------------------------------------------------------------- config/hash


def test_config_hash_depends_on_everything_but_is_stable():
    a = config.paper_config("transformer", seed=1)
    assert config.config_hash(a) == config.config_hash(json.loads(json.dumps(a)))
    assert config.config_hash(a) != config.config_hash(config.paper_config("transformer", seed=2))
    greedy = config.make_config("transformer", decoding={"method": "greedy"})
    assert config.training_hash(greedy) == config.training_hash(a)
    assert config.config_hash(greedy) != config.config_hash(a)
    lstm = config.paper_config("lstm")
    assert lstm["training"]["clip"] == 5.0 and lstm["training"]["label_smoothing"] == 0.0
    assert a["training"]["batch_size"] * a["training"]["accum_count"] == 512


def test_config_errors_name_the_bad_setting():
    with pytest.raises(ValueError, match="unknown model 'gru'"):
        config.make_config("gru")
    with pytest.raises(ValueError, match="unknown training setting"):
        config.make_config("transformer", training={"learning_rate": 1})
    with pytest.raises(ValueError, match="exposures"):
        config.make_config("transformer", exposures=10)
    with pytest.raises(ValueError, match="decoding method"):
        config.make_config("transformer", decoding={"method": "sample"})


# -------------------------------------------------------------------------- loss, schedule


def test_noam_schedule():
    assert trainer.noam_lr(4000, 2.0, 512, 4000) == pytest.approx(2 / math.sqrt(512 * 4000))
    assert trainer.noam_lr(2000, 2.0, 512, 4000) == pytest.approx(
        trainer.noam_lr(4000, 2.0, 512, 4000) / 2
    )
    assert trainer.noam_lr(16000, 2.0, 512, 4000) == pytest.approx(
        trainer.noam_lr(4000, 2.0, 512, 4000) / 2
    )


def test_label_smoothed_loss_is_kl_up_to_a_constant():
    torch.manual_seed(0)
    logits = torch.randn(2, 3, 6)
    targets = torch.tensor([[4, 5, PAD_ID], [2, 3, 4]])
    eps = 0.1
    loss, n = trainer.sequence_loss(torch.log_softmax(logits, -1), targets, eps)
    assert n == 5
    q = torch.full((2, 3, 6), eps / 4)
    q[..., PAD_ID] = 0
    q.scatter_(2, targets[..., None], 1 - eps)
    kl = torch.nn.functional.kl_div(torch.log_softmax(logits, -1), q, reduction="none").sum(-1)
    kl = kl[targets != PAD_ID].sum()
    constant = (q * q.clamp_min(1e-30).log()).sum(-1)[targets != PAD_ID].sum()
    assert float(loss) == pytest.approx(float(kl - constant), rel=1e-5)
    plain, _ = trainer.sequence_loss(torch.log_softmax(logits, -1), targets, 0.0)
    nll = torch.nn.functional.nll_loss(
        torch.log_softmax(logits, -1).view(-1, 6),
        targets.view(-1),
        ignore_index=PAD_ID,
        reduction="sum",
    )
    assert float(plain) == pytest.approx(float(nll))


# ------------------------------------ toy task (reversal_pairs, toy_config: tests/conftest.py)


@pytest.mark.parametrize("model", ["transformer-tiny", "lstm-tiny", "bilstm-tiny"])
def test_a_few_steps_reduce_dev_loss(model, tmp_path, reversal_pairs, toy_config):
    cfg = toy_config(model, steps=30)
    torch.manual_seed(cfg["seed"])
    dev = reversal_pairs(64, 1)
    start = trainer.dev_loss(config.build_model(cfg, 12, 12), dev, torch.device("cpu"))
    trained = trainer.train(cfg, reversal_pairs(400, 0), dev, 12, 12, tmp_path, device="cpu",
                             progress=False)
    losses = [h["dev_loss"] for h in trained.state.history]
    assert len(losses) == 3 and trained.state.done and trained.state.stop_reason == "max_steps"
    assert min(losses) < 0.8 * start
    assert trained.state.best_loss == min(losses)


def test_early_stopping_after_patience(tmp_path, reversal_pairs, toy_config):
    cfg = toy_config("transformer-tiny", steps=200)
    cfg["training"].update(lr=0.0, patience=2)  # nothing is learnt: the dev loss never improves
    trained = trainer.train(
        cfg, reversal_pairs(100, 0), reversal_pairs(20, 1), 12, 12, tmp_path, device="cpu",
        progress=False,
    )
    assert trained.state.stop_reason == "early stopping"
    assert trained.state.step == 30 and trained.state.best_step == 10


def test_resume_gives_the_weights_of_an_uninterrupted_run(tmp_path, reversal_pairs, toy_config):
    cfg = toy_config("transformer-tiny", steps=30)
    train_pairs, dev = reversal_pairs(300, 0), reversal_pairs(32, 1)
    whole = trainer.train(
        cfg, train_pairs, dev, 12, 12, tmp_path / "a", device="cpu", progress=False
    )
    part = trainer.train(
        cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu", progress=False, stop_after=15
    )  # interrupted; last checkpoint: step 10
    assert not part.state.done and part.state.step == 15
    resumed = trainer.train(
        cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu", progress=False
    )
    assert resumed.state.done and resumed.state.step == 30

    def losses(state):
        return [(h["step"], h["dev_loss"], h["train_loss"]) for h in state.history]

    assert losses(resumed.state) == losses(whole.state)
    for (name, a), (_, b) in zip(
        whole.model.state_dict().items(), resumed.model.state_dict().items(), strict=True
    ):
        assert torch.equal(a, b), name
    again = trainer.train(
        cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu", progress=False
    )
    assert again.state.step == 30  # a finished run is reloaded, not trained further


def test_resume_refuses_another_configuration(tmp_path, reversal_pairs, toy_config):
    cfg = toy_config("transformer-tiny", steps=10)
    trainer.train(cfg, reversal_pairs(50, 0), reversal_pairs(10, 1), 12, 12, tmp_path,
                   device="cpu", progress=False)
    other = toy_config("transformer-tiny", steps=20)
    with pytest.raises(RuntimeError, match="another configuration"):
        trainer.train(
            other, reversal_pairs(50, 0), reversal_pairs(10, 1), 12, 12, tmp_path, device="cpu",
            progress=False,
        )


def _record_linear_dtypes(model, seen: list):
    """Forward hooks on every ``nn.Linear``: (grad enabled, output dtype) of each call."""
    def hook(_module, _inputs, out):
        seen.append((torch.is_grad_enabled(), out.dtype))

    return [m.register_forward_hook(hook) for m in model.modules() if isinstance(m, torch.nn.Linear)]


def test_the_dev_loss_runs_in_float32_whatever_autocast_the_updates_use(monkeypatch, tmp_path,
                                                                        reversal_pairs, toy_config):
    """The early-stopping criterion is computed outside autocast. ``amp`` is made to act on the
    CPU (bfloat16 autocast, as on a GPU): the updates' layers then compute in bfloat16, the dev
    loss's in float32, and the loss recorded for the best validation is the float32 dev loss of
    the kept weights, to the bit."""
    monkeypatch.setattr(
        trainer, "autocast",
        lambda device, amp: torch.autocast("cpu", dtype=torch.bfloat16) if amp else nullcontext())
    seen = []
    real_build = config.build_model

    def build_and_hook(*args, **kwargs):
        model = real_build(*args, **kwargs)
        _record_linear_dtypes(model, seen)
        return model

    monkeypatch.setattr(trainer, "build_model", build_and_hook)
    cfg = toy_config("transformer-tiny", steps=20)
    dev = reversal_pairs(32, 1)
    trained = trainer.train(cfg, reversal_pairs(200, 0), dev, 12, 12, tmp_path, device="cpu",
                             amp=True, progress=False)
    updates = {dtype for grad, dtype in seen if grad}
    validations = {dtype for grad, dtype in seen if not grad}
    assert torch.bfloat16 in updates  # amp acts on the updates here
    assert validations == {torch.float32}  # but never on the dev loss
    assert [h["step"] for h in trained.state.history] == [10, 20]
    seen.clear()
    assert trainer.dev_loss(trained.model, dev, torch.device("cpu")) == trained.state.best_loss
    assert {dtype for _, dtype in seen} == {torch.float32}


def test_grouped_members_record_the_float32_dev_loss(monkeypatch, tmp_path, reversal_pairs,
                                                     toy_config):
    """The same for seeds trained as one batched model (:mod:`compsem.cogs.seq2seq.grouped`):
    with ``amp`` acting on the CPU, each member's best dev loss is the float32 dev loss of its
    kept weights, to the bit."""

    monkeypatch.setattr(
        trainer, "autocast",
        lambda device, amp: torch.autocast("cpu", dtype=torch.bfloat16) if amp else nullcontext())
    configs = [toy_config("transformer-tiny", steps=20) for _ in range(2)]
    for seed, cfg in zip((1, 2), configs, strict=True):
        cfg["seed"] = seed
    dev, folders = reversal_pairs(32, 1), [tmp_path / "a", tmp_path / "b"]
    states = [r.state for r in trainer.train_group(configs, reversal_pairs(200, 0), dev, 12, 12, folders,
                                                   device="cpu", amp=True, progress=False)]
    for cfg, folder, state in zip(configs, folders, states, strict=True):
        model = config.build_model(cfg, 12, 12)
        model.load_state_dict(trainer.load_checkpoint(folder / "best.pt"))
        assert trainer.dev_loss(model, dev, torch.device("cpu")) == state.best_loss


def test_the_dev_loss_ignores_an_enclosing_autocast(reversal_pairs, toy_config):
    torch.manual_seed(0)
    model = config.build_model(toy_config("transformer-tiny"), 12, 12)
    dev, cpu = reversal_pairs(40, 1), torch.device("cpu")
    plain = trainer.dev_loss(model, dev, cpu)
    seen = []
    _record_linear_dtypes(model, seen)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        inside = trainer.dev_loss(model, dev, cpu)
        assert model.generator(torch.zeros(1, model.generator.in_features)).dtype == torch.bfloat16
    assert inside == plain
    assert {dtype for _, dtype in seen[:-1]} == {torch.float32} and seen[-1][1] == torch.bfloat16


# -------------------------------------------------------------------------------- decoding


def _untrained(model):
    torch.manual_seed(0)
    return config.build_model(config.make_config(model), 12, 12).eval()


@pytest.mark.parametrize("model", ["transformer-tiny", "lstm-tiny", "bilstm-tiny"])
def test_greedy_equals_beam_one_and_batching_changes_nothing(model, reversal_pairs):
    net = _untrained(model)
    sources = reversal_pairs(17, 3).src
    caps = [9] * len(sources)
    greedy = decoding.translate(net, sources, caps, "greedy", batch_size=5)
    beam1 = decoding.translate(net, sources, caps, "beam", beam=1, batch_size=4)
    assert [h.tokens for h in greedy] == [h.tokens for h in beam1]
    assert [h.score for h in greedy] == pytest.approx([h.score for h in beam1], abs=1e-4)
    single = [decoding.translate(net, [s], [9], "beam", beam=3)[0] for s in sources]
    batched = decoding.translate(net, sources, caps, "beam", beam=3, batch_size=6)
    assert [h.tokens for h in single] == [h.tokens for h in batched]


class _PlainState:
    """A model's encode and step alone: no source_state, no reorder_state of its own."""

    def __init__(self, net):
        self.encode, self.step, self.eval = net.encode, net.step, net.eval


@pytest.mark.parametrize("model, seed", [("transformer-tiny", 2), ("lstm-tiny", 1)])
def test_beam_search_with_the_models_own_reordering_gives_the_same_results(model, seed):
    """Source entries left in place and the Transformer's filled-only copies of its key/value
    buffers are the generic re-ordering, value for value: tokens and scores to the bit, with
    examples ending at many different steps (caps from 1 to 40: buffers grow past 16 and 32
    positions, and rows are dropped as examples end)."""
    torch.manual_seed(seed)  # a model whose outputs end at many lengths
    net = config.build_model(config.make_config(model), 12, 12).eval()
    assert net.source_state and (hasattr(net, "reorder_state") == model.startswith("transformer"))
    rng = np.random.default_rng(7)
    sources = [list(rng.integers(4, 12, size=int(rng.integers(2, 8)))) for _ in range(30)]
    caps = list(np.random.default_rng(0).integers(1, 41, size=len(sources)))
    own = decoding.translate(net, sources, caps, "beam", beam=4, batch_size=8)
    plain = decoding.translate(_PlainState(net), sources, caps, "beam", beam=4, batch_size=8)
    assert [(h.tokens, h.capped, h.score) for h in own] == [(h.tokens, h.capped, h.score) for h in plain]
    lengths = [len(h.tokens) for h in own]
    assert len(set(lengths)) > 15 and max(lengths) > 32


@pytest.mark.parametrize("method", ["beam", "greedy"])
def test_a_decoding_step_reads_back_a_few_values_whatever_the_batch(method, monkeypatch):
    """Each read of a tensor's values on the host (``item``, ``tolist``) waits for a GPU: a step
    reads the hypotheses that end all at once, at most 5 reads, not 5 per hypothesis."""
    from torch.profiler import ProfilerActivity, profile

    torch.manual_seed(2)  # outputs that end at many lengths
    net = config.build_model(config.make_config("transformer-tiny"), 12, 12).eval()
    rng = np.random.default_rng(7)
    sources = [list(rng.integers(4, 12, size=int(rng.integers(2, 8)))) for _ in range(64)]
    caps = list(np.random.default_rng(0).integers(1, 41, size=len(sources)))
    steps, reads = [0], [0]
    step, tolist = net.step, torch.Tensor.tolist

    def counted_step(*args):
        steps[0] += 1
        return step(*args)

    def counted_tolist(self):
        reads[0] += 1
        return tolist(self)

    monkeypatch.setattr(net, "step", counted_step)
    monkeypatch.setattr(torch.Tensor, "tolist", counted_tolist)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        hyps = decoding.translate(net, sources, caps, method, beam=4, batch_size=64)
    items = sum(e.count for e in prof.key_averages() if e.key == "aten::item")
    assert len({len(h.tokens) for h in hyps}) > 15  # examples end on many steps
    assert (items + reads[0]) / steps[0] <= 5


def test_the_transformers_reordering_copies_the_filled_positions():
    net = _untrained("transformer-tiny")
    src = torch.randint(4, 12, (5, 4))
    with torch.no_grad():
        state = net.encode(src, torch.full((5,), 4))
        for t in range(20):  # 20 positions filled in buffers of 32
            _, state = net.step(torch.full((5,), BOS_ID), state, t)
    index = torch.tensor([4, 4, 0, 2, 1])
    ours, generic = net.reorder_state(state, index), decoding.reorder(state, index)
    assert ours["k0"].shape == generic["k0"].shape == state["k0"].shape
    for name, value in generic.items():
        if name in ("k0", "v0", "k1", "v1"):
            assert torch.equal(ours[name][:, :, :20], value[:, :, :20])
        elif torch.is_tensor(value):
            assert torch.equal(ours[name], value)
    assert ours["spare_k0"] is state["k0"]  # the old buffer, for the next re-ordering to fill
    again = net.reorder_state(ours, torch.tensor([1, 0, 3, 2, 4]))
    assert again["k0"] is state["k0"]  # the spare buffer filled, none allocated
    assert torch.equal(again["k0"][:, :, :20], generic["k0"][[1, 0, 3, 2, 4], :, :20])
    fewer = net.reorder_state(again, torch.tensor([0, 2]))  # examples dropped: a new buffer
    assert fewer["k0"].shape[0] == 2 and torch.equal(fewer["k0"][:, :, :20], again["k0"][[0, 2], :, :20])


def test_a_batch_out_of_gpu_memory_is_decoded_in_halves_with_the_same_outputs(monkeypatch, capsys):
    net = _untrained("transformer-tiny")
    sources = [[4 + (i * 7 + j) % 8 for j in range(2 + i % 5)] for i in range(20)]
    caps = [9] * len(sources)
    whole = decoding.translate(net, sources, caps, "beam", beam=3, batch_size=20)
    search = decoding.beam_search

    def small_gpu(model, src, *args):  # a batch of more than 6 sentences does not fit
        if src.shape[0] > 6:
            raise torch.OutOfMemoryError("CUDA out of memory (simulated)")
        return search(model, src, *args)

    monkeypatch.setattr(decoding, "beam_search", small_gpu)
    halved = []
    parts = decoding.translate(net, sources, caps, "beam", beam=3, batch_size=20, halved=halved)
    assert halved == [20, 10, 10]  # 20 -> 10 + 10 -> 5 + 5 + 5 + 5
    assert [h.tokens for h in parts] == [h.tokens for h in whole]  # scores: as other batches give
    assert [h.score for h in parts] == pytest.approx([h.score for h in whole], abs=1e-4)
    assert "a batch of 20 sentences ran out of GPU memory" in capsys.readouterr().out
    with pytest.raises(torch.OutOfMemoryError):  # one sentence that does not fit: nothing to halve
        monkeypatch.setattr(decoding, "beam_search", lambda *a: (_ for _ in ()).throw(
            torch.OutOfMemoryError("CUDA out of memory (simulated)")))
        decoding.translate(net, sources[:1], caps[:1], "beam", beam=3)


def test_the_default_batch_size_follows_the_device():
    assert decoding.batch_size_for("cuda") == decoding.batch_size_for("cuda:1") == 512
    assert decoding.batch_size_for("cpu") == decoding.batch_size_for("mps") == 128


@pytest.mark.parametrize("model", ["transformer-tiny", "lstm-tiny"])
def test_cached_steps_equal_teacher_forcing(model, reversal_pairs):
    net = _untrained(model)
    toy = reversal_pairs(6, 4)
    pairs = batching.Pairs(toy.src, [t * 8 for t in toy.tgt])  # up to 48 steps: the cache grows
    batch = batching.collate(pairs, list(range(6)))
    with torch.no_grad():
        full = net(batch.src, batch.src_lengths, batch.tgt_in)
        state = net.encode(batch.src, batch.src_lengths)
        for t in range(batch.tgt_in.shape[1]):
            step, state = net.step(batch.tgt_in[:, t], state, t)
            torch.testing.assert_close(step, full[:, t], atol=1e-5, rtol=1e-5)


def test_beam_returns_its_best_scoring_hypothesis(reversal_pairs):
    net = _untrained("transformer-tiny")
    sources = reversal_pairs(8, 5).src
    for hyp, src in zip(
        decoding.translate(net, sources, [6] * 8, "beam", beam=4), sources, strict=True
    ):
        batch = batching.collate(batching.Pairs([src], [hyp.tokens]), [0])
        with torch.no_grad():
            logprobs = net(batch.src, batch.src_lengths, batch.tgt_in)
        gold = batch.tgt_out if not hyp.capped else batch.tgt_in[:, 1:]
        steps = logprobs[0, : gold.shape[1]].gather(1, gold[0][:, None]).sum()
        assert float(steps) == pytest.approx(hyp.score, abs=1e-4)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=12), st.integers(1, 40), st.floats(0, 5))
def test_length_caps(src_lengths, max_len, ratio):
    caps = decoding.length_caps(src_lengths, max_len, ratio)
    assert (caps >= 1).all() and (caps <= max_len).all()
    if ratio > 0:
        assert (caps <= np.maximum(1, np.ceil(ratio * np.array(src_lengths)))).all()


def test_outputs_respect_the_cap(reversal_pairs):
    net = _untrained("lstm-tiny")  # untrained: rarely stops by itself
    sources = reversal_pairs(10, 6).src
    caps = decoding.length_caps([len(s) for s in sources], 50, 1.5)
    for method in ("greedy", "beam"):
        for hyp, cap in zip(
            decoding.translate(net, sources, caps, method, beam=3), caps, strict=True
        ):
            assert len(hyp.tokens) <= cap
            assert hyp.capped == (len(hyp.tokens) == cap and EOS_ID not in hyp.tokens)


# ---------------------------------------------------------------------------- result files


def test_result_files_round_trip(tmp_path):
    import pandas as pd

    cfg = config.reduced_config("transformer-tiny", max_steps=5)
    predictions = pd.DataFrame(
        {
            "split": ["dev", "gen"],
            "row": [3, 7],
            "prediction": ["* cat ( x _ 1 ) ;", ""],
            "capped": [0, 1],
        }
    )
    saved = results.Result(cfg, {"accuracy": {"dev": 1.0}, "seed": 1}, predictions)
    folder = results.save_result(saved, tmp_path)
    assert folder.name == config.config_hash(cfg) and results.has_result(cfg, tmp_path)
    loaded = results.load_result(cfg, tmp_path)
    assert loaded.metrics == saved.metrics and loaded.config == cfg
    pd.testing.assert_frame_equal(loaded.predictions, predictions)
    first = (folder / "predictions.tsv.gz").read_bytes()
    results.save_result(saved, tmp_path)
    assert (folder / "predictions.tsv.gz").read_bytes() == first  # reproducible bytes
    with pytest.raises(FileNotFoundError, match="compsem.cogs.seq2seq.train"):
        results.load_result(config.reduced_config("transformer-tiny", max_steps=6), tmp_path)


@pytest.mark.needs_data
def test_training_sets():
    one, hundred = experiment.training_frame(1), experiment.training_frame(100)
    assert len(one) == 24_155 and len(hundred) == 25_640
    assert (hundred.case.str.startswith("exposure_example")).sum() == 1_200
    assert (hundred.source == "shark").sum() == 100


@pytest.mark.needs_data
@pytest.mark.slow  # end to end on the real COGS data: train_100, dev loss on all 3,000 dev pairs
def test_train_and_decode_writes_results_and_rereads_them(tmp_path, monkeypatch):
    cfg = config.reduced_config("transformer-tiny", max_steps=4, per_case=2, per_split=10)
    cfg["training"]["valid_every"] = 2
    first = experiment.train_and_decode(
        cfg,
        device="cpu",
        progress=False,
        results_root=tmp_path / "r",
        checkpoint_root=tmp_path / "c",
    )
    assert len(first.predictions) == 10 + 10 + 42
    assert set(first.metrics["accuracy"]) == {"dev", "test", "gen"}
    assert len(first.metrics["gen_by_case"]) == 21 and first.metrics["steps"] == 4
    assert first.metrics["device"].startswith("cpu") and first.metrics["wall_seconds"] > 0
    assert first.metrics["decode_batch_size"] == decoding.BATCH_SIZE["cpu"]  # the device's default

    def no_training(*args, **kwargs):
        raise AssertionError("a configuration with results must not be trained again")

    monkeypatch.setattr(trainer, "train", no_training)
    again = experiment.train_and_decode(cfg, device="cpu", progress=False, results_root=tmp_path / "r")
    assert again.metrics == first.metrics


def test_a_deadline_reached_at_a_validation_stops_training_after_it(tmp_path, reversal_pairs,
                                                                    toy_config):
    """A validation due at the first update past the deadline is made (its best weights kept);
    between validations, see tests/test_cogs_budget.py."""
    import time

    cfg = toy_config("transformer-tiny", steps=200)
    cfg["training"]["valid_every"] = 1
    trained = trainer.train(
        cfg, reversal_pairs(100, 0), reversal_pairs(20, 1), 12, 12, tmp_path, device="cpu",
        progress=False, deadline=time.time() - 1,
    )
    assert trained.state.done and trained.state.stop_reason == "time limit"
    assert trained.state.step == 1 and len(trained.state.history) == 1
    assert trained.state.best_step == 1


def test_fused_batches_give_the_accumulated_update(tmp_path, reversal_pairs, toy_config):
    cfg = toy_config("transformer-tiny", steps=3)
    cfg["architecture"]["dropout"] = 0.0
    runs = [
        trainer.train(
            cfg, reversal_pairs(100, 0), reversal_pairs(20, 1), 12, 12, tmp_path / str(fuse),
            device="cpu", progress=False, fuse=fuse,
        )
        for fuse in (False, True)
    ]
    for (name, a), (_, b) in zip(
        runs[0].model.state_dict().items(), runs[1].model.state_dict().items(), strict=True
    ):
        if name.endswith("key.bias"):  # its gradient is 0 (softmax shift), Adam scales rounding
            continue
        torch.testing.assert_close(a, b, atol=1e-5, rtol=1e-4, msg=name)


@pytest.mark.needs_data
@pytest.mark.parametrize(
    "folder", sorted(p.name for p in results.results_root().glob("*/")), ids=str
)
def test_committed_results_agree_with_their_predictions(folder):
    """Each committed run's stored accuracies are what its stored predictions score now, and its
    folder name is the hash of its configuration (a regression in the evaluation, the loader or
    the hashing shows here)."""
    from compsem.data import cogs

    path = results.results_root() / folder
    stored = json.loads((path / "config.json").read_text())
    assert config.config_hash(stored) == folder
    result = results.load_result(stored)
    gold = {s: cogs.load(s) for s in ("dev", "test", "gen")}
    again = experiment.exact_match_accuracy(result.predictions, gold)
    assert again["accuracy"] == pytest.approx(result.metrics["accuracy"], abs=1e-12)
    assert again["gen_by_case"] == pytest.approx(result.metrics["gen_by_case"], abs=1e-12)
    assert result.metrics["stop_reason"] in ("early stopping", "max_steps", "time limit")
    assert {"device", "wall_seconds", "seed", "steps"} <= set(result.metrics)


def test_a_run_cut_by_a_deadline_goes_on_in_a_later_call(tmp_path, reversal_pairs, toy_config):
    import time

    cfg = toy_config("transformer-tiny", steps=30)
    train_pairs, dev = reversal_pairs(100, 0), reversal_pairs(20, 1)
    whole = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "a", device="cpu",
                           progress=False)
    cut = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu",
                         progress=False, deadline=time.time() - 1)
    assert cut.state.stop_reason == "time limit" and cut.state.step == 1  # the first update
    again = trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path / "b", device="cpu",
                           progress=False)
    assert again.state.done and again.state.stop_reason == "max_steps"
    assert [h["dev_loss"] for h in again.state.history] == [
        h["dev_loss"] for h in whole.state.history
    ]


def test_another_decoding_of_the_same_training_is_found(tmp_path):
    import pandas as pd

    beam = config.make_config("transformer-tiny", seed=3)
    greedy = config.make_config("transformer-tiny", seed=3, decoding={"method": "greedy"})
    frame = pd.DataFrame({"split": ["dev"], "row": [0], "prediction": ["x"], "capped": [0]})
    metrics = {"accuracy": {"dev": 0.0}, "gen_by_case": {}, "stop_reason": "early stopping"}
    results.save_result(results.Result(greedy, metrics, frame), tmp_path)
    assert results.find_config(beam, tmp_path) is None
    assert results.find_config(beam, tmp_path, any_decoding=True) == greedy
    other_seed = config.make_config("transformer-tiny", seed=4)
    assert results.find_config(other_seed, tmp_path, any_decoding=True) is None
    collected = results.collect([beam], tmp_path, any_decoding=True)
    assert set(collected.decoding) == {"greedy"} and set(collected.seed) == {3}
    sample = config.make_config("transformer-tiny", seed=3, decoding={"per_case": 5})
    results.save_result(results.Result(sample, metrics, frame), tmp_path)  # beam, on a sample
    assert results.find_config(beam, tmp_path, any_decoding=True) == greedy  # whole sets first
    assert len(results.decodings(beam, tmp_path)) == 2


def test_a_checkpoint_that_would_run_code_is_refused(tmp_path):
    import pickle

    from compsem.cogs.seq2seq.trainer import load_checkpoint

    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    crafted = tmp_path / "last.pt"
    with open(crafted, "wb") as handle:
        pickle.dump({"model": Payload()}, handle)
    with pytest.raises(RuntimeError, match="last.pt holds objects other than tensors"):
        load_checkpoint(crafted)
    assert not marker.exists()
    import torch

    plain = tmp_path / "ok.pt"
    torch.save({"model": {"w": torch.ones(2)}, "state": {"step": 3}}, plain)
    assert load_checkpoint(plain)["state"]["step"] == 3


# --- issue 21: corrupted checkpoints and result files never stick -------------------------------


def test_a_bit_flipped_checkpoint_is_refused(tmp_path, reversal_pairs, toy_config):
    cfg = toy_config("transformer-tiny", steps=30)
    train_pairs, dev = reversal_pairs(100, 0), reversal_pairs(16, 1)
    trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path, device="cpu", progress=False,
                   stop_after=15)
    checkpoints = [p for p in tmp_path.rglob("*.pt")]
    assert checkpoints and all(p.with_name(p.name + ".sha256").exists() for p in checkpoints)
    for checkpoint in checkpoints:
        data = bytearray(checkpoint.read_bytes())
        data[len(data) // 2] ^= 0x01  # one bit, inside the tensor data
        checkpoint.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match=r"is corrupted: sha256 .* delete .*\.pt"):
        trainer.train(cfg, train_pairs, dev, 12, 12, tmp_path, device="cpu", progress=False)


def test_a_truncated_result_counts_as_not_done(tmp_path):
    import pandas as pd

    cfg = config.reduced_config("transformer-tiny", max_steps=5)
    predictions = pd.DataFrame({"split": ["dev"] * 400, "row": range(400),
                                "prediction": [f"* cat ( x _ {i} ) ;" for i in range(400)],
                                "capped": [0] * 400})
    folder = results.save_result(results.Result(cfg, {"seed": 1}, predictions), tmp_path)
    assert not list(folder.glob(".*tmp")) and results.has_result(cfg, tmp_path)
    gz = folder / "predictions.tsv.gz"
    good = gz.read_bytes()
    gz.write_bytes(good[: len(good) // 2])  # an interrupted non-atomic write
    with pytest.warns(UserWarning, match="truncated or corrupted"):
        assert not results.has_result(cfg, tmp_path, partial=True)
    with pytest.warns(UserWarning):
        assert results.find_config(cfg, tmp_path) is None
    results.save_result(results.Result(cfg, {"seed": 1}, predictions), tmp_path)  # re-decoded
    assert results.has_result(cfg, tmp_path) and gz.read_bytes() == good
