"""Sequence-to-sequence models on COGS (Kim 2021, Section 4.5; Kim & Linzen 2020, Section 6).

One idea per module:

- :mod:`~compsem.cogs.seq2seq.vocab` -- whitespace tokens <-> ids, the vocabularies of all splits;
- :mod:`~compsem.cogs.seq2seq.batching` -- length-bucketed, padded batches;
- :mod:`~compsem.cogs.seq2seq.transformer` -- the Transformer encoder-decoder (Section 4.5.1);
- :mod:`~compsem.cogs.seq2seq.lstm` -- the LSTM encoder-decoder with global dot attention and
  input feeding, uni- or bidirectional (Section 4.5.1);
- :mod:`~compsem.cogs.seq2seq.config` -- the paper's configurations (Section 4.5.1, Figure 4-3,
  the released training scripts) and reduced ones, with a configuration hash;
- :mod:`~compsem.cogs.seq2seq.trainer` -- noam-scheduled Adam, label smoothing, early stopping on
  dev loss, checkpoints with resume;
- :mod:`~compsem.cogs.seq2seq.decoding` -- batched greedy and beam search with a length cap;
- :mod:`~compsem.cogs.seq2seq.results` -- result files keyed by the configuration hash;
- :mod:`~compsem.cogs.seq2seq.experiment` -- one run: train, decode every split, write results;
- :mod:`~compsem.cogs.seq2seq.train` -- the command line (``python -m compsem.cogs.seq2seq.train``).

Metrics and error analyses of the predictions live in :mod:`compsem.cogs.evaluation`.
"""
