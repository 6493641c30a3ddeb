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
# # COGS: auxiliary objectives before COGS (glossing and denoising)
#
# **The question.** Kim {cite}`kim2021dissertation` (Chapter 5, Experiment 1) trains each
# model of the COGS chapter first on an *auxiliary* sequence-to-sequence task and then on COGS,
# and finds the dissertation's main positive result: after **glossing** (word-by-word
# translation into a separate output vocabulary) the Transformer generalizes much better and
# much more consistently over seeds, and makes far fewer *single lexical* errors (the right
# logical form with one word replaced by another lexical item, from the input sentence or from
# training); the LSTMs do not benefit; a
# T5-style **denoising** objective helps only the BiLSTM, a little; structural cases stay near
# zero. This chapter rebuilds the experiment -- the `[w_n]` variant of COGS, the auxiliary data
# on a substitute English corpus, sequential training -- and asks whether the effect
# reproduces.
#
# The full configuration (three architectures, three objectives, several seeds, each run two
# trainings to early stopping) needs a GPU; its results are read from committed result files and
# marked **pending** until they exist. The default profile trains a **reduced** configuration
# on the CPU (a small Transformer, baseline against glossing, a few seeds) that shows what a
# short budget can show, labelled *reduced* wherever it appears.
#
# *Time to read: 15 minutes. Prerequisites: the chapters `cogs-data` and `cogs-models`.*

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
reduced_objectives = ["none", "gloss"]  # objectives of the reduced CPU run (none: baseline)
reduced_seeds = [1, 2, 3, 4, 5]  # seeds of the reduced run
reduced_max_steps = 1500  # COGS updates of the reduced run (one batch of 128 each)
reduced_aux_max_steps = 500  # auxiliary updates of the reduced run
reduced_exposures = 100  # exposure examples per primitive in the reduced run (1 or 100)
reduced_per_case = 0  # gen examples decoded per case in the reduced run (0 means all 1000)
reduced_per_split = 0  # dev and test examples decoded in the reduced run (0 means all 3000)
reduced_d_model = 128  # model width of the reduced Transformer (feed-forward twice that)
gloss_tokens = "word"  # a gloss: the word's own output token (word) or the word primed (primed)
cogs_optimizer = "continue"  # COGS stage: continue the auxiliary Adam state and updates, or restart
train_missing = True  # train reduced runs whose results are missing (else pending)
grid_models = ["transformer", "lstm", "bilstm"]  # Figures 5-1 to 5-3
grid_objectives = ["none", "gloss", "denoise"]  # baseline, glossing, language modelling
grid_seeds = [1, 2, 3, 4, 5]  # seeds of the full configuration (the paper: 10)
grid_decoding = "beam"  # decoding of the full runs to read: beam (beam 5, the paper's) or greedy
grid_train = False  # train missing runs of the full configuration here (needs a GPU)
device = "auto"  # auto (GPU when present), cpu or cuda
threads = 0  # CPU threads for torch (0 means the torch default)
results_dir = ""  # reduced-run results: empty for data/results/cogs-auxiliary, cache, or an existing folder

# %%
import matplotlib.pyplot as plt
import pandas as pd
import torch
from IPython.display import display

from compsem import parameters, report
from compsem.cogs import auxiliary_data, auxiliary_figures, masking
from compsem.cogs.seq2seq import auxiliary_config as ac
from compsem.cogs.seq2seq import config as cfg
from compsem.cogs.seq2seq import two_stage

report.set_theme()
parameters.check_gpu("grid_train", grid_train, device)  # before any data loads
two_stage.results_root(results_dir, must_exist=True)  # a misspelt results_dir fails here, before any training
if threads:
    torch.set_num_threads(threads)
results = {}  # every number compared with the paper, by target key
targets = report.load_targets("cogs-auxiliary")
paper = {key: target["paper"] for key, target in targets.items()}
LABELS = ac.OBJECTIVE_LABELS

# %% [markdown]
# ## Data
#
# ### COGS with `[w_n]` tokens
#
# Outside text could fill COGS's controlled gaps (a corpus may use *hedgehog* as an object), so
# the dissertation renames every item that defines a lexical gap -- the exposure items, nouns
# and verbs, with inflected and root verb forms apart -- to a token `[w_n]`
# in the sentence *and* the logical form (Section 5.2.3). The numbering is the released code's
# (*shark* is `[w_1]`, *Lina* `[w_3]`; footnote 12 of Section 5.2.3 maps *Lina* to `[w_1]`, see
# Deviations and errata). Only whole tokens are replaced (*bakery* stays). The map, and how often each token
# occurs in the training set and in gen:

# %%
masked = {
    split: two_stage.masked_cogs(split) for split in ("train", "train-100", "dev", "test", "gen")
}
counts = pd.concat(
    {
        "train": masking.mask_counts(masked["train"]),
        "train_100": masking.mask_counts(masked["train-100"]),
        "gen": masking.mask_counts(masked["gen"]),
    },
    axis=1,
)
counts.columns = [" ".join(c) for c in counts.columns]
counts = counts.drop(columns=["train_100 token", "gen token"]).rename(
    columns={"train token": "token"}
)
report.glue("caux_mask_forms", len(masking.GAP_TOKENS))
report.glue("caux_mask_train_tokens", int(counts[["train source", "train target"]].sum().sum()))
counts

# %% [markdown]
# The {glue:text}`caux_mask_forms` forms are masked in the sentences and logical forms of every
# split ({glue:text}`caux_mask_train_tokens` tokens in the one-exposure training set); the tests
# (`tests/test_cogs_auxiliary.py`) check that every occurrence, and nothing else, is replaced.
# An example from gen:

# %%
example = masked["gen"][masked["gen"].case == "prim_to_subj_common"].iloc[0]
pd.Series({"sentence": example.source, "logical form": example.target})

# %% [markdown]
# ### The auxiliary text
#
# The dissertation glosses and denoises the text of CCGBank (Wall Street Journal sentences; the
# table below gives the paper's count). CCGBank is licensed and not available here. The substitute is every distinct
# English sentence of three corpora the data registry holds: STS Benchmark, SICK and STR-2022
# -- image captions, news headlines, forum posts, reviews, NLI premises: shorter and plainer
# than the Wall Street Journal. **The text differs**, and so does everything that depends on it
# (vocabulary, parameter counts, the glossing loss). CCG supertagging needs CCGBank's
# annotation and is **not run**.

# %%
full_config = ac.paper_aux_config("transformer", "gloss", gloss_tokens=gloss_tokens)
full_corpus = two_stage.corpus(full_config)
token_counts = full_corpus.text.str.split().str.len()
report.glue("caux_corpus_sentences", len(full_corpus))
report.glue("caux_corpus_tokens", int(token_counts.sum()))
report.glue("caux_corpus_mean_tokens", float(token_counts.mean()))
report.glue("caux_corpus_words", len({t for text in full_corpus.text for t in text.split()}))
report.glue("caux_corpus_dev_sentences", int((full_corpus.split == "dev").sum()))
gap = full_corpus.text.map(lambda t: auxiliary_data.has_gap_form(t.split()))
report.glue("caux_corpus_gap_sentences", int(gap.sum()))
pd.Series(
    {
        "sentences (ours)": len(full_corpus),
        "sentences (CCGBank, the paper)": paper["caux_aux_sentences"],
        "tokens": int(token_counts.sum()),
        "tokens per sentence": round(float(token_counts.mean()), 1),
        "word types": len({t for text in full_corpus.text for t in text.split()}),
        "held out for early stopping": int((full_corpus.split == "dev").sum()),
    }
)

# %% [markdown]
# {glue:text}`caux_corpus_sentences:,.0f` sentences ({glue:text}`caux_corpus_tokens:,.0f`
# tokens, {glue:text}`caux_corpus_mean_tokens:.1f` per sentence) stand in for CCGBank's;
# {glue:text}`caux_corpus_dev_sentences:,.0f` are held out for the auxiliary stage's early
# stopping. {glue:text}`caux_corpus_gap_sentences` of them use one of the 21 gap forms (*ship*,
# *Charlie*, ...): as in the dissertation they are kept, since in COGS those words are now
# `[w_n]` tokens that never occur in the auxiliary text, so no auxiliary sentence shows a
# held-out item.
#
# The two objectives, on the first sentences: **glossing** maps every word to its gloss `w'`
# (Section 5.2.1.2; `John' buys' shares'` is example (8) of Section 5.2.2). The prime marks the
# output side: the models have "separate input and output vocabulary spaces" (footnote 4 of
# Section 5.2.1.2), so by default `w'` is the output token with the word's string: the gloss of
# *Emma* is the output symbol `Emma` that COGS's logical forms use (`gloss_tokens = "primed"`
# writes a distinct token `Emma'` instead; the parameter counts below decide between the two).
# **Denoising** hides 15% of the tokens in
# spans of mean length 3 behind sentinels and asks for the hidden spans (T5's span corruption),
# after packing the text into chunks of at most 512 tokens as T5's pipeline does.

# %%
glossed = auxiliary_data.gloss_pairs(full_corpus.head(3), gloss_tokens)
denoised = auxiliary_data.denoise_pairs(full_corpus, chunk_tokens=512, seed=1)
report.glue("caux_denoise_chunks", len(denoised))
report.glue("caux_paper_denoise_chunks", paper["caux_aux_denoise_chunks"])
results.update(caux_aux_sentences=len(full_corpus), caux_aux_denoise_chunks=len(denoised))
report.glue("caux_denoise_corrupted", auxiliary_data.corrupted_fraction(denoised))
display(glossed[["source", "target"]])
denoised.assign(source=denoised.source.str.slice(0, 160) + " ...",
                target=denoised.target.str.slice(0, 100) + " ...")[["source", "target"]].head(2)

# %% [markdown]
# Denoising packs the text into {glue:text}`caux_denoise_chunks:,.0f` chunks (the paper's
# CCGBank text gave {glue:text}`caux_paper_denoise_chunks:,.0f`, Section 5.2.2) and hides
# {glue:text}`caux_denoise_corrupted:.3f` of their tokens.
#
# ## Method
#
# **Sequential training** (Section 5.2.4 and its footnote 15): each model is trained on the
# auxiliary task until its dev loss has not improved for 5 validations, and its best weights
# start the COGS training, which follows Chapter 4's protocol exactly as in the chapter
# `cogs-models` (noam schedule,
# 512 sentences per update, validation every 500 updates, patience 5, at most 30,000 updates;
# label smoothing for the Transformer, clipping for the LSTMs). The auxiliary stage uses the
# same settings (the dissertation says only that it also stops early at patience 5). The
# dissertation trained with OpenNMT-py (Section 4.5.1), where a second stage starts from a
# checkpoint with `-train_from`, which by default keeps the checkpoint's Adam state and update
# count: the noam rate goes on from the auxiliary stage's step, and the 30,000-update bound
# counts both stages. The COGS stage here does the same from the auxiliary stage's best
# checkpoint (`cogs_optimizer = "continue"`; `"restart"` gives it a fresh Adam and schedule).
#
# **One vocabulary for all objectives.** The auxiliary text enlarges the vocabulary, and a
# larger vocabulary changes the Xavier initialisation of the embeddings and the label
# smoothing (footnote 14 of Section 5.2.4), so the dissertation re-trained its baselines with it
# (Section 5.2.4; their parameter counts are in the table below). Here too every objective and the baseline share one vocabulary: every
# `[w_n]` COGS split, the words of the auxiliary text, their gloss tokens (the words themselves
# with `gloss_tokens = "word"`) and the sentinels. Ours with the substitute text, beside the
# paper's:

# %%
counts = two_stage.parameter_counts(full_config)
results.update({f"caux_params_{m}": counts[gloss_tokens][m] for m in ac.GRID_MODELS})
report.glue_all(two_stage.parameter_values(counts, gloss_tokens))
report.glue("caux_paper_params_transformer_m", paper["caux_params_transformer"] / 1e6)
display(pd.DataFrame(counts).T.rename_axis("glosses"))
report.style_comparison(
    report.compare(results, "cogs-auxiliary", keys=[f"caux_params_{m}" for m in ac.GRID_MODELS])
)

# %% [markdown]
# {glue:text}`caux_vocab_source:,.0f` source and {glue:text}`caux_vocab_target:,.0f` target
# types. The counts are shown beside the paper's as a *substitute*: our text has a different
# vocabulary. They also say how the dissertation wrote its glosses. Its three counts exceed
# Chapter 4's by nearly one amount, the cost of the auxiliary words in the input and output
# layers. With the glosses as the words' own output tokens our counts come close to the
# paper's (the Transformer: {glue:text}`caux_params_word_transformer_m:.1f`M against
# {glue:text}`caux_paper_params_transformer_m:.0f`M), while a distinct primed token per word
# adds a second output row for every word ({glue:text}`caux_vocab_target_primed:,.0f` target
# types; the Transformer {glue:text}`caux_params_primed_transformer_m:.1f`M), far above any
# count the paper gives. So the glosses here are the words' own output tokens by default.
#
# ## Results
#
# ### The paper's grid (Figures 5-1 to 5-3)
#
# The full configuration: Transformer, LSTM and BiLSTM, each as a same-vocabulary baseline,
# after glossing and after denoising, over several seeds (the paper: more, Section 5.2.4). Each
# run trains two models to early stopping, which needs a GPU. They are trained with
# `python -m compsem.cogs.seq2seq.auxiliary_train --grid --jobs 4 --no-fuse` (Reproduce; with
# `--train-minutes M` one call trains for M minutes, a run it cuts counts as not done and resumes
# at the next call), which writes one result folder per configuration
# (`data/results/cogs-auxiliary/<hash>/`); this chapter reads whichever are committed and marks
# the rest **pending (needs a GPU)**. The runs found:

# %%
grid = ac.aux_grid(grid_models, grid_objectives, grid_seeds,
                   decoding={"method": grid_decoding} if grid_decoding == "greedy" else None,
                   gloss_tokens=gloss_tokens, cogs_optimizer=cogs_optimizer)
if grid_train:  # a GPU was checked for at the top
    two_stage.ensure_results(grid, train_missing=True, device=device)
grid_runs, grid_cases = two_stage.collect(grid)
grid_summary = two_stage.summarise(grid_runs)
report.glue("caux_grid_runs_done", len(grid_runs))
report.glue("caux_grid_runs_total", len(grid))
status = (
    grid_runs.groupby(["model", "objective"]).seed.count().rename("runs done")
    if len(grid_runs)
    else pd.Series({"all": f"0 of {len(grid)} runs done: pending (needs a GPU)"}, name="status")
)
status

# %% [markdown]
# {glue:text}`caux_grid_runs_done` of the {glue:text}`caux_grid_runs_total` runs of the full
# configuration have results. Ours (mean and 95% t-interval over the seeds, cut to [0, 1] for an
# accuracy, the range it can take) beside the paper's
# means and SDs over its seeds; conditions without runs read *pending*, and the CCG conditions
# are the paper's only:

# %% tags=["full-width"]
table, values = two_stage.grid_table(grid_summary, paper, grid_models, LABELS)
results.update(values)
table

# %%
# for the claims, once runs exist: Welch's intervals at the levels the claims declare, the
# ratios of seed SDs (glossing-steadies-transformer) and the glossing losses of the LSTMs
# against the Transformer's (transformer-learns-glossing-best); none without runs
report.glue_all(two_stage.difference_keys(two_stage.differences(grid_runs, levels=two_stage.GRID_LEVELS)))
report.glue_all(two_stage.interval_keys(grid_summary))
report.glue_all(two_stage.sd_ratio_keys(grid_runs))
report.glue_all(two_stage.model_differences(grid_runs))
report.show_comparison(report.compare(results, "cogs-auxiliary",
                                      keys=two_stage.grid_mean_keys(grid_models)),
                       "means of Figures 5-1 to 5-3")

# %% mystnb={"figure": {"caption": "Figures 5-1 to 5-3 recomputed: gen accuracy of each architecture as a baseline, after glossing and after denoising (language modelling); the paper's mean over its seeds as black crosses with its SD as a grey bar, ours as blue dots with the 95% t-interval over our seeds where the full configuration's runs exist (otherwise 'pending'). Look at the Transformer's glossing column against its baseline, and at whether the LSTMs move at all.", "name": "fig-cogs-auxiliary-grid"}}
paper_frame = two_stage.paper_gen(paper, grid_models)
auxiliary_figures.paper_vs_ours(
    paper_frame[paper_frame.objective.isin(grid_objectives)],
    grid_summary[grid_summary.quantity == "gen"],
    grid_models,
    grid_objectives,
    LABELS,
)
plt.show()

# %% [markdown]
# ### Single lexical errors and how well glossing is learnt
#
# The dissertation explains the Transformer's gain by its errors: a *single lexical error* is
# an output with the right structure and one word of the input wrong (Section 4.5.5.1; e.g.
# "A [w_1] burned Sophia" parsed with `director ( x _ 1 )`, example (11) of Section 5.2.6): a quarter of all gen examples for
# the baseline Transformer, a few percent after glossing (Section 5.2.6). And Transformers learn
# glossing best: the lowest dev cross-entropy on the glossing task, then the BiLSTM, then the
# LSTM, which the author attributes to multi-head scaled dot-product attention against global
# dot attention. The paper's values and ours, where the runs exist:

# %%
values, extra_keys = two_stage.paper_error_values(grid_summary, grid_models, targets)
results.update(values)
report.style_comparison(report.compare(results, "cogs-auxiliary", keys=extra_keys))

# %% [markdown]
# ### Experiment 2: the amount of pretraining (not run)
#
# The dissertation's second experiment (Section 5.3) fine-tunes T5-small on the `[w_n]` variant
# of COGS after language-model pretraining on amounts of text from none (a randomly initialised
# T5), through growing amounts of English Wikipedia that the author pretrained on, to the
# released checkpoint, pretrained on C4 (Section 5.3.1, Figure 5-4), and finds that more pretraining *lowers* generalization accuracy while
# the outputs become more often structurally correct, and that without the `[w_n]` substitution
# the fully pretrained model does far better, because its pretraining text shows the held-out
# words in the held-out contexts. None of it is run here: the released T5-small weights and its
# SentencePiece tokenizer, English Wikipedia and C4 are not available offline, and pretraining
# T5-small from scratch on each amount of text, then fine-tuning it over seeds, needs GPU time
# on a scale not available here. Only the condition without pretraining could be run,
# with another tokenizer, which would not test the claim about the amount of pretraining. The
# Findings list the experiment's claims as not testable, with what they need.

# %% [markdown]
# ### A reduced Transformer on a CPU
#
# The default profile trains a **reduced** configuration, so labelled: a 2+2-layer
# Transformer of width `reduced_d_model` (feed-forward twice that, 4 heads), the auxiliary
# vocabulary capped at its 1,000 most frequent words (the rest `<unk>`) over a random 6,000 of
# the sentences, one batch of 128 per update with the noam schedule (factor 1, warm-up a
# quarter of each stage's budget, which the glossing arm's COGS stage, continuing the
# auxiliary stage's update count, starts past: Deviations), budgets of `reduced_aux_max_steps` auxiliary and
# `reduced_max_steps` COGS updates (dev loss checked every 50 updates, the paper's patience of 5
# validations, the best weights kept), greedy decoding of dev, test and gen
# (`reduced_per_split`, `reduced_per_case`: all of them by default). Baseline and glossing
# share the vocabulary, as in the paper. It trains on the **100-exposure** set
# (`reduced_exposures`, as the reduced run of `cogs-models`; the paper's Experiment 1 uses one
# exposure), so that each held-out item is in many training sentences rather than one, which
# the few epochs a CPU affords may not teach. Its result files are committed
# (`data/results/cogs-auxiliary/`); re-executing the chapter with the same parameters reads
# them.
#
# A budget a CPU affords is far from the paper's (thousands of updates of a model
# with tens of millions of parameters, against {glue:text}`caux_reduced_parameters:,.0f` here),
# and exact match needs every one of dozens of output tokens right. So beside
# exact match the runs are scored at the token level, with the gold output fed in (teacher
# forcing) on gen: the share of output tokens the model ranks first, and the
# same share at the positions of the `[w_n]` tokens, i.e. whether the model retrieves the
# held-out item where it belongs -- the step that a single lexical error gets wrong -- and the
# COGS dev cross-entropy at the best validation.

# %%
reduced = [
    ac.reduced_aux_config(o, s, reduced_max_steps, reduced_aux_max_steps, reduced_exposures,
                          reduced_per_case, reduced_per_split,
                          architecture={"d_model": reduced_d_model, "ff": 2 * reduced_d_model},
                          gloss_tokens=gloss_tokens, cogs_optimizer=cogs_optimizer)
    for o in reduced_objectives
    for s in reduced_seeds
]
available = two_stage.ensure_results(reduced, train_missing, device=device, results_dir=results_dir)
red_runs, red_cases = two_stage.collect(available, results_dir)
red_summary = two_stage.summarise(red_runs)
report.glue_all(two_stage.reduced_run_values(red_runs, reduced_objectives))  # runs, seeds, minutes
start = two_stage.cogs_stage_start(available, red_runs)  # how each arm's COGS stage starts
report.glue_all({f"caux_reduced_{k}": v for k, v in start.items()})
net = cfg.build_model(reduced[0], *map(len, two_stage.vocabularies(reduced[0])))
report.glue("caux_reduced_parameters", cfg.count_parameters(net))
report.glue("caux_reduced_aux_steps", reduced_aux_max_steps)
report.glue("caux_reduced_cogs_steps", reduced_max_steps)
report.glue("caux_paper_gloss_aux_loss", paper["caux_transformer_gloss_aux_loss"])
del net
red_runs.drop(columns=["hash", "device"]).round(3)

# %% [markdown]
# {glue:text}`caux_reduced_n_runs` runs ({glue:text}`caux_reduced_n_seeds` seeds per
# objective, {glue:text}`caux_reduced_parameters:,.0f` parameters each), trained and decoded in
# {glue:text}`caux_reduced_train_minutes:.1f` minutes of wall-clock time, summed over the runs.
# Mean and 95% t-interval over the seeds:

# %%
report.glue_all(two_stage.reduced_summary_keys(red_summary))
if {"none", "gloss"} <= set(red_runs.objective):  # one family of contrasts (Bonferroni)
    report.glue_all(two_stage.reduced_contrasts(red_runs, "transformer-reduced", "gloss"))
report.glue_all(two_stage.paper_reduced_differences(paper))  # another protocol, for orientation
(
    red_summary.assign(objective=red_summary.objective.map(LABELS))
    .set_index(["objective", "quantity"])[["n", "mean", "sd", "low", "high"]]
    .round(3)
)

# %% mystnb={"figure": {"caption": "The reduced CPU runs (a small Transformer, short fixed budgets; not the paper's configuration), baseline against glossing: COGS dev cross-entropy per token at the end of the budget, the share of gen output tokens ranked first under teacher forcing, the same share at the [w_n] positions (is the held-out item retrieved), and gen exact match; per seed (faint dots) and as the mean with its 95% t-interval over seeds. Look at whether the glossing interval lies apart from the baseline's in each panel.", "name": "fig-cogs-auxiliary-reduced"}}
auxiliary_figures.reduced_runs(
    red_runs.assign(objective=pd.Categorical(red_runs.objective, reduced_objectives)),
    red_summary,
    ["best_dev_loss", "gen_token_accuracy", "gen_wn_accuracy", "gen"],
    LABELS,
    {"best_dev_loss": "COGS dev cross-entropy", "gen_token_accuracy": "gen tokens right (forced)",
     "gen_wn_accuracy": "[w_n] retrieved (forced)", "gen": "gen exact match"},
)
plt.show()

# %% [markdown]
# **What the reduced run shows.** Glossing minus baseline, as the difference of the seed means
# with Welch's 95% interval, and with Welch's interval at Bonferroni's level for the
# {glue:text}`caux_reduced_contrasts` contrasts of this table taken as one family
# ({glue:text}`caux_reduced_family_level:.4f`, that is 1 − .05/k: the intervals of the family
# cover together with at least 95%, so a contrast picked out of the table after its values were
# seen is still read at 5%). The last column is the paper's glossing minus baseline for its
# full Transformer (Figure 5-1, Section 5.2.6): **another protocol** (the paper's model size,
# one exposure, both stages to early stopping, 10 seeds), set beside ours for orientation, not
# compared:
#
# | quantity | glossing − baseline | 95% interval | family interval (Bonferroni) | the paper, full configuration (another protocol) |
# |---|---|---|---|---|
# | COGS dev cross-entropy | {glue:text}`caux_reduced_gloss_minus_none_best_dev_loss:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_best_dev_loss_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_best_dev_loss_high:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_best_dev_loss_family_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_best_dev_loss_family_high:+.3f` | not reported |
# | gen tokens right (teacher forcing) | {glue:text}`caux_reduced_gloss_minus_none_gen_token_accuracy:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_gen_token_accuracy_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_gen_token_accuracy_high:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_gen_token_accuracy_family_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_gen_token_accuracy_family_high:+.3f` | not reported |
# | `[w_n]` retrieved (teacher forcing) | {glue:text}`caux_reduced_gloss_minus_none_gen_wn_accuracy:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_gen_wn_accuracy_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_gen_wn_accuracy_high:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_gen_wn_accuracy_family_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_gen_wn_accuracy_family_high:+.3f` | not reported |
# | dev exact match | {glue:text}`caux_reduced_gloss_minus_none_dev:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_dev_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_dev_high:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_dev_family_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_dev_family_high:+.3f` | {glue:text}`caux_paper_gloss_minus_none_dev:+.2f` |
# | gen exact match | {glue:text}`caux_reduced_gloss_minus_none_gen:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_gen_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_gen_high:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_gen_family_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_gen_family_high:+.3f` | {glue:text}`caux_paper_gloss_minus_none_gen:+.2f` |
# | single lexical errors (share of gen) | {glue:text}`caux_reduced_gloss_minus_none_single_lexical_error_rate:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_single_lexical_error_rate_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_single_lexical_error_rate_high:+.3f` | {glue:text}`caux_reduced_gloss_minus_none_single_lexical_error_rate_family_low:+.3f` to {glue:text}`caux_reduced_gloss_minus_none_single_lexical_error_rate_family_high:+.3f` | {glue:text}`caux_paper_gloss_minus_none_single_lexical_error_rate:+.3f` |
#
# Exact match is {glue:text}`caux_reduced_none_dev_mean:.3f` (baseline) and
# {glue:text}`caux_reduced_gloss_dev_mean:.3f` (glossing) on dev and
# {glue:text}`caux_reduced_none_gen_mean:.3f` and {glue:text}`caux_reduced_gloss_gen_mean:.3f`
# on gen. Under teacher forcing the models get
# {glue:text}`caux_reduced_none_gen_token_accuracy_mean:.3f` (baseline) and
# {glue:text}`caux_reduced_gloss_gen_token_accuracy_mean:.3f` (glossing) of the gen output
# tokens right and retrieve {glue:text}`caux_reduced_none_gen_wn_accuracy_mean:.3f` and
# {glue:text}`caux_reduced_gloss_gen_wn_accuracy_mean:.3f` of the held-out `[w_n]` tokens.
# The Findings decide two claims on the reduced run, each at 95% as declared before the runs:
# *reduced-glossing-fits-cogs* on dev exact match and *reduced-glossing-retrieves-items* on
# the retrieval of `[w_n]` tokens; each rule can hold or fail only where an arm is off the
# floor of zero. The other rows are **descriptive**, not decided. The share of gen tokens right
# under teacher forcing in particular is our measure, not the paper's: a claim on it was added
# after this table's values were seen and withdrawn on review, so its row is **post hoc**, and
# if it is read at all it is read at its family interval, like any contrast picked from the
# table. Every row is also **confounded**: in this run glossing minus baseline also measures
# how the optimiser starts (below, and Deviations), so none of them, decided or not, is
# evidence about the paper's claim. The single lexical error rate is shown, not judged: it
# counts gen outputs with the right structure and one wrong word, so a model that gets fewer
# structures right also makes fewer of them: the rate can fall with accuracy as well as with
# better retrieval.
#
# The glossing stage itself ended at a dev cross-entropy of
# {glue:text}`caux_reduced_gloss_aux_best_dev_loss_mean:.2f` per token, against
# {glue:text}`caux_paper_gloss_aux_loss:.2f` for the paper's full Transformer (Section 5.2.6),
# after {glue:text}`caux_reduced_aux_steps:.0f` updates of a model of
# {glue:text}`caux_reduced_parameters:,.0f` parameters. Its weights are the COGS stage's
# starting point, which the baseline's random weights are not, and so is its optimiser: the
# glossing arm's COGS stage starts at update {glue:text}`caux_reduced_gloss_start_step` with the
# Adam moments of glossing, past its warm-up of {glue:text}`caux_reduced_gloss_warmup` updates,
# so it never warms up and its highest learning rate is
# {glue:text}`caux_reduced_gloss_peak_lr_ratio:.2f` of the baseline's, while the baseline starts
# at update {glue:text}`caux_reduced_none_start_step` with a fresh Adam and warms up over
# {glue:text}`caux_reduced_none_warmup` updates. Glossing minus baseline therefore mixes two
# factors, the auxiliary task and the optimiser's state and schedule. Within a bounded budget
# the COGS stage also spends updates moving away from the glossing weights, while the paper
# trains both stages to early stopping. The COGS stage's best validation was its last one (still improving when the budget
# ended) in {glue:text}`caux_reduced_gloss_best_is_last` of the glossing runs and
# {glue:text}`caux_reduced_none_best_is_last` of the baseline runs. The reduced run tests the direction of the effect on a small model, not the
# paper's claim; the full configuration decides that.
#
# ### Results beside the paper
#
# Every number of the paper this chapter sets beside its own, in one table. The counts of the
# auxiliary text and the parameter counts are *substitutes* (another text, another vocabulary),
# and so are the glossing losses, which are not compared: their level is that of another text,
# and the paper gives no seed spread for them. The full configuration's means, SDs and error
# rates are marked *not-run*: the status marks that configuration as pending its GPU runs and
# is shown whatever our value, so it is to be changed when the runs are committed (to
# *substitute*, as the claims' evidence is: the vocabulary, and for glossing and denoising the
# auxiliary text, are the substitute corpus's). The CCG conditions and Experiment 2 are not run
# at all.

# %%
report.glue_all(results)
report.show_comparison(report.compare(results, "cogs-auxiliary", keys=list(targets)),
                       "paper numbers of Chapter 5, Experiment 1")

# %% [markdown]
# ## Deviations and errata
#
# - **Auxiliary text.** CCGBank (licensed) is replaced by the sentences of STS Benchmark, SICK
#   and STR-2022 ({glue:text}`caux_corpus_sentences:,.0f` sentences, fewer than CCGBank's); the
#   vocabulary, the parameter counts and the glossing loss depend on it. CCG supertagging (and
#   glossing + CCG) is not run.
# - **Glosses.** The dissertation writes a gloss as a primed token (`John' buys' shares'`,
#   example (8) of Section 5.2.2), the prime marking that the models have "separate input and
#   output vocabulary spaces" (footnote 4 of Section 5.2.1.2). The parameter counts of Section
#   5.2.4 fit glosses that are the words' own output tokens, not a second, primed token per word
#   (Data), so that is the default here; `gloss_tokens = "primed"` trains the other reading (a
#   separate configuration).
# - **The optimiser between the stages.** The dissertation does not say how the COGS stage
#   starts its optimiser. OpenNMT-py's `-train_from`, with which its toolkit trains a model
#   further, keeps the checkpoint's Adam state and update count unless told otherwise; that is
#   followed here from the auxiliary stage's best checkpoint (`cogs_optimizer = "continue"`),
#   with the 30,000-update bound on the two stages together, as `-train_steps`. The reduced run
#   gives every objective the same bound on COGS updates (its bound on the global update count
#   is raised by the auxiliary updates). `"restart"` gives the COGS stage a fresh Adam and schedule.
#   So in the reduced run the two arms differ in more than glossing: the glossing arm's COGS
#   stage starts at update {glue:text}`caux_reduced_gloss_start_step`, past its warm-up of
#   {glue:text}`caux_reduced_gloss_warmup` updates, with the Adam moments of glossing and never
#   more than {glue:text}`caux_reduced_gloss_peak_lr_ratio:.2f` of the baseline's highest
#   learning rate, while the baseline starts at update
#   {glue:text}`caux_reduced_none_start_step` with a fresh Adam and a warm-up of
#   {glue:text}`caux_reduced_none_warmup` updates. Glossing minus baseline mixes the auxiliary
#   task with the optimiser's state and schedule, which is why the reduced claims are not
#   evidence about the paper's (`"restart"` would give both arms a fresh Adam and warm-up; not
#   run here). Whether the dissertation's comparison mixed the same two factors depends on how
#   its second stage started, which it does not say.
# - **The LSTMs' embedding dropout.** As in `cogs-models`: none, as the released code ran, for
#   every LSTM and BiLSTM of the grid (the text says dropout follows the embeddings).
# - **Held-out auxiliary text.** The dissertation does not say what the auxiliary stage was
#   early-stopped on; here a seeded 10% of the sentences (Experiment 2 holds out 10% of its
#   pretraining text). Denoising corrupts the text once per run, with the run's seed.
# - **`[w_n]` numbering.** Footnote 12 of Section 5.2.3 maps *Lina* to `[w_1]`; the released code
#   maps *shark* to `[w_1]` and *Lina* to `[w_3]`, and the body's example "A [w_1] burned
#   Sophia" agrees with the code, which is followed here (a test pins it).
# - **Seeds and decoding.** The paper has more seeds per condition than here (Section 5.2.4) and
#   decodes with beam search; the full configuration here is read with the seeds of `grid_seeds`
#   and, by default, beam-5 decoding as the paper's and as the GPU runbook trains it (the
#   `grid_decoding` parameter reads greedy runs instead). `cogs-models` compares greedy with
#   beam 5 only on beam samples of a few seeds of its Transformer with one exposure (*Greedy or
#   beam?* there), not on these runs, so what greedy decoding changes here is not measured.
#   Tolerances are 2 SD of the difference of our seed mean and the paper's, from the paper's SDs;
#   for the single lexical error rates, for which the paper gives no spread, from the gen SD of
#   the same condition scaled by the share of its gen errors that are single lexical errors
#   (each target's `source` in `data/targets/cogs-auxiliary.json` says how). A band of one
#   condition can be as wide as a difference between two conditions: the Transformer's dev band
#   against its glossing gain on dev, the BiLSTM's gen bands against its denoising gain. A target
#   that matches says that one number agrees with the paper's within the seed spread, not that an
#   effect is reproduced; the effects are decided on the differences, by the claims of the
#   Findings.
# - **Reduced run.** Not the paper's configuration (model size, budgets, capped auxiliary
#   vocabulary, 100 exposures instead of one, greedy decoding, token-level scores under teacher
#   forcing beside exact match, and the optimiser's start confounded with glossing, above);
#   compared with the paper for the direction of the effect only. Its width is that of
#   `cogs-models`' reduced run.
#
# ## Extensions
#
# - **Gap words in the auxiliary text.** `gap_sentences="drop"` in the auxiliary corpus
#   settings removes the sentences that use a gap form, for a check that no ordinary-word
#   occurrence of *ship* or *Charlie* matters (not run here).
#
# ## Reproduce
#
# ```bash
# make run CHAPTER=cogs-auxiliary                     # reduced CPU run (default profile)
# make run CHAPTER=cogs-auxiliary PROFILE=smoke       # seconds: what CI runs
# # the full configuration, on a GPU (resumable; finished runs are skipped); --train-minutes 6
# # bounds one call to 6 minutes of training: repeat it until --list shows every run done
# .venv/bin/python -m compsem.cogs.seq2seq.auxiliary_train --grid --jobs 4 --no-fuse --train-minutes 6
# .venv/bin/python -m compsem.cogs.seq2seq.auxiliary_train --grid --list   # done / pending
# make run CHAPTER=cogs-auxiliary PROFILE=full        # or: train the missing runs from the chapter
# ```

# %% tags=["remove-input"]
report.glue_findings("cogs-auxiliary")
