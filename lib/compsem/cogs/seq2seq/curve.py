"""Accuracy over training updates, scored from the weights a run kept (``keep_every``).

Csordas, Irie & Schmidhuber (2021, "The devil is in the detail", Section 3) show that
generalization accuracy on COGS keeps moving long after in-distribution accuracy (and the dev
loss used for early stopping) has settled, so a stopping rule on dev loss can report a
generalization accuracy that depends on where training happened to stop. Kim (2021, Section 4.5.1)
early-stops on dev loss; this module traces exact-match accuracy (Section 4.4) at every update
whose weights :func:`compsem.cogs.seq2seq.trainer.train` kept, on dev, test and a fixed sample of
each gen case, so the chapter can show how far the number it compares moves with training length.

- :func:`score_updates` decodes given evaluation sets with each kept model (the run's own decoding
  settings) and returns one row per update and quantity (a split, or a gen case);
- :func:`cogs_sets` builds those sets from COGS (samples drawn as
  :func:`compsem.cogs.seq2seq.experiment.evaluation_rows`: the same rows for every run);
- :func:`with_aggregates` adds the gen, lexical and structural means per update (Figure 4-1);
- :func:`save_curve` / :func:`load_curve`: ``curve.tsv`` in a run's result folder.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import pandas as pd

from compsem.cogs import evaluation
from compsem.cogs.seq2seq import decoding, results, trainer
from compsem.cogs.seq2seq.config import build_model

CURVE_FILE = "curve.tsv"
COLUMNS = ["step", "quantity", "accuracy"]


def score_updates(
    config: dict,
    checkpoint_dir: Path,
    sets: dict[str, tuple[list, list, list | None]],
    src_vocab_size: int,
    tgt_vocab_size: int,
    device="cpu",
    batch_size: int = 128,
    steps=None,
) -> pd.DataFrame:
    """Exact match at every kept update (or those in ``steps``): ``sets`` maps a split to
    (source ids, gold target ids, gen cases or None). One row per update and quantity: the split's
    accuracy, and for a split with cases, each case's."""
    d = config["decoding"]
    rows = []
    for step, folder in trainer.kept_updates(checkpoint_dir):
        if steps is not None and step not in steps:
            continue
        model = build_model(config, src_vocab_size, tgt_vocab_size)
        model.load_state_dict(trainer.load_sharded(folder, device))
        model.to(device).eval()
        for split, (sources, golds, cases) in sets.items():
            caps = decoding.length_caps([len(s) for s in sources], d["max_len"], d["len_ratio"])
            hyps = decoding.translate(
                model, sources, caps, d["method"], d["beam"], batch_size=batch_size, device=device
            )
            correct = pd.Series([h.tokens == list(g) for h, g in zip(hyps, golds, strict=True)])
            rows.append({"step": step, "quantity": split, "accuracy": float(correct.mean())})
            if cases is not None:
                for case, value in correct.groupby(pd.Series(list(cases))).mean().items():
                    rows.append({"step": step, "quantity": case, "accuracy": float(value)})
    return pd.DataFrame(rows, columns=COLUMNS)


def cogs_sets(per_case: int = 100, per_split: int = 500, splits=("dev", "test", "gen")) -> dict:
    """COGS evaluation sets for :func:`score_updates`: ``per_split`` dev/test examples and
    ``per_case`` examples of each gen case (0: all), encoded with the vocabularies of all splits."""
    from compsem.cogs.seq2seq.experiment import evaluation_rows
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies
    from compsem.data import cogs

    src_vocab, tgt_vocab = cogs_vocabularies()
    out = {}
    for split in splits:
        frame = cogs.load(split)
        rows = evaluation_rows(split, frame, {"per_case": per_case, "per_split": per_split})
        part = frame.iloc[rows]
        out[split] = (
            [src_vocab.encode(s) for s in part.source],
            [tgt_vocab.encode(t) for t in part.target],
            part.case.tolist() if split == "gen" else None,
        )
    return out


def with_aggregates(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` plus, per update, ``gen``, ``lexical`` and ``structural``: the means over the gen
    cases present (:func:`compsem.cogs.evaluation.aggregate`, Figure 4-1)."""
    extra = []
    for step, part in frame.groupby("step"):
        by = part.set_index("quantity")["accuracy"]
        cases = by.reindex([c for c in evaluation.CASE_ORDER if c in by.index])
        if len(cases):
            for name, value in evaluation.aggregate(cases).items():
                extra.append({"step": step, "quantity": name, "accuracy": value})
    kept = frame[~frame.quantity.isin(["gen", "lexical", "structural"])]
    return pd.concat([kept, pd.DataFrame(extra, columns=COLUMNS)], ignore_index=True).sort_values(
        ["step", "quantity"], ignore_index=True
    )


def save_curve(frame: pd.DataFrame, folder: Path, per_case: int = 0, per_split: int = 0) -> Path:
    """Write ``curve.tsv`` (step, quantity, accuracy) into a run's result folder, after a comment
    line with the sample sizes it was scored on (``# per_case=100 per_split=500``), atomically
    (:func:`compsem.cogs.seq2seq.results.write_atomic`): a save cut short leaves no truncated
    curve under the final name."""
    path = Path(folder) / CURVE_FILE
    body = frame[COLUMNS].sort_values(["step", "quantity"]).to_csv(
        sep="\t", index=False, float_format="%.6g"
    )
    text = f"# per_case={int(per_case)} per_split={int(per_split)}\n" + body
    results.write_atomic(path, text.encode())
    return path


def load_curve(folder: Path) -> pd.DataFrame | None:
    """The curve of a run's result folder, or None when it has none; its sample sizes in
    ``frame.attrs["sample"]`` (``{"per_case": ..., "per_split": ...}``). A ``curve.tsv`` that is
    not a curve as :func:`save_curve` writes it (not a table, :func:`curve_problem`, or its last
    line cut short) counts as none, with a warning naming the file and why, so that the caller
    traces it again (and overwrites it) rather than reading it as good."""
    path = Path(folder) / CURVE_FILE
    if not path.exists():
        return None
    try:
        text = path.read_text()
        frame = pd.read_csv(io.StringIO(text), sep="\t", comment="#")
        first = text.split("\n", 1)[0]
        if first.startswith("#"):
            frame.attrs["sample"] = {
                k: int(v) for k, v in (item.split("=") for item in first[1:].split())
            }
    except ValueError as error:  # undecodable bytes, a bad table or sample line (pandas' too)
        problem = f"it cannot be read as a curve ({type(error).__name__}: {error})"
    else:
        problem = curve_problem(frame)
        if not problem and not text.endswith("\n"):
            problem = "its last line has no line end (the file was cut short)"
    if problem:
        warnings.warn(f"{path}: {problem}; the curve counts as missing and is traced again from "
                      f"the kept weights where they exist", stacklevel=2)
        return None
    return frame


def curve_problem(frame: pd.DataFrame) -> str | None:
    """Why ``frame`` is not a curve as :func:`save_curve` writes it (None when it is): columns
    other than :data:`COLUMNS`, no rows, a step that is not a whole number >= 0, steps out of
    order, an empty quantity, an accuracy that is not a number in [0, 1], a (step, quantity)
    twice, or an update without every quantity of the others (a file cut short)."""
    if list(frame.columns) != COLUMNS:
        return f"its columns are {list(frame.columns)}, not {COLUMNS}"
    if not len(frame):
        return "it has no rows"
    if not pd.api.types.is_integer_dtype(frame.step) or (frame.step < 0).any():
        return "its step column is not whole numbers >= 0"
    if not frame.step.is_monotonic_increasing:
        return "its steps are not in increasing order"
    if frame.quantity.isna().any() or (frame.quantity.astype(str).str.strip() == "").any():
        return "a quantity is empty"
    accuracy = pd.to_numeric(frame.accuracy, errors="coerce")
    if accuracy.isna().any() or not accuracy.between(0, 1).all():
        return "an accuracy is not a number in [0, 1]"
    if frame.duplicated(["step", "quantity"]).any():
        return "a (step, quantity) occurs twice"
    if frame.groupby("step").quantity.apply(frozenset).nunique() > 1:
        return "its updates do not all have the same quantities (the file was cut short?)"
    return None


def trace(
    config: dict,
    checkpoint_dir: Path,
    per_case: int = 100,
    per_split: int = 500,
    device="cpu",
    batch_size: int = 128,
) -> pd.DataFrame:
    """:func:`score_updates` on COGS (:func:`cogs_sets`) with :func:`with_aggregates`: the curve
    of a run whose weights were kept every so many updates."""
    from compsem.cogs.seq2seq.vocab import cogs_vocabularies

    src_vocab, tgt_vocab = cogs_vocabularies()
    frame = score_updates(
        config,
        checkpoint_dir,
        cogs_sets(per_case, per_split),
        len(src_vocab),
        len(tgt_vocab),
        device=device,
        batch_size=batch_size,
    )
    return with_aggregates(frame)


def sensitivity(curve: pd.DataFrame, last: int = 3) -> dict[str, float]:
    """How much gen accuracy moves at the end of training, beside dev accuracy (Csordas et al.
    2021: a stopping rule on in-distribution data leaves the generalization number to where
    training stopped): over the ``last`` kept updates, the first and the last of them, the range
    (max - min) of dev and of gen accuracy, gen at the first and the last of them, the lowest
    and the highest gen among them with their updates (``window_gen_min``, ``window_gen_max``
    and ``_step``), and the highest gen over all kept updates with its update."""
    wide = curve.pivot_table(index="step", columns="quantity", values="accuracy").sort_index()
    if "dev" not in wide or "gen" not in wide or not len(wide):
        return {}
    window = wide.tail(last)
    return {
        "updates": float(len(window)),
        "first_step": float(window.index.min()),
        "last_step": float(window.index.max()),
        "dev_range": float(window["dev"].max() - window["dev"].min()),
        "gen_range": float(window["gen"].max() - window["gen"].min()),
        "gen_first": float(window["gen"].iloc[0]),
        "gen_last": float(window["gen"].iloc[-1]),
        "window_gen_min": float(window["gen"].min()),
        "window_gen_min_step": float(window["gen"].idxmin()),
        "window_gen_max": float(window["gen"].max()),
        "window_gen_max_step": float(window["gen"].idxmax()),
        "gen_max": float(wide["gen"].max()),
        "gen_max_step": float(wide["gen"].idxmax()),
    }
