"""The claims ledger: the papers' statements, checked against the numbers a chapter glues.

``data/claims/<study>.yaml`` is a list of claims (schema and rule syntax in
``data/claims/README.md``). A rule is a boolean expression such as
``"vn_cn_adv > max('table9_*_adv') and abs(split_half_all - 0.953) <= 0.005"``; it is parsed with
:mod:`ast` and evaluated by walking a whitelist of node types, never with ``eval``. A claim's
verdict is computed from glued values only:

- ``holds`` / ``fails``: the rule is true / false;
- ``not evaluated``: a key of the rule is not glued in this run (another profile, say);
- ``not testable here``: the ledger says so (``expect: untestable``) with its reason.
"""

from __future__ import annotations

import ast
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

from compsem import paths

CLAIMS_DIR = paths.CLAIMS_DIR
EXPECTATIONS = ("holds", "fails", "untestable")
VERDICTS = ("holds", "fails", "not evaluated", "not testable here")
_REQUIRED = ("id", "chapter", "section", "claim", "quote", "source", "paper", "expect")
_OPTIONAL = ("rule", "reason", "ours")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class ClaimError(ValueError):
    """A ledger file, a claim or a rule is malformed."""


class MissingQuantity(LookupError):
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


def parse_rule(rule: str, where: str = "rule") -> ast.Expression:
    """Parse ``rule`` and check that it uses only the documented syntax (raises ClaimError)."""
    try:
        tree = ast.parse(rule, mode="eval")
    except SyntaxError as error:
        raise ClaimError(f"{where}: cannot parse rule {rule!r}: {error.msg}") from None
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
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None)
            if name not in (*_AGGREGATES, "abs", "count") or node.keywords or not node.args:
                raise ClaimError(f"{where}: call {ast.unparse(node)!r} is not allowed; "
                                 "use abs(x), min/max/mean(...) or count(...)")
    return tree


def rule_keys(rule: str, available: Mapping[str, float] | None = None) -> list[str]:
    """The glued keys a rule refers to, in order of appearance (patterns expanded when
    ``available`` is given)."""
    keys: list[str] = []
    callees = set()
    tree = parse_rule(rule)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            callees.add(id(node.func))
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


def _value(node: ast.AST, values: Mapping[str, float]):
    """Evaluate one node of a parsed rule on ``values`` (numbers and booleans only)."""
    if isinstance(node, ast.Expression):
        return _value(node.body, values)
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            raise ClaimError(f"pattern {node.value!r} may only stand inside min/max/mean")
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise MissingQuantity(node.id)
        return float(values[node.id])
    if isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, values)
        return (not operand) if isinstance(node.op, ast.Not) else (
            -operand if isinstance(node.op, ast.USub) else +operand)
    if isinstance(node, ast.BinOp):
        return _ARITHMETIC[type(node.op)](_value(node.left, values), _value(node.right, values))
    if isinstance(node, ast.BoolOp):
        results = [bool(_value(v, values)) for v in node.values]
        return all(results) if isinstance(node.op, ast.And) else any(results)
    if isinstance(node, ast.Compare):
        left = _value(node.left, values)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _value(right_node, values)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call):
        name = node.func.id
        if name == "abs":
            if len(node.args) != 1:
                raise ClaimError("abs takes one argument")
            return abs(_value(node.args[0], values))
        if name == "count":
            return sum(bool(_value(arg, values)) for arg in node.args)
        items = []
        for arg in node.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                items += [float(values[k]) for k in _expand(arg.value, values)]
            else:
                items.append(_value(arg, values))
        return _AGGREGATES[name](items)
    raise ClaimError(f"unexpected {type(node).__name__}")  # parse_rule lets nothing else through


def evaluate_rule(rule: str, values: Mapping[str, float]) -> bool:
    """True or False for ``rule`` on ``values``; MissingQuantity when a key is not there.

    A NaN anywhere makes a comparison false, so a rule over a missing number never holds.
    """
    result = _value(parse_rule(rule), values)
    if isinstance(result, float) and math.isnan(result):
        return False
    return bool(result)


# ---------------------------------------------------------------- the ledger files


def ledger_files() -> list[Path]:
    return sorted(CLAIMS_DIR.glob("*.yaml"))


@functools.cache
def load(study: str) -> tuple[Claim, ...]:
    """The claims of ``data/claims/<study>.yaml``, validated (ClaimError names file and claim)."""
    file = CLAIMS_DIR / f"{study}.yaml"
    if not file.exists():
        known = [p.stem for p in ledger_files()]
        raise ClaimError(f"no claims file {file}; known studies: {known}")
    try:
        entries = yaml.safe_load(file.read_text())
    except yaml.YAMLError as error:
        raise ClaimError(f"{file}: not valid YAML: {error}") from None
    if not isinstance(entries, list):
        raise ClaimError(f"{file}: must be a list of claims")
    claims, seen = [], set()
    known_chapters = {p.stem for p in paths.NOTEBOOKS_DIR.glob("*.py")}
    for index, entry in enumerate(entries):
        where = f"{file.name}, claim {index + 1}"
        if not isinstance(entry, dict):
            raise ClaimError(f"{where}: must be a mapping")
        where = f"{file.name}, claim {entry.get('id', index + 1)!r}"
        missing = [k for k in _REQUIRED if not entry.get(k)]
        unknown = sorted(set(entry) - set(_REQUIRED) - set(_OPTIONAL))
        if missing or unknown:
            raise ClaimError(f"{where}: missing {missing} / unknown fields {unknown}")
        entry = {k: str(v) for k, v in entry.items()}
        if not _ID.match(entry["id"]) or entry["id"] in seen:
            raise ClaimError(f"{where}: id must be unique, lowercase letters, digits and '-'")
        seen.add(entry["id"])
        if entry["chapter"] not in known_chapters:
            raise ClaimError(f"{where}: unknown chapter {entry['chapter']!r}; "
                             f"chapters: {sorted(known_chapters)}")
        if entry["expect"] not in EXPECTATIONS:
            raise ClaimError(f"{where}: expect must be one of {EXPECTATIONS}")
        if entry["expect"] == "untestable":
            if entry.get("rule"):
                raise ClaimError(f"{where}: an untestable claim has no rule")
        elif not entry.get("rule"):
            raise ClaimError(f"{where}: a testable claim needs a rule")
        else:
            parse_rule(entry["rule"], where)
        if entry["expect"] in ("fails", "untestable") and not entry.get("reason"):
            raise ClaimError(f"{where}: expect {entry['expect']} needs a reason")
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


def verdict(claim: Claim, values: Mapping[str, float]) -> str:
    """The claim's verdict on ``values`` (one of :data:`VERDICTS`)."""
    if claim.expect == "untestable":
        return "not testable here"
    try:
        return "holds" if evaluate_rule(claim.rule, values) else "fails"
    except MissingQuantity:
        return "not evaluated"


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


def _format_fields(template: str, where: str, field: str = "ours") -> list[tuple[str, str]]:
    """The (key, format spec) pairs of an ``ours`` or ``reason`` template; only plain names are
    allowed."""
    fields = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as error:
        raise ClaimError(f"{where}: bad {field!r} template {template!r}: {error}") from None
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or conversion or "{" in (spec or ""):
            raise ClaimError(f"{where}: {field!r} field {{{name}}} must be a plain glued key")
        fields.append((name, spec or ""))
    return fields


def _number(value: float, spec: str = "") -> str:
    if spec:
        return format(value, spec)
    if float(value).is_integer() and abs(value) >= 1:
        return f"{value:.0f}"
    return f"{value:.3g}"


def fill(template: str, values: Mapping[str, float]) -> str:
    """An ``ours`` or ``reason`` template with its ``{key:spec}`` fields replaced by glued values
    (``[key?]`` where a key was not glued)."""
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
        return fill(claim.ours, values)
    keys = rule_keys(claim.rule)
    return ", ".join(f"{k} = {_number(values[k])}" for k in keys if k in values) or "–"


def table(claims: list[Claim], values_by_chapter: Mapping[str, Mapping[str, float]],
          link_prefix: str = "") -> list[dict]:
    """One row per claim: id, claim, paper, ours, verdict, expected, link (for rendering)."""
    rows = []
    for claim in claims:
        values = values_by_chapter.get(claim.chapter, {})
        result = verdict(claim, values)
        note = ""
        if claim.reason and result in ("fails", "not testable here"):  # a claim expected to
            note = fill(claim.reason, values)  # hold has no reason (it may fail in a smoke run)
        if result == "not evaluated":
            note = "not glued in this run: " + ", ".join(missing_keys(claim, values))
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
