"""Numbers written with an exponent (``-p n_boot 1e3``), and the checks of model parameters a
chapter makes in its first code cell (:func:`compsem.parameters.check_models`): run here as the
chapter's own call, on every profile and on the bad values that used to fail late or never."""

from __future__ import annotations

import ast
import re

import pytest

from compsem import parameters
from compsem.parameters import ParameterError, check_models, finetune_model

# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    ("spec", "value", "read"),
    [({"type": "int"}, "1e3", 1000),
     ({"type": "int"}, "0.5e1", 5),  # whole
     ({"type": "int", "nullable": True}, "null", None),
     ({"type": "float"}, "1e1", 10.0),
     ({"type": "float"}, "2.5E-1", 0.25),
     ({"type": "float"}, "3", 3.0),
     ({"type": "float"}, "1.0e+3", 1000.0),  # YAML's own float
     ({"type": "list", "item": "int"}, "[1e3, 2]", [1000, 2]),
     ({"type": "list", "item": "float"}, "[1e-2, 0.5]", [0.01, 0.5]),
     ({"type": "str"}, "1e3", "1e3"),  # a string parameter stays a string
     ({"type": "list", "item": "str"}, "[1e3]", ["1e3"])],
)
def test_a_number_with_an_exponent_is_read_as_the_declared_type(spec, value, read):
    coerced = parameters._coerce("tiny", "knob", value, spec, "-p override")
    assert coerced == read and type(coerced) is type(read)
    if isinstance(read, list):
        assert [type(item) for item in coerced] == [type(item) for item in read]
    parameters.validate_parameter("tiny", "knob", coerced, spec, "-p override")


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [({"type": "int"}, "2.5e0", "it must be int, got '2.5e0'"),  # an int must be whole
     ({"type": "int"}, "1e400", "it must be int, got '1e400'"),
     ({"type": "int"}, "many", "it must be int, got 'many'"),
     ({"type": "float"}, "nan", "it must be a finite number, got nan"),
     ({"type": "list", "item": "int"}, "[1e3, 0.25e1]", "item 1 ('0.25e1') must be int, got '0.25e1'")],
)
def test_a_number_that_is_not_one_of_the_declared_type_still_fails(spec, value, message):
    coerced = parameters._coerce("tiny", "knob", value, spec, "-p override")
    with pytest.raises(ParameterError) as error:
        parameters.validate_parameter("tiny", "knob", coerced, spec, "-p override")
    assert str(error.value).endswith(message)


def test_exponents_on_the_command_line_of_real_chapters():
    assert parameters.resolve_parameters("sts3k-models", "default", {"n_boot": "1e3"}) == {"n_boot": 1000}
    assert parameters.resolve_parameters(
        "sts3k-hybrid", "default", {"perturbation_factor": "1e1"}) == {"perturbation_factor": 10.0}
    with pytest.raises(ParameterError, match=r"parameter 'n_boot' \(-p override\) = 1000000000: "
                                             r"it must be <= 1000000"):
        parameters.resolve_parameters("sts3k-models", "default", {"n_boot": "1e9"})


# --------------------------------------------------------------------------- check_models


PROBING = ["random", "bow", "glove50", "sdae", "sdae:seed1", "minilm", "mpnet:layer3", "hf:owner/name"]


def test_every_name_of_a_grammar_passes():
    check_models({"encoders": PROBING, "one": "bow"}, "probing")
    check_models({"models": ["mean:glove50", "overlap", "mpnet", "minilm:layer2"]}, "sts")
    check_models({"models": ["minilm", "mpnet", "sentence-transformers/all-MiniLM-L12-v2"]}, "sts-finetune")
    check_models({"trainings": {"sdae": ["sdae", "sdae:seed1"]}}, "sts")
    check_models({"anything": ["not a model"]})  # no grammar: not parsed


@pytest.mark.parametrize(
    ("models", "grammar", "message"),
    [({"geometry_encoders": ["bow", "glove5O"]}, "probing",
      "parameter 'geometry_encoders' = ['bow', 'glove5O']: unknown model 'glove5O' (did you mean "
      "'glove50'?); this chapter accepts: bow, random, minilm"),
     ({"models": ["minilm", "sum:glove50", "mpnet:cls", "minlm"]}, "modifiers",
      "parameter 'models' = ['minilm', 'sum:glove50', 'mpnet:cls', 'minlm']: unknown model 'minlm' "
      "(did you mean 'minilm'?); this chapter accepts: mean:<word vectors>, sum:<word vectors>, "
      "minilm, mpnet, glove50, spacy-md, sdae, hf:<hub id>, <encoder>:layer<k>, <encoder>:cls"),
     ({"bow_substitute": "spacy-mdd"}, "probing", "parameter 'bow_substitute' = 'spacy-mdd': unknown model"),
     ({"split_encoders": ["mean:glove50"]}, "probing", "unknown model 'mean:glove50'"),  # no compositions
     ({"generator_models": ["mean:glove5"]}, "sts",
      "parameter 'generator_models' = ['mean:glove5']: model 'mean:glove5': the composer 'mean' needs "
      "word vectors, one of glove50, spacy-md"),
     ({"generator_models": ["bow"]}, "sts", "unknown model 'bow'"),  # a probing baseline
     ({"finetune_models": ["mpnett"]}, "sts-finetune",
      "parameter 'finetune_models' = ['mpnett']: model 'mpnett' cannot be fine-tuned here; give one of "
      "minilm, mpnet, a Hugging Face hub id (owner/name) or a folder with a saved sentence-transformers "
      "model"),
     ({"finetune_models": ["glove50"]}, "sts-finetune", "model 'glove50' cannot be fine-tuned here"),
     ({"finetune_models": ["hf:owner/name"]}, "sts-finetune",
      "which takes the hub id without 'hf:': write 'owner/name'"),
     ({"finetune_models": ["./no-such-folder"]}, "sts-finetune", "cannot be fine-tuned here"),
     ({"t": {"sdae": ["sdae", "sdae:seedx"]}}, {"t": "sts"}, "parameter 't' = {'sdae': ['sdae', 'sdae:seedx']}: "
                                                          "unknown model 'sdae:seedx'")],
)
def test_a_name_outside_the_grammar_names_the_parameter_the_value_and_what_is_accepted(models, grammar, message):
    with pytest.raises(ParameterError) as error:
        check_models(models, grammar)
    assert str(error.value).startswith(f"parameter {next(iter(models))!r} = ") and message in str(error.value)


@pytest.mark.parametrize(
    "trainings",
    ["sdae", ["sdae"], ["sdae", "sdae"], ["sdae:seed1", "sdae"], [], ["sdae", 1], None],
)
def test_trainings_are_two_different_specs_the_encoder_first(trainings):
    with pytest.raises(ParameterError, match=re.escape(
            f"parameter 'encoder_trainings' = {{'sdae': {trainings!r}}}: the trainings of 'sdae' must be a "
            "list of at least two different model specs, 'sdae' itself first")):
        check_models({"encoder_trainings": {"sdae": trainings}})


def test_a_group_must_be_among_another():
    check_models({"encoders": ["a", "b"], "blind": ["b"], "one": "a"}, among={"blind": "encoders", "one": "encoders"})
    with pytest.raises(ParameterError, match=re.escape(
            "parameter 'blind' = ['b', 'c', 'd']: 'c', 'd' not in encoders = ['a', 'b']; add them to "
            "encoders or leave them out of blind")):
        check_models({"encoders": ["a", "b"], "blind": ["b", "c", "d"]}, among={"blind": "encoders"})
    with pytest.raises(ParameterError, match="parameter 'one' = 'c': 'c' not in encoders"):
        check_models({"encoders": ["a", "b"], "one": "c"}, among={"one": "encoders"})
    # among several parameters: in any of them
    check_models({"models": ["a"], "pooling": ["b"], "aan": ["a", "b"]}, among={"aan": ("models", "pooling")})
    with pytest.raises(ParameterError, match=re.escape(
            "parameter 'aan' = ['a', 'c']: 'c' not in models = ['a'] or pooling = ['b']; add it to "
            "models or pooling or leave it out of aan")):
        check_models({"models": ["a"], "pooling": ["b"], "aan": ["a", "c"]}, among={"aan": ("models", "pooling")})


def test_layers():
    check_models({"base": "mpnet"}, layers={"base": {"layers": [0, 6, 12]}})
    check_models({"base": "minilm"}, layers={"base": {"layers": []}})
    check_models({"base": "hf:owner/name"}, layers={"base": {"layers": [24]}})  # known when it loads
    with pytest.raises(ParameterError, match=re.escape(
            "parameter 'base' = 'glove50' is not an encoder with hidden-state layers: give one of minilm, "
            "mpnet or hf:<hub id>")):
        check_models({"base": "glove50"}, layers={"base": {"layers": [0]}})
    with pytest.raises(ParameterError, match=re.escape(
            "parameter 'layers_b' = [0, 12] (layers of base = 'minilm'): model 'minilm:layer12': minilm has "
            "hidden-state layers 0..6")):
        check_models({"base": "minilm"}, layers={"base": {"layers_a": [6], "layers_b": [0, 12]}})
    with pytest.raises(ParameterError, match="'hf:a..b' is not an encoder with hidden-state layers: .* "
                                             "is not a Hugging Face hub id"):
        check_models({"base": "hf:a..b"}, layers={"base": {"layers": [0]}})


def test_an_unknown_grammar_is_a_programming_error():
    with pytest.raises(ValueError, match="no grammar of model specs 'cogs'"):
        check_models({"x": "minilm"}, "cogs")


def test_finetune_model_returns_the_name():
    assert finetune_model("mpnet") == "mpnet"
    assert finetune_model("owner/name") == "owner/name"


# --------------------------------------------------------------------------- the chapters' own calls


def chapter_check(chapter: str, overrides: dict | None = None, profile: str = "default") -> None:
    """The ``parameters.check_models(...)`` call of the chapter's first code cell, run with the
    chapter's parameters (defaults, then ``profile``, then ``overrides`` read as ``-p`` values)."""
    from compsem.parameters import default_parameters, read_notebook, resolve_parameters

    values = default_parameters(chapter) | resolve_parameters(chapter, profile, overrides)
    cells = [c for c in read_notebook(chapter).cells if c.cell_type == "code"]
    at = next(i for i, c in enumerate(cells) if "parameters" in c.metadata.get("tags", []))
    calls = [node for node in ast.parse(cells[at + 1].source).body
             if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
             and ast.unparse(node.value.func) == "parameters.check_models"]
    assert len(calls) == 1, f"{chapter}: one parameters.check_models call in the first code cell"
    exec(compile(ast.Module(calls, type_ignores=[]), chapter, "exec"), {"parameters": parameters, **values})


CHAPTERS = ("synthesis", "probing-composition", "sts3k-hybrid", "sts3k-finetune", "sts3k-models",
            "modifiers-consistency")


@pytest.mark.parametrize("profile", parameters.PROFILES)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_profile_passes_the_chapter_check(chapter, profile):
    chapter_check(chapter, profile=profile)


@pytest.mark.parametrize(
    ("chapter", "overrides", "message"),
    [("synthesis", {"order_blind": "[glove50, spacy_md]"},
      "parameter 'order_blind' = ['glove50', 'spacy_md']: 'spacy_md' not in encoders"),
     ("synthesis", {"order_aware": "[minilm, mpnet, sdae, ernie]"}, "'ernie' not in encoders"),
     ("synthesis", {"encoder_trainings": "{sdae: sdae}"},
      "parameter 'encoder_trainings' = {'sdae': 'sdae'}: the trainings of 'sdae' must be a list"),
     ("synthesis", {"encoder_trainings": "{sdae: [sdae, sdae:sed1]}"}, "unknown model 'sdae:sed1'"),
     ("probing-composition", {"geometry_encoders": "[bow, glove50, sdea]"},
      "parameter 'geometry_encoders' = ['bow', 'glove50', 'sdea']: unknown model 'sdea'"),
     ("probing-composition", {"bow_substitute": "spacy-mdd"}, "parameter 'bow_substitute' = 'spacy-mdd'"),
     ("probing-composition", {"order_aware": "sdea"}, "parameter 'order_aware' = 'sdea'"),
     ("probing-composition", {"order_aware_trainings": "[sdae, sdae:seed]"}, "parameter 'order_aware_trainings'"),
     ("modifiers-consistency", {"models": "[minilm, glove5O]"},
      "parameter 'models' = ['minilm', 'glove5O']: unknown model 'glove5O' (did you mean 'glove50'?)"),
     ("modifiers-consistency", {"aan_models": "[minilm, sum:glove50]"},
      "parameter 'aan_models' = ['minilm', 'sum:glove50']: 'sum:glove50' not in models"),
     ("sts3k-models", {"models": "[mpnet, minlm]"},
      "parameter 'models' = ['mpnet', 'minlm']: unknown model 'minlm' (did you mean 'minilm'?)"),
     ("probing-composition", {"regenerated_encoders": "[bow, minlm]"}, "parameter 'regenerated_encoders'"),
     ("probing-composition", {"layer_base": "glove50"}, "parameter 'layer_base' = 'glove50' is not an encoder"),
     ("probing-composition", {"layer_base": "minilm"}, "parameter 'layers_2016' = [0, 3, 6, 9, 12] (layers of "
                                                      "layer_base = 'minilm'): model 'minilm:layer9'"),
     ("sts3k-hybrid", {"generator_models": "[mean:glove50, mpnet, minlm]"},
      "parameter 'generator_models' = ['mean:glove50', 'mpnet', 'minlm']: unknown model 'minlm'"),
     ("sts3k-finetune", {"finetune_models": "[minilm, mpnett]"},
      "parameter 'finetune_models' = ['minilm', 'mpnett']: model 'mpnett' cannot be fine-tuned here")],
)
def test_the_chapter_check_catches_what_used_to_fail_late(chapter, overrides, message):
    with pytest.raises(ParameterError) as error:
        chapter_check(chapter, overrides)
    assert str(error.value).startswith("parameter '") and message in str(error.value)


# --------------------------------------------------------------------------- schema choices


def test_schema_choices_are_the_library_constants():
    from compsem.models.spec import WORD_VECTOR_MODELS
    from compsem.sts.pair_types import CATEGORY_TYPE

    hybrid = parameters.load_schema("sts3k-hybrid")
    assert hybrid["word_vectors"]["choices"] == list(WORD_VECTOR_MODELS)
    assert hybrid["labeller_vectors"]["choices"] == list(WORD_VECTOR_MODELS)
    finetune = parameters.load_schema("sts3k-finetune")
    assert finetune["manipulation_train"]["choices"] == list(CATEGORY_TYPE)
    assert finetune["manipulation_test"]["choices"] == list(CATEGORY_TYPE)


@pytest.mark.parametrize(
    ("chapter", "name", "value", "message"),
    [("sts3k-hybrid", "labeller_vectors", "glove", "it must be one of ['glove50', 'spacy-md'], got 'glove'"),
     ("sts3k-hybrid", "word_vectors", "[glove50, mpnet]", "item 1 ('mpnet') must be one of"),
     ("sts3k-finetune", "manipulation_train", "[SWAP_SUBJ]", "item 0 ('SWAP_SUBJ') must be one of ['ZERO'"),
     ("sts3k-finetune", "manipulation_test", "[TRIPLE, quad]", "item 1 ('quad') must be one of")],
)
def test_schema_choices_fail_before_the_kernel_starts(chapter, name, value, message):
    with pytest.raises(ParameterError, match=re.escape(f"parameter {name!r} (-p override)") + ".*"
                       + re.escape(message)):
        parameters.resolve_parameters(chapter, "default", {name: value})


def test_training_the_grid_needs_a_gpu_it_can_see(monkeypatch):
    import torch

    from compsem.parameters import check_gpu

    check_gpu("grid_train", False, "cpu")  # nothing to train: no GPU needed
    for device in ("cpu", "mps"):
        with pytest.raises(ParameterError, match=re.escape(
                f"parameter 'grid_train' = True trains the paper's grid on a CUDA GPU, not on "
                f"device = {device!r}: give -p device cuda on a GPU machine")):
            check_gpu("grid_train", True, device)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    for device in ("auto", "cuda", "cuda:1"):
        with pytest.raises(ParameterError, match=re.escape(
                f"and torch sees none (device = {device!r}); run it on a GPU machine (book/using.md), "
                "or give -p grid_train false")):
            check_gpu("grid_train", True, device)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    for device in ("auto", "cuda", "cuda:0"):
        check_gpu("grid_train", True, device)
    with pytest.raises(ParameterError, match=re.escape("torch sees 1 (cuda:0 to cuda:0) (device = 'cuda:1')")):
        check_gpu("grid_train", True, "cuda:1")


@pytest.mark.parametrize("chapter", ["cogs-models", "cogs-auxiliary"])
def test_a_chapter_that_trains_the_grid_checks_for_a_gpu_first(chapter):
    from compsem.parameters import read_notebook

    cells = [c for c in read_notebook(chapter).cells if c.cell_type == "code"]
    at = next(i for i, c in enumerate(cells) if "parameters" in c.metadata.get("tags", []))
    assert 'parameters.check_gpu("grid_train", grid_train, device)' in cells[at + 1].source
