"""Corpus statistics of COGS-format data: lengths, constructions, recursion depths, the
structural gap, lexical frequencies and exact/equivalence match rates (for the released data
and for generated data alike; Kim 2021, Sections 4.4.3, 4.3 and 4.6).

Every function takes a frame with the loader's columns ``source``, ``target``, ``case``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import pandas as pd

from compsem.cogs import evaluation, generate
from compsem.cogs import lf as lfm


def token_lengths(frame: pd.DataFrame) -> pd.DataFrame:
    """Whitespace-token lengths of source and target per row (Kim 2021 counts the target
    tokens: the longest training target has 153 tokens, the longest gen target 480)."""
    return pd.DataFrame(
        {
            "source": frame["source"].str.split().str.len(),
            "target": frame["target"].str.split().str.len(),
            "case": frame["case"],
        },
        index=frame.index,
    )


def length_summary(splits: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Rows, source and target token mean/max per split."""
    rows = []
    for name, frame in splits.items():
        n = token_lengths(frame)
        rows.append(
            {
                "split": name,
                "rows": len(frame),
                "source mean": n["source"].mean(),
                "source max": n["source"].max(),
                "target mean": n["target"].mean(),
                "target max": n["target"].max(),
            }
        )
    return pd.DataFrame(rows).set_index("split")


def case_table(sections: dict[str, str], gen: pd.DataFrame | None = None) -> pd.DataFrame:
    """The 21 generalization cases of Table 4-1, in its order: label, lexical or structural
    (:func:`compsem.cogs.evaluation.case_kind`), the section of the released
    ``gen_cases_to_paper_sections.json`` (``sections``), the held-out item
    (:data:`compsem.cogs.generate.CASES`) and, given the ``gen`` split, its rows per case."""
    table = pd.DataFrame(
        {
            "label": [evaluation.CASE_LABELS[c] for c in evaluation.CASE_ORDER],
            "kind": [evaluation.case_kind(c) for c in evaluation.CASE_ORDER],
            "section (released JSON)": [sections[c] for c in evaluation.CASE_ORDER],
            "held-out item": [generate.CASES[c].item or "" for c in evaluation.CASE_ORDER],
        },
        index=pd.Index(evaluation.CASE_ORDER, name="case"),
    )
    if gen is not None:
        table["gen rows"] = gen["case"].value_counts().reindex(table.index).astype(int)
    return table


def nmod_chain_depth(form: lfm.LogicalForm) -> int:
    """The longest chain of nested ``nmod`` conjuncts (PP recursion depth)."""
    nxt = {
        a.args[0].value: a.args[1].value
        for a in form.conjuncts
        if a.kind == "nmod" and a.args[1].is_var
    }
    best = 0
    for start in nxt:
        d, x = 0, start
        while x in nxt and d <= len(nxt):
            x = nxt[x]
            d += 1
        best = max(best, d)
    return best


def structure(frame: pd.DataFrame) -> pd.DataFrame:
    """Per row, from the logical form: passive (``was`` in the sentence), counts of
    ``recipient``, ``nmod``, ``ccomp``, ``xcomp`` conjuncts, CP depth (number of ``ccomp``, the
    clauses nest), PP depth (:func:`nmod_chain_depth`), whether an ``nmod`` modifies ``x _ 1``
    and whether an ``nmod`` modifies any subject (an argument standing before its verb)."""
    rows = []
    for sentence, target in zip(frame["source"], frame["target"], strict=True):
        form = lfm.parse(target)
        if form.is_primitive:
            rows.append(dict(primitive=True))
            continue
        kinds = Counter(a.predicate[1] for a in form.conjuncts if a.kind == "role")
        nmod_heads = {a.args[0].value for a in form.conjuncts if a.kind == "nmod"}
        subjects = {
            a.args[1].value
            for a in form.conjuncts
            if a.kind == "role" and a.args[1].is_var and a.args[1].value < a.args[0].value
        }
        rows.append(
            dict(
                primitive=False,
                passive=" was " in f" {sentence} ",
                recipient=kinds["recipient"],
                nmod=len(nmod_heads),
                ccomp=kinds["ccomp"],
                xcomp=kinds["xcomp"],
                cp_depth=kinds["ccomp"],
                pp_depth=nmod_chain_depth(form),
                nmod_on_x1=1 in nmod_heads,
                subject_nmod=bool(nmod_heads & subjects),
            )
        )
    out = pd.DataFrame(rows, index=frame.index)
    out["case"] = frame["case"].to_numpy()
    return out


def construction_counts(frame: pd.DataFrame) -> pd.Series:
    """How many non-primitive rows contain each construction (in the 24,000
    in-distribution training rows of the released train.tsv: passive 11,649; recipient 8,658; nmod 5,042 of which 448 with
    two; ccomp 2,274 of which 160 with two; xcomp 1,329)."""
    st = structure(frame)
    st = st[~st["primitive"].astype(bool)]
    return pd.Series(
        {
            "rows": len(st),
            "passive": int(st["passive"].sum()),
            "recipient": int((st["recipient"] > 0).sum()),
            "nmod": int((st["nmod"] > 0).sum()),
            "nmod (one)": int((st["nmod"] == 1).sum()),
            "nmod (two or more)": int((st["nmod"] >= 2).sum()),
            "ccomp": int((st["ccomp"] > 0).sum()),
            "ccomp (one)": int((st["ccomp"] == 1).sum()),
            "ccomp (two or more)": int((st["ccomp"] >= 2).sum()),
            "xcomp": int((st["xcomp"] > 0).sum()),
            "max CP depth": int(st["cp_depth"].max()),
            "max PP depth": int(st["pp_depth"].max()),
            "nmod on x _ 1": int(st["nmod_on_x1"].sum()),
            "nmod on a subject": int(st["subject_nmod"].sum()),
        }
    )


def depth_table(
    frame: pd.DataFrame, cases: Sequence[str] = ("cp_recursion", "pp_recursion")
) -> pd.DataFrame:
    """Rows per recursion depth for the recursion cases (released gen: 100 per depth 3..12)."""
    st = structure(frame[frame["case"].isin(cases)])
    tab = {
        "cp_recursion": st[st["case"] == "cp_recursion"]["cp_depth"].value_counts(),
        "pp_recursion": st[st["case"] == "pp_recursion"]["pp_depth"].value_counts(),
    }
    return pd.DataFrame({c: tab[c] for c in cases if c in tab}).fillna(0).astype(int).sort_index()


def rank_frequency(frame: pd.DataFrame, kind: str = "noun") -> pd.Series:
    """Token counts of nouns (``kind="noun"``), proper names (``"name"``) or verb lemmas
    (``"verb"``) in the logical forms, most frequent first (for the Zipf check)."""
    counts: Counter = Counter()
    for target in frame["target"]:
        form = lfm.parse(target)
        if form.is_primitive:
            continue
        if kind == "noun":
            counts.update(a.lemma for a in form.atoms if a.kind == "noun")
        elif kind == "name":
            counts.update(t.value for a in form.atoms for t in a.args if t.kind == "const")
        elif kind == "verb":
            seen = {(a.lemma, a.args[0].value) for a in form.conjuncts if a.kind == "role"}
            counts.update(sorted(lemma for lemma, _ in seen))  # sorted: ties keep one order
        else:
            raise ValueError(f"kind must be noun, name or verb, got {kind!r}")
    return pd.Series(dict(counts.most_common()), dtype=int)


def zipf_slope(counts: pd.Series, top: int | None = None) -> float:
    """Least-squares slope of log frequency on log rank (-1 for an exact Zipf law)."""
    c = np.asarray(counts.to_numpy()[:top] if top else counts.to_numpy(), dtype=float)
    c = c[c > 0]
    ranks = np.arange(1, len(c) + 1)
    return float(np.polyfit(np.log(ranks), np.log(c), 1)[0])


def match_table(frame: pd.DataFrame, predictions: Sequence[str | None]) -> pd.DataFrame:
    """Per case: rows, exact-match share (Kim 2021's metric,
    :func:`compsem.cogs.evaluation.exact_match`), share of predictions with the gold form's
    meaning (:func:`compsem.cogs.evaluation.semantic_match`: order/index-insensitive) and share of
    rows with no prediction (outside the grammar; neither exact nor equivalent)."""
    if len(predictions) != len(frame):
        raise ValueError(f"{len(predictions)} predictions for {len(frame)} rows")
    given = np.array([p is not None for p in predictions], dtype=bool)
    filled = [p if p is not None else "" for p in predictions]
    targets = frame["target"].tolist()
    df = pd.DataFrame(
        {
            "case": frame["case"].to_numpy(),
            "exact": evaluation.exact_match(filled, targets) & given,
            "equivalent": evaluation.semantic_match(filled, targets) & given,
            "unparsed": ~given,
        }
    )
    out = df.groupby("case").agg(
        rows=("exact", "size"),
        exact=("exact", "mean"),
        equivalent=("equivalent", "mean"),
        unparsed=("unparsed", "mean"),
    )
    return out
