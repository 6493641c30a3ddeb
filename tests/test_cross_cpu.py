"""The encoders' bits against vectors computed on another machine (tests/fixtures/cross_cpu).

Each fixture records the CPU and the numerics it was made under. On a CPU of the same kind
(vendor, family and model) under the same numerics the vectors must be identical bit for bit;
on any other CPU they must agree within :data:`FLOAT32_BOUND`, a few units in the last place of
a float32 vector of unit scale: the kernels of another vendor may sum in another order, and
those last bits are what the cross-CPU determinism work tracks. A larger difference is a change
of the encoder (its weights, tokenizer, pooling), not of the CPU.
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

from compsem import determinism

pytestmark = pytest.mark.slow
FIXTURES = Path(__file__).parent / "fixtures" / "cross_cpu"
VECTORS = FIXTURES / "vectors-200-sts3k-amd-zen4.npz"
MADE_ON = {"vendor_id": "AuthenticAMD", "cpu family": "25", "model": "17", "numerics": "avx2-cnr"}
FLOAT32_BOUND = 1e-5


def cpu() -> dict[str, str]:
    """vendor_id, cpu family and model of this machine's first CPU (empty where /proc/cpuinfo
    is not there)."""
    info = {}
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return info
    for line in lines:
        key, _, value = line.partition(":")
        key = key.strip()
        if key in ("vendor_id", "cpu family", "model") and key not in info:
            info[key] = value.strip()
        if not line.strip() and info:
            break
    return info


def _encode_under_kernel_numerics(texts: list[str]) -> dict[str, np.ndarray]:
    """MiniLM and MPNet vectors of ``texts`` computed (``encode`` reads no cache) in a fresh
    process under KERNEL_ENV, on one thread."""
    code = (
        "import json, sys, numpy as np\n"
        "from compsem import determinism\n"
        "from compsem.models.registry import get_encoder\n"
        "determinism.set_threads(1)\n"
        "texts = json.loads(sys.stdin.read())\n"
        "out = {n: get_encoder(n).encode(texts) for n in ('minilm', 'mpnet')}\n"
        "np.savez(sys.argv[1], **out)\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "vectors.npz"
        env = {**os.environ, **determinism.KERNEL_ENV, "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
        result = subprocess.run([sys.executable, "-c", code, str(target)], input=json.dumps(texts),
                                env=env, capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, result.stderr[-3000:]
        with np.load(target) as data:
            return {name: data[name] for name in data.files}


@pytest.mark.skipif(not determinism.KERNEL_ENV, reason="the fixture's numerics are x86-64's")
def test_encoder_vectors_match_the_other_machines():
    with np.load(VECTORS) as data:
        texts = [str(t) for t in data["texts"]]
        expected = {name: data[name] for name in ("minilm", "mpnet")}
    ours = _encode_under_kernel_numerics(texts)
    same_kind = {**cpu(), "numerics": "avx2-cnr"} == MADE_ON
    for name, reference in expected.items():
        assert ours[name].shape == reference.shape and ours[name].dtype == reference.dtype, name
        gap = float(np.max(np.abs(ours[name].astype(np.float64) - reference)))
        if same_kind:
            assert np.array_equal(ours[name], reference), (
                f"{name}: on the fixture's own kind of CPU the vectors differ (max {gap:.2e})")
        assert gap <= FLOAT32_BOUND, f"{name}: {gap:.2e} from the fixture, above {FLOAT32_BOUND}"
