"""The paper's table layouts, its models, and the target keys of ``data/targets/modifiers.json``.

Tables (001 = arXiv 2212.04310; 004 = COLING 2025)::

    test   what                                   001          004
    an     Eq. 4 on AN phrases                    T1           T2
    aan    Eq. 4 on AAN phrases (second adj S-I)  T2 (5 cols)  T3 (5 cols)
           Eq. 4 on AAN phrases, all 25 cells     T6           T6
    pair   Eq. 6 phrase pairs, (S-I, Y)           T3 (5 cols)  T4 (5 cols)
           Eq. 6, the 15 upper-triangle cells     T7           T7
    ns     Eq. 8 non-subsectivity                 T4 (3 dec.)  T5 (2 dec.)
           Eq. 8, 4 decimals                      T8           T8

A target key is ``mod_<model>_<test>_<cell>_<version>t<table>``, e.g.
``mod_minilm_ns_nspr_001t8`` (MiniLM, non-subsectivity, privative, 001 Table 8) or
``mod_minilm_aan_nspr_si_001t6`` (first adjective NS-Pr, second S-I).

The comparison tables (:func:`comparison_frame`) set each paper row beside ours and, under the
paper row of a model run here or substituted, a verdict row: each cell of ours against the
target's ``tol`` (:func:`cell_verdict`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from compsem.modifiers.lexicon import CLASSES
from compsem.report import verdict

TESTS = ("an", "aan", "pair", "ns")

AN_CELLS = [(c,) for c in CLASSES]
AAN_CELLS = [(first, second) for second in CLASSES for first in CLASSES]
"""001/004 Table 6 column order: grouped by the *second* adjective."""
PAIR_CELLS = [(CLASSES[i], CLASSES[j]) for i in range(5) for j in range(i, 5)]
"""001/004 Table 7 column order: the upper triangle, row by row."""

CELLS = {"an": AN_CELLS, "aan": AAN_CELLS, "pair": PAIR_CELLS, "ns": AN_CELLS}

# (version, table number, cells shown, decimals of the printed values)
TABLES: dict[str, list[tuple[str, int, list[tuple[str, ...]], int]]] = {
    "an": [("001", 1, AN_CELLS, 2), ("004", 2, AN_CELLS, 2)],
    "aan": [
        ("001", 2, AAN_CELLS[:5], 3),
        ("001", 6, AAN_CELLS, 4),
        ("004", 3, AAN_CELLS[:5], 2),
        ("004", 6, AAN_CELLS, 4),
    ],
    "pair": [
        ("001", 3, PAIR_CELLS[:5], 3),
        ("001", 7, PAIR_CELLS, 4),
        ("004", 4, PAIR_CELLS[:5], 2),
        ("004", 7, PAIR_CELLS, 4),
    ],
    "ns": [
        ("001", 4, AN_CELLS, 3),
        ("001", 8, AN_CELLS, 4),
        ("004", 5, AN_CELLS, 2),
        ("004", 8, AN_CELLS, 4),
    ],
}

PAPER_MODELS: dict[str, dict] = {
    "sbert": {
        "label": "sBERT",
        "version": "001",
        "hub": "sentence-transformers/stsb-bert-base",
        "pooling": "mean",
    },
    "distilroberta": {
        "label": "DistilRoBERTa",
        "version": "001",
        "hub": "sentence-transformers/all-distilroberta-v1",
        "pooling": "mean",
    },
    "t5": {
        "label": "Sentence-T5",
        "version": "001",
        "hub": "sentence-transformers/sentence-t5-base",
        "pooling": "mean + dense",
    },
    "dpr_nq": {
        "label": "DPR (single-nq)",
        "version": "001",
        "hub": "sentence-transformers/facebook-dpr-ctx_encoder-single-nq-base",
        "pooling": "CLS",
    },
    "labse": {
        "label": "LaBSE",
        "version": "001",
        "hub": "sentence-transformers/LaBSE",
        "pooling": "CLS",
    },
    "minilm": {
        "label": "MiniLM",
        "version": "001",
        "hub": "sentence-transformers/all-MiniLM-L6-v2",
        "pooling": "mean",
    },
    "glove": {
        "label": "GloVe 6B 300d",
        "version": "001",
        "hub": None,
        "pooling": "mean of word vectors",
    },
    "word2vec": {
        "label": "Word2Vec",
        "version": "001",
        "hub": None,
        "pooling": "mean of word vectors",
    },
    "dpr_multiset": {
        "label": "DPR (multiset)",
        "version": "004",
        "hub": "sentence-transformers/facebook-dpr-ctx_encoder-multiset-base",
        "pooling": "CLS",
    },
    "specter": {
        "label": "Specter",
        "version": "004",
        "hub": "sentence-transformers/allenai-specter",
        "pooling": "CLS",
    },
    "te3_small": {
        "label": "TE3-small",
        "version": "004",
        "hub": None,
        "pooling": "closed (OpenAI API)",
    },
    "nv_embed_v2": {
        "label": "NV-Embed-v2",
        "version": "004",
        "hub": "nvidia/NV-Embed-v2",
        "pooling": "latent attention",
    },
    "stella": {
        "label": "Stella 1.5B v5",
        "version": "004",
        "hub": "dunzhang/stella_en_1.5B_v5",
        "pooling": "mean (per its configuration)",
    },
}
"""Every model of both versions, with the exact checkpoint of the authors' released code."""


def paper_slug(spec: str) -> str | None:
    """The paper model a model spec *is* (``minilm`` -> ``minilm``; ``hf:<the checkpoint>``
    -> its slug), or None. A substitute (e.g. ``mean:glove50`` for GloVe 300d) is not the
    paper model: see :data:`SUBSTITUTES`."""
    if spec == "minilm":
        return "minilm"
    if spec.startswith("hf:"):
        hub = spec[3:]
        for slug, info in PAPER_MODELS.items():
            if info["hub"] and hub in (info["hub"], info["hub"].split("/", 1)[-1]):
                return slug
    return None


SUBSTITUTES = {"mean:glove50": "glove", "sum:glove50": "glove"}
"""Model specs run here in place of a paper model (compared for the pattern only)."""

STAND_INS = {"mpnet": "distilroberta"}
"""Packaged models shown beside a paper model of the same family, not as its substitute: MPNet
(all-mpnet-base-v2) is, like 001's all-distilroberta-v1, a sentence-transformers "all-*"
model (mean pooling, the same 1B-pair training set) on another backbone; no target is compared."""


def paper_model_of(spec: str) -> tuple[str | None, str]:
    """The paper model a spec's row sits beside, and how it relates: ``("minilm",
    "reproduced here")``, ``("glove", "substitute run here")``, ``("distilroberta", "stand-in run
    here")`` or ``(None, "")``."""
    if (slug := paper_slug(spec)) is not None:
        return slug, "reproduced here"
    if spec in SUBSTITUTES:
        return SUBSTITUTES[spec], "substitute run here"
    if spec in STAND_INS:
        return STAND_INS[spec], "stand-in run here"
    return None, ""


def cell_label(cell: tuple[str, ...]) -> str:
    """``("S-I",)`` -> ``"S-I"``, ``("NS-Pr", "S-I")`` -> ``"(NS-Pr, S-I)"``."""
    return cell[0] if len(cell) == 1 else "(" + ", ".join(cell) + ")"


def cell_slug(cell: tuple[str, ...]) -> str:
    """``("NS-Pr", "S-I")`` -> ``"nspr_si"``."""
    return "_".join(c.lower().replace("-", "") for c in cell)


def target_key(model: str, test: str, cell: tuple[str, ...], version: str, table: int) -> str:
    """``mod_<model>_<test>_<cell>_<version>t<table>`` (see the module docstring)."""
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, not {test!r}")
    return f"mod_{model}_{test}_{cell_slug(cell)}_{version}t{table}"


def as_row(scores: pd.Series | dict, test: str) -> pd.Series:
    """Scores keyed by cell tuple as one row in the paper's column order, labelled cells."""
    scores = dict(scores)
    return pd.Series({cell_label(c): float(scores.get(c, np.nan)) for c in CELLS[test]})


def target_values(
    model: str, test: str, scores: pd.Series | dict, targets: dict
) -> dict[str, float]:
    """Our value under every target key of ``model`` and ``test`` (all tables, both versions)
    that exists in ``targets``: e.g. the MiniLM non-subsectivity scores under the 001 Table 4
    and Table 8 keys."""
    scores = dict(scores)
    out = {}
    for version, table, cells, _ in TABLES[test]:
        for cell in cells:
            key = target_key(model, test, cell, version, table)
            if key in targets and cell in scores:
                out[key] = float(scores[cell])
    return out


def paper_table(test: str, version: str, table: int | None = None) -> int:
    """The number of the table :func:`paper_row` reads for ``test`` in ``version``: ``table``,
    or the full-precision one (most cells, most decimals: 001 Tables 1, 6, 7 and 8)."""
    candidates = [t for t in TABLES[test] if t[0] == version and (table is None or t[1] == table)]
    if not candidates:
        raise ValueError(f"no table {table} of version {version} for test {test!r}")
    return max(candidates, key=lambda t: (len(t[2]), t[3]))[1]


def paper_row(
    model: str, test: str, targets: dict, version: str | None = None, table: int | None = None
) -> pd.Series:
    """The paper's printed row of ``model`` for ``test`` (the full-precision table of its
    version unless ``table`` is given), in the paper's column order; NaN where not printed."""
    version = version or PAPER_MODELS[model]["version"]
    number = paper_table(test, version, table)
    values = {}
    for cell in CELLS[test]:
        target = targets.get(target_key(model, test, cell, version, number))
        values[cell_label(cell)] = np.nan if target is None else float(target["paper"])
    return pd.Series(values, name=f"{PAPER_MODELS[model]['label']} ({version} T{number})")


WITHIN, OUTSIDE, PATTERN_ONLY = "within tol", "outside tol", "pattern only"
"""The verdicts of a cell in the comparison tables (:func:`cell_verdict`); "" where none."""


def cell_verdict(ours: float, target: dict | None) -> str:
    """One printed cell of the paper against ours: :data:`WITHIN` when |ours - paper| <= the
    target's ``tol`` (the rule of :func:`compsem.report.verdict`), :data:`OUTSIDE` otherwise,
    :data:`PATTERN_ONLY` for a target of status ``substitute`` (another model, compared for the
    pattern only), and "" where the paper prints no value or we have none. A ``not-run``
    target is held to its tolerance when its model is run after all (``hf:<hub id>``)."""
    if target is None or not np.isfinite(float(target["paper"])) or not np.isfinite(ours):
        return ""
    if target.get("status") == "substitute":
        return PATTERN_ONLY
    match = verdict(float(ours), {"paper": target["paper"], "tol": target["tol"]}) == "match"
    return WITHIN if match else OUTSIDE


def verdict_row(model: str, test: str, scores: pd.Series | dict, targets: dict) -> pd.Series:
    """Our ``scores`` (``{cell: score}``) against :func:`paper_row` of ``model`` (the
    full-precision table of its version, e.g. 001 Table 8), cell by cell (:func:`cell_verdict`),
    with a ``status`` entry that gives the tolerance and the largest |ours - paper| of the
    cells held to it, or says that the row is compared for the pattern only."""
    scores = dict(scores)
    version = PAPER_MODELS[model]["version"]
    number = paper_table(test, version)
    row, tols, differences = {}, set(), []
    for cell in CELLS[test]:
        target = targets.get(target_key(model, test, cell, version, number))
        ours = float(scores.get(cell, np.nan))
        row[cell_label(cell)] = cell_verdict(ours, target)
        if row[cell_label(cell)] in (WITHIN, OUTSIDE):
            tols.add(float(target["tol"]))
            differences.append(abs(ours - float(target["paper"])))
    if differences:
        decimals = 1 + max(_decimals(t) for t in tols)  # one digit finer than the tolerance
        status = (f"tol {' / '.join(f'{t:g}' for t in sorted(tols))}; "
                  f"largest |ours − paper| {max(differences):.{decimals}f}")
    else:
        status = PATTERN_ONLY if PATTERN_ONLY in row.values() else ""
    return pd.Series({"status": status, **row})


def _decimals(tol: float) -> int:
    """The decimals of a tolerance's first significant digit (0.0001 -> 4, 0.005 -> 3)."""
    return 0 if tol <= 0 else max(0, -int(np.floor(np.log10(tol))))


def run_status(specs: list[str]) -> dict[str, str]:
    """Which paper models the model specs run here stand for: ``{slug: "reproduced here"}``
    for the exact checkpoint, ``"substitute run here"`` for a substitute, ``"stand-in run
    here"`` for a model of the same family (:data:`STAND_INS`)."""
    status = {}
    for spec in specs:
        slug, how = paper_model_of(spec)
        if slug is not None and status.get(slug) != "reproduced here":
            status.setdefault(slug, how)
            if how == "reproduced here":
                status[slug] = how
    return status


def comparison_frame(
    test: str,
    ours: dict[str, dict],
    targets: dict,
    specs_run: list[str] = (),
    paper_of: dict[str, str] | None = None,
    compared: list[str] = (),
) -> pd.DataFrame:
    """Our rows (``{label: {cell: score}}``) and the paper's rows of every model of both
    versions (each from the full-precision table of its version), with a ``status`` column:
    "ours", "reproduced here", "substitute run here", "stand-in run here" or "not run here".

    ``paper_of`` maps an our-row label to the paper model it sits beside (see
    :func:`paper_model_of`): our rows of one paper model come together, directly followed by
    that model's paper row; rows without a paper model keep their place; the paper rows of
    models not run follow at the end. Each label of ``compared`` (our rows whose numbers are
    the targets' ours: the paper model itself or its substitute, not a stand-in) gets, right
    under that paper row, the row ``<label> vs paper`` of :func:`verdict_row`."""
    status = run_status(list(specs_run))
    paper_of = paper_of or {}
    groups: dict[str, list[str]] = {}
    for label in ours:
        groups.setdefault(paper_of.get(label) or f"_ours:{label}", []).append(label)
    rows = []
    for key, labels in groups.items():
        for label in labels:
            rows.append(as_row(ours[label], test).rename(label).to_frame().T.assign(status="ours"))
        if key in PAPER_MODELS:
            row = paper_row(key, test, targets)
            if not row.isna().all():
                rows.append(row.to_frame().T.assign(status=status.get(key, "not run here")))
                for label in labels:
                    if label in compared:
                        verdicts = verdict_row(key, test, ours[label], targets)
                        rows.append(verdicts.rename(f"{label} vs paper").to_frame().T)
    for slug in PAPER_MODELS:
        if slug in groups:
            continue
        row = paper_row(slug, test, targets)
        if row.isna().all():
            continue
        rows.append(row.to_frame().T.assign(status=status.get(slug, "not run here")))
    frame = pd.concat(rows)
    return frame[["status", *[cell_label(c) for c in CELLS[test]]]]


DISPLAY_NAMES = {
    "minilm": "MiniLM (all-MiniLM-L6-v2)",
    "mpnet": "MPNet (all-mpnet-base-v2)",
    "mean:glove50": "GloVe 6B 50d, mean",
    "sum:glove50": "GloVe 6B 50d, sum",
    "mean:spacy-md": "spaCy md vectors, mean",
    "sum:spacy-md": "spaCy md vectors, sum",
    "minilm:cls": "MiniLM, first token (CLS)",
    "mpnet:cls": "MPNet, first token (CLS)",
}


def display_name(spec: str) -> str:
    """A readable row label for a model spec (the spec itself when it has none)."""
    if spec in DISPLAY_NAMES:
        return DISPLAY_NAMES[spec]
    slug = paper_slug(spec)
    return f"{PAPER_MODELS[slug]['label']} ({spec})" if slug else spec
