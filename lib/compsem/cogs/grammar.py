"""The COGS probabilistic grammar: rules, their probabilities, Zipfian lexical sampling.

Kim (2021, Section 4.4.1) generates COGS from a hand-written PCFG whose rule table is not
published: it gives the construction types (our :data:`compsem.cogs.syntax.FRAMES`), "about
5% per frame" with about 8% for CP-embedding constructions, animacy as the only selectional
restriction, nested NP-attached PPs, CP/PP recursion depth 0-2 in training, and Zipfian
(inverse rank-frequency) sampling of the items of each lexical category. This module writes
that grammar as a PCFG over indexed nonterminals::

    S[d]          -> <frame template>                        P(frame), no cp at d = max depth
    NP[slot]      -> Name | Det N_animate | Det N_inanimate   P(category | slot)
    NP[slot]      -> ... PP[1]                                P(PP | slot)
    PP[k]         -> P NP_pobj[k];  NP_pobj[k] -> Det N_inan (PP[k+1])   P(nest), k < max
    Det -> a | the;  P -> in | on | beside;  V_class -> verb;  N_cat -> noun  (Zipf)

The slot of an NP is its grammatical position (:func:`slot_of`): subject agents, by-phrase
agents, recipients, subjects of recipient passives, transitive objects, dative themes, passive
subjects, unaccusative subjects. :func:`estimate_pcfg` sets every probability by maximum
likelihood from trees of the released training sentences (parsed by
:mod:`compsem.cogs.interpret`), so that a generated corpus can be compared with the released
one; the generator can replace the frame distribution, e.g. by the dissertation's uniform one
(:func:`dissertation_frame_weights`; ``frame_weights`` of
:class:`compsem.cogs.generate.GeneratorConfig`).
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from compsem import paths
from compsem.cogs import syntax as syn
from compsem.cogs.lexicon import Lexicon, load_lexicon

CATEGORIES = ("name", "animate", "inanimate")
"""NP categories: a proper name, or a determiner with an animate/inanimate common noun."""

SLOTS = (
    "agent",
    "by_agent",
    "recipient",
    "recipient_subj",
    "theme_obj",
    "dat_theme",
    "passive_subj",
    "unacc_subj",
)
"""Grammatical positions of argument NPs (see :func:`slot_of`)."""

SUBJECT_SLOTS = ("agent", "recipient_subj", "passive_subj", "unacc_subj")


def slot_of(frame: str, role: str) -> str:
    """The NP slot of ``role`` in ``frame`` (e.g. the theme of ``transitive`` is
    ``theme_obj``, the theme of ``passive`` is ``passive_subj``)."""
    if frame not in syn.FRAMES:
        raise ValueError(f"unknown frame {frame!r}; known: {list(syn.FRAMES)}")
    if role == "agent":
        return "by_agent" if frame.endswith("_by") else "agent"
    if role == "recipient":
        return "recipient_subj" if frame.startswith("passive_do_dative") else "recipient"
    if role == "theme":
        if frame == "transitive":
            return "theme_obj"
        if frame == "unaccusative":
            return "unacc_subj"
        if frame in ("do_dative", "pp_dative") or frame.startswith("passive_do_dative"):
            return "dat_theme"
        return "passive_subj"
    raise ValueError(f"role {role!r} has no NP slot")


def zipf_weights(n: int, s: float = 1.0) -> list[float]:
    """Inverse rank-frequency weights ``1 / r**s`` for ranks 1..n (Kim 2021, Section 4.4.1)."""
    if n < 0 or s < 0:
        raise ValueError(f"zipf_weights needs n >= 0 and s >= 0, got n={n}, s={s}")
    return [1.0 / (r**s) for r in range(1, n + 1)]


class _Choice:
    """Weighted choice from a fixed list via cumulative weights (fast, deterministic)."""

    def __init__(self, items: Sequence, weights: Sequence[float]):
        pairs = [(i, w) for i, w in zip(items, weights, strict=True) if w > 0]
        if not pairs:
            raise ValueError("a choice needs at least one item with positive weight")
        self.items = [i for i, _ in pairs]
        self.cum = list(itertools.accumulate(w for _, w in pairs))

    def __call__(self, rng: random.Random):
        return self.items[bisect.bisect_right(self.cum, rng.random() * self.cum[-1])]


@dataclass
class PCFG:
    """A COGS PCFG (see the module docstring). Probabilities are plain dicts so that a
    re-runner can change any of them; :meth:`rules` lists the whole grammar."""

    lexicon: Lexicon
    frame_weights: dict[str, float]
    category: dict[str, dict[str, float]]  # slot -> category -> probability
    p_pp: dict[str, float]  # slot -> P(the NP carries a PP)
    p_pp_nest: float = 0.09  # P(a PP object carries a PP itself)
    p_definite: float = 0.5
    prepositions: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys(("in", "on", "beside"), 1.0)
    )
    zipf_s: float = 1.0
    max_cp_depth: int = 2
    max_pp_depth: int = 2
    excluded: frozenset[str] = frozenset()  # held-out words never sampled

    def __post_init__(self):
        unknown = set(self.frame_weights) - set(syn.FRAMES)
        if unknown:
            raise ValueError(f"unknown frames {sorted(unknown)}; known: {list(syn.FRAMES)}")
        for slot in SLOTS:
            if slot not in self.category:
                raise ValueError(f"PCFG.category lacks slot {slot!r}")
        self._cache: dict = {}

    # ------------------------------------------------------------------ lexical choice
    def _words(self, category: str, voice: str | None = None) -> _Choice:
        """Zipf choice over a category; for verbs of a finite ``voice``, only those whose
        form in that voice is attested (or regular)."""
        key = (category, voice)
        if key not in self._cache:
            lx = self.lexicon
            if category == "name":
                items = sorted(lx.proper, key=lambda n: (-lx.proper[n], n))
            elif category in ("animate", "inanimate"):
                items = [n.form for n in lx.nouns_where(category == "animate") if n.count > 0]
            else:  # verb class
                verbs = lx.verbs_of(category)
                items = [v.lemma for v in verbs if voice is None or v.form_for(voice)]
            items = [w for w in items if w not in self.excluded]
            if not items:
                raise ValueError(
                    f"no {category!r} words left after excluding {sorted(self.excluded)}"
                )
            self._cache[key] = _Choice(items, zipf_weights(len(items), self.zipf_s))
        return self._cache[key]

    def _choice(self, name: str, mapping: Mapping[str, float]) -> _Choice:
        key = ("map", name)
        if key not in self._cache:
            self._cache[key] = _Choice(list(mapping), list(mapping.values()))
        return self._cache[key]

    def word(self, category: str, rng: random.Random) -> str:
        """A Zipf-sampled word of a category (``name``, ``animate``, ``inanimate`` or a verb
        class of :data:`compsem.cogs.lexicon.VERB_CLASSES`)."""
        return self._words(category)(rng)

    # ------------------------------------------------------------------ sampling
    def sample_np(
        self, slot: str, rng: random.Random, pp: bool | None = None, pp_depth: int | None = None
    ) -> syn.NP:
        """NP[slot]. ``pp``: force (True) or forbid (False) a PP; ``pp_depth``: force a chain
        of exactly that many nested PPs."""
        cat = self._choice("cat:" + slot, self.category[slot])(rng)
        if cat == "name" and (pp or pp_depth):  # a PP needs a common noun
            common = {k: v for k, v in self.category[slot].items() if k != "name" and v > 0}
            cat = _Choice(list(common), list(common.values()))(rng) if common else "inanimate"
        if cat == "name":
            return syn.NP(self.word("name", rng))
        np = self._common(cat, rng)
        if pp_depth is not None:
            np.pp = self._pp_chain(rng, pp_depth) if pp_depth > 0 else None
        elif pp is True or (pp is None and rng.random() < self.p_pp.get(slot, 0.0)):
            np.pp = self._pp(rng, 1)
        return np

    def _common(self, cat: str, rng: random.Random) -> syn.NP:
        det = "the" if rng.random() < self.p_definite else "a"
        return syn.NP(self.word(cat, rng), det)

    def _pp(self, rng: random.Random, level: int) -> syn.PP:
        """PP[level] -> P NP_pobj; the object nests another PP with p_pp_nest below the cap."""
        obj = self._common("inanimate", rng)
        if level < self.max_pp_depth and rng.random() < self.p_pp_nest:
            obj.pp = self._pp(rng, level + 1)
        return syn.PP(self._choice("prep", self.prepositions)(rng), obj)

    def _pp_chain(self, rng: random.Random, depth: int) -> syn.PP:
        obj = self._common("inanimate", rng)
        if depth > 1:
            obj.pp = self._pp_chain(rng, depth - 1)
        return syn.PP(self._choice("prep", self.prepositions)(rng), obj)

    def frames_at(self, depth: int, cp_left: bool) -> _Choice:
        key = ("frames", cp_left)
        if key not in self._cache:
            w = {f: p for f, p in self.frame_weights.items() if cp_left or f != "cp"}
            self._cache[key] = _Choice(list(w), list(w.values()))
        return self._cache[key]

    def sample_clause(
        self,
        rng: random.Random,
        depth: int = 0,
        cp_depth: int | None = None,
        frame: str | None = None,
    ) -> syn.Clause:
        """S[depth]. ``cp_depth``: force exactly that many nested ``that``-clauses below
        (the cp_recursion structure); ``frame``: force this clause's frame."""
        if cp_depth is not None and cp_depth > 0:
            frame = "cp"
        elif frame is None:
            cp_ok = cp_depth is None and depth < self.max_cp_depth
            frame = self.frames_at(depth, cp_ok)(rng)
        voice, template = syn.FRAMES[frame]
        verb = self.lexicon.verbs[self._words(syn.FRAME_VERB_CLASS[frame], voice)(rng)]
        form = verb.form_for(voice)
        clause = syn.Clause(frame, verb.lemma, form)
        for slot in template:
            if slot in ("agent", "theme", "recipient"):
                clause.args[slot] = self.sample_np(slot_of(frame, slot), rng)
        if frame == "cp":
            inner = None if cp_depth is None else cp_depth - 1
            clause.comp = self.sample_clause(rng, depth + 1, inner)
        elif frame == "control":
            clause.inf = self.word("infinitive", rng)
        return clause

    # ------------------------------------------------------------------ display
    def rules(self) -> pd.DataFrame:
        """The grammar as a table: left-hand side, right-hand side, probability."""
        rows = []
        total = sum(self.frame_weights.values())
        for f, w in self.frame_weights.items():
            tpl = " ".join(_show(s, f) for s in syn.FRAMES[f][1])
            rows.append(("S[d]", tpl + ("   (d < max only)" if f == "cp" else ""), w / total))
        for slot in SLOTS:
            for cat in CATEGORIES:
                p = self.category[slot].get(cat, 0.0)
                if p > 0:
                    rhs = "Name" if cat == "name" else f"Det N_{cat[:4]}"
                    rows.append((f"NP[{slot}]", rhs, p))
            if self.p_pp.get(slot, 0.0) > 0:
                rows.append((f"NP[{slot}]", "(common NP) + PP[1]", self.p_pp[slot]))
        rows.append(("PP[k]", "P NP_pobj[k]", 1.0))
        rows.append(("NP_pobj[k]", "Det N_inan PP[k+1]   (k < max)", self.p_pp_nest))
        rows.append(("Det", "the", self.p_definite))
        rows.append(("Det", "a", 1 - self.p_definite))
        ptot = sum(self.prepositions.values())
        rows += [("P", p, w / ptot) for p, w in self.prepositions.items()]
        return pd.DataFrame(rows, columns=["lhs", "rhs", "probability"])


def _show(slot: str, frame: str) -> str:
    if slot == syn.V:
        return f"V_{syn.FRAME_VERB_CLASS[frame]}"
    if slot in ("agent", "theme", "recipient"):
        return f"NP[{slot_of(frame, slot)}]"
    if slot == "ccomp":
        return "S[d+1]"
    if slot == "xcomp":
        return "V_inf"
    return slot


def dissertation_frame_weights() -> dict[str, float]:
    """Kim (2021, Section 4.4.1): "about 5% per frame", about 8% for CP embedding
    (the remaining mass spread uniformly over the other frames)."""
    others = [f for f in syn.FRAMES if f != "cp"]
    return {**{f: 0.92 / len(others) for f in others}, "cp": 0.08}


def _category(np: syn.NP, lexicon: Lexicon) -> str:
    if np.proper:
        return "name"
    noun = lexicon.nouns.get(np.head)
    return "animate" if noun is not None and noun.animate else "inanimate"


def tree_statistics(
    trees: Iterable[syn.Clause], lexicon: Lexicon, max_cp_depth: int = 2, max_pp_depth: int = 2
) -> dict:
    """Counts of every grammar decision in a set of trees: frames (at levels where a CP
    is possible), NP categories and PPs per slot, PP nesting, determiners, prepositions."""
    frames: Counter = Counter()
    cats: dict[str, Counter] = defaultdict(Counter)
    pps: dict[str, Counter] = defaultdict(Counter)
    nest: Counter = Counter()
    dets: Counter = Counter()
    preps: Counter = Counter()
    for tree in trees:
        if isinstance(tree, str):
            continue
        for level, c in enumerate(tree.clauses()):
            if level < max_cp_depth:
                frames[c.frame] += 1
            for role, np in c.args.items():
                slot = slot_of(c.frame, role)
                cats[slot][_category(np, lexicon)] += 1
                if not np.proper:
                    pps[slot][np.pp is not None] += 1
                node, level = np, 0  # level: number of PPs above the node
                while node is not None:
                    if node.det:
                        dets[node.det] += 1
                    if node.pp is not None:
                        preps[node.pp.prep] += 1
                    if 0 < level < max_pp_depth:  # a PP object that may nest another PP
                        nest[node.pp is not None] += 1
                    level += 1
                    node = node.pp.np if node.pp is not None else None
    return {
        "frames": frames,
        "categories": cats,
        "pp": pps,
        "nest": nest,
        "determiners": dets,
        "prepositions": preps,
    }


def estimate_pcfg(
    trees: Iterable[syn.Clause], lexicon: Lexicon, max_cp_depth: int = 2, max_pp_depth: int = 2
) -> PCFG:
    """Maximum-likelihood rule probabilities from parsed training trees (the released
    ``in_distribution`` rows, parsed by :class:`compsem.cogs.interpret.Interpreter`)."""
    st = tree_statistics(trees, lexicon, max_cp_depth, max_pp_depth)
    frames = dict(st["frames"])
    if not frames:
        raise ValueError("estimate_pcfg needs at least one parsed sentence")
    category = {}
    for slot in SLOTS:
        c = st["categories"].get(slot, Counter())
        n = sum(c.values())
        category[slot] = {k: c[k] / n for k in CATEGORIES} if n else {"animate": 1.0}
    p_pp = {}
    for slot in SLOTS:
        c = st["pp"].get(slot, Counter())
        n = sum(c.values())
        p_pp[slot] = c[True] / n if n else 0.0
    nest = st["nest"]
    dets = st["determiners"]
    return PCFG(
        lexicon=lexicon,
        frame_weights={f: frames.get(f, 0) / sum(frames.values()) for f in syn.FRAMES},
        category=category,
        p_pp=p_pp,
        p_pp_nest=nest[True] / max(1, sum(nest.values())),
        p_definite=dets["the"] / max(1, sum(dets.values())),
        prepositions={p: st["prepositions"][p] for p in sorted(st["prepositions"])},
        max_cp_depth=max_cp_depth,
        max_pp_depth=max_pp_depth,
    )


PCFG_FILE = paths.PROJECT_DATA_DIR / "lexicons" / "cogs_pcfg.json"
_PARAMS = ("frame_weights", "category", "p_pp", "p_pp_nest", "p_definite", "prepositions")


def pcfg_to_json(pcfg: PCFG) -> str:
    """The rule probabilities of a PCFG as JSON (the lexicon is stored separately)."""
    data = {k: getattr(pcfg, k) for k in _PARAMS}
    data.update(max_cp_depth=pcfg.max_cp_depth, max_pp_depth=pcfg.max_pp_depth)
    return json.dumps(data, indent=1) + "\n"


def load_pcfg(lexicon: Lexicon | None = None, path: Path | str | None = None) -> PCFG:
    """The committed PCFG (``data/lexicons/cogs_pcfg.json``, made by :func:`estimate_pcfg`
    from the released training trees) over the committed lexicon."""
    path = Path(path) if path is not None else PCFG_FILE
    if not path.exists():
        raise FileNotFoundError(
            f"no COGS PCFG at {path}; estimate one with compsem.cogs.grammar.estimate_pcfg "
            "and save it with pcfg_to_json"
        )
    data = json.loads(path.read_text())
    return PCFG(lexicon=lexicon if lexicon is not None else load_lexicon(), **data)
