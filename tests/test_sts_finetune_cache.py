"""compsem.sts.finetune: evaluate_split results cached by configuration (compsem.fitcache)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem.sts import finetune as F

pytestmark = pytest.mark.usefixtures("cache_dir", "hf_offline")  # an empty cache, no network


def _pairs(n: int = 16) -> pd.DataFrame:
    subj = ["The dog", "A child", "The teacher", "My neighbour"]
    verb = ["chased", "painted", "visited", "ignored"]
    obj = ["the cat", "a fence", "the museum", "the letter"]
    rows = [(f"{subj[i % 4]} {verb[(i // 4) % 4]} {obj[(i + 1) % 4]}.",
             f"{subj[(i + 1) % 4]} {verb[(i // 4) % 4]} {obj[i % 4]}.", (i % 5) / 4, ["non", "adv"][i % 2])
            for i in range(n)]
    return pd.DataFrame(rows, columns=["sentence_a", "sentence_b", "human", "portion"], index=range(100, 100 + n))


TINY = dict(epochs=1, batch_size=8, seed=0, device="cpu", dev_fraction=0.25)
TRAIN, TEST = np.arange(0, 10), np.arange(10, 16)


def _entries(root):
    return sorted(root.glob("fits/*/sts-finetune/*.npz"))


def _assert_same(warm: dict, cold: dict) -> None:
    assert list(warm) == list(cold)  # same keys in the same order (the chapter tabulates them)
    pd.testing.assert_frame_equal(warm["predictions"], cold["predictions"])
    assert {k: v for k, v in warm.items() if k != "predictions"} == {
        k: v for k, v in cold.items() if k != "predictions"}


def test_second_run_comes_from_the_cache_with_identical_numbers(minilm_dir, cache_dir, monkeypatch):
    pairs = _pairs()
    cold = F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, **TINY)
    assert len(_entries(cache_dir)) == 1

    def no_training(*args, **kwargs):
        raise AssertionError("fine-tuned again although the result is cached")

    monkeypatch.setattr(F, "_evaluate_split", no_training)
    warm = F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, **TINY)
    _assert_same(warm, cold)
    with pytest.raises(AssertionError, match="fine-tuned again"):  # another seed is another result
        F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, **(TINY | {"seed": 1}))
    with pytest.raises(AssertionError, match="fine-tuned again"):  # other ratings too
        F.evaluate_split(minilm_dir, pairs.assign(human=pairs.human[::-1].to_numpy()), TRAIN, TEST, **TINY)


def test_corrupt_entry_is_recomputed(minilm_dir, cache_dir, monkeypatch):
    pairs = _pairs()
    cold = F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, **TINY)
    (entry,) = _entries(cache_dir)
    entry.write_bytes(b"not a zip file")
    calls = []
    run = F._evaluate_split
    monkeypatch.setattr(F, "_evaluate_split", lambda *a, **k: calls.append(1) or run(*a, **k))
    with pytest.warns(UserWarning, match=f"{entry.name}.*set aside"):
        again = F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, **TINY)
    assert calls == [1] and entry.with_name(entry.name + ".bad").exists()
    pd.testing.assert_frame_equal(again["predictions"], cold["predictions"])  # same seed, same numbers
    _assert_same(F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, **TINY), again)
    assert calls == [1]  # the rewritten entry is read


def test_cache_off_and_loaded_models_are_not_cached(minilm_dir, cache_dir):
    pairs = _pairs()
    F.evaluate_split(minilm_dir, pairs, TRAIN, TEST, cache=False, baseline=False, **TINY)
    F.evaluate_split(F.load_model(minilm_dir, device="cpu"), pairs, TRAIN, TEST, baseline=False, **TINY)
    assert _entries(cache_dir) == []
