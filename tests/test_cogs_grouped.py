"""compsem.cogs.seq2seq.grouped: seeds of one Transformer configuration trained as one batched
model. Each member must train as its own run would (batches, loss, clip, Adam, validations,
early stopping, checkpoints the trainer and the decoder read), and an interrupted group must
resume to the uninterrupted result."""

from __future__ import annotations

import pytest
import torch

from compsem.cogs.seq2seq import batching, config, grouped, trainer

pytestmark = pytest.mark.needs_data


def tiny(seed: int, dropout: float | None = None, model: str = "transformer-tiny", **training_overrides) -> dict:
    settings = dict(config.REDUCED_TRAINING, batch_size=16, max_steps=6, valid_every=2, warmup=4)
    settings.update(training_overrides)
    return config.make_config(model, seed=seed, training=settings,
                              architecture=None if dropout is None else {"dropout": dropout})


@pytest.fixture(scope="module")
def data():
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies
    from compsem.data import cogs

    src_vocab, tgt_vocab = cogs_vocabularies()
    train, dev = cogs.load("train").head(480), cogs.load("dev").head(64)
    encode = lambda f: batching.encode_pairs(f.source, f.target, src_vocab, tgt_vocab)  # noqa: E731
    return encode(train), encode(dev), len(src_vocab), len(tgt_vocab)


def run_group(configs, data, folders, **kwargs):
    """The members' TrainStates after :func:`trainer.train_group`."""
    train, dev, n_src, n_tgt = data
    return [result.state for result in trainer.train_group(configs, train, dev, n_src, n_tgt, folders,
                                                           device="cpu", amp=False, progress=False, **kwargs)]


@pytest.mark.parametrize("model, fuse", [("transformer-tiny", True), ("transformer-tiny", False),
                                         ("lstm-tiny", True), ("bilstm-tiny", False)])
def test_members_train_as_their_runs_would(data, tmp_path, model, fuse):
    """Dropout off: each member's dev losses at every validation are its run's (trained alone,
    batches fused as on a GPU) up to float32 rounding; a clip small enough to bind on every
    update checks that each member's gradient is clipped by its own norm; an update's batches
    fused into one pass (as on a GPU) or run one by one (``--no-fuse``), as the runs'."""
    train, dev, n_src, n_tgt = data
    configs = [tiny(s, dropout=0.0, model=model, clip=0.5, accum_count=2) for s in (1, 2)]
    alone = [trainer.train(c, train, dev, n_src, n_tgt, tmp_path / f"alone{c['seed']}", device="cpu", amp=False,
                            fuse=fuse, progress=False).state for c in configs]
    together = run_group(configs, data, [tmp_path / "g1", tmp_path / "g2"], fuse=fuse)
    for a, g in zip(alone, together, strict=True):
        assert [h["step"] for h in g.history] == [h["step"] for h in a.history] == [2, 4, 6]
        assert [h["dev_loss"] for h in g.history] == pytest.approx([h["dev_loss"] for h in a.history], rel=1e-5)
        assert g.group_seeds == [1, 2] and a.group_seeds == []
    assert together[0].history[-1]["dev_loss"] != together[1].history[-1]["dev_loss"]  # two seeds, two runs


def test_a_finished_member_is_read_back_by_the_trainer(data, tmp_path):
    train, dev, n_src, n_tgt = data
    configs = [tiny(1), tiny(2)]
    trained = trainer.train_group(configs, train, dev, n_src, n_tgt, [tmp_path / "a", tmp_path / "b"],
                                  device="cpu", amp=False, progress=False)
    reread = trainer.train(configs[1], train, dev, n_src, n_tgt, tmp_path / "b", device="cpu", progress=False)
    assert reread.state.done and reread.state.step == trained[1].state.step == 6
    assert reread.state.history == trained[1].state.history
    for folder, member in zip(("a", "b"), trained, strict=True):  # each member's own model, best weights
        best = trainer.load_checkpoint(tmp_path / folder / "best.pt")
        assert all(torch.equal(best[n], p) for n, p in member.model.state_dict().items() if n in best)
        assert not member.model.training
    best = trainer.load_checkpoint(tmp_path / "b" / "best.pt")
    assert all(torch.equal(best[n], p) for n, p in reread.model.state_dict().items() if n in best)


def test_an_interrupted_group_resumes_to_the_uninterrupted_result(data, tmp_path):
    """With dropout (its draws restored from the checkpoint) and Adam's state stacked back."""
    configs = [tiny(1), tiny(2)]
    whole = run_group(configs, data, [tmp_path / "w1", tmp_path / "w2"])
    cut = [tmp_path / "c1", tmp_path / "c2"]
    first = run_group(configs, data, cut, stop_after=3)
    assert not any(s.done for s in first)
    again = run_group(configs, data, cut)
    timeless = lambda history: [{k: v for k, v in h.items() if k != "train_seconds"} for h in history]  # noqa: E731
    for k in range(2):
        assert timeless(again[k].history) == timeless(whole[k].history)
        a = trainer.load_checkpoint(tmp_path / f"w{k + 1}" / "best.pt")
        b = trainer.load_checkpoint(cut[k] / "best.pt")
        assert all(torch.equal(a[n], b[n]) for n in a)


def test_an_early_stopped_member_is_frozen_while_the_others_train(data):
    train, *_ , n_src, n_tgt = data
    cfg = tiny(1)
    models = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        models.append(config.build_model(cfg, n_src, n_tgt))
    group = grouped.GroupModel(models)
    t = cfg["training"]
    optimizer = torch.optim.Adam(list(group.params.values()), lr=1e-3)
    before = {n: p.detach().clone() for n, p in group.params.items()}
    indices = batching.epoch_batches(train, 16, 1, 0)[:2]
    tensors = grouped.stacked_batch(train, indices, "cpu")
    for _ in range(2):  # the second step: Adam's momentum would move a member with no gradient
        trainer.group_update(group, optimizer, [tensors], [16, 16], [True, False], t, False, torch.device("cpu"))
    assert all(torch.equal(group.params[n][1], before[n][1]) for n in before)
    assert not all(torch.equal(group.params[n][0], before[n][0]) for n in before)


def test_which_configurations_train_as_a_group():
    transformers = [config.make_config("transformer", seed=s) for s in (1, 2)]
    lstms = [config.make_config("lstm", seed=s) for s in (1, 2)]
    other = config.make_config("transformer", seed=3, exposures=100)
    assert grouped.groupable([transformers[0], lstms[0], other, transformers[1], lstms[1]]) == [
        transformers, lstms, [other]]
    with pytest.raises(ValueError, match="differ only in their seed"):
        grouped.check_group([transformers[0], other])
    with pytest.raises(ValueError, match="seeds must differ"):
        grouped.check_group([transformers[0], transformers[0]])


def test_the_command_groups_the_transformer_seeds_and_decodes_each_run(tmp_path, capsys):
    """``train --group``: the Transformer's seeds train as one model, the LSTM's as another; every
    run is decoded into its own result folder, naming the seeds it trained with."""
    import json

    from compsem.cogs.seq2seq import train

    code = train.main(["--model", "transformer-tiny", "lstm-tiny", "--reduced", "--max-steps", "4",
                       "--seed", "1", "2", "--group", "--results", str(tmp_path / "results"),
                       "--checkpoints", str(tmp_path / "checkpoints"), "--per-case", "1", "--per-split", "4",
                       "--device", "cpu", "--quiet"])
    assert code == 0
    metrics = [json.loads(f.read_text()) for f in sorted((tmp_path / "results").glob("*/metrics.json"))]
    seen = sorted((m["model"], m["seed"], tuple(m.get("trained_with_seeds", ()))) for m in metrics)
    assert seen == [("lstm-tiny", 1, (1, 2)), ("lstm-tiny", 2, (1, 2)),
                    ("transformer-tiny", 1, (1, 2)), ("transformer-tiny", 2, (1, 2))]
    assert all(m["steps"] == 4 for m in metrics)
    assert capsys.readouterr().out.count("4 updates (max_steps)") == 4


def test_both_stages_of_the_auxiliary_runs_train_as_groups(tmp_path, capsys):
    """``auxiliary_train --group``: per objective, the seeds' auxiliary stage as one model, then
    their COGS stage as one model from each seed's own auxiliary weights; each run decoded."""
    import json

    from compsem.cogs.seq2seq import auxiliary_train, trainer

    code = auxiliary_train.main(["--reduced", "--objective", "none", "gloss", "--seed", "1", "2",
                                 "--max-steps", "4", "--aux-max-steps", "4", "--group",
                                 "--results", str(tmp_path / "results"), "--checkpoints", str(tmp_path / "ck"),
                                 "--per-case", "1", "--per-split", "4", "--device", "cpu", "--quiet"])
    assert code == 0
    metrics = [json.loads(f.read_text()) for f in sorted((tmp_path / "results").glob("*/metrics.json"))]
    seen = sorted((m["objective"], m["seed"], m["aux_steps"], m["steps"], tuple(m["trained_with_seeds"]))
                  for m in metrics)
    assert seen == [("gloss", 1, 4, 4, (1, 2)), ("gloss", 2, 4, 4, (1, 2)),
                    ("none", 1, 0, 4, (1, 2)), ("none", 2, 0, 4, (1, 2))]
    aux = sorted((tmp_path / "ck" / "auxiliary").glob("*/best.pt"))
    assert len(aux) == 2  # one auxiliary model per seed, and they differ
    first, second = (trainer.load_checkpoint(f) for f in aux)
    assert not torch.equal(first["generator.weight"], second["generator.weight"])


def test_each_member_starts_from_its_own_initial_weights(data, tmp_path):
    """``init_weights`` per member (the COGS stage after each seed's auxiliary model): after two
    small updates each member is still next to its own initial weights, not its sibling's."""
    *_, n_src, n_tgt = data
    inits = []
    for seed in (7, 8):
        torch.manual_seed(seed)
        inits.append(config.build_model(tiny(1), n_src, n_tgt).state_dict())
    folders = [tmp_path / "m1", tmp_path / "m2"]
    run_group([tiny(1, lr=1e-3), tiny(2, lr=1e-3)], data, folders, init_weights=inits, stop_after=2)
    for k, folder in enumerate(folders):
        weights = trainer.load_checkpoint(folder / "last.pt")["model"]["generator.weight"]
        own, other = (float((weights - inits[j]["generator.weight"]).norm()) for j in (k, 1 - k))
        assert own < 0.1 * other


def test_a_member_that_stops_early_leaves_the_others_as_their_runs(data, tmp_path, monkeypatch):
    """Seed 1 stops at its first validation (as if early-stopped); seed 2 trains on to the end
    and its validations are still its run's alone (dropout off)."""
    train, dev, n_src, n_tgt = data
    configs = [tiny(s, dropout=0.0, max_steps=8) for s in (1, 2)]
    alone = trainer.train(configs[1], train, dev, n_src, n_tgt, tmp_path / "alone", device="cpu", amp=False,
                           fuse=False, progress=False).state
    real = trainer.validate

    def stop_seed_1(model, cfg, folder, state, *args):
        outcome = real(model, cfg, folder, state, *args)
        if cfg["seed"] == 1:
            state.done, state.stop_reason = True, "early stopping"
        return outcome

    monkeypatch.setattr(trainer, "validate", stop_seed_1)
    first, second = run_group(configs, data, [tmp_path / "g1", tmp_path / "g2"])
    assert first.step == 2 and first.stop_reason == "early stopping"
    assert second.step == 8 and [h["step"] for h in second.history] == [2, 4, 6, 8]
    assert [h["dev_loss"] for h in second.history] == pytest.approx([h["dev_loss"] for h in alone.history],
                                                                      rel=1e-5)


def _pretrained(data, tmp_path, seed, updates):
    """A member's weights and Adam state after ``updates`` updates (an auxiliary stage stand-in)."""
    train, dev, n_src, n_tgt = data
    folder = tmp_path / f"pre{seed}"
    trainer.train(tiny(seed, dropout=0.0), train, dev, n_src, n_tgt, folder, device="cpu", amp=False,
                   fuse=True, progress=False, stop_after=updates)
    saved = trainer.load_checkpoint(folder / "last.pt")
    return saved["model"], {"optimizer": saved["optimizer"], "step": saved["state"]["step"]}


def test_members_continue_their_own_optimiser_as_their_runs_would(data, tmp_path):
    """``init_optimizer`` (OpenNMT-py's ``-train_from``): each member goes on from its own Adam
    state and the shared update count, validating on the protocol's schedule, as its run would."""
    train, dev, n_src, n_tgt = data
    starts = [_pretrained(data, tmp_path, seed, 2) for seed in (1, 2)]
    configs = [tiny(s, dropout=0.0, max_steps=8) for s in (1, 2)]
    alone = [trainer.train(c, train, dev, n_src, n_tgt, tmp_path / f"alone{c['seed']}", device="cpu",
                            amp=False, fuse=True, progress=False, init_weights=w, init_optimizer=o).state
             for c, (w, o) in zip(configs, starts, strict=True)]
    together = run_group(configs, data, [tmp_path / "g1", tmp_path / "g2"], fuse=True,
                         init_weights=[w for w, _ in starts], init_optimizer=[o for _, o in starts])
    for a, g in zip(alone, together, strict=True):
        assert a.start_step == g.start_step == 2
        assert [h["step"] for h in g.history] == [h["step"] for h in a.history] == [4, 6, 8]
        assert [h["dev_loss"] for h in g.history] == pytest.approx([h["dev_loss"] for h in a.history], rel=1e-5)
    adam = trainer.load_checkpoint(tmp_path / "g1" / "last.pt")["optimizer"]["state"]
    assert {int(v["step"]) for v in adam.values()} == {8}  # Adam's own count went on from 2


def test_members_that_continue_from_different_updates_are_refused(data, tmp_path):
    from compsem.cogs.seq2seq import two_stage

    starts = [_pretrained(data, tmp_path, 1, 2), _pretrained(data, tmp_path, 2, 4)]
    with pytest.raises(ValueError, match=r"continue from different updates \(\[2, 4\]\)"):
        run_group([tiny(1, max_steps=8), tiny(2, max_steps=8)], data, [tmp_path / "a", tmp_path / "b"],
                  init_weights=[w for w, _ in starts], init_optimizer=[o for _, o in starts])
    # the two-stage trainer groups members by the update they continue from
    assert two_stage._same_start(4, [{"step": 6}, {"step": 4}, {"step": 6}, {"step": 5}]) == [[1], [3], [0, 2]]
    assert two_stage._same_start(3, None) == [[0, 1, 2]]


@pytest.mark.parametrize("model", ["transformer-tiny", "lstm-tiny"])
def test_a_group_of_one_is_a_run(data, tmp_path, model):
    """One training loop: a group of one trains as trainer.train does, to the bit (weights,
    Adam state, history), with dropout on, and is not marked as grouped."""
    train, dev, n_src, n_tgt = data
    cfg = tiny(3, model=model, clip=0.5, accum_count=2)
    alone = trainer.train(cfg, train, dev, n_src, n_tgt, tmp_path / "alone", device="cpu", amp=False,
                          progress=False)
    (state,) = run_group([cfg], data, [tmp_path / "one"])
    timeless = lambda history: [{k: v for k, v in h.items() if k != "train_seconds"} for h in history]  # noqa: E731
    assert state.group_seeds == [] and timeless(state.history) == timeless(alone.state.history)
    for name in ("best.pt", "last.pt"):
        a, b = (trainer.load_checkpoint(tmp_path / folder / name) for folder in ("alone", "one"))
        if name == "last.pt":
            assert all(torch.equal(a["model"][n], b["model"][n]) for n in a["model"])
            adam_a, adam_b = a["optimizer"]["state"], b["optimizer"]["state"]
            assert all(torch.equal(adam_a[i][s], adam_b[i][s]) for i in adam_a for s in adam_a[i])
        else:
            assert all(torch.equal(a[n], b[n]) for n in a)
