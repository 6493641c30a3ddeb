"""The claims ledger: the papers' statements, checked against the numbers a chapter glues.

``data/claims/<study>.yaml`` is a list of claims (schema and rule syntax in
``data/claims/README.md``). A rule is a boolean expression such as
``"vn_cn_adv > max('table9_*_adv') and abs(split_half_all - 0.953) <= 0.005"``; it is parsed with
:mod:`ast` and evaluated by walking a whitelist of node types, never with ``eval``. A claim's
verdict is computed from glued values only:

- ``holds`` / ``fails``: the rule is true / false;
- ``not evaluated``: the rule cannot be decided on this run's values: a key is not glued (another
  profile, say), a value is NaN, or the arithmetic is undefined on them (a division by a glued
  zero, ``inf - inf``); the table's note names the key or the expression;
- ``not testable here``: the ledger says so (``expect: untestable``) with its reason.

An error, or a verdict? A defect of the ledger is a :class:`ClaimError` (a
:class:`~compsem.errors.CompsemError`: the command line prints it as one line), raised when the
ledger is loaded and naming the file, the claim and the field: YAML that does not parse, uses
aliases (``*name``, refused: nested aliases expand exponentially) or is larger than
:data:`MAX_LEDGER_BYTES`; a field that is not text or is longer than :data:`MAX_FIELD_CHARS`; a
rule outside the syntax, longer than :data:`MAX_RULE_CHARS` or nested deeper than
:data:`MAX_RULE_DEPTH`; a pattern anywhere but inside ``min``/``max``/``mean``; a constant that is
not a finite number; a part of a rule without glued keys that cannot be computed (``1 / 0``); an
``ours`` or ``reason`` field that is not a plain key with a number format at most
:data:`MAX_FORMAT_WIDTH` wide. A well-formed rule that cannot be decided on the values of one run
is not the ledger's fault, and not a finding either: it is ``not evaluated``, with the reason.

NaN: any NaN reaching an operator or a function makes the claim ``not evaluated``, wherever it sits
and whatever the operators: every operand is evaluated (no short-circuit of ``and``/``or`` or of a
chained comparison), so ``not (x > 1)`` or ``max('a_*')`` never decide on a NaN.
"""

from __future__ import annotations

import ast
import datetime
import fnmatch
import functools
import math
import re
import statistics
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
import yaml.composer

from compsem import paths
from compsem.errors import CompsemError

CLAIMS_DIR = paths.CLAIMS_DIR
EXPECTATIONS = ("holds", "fails", "untestable")
VERDICTS = ("holds", "fails", "not evaluated", "not testable here")
_REQUIRED = ("id", "chapter", "section", "claim", "quote", "source", "paper", "expect")
_OPTIONAL = ("rule", "reason", "ours")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
MAX_LEDGER_BYTES = 1_000_000  # the largest ledger is 70 kB
MAX_FIELD_CHARS = 4000  # the longest field (a reason) is under 1,000 characters
MAX_RULE_CHARS = 2000  # the longest rule is under 800 characters
MAX_RULE_DEPTH = 40  # nesting of the parsed rule; the deepest rule is 9 levels
MAX_FORMAT_WIDTH = 40  # width and precision of an ``{key:spec}`` field
# a number format: [[fill]align][sign][z][#][0][width][grouping][.precision][type]
_NUMBER_FORMAT = re.compile(
    r"(?:.?[<>=^])?[+\- ]?z?#?0?(?P<width>\d*)[,_]?(?:\.(?P<precision>\d+))?[eEfFgGn%]?")


class ClaimError(CompsemError, ValueError):
    """A ledger file, a claim or a rule is malformed."""


class NotEvaluated(Exception):
    """A well-formed rule cannot be decided on these values (the message says why): the claim is
    ``not evaluated``."""


class MissingQuantity(NotEvaluated, LookupError):
    """A rule refers to a key that is not glued in the values it is evaluated on."""


@dataclass(frozen=True)
class Claim:
    """One claim of a paper (one entry of ``data/claims/<study>.yaml``)."""

    study: str
    id: str
    chapter: str
    section: str
    claim: str
    quote: str
    source: str
    paper: str
    expect: str
    rule: str | None = None
    reason: str | None = None
    ours: str | None = None

    @property
    def anchor(self) -> str:
        """The HTML id Sphinx gives the section heading (docutils ``make_id``)."""
        from docutils.nodes import make_id

        return make_id(self.section)


# ---------------------------------------------------------------- the rule language


_COMPARE = {ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
_ARITHMETIC = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
               ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b}
_AGGREGATES = {"min": min, "max": max, "mean": statistics.fmean}


def _depth(tree: ast.AST) -> int:
    """How deeply the nodes of ``tree`` nest (without recursion)."""
    deepest, stack = 0, [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack += [(child, depth + 1) for child in ast.iter_child_nodes(node)]
    return deepest


def _callees(tree: ast.AST) -> set[int]:
    """The ids of the function names of the calls in ``tree`` (``abs`` in ``abs(x)``)."""
    return {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}


def _without_keys(node: ast.AST, callees: set[int]) -> bool:
    """Whether ``node`` computes from constants only (no glued key, no pattern)."""
    return not any((isinstance(n, ast.Name) and id(n) not in callees)
                   or (isinstance(n, ast.Constant) and isinstance(n.value, str))
                   for n in ast.walk(node))


def parse_rule(rule: str, where: str = "rule") -> ast.Expression:
    """Parse ``rule`` and check that it uses only the documented syntax, within the limits, and
    that it can be evaluated on some values (raises ClaimError)."""
    if len(rule) > MAX_RULE_CHARS:
        raise ClaimError(f"{where}: the rule is {len(rule)} characters long, at most "
                         f"{MAX_RULE_CHARS}: split the claim")
    try:
        tree = ast.parse(rule, mode="eval")
    except SyntaxError as error:
        raise ClaimError(f"{where}: cannot parse rule {rule!r}: {error.msg}") from None
    except (RecursionError, MemoryError):
        raise ClaimError(f"{where}: the rule is nested too deeply to parse: simplify it") from None
    depth = _depth(tree)
    if depth > MAX_RULE_DEPTH:
        raise ClaimError(f"{where}: the rule is nested {depth} levels deep, at most "
                         f"{MAX_RULE_DEPTH}: simplify it")
    allowed = (ast.Expression, ast.Compare, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not,
               ast.USub, ast.UAdd, ast.BinOp, ast.Call, ast.Name, ast.Load, ast.Constant,
               *_COMPARE, *_ARITHMETIC)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            shown = ast.unparse(node) if not isinstance(node, ast.operator | ast.cmpop) else ""
            raise ClaimError(f"{where}: {type(node).__name__} is not allowed in a rule"
                             + (f" ({shown})" if shown else "") + f", in {rule!r}")
        if isinstance(node, ast.Constant) and not isinstance(node.value, int | float | str):
            raise ClaimError(f"{where}: constant {node.value!r} is not a number or a pattern")
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            raise ClaimError(f"{where}: booleans are not allowed in a rule")
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            try:
                finite = math.isfinite(node.value)
            except OverflowError:
                finite = False
            if not finite:
                raise ClaimError(f"{where}: constant {ast.unparse(node)[:40]!r} is not a finite "
                                 "number")
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None)
            if name not in (*_AGGREGATES, "abs", "count") or node.keywords or not node.args:
                raise ClaimError(f"{where}: call {ast.unparse(node)!r} is not allowed; "
                                 "use abs(x), min/max/mean(...) or count(...)")
            if name == "abs" and len(node.args) != 1:
                raise ClaimError(f"{where}: {ast.unparse(node)!r}: abs takes one argument")
    patterns = {id(arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
                and node.func.id in _AGGREGATES for arg in node.args}
    callees = _callees(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in patterns):
            raise ClaimError(f"{where}: pattern {node.value!r} may only stand as an argument of "
                             f"min/max/mean, in {rule!r}")
        if isinstance(node, ast.BinOp | ast.UnaryOp | ast.Call) and _without_keys(node, callees):
            try:  # a part without glued keys must compute
                _value(node, {})
            except NotEvaluated as error:
                raise ClaimError(f"{where}: {error}, whatever the glued values") from None
    for node in ast.walk(tree):  # every part without keys computes: is one a zero divisor?
        if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)
                and _without_keys(node.right, callees) and _value(node.right, {}) == 0):
            raise ClaimError(f"{where}: division by zero in {ast.unparse(node)!r}, whatever the "
                             "glued values")
    return tree


def rule_keys(rule: str, available: Mapping[str, float] | None = None) -> list[str]:
    """The glued keys a rule refers to, in order of appearance (patterns expanded when
    ``available`` is given)."""
    keys: list[str] = []
    tree = parse_rule(rule)
    callees = _callees(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and id(node) not in callees and node.id not in keys:
            keys.append(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and available is not None:
            keys += [k for k in _expand(node.value, available) if k not in keys]
    return keys


def _expand(pattern: str, values: Mapping[str, float]) -> list[str]:
    matched = sorted(k for k in values if fnmatch.fnmatchcase(k, pattern))
    if not matched:
        raise MissingQuantity(pattern)
    return matched


def _read(key: str, values: Mapping[str, float]) -> float:
    """The glued value of ``key`` as a float; NotEvaluated when it is missing, NaN or no number."""
    if key not in values:
        raise MissingQuantity(key)
    try:
        value = float(values[key])
    except (TypeError, ValueError, OverflowError):
        raise NotEvaluated(f"{key} is not a number in this run") from None
    if math.isnan(value):
        raise NotEvaluated(f"{key} is NaN in this run")
    return value


def _computed(node: ast.AST, function, *arguments):
    """``function(*arguments)`` for ``node``; NotEvaluated (naming the expression) when the result
    is undefined (a division by zero, an overflow, a NaN)."""
    try:
        result = function(*arguments)
    except ZeroDivisionError:
        raise NotEvaluated(f"division by zero in {ast.unparse(node)!r}") from None
    except (ArithmeticError, ValueError) as error:
        raise NotEvaluated(f"{ast.unparse(node)!r} is undefined ({error})") from None
    if isinstance(result, float) and math.isnan(result):
        raise NotEvaluated(f"{ast.unparse(node)!r} is NaN")
    return result


def _value(node: ast.AST, values: Mapping[str, float]):
    """Evaluate one node of a parsed rule on ``values`` (numbers and booleans only).

    Every operand is evaluated, whatever the operators (no short-circuit): a missing key or a NaN
    anywhere raises NotEvaluated.
    """
    if isinstance(node, ast.Expression):
        return _value(node.body, values)
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            raise ClaimError(f"pattern {node.value!r} may only stand inside min/max/mean")
        return float(node.value)
    if isinstance(node, ast.Name):
        return _read(node.id, values)
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, values)
        return (not operand) if isinstance(node.op, ast.Not) else (
            -operand if isinstance(node.op, ast.USub) else +operand)
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left, values), _value(node.right, values)
        return _computed(node, _ARITHMETIC[type(node.op)], left, right)
    if isinstance(node, ast.BoolOp):
        results = [bool(_value(v, values)) for v in node.values]
        return all(results) if isinstance(node.op, ast.And) else any(results)
    if isinstance(node, ast.Compare):
        operands = [_value(n, values) for n in (node.left, *node.comparators)]
        return all(_COMPARE[type(op)](left, right)
                   for op, left, right in zip(node.ops, operands, operands[1:], strict=False))
    if isinstance(node, ast.Call):
        name = node.func.id
        if name == "abs":
            return abs(_value(node.args[0], values))
        if name == "count":
            return sum([bool(_value(arg, values)) for arg in node.args])
        items = []
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                items += [_read(k, values) for k in _expand(arg.value, values)]
            else:
                items.append(_value(arg, values))
        return _computed(node, _AGGREGATES[name], items)
    raise ClaimError(f"unexpected {type(node).__name__}")  # parse_rule lets nothing else through


def evaluate_rule(rule: str, values: Mapping[str, float]) -> bool:
    """True or False for ``rule`` on ``values``.

    Raises NotEvaluated (MissingQuantity when a key is not there) when the rule cannot be decided
    on these values: a key is missing, a value is NaN or the arithmetic is undefined.
    """
    return bool(_value(parse_rule(rule), values))


# ---------------------------------------------------------------- the ledger files


def ledger_files() -> list[Path]:
    return sorted(CLAIMS_DIR.glob("*.yaml"))


def _refuse_aliases(text: str) -> None:
    """Raise a YAMLError at the first alias (``*name``) of ``text``, found by the parser alone
    (nothing is constructed): a ledger has no use for aliases, and nested ones expand
    exponentially (a "billion laughs": 16 s and 1.1 GB at 7 levels)."""
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "YAML aliases (*name) are not allowed in a ledger: write the text out",
                event.start_mark)


def _yaml_problem(error: yaml.YAMLError) -> str:
    """A YAML error on one line: the problem and where it is."""
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or str(error)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
    return " ".join(f"{problem}{where}".split())


def _read_entries(file: Path) -> list:
    """The parsed YAML list of ``file``, refusing what is not a small, readable, alias-free
    YAML list (ClaimError naming the file)."""
    try:
        size = file.stat().st_size
        if size > MAX_LEDGER_BYTES:
            raise ClaimError(f"{file}: {size} bytes, at most {MAX_LEDGER_BYTES}: split the ledger")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ClaimError(f"{file}: cannot read the ledger ({error})") from None
    try:
        _refuse_aliases(text)
        entries = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ClaimError(f"{file}: not valid YAML: {_yaml_problem(error)}") from None
    except RecursionError:
        raise ClaimError(f"{file}: YAML nested too deeply: a ledger is a list of flat "
                         "claims") from None
    if not isinstance(entries, list):
        raise ClaimError(f"{file}: must be a list of claims ('- id: ...' entries), "
                         f"not {type(entries).__name__}")
    return entries


def _fields(entry: dict, where: str) -> dict[str, str]:
    """The fields of one ledger entry as text, each checked to be a known field, a scalar and not
    too long (empty fields are left out)."""
    fields = {}
    for key, value in entry.items():
        if key not in _REQUIRED + _OPTIONAL:
            raise ClaimError(f"{where}, field {str(key)!r}: unknown field; fields are "
                             f"{', '.join(_REQUIRED + _OPTIONAL)}")
        if value is None or value == "":
            continue
        if not isinstance(value, str | int | float | datetime.date):
            raise ClaimError(f"{where}, field {key!r}: must be text, not a "
                             f"{type(value).__name__}")
        if len(str(value)) > MAX_FIELD_CHARS:
            raise ClaimError(f"{where}, field {key!r}: {len(str(value))} characters, at most "
                             f"{MAX_FIELD_CHARS}")
        fields[key] = str(value)
    missing = [k for k in _REQUIRED if k not in fields]
    if missing:
        raise ClaimError(f"{where}, field {missing[0]!r}: required but missing (missing: "
                         f"{', '.join(missing)})")
    return fields


@functools.cache
def load(study: str) -> tuple[Claim, ...]:
    """The claims of ``data/claims/<study>.yaml``, validated (a ClaimError names the file, the
    claim and the field, on one line)."""
    file = CLAIMS_DIR / f"{study}.yaml"
    if not file.exists():
        known = [p.stem for p in ledger_files()]
        raise ClaimError(f"no claims file {file}; known studies: {known}")
    entries = _read_entries(file)
    claims, seen = [], set()
    known_chapters = {p.stem for p in paths.NOTEBOOKS_DIR.glob("*.py")}
    for index, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ClaimError(f"{file.name}, claim {index}: must be a mapping of fields, not "
                             f"{type(entry).__name__}")
        label = entry.get("id")
        label = label if isinstance(label, str) and _ID.match(label) else index
        where = f"{file.name}, claim {label!r}"
        entry = _fields(entry, where)
        if not _ID.match(entry["id"]) or entry["id"] in seen:
            raise ClaimError(f"{where}, field 'id': must be unique, lowercase letters, digits and "
                             "'-'")
        seen.add(entry["id"])
        if entry["chapter"] not in known_chapters:
            raise ClaimError(f"{where}, field 'chapter': unknown chapter {entry['chapter']!r}; "
                             f"chapters: {sorted(known_chapters)}")
        if entry["expect"] not in EXPECTATIONS:
            raise ClaimError(f"{where}, field 'expect': must be one of {EXPECTATIONS}")
        if entry["expect"] == "untestable":
            if entry.get("rule"):
                raise ClaimError(f"{where}, field 'rule': an untestable claim has no rule")
        elif not entry.get("rule"):
            raise ClaimError(f"{where}, field 'rule': a testable claim needs a rule")
        else:
            parse_rule(entry["rule"], f"{where}, field 'rule'")
        if entry["expect"] in ("fails", "untestable") and not entry.get("reason"):
            raise ClaimError(f"{where}, field 'reason': expect {entry['expect']} needs a reason")
        for field in ("ours", "reason"):
            if entry.get(field):
                _format_fields(entry[field], where, field)
        claims.append(Claim(study=study, **entry))
    return tuple(claims)


def all_claims() -> list[Claim]:
    """Every claim of every ledger, file by file."""
    return [claim for file in ledger_files() for claim in load(file.stem)]


def for_chapter(chapter: str) -> list[Claim]:
    return [claim for claim in all_claims() if claim.chapter == chapter]


# ---------------------------------------------------------------- verdicts and display


def judge(claim: Claim, values: Mapping[str, float]) -> tuple[str, str]:
    """The claim's verdict on ``values`` (one of :data:`VERDICTS`) and, when it is not evaluated,
    why (the missing keys, the NaN key or the undefined expression)."""
    if claim.expect == "untestable":
        return "not testable here", ""
    try:
        return ("holds" if evaluate_rule(claim.rule, values) else "fails"), ""
    except NotEvaluated as error:
        missing = missing_keys(claim, values)
        return "not evaluated", ("not glued in this run: " + ", ".join(missing) if missing
                                 else str(error))


def verdict(claim: Claim, values: Mapping[str, float]) -> str:
    """The claim's verdict on ``values`` (one of :data:`VERDICTS`)."""
    return judge(claim, values)[0]


def missing_keys(claim: Claim, values: Mapping[str, float]) -> list[str]:
    """Keys or patterns of the rule that ``values`` lacks."""
    if not claim.rule:
        return []
    missing = []
    tree = parse_rule(claim.rule)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in values and node.id not in (
                *_AGGREGATES, "abs", "count"):
            missing.append(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not any(
                fnmatch.fnmatchcase(k, node.value) for k in values):
            missing.append(node.value)
    return missing


def _spec_problem(spec: str) -> str | None:
    """What is wrong with a ``{key:spec}`` format spec (None when it is a number format at most
    :data:`MAX_FORMAT_WIDTH` wide, e.g. ``.3f``, ``+.2f``, ``.1%``, ``,.0f``)."""
    match = _NUMBER_FORMAT.fullmatch(spec)
    if match is None:
        return f"format spec {spec[:40]!r} is not a number format such as '.3f'"
    if any(int(match[part] or 0) > MAX_FORMAT_WIDTH for part in ("width", "precision")):
        return (f"format spec {spec[:40]!r} is too wide: width and precision at most "
                f"{MAX_FORMAT_WIDTH}")
    try:
        format(1.0, spec)
    except ValueError as error:
        return f"format spec {spec!r} is not a number format such as '.3f' ({error})"
    return None


def _format_fields(template: str, where: str, field: str = "ours") -> list[tuple[str, str]]:
    """The (key, format spec) pairs of an ``ours`` or ``reason`` template; only plain names with
    number formats are allowed."""
    fields = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as error:
        raise ClaimError(f"{where}, field {field!r}: bad template: {error}") from None
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or conversion or "{" in (spec or ""):
            raise ClaimError(f"{where}, field {field!r}: {{{name}}} must be a plain glued key")
        problem = _spec_problem(spec or "")
        if problem:
            raise ClaimError(f"{where}, field {field!r}: {{{name}:...}}: {problem}")
        fields.append((name, spec or ""))
    return fields


def _number(value: float, spec: str = "") -> str:
    if spec:
        return format(value, spec)
    if float(value).is_integer() and abs(value) >= 1:
        return f"{value:.0f}"
    return f"{value:.3g}"


def fill(template: str, values: Mapping[str, float], where: str = "template",
         field: str = "ours") -> str:
    """An ``ours`` or ``reason`` template with its ``{key:spec}`` fields replaced by glued values
    (``[key?]`` where a key was not glued); ClaimError for a field that is no plain key with a
    number format (a ledger's templates are checked when it is loaded)."""
    _format_fields(template, where, field)
    out = []
    for literal, name, spec, _ in string.Formatter().parse(template):
        out.append(literal)
        if name is not None:
            out.append(_number(values[name], spec) if name in values else f"[{name}?]")
    return "".join(out)


def ours_text(claim: Claim, values: Mapping[str, float]) -> str:
    """Our side of the claim, from glued values: the ``ours`` template, or ``key = value``."""
    if claim.expect == "untestable":
        return "–"
    if claim.ours:
        return fill(claim.ours, values, f"{claim.study}, claim {claim.id!r}", "ours")
    keys = rule_keys(claim.rule)
    return ", ".join(f"{k} = {_number(values[k])}" for k in keys if k in values) or "–"


def table(claims: list[Claim], values_by_chapter: Mapping[str, Mapping[str, float]],
          link_prefix: str = "") -> list[dict]:
    """One row per claim: id, claim, paper, ours, verdict, expected, link (for rendering)."""
    rows = []
    for claim in claims:
        values = values_by_chapter.get(claim.chapter, {})
        result, note = judge(claim, values)
        # a claim expected to hold has no reason (it may fail in a smoke run)
        if claim.reason and result in ("fails", "not testable here"):
            note = fill(claim.reason, values, f"{claim.study}, claim {claim.id!r}", "reason")
        rows.append({
            "id": claim.id, "study": claim.study, "chapter": claim.chapter, "claim": claim.claim,
            "source": claim.source, "paper": claim.paper, "ours": ours_text(claim, values),
            "verdict": result, "expected": claim.expect, "note": note or "",
            "link": f"{link_prefix}#{claim.anchor}",
        })
    return rows


VERDICT_COLOURS = {"holds": "#1b7837", "fails": "#b2182b", "not evaluated": "#777777",
                   "not testable here": "#8c510a"}


def html_table(rows: list[dict], show_chapter: bool = False) -> str:
    """The Findings table as HTML: claim (linked to its section), paper, ours, verdict."""
    from html import escape

    head = ["claim", "paper", "ours", "verdict"] + (["chapter"] if show_chapter else [])
    out = ['<table class="compsem-findings">',
           "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"]
    for row in rows:
        colour = VERDICT_COLOURS[row["verdict"]]
        title = f' title="{escape(row["note"])}"' if row["note"] else ""
        cells = [
            f'<a href="{escape(row["link"])}">{escape(row["claim"])}</a>'
            f'<br><small>{escape(row["source"])}</small>',
            escape(row["paper"]), escape(row["ours"]),
            f'<b style="color:{colour}"{title}>{escape(row["verdict"])}</b>'
            + (f'<br><small>{escape(row["note"])}</small>' if row["note"] else ""),
        ]
        if show_chapter:
            cells.append(escape(row["chapter"]))
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def summary(rows: list[dict]) -> str:
    """'7 of 9 claims hold, 1 fails (a finding), 1 not testable here.'"""
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    testable = len(rows) - counts["not testable here"]
    parts = [f"{counts['holds']} of {testable} testable claims hold here"]
    if counts["fails"]:
        parts.append(f"{counts['fails']} {'fails' if counts['fails'] == 1 else 'fail'}")
    if counts["not evaluated"]:
        parts.append(f"{counts['not evaluated']} not evaluated in this run")
    if counts["not testable here"]:
        parts.append(f"{counts['not testable here']} not testable here")
    return ", ".join(parts)
