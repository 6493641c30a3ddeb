"""COGS (Kim & Linzen 2020; Kim 2021, Chapter 4): logical forms, the grammar and its interpreter,
generated datasets (chapter ``cogs-data``), and sequence-to-sequence models trained and evaluated on the
generalization splits (chapter ``cogs-models``, subpackage :mod:`compsem.cogs.seq2seq`)."""
