"""The COGS dataset generator: determinism, split hygiene, case conditions, exposure counts,
correctness of the generated logical forms; the train_100 reconstruction; corpus statistics."""

from __future__ import annotations

import pandas as pd
import pytest

from compsem.cogs import corpus, lf
from compsem.cogs import generate as gen
from compsem.cogs.interpret import Interpreter

SMALL = dict(n_train=600, n_dev=60, n_test=60, n_gen=40)


@pytest.fixture(scope="module")
def dataset():
    return gen.generate(gen.GeneratorConfig(**SMALL, seed=3))


@pytest.fixture(scope="module")
def interpreter():
    return Interpreter()


def test_sizes_and_format(dataset):
    assert [len(dataset[s]) for s in ("dev", "test")] == [60, 60]
    train = dataset["train"]
    assert (train.case == "in_distribution").sum() == 600
    assert (train.case == "primitive").sum() == 21 + 41 + 41 + 40
    assert train.case.str.startswith("exposure_example_").sum() == 12
    assert dataset["gen"].case.value_counts().to_dict() == dict.fromkeys(gen.CASES, 40)
    for frame in dataset.values():
        assert list(frame.columns) == ["source", "target", "case"]


def test_determinism():
    a = gen.generate(gen.GeneratorConfig(**SMALL, seed=11))
    b = gen.generate(gen.GeneratorConfig(**SMALL, seed=11))
    c = gen.generate(gen.GeneratorConfig(**SMALL, seed=12))
    for split in a:
        pd.testing.assert_frame_equal(a[split], b[split])
    assert not a["train"].equals(c["train"])
    assert set(a["gen"].source) != set(c["gen"].source)


def test_logical_forms_are_the_parses(dataset, interpreter):
    for frame in dataset.values():
        for sentence, target in zip(frame.source, frame.target, strict=True):
            assert interpreter(sentence) == target
            assert lf.is_well_formed(target)


def test_distinct_sentences_and_nominals(dataset, interpreter):
    sentences = [
        s
        for f in dataset.values()
        for s, c in zip(f.source, f.case, strict=True)
        if c != "primitive"
    ]
    assert len(sentences) == len(set(sentences))  # dedup across all splits
    for s in sentences:
        nominals = interpreter.parse(s).nominals()
        assert len(nominals) == len(set(nominals))


def _words(sentence: str) -> set[str]:
    return set(sentence.split())


def test_held_out_items_only_in_exposure_rows(dataset, interpreter):
    train = dataset["train"]
    for split in ("train", "dev", "test"):
        frame = dataset[split]
        indist = frame[frame.case == "in_distribution"]
        for case in gen.GEN_CASES:
            if case.item is None:
                continue
            surface = {case.item, *_verb_forms(interpreter, case.item)}
            assert not any(_words(s) & surface for s in indist.source), (split, case.item)
    for case in gen.GEN_CASES:
        if case.item is None:
            continue
        surface = {case.item, *_verb_forms(interpreter, case.item)}
        rows = train[train.source.map(lambda s, surface=surface: bool(_words(s) & surface))]
        allowed = {c.exposure for c in gen.GEN_CASES if c.item == case.item}
        assert set(rows.case) == allowed, case.name  # present, and only there
        assert len(rows) == 1, case.name  # one exposure example (or one primitive row)


def _verb_forms(interpreter, item):
    verb = interpreter.lexicon.verbs.get(item)
    return () if verb is None else (verb.past_form(), verb.participle_form())


def test_structural_gaps_in_train(dataset):
    st = corpus.structure(dataset["train"])
    st = st[~st.primitive.astype(bool)]
    assert st.subject_nmod.sum() == 0 and st.nmod_on_x1.sum() == 0
    assert st.cp_depth.max() <= 2 and st.pp_depth.max() <= 2
    gen_st = corpus.structure(dataset["gen"])
    assert gen_st[gen_st.case == "obj_pp_to_subj_pp"].subject_nmod.all()
    depths = corpus.depth_table(dataset["gen"])
    assert list(depths.index) == list(range(3, 13))
    assert (depths["cp_recursion"] == 4).all() and (depths["pp_recursion"] == 4).all()


@pytest.mark.parametrize(
    "case, role_of_item",
    [
        ("subj_to_obj_common", "theme"),
        ("obj_to_subj_proper", "agent"),
        ("prim_to_obj_proper", "theme"),
        ("only_seen_as_transitive_subj_as_unacc_subj", "theme"),
        ("only_seen_as_unacc_subj_as_unerg_subj", "agent"),
    ],
)
def test_noun_cases_put_the_item_in_its_gen_role(dataset, interpreter, case, role_of_item):
    item = gen.CASES[case].item
    rows = dataset["gen"][dataset["gen"].case == case]
    for sentence in rows.source:
        tree = interpreter.parse(sentence)
        roles = [r for c, r, np in tree.nps() if np.head == item]
        assert roles == [role_of_item], sentence


@pytest.mark.parametrize(
    "case, frames",
    [
        ("active_to_passive", {"passive", "passive_by"}),
        ("passive_to_active", {"transitive"}),
        ("unacc_to_transitive", {"transitive"}),
        ("do_dative_to_pp_dative", {"pp_dative"}),
        ("pp_dative_to_do_dative", {"do_dative"}),
    ],
)
def test_verb_cases_use_the_gen_frame(dataset, interpreter, case, frames):
    item = gen.CASES[case].item
    for sentence in dataset["gen"][dataset["gen"].case == case].source:
        used = {c.frame for c in interpreter.parse(sentence).clauses() if c.verb == item}
        assert used and used <= frames, sentence


def test_exposure_counts_and_primitive_repetition():
    data = gen.generate(
        gen.GeneratorConfig(n_train=200, n_dev=10, n_test=10, n_gen=10, exposures=5, seed=1)
    )
    train = data["train"]
    counts = train[train.case.str.startswith("exposure_example_")].case.value_counts()
    assert (counts == 5).all() and len(counts) == 12
    prim = train[train.case == "primitive"].source.value_counts()
    assert prim["shark"] == prim["Paula"] == prim["crawl"] == 5


def test_not_holding_out_a_case():
    cases = tuple(c for c in gen.CASES if c not in ("obj_pp_to_subj_pp", "active_to_passive"))
    cfg = gen.GeneratorConfig(
        n_train=1500, n_dev=10, n_test=10, n_gen=10, held_out=cases, subject_pp=0.5, seed=2
    )
    data = gen.generate(cfg)
    st = corpus.structure(data["train"])
    assert st.subject_nmod.sum() > 100  # subject PPs are now part of the training distribution
    assert set(data["gen"].case) == set(cases)
    assert any("blessed" in s.split() for s in data["train"].source)
    assert "exposure_example_active" not in set(data["train"].case)


def test_config_errors():
    with pytest.raises(ValueError, match="unknown generalization cases"):
        gen.GeneratorConfig(held_out=("subj_to_obj",))
    with pytest.raises(ValueError, match="n_gen"):
        gen.GeneratorConfig(n_gen=-1)
    with pytest.raises(ValueError, match="gen_depths"):
        gen.GeneratorConfig(gen_depths=(2, 5))


def test_write_tsv_round_trip(tmp_path, dataset):
    from compsem.data.cogs import read_tsv

    paths = gen.write_tsv(dataset, tmp_path)
    assert len(paths) == 4
    back = read_tsv(tmp_path / "gen.tsv")
    pd.testing.assert_frame_equal(back, dataset["gen"].reset_index(drop=True))


def test_corpus_statistics_on_toy_rows():
    rows = pd.DataFrame(
        {
            "source": [
                "A bee hunted the cake on the seat in the sack .",
                "The cake on the table burned .",
            ],
            "target": [
                "* cake ( x _ 4 ) ; * seat ( x _ 7 ) ; * sack ( x _ 10 ) ; bee ( x _ 1 ) AND hunt . agent"
                " ( x _ 2 , x _ 1 ) AND hunt . theme ( x _ 2 , x _ 4 ) AND cake . nmod . on ( x _ 4 , x _ 7 )"
                " AND seat . nmod . in ( x _ 7 , x _ 10 )",
                "* cake ( x _ 1 ) ; * table ( x _ 4 ) ; cake . nmod . on ( x _ 1 , x _ 4 ) AND burn . theme"
                " ( x _ 5 , x _ 1 )",
            ],
            "case": ["in_distribution", "obj_pp_to_subj_pp"],
        }
    )
    st = corpus.structure(rows)
    assert st.pp_depth.tolist() == [2, 1]
    assert st.subject_nmod.tolist() == [False, True] and st.nmod_on_x1.tolist() == [False, True]
    counts = corpus.construction_counts(rows)
    assert counts["nmod (two or more)"] == 1 and counts["nmod on x _ 1"] == 1
    lengths = corpus.length_summary({"toy": rows})
    assert lengths.loc["toy", "source max"] == 12
    table = corpus.match_table(rows, [rows.target[0], None])
    assert (
        table.loc["in_distribution", "exact"] == 1.0
        and table.loc["obj_pp_to_subj_pp", "unparsed"] == 1.0
    )
    freq = corpus.rank_frequency(rows)
    assert freq["cake"] == 2 and corpus.zipf_slope(
        pd.Series([12.0, 6.0, 4.0, 3.0])
    ) == pytest.approx(-1.0)


@pytest.mark.needs_data
def test_train_100_reconstruction():
    from compsem.cogs.exposure import train_100
    from compsem.data import cogs

    t100 = train_100()
    assert len(t100) == 24_155 - 15 + 1_500
    exposure = t100[t100.case.str.startswith("exposure_example_")]
    assert (exposure.case.value_counts() == 100).all()
    prim = t100[t100.case == "primitive"].source.value_counts()
    assert prim["shark"] == prim["Paula"] == prim["crawl"] == 100
    assert (t100.case == "in_distribution").sum() == 24_000
    assert set(cogs.load("exposure-1").source) <= set(t100.source)
