"""Model specs: the one grammar of the strings a chapter parameter lists as models.

=============================  ==================================================================
``<encoder>``                  any name :func:`compsem.models.get_encoder` knows: ``minilm``,
                               ``mpnet``, ``glove50``, ``spacy-md``, ``sdae``, ``hf:<hub id>``,
                               ``<base>:layer<k>``, ``<base>:last``, ``<base>:layer<k>:cls`` ...
``<composer>:<word vectors>``  a study's composition of static word vectors (``glove50``,
                               ``spacy-md``), e.g. ``mean:glove50``, ``conv:spacy-md``
``<baseline>``                 a study's model-free baseline, e.g. ``overlap``, ``random``, ``bow``
=============================  ==================================================================

The grammar is shared; what a composer or baseline *computes* belongs to the study that
registers it, by passing its names to :func:`parse_spec` (``compsem.sts.scoring`` registers
``mean``/``mult``/``conv``/``circconv`` and ``overlap``/``random``; ``compsem.modifiers.encoding``
``mean``/``sum``; ``compsem.probing.features`` ``bow``/``random``). Parsing loads nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from compsem.models.layers import PACKAGED_LAYERS, parse_layer_name
from compsem.models.packaged import DESCRIPTIONS, HF_PATTERN

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


def is_encoder_name(name: str) -> bool:
    """Whether ``name`` is a name :func:`compsem.models.get_encoder` accepts (without loading)."""
    if name.startswith("hf:"):
        return len(name) > 3
    if name in DESCRIPTIONS:
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
        return ModelSpec(text, "encoder", encoder=text)
    accepted = [*baselines, *(f"{c}:<word vectors>" for c in composers), *DESCRIPTIONS,
                HF_PATTERN, "<encoder>:layer<k>"]
    raise ValueError(f"unknown model {text!r}; this chapter accepts: {', '.join(accepted)}")
