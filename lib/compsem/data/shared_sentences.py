"""Clusters of sentence pairs linked by shared sentences: the resampling units of every bootstrap
over the pairs of an STS dataset.

A similarity dataset often builds many pairs from one sentence: the 2,800 STS3k pairs (Fodor et
al. 2025) use 4,428 distinct sentences, and SICK pairs every sentence with several others. Pairs
that share a sentence share its wording, its parse and its reading by the raters, so they are not
independent draws; a bootstrap that resamples them one by one understates the uncertainty. The
book's bootstraps therefore resample the clusters defined here (a cluster bootstrap, Davison &
Hinkley 1997, §3.8; :func:`compsem.stats.resampling_units`). A pair has two sentences, so the
dependence is crossed, not nested; whole connected components as units are the conservative way
to respect it (a pigeonhole bootstrap over sentences, Owen 2007, would be the crossed design's).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components


def sentence_clusters(pairs: pd.DataFrame) -> np.ndarray:
    """The cluster of each pair of ``pairs`` (columns ``sentence_a`` and ``sentence_b``): pairs
    linked by a shared sentence, directly or through other pairs, form one cluster (the connected
    components of the graph joining each pair to its two sentences, matched as exact strings).
    Labels are integers numbered in order of each cluster's first pair. On STS3k, 1,429 of the
    2,800 pairs share a sentence with another pair, in 1,644 clusters of 1 to 27 pairs."""
    missing = [c for c in ("sentence_a", "sentence_b") if c not in pairs.columns]
    if missing:
        raise ValueError(f"pairs lacks the column(s) {missing}: sentence clusters need both sentences of each pair")
    n = len(pairs)
    sentences, _ = pd.factorize(pd.concat([pairs["sentence_a"], pairs["sentence_b"]], ignore_index=True))
    links = coo_matrix((np.ones(2 * n), (np.tile(np.arange(n), 2), n + sentences)),
                       shape=(n + sentences.max() + 1,) * 2)
    _, component = connected_components(links, directed=False)
    return pd.factorize(component[:n])[0]


def cluster_counts(pairs: pd.DataFrame, prefix: str) -> dict[str, int]:
    """The glued counts of :func:`sentence_clusters`: ``<prefix>_n_clusters``,
    ``<prefix>_n_pairs_sharing`` (pairs in a cluster of two or more), ``<prefix>_largest_cluster``
    (pairs in the largest) and, where ``pairs`` has a ``portion`` column (STS3k's),
    ``<prefix>_n_mixed_clusters``: the clusters with both non-adversarial and adversarial pairs
    (the third stratum of the bootstrap of a drop between the two portions,
    :func:`compsem.stats.independent_spearman_difference_levels`)."""
    clusters = sentence_clusters(pairs)
    sizes = np.bincount(clusters)
    counts = {f"{prefix}_n_clusters": len(sizes), f"{prefix}_n_pairs_sharing": int((sizes[clusters] > 1).sum()),
              f"{prefix}_largest_cluster": int(sizes.max())}
    if "portion" in pairs.columns:
        portion = np.asarray(pairs["portion"], dtype=str)
        counts[f"{prefix}_n_mixed_clusters"] = len(np.intersect1d(clusters[portion == "non"], clusters[portion == "adv"]))
    return counts


def cluster_table(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per dataset of ``frames`` (name -> its pairs): ``pairs``, ``clusters``, ``pairs
    sharing a sentence`` and ``largest cluster`` (:func:`cluster_counts`)."""
    rows = {}
    for name, pairs in frames.items():
        counts = cluster_counts(pairs, "x")
        rows[name] = {"pairs": len(pairs), "clusters": counts["x_n_clusters"],
                      "pairs sharing a sentence": counts["x_n_pairs_sharing"],
                      "largest cluster": counts["x_largest_cluster"]}
    return pd.DataFrame(rows).T.rename_axis("dataset")


def shares_sentence(pairs: pd.DataFrame, rows, other_rows) -> np.ndarray:
    """Whether each pair of ``rows`` (positions in ``pairs``) has a sentence that occurs in a pair
    of ``other_rows`` (e.g. a test pair whose sentence a training pair also holds)."""
    rows, other_rows = np.asarray(rows, dtype=int), np.asarray(other_rows, dtype=int)
    seen = pd.concat([pairs["sentence_a"].iloc[other_rows], pairs["sentence_b"].iloc[other_rows]])
    return (pairs["sentence_a"].iloc[rows].isin(seen) | pairs["sentence_b"].iloc[rows].isin(seen)).to_numpy()


def test_pairs_sharing(pairs: pd.DataFrame, splits: Mapping[str, Mapping[str, np.ndarray]]) -> float:
    """The share of test pairs that have a sentence of a training pair (:func:`shares_sentence`),
    averaged over ``splits`` (name -> split with ``train`` and ``test`` positions)."""
    return float(np.mean([shares_sentence(pairs, split["test"], split["train"]).mean() for split in splits.values()]))
