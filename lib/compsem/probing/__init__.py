"""Probing sentence vectors for composition (Ettinger, Elgohary & Resnik 2016; Ettinger,
Elgohary, Phillips & Resnik 2018).

Modules, in the order of the method:

- :mod:`~compsem.probing.lexicon`: the hand-written lexicon and inflection table (data in
  ``data/lexicons/probing_lexicon.yaml``) and the papers' example sentences;
- :mod:`~compsem.probing.events`: event structures and their realisation as annotated sentences;
- :mod:`~compsem.probing.reader`: the inverse, a parser of the generator's grammar (checks the
  generator, annotates the released 2018 files);
- :mod:`~compsem.probing.generator`: random events from a grammar, deterministic in a seed;
- :mod:`~compsem.probing.tasks`: the 2016 and 2018 tasks with lexical-balance controls, the
  structural generalisation splits, Hewitt & Liang control tasks;
- :mod:`~compsem.probing.audit`: can a bag of words or the probe alone answer a task?
- :mod:`~compsem.probing.features`, :mod:`~compsem.probing.classifiers`,
  :mod:`~compsem.probing.evaluate`: sentence vectors, the two papers' classifiers, the loop;
- :mod:`~compsem.probing.geometry`: minimal-pair cosines without training.
"""
