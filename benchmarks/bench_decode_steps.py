"""How many sequential decoding steps the committed GPU decodings needed, and would need at other
batch sizes: the figures behind :data:`compsem.cogs.seq2seq.decoding.BATCH_SIZE`. Prints its
figures (no assertions); reads only committed result files, no GPU needed.

    .venv/bin/python benchmarks/bench_decode_steps.py
    .venv/bin/python benchmarks/bench_decode_steps.py --batch-sizes 128 512 --model transformer

:func:`compsem.cogs.seq2seq.decoding.translate` decodes sentences in batches of similar source
length, and a batch runs one step per output position until its last example is done, so a
whole decoding takes the sum over batches of the batch's longest output (plus its ``</s>``)
steps. That count is read here from each run's committed predictions, with the batches that
``translate`` forms at each batch size. It is a lower bound for beam search (an example's beams
can run on after its best output has ended, until its top-ranked continuation ends).

For each committed decoding of the whole sets (dev, test, gen: 27,000 sentences) on a GPU the
table gives the batch size it used (128 where the metrics predate the record), its measured
seconds, the milliseconds per step this implies, and the steps at each batch size asked for.
On a GPU a step of a 2-layer model costs kernel launches rather than arithmetic (512 sentences x
5 beams x about 4M decoder weights is some 10 GFLOP, microseconds of an H100), so the steps,
not the sentences, set the decoding's time; outputs that run to the length cap (1,000 tokens)
hold their batch for a thousand steps.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd


def decoding_steps(predictions: pd.DataFrame, source_lengths: dict[str, np.ndarray], batch_size: int) -> int:
    """Sequential steps of decoding ``predictions``' rows in :func:`translate`'s batches of
    ``batch_size`` (a lower bound for beam search; module docstring)."""
    from compsem.cogs.seq2seq import batching

    total = 0
    for split, rows in predictions.groupby("split", sort=True):
        rows = rows.sort_values("row")
        steps = (rows.prediction.fillna("").astype(str).str.split().str.len().to_numpy()
                 + 1 - rows.capped.to_numpy())  # + </s>, which a capped output never wrote
        lengths = source_lengths[split][rows.row.to_numpy()]
        total += sum(int(steps[idx].max()) for idx in batching.sorted_batches(lengths, batch_size))
    return total


def main(argv=None) -> None:
    from compsem.cogs.seq2seq import results, two_stage
    from compsem.cogs.seq2seq.schedule import committed_runs
    from compsem.data import cogs

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch-sizes", type=int, nargs="+", default=[128, 256, 512, 1024])
    p.add_argument("--model", default=None, help="only this model (e.g. transformer)")
    args = p.parse_args(argv)
    source_lengths = {s: cogs.load(s).source.str.split().str.len().to_numpy() for s in ("dev", "test", "gen")}
    header = (f"{'run':13}{'model':19}{'method':8}{'batch':>6}{'seconds':>9}{'ms/step':>9}"
              + "".join(f"{f'steps@{b}':>12}" for b in args.batch_sizes))
    print(header)
    ratios = {b: [] for b in args.batch_sizes}
    for config, metrics in committed_runs():
        decoding = config["decoding"]
        if (not str(metrics.get("device", "")).startswith("cuda") or decoding.get("per_case")
                or decoding.get("per_split") or (args.model and config["model"] != args.model)):
            continue
        root = two_stage.RESULTS_DIR if "auxiliary" in config else results.RESULTS_DIR
        predictions = results.load_result(config, root).predictions
        used = int(metrics.get("decode_batch_size", 128))
        steps = {b: decoding_steps(predictions, source_lengths, b) for b in sorted({*args.batch_sizes, used})}
        for b in args.batch_sizes:
            ratios[b].append(steps[b] / steps[used])
        print(f"{metrics['hash']:13}{config['model']:19}{decoding['method']:8}{used:>6}"
              f"{metrics['decode_seconds']:>9.1f}{1000 * metrics['decode_seconds'] / steps[used]:>9.1f}"
              + "".join(f"{steps[b]:>12,}" for b in args.batch_sizes))
    if any(ratios.values()):
        print("steps against the batch size used, median over the runs: "
              + ", ".join(f"{b}: {np.median(r):.2f}" for b, r in ratios.items()))


if __name__ == "__main__":
    main()
