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
# # COGS: sequence-to-sequence models and where they fail to generalize
#
# **The question.** Kim {cite}`kim2021dissertation` (Chapter 4; {cite}`kim2020cogs`) trains
# Transformers {cite}`vaswani2017attention` and LSTMs with attention {cite}`luong2015effective`
# to map English sentences to logical forms and finds them near-perfect on new sentences like
# the training ones (dev and test) but poor on the 21 generalization cases, and at zero on the
# three *structural* ones: a PP on a subject, deeper CP and PP
# recursion. This chapter re-implements the models and their training in plain PyTorch and asks:
#
# - **Does the gap reproduce?** The paper's grid (Table 4-5: Transformer, BiLSTM and LSTM, 5
#   seeds, 1 and 100 exposure examples; Figure 4-3: 1-, 2- and 6-layer Transformers) from GPU
#   runs whose result files the chapter reads, and a reduced Transformer trained here on a CPU
#   (default profile).
# - **Where do the models fail?** The error analyses of Section 4.5: well-formedness,
#   structurally correct outputs with wrong words, premature ends on deep recursion, accuracy by
#   depth and by output length, common vs proper nouns, the structure of Active → Passive errors.
#
# The symbolic reference parser of the data chapter (`cogs-data`) is the upper line on every
# plot: a grammar with a compositional interpreter, scored on every split and case in that
# chapter's Findings, so that a model's shortfall can be told from the data's. Beside exact match we report a **semantic** match (same meaning up to the
# order of conjuncts and the names of the indices).
#
# *Time to read: 25 minutes. Prerequisites: the data chapter, encoder-decoder models, attention.*

# %% [markdown]
# ## Findings
#
# ```{glue:md} findings_headline
# :format: myst
# ```
#
# ```{glue} findings_table
# ```
#
# **Table 4-5 beside ours.** The paper's mean of 5 seeds for every case and for the gen, lexical
# and structural means (Figure 4-1), against our mean and its 95% t-interval over our seeds, for
# the Transformer with one exposure ({glue:text}`cogs_tf1_n_seeds` seeds, trained by the paper's
# rule); the 100-exposure Transformer follows, and the LSTM columns of Table 4-5 are pending GPU
# runs (*The paper's grid* below). The paper's mean, read at its printed precision (two
# decimals: a printed .30 stands for .295 to .305), meets our interval for
# {glue:text}`cogs_tf1_cells_paper_inside` of the {glue:text}`cogs_tf1_cells` cells. This is a
# count, not a test of agreement: an interval over so few seeds is wide and holds much, and the
# per-case comparisons with the paper's seed spread are in *The paper's grid*. The last column
# tests each case against the paper's mean, the 21 cases as one family: Welch's test of our
# seeds (with their own SD) against the paper's mean of 5 (with the seed SD the case's target
# assumes, Deviations and errata), its p adjusted by Holm's method over the
# {glue:text}`cogs_tf1_cases_tested` cases (family-wise 5%); {glue:text}`cogs_tf1_cases_holm` of
# them have an adjusted p of 5% or less (the smallest is
# {glue:text}`cogs_tf1_cases_holm_min_p:.3f`).
#
# ```{glue} cogs_findings_table45
# ```
#
# **Table 4-5's 100-exposure Transformer column beside ours**, in the same layout
# ({glue:text}`cogs_tf100_n_seeds` seeds trained by the paper's rule on the rebuilt `train_100`;
# *The Transformer with 100 exposures* below). The paper's mean, at its printed precision,
# meets our interval for
# {glue:text}`cogs_tf100_cells_paper_inside` of the {glue:text}`cogs_tf100_cells` cells; our
# interval lies below it for {glue:text}`cogs_tf100_cells_ours_below` and above it for
# {glue:text}`cogs_tf100_cells_ours_above`. Of the {glue:text}`cogs_tf100_primitive_cells`
# primitive cases, our interval holds the paper's mean for
# {glue:text}`cogs_tf100_primitive_cells_paper_inside` and lies below it for
# {glue:text}`cogs_tf100_primitive_cells_ours_below`; their mean is below the paper's, for
# reasons the section weighs and leaves open.
#
# ```{glue} cogs_findings_table45_100
# ```

# %% [markdown]
# ## Parameters

# %% tags=["parameters"]
reduced_model = "transformer-reduced"  # CPU model of the reduced run (d_model 128)
reduced_max_steps = 2500  # updates of the reduced run (one batch of 128 sentences each)
reduced_exposures = 100  # exposure examples per primitive of the reduced run (1 or 100)
reduced_per_case = 0  # gen examples per case decoded in the reduced run (0 means all 1000)
reduced_per_split = 0  # dev and test examples decoded in the reduced run (0 means all 3000)
reduced_seeds = [1, 2, 3, 4, 5]  # seeds of the reduced run (the first is also traced over updates)
reduced_keep_every = 250  # keep the first reduced seed's weights every N updates (when it trains)
reduced_beam_per_case = 100  # gen examples per case of the reduced runs' beam-5 sample
reduced_beam_per_split = 500  # dev and test examples of that sample
train_missing = True  # train reduced seeds whose results are missing (else pending)
grid_models = ["transformer", "bilstm", "lstm"]  # Table 4-5 models
grid_seeds = [1, 2, 3, 4, 5]  # Table 4-5 seeds
grid_exposures = [1, 100]  # exposure examples per primitive (Section 4.5.7)
size_models = ["transformer-small", "transformer-large"]  # Figure 4-3, beside the 2-layer
grid_train = False  # train missing runs of the paper grid here (needs a GPU; full profile)
device = "auto"  # auto (GPU when present), cpu or cuda
threads = 0  # CPU threads for torch (0 means the torch default)
results_dir = ""  # reduced-run results: empty for data/results/cogs-models, cache, or an existing folder
grid_amp = True  # bfloat16 autocast when training the grid on a GPU (False: float32, as the paper)
lstm_embedding_dropout = 0.0  # 0.0: none, as the released code ran; None: the model's 0.1, as the text
grid_keep_every = 500  # keep the grid's weights every N updates, for accuracy over updates
curve_per_case = 100  # gen examples per case scored at each kept update (the curve)
curve_per_split = 500  # dev and test examples scored at each kept update

# %%
import matplotlib.pyplot as plt
import torch
from IPython.display import HTML, display
from myst_nb import glue as glue_display

from compsem import parameters, report
from compsem.cogs import corpus, figures
from compsem.cogs import models_chapter as chapter
from compsem.cogs import summary as s45
from compsem.cogs.seq2seq import config as cfg
from compsem.cogs.seq2seq import experiment
from compsem.cogs.seq2seq import results as res
from compsem.cogs.seq2seq.vocab import cogs_vocabularies
from compsem.data import cogs

report.set_theme()
parameters.check_gpu("grid_train", grid_train, device)  # before any data loads
res.results_root(results_dir, must_exist=True)  # a misspelt results_dir fails here, before any training
if threads:
    torch.set_num_threads(threads)
results = {}  # every number the chapter glues, by key (glued under "Results beside the paper")
targets = report.load_targets("cogs-models")
paper = {key: target["paper"] for key, target in targets.items()}  # for plots beside ours

# %% [markdown]
# ## Data
#
# The released splits (chapter `cogs-data` checks them in detail). Models are trained on
# `train` (one exposure example per held-out primitive) or on the rebuilt `train_100` (100), are
# early-stopped on `dev`, and are evaluated on `dev`, `test` (in distribution) and `gen` (21
# cases of 1,000 sentences). Tokens are whitespace-separated; the vocabularies are built from
# all splits, as the released scripts did.

# %%
gold = {split: cogs.load(split) for split in ("dev", "test", "gen")}
train_100 = experiment.training_frame(100)
src_vocab, tgt_vocab = cogs_vocabularies()
corpus.length_summary(
    {"train (1 exposure)": cogs.load("train"), "train_100 (100 exposures)": train_100, **gold}
).round(1)

# %% [markdown]
# `train_100` is rebuilt (`compsem.cogs.exposure`): `train.tsv` without its 15 exposure rows, plus
# the 1,500 rows of `cogs-with-pretraining`. The upstream file is not in the data mirror; its git
# blob id is, and it is the only check available. `train.tsv` written back from its loader frame
# has upstream's blob id (so the serialisation is right); of the
# {glue:text}`cogs_train100_candidates` plausible orderings of the rebuilt rows (the added rows
# after or before the rest, with or without the original 15, in place of them, other line ends),
# {glue:text}`cogs_train100_candidates_matching` has upstream's (Deviations and errata).

# %%
blobs, values = chapter.train_100_blobs(cogs.load("train"), cogs.load("exposure-1"), cogs.load("exposure-100"))
results |= {"cogs_train100_rows": len(train_100), **values}
blobs

# %% [markdown]
# The 21 generalization cases (Table 4-1) and their kind: 18 need *lexical* generalization (a
# known word in a new role or construction), 3 *structural* generalization (a new structure).

# %%
corpus.case_table(cogs.load_case_sections(), gold["gen"])

# %% [markdown]
# ## Method
#
# **Models** (Section 4.5.1; the released OpenNMT-py scripts fill in what the text leaves
# open). Both map a source sequence $x_{1..S}$ to $p(y_t \mid y_{<t}, x)$ with a separate
# generator $\operatorname{softmax}(W h_t + b)$.
#
# - *Transformer*: embeddings scaled by $\sqrt{d}$ plus sinusoidal positions; pre-norm layers
#   $h \leftarrow h + \mathrm{Dropout}(\mathrm{Sublayer}(\mathrm{LayerNorm}(h)))$ with multi-head
#   attention $\operatorname{softmax}(QK^\top/\sqrt{d_k})V$ and a ReLU feed-forward block; Xavier
#   initialisation; 2+2 layers, $d = 512$, feed-forward 512, 4 heads (9.5M parameters), and the
#   1-layer (5.3M) and 6-layer ($d_{ff}$ 2048, 8 heads, 45M) variants of Figure 4-3.
# - *LSTM*: 2-layer encoder (unidirectional 512, or bidirectional 2 x 256) and an input-feeding
#   decoder: the input at step $t$ is $[y_{t-1}; \tilde h_{t-1}]$, global dot attention
#   $a_t = \operatorname{softmax}(H_s h_t)$, $c_t = a_t^\top H_s$, attentional state
#   $\tilde h_t = \tanh(W_c [c_t; h_t])$ (Luong et al. 2015, Eq. 5); 11M and 10M parameters.
#
# **Training** as the released scripts (which correct the dissertation's "batch size of 128"):
# batches of 128 length-bucketed sentences, 4 accumulated per Adam update ($\beta_2$ 0.998), the
# loss summed over tokens and divided by sentences; the noam schedule
#
# $$\mathrm{lr}(s) = 2 \cdot d^{-1/2} \min\left(s^{-1/2},\ s \cdot 4000^{-3/2}\right);$$
#
# label smoothing 0.1 for the Transformers, gradient clipping at 5 for the LSTMs; validation
# every 500 updates, early stopping after 5 validations without a lower dev loss, at most 30,000
# updates; the weights of the best validation are kept. **Decoding**: beam search of width 5
# (OpenNMT-py's default, which the scripts used), outputs capped at 1,000 tokens.
#
# **Metric**: exact match of the whole output (Section 4.2); the generalization accuracy is the
# mean over the 21 cases, split into lexical and structural means (Figure 4-1).
#
# The parameter counts, built with the COGS vocabularies
# ({glue:text}`cogs_vocab_source` source and {glue:text}`cogs_vocab_target` target ids):

# %%
results |= chapter.model_sizes(len(src_vocab), len(tgt_vocab), reduced_model)
report.style_comparison(report.compare(results, "cogs-models", prefixes="cogs_params_"))

# %% [markdown]
# The comparison gives each count beside the dissertation's (claim *parameter-counts* in the
# Findings); the reduced model of the CPU run further below has
# {glue:text}`cogs_reduced_parameters:,.0f`.
#
# ## Results
#
# ### The paper's grid (Table 4-5 and Figure 4-3)
#
# Each cell of Table 4-5 is the mean over 5 seeds of a model trained with the full protocol
# above; the runs need a GPU. They are run with `python -m compsem.cogs.seq2seq.train --grid`
# (or the `full` profile of this chapter), which writes one result folder per configuration
# (`data/results/cogs-models/<hash>/`, with the device, wall time, seed, updates and why
# training stopped); this chapter reads whatever runs are committed and marks the rest
# **pending (needs a GPU)**.
#
# **What has been run.** GPU runs (on an H100) produced:
#
# - **Transformer, seeds 1-5, one exposure, trained by the paper's rule** (early stopping on
#   dev loss; the updates are in the runs table below), under bfloat16 autocast. The best
#   weights of seeds 1-3 were kept as a bfloat16 copy and were
#   decoded **greedily on the CPU** in float32 (beam 5 over 27,000 sentences takes hours per run
#   on a CPU: `benchmarks/results/bench_cogs_cpu2.txt` gives its sentences per second), and with
#   beam 5 on a sample; seeds 4-5, trained later two at a time on
#   one GPU, were decoded there with beam 5 on the whole sets, the paper's decoding. These runs
#   fill Table 4-5's Transformer column with the paper's 5 seeds (targets marked *partial*: the
#   precision, and the decoding of seeds 1-3, are not the paper's).
# - **Transformer, seeds 1-5, 100 exposures, trained by the paper's rule** on the rebuilt
#   `train_100`, five at a time on one GPU under bfloat16 autocast, and decoded there with beam
#   5 on the whole sets, the paper's decoding (*The Transformer with 100 exposures* below). Their
#   training ran in two commands: the first reached its time limit before the stopping rule, and
#   the second resumed each run from its checkpoint (weights, optimizer, learning-rate schedule,
#   random-number state and position in the batch order are restored, so a resumed run sees the
#   batches an uninterrupted one would) and trained it to the rule. Their targets are
#   *partial*: the protocol is the paper's, apart from the precision and the rebuilt training set
#   (Deviations and errata).
# - **The 1-layer Transformer (5.3M parameters), seeds 1-5, one exposure, trained by the
#   paper's rule** on one GPU under bfloat16 autocast and decoded there with beam 5 on the whole
#   sets: Figure 4-3's smallest size, beside the 2-layer column (the 6-layer runs are still to
#   do).
# - **Runs of a superseded configuration** (listed below, not part of the grid and not compared
#   with the paper): LSTM and BiLSTM seeds trained with the text's embedding dropout, which the
#   grid no longer uses (Deviations and errata), and cut by the time budget (stop reason *time
#   limit*) still in the learning-rate warm-up. The grid's own LSTM and BiLSTM runs are still
#   to do.
# - **Attention kernel.** On a GPU, PyTorch's cuDNN attention kernel builds a plan for every new
#   input shape; with COGS's length-bucketed batches updates and beam search ran many times
#   slower with it than without (`benchmarks/results/bench_cogs_h100.txt` gives the figures), so
#   the Transformer leaves that kernel out.
#
# `benchmarks/bench_cogs.py` prints each model's training and decoding throughput on the
# machine at hand.

# %%
grid = cfg.paper_grid(grid_models, grid_seeds, grid_exposures, size_models, lstm_embedding_dropout)
if grid_train:
    chapter.train_grid(grid, device, grid_amp, grid_keep_every)
collected_all = res.collect(grid, any_decoding=True)  # a greedy decoding stands in for beam 5
collected = chapter.finished_runs(collected_all)  # runs trained by the paper's stopping rule
reference_by_case, reference_splits = chapter.reference_scores(gold)
results |= chapter.grid_counts(collected_all, len(grid))
chapter.runs_table(collected_all, len(grid))

# %% [markdown]
# Of the {glue:text}`cogs_grid_runs_total` runs of the grid, {glue:text}`cogs_grid_runs_done`
# were trained by the paper's stopping rule and {glue:text}`cogs_grid_runs_cut` were cut short by
# the time budget. The runs cut short, for what they show (not compared with the paper: their
# training did not reach its stopping rule):

# %%
cut_runs = chapter.cut_runs_table(collected_all)
if len(cut_runs):
    display(cut_runs.round(3))
else:
    print("no runs cut short")

# %% [markdown]
# The LSTM and BiLSTM runs of the **superseded configuration**, with the text's embedding
# dropout instead of the released code's none ({glue:text}`cogs_grid_runs_superseded` runs; a
# configuration with its own hash, not part of the grid; Deviations and errata): how far
# training had got when it stopped (updates, stop reason and accuracies; the learning-rate
# warm-up lasts 4,000 updates). They are not compared with the paper.

# %%
superseded = res.collect(
    chapter.superseded_grid(grid_models, grid_seeds, grid_exposures, lstm_embedding_dropout),
    any_decoding=True,
)
results["cogs_grid_runs_superseded"] = superseded.hash.nunique()
superseded_runs = chapter.superseded_runs_table(superseded)
superseded_runs.round(3) if len(superseded_runs) else print("no runs of another configuration")

# %% [markdown]
# Table 4-5 with ours (mean ± SD over the seeds trained by the stopping rule, and their number)
# beside the paper's mean of 5 seeds, folded below the summary of its comparison (one row per
# model, exposures and case):

# %% tags=["full-width"]
per_run = s45.run_level(collected)
table45, table45_means = s45.table_4_5(
    collected, per_run, grid_models, grid_exposures, paper, cfg.LABELS
)
results |= table45_means
display(
    HTML(
        report.folded(
            table45,
            "Table 4-5 laid out as in the paper: ours as mean ± SD over the seeds (n), "
            "the paper's mean of 5 seeds",
        )
    )
)
report.show_comparison(
    report.compare(results, "cogs-models", keys=[k for k in targets if k.startswith("cogs_t45_")]),
    "cells of Table 4-5",
)

# %% [markdown]
# The grid's means (gen, and its lexical and structural parts) beside the paper. A target marked
# *not-run* is pending a GPU run. One marked *partial* (the paper's 5 seeds, trained under
# bfloat16, seeds 1-3 decoded greedily) is held to a tolerance derived from the paper's seed spread, as its
# source in `data/targets/cogs-models.json` states; where ours lies further away the targets file
# expects it, and Deviations and errata say why. Per model, the Findings also decide whether
# generalization falls far below test accuracy and varies over seeds (claim
# *models-generalize-poorly*; for the Transformer, test minus gen
# {glue:text}`cogs_poor_transformer_gap:.3f` and a gen SD over seeds of
# {glue:text}`cogs_poor_transformer_gen_sd:.3f`), undecided until the LSTM and the BiLSTM have
# runs of the grid:

# %%
results |= chapter.generalize_poorly(per_run)  # claim models-generalize-poorly, per model
grid_keys = chapter.grid_mean_keys(grid_models, grid_exposures)
report.show_comparison(
    report.compare(results, "cogs-models", keys=[k for k in grid_keys if k in targets]),
    "means of the grid (gen, lexical and structural, per model and exposures)",
)

# %% [markdown]
# #### The Transformer over its seeds
#
# The quantities the Findings check, per seed of the Transformer with one exposure, with their
# mean and a 95% t-interval over the seeds ($\bar x \pm t_{0.975,\,n-1}\, s/\sqrt n$, cut to
# the range an accuracy can take, [0, 1], or [-1, 1] for a difference of two: with a few seeds
# the interval of a case near 0 or 100% would otherwise reach past it; so are all the COGS
# t-intervals of accuracies below). The last
# row is our gen mean minus the paper's, with Welch's interval, which also uses the paper's SD
# over its 5 seeds (Figure 4-3): two means of a few seeds each are compared, not our mean with a
# fixed number.

# %%
seed_table, findings45, values = chapter.transformer_over_seeds(collected, per_run, paper,
                                                                  targets=targets)
results |= values
if findings45 is not None:
    glue_display("cogs_findings_table45", HTML(findings45.to_html()), display=False)
if len(seed_table):
    display(seed_table.style.format(precision=3, na_rep="–"))
else:
    print("no Transformer runs with one exposure")

# %% [markdown]
# **The Transformer with one exposure.** In distribution it is near perfect (test
# {glue:text}`cogs_fig43_transformer_test:.3f`, interval {glue:text}`cogs_tf1_test_ci_low:.3f` to
# {glue:text}`cogs_tf1_test_ci_high:.3f` over {glue:text}`cogs_tf1_n_seeds` seeds); on the
# generalization set it reaches {glue:text}`cogs_t45_transformer_1_gen:.3f` (interval
# {glue:text}`cogs_tf1_gen_ci_low:.3f` to {glue:text}`cogs_tf1_gen_ci_high:.3f`): lexical cases
# {glue:text}`cogs_fig41_transformer_1_lexical:.3f`, structural cases
# {glue:text}`cogs_fig41_transformer_1_structural:.3f`. The Findings check the paper's pattern
# claim by claim. Our gen mean is {glue:text}`cogs_tf1_gen_minus_paper:+.3f` from the paper's,
# and Welch's 95% interval for that difference runs from
# {glue:text}`cogs_tf1_gen_minus_paper_ci_low:+.3f` to
# {glue:text}`cogs_tf1_gen_minus_paper_ci_high:+.3f`; at the level of an equivalence test (two
# one-sided tests) it runs from {glue:text}`cogs_tf1_gen_minus_paper_ci90_low:+.3f` to
# {glue:text}`cogs_tf1_gen_minus_paper_ci90_high:+.3f`, against a margin of the paper's seed SD;
# the Findings decide the claim *transformer-gen-near-35* from the two. That margin is narrower than two means of 5 seeds
# can resolve: a replicate whose seeds spread exactly as the paper's would still give an
# interval of plus or minus {glue:text}`cogs_tf1_gen_replicate_half_width:.3f`, so the test
# could hardly hold. Ours is wider still because our seeds spread more
# than the paper's (SD {glue:text}`cogs_fig43_transformer_gen_sd:.3f` over our seeds): the
# weakest, seed {glue:text}`cogs_tf1_gen_min_seed`, generalizes to
# {glue:text}`cogs_tf1_gen_min:.3f` (the runs table gives, for each run, the update whose weights the
# rule kept, `best_step`, and where training stopped). The decoding was compared only where it
# was measured: on beam samples of {glue:text}`cogs_beam_n_seeds` seeds
# (*Greedy or beam?* below), beam 5 moves their gen mean by
# {glue:text}`cogs_beam_minus_greedy_gen:+.3f` against greedy on the same sentences (95%
# interval over the seeds {glue:text}`cogs_beam_effect_gen_ci_low:+.3f` to
# {glue:text}`cogs_beam_effect_gen_ci_high:+.3f`: so few seeds bound the effect, they do not show
# it is nil). No other model or exposure of the grid enters that comparison.
#
# What remains open: why one run generalizes so much less than the others (in Chapter 5 the same
# Transformer, with a larger vocabulary, varies more over seeds, Figure 5-1, than in
# Figure 4-3, so a wide spread is not foreign to the architecture); training under bfloat16
# autocast and the bfloat16 copy of the weights of seeds 1-3 (Deviations and errata;
# `grid_amp=False` or `--no-amp` trains in float32); how far gen accuracy moves with the length
# of training, which a stopping rule on dev loss fixes by chance (*Accuracy over training
# updates* below, measured so far on the reduced run only); and implementation details, of which
# the layers are checked against PyTorch's own pre-norm Transformer
# (`tests/test_cogs_oracles.py`). Because of the bfloat16 training and weights and the greedy
# decoding of seeds 1-3, the Findings count every claim on these runs as a *substitute* for the
# paper's runs, not a reproduction.

# %% [markdown]
# #### The Transformer with 100 exposures
#
# The same Transformer trained on the rebuilt `train_100` (Data; Section 4.5.7), by the paper's
# stopping rule under bfloat16 autocast, and decoded with beam 5 on the whole sets on the GPU
# that trained it. Per seed, the quantities the Findings check, with their mean and 95%
# t-interval; the last row is our gen mean minus the paper's, with Welch's interval (the paper
# prints no seed SD for 100 exposures, so that of one exposure, Figure 4-3, stands in, as in the
# targets):

# %%
seed_table_100, findings45_100, values = chapter.transformer_over_seeds(
    collected, per_run, paper, exposures=100, targets=targets
)
results |= values
if findings45_100 is not None:
    glue_display("cogs_findings_table45_100", HTML(findings45_100.to_html()), display=False)
if len(seed_table_100):
    display(seed_table_100.style.format(precision=3, na_rep="–"))
else:
    print("no Transformer runs with 100 exposures")

# %% [markdown]
# What 100 exposure examples instead of one change, seed by seed (each seed trained in both
# settings; claim *more-exposures-help-transformer*): the gen mean, its lexical and structural
# parts, and the mean of the five cases of a primitive in a new role, with the paper's means and
# gain in the last columns:

# %%
gain_table, values = chapter.exposure_gain(collected, per_run)
results |= values
gain_table.round(3) if len(gain_table) else print("exposure gain: pending (runs of both settings)")

# %% mystnb={"figure": {"caption": "Table 4-5's Transformer columns case by case: each run's accuracy (one dot per seed) with one exposure example (blue) and with 100 (orange), the paper's mean of 5 seeds as a cross of the same colour, the reference parser as dashed steps. Look at the lexical cases moving right with 100 exposures, the structural ones staying at 0, and the five primitive cases (the rows starting with 'Primitive') against the paper's crosses.", "name": "fig-cogs-models-exposures"}}
if len(gain_table):
    figures.exposure_by_case(collected[collected.model == "transformer"], paper, reference_by_case)
    plt.show()
else:
    print("exposures by case: pending (runs of both settings)")

# %% [markdown]
# With 100 exposures our Transformer generalizes to {glue:text}`cogs_t45_transformer_100_gen:.3f`
# (interval {glue:text}`cogs_tf100_gen_ci_low:.3f` to {glue:text}`cogs_tf100_gen_ci_high:.3f`
# over {glue:text}`cogs_tf100_n_seeds` seeds), {glue:text}`cogs_tf_exposure_gain_gen:+.3f` over
# one exposure; the gain is in the lexical cases ({glue:text}`cogs_tf_exposure_gain_lexical:+.3f`,
# interval {glue:text}`cogs_tf_exposure_gain_lexical_ci_low:+.3f` to
# {glue:text}`cogs_tf_exposure_gain_lexical_ci_high:+.3f`), while the structural ones are at
# {glue:text}`cogs_fig41_transformer_100_structural:.3f` (claim
# *more-exposures-help-transformer* decides both against Section 4.5.7). Our gen mean
# is {glue:text}`cogs_tf100_gen_minus_paper:+.3f` from the paper's (Welch's interval at the
# equivalence test's level {glue:text}`cogs_tf100_gen_minus_paper_ci90_low:+.3f` to
# {glue:text}`cogs_tf100_gen_minus_paper_ci90_high:+.3f`; claim *transformer-100-gen-near-63*,
# whose margin, as for one exposure, is narrower than the interval of a replicate with the
# paper's seed spread, plus or minus {glue:text}`cogs_tf100_gen_replicate_half_width:.3f`).
#
# The level hides a split, which the figure shows: the five cases of a primitive in a new role
# (*shark*, *Paula* and *crawl*, seen alone in training, then as subject, object or infinitival
# argument) average {glue:text}`cogs_tf100_primitive_mean:.3f` (interval
# {glue:text}`cogs_tf100_primitive_ci_low:.3f` to {glue:text}`cogs_tf100_primitive_ci_high:.3f`)
# against the paper's {glue:text}`cogs_tf100_primitive_paper:.3f` (the figure gives each case's
# spread over seeds).
# As five of the 21 cases they account for
# {glue:text}`cogs_tf100_primitive_in_gen_minus_paper:+.3f` of our gen mean's difference from the
# paper's ({glue:text}`cogs_tf100_gen_minus_paper:+.3f`), the other cases together for
# {glue:text}`cogs_tf100_other_in_gen_minus_paper:+.3f`;
# the other lexical cases average {glue:text}`cogs_tf100_lexical_other:.3f` (each cell beside the
# paper's is in the Findings' table for 100 exposures). How those errors end: per seed, the share of errors *cut short* (an output that
# is a proper prefix of the gold form, the empty output included: everything right up to where
# the model stopped), on the primitive cases and on the other lexical cases:

# %%
analysed_100 = chapter.analysed_runs(
    grid, collected.hash, gold, ["transformer"], exposures=100, with_semantics=False
)
if analysed_100:
    cut_table, values = chapter.cut_short(next(iter(analysed_100.values())))
    results |= values
    display(cut_table.round(3))
else:
    print("errors cut short: pending (no Transformer runs with 100 exposures)")

# %% [markdown]
# On the primitive cases {glue:text}`cogs_tf100_cut_short_primitive:.3f` of the errors are cut
# short, against {glue:text}`cogs_tf100_cut_short_other:.3f` on the other lexical cases, and
# {glue:text}`cogs_tf100_cut_short_at_item_primitive:.3f` of those cut-short outputs stop just
# where the primitive is due (the next gold token is the word itself;
# {glue:text}`cogs_tf100_cut_short_at_item_other:.3f` for the other cases' held-out words, whose
# cut-short outputs mostly drop the rest of a conjunction): rather than write a word it has only
# ever produced as a whole one-word output, the model ends its output. In our `train_100` each
# primitive is a one-word sentence repeated 100 times (the authors' later exposure file has them
# so: a primitive cannot be shown in other contexts without filling the gap the case tests), so a
# one-word source mapped to a one-word form is seen 100 times where the other exposure items are
# seen in 100 different sentences. The dissertation describes its set otherwise: exposure "in 1
# context (default) and 100 (increased) distinct contexts" (Table 4-5's caption), "observing the
# primitives in various distinct contexts" (Section 4.5.7). If its primitives were shown in
# distinct contexts, our training data differ from the paper's exactly where our Transformer
# falls short, and that is the first candidate cause (below).
#
# **A second candidate, beam search, on thin evidence.** The one-exposure
# Transformers decoded both ways on the same sample (*Greedy or beam?* below;
# {glue:text}`cogs_beam_n_seeds` seeds) stop where the primitive is due in
# {glue:text}`cogs_beam_primitive_stops:.3f` of their primitive-case errors under beam 5, on
# average, and in {glue:text}`cogs_greedy_primitive_stops:.3f` under greedy decoding (the table
# there gives each seed: most of it is one seed's), and the reduced CPU run, decoded greedily,
# almost never does (of its primitive-case errors that are cut short, a share of
# {glue:text}`cogs_reduced_cut_short_at_item_primitive:.4f` stop where the word is due; it cuts
# short elsewhere). These shares are small and mostly one seed's, so they suggest, not show, a
# part for beam search without a length penalty, the released scripts' setting: it ranks a
# finished output by its probability so far, and ending before an unlikely word can outscore
# writing it and the rest of the form.
# Whether that costs accuracy was measured on the reduced run, whose seeds were decoded both
# ways (*A reduced Transformer on a CPU*): beam minus greedy on the primitive cases is
# {glue:text}`cogs_reduced_beam_effect_primitive:+.3f` (interval
# {glue:text}`cogs_reduced_beam_effect_primitive_ci_low:+.3f` to
# {glue:text}`cogs_reduced_beam_effect_primitive_ci_high:+.3f` over
# {glue:text}`cogs_reduced_beam_effect_n_runs` seeds; claim *beam-lowers-primitive-cases*). How
# much greedy decoding would change on the 100-exposure runs is not measured: that needs their
# weights decoded again (a GPU run that keeps them).
#
# **Why the paper's Transformer does better on these cases is open.** The training data come
# first: the repetitions are in the authors' later exposure file, which suggests upstream's
# `train_100.tsv` has them too, but the dissertation speaks of distinct contexts (above),
# upstream's file is not in the data mirror, and none of our orderings of the rebuilt rows has
# its git blob id (Deviations and errata), so a difference in its rows cannot be ruled out. The other differences from the
# paper's runs are the bfloat16 training and our re-implementation of OpenNMT-py, its beam
# search included (a difference in how it ranks finished outputs would show on exactly these
# cases). The paper's cells for these five cases are flagged as differing (the targets file says
# so), not counted as a contradiction of the paper: the cause is unknown and the paper's
# per-case spread unprinted.

# %% [markdown]
# #### Greedy or beam?
#
# Transformer seeds 1-3 were decoded greedily, the paper decodes with beam 5 (as seeds 4-5 were).
# Where a trained model also has a beam-5 decoding of a sample (500 dev and 500 test sentences, 100 per
# gen case; beam search over all 27,000 sentences takes hours per run on a CPU), both
# are scored on the same sentences, with three shares of their gen errors. The averages in the
# text are taken over the seeds of the 9.5M Transformer with one exposure that have both
# decodings, {glue:text}`cogs_beam_n_seeds` of them: a measurement on those seeds, not on the
# other models and exposures of the grid.

# %%
decodings_table, values = chapter.greedy_and_beam(grid, gold)
results |= values
if len(decodings_table):
    display(decodings_table.set_index(["run", "decoding"]).round(3))
else:
    print("no run has both a beam and a greedy decoding")

# %% [markdown]
# Averaged over these {glue:text}`cogs_beam_n_seeds` seeds of the Transformer with one exposure,
# beam 5 moves the generalization mean by {glue:text}`cogs_beam_minus_greedy_gen:+.3f` against
# greedy decoding on the same sentences, with a 95% interval over the seeds of
# {glue:text}`cogs_beam_effect_gen_ci_low:+.3f` to {glue:text}`cogs_beam_effect_gen_ci_high:+.3f`:
# the interval bounds how far the decoding moves the accuracy on these seeds (the average
# leaves out every other model and exposure of the grid). It does change how their
# outputs fail: errors that do not end in `)` are
# {glue:text}`cogs_beam_not_paren:.3f` of the beam errors and
# {glue:text}`cogs_greedy_not_paren:.3f` of the greedy ones, and depth errors that run to the
# 1,000-token cap {glue:text}`cogs_beam_depth_capped:.3f` and
# {glue:text}`cogs_greedy_depth_capped:.3f` (see Deviations and errata), and errors on the
# primitive cases that stop just where the primitive is due
# {glue:text}`cogs_beam_primitive_stops:.3f` and {glue:text}`cogs_greedy_primitive_stops:.3f`
# (*The Transformer with 100 exposures*, where that stop is frequent).

# %% [markdown]
# #### Model size (Figure 4-3) and seed spread
#
# Dev, test and gen accuracy of the three Transformer sizes (one exposure), mean and SD over
# seeds; the paper's values as open markers with its gen SD over its seeds, the reference parser's
# as black dashes.

# %% mystnb={"figure": {"caption": "Figure 4-3 recomputed: dev, test and gen accuracy of the 5.3M (1-layer), 9.5M (2-layer) and 45M (6-layer) Transformers, ours as filled dots (gen with its SD over seeds as error bars), the paper's as open grey circles just to their right (gen with the SD over its seeds that Figure 4-3 prints as a grey error bar), the symbolic reference parser as black dashes; sizes without committed runs show the paper only. Look at the gen points of the 5.3M and 9.5M models, ours against the paper's, and at the two SDs.", "name": "fig-cogs-models-size"}}
sizes, values = chapter.model_size_table(per_run, paper)
results |= values
figures.transformer_sizes(sizes, reference_splits)
plt.show()

# %%
not_run = sizes.index[sizes.runs == 0]  # sizes without committed runs
sizes.style.format(precision=3, na_rep="–").format(
    precision=3, na_rep="not yet run", subset=(not_run, sizes.columns)
)

# %% [markdown]
# Seed spread of the cases the dissertation plots in Table 4-4 (one dot per run; available runs
# only; black crosses: the paper's mean of 5 seeds, Table 4-5; the dashed line is the
# reference parser):

# %% mystnb={"figure": {"caption": "Table 4-4 recomputed: accuracy of each run (one dot per seed) on the six cases the dissertation plots, by model, with the paper's mean over its 5 seeds (black crosses, Table 4-5) and the reference parser (dashed line). Look at the spread of the dots within a case and at where the crosses fall among them.", "name": "fig-cogs-models-seed-spread"}}
spread = chapter.seed_spread_runs(collected, grid_models)
if len(spread):
    figures.seed_spread(
        spread, chapter.SPREAD_CASES, grid_models, paper, reference_by_case, cfg.LABELS
    )
    plt.show()
else:
    print("seed spread: pending (no grid runs yet)")

# %% [markdown]
# ### A reduced Transformer on a CPU
#
# The paper's protocol costs hours per run on a CPU (seconds per update in
# `benchmarks/results/bench_cogs_cpu2.txt`), so the default
# profile trains a **reduced** configuration and labels it so: a Transformer with $d = 128$,
# feed-forward 256, 2+2 layers and 4 heads, one batch of 128 sentences per update, the noam
# schedule with learning-rate factor 1 and warm-up 800, a fixed budget of updates (dev loss is
# still checked, and the best checkpoint kept), greedy decoding, and the seeds of `reduced_seeds`
# ({glue:text}`cogs_reduced_n_seeds` here): the accuracies below are means over the seeds, with
# their intervals in the table over seeds, the error analyses pool the seeds, and the accuracy
# curve follows the first seed. It trains on the
# **100-exposure** set (`reduced_exposures`), a design choice made for the budget, not a
# finding: in the {glue:text}`cogs_reduced_epochs:.1f` epochs a CPU affords here, a held-out word
# that occurs in one training sentence is seen only about that many times, and with 100 exposures a
# hundred times as often, so that the lexical cases have a chance to separate from the
# structural ones, as in the paper's Figure 4-4 (no reduced run with one exposure is committed;
# `reduced_exposures: 1` trains one). Its result files are committed, one per seed; re-executing the chapter
# with the same parameters reads them instead of training again.

# %%
reduced_configs = chapter.reduced_configs(
    reduced_model, reduced_seeds, reduced_max_steps, reduced_per_case, reduced_per_split,
    reduced_exposures,
)  # fmt: skip
PAPER_LABEL = chapter.paper_label(reduced_exposures)
runs = chapter.reduced_runs(reduced_configs, train_missing, device, results_dir, reduced_keep_every)
run = runs[0] if runs else None  # the first seed: traced over updates below
if not runs:
    print(f"reduced runs of seeds {reduced_seeds}: pending (train_missing is False)")
else:
    run_info, values = chapter.reduced_run_info(runs)
    results |= values
run_info if runs else None

# %% [markdown]
# Dev loss during training:

# %% mystnb={"figure": {"caption": "Dev cross-entropy per token of the reduced Transformer at each validation (log scale), one line per seed; the checkpoint with the lowest value is kept. Look at whether the curves have flattened by the last update: the runs stop at a fixed budget of updates.", "name": "fig-cogs-models-reduced-loss"}}
if runs:
    figures.dev_loss(chapter.reduced_histories(runs))
    plt.show()

# %% [markdown]
# #### Accuracy over training updates
#
# Early stopping on dev loss fixes the generalization number at whatever update the dev loss
# happens to be lowest, and Csordás, Irie and Schmidhuber {cite}`csordas2021devil` show that on COGS generalization accuracy keeps
# moving long after in-distribution accuracy has settled. So the first seed's weights are kept every
# `reduced_keep_every` updates (sharded files, `compsem.cogs.seq2seq.trainer`) and each kept
# model is scored on {glue:text}`cogs_reduced_curve_per_split` dev and test sentences and
# {glue:text}`cogs_reduced_curve_per_case` sentences of each gen case
# (`compsem.cogs.seq2seq.curve`; the scores are committed beside the run's results as
# `curve.tsv`, recomputed only when they are missing and the kept weights exist).

# %%
reduced_curve = None
if run is not None:
    reduced_curve = chapter.reduced_curve(
        reduced_configs[0], results_dir, curve_per_case, curve_per_split, device
    )
if reduced_curve is not None:
    curve_table, values = chapter.curve_summary(reduced_curve, curve_per_case, curve_per_split)
    results |= values
    display(curve_table.round(3))
else:
    print("accuracy over updates: pending (no kept weights of the reduced run on this machine)")

# %% mystnb={"figure": {"caption": "Exact match of the reduced Transformer at every kept update: dev and test (samples), gen and its lexical and structural means (a sample of each case); the dotted line is the update whose weights the stopping rule kept. Look at whether gen still moves where dev has flattened.", "name": "fig-cogs-models-reduced-curve"}}
if reduced_curve is not None:
    figures.training_curve(
        reduced_curve, run.metrics["best_step"], "Reduced Transformer: accuracy over updates"
    )
    plt.show()

# %% [markdown]
# Over the last {glue:text}`cogs_reduced_curve_updates:.0f` kept updates (updates
# {glue:text}`cogs_reduced_curve_first_step:,.0f` to
# {glue:text}`cogs_reduced_curve_last_step:,.0f`), dev accuracy ranges over
# {glue:text}`cogs_reduced_curve_dev_range:.3f` and the gen mean over
# {glue:text}`cogs_reduced_curve_gen_range:.3f`, from its lowest,
# {glue:text}`cogs_reduced_curve_window_gen_min:.3f` at update
# {glue:text}`cogs_reduced_curve_window_gen_min_step:,.0f`, to its highest,
# {glue:text}`cogs_reduced_curve_window_gen_max:.3f` at update
# {glue:text}`cogs_reduced_curve_window_gen_max_step:,.0f`; it is
# {glue:text}`cogs_reduced_curve_gen_first:.3f` at the first of these updates and
# {glue:text}`cogs_reduced_curve_gen_last:.3f` at the last. The highest gen mean of any kept
# update is {glue:text}`cogs_reduced_curve_gen_max:.3f`, at update
# {glue:text}`cogs_reduced_curve_gen_max_step:,.0f`. These are the first seed only, scored on
# {glue:text}`cogs_reduced_curve_per_case` gen sentences per case and
# {glue:text}`cogs_reduced_curve_per_split` dev sentences: one training run, on samples.
# This is the reduced run, which stops at a fixed budget; for the paper's Transformer the same
# curve needs its GPU runs trained with kept weights (`--keep-every 500`, the `full` profile's
# `grid_keep_every`), which the committed runs were not:

# %%
grid_curves = chapter.grid_curves(grid)
if grid_curves is not None:
    display(grid_curves.round(3))
else:
    print("accuracy over updates of the paper's Transformer: pending (GPU runs with kept weights)")

# %% [markdown]
# #### In distribution vs generalization
#
# Exact match on dev, test and gen (the mean of the 21 cases, and its lexical and structural
# parts), averaged over the seeds, beside the semantic match and the symbolic reference parser on
# the same examples, and the paper's 9.5M Transformer with the same number of exposures (dev and
# test: with one, as Figure 4-4 gives gen accuracy only; the row's label says so). The reduced run stands in for the
# paper's Transformer: it is a *substitute*, compared for the pattern only.

# %%
if runs:
    analysed = chapter.analyse_with_reference(runs, gold)
    by_case = chapter.gen_by_case(analysed)
    summary, values = chapter.reduced_summary(analysed, paper, reduced_exposures)
    results |= values
summary.round(3) if runs else None

# %% [markdown]
# Seed by seed, with the mean and its 95% t-interval over the seeds:

# %%
if runs:
    seeds_table, values = chapter.reduced_seeds(analysed)
    results |= values
seeds_table.round(3) if runs else None

# %% [markdown]
# How the reduced run's errors on the lexical cases end, as for the 100-exposure Transformer of
# the paper's size (*The Transformer with 100 exposures*): per seed, the share of errors cut
# short (a proper prefix of the gold form) on the five primitive cases and on the others:

# %%
if runs:
    cut_table_reduced, values = chapter.cut_short(analysed, prefix="cogs_reduced_")
    results |= values
cut_table_reduced.round(3) if runs else None

# %% [markdown]
# Does beam search, the released scripts' decoding, change how the reduced model does on the
# primitive cases? Each seed's weights decoded with beam 5 on a sample
# (`reduced_beam_per_case` gen sentences per case, `reduced_beam_per_split` dev and test, the
# same sample as the grid's beam decodings) against its greedy decoding of the same sentences:
# beam minus greedy per seed, with the mean and its 95% t-interval over the seeds, for the gen
# mean, the primitive cases and the share of their errors that stop just where the primitive
# is due (claim *beam-lowers-primitive-cases*):

# %%
reduced_beam = chapter.beam_configs(reduced_configs, reduced_beam_per_case, reduced_beam_per_split)
chapter.reduced_runs(reduced_beam, train_missing, device, results_dir, 0)
beam_effect, values = chapter.reduced_greedy_and_beam(reduced_configs, gold)
results |= values
beam_effect.round(3) if len(beam_effect) else print("beam against greedy: pending")

# %% [markdown]
# Over {glue:text}`cogs_reduced_beam_effect_n_runs` seeds, beam minus greedy is
# {glue:text}`cogs_reduced_beam_effect_primitive:+.3f` on the primitive cases (interval
# {glue:text}`cogs_reduced_beam_effect_primitive_ci_low:+.3f` to
# {glue:text}`cogs_reduced_beam_effect_primitive_ci_high:+.3f`) and
# {glue:text}`cogs_reduced_beam_effect_gen:+.3f` on the gen mean; beam search stops where the
# primitive is due in {glue:text}`cogs_reduced_beam_primitive_stops:.3f` of the primitive-case
# errors, greedy decoding in {glue:text}`cogs_reduced_greedy_primitive_stops:.3f`.

# %% mystnb={"figure": {"caption": "In distribution against generalization: the reduced CPU run, mean over its seeds (blue) with its 95% t-interval over the seeds (black bars), beside the paper's 9.5M Transformer (orange): its gen mean and its lexical and structural means with the same number of exposures, its dev and test from the one-exposure runs, the only ones the paper prints (the legend says which); the symbolic reference parser as black dashes. Look at the drop from test to gen, and at the structural column against the lexical one.", "name": "fig-cogs-models-reduced-gap"}}
if runs:
    figures.generalization_gap(summary, chapter.REDUCED_EXACT, chapter.paper_gap_label(reduced_exposures), seeds_table)
    plt.show()

# %% [markdown]
# The reduced model is {glue:text}`cogs_reduced_gap:.2f` more accurate on test than on the
# generalization set (mean over seeds), after at most {glue:text}`cogs_reduced_steps:,.0f` updates
# ({glue:text}`cogs_reduced_epochs:.1f` epochs, {glue:text}`cogs_reduced_train_minutes:.1f`
# minutes of training per seed on average, on the device in the table above; the committed runs
# shared their machine with other jobs); the reference parser is at
# {glue:text}`cogs_reference_gen:.3f` on gen. Beside the paper (status *substitute*: a smaller
# model, fewer updates, greedy decoding; our values are means over seeds):

# %%
report.style_comparison(report.compare(results, "cogs-models", prefixes="cogs_reduced_")) if runs else None

# %% [markdown]
# #### By generalization case

# %% mystnb={"figure": {"caption": "Exact match per generalization case: the reduced run, mean over its seeds (bars), the paper's 9.5M Transformer with the same exposures (orange dots, Table 4-5) and the reference parser (dashed steps). Look at the three structural cases, and at the proper-noun variants against the common-noun ones.", "name": "fig-cogs-models-reduced-cases"}}
if runs:
    figures.accuracy_by_case(
        by_case["exact"],
        by_case["reference_exact"],
        chapter.paper_by_case(paper, reduced_exposures).tolist(),
        PAPER_LABEL,
    )
    plt.show()

# %% [markdown]
# The paper's pattern for 100 exposures (Section 4.5.7, Table 4-5) is structural cases at zero
# and lexical ones far above them. Over the {glue:text}`cogs_reduced_n_seeds` seeds the structural
# mean is {glue:text}`cogs_reduced_structural:.3f` (95% interval up to
# {glue:text}`cogs_reduced_structural_ci_high:.3f`) and the lexical mean leads it by
# {glue:text}`cogs_reduced_lexical_minus_structural:.3f` (from
# {glue:text}`cogs_reduced_lexical_minus_structural_ci_low:.3f` to
# {glue:text}`cogs_reduced_lexical_minus_structural_ci_high:.3f`); the Findings decide the claim
# *reduced-run-gap* from these intervals. The common- and proper-noun variants
# and Active → Passive are compared below. The gap between
# test and gen above is not part of that check: the paper prints no dev or test accuracy for 100
# exposures. The absolute level is not the paper's and is not compared with it:
# {glue:text}`cogs_reduced_parameters:,.0f` parameters against our paper-size Transformer's
# {glue:text}`cogs_params_transformer:,.0f`, and {glue:text}`cogs_reduced_epochs:.1f` epochs.

# %% [markdown]
# ### Error analyses (Section 4.5.3-4.5.5)
#
# On the generalization predictions, pooled over their seeds, of the reduced run and of every
# grid model with one exposure that has results. Definitions (`compsem.cogs.evaluation`):
# an output is *structurally correct* when its non-lexical tokens are those of the target in the
# same positions and every wrong token stays in its category (lexical meaning, role or index;
# footnote 20); a *single lexical error* is a structurally correct output whose wrong tokens all
# stand for one input word; an error *ends too early* when it is shorter than the target.


# %%
analysed_runs = chapter.analysed_runs(
    grid, collected.hash, gold, grid_models, analysed if runs else None
)
chapter.error_table(analysed_runs, paper).style.format(precision=3, na_rep="–")

# %% [markdown]
# Rows: shares of errors unless they say otherwise; `single_lexical` and `structure_correct` are
# shares of all gen examples; depth rows are shares of the errors on the two recursion cases;
# the paper's depth shares and mean lengths of test outputs pool all its models, so they stand
# in the column *paper: all models pooled*, not under any one model, and are shown beside ours,
# not compared (status *substitute* in the table below: ours pool the grid's runs, so far the
# Transformer's alone), and its accuracy on long
# test outputs is one value for the two LSTMs together (the row says so); the Active → Passive
# errors are counted per run (the paper's totals over its 5 runs divided by 5). Ours pool the
# errors of all seeds of a column, as the paper pools its runs' ("12% of all Transformer
# errors", Section 4.5.3); the Findings decide the Transformer's share of errors not ending in
# `)` and its mean edit distance on these same pooled values, with the seeds' cluster standard
# error (Deviations and errata). The reduced run's errors are
# {glue:text}`cogs_reduced_err_error_edit_distance:.1f` tokens from the target on average, and
# {glue:text}`cogs_reduced_err_depth_premature_end:.1%` of its depth errors end too early.

# %%
results |= chapter.error_values(analysed_runs, grid_models)
analysis = report.compare(results, "cogs-models", prefixes=chapter.ANALYSIS_PREFIXES)
report.style_comparison(analysis) if len(analysis) else None

# %% [markdown]
# #### Depth and length
#
# Accuracy on the two recursion cases by depth (training has depth 0-2), and accuracy by the
# length of the target output on test and gen (the longest training target has 153 tokens).

# %% mystnb={"figure": {"caption": "Left: accuracy on the two recursion cases by depth (training has depth 0-2), for each group of runs; right: accuracy by target length on test and gen, the longest training output (153 tokens) marked in grey; the reference parser dashed; black dashes: the paper's accuracy on depths 3-5, both recursion cases pooled (Table 4-6), per model. Look at where accuracy falls: at the first unseen depth, and past the longest training output.", "name": "fig-cogs-models-depth-length"}}
figures.depth_and_length(analysed_runs, analysed if runs else None,
                         chapter.paper_depth(analysed_runs, grid_models, paper))
plt.show()

# %% [markdown]
# #### Common vs proper nouns, and the structure of Active → Passive errors
#
# Section 4.5.5.3: the proper-noun variant of a case is harder although it takes fewer symbolic
# steps (a constant instead of a predicate and a variable). Section 4.5.5.2: LSTM errors on
# Active → Passive keep the target's structure, Transformer errors mostly do not. The second
# table counts Active → Passive errors run by run, with the paper's Transformer per run in its
# last row (the paper's errors are summed over its runs, so the comparison is per run; ours vary from seed to seed by an SD of
# {glue:text}`cogs_tf1_ap_errors_sd:.1f` errors). Averaged over the four paired cases, common
# minus proper nouns is {glue:text}`cogs_tf1_common_minus_proper:.3f` for the Transformer
# (t-interval over seeds {glue:text}`cogs_tf1_common_minus_proper_ci_low:.3f` to
# {glue:text}`cogs_tf1_common_minus_proper_ci_high:.3f`; claim *proper-nouns-harder*).

# %%
nouns = chapter.noun_table(analysed_runs, paper, reduced_exposures)
display_ap, values = chapter.active_passive_runs(analysed_runs)
results |= values
nouns.round(3)

# %%
display_ap.style.format("{:g}", na_rep="–")  # –: the paper does not give its single lexical errors

# %% [markdown]
# #### Exact match vs semantic match
#
# Exact match counts an output with the right meaning but another order of conjuncts or other
# index names as wrong; the semantic match (`compsem.cogs.lf.equivalent`, the idea behind ReCOGS)
# does not. For every run, the gen mean (over the 21 cases), dev and test under both:

# %%
semantic_runs, values = chapter.semantic_runs(analysed_runs)
results |= values
semantic_runs.round(3)

# %% [markdown]
# On the Transformer's runs the semantic match adds
# {glue:text}`cogs_tf1_semantic_gain:+.3f` to the gen mean on average (at most
# {glue:text}`cogs_tf1_semantic_gain_max:+.3f` in one run): that much of the failure is notation
# (conjunct order, index names), the rest is meaning. Per case, for the reduced run (the
# reference parser is exact everywhere):

# %%
chapter.semantic_by_case(by_case).round(3) if runs else None

# %% [markdown]
# ### Results beside the paper
#
# Every comparison of this chapter, counted by group and verdict: the reduced run is a
# *substitute*; the Transformer's one-exposure column of Table 4-5, its size point of Figure 4-3
# and its error analyses are *partial* (the paper's 5 seeds, bfloat16 training, seeds 1-3 decoded
# greedily) and held to tolerances from the paper's seed spread, as is its 100-exposure column
# (*partial* too: the paper's protocol and decoding, bfloat16 training, the rebuilt `train_100`). The 1-layer Transformer's point
# of Figure 4-3 is *partial* too (the paper's 5 seeds and stopping rule, bfloat16 training, all
# decoded with beam 5); the LSTMs and the 6-layer Transformer are *not-run* until their GPU runs
# are committed.

# %%
report.glue_all(results | chapter.tolerance_values(targets))  # and the numbers behind the tolerances
verdict_table, values = chapter.verdict_counts(results)
report.glue_all(values)
verdict_table

# %% [markdown]
# ## Deviations and errata
#
# - **Batch size.** The dissertation says 128; the scripts accumulate 4 batches of 128 per update
#   (`-accum_count 4`), i.e. 512 sentences, with the loss divided by sentences
#   (`-normalization sents`). We follow the scripts. On a GPU the 4 batches run as one forward
#   pass (the same gradient up to rounding and dropout masks).
# - **Initialisation.** The text says Xavier for all models; the scripts give it to the
#   Transformers only (`-param_init_glorot`); the LSTMs keep PyTorch's default. We follow the
#   scripts.
# - **Decoding.** The text is silent; the scripts use OpenNMT-py's default beam of 5 and a
#   2,000-token cap. We use beam 5 with the same stopping rule (stop when the best-ranked
#   continuation ends; return the highest-scoring finished hypothesis; no length penalty) and a
#   1,000-token cap (twice the longest target). The reduced run decodes greedily, with each output
#   capped at 16 times its source length (above the largest ratio of a gold target to its source
#   in COGS, `compsem.cogs.seq2seq.config`). Of the
#   {glue:text}`cogs_tf1_n_seeds` Transformer runs trained by the paper's rule,
#   {glue:text}`cogs_tf1_greedy_n_seeds` (seeds 1-3) were decoded greedily (same 1,000-token cap)
#   on a CPU, and {glue:text}`cogs_beam_n_seeds` of them with beam 5 on a sample (Greedy or
#   beam?); {glue:text}`cogs_tf1_beam_n_seeds` (seeds 4-5) were decoded with beam 5 on the whole
#   sets on the GPU that trained them. The chapter reads a greedy decoding of a grid run
#   when its beam-5 decoding is absent, and says so in the runs table (`decoding`).
# - **Precision: bfloat16 training.** The GPU runs trained under **bfloat16 autocast**; the
#   paper trained in float32 (OpenNMT-py 1.1.1 on a K80). It is a switch: `--no-amp` on the
#   command line, `grid_amp=False` in this chapter, trains in float32 (a run's `metrics.json`
#   records `amp`). The best weights of Transformer seeds 1-3 were kept from the GPU run
#   as a **bfloat16 copy** and were decoded in float32 from
#   that copy, greedy and beam alike, so the beam sample cannot separate the rounding of the
#   weights from the rest. Training now keeps float32 weights in shards
#   (`--keep-every`), so later runs need no such copy (seeds 4-5 were decoded on the GPU from
#   their own weights). Neither effect is measured here. Seeds 1-3 also measured the dev loss
#   that chose their stopping update under that autocast; the trainer now computes it in
#   float32, outside autocast (`compsem.cogs.seq2seq.trainer`, `dev_loss`), as it did for
#   seeds 4-5 and as the paper's did. Seeds 1-3 were not trained again.
# - **Time-limited runs.** `--train-minutes` ends training at the first update past a time
#   budget, checked between updates (stop reason *time limit*); such runs are listed but never compared with the paper,
#   and the training command treats them as still to do.
# - **Early stopping.** On dev loss (`--early_stopping_criteria loss`), keeping the best
#   checkpoint (`_best.pt`), as the scripts; OpenNMT-py's label smoothing spreads 0.1 over the
#   vocabulary except padding and the gold token, as ours.
# - **Dropout of the LSTMs.** After the embeddings and between layers (the text: "after the
#   embedding layer and after each hidden layer except for the last"), and on the attentional
#   state (OpenNMT-py). OpenNMT-py 1.1.1, which the released scripts ran, applies embedding
#   dropout only inside its positional encoding, which the LSTMs do not use, so the paper's LSTMs
#   very likely had **no dropout after the embeddings**. Every LSTM and BiLSTM configuration of
#   both COGS chapters follows the code (embedding dropout 0), one choice for the whole grid; the
#   text's dropout is a separate configuration, with its own hash (`--lstm-embedding-dropout text`
#   on the command line, `lstm_embedding_dropout=None` in this chapter). The LSTM and BiLSTM runs
#   cut by the time budget were trained with the text's dropout before this choice: they are
#   listed as a superseded configuration (*What has been run*), not part of the grid, and still
#   give the scheduler its LSTM speeds. No LSTM run is compared with the paper yet.
# - **Model sizes.** "4.5M" in the text for the small Transformer is 5.3M in the table beside
#   Figure 4-3 and in our count.
# - **Seeds.** Only seed 1 appears in the scripts; we use seeds 1-5. A seed sets the initial
#   weights, the dropout masks and the order of the batches.
# - **Data.** The generalization set is the current upstream file, with the 2022 fix of the
#   roles of some `obj_pp_to_subj_pp` examples (chapter `cogs-data` counts them); the
#   dissertation's numbers come from the earlier file. The
#   100-exposure training set is rebuilt (`train.tsv` without its 15 exposure rows plus the 1,500
#   rows of `cogs-with-pretraining`, {glue:text}`cogs_train100_rows:,.0f` rows); `train_100.tsv`
#   itself is not in the data mirror. **Checked against upstream's git blob id**
#   (`aada7b25ed61...`, the only fingerprint of the file here): written as `train.tsv` is (whose
#   blob id ours matches), none of {glue:text}`cogs_train100_candidates` plausible orderings of the
#   rebuilt rows matches it ({glue:text}`cogs_train100_candidates_matching` do; the Data section
#   lists them), and neither did shuffles of the rows by Python's and NumPy's generators with
#   small seeds, tried once outside the chapter. The released files are shuffled (the 15 exposure
#   rows of `train.tsv` are spread over the file), so upstream's row order is most likely a
#   shuffle a hash cannot recover; whether the rows themselves also differ stays **unverified**.
#   Row order changes only the order of the batches; a difference in the rows would change what
#   the 100-exposure models learn. With 100 exposures our Transformer's mean over the five
#   primitive cases, {glue:text}`cogs_tf100_primitive_mean:.3f`, lies below the paper's
#   {glue:text}`cogs_tf100_primitive_paper:.3f` in {glue:text}`cogs_tf100_primitive_seeds_below_paper`
#   of its seeds, and many of those errors stop just where the primitive is due (*The
#   Transformer with 100 exposures*). The rebuilt rows repeat each one-word primitive 100 times, as the authors'
#   exposure file does, so upstream's file very likely does too; whether it differs otherwise,
#   only upstream's `train_100.tsv` can tell.
# - **Implementation.** Plain PyTorch re-implementations of what OpenNMT-py 1.1.1 builds
#   (pre-norm Transformer layers, input-feeding LSTM decoder); OpenNMT-py 1.1.1 needs torch 1.5.
#   Oracle tests (`tests/test_cogs_oracles.py`) hold our Transformer to
#   `torch.nn.Transformer(norm_first=True)` with the same weights (logits equal to 1e-5, teacher
#   forcing and cached steps) and an LSTM decoder step to Luong et al.'s equations written out
#   (input feeding, masked global dot attention, the attentional state).
# - **Tolerances of the partial targets** (each target's `source` states its rule; the numbers
#   here come from the targets file, `compsem.cogs.models_chapter.tolerance_values`): our mean of
#   5 seeds and the paper's of 5 are compared within 2 SD of their difference,
#   $2\,s\sqrt{1/5 + 1/5}$, with $s$ the paper's seed SD: {glue:text}`cogs_tol_gen_sd:.2f` for
#   gen (Figure 4-3), {glue:text}`cogs_tol_lexical_sd:.2f` for the lexical mean (the gen SD
#   carried by its 18 cases), {glue:text}`cogs_tol_small_sd:.2f` where Table 4-3 prints no SD.
#   The paper prints **no SD per case** (Table 4-4 shows dots and says the spread is high). Its
#   gen SD bounds the **average** per-case SD from below, not each case's: the SD of a mean is at
#   most the mean of the SDs, so the seed SDs of the 18 lexical cases average at least the
#   lexical mean's, the gen SD times 21/18, {glue:text}`cogs_tol_lexical_sd:.2f` (the structural
#   cases, near 0 in every run, carrying none of the gen spread), with equality only if all 18
#   are perfectly correlated over seeds; a single case may vary less than that, and then others
#   vary more. We give every case that bound on the average or, where smaller, the largest SD
#   that 5 accuracies in $[0, 1]$ can have with mean $q$, the printed value moved half its last
#   digit towards .5 (`summary.largest_seed_sd`: $\sqrt{q(1-q)}$ when $5q$ is whole, $2q$ below
#   1/5, so {glue:text}`cogs_tol_zero_sd:.2f` for a cell printed 0.00). A lexical case's
#   tolerance is then {glue:text}`cogs_tol_lexical_case:.3f`, a cell printed 0.00 gets
#   {glue:text}`cogs_tol_zero_case:.3f`: an assumed SD for a typical case, not a floor under each
#   case (independent cases of equal spread would each need an SD of
#   {glue:text}`cogs_tol_independent_sd:.2f`, a tolerance of
#   {glue:text}`cogs_tol_independent_case:.2f`). For a cell printed
#   above 0 but below its tolerance (of the Transformer's 21 cases,
#   {glue:text}`cogs_tf1_cells_tol_reaches_zero`: a primitive in a new role, common noun as
#   object; several LSTM cells) the tolerance still reaches 0: such a cell cannot tell the
#   paper's value from none, and its match says only that ours is as small. A case outside this tolerance is
#   **flagged, not proven** different (its own SD is unknown, and may be larger or smaller):
#   {glue:text}`cogs_tf1_cases_flagged` of the 21 Transformer cases are,
#   {glue:text}`cogs_tf1_cases_flagged_above` of them above the paper's value. These flags are
#   **exploratory**: 21 separate tests at about 5% each, with an assumed SD for the paper's side
#   and none for ours. Tested as one family (`compsem.cogs.models_chapter.case_tests`: Welch's
#   test with our seeds' own SD and the case's assumed SD for the paper's 5 seeds, then Holm's
#   step-down adjustment over the {glue:text}`cogs_tf1_cases_tested` cases,
#   `compsem.cogs.multiplicity.holm`, family-wise 5%), {glue:text}`cogs_tf1_cases_holm` of the
#   cases differ from the paper's ({glue:text}`cogs_tf1_cases_holm_above` above it; smallest
#   adjusted p {glue:text}`cogs_tf1_cases_holm_min_p:.3f`); with 100 exposures,
#   {glue:text}`cogs_tf100_cases_holm` of {glue:text}`cogs_tf100_cases_tested` (smallest adjusted
#   p {glue:text}`cogs_tf100_cases_holm_min_p:.3f`). Active → Passive,
#   where the paper says every run is close to 100%, is held to the spread of a Poisson count of
#   its {glue:text}`cogs_tol_ap_errors_per_run:.1f` errors per run, compared **per run** (errors
#   of each of our runs, averaged; the paper's {glue:text}`cogs_tol_ap_errors_total:.0f` are
#   summed over 5 runs). For the other error analyses, whose spread the paper does not give, a
#   run's value is assumed to vary as the gen accuracy does ({glue:text}`cogs_tol_gen_sd:.2f` on
#   {glue:text}`cogs_tol_gen_mean:.2f`): a share $p$ (a proportion: of errors, of examples, an
#   accuracy on long outputs) on the bounded scale of a proportion,
#   $\mathrm{SD}(p) = s_{gen}\sqrt{p(1-p)}/\sqrt{m_{gen}(1-m_{gen})}$
#   (`compsem.cogs.summary.share_seed_sd`), which equals the gen SD at the gen mean and narrows
#   towards 0 and 1, and a quantity that is not a proportion (a mean edit distance, a mean
#   length) relative to its size. **Revised on review:** shares were also scaled relative to
#   their size, which gave a share near 1 a band wider than the scale allows and one near 0 a
#   band too narrow to hold it (the share of index-only depth errors was listed below as not
#   reproduced by that artefact alone); the margins of the claims *single-lexical-errors-frequent* and
#   *transformer-ill-formed-errors*, that SD, widened with it ({glue:text}`cogs_tf1_single_lexical_margin:.3f`
#   and {glue:text}`cogs_tf1_not_paren_margin:.3f`), their rules unchanged. The LSTMs' targets
#   (pending) carry their own gen SDs (Kim & Linzen 2020, Table 2: the dissertation's Table 4-3
#   is a figure whose numbers its text does not give). The paper's depth shares and mean test
#   output lengths pool its three models, ours the Transformer's runs alone, so those targets are
#   shown and not compared (*substitute*) until the LSTM runs exist. Of the Transformer's depth
#   errors, {glue:text}`cogs_depth_capped:.3f` run to the 1,000-token cap (the error table above
#   sets the paper's share, pooled over its models, beside it); seed and decoding
#   are confounded in our {glue:text}`cogs_tf1_n_seeds` runs
#   ({glue:text}`cogs_tf1_greedy_n_seeds` decoded greedily, {glue:text}`cogs_tf1_beam_n_seeds`
#   with beam 5), and on the beam samples of {glue:text}`cogs_beam_n_seeds` seeds, where both
#   decodings score the same sentences, beam search runs to the cap less often
#   ({glue:text}`cogs_beam_depth_capped:.3f`, against {glue:text}`cogs_greedy_depth_capped:.3f`
#   greedy), so greedy decoding is one cause, not shown to be the only one.
# - **Paper numbers we do not reproduce** (targets expected to differ; the evidence is in each
#   target's `reason`). The cells of Table 4-5 flagged by their per-case tolerances, with one
#   exposure and with 100, are expected to differ in the
#   targets file as flags, but they are not listed here: the flags are exploratory, and tested
#   as one family with Holm's adjustment only the cases counted in the previous item differ.
#   The list:
#   - the Transformer's seed spread of gen accuracy (`cogs_fig43_transformer_gen_sd`) is wider
#     than the paper's: one run, seed {glue:text}`cogs_tf1_gen_min_seed`, generalizes far less
#     than the others, while the gen mean over the 5 seeds is within its tolerance; the claim
#     *transformer-gen-near-35* is decided by an equivalence test (its verdict in the Findings), and the
#     paragraph under *The Transformer over its seeds* lists what can and cannot explain it;
#   - errors that do not end in `)` (`cogs_err_not_paren_transformer`) are rarer over the errors
#     of all seeds than the paper's share of Transformer errors: of the errors of the
#     seeds decoded with beam 5, {glue:text}`cogs_tf1_not_paren_beam_pooled:.3f` lack it, of the
#     greedy ones {glue:text}`cogs_tf1_not_paren_greedy_pooled:.3f`, while beam 5 on the samples of
#     the greedy seeds raised their share only to {glue:text}`cogs_beam_not_paren:.3f`: seed and
#     decoding are confounded, and the cause is open. **Erratum:** the claims
#     *transformer-ill-formed-errors*, *single-lexical-errors-frequent* and
#     *transformer-error-edit-distance* were first decided on values pooled over all seeds, each
#     held to its target's tolerance, with no interval over seeds; they were then decided on the
#     mean of the seeds' own values, by whether its one-sample interval over
#     seeds lay inside that tolerance band around the paper's value. That band, 2 SD
#     $\sqrt{2/5}$, is already a tolerance for the difference of two 5-seed means, so the rule
#     counted our sampling error twice; each claim was then decided as *transformer-gen-near-35*
#     is, by Welch's 90% interval of our seed mean minus the paper's inside plus or minus the
#     assumed SD. **Revised on review:** for the two ratios over errors (the share not ending in
#     `)` and the mean edit distance) the mean of the seeds' own ratios weighs every seed the
#     same, while the paper pools the errors of its runs ("12% of all Transformer errors") and
#     the table above compares the pooled value. Both claims are now decided on the pooled
#     value, the table's and the paper's estimator, with the same rule (their verdicts did not
#     move): the 90% interval of our pooled value minus the paper's, our standard error the
#     seeds' cluster standard error of a ratio (the linearised one with the small-sample factor
#     n/(n - 1), `compsem.cogs.summary.pooled_ratio_se`; a bootstrap over 5 seeds would be 20%
#     low in variance), inside plus or minus the
#     assumed SD (for this share {glue:text}`cogs_tf1_not_paren_pooled_minus_paper_ci90_low:+.3f`
#     to {glue:text}`cogs_tf1_not_paren_pooled_minus_paper_ci90_high:+.3f` against plus or minus
#     {glue:text}`cogs_tf1_not_paren_margin:.3f`; a replicate with the assumed spread would give
#     plus or minus {glue:text}`cogs_tf1_not_paren_replicate_half_width:.3f`), their verdicts in
#     the Findings. The single lexical errors are a share of all gen examples, of which every
#     seed decodes the same number, so there the mean of the seeds' shares is the pooled share;
#   - the 100-exposure Transformer's five primitive cases: their mean is below the paper's on
#     {glue:text}`cogs_tf100_primitive_seeds_below_paper` of {glue:text}`cogs_tf100_n_seeds`
#     seeds (the cause is open: *The Transformer with 100 exposures*);
#   - Active → Passive: our runs make {glue:text}`cogs_ap_errors_transformer:.1f` errors each on average
#     against the paper's (its total over its runs, per run), more than a Poisson count's
#     spread, while our own runs differ by an SD of {glue:text}`cogs_tf1_ap_errors_sd:.1f`
#     errors: most of them come from one run, seed
#     {glue:text}`cogs_tf1_active_to_passive_min_seed` (accuracy
#     {glue:text}`cogs_tf1_active_to_passive_min:.3f`), whose errors mostly keep the passive's
#     structure with one wrong word, so the share of errors with another structure
#     (`cogs_ap_wrong_structure_transformer`) is below the paper's; whether every run is close
#     to 100%, the paper's claim, is decided run by run in the Findings
#     (*active-to-passive-solved*).
# - **The reduced run** (default profile) is not the paper's configuration: $d = 128$, one
#   batch of 128 per update, learning-rate factor 1 with warm-up 800, a fixed number of updates,
#   greedy decoding, {glue:text}`cogs_reduced_n_seeds` seeds. It is labelled *substitute* and
#   shows the pattern, not the numbers. Every seed was trained under the kernel settings the
#   chapter's kernel runs with (`compsem.determinism.KERNEL_ENV`, one thread), so each committed
#   result is what its checkpoint gives again, greedy and beam alike. Seed 1 was trained again so:
#   its first run predated those settings, and retrained under them it took another path from the
#   first validation on, so its beam decoding could not be compared with that run's greedy one.
#
# ## Extensions
#
# - A **semantic match** beside exact match for every run (order of conjuncts and index names
#   ignored, `compsem.cogs.lf.equivalent`, the idea of ReCOGS): how much of the failure is
#   notation.
# - **Accuracy over training updates** (Csordás et al. {cite}`csordas2021devil`): weights kept every so many updates
#   (`--keep-every`), each scored on samples of dev, test and every gen case
#   (`compsem.cogs.seq2seq.curve`); shown for the reduced run, pending for the GPU grid.
# - The **symbolic reference parser** of the data chapter on every plot: the cases are solvable
#   by a compositional system, at every depth and output length.
# - **Seed spread and wall times** of every committed run (device, seconds, seed in each
#   `metrics.json`), and dev-loss curves.
#
# ## Reproduce
#
# ```bash
# make run CHAPTER=cogs-models                       # reduced CPU run (reads committed results)
# make run CHAPTER=cogs-models PROFILE=full          # the paper grid; trains missing runs (GPU)
# .venv/bin/python -m compsem.cogs.seq2seq.train --grid --jobs 4   # the grid from the shell (GPU)
# .venv/bin/python -m compsem.cogs.seq2seq.train --grid --list     # done / partial / pending
# .venv/bin/python -m compsem.cogs.seq2seq.train --grid --keep-every 500 --curve   # + accuracy over updates
# .venv/bin/python -m compsem.cogs.seq2seq.train --model transformer --seed 1   # one run
# .venv/bin/python benchmarks/bench_cogs.py          # throughput on this machine
# ```

# %% tags=["remove-input"]
report.glue_findings("cogs-models")
