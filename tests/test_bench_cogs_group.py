"""benchmarks/bench_cogs_group.py: K seeds of a COGS model as one vmapped model
(compsem.cogs.seq2seq.grouped). Before its timings mean anything, the group update must be each
member's own update (per-member loss and gradient-norm clip), up to rounding, and its check
must be able to fail."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
bench = runpy.run_path(str(ROOT / "benchmarks" / "bench_cogs_group.py"), run_name="bench_cogs_group")


@pytest.fixture(scope="module")
def pairs():
    from compsem.cogs.seq2seq import batching
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies
    from compsem.data import cogs

    src_vocab, tgt_vocab = cogs_vocabularies()
    train = cogs.load("train")
    return batching.encode_pairs(train.source, train.target, src_vocab, tgt_vocab), len(src_vocab), len(tgt_vocab)


@pytest.mark.needs_data
@pytest.mark.parametrize("shared_order", [False, True])
def test_a_group_update_is_each_members_own_update(pairs, shared_order):
    """Members padded to one shape (own order) or not (shared order) get their runs' clipped
    gradients to float32 rounding (1e-7 relative here; 1e-5 allows other kernels)."""
    from compsem.cogs.seq2seq import config

    train_pairs, src_size, tgt_size = pairs
    cfg = config.make_config("transformer-reduced")
    cfg["training"]["clip"] = 1e-3  # small enough that every member's gradient is clipped
    gap = bench["same_training_gap"](cfg, train_pairs, [1, 2], src_size, tgt_size, torch.device("cpu"),
                                     shared_order)
    assert gap < 1e-5


@pytest.mark.needs_data
def test_the_gap_would_show_a_member_trained_on_another_batch(pairs, monkeypatch):
    """The check can fail: give the group the second member's batch for both, and the first
    member's gradient is far from its run's."""
    from compsem.cogs.seq2seq import config, grouped

    train_pairs, src_size, tgt_size = pairs
    real = grouped.stacked_batch

    def swapped(p, indices, device):  # the runs read their own batches; the group does not
        return real(p, [indices[1], indices[1]], device)

    monkeypatch.setattr(grouped, "stacked_batch", swapped)
    gap = bench["same_training_gap"](config.make_config("transformer-reduced"), train_pairs, [1, 2],
                                     src_size, tgt_size, torch.device("cpu"), False)
    assert gap > 0.1
