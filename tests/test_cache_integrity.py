"""Integrity of the on-disk caches: embedding shards (compsem.models.cache), the derived
participant table (compsem.data.sts3k) and fits (compsem.fitcache, which holds the probe fits of
compsem.probing.evaluate too).

A damaged entry (unreadable, truncated, values changed, non-finite, another width, no digest) is
set aside under a quarantine name with a warning naming it and recomputed; a sound entry is read
back bit for bit; concurrent builders do not trip over one another.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from compsem import fitcache
from compsem.data import sts3k
from compsem.models import cache as cache_mod
from compsem.models import cached_encode

pytestmark = pytest.mark.usefixtures("cache_dir")  # every test: an empty cache of its own


def _set_aside(path) -> bool:
    """``path`` was moved to its quarantine name ``<path>.bad``."""
    return not path.exists() and path.with_name(path.name + ".bad").exists()


# --------------------------------------------------------------------------- case 5: embedding shards


class Encoder:
    """A fake encoder: deterministic vectors from the text's hash; records what it encoded."""

    def __init__(self, name: str = "fake", dim: int = 4):
        self.name, self.dim = name, dim
        self.calls: list[list[str]] = []

    def vec(self, text: str) -> np.ndarray:
        seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
        return np.random.default_rng(seed).normal(size=self.dim).astype(np.float32)

    def encode(self, texts, batch_size=64, show_progress=False):
        self.calls.append(list(texts))
        return np.stack([self.vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)


def _only_shard(encoder):
    (shard,) = cache_mod.cache_folder(encoder.name).glob("shard-*.npz")
    return shard


def _rewrite(shard, **fields):
    """Rewrite ``shard`` with some of its fields replaced (a well-formed zip: only the values lie)."""
    with np.load(shard, allow_pickle=False) as data:
        stored = {name: data[name] for name in data.files}
    stored.update(fields)
    with open(shard, "wb") as handle:
        np.savez(handle, **stored)
    cache_mod._read_shards.cache_clear()


def _expect_recomputed(encoder, texts, shard, reason: str):
    with pytest.warns(UserWarning, match=f"{shard.name}.*{reason}"):
        out = cached_encode(encoder, texts)
    np.testing.assert_array_equal(out, np.stack([encoder.vec(t) for t in texts]))
    assert encoder.calls[-1] == texts
    assert _set_aside(shard)
    calls = len(encoder.calls)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(cached_encode(encoder, texts), out)
    assert len(encoder.calls) == calls  # the recomputed vectors are cached again


def test_sound_shards_are_plain_arrays_with_a_digest_read_back_bit_for_bit():
    enc = Encoder()
    texts = ["a cat", "a dog", "a cat"]
    cold = cached_encode(enc, texts)
    with np.load(_only_shard(enc), allow_pickle=False) as data:
        assert sorted(data.files) == ["digest", "keys", "vectors"]
        assert data["vectors"].dtype == np.float32 and data["keys"].dtype == np.dtype("S64")
    cache_mod._read_shards.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warm = cached_encode(enc, texts)
    assert warm.tobytes() == cold.tobytes() == np.stack([enc.vec(t) for t in texts]).tobytes()
    assert enc.calls == [["a cat", "a dog"]]


def test_shard_holding_nan_vectors_is_set_aside_and_recomputed():
    enc = Encoder()
    cached_encode(enc, ["a", "b"])
    shard = _only_shard(enc)
    _rewrite(shard, vectors=np.full((2, 4), np.nan, dtype=np.float32))
    _expect_recomputed(enc, ["a", "b"], shard, "digest|non-finite")


def test_shard_holding_changed_values_is_set_aside_and_recomputed():
    enc = Encoder()
    cached_encode(enc, ["a", "b"])
    shard = _only_shard(enc)
    with np.load(shard, allow_pickle=False) as data:
        vectors = data["vectors"].copy()
    vectors[1, 2] += 0.5  # right shape, finite, wrong value
    _rewrite(shard, vectors=vectors)
    _expect_recomputed(enc, ["a", "b"], shard, "digest")


def test_shard_copied_from_another_encoders_cache_is_set_aside():
    one, two = Encoder("one"), Encoder("two")
    cached_encode(one, ["a", "b"])
    folder = cache_mod.cache_folder(two.name)
    copied = folder / _only_shard(one).name
    shutil.copyfile(_only_shard(one), copied)  # a sound shard, but of another encoder
    _expect_recomputed(two, ["a", "b"], copied, "digest")


def test_old_shard_without_a_digest_is_set_aside_as_unverified():
    enc = Encoder()
    folder = cache_mod.cache_folder(enc.name)
    old = folder / "shard-1-00000000.npz"
    keys = np.array([cache_mod.text_key(t) for t in ["a", "b"]], dtype="S64")
    with open(old, "wb") as handle:  # the format before digests: keys and vectors only
        np.savez(handle, keys=keys, vectors=np.stack([enc.vec("a"), enc.vec("b")]))
    _expect_recomputed(enc, ["a", "b"], old, "no digest")


def test_encoder_of_another_width_sets_the_old_shards_aside_instead_of_failing():
    cached_encode(Encoder(dim=3), ["a", "b"])
    shard = _only_shard(Encoder())
    wider = Encoder(dim=4)  # the same name now gives 4-d vectors
    with pytest.warns(UserWarning, match=f"{shard.name}.*3-d"):
        out = cached_encode(wider, ["a", "c"])
    np.testing.assert_array_equal(out, np.stack([wider.vec("a"), wider.vec("c")]))
    assert _set_aside(shard)
    np.testing.assert_array_equal(cached_encode(wider, ["c", "a"]), out[::-1])
    assert len(wider.calls) == 2  # "c", then "a" (its 3-d vector was set aside); then cached


def test_shard_of_another_width_on_disk_does_not_block_the_encoder():
    enc = Encoder(dim=4)
    narrow = Encoder(dim=3)
    folder = cache_mod.cache_folder(enc.name)
    cached_encode(narrow, ["a"])  # an older, sound shard of another width
    (old,) = folder.glob("shard-*.npz")
    keys = np.array([cache_mod.text_key("b")], dtype="S64")
    cache_mod._write_shard(folder, keys, enc.vec("b")[None])  # the newest shard: 4-d
    cache_mod._read_shards.cache_clear()
    with pytest.warns(UserWarning, match=f"{old.name}.*3-d"):
        out = cached_encode(enc, ["a", "b"])
    np.testing.assert_array_equal(out, np.stack([enc.vec("a"), enc.vec("b")]))
    assert enc.calls == [["a"]]
    assert _set_aside(old)


def test_encoder_giving_non_finite_vectors_is_refused_not_cached():
    class Broken(Encoder):
        def vec(self, text):
            out = super().vec(text)
            out[0] = np.nan if text == "b" else out[0]
            return out

    enc = Broken()
    with pytest.raises(RuntimeError, match="non-finite.*1 of 2"):
        cached_encode(enc, ["a", "b"])
    assert not list(cache_mod.cache_folder(enc.name).glob("shard-*"))


# --------------------------------------------------------------------------- case 6: participant table


def _fake_xlsx() -> pd.DataFrame:
    """A frame shaped like the participant xlsx (read_excel gives int participant columns)."""
    rng = np.random.default_rng(3)
    ratings = rng.integers(1, 8, size=(sts3k.N_PAIRS, sts3k.N_PARTICIPANTS)).astype(float)
    ratings[rng.random(ratings.shape) < 0.9] = np.nan
    table = pd.DataFrame(ratings, columns=range(1, sts3k.N_PARTICIPANTS + 1))
    table.insert(0, "Main ID", np.arange(sts3k.N_PAIRS) + 1)
    table.insert(1, "Adversarial", np.where(np.arange(sts3k.N_PAIRS) % 3, "ADV", "NON"))
    table.insert(2, "Sentence pair", [f"A cat {i}.\nA dog {i}." for i in range(sts3k.N_PAIRS)])
    table["Mean"] = np.nanmean(ratings, axis=1)
    table["Std"] = np.nanstd(ratings, axis=1)
    return table


@pytest.fixture
def fake_xlsx(monkeypatch, tmp_path):
    """The participant table built from :func:`_fake_xlsx` (no data needed): the list of reads."""
    reads = []

    def read_excel(file):
        reads.append(file)
        return _fake_xlsx()

    monkeypatch.setattr(sts3k, "fetch", lambda path: tmp_path / "participants.xlsx")
    monkeypatch.setattr(pd, "read_excel", read_excel)
    sts3k._participant_table.cache_clear()
    yield reads
    sts3k._participant_table.cache_clear()


def _table_file(cache_dir):
    (table,) = (cache_dir / "tables").glob("sts3k-participants-*.parquet")
    return table


def _load_again() -> pd.DataFrame:
    sts3k._participant_table.cache_clear()
    return sts3k._participant_table()


def test_participant_table_is_built_once_and_read_back(fake_xlsx, cache_dir):
    cold = sts3k._participant_table()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warm = _load_again()
    pd.testing.assert_frame_equal(warm, cold)
    assert len(fake_xlsx) == 1
    assert list(cold.columns[3:6]) == ["1", "2", "3"]


def test_truncated_participant_table_is_set_aside_and_rebuilt(fake_xlsx, cache_dir):
    cold = sts3k._participant_table()
    table = _table_file(cache_dir)
    table.write_bytes(table.read_bytes()[:1000])
    with pytest.warns(UserWarning, match=f"{table.name}.*set aside"):
        rebuilt = _load_again()
    pd.testing.assert_frame_equal(rebuilt, cold)
    assert len(fake_xlsx) == 2
    assert table.with_name(table.name + ".bad").exists() and table.exists()  # set aside, rebuilt
    pd.testing.assert_frame_equal(_load_again(), cold)
    assert len(fake_xlsx) == 2


def test_tampered_participant_table_is_set_aside_and_rebuilt(fake_xlsx, cache_dir):
    cold = sts3k._participant_table()
    table = _table_file(cache_dir)
    tampered = pd.read_parquet(table)
    tampered.loc[5, "7"] = 9.0  # a well-formed table with one rating changed (ratings: 1-7)
    tampered.to_parquet(table)
    with pytest.warns(UserWarning, match=f"{table.name}.*set aside"):
        rebuilt = _load_again()
    pd.testing.assert_frame_equal(rebuilt, cold)
    assert len(fake_xlsx) == 2
    assert table.with_name(table.name + ".bad").exists()


def test_participant_table_without_a_digest_is_set_aside_as_unverified(fake_xlsx, cache_dir):
    cold = sts3k._participant_table()
    table = _table_file(cache_dir)
    (cache_dir / "tables" / (table.name + ".sha256")).unlink()  # as written before digests
    with pytest.warns(UserWarning, match=f"{table.name}.*no digest.*set aside"):
        pd.testing.assert_frame_equal(_load_again(), cold)
    assert len(fake_xlsx) == 2 and table.with_name(table.name + ".bad").exists()


_BUILDER = """
import hashlib, pathlib, sys, time
import numpy as np, pandas as pd
from compsem.data import sts3k

{fake}

folder, worker, n = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
sts3k.fetch = lambda path: folder / "participants.xlsx"
pd.read_excel = lambda file: _fake_xlsx()
(folder / f"ready-{{worker}}").touch()
while len(list(folder.glob("ready-*"))) < n:  # start together
    time.sleep(0.01)
ratings = sts3k.load_participant_ratings()
print(hashlib.sha256(np.ascontiguousarray(ratings.to_numpy()).tobytes()).hexdigest())
"""


def test_six_processes_build_the_participant_table_at_once(fake_xlsx, cache_dir, tmp_path):
    import inspect

    n = 6
    script = _BUILDER.format(fake="N_PAIRS, N_PARTICIPANTS = sts3k.N_PAIRS, sts3k.N_PARTICIPANTS\n"
                             + inspect.getsource(_fake_xlsx).replace("sts3k.N_", "N_"))
    env = {**os.environ, "COMPSEM_CACHE_DIR": str(cache_dir)}
    procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path), str(w), str(n)], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for w in range(n)]
    results = [p.communicate(timeout=300) for p in procs]
    failed = [err[-1500:] for p, (_, err) in zip(procs, results, strict=True) if p.returncode != 0]
    assert not failed, f"{len(failed)} of {n} builders failed:\n" + "\n".join(failed)
    expected = sts3k.load_participant_ratings()  # in this process, from the cache they built
    digest = hashlib.sha256(np.ascontiguousarray(expected.to_numpy()).tobytes()).hexdigest()
    assert {out.strip() for out, _ in results} == {digest}
    assert fake_xlsx == []  # read from the table they built
    files = sorted(p.name for p in (cache_dir / "tables").iterdir())
    assert [f for f in files if f.endswith(".parquet")] == [_table_file(cache_dir).name]
    assert not [f for f in files if "tmp" in f or f.endswith(".bad")], files


# --------------------------------------------------------------------------- case 10: the fit cache


def _entry(kind="tests"):
    digest = fitcache.key({"kind": kind, "n": 1})
    arrays = {"pred": np.linspace(0.0, 1.0, 50), "flags": np.arange(7) % 2 == 0}
    fitcache.store(kind, digest, arrays, {"seconds": 1.5, "note": "x"})
    return digest, arrays, fitcache.entry_path(kind, digest)


def test_fitcache_sets_an_unreadable_entry_aside_with_a_warning_naming_it():
    digest, _, path = _entry()
    path.write_bytes(path.read_bytes()[:200])  # truncated
    with pytest.warns(UserWarning, match=f"{path}.*set aside"):
        assert fitcache.load("tests", digest, ["pred"]) is None
    assert _set_aside(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fitcache.load("tests", digest, ["pred"]) is None  # now simply missing


def test_fitcache_entry_missing_a_required_field_is_set_aside():
    digest, _, path = _entry()
    with pytest.warns(UserWarning, match=f"{path}.*set aside"):
        assert fitcache.load("tests", digest, ["pred", "other"]) is None
    assert _set_aside(path)


def test_fitcache_never_returns_other_values_for_a_flipped_byte():
    digest, arrays, path = _entry()
    sound = path.read_bytes()
    for position in range(len(sound)):
        damaged = bytearray(sound)
        damaged[position] ^= 0x41
        path.write_bytes(bytes(damaged))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hit = fitcache.load("tests", digest, ["pred", "flags"])
        if hit is None:
            assert _set_aside(path), position
            continue
        loaded, meta = hit  # a byte outside the values (a timestamp, a comment): same numbers
        assert meta == {"seconds": 1.5, "note": "x"}, position
        for name, value in arrays.items():
            assert loaded[name].dtype == value.dtype and loaded[name].tobytes() == value.tobytes(), position


def _probe_items():
    rng = np.random.default_rng(0)
    n = 60
    items = pd.DataFrame({
        "sentence": [f"s{i % 30}" for i in range(n)],
        "split": ["train"] * 40 + ["test"] * 20,
        "label": rng.integers(0, 2, n),
        "probe": ["a", "b"] * 30,
        "probe2": [""] * n,
    })
    S = rng.normal(size=(30, 5)).astype(np.float32)
    return items, S, np.arange(n) % 30


@pytest.mark.parametrize("damage", ["flipped byte", "truncated"])
def test_damaged_probe_fit_is_set_aside_and_refitted(damage, monkeypatch):
    from compsem.probing import classifiers, evaluate

    items, S, rows = _probe_items()
    cold = evaluate.run_probe(items, S, rows, classifier="logreg", n_boot=20)
    (entry,) = evaluate.fit_cache_dir().glob("*.npz")
    data = bytearray(entry.read_bytes())
    if damage == "flipped byte":
        data[data.rindex(b"PK\x03\x04") - 1] ^= 0x01  # the last byte of an array's values
    else:
        del data[len(data) // 2:]
    entry.write_bytes(bytes(data))
    fits = []
    logreg = classifiers.logreg_cv
    monkeypatch.setattr(classifiers, "logreg_cv", lambda *a, **k: fits.append(1) or logreg(*a, **k))
    with pytest.warns(UserWarning, match=f"{entry.name}.*set aside"):
        warm = evaluate.run_probe(items, S, rows, classifier="logreg", n_boot=20)
    assert fits == [1] and entry.with_name(entry.name + ".bad").exists()  # set aside, refitted
    for name in ("accuracy", "low", "high", "chance", "n_test", "C", "epochs"):
        assert warm[name] == cold[name], name
    np.testing.assert_array_equal(warm["correct"], cold["correct"])
    evaluate.run_probe(items, S, rows, classifier="logreg", n_boot=20)
    assert fits == [1]  # the refit was stored


def test_probe_fits_are_kept_in_the_fit_cache(cache_dir, monkeypatch):
    from compsem import determinism
    from compsem.probing import evaluate

    items, S, rows = _probe_items()
    evaluate.run_probe(items, S, rows, classifier="logreg", n_boot=20)
    (entry,) = (cache_dir / "fits" / determinism.numerics()).glob("*/*.npz")
    assert entry.parent == evaluate.fit_cache_dir()
    monkeypatch.setenv("COMPSEM_FIT_CACHE", "0")  # one switch for every fit
    evaluate.run_probe(items, S, rows, classifier="mlp", n_boot=20, max_epochs=2)
    assert len(list(evaluate.fit_cache_dir().glob("*.npz"))) == 1


def test_every_fit_kind_names_its_code_by_one_policy(monkeypatch):
    """The probe fits, the SDAE, the regressors and the fine-tuning key their entries by
    fitcache.code_identity: an edit to a training function, or another version of a library that
    computes, gives another key."""
    from compsem.models import sdae
    from compsem.probing import evaluate
    from compsem.sts import finetune, regressors

    def trained(x):
        return x + 1

    def edited(x):
        return x + 2

    base = fitcache.code_identity([trained], ["numpy"])
    assert set(base) == {"source", "versions"}
    assert fitcache.code_identity([edited], ["numpy"])["source"] != base["source"]
    assert fitcache.code_identity([trained], ["numpy"]) == base
    with monkeypatch.context() as patch:
        patch.setattr(fitcache, "versions", lambda packages: {name: "0.0-other" for name in packages})
        assert fitcache.code_identity([trained], ["numpy"])["versions"] != base["versions"]
    for code in (evaluate._classifier_code(), regressors._code_digest(), finetune._code_digest()):
        assert set(code) == {"source", "versions"}
    calls = []
    real = fitcache.code_identity
    monkeypatch.setattr(fitcache, "code_identity", lambda f, p: calls.append(list(p)) or real(f, p))
    from types import SimpleNamespace

    toy_vectors = SimpleNamespace(matrix=np.eye(2, dtype=np.float32), vocab=["a", "cat"])
    sdae.SDAEEncoder(sdae.SDAEConfig(seed=3), sentences=["a cat"], word_vectors=toy_vectors).key()
    assert calls == [["numpy", "torch"]]


PARSED = ["The chef cut the onion with a knife.", "A letter was sent to Mary by the lawyer.",
          "The old man is very tired.", "Dogs bark."]


def test_parses_are_made_once_and_read_back_with_the_same_roles(nlp, monkeypatch):
    """resources.parse: a fresh parse and a read-back one give the labeller the same roles as
    spaCy's own docs; the second call parses nothing; other texts are another entry."""
    from compsem import resources
    from compsem.sts import roles

    fresh = roles.label_docs(nlp.pipe(PARSED))
    first = resources.parse(PARSED)
    entries = sorted(fitcache.folder(resources.PARSE_CACHE_KIND).glob("*.npz"))
    assert len(entries) == 1
    with monkeypatch.context() as patch:
        patch.setattr(type(nlp), "pipe", lambda *a, **k: pytest.fail("parsed again"))
        second = resources.parse(PARSED)
    for docs in (first, second):
        assert [d.text for d in docs] == PARSED
        assert roles.label_docs(docs).equals(fresh)
    resources.parse(PARSED[:2])
    assert len(list(fitcache.folder(resources.PARSE_CACHE_KIND).glob("*.npz"))) == 2


def test_a_damaged_parse_entry_is_set_aside_and_parsed_again(nlp):
    from compsem import resources

    resources.parse(PARSED)
    (entry,) = fitcache.folder(resources.PARSE_CACHE_KIND).glob("*.npz")
    entry.write_bytes(entry.read_bytes()[:100])
    with pytest.warns(UserWarning, match="set aside"):
        docs = resources.parse(PARSED)
    assert [d.text for d in docs] == PARSED
    assert entry.with_name(entry.name + ".bad").exists() and entry.exists()
