"""Length-bucketed, padded batches of COGS sentence pairs.

OpenNMT-py, which the released scripts ran, fills batches of ``-batch_size 128`` sentences from
length-sorted pools; batching sentences of similar length is also what makes training affordable
(the padded length, not the mean length, sets the cost).
:func:`epoch_batches` sorts the pairs by target then source length with random tie-breaks, cuts the
order into batches and shuffles the batches; the permutation depends only on ``(seed, epoch)``, so
a resumed run sees exactly the batches an uninterrupted one would have seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from compsem.cogs.seq2seq.vocab import BOS_ID, EOS_ID, PAD_ID, Vocab


@dataclass
class Pairs:
    """Encoded sentence pairs: ``src[i]`` source ids, ``tgt[i]`` target ids (no BOS/EOS)."""

    src: list[list[int]]
    tgt: list[list[int]]

    def __len__(self) -> int:
        return len(self.src)

    @property
    def src_lengths(self) -> np.ndarray:
        return np.array([len(s) for s in self.src])

    @property
    def tgt_lengths(self) -> np.ndarray:
        return np.array([len(t) for t in self.tgt])


def encode_pairs(sources, targets, src_vocab: Vocab, tgt_vocab: Vocab) -> Pairs:
    """Encode parallel lists of whitespace-tokenised strings."""
    sources, targets = list(sources), list(targets)
    if len(sources) != len(targets):
        raise ValueError(f"{len(sources)} sources but {len(targets)} targets")
    return Pairs([src_vocab.encode(s) for s in sources], [tgt_vocab.encode(t) for t in targets])


@dataclass
class Batch:
    """A padded batch. ``src`` [B, S], ``src_lengths`` [B]; ``tgt_in`` [B, T] is ``<s>`` + target
    (the decoder input under teacher forcing), ``tgt_out`` [B, T] is target + ``</s>``."""

    src: torch.Tensor
    src_lengths: torch.Tensor
    tgt_in: torch.Tensor | None = None
    tgt_out: torch.Tensor | None = None

    def to(self, device) -> Batch:
        def move(t):
            return None if t is None else t.to(device, non_blocking=True)

        return Batch(move(self.src), move(self.src_lengths), move(self.tgt_in), move(self.tgt_out))


def pad(sequences: list[list[int]], value: int = PAD_ID) -> torch.Tensor:
    """Right-pad lists of ids into a [B, max length] long tensor."""
    lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
    width = max(1, int(lengths.max(initial=0)))
    out = np.full((len(sequences), width), value, dtype=np.int64)
    filled = np.arange(width) < lengths[:, None]
    if filled.any():
        out[filled] = np.fromiter(
            (i for s in sequences for i in s), dtype=np.int64, count=int(lengths.sum())
        )
    return torch.from_numpy(out)


def collate(pairs: Pairs, indices, with_target: bool = True) -> Batch:
    """The batch of the pairs at ``indices``."""
    src = [pairs.src[i] for i in indices]
    batch = Batch(pad(src), torch.tensor([len(s) for s in src], dtype=torch.long))
    if with_target:
        tgt = [pairs.tgt[i] for i in indices]
        batch.tgt_in = pad([[BOS_ID] + t for t in tgt])
        batch.tgt_out = pad([t + [EOS_ID] for t in tgt])
    return batch


def epoch_batches(pairs: Pairs, batch_size: int, seed: int, epoch: int) -> list[np.ndarray]:
    """Index batches of one epoch: length-sorted buckets of ``batch_size`` pairs, in a random order
    determined by ``(seed, epoch)``."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    rng = np.random.default_rng([seed, epoch])
    order = np.lexsort((rng.random(len(pairs)), pairs.src_lengths, pairs.tgt_lengths))
    batches = [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
    return [batches[i] for i in rng.permutation(len(batches))]


def sorted_batches(lengths: np.ndarray, batch_size: int) -> list[np.ndarray]:
    """Index batches for decoding: sorted by ``lengths`` (longest first, stable), no shuffling."""
    order = np.argsort(-np.asarray(lengths), kind="stable")
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]
