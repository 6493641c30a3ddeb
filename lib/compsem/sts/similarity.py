"""Sentence-pair similarity and its evaluation against human ratings (Fodor et al. 2025, §4.3).

Pure, numpy-vectorised functions:

- :func:`standardise`, :func:`pair_cosines`: the authors' protocol for vector models (§4.3):
  cosine between the two sentence embeddings; for transformers the embeddings are first
  "standardised", separately over the set of first sentences and the set of second sentences
  (the ``_norml`` files of Table 9). The paper describes per-feature z-scores; the authors' code
  divides by a per-*sentence* SD, which cancels in the cosine, so what reproduces their files is
  per-feature **centring** (``method="centre"``, the default; ``"zscore"`` is the paper's text).
- :func:`spearman`, :func:`table9_correlations`: Spearman rho against the human means, per
  Table 9 column (a boolean mask per column).
- :func:`bootstrap_spearman`, :func:`bootstrap_difference`: percentile bootstrap confidence
  intervals for rho and for the non-adversarial minus adversarial gap of Fig. 4, thin wrappers
  of :mod:`compsem.stats` (:func:`scipy.stats.bootstrap`; 1,000 resamples of 2,800 pairs in
  about 0.3 s); :func:`bootstrap_spearman_levels` and :func:`bootstrap_difference_levels` give
  the same intervals at several levels (a test's and its Bonferroni level in a union of tests)
  from one set of resamples (:func:`compsem.stats.bootstrap_levels`).
- :func:`word_overlap`: the authors' unreported "vocab" baseline (Jaccard of token sets), which
  their repository gives as STS3k .515/.760/.153 and SICK .563; reproduced with the authors'
  tokenisation of :func:`compsem.sts.composition.tokenise` (see :func:`word_overlap`).
- :func:`random_similarities`: a chance baseline.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np
from scipy import stats

from compsem import stats as cstats
from compsem.stats import BOOTSTRAP_RESAMPLES

EPS = 0.001
"""Added to the per-feature SD by ``method="zscore"`` against a zero SD: a guard of ours (§4.3
divides by the SD; the authors' code, behind the ``_norml`` files, divides by each sentence's SD)."""


# --------------------------------------------------------------------------- vectors


STANDARDISATIONS = ("centre", "zscore")


def standardise(embeddings, eps: float = EPS, method: str = "centre") -> np.ndarray:
    """Per-feature standardisation of one set of sentence embeddings (§4.3).

    ``method="zscore"``: ``(E - E.mean(axis=0)) / (E.std(axis=0) + eps)``, what §4.3 describes.
    ``method="centre"`` (default): ``E - E.mean(axis=0)``, what the authors' code effectively
    computed: it divides the centred embeddings by the SD of each *row* (``std(axis=1)``), a
    per-sentence factor that cancels in the cosine. Centring reproduces the published ``_norml``
    similarities of all-mpnet-base-v2 to 2e-6 and Table 9's SentBERT row exactly
    (.580/.866/.145); z-scores give .587/.867/.160. Apply it to the A-sentence set and the
    B-sentence set separately (:func:`pair_cosines` does so with ``standardised=True``).
    """
    if method not in STANDARDISATIONS:
        raise ValueError(f"method must be one of {STANDARDISATIONS}, not {method!r}")
    e = np.asarray(embeddings, dtype=float)
    if e.ndim != 2:
        raise ValueError(f"embeddings must be 2-D (n_sentences, dim), got shape {e.shape}")
    centred = e - e.mean(axis=0)
    return centred if method == "centre" else centred / (e.std(axis=0) + eps)


def pair_cosines(emb_a, emb_b, standardised: bool = False, eps: float = EPS,
                 method: str = "centre") -> np.ndarray:
    """Cosine similarity of row i of ``emb_a`` with row i of ``emb_b`` (§4.3).

    A zero vector (e.g. a sentence with no known word) gives cosine 0, as in VerbNet-CN (§4.6).
    With ``standardised=True`` each set is first passed through :func:`standardise` (``method``)
    on its own, as the authors did for the transformer rows of Table 9 (the ``_norml`` files).
    """
    a = np.asarray(emb_a, dtype=float)
    b = np.asarray(emb_b, dtype=float)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"emb_a and emb_b must be 2-D of equal shape, got {a.shape} and {b.shape}")
    if standardised:
        a, b = standardise(a, eps, method), standardise(b, eps, method)
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    dots = np.einsum("ij,ij->i", a, b)
    out = np.zeros(len(a))
    np.divide(dots, norms, out=out, where=norms > 0)
    return out


# --------------------------------------------------------------------------- correlations


def _finite_pairs(similarity, human, mask) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_select`, refusing NaN (a bootstrap interval of a NaN correlation means nothing)."""
    x, y = _select(similarity, human, mask)
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError("similarity or human contains NaN; select finite pairs with mask")
    return x, y


def _selected(clusters, mask) -> np.ndarray | None:
    """The cluster labels of the pairs in ``mask`` (None stays None: every pair its own cluster)."""
    if clusters is None or mask is None:
        return clusters
    return np.asarray(clusters)[np.asarray(mask, dtype=bool)]


def _select(similarity, human, mask) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(similarity, dtype=float)
    y = np.asarray(human, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"similarity and human must be 1-D of equal length, got {x.shape}, {y.shape}")
    if mask is not None:
        m = np.asarray(mask, dtype=bool)
        if m.shape != x.shape:
            raise ValueError(f"mask has shape {m.shape}, expected {x.shape}")
        x, y = x[m], y[m]
    return x, y


def spearman(similarity, human, mask=None, nan_policy: str = "propagate") -> float:
    """Spearman rho between model similarity and human similarity (§4.3, Table 9).

    Ties get average ranks, as in :func:`scipy.stats.spearmanr` (which this equals), with values
    equal to :data:`compsem.stats.TIE_DECIMALS` decimals read as ties (:func:`compsem.stats.tie_values`:
    mathematically equal similarities tie on every machine). ``mask``
    (boolean, one per pair) selects a Table 9 column such as STS3k-adv. ``nan_policy="omit"``
    drops pairs where either value is NaN; the default returns NaN if any is present.
    """
    x, y = _select(similarity, human, mask)
    if nan_policy == "omit":
        ok = np.isfinite(x) & np.isfinite(y)
        x, y = x[ok], y[ok]
    elif nan_policy != "propagate":
        raise ValueError(f"nan_policy must be 'propagate' or 'omit', not {nan_policy!r}")
    if len(x) < 2 or np.isnan(x).any() or np.isnan(y).any():
        return float("nan")
    x, y = cstats.tie_values(x), cstats.tie_values(y)
    return float(_rowwise_pearson(stats.rankdata(x)[None, :], stats.rankdata(y)[None, :])[0])


def table9_correlations(similarity, human, masks: Mapping[str, Iterable[bool]]) -> dict[str, float]:
    """One row of Table 9: ``{column: spearman(similarity, human, mask)}`` for each mask
    (e.g. ``{"STS3k-all": ..., "STS3k-non": ..., "STS3k-adv": ...}``)."""
    return {column: spearman(similarity, human, mask) for column, mask in masks.items()}


def _rowwise_pearson(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson r of each row of ``a`` with the same row of ``b`` (2-D, equal shapes)."""
    a = a - a.mean(axis=1, keepdims=True)
    b = b - b.mean(axis=1, keepdims=True)
    num = np.einsum("ij,ij->i", a, b)
    den = np.sqrt(np.einsum("ij,ij->i", a, a) * np.einsum("ij,ij->i", b, b))
    with np.errstate(invalid="ignore", divide="ignore"):
        return num / den


def bootstrap_spearman(similarity, human, mask=None, n_boot: int = BOOTSTRAP_RESAMPLES,
                       seed: int = 0, level: float = 0.95, clusters=None) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of :func:`spearman` (resampling pairs, or with
    ``clusters`` the clusters of pairs that share a sentence):
    :func:`compsem.stats.spearman_interval` with ``method="percentile"`` (BCa's jackknife costs
    time and memory ~ n^2, too much for SICK's ~10,000 pairs; at these n the two agree).

    Not in the paper; it puts an uncertainty on each Table 9 cell. Returns ``(low, high)``
    (:func:`bootstrap_spearman_levels` at one level).
    """
    return bootstrap_spearman_levels(similarity, human, mask, n_boot, seed, [level], clusters)[0]


def bootstrap_difference(similarity, human, mask_non, mask_adv, n_boot: int = BOOTSTRAP_RESAMPLES,
                         seed: int = 0, level: float = 0.95, clusters=None) -> tuple[float, float]:
    """Percentile bootstrap interval of rho(non) - rho(adv), the gap drawn in Fig. 4 (from
    Table 9, e.g. Mean-CN .800 - (-.291) = 1.091).

    The two portions are disjoint, so their pairs are resampled independently
    (the draws of :func:`compsem.stats.independent_spearman_difference`, ``method="percentile"``).
    Returns ``(low, high)`` (:func:`bootstrap_difference_levels` at one level).
    """
    return bootstrap_difference_levels(similarity, human, mask_non, mask_adv, n_boot, seed, [level], clusters)[0]


# --------------------------------------------------------------------------- several levels, one set of draws


def bootstrap_spearman_levels(similarity, human, mask=None, n_boot: int = BOOTSTRAP_RESAMPLES, seed: int = 0,
                              levels: Sequence[float] = (0.95,), clusters=None) -> list[tuple[float, float]]:
    """:func:`bootstrap_spearman` at each of ``levels`` from one set of resamples
    (:func:`compsem.stats.spearman_interval_levels`, percentile): ``[(low, high), ...]``, each
    equal to ``bootstrap_spearman`` at that level with the same seed. ``clusters`` (a label per
    pair, aligned with ``similarity``; :func:`compsem.data.shared_sentences.sentence_clusters`) resamples
    clusters of pairs instead of pairs."""
    x, y = _finite_pairs(similarity, human, mask)
    return cstats.spearman_interval_levels(x, y, None, n_boot, seed, levels, "percentile",
                                           _selected(clusters, mask))[1]


def bootstrap_difference_levels(similarity, human, mask_non, mask_adv, n_boot: int = BOOTSTRAP_RESAMPLES,
                                seed: int = 0, levels: Sequence[float] = (0.95,),
                                clusters=None) -> list[tuple[float, float]]:
    """:func:`bootstrap_difference` (the drop rho(non) - rho(adv), the portions resampled
    independently) at each of ``levels`` from one set of resamples
    (:func:`compsem.stats.independent_spearman_difference_levels`, percentile):
    ``[(low, high), ...]``, each equal to ``bootstrap_difference`` at that level with the same seed.
    ``clusters`` resamples clusters of pairs, stratified by the portions a cluster has pairs in
    (:func:`compsem.stats.independent_spearman_difference_levels`)."""
    if np.any(np.asarray(mask_non, dtype=bool) & np.asarray(mask_adv, dtype=bool)):
        raise ValueError("mask_non and mask_adv overlap; the portions must be disjoint")
    xn, hn = _finite_pairs(similarity, human, mask_non)
    xa, ha = _finite_pairs(similarity, human, mask_adv)
    return cstats.independent_spearman_difference_levels(xn, hn, xa, ha, n_boot, seed, levels, "percentile",
                                                         _selected(clusters, mask_non), _selected(clusters, mask_adv))[1]


# --------------------------------------------------------------------------- baselines


def word_overlap(sentences_a: Iterable[str], sentences_b: Iterable[str],
                 stopwords: Iterable[str] | None = None) -> np.ndarray:
    """Jaccard similarity of the two sentences' token sets: |A & B| / |A | B| (0 if both empty).

    The authors' "vocab" baseline, computed in their repository but not reported in the paper.
    Tokens come from :func:`compsem.sts.composition.tokenise` (lower-case, whitespace split, drop
    stop words, then delete punctuation characters). With the authors' 179 stop words this gives
    Spearman .5148/.7596/.1527 on STS3k all/non/adv and .5627 on SICK, i.e. the authors' .515/
    .760/.153 and .563. Tokenisations checked and rejected: no stop-word
    removal (.490/.728/.231 raw, .496/.752/.146 with punctuation stripped; SICK .569/.576), and
    case-sensitive tokens (.459/.724/.175). Stripping punctuation before or after dropping stop
    words, or only at token ends, or taking ``\\w+`` runs all round to the same three decimals
    on STS3k; the order of :func:`~compsem.sts.composition.tokenise` is the authors' code's.
    Dice gives the same ranks as Jaccard (it is a monotone function of it).
    """
    from compsem.sts.composition import tokenise

    stop = frozenset() if stopwords is None else frozenset(stopwords)
    out = []
    for a, b in zip(sentences_a, sentences_b, strict=True):
        sa, sb = set(tokenise(a, stop)), set(tokenise(b, stop))
        union = sa | sb
        out.append(len(sa & sb) / len(union) if union else 0.0)
    return np.asarray(out, dtype=float)


def random_similarities(n: int, seed: int = 0) -> np.ndarray:
    """``n`` uniform(0, 1) similarities: a chance baseline whose expected rho is 0."""
    return np.random.default_rng(seed).random(n)
