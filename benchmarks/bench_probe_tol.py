"""What the L-BFGS tolerance of the 2016 probe costs and changes; prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_probe_tol.py [--seeds 0] [--tols 1e-2 1e-3 1e-4 1e-5] [--encoders ...]

:func:`compsem.probing.classifiers.logreg_cv` stops L-BFGS at ``tol = 1e-4`` by default
(scikit-learn's; the chapter stopped at 1e-2 before this benchmark measured what that changed). This
benchmark fits the probing chapter's 2016 grid (its five tasks, its encoders, the default sizes
of 1,000 train and 500 test sentences, the sets of ``--seeds``) once per tolerance, with the fit
cache off, and prints for every cell: the seconds of each fit, the test accuracy at each
tolerance, the C that cross-validation chose, and how many of the 500 test items are predicted
differently from the tightest tolerance. The last lines sum it up: the largest change in
accuracy (points), the cells whose C differs, and the total seconds per tolerance.

The process runs under the chapters' numerics (:data:`compsem.determinism.KERNEL_ENV`, set by
re-executing itself) so that sentence vectors and the trained SDAE come from the caches the
chapter filled (a first run encodes and trains them). Threads are fixed to one, as in the chapter.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--tols", type=float, nargs="+", default=[1e-2, 1e-3, 1e-4, 1e-5])
    parser.add_argument("--encoders", nargs="+", default=None,
                        help="default: the chapter's encoders of each task")
    args = parser.parse_args()
    from compsem import determinism

    if any(os.environ.get(k) != v for k, v in determinism.KERNEL_ENV.items()):
        os.execve(sys.executable, [sys.executable, *sys.argv],
                  {**os.environ, **determinism.KERNEL_ENV})
    os.environ["COMPSEM_FIT_CACHE"] = "0"

    import numpy as np

    from compsem.probing import chapter as C
    from compsem.probing import classifiers, evaluate, features, lexicon

    C.limit_threads(1)
    lex = lexicon.load()
    frames = C.frames_2016(1000, 500, 0, lex)
    lexical = ["random", "bow", "glove50", "spacy-md", "sdae", "minilm"]
    tols = sorted(args.tols, reverse=True)
    tightest = tols[-1]
    print(f"2016 probe, L-BFGS tolerances {tols}; seeds {args.seeds}; fit cache off", flush=True)
    print(f"{'task':<16}{'encoder':<10}{'seed':>5}" + "".join(
        f"{'s@' + format(t, 'g'):>9}{'acc@' + format(t, 'g'):>10}{'C':>8}{'diff':>6}" for t in tols))
    seconds = {t: 0.0 for t in tols}
    largest, c_changes, cells = 0.0, 0, 0
    for task, frame_of in frames.items():
        encoders = args.encoders or (lexical if task in ("has-school", "has-human")
                                     else lexical + ["mpnet"])
        for seed in args.seeds:
            items = frame_of(seed)
            train = (items["split"] == "train").to_numpy()
            test = (items["split"] == "test").to_numpy()
            y = items["label"].to_numpy().astype(int)
            P = features.probe_features(items, random=False, seed=seed)
            for encoder in encoders:
                S, rows = evaluate.sentence_vectors(items, encoder, seed=seed)
                X = np.hstack([S[rows], P])
                fits = {}
                for t in tols:
                    start = time.perf_counter()
                    fits[t] = classifiers.logreg_cv(X[train], y[train], X[test], y[test],
                                                    seed=seed, tol=t)
                    fits[t] = (fits[t], time.perf_counter() - start)
                    seconds[t] += fits[t][1]
                reference = fits[tightest][0]
                line = f"{task:<16}{encoder:<10}{seed:>5}"
                for t in tols:
                    fit, spent = fits[t]
                    differ = int((fit.predictions != reference.predictions).sum())
                    line += f"{spent:>9.2f}{100 * fit.accuracy:>10.1f}{fit.C:>8.3g}{differ:>6}"
                    largest = max(largest, abs(100 * (fit.accuracy - reference.accuracy)))
                    c_changes += fit.C != reference.C
                print(line, flush=True)
                cells += 1
    print(f"cells: {cells}; largest accuracy change against tol {tightest:g}: {largest:.1f} points; "
          f"fits whose C differs from it: {c_changes}")
    print("seconds per tolerance: " + ", ".join(f"{t:g}: {s:.0f}" for t, s in seconds.items()))


if __name__ == "__main__":
    main()
