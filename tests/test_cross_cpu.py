"""This machine's bits against those computed on other CPUs (tests/fixtures/cross_cpu).

Each fixture records the CPU and the numerics it was made under. Under the same numerics the
bits must be identical on a CPU of the same kind (vendor, family and model) and on any Intel CPU
against an Intel fixture (:func:`same_bits_expected`: MKL's strict AVX2 branch is documented to
give the same results on every Intel CPU with AVX2; measured on three Xeon models). On another
CPU the encoders' vectors must agree within :data:`FLOAT32_BOUND`: MKL's strict AVX2 branch is
documented for Intel CPUs only, and
on another vendor MKL runs its AUTO branch, whose kernels for small matrices sum in another
order. Measured between the two recorded CPUs (an Intel Xeon, family 6 model 207, and an AMD
EPYC Zen 4): every vector of a sentence of :data:`SAME_BITS_FROM_TOKENS` tokens or more is
identical, and the shorter ones differ in their last bits, through the attention's products of
T x T scores (T tokens); that pattern is held here too. A larger difference is a change of the
encoder (its weights, tokenizer, pooling), not of the CPU.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from compsem import determinism, run

pytestmark = pytest.mark.slow
FIXTURES = Path(__file__).parent / "fixtures" / "cross_cpu"
SCRIPTS = Path(__file__).parent.parent / "scripts"
INTEL_EMR = {"vendor_id": "GenuineIntel", "cpu family": "6", "model": "207"}
AMD_ZEN4 = {"vendor_id": "AuthenticAMD", "cpu family": "25", "model": "17"}
VECTORS = {
    "vectors-200-sts3k-amd-zen4.npz": AMD_ZEN4,
    "vectors-200-sts3k-intel-emr.npz": INTEL_EMR,
}
"""Each vectors fixture and the kind of CPU it was made on (numerics ``avx2-cnr``, one thread)."""
FINGERPRINTS = {"fingerprint-amd-zen4.json": AMD_ZEN4, "fingerprint-intel-emr.json": INTEL_EMR}
"""Each fingerprint (scripts/cross_cpu_fingerprint.py: float32 products of a grid of shapes, a probe
fit and a regressor fit) and the kind of CPU it was made on, under the chapters' numerics."""
COMPATIBLE_FINGERPRINTS = {"fingerprint-amd-zen4-compatible.json": AMD_ZEN4,
                           "fingerprint-intel-emr-compatible.json": INTEL_EMR}
"""The same grid under MKL's COMPATIBLE branch (``--mkl-cbwr COMPATIBLE``), which Intel documents
as giving the same results on Intel and compatible CPUs: measured, the two recorded CPUs give
identical bits for every product and fit of the grid (under the chapters' strict AVX2 branch,
1,818 of the 3,000 products part)."""
FLOAT32_BOUND = 1e-6
"""Vectors of unit scale from CPUs of two vendors: about ten times the largest difference
measured between the two recorded CPUs (1.1e-7)."""
SAME_BITS_FROM_TOKENS = 12
"""Sentences of at least this many tokens had identical vectors on both recorded CPUs."""
KIND_KEYS = ("vendor_id", "cpu family", "model")


def cpu_kind() -> dict[str, str]:
    """vendor_id, cpu family and model of this machine's first CPU."""
    return {k: v for k, v in determinism.cpu_kind().items() if k in KIND_KEYS}


def same_bits_expected(here: dict[str, str], made_on: dict[str, str]) -> bool:
    """Whether this CPU must reproduce a fixture made on ``made_on`` bit for bit: the same kind
    of CPU, or two Intel CPUs (MKL's strict AVX2 branch; another vendor runs MKL's AUTO branch,
    whose kernels change with the microarchitecture)."""
    return here == made_on or here.get("vendor_id") == made_on.get("vendor_id") == "GenuineIntel"


def _kernel_env() -> dict[str, str]:
    return {**os.environ, **determinism.KERNEL_ENV, **run.thread_env(1)}


def _encode_under_kernel_numerics(texts: list[str]) -> dict[str, np.ndarray]:
    """MiniLM and MPNet vectors of ``texts`` computed (``encode`` reads no cache) in a fresh
    process under KERNEL_ENV, on one thread, with each text's token count."""
    code = (
        "import json, sys, numpy as np\n"
        "from compsem import determinism\n"
        "from compsem.models.registry import get_encoder\n"
        "from compsem.models.sentence_transformer import token_counts\n"
        "determinism.set_threads(1)\n"
        "texts = json.loads(sys.stdin.read())\n"
        "out = {n: get_encoder(n).encode(texts) for n in ('minilm', 'mpnet')}\n"
        "out['tokens'] = token_counts(get_encoder('minilm').model, texts)\n"
        "np.savez(sys.argv[1], **out)\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "vectors.npz"
        result = subprocess.run([sys.executable, "-c", code, str(target)], input=json.dumps(texts),
                                env=_kernel_env(), capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stderr[-3000:]
        with np.load(target) as data:
            return {name: data[name] for name in data.files}


@pytest.fixture(scope="module")
def ours() -> dict[str, np.ndarray]:
    with np.load(FIXTURES / next(iter(VECTORS))) as data:
        texts = [str(t) for t in data["texts"]]
    return _encode_under_kernel_numerics(texts)


@pytest.mark.skipif(not determinism.KERNEL_ENV, reason="the fixtures' numerics are x86-64's")
@pytest.mark.parametrize("fixture", sorted(VECTORS))
def test_encoder_vectors_match_the_fixture(fixture, ours):
    made_on = VECTORS[fixture]
    here = cpu_kind()
    with np.load(FIXTURES / fixture) as data:
        expected = {name: data[name] for name in ("minilm", "mpnet")}
    long_rows = ours["tokens"] >= SAME_BITS_FROM_TOKENS
    for name, reference in expected.items():
        assert ours[name].shape == reference.shape and ours[name].dtype == reference.dtype, name
        gap = float(np.max(np.abs(ours[name].astype(np.float64) - reference)))
        assert gap <= FLOAT32_BOUND, f"{name}: {gap:.2e} from {fixture}, above {FLOAT32_BOUND}"
        if same_bits_expected(here, made_on):
            assert np.array_equal(ours[name], reference), (
                f"{name}: on a CPU that must give the fixture's bits ({here}) the vectors "
                f"differ (max {gap:.2e})")
        elif here in VECTORS.values():
            assert np.array_equal(ours[name][long_rows], reference[long_rows]), (
                f"{name}: vectors of sentences of {SAME_BITS_FROM_TOKENS}+ tokens differ from "
                f"{fixture}, made on the other recorded CPU (they were identical)")


@pytest.mark.skipif(not determinism.KERNEL_ENV, reason="the fixtures' numerics are x86-64's")
@pytest.mark.parametrize("fixture", sorted(FINGERPRINTS))
def test_fingerprint_matches_the_fixtures_this_cpu_must_reproduce(fixture):
    if not same_bits_expected(cpu_kind(), FINGERPRINTS[fixture]):
        pytest.skip(f"{fixture} was made on another kind of CPU ({FINGERPRINTS[fixture]}); "
                    f"scripts/cross_cpu_fingerprint.py --against shows where the two differ")
    _assert_same_fingerprint(_fingerprint_here(), fixture)


@pytest.mark.skipif(not determinism.KERNEL_ENV, reason="the fixtures' numerics are x86-64's")
@pytest.mark.parametrize("fixture", sorted(COMPATIBLE_FINGERPRINTS))
def test_compatible_branch_gives_the_bits_of_both_recorded_vendors(fixture):
    """On any x86-64 CPU, MKL's COMPATIBLE branch gives the bits recorded on each recorded CPU,
    the other vendor's included: the promise Intel documents for that branch (Intel and
    compatible CPUs), held from one machine."""
    _assert_same_fingerprint(_fingerprint_here("--mkl-cbwr", "COMPATIBLE"), fixture)


def _fingerprint_here(*options: str) -> dict:
    """This machine's fingerprint (scripts/cross_cpu_fingerprint.py, which sets its numerics)."""
    result = subprocess.run([sys.executable, str(SCRIPTS / "cross_cpu_fingerprint.py"), "--json",
                             *options], env=_kernel_env(), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


def _assert_same_fingerprint(ours: dict, fixture: str) -> None:
    theirs = json.loads((FIXTURES / fixture).read_text())
    assert ours["mkl_cbwr"] == theirs["mkl_cbwr"], (ours["mkl_cbwr"], theirs["mkl_cbwr"])
    for library in ("torch", "numpy", "training"):
        mine, recorded = ours["fingerprints"][library], theirs["fingerprints"][library]
        differ = [s for s in mine if mine[s] != recorded.get(s)]
        assert not differ, (f"{library}: {len(differ)} shapes give other bits than {fixture}, "
                            f"e.g. {differ[:5]}")
