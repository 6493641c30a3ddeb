"""The paper's number beside a scorecard row: which cell of ``data/targets/<study>.json`` a
``(model, measure)`` of the scorecard stands beside, if any.

A scorecard row has a paper counterpart when its model is a paper's model, or the encoder the
study's chapter runs in its place (a *substitute*, compared for the pattern only), and its measure
is a number that paper prints:

==========  ====================================================================================
``sts``     Fodor et al. (2025), Table 9, the columns of :data:`compsem.sts.table9.DATASETS`:
            ``mpnet`` is the paper's SentBERT (all-mpnet-base-v2, standardised as sts3k-models
            scores it); a word-vector mean (``glove50``, ``spacy-md``, scored as
            ``mean:<vectors>``) is a substitute for Mean-CN (ConceptNet Numberbatch vectors, not
            packaged), ``mult:``/``conv:`` for Mult-CN and Conv-CN. The within-type rhos are
            an extension: no paper value.
``probing`` Ettinger et al. (2018), Table 2, the ``<task> accuracy`` rows: ``spacy-md`` stands
            in for the BOW row (averaged skip-gram vectors; the probing chapter's
            ``bow_substitute``), ``sdae`` for the SDAE row (trained here). Control tasks and
            selectivity: no paper value.
``modifiers``  Carvalho et al. (001), Tables 1 (AN), 6 (AAN), 7 (pair) and 8 (NS), the
            full-precision table of each test (:func:`compsem.modifiers.tables.paper_row`):
            ``minilm`` is the paper's MiniLM, ``glove50`` (``mean:glove50``) a substitute for
            GloVe 6B 300d (:func:`compsem.modifiers.tables.paper_model_of`; a stand-in such as
            MPNet for DistilRoBERTa is compared with nothing). The class-difference p-values:
            no paper value.
==========  ====================================================================================

:func:`paper_cell` gives the counterpart of one row; :func:`paper_cells` those of a whole
scorecard table.
"""

from __future__ import annotations

import functools

import pandas as pd

SAME = "the paper's model"
SUBSTITUTE = "substitute"

STS_ROWS = {"mpnet": ("SentBERT", SAME)}
"""Model spec -> (Table 9 row, relation) for sentence encoders; word-vector compositions are
read from the spec (:func:`_sts_row`)."""

STS_COMPOSITIONS = {"mean": "Mean-CN", "mult": "Mult-CN", "conv": "Conv-CN"}
"""Composition of a study spec ``<op>:<vectors>`` -> the Table 9 row it substitutes for."""

PROBING_ROWS = {"spacy-md": ("BOW", SUBSTITUTE), "sdae": ("SDAE", SUBSTITUTE)}
"""Model spec -> (2018 Table 2 row, relation): the encoders the probing chapter runs in place of
the paper's rows (its ``bow_substitute`` and its SDAE)."""

COLUMNS = ("model", "battery", "measure", "paper", "row", "relation", "source", "key")
"""The columns of :func:`paper_cells`."""


def _sts_row(model: str) -> tuple[str, str] | None:
    from compsem.scorecard.specs import study_spec

    if model in STS_ROWS:
        return STS_ROWS[model]
    op, _, vectors = study_spec(model).partition(":")
    if op in STS_COMPOSITIONS and vectors and ":" not in vectors:
        return STS_COMPOSITIONS[op], SUBSTITUTE
    return None


def _sts_cell(model: str, measure: str) -> dict | None:
    from compsem.sts import table9
    from compsem.targets import load_targets

    row = _sts_row(model)
    if row is None or measure not in table9.DATASETS:
        return None
    key = table9.target_key(row[0], measure)
    target = load_targets("sts3k").get(key)
    if target is None:
        return None
    return dict(battery="sts", paper=float(target["paper"]), row=row[0], relation=row[1],
                source="Fodor et al. 2025, Table 9", key=key)


def _probing_cell(model: str, measure: str) -> dict | None:
    from compsem.scorecard.probing import NAMES
    from compsem.targets import load_targets

    tasks = {f"{name} accuracy": task for task, name in NAMES.items()}
    if model not in PROBING_ROWS or measure not in tasks:
        return None
    row, relation = PROBING_ROWS[model]
    key = f"probe_2018_{row.lower()}_{tasks[measure]}"
    target = load_targets("probing").get(key)
    if target is None:
        return None
    return dict(battery="probing", paper=float(target["paper"]), row=row, relation=relation,
                source="Ettinger et al. 2018, Table 2", key=key)


def _modifier_test(measure: str) -> tuple[str, tuple[str, ...]] | None:
    """``"AN S-I"`` -> ``("an", ("S-I",))``, ``"pair S-I/A"`` -> ``("pair", ("S-I", "A"))``,
    ``"AAN A+S-I"`` -> ``("aan", ("A", "S-I"))``, ``"NS A"`` -> ``("ns", ("A",))``; None for any
    other measure."""
    from compsem.modifiers.lexicon import CLASSES

    test, _, cell = measure.partition(" ")
    if test in ("AN", "NS") and cell in CLASSES:
        return test.lower(), (cell,)
    parts = tuple(cell.split("/" if test == "pair" else "+"))
    if test in ("pair", "AAN") and len(parts) == 2 and set(parts) <= set(CLASSES):
        return test.lower(), parts
    return None


@functools.cache
def _modifier_table(slug: str, test: str) -> tuple[str, int]:
    """The version and number of the table :func:`compsem.modifiers.tables.paper_row` reads for
    ``slug`` and ``test``: the paper version's table with the most cells, then decimals."""
    from compsem.modifiers import tables

    version = tables.PAPER_MODELS[slug]["version"]
    return version, tables.paper_table(test, version)


def _modifier_cell(model: str, measure: str) -> dict | None:
    from compsem.modifiers import tables
    from compsem.scorecard.specs import study_spec
    from compsem.targets import load_targets

    parsed = _modifier_test(measure)
    slug, how = tables.paper_model_of(study_spec(model))
    if parsed is None or slug is None or how not in ("reproduced here", "substitute run here"):
        return None
    test, cell = parsed
    version, number = _modifier_table(slug, test)
    key = tables.target_key(slug, test, cell, version, number)
    target = load_targets("modifiers").get(key)
    if target is None:
        return None
    return dict(battery="modifiers", paper=float(target["paper"]),
                row=tables.PAPER_MODELS[slug]["label"],
                relation=SAME if how == "reproduced here" else SUBSTITUTE,
                source=f"Carvalho et al. {version}, Table {number}", key=key)


def paper_cell(model: str, measure: str) -> dict | None:
    """The paper's counterpart of the scorecard row ``(model, measure)`` (module docstring):
    ``battery``, ``paper`` (the number), ``row`` (the paper's row: SentBERT, Mean-CN, BOW, SDAE,
    MiniLM, ...), ``relation`` (:data:`SAME` or :data:`SUBSTITUTE`), ``source`` and ``key``
    (the target); None where the paper prints no such number."""
    for cell in (_sts_cell, _probing_cell, _modifier_cell):
        found = cell(model, measure)
        if found is not None:
            return found
    return None


def paper_cells(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`paper_cell` of every row of a scorecard table that has one, in table order
    (columns :data:`COLUMNS`)."""
    rows = []
    for model, measure in dict.fromkeys(zip(table["model"], table["measure"], strict=True)):
        found = paper_cell(model, measure)
        if found is not None:
            rows.append({"model": model, "measure": measure, **found})
    return pd.DataFrame(rows, columns=list(COLUMNS))
