"""compsem.probing.item_frames: the one sampling loop of the 2016 builders, group splits."""

from __future__ import annotations

import numpy as np
import pytest

from compsem.probing.item_frames import as_rng, sample_groups, split_groups


def _draws(texts):
    """A make_group that returns groups of the given sentences in turn (None = a rejection),
    recording the group ids it was called with."""
    calls = []
    stream = iter(texts)

    def make(group):
        calls.append(group)
        sentences = next(stream)
        if sentences is None:
            return None
        return [dict(sentence=s, label=i % 2, group=group) for i, s in enumerate(sentences)]

    return make, calls


def test_sample_groups_drops_rejections_and_repeated_sentences():
    make, calls = _draws([["a", "b"], None, ["c", "a"], ["d", "e"], ["f", "g"]])
    groups = sample_groups(make, n_items=4, max_tries=10)
    assert [[r["sentence"] for r in g] for g in groups] == [["a", "b"], ["d", "e"]]
    # stops as soon as the groups hold n_items items; a rejected draw keeps its group id free
    assert calls == [0, 1, 1, 1]
    assert [g[0]["group"] for g in groups] == [0, 1]


def test_sample_groups_respects_max_tries_seen_and_first_group():
    seen = {"x"}
    make, calls = _draws([["x"], ["y"], ["z"], ["w"]])
    groups = sample_groups(make, n_items=10, max_tries=3, seen=seen, first_group=5)
    assert [g[0]["sentence"] for g in groups] == ["y", "z"]  # "x" was seen before
    assert calls == [5, 5, 6]
    assert seen == {"x", "y", "z"}


def test_sample_groups_draws_nothing_itself():
    # the helper draws no random numbers: a generator used only by make_group ends in the same
    # state as one driving the same calls by hand
    rng, ref = np.random.default_rng(3), np.random.default_rng(3)

    def make(group):
        return [dict(sentence=str(rng.integers(5)), label=0, group=group)]

    groups = sample_groups(make, n_items=3, max_tries=50)
    drawn = []
    while len(set(drawn)) < 3:
        drawn.append(str(ref.integers(5)))
    assert [g[0]["sentence"] for g in groups] == list(dict.fromkeys(drawn))
    assert rng.integers(1 << 30) == ref.integers(1 << 30)


def test_split_groups_balances_and_keeps_groups_whole():
    groups = [[dict(sentence=f"{g}{k}", label=k, group=g) for k in (0, 1)] for g in range(10)]
    train, test = split_groups(groups, 8, 4, as_rng(0))
    for side, n in ((train, 8), (test, 4)):
        assert len(side) == n and sum(r["label"] for r in side) == n // 2
    assert not {r["group"] for r in train} & {r["group"] for r in test}
    with pytest.raises(ValueError, match="could not fill the train split"):
        split_groups(groups, 30, 4, as_rng(0))
