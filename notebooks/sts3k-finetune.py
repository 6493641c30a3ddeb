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
# - a **random split**, where training and test pairs are of the same kinds; the paper reports
#   that with enough parameters every feature set reaches ρ = .7–.8 on it;
# - the **adversarial split**: train on the non-adversarial pairs, test on the adversarial ones.
#   Here, the paper reports, no transformer feature set generalises (ρ ≈ 0), while the eight
#   VerbNet-CN role similarities stay near .55–.60.
#
# The Findings check both statements on the feature sets available here.
#
# We reproduce Figure 6 (PCA-8 features, regressors of growing size), the no-PCA check
# (Figure 11, Table 10), full fine-tuning of a sentence-transformer (Figure 7), and add learning
# curves and a split across kinds of manipulation.
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
regressors = ["reg", "nn1", "nn2", "nn3", "nn4"]  # Table 8; nn5 (1.1M weights) in the full profile
random_seeds = [0, 1, 2, 3, 4]  # seeds of the 70/15/15 random split (the paper's split is unpublished)
no_pca_regressors = ["reg", "nn1", "nn3"]  # the no-PCA check (Figure 11)
learning_sizes = [50, 100, 250, 500, 1000]  # training pairs in the learning curves
learning_seeds = [0, 1, 2]
manipulation_train = ["SWAP_SUBJ_DOBJ"]  # extension: train on these kinds of swap ...
manipulation_test = ["SWAP_DOBJ_VERB", "SWAP_SUBJ_VERB", "TRIPLE", "QUAD"]  # ... test on these
finetune_models = ["minilm"]  # sentence-transformers fine-tuned end to end ("mpnet" in the full profile)
finetune_splits = ["adversarial", "random"]
finetune_epochs = 4
cv_folds = 0  # > 0: the paper's k-fold protocol for the random split (10 in the full profile)
device = "auto"

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from compsem import report
from compsem.data import sts3k
from compsem.models import get_encoder
from compsem.sts import composition, finetune, pair_types, scoring, similarity
from compsem.sts import regressors as rg

report.set_theme()
results = {}
targets = report.load_targets("sts3k")
pairs = sts3k.load_pairs()
human = pairs["human"].to_numpy()

# %% [markdown]
# ## Data
#
# **Features.** For a sentence model the features of a pair are its two sentence embeddings
# concatenated, $[e_a, e_b]$, reduced by PCA to 8 components fitted on all 2,800 pairs (eight, to
# match the eight role parameters of VerbNet-CN). For VerbNet-CN the features are the 8 role similarities of the
# authors' published parses (a missing role counts 0). The paper's Mean-CN, OpenAI, DefSent and
# ERNIE embeddings are not published (only their similarities are), so the sentence-model features
# here are Mean over GloVe, MiniLM and MPNet (the paper's SentBERT).
#
# **Splits.** The adversarial split is exact (the authors' index files); the paper's random
# split comes from an unpublished label file, so seeded 70/15/15 draws stand in for it.


# %%
def embeddings(spec: str) -> tuple[np.ndarray, np.ndarray]:
    """Unstandardised embeddings of the A and B sentences under a model spec."""
    if spec.startswith("mean:"):
        vectors = get_encoder(spec.split(":", 1)[1]).word_vectors
        stop = sts3k.load_stopwords()
        return (composition.compose(pairs["sentence_a"], vectors, "mean", stopwords=stop),
                composition.compose(pairs["sentence_b"], vectors, "mean", stopwords=stop))
    both = scoring.embed_unique(spec, list(pairs["sentence_a"]) + list(pairs["sentence_b"]), device=device,
                                show_progress=False)
    return both[: len(pairs)], both[len(pairs):]


rolesims = sts3k.load_rolewise_similarities()["conceptnet"]
raw = {name: embeddings(name) for name in feature_sets if name != "verbnet"}
pca8 = {name: rg.pair_features(a, b, n_components=8) for name, (a, b) in raw.items()}
if "verbnet" in feature_sets:
    pca8 = {"verbnet": rg.role_features(rolesims)} | pca8
adversarial = rg.adversarial_split(pairs)
splits = {"adversarial": adversarial} | {f"random (seed {s})": rg.random_split(len(pairs), s) for s in random_seeds}
pd.DataFrame({name: {part: len(idx) for part, idx in split.items()} for name, split in splits.items()}).T

# %% [markdown]
# ## Method
#
# The regressors of Table 8: linear regression (`reg`) and multi-layer perceptrons `nn1`–`nn5`
# (`MLPRegressor`, `random_state=1`, `max_iter=500`), each fitted on the training pairs and scored
# by Spearman's ρ between its predictions and the human ratings of the test pairs. Parameter
# counts are weights only, as the paper counts them. On the random split every number is a mean
# over the seeded splits, with a 95% t-interval over seeds; the adversarial split is fixed, so it
# gives one value per regressor. Full fine-tuning trains the sentence-transformer itself (below).
#
# ## Results
#
# ### Figure 6: PCA-8 features, regressors of growing size

# %%
grids = []
grids.append(rg.evaluate_grid(pca8, human, adversarial, regressors, split_name="adversarial", progress=False))
for seed in random_seeds:
    grids.append(rg.evaluate_grid(pca8, human, splits[f"random (seed {seed})"], regressors,
                                  split_name=f"random (seed {seed})", progress=False))
grid = pd.concat(grids, ignore_index=True)
grid["split kind"] = np.where(grid["split"] == "adversarial", "adversarial", "random")
summary = grid.groupby(["split kind", "features", "regressor", "n_weights"], sort=False)["rho_test"].agg(
    ["mean", "std", "count"]).reset_index()
for row in summary[summary["features"] == "verbnet"].itertuples():
    key = f"ft_{'adv' if row._1 == 'adversarial' else 'random'}_verbnet_{row.regressor}"
    if key in targets:
        results[key] = float(row.mean)


def t_interval(mean: float, sd: float, n: int) -> tuple[float, float]:
    """95% t-interval of a mean over ``n`` random splits."""
    half = stats.t.ppf(0.975, n - 1) * sd / np.sqrt(n)
    return float(mean - half), float(mean + half)


cells = summary[["split kind", "features", "regressor", "mean", "std", "count"]]
for kind, name, regressor, mean, sd, n in cells.itertuples(index=False, name=None):
    key = f"ft_{'adv' if kind == 'adversarial' else 'random'}_{report.slug(name)}_{regressor}"
    if kind == "adversarial" and key not in targets:  # the split is fixed: one fit, no interval
        report.glue(key, float(mean))
    elif kind == "random":  # mean over the random splits and its interval
        report.glue(f"{key}_mean", float(mean))
        if n > 1:
            low, high = t_interval(mean, sd, n)
            report.glue(f"{key}_ci_low", low)
            report.glue(f"{key}_ci_high", high)
best = cells[cells["split kind"] == "random"].sort_values("mean").groupby("features", sort=False).tail(1)
for name, mean, sd, n in best[["features", "mean", "std", "count"]].itertuples(index=False, name=None):
    report.glue(f"ft_random_best_{report.slug(name)}_mean", float(mean))  # the best regressor of a feature set
    if n > 1:
        low, high = t_interval(mean, sd, n)
        report.glue(f"ft_random_best_{report.slug(name)}_ci_low", low)
        report.glue(f"ft_random_best_{report.slug(name)}_ci_high", high)
for name in rg.REGRESSORS:  # Table 8: weights of each regressor on the 8 VerbNet-CN features
    results[f"n_weights_verbnet_{name}"] = rg.n_weights(name, 8)
summary.pivot_table(index=["split kind", "features"], columns="regressor", values="mean", sort=False).reindex(
    columns=regressors).round(3)

# %% mystnb={"figure": {"caption": "Figure 6 of the paper, recomputed with the feature sets available here: Spearman rho on the test pairs against the number of weights of the regressor, on the random split (left; mean and SD over the seeded splits) and the adversarial split (right); black crosses: the paper's VerbNet-CN values. Look at how high the sentence-model features climb on the random split, and where they sit on the adversarial one.", "name": "fig-sts3k-finetune-figure6"}}
fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
for ax, kind in zip(axes, ["random", "adversarial"], strict=True):
    for name, group in summary[summary["split kind"] == kind].groupby("features", sort=False):
        ax.errorbar(group["n_weights"], group["mean"], yerr=group["std"].fillna(0), marker="o", capsize=3, label=name)
    split_key = "random" if kind == "random" else "adv"
    paper_points = [(rg.n_weights(r, 8), targets[f"ft_{split_key}_verbnet_{r}"]["paper"])
                    for r in rg.REGRESSORS if f"ft_{split_key}_verbnet_{r}" in targets]
    ax.scatter([w for w, _ in paper_points], [v for _, v in paper_points], marker="x", color="black", zorder=3,
               label="VerbNet-CN, paper")
    ax.set(xscale="log", xlabel="number of weights", title=f"{kind} split")
    ax.axhline(0, color="black", lw=0.8)
axes[0].set_ylabel("Spearman ρ on the test pairs")
axes[1].legend()
fig.suptitle("Figure 6: regressors on PCA-8 features (random split: mean ± SD over seeds)")
plt.show()

# %% [markdown]
# #### The authors' own predictions
#
# The authors published the predictions of every regressor for all 2,800 pairs. Scored on the
# adversarial split, they give the values Figure 6 plots (the paper's VerbNet-CN numbers in the
# targets file come from them; ours are compared with them below); the random split's test rows
# are not published, so those files can only be scored on all pairs.

# %%
published = rg.published_grid(pairs)
published[(published["split"] == "adversarial") & (published["n_components"] == 8)].pivot_table(
    index="features", columns="regressor", values="rho_adv").round(3)

# %% [markdown]
# ### Figure 11: without PCA
#
# The same on the adversarial split with all components kept ($2d$ features). The paper reports
# the same failure to transfer with the larger inputs (App. 8.3.1); the Findings check it on our
# features.

# %%
no_pca = {name: rg.pair_features(a, b, n_components=None) for name, (a, b) in raw.items()}
no_pca_grid = rg.evaluate_grid(no_pca, human, adversarial, no_pca_regressors, split_name="adversarial", progress=False)
for name, regressor, rho in no_pca_grid[["features", "regressor", "rho_test"]].itertuples(index=False, name=None):
    report.glue(f"ft_nopca_adv_{report.slug(name)}_{regressor}", float(rho))
no_pca_grid.pivot_table(index="features", columns="regressor", values="rho_test").reindex(
    columns=no_pca_regressors).round(3)

# %% [markdown]
# Table 10 gives the parameter counts of these models; ours:

# %%
no_pca_grid.pivot_table(index=["features", "n_features"], columns="regressor", values="n_weights").reindex(
    columns=no_pca_regressors)

# %% [markdown]
# ### Full fine-tuning (Figure 7)
#
# The sentence-transformer itself is trained (sentence-transformers' recipe: cosine-similarity
# loss, batch 16, {glue:text}`finetune_epochs_used` epochs, 10% warm-up) on each split and scored by
# the cosine of its embeddings on the test pairs.

# %%
report.glue("finetune_epochs_used", finetune_epochs)
finetuned, finetune_predictions = [], {}
for model in finetune_models:
    for split_name in finetune_splits:
        split = adversarial if split_name == "adversarial" else splits[f"random (seed {random_seeds[0]})"]
        outcome = finetune.evaluate_split(model, pairs, split["train"], split["test"], epochs=finetune_epochs,
                                          seed=random_seeds[0], device=device, show_progress=False)
        finetune_predictions[(model, split_name)] = outcome["predictions"]
        finetuned.append({"model": model, "split": split_name} | {k: v for k, v in outcome.items() if np.isscalar(v)})
    if cv_folds:  # the paper's protocol for Figure 7's random-split bar: out-of-fold rho on the adversarial pairs
        outcome = finetune.cross_validate(model, pairs, n_folds=cv_folds, seed=random_seeds[0], device=device,
                                          epochs=finetune_epochs)
        finetuned.append({"model": model, "split": f"{cv_folds}-fold", "rho_test": outcome["rho"]["adv"],
                          "rho_test_centred": outcome["rho_centred"]["adv"]}
                         | {k: v for k, v in outcome.items() if np.isscalar(v)})
finetuned = pd.DataFrame(finetuned)
for row in finetuned[finetuned["model"] == "mpnet"].itertuples() if len(finetuned) else []:
    key = {"adversarial": "ft_sentbert_adversarial", f"{cv_folds}-fold": "ft_sentbert_random_10fold"}.get(row.split)
    if key and (key != "ft_sentbert_random_10fold" or cv_folds == 10):
        results[key] = float(row.rho_test_centred)  # the paper's fine-tuned files are standardised (centred)
finetuned.round(3) if len(finetuned) else "no fine-tuning in this profile"

# %% [markdown]
# Figure 7 puts this beside VerbNet-CN. Without training, after training on a random split, and
# after training on the non-adversarial pairs, each scored on its test pairs:

# %% mystnb={"figure": {"caption": "Figure 7 of the paper, redrawn with the model fine-tuned here (MiniLM in the default profile, one seed; MPNet, the paper's SentBERT, in the full profile) beside VerbNet-CN (linear regression on the role similarities; mean over the random splits): rho on the test pairs without training, after training on a random split and after training on the non-adversarial pairs. The paper's bars are SentBERT's, so they are not marked on MiniLM's. Look at the adversarial bars against the random-split bars.", "name": "fig-sts3k-finetune-figure7"}}
if len(finetuned):
    fig7 = finetuned.pivot_table(index="model", columns="split", values="rho_test_centred")
    fig7.insert(0, "no training", finetuned.groupby("model")["rho_before_centred"].first())
    verbnet = summary[(summary["features"] == "verbnet") & (summary["regressor"] == "reg")].set_index("split kind")["mean"]
    fig7.loc["VerbNet-CN (reg)"] = {"no training": similarity.spearman(
        sts3k.load_published_similarities("verbnet_fixedparms_basic"), human, sts3k.portion_mask(pairs, "adv")),
        "adversarial": verbnet.get("adversarial"), "random": verbnet.get("random")}
    ax = fig7.plot.bar(rot=0, figsize=(7, 3.5))
    ax.set(ylabel="Spearman ρ on the test pairs", title="Figure 7: fine-tuned sentence model vs VerbNet-CN")
    ax.axhline(0, color="black", lw=0.8)
    plt.show()

# %% [markdown]
# ### Results beside the paper

# %% tags=["full-width"]
report.glue_all(results)
report.show_comparison(report.compare(results, "sts3k", keys=[k for k in results if k in targets]),
                       "numbers of Figure 6 and Tables 8 and 10")

# %% [markdown]
# ## Deviations and errata
#
# - **Table 8** prints 80 weights for one hidden layer of 10 units (8·10 + 10·1 = 90) and hidden
#   units "60, 100" for the two-layer model, whose 1,090 weights need (60, 10). The paper says
#   "default parameters", but the code set `max_iter=500` and `random_state=1`.
# - **Table 10's** Mean-CN counts (.598, .599, .708, .709 thousand) fit 2 × 299 inputs, not
#   2 × 300: the authors' ConceptNet vectors had 299 usable dimensions. Its 10⁵ column is 0.001
#   above the weight count of nn3 for every embedding model (a rounding slip).
# - **The random split** of the paper comes from an unpublished label file; a seeded 70/15/15
#   draw stands in, and the seeds show its spread. The adversarial split is exact (the index
#   files); the authors' notebooks print 1,064 / 1,665 because they move the identical check pairs.
# - **The VerbNet no-PCA file** of the authors gives .592 with linear regression where the PCA-8
#   file gives .569, although linear regression is invariant to a rotation of the same 8
#   features: that run must have used other features; we could not find which.
# - **Random split, sentence-model features.** The paper (§5.3, §6.2) says that with enough
#   parameters all feature sets reach .7–.8 on the random split. Here the best regressor reaches
#   {glue:text}`ft_random_best_minilm_mean:.3f` with MiniLM, {glue:text}`ft_random_best_mpnet_mean:.3f`
#   with MPNet (the paper's SentBERT checkpoint) and {glue:text}`ft_random_best_mean_glove50_mean:.3f`
#   with Mean-GloVe (means over the random splits; the Findings give their intervals). `nn5`
#   (1.1M weights) runs only in the full profile, and the paper's OpenAI, DefSent and ERNIE
#   embeddings are not published.
# - **SentBERT fine-tuning** (MPNet; Figure 7's .410 adversarial and .866 ten-fold) is in the full
#   profile for a GPU machine; on two CPU cores the default profile fine-tunes MiniLM.

# %% [markdown]
# ## Extensions
#
# ### Learning curves
#
# Adversarial-split correlation against the number of non-adversarial training pairs: do the
# sentence-model features start to transfer with more data?

# %% mystnb={"figure": {"caption": "Learning curves: rho on the adversarial pairs against the number of non-adversarial training pairs, linear regression on PCA-8 features (mean and SD over subsamples). Look at whether any sentence-model curve rises with more data.", "name": "fig-sts3k-finetune-learning-curves"}}
curves = []
for name, features in pca8.items():
    curve = rg.learning_curve(features, human, adversarial, learning_sizes, regressor="reg", seeds=learning_seeds)
    curves.append(curve.assign(features=name))
curves = pd.concat(curves, ignore_index=True)
fig, ax = plt.subplots()
for name, group in curves.groupby("features", sort=False):
    stats_ = group.groupby("n_train")["rho_test"].agg(["mean", "std"])
    ax.errorbar(stats_.index, stats_["mean"], yerr=stats_["std"], marker="o", capsize=3, label=name)
ax.axhline(0, color="black", lw=0.8)
ax.set(xscale="log", xlabel="non-adversarial training pairs", ylabel="ρ on the adversarial pairs",
       title="Learning curves (linear regression on PCA-8 features)")
ax.legend()
plt.show()

# %% [markdown]
# ### Across kinds of manipulation
#
# Train on one kind of swap and test on others (types from the data chapter's reconstruction):
# does any feature set learn "which words moved" in a way that carries over?

# %%
labels = pair_types.reconstruct_pair_types(pairs, sts3k.load_stopwords())
across = rg.manipulation_split(labels["category"], manipulation_train, manipulation_test)
across_grid = rg.evaluate_grid(pca8, human, across, ["reg", "nn2"], split_name="across", progress=False)
report.glue("across_n_train", len(across["train"]))
report.glue("across_n_test", len(across["test"]))
across_grid.pivot_table(index="features", columns="regressor", values="rho_test").round(3)

# %% [markdown]
# Trained on {glue:text}`across_n_train` pairs of the training kinds and tested on
# {glue:text}`across_n_test` pairs of the others.

# %% [markdown]
# ## Reproduce
#
# ```bash
# make run CHAPTER=sts3k-finetune
# make run CHAPTER=sts3k-finetune PROFILE=full      # nn5, MPNet fine-tuning, 10-fold: use a GPU
# ```

# %% tags=["remove-input"]
report.glue_findings("sts3k-finetune")
