"""The grammars of our probing sentence sets (generator settings, :mod:`compsem.probing.generator`).

- :func:`ettinger2016_grammar`: the 2016 sentence sets (Ettinger, Elgohary & Resnik 2016, §3.1;
  the active/passive-only set of school-as-agent, §4);
- :func:`ettinger2018_grammar`: sets like the released 2018 ones (Ettinger et al. 2018, §3);
- :func:`grammar_without`: a grammar with some nouns or verbs removed (held-out words).
"""

from __future__ import annotations

from dataclasses import replace

from compsem.probing import generator as gen


def ettinger2016_grammar(simple: bool = False, lexicon=None, **options) -> gen.Grammar:
    """The grammar of our 2016 sentence sets: the ``ettinger2016`` inventory with active/passive,
    relative clauses on agent or patient, negation in either clause (§3.1). ``simple=True``:
    active/passive alternation only (the school-as-agent set, §4)."""
    if simple:
        options = dict(dict(rc_sites=("none",), negation=("none",)), **options)
    return gen.Grammar.from_inventory("ettinger2016", lexicon, **options)


def ettinger2018_grammar(task: str = "sr", lexicon=None, **options) -> gen.Grammar:
    """A grammar like the released 2018 sets (their structures are counted in the chapter): the
    ``ettinger2018`` inventory, at most one relative clause, intransitive clauses with the
    share of 2 of 7 verbs, object-relative passives allowed, no adverbs. ``cont1``: active
    progressive clauses only (as in the released cont1 set). ``neg``: active progressive
    clauses only, always one relative clause, exactly one negation, 0-2 adverbs per verb
    group (the released negation set has 0-4, 1.1 on average)."""
    base = dict(max_adverbs=0)
    if task in ("neg", "cont1"):
        base.update(voices=("active",), aspects=("progressive",))
    if task == "neg":
        base.update(rc_sites=("agent", "patient"), negation=("main", "rc"), max_adverbs=2)
    base.update(p_intransitive=2 / 7, stranded_by=True)
    base.update(options)
    grammar = gen.Grammar.from_inventory("ettinger2018", lexicon, **base)
    if not grammar.max_adverbs:
        grammar = replace(grammar, adverbs=())
    return grammar


def grammar_without(grammar: gen.Grammar, nouns=(), verbs=()) -> gen.Grammar:
    """``grammar`` without the nouns ``nouns`` and the verbs ``verbs``."""
    return replace(
        grammar,
        nouns=tuple(n for n in grammar.nouns if n not in nouns),
        transitive=tuple(v for v in grammar.transitive if v not in verbs),
        intransitive=tuple(v for v in grammar.intransitive if v not in verbs),
    )
