"""compsem scorecard (issue #20): the CLI on a small battery subset, its errors, and the Dask
sweep against single runs."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from compsem import cli, determinism, scorecard


@pytest.mark.needs_data
def test_cli_subset_writes_a_tidy_table(tmp_path):
    out = tmp_path / "card"
    assert cli.main(["scorecard", "glove50", "--subset", "--out", str(out), "-q"]) == 0
    table = pd.read_csv(out / "scorecard.csv")
    assert tuple(table.columns) == scorecard.COLUMNS
    assert set(table["model"]) == {"glove50"}
    assert list(dict.fromkeys(table["battery"])) == ["sts", "modifiers", "probing"]
    assert np.isfinite(table["value"]).all()
    bounded = table.dropna(subset=["low", "high"])
    assert len(bounded) >= len(table) - 3  # only the class-difference p values have no interval
    assert (bounded["low"] <= bounded["value"] + 1e-9).all()
    assert (bounded["value"] <= bounded["high"] + 1e-9).all()
    ceilings = table.set_index("measure")["ceiling"]
    for column in ("STS3k-all", "STS3k-non", "STS3k-adv"):  # §5.1 split-half reliability
        assert 0.9 < ceilings[column] < 1
    assert np.isnan(ceilings["STSb-test"])
    assert {"SemRole accuracy", "Negation selectivity", "AN S-I", "NS NS-Pr",
            "STS3k within Swap-4"} <= set(table["measure"])
    assert (out / "scorecard-glove50.pdf").stat().st_size > 0
    assert (out / "scorecard.parquet").is_file()  # pyarrow is a dependency: always written
    pd.testing.assert_frame_equal(pd.read_parquet(out / "scorecard.parquet"), table)


@pytest.mark.parametrize(
    "args, message",
    [
        (["glove50", "--batteries", "sts,tarot"], "unknown batteries ['tarot']"),
        (["no-such-model"], "unknown model 'no-such-model'"),
        (["mean:glove50", "--batteries", "probing"], "cannot run the probing battery"),
        (["conv:glove50", "--batteries", "modifiers"], "cannot run the modifiers battery"),
        # issue 44, case 13: once a traceback after the battery had started
        (["minilm:layer999"], "minilm has hidden-state layers 0..6"),
        (["hf:../../etc"], "is not a folder with a saved model"),
        (["hf:owner/na..me"], "is not a Hugging Face hub id"),
    ],
)
def test_cli_refuses_unknown_batteries_and_models(tmp_path, capsys, args, message):
    assert cli.main(["scorecard", *args, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not any(tmp_path.iterdir())  # nothing ran, nothing written


def test_write_refuses_a_table_without_the_columns(tmp_path):
    with pytest.raises(ValueError, match="missing"):
        scorecard.write(pd.DataFrame({"model": ["x"], "value": [1.0]}), tmp_path)


def test_figure_marks_the_range_of_the_packaged_models():
    rows = [dict(model=m, battery="sts", measure="STS3k-adv", value=v, low=v - 0.1, high=v + 0.1,
                 ceiling=0.94) for m, v in (("minilm", 0.1), ("mpnet", 0.3), ("sdae", 0.2))]
    fig = scorecard.figure(pd.DataFrame(rows), "sdae")
    band = fig.axes[0].patches[0]  # the grey bar from the lowest to the highest packaged model
    assert band.get_x() == pytest.approx(0.1) and band.get_width() == pytest.approx(0.2)
    with pytest.raises(ValueError, match="no rows for model 'glove50'"):
        scorecard.figure(pd.DataFrame(rows), "glove50")


@pytest.mark.slow
@pytest.mark.needs_data
def test_run_many_equals_single_runs():
    models = ["glove50", "mean:glove50"]
    swept = scorecard.run_many(models, ["sts"], subset=True, progress=False)
    single = pd.concat([scorecard.run(m, ["sts"], subset=True, progress=False) for m in models],
                       ignore_index=True)
    pd.testing.assert_frame_equal(swept, single)


@pytest.mark.needs_data
def test_modifier_rows_are_the_paper_table_cells():
    """AN (001 T1), NS (T4) and pair (S-I, Y) (T3) rows equal the cells of ModelResults.scores;
    each interval brackets its cell."""
    from compsem.modifiers import experiment, lexicon
    from compsem.modifiers.lexicon import CLASSES
    from compsem.scorecard import modifiers

    rows = pd.DataFrame(modifiers.rows("mean:glove50", subset=True, n_boot=50)).set_index("measure")
    result = experiment.run("mean:glove50", lexicon.load(), aan=False, synonym_control=False)
    for c in CLASSES:
        assert rows.loc[f"AN {c}", "value"] == pytest.approx(result.scores("an")[(c,)])
        assert rows.loc[f"NS {c}", "value"] == pytest.approx(result.scores("ns")[(c,)])
        if c != "S-I":
            assert rows.loc[f"pair S-I/{c}", "value"] == pytest.approx(result.scores("pair")[("S-I", c)])
    assert "AAN S-I+S-I" not in rows.index  # the subset skips the AAN test
    bounded = rows.dropna(subset=["low", "high"])
    assert ((bounded["low"] <= bounded["value"] + 1e-12) & (bounded["value"] <= bounded["high"] + 1e-12)).all()


# --- issue 44, cases 2 and 8: the output folder before any work; the chapters' numerics ---

def test_cli_out_that_is_a_file_stops_before_any_model_is_scored(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(scorecard, "run", lambda *a, **k: pytest.fail("nothing may be scored"))
    taken = tmp_path / "taken"
    taken.write_text("a file\n")
    assert cli.main(["scorecard", "glove50", "--subset", "--out", str(taken)]) == 2
    err = capsys.readouterr().err
    assert f"--out {taken} is a file, not a folder" in err and "Traceback" not in err
    assert taken.read_text() == "a file\n"


@pytest.mark.skipif(not determinism.KERNEL_ENV, reason="no fixed kernel settings on this CPU")
def test_cli_runs_again_under_the_chapters_kernel_settings(tmp_path, monkeypatch):
    """numpy is loaded before the command can set the kernel variables, which act only when a
    library loads: without them the command runs again in a fresh process that has them."""
    for key in determinism.KERNEL_ENV:
        monkeypatch.delenv(key, raising=False)
    calls = []

    def fake_run(command, env):
        calls.append((command, env))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(subprocess, "run", fake_run)
    monkeypatch.setattr(scorecard, "run", lambda *a, **k: pytest.fail("must run in the child"))
    argv = ["scorecard", "glove50", "--subset", "--out", str(tmp_path / "card"), "-q"]
    assert cli.main(argv) == 0
    [(command, env)] = calls
    assert command == [sys.executable, "-m", "compsem", *argv]
    assert all(env[key] == value for key, value in determinism.KERNEL_ENV.items())
    threads = str(determinism.KERNEL_THREADS)  # the chapters' thread count too
    assert all(env[key] == threads for key in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"))


@pytest.mark.skipif(not determinism.KERNEL_ENV, reason="no fixed kernel settings on this CPU")
def test_cli_runs_again_when_only_the_thread_count_differs(tmp_path, monkeypatch):
    for key, value in determinism.KERNEL_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("OMP_NUM_THREADS", str(determinism.KERNEL_THREADS + 1))
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda command, env: calls.append(env)
                        or subprocess.CompletedProcess(command, 0))
    monkeypatch.setattr(scorecard, "run", lambda *a, **k: pytest.fail("must run in the child"))
    assert cli.main(["scorecard", "glove50", "--subset", "--out", str(tmp_path / "card"), "-q"]) == 0
    [env] = calls
    assert env["OMP_NUM_THREADS"] == str(determinism.KERNEL_THREADS)


@pytest.mark.slow
@pytest.mark.needs_data
def test_scorecard_says_it_computed_with_the_chapters_numerics(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in determinism.KERNEL_ENV}
    done = subprocess.run([sys.executable, "-m", "compsem", "scorecard", "glove50", "--batteries",
                           "modifiers", "--subset", "--out", str(tmp_path), "-q"],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    expected = "avx2-cnr" if determinism.KERNEL_ENV else determinism.numerics()
    assert f"(numerics {expected})" in done.stdout


def test_study_spec_scores_word_vector_models_as_the_chapters_do():
    from compsem.scorecard.specs import study_spec

    assert study_spec("glove50") == "mean:glove50"
    assert study_spec("spacy-md") == "mean:spacy-md"
    for spec in ("minilm", "mpnet:layer6", "mean:glove50", "overlap", "sdae"):
        assert study_spec(spec) == spec


@pytest.mark.needs_data
def test_sts_battery_scores_as_sts3k_models():
    """A word-vector model's STS cells are those of its Mean composition, unstandardised (the
    rows sts3k-models recomputes as mean:<vectors>); a sentence encoder's are on standardised
    embeddings (the chapter's (std) rows)."""
    from compsem.data import sts3k
    from compsem.scorecard import sts
    from compsem.sts import scoring

    pairs = sts3k.load_pairs().head(200)
    np.testing.assert_array_equal(
        sts.similarities("glove50", pairs),
        scoring.pair_similarities("mean:glove50", pairs, show_progress=False))
    rows = pd.DataFrame(sts.rows("glove50", subset=True, n_boot=20))
    same = pd.DataFrame(sts.rows("mean:glove50", subset=True, n_boot=20))
    pd.testing.assert_frame_equal(rows, same)
    # a sentence encoder: standardised embeddings ("centre"), not its raw cosines
    encoder = sts.similarities("minilm", pairs, device="cpu")
    np.testing.assert_array_equal(encoder, scoring.pair_similarities(
        "minilm", pairs, standardised=True, method="centre", device="cpu", show_progress=False))
    raw = scoring.pair_similarities("minilm", pairs, device="cpu", show_progress=False)
    assert not np.allclose(encoder, raw, atol=1e-3)


# --- the paper's cell beside a scorecard row (compsem.scorecard.paper) ---


@pytest.mark.parametrize("model, measure, key, paper, relation", [
    ("mpnet", "STS3k-adv", "table9_sentbert_sts3k_adv", 0.145, "the paper's model"),
    ("mpnet", "STS3k-all", "table9_sentbert_sts3k_all", 0.580, "the paper's model"),
    ("glove50", "STS3k-adv", "table9_mean_cn_sts3k_adv", -0.291, "substitute"),
    ("spacy-md", "STS3k-adv", "table9_mean_cn_sts3k_adv", -0.291, "substitute"),
    ("mean:glove50", "STSb-test", "table9_mean_cn_stsb_test", 0.689, "substitute"),
    ("sdae", "SemRole accuracy", "probe_2018_sdae_sr", 63.7, "substitute"),
    ("sdae", "Order accuracy", "probe_2018_sdae_order", 92.9, "substitute"),
    ("spacy-md", "SemRole accuracy", "probe_2018_bow_sr", 51.3, "substitute"),
    ("spacy-md", "Negation accuracy", "probe_2018_bow_neg", 50.9, "substitute"),
    ("minilm", "NS S-I", "mod_minilm_ns_si_001t8", 0.6136, "the paper's model"),
    ("minilm", "pair S-I/NS-Pr", "mod_minilm_pair_si_nspr_001t7", 0.5197, "the paper's model"),
    ("minilm", "AAN A+S-I", "mod_minilm_aan_a_si_001t6", 0.9722, "the paper's model"),
    ("minilm", "AN S-I", "mod_minilm_an_si_001t1", 1.0, "the paper's model"),
    ("glove50", "pair S-I/A", "mod_glove_pair_si_a_001t7", 0.4684, "substitute"),
])
def test_paper_cell_is_the_papers_number_of_the_row_the_model_stands_for(model, measure, key, paper,
                                                                         relation):
    from compsem.scorecard.paper import paper_cell
    from compsem.targets import load_targets

    cell = paper_cell(model, measure)
    assert cell is not None and cell["key"] == key and cell["relation"] == relation
    assert cell["paper"] == pytest.approx(paper)
    study = {"sts": "sts3k", "probing": "probing", "modifiers": "modifiers"}[cell["battery"]]
    assert cell["paper"] == load_targets(study)[key]["paper"]


@pytest.mark.parametrize("model, measure", [
    ("mpnet", "STS3k within Swap-2"),  # an extension: no paper value
    ("mpnet:layer6", "STS3k-adv"),  # a layer is not the paper's SentBERT
    ("minilm", "STS3k-adv"),  # Table 9 has no MiniLM row
    ("overlap", "STS3k-adv"),
    ("bow", "SemRole accuracy"),  # one-hot BOW is not the 2018 BOW row (averaged vectors)
    ("glove50", "SemRole accuracy"),  # the probing chapter runs the spaCy mean for BOW
    ("sdae", "SemRole control task"),
    ("sdae", "SemRole selectivity"),
    ("mpnet", "NS S-I"),  # a stand-in for DistilRoBERTa: compared with nothing
    ("minilm", "class difference p (ns)"),
])
def test_paper_cell_is_none_where_the_paper_prints_no_such_number(model, measure):
    from compsem.scorecard.paper import paper_cell

    assert paper_cell(model, measure) is None


def test_paper_cells_of_a_table_in_table_order():
    from compsem.scorecard.paper import COLUMNS, paper_cells

    table = pd.DataFrame({"model": ["bow", "sdae", "mpnet", "mpnet"],
                          "measure": ["Order accuracy", "Order accuracy", "STS3k-adv", "STS3k-adv"]})
    cells = paper_cells(table)
    assert list(cells.columns) == list(COLUMNS)
    assert list(zip(cells["model"], cells["row"], strict=True)) == [("sdae", "SDAE"), ("mpnet", "SentBERT")]
    assert paper_cells(table.iloc[:1]).empty


@pytest.mark.needs_data
def test_probe_accuracy_is_the_mean_over_its_mlp_seeds():
    """The probing battery trains each probe with ``probe_seeds`` MLP seeds on the same items:
    the accuracy is the mean of the single-seed accuracies, its interval covers items and
    seeds, and the control task stays the first seed's."""
    from compsem.data import probing as released_files
    from compsem.probing import experiment, lexicon, released2018
    from compsem.scorecard import probing

    def table(**options):
        rows = probing.rows("glove50", subset=True, n_boot=200, seed=0, **options)
        return pd.DataFrame(rows).set_index("measure")

    first, both = table(probe_seeds=1), table(probe_seeds=2)
    lex = lexicon.load()
    frames = {task: released2018.subsample(released2018.annotate_released(released_files.load_task(task), lex),
                                           600, 300, 0) for task in probing.SUBSET}
    second = experiment.run_grid(frames, ["glove50"], "mlp", seeds=[1], n_boot=200, lexicon=lex,
                                 progress=False, max_epochs=20).set_index("task")["accuracy"]
    for task in probing.SUBSET:
        name = probing.NAMES[task]
        mean = (first.loc[f"{name} accuracy", "value"] + second[task]) / 2
        assert both.loc[f"{name} accuracy", "value"] == pytest.approx(mean, abs=1e-9)
        assert both.loc[f"{name} accuracy", "low"] <= mean <= both.loc[f"{name} accuracy", "high"]
        assert both.loc[f"{name} control task", "value"] == first.loc[f"{name} control task", "value"]
    with pytest.raises(ValueError, match="probe_seeds"):
        probing.rows("glove50", subset=True, probe_seeds=0)
