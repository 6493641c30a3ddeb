"""Encoder throughput on the 4,428 unique STS3k sentences; prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_encoders.py          # needs COMPSEM_DATA_DIR or network

For each packaged encoder (minilm, mpnet, glove50, spacy-md) and for the layer encoders
mpnet:layer0 + mpnet:layer12 computed in ONE forward pass (``cached_encode_layers``):

- load: loading the weights / vectors (first ``encode`` of one short text, outside the cache);
- cold: ``cached_encode`` of all sentences with an empty embedding cache (encode + write);
- warm: the same call again (cache read only).

Only the embedding cache is cold: COMPSEM_CACHE_DIR points at a temporary folder in which
``models/all-mpnet-base-v2`` links to the already joined mpnet model (joined first if needed),
so the one-off join is not timed as encoding. Device: ``auto`` (cuda if available).
"""

from __future__ import annotations

import os
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def timed(label: str, n: int | None = None):
    start = time.perf_counter()
    yield
    dt = time.perf_counter() - start
    rate = f"{n / dt:10.0f} sentences/s" if n else ""
    print(f"{label:<52} {dt:8.3f} s {rate}", flush=True)


def main() -> None:
    from compsem.data import sts3k
    from compsem.devices import resolve_device
    from compsem.models import cached_encode, cached_encode_layers, get_encoder, registry
    from compsem.models.layers import layer_model

    pairs = sts3k.load_pairs()  # read before the cache moves
    sentences = sorted(set(pairs.sentence_a) | set(pairs.sentence_b))
    n = len(sentences)
    with timed("mpnet join (skipped when already joined)"):
        mpnet_dir = registry.mpnet_path()
    device = resolve_device("auto")
    print(
        f"{n} unique STS3k sentences, device {device}, torch threads "
        f"{__import__('torch').get_num_threads()}",
        flush=True,
    )

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["COMPSEM_CACHE_DIR"] = tmp  # cold embedding cache
        (Path(tmp) / "models").mkdir()
        (Path(tmp) / "models" / mpnet_dir.name).symlink_to(mpnet_dir, target_is_directory=True)

        for name in ("minilm", "mpnet", "glove50", "spacy-md"):
            encoder = get_encoder(name)
            with timed(f"{name}: load"):
                encoder.encode(["A cat sat on the mat."])
            with timed(f"{name}: cold cache (encode + store)", n):
                cached_encode(encoder, sentences)
            with timed(f"{name}: warm cache", n):
                cached_encode(encoder, sentences)

        model = layer_model("mpnet", "auto")
        with timed("mpnet:layer0+12: load"):
            model.encode_layers(["A cat sat on the mat."], [0, 12])
        passes = model.forward_passes
        with timed("mpnet:layer0+12: cold cache, one pass (2 layers)", n):
            cached_encode_layers("mpnet", sentences, [0, 12])
        print(f"{'':<52} {model.forward_passes - passes} forward batches (equal token counts, at most 64 texts)", flush=True)
        with timed("mpnet:layer0+12: warm cache (both layers)", n):
            cached_encode_layers("mpnet", sentences, [0, 12])
        with timed("mpnet:layer12 via get_encoder: warm (filled above)", n):
            cached_encode(get_encoder("mpnet:layer12"), sentences)


if __name__ == "__main__":
    main()
