"""scripts/decode_transferred_checkpoints.py: the training device and precision of a transferred
run are the user's to state (the checkpoint does not record them), never a built-in machine."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
script = runpy.run_path(str(ROOT / "scripts" / "decode_transferred_checkpoints.py"),
                        run_name="decode_transferred_checkpoints")


def test_the_training_device_must_be_named(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["decode_transferred_checkpoints.py", "run.ckpt"])
    with pytest.raises(SystemExit) as stop:
        script["main"]()
    assert stop.value.code == 2
    assert "--trained-on" in capsys.readouterr().err


def test_the_note_says_what_was_given():
    note = script["NOTE"].format(device="cuda: Some GPU", precision="float32", extra=", alone",
                                 method="greedy")
    assert note.startswith("trained on cuda: Some GPU (float32, alone)")
    assert "decoded (greedy) on the CPU" in note
