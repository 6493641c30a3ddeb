"""A chapter's name and parameters: the ``parameters`` cell, the profiles and the schema.

A chapter is ``notebooks/<chapter>.py`` (jupytext percent format) with one cell tagged
``parameters``. A profile is ``notebooks/params/<chapter>.<profile>.yaml`` (``smoke`` for CI,
``default`` for ``make book``, ``full`` for long or GPU runs); ``-p name value`` overrides win.
``notebooks/params/<chapter>.schema.yaml`` declares the type and range of every parameter in a
small vocabulary (:func:`load_schema`), translated here into a JSON Schema (:func:`json_schema`)
that :mod:`jsonschema` checks.

Guarantees:

- chapter names are only those of :func:`chapters` (never a path);
- unknown parameter names, values of the wrong type and values outside the chapter's schema
  (type, item type, range, choices, length, pattern, null) fail before any heavy work, with a
  message naming the parameter, where the value came from, the value and what is allowed.
"""

from __future__ import annotations

import ast
import difflib
import math
from pathlib import Path

import jsonschema
import yaml

from compsem import paths
from compsem.errors import CompsemError

PROFILES = ("smoke", "default", "full")


class ParameterError(CompsemError, ValueError):
    """A parameter name, value or profile is invalid."""


def chapters() -> list[str]:
    """Names of the chapter sources in ``notebooks/``."""
    return sorted(p.stem for p in paths.NOTEBOOKS_DIR.glob("*.py"))


def check_chapter(chapter: str) -> str:
    """``chapter`` itself when it is one of :func:`chapters`, else ParameterError.

    A chapter name becomes part of file paths (source, profiles, temporary folder, output), so
    only the names of existing chapter sources are accepted: never an absolute path, ``..`` or a
    name with a separator.
    """
    known = chapters()
    if not isinstance(chapter, str) or chapter not in known:
        raise ParameterError(f"no chapter {chapter!r} (no {paths.NOTEBOOKS_DIR}/{chapter}.py); "
                             f"chapters: {', '.join(known)}")
    return chapter


def source_path(chapter: str) -> Path:
    """``notebooks/<chapter>.py`` of a known chapter (:func:`check_chapter`)."""
    return paths.NOTEBOOKS_DIR / f"{check_chapter(chapter)}.py"


def read_notebook(chapter: str):
    """The chapter source as an nbformat notebook (jupytext)."""
    import jupytext

    return jupytext.read(source_path(chapter))


def default_parameters(chapter: str) -> dict:
    """The defaults of the chapter's ``parameters`` cell (literal assignments only)."""
    notebook = read_notebook(chapter)
    cells = [c for c in notebook.cells if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(cells) != 1:
        raise ParameterError(f"{source_path(chapter)} must have exactly one cell tagged 'parameters'")
    defaults = {}
    for node in ast.parse(cells[0].source).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                defaults[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError as error:
                raise ParameterError(
                    f"{source_path(chapter)}: parameter {node.targets[0].id} must be a literal"
                ) from error
    return defaults


def load_yaml_file(file: Path):
    """``yaml.safe_load`` of ``file``; malformed YAML, text that is not UTF-8 or an unreadable
    file is a ParameterError naming the file."""
    try:
        with open(file, encoding="utf-8") as stream:  # the stream's name appears in the message
            return yaml.safe_load(stream)
    except yaml.YAMLError as error:
        raise ParameterError(f"{file} is not valid YAML: {error}") from None
    except UnicodeDecodeError as error:
        raise ParameterError(f"{file} is not UTF-8 text (byte {error.start}: "
                             f"{error.object[error.start:error.start + 1]!r}); save it as UTF-8") from None
    except OSError as error:
        raise ParameterError(f"cannot read {file}: {error.strerror}") from None


def profile_parameters(chapter: str, profile: str) -> dict:
    """The parameter values of ``notebooks/params/<chapter>.<profile>.yaml`` (may be empty)."""
    if profile not in PROFILES:
        raise ParameterError(f"unknown profile {profile!r}; profiles: {', '.join(PROFILES)}")
    file = paths.PARAMS_DIR / f"{check_chapter(chapter)}.{profile}.yaml"
    if not file.exists():
        raise ParameterError(f"no parameter file {file} for profile {profile!r} of {chapter!r}")
    values = load_yaml_file(file) or {}
    if not isinstance(values, dict):
        raise ParameterError(f"{file} must be a mapping of parameter names to values")
    return values


def schema_path(chapter: str) -> Path:
    """``notebooks/params/<chapter>.schema.yaml``: the declared type and range of every parameter."""
    return paths.PARAMS_DIR / f"{check_chapter(chapter)}.schema.yaml"


JSON_TYPES = {"int": "integer", "float": "number", "bool": "boolean", "str": "string",
              "list": "array", "dict": "object"}
"""The types of the schema files and the JSON Schema type each stands for."""
SCHEMA_KEYS = {"type", "item", "min", "max", "choices", "min_length", "nullable", "pattern"}


def load_schema(chapter: str) -> dict:
    """The chapter's parameter schema: ``{name: spec}`` plus ``may_be_nan`` (a list of glued keys).

    A spec has ``type`` (int|float|bool|str|list|dict) and optionally ``item`` (type of list
    items), ``min``/``max`` (the value, or each list item), ``choices`` (allowed values or list
    items), ``min_length`` (lists, dicts, strings), ``nullable`` and ``pattern`` (a regular
    expression a string, or each string item, must match in full).
    """
    file = schema_path(chapter)
    if not file.exists():
        raise ParameterError(f"no parameter schema {file} for chapter {chapter!r}: every chapter "
                             "declares the type and range of each parameter there")
    schema = load_yaml_file(file) or {}
    if not isinstance(schema, dict):
        raise ParameterError(f"{file} must be a mapping of parameter names to specs")
    schema.setdefault("may_be_nan", [])
    for name, spec in schema.items():
        if name == "may_be_nan":
            if not isinstance(spec, list):
                raise ParameterError(f"{file}: may_be_nan must be a list of glued keys")
            continue
        if (not isinstance(spec, dict) or spec.get("type") not in JSON_TYPES
                or not set(spec) <= SCHEMA_KEYS
                or spec.get("item", "int") not in JSON_TYPES):
            raise ParameterError(
                f"{file}: the spec of {name!r} must be a mapping with type in "
                f"{'|'.join(JSON_TYPES)} and keys among {', '.join(sorted(SCHEMA_KEYS))}; got {spec!r}")
    return schema


def json_schema(spec: dict) -> dict:
    """The JSON Schema of one parameter's ``spec`` (:func:`load_schema`).

    ``min``, ``max``, ``choices`` and ``pattern`` apply to the value, or to each item of a list;
    ``min_length`` to the length of a list, string or dict; ``nullable`` also allows None;
    ``pattern`` must match the whole string. Numbers are finite, a bool is not an int, an int
    is a float (:data:`VALIDATOR`).
    """
    scalar = {}
    if "min" in spec:
        scalar["minimum"] = spec["min"]
    if "max" in spec:
        scalar["maximum"] = spec["max"]
    if "choices" in spec:
        scalar["enum"] = list(spec["choices"])
    if "pattern" in spec:
        scalar["pattern"] = rf"^(?:{spec['pattern']})\Z"
    if spec["type"] == "list":
        items = {**({"type": JSON_TYPES[spec["item"]]} if "item" in spec else {}), **scalar}
        schema = {"type": "array", "items": items}
    else:
        schema = {"type": JSON_TYPES[spec["type"]], **scalar}
    if "min_length" in spec:
        length = {"list": "minItems", "str": "minLength", "dict": "minProperties"}.get(spec["type"])
        if length:
            schema[length] = spec["min_length"]
    if spec.get("nullable"):
        schema["type"] = [schema["type"], "null"]
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    return schema


def _is_int(checker, value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_finite_number(checker, value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_list(checker, value) -> bool:
    return isinstance(value, list | tuple)


VALIDATOR = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_int, "number": _is_finite_number, "array": _is_list}),
)
"""JSON Schema (draft 2020-12) with Python's types: ``integer`` is an int but not a bool (2.0 is
not an int), ``number`` is a finite int or float, ``array`` a list or tuple."""


def _problem(error: jsonschema.ValidationError, spec: dict) -> str:
    """One failure of a value against ``json_schema(spec)``, in the words of the schema file."""
    value, keyword = error.instance, error.validator
    what = "it" if not error.path else f"item {error.path[0]} ({value!r})"
    if keyword == "type":
        type_name = spec["item"] if error.path else spec["type"]
        if value is None:
            return f"{what} must not be null (type {type_name})"
        if isinstance(value, float) and not math.isfinite(value):
            return f"{what} must be a finite number, got {value!r}"
        return f"{what} must be {'a list' if type_name == 'list' else type_name}, got {value!r}"
    if keyword == "minimum":
        return f"{what} must be >= {spec['min']}, got {value!r}"
    if keyword == "maximum":
        return f"{what} must be <= {spec['max']}, got {value!r}"
    if keyword == "enum":
        return f"{what} must be one of {spec['choices']}, got {value!r}"
    if keyword == "pattern":
        return f"{what} must match /{spec['pattern']}/, got {value!r}"
    if keyword == "minItems":
        return f"needs at least {spec['min_length']} item(s), got {value!r}"
    if keyword in ("minLength", "minProperties"):
        return f"needs length >= {spec['min_length']}, got {value!r}"
    return f"{what}: {error.message}"


def validate_parameter(chapter: str, name: str, value, spec: dict, origin: str = "value") -> None:
    """Raise ParameterError when ``value`` breaks the schema ``spec`` of parameter ``name``.

    The message names the chapter, the parameter, where the value came from, the value and what
    is allowed (every failure, not only the first).
    """
    errors = sorted(VALIDATOR(json_schema(spec)).iter_errors(value),
                    key=lambda error: list(error.path))
    if errors:
        raise ParameterError(f"chapter {chapter!r}: parameter {name!r} ({origin}) = {value!r}: "
                             + "; ".join(_problem(error, spec) for error in errors))


def _coerce(chapter: str, name: str, value, spec: dict, origin: str):
    """``value`` read as the schema ``spec`` declares it: a string from ``-p`` is read as YAML
    unless the parameter is a ``str`` (``'200'`` is 200), an int where a ``float`` is declared
    becomes a float. Whether the value then fits is :func:`validate_parameter`'s one check."""
    if isinstance(value, str) and spec["type"] != "str":
        try:
            value = yaml.safe_load(value)  # '-p n_splits 200' arrives as the string '200'
        except yaml.YAMLError as error:
            raise ParameterError(
                f"chapter {chapter!r}: parameter {name!r} ({origin}): {value!r} is not valid YAML "
                f"({str(error).splitlines()[0]})") from None
    if spec["type"] == "float" and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return value


def resolve_parameters(chapter: str, profile: str, overrides: dict | None = None,
                       origin: str = "-p override") -> dict:
    """Profile values, then ``overrides``, checked against the chapter's defaults and schema.

    Unknown names raise ParameterError listing the known ones; values are read as the schema's
    type (``'200'`` -> 200, :func:`_coerce`); then every parameter (the defaults included)
    is checked against ``notebooks/params/<chapter>.schema.yaml`` (:func:`validate_parameter`),
    which must declare exactly the parameters of the chapter. ``origin`` says where the
    overrides came from in error messages (``-p override``, ``grid sweep.yaml``, ...).
    """
    return _resolved(chapter, profile, {name: [value] for name, value in (overrides or {}).items()}, origin)


def check_values(chapter: str, profile: str, values: dict[str, list], origin: str) -> None:
    """Raise ParameterError unless every value of ``values[name]`` is valid for parameter
    ``name`` of the chapter with ``profile``, as :func:`resolve_parameters` checks an override
    (the chapter's files read once, not once per value)."""
    _resolved(chapter, profile, values, origin)


def _resolved(chapter: str, profile: str, candidates: dict[str, list], origin: str) -> dict:
    """:func:`resolve_parameters` with a list of candidate values per override (each checked;
    the last one kept)."""
    defaults = default_parameters(chapter)
    schema = load_schema(chapter)
    declared = set(schema) - {"may_be_nan"}
    if declared != set(defaults):
        raise ParameterError(
            f"{schema_path(chapter)} must declare exactly the parameters of {source_path(chapter)}; "
            f"missing: {sorted(set(defaults) - declared)}, unknown: {sorted(declared - set(defaults))}")
    resolved = {}
    profile_values = {name: [value] for name, value in profile_parameters(chapter, profile).items()}
    for source, values in ((f"profile {profile}", profile_values), (origin, candidates)):
        for name, options in values.items():
            if name not in defaults:
                close = difflib.get_close_matches(name, defaults, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ParameterError(
                    f"unknown parameter {name!r} for chapter {chapter!r} ({source}){hint}; "
                    f"parameters: {', '.join(defaults)}"
                )
            for value in options:
                resolved[name] = _coerce(chapter, name, value, schema[name], source)
                validate_parameter(chapter, name, resolved[name], schema[name], source)
    for name, value in defaults.items():
        if name not in resolved:
            validate_parameter(chapter, name, value, schema[name], "default in the parameters cell")
    return resolved
