"""Montague semantics and modifier consistency (Carvalho, Manino, Rozanova, Cordeiro & Freitas;
arXiv 2212.04310, 2022, and COLING 2025).

Do phrase embeddings respect the set relations Montague semantics assigns to intersective,
subsective and non-subsective adjectives? Three label-free tests on cosine distances:

- :mod:`~compsem.modifiers.lexicon`: the 61 adjectives in five classes and 12 nouns (Appendix A)
- :mod:`~compsem.modifiers.phrases`: the 44,652 phrases of ``(adj)+ noun`` up to three words
- :mod:`~compsem.modifiers.encoding`: model specs -> vectors (encoders, pooled word vectors)
- :mod:`~compsem.modifiers.space`: embedded strings and the cosine distance
- :mod:`~compsem.modifiers.intersectivity`: single-phrase intersectivity (Eq. 3/4)
- :mod:`~compsem.modifiers.pairs`: phrase-pair intersectivity (Eq. 5/6)
- :mod:`~compsem.modifiers.subsectivity`: non-subsectivity (Eq. 7/8) and its norm closed form
- :mod:`~compsem.modifiers.synonyms`: the 2025 version's synonyms as a control of Eq. 5
- :mod:`~compsem.modifiers.statistics`: intervals, permutation tests, label-shuffle null, Holm
- :mod:`~compsem.modifiers.experiment`: all tests for one model
- :mod:`~compsem.modifiers.tables`: the paper's table layouts, models and target keys
- :mod:`~compsem.modifiers.chapter`: the chapter's tables, figures and tests, one function each
"""
