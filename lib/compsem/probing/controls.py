"""Control tasks (Hewitt & Liang 2019) for sentence probes, and when one is sound.

Hewitt & Liang (2019, §2) pair a linguistic task with a *control task* that has the same inputs
and output space but whose label is a random function of word *types*: each type gets a label
drawn once, and an item's control label follows from its types alone. A probe solves the control
task only by memorising which types its input carries, so

    selectivity = accuracy(task) - accuracy(control task)        (H&L §2.2)

for the same probe on the same representation says how much of the task accuracy is more than
memorised words.

**Adaptation to sentence probes.** An item of Ettinger et al. asks about a sentence and, in the
2018 tasks, about probe words. The control label of an item is a random function of two types
chosen without looking at order or roles (:func:`control_types`):

- the item's *verb*: the probed verb (``probe2`` of a pair task, ``probe`` of Content1Probe and
  Negation); for a task without probes, the sentence's verb that ranks first in a seeded random
  order of the verbs;
- the sentence's *noun* that ranks first in a seeded random order of the nouns.

Both are functions of the set of lemmas of the sentence and of the probe, so one definition serves
every task (selectivities compare across tasks) and a bag of words with the probe can solve every
control (a linear model can express "the label of the highest-ranked present noun" with weights
of decreasing size). For every verb, half of its nouns, drawn at random, are labelled 1, so the
probe alone says nothing (of 256 seeded draws, the one that balances the labels of the training
items, the test items and every verb's items best, since the tasks are balanced).

**Soundness** (:func:`soundness`). Memorisation can only be measured on types seen in training:
a control is *sound* when at least ``min_coverage`` of the test items have a type that also
labels a training item and both labels occur among the training items. Where test words are
new by design (has-human holds out its human nouns), the control is not sound and selectivity is
not shown.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from compsem.probing import lexicon as lexicon_mod
from compsem.probing.reader import read

MIN_COVERAGE = 0.9
"""Default share of test items whose control type occurs in training, for a sound control."""


def sentence_lemmas(sentences: Sequence[str], lexicon=None) -> dict[str, tuple[tuple, tuple]]:
    """``{sentence: (noun lemmas, verb lemmas)}`` from our parser, for each distinct sentence."""
    lex = lexicon or lexicon_mod.load()
    out = {}
    for text in dict.fromkeys(sentences):
        parsed = read(text, lex)
        out[text] = (parsed.nouns(), parsed.verbs())
    return out


def _ranking(values, rng) -> dict[str, int]:
    ordered = sorted(set(values))
    return {v: int(r) for v, r in zip(ordered, rng.permutation(len(ordered)), strict=True)}


def control_types(items: pd.DataFrame, seed: int = 0, lexicon=None) -> pd.DataFrame:
    """The ``verb`` and ``noun`` type of every item (module docstring), in the items' order."""
    for column in ("sentence", "probe", "probe2"):
        if column not in items.columns:
            raise ValueError(f"control_types: the item frame has no {column!r} column")
    lemmas = sentence_lemmas(items["sentence"].tolist(), lexicon)
    rng = np.random.default_rng(seed)
    noun_rank = _ranking([n for nouns, _ in lemmas.values() for n in nouns], rng)
    verb_rank = _ranking([v for _, verbs in lemmas.values() for v in verbs], rng)
    nouns, verbs = [], []
    for text, probe, probe2 in zip(items["sentence"], items["probe"], items["probe2"], strict=True):
        sentence_nouns, sentence_verbs = lemmas[text]
        nouns.append(min(sentence_nouns, key=noun_rank.__getitem__))
        verbs.append(probe2 or probe or min(sentence_verbs, key=verb_rank.__getitem__))
    return pd.DataFrame({"verb": verbs, "noun": nouns}, index=items.index)


def _balanced_labels(distinct, keys, items, seed: int, draws: int = 256) -> np.ndarray:
    """Labels for the ``distinct`` (verb, noun) types. Each draw labels 1 a random half of the
    nouns of every verb, so that the verb (the probe of a probed task) says nothing about the
    label; of ``draws`` draws, the one whose share of label 1 is closest to 1/2 among the
    training items, the test items and the items of every verb is kept (the tasks are balanced;
    H&L draw control labels from the task's label distribution)."""
    index = {k: i for i, k in enumerate(distinct)}
    type_of = np.array([index[k] for k in keys])
    split = items["split"].to_numpy()
    verbs = sorted({verb for verb, _ in distinct})
    types_of_verb = [[i for i, (v, _) in enumerate(distinct) if v == verb] for verb in verbs]
    verb_of_item = np.array([verbs.index(distinct[t][0]) for t in type_of])
    groups = [split == "train", split == "test"] + [verb_of_item == j for j in range(len(verbs))]
    rng = np.random.default_rng(seed + 1)
    best, best_gap = None, np.inf
    for _ in range(draws):
        labels = np.zeros(len(distinct), dtype=int)
        for members in types_of_verb:
            chosen = rng.permutation(len(members))[: len(members) // 2]
            labels[np.asarray(members)[chosen]] = 1
        item_labels = labels[type_of]
        gap = max(abs(item_labels[g].mean() - 0.5) for g in groups if g.any())
        if gap < best_gap:
            best, best_gap = labels, gap
    return best


def control_task(items: pd.DataFrame, seed: int = 0, lexicon=None) -> pd.DataFrame:
    """The Hewitt & Liang control task of an item frame: the same items, splits and probes, each
    label replaced by the random label of the item's (verb, noun) type (half of the types
    labelled 1, drawn with ``seed`` so that train and test are as balanced as the tasks); columns ``control_verb`` and ``control_noun`` added and
    `` (control)`` appended to the task name."""
    types = control_types(items, seed, lexicon)
    keys = list(zip(types["verb"], types["noun"], strict=True))
    distinct = sorted(set(keys))
    label_of = dict(zip(distinct, _balanced_labels(distinct, keys, items, seed), strict=True))
    out = items.copy()
    out["label"] = [int(label_of[k]) for k in keys]
    out["control_verb"], out["control_noun"] = types["verb"], types["noun"]
    out["task"] = items["task"].astype(str) + " (control)"
    return out


def soundness(control: pd.DataFrame, min_coverage: float = MIN_COVERAGE) -> dict:
    """Whether a control task from :func:`control_task` can measure memorisation: ``coverage``
    (share of test items whose (verb, noun) type labels a training item), the share of label 1
    in training and test, and ``sound`` (coverage >= ``min_coverage``, both labels in
    training)."""
    if not {"control_verb", "control_noun"} <= set(control.columns):
        raise ValueError("soundness needs a frame made by control_task (control_* columns)")
    train = control[control["split"] == "train"]
    test = control[control["split"] == "test"]
    if train.empty or test.empty:
        raise ValueError("soundness needs items in both the train and the test split")
    seen = set(zip(train["control_verb"], train["control_noun"], strict=True))
    covered = np.array(
        [k in seen for k in zip(test["control_verb"], test["control_noun"], strict=True)]
    )
    coverage = float(covered.mean())
    both = train["label"].nunique() == 2
    return dict(
        coverage=coverage,
        train_positive=float(train["label"].mean()),
        test_positive=float(test["label"].mean()),
        sound=bool(coverage >= min_coverage and both),
    )
