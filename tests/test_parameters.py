"""The schema files' vocabulary as JSON Schema: each failure is one clear message naming the
chapter, the parameter, where the value came from, the value and what is allowed."""

from __future__ import annotations

import re

import pytest

from compsem import parameters
from compsem.parameters import ParameterError, json_schema, validate_parameter


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [({"type": "int", "min": 1}, "7", "it must be int, got '7'"),
     ({"type": "int"}, True, "it must be int, got True"),  # a bool is not an int
     ({"type": "int"}, 2.0, "it must be int, got 2.0"),
     ({"type": "float"}, float("inf"), "it must be a finite number, got inf"),
     ({"type": "list", "item": "int"}, 5, "it must be a list, got 5"),
     ({"type": "int", "min": 1, "max": 10}, 0, "it must be >= 1, got 0"),
     ({"type": "float", "min": 0.5, "max": 0.999}, 1.5, "it must be <= 0.999, got 1.5"),
     ({"type": "str", "choices": ["greedy", "beam"]}, "best",
      "it must be one of ['greedy', 'beam'], got 'best'"),
     ({"type": "int"}, None, "it must not be null (type int)"),
     ({"type": "list", "item": "int", "min": 2, "max": 501}, [2, 1000],
      "item 1 (1000) must be <= 501, got 1000"),
     ({"type": "list", "item": "str", "choices": ["sts", "cogs"]}, ["sts", "x"],
      "item 1 ('x') must be one of ['sts', 'cogs'], got 'x'"),
     ({"type": "list", "item": "int", "min_length": 1}, [], "needs at least 1 item(s), got []"),
     ({"type": "str", "min_length": 1}, "", "needs length >= 1, got ''"),
     ({"type": "str", "pattern": "auto|cpu|cuda(:[0-9]+)?"}, "cuda:x",
      "it must match /auto|cpu|cuda(:[0-9]+)?/, got 'cuda:x'"),
     ({"type": "list", "item": "int"}, [1, 1], "lists each item once; 1 is repeated in [1, 1]"),
     ({"type": "list", "item": "float", "length": 3, "repeats": True}, [0.5, 0.5],
      "needs exactly 3 items, got [0.5, 0.5]")],
)
def test_a_bad_value_names_the_chapter_parameter_value_and_what_is_allowed(spec, value, message):
    with pytest.raises(ParameterError) as error:
        validate_parameter("tiny", "knob", value, spec, "-p override")
    assert str(error.value) == f"chapter 'tiny': parameter 'knob' (-p override) = {value!r}: {message}"


@pytest.mark.parametrize(
    ("spec", "value"),
    [({"type": "float", "min": 0, "max": 1, "nullable": True}, None),
     ({"type": "float", "min": 0, "max": 1, "nullable": True}, 1),  # an int is a float
     ({"type": "str", "choices": ["a"], "nullable": True}, None),
     ({"type": "list", "item": "int", "min": 0}, (1, 2)),  # a tuple default is a list
     ({"type": "str", "pattern": "cpu|cuda"}, "cuda"),
     ({"type": "dict", "min_length": 1}, {"a": 1}),
     ({"type": "list", "item": "float", "length": 3, "repeats": True}, [0.7, 0.15, 0.15])],  # shares repeat
)
def test_a_good_value_passes(spec, value):
    validate_parameter("tiny", "knob", value, spec)


def test_every_failure_is_listed():
    with pytest.raises(ParameterError, match=re.escape(
            "item 0 (-1) must be >= 0, got -1; item 2 ('x') must be int, got 'x'")):
        validate_parameter("tiny", "seeds", [-1, 3, "x"], {"type": "list", "item": "int", "min": 0})


def test_the_translation():
    assert json_schema({"type": "list", "item": "int", "min": 0, "max": 9, "min_length": 1}) == {
        "type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 9}, "uniqueItems": True,
        "minItems": 1}
    assert json_schema({"type": "str", "choices": ["a", "b"], "nullable": True}) == {
        "type": ["string", "null"], "enum": ["a", "b", None]}
    assert json_schema({"type": "str", "pattern": "a|b"})["pattern"] == r"^(?:a|b)\Z"
    # a pattern matches the whole string, as re.fullmatch does
    with pytest.raises(ParameterError, match="must match"):
        validate_parameter("tiny", "device", "cpu\n", {"type": "str", "pattern": "cpu"})


@pytest.mark.parametrize("chapter", parameters.chapters())
def test_every_chapter_schema_is_valid_json_schema(chapter):
    for name, spec in parameters.load_schema(chapter).items():
        if name != "may_be_nan":
            parameters.VALIDATOR.check_schema(json_schema(spec))


@pytest.mark.parametrize("spec", [{"type": "int", "length": 3}, {"type": "str", "repeats": True},
                                  {"type": "list", "item": "int", "length": 3, "min_length": 1}])
def test_a_schema_with_length_or_repeats_off_a_list_is_refused(tmp_path, monkeypatch, spec):
    import yaml

    monkeypatch.setattr(parameters, "schema_path", lambda chapter: tmp_path / f"{chapter}.schema.yaml")
    (tmp_path / "tiny.schema.yaml").write_text(yaml.safe_dump({"knob": spec}))
    with pytest.raises(ParameterError, match="length and repeats apply to lists only"):
        parameters.load_schema("tiny")
