"""The one model-spec grammar (compsem.models.spec) and the studies that register names in it."""

import pytest

from compsem.models.spec import ModelSpec, parse_spec

STS = dict(composers=("mean", "mult", "conv", "circconv"), baselines=("overlap", "random"))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("minilm", ModelSpec("minilm", "encoder", encoder="minilm")),
        ("mpnet:layer3", ModelSpec("mpnet:layer3", "encoder", encoder="mpnet:layer3")),
        ("mpnet:cls", ModelSpec("mpnet:cls", "encoder", encoder="mpnet:cls")),
        ("hf:org/model", ModelSpec("hf:org/model", "encoder", encoder="hf:org/model")),
        ("sdae", ModelSpec("sdae", "encoder", encoder="sdae")),
        ("sdae:seed2", ModelSpec("sdae:seed2", "encoder", encoder="sdae:seed2")),
        ("conv:glove50", ModelSpec("conv:glove50", "composed", encoder="glove50", composer="conv")),
        ("overlap", ModelSpec("overlap", "baseline", composer="overlap")),
    ],
)
def test_parses_every_form(text, expected):
    assert parse_spec(text, **STS) == expected


@pytest.mark.parametrize(
    "text, message",
    [
        ("mean:minilm", "needs word vectors"),
        ("glove", "unknown model 'glove'"),
        ("foo:layer3", "unknown model"),
        ("hf:", "unknown model"),
        ("", "non-empty"),
        ("bow", "unknown model"),  # a probing baseline, not an STS one
    ],
)
def test_rejects_with_a_message_naming_the_spec(text, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(text, **STS)


def test_each_study_registers_its_own_names():
    from compsem.modifiers import encoding
    from compsem.probing import features
    from compsem.sts import scoring

    assert scoring.parse("mult:spacy-md").composer == "mult"
    assert encoding.parse_spec("sum:glove50") == ("sum", "glove50")
    with pytest.raises(ValueError):
        encoding.parse_spec("mult:glove50")  # an STS composition, not a modifier pooling
    assert parse_spec("bow", baselines=features.BASELINES).kind == "baseline"
    with pytest.raises(ValueError):
        scoring.validate(["bow"])


def test_every_factory_takes_device_and_normalize():
    import numpy as np

    from compsem.models import get_encoder

    enc = get_encoder("glove50", device="cpu", normalize=True)
    assert enc.name == "glove50-normalized"
    X = enc.encode(["a cat sat", "zzzzqqq"])
    assert np.allclose(np.linalg.norm(X[0]), 1) and not X[1].any()
    assert get_encoder("glove50", device="cpu") is get_encoder("glove50", device="cpu")


@pytest.mark.parametrize("text", ["sdae:seed01", "sdae:seed-1", "minilm:seed1", "sdae:seed"])
def test_only_trained_encoders_take_a_seed(text):
    with pytest.raises(ValueError, match=r"<trained encoder>:seed<k>"):
        parse_spec(text)


def test_a_seeded_name_is_the_encoder_trained_with_that_seed():
    from compsem.models import get_encoder

    assert get_encoder("sdae").config.seed == 0
    seeded = get_encoder("sdae:seed3")
    assert seeded.config.seed == 3
    assert seeded.config == get_encoder("sdae", seed=3).config
