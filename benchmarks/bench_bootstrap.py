"""Timings of the STS3k bootstraps, by pair and by cluster of pairs that share a sentence;
prints its figures (no assertions).

    .venv/bin/python benchmarks/bench_bootstrap.py          # needs COMPSEM_DATA_DIR or network

- Spearman's rho of 2,000 resamples of the 1,664 adversarial pairs
  (:func:`compsem.stats.spearman_of_resamples`), by pair and by cluster;
- a percentile interval of rho (Table 9's STS3k-adv cell) and a paired BCa interval of a
  difference (hybrid minus transformer), by pair and by cluster: BCa's jackknife leaves out one
  pair, or one cluster, at a time.
"""

from __future__ import annotations

import time
from contextlib import contextmanager


@contextmanager
def timed(label: str):
    start = time.perf_counter()
    yield
    print(f"{label:<66} {time.perf_counter() - start:8.3f} s", flush=True)


def main() -> None:
    import numpy as np

    from compsem import stats
    from compsem.data import shared_sentences, sts3k

    pairs = sts3k.load_pairs()
    adv = sts3k.portion_mask(pairs, "adv")
    human = pairs["human"].to_numpy()
    clusters = shared_sentences.sentence_clusters(pairs)
    verbnet = sts3k.load_published_similarities("verbnet_fixedparms_basic")  # Table 9's VerbNet-CN
    defsent = sts3k.load_published_similarities("defsent_cls_norml")
    x, h = stats.tie_values(verbnet[adv]), stats.tie_values(human[adv])
    units = stats.resampling_units(clusters[adv], len(h))
    print(f"{int(adv.sum())} adversarial pairs in {units.max() + 1} clusters")
    rng = np.random.default_rng(0)
    by_pair = rng.integers(0, len(h), size=(2000, len(h)))
    by_cluster = rng.integers(0, units.max() + 1, size=(2000, units.max() + 1))
    with timed("rho of 2,000 resamples, by pair"):
        stats.spearman_of_resamples(x, h, by_pair)
    with timed("rho of 2,000 resamples, by cluster"):
        stats.spearman_of_resamples(x, h, by_cluster, units)
    for name, c in (("by pair", None), ("by cluster", clusters)):
        with timed(f"percentile interval of rho, 2,000 resamples, {name}"):
            stats.spearman_interval(verbnet, human, adv, 2000, 0, method="percentile", clusters=c)
        with timed(f"paired BCa interval of a difference, 2,000 resamples, {name}"):
            stats.paired_spearman_difference(verbnet, defsent, human, adv, 2000, 0, clusters=c)


if __name__ == "__main__":
    main()
