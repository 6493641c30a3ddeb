"""compsem encoding against plain sentence-transformers ``encode``, same sentences; prints the ratio.

    .venv/bin/python benchmarks/bench_encode_ratio.py [--n 2000] [--reps 3] [--threads 1] [--models minilm mpnet]

For MiniLM and MPNet (the packaged copies, loaded from the same directory by both sides), on the
first ``--n`` unique STS3k sentences, batch size 64, device ``auto``, ``--threads`` torch threads:

- plain: ``SentenceTransformer(path).encode(sentences, batch_size=64, convert_to_numpy=True)``;
- plain, compsem's model: the same ``encode`` call on the model object compsem loaded
  (separates the wrapper from differences between two loaded copies);
- compsem encoder: ``get_encoder(name).encode(sentences, batch_size=64)`` (no cache);
- compsem cold: ``cached_encode(encoder, sentences)`` with an empty embedding cache (the path
  a chapter takes the first time: hashing, encoding, writing the shard).

Each model is loaded and run once on a few sentences before timing (the first forward pass
builds kernels); the four are then timed in turn, ``--reps`` times (the order rotating), and
the median is reported (the minimum beside it). ratio = plain seconds / compsem seconds: at least 1.00 means compsem is as fast.
The embeddings of the two sides are compared too (max absolute difference).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="sentences (unique STS3k sentences, sorted)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (0: leave as is)")
    parser.add_argument("--models", nargs="+", default=["minilm", "mpnet"])
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    import torch

    from compsem.data import sts3k
    from compsem.devices import resolve_device
    from compsem.models import registry

    if args.threads:
        torch.set_num_threads(args.threads)
    pairs = sts3k.load_pairs()
    sentences = sorted(set(pairs.sentence_a) | set(pairs.sentence_b))[: args.n]
    device = resolve_device("auto")
    print(f"{len(sentences)} STS3k sentences, batch {args.batch_size}, device {device}, "
          f"torch threads {torch.get_num_threads()}, {args.reps} repetitions (median)", flush=True)
    paths = {"minilm": registry.minilm_path, "mpnet": registry.mpnet_path}

    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            compare(name, str(paths[name]()), sentences, device, args.batch_size, args.reps, tmp)


def compare(name: str, path: str, sentences: list[str], device: str, batch_size: int, reps: int,
            tmp: str) -> None:
    """Time the three ways of encoding ``sentences`` with one model; print medians and ratios."""
    import numpy as np
    from sentence_transformers import SentenceTransformer

    from compsem.models import cached_encode, get_encoder

    plain_model = SentenceTransformer(path, device=device)
    encoder = get_encoder(name, device=device)
    real_cache = os.environ.get("COMPSEM_CACHE_DIR")

    def plain():
        return plain_model.encode(sentences, batch_size=batch_size, convert_to_numpy=True,
                                  show_progress_bar=False)

    def compsem_encoder():
        return encoder.encode(sentences, batch_size=batch_size)

    def compsem_cold():
        os.environ["COMPSEM_CACHE_DIR"] = tempfile.mkdtemp(dir=tmp)  # an empty cache each time
        try:
            return cached_encode(encoder, sentences, batch_size=batch_size)
        finally:
            if real_cache is None:
                os.environ.pop("COMPSEM_CACHE_DIR", None)
            else:
                os.environ["COMPSEM_CACHE_DIR"] = real_cache

    def plain_on_compsem_model():  # the very model object compsem loaded, called directly
        return encoder.model.encode(sentences, batch_size=batch_size, convert_to_numpy=True,
                                    show_progress_bar=False)

    plain_model.encode(sentences[:8], batch_size=8)  # warm-up: kernels, lazy imports
    encoder.encode(sentences[:8], batch_size=8)
    runs = {"plain": plain, "plain, compsem's model": plain_on_compsem_model,
            "compsem encoder": compsem_encoder, "compsem cold cache": compsem_cold}
    times: dict[str, list[float]] = {label: [] for label in runs}
    outputs = {}
    labels = list(runs)
    for rep in range(reps):  # the order rotates, so that no variant always runs first
        for label in labels[rep % len(labels):] + labels[: rep % len(labels)]:
            start = time.perf_counter()
            outputs[label] = np.asarray(runs[label](), dtype=np.float32)
            times[label].append(time.perf_counter() - start)
    base = statistics.median(times["plain"])
    for label, values in times.items():
        seconds = statistics.median(values)
        diff = float(np.abs(outputs[label] - outputs["plain"]).max())
        print(f"{name:<7} {label:<24} {seconds:8.2f} s (min {min(values):6.2f})  "
              f"{len(sentences) / seconds:7.1f} sentences/s  ratio {base / seconds:5.2f}  "
              f"max |diff| {diff:.1e}", flush=True)

if __name__ == "__main__":
    main()
