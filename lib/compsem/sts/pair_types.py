"""A reconstructed pair type for each of the 2,800 STS3k pairs (§4.1, Table 7).

The authors' per-pair label file (``STS3k_all_full_expr_501.txt``: category, modifiers, split)
is not published (notes §1.3, §7), so this module rebuilds the labels from two kinds of
evidence, and records which one decided each pair in the column ``rule``:

1. **The row-block map** (notes §1.4, refined here by reading rows and by the Table 7 counts
   and §5.4 means; refinements marked [I]). 0-based rows, inclusive:

   ==========================  ===============================================================
   0-9                         Check (5 nonsense + 5 identical pairs)
   10-79                       Zero
   80-175                      Constant verb
   176-263                     Constant subj [I: all 88 rows keep the subject]
   264-295                     Constant dobj [I: the notes' "264-357 subj/dobj mixed" block
                               turns into verb-only changes at row 296]
   296-510                     Single change, 0 modifiers [I: from 296, not 358]
   511-690, 692-810            Added modifiers (ONLY_MOD), 1 modifier
   691                         Other (passive + verb change; notes §1.4)
   811-905 / 1116-1202 /       Single change with 1 / 2 / 3 modifiers
   1284-1314
   906-1115 / 1203-1283        ONLY_MOD with 2 / 3 modifiers
   1315-1359                   ONLY_MOD with 4 modifiers [I: human mean .640 = notes §5.4]
   1360-1648                   swap pairs ordered by type [I: boundaries read by eye]:
                               SWAP_DOBJ_VERB 1360-1429, SWAP_SUBJ_VERB 1430-1455,
                               SWAP_SUBJ_DOBJ 1456-1526, TRIPLE 1527-1596, QUAD 1597-1648
   1649-1719                   Paraphrase
   1720-1790                   Negative
   1791-1880, 2148-2202,       Other
   2469-2522, 2615-2632
   1881-2147, 2203-2468,       swaps / triples / quads with modifiers: type inherited from the
   2523-2614                   best-covered pair of 1360-1648 (the "family" rule, below)
   2633-2676                   ONLY_MOD with 6 modifiers [I: the same clause with different
                               modifiers in each sentence; human mean .549 = notes §5.4]
   2677-2737                   Adjective (adjective swaps, 61 rows)
   2738-2799                   Constant-type pairs with a synonym substituted for the kept word
                               (e.g. Cats -> Kittens) [I]: constant type of the best-covered
                               pair of 80-295, 1 "modifier"
   ==========================  ===============================================================

   With this map Zero, Adjective, Other, Check, Paraphrase, Added modifiers (299 + 210 + 81 +
   45 + 44 = 679), Triple swap and Negative equal Table 7; constant (278) and single change
   (428) totals equal Table 7, their split into verb/subj/dobj does not (see the chapter).

2. **Cheap lexical rules** on content words (lower case, the authors' stop words and
   punctuation removed, a crude suffix stemmer, :func:`content_stems`):

   - *single-change element* (AB_SUBJ / AB_VERB / AB_DOBJ, :func:`changed_element`): decided on
     the family's 0-modifier pair (same first sentence) when there is one, else on the pair;
   - *family*: a modified swap (or a constant synonym variant) inherits the category of the
     base pair whose content stems it covers best (:func:`_best_cover`).

Number of modifiers: from the block for single changes and ONLY_MOD; for modified swaps the
number of extra content stems of the pair over its base (per sentence, rounded, capped at 3),
an approximation (a modifier such as "for three days" adds two stems). Zero, constant, adjective,
paraphrase, negative: 0 (the synonym variants 1); checks and Other: NaN.

Where this is uncertain (say so in the chapter):

- the split of single changes into verb / dobj changes: :func:`changed_element` cannot tell a
  multi-word subject from a verb without a parser, and confuses object changes followed by a
  shared modifier with verb changes (too many AB_VERB, too few AB_DOBJ);
- the split of constant pairs: Table 7 gives dobj 88 / subj 94 while the blocks give subj 88
  (176-263) and dobj 32 (+ 62 synonym variants = 94): Table 7 may have swapped the two labels;
  and the notes' CONST_VERB mean (.080) is lower than the 80-175 block's (.117);
- the boundaries between swap sub-types in 1360-1648 (read by eye; double 539 vs 538, quad
  178 vs 179) and the modifier counts of modified swaps;
- "Other" is defined by blocks only.

Validation: :func:`type_modifier_means` against the published type x modifier human means
(notes §5 item 4; e.g. ONLY_MOD .779/.713/.673/.640/.549, PARAPHRASE .695, NEGATIVE .218,
ZERO .027, ADJECTIVE .487) and :func:`type_counts` against Table 7 (counts kept in
``data/targets/sts3k.json``, not here).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

TYPES = (
    "Zero",
    "Adjective",
    "Constant verb",
    "Constant dobj",
    "Constant subj",
    "Single change (verb)",
    "Single change (dobj)",
    "Single change (subj)",
    "Other",
    "Check",
    "Paraphrase",
    "Added modifiers",
    "Double swap",
    "Triple swap",
    "Quadruple swap",
    "Negative",
)
"""The 16 rows of Table 7, in the paper's order."""

ADVERSARIAL_TYPES = (
    "Paraphrase",
    "Added modifiers",
    "Double swap",
    "Triple swap",
    "Quadruple swap",
    "Negative",
)
"""Table 7's "Adv." column: the adversarial types (1,735 pairs)."""

CATEGORY_TYPE = {
    "ZERO": "Zero",
    "ADJECTIVE": "Adjective",
    "CONST_VERB": "Constant verb",
    "CONST_DOBJ": "Constant dobj",
    "CONST_SUBJ": "Constant subj",
    "AB_VERB": "Single change (verb)",
    "AB_DOBJ": "Single change (dobj)",
    "AB_SUBJ": "Single change (subj)",
    "OTHER": "Other",
    "CHECK": "Check",
    "PARAPHRASE": "Paraphrase",
    "ONLY_MOD": "Added modifiers",
    "SWAP_DOBJ_VERB": "Double swap",
    "SWAP_SUBJ_DOBJ": "Double swap",
    "SWAP_SUBJ_VERB": "Double swap",
    "TRIPLE": "Triple swap",
    "QUAD": "Quadruple swap",
    "NEGATIVE": "Negative",
}
"""Internal category codes of the authors' notebooks (notes §1.3) -> Table 7 type. ``CHECK`` is
ours: the notebooks file the identical checks under ONLY_MOD with 0 modifiers."""


def _rows(*spans: tuple[int, int]) -> np.ndarray:
    return np.concatenate([np.arange(a, b + 1) for a, b in spans])


# Row blocks (inclusive), notes §1.4 plus the refinements documented in the module docstring.
CHECK_ROWS = _rows((0, 9))
ZERO_ROWS = _rows((10, 79))
CONST_VERB_ROWS = _rows((80, 175))
CONST_SUBJ_ROWS = _rows((176, 263))
CONST_DOBJ_ROWS = _rows((264, 295))
SINGLE_ROWS = {
    0: _rows((296, 510)),
    1: _rows((811, 905)),
    2: _rows((1116, 1202)),
    3: _rows((1284, 1314)),
}
CONST_VARIANT_ROWS = _rows((2738, 2799))
ONLY_MOD_ROWS = {
    1: _rows((511, 690), (692, 810)),
    2: _rows((906, 1115)),
    3: _rows((1203, 1283)),
    4: _rows((1315, 1359)),
    6: _rows((2633, 2676)),
}
SWAP_BASE_ROWS = {
    "SWAP_DOBJ_VERB": _rows((1360, 1429)),
    "SWAP_SUBJ_VERB": _rows((1430, 1455)),
    "SWAP_SUBJ_DOBJ": _rows((1456, 1526)),
    "TRIPLE": _rows((1527, 1596)),
    "QUAD": _rows((1597, 1648)),
}
PARAPHRASE_ROWS = _rows((1649, 1719))
NEGATIVE_ROWS = _rows((1720, 1790))
OTHER_ROWS = _rows((691, 691), (1791, 1880), (2148, 2202), (2469, 2522), (2615, 2632))
MODIFIED_SWAP_ROWS = _rows((1881, 2147), (2203, 2468), (2523, 2614))
ADJECTIVE_ROWS = _rows((2677, 2737))

_WORD = re.compile(r"[a-z]+")
_EXTRA_STOP = frozenset({"one", "also"})


def stem(word: str) -> str:
    """A crude suffix stripper, enough to match inflections of one word within a pair
    (supplies/supply, judged/judge, studied/study, presented/presents)."""
    for suffix, repl in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: len(word) - len(suffix)] + repl
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def content_stems(sentence: str, stopwords: frozenset[str]) -> tuple[str, ...]:
    """Content words of a sentence, in order: lower case, letters only (possessive 's dropped),
    the authors' stop words removed, then :func:`stem`."""
    words = _WORD.findall(sentence.lower().replace("'s", ""))
    return tuple(stem(w) for w in words if w not in stopwords and w not in _EXTRA_STOP)


def is_subset_pair(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when all content stems of the shorter sentence occur in the longer one and it is
    longer: one sentence only adds modifiers to the other. Not used for labelling (the ONLY_MOD
    blocks are known); a check on them: it holds for most ONLY_MOD pairs with 1-3 modifiers
    (not for passives with irregular participles, or changed modifiers)."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return set(short) <= set(long_) and len(long_) > len(short)


def changed_element(a: tuple[str, ...], b: tuple[str, ...]) -> str:
    """Which of subject / verb / object a single change replaced (AB_SUBJ, AB_VERB, AB_DOBJ).

    First content stems differ -> subject; else the first position where the sequences differ:
    if the rest after it is shared (only one word replaced and nothing after it differs) and it
    is the last differing word of the shorter sentence -> object, if it is the second word
    (right after a one-word subject) -> verb. Fallback for longer subjects: a shared last stem
    means the change was in the middle (verb), otherwise object.
    """
    if not a or not b or a[0] != b[0]:
        return "AB_SUBJ"
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    if i == 1:
        return "AB_VERB"
    return "AB_VERB" if a[-1] == b[-1] else "AB_DOBJ"


def _best_cover(bag: set, bases: list[set]) -> int:
    """Index of the base bag with the largest share of its stems in ``bag`` (ties: the base
    leaving fewest extra stems in ``bag``)."""
    scores = [len(bag & base) / max(len(base), 1) - 1e-3 * len(bag - base) for base in bases]
    return int(np.argmax(scores))


def reconstruct_pair_types(pairs: pd.DataFrame, stopwords: frozenset[str]) -> pd.DataFrame:
    """Table 7 type, internal category code, number of modifiers and deciding rule per pair.

    ``pairs`` is :func:`compsem.data.sts3k.load_pairs` (index ``pair_id`` 0-2799, columns
    ``sentence_a``, ``sentence_b``); ``stopwords`` is :func:`compsem.data.sts3k.load_stopwords`.
    Returns a DataFrame indexed like ``pairs`` with columns ``type`` (one of :data:`TYPES`),
    ``category`` (a key of :data:`CATEGORY_TYPE`), ``n_modifiers`` (float, NaN if unknown) and
    ``rule`` (``block``: the row block alone; ``block+lexical``: the block and
    :func:`changed_element` on the pair itself; ``family``: inherited from a related pair; see
    the module docstring for the evidence and uncertainties).
    """
    n = len(pairs)
    if n != 2800:
        raise ValueError(f"expected the 2,800 STS3k pairs in file order, got {n}")
    a = [content_stems(s, stopwords) for s in pairs["sentence_a"]]
    b = [content_stems(s, stopwords) for s in pairs["sentence_b"]]
    category = np.full(n, "", dtype=object)
    n_mod = np.full(n, np.nan)
    rule = np.full(n, "block", dtype=object)

    def put(rows, code, mods=np.nan, how="block"):
        category[rows] = code
        n_mod[rows] = mods
        rule[rows] = how

    put(CHECK_ROWS, "CHECK")
    put(ZERO_ROWS, "ZERO", 0)
    put(CONST_VERB_ROWS, "CONST_VERB", 0)
    put(CONST_SUBJ_ROWS, "CONST_SUBJ", 0)
    put(CONST_DOBJ_ROWS, "CONST_DOBJ", 0)
    put(PARAPHRASE_ROWS, "PARAPHRASE", 0)
    put(NEGATIVE_ROWS, "NEGATIVE", 0)
    put(OTHER_ROWS, "OTHER", np.nan)
    put(ADJECTIVE_ROWS, "ADJECTIVE", 0)
    for k, rows in ONLY_MOD_ROWS.items():
        put(rows, "ONLY_MOD", k)

    # Single changes: element from the 0-modifier pair of the family (same first sentence).
    first = pairs["sentence_a"].to_numpy()
    zero_mod = {first[i]: changed_element(a[i], b[i]) for i in SINGLE_ROWS[0]}
    for k, rows in SINGLE_ROWS.items():
        for i in rows:
            code = zero_mod.get(first[i]) if k else None
            put(i, code or changed_element(a[i], b[i]), k, "family" if code else "block+lexical")
    # Synonym variants of constant pairs (2738-2799): the constant type of the base pair they cover best.
    const_rows = np.concatenate([CONST_VERB_ROWS, CONST_SUBJ_ROWS, CONST_DOBJ_ROWS])
    const_bags = [set(a[j]) | set(b[j]) for j in const_rows]
    for i in CONST_VARIANT_ROWS:
        j = const_rows[_best_cover(set(a[i]) | set(b[i]), const_bags)]
        put(i, category[j], 1, "family")

    for code, rows in SWAP_BASE_ROWS.items():
        put(rows, code, 0)

    # Modified swaps inherit the type of the base pair they cover best.
    base_rows = np.concatenate(list(SWAP_BASE_ROWS.values()))
    base_bags = [set(a[j]) | set(b[j]) for j in base_rows]
    for i in MODIFIED_SWAP_ROWS:
        j = base_rows[_best_cover(set(a[i]) | set(b[i]), base_bags)]
        extra = (len(a[i]) + len(b[i]) - len(a[j]) - len(b[j])) / 2
        put(i, category[j], float(min(3, max(0, round(extra)))), "family")

    if (category == "").any():
        raise AssertionError(f"rows without a label: {np.flatnonzero(category == '')[:10]}")
    labels = pd.DataFrame(
        {
            "type": [CATEGORY_TYPE[c] for c in category],
            "category": category,
            "n_modifiers": n_mod,
            "rule": rule,
        },
        index=pairs.index,
    )
    labels["type"] = pd.Categorical(labels["type"], categories=list(TYPES))
    return labels


def type_counts(labels: pd.DataFrame, published: dict[str, int] | None = None) -> pd.DataFrame:
    """Number of pairs per Table 7 type, in Table 7's order, with the published count beside
    it when ``published`` (type -> count, e.g. from ``data/targets/sts3k.json``) is given."""
    counts = labels["type"].value_counts().reindex(list(TYPES), fill_value=0).rename("ours")
    table = counts.to_frame()
    table["adversarial"] = [t in ADVERSARIAL_TYPES for t in TYPES]
    if published is not None:
        table["table7"] = [published.get(t, np.nan) for t in TYPES]
        table["difference"] = table["ours"] - table["table7"]
    table.index.name = "type"
    return table


def type_modifier_means(labels: pd.DataFrame, human) -> pd.DataFrame:
    """Mean human similarity by internal category x number of modifiers (notes §5 item 4, the
    check on the reconstruction). Rows: categories; columns: modifier counts; NaN = no pairs."""
    frame = labels[["category", "n_modifiers"]].copy()
    frame["human"] = np.asarray(human, dtype=float)
    frame["n_modifiers"] = frame["n_modifiers"].fillna(-1).astype(int)
    table = frame.pivot_table(
        index="category", columns="n_modifiers", values="human", aggfunc="mean"
    )
    return table.rename(columns={-1: "unknown"})
