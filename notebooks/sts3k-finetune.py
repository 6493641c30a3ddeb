# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Fine-tuning against STS3k
#
# **The question.** Without training, the paper finds transformers poor on STS3k's adversarial
# pairs (see the sentence-model chapter). Is that a matter of data, which training on STS3k would
# fix, or of representation? Fodor, De Deyne &
# Suzuki {cite}`fodor2025sts3k` (§4.7, §5.3) train small regressors on top of fixed features and
# fine-tune SentBERT itself, on two splits:
#
# - a **random split**, where training and test pairs are of the same kinds. The paper says that
#   "with enough parameters, all models can predict human judgements with correlations of
#   0.7 – 0.8" (§5.3); we test that claim against
#   our own fits and against the authors' prediction files, scored on the rows their models did
#   not train on;
# - the **adversarial split**: train on the non-adversarial pairs, test on the adversarial ones.
#   Here, the paper reports, no transformer feature set generalises (ρ ≈ 0), while the eight
#   VerbNet-CN role similarities stay "around 0.6" and do "not degrade" from their untrained
#   level.
#
# The Findings check both statements on the feature sets available here.
#
# We reproduce Figure 6 (PCA-8 features, regressors of growing size), the no-PCA check
# (Figure 11, Table 10) and Figure 7 (SentBERT fine-tuned end to end, from the authors' files),
# fine-tune a sentence-transformer ourselves, and add learning curves and a split across kinds
# of manipulation.
#
# *Time to read: 15 minutes. Prerequisites: the sentence-model and hybrid chapters.*

# %% [markdown]
# ## Findings
#
# ```{glue:md} findings_headline
# :format: myst
# ```
#
# ```{glue} findings_table
# ```

# %% [markdown]
# ## Parameters

# %% tags=["parameters"]
feature_sets = ["verbnet", "mean:glove50", "minilm", "mpnet"]  # verbnet: the 8 role similarities
regressors = ["reg", "nn1", "nn2", "nn3", "nn4"]  # Table 8: reg-nn3; nn4, nn5: App. 8.3.1 (Table 10, Figure 11); nn5 in full
random_seeds = [0, 1, 2, 3, 4]  # seeds of the random splits (the paper's split is unpublished)
split_fractions = [0.70, 0.15, 0.15]  # train, dev and test shares of every random split (§4.7's 70/15/15)
no_pca_regressors = ["reg", "nn1", "nn3"]  # the no-PCA check (Figure 11)
learning_sizes = [50, 100, 250, 500, 1000]  # training pairs in the learning curves
learning_seeds = [0, 1, 2]
manipulation_train = ["SWAP_SUBJ_DOBJ"]  # extension: train on these kinds of swap ...
manipulation_test = ["SWAP_DOBJ_VERB", "SWAP_SUBJ_VERB", "TRIPLE", "QUAD"]  # ... test on these
finetune_models = ["minilm"]  # sentence-transformers fine-tuned end to end ("mpnet" in the full profile)
finetune_splits = ["adversarial", "random"]
finetune_epochs = 4
finetune_seeds = [0, 1, 2]  # seed s: training seed s, and random split s unless finetune_split_seed
finetune_split_seed = None  # a seed: that one random split for every training seed (the spread of training alone)
cv_folds = 0  # > 0: the paper's k-fold protocol for the random split (10 in the full profile)
mlp_seeds = [1, 2, 3, 4, 5]  # random_state of the MLPs refitted on the adversarial split; 1 is the authors' (Figure 6)
n_resamples = 2000  # bootstrap resamples: intervals over test pairs and MLP seeds, Figure 7's and our fine-tuning's paired differences
n_resamples_heldout = 10000  # bootstrap resamples of the held-out-row intervals of the authors' random-split files
stats_seed = 0  # seed of every bootstrap
device = "auto"  # auto (GPU if present), cpu, mps, cuda or cuda:<k>
n_jobs = 2  # worker processes for the regressor grids (1 thread each; same numbers for any count)

# %%
import matplotlib.pyplot as plt
import pandas as pd

from compsem import parameters, report
from compsem.data import shared_sentences, sts3k
from compsem.sts import chapter as C
from compsem.sts import figures, finetune, pair_types
from compsem.sts import finetune_results as fr
from compsem.sts import regressors as rg
from compsem.sts import seed_grids as sg
from compsem.sts.families import VERBNET_SPLIT_REGRESSORS

parameters.check_models({"finetune_models": finetune_models}, "sts-finetune")  # before any fine-tuning
report.set_theme()
results = {}
targets = report.load_targets("sts3k")
pairs = sts3k.load_pairs()
human = pairs["human"].to_numpy()
clusters = shared_sentences.sentence_clusters(pairs)  # pairs that share a sentence: every bootstrap's resampling unit
report.glue_all(shared_sentences.cluster_counts(pairs, "sts3k"))
report.glue("ft_n_pairs", len(pairs))

# %% [markdown]
# ## Data
#
# **Features.** For a sentence model the features of a pair are its two sentence embeddings
# concatenated, $[e_a, e_b]$, reduced by PCA to 8 components fitted on all
# {glue:text}`ft_n_pairs:,.0f` pairs (eight, to match the eight role parameters of VerbNet-CN). For VerbNet-CN the features are the 8 role similarities of the
# authors' published parses (a missing role counts 0). The paper's Mean-CN, OpenAI, DefSent and
# ERNIE embeddings are not published (only their similarities are), so the sentence-model features
# here are Mean over GloVe, MiniLM and MPNet (the paper's SentBERT).
#
# **Splits.** The adversarial split is exact (the authors' index files); the paper's random
# split comes from an unpublished label file, so seeded draws of §4.7's shares stand in for it,
# here {glue:text}`ft_split_train_pct:.0f`/{glue:text}`ft_split_dev_pct:.0f`/{glue:text}`ft_split_test_pct:.0f` (train/dev/test, `split_fractions`).

# %%
rolesims = sts3k.load_rolewise_similarities()["conceptnet"]
raw = {name: C.pair_embeddings(name, pairs, device=device) for name in feature_sets if name != "verbnet"}
pca8 = {name: rg.pair_features(a, b, n_components=8) for name, (a, b) in raw.items()}
if "verbnet" in feature_sets:
    pca8 = {"verbnet": rg.role_features(rolesims)} | pca8
adversarial = rg.adversarial_split(pairs)
splits = {"adversarial": adversarial} | {f"random (seed {s})": rg.random_split(len(pairs), s, split_fractions)
                                         for s in random_seeds}
report.glue_all({"ft_split_train_pct": 100 * split_fractions[0], "ft_split_dev_pct": 100 * split_fractions[1],
                 "ft_split_test_pct": 100 * split_fractions[2]})
overlap = sg.split_overlap(split_fractions)  # n_test / n_train: the corrected resampled t of the random splits
split_table, split_values = sg.split_sizes(splits)  # pairs per split and part; the adversarial split's glued
report.glue_all(split_values)
split_table

# %% [markdown]
# ## Method
#
# The regressors of Table 8 (§4.7: "between zero and three hidden layers"): linear regression
# (`reg`) and multi-layer perceptrons `nn1`–`nn3` (`MLPRegressor`, `random_state=1`,
# `max_iter=500`); as in the authors' code, `reg` is scikit-learn's `LinearRegression` (§4.7
# names only `MLPRegressor`, whose zero-hidden-layer case it would be). The authors' code also
# has `nn4` and `nn5`, with four and five hidden layers: they are not in Table 8 or Figure 6 but
# are the larger networks of Appendix 8.3.1 (Table 10's parameter counts, Figure 11), so we run
# them too (`nn5` in the full profile). Each
# regressor is fitted on the training pairs and scored
# by Spearman's ρ between its predictions and the human ratings of the test pairs. Parameter
# counts are weights only, as the paper counts them. On the random split every number is a mean
# over the seeded splits, with a 95% t-interval over seeds; the adversarial split is fixed, so the
# authors' fit (`random_state=1`) gives one value per regressor, and the MLPs are refitted with
# more seeds ({glue:text}`ft_advseeds_n_seeds` in all) to give each cell a mean and an interval
# over initialisations and test pairs. Full fine-tuning
# trains the sentence-transformer itself (below).
#
# **Pairs that share a sentence.** {glue:text}`sts3k_n_pairs_sharing:,.0f` of the 2,800 STS3k pairs share a
# sentence with another pair, directly or through others, so they are not independent draws. Every
# bootstrap over test pairs here resamples the clusters of pairs linked by shared sentences
# ({glue:text}`sts3k_n_clusters:,.0f` over all pairs), each with all its test pairs
# (`compsem.data.shared_sentences.sentence_clusters`; a cluster bootstrap, as in the models chapter). The
# splits themselves are drawn by pair, as the paper's are, so a test pair may share a sentence
# with a training pair.
#
# ## Results
#
# ### Figure 6: PCA-8 features, regressors of growing size
#
# Spearman rho on the test pairs by split and feature set (random split: mean over the seeded
# splits), regressors in the columns. Beneath VerbNet-CN and MPNet (the paper's SentBERT checkpoint),
# the rows *paper (VerbNet-CN)* and *paper (SentBERT)* hold the values Figure 6 plots, from the
# authors' prediction files: on the adversarial pairs, and for the random split on all pairs, the
# rows their models trained on included (see below); Table 8 has no nn4 (Appendix 8.3.1 does) and the paper no Mean-GloVe or MiniLM.

# %%
grid = sg.figure6_grid(pca8, human, splits, regressors, n_jobs)  # the adversarial split, then each random one
summary = sg.figure6_summary(grid)
results |= sg.figure6_paper_cells(summary, targets)  # cells with a paper value (VerbNet-CN; MPNet = SentBERT)

# verbnet-random-split-flat fails if some regressor lies outside: a union of len(regressors) equivalence tests
report.glue_all(sg.figure6_cell_values(summary, targets, {"verbnet": list(regressors)}, overlap=overlap))
# VerbNet-CN minus SentBERT (MPNet) features on the same random split, per regressor, over the splits;
# and how much that gap narrows from the smallest regressor to nn3, Figure 6's largest; the intervals
# over the random splits are corrected for their overlapping training sets (Nadeau & Bengio 2003)
report.glue_all(sg.random_gap_values(grid, regressors, overlap=overlap))
results |= sg.table8_weights()  # Table 8: weights of each regressor on the 8 VerbNet-CN features
sg.figure6_table(summary, regressors, targets).round(3)  # paper rows: the values Figure 6 plots

# %% mystnb={"figure": {"caption": "Figure 6 of the paper, recomputed with the feature sets available here: Spearman rho on the test pairs against the number of weights of the regressor, on the random split (left; mean and SD over the seeded splits) and the adversarial split (right). Black markers: the values the paper's figure plots, from the authors' prediction files (crosses: VerbNet-CN; pluses: SentBERT, i.e. MPNet), scored as the figure scores them: on the adversarial pairs, and for the random split on all pairs, the rows their models trained on included (see below). Look at how high the sentence-model features climb on the random split, and where they sit on the adversarial one.", "name": "fig-sts3k-finetune-figure6"}}
figures.regressor_curves(grid, targets)
plt.show()

# %% [markdown]
# #### The adversarial split over MLP seeds
#
# The adversarial split is fixed, but an MLP's fit depends on its random initialisation
# (`random_state`, 1 in the authors' code). A claim about what these features can learn is a
# claim about every initialisation, so each MLP is also fitted with the other seeds of `mlp_seeds`;
# linear regression has no seed. Per cell the table gives the mean over the seeds, their
# standard deviation and count. The t-intervals over these seeds hold the test pairs fixed; the
# Findings show some of them beside their verdicts but decide on the interval below, which also
# resamples the test pairs. A fit whose predictions are all equal (a collapsed network)
# has no rank correlation and is left out of its cell's mean and interval; the table counts them
# (`collapsed`). The column `paper` holds the paper's value of the cell (Figure 6: one fit,
# `random_state=1`; VerbNet-CN and SentBERT, i.e. MPNet, reg to nn3).

# %%
adversarial_seeds = sg.adversarial_over_seeds(pca8, human, adversarial, regressors, mlp_seeds, n_jobs)
seed_table, seed_values = sg.over_seeds(adversarial_seeds, "ft_advseeds")
report.glue_all(seed_values)
report.glue("ft_advseeds_n_seeds", len(mlp_seeds))
sg.with_paper_column(seed_table, targets, sg.FIGURE6_KEY).round(3)

# %% [markdown]
# These intervals hold the test pairs fixed, so linear regression, which has no seed, gets none.
# The claims on VerbNet-CN's values and on MPNet's transfer are decided on an interval that also
# samples the test pairs: a bootstrap that
# resamples the adversarial pairs and, independently, each cell's seeds, and averages rho over
# the drawn seeds on the drawn pairs (percentile intervals, 95% and 90%; collapsed fits left out;
# `paper`: Figure 6's value, as above). A claim that fails if *some* cell of a feature set lies
# outside its margin is a union of k equivalence tests, so for MPNet (every regressor run) and
# VerbNet-CN (the paper's four, reg to nn3) the same resamples also give each cell's interval at
# Bonferroni's level 1 − .10/k (`compsem.sts.families`; columns `bonf<k>_ci_low`, `bonf<k>_ci_high`):

# %%
boot_table, boot_values = sg.pairs_and_seeds_intervals(
    pca8, human, adversarial, regressors, mlp_seeds, "ft_advboot", n_resamples=n_resamples, seed=stats_seed,
    n_jobs=n_jobs, clusters=clusters,
    equivalence_families={"mpnet": regressors,  # no-transfer-to-adversarial: some regressor outside
                          "verbnet": VERBNET_SPLIT_REGRESSORS})  # some of reg to nn3 outside (nn4 in no union)
report.glue_all(boot_values)
sg.with_paper_column(boot_table, targets, sg.FIGURE6_KEY).round(3)

# %% [markdown]
# #### The authors' own predictions
#
# The authors published the predictions of every regressor for all pairs. Scored on the
# adversarial split, they give the values Figure 6 plots (the paper's VerbNet-CN and SentBERT
# numbers in the targets file come from them; ours are compared with them below):

# %%
published = rg.published_grid(pairs)
published["feature set"] = published["features"].map(lambda f: rg.PUBLISHED_LABELS.get(f, (f, f))[0])
published[(published["split"] == "adversarial") & (published["n_components"] == 8)].pivot_table(
    index="feature set", columns="regressor", values="rho_adv").round(3)

# %% [markdown]
# **Did training lower VerbNet-CN's correlation?** The paper says it "did not degrade" (§5.3).
# Each of the authors' adversarial-split files against their untrained VerbNet-CN file, on the
# same adversarial pairs: the difference with its paired bootstrap interval (90%, a one-sided test
# at 5% against the margin of "around 0.6", {glue:text}`ft_degrade_margin:.2f`; the claim reads
# the union of the four regressors at Bonferroni's level). The paper's columns are Figure 6's
# values (the same files) and Table 9's untrained value.

# %%
degradation, degradation_values = C.published_degradation(
    pairs, regressors=VERBNET_SPLIT_REGRESSORS, n_resamples=n_resamples_heldout, seed=stats_seed)
report.glue_all(degradation_values)
degradation.assign(**{"paper trained": [targets[f"ft_adv_verbnet_{r}"]["paper"] for r in degradation.index],
                      "paper untrained": targets["table9_verbnet_cn_sts3k_adv"]["paper"]}).round(3)

# %% [markdown]
# #### The random split: where does "0.7 – 0.8" come from?
#
# The random split's `Set` column is unpublished, but the authors' files give its training rows
# away. Two of their no-PCA linear regressions have more inputs than the split has training rows
# (OpenAI: {glue:text}`pub_inputs_openai:,.0f`, DefSent: {glue:text}`pub_inputs_defsent:,.0f`), so
# least squares fits every training row exactly:
# {glue:text}`pub_random_n_train` rows have a prediction equal to their rating (to 10⁻⁴), and the
# other {glue:text}`pub_random_n_heldout` are the rows no model trained on (the paper's DEV and
# TEST rows together). The split is confirmed by the authors' SentBERT fine-tuned on the same
# random split: it scores {glue:text}`pub_traintest_train_adv:.3f` on the adversarial pairs among
# these training rows and {glue:text}`pub_traintest_heldout_adv:.3f` on the held-out ones.
# Scored on each set of rows, the authors' PCA-8 predictions give:

# %%
train_rows = rg.published_training_rows(pairs)
published_ft = finetune.published_finetuned(pairs, train_rows)  # the authors' fine-tuned SentBERT (Figure 7)
# the inputs of the two interpolating linear regressions, the split's sizes, the files scored on each set of rows
# (with the Bonferroni intervals of "all models reach .7-.8", which fails if some of five models lies below)
# and the SentBERT fine-tuned on the same split, on its training rows and on the held-out ones
random_files, random_values = C.published_random_split(pairs, published, train_rows, published_ft,
                                                       n_resamples=n_resamples_heldout, seed=stats_seed)
report.glue_all(random_values)
C.published_random_table(random_files).round(3)

# %% [markdown]
# On the held-out rows the authors' own features reach at most
# {glue:text}`pub_random_heldout_sentbert_nn3:.3f` (SentBERT), {glue:text}`pub_random_heldout_openai_nn3:.3f`
# (OpenAI), {glue:text}`pub_random_heldout_defsent_nn3:.3f` (DefSent), {glue:text}`pub_random_heldout_ernie_nn3:.3f`
# (ERNIE) and {glue:text}`pub_random_heldout_mean_cn_nn3:.3f` (Mean-CN) with nn3, the largest PCA-8 regressor they
# published, the regressor our own fits are decided on. Held out, OpenAI's value lies inside the paper's range read at its
# printed precision and the other four lie under its lower edge; tested as one family of five (the paper's "all
# models", intervals at level {glue:text}`pub_random_family_level:.0%`) their intervals reach up to
# {glue:text}`pub_random_heldout_defsent_nn3_ci_family_high:.3f` (DefSent) and
# {glue:text}`pub_random_heldout_mean_cn_nn3_ci_family_high:.3f` (Mean-CN), and OpenAI's down to
# {glue:text}`pub_random_heldout_openai_nn3_ci_family_low:.3f`; the Findings decide on them. Scored on all
# pairs, training rows included, every nn3 file lies in the range: SentBERT's gives {glue:text}`pub_random_all_sentbert_nn3:.3f` and ERNIE's
# {glue:text}`pub_random_all_ernie_nn3:.3f`, because on its own training rows nn3 fits SentBERT's features to
# {glue:text}`pub_random_train_sentbert_nn3:.3f`. VerbNet-CN's eight role similarities barely overfit, so all
# three scorings lie close together for it (nn3: {glue:text}`pub_random_heldout_verbnet_nn3:.3f` held out,
# {glue:text}`pub_random_all_verbnet_nn3:.3f` on all pairs). Without PCA (App. 8.3.1, 2*d* inputs) the largest
# regressors reach {glue:text}`pub_random_nopca_heldout_sentbert_nn4:.3f` (SentBERT, nn4) on the held-out rows:
# the lower edge of the paper's range, with over a million weights.

# %% mystnb={"figure": {"caption": "The random split in the authors' own prediction files (PCA-8 features): Spearman rho on the held-out rows (solid) and on all pairs, most of them training rows (dashed), against the number of weights; grey band: the paper's '.7-.8 with enough parameters'; black: our MPNet (the paper's SentBERT checkpoint), mean and 95% interval over the seeded random splits. Look at which scoring reaches the band.", "name": "fig-sts3k-finetune-random-split"}}
figures.random_split_files(random_files, grid)
plt.show()

# %% [markdown]
# ### Figure 11: without PCA
#
# The same on the adversarial split with all components kept ($2d$ features). The paper reports
# the same failure to transfer with the larger inputs (App. 8.3.1); the Findings check it on our
# features. Beneath MPNet, the row *paper (SentBERT)* gives the paper's values: the authors' SentBERT
# files (Figure 11), of which one, linear regression, scores
# {glue:text}`paper_ft_nopca_adv_mpnet_reg:.3f`, above 0.2, the bound the chapter borrows from
# §5.2's "very low correlations of less than 0.2" of untrained transformers (App. 8.3.1 itself
# says only that they are "unable to learn the task"; Deviations).

# %%
no_pca = {name: rg.pair_features(a, b, n_components=None) for name, (a, b) in raw.items()}
no_pca_grid = rg.evaluate_grid(no_pca, human, adversarial, no_pca_regressors, split_name="adversarial", progress=False, n_jobs=n_jobs)
no_pca_compared, no_pca_glued = sg.no_pca_values(no_pca_grid, targets)
results |= no_pca_compared  # MPNet = the paper's SentBERT: compared in "Results beside the paper"
report.glue_all(no_pca_glued)
sg.no_pca_table(no_pca_grid, no_pca_regressors, targets).round(3)

# %% [markdown]
# Over the MLP seeds, as for the PCA-8 features (mean and t-intervals; `paper`: the authors'
# SentBERT file of the cell, beside MPNet):

# %%
if no_pca_regressors:
    no_pca_seeds = sg.adversarial_over_seeds(no_pca, human, adversarial, no_pca_regressors, mlp_seeds, n_jobs)
    no_pca_table, no_pca_values = sg.over_seeds(no_pca_seeds, "ft_nopca_advseeds",
                                                equivalence_families={"mpnet": no_pca_regressors})
    report.glue_all(no_pca_values)
report.glue("paper_ft_nopca_adv_mpnet_reg", sg.paper_value(targets, "ft_nopca_adv_mpnet_reg"))
sg.with_paper_column(no_pca_table, targets, sg.NO_PCA_KEY).round(3) if no_pca_regressors else None

# %% [markdown]
# The claim on MPNet is decided, as for the PCA-8 features, on the bootstrap that resamples the
# adversarial pairs and each cell's seeds (95% and 90% percentile intervals, and each cell's
# interval at Bonferroni's level 1 − .10/k, k the regressors run, for the claim's union):

# %%
no_pca_boot = None  # the claim's cells: MPNet (the paper's SentBERT), where this run has it
if no_pca_regressors and "mpnet" in no_pca:
    no_pca_boot, no_pca_boot_values = sg.pairs_and_seeds_intervals(
        {"mpnet": no_pca["mpnet"]}, human, adversarial, no_pca_regressors, mlp_seeds, "ft_nopca_advboot",
        n_resamples=n_resamples, seed=stats_seed, n_jobs=n_jobs, equivalence_families={"mpnet": no_pca_regressors},
        clusters=clusters)
    report.glue_all(no_pca_boot_values)
sg.with_paper_column(no_pca_boot, targets, sg.NO_PCA_KEY).round(3) if no_pca_boot is not None else None

# %% mystnb={"figure": {"caption": "Figure 11 of the paper, recomputed: Spearman rho on the adversarial pairs after training on the non-adversarial pairs with all PCA components kept, by regressor; black pluses: the authors' SentBERT (MPNet) files. Look at whether any feature set moves away from zero.", "name": "fig-sts3k-finetune-figure11"}}
figures.no_pca_rhos(no_pca_grid, targets)
plt.show()

# %% [markdown]
# Table 10 gives the parameter counts of these models (weights only, in thousands, millions ...:
# the cell times the column's power of ten). Ours for MPNet (the paper's SentBERT, both sentence
# embeddings as inputs: Table 10 decodes as reg, nn1, nn3 and nn4) and for VerbNet-CN (its role
# similarities as inputs: nn2 to nn5),
# beside the paper's:

# %%
table10, table10_glued, table10_table = sg.table10_weights(no_pca, targets)
results |= table10  # MPNet's counts, then nn2's second hidden layer (Table 8 prints another)
report.glue_all(table10_glued)  # the paper's printed counts of the errata, and Mean-CN's width and count
table10_table

# %% [markdown]
# ### Full fine-tuning (Figure 7)
#
# The authors also fine-tuned SentBERT (MPNet) itself and published its similarities for all
# pairs: untrained, fine-tuned with 10-fold cross-validation over all pairs (out-of-fold
# predictions: the figure's "random split"), and fine-tuned on the non-adversarial pairs. Scored on
# the adversarial pairs as Figure 7 is, the files give its bars; VerbNet-CN's bars come from the
# Table 9 similarities and from the regressor files above (random split: no-PCA nn5; adversarial
# split: PCA-8 nn3):

# %%
results |= fr.figure7_bars(published_ft, published, pairs, human)
# random split (10-fold) minus adversarial split, same pairs
report.glue_all(fr.figure7_transfer_gap(published_ft, pairs, human, n_resamples=n_resamples, seed=stats_seed))
report.glue("pub_fig7_verbnet_random_heldout_adv", fr.figure7_verbnet_heldout(published))
figure7 = fr.figure7_table(results, targets)  # the bars scored here beside the paper's
figure7.round(3)

# %% mystnb={"figure": {"caption": "Figure 7 of the paper, recomputed from the authors' published similarity files: Spearman rho on the adversarial pairs of SentBERT (MPNet) and VerbNet-CN without training, trained on a random split (SentBERT: 10-fold out-of-fold predictions) and trained on the non-adversarial pairs; black markers: the paper's bars. Look at the adversarial-split bars against the random-split bars.", "name": "fig-sts3k-finetune-figure7"}}
figures.finetune_bars(figure7[fr.FIGURE7_OURS], figure7[fr.FIGURE7_PAPER])
plt.show()

# %% [markdown]
# The Findings hold these bars to the paper's at its three printed decimals. The text's value for
# the untrained SentBERT is not the figure's bar ({glue:text}`fig7_sentbert_no_training:.3f`, also
# Table 9's value). The authors' SentBERT fine-tuned on STSb's training set gives
# {glue:text}`fig7_sentbert_stsb_trained:.3f`, near the text's number; the text may quote that file,
# but the paper does not say so, and a file picked because it matches is no reproduction, so it is
# shown beside the text's number, not compared with it. VerbNet-CN's text value after training on
# the non-adversarial pairs is not the figure's bar either ({glue:text}`fig7_verbnet_adversarial:.3f`,
# the authors' nn3); their linear regression on the same split (Figure 6) gives
# {glue:text}`ft_adv_verbnet_reg:.3f`, near the text's number: the text may quote that regressor,
# but the paper does not say so, and for the same reason as SentBERT's the text is compared
# with the figure's regressor.
# VerbNet-CN's "random split" bar is the no-PCA nn5 file scored on all adversarial pairs, most of
# which it trained on; on the held-out adversarial pairs it gives
# {glue:text}`pub_fig7_verbnet_random_heldout_adv:.3f`.
#
# #### Our own fine-tuning
#
# We fine-tune a sentence-transformer ourselves (sentence-transformers' recipe: cosine-similarity
# loss, batch 16, {glue:text}`finetune_epochs_used` epochs, 10% warm-up; MiniLM in the default
# profile, MPNet, the paper's SentBERT checkpoint, in the full profile on a GPU) and score it the
# paper's way, on adversarial pairs: trained on the non-adversarial pairs and tested on all
# adversarial ones, and trained on a random split (a seeded {glue:text}`ft_split_train_pct:.0f`/{glue:text}`ft_split_dev_pct:.0f`/{glue:text}`ft_split_test_pct:.0f` split; the paper's
# 10-fold out-of-fold protocol where `cv_folds` is 10) and tested on the adversarial pairs among its
# test rows. The embeddings are centred per sentence set over all {glue:text}`ft_n_pairs:,.0f`
# pairs, as the authors' `_norml` files are, whichever rows a run is scored on, so that the two
# runs compared below are centred alike; the centring reads sentences, never ratings, and lets
# nothing of the test ratings into training (like the PCA above).
# Each of the {glue:text}`finetune_minilm_transfer_gap_n_seeds` seeds fine-tunes with its own
# training seed and, for the random split, {glue:md}`ft_finetune_split_words`.
# Spearman rho on the adversarial pairs, by seed; the last row gives the paper's fine-tuned
# SentBERT bars of Figure 7 under MPNet, the same model (blank under MiniLM, which the paper did
# not fine-tune): trained on the non-adversarial pairs, and for the random split the paper's
# 10-fold out-of-fold bar (not a seeded split):

# %%
report.glue("finetune_epochs_used", finetune_epochs)
report.glue_words({"ft_finetune_split_words": C.finetune_split_words(finetune_split_seed)})
finetuned, finetune_predictions = C.finetune_runs(finetune_models, finetune_splits, finetune_seeds, pairs,
                                                  epochs=finetune_epochs, cv_folds=cv_folds, device=device,
                                                  split_fractions=split_fractions, split_seed=finetune_split_seed)
transfer = C.transfer_gaps(finetune_predictions, n_resamples=n_resamples, seed=stats_seed,
                           clusters=pd.Series(clusters, index=pairs.index))
report.glue_all(C.finetune_values(finetuned, transfer))
results |= C.finetune_paper_values(finetuned)
C.finetune_seed_table(finetuned, targets).round(3) if len(finetuned) else "no fine-tuning in this profile"

# %% [markdown]
# Trained on the non-adversarial pairs, MiniLM ranks the adversarial pairs at
# {glue:text}`finetune_minilm_adversarial_adv:.3f` (mean over seeds; 95% interval
# {glue:text}`finetune_minilm_adversarial_adv_ci_low:.3f` to
# {glue:text}`finetune_minilm_adversarial_adv_ci_high:.3f`); trained on a random split that
# includes adversarial pairs, at {glue:text}`finetune_minilm_random_adv:.3f`. On the same pairs (the
# adversarial ones among each random split's test rows) the difference is, per seed, with its 95%
# paired bootstrap interval over those pairs (*paper*: the gap of the authors' fine-tuned SentBERT,
# Figure 7's ten-fold bar minus its adversarial-split bar; another model and protocol, for scale):

# %%
# beside it, Figure 7's gap of the authors' fine-tuned SentBERT (ten-fold bar minus adversarial-split bar)
transfer.assign(paper=C.paper_transfer_gap(targets)).round(3) if len(transfer) else "no random-split and adversarial-split pair of runs in this profile"

# %% [markdown]
# ### Results beside the paper

# %% tags=["full-width"]
report.glue_all(results)
report.show_comparison(report.compare(results, "sts3k", keys=[k for k in results if k in targets]),
                       "numbers of Figure 6 and Tables 8 and 10")

# %% [markdown]
# ## Deviations and errata
#
# - **"It also did not degrade"** (§5.3, on Figure 6) is contradicted by the authors' own files:
#   trained on the non-adversarial pairs, VerbNet-CN's correlation on the adversarial pairs moves
#   from its untrained {glue:text}`ft_degrade_verbnet_untrained:.3f` by
#   {glue:text}`ft_degrade_verbnet_reg:+.3f` with linear regression (90% interval
#   {glue:text}`ft_degrade_verbnet_reg_ci90_low:+.3f` to {glue:text}`ft_degrade_verbnet_reg_ci90_high:+.3f`)
#   and {glue:text}`ft_degrade_verbnet_nn1:+.3f` with one hidden layer, beyond the margin of the
#   sentence's own "around 0.6" (The authors' own predictions, above). The paper's description of
#   Figure 7 says as much, that VerbNet-CN "slightly decreased to 0.57": the two sentences of §5.3
#   disagree, and the files side with the second.
# - **Table 8** prints {glue:text}`paper_n_weights_verbnet_nn1` weights for one hidden layer,
#   which has {glue:text}`n_weights_verbnet_nn1` once the weights from the hidden units to the
#   output are counted, and for the two-layer model a second hidden layer of
#   {glue:text}`paper_nn2_hidden_units_2` units, where its printed total of
#   {glue:text}`paper_n_weights_verbnet_nn2:,.0f` weights needs {glue:text}`nn2_hidden_units_2`
#   (as the authors' code has it). The paper says "default parameters", but the code set
#   `max_iter=500` and `random_state=1`.
# - **Table 10's** Mean-CN row is not the weight count of two
#   {glue:text}`mean_cn_dims`-dimensional ConceptNet vectors ({glue:text}`n_weights_nopca_mean_cn_reg`
#   for linear regression): every cell falls short of it, as if each sentence vector had one
#   dimension fewer; we could not find why. In the four transformer rows, the nn3 column prints
#   one unit of the last digit above the weight count (SentBERT:
#   {glue:text}`paper_n_weights_nopca_mpnet_nn3:,.0f` printed, {glue:text}`n_weights_nopca_mpnet_nn3:,.0f`
#   weights here), a rounding slip.
# - **The random split** of the paper comes from an unpublished label file; a seeded
#   {glue:text}`ft_split_train_pct:.0f`/{glue:text}`ft_split_dev_pct:.0f`/{glue:text}`ft_split_test_pct:.0f` draw stands in, and the seeds show its spread. Its training rows can nevertheless be read off
#   the authors' files ({glue:text}`pub_random_n_train` rows, see Figure 6). The adversarial split
#   is exact (the index files: {glue:text}`adv_n_train:,.0f` training and
#   {glue:text}`adv_n_test:,.0f` test pairs); the authors' notebooks, which build the two sets from
#   labels, move a pair from one to the other because they count the identical check pairs in.
# - **The VerbNet no-PCA file** of the authors gives another value with linear regression than
#   the PCA-8 file (Figure 11's table against Figure 6's), although linear regression is
#   invariant to a rotation of the same eight features: that run must have used other features;
#   we could not find which.
# - **The SentBERT no-PCA file with linear regression** scores
#   {glue:text}`paper_ft_nopca_adv_mpnet_reg:.3f` on the adversarial pairs, the one value of the
#   authors' Figure 11 files above 0.2 (the chapter's bound, borrowed from §5.2's "less than 0.2";
#   App. 8.3.1 says only "unable to learn the task"); with 1,536 inputs and fewer training
#   rows, least squares interpolates the training rows, and ours scores
#   {glue:text}`ft_nopca_adv_mpnet_reg:.3f`. We could not find what produced it.
# - **Random split, sentence-model features.** The paper (§5.3, §6.2) says that with
#   enough parameters all feature sets reach "correlations of 0.7 – 0.8" on the random split.
#   The Findings decide this on
#   nn3, the largest regressor of §5.3, declared beforehand: MPNet (the paper's SentBERT checkpoint)
#   reaches {glue:text}`ft_random_mpnet_nn3_mean:.3f` with it. The best of our regressors,
#   chosen after seeing them, reach {glue:text}`ft_random_best_minilm_mean:.3f` with MiniLM,
#   {glue:text}`ft_random_best_mpnet_mean:.3f` with MPNet and {glue:text}`ft_random_best_mean_glove50_mean:.3f`
#   with Mean-GloVe (means over the random splits; the Findings give their intervals). The
#   authors' own SentBERT nn3 file, scored on the rows their models did not train on, gives
#   {glue:text}`pub_random_heldout_sentbert_nn3:.3f`, close to our MPNet's value (no test compares
#   the two); the Findings check the four transformers' files and Mean-CN's as one family of five
#   models. The files reach the paper's "0.7 – 0.8" on all pairs, training rows included
#   (SentBERT nn3 {glue:text}`pub_random_all_sentbert_nn3:.3f`): Figure 6's random-split transformer
#   curves score the regressors partly on their training data. VerbNet-CN's values do not depend on
#   this, as its 8 features barely overfit.
# - **Figure 7** is recomputed from the authors' similarity files (bars hard-coded to three
#   decimals in their plotting code). The text's value for the untrained SentBERT is not what the
#   untrained bar and Table 9 give ({glue:text}`fig7_sentbert_no_training:.3f`); the file of
#   SentBERT fine-tuned on STSb comes near it ({glue:text}`fig7_sentbert_stsb_trained:.3f`), but
#   nothing says the text quotes that file, so it is shown, not counted. The text's range for the
#   models fine-tuned on a random split, "around 0.8-0.85", does not hold SentBERT's own bar
#   ({glue:text}`fig7_sentbert_random_10fold:.3f`) at its printed precision, a slip of precision
#   that leaves the argument intact. The text's value for
#   VerbNet-CN trained on the non-adversarial pairs matches, at its printed precision, the authors'
#   linear regression on that split ({glue:text}`ft_adv_verbnet_reg:.3f`), while the bar is their nn3
#   ({glue:text}`fig7_verbnet_adversarial:.3f`). VerbNet-CN's untrained bar (the value
#   hard-coded in the plotting code) matches no published VerbNet-CN file; Table 9's similarities give
#   {glue:text}`fig7_verbnet_no_training:.3f`. Its random-split bar scores a model on adversarial
#   pairs it mostly trained on (held-out: {glue:text}`pub_fig7_verbnet_random_heldout_adv:.3f`).
# - **Our SentBERT fine-tuning** (MPNet, 10-fold) is in the full profile for a GPU machine; on a
#   CPU the default profile fine-tunes MiniLM on the adversarial split and on a seeded random
#   split, once per seed ({glue:text}`finetune_minilm_transfer_gap_n_seeds` seeds).
# - **Copies among the authors' files.** {glue:text}`pub_copied_files` of the authors' regressor
#   prediction files repeat, value for value, the predictions of a file published under another
#   configuration (the table below): they are not runs of their own, and no number of this chapter
#   rests on them. Figure 7's VerbNet-CN random-split bar comes from a file of its own.

# %%
copies = rg.published_copies()
report.glue("pub_copied_files", len(copies))
copies

# %% [markdown]
# ## Extensions
#
# ### Random splits by sentence
#
# A random split by pair, the paper's and ours, puts pairs that share a sentence on both sides: in
# our seeded splits {glue:text}`ft_pair_split_test_sharing:.0%` of the test pairs hold a sentence
# that a training pair also holds, so a regressor may score them partly by recognising the
# sentence. The same regressors on random splits that keep the pairs of a sentence together
# (`compsem.sts.regressors.grouped_random_split`: whole clusters of pairs that share a sentence to
# one part; {glue:text}`ft_grouped_split_test_min` to {glue:text}`ft_grouped_split_test_max` test
# pairs), for VerbNet-CN's role features and SentBERT's PCA-8 features, split by split against the
# random splits above (same seeds), 90% corrected t-intervals over the
# {glue:text}`ft_grouped_n_seeds` matched splits (`compsem.sts.seed_grids.grouped_split_values`).
# The test parts hold much the same pairs otherwise: {glue:text}`ft_grouped_split_test_adv_share:.0%`
# adversarial by sentence against {glue:text}`ft_pair_split_test_adv_share:.0%` by pair, mean rating
# {glue:text}`ft_grouped_split_test_human_mean:.3f` against {glue:text}`ft_pair_split_test_human_mean:.3f`.

# %%
grouped_splits = {f"by sentence (seed {s})": rg.grouped_random_split(clusters, s, split_fractions)
                  for s in random_seeds}
pair_splits = {name: split for name, split in splits.items() if name != "adversarial"}  # Figure 6's random ones
report.glue("ft_pair_split_test_sharing", shared_sentences.test_pairs_sharing(pairs, pair_splits))
report.glue_all(sg.test_composition(pairs, pair_splits, "ft_pair_split") | sg.test_composition(pairs, grouped_splits, "ft_grouped_split"))
claim_features = {name: pca8[name] for name in ("verbnet", "mpnet") if name in pca8}  # the claim's two feature sets
grouped_grid = sg.figure6_grid(claim_features, human, grouped_splits, regressors, n_jobs)
grouped_table, grouped_values = sg.grouped_split_values(
    grid, grouped_grid, [r for r in regressors if r in VERBNET_SPLIT_REGRESSORS],  # Figure 6's: reg to nn3
    overlap=overlap)
report.glue_all(grouped_values)
grouped_table.round(3)

# %% mystnb={"figure": {"caption": "Figure 6's random split (left half of the paper's figure) redrawn two ways: test rho per regressor on random splits by pair, as in the paper, and on random splits that keep the pairs of a sentence together (mean and SD over the seeded splits). No paper values exist for the second (an extension). Look at whether SentBERT's rise with the number of parameters survives the split by sentence.", "name": "fig-sts3k-finetune-grouped-splits"}}
figures.grouped_splits(grid, grouped_grid)
plt.show()

# %% [markdown]
# Split by sentence, SentBERT's PCA-8 features reach {glue:text}`ft_grouped_mpnet_nn3_mean:.3f` with
# nn3, against {glue:text}`ft_random_mpnet_nn3_mean:.3f` split by pair (difference
# {glue:text}`ft_grouped_minus_pair_mpnet_nn3:.3f`, 90% interval
# {glue:text}`ft_grouped_minus_pair_mpnet_nn3_ci90_low:.3f` to
# {glue:text}`ft_grouped_minus_pair_mpnet_nn3_ci90_high:.3f`); VerbNet-CN's role features give
# {glue:text}`ft_grouped_verbnet_nn3_mean:.3f` against {glue:text}`ft_random_verbnet_nn3_mean:.3f`
# (difference {glue:text}`ft_grouped_minus_pair_verbnet_nn3:.3f`, 90% interval
# {glue:text}`ft_grouped_minus_pair_verbnet_nn3_ci90_low:.3f` to
# {glue:text}`ft_grouped_minus_pair_verbnet_nn3_ci90_high:.3f`). On our seeded splits, then, the level
# SentBERT's features reach with the larger networks on a random split by pair depends on test
# pairs whose sentences the regressor saw in training ({glue:text}`ft_pair_split_test_sharing:.0%` of
# them); the gap bounds what recognising a seen sentence is worth, since the two kinds of split
# also differ a little in which pairs they test. This is the paper's own conclusion (§5.3: "with
# enough parameters and training on a random training/testing split, all models can perform well
# on the testing set", but not on pairs unlike the training ones) seen from another side: a
# random split by pair is not a test on new sentences. One transformer is tested here, on our
# stand-ins for the paper's unpublished split. The Findings give the verdict.

# %% [markdown]
# ### Learning curves
#
# Adversarial-split correlation against the number of non-adversarial training pairs: do the
# sentence-model features start to transfer with more data?

# %% mystnb={"figure": {"caption": "Learning curves: rho on the adversarial pairs against the number of non-adversarial training pairs, linear regression on PCA-8 features (mean and SD over subsamples). Look at whether any sentence-model curve rises with more data.", "name": "fig-sts3k-finetune-learning-curves"}}
curves = fr.learning_curves(pca8, human, adversarial, learning_sizes, learning_seeds, regressor="reg")
figures.learning_curves(curves)
plt.show()

# %% [markdown]
# ### Across kinds of manipulation
#
# Train on one kind of swap and test on others (types from the data chapter's reconstruction):
# does any feature set learn "which words moved" in a way that carries over?

# %%
labels = pair_types.reconstruct_pair_types(pairs, sts3k.load_stopwords())
across = rg.manipulation_split(labels["category"], manipulation_train, manipulation_test)
across_grid = rg.evaluate_grid(pca8, human, across, ["reg", "nn2"], split_name="across", progress=False, n_jobs=n_jobs)
report.glue("across_n_train", len(across["train"]))
report.glue("across_n_test", len(across["test"]))
verbnet_untrained = sts3k.load_published_similarities(fr.VERBNET_UNTRAINED)  # Table 9's fixed weights
# with VerbNet-CN untrained on the same rows, and the spread of the Verb role's similarity in each part
report.glue_all(fr.manipulation_values(across_grid, across, human, verbnet_untrained, pca8.get("verbnet")))
across_grid.pivot_table(index="features", columns="regressor", values="rho_test").round(3)

# %% [markdown]
# Trained on {glue:text}`across_n_train` pairs of the training kinds and tested on
# {glue:text}`across_n_test` pairs of the others.

# %% [markdown]
# Each cell of the table is a single fit (one split, one initialisation) with no interval, so what
# follows describes these fits; no difference here is tested. Weights fitted to VerbNet-CN's role
# similarities on one kind of swap give
# {glue:text}`across_verbnet_reg:.3f` (linear regression) and {glue:text}`across_verbnet_nn2:.3f` (nn2) on
# the other swaps, below the {glue:text}`across_verbnet_untrained_test:.3f` of its fixed, untrained
# weights on the same pairs: in these fits, weights fitted to one kind of swap do worse on the others
# than the fixed ones, and no trained cell, whatever its features, reaches the untrained weights (the
# best gives {glue:text}`across_best_trained:.3f`). The training pairs seem unable to teach the weights
# that matter for the test pairs: when subject and object swap the verb stays put, so the Verb role's similarity hardly
# varies among them (SD {glue:text}`across_verb_rolesim_sd_train:.3f`, against
# {glue:text}`across_verb_rolesim_sd_test:.3f` among the swaps that move the verb), and even on its own
# training pairs the regression reaches only {glue:text}`across_verbnet_reg_train:.3f`. The adversarial
# split of Figure 6 plausibly works for VerbNet-CN because the non-adversarial pairs vary every role;
# these single fits suggest that what transfers is the role structure, not weights fitted to one
# kind of swap.

# %% [markdown]
# ## Reproduce
#
# ```bash
# make run CHAPTER=sts3k-finetune
# make run CHAPTER=sts3k-finetune PROFILE=full      # nn5, MPNet fine-tuning, 10-fold: use a GPU
# ```

# %% tags=["remove-input"]
report.glue_findings("sts3k-finetune")
