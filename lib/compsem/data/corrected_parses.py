"""The authors' hand-corrected VerbNet parses of the sets besides STS3k (Fodor et al. 2025, §4.6).

The authors parsed the sentences of several similarity sets with SemParse and corrected the parses
by hand, as they did for STS3k (:func:`compsem.data.sts3k.load_verbnet_parses`). Three workbooks
hold such corrected parses (:data:`CORRECTED_PARSES`); the pair files they belong to are read by
:func:`compsem.data.sts_benchmarks.load_processed`.
"""

from __future__ import annotations

import json

import pandas as pd

from compsem.data.registry import DataError, fetch
from compsem.data.sts3k import ROLES, VERBNET_DIR
from compsem.data.sts_benchmarks import load_processed

CORRECTED_PARSES = {
    # PROCESSED name: the authors' workbook of hand-corrected VerbNet parses of that set
    "gs2011": "GS2011_processed VerbNet Parse Fixed.xlsx",
    "stss-131": "STS131 VerbNet Parse Fixed.xlsx",
    "fodor-pilot-2022": "Fodor_Pilot_2022 VerbNet Parse Fixed.xlsx",
}
"""The sets besides STS3k whose VerbNet role parses the authors corrected by hand (§4.6)."""


def load_corrected_parses(name: str) -> pd.DataFrame:
    """The authors' hand-corrected VerbNet parses of one of :data:`CORRECTED_PARSES` (§4.6).

    Read from the workbook's ``final`` sheet: one row per pair with both sentences, the pair
    number (``Indx``, 1-based, the row of the processed pair file) and each sentence's eight roles
    as a JSON object (columns ``Complete`` and ``Complete.1``: the roles VerbNet-CN compares), plus
    an ``Attribute`` column (the complement of a copula in STSS-131, which is not one of the eight
    roles). Returns one row per (``pair_id``, ``sentence`` "a"/"b"): ``text``, the eight roles of
    :data:`compsem.data.sts3k.ROLES` (None where absent) and ``Attribute`` (None where absent).
    The pairs are checked against the processed pair file (same number, same sentences)."""
    if name not in CORRECTED_PARSES:
        raise ValueError(f"no corrected parses of {name!r}; known: {', '.join(CORRECTED_PARSES)}")
    file = fetch(f"{VERBNET_DIR}/{CORRECTED_PARSES[name]}")
    table = pd.read_excel(file, sheet_name="final", header=0).dropna(subset=["Sentence 1"])
    pairs = load_processed(name)
    if len(table) != len(pairs):
        raise DataError(f"{file}: {len(table)} pairs, but the pair file of {name!r} has {len(pairs)}")
    rows = []
    for position, row in table.iterrows():
        pair_id = int(row["Indx"]) - 1
        for side, text, complete, attribute in (("a", "Sentence 1", "Complete", "Attribute"),
                                                ("b", "Sentence 2", "Complete.1", "Attribute.1")):
            where = f"{file} sheet 'final' row {position + 2}, column {complete!r}"
            try:
                parsed = json.loads(row[complete])
            except (TypeError, ValueError) as error:
                raise DataError(f"{where}: not a JSON object of roles ({error})") from error
            if not isinstance(parsed, dict) or not set(ROLES) <= set(parsed):
                raise DataError(f"{where}: expected the roles {', '.join(ROLES)}")
            expected = pairs.iloc[pair_id][f"sentence_{side}"] if 0 <= pair_id < len(pairs) else None
            if expected is None or " ".join(str(row[text]).split()) != " ".join(expected.split()):
                raise DataError(f"{file} row {position + 2}: pair {pair_id + 1}'s sentence {side!r} "
                                f"is not the pair file's ({expected!r})")
            extra = row.get(attribute)
            rows.append({"pair_id": pair_id, "sentence": side, "text": expected,
                         **{r: _role_value(parsed[r]) for r in ROLES}, "Attribute": _role_value(extra)})
    return pd.DataFrame(rows).set_index(["pair_id", "sentence"]).sort_index()


def _role_value(value) -> str | None:
    """A role cell as text, None for the workbooks' 'NONE', an empty cell or NaN."""
    if not isinstance(value, str) or value.strip() in ("", "NONE"):
        return None
    return value.strip()
