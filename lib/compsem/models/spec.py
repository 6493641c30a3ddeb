"""Model specs: the one grammar of the strings a chapter parameter lists as models.

=============================  ==================================================================
``<encoder>``                  any name :func:`compsem.models.get_encoder` knows: ``minilm``,
                               ``mpnet``, ``glove50``, ``spacy-md``, ``sdae``, ``hf:<hub id>``,
                               ``<base>:layer<k>``, ``<base>:last``, ``<base>:layer<k>:cls`` ...,
                               ``sdae:seed<k>`` (an encoder trained here, with seed k)
``<composer>:<word vectors>``  a study's composition of static word vectors (``glove50``,
                               ``spacy-md``), e.g. ``mean:glove50``, ``conv:spacy-md``
``<baseline>``                 a study's model-free baseline, e.g. ``overlap``, ``random``, ``bow``
=============================  ==================================================================

The grammar is shared; what a composer or baseline *computes* belongs to the study that
registers it, by passing its names to :func:`parse_spec` (``compsem.sts.scoring`` registers
``mean``/``mult``/``conv``/``circconv`` and ``overlap``/``random``; ``compsem.modifiers.encoding``
``mean``/``sum``; ``compsem.probing.features`` ``bow``/``random``). Parsing loads nothing; it
refuses a layer a packaged model does not have and an ``hf:`` source that is neither a hub id nor
a folder with a saved model.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from compsem.models.layers import PACKAGED_LAYERS, parse_layer_name
from compsem.models.packaged import (
    DESCRIPTIONS,
    HF_PATTERN,
    TRAINED_SEED_PATTERN,
    parse_trained_seed,
)

WORD_VECTOR_MODELS = ("glove50", "spacy-md")
"""The encoders whose ``word_vectors`` a composer can compose."""


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec. ``kind``: ``"encoder"`` (``encoder`` is the name to load),
    ``"composed"`` (``composer`` applied to the word vectors of ``encoder``) or ``"baseline"``
    (``composer`` is the baseline's name, no encoder)."""

    text: str
    kind: str
    encoder: str | None = None
    composer: str | None = None

    @property
    def is_encoder(self) -> bool:
        """A sentence encoder (embeddings to compare), not a composition or a baseline."""
        return self.kind == "encoder"


HUB_ID = re.compile(r"^(?:[A-Za-z0-9][\w.-]{0,95}/)?[A-Za-z0-9][\w.-]{0,95}$")
"""A Hugging Face hub id: ``name`` or ``owner/name`` (letters, digits, ``-``, ``_``, ``.``)."""


def check_hf_source(source: str) -> str:
    """``source`` (what follows ``hf:``) when it is a hub id (:data:`HUB_ID`, without ``..`` or
    ``--``) or a local folder holding a saved model (``config.json``); else ValueError saying
    which. Nothing is loaded or downloaded."""
    local = Path(source).expanduser()
    looks_local = source.startswith((".", "/", "~")) or source.count("/") > 1 or local.is_dir()
    if looks_local:
        if not (local / "config.json").is_file():
            raise ValueError(
                f"model 'hf:{source}': {local} is not a folder with a saved model (no "
                "config.json there); give a hub id such as 'hf:sentence-transformers/"
                "all-MiniLM-L12-v2' or the folder of a model saved with save_pretrained")
        return source
    if not HUB_ID.match(source) or ".." in source or "--" in source or source.endswith(".git"):
        raise ValueError(
            f"model 'hf:{source}': {source!r} is not a Hugging Face hub id (owner/name of "
            "letters, digits, '-', '_' and '.'), e.g. 'hf:sentence-transformers/all-MiniLM-L12-v2'")
    return source


def check_layer(name: str) -> None:
    """ValueError when ``name`` is a layer of a packaged model (``minilm:layer<k>``) that the
    model does not have; the layer count of a hub model is known only when it loads."""
    layer = parse_layer_name(name)
    if layer is None or layer[0] not in PACKAGED_LAYERS or layer[1] == "last":
        return
    n, k = PACKAGED_LAYERS[layer[0]], layer[1]
    if not -(n + 1) <= k <= n:
        raise ValueError(f"model {name!r}: {layer[0]} has hidden-state layers 0..{n} (0 = "
                         f"embedding output, {n} = last, -1 = last as well); there is no layer {k}")


def is_encoder_name(name: str) -> bool:
    """Whether ``name`` is a name :func:`compsem.models.get_encoder` accepts (without loading)."""
    if name.startswith("hf:"):
        return len(name) > 3
    if name in DESCRIPTIONS or parse_trained_seed(name) is not None:
        return True
    layer = parse_layer_name(name)
    return layer is not None and (layer[0] in PACKAGED_LAYERS or layer[0].startswith("hf:"))


def parse_spec(
    text: str, composers: Iterable[str] = (), baselines: Iterable[str] = ()
) -> ModelSpec:
    """Parse ``text`` against the grammar (module docstring), with the study's ``composers``
    and ``baselines``. Raises ValueError naming the spec and what would be accepted."""
    composers, baselines = tuple(composers), tuple(baselines)
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a model spec must be a non-empty string, not {text!r}")
    if text in baselines:
        return ModelSpec(text, "baseline", composer=text)
    head, _, rest = text.partition(":")
    if head in composers:
        if rest not in WORD_VECTOR_MODELS:
            raise ValueError(
                f"model {text!r}: the composer {head!r} needs word vectors, one of "
                f"{', '.join(WORD_VECTOR_MODELS)} (e.g. '{head}:glove50')"
            )
        return ModelSpec(text, "composed", encoder=rest, composer=head)
    if is_encoder_name(text):
        check_layer(text)
        base = parse_layer_name(text)[0] if parse_layer_name(text) else text
        if base.startswith("hf:"):
            check_hf_source(base[3:])
        return ModelSpec(text, "encoder", encoder=text)
    accepted = [*baselines, *(f"{c}:<word vectors>" for c in composers), *DESCRIPTIONS,
                HF_PATTERN, "<encoder>:layer<k>", "<encoder>:cls", TRAINED_SEED_PATTERN]
    names = [*baselines, *(f"{c}:{v}" for c in composers for v in WORD_VECTOR_MODELS), *DESCRIPTIONS]
    close = difflib.get_close_matches(text, names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown model {text!r}{hint}; this chapter accepts: {', '.join(accepted)}")
