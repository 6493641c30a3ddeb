"""Decode, on this CPU, Transformer runs trained to early stopping on the device H100 whose best
weights came back as bfloat16 copies (the device returns files of at most 16 MB); write result files.

Usage: python scripts/decode_transferred_checkpoints.py RUN.ckpt ... (each a torch file with
``best_bf16``, ``state``, ``training_hash`` and ``config``, as written on the device)."""

import json
import sys

import torch

from compsem import paths
from compsem.cogs.seq2seq import experiment, results
from compsem.cogs.seq2seq.config import build_model, config_hash, training_hash
from compsem.cogs.seq2seq.vocab import cogs_vocabularies

src, tgt = cogs_vocabularies()
for name in sys.argv[1:]:
    saved = torch.load(name, map_location="cpu", weights_only=False)
    cfg = json.loads(saved["config"])
    assert training_hash(cfg) == saved["training_hash"]
    cfg["decoding"]["method"] = "greedy"  # beam 5 on 27k sentences takes over an hour per run here
    ckdir = paths.cache_dir("cogs-models", "checkpoints") / training_hash(cfg)
    ckdir.mkdir(parents=True, exist_ok=True)
    best = {k: v.float() if v.is_floating_point() else v for k, v in saved["best_bf16"].items()}
    torch.save(best, ckdir / "best.pt")
    model = build_model(cfg, len(src), len(tgt))
    model.load_state_dict(best)
    opt = torch.optim.Adam(model.parameters())
    torch.save(
        {
            "model": best,
            "optimizer": opt.state_dict(),
            "state": saved["state"],
            "rng": {"torch": torch.get_rng_state()},
            "training_hash": training_hash(cfg),
        },
        ckdir / "last.pt",
    )
    print(
        name,
        cfg["model"],
        cfg["seed"],
        saved["state"]["step"],
        saved["state"]["stop_reason"],
        flush=True,
    )
    res = experiment.run(
        cfg, device="cpu", amp=False, progress=True, decode_batch_size=256, log=print
    )
    folder = results.result_dir(cfg)
    m = json.loads((folder / "metrics.json").read_text())
    m["decoded_on"] = m["device"]
    m["device"] = "cuda: NVIDIA H100 80GB HBM3"
    m["amp"] = True
    m["note"] = (
        "trained on the H100 (bfloat16 autocast, three runs sharing the GPU, before the "
        "cuDNN attention fix); its best weights came back as a bfloat16 copy (the device's "
        "16 MB file limit) and were decoded greedily on the CPU in float32"
    )
    (folder / "metrics.json").write_text(json.dumps(m, indent=1, sort_keys=True))
    print(config_hash(cfg), m["accuracy"], flush=True)
