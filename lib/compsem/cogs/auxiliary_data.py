"""Auxiliary-task data of Kim (2021, Chapter 5, Experiment 1; Section 5.2.2): glossing and
T5-style denoising on English text.

The dissertation trains on the text of CCGBank (Hockenmaier & Steedman 2007): its sentences for
glossing and supertagging, and its text in 512-token chunks for language modelling (Section
5.2.2; the counts are the targets ``caux_aux_sentences`` and ``caux_aux_denoise_chunks``). CCGBank is
licensed (LDC2005T13) and not available here; the substitute text is the English sentences of
the sentence-similarity sets the data registry already has -- STS Benchmark (Cer et al. 2017),
SICK (Marelli et al. 2014) and STR-2022 (Abdalla et al. 2023) -- de-duplicated, in a fixed order:
captions, news, forum posts and reviews instead of the Wall Street Journal. CCG supertagging
needs CCGBank's annotation and is not built.

- :func:`english_sentences` -- the substitute corpus, tokenised COGS-style (words and punctuation
  separated by spaces), optionally subsampled (seeded) and with a capped vocabulary;
- :func:`gloss_pairs` -- glossing, a "word-by-word translation task" (Section 5.2.1.2): every
  token ``w`` becomes its gloss token ``w'`` (``John buys shares`` -> ``John' buys' shares'``,
  example (8) of Section 5.2.2). The primes mark the output side: the models have "separate
  input and output vocabulary spaces" (footnote 4, Section 5.2.1.2; here OpenNMT-py's source
  and target vocabularies, :mod:`compsem.cogs.seq2seq.vocab`), so ``w'`` is by default the
  *target* token with the same string as ``w`` (``tokens="word"``): the gloss of *John* is the
  output token ``John`` that COGS's logical forms also use. That is what the dissertation's
  parameter counts with the auxiliary vocabulary fit (Section 5.2.4; the targets
  ``caux_params_*``): a distinct primed token per word (``tokens="primed"``, ``John'``) adds a
  second output row per word, far above those counts with our substitute text's words (the
  chapter shows both counts);
- :func:`span_corruption` / :func:`denoise_pairs` -- language modeling as T5's denoising
  objective (Raffel et al. 2020; Section 5.2.1.3): 15% of the tokens, in spans of mean length
  3, are replaced in the input by sentinels ``<x_0>``, ``<x_1>``, ... and the output lists each
  sentinel followed by the tokens it replaced (``John <x_0> shares`` -> ``<x_0> buys``, example
  (9) of Section 5.2.2 with our sentinel's name); the text is first packed into
  chunks of at most ``chunk_tokens`` tokens (512 in the dissertation's T5 pipeline).

**The lexical gaps.** The dissertation protects COGS's lexical gaps by renaming the gap items
*in COGS* (:mod:`compsem.cogs.masking`): the ``[w_n]`` tokens never occur in the auxiliary text,
so no auxiliary sentence can show, say, the held-out noun as an object. The same holds here:
:func:`english_sentences` refuses text containing a ``[w_n]`` token, and an auxiliary sentence
that happens to use *ship* or *Charlie* uses an ordinary word, not COGS's ``[w_20]`` or
``[w_5]``. ``gap_sentences="drop"`` removes such sentences altogether (a stricter variant; the
dissertation kept CCGBank's text whole).

Every function is deterministic given its ``seed``.
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd

from compsem.cogs.masking import GAP_TOKENS, MASK_TOKENS

TOKEN = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]")
"""A word (letters, digits, internal apostrophes or hyphens) or one punctuation character."""

UNK_WORD = "<unk>"
SENTINEL = "<x_{}>"
GLOSS_SUFFIX = "'"
GLOSS_TOKENS = ("word", "primed")
"""How a gloss is written (:func:`gloss`): the word itself in the target vocabulary, or the
word primed (module docstring)."""
SOURCES = ("stsb", "sick", "str-2022")


def tokenize(text: str) -> list[str]:
    """COGS-style tokens of an English sentence: words and punctuation marks, case kept."""
    return TOKEN.findall(text)


def _raw_sentences(sources) -> list[str]:
    from compsem.data import sts_benchmarks as sb

    texts = []
    for source in sources:
        if source == "stsb":
            for split in ("train", "dev", "test"):
                frame = sb.load_stsb(split)
                texts += [t for pair in zip(frame.sentence_a, frame.sentence_b, strict=True) for t in pair]
        elif source == "sick":
            for split in ("train", "trial", "test"):
                frame = sb.load_sick(split)
                texts += [t for pair in zip(frame.sentence_a, frame.sentence_b, strict=True) for t in pair]
        elif source == "str-2022":
            frame = sb.load_str2022()
            texts += [t for pair in zip(frame.sentence_a, frame.sentence_b, strict=True) for t in pair]
        else:
            raise ValueError(f"unknown sentence source {source!r}; known: {', '.join(SOURCES)}")
    return texts


def has_gap_form(tokens: list[str]) -> bool:
    """Whether a tokenised sentence uses one of the 21 gap forms (any capitalisation)."""
    lower = {w.lower() for w in GAP_TOKENS}
    return any(t.lower() in lower for t in tokens)


def english_sentences(
    n_sentences: int = 0,
    max_words: int = 0,
    max_tokens: int = 64,
    gap_sentences: str = "keep",
    sources=SOURCES,
    seed: int = 0,
    texts: list[str] | None = None,
) -> pd.DataFrame:
    """The substitute auxiliary corpus: one row per distinct sentence, columns ``text`` (tokens
    joined by spaces) and ``source_index`` (its position among the de-duplicated sentences).

    ``n_sentences`` > 0 keeps a random subset of that many (``seed``; 0: all); sentences of fewer
    than 2 or more than ``max_tokens`` tokens are dropped; ``max_words`` > 0 keeps the
    ``max_words`` most frequent words (ties alphabetically) and writes ``<unk>`` for the rest
    (a smaller vocabulary for CPU runs; 0: every word). ``gap_sentences``: ``"keep"`` or
    ``"drop"`` the sentences that use a gap form (module docstring). ``texts`` replaces the
    registry's sentences (tests)."""
    for name, value, low in (("n_sentences", n_sentences, 0), ("max_words", max_words, 0),
                             ("max_tokens", max_tokens, 2)):
        if not isinstance(value, int) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if gap_sentences not in ("keep", "drop"):
        raise ValueError(f"gap_sentences must be 'keep' or 'drop', got {gap_sentences!r}")
    raw = _raw_sentences(sources) if texts is None else list(texts)
    seen, rows = set(), []
    for text in raw:
        tokens = tokenize(str(text))
        key = " ".join(tokens)
        if not 2 <= len(tokens) <= max_tokens or key in seen:
            continue
        if any(m in str(text) for m in MASK_TOKENS):
            raise ValueError(f"auxiliary text contains a [w_n] token: {text!r}")
        if gap_sentences == "drop" and has_gap_form(tokens):
            continue
        seen.add(key)
        rows.append(key)
    frame = pd.DataFrame({"text": rows, "source_index": np.arange(len(rows))})
    if n_sentences and n_sentences < len(frame):
        keep = np.sort(np.random.default_rng(seed).choice(len(frame), n_sentences, replace=False))
        frame = frame.iloc[keep].reset_index(drop=True)
    if max_words:
        counts = Counter(t for text in frame.text for t in text.split())
        ranked = sorted(counts, key=lambda w: (-counts[w], w))[:max_words]
        known = set(ranked)
        frame["text"] = [" ".join(t if t in known else UNK_WORD for t in text.split())
                         for text in frame.text]
    return frame


def split_dev(frame: pd.DataFrame, dev_fraction: float = 0.1, seed: int = 0) -> pd.Series:
    """``"train"`` or ``"dev"`` per row: a seeded random ``dev_fraction`` is held out for early
    stopping (the dissertation does not say how its auxiliary runs were validated; Experiment 2
    holds out 10% of its pretraining text)."""
    if not 0 < dev_fraction < 1:
        raise ValueError(f"dev_fraction must be between 0 and 1, got {dev_fraction!r}")
    n_dev = max(1, int(round(dev_fraction * len(frame))))
    dev = np.random.default_rng([seed, 1]).choice(len(frame), n_dev, replace=False)
    split = np.full(len(frame), "train", dtype=object)
    split[dev] = "dev"
    return pd.Series(split, index=frame.index, name="split")


def _check_gloss_tokens(tokens: str) -> None:
    if tokens not in GLOSS_TOKENS:
        raise ValueError(f"gloss tokens must be one of {', '.join(GLOSS_TOKENS)}; got {tokens!r}")


def gloss(token: str, tokens: str = "word") -> str:
    """The gloss token of ``token`` in the separate output vocabulary: ``buys`` (``tokens=
    "word"``, the output token with the input's string) or ``buys'`` (``"primed"``)."""
    _check_gloss_tokens(tokens)
    return token + GLOSS_SUFFIX if tokens == "primed" else token


def gloss_pairs(frame: pd.DataFrame, tokens: str = "word") -> pd.DataFrame:
    """Glossing pairs (Section 5.2.1.2): ``source`` the sentence, ``target`` one gloss token per
    word (:func:`gloss`), in order (MAX, DEP, LINEARITY and INTEGRITY all hold); ``split``
    kept."""
    _check_gloss_tokens(tokens)
    return pd.DataFrame(
        {
            "source": frame["text"].to_numpy(),
            "target": [" ".join(gloss(t, tokens) for t in text.split()) for text in frame["text"]],
            "split": frame["split"].to_numpy() if "split" in frame else "train",
        }
    )


def span_corruption(
    tokens: list[str], rng: np.random.Generator, rate: float = 0.15, mean_span: float = 3.0
) -> tuple[list[str], list[str]]:
    """T5's span corruption of one token sequence: ``round(rate * n)`` tokens (at least 1),
    in ``round(noise / mean_span)`` spans (at least 1) of random lengths, separated by random
    non-empty stretches of kept tokens. Returns (input with one sentinel per span, output of
    each sentinel followed by its span)."""
    n = len(tokens)
    if n < 2:
        raise ValueError(f"span corruption needs at least 2 tokens, got {n}")
    if not 0 < rate < 1 or mean_span < 1:
        raise ValueError(f"rate must be in (0, 1) and mean_span >= 1; got {rate!r}, {mean_span!r}")
    noise = min(max(1, int(round(rate * n))), n - 1)
    spans = max(1, min(int(round(noise / mean_span)), noise, n - noise))
    noise_lengths = _composition(noise, spans, rng)
    # kept stretches: one before each span (the first may be empty) and one after the last
    keep_lengths = _composition(n - noise + 1, spans + 1, rng)
    keep_lengths[0] -= 1
    source, target, position = [], [], 0
    for i in range(spans):
        source += tokens[position : position + keep_lengths[i]]
        position += keep_lengths[i]
        sentinel = SENTINEL.format(i)
        source.append(sentinel)
        target += [sentinel, *tokens[position : position + noise_lengths[i]]]
        position += noise_lengths[i]
    source += tokens[position:]
    return source, target


def _composition(total: int, parts: int, rng: np.random.Generator) -> list[int]:
    """``total`` split into ``parts`` positive integers, uniformly over the compositions."""
    cuts = np.sort(rng.choice(np.arange(1, total), parts - 1, replace=False)) if parts > 1 else []
    bounds = [0, *[int(c) for c in cuts], total]
    return [b - a for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def chunks(texts, chunk_tokens: int) -> list[str]:
    """Consecutive sentences packed into chunks of at most ``chunk_tokens`` tokens (a longer
    sentence is a chunk of its own, cut to ``chunk_tokens``), as T5's pipeline packs text."""
    if chunk_tokens < 2:
        raise ValueError(f"chunk_tokens must be >= 2, got {chunk_tokens!r}")
    out, current = [], []
    for text in texts:
        tokens = text.split()[:chunk_tokens]
        if current and len(current) + len(tokens) > chunk_tokens:
            out.append(" ".join(current))
            current = []
        current += tokens
    if current:
        out.append(" ".join(current))
    return out


def denoise_pairs(
    frame: pd.DataFrame,
    chunk_tokens: int = 512,
    rate: float = 0.15,
    mean_span: float = 3.0,
    seed: int = 0,
) -> pd.DataFrame:
    """Denoising pairs: the ``train`` and ``dev`` sentences of ``frame`` packed separately into
    chunks (:func:`chunks`), each corrupted once (:func:`span_corruption`, ``seed``)."""
    rng = np.random.default_rng([seed, 2])
    split = frame["split"] if "split" in frame else pd.Series("train", index=frame.index)
    rows = []
    for part in ("train", "dev"):
        for chunk in chunks(frame.loc[split == part, "text"], chunk_tokens):
            source, target = span_corruption(chunk.split(), rng, rate, mean_span)
            rows.append((" ".join(source), " ".join(target), part))
    return pd.DataFrame(rows, columns=["source", "target", "split"])


def corrupted_fraction(pairs: pd.DataFrame) -> float:
    """The share of the original tokens that denoising pairs hide (target tokens that are not
    sentinels over all original tokens)."""
    hidden = sum(sum(not t.startswith("<x_") for t in s.split()) for s in pairs["target"])
    kept = sum(sum(not t.startswith("<x_") for t in s.split()) for s in pairs["source"])
    return hidden / max(hidden + kept, 1)


OBJECTIVES = ("none", "gloss", "denoise")


def auxiliary_pairs(objective: str, corpus: pd.DataFrame, settings: dict, seed: int = 0,
                    gloss_tokens: str = "word"):
    """The ``objective``'s pairs (columns ``source``, ``target``, ``split``) from a corpus with
    a ``split`` column; ``settings`` holds ``chunk_tokens``, ``rate`` and ``mean_span`` for
    denoising, ``gloss_tokens`` how glosses are written (:func:`gloss`). ``"none"`` has no
    pairs."""
    if objective == "gloss":
        return gloss_pairs(corpus, gloss_tokens)
    if objective == "denoise":
        return denoise_pairs(corpus, settings["chunk_tokens"], settings["rate"],
                             settings["mean_span"], seed)
    if objective == "none":
        return pd.DataFrame(columns=["source", "target", "split"])
    raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}; got {objective!r}")
