"""STR-2022 (Abdalla et al. 2023), the Table 9 column the authors published no similarities for:
its loader on the mirror file, and clear errors on malformed copies."""

from __future__ import annotations

import numpy as np
import pytest

from compsem.data import DataError
from compsem.data import sts_benchmarks as sb
from compsem.sts import table9


@pytest.mark.needs_data
def test_str2022_release():
    table = sb.load_str2022()
    assert table.shape == (5500, 5)
    assert list(table.columns) == ["source", "subset", "sentence_a", "sentence_b", "human"]
    assert table.index.is_unique and table.index.name == "pair_id"
    assert table["source"].value_counts().to_dict() == {
        "Formality": 1000, "Wikipedia": 1000, "Goodreads": 1000, "ParaNMT": 750, "SNLI": 750,
        "Stance": 750, "STS": 250}
    assert table.loc["STS_237", "sentence_a"] == "A black dog running through water."
    assert table.loc["STS_237", "sentence_b"] == "A black dog is running through some water."
    assert table.loc["STS_237", "human"] == 1.0
    assert table["human"].between(0, 1).all() and 0.45 < table["human"].mean() < 0.55
    assert not table["sentence_a"].str.contains("\n").any()
    assert (table["sentence_a"].str.len() > 0).all() and (table["sentence_b"].str.len() > 0).all()
    np.testing.assert_array_equal(sb.load_dataset("str-2022")["human"], table["human"])


@pytest.mark.needs_data
def test_str2022_is_a_table9_column():
    columns = table9.columns_for(["str-2022"])
    assert list(columns) == ["STR-2022"]
    dataset, mask = columns["STR-2022"]
    assert dataset == "str-2022" and mask.shape == (5500,) and mask.all()
    assert table9.cell_file("SentBERT", "STR-2022") is None  # no published similarities


def _write(tmp_path, text):
    path = tmp_path / "sem_text_rel_ranked.csv"
    path.write_text(text, encoding="utf-8")
    return path


HEADER = "Index,SourceID,SubsetID,PairID,Text,Score\n"


@pytest.mark.parametrize(("body", "message"), [
    ('0,STS,STS,STS_1,"One sentence only.",0.5\n', "two sentences separated by one newline"),
    ('0,STS,STS,STS_1,"A.\nB.",1.5\n', "not a number in \\[0, 1\\]"),
    ('0,STS,STS,STS_1,"A.\nB.",high\n', "not a number in \\[0, 1\\]"),
    ('0,STS,STS,STS_1,"A.\nB.",0.5\n1,STS,STS,STS_1,"C.\nD.",0.4\n', "duplicated PairID"),
])
def test_str2022_malformed(tmp_path, monkeypatch, body, message):
    path = _write(tmp_path, HEADER + body)
    monkeypatch.setattr(sb, "fetch", lambda _: path)
    with pytest.raises(DataError, match=message) as error:
        sb.load_str2022()
    assert str(path) in str(error.value)


def test_str2022_wrong_columns(tmp_path, monkeypatch):
    path = _write(tmp_path, 'id,text,score\n0,"A.\nB.",0.5\n')
    monkeypatch.setattr(sb, "fetch", lambda _: path)
    with pytest.raises(DataError, match="expected columns"):
        sb.load_str2022()


def test_str2022_parses_a_small_file(tmp_path, monkeypatch):
    path = _write(tmp_path, HEADER + '0,STS,STS,STS_1,"A dog runs.\nA dog is running.",0.9\n'
                  '1,SNLI,SNLI_x,SNLI_2,"Cats sleep.\n Stocks fell.",0.0\n')
    monkeypatch.setattr(sb, "fetch", lambda _: path)
    table = sb.load_str2022()
    assert table.loc["SNLI_2", "sentence_b"] == "Stocks fell."
    assert table["human"].tolist() == [0.9, 0.0]


def test_load_dataset_unknown():
    with pytest.raises(ValueError, match="str-2022"):
        sb.load_dataset("str-2023")
