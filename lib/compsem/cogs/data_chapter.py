"""The tables and glued numbers of the chapter ``cogs-data`` (Kim 2021, Chapter 4).

One function per thing the chapter shows: it takes the frames the chapter loaded or generated
(columns ``source``, ``target``, ``case`` of :mod:`compsem.data.cogs`) and returns a table, a
number, or a dict of numbers to glue (keys ``cogsdata_*``), so that the notebook stays a
narrative. The statistics themselves live in :mod:`compsem.cogs.corpus`, the logical forms in
:mod:`compsem.cogs.lf`, the parser in :mod:`compsem.cogs.interpret`, the figures in
:mod:`compsem.cogs.figures`. The dissertation's numbers beside ours (``data/targets/cogs-data.json``)
are set here: in the length and depth tables (:func:`length_comparison`,
:func:`depth_comparison`) and as the paper's marker on the length figure
(:func:`mark_paper_lengths`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

import numpy as np
import pandas as pd
from scipy.stats import contingency

from compsem.cogs import corpus, exposure, generate, grammar, lf, multiplicity
from compsem.cogs import evaluation as ev
from compsem.cogs.interpret import Interpreter, interpret_all
from compsem.cogs.lexicon import VERB_CLASSES, Lexicon

PERTURBATIONS = ("shuffle", "shuffle + rename", "swap agent and theme", "definite to indefinite")
"""The variants of a form that :func:`perturb` writes: two keep its meaning, two change it."""

STRUCTURAL_EXAMPLE_CASES = ("obj_pp_to_subj_pp", "cp_recursion", "pp_recursion")
"""The structural cases of Table 4-1 whose logical forms the chapter prints."""


# --------------------------------------------------------------------------- the released data


def pooled_case(case: str) -> str:
    """A row's case with the ``exposure_example_*`` cases pooled into ``exposure example``."""
    return "exposure example" if case.startswith("exposure_example_") else case


def case_composition(frame: pd.DataFrame) -> pd.Series:
    """Rows per case, the exposure examples pooled (:func:`pooled_case`), most frequent first:
    the make-up of a training set (Kim 2021, Section 4.4.3, "Splits")."""
    return frame.case.map(pooled_case).value_counts()


def released_sizes(
    splits: dict[str, pd.DataFrame], exposure_1: pd.DataFrame, exposure_100: pd.DataFrame
) -> pd.DataFrame:
    """Rows of every released file: the four splits and the two exposure files."""
    rows = {
        **{name: len(frame) for name, frame in splits.items()},
        "exposure-1": len(exposure_1),
        "exposure-100": len(exposure_100),
    }
    return pd.Series(rows).to_frame("rows")


def released_counts(
    splits: dict[str, pd.DataFrame], exposure_1: pd.DataFrame, exposure_100: pd.DataFrame
) -> dict:
    """The sizes and counts of Kim (2021, Section 4.4.3) in the released files: split sizes, 21
    cases of 1,000 rows, 15 exposure rows, the primitive rows split into nouns (at most one
    lambda) and verbs, the vocabularies of train, and the exposure rows per case of
    ``train_100`` (Section 4.5.7)."""
    train, gen = splits["train"], splits["gen"]
    per_case = gen.case.value_counts()
    in_exposure = exposure.exposure_mask(train, exposure_1)
    primitive_rows = train[(train.case == "primitive") & ~in_exposure]
    n_lambdas = primitive_rows.target.map(lambda t: len(lf.parse(t).lambdas))
    return {
        "cogsdata_n_train": len(train),
        "cogsdata_n_train_in_distribution": int(case_composition(train)["in_distribution"]),
        "cogsdata_n_dev": len(splits["dev"]),
        "cogsdata_n_test": len(splits["test"]),
        "cogsdata_n_gen": len(gen),
        "cogsdata_n_cases": gen.case.nunique(),
        "cogsdata_gen_per_case_min": int(per_case.min()),
        "cogsdata_gen_per_case_max": int(per_case.max()),
        "cogsdata_n_exposure": int(in_exposure.sum()),
        "cogsdata_n_noun_primitives": int((n_lambdas <= 1).sum()),
        "cogsdata_n_verb_primitives": int((n_lambdas >= 2).sum()),
        "cogsdata_src_vocab_train": len({w for x in train.source for w in x.split()}),
        "cogsdata_tgt_vocab_train": len({w for x in train.target for w in x.split()}),
        "cogsdata_exposure100_per_case": int(
            exposure_100[exposure_100.case != "primitive"].case.value_counts().min()
        ),
    }


def exposure100_values(exposure_100: pd.DataFrame) -> dict:
    """The make-up of the 100-exposure rows (Section 4.5.7; ``train_100_exposure_examples.tsv``):
    its rows, its exposure cases (primitive rows aside), the fewest distinct sentences of a case,
    the primitive items and the fewest times one is repeated."""
    cases = exposure_100[exposure_100.case != "primitive"]
    primitives = exposure_100[exposure_100.case == "primitive"]
    return {
        "cogsdata_exposure100_rows": len(exposure_100),
        "cogsdata_exposure100_cases": cases.case.nunique(),
        "cogsdata_exposure100_distinct_min": int(cases.groupby("case").source.nunique().min()),
        "cogsdata_exposure100_primitives": primitives.source.nunique(),
        "cogsdata_exposure100_primitive_repeats": int(primitives.source.value_counts().min()),
    }


def all_released_rows(
    splits: dict[str, pd.DataFrame], exposure_1: pd.DataFrame, exposure_100: pd.DataFrame
) -> pd.DataFrame:
    """Every released row, indexed by (file, row): the splits, then the two exposure files."""
    return pd.concat(
        [*splits.values(), exposure_1, exposure_100],
        keys=[*splits, "exposure-1", "exposure-100"],
    )


def round_trip(rows: pd.DataFrame, forms: list[lf.LogicalForm]) -> tuple[pd.DataFrame, dict]:
    """How many released forms (Section 4.4.2, Table 4-2) our parser writes back
    byte-identically and how many are well-formed (:func:`compsem.cogs.lf.problems`), as a table
    and as glued numbers; ``forms`` are the parsed ``rows.target``."""
    same = np.mean([f.to_string() == t for f, t in zip(forms, rows.target, strict=True)])
    well_formed = np.mean([not lf.problems(f) for f in forms])
    values = {
        "cogsdata_lf_rows": len(rows),
        "cogsdata_lf_round_trip": float(same),
        "cogsdata_lf_well_formed": float(well_formed),
    }
    table = pd.Series(
        {
            "rows parsed": len(rows),
            "written back byte-identically": f"{same:.2%}",
            "well-formed": f"{well_formed:.2%}",
        }
    ).to_frame("all released rows")
    return table, values


def order_changes(rows: pd.DataFrame, forms: list[lf.LogicalForm]) -> pd.DataFrame:
    """Per released file: the non-primitive rows, and how many change their conjunct order when
    re-sorted by the ordering rule of the released forms (:func:`compsem.cogs.lf.canonical`;
    Section 4.4.2 fixes the conjuncts, not their order), with the sentence and without it."""
    primitive = np.array([f.is_primitive for f in forms])
    kept = rows[~primitive]
    with_sentence = [lf.canonical(t, s) != t for s, t in zip(kept.source, kept.target, strict=True)]
    without_sentence = [lf.canonical(t) != t for t in kept.target]
    files = list(dict.fromkeys(rows.index.get_level_values(0)))
    return pd.DataFrame(
        {
            "rows": kept.groupby(level=0).size(),
            "order changed (rule with sentence)": pd.Series(with_sentence, index=kept.index)
            .groupby(level=0)
            .sum(),
            "order changed (rule without sentence)": pd.Series(without_sentence, index=kept.index)
            .groupby(level=0)
            .sum(),
        }
    ).loc[files]


def ambiguous_order(form: lf.LogicalForm) -> bool:
    """True when the released conjunct order of a (non-primitive) form cannot be read off the
    form: an event whose recipient and theme are both proper names (constants, which carry no
    index; Section 4.4.2). *The buyer forwarded Emma Charlie* and *The buyer forwarded Charlie to
    Emma* then have the same conjuncts in different orders, and the sentence-free ordering rule
    (:func:`compsem.cogs.lf.canonical` without the sentence) keeps the order the form is written
    in. Decided from the form alone, so the count is the same under any seed."""
    if form.is_primitive:
        return False
    objects: dict[int, dict[str, lf.Term]] = {}
    for atom in form.conjuncts:
        if atom.kind == "role" and atom.args[0].is_var:
            objects.setdefault(atom.args[0].value, {})[atom.predicate[1]] = atom.args[1]
    return any(
        all(role in roles and roles[role].kind == "const" for role in ("recipient", "theme"))
        for roles in objects.values()
    )


def ambiguous_order_counts(rows: pd.DataFrame, forms: Iterable[lf.LogicalForm]) -> pd.Series:
    """The forms of ``rows`` (indexed by file, as :func:`all_released_rows`; ``forms`` parsed
    from ``rows.target``) whose order the form cannot decide (:func:`ambiguous_order`), per file
    and case; only the (file, case) pairs that have any, in file order."""
    flags = pd.Series([ambiguous_order(f) for f in forms], index=rows.index)
    keys = [rows.index.get_level_values(0), rows.case.to_numpy()]
    counts = flags.groupby(keys, sort=False).sum()
    counts = counts[counts > 0].astype(int).rename_axis(["file", "case"])
    return counts.rename("forms whose order the form cannot decide")


def ambiguous_order_total(counts: pd.Series, file: str) -> int:
    """The forms of ``file`` whose order the form cannot decide (``counts``:
    :func:`ambiguous_order_counts`); 0 when the file has none."""
    return int(counts[counts.index.get_level_values(0) == file].sum())


def shuffled_not_restored(
    targets: Iterable[str], forms: Iterable[lf.LogicalForm], rng: random.Random
) -> int:
    """How many non-primitive forms (``targets``, parsed as ``forms``) whose order the form
    decides (not :func:`ambiguous_order`), their conjuncts shuffled with ``rng``, the
    sentence-free ordering rule (:func:`compsem.cogs.lf.canonical` without the sentence) does
    not restore to the released order of Section 4.4.2 (0 when the rule is right). Every
    non-primitive form is shuffled, the ambiguous ones too, so that ``rng`` is drawn from as
    often whatever the forms."""
    fails = 0
    for target, form in zip(targets, forms, strict=True):
        if form.is_primitive:
            continue
        conjuncts = list(form.conjuncts)
        rng.shuffle(conjuncts)
        if ambiguous_order(form):
            continue
        shuffled = lf.LogicalForm((), form.definites, tuple(conjuncts)).to_string()
        fails += lf.canonical(shuffled) != target
    return fails


def ambiguous_order_values(counts: pd.Series, files: Iterable[str] = ("train", "gen", "exposure-100")
                           ) -> dict[str, int]:
    """:func:`ambiguous_order_total` of each of ``files`` (``counts``:
    :func:`ambiguous_order_counts`), glued as ``cogsdata_ambiguous_order_<file>`` (the file's
    name without hyphens)."""
    return {f"cogsdata_ambiguous_order_{name.replace('-', '')}": ambiguous_order_total(counts, name)
            for name in files}


def shuffled_unrestored(splits: dict[str, pd.DataFrame], forms: pd.Series, rng: random.Random,
                        files: Iterable[str] = ("train", "gen")) -> int:
    """:func:`shuffled_not_restored` summed over ``files``, in their order, all drawing from the
    one ``rng``: ``splits[file].target`` with its forms ``forms.loc[file]`` (``forms`` indexed by
    file, as :func:`all_released_rows`)."""
    return sum(shuffled_not_restored(splits[name].target, forms.loc[name], rng) for name in files)


def _renamed(atom: lf.Atom, new_index: dict[int, int]) -> lf.Atom:
    """``atom`` with every Skolem index ``i`` replaced by ``new_index[i]``."""
    args = tuple(lf.Term("var", new_index[t.value]) if t.is_var else t for t in atom.args)
    return lf.Atom(atom.predicate, args)


def perturb(form: lf.LogicalForm, how: str, rng: random.Random) -> str | None:
    """A variant of a (non-primitive) form of Section 4.4.2, one of :data:`PERTURBATIONS`:
    conjuncts and definites shuffled, shuffled and their indices renamed (both keep the
    meaning), agent and theme swapped, or the first definite made an indefinite (both change
    it). None when the form has nothing to swap or no definite."""
    if how not in PERTURBATIONS:
        raise ValueError(f"unknown perturbation {how!r}; known: {PERTURBATIONS}")
    conj, defs = list(form.conjuncts), list(form.definites)
    if how in ("shuffle", "shuffle + rename"):
        rng.shuffle(conj)
        rng.shuffle(defs)
    if how == "shuffle + rename":
        old = sorted(form.variables)
        new_index = dict(zip(old, rng.sample(range(200), len(old)), strict=True))
        conj, defs = [_renamed(a, new_index) for a in conj], [_renamed(a, new_index) for a in defs]
    if how == "swap agent and theme":
        roles = {a.predicate[1] for a in conj if a.kind == "role"}
        if not {"agent", "theme"} <= roles:
            return None
        swap = {"agent": "theme", "theme": "agent"}
        conj = [
            lf.Atom((a.predicate[0], swap.get(a.predicate[1], a.predicate[1])), a.args)
            if a.kind == "role"
            else a
            for a in conj
        ]
    if how == "definite to indefinite":
        if not defs:
            return None
        conj, defs = [defs[0], *conj], defs[1:]
    return lf.LogicalForm((), tuple(defs), tuple(conj)).to_string()


def equivalence_table(targets: Iterable[str], forms: Iterable[lf.LogicalForm], rng: random.Random
                      ) -> pd.DataFrame:
    """Per perturbation (:func:`perturb`) of ``forms`` (the parsed ``targets``): the forms it
    applies to, and the share of variants that still match the original exactly (the metric of
    Kim 2021, Section 4.5) and that are equivalent to it (:func:`compsem.cogs.lf.equivalent`)."""
    pairs = list(zip(targets, forms, strict=True))
    rows = []
    for how in PERTURBATIONS:
        exact, equivalent, n = 0, 0, 0
        for target, form in pairs:
            variant = perturb(form, how, rng)
            if variant is None:
                continue
            n += 1
            exact += lf.exact_match(variant, target)
            equivalent += lf.equivalent(variant, target)
        rows.append(
            {"variant": how, "rows": n, "exact match": exact / n, "equivalent": equivalent / n}
        )
    return pd.DataFrame(rows).set_index("variant")


# --------------------------------------------------------------------------- the lexicon


def animate_pp_objects(sentences: Iterable[str], interpreter: Interpreter) -> int:
    """How many PP objects (at any depth of a PP chain) of the parsed sentences are nouns the
    lexicon calls animate (Section 4.4.1 names animacy as the only selectional restriction)."""
    nouns = interpreter.lexicon.nouns
    count = 0
    for sentence in sentences:
        for _, _, np_ in interpreter.parse(sentence).nps():
            node = np_.pp.np if np_.pp is not None else None
            while node is not None:
                count += bool(nouns[node.head].animate)
                node = node.pp.np if node.pp is not None else None
    return count


def lexicon_checks(derived: Lexicon, committed: Lexicon, train: pd.DataFrame) -> dict:
    """Glued numbers of the derived lexicon (Section 4.4.1): whether it reproduces the
    committed one, its animate and inanimate nouns, and the rows ``train`` labels primitive."""
    summary = derived.summary()
    return {
        "cogsdata_lexicon_reproduced": int(derived.to_json() == committed.to_json()),
        "cogsdata_lex_animate": int(summary.loc["  animate", "entries"]),
        "cogsdata_lex_inanimate": int(summary.loc["  inanimate", "entries"]),
        "cogsdata_n_primitive_rows": int((train.case == "primitive").sum()),
    }


LEXICON_KINDS = ("common_nouns", "proper_nouns", "verbs")
"""The three word classes whose sizes Section 4.4.1 gives (403 common nouns, 100 proper nouns,
113 verbs), in the order of :func:`form_lemmas`."""


def form_lemmas(form: lf.LogicalForm) -> dict[str, set[str]]:
    """The words of a form by kind (:data:`LEXICON_KINDS`): common nouns (noun predicates, by
    lemma: ``tv``), proper names (constants) and verbs (the lemmas of event predicates); of a
    primitive, its one word."""
    words: dict[str, set[str]] = {kind: set() for kind in LEXICON_KINDS}
    if form.constant is not None:
        words["proper_nouns"].add(form.constant)
    for atom in form.atoms:
        if atom.kind == "noun":
            words["common_nouns"].add(atom.lemma)
        elif atom.kind == "role":
            words["verbs"].add(atom.lemma)
        words["proper_nouns"].update(t.value for t in atom.args if t.kind == "const")
    return words


def _union(forms: Iterable[lf.LogicalForm]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {kind: set() for kind in LEXICON_KINDS}
    for form in forms:
        for kind, words in form_lemmas(form).items():
            out[kind] |= words
    return out


def exposure_items(train_forms: Iterable[lf.LogicalForm], in_exposure: Iterable[bool]
                   ) -> dict[str, set[str]]:
    """The held-out words of the exposure examples (Section 4.4.1: "5 common nouns, 3 proper
    nouns and 7 verbs used as primitive exposure examples"; Section 4.4.3), by kind: the words
    of the exposure rows of train (``in_exposure``, e.g. :func:`compsem.cogs.exposure.exposure_mask`)
    that no other training row, primitive rows included, contains."""
    pairs = list(zip(train_forms, in_exposure, strict=True))
    exposed = _union(f for f, e in pairs if e)
    elsewhere = _union(f for f, e in pairs if not e)
    return {kind: exposed[kind] - elsewhere[kind] for kind in LEXICON_KINDS}


def lexicon_sizes(split_forms: dict[str, Iterable[lf.LogicalForm]], items: dict[str, set[str]]
                  ) -> dict:
    """The lexicon counted as Section 4.4.1 counts it: the common nouns, proper names and verbs
    of the sentences (non-primitive rows) of every released split (``split_forms``: the parsed
    forms of train, dev, test and gen; *gardner* and *monastery* occur only outside train), less
    the exposure
    items (``items``: :func:`exposure_items`), which the text counts apart; and the exposure
    items per kind (``cogsdata_lex_exposure_*``)."""
    sentences = _union(f for forms in split_forms.values() for f in forms if not f.is_primitive)
    return {
        **{f"cogsdata_lex_{kind}": len(sentences[kind] - items[kind]) for kind in LEXICON_KINDS},
        **{f"cogsdata_lex_exposure_{kind}": len(items[kind]) for kind in LEXICON_KINDS},
    }


def sampled_lexicon_sizes(splits: dict[str, pd.DataFrame],
                          split_forms: dict[str, Iterable[lf.LogicalForm]]) -> dict:
    """The words of the sentences sampled from the grammar itself: the ``in_distribution`` rows
    of train, dev and test (Section 4.4.3: "We sampled 30,000 distinct sentences from our PCFG";
    the gen sets "were sampled from separate PCFGs", the primitives and exposure examples were
    added apart). Whatever they attest, the grammar of Section 4.4.1 has, so their verb lemmas
    bound its verb count from below (``cogsdata_lex_sampled_<kind>``, :data:`LEXICON_KINDS`).
    ``split_forms`` are the parsed targets of ``splits``, row for row."""
    sampled = []
    for name in ("train", "dev", "test"):
        cases = splits[name].case.to_numpy()
        sampled += [f for f, c in zip(split_forms[name], cases, strict=True)
                    if c == "in_distribution"]
    words = _union(sampled)
    return {f"cogsdata_lex_sampled_{kind}": len(words[kind]) for kind in LEXICON_KINDS}


TEXT_VERB_TYPES = tuple(c for c in VERB_CLASSES if c != "infinitive")
"""The verb classes of :data:`compsem.cogs.lexicon.VERB_CLASSES` that are the verb types
Section 4.4.1 lists (*eat*, *find*, *try*, *say*, *freeze*, *sleep*, *give*); ``infinitive`` is a
verb form, not a type."""


def verb_types(derived: Lexicon) -> int:
    """How many of the verb types of Section 4.4.1 (:data:`TEXT_VERB_TYPES`) the lexicon derived
    from train has verbs of: the count beside the text's "6 verb types"."""
    return sum(bool(derived.verbs_of(c)) for c in TEXT_VERB_TYPES)


def lexicon_size_table(split_forms: dict[str, Iterable[lf.LogicalForm]],
                       items: dict[str, set[str]]) -> pd.DataFrame:
    """Per kind (:data:`LEXICON_KINDS`): the words of the training sentences, of the sentences
    of all splits, the exposure items among them (named), and the lexicon of
    :func:`lexicon_sizes` (all splits less the exposure items)."""
    split_forms = {name: list(forms) for name, forms in split_forms.items()}
    train = _union(f for f in split_forms["train"] if not f.is_primitive)
    every = _union(f for forms in split_forms.values() for f in forms if not f.is_primitive)
    return pd.DataFrame(
        {
            "train sentences": {k: len(train[k]) for k in LEXICON_KINDS},
            "sentences of all splits": {k: len(every[k]) for k in LEXICON_KINDS},
            "exposure items": {k: len(items[k]) for k in LEXICON_KINDS},
            "lexicon (all splits less exposure items)": {
                k: len(every[k] - items[k]) for k in LEXICON_KINDS
            },
            "the exposure items": {k: ", ".join(sorted(items[k])) for k in LEXICON_KINDS},
        }
    )


def verbs_by_class(derived: Lexicon, shown: int = 8) -> pd.DataFrame:
    """Per verb class (the seven types of Section 4.4.1): its verbs, and the ``shown`` most
    frequent."""
    return pd.DataFrame(
        {
            "verbs": [len(derived.verbs_of(c)) for c in VERB_CLASSES],
            "most frequent": [
                ", ".join(v.lemma for v in derived.verbs_of(c)[:shown]) for c in VERB_CLASSES
            ],
        },
        index=VERB_CLASSES,
    )


UNATTESTED = "–"
"""How a table shows a form the data never attest (e.g. the participle of a verb never used in
a passive), instead of pandas' NaN."""


def irregular_verbs(derived: Lexicon) -> pd.DataFrame:
    """Past tense and participle of the verbs whose past form does not start with the lemma
    (minus its last letter), as the alignment with the forms finds them; a form the data never
    attest is :data:`UNATTESTED`."""
    return pd.DataFrame(
        [
            {"lemma": v.lemma, "past": v.past or UNATTESTED, "participle": v.participle or UNATTESTED}
            for v in derived.verbs.values()
            if v.past and not v.past.startswith(v.lemma[:-1])
        ]
    ).set_index("lemma")


# --------------------------------------------------------------------------- reference parser


def sample_rows(frame: pd.DataFrame, n: int, per_case: bool) -> pd.DataFrame:
    """``n`` rows of ``frame`` (seeded), spread evenly over the cases when ``per_case``; all of
    them when ``n`` is 0 or less."""
    if n <= 0:
        return frame
    if per_case:
        return frame.groupby("case").sample(n=max(1, n // frame.case.nunique()), random_state=0)
    return frame.sample(n=min(n, len(frame)), random_state=0)


def reference_parse(
    splits: dict[str, pd.DataFrame], interpreter: Interpreter, sample_per_split: int = 0
) -> dict[str, tuple[pd.DataFrame, list, pd.DataFrame]]:
    """The symbolic reference parser on every split (the gen sample spread over the 21 cases of
    Table 4-1): per split, the rows, the predicted forms (None outside the grammar) and their
    per-case :func:`compsem.cogs.corpus.match_table`."""
    reference = {}
    for name, frame in splits.items():
        rows = sample_rows(frame, sample_per_split, per_case=name == "gen")
        predictions = interpret_all(rows.source, interpreter)
        reference[name] = (rows, predictions, corpus.match_table(rows, predictions))
    return reference


def reference_splits(reference: dict) -> pd.DataFrame:
    """Per split (:func:`reference_parse`): rows, exact match (Section 4.5), equivalence and
    the share outside the grammar."""
    return pd.DataFrame(
        {
            name: {
                "rows": len(rows),
                "exact match": np.mean([p == t for p, t in zip(pred, rows.target, strict=True)]),
                "equivalent": table["equivalent"].mul(table["rows"]).sum() / len(rows),
                "outside the grammar": np.mean([p is None for p in pred]),
            }
            for name, (rows, pred, table) in reference.items()
        }
    ).T


def split_sizes(released: dict[str, pd.DataFrame], generated: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Rows per split of the released files and of our generated splits (Section 4.4.3), side
    by side."""
    return pd.DataFrame({"released": {n: len(f) for n, f in released.items()},
                         "generated": {n: len(f) for n, f in generated.items()}})


def reference_split_values(splits: pd.DataFrame) -> dict[str, float]:
    """The reference parse's exact match per split of :func:`reference_splits`, glued as
    ``cogsdata_ref_<split>`` (Section 4.5's metric)."""
    return {f"cogsdata_ref_{name}": float(splits.loc[name, "exact match"]) for name in splits.index}


def reference_case_values(by_case: pd.DataFrame) -> dict:
    """Glued exact match of the reference parser per generalization case
    (``cogsdata_ref_gen_<case>``), its mean over the lexical and the structural cases (the two
    aggregates of Figure 4-1) and its lowest over the cases (``cogsdata_ref_case_min``)."""
    values = {f"cogsdata_ref_gen_{case}": float(row["exact"]) for case, row in by_case.iterrows()}
    means = ev.aggregate(by_case["exact"])
    return (values | {f"cogsdata_ref_gen_{kind}": means[kind] for kind in ("lexical", "structural")}
            | {"cogsdata_ref_case_min": float(by_case["exact"].min())})


CLOSED_COLUMNS = ("rows", "with a word never in train", "outside the grammar",
                  "exact match, rows of training words")
"""The columns of :func:`closed_grammar_table`."""


def closed_grammar_table(splits: dict[str, pd.DataFrame], lexicon: Lexicon) -> pd.DataFrame:
    """The symbolic reference parser with the training lexicon alone (``open_nouns=False``: no
    word outside ``lexicon``, which is derived from train) on every split but train, per split
    and, for gen, per case (Table 4-1): the rows, those with a word that never occurs in a
    source sentence of ``splits["train"]`` (a data erratum: no gap of the benchmark), those
    outside the grammar, and the exact match on the rows whose every word occurs in train.
    Those rows hold every gap the benchmark tests, the held-out words (in train through their
    exposure rows) in new contexts and the held-out structures, so the last column asks
    whether the gaps are filled by composing known parts (the dissertation's Abstract and
    Sections 4.3-4.4). Indexed by (split, case)."""
    closed = Interpreter(lexicon, open_nouns=False)
    seen = {token for source in splits["train"].source for token in source.split()}
    parts = []
    for name, frame in splits.items():
        if name == "train":
            continue
        predictions = interpret_all(frame.source, closed)
        parts.append(pd.DataFrame({
            "split": name,
            "case": frame["case"].to_numpy(),
            "unseen": [any(t not in seen for t in source.split()) for source in frame.source],
            "outside": [p is None for p in predictions],
            "exact": [p == t for p, t in zip(predictions, frame.target, strict=True)],
        }))  # fmt: skip
    rows = pd.concat(parts, ignore_index=True)
    groups = rows.groupby(["split", "case"], sort=False)
    table = pd.DataFrame({
        CLOSED_COLUMNS[0]: groups.size(),
        CLOSED_COLUMNS[1]: groups.unseen.sum(),
        CLOSED_COLUMNS[2]: groups.outside.sum(),
        CLOSED_COLUMNS[3]: rows[~rows.unseen].groupby(["split", "case"], sort=False).exact.mean(),
    })  # fmt: skip
    return table.astype({c: int for c in CLOSED_COLUMNS[:3]})


def closed_grammar_values(table: pd.DataFrame) -> dict:
    """:func:`closed_grammar_table` glued: per split, the rows outside the closed grammar
    (``cogsdata_ref_closed_outside_<split>``) and the rows with a word never in train
    (``cogsdata_ref_unseen_rows_<split>``, the data erratum); over the splits and the gen cases,
    the lowest exact match on the rows of training words (``cogsdata_ref_closed_exact_min``, the
    claim gaps-fillable-by-composition; 1 also says that no row of training words falls outside
    the grammar), how many splits and cases it is taken over (``cogsdata_ref_closed_groups``)
    and how many rows (``cogsdata_ref_closed_rows``)."""
    by_split = table.groupby(level="split", sort=False).sum()
    values = {f"cogsdata_ref_closed_outside_{name}": int(n)
              for name, n in by_split[CLOSED_COLUMNS[2]].items()}  # fmt: skip
    values |= {f"cogsdata_ref_unseen_rows_{name}": int(n)
               for name, n in by_split[CLOSED_COLUMNS[1]].items()}  # fmt: skip
    seen_rows = table[CLOSED_COLUMNS[0]] - table[CLOSED_COLUMNS[1]]
    exact = table[CLOSED_COLUMNS[3]]
    values["cogsdata_ref_closed_exact_min"] = float(exact.min())  # NaN where no row is scored
    values["cogsdata_ref_closed_groups"] = int(exact.notna().sum())
    values["cogsdata_ref_closed_rows"] = int(seen_rows.sum())
    return values


# --------------------------------------------------------------------------- the grammar


STATED_FRAME_COLUMN = "dissertation's scheme (CP 8%, the rest uniform)"
"""The column of :func:`frame_weight_table` that holds :func:`compsem.cogs.grammar.dissertation_frame_weights`."""


def frame_weight_table(pcfg: grammar.PCFG) -> pd.DataFrame:
    """Clause-frame probabilities (Section 4.4.1): estimated from the training trees beside the
    dissertation's scheme as :func:`compsem.cogs.grammar.dissertation_frame_weights` applies it
    to our frames (CP embedding 8%, the remaining 92% spread uniformly over the other frames)."""
    return pd.DataFrame(
        {
            "estimated from train": pd.Series(pcfg.frame_weights),
            STATED_FRAME_COLUMN: pd.Series(grammar.dissertation_frame_weights()),
        }
    )


def stated_frame_values() -> dict:
    """What the dissertation's frame scheme (Section 4.4.1: "about 5%" per frame, "about 8%" for
    CP embedding) comes to on our grammar's frames
    (:func:`compsem.cogs.grammar.dissertation_frame_weights`): the number of frames other than CP
    embedding, the probability each gets, and the probability of CP embedding."""
    weights = grammar.dissertation_frame_weights()
    others = [w for frame, w in weights.items() if frame != "cp"]
    return {
        "cogsdata_stated_frames_non_cp": len(others),
        "cogsdata_stated_frame_weight": float(others[0]),
        "cogsdata_stated_cp_weight": float(weights["cp"]),
    }


def held_out_cases(held_out: str) -> tuple[str, ...]:
    """The cases of Table 4-1 named by the parameter ``gen_held_out``: ``all``, or names joined
    by commas."""
    if held_out == "all":
        return tuple(generate.CASES)
    return tuple(c.strip() for c in held_out.split(","))


def generator_config(
    n_train: int,
    n_dev: int,
    n_test: int,
    n_per_case: int,
    held_out: str,
    exposures: int,
    zipf_s: float,
    seed: int,
    frame_weights: str,
) -> generate.GeneratorConfig:
    """The generator's configuration from the chapter's parameters: ``held_out`` as in
    :func:`held_out_cases`, ``frame_weights`` ``estimated`` (the PCFG's own) or
    ``dissertation`` (Section 4.4.1: uniform, CP embedding 8%)."""
    if frame_weights not in ("estimated", "dissertation"):
        raise ValueError(f"frame_weights must be estimated or dissertation, got {frame_weights!r}")
    stated = grammar.dissertation_frame_weights() if frame_weights == "dissertation" else None
    return generate.GeneratorConfig(
        n_train=n_train,
        n_dev=n_dev,
        n_test=n_test,
        n_gen=n_per_case,
        held_out=held_out_cases(held_out),
        exposures=exposures,
        zipf_s=zipf_s,
        seed=seed,
        frame_weights=stated,
    )


def reparsed_share(dataset: dict[str, pd.DataFrame], interpreter: Interpreter) -> float:
    """Share of the rows of a generated dataset whose form the parser recovers from the
    sentence."""
    return float(
        np.mean(
            [
                interpreter(s) == t
                for frame in dataset.values()
                for s, t in zip(frame.source, frame.target, strict=True)
            ]
        )
    )


# --------------------------------------------------------------------------- released vs generated


def length_values(lengths: pd.DataFrame, gen: pd.DataFrame) -> dict:
    """The lengths of Section 4.4.3 and 4.5.4: the longest source and target of train and gen
    (``lengths``: :func:`compsem.cogs.corpus.length_summary` of the released splits), the mean
    target of the two recursion cases and of each split."""
    gen_len = corpus.token_lengths(gen)
    return {
        "cogsdata_train_tgt_max": int(lengths.loc["train", "target max"]),
        "cogsdata_gen_tgt_max": int(lengths.loc["gen", "target max"]),
        "cogsdata_train_src_max": int(lengths.loc["train", "source max"]),
        "cogsdata_gen_src_max": int(lengths.loc["gen", "source max"]),
        "cogsdata_cp_recursion_tgt_mean": float(
            gen_len[gen_len.case == "cp_recursion"].target.mean()
        ),
        "cogsdata_pp_recursion_tgt_mean": float(
            gen_len[gen_len.case == "pp_recursion"].target.mean()
        ),
        **{f"cogsdata_{n}_tgt_mean": float(lengths.loc[n, "target mean"]) for n in lengths.index},
    }


CONSTRUCTION_KEYS = {
    "passive": "passive",
    "recipient": "recipient",
    "nmod": "nmod",
    "nmod_two": "nmod (two or more)",
    "ccomp": "ccomp",
    "ccomp_two": "ccomp (two or more)",
    "xcomp": "xcomp",
    "max_cp_depth": "max CP depth",
    "max_pp_depth": "max PP depth",
    "subject_nmod": "nmod on a subject",
}
"""Glued key suffix (``cogsdata_train_<suffix>``) -> row of
:func:`compsem.cogs.corpus.construction_counts`."""


def construction_values(counts: pd.Series) -> dict:
    """The construction counts of the in-distribution training rows (Section 4.4.1's
    constructions and the structural gaps of Section 4.5.4), glued as ``cogsdata_train_*``."""
    return {f"cogsdata_train_{key}": int(counts[row]) for key, row in CONSTRUCTION_KEYS.items()}


def construction_max_difference(rates: pd.DataFrame | pd.Series,
                                generated: pd.Series | None = None) -> float:
    """The largest relative difference between the generated and the released rate (per row)
    of the nine constructions of ``rates`` (:func:`construction_rate_table`): the largest
    :func:`construction_gap`, max |ratio - 1|. Given the released and the generated counts
    instead (``construction_max_difference(released, generated)``), their table is built."""
    if generated is not None:
        rates = construction_rate_table(rates, generated)
    return float(pd.Series([construction_gap(rates, c) for c in rates.index], dtype=float).max())


def construction_rate_table(released: pd.Series, generated: pd.Series,
                            level: float = 0.95) -> pd.DataFrame:
    """The nine constructions after ``rows`` in :func:`compsem.cogs.corpus.construction_counts`,
    released against generated: each rate per row, the ratio generated / released, and its
    interval (the log-ratio interval of two binomial proportions,
    :func:`scipy.stats.contingency.relative_risk`); ``differs`` when the interval excludes 1,
    i.e. the generator's rate differs from the released one beyond sampling error.

    ``level`` is the family's: the nine intervals hold together with at least that probability
    (Bonferroni: each at ``1 - (1 - level) / 9``), so a row marked ``differs`` is not one of
    nine chances at a false alarm."""
    constructions = released.index[1:10]
    each_level = multiplicity.bonferroni_level(len(constructions), 1 - level)
    rows = []
    for construction in constructions:
        ratio = contingency.relative_risk(
            int(generated[construction]), int(generated["rows"]),
            int(released[construction]), int(released["rows"]),
        )
        interval = ratio.confidence_interval(each_level)
        rows.append({
            "construction": construction,
            "released rate": released[construction] / released["rows"],
            "generated rate": generated[construction] / generated["rows"],
            "ratio": ratio.relative_risk,
            "ci low": interval.low,
            "ci high": interval.high,
            "differs": not interval.low <= 1 <= interval.high,
        })
    return pd.DataFrame(rows).set_index("construction")


def construction_gap(rates: pd.DataFrame, construction: str) -> float:
    """|ratio - 1| of one construction in :func:`construction_rate_table`: how far the
    generator's rate of it lies from the released one, relatively."""
    return float(abs(rates.loc[construction, "ratio"] - 1))


def generated_gap_values(generated: pd.Series) -> dict:
    """The structural gaps of Table 4-1 in generated training rows (``generated``:
    :func:`compsem.cogs.corpus.construction_counts`): nmods on a subject (none in the released
    training data) and the deepest CP or PP nesting (Section 4.3.3: at most 2 in training)."""
    return {
        "cogsdata_generated_subject_nmod": int(generated["nmod on a subject"]),
        "cogsdata_generated_max_depth": int(
            max(generated["max CP depth"], generated["max PP depth"])
        ),
    }


# --------------------------------------------------------------------------- the paper beside ours


def _target(key: str) -> dict:
    """The target ``key`` of ``data/targets/cogs-data.json``."""
    from compsem.targets import load_targets

    return load_targets("cogs-data")[key]


def _section(key: str) -> str:
    """Where the dissertation gives the target ``key``: its ``source`` up to the first
    parenthesis (``"Section 4.5.4"``)."""
    return _target(key)["source"].split(" (")[0].split(";")[0].strip()


PAPER_LENGTH_KEYS = {"train": "cogsdata_train_tgt_max", "gen": "cogsdata_gen_tgt_max"}
"""Split -> the target giving the dissertation's longest target (tokens) in it."""

PAPER_SIZE_KEYS = {"train": "cogsdata_n_train", "dev": "cogsdata_n_dev", "test": "cogsdata_n_test",
                   "gen": "cogsdata_n_gen"}
"""Split -> the target giving the dissertation's number of rows of it (Section 4.4.3)."""


def length_comparison(released: pd.DataFrame, generated: pd.DataFrame) -> pd.DataFrame:
    """The length summaries (:func:`compsem.cogs.corpus.length_summary`) of the released and
    the generated splits side by side, and after them the dissertation's numbers for the same
    rows (a ``paper`` group: the rows of each split, Section 4.4.3, and the longest target of
    train and gen, Section 4.5.4, from ``data/targets/cogs-data.json``; blank where the text
    gives none)."""
    paper = pd.DataFrame(
        {column: [_target(keys[split])["paper"] if split in keys else "" for split in released.index]
         for column, keys in (("rows", PAPER_SIZE_KEYS), ("target max", PAPER_LENGTH_KEYS))},
        index=released.index, dtype=object,
    )
    return pd.concat({"released": released.round(1), "generated": generated.round(1),
                      "paper": paper}, axis=1)


def mark_paper_lengths(fig):
    """The dissertation's longest target of train and gen (Section 4.5.4: :data:`PAPER_LENGTH_KEYS`)
    on the panels of :func:`compsem.cogs.figures.target_lengths`, as the book's paper marker (a
    black cross at the top of the panel, a dotted line down to the axis, the number beside it).
    The panels' limits are kept. Returns the figure."""
    from compsem.plotting import paper_marks

    for ax, split in zip(fig.axes, PAPER_LENGTH_KEYS, strict=False):
        value = _target(PAPER_LENGTH_KEYS[split])["paper"]
        xlim, ylim = ax.get_xlim(), ax.get_ylim()
        top = ax.get_xaxis_transform()  # x in data, y in axes fraction
        ax.axvline(value, color="black", lw=0.8, ls=":")
        paper_marks(ax, [value], [0.96], label=None, transform=top)
        ax.annotate(f"paper: {value} ({_section(PAPER_LENGTH_KEYS[split])})", (value, 0.96),
                    xycoords=top, xytext=(-6, 0), textcoords="offset points", ha="right",
                    va="center", fontsize=7, bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1})
        ax.set(xlim=xlim, ylim=ylim)
    return fig


def depth_comparison(released: pd.DataFrame, generated: pd.DataFrame) -> pd.DataFrame:
    """Rows per recursion depth in the recursion cases of gen (``released``, ``generated``:
    :func:`compsem.cogs.corpus.depth_table`), one row per corpus and case, with the shallowest
    and deepest depth of each, and below them the dissertation's range (Section 4.3.3: gen
    depths 3-12, targets ``cogsdata_gen_min_depth``/``cogsdata_gen_max_depth``; it prints no
    count per depth, so those cells are blank)."""
    rows = pd.concat({"released": released.T, "generated": generated.T}, names=["corpus", "case"])
    rows = rows.reindex(columns=sorted(rows.columns)).fillna(0).astype(int)
    present = rows.gt(0)
    rows = rows.assign(**{
        "min depth": [int(r[r].index.min()) for _, r in present.iterrows()],
        "max depth": [int(r[r].index.max()) for _, r in present.iterrows()],
    }).astype(object)
    section = _section("cogsdata_gen_min_depth")
    paper = {"min depth": _target("cogsdata_gen_min_depth")["paper"],
             "max depth": _target("cogsdata_gen_max_depth")["paper"]}
    rows.loc[(f"paper ({section})", "both cases"), :] = [paper.get(c, "") for c in rows.columns]
    return rows


def depth_values(depths: pd.DataFrame) -> dict:
    """The recursion depths of the released gen set (Section 4.3.3: depths 3 to 12) and the
    fewest and most rows per depth (``depths``: :func:`compsem.cogs.corpus.depth_table`)."""
    return {
        "cogsdata_gen_min_depth": int(depths.index.min()),
        "cogsdata_gen_max_depth": int(depths.index.max()),
        "cogsdata_gen_per_depth_min": int(depths.to_numpy().min()),
        "cogsdata_gen_per_depth_max": int(depths.to_numpy().max()),
    }


def case_profile(frame: pd.DataFrame, structure: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per generalization case: the share of rows embedded in a CP, the share with an ``nmod``,
    and the mean target tokens (the make-up of the gen sets of Section 4.4.3). ``structure``:
    :func:`compsem.cogs.corpus.structure` of ``frame`` when already computed (it is not
    changed)."""
    st = (corpus.structure(frame) if structure is None else structure).copy()
    st["target tokens"] = corpus.token_lengths(frame).target
    return st.groupby("case").agg(
        embedded=("cp_depth", lambda d: float((d > 0).mean())),
        with_nmod=("nmod", lambda d: float((d > 0).mean())),
        tokens=("target tokens", "mean"),
    )


EMBEDDED_CASES = (
    "only_seen_as_transitive_subj_as_unacc_subj",
    "only_seen_as_unacc_subj_as_obj_omitted_transitive_subj",
    "only_seen_as_unacc_subj_as_unerg_subj",
)
"""The gen cases about *cobra* and *hippo* (Table 4-1), mostly embedded in a CP in the released
set."""


def embedding_values(released: pd.DataFrame, generated: pd.DataFrame) -> dict:
    """Shares of embedded gen examples per case (:func:`case_profile` of the released and of the
    generated gen set): the smallest share among the *cobra* and *hippo* cases
    (:data:`EMBEDDED_CASES`) in each set, the largest among the other cases but CP recursion
    (embedded by definition) in either set, and the largest difference between the two sets
    over all cases."""
    cases = list(EMBEDDED_CASES)
    other = [c for c in released.index if c not in EMBEDDED_CASES and c != "cp_recursion"]
    both = pd.concat([released.embedded, generated.embedded], axis=1, keys=["r", "g"]).dropna()
    return {
        "cogsdata_cobra_hippo_embedded_released": float(released.embedded[cases].min()),
        "cogsdata_cobra_hippo_embedded_generated": float(generated.embedded[cases].min()),
        "cogsdata_other_cases_embedded_max": float(
            max(released.embedded[other].max(), generated.embedded.reindex(other).max())
        ),
        "cogsdata_case_embedded_maxdiff": float((both.r - both.g).abs().max()),
    }


def case_embedded_counts(frame: pd.DataFrame, structure: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per generalization case: its rows and how many of them are embedded in a CP (the
    counts behind the ``embedded`` share of :func:`case_profile`). ``structure``:
    :func:`compsem.cogs.corpus.structure` of ``frame`` when already computed."""
    st = corpus.structure(frame) if structure is None else structure
    return st.groupby("case").agg(rows=("cp_depth", "size"),
                                  embedded=("cp_depth", lambda d: int((d > 0).sum())))


def case_embedded_table(released: pd.DataFrame, generated: pd.DataFrame,
                        level: float = 0.95) -> pd.DataFrame:
    """Per case present in both sets (:func:`case_embedded_counts` of each), the released and
    the generated share of embedded examples, their difference (generated - released) and its
    interval: Newcombe's hybrid score interval of a difference of two independent proportions
    (Newcombe 1998, method 10), built from the Wilson intervals of the two shares
    (:func:`compsem.stats.wilson_interval`), which stays inside [-1, 1] and is defined at
    shares of 0 and 1 (CP recursion is embedded by definition). ``differs`` when the interval
    excludes 0. As in :func:`construction_rate_table`, ``level`` is the family's: each interval
    is at ``1 - (1 - level) / k`` for the k cases (Bonferroni), so a case marked ``differs`` is
    not one of k chances at a false alarm. The unit is the row of one generated draw: the
    interval covers the sampling of rows, not the spread between generator seeds."""
    from compsem.stats import wilson_interval

    cases = released.index.intersection(generated.index)
    each_level = multiplicity.bonferroni_level(len(cases), 1 - level)
    r, g = released.loc[cases], generated.loc[cases]
    pr, pg = r.embedded / r.rows, g.embedded / g.rows
    lr, ur = wilson_interval(r.embedded.to_numpy(), r.rows.to_numpy(), each_level)
    lg, ug = wilson_interval(g.embedded.to_numpy(), g.rows.to_numpy(), each_level)
    diff = (pg - pr).to_numpy()
    low = diff - np.sqrt((pg.to_numpy() - lg) ** 2 + (ur - pr.to_numpy()) ** 2)
    high = diff + np.sqrt((ug - pg.to_numpy()) ** 2 + (pr.to_numpy() - lr) ** 2)
    table = pd.DataFrame({
        "released share": pr.to_numpy(), "generated share": pg.to_numpy(),
        "difference": diff, "ci low": low, "ci high": high,
        "differs": ~((low <= 0) & (0 <= high)),
    }, index=cases)
    table.attrs["each_level"] = each_level
    return table


def case_embedded_values(table: pd.DataFrame, level: float = 0.95) -> dict:
    """From :func:`case_embedded_table`: the cases compared (``cogsdata_case_embedded_cases``),
    how many of them differ beyond sampling at the family level (``..._differ``), the level of
    each interval (``..._each_level``: the one the table was built with, its
    ``attrs["each_level"]``; from the family ``level`` only for a table without it) and the
    widest interval's half-width (``..._halfwidth_max``)."""
    each_level = table.attrs.get("each_level")
    if each_level is None:
        each_level = multiplicity.bonferroni_level(len(table), 1 - level)
    return {
        "cogsdata_case_embedded_cases": int(len(table)),
        "cogsdata_case_embedded_differ": int(table["differs"].sum()),
        "cogsdata_case_embedded_each_level": each_level,
        "cogsdata_case_embedded_halfwidth_max": float(
            ((table["ci high"] - table["ci low"]) / 2).max()),
    }


def embedded_case_exposures(train: pd.DataFrame, exposure_1: pd.DataFrame) -> pd.DataFrame:
    """The exposure rows of ``train`` for the cases of :data:`EMBEDDED_CASES` (their exposure
    cases per :data:`compsem.cogs.generate.CASES`), each with its held-out item and whether it is
    embedded in a CP (:func:`compsem.cogs.corpus.structure`)."""
    wanted = {generate.CASES[c].exposure: generate.CASES[c].item for c in EMBEDDED_CASES}
    rows = train[exposure.exposure_mask(train, exposure_1) & train.case.isin(list(wanted))]
    embedded = corpus.structure(rows).cp_depth.to_numpy() > 0
    return pd.DataFrame({"item": rows.case.map(wanted).to_numpy(), "case": rows.case.to_numpy(),
                         "sentence": rows.source.to_numpy(), "embedded": embedded}).set_index("item")


def embedded_exposure_values(exposures: pd.DataFrame) -> dict:
    """:func:`embedded_case_exposures` glued: its rows and how many of them are embedded."""
    return {"cogsdata_cobra_hippo_exposure_rows": len(exposures),
            "cogsdata_cobra_hippo_exposure_embedded": int(exposures.embedded.sum())}


def rank_frequencies(forms: dict[str, pd.DataFrame]) -> dict[tuple[str, str], pd.Series]:
    """Rank-frequency (:func:`compsem.cogs.corpus.rank_frequency`) of nouns, names and verbs in
    each labelled set of forms, keyed (kind, label): the Zipfian sampling of Section 4.4.1."""
    return {
        (kind, label): corpus.rank_frequency(frame, kind)
        for kind in ("noun", "name", "verb")
        for label, frame in forms.items()
    }


def zipf_slopes(frequencies: dict[tuple[str, str], pd.Series], top: int = 50) -> pd.DataFrame:
    """Log-log slope of the ``top`` most frequent words of each (kind, label) of
    :func:`rank_frequencies` (-s for a Zipf law of exponent s), kinds by labels."""
    slopes = {key: corpus.zipf_slope(freq, top=top) for key, freq in frequencies.items()}
    return pd.Series(slopes).unstack()


def clause_frame_shares(frame: pd.DataFrame, interpreter: Interpreter) -> pd.Series:
    """Share of each clause frame (Section 4.4.1's construction types) among all clauses,
    embedded ones included, of the parsed sentences."""
    frames = [c.frame for s in frame.source for c in interpreter.parse(s).clauses()]
    return pd.Series(frames).value_counts(normalize=True)


def case_examples(frame: pd.DataFrame, n: int, seed: int) -> pd.Series:
    """``n`` sentences of each generalization case (Table 4-1), drawn with ``seed``."""
    return frame.groupby("case").sample(n=n, random_state=seed).set_index("case").source


def structural_examples(gen: pd.DataFrame, held: Iterable[str]) -> str:
    """The first sentence and form of each held-out structural case
    (:data:`STRUCTURAL_EXAMPLE_CASES`), one block per case, each followed by a blank line."""
    text = ""
    for case in STRUCTURAL_EXAMPLE_CASES:
        if case in held:
            row = gen[gen.case == case].iloc[0]
            text += f"{case}\n  {row.source}\n  {row.target}\n\n"
    return text


# --------------------------------------------------------------------------- the 2022 fix


def fixed_2022_rows(gen: pd.DataFrame, interpreter: Interpreter) -> int:
    """How many ``obj_pp_to_subj_pp`` rows (Table 4-1) have a clause whose subject is a
    PP-modified animate subject (a proper name or an animate noun) of an unaccusative verb: the
    rows whose role the 2022 upstream fix of ``gen.tsv`` changed from agent to theme (upstream
    README, changelog of 2022/09/13). A row counts once, however many such clauses it has."""
    nouns = interpreter.lexicon.nouns

    def fixed(clause) -> bool:
        subj = clause.args.get("theme")
        if clause.frame != "unaccusative" or subj is None or subj.pp is None:
            return False
        noun = nouns.get(subj.head)
        return bool(subj.proper or (noun is not None and noun.animate))

    return sum(any(fixed(c) for c in interpreter.parse(sentence).clauses())
               for sentence in gen[gen.case == "obj_pp_to_subj_pp"].source)


CHANGELOG_FIX = re.compile(r"Fixed semantic roles of (\d+) examples in the generalization set")
"""The entry of upstream's README changelog (2022/09/13) that announces the role fix of
``gen.tsv``."""


def changelog_fixed_examples(readme: str) -> int:
    """The number of examples the 2022 changelog entry of upstream's ``README.md`` says were fixed
    (:data:`CHANGELOG_FIX`); ValueError when the README has no such entry."""
    found = CHANGELOG_FIX.search(readme)
    if found is None:
        raise ValueError("the README has no changelog entry 'Fixed semantic roles of <n> examples "
                         "in the generalization set'")
    return int(found.group(1))


# --------------------------------------------------------------------------- counts without a paper number


RELEASED_FILE_COUNTS = {
    "cogsdata_train_tgt_mean": "mean target tokens, train",
    "cogsdata_dev_tgt_mean": "mean target tokens, dev",
    "cogsdata_test_tgt_mean": "mean target tokens, test",
    "cogsdata_gen_tgt_mean": "mean target tokens, gen",
    "cogsdata_cp_recursion_tgt_mean": "mean target tokens, gen cp_recursion",
    "cogsdata_pp_recursion_tgt_mean": "mean target tokens, gen pp_recursion",
    "cogsdata_train_src_max": "longest source (tokens), train",
    "cogsdata_gen_src_max": "longest source (tokens), gen",
    "cogsdata_src_vocab_train": "source token types, train",
    "cogsdata_tgt_vocab_train": "target token types, train",
    "cogsdata_gen_per_depth_min": "fewest gen rows at one recursion depth (3 to 12, both cases)",
    "cogsdata_gen_per_depth_max": "most gen rows at one recursion depth (3 to 12, both cases)",
    "cogsdata_train_passive": "in-distribution training rows with a passive",
    "cogsdata_train_recipient": "... with a recipient",
    "cogsdata_train_nmod": "... with an nmod",
    "cogsdata_train_nmod_two": "... with two or more nmods",
    "cogsdata_train_ccomp": "... with a ccomp",
    "cogsdata_train_ccomp_two": "... with two or more ccomps",
    "cogsdata_train_xcomp": "... with an xcomp",
    "cogsdata_order_violations": "non-primitive training rows off the conjunct-order rule",
}
"""The counts of the released files that the dissertation does not print (glued key -> what is
counted). They are not paper numbers, so they are not in ``data/targets/cogs-data.json``: the
chapter shows them apart (:func:`released_file_table`) and the test suite holds them to the
values counted from the checksum-verified files."""


def paper_numbers(results: dict) -> dict:
    """The entries of ``results`` that have a paper number: all but :data:`RELEASED_FILE_COUNTS`."""
    return {key: value for key, value in results.items() if key not in RELEASED_FILE_COUNTS}


def released_file_table(results: dict) -> pd.DataFrame:
    """:data:`RELEASED_FILE_COUNTS` with our value of each (``results``, by glued key)."""
    return pd.DataFrame(
        {"counted": RELEASED_FILE_COUNTS.values(),
         "ours": [results[key] for key in RELEASED_FILE_COUNTS]},
        index=pd.Index(RELEASED_FILE_COUNTS.keys(), name="quantity"),
    )
