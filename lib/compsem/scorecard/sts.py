"""The STS battery of the scorecard (Fodor et al. 2025, Table 9 and §5.4).

Re-uses the STS chapters' functions, called as ``notebooks/sts3k-models.py`` calls them, so that
a model's cells are that chapter's recomputed cells (:func:`similarities`):

- one Table 9 cell per column (:func:`compsem.sts.table9.columns_for`): Spearman rho of the
  model's cosines with the human ratings, and the percentile bootstrap interval over pairs of
  :func:`compsem.sts.similarity.bootstrap_spearman`. Standardisation is decided as sts3k-models
  decides it (:func:`compsem.sts.scoring.is_encoder`): a sentence encoder is scored on
  per-feature standardised embeddings (the authors' "centre" method that reproduces Table 9,
  the chapter's ``<model> (std)`` rows; ``mpnet`` is the paper's SentBERT), a composition of
  word vectors or a baseline unstandardised, as Table 9 reports them. A word-vector model
  (``glove50``, ``spacy-md``) is scored as the chapter scores the word-vector means, as the Mean
  composition ``mean:<vectors>`` (:func:`compsem.scorecard.specs.study_spec`);
  the STS3k columns (all / non-adversarial / adversarial) carry the noise ceiling sqrt(R), R the
  split-half reliability of §5.1 (:func:`compsem.sts.table9.noise_ceiling`), the other datasets
  none (no per-rater data);
- per pair type: rho within each Figure 8 category of STS3k (role swaps Swap-2/3/4, Negative,
  Modifiers, Paraphrase, ...; :func:`compsem.sts.structure.within_category_spearman`, BCa
  interval), on the pair types reconstructed by :func:`compsem.sts.pair_types.
  reconstruct_pair_types` (an extension; no paper values).

Full: STS3k, STS Benchmark test, SICK and STR-2022; ``subset``: STS3k and STSb-test.
"""

from __future__ import annotations

import functools

import numpy as np

FULL = ("sts3k", "stsb-test", "sick", "str-2022")
SUBSET = ("sts3k", "stsb-test")


def check(model: str) -> None:
    """Raise ValueError when ``model`` is no STS model spec (:func:`compsem.sts.scoring.validate`)."""
    from compsem.sts import scoring

    scoring.validate([model])


@functools.cache
def _ceiling(n_splits: int, seed: int) -> dict[str, float]:
    from compsem.sts import table9

    reliability = table9.noise_ceiling(n_splits=n_splits, seed=seed)["R"].astype(float)
    return np.sqrt(reliability).to_dict()  # a model's ceiling is sqrt(R), R the split-half reliability


def similarities(model: str, frame, seed: int = 0, device: str = "auto",
                 batch_size: int = 64) -> np.ndarray:
    """The similarity of every pair of ``frame`` (``sentence_a``, ``sentence_b``) under ``model``
    as the battery scores it (module docstring): the spec of
    :func:`compsem.scorecard.specs.study_spec`, standardised by the "centre" method when
    :func:`compsem.sts.scoring.is_encoder` says it is a sentence encoder (as sts3k-models
    scores its ``(std)`` rows), unstandardised otherwise."""
    from compsem.scorecard.specs import study_spec
    from compsem.sts import scoring

    spec = study_spec(model)
    return scoring.pair_similarities(spec, frame, standardised=scoring.is_encoder(spec),
                                     method="centre", seed=seed, batch_size=batch_size,
                                     device=device, show_progress=False)


def rows(model: str, subset: bool = False, n_boot: int = 1000, seed: int = 0,
         device: str = "auto", batch_size: int = 64, **_options) -> list[dict]:
    """The battery's rows (``battery, measure, value, low, high, ceiling``) for ``model``.
    ``_options``: options of other batteries (e.g. the probing battery's ``probe_seeds``), which
    :func:`compsem.scorecard.run` passes to every battery; ignored here."""
    from compsem.data import shared_sentences, sts3k
    from compsem.data import sts_benchmarks as sb
    from compsem.sts import pair_types, similarity, structure, table9

    datasets = SUBSET if subset else FULL
    columns = table9.columns_for(datasets)  # Table 9 column -> (dataset, mask over its pairs)
    ceiling = _ceiling(100, seed)
    pairs = sts3k.load_pairs()
    out = []
    for name in datasets:
        frame = pairs if name == "sts3k" else sb.load_dataset(name)
        sims = similarities(model, frame, seed=seed, device=device, batch_size=batch_size)
        human = frame["human"].to_numpy()
        clusters = shared_sentences.sentence_clusters(frame)  # pairs that share a sentence: the bootstrap's units
        for column, (dataset, mask) in columns.items():
            if dataset != name:
                continue
            low, high = similarity.bootstrap_spearman(sims, human, mask, n_boot=n_boot, seed=seed, clusters=clusters)
            out.append(dict(battery="sts", measure=column, value=similarity.spearman(sims, human, mask),
                            low=low, high=high, ceiling=ceiling.get(column, np.nan)))
        if name == "sts3k":
            labels = pair_types.reconstruct_pair_types(pairs, sts3k.load_stopwords())
            within = structure.within_category_spearman({model: sims}, human, labels,
                                                        n_resamples=n_boot, seed=seed, clusters=clusters)
            for r in within.itertuples():
                out.append(dict(battery="sts", measure=f"STS3k within {r.category}", value=r.rho,
                                low=r.ci_low, high=r.ci_high, ceiling=np.nan))
    return out
