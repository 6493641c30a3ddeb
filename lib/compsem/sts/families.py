"""The unions of tests that the STS3k claims (``data/claims/sts3k.yaml``) decide on, and their sizes.

A rule that concludes when *some* of k tests does (a union: ``a or b``, ``max(lows) > c``,
``min(highs) < c``, ``count(...) >= 1``) reads each test's interval at Bonferroni's level
``1 - (1 - L) / k`` (:func:`compsem.stats.bonferroni_level`), where L is the level the single test
uses: .95 for a direction, .90 for an equivalence test (two one-sided tests at 5%). k counts the
quantities (differences, correlations) whose test enters the union; the two sides of one
quantity's equivalence test count once, since they cannot both err. A rule that needs *every*
test (an intersection: ``a and b``, ``min(lows) > c``) needs no correction.

Each corrected interval comes from the function that computes the single test's, read from the
same draws at the family's level (one set of resamples for every level, so it contains the single
test's interval and costs no second bootstrap; :func:`compsem.stats.bootstrap_levels`),
and is glued beside it with ``_bonf<k>`` in its key (e.g. ``subadditive_gap_2_bonf3_ci_high``),
for the quantities of the family only: a quantity in no union gets no ``_bonf`` key.

:data:`UNION_FAMILIES` names the families of a fixed size. Four families take their size from a
run's parameters, and the chapter that runs them sizes them: in ``sts3k-finetune``,
no-transfer-to-adversarial and verbnet-random-split-flat (one equivalence test per regressor run,
``len(regressors)``: five by default) and no-transfer-without-pca (``len(no_pca_regressors)``: three),
whose rules read the keys by pattern (``_bonf*_``); in ``sts3k-hybrid``, verbnet-cn-robust-to-betas
(one direction per named weighting of the betas, six by default;
:func:`compsem.sts.chapter.beta_sensitivity`; its rule reads ``sens_min_named_diff_bonf*_ci_high``
by pattern too). The authors' random-split files form the family
:data:`compsem.sts.chapter.RANDOM_SPLIT_FAMILY` (five directions, keys ``_ci_family_``), read from
the resamples of their 95% intervals (:func:`compsem.sts.chapter.published_random_values`).
"""

from __future__ import annotations

VERBNET_SPLIT_REGRESSORS = ("reg", "nn1", "nn2", "nn3")
"""The cells of family ``verbnet_adversarial_split``: VerbNet-CN on the adversarial split with the
paper's regressors (§4.7, Table 8), reg to nn3; a regressor run beyond them (nn4) is in no union
and gets no ``_bonf`` interval (:func:`compsem.sts.seed_grids.pairs_and_seeds_intervals`)."""

UNION_FAMILIES: dict[str, int] = {
    # sts3k-data
    "subadditive_gaps": 3,
    "heldout_bar": 2,
    # sts3k-models
    "transformers_below_bound": 6,
    "transformers_above_bound": 7,
    "lexical_control": 2,
    "lexical_baseline": 2,
    "hybrid_drops": 2,
    "drops": 16,
    "hybrids_and_neural": 11,
    "defsent_vs_sentbert": 6,
    # sts3k-hybrid
    "present_roles": 3,
    "syntax_based": 2,
    "substitute_hybrids": 4,
    "hybrids_above_best": 2,
    "human_steps": 3,
    "fall_gaps": 4,
    "mad_gaps": 2,
    "within_gaps": 6,
    "labeller_test_sets": 2,
    # sts3k-finetune
    "few_parameters_gap": 2,
    "verbnet_adversarial_split": len(VERBNET_SPLIT_REGRESSORS),
    "verbnet_degradation": len(VERBNET_SPLIT_REGRESSORS),
}
"""Family -> k, the number of tests in the union (directions at 95% unless said otherwise).

sts3k-data: ``subadditive_gaps``, the gaps of 2, 3 and 4 modifiers below 0 (subadditive-modifiers);
``heldout_bar``, the held-out share below .5 or the error excess above 0 (type-means-held-out;
:data:`compsem.sts.data_chapter.HELDOUT_DECIDED`).

sts3k-models: ``transformers_below_bound``, the count of the six transformers under .2 (holds side
of transformers-poor-on-adversarial); ``transformers_above_bound``, the count of the six above .2
or the re-run SentBERT above it (its fails side); ``lexical_control``, word overlap's drop below 0
or its adversarial rho above .2 (adversarial-pairs-control-lexical-similarity);
``lexical_baseline``, a lexical baseline minus SentBERT or minus OpenAI outside the margin
(transformers-rely-on-lexical-cues, per baseline; equivalence, 90%); ``hybrid_drops``, VerbNet-CN's
or AMR-CN's drop outside the margin (figure4-hybrid-drops-near-zero; equivalence, 90%); ``drops``,
the drops of Table 9's 16 rows, Mean-CN's above or below every other's by non-overlap
(figure4-mean-drop-largest); ``hybrids_and_neural``, the two hybrids' and nine neural models'
STS3k-adv rhos, compared by non-overlap (hybrids-beat-transformers-adversarial);
``defsent_vs_sentbert``, DefSent minus SentBERT on STS3k-adv below 0 (a direction) or on one of
five other columns outside the margin (equivalence, 90%) (defsent-beats-sentbert-only-on-adversarial).

sts3k-hybrid: ``present_roles``, the present-roles average minus Eq. 2 below 0 on one of the three
portions (verbnet-cn-present-roles-higher); ``syntax_based``, AMR-SMATCH or AMR-WWLK above .2
(syntax-based-poor-on-adversarial); ``substitute_hybrids``, one of four substitute hybrids below the
best neural model (hybrids-beat-transformers-substitute-vectors: VerbNet-CN on the corrected parses
and AMR-CN, each with two vector sets; the GPT-4 parses' VerbNet-CN is in no union);
``hybrids_above_best``, VerbNet-CN or AMR-CN below it (hybrids-above-best-transformer-paired); ``human_steps``, one of the three steps
of people's Figure 8 profile below 0 (human-similarity-falls-with-swaps); ``fall_gaps``, four
models' fall gaps (transformers-insensitive-to-swaps: Mean-CN, SentBERT, OpenAI, DefSent);
``mad_gaps``, VerbNet-CN's or DefSent's MAD above both rivals' (verbnet-cn-intermediate-sensitivity);
``within_gaps``,
one of the two hybrids minus three transformers above 0 (hybrids-rank-types-not-pairs);
``labeller_test_sets``, the labeller's gap on STSS-131 or on the pilot beyond the margin (the three
labeller-carries-over claims).

sts3k-finetune: ``few_parameters_gap``, the gap with linear regression or its narrowing below 0
(few-parameters-gap); ``verbnet_adversarial_split``, one of VerbNet-CN's four cells, reg to nn3,
outside .55-.65 (verbnet-adversarial-split-stable; equivalence, 90%); ``verbnet_degradation``, one
of the authors' four adversarial-split VerbNet-CN files below its untrained file by more than the
margin (verbnet-adversarial-split-no-degradation; one-sided tests at 5%, so 1 - .10/k;
:func:`compsem.sts.chapter.published_degradation`)."""
