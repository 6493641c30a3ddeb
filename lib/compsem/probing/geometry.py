"""Minimal-pair geometry: does an encoder separate meaning-changing from meaning-preserving edits?

No classifier is trained. For a sentence ``s`` we build (with the event structure, so the edits
are exact):

- ``swap``: agent and patient of the main clause exchanged ("the professor helped the
  student" -> "the student helped the professor"): the same words (agent and patient are
  given the same number, so agreement does not change), another meaning;
- ``passive``: the active/passive paraphrase of the main clause ("the student was helped by
  the professor"): other words, the same meaning;
- ``negation``: the main clause's polarity reversed: almost the same words, another meaning.

An encoder that represents who did what to whom should put ``s`` closer to its paraphrase than
to its role swap: ``cos(s, passive) > cos(s, swap)``. Any permutation-invariant encoder (a bag
of words, averaged word vectors) gives ``cos(s, swap) = 1`` and fails by construction. This is
our extension of the 2016 argument (§3.3) that negative examples should share the words of the
positives.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from compsem.probing import events as ev
from compsem.probing import generator as gen
from compsem.probing import lexicon as lexicon_mod
from compsem.stats import BOOTSTRAP_RESAMPLES, mean_interval

EDITS = ("swap", "passive", "negation")


def minimal_pairs(grammar: gen.Grammar, n: int = 200, seed=0, lexicon=None) -> pd.DataFrame:
    """``n`` sentences with a transitive main clause and their three edits: columns
    ``sentence``, ``swap``, ``passive``, ``negation``, and the main clause's ``voice`` and
    whether the sentence has a relative clause (``has_rc``)."""
    lex = lexicon or lexicon_mod.load()
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    rows, seen = [], set()
    for _ in range(50 * n + 100):
        if len(rows) == n:
            break
        event = gen.sample_event(rng, grammar)
        if event.patient is None:
            continue
        # agent and patient in the same number, so that the role swap keeps every word
        # (agreement included): only the order changes
        event = ev.set_noun(event, ("patient",), event.patient.noun, event.agent.number)
        s = ev.realise(event, lex)
        if s.text in seen:
            continue
        seen.add(s.text)
        swap = ev.exchange_nouns(event, ("agent",), ("patient",))
        passive = ev.paraphrase_voice(event)
        negation = replace(event, negated=not event.negated)
        rows.append(
            dict(
                sentence=s.text,
                swap=ev.realise(swap, lex).text,
                passive=ev.realise(passive, lex).text,
                negation=ev.realise(negation, lex).text,
                voice=event.voice,
                has_rc=len(s.predications) > 1,
            )
        )
    if len(rows) < n:
        raise ValueError(f"only {len(rows)} distinct transitive sentences; enlarge the grammar")
    return pd.DataFrame(rows)


def row_cosines(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Cosine similarity of each row of ``A`` with the same row of ``B`` (0 for a zero row)."""
    A, B = np.asarray(A, np.float64), np.asarray(B, np.float64)
    if A.shape != B.shape:
        raise ValueError(f"A {A.shape} and B {B.shape} must have the same shape")
    norms = np.linalg.norm(A, axis=1) * np.linalg.norm(B, axis=1)
    dots = (A * B).sum(1)
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


def separation(
    cos_preserving: np.ndarray,
    cos_changing: np.ndarray,
    n_boot: int = BOOTSTRAP_RESAMPLES,
    level: float = 0.95,
    seed: int = 0,
) -> dict:
    """How well an encoder separates a meaning-preserving edit from a meaning-changing one:
    the mean cosines, their mean difference (preserving - changing) with a percentile bootstrap
    interval over sentences (:func:`compsem.stats.mean_interval` of the per-sentence
    differences), the share of sentences where the preserving edit is closer (ties count
    one half; 0.5 = no separation) and the share of ties (cosines equal to 1e-6)."""
    keep, change = np.asarray(cos_preserving, float), np.asarray(cos_changing, float)
    if keep.shape != change.shape or keep.ndim != 1 or keep.size == 0:
        raise ValueError(f"separation needs two non-empty 1-d arrays of cosines of the same length, "
                         f"got shapes {keep.shape} and {change.shape}")
    diff = keep - change
    low, high = mean_interval(diff, n_resamples=n_boot, seed=seed, level=level)
    tied = np.isclose(keep, change, rtol=0, atol=1e-6)
    closer = np.where(tied, 0.5, (keep > change) * 1.0)
    return dict(
        cos_preserving=float(keep.mean()),
        cos_changing=float(change.mean()),
        difference=float(diff.mean()),
        low=low,
        high=high,
        share_closer=float(closer.mean()),
        share_tied=float(tied.mean()),
    )


def cosines_by_encoder(
    pairs: pd.DataFrame, encoders, batch_size: int = 64, device: str = "auto"
) -> dict[str, dict[str, np.ndarray]]:
    """``{encoder: {edit: cos(s, edit(s)) per sentence}}`` for the minimal pairs of
    :func:`minimal_pairs`, each distinct text encoded once per encoder (through the cache;
    names of :func:`compsem.probing.features.encode`, layer names such as ``mpnet:layer3``
    included)."""
    from compsem.probing import features

    columns = ["sentence", *EDITS]
    texts = sorted(set(pairs[columns].to_numpy().ravel()))
    out = {}
    for name in encoders:
        vectors = features.encode(name, texts, batch_size=batch_size, device=device)
        lookup = dict(zip(texts, vectors, strict=True))
        vec = {c: np.stack([lookup[t] for t in pairs[c]]) for c in columns}
        out[name] = {e: row_cosines(vec["sentence"], vec[e]) for e in EDITS}
    return out


def separation_table(cosines: dict, n_boot: int = BOOTSTRAP_RESAMPLES, seed: int = 0) -> pd.DataFrame:
    """:func:`separation` of the passive paraphrase against the role swap and against the
    negation, one row per (encoder, versus)."""
    rows = []
    for name, cos in cosines.items():
        for changing in ("swap", "negation"):
            sep = separation(cos["passive"], cos[changing], n_boot=n_boot, seed=seed)
            rows.append(dict(encoder=name, versus=changing, **sep))
    return pd.DataFrame(rows)
