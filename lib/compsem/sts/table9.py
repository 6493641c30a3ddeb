"""Table 9 of Fodor et al. (2025) recomputed from the authors' published similarity files.

Each cell is Spearman rho between a model's per-pair similarities (``Data-model/Sentence
Similarities/<dataset>_<model>_similarities.txt`` of the authors' repository, read by
:func:`compsem.data.sts3k.load_published_similarities`) and the human scores of the same pairs
(:func:`compsem.data.sts3k.load_pairs`, :func:`compsem.data.sts_benchmarks.load_processed`).

- :data:`PUBLISHED_ROWS`: paper row -> model file (the file behind its STS3k-all cell).
- :data:`PAPER_FILE_OVERRIDES`: the cells whose published value comes from another file:
  ERNIE-0 is the *unstandardised* ``ernie_0`` on STS3k-adv (-.206; ``ernie_0_norml`` gives -.107)
  and on all four existing datasets (STSb-captions has no ``ernie_0_norml`` file at all), while
  its STS3k-all/non cells (.423/.799) are ``ernie_0_norml``; DefSent's STS3k-non .868 is
  ``defsent_mean_norml`` (``defsent_cls_norml``, behind every other DefSent cell, gives .862).
- :data:`DATASETS`: Table 9 column -> (published file prefix, loader name, portion).
- :func:`published_table9`: the whole table (``variants="paper"`` reproduces the published
  numbers; ``"consistent"`` uses the row's file in every column), optionally with the exception
  variants as extra rows.
- :func:`recomputed_cells`, :func:`recomputed_table`, :func:`recomputed_values`,
  :func:`standardisation_rhos`, :func:`adv_differences`: Table 9's cells from models run here
  (:mod:`compsem.sts.scoring`), with bootstrap intervals (not in the paper).
- :func:`equivalence_differences`, :func:`lexical_baselines`, :func:`overlap_reading`: the
  lexical baselines against the transformers on STS3k-adv (§6.2).
- :func:`figure4_frame`, :func:`adv_and_drop`: Figure 4's portions and drops of a Table 9.
- :func:`target_values`, :func:`noise_ceiling_values`: the numbers the chapter compares or glues.

Checked against the paper's Table 9: every STS3k cell equals the paper to 3 decimals
(|rho - paper| <= 0.0005), and every cell of the four existing datasets is within 0.00054 of it:
52 of the 58 round to the paper's value, and six are printed 0.001 above the 3-decimal rounding
(Mult-CN STSb-capt .25948 -> .260, STSb-test .16847 -> .169, STSS-131 .27346 -> .274; SentBERT
SICK .80349 -> .804; OpenAI SICK .80449 -> .805; AMR-SMATCH STSS-131 .65248 -> .653), as if rho
had been rounded to 4 decimals and then to 3. That double rounding does not explain the STS3k
columns (S3BERT non .86549 is printed .865, VerbNet-CN all .67247 .672), so the existing-dataset
numbers were probably rounded in a separate pass. ERNIE-0's existing-dataset cells are the
unstandardised file, like its STS3k-adv cell. The authors published no similarities on STR-2022:
its column is NaN in :func:`published_table9`, and only models recomputed here
(:mod:`compsem.sts.scoring`) can be scored on it (:func:`compsem.data.sts_benchmarks.load_str2022`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from compsem.data import shared_sentences, sts3k, sts_benchmarks
from compsem.data.registry import DataError
from compsem.report import slug
from compsem.stats import (
    EQUIVALENCE_LEVEL,
    paired_spearman_difference,
    paired_spearman_difference_levels,
)
from compsem.sts import scoring
from compsem.sts.similarity import bootstrap_spearman_levels, spearman

PUBLISHED_ROWS: dict[str, str] = {
    "Mean-CN": "mean",
    "Mult-CN": "mult",
    "Conv-CN": "conv",
    "InferSent": "infersent",
    "USE": "universal_norml",
    "ERNIE-0": "ernie_0_norml",
    "ERNIE-12": "ernie_12_norml",
    "SentBERT": "sentbert_mpnet_norml",
    "DefSent": "defsent_cls_norml",
    "OpenAI": "openai_norml",
    "AMR-SMATCH": "smatch",
    "AMR-WWLK": "WLK_Wasser",
    "AMRBART": "amrbart_norml",
    "S3BERT": "S3BERT_norml",
    "AMR-CN": "AMR",
    "VerbNet-CN": "verbnet_fixedparms_basic",
}
"""Table 9's rows in the paper's order -> the published model file (``<dataset>_<file>_
similarities.txt``) behind the row's STS3k-all cell. The same name is used on every dataset
(SentBERT is ``sentbert_mpnet_norml`` everywhere; ``sentbert_norml``, another checkpoint, gives
.922/.827/.775/.929 on the existing sets, not the paper's .929/.836/.804/.939), except the cells
in :data:`PAPER_FILE_OVERRIDES`."""

DATASETS: dict[str, tuple[str | None, str | None, str]] = {
    "STSb-capt": ("STSb_captions_test", "stsb-captions", "all"),
    "STSb-test": ("STSb_test", "stsb-test", "all"),
    "SICK": ("SICK_relatedness", "sick", "all"),
    "STSS-131": ("STS131_processed", "stss-131", "all"),
    "STR-2022": (None, "str-2022", "all"),
    "STS3k-all": ("STS3k_all", "sts3k", "all"),
    "STS3k-non": ("STS3k_all", "sts3k", "non"),
    "STS3k-adv": ("STS3k_all", "sts3k", "adv"),
}
"""Table 9's columns -> (published similarity-file prefix, loader: a name for
:func:`compsem.data.sts_benchmarks.load_dataset` or ``"sts3k"``, STS3k portion). STR-2022
(Abdalla et al. 2023) has no published similarity file (prefix None): its data come from its own
release, so only recomputed models fill that column."""

_EXISTING = ("STSb-capt", "STSb-test", "SICK", "STSS-131")

PAPER_FILE_OVERRIDES: dict[tuple[str, str], str] = {
    **{("ERNIE-0", column): "ernie_0" for column in (*_EXISTING, "STS3k-adv")},
    ("DefSent", "STS3k-non"): "defsent_mean_norml",
}
"""Cells of the published Table 9 that come from a file other than the row's
:data:`PUBLISHED_ROWS` entry (the paper's internal inconsistencies)."""

VARIANT_ROWS: dict[str, str] = {
    "ERNIE-0 (raw)": "ernie_0",
    "ERNIE-0 (norml)": "ernie_0_norml",
    "DefSent (cls)": "defsent_cls_norml",
    "DefSent (mean)": "defsent_mean_norml",
}
"""Extra rows holding one file across all columns, to show the two exceptions: ERNIE-0 adv
raw -.206 vs norml -.107; DefSent non cls .862 vs mean .868."""

ROW_SLUGS = {row: slug(row) for row in PUBLISHED_ROWS}
"""Row -> slug of the ``table9_<row>_<column>`` target keys (mean_cn, ernie_0, verbnet_cn...)."""

COLUMN_SLUGS = {column: slug(column) for column in DATASETS}
"""Column -> slug of the target keys (stsb_capt, stss_131, sts3k_adv...)."""


def target_key(row: str, column: str) -> str:
    """The key of a Table 9 cell in ``data/targets/sts3k.json``, e.g. ``table9_mean_cn_sts3k_adv``."""
    return f"table9_{ROW_SLUGS[row]}_{COLUMN_SLUGS[column]}"


def cell_file(row: str, column: str, variants: str = "paper") -> str | None:
    """The published model file behind one cell (None if the dataset has no such file).

    ``variants="paper"`` applies :data:`PAPER_FILE_OVERRIDES`; ``"consistent"`` takes the row's
    :data:`PUBLISHED_ROWS` file everywhere. Rows of :data:`VARIANT_ROWS` are accepted too.
    """
    if variants not in ("paper", "consistent"):
        raise ValueError(f"variants must be 'paper' or 'consistent', not {variants!r}")
    prefix = DATASETS[column][0]
    if prefix is None:
        return None
    if row in VARIANT_ROWS:
        model = VARIANT_ROWS[row]
    else:
        model = PUBLISHED_ROWS[row]
        if variants == "paper":
            model = PAPER_FILE_OVERRIDES.get((row, column), model)
    return model if model in sts3k.published_similarity_models(prefix) else None


@functools.cache
def _human(column: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Human scores, the column's pair mask and the pairs' resampling clusters (pairs that share
    a sentence, :func:`compsem.data.shared_sentences.sentence_clusters`), cached per column."""
    _, loader, portion = DATASETS[column]
    if loader == "sts3k":
        pairs = sts3k.load_pairs()
        return pairs["human"].to_numpy(), sts3k.portion_mask(pairs, portion), shared_sentences.sentence_clusters(pairs)
    frame = sts_benchmarks.load_dataset(loader)
    return frame["human"].to_numpy(), np.ones(len(frame), dtype=bool), shared_sentences.sentence_clusters(frame)


def published_cell(row: str, column: str, variants: str = "paper") -> float:
    """Spearman rho of one Table 9 cell from the published files (NaN where there is no file)."""
    model = cell_file(row, column, variants)
    if model is None:
        return float("nan")
    human, mask, _ = _human(column)
    similarity = sts3k.load_published_similarities(model, DATASETS[column][0])
    if len(similarity) != len(human):
        raise DataError(
            f"{DATASETS[column][0]}_{model}: {len(similarity)} similarities for {len(human)} pairs"
        )
    return spearman(similarity, human, mask)


def published_table9(variants: str = "paper", extra_rows: bool = False) -> pd.DataFrame:
    """Table 9 recomputed from the published similarity files: rows in the paper's order
    (plus :data:`VARIANT_ROWS` with ``extra_rows=True``), the eight columns of :data:`DATASETS`;
    unrounded rho, NaN where no file exists (the paper's "-" cells and all of STR-2022)."""
    rows = list(PUBLISHED_ROWS) + (list(VARIANT_ROWS) if extra_rows else [])
    table = pd.DataFrame(
        [[published_cell(r, c, variants) for c in DATASETS] for r in rows],
        index=pd.Index(rows, name="model"), columns=pd.Index(list(DATASETS), name="dataset"),
    )
    return table


def target_values(table: pd.DataFrame, targets: Mapping[str, dict]) -> dict[str, float]:
    """The cells of a Table 9 frame (:func:`published_table9`) that ``targets`` (data/targets/
    sts3k.json) hold, under their keys (:func:`target_key`), row by row in the frame's order; NaN
    cells (no file) left out: the numbers compared with the paper's Table 9."""
    values = {}
    for row in table.index:
        for column in table.columns:
            key = target_key(row, column)
            if key in targets and not np.isnan(table.loc[row, column]):
                values[key] = float(table.loc[row, column])
    return values


def paper_table9() -> pd.DataFrame:
    """The paper's Table 9 (minus signs restored) from the ``table9_*`` targets of
    ``data/targets/sts3k.json``: same layout as :func:`published_table9`, NaN for "-" cells
    and for keys not (yet) in the file."""
    from compsem import report

    try:
        targets = report.load_targets("sts3k")
    except (FileNotFoundError, KeyError):
        targets = {}
    values = [[targets.get(target_key(r, c), {}).get("paper", np.nan) for c in DATASETS]
              for r in PUBLISHED_ROWS]
    return pd.DataFrame(values, index=pd.Index(list(PUBLISHED_ROWS), name="model"),
                        columns=pd.Index(list(DATASETS), name="dataset"), dtype=float)


def columns_for(datasets) -> dict[str, tuple[str, np.ndarray]]:
    """The Table 9 columns a list of dataset names (the loaders of :data:`DATASETS`: ``"sts3k"``
    and names for :func:`compsem.data.sts_benchmarks.load_dataset`) covers: column -> (dataset name, boolean
    mask over that dataset's pairs). STS3k gives three columns (all, non, adv)."""
    known = {loader for _, loader, _ in DATASETS.values() if loader}
    unknown = [d for d in datasets if d not in known]
    if unknown:
        raise ValueError(f"unknown dataset(s) {unknown}; Table 9 datasets: {', '.join(sorted(known))}")
    return {column: (loader, _human(column)[1]) for column, (_, loader, _) in DATASETS.items()
            if loader in datasets}


def recomputed_cells(models, frames: Mapping[str, pd.DataFrame],
                     columns: Mapping[str, tuple[str, np.ndarray]],
                     levels: Callable[[str, str], Mapping[str, float]], n_boot: int = 1000,
                     seed: int = 0, batch_size: int = 64, device: str = "auto",
                     method: str = "centre") -> tuple[pd.DataFrame, dict[tuple[str, str], np.ndarray]]:
    """Table 9's cells (Spearman rho with people, §5.2) of models run here, with percentile-bootstrap
    intervals over pairs (not in the paper).

    ``models``: model specs of :mod:`compsem.sts.scoring`; ``frames``: dataset name -> its pairs
    (``sentence_a``, ``sentence_b``, ``human``); ``columns``: Table 9 column -> (dataset name,
    mask over its pairs), as :func:`columns_for` gives. The embeddings of every dataset are fetched
    first (:func:`compsem.sts.scoring.prefetch`: one forward pass per base model serves all its
    layers). A sentence encoder is scored on raw and on standardised embeddings (row label
    ``"<spec> (std)"``; ``method`` "centre" as the authors' code, "zscore" as §4.3's text), a
    composition or baseline once, unstandardised, as in Table 9. ``levels(label, column)`` gives
    the ``tag -> level`` of a cell's intervals (``"ci"`` among them; e.g.
    :func:`compsem.sts.chapter.recomputed_levels`), every level read from one set of ``n_boot``
    resamples (:func:`compsem.sts.similarity.bootstrap_spearman_levels`, ``seed``) of the clusters
    of pairs that share a sentence (:func:`compsem.data.shared_sentences.sentence_clusters`).

    Returns ``(cells, similarities)``. ``cells``: one row per (label, column) in the order
    models x (raw, standardised) x datasets x columns, with ``model`` (the label), ``column``,
    ``rho``, ``low``/``high`` (the ``"ci"`` interval) and ``bounds`` (``tag -> (low, high)``).
    ``similarities``: (label, dataset name) -> the per-pair similarities.
    """
    for frame in frames.values():
        scoring.prefetch(models, frame["sentence_a"].tolist() + frame["sentence_b"].tolist(),
                         batch_size=batch_size, device=device, show_progress=False)
    rows, similarities = [], {}
    clusters = {name: shared_sentences.sentence_clusters(frame) for name, frame in frames.items()}
    for spec in models:
        for standardised in ((False, True) if scoring.is_encoder(spec) else (False,)):
            label = spec + (" (std)" if standardised else "")
            for name, frame in frames.items():
                sims = scoring.pair_similarities(spec, frame, standardised=standardised, seed=seed,
                                                 batch_size=batch_size, device=device,
                                                 show_progress=False, method=method)
                similarities[(label, name)] = sims
                for column, (dataset, mask) in columns.items():
                    if dataset != name:
                        continue
                    human = frame["human"].to_numpy()
                    rho = spearman(sims, human, mask)
                    tags = levels(label, column)
                    bounds = dict(zip(tags, bootstrap_spearman_levels(
                        sims, human, mask, n_boot=n_boot, seed=seed, levels=list(tags.values()), clusters=clusters[name]),
                        strict=True))
                    rows.append({"model": label, "column": column, "rho": rho,
                                 "low": bounds["ci"][0], "high": bounds["ci"][1], "bounds": bounds})
    return pd.DataFrame(rows), similarities


def recomputed_table(cells: pd.DataFrame, columns, intervals: bool = False) -> pd.DataFrame:
    """The :func:`recomputed_cells` as Table 9: one row per model label, the columns in the order of
    ``columns`` (those with a cell); rho, or with ``intervals`` the text ``"rho [low, high]"`` to
    three decimals."""
    table = cells.pivot(index="model", columns="column", values="rho").reindex(
        columns=[c for c in columns if c in set(cells.column)])
    if not intervals:
        return table
    text = cells.assign(cell=[f"{r:.3f} [{lo:.3f}, {hi:.3f}]" for r, lo, hi in
                              zip(cells.rho, cells.low, cells.high, strict=True)])
    return text.pivot(index="model", columns="column", values="cell").reindex(columns=table.columns)


def figure4_frame(table: pd.DataFrame) -> pd.DataFrame:
    """Figure 4 (§5.2) of a Table 9 (the published files' or the paper's): each row's STS3k-non
    and STS3k-adv rho and their difference, ``adv − non``."""
    frame = table[["STS3k-non", "STS3k-adv"]].copy()
    frame["adv − non"] = frame["STS3k-adv"] - frame["STS3k-non"]
    return frame


def adv_and_drop(table: pd.DataFrame) -> pd.DataFrame:
    """Each row's STS3k-adv rho (``adv``) and its drop from STS3k-non (``non − adv``) of a Table
    9, the two quantities of :func:`compsem.sts.chapter.published_intervals`."""
    return pd.DataFrame({"adv": table["STS3k-adv"], "non − adv": table["STS3k-non"] - table["STS3k-adv"]})


def recomputed_values(cells: pd.DataFrame, targets: Mapping[str, dict]) -> tuple[dict, dict]:
    """The glue values of :func:`recomputed_cells`: ``recomputed_<model>_<column>`` (rho) for every
    cell, and for the STS3k-adv cells their bounds at every level, ``..._<tag>_low`` /
    ``..._<tag>_high``. Returns ``(compared, other)``: the cells with a paper target (to be
    compared with it) and everything else (no paper number, but the Findings use them: baselines
    and substitutes, and the bounds)."""
    compared, other = {}, {}
    for row in cells.itertuples():
        key = f"recomputed_{slug(row.model)}_{COLUMN_SLUGS[row.column]}"
        (compared if key in targets else other)[key] = float(row.rho)
        if row.column == "STS3k-adv":
            for tag, (low, high) in row.bounds.items():
                other |= {f"{key}_{tag}_low": float(low), f"{key}_{tag}_high": float(high)}
    return compared, other


STS3K_COLUMNS = ("STS3k-all", "STS3k-non", "STS3k-adv")


def standardisation_rhos(pairs: pd.DataFrame, spec: str = "mpnet",
                         methods=("centre", "zscore")) -> pd.DataFrame:
    """Spearman rho of ``spec``'s standardised similarities on Table 9's three STS3k columns under
    each standardisation ``method`` of :func:`compsem.sts.similarity.standardise`: "centre"
    (per-feature centring, the authors' code) and "zscore" (per-feature z-scores, §4.3's text).
    With ``spec="mpnet"`` (all-mpnet-base-v2, the paper's SentBERT) this shows which of the two
    gives Table 9's SentBERT row. One row per method, columns :data:`STS3K_COLUMNS`."""
    human = pairs["human"].to_numpy()
    rows = {}
    for method in methods:
        sims = scoring.pair_similarities(spec, pairs, standardised=True, method=method,
                                         show_progress=False)
        rows[method] = {column: spearman(sims, human, sts3k.portion_mask(pairs, DATASETS[column][2]))
                        for column in STS3K_COLUMNS}
    return pd.DataFrame(rows).T


def noise_ceiling(n_splits: int = 100, seed: int = 0, level: float = 0.95) -> pd.DataFrame:
    """What the noise ceiling of Table 9's STS3k columns follows from: the split-half reliability
    R of the human ratings (§5.1; paper .953 all, .950 non, .940 adv), computed by
    :func:`compsem.sts.ratings.split_half_reliability` exactly as the data chapter does.

    The Spearman-Brown corrected split-half r (R) estimates how well the mean ratings of a second,
    equally large panel of raters would correlate with these ones: the agreement of two noisy
    panels, i.e. a model as good as another panel. A model that predicted the true mean ratings
    exactly would correlate about sqrt(R) with the observed means, so sqrt(R), not R, bounds a
    model from above. Not in the paper's Table 9 (the paper reports reliability in §5.1 and
    draws no ceiling).

    The subsets are those of the reliability analysis (:func:`~compsem.sts.ratings.
    reliability_subsets`), which differ slightly from the Table 9 columns: "all" omits the 10
    attention checks, "adv" is the rows marked ADV in the participant file (1,736, the 71
    negatives included; Table 9's STS3k-adv has 1,664). Returns one row per STS3k column:
    ``R`` (Spearman-Brown corrected mean r; the ceiling of a model is its square root),
    ``low``/``high`` (the ``level`` range of the corrected r of single splits, the spread one
    random split could give), ``n_pairs``.
    """
    from compsem.sts import ratings as rt

    ratings = sts3k.load_participant_ratings().to_numpy()
    subsets = rt.reliability_subsets(sts3k.load_participant_pairs(), ratings)
    summary, per_split = rt.split_half_reliability(ratings, subsets, n_splits=n_splits, seed=seed)
    rows = {}
    for column in STS3K_COLUMNS:
        subset = column.split("-")[1]
        low, high = rt.single_split_range(per_split, subset, "r", level)
        rows[column] = {"R": float(summary.loc[subset, "split_half"]), "low": low, "high": high,
                        "n_pairs": int(summary.loc[subset, "n_pairs"])}
    return pd.DataFrame(rows).T.rename_axis("column")


def noise_ceiling_values(ceiling: pd.DataFrame) -> dict[str, float]:
    """The numbers of a :func:`noise_ceiling` table under their keys, per STS3k column:
    ``noise_ceiling_<column>`` (R) with ``_ci_low`` / ``_ci_high`` (the range of single splits),
    then a model's upper bound sqrt(R) and that range's square roots, ``..._sqrt``,
    ``..._sqrt_ci_low``, ``..._sqrt_ci_high``."""
    values = {}
    for column, row in ceiling.iterrows():
        key = f"noise_ceiling_{COLUMN_SLUGS[column]}"
        values |= {key: float(row["R"]), f"{key}_ci_low": float(row["low"]),
                   f"{key}_ci_high": float(row["high"])}
        for stat in ("R", "low", "high"):
            values[f"{key}_sqrt{'' if stat == 'R' else '_ci_' + stat}"] = float(np.sqrt(row[stat]))
    return values


BCA_MAX_PAIRS = 5000
"""Above this many pairs a column's paired interval is the percentile bootstrap, not BCa, whose
jackknife step resamples an n x n array of indices (SICK's 9,840 pairs: 97 million)."""


def paired_published(row_a: str, row_b: str, columns, n_resamples: int = 1000, seed: int = 0,
                     level: float = 0.95, levels: Mapping[str, float] | None = None) -> pd.DataFrame:
    """rho(row_a) - rho(row_b) per Table 9 column from the published similarity files, with a
    paired bootstrap interval and p (as :func:`compsem.stats.paired_spearman_difference`: both
    models' similarities of a pair are resampled together, by clusters of pairs that share a
    sentence, :func:`compsem.data.shared_sentences.sentence_clusters`).

    Each row uses its own file in every column (``variants="consistent"``), so DefSent is the
    CLS model on STS3k-non too (.862, not the printed mean-pooled .868). Not in the paper, which
    compares the printed point estimates. Used for §6's DefSent-vs-SentBERT contrast ("a
    surprisingly high correlation of 0.49 despite performing at or slightly below the level of
    SentBERT on the other datasets"). A column without a file for either row raises ValueError.
    The interval is BCa, or the percentile bootstrap on a column of more than
    :data:`BCA_MAX_PAIRS` pairs. Returns one row per column: ``rho_a``, ``rho_b``,
    ``difference``, ``ci_low``, ``ci_high`` (at ``level``), ``p``, ``williams_t``, ``williams_p``,
    ``n``, ``method``, and for each ``tag -> level`` of ``levels`` (e.g. ``{"ci90": .90}``, or a
    Bonferroni level ``bonf<k>_ci`` of a union of k tests, :mod:`compsem.sts.families`)
    ``<tag>_low`` and ``<tag>_high``: every level of a column read from one set of resamples
    (:func:`compsem.stats.paired_spearman_difference_levels`).
    """
    extra = dict(levels or {})
    out = {}
    for column in columns:
        files = [cell_file(row, column, "consistent") for row in (row_a, row_b)]
        if None in files:
            raise ValueError(f"no published similarity file for {[row_a, row_b][files.index(None)]!r} "
                             f"on {column!r}")
        human, mask, clusters = _human(column)
        prefix = DATASETS[column][0]
        a, b = (sts3k.load_published_similarities(f, prefix)[mask] for f in files)
        method = "percentile" if int(np.sum(mask)) > BCA_MAX_PAIRS else "BCa"
        result = paired_spearman_difference_levels(a, b, human[mask], n_resamples=n_resamples, seed=seed,
                                                   levels=[level, *extra.values()], method=method,
                                                   clusters=clusters[mask])
        intervals = result.pop("intervals")
        for tag, (low, high) in zip(extra, intervals[1:], strict=True):
            result |= {f"{tag}_low": low, f"{tag}_high": high}
        out[column] = result | {"method": method}
    return pd.DataFrame(out).T.infer_objects().rename_axis("column")


def equivalence_differences(baselines, rivals, human, mask, n_resamples: int = 1000, seed: int = 0,
                            level: float = EQUIVALENCE_LEVEL, portion: str = "sts3k_adv", family: int = 1,
                            clusters=None) -> dict[str, float]:
    """Each baseline minus each rival in Spearman rho with people on the pairs in ``mask``, a paired
    bootstrap (BCa, as :func:`compsem.stats.paired_spearman_difference`: both series of a pair
    resampled together) at ``level`` (90%: the interval of an equivalence test, two one-sided tests
    at 5%; over ``clusters`` of pairs where given). ``baselines`` and ``rivals`` map display names
    to per-pair similarities. Returns
    ``<baseline>_minus_<rival>_<portion>`` (the difference) and ``..._ci<level>_low`` /
    ``_ci<level>_high``, names slugged (``"Mean-CN"`` -> ``mean_cn``). Used for §6.2's reading that
    leading transformers rank the adversarial pairs about as well as lexical cues do.

    ``family`` = k > 1: each difference's test is one of a union of k equivalence tests (family
    ``lexical_baseline`` of :data:`compsem.sts.families.UNION_FAMILIES`: a baseline fails if it is
    outside the margin against either rival), so the interval is also given at Bonferroni's level
    ``1 - (1 - level) / k`` (90% and k = 2: 95%) as ``..._bonf<k>_ci_low`` / ``_bonf<k>_ci_high``.
    Both levels of a difference are read from one set of resamples
    (:func:`compsem.stats.paired_spearman_difference_levels`)."""
    from compsem.stats import bonferroni_level

    mask = np.asarray(mask, dtype=bool)
    h = np.asarray(human, dtype=float)[mask]
    levels = {f"ci{round(100 * level)}": level}
    if family > 1:
        levels[f"bonf{family}_ci"] = bonferroni_level(family, 1 - level)
    values = {}
    for baseline, a in baselines.items():
        for rival, b in rivals.items():
            key = f"{slug(baseline)}_minus_{slug(rival)}_{portion}"
            result = paired_spearman_difference_levels(np.asarray(a, dtype=float)[mask], np.asarray(b, dtype=float)[mask], h,
                                                       n_resamples=n_resamples, seed=seed, levels=list(levels.values()),
                                                       clusters=None if clusters is None else np.asarray(clusters)[mask])
            values[key] = result["difference"]
            for tag, (low, high) in zip(levels, result["intervals"], strict=True):
                values |= {f"{key}_{tag}_low": low, f"{key}_{tag}_high": high}
    return values


def adv_differences(reference, rivals: Mapping[str, np.ndarray], pairs: pd.DataFrame, prefix: str,
                    n_resamples: int = 1000, seed: int = 0, level: float = 0.95) -> dict[str, float]:
    """``reference`` minus each rival in Spearman rho with people on STS3k-adv (Table 9's column,
    §5.2), a paired bootstrap (:func:`compsem.stats.paired_spearman_difference`, BCa: both series
    of a pair resampled together, by clusters of pairs that share a sentence,
    :func:`compsem.data.shared_sentences.sentence_clusters`) at ``level``. ``reference`` and the values of ``rivals`` are
    per-pair similarities over all of ``pairs``. Returns ``<prefix>_minus_<rival>_sts3k_adv`` (the
    difference) with ``_ci_low`` / ``_ci_high``, rival names slugged (``"mean:glove50"`` ->
    ``mean_glove50``). Not in the paper; used for STS3k-adv's separation of SentBERT from the
    bag-of-words means over substitute vectors."""
    adv = sts3k.portion_mask(pairs, "adv")
    clusters = shared_sentences.sentence_clusters(pairs)[adv]
    values = {}
    for rival, sims in rivals.items():
        gap = paired_spearman_difference(np.asarray(reference)[adv], np.asarray(sims)[adv],
                                         pairs["human"].to_numpy()[adv], n_resamples=n_resamples,
                                         seed=seed, level=level, clusters=clusters)
        key = f"{prefix}_minus_{slug(rival)}_sts3k_adv"
        values |= {key: gap["difference"], f"{key}_ci_low": gap["ci_low"],
                   f"{key}_ci_high": gap["ci_high"]}
    return values


def lexical_baselines(similarities: Mapping[tuple[str, str], np.ndarray], pairs: pd.DataFrame,
                      n_resamples: int = 1000, seed: int = 0, level: float = 0.95,
                      family: int = 1) -> dict[str, float]:
    """The lexical baselines against the transformers on STS3k-adv (§6.2: leading transformers
    "rely primarily on lexical cues"), from the :func:`recomputed_cells` similarities
    (``(label, "sts3k")`` keys) and the authors' files: word overlap minus SentBERT (``"mpnet
    (std)"``) at ``level`` (``overlap_minus_sentbert_sts3k_adv_ci_low`` / ``_ci_high`` / ``_p``,
    :func:`compsem.stats.paired_spearman_difference`); every lexical baseline (overlap, the
    authors' Mean-CN, the GloVe and spaCy means run here) minus SentBERT and the authors' OpenAI
    (:func:`equivalence_differences`, 90%, ``family`` for the union of the two rivals); SentBERT
    minus each mean run here (:func:`adv_differences`, prefix ``mpnet``). Empty when overlap or
    SentBERT was not run. Every bootstrap resamples clusters of pairs that share a sentence
    (:func:`compsem.data.shared_sentences.sentence_clusters`)."""
    if ("overlap", "sts3k") not in similarities or ("mpnet (std)", "sts3k") not in similarities:
        return {}
    adv = sts3k.portion_mask(pairs, "adv")
    human = pairs["human"].to_numpy()
    clusters = shared_sentences.sentence_clusters(pairs)
    overlap, sentbert = similarities[("overlap", "sts3k")], similarities[("mpnet (std)", "sts3k")]
    gap = paired_spearman_difference(overlap[adv], sentbert[adv], human[adv], n_resamples=n_resamples,
                                     seed=seed, level=level, clusters=clusters[adv])
    values = {f"overlap_minus_sentbert_sts3k_adv_{stat}": gap[stat] for stat in ("ci_low", "ci_high", "p")}
    means = {m: similarities[(m, "sts3k")] for m in ("mean:glove50", "mean:spacy-md") if (m, "sts3k") in similarities}
    lexical = {"overlap": overlap, "Mean-CN": sts3k.load_published_similarities("mean")} | means
    values |= equivalence_differences(
        lexical, {"SentBERT": sentbert, "OpenAI": sts3k.load_published_similarities("openai_norml")},
        human, adv, n_resamples=n_resamples, seed=seed, family=family, clusters=clusters)
    values |= adv_differences(sentbert, means, pairs, "mpnet", n_resamples=n_resamples, seed=seed,
                              level=level)
    return values


def overlap_reading(values: Mapping[str, float]) -> str:
    """One sentence on word overlap minus SentBERT on STS3k-adv (:func:`lexical_baselines`'
    values): the difference, its interval, and whether the interval contains zero."""
    key = "overlap_minus_sentbert_sts3k_adv"
    low, high = values[f"{key}_ci_low"], values[f"{key}_ci_high"]
    if low <= 0 <= high:
        reading = "the interval contains zero: on the adversarial pairs the data cannot tell SentBERT from a count of shared words"
    else:
        better = "word overlap" if low > 0 else "SentBERT"
        reading = f"the interval excludes zero: {better} is the better of the two on the adversarial pairs"
    return f"Word overlap − SentBERT on STS3k-adv: {values[key]:+.3f} [{low:+.3f}, {high:+.3f}]; {reading}."


NEAR_ZERO_FRACTION = 0.1
"""'Close to zero' (§5.2, Figure 4: the hybrids' drops) as a fraction of the smallest drop from
STS3k-non to STS3k-adv the paper reports for a model it does not call close to zero (DefSent's 0.36,
target ``figure4_drop_defsent``): one tenth, an order of magnitude below it, which also rounds to
zero at the one decimal of the paragraph's other drops (1.1, 0.9, 0.7). Declared from the paper's
numbers, not from ours (:func:`near_zero_margin`)."""


def near_zero_margin(targets) -> float:
    """The equivalence margin of the hybrids' 'close to zero' drops: :data:`NEAR_ZERO_FRACTION`
    times the paper's DefSent drop (target ``figure4_drop_defsent`` of ``targets``)."""
    return NEAR_ZERO_FRACTION * float(targets["figure4_drop_defsent"]["paper"])
