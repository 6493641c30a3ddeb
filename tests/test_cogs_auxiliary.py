"""Chapter 5, Experiment 1 of Kim (2021): the [w_n] variant of COGS, the auxiliary data
builders and two-stage (auxiliary, then COGS) training with resume."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import torch

from compsem.cogs import auxiliary_data as ad
from compsem.cogs import masking
from compsem.cogs.seq2seq import auxiliary_config as ac

# ---------------------------------------------------------------- the [w_n] map


def test_the_map_has_21_tokens_numbered_as_the_released_code():
    assert len(masking.GAP_TOKENS) == 21 and len(masking.MASK_TOKENS) == 21
    # erratum: footnote 12 (Section 5.2.3) maps Lina to [w_1], which is not the code's numbering
    assert masking.GAP_TOKENS["shark"] == "[w_1]"
    assert masking.GAP_TOKENS["Lina"] == "[w_3]"
    assert masking.GAP_TOKENS["hedgehog"] == "[w_0]"
    assert masking.MASK_TOKENS == {f"[w_{i}]" for i in range(21)}
    # inflected and root verb forms get different tokens
    assert masking.GAP_TOKENS["baked"] != masking.GAP_TOKENS["bake"]


def test_the_dissertation_example_is_masked_in_input_and_logical_form():
    source = "Emma appreciated the hedgehog ."
    target = ("* hedgehog ( x _ 3 ) ; appreciate . agent ( x _ 1 , Emma ) AND "
              "appreciate . theme ( x _ 1 , x _ 3 )")
    assert masking.mask_text(source) == "Emma appreciated the [w_0] ."
    assert masking.mask_text(target).startswith("* [w_0] ( x _ 3 ) ; appreciate . agent")
    assert masking.mask_text("A shark burned Sophia .") == "A [w_1] burned Sophia ."


def test_only_whole_tokens_are_masked():
    assert masking.mask_text("The bakery baked .") == "The bakery [w_6] ."
    assert masking.mask_text("Shark", ignore_case=False) == "Shark"
    assert masking.mask_text("Shark", ignore_case=True) == "[w_1]"
    with pytest.raises(TypeError, match="text must be a string"):
        masking.mask_text(None)


@pytest.mark.needs_data
@pytest.mark.parametrize("split", ["train", "dev", "test", "gen", "exposure-100"])
def test_every_gap_item_is_masked_and_nothing_else(split):
    from compsem.data import cogs

    raw = cogs.load(split)
    masked = masking.mask_frame(raw)
    for column in ("source", "target"):
        for before, after in zip(raw[column], masked[column], strict=True):
            b, a = before.split(), after.split()
            assert len(a) == len(b)
            for x, y in zip(b, a, strict=True):
                if x in masking.GAP_TOKENS:
                    assert y == masking.GAP_TOKENS[x]
                else:
                    assert y == x  # nothing else changes
            assert masking.unmask_text(after) == before
            assert not set(a) & set(masking.GAP_TOKENS)
    assert (masked.case == raw.case).all()


@pytest.mark.needs_data
def test_every_lexical_gen_case_but_the_structural_ones_uses_a_masked_item():
    gen = masking.load_masked("gen")
    has_mask = gen.source.map(lambda s: bool(masking.MASK_TOKENS & set(s.split())))
    by_case = has_mask.groupby(gen.case).mean()
    from compsem.cogs.evaluation import STRUCTURAL_CASES

    lexical = by_case.drop(list(STRUCTURAL_CASES))
    assert (lexical == 1).all(), lexical[lexical < 1]
    # the exposure examples of train.tsv, and only they and the 3 primitives, carry a mask
    train = masking.load_masked("train")
    marked = train.source.map(lambda s: bool(masking.MASK_TOKENS & set(s.split())))
    assert set(train.case[marked]) <= {*(c for c in train.case if c.startswith("exposure")),
                                       "primitive"}
    assert int(marked.sum()) == 15


def test_load_masked_names_a_bad_split():
    with pytest.raises(ValueError, match="split must be one of .*'nope'"):
        masking.load_masked("nope")


# ---------------------------------------------------------------- auxiliary data

TEXTS = [
    "A man is playing a flute.",
    "A man is playing a flute.",  # duplicate
    "The shark swam past the ship, didn't it?",
    "Two dogs run on the beach near the old lighthouse today.",
    "Hi",  # one token: dropped
    "She said that the weather was nice and that they should go outside now.",
    "Children are playing football in a large green park.",
    "A woman slices an onion.",
]


def _corpus(**kw):
    frame = ad.english_sentences(texts=TEXTS, **kw)
    frame["split"] = ad.split_dev(frame, 0.25, 0)
    return frame


def test_corpus_is_deduplicated_tokenised_and_deterministic():
    a, b = _corpus(), _corpus()
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 6
    assert a.text.iloc[1] == "The shark swam past the ship , didn't it ?"
    assert (a.split == "dev").sum() == 2  # round(0.25 * 6)
    sub = ad.english_sentences(texts=TEXTS, n_sentences=3, seed=4)
    assert len(sub) == 3 and sub.equals(ad.english_sentences(texts=TEXTS, n_sentences=3, seed=4))
    dropped = ad.english_sentences(texts=TEXTS, gap_sentences="drop")
    assert len(dropped) == 5 and not any("shark" in t for t in dropped.text)


def test_capped_vocabulary_writes_unk():
    frame = ad.english_sentences(texts=TEXTS, max_words=5)
    words = {t for text in frame.text for t in text.split()}
    assert len(words - {ad.UNK_WORD}) <= 5 and ad.UNK_WORD in words


def test_bad_corpus_settings_are_named():
    with pytest.raises(ValueError, match="n_sentences must be an integer >= 0, got -1"):
        ad.english_sentences(texts=TEXTS, n_sentences=-1)
    with pytest.raises(ValueError, match="gap_sentences must be 'keep' or 'drop', got 'mask'"):
        ad.english_sentences(texts=TEXTS, gap_sentences="mask")
    with pytest.raises(ValueError, match=r"\[w_n\] token"):
        ad.english_sentences(texts=["A [w_3] smiled ."])
    with pytest.raises(ValueError, match="dev_fraction must be between 0 and 1, got 1.5"):
        ad.split_dev(_corpus(), 1.5)
    with pytest.raises(ValueError, match="objective must be one of none, gloss, denoise; got 'ccg'"):
        ad.auxiliary_pairs("ccg", _corpus(), ac.PAPER_DENOISE)


def test_glossing_is_one_to_one_into_the_output_vocabulary():
    """By default a gloss is the output token with the word's string (the output vocabulary is
    separate anyway); primed glosses are a token set disjoint from the words."""
    frame = _corpus()
    pairs = ad.gloss_pairs(frame)
    assert pairs.target.iloc[0] == "A man is playing a flute ."
    assert list(pairs.target) == list(pairs.source)
    primed = ad.gloss_pairs(frame, "primed")
    assert primed.target.iloc[0] == "A' man' is' playing' a' flute' .'"
    source_vocab = {t for s in primed.source for t in s.split()}
    gloss_vocab = {t for s in primed.target for t in s.split()}
    assert not source_vocab & gloss_vocab
    for s, t in zip(primed.source, primed.target, strict=True):
        assert [ad.gloss(w, "primed") for w in s.split()] == t.split()
    assert list(pairs.split) == list(frame.split) == list(primed.split)
    with pytest.raises(ValueError, match="gloss tokens must be one of word, primed; got 'double'"):
        ad.gloss_pairs(frame, "double")


@pytest.mark.needs_data
def test_word_glosses_add_no_output_rows_and_fit_the_papers_parameter_counts():
    """Section 5.2.4's counts (54M, 56M, 55M) rise over Chapter 4's (9.5M, 11M, 10M) by nearly
    one amount, which is what extra words in the source and target vocabularies cost. With
    word glosses the target vocabulary grows by the words once; primed glosses add every word a
    second output row (embedding and generator), about 1,537 more parameters per word."""
    from compsem.cogs.seq2seq import config as cfg
    from compsem.cogs.seq2seq import two_stage

    word = ac.paper_aux_config("transformer", "gloss")
    primed = ac.paper_aux_config("transformer", "gloss", gloss_tokens="primed")
    assert cfg.config_hash(word) != cfg.config_hash(primed)
    src_w, tgt_w = two_stage.vocabularies(word)
    src_p, tgt_p = two_stage.vocabularies(primed)
    words = set(two_stage.corpus(word).text.str.split().explode())
    assert len(src_w) == len(src_p)
    assert len(tgt_p) - len(tgt_w) == len(words)  # one primed row per word
    pairs = two_stage.auxiliary_pairs(word)
    assert set(pairs.target.str.split().explode()) <= set(tgt_w.itos)
    counts = two_stage.parameter_counts(word)
    assert counts["word"]["target"] == len(tgt_w) and counts["primed"]["target"] == len(tgt_p)
    for model in ("transformer", "lstm", "bilstm"):  # a target row: embedding, output row, bias
        assert counts["primed"][model] - counts["word"][model] == (2 * 512 + 1) * len(words)
    # the auxiliary vocabulary adds one amount to every model's Chapter 4 count (Section 5.2.4's
    # 54M, 56M and 55M against 9.5M, 11M and 10M), whatever the architecture
    rises = {counts["word"][m] - cfg.count_parameters(cfg.build_model(cfg.make_config(m), 747, 727))
             for m in ("transformer", "lstm", "bilstm")}
    assert len(rises) == 1


def test_span_corruption_rate_and_format():
    rng = np.random.default_rng(0)
    tokens = [f"t{i}" for i in range(100)]
    source, target = ad.span_corruption(tokens, rng)
    hidden = [t for t in target if not t.startswith("<x_")]
    assert len(hidden) == 15  # 15% of 100
    sentinels = [t for t in source if t.startswith("<x_")]
    assert sentinels == [t for t in target if t.startswith("<x_")]
    assert sentinels == [f"<x_{i}>" for i in range(len(sentinels))] and len(sentinels) == 5
    # putting the spans back restores the text
    spans, current = {}, None
    for t in target:
        if t.startswith("<x_"):
            current = t
            spans[current] = []
        else:
            spans[current].append(t)
    restored = [w for t in source for w in (spans[t] if t in spans else [t])]
    assert restored == tokens
    again = ad.span_corruption(tokens, np.random.default_rng(0))
    assert again == (source, target)
    assert ad.span_corruption(tokens, np.random.default_rng(1)) != (source, target)


def test_denoising_pairs_corrupt_about_15_percent():
    texts = [" ".join(f"w{i}_{j}" for j in range(5 + i % 17)) for i in range(600)]
    frame = ad.english_sentences(texts=texts)
    frame["split"] = ad.split_dev(frame, 0.1, 0)
    pairs = ad.denoise_pairs(frame, chunk_tokens=64, seed=3)
    assert abs(ad.corrupted_fraction(pairs) - 0.15) < 0.01
    assert set(pairs.split) == {"train", "dev"}
    assert all(len([t for t in s.split() if not t.startswith("<x_")])
               + len([t for t in t_.split() if not t.startswith("<x_")]) <= 64
               for s, t_ in zip(pairs.source, pairs.target, strict=True))
    pd.testing.assert_frame_equal(pairs, ad.denoise_pairs(frame, chunk_tokens=64, seed=3))


def test_chunks_pack_consecutive_sentences():
    assert ad.chunks(["a b c", "d e", "f g h i"], 5) == ["a b c d e", "f g h i"]
    assert ad.chunks(["a b c d e f g"], 4) == ["a b c d"]
    with pytest.raises(ValueError, match="chunk_tokens must be >= 2, got 1"):
        ad.chunks(["a b"], 1)


@pytest.mark.needs_data
def test_substitute_corpus_from_the_registry():
    frame = ad.english_sentences()
    # STS Benchmark, SICK and STR-2022: about 30,000 distinct sentences, fewer than CCGBank's
    # (Section 5.2.2; the target caux_aux_sentences)
    from compsem import report

    assert 25_000 < len(frame) < report.load_targets("cogs-auxiliary")["caux_aux_sentences"]["paper"]
    assert frame.text.is_unique
    assert not any(m in t for t in frame.text.head(2000) for m in masking.MASK_TOKENS)


# ---------------------------------------------------------------- configurations


def test_configurations_validate_and_name_bad_settings():
    cfg = ac.paper_aux_config("transformer", "gloss", seed=2)
    assert cfg["data"]["masking"] == "w_n"
    assert cfg["auxiliary"]["training"]["patience"] == 5
    assert cfg["auxiliary"]["denoise"]["rate"] == 0.15
    base = ac.paper_aux_config("transformer", "none", seed=2)
    from compsem.cogs.seq2seq.config import config_hash

    assert config_hash(base) != config_hash(cfg)
    with pytest.raises(ValueError, match="objective must be one of none, gloss, denoise; got 'ccg'"):
        ac.paper_aux_config("transformer", "ccg")
    with pytest.raises(ValueError, match="model must be one of transformer, lstm, bilstm"):
        ac.paper_aux_config("gpt")
    with pytest.raises(ValueError, match=r"unknown auxiliary corpus setting\(s\) \['size'\]"):
        ac.with_auxiliary(base, "gloss", corpus={"size": 3})
    with pytest.raises(ValueError, match="denoise rate must be in"):
        ac.with_auxiliary(base, "denoise", denoise={"rate": 1.5})
    with pytest.raises(ValueError, match="has no auxiliary stage"):
        ac.stage_one_config(base)
    grid = ac.aux_grid(seeds=(1, 2))
    assert len(grid) == 18
    assert [(c["model"], c["auxiliary"]["objective"]) for c in grid[:4]] == [
        ("transformer", "none"), ("transformer", "none"),
        ("transformer", "gloss"), ("transformer", "gloss")]


def test_the_chapters_reduced_run_is_the_librarys_and_its_results_are_committed():
    """The chapter's default reduced run is reduced_aux_config's defaults (the command line's
    --reduced builds the same), and each of its runs has a committed, checksummed result."""
    from compsem import parameters
    from compsem.cogs.seq2seq import results, two_stage

    p = parameters.default_parameters("cogs-auxiliary")
    chapter = [ac.reduced_aux_config(o, s, p["reduced_max_steps"], p["reduced_aux_max_steps"],
                                     p["reduced_exposures"], p["reduced_per_case"],
                                     p["reduced_per_split"],
                                     architecture={"d_model": p["reduced_d_model"],
                                                   "ff": 2 * p["reduced_d_model"]},
                                     gloss_tokens=p["gloss_tokens"],
                                     cogs_optimizer=p["cogs_optimizer"])
               for o in p["reduced_objectives"] for s in p["reduced_seeds"]]
    assert chapter == [ac.reduced_aux_config(o, s) for o in p["reduced_objectives"]
                       for s in p["reduced_seeds"]]
    root = two_stage.results_root("")
    assert [results.has_result(c, root) for c in chapter] == [True] * len(chapter)


def test_stage_one_is_shared_across_cogs_settings():
    a = ac.paper_aux_config("transformer", "gloss", exposures=1)
    b = ac.paper_aux_config("transformer", "gloss", exposures=100,
                            decoding={"method": "greedy"})
    from compsem.cogs.seq2seq.config import training_hash

    assert training_hash(ac.stage_one_config(a)) == training_hash(ac.stage_one_config(b))
    assert training_hash(a) != training_hash(b)


# ---------------------------------------------------------------- two-stage training


def _tiny(objective, tmp_path, **kw):
    """4 auxiliary and 6 COGS updates of a 1-layer d=16 Transformer, a checkpoint every 2."""
    cfg = ac.reduced_aux_config(
        objective, seed=3, max_steps=6, aux_max_steps=4, per_case=2, per_split=10,
        architecture={"d_model": 16, "ff": 32, "heads": 2, "layers": 1},
        corpus={"n_sentences": 300, "max_words": 200}, **kw,
    )
    cfg["training"]["valid_every"] = cfg["auxiliary"]["training"]["valid_every"] = 2
    ac.validate_aux(cfg)
    return cfg


@pytest.fixture
def small_cogs(monkeypatch):
    """Two-stage training on a 300-row slice of train (speed); vocabularies stay the real ones."""
    from compsem.cogs.seq2seq import two_stage

    full = two_stage.cogs_training_frame

    def sliced(exposures):
        return full(exposures).iloc[::80].reset_index(drop=True)

    monkeypatch.setattr(two_stage, "cogs_training_frame", sliced)
    dev = two_stage.masked_cogs("dev")
    real = two_stage.masked_cogs

    def masked(split):
        return dev.iloc[:64] if split == "dev" else real(split)

    monkeypatch.setattr(two_stage, "masked_cogs", masked)
    two_stage._vocabularies.cache_clear()  # built from the slice here, never reused elsewhere
    yield two_stage
    two_stage._vocabularies.cache_clear()


@pytest.mark.needs_data
@pytest.mark.slow
def test_two_stage_training_resumes_to_the_same_weights(small_cogs, tmp_path):
    ts = small_cogs
    torch.set_num_threads(1)
    cfg = _tiny("gloss", tmp_path)
    whole = ts.train_two_stage(cfg, "cpu", checkpoints=tmp_path / "a")
    assert whole["done"] and whole["auxiliary"].state.done
    # the COGS stage continues the auxiliary stage's update count (cogs_optimizer "continue")
    assert whole["auxiliary"].state.step == 4 and whole["cogs"].state.start_step == 4
    assert whole["cogs"].state.step == 10
    # interrupted in the auxiliary stage, then in the COGS stage (one update after its last
    # checkpoint, which the next call resumes from), then finished
    first = ts.train_two_stage(cfg, "cpu", checkpoints=tmp_path / "b", stop_after=2)
    assert not first["done"] and first["cogs"] is None and first["auxiliary"].state.step == 2
    second = ts.train_two_stage(cfg, "cpu", checkpoints=tmp_path / "b", stop_after=3)
    assert not second["done"] and second["auxiliary"].state.done
    assert second["cogs"].state.step == 4 + 3
    third = ts.train_two_stage(cfg, "cpu", checkpoints=tmp_path / "b")
    assert third["done"] and third["cogs"].state.step == 10
    for name, value in whole["cogs"].model.state_dict().items():
        assert torch.equal(value, third["cogs"].model.state_dict()[name]), name


@pytest.mark.needs_data
@pytest.mark.slow
def test_cogs_stage_starts_from_the_auxiliary_weights(small_cogs, tmp_path):
    ts = small_cogs
    torch.set_num_threads(1)
    cfg = _tiny("gloss", tmp_path)
    base = _tiny("none", tmp_path)
    src, tgt = ts.vocabularies(cfg)
    assert (len(src), len(tgt)) == tuple(map(len, ts.vocabularies(base)))  # same vocabulary
    glossed = ts.train_two_stage(cfg, "cpu", checkpoints=tmp_path / "g",
                                 stop_after=4)  # aux done at 4; COGS stage interrupted at 4
    aux_weights = glossed["auxiliary"].model.state_dict()
    baseline = ts.train_two_stage(base, "cpu", checkpoints=tmp_path / "n", stop_after=1)
    assert baseline["auxiliary"] is None
    # after the same number of COGS updates the glossing run differs from the baseline
    cogs_weights = glossed["cogs"].model.state_dict()
    key = next(k for k in cogs_weights if "embed" in k)
    assert not torch.equal(cogs_weights[key], baseline["cogs"].model.state_dict()[key])
    assert key in aux_weights


@pytest.mark.needs_data
@pytest.mark.slow
def test_train_and_decode_writes_results_with_auxiliary_metrics(small_cogs, tmp_path, monkeypatch):
    ts = small_cogs
    torch.set_num_threads(1)
    cfg = _tiny("gloss", tmp_path)
    forced_batches, forced = [], ts.teacher_forced

    def spy(*args, **kwargs):  # teacher forcing keeps its own batches whatever the decoding's
        forced_batches.append(args[5:] + tuple(kwargs.values()))
        return forced(*args, **kwargs)

    monkeypatch.setattr(ts, "teacher_forced", spy)
    result = ts.train_and_decode(cfg, device="cpu", results_dir=tmp_path / "res",
                    checkpoints=tmp_path / "ck", decode_batch_size=512)
    assert forced_batches == [()]
    m = result.metrics
    assert m["objective"] == "gloss" and m["aux_steps"] == 4 and m["steps"] == 6
    assert m["aux_best_dev_loss"] > 0 and 0 <= m["single_lexical_error_rate"] <= 1
    assert m["decode_batch_size"] == 512  # as asked (the CPU's default is 128)
    assert set(m["accuracy"]) == {"dev", "test", "gen"}
    assert (result.predictions.split == "gen").sum() == 2 * 21
    forced = m["gen_teacher_forced"]
    assert 0 <= forced["token_accuracy"] <= 1 and forced["wn_tokens"] > 0 and forced["loss"] > 0
    again = ts.train_and_decode(cfg, device="cpu", results_dir=tmp_path / "res", checkpoints=tmp_path / "ck")
    assert again.metrics["hash"] == m["hash"]
    runs, cases = ts.collect([cfg, _tiny("none", tmp_path)], tmp_path / "res")
    assert len(runs) == 1 and runs.objective.iloc[0] == "gloss" and len(cases) == 21


def test_summaries_over_seeds():
    from compsem.cogs.seq2seq import two_stage as ts

    runs = pd.DataFrame({
        "model": ["t"] * 6, "objective": ["none"] * 3 + ["gloss"] * 3,
        "seed": [1, 2, 3] * 2, "gen": [0.1, 0.2, 0.3, 0.5, 0.6, 0.7],
    })
    table = ts.summarise(runs, ["gen"])
    row = table[table.objective == "gloss"].iloc[0]
    assert row["n"] == 3 and row["mean"] == pytest.approx(0.6) and row["low"] < 0.6 < row["high"]
    diff = ts.difference(runs, "t", "gloss")
    assert diff["difference"] == pytest.approx(0.4) and diff["low"] < 0.4 < diff["high"]
    table = ts.differences(runs.assign(structural=0.0))
    assert list(table.objective) == ["gloss", "gloss"]
    assert table.set_index("quantity").loc["gen", "difference"] == pytest.approx(0.4)
    with pytest.raises(ValueError, match="need 2\\+ seeds"):
        ts.difference(runs.iloc[:4], "t", "gloss")


def test_differences_at_the_levels_the_claims_declare():
    from scipy import stats

    from compsem.cogs.seq2seq import two_stage as ts

    runs = pd.DataFrame({
        "model": ["t"] * 10, "objective": ["none"] * 5 + ["gloss"] * 5,
        "seed": [1, 2, 3, 4, 5] * 2,
        "gen": [0.10, 0.22, 0.31, 0.15, 0.27, 0.50, 0.58, 0.71, 0.66, 0.49],
    })
    welch = stats.ttest_ind(runs.gen[5:], runs.gen[:5], equal_var=False)
    table = ts.differences(runs, ["gen"], levels=ts.GRID_LEVELS)
    keys = ts.difference_keys(table)
    stem = "caux_t_gloss_minus_none_gen"
    for suffix, level in ts.GRID_LEVELS.items():
        ci = welch.confidence_interval(level)
        assert keys[f"{stem}{suffix}_low"] == pytest.approx(ci.low)
        assert keys[f"{stem}{suffix}_high"] == pytest.approx(ci.high)
    # 90% for equivalence, Bonferroni's 1 - .05 / k for a fails_if that ORs k directions
    assert ts.GRID_LEVELS["_ci90"] == 0.90
    assert ts.GRID_LEVELS["_bonf3"] == pytest.approx(1 - 0.05 / 3)
    assert keys[f"{stem}_ci90_low"] > keys[f"{stem}_low"] > keys[f"{stem}_bonf3_low"]
    assert keys[stem] == pytest.approx(runs.gen[5:].mean() - runs.gen[:5].mean())
    # by default, 95% only, as before; no runs, no keys
    assert list(ts.differences(runs, ["gen"]).columns) == ["model", "objective", "quantity", "difference", "low", "high"]
    assert ts.difference_keys(ts.differences(runs.iloc[:0], ["gen"], levels=ts.GRID_LEVELS)) == {}


def test_reduced_contrasts_are_one_family_with_bonferronis_intervals():
    from scipy import stats

    from compsem.cogs.seq2seq import two_stage as ts

    rng = np.random.default_rng(3)
    columns = {q: rng.uniform(size=10) for q in (*ts.REDUCED_CONTRASTS, *ts.REDUCED_ALSO)}
    runs = pd.DataFrame({"model": ["m"] * 10, "objective": ["none"] * 5 + ["gloss"] * 5,
                         "seed": [1, 2, 3, 4, 5] * 2, **columns})  # fmt: skip
    values = ts.reduced_contrasts(runs, "m")
    k = len(ts.REDUCED_CONTRASTS)
    assert k == 6 and values["caux_reduced_contrasts"] == k
    assert values["caux_reduced_family_level"] == pytest.approx(1 - 0.05 / k)
    for q in ts.REDUCED_CONTRASTS:
        stem = f"caux_reduced_gloss_minus_none_{q}"
        welch = stats.ttest_ind(columns[q][5:], columns[q][:5], equal_var=False)
        family = welch.confidence_interval(1 - 0.05 / k)
        assert values[f"{stem}_family_low"] == pytest.approx(family.low)
        assert values[f"{stem}_family_high"] == pytest.approx(family.high)
        assert values[f"{stem}_low"] == pytest.approx(welch.confidence_interval(0.95).low)
        assert values[f"{stem}_family_low"] < values[f"{stem}_low"] < values[stem]
        # the family interval excludes 0 exactly when Bonferroni's p does
        assert (values[f"{stem}_family_high"] < 0 or values[f"{stem}_family_low"] > 0) == (
            min(1.0, k * welch.pvalue) < 0.05
        )
    # outside the family: glued at 95% only
    assert "caux_reduced_gloss_minus_none_lexical_low" in values
    assert "caux_reduced_gloss_minus_none_lexical_family_low" not in values


def test_sd_ratio_keys_use_the_f_interval_of_the_variance_ratio():
    from scipy import stats

    from compsem.cogs import summary as s45
    from compsem.cogs.seq2seq import two_stage as ts

    rng = np.random.default_rng(5)
    none, gloss = rng.normal(0.37, 0.19, 5), rng.normal(0.62, 0.04, 5)
    runs = pd.DataFrame({"model": ["transformer"] * 10 + ["lstm"] * 3,
                         "objective": ["none"] * 5 + ["gloss"] * 5 + ["none", "none", "gloss"],
                         "seed": [1, 2, 3, 4, 5] * 2 + [1, 2, 1],
                         "gen": [*none, *gloss, 0.2, 0.3, 0.25]})  # fmt: skip
    values = ts.sd_ratio_keys(runs)
    stem = "caux_transformer_gloss_over_none_gen_sd_ratio"
    assert set(values) == {stem, f"{stem}_low", f"{stem}_high"}  # the LSTM has one glossing seed
    v = gloss.var(ddof=1) / none.var(ddof=1)
    assert values[stem] == pytest.approx(np.sqrt(v))
    assert values[f"{stem}_high"] == pytest.approx(np.sqrt(v / stats.f.ppf(0.025, 4, 4)))
    assert values[f"{stem}_low"] == pytest.approx(np.sqrt(v / stats.f.ppf(0.975, 4, 4)))
    assert values[f"{stem}_low"] < values[stem] < values[f"{stem}_high"]
    # the interval covers the true ratio at its level: simulated, 5 seeds a side
    truth, hits = 0.5, 0
    for _ in range(2000):
        _, low, high = s45.sd_ratio_interval(rng.normal(0, truth, 5), rng.normal(0, 1, 5))
        hits += low <= truth <= high
    assert hits / 2000 == pytest.approx(0.95, abs=0.015)
    # a side without spread (a floor) decides nothing; no runs, no keys
    assert all(np.isnan(s45.sd_ratio_interval([0, 0, 0], [0.1, 0.2, 0.3])))
    assert all(np.isnan(s45.sd_ratio_interval([0.1], [0.1, 0.2])))
    assert ts.sd_ratio_keys(runs.iloc[0:0]) == {}


def test_model_differences_set_each_lstm_against_the_transformer():
    from scipy import stats

    from compsem.cogs.seq2seq import two_stage as ts

    rng = np.random.default_rng(6)
    loss = {m: rng.normal(mu, 0.02, 5) for m, mu in (("transformer", 0.17), ("lstm", 0.37),
                                                     ("bilstm", 0.26))}  # fmt: skip
    runs = pd.DataFrame([{"model": m, "objective": o, "seed": s,
                          "aux_best_dev_loss": loss[m][s - 1] if o == "gloss" else np.nan}
                         for m in loss for o in ("none", "gloss") for s in range(1, 6)])  # fmt: skip
    values = ts.model_differences(runs)
    for model in ("lstm", "bilstm"):
        stem = f"caux_{model}_minus_transformer_gloss_aux_loss"
        welch = stats.ttest_ind(loss[model], loss["transformer"], equal_var=False)
        assert values[stem] == pytest.approx(loss[model].mean() - loss["transformer"].mean())
        assert (values[f"{stem}_low"], values[f"{stem}_high"]) == pytest.approx(
            tuple(welch.confidence_interval(0.95)))
    assert not any("transformer_minus" in k for k in values)
    assert ts.model_differences(runs[runs.model != "transformer"]) == {}
    assert ts.model_differences(runs.iloc[0:0]) == {}


def test_paper_reduced_differences_come_from_the_targets():
    from compsem import report
    from compsem.cogs.seq2seq import two_stage as ts

    paper = {k: t["paper"] for k, t in report.load_targets("cogs-auxiliary").items()}
    values = ts.paper_reduced_differences(paper)
    assert set(values) == {f"caux_paper_gloss_minus_none_{q}" for q in ts.PAPER_REDUCED_CONTRASTS}
    assert set(ts.PAPER_REDUCED_CONTRASTS) <= set(ts.REDUCED_CONTRASTS)
    assert values["caux_paper_gloss_minus_none_gen"] == pytest.approx(
        paper["caux_transformer_gloss_gen"] - paper["caux_transformer_none_gen"])
    assert values["caux_paper_gloss_minus_none_single_lexical_error_rate"] == pytest.approx(
        paper["caux_transformer_gloss_single_lexical"] - paper["caux_transformer_none_single_lexical"])


def test_the_chapters_family_is_the_table_it_shows():
    """The reduced contrasts the chapter's table shows are the family its claims are decided on."""
    from pathlib import Path

    from compsem.cogs.seq2seq import two_stage as ts

    text = (Path(__file__).parents[1] / "notebooks" / "cogs-auxiliary.py").read_text(encoding="utf-8")
    table = text[text.index("| quantity | glossing − baseline"):]
    table = table[: table.index("#\n", 1)]
    shown = set(re.findall(r"caux_reduced_gloss_minus_none_([a-z_]+?)_family_low", table))
    assert shown == set(ts.REDUCED_CONTRASTS)


# ---------------------------------------------------------------- the chapter's tables


def _summary(rows):
    return pd.DataFrame(rows, columns=["model", "objective", "quantity", "n", "mean", "sd", "low",
                                       "high"])


def test_grid_table_sets_ours_beside_the_papers_and_says_why_a_cell_is_empty():
    from compsem.cogs.seq2seq import two_stage as ts

    summary = _summary([
        ("lstm", "none", "dev", 3, 0.9, 0.01, 0.88, 0.92),
        ("lstm", "none", "gen", 3, 0.25, 0.05, 0.125, 0.375),
        ("lstm", "gloss", "gen", 1, 0.5, np.nan, np.nan, np.nan),
        ("transformer", "none", "gen", 2, 0.7, 0.1, 0.0, 1.0),  # another model: not shown
    ])
    paper = {f"caux_lstm_{o}_{s}": 0.5 for o in ts.GRID_OBJECTIVES for s in ts.GRID_SPLITS}
    paper |= {"caux_lstm_none_gen": 0.1234, "caux_lstm_none_gen_sd": 0.05,
              "caux_lstm_gloss_gen_sd": 0.0}  # an SD of 0 is not printed
    labels = {"none": "base", "gloss": "gl", "denoise": "dn"}
    table, values = ts.grid_table(summary, paper, ["lstm"], labels)
    assert list(table.index) == [("LSTM (Uni)", name) for name in
                                 ("base", "CCG supertagging", "gl", "dn", "glossing + CCG")]
    assert list(table.columns) == ["paper dev", "ours dev", "paper test", "ours test", "paper gen",
                                   "ours gen"]
    base = table.loc[("LSTM (Uni)", "base")]
    assert base["paper gen"] == "0.12 (SD 0.05)" and base["paper dev"] == "0.50"
    assert base["ours dev"] == "0.90 [0.88, 0.92] (n=3)"
    assert base["ours gen"] == "0.25 [0.12, 0.38] (n=3)"
    assert base["ours test"] == "pending (needs a GPU)"
    gloss = table.loc[("LSTM (Uni)", "gl")]
    assert gloss["paper gen"] == "0.50" and gloss["ours gen"] == "0.50 [nan, nan] (n=1)"
    assert table.loc[("LSTM (Uni)", "CCG supertagging"), "ours dev"] == "not run (CCGBank)"
    assert table.loc[("LSTM (Uni)", "dn"), "ours gen"] == "pending (needs a GPU)"
    # our means in the table's order; the gen SD only with 2+ seeds
    assert list(values.items()) == [("caux_lstm_none_dev", 0.9), ("caux_lstm_none_gen", 0.25),
                                    ("caux_lstm_none_gen_sd", 0.05), ("caux_lstm_gloss_gen", 0.5)]
    with pytest.raises(KeyError, match="caux_bilstm_none_dev"):
        ts.grid_table(summary, paper, ["bilstm"], labels)


def test_paper_gen_and_grid_keys_follow_models_then_objectives():
    from compsem.cogs.seq2seq import two_stage as ts

    paper = {f"caux_{m}_{o}_gen": i + 10 * j for j, m in enumerate(["b", "a"])
             for i, o in enumerate(ts.GRID_OBJECTIVES)} | {"caux_a_gloss_gen_sd": 0.3}
    frame = ts.paper_gen(paper, ["a", "b"])
    assert list(frame.columns) == ["model", "objective", "mean", "sd"]
    assert list(zip(frame.model, frame.objective, strict=True))[:2] == [("a", "none"), ("a", "ccg")]
    assert list(frame["mean"]) == [10, 11, 12, 13, 14, 0, 1, 2, 3, 4]
    assert frame["sd"].iloc[2] == 0.3 and frame["sd"].drop(2).isna().all()
    assert ts.grid_mean_keys(["a", "b"], ["none", "gloss"]) == [
        "caux_a_none_dev", "caux_a_none_test", "caux_a_none_gen",
        "caux_a_gloss_dev", "caux_a_gloss_test", "caux_a_gloss_gen",
        "caux_b_none_dev", "caux_b_none_test", "caux_b_none_gen",
        "caux_b_gloss_dev", "caux_b_gloss_test", "caux_b_gloss_gen"]
    assert len(ts.grid_mean_keys(["a"])) == 15


def test_interval_keys_glue_the_finite_intervals_of_gen_and_structural():
    from compsem.cogs.seq2seq import two_stage as ts

    summary = _summary([
        ("t", "gloss", "gen", 3, 0.5, 0.1, 0.25, 0.75),
        ("t", "gloss", "dev", 3, 0.9, 0.1, 0.8, 1.0),  # not a claim's quantity
        ("t", "none", "structural", 2, 0.0, 0.0, 0.0, 0.0),
        ("l", "none", "gen", 1, 0.3, np.nan, np.nan, np.nan),  # one seed: no interval
    ])
    assert list(ts.interval_keys(summary).items()) == [
        ("caux_t_gloss_gen_low", 0.25), ("caux_t_gloss_gen_high", 0.75),
        ("caux_t_none_structural_low", 0.0), ("caux_t_none_structural_high", 0.0)]
    assert ts.interval_keys(summary, ("dev",)) == {"caux_t_gloss_dev_low": 0.8,
                                                    "caux_t_gloss_dev_high": 1.0}
    assert ts.interval_keys(summary.iloc[:0]) == {}


def test_paper_error_values_read_the_targets_of_section_5_2_6():
    from compsem.cogs.seq2seq import two_stage as ts

    summary = _summary([
        ("t", "none", "single_lexical_error_rate", 3, 0.25, 0.1, 0.1, 0.4),
        ("t", "gloss", "aux_best_dev_loss", 3, 1.5, 0.1, 1.2, 1.8),
        ("t", "gloss", "gen", 3, 0.8, 0.1, 0.7, 0.9),
        ("l", "gloss", "aux_best_dev_loss", 3, 2.5, 0.1, 2.2, 2.8),
    ])
    targets = {"caux_t_none_single_lexical": {}, "caux_t_gloss_single_lexical": {},
               "caux_t_gloss_aux_loss": {}, "caux_l_gloss_aux_loss": {}}
    values, keys = ts.paper_error_values(summary, ["t", "l"], targets)
    assert values == {"caux_t_none_single_lexical": 0.25, "caux_t_gloss_aux_loss": 1.5,
                      "caux_l_gloss_aux_loss": 2.5}
    assert keys == ["caux_t_none_single_lexical", "caux_t_gloss_single_lexical",
                    "caux_t_gloss_aux_loss", "caux_l_gloss_aux_loss"]
    # a key without a target is neither compared nor read
    assert ts.paper_error_values(summary, ["t"], {"caux_t_gloss_aux_loss": {}}) == (
        {"caux_t_gloss_aux_loss": 1.5}, ["caux_t_gloss_aux_loss"])


def test_reduced_summary_keys_glue_means_and_finite_intervals():
    from compsem.cogs.seq2seq import two_stage as ts

    summary = _summary([
        ("r", "none", "gen", 3, 0.2, 0.1, 0.05, 0.35),
        ("r", "gloss", "best_dev_loss", 1, 0.9, np.nan, np.nan, np.nan),
        ("r", "gloss", "steps", 3, 100.0, 0.0, 100.0, 100.0),  # not a summary quantity
    ])
    assert list(ts.reduced_summary_keys(summary).items()) == [
        ("caux_reduced_none_gen_mean", 0.2), ("caux_reduced_none_gen_low", 0.05),
        ("caux_reduced_none_gen_high", 0.35), ("caux_reduced_gloss_best_dev_loss_mean", 0.9)]
    assert ts.reduced_summary_keys(summary, ["steps"]) == {
        "caux_reduced_gloss_steps_mean": 100.0, "caux_reduced_gloss_steps_low": 100.0,
        "caux_reduced_gloss_steps_high": 100.0}
    # what the chapter glues: every quantity summarise computes
    runs = pd.DataFrame({"model": ["r"] * 4, "objective": ["none"] * 2 + ["gloss"] * 2,
                         **{q: [0.1, 0.3, 0.5, 0.5] for q in ts.SUMMARY_QUANTITIES}})
    keys = ts.reduced_summary_keys(ts.summarise(runs))
    assert len(keys) == 2 * 3 * len(ts.SUMMARY_QUANTITIES)
    assert keys["caux_reduced_none_gen_mean"] == pytest.approx(0.2)
    assert keys["caux_reduced_gloss_dev_low"] == keys["caux_reduced_gloss_dev_high"] == 0.5


def test_cogs_stage_start_says_how_each_arm_starts_its_optimiser():
    """Under ``cogs_optimizer="continue"`` the reduced glossing arm's COGS stage starts past its
    warm-up, so it never reaches the baseline's peak noam rate; under "restart" both warm up
    alike (the chapter's Deviations glue these)."""
    from compsem.cogs.seq2seq import two_stage as ts

    configs = [ac.reduced_aux_config(o, 1) for o in ("none", "gloss")]
    runs = pd.DataFrame({"objective": ["none", "gloss", "gloss"], "start_step": [0, 500, 450]})
    out = ts.cogs_stage_start(configs, runs)
    warmup = configs[0]["training"]["warmup"]
    assert out["none_start_step"] == 0 and out["gloss_start_step"] == 450
    assert out["none_warmup"] == out["gloss_warmup"] == warmup == 1500 // 4
    assert out["none_peak_lr_ratio"] == 1.0
    assert out["gloss_peak_lr_ratio"] == pytest.approx((warmup / 451) ** 0.5)
    restart = [ac.reduced_aux_config(o, 1, cogs_optimizer="restart") for o in ("none", "gloss")]
    assert ts.cogs_stage_start(restart, runs.assign(start_step=0))["gloss_peak_lr_ratio"] == 1.0


def test_cli_lists_the_grid(capsys):
    from compsem.cogs.seq2seq import auxiliary_train

    assert auxiliary_train.main(["--grid", "--list", "--results", "/nonexistent-dir"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 45 and all("pending" in line for line in lines)
    assert "Transformer baseline, seed 1" in lines[0]
    with pytest.raises(SystemExit):
        auxiliary_train.parse_args(["--max-steps", "0"])


@pytest.mark.needs_data
def test_a_cogs_stage_cut_by_its_deadline_is_decoded_on_a_sample(small_cogs, tmp_path, monkeypatch):
    """As a Chapter 4 run (tests/test_cogs_budget.py): saved under the sample's configuration."""
    import time

    from compsem.cogs.seq2seq import experiment, results

    monkeypatch.setattr(experiment, "CUT_SAMPLE", {"per_case": 2, "per_split": 10})
    rows = experiment.evaluation_rows

    def sampled_rows(split, frame, decoding_config):
        assert decoding_config["per_case"] and decoding_config["per_split"], "decoded in full"
        return rows(split, frame, decoding_config)

    monkeypatch.setattr(experiment, "evaluation_rows", sampled_rows)
    cfg = _tiny("none", tmp_path)
    cfg["decoding"].update(per_case=0, per_split=0)  # the whole sets asked for
    result = small_cogs.train_and_decode(cfg, device="cpu", results_dir=tmp_path / "res", checkpoints=tmp_path / "ck",
                            deadline=time.time() - 1)
    assert result.metrics["stop_reason"] == "time limit" and result.metrics["steps"] == 1
    assert result.config["decoding"] == dict(cfg["decoding"], per_case=2, per_split=10)
    assert len(result.predictions) == 10 + 10 + 2 * 21
    assert results.has_result(result.config, tmp_path / "res", partial=True)
    assert not results.has_result(cfg, tmp_path / "res", partial=True)


@pytest.mark.needs_data
@pytest.mark.slow
def test_cogs_stage_continues_or_restarts_the_auxiliary_optimiser(small_cogs, tmp_path):
    """``cogs_optimizer``: "continue" (OpenNMT-py's ``-train_from`` without ``-reset_optim``) goes
    on from the Adam state and update count of the auxiliary stage's best validation; "restart"
    starts a fresh Adam and schedule at update 0. One auxiliary stage serves both."""
    from compsem.cogs.seq2seq import trainer

    ts = small_cogs
    torch.set_num_threads(1)
    kept = ts.train_two_stage(_tiny("gloss", tmp_path), "cpu", checkpoints=tmp_path / "ck")
    fresh = ts.train_two_stage(_tiny("gloss", tmp_path, cogs_optimizer="restart"), "cpu",
                               checkpoints=tmp_path / "ck")
    assert kept["auxiliary"].checkpoint_dir == fresh["auxiliary"].checkpoint_dir
    aux = trainer.load_checkpoint(kept["auxiliary"].checkpoint_dir / trainer.BEST_OPTIMIZER)
    assert aux["step"] == kept["auxiliary"].state.best_step == 4
    for result, start, end in ((kept, 4, 10), (fresh, 0, 6)):
        state = result["cogs"].state
        assert (state.start_step, state.step) == (start, end)
        adam = trainer.load_checkpoint(result["cogs"].checkpoint_dir / "last.pt")["optimizer"]["state"]
        assert {int(v["step"]) for v in adam.values()} == {end}
        first = state.history[0]
        assert first["step"] == start + 2
        assert first["lr"] == trainer.noam_lr(start + 2, 1.0, 16, 1)
    with pytest.raises(ValueError, match="cogs_optimizer must be one of continue, restart"):
        _tiny("gloss", tmp_path, cogs_optimizer="reset")


def test_parameter_values_name_the_chosen_glosses_and_every_transformer():
    from compsem.cogs.seq2seq import two_stage as ts

    counts = {"word": {"source": 10, "target": 20, "transformer": 2_500_000, "lstm": 7, "bilstm": 8},
              "primed": {"source": 10, "target": 31, "transformer": 3_000_000, "lstm": 9, "bilstm": 9}}
    assert ts.parameter_values(counts, "word") == {
        "caux_vocab_source": 10, "caux_vocab_target": 20, "caux_vocab_target_primed": 31,
        "caux_params_word_transformer_m": 2.5, "caux_params_primed_transformer_m": 3.0}
    assert ts.parameter_values(counts, "primed")["caux_vocab_target"] == 31


def test_reduced_run_values_count_runs_seeds_and_minutes():
    from compsem.cogs.seq2seq import two_stage as ts

    runs = pd.DataFrame({"objective": ["none", "none", "none", "gloss", "gloss"],
                         "seed": [1, 2, 3, 1, 2], "best_is_last": [True, False, True, False, False],
                         "wall_seconds": [60.0, 120.0, 30.0, 90.0, 300.0]})
    assert ts.reduced_run_values(runs, ["none", "gloss"]) == {
        "caux_reduced_n_runs": 5, "caux_reduced_n_seeds": 2, "caux_reduced_none_best_is_last": 2,
        "caux_reduced_gloss_best_is_last": 0, "caux_reduced_train_minutes": 10.0}
    empty = ts.reduced_run_values(runs.iloc[:0], ["none"])
    assert empty == {"caux_reduced_n_runs": 0, "caux_reduced_n_seeds": 0,
                     "caux_reduced_none_best_is_last": 0, "caux_reduced_train_minutes": 0.0}
