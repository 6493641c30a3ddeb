"""Run configurations: the paper's models and protocol, reduced variants, and their hash.

A configuration is a JSON-serialisable dict with four parts:

- ``model``: a name of :data:`ARCHITECTURES` and ``architecture``, its hyperparameters;
- ``data``: ``exposures`` (1: ``train.tsv``; 100: ``train_100``, Section 4.5.7);
- ``seed``: sets the initial weights, the dropout masks and the order of the batches ("which
  determined the initial weights ... and the order of the training examples", Section 4.5.1);
- ``training``: the optimiser, schedule and stopping rule;
- ``decoding``: how the predictions are produced and on which examples.

The paper's protocol (:func:`paper_config`) is Section 4.5.1 as corrected by the released scripts
(``scripts/run_*.sh`` of ``najoungkim/COGS``): 128 sentences per batch with
``-accum_count 4`` (512 sentences per update; ``-normalization sents``: the loss is summed over
tokens and divided by the number of sentences),
Adam (beta2 0.998, eps 1e-9) with the noam schedule (learning rate 2, warm-up 4000), validation
every 500 updates, early stopping after 5 validations without a lower dev loss, at most 30,000
updates; label smoothing 0.1 and Xavier initialisation for the Transformers, gradient clipping at
5 for the LSTMs; decoding with OpenNMT-py's default beam of 5.

:func:`config_hash` names a run's result files; :func:`training_hash` (everything but
``decoding``) names its checkpoints, so one trained model serves several decoding settings.
Execution details (device, mixed precision, micro-batch size, threads) are not part of either.
"""

from __future__ import annotations

import copy
import hashlib
import json

from torch import nn

ARCHITECTURES: dict[str, dict] = {
    # the paper's models (Section 4.5.1; Figure 4-3)
    "transformer": {
        "arch": "transformer",
        "layers": 2,
        "d_model": 512,
        "ff": 512,
        "heads": 4,
        "dropout": 0.1,
    },
    "transformer-small": {
        "arch": "transformer",
        "layers": 1,
        "d_model": 512,
        "ff": 512,
        "heads": 4,
        "dropout": 0.1,
    },
    "transformer-large": {
        "arch": "transformer",
        "layers": 6,
        "d_model": 512,
        "ff": 2048,
        "heads": 8,
        "dropout": 0.1,
    },
    "lstm": {
        "arch": "lstm",
        "layers": 2,
        "hidden": 512,
        "embedding": 512,
        "dropout": 0.1,
        "embedding_dropout": 0.0,
        "bidirectional": False,
    },
    "bilstm": {
        "arch": "lstm",
        "layers": 2,
        "hidden": 512,
        "embedding": 512,
        "dropout": 0.1,
        "embedding_dropout": 0.0,
        "bidirectional": True,
    },
    # reduced models for CPU runs (not in the paper)
    "transformer-reduced": {
        "arch": "transformer",
        "layers": 2,
        "d_model": 128,
        "ff": 256,
        "heads": 4,
        "dropout": 0.1,
    },
    "transformer-tiny": {
        "arch": "transformer",
        "layers": 1,
        "d_model": 32,
        "ff": 64,
        "heads": 2,
        "dropout": 0.1,
    },
    "lstm-tiny": {
        "arch": "lstm",
        "layers": 2,
        "hidden": 32,
        "embedding": 32,
        "dropout": 0.1,
        "bidirectional": False,
    },
    "bilstm-tiny": {
        "arch": "lstm",
        "layers": 2,
        "hidden": 32,
        "embedding": 32,
        "dropout": 0.1,
        "bidirectional": True,
    },
}
"""Model name -> hyperparameters."""

PAPER_MODELS = ("transformer", "bilstm", "lstm", "transformer-small", "transformer-large")

PAPER_PARAMETERS = {
    "transformer": 9.5e6,
    "transformer-small": 5.3e6,
    "transformer-large": 45e6,
    "lstm": 11e6,
    "bilstm": 10e6,
}
"""Parameter counts stated in the dissertation (Section 4.5.1; Figure 4-3's table)."""

LABELS = {
    "transformer": "Transformer",
    "bilstm": "LSTM (Bi)",
    "lstm": "LSTM (Uni)",
    "transformer-small": "Transformer 1-layer",
    "transformer-large": "Transformer 6-layer",
    "transformer-reduced": "Transformer (reduced)",
    "transformer-tiny": "Transformer (tiny)",
    "lstm-tiny": "LSTM (tiny)",
    "bilstm-tiny": "BiLSTM (tiny)",
}

PAPER_TRAINING = {
    "batch_size": 128,
    "accum_count": 4,
    "lr": 2.0,
    "warmup": 4000,
    "beta1": 0.9,
    "beta2": 0.998,
    "eps": 1e-9,
    "max_steps": 30000,
    "valid_every": 500,
    "patience": 5,
    "label_smoothing": 0.1,
    "clip": 0.0,
}
"""The released scripts' training settings (Transformer; LSTMs: no label smoothing, clip 5)."""

PAPER_DECODING = {
    "method": "beam",
    "beam": 5,
    "max_len": 1000,
    "len_ratio": 0,
    "splits": ["dev", "test", "gen"],
    "per_case": 0,
    "per_split": 0,
}
"""Beam 5 (OpenNMT-py's default, as the scripts decode). The scripts allow 2,000 tokens; 1,000,
over twice the longest gold output (480), already marks a runaway output ("3% of errors contained
more than 1000 tokens", Section 4.5.4). ``len_ratio`` > 0 caps each output at ``len_ratio`` x its
source length as well; ``per_case`` > 0 decodes that many gen examples per case, ``per_split`` > 0
that many dev and test examples (a fixed random sample; 0: all)."""

SECTIONS = ("model", "architecture", "data", "seed", "training", "decoding")

OPTIONAL_ARCHITECTURE = {"lstm": {"embedding_dropout"}}
"""Architecture settings a configuration may lack: ``embedding_dropout`` of the LSTMs. The paper's
LSTMs (``lstm``, ``bilstm``) set it to 0.0 for every run of both chapters: no dropout after the
embeddings, as OpenNMT-py 1.1.1 ran the released scripts (:mod:`~compsem.cogs.seq2seq.lstm`).
``architecture={"embedding_dropout": None}`` removes it, and the model's ``dropout`` applies
there too, as the text says (a separate configuration; the earlier LSTM runs, cut short, were
trained so). The reduced LSTMs lack it."""


def paper_config(model: str = "transformer", seed: int = 1, exposures: int = 1,
                 lstm_embedding_dropout: float | None = 0.0) -> dict:
    """The paper's protocol for one of :data:`PAPER_MODELS` (module docstring);
    ``lstm_embedding_dropout`` of the LSTMs: 0.0 (the released code) or None (the text's,
    :data:`OPTIONAL_ARCHITECTURE`)."""
    if model not in PAPER_MODELS:
        raise ValueError(f"unknown paper model {model!r}; paper models: {', '.join(PAPER_MODELS)}")
    lstm = ARCHITECTURES[model]["arch"] == "lstm"
    return make_config(model, seed=seed, exposures=exposures,
                       architecture={"embedding_dropout": lstm_embedding_dropout} if lstm else None)


REDUCED_TRAINING = {
    "batch_size": 128,
    "accum_count": 1,
    "lr": 1.0,
    "warmup": 800,
    "max_steps": 2500,
    "valid_every": 250,
}
"""Reduced training for CPU runs: one batch of 128 per update, a shorter warm-up, a fixed budget."""

REDUCED_DECODING = {"method": "greedy", "len_ratio": 16}
"""Greedy decoding, each output capped at 16 x its source length (the longest gold output is 8.2 x
its source, so no gold output is cut)."""


def reduced_config(
    model: str = "transformer-reduced",
    seed: int = 1,
    max_steps: int = 2500,
    per_case: int = 0,
    per_split: int = 0,
    exposures: int = 100,
) -> dict:
    """A configuration small enough for a CPU: :data:`REDUCED_TRAINING`, greedy decoding
    (:data:`REDUCED_DECODING`), optionally on a sample of the evaluation sets. By default on
    ``train_100``: in the dozen epochs a CPU affords, a word seen in a single training sentence is
    not learnt (every lexical case then scores about 0), while 100 exposures let the lexical
    cases separate from the structural ones, as in Figure 4-4."""
    training = dict(REDUCED_TRAINING, max_steps=int(max_steps))
    decoding = dict(REDUCED_DECODING, per_case=int(per_case), per_split=int(per_split))
    return make_config(model, seed=seed, exposures=exposures, training=training, decoding=decoding)


def paper_grid(
    models=("transformer", "bilstm", "lstm"),
    seeds=(1, 2, 3, 4, 5),
    exposures=(1, 100),
    size_models=("transformer-small", "transformer-large"),
    lstm_embedding_dropout: float | None = 0.0,
) -> list[dict]:
    """The dissertation's experiments as configurations: ``models`` x ``seeds`` x ``exposures``
    (Table 4-5) and the size variants ``size_models`` x ``seeds`` with one exposure (Figure 4-3),
    without duplicates, the main grid first; ``lstm_embedding_dropout`` as in
    :func:`paper_config`."""
    grid = [paper_config(m, s, e, lstm_embedding_dropout)
            for e in exposures for m in models for s in seeds]
    grid += [
        paper_config(m, s, 1)
        for m in size_models
        for s in seeds
        if m not in models or 1 not in exposures
    ]
    return grid


def make_config(
    model: str,
    seed: int = 1,
    exposures: int = 1,
    training: dict | None = None,
    decoding: dict | None = None,
    architecture: dict | None = None,
) -> dict:
    """A configuration for ``model`` (a name of :data:`ARCHITECTURES`): the paper's training and
    decoding settings, updated with ``training``/``decoding``/``architecture`` overrides."""
    if model not in ARCHITECTURES:
        raise ValueError(f"unknown model {model!r}; models: {', '.join(ARCHITECTURES)}")
    if exposures not in (1, 100):
        raise ValueError(f"exposures must be 1 (train.tsv) or 100 (train_100), got {exposures!r}")
    arch = copy.deepcopy(ARCHITECTURES[model])
    train = dict(PAPER_TRAINING)
    if arch["arch"] == "lstm":
        train.update(label_smoothing=0.0, clip=5.0)
    decode = copy.deepcopy(PAPER_DECODING)
    for name, base, new in (
        ("training", train, training),
        ("decoding", decode, decoding),
        ("architecture", arch, architecture),
    ):
        allowed = set(base) | (OPTIONAL_ARCHITECTURE.get(arch["arch"], set())
                               if name == "architecture" else set())
        unknown = set(new or {}) - allowed
        if unknown:
            raise ValueError(
                f"unknown {name} setting(s) {sorted(unknown)}; known: {sorted(allowed)}"
            )
        base.update(new or {})
    if arch.get("embedding_dropout", 0.0) is None:  # the text's: the model's dropout
        del arch["embedding_dropout"]
    config = {
        "model": model,
        "architecture": arch,
        "data": {"exposures": int(exposures)},
        "seed": int(seed),
        "training": train,
        "decoding": decode,
    }
    validate(config)
    return config


def validate(config: dict) -> None:
    """Raise ValueError naming the bad setting of a configuration."""
    missing = set(SECTIONS) - set(config)
    if missing:
        raise ValueError(f"configuration lacks {sorted(missing)}")
    t, d = config["training"], config["decoding"]
    for name in ("batch_size", "accum_count", "max_steps", "valid_every", "patience", "warmup"):
        if int(t[name]) < 1:
            raise ValueError(f"training setting {name} must be >= 1, got {t[name]!r}")
    if d["method"] not in ("greedy", "beam"):
        raise ValueError(f"decoding method must be 'greedy' or 'beam', got {d['method']!r}")
    if d["method"] == "beam" and d["beam"] < 1:
        raise ValueError(f"decoding beam must be >= 1, got {d['beam']}")
    unknown = set(d["splits"]) - {"dev", "test", "gen"}
    if unknown:
        raise ValueError(f"decoding splits must be among dev, test, gen; got {sorted(unknown)}")


def _digest(value) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def config_hash(config: dict) -> str:
    """12 hex digits of sha256 over the canonical JSON of the whole configuration."""
    validate(config)
    return _digest(config)


def training_hash(config: dict) -> str:
    """Like :func:`config_hash`, without the ``decoding`` part (names checkpoints)."""
    return _digest({k: v for k, v in config.items() if k != "decoding"})


def describe(config: dict) -> str:
    """A short human label: ``Transformer, seed 1, 1 exposure``."""
    n = config["data"]["exposures"]
    return (
        f"{LABELS.get(config['model'], config['model'])}, seed {config['seed']}, "
        f"{n} exposure{'s' if n > 1 else ''}"
    )


def describe_decoding(config: dict) -> str:
    """A short label of a configuration's decoding: ``greedy, whole sets`` or ``beam 5, 100 gen
    examples per case, 500 dev/test``."""
    d = config["decoding"]
    method = "greedy" if d["method"] == "greedy" else f"beam {d['beam']}"
    if d["per_case"] == 0 and d["per_split"] == 0:
        return f"{method}, whole sets"
    gen = f"{d['per_case']} gen examples per case" if d["per_case"] > 0 else "all gen"
    rest = f"{d['per_split']} dev/test" if d["per_split"] > 0 else "all dev/test"
    return f"{method}, {gen}, {rest}"


def build_model(config: dict, src_vocab_size: int, tgt_vocab_size: int) -> nn.Module:
    """The model of ``config["architecture"]`` for the given vocabulary sizes."""
    from compsem.cogs.seq2seq.lstm import LSTMSeq2Seq
    from compsem.cogs.seq2seq.transformer import TransformerSeq2Seq

    arch = dict(config["architecture"])
    kind = arch.pop("arch")
    if kind == "transformer":
        return TransformerSeq2Seq(src_vocab_size, tgt_vocab_size, **arch)
    if kind == "lstm":
        return LSTMSeq2Seq(src_vocab_size, tgt_vocab_size, **arch)
    raise ValueError(f"unknown architecture {kind!r}; known: transformer, lstm")


def count_parameters(model: nn.Module) -> int:
    """Number of trainable parameters (what Section 4.5.1 and Figure 4-3 report)."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
