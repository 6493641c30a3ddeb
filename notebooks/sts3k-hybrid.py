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
# # Hybrid models: semantic roles plus word vectors
#
# **The question.** The central claim of Fodor, De Deyne & Suzuki {cite}`fodor2025sts3k` is
# that two *training-free* hybrids beat every transformer on STS3k's adversarial pairs:
# **VerbNet-CN** compares two sentences role by role (who did what to whom, when, where, how),
# each role embedded as the mean of its word vectors, and **AMR-CN** does the same over the
# paths of an Abstract Meaning Representation graph. This chapter
#
# 1. reproduces both from the authors' published parses and role-wise similarities,
#    together with AMR-SMATCH computed as the authors did and as standard Smatch F1;
# 2. recomputes them from the parses with the word vectors available here (GloVe, spaCy), since
#    the paper's ConceptNet Numberbatch is not on the package index: labelled substitutes;
# 3. makes VerbNet-CN usable on new sentences with a rule-based **role labeller** on spaCy's
#    dependency parse, scored in sample against the authors' {glue:text}`hybrid_n_sentences:,.0f` hand-corrected STS3k parses
#    ({glue:text}`labeller_distinct_sts3k` distinct sentences) it was written from, and on the
#    three other sets whose VerbNet parses they published (GS2011 as a development set, STSS-131
#    and the pilot as held-out test sets);
# 4. builds an **STS3k-style pair generator** with gold roles, to probe how each model reacts to
#    each structural manipulation with no human ratings at all;
# 5. reproduces the structure-sensitivity analysis of §5.4 (Figure 8 with bootstrap intervals,
#    and the mean absolute deviation from the human profile) and Figure 9 for the models;
# 6. tests the central contrast pair by pair (each hybrid against the best neural model on
#    STS3k-adv, with an interval), re-derives the beta weights from the authors' pilot data and
#    measures how much the adversarial result depends on them;
# 7. asks whether the hybrids rank pairs *within* a pair type or only the types.
#
# Items 3, 4 and 7 are extensions, not in the paper, and so is the part of item 6 that asks whether
# the lead over the best neural model survives other betas (the paper's "not dramatically
# changed" declares no size to test).
#
# *Time to read: 25 minutes. Prerequisites: the data and sentence-model chapters.*

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
word_vectors = ["glove50", "spacy-md"]  # static vectors standing in for ConceptNet Numberbatch
denominator = "fixed"  # VerbNet-CN: "fixed" (the authors' 11) or "present" (weights of the roles present)
smatch_restarts = 5  # hill-climbing restarts of Smatch (randomised)
smatch_seed = 0
labeller_vectors = "glove50"  # word vectors for VerbNet-CN on our own parses
n_per_type = 20  # generated pairs per manipulation type
generator_seed = 0
generator_models = ["mean:glove50", "mpnet", "minilm"]  # sentence models probed on generated pairs
n_resamples = 2000  # bootstrap resamples of every interval (paired comparisons, Figure 8, pilot betas)
stats_seed = 0  # seed of the bootstraps and of the beta perturbations
perturbation_factor = 2.0  # sensitivity: each beta multiplied by a random factor in [1/f, f]
n_perturbations = 1000  # sensitivity: random perturbations of the betas

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import display

from compsem import parameters, report
from compsem.data import shared_sentences, sts3k
from compsem.models import get_encoder
from compsem.sts import (
    amr,
    contrasts,
    figures,
    generator,
    hybrid,
    labeller_scores,
    pair_types,
    roles,
    similarity,
    structure,
    table9,
    weights,
)
from compsem.sts import chapter as C
from compsem.sts.families import UNION_FAMILIES

parameters.check_models({"generator_models": generator_models}, "sts")  # before any model loads
report.set_theme()
results = {}  # glued at the end; the numbers with a target key are compared with the paper
targets = report.load_targets("sts3k")
pairs = sts3k.load_pairs()
human = pairs["human"].to_numpy()
clusters = shared_sentences.sentence_clusters(pairs)  # pairs that share a sentence: every bootstrap's resampling unit
report.glue_all(shared_sentences.cluster_counts(pairs, "sts3k"))
stopwords = sts3k.load_stopwords()
report.glue("hybrid_n_pairs", len(pairs))
report.glue("hybrid_n_sentences", 2 * len(pairs))  # each pair's two sentences, each parsed

# %% [markdown]
# ## Data
#
# The authors' published files (`bmmlab/compositional-semantics-eval`, commit `c310abb`): the
# hand-corrected VerbNet parses of all {glue:text}`hybrid_n_sentences:,.0f` sentences of the pairs
# ({glue:text}`labeller_distinct_sts3k` distinct; SemParse output, corrected, §4.6) and their GPT-4
# parses, the role-wise similarities (RoleSims) of every pair with ConceptNet vectors, the SPRING
# AMR parses, and the per-pair similarity files behind Table 9. Pairs and human ratings are those
# of the data chapter.

# %% [markdown]
# ## Method
#
# ### VerbNet-CN (§4.6)
#
# Each sentence is parsed into eight roles (Agent, Verb, Patient, Theme, Time, Manner, Location,
# Trajectory). A role's embedding is the mean of the word vectors of its phrase after removing
# stop words; two sentences are compared role by role with the cosine ($\mathrm{RoleSim}$), a role
# missing from either sentence contributes nothing, and the sentence similarity is Eq. 2,
#
# $$\mathrm{SentSim}(s_1, s_2) = \sum_{i=1}^{8} \beta_i\,\mathrm{RoleSim}(r_{i,1}, r_{i,2}),\qquad
# \beta_\text{Verb}=3,\ \beta_\text{Agent,Patient,Theme}=2,\ \beta_\text{Time,Manner,Location,Trajectory}=0.5 .$$
#
# The authors' code divides this sum by $\sum_i \beta_i = 11$ for every pair, whatever roles it
# has (`denominator="fixed"`); a positive constant leaves every rank, and so every Spearman
# correlation, unchanged, and keeps the scores in $[-1, 1]$. Where one sentence has a role A but
# not B and the other has B but not A, the two are compared with each other (a hard-coded list of
# role pairs, tried in order).
#
# AMR-CN and AMR-SMATCH are described with their results below.
#
# **Pairs that share a sentence.** {glue:text}`sts3k_n_pairs_sharing:,.0f` of the 2,800 STS3k pairs share a
# sentence with another pair, directly or through others, so they are not independent draws. Every
# bootstrap over pairs here resamples the {glue:text}`sts3k_n_clusters:,.0f` clusters of pairs linked
# by shared sentences, each with all its pairs (`compsem.data.shared_sentences.sentence_clusters`; a cluster
# bootstrap, as in the models chapter), the same clusters for every series compared; Figure 8's
# contrasts resample them stratified by the categories a cluster holds (so a cluster with pairs
# in two categories enters both together), its error bars the clusters of each category's pairs.
#
# ## Results
#
# ### Reproduced from the published role-wise similarities
#
# The authors published every RoleSim of every pair. Combining them with Eq. 2 should give their
# published sentence similarities and Table 9. Dividing instead by the weights of the roles
# present, an average over those roles (one reading of step 7's words "weighted average", which
# Eq. 2 does not take), is close to the authors' unreported "norm" variant, which also adds a
# term to the denominator of some pairs (Deviations); the extension below uses the plain average.

# %%
rolewise = sts3k.load_rolewise_similarities()["conceptnet"]
parses = sts3k.load_verbnet_parses("mod")
fixed = hybrid.combine(rolewise, denominator="fixed")
norm = hybrid.combine(rolewise, denominator="present", extra=hybrid.authors_norm_extra(parses))
published_fixed = sts3k.load_published_similarities("verbnet_fixedparms_basic")
published_norm = sts3k.load_published_similarities("verbnet_fixedparms_norm")
report.glue("verbnet_max_abs_diff_fixed", float(np.max(np.abs(fixed - published_fixed))))
report.glue("verbnet_max_abs_diff_norm", float(np.max(np.abs(norm - published_norm))))
verbnet_table = C.sts3k_table({"Eq. 2 (Table 9)": fixed, "unreported 'norm' (roles present, authors' addend)": norm}, pairs)
results |= C.sts3k_values(verbnet_table, ["verbnet_cn_rolewise", "verbnet_cn_norm"])
verbnet_table.loc["paper, Table 9 VerbNet-CN"] = C.paper_portions(targets, "table9_verbnet_cn")
# the average over the roles present, without the authors' addend, minus Eq. 2 (an extension)
report.glue_all(C.portion_gaps(hybrid.combine(rolewise, denominator="present"), fixed, human, pairs,
                               "verbnet_present_minus_fixed", n_resamples=n_resamples, seed=stats_seed,
                               family=UNION_FAMILIES["present_roles"]))  # below 0 on some portion: k = 3
verbnet_table.round(3)

# %% [markdown]
# Largest difference from the published similarities: {glue:text}`verbnet_max_abs_diff_fixed:.1e`
# (Eq. 2) and {glue:text}`verbnet_max_abs_diff_norm:.1e` ("norm"). The plain average over the
# roles present minus Eq. 2 in the correlation with people, paired over the clusters of pairs
# ({glue:text}`n_resamples_used:.0f` resamples, 95% BCa interval): STS3k-all
# {glue:text}`verbnet_present_minus_fixed_sts3k_all:.3f`
# [{glue:text}`verbnet_present_minus_fixed_sts3k_all_ci_low:.3f`, {glue:text}`verbnet_present_minus_fixed_sts3k_all_ci_high:.3f`],
# STS3k-non {glue:text}`verbnet_present_minus_fixed_sts3k_non:.3f`
# [{glue:text}`verbnet_present_minus_fixed_sts3k_non_ci_low:.3f`, {glue:text}`verbnet_present_minus_fixed_sts3k_non_ci_high:.3f`],
# STS3k-adv {glue:text}`verbnet_present_minus_fixed_sts3k_adv:.3f`
# [{glue:text}`verbnet_present_minus_fixed_sts3k_adv_ci_low:.3f`, {glue:text}`verbnet_present_minus_fixed_sts3k_adv_ci_high:.3f`]
# (an extension: the paper's model is Eq. 2).
#
# ### AMR-CN and AMR-SMATCH (§4.4, §4.6)
#
# AMR-CN keys the concept of every node of a SPRING AMR graph (internal nodes included) by its
# path of role labels (`.MAIN.:ARG0`, ...) and sums the similarities of the fillers of the paths
# the two graphs share, divided as the authors' code divides, by the Dice-style $(n_1 + n_2)/2$;
# Eq. 3 divides by the number of roles found in either sentence (Deviations). AMR-SMATCH, as the
# authors computed it, is the number of matched triples divided by 12, not the Smatch F1 score.

# %%
amr_parses = sts3k.load_amr_parses()
smatch_authors = amr.smatch_scores(amr.smatch_many(amr_parses["amr_a"], amr_parses["amr_b"], seed=smatch_seed,
                                                    restarts=smatch_restarts, layout="authors"), "authors")
smatch_f1 = amr.smatch_scores(amr.smatch_many(amr_parses["amr_a"], amr_parses["amr_b"], seed=smatch_seed,
                                               restarts=smatch_restarts, layout="one_line"), "f1")
published_smatch = sts3k.load_published_similarities("smatch")
report.glue("smatch_agreement", float(np.mean(np.isclose(smatch_authors, published_smatch, atol=1e-6))))
smatch_table = C.sts3k_table({
    "published file (Table 9)": published_smatch,
    "matched triples / 12 (authors)": smatch_authors,
    "Smatch F1 (standard)": smatch_f1,
    "AMR-CN, published file": sts3k.load_published_similarities("AMR"),
}, pairs)
results |= C.sts3k_values(smatch_table, [None, "smatch_authors", "smatch_f1", None])
smatch_table.loc["paper, Table 9 AMR-SMATCH"] = C.paper_portions(targets, "table9_amr_smatch")
smatch_table.loc["paper, Table 9 AMR-CN"] = C.paper_portions(targets, "table9_amr_cn")
smatch_table.round(3)

# %% [markdown]
# Our matched-triple counts equal the authors' for {glue:text}`smatch_agreement:.1%` of the pairs
# (Smatch is a randomised hill-climbing search; the rest differ by one triple). Standard F1 divides
# by the size of both graphs, so it does not reward long sentences for having many triples; it is
# computed on each graph written on one line, the authors' counts on their multi-line layout
# (Deviations).
#
# On STS3k-adv, the syntax-based scores with 95% percentile-bootstrap intervals over the clusters of pairs.
# The paper's own, from the authors' published files: AMR-SMATCH (matched triples / 12),
# {glue:text}`amr_smatch_sts3k_adv:.3f`
# [{glue:text}`amr_smatch_sts3k_adv_ci_low:.3f`, {glue:text}`amr_smatch_sts3k_adv_ci_high:.3f`], and
# AMR-WWLK, {glue:text}`amr_wwlk_sts3k_adv:.3f`
# [{glue:text}`amr_wwlk_sts3k_adv_ci_low:.3f`, {glue:text}`amr_wwlk_sts3k_adv_ci_high:.3f`]; the
# paper (§5.2) says the syntax-based models "perform fairly poorly, with negative or low positive
# correlations"; the Findings read "low" with the bound of the sentence before it, the
# transformers' "very low correlations of less than 0.2". Standard Smatch F1 on the same
# parses, a metric the paper did not compute (an extension), gives
# {glue:text}`smatch_f1_sts3k_adv:.3f`
# [{glue:text}`smatch_f1_sts3k_adv_ci_low:.3f`, {glue:text}`smatch_f1_sts3k_adv_ci_high:.3f`]:
# scored as graph overlap, the parses are not poor on the adversarial pairs (Findings).

# %%
mask_adv = sts3k.portion_mask(pairs, "adv")
report.glue("hybrid_n_pairs_adv", int(mask_adv.sum()))
amr_wwlk = sts3k.load_published_similarities(table9.PUBLISHED_ROWS["AMR-WWLK"])
report.glue("amr_wwlk_sts3k_adv", similarity.spearman(amr_wwlk, human, mask_adv))  # smatch_f1's: recorded above
report.glue("amr_smatch_sts3k_adv", similarity.spearman(published_smatch, human, mask_adv))  # Table 9's file
report.glue_all(C.adv_spearman_intervals({"smatch_f1": smatch_f1}, human, mask_adv, n_resamples=n_resamples,
                                         seed=stats_seed, clusters=clusters))
report.glue_all(C.adv_spearman_intervals(  # "either syntax-based model above .2": a union of two tests, k = 2
    {"amr_wwlk": amr_wwlk, "amr_smatch": published_smatch}, human, mask_adv, n_resamples=n_resamples,
    seed=stats_seed, levels=C.family_levels(0.95, UNION_FAMILIES["syntax_based"]), clusters=clusters))

# %% [markdown]
# ### Recomputed from the parses with substitute word vectors
#
# Numberbatch is not available here, so VerbNet-CN (from the authors' SemParse-based corrected
# parses and from their GPT-4 parses, Table 11) and AMR-CN are recomputed with GloVe 6B 50d and
# spaCy's 300-d vectors. These rows are **substitutes**: they test whether the hybrids' advantage
# survives other word vectors, not the paper's numbers.

# %%
substitute_series, substitute_table, substitute_values = C.substitute_hybrids(
    word_vectors, parses, sts3k.load_gpt4_parses(), amr_parses, stopwords, denominator, pairs)
results |= substitute_values
neural = list(C.NEURAL_ROWS)  # Table 9's neural models, AMRBART and S3BERT included
report.glue("best_neural_sts3k_adv", max(table9.published_cell(row, "STS3k-adv") for row in neural))  # Table 9
C.with_paper_hybrids(substitute_table, targets).round(3)  # the paper's Numberbatch rows below (Tables 9, 11)

# %% [markdown]
# Each substitute hybrid against the best neural model of Table 9 on STS3k-adv, paired over the
# pairs (`compsem.sts.hybrid.paired_comparisons`, {glue:text}`n_resamples_used:.0f` resamples, 95%
# BCa interval); and the parser's effect with the word vectors held fixed: VerbNet-CN on the GPT-4
# parses minus VerbNet-CN on the corrected SemParse parses, with a 90% paired interval (the
# interval of an equivalence test, Table 11's reading that the hybrid "is robust to the
# particular parsing method used"). Where a claim rests on both substitute vector sets, the
# Findings read them by one convention: it holds if both hold, fails if both fail, and is
# inconclusive when the two sets disagree.

# %%
neural_series = {name: sts3k.load_published_similarities(table9.PUBLISHED_ROWS[name]) for name in neural}
substitute_family = UNION_FAMILIES["substitute_hybrids"]  # some of the four substitute hybrids below: k = 4
substitute_paired = hybrid.paired_comparisons(  # the family: VerbNet-CN on the corrected parses and AMR-CN
    substitute_series, neural_series, human, mask_adv, n_resamples=n_resamples, seed=stats_seed,
    family=substitute_family, members=[name for name in substitute_series if "GPT-4" not in name],
    clusters=clusters)
report.glue_all(C.paired_values(substitute_paired, "paired_sub", ("difference", "ci_low", "ci_high",
                                                                  f"bonf{substitute_family}_ci_low",
                                                                  f"bonf{substitute_family}_ci_high")))
parser_table, parser_values = C.parser_gaps(substitute_series, word_vectors, human, mask_adv,
                                            n_resamples=n_resamples, seed=stats_seed, clusters=clusters)
report.glue_all(parser_values)
display(substitute_paired[["rival", "rho_candidate", "rho_rival", "difference", "ci_low", "ci_high"]].round(3))
parser_table.round(3)

# %% [markdown]
# ### Hybrids against the best transformer, pair by pair
#
# Table 9 puts VerbNet-CN and AMR-CN above DefSent, the best of the neural models, on STS3k-adv. Both correlations are computed on the same {glue:text}`hybrid_n_pairs_adv:,.0f` pairs, so the question
# a reviewer asks is whether the *difference* is larger than its sampling error. For each hybrid
# (published similarity files) against the neural model with the highest STS3k-adv correlation,
# `compsem.stats.paired_spearman_difference` gives the difference of the two Spearman rhos, a
# paired bootstrap interval over clusters of pairs ({glue:text}`n_resamples_used:.0f` resamples, BCa), the
# bootstrap p, and Williams' test of two correlations sharing the human series, shown for
# comparison only: it takes the pairs as independent, which those that share a sentence are
# not, so it overstates the evidence and decides nothing here.

# %%
hybrid_series = {"VerbNet-CN": published_fixed, "AMR-CN": sts3k.load_published_similarities("AMR")}
paired_family = UNION_FAMILIES["hybrids_above_best"]  # either hybrid below the best neural model: k = 2
paired = hybrid.paired_comparisons(hybrid_series, neural_series, human, mask_adv,
                                   n_resamples=n_resamples, seed=stats_seed, family=paired_family, clusters=clusters)
report.glue("n_resamples_used", n_resamples)
results |= C.paired_values(paired, "paired", ("difference",))
report.glue_all(C.paired_values(paired, "paired", ("ci_low", "ci_high", "p", "williams_t", "williams_p",
                                                   f"bonf{paired_family}_ci_low", f"bonf{paired_family}_ci_high")))
report.glue("paired_best_neural_adv_rho", paired["rho_rival"].iloc[0])
paired.assign(paper_difference=[targets.get(f"paired_{report.slug(n)}_adv_difference", {}).get("paper", np.nan)
                                for n in paired.index]).round(4)

# %% [markdown]
# VerbNet-CN exceeds the best neural model by {glue:text}`paired_verbnet_cn_adv_difference:.3f`
# (95% interval {glue:text}`paired_verbnet_cn_adv_ci_low:.3f` to
# {glue:text}`paired_verbnet_cn_adv_ci_high:.3f`), AMR-CN by
# {glue:text}`paired_amr_cn_adv_difference:.3f` ({glue:text}`paired_amr_cn_adv_ci_low:.3f` to
# {glue:text}`paired_amr_cn_adv_ci_high:.3f`). The claim rests on the lower bounds (Findings).
#
# ### Where the betas come from (§4.6), and how much they matter
#
# The paper set the weights by "rounding the estimated parameters" of a regression on a pilot set
# of 120 subject-verb-object pairs (`Fodor_pilot_2022.txt`, published with the authors' corrected
# parses; every pilot sentence has exactly Agent, Verb and Patient). `compsem.sts.weights` fits
# human similarity on the three role similarities by least squares with an intercept. Only the
# ratios of the betas change a rank correlation, so the fitted coefficients are rescaled to the
# paper's total of the three core weights (2 + 3 + 2 = 7); intervals are percentile bootstraps
# over the 120 pilot pairs. The authors published no role similarities for the pilot pairs and
# Numberbatch is not available here, so the role similarities use the substitute word vectors.

# %%
pilot_pairs, pilot_parses = weights.load_pilot()
pilot_fits, pilot_weights, pilot_values = C.pilot_betas(word_vectors, pilot_pairs, pilot_parses, stopwords,
                                                        n_resamples=n_resamples, seed=stats_seed)
results |= pilot_values
pd.concat(pilot_fits, names=["word vectors"]).round(3)

# %% [markdown]
# The sensitivity of the headline number to the betas is measured on the authors' own ConceptNet
# role similarities (the published RoleSims behind Table 9): VerbNet-CN's STS3k-adv correlation
# with the paper's betas, with uniform betas, with the minor roles dropped, with the pilot fits
# (Theme copying Patient, minor roles at 0.5, as the paper did), with all eight betas fitted by
# least squares on the non-adversarial pairs (the adversarial pairs unseen), and under
# {glue:text}`n_perturbations_used:.0f` random perturbations that multiply each beta by a factor
# between 1/{glue:text}`perturbation_factor_used:.0f` and {glue:text}`perturbation_factor_used:.0f`.
# Each named variant is also compared with the best neural model pair by pair.

# %%
variants = C.beta_variants(rolewise, human, sts3k.portion_mask(pairs, "non"), pilot_weights)
sensitivity = C.beta_sensitivity(rolewise, variants, neural_series[paired["rival"].iloc[0]], human, mask_adv,
                                 n_resamples=n_resamples, seed=stats_seed, clusters=clusters)
perturbed = weights.perturbed_rhos(rolewise, human, mask_adv, factor=perturbation_factor,
                                   n_draws=n_perturbations, seed=stats_seed)
report.glue("n_perturbations_used", n_perturbations)
report.glue("perturbation_factor_used", perturbation_factor)
results |= C.sensitivity_values(sensitivity, perturbed)
sensitivity.round(3)

# %% mystnb={"figure": {"caption": "VerbNet-CN's Spearman rho on STS3k-adv, from the authors' ConceptNet role similarities, when its beta weights are perturbed at random (histogram: each beta times a factor between 1/f and f) or replaced (vertical lines); the paper's value is the marker on the axis, the best neural model's rho the dashed line. Look at whether any weighting falls to the dashed line.", "name": "fig-sts3k-hybrid-beta-sensitivity"}}
figures.beta_sensitivity(perturbed, perturbation_factor, sensitivity["rho"], paired["rival"].iloc[0],
                         paired["rho_rival"].iloc[0], targets["table9_verbnet_cn_sts3k_adv"]["paper"])
plt.show()

# %% [markdown]
# The pilot fits give Verb {glue:text}`pilot_beta_glove50_verb:.2f` (95% interval
# {glue:text}`pilot_beta_glove50_verb_ci_low:.2f` to {glue:text}`pilot_beta_glove50_verb_ci_high:.2f`,
# GloVe), Agent {glue:text}`pilot_beta_glove50_agent:.2f` and Patient
# {glue:text}`pilot_beta_glove50_patient:.2f` on the paper's scale, whose weights are 3, 2 and 2
# (the least-squares fit explains R² = {glue:text}`pilot_r2_glove50:.2f` of the pilot variance).
# Across the named weightings VerbNet-CN's adversarial correlation ranges from
# {glue:text}`sens_min_named_rho:.3f` to {glue:text}`sens_max_named_rho:.3f`; the random perturbations' 2.5th
# percentile is {glue:text}`sens_perturbed_q025:.3f` (minimum {glue:text}`sens_perturbed_min:.3f`).
# The smallest lower bound of the paired interval against the best neural model over the named
# weightings is {glue:text}`sens_min_named_diff_ci_low:.3f`.
#
# §4.6 says that VerbNet-CN's performance "is not dramatically changed even when the parameters are
# learned directly from the STS3k dataset": here {glue:text}`sens_rho_paper:.3f` with Table 9's
# betas and {glue:text}`sens_rho_fitted_on_sts3k_non:.3f` with betas fitted on STS3k-non. The paper
# gives no size of change it would call dramatic, and a margin chosen now would be chosen after
# seeing these numbers, so the Findings do not decide that statement; they ask a question of ours
# instead, whether VerbNet-CN keeps its lead over the best neural model under every weighting.

# %% [markdown]
# ### Structure sensitivity (§5.4, Figure 8)
#
# Mean similarity per category of pair, each series divided by its own mean on pairs that only
# add one or two modifiers. The paper's reading: for people, swapping roles costs more and more
# similarity the more elements move, while a model that sees only words does not care (checked in
# the Findings). The mean absolute deviation (MAD) of a model's profile from the human one
# summarises the mismatch. The paper prints no per-category values to mark on the figure: its
# MADs stand beside ours in the legend and in the table of results below, its reading of people's
# Single and Swap-4 levels (§6.4) in the Findings. The error bars are 95% percentile-bootstrap intervals of each
# category's mean over its pairs ({glue:text}`n_resamples_used:.0f` resamples; the authors drew t-intervals).

# %% mystnb={"figure": {"caption": "Figure 8 of the paper, recomputed: mean similarity per category of pair, each series divided by its own mean on the pairs that add one or two modifiers, with 95% percentile-bootstrap intervals over the pairs of each category (the Modifiers mean held fixed); people in black, MAD from the human profile in the legend, ours and the paper's (§5.4). Look at Single to Swap-4: does the curve fall with the number of elements moved, as the human one does?", "name": "fig-sts3k-hybrid-figure8"}}
labels = pair_types.reconstruct_pair_types(pairs, stopwords)
theirs_sims = substitute_series.get(f"VerbNet-{labeller_vectors}")  # VerbNet-CN, corrected parses, substitute vectors
if theirs_sims is None:
    theirs_sims = hybrid.verbnet_cn(parses, word_vectors=get_encoder(labeller_vectors).word_vectors,
                                    stopwords=stopwords, denominator=denominator)
series = {"Human": human,
          "Mean-CN": sts3k.load_published_similarities("mean"),
          "SentBERT": sts3k.load_published_similarities("sentbert_mpnet_norml"),
          "OpenAI": sts3k.load_published_similarities("openai_norml"),
          "DefSent": sts3k.load_published_similarities("defsent_cls_norml"),
          "VerbNet-CN": published_fixed}
paper_series = [s for s in series if s != "Human"]
series[f"VerbNet ({labeller_vectors}, corrected parses)"] = theirs_sims
means, relative, mads = structure.figure8(series, labels)
results |= C.figure8_values(relative, mads, paper_series)
intervals = {name: structure.category_intervals(values, labels, n_resamples=n_resamples, seed=stats_seed,
                                                clusters=clusters)
             for name, values in series.items()}
figures.category_means(relative, intervals, mads, {name: targets[f"mad_{report.slug(name)}"]["paper"] for name in paper_series})
plt.show()

# %%
relative.round(3)

# %% [markdown]
# The paper's two readings of the figure as contrasts with 95% percentile-bootstrap intervals
# (the clusters of pairs resampled, stratified by the categories they hold, the Modifiers mean included, the same for every
# series, `compsem.sts.contrasts`): for people, the step from each category to the next of
# Single, Swap-2, Swap-3, Swap-4; and how much more people's profile falls from Single to
# Swap-4 than a model's (positive: the model is less sensitive to the swaps than people).
# The paper's reading that VerbNet-CN, and less so DefSent, respond "in between the other
# transformers and human judgements" (*verbnet-cn-intermediate-sensitivity* in the Findings) has
# two readings. The Findings decide it on the MAD, the evidence §5.4 gives, the reading declared
# before our values were read; the fall, read after them, is the extension
# *verbnet-cn-falls-more-than-people*. By the fall from Single to Swap-4 (the
# second contrast), on the authors' own VerbNet-CN file its relative similarity goes from
# {glue:text}`fig8_verbnet_cn_single:.3f` (Single) through {glue:text}`fig8_verbnet_cn_swap_2:.3f`
# and {glue:text}`fig8_verbnet_cn_swap_3:.3f` to {glue:text}`fig8_verbnet_cn_swap_4:.3f` (Swap-4),
# and people's fall minus its is {glue:text}`fig8_fall_gap_verbnet_cn:.3f`
# [{glue:text}`fig8_fall_gap_verbnet_cn_ci_low:.3f`, {glue:text}`fig8_fall_gap_verbnet_cn_ci_high:.3f`]
# (below zero: a model that falls further than people). By the MAD, the evidence §5.4 itself gives
# right after the sentence, each model's MAD minus another's over the same resampled pairs
# (`compsem.sts.contrasts.mad_gaps`): VerbNet-CN minus SentBERT
# {glue:text}`fig8_mad_gap_verbnet_cn_minus_sentbert:.3f`
# [{glue:text}`fig8_mad_gap_verbnet_cn_minus_sentbert_ci_low:.3f`, {glue:text}`fig8_mad_gap_verbnet_cn_minus_sentbert_ci_high:.3f`],
# DefSent minus SentBERT {glue:text}`fig8_mad_gap_defsent_minus_sentbert:.3f`
# [{glue:text}`fig8_mad_gap_defsent_minus_sentbert_ci_low:.3f`, {glue:text}`fig8_mad_gap_defsent_minus_sentbert_ci_high:.3f`]
# (below zero: nearer people's profile than the rival; the rows `fig8_mad_gap_*` below). Where a
# Finding concludes when *some* of several contrasts does (one of people's steps below zero, one
# model's fall gap, one MAD gap), a union of k tests, it reads them at Bonferroni's level
# 1 − .05/k, from the same resamples (`compsem.sts.families`; the columns `bonf<k>_ci_low` and
# `bonf<k>_ci_high`).

# %%
fig8_point, fig8_draws = contrasts.relative_mean_draws(series, labels, n_resamples=n_resamples, seed=stats_seed,
                                                      clusters=clusters)
fig8_contrasts = contrasts.figure8_contrasts(fig8_point, fig8_draws, paper_series,
                                             step_family=UNION_FAMILIES["human_steps"],
                                             fall_family=UNION_FAMILIES["fall_gaps"])
fig8_contrasts |= contrasts.mad_gaps(fig8_point, fig8_draws, ["VerbNet-CN", "DefSent"], ["SentBERT", "OpenAI"],
                                     family=UNION_FAMILIES["mad_gaps"])
report.glue_all(C.interval_values(fig8_contrasts))
pd.DataFrame(fig8_contrasts).T.round(3)

# %% [markdown]
# ### Figure 9 for the models
#
# The effect of one added modifier by type, for people and for each model, each series relative to
# its own mean over all single-modifier pairs (0 = an average modifier; positive = this kind of
# modifier lowers similarity more than average). The paper plots raw reductions, whose values
# for people are the data chapter's Figure 9 (with paper markers); on this relative scale there
# are no paper values to mark.

# %% mystnb={"figure": {"caption": "Figure 9 for people and models: the reduction in similarity caused by one added modifier of each type, relative to the series' own mean over all single-modifier pairs (0 = an average modifier). The paper gives no values on this relative scale (its Figure 9 plots people's raw reductions, 1 - mean, marked on the data chapter's Figure 9), so no paper marker is drawn. Look at Passive for people (black) against each model.", "name": "fig-sts3k-hybrid-figure9"}}
fig9 = pd.DataFrame({name: structure.modifier_profile(values)["relative_reduction"] for name, values in series.items()})
figures.relative_reductions(fig9)
plt.show()

# %% [markdown]
# ### Results beside the paper

# %% tags=["full-width"]
report.glue_all(results)
report.show_comparison(report.compare(results, "sts3k", keys=[k for k in results if k in targets]),
                       "numbers of Table 9, Table 11, App. 8.3.2 and §5.4")

# %% [markdown]
# ## Deviations and errata
#
# - **"Weighted average".** §4.6's step 7 calls the sentence similarity a weighted average of
#   RoleSims; Eq. 2, which it points to, is their weighted sum over the eight roles, a missing
#   role counting zero, and Table 9 follows Eq. 2 (the code's division by the constant 11 changes
#   no rank). This chapter's claim about it first read "weighted average" as an average over the
#   roles present and counted Table 9 a contradiction of the paper; that reading was corrected
#   to Eq. 2 (Findings). Averaging over the roles present (`denominator="present"`) scores higher,
#   our observation (an extension, above); the authors' unreported "norm" file, which does so,
#   also adds, for each cross-role alignment in which the first sentence held the second role of
#   the pair, that role's weight to the denominator (found by matching the file to 5e-7).
# - **Intervals over clusters of pairs.** The paper gives no intervals; ours resample clusters of
#   pairs that share a sentence (Method), not pairs one by one, as this book's earlier versions
#   did: those treated the {glue:text}`sts3k_n_pairs_sharing:,.0f` pairs that share a sentence as
#   independent and gave intervals too narrow (the models chapter's Extensions measure by how
#   much). The Findings' reasons say which verdicts the wider intervals leave undecided.
# - **Alignment list.** The paper illustrates alignment with Agent/Patient, which is not in the
#   code's list (Location/Trajectory, Theme/Patient, Theme/Manner, Manner/Trajectory,
#   Patient/Location, Patient/Manner, tried in that order; once aligned a role is used up). The
#   eighth role is inconsistent within §4.6 itself: step 3 names Location, Trajectory, Manner
#   and "Place", step 8 weights "Time, Manner, Location, and Trajectory"; the code follows step 8
#   (Time).
# - **AMR-SMATCH** is matched triples / 12, not F1 (see the table above and the Findings). The
#   authors passed multi-line PENMAN strings to Smatch, whose reader then keeps the line break in
#   the concept of every node with children, so such a node never matches a leaf with the same
#   concept; `layout="one_line"` in `compsem.sts.amr` gives the clean version.
# - **AMR-CN** keys each node's own concept by its path, internal nodes included (no averaging over a
#   subtree's leaves, despite §4.6's wording), and leaves re-entrant references (`:poss z2`) as
#   variable names, which only match by string. It divides the summed role similarities by
#   $(n_1 + n_2)/2$, the mean number of paths of the two graphs, where Eq. 3 divides by the number
#   of roles found in either sentence (their union). The published AMR-CN file follows the code:
#   on every pair whose shared paths have identical fillers, where the value depends on the
#   denominator alone, it equals ours (`tests/test_sts_amr.py`).
# - **Numberbatch** is not available here, so the recomputed rows use GloVe and spaCy vectors
#   (substitutes); the reproductions from the published files do not depend on them.
# - **Betas from the pilot data.** §4.6 does not say how the pilot parameters were estimated or on
#   which scale they were rounded. We fit least squares with an intercept and rescale the three
#   coefficients to the paper's total 2 + 3 + 2 = 7 (only ratios matter to Eq. 2's ranking), with
#   substitute word vectors, as the pilot's role similarities were not published. The pilot has no
#   Theme and no minor role: Theme's 2 copies Patient and the 0.5s are the authors' intuition.
# - **Figure 8's error bars** are percentile-bootstrap intervals over the clusters of a category's pairs;
#   the authors drew t-intervals (`structure.category_profile` keeps those).
# - **Ties.** Eq. 2 gives many pairs the same similarity (7/11, for instance, when verb, agent
#   and patient have the same fillers in both sentences and no other role is present), but a
#   sum's last bits depend on its order and on the CPU's kernels, and Spearman's average ranks
#   then order these "ties" by rounding noise: rho on STS3k-adv moved in its fourth decimal
#   between the AVX2 and the AVX-512 kernels of one CPU. Every rank statistic here reads values
#   equal to ten decimals as ties (`compsem.stats.tie_values`); the authors' code, like scipy,
#   ranks the floats as they come.

# %% [markdown]
# ## Extensions
#
# ### Within a pair type: ranking pairs or ranking types?
#
# STS3k-adv mixes pair types whose mean human similarity differs widely (Figure 8). A model can
# reach a high correlation over the whole portion by putting the *types* in the right order
# (swaps low, added modifiers high) without ranking the pairs *within* a type. The Spearman
# correlation within each Figure 8 category (the chapter's reconstructed pair labels), with a
# BCa bootstrap interval (`compsem.stats.spearman_interval`), separates the two; the summary is
# the mean over categories weighted by their numbers of pairs.

# %%
within_series = {**hybrid_series, "DefSent": neural_series["DefSent"], "SentBERT": neural_series["SentBERT"],
                 "OpenAI": neural_series["OpenAI"], "Mean-CN": series["Mean-CN"]}
within = structure.within_category_spearman(within_series, human, labels, n_resamples=n_resamples, seed=stats_seed,
                                            clusters=clusters)
within_table, within_values = C.within_category_summary(within, list(within_series))
report.glue_all(within_values)
within_table.round(3)

# %% [markdown]
# Each hybrid minus each transformer in the weighted within-category rho, with a 95% paired
# percentile-bootstrap interval (the clusters of pairs resampled, stratified by the categories they hold, the same for every
# series, `compsem.sts.contrasts.weighted_within_draws`):

# %%
within_point, within_draws = contrasts.weighted_within_draws(within_series, human, labels,
                                                             n_resamples=n_resamples, seed=stats_seed,
                                                             clusters=clusters)
within_gaps = contrasts.within_gaps(within_point, within_draws, list(hybrid_series), ["DefSent", "SentBERT", "OpenAI"],
                                    family=UNION_FAMILIES["within_gaps"])
report.glue_all(C.interval_values(within_gaps))
pd.DataFrame(within_gaps).T.round(3)

# %% mystnb={"figure": {"caption": "Spearman rho with people within each Figure 8 pair category (95% BCa bootstrap intervals over the category's pairs), for the two hybrids and four non-compositional or neural models; no paper values exist (an extension). Look at whether the hybrids, far ahead on STS3k-adv as a whole, also lead within a category.", "name": "fig-sts3k-hybrid-within-category"}}
figures.within_category(within, within_series, hybrid_series, structure.FIGURE8_CATEGORIES)
plt.show()

# %% [markdown]
# Weighted over the categories, VerbNet-CN correlates {glue:text}`within_weighted_verbnet_cn:.3f` and
# AMR-CN {glue:text}`within_weighted_amr_cn:.3f` with people inside a category, against
# {glue:text}`within_weighted_defsent:.3f` for DefSent and {glue:text}`within_weighted_openai:.3f` for
# OpenAI (verdict in the Findings). Where the hybrids do not lead within the categories, their
# lead on STS3k-adv as a whole must lie between the categories, in ordering the *kinds* of pairs
# as people do; that is an inference, not a test (the categories here include non-adversarial
# ones, and no between-category rho is computed).

# %% [markdown]
# ### A role labeller for new sentences
#
# The hybrids need role parses. The authors used SemParse (a Docker service) and corrected its
# output by hand, which no reader can repeat on new sentences. `compsem.sts.roles` labels the same
# eight roles from spaCy's dependency parse with rules for voice, datives, prepositional phrases
# and adjuncts. We score it against the authors' corrected parses of all {glue:text}`hybrid_n_sentences:,.0f` STS3k sentences:
# per role, precision and recall of the role's presence and of its phrase (exact, after removing
# determiners and punctuation, and lenient: the phrases share their head word). The rules were
# written from these parses, so this is an **in-sample** score: how well the rules fit the
# sentences they were built on. The next section scores them on sentences they were not.

# %%
sentences = pd.concat([pairs["sentence_a"].rename("text").to_frame().assign(sentence="a"),
                       pairs["sentence_b"].rename("text").to_frame().assign(sentence="b")])
sentences = sentences.set_index("sentence", append=True).sort_index()
ours = roles.label_roles(sentences["text"].tolist())
ours.index = sentences.index
scores = roles.evaluate(ours, parses)
scores.round(3)

# %% mystnb={"figure": {"caption": "Our spaCy role labeller against the authors' hand-corrected parses of all STS3k sentences: F1 per role, exact phrase and lenient (same head word). Look at the core roles (Agent, Verb) against Patient and Theme, whose split depends on verb class.", "name": "fig-sts3k-hybrid-labeller"}}
figures.labeller_f1(scores)
plt.show()

# %% [markdown]
# The most frequent disagreements:

# %%
roles.error_classes(ours, parses, sentences["text"].tolist()).head(12)

# %% [markdown]
# What the labeller's errors cost: VerbNet-CN on our parses against VerbNet-CN on the authors'
# corrected parses, with the same word vectors. The difference is the honest measure of how far the
# hybrid carries to sentences nobody has parsed by hand.

# %%
vectors = get_encoder(labeller_vectors).word_vectors
ours_sims = hybrid.verbnet_cn(ours, word_vectors=vectors, stopwords=stopwords, denominator=denominator)
labeller_table = C.sts3k_table({f"corrected parses ({labeller_vectors})": theirs_sims,
                                f"our labeller ({labeller_vectors})": ours_sims}, pairs)
report.glue("labeller_sims_r", float(np.corrcoef(ours_sims, theirs_sims)[0, 1]))
labeller_table.round(3)

# %% [markdown]
# The two similarity series correlate at r = {glue:text}`labeller_sims_r:.3f` over the {glue:text}`hybrid_n_pairs:,.0f`
# pairs. In Figure 8's terms, the profiles and MADs of VerbNet-CN on the corrected parses and on
# ours (same word vectors):

# %%
series[f"VerbNet ({labeller_vectors}, our parses)"] = ours_sims
_, relative_labeller, mads_labeller = structure.figure8(series, labels)
compared_rows = [f"VerbNet ({labeller_vectors}, corrected parses)", f"VerbNet ({labeller_vectors}, our parses)"]
relative_labeller.loc[["Human", *compared_rows]].assign(MAD=mads_labeller).round(3)

# %% [markdown]
# ### The labeller on sentences it was not built on
#
# The authors also published VerbNet parses of three other sets, in workbooks like STS3k's (how
# far each departs from the raw SemParse output is measured in the next section; §4.6 describes
# hand correction for STS3k only): GS2011 (transitive
# sentences of Grefenstette & Sadrzadeh, 2011), STSS-131 (dictionary definitions, O'Shea et al.,
# 2014) and the 120 pilot pairs from which §4.6 fixed the betas. No rule was written from them.
# Before scoring any of them we made GS2011 the **development set** (a change to the rules may be
# judged on it and on STS3k) and STSS-131 and the pilot the **test sets** (scored once per change,
# never used to choose one). Each F1 is pooled over the roles, with a 95% percentile bootstrap
# interval over distinct sentences (a sentence that occurs in several pairs is resampled as one).
# The labeller is scored under both of its conventions for the verb's object
# (`roles.OBJECT_CONVENTIONS`: Patient or Theme by verb class, as the STS3k parses; always
# Patient), and under each set's **own** conventions (`labeller_scores.SET_CONVENTIONS`): the
# object convention its parses follow, and for STSS-131 a copula's complement kept outside the
# eight roles, as its workbook keeps it (`roles.COPULA_CONVENTIONS`). A third score reads Patient
# and Theme as one role, as Eq. 2 does: they have the same beta and each is aligned with the other
# when only one sentence of a pair has it. The margin, F1 within
# {glue:text}`labeller_margin:.2f` of the in-sample score
# (`labeller_scores.GENERALISATION_MARGIN`), was declared before any set was scored; the paper
# has no labeller, so it is ours, set at the largest change the paper reads as negligible when
# the parser is swapped (Table 11, App. 8.3.2: GPT-4 parses move VerbNet-CN's STS3k-non
# correlation from {glue:text}`paper_table9_verbnet_cn_sts3k_non:.3f` to
# {glue:text}`paper_verbnet_gpt4_glove50_sts3k_non:.3f`, "robust to the particular parsing
# method"), rounded down. F1 and rho are different units, so this is a convention, not a
# derivation; the table below gives each gap's intervals, so a reader can see how far each
# verdict stands from the margin.

# %%
generalisation = labeller_scores.generalisation(word_vectors=vectors, stopwords=stopwords, denominator=denominator,
                                                n_resamples=n_resamples, seed=stats_seed,
                                                family=UNION_FAMILIES["labeller_test_sets"])  # STSS-131 or the pilot
report.glue_all(labeller_scores.glue_values(generalisation))
report.glue("labeller_margin", labeller_scores.GENERALISATION_MARGIN)
report.glue_all({f"paper_{key}": targets[key]["paper"]
                 for key in ("table9_verbnet_cn_sts3k_non", "verbnet_gpt4_glove50_sts3k_non")})
labeller_scores.summary_table(generalisation["scores"])

# %% mystnb={"figure": {"caption": "The role labeller's F1 over the roles against the authors' corrected parses, in sample (STS3k, which the rules were written from), on the development set and on the two test sets, with 95% bootstrap intervals over sentences; left the eight roles, right Patient and Theme read as one role, as Eq. 2 reads them; one marker per convention (objects by verb class, objects always Patient, each set's own conventions). Dashed lines: the in-sample F1 of each convention; shaded: the declared margin of .03 below it. No paper values exist (an extension). Look at the pilot, which moves with the object convention, against STSS-131, which stays far below under its own conventions too.", "name": "fig-sts3k-hybrid-labeller-out-of-sample"}}
labeller_scores.plot_generalisation(generalisation["scores"], labeller_scores.GENERALISATION_MARGIN)
plt.show()

# %% [markdown]
# In sample the labeller reaches a lenient F1 of {glue:text}`labeller_f1_lenient_sts3k_verb_class:.3f`;
# on the test sets it reaches {glue:text}`labeller_f1_lenient_stss_131_verb_class:.3f` (STSS-131) and
# {glue:text}`labeller_f1_lenient_fodor_pilot_2022_verb_class:.3f` (the pilot), far outside the margin
# (Findings). Two different things lie behind the gap.
#
# **A convention, not an error.** The sets' corrected parses name a lone object differently:
# among the sentences with one object, GS2011's call it Patient in
# {glue:text}`labeller_share_patient_gs2011:.0%` and the pilot's in
# {glue:text}`labeller_share_patient_fodor_pilot_2022:.0%` of cases, STS3k's in only
# {glue:text}`labeller_share_patient_sts3k:.0%` (the rest Theme, by verb) and STSS-131's in
# {glue:text}`labeller_share_patient_stss_131:.0%`. The development set showed it, and the
# labeller's `objects="patient"` convention follows it: GS2011 then scores
# {glue:text}`labeller_f1_lenient_gs2011_patient:.3f`, the pilot
# {glue:text}`labeller_f1_lenient_fodor_pilot_2022_patient:.3f`, and STS3k falls to
# {glue:text}`labeller_f1_lenient_sts3k_patient:.3f`: no one convention fits every set's parses.
# VerbNet-CN does not see the difference. With Patient and Theme pooled, the pilot scores
# {glue:text}`labeller_f1_pooled_fodor_pilot_2022_verb_class:.3f` and GS2011
# {glue:text}`labeller_f1_pooled_gs2011_verb_class:.3f`, against
# {glue:text}`labeller_f1_pooled_sts3k_verb_class:.3f` in sample.
#
# **A gap on definitions.** STSS-131's sentences are definitions and short stories: a copula, then a
# noun phrase with relative clauses, or two clauses joined. There the labeller stays at
# {glue:text}`labeller_f1_pooled_stss_131_verb_class:.3f` with the objects pooled, under either
# convention. Part of it is again a convention: the STSS-131 workbook keeps
# {glue:text}`labeller_attribute_stss_131` copula complements in a ninth column, Attribute, which
# Eq. 2 does not read, while our labeller calls them Theme unless told otherwise. Under
# STSS-131's own conventions (complements as Attribute) it scores
# {glue:text}`labeller_f1_lenient_stss_131_own:.3f`
# [{glue:text}`labeller_f1_lenient_stss_131_own_low:.3f`,
# {glue:text}`labeller_f1_lenient_stss_131_own_high:.3f`], still
# {glue:text}`labeller_gap_lenient_stss_131_own:.3f` below STS3k. What the rest of the gap is, the
# next section shows: the STSS-131 workbook is the parser's output, which describes a sentence with
# several verbs through one of them, and not always the one our labeller describes. A reader who
# applies VerbNet-CN to sentences unlike STS3k's should expect a worse labeller than the STS3k
# score says.
#
# What the errors cost VerbNet-CN on each set besides STS3k: Spearman rho with the set's human
# ratings on the corrected parses and on ours (same word vectors), and the difference with a paired
# bootstrap interval over pairs.

# %%
generalisation["downstream"].set_index(["convention", "set"]).drop(columns="key").round(3)

# %% [markdown]
# On the pilot, VerbNet-CN on our parses differs from VerbNet-CN on the corrected parses by
# {glue:text}`labeller_vn_difference_fodor_pilot_2022_verb_class:.3f`
# [{glue:text}`labeller_vn_difference_fodor_pilot_2022_verb_class_low:.3f`,
# {glue:text}`labeller_vn_difference_fodor_pilot_2022_verb_class_high:.3f`]; on STSS-131 by
# {glue:text}`labeller_vn_difference_stss_131_verb_class:.3f`
# [{glue:text}`labeller_vn_difference_stss_131_verb_class_low:.3f`,
# {glue:text}`labeller_vn_difference_stss_131_verb_class_high:.3f`]. An interval that excludes 0
# below it is a measurable cost of the labeller to VerbNet-CN; one that includes 0 is none that
# these pairs can show (an equivalence would need a declared margin and more pairs).

# %% [markdown]
# ### What each workbook corrected: SemParse's output beside the corrected parses
#
# §4.6 says the parses were made by SemParse and then corrected by hand. The authors released
# SemParse's raw output of every set beside the workbooks (`labeller_scores.SEMPARSE_OUTPUT`), so
# the correction can be measured: how many distinct sentences' corrected parse differs from the
# raw one in any of the eight roles, and the raw output scored against the corrected parses as our
# labeller is. Where a workbook turns out to be the parser's output, scoring our labeller against
# it measures agreement with SemParse, not with a hand-corrected parse; the like-for-like
# counterpart of the in-sample score is then our labeller against SemParse on both sets, each
# labelled under SemParse's conventions (`labeller_scores.SEMPARSE_CONVENTIONS`: objects by verb
# class, a copula's complement as Attribute). That comparison is a claim declared, with the same
# margin of {glue:text}`labeller_margin:.2f` and the same bar, before it was computed (Findings).

# %%
corrections = labeller_scores.hand_corrections(n_resamples=n_resamples, seed=stats_seed)
agreement = labeller_scores.semparse_agreement(n_resamples=n_resamples, seed=stats_seed)
predicates = labeller_scores.predicate_split(n_resamples=n_resamples, seed=stats_seed)
report.glue_all(labeller_scores.semparse_values(corrections, agreement, predicates))
labeller_scores.semparse_table(corrections, agreement)

# %% mystnb={"figure": {"caption": "Lenient F1 over the eight roles, per set, with 95% bootstrap intervals over sentences: our labeller against the corrected parses (each set under its own conventions), SemParse's raw output against the corrected parses, and our labeller against SemParse's raw output. Dashed line: our labeller's agreement with SemParse on STS3k; shaded: the declared margin of .03 below it. No paper values exist (an extension). Look at STSS-131, where SemParse and the corrected parses agree almost perfectly: its workbook is the parser's output.", "name": "fig-sts3k-hybrid-labeller-semparse"}}
labeller_scores.plot_semparse(generalisation["scores"], corrections, agreement, labeller_scores.GENERALISATION_MARGIN)
plt.show()

# %% [markdown]
# The authors' hand correction changed {glue:text}`labeller_semparse_changed_sts3k` of STS3k's
# {glue:text}`labeller_distinct_sts3k` distinct sentences
# ({glue:text}`labeller_semparse_share_changed_sts3k:.0%`),
# {glue:text}`labeller_semparse_changed_gs2011` of GS2011's {glue:text}`labeller_distinct_gs2011`
# and {glue:text}`labeller_semparse_changed_fodor_pilot_2022` of the pilot's
# {glue:text}`labeller_distinct_fodor_pilot_2022` (objects renamed Patient, subjects mended), but only
# {glue:text}`labeller_semparse_changed_stss_131` of STSS-131's
# {glue:text}`labeller_distinct_stss_131`: against its workbook SemParse scores
# {glue:text}`labeller_semparse_f1_lenient_stss_131:.3f`, against STS3k's corrected parses
# {glue:text}`labeller_semparse_f1_lenient_sts3k:.3f`. The STSS-131 test set is therefore a test of
# agreement with SemParse. Like for like, our labeller agrees with SemParse on
# {glue:text}`labeller_vs_semparse_f1_lenient_sts3k:.3f` of STS3k's roles and
# {glue:text}`labeller_vs_semparse_f1_lenient_stss_131:.3f` of STSS-131's, a gap of
# {glue:text}`labeller_vs_semparse_gap_lenient_stss_131:.3f`
# [{glue:text}`labeller_vs_semparse_gap_lenient_stss_131_low:.3f`,
# {glue:text}`labeller_vs_semparse_gap_lenient_stss_131_high:.3f`]: narrower than against the
# workbook, still beyond the margin (Findings).
#
# Where that gap comes from we looked at only after the claim was decided, so it carries no
# verdict. SemParse's output is one VerbNet frame per sentence, so a sentence with several verbs is
# described through one of them ("A magician is a person who entertains people ...": *entertains*;
# "If you describe a place as a madhouse you mean ...": *describe*), while our labeller describes
# the root (*is*, *mean*). Split by whether the two describe the same verb
# (`labeller_scores.predicate_split`): on the sentences where they do
# ({glue:text}`labeller_vs_semparse_the_same_verb_share_sts3k:.0%` of STS3k's,
# {glue:text}`labeller_vs_semparse_the_same_verb_share_stss_131:.0%` of STSS-131's) the labeller
# agrees with SemParse on {glue:text}`labeller_vs_semparse_the_same_verb_f1_lenient_sts3k:.3f` and
# {glue:text}`labeller_vs_semparse_the_same_verb_f1_lenient_stss_131:.3f` of the roles, a gap of
# {glue:text}`labeller_vs_semparse_the_same_verb_gap_lenient_stss_131:.3f`
# [{glue:text}`labeller_vs_semparse_the_same_verb_gap_lenient_stss_131_low:.3f`,
# {glue:text}`labeller_vs_semparse_the_same_verb_gap_lenient_stss_131_high:.3f`]; on the others,
# {glue:text}`labeller_vs_semparse_another_verb_f1_lenient_sts3k:.3f` and
# {glue:text}`labeller_vs_semparse_another_verb_f1_lenient_stss_131:.3f`. So, on these sets, the
# roles of a verb carry over to the definitions; what does not is the choice of the verb a
# one-frame parse describes, a choice STSS-131's multi-clause sentences force more often. Where
# the authors did correct the parses, they sided with our choice: in STS3k's sentences whose
# SemParse verb differs from ours, the corrected parse describes our verb in
# {glue:text}`labeller_vs_semparse_another_verb_corrected_as_ours_sts3k:.0%` and SemParse's in
# {glue:text}`labeller_vs_semparse_another_verb_corrected_as_semparse_sts3k:.0%` (SemParse often
# takes a participle used as an adjective, "The *tired* pilot sometimes escorts ...", or a noun,
# "The spinal *injury* showed signs of recovery"); in STSS-131's, the workbook keeps SemParse's in
# {glue:text}`labeller_vs_semparse_another_verb_corrected_as_semparse_stss_131:.0%`. Eq. 2 compares
# one frame per sentence, and §4.6 does not say which verb of a multi-clause sentence it should be.

# %% [markdown]
# ### Changes to the labeller, judged on the development set
#
# Each change we tried on the labeller is measured once on every set, each set under its own
# conventions, against the labeller as written (`labeller_scores.CHANGES`): a larger spaCy
# pipeline, en_core_web_md, which should parse unseen sentences better; and the object's Patient or
# Theme from the verb's WordNet class alone, without the verb lists written from STS3k's parses,
# which should fit STS3k less and other sets no worse. The rule that decides, written from the
# chapter's earlier statement that a change may be judged on GS2011 and on STS3k, is
# `labeller_scores.KEEP_RULE`: a change is kept when the development set's lenient F1 rises (the
# 95% paired bootstrap interval of the difference lies above 0) and STS3k's does not fall (its
# interval is not wholly below 0). The test sets are reported, never consulted.

# %%
changes = labeller_scores.change_log(n_resamples=n_resamples, seed=stats_seed)
report.glue_all(labeller_scores.change_values(changes))
labeller_scores.change_table(changes).round(3)

# %% mystnb={"figure": {"caption": "Each change to the role labeller against the labeller as written: the difference in lenient F1 over the eight roles on each set, each set under its own conventions, with 95% paired bootstrap intervals over sentences. Filled markers: the sets that decide (development set, STS3k); open: the test sets, reported only. No paper values exist (an extension). Look at the development set's marker against STS3k's: a change must move the first above 0 without moving the second below it.", "name": "fig-sts3k-hybrid-labeller-changes"}}
labeller_scores.plot_changes(changes)
plt.show()

# %% [markdown]
# The larger pipeline repairs parses of the development set
# ({glue:text}`labeller_change_en_core_web_md_parses_gs2011_difference:+.3f`
# [{glue:text}`labeller_change_en_core_web_md_parses_gs2011_difference_low:+.3f`,
# {glue:text}`labeller_change_en_core_web_md_parses_gs2011_difference_high:+.3f`]) but moves STS3k by
# {glue:text}`labeller_change_en_core_web_md_parses_sts3k_difference:+.3f`
# [{glue:text}`labeller_change_en_core_web_md_parses_sts3k_difference_low:+.3f`,
# {glue:text}`labeller_change_en_core_web_md_parses_sts3k_difference_high:+.3f`]; the rules were
# written against en_core_web_sm's parses, which may be why a better parser does not help them
# there (we have not checked which sentences lose). On the test sets it moves STSS-131 by
# {glue:text}`labeller_change_en_core_web_md_parses_stss_131_difference:+.3f` and the pilot by
# {glue:text}`labeller_change_en_core_web_md_parses_fodor_pilot_2022_difference:+.3f`. Removing
# the verb lists taken from STS3k moves STS3k by
# {glue:text}`labeller_change_no_sts3k_verb_lists_sts3k_difference:+.3f` and STSS-131 by
# {glue:text}`labeller_change_no_sts3k_verb_lists_stss_131_difference:+.3f`
# [{glue:text}`labeller_change_no_sts3k_verb_lists_stss_131_difference_low:+.3f`,
# {glue:text}`labeller_change_no_sts3k_verb_lists_stss_131_difference_high:+.3f`]: what the lists
# add is almost all in sample. The table's last column gives each decision.
#
# Why a rule over verb classes cannot replace those lists: how far the verb's WordNet class
# predicts whether STS3k's corrected parses call a lone object Patient or Theme
# (`labeller_scores.object_naming`), each verb held out as a new verb would be.

# %%
naming = labeller_scores.object_naming(n_resamples=n_resamples, seed=stats_seed)
report.glue_all({f"labeller_naming_{key}": value for key, value in naming.items()})
pd.Series(naming).round(3)

# %% [markdown]
# Among STS3k's {glue:text}`labeller_naming_sentences` distinct sentences with one object
# ({glue:text}`labeller_naming_verbs` verbs), the set's majority label is right for
# {glue:text}`labeller_naming_constant:.1%`; the majority label of the verb's WordNet lexname,
# learned from the other verbs, for {glue:text}`labeller_naming_lexname:.1%` (a gain of
# {glue:text}`labeller_naming_lexname_gain:.3f`
# [{glue:text}`labeller_naming_lexname_gain_low:.3f`,
# {glue:text}`labeller_naming_lexname_gain_high:.3f`]); each verb's own majority label for
# {glue:text}`labeller_naming_verb:.1%`, and {glue:text}`labeller_naming_mixed_verbs` verbs get
# both labels. What names the object in these parses belongs to the verb, not to its WordNet
# class. A labeller that names the objects of new verbs as the authors would needs VerbNet's own
# class membership (the classes SemParse reads), which this labeller does not read.

# %% [markdown]
# ### Generated pairs: how each model reacts to each manipulation
#
# The generator (`compsem.sts.generator`) builds STS3k-style pairs from a small lexicon with gold
# roles: single changes, swaps of two, three and four elements, added modifiers of each kind,
# passives, paraphrases by synonym. It never produces ratings; instead, it lets us (a) check that
# the labeller recovers the roles when words trade places, and (b) measure each model's mean
# similarity per manipulation with no human data.

# %%
generated = generator.generate(n_per_type, seed=generator_seed)
generated.groupby("category").head(1)[["category", "sentence_a", "sentence_b"]].head(18)

# %%
gold = generator.gold_roles(generated)
predicted = C.label_generated(generated)
roles.evaluate(predicted, gold).round(3)

# %% [markdown]
# Patient and Theme can disagree by *convention*: the generator calls every direct object
# Patient and the indirect object Theme, while the authors' corrected parses, which the labeller
# imitates, split direct objects into Patient or Theme by verb class. The test that matters for swaps is whether the words that trade places land in the
# right roles, so we collapse the object roles (Patient, else Theme) and score Agent, Verb and
# object per manipulation:

# %%
recovery = C.role_recovery(generated, predicted, gold)
recovery.round(3)

# %% mystnb={"figure": {"caption": "Mean model similarity per manipulation on generated pairs (no human ratings). Look at the swaps: a model that ignores roles cannot tell them from near-identical pairs; VerbNet on gold roles and on our labeller's roles shows what role information changes.", "name": "fig-sts3k-hybrid-generated"}}
profile = C.generated_profile(generated, generator_models, gold, predicted, labeller_vectors, vectors, stopwords,
                              denominator)
figures.generated_profile(profile, [c for c in generator.CATEGORIES if c in profile.index])
plt.show()

# %% [markdown]
# ## Reproduce
#
# ```bash
# make run CHAPTER=sts3k-hybrid
# make run CHAPTER=sts3k-hybrid ARGS='-p denominator present -p labeller_vectors spacy-md'
# ```

# %% tags=["remove-input"]
report.glue_findings("sts3k-hybrid")
