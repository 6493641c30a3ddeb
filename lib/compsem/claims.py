"""The claims ledger: the papers' statements, checked against the numbers a chapter glues.

``data/claims/<study>.yaml`` is a list of claims (schema, rule syntax and the decision rules in
``data/claims/README.md``). A claim is decided by two rules declared from the paper before our
numbers are read, ``holds_if`` and ``fails_if``, boolean expressions such as
``"gap_ci_low > 0"`` / ``"gap_ci_high < 0"``; each is parsed with :mod:`ast` and evaluated by
walking a whitelist of node types, never with ``eval``. A claim's verdict is computed from glued
values only:

- ``holds``: ``holds_if`` is true; ``fails``: ``fails_if`` is true (``fails_if: otherwise`` declares
  a two-valued decision: the claim fails whenever it does not hold; ``fails_if: never`` a claim
  that nothing we measure could refute, e.g. a significance claim whose paper declares no size
  of "no difference": it holds or stays inconclusive; ``holds_if: never`` the converse, a
  universal statement that instances can refute but not establish: it fails or stays
  inconclusive);
- ``inconclusive``: neither is true (an interval that straddles the threshold, a floor, too few
  units), or the claim's ``needs`` rule is false: the run lacks what the rules' numbers must
  rest on to mean what the claim's source says they do (two seeds or more, ``"probe_n_seeds >=
  2"``, where the intervals must cover the draw of the sentences; the paper's model among those
  run), and the rules are not read;
- ``not evaluated``: the rules cannot be decided on this run's values: a key is not glued (another
  profile, say), a value is NaN, or the arithmetic is undefined on them (a division by a glued
  zero, ``inf - inf``); the table's note names the key or the expression. Both rules true is a
  defect of the ledger and is reported the same way, with that note;
- ``not testable here``: the ledger says so (``expect: untestable``) with its reason.

Each claim also says what kind of evidence it is (``evidence``: ``reproduction``, ``substitute``
or ``extension``); :func:`outcome` combines the two into the classes the Findings count apart
(:data:`OUTCOMES`), so that an artefact of a substitute is never counted as a contradiction.

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
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
import yaml.composer

from compsem import paths, targets
from compsem.errors import CompsemError

CLAIMS_DIR = paths.CLAIMS_DIR
EXPECTATIONS = ("holds", "fails", "inconclusive", "untestable")
VERDICTS = ("holds", "fails", "inconclusive", "not evaluated", "not testable here")
EVIDENCE = ("reproduction", "substitute", "extension")
CONTRADICTIONS = ("erratum", "result")
"""What a reproduction expected to fail contradicts (field ``contradiction``): ``erratum``, a
number or a description the paper prints that its own data, files or code do not give, what it
concludes from it standing; ``result``, what the paper finds."""
# what a verdict means for the paper, by the kind of evidence (outcome()), in the order of the
# Findings page's counts
OUTCOMES = ("reproduced", "contradicted", "inconclusive", "substitute only", "extension",
            "not testable", "not evaluated")
OTHERWISE = "otherwise"  # ``fails_if: otherwise``: the claim fails whenever it does not hold
NEVER = "never"  # ``fails_if: never``: nothing we glue refutes the claim; ``holds_if: never``: nothing establishes it
_REQUIRED = ("id", "chapter", "section", "claim", "quote", "source", "paper", "evidence",
             "expect")
_OPTIONAL = ("holds_if", "fails_if", "needs", "reason", "ours", "contradiction")
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
    evidence: str
    expect: str
    holds_if: str | None = None
    fails_if: str | None = None
    needs: str | None = None
    reason: str | None = None
    ours: str | None = None
    contradiction: str | None = None

    @property
    def rules(self) -> list[str]:
        """The claim's rules as written, ``needs`` included (``otherwise`` and ``never`` are no
        rules of their own)."""
        return [r for r in (self.needs, self.holds_if, self.fails_if) if r and r not in (OTHERWISE, NEVER)]

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
        if entry["evidence"] not in EVIDENCE:
            raise ClaimError(f"{where}, field 'evidence': must be one of {EVIDENCE}")
        if entry.get("needs"):
            if entry["expect"] == "untestable":
                raise ClaimError(f"{where}, field 'needs': an untestable claim has no rules")
            parse_rule(entry["needs"], f"{where}, field 'needs'")
        for field in ("holds_if", "fails_if"):
            if entry["expect"] == "untestable":
                if entry.get(field):
                    raise ClaimError(f"{where}, field {field!r}: an untestable claim has no rules")
            elif not entry.get(field):
                raise ClaimError(f"{where}, field {field!r}: a testable claim needs holds_if and "
                                 f"fails_if (fails_if: {OTHERWISE} when it cannot be inconclusive, "
                                 f"{NEVER} when nothing we measure could refute it)")
            elif not (entry[field] == NEVER or (field == "fails_if" and entry[field] == OTHERWISE)):
                parse_rule(entry[field], f"{where}, field {field!r}")
        if entry["expect"] == "fails" and entry.get("fails_if") == NEVER:
            raise ClaimError(f"{where}, field 'expect': a claim with fails_if: {NEVER} cannot fail; "
                             f"expect holds or inconclusive, or write a fails_if rule")
        if entry["expect"] == "holds" and entry.get("holds_if") == NEVER:
            raise ClaimError(f"{where}, field 'expect': a claim with holds_if: {NEVER} cannot hold; "
                             f"expect fails or inconclusive, or write a holds_if rule")
        if entry.get("holds_if") == NEVER and entry.get("fails_if") in (NEVER, OTHERWISE):
            raise ClaimError(f"{where}: holds_if: {NEVER} needs a fails_if rule of its own")
        if entry["expect"] in ("fails", "inconclusive", "untestable") and not entry.get("reason"):
            raise ClaimError(f"{where}, field 'reason': expect {entry['expect']} needs a reason")
        for field in ("ours", "reason", "paper"):
            if entry.get(field):
                _format_fields(entry[field], where, field)
        contradicts = entry["expect"] == "fails" and entry["evidence"] == "reproduction"
        if contradicts and entry.get("contradiction") not in CONTRADICTIONS:
            raise ClaimError(f"{where}, field 'contradiction': a reproduction expected to fail says what it "
                             f"contradicts, one of {CONTRADICTIONS} (erratum: a printed number or description "
                             f"the paper's own data, files or code do not give; result: what the paper finds)")
        if entry.get("contradiction") and not contradicts:
            raise ClaimError(f"{where}, field 'contradiction': only a reproduction expected to fail "
                             f"contradicts the paper")
        claims.append(Claim(study=study, **entry))
    return tuple(claims)


def all_claims() -> list[Claim]:
    """Every claim of every ledger, file by file."""
    return [claim for file in ledger_files() for claim in load(file.stem)]


def for_chapter(chapter: str) -> list[Claim]:
    return [claim for claim in all_claims() if claim.chapter == chapter]


def chapter_entries(chapter: str) -> list[dict]:
    """The ledgers' entries for ``chapter`` as written, file by file, not validated (:func:`load`
    validates): what an executed chapter's provenance records by digest."""
    return [entry for file in ledger_files() for entry in _read_entries(file)
            if isinstance(entry, dict) and entry.get("chapter") == chapter]


# ---------------------------------------------------------------- verdicts and display


def judge(claim: Claim, values: Mapping[str, float]) -> tuple[str, str]:
    """The claim's verdict on ``values`` (one of :data:`VERDICTS`) and, when it is not evaluated,
    why (the missing keys, the NaN key, the undefined expression, or rules that overlap); when
    the claim's ``needs`` is false, ``inconclusive`` and why, the rules unread."""
    if claim.expect == "untestable":
        return "not testable here", ""
    try:
        if claim.needs and not evaluate_rule(claim.needs, values):
            return "inconclusive", (f"undecided by rule: the claim needs {claim.needs}, and "
                                    f"this run has " + ", ".join(
                                        f"{key} = {_number(values[key])}" for key in rule_keys(claim.needs, values)
                                        if key in values))
        holds = False if claim.holds_if == NEVER else evaluate_rule(claim.holds_if, values)
        if claim.fails_if == OTHERWISE:
            fails = not holds
        elif claim.fails_if == NEVER:
            fails = False
        else:
            fails = evaluate_rule(claim.fails_if, values)
    except NotEvaluated as error:
        missing = missing_keys(claim, values)
        return "not evaluated", ("not glued in this run: " + ", ".join(missing) if missing
                                 else str(error))
    if holds and fails:
        return "not evaluated", "holds_if and fails_if are both true: the ledger's rules overlap"
    return ("holds" if holds else "fails" if fails else "inconclusive"), ""


def outcome(claim: Claim, verdict_: str) -> str:
    """What a verdict means for the paper (one of :data:`OUTCOMES`): a reproduction that holds
    is *reproduced*, one that fails *contradicted*, one that is undecided *inconclusive*; a
    substitute's verdict is *substitute only* and an extension's *extension*, whatever it is
    (neither bears on the paper's numbers); *not testable* and *not evaluated* as they come."""
    if verdict_ == "not testable here":
        return "not testable"
    if verdict_ == "not evaluated":
        return "not evaluated"
    if claim.evidence == "extension":
        return "extension"
    if claim.evidence == "substitute":
        return "substitute only"
    if verdict_ == "inconclusive":
        return "inconclusive"
    return "reproduced" if verdict_ == "holds" else "contradicted"


def expected_verdict(claim: Claim) -> str:
    """The verdict the book's run gives the claim (its ``expect``, in the words of
    :data:`VERDICTS`): ``tests/test_claims.py`` holds the committed chapters to it."""
    return "not testable here" if claim.expect == "untestable" else claim.expect


def verdict(claim: Claim, values: Mapping[str, float]) -> str:
    """The claim's verdict on ``values`` (one of :data:`VERDICTS`)."""
    return judge(claim, values)[0]


def missing_keys(claim: Claim, values: Mapping[str, float]) -> list[str]:
    """Keys or patterns of the claim's rules that ``values`` lacks."""
    missing = []
    nodes = [node for rule in claim.rules for node in ast.walk(parse_rule(rule))]
    for node in nodes:
        if isinstance(node, ast.Name) and node.id not in values and node.id not in (
                *_AGGREGATES, "abs", "count"):
            missing.append(node.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and not any(
                fnmatch.fnmatchcase(k, node.value) for k in values):
            missing.append(node.value)
    return list(dict.fromkeys(missing))


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


def _paper_field(spec: str, where: str, field: str) -> tuple[str, str]:
    """The target key and number format of a ``{paper:key}`` or ``{paper:key:.3f}`` field
    (ClaimError when the key is no target of ``data/targets/``)."""
    key, _, number_format = spec.partition(":")
    if key not in targets.paper_values():
        raise ClaimError(f"{where}, field {field!r}: {{paper:{key}}}: no target {key!r} in "
                         "data/targets/*.json: add the paper's number there")
    return key, number_format


def _format_fields(template: str, where: str, field: str = "ours") -> list[tuple[str, str]]:
    """The (key, format spec) pairs of an ``ours``, ``reason`` or ``paper`` template: plain glued
    keys with number formats, ``{key:.3f}``, or the paper's number of a target,
    ``{paper:key:.3f}`` (the key ``paper:key``)."""
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
        if name == "paper":
            key, spec = _paper_field(spec or "", where, field)
            name = f"paper:{key}"
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
    (``[key: not computed]`` where this run glued no such key, e.g. a model it did not run); ClaimError for a field that is no plain key with a
    number format (a ledger's templates are checked when it is loaded)."""
    fields = iter(_format_fields(template, where, field))
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(literal)
        if name is not None:
            key, spec = next(fields)
            if key.startswith("paper:"):
                out.append(_number(targets.paper_values()[key.removeprefix("paper:")], spec))
            else:
                out.append(_number(values[key], spec) if key in values else f"[{key}: not computed]")
    return "".join(out)


def ours_text(claim: Claim, values: Mapping[str, float]) -> str:
    """Our side of the claim, from glued values: the ``ours`` template, or ``key = value``."""
    if claim.expect == "untestable":
        return "–"
    if claim.ours:
        return fill(claim.ours, values, f"{claim.study}, claim {claim.id!r}", "ours")
    keys = list(dict.fromkeys(k for rule in claim.rules for k in rule_keys(rule)))
    return ", ".join(f"{k} = {_number(values[k])}" for k in keys if k in values) or "–"


def table(claims: list[Claim], values_by_chapter: Mapping[str, Mapping[str, float]],
          link_prefix: str = "") -> list[dict]:
    """One row per claim: id, claim, paper, ours, verdict, outcome (:func:`outcome`), evidence,
    expected, note, link (for rendering)."""
    rows = []
    for claim in claims:
        values = values_by_chapter.get(claim.chapter, {})
        where = f"{claim.study}, claim {claim.id!r}"
        result, note = judge(claim, values)
        book = expected_verdict(claim)
        if result not in (book, "not evaluated"):  # a run with other parameters or a smoke run
            note = (f"{note}; " if note else "") + f"this run's verdict differs from the book's ({book})" + (
                "; the book's reason for its verdict is not shown" if claim.reason else "")
        elif claim.reason and result in ("fails", "inconclusive", "not testable here"):
            quoted = [key for key, _ in _format_fields(claim.reason, where, "reason")]
            if all(key.startswith("paper:") or key in values for key in quoted):
                reason = fill(claim.reason, values, where, "reason")
            else:  # e.g. a run without a model the reason names
                reason = ("the book's reason for this verdict quotes numbers this run did not "
                          "compute; it is not shown")
            note = f"{note}; {reason}" if note else reason  # after an unmet needs, its note first
        rows.append({
            "id": claim.id, "study": claim.study, "chapter": claim.chapter, "claim": claim.claim,
            "source": claim.source, "paper": fill(claim.paper, values, where, "paper"),
            "ours": ours_text(claim, values), "verdict": result,
            "outcome": outcome(claim, result), "evidence": claim.evidence,
            "expected": claim.expect, "note": note or "", "link": f"{link_prefix}#{claim.anchor}",
            "contradiction": claim.contradiction or "unclassified",
        })
    return rows


VERDICT_COLOURS = {"holds": "#1b7837", "fails": "#b2182b", "inconclusive": "#b8860b",
                   "not evaluated": "#777777", "not testable here": "#8c510a"}
EVIDENCE_LABELS = {"reproduction": "the paper's setting", "substitute": "a substitute",
                   "extension": "our extension"}


def html_table(rows: list[dict], show_chapter: bool = False) -> str:
    """The Findings table as HTML: claim (linked to its section), paper, ours, verdict (with the
    kind of evidence and what it means for the paper)."""
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
            f'<br><small><i>{escape(row["outcome"])}</i> ({escape(EVIDENCE_LABELS[row["evidence"]])})'
            "</small>"
            + (f'<br><small>{escape(row["note"])}</small>' if row["note"] else ""),
        ]
        if show_chapter:
            cells.append(escape(row["chapter"]))
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def outcome_counts(rows: list[dict]) -> dict[str, int]:
    """How many rows fall in each class of :data:`OUTCOMES`."""
    return {name: sum(r["outcome"] == name for r in rows) for name in OUTCOMES}


def summary(rows: list[dict]) -> str:
    """'9 claims: 5 reproduced, 1 contradicted, 1 inconclusive, 1 substitute only, 1 not
    testable' (classes with no claim are left out)."""
    counts = outcome_counts(rows)
    parts = [f"{n} {name}" for name, n in counts.items() if n]
    noun = "claim" if len(rows) == 1 else "claims"
    return f"{len(rows)} {noun}: " + ", ".join(parts) if parts else f"no {noun}"


# ---------------------------------------------------------------- the ledger's own checks

# a reference to a part of a paper or a year, where a number is no quantity
_REFERENCE = re.compile(
    r"(?:§+|\b(?:Tables?|Figures?|Figs?\.|Eqs?\.|Equations?|Chapters?|Ch\.|Sections?|"
    r"Experiments?|Appendix|Appendices|Footnote|p\.|pp\.|lines?|Algorithm)\s*)"
    r"[A-Z]?\d+(?:[.\-–]\d+)*(?:\s*(?:,|and|&|-|–)\s*[A-Z]?\d+(?:[.\-–]\d+)*)*"
    r"|\b(?:19|20)\d\d[a-z]?\b")
# a number standing as a word (not part of a name such as STS3k, GS2011, MiniLM-L6, bf16)
_NUMBER = re.compile(r"(?<![\w.\-])[-+−]?(?:\d+(?:[.,]\d+)*|\.\d+)(?:e[-+]?\d+)?%?(?![\w])")


def hand_typed_numbers(text: str) -> list[str]:
    """The numbers typed into a ``reason`` or ``ours`` text: every number outside its
    ``{key}`` / ``{paper:key}`` fields that is not a reference to a section, table, figure,
    equation or chapter, or a year. A number belongs in data/targets (the paper's) or is glued
    (ours); a reason that types one goes stale when a chapter is re-executed."""
    plain = re.sub(r"\{[^{}]*\}", " ", text)
    plain = _REFERENCE.sub(" ", plain)
    return _NUMBER.findall(plain)


# the paper texts each ledger quotes (``COMPSEM_PAPERS_DIR/<name>.txt``)
PAPER_TEXTS = {
    "sts3k": ("fodor-2024-sts3k-compositionality",),
    "modifiers": ("carvalho-montague-modifiers-arxiv", "carvalho-montague-modifiers-coling2025"),
    "cogs": ("kim-2021-dissertation-cogs",),
    "cogs-auxiliary": ("kim-2021-dissertation-cogs",),
    "probing": ("ettinger-2016-probing-composition", "ettinger-2018-assessing-composition"),
}
PAPER_TEXTS["synthesis"] = tuple(dict.fromkeys(n for names in PAPER_TEXTS.values() for n in names))
_ELLIPSIS = re.compile(r"\s*(?:\.\s?\.\s?\.|…)\s*")


def normalise_text(text: str) -> str:
    """Text as quotes are compared: words re-joined across line-end hyphens, one kind of quote
    mark, dash and space, ligatures spelled out, case kept."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(\w)[-‐­]\s*\n\s*(\w)", r"\1\2", text)  # hyphenation at a line end
    text = text.replace("­", "")
    for marks, plain in (("‘’‛′`", "'"), ("“”„″", '"'), ("‐‑‒–—−", "-")):
        text = re.sub(f"[{marks}]", plain, text)
    return " ".join(text.split())


@functools.cache
def _paper_text(folder: str, name: str) -> str | None:
    file = Path(folder) / f"{name}.txt"
    return normalise_text(file.read_text(encoding="utf-8")) if file.exists() else None


def quote_check(claim: Claim, papers_dir: Path) -> tuple[str, str]:
    """Whether ``claim.quote`` is the words of its paper: ``("verbatim", "")`` when each part of
    it between ellipses is in one of the study's paper texts in ``papers_dir``
    (:data:`PAPER_TEXTS`, compared after :func:`normalise_text`); ``("not found", part)``
    naming the first part that is not; ``("unchecked", names)`` when a part is not in the texts
    at hand but one of the study's papers is not in the folder."""
    names = PAPER_TEXTS.get(claim.study, ())
    texts = {n: _paper_text(str(papers_dir), n) for n in names}
    present = [t for t in texts.values() if t is not None]
    absent = [n for n, t in texts.items() if t is None]
    for part in _ELLIPSIS.split(normalise_text(claim.quote)):
        part = part.strip(" \"'")
        if part and not any(part in t or part.replace("-", "") in t.replace("-", "")
                            for t in present):
            if absent:
                return "unchecked", ", ".join(absent)
            return "not found", part[:160]
    return "verbatim", ""
