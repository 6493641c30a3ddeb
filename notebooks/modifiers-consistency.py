# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Modifier consistency: do phrase embeddings respect Montague's adjective classes?
#
# **The question.** Montague semantics gives adjectives set-theoretic meanings. A *red car* is
# in the set of cars and in the set of red things (subsective, intersective: S-I); a *skilful
# teacher* is a teacher but "skilful" has no set of its own (subsective, non-intersective: S-NI);
# an *alleged criminal* may or may not be a criminal (plain non-subsective: NS-Pl); a *fake
# wall* is not a wall (privative non-subsective: NS-Pr). Carvalho, Manino, Rozanova, Cordeiro and
# Freitas {cite}`carvalho2023montaguearxiv,carvalho2025montague` ask whether phrase embeddings
# respect these relations. They read "set inclusion" as "shorter cosine distance" and turn the
# theory into three label-free tests (*metamorphic relations*) over 44,652 generated phrases:
#
# 1. **single-phrase intersectivity** (Eq. 3/4): a phrase lies closer to each of its words
#    than its words lie to each other;
# 2. **phrase-pair intersectivity** (Eq. 5/6): *Canadian writer* and *Canadian surgeon* are
#    closer than *skilful writer* and *skilful surgeon*;
# 3. **non-subsectivity** (Eq. 7/8): a non-subsective adjective pulls the phrase towards itself,
#    away from the noun.
#
# The paper exists in two versions with different models: the arXiv preprint ("001"; sBERT,
# DistilRoBERTa, Sentence-T5, MiniLM, DPR, LaBSE, GloVe, Word2Vec) and the COLING 2025 paper
# ("004"; DPR, LaBSE, Specter, TE3-small, NV-Embed-v2, Stella, GloVe, Word2Vec).
#
# **What this chapter does.** It rebuilds the lexicon and the phrase set, implements each test
# twice, as printed in the paper and as the authors' code computed it, and runs them on the
# exact **MiniLM** model of 001 (all-MiniLM-L6-v2 {cite}`wang2020minilm`, from the package
# index), whose rows of Tables 1-4 and 6-8 are numeric targets. GloVe
# {cite}`pennington2014glove` is run from the packaged 50-d GloVe 6B as a labelled substitute
# for the paper's 300-d vectors, spaCy's vectors as a further static baseline, and first-token
# pooling of MiniLM as a pooling ablation. Every other model of both
# versions appears from the papers' tables, labelled "not run here"; it runs when you pass its
# hub id and have network. Beyond the paper: confidence intervals, a permutation test of the
# claim that adjective classes do not differ significantly, a label-shuffle null, per-noun
# spread and a context-template ablation.
#
# *Time to read: 25 minutes. Prerequisites: cosine distance; the idea of a permutation test.*

# %% [markdown]
# ## Findings
#
# ```{glue:md} findings_headline
# :format: myst
# ```
#
# ```{glue} findings_table
# ```

# %% [markdown]
# ## Parameters

# %% tags=["parameters"]
# run on the AN, pair and non-subsectivity tests (encoder names, hf:<hub id>, mean:<word vectors>)
models = ["minilm", "mean:glove50", "mean:spacy-md"]
# also run on the AAN test (48,385 strings each)
aan_models = ["minilm", "mean:glove50", "mean:spacy-md"]
pooling_models = ["minilm:cls"]  # first-token pooling of a mean-pooled backbone (ablation)
template = "This is a {phrase}."  # context template of the ablation; the paper embeds bare phrases
template_models = ["minilm"]  # models run again with every string inside the template
n_boot = 2000  # bootstrap resamples: adjectives within class, and nouns
n_perm = 2000  # label shuffles for the permutation tests and the null
ci_level = 0.95
seed = 0
device = "auto"  # auto (GPU if present), cpu or cuda
batch_size = 128

# %%
import time
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats as sps

from compsem import report
from compsem.modifiers import experiment, lexicon, phrases, subsectivity
from compsem.modifiers import pairs as pair_test
from compsem.modifiers import statistics as st
from compsem.modifiers import tables as T
from compsem.modifiers.lexicon import CLASSES

warnings.filterwarnings("ignore", category=FutureWarning)
report.set_theme()
targets = report.load_targets("modifiers")
results = {}  # every number compared with the paper, by target key
run_plan = experiment.plan(models, aan_models, pooling_models, template_models)


def style_table(frame, digits=3):
    """Scores with a fixed number of decimals; rows not run here in grey."""
    colours = {
        "ours": "black",
        "reproduced here": "#1b7837",
        "substitute run here": "#8c510a",
        "not run here": "#777777",
    }
    numeric = [c for c in frame.columns if c != "status"]
    styler = frame.style.format({c: f"{{:.{digits}f}}" for c in numeric}, na_rep="–")
    if "status" in frame:
        styler = styler.apply(
            lambda row: [f"color: {colours.get(row['status'], 'black')}"] * len(row), axis=1
        )
    return styler


# %% [markdown]
# ## Data
#
# **The lexicon** is Appendix A of both versions: 61 adjectives in five classes, the subsective
# ones from the examples of {cite}`morzycki2016modification` and the non-subsective ones from
# {cite}`pavlick2016socalled`, and 12 nouns "covering both concrete and abstract concepts".
# The word lists are read from the authors' `data/adjectives.csv` through the data registry;
# which column is which class, and the class sizes the papers print, are project data
# (`data/lexicons/carvalho_classes.yaml`). Three quirks
# are kept on purpose, because they change the strings the models see: every word is
# **lower-cased** as in the authors' code (`Canadian` → `canadian`); the noun **occurence** is
# misspelled in the paper and the CSV; **ex-** is a word of its own (*ex- dog*), which GloVe and
# spaCy do not know, so its static vector is zero. The 2025 version also lists one synonym per
# word ("totaling 122 adjectives"); no experiment of either version uses them.

# %%
lex = lexicon.load()
info = lexicon.class_info()
sizes = lex.class_sizes()
class_table = pd.DataFrame(
    {
        "class": [c["name"] for c in info["classes"]],
        "definition": [c["definition"] for c in info["classes"]],
        "adjectives": [sizes[c["code"]] for c in info["classes"]],
        "001 Table 5": [c["count_2022"] for c in info["classes"]],
        "words": [
            ", ".join(lex.adjectives.loc[lex.adjectives["cls"] == c["code"], "word"])
            for c in info["classes"]
        ],
        "004 synonyms (unused)": [
            ", ".join(lex.adjectives.loc[lex.adjectives["cls"] == c["code"], "synonym"])
            for c in info["classes"]
        ],
    },
    index=[c["code"] for c in info["classes"]],
)
for code, n in sizes.items():
    results[f"mod_n_class_{T.cell_slug((code,))}"] = n
results["mod_n_adjectives"] = len(lex.adjectives)
results["mod_n_nouns"] = len(lex.nouns)
results["mod_n_adjectives_with_synonyms"] = len(lex.adjectives) + int(
    lex.adjectives["synonym"].notna().sum()
)
class_table

# %% [markdown]
# **The phrases** are the regular language `(adj)+ noun` up to three words, with two different
# adjectives in either order and no filtering ("red wild dog" and "wild red dog" are both in):
# {glue:text}`mod_x_n_an:,.0f` AN phrases and {glue:text}`mod_x_n_aan:,.0f` AAN phrases,
# {glue:text}`mod_n_phrases:,.0f` in all, the paper's "44652". The authors' own generator, run
# without its final filter, also yields the empty string, lone words and adjective pairs
# ({glue:text}`mod_x_n_sequences:,.0f` sequences). A *cell* is the tuple of adjective classes in
# word order; the AAN cell (NS-Pr, S-I) holds the phrases whose first adjective is privative and
# second intersective. AAN cell sizes (rows: first adjective, columns: second):

# %%
table = phrases.generate(lex, max_words=3)
an_table = table[table["kind"] == "AN"].reset_index(drop=True)
aan_table = table[table["kind"] == "AAN"].reset_index(drop=True)
results["mod_n_phrases"] = len(table)
report.glue("mod_x_n_an", len(an_table))
report.glue("mod_x_n_aan", len(aan_table))
report.glue("mod_x_n_sequences", sum(1 for _ in phrases.sequences(lex)))
report.glue("mod_x_n_strings_an", len(phrases.strings_needed(lex, an_table)))
report.glue("mod_x_n_strings_all", len(phrases.strings_needed(lex, table)))
aan_sizes = phrases.cell_sizes(aan_table)
assert aan_sizes == phrases.expected_cell_sizes(lex, "AAN")
pd.DataFrame(
    [[aan_sizes[(x, y)] for y in CLASSES] for x in CLASSES], index=CLASSES, columns=CLASSES
)

# %% [markdown]
# ## Method
#
# Every word and phrase is embedded on its own, as a bare string (a single word is a one-word
# "sentence"), and compared by cosine distance $d(u, v) = 1 - \cos(u, v)$; a zero vector has
# distance 1 to everything.
#
# **Test 1, single-phrase intersectivity.** For a phrase $p = t_1 \dots t_h$ whose adjectives
# are intersective, $P \subseteq T_i$ for every term, while separate terms are "generally
# unrelated":
#
# $$I_{m,p} \equiv d(\mathrm{emb}_m(p), \mathrm{emb}_m(t_i)) \le d(\mathrm{emb}_m(t_j), \mathrm{emb}_m(t_k)) \quad \forall i, j, k;\ j<k \tag{3}$$
#
# and the consistency of model $m$ is the share of phrases that satisfy it,
# $E_{m,L}\{I_{m,p} = \top\}$ (Eq. 4), per cell. The authors' code computes something else for
# three-word phrases: the right-hand sides are the distances across every *bipartition* of the
# phrase, each side embedded as a (sub)phrase, $d(a_1, \text{“}a_2\,n\text{”})$,
# $d(a_2, \text{“}a_1\,n\text{”})$ and $d(n, \text{“}a_1\,a_2\text{”})$; every distance
# $\ge 1$ is dropped before comparing (a phrase with nothing left passes). We run both: **paper**
# (Eq. 3 as printed) and **code** (the published numbers). For AN phrases they coincide up to
# the filter.
#
# **Test 2, phrase-pair intersectivity.** For adjectives $a_1 \ne a_2$ and nouns $n_1 \ne n_2$,
#
# $$II_{m,\{p\}} = d(p_{a_1n_1}, p_{a_1n_2}) \le d(p_{a_2n_1}, p_{a_2n_2}) \tag{5}$$
#
# expected when $a_1$ is intersective and $a_2$ is not; Eq. 6 is its share per cell
# (class of $a_1$, class of $a_2$). As in the code: strict $<$ instead of the printed $\le$, 66
# unordered noun pairs, 3,660 ordered adjective pairs
# ({glue:text}`mod_x_n_pair_comparisons:,.0f` comparisons), cells averaged per first noun and
# then over the 11 first nouns.
#
# **Test 3, non-subsectivity.**
#
# $$NI_{m,p} = d(\mathrm{emb}_m(an), \mathrm{emb}_m(a)) \le d(\mathrm{emb}_m(an), \mathrm{emb}_m(n)) \tag{7}$$
#
# (strict $<$ in the code and here) and Eq. 8 is its share per adjective class. By the paper's
# own hypothesis (§3.5) the non-subsective classes should score highest.
#
# **Three consequences of the geometry** (derived in the study notes; each is a property test
# of `tests/test_modifiers_metrics.py`):
#
# - if $\mathrm{emb}(an) = \alpha(\mathrm{emb}(a) + \mathrm{emb}(n))$ (mean or sum pooling),
#   the phrase lies in the cone between its words and Eq. 3 holds for *every* AN phrase;
# - in Eq. 6 every ordered adjective pair also appears reversed, so without ties the diagonal
#   cells are exactly 0.5 and $(Y, X) = 1 - (X, Y)$;
# - for pooled word vectors, Eq. 7 holds iff $\lVert a \rVert > \lVert n \rVert$: the
#   non-subsectivity score is a comparison of vector norms.

# %% [markdown]
# ## Results
#
# Each model is embedded once (through the on-disk embedding cache) and scored on every test.

# %%
runs = {}
for spec, with_aan in run_plan.items():
    runs[spec] = experiment.run(spec, lex, aan=with_aan, device=device, batch_size=batch_size)
specs_run = list(runs)
main_specs = [s for s in models if s in runs]
first = main_specs[0]
report.glue("mod_x_n_pair_comparisons", runs[first].pairs.n_comparisons)
pd.DataFrame(
    {
        "model": [T.display_name(s) for s in runs],
        "AAN test": [r.aan != {} for r in runs.values()],
        "strings embedded": [len(r.space) for r in runs.values()],
        "seconds (embedding and tests)": [round(r.seconds, 1) for r in runs.values()],
        "out-of-vocabulary words": [", ".join(r.space.oov) or "–" for r in runs.values()],
    }
).set_index("model")


# %%
def ours_for(test, specs, variant="code"):
    """Our scores of one test for several models, labelled for the tables."""
    out = {}
    for spec in specs:
        if test == "aan" and not runs[spec].aan:
            continue
        label = T.display_name(spec) + (" [paper Eq. 3]" if variant == "paper" else "")
        out[label] = runs[spec].scores(test, variant)
    return out


def collect(spec):
    """Our values under the target keys of the paper model this spec is (or substitutes)."""
    slug = T.paper_slug(spec) or T.SUBSTITUTES.get(spec)
    if slug is None:
        return {}
    values = {}
    for test in T.TESTS:
        if test == "aan" and not runs[spec].aan:
            continue
        values.update(T.target_values(slug, test, runs[spec].scores(test), targets))
    return values


for spec in main_specs:
    results.update(collect(spec))

# %% [markdown]
# ### Table 1: single-phrase intersectivity on AN phrases
#
# Our rows first, then every model of both papers. The mean-pooled static vectors score 1 in
# every class by the geometry above, whatever the adjectives. MiniLM, whose phrase vector is the
# mean of *contextual* token states, is not bound by that argument, yet its lowest class scores
# {glue:text}`mod_x_an_min_minilm:.2f`; so do most sentence encoders of 001. Scores below 1
# come from first-token pooling (004's DPR and Specter, and our MiniLM CLS ablation, lowest
# class {glue:text}`mod_x_an_min_minilm_cls:.3f`), NV-Embed-v2's attention pooling and sBERT,
# whose phrase vector is a mean of token states like MiniLM's (0.95 to 0.99 in four of the
# five classes): mean pooling of contextual states does not force the all-ones row.

# %% tags=["full-width"]
for spec in specs_run:  # the lowest class score of each model on the AN test
    report.glue(f"mod_x_an_min_{report.slug(spec)}", float(min(runs[spec].scores("an").values())))
style_table(T.comparison_frame("an", ours_for("an", specs_run), targets, specs_run), 2)

# %% [markdown]
# ### Tables 2 and 6: single-phrase intersectivity on AAN phrases
#
# The code variant (bipartitions, the $<1$ filter) is what the papers report; the paper
# variant (Eq. 3 as printed) is shown below it. Columns are (first adjective, second
# adjective), grouped by the second, as in 001 Table 6; the first five columns are Table 2.

# %% tags=["full-width"]
aan_specs = [s for s in specs_run if runs[s].aan]
aan_frame = T.comparison_frame(
    "aan", {**ours_for("aan", aan_specs), **ours_for("aan", aan_specs, "paper")}, targets, specs_run
)
style_table(aan_frame)


# %% mystnb={"figure": {"caption": "Single-phrase intersectivity (Eq. 4) on AAN phrases, cell by cell (rows: first adjective, columns: second). Compare our MiniLM panel (code Eq. 3) with 001 Table 6 beside it; the paper-literal Eq. 3 panel is darker, i.e. stricter; GloVe is symmetric about the diagonal.", "name": "fig-modifiers-consistency-aan-grid"}}
def grid_of(scores):
    return np.array([[scores.get((x, y), np.nan) for y in CLASSES] for x in CLASSES])


def paper_grid(slug, test):
    row = T.paper_row(slug, test, targets)
    return grid_of({c: row[T.cell_label(c)] for c in T.CELLS[test]})


panels = []
if "minilm" in runs and runs["minilm"].aan:
    panels += [
        ("MiniLM, ours (code Eq. 3)", grid_of(runs["minilm"].scores("aan"))),
        ("MiniLM, 001 Table 6", paper_grid("minilm", "aan")),
        ("MiniLM, ours (paper Eq. 3)", grid_of(runs["minilm"].scores("aan", "paper"))),
    ]
if "mean:glove50" in runs and runs["mean:glove50"].aan:
    panels += [
        ("GloVe 50d, ours (code Eq. 3)", grid_of(runs["mean:glove50"].scores("aan"))),
        ("GloVe 300d, 001 Table 6", paper_grid("glove", "aan")),
    ]
if panels:
    fig, axes = plt.subplots(1, len(panels), figsize=(3.3 * len(panels), 3.4), sharey=True)
    for ax, (title, grid) in zip(np.atleast_1d(axes), panels, strict=True):
        image = ax.imshow(grid, vmin=0.6, vmax=1.0, cmap="viridis")
        ax.set_xticks(range(5), CLASSES, rotation=45, ha="right")
        ax.set_yticks(range(5), CLASSES)
        ax.set_title(title, fontsize=9)
        ax.grid(False)
        for (i, j), v in np.ndenumerate(grid):
            ax.text(
                j,
                i,
                f"{v:.2f}",
                ha="center",
                va="center",
                fontsize=7,
                color="white" if v < 0.85 else "black",
            )
    np.atleast_1d(axes)[0].set_ylabel("first adjective")
    fig.supxlabel("second adjective", fontsize=9)
    fig.colorbar(image, ax=axes, shrink=0.8, label="Eq. 4 consistency")
    plt.show()

# %% [markdown]
# The paper-literal Eq. 3 is much stricter for MiniLM than the code's bipartitions (e.g. (S-I,
# S-I): {glue:text}`mod_x_aan_paper_minus_code_si_si:+.3f`); the published AAN numbers are the
# code's. Mean-pooled GloVe is symmetric in the two adjectives (word order does not exist for
# it). 001 reads the AAN table as a drop from the all-ones AN table, largest "when both
# adjectives are not intersective". The mean over the 9 cells with an S-I adjective against the
# mean over the 16 cells without one: MiniLM
# {glue:text}`mod_x_aan_mean_with_si_minilm:.3f` against
# {glue:text}`mod_x_aan_mean_no_si_minilm:.3f`, GloVe 50d
# {glue:text}`mod_x_aan_mean_with_si_mean_glove50:.3f` against
# {glue:text}`mod_x_aan_mean_no_si_mean_glove50:.3f` (code variant, unweighted cells).

# %%
if "minilm" in runs and runs["minilm"].aan:
    report.glue(
        "mod_x_aan_paper_minus_code_si_si",
        runs["minilm"].scores("aan", "paper")[("S-I", "S-I")]
        - runs["minilm"].scores("aan")[("S-I", "S-I")],
    )
for spec in aan_specs:  # mean AAN score of the cells with and without an intersective adjective
    cells = runs[spec].scores("aan")
    report.glue(
        f"mod_x_aan_mean_with_si_{report.slug(spec)}",
        float(np.mean([v for c, v in cells.items() if "S-I" in c])),
    )
    report.glue(
        f"mod_x_aan_mean_no_si_{report.slug(spec)}",
        float(np.mean([v for c, v in cells.items() if "S-I" not in c])),
    )

# %% [markdown]
# ### Tables 3 and 7: phrase-pair intersectivity
#
# Upper triangle in the paper's order; the first five columns are Table 3.

# %% tags=["full-width"]
style_table(T.comparison_frame("pair", ours_for("pair", specs_run), targets, specs_run))

# %% [markdown]
# The diagonal is 0.5 and the lower triangle is one minus the upper for every model whose
# distances have no ties: largest deviation {glue:text}`mod_x_pair_diagonal_max_dev:.1e` over the
# transformer and GloVe runs. spaCy's vectors are the exception: its table has 20,000 distinct
# rows shared by 685,000 words, and {glue:text}`mod_x_spacy_shared_adjective_vectors:.0f` pairs of
# our adjectives share a vector, so their phrases tie and the strict `<` fails both ways
# (spaCy's (NS-Pl, NS-Pl) = {glue:text}`mod_x_spacy_pair_nspl_nspl:.4f`). The whole comparison
# takes {glue:text}`mod_x_pair_seconds:.3f` seconds once the phrases are embedded.
#
# For the pooled static vectors the pair test, too, is mostly a comparison of adjective norms:
# a longer adjective vector pulls its two phrases together. "The phrases of $a_1$ are closer than
# those of $a_2$ on most noun pairs" coincides with $\lVert a_1 \rVert > \lVert a_2 \rVert$ for
# at least {glue:text}`mod_x_pair_norm_rule_agreement_pooled:.0%` of the ordered adjective pairs
# of the pooled models, close to the coin flip for MiniLM
# ({glue:text}`mod_x_pair_norm_rule_agreement_minilm:.0%`):

# %%
deviations = []
for spec, r in runs.items():
    full = pair_test.scores(r.pairs).to_numpy()
    if spec.endswith("spacy-md"):
        continue
    deviations += [np.abs(np.diag(full) - 0.5).max(), np.abs(full + full.T - 1).max()]
report.glue("mod_x_pair_diagonal_max_dev", float(max(deviations)))
if "mean:spacy-md" in runs:
    vectors = runs["mean:spacy-md"].space
    adj = lex.adjectives["word"].tolist()
    unit = vectors.unit[vectors.rows(adj)]
    same = np.triu(np.isclose(unit @ unit.T, 1.0, atol=1e-9), k=1) & (
        vectors.norm(adj)[:, None] > 0
    )
    report.glue("mod_x_spacy_shared_adjective_vectors", int(same.sum()))
    report.glue(
        "mod_x_spacy_pair_nspl_nspl", runs["mean:spacy-md"].scores("pair")[("NS-Pl", "NS-Pl")]
    )
start = time.perf_counter()
pair_test.scores(pair_test.compare(runs[first].space, lex))
_ = report.glue("mod_x_pair_seconds", time.perf_counter() - start)

# %%
norm_agreement = {
    T.display_name(s): pair_test.norm_rule_agreement(r.pairs, r.space) for s, r in runs.items()
}
pooled = [
    v
    for s, v in zip(runs, norm_agreement.values(), strict=True)
    if s.split(":")[0] in ("mean", "sum")
]
if pooled:
    report.glue("mod_x_pair_norm_rule_agreement_pooled", min(pooled))
if "minilm" in runs:
    report.glue("mod_x_pair_norm_rule_agreement_minilm", norm_agreement[T.display_name("minilm")])
pd.Series(
    norm_agreement, name="adjective pairs where the majority of Eq. 5 = norm rule"
).to_frame().round(3)

# %% mystnb={"figure": {"caption": "Phrase-pair intersectivity (Eq. 6), all 25 cells of every model run (rows: class of a1, columns: class of a2). Look at the diagonal, 0.5 by construction, and the mirror symmetry (Y, X) = 1 - (X, Y); above 0.5 the row's class keeps its phrases closer together.", "name": "fig-modifiers-consistency-pair-grid"}}
full_pairs = {T.display_name(s): pair_test.scores(r.pairs) for s, r in runs.items()}
fig, axes = plt.subplots(1, len(full_pairs), figsize=(3.1 * len(full_pairs), 3.2), sharey=True)
for ax, (title, frame) in zip(np.atleast_1d(axes), full_pairs.items(), strict=True):
    image = ax.imshow(frame.to_numpy(), vmin=0, vmax=1, cmap="RdBu_r")
    ax.set_xticks(range(5), CLASSES, rotation=45, ha="right")
    ax.set_yticks(range(5), CLASSES)
    ax.set_title(title, fontsize=8)
    ax.grid(False)
    for (i, j), v in np.ndenumerate(frame.to_numpy()):
        ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=7)
np.atleast_1d(axes)[0].set_ylabel("class of $a_1$")
fig.supxlabel("class of $a_2$", fontsize=9)
fig.colorbar(image, ax=axes, shrink=0.8, label="Eq. 6 consistency")
plt.show()

# %% [markdown]
# ### Tables 4 and 8: non-subsectivity

# %% tags=["full-width"]
style_table(T.comparison_frame("ns", ours_for("ns", specs_run), targets, specs_run))

# %% [markdown]
# **The norm rule.** For the pooled static vectors Eq. 7 is decided by vector length alone:
# the closed form $\lVert a \rVert > \lVert n \rVert$ agrees with the test on
# {glue:text}`mod_x_norm_rule_agreement_min:.1%` of the AN phrases (the lowest agreement over
# the pooled models run). GloVe's non-subsectivity column is therefore a comparison of
# word-vector norms, not of meanings: with the 50-d vectors, the three ambiguous adjectives
# (*old*, *small*, *big*) are longer than most nouns (A = {glue:text}`mod_glove_ns_a_001t8:.3f`,
# where the paper's 300-d vectors gave .278), and *ex-*, absent from both vocabularies, fails
# every phrase.

# %%
agreement = {}
for spec, r in runs.items():
    if spec.split(":")[0] in ("mean", "sum"):
        rule = subsectivity.norm_rule(r.space, r.an_phrases)
        agreement[T.display_name(spec)] = float(np.mean(rule == r.ns["holds"].to_numpy()))
if agreement:
    report.glue("mod_x_norm_rule_agreement_min", min(agreement.values()))
pd.Series(agreement, name="share of AN phrases where Eq. 7 = norm rule").to_frame()

# %% [markdown]
# ### MiniLM beside 001, cell by cell
#
# {glue:text}`mod_x_minilm_matched:.0f` of the {glue:text}`mod_x_minilm_targets:.0f` MiniLM
# numbers of 001 Tables 1-4 and 6-8 are reproduced within tolerance. 001 prints four decimals,
# *truncated* in Tables 6 and 8 (0.4320 for 0.43210, 0.6785 for 0.67857) and rounded in
# Table 7, so the tolerance of the 4-decimal tables is one unit of the last digit, 0.0001; the
# 3-decimal Tables 2-4 are the truncated values rounded again (0.6785 → .678), tolerance 0.0006
# (rounding plus truncation); Table 1 prints two decimals, tolerance 0.005.

# %% tags=["full-width"]
minilm_keys = [k for k in results if k.startswith("mod_minilm_")]
minilm_table = report.compare(results, "modifiers", keys=minilm_keys) if minilm_keys else None
if minilm_table is not None:
    report.glue("mod_x_minilm_matched", int((minilm_table["verdict"] == "match").sum()))
    report.glue("mod_x_minilm_targets", len(minilm_table))
(
    report.show_comparison(minilm_table, "MiniLM numbers of 001 Tables 1-4 and 6-8")
    if minilm_table is not None
    else None
)

# %% [markdown]
# ### GloVe 50d in place of GloVe 300d: does the pattern survive?
#
# The paper's GloVe is the 300-d GloVe 6B from gensim; the package index has the 50-d vectors
# of the same corpus. Numbers cannot match; the rank correlation of our cells with the paper's
# shows how much of the pattern survives the smaller vectors.

# %%
if "mean:glove50" in runs:
    pattern = []
    for test in T.TESTS:
        if test == "aan" and not runs["mean:glove50"].aan:
            continue
        ours = T.as_row(runs["mean:glove50"].scores(test), test)
        paper = T.paper_row("glove", test, targets)
        varying = (
            paper.index[(paper.nunique() > 1) & (paper != 0.5)] if test == "pair" else paper.index
        )
        rho = (
            sps.spearmanr(ours[varying], paper[varying]).statistic
            if ours[varying].nunique() > 1
            else np.nan
        )
        pattern.append(
            {
                "test": test,
                "cells": len(varying),
                "Spearman rho, ours vs paper": rho,
                "mean |difference|": float(np.abs(ours - paper).mean()),
            }
        )
    glove_pattern = pd.DataFrame(pattern).set_index("test")
    report.glue(
        "mod_x_glove_pattern_rho_ns", float(glove_pattern.loc["ns", "Spearman rho, ours vs paper"])
    )
    report.glue(
        "mod_x_glove_pattern_rho_pair",
        float(glove_pattern.loc["pair", "Spearman rho, ours vs paper"]),
    )
    if "aan" in glove_pattern.index:
        report.glue(
            "mod_x_glove_pattern_rho_aan",
            float(glove_pattern.loc["aan", "Spearman rho, ours vs paper"]),
        )
    display_glove = glove_pattern.round(3)
else:
    display_glove = None
display_glove

# %% [markdown]
# The all-ones AN row carries over (geometry). The non-subsectivity and AAN patterns do not carry
# over (rank correlations {glue:text}`mod_x_glove_pattern_rho_ns:.2f` and
# {glue:text}`mod_x_glove_pattern_rho_aan:.2f`) and the pair pattern only partly
# ({glue:text}`mod_x_glove_pattern_rho_pair:.2f`). Non-subsectivity and, mostly, the pair test
# are decided by the norms of individual word vectors, which differ between the 50-d and the
# 300-d training runs: the GloVe rows of the paper describe one set of vectors, not the
# adjective classes.

# %% [markdown]
# ## Deviations and errata
#
# **Paper vs code vs this chapter.**
#
# | | paper (both versions) | authors' code (2024 HEAD) | here |
# |---|---|---|---|
# | Eq. 3 on AAN | pairwise term distances | bipartitions, sub-phrases embedded, distances $\ge 1$ dropped, `<=` | both (`variant`); tables use the code's |
# | Eq. 5 | `<=` | strict `<`, per-first-noun averaging | the code's; unweighted pairs as an extension |
# | Eq. 7 | `<=` | strict `<` | the code's |
# | synonyms | "chosen for the phrase pair test" (004) | not used by any reported test | listed in the data, unused |
# | static vectors | "mean-pooled" | mean over whitespace tokens, out-of-vocabulary words as zero vectors inside the mean | the same (`mean:<vectors>`) |
#
# The committed 2022 version of the pair test kept a set of seen adjective pairs across partner
# nouns, so it evaluated only one noun pair and one order per adjective pair; it cannot give the
# exact 0.5 diagonals 001 prints. The 2024 code can, and reproduces 001's MiniLM numbers here, so
# 001's tables were evidently computed with the corrected logic.
#
# **Inconsistencies in the papers.**
#
# 1. *004's non-subsectivity claim against its own Table 5.* 004 says that "in none of them the
#    highest score belongs to a 'NS' category". In 004 Table 5 (and 8), three of the eight models
#    have their highest score in an NS class:

# %%
rows = {}
for slug in (
    "dpr_multiset",
    "labse",
    "specter",
    "te3_small",
    "nv_embed_v2",
    "stella",
    "glove",
    "word2vec",
):
    row = T.paper_row(slug, "ns", targets, version="004", table=8)
    rows[T.PAPER_MODELS[slug]["label"]] = {**row.to_dict(), "highest": row.idxmax()}
ns_004 = pd.DataFrame(rows).T
ns_004["highest is NS"] = ns_004["highest"].str.startswith("NS")
report.glue("mod_x_004_models_with_ns_highest", int(ns_004["highest is NS"].sum()))
ns_004

# %% [markdown]
# 2. *TE3-small, 004 Table 3 against Table 6.* The AAN summary (Table 3) prints 1.0 in every
#    column; the full Table 6 has the same cells below 1. Table 3's row looks copied from the AN
#    table (Table 2):

# %%
te3 = (
    pd.DataFrame(
        {
            "004 Table 3": T.paper_row("te3_small", "aan", targets, version="004", table=3),
            "004 Table 6": T.paper_row("te3_small", "aan", targets, version="004", table=6),
        }
    )
    .head(5)
    .T
)
report.glue(
    "mod_x_te3_table3_minus_table6_max",
    float((te3.loc["004 Table 3"] - te3.loc["004 Table 6"]).abs().max()),
)
te3

# %% [markdown]
# 3. *001's reading of the non-subsectivity test.* §3.5 of 001 hypothesises that the phrase is
#    pulled towards a *non-subsective* adjective, so NS classes should score highest; §4.2.3
#    then calls sBERT's pattern (S-I highest, NS low) the expected behaviour. 004 reverses the
#    reading. We follow the hypothesis as stated in §3.5 of both versions.
# 4. *Mean pooling and "universally intersective".* 004 lists LaBSE, TE3-small and Stella as
#    models whose pooling is "equivalent to mean pooling", while its §4.1.3 says all its
#    transformers use CLS or attention pooling to "avoid the inherent intersective bias from
#    mean pooling". Stella's sentence-transformers configuration is Transformer → Pooling →
#    Dense, and its smaller sibling pools by the mean (the notes; not verified here), which
#    would explain its all-ones row.
# 5. *Statistical claim.* Both versions state that "there is no statistically significant
#    difference between different adjective categories"; neither describes a test. See the
#    statistics below.
# 6. *Precision.* 001 truncates its 4-decimal values in Tables 6 and 8 and rounds them in
#    Table 7 (above); 004's new rows are mostly rounded.
#    LaBSE (S-I, S-I) is 0.9204 in 001 and 0.9205 in 004, the same number (1215/1320) truncated
#    and rounded.
#
# **Substitutes and models not run.** GloVe 300d → GloVe 6B 50d (labelled "substitute"; compared
# for the pattern). Word2Vec (gensim-data), TE3-small (OpenAI API) and every hub-only checkpoint
# (sBERT, DistilRoBERTa, Sentence-T5, both DPRs, LaBSE, Specter, NV-Embed-v2, Stella) are "not run
# here"; their paper rows are in every table above, and `models` accepts `hf:<hub id>` (e.g.
# `hf:sentence-transformers/LaBSE`) to run them where the hub is reachable. NV-Embed-v2 (7.8B
# parameters) needs a GPU and `trust_remote_code`, which the generic `hf:` loader does not pass.

# %% [markdown]
# ## Extensions
#
# ### How certain is a cell? Intervals that respect the design
#
# A cell score is a share of phrases, but the phrases of a cell are not independent draws: the
# 12 phrases of an adjective share it, and the claims are about adjective *classes*. The Wilson
# interval {cite}`wilson1927probable` treats all phrases as independent; the bootstrap resamples adjectives within their
# class and nouns. Non-subsectivity (Eq. 8), {glue:text}`ci_pct:.0f`% intervals:

# %% mystnb={"figure": {"caption": "Non-subsectivity (Eq. 8) per class with two intervals at the chapter's level: Wilson, which treats phrases as independent (circles), and the bootstrap over adjectives and nouns (squares). Compare the widths: the bootstrap intervals are several times wider, widest for the classes with few adjectives.", "name": "fig-modifiers-consistency-ns-intervals"}}
report.glue("ci_pct", 100 * ci_level)
labels = lex.adjectives["cls"].to_numpy()
ci_rows = []
for spec in main_specs:
    r = runs[spec]
    grid = st.adjective_grid(r.an_phrases, r.ns["holds"], lex)
    boot = st.bootstrap_classes(grid, labels, n_boot=n_boot, seed=seed, level=ci_level)
    k = np.nansum(grid, axis=1) @ (labels[:, None] == np.array(CLASSES)[None, :])
    n = np.array([sizes[c] * len(lex.nouns) for c in CLASSES])
    w_low, w_high = st.wilson(k, n, ci_level)
    for i, c in enumerate(CLASSES):
        ci_rows.append(
            {
                "model": T.display_name(spec),
                "class": c,
                "score": boot.loc[c, "score"],
                "Wilson low": w_low[i],
                "Wilson high": w_high[i],
                "bootstrap low": boot.loc[c, "low"],
                "bootstrap high": boot.loc[c, "high"],
            }
        )
ns_ci = pd.DataFrame(ci_rows)
fig, axes = plt.subplots(1, len(main_specs), figsize=(3.6 * len(main_specs), 3.4), sharey=True)
for ax, (model, frame) in zip(np.atleast_1d(axes), ns_ci.groupby("model", sort=False), strict=True):
    x = np.arange(len(frame))
    ax.errorbar(
        x - 0.12,
        frame["score"],
        yerr=[frame["score"] - frame["Wilson low"], frame["Wilson high"] - frame["score"]],
        fmt="o",
        capsize=3,
        label="Wilson (phrases independent)",
    )
    ax.errorbar(
        x + 0.12,
        frame["score"],
        yerr=[frame["score"] - frame["bootstrap low"], frame["bootstrap high"] - frame["score"]],
        fmt="s",
        capsize=3,
        label="bootstrap (adjectives, nouns)",
    )
    ax.set_xticks(x, frame["class"])
    ax.set_title(model, fontsize=9)
    ax.axhline(0.5, color="black", lw=0.6, ls=":")
np.atleast_1d(axes)[0].set_ylabel("Eq. 8 consistency")
np.atleast_1d(axes)[0].legend(fontsize=7, loc="lower left")
plt.show()
wide = ns_ci.assign(
    width_ratio=(ns_ci["bootstrap high"] - ns_ci["bootstrap low"])
    / (ns_ci["Wilson high"] - ns_ci["Wilson low"])
)
_ = report.glue("mod_x_ci_width_ratio_median", float(wide["width_ratio"].median()))

# %% [markdown]
# The design-respecting intervals are {glue:text}`mod_x_ci_width_ratio_median:.1f` times as wide
# as Wilson's (median over classes and models). With 3 ambiguous and 6 S-NI adjectives, those
# cells are estimates from a handful of words. For MiniLM the intervals of S-I, S-NI, NS-Pl and
# NS-Pr overlap widely; only the three ambiguous adjectives stand apart.
#
# ### Is there a difference between adjective classes? A permutation test
#
# For each model and test, the statistic is the size-weighted variance of the class (or cell)
# scores, 0 when every class scores the same. Shuffling the class labels over the 61 adjectives
# {glue:text}`mod_x_n_perm:.0f` times gives its distribution under "no difference"; beside it,
# the phrase-level chi-square test that ignores the clustering (single-phrase AN and
# non-subsectivity tests).

# %%
report.glue("mod_x_n_perm", n_perm)
tests_table = []
for spec in main_specs:
    frame = experiment.class_difference_tests(runs[spec], lex, n_perm=n_perm, seed=seed)
    # Bonferroni over the tests run on this model: together they keep a 5% family-wise error
    frame["p_bonferroni"] = np.minimum(1.0, frame["p_perm"] * len(frame))
    frame.insert(0, "model", T.display_name(spec))
    tests_table.append(frame.rename_axis("test").reset_index())
    for test in frame.index:
        report.glue(f"mod_x_p_{test}_{report.slug(spec)}", float(frame.loc[test, "p_perm"]))
        report.glue(
            f"mod_x_padj_{test}_{report.slug(spec)}", float(frame.loc[test, "p_bonferroni"])
        )
tests_table = pd.concat(tests_table).set_index(["model", "test"])
tests_table.style.format(
    {"statistic": "{:.2e}", "p_perm": "{:.4f}", "p_chi2": "{:.2e}", "p_bonferroni": "{:.4f}"},
    na_rep="–",
)

# %% [markdown]
# `p_bonferroni` multiplies each permutation p-value by the number of tests run on that model
# (four where the AAN test ran; Bonferroni), so that a model's tests together keep a 5%
# family-wise error rate. The naive chi-square p-values are far smaller than the permutation
# p-values, because they count 12 correlated phrases per adjective as 12 observations.
#
# The papers tie "no statistically significant difference between different adjective
# categories" to intersectivity, and 001 adds that class differences "are noticeable in single
# adjective interactions" (§4.2.3). The Findings therefore check the claim test by test, on the
# adjusted p-values (MiniLM, GloVe 50d, spaCy):
#
# - **AN phrases, Eq. 4**: {glue:text}`mod_x_padj_an_minilm:.3f`,
#   {glue:text}`mod_x_padj_an_mean_glove50:.3f`, {glue:text}`mod_x_padj_an_mean_spacy_md:.3f`;
#   every AN score is 1, so there is nothing to test (p = 1 by construction);
# - **AAN phrases, Eq. 4**: {glue:text}`mod_x_padj_aan_minilm:.3f`,
#   {glue:text}`mod_x_padj_aan_mean_glove50:.3f`, {glue:text}`mod_x_padj_aan_mean_spacy_md:.3f`;
# - **phrase pairs, Eq. 6**: {glue:text}`mod_x_padj_pair_minilm:.3f`,
#   {glue:text}`mod_x_padj_pair_mean_glove50:.3f`, {glue:text}`mod_x_padj_pair_mean_spacy_md:.3f`;
# - **non-subsectivity, Eq. 8**, a single-adjective test outside the claim:
#   {glue:text}`mod_x_padj_ns_minilm:.3f` (mostly the ambiguous class),
#   {glue:text}`mod_x_padj_ns_mean_glove50:.3f`, {glue:text}`mod_x_padj_ns_mean_spacy_md:.3f`.
#
# 001 itself reads the pair table as "an intersectivity hierarchy for each language model", a
# difference between classes; the pair test is where its two statements meet.
#
# **The direction the theory predicts.** Eq. 8 should be higher for non-subsective than for
# subsective adjectives. The one-sided permutation test of (NS-Pl + NS-Pr) minus (S-I + S-NI):

# %%
direction = []
for spec in main_specs:
    grid = st.adjective_grid(runs[spec].an_phrases, runs[spec].ns["holds"], lex)
    test = st.permutation_test(
        st.contrast(grid, ["NS-Pl", "NS-Pr"], ["S-I", "S-NI"]), labels, n_perm, seed
    )
    direction.append(
        {
            "model": T.display_name(spec),
            "NS minus S": test["observed"],
            "p (NS > S)": test["p_value"],
        }
    )
    if spec == "minilm":
        report.glue("mod_x_ns_minus_s_minilm", test["observed"])
        report.glue("mod_x_p_ns_greater_minilm", test["p_value"])
direction = pd.DataFrame(direction).set_index("model")
report.glue("mod_x_p_ns_greater_min", float(direction["p (NS > S)"].min()))
direction.round(4)

# %% [markdown]
# For MiniLM the difference is {glue:text}`mod_x_ns_minus_s_minilm:+.3f` (one-sided p =
# {glue:text}`mod_x_p_ns_greater_minilm:.2f`); the smallest one-sided p over the models run is
# {glue:text}`mod_x_p_ns_greater_min:.2f` (an adjustment for several models could only raise it).
#
# ### What would the tables look like by chance? The label-shuffle null
#
# The same shuffles give the distribution of every cell when the class labels carry no
# information. For the first model, the pair cells (S-I, Y) that 001 reads as an
# "intersectivity hierarchy", and the non-subsectivity classes, against their
# {glue:text}`ci_pct:.0f`% null bands:

# %% mystnb={"figure": {"caption": "Observed scores (dots) against the label-shuffle null (shaded central band) for the first model: left the pair cells (S-I, Y), right the non-subsectivity classes. A dot outside the band is more than chance; (S-I, S-I) is 0.5 by construction.", "name": "fig-modifiers-consistency-null"}}
r = runs[first]
weighted = r.pairs.weighted_holds("per_noun")
W = 1.0 - np.eye(len(labels))
pair_null = st.label_shuffle_null(
    lambda lab: st.cell_scores(weighted, W, lab), labels, n_perm, seed
)
ns_grid = st.adjective_grid(r.an_phrases, r.ns["holds"], lex)
ns_null = st.label_shuffle_null(lambda lab: st.class_scores(ns_grid, lab), labels, n_perm, seed)
alpha = (1 - ci_level) / 2
observed_pairs = st.cell_scores(weighted, W, labels)
fig, axes = plt.subplots(1, 2, figsize=(10, 3.4))
x = np.arange(5)
axes[0].fill_between(
    x,
    np.quantile(pair_null[:, 0, :], alpha, axis=0),
    np.quantile(pair_null[:, 0, :], 1 - alpha, axis=0),
    alpha=0.3,
    label="label-shuffle null",
)
axes[0].plot(x, observed_pairs[0], "o-", label="observed")
axes[0].set_xticks(x, [f"(S-I, {c})" for c in CLASSES], rotation=20)
axes[0].set(ylabel="Eq. 6 consistency", title=f"{T.display_name(first)}: pair cells (S-I, Y)")
axes[1].fill_between(
    x,
    np.quantile(ns_null, alpha, axis=0),
    np.quantile(ns_null, 1 - alpha, axis=0),
    alpha=0.3,
    label="label-shuffle null",
)
axes[1].plot(x, st.class_scores(ns_grid, labels), "o-", label="observed")
axes[1].set_xticks(x, CLASSES)
axes[1].set(ylabel="Eq. 8 consistency", title=f"{T.display_name(first)}: non-subsectivity")
axes[0].legend(fontsize=8)
plt.show()
outside = (observed_pairs[0] < np.quantile(pair_null[:, 0, :], alpha, axis=0)) | (
    observed_pairs[0] > np.quantile(pair_null[:, 0, :], 1 - alpha, axis=0)
)
_ = report.glue("mod_x_pair_si_cells_outside_null", int(outside[1:].sum()))
halfwidth = (
    np.quantile(pair_null[:, 0, 1:], 1 - alpha, axis=0)
    - np.quantile(pair_null[:, 0, 1:], alpha, axis=0)
) / 2
report.glue("mod_x_pair_null_halfwidth_min", float(halfwidth.min()))
_ = report.glue("mod_x_pair_null_halfwidth_max", float(halfwidth.max()))

# %% [markdown]
# {glue:text}`mod_x_pair_si_cells_outside_null:.0f` of the four off-diagonal (S-I, Y) cells of
# the first model fall outside the null band: part of the "hierarchy" is more than chance, but
# the band is wide (half-widths {glue:text}`mod_x_pair_null_halfwidth_min:.2f` to
# {glue:text}`mod_x_pair_null_halfwidth_max:.2f`, widest for the small classes), so orderings
# between neighbouring cells are not established by 61 adjectives.
#
# ### Per-noun spread
#
# The paper averages over nouns. The non-subsectivity score of each class on each noun alone
# (first model), and the spread of the pair cells over the 66 noun pairs:

# %% mystnb={"figure": {"caption": "Spread over nouns (first model): left, the non-subsectivity score of each class on each of the 12 nouns alone; right, the pair cells over the 66 noun pairs. Look at how far a class moves from noun to noun, against the differences between classes.", "name": "fig-modifiers-consistency-per-noun"}}
per_noun_ns = st.per_noun(ns_grid, labels, lex.nouns["word"].tolist())
fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [1, 1.4]})
image = axes[0].imshow(per_noun_ns.to_numpy(), vmin=0, vmax=1, cmap="RdBu_r", aspect="auto")
axes[0].set_xticks(range(5), CLASSES)
axes[0].set_yticks(range(len(per_noun_ns)), per_noun_ns.index, fontsize=8)
axes[0].grid(False)
axes[0].set_title("Eq. 8 per noun", fontsize=9)
fig.colorbar(image, ax=axes[0], shrink=0.8)
spread = pd.DataFrame(
    {T.cell_label(c): pair_test.per_noun_pair(r.pairs, c) for c in T.PAIR_CELLS if c[0] != c[1]}
)
axes[1].boxplot(spread.to_numpy(), tick_labels=spread.columns)
axes[1].tick_params(axis="x", rotation=60, labelsize=7)
axes[1].set(title="Eq. 6 per noun pair (66 pairs)", ylabel="consistency")
plt.show()
report.glue("mod_x_ns_per_noun_sd_max", float(per_noun_ns.std().max()))
aggregations = pd.DataFrame(
    {a: T.as_row(runs[first].scores("pair", aggregation=a), "pair") for a in pair_test.AGGREGATIONS}
)
_ = report.glue(
    "mod_x_pair_aggregation_max_diff",
    float((aggregations["per_noun"] - aggregations["pairs"]).abs().max()),
)

# %% [markdown]
# The score of a class varies over the 12 nouns with a standard deviation of up to
# {glue:text}`mod_x_ns_per_noun_sd_max:.2f`: the choice of nouns is a large source of variance
# that the tables hide. The code's per-first-noun averaging weights noun pairs unequally (the first noun
# has 11 partners, the eleventh one); giving each noun pair equal weight changes the pair cells
# by at most {glue:text}`mod_x_pair_aggregation_max_diff:.3f`.
#
# ### Pooling ablation: does mean pooling make a model "universally intersective"?
#
# 004 attributes the all-ones AN row to mean pooling. The same MiniLM backbone read out at its
# first token ([CLS]) instead of the mean of its token states:

# %%
pool_rows = {}
for spec in pooling_models:
    base = spec.split(":")[0]
    for s in (base, spec):
        if s in runs:
            pool_rows[T.display_name(s)] = {
                **{f"AN {c[0]}": v for c, v in runs[s].scores("an").items()},
                "pair (S-I, S-NI)": runs[s].scores("pair")[("S-I", "S-NI")],
                "NS S-I": runs[s].scores("ns")[("S-I",)],
                "NS NS-Pr": runs[s].scores("ns")[("NS-Pr",)],
            }
pooling_table = pd.DataFrame(pool_rows).T
if "minilm:cls" in runs:
    an_cls = runs["minilm:cls"].an["code"]["holds"].mean()
    report.glue("mod_x_cls_an_overall", float(an_cls))
pooling_table.round(3)

# %% [markdown]
# Read out at its first token, MiniLM falls below 1 on AN phrases (overall
# {glue:text}`mod_x_cls_an_overall:.3f`), like 004's CLS models DPR and Specter: for this
# backbone the all-ones row comes with the mean pooling, not with the adjectives. The converse
# ("vice-versa") does not follow from the papers' own tables: LaBSE (CLS) scores 1 in both
# papers and 001's DPR (CLS) almost everywhere, so an all-ones row is no evidence of mean
# pooling. The pair and non-subsectivity scores change far less, and not towards the theory.
#
# ### Context-template ablation
#
# The paper embeds bare phrases. Every string inside the template, e.g. "This is a red dog."
# and "This is a red." (the single words get the same frame, so that phrase and words stay
# comparable):

# %%
template_rows = {}
for spec in template_models:
    templated = experiment.run(
        spec, lex, aan=False, template=template, device=device, batch_size=batch_size
    )
    for label, rr in (
        (f"{T.display_name(spec)}, bare", runs[spec]),
        (f"{T.display_name(spec)}, template", templated),
    ):
        template_rows[label] = {
            **{f"AN {c[0]}": v for c, v in rr.scores("an").items()},
            **{f"NS {c[0]}": v for c, v in rr.scores("ns").items()},
            "pair (S-I, S-NI)": rr.scores("pair")[("S-I", "S-NI")],
            "pair (S-I, A)": rr.scores("pair")[("S-I", "A")],
        }
    if spec == "minilm":
        report.glue("mod_x_template_ns_nspr_minilm", templated.scores("ns")[("NS-Pr",)])
        report.glue("mod_x_template_an_min_minilm", min(templated.scores("an").values()))
template_table = pd.DataFrame(template_rows).T
template_table.round(3)

# %% [markdown]
# The carrier sentence leaves MiniLM's AN test at 1 and its pair cells almost unchanged, but
# moves the non-subsectivity scores a lot (NS-Pr becomes
# {glue:text}`mod_x_template_ns_nspr_minilm:.3f`): the non-subsectivity test measures a property
# of bare-string embeddings that a neutral context already changes.
#
# ### What the papers' conclusions rest on
#
# The Findings table at the top checks each conclusion against the numbers glued in this
# chapter. What each check rests on:
#
# - **Mean-pooled models are universally intersective on AN phrases** (004). For pooled
#   *static* word vectors (GloVe, spaCy, Word2Vec) this is geometry: the phrase vector lies in
#   the cone of its word vectors, so every AN phrase passes Eq. 3 whatever the adjective. For a
#   transformer whose sentence vector is the mean of *contextual* token states the argument
#   does not apply: MiniLM's lowest class scores {glue:text}`mod_x_an_min_minilm:.2f`, but
#   001's sBERT, mean-pooled as well, scores 0.95 to 0.99 in four of the five classes (Table 1).
#   The same MiniLM backbone read at its first token falls to
#   {glue:text}`mod_x_an_min_minilm_cls:.3f` in its lowest class. Where the AN row is all
#   ones, the test says nothing about adjectives.
# - **Scores drop on AAN phrases** (001): under the code's test; with Eq. 3 as printed the drop
#   is much larger, so which version of the test the numbers belong to matters.
# - **An "intersectivity hierarchy" in the pair test** (001): the cells are exactly 0.5 on the
#   diagonal and complementary off it by construction; the label-shuffle null above says how
#   many (S-I, Y) cells of MiniLM are more than chance; for the static baselines the
#   hierarchy is mostly a ranking of adjective vector norms and changes with the GloVe vectors.
# - **No model behaves as the subsectivity formalism expects** (004), checked two ways: in the
#   direction the theory predicts (the one-sided permutation test of NS minus S above), and
#   literally, "in none of them the highest score belongs to a 'NS' category".
#   {glue:text}`mod_x_004_models_with_ns_highest:.0f` of 004's own models have an NS class
#   highest (Table 5, listed under Deviations), and so does MiniLM
#   (NS-Pr, {glue:text}`mod_minilm_ns_nspr_001t8:.3f`, within the noise of its neighbours).
# - **"No statistically significant difference between adjective categories"** (both): checked
#   test by test (AN, AAN, phrase pairs) on the Bonferroni-adjusted permutation p-values of the
#   permutation test above; the non-subsectivity test, where 001 itself sees class differences
#   "in single adjective interactions", is a separate claim. The tables' precision (four
#   decimals) far exceeds what 61 adjectives and 12 nouns can resolve.

# %%
report.glue_all(results)

# %% [markdown]
# ## Reproduce
#
# ```bash
# make run CHAPTER=modifiers-consistency                      # default: MiniLM, GloVe, spaCy
# make run CHAPTER=modifiers-consistency PROFILE=full         # adds MPNet and its CLS pooling
# make run CHAPTER=modifiers-consistency ARGS='-p models ["minilm","hf:sentence-transformers/LaBSE"] -p aan_models ["minilm"]'
# ```

# %% tags=["remove-input"]
report.glue_findings("modifiers-consistency")
