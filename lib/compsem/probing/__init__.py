"""Probing sentence vectors for composition (Ettinger, Elgohary & Resnik 2016; Ettinger,
Elgohary, Phillips & Resnik 2018).

Modules, in the order of the method:

- :mod:`~compsem.probing.lexicon`: the hand-written lexicon and inflection table (data in
  ``data/lexicons/probing_lexicon.yaml``) and the papers' example sentences;
- :mod:`~compsem.probing.events`: event structures and their realisation as annotated sentences;
- :mod:`~compsem.probing.reader`: the inverse, a parser of the generator's grammar (checks the
  generator, annotates the released 2018 files);
- :mod:`~compsem.probing.generator`: random events from a grammar, deterministic in a seed;
- :mod:`~compsem.probing.item_frames`: the item-frame format of every task and its shared
  plumbing (sampling groups of items, balanced train/test splits);
- :mod:`~compsem.probing.predicates`: the structure of a sentence and the semantic relations
  the tasks label by; :mod:`~compsem.probing.task_table`: what each task asks;
- :mod:`~compsem.probing.grammars`: the generator settings of the 2016 and 2018 sentence sets;
- :mod:`~compsem.probing.tasks2016` (2016 Table 3), :mod:`~compsem.probing.proposed2016`
  (2016 Tables 1-2), :mod:`~compsem.probing.tasks2018` (2018 Table 2): the tasks with
  lexical-balance controls; :mod:`~compsem.probing.generalisation`: structural generalisation
  splits; :mod:`~compsem.probing.released2018`: the released 2018 files as item frames;
- :mod:`~compsem.probing.audit`: can a bag of words or the probe alone answer a task?
- :mod:`~compsem.probing.features`, :mod:`~compsem.probing.classifiers`,
  :mod:`~compsem.probing.evaluate`: sentence vectors, the two papers' classifiers, one probe;
- :mod:`~compsem.probing.controls`: Hewitt & Liang control tasks and when they are sound;
- :mod:`~compsem.probing.experiment`: the grid of tasks x encoders x controls x seeds, its
  summary with intervals and selectivity;
- :mod:`~compsem.probing.geometry`: minimal-pair cosines without training;
- :mod:`~compsem.probing.chapter`: the tables, figures and glued numbers of the chapter.

The order-aware recurrent encoder trained here (an SDAE) is :mod:`compsem.models.sdae`.
"""
