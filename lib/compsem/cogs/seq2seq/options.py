"""The option types and checks of the COGS commands (:mod:`compsem.cogs.seq2seq.train`,
:mod:`compsem.cogs.seq2seq.auxiliary_train`, ``scripts/decode_transferred_checkpoints.py``): one
validation for all of them, done by argparse before any work.

A value out of range is refused, never reinterpreted: ``--max-steps 0`` is not the default,
``--train-minutes -5`` is not "no limit", ``--per-case -5`` is not "all rows" (under a new
configuration hash), ``--device banana`` is not found out after training. The parser
(:class:`CommandParser`) says so on one line naming the option and the value, and exits with
status 2, as ``compsem`` does for a :class:`compsem.errors.CompsemError`.
"""

from __future__ import annotations

import argparse
import math


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose error is one line (``<prog>: error: argument --x: ...``), not the
    usage block, with exit status 2."""

    def error(self, message: str):
        message = " ".join(str(message).split())
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _number(text: str, kind: type, wanted: str):
    try:
        value = kind(text)
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(f"must be {wanted}, got {text!r}") from None
    return value


def positive_int(text: str) -> int:
    """A whole number >= 1 (updates, batch sizes, jobs)."""
    value = _number(text, int, "a whole number >= 1")
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number >= 0 (seeds; sample sizes, intervals and threads where 0 means all/none/default)."""
    value = _number(text, int, "a whole number >= 0")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return value


def non_negative_float(text: str) -> float:
    """A finite number >= 0 (minutes, where 0 means no limit)."""
    value = _number(text, float, "a finite number >= 0")
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text!r}")
    return value


def probability(text: str) -> float:
    """A dropout probability: 0 <= p < 1."""
    value = _number(text, float, "a probability in [0, 1)")
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be a probability in [0, 1), got {text!r}")
    return value


def embedding_dropout(text: str) -> float | str:
    """The LSTMs' embedding dropout: a probability, or ``text`` (the model's dropout, as the
    dissertation's text says; :data:`compsem.cogs.seq2seq.config.OPTIONAL_ARCHITECTURE`)."""
    return "text" if text == "text" else probability(text)


def device(text: str) -> str:
    """A device name :func:`compsem.devices.resolve_device` accepts: auto, cpu, cuda, cuda:<k>, mps."""
    from compsem.devices import DEVICE_PATTERN

    if not DEVICE_PATTERN.match(text):
        raise argparse.ArgumentTypeError(
            f"must be 'auto', 'cpu', 'cuda', 'cuda:<k>' or 'mps', got {text!r}")
    return text


def parse(parser: argparse.ArgumentParser, argv=None) -> argparse.Namespace:
    """``parser.parse_args(argv)`` and the checks across options: a GPU asked for
    (``--device cuda``) must be there, unless the runs go to a Dask scheduler (whose workers
    hold the GPUs)."""
    args = parser.parse_args(argv)
    name = getattr(args, "device", "auto")
    if name.startswith("cuda") and getattr(args, "scheduler", None) is None:
        import torch

        if not torch.cuda.is_available():
            parser.error(f"argument --device: {name!r} requested but torch sees no GPU here; use "
                         f"'auto' or 'cpu', or --scheduler for a cluster whose workers have one")
    return args
