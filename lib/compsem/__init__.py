"""compsem: a small shared library for a compendium on compositional sentence meaning.

One idea per module:

- :mod:`compsem.paths`   project, data and cache locations
- :mod:`compsem.data`    checksummed dataset registry and typed loaders
- :mod:`compsem.models`  sentence/word encoders behind one protocol, with an embedding cache
- :mod:`compsem.sts`     STS3k (Fodor, De Deyne & Suzuki 2025): ratings, reliability, pair types
- :mod:`compsem.report`  paper-vs-ours tables, glue helpers, plotting theme
- :mod:`compsem.run`     jupytext -> papermill -> book/, with profiles and provenance
"""

__version__ = "0.1.0"
