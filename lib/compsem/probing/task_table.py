"""The table of probing tasks: what each asks, where it comes from, and whether its answer
needs structure (then every bag-of-words and probe-only control of :mod:`compsem.probing.audit`
must sit at chance).

The three tasks of Ettinger, Elgohary & Resnik (2016) Table 3, the two they proposed (Tables
1-2, never run there), and the five probed tasks of Ettinger et al. (2018) Table 2. Their
builders: :mod:`compsem.probing.tasks2016`, :mod:`compsem.probing.proposed2016`,
:mod:`compsem.probing.tasks2018` (and :mod:`compsem.probing.generalisation`, whose tasks are named
``base:split`` and inherit their base task's entry).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TaskInfo:
    """What a task asks and whether its answer needs structure (then every bag-of-words and
    probe-only control must sit at chance, :mod:`compsem.probing.audit`)."""

    name: str
    question: str
    requires_structure: bool
    probes: int  # number of probe words per item (0, 1 or 2)
    source: str


TASKS = {
    t.name: t
    for t in [
        TaskInfo(
            "has-school",
            "does the sentence contain 'school'?",
            False,
            0,
            "Ettinger et al. 2016, Table 3",
        ),
        TaskInfo(
            "has-human",
            "does the sentence contain a human noun (test nouns unseen)?",
            False,
            0,
            "Ettinger et al. 2016, Table 3",
        ),
        TaskInfo(
            "school-as-agent",
            "is 'school' the agent (active/passive sentences)?",
            True,
            0,
            "Ettinger et al. 2016, Table 3",
        ),
        TaskInfo(
            "prof-ag-of-rec",
            "is 'professor' the agent of 'recommend'?",
            True,
            0,
            "Ettinger et al. 2016, Table 1 (proposed)",
        ),
        TaskInfo(
            "prof-recommends",
            "does a professor perform an act of recommending?",
            True,
            0,
            "Ettinger et al. 2016, Table 2 (proposed)",
        ),
        TaskInfo("cont1", "does verb v occur?", False, 1, "Ettinger et al. 2018, Table 2"),
        TaskInfo(
            "cont2", "do noun n and verb v both occur?", False, 2, "Ettinger et al. 2018, Table 2"
        ),
        TaskInfo("order", "does noun n precede verb v?", True, 2, "Ettinger et al. 2018, Table 2"),
        TaskInfo("sr", "is noun n the agent of verb v?", True, 2, "Ettinger et al. 2018, Table 2"),
        TaskInfo("neg", "is verb v not negated?", True, 1, "Ettinger et al. 2018, Table 2"),
    ]
}


def task_info(name: str) -> TaskInfo:
    """The :class:`TaskInfo` of a task name (generalisation splits inherit their base task's)."""
    base = name.split(":")[0]
    if base not in TASKS:
        raise ValueError(f"unknown task {name!r}; known: {', '.join(TASKS)}")
    return TASKS[base]
