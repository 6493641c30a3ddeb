"""All three tests of Carvalho et al. for one model: embed once, score every table.

:func:`run` embeds the strings a model needs (805 for the AN-based tests, 48,385 with the AAN
test) and evaluates Eq. 3/4 (both variants), Eq. 5/6 (both aggregations) and Eq. 7/8; the
:class:`ModelResults` it returns gives the per-phrase outcomes (for the statistics) and the
cell scores in the layout of the paper's tables (001 Tables 1-4 and 6-8).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from compsem.modifiers import encoding, intersectivity, pairs, phrases, subsectivity, synonyms
from compsem.modifiers.lexicon import Lexicon
from compsem.modifiers.space import Space
from compsem.stats import PERMUTATIONS


@dataclass
class ModelResults:
    """Per-phrase outcomes of one model.

    ``an`` / ``aan``: {variant: frame of :func:`intersectivity.single_phrase`} (``aan`` empty
    when the AAN test was not run); ``ns``: frame of :func:`subsectivity.non_subsectivity`;
    ``pairs``: :class:`pairs.PairComparisons`; ``an_phrases`` / ``aan_phrases``: the phrase
    tables the rows refer to; ``synonym``: the 004 synonym control
    (:class:`synonyms.SynonymControl`, None unless run).
    """

    spec: str
    space: Space
    an_phrases: pd.DataFrame
    an: dict[str, pd.DataFrame]
    ns: pd.DataFrame
    pairs: pairs.PairComparisons
    aan_phrases: pd.DataFrame | None = None
    aan: dict[str, pd.DataFrame] = field(default_factory=dict)
    synonym: synonyms.SynonymControl | None = None
    seconds: float = 0.0

    def scores(
        self, test: str, variant: str = "code", aggregation: str = "per_noun"
    ) -> dict[tuple[str, ...], float]:
        """Cell scores of one test: ``an``/``aan`` (Eq. 4, ``variant`` ``code`` or ``paper``),
        ``pair`` (Eq. 6, ``aggregation`` ``per_noun`` or ``pairs``), ``ns`` (Eq. 8)."""
        if test == "an":
            return dict(intersectivity.scores(self.an_phrases, self.an[variant]["holds"]))
        if test == "aan":
            if not self.aan:
                raise ValueError(f"{self.spec}: the AAN test was not run (run(..., aan=True))")
            return dict(intersectivity.scores(self.aan_phrases, self.aan[variant]["holds"]))
        if test == "pair":
            return pairs.as_cells(pairs.scores(self.pairs, aggregation))
        if test == "ns":
            return dict(subsectivity.scores(self.an_phrases, self.ns["holds"]))
        raise ValueError(f"test must be an, aan, pair or ns, not {test!r}")


def run(
    spec: str,
    lexicon: Lexicon,
    aan: bool = True,
    template: str | None = None,
    device: str = "auto",
    batch_size: int = 64,
    strict_pairs: bool = True,
    synonym_control: bool = True,
    trust_remote_code: bool = False,
) -> ModelResults:
    """Embed what ``spec`` needs and run every test (the AAN test only with ``aan=True``; the
    synonym control of :mod:`synonyms` with ``synonym_control=True``, 732 more strings).
    ``trust_remote_code`` is passed to :func:`encoding.embed` (hub models with their own code)."""
    start = time.perf_counter()
    table = phrases.generate(lexicon, max_words=3 if aan else 2)
    an_table = table[table["kind"] == "AN"].reset_index(drop=True)
    aan_table = table[table["kind"] == "AAN"].reset_index(drop=True) if aan else None
    strings = phrases.strings_needed(lexicon, table)
    if synonym_control:
        strings = list(dict.fromkeys([*strings, *synonyms.phrase_strings(lexicon)]))
    space = encoding.embed(
        spec,
        strings,
        template=template,
        device=device,
        batch_size=batch_size,
        trust_remote_code=trust_remote_code,
    )
    results = ModelResults(
        spec=spec,
        space=space,
        an_phrases=an_table,
        an={v: intersectivity.single_phrase(space, an_table, v) for v in intersectivity.VARIANTS},
        ns=subsectivity.non_subsectivity(space, an_table),
        pairs=pairs.compare(space, lexicon, strict=strict_pairs),
        aan_phrases=aan_table,
    )
    if synonym_control:
        results.synonym = synonyms.compare(space, lexicon, strict=strict_pairs)
    if aan:
        results.aan = {
            v: intersectivity.single_phrase(space, aan_table, v) for v in intersectivity.VARIANTS
        }
    results.seconds = time.perf_counter() - start
    return results


def plan(
    models: list[str],
    aan_models: list[str],
    pooling_models: list[str] = (),
    template_models: list[str] = (),
) -> dict[str, bool]:
    """``{spec: run the AAN test too}`` for every model to run (``models`` then
    ``pooling_models``), after checking that ``aan_models`` and ``template_models`` name models
    that are run. Raises ValueError naming the offending parameter."""
    for name, value in (
        ("models", models),
        ("aan_models", aan_models),
        ("pooling_models", pooling_models),
        ("template_models", template_models),
    ):
        if isinstance(value, str) or not all(isinstance(v, str) and v for v in value):
            raise ValueError(f"{name} must be a list of model specs, got {value!r}")
        for spec in value:
            encoding.parse_spec(spec)
    run_specs = list(dict.fromkeys([*models, *pooling_models]))
    for name, value in (("aan_models", aan_models), ("template_models", template_models)):
        extra = [s for s in value if s not in run_specs]
        if extra:
            raise ValueError(f"{name} {extra} must also be in models or pooling_models")
    return {spec: spec in aan_models for spec in run_specs}


def class_difference_tests(
    results: ModelResults, lexicon: Lexicon, n_perm: int = PERMUTATIONS, seed: int = 0
) -> pd.DataFrame:
    """Permutation tests (adjective labels shuffled) of "no difference between adjective
    classes" for every test run on a model, beside the phrase-level chi-square where it applies.

    Rows: ``an``, ``aan`` (if run), ``pair``, ``ns``; columns ``statistic`` (size-weighted
    variance of the class or cell scores), ``p_perm`` and ``p_chi2`` (AN and NS only).
    """
    from compsem.modifiers import statistics as st

    labels = lexicon.adjectives["cls"].to_numpy()
    rows = {}
    for test, frame, table in (
        ("an", results.an["code"], results.an_phrases),
        ("ns", results.ns, results.an_phrases),
    ):
        grid = st.adjective_grid(table, frame["holds"], lexicon)
        perm = st.permutation_test(st.omnibus_single(grid), labels, n_perm, seed)
        rows[test] = {
            "statistic": perm["observed"],
            "p_perm": perm["p_value"],
            "p_chi2": st.chi_square(grid, labels)["p_value"],
        }
    matrices = {"pair": (results.pairs.weighted_holds("per_noun"), 1.0 - np.eye(len(labels)))}
    if results.aan:
        grid = st.adjective_grid(results.aan_phrases, results.aan["code"]["holds"], lexicon)
        matrices["aan"] = st.pair_matrix(grid)
    for test, (S, W) in matrices.items():
        perm = st.permutation_test(st.omnibus_cells(S, W), labels, n_perm, seed)
        rows[test] = {"statistic": perm["observed"], "p_perm": perm["p_value"], "p_chi2": np.nan}
    order = [t for t in ("an", "aan", "pair", "ns") if t in rows]
    return pd.DataFrame(rows).T.loc[order]
