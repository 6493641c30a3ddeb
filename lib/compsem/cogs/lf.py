"""COGS logical forms: parse, write back, check, order canonically and compare by meaning.

The representation language is the one of Kim (2021, Section 4.4.2; Kim & Linzen 2020, Section 3),
a conjunctive, skolemised, neo-Davidsonian form in the released whitespace-tokenised spelling::

    * cookie ( x _ 3 ) ; eat . agent ( x _ 1 , John ) AND eat . theme ( x _ 1 , x _ 3 )

* ``* noun ( x _ i ) ;`` -- a definite description (the asterisk stands for iota); all of them come
  first, separated by ``;`` (Table 4-2 and the paragraph after it);
* ``noun ( x _ i )`` -- an indefinite, an ordinary conjunct; conjuncts are joined by ``AND``;
* ``verb . role ( x _ e , arg )`` -- an event role (``agent``, ``theme``, ``recipient``, ``ccomp``,
  ``xcomp``), ``x _ e`` being the verb's 0-based token position;
* ``noun . nmod . prep ( x _ i , x _ j )`` -- a PP modifier of a noun;
* proper names are bare constants (``Emma``);
* primitives (the lexical-meaning rows of ``train.tsv``) bind ``a``, ``b``, ``e`` with lambdas:
  ``LAMBDA a . LAMBDA b . LAMBDA e . touch . agent ( e , b ) AND touch . theme ( e , a )``, or are
  a bare constant (``Layla``).

:func:`parse` turns a string into a :class:`LogicalForm`; :meth:`LogicalForm.to_string` writes it
back byte-identically (checked on all 51,155 released rows). :func:`canonical` re-orders conjuncts
by the dataset's ordering rule, :func:`equivalent` compares two forms up to conjunct order and a
renaming of variables (the idea behind ReCOGS, Wu et al. 2023), beside plain exact match
(:func:`exact_match`, Kim 2021's metric).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

ROLES = ("agent", "theme", "recipient", "ccomp", "xcomp")
"""Event roles of the released data (Kim 2021, Section 4.4.2)."""

PREPOSITIONS = ("in", "on", "beside")
"""The prepositions of ``noun . nmod . prep`` conjuncts in the released data."""

_PUNCT = {"(", ")", ",", ".", ";", "*", "_", "AND", "LAMBDA"}
_INT = re.compile(r"0|[1-9][0-9]*")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9'\-]*")


class LFParseError(ValueError):
    """A string that is not a COGS logical form; the message names the offending token."""


@dataclass(frozen=True, order=True)
class Term:
    """An argument: ``kind`` is ``"var"`` (a Skolem constant ``x _ i``, ``value`` the int ``i``),
    ``"const"`` (a proper name) or ``"bound"`` (a lambda-bound variable ``a``/``b``/``e``)."""

    kind: str
    value: int | str

    def to_string(self) -> str:
        """The released spelling: ``x _ 3``, ``Emma``, ``a``."""
        return f"x _ {self.value}" if self.kind == "var" else str(self.value)

    @property
    def is_var(self) -> bool:
        return self.kind == "var"


@dataclass(frozen=True)
class Atom:
    """One predication, ``predicate`` split at the dots (``("eat", "agent")``,
    ``("cake", "nmod", "on")``, ``("cat",)``) applied to ``args``."""

    predicate: tuple[str, ...]
    args: tuple[Term, ...]

    def to_string(self) -> str:
        return (
            " . ".join(self.predicate) + " ( " + " , ".join(a.to_string() for a in self.args) + " )"
        )

    @property
    def lemma(self) -> str:
        """The content word: the noun or verb lemma (``eat`` of ``eat . agent``)."""
        return self.predicate[0]

    @property
    def kind(self) -> str:
        """``"noun"`` (``cat ( x )``), ``"role"`` (``eat . agent``), ``"nmod"``
        (``cake . nmod . on``) or ``"other"``."""
        if len(self.predicate) == 1 and len(self.args) == 1:
            return "noun"
        if len(self.predicate) == 2 and len(self.args) == 2 and self.predicate[1] in ROLES:
            return "role"
        if (
            len(self.predicate) == 3
            and len(self.args) == 2
            and self.predicate[1] == "nmod"
            and self.predicate[2] in PREPOSITIONS
        ):
            return "nmod"
        return "other"


@dataclass(frozen=True)
class LogicalForm:
    """A parsed COGS logical form.

    ``lambdas``: the lambda-bound variables in prefix order (primitives only, else empty);
    ``definites``: the ``* noun ( x _ i )`` terms, in written order; ``conjuncts``: the
    ``AND``-joined atoms, in written order; ``constant``: the whole form when it is a bare
    proper name (the proper-noun primitives, e.g. ``Layla``), else None.
    """

    lambdas: tuple[str, ...] = ()
    definites: tuple[Atom, ...] = ()
    conjuncts: tuple[Atom, ...] = ()
    constant: str | None = None

    def to_string(self) -> str:
        """The released whitespace-tokenised spelling (inverse of :func:`parse`)."""
        parts = [f"LAMBDA {v} ." for v in self.lambdas]
        if self.constant is not None:
            parts.append(self.constant)
        else:
            parts.extend(f"* {d.to_string()} ;" for d in self.definites)
            parts.append(" AND ".join(c.to_string() for c in self.conjuncts))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_string()

    @property
    def atoms(self) -> tuple[Atom, ...]:
        """Definites then conjuncts."""
        return self.definites + self.conjuncts

    @property
    def variables(self) -> set[int]:
        """The Skolem indices ``i`` of every ``x _ i`` in the form."""
        return {t.value for a in self.atoms for t in a.args if t.kind == "var"}

    @property
    def is_primitive(self) -> bool:
        """A lexical-meaning row (lambda-bound or a bare proper name)."""
        return bool(self.lambdas) or self.constant is not None


class _Tokens:
    """A cursor over whitespace tokens with error messages that name the token and position."""

    def __init__(self, text: str):
        self.text = text
        self.toks = text.split(" ")
        self.i = 0

    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def fail(self, expected: str):
        tok = self.peek()
        where = "end of input" if tok is None else f"token {tok!r} at position {self.i}"
        raise LFParseError(f"expected {expected}, got {where} in {self.text!r}")

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            self.fail(repr(expected) if expected else "a token")
        self.i += 1
        return tok

    def name(self, what: str) -> str:
        tok = self.peek()
        if tok is None or tok in _PUNCT or not _NAME.fullmatch(tok):
            self.fail(what)
        self.i += 1
        return tok


def _term(toks: _Tokens, bound: tuple[str, ...]) -> Term:
    tok = toks.peek()
    if tok == "x" and toks.peek(1) == "_":
        toks.i += 2
        num = toks.peek()
        if num is None or not _INT.fullmatch(num):
            toks.fail("a variable index (x _ <int>)")
        toks.i += 1
        return Term("var", int(num))
    name = toks.name("an argument (x _ i, a proper name or a bound variable)")
    return Term("bound", name) if name in bound else Term("const", name)


def _atom(toks: _Tokens, bound: tuple[str, ...]) -> Atom:
    pred = [toks.name("a predicate name")]
    while toks.peek() == ".":
        toks.i += 1
        pred.append(toks.name("a predicate name after '.'"))
    toks.take("(")
    args = [_term(toks, bound)]
    while toks.peek() == ",":
        toks.i += 1
        args.append(_term(toks, bound))
    toks.take(")")
    return Atom(tuple(pred), tuple(args))


def parse(text: str) -> LogicalForm:
    """Parse a COGS logical form (Kim 2021, Section 4.4.2 and Table 4-2, in the released
    tokenisation). Raises :class:`LFParseError` naming the offending token.

    >>> parse("* cat ( x _ 1 ) ; run . agent ( x _ 2 , x _ 1 )").conjuncts[0].predicate
    ('run', 'agent')
    """
    if not isinstance(text, str):
        raise LFParseError(f"expected a string, got {type(text).__name__}")
    if text == "" or text != text.strip() or "  " in text:
        raise LFParseError(
            f"expected single-space-separated tokens without leading/trailing space, got {text!r}"
        )
    toks = _Tokens(text)
    lambdas: list[str] = []
    while toks.peek() == "LAMBDA":
        toks.i += 1
        var = toks.name("a bound variable after LAMBDA")
        if var in lambdas:
            toks.i -= 1
            toks.fail("a fresh bound variable")
        lambdas.append(var)
        toks.take(".")
    bound = tuple(lambdas)
    # a bare constant (proper-noun primitive)
    if len(toks.toks) - toks.i == 1 and not lambdas:
        const = toks.name("a proper name")
        return LogicalForm(constant=const)
    definites = []
    while toks.peek() == "*":
        toks.i += 1
        definites.append(_atom(toks, bound))
        toks.take(";")
    conjuncts = [_atom(toks, bound)]
    while toks.peek() == "AND":
        toks.i += 1
        conjuncts.append(_atom(toks, bound))
    if toks.peek() is not None:
        toks.fail("'AND' or end of input")
    return LogicalForm(tuple(lambdas), tuple(definites), tuple(conjuncts))


def try_parse(text: str) -> LogicalForm | None:
    """:func:`parse`, or None when ``text`` is not a logical form."""
    try:
        return parse(text)
    except LFParseError:
        return None


def problems(lf: LogicalForm | str) -> list[str]:
    """What makes a parsed form ill-formed as a COGS meaning (empty list: well-formed).

    Beyond the syntax that :func:`parse` checks: definites are unary predicates of a variable;
    nouns are unary, event roles (``verb . role``) and ``noun . nmod . prep`` binary with a
    variable first argument; lambda-bound variables are all used and nothing else is unbound;
    a noun is never both definite and indefinite, and each variable has at most one noun.
    """
    if isinstance(lf, str):
        lf = parse(lf)
    out = []
    if lf.constant is not None:
        return out
    for d in lf.definites:
        if d.kind != "noun" or d.args[0].kind != "var":
            out.append(f"definite {d.to_string()!r} is not a noun predicate of x _ i")
    used_bound = set()
    nouns: Counter = Counter()
    for a in lf.atoms:
        for t in a.args:
            if t.kind == "bound":
                used_bound.add(t.value)
        kind = a.kind
        if kind == "other":
            out.append(f"conjunct {a.to_string()!r} is neither a noun, an event role nor an nmod")
            continue
        first = a.args[0]
        if kind == "noun":
            if first.kind == "const":
                out.append(f"noun predicate {a.to_string()!r} applied to a proper name")
            else:
                nouns[first] += 1
        elif first.kind == "const":
            out.append(f"{a.to_string()!r}: first argument must be an event/entity variable")
    if lf.lambdas and used_bound != set(lf.lambdas):
        out.append(f"bound variables {sorted(set(lf.lambdas) - used_bound)} are never used")
    for term, n in nouns.items():
        if n > 1:
            out.append(f"{term.to_string()} has {n} noun predicates")
    return out


def _parsed(form: str | LogicalForm) -> LogicalForm | None:
    """``form`` when it is already parsed, else :func:`try_parse` of it."""
    return form if isinstance(form, LogicalForm) else try_parse(form)


def is_well_formed(text: str | LogicalForm) -> bool:
    """True when ``text`` parses (:func:`parse`; or is a parsed form) and has no
    :func:`problems`. Kim (2021, Section 4.5.3) counts outputs not ending in ``)`` as ill-formed;
    this check is stricter."""
    lf = _parsed(text)
    return lf is not None and not problems(lf)


# --------------------------------------------------------------------------------------------
# canonical order
# --------------------------------------------------------------------------------------------


def _position(term: Term, positions: Mapping[str, int] | None) -> float:
    if term.kind == "var":
        return term.value
    if term.kind == "const" and positions is not None and term.value in positions:
        return positions[term.value]
    return -1.0  # bound variables and unplaced names: first


def order_key(atom: Atom, positions: Mapping[str, int] | None = None) -> tuple:
    """The sort key of the dataset's conjunct order (verified on all 24,012
    non-primitive training rows of the released train.tsv): index of the first argument; then a unary noun
    predicate before binary ones; then the sentence position of the second argument.
    ``positions`` maps proper names to their token positions (needed to place them)."""
    first = _position(atom.args[0], positions)
    if len(atom.args) == 1:
        return (first, 0, 0.0)
    return (first, 1, _position(atom.args[1], positions))


def name_positions(sentence: str) -> dict[str, int]:
    """Token position of each capitalised word of a sentence (the proper names; COGS has no
    sentence-initial capitalised common noun after lower-casing, see :mod:`compsem.cogs.interpret`)."""
    out: dict[str, int] = {}
    for i, tok in enumerate(sentence.split()):
        if tok[:1].isupper() and tok not in ("A", "The") and tok not in out:
            out[tok] = i
    return out


def _event_ranks(lf: LogicalForm) -> dict[tuple[int, str], int]:
    """Surface rank of each role of the events that have a proper-name argument, for ordering
    without the sentence (a proper name carries no index in the form).

    An event's arguments stand in the order of its construction's template: active
    ``agent < recipient < theme`` (double object) or ``agent < theme < recipient`` (PP dative),
    then ``ccomp``/``xcomp``; passive and unaccusative ``subject < other object < agent``
    (by-phrase). The voice and the dative alternant are read off the indices that the form
    does carry (a subject before the verb, a by-phrase agent after it, the offset of the verb
    from its clause start, the object right after the verb). Where the form cannot tell (two
    proper-name objects, ``The buyer forwarded Emma Charlie`` vs ``... Charlie to Emma``, whose
    forms differ only in conjunct order) the written order of the two is kept.
    """
    by_event: dict[int, dict[str, Term]] = {}
    written: dict[tuple[int, str], int] = {}
    for n, a in enumerate(lf.conjuncts):
        if a.kind == "role" and a.args[0].kind == "var":
            by_event.setdefault(a.args[0].value, {})[a.predicate[1]] = a.args[1]
            written[(a.args[0].value, a.predicate[1])] = n
    start: dict[int, int] = {}
    for e, roles in by_event.items():
        if "ccomp" in roles and roles["ccomp"].kind == "var":
            start[roles["ccomp"].value] = e + 2  # "<verb> that <subject> ..."
    out: dict[tuple[int, str], int] = {}
    for e, roles in by_event.items():
        if not any(t.kind == "const" for t in roles.values()):
            continue
        agent, rec, theme = roles.get("agent"), roles.get("recipient"), roles.get("theme")

        def before(t, e=e):
            return t is not None and t.kind == "var" and t.value < e

        if agent is None:
            passive = True
        elif agent.kind == "var":
            passive = agent.value > e
        elif before(rec) or before(theme):
            passive = True
        else:  # a proper-name subject: "Emma V-ed" (offset 1) or "Emma was V-ed" (offset 2)
            passive = e - start.get(e, 0) >= 2
        if passive:
            # the subject is the object before the verb; else the one that is not after it
            if before(rec) or before(theme):
                rec_first = before(rec)
            elif rec is None or theme is None:
                rec_first = False
            elif theme.kind == "var" or rec.kind == "var":
                rec_first = theme.kind == "var"
            else:
                rec_first = _first(written, e)
            objects = ["recipient", "theme"] if rec_first else ["theme", "recipient"]
            template = objects + ["ccomp", "xcomp", "agent"]
        else:
            template = ["agent"] + _dative_order(rec, theme, e, written) + ["ccomp", "xcomp"]
        for rank, role in enumerate(template):
            out[(e, role)] = rank
    return out


def _first(written: Mapping[tuple[int, str], int], e: int) -> bool:
    """True when the recipient of ``e`` is written before its theme."""
    return written.get((e, "recipient"), 0) < written.get((e, "theme"), 0)


def _dative_order(rec: Term | None, theme: Term | None, e: int, written) -> list[str]:
    """Object order of an active event: double object (recipient first) or PP dative."""
    if rec is None or theme is None:
        return ["theme", "recipient"]
    if rec.kind == "var" and theme.kind == "var":
        do = rec.value < theme.value
    elif theme.kind == "var":  # "V Emma the cake" vs "V the cake to Emma" (theme at e + 2)
        do = theme.value != e + 2
    elif rec.kind == "var":  # "V the cat Emma" (recipient at e + 2) vs "V Emma to the cat"
        do = rec.value == e + 2
    else:
        do = _first(written, e)
    return ["recipient", "theme"] if do else ["theme", "recipient"]


def canonical_form(lf: LogicalForm, sentence: str | None = None) -> LogicalForm:
    """``lf`` with definites sorted by index and conjuncts in the dataset's order
    (:func:`order_key`). Proper names are placed by their position in ``sentence``; without the
    sentence, the arguments of an event that has a proper-name argument are ordered by their
    surface slot (:func:`_event_ranks`). Primitives are returned unchanged."""
    if lf.constant is not None or lf.lambdas:
        return lf
    defs = tuple(sorted(lf.definites, key=lambda a: order_key(a)))
    if sentence is not None:
        pos = name_positions(sentence)
        conj = tuple(sorted(lf.conjuncts, key=lambda a: order_key(a, pos)))
    else:
        ranks = _event_ranks(lf)

        def key(a: Atom) -> tuple:
            if a.kind == "role" and a.args[0].kind == "var":
                rank = ranks.get((a.args[0].value, a.predicate[1]))
                if rank is not None:
                    return (a.args[0].value, 1, rank)
            return order_key(a)

        conj = tuple(sorted(lf.conjuncts, key=key))
    return LogicalForm(lf.lambdas, defs, conj)


def canonical(text: str, sentence: str | None = None) -> str:
    """``text`` re-written in canonical conjunct order (see :func:`canonical_form`)."""
    return canonical_form(parse(text), sentence).to_string()


# --------------------------------------------------------------------------------------------
# equivalence
# --------------------------------------------------------------------------------------------


def exact_match(a: str, b: str) -> bool:
    """Kim (2021)'s metric: the two token sequences are identical (whitespace-normalised)."""
    return a.split() == b.split()


def _signature_atoms(lf: LogicalForm) -> list[tuple]:
    """Atoms as (definite?, predicate, args) with variables abstracted to slots."""
    out = []
    for flag, atoms in ((True, lf.definites), (False, lf.conjuncts)):
        for a in atoms:
            out.append((flag, a.predicate, a.args))
    return out


def _var_id(t: Term, lambdas: tuple[str, ...]):
    """Renameable variables: Skolem ``x _ i`` and lambda-bound names; constants are rigid."""
    if t.kind == "var":
        return ("x", t.value)
    if t.kind == "bound":
        return ("b", t.value)
    return None


def _rigid(t: Term):
    return ("const", t.value) if t.kind == "const" else ("?",)


def _colours(atoms: list[tuple], lambdas: tuple[str, ...]) -> dict:
    """Colour refinement (1-dimensional Weisfeiler-Lehman) of the variables of a form."""
    occ: dict = {}
    for flag, pred, args in atoms:
        shape = (flag, pred, tuple(_rigid(t) for t in args))
        for k, t in enumerate(args):
            v = _var_id(t, lambdas)
            if v is not None:
                occ.setdefault(v, []).append((shape, k, args))
    colour = {v: ("lam", lambdas.index(v[1])) if v[0] == "b" else ("x",) for v in occ}
    for _ in range(len(occ) + 1):
        new = {}
        for v, uses in occ.items():
            sig = []
            for shape, k, args in uses:
                others = tuple(
                    colour.get(_var_id(t, lambdas), None) if _var_id(t, lambdas) else None
                    for t in args
                )
                sig.append((shape, k, others))
            new[v] = (colour[v], tuple(sorted(sig, key=repr)))
        # compress
        table = {c: n for n, c in enumerate(sorted(set(new.values()), key=repr))}
        new = {v: table[c] for v, c in new.items()}
        if len(set(new.values())) == len(set(colour.values())):
            colour = new
            break
        colour = new
    return colour


def equivalent(a: str | LogicalForm, b: str | LogicalForm) -> bool:
    """True when ``a`` and ``b`` mean the same up to the order of conjuncts (and of definites)
    and a consistent one-to-one renaming of variables (``x _ i`` indices and lambda-bound
    names, the latter position by position in the lambda prefix); constants, predicates,
    roles and definiteness must agree. Conjuncts form a multiset (a repeated conjunct is not
    dropped). False if either does not parse. This is the order- and index-insensitive reading
    that ReCOGS (Wu et al. 2023) proposes beside the exact match of Kim (2021). Either may be
    given already parsed."""
    la, lb = _parsed(a), _parsed(b)
    if la is None or lb is None:
        return False
    return equivalent_forms(la, lb)


EQUIVALENCE_MAX_STEPS = 20_000
"""Most candidate assignments :func:`equivalent_forms` tries before it gives up (False with a
warning): look-alike forms that colour refinement cannot tell apart (e.g. one cycle of 22
variables against two of 11) would otherwise take exponential time, and a model's garbage output
must not stall an evaluation."""


def equivalent_forms(la: LogicalForm, lb: LogicalForm, max_steps: int | None = None) -> bool:
    """:func:`equivalent` on parsed forms.

    The variable bijection is searched variable by variable, each next variable the one most
    connected to those already mapped (so a wrong choice is refuted early), within
    ``max_steps`` candidate assignments (default :data:`EQUIVALENCE_MAX_STEPS`); past that the
    answer is False with a :class:`RuntimeWarning`.
    """
    if max_steps is None:
        max_steps = EQUIVALENCE_MAX_STEPS
    if la.constant is not None or lb.constant is not None:
        return la.constant == lb.constant and la.lambdas == lb.lambdas
    if len(la.lambdas) != len(lb.lambdas):
        return False
    if len(la.definites) != len(lb.definites) or len(la.conjuncts) != len(lb.conjuncts):
        return False
    if la.lambdas == lb.lambdas and Counter(la.definites) == Counter(lb.definites):
        if Counter(la.conjuncts) == Counter(lb.conjuncts):
            return True  # the same up to order, no renaming needed
    sa, sb = _signature_atoms(la), _signature_atoms(lb)

    def shape(x):
        return (x[0], x[1], tuple(_rigid(t) for t in x[2]))

    if Counter(map(shape, sa)) != Counter(map(shape, sb)):
        return False
    ca, cb = _colours(sa, la.lambdas), _colours(sb, lb.lambdas)
    if Counter(ca.values()) != Counter(cb.values()):
        return False
    # the bound variables map position by position
    mapping: dict = {}
    for x, y in zip(la.lambdas, lb.lambdas, strict=True):
        mapping[("b", x)] = ("b", y)
    target_key = Counter(
        (f, p, tuple(_var_id(t, lb.lambdas) or _rigid(t) for t in args)) for f, p, args in sb
    )
    va = sorted(ca, key=lambda v: (sum(1 for w in ca if ca[w] == ca[v]), repr(v)))
    cands = {v: [w for w in cb if cb[w] == ca[v]] for v in va}
    atoms_a = [(f, p, args) for f, p, args in sa]

    def image(args):
        return tuple(
            mapping.get(_var_id(t, la.lambdas)) if _var_id(t, la.lambdas) else _rigid(t)
            for t in args
        )

    def consistent() -> bool:
        seen = Counter()
        for f, p, args in atoms_a:
            im = image(args)
            if None in im:
                continue
            seen[(f, p, im)] += 1
            if seen[(f, p, im)] > target_key.get((f, p, im), 0):
                return False
        return True

    used = set(mapping.values())
    for v in va:  # bound variables are fixed already
        if v in mapping and mapping[v] not in cands[v]:
            return False

    free = _connected_order([v for v in va if v not in mapping], set(mapping), atoms_a,
                            la.lambdas, cands)
    steps = [0]

    def search(k: int) -> bool:
        if k == len(free):
            return consistent()
        v = free[k]
        for w in cands[v]:
            if w in used:
                continue
            steps[0] += 1
            if steps[0] > max_steps:
                raise _SearchBudgetExceeded
            mapping[v] = w
            used.add(w)
            if consistent() and search(k + 1):
                return True
            del mapping[v]
            used.discard(w)
        return False

    try:
        return consistent() and search(0)
    except _SearchBudgetExceeded:
        import warnings

        warnings.warn(
            f"LF equivalence undecided after {max_steps} candidate assignments "
            f"({len(free)} variables that colour refinement cannot tell apart); counted as "
            "not equivalent", RuntimeWarning, stacklevel=2)
        return False


class _SearchBudgetExceeded(Exception):
    """Raised inside the bijection search of :func:`equivalent_forms` when its budget is spent."""


def _connected_order(free: list, mapped: set, atoms: list, lambdas, cands: dict) -> list:
    """``free`` reordered so that each next variable shares the most atoms with the variables
    before it (ties: fewer candidates, then the given order): constraints bite early."""
    neighbours: dict = {v: Counter() for v in free}
    for _f, _p, args in atoms:
        ids = [_var_id(t, lambdas) for t in args]
        ids = [i for i in ids if i is not None]
        for i in ids:
            if i in neighbours:
                for j in ids:
                    if j != i:
                        neighbours[i][j] += 1
    done, order, rest = set(mapped), [], list(free)
    while rest:
        best = min(rest, key=lambda v: (-sum(c for u, c in neighbours[v].items() if u in done),
                                        len(cands[v]), rest.index(v)))
        order.append(best)
        done.add(best)
        rest.remove(best)
    return order


__all__ = [
    "ROLES",
    "PREPOSITIONS",
    "LFParseError",
    "Term",
    "Atom",
    "LogicalForm",
    "parse",
    "try_parse",
    "problems",
    "is_well_formed",
    "order_key",
    "name_positions",
    "canonical_form",
    "canonical",
    "exact_match",
    "equivalent",
    "equivalent_forms",
]
