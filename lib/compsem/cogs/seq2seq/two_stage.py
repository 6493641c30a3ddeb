"""Sequential training of Kim (2021), Chapter 5, Experiment 1: an auxiliary task to early
stopping, then COGS with Chapter 4's protocol, starting from the auxiliary model's weights.

"we train the models on an auxiliary objective before training them on the compositional
generalization task" (Section 5.2.4), each stage to early stopping: not multi-task, not a fixed
number of auxiliary updates (footnote 15 names both as untested alternatives). Both stages are
:func:`compsem.cogs.seq2seq.trainer.train` (noam, early stopping, checkpoints with resume); the
COGS stage gets the auxiliary stage's best weights through ``init_weights`` and, by default,
its Adam state and update count through ``init_optimizer`` (as OpenNMT-py's ``-train_from`` does;
``cogs_optimizer`` in :mod:`.auxiliary_config`). Both use one vocabulary (:func:`vocabularies`):
the ``[w_n]`` COGS splits and
the substitute English text with its gloss tokens and sentinels, the same for every objective, so
the baseline (objective ``"none"``, no auxiliary stage) differs from the others only in what it
was trained on first.

Checkpoints: ``<checkpoint root>/auxiliary/<hash of the auxiliary stage>/`` and
``<checkpoint root>/cogs/<training hash>/``; an interrupted run resumes in whichever stage it
stopped. Results go to ``data/results/cogs-auxiliary/<config hash>/`` in the files of
:mod:`compsem.cogs.seq2seq.results`, ``metrics.json`` adding the auxiliary stage (updates, stop
reason, best dev cross-entropy per token: Section 5.2.6 compares the architectures by it) and
the single-lexical-error rate over the decoded gen examples (Section 5.2.6).

The last section builds what the chapter ``cogs-auxiliary`` shows of the runs: the grid's table
beside the paper's (Figures 5-1 to 5-3), the numbers of Section 5.2.6 and the values to glue.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
import torch

from compsem import determinism, paths, stats
from compsem.cogs import auxiliary_data, evaluation, masking, multiplicity
from compsem.cogs import summary as s45
from compsem.cogs.seq2seq import batching, decoding, experiment, results, trainer
from compsem.cogs.seq2seq.auxiliary_config import stage_one_config, validate_aux
from compsem.cogs.seq2seq.config import LABELS as MODEL_LABELS
from compsem.cogs.seq2seq.config import config_hash, count_parameters, training_hash
from compsem.cogs.seq2seq.vocab import SOURCE_SPECIALS, TARGET_SPECIALS, Vocab
from compsem.devices import resolve_device

RESULTS_DIR = paths.PROJECT_DATA_DIR / "results" / "cogs-auxiliary"
COGS_SPLITS = ("train", "dev", "test", "gen", "exposure-100")


def results_root(where: str | Path | None = None, must_exist: bool = False) -> Path:
    """``data/results/cogs-auxiliary`` (``None`` or ``""``), the cache (``"cache"``), or a
    folder (:func:`compsem.cogs.seq2seq.results.results_root` for this chapter; ``must_exist``:
    a folder that does not exist is an error)."""
    return results.results_root(where, chapter="cogs-auxiliary", committed=RESULTS_DIR,
                                must_exist=must_exist)


def checkpoint_root(where: str | Path | None = None) -> Path:
    if where in (None, ""):
        return paths.cache_dir("cogs-auxiliary", determinism.numerics(), "checkpoints")
    return Path(where)


# ---------------------------------------------------------------- data and vocabulary


@functools.cache
def masked_cogs(split: str) -> pd.DataFrame:
    """A ``[w_n]`` COGS split (``train-100`` for the 100-exposure set), cached in-process."""
    return masking.load_masked(split)


def cogs_training_frame(exposures: int) -> pd.DataFrame:
    if exposures not in (1, 100):
        raise ValueError(f"exposures must be 1 or 100, got {exposures!r}")
    return masked_cogs("train" if exposures == 1 else "train-100")


@functools.cache
def _corpus(key: str) -> pd.DataFrame:
    settings = json.loads(key)
    frame = auxiliary_data.english_sentences(
        n_sentences=int(settings["n_sentences"]),
        max_words=int(settings["max_words"]),
        max_tokens=int(settings["max_tokens"]),
        gap_sentences=settings["gap_sentences"],
        seed=int(settings["seed"]),
    )
    frame["split"] = auxiliary_data.split_dev(frame, float(settings["dev_fraction"]),
                                              int(settings["seed"]))
    return frame


def corpus(config: dict) -> pd.DataFrame:
    """The auxiliary corpus of a configuration (columns ``text``, ``source_index``, ``split``)."""
    return _corpus(json.dumps(config["auxiliary"]["corpus"], sort_keys=True)).copy()


def max_sentinels(chunk_tokens: int, rate: float, mean_span: float) -> int:
    """The most spans :func:`~compsem.cogs.auxiliary_data.span_corruption` can make in a chunk
    of at most ``chunk_tokens`` tokens (so the sentinels in the vocabulary do not depend on the
    random corruption)."""
    most = 1
    for n in range(2, int(chunk_tokens) + 1):
        noise = min(max(1, int(round(rate * n))), n - 1)
        most = max(most, max(1, min(int(round(noise / mean_span)), noise, n - noise)))
    return most


@functools.cache
def _vocabularies(key: str) -> tuple[Vocab, Vocab]:
    aux = json.loads(key)
    words = set()
    for text in _corpus(json.dumps(aux["corpus"], sort_keys=True)).text:
        words.update(text.split())
    d = aux["denoise"]
    sentinels = {auxiliary_data.SENTINEL.format(i)
                 for i in range(max_sentinels(d["chunk_tokens"], d["rate"], d["mean_span"]))}
    src, tgt = set(words) | sentinels, set(words) | sentinels
    tgt |= {auxiliary_data.gloss(w, aux["gloss_tokens"]) for w in words}
    for split in COGS_SPLITS:
        frame = masked_cogs(split)
        for text in frame.source:
            src.update(text.split())
        for text in frame.target:
            tgt.update(text.split())
    return Vocab(src, SOURCE_SPECIALS), Vocab(tgt, TARGET_SPECIALS)


def vocabularies(config: dict) -> tuple[Vocab, Vocab]:
    """Source and target vocabularies of a configuration: every ``[w_n]`` COGS split (gen
    included, as the released scripts built theirs) and the auxiliary corpus's words, their
    gloss tokens (:func:`~compsem.cogs.auxiliary_data.gloss`: with ``gloss_tokens="word"`` they
    are the words themselves) and the denoising sentinels, whatever the objective."""
    aux = config["auxiliary"]
    key = json.dumps({"corpus": aux["corpus"], "denoise": aux["denoise"],
                      "gloss_tokens": aux["gloss_tokens"]}, sort_keys=True)
    return _vocabularies(key)


def parameter_counts(config: dict) -> dict[str, dict[str, int]]:
    """Vocabulary sizes and parameter counts of the paper's three models with the vocabulary of
    ``config``, for each way of writing glosses (:data:`~compsem.cogs.auxiliary_data.GLOSS_TOKENS`):
    ``{"word": {"source": ..., "target": ..., "transformer": ..., "lstm": ..., "bilstm": ...},
    "primed": {...}}``. Section 5.2.4 gives the paper's counts with its vocabulary (and its
    footnote 14 why the vocabulary matters: Xavier initialisation and label smoothing)."""
    from compsem.cogs.seq2seq.config import build_model, make_config

    out = {}
    for tokens in auxiliary_data.GLOSS_TOKENS:
        variant = {**config, "auxiliary": {**config["auxiliary"], "gloss_tokens": tokens}}
        src, tgt = vocabularies(variant)
        out[tokens] = {"source": len(src), "target": len(tgt)}
        for model in ("transformer", "lstm", "bilstm"):
            out[tokens][model] = count_parameters(build_model(make_config(model), len(src), len(tgt)))
    return out


def parameter_values(counts: dict[str, dict[str, int]], gloss_tokens: str) -> dict[str, float]:
    """The glue values of :func:`parameter_counts` (Section 5.2.4): the vocabulary sizes of the
    chosen way of writing glosses (``caux_vocab_source``, ``caux_vocab_target``) and the target
    vocabulary with primed glosses (``caux_vocab_target_primed``), and the Transformer's
    parameters in millions for each way (``caux_params_<tokens>_transformer_m``)."""
    values = {"caux_vocab_source": counts[gloss_tokens]["source"],
              "caux_vocab_target": counts[gloss_tokens]["target"],
              "caux_vocab_target_primed": counts["primed"]["target"]}
    return values | {f"caux_params_{tokens}_transformer_m": counts[tokens]["transformer"] / 1e6
                     for tokens in counts}


def auxiliary_pairs(config: dict) -> pd.DataFrame:
    """The auxiliary stage's pairs (``source``, ``target``, ``split``); denoising corrupts with
    the run's seed."""
    aux = config["auxiliary"]
    return auxiliary_data.auxiliary_pairs(aux["objective"], corpus(config), aux["denoise"],
                                          seed=config["seed"], gloss_tokens=aux["gloss_tokens"])


def _encode(frame, src_vocab, tgt_vocab) -> batching.Pairs:
    return batching.encode_pairs(frame.source, frame.target, src_vocab, tgt_vocab)


# ---------------------------------------------------------------- training


def train_two_stage(config: dict, device="auto", **options) -> dict:
    """Train (or resume, or reload) both stages of ``config``: :func:`train_two_stage_group` of
    this one configuration (``device`` and ``options`` as its)."""
    return train_two_stage_group([config], device, **options)[0]


def train_two_stage_group(
    configs: list[dict],
    device="auto",
    amp: bool = True,
    checkpoints=None,
    progress: bool = False,
    stop_after: int | None = None,
    deadline: float | None = None,
    log=None,
    fuse: bool | None = None,
    compile_step: str | None = None,
) -> list[dict]:
    """Both stages of ``configs`` (one configuration, or seeds of one configuration), each stage
    trained as :func:`compsem.cogs.seq2seq.trainer.train_group` trains (several seeds as one
    batched model, each keeping its own batches, loss, clip, Adam, validations and early
    stopping; one configuration as itself). Each COGS stage starts from its own auxiliary
    model; where it continues that model's update count, the members that start at the same
    update train together (:func:`_same_start`).

    Returns, per configuration, ``{"auxiliary": TrainResult or None, "cogs": TrainResult or
    None, "done": bool}``; ``done`` is false when a stage was interrupted (``stop_after``
    updates in one stage call, as in :func:`~compsem.cogs.seq2seq.trainer.train_group`) or an
    auxiliary stage was cut by ``deadline``: the COGS stages then do not start, and the next
    call resumes. ``fuse``: as in :func:`~compsem.cogs.seq2seq.trainer.train_group` (False keeps
    GPU memory to one batch of the large output layer at a time); ``compile_step``: a
    ``torch.compile`` mode for the LSTM decoder step in both stages
    (:func:`~compsem.cogs.seq2seq.lstm.compile_decoder_step`)."""
    for config in configs:
        validate_aux(config)
    dev = torch.device(resolve_device(device)) if isinstance(device, str) else device
    root = checkpoint_root(checkpoints)
    src_vocab, tgt_vocab = vocabularies(configs[0])  # the same for every seed
    sizes = (len(src_vocab), len(tgt_vocab))
    options = {"device": dev, "amp": amp, "progress": progress, "stop_after": stop_after,
               "deadline": deadline, "log": log, "fuse": fuse, "compile_step": compile_step}
    out = [{"auxiliary": None, "cogs": None, "done": False} for _ in configs]
    init = init_optimizer = None
    if configs[0]["auxiliary"]["objective"] != "none":
        stage1 = [stage_one_config(c) for c in configs]
        pairs = [auxiliary_pairs(c) for c in configs]  # denoising corrupts with each seed
        folders = [root / "auxiliary" / training_hash(c) for c in stage1]
        if log:
            log(f"auxiliary stage ({configs[0]['auxiliary']['objective']}, seeds "
                f"{[c['seed'] for c in configs]}, {len(pairs[0])} pairs) in {folders[0].parent}")
        trained = trainer.train_group(
            stage1, [_encode(p[p.split == "train"], src_vocab, tgt_vocab) for p in pairs],
            [_encode(p[p.split == "dev"], src_vocab, tgt_vocab) for p in pairs], *sizes, folders, **options)
        for run, result in zip(out, trained, strict=True):
            run["auxiliary"] = result
        if not all(r.state.done and r.state.stop_reason != "time limit" for r in trained):
            return out
        init = [r.model.state_dict() for r in trained]  # the best validation's weights
        if configs[0]["auxiliary"]["cogs_optimizer"] == "continue":
            init_optimizer = [auxiliary_optimizer(f, dev) for f in folders]
    cogs_pairs = (_encode(cogs_training_frame(configs[0]["data"]["exposures"]), src_vocab, tgt_vocab),
                  _encode(masked_cogs("dev"), src_vocab, tgt_vocab))
    for members in _same_start(len(configs), init_optimizer):  # a group shares its update count
        trained = trainer.train_group(
            [configs[k] for k in members], *cogs_pairs, *sizes,
            [root / "cogs" / training_hash(configs[k]) for k in members],
            init_weights=None if init is None else [init[k] for k in members],
            init_optimizer=None if init_optimizer is None else [init_optimizer[k] for k in members],
            **options)
        for k, result in zip(members, trained, strict=True):
            out[k].update(cogs=result, done=result.state.done)
    return out


def auxiliary_optimizer(folder: Path, device) -> dict:
    """The Adam state and update count of an auxiliary stage's best validation, which the COGS
    stage continues from (``cogs_optimizer="continue"``)."""
    path = Path(folder) / trainer.BEST_OPTIMIZER
    if not path.exists():
        raise RuntimeError(f"{path} is missing: the auxiliary stage in {folder} was trained without "
                           f"keeping its optimiser; remove {folder} to train it again, or set the "
                           f"auxiliary cogs_optimizer to 'restart'")
    return trainer.load_checkpoint(path, device)


def _same_start(n: int, init_optimizer: list[dict] | None) -> list[list[int]]:
    """Members ``0..n-1`` in groups that start the COGS stage at the same update: all together
    when the stage restarts its optimiser, else by the auxiliary best step each continues from
    (members at different steps follow different learning rates, so they train apart)."""
    if init_optimizer is None:
        return [list(range(n))]
    by_step: dict[int, list[int]] = {}
    for k, saved in enumerate(init_optimizer):
        by_step.setdefault(int(saved["step"]), []).append(k)
    return [by_step[step] for step in sorted(by_step)]


# ---------------------------------------------------------------- decoding and scoring


@torch.no_grad()
def teacher_forced(model, frame: pd.DataFrame, src_vocab: Vocab, tgt_vocab: Vocab, device,
                   batch_size: int = 128) -> dict:
    """Token-level scores of the gold outputs of ``frame`` under teacher forcing: the share of
    target tokens the model ranks first (``token_accuracy``), the same at the positions of
    ``[w_n]`` tokens (``wn_accuracy``: is the held-out item retrieved where it belongs, the
    mechanism behind single lexical errors) and the cross-entropy per token (``loss``).
    Informative where exact match is still 0 (short CPU runs)."""
    pairs = _encode(frame, src_vocab, tgt_vocab)
    masked_ids = torch.tensor(sorted(tgt_vocab.stoi[t] for t in masking.MASK_TOKENS
                                     if t in tgt_vocab.stoi), device=device)
    model.eval()
    right = total = wn_right = wn_total = 0
    loss_sum = 0.0
    for idx in batching.sorted_batches(pairs.tgt_lengths, batch_size):
        batch = batching.collate(pairs, idx).to(device)
        logprobs = model(batch.src, batch.src_lengths, batch.tgt_in).float()
        gold = batch.tgt_out
        keep = gold != 0
        best = logprobs.argmax(-1)
        right += int(((best == gold) & keep).sum())
        total += int(keep.sum())
        at_wn = torch.isin(gold, masked_ids)
        wn_right += int(((best == gold) & at_wn).sum())
        wn_total += int(at_wn.sum())
        loss_sum += float(-logprobs.gather(-1, gold[..., None]).squeeze(-1)[keep].sum())
    return {"token_accuracy": right / max(total, 1),
            "wn_accuracy": wn_right / wn_total if wn_total else float("nan"),
            "loss": loss_sum / max(total, 1), "tokens": total, "wn_tokens": wn_total}


def single_lexical_error_rate(predictions: pd.DataFrame) -> float:
    """The share of the decoded gen examples whose output has a single lexical retrieval error
    (:func:`compsem.cogs.evaluation.single_lexical_error`), the measure of Section 5.2.6, which
    gives it as a share of all generalization test examples (its targets:
    ``caux_transformer_none_single_lexical``, ``caux_transformer_gloss_single_lexical``)."""
    gen = predictions[predictions.split == "gen"]
    if not len(gen):
        return float("nan")
    gold = masked_cogs("gen").target.iloc[gen.row.to_numpy()]
    errors = [evaluation.single_lexical_error(p, g) for p, g in zip(gen.prediction, gold, strict=True)]
    return float(np.mean(errors))


def train_and_decode(
    config: dict,
    device: str = "auto",
    amp: bool = True,
    progress: bool = False,
    results_dir=None,
    checkpoints=None,
    decode_batch_size: int | None = None,
    force: bool = False,
    deadline: float | None = None,
    log=None,
    fuse: bool | None = None,
    compile_step: str | None = None,
) -> results.Result | None:
    """Train both stages, decode, score and save one configuration; read its results back when
    they exist (``force``: decode again). None when training did not finish in this call (an
    auxiliary stage cut by ``deadline``); a COGS stage cut by it is decoded on a sample and saved
    as :func:`compsem.cogs.seq2seq.experiment.cut_config` (the returned result's configuration). ``compile_step``: as in :func:`train_two_stage`."""
    validate_aux(config)
    root = results_root(results_dir)
    if not force and results.has_result(config, root):
        return results.load_result(config, root)
    start = time.perf_counter()
    dev = torch.device(resolve_device(device))
    trained = train_two_stage(config, device=dev, amp=amp, checkpoints=checkpoints, progress=progress,
                              deadline=deadline, log=log, fuse=fuse, compile_step=compile_step)
    if not trained["done"]:
        return None
    src_vocab, tgt_vocab = vocabularies(config)
    model, state = trained["cogs"].model, trained["cogs"].state
    if state.stop_reason == "time limit":  # decoded on a sample, saved as that configuration
        config = experiment.cut_config(config)
    t0 = time.perf_counter()
    decode_batch_size = decode_batch_size or decoding.batch_size_for(dev)
    gold = {s: masked_cogs(s) for s in config["decoding"]["splits"]}
    predictions, counts = experiment.decode_splits(model, config, gold, src_vocab, tgt_vocab, dev, amp,
                                                   decode_batch_size, progress)
    metrics = experiment.exact_match_accuracy(predictions, gold)
    if "gen" in gold:
        rows = predictions.loc[predictions.split == "gen", "row"].to_numpy()
        # in teacher_forced's own batches: scores over the 28,408 output types of the longest
        # gen outputs (480 tokens) fill 14 GB in float32 at 128 sentences, four times that at 512
        metrics["gen_teacher_forced"] = teacher_forced(model, gold["gen"].iloc[rows], src_vocab,
                                                       tgt_vocab, dev)
    aux = trained["auxiliary"]
    aux_state = aux.state if aux is not None else None
    end = time.perf_counter()
    metrics.update({
        "hash": config_hash(config),
        "training_hash": training_hash(config),
        "model": config["model"],
        "objective": config["auxiliary"]["objective"],
        "seed": config["seed"],
        "exposures": config["data"]["exposures"],
        "parameters": count_parameters(model),
        "source_vocabulary": len(src_vocab),
        "target_vocabulary": len(tgt_vocab),
        "steps": state.step - state.start_step,  # updates of the COGS stage
        "start_step": state.start_step,  # the update count it continued from (0: restarted)
        "best_step": state.best_step,
        "best_dev_loss": state.best_loss,
        "stop_reason": state.stop_reason,
        "history": state.history,
        "aux_steps": aux_state.step if aux_state else 0,
        "aux_best_step": aux_state.best_step if aux_state else 0,
        "aux_best_dev_loss": aux_state.best_loss if aux_state else None,
        "aux_stop_reason": aux_state.stop_reason if aux_state else "",
        "aux_history": aux_state.history if aux_state else [],
        "aux_train_seconds": round(aux_state.train_seconds, 1) if aux_state else 0.0,
        "single_lexical_error_rate": single_lexical_error_rate(predictions),
        "device": experiment.device_name(dev),
        "amp": bool(amp and dev.type == "cuda"),
        "compile_step": getattr(model, "compiled_step", None),
        "train_seconds": round(state.train_seconds, 1),
        "decode_seconds": round(end - t0, 1),
        "decode_batch_size": decode_batch_size,
        "decoding": counts,
        "wall_seconds": round(state.train_seconds + (aux_state.train_seconds if aux_state else 0)
                              + (end - t0), 1),
        "session_seconds": round(end - start, 1),
        "torch": torch.__version__,
        "python": platform.python_version(),
        "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    })
    if state.group_seeds:  # trained as one batched model with these seeds (seq2seq.grouped)
        metrics["trained_with_seeds"] = list(state.group_seeds)
    result = results.Result(config, metrics, predictions)
    folder = results.save_result(result, root)
    if log:
        log(f"{config_hash(config)}: " + ", ".join(
            f"{k} {v:.3f}" for k, v in metrics["accuracy"].items()) + f"; results in {folder}")
    return result


# ---------------------------------------------------------------- reading results


RUN_COLUMNS = ["model", "objective", "seed", "exposures", "dev", "test", "gen", "lexical",
               "structural", "single_lexical_error_rate", "aux_best_dev_loss", "best_dev_loss",
               "gen_token_accuracy", "gen_wn_accuracy", "steps", "start_step", "best_is_last",
               "aux_steps", "stop_reason", "aux_stop_reason", "decoding", "device",
               "wall_seconds", "hash"]


def collect(configs: list[dict], results_dir=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The finished runs among ``configs``: one row per run (:data:`RUN_COLUMNS`; gen, lexical
    and structural are means over the decoded cases, Figure 4-1; ``start_step``: the update count
    the COGS stage continued from, 0 where it started its own optimiser; ``best_is_last``: the COGS
    stage's best validation was its last one, so it was still improving when it stopped) and,
    long, one row per run and gen case (``model``, ``objective``, ``seed``, ``case``,
    ``accuracy``). Runs without results,
    or cut by a time budget, are left out."""
    root = results_root(results_dir)
    runs, cases = [], []
    for config in configs:
        if not results.has_result(config, root):
            continue
        metrics = results.load_metrics(config, root)
        by_case = pd.Series(metrics.get("gen_by_case", {}), dtype=float)
        agg = evaluation.aggregate(by_case.reindex(
            [c for c in evaluation.CASE_ORDER if c in by_case.index]))
        objective = config["auxiliary"]["objective"]
        runs.append({
            "model": config["model"], "objective": objective, "seed": config["seed"],
            "exposures": config["data"]["exposures"],
            **{s: metrics["accuracy"].get(s, np.nan) for s in ("dev", "test")},
            **agg,
            **{k: metrics.get(k) for k in ("single_lexical_error_rate", "aux_best_dev_loss",
                                           "best_dev_loss", "steps", "start_step", "aux_steps",
                                           "stop_reason",
                                           "aux_stop_reason", "device", "wall_seconds")},
            "gen_token_accuracy": metrics.get("gen_teacher_forced", {}).get("token_accuracy"),
            "gen_wn_accuracy": metrics.get("gen_teacher_forced", {}).get("wn_accuracy"),
            "best_is_last": metrics["best_step"] == metrics["start_step"] + metrics["steps"],
            "decoding": config["decoding"]["method"], "hash": config_hash(config),
        })
        cases += [{"model": config["model"], "objective": objective, "seed": config["seed"],
                   "case": c, "accuracy": v} for c, v in by_case.items()]
    return (pd.DataFrame(runs, columns=RUN_COLUMNS),
            pd.DataFrame(cases, columns=["model", "objective", "seed", "case", "accuracy"]))


def cogs_stage_start(configs: list[dict], runs: pd.DataFrame) -> dict[str, float]:
    """How the COGS stage of each objective's runs among ``configs`` starts its optimiser, from
    their configurations and results (``runs``, :func:`collect`), for the chapter to state:
    per objective, ``<objective>_start_step`` (the fewest updates a run's COGS stage continued
    from: 0 for the baseline and under ``cogs_optimizer="restart"``), ``<objective>_warmup``
    (the warm-up of its COGS stage's noam schedule) and ``<objective>_peak_lr_ratio`` (the
    highest noam rate that stage reaches, over the baseline's highest: below 1 when it starts
    past its warm-up and so never warms up). A stage that continues also starts from the
    auxiliary stage's Adam moments (:mod:`.auxiliary_config`), which the baseline's does not."""
    from compsem.cogs.seq2seq.trainer import model_dim, noam_lr

    def peak(config: dict, start: int) -> float:
        t = config["training"]
        step = min(max(start + 1, int(t["warmup"])), int(t["max_steps"]))
        return noam_lr(step, float(t["lr"]), model_dim(config), int(t["warmup"]))

    first = {}
    for config in configs:
        first.setdefault(config["auxiliary"]["objective"], config)
    out, peaks = {}, {}
    for objective, config in first.items():
        started = runs.loc[runs.objective == objective, "start_step"].dropna()
        start = int(started.min()) if len(started) else 0
        out[f"{objective}_start_step"] = start
        out[f"{objective}_warmup"] = int(config["training"]["warmup"])
        peaks[objective] = peak(config, start)
    base = peaks.get("none")
    for objective, value in peaks.items():
        out[f"{objective}_peak_lr_ratio"] = value / base if base else float("nan")
    return out


SUMMARY_QUANTITIES = ("dev", "test", "gen", "lexical", "structural",
                      "single_lexical_error_rate", "aux_best_dev_loss", "best_dev_loss",
                      "gen_token_accuracy", "gen_wn_accuracy")

SUMMARY_PROPORTIONS = ("dev", "test", "gen", "lexical", "structural", "single_lexical_error_rate",
                       "gen_token_accuracy", "gen_wn_accuracy")
"""The quantities of :data:`SUMMARY_QUANTITIES` that are proportions, whose intervals stay within
[0, 1] (:data:`compsem.stats.PROPORTION`); the others (losses) are not bounded."""


def reduced_run_values(runs: pd.DataFrame, objectives) -> dict[str, float]:
    """How the reduced run went (rows of :func:`collect`): ``caux_reduced_n_runs``,
    ``caux_reduced_n_seeds`` (the fewest seeds of an objective), per objective of ``objectives``
    the runs still improving at their last validation (``caux_reduced_<objective>_best_is_last``)
    and the training time in minutes (``caux_reduced_train_minutes``)."""
    values = {"caux_reduced_n_runs": len(runs),
              "caux_reduced_n_seeds": int(runs.groupby("objective").seed.count().min()) if len(runs) else 0}
    for objective in objectives:
        values[f"caux_reduced_{objective}_best_is_last"] = int(runs[runs.objective == objective].best_is_last.sum())
    values["caux_reduced_train_minutes"] = float(runs.wall_seconds.sum() / 60)  # 0 without runs
    return values


def summarise(runs: pd.DataFrame, quantities=SUMMARY_QUANTITIES) -> pd.DataFrame:
    """Mean, SD and 95% t-interval over seeds (:func:`compsem.stats.seed_interval`) of each
    quantity per model and objective: columns ``model``, ``objective``, ``quantity``, ``n``,
    ``mean``, ``sd``, ``low``, ``high``."""
    rows = []
    for (model, objective), part in runs.groupby(["model", "objective"], sort=False):
        for quantity in quantities:
            values = pd.to_numeric(part[quantity], errors="coerce").dropna().to_numpy(float)
            if not len(values):
                continue
            bounds = stats.PROPORTION if quantity in SUMMARY_PROPORTIONS else None
            mean, low, high = stats.seed_interval(values, bounds=bounds)
            rows.append({"model": model, "objective": objective, "quantity": quantity,
                         "n": len(values), "mean": mean,
                         "sd": float(values.std(ddof=1)) if len(values) > 1 else float("nan"),
                         "low": low, "high": high})
    return pd.DataFrame(rows, columns=["model", "objective", "quantity", "n", "mean", "sd",
                                       "low", "high"])


def difference(runs: pd.DataFrame, model: str, objective: str, quantity: str = "gen",
               baseline: str = "none", level: float = 0.95) -> dict:
    """``objective`` minus ``baseline`` in ``quantity`` for ``model``: the difference of the
    seed means and Welch's ``level`` interval (seeds are independent runs, not paired)."""
    d = difference_at_levels(runs, model, objective, quantity, baseline, {"": level})
    return {"difference": d["difference"], "low": d["low"], "high": d["high"], "n": d["n"]}


def difference_at_levels(runs: pd.DataFrame, model: str, objective: str, quantity: str = "gen",
                         baseline: str = "none", levels=None) -> dict:
    """:func:`difference` at several levels from one Welch test
    (:func:`compsem.stats.welch_intervals`): ``levels`` maps a suffix to a level (by default
    ``{"": 0.95}``); keys ``difference``, ``n`` and ``low<suffix>``, ``high<suffix>`` for each
    level."""
    levels = {"": 0.95} if levels is None else dict(levels)
    part = runs[runs.model == model]
    a = part.loc[part.objective == objective, quantity].to_numpy(float)
    b = part.loc[part.objective == baseline, quantity].to_numpy(float)
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"{model}: need 2+ seeds of {objective!r} and {baseline!r}, got "
                         f"{len(a)} and {len(b)}")
    diff, bounds = stats.welch_intervals(a, b, list(levels.values()))
    out: dict = {"difference": diff, "n": (len(a), len(b))}
    for suffix, (low, high) in zip(levels, bounds, strict=True):
        out |= {f"low{suffix}": low, f"high{suffix}": high}
    return out


def ensure_results(configs: list[dict], train_missing: bool = True, **options) -> list[dict]:
    """Make sure every configuration has results (:func:`train_and_decode`, ``options`` passed on; trained
    only when ``train_missing``) and return those that have them, in order. A ``results_dir``
    folder that does not exist is an error, not a place to train into (create it first)."""
    root = results_root(options.get("results_dir"), must_exist=True)
    done = []
    for config in configs:
        if not results.has_result(config, root) and train_missing:
            train_and_decode(config, **options)
        if results.has_result(config, root):
            done.append(config)
    return done


GRID_LEVELS = {"": 0.95, "_ci90": stats.EQUIVALENCE_LEVEL, "_bonf3": multiplicity.bonferroni_level(3)}
"""The levels of Welch's intervals of the full configuration's differences, by key suffix
(``<stem><suffix>_low`` and ``_high``), as the claims of the ledger declare them
(data/claims/README.md): 95% for a direction; 90% for an equivalence test (two one-sided tests
at 5%, a conjunction of which, in ``holds_if``, needs no correction); and, for a ``fails_if``
that ORs ``k`` tests, Bonferroni's ``1 - .05 / k`` for directions and ``1 - .10 / k`` for
equivalence tests: the 95% interval for glossing-not-lstms (two equivalence tests), and
``1 - .05 / 3`` (``_bonf3``) for denoising-helps-bilstm-only (a direction and two equivalence
tests, all read at the stricter level)."""


def differences(runs: pd.DataFrame, quantities=("gen", "structural"),
                baseline: str = "none", levels=None) -> pd.DataFrame:
    """:func:`difference` of every objective against ``baseline`` for every model and quantity
    where both have 2+ seeds: columns ``model``, ``objective``, ``quantity``, ``difference``,
    ``low``, ``high``, and ``low<suffix>``, ``high<suffix>`` for each further level of ``levels``
    (a mapping suffix -> level, such as :data:`GRID_LEVELS`; by default 95% only)."""
    levels = {"": 0.95} if levels is None else dict(levels)
    bounds = [f"{side}{suffix}" for suffix in levels for side in ("low", "high")]
    rows = []
    for (model, objective), part in runs.groupby(["model", "objective"], sort=False):
        base = runs[(runs.model == model) & (runs.objective == baseline)]
        if objective == baseline or len(part) < 2 or len(base) < 2:
            continue
        for quantity in quantities:
            d = difference_at_levels(runs, model, objective, quantity, baseline, levels)
            rows.append({"model": model, "objective": objective, "quantity": quantity,
                         "difference": d["difference"], **{b: d[b] for b in bounds}})
    return pd.DataFrame(rows, columns=["model", "objective", "quantity", "difference", *bounds])


def difference_keys(table: pd.DataFrame, baseline: str = "none") -> dict[str, float]:
    """The values to glue of a :func:`differences` table: ``caux_<model>_<objective>_minus_
    <baseline>_<quantity>`` and its bounds, ``..._low``, ``..._high`` and, for a further level
    with suffix ``s``, ``...<s>_low`` and ``...<s>_high``."""
    values = {}
    for _, d in table.iterrows():
        stem = f"caux_{d['model']}_{d['objective']}_minus_{baseline}_{d['quantity']}"
        values[stem] = d["difference"]
        for column in table.columns[4:]:
            side, suffix = column.split("_", 1) if "_" in column else (column, "")
            values[f"{stem}{'_' + suffix if suffix else ''}_{side}"] = d[column]
    return values


REDUCED_CONTRASTS = ("best_dev_loss", "gen_token_accuracy", "gen_wn_accuracy", "dev", "gen",
                     "single_lexical_error_rate")
"""The glossing-minus-baseline contrasts of the reduced run the chapter ``cogs-auxiliary``
shows (its table under *What the reduced run shows*): one family, decided together."""
REDUCED_ALSO = ("lexical",)
"""Further contrasts glued at 95% but not shown, and so outside the family: the lexical mean is
the gen mean rescaled while the structural cases stay at 0 in both arms (the same test)."""


def reduced_contrasts(runs: pd.DataFrame, model: str, objective: str = "gloss",
                      baseline: str = "none", family=REDUCED_CONTRASTS,
                      also=REDUCED_ALSO) -> dict[str, float]:
    """``objective`` minus ``baseline`` of the reduced run for each contrast of ``family`` and
    ``also`` (:func:`difference`, Welch's 95% interval): keys
    ``caux_reduced_<objective>_minus_<baseline>_<quantity>`` with ``_low`` and ``_high``; and for
    the ``family`` the bounds of Welch's interval at Bonferroni's level for its size
    (:func:`compsem.cogs.multiplicity.bonferroni_level`, 1 - .05/k), ``..._family_low`` and
    ``..._family_high``, with ``caux_reduced_contrasts`` (k) and ``caux_reduced_family_level``.
    A claim decided on one contrast of the family is decided on its family bounds."""
    level = multiplicity.bonferroni_level(len(family))
    values: dict[str, float] = {"caux_reduced_contrasts": len(family),
                                "caux_reduced_family_level": level}  # fmt: skip
    for quantity in (*family, *also):
        stem = f"caux_reduced_{objective}_minus_{baseline}_{quantity}"
        levels = {"": 0.95, "_family": level} if quantity in family else {"": 0.95}
        d = difference_at_levels(runs, model, objective, quantity, baseline, levels)
        values |= {stem: d["difference"], f"{stem}_low": d["low"], f"{stem}_high": d["high"]}
        if quantity in family:
            values |= {f"{stem}_family_low": d["low_family"], f"{stem}_family_high": d["high_family"]}
    return values


PAPER_REDUCED_CONTRASTS = {"dev": "dev", "gen": "gen", "single_lexical_error_rate": "single_lexical"}
"""The contrasts of :data:`REDUCED_CONTRASTS` that the paper reports for its full Transformer
(Figure 5-1, Section 5.2.6), by quantity, with the suffix of their targets
(``caux_transformer_<objective>_<suffix>``); the others (cross-entropy on COGS, scores under
teacher forcing) it does not."""


def paper_reduced_differences(paper: dict, objective: str = "gloss", baseline: str = "none"
                              ) -> dict[str, float]:
    """The paper's ``objective`` minus ``baseline`` for its full Transformer (10 seeds, the
    paper's protocol) for each of :data:`PAPER_REDUCED_CONTRASTS`, from its targets (``paper``:
    target key -> the paper's value), to set beside the reduced run's contrasts as another
    protocol's: keys ``caux_paper_<objective>_minus_<baseline>_<quantity>``."""
    return {f"caux_paper_{objective}_minus_{baseline}_{quantity}":
            paper[f"caux_transformer_{objective}_{suffix}"] - paper[f"caux_transformer_{baseline}_{suffix}"]
            for quantity, suffix in PAPER_REDUCED_CONTRASTS.items()}  # fmt: skip


def sd_ratio_keys(runs: pd.DataFrame, quantities=("gen",), baseline: str = "none",
                  level: float = 0.95) -> dict[str, float]:
    """For every model and objective with 2+ seeds whose ``baseline`` also has 2+ seeds (rows of
    :func:`collect`): the SD over seeds of each of ``quantities`` after the objective over the
    baseline's, with its F interval at ``level`` (:func:`compsem.cogs.summary.sd_ratio_interval`),
    keys ``caux_<model>_<objective>_over_<baseline>_<quantity>_sd_ratio``, ``..._low`` and
    ``..._high`` (NaN where a side has no spread). The rule of the claim
    glossing-steadies-transformer (Section 5.2.5: glossing "also reduced the variance across
    random seeds"); none without runs."""
    values: dict[str, float] = {}
    if runs.empty:
        return values
    for (model, objective), part in runs.groupby(["model", "objective"], sort=False):
        base = runs[(runs.model == model) & (runs.objective == baseline)]
        if objective == baseline or len(part) < 2 or len(base) < 2:
            continue
        for quantity in quantities:
            ratio, low, high = s45.sd_ratio_interval(part[quantity].to_numpy(float),
                                                     base[quantity].to_numpy(float), level)  # fmt: skip
            stem = f"caux_{model}_{objective}_over_{baseline}_{quantity}_sd_ratio"
            values |= {stem: ratio, f"{stem}_low": low, f"{stem}_high": high}
    return values


def model_differences(runs: pd.DataFrame, quantity: str = "aux_best_dev_loss",
                      objective: str = "gloss", reference: str = "transformer",
                      name: str = "aux_loss", level: float = 0.95) -> dict[str, float]:
    """``quantity`` of every other model minus the ``reference`` model's, both after
    ``objective`` (rows of :func:`collect`), where each has 2+ seeds: the difference of the seed
    means and Welch's ``level`` interval (:func:`compsem.stats.welch_intervals`; independent
    runs), keys ``caux_<model>_minus_<reference>_<objective>_<name>``, ``..._low`` and
    ``..._high``. By default the glossing stage's best dev cross-entropy against the
    Transformer's, the rule of the claim transformer-learns-glossing-best (Section 5.2.6: the
    Transformer has "the lowest average development set cross-entropy loss on the glossing
    task"); none without runs."""
    values: dict[str, float] = {}
    if runs.empty:
        return values
    chosen = runs[runs.objective == objective]
    ours = pd.to_numeric(chosen.loc[chosen.model == reference, quantity], errors="coerce").dropna()
    if len(ours) < 2:
        return values
    for model, part in chosen.groupby("model", sort=False):
        other = pd.to_numeric(part[quantity], errors="coerce").dropna()
        if model == reference or len(other) < 2:
            continue
        diff, [(low, high)] = stats.welch_intervals(other.to_numpy(float), ours.to_numpy(float), [level])
        stem = f"caux_{model}_minus_{reference}_{objective}_{name}"
        values |= {stem: diff, f"{stem}_low": low, f"{stem}_high": high}
    return values


# ---------------------------------------------------------------- the chapter's tables


GRID_OBJECTIVES = ("none", "ccg", "gloss", "denoise", "gloss_ccg")
"""The objectives of Figures 5-1 to 5-3 in the order the chapter ``cogs-auxiliary`` shows them:
the baseline, CCG supertagging, glossing, denoising (language modelling) and glossing + CCG."""
CCG_OBJECTIVES = {"ccg": "CCG supertagging", "gloss_ccg": "glossing + CCG"}
"""The objectives that need CCGBank's supertags (licensed), by label: the paper's only, not run."""
GRID_SPLITS = ("dev", "test", "gen")
"""The splits of the paper's grid (Figures 5-1 to 5-3; Section 5.2.6)."""
PAPER_ERROR_KEYS = (("none", "single_lexical_error_rate", "single_lexical"),
                    ("gloss", "single_lexical_error_rate", "single_lexical"),
                    ("gloss", "aux_best_dev_loss", "aux_loss"))
"""The numbers of Section 5.2.6 beside the grid, per model: (objective, quantity of
:func:`summarise`, key suffix) for the single lexical error rate of the baseline and after
glossing, and the glossing stage's best dev cross-entropy."""


def grid_table(summary: pd.DataFrame, paper: dict, models, labels: dict,
               objectives=GRID_OBJECTIVES) -> tuple[pd.DataFrame, dict[str, float]]:
    """Figures 5-1 to 5-3 as a table: one row per model and objective (indexed by their labels,
    the models' from :data:`compsem.cogs.seq2seq.config.LABELS`, the objectives' from ``labels``
    and :data:`CCG_OBJECTIVES`), for each split the paper's mean (``paper``: ``caux_<model>_
    <objective>_<split>``, with the SD ``..._gen_sd`` for gen where it gives one) and ours from
    ``summary`` (:func:`summarise`: mean, 95% t-interval and number of seeds), or why there is
    none (CCG: not run; otherwise pending). Also the values to compare with the paper, in the
    table's order: our mean per model, objective and split, and the gen SD where 2+ seeds."""
    names = {**labels, **CCG_OBJECTIVES}
    rows, values = [], {}
    for model in models:
        for objective in objectives:
            row = {"model": MODEL_LABELS[model], "objective": names[objective]}
            for split in GRID_SPLITS:
                key = f"caux_{model}_{objective}_{split}"
                sd = paper.get(f"caux_{model}_{objective}_gen_sd") if split == "gen" else None
                row[f"paper {split}"] = f"{paper[key]:.2f}" + (f" (SD {sd:.2f})" if sd else "")
                ours = summary[(summary.model == model) & (summary.objective == objective)
                               & (summary.quantity == split)]
                if len(ours):
                    r = ours.iloc[0]
                    values[key] = r["mean"]
                    row[f"ours {split}"] = (f"{r['mean']:.2f} [{r['low']:.2f}, {r['high']:.2f}] "
                                            f"(n={r['n']})")
                    if split == "gen" and r["n"] > 1:
                        values[f"caux_{model}_{objective}_gen_sd"] = r["sd"]
                elif objective in CCG_OBJECTIVES:
                    row[f"ours {split}"] = "not run (CCGBank)"
                else:
                    row[f"ours {split}"] = "pending (needs a GPU)"
            rows.append(row)
    return pd.DataFrame(rows).set_index(["model", "objective"]), values


def paper_gen(paper: dict, models, objectives=GRID_OBJECTIVES) -> pd.DataFrame:
    """The paper's gen accuracy of Figures 5-1 to 5-3 (``caux_<model>_<objective>_gen``) with
    its SD over seeds (NaN where it gives none): columns ``model``, ``objective``, ``mean``,
    ``sd``, one row per model and objective, for
    :func:`compsem.cogs.auxiliary_figures.paper_vs_ours`."""
    rows = []
    for model in models:
        for objective in objectives:
            rows.append({"model": model, "objective": objective,
                         "mean": paper[f"caux_{model}_{objective}_gen"],
                         "sd": paper.get(f"caux_{model}_{objective}_gen_sd", np.nan)})
    return pd.DataFrame(rows)


def grid_mean_keys(models, objectives=GRID_OBJECTIVES) -> list[str]:
    """The keys of the grid's means (Figures 5-1 to 5-3), ``caux_<model>_<objective>_<split>``,
    by model, objective and split."""
    return [f"caux_{m}_{o}_{s}" for m in models for o in objectives for s in GRID_SPLITS]


def interval_keys(summary: pd.DataFrame, quantities=("gen", "structural")) -> dict[str, float]:
    """The 95% t-intervals of ``summary`` (:func:`summarise`) for ``quantities``, where finite,
    as values to glue for the claims on the full configuration (Figures 5-1 to 5-3):
    ``caux_<model>_<objective>_<quantity>_low`` and ``..._high``, in the table's row order."""
    values = {}
    for _, r in summary.iterrows():
        if r["quantity"] in quantities and np.isfinite(r["low"]):
            values[f"caux_{r['model']}_{r['objective']}_{r['quantity']}_low"] = r["low"]
            values[f"caux_{r['model']}_{r['objective']}_{r['quantity']}_high"] = r["high"]
    return values


def paper_error_values(summary: pd.DataFrame, models, targets) -> tuple[dict[str, float], list[str]]:
    """Section 5.2.6 beside our runs: for each model and each of :data:`PAPER_ERROR_KEYS` whose
    key ``caux_<model>_<objective>_<suffix>`` is among ``targets`` (the chapter's targets), our
    mean from ``summary`` (:func:`summarise`) where runs exist. Returns those means and the keys
    to compare (every such target, with runs or not), in order."""
    values, keys = {}, []
    for model in models:
        for objective, quantity, suffix in PAPER_ERROR_KEYS:
            key = f"caux_{model}_{objective}_{suffix}"
            if key not in targets:
                continue
            ours = summary[(summary.model == model) & (summary.objective == objective)
                           & (summary.quantity == quantity)]
            if len(ours):
                values[key] = ours.iloc[0]["mean"]
            keys.append(key)
    return values, keys


def reduced_summary_keys(summary: pd.DataFrame, quantities=SUMMARY_QUANTITIES) -> dict[str, float]:
    """The reduced run's means over seeds and their 95% t-intervals (:func:`summarise`; one
    model) as values to glue: ``caux_reduced_<objective>_<quantity>_mean`` and, where the
    interval is finite, ``..._low`` and ``..._high``, for the rows of ``quantities``, in the
    table's row order."""
    values = {}
    for _, r in summary.iterrows():
        if r["quantity"] not in quantities:
            continue
        stem = f"caux_reduced_{r['objective']}_{r['quantity']}"
        values[f"{stem}_mean"] = r["mean"]
        if np.isfinite(r["low"]):
            values[f"{stem}_low"] = r["low"]
            values[f"{stem}_high"] = r["high"]
    return values
