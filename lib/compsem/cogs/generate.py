"""A seeded generator of COGS-style datasets: train/dev/test, exposure examples, primitives and
one generalization set per held-out case (Kim 2021, Sections 4.4.1 and 4.3).

Kim (2021, Section 4.4.3) samples 30,000 distinct sentences from the PCFG, without sentences
that repeat a nominal ("The cat saw a cat"), splits them 80/10/10, adds the primitive meanings
and one exposure example per held-out item to train, and samples each generalization set from a
separate PCFG. Here every case is a *condition* on the base PCFG (:class:`GenCase`): the gen set
is the base grammar conditioned on the held-out item standing in its gen-side position (or on the
held-out structure), the exposure examples are the base grammar conditioned on the item in its
training-side position, and the in-distribution sentences never contain a held-out item or
structure. Conditioning is done by rejection (sample a tree; keep it if it has an eligible
position; put the item into one eligible position chosen uniformly). The logical forms are
those of :class:`compsem.cogs.interpret.Interpreter` applied to the sampled trees, so the data
are correct by construction and the parser recovers them from the strings (tested).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import pandas as pd

from compsem.cogs import syntax as syn
from compsem.cogs.evaluation import case_kind
from compsem.cogs.grammar import PCFG, SUBJECT_SLOTS, load_pcfg, slot_of
from compsem.cogs.interpret import Interpreter

SUBJECT_FRAMES = ("unergative", "object_omitted", "transitive", "do_dative", "pp_dative", "control")
"""Frames whose agent subject counts as a "subject" position of the lexical cases (the released
gen and exposure sets never use the subject of a CP-taking verb or of a passive)."""
OBJECT_FRAMES = ("transitive", "do_dative", "pp_dative")
"""Frames whose theme counts as an "object" position of the lexical cases."""


@dataclass(frozen=True)
class GenCase:
    """One of the 21 generalization cases (Kim 2021, Table 4-1).

    ``item``: the held-out word (noun form, name or verb lemma); ``train``/``gen``: the
    condition of the exposure examples and of the gen set (see :data:`CONDITIONS`);
    ``exposure``: the case label of its exposure rows in ``train.tsv``.
    """

    name: str
    item: str | None = None
    train: str | None = None
    gen: str | None = None
    exposure: str | None = None

    @property
    def kind(self) -> str:
        """``"lexical"`` or ``"structural"`` (:func:`compsem.cogs.evaluation.case_kind`)."""
        return case_kind(self.name)


GEN_CASES: tuple[GenCase, ...] = (
    GenCase(
        "subj_to_obj_common",
        "hedgehog",
        "subject",
        "object",
        "exposure_example_subj_common",
    ),
    GenCase(
        "subj_to_obj_proper", "Lina", "subject", "object", "exposure_example_subj_proper"
    ),
    GenCase(
        "obj_to_subj_common",
        "cockroach",
        "object",
        "subject",
        "exposure_example_obj_common",
    ),
    GenCase(
        "obj_to_subj_proper",
        "Charlie",
        "object",
        "subject",
        "exposure_example_obj_proper",
    ),
    GenCase("prim_to_subj_common", "shark", "primitive", "subject", "primitive"),
    GenCase("prim_to_subj_proper", "Paula", "primitive", "subject", "primitive"),
    GenCase("prim_to_obj_common", "shark", "primitive", "object", "primitive"),
    GenCase("prim_to_obj_proper", "Paula", "primitive", "object", "primitive"),
    GenCase("prim_to_inf_arg", "crawl", "primitive", "infinitive", "primitive"),
    GenCase("obj_pp_to_subj_pp", None, None, "subject_pp"),
    GenCase("cp_recursion", None, None, "cp_depth"),
    GenCase("pp_recursion", None, None, "pp_depth"),
    GenCase(
        "active_to_passive",
        "bless",
        "verb:transitive",
        "verb:passive,passive_by",
        "exposure_example_active",
    ),
    GenCase(
        "passive_to_active",
        "squeeze",
        "verb:passive",
        "verb:transitive",
        "exposure_example_passive",
    ),
    GenCase(
        "obj_omitted_transitive_to_transitive",
        "bake",
        "verb:object_omitted",
        "verb:transitive",
        "exposure_example_obj_omitted_transitive",
    ),
    GenCase(
        "unacc_to_transitive",
        "shatter",
        "verb:unaccusative",
        "verb:transitive",
        "exposure_example_unacc",
    ),
    GenCase(
        "do_dative_to_pp_dative",
        "teleport",
        "verb:do_dative",
        "verb:pp_dative",
        "exposure_example_do_dative",
    ),
    GenCase(
        "pp_dative_to_do_dative",
        "ship",
        "verb:pp_dative",
        "verb:do_dative",
        "exposure_example_pp_dative",
    ),
    GenCase(
        "only_seen_as_transitive_subj_as_unacc_subj",
        "cobra",
        "transitive_subject",
        "unacc_subject",
        "exposure_example_transitive_subj",
    ),
    GenCase(
        "only_seen_as_unacc_subj_as_obj_omitted_transitive_subj",
        "hippo",
        "unacc_subject",
        "omitted_subject",
        "exposure_example_unacc_subj",
    ),
    GenCase(
        "only_seen_as_unacc_subj_as_unerg_subj",
        "hippo",
        "unacc_subject",
        "unerg_subject",
        "exposure_example_unacc_subj",
    ),
)
"""The 21 cases with the dissertation's held-out items (Table 4-1 and the exposure examples of
the released ``train.tsv``)."""

CASES = {c.name: c for c in GEN_CASES}

NOUN_CONDITIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "subject": (SUBJECT_FRAMES, "agent"),
    "object": (OBJECT_FRAMES, "theme"),
    "transitive_subject": (("transitive",), "agent"),
    "unacc_subject": (("unaccusative",), "theme"),
    "unerg_subject": (("unergative",), "agent"),
    "omitted_subject": (("object_omitted",), "agent"),
}
"""Noun positions: condition -> (frames, role)."""

CONDITIONS = (
    *NOUN_CONDITIONS,
    "primitive",
    "infinitive",
    "verb:<frames>",
    "subject_pp",
    "cp_depth",
    "pp_depth",
)


def item_kind(item: str, pcfg: PCFG) -> str:
    """``name``, ``noun`` or ``verb`` for a held-out item of the lexicon."""
    lx = pcfg.lexicon
    if item in lx.proper:
        return "name"
    if item in lx.nouns:
        return "noun"
    if item in lx.verbs:
        return "verb"
    raise ValueError(f"held-out item {item!r} is not in the lexicon")


# ----------------------------------------------------------------------------------------------
# placing an item into a sampled tree
# ----------------------------------------------------------------------------------------------


def _positions(tree: syn.Clause, condition: str) -> list:
    """Eligible positions of ``condition`` in ``tree``: (clause, role) for nouns, clauses for
    verbs (``verb:f1,f2``) and for ``infinitive``."""
    clauses = tree.clauses()
    if condition in NOUN_CONDITIONS:
        frames, role = NOUN_CONDITIONS[condition]
        return [(c, role) for c in clauses if c.frame in frames]
    if condition.startswith("verb:"):
        frames = condition[5:].split(",")
        return [c for c in clauses if c.frame in frames]
    if condition == "infinitive":
        return [c for c in clauses if c.frame == "control"]
    raise ValueError(f"unknown condition {condition!r}; known: {CONDITIONS}")


def _place(
    tree: syn.Clause, condition: str, item: str, kind: str, pcfg: PCFG, rng: random.Random
) -> bool:
    """Put ``item`` into one eligible position of ``tree`` (in place); False if none."""
    options = _positions(tree, condition)
    if not options:
        return False
    pos = options[rng.randrange(len(options))]
    if kind == "verb":
        verb = pcfg.lexicon.verbs[item]
        if condition == "infinitive":
            pos.inf = item
        else:
            pos.verb = item
            form = verb.form_for(syn.FRAMES[pos.frame][0])
            if form is None:
                raise ValueError(f"held-out verb {item!r} has no attested {pos.frame} form")
            pos.form = form
        return True
    clause, role = pos
    old = clause.args[role]
    if kind == "name":
        clause.args[role] = syn.NP(item)
    else:
        det = old.det if old.det is not None else ("the" if rng.random() < pcfg.p_definite else "a")
        clause.args[role] = syn.NP(item, det, old.pp)
    return True


def _subject_pp(tree: syn.Clause, pcfg: PCFG, rng: random.Random) -> None:
    """Give the subject of one clause (chosen uniformly) a PP (obj_pp_to_subj_pp)."""
    clauses = tree.clauses()
    c = clauses[rng.randrange(len(clauses))]
    role = syn.FRAMES[c.frame][1][0]
    slot = slot_of(c.frame, role)
    np = c.args[role]
    if np.proper:  # a PP needs a common noun: resample the subject as one
        c.args[role] = pcfg.sample_np(slot, rng, pp=True)
    else:
        np.pp = pcfg._pp(rng, 1)


def _pp_chain(tree: syn.Clause, depth: int, pcfg: PCFG, rng: random.Random) -> bool:
    """Give one PP-taking object NP (chosen uniformly) a chain of ``depth`` nested PPs."""
    options = [
        (c, r)
        for c, r, np in tree.nps()
        if not np.proper and pcfg.p_pp.get(slot_of(c.frame, r), 0.0) > 0
    ]
    if not options:
        return False
    c, r = options[rng.randrange(len(options))]
    c.args[r].pp = pcfg._pp_chain(rng, depth)
    return True


# ----------------------------------------------------------------------------------------------
# configuration and the generator
# ----------------------------------------------------------------------------------------------


@dataclass
class GeneratorConfig:
    """Parameters of :func:`generate` (defaults: the released COGS sizes, Kim 2021, 4.4.3).

    ``held_out``: the cases to hold out (default all 21); ``exposures``: exposure examples
    per held-out item (1 as in ``train.tsv``, 100 as in ``train_100``); ``primitives``:
    primitive rows per type (released: 21 names, 41 nouns, 41 one-place and 40 two-place verbs,
    the held-out primitives included); ``train_depth``: maximal CP and PP depth in train;
    ``gen_depths``: the depths of the recursion cases (equal numbers per depth);
    ``subject_pp``: probability of a subject PP in train when ``obj_pp_to_subj_pp`` is *not*
    held out; ``frame_weights``: None for the estimated PCFG, or a mapping frame -> weight.
    """

    n_train: int = 24_000
    n_dev: int = 3_000
    n_test: int = 3_000
    n_gen: int = 1_000
    held_out: tuple[str, ...] = tuple(CASES)
    exposures: int = 1
    primitives: dict[str, int] = field(
        default_factory=lambda: {"name": 21, "noun": 41, "verb1": 41, "verb2": 40}
    )
    train_depth: int = 2
    gen_depths: tuple[int, int] = (3, 12)
    subject_pp: float = 0.1
    frame_weights: dict[str, float] | None = None
    zipf_s: float = 1.0
    seed: int = 0
    max_tries: int = 2_000_000

    def __post_init__(self):
        unknown = [c for c in self.held_out if c not in CASES]
        if unknown:
            raise ValueError(f"unknown generalization cases {unknown}; known: {list(CASES)}")
        for name in ("n_train", "n_dev", "n_test", "n_gen", "exposures"):
            if getattr(self, name) < 0:
                raise ValueError(f"GeneratorConfig.{name} must be >= 0, got {getattr(self, name)}")
        lo, hi = self.gen_depths
        if not (self.train_depth < lo <= hi):
            raise ValueError(
                f"gen_depths {self.gen_depths} must lie above train_depth={self.train_depth}"
            )


class _Sampler:
    def __init__(self, config: GeneratorConfig, pcfg: PCFG, interpreter: Interpreter):
        self.config = config
        held = [CASES[c] for c in config.held_out]
        self.items = {c.item for c in held if c.item}
        p_pp = dict(pcfg.p_pp)
        if "obj_pp_to_subj_pp" not in config.held_out:
            p_pp.update(dict.fromkeys(SUBJECT_SLOTS, config.subject_pp))
        deep = config.gen_depths[1]
        self.base = replace(
            pcfg,
            excluded=frozenset(pcfg.excluded | self.items),
            zipf_s=config.zipf_s,
            p_pp=p_pp,
            max_cp_depth=config.train_depth if "cp_recursion" in config.held_out else deep,
            max_pp_depth=config.train_depth if "pp_recursion" in config.held_out else deep,
            frame_weights=dict(config.frame_weights or pcfg.frame_weights),
        )
        self.interpreter = interpreter

    def row(self, tree, case: str) -> tuple[str, str, str]:
        return syn.realise(tree), self.interpreter.meaning(tree).to_string(), case

    def draw(self, rng: random.Random, accept: Callable[[syn.Clause], bool], **kw) -> syn.Clause:
        for _ in range(self.config.max_tries):
            tree = self.base.sample_clause(rng, **kw)
            if accept(tree) and _distinct_nominals(tree):
                return tree
        raise RuntimeError("no acceptable sentence after max_tries samples; relax the conditions")


def _distinct_nominals(tree: syn.Clause) -> bool:
    """The duplicate-nominal filter of Kim (2021, Section 4.4.3): no noun or name twice."""
    nominals = tree.nominals()
    return len(nominals) == len(set(nominals))


def _collect(
    n: int, make: Callable[[], syn.Clause], sampler: _Sampler, case: str, seen: set
) -> list:
    """``n`` rows of distinct sentences not in ``seen`` (which is updated)."""
    rows = []
    tries = 0
    while len(rows) < n:
        tries += 1
        if tries > sampler.config.max_tries:
            raise RuntimeError(f"could not find {n} distinct sentences for {case!r}")
        tree = make()
        sentence = syn.realise(tree)
        if sentence in seen:
            continue
        seen.add(sentence)
        rows.append(sampler.row(tree, case))
    return rows


def _rng(seed: int, name: str) -> random.Random:
    return random.Random(f"{seed}:{name}")


def generate(
    config: GeneratorConfig | None = None,
    pcfg: PCFG | None = None,
    interpreter: Interpreter | None = None,
) -> dict[str, pd.DataFrame]:
    """A COGS-style dataset: ``{"train", "dev", "test", "gen"}`` frames with columns
    ``source``, ``target``, ``case`` (the released format). Deterministic in ``config.seed``.
    Train holds the in-distribution rows, then the primitives (case ``primitive``) and the
    exposure examples (``exposure_example_*``)."""
    config = config or GeneratorConfig()
    pcfg = pcfg or load_pcfg()
    interpreter = interpreter or Interpreter(pcfg.lexicon)
    s = _Sampler(config, pcfg, interpreter)
    held = [CASES[c] for c in config.held_out]
    base = s.base

    def has_no_held_out(tree):
        return (
            not (
                set(tree.nominals())
                | {c.verb for c in tree.clauses()}
                | {c.inf for c in tree.clauses()}
            )
            & s.items
        )

    # in-distribution pool: distinct sentences, split 80/10/10
    rng = _rng(config.seed, "pool")
    n_pool = config.n_train + config.n_dev + config.n_test
    seen: set[str] = set()
    pool = _collect(n_pool, lambda: s.draw(rng, has_no_held_out), s, "in_distribution", seen)
    rng.shuffle(pool)
    train = pool[: config.n_train]
    dev = pool[config.n_train : config.n_train + config.n_dev]
    test = pool[config.n_train + config.n_dev :]

    # primitives (the held-out primitive items first, repeated per exposure)
    prim_rows = []
    prim_items = {c.item for c in held if c.train == "primitive"}
    for item in sorted(prim_items):
        prim_rows += [s.row(item, "primitive")] * config.exposures
    prim_rows += _primitive_rows(config, base, s, prim_items)

    # exposure examples: the item in its training-side position
    exposure_rows = []
    done = set()
    for case in held:
        if case.item is None or case.train == "primitive" or (case.item, case.train) in done:
            continue
        done.add((case.item, case.train))
        r = _rng(config.seed, "exposure:" + case.name)
        kind = item_kind(case.item, pcfg)
        exposure_rows += _collect(
            config.exposures,
            lambda case=case, r=r, kind=kind: _conditioned(s, r, case.item, kind, case.train),
            s,
            case.exposure,
            seen,
        )

    # generalization sets
    gen_rows = []
    for case in held:
        r = _rng(config.seed, "gen:" + case.name)
        if case.name == "cp_recursion":
            make = _depth_maker(config, lambda d, r=r: s.draw(r, has_no_held_out, cp_depth=d))
        elif case.name == "pp_recursion":
            make = _depth_maker(config, lambda d, r=r: _pp_tree(s, r, d, has_no_held_out))
        elif case.name == "obj_pp_to_subj_pp":
            make = lambda r=r: _subject_pp_tree(s, r, has_no_held_out)  # noqa: E731
        else:
            kind = item_kind(case.item, pcfg)
            make = lambda case=case, r=r, kind=kind: _conditioned(s, r, case.item, kind, case.gen)  # noqa: E731
        gen_rows += _collect(config.n_gen, make, s, case.name, seen)

    cols = ["source", "target", "case"]
    return {
        "train": pd.DataFrame(train + prim_rows + exposure_rows, columns=cols),
        "dev": pd.DataFrame(dev, columns=cols),
        "test": pd.DataFrame(test, columns=cols),
        "gen": pd.DataFrame(gen_rows, columns=cols),
    }


def _conditioned(
    s: _Sampler, rng: random.Random, item: str, kind: str, condition: str
) -> syn.Clause:
    """A base-grammar tree with ``item`` in one position of ``condition``."""
    for _ in range(s.config.max_tries):
        tree = s.base.sample_clause(rng)
        if _place(tree, condition, item, kind, s.base, rng) and _distinct_nominals(tree):
            return tree
    raise RuntimeError(f"no tree offers the position {condition!r}")


def _depth_maker(config: GeneratorConfig, make_at: Callable):
    """Cycle through the gen depths so that each gets (nearly) the same number of rows."""
    lo, hi = config.gen_depths
    depths = list(range(lo, hi + 1))
    state = {"i": 0}

    def make():
        d = depths[state["i"] % len(depths)]
        tree = make_at(d)
        state["i"] += 1
        return tree

    return make


def _pp_tree(s: _Sampler, rng: random.Random, depth: int, accept) -> syn.Clause:
    for _ in range(s.config.max_tries):
        tree = s.base.sample_clause(rng)
        if accept(tree) and _pp_chain(tree, depth, s.base, rng) and _distinct_nominals(tree):
            return tree
    raise RuntimeError("no tree offers a PP-taking object")


def _subject_pp_tree(s: _Sampler, rng: random.Random, accept) -> syn.Clause:
    for _ in range(s.config.max_tries):
        tree = s.base.sample_clause(rng)
        if accept(tree):
            _subject_pp(tree, s.base, rng)
            if _distinct_nominals(tree):
                return tree
    raise RuntimeError("no acceptable tree for obj_pp_to_subj_pp")


def _primitive_rows(config: GeneratorConfig, base: PCFG, s: _Sampler, already: set) -> list:
    """Primitive-meaning rows for randomly chosen (non-held-out) words of each type."""
    rng = _rng(config.seed, "primitives")
    lx = base.lexicon
    n_items = {c.item for c in GEN_CASES if c.item and c.train == "primitive" and c.item in already}
    kinds = {"name": 0, "noun": 0, "verb1": 0, "verb2": 0}
    for item in n_items:
        k = item_kind(item, base)
        if k == "verb":
            k = "verb2" if len(s.interpreter.primitive(item).lambdas) == 3 else "verb1"
        kinds[k] += 1
    pools = {
        "name": sorted(lx.proper),
        "noun": sorted(n.form for n in lx.nouns.values() if n.count > 0),
        "verb1": sorted(
            v.lemma
            for v in lx.verbs.values()
            if v.has("unaccusative") or (v.has("unergative") and not v.has("transitive"))
        ),
        "verb2": sorted(
            v.lemma for v in lx.verbs.values() if v.has("transitive") and not v.has("unaccusative")
        ),
    }
    rows = []
    for kind, n in config.primitives.items():
        if kind not in pools:
            raise ValueError(f"unknown primitive type {kind!r}; known: {list(pools)}")
        pool = [w for w in pools[kind] if w not in s.items]
        k = max(0, n - kinds[kind])
        if k > len(pool):
            raise ValueError(f"{n} {kind} primitives requested, only {len(pool)} available")
        rows += [s.row(w, "primitive") for w in rng.sample(pool, k)]
    return rows


def write_tsv(dataset: dict[str, pd.DataFrame], folder) -> list:
    """Write each split as ``<split>.tsv`` in the released format (no header)."""
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for split, frame in dataset.items():
        path = folder / f"{split}.tsv"
        path.write_text(
            "".join(
                f"{a}\t{b}\t{c}\n"
                for a, b, c in frame[["source", "target", "case"]].itertuples(index=False)
            )
        )
        out.append(path)
    return out

