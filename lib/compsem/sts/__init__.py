"""STS3k (Fodor, De Deyne & Suzuki 2025): the dataset and its human ratings.

Pure, vectorised functions; the data come from :mod:`compsem.data.sts3k`.

- :mod:`compsem.sts.ratings`         normalisation, descriptive statistics, the KS test against
  shuffled ratings, per-pair SD, split-half reliability and weighted kappa (§4.2, §5.1)
- :mod:`compsem.sts.pair_types`      a reconstructed Table 7 type (and internal category code and
  number of modifiers) for each of the 2,800 pairs (§4.1, Table 7)
- :mod:`compsem.sts.modifier_types`  Figure 9 (reduction by modifier type) and the subadditivity
  of added modifiers (§5.4)
"""
