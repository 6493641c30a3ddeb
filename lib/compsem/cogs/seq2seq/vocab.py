"""Whitespace tokens <-> integer ids (Kim 2021, Section 4.5.1: "The input and output were both
tokenized at whitespace boundaries as marked in the dataset").

The released OpenNMT scripts build the source and the target vocabulary from *all* splits, the
generalization set included (``source_vocab.txt``/``target_vocab.txt`` passed to
``preprocess.py``), so a token that only occurs in gen (a deep Skolem index such as ``47``) has an
embedding and an output row, untrained. :func:`cogs_vocabularies` does the same. The special
tokens follow OpenNMT-py: the source side has padding and unknown, the target side also the
begin and end of sequence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<s>", "</s>"
SOURCE_SPECIALS = (PAD, UNK)
TARGET_SPECIALS = (PAD, UNK, BOS, EOS)
PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3


class Vocab:
    """An ordered token list; ``specials`` first (so ``<pad>`` is id 0), then the rest sorted."""

    def __init__(self, tokens: Iterable[str], specials: Sequence[str] = TARGET_SPECIALS):
        rest = sorted(set(tokens) - set(specials))
        self.itos: list[str] = list(specials) + rest
        self.stoi: dict[str, int] = {t: i for i, t in enumerate(self.itos)}
        self.specials = tuple(specials)

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, text: str, add_eos: bool = False) -> list[int]:
        """Ids of the whitespace tokens of ``text`` (unknown tokens -> ``<unk>``), optionally
        followed by ``</s>``."""
        ids = [self.stoi.get(t, UNK_ID) for t in text.split()]
        return ids + [EOS_ID] if add_eos else ids

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids``, stopping at ``</s>`` and skipping padding and ``<s>``."""
        out = []
        for i in ids:
            i = int(i)
            if i == EOS_ID and EOS in self.specials:
                break
            if i in (PAD_ID, BOS_ID) and self.itos[i] in (PAD, BOS):
                continue
            out.append(self.itos[i])
        return " ".join(out)


def build_vocabularies(sources: Iterable[str], targets: Iterable[str]) -> tuple[Vocab, Vocab]:
    """Source and target vocabularies of whitespace tokens."""
    src, tgt = set(), set()
    for text in sources:
        src.update(text.split())
    for text in targets:
        tgt.update(text.split())
    return Vocab(src, SOURCE_SPECIALS), Vocab(tgt, TARGET_SPECIALS)


def cogs_vocabularies() -> tuple[Vocab, Vocab]:
    """The vocabularies of every COGS split (train, dev, test, gen and the 100-exposure rows), as
    the released scripts built them: 747 source and 727 target types with the specials."""
    from compsem.data import cogs

    frames = [cogs.load(s) for s in ("train", "dev", "test", "gen", "exposure-100")]
    return build_vocabularies(
        (s for f in frames for s in f.source), (t for f in frames for t in f.target)
    )
