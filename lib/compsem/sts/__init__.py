"""STS3k (Fodor, De Deyne & Suzuki 2025): the dataset, its human ratings and the models scored on it.

Pure, vectorised functions; the data come from :mod:`compsem.data.sts3k`.

- :mod:`compsem.sts.ratings`         normalisation, descriptive statistics, the KS test against
  shuffled ratings, per-pair SD, split-half reliability and weighted kappa (§4.2, §5.1)
- :mod:`compsem.sts.pair_types`      a reconstructed Table 7 type (and internal category code and
  number of modifiers) for each of the 2,800 pairs (§4.1, Table 7)
- :mod:`compsem.sts.modifier_types`  Figure 9 (reduction by modifier type) and the subadditivity
  of added modifiers (§5.4)
- :mod:`compsem.sts.similarity`      cosine of (standardised) embeddings, Spearman, bootstrap
  intervals, word-overlap and random baselines (§4.3)
- :mod:`compsem.sts.composition`     Mean, Mult and Conv composition of word vectors (Table 1)
- :mod:`compsem.sts.table9`          Table 9 from the authors' published similarity files, and its
  cells recomputed from models run here
- :mod:`compsem.sts.scoring`         the similarity of every pair under a named model (recomputed rows)
- :mod:`compsem.sts.hybrid`          VerbNet-CN: role-wise similarities and Eq. 2 (§4.6)
- :mod:`compsem.sts.amr`             AMR-CN and AMR-SMATCH over PENMAN graphs (§4.4, §4.6)
- :mod:`compsem.sts.roles`           a rule-based labeller of the eight VerbNet-CN roles (spaCy)
- :mod:`compsem.sts.generator`       STS3k-style pairs with gold roles (no ratings)
- :mod:`compsem.sts.structure`       Figure 8 profiles, the MAD from the human profile, Figure 9
  for any series (§5.4)
- :mod:`compsem.sts.regressors`      PCA-8 / no-PCA features, splits, regressors of Table 8 (§4.7,
  Figures 6 and 11)
- :mod:`compsem.sts.seed_grids`      Figure 6 and Table 8 over seeded splits, with intervals (§5.3)
- :mod:`compsem.sts.finetune`        end-to-end fine-tuning of a sentence-transformer (Figure 7)
- :mod:`compsem.sts.finetune_results` Figure 7 from the authors' files, learning curves and the
  split by kind of manipulation (§5.3)
- :mod:`compsem.sts.families`        the unions of tests the claims decide on, and their sizes k
  (intervals at Bonferroni's level, keys ``_bonf<k>``)
"""
