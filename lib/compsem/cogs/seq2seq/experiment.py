"""One run of Kim (2021, Section 4.5): train a model on COGS, decode dev, test and gen, write the
result files.

:func:`train_and_decode` is what both the chapter and the command line call. A configuration whose result
files exist is read back, not re-trained; an interrupted training resumes from its checkpoint in
``compsem.paths.cache_dir("cogs-models", "checkpoints", <training hash>)``.
"""

from __future__ import annotations

import datetime as dt
import math
import platform
import time

import numpy as np
import pandas as pd
import torch

from compsem import determinism, paths
from compsem.cogs import evaluation
from compsem.cogs.seq2seq import batching, decoding, results, trainer
from compsem.cogs.seq2seq.config import config_hash, count_parameters, training_hash
from compsem.cogs.seq2seq.vocab import cogs_vocabularies
from compsem.devices import resolve_device


def training_frame(exposures: int = 1) -> pd.DataFrame:
    """The training set: ``train.tsv`` (one exposure example per primitive), or ``train_100``
    (Section 4.5.7; 100 per primitive), reconstructed by :func:`compsem.cogs.exposure.train_100`
    (25,640 rows; ``train_100.tsv`` itself is not in the data mirror)."""
    if exposures == 1:
        from compsem.data import cogs

        return cogs.load("train")
    if exposures == 100:
        from compsem.cogs.exposure import train_100

        return train_100()
    raise ValueError(f"exposures must be 1 or 100, got {exposures!r}")


def evaluation_rows(split: str, frame: pd.DataFrame, decoding_config: dict) -> np.ndarray:
    """Rows of ``split`` to decode: all, or a fixed random sample (seed 0, the same for every
    run) of ``per_case`` examples per gen case / ``per_split`` dev or test examples."""
    rng = np.random.default_rng(0)
    if split == "gen" and decoding_config["per_case"] > 0:
        rows = []
        for _, group in frame.groupby("case", sort=True):
            n = min(decoding_config["per_case"], len(group))
            rows.append(rng.choice(group.index.to_numpy(), n, replace=False))
        return np.sort(np.concatenate(rows))
    if split != "gen" and decoding_config["per_split"] > 0:
        n = min(decoding_config["per_split"], len(frame))
        return np.sort(rng.choice(len(frame), n, replace=False))
    return np.arange(len(frame))


def exact_match_accuracy(predictions: pd.DataFrame, gold: dict[str, pd.DataFrame]) -> dict:
    """Exact-match accuracy (Section 4.4: the whole output must equal the target;
    :func:`compsem.cogs.evaluation.exact_match`) per split and per gen case."""
    accuracy, by_case = {}, {}
    for split, group in predictions.groupby("split"):
        frame = gold[split].iloc[group["row"].to_numpy()]
        correct = evaluation.exact_match(group["prediction"], frame["target"])
        accuracy[split] = float(correct.mean())
        if split == "gen":
            by_case = {
                c: float(v)
                for c, v in pd.Series(correct).groupby(frame["case"].to_numpy()).mean().items()
            }
    return {"accuracy": accuracy, "gen_by_case": by_case}


CUT_SAMPLE = {"per_case": 100, "per_split": 500}
"""What a run cut by a time limit is decoded on at most: 100 gen examples per case and 500 dev and
test examples (3,100 of 27,000, the sample of the committed beam decodings), so that its decoding
fits in what is left of a GPU command's time."""


def cut_config(config: dict) -> dict:
    """The configuration a run cut by a time limit is decoded and saved as: ``config`` with its
    decoding restricted to :data:`CUT_SAMPLE` (the same training hash; its own decoding stays to
    be done by a later call that trains it further)."""
    decode = dict(config["decoding"])
    for name, most in CUT_SAMPLE.items():
        if decode[name] == 0 or decode[name] > most:
            decode[name] = most
    return {**config, "decoding": decode}


def device_name(device: torch.device) -> str:
    if device.type == "cuda":
        return f"cuda: {torch.cuda.get_device_name(device)}"
    return f"cpu: {platform.processor() or platform.machine()}, {torch.get_num_threads()} threads"


def training_data(exposures: int = 1) -> tuple[batching.Pairs, batching.Pairs, int, int]:
    """What training reads: the training pairs (:func:`training_frame`), the dev pairs (early
    stopping), and the source and target vocabulary sizes."""
    from compsem.data import cogs

    src_vocab, tgt_vocab = cogs_vocabularies()

    def encode(frame):
        return batching.encode_pairs(frame.source, frame.target, src_vocab, tgt_vocab)

    return encode(training_frame(exposures)), encode(cogs.load("dev")), len(src_vocab), len(tgt_vocab)


def checkpoint_dir(config: dict, checkpoint_root=None):
    """Where the checkpoints (and kept weights) of ``config``'s training live: ``<root>/<training
    hash>``, the root defaulting to the compsem cache."""
    from pathlib import Path

    root = (
        paths.cache_dir("cogs-models", determinism.numerics(), "checkpoints")
        if checkpoint_root is None
        else Path(checkpoint_root)
    )
    return root / training_hash(config)


def decode_splits(model, config: dict, gold: dict[str, pd.DataFrame], src_vocab, tgt_vocab, device,
                  amp: bool = False, batch_size: int | None = None, progress: bool = False) -> tuple[pd.DataFrame, dict]:
    """Decode the rows of each split of ``config["decoding"]`` (:func:`evaluation_rows` of
    ``gold[split]``) by its method, ``batch_size`` sentences at a time (default
    :func:`compsem.cogs.seq2seq.decoding.batch_size_for` the device); returns the predictions (columns of
    :data:`~compsem.cogs.seq2seq.results.PREDICTION_COLUMNS`) and, per split, the examples,
    seconds, output tokens and batches decoded in halves for want of GPU memory
    (:func:`compsem.cogs.seq2seq.decoding.translate`)."""
    d = config["decoding"]
    frames, counts = [], {}
    for split in d["splits"]:
        rows = evaluation_rows(split, gold[split], d)
        sources = [src_vocab.encode(s) for s in gold[split].source.iloc[rows]]
        caps = decoding.length_caps([len(s) for s in sources], d["max_len"], d["len_ratio"])
        t0, halved = time.perf_counter(), []
        hyps = decoding.translate(model, sources, caps, d["method"], d["beam"], batch_size=batch_size,
                                  device=device, amp=amp, progress=progress, halved=halved)
        counts[split] = {"examples": len(rows), "seconds": round(time.perf_counter() - t0, 2),
                         "output_tokens": int(sum(len(h.tokens) + 1 for h in hyps)),
                         "batches_halved": len(halved)}
        frames.append(pd.DataFrame({"split": split, "row": rows,
                                    "prediction": [tgt_vocab.decode(h.tokens) for h in hyps],
                                    "capped": [int(h.capped) for h in hyps]}))
    return pd.concat(frames, ignore_index=True), counts


def train_and_decode(
    config: dict,
    device: str = "auto",
    amp: bool = True,
    progress: bool = True,
    results_root=None,
    checkpoint_root=None,
    decode_batch_size: int | None = None,
    force: bool = False,
    deadline: float | None = None,
    log=None,
    keep_every: int = 0,
    compile_step: str | None = None,
) -> results.Result:
    """Train, decode and save one configuration; read its results back when they exist.

    ``results_root``: where result files go (see :func:`results.results_root`);
    ``checkpoint_root``: where checkpoints go (default the cache); ``force``: re-decode and
    overwrite existing results (training still resumes from its checkpoint); ``decode_batch_size``:
    sentences decoded at a time (default :func:`compsem.cogs.seq2seq.decoding.batch_size_for` the
    device; recorded in the metrics, not part of the hash); ``deadline``: see
    :func:`trainer.train` (a time-limited run says so in ``metrics["stop_reason"]``, and is
    decoded on a sample and saved as :func:`cut_config`: the returned result's configuration);
    ``keep_every``: keep the weights every that many updates beside the checkpoints
    (:func:`trainer.train`), for :mod:`compsem.cogs.seq2seq.curve`; ``compile_step``: a
    ``torch.compile`` mode for the LSTM decoder step in training and decoding
    (:func:`compsem.cogs.seq2seq.lstm.compile_decoder_step`), recorded in the metrics.
    """
    if not force and results.has_result(config, results_root):
        return results.load_result(config, results_root)
    from compsem.data import cogs

    start = time.perf_counter()
    dev = torch.device(resolve_device(device))
    src_vocab, tgt_vocab = cogs_vocabularies()
    train_pairs, dev_pairs, n_src, n_tgt = training_data(config["data"]["exposures"])
    gold = {s: cogs.load(s) for s in ("dev", "test", "gen")}

    checkpoints = checkpoint_dir(config, checkpoint_root)
    if log:
        log(
            f"{config_hash(config)}: training {config['model']} seed {config['seed']} on {dev} "
            f"(checkpoints in {checkpoints})"
        )
    trained = trainer.train(
        config,
        train_pairs,
        dev_pairs,
        n_src,
        n_tgt,
        checkpoints,
        device=dev,
        amp=amp,
        progress=progress,
        deadline=deadline,
        log=log,
        keep_every=keep_every,
        compile_step=compile_step,
    )
    state = trained.state
    if state.stop_reason == "time limit":
        config = cut_config(config)
        if log:
            log(f"cut by the time limit: decoded on a sample, as {config_hash(config)}")

    decode_start = time.perf_counter()
    decode_batch_size = decode_batch_size or decoding.batch_size_for(dev)
    predictions, decode_counts = decode_splits(trained.model, config, gold, src_vocab, tgt_vocab, dev, amp,
                                               decode_batch_size, progress)
    metrics = exact_match_accuracy(predictions, gold)
    end = time.perf_counter()
    metrics.update(
        {
            "hash": config_hash(config),
            "training_hash": training_hash(config),
            "model": config["model"],
            "seed": config["seed"],
            "exposures": config["data"]["exposures"],
            "parameters": count_parameters(trained.model),
            "steps": state.step,
            "best_step": state.best_step,
            "best_dev_loss": state.best_loss if math.isfinite(state.best_loss) else None,  # None: no validation
            "stop_reason": state.stop_reason,
            "epochs": round(
                state.step
                * config["training"]["batch_size"]
                * config["training"]["accum_count"]
                / len(train_pairs),
                2,
            ),
            "history": state.history,
            "device": device_name(dev),
            "amp": bool(amp and dev.type == "cuda"),
            "compile_step": getattr(trained.model, "compiled_step", None),
            "train_seconds": round(state.train_seconds, 1),
            "train_target_tokens_per_second": round(
                state.target_tokens / max(state.train_seconds, 1e-9)
            ),
            "decode_seconds": round(end - decode_start, 1),
            "decode_batch_size": decode_batch_size,
            "decoding": decode_counts,
            "wall_seconds": round(state.train_seconds + (end - decode_start), 1),
            "session_seconds": round(end - start, 1),
            "torch": torch.__version__,
            "python": platform.python_version(),
            "finished_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
    )
    if state.group_seeds:  # trained as one batched model with these seeds (seq2seq.grouped)
        metrics["trained_with_seeds"] = list(state.group_seeds)
    result = results.Result(config, metrics, predictions)
    folder = results.save_result(result, results_root)
    if log:
        acc = metrics["accuracy"]
        log(
            f"{config_hash(config)}: "
            + ", ".join(f"{k} {v:.3f}" for k, v in acc.items())
            + f"; results in {folder}"
        )
    return result
