"""The ``[w_n]`` variant of COGS (Kim 2021, Section 5.2.3, "Modification to the Compositional
Generalization Dataset").

Auxiliary training on outside text could fill COGS's controlled lexical gaps (a corpus may use
*hedgehog* as an object), so in Chapter 5 every lexical item that defines a lexical gap -- the
bold items of Table 4-1, i.e. the 15 exposure items: 8 nouns and 7 verbs -- is replaced by a
special token ``[w_n]`` in the input *and* in the logical form, inflected and root verb forms by
different tokens (footnote 12): 21 tokens in all, e.g. (example (10), COGS-tokenised)
``Emma appreciated the [w_0] .`` ->
``* [w_0] ( x _ 3 ) ; appreciate . agent ( x _ 1 , Emma ) AND appreciate . theme ( x _ 1 , x _ 3 )``.

The numbering is the released code's (``najoungkim/cogs-with-pretraining``):
*shark* is ``[w_1]`` and *Lina* ``[w_3]``. Footnote 12 of Section 5.2.3 maps *Lina* to
``[w_1]``; the example in the dissertation's body (``A [w_1] burned Sophia.``, example (11) of
Section 5.2.6) agrees with the code, so the code's numbering is used.

Masking works on whitespace tokens: a token is replaced only when it *is* one of the 21 forms
(``bakery`` stays, ``baked`` becomes ``[w_6]``), so it never touches the structure of a logical
form. :func:`mask_text` is exact and case-sensitive, as the COGS files spell every item one way;
``ignore_case=True`` (used on outside text, where *Shark* may open a sentence) also masks
capitalised or upper-case spellings. :func:`unmask_text` inverts the COGS masking exactly.
"""

from __future__ import annotations

import pandas as pd

GAP_TOKENS: dict[str, str] = {
    # nouns (common and proper)
    "hedgehog": "[w_0]",
    "shark": "[w_1]",
    "cockroach": "[w_2]",
    "Lina": "[w_3]",
    "Paula": "[w_4]",
    "Charlie": "[w_5]",
    "cobra": "[w_11]",
    "hippo": "[w_12]",
    # verbs: inflected (past tense / participle) and root (lemma, as in logical forms)
    "baked": "[w_6]",
    "bake": "[w_7]",
    "shattered": "[w_8]",
    "shatter": "[w_9]",
    "crawl": "[w_10]",
    "blessed": "[w_13]",
    "bless": "[w_14]",
    "squeezed": "[w_15]",
    "squeeze": "[w_16]",
    "teleported": "[w_17]",
    "teleport": "[w_18]",
    "shipped": "[w_19]",
    "ship": "[w_20]",
}
"""The 21 gap forms and their tokens (Section 5.2.3; numbering of the released code)."""

MASK_TOKENS = frozenset(GAP_TOKENS.values())
_UNMASK = {token: word for word, token in GAP_TOKENS.items()}
_LOWER = {word.lower(): token for word, token in GAP_TOKENS.items()}

if len(MASK_TOKENS) != 21 or len(_LOWER) != 21:  # pragma: no cover - a typo in the table
    raise AssertionError("the [w_n] map must have 21 distinct forms and tokens")


def mask_tokens(tokens: list[str], ignore_case: bool = False) -> list[str]:
    """``tokens`` with every gap form replaced by its ``[w_n]`` token."""
    if ignore_case:
        return [_LOWER.get(t.lower(), t) for t in tokens]
    return [GAP_TOKENS.get(t, t) for t in tokens]


def mask_text(text: str, ignore_case: bool = False) -> str:
    """:func:`mask_tokens` on the whitespace tokens of ``text`` (re-joined with single spaces)."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}: {text!r}")
    return " ".join(mask_tokens(text.split(), ignore_case))


def unmask_text(text: str) -> str:
    """The inverse of :func:`mask_text` on COGS text: every ``[w_n]`` back to its form."""
    return " ".join(_UNMASK.get(t, t) for t in text.split())


def mask_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A COGS frame (columns ``source``, ``target``, ``case``) with both the sentence and the
    logical form masked; other columns and the index are kept."""
    missing = {"source", "target"} - set(frame.columns)
    if missing:
        raise ValueError(f"frame lacks columns {sorted(missing)}; expected a COGS frame")
    out = frame.copy()
    out["source"] = [mask_text(s) for s in frame["source"]]
    out["target"] = [mask_text(t) for t in frame["target"]]
    return out


def load_masked(split: str) -> pd.DataFrame:
    """A COGS split (:func:`compsem.data.cogs.load`; ``train_100`` for ``"train-100"``) in its
    ``[w_n]`` variant."""
    from compsem.data import cogs

    if split == "train-100":
        from compsem.cogs.exposure import train_100

        return mask_frame(train_100())
    if split not in cogs.SPLITS:
        known = ", ".join([*cogs.SPLITS, "train-100"])
        raise ValueError(f"split must be one of {known}; got {split!r}")
    return mask_frame(cogs.load(split))


def mask_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """How often each ``[w_n]`` token occurs in the sources and targets of a masked frame:
    one row per gap form (index), columns ``token``, ``source``, ``target``."""
    rows = {}
    for word, token in GAP_TOKENS.items():
        rows[word] = {
            "token": token,
            "source": sum(s.split().count(token) for s in frame["source"]),
            "target": sum(t.split().count(token) for t in frame["target"]),
        }
    return pd.DataFrame.from_dict(rows, orient="index")
