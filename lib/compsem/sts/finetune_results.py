"""Transfer beyond Figure 6's grid: what the chapter ``sts3k-finetune`` reads off fits and files
once they exist, about how training carries over to pairs of another kind.

- Figure 7 (§5.3), from the authors' published similarity files: the bars of SentBERT and
  VerbNet-CN on the adversarial pairs (:func:`figure7_bars`), SentBERT's transfer gap, random
  split minus adversarial split on the same pairs (:func:`figure7_transfer_gap`), and VerbNet-CN's
  random-split file on its held-out adversarial pairs (:func:`figure7_verbnet_heldout`), and the
  bars beside the paper's (:func:`figure7_table`);
- learning curves on the adversarial split, one per feature set (:func:`learning_curves`; not in
  the paper);
- a split by kind of manipulation, training on some kinds of swap and testing on others
  (:func:`manipulation_values`; not in the paper).

The fits themselves are :mod:`compsem.sts.regressors`'s and the fine-tuning
:mod:`compsem.sts.finetune`'s; results over seeds and seeded splits (Figure 6, Table 8) are in
:mod:`compsem.sts.seed_grids`. Nothing here fits or draws anything of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from compsem import stats as cstats
from compsem.data import shared_sentences, sts3k
from compsem.report import slug
from compsem.sts import regressors as rg
from compsem.sts import similarity
from compsem.sts.chapter import published_row

FIGURE7_SENTBERT_KEYS = {"no training": "fig7_sentbert_no_training",
                         "random split (10-fold)": "fig7_sentbert_random_10fold",
                         "adversarial split": "fig7_sentbert_adversarial",
                         "STSb-trained": "fig7_sentbert_stsb_trained"}
"""Condition of :func:`compsem.sts.finetune.published_finetuned` -> key of SentBERT's Figure 7 bar
(the STSb-trained file, not one of Figure 7's bars: its value comes near the text's for the
untrained SentBERT, §5.3, and is shown beside it, not compared)."""

FIGURE7_VERBNET_KEYS = ("fig7_verbnet_no_training", "fig7_verbnet_random", "fig7_verbnet_adversarial")
"""The keys of VerbNet-CN's Figure 7 bars (:func:`figure7_bars`): without training, on the random
split and on the adversarial split (one per row of :func:`figure7_table`)."""

VERBNET_UNTRAINED = "verbnet_fixedparms_basic"
"""The authors' similarity file of VerbNet-CN with Table 9's fixed weights (no training)."""


def figure7_bars(published_ft: pd.DataFrame, published: pd.DataFrame, pairs: pd.DataFrame,
                 human) -> dict[str, float]:
    """The bars of Figure 7 (§5.3), Spearman rho on the adversarial pairs from the authors' files:
    SentBERT's four conditions of ``published_ft`` (:func:`compsem.sts.finetune.published_finetuned`,
    keys :data:`FIGURE7_SENTBERT_KEYS`), then VerbNet-CN without training (Table 9's similarities,
    :data:`VERBNET_UNTRAINED`), on the random split (the no-PCA nn5 regressor file) and on the
    adversarial split (the PCA-8 nn3 file) from ``published``
    (:func:`compsem.sts.regressors.published_grid`)."""
    by_condition = published_ft.set_index("condition")
    values = {key: float(by_condition.loc[condition, "rho_adv"])
              for condition, key in FIGURE7_SENTBERT_KEYS.items()}
    untrained_key, random_key, adversarial_key = FIGURE7_VERBNET_KEYS
    values[untrained_key] = similarity.spearman(
        sts3k.load_published_similarities(VERBNET_UNTRAINED), human, sts3k.portion_mask(pairs, "adv"))
    values[random_key] = float(published_row(published, "verbnet", "nn5", "random", 2800)["rho_adv"])
    values[adversarial_key] = float(published_row(published, "verbnet", "nn3", "adversarial", 8)["rho_adv"])
    return values


def figure7_transfer_gap(published_ft: pd.DataFrame, pairs: pd.DataFrame, human,
                         n_resamples: int = cstats.BOOTSTRAP_RESAMPLES, seed: int = 0) -> dict[str, float]:
    """SentBERT fine-tuned on the random split (10-fold) minus SentBERT fine-tuned on the
    adversarial split (Figure 7, §5.3): the difference of their Spearman rho on the same
    adversarial pairs with its 95% paired bootstrap interval
    (:func:`compsem.stats.paired_spearman_difference`, ``n_resamples`` resamples of the clusters
    of pairs that share a sentence, :func:`compsem.data.shared_sentences.sentence_clusters`, drawn with
    ``seed``), keys ``fig7_sentbert_transfer_gap_difference``, ``_ci_low`` and ``_ci_high``."""
    files = published_ft.set_index("condition")["file"]
    gap = cstats.paired_spearman_difference(
        sts3k.load_published_similarities(files["random split (10-fold)"]),
        sts3k.load_published_similarities(files["adversarial split"]), human,
        mask=sts3k.portion_mask(pairs, "adv"), n_resamples=n_resamples, seed=seed,
        clusters=shared_sentences.sentence_clusters(pairs))
    return {f"fig7_sentbert_transfer_gap_{part}": gap[part] for part in ("difference", "ci_low", "ci_high")}


def figure7_verbnet_heldout(published: pd.DataFrame) -> float:
    """Spearman rho of VerbNet-CN's random-split bar of Figure 7 (the no-PCA nn5 file) on the
    adversarial pairs its model did not train on (``rho_heldout_adv`` of
    :func:`compsem.sts.regressors.published_grid`)."""
    return float(published_row(published, "verbnet", "nn5", "random", 2800)["rho_heldout_adv"])


FIGURE7_OURS = "authors' files, scored here"
"""The column group of :func:`figure7_table` holding the bars scored here (:func:`figure7_bars`)."""
FIGURE7_PAPER = "paper (Figure 7)"
"""The column group of :func:`figure7_table` holding the paper's bars (the targets)."""

FIGURE7_CONDITIONS = {"no training": "no training", "random split": "random split (10-fold)",
                      "adversarial split": "adversarial split"}
"""The rows of :func:`figure7_table` and the condition of :data:`FIGURE7_SENTBERT_KEYS` each shows
(SentBERT's random split: the 10-fold bar)."""


def figure7_table(values: Mapping[str, float], targets: Mapping[str, dict]) -> pd.DataFrame:
    """Figure 7's bars (§5.3) beside the paper's: one row per condition of
    :data:`FIGURE7_CONDITIONS` (no training, random split, adversarial split), columns SentBERT
    and VerbNet-CN under two groups, :data:`FIGURE7_OURS` (``values``' ``fig7_*`` bars,
    :func:`figure7_bars`; SentBERT's random split: the 10-fold bar) and :data:`FIGURE7_PAPER` (the
    ``paper`` value of the same keys in ``targets``). Each group is the data of one set of bars of
    :func:`compsem.sts.figures.finetune_bars`."""
    keys = {"SentBERT": [FIGURE7_SENTBERT_KEYS[c] for c in FIGURE7_CONDITIONS.values()],
            "VerbNet-CN": list(FIGURE7_VERBNET_KEYS)}

    def bars(value) -> pd.DataFrame:
        return pd.DataFrame({model: [value(key) for key in model_keys] for model, model_keys in keys.items()},
                            index=list(FIGURE7_CONDITIONS))

    return pd.concat({FIGURE7_OURS: bars(values.__getitem__),
                      FIGURE7_PAPER: bars(lambda key: targets[key]["paper"])}, axis=1)


def learning_curves(features: Mapping[str, np.ndarray], human, split: Mapping[str, np.ndarray],
                    sizes: Sequence[int], seeds: Sequence[int], regressor: str = "reg") -> pd.DataFrame:
    """Test rho against the number of training pairs, one curve per feature set of ``features``
    in its order (:func:`compsem.sts.regressors.learning_curve`, subsamples of ``split["train"]``
    drawn with ``seeds``): its columns ``n_train``, ``seed``, ``rho_test`` and ``features``. Not in
    the paper, which trains on every non-adversarial pair (§4.7)."""
    curves = []
    for name, x in features.items():
        curve = rg.learning_curve(x, human, split, sizes, regressor=regressor, seeds=seeds)
        curves.append(curve.assign(features=name))
    return pd.concat(curves, ignore_index=True)


def manipulation_values(grid: pd.DataFrame, split: Mapping[str, np.ndarray], human, untrained,
                        role_features: np.ndarray | None = None) -> dict[str, float]:
    """The glued values of the split by kind of manipulation (not in the paper; the kinds of
    Table 7): per feature set and regressor of ``grid`` (:func:`compsem.sts.regressors.evaluate_grid`
    on ``split``), test and training rho, ``across_<features>_<regressor>`` and ``..._train``;
    per part (``train``, ``test``) of ``split``, Spearman rho of the ``untrained`` similarities
    (VerbNet-CN with Table 9's fixed weights, :func:`compsem.sts.similarity.spearman`),
    ``across_verbnet_untrained_<part>``, and, given VerbNet-CN's ``role_features``
    (:func:`compsem.sts.regressors.role_features`), the population SD (ddof 0) of the Verb role's
    similarity, ``across_verb_rolesim_sd_<part>``; and the best test rho of ``grid``,
    ``across_best_trained``."""
    values: dict[str, float] = {}
    cells = grid[["features", "regressor", "rho_test", "rho_train"]]
    for name, regressor, rho_test, rho_train in cells.itertuples(index=False, name=None):
        values[f"across_{slug(name)}_{regressor}"] = float(rho_test)
        values[f"across_{slug(name)}_{regressor}_train"] = float(rho_train)
    verb = sts3k.ROLES.index("Verb")
    for part in ("train", "test"):
        values[f"across_verbnet_untrained_{part}"] = similarity.spearman(untrained[split[part]], human[split[part]])
        if role_features is not None:
            values[f"across_verb_rolesim_sd_{part}"] = float(np.std(role_features[split[part], verb]))
    values["across_best_trained"] = float(grid["rho_test"].max())
    return values
