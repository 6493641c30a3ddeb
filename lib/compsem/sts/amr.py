"""AMR-based sentence similarity (Fodor et al. 2025, §4.4 AMR-SMATCH and §4.6 AMR-CN).

Re-implemented from the paper (§4.4, §4.6, Eq. 3) and the authors' code in their repository
(bmmlab/compositional-semantics-eval; AMR-CN from its initial commit); the SPRING parses are
:func:`compsem.data.sts3k.load_amr_parses`.

- :func:`parse_amr`: a PENMAN string (``# ::snt`` comments allowed) -> ``penman.Tree``.
- :func:`role_paths`: every node of the tree keyed by the concatenated path of role labels from
  the root: the root is ``.MAIN``, its ``:ARG0`` child ``.MAIN.:ARG0``, that child's ``:mod``
  ``.MAIN.:ARG0.:mod``. The value is the node's concept (internal nodes included: the authors'
  published AMR-CN values are non-zero for pairs whose leaves share no path, so their
  "leaf concept" is the filler of a path, not only childless nodes). A constant is its value
  without quotes. A re-entrant reference (``:poss z2``) is left as the variable name, as the
  authors' values require (it then only string-matches the same variable name in the other
  graph; with resolution to the concept 2 of the 611 pairs whose shared fillers are all
  identical strings disagree with the published file, without it none do);
  ``resolve_reentrancies=True`` gives the concept instead. Two branches with the same path
  (e.g. two ``:mod``) collide: the later one wins, as in a Python dict.
- :func:`amr_cn`: for each path in both graphs, strip the PropBank sense suffix (``-01``),
  lemmatise as a WordNet verb, take the cosine of the two fillers' word vectors, or 1/0 string
  identity when either has no vector; similarity = 2 * sum / (n_paths_a + n_paths_b) (Dice-style).
- :func:`smatch_authors`: **the authors' AMR-SMATCH** = number of matched triples of the best
  Smatch alignment / 12 (their code uses amrlib's ``match_pair(...)[0] / 12``), not F1.
  A second quirk, found from the data: the graphs reached smatch as the multi-line PENMAN
  strings (comment lines dropped), and ``smatch``'s line parser then keeps the line break in the
  concept of every node that has children (``('instance', 'a0', 'remember-01\n')``). An
  instance triple therefore matches only between two internal or two leaf nodes. With
  ``layout="authors"`` (the default of :func:`smatch_authors`) the published matched-triple
  counts are reproduced for 99.3% of the 2,800 pairs (Smatch's randomised search leaves the rest
  one triple apart; the chapter glues the share); the one-line form (``layout="one_line"``, the default of :func:`smatch_f1`)
  matches 1 to 3 more triples on about 23 % of pairs.
- :func:`smatch_f1`: the standard Smatch F1 (Cai & Knight 2013), for comparison.

Smatch's hill climbing restarts randomly and the ``smatch`` package reseeds Python's global
``random`` from the OS inside every restart; :func:`smatch_counts` therefore runs it with a private
``random.Random`` whose argument-less ``seed()`` is ignored, so a ``seed`` makes it deterministic.
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
from collections.abc import Callable, Iterable

import numpy as np

ROOT = ".MAIN"
SMATCH_DIVISOR = 12.0
"""The authors' constant divisor of the matched-triple count (AMR-SMATCH)."""

_SENSE = re.compile(r"-\d+$")


# --------------------------------------------------------------------------- parsing


def parse_amr(penman_string: str):
    """A PENMAN graph string (metadata comments allowed) -> ``penman.Tree``."""
    import penman

    return penman.parse(penman_string)


def _tree(graph):
    return parse_amr(graph) if isinstance(graph, str) else graph


def _concepts(node, out: dict) -> None:
    var, branches = node
    for role, target in branches:
        if role == "/":
            out[var] = target
        elif isinstance(target, tuple):
            _concepts(target, out)


def variables(graph) -> set[str]:
    """The node variables of a graph (PENMAN string or tree)."""
    concepts: dict[str, str] = {}
    _concepts(_tree(graph).node, concepts)
    return set(concepts)


def role_paths(graph, root: str = ROOT, resolve_reentrancies: bool = False) -> dict[str, str]:
    """Path of nested role labels -> filler (concept or constant; a re-entrant reference stays
    its variable name unless ``resolve_reentrancies``) for every node of ``graph`` (a PENMAN
    string or ``penman.Tree``), root first, depth-first order."""
    tree = _tree(graph)
    concepts: dict[str, str] = {}
    _concepts(tree.node, concepts)
    paths: dict[str, str] = {}

    def walk(node, path: str) -> None:
        var, branches = node
        paths[path] = concepts.get(var, var)
        for role, target in branches:
            if role == "/":
                continue
            child = f"{path}.{role}"
            if isinstance(target, tuple):
                walk(target, child)
            elif target in concepts:
                paths[child] = concepts[target] if resolve_reentrancies else str(target)
            else:
                paths[child] = str(target).strip('"')

    walk(tree.node, root)
    return paths


# --------------------------------------------------------------------------- AMR-CN


def strip_sense(concept: str) -> str:
    """``distinguish-01`` -> ``distinguish`` (a PropBank sense suffix); other strings unchanged."""
    return _SENSE.sub("", concept)


@functools.cache
def _verb_lemmatiser() -> Callable[[str], str]:
    from compsem.sts.composition import _wordnet_verb_lemmatiser

    return _wordnet_verb_lemmatiser()


def normalise_filler(concept: str, lemmatise: Callable[[str], str] | str | None = "wordnet") -> str:
    """Sense suffix stripped, then WordNet verb lemma (``lemmatise=None`` skips it)."""
    word = strip_sense(concept)
    if lemmatise is None:
        return word
    return (_verb_lemmatiser() if lemmatise == "wordnet" else lemmatise)(word)


def filler_similarity(word_a: str, word_b: str, word_vectors) -> float:
    """Cosine of the two (normalised) fillers' vectors; 1.0/0.0 string identity when either has
    none; 0 when a vector is zero."""
    va, vb = word_vectors.vector(word_a), word_vectors.vector(word_b)
    if va is None or vb is None:
        return 1.0 if word_a == word_b else 0.0
    va, vb = np.asarray(va, dtype=float), np.asarray(vb, dtype=float)
    n = float(np.linalg.norm(va) * np.linalg.norm(vb))
    return float(va @ vb) / n if n > 0 else 0.0


def dice_similarity(path_sims: Iterable[float], n_paths_a: int, n_paths_b: int) -> float:
    """2 * sum(similarities of the shared paths) / (n_paths_a + n_paths_b); 0 for two empty graphs."""
    total = n_paths_a + n_paths_b
    return 2.0 * float(sum(path_sims)) / total if total else 0.0


def amr_cn(amr_a, amr_b, word_vectors, lemmatise="wordnet", details: bool = False,
           resolve_reentrancies: bool = False):
    """AMR-CN similarity of two graphs (PENMAN strings or trees); ``details=True`` also returns
    ``{path: (filler_a, filler_b, sim)}`` for the shared paths. An unresolved re-entrant
    variable is compared by string identity only."""
    ta, tb = _tree(amr_a), _tree(amr_b)
    pa = role_paths(ta, resolve_reentrancies=resolve_reentrancies)
    pb = role_paths(tb, resolve_reentrancies=resolve_reentrancies)
    var_a, var_b = (set() if resolve_reentrancies else variables(t) for t in (ta, tb))
    shared = {}
    for path, filler in pa.items():
        if path not in pb:
            continue
        if filler in var_a or pb[path] in var_b:
            shared[path] = (filler, pb[path], 1.0 if filler == pb[path] else 0.0)
            continue
        wa, wb = normalise_filler(filler, lemmatise), normalise_filler(pb[path], lemmatise)
        shared[path] = (wa, wb, filler_similarity(wa, wb, word_vectors))
    value = dice_similarity((s for _, _, s in shared.values()), len(pa), len(pb))
    return (value, shared) if details else value


def amr_cn_many(amrs_a: Iterable, amrs_b: Iterable, word_vectors, lemmatise="wordnet",
                resolve_reentrancies: bool = False) -> np.ndarray:
    """:func:`amr_cn` over aligned sequences of graphs."""
    return np.array([amr_cn(a, b, word_vectors, lemmatise, resolve_reentrancies=resolve_reentrancies)
                     for a, b in zip(amrs_a, amrs_b, strict=True)])


# --------------------------------------------------------------------------- Smatch


class _SeededRandom(random.Random):
    """A Random whose argument-less ``seed()`` (called by smatch on every restart) is a no-op."""

    def seed(self, a=None, version=2):
        if a is not None:
            super().seed(a, version)


@contextlib.contextmanager
def _smatch_state(seed: int | None, restarts: int):
    import smatch

    saved = smatch.random, smatch.iteration_num
    if seed is not None:
        smatch.random = _SeededRandom(int(seed))
    smatch.iteration_num = restarts
    try:
        yield smatch
    finally:
        smatch.random, smatch.iteration_num = saved


def one_line(penman_string: str) -> str:
    """A PENMAN string without comment lines, on one line (the form ``smatch`` reads)."""
    lines = [ln for ln in str(penman_string).splitlines() if not ln.lstrip().startswith("#")]
    return " ".join(" ".join(lines).split())


def _layout(penman_string: str, layout: str) -> str:
    if layout == "one_line":
        return one_line(penman_string)
    if layout == "authors":
        return "\n".join(ln for ln in str(penman_string).splitlines() if not ln.lstrip().startswith("#"))
    raise ValueError(f"layout must be 'authors' or 'one_line', not {layout!r}")


def smatch_counts(amr_a: str, amr_b: str, seed: int | None = 0, restarts: int = 5,
                  layout: str = "authors") -> tuple[int, int, int]:
    """(best matched-triple count, triples of a, triples of b) by the ``smatch`` package's hill
    climbing (``restarts`` = its iteration_num: one smart + restarts-1 random starts). With a
    ``seed`` the result is deterministic; None uses smatch's own OS reseeding. ``layout``:
    ``"authors"`` (multi-line, see the module doc) or ``"one_line"`` (standard)."""
    text_a, text_b = _layout(amr_a, layout), _layout(amr_b, layout)
    with _smatch_state(seed, restarts) as smatch:
        smatch.match_triple_dict.clear()  # its per-pair cache is keyed by node names a0.., b0..
        match, test, gold = smatch.get_amr_match(text_a, text_b)
        smatch.match_triple_dict.clear()
    return int(match), int(test), int(gold)


def smatch_authors(amr_a: str, amr_b: str, seed: int | None = 0, restarts: int = 5,
                   layout: str = "authors") -> float:
    """The authors' AMR-SMATCH: matched triples / 12 (a multiple of 1/12, can exceed 1)."""
    return smatch_counts(amr_a, amr_b, seed, restarts, layout)[0] / SMATCH_DIVISOR


def smatch_f1(amr_a: str, amr_b: str, seed: int | None = 0, restarts: int = 5,
              layout: str = "one_line") -> float:
    """Standard Smatch F1 = 2 * match / (triples_a + triples_b)."""
    match, test, gold = smatch_counts(amr_a, amr_b, seed, restarts, layout)
    return 2.0 * match / (test + gold) if test + gold else 0.0


def smatch_many(amrs_a: Iterable[str], amrs_b: Iterable[str], seed: int | None = 0, restarts: int = 5,
                n_pairs: int | None = None, layout: str = "authors") -> np.ndarray:
    """(n, 3) array of :func:`smatch_counts` over aligned sequences (the first ``n_pairs`` only,
    if given). Each pair uses its own ``seed + i`` stream, so a prefix gives the same rows.
    About 1 s for the 2,800 STS3k pairs."""
    rows = []
    for i, (a, b) in enumerate(zip(amrs_a, amrs_b, strict=True)):
        if n_pairs is not None and i >= n_pairs:
            break
        rows.append(smatch_counts(a, b, None if seed is None else seed + i, restarts, layout))
    return np.array(rows, dtype=int).reshape(-1, 3)


def smatch_scores(counts: np.ndarray, kind: str = "authors") -> np.ndarray:
    """From :func:`smatch_many` counts: ``"authors"`` (match/12) or ``"f1"``."""
    c = np.asarray(counts, dtype=float)
    if kind == "authors":
        return c[:, 0] / SMATCH_DIVISOR
    if kind == "f1":
        den = c[:, 1] + c[:, 2]
        return np.divide(2 * c[:, 0], den, out=np.zeros(len(c)), where=den > 0)
    raise ValueError(f"kind must be 'authors' or 'f1', not {kind!r}")


__all__ = [
    "ROOT", "SMATCH_DIVISOR", "parse_amr", "variables", "role_paths", "strip_sense", "normalise_filler",
    "filler_similarity", "dice_similarity", "amr_cn", "amr_cn_many", "one_line", "smatch_counts",
    "smatch_authors", "smatch_f1", "smatch_many", "smatch_scores",
]
