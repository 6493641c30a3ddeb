"""The compsem command line: listing, fail-fast parameter errors with exit code 2, freshness."""

from __future__ import annotations

import pytest

from compsem import cli


def test_list_shows_chapters_and_parameters(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "sts3k-data" in out and "n_splits=100" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["run", "sts3k-data", "-p", "n_split", "200"], "unknown parameter 'n_split'"),
     (["run", "sts3k-data", "-p", "n_splits", "many"], "must be int"),
     (["run", "sts3k-data", "-P", "huge"], "unknown profile"),
     (["run", "no-such-chapter"], "no chapter 'no-such-chapter'")],
)
def test_bad_run_fails_fast_with_exit_code_2(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_check_reports_fresh_notebooks(capsys):
    assert cli.main(["check"]) == 0
    assert "fresh" in capsys.readouterr().out


@pytest.mark.needs_data
def test_data_verify_named_files(capsys):
    assert cli.main(["data", "verify", "bmmlab/compositional-semantics-eval/stopwords.txt"]) == 0
    assert "1 of 1 files verified" in capsys.readouterr().out
