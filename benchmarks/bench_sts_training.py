"""The trained steps of the sts3k-finetune chapter, cold against warm fit cache; prints its figures.

    .venv/bin/python benchmarks/bench_sts_training.py [--full] [--epochs 1] [--n-jobs 2]

- regressor grid: the chapter's Figure 6 grid (PCA-8 features of VerbNet-CN, Mean-GloVe, MiniLM
  and MPNet; regressors reg, nn1-nn4) on the adversarial split and one seeded random split
  (``--full``: all six splits of the default profile), fitted with an empty fit cache on one
  process, again with an empty cache on ``--n-jobs`` processes, and then read back warm;
- fine-tuning: MiniLM fine-tuned on the adversarial split (``--epochs``, 1 by default; the
  chapter uses 4) and scored, with an empty fit cache and then warm.

The sentence embeddings come from the embedding cache as they are (warm after a book run); only
the fit cache (``compsem.fitcache``) is emptied: COMPSEM_CACHE_DIR points at a temporary folder
after the features are computed. Every warm and parallel result is checked equal to the cold
one. Each fit runs on 1 BLAS thread (the library default); set OMP_NUM_THREADS to pin torch.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from contextlib import contextmanager


@contextmanager
def timed(label: str, out: dict):
    start = time.perf_counter()
    yield
    out[label] = time.perf_counter() - start
    print(f"{label:<58} {out[label]:8.1f} s", flush=True)


def features():
    """PCA-8 features of the chapter's four feature sets, the ratings and the pairs."""
    from compsem.data import sts3k
    from compsem.models import get_encoder
    from compsem.sts import composition, scoring
    from compsem.sts import regressors as rg

    pairs = sts3k.load_pairs()
    stop = sts3k.load_stopwords()
    raw = {"mean:glove50": tuple(composition.compose(pairs[c], get_encoder("glove50").word_vectors, "mean",
                                                     stopwords=stop) for c in ("sentence_a", "sentence_b"))}
    for name in ("minilm", "mpnet"):
        both = scoring.embed_unique(name, list(pairs.sentence_a) + list(pairs.sentence_b), show_progress=False)
        raw[name] = (both[: len(pairs)], both[len(pairs):])
    pca8 = {"verbnet": rg.role_features(sts3k.load_rolewise_similarities()["conceptnet"])}
    pca8 |= {name: rg.pair_features(a, b, n_components=8) for name, (a, b) in raw.items()}
    return pairs, pca8


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="all six splits of the default profile")
    parser.add_argument("--epochs", type=int, default=1, help="fine-tuning epochs (the chapter: 4)")
    parser.add_argument("--n-jobs", type=int, default=2, help="worker processes of the parallel grid")
    parser.add_argument("--skip-finetune", action="store_true")
    args = parser.parse_args()

    import pandas as pd

    from compsem.sts import finetune
    from compsem.sts import regressors as rg

    t: dict[str, float] = {}
    with timed("features (embedding cache as it is)", t):
        pairs, pca8 = features()
    human = pairs["human"].to_numpy()
    splits = {"adversarial": rg.adversarial_split(pairs)}
    splits |= {f"random (seed {s})": rg.random_split(len(pairs), s) for s in (range(5) if args.full else [0])}
    regressors = ["reg", "nn1", "nn2", "nn3", "nn4"]
    n_fits = len(splits) * len(pca8) * len(regressors)

    def grid(n_jobs: int) -> pd.DataFrame:
        return pd.concat([rg.evaluate_grid(pca8, human, split, regressors, split_name=name, progress=False,
                                           n_jobs=n_jobs) for name, split in splits.items()], ignore_index=True)

    real_cache = os.environ.get("COMPSEM_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["COMPSEM_CACHE_DIR"] = os.path.join(tmp, "serial")  # an empty fit cache
        with timed(f"regressor grid, {n_fits} fits: cold, 1 process", t):
            cold = grid(1)
        with timed(f"regressor grid, {n_fits} fits: warm", t):
            warm = grid(1)
        pd.testing.assert_frame_equal(warm, cold)
        os.environ["COMPSEM_CACHE_DIR"] = os.path.join(tmp, "parallel")
        with timed(f"regressor grid, {n_fits} fits: cold, {args.n_jobs} processes", t):
            parallel = grid(args.n_jobs)
        pd.testing.assert_frame_equal(parallel.drop(columns="seconds"), cold.drop(columns="seconds"))
        print(f"{'':<58} per regressor (cold, s): "
              + ", ".join(f"{r} {s:.1f}" for r, s in cold.groupby("regressor", sort=False)["seconds"].sum().items()),
              flush=True)

        if not args.skip_finetune:
            split = splits["adversarial"]
            os.environ["COMPSEM_CACHE_DIR"] = os.path.join(tmp, "finetune")
            run = dict(epochs=args.epochs, seed=0, device="auto", show_progress=False)
            with timed(f"fine-tune MiniLM, adversarial split, {args.epochs} epoch(s): cold", t):
                cold_ft = finetune.evaluate_split("minilm", pairs, split["train"], split["test"], **run)
            with timed(f"fine-tune MiniLM, adversarial split, {args.epochs} epoch(s): warm", t):
                warm_ft = finetune.evaluate_split("minilm", pairs, split["train"], split["test"], **run)
            pd.testing.assert_frame_equal(warm_ft["predictions"], cold_ft["predictions"])
            assert {k: v for k, v in warm_ft.items() if k != "predictions"} == {
                k: v for k, v in cold_ft.items() if k != "predictions"}
            print(f"{'':<58} rho on the adversarial pairs {cold_ft['rho_test_centred']:.3f} (centred), "
                  "warm identical", flush=True)
    if real_cache is None:
        os.environ.pop("COMPSEM_CACHE_DIR", None)
    else:
        os.environ["COMPSEM_CACHE_DIR"] = real_cache


if __name__ == "__main__":
    main()
