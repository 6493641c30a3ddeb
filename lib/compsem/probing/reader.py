"""Read a sentence of the generator's grammar back into its event: the inverse of realisation.

:func:`read` parses a whitespace-tokenised sentence with a recursive-descent parser written
independently of :func:`compsem.probing.events.realise` (it consults only the lexicon's
inflection table) and returns the annotated :class:`~compsem.probing.events.Sentence`. Two uses:

- a check of the generator: ``read(realise(e).text).event == e`` for every realisable event
  (tests/test_probing_events.py), so the annotation agrees with the surface form;
- annotating the released 2018 task files (Ettinger et al. 2018), whose sentences follow the
  same grammar, so that their labels can be recomputed and their structures counted.

The parser checks agreement (``be``/``do`` and finite verbs with the surface subject) and fails
with :class:`ParseError` naming the token where the sentence leaves the grammar.
"""

from __future__ import annotations

from compsem.probing import lexicon as lexicon_mod
from compsem.probing.events import GAP, Event, NounPhrase, Sentence, realise

BE = {
    "is": ("present", "sg"),
    "are": ("present", "pl"),
    "was": ("past", "sg"),
    "were": ("past", "pl"),
}
DO = {"does": ("present", "sg"), "do": ("present", "pl"), "did": ("past", None)}


class ParseError(ValueError):
    """The sentence is not in the generator's grammar."""


class _Reader:
    def __init__(self, text: str, lexicon):
        self.text = text
        self.tokens = text.split()
        self.lex = lexicon
        self.i = 0

    # ------------------------------------------------------------------ tokens

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def fail(self, expected: str):
        found = self.peek()
        where = f"token {self.i} ({found!r})" if found is not None else "the end"
        raise ParseError(f"{self.text!r}: expected {expected} at {where}")

    def accept(self, word: str) -> bool:
        if self.peek() == word:
            self.i += 1
            return True
        return False

    def expect(self, word: str) -> None:
        if not self.accept(word):
            self.fail(repr(word))

    def reading(self, category: str, forms: tuple[str, ...] | None = None):
        token = self.peek()
        for cat, lemma, form in self.lex.analyse(token) if token else ():
            if cat == category and (forms is None or form in forms):
                self.i += 1
                return lemma, form
        self.fail(f"a {category}" + (f" ({'/'.join(forms)})" if forms else ""))

    # ------------------------------------------------------------------ phrases

    def noun_phrase(self, allow_rc: bool) -> NounPhrase:
        self.expect("the")
        noun, number = self.reading("noun")
        np = NounPhrase(noun, number)
        if allow_rc and self.peek() == "that":
            np = NounPhrase(noun, number, rc=self.relative(np))
        return np

    def adverbs(self) -> tuple[str, ...]:
        run = []
        while self.peek() is not None and any(
            c == "adverb" for c, _, _ in self.lex.analyse(self.peek())
        ):
            run.append(self.reading("adverb")[0])
            if not (self.peek() == "," and self.i + 1 < len(self.tokens)):
                break
            self.i += 1  # the comma of a run
        return tuple(run)

    def verb_group(self, number: str) -> dict:
        """The verb group of a clause whose surface subject has ``number``."""
        token = self.peek()
        if token in DO:
            tense, agree = DO[token]
            self.i += 1
            self.expect("not")
            adverbs = self.adverbs()
            verb, _ = self.reading("verb", ("base",))
            group = dict(
                verb=verb,
                voice="active",
                tense=tense,
                aspect="simple",
                negated=True,
                adverbs=adverbs,
            )
        elif token in BE:
            tense, agree = BE[token]
            self.i += 1
            negated = self.accept("not")
            adverbs = self.adverbs()
            if self.accept("being"):
                verb, _ = self.reading("verb", ("pp",))
                voice, aspect = "passive", "progressive"
            else:
                verb, form = self.reading("verb", ("ing", "pp"))
                voice, aspect = (
                    ("active", "progressive") if form == "ing" else ("passive", "simple")
                )
            group = dict(
                verb=verb, voice=voice, tense=tense, aspect=aspect, negated=negated, adverbs=adverbs
            )
        else:
            adverbs = self.adverbs()
            verb, form = self.reading("verb", ("s", "base", "past"))
            tense, agree = {
                "s": ("present", "sg"),
                "base": ("present", "pl"),
                "past": ("past", None),
            }[form]
            group = dict(
                verb=verb,
                voice="active",
                tense=tense,
                aspect="simple",
                negated=False,
                adverbs=adverbs,
            )
        if agree is not None and agree != number:
            raise ParseError(
                f"{self.text!r}: the verb group of {group['verb']!r} is {agree} but "
                f"its subject is {number}"
            )
        if group["voice"] == "passive" and not self.lex.is_transitive(group["verb"]):
            raise ParseError(f"{self.text!r}: {group['verb']!r} has no passive")
        return group

    def relative(self, head: NounPhrase) -> Event:
        self.expect("that")
        if self.peek() == "the":  # object relative: that the N VG [by]
            subject = self.noun_phrase(allow_rc=False)
            group = self.verb_group(subject.number)
            if not self.lex.is_transitive(group["verb"]):
                raise ParseError(
                    f"{self.text!r}: an object relative needs a transitive verb, "
                    f"not {group['verb']!r}"
                )
            if group["voice"] == "active":
                return Event(agent=subject, patient=GAP, **group)
            self.expect("by")
            return Event(agent=GAP, patient=subject, **group)
        group = self.verb_group(head.number)  # subject relative: that VG [NP | by NP]
        return self.complete(group, subject=GAP, allow_rc=False)

    def complete(self, group: dict, subject, allow_rc: bool) -> Event:
        """The rest of a clause after its verb group: object, by-phrase or nothing."""
        if not self.lex.is_transitive(group["verb"]):
            return Event(agent=subject, patient=None, **group)
        if group["voice"] == "active":
            return Event(agent=subject, patient=self.noun_phrase(allow_rc), **group)
        self.expect("by")
        return Event(agent=self.noun_phrase(allow_rc), patient=subject, **group)

    def sentence(self) -> Event:
        subject = self.noun_phrase(allow_rc=True)
        event = self.complete(self.verb_group(subject.number), subject, allow_rc=True)
        if self.peek() is not None:
            self.fail("the end of the sentence")
        return event


def read(text: str, lexicon=None) -> Sentence:
    """The annotated sentence of ``text`` (tokens separated by single spaces, lowercase).

    Raises :class:`ParseError` if ``text`` is not in the grammar of
    :mod:`compsem.probing.events`, or if its re-realisation differs from ``text``.
    """
    lex = lexicon or lexicon_mod.load()
    event = _Reader(text, lex).sentence()
    sentence = realise(event, lex)
    if sentence.text != " ".join(text.split()):
        raise ParseError(f"{text!r} re-realises as {sentence.text!r}")
    return sentence
