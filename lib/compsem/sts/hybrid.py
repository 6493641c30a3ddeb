"""VerbNet-CN (Fodor et al. 2025, §4.6, Eq. 2): role-wise similarity of VerbNet role parses.

Re-implemented from the paper and the authors' code and published data
(bmmlab/compositional-semantics-eval). Each sentence is parsed into eight roles (:data:`ROLES`:
Agent, Verb, Patient, Theme, Time, Manner, Location, Trajectory; the published parses are
:func:`compsem.data.sts3k.load_verbnet_parses`).

1. **Role embedding** (:func:`role_vectors`): the mean of the word vectors of the role phrase
   after stop-word removal (tokens by :func:`compsem.sts.composition.tokenise`, vectors by
   :func:`compsem.sts.composition.lookup`, i.e. with the WordNet verb-lemma fallback). A phrase
   with no known word gets the zero vector, whose cosine with anything is 0 (not NaN).
   Alternatively :func:`role_similarities` with ``encoder=`` embeds each role phrase with a
   sentence encoder: ``encoder="minilm"`` on the raw phrases (no stop-word removal) reproduces
   the ``"sentbert"`` model of the authors' role-wise JSON (max abs difference 4e-7).
2. **RoleSim** (:func:`role_similarities`): cosine of the two sentences' embeddings of a role
   present in both; NaN when a role is missing from either sentence, after
3. **cross-role alignment** (:func:`align`) over :data:`ALIGNMENTS`, in that order. A pair
   (A, B) is aligned only when one sentence has A but not B and the other has B but not A. The
   similarity of the A phrase of the one with the B phrase of the other is stored under **A**
   (the first role of the pair); B stays NaN. The B role of the sentence that had it is then
   *consumed* (counts as absent for the later pairs of the list); the A slot is not filled.
   If a later pair aligns onto the same A again, the later comparison overwrites the earlier
   one (39 STS3k cells; with GloVe the later comparison correlates .67 with the published
   ConceptNet value, the earlier .10). This state rule reproduces the NaN pattern of the
   authors' published role-wise JSON on all 2,800 pairs (checking each pair against the
   original parses instead gets 99.0 %).
4. **Combination** (:func:`combine`, Eq. 2): ``sum_i beta_i RoleSim_i`` over the non-NaN roles,
   divided by the constant 11 = sum of all betas (``denominator="fixed"``: the authors'
   "fixedparms_basic", Table 9; Eq. 2 up to a constant, which changes no rank) or by the sum of
   the betas of the roles present (``"present"``, an average over the roles present, which Eq. 2
   is not). Both published files
   ``verbnet_fixedparms_*`` and ``verbnet_conceptnet_fixedparms_*`` (identical) come from the
   ``"conceptnet"`` role-wise model. The authors' unreported "norm" file additionally
   counts beta_B of each aligned pair in which sentence *a* held B (an asymmetry of their code,
   found from the data): :func:`authors_norm_extra` gives that per-pair addend.

:func:`paired_comparisons` tests Table 9's central contrast (each hybrid against the best rival
on STS3k-adv) pair by pair with :func:`compsem.stats.paired_spearman_difference`; where the
weights come from and how much they matter is :mod:`compsem.sts.weights`.

Weights :data:`WEIGHTS` are the paper's (§4.6, step 8): Verb 3 and Agent, Patient, Theme 2,
"rounding the estimated parameters from this pilot data"; Time, Manner, Location, Trajectory
0.5, set "based on the intuition"; none fitted to STS3k.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from compsem.data.sts3k import ROLES
from compsem.stats import BOOTSTRAP_RESAMPLES
from compsem.sts.composition import lookup, tokenise

WEIGHTS: dict[str, float] = {
    "Agent": 2.0, "Verb": 3.0, "Patient": 2.0, "Theme": 2.0,
    "Time": 0.5, "Manner": 0.5, "Location": 0.5, "Trajectory": 0.5,
}
"""beta of Eq. 2 (§4.6); they sum to 11."""

FIXED_DENOMINATOR = 11.0
"""The authors' constant denominator (= sum of :data:`WEIGHTS`)."""

ALIGNMENTS: tuple[tuple[str, str], ...] = (
    ("Location", "Trajectory"),
    ("Theme", "Patient"),
    ("Theme", "Manner"),
    ("Manner", "Trajectory"),
    ("Patient", "Location"),
    ("Patient", "Manner"),
)
"""Cross-role alignments (A, B), tried in this order; an aligned similarity is stored under A.
The paper's own example (Agent/Patient, §4.6 step 6) is not in the authors' list."""

DENOMINATORS = ("fixed", "present")


# --------------------------------------------------------------------------- parses


def _is_present(value) -> bool:
    if value is None:
        return False
    if isinstance(value, float) and np.isnan(value):
        return False
    return not (isinstance(value, str) and value.strip().upper() in ("", "NONE", "NA"))


def split_parses(parses: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A stacked parse frame (index (pair_id, sentence "a"/"b"), as
    :func:`compsem.data.sts3k.load_verbnet_parses`) -> (frame of sentence a, frame of b),
    each indexed by pair_id with the :data:`ROLES` columns."""
    if not isinstance(parses.index, pd.MultiIndex) or "sentence" not in parses.index.names:
        raise ValueError("expected an index (pair_id, sentence); pass parses_a and parses_b instead")
    a = parses.xs("a", level="sentence")[list(ROLES)]
    b = parses.xs("b", level="sentence")[list(ROLES)]
    if not a.index.equals(b.index):
        raise ValueError("sentences a and b cover different pair_ids")
    return a, b


def _pair_frames(parses_a, parses_b) -> tuple[pd.DataFrame, pd.DataFrame]:
    if parses_b is None:
        return split_parses(parses_a)
    a, b = pd.DataFrame(parses_a), pd.DataFrame(parses_b)
    missing = [r for r in ROLES if r not in a.columns or r not in b.columns]
    if missing:
        raise ValueError(f"parses lack the role columns {missing}")
    if len(a) != len(b):
        raise ValueError(f"parses_a has {len(a)} rows, parses_b {len(b)}")
    return a[list(ROLES)], b[list(ROLES)]


def presence(parses: pd.DataFrame) -> np.ndarray:
    """Boolean (n_rows, 8): which roles a parse fills (None, NaN, '', 'NONE', 'NA' = absent)."""
    return np.array([[_is_present(v) for v in row] for row in parses[list(ROLES)].itertuples(index=False)],
                    dtype=bool).reshape(len(parses), len(ROLES))


# --------------------------------------------------------------------------- alignment


def align(present_a: Sequence[bool], present_b: Sequence[bool],
          alignments: Iterable[tuple[str, str]] = ALIGNMENTS) -> tuple[dict[str, tuple[str, str]], float]:
    """The comparisons of one pair after cross-role alignment.

    ``present_a``/``present_b``: 8 booleans (in :data:`ROLES` order) or a mapping role -> bool.
    Returns ``(plan, extra)``: ``plan`` maps each role that gets a RoleSim to
    ``(role of sentence a, role of sentence b)`` to compare (``(r, r)`` for a role in both; for
    an aligned pair (A, B) stored under A: ``(A, B)`` or ``(B, A)``); ``extra`` is the addend of
    the authors' "norm" denominator (beta_B for each alignment where sentence a held B).
    """
    def as_dict(p):
        return dict(p) if isinstance(p, Mapping) else dict(zip(ROLES, (bool(x) for x in p), strict=True))

    a, b = as_dict(present_a), as_dict(present_b)
    plan: dict[str, tuple[str, str]] = {}
    extra = 0.0
    for role_a, role_b in alignments:
        if a[role_a] and not a[role_b] and b[role_b] and not b[role_a]:
            plan[role_a] = (role_a, role_b)
            b[role_b] = False  # consumed
        elif a[role_b] and not a[role_a] and b[role_a] and not b[role_b]:
            plan[role_a] = (role_b, role_a)
            a[role_b] = False
            extra += WEIGHTS[role_b]
    for role in ROLES:
        if a[role] and b[role]:
            plan[role] = (role, role)
    return plan, extra


def alignment_plans(parses_a, parses_b=None) -> tuple[list[dict[str, tuple[str, str]]], np.ndarray]:
    """:func:`align` for every pair: (list of plans, array of authors' "norm" addends)."""
    a, b = _pair_frames(parses_a, parses_b)
    pa, pb = presence(a), presence(b)
    plans, extras = [], np.zeros(len(a))
    for i in range(len(a)):
        plans_i, extras[i] = align(pa[i], pb[i])
        plans.append(plans_i)
    return plans, extras


def authors_norm_extra(parses_a, parses_b=None) -> np.ndarray:
    """Per pair, what the authors' "norm" file adds to the sum of present betas (see module doc)."""
    return alignment_plans(parses_a, parses_b)[1]


# --------------------------------------------------------------------------- embeddings


def phrase_vector(phrase, word_vectors, stopwords: Iterable[str] = (), lemmatise="wordnet",
                  cache: dict | None = None) -> np.ndarray | None:
    """Mean word vector of a role phrase after stop-word removal; the zero vector when no word
    is known; None when the role is absent."""
    if not _is_present(phrase):
        return None
    vectors = []
    for token in tokenise(str(phrase), stopwords):
        if cache is not None and token in cache:
            v = cache[token]
        else:
            v = lookup(token, word_vectors, lemmatise=lemmatise)[0]
            if cache is not None:
                cache[token] = v
        if v is not None:
            vectors.append(v)
    if vectors:
        return np.mean(vectors, axis=0)
    dim = getattr(word_vectors, "dim", None)
    if dim is None:
        raise ValueError("a phrase with no known word needs word_vectors.dim for its zero vector")
    return np.zeros(dim)


def role_vectors(parses: pd.DataFrame, word_vectors, stopwords: Iterable[str] = (),
                 lemmatise="wordnet") -> tuple[np.ndarray, np.ndarray]:
    """(n_rows, 8, d) role embeddings and the (n_rows, 8) presence mask; absent roles are 0."""
    stop = frozenset(stopwords)
    mask = presence(parses)
    dim = getattr(word_vectors, "dim", None)
    cache: dict = {}
    rows = parses[list(ROLES)].itertuples(index=False)
    out = None
    for i, row in enumerate(rows):
        for j, phrase in enumerate(row):
            v = phrase_vector(phrase, word_vectors, stop, lemmatise, cache) if mask[i, j] else None
            if v is None:
                continue
            if out is None:
                out = np.zeros((len(parses), len(ROLES), len(v)))
            out[i, j] = v
    if out is None:
        out = np.zeros((len(parses), len(ROLES), dim or 0))
    return out, mask


def encoder_role_vectors(parses: pd.DataFrame, encoder, stopwords: Iterable[str] | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Extension: each role phrase embedded by a sentence encoder (``compsem.models`` name such
    as ``"minilm"`` or an encoder object), via :func:`compsem.models.cached_encode`. With
    ``stopwords`` the phrase is first reduced to its non-stop-word tokens (a phrase left empty
    gets the zero vector)."""
    from compsem.models import cached_encode, get_encoder

    enc = get_encoder(encoder) if isinstance(encoder, str) else encoder
    mask = presence(parses)
    values = parses[list(ROLES)].to_numpy(dtype=object)
    texts = {}
    for i, j in zip(*np.nonzero(mask), strict=True):
        text = str(values[i, j]).strip()
        if stopwords is not None:
            text = " ".join(tokenise(text, stopwords))
        texts[(i, j)] = text
    unique = sorted({t for t in texts.values() if t})
    emb = np.asarray(cached_encode(enc, unique), dtype=float) if unique else np.zeros((0, 1))
    row_of = {t: k for k, t in enumerate(unique)}
    out = np.zeros((len(parses), len(ROLES), emb.shape[1]))
    for (i, j), text in texts.items():
        if text:
            out[i, j] = emb[row_of[text]]
    return out, mask


def _cos(u: np.ndarray, v: np.ndarray) -> float:
    n = float(np.linalg.norm(u) * np.linalg.norm(v))
    return float(u @ v) / n if n > 0 else 0.0


def role_similarities(parses_a, parses_b=None, word_vectors=None, stopwords: Iterable[str] = (),
                      encoder=None, lemmatise="wordnet", alignments=ALIGNMENTS) -> pd.DataFrame:
    """RoleSims of every pair: frame (index pair_id = parses_a's index, one column per role),
    NaN where a role is missing from either sentence, cross-role alignment applied.

    Pass the stacked frame of :func:`compsem.data.sts3k.load_verbnet_parses` as ``parses_a``
    alone, or two frames with the :data:`ROLES` columns. Embed roles with ``word_vectors`` (mean
    of word vectors after ``stopwords`` removal) or with ``encoder`` (a sentence encoder applied
    to the role phrase; stop words removed only if ``stopwords`` is non-empty).
    """
    a, b = _pair_frames(parses_a, parses_b)
    if (word_vectors is None) == (encoder is None):
        raise ValueError("pass exactly one of word_vectors or encoder")
    if encoder is not None:
        stop = frozenset(stopwords) or None
        va, ma = encoder_role_vectors(a, encoder, stop)
        vb, mb = encoder_role_vectors(b, encoder, stop)
    else:
        va, ma = role_vectors(a, word_vectors, stopwords, lemmatise)
        vb, mb = role_vectors(b, word_vectors, stopwords, lemmatise)
    col = {r: j for j, r in enumerate(ROLES)}
    out = np.full((len(a), len(ROLES)), np.nan)
    for i in range(len(a)):
        plan, _ = align(ma[i], mb[i], alignments)
        for stored, (ra, rb) in plan.items():
            out[i, col[stored]] = _cos(va[i, col[ra]], vb[i, col[rb]])
    return pd.DataFrame(out, index=a.index, columns=list(ROLES))


# --------------------------------------------------------------------------- combination


def combine(rolesims, weights: Mapping[str, float] = WEIGHTS, denominator: str = "fixed",
            extra=None) -> np.ndarray:
    """Eq. 2: sentence similarity from RoleSims (frame or (n, 8) array in :data:`ROLES` order).

    ``denominator="fixed"``: sum(beta * RoleSim over non-NaN roles) / sum(all betas) (= 11, the
    authors' Table 9 "fixedparms_basic"); ``"present"``: divided by the sum of the betas of the
    non-NaN roles (NaN for a pair without any). ``extra`` (per pair, e.g.
    :func:`authors_norm_extra`) is added to the "present" denominator.
    """
    if denominator not in DENOMINATORS:
        raise ValueError(f"denominator must be one of {DENOMINATORS}, not {denominator!r}")
    if isinstance(rolesims, pd.DataFrame):
        x = rolesims[list(ROLES)].to_numpy(dtype=float)
    else:
        x = np.asarray(rolesims, dtype=float)
        if x.ndim == 1:
            x = x[None, :]
    if x.shape[1] != len(ROLES):
        raise ValueError(f"expected {len(ROLES)} role columns, got {x.shape[1]}")
    w = np.array([weights[r] for r in ROLES], dtype=float)
    ok = ~np.isnan(x)
    numerator = np.where(ok, x * w, 0.0).sum(axis=1)
    if denominator == "fixed":
        if extra is not None:
            raise ValueError("extra only applies to denominator='present'")
        return numerator / w.sum()
    den = np.where(ok, w, 0.0).sum(axis=1)
    if extra is not None:
        den = den + np.asarray(extra, dtype=float)
    out = np.full(len(x), np.nan)
    np.divide(numerator, den, out=out, where=den > 0)
    return out


def verbnet_cn(parses, word_vectors=None, stopwords: Iterable[str] | None = None, encoder=None,
               denominator: str = "fixed", weights: Mapping[str, float] = WEIGHTS) -> np.ndarray:
    """VerbNet-CN similarities of all pairs of a stacked parse frame (default: the authors'
    stop words and the fixed denominator)."""
    if stopwords is None:
        from compsem.data.sts3k import load_stopwords

        stopwords = load_stopwords()
    sims = role_similarities(parses, word_vectors=word_vectors, stopwords=stopwords, encoder=encoder)
    return combine(sims, weights, denominator)


# --------------------------------------------------------------------------- paired comparisons


def paired_comparisons(candidates: Mapping[str, np.ndarray], rivals: Mapping[str, np.ndarray], human,
                       mask=None, n_resamples: int = BOOTSTRAP_RESAMPLES, seed: int = 0, level: float = 0.95,
                       family: int = 1, members: Collection[str] | None = None, clusters=None) -> pd.DataFrame:
    """The paper's central contrast as paired tests (Table 9, STS3k-adv: "hybrids above every
    transformer"): for each candidate (e.g. VerbNet-CN, AMR-CN) the best rival on ``mask`` (the
    highest Spearman rho with ``human``), and the paired difference of the two, as
    :func:`compsem.stats.paired_spearman_difference` (paired bootstrap interval of
    rho_candidate - rho_rival over pairs at ``level``, BCa, its bootstrap p, and Williams' t and p,
    which take the pairs as independent and are shown for comparison only;
    over ``clusters`` of pairs that share a sentence where given,
    :func:`compsem.data.shared_sentences.sentence_clusters`).

    Returns a frame indexed by candidate: ``rival``, ``rho_candidate``, ``rho_rival``,
    ``difference``, ``ci_low``, ``ci_high``, ``p``, ``williams_t``, ``williams_p``, ``n``,
    ``n_units`` (the resampled clusters; numbers as floats). ``family`` = k > 1 ("some candidate below its rival" is a union of k
    tests, :mod:`compsem.sts.families`, whose candidates are ``members``, by default all): also
    ``bonf<k>_ci_low`` and ``bonf<k>_ci_high``, the interval at Bonferroni's level
    ``1 - (1 - level) / k``, for the members only (NaN for a candidate outside the union). A
    candidate's levels are read from one set of resamples
    (:func:`compsem.stats.paired_spearman_difference_levels`). More members than k would
    under-correct the union, so it is an error; fewer (a reduced run's smaller family) only
    make the intervals conservative.
    """
    from compsem.stats import bonferroni_level, paired_spearman_difference_levels, spearman

    unknown = sorted(set(members or ()) - set(candidates))
    if unknown:
        raise ValueError(f"paired_comparisons: members {unknown} are not candidates "
                         f"({sorted(candidates)}); name members among the candidates")
    union = sorted(set(candidates if members is None else members))
    if family > 1 and len(union) > family:
        raise ValueError(f"paired_comparisons: {len(union)} members {union} in a union sized "
                         f"family={family}; the Bonferroni level would be too loose. Set family to "
                         f"the number of members (compsem.sts.families.UNION_FAMILIES) or name fewer "
                         f"members")
    keep = np.ones(len(np.asarray(human)), dtype=bool) if mask is None else np.asarray(mask, dtype=bool)
    h = np.asarray(human, dtype=float)
    rival_rho = {name: spearman(np.asarray(v, dtype=float)[keep], h[keep])
                 for name, v in rivals.items()}
    best = max(sorted(rival_rho), key=rival_rho.get)
    in_family = set(candidates if members is None else members) if family > 1 else set()
    rows = {}
    for name, values in candidates.items():
        levels = [level, bonferroni_level(family, 1 - level)] if name in in_family else [level]
        res = paired_spearman_difference_levels(values, rivals[best], human, mask=keep, n_resamples=n_resamples,
                                                seed=seed, levels=levels, clusters=clusters)
        rows[name] = {"rival": best, "rho_candidate": res["rho_a"], "rho_rival": res["rho_b"],
                      "difference": res["difference"], "ci_low": res["ci_low"], "ci_high": res["ci_high"],
                      "p": res["p"], "williams_t": res["williams_t"], "williams_p": res["williams_p"],
                      "n": res["n"], "n_units": res["n_units"]}
        if family > 1:
            low, high = res["intervals"][1] if name in in_family else (np.nan, np.nan)
            rows[name] |= {f"bonf{family}_ci_low": low, f"bonf{family}_ci_high": high}
    table = pd.DataFrame(rows).T.rename_axis("candidate")
    numeric = [c for c in table.columns if c != "rival"]
    table[numeric] = table[numeric].astype(float)
    return table
