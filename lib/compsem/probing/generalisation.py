"""Structural generalisation splits (beyond the papers): train on one structure, test on another.

Each of :data:`GENERALISATION_SPLITS` is a 2018 probed task (SemRole ``sr`` or Negation
``neg``, Ettinger et al. 2018, §3) over the 2018 words whose training and test items differ in
one structural property (voice, relative clauses, the negation's clause) or in held-out words;
the ``iid`` splits, with the same structures on both sides and the same sizes, are their
references. ``neg`` with held-out adverbs is the 2018 control.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd

from compsem.probing import lexicon as lexicon_mod
from compsem.probing.grammars import ettinger2018_grammar, grammar_without
from compsem.probing.item_frames import as_rng
from compsem.probing.tasks2018 import probe_task

GENERALISATION_SPLITS = {
    "sr iid": "sr: train and test from the same structures (the reference for the sr splits)",
    "active->passive": "sr: train on items whose probe verb is active, test on passive ones",
    "no-rc->rc": "sr: train on sentences without a relative clause, test on sentences with one",
    "src->orc": "sr: train on subject relatives, test on object relatives (probe verb in the RC)",
    "neg main->rc": "neg: train with the negation on the main verb, test with it in the RC",
    "heldout nouns": "sr: two nouns never occur in training sentences; test probes use them",
    "heldout verbs": "sr: two verbs never occur in training sentences; test probes use them",
    "neg iid": "neg: train and test from the same structures and adverbs (the reference)",
    "heldout adverbs": "neg: test adverbs never occur in training (the 2018 control)",
}
"""Structural generalisation splits (beyond the papers): name -> what is held out."""


def generalisation_task(
    split: str, n_train: int = 2000, n_test: int = 500, seed=0, lexicon=None
) -> pd.DataFrame:
    """The item frame of one of :data:`GENERALISATION_SPLITS` over the 2018 words."""
    if split not in GENERALISATION_SPLITS:
        raise ValueError(f"unknown split {split!r}; known: {', '.join(GENERALISATION_SPLITS)}")
    lex = lexicon or lexicon_mod.load()
    inv = lex.inventory("ettinger2018")
    rng = as_rng(seed)
    name = f"{'neg' if split.startswith(('neg', 'heldout adverbs')) else 'sr'}:{split}"
    if split.startswith(("neg", "heldout adverbs")):
        g = ettinger2018_grammar("neg", lex)
        if split == "neg iid":
            return probe_task("neg", g, None, n_train, n_test, rng, name=name, lexicon=lex)
        if split == "neg main->rc":
            return probe_task(
                "neg",
                replace(g, negation=("main",)),
                replace(g, negation=("rc",)),
                n_train,
                n_test,
                rng,
                name=name,
                lexicon=lex,
            )
        train_adv = tuple(a for a in inv.adverbs if a not in inv.test_adverbs)
        return probe_task(
            "neg",
            replace(g, adverbs=train_adv),
            replace(g, adverbs=inv.test_adverbs, min_adverbs=1),
            n_train,
            n_test,
            rng,
            name=name,
            lexicon=lex,
        )
    g = ettinger2018_grammar("sr", lex)
    transitive = list(inv.transitive)
    if split == "sr iid":
        return probe_task(
            "sr", g, None, n_train, n_test, rng, probe_verbs=transitive, name=name, lexicon=lex
        )
    if split == "active->passive":
        return probe_task(
            "sr",
            g,
            None,
            n_train,
            n_test,
            rng,
            probe_verbs=transitive,
            train_filter=lambda r: r["probe_voice"] == "active",
            test_filter=lambda r: r["probe_voice"] == "passive",
            name=name,
            lexicon=lex,
        )
    if split == "no-rc->rc":
        return probe_task(
            "sr",
            replace(g, rc_sites=("none",), negation=("none", "main")),
            replace(g, rc_sites=("agent", "patient")),
            n_train,
            n_test,
            rng,
            probe_verbs=transitive,
            name=name,
            lexicon=lex,
        )
    if split == "src->orc":
        rc = replace(g, rc_sites=("agent", "patient"))
        return probe_task(
            "sr",
            rc,
            None,
            n_train,
            n_test,
            rng,
            probe_verbs=transitive,
            train_filter=lambda r: r["probe_clause"] == "rc" and r["rc_type"] == "src",
            test_filter=lambda r: r["probe_clause"] == "rc" and r["rc_type"] == "orc",
            name=name,
            lexicon=lex,
        )
    if split == "heldout nouns":
        held = list(inv.nouns[-2:])
        return probe_task(
            "sr",
            grammar_without(g, nouns=held),
            g,
            n_train,
            n_test,
            rng,
            test_probe_nouns=held,
            name=name,
            lexicon=lex,
        )
    held = [v for v in transitive if v in ("meet", "follow")]
    return probe_task(
        "sr",
        grammar_without(g, verbs=held),
        g,
        n_train,
        n_test,
        rng,
        test_probe_verbs=held,
        name=name,
        lexicon=lex,
    )
