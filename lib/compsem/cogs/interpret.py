"""A parser for COGS sentences and a compositional interpreter to COGS logical forms.

The symbolic reference system of the chapter ``cogs-data``: a deterministic recursive-descent
parser over the derived lexicon (:mod:`compsem.cogs.lexicon`) for the grammar of Kim (2021,
Section 4.4.1), and a rule-by-rule interpretation into the representation of Section 4.4.2:

* **NP.** ``Det N`` denotes the Skolem constant ``x _ i`` (``i`` the noun's 0-based token
  position) with the restriction ``N ( x _ i )``, written as a definite ``* N ( x _ i ) ;``
  after *the* and as a conjunct after *a*; a proper name denotes itself. ``NP -> Det N P NP``
  adds ``N . nmod . P ( x _ i , [[NP]] )``; PPs attach to the noun directly before them, so
  a sequence of PPs nests (Kim 2021: all PP modifiers attach to NPs, nested).
* **Events.** A verb introduces the event ``x _ e``, ``e`` the position of the (finite or
  participle or infinitive) verb, and its lemma ``v`` (lexicon). Linking rules map grammatical
  functions to roles: active subject -> ``agent``, except the subject of an intransitive
  unaccusative -> ``theme``; passive subject -> ``theme``, or ``recipient`` when an NP object
  follows the participle; direct object -> ``theme``; first object of a double-object
  dative -> ``recipient``; ``to``-object of a dative -> ``recipient``; ``by``-object ->
  ``agent``; ``that``-clause -> ``ccomp`` (its event); ``to``-infinitive -> ``xcomp`` (its
  event), whose ``agent`` is the matrix subject (subject control).
* **Clauses.** The meaning of a clause is the conjunction of its event roles and the meanings
  of its NPs; all definites move to the front (``;``-separated), and the conjuncts follow the
  dataset's order (:func:`compsem.cogs.lf.order_key`; proper names by token position).
* **Primitives.** A one-word input denotes its lexical meaning: ``LAMBDA a . noun ( a )``, a
  name, or the verb's lambda term by class (unaccusative ``LAMBDA a . LAMBDA e . v . theme
  ( e , a )``; transitive two-place with the agent on ``b``; unergative one-place agent).

:func:`interpret` raises :class:`SentenceParseError` for a sentence outside the grammar.
"""

from __future__ import annotations

from collections.abc import Iterable

from compsem.cogs import lf as lfm
from compsem.cogs import syntax as syn
from compsem.cogs.lexicon import DETERMINERS, Lexicon, load_lexicon

_FUNCTION_WORDS = {"a", "the", "was", "by", "to", "that", ".", *lfm.PREPOSITIONS}


class SentenceParseError(ValueError):
    """A sentence outside the COGS grammar (the message names the offending token)."""


def _key(first: int, second: float | None) -> tuple:
    """Ordering key from argument positions (:func:`compsem.cogs.lf.order_key`)."""
    return (first, 0, 0.0) if second is None else (first, 1, second)


class _Meaning:
    """Accumulates definites and conjuncts with their ordering keys."""

    def __init__(self):
        self.definites: list[tuple[tuple, lfm.Atom]] = []
        self.conjuncts: list[tuple[tuple, lfm.Atom]] = []

    def form(self) -> lfm.LogicalForm:
        return lfm.LogicalForm(
            (),
            tuple(a for _, a in sorted(self.definites, key=lambda p: p[0])),
            tuple(a for _, a in sorted(self.conjuncts, key=lambda p: p[0])),
        )


class Interpreter:
    """Parser (sentence -> :class:`~compsem.cogs.syntax.Clause`) and compositional
    interpreter (tree -> :class:`~compsem.cogs.lf.LogicalForm`) over a lexicon.

    ``open_nouns``: accept an unknown lower-case word after a determiner as a common noun whose
    lemma is the word itself (nouns are uninflected in COGS); with False, only lexicon nouns.
    """

    def __init__(self, lexicon: Lexicon | None = None, open_nouns: bool = True):
        self.lexicon = lexicon if lexicon is not None else load_lexicon()
        self.open_nouns = open_nouns
        self.verb_forms = self.lexicon.verb_forms
        self.noun_lemma = {f: n.lemma for f, n in self.lexicon.nouns.items()}
        self.proper = set(self.lexicon.proper)
        self.unknown_nouns: set[str] = set()

    # ------------------------------------------------------------------ parsing helpers
    def _fail(self, toks: list[str], i: int, expected: str):
        got = f"{toks[i]!r} at position {i}" if i < len(toks) else "end of sentence"
        raise SentenceParseError(f"expected {expected}, got {got} in {' '.join(toks)!r}")

    def _is_np_start(self, toks: list[str], i: int) -> bool:
        return i < len(toks) and (toks[i].lower() in DETERMINERS or toks[i] in self.proper)

    def _check_noun(self, toks: list[str], i: int) -> str:
        word = toks[i] if i < len(toks) else None
        if word in self.noun_lemma:
            return word
        if (
            self.open_nouns
            and word is not None
            and word.isalpha()
            and word.islower()
            and word not in _FUNCTION_WORDS
            and word not in self.verb_forms
        ):
            self.unknown_nouns.add(word)
            return word
        self._fail(toks, i, "a common noun")

    def _verb(self, toks: list[str], i: int) -> str:
        if i < len(toks) and toks[i] in self.verb_forms:
            return self.verb_forms[toks[i]]
        self._fail(toks, i, "a verb")

    def _intransitive_frame(self, lemma: str) -> str:
        """Unaccusative verbs link their only argument to theme, others to agent."""
        verb = self.lexicon.verbs[lemma]
        if verb.has("unaccusative"):
            return "unaccusative"
        return "object_omitted" if verb.has("object_omission") else "unergative"

    # ------------------------------------------------------------------ parser
    def _np(self, toks: list[str], i: int) -> tuple[syn.NP, int]:
        """NP -> Name | Det N | Det N P NP (a PP attaches to the noun just before it)."""
        if i < len(toks) and toks[i] in self.proper:
            return syn.NP(toks[i]), i + 1
        if i >= len(toks) or toks[i].lower() not in DETERMINERS:
            self._fail(toks, i, "a noun phrase (a determiner or a proper name)")
        head = self._check_noun(toks, i + 1)
        np = syn.NP(head, toks[i].lower())
        j = i + 2
        if j < len(toks) and toks[j] in self.lexicon.prepositions:
            inner, j = self._np(toks, j + 1)
            np.pp = syn.PP(toks[i + 2], inner)
        return np, j

    def _clause(self, toks: list[str], i: int) -> tuple[syn.Clause, int]:
        """S -> NP VP over the frames of :data:`compsem.cogs.syntax.FRAMES`."""
        subj, j = self._np(toks, i)
        if j < len(toks) and toks[j] == "was":  # passive frames
            lemma = self._verb(toks, j + 1)
            form, k = toks[j + 1], j + 2
            args = {}
            if self._is_np_start(toks, k):  # NP was V-ed NP (by NP)
                frame = "passive_do_dative"
                args["recipient"] = subj
                args["theme"], k = self._np(toks, k)
            elif k < len(toks) and toks[k] == "to":  # NP was V-ed to NP (by NP)
                frame = "passive_pp_dative"
                args["theme"] = subj
                args["recipient"], k = self._np(toks, k + 1)
            else:
                frame = "passive"
                args["theme"] = subj
            if k < len(toks) and toks[k] == "by":
                frame += "_by"
                args["agent"], k = self._np(toks, k + 1)
            return syn.Clause(frame, lemma, form, args), k
        lemma = self._verb(toks, j)
        form, k = toks[j], j + 1
        if k < len(toks) and toks[k] == "that":
            inner, end = self._clause(toks, k + 1)
            return syn.Clause("cp", lemma, form, {"agent": subj}, comp=inner), end
        if (
            k + 1 < len(toks)
            and toks[k] == "to"
            and toks[k + 1] in self.verb_forms
            and not self._is_np_start(toks, k + 1)
        ):
            inf = self.verb_forms[toks[k + 1]]
            if toks[k + 1] != inf:
                self._fail(toks, k + 1, "an infinitive (a verb lemma)")
            return syn.Clause("control", lemma, form, {"agent": subj}, inf=inf), k + 2
        if self._is_np_start(toks, k):
            o1, k = self._np(toks, k)
            if self._is_np_start(toks, k):
                o2, k = self._np(toks, k)
                args = {"agent": subj, "recipient": o1, "theme": o2}
                return syn.Clause("do_dative", lemma, form, args), k
            if k < len(toks) and toks[k] == "to":
                o2, k = self._np(toks, k + 1)
                args = {"agent": subj, "theme": o1, "recipient": o2}
                return syn.Clause("pp_dative", lemma, form, args), k
            return syn.Clause("transitive", lemma, form, {"agent": subj, "theme": o1}), k
        frame = self._intransitive_frame(lemma)
        return syn.Clause(frame, lemma, form, {syn.subject_role(frame): subj}), k

    def parse(self, sentence: str) -> syn.Clause | str:
        """The syntax tree of ``sentence`` (a one-word primitive stays a string)."""
        toks = sentence.split()
        if not toks:
            raise SentenceParseError("empty sentence")
        if len(toks) == 1:
            return toks[0]
        if toks[-1] != ".":
            self._fail(toks, len(toks) - 1, "a final '.'")
        tree, end = self._clause(toks, 0)
        if end != len(toks) - 1:
            self._fail(toks, end, "the end of the sentence ('.')")
        return tree

    # ------------------------------------------------------------------ semantics
    def _np_meaning(self, np: syn.NP, pos: int, out: _Meaning) -> tuple[lfm.Term, int, int]:
        """[[NP]]: the NP's term, its head position and the next position; adds the noun's
        restriction (definite or conjunct) and its nmod to ``out``."""
        if np.proper:
            return lfm.Term("const", np.head), pos, pos + 1
        n = pos + 1
        lemma = self.noun_lemma.get(np.head, np.head)
        x = lfm.Term("var", n)
        restriction = (_key(n, None), lfm.Atom((lemma,), (x,)))
        (out.definites if np.det == "the" else out.conjuncts).append(restriction)
        end = n + 1
        if np.pp is not None:
            obj, obj_pos, end = self._np_meaning(np.pp.np, end + 1, out)
            out.conjuncts.append(
                (_key(n, obj_pos), lfm.Atom((lemma, "nmod", np.pp.prep), (x, obj)))
            )
        return x, n, end

    def _clause_meaning(self, c: syn.Clause, pos: int, out: _Meaning) -> tuple[int, int]:
        """[[S]]: walks the frame's template; returns the event position and the next
        position. Linking: each role slot contributes ``verb . role ( x _ e , [[NP]] )``."""
        template = syn.FRAMES[c.frame][1]
        e = pos + len(self._prefix_tokens(c, template))
        ev = lfm.Term("var", e)
        for slot in template:
            if slot in ("agent", "theme", "recipient"):
                term, head, pos = self._np_meaning(c.args[slot], pos, out)
                out.conjuncts.append((_key(e, head), lfm.Atom((c.verb, slot), (ev, term))))
            elif slot == "ccomp":
                inner, pos = self._clause_meaning(c.comp, pos, out)
                out.conjuncts.append(
                    (_key(e, inner), lfm.Atom((c.verb, "ccomp"), (ev, lfm.Term("var", inner))))
                )
            elif slot == "xcomp":  # subject control: the matrix agent is the infinitive's agent
                x2 = lfm.Term("var", pos)
                subj = c.args["agent"]
                subj_term, subj_pos, _ = self._np_meaning(subj, self._np_start(c, e), _Meaning())
                out.conjuncts.append((_key(e, pos), lfm.Atom((c.verb, "xcomp"), (ev, x2))))
                out.conjuncts.append(
                    (_key(pos, subj_pos), lfm.Atom((c.inf, "agent"), (x2, subj_term)))
                )
                pos += 1
            else:  # the verb or a function word
                pos += 1
        return e, pos

    def _prefix_tokens(self, c: syn.Clause, template) -> list[str]:
        out: list[str] = []
        for slot in template:
            if slot == syn.V:
                return out
            out += c.args[slot].tokens() if slot in c.args else [slot]
        raise AssertionError("frame without a verb")

    def _np_start(self, c: syn.Clause, e: int) -> int:
        """Position of the subject NP of an active clause whose verb is at ``e``."""
        return e - len(c.args["agent"].tokens())

    def meaning(self, tree: syn.Clause | str) -> lfm.LogicalForm:
        """The logical form of a tree (Kim 2021, Section 4.4.2): see the module docstring."""
        if isinstance(tree, str):
            return self.primitive(tree)
        out = _Meaning()
        self._clause_meaning(tree, 0, out)
        return out.form()

    # ------------------------------------------------------------------ entry points
    def primitive(self, word: str) -> lfm.LogicalForm:
        """The lexical meaning of a one-word input (Kim 2021, Section 4.4.2, primitives)."""
        a, b, e = (lfm.Term("bound", v) for v in "abe")
        if word in self.proper:
            return lfm.LogicalForm(constant=word)
        if word in self.noun_lemma:
            return lfm.LogicalForm(("a",), (), (lfm.Atom((self.noun_lemma[word],), (a,)),))
        verb = self.lexicon.verbs.get(word)
        if verb is None:
            raise SentenceParseError(
                f"unknown word {word!r}: not a noun, proper name or verb lemma"
            )
        if verb.has("unaccusative"):
            return lfm.LogicalForm(("a", "e"), (), (lfm.Atom((word, "theme"), (e, a)),))
        if verb.has("transitive"):
            return lfm.LogicalForm(
                ("a", "b", "e"),
                (),
                (lfm.Atom((word, "agent"), (e, b)), lfm.Atom((word, "theme"), (e, a))),
            )
        if verb.has("unergative"):
            return lfm.LogicalForm(("a", "e"), (), (lfm.Atom((word, "agent"), (e, a)),))
        raise SentenceParseError(
            f"verb {word!r} ({', '.join(verb.classes)}) has no primitive meaning in the grammar"
        )

    def form(self, sentence: str) -> lfm.LogicalForm:
        """The logical form of ``sentence``: :meth:`meaning` of :meth:`parse`."""
        return self.meaning(self.parse(sentence))

    def __call__(self, sentence: str) -> str:
        return self.form(sentence).to_string()


_DEFAULT: Interpreter | None = None


def default_interpreter() -> Interpreter:
    """The interpreter over the committed lexicon (built once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Interpreter()
    return _DEFAULT


def interpret(sentence: str, interpreter: Interpreter | None = None) -> str:
    """The COGS logical form of ``sentence`` (released spelling). Raises
    :class:`SentenceParseError` when the sentence is outside the grammar.

    >>> interpret("The cat ran .")  # doctest: +SKIP
    '* cat ( x _ 1 ) ; run . agent ( x _ 2 , x _ 1 )'
    """
    return (interpreter or default_interpreter())(sentence)


def interpret_all(
    sentences: Iterable[str], interpreter: Interpreter | None = None
) -> list[str | None]:
    """:func:`interpret` on each sentence; None where a sentence is outside the grammar."""
    it = interpreter or default_interpreter()
    out: list[str | None] = []
    for s in sentences:
        try:
            out.append(it(s))
        except SentenceParseError:
            out.append(None)
    return out
