"""The modifier battery of the scorecard: the consistency tests of Carvalho et al. (arXiv
2212.04310, "001"), per adjective class, through :func:`compsem.modifiers.experiment.run`, on
the model the modifier chapter scores (a word-vector model as its mean-pooled word vectors,
``mean:<vectors>``, §4.1.3: :func:`compsem.scorecard.specs.study_spec`).

Measures, each with a percentile bootstrap interval that resamples adjectives within their
class (and nouns; :mod:`compsem.modifiers.statistics`, as the chapter's interval figures):

- ``AN <class>``: Eq. 4 on AN phrases (001 Table 1);
- ``AAN <class>+S-I``: Eq. 4 on AAN phrases, first adjective of the class, second subsective
  intersective (001 Table 2; full battery only, 48,385 strings);
- ``pair S-I/<class>``: Eq. 6 phrase-pair test, cells (S-I, Y) for Y != S-I (001 Table 3; the
  (S-I, S-I) cell is 0.5 by construction and left out);
- ``NS <class>``: Eq. 8 non-subsectivity (001 Table 4);
- ``class difference p (<test>)``: permutation p of "no difference between classes"
  (:func:`compsem.modifiers.experiment.class_difference_tests`; not in the paper, which names
  no test), no interval.

``subset`` skips the AAN test and uses fewer resamples.
"""

from __future__ import annotations

import numpy as np

SI = "S-I"


def check(model: str) -> None:
    """Raise ValueError when ``model`` is no modifier-test spec (:func:`compsem.modifiers.
    encoding.parse_spec`)."""
    from compsem.modifiers import encoding

    try:
        encoding.parse_spec(model)
    except ValueError as err:
        raise ValueError(f"model {model!r} cannot run the modifiers battery (it needs a sentence "
                         f"encoder or 'mean:<word vectors>'); leave the battery out with "
                         f"--batteries ({err})") from None


def rows(model: str, subset: bool = False, n_boot: int = 1000, seed: int = 0,
         device: str = "auto", batch_size: int = 64, **_options) -> list[dict]:
    """The battery's rows (``battery, measure, value, low, high, ceiling``) for ``model``.
    ``_options``: options of other batteries (e.g. the probing battery's ``probe_seeds``), which
    :func:`compsem.scorecard.run` passes to every battery; ignored here."""
    from compsem.modifiers import experiment, lexicon
    from compsem.modifiers import statistics as st
    from compsem.modifiers.lexicon import CLASSES
    from compsem.scorecard.specs import study_spec

    lex = lexicon.load()
    result = experiment.run(study_spec(model), lex, aan=not subset, device=device, batch_size=batch_size,
                            synonym_control=False)
    labels = lex.adjectives["cls"].to_numpy()
    out = []

    def add(measure, value, low=np.nan, high=np.nan):
        out.append(dict(battery="modifiers", measure=measure, value=float(value), low=float(low),
                        high=float(high), ceiling=np.nan))

    for test, holds in (("AN", result.an["code"]["holds"]), ("NS", result.ns["holds"])):
        grid = st.adjective_grid(result.an_phrases, holds, lex)
        boot = st.bootstrap_classes(grid, labels, n_boot=n_boot, seed=seed)
        for c in CLASSES:
            add(f"{test} {c}", boot.loc[c, "score"], boot.loc[c, "low"], boot.loc[c, "high"])
    pair_matrix = result.pairs.weighted_holds("per_noun"), 1.0 - np.eye(len(labels))
    matrices = {"pair": pair_matrix}
    if result.aan:
        grid = st.adjective_grid(result.aan_phrases, result.aan["code"]["holds"], lex)
        matrices["AAN"] = st.pair_matrix(grid)
    si = CLASSES.index(SI)
    for test, (S, W) in matrices.items():
        cells = st.bootstrap_cells(S, W, labels, n_boot=n_boot, seed=seed)
        for i, c in enumerate(CLASSES):
            if test == "pair" and c != SI:  # row S-I: (S-I, Y), 001 Table 3
                add(f"pair {SI}/{c}", *(cells[k][si, i] for k in ("score", "low", "high")))
            elif test == "AAN":  # column S-I: (X, S-I), 001 Table 2
                add(f"AAN {c}+{SI}", *(cells[k][i, si] for k in ("score", "low", "high")))
    tests = experiment.class_difference_tests(result, lex, n_perm=n_boot, seed=seed)
    for test, p in tests["p_perm"].items():
        add(f"class difference p ({test})", p)
    return out
