"""compsem.sts.modifier_types: Figure 9 and subadditivity (§5.4)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from compsem import paths
from compsem.sts import modifier_types as M

TARGETS = json.loads((paths.TARGETS_DIR / "sts3k.json").read_text())
KEYS = {
    "Place": "place",
    "Time": "time",
    "Manner": "manner",
    "add IOBJ": "add_iobj",
    "SUBJ adj": "subj_adj",
    "DOBJ adj": "dobj_adj",
    "IOBJ adj": "iobj_adj",
    "Passive": "passive",
}


def within(key, value):
    target = TARGETS[key]
    assert abs(value - target["paper"]) <= target["tol"] + 1e-12, (key, value, target["paper"])


def test_row_lists_and_exclusions():
    sizes = {k: len(v) for k, v in M.MODIFIER_ROWS.items()}
    assert sizes == {
        "Place": 30,
        "Time": 32,
        "Manner": 17,
        "add IOBJ": 21,
        "SUBJ adj": 64,
        "DOBJ adj": 51,
        "IOBJ adj": 15,
        "Passive": 12,
    }
    groups = M.modifier_groups()
    assert len(groups["add IOBJ"]) == 20 and len(groups["Passive"]) == 11
    rows = np.concatenate(list(groups.values()))
    assert len(rows) == len(set(rows)) == 240
    assert len(M.modifier_groups(exclude=())["Passive"]) == 12


def test_toy_reductions_and_z():
    human = np.full(2800, 0.8)
    human[M.modifier_groups()["Passive"]] = 0.9
    table = M.reductions(human)
    assert table.loc["Place", "reduction"] == pytest.approx(0.2)
    assert table.loc["Passive", "reduction"] == pytest.approx(0.1)
    # 7 categories at 0.2, one at 0.1: mean 0.1875, population SD sqrt(7)/80.
    assert table.loc["Passive", "z"] == pytest.approx((0.1875 - 0.1) / (np.sqrt(7) / 80))


@pytest.fixture(scope="module")
def human():
    from compsem.data import sts3k

    return sts3k.load_pairs()["human"].to_numpy()


@pytest.mark.needs_data
def test_figure9(human):
    table = M.reductions(human)
    for name, key in KEYS.items():
        within(f"modifier_reduction_{key}", table.loc[name, "reduction"])
    within("modifier_reduction_mean", M.mean_reduction(human))
    within("passive_z", table.loc["Passive", "z"])
    within("anova_f", M.anova(human)["F"])
    tests = M.t_tests(human)
    within("place_t_test_p", tests.loc["Place", "p"])
    assert tests.loc["Passive", "p"] < 1e-4
    assert (tests.drop(["Place", "Passive"])["p"] > 0.01).all()


@pytest.mark.needs_data
def test_subadditivity(human):
    from compsem.data import sts3k
    from compsem.sts import pair_types

    labels = pair_types.reconstruct_pair_types(sts3k.load_pairs(), sts3k.load_stopwords())
    means = M.subadditivity(labels, human)
    for k in (1, 2, 3, 4, 6):
        within(f"only_mod_similarity_{k}", means.loc[float(k)])
    assert means.is_monotonic_decreasing
