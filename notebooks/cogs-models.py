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
# the one configuration trained by the paper's rule so far (the Transformer with one exposure,
# {glue:text}`cogs_tf1_n_seeds` seeds); the other columns of Table 4-5 are pending GPU runs
# (*The paper's grid* below). The paper's mean lies inside our interval for
# {glue:text}`cogs_tf1_cells_paper_inside` of the {glue:text}`cogs_tf1_cells` cells; an interval over so few seeds
# is wide, and the per-case comparisons with the paper's seed spread are in
# *The paper's grid*.
#
# ```{glue} cogs_findings_table45
# ```

# %% [markdown]
# ## Parameters

# %% tags=["parameters"]
reduced_model = "transformer-reduced"  # CPU model of the reduced run (d_model 128)
reduced_max_steps = 2500  # updates of the reduced run (one batch of 128 sentences each)
reduced_exposures = 100  # exposure examples per primitive of the reduced run (1 or 100)
reduced_per_case = 0  # gen examples per case decoded in the reduced run (0 means all 1000)
reduced_per_split = 0  # dev and test examples decoded in the reduced run (0 means all 3000)
seed = 1  # seed of the reduced run
reduced_keep_every = 250  # keep the reduced run's weights every N updates (when it trains)
train_missing = True  # train the reduced run when its results are missing (else pending)
grid_models = ["transformer", "bilstm", "lstm"]  # Table 4-5 models
grid_seeds = [1, 2, 3, 4, 5]  # Table 4-5 seeds
grid_exposures = [1, 100]  # exposure examples per primitive (Section 4.5.7)
size_models = ["transformer-small", "transformer-large"]  # Figure 4-3, beside the 2-layer
grid_train = False  # train missing runs of the paper grid here (needs a GPU; full profile)
device = "auto"  # auto (GPU when present), cpu or cuda
threads = 0  # CPU threads for torch (0 means the torch default)
results_dir = ""  # reduced-run results: empty for data/results/cogs-models, or cache
grid_amp = True  # bfloat16 autocast when training the grid on a GPU (False: float32, as the paper)
lstm_embedding_dropout = 0.0  # 0.0: none, as the released code ran; None: the model's 0.1, as the text
grid_keep_every = 500  # keep the grid's weights every N updates, for accuracy over updates
curve_per_case = 100  # gen examples per case scored at each kept update (the curve)
curve_per_split = 500  # dev and test examples scored at each kept update

# %%
import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import torch
from IPython.display import HTML, display
from myst_nb import glue as glue_display

from compsem import report
from compsem.cogs import evaluation as ev
from compsem.cogs import exposure, figures
from compsem.cogs import summary as s45
from compsem.cogs.interpret import interpret_all
from compsem.cogs.seq2seq import config as cfg
from compsem.cogs.seq2seq import curve as curves
from compsem.cogs.seq2seq import experiment, training
from compsem.cogs.seq2seq import results as res
from compsem.cogs.seq2seq.vocab import cogs_vocabularies
from compsem.data import cogs
from compsem.devices import resolve_device

report.set_theme()
if threads:
    torch.set_num_threads(threads)
results = {}  # every number compared with the paper, by target key
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
frames = {
    "train (1 exposure)": experiment.training_frame(1),
    "train_100 (100 exposures)": experiment.training_frame(100),
    **gold,
}
src_vocab, tgt_vocab = cogs_vocabularies()
pd.DataFrame(
    {
        name: {
            "examples": len(f),
            "source tokens (mean)": f.source.str.split().str.len().mean(),
            "target tokens (mean)": f.target.str.split().str.len().mean(),
            "target tokens (max)": f.target.str.split().str.len().max(),
        }
        for name, f in frames.items()
    }
).T.round(1)

# %% [markdown]
# `train_100` is rebuilt (`compsem.cogs.exposure`): `train.tsv` without its 15 exposure rows, plus
# the 1,500 rows of `cogs-with-pretraining`. The upstream file is not in the data mirror; its git
# blob id is, and it is the only check available. `train.tsv` written back from its loader frame
# has upstream's blob id (so the serialisation is right); of the
# {glue:text}`cogs_train100_candidates` plausible orderings of the rebuilt rows (the added rows
# after or before the rest, with or without the original 15, in place of them, other line ends),
# {glue:text}`cogs_train100_candidates_matching` has upstream's (Deviations and errata).

# %%
train_100_blobs = {
    name: exposure.git_blob_id(content)
    for name, content in exposure.train_100_candidates(
        cogs.load("train"), cogs.load("exposure-1"), cogs.load("exposure-100")
    ).items()
}
report.glue("cogs_train100_rows", len(frames["train_100 (100 exposures)"]))
report.glue("cogs_train100_candidates", len(train_100_blobs))
report.glue(
    "cogs_train100_candidates_matching",
    sum(blob == exposure.UPSTREAM_TRAIN_100_BLOB for blob in train_100_blobs.values()),
)
pd.Series(train_100_blobs, name="git blob id").to_frame().assign(
    upstream=lambda f: f["git blob id"] == exposure.UPSTREAM_TRAIN_100_BLOB
)

# %% [markdown]
# The 21 generalization cases (Table 4-1) and their kind: 18 need *lexical* generalization (a
# known word in a new role or construction), 3 *structural* generalization (a new structure).

# %%
sections = cogs.load_case_sections()
cases = pd.DataFrame(
    {
        "case": ev.CASE_ORDER,
        "label": [ev.CASE_LABELS[c] for c in ev.CASE_ORDER],
        "kind": [ev.case_kind(c) for c in ev.CASE_ORDER],
        "section (released JSON)": [sections[c].split(" ")[0] for c in ev.CASE_ORDER],
    }
)
cases.set_index("case")

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
# **Metric**: exact match of the whole output (Section 4.4); the generalization accuracy is the
# mean over the 21 cases, split into lexical and structural means (Figure 4-1).
#
# The parameter counts, built with the COGS vocabularies
# ({glue:text}`cogs_vocab_source` source and {glue:text}`cogs_vocab_target` target ids):

# %%
report.glue("cogs_vocab_source", len(src_vocab))
report.glue("cogs_vocab_target", len(tgt_vocab))
param_rows = []
for name in cfg.PAPER_MODELS:
    net = cfg.build_model(cfg.make_config(name), len(src_vocab), len(tgt_vocab))
    key = f"cogs_params_{name.replace('-', '_')}"
    results[key] = cfg.count_parameters(net)
    param_rows.append(
        {
            "model": cfg.LABELS[name],
            **{k: v for k, v in cfg.ARCHITECTURES[name].items() if k != "dropout"},
        }
    )
    del net
param_keys = [k for k in results if k.startswith("cogs_params_")]
reduced_net = cfg.build_model(cfg.make_config(reduced_model), len(src_vocab), len(tgt_vocab))
report.glue("cogs_reduced_parameters", cfg.count_parameters(reduced_net))
del reduced_net
report.style_comparison(report.compare(results, "cogs-models", keys=param_keys))

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
# - **Transformer, seeds 1-3, one exposure, trained by the paper's rule** (early stopping on
#   dev loss; the updates are in the runs table below), under bfloat16 autocast. Their best
#   weights were kept as a bfloat16 copy and were
#   decoded **greedily on the CPU** in float32 (beam 5 over 27,000 sentences takes over an hour
#   per run on 2 cores), and with beam 5 on a sample; the paper decodes with beam 5. These runs
#   fill Table 4-5's Transformer column with n = 3 (targets marked *partial*).
# - **Runs cut by the time budget** (stop reason *time limit*; listed below, not compared with
#   the paper): Transformer seeds 4-5, decoded with beam 5 on the GPU; the LSTM and BiLSTM seeds
#   1-3 cut beside them used the text's embedding dropout, which the grid no longer does
#   (Deviations and errata). A later call of the training command trains such runs again from
#   the start (their checkpoints stayed on the device).
# - What made the budget short: the first runs used PyTorch's cuDNN attention kernel, which
#   builds a plan for every new shape, so an update took 0.8 s instead of 0.025 s and beam
#   search ran at 55 tokens/s
#   (`benchmarks/results/bench_cogs_h100_2026-11-22.txt`); the Transformer now leaves that kernel
#   out. Resuming on a GPU also failed once (the saved random-number state was moved to the
#   GPU); fixed and tested.
#
# `benchmarks/bench_cogs.py` prints each model's training and decoding throughput on the
# machine at hand.

# %%
grid = cfg.paper_grid(grid_models, grid_seeds, grid_exposures, size_models, lstm_embedding_dropout)
if grid_train:
    if not resolve_device(device).startswith("cuda"):
        raise RuntimeError(
            "grid_train=True needs a GPU (the paper grid takes days on a CPU); "
            "set device to cuda on a GPU machine, or grid_train to False"
        )
    for config in grid:
        experiment.run(
            config, device=device, amp=grid_amp, progress=False, keep_every=grid_keep_every
        )
collected_all = res.collect(grid, any_decoding=True)  # a greedy decoding stands in for beam 5
cut_short = collected_all.stop_reason == "time limit"
collected = collected_all[~cut_short]  # runs trained by the paper's stopping rule
reference_gen = gold["gen"].assign(
    exact=ev.exact_match([r or "" for r in interpret_all(gold["gen"].source)], gold["gen"].target)
)
reference_by_case = ev.accuracy_by_case(reference_gen.exact, reference_gen.case)
reference_splits = {"gen": ev.aggregate(reference_by_case)["gen"]}
for split in ("dev", "test"):
    predicted = [r or "" for r in interpret_all(gold[split].source)]
    reference_splits[split] = float(ev.exact_match(predicted, gold[split].target).mean())
runs_done = collected.drop_duplicates("hash")
runs_cut = collected_all[cut_short].drop_duplicates("hash")
report.glue("cogs_grid_runs_done", len(runs_done))
report.glue("cogs_grid_runs_cut", len(runs_cut))
report.glue("cogs_grid_runs_total", len(grid))
RUN_COLUMNS = ["model", "exposures", "seed", "steps", "stop_reason", "decoding", "device"]
(
    collected_all.drop_duplicates("hash")[[*RUN_COLUMNS, "wall_seconds", "hash"]].reset_index(
        drop=True
    )
    if len(collected_all)
    else pd.DataFrame({"status": [f"0 of {len(grid)} runs done: pending (needs a GPU)"]})
)

# %% [markdown]
# Of the {glue:text}`cogs_grid_runs_total` runs of the grid, {glue:text}`cogs_grid_runs_done`
# were trained by the paper's stopping rule and {glue:text}`cogs_grid_runs_cut` were cut short by
# the time budget. The runs cut short, for what they show (not compared with the paper: their
# training did not reach its stopping rule):

# %%
if len(runs_cut):
    cut_table = collected_all[cut_short & collected_all.quantity.isin(["dev", "test", "gen"])]
    display(
        cut_table.pivot_table(
            index=["model", "exposures", "seed", "steps", "decoding"],
            columns="quantity",
            values="accuracy",
        ).round(3)
    )
else:
    print("no runs cut short")

# %% [markdown]
# These show how far training had got when the time budget ran out (updates and accuracies in
# the table; the LSTMs cut earlier, shown with `lstm_embedding_dropout=None`, were then still
# within the 4,000 updates of the learning-rate warm-up). They are not compared with the paper.
#
# Table 4-5 with ours (mean ± SD over the seeds trained by the stopping rule, and their number)
# beside the paper's mean of 5 seeds, folded below the summary of its comparison (one row per
# model, exposures and case):

# %% tags=["full-width"]
per_run = s45.run_level(collected)
table45, table45_means = s45.table_4_5(
    collected, per_run, grid_models, grid_exposures, paper, cfg.LABELS
)
results.update(table45_means)
display(
    HTML(
        "<details><summary>Table 4-5 laid out as in the paper: ours as mean ± SD over the seeds "
        f"(n), the paper's mean of 5 seeds</summary>{table45.to_html()}</details>"
    )
)
report.show_comparison(
    report.compare(results, "cogs-models", keys=[k for k in targets if k.startswith("cogs_t45_")]),
    "cells of Table 4-5",
)

# %% [markdown]
# The grid's means (gen, and its lexical and structural parts) beside the paper. A target marked
# *not-run* is pending a GPU run. One marked *partial* (our mean is over 3 of the paper's 5
# seeds, decoded greedily) is held to a tolerance derived from the paper's seed spread, as its
# source in `data/targets/cogs-models.json` states; where ours lies further away the targets file
# expects it, and Deviations and errata say why:

# %%
grid_keys = [
    f"{prefix}_{m}_{e}_{q}"
    for e in grid_exposures
    for m in grid_models
    for prefix, q in (("cogs_t45", "gen"), ("cogs_fig41", "lexical"), ("cogs_fig41", "structural"))
]
report.show_comparison(
    report.compare(results, "cogs-models", keys=[k for k in grid_keys if k in targets]),
    "means of the grid (gen, lexical and structural, per model and exposures)",
)

# %% [markdown]
# #### The Transformer over its seeds
#
# The quantities the Findings check, per seed of the Transformer with one exposure, with their
# mean and a 95% t-interval over the seeds ($\bar x \pm t_{0.975,\,n-1}\, s/\sqrt n$). The last
# row is our gen mean minus the paper's, with Welch's interval, which also uses the paper's SD
# over its 5 seeds (Figure 4-3): two means of a few seeds each are compared, not our mean with a
# fixed number.

# %%
PRIMITIVE_CASES = [c for c in ev.CASE_ORDER if c.startswith("prim_to_")]
tf1 = per_run[(per_run.model == "transformer") & (per_run.exposures == 1)].set_index("seed")
seed_rows = {}
if len(tf1) >= 2:
    tf1_cases = collected[
        (collected.model == "transformer") & (collected.exposures == 1)
    ].pivot_table(index="seed", columns="quantity", values="accuracy")
    per_seed = {
        "dev": tf1["dev"],
        "test": tf1["test"],
        "gen": tf1["gen"],
        "lexical": tf1["lexical"],
        "structural": tf1["structural"],
        "gap": tf1["test"] - tf1["gen"],
        "lexical_minus_structural": tf1["lexical"] - tf1["structural"],
        "active_to_passive": tf1_cases["active_to_passive"],
        "primitive": tf1_cases[PRIMITIVE_CASES].mean(axis=1),
        # Section 4.5.5.3: common minus proper noun, averaged over the four paired cases
        "common_minus_proper": pd.concat(
            [tf1_cases[common] - tf1_cases[proper] for _, common, proper in ev.NOUN_PAIRS],
            axis=1,
        ).mean(axis=1),
    }
    for name, values in per_seed.items():
        mean, low, high = s45.t_interval(values)
        report.glue(f"cogs_tf1_{name}_ci_low", low)
        report.glue(f"cogs_tf1_{name}_ci_high", high)
        # 90% intervals for the equivalence claims (two one-sided tests at the 5% level)
        _, low90, high90 = s45.t_interval(values, level=0.90)
        report.glue(f"cogs_tf1_{name}_ci90_low", low90)
        report.glue(f"cogs_tf1_{name}_ci90_high", high90)
        seed_rows[name] = {
            **{f"seed {s}": v for s, v in values.items()},
            "mean": mean,
            "95% low": low,
            "95% high": high,
        }
    report.glue("cogs_tf1_n_seeds", len(tf1))
    report.glue("cogs_tf1_gap", float(per_seed["gap"].mean()))
    report.glue("cogs_tf1_primitive_mean", float(per_seed["primitive"].mean()))
    report.glue("cogs_tf1_common_minus_proper", float(per_seed["common_minus_proper"].mean()))
    report.glue(
        "cogs_tf1_lexical_minus_structural", float(per_seed["lexical_minus_structural"].mean())
    )
    difference, low, high = s45.welch_difference(
        tf1["gen"], paper["cogs_fig43_transformer_gen"], paper["cogs_fig43_transformer_gen_sd"]
    )
    report.glue("cogs_tf1_gen_minus_paper", difference)
    report.glue("cogs_tf1_gen_minus_paper_ci_low", low)
    report.glue("cogs_tf1_gen_minus_paper_ci_high", high)
    _, low90, high90 = s45.welch_difference(
        tf1["gen"],
        paper["cogs_fig43_transformer_gen"],
        paper["cogs_fig43_transformer_gen_sd"],
        level=0.90,
    )
    report.glue("cogs_tf1_gen_minus_paper_ci90_low", low90)
    report.glue("cogs_tf1_gen_minus_paper_ci90_high", high90)
    seed_rows["gen: ours − paper (Welch)"] = {"mean": difference, "95% low": low, "95% high": high}
    findings45 = s45.findings_table(collected, per_run, "transformer", 1, paper)
    report.glue("cogs_tf1_cells", len(findings45))
    report.glue("cogs_tf1_cells_paper_inside", int(findings45["paper inside"].sum()))
    glue_display(
        "cogs_findings_table45",
        HTML(
            findings45.assign(
                **{c: findings45[c].astype(float).round(3) for c in findings45.columns[:4]}
            ).to_html()
        ),
        display=False,
    )
pd.DataFrame(seed_rows).T.round(3) if seed_rows else print("no Transformer runs with one exposure")

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
# {glue:text}`cogs_tf1_gen_minus_paper_ci90_high:+.3f`, neither inside nor wholly outside a margin
# of the paper's seed SD, so the Findings leave the level undecided (claim
# *transformer-gen-near-35*, inconclusive). The difference lies in lexical cases (the
# Findings' Table 4-5; the structural ones are near 0 in both). On the seeds where it was
# measured, greedy decoding does not explain it: on beam samples of
# {glue:text}`cogs_beam_n_seeds` of these seeds (*Greedy or beam?* below), beam 5 moves their gen
# mean by {glue:text}`cogs_beam_minus_greedy_gen:+.3f` against greedy on the same sentences. No
# other model or exposure of the grid enters that comparison.
#
# What remains open: the paper's other seeds (in Chapter 5 the same Transformer, with a larger
# vocabulary, varies over seeds about three times as much as in Figure 4-3); training under bfloat16 autocast and the bfloat16
# copy of the weights (Deviations and errata; `grid_amp=False` or `--no-amp` trains in float32);
# how far gen accuracy moves with the length of training, which a stopping rule on dev loss fixes
# by chance (*Accuracy over training updates* below, measured so far on the reduced run only);
# and implementation details, of which the layers are checked against PyTorch's own pre-norm
# Transformer (`tests/test_cogs_oracles.py`). More seeds trained by the stopping rule, in
# float32, would narrow the interval. Because of the bfloat16 training and weights and the
# greedy decoding, the Findings count every claim on these runs as a *substitute* for the
# paper's runs, not a reproduction.

# %% [markdown]
# #### Greedy or beam?
#
# The finished Transformer runs were decoded greedily, the paper decodes with beam 5. Where a
# trained model also has a beam-5 decoding of a sample (500 dev and 500 test sentences, 100 per
# gen case; beam search over all 27,000 sentences takes over an hour per run on this CPU), both
# are scored on the same sentences, with two shares of their gen errors. The averages in the
# text are taken over the seeds of the 9.5M Transformer with one exposure that have both
# decodings, {glue:text}`cogs_beam_n_seeds` of them: a measurement on those seeds, not on the
# other models and exposures of the grid.

# %%
decoding_rows = []
beam_seeds = []  # the runs averaged over: seeds of the Transformer with one exposure
for config in grid:
    found = res.decodings(config)
    samples = [c for c in found if c["decoding"]["method"] == "beam" and c["decoding"]["per_case"]]
    whole = [
        c for c in found if c["decoding"]["method"] == "greedy" and not c["decoding"]["per_case"]
    ]
    if not (samples and whole):
        continue
    if config["model"] == "transformer" and config["data"]["exposures"] == 1:
        beam_seeds.append(cfg.describe(config))
    beam_run, greedy_run = res.load_result(samples[0]), res.load_result(whole[0])
    keys = ["split", "row"]
    shared = beam_run.predictions[keys].merge(greedy_run.predictions, on=keys)
    for label, frame in (("beam 5", beam_run.predictions), ("greedy", shared)):
        scored = experiment.exact_match_accuracy(frame, gold)
        by = pd.Series(scored["gen_by_case"])
        sample = ev.analyse(ev.join_gold(frame, gold), with_semantics=False)
        sample = sample[sample.split == "gen"]
        decoding_rows.append(
            {
                "run": cfg.describe(config),
                "decoding": label,
                "sentences": len(frame),
                "dev": scored["accuracy"]["dev"],
                "test": scored["accuracy"]["test"],
                **ev.aggregate(by.reindex([c for c in ev.CASE_ORDER if c in by.index])),
                "errors not ending in ')'": ev.error_summary(sample)["error_not_ending_paren"],
                "depth errors at the cap": ev.depth_errors(sample)["capped"],
            }
        )
decodings_table = pd.DataFrame(decoding_rows)
if beam_seeds:
    compared = decodings_table[decodings_table["run"].isin(beam_seeds)]
    report.glue("cogs_beam_n_seeds", len(beam_seeds))
    gap = compared.groupby("decoding")["gen"].mean()
    report.glue("cogs_beam_minus_greedy_gen", float(gap["beam 5"] - gap["greedy"]))
    shares = compared.groupby("decoding")[
        ["errors not ending in ')'", "depth errors at the cap"]
    ]
    for label, name in (("beam 5", "beam"), ("greedy", "greedy")):
        for column, key in (
            ("errors not ending in ')'", "not_paren"),
            ("depth errors at the cap", "depth_capped"),
        ):
            value = float(shares.mean().loc[label, column])
            if math.isfinite(value):
                report.glue(f"cogs_{name}_{key}", value)
if len(decodings_table):
    display(decodings_table.set_index(["run", "decoding"]).round(3))
else:
    print("no run has both a beam and a greedy decoding")

# %% [markdown]
# Averaged over these {glue:text}`cogs_beam_n_seeds` seeds of the Transformer with one exposure,
# beam 5 moves the generalization mean by {glue:text}`cogs_beam_minus_greedy_gen:+.3f` against
# greedy decoding on the same sentences, while the Transformer's mean over its seeds is
# {glue:text}`cogs_tf1_gen_minus_paper:+.3f` from the paper's: on these seeds the decoding does
# not account for that difference (the average leaves out every other model and exposure of the
# grid). It does change how their outputs fail: errors that do not end in `)` are
# {glue:text}`cogs_beam_not_paren:.3f` of the beam errors and
# {glue:text}`cogs_greedy_not_paren:.3f` of the greedy ones, and depth errors that run to the
# 1,000-token cap {glue:text}`cogs_beam_depth_capped:.3f` and
# {glue:text}`cogs_greedy_depth_capped:.3f` (see Deviations and errata).

# %% [markdown]
# #### Model size (Figure 4-3) and seed spread
#
# Dev, test and gen accuracy of the three Transformer sizes (one exposure), mean and SD over
# seeds; the paper's values as open markers, the reference parser's as black dashes.

# %% mystnb={"figure": {"caption": "Figure 4-3 recomputed: dev, test and gen accuracy of the 5.3M (1-layer), 9.5M (2-layer) and 45M (6-layer) Transformers, ours as filled dots (gen with its SD over seeds as error bars), the paper's as open grey circles, the symbolic reference parser as black dashes; sizes without committed runs show the paper only. Look at the gen points of the 9.5M model, ours against the paper's.", "name": "fig-cogs-models-size"}}
size_rows = []
for model, slug, params in (
    ("transformer-small", "transformer_small", "5.3M"),
    ("transformer", "transformer", "9.5M"),
    ("transformer-large", "transformer_large", "45M"),
):
    agg = per_run[(per_run.model == model) & (per_run.exposures == 1)]
    row = {"model": f"{cfg.LABELS[model]} ({params})", "runs": len(agg)}
    for split in ("dev", "test", "gen"):
        key = f"cogs_fig43_{slug}_{split}"
        row[f"paper {split}"] = paper[key]
        row[f"ours {split}"] = float(agg[split].mean()) if len(agg) else np.nan
        if len(agg):
            results[key] = float(agg[split].mean())
    row["paper gen SD"] = paper[f"cogs_fig43_{slug}_gen_sd"]
    row["ours gen SD"] = float(agg["gen"].std(ddof=1)) if len(agg) > 1 else np.nan
    if len(agg) > 1:
        results[f"cogs_fig43_{slug}_gen_sd"] = row["ours gen SD"]
    size_rows.append(row)
sizes = pd.DataFrame(size_rows).set_index("model")
figures.transformer_sizes(sizes, reference_splits)
plt.show()

# %%
sizes.round(3)

# %% [markdown]
# Seed spread of the cases the dissertation plots in Table 4-4 (one dot per run; available runs
# only; black crosses: the paper's mean of 5 seeds, Table 4-5; the dashed line is the
# reference parser):

# %% mystnb={"figure": {"caption": "Table 4-4 recomputed: accuracy of each run (one dot per seed) on the six cases the dissertation plots, by model, with the paper's mean over its 5 seeds (black crosses, Table 4-5) and the reference parser (dashed line). Look at the spread of the dots within a case and at where the crosses fall among them.", "name": "fig-cogs-models-seed-spread"}}
spread_cases = [
    "subj_to_obj_common",
    "obj_to_subj_common",
    "obj_to_subj_proper",
    "prim_to_obj_proper",
    "pp_recursion",
    "active_to_passive",
]
spread = collected[
    (collected.exposures == 1)
    & collected.model.isin(grid_models)
    & collected.quantity.isin(spread_cases)
]
if len(spread):
    figures.seed_spread(spread, spread_cases, grid_models, paper, reference_by_case, cfg.LABELS)
    plt.show()
else:
    print("seed spread: pending (no grid runs yet)")

# %% [markdown]
# ### A reduced Transformer on a CPU
#
# The paper's protocol costs hours per run on a CPU (study notes, Section 7.1), so the default
# profile trains a **reduced** configuration and labels it so: a Transformer with $d = 128$,
# feed-forward 256, 2+2 layers and 4 heads, one batch of 128 sentences per update, the noam
# schedule with learning-rate factor 1 and warm-up 800, a fixed budget of updates (dev loss is
# still checked, and the best checkpoint kept), one seed and greedy decoding. It trains on the
# **100-exposure** set (`reduced_exposures`): in the dozen epochs a CPU affords here, a word
# that occurs in one training sentence is not learnt: in a development run with one exposure
# (not committed) the outputs put a frequent noun or verb in place of every held-out one; with
# 100 exposures the lexical cases can separate from the structural ones, as in the paper's
# Figure 4-4. Its result files are committed; re-executing the chapter
# with the same parameters reads them instead of training again.

# %%
reduced = cfg.reduced_config(
    reduced_model, seed, reduced_max_steps, reduced_per_case, reduced_per_split, reduced_exposures
)
PLURAL = "s" if reduced_exposures > 1 else ""
PAPER_LABEL = f"paper: Transformer 9.5M, {reduced_exposures} exposure{PLURAL}"
if res.has_result(reduced, results_dir) or train_missing:
    run = experiment.run(
        reduced,
        device=device,
        progress=False,
        results_root=results_dir,
        keep_every=reduced_keep_every,
    )
else:
    run = None
    print(f"reduced run {cfg.config_hash(reduced)}: pending (train_missing is False)")
if run is not None:
    m = run.metrics
    report.glue("cogs_reduced_exposures", reduced["data"]["exposures"])
    report.glue("cogs_reduced_n_seeds", 1)  # one seed (the `seed` parameter): no interval
    report.glue("cogs_reduced_steps", m["steps"])
    report.glue("cogs_reduced_epochs", m["epochs"])
    report.glue("cogs_reduced_train_minutes", m["train_seconds"] / 60)
    report.glue("cogs_reduced_decode_minutes", m["decode_seconds"] / 60)
    run_info = pd.Series(
        {
            "configuration hash": run.hash,
            "device": m["device"],
            "seed": m["seed"],
            "updates": m["steps"],
            "best update": m["best_step"],
            "epochs": m["epochs"],
            "stopped by": m["stop_reason"],
            "training (min)": round(m["train_seconds"] / 60, 1),
            "decoding (min)": round(m["decode_seconds"] / 60, 1),
            "target tokens per second": m["train_target_tokens_per_second"],
        }
    )
run_info if run is not None else None

# %% [markdown]
# Dev loss during training:

# %% mystnb={"figure": {"caption": "Dev cross-entropy per token of the reduced Transformer at each validation (log scale); the checkpoint with the lowest value is kept. Look at whether the curve has flattened by the last update: the run stops at a fixed budget of updates.", "name": "fig-cogs-models-reduced-loss"}}
if run is not None:
    figures.dev_loss(pd.DataFrame(run.metrics["history"]))
    plt.show()

# %% [markdown]
# #### Accuracy over training updates
#
# Early stopping on dev loss fixes the generalization number at whatever update the dev loss
# happens to be lowest, and Csordás, Irie and Schmidhuber {cite}`csordas2021devil` show that on COGS generalization accuracy keeps
# moving long after in-distribution accuracy has settled. So the run's weights are kept every
# `reduced_keep_every` updates (sharded files, `compsem.cogs.seq2seq.training`) and each kept
# model is scored on {glue:text}`cogs_reduced_curve_per_split` dev and test sentences and
# {glue:text}`cogs_reduced_curve_per_case` sentences of each gen case
# (`compsem.cogs.seq2seq.curve`; the scores are committed beside the run's results as
# `curve.tsv`, recomputed only when they are missing and the kept weights exist).

# %%
reduced_curve = None
if run is not None:
    reduced_folder = res.result_dir(reduced, results_dir)
    reduced_curve = curves.load_curve(reduced_folder)
    kept_dir = experiment.checkpoint_dir(reduced)
    if reduced_curve is None and training.kept_updates(kept_dir):
        reduced_curve = curves.trace(
            reduced, kept_dir, curve_per_case, curve_per_split, device=resolve_device(device)
        )
        curves.save_curve(reduced_curve, reduced_folder, curve_per_case, curve_per_split)
if reduced_curve is not None:
    scored_on = reduced_curve.attrs.get(
        "sample", {"per_case": curve_per_case, "per_split": curve_per_split}
    )  # the sample sizes the committed curve was scored on
    report.glue("cogs_reduced_curve_per_case", scored_on["per_case"])
    report.glue("cogs_reduced_curve_per_split", scored_on["per_split"])
    settled = curves.sensitivity(reduced_curve)
    for name, value in settled.items():
        report.glue(f"cogs_reduced_curve_{name}", value)
    curve_table = reduced_curve.pivot_table(index="step", columns="quantity", values="accuracy")[
        ["dev", "test", "gen", "lexical", "structural"]
    ]
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
# Over the last {glue:text}`cogs_reduced_curve_updates:.0f` kept updates (from update
# {glue:text}`cogs_reduced_curve_first_step:,.0f`), dev accuracy moves by
# {glue:text}`cogs_reduced_curve_dev_range:.3f` and the gen mean by
# {glue:text}`cogs_reduced_curve_gen_range:.3f` (from {glue:text}`cogs_reduced_curve_gen_first:.3f`
# to {glue:text}`cogs_reduced_curve_gen_last:.3f`); the highest gen mean of any kept update is
# {glue:text}`cogs_reduced_curve_gen_max:.3f`, at update
# {glue:text}`cogs_reduced_curve_gen_max_step:,.0f`.
# This is the reduced run, which stops at a fixed budget; for the paper's Transformer the same
# curve needs its GPU runs trained with kept weights (`--keep-every 500`, the `full` profile's
# `grid_keep_every`), which the committed runs were not:

# %%
grid_curves = {}
for config in grid:
    found = res.find_config(config, any_decoding=True)
    if config["model"] != "transformer" or found is None:
        continue
    found_curve = curves.load_curve(res.result_dir(found))
    if found_curve is not None:
        grid_curves[cfg.describe(config)] = found_curve
if grid_curves:
    display(pd.concat(grid_curves, names=["run"]).round(3))
else:
    print("accuracy over updates of the paper's Transformer: pending (GPU runs with kept weights)")

# %% [markdown]
# #### In distribution vs generalization
#
# Exact match on dev, test and gen (the mean of the 21 cases, and its lexical and structural
# parts), beside the semantic match and the symbolic reference parser on the same examples, and
# the paper's 9.5M Transformer with the same number of exposures (dev and test: with one, as
# Figure 4-4 gives gen accuracy only). The reduced run stands in for the paper's Transformer: it
# is a *substitute*, compared for the pattern only.

# %%
if run is not None:
    analysed = ev.analyse(ev.join_gold(run.predictions, gold))
    analysed["reference"] = interpret_all(analysed["source"])
    analysed["reference_exact"] = ev.exact_match(
        analysed["reference"].fillna(""), analysed["target"]
    )
    is_gen = analysed["split"] == "gen"
    by_case = {
        col: ev.accuracy_by_case(analysed.loc[is_gen, col], analysed.loc[is_gen, "case"])
        for col in ("exact", "semantic", "reference_exact")
    }
    summary = {}
    for col, label in (
        ("exact", "reduced run: exact match"),
        ("semantic", "reduced run: semantic match"),
        ("reference_exact", "symbolic reference parser"),
    ):
        row = {s: float(analysed.loc[analysed.split == s, col].mean()) for s in ("dev", "test")}
        row.update(ev.aggregate(by_case[col]))
        summary[label] = row
    summary[PAPER_LABEL] = {
        "dev": paper["cogs_fig43_transformer_dev"],  # 1 exposure: Figure 4-4 gives gen only
        "test": paper["cogs_fig43_transformer_test"],
        "gen": paper[f"cogs_t45_transformer_{reduced_exposures}_gen"],
        "lexical": paper[f"cogs_fig41_transformer_{reduced_exposures}_lexical"],
        "structural": paper[f"cogs_fig41_transformer_{reduced_exposures}_structural"],
    }
    summary = pd.DataFrame(summary).T[["dev", "test", "gen", "lexical", "structural"]]
    ours = summary.loc["reduced run: exact match"]
    for key in ("dev", "test", "gen", "lexical", "structural"):
        results[f"cogs_reduced_{key}"] = float(ours[key])
    report.glue("cogs_reduced_gap", float(ours["test"] - ours["gen"]))
    report.glue(
        "cogs_reduced_semantic_gen", float(summary.loc["reduced run: semantic match", "gen"])
    )
    report.glue("cogs_reference_gen", float(summary.loc["symbolic reference parser", "gen"]))
summary.round(3) if run is not None else None

# %% mystnb={"figure": {"caption": "In distribution against generalization: the reduced CPU run (blue) beside the paper's 9.5M Transformer with the same number of exposures (orange; dev and test from the one-exposure runs), the symbolic reference parser as black dashes. Look at the drop from test to gen, and at the structural column against the lexical one.", "name": "fig-cogs-models-reduced-gap"}}
if run is not None:
    figures.generalization_gap(summary, "reduced run: exact match", PAPER_LABEL)
    plt.show()

# %% [markdown]
# The reduced model is {glue:text}`cogs_reduced_gap:.2f` more accurate on test than on the
# generalization set, after {glue:text}`cogs_reduced_steps:,.0f` updates
# ({glue:text}`cogs_reduced_epochs:.1f` epochs, {glue:text}`cogs_reduced_train_minutes:.1f`
# minutes of training on the device in the table above; the committed run shared its machine
# with other jobs); the reference parser is at {glue:text}`cogs_reference_gen:.3f` on gen.
# Beside the paper (status *substitute*: a smaller model, fewer updates, one seed, greedy):

# %%
reduced_keys = [k for k in results if k.startswith("cogs_reduced_")]
report.style_comparison(
    report.compare(results, "cogs-models", keys=reduced_keys)
) if reduced_keys else None

# %% [markdown]
# #### By generalization case

# %% mystnb={"figure": {"caption": "Exact match per generalization case: the reduced run (bars), the paper's 9.5M Transformer with the same exposures (orange dots, Table 4-5) and the reference parser (dashed steps). Look at the three structural cases, and at the proper-noun variants against the common-noun ones.", "name": "fig-cogs-models-reduced-cases"}}
if run is not None:
    figures.accuracy_by_case(
        by_case["exact"],
        by_case["reference_exact"],
        [paper[f"cogs_t45_transformer_{reduced_exposures}_{c}"] for c in ev.CASE_ORDER],
        PAPER_LABEL,
    )
    plt.show()

# %% [markdown]
# This run shows the pattern the paper reports for 100 exposures (Section 4.5.7, Table 4-5):
# structural mean {glue:text}`cogs_reduced_structural:.3f` against lexical
# {glue:text}`cogs_reduced_lexical:.3f`. It is {glue:text}`cogs_reduced_n_seeds` seed, and a
# quantity that varies with the seed is not decided on one draw, so the Findings leave the claim
# *reduced-run-gap* inconclusive until more seeds are run; the common- and proper-noun variants
# and Active → Passive are compared below. The gap between
# test and gen above is not part of that check: the paper prints no dev or test accuracy for 100
# exposures. The absolute level is not the paper's and is not compared with it: a tenth of the
# parameters, about a dozen epochs and one seed.

# %% [markdown]
# ### Error analyses (Section 4.5.3-4.5.5)
#
# On the generalization predictions of the reduced run and, pooled over their seeds, of every
# grid model with one exposure that has results. Definitions (`compsem.cogs.evaluation`):
# an output is *structurally correct* when its non-lexical tokens are those of the target in the
# same positions and every wrong token stays in its category (lexical meaning, role or index;
# footnote 20); a *single lexical error* is a structurally correct output whose wrong tokens all
# stand for one input word; an error *ends too early* when it is shorter than the target.


# %%
analysed_runs = {}
if run is not None:
    analysed_runs["reduced Transformer"] = analysed
for model in grid_models:
    finished = set(runs_done.hash)
    configs = [
        found
        for c in grid
        if c["model"] == model and c["data"]["exposures"] == 1
        for found in [res.find_config(c, any_decoding=True)]
        if found is not None and cfg.config_hash(found) in finished
    ]
    if configs:
        analysed_runs[f"{cfg.LABELS[model]} (n={len(configs)})"] = pd.concat(
            [
                ev.analyse(ev.join_gold(res.load_result(c).predictions, gold)).assign(
                    seed=c["seed"]
                )
                for c in configs
            ],
            ignore_index=True,
        )
error_table = pd.DataFrame(
    {name: s45.analyses(frame) for name, frame in analysed_runs.items()}
)
PAPER_ROWS = {
    "error_not_ending_paren": "cogs_err_not_paren",
    "error_edit_distance": "cogs_err_edit_distance",
    "single_lexical": "cogs_err_single_lexical",
    "active → passive: wrong_structure": "cogs_ap_wrong_structure",
}
for model in ("transformer", "bilstm", "lstm"):
    error_table[f"paper: {cfg.LABELS[model]}"] = pd.Series(
        {row: paper[f"{prefix}_{model}"] for row, prefix in PAPER_ROWS.items()}
        | {
            "depth 3-5 accuracy": paper[f"cogs_t46_{model}_depth3to5"],
            "depth: premature_end": paper["cogs_depth_premature_end"],
            "depth: only_index": paper["cogs_depth_only_index"],
            "depth: capped": paper["cogs_depth_capped"],
            "active → passive: errors": paper[f"cogs_ap_errors_{model}"],
            "test accuracy, outputs > 95 tokens": paper[
                "cogs_test_long_transformer" if model == "transformer" else "cogs_test_long_lstm"
            ],
            "test: mean length of correct outputs": paper["cogs_test_len_correct"],
            "test: mean length of incorrect outputs": paper["cogs_test_len_incorrect"],
        }
    )
if run is not None:  # a few robust numbers for the prose
    reduced_analyses = s45.analyses(analysed)
    for name in (
        "error_edit_distance",
        "error_not_ending_paren",
        "single_lexical",
        "structure_correct",
        "depth: premature_end",
        "depth: capped",
    ):
        if math.isfinite(reduced_analyses[name]):
            report.glue(f"cogs_reduced_err_{report.slug(name)}", reduced_analyses[name])
error_table.round(3)

# %% [markdown]
# Rows: shares of errors unless they say otherwise; `single_lexical` and `structure_correct` are
# shares of all gen examples; depth rows are shares of the errors on the two recursion cases; the
# paper's depth shares pool all models; the Active → Passive errors are counted per run (the
# paper's totals over its 5 runs divided by 5). The reduced run's errors are
# {glue:text}`cogs_reduced_err_error_edit_distance:.1f` tokens from the target on average, and
# {glue:text}`cogs_reduced_err_depth_premature_end:.1%` of its depth errors end too early.

# %%
for name, frame in analysed_runs.items():  # the grid models glue their Section 4.5 numbers
    model = next((m for m in grid_models if name.startswith(cfg.LABELS[m])), None)
    if model is None:
        continue
    values = s45.analyses(frame)
    for row, prefix in PAPER_ROWS.items():
        if math.isfinite(values[row]):
            results[f"{prefix}_{model}"] = values[row]
    if math.isfinite(values["depth 3-5 accuracy"]):
        results[f"cogs_t46_{model}_depth3to5"] = values["depth 3-5 accuracy"]
    results[f"cogs_ap_errors_{model}"] = values["active → passive: errors"]
tf1_runs = [n for n in analysed_runs if n.startswith(cfg.LABELS["transformer"] + " (")]
if tf1_runs:  # the Transformer's error shares per seed, with their t-intervals (the Findings)
    by_seed = {
        seed: s45.analyses(part) for seed, part in analysed_runs[tf1_runs[0]].groupby("seed")
    }
    for key, row in (
        ("single_lexical", "single_lexical"),
        ("not_paren", "error_not_ending_paren"),
        ("edit_distance", "error_edit_distance"),
    ):
        mean, low, high = s45.t_interval([values[row] for values in by_seed.values()])
        report.glue(f"cogs_tf1_{key}_mean", mean)
        report.glue(f"cogs_tf1_{key}_ci_low", low)
        report.glue(f"cogs_tf1_{key}_ci_high", high)
grid_models_run = [
    m for m in grid_models if any(n.startswith(cfg.LABELS[m]) for n in analysed_runs)
]
if grid_models_run:
    pooled = pd.concat([f for n, f in analysed_runs.items() if not n.startswith("reduced")])
    pooled_depth = ev.depth_errors(pooled[pooled.split == "gen"])
    results.update(
        {
            "cogs_depth_premature_end": pooled_depth["premature_end"],
            "cogs_depth_only_index": pooled_depth["only_index"],
            "cogs_depth_capped": pooled_depth["capped"],
        }
    )
analysis_keys = [k for k in results if k.split("_")[1] in ("err", "ap", "t46", "depth")]
report.style_comparison(
    report.compare(results, "cogs-models", keys=analysis_keys)
) if analysis_keys else None

# %% [markdown]
# #### Depth and length
#
# Accuracy on the two recursion cases by depth (training has depth 0-2), and accuracy by the
# length of the target output on test and gen (the longest training target has 153 tokens).

# %% mystnb={"figure": {"caption": "Left: accuracy on the two recursion cases by depth (training has depth 0-2), for each group of runs; right: accuracy by target length on test and gen, the longest training output (153 tokens) marked in grey; the reference parser dashed. Look at where accuracy falls: at the first unseen depth, and past the longest training output.", "name": "fig-cogs-models-depth-length"}}
figures.depth_and_length(analysed_runs, analysed if run is not None else None)
plt.show()

# %% [markdown]
# #### Common vs proper nouns, and the structure of Active → Passive errors
#
# Section 4.5.5.3: the proper-noun variant of a case is harder although it takes fewer symbolic
# steps (a constant instead of a predicate and a variable). Section 4.5.5.2: LSTM errors on
# Active → Passive keep the target's structure, Transformer errors mostly do not. The second
# table counts Active → Passive errors run by run (the paper's Transformer errors are summed
# over its runs, so the comparison is per run; ours vary from seed to seed by an SD of
# {glue:text}`cogs_tf1_ap_errors_sd:.1f` errors). Averaged over the four paired cases, common
# minus proper nouns is {glue:text}`cogs_tf1_common_minus_proper:.3f` for the Transformer
# (t-interval over seeds {glue:text}`cogs_tf1_common_minus_proper_ci_low:.3f` to
# {glue:text}`cogs_tf1_common_minus_proper_ci_high:.3f`; claim *proper-nouns-harder*).

# %%
noun_tables = {}
for name, frame in analysed_runs.items():
    gen = frame[frame.split == "gen"]
    noun_tables[name] = ev.noun_type_table(ev.accuracy_by_case(gen.exact, gen.case))
for exposures in sorted({1, reduced_exposures}):
    noun_tables[f"paper: Transformer, {exposures} exp."] = ev.noun_type_table(
        pd.Series({c: paper[f"cogs_t45_transformer_{exposures}_{c}"] for c in ev.CASE_ORDER})
    )
nouns = pd.concat(noun_tables, axis=1)
display_ap = pd.concat(
    {name: s45.active_passive_table(frame) for name, frame in analysed_runs.items()},
    names=["runs", "seed"],
)  # one row per run: the paper's 49 Transformer errors are over 5 runs, 9.8 per run
tf_ap = [n for n in analysed_runs if n.startswith(cfg.LABELS["transformer"] + " (")]
if tf_ap:
    report.glue("cogs_tf1_ap_errors_sd", float(display_ap.loc[tf_ap[0], "errors"].std(ddof=1)))
nouns.round(3)

# %%
display_ap

# %% [markdown]
# #### Exact match vs semantic match
#
# Exact match counts an output with the right meaning but another order of conjuncts or other
# index names as wrong; the semantic match (`compsem.cogs.lf.equivalent`, the idea behind ReCOGS)
# does not. For every run, the gen mean (over the 21 cases), dev and test under both:

# %%
semantic_runs = pd.concat(
    {name: s45.exact_and_semantic(frame) for name, frame in analysed_runs.items()},
    names=["runs", "seed"],
)
if tf_ap:
    tf_semantic = semantic_runs.loc[tf_ap[0]]
    report.glue("cogs_tf1_semantic_gen", float(tf_semantic["gen semantic"].mean()))
    report.glue("cogs_tf1_semantic_gain", float(tf_semantic["gen semantic − exact"].mean()))
    report.glue("cogs_tf1_semantic_gain_max", float(tf_semantic["gen semantic − exact"].max()))
semantic_runs.round(3)

# %% [markdown]
# On the Transformer's runs the semantic match adds
# {glue:text}`cogs_tf1_semantic_gain:+.3f` to the gen mean on average (at most
# {glue:text}`cogs_tf1_semantic_gain_max:+.3f` in one run): that much of the failure is notation
# (conjunct order, index names), the rest is meaning. Per case, for the reduced run (the
# reference parser is exact everywhere):

# %%
if run is not None:
    semantic_table = pd.DataFrame(
        {
            "exact": by_case["exact"],
            "semantic": by_case["semantic"],
            "reference parser": by_case["reference_exact"],
        }
    )
    semantic_table["semantic − exact"] = semantic_table["semantic"] - semantic_table["exact"]
    semantic_table.index = [ev.CASE_LABELS[c] for c in semantic_table.index]
semantic_table.round(3) if run is not None else None

# %% [markdown]
# ### Results beside the paper
#
# Every comparison of this chapter, counted by group and verdict: the reduced run is a
# *substitute*; the Transformer's column of Table 4-5, its size point of Figure 4-3 and its error
# analyses are *partial* (3 of 5 seeds, greedy decoding) and held to tolerances from the paper's
# seed spread; the LSTMs, the 100-exposure runs and the size variants are *not-run* until their
# GPU runs are committed.

# %%
report.glue_all(results)
verdicts = report.compare(results, "cogs-models", keys=list(targets))
verdicts["group"] = [k.split("_")[1] for k in verdicts.index]
case_keys = [f"cogs_t45_transformer_1_{c}" for c in ev.CASE_ORDER if f"cogs_t45_transformer_1_{c}" in results]
flagged = [k for k in case_keys if verdicts.loc[k, "verdict"].startswith("differs")]
report.glue("cogs_tf1_cases_flagged", len(flagged))
report.glue("cogs_tf1_cases_flagged_above", sum(results[k] > paper[k] for k in flagged))
verdicts.groupby(["group", "verdict"]).size().unstack(fill_value=0)

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
#   capped at 16 times its source length (the longest target is 8.2 times its source). The
#   {glue:text}`cogs_tf1_n_seeds` Transformer runs trained by the paper's rule so far were
#   decoded greedily (same 1,000-token cap) on a CPU, and {glue:text}`cogs_beam_n_seeds` of them
#   with beam 5 on a sample (Greedy or beam?); the chapter reads a greedy decoding of a grid run
#   when its beam-5 decoding is absent, and says so in the runs table (`decoding`).
# - **Precision: bfloat16 training.** The GPU runs trained under **bfloat16 autocast**; the
#   paper trained in float32 (OpenNMT-py 1.1.1 on a K80). It is a switch: `--no-amp` on the
#   command line, `grid_amp=False` in this chapter, trains in float32 (a run's `metrics.json`
#   records `amp`). The best weights of the three Transformer runs were kept from the GPU run
#   as a **bfloat16 copy** and were decoded in float32 from
#   that copy, greedy and beam alike, so the beam sample cannot separate the rounding of the
#   weights from the rest. Training now keeps float32 weights in shards
#   (`--keep-every`), so later runs need no such copy. Neither effect is measured here; both are
#   candidates for the distance between our gen mean and the paper's. The committed GPU runs
#   also measured the dev loss that chose their stopping update under that autocast; the
#   trainer now computes it in float32, outside autocast (`compsem.cogs.seq2seq.training`,
#   `dev_loss`), so later runs choose it on float32 losses, as the paper's did. The committed
#   runs were not trained again.
# - **Time-limited runs.** `--train-minutes` ends training at the first validation past a time
#   budget (stop reason *time limit*); such runs are listed but never compared with the paper,
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
#   cut by the time budget (seeds 1-3, listed when the chapter is executed with
#   `lstm_embedding_dropout=None`) were trained with the text's dropout before this choice; they
#   still give the scheduler its LSTM speeds. No LSTM run is compared with the paper yet.
# - **Model sizes.** "4.5M" in the text for the small Transformer is 5.3M in the table beside
#   Figure 4-3 and in our count.
# - **Seeds.** Only seed 1 appears in the scripts; we use seeds 1-5. A seed sets the initial
#   weights, the dropout masks and the order of the batches.
# - **Data.** The generalization set is the current upstream file, with the 2022 role fix of 50
#   `obj_pp_to_subj_pp` examples; the dissertation's numbers come from the earlier file. The
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
#   the 100-exposure models learn.
# - **Implementation.** Plain PyTorch re-implementations of what OpenNMT-py 1.1.1 builds
#   (pre-norm Transformer layers, input-feeding LSTM decoder); OpenNMT-py 1.1.1 needs torch 1.5.
#   Oracle tests (`tests/test_cogs_oracles.py`) hold our Transformer to
#   `torch.nn.Transformer(norm_first=True)` with the same weights (logits equal to 1e-5, teacher
#   forcing and cached steps) and an LSTM decoder step to Luong et al.'s equations written out
#   (input feeding, masked global dot attention, the attentional state).
# - **Tolerances of the partial targets** (each target's `source` states its rule): our mean of
#   3 seeds and the paper's of 5 are compared within 2 SD of their difference,
#   $2\,s\sqrt{1/3 + 1/5}$, with $s$ the paper's seed SD: .06 for gen (Figure 4-3), .07 for the
#   lexical mean (the gen SD carried by its 18 cases), .01 where Table 4-3 prints no SD. The
#   paper prints **no SD per case** (Table 4-4 shows dots and says the spread is high). Its gen
#   SD bounds the **average** per-case SD from below, not each case's: the SD of a mean is at
#   most the mean of the SDs, so the seed SDs of the 18 lexical cases average at least the
#   lexical mean's $.06 \cdot 21/18 = .07$ (the structural cases, near 0 in every run, carrying
#   none of the gen spread), with equality only if all 18 are perfectly correlated over seeds;
#   a single case may vary less than that, and then others vary more. We give every case that
#   bound on the average, or $\sqrt{q(1-q)}$ where smaller (the largest SD of an accuracy with
#   mean $q$), so a per-case tolerance is .102: an assumed SD for a typical case, not a floor
#   under each case, chosen so that the tolerance is never wider than the case's effect
#   (independent cases of equal spread would each need an SD of .30, a tolerance of .43, and the
#   earlier fixed .25 is wider than most cells it guards). A case outside this tolerance is
#   **flagged, not proven** different (its own SD is unknown, and may be larger or smaller):
#   {glue:text}`cogs_tf1_cases_flagged` of the 21 Transformer cases are,
#   {glue:text}`cogs_tf1_cases_flagged_above` of them above the paper's value. Active → Passive,
#   where the paper says every run is close to 100%, is held to the spread of a Poisson count of
#   its 9.8 errors per run, compared **per run** (errors of each of our runs, averaged; the
#   paper's 49 are summed over 5 runs). For the other error analyses, whose spread the paper does
#   not give, a run's value is assumed to vary as much, relative to its size, as the gen accuracy
#   (.06 on .35).
# - **Paper numbers we do not reproduce** (targets expected to differ; the evidence is in each
#   target's `reason`):
#   - the Transformer's gen mean (`cogs_t45_transformer_1_gen`, `cogs_fig43_transformer_gen`)
#     and its lexical mean (`cogs_fig41_transformer_1_lexical`) lie above the paper's by more
#     than the tolerance of the targets allows (2 SD of the difference of the means); the
#     equivalence test of the claim *transformer-gen-near-35* leaves the level undecided with
#     so few seeds, and the paragraph under *The Transformer over its seeds* lists what can and
#     cannot explain the distance;
#   - errors that do not end in `)` (`cogs_err_not_paren_transformer`) are much rarer than the
#     paper's share of Transformer errors (claim *transformer-ill-formed-errors*), under beam 5 as
#     well
#     ({glue:text}`cogs_beam_not_paren:.3f` on the beam samples of
#     {glue:text}`cogs_beam_n_seeds` Transformer seeds): on those seeds not a matter of
#     decoding, and unexplained;
#   - depth errors that run to the 1,000-token cap (`cogs_depth_capped`) are more frequent than
#     the paper's share of errors over 1,000 tokens because greedy decoding loops where beam search
#     stops: on the same beam samples the share is
#     {glue:text}`cogs_beam_depth_capped:.3f`, against
#     {glue:text}`cogs_greedy_depth_capped:.3f` greedy on the same sentences;
#   - index-only depth errors (`cogs_depth_only_index`) are rarer than the paper's share: both
#     are a small fraction of the depth errors, which is the paper's point; the paper's share pools all three models,
#     ours is the Transformer's alone;
#   - the flagged cases of Table 4-5 (previous item; each target's `reason`), and Active →
#     Passive: our runs make {glue:text}`cogs_ap_errors_transformer:.1f` errors each on average
#     against the paper's (its total over its runs, per run), more than a Poisson count's spread, while our own runs differ by
#     an SD of {glue:text}`cogs_tf1_ap_errors_sd:.1f` errors; whether every run is still close to
#     100%, the paper's claim, is the claim *active-to-passive-solved* in the Findings.
# - **The reduced run** (default profile) is not the paper's configuration: $d = 128$, one
#   batch of 128 per update, learning-rate factor 1 with warm-up 800, a fixed number of updates,
#   one seed, greedy decoding. It is labelled *substitute* and shows the pattern, not the numbers.
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
