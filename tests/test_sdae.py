"""The SDAE encoder trained here (compsem.models.sdae): noise, reproducible training, the weight
cache, order sensitivity and the registry hook. A tiny config on a synthetic corpus over random
word vectors: no data mirror and no GloVe needed (except the corpus test, marked needs_data)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from compsem import fitcache
from compsem.models import available, get_encoder, sdae
from compsem.models.registry import DESCRIPTIONS

pytestmark = pytest.mark.usefixtures("cache_dir")  # every test on an empty cache of its own

ADJ = ["red", "big", "old", "small"]
NOUN = ["cat", "dog", "man", "woman", "bird"]
VERB = ["saw", "chased", "liked", "helped"]


class FakeVectors:
    """A tiny word-vector table with the GloveVectors interface (matrix, index, vocab, dim)."""

    dim = 8

    def __init__(self, seed: int = 0):
        words = sorted({"the", "a", *ADJ, *NOUN, *VERB})
        self.vocab = words
        self.index = {w: i for i, w in enumerate(words)}
        self.matrix = np.random.default_rng(seed).standard_normal((len(words), self.dim)).astype(
            np.float32)

    def vector(self, word):
        row = self.index.get(word)
        return None if row is None else self.matrix[row].copy()


def tiny_corpus() -> list[str]:
    sentences = [f"the {a} {n} {v} a {m}" for a, n, v, m in itertools.product(ADJ, NOUN, VERB, NOUN)
                 if n != m]
    return sorted(sentences)[::2]  # 160 sentences


TINY = dict(hidden=16, vocab_size=30, proj=8, epochs=1, batch_size=32, threads=1, seed=3)


def tiny_encoder(**options):
    return sdae.sdae_encoder(device="cpu", progress=False, sentences=tiny_corpus(),
                             word_vectors=FakeVectors(), **{**TINY, **options})


# --------------------------------------------------------------------------- noise


def test_noise_with_zero_probabilities_is_identity():
    rng = np.random.default_rng(0)
    tokens = list("abcdefg")
    assert sdae.noise(tokens, rng, 0.0, 0.0) == tokens
    assert sdae.noise([], rng, 0.5, 0.5) == []


def test_noise_never_empties_a_sentence():
    rng = np.random.default_rng(1)
    for n in (1, 2, 5):
        for _ in range(50):
            out = sdae.noise(list(range(n)), rng, p_delete=0.99, p_swap=0.5)
            assert 1 <= len(out) <= n and set(out) <= set(range(n))


def test_noise_swaps_keep_the_multiset_and_only_swap_disjoint_bigrams():
    rng = np.random.default_rng(2)
    tokens = ["a", "b", "a", "c", "d", "e", "f"]
    changed = 0
    for _ in range(200):
        out = sdae.noise(tokens, rng, p_delete=0.0, p_swap=0.5)
        assert sorted(out) == sorted(tokens)
        for i in range(0, len(tokens) - 1, 2):  # each pair (0,1), (2,3), ... kept or swapped
            assert out[i:i + 2] in (tokens[i:i + 2], tokens[i:i + 2][::-1])
        assert out[-1] == tokens[-1]  # the odd last token has no bigram partner
        changed += out != tokens
    assert 0 < changed < 200


def test_noise_deletion_keeps_a_subsequence_at_about_p_delete():
    rng = np.random.default_rng(3)
    tokens = list(range(20))
    kept = 0
    for _ in range(500):
        out = sdae.noise(tokens, rng, p_delete=0.1, p_swap=0.0)
        assert out == sorted(out) and set(out) <= set(tokens)
        kept += len(out)
    assert abs(1 - kept / (500 * 20) - 0.1) < 0.02


def test_noise_is_a_function_of_the_generator():
    a = sdae.noise(list(range(30)), np.random.default_rng(7), 0.2, 0.3)
    b = sdae.noise(list(range(30)), np.random.default_rng(7), 0.2, 0.3)
    assert a == b


# --------------------------------------------------------------------------- training


def test_training_twice_gives_bit_identical_weights():
    import torch

    config = sdae.SDAEConfig(**TINY)
    first = sdae.train(config, tiny_corpus(), FakeVectors(), progress=False)
    second = sdae.train(config, tiny_corpus(), FakeVectors(), progress=False)
    assert first["state_dict"].keys() == second["state_dict"].keys()
    for key, value in first["state_dict"].items():
        assert torch.equal(value, second["state_dict"][key]), key
    assert first["losses"] == second["losses"] and np.isfinite(first["losses"]).all()
    other = sdae.train(sdae.SDAEConfig(**{**TINY, "seed": 4}), tiny_corpus(), FakeVectors(),
                       progress=False)
    assert not torch.equal(first["state_dict"]["out.weight"], other["state_dict"]["out.weight"])


def test_training_lowers_the_loss():
    config = sdae.SDAEConfig(**{**TINY, "epochs": 4, "lr": 0.02})
    result = sdae.train(config, tiny_corpus(), FakeVectors(), progress=False)
    assert result["losses"][-1] < result["first_loss"] - 0.5
    assert result["steps"] == 4 * 5 and result["corpus_size"] == 160
    capped = sdae.train(sdae.SDAEConfig(**{**TINY, "epochs": 4, "max_steps": 7}), tiny_corpus(),
                        FakeVectors(), progress=False)
    assert capped["steps"] == 7 and len(capped["losses"]) == 2


def test_config_is_validated_and_hashed_by_every_field():
    with pytest.raises(ValueError, match="cell"):
        sdae.SDAEConfig(cell="rnn")
    with pytest.raises(ValueError, match="p_delete"):
        sdae.SDAEConfig(p_delete=1.0)
    with pytest.raises(ValueError, match="unknown SDAE option"):
        sdae.sdae_encoder(hiden=3)
    with pytest.raises(ValueError, match="profile"):
        sdae.sdae_encoder(profile="huge")
    names = {tiny_encoder(**change).name
             for change in ({}, {"seed": 4}, {"p_swap": 0.2}, {"epochs": 2})}
    assert len(names) == 4
    # a thread count other than one is keyed apart: a small model's last bits change with it
    assert tiny_encoder(threads=1).name != tiny_encoder(threads=2).name
    with pytest.raises(ValueError, match="threads must be >= 0"):
        sdae.SDAEConfig(threads=-1)


def test_weights_are_keyed_by_a_thread_count_other_than_one():
    """threads=0 (the default) takes the process's thread count: one thread reads the model
    trained on one; two threads train their own (their last bits may differ), never reading
    the one-thread weights."""
    import torch

    assert sdae.SDAEConfig().threads == 0
    first = tiny_encoder(threads=1).ensure_trained()
    assert first.trained_now
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        assert tiny_encoder(threads=0).name == first.name
        assert not tiny_encoder(threads=0).ensure_trained().trained_now
    finally:
        torch.set_num_threads(before)
    two = tiny_encoder(threads=2).ensure_trained()
    assert two.trained_now and two.name != first.name
    assert not list(first.path.parent.glob("*.bad"))


# --------------------------------------------------------------------------- encoder and cache


def test_registry_returns_the_encoder_with_the_hash_in_its_name():
    assert "sdae" in available() and "trained here" in DESCRIPTIONS["sdae"]
    enc = get_encoder("sdae", device="cpu", progress=False, sentences=tiny_corpus(),
                      word_vectors=FakeVectors(), **TINY)
    assert isinstance(enc, sdae.SDAEEncoder) and enc.dim == 16
    assert enc.name == f"sdae-{enc.key()[:12]}"
    again = get_encoder("sdae", device="cpu", progress=False, sentences=tiny_corpus()[::-1],
                        word_vectors=FakeVectors(), **TINY)
    assert again.name == enc.name  # the corpus is a set: order does not matter
    moved = get_encoder("sdae", device="cpu", progress=False, sentences=tiny_corpus()[1:],
                        word_vectors=FakeVectors(), **TINY)
    assert moved.name != enc.name  # another corpus, another model
    other_vectors = get_encoder("sdae", device="cpu", sentences=tiny_corpus(),
                                word_vectors=FakeVectors(seed=1), **TINY)
    assert other_vectors.name != enc.name


def test_cache_round_trip_does_not_train_again():
    texts = ["the red cat saw a dog", "a dog chased the old man", "the bird"]
    first = tiny_encoder()
    X = first.encode(texts)
    assert first.trained_now and first.path.is_file()
    assert first.path == fitcache.entry_path("sdae", first.key())
    assert first.name == f"sdae-{first.key()[:12]}"
    stamp = first.path.stat().st_mtime_ns
    second = tiny_encoder()
    Y = second.encode(texts)
    assert not second.trained_now and second.path.stat().st_mtime_ns == stamp
    np.testing.assert_array_equal(X, Y)
    assert second.checkpoint["losses"] == first.checkpoint["losses"]


@pytest.mark.parametrize("damage", ["garbage", "truncated", "other config"])
def test_a_damaged_cache_file_is_never_used(damage):
    good = tiny_encoder()
    X = good.encode(["the red cat saw a dog"])
    data = good.path.read_bytes()
    if damage == "garbage":
        good.path.write_bytes(b"not an npz file")
    elif damage == "truncated":
        good.path.write_bytes(data[: len(data) // 2])
    else:
        arrays, meta = fitcache.load("sdae", good.key(), ())
        meta["config"] = sdae.SDAEConfig(**{**TINY, "seed": 99}).to_json()
        fitcache.store("sdae", good.key(), arrays, meta)
    fresh = tiny_encoder()
    with pytest.warns(UserWarning, match=r"(?s)cannot be used .*set aside"):
        Y = fresh.encode(["the red cat saw a dog"])
    assert fresh.trained_now
    assert fresh.path.with_name(fresh.path.name + ".bad").is_file()
    np.testing.assert_array_equal(X, Y)  # retrained to the same bits


def test_encoder_is_order_sensitive_unlike_a_mean_of_word_vectors():
    enc = tiny_encoder()
    X = enc.encode(["the red cat saw a dog", "the red dog saw a cat", "red the cat saw a dog"])
    assert X.shape == (3, 16) and X.dtype == np.float32
    assert np.abs(X[0] - X[1]).max() > 1e-4 and np.abs(X[0] - X[2]).max() > 1e-4
    wv = FakeVectors()
    mean = [np.mean([wv.vector(w) for w in s.split()], axis=0)
            for s in ("the red cat saw a dog", "the red dog saw a cat")]
    np.testing.assert_allclose(mean[0], mean[1], atol=1e-6)


def test_encode_is_deterministic_and_rows_follow_input_order():
    enc = tiny_encoder()
    texts = ["the red cat saw a dog", "a dog", "the old woman helped a small bird today",
             "", "zzqx unknown words", "the red cat saw a dog"]
    X = enc.encode(texts)
    np.testing.assert_array_equal(X, enc.encode(texts))
    np.testing.assert_array_equal(X[0], X[5])
    Y = enc.encode(texts[::-1], batch_size=2)
    np.testing.assert_array_equal(Y[::-1], X)  # on the CPU: the same bits whatever the batch
    singles = np.vstack([enc.encode([t]) for t in texts])
    np.testing.assert_array_equal(singles, X)
    assert enc.encode([]).shape == (0, 16)
    with pytest.raises(TypeError):
        enc.encode("a bare string")


@pytest.mark.needs_data
def test_corpus_is_the_similarity_sentences_without_the_probing_ones():
    from compsem.data.probing import load_task

    sentences = sdae.corpus()
    assert sentences == sorted(set(sentences)) and len(sentences) > 30_000
    assert all(s == s.strip() and s for s in sentences)
    probing = set(load_task("order")["sentence"])
    assert not probing & set(sentences)
