"""Multiple comparisons in the COGS chapters: the levels and adjustments that keep a family of
tests at a family-wise error rate (``alpha``, 5% by default).

- :func:`bonferroni_level` (the project's, :func:`compsem.stats.bonferroni_level`) -- the
  level of each of ``k`` intervals so that they cover together with at least ``1 - alpha``
  (Bonferroni): ``1 - alpha / k``; the chapter ``cogs-auxiliary`` decides its family of reduced
  glossing-minus-baseline contrasts so;
- :func:`sidak_level` (:func:`compsem.stats.sidak_level`) -- the same for ``k`` independent
  intervals, ``(1 - alpha) ** (1 / k)`` (Šidák 1967): the weakest of ``k`` runs (or run-by-split values), each with its own interval,
  as the chapter ``cogs-models`` decides claims about every run;
- :func:`holm` -- Holm's (1979) step-down adjustment of ``k`` p-values, which controls the
  family-wise error rate like Bonferroni's and rejects at least as much (statsmodels'
  ``multipletests(method="holm")``; statsmodels is not a dependency of the project).
"""

from __future__ import annotations

import numpy as np

from compsem import stats
from compsem.stats import ALPHA, bonferroni_level, sidak_level  # noqa: F401  (the project's, re-exported)


def holm(p_values) -> np.ndarray:
    """Holm's adjusted p-values, in the order given: the ``i``-th smallest p (from 1) is
    multiplied by ``k - i + 1``, capped at 1, and made non-decreasing in that order; a test is
    rejected at family-wise ``alpha`` when its adjusted p is at most ``alpha``. The adjustment is
    the project's (:func:`compsem.stats.holm`); here the p-values must all be in [0, 1]."""
    p = np.asarray(p_values, dtype=float).ravel()
    if not len(p) or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"holm needs one or more p-values in [0, 1], got {p_values!r}")
    return stats.holm(p)
