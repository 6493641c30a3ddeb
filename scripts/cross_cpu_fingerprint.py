"""Which computations give the same bits on two CPUs: float32 matrix products by shape, and two fits.

    .venv/bin/python scripts/cross_cpu_fingerprint.py [--save FILE.json] [--against FILE.json ...]
        [--mkl-cbwr BRANCH]

Runs itself under the chapters' numerics (:data:`compsem.determinism.KERNEL_ENV`, one thread)
and multiplies seeded float32 matrices of a grid of shapes (:data:`SIZES`, the three
transposition cases the models use) through torch (``torch.mm``: MKL on x86-64) and numpy
(OpenBLAS), and hashes each product's bytes; then two small fits on fixed inputs (:func:`training_fingerprints`). ``--save`` writes the hashes with the CPU that made
them; ``--against`` prints, for each saved file, how many shapes give other bits here and which
(the smallest dimension of each is what decides it: MKL's strict AVX2 branch is documented for
Intel CPUs only, and another vendor runs its AUTO branch, whose kernels for small matrices
differ). Bits here equal those of a file made on the same kind of CPU
(``tests/test_cross_cpu.py``). ``--mkl-cbwr COMPATIBLE`` fingerprints MKL's branch that Intel
documents as giving the same results on Intel and compatible CPUs (SSE2 kernels, slower) instead
of the chapters' ``AVX2,STRICT``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

SIZES = (1, 2, 3, 8, 11, 12, 16, 32, 64, 256)
"""Each of M, N and K of a product takes these values (1,000 shapes per transposition case)."""
CASES = ("NN", "TN", "NT")
"""Transposition of A and B: "TN" is the attention scores' Q·Kᵀ as torch hands it to MKL."""


def fingerprints() -> dict[str, dict[str, str]]:
    """``{"torch": {shape: sha1}, "numpy": {shape: sha1}}``, shape as ``"TN 11x11x32"``
    (case, M x N x K)."""
    import numpy as np
    import torch

    torch.set_num_threads(1)
    out = {"torch": {}, "numpy": {}}
    for case in CASES:
        for m in SIZES:
            for n in SIZES:
                for k in SIZES:
                    rng = np.random.default_rng([m, n, k, CASES.index(case)])
                    a = rng.standard_normal((k, m) if case[0] == "T" else (m, k), dtype=np.float32)
                    b = rng.standard_normal((n, k) if case[1] == "T" else (k, n), dtype=np.float32)
                    a_op = a.T if case[0] == "T" else a  # a transposed view, as torch gets it
                    b_op = b.T if case[1] == "T" else b
                    shape = f"{case} {m}x{n}x{k}"
                    product = torch.mm(torch.from_numpy(a_op), torch.from_numpy(b_op))
                    out["torch"][shape] = hashlib.sha1(product.numpy().tobytes()).hexdigest()[:12]
                    out["numpy"][shape] = hashlib.sha1(
                        np.ascontiguousarray(a_op @ b_op).tobytes()).hexdigest()[:12]
    return out


INPUTS = Path(__file__).parent.parent / "tests" / "fixtures" / "cross_cpu" / "vectors-200-sts3k-amd-zen4.npz"
"""Fixed inputs of the training fingerprints: 200 MiniLM vectors (the same file on every machine)."""


def training_fingerprints() -> dict[str, str]:
    """Two fits on fixed inputs (:data:`INPUTS`), hashed: the 2018 probing MLP
    (``compsem.probing.classifiers.mlp_probe``, 30 epochs; its test predictions and epoch count)
    and a PCA-8 (exact SVD, as sts3k-finetune's) + ``nn2`` MLP regressor
    (``compsem.sts.regressors.make_regressor``; its predictions' float64 bits)."""
    import numpy as np
    from sklearn.decomposition import PCA

    from compsem.probing.classifiers import mlp_probe
    from compsem.sts.regressors import make_regressor

    with np.load(INPUTS) as data:
        x = data["minilm"]
    labels = (x[:, 0] > np.median(x[:, 0])).astype(np.float32)  # a fixed, learnable label
    rows = np.arange(len(x))
    none = np.zeros((len(x), 0), np.float32)
    probe = mlp_probe(x[:150], rows[:150], none[:150], labels[:150],
                      x[150:], rows[150:] - 150, none[150:], labels[150:], max_epochs=30)
    features = PCA(n_components=8, svd_solver="full").fit_transform(x.astype(np.float64))
    target = x[:, :4].astype(np.float64).sum(axis=1)
    regressor = make_regressor("nn2").set_params(max_iter=50).fit(features[:150], target[:150])
    return {
        "probe": hashlib.sha1(probe.predictions.tobytes() + bytes([probe.epochs])).hexdigest()[:12],
        "pca8": hashlib.sha1(np.ascontiguousarray(features).tobytes()).hexdigest()[:12],
        "regressor": hashlib.sha1(regressor.predict(features[150:]).tobytes()).hexdigest()[:12],
    }


def differing(ours: dict, theirs: dict) -> dict[str, list[str]]:
    """Per library, the shapes whose hashes differ between two fingerprints."""
    return {lib: [s for s in ours[lib] if theirs.get(lib, {}).get(s) != ours[lib][s]]
            for lib in ours}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", type=Path, help="write this machine's fingerprint here")
    parser.add_argument("--against", type=Path, nargs="*", default=[],
                        help="fingerprints saved on other machines, to compare with")
    parser.add_argument("--json", action="store_true", help="print the fingerprint as JSON only")
    parser.add_argument("--mkl-cbwr", default=None,
                        help="MKL_CBWR to fingerprint (default: the chapters' KERNEL_ENV value)")
    args = parser.parse_args(argv)

    from compsem import determinism
    from compsem.run import thread_env

    wanted = {**determinism.KERNEL_ENV}
    if args.mkl_cbwr and wanted:
        wanted["MKL_CBWR"] = args.mkl_cbwr
    if any(os.environ.get(k) != v for k, v in wanted.items()):
        env = {**os.environ, **wanted, **thread_env(1)}
        sys.exit(subprocess.run([sys.executable, __file__, *(argv or sys.argv[1:])], env=env).returncode)

    import warnings

    from sklearn.exceptions import ConvergenceWarning

    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    record = {"cpu": determinism.cpu_kind(), "numerics": determinism.numerics(),
              "mkl_cbwr": os.environ.get("MKL_CBWR", ""),
              "fingerprints": {**fingerprints(), "training": training_fingerprints()}}
    if args.json:
        print(json.dumps(record, sort_keys=True))
        return
    print(f"this CPU: {record['cpu'].get('model name', '?')} ({record['numerics']}, "
          f"MKL_CBWR={record['mkl_cbwr']})")
    if args.save:
        args.save.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
        print(f"wrote {args.save}")
    for path in args.against:
        other = json.loads(path.read_text())
        print(f"against {path.name} ({other['cpu'].get('model name', '?')}, "
              f"MKL_CBWR={other.get('mkl_cbwr', '?')}):")
        for lib, shapes in differing(record["fingerprints"], other["fingerprints"]).items():
            total = len(record["fingerprints"][lib])
            print(f"  {lib}: {len(shapes)} of {total} give other bits")
            for shape in shapes[:40]:
                print(f"    {shape}")
            if len(shapes) > 40:
                print(f"    ... and {len(shapes) - 40} more")


if __name__ == "__main__":
    main()
