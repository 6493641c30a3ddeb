"""benchmarks/bench_cogs.py: what it times for a COGS model and for Chapter 5's
(``MODEL:chapter5``: the glossing text's output vocabulary and the glossing stage's pairs)."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
bench = runpy.run_path(str(ROOT / "benchmarks" / "bench_cogs.py"), run_name="bench_cogs")


@pytest.mark.needs_data
def test_chapter5_is_timed_with_its_own_vocabulary_and_pairs():
    from compsem.cogs.seq2seq.schedule import speed_class

    cfg, training, pairs, sources, n_src, n_tgt = bench["workload"]("transformer:chapter5", 3)
    assert speed_class(cfg) == "transformer:chapter5" and len(sources) == 3
    assert n_tgt > 20_000 and training["batch_size"] == 128 and training["accum_count"] == 4
    assert len(pairs.src) == 27_512  # the glossing stage's training pairs
    cogs_cfg, _, cogs_pairs, _, _, cogs_tgt = bench["workload"]("transformer", 3)
    assert speed_class(cogs_cfg) == "transformer" and cogs_tgt < 1_000 and len(cogs_pairs.src) == 24_155
    with pytest.raises(SystemExit, match="'transformer:chapter4'"):
        bench["workload"]("transformer:chapter4", 3)
