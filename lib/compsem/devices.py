"""Which torch device a computation runs on: one definition for every model and trainer.

``"auto"`` is the GPU when torch sees one, else the CPU; ``"cpu"``, ``"cuda"`` and ``"cuda:<k>"``
are taken as given, and asking for a GPU that is not there is an error (never a silent CPU run:
a run on another device computes other digits).
"""

from __future__ import annotations

import re

DEVICE_PATTERN = re.compile(r"^(auto|cpu|cuda(:\d+)?|mps)$")


def resolve_device(device: str = "auto") -> str:
    """The device name for ``device``: ``"auto"`` -> ``"cuda"`` when torch sees a GPU, else
    ``"cpu"``; ``"cpu"``, ``"cuda"``, ``"cuda:<k>"``, ``"mps"`` checked and passed through."""
    device = str(device)
    if not DEVICE_PATTERN.match(device):
        raise ValueError(
            f"device must be 'auto', 'cpu', 'cuda', 'cuda:<k>' or 'mps', got {device!r}"
        )
    if device == "cpu":
        return device
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise RuntimeError(f"device {device!r} requested but torch sees no GPU; use 'auto' or 'cpu'")
    return device
