"""Timings a re-runner of the book cares about; prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_foundation.py          # needs COMPSEM_DATA_DIR or network

- the participant matrix: xlsx parse (cold) vs the parquet cache (warm);
- split-half reliability and weighted kappa: 100 and 1,000 random splits;
- the STS3k pair-type reconstruction;
- sentence embeddings of the 4,428 unique STS3k sentences with MiniLM: encoding vs the cache.
"""

from __future__ import annotations

import tempfile
import time
from contextlib import contextmanager


@contextmanager
def timed(label: str):
    start = time.perf_counter()
    yield
    print(f"{label:<58} {time.perf_counter() - start:8.3f} s", flush=True)


def main() -> None:
    import os

    from compsem.data import sts3k
    from compsem.sts import pair_types, ratings

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["COMPSEM_CACHE_DIR"] = tmp  # cold caches for the first measurements
        with timed("participant matrix, cold (xlsx -> parquet cache)"):
            sts3k._participant_table()
        sts3k._participant_table.cache_clear()
        with timed("participant matrix, warm (parquet cache)"):
            matrix = sts3k.load_participant_ratings().to_numpy()
        subsets = ratings.reliability_subsets(sts3k.load_participant_pairs(), matrix)
        for n in (100, 1000):
            with timed(f"split-half reliability + kappa, {n} splits, 3 subsets"):
                ratings.split_half_reliability(matrix, subsets, n_splits=n)
        pairs = sts3k.load_pairs()
        with timed("pair-type reconstruction (2,800 pairs)"):
            pair_types.reconstruct_pair_types(pairs, sts3k.load_stopwords())

        from compsem.models import cached_encode, get_encoder

        sentences = sorted(set(pairs.sentence_a) | set(pairs.sentence_b))
        encoder = get_encoder("minilm", device="cpu")
        with timed(f"MiniLM: load + encode {len(sentences)} sentences (cold cache)"):
            cached_encode(encoder, sentences)
        with timed(f"MiniLM: the same {len(sentences)} sentences again (cache)"):
            cached_encode(encoder, sentences)


if __name__ == "__main__":
    main()
