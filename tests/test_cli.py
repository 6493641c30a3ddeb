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
     (["run", "no-such-chapter"], "no chapter 'no-such-chapter'"),
     (["run", "../notebooks/sts3k-data"], "no chapter '../notebooks/sts3k-data'"),
     (["run", "/tmp/sts3k-data"], "no chapter '/tmp/sts3k-data'"),
     (["run", "sts3k-data", "-p", "n_splits", "0"], "parameter 'n_splits' (-p override) = 0"),
     (["run", "sts3k-data", "-p", "sd_ddof", "5000"], "must be <= 1"),
     (["run", "sts3k-data", "-p", "sample_sizes", "[25, 50"], "is not valid YAML")],
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


def test_setup_problems_are_a_message_not_a_traceback(monkeypatch, capsys):
    """`compsem setup` on a machine without a model package: exit 2 and the fix, no traceback."""
    from compsem import model_packages
    from compsem.models import ModelUnavailableError

    def missing(progress=None):
        raise ModelUnavailableError("setup is incomplete:\n  spacy_md is missing: pip install ...")

    monkeypatch.setattr(model_packages, "install_missing", lambda progress=None: [])
    monkeypatch.setattr(model_packages, "ensure_all", missing)
    assert cli.main(["setup"]) == 2
    err = capsys.readouterr().err
    assert "compsem: error: setup is incomplete" in err and "pip install" in err
    assert "Traceback" not in err


def test_python_m_compsem_is_the_command():
    """issue 44, case 14: `python -m compsem` once said there was no __main__ module."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "compsem", "list"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "sts3k-data" in done.stdout
    done = subprocess.run([sys.executable, "-m", "compsem", "run", "no-such-chapter"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "no chapter 'no-such-chapter'" in done.stderr
