"""The beta weights of VerbNet-CN (Fodor et al. 2025, §4.6, step 8): re-derived from the
pilot data, and how much VerbNet-CN's STS3k-adv correlation depends on them.

**What the paper says (§4.6).** "The RoleSim weights beta_i were chosen using a separate pilot
dataset consisting of simple subject, verb, and object sentence pairs along with similarity
ratings provided by human participants. By rounding the estimated parameters from this pilot
data, we set the weight of 3 for the Verb and 2 for Agent, Patient, and Theme." The 0.5 of the
four minor roles was set "based on the intuition". The paper does not say how the parameters
were estimated (regression with or without intercept, which scale).

**The pilot data** (``Data-experiment/Fodor_pilot_2022.txt`` of the authors' repository, in the
data registry): 120 S-V-O pairs with a 0-1 similarity (:func:`load_pilot`), and the authors'
corrected VerbNet parses of them (``full_VerbNet_pass_Fodor_pilot_2022_mod.json``): every
sentence has exactly Agent, Verb and Patient, so the pilot data can only inform those three
weights (Theme's 2 copies Patient's). The authors published no role-wise similarities for the
pilot pairs, and ConceptNet Numberbatch is not available here, so RoleSims are recomputed with
substitute word vectors (:func:`pilot_role_similarities`).

**Derivation** (:func:`fit_pilot_betas`, our reading of "estimated parameters"): ordinary least
squares of the human score on the three RoleSims with an intercept
(:class:`sklearn.linear_model.LinearRegression`). Only the ratios of the betas matter to a
Spearman correlation (Eq. 2 with the fixed denominator is a positive rescaling of the weighted
sum), so the fitted coefficients are rescaled to the paper's total of the three core weights,
2 + 3 + 2 = 7, before comparing with the paper. The interval of each rescaled beta is a
percentile bootstrap over the 120 pilot pairs (:func:`scipy.stats.bootstrap`, paired rows).

**Sensitivity** (:func:`weight_sensitivity`, :func:`perturbed_rhos`): VerbNet-CN's Spearman rho
on STS3k-adv recomputed from the *published* ConceptNet RoleSims
(:func:`compsem.data.sts3k.load_rolewise_similarities`) under other weight vectors: uniform, core
roles only, the pilot fit, a least-squares fit on the non-adversarial STS3k pairs, and random
multiplicative perturbations of the paper's betas (each beta times exp(u), u uniform on
[-log f, log f], independently).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from compsem import stats as cstats
from compsem.data.sts3k import REPO, ROLES
from compsem.sts.hybrid import WEIGHTS, combine

PILOT = f"{REPO}/Data-experiment/Fodor_pilot_2022.txt"
"""The pilot pairs behind the betas (§4.6): ``sentence;sentence;score`` with the score in 0-1."""

PILOT_DATASET = "Fodor_pilot_2022"
"""Dataset name of the pilot's VerbNet parse files."""

CORE_ROLES = ("Agent", "Verb", "Patient")
"""The roles of the pilot's S-V-O sentences: the only betas the pilot data can estimate."""

MINOR_ROLES = ("Time", "Manner", "Location", "Trajectory")

CORE_TOTAL = sum(WEIGHTS[r] for r in CORE_ROLES)
"""2 + 3 + 2 = 7: the paper's total of the three core weights; fitted betas are rescaled to it."""


def load_pilot() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The 120 pilot pairs (``sentence_a``, ``sentence_b``, ``human`` in 0-1, index 0-119) and
    the authors' corrected VerbNet parses of them (stacked, as
    :func:`compsem.data.sts3k.load_verbnet_parses`)."""
    from compsem.data.registry import DataError
    from compsem.data.sts3k import load_verbnet_parses, read_pair_file

    pairs = read_pair_file(PILOT)
    parses = load_verbnet_parses("mod", dataset=PILOT_DATASET)
    ids = parses.index.get_level_values("pair_id").unique()
    if len(ids) != len(pairs) or ids.min() != 0 or ids.max() != len(pairs) - 1:
        raise DataError(f"{PILOT}: {len(pairs)} pairs but parses for pair ids {ids.min()}..{ids.max()} ({len(ids)})")
    pairs.index.name = "pair_id"
    return pairs, parses


def pilot_role_similarities(parses: pd.DataFrame, word_vectors, stopwords) -> pd.DataFrame:
    """RoleSims of the pilot pairs with ``word_vectors`` (mean of word vectors after stop-word
    removal, as VerbNet-CN); raises if a pair lacks one of :data:`CORE_ROLES`."""
    from compsem.sts.hybrid import role_similarities

    sims = role_similarities(parses, word_vectors=word_vectors, stopwords=stopwords)
    missing = sims[list(CORE_ROLES)].isna().sum()
    if missing.any():
        raise ValueError(f"pilot pairs without a core role similarity: {missing[missing > 0].to_dict()}")
    return sims


def _fit(x: np.ndarray, y: np.ndarray, fit_intercept: bool) -> tuple[np.ndarray, float, float]:
    from sklearn.linear_model import LinearRegression

    model = LinearRegression(fit_intercept=fit_intercept).fit(x, y)
    return model.coef_, float(model.intercept_), float(model.score(x, y))


def fit_pilot_betas(rolesims: pd.DataFrame, human, roles: Sequence[str] = CORE_ROLES,
                    fit_intercept: bool = True, total: float = CORE_TOTAL, n_resamples: int = cstats.BOOTSTRAP_RESAMPLES,
                    seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """Least-squares betas of ``roles`` from the pilot RoleSims, rescaled to sum to ``total``.

    Returns a frame indexed by role: ``coefficient`` (raw OLS), ``beta`` (rescaled),
    ``ci_low``/``ci_high`` (percentile bootstrap of the rescaled beta over pairs, ``n_resamples``
    draws, ``seed``), ``paper`` (the paper's beta). ``attrs``: ``intercept``, ``r2``, ``n``.
    """
    x = rolesims[list(roles)].to_numpy(dtype=float)
    y = np.asarray(human, dtype=float)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} rows of role similarities for {len(y)} human scores")
    coef, intercept, r2 = _fit(x, y, fit_intercept)
    if coef.sum() <= 0:
        raise ValueError(f"fitted coefficients sum to {coef.sum():.3f}; cannot rescale to a positive total")
    scaled = coef / coef.sum() * total

    def statistic(*columns_and_y):
        *cols, yy = columns_and_y
        c = _fit(np.column_stack(cols), yy, fit_intercept)[0]
        return c / c.sum() * total

    res = stats.bootstrap((*x.T, y), statistic, paired=True, vectorized=False, n_resamples=n_resamples,
                          confidence_level=level, method="percentile",
                          random_state=np.random.default_rng(seed))
    table = pd.DataFrame({"coefficient": coef, "beta": scaled,
                          "ci_low": res.confidence_interval.low, "ci_high": res.confidence_interval.high,
                          "paper": [WEIGHTS[r] for r in roles]}, index=pd.Index(list(roles), name="role"))
    table.attrs.update(intercept=intercept, r2=r2, n=int(len(y)))
    return table


def full_weights(core: Mapping[str, float], theme_from: str = "Patient", minor: float | None = None
                 ) -> dict[str, float]:
    """Eight betas from fitted core betas: Theme copies ``theme_from`` (the paper gives Theme the
    Patient weight, with no Theme in the pilot), the minor roles keep the paper's 0.5 (or ``minor``)."""
    weights = dict(WEIGHTS)
    weights.update({r: float(core[r]) for r in CORE_ROLES})
    weights["Theme"] = float(core[theme_from])
    if minor is not None:
        weights.update({r: float(minor) for r in MINOR_ROLES})
    return weights


def fit_sts3k_betas(rolesims: pd.DataFrame, human, mask) -> dict[str, float]:
    """Least-squares betas of all eight roles on the STS3k pairs in ``mask`` (missing RoleSim = 0,
    as in Eq. 2 with the fixed denominator), with intercept; used on the non-adversarial pairs
    only, so the adversarial pairs stay unseen."""
    x = rolesims[list(ROLES)].fillna(0.0).to_numpy(dtype=float)[np.asarray(mask, dtype=bool)]
    y = np.asarray(human, dtype=float)[np.asarray(mask, dtype=bool)]
    coef = _fit(x, y, True)[0]
    return dict(zip(ROLES, (float(c) for c in coef), strict=True))


def adv_rho(rolesims: pd.DataFrame, weights: Mapping[str, float], human, mask) -> float:
    """Spearman rho with ``human`` on ``mask`` of Eq. 2 (fixed denominator) with ``weights``."""
    sims = combine(rolesims, weights, denominator="fixed")
    mask = np.asarray(mask, dtype=bool)
    return cstats.spearman(sims[mask], np.asarray(human, dtype=float)[mask])


def weight_sensitivity(rolesims: pd.DataFrame, variants: Mapping[str, Mapping[str, float]], human, mask
                       ) -> pd.DataFrame:
    """For each named weight vector: its eight betas (rescaled so they sum to 11, only for display)
    and the Spearman rho of Eq. 2 with them on ``mask``. Rows in the order of ``variants``."""
    rows = {}
    for name, weights in variants.items():
        w = np.array([weights[r] for r in ROLES], dtype=float)
        row = dict(zip(ROLES, w / w.sum() * 11.0 if w.sum() > 0 else w, strict=True))
        row["rho"] = adv_rho(rolesims, weights, human, mask)
        rows[name] = row
    return pd.DataFrame(rows).T


def perturbed_rhos(rolesims: pd.DataFrame, human, mask, factor: float = 2.0, n_draws: int = 1000,
                   seed: int = 0, base: Mapping[str, float] = WEIGHTS) -> np.ndarray:
    """Spearman rho on ``mask`` for ``n_draws`` random perturbations of ``base``: every beta
    multiplied independently by exp(u), u ~ Uniform(-log ``factor``, log ``factor``) (``factor=2``:
    each weight anywhere between half and double the paper's)."""
    if factor < 1:
        raise ValueError(f"factor must be >= 1, got {factor}")
    rng = np.random.default_rng(seed)
    mask = np.asarray(mask, dtype=bool)
    x = rolesims[list(ROLES)].fillna(0.0).to_numpy(dtype=float)[mask]
    h = np.asarray(human, dtype=float)[mask]
    w0 = np.array([base[r] for r in ROLES], dtype=float)
    u = rng.uniform(-np.log(factor), np.log(factor), size=(n_draws, len(ROLES)))
    sims = x @ (w0 * np.exp(u)).T  # (n_pairs, n_draws); the fixed denominator does not change ranks
    return np.array([cstats.spearman(sims[:, k], h) for k in range(n_draws)])
