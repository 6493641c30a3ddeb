"""Probing task builders and the audit: balance controls, disjoint splits, the audit
(compsem.probing.tasks2016, proposed2016, tasks2018, generalisation, released2018, audit)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from compsem.probing import (
    audit,
    generalisation,
    grammars,
    lexicon,
    predicates,
    proposed2016,
    reader,
    released2018,
    tasks2016,
    tasks2018,
)

LEX = lexicon.load()
G16 = grammars.ettinger2016_grammar()


def _sides_disjoint(frame: pd.DataFrame) -> None:
    train = set(frame.loc[frame.split == "train", "sentence"])
    test = set(frame.loc[frame.split == "test", "sentence"])
    assert train and test and not train & test
    groups = frame.groupby("group")["split"].nunique()
    assert (groups == 1).all()  # no minimal pair straddles the split


def _balanced(frame: pd.DataFrame) -> None:
    counts = frame.groupby(["split", "label"]).size()
    assert counts["train", 0] == counts["train", 1] and counts["test", 0] == counts["test", 1]


def test_has_school():
    f = tasks2016.has_noun_task(G16, "school", 200, 100, seed=1)
    assert f.groupby("split").size().to_dict() == {"test": 100, "train": 200}
    _balanced(f)
    _sides_disjoint(f)
    has = f.sentence.map(lambda s: "school" in s.split() or "schools" in s.split())
    assert (has == f.label.astype(bool)).all()


def test_has_human_holds_human_nouns_out():
    f = tasks2016.has_human_task(G16, 200, 100, seed=2)
    _balanced(f)
    _sides_disjoint(f)
    held = set(f.attrs["test_humans"])
    train_humans = {h for hs in f.loc[f.split == "train", "humans"] for h in hs.split()}
    test_humans = {h for hs in f.loc[f.split == "test", "humans"] for h in hs.split()}
    assert test_humans <= held and not train_humans & held and train_humans
    assert ((f.n_human > 0) == f.label.astype(bool)).all()
    other = tasks2016.has_human_task(G16, 200, 100, seed=3)
    assert other.attrs["test_humans"] != f.attrs["test_humans"]


def test_school_as_agent_has_only_active_passive_and_balanced_voice():
    f = tasks2016.role_task(grammars.ettinger2016_grammar(simple=True), "school", 400, 200, seed=0)
    _balanced(f)
    _sides_disjoint(f)
    assert set(f.rc_site) == {"none"} and set(f.neg_site) == {"none"}
    for s, label in zip(f.sentence, f.label, strict=True):
        parsed = reader.read(s)
        assert predicates.is_agent(parsed, "school", parsed.main.verb) == bool(label)
    share = f.groupby("label").voice.apply(lambda v: (v == "passive").mean())
    assert abs(share[0] - share[1]) < 0.15  # voice says nothing about the label


def test_agent_of_task_pairs_share_their_words():
    f = proposed2016.agent_of_task(grammars.ettinger2016_grammar(negation=("none",)), n_train=200, n_test=100, seed=0)
    _balanced(f)
    _sides_disjoint(f)
    assert set(f.kind) == {"positive", "swap", "voice", "displace"}
    for _, pair in f.groupby("group"):
        pos, neg = pair.sort_values("label", ascending=False).sentence
        assert predicates.is_agent(reader.read(pos), "professor", "recommend")
        assert not predicates.is_agent(reader.read(neg), "professor", "recommend")
        if set(pair.kind) & {"swap", "displace"}:  # the same nouns and verbs (lemmas)
            lemmas = [sorted(filter(None, map(LEX.lemma, t.split()))) for t in (pos, neg)]
            assert lemmas[0] == lemmas[1]
    for s in f.sentence:  # professor and recommend exactly once
        parsed = reader.read(s)
        assert parsed.nouns().count("professor") == 1 and parsed.verbs().count("recommend") == 1


def test_event_negation_task_labels_and_kinds():
    f = proposed2016.event_negation_task(
        grammars.ettinger2016_grammar(negation_invariant=True), n_train=200, n_test=100, seed=0
    )
    _balanced(f)
    _sides_disjoint(f)
    kinds = f[f.label == 0].kind.value_counts(normalize=True)
    assert set(kinds.index) <= {"scope", "swap", "displace"} and kinds["scope"] == pytest.approx(
        0.5, abs=0.08
    )
    for s, label in zip(f.sentence, f.label, strict=True):
        parsed = reader.read(s)
        assert sum(p.negated for p in parsed.predications) == 1
        assert predicates.performs(parsed, "professor", "recommend") == bool(label)
    scope = f[f.kind == "scope"]
    assert (scope.agent == 1).all()  # a scope negative keeps the professor as the agent


@pytest.mark.parametrize("task", ["cont1", "cont2", "order", "sr", "neg"])
def test_regenerated_2018_tasks_are_balanced_and_hold_pairs_out(task):
    f = tasks2018.ettinger2018_task(task, n_train=400, n_test=200, seed=0)
    _balanced(f)
    train = set(f.loc[f.split == "train", "sentence"])
    assert not train & set(f.loc[f.split == "test", "sentence"])
    inv = LEX.inventory("ettinger2018")
    for item in f.itertuples():  # every label recomputed from a fresh parse
        assert predicates.label_of(reader.read(item.sentence), task, item.probe, item.probe2) == item.label
    per_sentence = f[f.split == "train"].groupby("sentence").label.mean()
    assert (per_sentence == 0.5).all()  # as many TRUE as FALSE items in every training sentence
    if task in ("cont2", "order", "sr"):
        held = {tuple(p) for p in inv.heldout_pairs}
        pairs_test = set(
            zip(f.loc[f.split == "test", "probe"], f.loc[f.split == "test", "probe2"], strict=True)
        )
        pairs_train = set(
            zip(
                f.loc[f.split == "train", "probe"], f.loc[f.split == "train", "probe2"], strict=True
            )
        )
        assert pairs_test <= held and not pairs_train & held
    if task == "neg":
        test_tokens = {t for s in f.loc[f.split == "test", "sentence"] for t in s.split()}
        train_tokens = {t for s in f.loc[f.split == "train", "sentence"] for t in s.split()}
        assert not set(inv.test_adverbs) & train_tokens
        assert not (set(inv.adverbs) - set(inv.test_adverbs)) & test_tokens


def test_probe_items_labels_on_a_fixed_sentence():
    s = reader.read("the professor that the student met helped the lawyer")
    items = {
        (i["probe"], i["probe2"]): i["label"]
        for i in tasks2018.probe_items(s, "sr", ["professor", "student", "lawyer"], ["meet", "help"])
    }
    assert items == {
        ("professor", "meet"): 0,
        ("professor", "help"): 1,
        ("student", "meet"): 1,
        ("student", "help"): 0,
        ("lawyer", "meet"): 0,
        ("lawyer", "help"): 0,
    }
    order = {
        (i["probe"], i["probe2"]): i["label"]
        for i in tasks2018.probe_items(s, "order", ["professor", "lawyer"], ["meet"])
    }
    assert order == {("professor", "meet"): 1, ("lawyer", "meet"): 0}
    cont2 = {
        (i["probe"], i["probe2"]): i["label"]
        for i in tasks2018.probe_items(s, "cont2", ["doctor", "lawyer"], ["help", "call"])
    }
    assert cont2 == {("doctor", "help"): 0, ("lawyer", "help"): 1, ("lawyer", "call"): 0}


@pytest.mark.parametrize("split", list(generalisation.GENERALISATION_SPLITS))
def test_generalisation_splits(split):
    f = generalisation.generalisation_task(split, n_train=200, n_test=100, seed=0)
    _balanced(f)
    train, test = f[f.split == "train"], f[f.split == "test"]
    if split == "active->passive":
        assert set(train.probe_voice) == {"active"} and set(test.probe_voice) == {"passive"}
    if split == "no-rc->rc":
        assert set(train.rc_site) == {"none"} and "none" not in set(test.rc_site)
    if split == "src->orc":
        assert set(train.rc_type) == {"src"} and set(test.rc_type) == {"orc"}
    if split == "neg main->rc":
        assert set(train.neg_site) == {"main"} and set(test.neg_site) == {"rc"}
    if split == "heldout nouns":
        held = set(test.probe)
        assert not held & {n for s in train.nouns for n in s.split()}
    if split == "heldout verbs":
        held = set(test.probe2)
        assert not held & {v for s in train.verbs for v in s.split()}


def test_resplit_and_subsample():
    f = tasks2016.role_task(grammars.ettinger2016_grammar(simple=True), "school", 200, 100, seed=0)
    r = tasks2016.resplit(f, seed=4)
    assert list(r.columns) == list(f.columns)
    assert sorted(r.sentence) == sorted(f.sentence)
    assert (r.split == "test").sum() == 100 and not r.sort_values("sentence").split.equals(
        f.sort_values("sentence").split
    )
    _balanced(r)
    g = tasks2018.ettinger2018_task("sr", 400, 200, seed=0)
    sub = released2018.subsample(g, 100, 50, seed=0)
    assert 100 <= (sub.split == "train").sum() <= 104 and 50 <= (sub.split == "test").sum() <= 54
    assert (
        sub.groupby("sentence")
        .size()
        .equals(g[g.sentence.isin(sub.sentence)].groupby("sentence").size())
    )



def test_frames_2016_redraw_each_seed_or_resplit_one_set():
    from compsem.probing.chapter import frames_2016

    redrawn = frames_2016(60, 40, 3, LEX)
    resplit = frames_2016(60, 40, 3, LEX, redraw=False)
    for task in ("has-school", "has-human", "prof-recommends"):
        a, b = redrawn[task](0), redrawn[task](1)
        assert a.equals(redrawn[task](0))  # a seed's set is a function of the seed
        assert set(a.sentence) != set(b.sentence)  # another seed draws other sentences
        _sides_disjoint(a)
        _balanced(a)
        assert (a.split == "test").sum() == 40 and (a.split == "train").sum() == 60
        a.loc[:, "sentence"] = ""  # a caller's change does not reach the next caller
        assert redrawn[task](0).sentence.ne("").all()
    one, two = resplit["has-school"](0), resplit["has-school"](1)
    assert sorted(one.sentence) == sorted(two.sentence)  # re-splits of one set
    assert not one.sort_values("sentence").split.equals(two.sort_values("sentence").split)


# --------------------------------------------------------------------------- audit


def test_chance_threshold():
    chance, threshold = audit.chance_threshold([0, 1] * 50, alpha=0.01)
    assert chance == 0.5
    assert threshold == pytest.approx(0.5 + 2.3263478740 * 0.05, abs=1e-6)


def test_structural_task_passes_the_audit():
    f = tasks2016.role_task(grammars.ettinger2016_grammar(simple=True), "school", 600, 300, seed=0)
    report = audit.audit(f)
    assert report.loc["bow", "must_be_at_chance"] and audit.passes(report)


def test_a_task_that_a_bag_of_words_can_solve_fails_the_audit():
    f = tasks2016.has_noun_task(G16, "school", 400, 200, seed=0)
    lexical = audit.audit(f)  # a lexical task: the bag of words may solve it
    assert lexical.loc["bow", "accuracy"] == 1.0 and audit.passes(lexical)
    report = audit.audit(f, requires_structure=True)  # claimed to need structure: it fails
    assert not report.loc["bow", "at_chance"] and not audit.passes(report)


def test_simple_tense_negation_leaks_through_the_bag_of_words():
    leaky = proposed2016.event_negation_task(grammars.ettinger2016_grammar(), n_train=2000, n_test=1000, seed=0)
    tight = proposed2016.event_negation_task(
        grammars.ettinger2016_grammar(negation_invariant=True), n_train=2000, n_test=1000, seed=0
    )
    assert not audit.passes(audit.audit(leaky))
    assert audit.passes(audit.audit(tight))


def test_probe_only_control_catches_a_probe_prior():
    rng = np.random.default_rng(0)
    rows = []
    for i in range(600):
        probe = ["call", "dance"][i % 2]
        label = int(rng.random() < (0.8 if probe == "call" else 0.2))
        rows.append(
            dict(
                sentence=f"the man {'called' if i % 3 else 'met'} the woman {i % 7}",
                label=label,
                probe=probe,
                probe2="",
                split="train" if i < 400 else "test",
                group=i,
                kind="sampled",
                task="cont1",
            )
        )
    report = audit.audit(pd.DataFrame(rows))
    assert not report.loc["probe only", "passes"]
    assert report.loc["probe only", "accuracy"] > 0.7


def test_the_failed_audit_sets_are_named_from_the_table():
    """The prose names the sets that fail the audit from its table, never by hand."""
    from compsem.probing import chapter

    table = pd.DataFrame({"passes": [True, False, False]}, index=["order", "released cont1", "b"])
    assert chapter.audit_failed_words(table) == {"probe_audit_failed_sets": "*released cont1* and *b*"}
    table["passes"] = [True, False, True]
    assert chapter.audit_failed_words(table) == {"probe_audit_failed_sets": "*released cont1*"}
    table["passes"] = True
    assert chapter.audit_failed_words(table) == {"probe_audit_failed_sets": "none"}
