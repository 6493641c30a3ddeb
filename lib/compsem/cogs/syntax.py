"""Syntax trees of COGS sentences and their surface realisation.

The constructions of Kim (2021, Section 4.4.1; names after Roland et al. 2007) as clause
*frames*: a voice and a surface template over grammatical slots. A template lists the role
whose NP fills each slot, the verb ``V`` and the function words; ``ccomp`` is a ``that``-clause
and ``xcomp`` a ``to``-infinitive. Trees are produced by the parser
(:mod:`compsem.cogs.interpret`) and by the generator (:mod:`compsem.cogs.generate`), realised
here and interpreted by :func:`compsem.cogs.interpret.meaning`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

V = "V"

FRAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    # name: (voice, surface template)
    "unergative": ("active", ("agent", V)),
    "object_omitted": ("active", ("agent", V)),
    "unaccusative": ("active", ("theme", V)),
    "transitive": ("active", ("agent", V, "theme")),
    "passive": ("passive", ("theme", "was", V)),
    "passive_by": ("passive", ("theme", "was", V, "by", "agent")),
    "do_dative": ("active", ("agent", V, "recipient", "theme")),
    "pp_dative": ("active", ("agent", V, "theme", "to", "recipient")),
    "passive_pp_dative": ("passive", ("theme", "was", V, "to", "recipient")),
    "passive_pp_dative_by": ("passive", ("theme", "was", V, "to", "recipient", "by", "agent")),
    "passive_do_dative": ("passive", ("recipient", "was", V, "theme")),
    "passive_do_dative_by": ("passive", ("recipient", "was", V, "theme", "by", "agent")),
    "cp": ("active", ("agent", V, "that", "ccomp")),
    "control": ("active", ("agent", V, "to", "xcomp")),
}
"""Clause frames: voice and surface template (Kim 2021, Section 4.4.1, the construction types
Simple Intransitive, Simple Transitive, Ditransitive, Passive, Sentential Complement and To
Infinitive Verb Phrase)."""

FRAME_VERB_CLASS = {
    "unergative": "unergative",
    "object_omitted": "object_omission",
    "unaccusative": "unaccusative",
    "transitive": "transitive",
    "passive": "transitive",
    "passive_by": "transitive",
    "do_dative": "dative",
    "pp_dative": "dative",
    "passive_pp_dative": "dative",
    "passive_pp_dative_by": "dative",
    "passive_do_dative": "dative",
    "passive_do_dative_by": "dative",
    "cp": "cp",
    "control": "subject_control",
}
"""The lexicon class (:data:`compsem.cogs.lexicon.VERB_CLASSES`) that licenses each frame."""


def subject_role(frame: str) -> str:
    """The role of the frame's subject (the first slot of its template)."""
    return FRAMES[frame][1][0]


@dataclass
class NP:
    """A noun phrase: ``det`` ``head`` (``pp``), or a proper name (``det`` None).
    ``head`` is the surface form (``TV``), ``det`` is ``"a"`` or ``"the"``."""

    head: str
    det: str | None = None
    pp: PP | None = None

    @property
    def proper(self) -> bool:
        return self.det is None

    def pp_depth(self) -> int:
        """Number of nested PPs below this NP."""
        return 0 if self.pp is None else 1 + self.pp.np.pp_depth()

    def nouns(self) -> list[str]:
        """Every nominal (noun form or name) in the NP, outermost first."""
        return [self.head] + (self.pp.np.nouns() if self.pp else [])

    def tokens(self) -> list[str]:
        out = [self.head] if self.proper else [self.det, self.head]
        if self.pp is not None:
            out += [self.pp.prep] + self.pp.np.tokens()
        return out


@dataclass
class PP:
    """A prepositional modifier of a noun (``in``, ``on``, ``beside``)."""

    prep: str
    np: NP


@dataclass
class Clause:
    """A clause: its frame, the verb lemma and its forms, the NPs of its roles, and
    the embedded clause (``cp``) or the infinitive lemma (``control``)."""

    frame: str
    verb: str
    form: str  # the verb's surface form in this clause (past or participle)
    args: dict[str, NP] = field(default_factory=dict)
    comp: Clause | None = None
    inf: str | None = None  # infinitive lemma (control)

    def tokens(self) -> list[str]:
        out: list[str] = []
        for slot in FRAMES[self.frame][1]:
            if slot == V:
                out.append(self.form)
            elif slot in ("agent", "theme", "recipient"):
                out += self.args[slot].tokens()
            elif slot == "ccomp":
                out += self.comp.tokens()
            elif slot == "xcomp":
                out.append(self.inf)
            else:
                out.append(slot)
        return out

    def clauses(self) -> list[Clause]:
        """This clause and every embedded one, outermost first."""
        return [self] + (self.comp.clauses() if self.comp is not None else [])

    def cp_depth(self) -> int:
        """Number of nested ``that``-clauses."""
        return 0 if self.comp is None else 1 + self.comp.cp_depth()

    def nps(self) -> list[tuple[Clause, str, NP]]:
        """(clause, role, NP) for every argument NP of every clause."""
        out = []
        for c in self.clauses():
            for role, np in c.args.items():
                out.append((c, role, np))
        return out

    def pp_depth(self) -> int:
        """The deepest PP nesting of any NP."""
        return max((np.pp_depth() for _, _, np in self.nps()), default=0)

    def nominals(self) -> list[str]:
        """Every nominal (noun form or name) of the sentence."""
        return [n for _, _, np in self.nps() for n in np.nouns()]


def realise(tree: Clause | str) -> str:
    """The sentence of a tree in the released spelling: capitalised determiner, tokens
    separated by spaces, a final ``.``; a primitive (a plain string) stays one word."""
    if isinstance(tree, str):
        return tree
    toks = tree.tokens()
    toks[0] = toks[0][:1].upper() + toks[0][1:]
    return " ".join(toks + ["."])
