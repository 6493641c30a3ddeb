"""Datasets: a checksummed registry (:mod:`compsem.data.registry`) and typed loaders per study.

>>> from compsem.data import sts3k
>>> pairs = sts3k.load_pairs()          # 2,800 rows: sentence_a, sentence_b, human, portion
"""

from compsem.data.registry import DataError, fetch

__all__ = ["DataError", "fetch"]
