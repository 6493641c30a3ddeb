"""Full fine-tuning of a sentence-transformer on STS3k (Fodor et al. 2025, §4.7, §5.3, Fig. 7).

The authors continued training SentBERT (all-mpnet-base-v2) on STS3k with the
sentence-transformers *STSb continued-training* recipe: ``CosineSimilarityLoss`` (the squared
error between the cosine of the two sentence embeddings and the human similarity, 0-1), batch
size 16, 4 epochs, a linear warm-up over the first 10% of the training steps, AdamW at 2e-5 and
an ``EmbeddingSimilarityEvaluator`` on a dev split. Fig. 7 reports Spearman rho on the
adversarial pairs: no training .145, random split .866 (10-fold cross-validation, out-of-fold
predictions), adversarial split (train on the 1,065 non-adversarial pairs, test on the 1,664
adversarial pairs, negatives excluded) .410.

- :func:`fine_tune`: the recipe, through ``SentenceTransformerTrainer`` (needs the
  sentence-transformers ``train`` extra: ``datasets`` and ``accelerate``). It runs offline:
  nothing is reported, pushed or fetched, and checkpoints go to a temporary directory that is
  deleted afterwards (``output_dir=None``); the chapter keeps predictions, never weights.
- :func:`predict`: cosine of the fine-tuned embeddings, raw or centred per feature over the
  A and B sets separately (:func:`compsem.sts.similarity.pair_cosines`).
- Centring. :func:`evaluate_split` and :func:`cross_validate` centre over the sentences of
  **all** rows of ``pairs`` (all 2,800 pairs in the chapter), whichever rows are scored, as the
  authors' ``_norml`` files of Fig. 7 are (one similarity per pair of all 2,800, centred over
  all of them): the two arms of a comparison, scored on different test rows, are then centred
  alike. The centring reads sentences only, never a rating, so it leaks nothing of the test
  ratings (like the PCA of §4.7, fitted on all 2,800 pairs).
- :func:`kfold_indices`, :func:`fold_split`: the k-fold protocol's row indices (the adversarial
  and 70/15/15 random splits are :func:`compsem.sts.regressors.adversarial_split` and
  :func:`compsem.sts.regressors.random_split`).
- :func:`evaluate_split`: fine-tune on one split and score the test rows.
- :func:`cross_validate`: the paper's k-fold protocol, out-of-fold predictions.

Cache. :func:`evaluate_split` (and so each fold of :func:`cross_validate`) keeps its whole result
on disk (:mod:`compsem.fitcache`, under the CPU numerics tag), keyed by the model's files, the
pairs, the split, every setting, the device, the source of the training and scoring code and the
library versions; a warm re-run reads the identical numbers back instead of fine-tuning
(``cache=False`` or ``COMPSEM_FIT_CACHE=0`` to train anyway).

Dev split and model selection. The recipe's old ``model.fit`` evaluated on the dev split
(every ``evaluation_steps=1000`` steps and at the end of each epoch; with a few hundred steps
that is once per epoch) and saved the best-scoring model, which the example script then
reloaded for the test. :func:`fine_tune` does the same in memory (``select_best=True``): the
weights of the epoch with the highest dev Spearman (cosine) are restored at the end. The
authors' split files are not published, so the dev split here is an assumption: a seeded
``dev_fraction`` (default 10%) of the training rows, held out of training.

Determinism. ``seed`` seeds Python's ``random``, NumPy and torch (and the trainer's own
``seed``/``data_seed``), so a rerun on the same machine gives the same predictions; CPU and GPU
kernels (and different CPUs or thread counts) may still differ in the last digits, which a
few hundred optimiser steps can grow to differences in the third decimal of rho.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from compsem.devices import resolve_device
from compsem.envvars import temporary as temporary_env
from compsem.sts.similarity import pair_cosines, spearman

MODEL_ALIASES = ("minilm", "mpnet")
"""Short names resolved through :mod:`compsem.models.registry` to the packaged local copies."""

RECIPE = {
    "epochs": 4,
    "batch_size": 16,
    "warmup_ratio": 0.1,
    "learning_rate": 2e-5,
    "weight_decay": 0.01,
    "max_grad_norm": 1.0,
    "loss": "CosineSimilarityLoss",
    "optimizer": "AdamW",
    "scheduler": "linear warm-up then linear decay",
}
"""The STSb continued-training recipe (§4.7: the sentence-transformers script of Reimers 2021);
weight decay and gradient clipping are ``model.fit``'s defaults, which the recipe used."""

TRAIN_EXTRA = "pip install 'sentence-transformers[train]'  (datasets, accelerate)"


# --------------------------------------------------------------------------- helpers


def seed_everything(seed: int) -> None:
    """Seed Python's ``random``, NumPy and torch (all devices)."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def resolve_model_path(model: str | os.PathLike) -> str:
    """``"minilm"``/``"mpnet"`` -> the packaged local directory; a path or hub id unchanged."""
    if str(model) in MODEL_ALIASES:
        from compsem.models import registry

        return str(registry.minilm_path() if str(model) == "minilm" else registry.mpnet_path())
    return str(model)


def load_model(model, device: str = "auto"):
    """A :class:`~sentence_transformers.SentenceTransformer` from an alias, a local directory,
    a hub id (needs the network or the Hugging Face cache) or an already loaded model (returned
    as is)."""
    from sentence_transformers import SentenceTransformer

    if isinstance(model, SentenceTransformer):
        return model
    return SentenceTransformer(resolve_model_path(model), device=resolve_device(device))


def _require_train_extra() -> None:
    from sentence_transformers.util import is_training_available

    if not is_training_available():
        raise ImportError(f"fine-tuning needs the sentence-transformers training extra: {TRAIN_EXTRA}")


def _check_frame(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    missing = {"sentence_a", "sentence_b", "human"} - set(frame.columns)
    if missing:
        raise ValueError(f"{name} lacks columns {sorted(missing)}")
    if len(frame) == 0:
        raise ValueError(f"{name} is empty")
    human = frame["human"].to_numpy(dtype=float)
    if not np.isfinite(human).all():
        raise ValueError(f"{name}.human has missing or infinite values")
    return frame


def _to_dataset(frame: pd.DataFrame):
    from datasets import Dataset

    return Dataset.from_dict({
        "sentence_a": [str(s) for s in frame["sentence_a"]],
        "sentence_b": [str(s) for s in frame["sentence_b"]],
        "score": frame["human"].to_numpy(dtype=float).tolist(),
    })


def training_steps(n_train: int, batch_size: int = 16, epochs: int = 4) -> int:
    """Optimiser steps of the recipe (the last, partial batch of each epoch is kept)."""
    return math.ceil(n_train / batch_size) * epochs


OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1", "TRANSFORMERS_OFFLINE": "1",
               "HF_DATASETS_OFFLINE": "1", "WANDB_DISABLED": "true"}
"""Hugging Face libraries offline and without telemetry while training."""


# --------------------------------------------------------------------------- training


def fine_tune(
    model: str | os.PathLike | Any = "minilm",
    train: pd.DataFrame | None = None,
    dev: pd.DataFrame | None = None,
    epochs: int = 4,
    batch_size: int = 16,
    warmup_ratio: float = 0.1,
    learning_rate: float = 2e-5,
    seed: int = 0,
    device: str = "auto",
    output_dir: str | os.PathLike | None = None,
    show_progress: bool = True,
    weight_decay: float = 0.01,
    max_grad_norm: float = 1.0,
    select_best: bool = True,
    history: list | None = None,
):
    """Continue training a sentence-transformer on ``train`` with the STSb recipe (§3.7 (b)).

    ``model``: ``"minilm"``, ``"mpnet"``, a local directory, a hub id, or a loaded
    ``SentenceTransformer`` (trained in place; pass a fresh one). ``train`` and ``dev`` are
    frames with ``sentence_a``, ``sentence_b`` and ``human`` (0-1). With ``dev``, an
    ``EmbeddingSimilarityEvaluator`` scores it at the end of every epoch, and with
    ``select_best`` the best epoch's weights (dev Spearman of the cosine) are restored at the
    end, as the recipe's saved best model; ``history`` (a list) receives one dict per epoch
    (``epoch``, ``dev_spearman``). Warm-up is ``ceil(warmup_ratio * total steps)`` steps, as
    the recipe computed it. ``output_dir=None`` trains in a temporary directory deleted at the
    end (nothing is written elsewhere: no checkpoints, no report, no model card, no hub calls).
    Returns the fine-tuned ``SentenceTransformer`` (on ``device``).
    """
    if train is None:
        raise ValueError("train is required")
    _check_frame(train, "train")
    if dev is not None:
        _check_frame(dev, "dev")
    if epochs < 1 or batch_size < 1:
        raise ValueError("epochs and batch_size must be >= 1")
    if not 0 <= warmup_ratio < 1:
        raise ValueError("warmup_ratio must be in [0, 1)")
    _require_train_extra()

    from sentence_transformers import (
        SentenceTransformerTrainer,
        SentenceTransformerTrainingArguments,
    )
    from sentence_transformers.sentence_transformer.evaluation import (
        EmbeddingSimilarityEvaluator,
    )
    from sentence_transformers.sentence_transformer.losses import CosineSimilarityLoss
    from transformers import TrainerCallback
    from transformers.utils import logging as hf_logging

    device = resolve_device(device)
    seed_everything(seed)
    st_model = load_model(model, device=device)
    st_model.to(device)
    loss = CosineSimilarityLoss(st_model)

    evaluator = None
    if dev is not None:
        evaluator = EmbeddingSimilarityEvaluator(
            sentences1=[str(s) for s in dev["sentence_a"]],
            sentences2=[str(s) for s in dev["sentence_b"]],
            scores=dev["human"].to_numpy(dtype=float).tolist(),
            name="dev",
            show_progress_bar=False,
        )

    total = training_steps(len(train), batch_size, epochs)
    warmup = math.ceil(total * warmup_ratio)

    best: dict[str, Any] = {"score": -math.inf, "state": None, "epoch": None}

    class _KeepBest(TrainerCallback):
        def on_evaluate(self, args, state, control, metrics=None, **kwargs):
            if not metrics:
                return
            key = next((k for k in metrics if k.endswith("spearman_cosine")), None)
            if key is None:
                return
            score = float(metrics[key])
            if history is not None:
                history.append({"epoch": float(state.epoch or 0.0), "dev_spearman": score})
            if select_best and score > best["score"]:
                best.update(score=score, epoch=state.epoch,
                            state={k: v.detach().to("cpu", copy=True)
                                   for k, v in st_model.state_dict().items()})

    tmp = None
    if output_dir is None:
        tmp = tempfile.mkdtemp(prefix="compsem-finetune-")
        out = tmp
    else:
        out = str(output_dir)
        Path(out).mkdir(parents=True, exist_ok=True)
    verbosity = hf_logging.get_verbosity()
    try:
        if not show_progress:
            hf_logging.set_verbosity_error()
        args = SentenceTransformerTrainingArguments(
            output_dir=out,
            num_train_epochs=epochs,
            per_device_train_batch_size=batch_size,
            per_device_eval_batch_size=max(batch_size, 32),
            learning_rate=learning_rate,
            warmup_steps=warmup,
            lr_scheduler_type="linear",
            weight_decay=weight_decay,
            max_grad_norm=max_grad_norm,
            seed=seed,
            data_seed=seed,
            use_cpu=(device == "cpu"),
            eval_strategy="epoch" if evaluator is not None else "no",
            save_strategy="no",
            logging_strategy="epoch",
            report_to="none",
            push_to_hub=False,
            disable_tqdm=not show_progress,
            dataloader_num_workers=0,
        )
        with temporary_env(OFFLINE_ENV):
            trainer = SentenceTransformerTrainer(
                model=st_model,
                args=args,
                train_dataset=_to_dataset(train),
                loss=loss,
                evaluator=evaluator,
                callbacks=[_KeepBest()],
            )
            if not show_progress:  # without tqdm, transformers prints every log dict to stdout
                from transformers.trainer_callback import PrinterCallback

                trainer.remove_callback(PrinterCallback)
            trainer.train()
    finally:
        hf_logging.set_verbosity(verbosity)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    if select_best and best["state"] is not None:
        st_model.load_state_dict(best["state"])
    st_model.eval()
    st_model.compsem_finetune = {  # provenance, read by evaluate_split
        "steps": total, "warmup_steps": warmup, "best_epoch": best["epoch"],
        "best_dev_spearman": None if best["state"] is None else best["score"],
    }
    return st_model


# --------------------------------------------------------------------------- prediction


def encode_pairs(model, pairs: pd.DataFrame, batch_size: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """Embeddings of the A sentences and of the B sentences (float64, not normalised)."""
    texts = [str(s) for s in pairs["sentence_a"]] + [str(s) for s in pairs["sentence_b"]]
    emb = model.encode(texts, batch_size=batch_size, convert_to_numpy=True,
                       show_progress_bar=False, normalize_embeddings=False)
    emb = np.asarray(emb, dtype=float)
    return emb[: len(pairs)], emb[len(pairs):]


def predict(model, pairs: pd.DataFrame, standardised: bool = False,
            batch_size: int = 64) -> np.ndarray:
    """Cosine similarity of each pair's two embeddings under ``model`` (one value per pair).

    ``standardised=True`` first centres each feature over the A set and over the B set
    separately (the authors' ``_norml`` protocol, :func:`compsem.sts.similarity.pair_cosines`).
    ``model`` may be an alias, a path or a loaded ``SentenceTransformer``.
    """
    model = load_model(model)
    a, b = encode_pairs(model, pairs, batch_size=batch_size)
    return pair_cosines(a, b, standardised=standardised)


def _predict_both(model, pairs: pd.DataFrame, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Raw and centred cosines of ``pairs.iloc[rows]``; the centring is over the A and B
    sentences of **all** rows of ``pairs`` (the authors' ``_norml`` protocol, Fig. 7), so that
    runs scored on different rows are centred alike. Sentences only: no rating enters."""
    a, b = encode_pairs(model, pairs)
    return pair_cosines(a, b)[rows], pair_cosines(a, b, standardised=True)[rows]


# --------------------------------------------------------------------------- splits


def kfold_indices(n: int, n_folds: int = 10, seed: int = 0) -> list[np.ndarray]:
    """A seeded shuffle of ``range(n)`` cut into ``n_folds`` near-equal test folds."""
    if not 2 <= n_folds <= n:
        raise ValueError(f"n_folds must be in [2, {n}], got {n_folds}")
    order = np.random.default_rng(seed).permutation(n)
    return [np.sort(f) for f in np.array_split(order, n_folds)]


def fold_split(pairs: pd.DataFrame, n_folds: int = 10, fold: int = 0,
               seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """One fold of :func:`cross_validate`'s random protocol: test = fold ``fold`` of
    :func:`kfold_indices` over all rows, train = the rest (positional indices). With the same
    ``n_folds`` and ``seed`` it is exactly one of the cross-validation's folds."""
    folds = kfold_indices(len(pairs), n_folds, seed)
    test = folds[fold]
    return np.setdiff1d(np.arange(len(pairs)), test), test


def _hold_out_dev(train_idx: np.ndarray, dev_fraction: float, seed: int):
    train_idx = np.asarray(train_idx)
    if dev_fraction <= 0:
        return train_idx, None
    if dev_fraction >= 1:
        raise ValueError("dev_fraction must be < 1")
    rng = np.random.default_rng(seed + 7919)
    n_dev = max(2, int(round(dev_fraction * len(train_idx))))
    dev = np.sort(rng.choice(train_idx, size=n_dev, replace=False))
    return np.setdiff1d(train_idx, dev), dev


# --------------------------------------------------------------------------- protocols


def _masks(pairs: pd.DataFrame, rows: np.ndarray) -> dict[str, np.ndarray]:
    out = {"all": np.ones(len(rows), dtype=bool)}
    if "portion" in pairs.columns:
        portion = pairs["portion"].astype(str).to_numpy()[rows]
        for name in ("non", "adv"):
            if (portion == name).sum() >= 2:
                out[name] = portion == name
    return out


def _rhos(sim: np.ndarray, human: np.ndarray, masks: Mapping[str, np.ndarray]) -> dict[str, float]:
    return {name: spearman(sim, human, mask) for name, mask in masks.items()}


def evaluate_split(
    model_name: str | os.PathLike,
    pairs: pd.DataFrame,
    train_idx: Sequence[int],
    test_idx: Sequence[int],
    dev_fraction: float = 0.1,
    epochs: int = 4,
    batch_size: int = 16,
    seed: int = 0,
    device: str = "auto",
    show_progress: bool = False,
    baseline: bool = True,
    cache: bool = True,
    **fine_tune_kwargs,
) -> dict[str, Any]:
    """Fine-tune ``model_name`` on ``pairs.iloc[train_idx]`` and score ``pairs.iloc[test_idx]``.

    ``dev_fraction`` of the training rows (seeded) are held out as the dev split
    (0 = no dev, the last epoch is kept). Returns a dict: ``rho_test`` (raw cosine) and
    ``rho_test_centred`` (the embeddings centred over the A and B sentences of all rows of
    ``pairs``, test and training rows alike: see the module's *Centring*), the same per portion in
    ``rho_by_portion``/``rho_by_portion_centred`` (keys ``all``, ``non``, ``adv`` when
    present), the untrained model's ``rho_before``/``rho_before_centred`` (``baseline=True``),
    ``wall_s`` (fine-tuning only), ``device``, ``n_train``, ``n_dev``, ``n_test``, ``epochs``,
    ``steps``, ``best_epoch``, ``dev_history`` and ``predictions`` (a DataFrame indexed like
    ``pairs`` with ``human``, ``portion``, ``sim`` and ``sim_centred``: small, for the
    chapter to save).

    With ``cache`` (and ``model_name`` a name or path, not a loaded model) the whole result is
    kept on disk (:mod:`compsem.fitcache`), keyed by the model's files, the pairs, the split,
    every training setting, the device, the source of the training and scoring code and the
    library versions: a second call with the same configuration returns the same numbers
    without training (``wall_s`` is then the original fine-tuning time).
    """
    train_idx, test_idx = np.asarray(train_idx, dtype=int), np.asarray(test_idx, dtype=int)
    if np.intersect1d(train_idx, test_idx).size:
        raise ValueError("train_idx and test_idx overlap")
    device = resolve_device(device)
    digest = None
    if cache:
        digest = _split_key(model_name, pairs, train_idx, test_idx, dev_fraction=dev_fraction, epochs=epochs,
                            batch_size=batch_size, seed=seed, device=device, baseline=baseline,
                            **fine_tune_kwargs)
        cached = None if digest is None else _load_split(digest)
        if cached is not None:
            return cached
    out = _evaluate_split(model_name, pairs, train_idx, test_idx, dev_fraction, epochs, batch_size, seed,
                          device, show_progress, baseline, **fine_tune_kwargs)
    if digest is not None:
        _store_split(digest, out)
    return out


def _evaluate_split(model_name, pairs: pd.DataFrame, train_idx: np.ndarray, test_idx: np.ndarray,
                    dev_fraction: float, epochs: int, batch_size: int, seed: int, device: str,
                    show_progress: bool, baseline: bool, **fine_tune_kwargs) -> dict[str, Any]:
    """:func:`evaluate_split` without the cache."""
    fit_idx, dev_idx = _hold_out_dev(train_idx, dev_fraction, seed)
    test = pairs.iloc[test_idx]
    human = test["human"].to_numpy(dtype=float)
    masks = _masks(pairs, test_idx)

    out: dict[str, Any] = {"model": str(model_name), "device": device}
    if baseline:
        before = load_model(model_name, device=device)
        raw0, cen0 = _predict_both(before, pairs, test_idx)
        out["rho_before"], out["rho_before_centred"] = spearman(raw0, human), spearman(cen0, human)
        del before

    history: list = []
    t0 = time.perf_counter()
    tuned = fine_tune(
        model_name, pairs.iloc[fit_idx], None if dev_idx is None else pairs.iloc[dev_idx],
        epochs=epochs, batch_size=batch_size, seed=seed, device=device,
        show_progress=show_progress, history=history, **fine_tune_kwargs,
    )
    wall = time.perf_counter() - t0
    raw, cen = _predict_both(tuned, pairs, test_idx)
    info = getattr(tuned, "compsem_finetune", {})
    predictions = pd.DataFrame({"human": human, "sim": raw, "sim_centred": cen},
                               index=test.index)
    if "portion" in test.columns:
        predictions.insert(1, "portion", test["portion"].astype(str).to_numpy())
    out.update(
        rho_test=spearman(raw, human),
        rho_test_centred=spearman(cen, human),
        rho_by_portion=_rhos(raw, human, masks),
        rho_by_portion_centred=_rhos(cen, human, masks),
        wall_s=wall,
        n_train=len(fit_idx),
        n_dev=0 if dev_idx is None else len(dev_idx),
        n_test=len(test_idx),
        epochs=epochs,
        batch_size=batch_size,
        steps=info.get("steps"),
        best_epoch=info.get("best_epoch"),
        dev_history=history,
        seed=seed,
        predictions=predictions,
    )
    return out


# --------------------------------------------------------------------------- the result cache
FIT_CACHE_KIND = "sts-finetune"
"""Folder of the cached :func:`evaluate_split` results (:mod:`compsem.fitcache`)."""
_PREDICTION_FIELDS = ("index", "human", "sim", "sim_centred")


@functools.cache
def _code_digest() -> dict:
    """The source of everything that trains and scores, and the versions of the libraries."""
    from compsem import fitcache
    from compsem.sts import similarity

    functions = [fine_tune, _evaluate_split, _predict_both, encode_pairs, _hold_out_dev, seed_everything,
                 load_model, resolve_model_path, _to_dataset, training_steps, _masks, _rhos,
                 similarity.pair_cosines, similarity.spearman]
    return fitcache.code_identity(functions, ["numpy", "scipy", "pandas", "torch", "transformers", "tokenizers",
                                              "sentence-transformers", "datasets", "accelerate"])


@functools.cache
def _directory_digest(folder: str, stamp: tuple) -> str:
    """sha256 over the relative names and bytes of every file under ``folder`` (``stamp``, the
    files' sizes and modification times, makes an edited copy hash again)."""
    digest = hashlib.sha256()
    root = Path(folder)
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 22), b""):
                digest.update(block)
    return digest.hexdigest()


def _model_digest(model_name) -> str | None:
    """The identity of a model: the bytes of a local directory, or a hub id as given; None for
    a loaded model (not cacheable)."""
    if not isinstance(model_name, str | os.PathLike):
        return None
    path = Path(resolve_model_path(model_name))
    if not path.is_dir():
        return f"hub:{model_name}"
    files = sorted(p for p in path.rglob("*") if p.is_file())
    stamp = tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    return _directory_digest(str(path.resolve()), stamp)


def _split_key(model_name, pairs: pd.DataFrame, train_idx: np.ndarray, test_idx: np.ndarray,
               **settings) -> str | None:
    """The cache key of one :func:`evaluate_split` call, or None when it cannot be cached (a
    loaded model, settings that are not plain values, the cache turned off)."""
    from compsem import determinism, fitcache

    model = _model_digest(model_name)
    if model is None or not fitcache.enabled():
        return None
    columns = [c for c in ("sentence_a", "sentence_b", "human", "portion") if c in pairs.columns]
    document = {
        "kind": FIT_CACHE_KIND, "model": model, "model_name": str(model_name), "settings": settings,
        "pairs": {c: fitcache.array_digest(pairs[c].astype(str if c != "human" else float).to_numpy())
                  for c in columns} | {"index": fitcache.array_digest(pairs.index.astype(str).to_numpy())},
        "train": fitcache.array_digest(train_idx.astype(np.int64)),
        "test": fitcache.array_digest(test_idx.astype(np.int64)), **_code_digest(),
    }
    if settings["device"].startswith("cuda"):
        import torch

        document["gpu"] = torch.cuda.get_device_name(settings["device"])
    import torch

    # torch's own kernels change their last bits with the thread count (compsem.determinism),
    # so a count other than the chapters' is keyed apart
    if determinism.numerics() != "avx2-cnr" or torch.get_num_threads() != determinism.KERNEL_THREADS:
        document["threads"] = torch.get_num_threads()
    try:
        return fitcache.key(document)
    except TypeError:  # e.g. a callable among fine_tune_kwargs
        return None


def _store_split(digest: str, out: Mapping[str, Any]) -> None:
    from compsem import fitcache

    predictions = out["predictions"]
    arrays = {"index": predictions.index.to_numpy(), **{c: predictions[c].to_numpy(dtype=float)
                                                         for c in ("human", "sim", "sim_centred")}}
    if arrays["index"].dtype.kind not in "iuf":  # labels that are not numbers are kept as text
        arrays["index"] = predictions.index.astype(str).to_numpy(dtype=str)
    if "portion" in predictions.columns:
        arrays["portion"] = predictions["portion"].to_numpy(dtype=str)
    meta = {k: v for k, v in out.items() if k != "predictions"}
    meta["index_name"] = predictions.index.name
    fitcache.store(FIT_CACHE_KIND, digest, arrays, meta)


def _load_split(digest: str) -> dict[str, Any] | None:
    """A cached :func:`evaluate_split` result, or None when missing or unreadable."""
    from compsem import fitcache

    hit = fitcache.load(FIT_CACHE_KIND, digest, _PREDICTION_FIELDS)
    if hit is None:
        return None
    arrays, meta = hit
    index_name = meta.pop("index_name", None)
    n = len(arrays["index"])
    if any(len(arrays[f]) != n for f in _PREDICTION_FIELDS) or "rho_test" not in meta:
        return None
    predictions = pd.DataFrame({"human": arrays["human"], "sim": arrays["sim"],
                                "sim_centred": arrays["sim_centred"]},
                               index=pd.Index(arrays["index"], name=index_name))
    if "portion" in arrays:
        predictions.insert(1, "portion", arrays["portion"].astype(object))
    return {**meta, "predictions": predictions}


def cross_validate(
    model_name: str | os.PathLike,
    pairs: pd.DataFrame,
    n_folds: int = 10,
    seed: int = 0,
    folds: Sequence[int] | None = None,
    progress: Callable[[str], None] | None = None,
    **evaluate_kwargs,
) -> dict[str, Any]:
    """The random-split protocol of Fig. 7: ``n_folds``-fold cross-validation over all rows of
    ``pairs``, fine-tuning a fresh copy of ``model_name`` per fold (:func:`evaluate_split`,
    ``evaluate_kwargs`` passed on). Test folds are :func:`kfold_indices` (seeded).

    ``folds`` restricts the run to some fold numbers (a reduced, partial protocol: rho is then
    over the rows those folds cover). Returns ``rho`` and ``rho_centred`` (dicts over
    ``all``/``non``/``adv`` of the out-of-fold predictions; Fig. 7 reads ``adv``),
    ``predictions`` (out-of-fold, ``fold`` column), ``fold_wall_s``, ``fold_rho`` (per-fold raw
    rho on the whole test fold), ``wall_s``, ``device`` and ``n_folds``. Each fold's model
    centres its embeddings over all rows of ``pairs`` before its test fold is scored (the
    module's *Centring*), so ``rho_centred`` pools folds centred over the same sentences.

    Cost: 10 folds x ~570 steps; on 2 CPU cores about 35 min for MiniLM and 5-6 h for MPNet.
    """
    all_folds = kfold_indices(len(pairs), n_folds, seed)
    chosen = list(range(n_folds)) if folds is None else [int(f) for f in folds]
    evaluate_kwargs.setdefault("baseline", False)
    frames, times, rhos, device = [], [], [], None
    for k in chosen:
        test_idx = all_folds[k]
        train_idx = np.setdiff1d(np.arange(len(pairs)), test_idx)
        res = evaluate_split(model_name, pairs, train_idx, test_idx, seed=seed, **evaluate_kwargs)
        frames.append(res["predictions"].assign(fold=k))
        times.append(res["wall_s"])
        rhos.append(res["rho_test"])
        device = res["device"]
        if progress:
            progress(f"fold {k}: rho {res['rho_test']:.3f}, {res['wall_s']:.0f} s")
    pred = pd.concat(frames).sort_index()
    rows = pairs.index.get_indexer(pred.index)
    masks = _masks(pairs, rows)
    human = pred["human"].to_numpy()
    return {
        "rho": _rhos(pred["sim"].to_numpy(), human, masks),
        "rho_centred": _rhos(pred["sim_centred"].to_numpy(), human, masks),
        "predictions": pred,
        "fold_wall_s": times,
        "fold_rho": rhos,
        "wall_s": float(sum(times)),
        "device": device,
        "n_folds": n_folds,
        "folds": chosen,
    }


# --------------------------------------------------------------------------- the authors' files

#: Figure 7's SentBERT conditions -> the authors' similarity files behind them (``Data-model/
#: Sentence Similarities/STS3k_all_<name>_similarities.txt``; ``_norml`` = embeddings centred
#: and scaled per sentence set, as for Table 9). The first three are Fig. 7's bars (hard-coded in
#: the authors' plotting code as .145, .866, .410); ``STSb-trained`` (SentBERT fine-tuned on the
#: STSb training set) gives the .17 of the paper's text (§5.3), and ``traintest`` is the fine-tuning
#: on the random train/test split that the 10-fold file replaced in the figure.
PUBLISHED_FIGURE7 = {
    "no training": "sentbert_mpnet_norml",
    "random split (10-fold)": "sentbert_mpnet_ft_10fold_4_epochs_norml",
    "adversarial split": "sentbert_mpnet_ft_adversarial_4_epochs_norml",
    "STSb-trained": "sentbert_ft_STSb_trainset_4_epochs_norml",
    "random split (train/test)": "sentbert_mpnet_ft_traintest_4_epochs_norml",
}


def published_finetuned(pairs: pd.DataFrame, training_rows: Sequence[int] | None = None) -> pd.DataFrame:
    """Spearman rho of the authors' fine-tuned SentBERT similarities (Fig. 7, §5.3).

    One row per :data:`PUBLISHED_FIGURE7` condition with ``file``, ``rho_adv`` (the 1,664
    adversarial pairs: Fig. 7's measure), ``rho_non`` and ``rho_all``. With ``training_rows``
    (the random split's training rows, :func:`compsem.sts.regressors.published_training_rows`),
    ``rho_heldout_adv`` and ``rho_train_adv`` split the adversarial pairs into those outside and
    inside them (a random-split model has seen the latter in training).
    """
    from compsem.data.sts3k import load_published_similarities, portion_mask

    human = pairs["human"].to_numpy(dtype=float)
    masks = {p: portion_mask(pairs, p) for p in ("adv", "non", "all")}
    if training_rows is not None:
        seen = np.zeros(len(pairs), dtype=bool)
        seen[np.asarray(training_rows, dtype=int)] = True
        masks |= {"heldout_adv": masks["adv"] & ~seen, "train_adv": masks["adv"] & seen}
    rows = []
    for condition, name in PUBLISHED_FIGURE7.items():
        sim = load_published_similarities(name)
        if len(sim) != len(pairs):
            raise ValueError(f"{name}: {len(sim)} similarities for {len(pairs)} pairs")
        rows.append({"condition": condition, "file": name,
                     **{f"rho_{p}": spearman(sim, human, mask) for p, mask in masks.items()}})
    return pd.DataFrame(rows)


__all__ = [
    "MODEL_ALIASES", "PUBLISHED_FIGURE7", "RECIPE", "cross_validate", "encode_pairs",
    "published_finetuned",
    "evaluate_split", "fine_tune", "kfold_indices", "load_model", "predict", "fold_split",
    "resolve_device", "resolve_model_path", "seed_everything", "training_steps",
]
