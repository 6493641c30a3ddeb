"""Batched greedy and beam-search decoding with a length cap.

The released scripts decode with OpenNMT-py 1.1.1's ``translate.py`` and its default beam of 5
(they pass no ``-beam_size``). :func:`beam_search` follows that beam search (re-implemented): at each step
the ``k`` best continuations over all live hypotheses are kept; a continuation that ends in
``</s>`` becomes a finished hypothesis and stops growing; an example is done when its best-ranked
continuation ends (or at the length cap, where every live hypothesis is closed), and its output is
the finished hypothesis with the highest total log-probability (no length penalty). With ``k = 1``
this is exactly :func:`greedy`.

A model provides ``encode(src, src_lengths) -> state`` and ``step(tokens, state, position) ->
(log-probabilities [N, V], state)``, with every tensor of ``state`` batch-first, so hypotheses are
re-ordered and finished examples dropped with ``index_select`` (:func:`reorder`, or the model's
own ``reorder_state`` with the same signature and the same values, where it has one). A model may name
the entries of its state that depend on the source alone (``source_state``: the encoder's memory,
the source mask): the beams of an example hold the same rows of those, so beam search leaves them
in place when it re-orders hypotheses within their examples and selects them only when examples
are dropped (the same values, without copying them at every step). The hypotheses that end at a
step are read back to the host together, a few reads a step whatever their number (each read waits
for a GPU to finish what it was given). Examples are decoded in batches of similar source length.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import torch

from compsem.cogs.seq2seq import batching
from compsem.cogs.seq2seq.trainer import autocast
from compsem.cogs.seq2seq.vocab import BOS_ID, EOS_ID

BATCH_SIZE = {"cpu": 128, "cuda": 512}
"""Sentences decoded at a time by default, by device type (:func:`batch_size_for`). A batch runs
one step per output position until its last example is done, so a whole decoding takes the sum
over batches of the longest output. On a GPU a step costs kernel launches rather than arithmetic,
so the steps set the time: the committed GPU decodings of dev, test and gen needed 13,000-45,000
steps in batches of 128 and would need 0.29 of that (median) in batches of 512
(``benchmarks/bench_decode_steps.py``, read from their predictions). On a CPU a step's arithmetic
grows with the batch, and 128 is what the committed CPU decodings used."""


def batch_size_for(device) -> int:
    """:data:`BATCH_SIZE` of ``device``'s type (128 for a type not listed, e.g. ``mps``)."""
    return BATCH_SIZE.get(torch.device(device).type, BATCH_SIZE["cpu"])


@dataclasses.dataclass
class Hypothesis:
    """An output: target ids without ``</s>``, whether it was cut at the length cap, and its
    total log-probability."""

    tokens: list[int]
    capped: bool
    score: float


def reorder(state: dict, index: torch.Tensor, keep: tuple[str, ...] = ()) -> dict:
    """Select rows ``index`` of every tensor in a decoding state (dimension 0) but those named in
    ``keep``; other entries (such as a step counter) are kept."""
    return {k: v.index_select(0, index) if torch.is_tensor(v) and k not in keep else v
            for k, v in state.items()}


def length_caps(src_lengths, max_len: int, len_ratio: float = 0) -> np.ndarray:
    """Per-example output caps: ``max_len``, or ``min(max_len, ceil(len_ratio * source length))``
    when ``len_ratio`` > 0."""
    src_lengths = np.asarray(src_lengths)
    caps = np.full(len(src_lengths), int(max_len))
    if len_ratio > 0:
        caps = np.minimum(caps, np.ceil(len_ratio * src_lengths).astype(int))
    return np.maximum(caps, 1)


@torch.no_grad()
def greedy(model, src: torch.Tensor, src_lengths: torch.Tensor, caps) -> list[Hypothesis]:
    """The most probable next token at every step, until ``</s>`` or the cap."""
    device = src.device
    caps = torch.as_tensor(np.asarray(caps), device=device)
    state = model.encode(src, src_lengths)
    select = getattr(model, "reorder_state", reorder)
    rows = torch.arange(src.shape[0], device=device)  # original example of each active row
    tokens = torch.full_like(rows, BOS_ID)
    history = torch.empty(len(rows), 0, dtype=torch.long, device=device)
    scores = torch.zeros(len(rows), device=device)
    out: list[Hypothesis | None] = [None] * src.shape[0]
    for t in range(int(caps.max())):
        logprobs, state = model.step(tokens, state, t)
        best, tokens = logprobs.max(dim=1)
        scores = scores + best
        history = torch.cat([history, tokens[:, None]], dim=1)
        ended = tokens == EOS_ID
        finish = ended | (t + 1 >= caps[rows])
        if bool(finish.any()):
            done = finish.nonzero().squeeze(1)  # read back at once: one transfer each, not one per row
            for row, eos, score, seq in zip(rows[done].tolist(), ended[done].tolist(),
                                            scores[done].tolist(), history[done].tolist(), strict=True):
                out[row] = Hypothesis(seq[:t] if eos else seq, not eos, score)
            keep = (~finish).nonzero().squeeze(1)
            if keep.numel() == 0:
                break
            rows, tokens, history, scores = rows[keep], tokens[keep], history[keep], scores[keep]
            state = select(state, keep)
    return out


@torch.no_grad()
def beam_search(
    model, src: torch.Tensor, src_lengths: torch.Tensor, caps, beam: int = 5
) -> list[Hypothesis]:
    """OpenNMT-py-style beam search (module docstring) of width ``beam``."""
    device, k = src.device, beam
    caps = torch.as_tensor(np.asarray(caps), device=device)
    n = src.shape[0]
    state = reorder(
        model.encode(src, src_lengths), torch.arange(n, device=device).repeat_interleave(k)
    )
    rows = torch.arange(n, device=device)
    scores = torch.full((n, k), float("-inf"), device=device)
    scores[:, 0] = 0.0  # the first step expands one hypothesis per example
    tokens = torch.full((n * k,), BOS_ID, dtype=torch.long, device=device)
    history = torch.empty(n * k, 0, dtype=torch.long, device=device)
    best: list[Hypothesis | None] = [None] * n
    source = tuple(getattr(model, "source_state", ()))  # the same rows for an example's beams
    select = getattr(model, "reorder_state", reorder)
    for t in range(int(caps.max())):
        logprobs, state = model.step(tokens, state, t)
        active, vocab = rows.numel(), logprobs.shape[1]
        candidates = (scores.unsqueeze(2) + logprobs.view(active, k, vocab)).view(active, k * vocab)
        top, index = candidates.topk(k, dim=1)
        origin, tok = index // vocab, index % vocab
        flat = (torch.arange(active, device=device)[:, None] * k + origin).view(-1)
        history = torch.cat([history[flat], tok.view(-1, 1)], dim=1)
        state = select(state, flat, keep=source)  # ``flat`` stays within each example
        live = torch.isfinite(top)
        ended = (tok == EOS_ID) & live
        at_cap = (t + 1 >= caps[rows])[:, None] & live
        closing = ended | at_cap
        closed = torch.where(closing, top, torch.full_like(top, float("-inf")))
        closed_score, closed_j = closed.max(dim=1)
        closing_rows = torch.isfinite(closed_score).nonzero().squeeze(1)
        if closing_rows.numel():  # read back at once: one transfer each, not one per hypothesis
            j = closed_j[closing_rows]
            for row, score, eos, seq in zip(rows[closing_rows].tolist(), closed_score[closing_rows].tolist(),
                                            ended[closing_rows, j].tolist(),
                                            history[closing_rows * k + j].tolist(), strict=True):
                if best[row] is None or score > best[row].score:
                    best[row] = Hypothesis(seq[:t] if eos else seq, not eos, score)
        done = ended[:, 0] | at_cap[:, 0]
        scores = torch.where(closing, torch.full_like(top, float("-inf")), top)
        tokens = tok.view(-1)
        if bool(done.any()):
            keep = (~done).nonzero().squeeze(1)
            if keep.numel() == 0:
                break
            flat_keep = (keep[:, None] * k + torch.arange(k, device=device)).view(-1)
            rows, scores = rows[keep], scores[keep]
            tokens, history = tokens[flat_keep], history[flat_keep]
            state = select(state, flat_keep)
    return best


def translate(
    model,
    sources: list[list[int]],
    caps,
    method: str = "greedy",
    beam: int = 5,
    batch_size: int | None = None,
    device="cpu",
    amp: bool = False,
    progress: bool = False,
    halved: list | None = None,
) -> list[Hypothesis]:
    """Decode encoded ``sources`` in batches of similar length (``batch_size`` sentences; default
    :func:`batch_size_for` the device); outputs in input order. A batch that runs out of GPU
    memory (its outputs running to the length cap hold every beam's buffers) is decoded as two
    halves, and so on; its size is appended to ``halved`` when given, and printed."""
    if method not in ("greedy", "beam"):
        raise ValueError(f"method must be 'greedy' or 'beam', got {method!r}")
    from tqdm import tqdm

    device = torch.device(device)
    batch_size = batch_size or batch_size_for(device)
    model.eval()
    caps = np.asarray(caps)
    pairs = batching.Pairs(sources, [[] for _ in sources])
    out: list[Hypothesis | None] = [None] * len(sources)
    batches = batching.sorted_batches(pairs.src_lengths, batch_size)

    def decode(idx) -> list[Hypothesis]:  # in halves on running out of GPU memory
        try:
            batch = batching.collate(pairs, idx, with_target=False).to(device)
            with autocast(device, amp):
                if method == "greedy":
                    return greedy(model, batch.src, batch.src_lengths, caps[idx])
                return beam_search(model, batch.src, batch.src_lengths, caps[idx], beam)
        except torch.OutOfMemoryError:
            if len(idx) == 1:
                raise
        batch = None  # the failed batch's tensors are freed before the halves run
        torch.cuda.empty_cache()
        print(f"[decoding] a batch of {len(idx)} sentences ran out of GPU memory; decoding it in halves",
              flush=True)
        if halved is not None:
            halved.append(len(idx))
        return decode(idx[: len(idx) // 2]) + decode(idx[len(idx) // 2 :])

    for idx in tqdm(batches, disable=not progress, desc=f"decoding ({method})", unit="batch"):
        for i, h in zip(idx, decode(idx), strict=True):
            out[int(i)] = h
    return out
