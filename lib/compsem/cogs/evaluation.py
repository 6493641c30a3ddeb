"""Metrics and error analyses of COGS predictions (Kim 2021, Sections 4.4, 4.5.2-4.5.5).

Metrics:

- **exact match** (Section 4.2, "Metric"): the predicted token sequence equals the gold one; accuracy per
  split and per generalization case, and the lexical and structural aggregates (Figure 4-1: the
  mean over the 18 lexical and the 3 structural cases; every case has 1,000 examples, so this is
  also the pooled accuracy);
- **semantic equivalence** beside it: the same meaning up to conjunct order and a renaming of
  the Skolem indices (:func:`compsem.cogs.lf.equivalent`).

Error analyses:

- **well-formedness** (Section 4.5.3): the dissertation counts an output that does not end in
  ``)`` as ill-formed ("12% of all Transformer errors ... 0.5% of ... LSTM errors");
  :func:`compsem.cogs.lf.is_well_formed` is the stricter parse-based check;
- **token edit distance** of errors to the gold output (Section 4.5.3: 11 / 14 / 42);
- **correct output structure** (footnote 20): the non-lexical tokens (parentheses, ``AND``,
  ``*``, ``;``, ``,``, ``.``, ``x``, ``_``) are identical and in the same positions, and every
  wrong token is replaced within its category -- lexical meaning (``cat``, ``see``, ``Emma``),
  thematic role (``agent``, also ``nmod`` and its preposition), or index (an index error counts
  as lexical, so a structurally correct output may have wrong indices);
- **single lexical retrieval error** (Section 4.5.5.1): structurally correct, and all wrong
  tokens are lexical-meaning tokens standing for one word of the input, i.e. the gold tokens at
  the wrong positions are one type (``ship`` produced as ``admire`` once or several times);
- **depth generalization** (Section 4.5.4): recursion depth of a ``cp_recursion`` (number of
  *that*) or ``pp_recursion`` (number of prepositions) example; errors that end too early
  (shorter than the gold output: "an end-of-sentence token too early", 90.3%), run too long or
  hit the length cap, or are structurally correct with only indices wrong (0.5%);
- **Active -> Passive** errors with and without the target's structure (Section 4.5.5.2);
- **common vs proper nouns** (Section 4.5.5.3): accuracy of the paired cases.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from compsem.cogs import lf

CASES = [
    ("subj_to_obj_common", "Subject → Object (common noun)"),
    ("subj_to_obj_proper", "Subject → Object (proper noun)"),
    ("obj_to_subj_common", "Object → Subject (common noun)"),
    ("obj_to_subj_proper", "Object → Subject (proper noun)"),
    ("prim_to_subj_common", "Primitive noun → Subject (common noun)"),
    ("prim_to_subj_proper", "Primitive noun → Subject (proper noun)"),
    ("prim_to_obj_common", "Primitive noun → Object (common noun)"),
    ("prim_to_obj_proper", "Primitive noun → Object (proper noun)"),
    ("prim_to_inf_arg", "Primitive verb → Infinitival argument"),
    ("obj_pp_to_subj_pp", "Object-modifying PP → Subject-modifying PP"),
    ("cp_recursion", "Depth generalization: Sentential complements"),
    ("pp_recursion", "Depth generalization: PP modifiers"),
    ("active_to_passive", "Active → Passive"),
    ("passive_to_active", "Passive → Active"),
    ("obj_omitted_transitive_to_transitive", "Object-omitted transitive → Transitive"),
    ("unacc_to_transitive", "Unaccusative → Transitive"),
    ("do_dative_to_pp_dative", "Double object dative → PP dative"),
    ("pp_dative_to_do_dative", "PP dative → Double object dative"),
    ("only_seen_as_transitive_subj_as_unacc_subj", "Agent NP → Unaccusative subject"),
    (
        "only_seen_as_unacc_subj_as_obj_omitted_transitive_subj",
        "Theme NP → Object-omitted transitive subject",
    ),
    ("only_seen_as_unacc_subj_as_unerg_subj", "Theme NP → Unergative subject"),
]
"""The 21 generalization cases in the order of Table 4-1 / Table 4-5, with their labels."""

CASE_ORDER = [code for code, _ in CASES]
CASE_LABELS = dict(CASES)

STRUCTURAL_CASES = ("obj_pp_to_subj_pp", "cp_recursion", "pp_recursion")
"""Structural generalization (Section 4.3.2-4.3.3; the COGS README); the other 18 are lexical."""

DEPTH_CASES = ("cp_recursion", "pp_recursion")

NOUN_PAIRS = [
    ("Subject → Object", "subj_to_obj_common", "subj_to_obj_proper"),
    ("Object → Subject", "obj_to_subj_common", "obj_to_subj_proper"),
    ("Primitive → Subject", "prim_to_subj_common", "prim_to_subj_proper"),
    ("Primitive → Object", "prim_to_obj_common", "prim_to_obj_proper"),
]
"""The generalization types with a common-noun and a proper-noun variant (Section 4.5.5.3)."""

STRUCTURE_TOKENS = frozenset(
    {"(", ")", ",", ";", "*", ".", "x", "_", "AND", "LAMBDA", "a", "b", "e"}
)
ROLE_TOKENS = frozenset(
    {"agent", "theme", "recipient", "ccomp", "xcomp", "nmod", "in", "on", "beside"}
)
PREPOSITIONS = ("in", "on", "beside")


def case_kind(case: str) -> str:
    """``"structural"`` or ``"lexical"`` (an unknown case raises ValueError)."""
    if case not in CASE_LABELS:
        raise ValueError(f"unknown COGS generalization case {case!r}")
    return "structural" if case in STRUCTURAL_CASES else "lexical"


# ------------------------------------------------------------------------------------- metrics


def exact_match(predictions: Iterable[str], golds: Iterable[str]) -> np.ndarray:
    """Kim (2021)'s metric per example (:func:`compsem.cogs.lf.exact_match`): identical
    whitespace-token sequences."""
    return np.array(
        [lf.exact_match(p, g) for p, g in zip(predictions, golds, strict=True)], dtype=bool
    )


def semantic_match(predictions: Iterable[str], golds: Iterable[str]) -> np.ndarray:
    """Same meaning up to conjunct order and index renaming (:func:`compsem.cogs.lf.equivalent`);
    exact matches are equivalent without parsing."""
    return np.array(
        [
            lf.exact_match(p, g) or lf.equivalent(p, g)
            for p, g in zip(predictions, golds, strict=True)
        ],
        bool,
    )


def accuracy_by_case(correct: Sequence[bool], cases: Sequence[str]) -> pd.Series:
    """Mean of ``correct`` per generalization case, in Table 4-1 order (cases absent: dropped)."""
    by_case = pd.Series(np.asarray(correct, float)).groupby(np.asarray(cases)).mean()
    return by_case.reindex([c for c in CASE_ORDER if c in by_case.index])


def aggregate(by_case: pd.Series) -> dict[str, float]:
    """Generalization accuracy overall, lexical and structural: the mean over the cases present
    (Figure 4-1; with 1,000 examples per case equal to the pooled accuracy)."""
    kinds = np.array([case_kind(c) for c in by_case.index])
    out = {"gen": float(by_case.mean())}
    for kind in ("lexical", "structural"):
        values = by_case[kinds == kind]
        out[kind] = float(values.mean()) if len(values) else float("nan")
    return out


# ------------------------------------------------------------------------- output structure


def token_category(token: str) -> str:
    """Footnote 20's categories: ``"index"`` (a Skolem index), ``"role"`` (thematic role,
    ``nmod`` or its preposition), ``"lexical"`` (noun, verb or proper name), or the token
    itself for a structure token (parentheses, ``AND``, ...), so two different structure tokens
    never count as the same category."""
    if token.isdigit():
        return "index"
    if token in STRUCTURE_TOKENS:
        return token
    if token in ROLE_TOKENS:
        return "role"
    return "lexical"


def _mismatches(prediction: str, gold: str) -> list[tuple[str, str]] | None:
    """The (predicted, gold) token pairs that differ, or None when the outputs differ in length
    or in a structure token or across categories (not structurally correct)."""
    p, g = prediction.split(), gold.split()
    if len(p) != len(g):
        return None
    out = []
    for a, b in zip(p, g, strict=True):
        if a == b:
            continue
        ca, cb = token_category(a), token_category(b)
        if ca != cb or cb not in ("index", "role", "lexical"):
            return None
        out.append((a, b))
    return out


def structure_correct(prediction: str, gold: str) -> bool:
    """Correct output structure (footnote 20); an exact match is structurally correct."""
    return _mismatches(prediction, gold) is not None


def only_index_errors(prediction: str, gold: str) -> bool:
    """Structurally correct, not exact, and every wrong token an index (Section 4.5.4's
    "structural form of the outputs were correct with only the indices being incorrect")."""
    wrong = _mismatches(prediction, gold)
    return bool(wrong) and all(token_category(b) == "index" for _, b in wrong)


def single_lexical_error(prediction: str, gold: str) -> bool:
    """A single lexical retrieval error (Section 4.5.5.1; module docstring)."""
    wrong = _mismatches(prediction, gold)
    if not wrong or any(token_category(b) != "lexical" for _, b in wrong):
        return False
    return len({b for _, b in wrong}) == 1


def ends_with_parenthesis(prediction: str) -> bool:
    """Section 4.5.3's simple well-formedness check: the output ends in ``)``."""
    tokens = prediction.split()
    return bool(tokens) and tokens[-1] == ")"


def well_formed(prediction: str) -> bool:
    """Parses as a COGS logical form with no semantic problems (:func:`compsem.cogs.lf.is_well_formed`)."""
    return lf.is_well_formed(prediction)


def edit_distance(a: Sequence, b: Sequence) -> int:
    """Levenshtein distance between two token sequences (unit costs), by the bit-parallel
    algorithm of Myers (1999) in Hyyrö's (2001) form for the edit distance: one integer holds a
    column of the vertical differences ``D[i, j] - D[i-1, j]`` of the dynamic programme
    ``D[i, j] = min(D[i-1, j] + 1, D[i-1, j-1] + [a_i != b_j], D[i, j-1] + 1)`` (as +1/-1 bit
    masks over the tokens of ``a``), updated once per token of ``b``; the score follows the last
    row. Exact, in integers."""
    if not a or not b:
        return len(a) + len(b)
    positions: dict = {}
    for i, token in enumerate(a):
        positions[token] = positions.get(token, 0) | (1 << i)
    full, top = (1 << len(a)) - 1, 1 << (len(a) - 1)
    plus, minus, score = full, 0, len(a)  # the first column: D[i, 0] = i
    for token in b:
        equal = positions.get(token, 0)
        vertical = equal | minus
        horizontal = (((equal & plus) + plus) ^ plus) | equal
        h_plus = minus | (~(horizontal | plus) & full)
        h_minus = plus & horizontal
        if h_plus & top:
            score += 1
        elif h_minus & top:
            score -= 1
        h_plus = ((h_plus << 1) | 1) & full  # the first row: D[0, j] = j
        h_minus = (h_minus << 1) & full
        plus = h_minus | (~(vertical | h_plus) & full)
        minus = h_plus & vertical
    return score


def recursion_depth(source: str, case: str) -> float:
    """Embedding depth of a depth-generalization example: the number of *that* (CP recursion) or
    of prepositions (PP recursion) in the sentence; NaN for the other cases. The released gen
    set has 100 examples at each depth 3..12 of both cases."""
    tokens = source.split()
    if case == "cp_recursion":
        return float(tokens.count("that"))
    if case == "pp_recursion":
        return float(sum(t in PREPOSITIONS for t in tokens))
    return float("nan")


# --------------------------------------------------------------------------- analysis frame


def join_gold(predictions: pd.DataFrame, gold: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Predictions (``split``, ``row``, ``prediction``, ...) with the ``source``, ``target`` and
    ``case`` of their example (``gold`` maps a split to its loader frame)."""
    parts = []
    for split, group in predictions.groupby("split", sort=False):
        if split not in gold:
            raise KeyError(f"no gold frame for split {split!r}; have {sorted(gold)}")
        examples = gold[split].iloc[group["row"].to_numpy()][["source", "target", "case"]]
        parts.append(
            pd.concat([group.reset_index(drop=True), examples.reset_index(drop=True)], axis=1)
        )
    return pd.concat(parts, ignore_index=True)


def analyse(frame: pd.DataFrame, with_semantics: bool = True) -> pd.DataFrame:
    """Per-example metrics of a frame with ``source``, ``target``, ``case`` and ``prediction``
    (and optionally ``capped``): adds ``exact``, ``semantic``, ``structure``, ``single_lexical``,
    ``only_index``, ``ends_paren``, ``well_formed``, ``pred_len``, ``gold_len``, ``depth`` and,
    for errors, ``edit_distance``."""
    out = frame.copy()
    pred, gold = out["prediction"].tolist(), out["target"].tolist()
    out["exact"] = exact_match(pred, gold)
    pred_forms = [lf.try_parse(p) for p in pred]  # parsed once: for equivalence and well-formedness
    if with_semantics:  # a gold form is parsed only where the prediction is not exact
        out["semantic"] = [e or (f is not None and lf.equivalent(f, g))
                           for e, f, g in zip(out["exact"], pred_forms, gold, strict=True)]
    out["structure"] = [structure_correct(p, g) for p, g in zip(pred, gold, strict=True)]
    out["single_lexical"] = [single_lexical_error(p, g) for p, g in zip(pred, gold, strict=True)]
    out["only_index"] = [only_index_errors(p, g) for p, g in zip(pred, gold, strict=True)]
    out["ends_paren"] = [ends_with_parenthesis(p) for p in pred]
    out["well_formed"] = [f is not None and lf.is_well_formed(f) for f in pred_forms]
    out["pred_len"] = [len(p.split()) for p in pred]
    out["gold_len"] = [len(g.split()) for g in gold]
    out["depth"] = [recursion_depth(s, c) for s, c in zip(out["source"], out["case"], strict=True)]
    out["edit_distance"] = [
        np.nan if e else float(edit_distance(p.split(), g.split()))
        for e, p, g in zip(out["exact"], pred, gold, strict=True)
    ]
    if "capped" not in out:
        out["capped"] = 0
    return out


def error_summary(analysed: pd.DataFrame) -> dict[str, float]:
    """Section 4.5.3 and 4.5.5.1 on generalization examples: among errors, the share not ending
    in ``)`` and not well-formed (parse), the mean token edit distance; among all examples, the
    share of single lexical errors and of structurally correct outputs."""
    errors = analysed[~analysed["exact"]]
    n_err = max(len(errors), 1)
    return {
        "errors": float(len(errors)),
        "error_not_ending_paren": float((~errors["ends_paren"]).sum() / n_err),
        "error_ill_formed": float((~errors["well_formed"]).sum() / n_err),
        "error_edit_distance": float(errors["edit_distance"].mean())
        if len(errors)
        else float("nan"),
        "single_lexical": float(analysed["single_lexical"].mean()),
        "structure_correct": float(analysed["structure"].mean()),
        "structure_correct_errors": float(errors["structure"].sum() / n_err),
    }


def depth_errors(analysed: pd.DataFrame) -> dict[str, float]:
    """Section 4.5.4 on the errors of the two depth cases: shares that end too early (shorter
    than the gold output), run longer than it, hit the length cap, or have the gold structure
    with only indices wrong."""
    errors = analysed[analysed["case"].isin(DEPTH_CASES) & ~analysed["exact"]]
    n = max(len(errors), 1)
    return {
        "depth_errors": float(len(errors)),
        "premature_end": float((errors["pred_len"] < errors["gold_len"]).sum() / n),
        "too_long": float((errors["pred_len"] > errors["gold_len"]).sum() / n),
        "capped": float((errors["capped"] > 0).sum() / n),
        "only_index": float(errors["only_index"].sum() / n),
    }


def accuracy_by_depth(analysed: pd.DataFrame) -> pd.DataFrame:
    """Exact-match accuracy of the depth cases by recursion depth (Table 4-6 in detail)."""
    depth = analysed[analysed["case"].isin(DEPTH_CASES)]
    return depth.pivot_table(index="depth", columns="case", values="exact", aggfunc="mean")


def accuracy_by_length(analysed: pd.DataFrame, bins: Sequence[int]) -> pd.DataFrame:
    """Exact-match accuracy and count by gold output length (tokens) in ``bins``."""
    binned = pd.cut(analysed["gold_len"], bins=list(bins), right=True)
    grouped = analysed.groupby(binned, observed=True)["exact"]
    return pd.DataFrame({"accuracy": grouped.mean(), "examples": grouped.size()})


def active_passive_errors(analysed: pd.DataFrame) -> dict[str, float]:
    """Section 4.5.5.2: Active -> Passive errors, and the share of them whose structure differs
    from the target's (uni-LSTM 0.3%, BiLSTM 0.5%, Transformer 79.6%)."""
    errors = analysed[(analysed["case"] == "active_to_passive") & ~analysed["exact"]]
    return {
        "errors": float(len(errors)),
        "wrong_structure": float((~errors["structure"]).mean()) if len(errors) else float("nan"),
    }


def noun_type_table(by_case: pd.Series) -> pd.DataFrame:
    """Common- vs proper-noun accuracy of the paired cases (Section 4.5.5.3)."""
    rows = [
        {
            "generalization": name,
            "common noun": by_case.get(common, np.nan),
            "proper noun": by_case.get(proper, np.nan),
        }
        for name, common, proper in NOUN_PAIRS
    ]
    table = pd.DataFrame(rows).set_index("generalization")
    table["common − proper"] = table["common noun"] - table["proper noun"]
    return table
