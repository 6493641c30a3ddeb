"""Datasets: a checksummed registry (:mod:`compsem.data.registry`) and typed loaders per study.

>>> from compsem.data import sts3k, sts_benchmarks
>>> pairs = sts3k.load_pairs()          # 2,800 rows: sentence_a, sentence_b, human, portion
>>> sts3k.load_published_similarities("sentbert_mpnet_norml")   # the authors' Table 9 inputs
>>> sts_benchmarks.load_processed("sick")                        # Table 9's other columns

Modules: :mod:`~compsem.data.registry` (fetch + verify), :mod:`~compsem.data.sts3k` (pairs,
participant ratings, published similarities and parses), :mod:`~compsem.data.sts_benchmarks`
(STS Benchmark, SICK, STSS-131 and the authors' processed copies). COGS, the probing sets and
the adjective lists are in the registry; their loaders come with their chapters.
"""

from compsem.data.registry import DataError, fetch

__all__ = ["DataError", "fetch"]
