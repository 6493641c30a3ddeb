"""Configurations of Kim (2021), Chapter 5, Experiment 1: an auxiliary task, then COGS.

A configuration is a :mod:`~compsem.cogs.seq2seq.config` configuration (model, architecture,
data, seed, training and decoding of the COGS stage, Chapter 4's protocol) with

- ``data.masking = "w_n"``: COGS in its ``[w_n]`` variant (:mod:`compsem.cogs.masking`);
- ``auxiliary``: ``objective`` (``"none"``: the same-vocabulary baseline, ``"gloss"`` or
  ``"denoise"``), ``gloss_tokens`` (how a gloss is written: ``"word"``, the output token with the
  word's string, or ``"primed"``, ``w'``; :func:`compsem.cogs.auxiliary_data.gloss`),
  ``cogs_optimizer`` (``"continue"`` or ``"restart"``, below), ``corpus`` (the substitute English
  text, :func:`compsem.cogs.auxiliary_data.english_sentences`, and its held-out share),
  ``denoise`` (chunk length, corruption rate, mean span) and ``training``, the protocol of the
  auxiliary stage. Of that protocol the dissertation says only "We used the same early
  stopping patience of 5 for the auxiliary training objectives" (Section 5.2.4), so by default
  the auxiliary stage uses the COGS stage's settings (Chapter 4's scripts: 512 sentences per
  update, noam, validation every 500 updates, patience 5, at most 30,000 updates).

**The optimiser between the stages.** The dissertation trained with OpenNMT-py (Section 4.5.1),
where a model is trained further from a checkpoint with ``-train_from``; by default
(``-reset_optim none``) that keeps the checkpoint's Adam moments and its update count, so the
noam rate goes on from the auxiliary stage's last step and ``-train_steps`` bounds the two
stages' updates together. ``cogs_optimizer="continue"`` (the default) does that from the
auxiliary stage's best checkpoint: the COGS stage starts at its step with its Adam state, and the
COGS ``max_steps`` bounds the global step; ``"restart"`` starts the COGS stage with a fresh Adam
and schedule at step 0 (what this project did before; a deviation to compare, not the paper's).
With the paper's settings both stages share the learning rate and warm-up, so which stage's
settings the schedule reads makes no difference. Under ``"continue"`` an arm with an auxiliary
stage and the baseline differ in more than the auxiliary task: the former's COGS stage starts
with the auxiliary stage's Adam moments, and where it starts past its warm-up it has none and
never reaches the baseline's peak rate
(:func:`compsem.cogs.seq2seq.two_stage.cogs_stage_start`); the baseline starts with a fresh
Adam and warms up.

The vocabulary is one for every objective and depends only on ``corpus``, ``denoise`` and
``gloss_tokens``: the dissertation re-trained its baselines with the larger vocabulary
"Because the vocabulary size of the model had a nontrivial effect on model performance"
(Section 5.2.4; its footnote 14 names the causes, the Xavier initialisation of the embeddings
and label smoothing over every label), so a baseline here has the vocabulary of its glossing
and denoising runs.

:func:`paper_aux_config` is that protocol; :func:`reduced_aux_config` a CPU-sized one (a small
Transformer, two thousand updates, a capped auxiliary vocabulary, greedy decoding),
labelled reduced wherever it is shown. :func:`aux_grid` is the grid of Figures 5-1 to 5-3
(without CCG supertagging, which needs CCGBank).
"""

from __future__ import annotations

import copy

from compsem.cogs.auxiliary_data import GLOSS_TOKENS
from compsem.cogs.seq2seq.config import LABELS, REDUCED_DECODING, make_config, validate

OBJECTIVES = ("none", "gloss", "denoise")
OBJECTIVE_LABELS = {"none": "baseline", "gloss": "glossing", "denoise": "denoising"}
COGS_OPTIMIZERS = ("continue", "restart")
"""How the COGS stage's optimiser starts (module docstring)."""
GRID_MODELS = ("transformer", "lstm", "bilstm")

PAPER_CORPUS = {
    "n_sentences": 0,
    "max_words": 0,
    "max_tokens": 64,
    "gap_sentences": "keep",
    "dev_fraction": 0.1,
    "seed": 0,
}
"""Every sentence of the substitute corpus, every word in the vocabulary; 10% held out."""

PAPER_DENOISE = {"chunk_tokens": 512, "rate": 0.15, "mean_span": 3.0}
"""T5's defaults as the dissertation used them: 512-token chunks, 15% corruption, spans of 3."""


def _check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")


def with_auxiliary(
    base: dict,
    objective: str,
    corpus: dict | None = None,
    denoise: dict | None = None,
    aux_training: dict | None = None,
    gloss_tokens: str = "word",
    cogs_optimizer: str = "continue",
) -> dict:
    """``base`` (a COGS configuration) with the ``[w_n]`` data and an ``auxiliary`` section
    (module docstring)."""
    _check_objective(objective)
    config = copy.deepcopy(base)
    config["data"]["masking"] = "w_n"
    sections = {}
    for name, default, new in (
        ("corpus", PAPER_CORPUS, corpus),
        ("denoise", PAPER_DENOISE, denoise),
        ("training", config["training"], aux_training),
    ):
        unknown = set(new or {}) - set(default)
        if unknown:
            raise ValueError(
                f"unknown auxiliary {name} setting(s) {sorted(unknown)}; known: {sorted(default)}"
            )
        sections[name] = {**default, **(new or {})}
    config["auxiliary"] = {"objective": objective, "gloss_tokens": gloss_tokens,
                           "cogs_optimizer": cogs_optimizer, **sections}
    validate_aux(config)
    return config


def validate_aux(config: dict) -> None:
    """Raise ValueError naming the bad setting of an auxiliary configuration."""
    validate(config)
    aux = config.get("auxiliary")
    if not isinstance(aux, dict):
        raise ValueError("configuration lacks its 'auxiliary' section")
    _check_objective(aux["objective"])
    if aux.get("gloss_tokens") not in GLOSS_TOKENS:
        raise ValueError(f"auxiliary gloss_tokens must be one of {', '.join(GLOSS_TOKENS)}; got "
                         f"{aux.get('gloss_tokens')!r}")
    if aux.get("cogs_optimizer") not in COGS_OPTIMIZERS:
        raise ValueError(f"auxiliary cogs_optimizer must be one of {', '.join(COGS_OPTIMIZERS)}; "
                         f"got {aux.get('cogs_optimizer')!r}")
    c, d, t = aux["corpus"], aux["denoise"], aux["training"]
    for name in ("n_sentences", "max_words"):
        if int(c[name]) < 0:
            raise ValueError(f"auxiliary corpus setting {name} must be >= 0, got {c[name]!r}")
    if c["gap_sentences"] not in ("keep", "drop"):
        raise ValueError(f"auxiliary corpus gap_sentences must be keep or drop, got "
                         f"{c['gap_sentences']!r}")
    if not 0 < float(c["dev_fraction"]) < 1:
        raise ValueError(f"auxiliary corpus dev_fraction must be in (0, 1), got "
                         f"{c['dev_fraction']!r}")
    if not 0 < float(d["rate"]) < 1:
        raise ValueError(f"denoise rate must be in (0, 1), got {d['rate']!r}")
    if int(d["chunk_tokens"]) < 2 or float(d["mean_span"]) < 1:
        raise ValueError(f"denoise chunk_tokens must be >= 2 and mean_span >= 1, got {d}")
    for name in ("batch_size", "accum_count", "max_steps", "valid_every", "patience", "warmup"):
        if int(t[name]) < 1:
            raise ValueError(f"auxiliary training setting {name} must be >= 1, got {t[name]!r}")


def paper_aux_config(
    model: str = "transformer", objective: str = "gloss", seed: int = 1, exposures: int = 1,
    decoding: dict | None = None, gloss_tokens: str = "word", cogs_optimizer: str = "continue",
) -> dict:
    """The dissertation's protocol for one model, objective and seed (module docstring);
    ``decoding`` overrides the paper's beam 5 (e.g. ``{"method": "greedy"}``)."""
    if model not in GRID_MODELS:
        raise ValueError(f"model must be one of {', '.join(GRID_MODELS)}; got {model!r}")
    return with_auxiliary(make_config(model, seed=seed, exposures=exposures, decoding=decoding),
                          objective, gloss_tokens=gloss_tokens, cogs_optimizer=cogs_optimizer)


REDUCED_AUX_ARCHITECTURE = {"d_model": 128, "ff": 256, "heads": 4, "layers": 2}
"""A small Transformer for CPU runs (``transformer-reduced`` of the COGS chapter), not in the paper."""

REDUCED_AUX_CORPUS = {"n_sentences": 6000, "max_words": 1000}
"""6,000 sentences and the 1,000 most frequent words (the rest ``<unk>``): the output layer of
the full vocabulary (every word of the substitute text as a target type besides COGS's, and with
``gloss_tokens="primed"`` every word a second time; the chapter glues the counts) is what a CPU
cannot afford."""


def reduced_aux_config(
    objective: str = "gloss",
    seed: int = 1,
    max_steps: int = 1500,
    aux_max_steps: int = 500,
    exposures: int = 100,
    per_case: int = 0,
    per_split: int = 0,
    architecture: dict | None = None,
    corpus: dict | None = None,
    gloss_tokens: str = "word",
    cogs_optimizer: str = "continue",
) -> dict:
    """A CPU-sized configuration (module docstring): a 2-layer Transformer of
    :data:`REDUCED_AUX_ARCHITECTURE` (d = 128, the COGS chapter's reduced model), one batch of
    128 per update, noam with factor 1 and a warm-up of a quarter of each stage's bound
    (``aux_max_steps // 4``, ``max_steps // 4``), validation every 50 updates with the paper's
    patience of 5, greedy decoding of ``per_case`` gen examples per case and ``per_split`` dev
    and test examples (0: all). By default on ``train_100`` (100 exposure examples per held-out
    item, as the COGS chapter's reduced run): with the paper's one exposure each held-out item
    is in a single training sentence, which the few epochs a CPU affords may not teach.

    Every objective's COGS stage is bounded by ``max_steps`` updates: where it continues the
    auxiliary stage's update count (``cogs_optimizer="continue"``), its bound on the global
    step is ``aux_max_steps + max_steps``, counted on from the auxiliary stage's best
    validation (its last one when the auxiliary loss is still falling at its bound). Where that
    step is past the COGS stage's warm-up (a quarter of ``max_steps``; with the defaults it is),
    the COGS stage has no warm-up, and it starts with the auxiliary stage's Adam moments, while
    the baseline starts fresh and warms up (module docstring): a comparison of the two arms
    mixes the auxiliary task with the optimiser's state and schedule."""
    def training(steps, warmup_of=None):
        return {"batch_size": 128, "accum_count": 1, "lr": 1.0,
                "warmup": max(1, (warmup_of or steps) // 4), "max_steps": int(steps),
                "valid_every": max(1, min(50, int(steps)))}

    continues = objective != "none" and cogs_optimizer == "continue"
    base = make_config(
        "transformer-reduced",
        seed=seed,
        exposures=exposures,
        training=training(max_steps + aux_max_steps if continues else max_steps, max_steps),
        decoding=dict(REDUCED_DECODING, per_case=int(per_case), per_split=int(per_split)),
        architecture={**REDUCED_AUX_ARCHITECTURE, **(architecture or {})},
    )
    return with_auxiliary(base, objective, corpus={**REDUCED_AUX_CORPUS, **(corpus or {})},
                          aux_training=training(aux_max_steps), gloss_tokens=gloss_tokens,
                          cogs_optimizer=cogs_optimizer)


def aux_grid(
    models=GRID_MODELS, objectives=OBJECTIVES, seeds=(1, 2, 3, 4, 5), exposures: int = 1,
    decoding: dict | None = None, gloss_tokens: str = "word", cogs_optimizer: str = "continue",
) -> list[dict]:
    """Figures 5-1 to 5-3 as configurations, the Transformer's baseline and glossing first
    (the comparison the chapter needs most), then seed by seed."""
    order = [(m, o) for m in models for o in objectives]
    order.sort(key=lambda mo: (mo != ("transformer", "none") and mo != ("transformer", "gloss")))
    return [paper_aux_config(m, o, s, exposures, decoding, gloss_tokens, cogs_optimizer)
            for m, o in order for s in seeds]


def describe_aux(config: dict) -> str:
    """``Transformer + glossing, seed 1`` (``(reduced)`` for a non-paper architecture)."""
    name = LABELS.get(config["model"], config["model"])
    objective = config["auxiliary"]["objective"]
    label = "baseline" if objective == "none" else f"+ {OBJECTIVE_LABELS[objective]}"
    return f"{name} {label}, seed {config['seed']}"


def stage_one_config(config: dict) -> dict:
    """The configuration of the auxiliary stage: model, architecture, seed, the auxiliary
    section (its ``training`` as ``training``; ``cogs_optimizer`` left out). It names the
    stage's checkpoints, so runs that differ only in their COGS stage (exposures, decoding, how
    its optimiser starts) share one auxiliary model."""
    validate_aux(config)
    aux = config["auxiliary"]
    if aux["objective"] == "none":
        raise ValueError("the baseline (objective 'none') has no auxiliary stage")
    return {
        "stage": "auxiliary",
        "model": config["model"],
        "architecture": config["architecture"],
        "seed": config["seed"],
        "training": aux["training"],
        "auxiliary": {k: v for k, v in aux.items() if k not in ("training", "cogs_optimizer")},
    }
