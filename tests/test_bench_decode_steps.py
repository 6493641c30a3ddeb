"""benchmarks/bench_decode_steps.py: the sequential decoding steps a batching implies, the figure
behind the GPU's default decoding batch size (compsem.cogs.seq2seq.decoding.BATCH_SIZE)."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
bench = runpy.run_path(str(ROOT / "benchmarks" / "bench_decode_steps.py"), run_name="bench_decode_steps")


def test_a_batch_takes_as_many_steps_as_its_longest_output():
    # four dev sentences, sources of lengths 5, 3, 4, 1: batches of 2 (longest sources first)
    # are rows {0, 2} and {1, 3}
    predictions = pd.DataFrame({"split": "dev", "row": [0, 1, 2, 3],
                                "prediction": ["a b c", "a", "a b c d e f", "x " * 9],
                                "capped": [0, 0, 0, 1]})
    lengths = {"dev": np.array([5, 3, 4, 1])}
    # {0, 2}: 6 tokens + </s>; {1, 3}: 9 tokens, capped (no </s> written)
    assert bench["decoding_steps"](predictions, lengths, 2) == 7 + 9
    assert bench["decoding_steps"](predictions, lengths, 4) == 9  # one batch: the capped output
    assert bench["decoding_steps"](predictions, lengths, 1) == 4 + 2 + 7 + 9
    two_splits = pd.concat([predictions, predictions.assign(split="gen")])
    assert bench["decoding_steps"](two_splits, {**lengths, "gen": lengths["dev"]}, 4) == 18
