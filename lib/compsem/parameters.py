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
  message naming the parameter, where the value came from, the value and what is allowed;
- a string that spells a number is that number where the schema declares one (``1e3``);
- what the schema cannot say about model parameters (the names a study accepts, a group that
  must be among another, the layers an encoder has) fails in the chapter's first code cell, by
  one call of :func:`check_models`, before any model loads or trains.
"""

from __future__ import annotations

import ast
import difflib
import functools
import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

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
SCHEMA_KEYS = {"type", "item", "min", "max", "choices", "min_length", "length", "repeats", "nullable",
               "pattern"}


def load_schema(chapter: str) -> dict:
    """The chapter's parameter schema: ``{name: spec}`` plus ``may_be_nan`` (a list of glued keys).

    A spec has ``type`` (int|float|bool|str|list|dict) and optionally ``item`` (type of list
    items), ``min``/``max`` (the value, or each list item), ``choices`` (allowed values or list
    items), ``min_length`` (lists, dicts, strings), ``length`` (a list's exact length),
    ``repeats`` (a list whose items may repeat, e.g. shares), ``nullable`` and ``pattern`` (a
    regular expression a string, or each string item, must match in full).
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
        if spec["type"] != "list" and {"length", "repeats"} & set(spec) or {"length", "min_length"} <= set(spec):
            raise ParameterError(f"{file}: the spec of {name!r}: length and repeats apply to lists only, "
                                 f"and length (exact) excludes min_length; got {spec!r}")
    return schema


def json_schema(spec: dict) -> dict:
    """The JSON Schema of one parameter's ``spec`` (:func:`load_schema`).

    ``min``, ``max``, ``choices`` and ``pattern`` apply to the value, or to each item of a list;
    ``min_length`` to the length of a list, string or dict; ``nullable`` also allows None;
    ``pattern`` must match the whole string. The items of a list are distinct (a seed or a model
    given twice would be counted twice, narrowing an interval over them) unless ``repeats`` (a
    list of shares); ``length`` fixes a list's length. Numbers are finite, a
    bool is not an int, an int is a float (:data:`VALIDATOR`).
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
        schema = {"type": "array", "items": items, "uniqueItems": not spec.get("repeats", False)}
        if "length" in spec:
            schema["minItems"] = schema["maxItems"] = spec["length"]
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
    if keyword == "uniqueItems":
        repeated = [item for i, item in enumerate(value) if item in value[:i]]
        return f"lists each item once; {repeated[0]!r} is repeated in {value!r}"
    if keyword in ("minItems", "maxItems") and "length" in spec:
        return f"needs exactly {spec['length']} items, got {value!r}"
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
    unless the parameter is a ``str`` (``'200'`` is 200), a string that spells a number is that
    number where an int or a float (or a list of them) is declared (``'1e3'`` is 1000,
    :func:`_number`), an int where a ``float`` is declared becomes a float. Whether the value
    then fits is :func:`validate_parameter`'s one check."""
    if isinstance(value, str) and spec["type"] != "str":
        try:
            value = yaml.safe_load(value)  # '-p n_splits 200' arrives as the string '200'
        except yaml.YAMLError as error:
            raise ParameterError(
                f"chapter {chapter!r}: parameter {name!r} ({origin}): {value!r} is not valid YAML "
                f"({str(error).splitlines()[0]})") from None
    if spec["type"] == "list" and spec.get("item") in ("int", "float") and isinstance(value, list):
        value = [_number(item, spec["item"]) for item in value]
    value = _number(value, spec["type"])
    if spec["type"] == "float" and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    return value


def _number(value, declared: str | None):
    """A string that spells a number (``'1e3'``) as that number where the schema declares an int
    or a float: YAML 1.1 reads a float only with a dot and a signed exponent (``1.0e+3``), so
    ``-p n_boot 1e3`` arrives as the string ``'1e3'``. An int must be whole (``'1e3'`` -> 1000;
    ``'2.5e0'`` stays a string, which :func:`validate_parameter` then refuses); anything else is
    returned as it is."""
    if declared not in ("int", "float") or not isinstance(value, str):
        return value
    try:
        number = float(value)
    except ValueError:
        return value
    if declared == "float":
        return number
    return int(number) if number.is_integer() else value


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


# --------------------------------------------------------------------------- model parameters
# What the schema cannot say about a chapter's model parameters (which names its study accepts,
# which parameter's models must be among another's), checked by one call in the chapter's first
# code cell, before any model loads or trains.

GRAMMARS = ("sts", "probing", "sts-finetune", "modifiers")
"""The grammars of model specs a chapter's models can be checked against (:func:`model_grammar`)."""


def model_grammar(grammar: str) -> Callable[[str], Any]:
    """The parser of one model spec in ``grammar`` (one of :data:`GRAMMARS`), which raises
    ValueError saying what the study accepts and loads nothing: ``sts`` the STS studies' specs
    (:func:`compsem.sts.scoring.parse`: encoders, compositions ``mean:<vectors>`` ..., baselines
    ``overlap``, ``random``), ``probing`` the probing study's (:func:`compsem.probing.features.encode`:
    encoders and the baselines ``bow``, ``random``), ``sts-finetune`` the models the STS
    fine-tuning takes (:func:`finetune_model`), ``modifiers`` the modifier study's
    (:func:`compsem.modifiers.encoding.parse_spec`: encoders and ``mean:``/``sum:<vectors>``)."""
    if grammar == "sts":
        from compsem.sts import scoring

        return scoring.parse
    if grammar == "probing":
        from compsem.models.spec import parse_spec
        from compsem.probing.features import BASELINES

        return functools.partial(parse_spec, baselines=BASELINES)
    if grammar == "sts-finetune":
        return finetune_model
    if grammar == "modifiers":
        from compsem.modifiers.encoding import parse_spec as parse_modifier_spec

        return parse_modifier_spec
    raise ValueError(f"no grammar of model specs {grammar!r}; grammars: {', '.join(GRAMMARS)}")


def check_models(models: Mapping[str, Any], grammar: str | Mapping[str, str] | None = None,
                 among: Mapping[str, str | Sequence[str]] | None = None,
                 layers: Mapping[str, Mapping[str, Sequence[int]]] | None = None,
                 trainings: Sequence[str] = ()) -> None:
    """Raise ParameterError, naming the parameter, its value and what to give instead, unless a
    chapter's model parameters are valid and fit together.

    ``models``: parameter name -> value: a model spec, a list of specs, or a mapping of an
    encoder to its trainings (a list of at least two different specs, the encoder itself first:
    the one the chapter scores, e.g. ``{"sdae": ["sdae", "sdae:seed1", "sdae:seed2"]}``).

    ``grammar``: the grammar (:func:`model_grammar`) every spec and every training must parse
    in; or parameter name -> grammar, for those parameters only.

    ``among``: parameter name -> the name of another parameter of ``models``, or a list of
    names: every spec of the first (of a mapping: every encoder) must be one of theirs.

    ``layers``: parameter name -> ``{layer parameter: its layers}``: the spec must be an encoder
    with hidden-state layers and have each of them (``<spec>:layer<k>`` in the grammar of
    :func:`compsem.models.spec.parse_spec`: ``minilm`` 0-6, ``mpnet`` 0-12, ``hf:<hub id>``).

    ``trainings``: names of list parameters that are trainings in themselves (at least two
    different specs, an interval is taken over them; no encoder need come first).
    """
    for name, value in models.items():
        if isinstance(value, Mapping):
            for encoder, runs in value.items():
                _check_trainings(name, value, encoder, runs)
        chosen = grammar.get(name) if isinstance(grammar, Mapping) else grammar
        if chosen is None:
            continue
        parse = model_grammar(chosen)
        specs = ([t for runs in value.values() for t in runs]
                 if isinstance(value, Mapping) else _specs(value))
        for spec in specs:
            try:
                parse(spec)
            except ValueError as error:
                raise ParameterError(f"parameter {name!r} = {value!r}: {error}") from None
    for name, others in (among or {}).items():
        others = [others] if isinstance(others, str) else list(others)
        allowed = [spec for other in others for spec in _specs(models[other])]
        missing = [spec for spec in _specs(models[name]) if spec not in allowed]
        if missing:
            where = " or ".join(f"{other} = {models[other]!r}" for other in others)
            raise ParameterError(
                f"parameter {name!r} = {models[name]!r}: {', '.join(map(repr, missing))} not in "
                f"{where}; add {'it' if len(missing) == 1 else 'them'} to {' or '.join(others)} "
                f"or leave {'it' if len(missing) == 1 else 'them'} out of {name}")
    for name, asked in (layers or {}).items():
        _check_layers(name, models[name], asked)
    for name in trainings:
        _check_trainings(name, models[name], None, models[name])


def check_gpu(name: str, value: bool, device: str) -> None:
    """Raise ParameterError, in one line, when parameter ``name`` is true (it trains the
    paper's grid, which takes days on a GPU and years on a CPU) and ``device`` is no CUDA GPU
    torch can see; called in a chapter's first code cell, before any training."""
    import torch

    if not value:
        return
    advice = f"run it on a GPU machine (book/using.md), or give -p {name} false (or -P default)"
    device = str(device)
    if device != "auto" and not device.startswith("cuda"):
        raise ParameterError(f"parameter {name!r} = True trains the paper's grid on a CUDA GPU, "
                             f"not on device = {device!r}: give -p device cuda on a GPU machine, "
                             f"or -p {name} false (or -P default)")
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    index = int(device.partition(":")[2] or 0) if device.startswith("cuda:") else 0
    if index >= count:
        seen = "torch sees none" if count == 0 else f"torch sees {count} (cuda:0 to cuda:{count - 1})"
        raise ParameterError(f"parameter {name!r} = True trains the paper's grid on a GPU, and "
                             f"{seen} (device = {device!r}); {advice}")


def _specs(value) -> list:
    """The model specs of a parameter's value: the value itself, its items, or the encoders a
    mapping gives the trainings of."""
    return list(value) if isinstance(value, Mapping | list | tuple) else [value]


def _check_trainings(name: str, value, encoder: str | None, trainings) -> None:
    """ParameterError unless ``trainings`` lists at least two different specs (an interval is
    taken over them), ``encoder`` first when one is given (the training the chapter scores)."""
    if (not isinstance(trainings, list | tuple) or not trainings
            or not all(isinstance(t, str) and t for t in trainings)
            or len(set(trainings)) < 2 or (encoder is not None and trainings[0] != encoder)):
        example = encoder or "sdae"
        whose, first = ((f"the trainings of {encoder!r}", f", {encoder!r} itself first (the one "
                         f"the chapter scores)") if encoder is not None else ("the trainings", ""))
        raise ParameterError(
            f"parameter {name!r} = {value!r}: {whose} must be a list of at least two different "
            f"model specs{first}, e.g. [{example!r}, '{example}:seed1', '{example}:seed2']; got "
            f"{trainings!r}")


def _check_layers(name: str, base, asked: Mapping[str, Sequence[int]]) -> None:
    """ParameterError unless ``base`` (parameter ``name``) has every layer of ``asked``."""
    from compsem.models.layers import PACKAGED_LAYERS
    from compsem.models.spec import parse_spec

    try:
        parse_spec(f"{base}:layer0")
    except ValueError as error:
        detail = f" ({error})" if str(base).startswith("hf:") else ""  # what is wrong with the hub id
        raise ParameterError(
            f"parameter {name!r} = {base!r} is not an encoder with hidden-state layers: give one "
            f"of {', '.join(PACKAGED_LAYERS)} or hf:<hub id>{detail}") from None
    for layer_parameter, numbers in asked.items():
        for k in numbers:
            try:
                parse_spec(f"{base}:layer{k}")
            except ValueError as error:
                raise ParameterError(f"parameter {layer_parameter!r} = {list(numbers)!r} (layers of "
                                     f"{name} = {base!r}): {error}") from None


def finetune_model(name) -> str:
    """``name`` when :func:`compsem.sts.finetune.load_model` can fine-tune it: an alias of
    :data:`compsem.sts.finetune.MODEL_ALIASES`, a Hugging Face hub id ``owner/name`` or a folder
    with a saved model (:func:`compsem.models.spec.check_hf_source`); else ValueError saying what
    to give (a name without an owner, such as ``mpnett``, is refused: it is far more often a
    misspelt alias than a hub id). The grammar ``sts-finetune`` of :func:`check_models`. Nothing
    is loaded or downloaded."""
    from compsem.models.spec import check_hf_source
    from compsem.sts.finetune import MODEL_ALIASES

    if isinstance(name, str) and name in MODEL_ALIASES:
        return name
    if isinstance(name, str) and name.startswith("hf:"):
        raise ValueError(f"model {name!r}: fine-tuning loads the model with sentence-transformers, "
                         f"which takes the hub id without 'hf:': write {name[3:]!r}")
    if isinstance(name, str) and ("/" in name or Path(name).expanduser().is_dir()):
        try:
            return check_hf_source(name)
        except ValueError:
            pass
    raise ValueError(f"model {name!r} cannot be fine-tuned here; give one of "
                     f"{', '.join(MODEL_ALIASES)}, a Hugging Face hub id (owner/name) or a folder "
                     "with a saved sentence-transformers model")
